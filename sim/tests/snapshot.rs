//! What the animation is given: bounded lists, but counts over everything.

use tellers_sim::{Model, Scenario, Simulation, TellerState, SNAPSHOT_TELLERS};

/// A thread per request on 4 cores, λ = 2,000/s, each request waiting 1 s
/// off the CPU: about 2,000 threads at once.
fn two_thousand_threads(cpu_ms: f64) -> Simulation {
    let s = Scenario {
        model: Model::ThreadPerRequest,
        cores: 4,
        cpu_ms,
        wait_ms: 1000.0,
        rps: 2000.0,
        duration_s: 10.0,
        ..Scenario::default()
    };
    Simulation::new(&s).unwrap()
}

#[test]
fn with_thousands_of_threads_the_snapshot_lists_256_but_counts_them_all() {
    let mut sim = two_thousand_threads(0.2);
    sim.run_until(5_000_000_000, u64::MAX);
    let snap = sim.snapshot();
    assert_eq!(snap.tellers.len(), SNAPSHOT_TELLERS, "the list is bounded");
    assert!(snap.tellers_alive > 1_500, "{} threads", snap.tellers_alive);
    assert!(snap.tellers_busy > 1_500, "{} busy", snap.tellers_busy);
    assert!(snap.tellers_busy <= snap.tellers_alive);
    assert!(snap.inside > 1_500 && snap.waiting > 1_500, "{snap:?}");
}

#[test]
fn the_tellers_on_a_core_are_always_among_those_listed() {
    // Most of the 2,000 threads wait; the few on a core must be drawn.
    let mut sim = two_thousand_threads(1.0);
    let mut seen_busy = 0;
    for second in 2..8u64 {
        sim.run_until(second * 1_000_000_000, u64::MAX);
        let snap = sim.snapshot();
        let on_core = snap
            .tellers
            .iter()
            .filter(|t| t.state == TellerState::OnCore)
            .count();
        assert_eq!(
            on_core as u32, snap.busy_cores,
            "at {second} s: {} cores busy",
            snap.busy_cores
        );
        seen_busy += on_core;
    }
    assert!(
        seen_busy > 0,
        "some thread was on a core at some sampled moment"
    );
}

/// 64 loops, each with its own pool of 1,000 workers: 64,064 tellers. The
/// snapshot counts them all and lists those on a core first, read from the
/// cores rather than by walking every teller each frame (ten million
/// tellers took 100 to 200 ms a frame).
#[test]
fn a_snapshot_of_tens_of_thousands_of_workers_counts_them_and_lists_the_cores_first() {
    let s = Scenario {
        model: Model::EventLoopWorkers,
        cores: 64,
        loops: 64,
        workers: 1000,
        pool_per_loop: true,
        cpu_ms: 50.0,
        offload_above_ms: 0.0,
        wait_ms: 0.0,
        rps: 1200.0,
        duration_s: 10.0,
        ..Scenario::default()
    };
    let mut sim = Simulation::new(&s).unwrap();
    sim.run_until(5_000_000_000, u64::MAX);
    let snap = sim.snapshot();
    assert_eq!(snap.tellers_alive, 64 + 64 * 1000);
    assert_eq!(snap.tellers.len(), SNAPSHOT_TELLERS);
    let on_core = snap
        .tellers
        .iter()
        .filter(|t| t.state == TellerState::OnCore)
        .count();
    assert_eq!(on_core as u32, snap.busy_cores);
    assert!(snap.busy_cores > 32, "{}", snap.busy_cores);
    assert!(snap.tellers_busy >= u64::from(snap.busy_cores));
}

