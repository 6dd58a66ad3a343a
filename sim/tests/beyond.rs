//! Beyond one box: a dependency with its own capacity and connection pool,
//! fan-out, hedged calls, keep-alive connections and a pool per loop —
//! each against the exact result it has, and each preset's story.
//!
//! Tolerances: a mean wait at ρ = 0.8 over ~190,000 calls (600 s at 320
//! calls/s) has a relative standard error of about 2 % (successive waits are
//! correlated), so 6 % is three standard errors. Fan-out runs draw 12,000
//! requests of 10 or 100 independent calls each: their mean has a relative
//! standard error under 0.6 %, so 2 % is over three; a p99 from 12,000
//! samples moves by about 2 %, so 5 %.

use tellers_sim::analytic::{
    fanout_mean_ms, fanout_quantile_ms, hedge_share, hedged_mean_ms, mmc_wait_ms,
    share_meeting_a_slow_call,
};
use tellers_sim::presets::preset;
use tellers_sim::signs::{read_signs, SignKind};
use tellers_sim::theory::theory;
use tellers_sim::{simulate, Accept, Model, Report, Scenario};

fn run(s: &Scenario) -> Report {
    simulate(s).unwrap_or_else(|e| panic!("{e:?}"))
}

fn close(got: f64, want: f64, rel: f64, what: &str) {
    assert!(
        (got - want).abs() <= rel * want.abs(),
        "{what}: simulated {got:.4}, theory {want:.4} (allowed ±{:.0} %)",
        rel * 100.0
    );
}

/// Calls at 320 per second, 10 ms each (exponential), on a server with
/// room to spare: eight loops sharing one line, 0.1 ms of CPU each.
fn calls(s: Scenario) -> Scenario {
    Scenario {
        model: Model::EventLoop,
        cores: 8,
        loops: 8,
        accept: Accept::Shared,
        cpu_ms: 0.1,
        wait_ms: 10.0,
        rps: 320.0,
        duration_s: 600.0,
        ..s
    }
}

#[test]
fn a_dependency_with_k_slots_is_erlang_c() {
    let s = calls(Scenario {
        dep_concurrency: Some(4),
        ..Scenario::default()
    });
    let r = run(&s);
    // ρ = 320/s × 10 ms ÷ 4 = 0.8.
    close(
        r.dep_queue_wait_ms.mean,
        mmc_wait_ms(4, 10.0, 0.8),
        0.06,
        "wait for a slot",
    );
    close(r.dep_utilisation.unwrap(), 0.8, 0.02, "slots busy");
    let th = theory(&s);
    close(
        th.dep.queue_wait_ms.unwrap(),
        mmc_wait_ms(4, 10.0, 0.8),
        1e-9,
        "theory",
    );
}

#[test]
fn a_pool_in_front_of_an_unlimited_dependency_is_the_same_queue() {
    let s = calls(Scenario {
        dep_pool: Some(4),
        ..Scenario::default()
    });
    let r = run(&s);
    close(
        r.dep_pool_wait_ms.mean,
        mmc_wait_ms(4, 10.0, 0.8),
        0.06,
        "wait for a connection",
    );
    assert_eq!(
        r.dep_queue_wait_ms.mean, 0.0,
        "no line at the dependency itself"
    );
    close(
        theory(&s).dep.pool_wait_ms.unwrap(),
        mmc_wait_ms(4, 10.0, 0.8),
        1e-9,
        "theory",
    );
}

#[test]
fn fan_out_waits_for_the_slowest_call() {
    for (name, n) in [("fan-out-10", 10), ("fan-out-100", 100)] {
        let s = preset(name).unwrap();
        let r = run(&s);
        // CPU (0.5 ms, barely queued) plus the slowest of n calls.
        close(r.latency_ms.mean, 0.5 + fanout_mean_ms(n, 10.0), 0.02, name);
        close(
            r.latency_ms.p99,
            0.5 + fanout_quantile_ms(n, 10.0, 0.99),
            0.05,
            name,
        );
        // Every request that reached its wait step sent exactly n calls.
        assert_eq!(r.dep_calls % u64::from(n), 0);
        assert!(r.dep_calls >= u64::from(n) * r.completed);
        assert!(r.dep_calls <= u64::from(n) * (r.completed + r.in_flight_end));
        let th = theory(&s);
        close(
            th.dep.wait_step_ms,
            fanout_mean_ms(n, 10.0),
            1e-12,
            "theory mean",
        );
    }
}

