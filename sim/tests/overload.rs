//! Overload: load schedules, retries with backoff and budgets, shedding,
//! LIFO and adaptive LIFO, dropping hopeless requests — each against the
//! exact result it has, and each overload preset's story, with numbers.
//!
//! Tolerances: means over long M/M/1 runs (600 s, ~48,000 requests at
//! ρ = 0.8) have a relative standard error near 3 % (waits are strongly
//! correlated); 8 % is well over two standard errors for one run and the
//! FIFO/LIFO comparison uses the same arrivals and services (same seed), so
//! most of the noise is shared.

use tellers_sim::presets::preset;
use tellers_sim::schedule::Schedule;
use tellers_sim::{
    simulate, Arrivals, BreakerState, Discipline, Model, Report, Scenario, Simulation,
};

fn run(s: &Scenario) -> Report {
    simulate(s).unwrap_or_else(|e| panic!("{e:?}"))
}

/// Every try ends exactly one way, and every try is a call or a retry.
fn conserved(r: &Report, what: &str) {
    assert_eq!(r.attempts, r.arrived, "{what}");
    assert_eq!(
        r.attempts,
        r.calls + r.retries - r.broken,
        "{what}: tries = calls + retries, less those the breaker failed at once"
    );
    assert_eq!(
        r.arrived,
        r.completed + r.refused + r.dropped + r.shed + r.dropped_hopeless + r.in_flight_end,
        "{what}: every try ends one way"
    );
    assert!(r.calls_succeeded + r.calls_failed <= r.calls, "{what}");
}

/// Mean goodput, rps, over the series points with `from ≤ t < to` (s).
fn goodput_between(r: &Report, from: f64, to: f64) -> f64 {
    let pts: Vec<f64> = r
        .series
        .iter()
        .filter(|p| p.t_s > from && p.t_s <= to)
        .map(|p| p.goodput_rps)
        .collect();
    pts.iter().sum::<f64>() / pts.len().max(1) as f64
}

/// Seconds after `after` until goodput over the next 2 s is back to at
/// least `share` of `rps`; `None` if it never is.
fn recovery_s(r: &Report, after: f64, rps: f64, share: f64) -> Option<f64> {
    r.series
        .iter()
        .filter(|p| p.t_s >= after)
        .map(|p| p.t_s)
        .find(|&t| goodput_between(r, t, t + 2.0) >= share * rps)
        .map(|t| t - after)
}

#[test]
fn every_overload_preset_conserves_tries() {
    for name in [
        "spike-metastable",
        "spike-retry-budget",
        "spike-breaker",
        "spike-shed",
        "overload-fifo",
        "overload-adaptive-lifo",
    ] {
        conserved(&run(&preset(name).unwrap()), name);
    }
}

#[test]
fn a_load_schedule_sets_the_rate_of_each_step() {
    // 100 rps for 20 s, then 400 for 20 s, then none; a server with room to spare.
    let s = Scenario {
        model: Model::EventLoop,
        cores: 8,
        cpu_ms: 0.5,
        wait_ms: 1.0,
        rps_schedule: Some(Schedule::new(&[(0.0, 100.0), (20.0, 400.0), (40.0, 0.0)]).unwrap()),
        duration_s: 50.0,
        warmup: 0.0,
        ..Scenario::default()
    };
    let r = run(&s);
    // 2,000 + 8,000 Poisson arrivals: standard deviation ≈ √10,000 = 100.
    assert!(
        (r.calls as f64 - 10_000.0).abs() < 400.0,
        "{} calls",
        r.calls
    );
    let offered = |from: f64, to: f64| {
        let p: Vec<f64> = r
            .series
            .iter()
            .filter(|p| p.t_s > from && p.t_s <= to)
            .map(|p| p.offered_rps)
            .collect();
        p.iter().sum::<f64>() / p.len() as f64
    };
    // 15 s of arrivals at each rate: ±3 standard errors is about ±8 % at 100 rps.
    assert!(
        (offered(2.0, 18.0) - 100.0).abs() < 8.0,
        "{}",
        offered(2.0, 18.0)
    );
    assert!(
        (offered(22.0, 38.0) - 400.0).abs() < 16.0,
        "{}",
        offered(22.0, 38.0)
    );
    assert_eq!(offered(42.0, 50.0), 0.0);
}

