//! The analytic companion of a whole scenario: which limit binds, what
//! queueing theory predicts for the response time, and — as honestly as it
//! can say it — whether that prediction is exact for this scenario or an
//! approximation, and why. The app and the CLI only read a [`Theory`]: the
//! curve's lines ([`Theory::mean_at`], [`Theory::p99_at`]), the figures
//! table's theory column and its labels all come from here.
//!
//! The queue is taken at the binding resource: the pool's threads (service =
//! CPU + wait) when threads bind, or the cores (service = CPU; the wait is
//! added after it) when the CPU binds. Exponential services give the M/M/c
//! figures; other shapes use the Allen–Cunneen correction (mean wait × (1 +
//! SCV) / 2), which is exact for one worker's mean (Pollaczek–Khinchine).
//! The p99 adds the wait after the line as the random time it is (the
//! slowest of its calls, hedged or not); a service that is not
//! exponential (fixed steps, steps in a row, a mix with a rare heavy
//! class) takes its tail from its own shape
//! ([`analytic::shaped_then_delay_p99_ms`]: exact on one server, an
//! approximation on several), as an exponential tail of the same mean
//! would put the p99 far below the run (a heavy class) or far above it
//! (fixed steps: twice M/D/1's).

use crate::analytic::{self, Capacity, CpuPart, Cx, Delay, Limit, Part, Shape};
use crate::closed_loop::ClosedLoop;
use crate::closed_pair::ClosedPair;
use crate::scenario::{Accept, Arrivals, Discipline, Dist, Model, Scenario};
use crate::text::{decimals_for, fmt_fixed, plural, typed};
use serde::Serialize;

/// What theory says about a scenario.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Theory {
    /// CPU limit, thread limit and the capacity, rps.
    pub capacity: Capacity,
    /// Offered load (open arrivals), rps: the load schedule's first step when
    /// there is one; `None` for batch and closed workloads.
    pub offered_rps: Option<f64>,
    /// True when the offered load is one rate for the whole run (no load
    /// schedule that changes it): only then does the run settle at one
    /// point of the utilisation curve.
    pub steady_load: bool,
    /// True when the server gets the offered rate, each request once, for
    /// the measured window ([`load_as_offered`]), and turns none away
    /// ([`excess_turned_away`]): then the throughput and CPU busy theory
    /// gives are what a long run converges on; otherwise estimates from
    /// the first step's rate, with nothing turned away.
    pub load_exact: bool,
    /// About the most context switches add to a request's CPU, as a share
    /// of the CPU of the part that sets the CPU limit (all of it but where
    /// the loops' or the workers' own steps bind,
    /// [`analytic::switch_share`]). Theory's CPU figures leave them out:
    /// from [`DEAR_SWITCHES`] up they are estimates (a run has less
    /// capacity, more CPU busy and a faster-growing line).
    pub switch_share: f64,
    /// About the most switches add to the time a request is served with no
    /// line (its CPU and its wait step, [`analytic::thread_hold_ms`]), as a
    /// share of it: a thread holds its request through them. From
    /// [`DEAR_SWITCHES`] up the thread limit and the formulas are estimates.
    pub held_switch_share: f64,
    /// Requests per second the threads finish together when every one is
    /// busy, where they can outnumber the cores
    /// ([`analytic::pool_on_cores_rps`]): at most the lower of the thread
    /// limit and the CPU limit, which leave out the waits for a core. `None` where
    /// the threads fit the cores, take no CPU, or are not limited.
    pub pool_rps: Option<f64>,
    /// Why theory's limits and CPU figures are estimates, where
    /// [`Theory::approx_because`] does not say it: dear switches that add
    /// little to the time a request is served, or where the threads bind;
    /// threads that wait for a core. The app's note and the CLI's lines say
    /// them after those reasons.
    pub figure_notes: Vec<String>,
    /// True unless an overloaded server finishes other than its capacity
    /// by the way it orders its work ([`overload_reorders`]). Below
    /// capacity it keeps up.
    pub overload_finish_exact: bool,
    /// Utilisation of the binding resource, a ratio of load to capacity,
    /// 0–∞ (≥ 1 means overload).
    pub utilisation: Option<f64>,
    /// CPU utilisation expected, 0–1 (capped: the CPU cannot do more than all of its time).
    pub cpu_utilisation: Option<f64>,
    /// Workers in the queueing model (threads, cores, or 1 for a pinned loop).
    pub servers: u32,
    /// What one of those workers is, as the curve's legend and caption name
    /// it: "worker" for threads (the course's word for a server), "loop",
    /// "core", "worker thread", "connection" or "slot" where the line is
    /// those ([`Theory::servers_label`]).
    pub server_noun: &'static str,
    /// What forms the line, in words: "the 4 cores", "the pool's 20 threads",
    /// "each of the 4 loops (connections are pinned to one)".
    pub line_at: String,
    /// Mean service time at the binding resource, ms.
    pub service_ms: f64,
    /// Squared coefficient of variation (variance ÷ mean²) of that service
    /// time, a ratio: 1 for exponential, 0 for fixed, above 1 for a
    /// light/heavy mix.
    pub scv: f64,
    /// Time outside the modelled line that every request still spends, ms:
    /// the wait off the CPU when the cores are the line.
    pub delay_ms: f64,
    /// True when that delay holds random (exponential) calls, so the p99
    /// adds it as the random time it is rather than as its mean.
    pub delay_random: bool,
    /// The p99 of that delay, ms, when it is not one plain random time
    /// (the slowest of several calls, or a hedged call, plus any mean wait
    /// in line at the dependency). The response time's p99 does not add
    /// it to the line's: it adds the two random times ([`Theory::delay_shape`]).
    pub delay_p99_ms: Option<f64>,
    /// What every request adds after the line, as the p99 adds it: a fixed
    /// time, then the slowest of its random calls (hedged or not).
    pub delay_shape: Delay,
    /// The shape of the service time at the line when it is not
    /// exponential (fixed steps, steps in a row, a mix with a rare heavy
    /// class): light and heavy requests, fixed or random, then what every
    /// request adds. The p99 then comes from this shape
    /// ([`analytic::shaped_then_delay_p99_ms`]): exact on one server, an
    /// approximation on several. `None` for exponential service, or where
    /// the dependency is the line or a thread holds hedged calls.
    pub service_shape: Option<Shape>,
    /// Each loop (with its own pool, where it has one) as a closed line of
    /// its keep-alive connections, where theory has that model
    /// ([`keep_alive_loop`]): the mean and the p99 then come from it.
    /// `None` for every other line.
    #[serde(skip)]
    pub keep_alive: Option<KeepAlive>,
    /// A pool whose threads outnumber the cores, as one line of what its
    /// busy threads finish ([`pool_line`]): the mean comes from it.
    #[serde(skip)]
    pub pool_line: Option<PoolLine>,
    /// Loops that take the arrivals in turn, each its own line of random
    /// steps ([`dealt_in_turn`]): each loop is E_k/M/1, whose formulas are
    /// M/M/1's at a lower utilisation. 1 for every other line.
    #[serde(skip)]
    pub dealt_in_turn: u32,
    /// The dependency side: calls, its utilisation, the waits in its lines,
    /// fan-out and hedging.
    pub dep: DepTheory,
    /// The line is served newest first (always, or adaptive LIFO): no
    /// formula here gives its requests' times, only its line's growth.
    pub newest_first: bool,
    /// True when requests arrive evenly spaced, every time is fixed and
    /// each finds a thread and a core free ([`evenly_spaced_no_wait_ms`]):
    /// no line forms, even with the server exactly full (lesson 1's one
    /// thread at 10 a second for 100 ms each).
    pub no_line: bool,
    /// The formulas' model, e.g. "M/M/4" or "M/G/1": random (Poisson)
    /// arrivals into the line at `line_at`, as the curve's points are run.
    pub queue_model: String,
    /// This scenario's own line in words, e.g. "M/M/4 at the 4 cores" or
    /// "D/M/1 at the one core" (evenly spaced arrivals); for a batch or a
    /// closed loop of clients, which no queueing formula here covers, says so.
    pub model_of_line: String,
    /// True when [`Theory::mean_at`] and [`Theory::p99_at`] give this
    /// scenario's response times with random (Poisson) arrivals at a steady
    /// load below its limit, as the curve's points are run; false when no
    /// formula covers its line at any load (the slowest of several calls
    /// through a shared line at the dependency; event loop + workers when
    /// the loops' or the workers' own steps reach their limit before the
    /// cores, [`analytic::CpuPart`]).
    pub curve_formula: bool,
    /// True when the mean formula is exact for this scenario.
    pub mean_exact: bool,
    /// True when the p99 formula is exact for this scenario.
    pub p99_exact: bool,
    /// Why the figures are approximations, in the learner's words (empty when exact).
    pub approx_because: Vec<String>,
    /// Mean time in line before a thread takes a request, ms, as the run's
    /// "time in line" measures it: from theory's pool line (its mean less
    /// the busy threads ÷ the arrivals, by Little's law), or where the
    /// threads are the open line the formulas model (Erlang C's wait, times
    /// (1 + scv) ÷ 2 where the times are not random: exact for M/M/c and
    /// one worker's M/G/1). As exact as [`Theory::mean_ms`]; `None` where
    /// the mean is, or where the line theory models is not the threads'
    /// (the cores, a loop, the dependency).
    pub line_wait_ms: Option<f64>,
    /// Mean response time, ms; `None` when overloaded or not open Poisson.
    pub mean_ms: Option<f64>,
    /// 99th percentile response time, ms; `None` when `mean_ms` is.
    pub p99_ms: Option<f64>,
    /// Threads needed by Little's law at the offered load: rps × the time a
    /// request holds its thread ([`analytic::thread_hold_ms`]: CPU with its
    /// costs + the wait step, no line).
    pub threads_needed: Option<f64>,
    /// The threads the model runs, as theory counts them: the pool, the
    /// loops and their workers, a thread per request's cap, or the mean
    /// alive by Little's law ([`Threads`]); `None` for a thread per request
    /// with neither a cap nor a steady offered rate, or overloaded (its
    /// threads pile up without limit).
    pub threads: Option<Threads>,
    /// Threads busy on average, by Little's law: the offered rate × the
    /// time a request holds its thread, at most the pool or the cap. Where
    /// the cores bind, threads can outnumber them and theory has a mean
    /// response time, that time is the response time (waits for a core
    /// included); otherwise the time held with no line
    /// ([`Theory::threads_needed`]). The rate is the load schedule's first
    /// step where there is one. `None` for event loops (a loop holds no
    /// request while it waits), without an open offered rate (a closed
    /// loop, a batch), and for a thread per request without a cap when
    /// overloaded.
    pub busy_threads: Option<f64>,
    /// How [`Theory::busy_threads`] stands against a run
    /// ([`busy_bound`]): exact where every request of a steady rate gets a
    /// thread and no thread waits while it holds one; a floor where
    /// threads can wait for a core or a slot, or pay for switches (the time
    /// held with no line leaves those out); an estimate where the load
    /// changes, tries are repeated or requests are turned away, or where
    /// the cores bind and the count is the rate × the mean response time.
    pub busy_threads_bound: Bound,
    /// Stack memory set aside for those threads, MB (1 MB = 1,000 KB, as
    /// reports count it): [`Threads::count`] × `stack_reserved_kb`; a mean
    /// for [`Threads::Mean`], the most for [`Threads::UpTo`].
    pub stack_reserved_mb: Option<f64>,
    /// When the last request of a batch finishes, for a batch on a full
    /// pool (the threads bind): rounds of one request per thread
    /// ([`Makespan`]); `None` otherwise.
    pub makespan: Option<Makespan>,
    /// Requests per second the server is expected to finish: the offered
    /// rate, at most the capacity, and, where theory has a [`PoolLine`],
    /// at most what all its threads finish on the cores
    /// ([`Theory::pool_rps`]: the sale day's pool of 40, about 365 of the
    /// limits' 400); past the limit of workers that take only some of the
    /// requests, more than the capacity
    /// ([`analytic::past_workers_finish_rps`]). `None` without an offered
    /// rate.
    pub expected_rps: Option<f64>,
    /// Line growth when overloaded: offered − [`Theory::expected_rps`],
    /// requests per second (0 when the server keeps up); `None` without a steady offered rate
    /// (a load schedule that changes included), when something turns the
    /// excess away instead of letting the line grow ([`excess_turned_away`]:
    /// no formula here says how long the line then is), when overloaded
    /// callers retry (their tries add to the excess), or where the server
    /// has two states ([`Theory::retry_storm_rps`], or hedges that may tip
    /// the dependency over): no one growth to give.
    pub growth_per_s: Option<f64>,
    /// Tries per second if every try timed out, (1 + retries) × the offered
    /// calls, where that load is at or past the capacity while the calls
    /// alone are below it ([`retry_storm_rps`]). The figures above are
    /// then those of the server while few tries time out; a run can also
    /// fall into the second state, where the tries' line, once past the
    /// timeout, feeds itself and the server finishes answers at its
    /// capacity, none in time (lesson 16's 160 calls a second with three
    /// retries after 220 ms; lesson 14's spike). `None` otherwise.
    pub retry_storm_rps: Option<f64>,
}

/// How a theory figure stands against what a long run measures.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub enum Bound {
    /// What a long enough run converges on.
    #[default]
    Exact,
    /// An approximation: the run may land on either side.
    Approx,
    /// A floor: the run measures this or more.
    AtLeast,
}

impl Bound {
    /// `x` to be shown with `decimals` decimals: a floor rounded down to
    /// them, so it stays a floor; any other figure as it is (its formatter
    /// rounds it).
    pub fn shown(self, x: f64, decimals: i32) -> f64 {
        match self {
            Bound::AtLeast => {
                let k = 10f64.powi(decimals);
                (x * k).floor() / k
            }
            Bound::Exact | Bound::Approx => x,
        }
    }
}

/// The threads a scenario runs, as theory counts them.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub enum Threads {
    /// A pool of this many threads, alive all run.
    Pool(u32),
    /// This many event loops, a thread each.
    Loops(u32),
    /// Event loops and the worker threads beside them
    /// ([`Scenario::worker_threads`]).
    LoopsAndWorkers {
        /// Event loops, a thread each.
        loops: u32,
        /// Worker threads, over all loops.
        workers: u32,
    },
    /// A thread per request with a cap: at most this many alive.
    UpTo(u32),
    /// A thread per request without a cap: this many alive on average, by
    /// Little's law ([`Theory::busy_threads`]).
    Mean {
        /// Threads alive on average.
        mean: f64,
        /// True for random (Poisson) arrivals, whose peak is higher than
        /// the mean; evenly spaced ones peak at least at it.
        random: bool,
    },
}

impl Threads {
    /// Threads in all: the pool, loops + workers, the cap, or the mean.
    pub fn count(self) -> f64 {
        match self {
            Threads::Pool(n) | Threads::Loops(n) | Threads::UpTo(n) => f64::from(n),
            Threads::LoopsAndWorkers { loops, workers } => f64::from(loops) + f64::from(workers),
            Threads::Mean { mean, .. } => mean,
        }
    }
}

/// A batch on a full pool: the threads take one request each, so the batch
/// goes in rounds, each as long as a request holds its thread.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Makespan {
    /// Rounds: the batch ÷ the threads, rounded up.
    pub rounds: u64,
    /// One round, ms: the threads ÷ the thread limit's rate.
    pub round_ms: f64,
    /// When the last request finishes, s: rounds × one round.
    pub makespan_s: f64,
    /// True when every request holds its thread equally long (no CPU to
    /// share, a fixed wait), so the rounds are exact.
    pub exact: bool,
}

/// The threads `s` runs, as theory counts them (`threads_needed`: the
/// mean alive by Little's law, for a thread per request without a cap).
fn thread_count(s: &Scenario, threads_needed: Option<f64>) -> Option<Threads> {
    Some(match s.model {
        Model::ThreadPool => Threads::Pool(s.threads),
        Model::EventLoop => Threads::Loops(s.loop_count()),
        Model::EventLoopWorkers => Threads::LoopsAndWorkers {
            loops: s.loop_count(),
            workers: s.worker_threads(),
        },
        Model::ThreadPerRequest => match (s.thread_cap, threads_needed) {
            (Some(cap), _) => Threads::UpTo(cap),
            (None, Some(n)) => Threads::Mean {
                mean: n,
                random: s.arrivals == Arrivals::Poisson,
            },
            (None, None) => return None,
        },
    })
}

/// A batch's rounds on a full pool: `None` unless `s` is a batch whose
/// threads bind at a finite, nonzero rate.
///
/// Every request of the batch must run once: none if requests are turned
/// away (refused, shed, dropped) or tried again.
fn makespan(s: &Scenario, cap: &Capacity) -> Option<Makespan> {
    let rate = cap.capacity_rps;
    let each_once = !excess_turned_away(s) && s.retries == 0;
    match (s.arrivals, cap.binding, s.thread_limit()) {
        (Arrivals::Batch, Limit::Threads, Some(t))
            if rate.is_finite() && rate > 0.0 && each_once =>
        {
            let rounds = (f64::from(s.count) / f64::from(t)).ceil();
            let round_s = f64::from(t) / rate;
            Some(Makespan {
                rounds: rounds as u64,
                round_ms: round_s * 1000.0,
                makespan_s: rounds * round_s,
                // No CPU (a thread's creation included): nothing queues for
                // a core, so each round takes the fixed wait exactly.
                exact: analytic::cpu_ms_per_request(s) == 0.0 && s.wait_dist == Dist::Const,
            })
        }
        _ => None,
    }
}

