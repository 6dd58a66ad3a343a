//! The analytic companion: what queueing theory predicts the simulator should show.
//!
//! Plain functions, no state. Units:
//!
//! * times are in **milliseconds (ms)** unless the name says otherwise;
//! * rates are in **requests per second (rps)**;
//! * `rho` (ρ) is the utilisation of the servers, a fraction (0.9 = 90 % busy);
//! * `p` is a probability (0.99 = the 99th percentile).
//!
//! ## The two limits
//!
//! * **CPU limit**: `cores` cores, each request needs `cpu_ms` of CPU, so at most
//!   `cores × 1000 / cpu_ms` requests per second get done.
//! * **Thread limit**: a thread is held for the whole time a request is inside
//!   (CPU *and* waiting), so `threads` threads finish at most
//!   `threads / seconds inside` requests per second. Little's law turned around
//!   gives the threads needed: `rps × seconds inside`.
//!
//! ## Waiting in line
//!
//! * M/M/1 (one server, random arrivals, random service): mean response `S/(1−ρ)`.
//! * M/M/c (c servers sharing one line): Erlang C, with exact percentiles.
//! * M/D/1 and M/G/1 (Pollaczek–Khinchine): constant service waits half as long.
//!
//! ## Bad input
//!
//! No function here panics or returns NaN. Every **mean or percentile** function
//! returns `f64::INFINITY` when the line never settles (ρ ≥ 1) or when an input
//! makes no sense: ρ negative, NaN or infinite; a service time negative, NaN or
//! infinite; no servers (`c == 0`); a negative or NaN `scv`.
//! A probability `p` is clamped to [0, 1] instead: `p ≤ 0` gives 0 (nothing is
//! faster than no time at all) and `p ≥ 1` gives `f64::INFINITY` (the slowest
//! request has no bound); a NaN `p` gives `f64::INFINITY`.
//! The limit functions treat negative or NaN arguments as 0.

use crate::{Arrivals, Dist, Model, Scenario};
use serde::Serialize;

// ---------------------------------------------------------------------------
// Small helpers
// ---------------------------------------------------------------------------

/// `x` if it is positive (or +∞), otherwise 0 (also for NaN).
fn non_negative(x: f64) -> f64 {
    if x > 0.0 {
        x
    } else {
        0.0
    }
}

/// True when a service time (ms) and a utilisation can be used by the formulas:
/// the service time is finite and ≥ 0 and 0 ≤ ρ < 1.
fn settles(service_ms: f64, rho: f64) -> bool {
    service_ms.is_finite() && service_ms >= 0.0 && rho.is_finite() && (0.0..1.0).contains(&rho)
}

/// A mean wait (ms) plus the service time (ms); infinite when the wait is
/// (so a NaN service time, already refused by the wait, cannot leak through).
fn plus_service(wait_ms: f64, service_ms: f64) -> f64 {
    if wait_ms.is_infinite() {
        f64::INFINITY
    } else {
        wait_ms + service_ms
    }
}

/// `servers` each busy `ms` milliseconds per request → requests per second.
/// 0 ms per request gives an unbounded rate.
fn per_second(servers: f64, ms: f64) -> f64 {
    let (servers, ms) = (non_negative(servers), non_negative(ms));
    if ms == 0.0 {
        return f64::INFINITY;
    }
    if servers == 0.0 {
        return 0.0;
    }
    let rate = servers * 1000.0 / ms;
    if rate.is_nan() {
        f64::INFINITY // ∞ servers over ∞ ms: no finite limit
    } else {
        rate
    }
}

// ---------------------------------------------------------------------------
// The two limits and Little's law
// ---------------------------------------------------------------------------

/// The most requests per second the CPUs can finish.
///
/// * `cores` — CPU cores that can run requests (count).
/// * `cpu_ms` — mean CPU time one request needs, ms.
/// * returns — `cores × 1000 / cpu_ms`, rps; `f64::INFINITY` when `cpu_ms == 0`.
///
/// 4 cores and 10 ms per request: 400 rps.
pub fn cpu_limit_rps(cores: f64, cpu_ms: f64) -> f64 {
    per_second(cores, cpu_ms)
}

/// The most requests per second a fixed number of threads can finish, when each
/// thread is held for the whole time its request is inside (CPU + waits).
///
/// * `threads` — threads available (count).
/// * `time_inside_ms` — mean time one request holds its thread, ms.
/// * returns — `threads / (time_inside_ms / 1000)`, rps; `f64::INFINITY` when
///   `time_inside_ms == 0`.
///
/// 20 threads and 100 ms inside: 200 rps.
pub fn thread_limit_rps(threads: f64, time_inside_ms: f64) -> f64 {
    per_second(threads, time_inside_ms)
}

/// Little's law: the mean number of requests inside a system.
///
/// * `rps` — arrival (= completion) rate, rps.
/// * `time_inside_ms` — mean time one request spends inside, ms.
/// * returns — `rps × time_inside_ms / 1000`, requests (a mean count, not rounded).
pub fn little_in_flight(rps: f64, time_inside_ms: f64) -> f64 {
    let (rps, ms) = (non_negative(rps), non_negative(time_inside_ms));
    if rps == 0.0 || ms == 0.0 {
        return 0.0; // also avoids 0 × ∞
    }
    rps * ms / 1000.0
}

/// Threads needed to keep up with a load when each request holds a thread for
/// its whole time inside (Little's law).
///
/// * `rps` — load, rps.
/// * `time_inside_ms` — mean time one request holds its thread, ms.
/// * returns — `rps × time_inside_ms / 1000`, threads (not rounded up).
///
/// 400 rps × 100 ms needs 40 threads.
pub fn threads_needed(rps: f64, time_inside_ms: f64) -> f64 {
    little_in_flight(rps, time_inside_ms)
}

/// Share of the CPUs kept busy by a load.
///
/// * `rps` — load, rps.
/// * `cores` — CPU cores (count).
/// * `cpu_ms` — mean CPU time per request, ms.
/// * returns — ρ = `rps × cpu_ms / (1000 × cores)`, a fraction (1.0 = all cores
///   busy; above 1 the line grows for ever). 0 when there is no work;
///   `f64::INFINITY` when there is work but no cores.
pub fn utilisation(rps: f64, cores: f64, cpu_ms: f64) -> f64 {
    let work = little_in_flight(rps, cpu_ms); // busy cores needed
    let cores = non_negative(cores);
    if work == 0.0 {
        return 0.0;
    }
    if cores == 0.0 {
        return f64::INFINITY;
    }
    let rho = work / cores;
    if rho.is_nan() {
        f64::INFINITY
    } else {
        rho
    }
}

/// Which limit is the lower one.
#[derive(Serialize, Debug, Clone, Copy, PartialEq)]
#[serde(rename_all = "kebab-case")]
pub enum Limit {
    /// The CPUs are the bottleneck.
    Cpu,
    /// The threads are the bottleneck: they sit waiting while the CPUs idle.
    Threads,
    /// The dependency behind the wait step: its slots, or the connections to it.
    Dependency,
}

/// Which part of the CPU gives the CPU limit.
#[derive(Serialize, Debug, Clone, Copy, PartialEq)]
#[serde(rename_all = "kebab-case")]
pub enum CpuPart {
    /// All the work shared over the cores the model can use.
    Cores,
    /// Event loop + workers: the loops' own steps (hand-offs included) on
    /// the cores the loops can use.
    Loops,
    /// Event loop + workers: the steps handed to the workers, on the cores
    /// the worker threads can use.
    Workers,
}

/// The most a scenario's server can do, and what stops it.
///
/// Infinite limits (for example no CPU work) are serialized by `serde_json` as `null`.
#[derive(Serialize, Debug, Clone, Copy, PartialEq)]
pub struct Capacity {
    /// CPU limit, rps (see [`cpu_limit_rps`]).
    pub cpu_limit_rps: f64,
    /// Which part of the CPU gives `cpu_limit_rps` (the cores on a tie).
    pub cpu_part: CpuPart,
    /// Thread limit, rps (see [`thread_limit_rps`]); `None` when threads are not
    /// held while waiting (event loops) or not capped (thread per request with 0).
    pub thread_limit_rps: Option<f64>,
    /// Dependency limit, rps: the calls it (or the pool in front of it) can
    /// hold at once ÷ the slot time each request needs; `None` without a limit.
    pub dep_limit_rps: Option<f64>,
    /// The lowest of the limits, rps.
    pub capacity_rps: f64,
    /// Which limit gives `capacity_rps` (the CPU on a tie).
    pub binding: Limit,
}

impl Capacity {
    /// True when `limit` gives the capacity: the binding one, and any other
    /// that ties it (the sale day's 40 threads and its cores both give 400
    /// rps), within a relative 1e-9 for rounding. No limit binds a capacity
    /// without end (requests that use no CPU and meet no pool).
    pub fn binds(&self, limit: Limit) -> bool {
        let rps = match limit {
            Limit::Cpu => Some(self.cpu_limit_rps),
            Limit::Threads => self.thread_limit_rps,
            Limit::Dependency => self.dep_limit_rps,
        };
        self.capacity_rps.is_finite()
            && (self.binding == limit
                || rps.is_some_and(|r| (r - self.capacity_rps).abs() <= 1e-9 * self.capacity_rps))
    }

    /// The limits that give the capacity ([`Capacity::binds`]), the
    /// binding one first.
    pub fn binding_limits(&self) -> Vec<Limit> {
        let others = [Limit::Cpu, Limit::Threads, Limit::Dependency]
            .into_iter()
            .filter(|l| *l != self.binding && self.binds(*l));
        std::iter::once(self.binding).chain(others).collect()
    }

    /// The part of the CPU that reaches its limit before all the cores do
    /// (event loop + workers: the loops' own steps, or the workers'), when
    /// the CPU is the binding limit; `None` otherwise. No queueing formula
    /// here models such a line.
    pub fn part_binds(&self) -> Option<CpuPart> {
        (self.binding == Limit::Cpu && self.cpu_part != CpuPart::Cores).then_some(self.cpu_part)
    }
}

/// The CPU limit, the thread limit and which one binds, for a scenario.
///
/// * `s` — the scenario. Uses `cores`, the mean CPU per request with the
///   costs the engine adds ([`cpu_ms_per_request`], ms) and the mean time
///   inside (that CPU + the wait step, ms).
/// * returns — a [`Capacity`] in rps.
///
/// Per model:
/// * thread pool — CPU limit on all cores; thread limit with `threads` threads;
/// * thread per request — same, but a thread limit only when there is a cap;
///   creating each request's thread (`spawn_ms`) is CPU too;
/// * event loop — a loop runs on one core, so the CPU limit uses
///   min(cores, loops); no thread limit (a loop does not wait);
/// * event loop + workers — the lowest of three: all the work on
///   min(cores, loops + worker threads), the loops' own steps (hand-offs
///   included) on min(cores, loops), and the handed-over steps on
///   min(cores, worker threads) ([`Scenario::worker_threads`]); no thread limit.
pub fn capacity(s: &Scenario) -> Capacity {
    let cpu_ms = cpu_ms_per_request(s);
    let inside_ms = thread_hold_ms(s);
    let threads = s.thread_limit();
    let mut cpu_limit = cpu_limit_rps(s.usable_cores(), cpu_ms);
    let mut cpu_part = CpuPart::Cores;
    if s.model == Model::EventLoopWorkers {
        let (cores, loops) = (f64::from(s.cores), f64::from(s.loop_count()));
        let workers = f64::from(s.worker_threads());
        let (_, worker_ms) = offloaded(s);
        // The cores on a tie, then the loops.
        for (limit, part) in [
            (
                cpu_limit_rps(cores.min(loops), cpu_ms - worker_ms),
                CpuPart::Loops,
            ),
            (
                cpu_limit_rps(cores.min(workers), worker_ms),
                CpuPart::Workers,
            ),
        ] {
            if limit < cpu_limit {
                (cpu_limit, cpu_part) = (limit, part);
            }
        }
    }
    let thread_limit = threads.map(|t| thread_limit_rps(f64::from(t), inside_ms));
    let cap = Capacity {
        cpu_limit_rps: cpu_limit,
        cpu_part,
        thread_limit_rps: thread_limit,
        dep_limit_rps: None,
        capacity_rps: cpu_limit,
        binding: Limit::Cpu,
    };
    with_dep_limit(cap, dep_limit_rps_with(s, hedges_per_call(s)))
}

/// `cap` with the dependency limit `dep_rps` (rps; `None` for none), its
/// capacity the lowest of the CPU's, the threads' and that limit, and the
/// binding one chosen again: the CPU on a tie, then the threads, then the
/// dependency.
pub fn with_dep_limit(cap: Capacity, dep_rps: Option<f64>) -> Capacity {
    let mut out = Capacity {
        dep_limit_rps: dep_rps,
        capacity_rps: cap.cpu_limit_rps,
        binding: Limit::Cpu,
        ..cap
    };
    for (limit, which) in [
        (cap.thread_limit_rps, Limit::Threads),
        (dep_rps, Limit::Dependency),
    ] {
        if let Some(l) = limit.filter(|l| *l < out.capacity_rps) {
            out.capacity_rps = l;
            out.binding = which;
        }
    }
    out
}

/// The read steps handed to the workers (event loop + workers): the share
/// of requests whose read step goes (0–1) and the worker CPU per request,
/// ms, over all requests. By class (`offload_heavy`): every heavy read
/// step. By cost: read steps of at least `offload_above_ms` — all or none
/// of a class with fixed times, a share e^(−X/m) of mean (X + m) e^(−X/m)
/// with exponential ones. (0, 0) for other models.
pub fn offloaded(s: &Scenario) -> (f64, f64) {
    if s.model != Model::EventLoopWorkers {
        return (0.0, 0.0);
    }
    let x = s.offload_above_ms;
    // (share of the class offloaded, offloaded CPU per request of the class, ms)
    let class = |m: f64, heavy: bool| -> (f64, f64) {
        if s.offload_heavy {
            return if heavy { (1.0, m) } else { (0.0, 0.0) };
        }
        match s.cpu_dist {
            Dist::Const if m >= x => (1.0, m),
            Dist::Const => (0.0, 0.0),
            Dist::Exp if m > 0.0 => {
                let p = (-x / m).exp();
                (p, (x + m) * p)
            }
            Dist::Exp => (if x <= 0.0 { 1.0 } else { 0.0 }, 0.0),
        }
    };
    let (h, l) = (s.heavy_share, 1.0 - s.heavy_share);
    let (lp, lm) = class(s.cpu_ms, false);
    let (hp, hm) = if h > 0.0 {
        class(s.heavy_cpu_ms, true)
    } else {
        (0.0, 0.0)
    };
    (l * lp + h * hp, l * lm + h * hm)
}

/// Event loop + workers whose workers are the limit but take only some of
/// the requests: the share of requests handed to them (0–1, under 1);
/// `None` where the workers do not bind or take every request.
pub fn workers_bind_some(s: &Scenario, cap: &Capacity) -> Option<f64> {
    let share = offloaded(s).0;
    (cap.part_binds() == Some(CpuPart::Workers) && share < 1.0).then_some(share)
}

/// What the server finishes at `offered` rps past the limit of workers
/// that take only some of the requests ([`workers_bind_some`]), rps: the
/// workers finish their steps at their limit, and the requests whose step
/// stays on the loops finish as they arrive (150 rps with 61 % handed to
/// one worker whose limit is 110 rps: 126 finish, not 110). Only where
/// that is all there is to it: open arrivals at a steady rate with room
/// for all of them on the loops and the cores, no write step (the loops
/// would put new reads before old writes), no connection limit or
/// keep-alive (handed-over requests would hold the connections), no
/// retries and no dependency limit; `None` otherwise, or where the
/// workers keep up.
pub fn past_workers_finish_rps(s: &Scenario, cap: &Capacity, offered: f64) -> Option<f64> {
    let share = workers_bind_some(s, cap)?;
    let (_, worker_ms) = offloaded(s);
    let cpu_ms = cpu_ms_per_request(s);
    let loops = f64::from(s.cores).min(f64::from(s.loop_count()));
    let room = offered < cpu_limit_rps(loops, cpu_ms - worker_ms)
        && offered < cpu_limit_rps(s.usable_cores(), cpu_ms);
    let plain = matches!(s.arrivals, Arrivals::Poisson | Arrivals::Uniform)
        && s.rps_schedule.is_none()
        && s.write_ms == 0.0
        && s.max_connections.is_none()
        && s.conn_requests <= 1
        && s.retries == 0
        && cap.dep_limit_rps.is_none();
    (offered > cap.capacity_rps && room && plain)
        .then_some(share * cap.capacity_rps + (1.0 - share) * offered)
}

/// Mean CPU time one request costs, ms: its read, compute and write steps
/// ([`Scenario::mean_cpu_ms`]) plus what the engine adds — creating its
/// thread (`spawn_ms`, thread per request) or the loop's hand-off of a
/// step given to the workers (`handoff_ms` × the share handed over).
pub fn cpu_ms_per_request(s: &Scenario) -> f64 {
    let extra = match s.model {
        Model::ThreadPerRequest => s.spawn_ms,
        Model::EventLoopWorkers => offloaded(s).0 * s.handoff_ms,
        Model::ThreadPool | Model::EventLoop => 0.0,
    };
    s.mean_cpu_ms() + extra
}