#[test]
fn most_requests_that_make_100_calls_meet_a_slow_one() {
    // A caller who waits only a call's own p99 (10 ms × ln 100) sees a
    // request as late when at least one of its calls is slower: 1 − 0.99^N.
    for n in [10u32, 100] {
        let s = Scenario {
            timeout_ms: Some(10.0 * 100f64.ln()),
            cpu_ms: 0.0,
            duration_s: 1000.0,
            ..preset("fan-out-10").unwrap()
        };
        let s = Scenario { fan_out: n, ..s };
        let r = run(&s);
        let late = r.finished_after_timeout as f64 / r.completed as f64;
        // 100,000 requests: the standard error of the share is under 0.0016.
        assert!(
            (late - share_meeting_a_slow_call(n)).abs() < 0.006,
            "n = {n}: {late} vs {}",
            share_meeting_a_slow_call(n)
        );
    }
}

#[test]
fn hedging_one_call_matches_its_formula_and_costs_the_late_share() {
    for h in [5.0, 10.0, 20.0] {
        let s = calls(Scenario {
            hedge_after_ms: Some(h),
            cpu_ms: 0.0,
            duration_s: 300.0,
            ..Scenario::default()
        });
        let r = run(&s);
        close(
            r.latency_ms.mean,
            hedged_mean_ms(10.0, h),
            0.02,
            &format!("hedged after {h} ms"),
        );
        let extra = r.hedges as f64 / r.calls as f64;
        assert!(
            (extra - hedge_share(10.0, h)).abs() < 0.01,
            "after {h} ms: {extra} extra calls per call"
        );
    }
    let hedged = run(&preset("fan-out-100-hedged").unwrap());
    let plain = run(&preset("fan-out-100").unwrap());
    assert!(hedged.latency_ms.p99 < 0.75 * plain.latency_ms.p99);
    let extra = hedged.hedges as f64 / (hedged.dep_calls - hedged.hedges) as f64;
    assert!((extra - hedge_share(10.0, 30.0)).abs() < 0.005, "{extra}");
}

/// Fixed 100 ms calls hedged after 50 ms: every call is still out at 50 ms,
/// so every call is sent twice and holds two slots for 100 ms each; the
/// dependency's 10 slots finish 10 × 1000 / 200 = 50 requests a second, not
/// the 100 that one copy per call would give. Hedged after 150 ms: none.
#[test]
fn hedging_fixed_calls_sends_every_call_twice_or_none() {
    let base = Scenario {
        model: Model::EventLoop,
        cores: 4,
        loops: 4,
        accept: Accept::Shared,
        cpu_ms: 1.0,
        wait_ms: 100.0,
        wait_dist: tellers_sim::Dist::Const,
        dep_concurrency: Some(10),
        duration_s: 200.0,
        ..Scenario::default()
    };
    let twice = Scenario {
        hedge_after_ms: Some(50.0),
        rps: 40.0,
        ..base.clone()
    };
    let th = theory(&twice);
    assert!(
        (th.capacity.capacity_rps - 50.0).abs() < 1e-9,
        "{:?}",
        th.capacity
    );
    assert_eq!(th.dep.hedge_share, Some(1.0));
    let r = run(&twice);
    // Every call hedged once, but the few sent in the last 50 ms of the run.
    let unhedged = r.dep_calls - 2 * r.hedges;
    assert!(unhedged <= 5, "{} copies, {} hedges", r.dep_calls, r.hedges);
    // 40 rps × 2 copies at 80 % of the 10 slots: the line stays short.
    close(
        th.dep.calls_rps.unwrap(),
        r.dep_calls as f64 / r.sim_time_s,
        0.03,
        "calls per second",
    );
    // At 80 rps the dependency is the limit (it was called 100 rps before).
    let over = theory(&Scenario {
        rps: 80.0,
        ..twice.clone()
    });
    assert_eq!(
        over.capacity.binding,
        tellers_sim::analytic::Limit::Dependency
    );
    assert!(over.mean_ms.is_none());
    let none = Scenario {
        hedge_after_ms: Some(150.0),
        rps: 40.0,
        ..base
    };
    assert_eq!(theory(&none).dep.hedge_share, Some(0.0));
    assert_eq!(run(&none).hedges, 0);
}

