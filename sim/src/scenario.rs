//! The scenario: everything that decides a run, in one flat struct shared
//! by the CLI, presets, URLs and lesson blocks.
//!
//! Each field is defined once, below, in the `scenario_fields!` list: its
//! type and default, label, unit, range, help, which scenarios use it and
//! the control that sets it. The struct, its `Default` and [`FIELDS`] are
//! written from that list, and every reader (validation, the CLI and `tellers
//! help`, URLs, the playground's controls, lesson sliders) reads [`FIELDS`].
//! Adding a field is one entry here plus the engine code that uses it.
//! [`Scenario::validate`] names every bad field and its allowed range.

use crate::fields::{Control, Group, Kind, UseRule};
use crate::schedule::Schedule;

/// Highest arrival rate, rps: the top of the `rps` field's range, and of
/// a load schedule's steps.
pub use crate::schedule::MAX_RPS;
/// Longest run, s: the top of the `duration_s` field's range, and the
/// latest a load schedule's step may start.
pub use crate::schedule::MAX_TIME_S as MAX_DURATION_S;
/// Lowest arrival rate, rps: the bottom of the `rps` field's range.
pub use crate::schedule::MIN_RPS;
use crate::{choice_enum, scenario_fields};
use serde::Serialize;
use std::fmt;

choice_enum! {
    /// How the server runs requests.
    pub enum Model {
        /// A new thread for each accepted request; `thread_cap` caps them (none = no cap).
        ThreadPerRequest = "thread-per-request", "Thread per request";
        /// `threads` threads and a FIFO line (`queue_limit`) in front of them.
        ThreadPool = "thread-pool", "Thread pool";
        /// `loops` event loops; CPU steps run to the end on their loop.
        EventLoop = "event-loop", "Event loop";
        /// Event loops that hand read steps (the CPU before the wait) of at
        /// least `offload_above_ms` to `workers` threads; writes stay on the loops.
        EventLoopWorkers = "event-loop-workers", "Event loop + worker pool";
    }
}

impl Model {
    /// Are requests served by event loops (with or without a worker pool)?
    pub const fn has_loops(self) -> bool {
        matches!(self, Model::EventLoop | Model::EventLoopWorkers)
    }
}

choice_enum! {
    /// How new connections are spread over event loops.
    pub enum Accept {
        /// Each connection is pinned to the next loop in turn.
        RoundRobin = "round-robin", "In turn (round robin)";
        /// Each connection is pinned to a loop chosen at random.
        Random = "random", "At random";
        /// One shared line of ready steps: any free loop takes the next one.
        Shared = "shared", "One shared line";
        /// Connections wait in the listen line for a loop to accept and keep
        /// them: an idle loop (the one that became idle last, as epoll wakes
        /// it) takes one at once, and a busy one takes one each time it looks
        /// for ready connections again, after the steps it found at its last look.
        Idlest = "idlest", "The idle loop accepts more";
    }
}

choice_enum! {
    /// The shape of a per-request time.
    pub enum Dist {
        /// Exponential with that mean.
        Exp = "exp", "Random (exponential)";
        /// Always the mean.
        Const = "const", "Always the same";
    }
}

choice_enum! {
    /// Which waiting request a free thread takes.
    pub enum Discipline {
        /// Oldest first.
        Fifo = "fifo", "Oldest first (FIFO)";
        /// Newest first.
        Lifo = "lifo", "Newest first (LIFO)";
        /// Oldest first while the oldest has waited less than `lifo_above_ms`, then newest first.
        AdaptiveLifo = "adaptive-lifo", "Adaptive: newest first once the line is old";
    }
}

choice_enum! {
    /// How requests arrive.
    pub enum Arrivals {
        /// Open: Poisson at `rps`.
        Poisson = "poisson", "Random (Poisson) at a rate";
        /// Open: evenly spaced at `rps`.
        Uniform = "uniform", "Evenly spaced at a rate";
        /// `count` requests all at t = 0.
        Batch = "batch", "A batch, all at once";
        /// Closed: `clients` clients, each sending its next request `think_ms`
        /// after the previous answer came back (or after it gave up).
        Closed = "closed", "Closed loop of clients";
    }
}