/// About the most that context switches add to a request's CPU, as a share
/// of it (0.02 = up to 2 % more). A core pays `switch_us` each time it
/// runs another thread, loop or worker than it ran last ([`crate::engine`]'s
/// cores), at most once each time it takes one up: for each CPU step of a
/// request (its read, or the loop's hand-off and the worker's read and the
/// loop's step to take it back; its write when it has one) and each time
/// slice of them. None of theory's CPU figures count it: this says how far
/// they can be from a run. `part` is the CPU it is a share of: all of it,
/// or (event loop + workers) the loops' own steps or the workers', when
/// that part sets the CPU limit ([`Capacity::cpu_part`]). 0 where no core
/// ever runs another than last: one
/// event loop, or a pool that never outnumbers the cores and whose threads
/// never wait (a thread then frees its core and itself together, and the
/// next request takes both back, as each is kept on a stack); or no CPU
/// time. A thread per request pays it at least once a request, each thread
/// being new.
pub fn switch_share(s: &Scenario, part: CpuPart) -> f64 {
    let no_switches = match s.model {
        Model::ThreadPool => s.threads <= 1 || s.threads <= s.cores && s.wait_ms == 0.0,
        Model::EventLoop => s.loop_count() <= 1,
        Model::ThreadPerRequest | Model::EventLoopWorkers => false,
    };
    if no_switches || s.switch_us <= 0.0 {
        return 0.0;
    }
    // `steps` taken up per request for `cpu` ms of CPU, and each slice of it.
    let share = |steps: f64, cpu: f64| {
        if cpu > 0.0 {
            s.switch_us / 1000.0 * (steps + cpu / s.time_slice_ms) / cpu
        } else {
            0.0
        }
    };
    let write = if s.write_ms > 0.0 { 1.0 } else { 0.0 };
    let cpu = cpu_ms_per_request(s);
    if s.model != Model::EventLoopWorkers {
        return share(1.0 + write, cpu);
    }
    let (handed, worker_ms) = offloaded(s);
    let taken_back = if s.handoff_ms > 0.0 { handed } else { 0.0 };
    let loop_steps = 1.0 + taken_back + write;
    match part {
        CpuPart::Cores => share(loop_steps + handed, cpu),
        CpuPart::Loops => share(loop_steps, cpu - worker_ms),
        CpuPart::Workers => share(handed, worker_ms),
    }
}

/// Mean time one step holds an event loop, ms, for plain event loops: a
/// request's read (heavy or light) and its write are two steps (one when
/// it has no write). `None` for other models (with workers, which steps
/// stay on the loop depends on the hand-offs: the report measures it).
pub fn mean_loop_step_ms(s: &Scenario) -> Option<f64> {
    let steps = if s.write_ms > 0.0 { 2.0 } else { 1.0 };
    (s.model == Model::EventLoop).then(|| s.mean_cpu_ms() / steps)
}

/// Calls the dependency side can hold at once: its slots or the pool's
/// connections, whichever is fewer; `None` when neither is limited.
pub fn dep_slots(s: &Scenario) -> Option<u32> {
    match (s.dep_concurrency, s.dep_pool) {
        (Some(k), Some(n)) => Some(k.min(n)),
        (k, n) => k.or(n),
    }
}

/// Mean time one request holds its thread with capacity to spare, ms: its
/// CPU with the costs the engine adds ([`cpu_ms_per_request`]) and its
/// wait step ([`wait_step_ms`]: the slowest of its calls, or a hedged call).
pub fn thread_hold_ms(s: &Scenario) -> f64 {
    cpu_ms_per_request(s) + wait_step_ms(s)
}

/// Requests per second `threads` threads finish when every one of them is
/// busy and they share `cores` cores: the finite-source (machine-repairman,
/// M/M/c//N) model. A thread takes `cpu_ms` of CPU per request (waiting
/// for a core when all are taken) and `off_cpu_ms` off it; the formula
/// P ÷ T gives each thread its own core, so this is at most both it and
/// the CPU limit, cores ÷ CPU (equal to P ÷ T where the threads fit the
/// cores or never leave the CPU). Exact for exponential CPU times, with any shape of
/// the time off the CPU; close for constant CPU times with random waits
/// (the engine's 4 ms slices share the cores nearly evenly: 40 threads
/// below ran 366 rps); where both are constant the threads fall into step
/// and wait less (379 rps).
///
/// * `threads`, `cores` — counts.
/// * `cpu_ms`, `off_cpu_ms` — mean times per request, ms.
/// * returns — rps; `f64::INFINITY` with no time at all, 0 with no threads
///   or cores.
///
/// 40 threads of 10 ms CPU and 90 ms off it on 4 cores: about 365 rps,
/// where P ÷ T and the cores each give 400.
pub fn pool_on_cores_rps(threads: u32, cores: u32, cpu_ms: f64, off_cpu_ms: f64) -> f64 {
    let (n, c) = (f64::from(threads), f64::from(cores));
    if threads == 0 || cores == 0 {
        return 0.0;
    }
    if !(cpu_ms.is_finite() && off_cpu_ms.is_finite()) {
        return 0.0;
    }
    if cpu_ms <= 0.0 {
        return n / off_cpu_ms * 1000.0;
    }
    if off_cpu_ms <= 0.0 {
        return n.min(c) / cpu_ms * 1000.0;
    }
    // p(k), k threads at the cores, in proportion: p(k) / p(k − 1) =
    // (n − k + 1) / off_cpu_ms ÷ (min(k, c) / cpu_ms). The terms are
    // scaled down when large; once past the cores they only shrink.
    let (mut term, mut total, mut busy) = (1.0_f64, 1.0_f64, 0.0_f64);
    for k in 1..=threads {
        let kf = f64::from(k);
        term *= (n - kf + 1.0) * cpu_ms / (kf.min(c) * off_cpu_ms);
        total += term;
        busy += term * kf.min(c);
        if total > 1e250 {
            (term, total, busy) = (term * 1e-250, total * 1e-250, busy * 1e-250);
        }
        if kf > c && term < total * 1e-17 {
            break;
        }
    }
    busy / total / cpu_ms * 1000.0
}

/// The line of a pool of `threads` threads whose requests share `cores`
/// cores, with random (Poisson) arrivals at `rps`: a request waits for a
/// thread, then holds it for `cpu_ms` of CPU, the cores shared evenly
/// among the busy threads (processor sharing), and `off_cpu_ms` off them.
/// With k threads busy, the threads and the cores are a closed network
/// that finishes X(k) = [`pool_on_cores_rps`]`(k, …)` requests a second;
/// taken as one worker of that rate (its flow-equivalent: Chandy, Herzog
/// and Woo's theorem, exact for such a product-form network), the
/// requests inside are a birth–death process, λ up and X(min(n, threads))
/// down. Past the threads it is M/M/1's geometric tail.
///
/// * `rps` — arrival rate, requests a second.
/// * `threads`, `cores` — counts.
/// * `cpu_ms`, `off_cpu_ms` — mean times per request, ms: the shapes do
///   not matter with even sharing.
/// * returns — the mean response time, ms, and the mean busy threads;
///   `None` for nonsense, or when `rps` is at or above what all the
///   threads finish (`pool_on_cores_rps(threads, …)`): the line grows.
///
/// Each X(k) sums up to k terms, until X reaches what the cores finish
/// (cores ÷ CPU): past that it is that, so a big pool near its wall costs
/// one sum a request inside, not one a thread; callers still keep
/// `threads` to a few thousand.
///
/// The sale day's pool of 40 on 4 cores (10 ms CPU, 90 ms off it):
/// 128.0 ms at 340 rps, where runs of 600 s took 124.6 on average; the
/// threads finish at most 365 rps, so at 365 there is no answer.
pub fn pool_on_cores_line(
    rps: f64,
    threads: u32,
    cores: u32,
    cpu_ms: f64,
    off_cpu_ms: f64,
) -> Option<(f64, f64)> {
    let sane = rps > 0.0
        && rps.is_finite()
        && cpu_ms > 0.0
        && cpu_ms.is_finite()
        && off_cpu_ms >= 0.0
        && off_cpu_ms.is_finite();
    if !sane || threads == 0 || cores == 0 {
        return None;
    }
    let x = |k: u32| pool_on_cores_rps(k, cores, cpu_ms, off_cpu_ms);
    let full = x(threads);
    if rps >= full {
        return None;
    }
    // What the cores finish, which X(n) reaches from below.
    let cores_rps = f64::from(cores) / cpu_ms * 1000.0;
    // p(n) in proportion, scaled down when large: p(n) = p(n − 1) × λ ÷ X(n).
    // Up to the threads, everyone inside has a thread: busy = inside.
    let (mut p, mut total, mut inside) = (1.0_f64, 1.0_f64, 0.0_f64);
    let mut xn = 0.0;
    for n in 1..=threads {
        if xn < cores_rps * (1.0 - 1e-15) {
            xn = x(n);
        }
        p *= rps / xn;
        total += p;
        inside += f64::from(n) * p;
        if total > 1e250 {
            (p, total, inside) = (p * 1e-250, total * 1e-250, inside * 1e-250);
        }
        // X grows with n: once above λ the terms only shrink, and once
        // they are nothing the pool never fills.
        if xn > rps && p < total * 1e-17 {
            return Some((inside / total / rps * 1000.0, inside / total));
        }
    }
    // Every thread busy: n = threads + m with p(threads) r^m, r = λ ÷ X.
    let t = f64::from(threads);
    let r = rps / full;
    let tail = p * r / (1.0 - r);
    total += tail;
    let busy = inside + t * tail;
    inside += p * (t * r / (1.0 - r) + r / ((1.0 - r) * (1.0 - r)));
    Some((inside / total / rps * 1000.0, busy / total))
}

/// Slot time at the dependency per request, ms: each of its `fan_out`
/// calls holds a slot for its service time, and a hedge for its own (the
/// slower copy is not called back).
pub fn slot_ms_per_request(s: &Scenario) -> f64 {
    slot_ms_per_request_with(s, hedges_per_call(s))
}

/// Slot time at the dependency per request, ms, when hedging sends
/// `hedges` extra calls per call (0–1): each of its `fan_out` calls and
/// each hedge holds a slot for its service time. With the share hedging
/// sends with capacity to spare ([`hedges_per_call`]) this is
/// [`slot_ms_per_request`]; with the share a run measured, it is what the
/// run's calls really held.
pub fn slot_ms_per_request_with(s: &Scenario, hedges: f64) -> f64 {
    f64::from(s.fan_out) * s.wait_ms * (1.0 + hedges)
}

/// The dependency limit, rps, when hedging sends `hedges` extra calls per
/// call: the calls it can hold at once ([`dep_slots`]) ÷ the slot time
/// each request then needs ([`slot_ms_per_request_with`]); `None` without
/// a limit. With every call sent twice (`hedges` = 1), 160 slots and 100
/// calls of 10 ms a request give 160 ÷ 2,000 ms = 80 rps, not the
/// 160 ÷ 1,050 ms = 152 rps of 5 % sent again.
pub fn dep_limit_rps_with(s: &Scenario, hedges: f64) -> Option<f64> {
    dep_slots(s).map(|k| thread_limit_rps(f64::from(k), slot_ms_per_request_with(s, hedges)))
}

/// Extra calls hedging sends, as a share of calls, when the dependency is
/// overloaded: its line grows without end, so every call waits there past
/// the hedge delay and is sent again (1); 0 without hedging or without a
/// wait. (The share with capacity to spare is [`hedges_per_call`].)
pub fn hedges_per_call_overloaded(s: &Scenario) -> f64 {
    if s.hedge_after_ms.is_some() && s.wait_ms > 0.0 {
        1.0
    } else {
        0.0
    }
}

/// Extra calls hedging sends, as a share of calls, with capacity to spare
/// (no call waits in a line first): a call is hedged when it has not been
/// answered `hedge_after_ms` after it was sent. Random (exponential) calls
/// of mean W: e^(−h/W). Fixed calls: all of them when h < W, none when
/// h ≥ W. 0 without hedging or without a wait.
pub fn hedges_per_call(s: &Scenario) -> f64 {
    match s.hedge_after_ms {
        Some(h) if s.wait_ms > 0.0 => match s.wait_dist {
            crate::Dist::Exp => hedge_share(s.wait_ms, h),
            crate::Dist::Const if h < s.wait_ms => 1.0,
            crate::Dist::Const => 0.0,
        },
        _ => 0.0,
    }
}

/// Mean time of the wait step, ms, with capacity to spare: the slowest of
/// `fan_out` calls, each hedged where there is a hedge
/// ([`slowest_mean_ms`]; exponential waits; fixed waits take the wait
/// itself, as a copy sent later cannot answer sooner).
pub fn wait_step_ms(s: &Scenario) -> f64 {
    match s.wait_dist {
        crate::Dist::Const => s.wait_ms,
        crate::Dist::Exp => slowest_mean_ms(s.fan_out, s.wait_ms, s.hedge_after_ms),
    }
}

// ---------------------------------------------------------------------------
// M/M/1: one server, Poisson arrivals, exponential service
// ---------------------------------------------------------------------------

/// E_k/M/1: one of `k` servers that take random (Poisson) arrivals in
/// turn, so each gets every k-th, its gaps an Erlang-k time, and serves
/// random (exponential) times at utilisation `rho`. A request then waits
/// as in M/M/1 at a lower utilisation σ, the root in (0, 1) of
/// σ = (kρ ÷ (kρ + 1 − σ))^k (GI/M/1: its response time is exponential
/// with mean S ÷ (1 − σ), exactly). This returns σ: M/M/1's formulas at σ
/// are E_k/M/1's. σ = ρ for k = 1; four loops at ρ = 0.85: 0.768.
///
/// * `k` — servers taking arrivals in turn (at least 1).
/// * `rho` — each server's utilisation ρ, fraction; ρ itself where the
///   root is not in (0, 1) (ρ ≤ 0 or ρ ≥ 1).
pub fn dealt_in_turn_utilisation(k: u32, rho: f64) -> f64 {
    if k <= 1 || !(rho > 0.0 && rho < 1.0) {
        return rho;
    }
    let kr = f64::from(k) * rho;
    // Positive below the root, negative above it up to ρ: gaps more even
    // than random ones leave a line shorter than M/M/1's (σ < ρ).
    let f = |sigma: f64| (kr / (kr + 1.0 - sigma)).powi(k as i32) - sigma;
    crossing(&f, 0.0, 0.0, rho)
}

/// Mean response time (line + service) of M/M/1.
///
/// * `service_ms` — mean service time S, ms.
/// * `rho` — utilisation ρ, fraction.
/// * returns — `S / (1 − ρ)`, ms; `f64::INFINITY` for ρ ≥ 1 or bad input.
///
/// S = 10 ms: 20 ms at ρ = 0.5, 100 ms at 0.9, 1000 ms at 0.99.
pub fn mm1_response_ms(service_ms: f64, rho: f64) -> f64 {
    if !settles(service_ms, rho) {
        return f64::INFINITY;
    }
    service_ms / (1.0 - rho)
}

/// Mean time in line (before service starts) of M/M/1.
///
/// * `service_ms` — mean service time S, ms.
/// * `rho` — utilisation ρ, fraction.
/// * returns — `ρ S / (1 − ρ)`, ms; `f64::INFINITY` for ρ ≥ 1 or bad input.
pub fn mm1_wait_ms(service_ms: f64, rho: f64) -> f64 {
    if !settles(service_ms, rho) {
        return f64::INFINITY;
    }
    rho * service_ms / (1.0 - rho)
}

/// The `p` percentile of M/M/1 (first come, first served) response time.
///
/// The response time is exponential with mean `S / (1 − ρ)`, so the
/// p-quantile is `−ln(1 − p) × S / (1 − ρ)`: the p99 is ln 100 ≈ 4.6 × the mean.
///
/// * `service_ms` — mean service time S, ms.
/// * `rho` — utilisation ρ, fraction.
/// * `p` — probability, e.g. 0.99 (clamped to [0, 1]).
/// * returns — response time, ms; `f64::INFINITY` for ρ ≥ 1, bad input, `p ≥ 1`
///   or NaN `p`; 0 for `p ≤ 0`.
pub fn mm1_response_percentile_ms(service_ms: f64, rho: f64, p: f64) -> f64 {
    let mean = mm1_response_ms(service_ms, rho);
    if mean.is_infinite() || p.is_nan() || p >= 1.0 {
        return f64::INFINITY;
    }
    if p <= 0.0 {
        return 0.0;
    }
    -(-p).ln_1p() * mean
}

// ---------------------------------------------------------------------------
// M/M/c: c servers sharing one line (Erlang C)
// ---------------------------------------------------------------------------

/// Erlang C: the probability that an arriving request has to wait in line
/// when `c` servers share one line.
///
/// Computed with the stable Erlang B recursion
/// B(0) = 1, B(k) = a·B(k−1) / (k + a·B(k−1)), then C = B / (1 − ρ(1 − B)),
/// so it works for thousands of servers without overflow.
///
/// * `c` — servers (count).
/// * `a` — offered load λS, erlangs (busy servers needed); ρ = a / c.
/// * returns — probability in [0, 1]. 0 when `a ≤ 0`; 1 (everyone waits) when
///   ρ ≥ 1, `c == 0`, or `a` is NaN or infinite.
///
/// For one server it equals ρ.
pub fn erlang_c(c: u32, a: f64) -> f64 {
    if a.is_nan() || c == 0 || a >= f64::from(c) {
        return 1.0;
    }
    if a <= 0.0 {
        return 0.0;
    }
    let rho = a / f64::from(c);
    let b = erlang_b(c, a);
    (b / (1.0 - rho * (1.0 - b))).clamp(0.0, 1.0)
}