/// What theory says about the dependency side: the calls it gets, how
/// busy it is, the waits in its lines, and fan-out and hedging.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct DepTheory {
    /// Calls per second sent to the dependency (fan-out and hedges
    /// included); `None` without open arrivals.
    pub calls_rps: Option<f64>,
    /// Share of its slots (or of the pool's connections) busy, 0–∞.
    pub utilisation: Option<f64>,
    /// Mean wait in line for a slot at the dependency, ms (Erlang C);
    /// `None` without a slot limit, when overloaded, or for calls sent
    /// together (fan-out), which wait far longer than Erlang C's.
    pub queue_wait_ms: Option<f64>,
    /// Mean wait for a connection, ms (Erlang C, a pool in front of a
    /// dependency without its own limit, one call a request); `None`
    /// otherwise.
    pub pool_wait_ms: Option<f64>,
    /// Mean time of the wait step with capacity to spare, ms: one call, or
    /// the slowest of `fan_out` (W × H(N)), each hedged where there is a
    /// hedge ([`analytic::slowest_mean_ms`]).
    pub wait_step_ms: f64,
    /// p99 of the wait step with capacity to spare, ms (the slowest of N
    /// exponential calls: F⁻¹(0.99^(1/N)), each hedged where there is a
    /// hedge: [`analytic::slowest_quantile_ms`]).
    pub wait_step_p99_ms: Option<f64>,
    /// True when the wait step's figures above hold as they are: no limit
    /// at the dependency (no pool, no slot limit), so no call waits in a
    /// line there. With one, they leave that line out: an approximation.
    pub wait_step_exact: bool,
    /// Share of requests that meet at least one call slower than a call's
    /// own p99: 1 − 0.99^N, 0–1; `None` for one call, and for calls whose
    /// times do not vary (fixed or zero waits: no call is slower than another).
    pub slow_call_share: Option<f64>,
    /// Extra calls hedging sends, as a share of calls, 0–1
    /// ([`analytic::hedges_per_call`]: e^(−h/W) for random calls; all or
    /// none for fixed ones); `None` without hedging.
    pub hedge_share: Option<f64>,
    /// Share of the slots busy as the simulator measures it, 0–1: calls in
    /// service (calls per second × time each holds a slot) ÷ the slots,
    /// never more than a smaller pool in front lets in (`utilisation`
    /// divides by the pool when it is the smaller); `None` without a slot
    /// limit or open arrivals.
    pub slots_busy: Option<f64>,
    /// True when the dependency gets the calls theory counts: each request
    /// makes its calls once at a steady rate the server keeps up with (no
    /// hedges, retries, refusals, callers leaving, load changes or
    /// keep-alive connections still filling, [`load_as_offered`]).
    pub calls_exact: bool,
    /// True when [`DepTheory::calls_rps`] (and the share hedged) is what a
    /// long run sends: as [`DepTheory::calls_exact`], hedges allowed where
    /// no limit at the dependency makes calls wait, and past the capacity
    /// where the capacity is exact (requests are taken up at it).
    pub calls_rps_exact: bool,
    /// When the calls hedges add can push the dependency past its limit at
    /// the offered load ([`HedgeOverload`]); `None` otherwise. Then theory
    /// gives the share sent again and the waits at the dependency only for
    /// the overloaded dependency (every call sent again, no finite wait),
    /// or, when the dependency may keep up or may not, none at all.
    pub hedge_overload: Option<HedgeOverload>,
    /// True when Erlang C's mean wait is exact for the dependency's line:
    /// calls arrive at random (each request calls once, as it arrives: no
    /// CPU before the call, no thread cap or pool, no keep-alive), hold a
    /// slot for a random (exponential) time, and one line (a pool or a slot
    /// limit, not both) serves them first come, first served, everyone kept.
    pub wait_exact: bool,
}

/// The calls hedges add, against the dependency's limit: hedged calls that
/// wait in its line past the hedge delay are sent again, and the copies
/// take slots too, so a line feeds itself. With capacity to spare few calls
/// are sent again (e^(−h/W) for random ones); once the line holds calls
/// past the delay, every call is. When the dependency cannot serve the
/// requests that reach it with every call sent twice, its line, once long,
/// stays long and grows without end (lesson 16: 160 slots, 100 calls of
/// 10 ms hedged after 30 ms, 100 rps; 152 rps at most with 5 % sent
/// again, 80 rps with all of them; the runs measured 80 rps finished and
/// 99 % sent again on every seed tried).
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct HedgeOverload {
    /// Requests per second that reach the dependency: the offered load, or
    /// the CPU's or the threads' limit when lower.
    pub rps: f64,
    /// Extra calls per call hedging sends with capacity to spare
    /// ([`analytic::hedges_per_call`]), 0–1.
    pub few_share: f64,
    /// The dependency limit with that share sent again, rps.
    pub few_limit_rps: f64,
    /// The dependency limit with every call sent twice, rps: at or below `rps`.
    pub all_limit_rps: f64,
    /// True when the dependency is overloaded even with few calls sent
    /// again (`rps` ≥ `few_limit_rps`): its line grows, every call is sent
    /// again, and theory takes the limit with all of them sent twice. False
    /// when it keeps up while its line stays short but a burst can tip it
    /// over for good: which one a run shows depends on its bursts.
    pub certain: bool,
}

/// When the calls hedges add can push `s`'s dependency past its limit at
/// `offered` rps ([`HedgeOverload`]): hedged calls, a limit on the calls
/// the dependency (or its pool) holds at once, a share sent again below
/// all (all of them is counted already), and at least the limit with every
/// call sent twice reaching it. `cap` is [`analytic::capacity`].
pub fn hedge_overload(s: &Scenario, offered: Option<f64>, cap: &Capacity) -> Option<HedgeOverload> {
    let few_share = analytic::hedges_per_call(s);
    let all_share = analytic::hedges_per_call_overloaded(s);
    if s.hedge_after_ms.is_none() || few_share >= all_share {
        return None;
    }
    let few_limit_rps = analytic::dep_limit_rps_with(s, few_share)?;
    let all_limit_rps = analytic::dep_limit_rps_with(s, all_share)?;
    let rps = offered?
        .min(cap.cpu_limit_rps)
        .min(cap.thread_limit_rps.unwrap_or(f64::INFINITY));
    (rps >= all_limit_rps).then_some(HedgeOverload {
        rps,
        few_share,
        few_limit_rps,
        all_limit_rps,
        certain: rps >= few_limit_rps,
    })
}

/// Why theory's hedge share and waits at the dependency are what they are
/// when hedges can overload it ([`HedgeOverload`]), in the learner's words.
fn hedge_overload_reason(s: &Scenario, o: &HedgeOverload) -> String {
    let h = typed(s.hedge_after_ms.unwrap_or(0.0));
    let all_held = analytic::slot_ms_per_request_with(s, 1.0);
    if o.certain {
        format!(
            "hedges overload the dependency: even with {} of calls sent again it serves at most {} rps, \
             less than the {} rps that reach it, so its line grows, every call waits there past the \
             {h} ms hedge delay and is sent again, each request holds {} ms of its slots, and it serves \
             at most {} rps; theory gives no wait there, as its line grows without end",
            crate::text::fmt_pct(o.few_share),
            rps_text(o.few_limit_rps),
            rps_text(o.rps),
            fmt_fixed(all_held, 0),
            rps_text(o.all_limit_rps),
        )
    } else {
        format!(
            "hedges can overload the dependency: it serves up to {} rps while {} of calls are sent \
             again, but once a burst holds calls in its line past the {h} ms hedge delay they are sent \
             again, and with every call sent twice ({} ms of its slots per request) it serves at most {} rps, \
             {} the {} rps that reach it, so its line then stays long and grows without end; a run \
             keeps up or melts as its bursts decide, so theory gives neither the share sent again nor \
             the wait at the dependency",
            rps_text(o.few_limit_rps),
            crate::text::fmt_pct(o.few_share),
            fmt_fixed(all_held, 0),
            rps_text(o.all_limit_rps),
            if o.all_limit_rps < o.rps {
                "less than"
            } else {
                "no more than"
            },
            rps_text(o.rps),
        )
    }
}

/// The dependency side of `s` at `offered` rps, of which the server
/// finishes at most `finish_rps` (the capacity, or less where a pool's
/// threads wait for the cores, more past the limit of workers that take
/// some requests: [`Theory::expected_rps`]); `overload`: when
/// hedges can overload it, [`hedge_overload`].
fn dep_theory(
    s: &Scenario,
    offered: Option<f64>,
    cap: &Capacity,
    finish_rps: f64,
    overload: Option<HedgeOverload>,
) -> DepTheory {
    let exp = s.wait_dist == Dist::Exp && s.wait_ms > 0.0;
    // Overloaded: every call is sent again. Keeping up or melting as the
    // bursts decide: no share theory can give.
    let hedge_share = match overload {
        Some(o) if o.certain => Some(analytic::hedges_per_call_overloaded(s)),
        Some(_) => None,
        None => s.hedge_after_ms.map(|_| analytic::hedges_per_call(s)),
    };
    let calls_rps = offered
        .filter(|_| overload.is_none_or(|o| o.certain))
        .map(|r| r.min(finish_rps) * f64::from(s.fan_out) * (1.0 + hedge_share.unwrap_or(0.0)));
    let k = analytic::dep_slots(s);
    let utilisation = match (k, calls_rps) {
        (Some(k), Some(c)) => Some(c * s.wait_ms / 1000.0 / f64::from(k)),
        _ => None,
    };
    // Not for calls sent together (fan-out): a request's calls reach the
    // line as one batch, which waits far longer than Erlang C's calls at
    // random moments (lesson 16's 100 calls a request on 160 slots: runs
    // of 3.5 ms beside Erlang C's 0.01).
    let erlang = |slots: Option<u32>| match (slots, utilisation) {
        (Some(k), Some(u)) if u < 1.0 && s.fan_out == 1 => {
            Some(analytic::mmc_wait_ms(k, s.wait_ms, u))
        }
        _ => None,
    };
    let (queue_wait_ms, pool_wait_ms) = match (s.dep_pool, s.dep_concurrency) {
        (None, Some(_)) => (erlang(k), None),
        (Some(_), None) => (None, erlang(k)),
        // Both: the fewer is the line; the other rarely fills.
        (Some(n), Some(c)) if c <= n => (erlang(k), None),
        (Some(_), Some(_)) => (None, erlang(k)),
        (None, None) => (None, None),
    };
    let slots_busy = match (s.dep_concurrency, calls_rps) {
        (Some(k), Some(c)) => {
            let most = f64::from(s.dep_pool.map_or(k, |n| n.min(k)));
            Some((c * s.wait_ms / 1000.0).min(most) / f64::from(k))
        }
        _ => None,
    };
    // Each request taken up makes its calls once: true past the capacity
    // too, where requests are taken up at the capacity ([`theory`] then
    // marks the calls' rate as exact as the capacity is).
    let taken_once = s.timeout_ms.is_none()
        && s.queue_limit.is_none()
        && s.max_connections.is_none()
        && s.shed_after_ms.is_none()
        && !s.drop_hopeless
        && load_as_offered(s)
        && offered.is_some();
    let each_once = taken_once && offered.is_some_and(|o| o <= cap.capacity_rps);
    let calls_exact = each_once && s.hedge_after_ms.is_none();
    // Hedges are sent as the calls' own times decide, exactly so while no
    // line at the dependency delays them.
    let calls_rps_exact =
        taken_once && (s.hedge_after_ms.is_none() || analytic::dep_slots(s).is_none());
    let no_delay = match s.model {
        Model::ThreadPerRequest => s.spawn_ms == 0.0 && s.thread_cap.is_none(),
        Model::EventLoop => true,
        Model::ThreadPool | Model::EventLoopWorkers => false,
    };
    let wait_exact = calls_exact
        && no_delay
        && s.arrivals == Arrivals::Poisson
        && s.conn_requests <= 1
        && s.fan_out == 1
        && s.wait_dist == Dist::Exp
        && s.mean_cpu_ms() == 0.0
        && !(s.dep_pool.is_some() && s.dep_concurrency.is_some());
    DepTheory {
        calls_rps,
        utilisation,
        queue_wait_ms,
        pool_wait_ms,
        wait_step_ms: analytic::wait_step_ms(s),
        wait_step_exact: k.is_none(),
        wait_step_p99_ms: exp
            .then(|| analytic::slowest_quantile_ms(s.fan_out, s.wait_ms, s.hedge_after_ms, 0.99)),
        slow_call_share: (s.fan_out > 1 && exp)
            .then(|| analytic::share_meeting_a_slow_call(s.fan_out)),
        hedge_share,
        slots_busy,
        calls_exact,
        calls_rps_exact,
        wait_exact,
        hedge_overload: overload,
    }
}

/// True when the arrival rate stays at its first value all run (no load
/// schedule, or one whose every step is the base rate).
fn steady_load(s: &Scenario) -> bool {
    s.rps_schedule
        .as_ref()
        .is_none_or(|sch| sch.steps().iter().all(|st| st.1 == sch.base_rps()))
}

/// The wait off the CPU as the p99 adds it after the cores' line: the
/// slowest of the random calls (each hedged where there is a hedge) after
/// `dep_wq`, the mean wait in line at the dependency; a fixed wait is the
/// wait itself (a copy sent later cannot answer sooner).
fn wait_delay(s: &Scenario, dep_wq: f64) -> Delay {
    match s.wait_dist {
        Dist::Exp if s.wait_ms > 0.0 => Delay {
            fixed_ms: dep_wq,
            calls: s.fan_out,
            call_mean_ms: s.wait_ms,
            hedge_after_ms: s.hedge_after_ms,
        },
        _ => Delay {
            fixed_ms: s.wait_ms + dep_wq,
            ..Delay::default()
        },
    }
}

/// The shape of the service time at the binding line, for its tail: the
/// light and the heavy class, then the write step and the CPU the engine
/// adds (fixed); when the threads are the line, the wait too (the slowest
/// of N random calls is a sum of random times of means W/N … W/1). `None`
/// when the dependency is the line, or for hedged random calls held by a
/// thread (their time has no such form).
fn service_shape(s: &Scenario, binding: Limit, dep_wq: f64) -> Option<Shape> {
    let part = |mean_ms: f64, dist: Dist| Part { mean_ms, dist };
    let mut classes = Vec::new();
    if s.heavy_share < 1.0 {
        classes.push((1.0 - s.heavy_share, part(s.cpu_ms, s.cpu_dist)));
    }
    if s.heavy_share > 0.0 {
        classes.push((s.heavy_share, part(s.heavy_cpu_ms, s.cpu_dist)));
    }
    let mut then = Vec::new();
    if s.write_ms > 0.0 {
        then.push(part(s.write_ms, s.cpu_dist));
    }
    let extra = analytic::cpu_ms_per_request(s) - s.mean_cpu_ms();
    if extra > 0.0 {
        then.push(part(extra, Dist::Const));
    }
    match (binding, s.wait_dist, s.hedge_after_ms) {
        (Limit::Cpu, _, _) => {}
        (Limit::Dependency, _, _) | (Limit::Threads, Dist::Exp, Some(_)) => return None,
        (Limit::Threads, Dist::Const, _) => then.push(part(s.wait_ms + dep_wq, Dist::Const)),
        (Limit::Threads, Dist::Exp, None) => {
            then.extend((1..=s.fan_out).map(|k| part(s.wait_ms / f64::from(k), Dist::Exp)));
            if dep_wq > 0.0 {
                then.push(part(dep_wq, Dist::Const));
            }
        }
    }
    Some(Shape { classes, then })
}

/// Mean and variance, ms and ms², of the wait step with capacity to spare.
fn wait_step_moments(s: &Scenario) -> (f64, f64) {
    let w = s.wait_ms;
    match (s.wait_dist, s.fan_out, s.hedge_after_ms) {
        (Dist::Const, _, _) => (w, 0.0),
        (Dist::Exp, 1, Some(h)) if w > 0.0 => {
            // T = the call if it answers by h, else h + the faster of two.
            let late = (-h / w).exp();
            let mean = analytic::hedged_mean_ms(w, h);
            let second = 2.0 * w * w - late * (h * w + 1.5 * w * w);
            (mean, (second - mean * mean).max(0.0))
        }
        (Dist::Exp, n, None) => {
            // The slowest of n exponentials: sum of exponentials of means w/k.
            let v: f64 = (1..=n).map(|k| (w / f64::from(k)).powi(2)).sum();
            (analytic::fanout_mean_ms(n, w), v)
        }
        (Dist::Exp, n, h) => {
            // The slowest of n hedged calls, by integrating its survival.
            let (m1, m2) = analytic::slowest_moments_ms(n, w, h);
            (m1, (m2 - m1 * m1).max(0.0))
        }
    }
}

/// True when the server gets [`Theory::offered_rps`], each request once,
/// through the measured window: one steady rate (no load schedule that
/// changes), no retries (a try that fails is sent again), and keep-alive
/// connections that reach the rate by the end of the warm-up
/// ([`keep_alive_fill_s`]).
pub fn load_as_offered(s: &Scenario) -> bool {
    steady_load(s)
        && s.retries == 0
        && (s.conn_requests <= 1 || keep_alive_fill_s(s) <= s.warmup * s.duration_s)
}

/// How long a keep-alive connection sends, s, with capacity to spare: its
/// `conn_requests` one after another, each a think time and a service
/// time ([`Scenario::mean_service_ms`]). A run that starts with none open
/// reaches its full arrival rate only after this long.
pub fn keep_alive_fill_s(s: &Scenario) -> f64 {
    keep_alive_life_s(s, s.mean_service_ms())
}

/// Keep-alive connections opened a second (the rate ÷ each one's
/// requests), as a sentence writes it: to two significant figures below
/// one a second ("0.0038", not "0.0"). Theory's note and the "Still
/// filling up" sign both say it.
pub fn keep_alive_opens_text(s: &Scenario) -> String {
    let per_s = s.steady_rps() / f64::from(s.conn_requests);
    let decimals = if per_s >= 1.0 {
        1
    } else {
        ((-per_s.log10()).ceil() as usize + 1).min(9)
    };
    fmt_fixed(per_s, decimals)
}

/// How long a keep-alive connection lives, s, when each of its requests
/// takes `response_ms`: its `conn_requests`, each after a think time.
pub fn keep_alive_life_s(s: &Scenario, response_ms: f64) -> f64 {
    f64::from(s.conn_requests) * (s.think_ms + response_ms) / 1000.0
}

/// Each pinned loop as a closed line of its keep-alive connections
/// ([`ClosedLoop`]), where that model fits: event loops, each its own line
/// (a core each), the cores binding, random arrivals of connections that
/// each send several requests, steps of random (exponential) times in at
/// most two classes, one step a request on the loop (no write step), and
/// one call with no line at a dependency as the wait. A connection is away
/// from its loop for its wait and think time (`wait_ms` + `think_ms`).
/// Against the curve's points of the WAF checks on the loops (1 ms, one
/// in twenty 40 ms; connections dealt at random; ten seeds): 29.8, 36.8,
/// 48.6, 67.5 and 115.8 ms at 30, 50, 70, 85 and 95 % where runs took
/// 32.5, 41.2, 51.1, 70.6 and 94.3 (M/G/1 said 34.7, 50.4, 87.0, 178.4
/// and 544.3).
///
/// With a pool of workers for each loop and the heavy class handed to it
/// (the WAF offload presets), the loop and its pool as a closed network of
/// two lines ([`ClosedPair`]), its rate from the cores' utilisation: the
/// same conditions, but the cores (`servers` of them, `service_ms` of
/// CPU a request) shared by all the loops and workers.
fn keep_alive_loop(
    s: &Scenario,
    capacity: &Capacity,
    own_lines: bool,
    (servers, service_ms): (u32, f64),
    wait_ms: f64,
) -> Option<KeepAlive> {
    let common = s.conn_requests >= CLOSED_LOOP_MIN_REQUESTS
        && capacity.binding == Limit::Cpu
        && s.arrivals == Arrivals::Poisson
        && s.cpu_dist == Dist::Exp
        && s.write_ms == 0.0
        && s.fan_out == 1
        && s.hedge_after_ms.is_none()
        && analytic::dep_slots(s).is_none();
    if !common {
        return None;
    }
    if s.model == Model::EventLoopWorkers {
        let fits = s.pool_per_loop
            && s.offload_heavy
            && s.accept != Accept::Shared
            && s.loop_count() <= s.cores
            && capacity.part_binds().is_none()
            && service_ms > 0.0;
        return fits
            .then(|| {
                ClosedPair {
                    light_ms: s.cpu_ms,
                    heavy_share: s.heavy_share,
                    heavy_ms: s.heavy_cpu_ms,
                    handoff_ms: s.handoff_ms / 2.0,
                    workers: s.workers,
                    loops: s.loop_count(),
                    cores: servers,
                    away_ms: s.think_ms + wait_ms,
                    rate_at_full: f64::from(servers) / service_ms / f64::from(s.loop_count()),
                }
                .checked()
            })
            .flatten()
            .map(KeepAlive::Pair);
    }
    if !(s.model == Model::EventLoop && own_lines) {
        return None;
    }
    let h = s.heavy_share;
    // A class with no share takes the other's time (it may be 0).
    let heavy = if h > 0.0 { s.heavy_cpu_ms } else { s.cpu_ms };
    let light = if h < 1.0 { s.cpu_ms } else { heavy };
    // The classes scaled to the step theory counts (for a loop, the same).
    let mean = (1.0 - h) * light + h * heavy;
    let scale = service_ms / mean;
    ClosedLoop::new(light * scale, heavy * scale, h, s.think_ms + wait_ms).map(KeepAlive::Loop)
}

