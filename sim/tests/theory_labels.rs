//! Theory's labels: when a figure is called exact, when it is an
//! approximation and why, and when theory has no formula at all. Plain
//! theory, no runs (the runs that check the figures are in `theory.rs`).

mod common;

use tellers_sim::analytic::Limit;
use tellers_sim::presets::preset;
use tellers_sim::schedule::Schedule;
use tellers_sim::theory::{theory, Theory};
use tellers_sim::{Accept, Arrivals, Discipline, Model, Scenario};

fn says(th: &Theory, words: &str) -> bool {
    th.approx_because.iter().any(|w| w.contains(words))
}

#[test]
fn fan_out_through_a_shared_line_at_the_dependency_has_no_formula() {
    // 50 slots, 10 calls of 10 ms per request: the dependency caps at
    // 500 rps, far below the CPU's 16,000. Asked 300 rps: 60 % busy.
    let s = Scenario {
        model: Model::EventLoop,
        cores: 8,
        loops: 8,
        accept: Accept::Shared,
        cpu_ms: 0.5,
        wait_ms: 10.0,
        fan_out: 10,
        dep_concurrency: Some(50),
        rps: 300.0,
        ..Scenario::default()
    };
    let th = theory(&s);
    assert_eq!(th.capacity.binding, Limit::Dependency);
    assert!(th.utilisation.unwrap() < 1.0);
    assert_eq!(
        th.mean_ms, None,
        "one call's M/M/k time is not the slowest of 10"
    );
    assert_eq!(th.p99_ms, None);
    assert!(!th.mean_exact && !th.p99_exact);
    assert!(says(&th, "no formula"), "{:?}", th.approx_because);
    assert!(!th.curve_formula, "no formula at any load, the curve's too");
    assert!(!says(&th, "W × H(N)"), "{:?}", th.approx_because);
    // One call per request keeps its (Erlang C) formula.
    let one = theory(&Scenario {
        fan_out: 1,
        dep_concurrency: Some(5),
        ..s
    });
    assert_eq!(one.capacity.binding, Limit::Dependency);
    assert!(one.mean_ms.is_some());
    assert!(one.curve_formula);
}

#[test]
fn a_thread_bound_fan_out_p99_counts_the_slowest_call_once() {
    // 20 threads, 1 ms of CPU and the slowest of 10 calls of 10 ms: the
    // threads bind and the wait is inside the thread's service time, so
    // the slowest call's p99 must not be added on top of it.
    let s = common::thread_bound_fan_out();
    let th = theory(&s);
    assert_eq!(th.capacity.binding, Limit::Threads);
    assert_eq!(th.delay_p99_ms, None);
    let rho = th.utilisation.unwrap();
    assert_eq!(th.p99_ms.unwrap(), th.p99_at(th.servers, rho));
    // The calls are in the thread's service time, in its shape (the
    // slowest of 10 as 10 random gaps), and nothing after the line adds
    // them again.
    let shape = th.service_shape.as_ref().unwrap();
    assert_eq!(shape.then.len(), 10);
    assert_eq!(th.delay_shape.calls, 0);
    assert_eq!(th.delay_shape.fixed_ms, 0.0);
    // The pool's line (20 threads on 8 cores) moves the p99 by the extra
    // mean wait it finds, a fraction of a ms at 5 % CPU; the slowest
    // call's p99 added again would be tens of ms.
    assert!(th.pool_line.is_some());
    let line_only =
        tellers_sim::analytic::shaped_then_delay_p99_ms(20, shape, rho, &th.delay_shape);
    let p99 = th.p99_ms.unwrap();
    assert!(
        p99 >= line_only && p99 - line_only < 0.01 * line_only,
        "{p99} {line_only}"
    );
}

#[test]
fn newest_first_keeps_the_mean_exact_but_not_the_p99() {
    for d in [Discipline::Lifo, Discipline::AdaptiveLifo] {
        let th = theory(&Scenario {
            discipline: d,
            ..preset("mm1").unwrap()
        });
        assert!(th.mean_exact, "{d:?}: {:?}", th.approx_because);
        assert!(!th.p99_exact, "{d:?}");
        assert!(says(&th, "newest first"), "{:?}", th.approx_because);
    }
    let fifo = theory(&preset("mm1").unwrap());
    assert!(fifo.mean_exact && fifo.p99_exact);
}