#[test]
fn ten_database_connections_not_the_cpu_cap_the_service() {
    let s = preset("db-pool-limit").unwrap();
    let r = run(&s);
    // 10 connections ÷ 20 ms held = 500 rps, against 600 asked and a CPU
    // limit of 4,000.
    let th = theory(&s);
    assert_eq!(
        th.capacity.binding,
        tellers_sim::analytic::Limit::Dependency
    );
    close(th.capacity.capacity_rps, 500.0, 1e-9, "theory");
    close(r.throughput_rps, 500.0, 0.02, "throughput");
    assert!(
        r.cpu_utilisation < 0.2,
        "the CPU idles: {}",
        r.cpu_utilisation
    );
    assert!(
        r.dep_pool_wait_ms.mean > 1000.0,
        "calls wait for a connection"
    );
    // They wait in the pool's line, not the server's: requests inside grow
    // by what is asked beyond the limit, 600 − 500 = 100 per second.
    close(
        r.inside_growth_per_s,
        100.0,
        0.1,
        "growth of requests inside",
    );
    let signs = read_signs(&s, &r, &th);
    assert!(
        signs
            .iter()
            .any(|g| g.kind == SignKind::ConnectionPoolLimit),
        "{signs:?}"
    );
}

#[test]
fn keep_alive_connections_send_their_share_on_one_loop() {
    let r = run(&preset("waf-offload-round-robin").unwrap());
    // 1,100 rps ÷ 500 requests each = 2.2 connections a second, for 60 s.
    let opened = r.connections_opened as f64;
    assert!(
        (opened - 132.0).abs() < 4.0 * 132f64.sqrt(),
        "{opened} connections"
    );
    let on_loops: u64 = r.loop_connections.iter().sum();
    assert_eq!(
        on_loops, r.connections_opened,
        "each connection is accepted once"
    );
    let served: u64 = r.loop_requests.iter().sum();
    assert!(
        served >= r.completed,
        "{served} served, {} completed",
        r.completed
    );
}

