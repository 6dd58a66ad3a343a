//! Invariants of every run, over random scenarios: requests are conserved,
//! no more cores are busy than exist, time never goes back (nor stands
//! still for thousands of events), utilisation
//! stays within 0–1, nothing is NaN, and the same seed gives the same report.

use proptest::prelude::*;
use tellers_sim::schedule::Schedule;
use tellers_sim::{
    Accept, Arrivals, Discipline, Dist, Model, Scenario, Simulation, TellerKind, TellerState,
    SNAPSHOT_TELLERS,
};

fn scenario() -> impl Strategy<Value = Scenario> {
    let model = prop_oneof![
        Just(Model::ThreadPerRequest),
        Just(Model::ThreadPool),
        Just(Model::EventLoop),
        Just(Model::EventLoopWorkers)
    ];
    let accept = prop_oneof![
        Just(Accept::Shared),
        Just(Accept::Random),
        Just(Accept::RoundRobin),
        Just(Accept::Idlest)
    ];
    let arrivals = prop_oneof![
        Just(Arrivals::Poisson),
        Just(Arrivals::Uniform),
        Just(Arrivals::Batch),
        Just(Arrivals::Closed)
    ];
    let dist = prop_oneof![Just(Dist::Const), Just(Dist::Exp)];
    (
        (model, accept, arrivals, dist.clone(), dist),
        (
            1u32..8,
            0u32..40,
            0u32..6,
            1u32..6,
            proptest::option::of(1u32..20),
        ),
        (
            0.0f64..20.0,
            0.0f64..100.0,
            0.0f64..5.0,
            0.0f64..0.3,
            1.0f64..2000.0,
        ),
        (
            proptest::option::of(5.0f64..500.0),
            any::<bool>(),
            0.2f64..3.0,
            any::<u64>(),
            0.0f64..2.0,
        ),
        (
            0u32..4,
            0.0f64..200.0,
            proptest::option::of(0.05f64..1.0),
            prop_oneof![
                Just(Discipline::Fifo),
                Just(Discipline::Lifo),
                Just(Discipline::AdaptiveLifo)
            ],
            proptest::option::of(10.0f64..500.0),
            any::<bool>(),
            proptest::option::of((1.0f64..3000.0, 0.5f64..2.0)),
        ),
        (
            proptest::option::of(1u32..6),
            proptest::option::of(1u32..6),
            1u32..5,
            proptest::option::of(0.5f64..50.0),
            prop_oneof![Just(1u32), 2u32..20],
            any::<bool>(),
            proptest::option::of(1u32..50),
            proptest::option::of((1u32..10, 0.0f64..2000.0)),
        ),
    )
        .prop_map(
            |(
                (model, accept, arrivals, cpu_dist, wait_dist),
                (cores, threads, loops, workers, queue_limit),
                (cpu, wait, write, heavy, rps),
                (timeout, drop, dur, seed, handoff),
                (retries, backoff, budget, discipline, shed, hopeless, spike),
                (
                    dep_concurrency,
                    dep_pool,
                    fan_out,
                    hedge,
                    conn_requests,
                    per_loop,
                    max_conns,
                    breaker,
                ),
            )| {
                Scenario {
                    breaker_after: breaker.map(|(n, _)| n),
                    breaker_open_ms: breaker.map_or(1000.0, |(_, t)| t),
                    max_connections: max_conns,
                    dep_concurrency,
                    dep_pool,
                    fan_out,
                    hedge_after_ms: hedge,
                    conn_requests,
                    pool_per_loop: per_loop,
                    retries,
                    retry_backoff_ms: backoff,
                    retry_budget: budget,
                    discipline,
                    shed_after_ms: shed,
                    drop_hopeless: hopeless,
                    // A spike to `rps × factor` from half the run to three quarters.
                    rps_schedule: spike.map(|(to, at)| {
                        Schedule::new(&[(0.0, rps), (at * dur / 4.0, to), (at * dur / 2.0, rps)])
                            .unwrap()
                    }),
                    model,
                    accept,
                    arrivals,
                    cpu_dist,
                    wait_dist,
                    cores,
                    threads: threads.max(1),
                    thread_cap: (threads > 0).then_some(threads),
                    loops,
                    workers,
                    queue_limit,
                    cpu_ms: cpu,
                    wait_ms: wait,
                    write_ms: write,
                    heavy_share: heavy,
                    heavy_cpu_ms: 30.0,
                    offload_above_ms: 5.0,
                    handoff_ms: handoff,
                    rps,
                    count: 300,
                    clients: 12,
                    timeout_ms: timeout,
                    drop_abandoned: drop,
                    duration_s: dur,
                    max_events: 300_000,
                    seed,
                    ..Scenario::default()
                }
            },
        )
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn every_run_keeps_the_invariants(s in scenario()) {
        let mut sim = Simulation::new(&s).unwrap();
        let mut last = 0;
        let mut steps = 0u64;
        // Events at one instant: a batch of 300 takes a few thousand; a run
        // standing still (a refusal or drop answered by a new try at the
        // same instant, without end) takes the whole event budget.
        let mut at_once = 0u64;
        while sim.step() {
            prop_assert!(sim.now() >= last, "time went back");
            at_once = if sim.now() == last { at_once + 1 } else { 0 };
            prop_assert!(at_once < 20_000, "20,000 events at {} ns: the run stands still", last);
            last = sim.now();
            steps += 1;
            if steps.is_multiple_of(16) {
                let snap = sim.snapshot();
                prop_assert!(snap.busy_cores <= s.cores);
                prop_assert!(snap.line <= snap.inside);
                prop_assert!(snap.tellers_busy <= snap.tellers_alive);
                let shown_busy = snap.tellers.iter().filter(|t| t.state != TellerState::Idle).count() as u64;
                prop_assert!(shown_busy <= snap.tellers_busy, "the count covers every teller, not only those shown");
                // An event loop's count is the requests pinned to it. Loops
                // that take connections in turn or at random pin every
                // request as it comes in, so together they count all inside;
                // the idlest loop leaves its listen line unpinned; with the
                // shared line none is pinned, and a loop counts what it runs.
                let loops: Vec<u64> = snap.tellers.iter().filter(|t| t.kind == TellerKind::Loop).map(|t| u64::from(t.load)).collect();
                prop_assert!(snap.worker_line <= snap.inside, "{:?}", snap);
                prop_assert_eq!(snap.loop_counts, !loops.is_empty() && s.accept != Accept::Shared);
                if snap.tellers_alive <= SNAPSHOT_TELLERS as u64 {
                    prop_assert_eq!(snap.loops, loops.len() as u64);
                }
                if !loops.is_empty() && snap.tellers_alive <= SNAPSHOT_TELLERS as u64 {
                    let held: u64 = loops.iter().sum();
                    match s.accept {
                        Accept::RoundRobin | Accept::Random => prop_assert_eq!(held, snap.inside, "{:?}", snap),
                        // Only the listen line, part of the line, is unpinned.
                        Accept::Idlest => prop_assert!(held <= snap.inside && snap.inside - held <= snap.line, "{:?}", snap),
                        Accept::Shared => prop_assert!(loops.iter().all(|&n| n <= 1), "{:?}", snap),
                    }
                }
            }
        }
        let r = sim.report();
        prop_assert_eq!(
            r.arrived,
            r.completed + r.refused + r.dropped + r.shed + r.dropped_hopeless + r.in_flight_end,
            "conservation: {:?}", r
        );
        prop_assert_eq!(r.attempts + r.broken, r.calls + r.retries);
        prop_assert!(r.calls_succeeded + r.calls_failed <= r.calls);
        prop_assert!(r.retries <= u64::from(s.retries) * r.calls);
        prop_assert!(r.hedges <= r.dep_calls);
        if let Some(u) = r.dep_utilisation {
            prop_assert!((0.0..=1.0).contains(&u), "dep utilisation {}", u);
        }
        prop_assert!(r.finished_after_timeout <= r.completed);
        // Open connections (each request's, or keep-alive ones between
        // their requests) never pass the limit.
        if let Some(m) = s.max_connections {
            prop_assert!(r.peak_connections <= u64::from(m), "{} > {}", r.peak_connections, m);
        }
        // Response times measured: finished requests of the window, and
        // none at all means no latency figure (all zero).
        prop_assert!(r.measured <= r.completed);
        if r.measured == 0 {
            prop_assert!(r.latency_ms.max == 0.0 && r.latency_ms.mean == 0.0, "{:?}", r.latency_ms);
        }
        prop_assert!(r.admitted_rps <= r.arrival_rps);
        prop_assert!(r.timed_out <= r.arrived);
        prop_assert!((0.0..=1.0).contains(&r.cpu_utilisation), "cpu {}", r.cpu_utilisation);
        for p in &r.series {
            prop_assert!(p.cpu <= 1.0 + 1e-9, "series cpu {}", p.cpu);
        }
        let json = serde_json::to_string(&r).unwrap();
        prop_assert!(!json.contains("NaN") && !json.contains("null,\"littles"), "{}", json);
        for v in [r.latency_ms.mean, r.latency_ms.p99, r.throughput_rps, r.mean_in_flight, r.littles_law_in_flight] {
            prop_assert!(v.is_finite() && v >= 0.0);
        }
    }

    #[test]
    fn same_seed_same_report(s in scenario()) {
        let a = tellers_sim::simulate(&s).unwrap();
        let b = tellers_sim::simulate(&s).unwrap();
        prop_assert_eq!(a, b);
    }
}

#[test]
fn a_different_seed_gives_a_different_run() {
    let a = tellers_sim::simulate(&Scenario {
        seed: 1,
        ..Scenario::default()
    })
    .unwrap();
    let b = tellers_sim::simulate(&Scenario {
        seed: 2,
        ..Scenario::default()
    })
    .unwrap();
    assert_ne!(a.latency_ms.mean, b.latency_ms.mean);
}
