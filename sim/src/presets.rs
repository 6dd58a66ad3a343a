//! Presets: scenarios that reproduce the source material, by name.
//!
//! Each preset is written as the URL writes a scenario, `field=value` pairs
//! read by the field table ([`crate::fields::Field::set_text`]), over the
//! defaults or over an earlier preset. As text they cost the wasm a few
//! hundred bytes each, where building 34 scenario structs in code cost
//! 19 KB; the tests below read every one and check it.

use crate::scenario::Scenario;

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

/// A preset as written below.
struct Def {
    name: &'static str,
    about: &'static str,
    /// The earlier preset these settings change; "" for the defaults.
    from: &'static str,
    /// `field=value` pairs separated by spaces, as in a URL's query.
    set: &'static str,
}

const fn def(
    name: &'static str,
    about: &'static str,
    from: &'static str,
    set: &'static str,
) -> Def {
    Def {
        name,
        about,
        from,
        set,
    }
}

/// Every preset, in the order menus show them.
const DEFS: &[Def] = &[
    // The sale day: a pool of 20 threads on 4 cores, each request 10 ms of
    // CPU and 90 ms waiting on the database (capacity 200 rps), asked 400.
    def(
        "sale-day",
        "Sale day: 400 rps, 4 cores, 10 ms CPU + 90 ms wait, a pool of 20",
        "",
        "model=thread-pool cores=4 threads=20 cpu_ms=10 wait_ms=90 rps=400 duration_s=20 warmup=0.1",
    ),
    def(
        "sale-day-timeout",
        "Sale day with callers who give up after 3 s: work for nobody",
        "sale-day",
        "timeout_ms=3000",
    ),
    def(
        "sale-day-pool-40",
        "Sale day, pool of 40: 400 rps on paper; sharing 4 cores, it finishes about 360",
        "sale-day",
        "threads=40",
    ),
    def(
        "sale-day-event-loop",
        "Sale day on four event loops: no thread limit, only the CPU",
        "sale-day",
        "model=event-loop loops=4",
    ),
    def(
        "sale-day-planned",
        "Sale day planned at 70 %: 280 rps on a pool of 40",
        "sale-day",
        "threads=40 rps=280",
    ),
    // The sale-day pool (capacity 200 rps) at 75 %, 150 rps, with a 5-second
    // spike to 400 rps (twice its capacity) from 10 s; callers give up after
    // 3 s and try 3 more times, 100 ms of jittered backoff apart; 60 s run.
    def(
        "spike-metastable",
        "A 5 s spike with up to 3 retries per call: the retry storm outlives the spike",
        "sale-day",
        "rps=150 rps_schedule=0:150,10:400,15:150 timeout_ms=3000 retries=3 retry_backoff_ms=100 duration_s=60",
    ),
    def(
        "spike-retry-budget",
        "The same spike with a retry budget (0.1 token per success): it recovers",
        "spike-metastable",
        "retry_budget=0.1",
    ),
    def(
        "spike-breaker",
        "The same spike with a circuit breaker after 20 failures in a row: it recovers",
        "spike-metastable",
        "breaker_after=20 breaker_open_ms=1000",
    ),
    def(
        "spike-shed",
        "The same spike, shedding requests that waited over 1 s: it recovers",
        "spike-metastable",
        "shed_after_ms=1000",
    ),
    // The sale-day pool 20 % over its capacity (240 rps against 200) with
    // callers who give up after 1 s, served oldest first or adaptive LIFO; 60 s run.
    def(
        "overload-fifo",
        "20 % over capacity, 1 s timeouts, oldest first: almost nobody in time",
        "sale-day",
        "rps=240 timeout_ms=1000 discipline=fifo duration_s=60",
    ),
    def(
        "overload-adaptive-lifo",
        "20 % over capacity, 1 s timeouts, adaptive LIFO: most callers in time",
        "overload-fifo",
        "discipline=adaptive-lifo",
    ),
    // 1,000 requests at once, each waiting 100 ms and using no CPU.
    def(
        "batch-pool-20",
        "1,000 requests that each wait 100 ms, on 20 threads",
        "",
        "model=thread-pool cores=4 threads=20 cpu_ms=0 wait_ms=100 wait_dist=const arrivals=batch count=1000 warmup=0",
    ),
    def(
        "batch-pool-100",
        "1,000 requests that each wait 100 ms, on 100 threads",
        "batch-pool-20",
        "threads=100",
    ),
    def(
        "batch-pool-1000",
        "1,000 requests that each wait 100 ms, on 1,000 threads",
        "batch-pool-20",
        "threads=1000",
    ),
    def(
        "batch-event-loop",
        "1,000 requests that each wait 100 ms, on one event loop",
        "batch-pool-20",
        "model=event-loop loops=1",
    ),
    // The Node benchmark: 10 closed-loop connections against one event loop,
    // with a CPU step per request, run for 10 s with a 10 s timeout; the
    // "pool" presets hand the step to 5 workers.
    def(
        "node-light-blocking",
        "Node, light CPU (1.35 ms) on the event loop",
        "",
        "model=event-loop cores=8 loops=1 workers=5 offload_above_ms=0 handoff_ms=7.5 cpu_ms=1.35 \
         cpu_dist=const wait_ms=0 arrivals=closed clients=10 think_ms=0 timeout_ms=10000 duration_s=10 warmup=0",
    ),
    def(
        "node-light-pool",
        "Node, light CPU handed to a worker pool",
        "node-light-blocking",
        "model=event-loop-workers",
    ),
    def(
        "node-moderate-blocking",
        "Node, moderate CPU (49 ms) on the event loop",
        "node-light-blocking",
        "cpu_ms=49",
    ),
    def(
        "node-moderate-pool",
        "Node, moderate CPU handed to a worker pool",
        "node-moderate-blocking",
        "model=event-loop-workers",
    ),
    def(
        "node-heavy-blocking",
        "Node, heavy CPU (105 ms) on the event loop",
        "node-light-blocking",
        "cpu_ms=105",
    ),
    def(
        "node-heavy-pool",
        "Node, heavy CPU handed to a worker pool",
        "node-heavy-blocking",
        "model=event-loop-workers",
    ),
    def(
        "node-collapse-blocking",
        "Node, 8.3 s of CPU per request on the event loop",
        "node-light-blocking",
        "cpu_ms=8300",
    ),
    def(
        "node-collapse-pool",
        "Node, 8.3 s of CPU per request on a worker pool",
        "node-collapse-blocking",
        "model=event-loop-workers",
    ),
    // The WAF case: four loops on four cores (each an NGINX worker process
    // with its own pool of one thread); 95 % of requests need about 1 ms of
    // CPU, 5 % about 40 ms (the slow rules, sent to the pool whatever they
    // cost when offloaded); 20 ms waiting on the origin. Keep-alive
    // connections: 2.2 new ones a second, each sending 500 requests 50 ms
    // apart (after each answer), on the loop that accepted it.
    def(
        "waf-inline",
        "WAF checks on the loops; keep-alive connections; idle loops accept more",
        "",
        "model=event-loop cores=4 loops=4 accept=idlest workers=1 pool_per_loop=true offload_above_ms=10 \
         offload_heavy=true handoff_ms=0.05 cpu_ms=1 heavy_share=0.05 heavy_cpu_ms=40 cpu_dist=exp \
         wait_ms=20 rps=1100 conn_requests=500 think_ms=50 duration_s=60",
    ),
    def(
        "waf-offload-unbalanced",
        "Slow WAF checks moved to each loop's pool; idle loops accept more",
        "waf-inline",
        "model=event-loop-workers",
    ),
    def(
        "waf-offload-round-robin",
        "Slow WAF checks moved to each loop's pool; connections dealt in turn",
        "waf-offload-unbalanced",
        "accept=round-robin",
    ),
    // An event-loop service in front of a database: 1 ms of CPU and a 20 ms
    // query per request, 10 connections to the database, 600 rps asked.
    def(
        "db-pool-limit",
        "An event-loop service whose 10 database connections cap it at 500 rps",
        "",
        "model=event-loop cores=4 loops=4 accept=shared cpu_ms=1 wait_ms=20 dep_pool=10 rps=600 duration_s=60",
    ),
    // Event loop + workers on 8 cores, all 10 ms of CPU per request handed
    // to one worker thread, at 95 rps: the worker's own line is the limit
    // while the cores sit idle (read by the signs, theory and their tests).
    def(
        "one-worker-limit",
        "Event loop + one worker for CPU steps: the worker, not the cores, is the limit",
        "",
        "model=event-loop-workers cores=8 loops=1 workers=1 cpu_ms=10 wait_ms=0 offload_above_ms=0 rps=95 duration_s=60",
    ),
    // A page that calls n backends at once, each answering in 10 ms on
    // average (exponential), on eight event loops with room to spare.
    def(
        "fan-out-10",
        "Each request calls 10 backends (random, 10 ms mean): it waits for the slowest",
        "",
        "model=event-loop cores=8 loops=8 accept=shared cpu_ms=0.5 wait_ms=10 fan_out=10 rps=100 duration_s=120",
    ),
    def(
        "fan-out-100",
        "Each request calls 100 backends: most meet a slow one",
        "fan-out-10",
        "fan_out=100",
    ),
    def(
        "fan-out-100-hedged",
        "100 calls, each sent again if unanswered after 30 ms: a shorter tail",
        "fan-out-100",
        "hedge_after_ms=30",
    ),
    // Textbook queues: c threads on c cores, 10 ms of CPU and no wait, no
    // switching cost, Poisson arrivals.
    def(
        "mm1",
        "One worker, random arrivals, random 10 ms service (M/M/1) at 80 %",
        "",
        "cores=1 threads=1 wait_ms=0 cpu_ms=10 cpu_dist=exp rps=80 switch_us=0 duration_s=600",
    ),
    def(
        "mm4",
        "Four workers sharing one line (M/M/4) at 80 %",
        "mm1",
        "cores=4 threads=4 rps=320 duration_s=300",
    ),
    def(
        "md1",
        "One worker, fixed 10 ms service (M/D/1) at 80 %",
        "mm1",
        "cpu_dist=const",
    ),
    // 10,000 connections opened at once, each idle for 10 s after 0.1 ms of
    // CPU: what holding them costs (no thread cap).
    def(
        "c10k-threads",
        "10,000 open connections, a thread for each",
        "",
        "model=thread-per-request cpu_ms=0.1 wait_ms=10000 wait_dist=const arrivals=batch count=10000 warmup=0",
    ),
    def(
        "c10k-event-loop",
        "10,000 open connections on four event loops",
        "c10k-threads",
        "model=event-loop",
    ),
];