/// The scene's "Timed out" counts what the report counts: with adaptive
/// LIFO thousands of callers give up while their requests still sit at the
/// back of the line, and the counter had shown only those finished late
/// (5 of 2,341 at the end of the preset's run).
#[test]
fn the_timed_out_count_includes_requests_still_inside_past_their_timeout() {
    let s = tellers_sim::presets::preset("overload-adaptive-lifo").unwrap();
    let mut sim = Simulation::new(&s).unwrap();
    for second in [5u64, 20, 40] {
        sim.run_until(second * 1_000_000_000, u64::MAX);
        let (snap, r) = (sim.snapshot(), sim.report());
        assert_eq!(snap.timed_out, r.timed_out, "at {second} s");
        assert!(
            r.timed_out > 10 * r.finished_after_timeout.max(1),
            "at {second} s: {r:?}"
        );
    }
    while sim.run_until(u64::MAX, 1_000_000) {}
    let (snap, r) = (sim.snapshot(), sim.report());
    assert_eq!(snap.timed_out, r.timed_out);
    assert!(r.timed_out > 1_000, "{}", r.timed_out);
}

/// The scene's count of tries the circuit breaker blocked is the report's
/// (its outcome row "Blocked"), during the spike-breaker preset's run and
/// at its end, and a run without a breaker has none to show.
#[test]
fn the_breakers_blocked_count_is_the_reports() {
    let s = tellers_sim::presets::preset("spike-breaker").unwrap();
    let mut sim = Simulation::new(&s).unwrap();
    for second in [5u64, 18, 25] {
        sim.run_until(second * 1_000_000_000, u64::MAX);
        let (snap, r) = (sim.snapshot(), sim.report());
        assert_eq!(
            snap.breaker.map(|b| b.broken),
            Some(r.broken),
            "at {second} s"
        );
    }
    while sim.run_until(u64::MAX, 1_000_000) {}
    let (snap, r) = (sim.snapshot(), sim.report());
    assert_eq!(snap.breaker.map(|b| b.broken), Some(r.broken));
    assert!(r.broken > 100, "the spike opened it: {}", r.broken);
    let plain = Simulation::new(&Scenario {
        breaker_after: None,
        ..s
    })
    .unwrap();
    assert_eq!(plain.snapshot().breaker, None);
}

/// The growth of the requests inside is the arrivals less the completions
/// over the same span (nothing is turned away here), which the signs give
/// beside it: over the whole window they differed by up to 5 a second.
/// Mid-run too, before the growth's span moves to the run's last two
/// thirds, and after.
#[test]
fn growth_is_arrivals_less_completions_over_its_span() {
    for name in ["sale-day", "sale-day-pool-40"] {
        let s = tellers_sim::presets::preset(name).unwrap();
        let mut sim = Simulation::new(&s).unwrap();
        for second in [5u64, 12, 15, 20] {
            sim.run_until(second * 1_000_000_000, u64::MAX);
            let r = sim.report();
            assert_eq!(r.turned_away(), 0);
            let in_less_out = r.growth_arrival_rps - r.growth_throughput_rps;
            assert!(
                (r.inside_growth_per_s - in_less_out).abs() < 1e-9,
                "{name} at {second} s: {} against {in_less_out}",
                r.inside_growth_per_s
            );
            // From 8 s on once the run is at 14 s (two thirds of 2 s to 20 s).
            let from = if second >= 14 { 8.0 } else { 2.0 };
            assert!(
                (r.growth_from_s - from).abs() < 1e-9,
                "{name} at {second} s: {}",
                r.growth_from_s
            );
        }
    }
}

/// Growth measured from the start of a run counts from what arrived at 0:
/// ten closed clients fill the server with their first requests at once
/// and never hold more (the figures had said the requests inside grew by
/// 2 a second over 5 s), and a batch's line, all there at 0, only drains.
#[test]
fn what_arrives_at_the_start_is_not_growth() {
    let closed = tellers_sim::Scenario {
        duration_s: 5.0,
        ..tellers_sim::presets::preset("node-moderate-blocking").unwrap()
    };
    assert_eq!(closed.warmup, 0.0);
    let r = tellers_sim::simulate(&closed).unwrap();
    assert_eq!(r.in_flight_end, 10);
    assert_eq!(r.inside_growth_per_s, 0.0);
    let batch = tellers_sim::Scenario {
        duration_s: 2.0,
        ..tellers_sim::presets::preset("batch-pool-20").unwrap()
    };
    let r = tellers_sim::simulate(&batch).unwrap();
    assert!(r.queue_growth_per_s < 0.0, "{}", r.queue_growth_per_s);
    assert!(r.inside_growth_per_s < 0.0, "{}", r.inside_growth_per_s);
}

