//! Every run moves on: simulated time passes, and the engine's own stack
//! stays shallow, whatever mix of valid fields a learner sets. Each test is
//! a scenario that once ran in place (events at one instant until the event
//! budget ran out, the clock standing still) or recursed once per request.

use tellers_sim::{simulate, Arrivals, Dist, Model, Scenario, StoppedBy};

/// Closed clients whose every request is dropped as hopeless the moment a
/// thread takes it (the timeout, 100 ms, is under the mean service time,
/// 210 ms): a drop at the instant of arrival is a refusal, after which a
/// client waits at least 1 ms, so time passes and drops are counted.
#[test]
fn closed_clients_dropped_as_hopeless_let_time_pass() {
    for model in [Model::ThreadPool, Model::EventLoop] {
        let s = Scenario {
            model,
            arrivals: Arrivals::Closed,
            timeout_ms: Some(100.0),
            drop_hopeless: true,
            wait_ms: 200.0,
            duration_s: 1.0,
            max_events: 1_000_000,
            ..Scenario::default()
        };
        let r = simulate(&s).unwrap();
        assert_eq!(r.stopped_by, StoppedBy::Duration, "{model:?}: {r:?}");
        assert!(r.dropped_hopeless > 0, "{model:?}: {r:?}");
    }
}

/// Closed clients that do not think, sending requests with no work: the
/// scenario is refused, naming what to give, instead of looping at 0 s.
#[test]
fn closed_clients_with_no_work_and_no_thinking_are_refused() {
    let s = Scenario {
        arrivals: Arrivals::Closed,
        cpu_ms: 0.0,
        wait_ms: 0.0,
        think_ms: 0.0,
        duration_s: 1.0,
        max_events: 1_000_000,
        ..Scenario::default()
    };
    let errs = simulate(&s).unwrap_err();
    assert!(errs[0].message.contains("think"), "{errs:?}");
    // A think time the engine would round to 0 ns is refused as shorter
    // than its step, naming the field.
    let errs = simulate(&Scenario {
        think_ms: 1e-7,
        ..s.clone()
    })
    .unwrap_err();
    assert_eq!(errs[0].field, "think_ms", "{errs:?}");
    assert!(errs[0].message.contains("step of 1 ns"), "{errs:?}");
    // A number of requests ends such a run: it is allowed, and ends at 0 s.
    let r = simulate(&Scenario {
        requests: Some(100),
        ..s.clone()
    })
    .unwrap();
    assert_eq!((r.stopped_by, r.completed), (StoppedBy::AllDone, 100));
    // With a little thinking, they run (and time passes).
    let r = simulate(&Scenario { think_ms: 1.0, ..s }).unwrap();
    assert_eq!(r.stopped_by, StoppedBy::Duration, "{r:?}");
}

/// An event loop whose reads cost nothing and whose writes cost 1 ms, with
/// 200,000 requests queued at once: each free read queues its write behind
/// the rest, and the loop goes on to the next read in the same turn, not in
/// a call nested inside the last one (which overflowed the stack).
#[test]
fn a_loop_with_free_reads_does_not_recurse_per_request() {
    let s = Scenario {
        model: Model::EventLoop,
        loops: 1,
        arrivals: Arrivals::Batch,
        count: 200_000,
        cpu_ms: 0.0,
        wait_ms: 0.0,
        write_ms: 1.0,
        cpu_dist: Dist::Const,
        duration_s: 2.0,
        max_events: 2_000_000,
        ..Scenario::default()
    };
    let r = simulate(&s).unwrap();
    assert_eq!(r.stopped_by, StoppedBy::Duration, "{r:?}");
    assert!(r.completed > 1_000, "{r:?}");
}

/// A pool of one thread behind a 1 s request, with 200,000 requests of no
/// work queued behind it: when the thread frees, it serves them one after
/// another in one loop, not in calls nested once per request.
#[test]
fn a_thread_pool_serving_free_requests_does_not_recurse_per_request() {
    let s = Scenario {
        model: Model::ThreadPool,
        threads: 1,
        arrivals: Arrivals::Batch,
        count: 200_000,
        cpu_ms: 0.0,
        wait_ms: 0.0,
        heavy_share: 0.000_01,
        heavy_cpu_ms: 1000.0,
        cpu_dist: Dist::Const,
        duration_s: 10.0,
        max_events: 2_000_000,
        ..Scenario::default()
    };
    let r = simulate(&s).unwrap();
    assert!(r.completed > 100_000, "{r:?}");
    // The long request came, and a long line of free ones waited behind it.
    assert!(r.latency_ms.max >= 1000.0, "{:?}", r.latency_ms);
    assert!(r.queue_wait_ms.mean > 100.0, "{:?}", r.queue_wait_ms);
}