/// Which scenarios use a field. A field that is not used is not shown (the
/// pool size means nothing to an event loop); it is still validated, so a
/// scenario never carries a value no reader could show.
#[derive(Clone, Copy, Debug)]
pub enum Used {
    /// Every scenario.
    Always,
    /// Scenarios with one of these models.
    Models(&'static [Model]),
    /// Scenarios with one of these arrival processes.
    Arrivals(&'static [Arrivals]),
    /// Scenarios for which the test holds, described in words.
    If(fn(&Scenario) -> bool, &'static str),
}

impl UseRule<Scenario> for Used {
    fn by(&self, s: &Scenario) -> bool {
        match self {
            Used::Always => true,
            Used::Models(m) => m.contains(&s.model),
            Used::Arrivals(a) => a.contains(&s.arrivals),
            Used::If(test, _) => test(s),
        }
    }

    fn describe(&self) -> String {
        match self {
            Used::Always => "every scenario".to_owned(),
            Used::Models(m) => m.iter().map(|m| m.name()).collect::<Vec<_>>().join(", "),
            Used::Arrivals(a) => format!(
                "arrivals {}",
                a.iter().map(|a| a.name()).collect::<Vec<_>>().join(", ")
            ),
            Used::If(_, words) => (*words).to_owned(),
        }
    }
}

/// One scenario field (see [`crate::fields::Field`]).
pub type Field = crate::fields::Field<Scenario, Used>;

const LOOP_MODELS: &[Model] = &[Model::EventLoop, Model::EventLoopWorkers];

/// Loops that hand a step to their workers by its cost: with heavy steps
/// offloaded by kind, the cost threshold changes nothing.
fn offloads_by_cost(s: &Scenario) -> bool {
    s.model == Model::EventLoopWorkers && !s.offload_heavy
}

/// A batch is measured from its start: a warm-up share changes nothing.
fn not_a_batch(s: &Scenario) -> bool {
    s.arrivals != Arrivals::Batch
}
const OPEN: &[Arrivals] = &[Arrivals::Poisson, Arrivals::Uniform];
const fn slider(min: f64, max: f64, step: f64) -> Control {
    Control::Slider { min, max, step }
}
const fn int(min: u64, max: u64) -> Kind {
    Kind::Int { min, max }
}
const fn real(min: f64, max: f64) -> Kind {
    Kind::Real { min, max }
}

/// Does `s` have a line of requests waiting for a thread (a pool, or a
/// capped thread per request)? The discipline orders it.
pub(crate) fn has_thread_line(s: &Scenario) -> bool {
    match s.model {
        Model::ThreadPool => true,
        Model::ThreadPerRequest => s.thread_cap.is_some(),
        Model::EventLoop | Model::EventLoopWorkers => false,
    }
}

/// Does `s` use a line limit? A pool's line, the line in front of a capped
/// thread-per-request server, and the listen line of loops where the idle loop accepts more.
pub(crate) fn has_line(s: &Scenario) -> bool {
    match s.model {
        Model::ThreadPool => true,
        Model::ThreadPerRequest => s.thread_cap.is_some(),
        Model::EventLoop | Model::EventLoopWorkers => s.accept == Accept::Idlest,
    }
}

scenario_fields! {
    /// One scenario. Times are in the unit their name says; `Option` fields
    /// are off when `None`.
    pub struct Scenario;

    // --- server ---
    model: Model = Model::ThreadPool => {
        group: Group::Server,
        label: "Concurrency model", unit: "", kind: Kind::Choice(Model::CHOICES),
        used: Used::Always, control: Control::Select, playground: true,
        help: "How the server runs requests: a thread per request, a thread pool, event loops, or event loops with a worker pool.",
    }
    cores: u32 = 4 => {
        group: Group::Server,
        label: "Cores", unit: "cores", kind: int(1, 1024),
        used: Used::Always, control: slider(1.0, 64.0, 1.0), playground: true,
        help: "CPU cores the server has.",
    }
    threads: u32 = 20 => {
        group: Group::Server,
        label: "Pool size", unit: "threads", kind: int(1, 100_000),
        used: Used::Models(&[Model::ThreadPool]), control: slider(1.0, 400.0, 1.0), playground: true,
        help: "Threads in the pool (thread pool).",
    }
    thread_cap: Option<u32> = None => {
        group: Group::Server,
        label: "Thread cap (0 = no cap)", unit: "threads", kind: int(1, 100_000),
        used: Used::Models(&[Model::ThreadPerRequest]), control: slider(0.0, 400.0, 1.0), playground: true,
        help: "Most threads at once (thread per request); by default none: no cap, a thread for every request.",
    }
    queue_limit: Option<u32> = None => {
        group: Group::Server,
        label: "Line limit (0 = no limit)", unit: "requests", kind: int(1, 10_000_000),
        used: Used::If(has_line, "thread pool; thread per request with a cap; event loops where the idle loop accepts more"),
        control: slider(0.0, 2000.0, 1.0), playground: true,
        help: "Longest line before new requests are refused; none = no limit.",
    }
    loops: u32 = 0 => {
        group: Group::Server,
        label: "Event loops (0 = one per core)", unit: "loops", kind: int(0, 1024),
        used: Used::Models(LOOP_MODELS), control: slider(0.0, 64.0, 1.0), playground: true,
        help: "Event loops; 0 = one per core.",
    }
    accept: Accept = Accept::RoundRobin => {
        group: Group::Server,
        label: "New connections go to a loop", unit: "", kind: Kind::Choice(Accept::CHOICES),
        used: Used::Models(LOOP_MODELS), control: Control::Select, playground: true,
        help: "How new connections are spread over the event loops.",
    }
    workers: u32 = 4 => {
        group: Group::Server,
        label: "Worker threads", unit: "threads", kind: int(1, 10_000),
        used: Used::Models(&[Model::EventLoopWorkers]), control: slider(1.0, 64.0, 1.0), playground: true,
        help: "Worker threads beside the loops (event loop + worker pool).",
    }
    offload_above_ms: f64 = 5.0 => {
        group: Group::Server,
        label: "Hand read steps of at least this to workers", unit: "ms", kind: real(0.0, 600_000.0),
        used: Used::If(offloads_by_cost, "event loop + workers, unless heavy steps are offloaded by kind"), control: slider(0.0, 100.0, 0.5), playground: true,
        help: "A request's read step (its CPU before the wait) costing at least this many ms goes to the workers (0 = all); its write step (write_ms) stays on the loop.",
    }
    offload_heavy: bool = false => {
        group: Group::Server,
        label: "Hand every heavy request's read step to the workers", unit: "", kind: Kind::Switch,
        used: Used::Models(&[Model::EventLoopWorkers]), control: Control::Toggle, playground: false,
        help: "Offload by class instead: every read step of the heavy class goes to the workers, whatever it costs (the server knows which requests need the slow work, not how long it will take).",
    }
    handoff_ms: f64 = 0.05 => {
        group: Group::Server,
        label: "Hand-off cost on the loop", unit: "ms", kind: real(0.0, 1_000.0),
        used: Used::Models(&[Model::EventLoopWorkers]), control: slider(0.0, 10.0, 0.05), playground: true,
        help: "Loop CPU time, ms, to hand a step over and take its result back.",
    }
    pool_per_loop: bool = false => {
        group: Group::Server,
        label: "A worker pool per loop (as NGINX worker processes)", unit: "", kind: Kind::Switch,
        used: Used::Models(&[Model::EventLoopWorkers]), control: Control::Toggle, playground: true,
        help: "Event loop + workers: each loop has its own pool of `workers` threads, as each NGINX worker process owns its thread pool; off = one pool shared by all loops.",
    }
    spawn_ms: f64 = 0.05 => {
        group: Group::Server,
        label: "CPU to create a thread", unit: "ms", kind: real(0.0, 1_000.0),
        used: Used::Models(&[Model::ThreadPerRequest]), control: slider(0.0, 5.0, 0.05), playground: false,
        help: "CPU time, ms, to create a thread (thread per request).",
    }
    time_slice_ms: f64 = 4.0 => {
        group: Group::Server,
        label: "Time slice", unit: "ms", kind: real(0.1, 1_000.0),
        used: Used::Always, control: slider(0.1, 50.0, 0.1), playground: false,
        help: "Time slice, ms, when more threads want the CPU than there are cores.",
    }
    switch_us: f64 = 5.0 => {
        group: Group::Server,
        label: "Cost of a context switch", unit: "µs", kind: real(0.0, 10_000.0),
        used: Used::Always, control: slider(0.0, 100.0, 1.0), playground: false,
        help: "CPU cost of one context switch, µs.",
    }
    max_connections: Option<u32> = None => {
        group: Group::Server,
        label: "Most open connections (0 = no limit)", unit: "connections", kind: int(1, 10_000_000),
        // Steps of 1,024, the usual unit of a file-descriptor limit: the
        // thumb lands on lesson 6's 1,024 (steps of 100 showed it at 1,000
        // and moved it to 1,100) and on 10,240, past its 10,000 in flight.
        used: Used::Always, control: slider(0.0, 102_400.0, 1024.0), playground: false,
        help: "Most open connections (file descriptors); none = no limit.",
    }
    stack_reserved_kb: f64 = 1000.0 => {
        group: Group::Server,
        label: "Stack set aside per thread", unit: "KB", kind: real(0.0, 1_048_576.0),
        used: Used::Always, control: slider(0.0, 8000.0, 10.0), playground: false,
        help: "Stack set aside per thread, KB (1 MB = 1,000 KB in reports).",
    }
    stack_used_kb: f64 = 100.0 => {
        group: Group::Server,
        label: "Stack really used per thread", unit: "KB", kind: real(0.0, 1_048_576.0),
        used: Used::Always, control: slider(0.0, 1000.0, 1.0), playground: false,
        help: "Stack really used per thread, KB (at most the stack set aside).",
    }
    conn_state_kb: f64 = 10.0 => {
        group: Group::Server,
        label: "State kept per connection", unit: "KB", kind: real(0.0, 1_048_576.0),
        used: Used::Models(LOOP_MODELS), control: slider(0.0, 100.0, 1.0), playground: false,
        help: "State an event loop keeps per open connection, KB.",
    }

    // --- workload ---
    cpu_ms: f64 = 10.0 => {
        group: Group::Workload,
        label: "CPU per request (read + compute)", unit: "ms", kind: real(0.0, 600_000.0),
        used: Used::Always, control: slider(0.0, 200.0, 0.5), playground: true,
        help: "Mean CPU time to read and compute, ms (the light class).",
    }
    cpu_dist: Dist = Dist::Exp => {
        group: Group::Workload,
        label: "CPU times are", unit: "", kind: Kind::Choice(Dist::CHOICES),
        used: Used::Always, control: Control::Select, playground: true,
        help: "Shape of the CPU times: exponential around the mean, or always the mean.",
    }
    heavy_share: f64 = 0.0 => {
        group: Group::Workload,
        label: "Share of heavy requests", unit: "", kind: real(0.0, 1.0),
        used: Used::Always, control: slider(0.0, 1.0, 0.01), playground: true,
        help: "Share of requests in the heavy class, 0–1.",
    }
    heavy_cpu_ms: f64 = 100.0 => {
        group: Group::Workload,
        label: "CPU per heavy request", unit: "ms", kind: real(0.0, 600_000.0),
        used: Used::If(|s| s.heavy_share > 0.0, "scenarios with heavy requests (heavy_share above 0)"),
        control: slider(0.0, 500.0, 1.0), playground: true,
        help: "Mean read + compute CPU time of the heavy class, ms.",
    }
    wait_ms: f64 = 90.0 => {
        group: Group::Workload,
        label: "Wait off the CPU (database, disk)", unit: "ms", kind: real(0.0, 3_600_000.0),
        used: Used::Always, control: slider(0.0, 1000.0, 1.0), playground: true,
        help: "Mean wait off the CPU (database, disk, another service), ms.",
    }
    wait_dist: Dist = Dist::Exp => {
        group: Group::Workload,
        label: "Wait times are", unit: "", kind: Kind::Choice(Dist::CHOICES),
        used: Used::Always, control: Control::Select, playground: true,
        help: "Shape of the wait times: exponential around the mean, or always the mean.",
    }
    write_ms: f64 = 0.0 => {
        group: Group::Workload,
        label: "CPU to write the answer", unit: "ms", kind: real(0.0, 600_000.0),
        used: Used::Always, control: slider(0.0, 50.0, 0.5), playground: true,
        help: "Mean CPU time to write the answer, ms (shaped like the CPU times).",
    }

    // --- arrivals ---
    arrivals: Arrivals = Arrivals::Poisson => {
        group: Group::Arrivals,
        label: "How requests arrive", unit: "", kind: Kind::Choice(Arrivals::CHOICES),
        used: Used::Always, control: Control::Select, playground: true,
        help: "Arrival process: random (Poisson) or evenly spaced at a rate, one batch at t = 0, or a closed loop of clients.",
    }
    rps: f64 = 150.0 => {
        group: Group::Arrivals,
        label: "Arrival rate", unit: "rps", kind: real(MIN_RPS, MAX_RPS),
        used: Used::If(|s| OPEN.contains(&s.arrivals) && s.rps_schedule.is_none(), "open arrivals without a load schedule (the schedule sets the rate)"),
        control: slider(1.0, 2000.0, 1.0), playground: true,
        help: "Arrival rate of open arrivals, requests per second (a load schedule, when set, gives the rate instead).",
    }
    rps_schedule: Option<Schedule> = None => {
        group: Group::Arrivals,
        label: "Load schedule", unit: "", kind: Kind::Schedule,
        used: Used::Arrivals(OPEN), control: Control::ScheduleEditor, playground: true,
        help: "The arrival rate over time, time_s:rps pairs from 0 in increasing order (0:150,10:400,15:150 = 150 rps, 400 from 10 s, 150 again from 15 s); overrides rps for open arrivals; none = the steady rps.",
    }
    count: u32 = 1000 => {
        group: Group::Arrivals,
        // At most the requests the engine keeps inside at once
        // (engine::MAX_IN_FLIGHT): a batch all arrives at t = 0.
        label: "Requests in the batch", unit: "requests", kind: int(1, 1_000_000),
        used: Used::Arrivals(&[Arrivals::Batch]), control: slider(1.0, 10_000.0, 1.0), playground: true,
        help: "Requests in a batch, all arriving at t = 0.",
    }
    clients: u32 = 10 => {
        group: Group::Arrivals,
        label: "Clients", unit: "clients", kind: int(1, 100_000),
        used: Used::Arrivals(&[Arrivals::Closed]), control: slider(1.0, 1000.0, 1.0), playground: true,
        help: "Clients in a closed loop, each one connection (held while it thinks) sending its next request once its last is answered (or, with a timeout, once it gives up on it and resets its connection, while the abandoned one may still be inside); on event loops each client stays on the loop that first accepted it.",
    }
    conn_requests: u32 = 1 => {
        group: Group::Arrivals,
        label: "Requests per connection (keep-alive)", unit: "requests", kind: int(1, 100_000),
        used: Used::Arrivals(OPEN), control: slider(1.0, 1000.0, 1.0), playground: true,
        help: "Keep-alive: open arrivals become new connections at rps ÷ N per second, each sending N requests one after another (the next think_ms after the previous answer), with event loops pinned to the loop that accepted the connection (not with a shared line); 1 = a new connection per request. A run starts with none open, so the arrivals reach rps only once the first connections have sent all theirs, about N × (think + service) in.",
    }
    think_ms: f64 = 0.0 => {
        group: Group::Arrivals,
        label: "Think time between requests", unit: "ms", kind: real(0.0, 3_600_000.0),
        used: Used::If(|s| s.arrivals == Arrivals::Closed || s.conn_requests > 1, "closed clients; keep-alive connections"),
        control: slider(0.0, 5000.0, 10.0), playground: true,
        help: "Think time between an answer and the next request of the same client or connection, ms.",
    }

    // --- beyond one box ---
    dep_concurrency: Option<u32> = None => {
        group: Group::Dependency,
        label: "Dependency: calls it serves at once (0 = no limit)", unit: "calls", kind: int(1, 100_000),
        used: Used::Always, control: slider(0.0, 200.0, 1.0), playground: true,
        help: "The dependency behind the wait step (a database, another service) serves at most K calls at once; more wait there in order, and the wait time becomes its service time; none = no limit, a pure delay.",
    }
    dep_pool: Option<u32> = None => {
        group: Group::Dependency,
        label: "Connections to the dependency (0 = no limit)", unit: "connections", kind: int(1, 100_000),
        used: Used::Always, control: slider(0.0, 200.0, 1.0), playground: true,
        help: "Connections the server holds to the dependency: a call first takes a free one and waits in line for one if none is free; a thread that waits for a connection stays held; none = no limit.",
    }
    fan_out: u32 = 1 => {
        group: Group::Dependency,
        label: "Calls per request (fan-out)", unit: "calls", kind: int(1, 1000),
        used: Used::Always, control: slider(1.0, 200.0, 1.0), playground: true,
        help: "The wait step makes N calls at once, each with its own connection, dependency slot and time; the step ends when all have answered.",
    }
    hedge_after_ms: Option<f64> = None => {
        group: Group::Dependency,
        label: "Hedge: send a call again after (0 = never)", unit: "ms", kind: real(0.001, 3_600_000.0),
        used: Used::Always, control: slider(0.0, 1000.0, 1.0), playground: true,
        help: "A call still unanswered after this many ms is sent again and the first answer wins; the slower copy is not cancelled: it still finishes and holds its connection and slot. none = never.",
    }

    // --- callers ---
    timeout_ms: Option<f64> = None => {
        group: Group::Callers,
        label: "Caller gives up after (0 = never)", unit: "ms", kind: real(0.001, 3_600_000.0),
        used: Used::Always, control: slider(0.0, 20_000.0, 100.0), playground: true,
        help: "The caller gives up after this many ms; none = waits for ever. The server still serves a request whose caller has gone, even one still in line, unless such requests are set to be dropped.",
    }
    retries: u32 = 0 => {
        group: Group::Callers,
        label: "Retries after a failed try", unit: "retries", kind: int(0, 10),
        used: Used::Always, control: slider(0.0, 10.0, 1.0), playground: true,
        help: "How many times a caller tries again after a try times out or is refused, shed or dropped (0 = never). A retry arrives like any request; the abandoned try may still be inside.",
    }
    retry_backoff_ms: f64 = 100.0 => {
        group: Group::Callers,
        label: "Backoff before a retry (doubles each time)", unit: "ms", kind: real(0.0, 600_000.0),
        used: Used::If(|s| s.retries > 0, "scenarios with retries"), control: slider(0.0, 5000.0, 10.0), playground: true,
        help: "Exponential backoff with full jitter, ms: the k-th retry waits a uniform time in [0, X × 2^(k−1)].",
    }
    retry_budget: Option<f64> = None => {
        group: Group::Callers,
        label: "Retry budget: tokens per success (0 = no budget)", unit: "tokens", kind: real(0.001, 10.0),
        used: Used::If(|s| s.retries > 0, "scenarios with retries"), control: slider(0.0, 1.0, 0.01), playground: true,
        help: "A token bucket: each successful call earns this many tokens (at most 10 held, 10 at the start), each retry spends one; no token, no retry. none = no budget.",
    }
    breaker_after: Option<u32> = None => {
        group: Group::Callers,
        label: "Circuit breaker: open after failures in a row (0 = none)", unit: "failures", kind: int(1, 100_000),
        used: Used::Always, control: slider(0.0, 100.0, 1.0), playground: true,
        help: "The callers' circuit breaker opens after this many tries in a row fail (timed out, refused, shed or dropped). While open, calls and retries fail at once without reaching the server; after breaker_open_ms one call goes through as a trial: an answer in time closes the breaker, a failure opens it again. none = no breaker.",
    }
    breaker_open_ms: f64 = 1000.0 => {
        group: Group::Callers,
        label: "Circuit breaker stays open for", unit: "ms", kind: real(0.0, 3_600_000.0),
        used: Used::If(|s| s.breaker_after.is_some(), "scenarios with a circuit breaker"), control: slider(0.0, 10_000.0, 100.0), playground: true,
        help: "How long an open circuit breaker fails calls at once, ms, before it lets one trial call through; 0: the next call is the trial, and others still fail at once while it is out.",
    }

    // --- when overloaded ---
    discipline: Discipline = Discipline::Fifo => {
        group: Group::Overload,
        label: "Which waiting request a free thread takes", unit: "", kind: Kind::Choice(Discipline::CHOICES),
        used: Used::If(has_thread_line, "thread pool; thread per request with a cap"),
        control: Control::Select, playground: true,
        help: "The line's order: oldest first (fifo), newest first (lifo), or oldest first until the oldest has waited lifo_above_ms, then newest first (adaptive-lifo).",
    }
    lifo_above_ms: f64 = 100.0 => {
        group: Group::Overload,
        label: "Adaptive LIFO: newest first once the oldest waited", unit: "ms", kind: real(0.0, 3_600_000.0),
        used: Used::If(|s| has_thread_line(s) && s.discipline == Discipline::AdaptiveLifo, "the adaptive-lifo discipline, where threads take from a line"),
        control: slider(0.0, 5000.0, 10.0), playground: true,
        help: "With adaptive-lifo: while the oldest request has waited less than this many ms the line is served oldest first, after that newest first.",
    }
    shed_after_ms: Option<f64> = None => {
        group: Group::Overload,
        label: "Shed requests that waited longer than (0 = never)", unit: "ms", kind: real(0.001, 3_600_000.0),
        used: Used::Always, control: slider(0.0, 10_000.0, 100.0), playground: true,
        help: "A request that has waited more than this many ms in line is dropped when a thread or loop would take it, and its caller told at once (counted as shed); none = never.",
    }
    drop_hopeless: bool = false => {
        group: Group::Overload,
        label: "Drop requests that cannot finish in time", unit: "", kind: Kind::Switch,
        used: Used::If(|s| s.timeout_ms.is_some(), "scenarios with a caller timeout"),
        control: Control::Toggle, playground: true,
        help: "With a timeout: a request whose caller has less time left than the mean service time (CPU + wait) is dropped when a thread or loop would take it, and its caller told at once.",
    }
    drop_abandoned: bool = false => {
        group: Group::Overload,
        label: "Drop requests whose caller has gone", unit: "", kind: Kind::Switch,
        used: Used::If(|s| s.timeout_ms.is_some(), "scenarios with a caller timeout"),
        control: Control::Toggle, playground: true,
        help: "Drop a request whose caller has gone before starting it.",
    }

    // --- the run ---
    requests: Option<u64> = None => {
        group: Group::Run,
        label: "Stop arrivals after", unit: "requests", kind: int(1, 100_000_000),
        used: Used::Always, control: Control::None, playground: false,
        help: "Stop arrivals after this many requests and run until all are done or the run length ends, whichever comes first; none = arrivals go on until the run ends.",
    }
    duration_s: f64 = 60.0 => {
        group: Group::Run,
        label: "Run length", unit: "s", kind: real(0.001, MAX_DURATION_S),
        used: Used::Always, control: slider(1.0, 600.0, 1.0), playground: true,
        help: "End the run at this simulated time, s (what falls at that very instant, such as a timeout, is after the end).",
    }
    warmup: f64 = 0.1 => {
        group: Group::Run,
        label: "Warm-up share", unit: "", kind: real(0.0, 0.9),
        used: Used::If(not_a_batch, "every scenario but a batch"), control: Control::None, playground: false,
        help: "Fraction of an open run discarded as warm-up, 0–0.9: that share of the run length, or, with a number of requests, that share of them if they arrive sooner. A closed loop or a batch is measured from the start, but a closed loop's line growth from this share of the run on.",
    }
    max_events: u64 = 200_000_000 => {
        group: Group::Run,
        label: "Event budget", unit: "events", kind: int(1, MAX_EVENTS),
        used: Used::Always, control: Control::None, playground: false,
        help: "Most events before the run is stopped.",
    }
    seed: u64 = 1 => {
        group: Group::Run,
        label: "Seed (same seed, same run)", unit: "", kind: int(0, u64::MAX),
        used: Used::Always, control: Control::NumberBox, playground: true,
        help: "Seed of the random generator: the same seed gives the same run.",
    }
}

/// One bad field: its name (as in JSON) and what is wrong and allowed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct FieldError {
    /// Field name, `snake_case` as in JSON.
    pub field: String,
    /// What is wrong and what is allowed.
    pub message: String,
}

impl fmt::Display for FieldError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.field, self.message)
    }
}