/// A step under way holds its loop too: 5 s into a run of 8.3 s requests
/// on one loop, the first request's step has held the loop since it
/// arrived and none has ended, and the report's longest hold said 0 ms.
#[test]
fn a_step_still_running_counts_in_the_longest_loop_hold() {
    let s = tellers_sim::presets::preset("node-collapse-blocking").unwrap();
    let mut sim = Simulation::new(&s).unwrap();
    sim.run_until(5_000_000_000, u64::MAX);
    let r = sim.report();
    let b = r.loop_block_ms.unwrap();
    assert_eq!(r.completed, 0, "no request has finished yet");
    assert_eq!(b.p99, 0.0, "no step has ended");
    // The first arrival came within the first second (a few a second).
    assert!(b.max > 4_000.0 && b.max <= 5_000.0, "{b:?}");
    // Run on: once steps end, the longest is a whole step of about 8.3 s
    // of CPU (the loop waits for nothing else; exponential times vary).
    sim.run_until(60_000_000_000, u64::MAX);
    let r = sim.report();
    let b = r.loop_block_ms.unwrap();
    assert!(b.p99 > 0.0 && b.max >= b.p99, "{b:?}");
}

/// An event loop's count in the scene is every request pinned to it, those
/// waiting off the CPU too: lesson 5's one loop (10 ms steps, 90 ms waits,
/// 100 evenly spaced requests a second) holds ten at once, as its caption
/// says, though it runs one step at a time (its count had read 1, with the
/// other nine only in the back office).
#[test]
fn an_event_loop_counts_the_requests_waiting_off_the_cpu_as_its_own() {
    let s = Scenario {
        model: Model::EventLoop,
        cores: 1,
        loops: 1,
        cpu_ms: 10.0,
        cpu_dist: tellers_sim::Dist::Const,
        wait_ms: 90.0,
        wait_dist: tellers_sim::Dist::Const,
        arrivals: tellers_sim::Arrivals::Uniform,
        rps: 100.0,
        duration_s: 20.0,
        ..Scenario::default()
    };
    let mut sim = Simulation::new(&s).unwrap();
    let mut counts = Vec::new();
    // 199 moments from 1 s on, none on a 10 ms boundary.
    for k in 0..199u64 {
        sim.run_until(1_003_000_000 + k * 95_000_000, u64::MAX);
        let snap = sim.snapshot();
        let the_loop = snap.tellers[0];
        assert_eq!(the_loop.kind, tellers_sim::TellerKind::Loop);
        assert_eq!(u64::from(the_loop.load), snap.inside, "{snap:?}");
        assert!(snap.waiting >= 8, "most of them wait off the CPU: {snap:?}");
        counts.push(the_loop.load);
    }
    assert!(counts.iter().all(|&n| n == 10), "{counts:?}");
}

/// Requests waiting for a worker are counted for the scene: with one
/// worker behind a loop, most of the loop's requests wait for it, neither
/// in the line nor off the CPU (the scene showed them nowhere).
#[test]
fn the_wait_for_a_worker_is_counted() {
    let s = tellers_sim::presets::preset("one-worker-limit").unwrap();
    let mut sim = Simulation::new(&s).unwrap();
    sim.run_until(20_000_000_000, u64::MAX);
    let snap = sim.snapshot();
    assert!(snap.loop_counts);
    assert!(snap.worker_line >= 5, "{snap:?}");
    let held: u64 = snap
        .tellers
        .iter()
        .filter(|t| t.kind == tellers_sim::TellerKind::Loop)
        .map(|t| u64::from(t.load))
        .sum();
    assert!(held >= snap.worker_line + snap.waiting, "{snap:?}");
}