#[test]
fn requests_that_are_shed_dropped_or_retried_make_the_figures_approximate() {
    let mm1 = preset("mm1").unwrap();
    let with_timeout = Scenario {
        timeout_ms: Some(1000.0),
        ..mm1.clone()
    };
    // A timeout alone drops nobody: every request is still served and timed.
    let th = theory(&with_timeout);
    assert!(th.mean_exact && th.p99_exact, "{:?}", th.approx_because);
    for (what, s) in [
        (
            "shed",
            Scenario {
                shed_after_ms: Some(100.0),
                ..mm1.clone()
            },
        ),
        (
            "cannot finish",
            Scenario {
                drop_hopeless: true,
                ..with_timeout.clone()
            },
        ),
        (
            "try again",
            Scenario {
                retries: 2,
                ..with_timeout.clone()
            },
        ),
    ] {
        let th = theory(&s);
        assert!(th.mean_ms.is_some(), "{what}");
        assert!(!th.mean_exact && !th.p99_exact, "{what}");
        assert!(says(&th, what), "{what}: {:?}", th.approx_because);
    }
}

#[test]
fn a_changing_load_is_described_by_its_first_step_and_says_so() {
    let s = Scenario {
        rps_schedule: Some(Schedule::new(&[(0.0, 40.0), (300.0, 90.0)]).unwrap()),
        ..preset("mm1").unwrap()
    };
    let th = theory(&s);
    assert!(!th.steady_load);
    assert_eq!(th.offered_rps, Some(40.0));
    assert!(!th.mean_exact && !th.p99_exact);
    assert!(
        says(&th, "the first step's 40 rps only"),
        "{:?}",
        th.approx_because
    );
}

#[test]
fn the_model_of_the_line_names_the_arrivals() {
    let mm1 = preset("mm1").unwrap();
    assert_eq!(theory(&mm1).model_of_line, "M/M/1 at the one core");
    let even = theory(&Scenario {
        arrivals: Arrivals::Uniform,
        ..mm1.clone()
    });
    assert_eq!(even.model_of_line, "D/M/1 at the one core");
    assert_eq!(even.mean_ms, None, "no formula for evenly spaced arrivals");
    // The curve is run with random arrivals, so its model stays M/M/1.
    assert_eq!(even.queue_model, "M/M/1");
    for name in ["batch-pool-20", "node-light-blocking"] {
        let th = theory(&preset(name).unwrap());
        assert!(
            th.model_of_line.starts_with("none:") && th.mean_ms.is_none(),
            "{name}: {}",
            th.model_of_line
        );
    }
}

#[test]
fn the_cpu_limit_counts_hand_offs_spawns_and_every_pool_per_loop() {
    // Node's pool presets: one loop pays 7.5 ms of hand-off per request,
    // so it caps at 133 rps, not 6 cores ÷ 1.35 ms = 4,444.
    let th = theory(&preset("node-light-pool").unwrap());
    assert!(
        (th.capacity.cpu_limit_rps - 1000.0 / 7.5).abs() < 1e-6,
        "{}",
        th.capacity.cpu_limit_rps
    );
    // Creating a thread per request costs CPU: 4 cores ÷ (10 + 10) ms.
    let spawn = Scenario {
        model: Model::ThreadPerRequest,
        spawn_ms: 10.0,
        ..Scenario::default()
    };
    assert!((theory(&spawn).capacity.cpu_limit_rps - 200.0).abs() < 1e-9);
    // A pool per loop: 4 loops × 1 worker, each step 10 ms, all handed
    // over at no cost: 4 workers ÷ 10 ms = 400 rps.
    let per_loop = Scenario {
        model: Model::EventLoopWorkers,
        cores: 16,
        loops: 4,
        workers: 1,
        pool_per_loop: true,
        offload_above_ms: 0.0,
        handoff_ms: 0.0,
        cpu_ms: 10.0,
        cpu_dist: tellers_sim::Dist::Const,
        wait_ms: 0.0,
        ..Scenario::default()
    };
    assert_eq!(per_loop.worker_threads(), 4);
    assert!((theory(&per_loop).capacity.cpu_limit_rps - 400.0).abs() < 1e-9);
}