/// A schedule that starts with a pause lets nobody in during it (one
/// request came in at 0 s).
#[test]
fn a_schedule_that_starts_with_a_pause_lets_nobody_in_during_it() {
    for arrivals in [Arrivals::Poisson, Arrivals::Uniform] {
        let s = Scenario {
            arrivals,
            rps_schedule: Some(Schedule::new(&[(0.0, 0.0), (5.0, 50.0)]).unwrap()),
            duration_s: 10.0,
            warmup: 0.0,
            ..Scenario::default()
        };
        let r = run(&s);
        let before: f64 = r
            .series
            .iter()
            .filter(|p| p.t_s <= 5.0)
            .map(|p| p.offered_rps)
            .sum();
        assert_eq!(before, 0.0, "{arrivals:?}: arrivals during the pause");
        // 250 arrivals expected after it (Poisson: standard deviation ≈ 16).
        assert!(
            (r.calls as f64 - 250.0).abs() < 80.0,
            "{arrivals:?}: {} calls",
            r.calls
        );
    }
}

#[test]
fn lifo_and_fifo_have_the_same_mean_in_mm1_and_mmc_but_not_the_same_tail() {
    for name in ["mm1", "mm4"] {
        let fifo = run(&preset(name).unwrap());
        let lifo = run(&Scenario {
            discipline: Discipline::Lifo,
            ..preset(name).unwrap()
        });
        let adaptive = run(&Scenario {
            discipline: Discipline::AdaptiveLifo,
            lifo_above_ms: 20.0,
            ..preset(name).unwrap()
        });
        let theory = tellers_sim::theory::theory(&preset(name).unwrap())
            .mean_ms
            .unwrap();
        for (what, r) in [("fifo", &fifo), ("lifo", &lifo), ("adaptive", &adaptive)] {
            let rel = (r.latency_ms.mean - theory).abs() / theory;
            assert!(
                rel < 0.08,
                "{name} {what}: mean {} vs {theory}",
                r.latency_ms.mean
            );
        }
        // The order moves waiting from the many to the few: a longer tail.
        assert!(
            lifo.latency_ms.p999 > 2.0 * fifo.latency_ms.p999,
            "{name}: LIFO p99.9 {} vs FIFO {}",
            lifo.latency_ms.p999,
            fifo.latency_ms.p999
        );
    }
}

#[test]
fn retries_multiply_the_offered_load_when_every_try_fails() {
    // One thread whose every request waits 10 s, a line of one: nearly every
    // try is refused at once, so each call makes 1 + retries tries.
    for retries in [0u32, 1, 3] {
        let s = Scenario {
            threads: 1,
            queue_limit: Some(1),
            cpu_ms: 0.0,
            wait_ms: 10_000.0,
            wait_dist: tellers_sim::Dist::Const,
            rps: 50.0,
            timeout_ms: Some(1000.0),
            retries,
            retry_backoff_ms: 10.0,
            duration_s: 100.0,
            ..Scenario::default()
        };
        let r = run(&s);
        conserved(&r, "amplification");
        let per_call = r.attempts as f64 / r.calls as f64;
        // ~5,000 calls; all but about one try in 500 fail, so the ratio is
        // within 1 % of 1 + retries.
        let want = 1.0 + f64::from(retries);
        assert!(
            (per_call - want).abs() / want < 0.01,
            "retries {retries}: {per_call} tries per call"
        );
        let offered = r.arrival_rps / 50.0;
        assert!((offered - want).abs() / want < 0.05, "offered ×{offered}");
    }
}

