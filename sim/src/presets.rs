//! Presets: scenarios that reproduce the source material, by name.

use crate::scenario::{Accept, Arrivals, Discipline, Dist, Model, Scenario};

/// A named scenario with a one-line description.
#[derive(Clone, Debug)]
pub struct Preset {
    /// Name used in URLs, lessons and `--preset`.
    pub name: &'static str,
    /// What it shows, one line.
    pub about: &'static str,
    /// The scenario.
    pub scenario: Scenario,
}

fn sale_day() -> Scenario {
    Scenario {
        model: Model::ThreadPool,
        cores: 4,
        threads: 20,
        cpu_ms: 10.0,
        wait_ms: 90.0,
        rps: 400.0,
        duration_s: 20.0,
        warmup: 0.1,
        ..Scenario::default()
    }
}

/// The sale-day pool (capacity 200 rps) at 75 %, 150 rps, with a 5-second
/// spike to 400 rps (twice its capacity) from 10 s; callers give up after
/// 3 s and try 3 more times, 100 ms of jittered backoff apart; 60 s run.
fn spike() -> Scenario {
    Scenario {
        rps: 150.0,
        rps_schedule: Some(
            crate::schedule::Schedule::new(&[(0.0, 150.0), (10.0, 400.0), (15.0, 150.0)])
                .expect("a valid schedule"),
        ),
        timeout_ms: Some(3000.0),
        retries: 3,
        retry_backoff_ms: 100.0,
        duration_s: 60.0,
        ..sale_day()
    }
}

/// The sale-day pool 20 % over its capacity (240 rps against 200) with
/// callers who give up after 1 s, served in `discipline` order; 60 s run.
fn overload(discipline: Discipline) -> Scenario {
    Scenario {
        rps: 240.0,
        timeout_ms: Some(1000.0),
        discipline,
        duration_s: 60.0,
        ..sale_day()
    }
}

fn batch(threads: u32) -> Scenario {
    Scenario {
        model: Model::ThreadPool,
        cores: 4,
        threads,
        cpu_ms: 0.0,
        wait_ms: 100.0,
        wait_dist: Dist::Const,
        arrivals: Arrivals::Batch,
        count: 1000,
        warmup: 0.0,
        ..Scenario::default()
    }
}

/// 10,000 connections opened at once, each idle for 10 s after 0.1 ms of
/// CPU: what holding them costs in `model` (no thread cap).
fn c10k(model: Model) -> Scenario {
    Scenario {
        model,
        cpu_ms: 0.1,
        wait_ms: 10_000.0,
        wait_dist: Dist::Const,
        arrivals: Arrivals::Batch,
        count: 10_000,
        warmup: 0.0,
        ..Scenario::default()
    }
}

/// The Node benchmark: 10 closed-loop connections against one event loop,
/// with a CPU step of `cpu_ms` per request, run for 10 s with a 10 s timeout.
fn node(cpu_ms: f64, pool: bool) -> Scenario {
    Scenario {
        model: if pool {
            Model::EventLoopWorkers
        } else {
            Model::EventLoop
        },
        cores: 8,
        loops: 1,
        workers: 5,
        offload_above_ms: 0.0,
        handoff_ms: 7.5,
        cpu_ms,
        cpu_dist: Dist::Const,
        wait_ms: 0.0,
        arrivals: Arrivals::Closed,
        clients: 10,
        think_ms: 0.0,
        timeout_ms: Some(10_000.0),
        duration_s: 10.0,
        warmup: 0.0,
        ..Scenario::default()
    }
}

/// The WAF case: four loops on four cores; 95 % of requests need about 1 ms
/// of CPU, 5 % need about 40 ms; 20 ms waiting on the origin.
fn waf(model: Model, accept: Accept) -> Scenario {
    Scenario {
        model,
        cores: 4,
        loops: 4,
        accept,
        // Each loop is an NGINX worker process with its own small thread pool.
        workers: 1,
        pool_per_loop: true,
        offload_above_ms: 10.0,
        // Requests that need the slow WAF rules go to the pool, whatever they cost.
        offload_heavy: true,
        handoff_ms: 0.05,
        cpu_ms: 1.0,
        heavy_share: 0.05,
        heavy_cpu_ms: 40.0,
        cpu_dist: Dist::Exp,
        wait_ms: 20.0,
        // Keep-alive connections: 2.2 new ones a second, each sending 500
        // requests 50 ms apart (after each answer), on the loop that accepted it.
        rps: 1100.0,
        conn_requests: 500,
        think_ms: 50.0,
        duration_s: 60.0,
        ..Scenario::default()
    }
}