/// Loops that each take every k-th of random arrivals (connections dealt in
/// turn, one request each) and run random (exponential) steps, one a
/// request, each on its own core: each loop is then E_k/M/1, exactly
/// (GI/M/1), and this is k. 1 where that does not hold. Four loops of the
/// sale day at 85 %: 133.0 ms where ten seeds ran 132.3 ± 1.1 (M/M/1,
/// dealing at random, said 156.7).
pub fn dealt_in_turn(s: &Scenario, binding: Limit, scv: f64) -> u32 {
    let loops = s.loop_count();
    let fits = s.model == Model::EventLoop
        && s.accept == Accept::RoundRobin
        && loops > 1
        && loops <= s.cores
        && s.conn_requests <= 1
        && s.arrivals == Arrivals::Poisson
        && (scv - 1.0).abs() < 1e-12
        && s.write_ms == 0.0
        && binding == Limit::Cpu;
    if fits {
        loops
    } else {
        1
    }
}

/// Why a [`PoolLine`]'s figures are approximate: the engine's cores share
/// their time in slices.
const POOL_LINE_SLICES: &str = "the formula shares the cores evenly among the busy threads; the engine gives each a time slice in turn";

/// Why a [`PoolLine`]'s p99 is approximate ([`Theory::p99_at`]).
const POOL_LINE_P99: &str =
    "the p99 adds the pool's extra mean wait to a simpler line's p99, not that wait's own tail";

/// [`Theory::core_wait_share`] of threads that finish `pool_rps` when all
/// are busy, against `cap`'s thread and CPU limits.
fn core_wait_share(pool_rps: Option<f64>, cap: &Capacity) -> f64 {
    match (pool_rps, cap.thread_limit_rps) {
        (Some(pool), Some(threads)) if pool > 0.0 => {
            (threads.min(cap.cpu_limit_rps) / pool - 1.0).max(0.0)
        }
        _ => 0.0,
    }
}

/// Most threads for theory's [`PoolLine`]: until X(n) reaches what the
/// cores finish, each request it can hold costs a sum over the threads
/// ([`analytic::pool_on_cores_line`]); a bigger pool keeps the open line.
pub const POOL_LINE_MAX_THREADS: u32 = 2_000;

/// A pool of threads that outnumber the cores, with a wait off the CPU:
/// a request waits for a thread, then its CPU shares the cores with the
/// other busy threads' ([`analytic::pool_on_cores_line`]). Where the
/// thread and CPU limits tie, as for the sale day's pool of 40, the
/// threads finish less than either (about 365 rps of 400), and the open
/// line's formulas, one line at a time, missed it: at 340 rps they said
/// 111.5 ms, this line 128.0, and ten runs of 600 s took 124.7 on
/// average; at 360 rps, 119.7 against 289.7, where a run of 20 s took 271.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PoolLine {
    /// Threads in the pool (or the cap).
    pub threads: u32,
    /// Cores they share.
    pub cores: u32,
    /// CPU per request with the engine's costs, ms.
    pub cpu_ms: f64,
    /// Time off the CPU per request (the wait step), ms.
    pub off_cpu_ms: f64,
    /// The rate at utilisation 1 of the binding limit (the curve's x-axis), rps.
    pub capacity_rps: f64,
}

impl PoolLine {
    /// The mean response time, ms, and the mean busy threads at
    /// utilisation `rho` of the binding limit; `None` where the threads
    /// cannot keep up.
    pub fn at(&self, rho: f64) -> Option<(f64, f64)> {
        analytic::pool_on_cores_line(
            rho * self.capacity_rps,
            self.threads,
            self.cores,
            self.cpu_ms,
            self.off_cpu_ms,
        )
    }
}

/// Theory's [`PoolLine`] where it holds: threads (a pool, or a cap on
/// threads per request) that can outnumber the cores, with CPU and a wait
/// off it; random arrivals at a steady rate, one request a connection; no
/// limit at the dependency (its line would not be a plain wait), and
/// nothing refused, shed, timed out or tried again. The threads or the
/// cores bind, and the pool is at most [`POOL_LINE_MAX_THREADS`].
fn pool_line(s: &Scenario, cap: &Capacity, steady_load: bool) -> Option<PoolLine> {
    let threads = s.thread_limit()?;
    let cpu_ms = analytic::cpu_ms_per_request(s);
    let off_cpu_ms = analytic::wait_step_ms(s);
    let fits = matches!(s.model, Model::ThreadPool | Model::ThreadPerRequest)
        && !threads_fit_cores(s)
        && cpu_ms > 0.0
        && off_cpu_ms > 0.0
        && matches!(cap.binding, Limit::Threads | Limit::Cpu)
        && no_pool_line_because(s, steady_load).is_none();
    fits.then_some(PoolLine {
        threads,
        cores: s.cores,
        cpu_ms,
        off_cpu_ms,
        capacity_rps: cap.capacity_rps,
    })
}

/// What in `s` (with `steady_load`, [`steady_load`]) rules out theory's
/// [`PoolLine`] for a pool whose threads outnumber the cores, in words ("a
/// caller timeout"), the first found; `None` where nothing a learner sets
/// does, or where `s` has no thread limit. [`pool_line`] holds only where
/// this is `None`, so its note and its model cannot drift apart.
fn no_pool_line_because(s: &Scenario, steady_load: bool) -> Option<String> {
    let threads = s.thread_limit()?;
    Some(
        if s.timeout_ms.is_some() {
            "a caller timeout"
        } else if s.queue_limit.is_some() {
            "a line limit"
        } else if s.retries > 0 {
            "retries"
        } else if s.shed_after_ms.is_some() {
            "shedding"
        } else if s.max_connections.is_some() {
            "a connection limit"
        } else if analytic::dep_slots(s).is_some() {
            "a limit at the dependency"
        } else if s.conn_requests > 1 {
            "keep-alive connections"
        } else if s.arrivals != Arrivals::Poisson {
            "arrivals that are not random"
        } else if !steady_load {
            "a load that changes"
        } else if threads > POOL_LINE_MAX_THREADS {
            return Some(format!("a pool over {POOL_LINE_MAX_THREADS} threads"));
        } else {
            return None;
        }
        .to_owned(),
    )
}

/// Theory's closed line of one loop's keep-alive connections.
#[derive(Clone, Debug, PartialEq)]
pub enum KeepAlive {
    /// The loop alone: every step on it ([`ClosedLoop`]).
    Loop(ClosedLoop),
    /// The loop and its own pool, the heavy steps handed to the pool
    /// ([`ClosedPair`]); its utilisation is the cores'.
    Pair(ClosedPair),
}

/// Fewest requests a connection for theory's closed line of keep-alive
/// connections ([`keep_alive_loop`]): its two layers hold when a connection
/// lives long against the loop's line. The WAF checks on the loops at 85 %
/// (connections dealt at random, four seeds) ran 2.02, 1.36, 1.25, 1.15
/// and 1.02 times the closed line's mean with 2, 5, 10, 50 and 500
/// requests a connection, and 0.76, 0.51, 0.47, 0.44 and 0.39 times the
/// open M/G/1 line's: from 5 on the closed line is the nearer.
const CLOSED_LOOP_MIN_REQUESTS: u32 = 5;

fn var(mean: f64, dist: Dist) -> f64 {
    match dist {
        Dist::Const => 0.0,
        Dist::Exp => mean * mean,
    }
}

/// Mean CPU per request and its variance, ms and ms², over both classes,
/// with the CPU the engine adds ([`analytic::cpu_ms_per_request`]: thread
/// creation, hand-offs) counted in the mean only.
fn cpu_moments(s: &Scenario) -> (f64, f64) {
    let (h, l) = (s.heavy_share, 1.0 - s.heavy_share);
    let second = |m: f64| var(m, s.cpu_dist) + m * m;
    let mean = l * s.cpu_ms + h * s.heavy_cpu_ms;
    let ex2 = l * second(s.cpu_ms) + h * second(s.heavy_cpu_ms);
    let write_var = var(s.write_ms, s.cpu_dist);
    (
        analytic::cpu_ms_per_request(s),
        (ex2 - mean * mean).max(0.0) + write_var,
    )
}

/// A rate in rps as the reasons write it: "150", "0.5", "1,100".
fn rps_text(rps: f64) -> String {
    // One decimal, unless that decimal would be 0 ("1,287", not "1,287.0").
    if ((rps * 10.0).round() / 10.0).fract() == 0.0 {
        fmt_fixed(rps, 0)
    } else {
        fmt_fixed(rps, 1)
    }
}

/// The reason theory gives no response time when the dependency binds and
/// each request makes several calls at once.
const NO_FAN_OUT_FORMULA: &str =
    "no formula: the slowest of N calls through a shared line at the dependency";

impl Theory {
    /// The dependency's limit with every call sent twice, rps, where hedges
    /// may tip it over and keep it there ([`HedgeOverload`], not certain):
    /// the second state beside the figures, which are the first's. `None`
    /// otherwise.
    pub fn tipped_limit_rps(&self) -> Option<f64> {
        self.dep
            .hedge_overload
            .filter(|o| !o.certain)
            .map(|o| o.all_limit_rps)
    }
}

impl Theory {
    /// True when the curve can show this scenario's formulas with one
    /// worker beside its own `servers`: the open line's formulas hold for
    /// any number. A closed line of keep-alive connections
    /// ([`Theory::keep_alive`]) is the scenario's own network, and has no
    /// such line.
    pub fn has_one_worker_line(&self) -> bool {
        self.servers > 1 && self.keep_alive.is_none() && self.pool_line.is_none()
    }

    /// How the curve names `n` of the line's workers
    /// ([`Theory::server_noun`]): "4 workers", "1 loop", "4 cores"; a
    /// [`PoolLine`] is its threads on their cores: "40 threads on 4 cores".
    pub fn servers_label(&self, n: u32) -> String {
        match &self.pool_line {
            Some(p) => format!(
                "{} on {}",
                plural(u64::from(p.threads), "thread"),
                plural(u64::from(p.cores), "core")
            ),
            None => plural(u64::from(n), self.server_noun),
        }
    }

    /// Mean response time, ms, of this scenario's queue with `servers`
    /// workers at utilisation `rho` (the curve's lines): the M/M/c wait
    /// scaled by (1 + SCV) / 2, plus the service and the delay.
    ///
    /// With keep-alive connections on pinned loops ([`Theory::keep_alive`])
    /// the line is closed: its mean at the loop, plus the delay.
    ///
    /// With a loop and its own pool ([`KeepAlive::Pair`]), the pair's
    /// mean for the scenario's own cores (the open line where the pair has
    /// no answer).
    pub fn mean_at(&self, servers: u32, rho: f64) -> f64 {
        match &self.keep_alive {
            Some(KeepAlive::Loop(lp)) => {
                // One line a loop: the curve asks for its own servers only.
                debug_assert_eq!(servers, self.servers);
                lp.mean_at_loop_ms(rho)
                    .map_or(f64::INFINITY, |m| m + self.delay_ms)
            }
            Some(KeepAlive::Pair(p)) if servers == self.servers => p
                .mean_inside_ms(rho)
                .map_or_else(|| self.open_mean_at(servers, rho), |m| m + self.delay_ms),
            _ => match &self.pool_line {
                Some(p) if servers == self.servers => p.at(rho).map_or(f64::INFINITY, |(m, _)| m),
                _ => self.open_mean_at(servers, rho),
            },
        }
    }

    /// The open line's mean: random arrivals at `rho`.
    fn open_mean_at(&self, servers: u32, rho: f64) -> f64 {
        let rho = self.line_rho(servers, rho);
        let wq = analytic::mmc_wait_ms(servers, self.service_ms, rho) * (1.0 + self.scv) / 2.0;
        wq + self.service_ms + self.delay_ms
    }

    /// The utilisation the formulas take for the line at `rho`: for loops
    /// that take arrivals in turn ([`Theory::dealt_in_turn`]), E_k/M/1's σ
    /// ([`analytic::dealt_in_turn_utilisation`]) on the scenario's own line.
    fn line_rho(&self, servers: u32, rho: f64) -> f64 {
        if servers == self.servers {
            analytic::dealt_in_turn_utilisation(self.dealt_in_turn, rho)
        } else {
            rho
        }
    }

    /// 99th percentile response time, ms, with `servers` workers at `rho`:
    /// the line's response-time quantile, with the delay after it
    /// ([`Theory::delay_shape`]) added as the random time it is (the
    /// slowest of its calls, hedged or not, convolved with the line's
    /// time) and a fixed one as a shift. The line is M/M/c's, or, where
    /// theory has the service's shape ([`Theory::service_shape`]), the
    /// shape's own tail ([`analytic::shaped_then_delay_p99_ms`]).
    ///
    /// With keep-alive connections ([`Theory::keep_alive`]), the closed
    /// line's own ([`Theory::keep_alive_p99`]).
    ///
    /// With a [`PoolLine`], the open line's p99 moved by the extra mean
    /// wait the pool's line adds (an approximation: the sale day's pool of
    /// 40 at 340 and 352 rps, 454.7 and 491.9 ms, where ten runs of 600 s
    /// took 458.2 and 515.5 on average), and none where the threads cannot
    /// keep up.
    pub fn p99_at(&self, servers: u32, rho: f64) -> f64 {
        if let Some(p99) = self.keep_alive_p99(servers, rho) {
            return p99;
        }
        match &self.pool_line {
            Some(p) if servers == self.servers => p.at(rho).map_or(f64::INFINITY, |(m, _)| {
                self.open_p99_at(servers, rho) + (m - self.open_mean_at(servers, rho)).max(0.0)
            }),
            _ => self.open_p99_at(servers, rho),
        }
    }

    /// The open line's p99 at `rho`: M/M/c's, or the service's shape's.
    fn open_p99_at(&self, servers: u32, rho: f64) -> f64 {
        match &self.service_shape {
            Some(shape) => {
                analytic::shaped_then_delay_p99_ms(servers, shape, rho, &self.delay_shape)
            }
            None => {
                let rho = self.line_rho(servers, rho);
                analytic::mmc_then_delay_p99_ms(servers, self.service_ms, rho, &self.delay_shape)
            }
        }
    }

    /// The p99 of a loop as a closed line of its keep-alive connections
    /// ([`Theory::keep_alive`]) at `rho`: the time at the loop from the
    /// chain's states as returning requests find them, then the delay;
    /// `None` without that model or at its limit.
    fn keep_alive_p99(&self, servers: u32, rho: f64) -> Option<f64> {
        // Each transform as a trait object: the inversion is compiled once.
        let p99 = |lst: &dyn Fn(Cx) -> Cx, mean: f64| {
            analytic::line_then_delay_percentile_ms(lst, mean, &self.delay_shape, 0.99)
        };
        match self.keep_alive.as_ref()? {
            KeepAlive::Loop(lp) => p99(&lp.time_at_loop_lst(rho)?, lp.mean_at_loop_ms(rho)?),
            KeepAlive::Pair(p) if servers == self.servers => {
                let (lst, mean) = p.time_inside_lst(rho)?;
                p99(&lst, mean)
            }
            KeepAlive::Pair(_) => None,
        }
    }

    /// "exact" or "approx.", for a label beside a figure.
    pub fn label(exact: bool) -> &'static str {
        if exact {
            "exact"
        } else {
            "approx."
        }
    }
}

/// Why theory has no formula when the loops' own steps bind before the cores.
const LOOPS_BIND: &str = "the loops' own steps (hand-offs included) reach their limit before the cores do: the loops are a line of their own, which no formula here models, so theory gives no response time";
/// Why theory has no formula when the workers' steps bind before the cores.
const WORKERS_BIND: &str = "the steps handed to the workers reach their limit before the cores do: the worker pool is a line of its own, which no formula here models, so theory gives no response time";

/// Response time, ms, of requests that arrive evenly spaced and never
/// wait: every time fixed, each request finds a free thread (the pool
/// frees one every gap × threads) and a free core (the CPU steps of the
/// requests in flight overlap no more than the cores), so each takes just
/// its CPU and its wait (D/D/c with room to spare: lesson 1's one thread
/// at 10 a second, 10 ms of CPU and 90 ms of waiting, 100 ms each). `None`
/// where a request could wait or the shape is other: random times, a
/// mix, a write step, calls to a dependency with limits or several calls,
/// event loops, anything that turns requests away, retries or timeouts.
pub fn evenly_spaced_no_wait_ms(s: &Scenario) -> Option<f64> {
    let fixed = s.arrivals == Arrivals::Uniform
        && s.rps_schedule.is_none()
        && s.conn_requests <= 1
        && matches!(s.model, Model::ThreadPool | Model::ThreadPerRequest)
        && s.cpu_dist == Dist::Const
        && (s.wait_dist == Dist::Const || s.wait_ms == 0.0)
        && s.heavy_share == 0.0
        && s.write_ms == 0.0
        && s.fan_out <= 1
        && s.hedge_after_ms.is_none()
        && analytic::dep_slots(s).is_none()
        && s.timeout_ms.is_none()
        && !excess_turned_away(s)
        && s.retries == 0
        && s.rps > 0.0;
    if !fixed {
        return None;
    }
    let gap_ms = 1000.0 / s.rps;
    let cpu_ms = analytic::cpu_ms_per_request(s);
    let hold_ms = analytic::thread_hold_ms(s);
    // A thread is free again after `hold_ms`; the pool takes arrivals in
    // turn, one every gap, so each thread gets one every threads × gap.
    let threads_free = s
        .thread_limit()
        .is_none_or(|t| f64::from(t) * gap_ms >= hold_ms * (1.0 - 1e-9));
    // CPU steps start one gap apart: at most ⌈cpu ÷ gap⌉ at once.
    let overlap = (cpu_ms / gap_ms * (1.0 - 1e-9)).ceil();
    (threads_free && overlap <= f64::from(s.cores)).then_some(hold_ms)
}

/// True when `s` runs event loops that each keep the connections they
/// accept (no shared accept): each loop serves only its own.
fn pinned(s: &Scenario) -> bool {
    s.model == Model::EventLoop && s.accept != Accept::Shared && !idle_accept_is_one_line(s)
}

/// True when idle loops accept ([`Accept::Idlest`]) connections that each
/// carry one request with one CPU step and no retry: a loop then holds a
/// connection only while it runs that step, and a new one waits in the
/// listen line until a loop is idle, so the loops share that one line
/// (M/M/c, where dealing them at random gave each loop its own).
fn idle_accept_is_one_line(s: &Scenario) -> bool {
    s.accept == Accept::Idlest
        && s.arrivals != Arrivals::Closed
        && s.conn_requests == 1
        && s.write_ms == 0.0
        && s.retries == 0
}