/// A retry is the same call: a heavy call (1 s of CPU) that times out at
/// 500 ms is heavy again when tried again, so retries cannot save it.
/// (They were drawn a new class: 3 retries turned 5 % heavy calls, all
/// failing, into 0 failures.) About 200 of 4,000 calls are heavy
/// (binomial, sd 14): 150–260 is over three sd either side.
#[test]
fn a_retried_heavy_call_is_heavy_again() {
    for retries in [0u32, 3] {
        let s = Scenario {
            model: Model::ThreadPool,
            threads: 100,
            cores: 8,
            cpu_ms: 1.0,
            cpu_dist: tellers_sim::Dist::Const,
            heavy_share: 0.05,
            heavy_cpu_ms: 1000.0,
            wait_ms: 0.0,
            rps: 20.0,
            timeout_ms: Some(500.0),
            retries,
            retry_backoff_ms: 10.0,
            requests: Some(4000),
            duration_s: 1000.0,
            ..Scenario::default()
        };
        let r = run(&s);
        conserved(&r, "heavy retries");
        assert!(
            (150..=260).contains(&r.calls_failed),
            "retries {retries}: {} calls failed",
            r.calls_failed
        );
        assert_eq!(r.retries, u64::from(retries) * r.calls_failed);
    }
}

#[test]
fn a_retry_budget_caps_retries_at_its_share_of_successes() {
    let r = run(&preset("spike-retry-budget").unwrap());
    // 10 tokens at the start, 0.1 per success: retries ≤ 10 + 0.1 × successes.
    assert!(
        r.retries as f64 <= 10.0 + 0.1 * r.calls_succeeded as f64,
        "{} retries for {} successes",
        r.retries,
        r.calls_succeeded
    );
}

#[test]
fn shedding_and_hopeless_drops_never_serve_what_they_drop() {
    let shed = run(&Scenario {
        shed_after_ms: Some(200.0),
        ..preset("overload-fifo").unwrap()
    });
    conserved(&shed, "shed");
    assert!(shed.shed > 1000, "{} shed", shed.shed);
    // Nobody served waited more than 200 ms in line.
    assert!(
        shed.queue_wait_ms.p99 <= 200.0 * 1.004,
        "{}",
        shed.queue_wait_ms.p99
    );
    let hopeless = run(&Scenario {
        drop_hopeless: true,
        ..preset("overload-fifo").unwrap()
    });
    conserved(&hopeless, "hopeless");
    assert!(hopeless.dropped_hopeless > 1000);
    // A request is served only with at least a mean service time (100 ms)
    // left of its 1 s: nobody served waited more than 900 ms.
    assert!(
        hopeless.queue_wait_ms.p99 <= 900.0 * 1.004,
        "{}",
        hopeless.queue_wait_ms.p99
    );
    // Plain FIFO answers almost nobody in time (next test); dropping the
    // hopeless gives the rest a chance (some still finish late: service
    // times are random).
    assert!(hopeless.goodput_rps > 100.0, "{}", hopeless.goodput_rps);
}

#[test]
fn spike_metastable_stays_down_long_after_the_spike() {
    let r = run(&preset("spike-metastable").unwrap());
    // Before the spike: 150 rps answered.
    assert!(goodput_between(&r, 2.0, 10.0) > 130.0);
    // Thirty seconds after the spike ended, still almost nothing is answered
    // in time, although the server is busy: it works for callers who left.
    let late = goodput_between(&r, 40.0, 60.0);
    assert!(late < 5.0, "goodput 40–60 s: {late}");
    assert!(r.throughput_rps > 180.0, "busy: {}", r.throughput_rps);
    // The retry storm: about three times the calls arrive.
    assert!(
        r.retries > r.calls,
        "{} retries for {} calls",
        r.retries,
        r.calls
    );
    assert_eq!(recovery_s(&r, 15.0, 150.0, 0.8), None);
}