/// An event-loop service in front of a database: 1 ms of CPU and a 20 ms
/// query per request, 10 connections to the database, 600 rps asked.
fn db_pool() -> Scenario {
    Scenario {
        model: Model::EventLoop,
        cores: 4,
        loops: 4,
        accept: Accept::Shared,
        cpu_ms: 1.0,
        wait_ms: 20.0,
        dep_pool: Some(10),
        rps: 600.0,
        duration_s: 60.0,
        ..Scenario::default()
    }
}

/// A page that calls `n` backends at once, each answering in 10 ms on
/// average (exponential), on eight event loops with room to spare.
fn fan_out(n: u32) -> Scenario {
    Scenario {
        model: Model::EventLoop,
        cores: 8,
        loops: 8,
        accept: Accept::Shared,
        cpu_ms: 0.5,
        wait_ms: 10.0,
        fan_out: n,
        rps: 100.0,
        duration_s: 120.0,
        ..Scenario::default()
    }
}

/// A textbook queue: `c` threads on `c` cores, 10 ms of CPU and no wait,
/// Poisson arrivals at `rps`, run for `duration_s`.
fn queue(c: u32, rps: f64, cpu_dist: Dist, duration_s: f64) -> Scenario {
    Scenario {
        cores: c,
        threads: c,
        wait_ms: 0.0,
        cpu_ms: 10.0,
        cpu_dist,
        rps,
        switch_us: 0.0,
        duration_s,
        ..Scenario::default()
    }
}