/// Erlang B: the probability that an arriving request finds all `c`
/// places taken in a system with no line (M/G/c/c), so it is refused. It
/// depends on the time each place is held only through its mean (the
/// formula is insensitive to the holding time's shape: constant 10 s
/// connections give the same as random ones).
///
/// * `c` — places (count), e.g. open connections allowed.
/// * `a` — offered load λ × mean holding time, erlangs.
/// * returns — probability in [0, 1]: 1 when `c == 0` or `a` is NaN or
///   infinite, 0 when `a ≤ 0`.
pub fn erlang_b(c: u32, a: f64) -> f64 {
    if a.is_nan() || a.is_infinite() || c == 0 {
        return 1.0;
    }
    if a <= 0.0 {
        return 0.0;
    }
    let mut b = 1.0;
    for k in 1..=c {
        b = a * b / (f64::from(k) + a * b);
    }
    b.clamp(0.0, 1.0)
}

/// Mean time in line of M/M/c.
///
/// * `c` — servers (count).
/// * `service_ms` — mean service time S of one request on one server, ms.
/// * `rho` — utilisation ρ of each server, fraction (offered load = cρ erlangs).
/// * returns — `C × S / (c (1 − ρ))` with C = [`erlang_c`], ms;
///   `f64::INFINITY` for ρ ≥ 1, `c == 0` or bad input.
pub fn mmc_wait_ms(c: u32, service_ms: f64, rho: f64) -> f64 {
    if c == 0 || !settles(service_ms, rho) {
        return f64::INFINITY;
    }
    let cf = f64::from(c);
    erlang_c(c, cf * rho) * service_ms / (cf * (1.0 - rho))
}

/// Mean response time (line + service) of M/M/c.
///
/// * `c` — servers (count).
/// * `service_ms` — mean service time S, ms.
/// * `rho` — utilisation ρ of each server, fraction.
/// * returns — [`mmc_wait_ms`] + S, ms; `f64::INFINITY` for ρ ≥ 1 or bad input.
///
/// Four servers at ρ = 0.9 with S = 10 ms: about 29.7 ms (one server: 100 ms).
pub fn mmc_response_ms(c: u32, service_ms: f64, rho: f64) -> f64 {
    plus_service(mmc_wait_ms(c, service_ms, rho), service_ms)
}

/// P(X + Y > t) for independent exponentials X, Y with rates `a`, `b` (per ms)
/// and `t` in ms.
///
/// Written as e^{−lo·t} (1 + lo·t·φ((hi − lo) t)), φ(x) = (1 − e^{−x}) / x,
/// which equals (b e^{−at} − a e^{−bt}) / (b − a) and tends smoothly to
/// (1 + at) e^{−at} when the rates are equal, with no cancellation in between.
fn sum_of_two_exp_survival(a: f64, b: f64, t: f64) -> f64 {
    let (lo, hi) = if a <= b { (a, b) } else { (b, a) };
    let x = (hi - lo) * t;
    let phi = if x == 0.0 { 1.0 } else { -(-x).exp_m1() / x };
    (-lo * t).exp() * (1.0 + lo * t * phi)
}

/// P(T > t) for the M/M/c FCFS response time T, `t` in ms.
///
/// The wait is 0 with probability 1 − C, else exponential with rate
/// θ = c μ (1 − ρ); service is exponential with rate μ = 1/S. So
/// P(T > t) = (1 − C) e^{−μt} + C P(W′ + B > t).
/// Needs `service_ms > 0`, `c ≥ 1`, 0 ≤ ρ < 1; `erlang` is C.
fn mmc_response_survival(c: u32, service_ms: f64, rho: f64, erlang: f64, t: f64) -> f64 {
    let mu = 1.0 / service_ms;
    let theta = f64::from(c) * mu * (1.0 - rho);
    (1.0 - erlang) * (-mu * t).exp() + erlang * sum_of_two_exp_survival(theta, mu, t)
}

/// The `t` at which a decreasing `survival(t)` (1 at t = 0) falls to `q`,
/// to a relative precision of 1e-9: bracketed by doubling from `start`
/// ([`bracket`]), then found by [`crossing`].
fn solve_survival(survival: &dyn Fn(f64) -> f64, q: f64, start: f64) -> f64 {
    let (lo, hi) = bracket(survival, q, start);
    refine_crossing(survival, q, lo, hi)
}

/// A bracket around where a decreasing `tail` (1 at t = 0) falls to `q`:
/// `start` doubled until `tail` is at most `q` there (at most 2,000
/// times), and the point before it (0 when `start` is already past
/// `q`), each as (t, tail(t) − q).
fn bracket(tail: &dyn Fn(f64) -> f64, q: f64, start: f64) -> ((f64, f64), (f64, f64)) {
    let mut lo = (0.0, 1.0 - q);
    let mut hi = (start, tail(start) - q);
    let mut doublings = 0;
    while hi.1 > 0.0 && doublings < 2_000 {
        lo = hi;
        let t = 2.0 * hi.0;
        hi = (t, tail(t) - q);
        doublings += 1;
    }
    (lo, hi)
}

/// The exact `p` percentile of M/M/c (first come, first served) response time
/// (line + service).
///
/// Uses the exact distribution: the wait W is 0 with probability 1 − C, else
/// exponential with rate θ = c μ (1 − ρ), where μ = 1/S; the service B is
/// exponential with rate μ. So P(T > t) = (1 − C) e^{−μt} + C P(W′ + B > t),
/// with P(W′ + B > t) = (θ e^{−μt} − μ e^{−θt}) / (θ − μ), or (1 + μt) e^{−μt}
/// when θ = μ (computed in a form with no cancellation near θ = μ).
/// Solves P(T > t) = 1 − p to a relative precision of 1e-9 (a bracket by
/// doubling, then the Illinois variant of regula falsi).
/// For `c = 1` it equals [`mm1_response_percentile_ms`].
///
/// * `c` — servers (count).
/// * `service_ms` — mean service time S, ms.
/// * `rho` — utilisation ρ of each server, fraction.
/// * `p` — probability, e.g. 0.99 (clamped to [0, 1]).
/// * returns — response time, ms; `f64::INFINITY` for ρ ≥ 1, `c == 0`, bad
///   input, `p ≥ 1` or NaN `p`; 0 for `p ≤ 0`.
pub fn mmc_response_percentile_ms(c: u32, service_ms: f64, rho: f64, p: f64) -> f64 {
    let mean = mmc_response_ms(c, service_ms, rho);
    if mean.is_infinite() || p.is_nan() || p >= 1.0 {
        return f64::INFINITY;
    }
    if p <= 0.0 || service_ms == 0.0 {
        return 0.0;
    }
    let erlang = erlang_c(c, f64::from(c) * rho);
    let survival = |t| mmc_response_survival(c, service_ms, rho, erlang, t);
    solve_survival(&survival, 1.0 - p, mean)
}

/// The exact `p` percentile of M/M/c (first come, first served) time in line.
///
/// P(W > t) = C e^{−θt} with θ = c (1 − ρ) / S, so the quantile is 0 when
/// 1 − p ≥ C (most requests never wait) and ln(C / (1 − p)) / θ otherwise.
///
/// * `c` — servers (count).
/// * `service_ms` — mean service time S, ms.
/// * `rho` — utilisation ρ of each server, fraction.
/// * `p` — probability, e.g. 0.99 (clamped to [0, 1]).
/// * returns — time in line, ms; `f64::INFINITY` for ρ ≥ 1, `c == 0`, bad
///   input, `p ≥ 1` or NaN `p`; 0 for `p ≤ 0`.
pub fn mmc_wait_percentile_ms(c: u32, service_ms: f64, rho: f64, p: f64) -> f64 {
    if c == 0 || !settles(service_ms, rho) || p.is_nan() || p >= 1.0 {
        return f64::INFINITY;
    }
    let erlang = erlang_c(c, f64::from(c) * rho);
    let q = 1.0 - p;
    if p <= 0.0 || q >= erlang || service_ms == 0.0 {
        return 0.0;
    }
    let theta = f64::from(c) * (1.0 - rho) / service_ms;
    (erlang / q).ln() / theta
}

/// One point of a response-time curve.
#[derive(Serialize, Debug, Clone, Copy, PartialEq)]
pub struct CurvePoint {
    /// Utilisation ρ of each server, fraction.
    pub rho: f64,
    /// Mean response time, ms (`f64::INFINITY`, serialized as `null`, for ρ ≥ 1).
    pub mean_ms: f64,
    /// Exact 99th percentile of the response time, ms (`f64::INFINITY` for ρ ≥ 1).
    pub p99_ms: f64,
}

/// Mean and exact p99 response time of M/M/c at each utilisation.
///
/// * `c` — servers sharing one line (count); 1 gives M/M/1.
/// * `service_ms` — mean service time S, ms.
/// * `rhos` — utilisations ρ to evaluate, fractions.
/// * returns — one [`CurvePoint`] per `rhos` entry, in the same order (ms).
pub fn mmc_curve(c: u32, service_ms: f64, rhos: &[f64]) -> Vec<CurvePoint> {
    rhos.iter()
        .map(|&rho| CurvePoint {
            rho,
            mean_ms: mmc_response_ms(c, service_ms, rho),
            p99_ms: mmc_response_percentile_ms(c, service_ms, rho, 0.99),
        })
        .collect()
}

// ---------------------------------------------------------------------------
// M/G/1 and M/D/1 (Pollaczek–Khinchine)
// ---------------------------------------------------------------------------

/// The squared coefficient of variation (variance / mean²) of a distribution.
///
/// * `dist` — the shape.
/// * returns — 0 for [`Dist::Const`], 1 for [`Dist::Exp`] (no unit).
pub fn scv(dist: Dist) -> f64 {
    match dist {
        Dist::Const => 0.0,
        Dist::Exp => 1.0,
    }
}

/// Mean time in line of M/G/1 (Pollaczek–Khinchine).
///
/// * `service_ms` — mean service time S, ms.
/// * `scv` — squared coefficient of variation of the service time
///   (0 constant, 1 exponential; see [`scv`]).
/// * `rho` — utilisation ρ, fraction.
/// * returns — `ρ S (1 + scv) / (2 (1 − ρ))`, ms; `f64::INFINITY` for ρ ≥ 1 or
///   bad input (including a negative, NaN or infinite `scv`).
pub fn mg1_wait_ms(service_ms: f64, scv: f64, rho: f64) -> f64 {
    if !settles(service_ms, rho) || !scv.is_finite() || scv < 0.0 {
        return f64::INFINITY;
    }
    rho * service_ms * (1.0 + scv) / (2.0 * (1.0 - rho))
}

/// Mean response time (line + service) of M/G/1.
///
/// * `service_ms` — mean service time S, ms.
/// * `scv` — squared coefficient of variation of the service time.
/// * `rho` — utilisation ρ, fraction.
/// * returns — [`mg1_wait_ms`] + S, ms; `f64::INFINITY` for ρ ≥ 1 or bad input.
pub fn mg1_response_ms(service_ms: f64, scv: f64, rho: f64) -> f64 {
    plus_service(mg1_wait_ms(service_ms, scv, rho), service_ms)
}

/// Mean time in line of M/D/1 (constant service): half the M/M/1 wait.
///
/// * `service_ms` — service time S (the same for every request), ms.
/// * `rho` — utilisation ρ, fraction.
/// * returns — `ρ S / (2 (1 − ρ))`, ms; `f64::INFINITY` for ρ ≥ 1 or bad input.
pub fn md1_wait_ms(service_ms: f64, rho: f64) -> f64 {
    mg1_wait_ms(service_ms, 0.0, rho)
}

/// Mean response time (line + service) of M/D/1.
///
/// * `service_ms` — service time S, ms.
/// * `rho` — utilisation ρ, fraction.
/// * returns — [`md1_wait_ms`] + S, ms; `f64::INFINITY` for ρ ≥ 1 or bad input.
pub fn md1_response_ms(service_ms: f64, rho: f64) -> f64 {
    plus_service(md1_wait_ms(service_ms, rho), service_ms)
}

/// P(a sum of independent exponential times with these `rates` > `t`).
/// Rates that (nearly) coincide are nudged apart, which changes the answer
/// by far less than a pixel.
fn hypoexp_tail(rates: &[f64], t: f64) -> f64 {
    let mut r: Vec<f64> = rates.to_vec();
    for i in 1..r.len() {
        while r[..i].iter().any(|&q| ((q - r[i]) / q).abs() < 1e-3) {
            r[i] *= 1.003;
        }
    }
    let mut p = 0.0;
    for (i, &ri) in r.iter().enumerate() {
        let coef: f64 = r
            .iter()
            .enumerate()
            .filter(|(j, _)| *j != i)
            .map(|(_, &rj)| rj / (rj - ri))
            .product();
        p += coef * (-ri * t).exp();
    }
    p.clamp(0.0, 1.0)
}

/// The p99 response time, ms, of `c` cores shared in one line (M/M/c with
/// mean CPU `svc` ms at utilisation `rho`) followed by a random wait off
/// the CPU with mean `wait_ms` (exponential): the time in line, the CPU
/// and the wait are added as the independent random times they are,
/// rather than taking the wait as fixed. Exact for exponential CPU times
/// (solved to a relative precision of 1e-9). With no CPU time it is the
/// wait's own p99, `wait_ms` × ln 100.
pub fn mmc_then_wait_p99_ms(c: u32, svc: f64, rho: f64, wait_ms: f64) -> f64 {
    if wait_ms > 0.0 && svc == 0.0 {
        return wait_ms * 100f64.ln();
    }
    if !((0.0..1.0).contains(&rho) && svc > 0.0 && wait_ms > 0.0) {
        return mmc_response_percentile_ms(c, svc, rho, 0.99) + wait_ms;
    }
    let mu = 1.0 / svc;
    let theta = c as f64 * mu * (1.0 - rho);
    let nu = 1.0 / wait_ms;
    let waits = erlang_c(c, c as f64 * rho);
    let tail = |t: f64| {
        (1.0 - waits) * hypoexp_tail(&[mu, nu], t) + waits * hypoexp_tail(&[mu, theta, nu], t)
    };
    solve_survival(&tail, 0.01, svc + wait_ms)
}

// ---------------------------------------------------------------------------
// Beyond one box: fan-out, hedging
// ---------------------------------------------------------------------------

/// The n-th harmonic number, 1 + 1/2 + … + 1/n (0 for n = 0).
pub fn harmonic(n: u32) -> f64 {
    (1..=n).map(|k| 1.0 / f64::from(k)).sum()
}

/// Mean time, ms, until all of `n` calls have answered when each takes an
/// exponential time of mean `mean_ms`: the slowest of n, mean × H_n.
///
/// 10 calls of 10 ms: 29.3 ms; 100 calls: 51.9 ms.
pub fn fanout_mean_ms(n: u32, mean_ms: f64) -> f64 {
    mean_ms * harmonic(n)
}

/// The `p`-quantile, ms, of the slowest of `n` exponential calls of mean
/// `mean_ms`: F⁻¹(p^(1/n)) = −mean × ln(1 − p^(1/n)).
///
/// The p99 of one 10 ms call is 46.1 ms; of the slowest of 10, 69.0 ms.
pub fn fanout_quantile_ms(n: u32, mean_ms: f64, p: f64) -> f64 {
    if !(0.0..1.0).contains(&p) || n == 0 {
        return f64::NAN;
    }
    -mean_ms * (1.0 - p.powf(1.0 / f64::from(n))).ln()
}

/// The share, 0–1, of requests that make `n` calls and meet at least one
/// slower than a call's own p99: 1 − 0.99^n (63 % at n = 100).
pub fn share_meeting_a_slow_call(n: u32) -> f64 {
    1.0 - 0.99f64.powi(n as i32)
}

/// Mean time, ms, of one exponential call of mean `mean_ms` hedged after
/// `hedge_ms` (a second copy sent then; the first answer wins), with
/// capacity to spare: mean (1 − e^(−h/mean)) + e^(−h/mean) × mean / 2.
///
/// 10 ms hedged after 10 ms: 8.16 ms.
pub fn hedged_mean_ms(mean_ms: f64, hedge_ms: f64) -> f64 {
    let late = (-hedge_ms / mean_ms).exp();
    mean_ms * (1.0 - late) + late * mean_ms / 2.0
}

/// Extra calls, as a share of calls, that hedging after `hedge_ms` sends:
/// the share still unanswered then, e^(−h/mean).
pub fn hedge_share(mean_ms: f64, hedge_ms: f64) -> f64 {
    (-hedge_ms / mean_ms).exp()
}

/// P(one call takes longer than `t` ms): an exponential call of mean
/// `mean_ms`, hedged after `hedge_ms` when there is a hedge. A hedged call
/// is answered by the first of its two copies, T = min(X₁, h + X₂) for
/// independent X₁, X₂, so P(T > t) = e^(−t/W) before h and
/// e^(−t/W) · e^(−(t−h)/W) from h on. 1 for t ≤ 0; 0 for a call of no
/// time (or a mean that is not a positive number).
pub fn call_survival(mean_ms: f64, hedge_ms: Option<f64>, t: f64) -> f64 {
    if t.is_nan() || t <= 0.0 {
        return 1.0;
    }
    if mean_ms.is_nan() || mean_ms <= 0.0 {
        return 0.0;
    }
    let late = match hedge_ms {
        Some(h) if t > h.max(0.0) => t - h.max(0.0),
        _ => 0.0,
    };
    (-(t + late) / mean_ms).exp()
}