/// Why the single-queue model is not exactly this scenario (empty when it
/// is); `pool_line`: theory takes the pool and its cores as one line
/// ([`PoolLine`]).
fn approximations(
    s: &Scenario,
    cap: &Capacity,
    scv: f64,
    servers: u32,
    steady_load: bool,
    pool_line: bool,
    keep_alive: Option<&KeepAlive>,
) -> Vec<String> {
    let pinned = pinned(s);
    let pair = matches!(keep_alive, Some(KeepAlive::Pair(_)));
    let binding = cap.binding;
    let mut why: Vec<String> = Vec::new();
    if !steady_load {
        why.push(format!(
            "the load changes during the run; theory describes the first step's {} rps only",
            rps_text(s.steady_rps())
        ));
    }
    // When the loops' or the workers' own steps bind before the cores, no
    // formula is used: the reasons below are about one, so only what binds
    // is said.
    if let Some(part) = cap.part_binds() {
        why.push(
            match part {
                CpuPart::Loops => LOOPS_BIND,
                _ => WORKERS_BIND,
            }
            .to_owned(),
        );
        return why;
    }
    // Nor for clients that each wait for their answer: no line fed at a
    // rate, as the model of the line says, and a reason about a formula
    // would contradict it. (A batch keeps them: they are what its
    // makespan, rounds × the time a thread is held, leaves out.)
    if s.arrivals == Arrivals::Closed {
        return why;
    }
    if let Some(x) = s.shed_after_ms {
        why.push(format!(
            "requests that waited in line over {} ms are shed and never answered; the formula serves everyone",
            typed(x)
        ));
    }
    let mut add = |w: &str| why.push(w.to_owned());
    if conn_limit_counted(s) {
        add("a connection limit refuses requests: the rates count those it lets in (Erlang B, each connection held for a request's CPU and wait, its wait in line left out); the response-time formula has no limit");
        if s.queue_limit.is_some() && crate::scenario::has_line(s) {
            add("a line limit may refuse requests too; the formula has no limit");
        }
    } else if refuses_at_the_door(s) {
        add("a line or connection limit may refuse requests; the formula has no limit");
    }
    if s.timeout_ms.is_some() && s.drop_abandoned {
        add("requests whose caller left are dropped; the formula serves everyone");
    }
    if s.timeout_ms.is_some() && s.drop_hopeless {
        add("requests that cannot finish before their caller gives up are dropped; the formula serves everyone");
    }
    let tries_fail = s.timeout_ms.is_some()
        || s.shed_after_ms.is_some()
        || s.queue_limit.is_some()
        || s.max_connections.is_some();
    if s.retries > 0 && tries_fail {
        add("callers try again after a failed try, adding load the formula does not count");
    }
    if s.breaker_after.is_some() && tries_fail {
        add("the callers' circuit breaker may fail calls at once, so fewer reach the server than the formula counts");
    }
    if s.arrivals == Arrivals::Uniform {
        add("requests arrive evenly spaced; the formulas are for random (Poisson) arrivals, so theory gives no response time");
    }
    if pair {
        add("the formula takes each step as a random (exponential) time of its mean: on a loop, the light requests' steps and the hand-offs as one");
    } else if pool_line {
        // The pool's line is for random times (the cores shared evenly,
        // the wait any shape). Fixed CPU steps or waits fall into step in
        // the engine's slices: the sale day's pool of 40 at 340 rps ran
        // 119 ms with fixed CPU and 111 with both fixed, where it says 128.
        if s.cpu_dist == Dist::Const || s.wait_dist == Dist::Const {
            add("fixed times let the threads fall into step, so they wait less for a core than the formula says, which is for random times");
        }
    } else if (scv - 1.0).abs() > 1e-9 && servers > 1 && s.arrivals != Arrivals::Batch {
        // (A batch's makespan has no wait formula to correct.)
        add("service times are not random (exponential): the wait is the random-times wait scaled by how much the times vary (Allen and Cunneen's approximation)");
    }
    // With no line at the dependency the slowest of N calls, hedged or
    // not, is exact (W × H(N), or its survival integrated); a line there
    // makes each call a random wait plus its time.
    let dep_line = analytic::dep_slots(s).is_some();
    if s.fan_out > 1 && binding == Limit::Dependency {
        add(NO_FAN_OUT_FORMULA);
    } else if s.fan_out > 1 && dep_line {
        add("the wait is the slowest of several calls sent together, which may each wait in line at the dependency; calls sent together wait longer than the formulas here give for calls at random moments, so the formula takes the slowest call with no line and leaves that wait out");
    }
    if s.hedge_after_ms.is_some() && dep_line {
        add("hedged calls: the formula counts hedges and their time as if no call waited in line at the dependency; a line there makes calls later and sends more hedges");
    }
    if s.conn_requests > 1 {
        add(if pair {
            "keep-alive connections send a request only after the answer to the last, so a busy loop hears from fewer of them: the formula takes each loop and its pool as a closed network of two lines for its connections, with their number, think time and wait as random times of the same means"
        } else if keep_alive.is_some() {
            "keep-alive connections send a request only after the answer to the last, so a busy loop hears from fewer of them: the formula takes each loop as a closed line of its connections, with their number, think time and wait as random times of the same means"
        } else {
            "keep-alive connections send their requests one after another, each after the answer to the last, not at random moments"
        });
        // The run starts with no connection open, and they add up until
        // the first have sent all their requests (a connection lives about
        // N × (think + service)): until then fewer than rps arrive.
        // The measured window starts at the warm-up's share of the run at
        // the latest (a count of requests may start it sooner).
        let fill_s = keep_alive_fill_s(s);
        if fill_s > s.warmup * s.duration_s {
            let secs = if fill_s < 10.0 {
                fmt_fixed(fill_s, 1)
            } else {
                fmt_fixed(fill_s, 0)
            };
            add(&format!(
                "the run starts with no connection open: they open at {} a second and each sends for at least {secs} s (longer for any time in line), so the arrivals reach {} rps only after that, later than the warm-up ends",
                keep_alive_opens_text(s),
                rps_text(s.steady_rps()),
            ));
        }
    }
    // Calls sent together have no Erlang C wait: the fan-out note says so.
    if dep_line && binding != Limit::Dependency && s.fan_out == 1 {
        add("the line at the dependency is added as its mean wait (Erlang C), not as the random time it is");
    }
    if binding == Limit::Dependency
        && (s.mean_cpu_ms() > 0.0 || s.dep_pool.is_some() && s.dep_concurrency.is_some())
    {
        add("requests also queue for the CPU (and, with both a pool and a limit, twice at the dependency); the formula has one line");
    }
    match binding {
        Limit::Dependency => {}
        // The pool's line: what it leaves out is the slices, and its p99.
        Limit::Threads | Limit::Cpu if pool_line => {
            add(POOL_LINE_SLICES);
            add(POOL_LINE_P99);
        }
        Limit::Threads => {
            let threads = s.thread_limit().unwrap_or(1);
            // (Requests that use no CPU never queue for a core.)
            let cpu = analytic::cpu_ms_per_request(s) > 0.0;
            if cpu && f64::from(threads) > s.usable_cores() {
                // Not "the formula" alone: beside a run of the same server
                // whose theory shares the cores (a pool's line, without a
                // timeout, say), the two notes read as a contradiction.
                let why = no_pool_line_because(s, steady_load).map_or(String::new(), |w| {
                    format!(" (the one that shares the cores among the busy threads is not used with {w})")
                });
                add(&format!("threads also queue for the cores and pay for switches; the simpler formula used here gives each thread its own core{why}"));
            } else if analytic::switch_share(s, CpuPart::Cores) > 0.0 {
                add("each CPU step also pays for a context switch; the formula leaves it out");
            }
        }
        Limit::Cpu => {
            match s.model {
                Model::ThreadPool if s.wait_ms > 0.0 || s.threads != s.cores => add(
                    "the pool's threads are held while requests wait and while they wait for a core; the formula assumes the pool never runs out",
                ),
                Model::ThreadPool => {}
                Model::ThreadPerRequest => add(
                    "threads share the cores in time slices, not first come, first served",
                ),
                Model::EventLoop => {
                    let loops = s.loop_count();
                    if loops > s.cores {
                        add("more loops than cores share the cores in time slices");
                        if pinned {
                            add("each connection stays on its loop, so a core can idle while another loop has a line; the formula has one line for the cores");
                        }
                    }
                    // With one loop every connection goes to it: no dealing.
                    match s.accept {
                        Accept::RoundRobin
                            if pinned && loops > 1 && dealt_in_turn(s, binding, scv) == 1 =>
                        {
                            add("connections dealt to loops in turn arrive more evenly than at random, so each loop's line is shorter than the formula's")
                        }
                        Accept::Idlest if pinned && loops > 1 => add("idle loops take more connections; the formula deals them at random"),
                        _ => {}
                    }
                }
                // The cores bind (a part binding returned above).
                // Each loop and its pool as a network of two lines: what
                // it leaves out is the cores' share.
                Model::EventLoopWorkers if pair => {
                    add("the loops and workers share the cores: the formula slows a worker's step by how many threads want a core beside it, taken busy at random, and leaves out a loop's wait for a core");
                    if s.accept == Accept::Idlest && s.loop_count() > 1 {
                        add("idle loops take more connections; the formula deals them at random");
                    }
                }
                Model::EventLoopWorkers => {
                    if analytic::offloaded(s).0 > 0.0 {
                        add("steps handed to workers queue twice (loop, then pool); the formula has one line");
                    }
                    // As for plain loops: a loop runs its step to the end,
                    // but loops that outnumber the cores take turns on them
                    // in slices, not first come, first served (6 loops on
                    // 2 cores, random 20 ms steps at 40 %: 20 runs of
                    // 200,000 requests had a p99 of 117.9 ms, M/M/2 gives
                    // 102.8; with fixed steps the mean too, 23.2 ms where
                    // M/D/2 gives 21.9).
                    if s.loop_count() > s.cores {
                        add("more loops than cores share the cores in time slices");
                    }
                    // Connections stay on the loop that accepted them (and
                    // with a pool per loop, on its workers): one line per
                    // loop, not one for the cores.
                    if s.accept != Accept::Shared && s.loop_count() > 1 {
                        add(if s.pool_per_loop {
                            "each connection stays on the loop that accepted it, and its steps on that loop's own workers: a busy loop's line cannot move to an idle one"
                        } else {
                            "each connection stays on the loop that accepted it: a busy loop's line cannot move to an idle one"
                        });
                        if s.accept == Accept::Idlest {
                            add("idle loops take more connections; the formula deals them at random");
                        }
                    }
                }
            }
            // An event loop puts a write at the back of its line even with
            // no wait before it: other requests are served in between. So
            // do loops beside workers (one loop on one core, random 10 ms
            // reads and 0.5 ms writes at 43 %: 20 runs of 200,000 requests
            // took 25.0 ms on average where one visit of 10.5 ms gives 18.0).
            let loops = s.model.has_loops();
            if s.write_ms > 0.0 && (s.wait_ms > 0.0 || loops) {
                add("each request visits the CPU twice, for its read and its write, with others served in between; the formula sees one visit");
            }
        }
    }
    why
}

/// What theory leaves out where switches add `share` to the CPU of `part`.
fn switch_note(share: f64, part: CpuPart) -> String {
    format!(
        "context switches can add up to {} % to {}; the formulas, the CPU limit and CPU busy leave them out",
        // Rounded up: "up to" stays true.
        fmt_fixed((share * 100.0).ceil(), 0),
        match part {
            CpuPart::Cores => "the CPU each request needs",
            CpuPart::Loops => "the loops' own steps",
            CpuPart::Workers => "the workers' steps",
        }
    )
}

/// The share of a request's CPU that context switches may add
/// ([`analytic::switch_share`]) from which theory calls its CPU figures
/// estimates: 1 %. Below it they move a figure by less than the tolerances
/// the engine's checks against theory allow, and seldom its last digit
/// shown (whole per cents); the default 5 µs switch adds at most 0.63 % to
/// a request of one CPU step of 1 ms or more (4 ms slices).
pub const DEAR_SWITCHES: f64 = 0.01;

impl Theory {
    /// How the rates theory takes from the offered load (throughput, CPU
    /// busy) stand against a run: exact where [`Theory::load_exact`], else
    /// estimates.
    pub fn load_bound(&self) -> Bound {
        exact_if(self.load_exact)
    }

    /// True when switches add less than [`DEAR_SWITCHES`] to a request's
    /// CPU ([`Theory::switch_share`]).
    pub fn cpu_exact(&self) -> bool {
        self.switch_share < DEAR_SWITCHES
    }

    /// How the CPU limit stands against a run: exact unless switches are
    /// dear ([`Theory::cpu_exact`]).
    pub fn cpu_bound(&self) -> Bound {
        exact_if(self.cpu_exact())
    }

    /// How CPU busy stands against a run: exact where the CPU
    /// ([`Theory::cpu_bound`]) and the throughput
    /// ([`Theory::throughput_bound`]) are.
    pub fn cpu_busy_bound(&self) -> Bound {
        exact_if(self.cpu_exact() && self.throughput_bound() == Bound::Exact)
    }

    /// How much less than the lower of the thread limit and the CPU limit
    /// the threads finish for their waits for a core, as a share of what
    /// they finish ([`Theory::pool_rps`]); 0 where none waits.
    pub fn core_wait_share(&self) -> f64 {
        core_wait_share(self.pool_rps, &self.capacity)
    }

    /// True when the threads' waits for a core take [`DEAR_SWITCHES`] or
    /// more off the lower of the thread and CPU limits
    /// ([`Theory::core_wait_share`]): more threads still help, up to the
    /// CPU limit.
    pub fn threads_wait_for_cores(&self) -> bool {
        self.core_wait_share() >= DEAR_SWITCHES
    }

    /// Calls a second sent to the dependency of `s` (this theory's
    /// scenario) where it is the binding limit: requests reach the wait
    /// step as fast as they arrive, up to the CPU and thread limits, and
    /// each sends its `fan_out` calls whether or not a connection or slot
    /// is free, so past the limit more are sent than the dependency serves
    /// ([`DepTheory::calls_rps`]). `None` where the dependency does not bind.
    pub fn dep_calls_sent_rps(&self, s: &Scenario) -> Option<f64> {
        let cap = &self.capacity;
        (cap.binding == Limit::Dependency).then_some(())?;
        let reached = self
            .offered_rps?
            .min(cap.cpu_limit_rps)
            .min(cap.thread_limit_rps.unwrap_or(f64::INFINITY));
        Some(reached * f64::from(s.fan_out))
    }

    /// What all the threads finish when every one is busy, rps, where they
    /// wait for cores enough to matter ([`Theory::threads_wait_for_cores`]):
    /// below both the thread and the CPU limit (20 threads on 2 cores:
    /// about 176 where both say 200), the figure the throughput follows.
    /// `None` elsewhere.
    pub fn all_busy_rps(&self) -> Option<f64> {
        self.pool_rps.filter(|_| self.threads_wait_for_cores())
    }

    /// How the thread limit stands against a run: exact unless switches
    /// add [`DEAR_SWITCHES`] or more to the time a thread holds a request
    /// ([`Theory::held_switch_share`]), or, where it is no higher than the
    /// CPU limit, the waits for a core take as much off it
    /// ([`Theory::core_wait_share`]; where the CPU limit is lower, that is
    /// the capacity's estimate, [`Theory::capacity_bound`]).
    pub fn thread_limit_bound(&self) -> Bound {
        let cap = &self.capacity;
        let lower = cap.thread_limit_rps.is_some_and(|t| t <= cap.cpu_limit_rps);
        let waits = lower && self.threads_wait_for_cores();
        exact_if(self.held_switch_share < DEAR_SWITCHES && !waits)
    }

    /// The least the capacity can be, rps: the least of the capacity, the
    /// CPU limit less what switches add to its CPU, and the thread limit
    /// and what the threads finish on the cores ([`Theory::pool_rps`]),
    /// each less what switches add to the time a thread is held.
    fn capacity_floor_rps(&self) -> f64 {
        let cap = &self.capacity;
        let held = 1.0 + self.held_switch_share;
        let threads = cap.thread_limit_rps.map_or(f64::INFINITY, |t| t / held);
        let pool = self.pool_rps.map_or(f64::INFINITY, |p| p / held);
        let cpu = cap.cpu_limit_rps / (1.0 + self.switch_share);
        cap.capacity_rps.min(cpu).min(threads).min(pool)
    }

    /// The most switches and waits for a core can take off the capacity,
    /// as a share of the least it can be ([`Theory::capacity_floor_rps`]).
    fn capacity_share(&self) -> f64 {
        let (cap, floor) = (self.capacity.capacity_rps, self.capacity_floor_rps());
        // No capacity to lose where the floor is the capacity (both
        // infinite with no time at all).
        if floor > 0.0 && floor < cap {
            cap / floor - 1.0
        } else {
            0.0
        }
    }

    /// How the capacity stands against a run: exact unless switches are
    /// dear or threads wait for cores, and could bring it lower
    /// ([`Theory::capacity_share`]).
    pub fn capacity_bound(&self) -> Bound {
        exact_if(self.capacity_share() < DEAR_SWITCHES)
    }

    /// The least the CPU limit can be with its switches, rps: less the
    /// share of CPU they add where they are dear ([`Theory::cpu_exact`]).
    pub fn cpu_limit_low_rps(&self) -> f64 {
        let rps = self.capacity.cpu_limit_rps;
        if self.cpu_exact() {
            rps
        } else {
            rps / (1.0 + self.switch_share)
        }
    }

    /// The least the capacity can be with its switches and the waits for
    /// a core, rps ([`Theory::capacity_floor_rps`]) where they take a dear
    /// share of it; else the capacity.
    pub fn capacity_low_rps(&self) -> f64 {
        if self.capacity_bound() == Bound::Exact {
            self.capacity.capacity_rps
        } else {
            self.capacity_floor_rps()
        }
    }

    /// True when theory has the server exactly full or past it
    /// (utilisation 1, within rounding, or more) and a line forms: at
    /// exactly 1 the line keeps no set growth yet never settles. Where no
    /// line forms ([`Theory::no_line`]: evenly spaced, fixed times) a
    /// server exactly full is settled, with nobody waiting.
    pub fn at_full_load(&self) -> bool {
        !self.no_line && self.utilisation.is_some_and(|u| u >= 1.0 - 1e-9)
    }

    /// True when theory's line grows without limit: it grows by a set
    /// amount a second, or the server is exactly full, where the line
    /// grows by no set amount but wanders and never settles. The figures'
    /// rows and the note under them say "grows without limit" then.
    pub fn grows_without_limit(&self) -> bool {
        self.growth_per_s
            .is_some_and(|g| g > 0.0 || self.at_full_load())
    }

    /// True when the offered rate is below the least the capacity can be
    /// ([`Theory::capacity_low_rps`]): the server keeps up, whatever its
    /// switches and waits for a core take.
    fn keeps_up(&self) -> bool {
        self.offered_rps
            .is_some_and(|o| o < self.capacity_low_rps())
    }