#[test]
fn a_retry_budget_or_shedding_cures_it_within_seconds() {
    for (name, within_s) in [
        ("spike-retry-budget", 15.0),
        ("spike-shed", 5.0),
        ("spike-breaker", 10.0),
    ] {
        let r = run(&preset(name).unwrap());
        let back =
            recovery_s(&r, 15.0, 150.0, 0.8).unwrap_or_else(|| panic!("{name} never recovers"));
        assert!(back <= within_s, "{name}: back after {back} s");
        assert!(goodput_between(&r, 40.0, 60.0) > 130.0, "{name}");
    }
}

#[test]
fn twenty_percent_over_fifo_serves_almost_nobody_and_adaptive_lifo_most() {
    let fifo = run(&preset("overload-fifo").unwrap());
    let lifo = run(&preset("overload-adaptive-lifo").unwrap());
    assert!(
        fifo.throughput_rps > 190.0,
        "FIFO is busy: {}",
        fifo.throughput_rps
    );
    assert!(fifo.goodput_rps < 10.0, "FIFO goodput {}", fifo.goodput_rps);
    // Capacity 200 of 240 asked: adaptive LIFO answers nearly all it can in time.
    assert!(
        lifo.goodput_rps > 190.0,
        "adaptive LIFO goodput {}",
        lifo.goodput_rps
    );
    assert!(
        lifo.calls_succeeded as f64 > 0.8 * lifo.calls as f64,
        "{} of {}",
        lifo.calls_succeeded,
        lifo.calls
    );
}

#[test]
fn same_seed_same_overload_run() {
    let s = preset("spike-metastable").unwrap();
    let (a, b) = (run(&s), run(&s));
    assert_eq!(a.to_json(true), b.to_json(true));
}

/// Keep-alive connections that think for an hour between their two
/// requests stay open: at 200,000 new requests a second they piled up
/// until memory ran out (a tab panicked at 2.2 GB). The run stops once a
/// million are open, says so, and the stop note says what to change.
#[test]
fn connections_that_pile_up_stop_the_run_before_memory_runs_out() {
    use tellers_sim::engine::MAX_CONNS_OPEN;
    use tellers_sim::report::StoppedBy;
    let s = Scenario {
        conn_requests: 2,
        think_ms: 3_600_000.0,
        rps: 200_000.0,
        duration_s: 600.0,
        ..Scenario::default()
    };
    let r = simulate(&s).unwrap();
    assert_eq!(r.stopped_by, StoppedBy::ConnLimit);
    assert!(
        r.peak_connections > MAX_CONNS_OPEN,
        "{}",
        r.peak_connections
    );
    assert!(r.sim_time_s < 30.0, "{}", r.sim_time_s);
    let th = tellers_sim::theory::theory(&s);
    let note = tellers_sim::signs::stop_note(&s, &r, &th, |f| f.flag()).unwrap();
    assert!(
        note.contains("more than 1,000,000 connections were open at once")
            && note.contains("the --think-ms or the --conn-requests"),
        "{note}"
    );
}

/// What falls at the run's last instant is after it: the Node collapse
/// presets' callers have a 10 s timeout in a 10 s run, and those still
/// waiting gave up and sent again at exactly the end, so ten clients
/// ended with 19 requests inside and 19 connections open.
#[test]
fn nothing_happens_at_the_runs_last_instant() {
    for name in ["node-collapse-blocking", "node-collapse-pool"] {
        let s = preset(name).unwrap();
        assert_eq!(s.timeout_ms.map(|t| t / 1e3), Some(s.duration_s));
        let r = run(&s);
        let clients = u64::from(s.clients);
        assert!(r.in_flight_end <= clients, "{name}: {r:?}");
        assert!(r.peak_connections <= clients, "{name}: {r:?}");
        // Nor have the callers whose timeout is that instant given up
        // ([`a_timeout_at_the_end_itself_is_after_the_run`]).
        assert_eq!(r.timed_out, 0, "{name}: {r:?}");
    }
}