/// P(the slowest of `n` independent calls takes longer than `t` ms), each
/// as [`call_survival`]: 1 − (1 − P(T > t))ⁿ, computed without
/// cancellation. 0 for no calls (and t ≥ 0).
pub fn slowest_survival(n: u32, mean_ms: f64, hedge_ms: Option<f64>, t: f64) -> f64 {
    if t.is_nan() || t < 0.0 {
        return 1.0;
    }
    if n == 0 {
        return 0.0;
    }
    let q = call_survival(mean_ms, hedge_ms, t);
    if q >= 1.0 {
        return 1.0;
    }
    -(f64::from(n) * (-q).ln_1p()).exp_m1()
}

/// The `p`-quantile, ms, of the slowest of `n` exponential calls of mean
/// `mean_ms`, each hedged after `hedge_ms` when there is a hedge (the
/// first copy to answer wins; no line at the dependency). Exact, in closed
/// form: each call must exceed it with probability q = 1 − p^(1/n), so it
/// is −W ln q when that is before the hedge, else (h − W ln q) / 2.
/// Without a hedge it is [`fanout_quantile_ms`].
///
/// 100 calls of 10 ms hedged after 30 ms: p99 61.0 ms (92.1 ms unhedged).
///
/// * returns — ms; 0 for `p ≤ 0`, no calls or calls of no time;
///   `f64::INFINITY` for `p ≥ 1` or NaN `p`.
pub fn slowest_quantile_ms(n: u32, mean_ms: f64, hedge_ms: Option<f64>, p: f64) -> f64 {
    if p.is_nan() || p >= 1.0 {
        return f64::INFINITY;
    }
    if p <= 0.0 || n == 0 || mean_ms.is_nan() || mean_ms <= 0.0 {
        return 0.0;
    }
    // q = 1 − p^(1/n), without cancellation for large n.
    let q = -(p.ln() / f64::from(n)).exp_m1();
    let t = -mean_ms * q.ln();
    match hedge_ms {
        Some(h) if t > h.max(0.0) => (h.max(0.0) + t) / 2.0,
        _ => t,
    }
}

/// Composite Simpson's rule for ∫ₐᵇ f with `panels` (even) panels.
fn simpson(f: &dyn Fn(f64) -> f64, a: f64, b: f64, panels: u32) -> f64 {
    if b <= a {
        return 0.0;
    }
    let step = (b - a) / f64::from(panels);
    let mut sum = f(a) + f(b);
    for i in 1..panels {
        let w = if i % 2 == 1 { 4.0 } else { 2.0 };
        sum += w * f(a + f64::from(i) * step);
    }
    sum * step / 3.0
}

/// Mean, ms, and second moment, ms², of the slowest of `n` exponential
/// calls of mean `mean_ms`, each hedged after `hedge_ms` when there is a
/// hedge (see [`call_survival`]): E\[D\] = ∫ P(D > t) dt and
/// E\[D²\] = ∫ 2t P(D > t) dt, by Simpson's rule on either side of the hedge
/// (the survival has a kink there) up to where n · P(T > t) < 10⁻¹⁸.
/// Relative error under 10⁻⁸ (checked against W × H(n) and the hedged
/// one-call mean, both in closed form).
///
/// Remembered for the last [`MOMENTS_KEPT`] calls' settings: each costs
/// 16,000 survival evaluations, and theory asks for the same calls several
/// times a scenario (the capacity, the time a thread is held, the wait
/// step) and again at every change that leaves the calls alone, such as a
/// step of the rate slider. Recomputed, it took about 170 ms of each such
/// step in the browser with the CPU slowed 4× (a fan-out of 3 calls hedged
/// after 50 ms: 1.0 s of six steps, profiled).
pub fn slowest_moments_ms(n: u32, mean_ms: f64, hedge_ms: Option<f64>) -> (f64, f64) {
    type Key = (u32, u64, Option<u64>);
    thread_local! {
        static KEPT: std::cell::RefCell<Vec<(Key, (f64, f64))>> = const { std::cell::RefCell::new(Vec::new()) };
    }
    let key = (n, mean_ms.to_bits(), hedge_ms.map(f64::to_bits));
    if let Some(m) = KEPT.with_borrow(|kept| kept.iter().find(|(k, _)| *k == key).map(|(_, m)| *m))
    {
        return m;
    }
    let m = slowest_moments_ms_computed(n, mean_ms, hedge_ms);
    KEPT.with_borrow_mut(|kept| {
        kept.insert(0, (key, m));
        kept.truncate(MOMENTS_KEPT);
    });
    m
}

/// How many calls' settings [`slowest_moments_ms`] remembers: enough for a
/// scenario, its curve's points and a lesson's few figures.
const MOMENTS_KEPT: usize = 8;

/// [`slowest_moments_ms`], computed.
fn slowest_moments_ms_computed(n: u32, mean_ms: f64, hedge_ms: Option<f64>) -> (f64, f64) {
    if n == 0 || mean_ms.is_nan() || mean_ms <= 0.0 || mean_ms.is_infinite() {
        return if n > 0 && mean_ms.is_infinite() {
            (f64::INFINITY, f64::INFINITY)
        } else {
            (0.0, 0.0)
        };
    }
    let w = mean_ms;
    let h = hedge_ms.map(|h| h.max(0.0));
    // Where every call is done but for 1e-18: −W ln(1e-18 / n), halved
    // past the hedge as the survival falls twice as fast there.
    let far = -w * (1e-18 / f64::from(n)).ln();
    let end = match h {
        Some(h) if far > h => (h + far) / 2.0,
        _ => far,
    };
    let split = h.filter(|h| *h < end).unwrap_or(end);
    let sf = |t: f64| slowest_survival(n, w, hedge_ms, t);
    let panels = 4_000;
    let m1 = simpson(&sf, 0.0, split, panels) + simpson(&sf, split, end, panels);
    let twice_t = |t: f64| 2.0 * t * sf(t);
    let m2 = simpson(&twice_t, 0.0, split, panels) + simpson(&twice_t, split, end, panels);
    (m1, m2)
}

/// Mean time, ms, of the slowest of `n` exponential calls of mean
/// `mean_ms`, each hedged after `hedge_ms` when there is a hedge, with
/// capacity to spare ([`slowest_moments_ms`]). Without a hedge it is
/// W × H(n) ([`fanout_mean_ms`]); one hedged call, [`hedged_mean_ms`].
///
/// 100 calls of 10 ms hedged after 30 ms: 40.9 ms (51.9 ms unhedged).
pub fn slowest_mean_ms(n: u32, mean_ms: f64, hedge_ms: Option<f64>) -> f64 {
    if n == 0 || mean_ms.is_nan() || mean_ms <= 0.0 {
        return 0.0;
    }
    match (n, hedge_ms) {
        (_, None) => fanout_mean_ms(n, mean_ms),
        (1, Some(h)) => hedged_mean_ms(mean_ms, h),
        _ => slowest_moments_ms(n, mean_ms, hedge_ms).0,
    }
}

// ---------------------------------------------------------------------------
// The tail of a line whose service is a mix (numerical inversion)
// ---------------------------------------------------------------------------

/// A complex number, for Laplace transforms.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Cx {
    pub(crate) re: f64,
    im: f64,
}

impl Cx {
    pub(crate) const ONE: Cx = Cx { re: 1.0, im: 0.0 };

    pub(crate) fn new(re: f64, im: f64) -> Cx {
        Cx { re, im }
    }

    pub(crate) fn scale(self, k: f64) -> Cx {
        Cx::new(self.re * k, self.im * k)
    }

    pub(crate) fn exp(self) -> Cx {
        let m = self.re.exp();
        Cx::new(m * self.im.cos(), m * self.im.sin())
    }
}

impl std::ops::Add for Cx {
    type Output = Cx;
    fn add(self, o: Cx) -> Cx {
        Cx::new(self.re + o.re, self.im + o.im)
    }
}

impl std::ops::Sub for Cx {
    type Output = Cx;
    fn sub(self, o: Cx) -> Cx {
        Cx::new(self.re - o.re, self.im - o.im)
    }
}

impl std::ops::Mul for Cx {
    type Output = Cx;
    fn mul(self, o: Cx) -> Cx {
        Cx::new(
            self.re * o.re - self.im * o.im,
            self.re * o.im + self.im * o.re,
        )
    }
}

impl std::ops::Div for Cx {
    type Output = Cx;
    fn div(self, o: Cx) -> Cx {
        // Smith's algorithm: no overflow for large parts.
        if o.re.abs() >= o.im.abs() {
            let r = o.im / o.re;
            let d = o.re + o.im * r;
            Cx::new((self.re + self.im * r) / d, (self.im - self.re * r) / d)
        } else {
            let r = o.re / o.im;
            let d = o.re * r + o.im;
            Cx::new((self.re * r + self.im) / d, (self.im * r - self.re) / d)
        }
    }
}

/// P(X > t) for a time X ≥ 0 from its Laplace–Stieltjes transform `lst`,
/// by the Euler algorithm of Abate and Whitt ("Numerical inversion of
/// Laplace transforms of probability distributions", 1995): the Bromwich
/// integral of (1 − lst(s)) / s by the trapezoidal rule, whose
/// discretisation error is about e^(−18.4) ≈ 10⁻⁸, and its alternating
/// tail summed by Euler's binomial averaging (15 + 11 terms). Accurate to
/// about 10⁻⁷ where the distribution is smooth; it would ring at a jump,
/// so callers shift fixed times out of the transform
/// ([`ShapedLine::survival_then`]), and it converges more slowly near a
/// kink (M/D/1's wait at multiples of D: errors of about 10⁻⁴ there).
/// Clamped to [0, 1]; 1 for t ≤ 0.
fn survival_by_inversion(lst: &dyn Fn(Cx) -> Cx, t: f64) -> f64 {
    const A: f64 = 18.4;
    const N: usize = 15;
    const M: usize = 11;
    if t.is_nan() || t <= 0.0 {
        return 1.0;
    }
    let f = |s: Cx| (Cx::ONE - lst(s)) / s;
    let lead = (A / 2.0).exp() / t;
    let mut sum = 0.5 * f(Cx::new(A / (2.0 * t), 0.0)).re;
    let mut partial = [0.0; N + M + 1];
    partial[0] = lead * sum;
    let mut sign = 1.0;
    for (k, slot) in partial.iter_mut().enumerate().skip(1) {
        sign = -sign;
        let s = Cx::new(A, 2.0 * std::f64::consts::PI * k as f64).scale(0.5 / t);
        sum += sign * f(s).re;
        *slot = lead * sum;
    }
    // Euler: the binomial average of the partial sums N..N+M.
    let mut weight = 1.0; // C(M, k)
    let mut total = 0.0;
    for k in 0..=M {
        total += weight * partial[N + k];
        weight = weight * (M - k) as f64 / (k + 1) as f64;
    }
    (total / f64::from(1u32 << M)).clamp(0.0, 1.0)
}

/// One part of a time: its mean, ms, and its shape (exponential around
/// the mean, or always the mean).
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Part {
    /// Mean, ms.
    pub mean_ms: f64,
    /// Exponential or fixed.
    pub dist: Dist,
}

impl Part {
    /// E[e^(−sX)].
    fn lst(self, s: Cx) -> Cx {
        match self.dist {
            Dist::Const => s.scale(-self.mean_ms).exp(),
            Dist::Exp => Cx::ONE / (Cx::ONE + s.scale(self.mean_ms)),
        }
    }
}

/// The shape of a service time, for its tail: one class picked at random
/// by its share (the light and the heavy requests), then parts every
/// request adds (a write step, a fixed cost, a wait).
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Shape {
    /// (share 0–1, part) for each class; the shares add up to 1.
    pub classes: Vec<(f64, Part)>,
    /// Parts every request adds, one after another.
    pub then: Vec<Part>,
}

impl Shape {
    /// Mean service time, ms.
    pub fn mean_ms(&self) -> f64 {
        self.classes
            .iter()
            .map(|(p, c)| p * c.mean_ms)
            .chain(self.then.iter().map(|c| c.mean_ms))
            .sum()
    }

    fn lst(&self, s: Cx) -> Cx {
        let mix = self
            .classes
            .iter()
            .fold(Cx::new(0.0, 0.0), |acc, (p, c)| acc + c.lst(s).scale(*p));
        self.then.iter().fold(mix, |acc, c| acc * c.lst(s))
    }
}

/// What every request adds after the line (the wait off the CPU when the
/// cores are the line): a fixed time, then the slowest of `calls` random
/// (exponential) calls made at once, each hedged after `hedge_after_ms`
/// when there is a hedge.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct Delay {
    /// A fixed time every request adds, ms.
    pub fixed_ms: f64,
    /// Random calls made at once (0: none); the request waits for the slowest.
    pub calls: u32,
    /// Mean of one call, ms.
    pub call_mean_ms: f64,
    /// A call still out after this long, ms, is sent again; the first answer wins.
    pub hedge_after_ms: Option<f64>,
}

impl Delay {
    /// True when there are random calls to wait for.
    fn has_calls(&self) -> bool {
        self.calls > 0 && self.call_mean_ms > 0.0
    }

    /// P(the slowest of the calls > t).
    fn calls_survival(&self, t: f64) -> f64 {
        slowest_survival(self.calls, self.call_mean_ms, self.hedge_after_ms, t)
    }

    /// E[e^(−sD)] of the slowest of the calls, where it has a closed form:
    /// unhedged, a sum of exponentials of means W/n … W/1 (the gaps
    /// between successive answers), Π k / (k + sW); one hedged call,
    /// (1 − E) / (1 + sW) + 2E / (2 + sW) with E = e^(−h (s + 1/W)).
    /// `None` for several hedged calls.
    fn calls_lst(&self, s: Cx) -> Option<Cx> {
        let w = self.call_mean_ms;
        let sw = s.scale(w);
        match (self.calls, self.hedge_after_ms) {
            (n, None) => Some((1..=n).fold(Cx::ONE, |acc, k| {
                let k = Cx::new(f64::from(k), 0.0);
                acc * (k / (k + sw))
            })),
            (1, Some(h)) => {
                let h = h.max(0.0);
                let e = (s + Cx::new(1.0 / w, 0.0)).scale(-h).exp();
                Some((Cx::ONE - e) / (Cx::ONE + sw) + e.scale(2.0) / (Cx::new(2.0, 0.0) + sw))
            }
            _ => None,
        }
    }
}

/// The line's response time R (wait + service) for a service of `shape`
/// on `c` servers at ρ, through Laplace transforms.
///
/// One server: Pollaczek–Khinchine, W*(s) = (1 − ρ) s / (s − λ (1 − B*(s))),
/// exact for M/G/1 first come, first served. More servers: the M/G/1 wait
/// of one server c times as fast at the same ρ, conditioned on waiting
/// and scaled to Erlang C's chance of waiting — exact for exponential
/// service (it is then M/M/c's wait), and with the Allen–Cunneen mean
/// wait, an approximation otherwise.
///
/// The request's own service is added class by class: its random parts
/// through the transform, its fixed parts as a shift, so no jump (a
/// fixed time) is ever inverted: P(R > t) = Σ share · P(W + random parts
/// > t − fixed parts).
struct ShapedLine<'a> {
    c: f64,
    shape: &'a Shape,
    rho: f64,
    lambda: f64,
    erlang: f64,
    /// Each class that has a share, as the tail adds it: (share, its fixed
    /// parts' sum in ms, its random parts), the added parts included.
    classes: Vec<(f64, f64, Vec<Part>)>,
}

impl<'a> ShapedLine<'a> {
    /// `None` unless 0 ≤ ρ < 1, c ≥ 1 and the mean service is positive and finite.
    fn new(c: u32, shape: &'a Shape, rho: f64) -> Option<Self> {
        let mean = shape.mean_ms();
        if c == 0 || !settles(mean, rho) || mean == 0.0 {
            return None;
        }
        let cf = f64::from(c);
        let shift_then: f64 = shape
            .then
            .iter()
            .filter(|p| p.dist == Dist::Const)
            .map(|p| p.mean_ms)
            .sum();
        let random_then: Vec<Part> = shape
            .then
            .iter()
            .copied()
            .filter(|p| p.dist == Dist::Exp && p.mean_ms > 0.0)
            .collect();
        let classes = shape
            .classes
            .iter()
            .filter(|(share, _)| *share > 0.0)
            .map(|&(share, class)| {
                let mut random = random_then.clone();
                let mut shift = shift_then;
                match class.dist {
                    Dist::Const => shift += class.mean_ms,
                    Dist::Exp if class.mean_ms > 0.0 => random.push(class),
                    Dist::Exp => {}
                }
                (share, shift, random)
            })
            .collect();
        Some(ShapedLine {
            c: cf,
            shape,
            rho,
            lambda: rho * cf / mean,
            erlang: erlang_c(c, cf * rho),
            classes,
        })
    }

    /// E[e^(−sW)] of the wait in line.
    fn wait_lst(&self, s: Cx) -> Cx {
        if self.rho == 0.0 || self.erlang == 0.0 {
            return Cx::ONE;
        }
        let faster = self.shape.lst(s.scale(1.0 / self.c));
        let one = (s.scale(1.0 - self.rho)) / (s - (Cx::ONE - faster).scale(self.lambda));
        Cx::new(1.0 - self.erlang, 0.0)
            + (one - Cx::new(1.0 - self.rho, 0.0)).scale(self.erlang / self.rho)
    }

    fn survival(&self, t: f64) -> f64 {
        self.survival_then(t, &|_| Cx::ONE)
    }