/// The scenario `d` writes, over the presets already read (`earlier`).
fn read(d: &Def, earlier: &[Preset]) -> Result<Scenario, String> {
    let mut s = match d.from {
        "" => Scenario::default(),
        from => earlier
            .iter()
            .find(|p| p.name == from)
            .map(|p| p.scenario.clone())
            .ok_or_else(|| format!("'{from}' is not an earlier preset"))?,
    };
    for pair in d.set.split_whitespace() {
        let (key, value) = pair
            .split_once('=')
            .ok_or_else(|| format!("'{pair}' is not field=value"))?;
        let field = Scenario::field(key).ok_or_else(|| format!("'{key}' is not a field"))?;
        field
            .set_text(&mut s, value)
            .map_err(|e| format!("{key}: {e}"))?;
    }
    Ok(s)
}

/// Every preset, in the order menus show them (read once).
pub fn presets() -> &'static [Preset] {
    static READ: std::sync::OnceLock<Vec<Preset>> = std::sync::OnceLock::new();
    READ.get_or_init(read_all)
}

fn read_all() -> Vec<Preset> {
    let mut all: Vec<Preset> = Vec::with_capacity(DEFS.len());
    for d in DEFS {
        let scenario = read(d, &all)
            // Every preset is read by the tests below: this cannot fail in a build that passed them.
            .unwrap_or_else(|e| panic!("preset {}: {e}", d.name));
        all.push(Preset {
            name: d.name,
            about: d.about,
            scenario,
        });
    }
    all
}