/// A server that never answers in time (every call waits a minute on one
/// of plenty of threads), called evenly every `gap_ms`, by callers who give
/// up after `timeout_ms`, behind a breaker that opens after `after`
/// failures in a row for `open_ms`, over `run_ms`.
fn dead_server(gap_ms: u64, timeout_ms: u64, after: u64, open_ms: u64, run_ms: u64) -> Scenario {
    Scenario {
        threads: 10_000,
        cpu_ms: 0.0,
        cpu_dist: tellers_sim::Dist::Const,
        wait_ms: 60_000.0,
        wait_dist: tellers_sim::Dist::Const,
        arrivals: Arrivals::Uniform,
        rps: 1000.0 / gap_ms as f64,
        timeout_ms: Some(timeout_ms as f64),
        breaker_after: Some(after as u32),
        breaker_open_ms: open_ms as f64,
        duration_s: run_ms as f64 / 1000.0,
        warmup: 0.0,
        ..Scenario::default()
    }
}

/// A server that never answers in time, behind a circuit breaker, gets the
/// tries sent before the breaker hears of its `after`-th failure, then one
/// trial per open time and timeout: the breaker's rule, worked out by hand
/// for evenly spaced calls (at 0, 10, 20 … ms), with the times chosen so
/// that no call falls on a timeout's instant. With an open time shorter
/// than the timeout too: the tries sent before it opened still time out
/// after its trial has gone through, and only the trial's failure counts.
#[test]
fn a_dead_server_behind_a_breaker_gets_one_trial_per_open_time_and_timeout() {
    let (gap, timeout, after, run_ms) = (10u64, 1005u64, 5u64, 30_000u64);
    for open in [2000u64, 500] {
        let s = dead_server(gap, timeout, after, open, run_ms);
        let r = run(&s);
        conserved(&r, "dead server behind a breaker");
        // The first next call on the grid at or after `t` ms.
        let next_call = |t: u64| t.div_ceil(gap) * gap;
        // The `after`-th try (sent at (after − 1) × gap) fails at its
        // timeout; every call sent before then went through.
        let opens = (after - 1) * gap + timeout;
        let mut through = opens.div_ceil(gap);
        // Then each trial is the first call once the breaker's time is up,
        // and its failure opens the breaker again.
        let mut trial = next_call(opens + open);
        while trial < run_ms {
            through += 1;
            trial = next_call(trial + timeout + open);
        }
        let calls = run_ms.div_ceil(gap);
        assert_eq!(r.calls, calls);
        assert_eq!(
            r.attempts, through,
            "open {open} ms: tries that reached the server"
        );
        assert_eq!(r.broken, calls - through);
        assert_eq!(r.calls_succeeded, 0);
        // Every call failed: at once, or at its timeout (all before the end).
        assert_eq!(r.calls_failed, calls);
        // The same scenario without a breaker sends every call to the server.
        let without = run(&Scenario {
            breaker_after: None,
            ..s
        });
        assert_eq!((without.attempts, without.broken), (calls, 0));
    }
}