#[test]
fn a_loop_bound_open_scenario_is_not_given_an_all_cores_formula_as_exact() {
    // 300 rps at a loop that caps near 133 rps: overloaded, no mean.
    let s = Scenario {
        arrivals: Arrivals::Poisson,
        rps: 300.0,
        ..preset("node-light-pool").unwrap()
    };
    let th = theory(&s);
    assert!(th.utilisation.unwrap() > 1.0);
    assert_eq!(th.mean_ms, None);
    assert!(th.growth_per_s.unwrap() > 160.0);
    // Below the loop's limit, the all-cores formula is not the loop's line:
    // at 100 rps it gave 8.9 ms where the run took 23.3 ms (120 s). Theory
    // gives no response time there, no curve lines, and says why.
    let th = theory(&Scenario { rps: 100.0, ..s });
    assert!(th.mean_ms.is_none() && th.p99_ms.is_none() && !th.curve_formula);
    assert!(says(&th, "hand-offs"), "{:?}", th.approx_because);
    assert!(
        th.model_of_line
            .starts_with("none: the steps on the one loop"),
        "{}",
        th.model_of_line
    );
    // One worker for the offloaded steps on 8 cores: its own line binds.
    let th = theory(&preset("one-worker-limit").unwrap());
    assert!(th.mean_ms.is_none() && !th.curve_formula, "{th:?}");
    assert_eq!(th.line_at, "the one worker thread");
    assert!(
        says(&th, "worker pool is a line of its own"),
        "{:?}",
        th.approx_because
    );
    // No formula is used, so no reason speaks of what one leaves out.
    assert!(
        !says(&th, "the formula has one line"),
        "{:?}",
        th.approx_because
    );
    // Two workers at 190 rps, each request waiting 5 ms and then writing
    // for 1 ms: service times are not exponential and the CPU is visited
    // twice, but no formula's approximation or visit count is named, since
    // none is used; what binds is the only reason.
    let th = theory(&Scenario {
        workers: 2,
        rps: 190.0,
        write_ms: 1.0,
        wait_ms: 5.0,
        ..preset("one-worker-limit").unwrap()
    });
    assert!(th.mean_ms.is_none() && !th.curve_formula, "{th:?}");
    assert_eq!(th.approx_because.len(), 1, "{:?}", th.approx_because);
    assert!(says(&th, "worker pool is a line of its own"));
}

#[test]
fn only_calls_whose_times_vary_have_a_slow_call_share() {
    // 100 random calls: 1 − 0.99^100 ≈ 63 % of requests meet a slow one.
    let exp = Scenario {
        fan_out: 100,
        ..Scenario::default()
    };
    let share = theory(&exp).dep.slow_call_share.unwrap();
    assert!((share - 0.634).abs() < 0.001, "{share}");
    // Fixed waits are all alike: no call is slower than another.
    let fixed = Scenario {
        wait_dist: tellers_sim::Dist::Const,
        ..exp.clone()
    };
    assert_eq!(theory(&fixed).dep.slow_call_share, None);
    // Nor are calls that take no time.
    let instant = Scenario {
        wait_ms: 0.0,
        ..exp.clone()
    };
    assert_eq!(theory(&instant).dep.slow_call_share, None);
    // One call has no share.
    let one = Scenario { fan_out: 1, ..exp };
    assert_eq!(theory(&one).dep.slow_call_share, None);
}

/// Overloaded with a line limit: the excess is refused, the line stays
/// short (the run in `theory.rs`'s Little's-law test keeps it at 10), so
/// theory gives no growth and no "grows without limit"; without the limit
/// the line grows by offered − capacity.
#[test]
fn an_overloaded_line_that_turns_the_excess_away_is_not_said_to_grow() {
    let open = Scenario {
        rps: 400.0,
        ..Scenario::default()
    };
    let grows = theory(&open).growth_per_s.unwrap();
    assert!((grows - 200.0).abs() < 1e-9, "{grows}");
    for bounded in [
        Scenario {
            queue_limit: Some(10),
            ..open.clone()
        },
        Scenario {
            max_connections: Some(50),
            ..open.clone()
        },
        Scenario {
            shed_after_ms: Some(500.0),
            ..open.clone()
        },
        Scenario {
            timeout_ms: Some(1000.0),
            drop_abandoned: true,
            ..open.clone()
        },
        Scenario {
            timeout_ms: Some(1000.0),
            drop_hopeless: true,
            ..open.clone()
        },
    ] {
        let th = theory(&bounded);
        assert_eq!(th.growth_per_s, None, "{bounded:?}");
        assert_eq!(th.mean_ms, None);
    }
    // A line limit where there is no line (thread per request with no cap)
    // turns nothing away: the line still grows.
    let no_line = Scenario {
        model: Model::ThreadPerRequest,
        queue_limit: Some(10),
        ..open.clone()
    };
    assert!(theory(&no_line).growth_per_s.is_some_and(|g| g > 0.0));
    // Keeping up, the growth is 0 with or without a limit.
    let light = Scenario {
        rps: 50.0,
        queue_limit: Some(10),
        ..open
    };
    assert_eq!(theory(&light).growth_per_s, Some(0.0));
}