/// Upper bound on the work a scenario can ask for, so every run is finite.
pub const MAX_EVENTS: u64 = 2_000_000_000;

impl Scenario {
    /// Each field checked on its own against its range (the first part of
    /// [`Scenario::validate`], which then checks the fields against each
    /// other).
    pub fn field_errors(&self) -> Vec<FieldError> {
        FIELDS
            .iter()
            .filter_map(|f| {
                f.check((f.get)(self)).err().map(|message| FieldError {
                    field: f.name.to_owned(),
                    message,
                })
            })
            .collect()
    }

    /// Every bad field, with its allowed range. Empty when the scenario can run.
    pub fn validate(&self) -> Vec<FieldError> {
        let mut e = self.field_errors();
        let s = self;
        if s.stack_used_kb.is_finite()
            && s.stack_reserved_kb.is_finite()
            && s.stack_used_kb > s.stack_reserved_kb
        {
            e.push(FieldError {
                field: "stack_used_kb".into(),
                message: format!(
                    "{} KB is more than the {} KB of stack set aside per thread: a thread cannot use more stack than it has",
                    // As typed, grouped: 100.4 KB is not "100 KB".
                    crate::text::typed(s.stack_used_kb),
                    crate::text::typed(s.stack_reserved_kb)
                ),
            });
        }
        // Clients that send again the moment they are answered, with
        // requests that take no time, would send without end at one
        // instant, unless a number of requests ends the run. "No time" is
        // as the engine counts it: under half a nanosecond rounds to 0.
        let no_time = |ms: f64| ms * 1e6 < 0.5;
        let spawns = s.model == Model::ThreadPerRequest && !no_time(s.spawn_ms);
        if s.arrivals == Arrivals::Closed
            && s.requests.is_none()
            && no_time(s.think_ms)
            && no_time(s.mean_service_ms())
            && !spawns
        {
            e.push(FieldError {
                field: "think_ms".into(),
                message: "closed clients with no think time need requests that take some time: set a think time above 0 ms, or a CPU or wait time above 0".into(),
            });
        }
        // A pool for each loop multiplies: 1,024 loops of 10,000 workers
        // are ten million threads, which took a second to set up and 100
        // to 200 ms a frame. At most what one pool of threads may have.
        let most = Scenario::field("threads").map_or(f64::INFINITY, Field::max);
        let workers = f64::from(s.workers) * f64::from(s.loop_count());
        if s.model == Model::EventLoopWorkers && s.pool_per_loop && workers > most {
            e.push(FieldError {
                field: "workers".into(),
                message: format!(
                    "{} loops × {} workers each is {} worker threads, more than the {} threads a pool may have: fewer workers or loops, or one pool for all the loops",
                    crate::text::fmt_count(f64::from(s.loop_count())),
                    crate::text::fmt_count(f64::from(s.workers)),
                    crate::text::fmt_count(workers),
                    crate::text::fmt_count(most),
                ),
            });
        }
        e
    }