/// The animation sees the breaker as the rule above moves it: closed and
/// counting failures in a row, open with its time left, then half-open
/// once the first call after its time goes through as the trial. (The
/// dead server above: tries every 10 ms, each timing out 1,005 ms after it
/// is sent; the 5th, sent at 40 ms, opens the breaker for 2 s at 1,045 ms.)
#[test]
fn the_animation_sees_where_the_breaker_is() {
    let s = dead_server(10, 1005, 5, 2000, 10_000);
    let mut sim = Simulation::new(&s).unwrap();
    let mut at = |ms: u64| {
        sim.run_until(ms * 1_000_000, u64::MAX);
        sim.snapshot().breaker.expect("a breaker is set")
    };
    let v = at(1000);
    assert_eq!(
        (v.state, v.after, v.broken),
        (BreakerState::Closed { failures: 0 }, 5, 0)
    );
    // The tries sent at 0, 10 and 20 ms have timed out.
    assert_eq!(at(1030).state, BreakerState::Closed { failures: 3 });
    // Open since 1,045 ms, until 3,045; the calls at 1,050 … 2,040 ms failed at once.
    let v = at(2045);
    assert_eq!(
        (v.state, v.broken),
        (BreakerState::Open { left_s: 1.0 }, 100)
    );
    // The call at 3,050 ms is the trial; the others are blocked: the 200
    // from 1,050 to 3,040 ms, and those at 3,060 … 3,090.
    let v = at(3095);
    assert_eq!((v.state, v.broken), (BreakerState::HalfOpen, 204));
    // Without a breaker there is none to show.
    let mut plain = Simulation::new(&Scenario {
        breaker_after: None,
        ..s
    })
    .unwrap();
    plain.run_until(2_000_000_000, u64::MAX);
    assert_eq!(plain.snapshot().breaker, None);
}

/// A breaker that never opens changes nothing: the same run, figure for
/// figure, where callers retry (spike-metastable) and where they only time
/// out (sale-day with a 300 ms timeout), whose timeouts then come as events of
/// their own (the run's event count aside).
#[test]
fn a_breaker_that_never_opens_changes_nothing() {
    let spike = preset("spike-metastable").unwrap();
    let timed = Scenario {
        timeout_ms: Some(300.0),
        ..preset("sale-day").unwrap()
    };
    for s in [
        Scenario {
            rps_schedule: None,
            ..spike
        },
        timed.clone(),
    ] {
        let with = run(&Scenario {
            breaker_after: Some(100_000),
            ..s.clone()
        });
        let without = run(&s);
        assert_eq!(with.broken, 0);
        assert_eq!(
            Report { events: 0, ..with },
            Report {
                events: 0,
                ..without
            }
        );
    }
    // The timeouts' path is taken: some tries time out.
    assert!(run(&timed).timed_out > 0);
}

/// The time in line and the response time average the same requests, those
/// that finished: in the sale day's growing line, the response time less
/// the time in line is the 100 ms of work each request has (10 ms of CPU
/// and 90 ms off it, both random). Recorded as each request left the line,
/// the time in line counted the 20 still being served at the end, which had
/// waited longest: 75 ms were left for the work (a learner's walk of lesson
/// 10). About 3,100 requests are measured a run, so the mean of their work
/// has a standard error near 2 ms; 6 ms is three of them.
#[test]
fn time_in_line_and_response_time_average_the_same_requests() {
    for seed in 1..=5 {
        let s = Scenario {
            seed,
            ..preset("sale-day").unwrap()
        };
        let r = run(&s);
        let work = r.latency_ms.mean - r.queue_wait_ms.mean;
        assert!(r.queue_len_end > 1000, "seed {seed}: the line grows");
        assert!((work - 100.0).abs() < 6.0, "seed {seed}: {work} ms of work");
    }
}

/// The run covers [0, end): a caller whose timeout falls at the end itself
/// has not given up within it. node-collapse-blocking's ten closed clients
/// send at 0 with a 10 s timeout in a 10 s run: 9 were counted timed out
/// (and a sign said "work for nobody" beside none finished); a moment
/// longer, they have.
#[test]
fn a_timeout_at_the_end_itself_is_after_the_run() {
    let s = preset("node-collapse-blocking").unwrap();
    assert_eq!(s.duration_s, 10.0);
    assert_eq!(s.timeout_ms, Some(10_000.0));
    let at_end = run(&s);
    assert_eq!(at_end.timed_out, 0, "{at_end:?}");
    // Nor is the call failed, where retries count calls.
    let retried = Scenario {
        retries: 1,
        ..s.clone()
    };
    assert_eq!(run(&retried).calls_failed, 0);
    let later = run(&Scenario {
        duration_s: 10.001,
        ..s
    });
    assert!(later.timed_out >= 9, "{}", later.timed_out);
}