/// Keep-alive connections of 500 requests, 50 ms apart, open at 2.2 a
/// second: each sends for at least 36 s (500 × (50 ms think + 20 ms wait +
/// 3 ms CPU)), longer than the 6 s warm-up of a
/// 60 s run, so theory says the arrivals are still climbing (the run's
/// window saw about 700 rps of the 1,100); with 10 requests a connection
/// they fill in half a second, and nothing is said.
#[test]
fn keep_alive_connections_that_fill_slowly_say_so() {
    let th = theory(&preset("waf-inline").unwrap());
    assert!(
        says(&th, "open at 2.2 a second and each sends for at least 36 s (longer for any time in line), so the arrivals reach 1,100 rps only after that"),
        "{:?}",
        th.approx_because
    );
    let short = Scenario {
        conn_requests: 10,
        ..preset("waf-inline").unwrap()
    };
    assert!(!says(&theory(&short), "no connection open"));
    // A short run: fractions of a second say so, not "about 0 s".
    let brief = Scenario {
        conn_requests: 10,
        duration_s: 1.0,
        ..preset("waf-inline").unwrap()
    };
    assert!(
        says(&theory(&brief), "each sends for at least 0.7 s"),
        "{:?}",
        theory(&brief).approx_because
    );
}

/// Wherever the capacity is marked an estimate (and with it the
/// throughput and the line's growth), a note says why: over every preset
/// run by threads, and pools, cores, CPU, waits and switches around the
/// points where the shares cross 1 % alone and together.
#[test]
fn every_capacity_estimate_says_why() {
    let mut marked = 0;
    for p in tellers_sim::presets::presets() {
        if !matches!(
            p.scenario.model,
            Model::ThreadPool | Model::ThreadPerRequest
        ) {
            continue;
        }
        for (threads, cores, cpu_ms, wait_ms, switch_us, time_slice_ms) in shares_grid() {
            let s = Scenario {
                threads,
                cores,
                cpu_ms,
                wait_ms,
                switch_us,
                time_slice_ms,
                rps: 1e6,
                ..p.scenario.clone()
            };
            let th = theory(&s);
            if th.capacity_bound() != tellers_sim::theory::Bound::Approx {
                continue;
            }
            marked += 1;
            let named = th.figure_notes.len()
                + th.approx_because
                    .iter()
                    .filter(|w| w.starts_with("context switches"))
                    .count();
            assert!(named > 0, "{}: {s:?} is marked with no note", p.name);
        }
    }
    assert!(
        marked > 1000,
        "only {marked} estimates: the grid misses them"
    );
}

/// Pools, cores, CPU ms, wait ms, switch µs and time slices ms.
fn shares_grid() -> impl Iterator<Item = (u32, u32, f64, f64, f64, f64)> {
    let mut grid = Vec::new();
    for threads in [2, 3, 5, 8, 20, 40] {
        for cores in [1, 2, 4] {
            for cpu in [1.0, 3.0, 10.0] {
                for wait in [0.0, 1.0, 90.0] {
                    for switch in [5.0, 20.0] {
                        for slice in [1.0, 4.0, 10.0] {
                            grid.push((threads, cores, cpu, wait, switch, slice));
                        }
                    }
                }
            }
        }
    }
    grid.into_iter()
}

/// Clients that each wait for their answer are no line fed at a rate:
/// theory says it has no formula, and gives no reason about one (the
/// closed test of lesson 17 said "none … no queueing formula applies",
/// then that the wait used the Allen–Cunneen approximation).
#[test]
fn a_closed_loop_gives_no_reason_about_a_formula_it_does_not_use() {
    let s = Scenario {
        arrivals: Arrivals::Closed,
        clients: 10,
        ..preset("sale-day").unwrap()
    };
    let th = theory(&s);
    assert!(
        th.model_of_line.starts_with("none:"),
        "{}",
        th.model_of_line
    );
    assert!(th.mean_ms.is_none() && th.p99_ms.is_none());
    assert!(
        th.approx_because
            .iter()
            .all(|w| !w.contains("formula") && !w.contains("Allen and Cunneen")),
        "{:?}",
        th.approx_because
    );
    // The same server fed at a rate keeps them (its pool of 20 on 4
    // cores is theory's pool line).
    let open = theory(&Scenario {
        arrivals: Arrivals::Poisson,
        ..s
    });
    assert!(
        says(&open, "the formula shares the cores evenly"),
        "{:?}",
        open.approx_because
    );
}