/// With a pool for each loop the snapshot says how many workers each loop
/// has, and lists each loop's workers after the loops in the loops' order,
/// as the scene stands them under their loop: a busy worker runs one of its
/// own loop's requests, so no loop has more busy workers under it than
/// requests it holds (checked at 200 moments of lesson 12's offload).
#[test]
fn each_loops_own_workers_are_listed_in_the_loops_order() {
    let preset = tellers_sim::presets::preset("waf-offload-round-robin").unwrap();
    assert!(preset.pool_per_loop && preset.workers >= 1);
    // At the preset's rate, and at a low one, where most loops hold
    // nothing and a worker listed under the wrong loop shows at once.
    for rps in [preset.rps, 150.0] {
        let s = Scenario {
            rps,
            ..preset.clone()
        };
        each_loops_workers_under_it(&s);
    }
    // One shared pool: no workers of a loop's own.
    let shared = Scenario {
        pool_per_loop: false,
        ..preset
    };
    let mut sim = Simulation::new(&shared).unwrap();
    sim.run_until(1_000_000_000, u64::MAX);
    assert_eq!(sim.snapshot().workers_per_loop, 0);
}

/// At 200 moments of a run of `s`: each loop's busy workers hold no more
/// requests than the loop does.
fn each_loops_workers_under_it(s: &Scenario) {
    let mut sim = Simulation::new(s).unwrap();
    let (loops, per) = (s.loops as usize, s.workers as usize);
    let mut busy_seen = 0;
    for k in 0..200u64 {
        sim.run_until(500_000_000 + k * 37_000_000, u64::MAX);
        let snap = sim.snapshot();
        assert_eq!(snap.workers_per_loop, s.workers);
        assert_eq!(snap.tellers.len(), loops * (1 + per));
        for (i, the_loop) in snap.tellers[..loops].iter().enumerate() {
            assert_eq!(the_loop.kind, tellers_sim::TellerKind::Loop);
            let own = &snap.tellers[loops + i * per..loops + (i + 1) * per];
            let busy = own.iter().filter(|w| w.state != TellerState::Idle).count();
            assert!(own
                .iter()
                .all(|w| w.kind == tellers_sim::TellerKind::Worker));
            assert!(busy as u32 <= the_loop.load, "loop {i} at {k}: {snap:?}");
            busy_seen += busy;
        }
    }
    assert!(busy_seen > 5, "the workers were busy at times: {busy_seen}");
}

/// A run played in small steps, as the lab plays it at a slow speed, ends
/// when an uninterrupted one does, with the same report. Where no event
/// fell at the end itself (0.7 s, whose sample interval is cut short, so
/// the next sample falls past the end), a step past the end left the clock
/// where it was and the run not ended: the lab asked for the same time
/// each frame, for ever.
#[test]
fn a_run_played_in_small_steps_ends_as_an_uninterrupted_one_does() {
    // 1 ms a frame: 16 ms at a speed of 1/16.
    for duration_s in [0.7, 1.0, 2.3] {
        // One request a second: near the end, only samples fall.
        let s = Scenario {
            arrivals: tellers_sim::Arrivals::Uniform,
            rps: 1.0,
            duration_s,
            ..Scenario::default()
        };
        let mut sim = Simulation::new(&s).unwrap();
        let mut frames = 0;
        while sim.run_until(sim.now() + 1_000_000, 10_000) {
            frames += 1;
            assert!(
                frames < 100_000,
                "{duration_s} s: stalled at {} ns",
                sim.now()
            );
        }
        assert_eq!(
            sim.report(),
            tellers_sim::simulate(&s).unwrap(),
            "{duration_s} s"
        );
    }
}