    /// How the expected throughput ([`Theory::expected_rps`]) stands
    /// against a run: as the load, and an estimate where
    /// dear switches or waits for a core could bring the capacity down to
    /// the offered rate.
    pub fn throughput_bound(&self) -> Bound {
        let at_capacity = self.capacity_bound() == Bound::Exact && self.overload_finish_exact;
        exact_if(self.load_exact && (at_capacity || self.keeps_up()))
    }

    /// How the line's growth (offered − what finishes) stands against a run: as
    /// the capacity ([`Theory::capacity_bound`]), and exact (none) where
    /// the server keeps up whatever its switches and waits for a core take.
    pub fn growth_bound(&self) -> Bound {
        let at_capacity = self.capacity_bound() == Bound::Exact && self.overload_finish_exact;
        exact_if(at_capacity || self.keeps_up())
    }

    /// Set the threads theory counts, and the stack they reserve with them.
    fn set_threads(&mut self, s: &Scenario, threads: Option<Threads>) {
        self.threads = threads;
        self.stack_reserved_mb = threads.map(|t| t.count() * s.stack_reserved_kb / 1000.0);
    }
}

/// Why an overloaded server finishes other than its capacity, by the way
/// it orders its work, or `None` where it finishes its capacity:
/// * event loops with a write step take the reads of newer arrivals before
///   the writes of older ones, so they finish fewer as the load rises
///   (loops limited to 333 a second finished 311 at 367 offered and 246
///   at 500);
/// * a loop that hands some requests to its workers and serves the rest
///   itself keeps up with its own while the handed ones pile up at the
///   workers: the finished mix is lighter or heavier than the arrivals',
///   so more or fewer finish than the capacity (one loop and four workers
///   on four cores, a tenth of requests handed over with 40 ms: 873 a
///   second at 897 offered, where the capacity is 815.5); where the
///   workers are the limit (`cap`, the scenario's [`analytic::capacity`]),
///   more finish than it.
pub fn overload_reorders(s: &Scenario, cap: &Capacity) -> Option<&'static str> {
    let loops = s.model.has_loops();
    let handed = analytic::offloaded(s).0;
    if loops && s.write_ms > 0.0 {
        Some("overloaded, the loops take the reads of new requests before the writes of older ones, so they finish fewer than their capacity")
    } else if s.model == Model::EventLoopWorkers && handed > 0.0 && handed < 1.0 {
        Some(if analytic::workers_bind_some(s, cap).is_some() {
            // Theory counts them then, where it can
            // (analytic::past_workers_finish_rps).
            "overloaded, the requests the loops serve themselves keep finishing while those handed to the workers pile up there: more finish than the workers' limit"
        } else {
            "overloaded, the requests the loops serve themselves keep finishing while those handed to the workers pile up there, so the mix that finishes is not the mix that arrives, and more or fewer finish than the capacity"
        })
    } else {
        None
    }
}

/// Exact when `exact`, else an estimate.
fn exact_if(exact: bool) -> Bound {
    if exact {
        Bound::Exact
    } else {
        Bound::Approx
    }
}

/// True when a thread holding a request never waits for anything but the
/// request's own steps: it always has a core and pays no switches (no
/// more threads than cores and no switch cost, or no CPU time) and never
/// waits for a dependency's slot (no limit, or calls that take no time).
/// Then the threads busy are exactly the arrivals × the time held with no
/// line, by Little's law; otherwise that is a floor.
fn no_wait_while_held(s: &Scenario) -> bool {
    let no_cpu = analytic::cpu_ms_per_request(s) == 0.0;
    // A core pays `switch_us` whenever it runs another thread than last,
    // even with cores to spare: CPU time the thread holds.
    let own_core =
        no_cpu || threads_fit_cores(s) && analytic::switch_share(s, CpuPart::Cores) == 0.0;
    let own_slot = analytic::dep_slots(s).is_none() || s.wait_ms == 0.0;
    own_core && own_slot
}

/// True when the threads holding requests can never outnumber the cores
/// (a pool or a cap no bigger than the cores): none waits for a core.
fn threads_fit_cores(s: &Scenario) -> bool {
    s.thread_limit().is_some_and(|t| t <= s.cores)
}

/// What the threads finish together on the cores when every one is busy,
/// rps ([`analytic::pool_on_cores_rps`]), where they can outnumber the
/// cores and take CPU: their CPU with the engine's costs, and off it the
/// wait step.
fn pool_on_cores_rps(s: &Scenario) -> Option<f64> {
    let cpu = analytic::cpu_ms_per_request(s);
    let threads = s
        .thread_limit()
        .filter(|_| !threads_fit_cores(s) && cpu > 0.0)?;
    Some(analytic::pool_on_cores_rps(
        threads,
        s.cores,
        cpu,
        analytic::wait_step_ms(s),
    ))
}

/// Why the thread limit is an estimate where threads wait for a core
/// ([`Theory::core_wait_share`] from [`DEAR_SWITCHES`] up): what `threads`
/// finish on `cores` when all are busy (`pool_rps`) beside the lower of
/// the thread limit and the CPU limit (`limit_rps`), both rps.
fn core_wait_note(threads: u32, cores: u32, pool_rps: f64, limit_rps: f64) -> String {
    let rps = |x: f64| fmt_fixed(x, decimals_for(x));
    format!(
        "threads that outnumber the cores also wait for one, which the thread and CPU limits leave out: {} on {} finish about {} rps when all are busy, not {} (a finite-source model)",
        plural(u64::from(threads), "thread"),
        plural(u64::from(cores), "core"),
        rps(pool_rps),
        rps(limit_rps),
    )
}

/// Why the capacity is an estimate where the threads' waits for a core
/// and the switches in the time they hold a request each take less than
/// [`DEAR_SWITCHES`] but together `share` (of the least the capacity can
/// be, [`Theory::capacity_share`]) or more.
fn small_shares_note(share: f64) -> String {
    format!(
        "threads that outnumber the cores also wait for one, and context switches add to the time they hold a request: small alone, together they can take up to {} % off the capacity, which the thread and CPU limits leave out",
        // Rounded up: "up to" stays true.
        fmt_fixed((share * 100.0).ceil(), 0),
    )
}

/// How the busy threads, the offered rate × the time held with no line,
/// stand against a run. An estimate unless every request of one steady
/// rate gets a thread once: a load schedule that changes (the count is the
/// first step's), retries (more tries than arrivals), anything that turns
/// requests away before a thread takes them, or keep-alive connections
/// (their requests reach the rate only once the connections have filled).
/// Then exact where no thread waits while it holds a request
/// ([`no_wait_while_held`]), else a floor.
fn busy_bound(s: &Scenario) -> Bound {
    let every_request_once = load_as_offered(s) && s.conn_requests <= 1 && !excess_turned_away(s);
    match (every_request_once, no_wait_while_held(s)) {
        (false, _) => Bound::Approx,
        (true, true) => Bound::Exact,
        (true, false) => Bound::AtLeast,
    }
}

/// True when `s` has a line or connection limit that refuses requests at
/// the door (a line limit counts only where there is a line to limit).
fn refuses_at_the_door(s: &Scenario) -> bool {
    s.queue_limit.is_some() && crate::scenario::has_line(s) || s.max_connections.is_some()
}

/// True when `s` refuses, sheds or drops requests, so an overloaded line
/// need not grow without limit: a line or connection limit, shedding, or
/// dropping requests whose caller has gone or cannot be answered in time.
pub fn excess_turned_away(s: &Scenario) -> bool {
    refuses_at_the_door(s)
        || s.shed_after_ms.is_some()
        || s.timeout_ms.is_some() && (s.drop_abandoned || s.drop_hopeless)
}

/// Whether theory counts what a connection limit lets in
/// ([`conn_admitted_rps`]): a limit, a connection per request and random
/// arrivals.
fn conn_limit_counted(s: &Scenario) -> bool {
    s.max_connections.is_some() && s.conn_requests <= 1 && s.arrivals == Arrivals::Poisson
}

/// Requests per second a connection limit lets in, of `offered`: where
/// each request opens its own connection and arrivals are random, those
/// that find a place free, by Erlang B, each connection held for the time
/// a request is served and waits ([`analytic::thread_hold_ms`], plus
/// `dep_wait_ms`, the mean wait in line at the dependency, ms; a wait in
/// the server's own line is left out). Lesson 6's 1,024 connections of
/// 10 s at 1,000 rps let in about 102 a second, where the offered 1,000
/// (so 25 % of the CPU) stood beside the run's 1.9 %. Offered at least
/// `finish_rps`, the most the server finishes, the connections fill up
/// behind that limit and let in only what it finishes (the database
/// pool's 600 rps with 1,000 connections: 500, where Erlang B on the time
/// held with no line let nearly all in). `offered` as it is otherwise.
fn conn_admitted_rps(
    s: &Scenario,
    offered: Option<f64>,
    finish_rps: f64,
    dep_wait_ms: f64,
) -> Option<f64> {
    match (s.max_connections, offered) {
        (Some(c), Some(r)) if conn_limit_counted(s) => {
            let a = r * (analytic::thread_hold_ms(s) + dep_wait_ms) / 1000.0;
            let in_rps = r * (1.0 - analytic::erlang_b(c, a));
            Some(if r >= finish_rps {
                in_rps.min(finish_rps)
            } else {
                in_rps
            })
        }
        _ => offered,
    }
}

/// Tries per second if every try of `s` timed out: (1 + retries) ×
/// `offered` calls per second, where that reaches `capacity` rps while the
/// calls alone stay below it ([`Theory::retry_storm_rps`]). Only where
/// nothing else bounds the tries or the line: no retry budget, no breaker,
/// nobody dropped, refused, shed or turned away, the line served oldest
/// first (each changes the second state, and theory has no formula for it).
pub fn retry_storm_rps(s: &Scenario, offered: Option<f64>, capacity: f64) -> Option<f64> {
    let calls = offered?;
    // Served newest first, new tries are answered in time however long the
    // line (lesson 14's adaptive LIFO keeps most callers in time).
    let unbounded = s.timeout_ms.is_some()
        && !s.newest_first()
        && s.retries > 0
        && s.retry_budget.is_none()
        && s.breaker_after.is_none()
        && !excess_turned_away(s)
        && s.queue_limit.is_none();
    let all = calls * f64::from(1 + s.retries);
    (unbounded && calls < capacity && all >= capacity).then_some(all)
}