/// Every preset, in the order menus show them.
pub fn presets() -> Vec<Preset> {
    let p = |name, about, scenario| Preset {
        name,
        about,
        scenario,
    };
    vec![
        p(
            "sale-day",
            "Sale day: 400 rps, 4 cores, 10 ms CPU + 90 ms wait, a pool of 20",
            sale_day(),
        ),
        p(
            "sale-day-timeout",
            "Sale day with callers who give up after 3 s: work for nobody",
            Scenario {
                timeout_ms: Some(3000.0),
                ..sale_day()
            },
        ),
        p(
            "sale-day-pool-40",
            "Sale day with a pool of 40: the CPU is now the limit",
            Scenario {
                threads: 40,
                ..sale_day()
            },
        ),
        p(
            "sale-day-event-loop",
            "Sale day on four event loops: no thread limit, only the CPU",
            Scenario {
                model: Model::EventLoop,
                loops: 4,
                ..sale_day()
            },
        ),
        p(
            "sale-day-planned",
            "Sale day planned at 70 %: 280 rps on a pool of 40",
            Scenario {
                threads: 40,
                rps: 280.0,
                ..sale_day()
            },
        ),
        p(
            "spike-metastable",
            "A 5 s spike with 3 retries per call: the retry storm outlives the spike",
            spike(),
        ),
        p(
            "spike-retry-budget",
            "The same spike with a retry budget (0.1 token per success): it recovers",
            Scenario {
                retry_budget: Some(0.1),
                ..spike()
            },
        ),
        p(
            "spike-shed",
            "The same spike, shedding requests that waited over 1 s: it recovers",
            Scenario {
                shed_after_ms: Some(1000.0),
                ..spike()
            },
        ),
        p(
            "overload-fifo",
            "20 % over capacity, 1 s timeouts, oldest first: almost nobody in time",
            overload(Discipline::Fifo),
        ),
        p(
            "overload-adaptive-lifo",
            "20 % over capacity, 1 s timeouts, adaptive LIFO: most callers in time",
            overload(Discipline::AdaptiveLifo),
        ),
        p(
            "batch-pool-20",
            "1,000 requests that each wait 100 ms, on 20 threads",
            batch(20),
        ),
        p(
            "batch-pool-100",
            "1,000 requests that each wait 100 ms, on 100 threads",
            batch(100),
        ),
        p(
            "batch-pool-1000",
            "1,000 requests that each wait 100 ms, on 1,000 threads",
            batch(1000),
        ),
        p(
            "batch-event-loop",
            "1,000 requests that each wait 100 ms, on one event loop",
            Scenario {
                model: Model::EventLoop,
                loops: 1,
                ..batch(20)
            },
        ),
        p(
            "node-light-blocking",
            "Node, light CPU (1.35 ms) on the event loop",
            node(1.35, false),
        ),
        p(
            "node-light-pool",
            "Node, light CPU handed to a worker pool",
            node(1.35, true),
        ),
        p(
            "node-moderate-blocking",
            "Node, moderate CPU (49 ms) on the event loop",
            node(49.0, false),
        ),
        p(
            "node-moderate-pool",
            "Node, moderate CPU handed to a worker pool",
            node(49.0, true),
        ),
        p(
            "node-heavy-blocking",
            "Node, heavy CPU (105 ms) on the event loop",
            node(105.0, false),
        ),
        p(
            "node-heavy-pool",
            "Node, heavy CPU handed to a worker pool",
            node(105.0, true),
        ),
        p(
            "node-collapse-blocking",
            "Node, 8 s of CPU per request on the event loop",
            node(8300.0, false),
        ),
        p(
            "node-collapse-pool",
            "Node, 8 s of CPU per request on a worker pool",
            node(8300.0, true),
        ),
        p(
            "waf-inline",
            "WAF checks on the loops; keep-alive connections; idle loops accept more",
            waf(Model::EventLoop, Accept::Idlest),
        ),
        p(
            "waf-offload-unbalanced",
            "Slow WAF checks moved to each loop's pool; idle loops accept more connections",
            waf(Model::EventLoopWorkers, Accept::Idlest),
        ),
        p(
            "waf-offload-round-robin",
            "Slow WAF checks moved to each loop's pool; connections dealt in turn",
            waf(Model::EventLoopWorkers, Accept::RoundRobin),
        ),
        p(
            "db-pool-limit",
            "An event-loop service whose 10 database connections cap it at 500 rps",
            db_pool(),
        ),
        p(
            "fan-out-10",
            "Each request calls 10 backends (10 ms each): it waits for the slowest",
            fan_out(10),
        ),
        p(
            "fan-out-100",
            "Each request calls 100 backends: most meet a slow one",
            fan_out(100),
        ),
        p(
            "fan-out-100-hedged",
            "100 calls, each sent again if unanswered after 30 ms: a shorter tail",
            Scenario {
                hedge_after_ms: Some(30.0),
                ..fan_out(100)
            },
        ),
        p(
            "mm1",
            "One worker, random arrivals, random 10 ms service (M/M/1) at 80 %",
            queue(1, 80.0, Dist::Exp, 600.0),
        ),
        p(
            "mm4",
            "Four workers sharing one line (M/M/4) at 80 %",
            queue(4, 320.0, Dist::Exp, 300.0),
        ),
        p(
            "md1",
            "One worker, fixed 10 ms service (M/D/1) at 80 %",
            queue(1, 80.0, Dist::Const, 600.0),
        ),
        p(
            "c10k-threads",
            "10,000 open connections, a thread for each",
            c10k(Model::ThreadPerRequest),
        ),
        p(
            "c10k-event-loop",
            "10,000 open connections on four event loops",
            c10k(Model::EventLoop),
        ),
    ]
}

/// The preset called `name`.
pub fn preset(name: &str) -> Option<Scenario> {
    presets()
        .into_iter()
        .find(|p| p.name == name)
        .map(|p| p.scenario)
}

/// Names of all presets, for error messages.
pub fn preset_names() -> Vec<&'static str> {
    presets().iter().map(|p| p.name).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_preset_is_valid_and_named_once() {
        let all = presets();
        for p in &all {
            assert_eq!(p.scenario.validate(), vec![], "{}", p.name);
            assert_eq!(
                all.iter().filter(|q| q.name == p.name).count(),
                1,
                "{}",
                p.name
            );
        }
    }
}