    /// The field called `name` (`snake_case`), if there is one.
    pub fn field(name: &str) -> Option<&'static Field> {
        FIELDS.iter().find(|f| f.name == name)
    }

    /// The most threads that can hold requests at once: the pool's size, a
    /// thread-per-request server's cap; `None` when nothing caps them (no
    /// cap, or event loops, which do not hold a thread while a request waits).
    pub fn thread_limit(&self) -> Option<u32> {
        match self.model {
            Model::ThreadPool => Some(self.threads),
            Model::ThreadPerRequest => self.thread_cap,
            Model::EventLoop | Model::EventLoopWorkers => None,
        }
    }

    /// True when a line for a thread is served newest first (LIFO, or
    /// adaptive LIFO once its oldest has waited past the threshold). The
    /// requests served then wait little however long the line grows, while
    /// the oldest wait at its back: the p99 formulas, which are for oldest
    /// first, do not fit, and overloaded no response time grows without
    /// limit.
    pub fn newest_first(&self) -> bool {
        self.discipline != Discipline::Fifo && has_thread_line(self)
    }

    /// Whether the model keeps `conn_state_kb` of state per open connection
    /// apart from its stacks (event loops; a thread's connection lives on
    /// its stack): the engine's memory in use, the figures' row and the
    /// CLI's line all ask here, by the field's own rule.
    pub fn keeps_connection_state(&self) -> bool {
        use crate::fields::UseRule;
        Scenario::field("conn_state_kb").is_some_and(|f| f.used.by(self))
    }

    /// Cores the model can keep busy: all of them for threads; one per loop
    /// for event loops (a loop runs on one core at a time), plus the worker
    /// threads ([`Scenario::worker_threads`]) beside the loops.
    pub fn usable_cores(&self) -> f64 {
        let cores = f64::from(self.cores);
        let loops = f64::from(self.loop_count());
        match self.model {
            Model::ThreadPool | Model::ThreadPerRequest => cores,
            Model::EventLoop => cores.min(loops),
            Model::EventLoopWorkers => cores.min(loops + f64::from(self.worker_threads())),
        }
    }

    /// Worker threads beside the loops (event loop + workers): `workers`,
    /// or `workers` for each loop with `pool_per_loop`; 0 for other models.
    pub fn worker_threads(&self) -> u32 {
        match (self.model, self.workers_per_loop()) {
            (Model::EventLoopWorkers, 0) => self.workers,
            (_, per_loop) => per_loop.saturating_mul(self.loop_count()),
        }
    }

    /// Worker threads in each loop's own pool: `workers` with
    /// `pool_per_loop` beside loops; 0 with one shared pool or no workers.
    pub fn workers_per_loop(&self) -> u32 {
        if self.model == Model::EventLoopWorkers && self.pool_per_loop {
            self.workers
        } else {
            0
        }
    }

    /// The open arrival rate theory describes, rps: the load schedule's
    /// first step when there is one (the load before any change), else `rps`.
    pub fn steady_rps(&self) -> f64 {
        self.rps_schedule.map_or(self.rps, |s| s.base_rps())
    }

    /// True when the arrivals stop by themselves (a batch, or a number of
    /// requests), so the run ends once every request is done and the run
    /// length is only a bound on it.
    pub fn ends_when_done(&self) -> bool {
        self.arrivals == Arrivals::Batch || self.requests.is_some()
    }

    /// Loops actually run: `loops`, or one per core when 0.
    pub fn loop_count(&self) -> u32 {
        if self.loops == 0 {
            self.cores
        } else {
            self.loops
        }
    }

    /// Mean CPU time of one request over both classes, ms.
    pub fn mean_cpu_ms(&self) -> f64 {
        (1.0 - self.heavy_share) * self.cpu_ms
            + self.heavy_share * self.heavy_cpu_ms
            + self.write_ms
    }

    /// Mean time a request spends being served (CPU + wait), ms, with no line.
    pub fn mean_service_ms(&self) -> f64 {
        self.mean_cpu_ms() + self.wait_ms
    }

    /// Parse a scenario from JSON, turning serde's message into a field error.
    pub fn from_json(text: &str) -> Result<Scenario, Vec<FieldError>> {
        let s = Scenario::from_json_fields(text)?;
        let errs = s.validate();
        if errs.is_empty() {
            Ok(s)
        } else {
            Err(errs)
        }
    }

    /// Reads a scenario from JSON with each field checked on its own (type
    /// and range), but not yet against the others ([`Scenario::validate`]):
    /// for a reader that sets more fields before it validates, as the CLI's
    /// flags do on top of a file.
    pub fn from_json_fields(text: &str) -> Result<Scenario, Vec<FieldError>> {
        // Some editors start a file with a byte-order mark, which is not JSON.
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        if text.trim().is_empty() {
            return Err(vec![FieldError {
                field: "scenario".into(),
                message: "the file is empty; a scenario file is a JSON object of fields, such as {\"rps\": 200}".into(),
            }]);
        }
        let s: Scenario = crate::fields::read_text(FIELDS, text).map_err(|err| {
            // A field's own message ("cores: true is not a whole number; …")
            // is said as a range the validation finds wrong is, by the
            // field; what names no field (JSON's syntax, a key that is no
            // field, a key given twice) is the file's.
            vec![match err.field {
                Some(name) => FieldError {
                    field: name.into(),
                    message: err.message,
                },
                None => FieldError {
                    field: "scenario".into(),
                    message: format!("not a valid scenario: {}", err.message),
                },
            }]
        })?;
        let errs = s.field_errors();
        if errs.is_empty() {
            Ok(s)
        } else {
            Err(errs)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn usable_cores_count_a_pool_per_loop_once_per_loop() {
        // 4 loops with a worker each on 16 cores: 8 threads can run, not 5.
        let s = Scenario {
            model: Model::EventLoopWorkers,
            cores: 16,
            loops: 4,
            workers: 1,
            pool_per_loop: true,
            ..Scenario::default()
        };
        assert_eq!(s.worker_threads(), 4);
        assert_eq!(s.usable_cores(), 8.0);
        // One shared pool: 4 loops + 1 worker.
        let shared = Scenario {
            pool_per_loop: false,
            ..s.clone()
        };
        assert_eq!(shared.worker_threads(), 1);
        assert_eq!(shared.usable_cores(), 5.0);
        // Never more than the cores.
        let few = Scenario { cores: 6, ..s };
        assert_eq!(few.usable_cores(), 6.0);
    }

    /// A pool for each loop may not make more threads than one pool may
    /// have (the stress review's 1,024 loops of 10,000 workers each froze
    /// the page); one shared pool of as many is fine.
    #[test]
    fn pools_per_loop_have_at_most_a_pools_threads_in_all() {
        let s = Scenario {
            model: Model::EventLoopWorkers,
            cores: 1024,
            loops: 1024,
            workers: 10_000,
            pool_per_loop: true,
            ..Scenario::default()
        };
        let e = s.validate();
        assert_eq!(e.len(), 1, "{e:?}");
        assert_eq!(e[0].field, "workers");
        assert_eq!(
            e[0].message,
            "1,024 loops × 10,000 workers each is 10,240,000 worker threads, more than the 100,000 threads a pool may have: fewer workers or loops, or one pool for all the loops"
        );
        assert!(Scenario {
            workers: 97,
            ..s.clone()
        }
        .validate()
        .is_empty());
        assert!(Scenario {
            pool_per_loop: false,
            ..s
        }
        .validate()
        .is_empty());
    }

    /// The arrival rate's and the run length's ranges are the table's, and
    /// every reader that clamps or sets them agrees: a load schedule's
    /// steps, the curve's points, the CLI's `--requests` and the benchmark.
    #[test]
    fn the_rate_and_run_length_limits_are_the_tables() {
        let range = |name: &str| match Scenario::field(name).map(|f| f.kind) {
            Some(Kind::Real { min, max }) => (min, max),
            other => panic!("{name}: {other:?}"),
        };
        let (min_rps, max_rps) = range("rps");
        let (_, max_s) = range("duration_s");
        assert_eq!(
            (min_rps, max_rps, max_s),
            (MIN_RPS, MAX_RPS, MAX_DURATION_S)
        );
        // A schedule's steps stop where the fields do.
        assert!(Schedule::new(&[(0.0, max_rps), (max_s, 1.0)]).is_ok());
        let e = Schedule::new(&[(0.0, max_rps * 1.5)]).unwrap_err();
        assert!(e.contains("0.001–1,000,000 rps"), "{e}");
        assert!(Schedule::new(&[(0.0, min_rps), (1.0, 0.0)]).is_ok());
        assert!(Schedule::new(&[(0.0, min_rps / 2.0)]).is_err());
        let e = Schedule::new(&[(0.0, 1.0), (max_s + 1.0, 1.0)]).unwrap_err();
        assert!(e.contains("within 0–86,400 s"), "{e}");
        // The curve's points clamp to the table's ranges, so each validates.
        let th = |s: &Scenario| crate::theory::theory(s);
        for s in [
            // A limit of 0.1 rps: ρ = 0.001 asks for less than the least rate.
            Scenario {
                cpu_ms: 10_000.0,
                cores: 1,
                ..Scenario::default()
            },
            // A limit of 10⁸ rps: more than the most.
            Scenario {
                model: Model::EventLoop,
                cores: 1024,
                cpu_ms: 0.01,
                wait_ms: 0.0,
                ..Scenario::default()
            },
        ] {
            for rho in [0.001, 0.95] {
                let p = crate::sweep::sweep_scenario(&s, &th(&s), rho).unwrap();
                assert!((min_rps..=max_rps).contains(&p.rps), "{}", p.rps);
                assert!(p.duration_s <= max_s, "{}", p.duration_s);
                assert_eq!(p.validate(), vec![], "ρ {rho}: {p:?}");
            }
        }
        let bench = crate::bench::bench_scenario(4, 0.9, 10.0, 1000);
        assert_eq!(bench.duration_s, max_s);
        assert_eq!(bench.validate(), vec![]);
    }

    #[test]
    fn default_is_valid() {
        assert_eq!(Scenario::default().validate(), vec![]);
    }

    #[test]
    fn each_bad_field_is_named_with_its_range() {
        let s = Scenario {
            cores: 0,
            cpu_ms: f64::NAN,
            warmup: 2.0,
            ..Scenario::default()
        };
        let errs = s.validate();
        let fields: Vec<_> = errs.iter().map(|e| e.field.as_str()).collect();
        assert_eq!(fields, ["cores", "cpu_ms", "warmup"]);
        assert!(
            errs[0].message.contains("allowed 1–1,024 cores"),
            "{}",
            errs[0]
        );
        assert!(errs[1].message.contains("not a number"), "{}", errs[1]);
    }

    #[test]
    fn a_files_mark_huge_numbers_and_lists_get_plain_messages() {
        // A byte-order mark before the JSON is skipped.
        let s = Scenario::from_json("\u{feff}{\"cores\": 8}").unwrap();
        assert_eq!(s.cores, 8);
        // A number too large for any float is named by its field (it was
        // "the number at line 1, column 13 is too large for any field").
        let err = Scenario::from_json(r#"{"rps": 1e400}"#).unwrap_err();
        assert_eq!(
            err[0].to_string(),
            "rps: the number is out of range; allowed 0.001–1,000,000 rps"
        );
        // Only a number no key is left for is placed by line and column.
        let err = Scenario::from_json("1e400").unwrap_err();
        assert!(
            err[0]
                .message
                .contains("line 1, column 5 is too large for any field"),
            "{}",
            err[0]
        );
        // A list is named as one, not echoed with '?' for its brackets.
        let err = Scenario::from_json(r#"{"rps_schedule": [[0, 150], [10, 400]]}"#).unwrap_err();
        assert!(
            err[0]
                .message
                .contains("a list is not a schedule; allowed time_s:rps pairs"),
            "{}",
            err[0]
        );
        // Flags and boxes: too large is out of range, not "not a number".
        let rps = Scenario::field("rps").unwrap();
        assert!(rps
            .parse("1e400")
            .unwrap_err()
            .starts_with("'1e400' is out of range; allowed"));
        assert!(rps
            .parse("fast")
            .unwrap_err()
            .starts_with("'fast' is not a number"));
        let cores = Scenario::field("cores").unwrap();
        assert!(cores
            .parse("99999999999999999999999")
            .unwrap_err()
            .contains("is out of range; allowed 1–1,024 cores"));
    }

    #[test]
    fn unknown_json_field_is_refused_with_its_name() {
        let err = Scenario::from_json(r#"{"corez": 4}"#).unwrap_err();
        assert!(err[0].message.contains("corez"), "{}", err[0]);
    }

    #[test]
    fn json_round_trip_keeps_every_field() {
        let s = Scenario {
            model: Model::EventLoopWorkers,
            timeout_ms: Some(3000.0),
            ..Scenario::default()
        };
        let text = serde_json::to_string(&s).unwrap();
        assert_eq!(Scenario::from_json(&text).unwrap(), s);
        // Every preset, with its schedules, choices and optional fields.
        for p in crate::presets::presets() {
            let text = serde_json::to_string(&p.scenario).unwrap();
            assert_eq!(
                Scenario::from_json(&text).unwrap(),
                p.scenario,
                "{}",
                p.name
            );
        }
    }

    #[test]
    fn the_changed_fields_read_back_to_the_scenario() {
        use crate::fields::{changed_object, read_object};
        assert!(changed_object(FIELDS, &Scenario::default()).is_empty());
        for p in crate::presets::presets() {
            let changed = changed_object(FIELDS, &p.scenario);
            assert!(changed.len() < FIELDS.len() / 2, "{}: {changed:?}", p.name);
            let back: Scenario = read_object(FIELDS, &changed).unwrap();
            assert_eq!(back, p.scenario, "{}", p.name);
        }
        // A real number that reads back to itself only when written in full.
        let s = Scenario {
            stack_reserved_kb: 0.1 + 0.2,
            ..Scenario::default()
        };
        assert_eq!(
            read_object::<Scenario, _>(FIELDS, &changed_object(FIELDS, &s)).unwrap(),
            s
        );
    }

    #[test]
    fn json_values_are_read_by_their_fields_type() {
        let s = Scenario::from_json(
            r#"{"cores": 8.0, "timeout_ms": null, "retry_budget": "none", "model": "event-loop",
                "rps_schedule": "0:100,5:200", "drop_hopeless": true, "rps": 50}"#,
        )
        .unwrap();
        assert_eq!(
            (s.cores, s.timeout_ms, s.model, s.rps),
            (8, None, Model::EventLoop, 50.0)
        );
        assert!(s.drop_hopeless && s.rps_schedule.is_some());
        for (json, says) in [
            (
                r#"{"cores": 2.5}"#,
                "cores: 2.5 is not a whole number; allowed 1–1,024 cores",
            ),
            // Below a count's range: out of range, as a flag says it.
            (
                r#"{"cores": -1}"#,
                "cores: -1 is out of range; allowed 1–1,024 cores",
            ),
            (
                r#"{"model": "fibers"}"#,
                "model: 'fibers' is not a choice; allowed one of thread-per-request, thread-pool, ",
            ),
            (
                r#"{"cpu_ms": null}"#,
                "cpu_ms: null is not a number; allowed 0–600,000 ms",
            ),
            (
                r#"{"drop_hopeless": 2}"#,
                "drop_hopeless: 2 is not true or false; allowed true or false (on/off, yes/no and 1/0 are read too)",
            ),
            (
                r#"{"seed": true}"#,
                "seed: true is not a whole number; allowed 0–",
            ),
            (
                r#"[1, 2]"#,
                "not a valid scenario: invalid type: sequence, expected a JSON object of scenario fields, such as {\"rps\": 200}",
            ),
            // A slip in the JSON says where and what a file should be
            // (serde's "EOF while parsing an object at line 1 column 1").
            (
                "{",
                "EOF while parsing an object (line 1, column 1); a scenario file is a JSON object of fields",
            ),
            (
                r#"{"cores": 4, "rps": 50, "cores": 8}"#,
                "'cores' is given twice; give each field once",
            ),
        ] {
            let err = Scenario::from_json(json).unwrap_err();
            assert!(err[0].to_string().contains(says), "{json}: {}", err[0]);
        }
    }
}