/// The analytic companion of `s`.
pub fn theory(s: &Scenario) -> Theory {
    let offered =
        matches!(s.arrivals, Arrivals::Poisson | Arrivals::Uniform).then_some(s.steady_rps());
    // Hedges that overload the dependency for sure send every call twice:
    // its limit then counts them all.
    let base = analytic::capacity(s);
    let overload = hedge_overload(s, offered, &base);
    let capacity = match overload {
        Some(o) if o.certain => analytic::with_dep_limit(base, Some(o.all_limit_rps)),
        _ => base,
    };
    let (cpu_mean, cpu_var) = cpu_moments(s);
    let steady_load = steady_load(s);
    let pool_line = pool_line(s, &capacity, steady_load);
    let pool_rps = pool_on_cores_rps(s);
    // What the server finishes at most: the capacity, and with a pool line
    // whose threads' waits for a core are dear, what all its threads
    // finish on the cores (the sale day's pool of 40: about 365, not 400).
    // Workers that take only some of the requests: past their limit the
    // others still finish ([`analytic::past_workers_finish_rps`]).
    let past_workers = offered.and_then(|r| analytic::past_workers_finish_rps(s, &capacity, r));
    let finish_rps = match (pool_rps, pool_line, past_workers) {
        (_, _, Some(finish)) => finish,
        (Some(all_busy), Some(_), _) if core_wait_share(pool_rps, &capacity) >= DEAR_SWITCHES => {
            capacity.capacity_rps.min(all_busy)
        }
        _ => capacity.capacity_rps,
    };
    let dep = dep_theory(s, offered, &capacity, finish_rps, overload);
    // The wait step: one call, the slowest of several, or a hedged call,
    // plus the mean wait in line at the dependency when that is not the limit.
    let (step_mean, step_var) = wait_step_moments(s);
    let dep_wq = dep.queue_wait_ms.or(dep.pool_wait_ms).unwrap_or(0.0);
    let admitted = conn_admitted_rps(s, offered, finish_rps, dep_wq);
    let (wait_mean, wait_var) = (step_mean + dep_wq, step_var);
    let pinned = pinned(s);
    let loops = s.loop_count();
    // Pinned loops are each their own line when each has a core; with more
    // loops than cores, the cores they share are the line (approximately:
    // 8 loops on 2 cores at 90 % ran 59 ms; M/M/2 gives 53, and one line
    // per loop at 1/8 of the traffic gave 13).
    let own_lines = pinned && loops <= s.cores;
    let (servers, service_ms, svc_var, delay_ms, (line_at, server_noun)) = match capacity.binding {
        Limit::Threads => {
            let t = s.thread_limit().unwrap_or(1).max(1);
            (
                t,
                cpu_mean + wait_mean,
                cpu_var + wait_var,
                0.0,
                (
                    if s.model == Model::ThreadPerRequest {
                        format!("the cap of {}", plural(u64::from(t), "thread"))
                    } else {
                        format!(
                            "the pool's {}",
                            crate::text::counted(u64::from(t), "thread")
                        )
                    },
                    "worker",
                ),
            )
        }
        Limit::Dependency => {
            let k = analytic::dep_slots(s).unwrap_or(1).max(1);
            let at = match (s.dep_pool, s.dep_concurrency) {
                (Some(n), c) if c.is_none_or(|c| n <= c) => (
                    format!(
                        "{} to the dependency",
                        crate::text::the_count(u64::from(n), "connection")
                    ),
                    "connection",
                ),
                _ => (
                    format!("the dependency's {}", plural(u64::from(k), "slot")),
                    "slot",
                ),
            };
            (k, s.wait_ms, var(s.wait_ms, s.wait_dist), cpu_mean, at)
        }
        Limit::Cpu => {
            let (c, at) = match s.model {
                Model::EventLoop if own_lines && loops == 1 => {
                    (1, ("the one loop".to_owned(), "loop"))
                }
                Model::EventLoop if own_lines => (
                    1,
                    (
                        format!(
                            "each of the {} loops (each connection stays on one loop, so each loop is its own line)",
                            crate::text::group_thousands(&loops.to_string())
                        ),
                        "loop",
                    ),
                ),
                Model::EventLoop if pinned => (
                    s.cores,
                    (
                        format!(
                            "{} that the {} loops share",
                            crate::text::the_count(u64::from(s.cores), "core"),
                            crate::text::group_thousands(&loops.to_string())
                        ),
                        "core",
                    ),
                ),
                // Loops sharing one line: the servers are the loops, or,
                // with fewer cores than loops, the cores they share.
                Model::EventLoop if loops > s.cores => (
                    s.cores,
                    (
                        format!(
                            "{} that the {} loops share (one line)",
                            crate::text::the_count(u64::from(s.cores), "core"),
                            crate::text::group_thousands(&loops.to_string())
                        ),
                        "core",
                    ),
                ),
                Model::EventLoop => (
                    loops,
                    (
                        format!("{} sharing one line", plural(u64::from(loops), "loop")),
                        "loop",
                    ),
                ),
                Model::EventLoopWorkers => {
                    // The cores the loops and their workers can keep busy,
                    // or a part that binds first (no formula for it).
                    let (c, noun) = match capacity.cpu_part {
                        CpuPart::Cores => (s.usable_cores() as u32, "core"),
                        CpuPart::Workers => (s.cores.min(s.worker_threads()), "worker thread"),
                        CpuPart::Loops => (s.cores.min(loops), "loop"),
                    };
                    (c, (crate::text::the_count(u64::from(c), noun), noun))
                }
                // Threads on the cores: the course calls a server a worker.
                _ => (
                    s.cores,
                    (
                        crate::text::the_count(u64::from(s.cores), "core"),
                        "worker",
                    ),
                ),
            };
            (c, cpu_mean, cpu_var, wait_mean, at)
        }
    };
    let scv = if service_ms > 0.0 {
        (svc_var / (service_ms * service_ms)).max(0.0)
    } else {
        0.0
    };
    // Pinned loops: each loop is its own one-worker queue with 1/L of the
    // traffic; the dependency's line sees calls, not requests.
    let per_line_rps = match (offered, capacity.binding) {
        (Some(r), Limit::Cpu) if own_lines => Some(r / f64::from(loops)),
        (Some(_), Limit::Dependency) => dep.calls_rps,
        (r, _) => r,
    };
    let rho = per_line_rps.map(|r| r * service_ms / 1000.0 / f64::from(servers));
    let letter = if scv == 0.0 {
        "D"
    } else if (scv - 1.0).abs() < 1e-12 {
        "M"
    } else {
        "G"
    };
    // No formula for the slowest of several calls through a shared line.
    let fan_out_at_limit = capacity.binding == Limit::Dependency && s.fan_out > 1;
    // Nor for the loops' or the workers' own line when it binds before the
    // cores (the formula would share all the work over the cores: at 95 %
    // of one worker's limit it gave 13 ms where the run took 144 ms).
    let part_binds = capacity.part_binds().is_some();
    let stable = rho.is_some_and(|r| r < 1.0)
        && offered.is_some_and(|o| o < capacity.capacity_rps)
        && s.arrivals == Arrivals::Poisson
        && !fan_out_at_limit
        && !part_binds
        && overload.is_none();
    // A pair that has no answer at the scenario's own load (its pool,
    // slowed by the cores, cannot keep up) leaves the scenario to the open
    // line, so the figures and their reasons are one model's.
    let keep_alive = keep_alive_loop(s, &capacity, own_lines, (servers, service_ms), wait_mean)
        .filter(|k| match (k, rho) {
            (KeepAlive::Pair(p), Some(r)) if r < 1.0 => p.mean_inside_ms(r).is_some(),
            _ => true,
        });
    let dealt = dealt_in_turn(s, capacity.binding, scv);
    // Nobody waits: no line for a formula to be approximate about (dear
    // switches are said where they are found, below).
    let no_wait_ms = evenly_spaced_no_wait_ms(s);
    // A batch that no makespan describes has no formula either: notes on
    // how a formula differs would qualify nothing.
    let batch_makespan = makespan(s, &capacity);
    let no_formula = s.arrivals == Arrivals::Batch && batch_makespan.is_none();
    let mut approx_because = if no_wait_ms.is_some() || no_formula {
        Vec::new()
    } else {
        approximations(
            s,
            &capacity,
            scv,
            servers,
            steady_load,
            pool_line.is_some(),
            keep_alive.as_ref(),
        )
    };
    if let Some(o) = &overload {
        approx_because.push(hedge_overload_reason(s, o));
    }
    // Dear switches make the formulas estimates where they add a share of
    // the time a request is served, not only of its CPU (a page waiting
    // for 100 calls of 10 ms needs little CPU: 1 % more of it is no error);
    // otherwise, or where the threads bind (whose notes name the switches
    // but not the CPU figures), the note is the CPU figures'.
    let switches = analytic::switch_share(s, capacity.cpu_part);
    let hold_ms = analytic::thread_hold_ms(s);
    let held_switch_share = if hold_ms > 0.0 {
        analytic::switch_share(s, CpuPart::Cores) * analytic::cpu_ms_per_request(s) / hold_ms
    } else {
        0.0
    };
    let mut figure_notes = Vec::new();
    if switches >= DEAR_SWITCHES {
        let note = switch_note(switches, capacity.cpu_part);
        if capacity.binding != Limit::Threads && held_switch_share >= DEAR_SWITCHES {
            approx_because.push(note);
        } else {
            figure_notes.push(note);
        }
    }
    let queue_model = if pool_line.is_some() {
        "one line for the pool and its cores".to_owned()
    } else if let Some(KeepAlive::Pair(_)) = keep_alive {
        "a closed line of keep-alive connections through a loop and its pool".to_owned()
    } else if keep_alive.is_some() {
        "a closed line of keep-alive connections".to_owned()
    } else if dealt > 1 {
        format!("E{dealt}/{letter}/{servers}")
    } else {
        format!("M/{letter}/{servers}")
    };
    // What every request adds after the line: the wait off the CPU when
    // the cores are the line (random calls and a mean wait in line at the
    // dependency), the CPU when the dependency is.
    let delay_shape = match capacity.binding {
        Limit::Cpu => wait_delay(s, dep_wq),
        Limit::Dependency => Delay {
            fixed_ms: delay_ms,
            ..Delay::default()
        },
        Limit::Threads => Delay::default(),
    };
    let delay_random = delay_shape.calls > 0 && delay_shape.call_mean_ms > 0.0;
    let model_of_line = match s.arrivals {
        _ if part_binds => format!(
            "none: the steps on {line_at} reach their limit before the cores do, a line of its own that no formula here models"
        ),
        // Kendall's E_k, said in words.
        Arrivals::Poisson if dealt > 1 => format!(
            "{queue_model} at {line_at}: dealt in turn, each loop takes one arrival in {}, so the gaps between its arrivals are Erlang-{dealt} times (the E{dealt})",
            crate::text::group_thousands(&dealt.to_string())
        ),
        Arrivals::Poisson => match &pool_line {
            Some(p) => format!(
                "one line for the pool's {} on the {}, served as fast as its busy threads finish",
                plural(u64::from(p.threads), "thread"),
                plural(u64::from(p.cores), "core")
            ),
            None => format!("{queue_model} at {line_at}"),
        },
        Arrivals::Uniform => format!("D/{letter}/{servers} at {line_at}"),
        Arrivals::Batch => format!(
            "none: {} all at once are no line fed at a rate, so no queueing formula applies",
            plural(u64::from(s.count), "request")
        ),
        Arrivals::Closed if s.clients == 1 => {
            "none: 1 client that waits for each answer is no line fed at a rate, so no queueing formula applies"
                .to_owned()
        }
        Arrivals::Closed => format!(
            "none: {} that each wait for their answer are no line fed at a rate, so no queueing formula applies",
            plural(u64::from(s.clients), "client")
        ),
    };
    let threads_needed = admitted.map(|r| analytic::threads_needed(r, analytic::thread_hold_ms(s)));
    // Threads held by Little's law, at most the pool or the cap.
    let busy_at_most = |held: f64| s.thread_limit().map_or(held, |t| held.min(f64::from(t)));
    // How it orders its work overloaded: it marks the figures and notes why.
    let reorders = overload_reorders(s, &base);
    let retry_storm = retry_storm_rps(s, offered, capacity.capacity_rps);
    let mut th = Theory {
        offered_rps: offered,
        steady_load,
        // A server that refuses, sheds or drops turns some away even below
        // capacity: M/M/1 with 5 places at 90 rps finishes 80.8 (runs of
        // 11,600 s), where the offered rate said 90.
        load_exact: load_as_offered(s) && !excess_turned_away(s),
        switch_share: switches,
        held_switch_share,
        pool_rps,
        figure_notes,
        utilisation: offered.map(|r| r / capacity.capacity_rps),
        expected_rps: admitted.map(|r| r.min(finish_rps)),
        // Past the limit of workers that take some requests, the mix that
        // finishes is lighter than the arrivals': no figure for it.
        cpu_utilisation: admitted.filter(|_| past_workers.is_none()).map(|r| {
            let used = r.min(finish_rps);
            // Where the dependency binds and no thread limit holds arrivals
            // back before it, every arrival spends its CPU before the call
            // and only what finishes spends its write after: the database
            // pool's 600 arrivals × 1 ms on 4 cores, 15 % (runs 15.0 %),
            // where the 500 it finishes gave 12.5 %.
            let ms = if capacity.binding == Limit::Dependency && s.thread_limit().is_none() {
                r * (cpu_mean - s.write_ms) + used * s.write_ms
            } else {
                used * cpu_mean
            };
            (ms / 1000.0 / f64::from(s.cores)).min(1.0)
        }),
        servers,
        server_noun,
        line_at,
        service_ms,
        scv,
        delay_ms,
        delay_random,
        // Only when the wait comes after the line (the cores bind): when
        // threads bind the wait is already inside the service time.
        delay_p99_ms: (delay_random
            && (s.fan_out > 1 || s.hedge_after_ms.is_some() || dep_wq > 0.0))
            .then(|| {
                analytic::slowest_quantile_ms(s.fan_out, s.wait_ms, s.hedge_after_ms, 0.99) + dep_wq
            }),
        delay_shape,
        // Any service that is not exponential takes its tail from its
        // shape: on one server Pollaczek–Khinchine's transform is exact
        // (the exponential tail put M/D/1's p99 at twice the run's); on
        // several, the wait of one server that many times as fast is an
        // approximation, but far nearer the runs (M/D/4 at 80 %: 34.2 ms
        // against 34.8 simulated, where the exponential tail said 68.9).
        service_shape: (letter != "M")
            .then(|| service_shape(s, capacity.binding, dep_wq))
            .flatten(),
        keep_alive,
        pool_line,
        dealt_in_turn: dealt,
        dep,
        newest_first: s.newest_first(),
        no_line: false,
        queue_model,
        model_of_line,
        curve_formula: !fan_out_at_limit && !part_binds,
        mean_exact: false,
        p99_exact: false,
        approx_because: Vec::new(),
        line_wait_ms: None,
        mean_ms: None,
        p99_ms: None,
        threads_needed,
        threads: None,
        busy_threads: match s.model {
            Model::EventLoop | Model::EventLoopWorkers => None,
            Model::ThreadPool | Model::ThreadPerRequest => threads_needed.map(busy_at_most),
        },
        busy_threads_bound: busy_bound(s),
        stack_reserved_mb: None,
        makespan: batch_makespan,
        // Keeping up or melting as the bursts decide: no growth to give.
        // A load that changes grows the line by other rates at other times.
        // Likewise where every try timing out would hold the server past
        // its limit: its line grew by 440 a second in that state, where
        // theory said 0.
        growth_per_s: offered
            .filter(|_| overload.is_none_or(|o| o.certain) && steady_load)
            .filter(|_| retry_storm.is_none())
            .map(|r| (r - finish_rps).max(0.0))
            // Keep-alive connections send their next request only after an
            // answer: overloaded, connections pile up, not requests (the
            // WAF at 1,763 rps: 0.9 a second where offered − capacity
            // said 407).
            .filter(|g| {
                *g == 0.0 || !excess_turned_away(s) && s.retries == 0 && s.conn_requests <= 1
            }),
        overload_finish_exact: reorders.is_none(),
        retry_storm_rps: retry_storm,
        capacity,
    };
    if let (Some(pool), Some(threads)) = (th.pool_rps, s.thread_limit()) {
        if th.threads_wait_for_cores() {
            let limit = pool * (1.0 + th.core_wait_share());
            th.figure_notes
                .push(core_wait_note(threads, s.cores, pool, limit));
        } else if switches < DEAR_SWITCHES && th.capacity_bound() == Bound::Approx {
            // Neither alone is dear, but together they make the capacity
            // an estimate: say why where it is marked.
            th.figure_notes.push(small_shares_note(th.capacity_share()));
        }
    }
    if let (Some(why), false) = (reorders, th.keeps_up()) {
        th.figure_notes.push(why.to_owned());
    }
    // Where the server may not keep up, the calls go out at the rate it
    // finishes: an estimate where the capacity is.
    if !th.keeps_up() && th.capacity_bound() == Bound::Approx {
        th.dep.calls_rps_exact = false;
    }
    th.set_threads(s, thread_count(s, threads_needed));
    // The pool's line: the mean response time and the busy threads at
    // the scenario's load; where the threads cannot keep up, no figures.
    let pool_at = pool_line.and_then(|p| p.at(rho.unwrap_or(0.0)));
    if stable && (pool_line.is_none() || pool_at.is_some()) {
        let r = rho.unwrap_or(0.0);
        let mean = th.mean_at(servers, r);
        // A pool smaller than λ·W is itself a line the formula does not see
        // (unless the pool is the cores: one thread per core and no wait;
        // or theory's pool line, which is that line).
        let pool_is_cores =
            s.model == Model::ThreadPool && s.wait_ms == 0.0 && s.threads == s.cores;
        if let (Some(t), Some(o), Limit::Cpu, false, None) = (
            s.thread_limit(),
            admitted,
            capacity.binding,
            pool_is_cores,
            pool_line,
        ) {
            let held = o * mean / 1000.0;
            if held > f64::from(t) {
                approx_because.push(format!(
                    "by Little's law {} threads would be busy, more than the {} there are: expect a longer wait",
                    fmt_fixed(held, 0),
                    crate::text::group_thousands(&t.to_string())
                ));
            }
        }
        th.mean_ms = Some(mean);
        th.p99_ms = Some(th.p99_at(servers, r));
        // Where the cores bind, a thread is held for the request's whole
        // time inside, the waits for a core included: by Little's law the
        // threads busy are the arrivals × the mean response time, not × the
        // time held with no line (360 rps of the sale day on 4 cores: 43.5,
        // not 36). An estimate: the mean response time is approximate for
        // threads that share cores (time slices), and a pool's requests
        // wait in its line without a thread. Not where threads cannot
        // outnumber the cores: none waits for one, and the time held with
        // no line is the count (exact, or a floor by the switches' cost).
        if let Some((_, busy)) = pool_at {
            // The pool's line counts the busy threads itself.
            th.busy_threads = Some(busy);
            th.busy_threads_bound = Bound::Approx;
        } else if let (Limit::Cpu, Some(o), Some(_), false) = (
            capacity.binding,
            admitted,
            th.busy_threads,
            threads_fit_cores(s),
        ) {
            let held = o * mean / 1000.0;
            th.busy_threads = Some(busy_at_most(held));
            th.busy_threads_bound = Bound::Approx;
            if let (Model::ThreadPerRequest, None) = (s.model, s.thread_cap) {
                th.set_threads(
                    s,
                    Some(Threads::Mean {
                        mean: held,
                        random: s.arrivals == Arrivals::Poisson,
                    }),
                );
            }
        }
        th.mean_exact = approx_because.is_empty();
        // The wait for a thread, where theory's line is the threads'
        // (lesson 4's pool of 45 and lesson 15's pools and Kingman's
        // runs showed no theory beside the waits their text works out).
        // The threads bind (on a tie with the cores the formulas' line is
        // the cores, and its wait one for a core), or are the cores.
        let threads_are_the_line = matches!(s.model, Model::ThreadPool)
            && (capacity.binding == Limit::Threads || pool_is_cores)
            && th.keep_alive.is_none()
            && th.dealt_in_turn == 1
            && s.arrivals == Arrivals::Poisson;
        th.line_wait_ms = match (pool_at, admitted) {
            (Some((m, busy)), Some(o)) if o > 0.0 => Some((m - busy / o * 1000.0).max(0.0)),
            // Here no pool line: where theory has one, it gave `pool_at`.
            (None, Some(_)) if threads_are_the_line => {
                Some((mean - th.service_ms - th.delay_ms).max(0.0))
            }
            _ => None,
        };
        // The order of the line leaves the mean alone (every order keeps
        // the workers busy alike) but not the tail.
        let newest_first = s.newest_first();
        // The tail is exact for exponential service (M/M/c), and for a mix
        // on one server (Pollaczek–Khinchine's transform, inverted).
        let shaped = th.service_shape.is_some();
        // A closed line's p99 comes from its own transform, approximate
        // for the reasons its mean is.
        let tail_exact = letter == "M" || shaped && servers == 1 || th.keep_alive.is_some();
        th.p99_exact = th.mean_exact && tail_exact && !newest_first;
        // The pool's line says its p99 is a simpler line's, moved.
        if !tail_exact && th.pool_line.is_none() {
            approx_because.push(if shaped {
                "the p99 with several servers takes the wait of one server that many times as fast, scaled to the chance of waiting: exact for random (exponential) service times, an approximation for other service times, as here".to_owned()
            } else if scv > 1.0 + 1e-9 {
                "the p99 uses the tail of random (exponential) service times of the same mean, but these are a mix with rare long steps, whose tail is far longer: the run's p99 can be far above it".to_owned()
            } else {
                "the p99 uses the formula for random (exponential) service times; fixed or mixed service times have a different tail".to_owned()
            });
        }
        if newest_first {
            approx_because.push(match s.discipline {
                Discipline::AdaptiveLifo => format!(
                    "the line is served newest first once its oldest request has waited {} ms; the p99 formula is for oldest first",
                    typed(s.lifo_above_ms)
                ),
                _ => "the line is served newest first; the p99 formula is for oldest first".to_owned(),
            });
        }
    }
    // A thread per request with no cap, asked for more than it can do:
    // a thread for every request that piles up, without limit.
    if s.model == Model::ThreadPerRequest
        && s.thread_cap.is_none()
        && th.utilisation.is_some_and(|u| u >= 1.0)
        && no_wait_ms.is_none()
    {
        th.set_threads(s, None);
        th.busy_threads = None;
    }
    if let Some(ms) = no_wait_ms {
        th.no_line = true;
        th.mean_ms = Some(ms);
        th.p99_ms = Some(ms);
        // Exact unless switches are dear (the reasons already say so).
        th.mean_exact = approx_because.is_empty();
        th.p99_exact = th.mean_exact;
    }
    th.approx_because = approx_because;
    th
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::presets::preset;

    /// Lesson 16: the sale-day pool (200 rps) at 160 calls a second, whose
    /// callers give up after 220 ms and try three more times. Theory's
    /// figures are those of few tries timing out; 640 tries a second if all
    /// did would hold the pool past its limit, and the runs fall into that
    /// state (the lesson's claims timeout-p90-down and -busy).
    #[test]
    fn retries_on_timeouts_that_could_hold_the_server_past_its_limit_are_named() {
        let s = Scenario {
            rps: 160.0,
            timeout_ms: Some(220.0),
            retries: 3,
            ..preset("sale-day").unwrap()
        };
        let th = theory(&s);
        assert_eq!(th.retry_storm_rps, Some(640.0));
        // Two states, so no one growth of the line: 0 in the first, about
        // 440 a second in the second.
        assert_eq!(th.growth_per_s, None);
        let r = crate::simulate(&Scenario {
            duration_s: 300.0,
            ..s.clone()
        })
        .unwrap();
        assert!(r.goodput_rps < 10.0 && r.throughput_rps > 190.0, "{r:?}");
        // One retry at 100 calls a second: 200 tries, the limit itself.
        let one = Scenario {
            rps: 100.0,
            retries: 1,
            ..s.clone()
        };
        assert_eq!(theory(&one).retry_storm_rps, Some(200.0));
        // Not where every try failing still leaves room, nor without
        // retries, nor where a budget bounds them, nor when overloaded anyway.
        for other in [
            Scenario {
                rps: 60.0,
                retries: 2,
                ..s.clone()
            },
            Scenario {
                retries: 0,
                ..s.clone()
            },
            Scenario {
                retry_budget: Some(0.1),
                ..s.clone()
            },
            Scenario {
                timeout_ms: None,
                ..s.clone()
            },
            Scenario {
                rps: 250.0,
                ..s.clone()
            },
            // Newest first, new tries are answered in time.
            Scenario {
                discipline: Discipline::AdaptiveLifo,
                ..s.clone()
            },
        ] {
            assert_eq!(theory(&other).retry_storm_rps, None, "{other:?}");
        }
    }

    /// The wait for a thread only where the threads are the formulas'
    /// line: on a tie with the cores (8 threads of 10 + 10 ms on 4 cores,
    /// both 400 rps) the line is the cores, and its wait one for a core.
    #[test]
    fn the_wait_for_a_thread_is_given_only_where_the_threads_are_the_line() {
        let tie = Scenario {
            threads: 8,
            cores: 4,
            cpu_ms: 10.0,
            wait_ms: 10.0,
            rps: 300.0,
            timeout_ms: Some(5000.0),
            ..Scenario::default()
        };
        let th = theory(&tie);
        assert!(th.mean_ms.is_some() && th.capacity.binds(Limit::Threads));
        assert_eq!(th.capacity.binding, Limit::Cpu);
        assert_eq!(th.line_wait_ms, None);
        // One thread per core and no wait: the threads are the cores.
        assert!(theory(&preset("mm1").unwrap()).line_wait_ms.is_some());
    }

    #[test]
    fn slow_connections_open_at_a_rate_with_two_significant_figures() {
        let s = Scenario {
            model: Model::EventLoop,
            rps: 150.0,
            conn_requests: 100_000,
            think_ms: 100_000.0,
            ..Scenario::default()
        };
        let th = theory(&s);
        assert!(
            th.approx_because
                .iter()
                .any(|w| w.contains("they open at 0.0015 a second")),
            "{:?}",
            th.approx_because
        );
    }

    /// Evenly spaced with fixed times, a server exactly full has no line:
    /// theory says so, and a thread per request keeps its count of threads
    /// (it read "a thread for every request that piles up").
    #[test]
    fn exactly_full_with_nothing_random_has_no_line() {
        let s = Scenario {
            model: Model::ThreadPerRequest,
            cores: 1,
            cpu_ms: 10.0,
            cpu_dist: Dist::Const,
            wait_ms: 0.0,
            switch_us: 0.0,
            spawn_ms: 0.0,
            arrivals: Arrivals::Uniform,
            rps: 100.0,
            ..Scenario::default()
        };
        let th = theory(&s);
        assert!(
            (th.utilisation.unwrap() - 1.0).abs() < 1e-9,
            "{:?}",
            th.utilisation
        );
        assert!(th.no_line && !th.at_full_load() && !th.grows_without_limit());
        assert_eq!(th.mean_ms, Some(10.0));
        assert!(th.threads.is_some() && th.busy_threads.is_some());
        let random = theory(&Scenario {
            arrivals: Arrivals::Poisson,
            ..s
        });
        assert!(!random.no_line && random.at_full_load() && random.threads.is_none());
    }

    /// The model of the line and its notes name what the scenario has.
    #[test]
    fn the_line_and_its_notes_name_what_the_scenario_has() {
        let capped = Scenario {
            model: Model::ThreadPerRequest,
            thread_cap: Some(20),
            rps: 180.0,
            ..Scenario::default()
        };
        let th = theory(&capped);
        assert_eq!(th.line_at, "the cap of 20 threads", "{}", th.model_of_line);
        let shared = Scenario {
            model: Model::EventLoop,
            loops: 8,
            cores: 2,
            accept: Accept::Shared,
            cpu_ms: 10.0,
            rps: 150.0,
            ..Scenario::default()
        };
        assert_eq!(
            theory(&shared).line_at,
            "the 2 cores that the 8 loops share (one line)"
        );
        // Four threads on eight cores (the threads bind) do not queue for
        // them; they pay for switches once they wait (a thread that waits
        // comes back to a core another ran), and never where they do not
        // (a thread frees its core and itself together, both taken back
        // by the next request).
        let four = Scenario {
            threads: 4,
            cores: 8,
            wait_ms: 0.0,
            rps: 300.0,
            ..Scenario::default()
        };
        assert!(theory(&four).approx_because.is_empty());
        let waiting = Scenario {
            wait_ms: 2.0,
            rps: 250.0,
            ..four
        };
        let notes = theory(&waiting).approx_because.join(" | ");
        assert!(
            notes.contains("each CPU step also pays for a context switch")
                && !notes.contains("queue for the cores"),
            "{notes}"
        );
        // Steps handed to workers queue twice only where some are handed over.
        let none_handed = Scenario {
            model: Model::EventLoopWorkers,
            cpu_dist: Dist::Const,
            offload_above_ms: 50.0,
            wait_ms: 0.0,
            rps: 100.0,
            ..Scenario::default()
        };
        let notes = theory(&none_handed).approx_because.join(" | ");
        assert!(!notes.contains("queue twice"), "{notes}");
        let handed = Scenario {
            offload_above_ms: 0.0,
            ..none_handed
        };
        let notes = theory(&handed).approx_because.join(" | ");
        assert!(notes.contains("queue twice"), "{notes}");
    }

    #[test]
    fn a_rate_in_text_has_a_decimal_only_when_it_shows() {
        assert_eq!(rps_text(400.0), "400");
        assert_eq!(rps_text(1_287.04), "1,287");
        assert_eq!(rps_text(1_286.96), "1,287");
        assert_eq!(rps_text(12.5), "12.5");
        assert_eq!(rps_text(0.26), "0.3");
    }

    #[test]
    fn a_server_that_takes_no_time_loses_no_capacity() {
        // Both the capacity and its floor are infinite: nothing to lose,
        // not an unknown share.
        let free = theory(&Scenario {
            cpu_ms: 0.0,
            wait_ms: 0.0,
            ..Scenario::default()
        });
        assert_eq!(free.capacity.capacity_rps, f64::INFINITY);
        assert_eq!(free.capacity_bound(), Bound::Exact);
        assert_eq!(free.throughput_bound(), Bound::Exact);
    }

    /// Three threads on two cores, 10 ms of CPU and 1 ms off it: their
    /// waits for a core take 0.9 % off the lower limit and the switches
    /// 0.2 % off the time a thread is held. Neither alone is dear; together
    /// they are, and the capacity's mark says why.
    #[test]
    fn small_shares_that_add_up_are_named_where_they_mark_the_capacity() {
        let s = Scenario {
            cores: 2,
            threads: 3,
            wait_ms: 1.0,
            rps: 1_000.0,
            ..Scenario::default()
        };
        let th = theory(&s);
        assert!(th.switch_share < DEAR_SWITCHES, "{}", th.switch_share);
        assert!(!th.threads_wait_for_cores(), "{}", th.core_wait_share());
        assert_eq!(th.capacity_bound(), Bound::Approx);
        assert_eq!(th.throughput_bound(), Bound::Approx);
        assert_eq!(th.figure_notes.len(), 1, "{:?}", th.figure_notes);
        assert!(
            th.figure_notes[0].contains("together they can take up to 2 % off the capacity"),
            "{:?}",
            th.figure_notes
        );
        // Without switches the waits alone stay under 1 %: exact, unsaid.
        let free = theory(&Scenario {
            switch_us: 0.0,
            ..s
        });
        assert_eq!(free.capacity_bound(), Bound::Exact);
        assert!(free.figure_notes.is_empty(), "{:?}", free.figure_notes);
    }

    /// Dear switches (20 µs on steps of 0.2 ms) make the CPU figures
    /// estimates, with the reason; the default 5 µs on 10 ms steps does
    /// not. Where the CPU binds the formulas are estimates too; where the
    /// calls are most of a request's time (a page of 100 calls), only the
    /// CPU figures are, and the notes say why.
    #[test]
    fn dear_switches_make_the_cpu_figures_estimates() {
        let cheap = theory(&Scenario::default());
        assert!(
            cheap.cpu_exact() && cheap.switch_share > 0.0,
            "{}",
            cheap.switch_share
        );
        assert_eq!(cheap.cpu_busy_bound(), Bound::Exact);
        assert!(cheap.figure_notes.is_empty());
        let dear = Scenario {
            model: Model::ThreadPool,
            threads: 200,
            cores: 4,
            cpu_ms: 0.2,
            wait_ms: 0.5,
            switch_us: 20.0,
            rps: 10_000.0,
            ..Scenario::default()
        };
        let t = theory(&dear);
        assert_eq!(t.capacity.binding, Limit::Cpu);
        // (1 step + 0.2 ms ÷ 4 ms slices) × 20 µs ÷ 0.2 ms.
        assert!((t.switch_share - 0.105).abs() < 1e-9, "{}", t.switch_share);
        assert_eq!(t.cpu_bound(), Bound::Approx);
        assert_eq!(t.cpu_busy_bound(), Bound::Approx);
        assert_eq!(t.capacity_bound(), Bound::Approx);
        // 10,000 × 1.105 is under the 20,000 the CPU allows: it keeps up,
        // and the line does not grow, switches or not.
        assert!((t.capacity_low_rps() - 20_000.0 / 1.105).abs() < 1e-6);
        assert_eq!(t.throughput_bound(), Bound::Exact);
        assert_eq!(t.growth_bound(), Bound::Exact);
        let swamped = theory(&Scenario {
            rps: 19_000.0,
            ..dear.clone()
        });
        assert_eq!(swamped.throughput_bound(), Bound::Approx);
        assert_eq!(swamped.growth_bound(), Bound::Approx);
        assert!(!t.mean_exact);
        let note = "context switches can add up to 11 % to the CPU each request needs; the formulas, the CPU limit and CPU busy leave them out";
        assert!(
            t.approx_because.iter().any(|n| n == note),
            "{:?}",
            t.approx_because
        );
        assert!(t.figure_notes.is_empty(), "said once");
        // A pool no bigger than the cores whose threads never wait pays none.
        let paired = theory(&Scenario {
            threads: 4,
            wait_ms: 0.0,
            ..dear.clone()
        });
        assert_eq!(paired.switch_share, 0.0);
        assert!(paired.cpu_exact());
        // One event loop has no other to switch to.
        let one_loop = Scenario {
            model: Model::EventLoop,
            loops: 1,
            ..dear.clone()
        };
        assert_eq!(theory(&one_loop).switch_share, 0.0);
        // Where threads bind, their own note names the switches; the CPU
        // figures' note says what those leave out.
        let held = theory(&Scenario {
            wait_ms: 50.0,
            ..dear.clone()
        });
        assert_eq!(held.capacity.binding, Limit::Threads);
        assert_eq!(held.figure_notes, [note]);
        assert!(held
            .approx_because
            .iter()
            .all(|n| !n.starts_with("context switches")));
        // A thread held 50.2 ms pays at most 0.02 ms of switches: its limit,
        // and the growth it sets, stand.
        assert!(held.held_switch_share < 0.001, "{}", held.held_switch_share);
        assert_eq!(held.thread_limit_bound(), Bound::Exact);
        assert_eq!(held.growth_bound(), Bound::Exact);
        // Five threads held 0.3 ms each pay up to 0.021 ms: 7 % of the time
        // held, so the thread limit (16,667 rps) is an estimate. Five
        // threads on four cores also wait for one: together they finish
        // 16,135 rps (finite-source), less 7 % at the least, 15,080 (the
        // engine ran 15,291). Four on four cores that wait pay switches
        // alone: 13,333 rps less 7 % at the least.
        let short = theory(&Scenario {
            threads: 5,
            wait_ms: 0.1,
            rps: 16_000.0,
            ..dear.clone()
        });
        assert_eq!(short.capacity.binding, Limit::Threads);
        assert!(
            (short.held_switch_share - 0.07).abs() < 1e-9,
            "{}",
            short.held_switch_share
        );
        assert_eq!(short.thread_limit_bound(), Bound::Approx);
        assert_eq!(short.capacity_bound(), Bound::Approx);
        let pool = short.pool_rps.unwrap();
        assert!((pool - 16_135.5).abs() < 0.1, "{pool}");
        assert!((short.capacity_low_rps() - pool / 1.07).abs() < 1e-6);
        assert!(
            short.figure_notes.iter().any(|n| n.contains(
                "5 threads on 4 cores finish about 16,135 rps when all are busy, not 16,667"
            )),
            "{:?}",
            short.figure_notes
        );
        let four = theory(&Scenario {
            threads: 4,
            wait_ms: 0.1,
            rps: 12_000.0,
            ..dear.clone()
        });
        assert_eq!(four.capacity.binding, Limit::Threads);
        assert!((four.capacity_low_rps() - 4.0 / 0.3e-3 / 1.07).abs() < 1e-6);
        assert_eq!(four.throughput_bound(), Bound::Exact);
        // A loop that only hands 2 ms steps to workers and takes them back
        // (0.025 ms each way): switches are under 1 % of all the CPU, but
        // 20 % of the loop's, and the loop's steps are the limit.
        let handing = theory(&Scenario {
            model: Model::EventLoopWorkers,
            loops: 1,
            workers: 64,
            cores: 64,
            cpu_ms: 2.0,
            cpu_dist: Dist::Const,
            wait_ms: 0.0,
            offload_above_ms: 0.0,
            handoff_ms: 0.05,
            switch_us: 5.0,
            rps: 15_000.0,
            ..Scenario::default()
        });
        assert_eq!(handing.capacity.cpu_part, CpuPart::Loops);
        assert!(
            (handing.switch_share - 0.20125).abs() < 1e-9,
            "{}",
            handing.switch_share
        );
        // A page that waits for the slowest of 100 calls of 10 ms: the
        // switches are 1 % of its 0.5 ms of CPU, not of the time it is served.
        let page = theory(&preset("fan-out-100").unwrap());
        assert!(!page.cpu_exact(), "{}", page.switch_share);
        assert!(page.mean_exact, "{:?}", page.approx_because);
        assert!(page.figure_notes[0].starts_with("context switches"));
    }

    #[test]
    fn sale_day_is_thread_bound_at_200_rps_and_grows_by_200() {
        let t = theory(&preset("sale-day").unwrap());
        assert_eq!(t.capacity.binding, Limit::Threads);
        assert!((t.capacity.capacity_rps - 200.0).abs() < 1e-9);
        assert!((t.growth_per_s.unwrap() - 200.0).abs() < 1e-9);
        assert!((t.cpu_utilisation.unwrap() - 0.5).abs() < 1e-9);
        assert!((t.threads_needed.unwrap() - 40.0).abs() < 1e-9);
        assert_eq!(t.mean_ms, None, "overloaded: no finite mean");
        // A load that changes, or retries on top of the excess: no one
        // rate of growth to give.
        let spike = Scenario {
            rps_schedule: "0:100,20:500,25:100".parse().ok(),
            ..preset("sale-day").unwrap()
        };
        assert_eq!(theory(&spike).growth_per_s, None);
        let retrying = Scenario {
            timeout_ms: Some(1000.0),
            retries: 2,
            ..preset("sale-day").unwrap()
        };
        assert_eq!(theory(&retrying).growth_per_s, None);
        // Keeping up, retries or not: no growth, where even every try
        // timing out (3 × 60 a second) leaves room; at 100 a second, 300
        // tries could hold the pool past its 200, and theory gives no one
        // growth (retry_storm_rps).
        let calm = Scenario {
            rps: 60.0,
            ..retrying
        };
        assert_eq!(theory(&calm).growth_per_s, Some(0.0));
        let tippable = Scenario {
            rps: 100.0,
            ..retrying
        };
        assert_eq!(theory(&tippable).growth_per_s, None);
        // The load theory counts is the server's only without a schedule
        // that changes, retries, or keep-alive connections still filling
        // after the warm-up (the WAF preset's ran at 55 % CPU, not 81 %).
        assert!(t.load_exact);
        assert!(!theory(&spike).load_exact);
        assert!(!theory(&calm).load_exact);
        assert!(!theory(&preset("waf-inline").unwrap()).load_exact);
        // Nor where some are turned away below capacity: M/M/1 with 5
        // places at 90 rps finishes 80.8 (M/M/1/6 gives 80.85).
        let limited = Scenario {
            queue_limit: Some(5),
            rps: 90.0,
            ..preset("mm1").unwrap()
        };
        let th = theory(&limited);
        assert!(!th.load_exact);
        assert_eq!(th.throughput_bound(), Bound::Approx);
        assert_eq!(th.cpu_busy_bound(), Bound::Approx);
    }

    /// Overloaded loops with a write step finish fewer than their capacity
    /// (333 a second: runs of 2,700 s finished 246 at 500 offered), so
    /// theory marks what they finish and the growth as estimates there,
    /// and says why; below capacity they keep up, exactly.
    #[test]
    fn overloaded_loops_with_writes_finish_an_estimate() {
        let writes = Scenario {
            write_ms: 2.0,
            wait_ms: 0.0,
            rps: 500.0,
            ..preset("sale-day-event-loop").unwrap()
        };
        let th = theory(&writes);
        assert!(!th.overload_finish_exact);
        assert_eq!(th.throughput_bound(), Bound::Approx);
        assert_eq!(th.growth_bound(), Bound::Approx);
        assert!(
            th.figure_notes
                .iter()
                .any(|n| n.contains("before the writes")),
            "{:?}",
            th.figure_notes
        );
        let calm = theory(&Scenario {
            rps: 300.0,
            ..writes.clone()
        });
        assert_eq!(calm.throughput_bound(), Bound::Exact);
        assert!(calm.figure_notes.is_empty(), "{:?}", calm.figure_notes);
        // A pool's writes come after its own reads: exact either way.
        let pool = theory(&Scenario {
            model: Model::ThreadPool,
            threads: 400,
            ..writes
        });
        assert!(pool.overload_finish_exact);
    }

    /// Keep-alive connections overloaded pile up as connections: the
    /// requests inside do not grow by offered − capacity, so theory gives
    /// no growth there.
    #[test]
    fn overloaded_keep_alive_connections_give_no_growth() {
        let waf = preset("waf-inline").unwrap();
        let over = Scenario {
            rps: 1.6 * theory(&waf).capacity.capacity_rps,
            ..waf.clone()
        };
        assert_eq!(theory(&over).growth_per_s, None);
        assert_eq!(theory(&waf).growth_per_s, Some(0.0));
    }

    /// Lesson 15's database pool: 600 arrivals a second, each 1 ms of CPU
    /// on 4 cores before it waits for one of the connections, which finish
    /// 500. The CPU is busy with all 600 (runs: 15.0 %), not the 500.
    #[test]
    fn arrivals_spend_their_cpu_before_a_dependency_that_binds() {
        let db = preset("db-pool-limit").unwrap();
        let th = theory(&db);
        assert_eq!(th.capacity.binding, Limit::Dependency);
        assert!(db.thread_limit().is_none(), "{:?}", db.model);
        let want = th.offered_rps.unwrap() * db.cpu_ms / 1000.0 / f64::from(db.cores);
        assert!(
            (th.cpu_utilisation.unwrap() - want).abs() < 1e-12,
            "{:?}",
            th.cpu_utilisation
        );
        assert!(th.expected_rps.unwrap() < th.offered_rps.unwrap());
        // A pool holds arrivals back: its CPU follows what it finishes.
        let pool = Scenario {
            model: Model::ThreadPool,
            threads: 100,
            ..db
        };
        let th = theory(&pool);
        if th.capacity.binding == Limit::Dependency {
            let done =
                th.expected_rps.unwrap() * pool.mean_cpu_ms() / 1000.0 / f64::from(pool.cores);
            assert!((th.cpu_utilisation.unwrap() - done).abs() < 1e-12);
        }
    }

    #[test]
    fn mm1_preset_matches_the_textbook_exactly() {
        let t = theory(&preset("mm1").unwrap());
        assert_eq!(t.queue_model, "M/M/1");
        assert!(t.mean_exact && t.p99_exact, "{:?}", t.approx_because);
        assert!((t.mean_ms.unwrap() - 50.0).abs() < 1e-9);
    }

    /// A breaker where tries can fail may keep calls from the server: the
    /// formula, fed every call, is then an approximation, and says why.
    /// Where no try can fail it never opens, and changes nothing.
    #[test]
    fn a_circuit_breaker_makes_theory_approximate_only_where_tries_can_fail() {
        let mm1 = crate::presets::preset("mm1").unwrap();
        let broken = |t: &Theory| {
            t.approx_because
                .iter()
                .any(|w| w.contains("circuit breaker"))
        };
        let with = |s: &Scenario| Scenario {
            breaker_after: Some(5),
            ..s.clone()
        };
        assert!(!broken(&theory(&with(&mm1))));
        assert_eq!(
            theory(&with(&mm1)).approx_because,
            theory(&mm1).approx_because
        );
        let timed = Scenario {
            timeout_ms: Some(1000.0),
            ..mm1
        };
        assert!(!broken(&theory(&timed)));
        assert!(broken(&theory(&with(&timed))));
    }

    /// M/D/1's mean (Pollaczek–Khinchine) and its p99, from the same
    /// transform inverted, are both exact. The p99 is checked against
    /// Erlang's closed form for the wait of M/D/1 (1909): P(W ≤ t) =
    /// (1 − ρ) Σ_{k=0}^{⌊t/D⌋} (λ(kD − t))^k / k! · e^{−λ(kD − t)}, the
    /// response time being that wait plus D: 113.6 ms. (M/M/1's p99 at
    /// the same utilisation, which theory used before, is 230 ms.)
    #[test]
    fn md1_mean_and_p99_are_exact() {
        let t = theory(&preset("md1").unwrap());
        assert_eq!(t.queue_model, "M/D/1");
        assert!((t.mean_ms.unwrap() - (10.0 + 20.0)).abs() < 1e-9);
        assert!(t.mean_exact && t.p99_exact, "{:?}", t.approx_because);
        assert!(t.approx_because.is_empty());
        let d = 10.0_f64;
        // Erlang's sum alternates in sign; up to ρ = 0.8 its terms stay
        // below 10⁴, well inside f64.
        for rho in [0.1, 0.5, 0.8] {
            let lambda = rho / d;
            let wait_cdf = |w: f64| {
                let mut sum = 0.0;
                let mut k = 0;
                while f64::from(k) * d <= w {
                    let x = lambda * (f64::from(k) * d - w);
                    sum += x.powi(k) / (1..=k).map(f64::from).product::<f64>() * (-x).exp();
                    k += 1;
                }
                (1.0 - rho) * sum
            };
            let (mut lo, mut hi) = (0.0, 1000.0);
            for _ in 0..100 {
                let mid = (lo + hi) / 2.0;
                if wait_cdf(mid) < 0.99 {
                    lo = mid;
                } else {
                    hi = mid;
                }
            }
            let erlang = lo + d;
            let p99 = t.p99_at(1, rho);
            assert!(
                (p99 - erlang).abs() / erlang < 1e-3,
                "ρ {rho}: {p99} vs Erlang's {erlang}"
            );
        }
        assert!((t.p99_ms.unwrap() - t.p99_at(1, 0.8)).abs() < 1e-9);
    }

    /// One worker, 5 % of requests 100 ms (exponential): the mix's own
    /// tail, from Pollaczek–Khinchine's transform, is exact for M/G/1; on
    /// four workers it is an approximation, and says so.
    #[test]
    fn a_one_worker_queue_with_mixed_sizes_has_an_exact_p99() {
        let s = Scenario {
            heavy_share: 0.05,
            heavy_cpu_ms: 100.0,
            rps: 40.0,
            ..preset("mm1").unwrap()
        };
        let t = theory(&s);
        assert_eq!(t.queue_model, "M/G/1");
        assert!(
            t.mean_exact,
            "Pollaczek–Khinchine is exact for one worker's mean"
        );
        assert!(t.service_shape.is_some());
        assert!(t.p99_exact, "{:?}", t.approx_because);
        // Far above the exponential tail of the same mean.
        let rho = t.utilisation.unwrap();
        let exp_tail = analytic::mm1_response_percentile_ms(t.service_ms, rho, 0.99);
        assert!(t.p99_ms.unwrap() > 1.5 * exp_tail, "{:?}", t.p99_ms);
        let four = theory(&Scenario {
            cores: 4,
            threads: 4,
            rps: 160.0,
            ..s
        });
        assert!(!four.p99_exact);
        assert!(
            four.approx_because
                .iter()
                .any(|w| w.contains("one server that many times as fast")),
            "{:?}",
            four.approx_because
        );
    }

    /// The same server with and without a caller timeout: the note on the
    /// first said its formula shares the cores among the busy threads, the
    /// note on the second that "the formula gives each thread its own core",
    /// a contradiction to a learner running both (lesson 13). The second
    /// now says it is a simpler formula, and what rules the first out.
    #[test]
    fn a_pool_without_its_line_model_says_what_rules_it_out() {
        let plain = theory(&preset("sale-day").unwrap());
        assert!(plain.approx_because.iter().any(|w| w == POOL_LINE_SLICES));
        let timed = theory(&Scenario {
            timeout_ms: Some(3000.0),
            ..preset("sale-day").unwrap()
        });
        assert!(
            timed.approx_because.iter().any(|w| w.ends_with(
                "the simpler formula used here gives each thread its own core (the one that \
                 shares the cores among the busy threads is not used with a caller timeout)"
            )),
            "{:?}",
            timed.approx_because
        );
        let limited = theory(&Scenario {
            queue_limit: Some(100),
            ..preset("sale-day").unwrap()
        });
        assert!(
            limited
                .approx_because
                .iter()
                .any(|w| w.ends_with("is not used with a line limit)")),
            "{:?}",
            limited.approx_because
        );
        // A plural reads as one too: "retries rules out" read wrong.
        let retried = theory(&Scenario {
            retries: 2,
            ..preset("sale-day").unwrap()
        });
        assert!(
            retried
                .approx_because
                .iter()
                .any(|w| w.ends_with("is not used with retries)")),
            "{:?}",
            retried.approx_because
        );
    }

    #[test]
    fn the_planned_sale_day_at_360_rps_waits_for_a_thread_and_is_not_called_exact() {
        let s = Scenario {
            rps: 360.0,
            ..preset("sale-day-planned").unwrap()
        };
        let t = theory(&s);
        assert!(!t.mean_exact && !t.p99_exact);
        assert!(
            t.approx_because.iter().any(|w| w == POOL_LINE_SLICES),
            "{:?}",
            t.approx_because
        );
        // The pool's line: its 40 threads, slowed by their waits for a
        // core, finish about 365 a second, so at 360 requests wait for a
        // thread. The open line at the cores said 119.7 ms; runs of 20 s
        // took 271 ms on seed 1.
        assert!(t.pool_line.is_some());
        let mean = t.mean_ms.unwrap();
        assert!((280.0..300.0).contains(&mean), "{mean}");
        assert!(t.busy_threads.unwrap() > 39.0, "{:?}", t.busy_threads);
        // Past what the threads finish, no figures: the line grows.
        let over = theory(&Scenario { rps: 370.0, ..s });
        assert!(over.utilisation.unwrap() < 1.0);
        assert_eq!((over.mean_ms, over.p99_ms), (None, None));
        // A pool the cores never make wait (one thread a core) keeps the
        // open line, and so does a pool of more than POOL_LINE_MAX_THREADS.
        for threads in [4, POOL_LINE_MAX_THREADS + 1] {
            let t = theory(&Scenario {
                threads,
                rps: 200.0,
                ..s
            });
            assert!(t.pool_line.is_none(), "{threads}");
        }
    }

    #[test]
    fn pinned_loops_are_one_line_each_and_say_so() {
        let at_300 = Scenario {
            rps: 300.0,
            ..preset("sale-day-event-loop").unwrap()
        };
        let t = theory(&at_300);
        assert_eq!(t.servers, 1);
        assert!(t.line_at.contains("each of the 4 loops"), "{}", t.line_at);
        // Dealt in turn, one request a connection: each loop is E4/M/1,
        // exactly.
        assert!(t.mean_exact && t.p99_exact, "{:?}", t.approx_because);
        assert_eq!(t.queue_model, "E4/M/1");
        assert!(
            t.model_of_line.contains("one arrival in 4"),
            "{}",
            t.model_of_line
        );
        // A write step brings each request back to its loop: no longer one
        // step per arrival, so the dealing's effect is only said.
        let twice = theory(&Scenario {
            write_ms: 1.0,
            ..at_300.clone()
        });
        assert!(!twice.mean_exact && twice.queue_model == "M/G/1");
        assert!(
            twice
                .approx_because
                .iter()
                .any(|w| w.contains("dealt to loops in turn")),
            "{:?}",
            twice.approx_because
        );
        let random = Scenario {
            accept: Accept::Random,
            ..at_300
        };
        assert!(
            theory(&random).mean_exact,
            "{:?}",
            theory(&random).approx_because
        );
        // One loop is "the one loop", not "each of the 1 loops".
        let one = theory(&Scenario { loops: 1, ..at_300 });
        assert_eq!(one.model_of_line, "M/M/1 at the one loop");
    }

    /// Idle loops that accept connections of one request and one step take
    /// them from one listen line: M/M/4, exactly (four loops at 90 % ran
    /// 30.4 ms against M/M/4's 29.7; theory said M/M/1 at each loop,
    /// 100 ms, marked approximate). With keep-alive, a write step or
    /// retries a connection comes back to its loop: pinned again.
    #[test]
    fn idle_loops_accepting_one_step_connections_share_one_line() {
        let s = Scenario {
            model: Model::EventLoop,
            cores: 4,
            loops: 4,
            accept: Accept::Idlest,
            cpu_ms: 10.0,
            wait_ms: 0.0,
            rps: 360.0,
            ..Scenario::default()
        };
        let t = theory(&s);
        assert_eq!((t.servers, t.queue_model.as_str()), (4, "M/M/4"));
        assert!(t.mean_exact && t.p99_exact, "{:?}", t.approx_because);
        let shared = theory(&Scenario {
            accept: Accept::Shared,
            ..s.clone()
        });
        assert_eq!(t.mean_ms, shared.mean_ms);
        // A wait off the loop does not bring the request back to it.
        let waits = theory(&Scenario {
            wait_ms: 50.0,
            ..s.clone()
        });
        assert_eq!(waits.servers, 4);
        for again in [
            Scenario {
                conn_requests: 10,
                ..s.clone()
            },
            Scenario {
                write_ms: 1.0,
                ..s.clone()
            },
            Scenario {
                retries: 1,
                timeout_ms: Some(200.0),
                ..s.clone()
            },
        ] {
            let t = theory(&again);
            assert!(t.servers == 1 || !t.mean_exact, "{again:?}: {t:?}");
        }
    }

    /// Eight pinned loops on two cores at 90 %: the cores are the line
    /// (M/M/2: 52.6 ms; the engine runs about 59 ms), not eight lines at
    /// an eighth of the traffic each (12.9 ms).
    #[test]
    fn more_pinned_loops_than_cores_share_the_cores_as_one_line() {
        let s = Scenario {
            model: Model::EventLoop,
            cores: 2,
            loops: 8,
            accept: Accept::Random,
            cpu_ms: 10.0,
            wait_ms: 0.0,
            rps: 180.0,
            ..Scenario::default()
        };
        let t = theory(&s);
        assert_eq!(t.servers, 2);
        assert!(
            t.line_at.contains("the 2 cores that the 8 loops share"),
            "{}",
            t.line_at
        );
        let mean = t.mean_ms.unwrap();
        assert!((mean - 52.6).abs() < 0.1, "{mean}");
        assert!(!t.mean_exact);
        // One loop: every connection goes to it, so round robin is random
        // arrivals still, and M/M/1 is exact.
        let one = Scenario {
            loops: 1,
            cores: 1,
            accept: Accept::RoundRobin,
            rps: 80.0,
            ..s
        };
        assert!(theory(&one).mean_exact, "{:?}", theory(&one).approx_because);
    }

    /// A thread per request shares the cores in time slices, not first
    /// come, first served: M/D/1's 30 ms mean is not this scenario's (the
    /// run takes about 43 ms), so theory must not call it exact.
    #[test]
    fn time_sliced_threads_per_request_are_not_called_exact() {
        let s = Scenario {
            model: Model::ThreadPerRequest,
            spawn_ms: 0.0,
            ..preset("md1").unwrap()
        };
        let t = theory(&s);
        assert_eq!(t.capacity.binding, Limit::Cpu);
        assert!((t.mean_ms.unwrap() - 30.0).abs() < 1e-9, "{:?}", t.mean_ms);
        assert!(!t.mean_exact && !t.p99_exact, "{:?}", t.approx_because);
        assert!(
            t.approx_because.iter().any(|w| w.contains("time slices")),
            "{:?}",
            t.approx_because
        );
        // The run shows why: well above the formula's mean.
        let r = crate::simulate(&Scenario {
            duration_s: 120.0,
            ..s
        })
        .unwrap();
        assert!(r.latency_ms.mean > 36.0, "{}", r.latency_ms.mean);
    }

    #[test]
    fn the_curve_functions_give_the_operating_point() {
        let t = theory(&preset("mm4").unwrap());
        let rho = t.utilisation.unwrap();
        assert_eq!(t.mean_at(t.servers, rho), t.mean_ms.unwrap());
        assert_eq!(t.p99_at(t.servers, rho), t.p99_ms.unwrap());
    }
}