    /// P(R + X > t) for a time X after the line, independent of it, with
    /// transform `after` (smooth: random parts only).
    fn survival_then(&self, t: f64, after: &dyn Fn(Cx) -> Cx) -> f64 {
        self.classes
            .iter()
            .map(|(share, shift, random)| {
                let lst = |s: Cx| {
                    random
                        .iter()
                        .fold(self.wait_lst(s) * after(s), |acc, p| acc * p.lst(s))
                };
                share * survival_by_inversion(&lst, t - shift)
            })
            .sum::<f64>()
            .clamp(0.0, 1.0)
    }

    /// Mean response, ms (wait with the Allen–Cunneen correction, exact
    /// for one server): where the search for a quantile starts.
    fn mean_ms(&self) -> f64 {
        let mean = self.shape.mean_ms();
        let ex2: f64 = {
            // E[X²] of the mix, then the added parts.
            let m2 = |c: &Part| match c.dist {
                Dist::Const => c.mean_ms * c.mean_ms,
                Dist::Exp => 2.0 * c.mean_ms * c.mean_ms,
            };
            let mix_mean: f64 = self.shape.classes.iter().map(|(p, c)| p * c.mean_ms).sum();
            let mix_m2: f64 = self.shape.classes.iter().map(|(p, c)| p * m2(c)).sum();
            let mut var = mix_m2 - mix_mean * mix_mean;
            for c in &self.shape.then {
                var += m2(c) - c.mean_ms * c.mean_ms;
            }
            var.max(0.0) + mean * mean
        };
        let scv = ex2 / (mean * mean) - 1.0;
        mmc_wait_ms(self.c as u32, mean, self.rho) * (1.0 + scv) / 2.0 + mean
    }
}

/// The 99th percentile, ms, of a line's response time R (with survival
/// `line`, mean `line_mean`) followed by the delay's random calls D and
/// its fixed time: P(R + D > t) = Σ P(R ∈ cell) · P(D > t − midpoint)
/// over 1,000 cells up to where P(R > r) < 10⁻⁷ (the mass beyond is
/// counted as late), solved for 1 % by [`crossing`] between the calls' own
/// p99 and that plus the end of the cells.
fn p99_line_then_calls(line: &dyn Fn(f64) -> f64, line_mean: f64, d: &Delay) -> f64 {
    const CELLS: usize = 1_000;
    let calls_p99 = slowest_quantile_ms(d.calls, d.call_mean_ms, d.hedge_after_ms, 0.99);
    let (_, (end, _)) = bracket(line, 1e-7, line_mean.max(1e-9));
    let step = end / CELLS as f64;
    let mut cells = Vec::with_capacity(CELLS);
    let mut before = 1.0;
    for i in 1..=CELLS {
        let after = line(step * i as f64);
        cells.push((before - after, step * (i as f64 - 0.5)));
        before = after;
    }
    let beyond = before;
    let tail = |t: f64| -> f64 {
        beyond
            + cells
                .iter()
                .map(|(mass, mid)| mass * d.calls_survival(t - mid))
                .sum::<f64>()
    };
    let mut hi = calls_p99 + end;
    let mut widen = 0;
    while tail(hi) > 0.01 && widen < 200 {
        hi += end;
        widen += 1;
    }
    crossing(&tail, 0.01, calls_p99, hi) + d.fixed_ms
}

/// The `p` percentile, ms, of a line's time (its transform `line_lst`,
/// mean `line_mean_ms`) followed by the delay `d`: its random calls'
/// transform multiplied in, inverted ([`survival_by_inversion`]), and its
/// fixed time added. `None` where the calls have no closed-form transform
/// (several hedged calls).
pub(crate) fn line_then_delay_percentile_ms(
    line_lst: impl Fn(Cx) -> Cx,
    line_mean_ms: f64,
    d: &Delay,
    p: f64,
) -> Option<f64> {
    let calls = |s: Cx| {
        if d.has_calls() {
            d.calls_lst(s)
        } else {
            Some(Cx::ONE)
        }
    };
    calls(Cx::ONE)?;
    let lst = |s: Cx| line_lst(s) * calls(s).unwrap_or(Cx::ONE);
    let start = line_mean_ms.max(1e-9);
    Some(solve_survival(&|t| survival_by_inversion(&lst, t), 1.0 - p, start) + d.fixed_ms)
}

/// Where a decreasing `tail` falls to `q` between `lo` (tail ≥ q) and
/// `hi` (tail ≤ q), by the Illinois variant of regula falsi (a handful of
/// evaluations for a smooth tail, where bisection needs thirty), to a
/// relative precision of 1e-9. The one root finder here: a percentile
/// search brackets its root first ([`solve_survival`]).
fn crossing(tail: &dyn Fn(f64) -> f64, q: f64, lo: f64, hi: f64) -> f64 {
    let (f_lo, f_hi) = (tail(lo) - q, tail(hi) - q);
    refine_crossing(tail, q, (lo, f_lo), (hi, f_hi))
}

/// [`crossing`], with tail − q already known at both ends of the bracket:
/// `lo` and `hi` are (t, tail(t) − q). Returns `lo`'s t when tail ≤ q
/// there already, `hi`'s when tail ≥ q there still.
fn refine_crossing(
    tail: &dyn Fn(f64) -> f64,
    q: f64,
    (mut lo, mut f_lo): (f64, f64),
    (mut hi, mut f_hi): (f64, f64),
) -> f64 {
    if f_lo.is_nan() || f_hi.is_nan() {
        return f64::INFINITY;
    }
    if f_lo <= 0.0 {
        return lo;
    }
    if f_hi >= 0.0 {
        return hi;
    }
    // The last point evaluated: none yet, so a first guess (at the
    // midpoint for a symmetric bracket) is never taken as settled.
    let mut t = f64::NAN;
    let mut kept = 0; // 1: lo moved last, −1: hi moved last
    for _ in 0..100 {
        let guess = lo + f_lo * (hi - lo) / (f_lo - f_hi);
        let next = if guess > lo && guess < hi {
            guess
        } else {
            0.5 * (lo + hi)
        };
        let settled = (next - t).abs() <= 1e-9 * next.abs();
        t = next;
        let f = tail(t) - q;
        if f > 0.0 {
            (lo, f_lo) = (t, f);
            if kept == 1 {
                f_hi *= 0.5;
            }
            kept = 1;
        } else if f < 0.0 {
            (hi, f_hi) = (t, f);
            if kept == -1 {
                f_lo *= 0.5;
            }
            kept = -1;
        } else if f == 0.0 {
            return t;
        } else {
            // A tail that is not a number has no crossing to find.
            return f64::INFINITY;
        }
        if settled || hi - lo <= 1e-9 * hi.abs() {
            break;
        }
    }
    t
}

/// The p99 response time, ms, of `c` servers sharing one line (M/M/c with
/// mean service `svc` ms at utilisation `rho`) followed by `delay`.
///
/// Exact, for random arrivals and independent times: no calls, the M/M/c
/// quantile plus the fixed time; one unhedged call,
/// [`mmc_then_wait_p99_ms`]; otherwise the line's exact survival convolved
/// numerically with the slowest call's ([`slowest_survival`]), to about
/// 0.01 %.
///
/// * returns — ms; `f64::INFINITY` for ρ ≥ 1 or bad input.
pub fn mmc_then_delay_p99_ms(c: u32, svc: f64, rho: f64, delay: &Delay) -> f64 {
    let line_p99 = mmc_response_percentile_ms(c, svc, rho, 0.99);
    if line_p99.is_infinite() || !delay.fixed_ms.is_finite() {
        return f64::INFINITY;
    }
    if !delay.has_calls() {
        return line_p99 + delay.fixed_ms.max(0.0);
    }
    if delay.calls == 1 && delay.hedge_after_ms.is_none() {
        return mmc_then_wait_p99_ms(c, svc, rho, delay.call_mean_ms) + delay.fixed_ms.max(0.0);
    }
    if svc == 0.0 {
        return slowest_quantile_ms(delay.calls, delay.call_mean_ms, delay.hedge_after_ms, 0.99)
            + delay.fixed_ms.max(0.0);
    }
    let erlang = erlang_c(c, f64::from(c) * rho);
    let line = |t: f64| mmc_response_survival(c, svc, rho, erlang, t);
    p99_line_then_calls(
        &line,
        mmc_response_ms(c, svc, rho),
        &Delay {
            fixed_ms: delay.fixed_ms.max(0.0),
            ..*delay
        },
    )
}