/// A batch is no line fed at a rate either: its reasons say what its
/// makespan leaves out (threads queue for the cores, where requests use
/// CPU), not how a wait formula it does not use corrects for fixed times.
#[test]
fn a_batch_gives_no_reason_about_a_wait_formula() {
    // The presets' batches use no CPU: nothing queues for a core, and the
    // table beside the note says "requests use no CPU".
    let none = theory(&preset("batch-pool-100").unwrap());
    assert!(
        none.model_of_line.starts_with("none:"),
        "{}",
        none.model_of_line
    );
    assert!(none.approx_because.is_empty(), "{:?}", none.approx_because);
    // 1 ms of CPU to 100 ms of waiting: the 100 threads still bind.
    let cpu = Scenario {
        cpu_ms: 1.0,
        ..preset("batch-pool-100").unwrap()
    };
    let th = theory(&cpu);
    assert!(
        th.approx_because
            .iter()
            .all(|w| !w.contains("Allen and Cunneen")),
        "{:?}",
        th.approx_because
    );
    assert!(
        says(&th, "threads also queue for the cores"),
        "{:?}",
        th.approx_because
    );
    // Fed at a rate, the same fixed times keep the correction's reason.
    let open = theory(&Scenario {
        arrivals: Arrivals::Poisson,
        ..preset("batch-pool-100").unwrap()
    });
    assert!(
        says(&open, "Allen and Cunneen"),
        "{:?}",
        open.approx_because
    );
}

/// Theory takes a loop as a closed line of its keep-alive connections only
/// when each sends enough requests to live long against the loop's line
/// (`CLOSED_LOOP_MIN_REQUESTS`): with 2, the open line was the nearer
/// (runs 0.76 of it at 85 %, 2.02 times the closed line's mean).
#[test]
fn only_long_lived_keep_alive_connections_make_a_closed_line() {
    let with = |n: u32| Scenario {
        conn_requests: n,
        ..preset("waf-inline").unwrap()
    };
    let two = theory(&with(2));
    assert!(two.keep_alive.is_none() && two.queue_model == "M/G/1");
    assert!(
        says(&two, "not at random moments"),
        "{:?}",
        two.approx_because
    );
    let five = theory(&with(5));
    assert!(five.keep_alive.is_some());
    assert!(
        says(&five, "a closed line of its connections"),
        "{:?}",
        five.approx_because
    );
    // Fixed steps are no chain of random ones: the open line stays.
    let fixed = Scenario {
        cpu_dist: tellers_sim::Dist::Const,
        ..with(500)
    };
    assert!(theory(&fixed).keep_alive.is_none());
}

/// With the heavy steps handed to each loop's own pool, theory takes each
/// loop and its pool as a closed network of two lines: its reasons say
/// what that model leaves out (the cores' share, steps taken as random),
/// and none says it has one line or uses Allen–Cunneen. A pool shared by
/// all the loops keeps the open line over the cores.
#[test]
fn a_loop_with_its_own_pool_gives_the_reasons_of_its_network() {
    let s = preset("waf-offload-unbalanced").unwrap();
    let th = theory(&s);
    assert!(
        matches!(th.keep_alive, Some(tellers_sim::theory::KeepAlive::Pair(_))),
        "{}",
        th.queue_model
    );
    assert!(
        th.model_of_line.contains("a loop and its pool"),
        "{}",
        th.model_of_line
    );
    for said in ["two lines", "share the cores", "deals them at random"] {
        assert!(says(&th, said), "{said}: {:?}", th.approx_because);
    }
    for unsaid in [
        "Allen–Cunneen",
        "queue twice",
        "several servers",
        "cannot move",
    ] {
        assert!(!says(&th, unsaid), "{unsaid}: {:?}", th.approx_because);
    }
    // One pool of four for the four loops.
    let shared = theory(&Scenario {
        pool_per_loop: false,
        workers: 4,
        ..s
    });
    assert!(shared.keep_alive.is_none(), "{}", shared.queue_model);
    assert!(says(&shared, "queue twice"), "{:?}", shared.approx_because);
}