#[cfg(test)]
mod thread_tests {
    use super::*;
    use crate::presets::preset;

    /// 1,000 requests that each hold one of 20 threads for 100 ms (no CPU,
    /// a fixed wait): 50 rounds of 100 ms, 5 s, exact; the run agrees.
    /// With CPU to share the rounds are approximate; without a full pool
    /// (event loops, open arrivals) there are none.
    #[test]
    fn a_batch_on_a_full_pool_goes_in_rounds() {
        let s = preset("batch-pool-20").unwrap();
        let m = theory(&s).makespan.unwrap();
        assert_eq!(m.rounds, 50);
        assert!((m.round_ms - 100.0).abs() < 1e-9, "{m:?}");
        assert!((m.makespan_s - 5.0).abs() < 1e-9, "{m:?}");
        assert!(m.exact);
        let r = crate::simulate(&s).unwrap();
        assert!(
            (r.makespan_s - m.makespan_s).abs() < 1e-3,
            "{}",
            r.makespan_s
        );
        let odd = theory(&Scenario {
            count: 1001,
            ..s.clone()
        })
        .makespan
        .unwrap();
        assert_eq!(odd.rounds, 51);
        let cpu = theory(&Scenario {
            cpu_ms: 1.0,
            ..s.clone()
        })
        .makespan
        .unwrap();
        assert!(!cpu.exact);
        // Creating each thread is CPU too: 5.108 s run against 5.1.
        let spawning = theory(&Scenario {
            model: Model::ThreadPerRequest,
            thread_cap: Some(20),
            spawn_ms: 2.0,
            ..s.clone()
        })
        .makespan
        .unwrap();
        assert!(!spawning.exact);
        // Requests turned away or tried again: not every request runs
        // once, no rounds to count (a line limit of 100 ended at 0.6 s).
        for other in [
            Scenario {
                queue_limit: Some(100),
                ..s.clone()
            },
            Scenario {
                timeout_ms: Some(1000.0),
                retries: 2,
                ..s.clone()
            },
        ] {
            assert_eq!(theory(&other).makespan, None, "{other:?}");
        }
        let random = theory(&Scenario {
            wait_dist: Dist::Exp,
            ..s.clone()
        });
        assert!(!random.makespan.unwrap().exact);
        assert_eq!(theory(&preset("batch-event-loop").unwrap()).makespan, None);
        // With neither a makespan nor a formula for the line, no note says
        // how a formula differs ("threads share the cores in time slices"
        // stood under "no queueing formula applies"); the CPU figures'
        // note on switches stays.
        for name in ["c10k-threads", "c10k-event-loop"] {
            let th = theory(&preset(name).unwrap());
            assert_eq!(th.makespan, None, "{name}");
            assert!(
                th.approx_because.iter().all(|n| n.contains("CPU busy")),
                "{name}: {:?}",
                th.approx_because
            );
        }
        assert_eq!(theory(&preset("mm1").unwrap()).makespan, None);
    }