/// A closed client is one connection (a load tool's), accepted once: the
/// Node benchmark's 10 clients were 7,417 connections accepted beside a
/// peak of 10 open. On several loops each stays on the loop that took it,
/// so round robin deals 10 clients out as 3, 3, 2 and 2, and a loop with
/// 2 clients that think 2 ms between requests cannot keep busy: exactly
/// 2 × 740.7 + 2 × 2 ÷ 3.35 ms = 2,675 rps where a shared line kept all
/// four near their 2,963.
#[test]
fn a_closed_client_is_one_connection_that_stays_on_its_loop() {
    let node = preset("node-light-blocking").unwrap();
    let one = run(&node);
    assert_eq!(one.loop_connections, vec![10]);
    let four = Scenario {
        loops: 4,
        accept: Accept::RoundRobin,
        think_ms: 2.0,
        ..node.clone()
    };
    let r = run(&four);
    assert_eq!(r.loop_connections, vec![3, 3, 2, 2]);
    // Fixed steps and think times: nothing random, so within 1 %.
    let expected = 2.0 * 1000.0 / 1.35 + 2.0 * 2.0 * 1000.0 / 3.35;
    assert!(
        (r.throughput_rps / expected - 1.0).abs() < 0.01,
        "{} rps against {expected}",
        r.throughput_rps
    );
    // A client holds its connection while it thinks: 10 clients that
    // think 99 ms between 1.35 ms requests have about 0.1 of a request
    // inside each, but 10 connections open. A limit of 5 connections lets
    // 5 clients connect and refuses the others' requests.
    let thinking = run(&Scenario {
        think_ms: 99.0,
        ..node.clone()
    });
    assert_eq!(thinking.peak_connections, 10);
    assert_eq!(thinking.connections_opened, 10);
    let limited = run(&Scenario {
        max_connections: Some(5),
        think_ms: 10.0,
        ..node.clone()
    });
    assert_eq!(limited.peak_connections, 5);
    assert_eq!(limited.loop_connections, vec![5]);
    assert!(limited.refused > 0);
    // Each of the 5 sends once each 1.35 + 10 ms (the loop is never full).
    let five = 5.0 * 1000.0 / 11.35;
    assert!(
        (limited.throughput_rps / five - 1.0).abs() < 0.01,
        "{} rps against {five}",
        limited.throughput_rps
    );
    // A client that gives up resets its connection, as a load tool does,
    // and opens a new one; accepted by the idlest loop, each connection is
    // counted once: the loops' counts add up to at most those opened.
    let idlest = run(&Scenario {
        accept: Accept::Idlest,
        loops: 2,
        clients: 40,
        cpu_ms: 20.0,
        timeout_ms: Some(50.0),
        ..node.clone()
    });
    assert!(idlest.timed_out > 0, "{}", idlest.timed_out);
    assert!(
        idlest.connections_opened > 40,
        "{}",
        idlest.connections_opened
    );
    assert!(
        idlest.loop_connections.iter().sum::<u64>() <= idlest.connections_opened,
        "{:?} of {} opened",
        idlest.loop_connections,
        idlest.connections_opened
    );
    assert!(idlest.peak_connections <= 40, "{}", idlest.peak_connections);
    let shared = run(&Scenario {
        accept: Accept::Shared,
        ..four
    });
    assert!(
        shared.throughput_rps > 1.05 * r.throughput_rps,
        "{}",
        shared.throughput_rps
    );
}

#[test]
fn waf_idle_loops_hoard_connections_and_round_robin_evens_them() {
    let unbalanced = run(&preset("waf-offload-unbalanced").unwrap());
    let even = run(&preset("waf-offload-round-robin").unwrap());
    let spread = |r: &Report| {
        let max = *r.loop_connections.iter().max().unwrap() as f64;
        let min = *r.loop_connections.iter().min().unwrap() as f64;
        max / min.max(1.0)
    };
    assert!(
        spread(&unbalanced) >= 2.0,
        "{:?}",
        unbalanced.loop_connections
    );
    assert!(spread(&even) <= 1.06, "{:?}", even.loop_connections);
    // The busiest loop's pool queues: the tail is far worse unbalanced.
    assert!(
        unbalanced.latency_ms.p99 > 1.5 * even.latency_ms.p99,
        "p99 {} vs {}",
        unbalanced.latency_ms.p99,
        even.latency_ms.p99
    );
    // And offloading is what keeps the loops free: inline, a slow WAF step
    // holds its loop for tens of ms.
    let inline = run(&preset("waf-inline").unwrap());
    let blocked = |r: &Report| r.loop_block_ms.unwrap().p99;
    assert!(
        blocked(&inline) > 5.0 * blocked(&even),
        "{} vs {}",
        blocked(&inline),
        blocked(&even)
    );
}