/// The preset called `name`.
pub fn preset(name: &str) -> Option<Scenario> {
    presets()
        .iter()
        .find(|p| p.name == name)
        .map(|p| p.scenario.clone())
}

/// Names of all presets, for error messages.
pub fn preset_names() -> Vec<&'static str> {
    DEFS.iter().map(|d| d.name).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_preset_is_valid_and_named_once() {
        let all = presets();
        for p in all {
            assert_eq!(p.scenario.validate(), vec![], "{}", p.name);
            assert_eq!(
                all.iter().filter(|q| q.name == p.name).count(),
                1,
                "{}",
                p.name
            );
        }
    }

    #[test]
    fn the_pool_of_40_ties_its_thread_limit_with_the_cpu() {
        // 40 threads ÷ (10 + 90) ms = 400 rps; 4 cores ÷ 10 ms = 400 rps.
        let p = presets()
            .iter()
            .find(|p| p.name == "sale-day-pool-40")
            .unwrap();
        let cap = crate::analytic::capacity(&p.scenario);
        assert_eq!(cap.thread_limit_rps, Some(400.0));
        assert_eq!(cap.cpu_limit_rps, 400.0);
        // Both limits are 400 on paper, but 40 threads on 4 cores wait
        // for a core too: the description says what the run finishes.
        assert!(
            p.about
                .contains("400 rps on paper; sharing 4 cores, it finishes about 360"),
            "{}",
            p.about
        );
        let r = crate::simulate(&p.scenario).unwrap();
        assert!(
            (350.0..=370.0).contains(&r.throughput_rps),
            "{}",
            r.throughput_rps
        );
        assert!(!p.about.contains("the CPU is now the limit"), "{}", p.about);
    }
}