    /// The threads and their stacks: a pool's threads, loops and their
    /// workers, a cap, or the mean alive by Little's law.
    #[test]
    fn threads_and_their_stacks_are_counted_as_the_model_runs_them() {
        let pool = preset("sale-day").unwrap();
        let th = theory(&pool);
        assert_eq!(th.threads, Some(Threads::Pool(20)));
        let mb = 20.0 * pool.stack_reserved_kb / 1000.0;
        assert!((th.stack_reserved_mb.unwrap() - mb).abs() < 1e-9);
        let workers = preset("waf-offload-unbalanced").unwrap();
        assert_eq!(
            theory(&workers).threads,
            Some(Threads::LoopsAndWorkers {
                loops: 4,
                workers: 4
            })
        );
        let loops = preset("sale-day-event-loop").unwrap();
        assert_eq!(theory(&loops).threads, Some(Threads::Loops(4)));
        let tpr = Scenario {
            model: Model::ThreadPerRequest,
            ..Scenario::default()
        };
        let th = theory(&tpr);
        // Alive: arrivals × the mean response time (waits for a core
        // included), a little over the time held with no line.
        let n = tpr.rps * th.mean_ms.unwrap() / 1000.0;
        assert!(n > th.threads_needed.unwrap());
        assert_eq!(
            th.threads,
            Some(Threads::Mean {
                mean: n,
                random: true
            })
        );
        assert_eq!(th.busy_threads, Some(n));
        let mb = n * tpr.stack_reserved_kb / 1000.0;
        assert!((th.stack_reserved_mb.unwrap() - mb).abs() < 1e-9);
        // Near the CPU limit the waits for a core count: the sale day at
        // 360 rps, 90 % of its CPU, keeps about 43 threads alive, not 36.
        let near = Scenario {
            rps: 360.0,
            ..tpr.clone()
        };
        let alive = theory(&near).busy_threads.unwrap();
        assert!((42.0..46.0).contains(&alive), "{alive}");
        // Its mean response time is approximate (time slices, fixed CPU):
        // so is the count.
        assert_eq!(theory(&near).busy_threads_bound, Bound::Approx);
        // A pool where the cores bind: the same, at most the pool.
        let pool = Scenario {
            rps: 360.0,
            threads: 1000,
            ..preset("sale-day-planned").unwrap()
        };
        let busy = theory(&pool).busy_threads.unwrap();
        assert!((42.0..46.0).contains(&busy), "{busy}");
        // Its requests wait in the pool's line without a thread: an estimate.
        assert_eq!(theory(&pool).busy_threads_bound, Bound::Approx);
        // Overloaded, threads pile up without limit: no figure.
        let over = Scenario {
            rps: 500.0,
            ..tpr.clone()
        };
        assert_eq!(theory(&over).threads, None);
        assert_eq!(theory(&over).busy_threads, None);
        let even = Scenario {
            arrivals: Arrivals::Uniform,
            ..tpr.clone()
        };
        assert!(matches!(
            theory(&even).threads,
            Some(Threads::Mean { random: false, .. })
        ));
        // With no mean response time the time held with no line is all
        // theory has: the waits for a core make the run's figure higher.
        assert_eq!(theory(&even).busy_threads_bound, Bound::AtLeast);
        // One thread per core and no switch cost: no thread waits, so the
        // count is exact, at the cores' limit too (4 × 10 ms at 360 rps is
        // 3.6 busy, not the rate × a response time that counts the line).
        let own = Scenario {
            model: Model::ThreadPool,
            threads: 4,
            cores: 4,
            cpu_ms: 10.0,
            wait_ms: 0.0,
            switch_us: 0.0,
            rps: 360.0,
            ..Scenario::default()
        };
        let th = theory(&own);
        assert_eq!(th.capacity.binding, Limit::Cpu);
        assert_eq!(th.busy_threads_bound, Bound::Exact);
        assert!((th.busy_threads.unwrap() - 3.6).abs() < 1e-9);
        // Switches cost CPU time held: a floor, once threads wait (a
        // thread that never waits keeps its core, so it pays none).
        let switching = Scenario {
            switch_us: 5.0,
            rps: 200.0,
            ..own.clone()
        };
        assert_eq!(theory(&switching).busy_threads_bound, Bound::Exact);
        let waiting = Scenario {
            wait_ms: 5.0,
            ..switching
        };
        assert_eq!(theory(&waiting).busy_threads_bound, Bound::AtLeast);
        // Not every request once at one rate: an estimate.
        for other in [
            Scenario {
                rps_schedule: "0:150,10:50".parse().ok(),
                ..own.clone()
            },
            Scenario {
                shed_after_ms: Some(100.0),
                ..own.clone()
            },
            Scenario {
                timeout_ms: Some(100.0),
                retries: 2,
                ..own.clone()
            },
            Scenario {
                model: Model::ThreadPerRequest,
                conn_requests: 10,
                ..own.clone()
            },
        ] {
            assert_eq!(
                theory(&other).busy_threads_bound,
                Bound::Approx,
                "{other:?}"
            );
        }
        let capped = Scenario {
            thread_cap: Some(30),
            ..tpr.clone()
        };
        assert_eq!(theory(&capped).threads, Some(Threads::UpTo(30)));
        // No cap and no rate to count by: nothing to say.
        let closed = Scenario {
            arrivals: Arrivals::Closed,
            ..tpr
        };
        let th = theory(&closed);
        assert_eq!((th.threads, th.stack_reserved_mb), (None, None));
    }

    /// Ten calls of 90 ms (exponential) per request hold the thread for the
    /// slowest, 90 × H(10) = 263.6 ms, plus 10 ms of CPU: at 60 rps Little's
    /// law needs 16.4 threads, not the 6 that one call's 90 ms gives.
    #[test]
    fn threads_needed_counts_the_slowest_of_the_calls() {
        let s = Scenario {
            fan_out: 10,
            rps: 60.0,
            ..Scenario::default()
        };
        let n = theory(&s).threads_needed.unwrap();
        let hold = 10.0 + 90.0 * (1..=10).map(|k| 1.0 / f64::from(k)).sum::<f64>();
        assert!((n - 60.0 * hold / 1000.0).abs() < 1e-9, "{n}");
        assert!((n - 16.4).abs() < 0.05, "{n}");
    }
}