#[test]
fn a_pool_per_loop_takes_only_its_own_loops_steps() {
    // Two loops, round robin, one worker each: each pool gets half the heavy steps.
    let s = Scenario {
        model: Model::EventLoopWorkers,
        cores: 4,
        loops: 2,
        workers: 1,
        pool_per_loop: true,
        offload_heavy: true,
        heavy_share: 0.1,
        heavy_cpu_ms: 20.0,
        cpu_ms: 0.5,
        wait_ms: 5.0,
        rps: 200.0,
        duration_s: 60.0,
        ..Scenario::default()
    };
    let r = run(&s);
    assert_eq!(r.peak_threads, 2 + 2, "two loops and one worker for each");
    let shared = run(&Scenario {
        pool_per_loop: false,
        workers: 2,
        ..s
    });
    // The same four threads, but one shared line for the workers waits less (M/M/2 beats 2 × M/M/1).
    assert!(
        shared.latency_ms.p99 < r.latency_ms.p99,
        "{} vs {}",
        shared.latency_ms.p99,
        r.latency_ms.p99
    );
}

/// Two loops on two cores where the idle loop accepts more, for a minute:
/// keep-alive connections of `conn_requests` requests of 10 ms of CPU
/// each, no wait, `rps` a second asked.
fn two_loops_accepting_when_idle(rps: f64, conn_requests: u32) -> Scenario {
    Scenario {
        model: Model::EventLoop,
        accept: Accept::Idlest,
        cores: 2,
        loops: 2,
        cpu_ms: 10.0,
        cpu_dist: tellers_sim::Dist::Const,
        wait_ms: 0.0,
        rps,
        conn_requests,
        duration_s: 60.0,
        ..Scenario::default()
    }
}

/// Loops where the idle loop accepts more keep a listen line of connections waiting to
/// be accepted, and its limit is on that line: a request on a connection a
/// loop already holds does not wait in it, and a connection refused there
/// never opens. (Requests on open connections were refused too: 1,909
/// refusals where only 20 connections ever opened; and refused connections
/// counted as opened, sending their other requests.)
#[test]
fn the_listen_line_limit_refuses_new_connections_only() {
    let s = Scenario {
        queue_limit: Some(1),
        ..two_loops_accepting_when_idle(300.0, 1000)
    };
    let r = run(&s);
    // About 18 connections in a minute (0.3 a second): no more refusals.
    assert!(
        r.refused <= 20,
        "{} refused, {} connections",
        r.refused,
        r.connections_opened
    );
    // Short connections against a line of 5: every connection that opened
    // was accepted by a loop, once.
    let short = Scenario {
        conn_requests: 10,
        queue_limit: Some(5),
        ..s
    };
    let r = run(&short);
    assert!(r.refused > 0, "the line does fill");
    let on_loops: u64 = r.loop_connections.iter().sum();
    let still_waiting = r.connections_opened - on_loops;
    assert!(
        still_waiting <= 5,
        "opened {}, accepted {on_loops}",
        r.connections_opened
    );
}

/// A busy loop accepts too: each time it looks for ready connections again
/// (its `epoll_wait`, once the steps it found at its last look are run), the
/// listen socket is ready to it, and it takes one waiting connection. Here
/// the two cores are full from about 15 s on (4 connections open a second,
/// each sending 100 requests of 10 ms back to back, against 200 a second
/// served), so loops that accepted only when idle took 122 connections
/// (61 each) and none after, and the first request of every later one
/// waited in the listen line for up to 34 s. Accepting one per look, they
/// take 215 of the 257 that open, and no request waits 10 s.
#[test]
fn a_busy_loop_accepts_one_connection_each_time_it_looks() {
    let s = two_loops_accepting_when_idle(400.0, 100);
    let r = run(&s);
    assert!(
        r.cpu_utilisation > 0.99,
        "the cores are full: {}",
        r.cpu_utilisation
    );
    let on_loops: u64 = r.loop_connections.iter().sum();
    assert!(
        on_loops >= 200,
        "accepted {on_loops} of {} opened ({:?})",
        r.connections_opened,
        r.loop_connections
    );
    // One look a batch: each loop's batch is its connections × 10 ms, about
    // 1.1 s at the end, so 2 accepts a second against 4 opening leave a line.
    assert!(
        r.connections_opened - on_loops >= 10,
        "{on_loops} of {}",
        r.connections_opened
    );
    assert!(
        r.latency_ms.max < 10_000.0,
        "longest {} ms",
        r.latency_ms.max
    );
}