/// The p99 response time, ms, of `c` servers sharing one line whose
/// service has `shape` (a mix of light and heavy requests, fixed or
/// random), at utilisation `rho`, followed by `delay`.
///
/// The line's tail comes from its Laplace transform, inverted numerically
/// (the Euler algorithm of Abate and Whitt): for one server the Pollaczek–Khinchine
/// transform, exact for M/G/1 (to about 10⁻⁷ where the distribution has
/// no jump); for c servers the wait of one server c times as fast,
/// scaled to Erlang C's chance of waiting, an approximation (exact for
/// exponential service). The request's own service is added as the
/// random time it is, so a heavy class's long steps show in the tail: a
/// 5 % class of 200 ms (exponential) alone puts the service's own p99 at
/// 322 ms, where an exponential tail of the same mean would say 90 ms.
/// Random calls after the line are convolved numerically, a fixed time
/// is added.
///
/// * returns — ms; `f64::INFINITY` for ρ ≥ 1, no servers or bad input.
pub fn shaped_then_delay_p99_ms(c: u32, shape: &Shape, rho: f64, delay: &Delay) -> f64 {
    let bad_part = |p: &Part| !(p.mean_ms.is_finite() && p.mean_ms >= 0.0);
    let bad_share = |p: f64| !(p.is_finite() && p >= 0.0);
    if shape
        .classes
        .iter()
        .any(|(p, c)| bad_share(*p) || bad_part(c))
        || shape.then.iter().any(bad_part)
        || !delay.fixed_ms.is_finite()
    {
        return f64::INFINITY;
    }
    let fixed = delay.fixed_ms.max(0.0);
    let Some(line) = ShapedLine::new(c, shape, rho) else {
        if c > 0 && shape.mean_ms() == 0.0 && (0.0..1.0).contains(&rho) {
            return slowest_quantile_ms(
                delay.calls,
                delay.call_mean_ms,
                delay.hedge_after_ms,
                0.99,
            ) + fixed;
        }
        return f64::INFINITY;
    };
    if !delay.has_calls() {
        return solve_survival(&|t| line.survival(t), 0.01, line.mean_ms()) + fixed;
    }
    // The calls' transform, where it has one, joins the line's; several
    // hedged calls are convolved on a grid.
    if delay.calls_lst(Cx::ONE).is_some() {
        let after = |s: Cx| delay.calls_lst(s).unwrap_or(Cx::ONE);
        let calls_mean = slowest_mean_ms(delay.calls, delay.call_mean_ms, delay.hedge_after_ms);
        let start = line.mean_ms() + calls_mean;
        return solve_survival(&|t| line.survival_then(t, &after), 0.01, start) + fixed;
    }
    p99_line_then_calls(
        &|t| line.survival(t),
        line.mean_ms(),
        &Delay {
            fixed_ms: fixed,
            ..*delay
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arrivals_dealt_in_turn_wait_as_m_m_1_at_a_lower_load() {
        // E2/M/1 at ρ = 0.5: σ(2 − σ)² = 1, so σ = (3 − √5) ÷ 2.
        let e2 = dealt_in_turn_utilisation(2, 0.5);
        assert!((e2 - (3.0 - 5f64.sqrt()) / 2.0).abs() < 1e-12, "{e2}");
        // One server takes every arrival: M/M/1 itself.
        assert_eq!(dealt_in_turn_utilisation(1, 0.7), 0.7);
        // Every k: the root of its equation, below ρ, nearer ρ near full load.
        for k in [2, 4, 16] {
            for rho in [0.1, 0.5, 0.85, 0.99] {
                let s = dealt_in_turn_utilisation(k, rho);
                let kr = f64::from(k) * rho;
                let rhs = (kr / (kr + 1.0 - s)).powi(k as i32);
                assert!((rhs - s).abs() < 1e-12 && s < rho, "{k} {rho}: {s}");
            }
        }
        assert!((dealt_in_turn_utilisation(4, 0.85) - 0.7677).abs() < 1e-4);
        assert_eq!(dealt_in_turn_utilisation(4, 1.0), 1.0);
    }
    use crate::Model;
    use proptest::prelude::*;

    /// |a − b| ≤ tol × max(1, |b|).
    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() <= tol * b.abs().max(1.0)
    }

    macro_rules! assert_close {
        ($a:expr, $b:expr, $tol:expr) => {{
            let (a, b): (f64, f64) = ($a, $b);
            assert!(
                close(a, b, $tol),
                "{} = {a}, expected {b} (tol {})",
                stringify!($a),
                $tol
            );
        }};
    }

    /// Erlang C from the textbook factorial sum (independent of the recursion).
    fn erlang_c_direct(c: u32, a: f64) -> f64 {
        let mut term = 1.0; // a^k / k!
        let mut sum = 0.0;
        for k in 0..c {
            sum += term;
            term *= a / (k + 1) as f64;
        }
        let rho = a / c as f64;
        let top = term / (1.0 - rho); // a^c / c! / (1 − ρ)
        top / (sum + top)
    }

    // --- limits and Little's law ---

    #[test]
    fn cpu_limit_four_cores_ten_ms_is_400() {
        assert_close!(cpu_limit_rps(4.0, 10.0), 400.0, 1e-12);
        assert_eq!(cpu_limit_rps(4.0, 0.0), f64::INFINITY);
        assert_eq!(cpu_limit_rps(0.0, 10.0), 0.0);
    }

    #[test]
    fn thread_limit_twenty_threads_hundred_ms_is_200() {
        assert_close!(thread_limit_rps(20.0, 100.0), 200.0, 1e-12);
        assert_eq!(thread_limit_rps(20.0, 0.0), f64::INFINITY);
    }

    #[test]
    fn threads_needed_follows_littles_law() {
        assert_close!(threads_needed(400.0, 100.0), 40.0, 1e-12);
        assert_close!(threads_needed(250.0, 80.0), 20.0, 1e-12);
        assert_eq!(little_in_flight(400.0, 100.0), threads_needed(400.0, 100.0));
        assert_eq!(little_in_flight(0.0, f64::INFINITY), 0.0);
    }

    #[test]
    fn utilisation_is_busy_cores_over_cores() {
        assert_close!(utilisation(200.0, 4.0, 10.0), 0.5, 1e-12);
        assert_close!(utilisation(400.0, 4.0, 10.0), 1.0, 1e-12);
        assert_eq!(utilisation(0.0, 0.0, 10.0), 0.0);
        assert_eq!(utilisation(10.0, 0.0, 10.0), f64::INFINITY);
    }

    #[test]
    fn limits_never_give_nan() {
        let odd = [f64::NAN, -1.0, 0.0, 1.0, f64::INFINITY];
        for &x in &odd {
            for &y in &odd {
                assert!(!cpu_limit_rps(x, y).is_nan(), "cpu_limit_rps({x}, {y})");
                assert!(
                    !thread_limit_rps(x, y).is_nan(),
                    "thread_limit_rps({x}, {y})"
                );
                assert!(!threads_needed(x, y).is_nan(), "threads_needed({x}, {y})");
                for &z in &odd {
                    assert!(!utilisation(x, y, z).is_nan(), "utilisation({x}, {y}, {z})");
                }
            }
        }
    }

    // --- capacity of a scenario ---

    /// Lesson 16's hedged fan-out on 160 slots: 152 rps while 5 % of calls
    /// are sent again, 80 rps once every call is (the run measured 80).
    #[test]
    fn the_dependency_limit_counts_the_hedges_sent() {
        let s = Scenario {
            dep_concurrency: Some(160),
            ..crate::presets::preset("fan-out-100-hedged").unwrap()
        };
        let few = hedges_per_call(&s);
        assert_close!(few, (-3.0f64).exp(), 1e-12);
        assert_close!(
            dep_limit_rps_with(&s, few).unwrap(),
            160_000.0 / (1000.0 * (1.0 + few)),
            1e-9
        );
        assert_close!(
            dep_limit_rps_with(&s, few).unwrap(),
            capacity(&s).dep_limit_rps.unwrap(),
            1e-12
        );
        assert_close!(hedges_per_call_overloaded(&s), 1.0, 0.0);
        assert_close!(dep_limit_rps_with(&s, 1.0).unwrap(), 80.0, 1e-9);
        let plain = Scenario {
            hedge_after_ms: None,
            ..s.clone()
        };
        assert_close!(hedges_per_call_overloaded(&plain), 0.0, 0.0);
        assert_eq!(dep_limit_rps_with(&Scenario::default(), 1.0), None);
    }

    #[test]
    fn default_thread_pool_is_bound_by_threads() {
        // 4 cores, 10 ms CPU, 90 ms wait, 20 threads.
        let cap = capacity(&Scenario::default());
        assert_close!(cap.cpu_limit_rps, 400.0, 1e-12);
        assert_close!(cap.thread_limit_rps.unwrap(), 200.0, 1e-12);
        assert_close!(cap.capacity_rps, 200.0, 1e-12);
        assert_eq!(cap.binding, Limit::Threads);
    }

    #[test]
    fn big_thread_pool_is_bound_by_cpu() {
        let s = Scenario {
            threads: 100,
            ..Scenario::default()
        };
        let cap = capacity(&s);
        assert_close!(cap.thread_limit_rps.unwrap(), 1000.0, 1e-12);
        assert_close!(cap.capacity_rps, 400.0, 1e-12);
        assert_eq!(cap.binding, Limit::Cpu);
    }

    #[test]
    fn fan_out_and_hedging_formulas_give_the_known_figures() {
        assert_close!(fanout_mean_ms(10, 10.0), 29.289_682_539_682_538, 1e-12);
        assert_close!(fanout_mean_ms(1, 10.0), 10.0, 1e-12);
        assert_close!(fanout_quantile_ms(1, 10.0, 0.99), 10.0 * 100f64.ln(), 1e-12);
        assert!((fanout_quantile_ms(10, 10.0, 0.99) - 69.03).abs() < 0.01);
        assert!((share_meeting_a_slow_call(100) - 0.634).abs() < 0.001);
        assert_close!(hedged_mean_ms(10.0, 0.0), 5.0, 1e-12);
        assert!((hedged_mean_ms(10.0, 10.0) - 8.16).abs() < 0.01);
        assert!(hedged_mean_ms(10.0, 1e9) > 9.999_999);
        assert!((hedge_share(10.0, 10.0) - (-1f64).exp()).abs() < 1e-12);
    }

    #[test]
    fn thread_per_request_has_a_thread_limit_only_with_a_cap() {
        let s = Scenario {
            model: Model::ThreadPerRequest,
            ..Scenario::default()
        };
        let cap = capacity(&s);
        assert_eq!(cap.thread_limit_rps, None);
        assert_eq!(cap.binding, Limit::Cpu);
        // Each request's thread costs 0.05 ms of CPU to create (spawn_ms).
        assert_close!(cap.capacity_rps, 4000.0 / 10.05, 1e-12);

        let s = Scenario {
            model: Model::ThreadPerRequest,
            thread_cap: Some(10),
            ..Scenario::default()
        };
        let cap = capacity(&s);
        assert_close!(cap.thread_limit_rps.unwrap(), 10_000.0 / 100.05, 1e-12);
        assert_eq!(cap.binding, Limit::Threads);
    }

    #[test]
    fn event_loop_uses_one_core_per_loop_and_has_no_thread_limit() {
        let s = Scenario {
            model: Model::EventLoop,
            loops: 2,
            ..Scenario::default()
        };
        let cap = capacity(&s);
        assert_close!(cap.cpu_limit_rps, 200.0, 1e-12);
        assert_eq!(cap.thread_limit_rps, None);
        assert_eq!(cap.binding, Limit::Cpu);

        // loops = 0 means one per core; more loops than cores cannot use more cores.
        for loops in [0, 8] {
            let s = Scenario {
                model: Model::EventLoop,
                loops,
                ..Scenario::default()
            };
            assert_close!(capacity(&s).cpu_limit_rps, 400.0, 1e-12);
        }
    }

    #[test]
    fn event_loop_workers_share_the_cores() {
        // Exponential 10 ms reads, those of 5 ms or more handed over: a
        // share e^(−0.5) of requests, (5 + 10) e^(−0.5) ms of worker CPU
        // per request, and 0.05 ms of hand-off on the loop for each.
        let s = Scenario {
            model: Model::EventLoopWorkers,
            loops: 1,
            workers: 1,
            ..Scenario::default()
        };
        let share = (-0.5f64).exp();
        let (p, worker_ms) = offloaded(&s);
        assert_close!(p, share, 1e-12);
        assert_close!(worker_ms, 15.0 * share, 1e-12);
        assert_close!(cpu_ms_per_request(&s), 10.0 + 0.05 * share, 1e-12);
        // The one worker is the limit, before the two cores the loop and
        // it could use.
        assert_close!(capacity(&s).cpu_limit_rps, 1000.0 / worker_ms, 1e-12);
        let s = Scenario {
            model: Model::EventLoopWorkers,
            loops: 1,
            workers: 16,
            ..Scenario::default()
        };
        let cap = capacity(&s);
        assert_close!(cap.cpu_limit_rps, 4000.0 / (10.0 + 0.05 * share), 1e-12);
        assert_eq!(cap.thread_limit_rps, None);
        // A pool per loop: 2 loops × 16 workers, still 4 cores.
        let s = Scenario {
            loops: 2,
            pool_per_loop: true,
            ..s
        };
        assert_eq!(s.worker_threads(), 32);
    }

    #[test]
    fn capacity_uses_the_mean_over_both_classes() {
        // Half the requests cost 10 ms, half 30 ms: mean 20 ms → 200 rps on 4 cores.
        let s = Scenario {
            threads: 1000,
            heavy_share: 0.5,
            heavy_cpu_ms: 30.0,
            ..Scenario::default()
        };
        assert_close!(capacity(&s).cpu_limit_rps, 200.0, 1e-12);
    }

    #[test]
    fn capacity_serializes_with_kebab_case_binding() {
        let json = serde_json::to_string(&capacity(&Scenario::default())).unwrap();
        assert!(json.contains(r#""binding":"threads""#), "{json}");
        assert!(json.contains(r#""capacity_rps":200.0"#), "{json}");
    }

    // --- M/M/1 ---

    #[test]
    fn mm1_teaching_table() {
        let table = [
            (0.5, 20.0),
            (0.7, 33.333_333_333),
            (0.8, 50.0),
            (0.9, 100.0),
            (0.95, 200.0),
            (0.99, 1000.0),
        ];
        for (rho, mean) in table {
            assert_close!(mm1_response_ms(10.0, rho), mean, 1e-9);
            assert_close!(mm1_wait_ms(10.0, rho), mean - 10.0, 1e-9);
            // Same numbers as M/M/c with one server.
            assert_close!(mmc_response_ms(1, 10.0, rho), mean, 1e-9);
        }
    }

    #[test]
    fn mm1_p99_is_ln_100_times_the_mean() {
        for rho in [0.0, 0.5, 0.8, 0.95] {
            let mean = mm1_response_ms(10.0, rho);
            assert_close!(
                mm1_response_percentile_ms(10.0, rho, 0.99),
                100f64.ln() * mean,
                1e-12
            );
        }
        assert_close!(100f64.ln(), 4.605_170_186, 1e-9);
        let p99 = mm1_response_percentile_ms(10.0, 0.8, 0.99);
        assert_close!(p99, 230.258_509_3, 1e-9);
        // Median is ln 2 × mean.
        assert_close!(
            mm1_response_percentile_ms(10.0, 0.5, 0.5),
            2f64.ln() * 20.0,
            1e-12
        );
    }

    // --- Erlang C and M/M/c ---

    #[test]
    fn erlang_b_matches_its_closed_forms_and_edges() {
        // One place: a ÷ (1 + a). Two places at 1 erlang: (1/2) ÷ (1 + 1 + 1/2).
        assert!((erlang_b(1, 3.0) - 0.75).abs() < 1e-12);
        assert!((erlang_b(2, 1.0) - 0.2).abs() < 1e-12);
        // Ten thousand erlangs on 1,024 places: nearly all of them taken, so
        // 1,024 of 10,000 are admitted (1 − B ≈ 0.1024).
        let admitted = 1.0 - erlang_b(1024, 10_000.0);
        assert!((admitted - 0.1024).abs() < 1e-4, "{admitted}");
        assert_eq!(erlang_b(0, 1.0), 1.0);
        assert_eq!(erlang_b(5, 0.0), 0.0);
        assert_eq!(erlang_b(5, f64::INFINITY), 1.0);
        assert_eq!(erlang_b(5, f64::NAN), 1.0);
    }

    #[test]
    fn erlang_c_with_one_server_is_rho() {
        for rho in [0.0, 0.1, 0.5, 0.9, 0.999] {
            assert_close!(erlang_c(1, rho), rho, 1e-12);
        }
    }

    #[test]
    fn erlang_c_matches_the_factorial_sum() {
        for c in 1..=30 {
            for rho in [0.05, 0.3, 0.6, 0.9, 0.99] {
                let a = c as f64 * rho;
                assert_close!(erlang_c(c, a), erlang_c_direct(c, a), 1e-10);
            }
        }
    }

    #[test]
    fn erlang_c_is_stable_for_many_servers() {
        let c = erlang_c(1000, 900.0);
        assert!(c.is_finite() && c > 0.0 && c < 1.0, "{c}");
        let c = erlang_c(10_000, 9_950.0);
        assert!(c.is_finite() && c > 0.0 && c < 1.0, "{c}");
        // More servers at the same ρ: fewer requests wait.
        assert!(erlang_c(1000, 900.0) < erlang_c(10, 9.0));
    }

    #[test]
    fn erlang_c_edges() {
        assert_eq!(erlang_c(4, 0.0), 0.0);
        assert_eq!(erlang_c(4, -1.0), 0.0);
        assert_eq!(erlang_c(4, 4.0), 1.0);
        assert_eq!(erlang_c(4, 10.0), 1.0);
        assert_eq!(erlang_c(0, 1.0), 1.0);
        assert_eq!(erlang_c(4, f64::NAN), 1.0);
        assert_eq!(erlang_c(4, f64::INFINITY), 1.0);
    }

    #[test]
    fn a_pool_that_fits_its_cores_finishes_threads_over_time_held() {
        // No thread ever waits for a core: P ÷ T exactly.
        assert!(close(pool_on_cores_rps(1, 4, 10.0, 90.0), 10.0, 1e-12));
        assert!(close(pool_on_cores_rps(4, 4, 10.0, 90.0), 40.0, 1e-12));
        assert!(close(pool_on_cores_rps(3, 4, 0.2, 0.0), 15_000.0, 1e-12));
        assert!(close(pool_on_cores_rps(3, 4, 0.0, 50.0), 60.0, 1e-12));
        assert_eq!(pool_on_cores_rps(0, 4, 10.0, 90.0), 0.0);
        assert_eq!(pool_on_cores_rps(4, 0, 10.0, 90.0), 0.0);
    }

    #[test]
    fn a_pool_on_one_core_matches_the_repairman_sum() {
        // One core: the core is idle with probability
        // p0 = 1 / Σ_k n!/(n−k)! (S/Z)^k, and finishes (1 − p0) / S.
        for (n, s, z) in [(2u32, 10.0, 90.0), (5, 10.0, 20.0), (12, 3.0, 40.0)] {
            let mut sum = 0.0;
            let mut term = 1.0;
            for k in 0..=n {
                sum += term;
                term *= f64::from(n - k) * s / z;
            }
            let want = (1.0 - 1.0 / sum) / s * 1000.0;
            assert!(close(pool_on_cores_rps(n, 1, s, z), want, 1e-12), "{n}");
        }
    }

    /// Limits that tie both give the capacity; the CPU is still the one
    /// called binding (the tie-break), and the threads alone bind below it.
    #[test]
    fn limits_that_tie_both_bind() {
        let s = Scenario {
            threads: 40,
            ..Scenario::default()
        };
        let tie = capacity(&s);
        assert_eq!(tie.binding, Limit::Cpu);
        assert!(tie.binds(Limit::Threads) && tie.binds(Limit::Cpu));
        assert!(!tie.binds(Limit::Dependency));
        assert_eq!(tie.binding_limits(), [Limit::Cpu, Limit::Threads]);
        let below = capacity(&Scenario { threads: 39, ..s });
        assert_eq!(below.binding_limits(), [Limit::Threads]);
        assert!(!below.binds(Limit::Cpu));
    }

    #[test]
    fn threads_that_outnumber_the_cores_finish_less_than_either_limit() {
        // The sale day's pool of 40 on 4 cores: P ÷ T and the cores both
        // give 400; waits for a core leave about 365 (the engine ran 364).
        let x = pool_on_cores_rps(40, 4, 10.0, 90.0);
        assert!((364.0..366.0).contains(&x), "{x}");
        // Lesson 15's table: the sale day's pool of 20, 28, 32, 48 and 60.
        for (n, want) in [
            (20, 199.0),
            (28, 274.0),
            (32, 309.0),
            (48, 393.0),
            (60, 400.0),
        ] {
            let got = pool_on_cores_rps(n, 4, 10.0, 90.0);
            assert_eq!(got.round(), want, "{n} threads: {got}");
        }
        // Many threads: the cores bind, with no overflow.
        let many = pool_on_cores_rps(100_000, 4, 10.0, 90.0);
        assert!(close(many, 400.0, 1e-9), "{many}");
    }

    #[test]
    fn a_pool_on_cores_is_a_birth_death_line_of_what_its_busy_threads_finish() {
        // Threads that never wait for a core (one each): M/M/c with the
        // time held as its service time, exactly.
        let (m, busy) = pool_on_cores_line(300.0, 4, 4, 2.0, 8.0).unwrap();
        let want = mmc_response_ms(4, 10.0, 0.75);
        assert!(close(m, want, 1e-9), "{m} {want}");
        assert!(close(busy, 3.0, 1e-9), "{busy}");
        // One core and threads without end: the cores are M/M/1 and the
        // time off them is added (Jackson), to 1e-9.
        let (m, _) = pool_on_cores_line(50.0, 1000, 1, 10.0, 90.0).unwrap();
        assert!(close(m, mmc_response_ms(1, 10.0, 0.5) + 90.0, 1e-9), "{m}");
        // The same near the cores' wall with a big pool, where the sum
        // takes the cores' own rate once X reaches it: M/M/4 at 98 %.
        let (m, _) = pool_on_cores_line(392.0, 2000, 4, 10.0, 90.0).unwrap();
        assert!(close(m, mmc_response_ms(4, 10.0, 0.98) + 90.0, 1e-9), "{m}");
        // The sale day's pool of 40: flat at low load, then the wall at
        // what the threads finish (about 365 rps), below the 400 of both limits.
        let at = |rps: f64| pool_on_cores_line(rps, 40, 4, 10.0, 90.0).map(|(m, _)| m);
        let low = at(120.0).unwrap();
        assert!((100.0..100.5).contains(&low), "{low}");
        let busy_day = at(340.0).unwrap();
        assert!((127.5..128.5).contains(&busy_day), "{busy_day}");
        assert!((280.0..300.0).contains(&at(360.0).unwrap()));
        assert!(at(364.0).unwrap() > 1000.0);
        assert_eq!(at(366.0), None);
        // By Little's law the busy threads are λ × the time a thread is
        // held; that time is at least 100 ms, and at most the response.
        let (m, busy) = pool_on_cores_line(340.0, 40, 4, 10.0, 90.0).unwrap();
        assert!(busy > 34.0 && busy < 40.0 && busy < 0.34 * m, "{busy}");
        // Nonsense has no answer.
        assert_eq!(pool_on_cores_line(f64::NAN, 40, 4, 10.0, 90.0), None);
        assert_eq!(pool_on_cores_line(100.0, 0, 4, 10.0, 90.0), None);
        assert_eq!(pool_on_cores_line(100.0, 40, 4, 0.0, 90.0), None);
    }

    #[test]
    fn mm4_at_90_percent_with_10_ms_is_about_30_ms() {
        let c = 4;
        let (s, rho) = (10.0, 0.9);
        let erlang = erlang_c_direct(c, 3.6);
        assert_close!(erlang, 0.787_753_264_295, 1e-9);
        let expected = s + erlang * s / (4.0 * (1.0 - rho));
        assert_close!(expected, 29.693_831_607, 1e-9);
        assert_close!(mmc_response_ms(c, s, rho), expected, 1e-12);
        assert_close!(mmc_wait_ms(c, s, rho), expected - s, 1e-12);
        // One shared line of four is far better than one server at the same ρ.
        assert!(mmc_response_ms(c, s, rho) < mm1_response_ms(s, rho) / 3.0);
    }

    #[test]
    fn mmc_percentile_with_one_server_is_mm1() {
        for rho in [0.0, 0.3, 0.5, 0.8, 0.9, 0.99] {
            for p in [0.01, 0.5, 0.9, 0.99, 0.999, 0.999_999] {
                let exact = mmc_response_percentile_ms(1, 10.0, rho, p);
                assert_close!(exact, mm1_response_percentile_ms(10.0, rho, p), 1e-8);
            }
        }
    }

    #[test]
    fn mmc_survival_with_one_server_is_exponential() {
        for rho in [0.2, 0.5, 0.9] {
            let rate = (1.0 - rho) / 10.0;
            for t in [0.0, 1.0, 10.0, 100.0, 1000.0] {
                let got = mmc_response_survival(1, 10.0, rho, erlang_c(1, rho), t);
                assert_close!(got, (-rate * t).exp(), 1e-12);
            }
        }
    }

    #[test]
    fn mmc_survival_integrates_to_the_mean() {
        // E[T] = ∫ P(T > t) dt: an independent check of the distribution.
        for (c, rho) in [(1, 0.5), (2, 0.5), (4, 0.9), (8, 0.7), (3, 0.2)] {
            let s = 10.0;
            let erlang = erlang_c(c, c as f64 * rho);
            let mean = mmc_response_ms(c, s, rho);
            let end = 60.0 * mean;
            let n = 200_000;
            let h = end / n as f64;
            let f = |t: f64| mmc_response_survival(c, s, rho, erlang, t);
            // Simpson's rule.
            let mut sum = f(0.0) + f(end);
            for i in 1..n {
                sum += if i % 2 == 1 { 4.0 } else { 2.0 } * f(i as f64 * h);
            }
            assert_close!(sum * h / 3.0, mean, 1e-7);
        }
    }

    #[test]
    fn mmc_percentile_when_wait_rate_equals_service_rate() {
        // c (1 − ρ) = 1 makes θ = μ: P(W′ + B > t) = (1 + μt) e^{−μt}.
        let (c, s, rho) = (2, 10.0, 0.5);
        let erlang = erlang_c(c, 1.0);
        let mu = 1.0 / s;
        for p in [0.5, 0.9, 0.99] {
            let t = mmc_response_percentile_ms(c, s, rho, p);
            let survival =
                (1.0 - erlang) * (-mu * t).exp() + erlang * (1.0 + mu * t) * (-mu * t).exp();
            assert_close!(survival, 1.0 - p, 1e-8);
            // Continuous on either side of θ = μ.
            for nudge in [1e-13, 1e-9, -1e-9] {
                let near = mmc_response_percentile_ms(c, s, rho + nudge, p);
                assert_close!(near, t, 1e-6);
            }
        }
    }

    #[test]
    fn mmc_percentile_solves_the_closed_form() {
        // θ ≠ μ: check against (θ e^{−μt} − μ e^{−θt}) / (θ − μ) written out.
        for (c, rho) in [(4, 0.9), (4, 0.3), (16, 0.95), (2, 0.1)] {
            let s = 10.0;
            let erlang = erlang_c(c, c as f64 * rho);
            let mu = 1.0 / s;
            let theta = c as f64 * mu * (1.0 - rho);
            let t = mmc_response_percentile_ms(c, s, rho, 0.99);
            let both = (theta * (-mu * t).exp() - mu * (-theta * t).exp()) / (theta - mu);
            let survival = (1.0 - erlang) * (-mu * t).exp() + erlang * both;
            assert_close!(survival, 0.01, 1e-7);
        }
    }

    #[test]
    fn mmc_p99_of_four_servers_at_90_percent() {
        let p99 = mmc_response_percentile_ms(4, 10.0, 0.9, 0.99);
        // Between the service p99 (46 ms) and the M/M/1 p99 at the same ρ (460 ms).
        assert!(p99 > 46.0 && p99 < 460.0, "{p99}");
        assert!(p99 > mmc_response_ms(4, 10.0, 0.9));
    }

    #[test]
    fn mmc_wait_percentile() {
        // One server, ρ = 0.3: 70 % never wait, so the median wait is 0.
        assert_eq!(mmc_wait_percentile_ms(1, 10.0, 0.3, 0.5), 0.0);
        // P(W > t) = C e^{−θt}.
        for (c, rho) in [(1, 0.8), (4, 0.9), (100, 0.97)] {
            let s = 10.0;
            let erlang = erlang_c(c, c as f64 * rho);
            let theta = c as f64 * (1.0 - rho) / s;
            let t = mmc_wait_percentile_ms(c, s, rho, 0.99);
            assert!(t > 0.0);
            assert_close!(erlang * (-theta * t).exp(), 0.01, 1e-9);
        }
        // Wait + service ≥ wait, percentile by percentile.
        let w = mmc_wait_percentile_ms(4, 10.0, 0.9, 0.99);
        assert!(mmc_response_percentile_ms(4, 10.0, 0.9, 0.99) > w);
    }

    #[test]
    fn percentiles_grow_with_p() {
        let ps = [0.0, 0.1, 0.5, 0.9, 0.95, 0.99, 0.999, 0.9999, 1.0];
        for (c, rho) in [(1, 0.5), (4, 0.9), (64, 0.99), (1000, 0.9)] {
            let r: Vec<f64> = ps
                .iter()
                .map(|&p| mmc_response_percentile_ms(c, 10.0, rho, p))
                .collect();
            let w: Vec<f64> = ps
                .iter()
                .map(|&p| mmc_wait_percentile_ms(c, 10.0, rho, p))
                .collect();
            assert!(r.windows(2).all(|x| x[0] < x[1]), "{r:?}");
            assert!(w.windows(2).all(|x| x[0] <= x[1]), "{w:?}");
            let m: Vec<f64> = ps
                .iter()
                .map(|&p| mm1_response_percentile_ms(10.0, rho, p))
                .collect();
            assert!(m.windows(2).all(|x| x[0] < x[1]), "{m:?}");
        }
    }

    #[test]
    fn curve_lists_mean_and_p99() {
        let rhos = [0.5, 0.9, 1.0];
        let curve = mmc_curve(1, 10.0, &rhos);
        assert_eq!(curve.len(), 3);
        assert_eq!(curve[0].rho, 0.5);
        assert_close!(curve[0].mean_ms, 20.0, 1e-12);
        assert_close!(curve[1].p99_ms, 100f64.ln() * 100.0, 1e-8);
        assert_eq!(curve[2].mean_ms, f64::INFINITY);
        assert_eq!(curve[2].p99_ms, f64::INFINITY);
        let four = mmc_curve(4, 10.0, &[0.9]);
        assert_close!(four[0].mean_ms, mmc_response_ms(4, 10.0, 0.9), 1e-12);
        let json = serde_json::to_string(&curve[0]).unwrap();
        assert!(json.contains(r#""mean_ms":20.0"#), "{json}");
        assert!(mmc_curve(4, 10.0, &[]).is_empty());
    }

    // --- the root finder: a bracket by doubling, then crossing ---

    #[test]
    fn mm1_p99_is_s_over_one_minus_rho_times_ln_100() {
        // The search, not the closed form: M/M/c with one server solves
        // P(T > t) = 1 % through the bracket and crossing.
        for s in [0.001, 1.0, 10.0, 250.0, 1e6] {
            for rho in [0.0, 0.1, 0.3, 0.5, 0.7, 0.9, 0.95, 0.99, 0.999, 0.999_999] {
                let exact = s / (1.0 - rho) * 100f64.ln();
                let got = mmc_response_percentile_ms(1, s, rho, 0.99);
                assert!(
                    (got - exact).abs() <= 1e-9 * exact,
                    "S {s} rho {rho}: {got} vs {exact}"
                );
            }
        }
    }

    #[test]
    fn a_percentile_search_takes_a_handful_of_evaluations() {
        // M/M/1 at ρ = 0.9 from its mean: 3 doublings, then crossing
        // (bisection took 35 evaluations in all).
        let evaluations = std::cell::Cell::new(0);
        let (s, rho) = (10.0, 0.9);
        let mean = s / (1.0 - rho);
        let survival = |t: f64| {
            evaluations.set(evaluations.get() + 1);
            (-t / mean).exp()
        };
        let t = solve_survival(&survival, 0.01, mean);
        assert_close!(t, mean * 100f64.ln(), 1e-9);
        assert!(evaluations.get() <= 15, "{} evaluations", evaluations.get());
    }

    #[test]
    fn the_bracket_doubles_as_often_as_it_must() {
        // Starting 10¹² times too low: 43 doublings, then the root to 1e-9.
        let mean = 1e6;
        let evaluations = std::cell::Cell::new(0);
        let survival = |t: f64| {
            evaluations.set(evaluations.get() + 1);
            (-t / mean).exp()
        };
        let t = solve_survival(&survival, 0.01, 1e-6);
        assert!(
            (t - mean * 100f64.ln()).abs() <= 1e-9 * t,
            "{t} vs {}",
            mean * 100f64.ln()
        );
        assert!(
            evaluations.get() <= 44 + 15,
            "{} evaluations",
            evaluations.get()
        );
        let ((lo, f_lo), (hi, f_hi)) = bracket(&|t| (-t / mean).exp(), 0.01, 1e-6);
        assert_eq!(hi, 2.0 * lo);
        assert!(f_lo > 0.0 && f_hi <= 0.0 && lo < t && t <= hi);
        // Already past q at the start: the bracket is [0, start].
        let ((lo, f_lo), (hi, _)) = bracket(&|t| (-t / mean).exp(), 0.01, 1e9);
        assert_eq!((lo, f_lo, hi), (0.0, 0.99, 1e9));
        // A tail that never falls: the bracket gives up (no endless loop).
        assert_eq!(solve_survival(&|_| 1.0, 0.01, 1.0), f64::INFINITY);
    }

    #[test]
    fn crossing_is_not_fooled_by_a_first_guess_at_the_midpoint() {
        // tail − q is +½ at 0 and −½ at 2: regula falsi's first guess is
        // the midpoint 1, but the root is 2 (1 − 0.5^(1/3)) ≈ 0.413.
        let tail = |t: f64| (1.0 - t / 2.0).powi(3);
        let root = 2.0 * (1.0 - 0.5f64.cbrt());
        assert_close!(crossing(&tail, 0.5, 0.0, 2.0), root, 1e-9);
        // Ends already past q are returned as they are.
        assert_eq!(crossing(&tail, 0.5, 1.0, 2.0), 1.0);
        assert_eq!(crossing(&tail, 0.5, 0.0, 0.1), 0.1);
        // A tail that is not a number inside the bracket, or at its ends,
        // has no crossing: never a made-up finite point.
        let broken = |t: f64| {
            if t > 0.0 && t < 2.0 {
                f64::NAN
            } else {
                1.0 - t / 2.0
            }
        };
        assert_eq!(crossing(&broken, 0.5, 0.0, 2.0), f64::INFINITY);
        assert_eq!(crossing(&|_| f64::NAN, 0.5, 0.0, 2.0), f64::INFINITY);
    }

    // --- M/D/1 and M/G/1 ---

    #[test]
    fn md1_waits_half_as_long_as_mm1() {
        for rho in [0.1, 0.5, 0.8, 0.9, 0.99] {
            assert_close!(md1_wait_ms(10.0, rho), mm1_wait_ms(10.0, rho) / 2.0, 1e-12);
            assert_close!(
                md1_response_ms(10.0, rho),
                md1_wait_ms(10.0, rho) + 10.0,
                1e-12
            );
        }
        assert_close!(md1_response_ms(10.0, 0.9), 55.0, 1e-12);
    }

    #[test]
    fn mg1_with_exponential_service_is_mm1() {
        for rho in [0.1, 0.5, 0.9] {
            assert_close!(
                mg1_wait_ms(10.0, scv(Dist::Exp), rho),
                mm1_wait_ms(10.0, rho),
                1e-12
            );
            assert_close!(
                mg1_response_ms(10.0, 1.0, rho),
                mm1_response_ms(10.0, rho),
                1e-12
            );
            assert_close!(
                mg1_wait_ms(10.0, scv(Dist::Const), rho),
                md1_wait_ms(10.0, rho),
                1e-12
            );
        }
        assert_eq!(scv(Dist::Const), 0.0);
        assert_eq!(scv(Dist::Exp), 1.0);
    }

    // --- bad input: infinity, never NaN, never a panic ---

    #[test]
    fn full_or_bad_input_gives_infinity() {
        let inf = f64::INFINITY;
        for rho in [1.0, 1.5, inf, -0.1, f64::NAN, f64::NEG_INFINITY] {
            assert_eq!(mm1_response_ms(10.0, rho), inf, "rho {rho}");
            assert_eq!(mm1_wait_ms(10.0, rho), inf, "rho {rho}");
            assert_eq!(
                mm1_response_percentile_ms(10.0, rho, 0.99),
                inf,
                "rho {rho}"
            );
            assert_eq!(mmc_wait_ms(4, 10.0, rho), inf, "rho {rho}");
            assert_eq!(mmc_response_ms(4, 10.0, rho), inf, "rho {rho}");
            assert_eq!(
                mmc_response_percentile_ms(4, 10.0, rho, 0.99),
                inf,
                "rho {rho}"
            );
            assert_eq!(mmc_wait_percentile_ms(4, 10.0, rho, 0.99), inf, "rho {rho}");
            assert_eq!(md1_wait_ms(10.0, rho), inf, "rho {rho}");
            assert_eq!(md1_response_ms(10.0, rho), inf, "rho {rho}");
            assert_eq!(mg1_wait_ms(10.0, 1.0, rho), inf, "rho {rho}");
            assert_eq!(mg1_response_ms(10.0, 1.0, rho), inf, "rho {rho}");
        }
        for s in [-1.0, f64::NAN, inf] {
            assert_eq!(mm1_response_ms(s, 0.5), inf, "service {s}");
            assert_eq!(mmc_response_ms(2, s, 0.5), inf, "service {s}");
            assert_eq!(
                mmc_response_percentile_ms(2, s, 0.5, 0.5),
                inf,
                "service {s}"
            );
            assert_eq!(mmc_wait_percentile_ms(2, s, 0.5, 0.99), inf, "service {s}");
            assert_eq!(md1_response_ms(s, 0.5), inf, "service {s}");
        }
        assert_eq!(mmc_response_ms(0, 10.0, 0.5), inf);
        assert_eq!(mmc_response_percentile_ms(0, 10.0, 0.5, 0.5), inf);
        assert_eq!(mmc_wait_percentile_ms(0, 10.0, 0.5, 0.5), inf);
        assert_eq!(mg1_wait_ms(10.0, -1.0, 0.5), inf);
        assert_eq!(mg1_wait_ms(10.0, f64::NAN, 0.5), inf);
    }

    #[test]
    fn queueing_functions_never_give_nan() {
        let odd = [
            f64::NAN,
            f64::NEG_INFINITY,
            -1.0,
            0.0,
            1e-300,
            0.5,
            1.0,
            2.0,
            f64::INFINITY,
        ];
        for &x in &odd {
            for &y in &odd {
                let all = [
                    mm1_response_ms(x, y),
                    mm1_wait_ms(x, y),
                    md1_wait_ms(x, y),
                    md1_response_ms(x, y),
                    erlang_c(3, x),
                    mmc_wait_ms(3, x, y),
                    mmc_response_ms(3, x, y),
                ];
                assert!(all.iter().all(|v| !v.is_nan()), "({x}, {y}): {all:?}");
                for &z in &odd {
                    let all = [
                        mm1_response_percentile_ms(x, y, z),
                        mmc_response_percentile_ms(3, x, y, z),
                        mmc_wait_percentile_ms(3, x, y, z),
                        mg1_wait_ms(x, z, y),
                        mg1_response_ms(x, z, y),
                    ];
                    assert!(all.iter().all(|v| !v.is_nan()), "({x}, {y}, {z}): {all:?}");
                }
            }
        }
    }

    #[test]
    fn p_is_clamped_to_zero_and_one() {
        let inf = f64::INFINITY;
        for p in [0.0, -0.5, f64::NEG_INFINITY] {
            assert_eq!(mm1_response_percentile_ms(10.0, 0.5, p), 0.0, "p {p}");
            assert_eq!(mmc_response_percentile_ms(4, 10.0, 0.5, p), 0.0, "p {p}");
            assert_eq!(mmc_wait_percentile_ms(4, 10.0, 0.5, p), 0.0, "p {p}");
        }
        for p in [1.0, 1.5, inf, f64::NAN] {
            assert_eq!(mm1_response_percentile_ms(10.0, 0.5, p), inf, "p {p}");
            assert_eq!(mmc_response_percentile_ms(4, 10.0, 0.5, p), inf, "p {p}");
            assert_eq!(mmc_wait_percentile_ms(4, 10.0, 0.5, p), inf, "p {p}");
        }
    }

    #[test]
    fn no_load_or_no_work() {
        // ρ = 0: nobody waits, response is just the service time.
        assert_eq!(mmc_wait_ms(4, 10.0, 0.0), 0.0);
        assert_close!(
            mmc_response_percentile_ms(4, 10.0, 0.0, 0.99),
            100f64.ln() * 10.0,
            1e-8
        );
        assert_eq!(mmc_wait_percentile_ms(4, 10.0, 0.0, 0.99), 0.0);
        // S = 0: everything is instant.
        assert_eq!(mm1_response_ms(0.0, 0.5), 0.0);
        assert_eq!(mmc_response_ms(4, 0.0, 0.5), 0.0);
        assert_eq!(mmc_response_percentile_ms(4, 0.0, 0.5, 0.99), 0.0);
        assert_eq!(mmc_wait_percentile_ms(4, 0.0, 0.5, 0.99), 0.0);
    }

    #[test]
    fn extreme_but_valid_inputs_stay_finite() {
        let t = mmc_response_percentile_ms(10_000, 10.0, 0.999, 0.999_999);
        assert!(t.is_finite() && t > 0.0, "{t}");
        let t = mmc_response_percentile_ms(1, 10.0, 0.999_999, 0.99);
        assert_close!(t, mm1_response_percentile_ms(10.0, 0.999_999, 0.99), 1e-8);
        let t = mmc_response_percentile_ms(3, 1e-6, 0.5, 1e-12);
        assert!(t.is_finite() && t >= 0.0, "{t}");
    }

    proptest! {
        #[test]
        fn p99_is_at_least_the_mean(c in 1u32..64, rho in 0.01f64..0.99, s in 0.1f64..1000.0) {
            let mean = mmc_response_ms(c, s, rho);
            let p99 = mmc_response_percentile_ms(c, s, rho, 0.99);
            prop_assert!(mean.is_finite() && p99.is_finite());
            prop_assert!(p99 >= mean, "c {} rho {} mean {} p99 {}", c, rho, mean, p99);
        }

        #[test]
        fn percentiles_increase_with_p(c in 1u32..64, rho in 0.01f64..0.99, p in 0.001f64..0.99, dp in 0.0001f64..0.009) {
            let s = 10.0;
            let (lo, hi) = (mmc_response_percentile_ms(c, s, rho, p), mmc_response_percentile_ms(c, s, rho, p + dp));
            prop_assert!(lo < hi, "c {} rho {} p {} dp {}: {} !< {}", c, rho, p, dp, lo, hi);
            let (lo, hi) = (mmc_wait_percentile_ms(c, s, rho, p), mmc_wait_percentile_ms(c, s, rho, p + dp));
            prop_assert!(lo <= hi, "wait: c {} rho {} p {} dp {}: {} !<= {}", c, rho, p, dp, lo, hi);
        }

        #[test]
        fn erlang_c_is_a_probability(c in 1u32..2000, rho in 0.0f64..0.9999) {
            let e = erlang_c(c, c as f64 * rho);
            prop_assert!((0.0..=1.0).contains(&e), "{}", e);
        }

        #[test]
        fn a_pool_on_cores_finishes_at_most_either_limit(
            n in 1u32..5000, c in 1u32..256, s in 0.001f64..1000.0, z in 0.001f64..10_000.0,
        ) {
            let x = pool_on_cores_rps(n, c, s, z);
            let threads = f64::from(n) / (s + z) * 1000.0;
            let cores = f64::from(c) / s * 1000.0;
            prop_assert!(x.is_finite() && x > 0.0, "{}", x);
            prop_assert!(x <= threads.min(cores) * (1.0 + 1e-9), "{} > {} or {}", x, threads, cores);
            // Waits lose most where the two limits meet (40 threads on 4
            // cores lose 9 %); loosely, never half.
            prop_assert!(x >= 0.5 * threads.min(cores) * 0.99, "{} vs {} / {}", x, threads, cores);
        }
    }
    #[test]
    fn p99_adds_a_random_wait_as_a_random_time() {
        // No line (ρ → 0): 10 ms CPU + 90 ms wait, both exponential.
        // P(X + Y > t) = (90 e^(−t/90) − 10 e^(−t/10)) / 80 = 0.01 at t ≈ 424 ms.
        let p = mmc_then_wait_p99_ms(4, 10.0, 1e-9, 90.0);
        assert!((p - 424.0).abs() < 2.0, "{p}");
        // Far above the wait taken as a fixed 90 ms.
        assert!(p > mmc_response_percentile_ms(4, 10.0, 1e-9, 0.99) + 90.0 + 200.0);
        // Rises with the load.
        assert!(mmc_then_wait_p99_ms(4, 10.0, 0.9, 90.0) > p);
        // Equal rates are fine.
        let q = mmc_then_wait_p99_ms(1, 10.0, 0.5, 10.0);
        assert!(q.is_finite() && q > 20.0, "{q}");
        // No CPU: the wait alone, whose p99 is 90 ms × ln 100 = 414.5 ms
        // (it was the mean, 90 ms); no load at all: the same as ρ → 0.
        assert_close!(
            mmc_then_wait_p99_ms(4, 0.0, 0.0, 90.0),
            90.0 * 100f64.ln(),
            1e-9
        );
        assert!((mmc_then_wait_p99_ms(4, 10.0, 0.0, 90.0) - p).abs() < 0.01);
    }

    // --- the slowest of several calls, hedged or not ---

    #[test]
    fn a_hedged_call_is_the_first_of_two_copies() {
        // Before the hedge: one exponential call.
        assert_close!(call_survival(10.0, Some(30.0), 20.0), (-2f64).exp(), 1e-15);
        // After: both copies still out, e^(−t/W) · e^(−(t−h)/W).
        assert_close!(call_survival(10.0, Some(30.0), 50.0), (-7f64).exp(), 1e-15);
        assert_eq!(call_survival(10.0, None, 0.0), 1.0);
        assert_eq!(call_survival(0.0, Some(5.0), 1.0), 0.0);
        // The slowest of n: 1 − (1 − q)^n.
        let q = call_survival(10.0, Some(30.0), 50.0);
        let direct = 1.0 - (1.0 - q).powi(100);
        assert_close!(slowest_survival(100, 10.0, Some(30.0), 50.0), direct, 1e-12);
        assert_eq!(slowest_survival(0, 10.0, None, 5.0), 0.0);
        assert_eq!(slowest_survival(3, 10.0, None, -1.0), 1.0);
    }

    #[test]
    fn the_slowest_hedged_calls_quantile_solves_its_survival() {
        // Unhedged: the known fan-out quantile.
        for n in [1, 10, 100] {
            assert_close!(
                slowest_quantile_ms(n, 10.0, None, 0.99),
                fanout_quantile_ms(n, 10.0, 0.99),
                1e-12
            );
        }
        // 100 calls of 10 ms hedged after 30 ms: each must exceed the p99
        // with q = 1 − 0.99^(1/100) ≈ 1.005e-4, past the hedge:
        // t = (30 + 10 ln(1/q)) / 2 = 61.03 ms (92.1 ms unhedged).
        let t = slowest_quantile_ms(100, 10.0, Some(30.0), 0.99);
        assert!((t - 61.03).abs() < 0.01, "{t}");
        for (n, h, p) in [
            (100, 30.0, 0.99),
            (10, 5.0, 0.5),
            (1, 100.0, 0.99),
            (1000, 46.0, 0.999),
        ] {
            let t = slowest_quantile_ms(n, 10.0, Some(h), p);
            assert_close!(slowest_survival(n, 10.0, Some(h), t), 1.0 - p, 1e-9);
        }
        // A hedge after the quantile changes nothing.
        assert_close!(
            slowest_quantile_ms(10, 10.0, Some(500.0), 0.99),
            fanout_quantile_ms(10, 10.0, 0.99),
            1e-12
        );
        assert_eq!(slowest_quantile_ms(10, 10.0, None, 1.0), f64::INFINITY);
        assert_eq!(slowest_quantile_ms(10, 10.0, None, 0.0), 0.0);
    }

    #[test]
    fn remembered_moments_are_the_computed_ones() {
        // More settings than are kept, differing in one part at a time,
        // each asked for twice in a row and again after the others pushed
        // it out: the same bits every time.
        let mut settings = Vec::new();
        for n in 1..=MOMENTS_KEPT as u32 {
            for w in [5.0, 7.5] {
                for h in [None, Some(20.0)] {
                    settings.push((n, w, h));
                }
            }
        }
        for _ in 0..2 {
            for &(n, w, h) in &settings {
                let computed = slowest_moments_ms_computed(n, w, h);
                for _ in 0..2 {
                    let m = slowest_moments_ms(n, w, h);
                    assert_eq!(m.0.to_bits(), computed.0.to_bits(), "{n} {w} {h:?}");
                    assert_eq!(m.1.to_bits(), computed.1.to_bits(), "{n} {w} {h:?}");
                }
            }
        }
    }

    #[test]
    fn the_slowest_calls_moments_match_the_closed_forms() {
        // Unhedged: W × H(n), variance Σ (W/k)².
        for n in [1u32, 10, 100, 1000] {
            let (m1, m2) = slowest_moments_ms(n, 10.0, None);
            assert_close!(m1, fanout_mean_ms(n, 10.0), 1e-9);
            let var: f64 = (1..=n).map(|k| (10.0 / f64::from(k)).powi(2)).sum();
            assert_close!(m2 - m1 * m1, var, 1e-8);
        }
        // One hedged call: W(1 − L) + L W / 2 and
        // E[T²] = 2W² − L (hW + 1.5 W²), L = e^(−h/W).
        for h in [0.0, 5.0, 10.0, 30.0] {
            let (m1, m2) = slowest_moments_ms(1, 10.0, Some(h));
            assert_close!(m1, hedged_mean_ms(10.0, h), 1e-9);
            let late = (-h / 10.0f64).exp();
            assert_close!(m2, 200.0 - late * (h * 10.0 + 150.0), 1e-8);
        }
        // 100 calls hedged after 30 ms: 40.93 ms, against 51.87 ms unhedged.
        let m = slowest_mean_ms(100, 10.0, Some(30.0));
        assert!((m - 40.93).abs() < 0.01, "{m}");
        assert_close!(
            slowest_mean_ms(100, 10.0, None),
            fanout_mean_ms(100, 10.0),
            1e-12
        );
        assert_eq!(slowest_mean_ms(100, 0.0, Some(0.0)), 0.0);
    }

    // --- the tail of a line whose service is a mix ---

    fn exp_shape(mean: f64) -> Shape {
        Shape {
            classes: vec![(
                1.0,
                Part {
                    mean_ms: mean,
                    dist: Dist::Exp,
                },
            )],
            then: vec![],
        }
    }

    #[test]
    fn inversion_gives_the_mmc_tail() {
        // Exponential service: the scaled M/G/1 wait is M/M/c's exactly.
        for (c, rho) in [(1, 0.5), (1, 0.9), (4, 0.8), (16, 0.95)] {
            let shape = exp_shape(10.0);
            let line = ShapedLine::new(c, &shape, rho).unwrap();
            let erlang = erlang_c(c, f64::from(c) * rho);
            for t in [1.0, 10.0, 50.0, 200.0] {
                let want = mmc_response_survival(c, 10.0, rho, erlang, t);
                assert!(
                    (line.survival(t) - want).abs() < 1e-7,
                    "c {c} ρ {rho} t {t}: {} vs {want}",
                    line.survival(t)
                );
            }
            assert_close!(
                shaped_then_delay_p99_ms(c, &shape, rho, &Delay::default()),
                mmc_response_percentile_ms(c, 10.0, rho, 0.99),
                1e-6
            );
        }
    }

    /// M/D/1's wait has an exact (Erlang) series:
    /// P(W ≤ t) = (1 − ρ) Σ_{k ≤ t/D} (λ(kD − t))^k / k! · e^(−λ(kD − t)).
    #[test]
    fn inversion_gives_the_md1_wait_away_from_its_jumps() {
        let (d, rho) = (10.0, 0.7);
        let lambda = rho / d;
        let shape = Shape {
            classes: vec![(
                1.0,
                Part {
                    mean_ms: d,
                    dist: Dist::Const,
                },
            )],
            then: vec![],
        };
        let line = ShapedLine::new(1, &shape, rho).unwrap();
        for w in [5.0, 15.0, 25.0, 37.0, 55.0] {
            let mut cdf = 0.0;
            let mut k = 0u32;
            while f64::from(k) * d <= w {
                let x = lambda * (f64::from(k) * d - w);
                let fact: f64 = (1..=k).map(f64::from).product();
                cdf += x.powi(k as i32) / fact * (-x).exp();
                k += 1;
            }
            let want = 1.0 - (1.0 - rho) * cdf;
            // R = W + D: P(R > w + D) = P(W > w).
            // M/D/1's wait has kinks at multiples of D, which slow the
            // inversion down near them: 1e-4 is far below what moves a p99.
            let got = line.survival(w + d);
            assert!((got - want).abs() < 1e-4, "w {w}: {got} vs {want}");
        }
    }

    /// Lesson 5's loops: 5 % of steps 200 ms, the rest 10 ms, both
    /// exponential, 25 rps a loop (ρ = 0.4875), a fixed 90 ms wait after.
    fn lesson_5_shape() -> Shape {
        Shape {
            classes: vec![
                (
                    0.95,
                    Part {
                        mean_ms: 10.0,
                        dist: Dist::Exp,
                    },
                ),
                (
                    0.05,
                    Part {
                        mean_ms: 200.0,
                        dist: Dist::Exp,
                    },
                ),
            ],
            then: vec![],
        }
    }

    #[test]
    fn a_mix_with_a_rare_heavy_class_has_a_long_tail() {
        let shape = lesson_5_shape();
        let rho = 0.025 * shape.mean_ms();
        let line = ShapedLine::new(1, &shape, rho).unwrap();
        // The inverted tail integrates to Pollaczek–Khinchine's exact mean.
        let ex2 = 0.95 * 200.0 + 0.05 * 80_000.0;
        let mean = 0.025 * ex2 / (2.0 * (1.0 - rho)) + shape.mean_ms();
        let integral = simpson(&|t| line.survival(t), 0.0, 6_000.0, 6_000);
        assert_close!(integral, mean, 1e-5);
        assert_close!(line.mean_ms(), mean, 1e-12);
        // The p99 with the wait: about 1,178 ms, where the exponential
        // tail of the same mean said 265 ms.
        let delay = Delay {
            fixed_ms: 90.0,
            ..Delay::default()
        };
        let p99 = shaped_then_delay_p99_ms(1, &shape, rho, &delay);
        assert!((p99 - 1178.0).abs() < 1.0, "{p99}");
        let old = mm1_response_percentile_ms(shape.mean_ms(), rho, 0.99) + 90.0;
        assert!((old - 265.2).abs() < 0.1, "{old}");
        // Above the service's own p99 (322 ms + 90 ms), which no line can lower.
        assert!(p99 > 322.0 + 90.0);
        // With no load it is the service's own p99: 0.05 e^(−t/200) +
        // 0.95 e^(−t/10) = 0.01 at t ≈ 321.9 ms.
        let alone = shaped_then_delay_p99_ms(1, &shape, 0.0, &Delay::default());
        let tail = 0.05 * (-alone / 200.0f64).exp() + 0.95 * (-alone / 10.0f64).exp();
        assert_close!(tail, 0.01, 1e-6);
    }

    /// Lesson 17's server: 1 ms fixed steps, one in 2,000 a fixed 1,000
    /// ms, 100 rps on one loop (ρ = 0.15). The fixed times are shifts, so
    /// the inverted tail does not ring at their jumps: it integrates to
    /// Pollaczek–Khinchine's mean, and its p99 is where the requests that
    /// arrive during a long step (about 5 % of them, waiting up to 1 s)
    /// thin out to 1 %.
    #[test]
    fn a_fixed_mix_is_inverted_without_ringing() {
        let part = |mean_ms| Part {
            mean_ms,
            dist: Dist::Const,
        };
        let shape = Shape {
            classes: vec![(0.9995, part(1.0)), (0.0005, part(1000.0))],
            then: vec![],
        };
        let rho = 0.1 * shape.mean_ms();
        let line = ShapedLine::new(1, &shape, rho).unwrap();
        let ex2 = 0.9995 + 0.0005 * 1e6;
        let mean = 0.1 * ex2 / (2.0 * (1.0 - rho)) + shape.mean_ms();
        // Split at the jumps (1 ms and 1,001 ms): the rule needs smooth
        // pieces. The wait's density jumps at 1 and 1,000 ms, which slows
        // the inversion near them (errors of about 1e-4 there, 1e-6 by the
        // p99): the mean is right to 0.1 %.
        let f = |t| line.survival(t);
        let integral = 1.0 + simpson(&f, 1.0, 1001.0, 20_000) + simpson(&f, 1001.0, 5001.0, 8_000);
        assert_close!(integral, mean, 1e-3);
        // Monotone, also right after the 1 ms jump.
        let s: Vec<f64> = [1.01, 1.5, 3.0, 10.0, 100.0, 500.0, 999.0, 1001.0, 2000.0]
            .iter()
            .map(|&t| line.survival(t))
            .collect();
        assert!(s.windows(2).all(|w| w[0] >= w[1] - 1e-9), "{s:?}");
        let p99 = shaped_then_delay_p99_ms(1, &shape, rho, &Delay::default());
        assert!((p99 - 858.0).abs() < 2.0, "{p99}");
    }

    #[test]
    fn a_line_then_the_slowest_calls_is_their_convolution() {
        // Exponential CPU at ρ → 0 (R exponential, mean 2 ms) and the
        // slowest of 100 calls hedged after 30 ms: the p99 found solves
        // P(R + D > t) = P(R > t) + ∫₀ᵗ f_R(r) P(D > t − r) dr = 1 %,
        // checked by Simpson's rule on the exact density.
        let delay = Delay {
            fixed_ms: 0.0,
            calls: 100,
            call_mean_ms: 10.0,
            hedge_after_ms: Some(30.0),
        };
        let p99 = mmc_then_delay_p99_ms(8, 2.0, 1e-12, &delay);
        let dens = |r: f64| (-r / 2.0f64).exp() / 2.0;
        let conv = (-p99 / 2.0f64).exp()
            + simpson(
                &|r| dens(r) * slowest_survival(100, 10.0, Some(30.0), p99 - r),
                0.0,
                p99,
                200_000,
            );
        assert!((conv - 0.01).abs() < 2e-6, "{conv}");
        // Between the calls' own p99 and the sum of the two p99s.
        let calls = slowest_quantile_ms(100, 10.0, Some(30.0), 0.99);
        assert!(p99 > calls && p99 < calls + 2.0 * 100f64.ln(), "{p99}");
        // The same through the inverted transform, and with a fixed time.
        let via = shaped_then_delay_p99_ms(8, &exp_shape(2.0), 1e-12, &delay);
        assert_close!(via, p99, 1e-5);
        let later = Delay {
            fixed_ms: 7.0,
            ..delay
        };
        assert_close!(
            mmc_then_delay_p99_ms(8, 2.0, 1e-12, &later),
            p99 + 7.0,
            1e-12
        );
        // One unhedged call: the closed form.
        let one = Delay {
            calls: 1,
            call_mean_ms: 25.0,
            hedge_after_ms: None,
            ..delay
        };
        assert_close!(
            mmc_then_delay_p99_ms(4, 10.0, 0.5, &one),
            mmc_then_wait_p99_ms(4, 10.0, 0.5, 25.0),
            1e-12
        );
        // The grid agrees with the closed form where both apply.
        let erlang = erlang_c(4, 2.0);
        let grid = p99_line_then_calls(
            &|t| mmc_response_survival(4, 10.0, 0.5, erlang, t),
            mmc_response_ms(4, 10.0, 0.5),
            &one,
        );
        assert_close!(grid, mmc_then_wait_p99_ms(4, 10.0, 0.5, 25.0), 1e-5);
        // Bad input: infinity, never NaN.
        assert_eq!(mmc_then_delay_p99_ms(4, 10.0, 1.0, &delay), f64::INFINITY);
        assert_eq!(
            shaped_then_delay_p99_ms(4, &exp_shape(10.0), 1.2, &delay),
            f64::INFINITY
        );
        assert_eq!(
            shaped_then_delay_p99_ms(0, &exp_shape(10.0), 0.5, &delay),
            f64::INFINITY
        );
    }
}
