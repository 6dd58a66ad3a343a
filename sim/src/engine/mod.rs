//! The discrete-event engine: one server, its cores, its tellers (threads,
//! event loops, workers) and the requests that pass through.
//!
//! ```text
//!  Simulation ── owns ── Ctx: clock, EventQueue, generator, requests,
//!      │                      tellers, Cores, Stats   (the shared machinery)
//!      └──────── owns ── AnyServer: ThreadServer | LoopServer  (one file each)
//! ```
//!
//! The simulation owns its clock, its event queue and its generator. Events
//! are ordered by (time, sequence), so events at equal times leave in the
//! order they were scheduled ([`queue`]). Nothing here reads a wall clock.
//!
//! A request goes: accept → line → CPU (read + compute) → wait (off the CPU)
//! → CPU (write) → done. What differs between models sits behind the small
//! [`Server`] trait (accept a request, say whether the line is full, a CPU
//! step or a wait is done), one file per kind of server; the shared
//! machinery is passed in as a [`Ctx`]. All tellers that want the CPU share
//! the cores through [`cores::Cores`].
//!
//! The files below this one import each other, never this one: the
//! [`Event`]s live in `event.rs`, the [`Server`] trait and the [`Ctx`] in
//! `ctx.rs`, and this file puts them together as a [`Simulation`].

mod breaker;
pub mod cores;
mod ctx;
pub mod dependency;
mod event;
mod loops;
pub mod queue;
mod request;
mod stats;
mod threads;

use crate::histogram::Histogram;
use crate::report::{Latency, LoopBlock, QueueWait, Report, StoppedBy};
use crate::rng;
use crate::scenario::{Accept, Arrivals, FieldError, Model, Scenario};
use breaker::Breaker;
use cores::{Cores, TellerId, Tellers};
use ctx::ms;
use dependency::{Dependency, Slab};
use loops::LoopServer;
use queue::{EventQueue, Next};
use rand::distr::Bernoulli;
use request::{Caller, ReqId, Requests};
use stats::{Stats, NS_PER_MS};
use threads::ThreadServer;

pub use breaker::{BreakerState, BreakerView};
pub use cores::{TellerKind, TellerState};
pub use ctx::{ClientConn, Conn, Ctx, Server, MAX_CALLS_IN_FLIGHT, MAX_TOKENS};
pub use event::Event;
pub use queue::Time;

/// Most requests kept inside before the run is stopped as overloaded.
pub const MAX_IN_FLIGHT: u64 = 1_000_000;

/// Most keep-alive connections kept open at once before the run is
/// stopped: an open connection holds its place between its requests, so
/// many long think times piled up connections until memory ran out (a
/// tab panicked at 2.2 GB; the CLI failed to allocate 1.6 GB).
pub const MAX_CONNS_OPEN: u64 = 1_000_000;

/// The server a scenario runs: one of the [`Server`]s, chosen by its model.
/// It forwards each call with a `match`, so the hot path has no dynamic dispatch.
#[derive(Clone, Debug)]
enum AnyServer {
    Threads(ThreadServer),
    Loops(LoopServer),
}

/// Forwards a call to the server inside.
macro_rules! each {
    ($self:expr, $s:ident => $call:expr) => {
        match $self {
            AnyServer::Threads($s) => $call,
            AnyServer::Loops($s) => $call,
        }
    };
}

impl Server for AnyServer {
    #[inline]
    fn line_is_full(&self, ctx: &Ctx, caller: Caller) -> bool {
        each!(self, s => s.line_is_full(ctx, caller))
    }
    #[inline]
    fn line_holds_connections(&self) -> bool {
        each!(self, s => s.line_holds_connections())
    }
    #[inline]
    fn accept(&mut self, ctx: &mut Ctx, r: ReqId) {
        each!(self, s => s.accept(ctx, r))
    }
    #[inline]
    fn cpu_step_done(&mut self, ctx: &mut Ctx, t: TellerId) {
        each!(self, s => s.cpu_step_done(ctx, t))
    }
    #[inline]
    fn wait_done(&mut self, ctx: &mut Ctx, r: ReqId) {
        each!(self, s => s.wait_done(ctx, r))
    }
    fn teller_load(&self, ctx: &Ctx, t: TellerId) -> u32 {
        each!(self, s => s.teller_load(ctx, t))
    }
    fn loop_connections(&self) -> Vec<u64> {
        each!(self, s => s.loop_connections())
    }
    fn loop_requests(&self) -> Vec<u64> {
        each!(self, s => s.loop_requests())
    }
    fn worker_wait(&self) -> Option<&Histogram> {
        each!(self, s => s.worker_wait())
    }
    fn worker_line(&self) -> u64 {
        each!(self, s => s.worker_line())
    }
}

/// A teller as the animation shows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TellerView {
    /// Thread, loop or worker.
    pub kind: TellerKind,
    /// What it does now.
    pub state: TellerState,
    /// Requests tied to it: held (thread); pinned to it (loop: running,
    /// queued on it, or waiting off the CPU, which the back office shows
    /// too; with the loops' one shared line, where no request is pinned,
    /// only the one it runs); or running (worker).
    pub load: u32,
}

/// Most tellers a [`Snapshot`] lists one by one.
pub const SNAPSHOT_TELLERS: usize = 256;

/// A moment of the run, for drawing.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Snapshot {
    /// Simulated time, s.
    pub t_s: f64,
    /// Requests in the line.
    pub line: u64,
    /// Requests waiting off the CPU (the back office).
    pub waiting: u64,
    /// Steps waiting for a free worker thread (event loops with workers).
    pub worker_line: u64,
    /// Event loops among the tellers (0 without loops): the rest are
    /// threads, or beside loops, workers.
    pub loops: u64,
    /// Whether each event loop's `load` counts the requests pinned to it.
    /// False without loops, and with the loops' one shared line, which
    /// pins none: there a loop holds only the request it runs.
    pub loop_counts: bool,
    /// Worker threads in each loop's own pool (0 unless each loop has
    /// one). Where every teller is listed (at most [`SNAPSHOT_TELLERS`]),
    /// the loops come first, then the loops' pools in the loops' order, so
    /// worker `j` is loop `j / workers_per_loop`'s; a longer list is
    /// ordered otherwise (the tellers on a core first).
    pub workers_per_loop: u32,
    /// Requests inside.
    pub inside: u64,
    /// Busy cores.
    pub busy_cores: u32,
    /// Cores.
    pub cores: u32,
    /// Tellers alive, at most [`SNAPSHOT_TELLERS`] (those on or wanting a
    /// core first when there are more).
    pub tellers: Vec<TellerView>,
    /// Tellers alive in all.
    pub tellers_alive: u64,
    /// Tellers alive and not idle, in all (not only the ones in `tellers`).
    pub tellers_busy: u64,
    /// Finished so far.
    pub completed: u64,
    /// Refused so far.
    pub refused: u64,
    /// Requests timed out so far (each try counts): see `Report::timed_out`.
    pub timed_out: u64,
    /// The dependency side, when it has a limit or more than a plain delay.
    pub dep: Option<DepView>,
    /// The callers' circuit breaker, when they have one.
    pub breaker: Option<BreakerView>,
}

/// The dependency side as the animation shows it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DepView {
    /// Connections to it, if limited.
    pub pool: Option<u32>,
    /// Connections in use.
    pub conns_busy: u32,
    /// Calls waiting for a connection.
    pub conn_line: u64,
    /// Its slots, if limited.
    pub slots: Option<u32>,
    /// Calls being served.
    pub slots_busy: u32,
    /// Calls waiting for a slot.
    pub slot_line: u64,
}

/// One simulation run. Create with [`Simulation::new`], advance with
/// [`Simulation::run`] or [`Simulation::run_until`], read with [`Simulation::report`].
pub struct Simulation {
    ctx: Ctx,
    server: AnyServer,
    events: u64,
    stopped: Option<StoppedBy>,
    end_ns: Time,
}

/// How many calls a run makes at most: a batch's `count` (or fewer, by
/// `requests`), else `requests` if set.
fn call_limit(s: &Scenario) -> Option<u64> {
    match s.arrivals {
        Arrivals::Batch => Some(
            s.requests
                .map_or(u64::from(s.count), |r| r.min(u64::from(s.count))),
        ),
        _ => s.requests,
    }
}

impl Simulation {
    /// A new run, or every bad field of the scenario.
    pub fn new(s: &Scenario) -> Result<Simulation, Vec<FieldError>> {
        let errs = s.validate();
        if !errs.is_empty() {
            return Err(errs);
        }
        let s = s.clone();
        let end_ns = (s.duration_s * 1e9).round() as Time;
        let open = matches!(s.arrivals, Arrivals::Poisson | Arrivals::Uniform);
        // The measured window: it starts after the warm-up share of the
        // run length, or, with a number of requests, after that share of
        // the requests if they come sooner (a count never reached, because
        // the run length ends the run first, left nothing measured).
        let warm_time = (s.warmup * end_ns as f64).round() as Time;
        let (t_warm, warm_count) = match (open, s.requests) {
            (true, Some(n)) => {
                let warm_count = (s.warmup * n as f64).floor() as u64;
                (if warm_count == 0 { 0 } else { warm_time }, warm_count)
            }
            (true, None) => (warm_time, 0),
            (false, _) => (0, 0),
        };
        let series_dt = first_series_interval(&s);
        // A closed loop is measured from 0 (its requests are not fed at a
        // rate: nothing to warm up), but its line fills as the clients send
        // their first requests: growth from the warm-up share of the run,
        // as an open run's. (A batch's line is all there at 0 and only
        // drains: from 0.) Growth is measured from `t_growth_late`, a third
        // of the way from there to the run's set end, once the run has gone
        // as far past it again (two thirds of the way on): a line that
        // filled early and then held at a limit (lesson 9's line limit of
        // 500, full by 2.5 s of 20) read as "growing by 26 a second". Until
        // then, and in a run that ends sooner (a count of requests, a
        // bound), from `t_growth`: never over a span of a few events.
        let t_growth = if s.arrivals == Arrivals::Closed {
            warm_time
        } else {
            t_warm
        };
        let t_growth_late = t_growth + end_ns.saturating_sub(t_growth) / 3;
        // Keep-alive connections, for open arrivals only.
        let conns_on = open && s.conn_requests > 1;
        let mut ctx = Ctx {
            rng: rng::seeded(s.seed),
            heavy: (s.heavy_share > 0.0)
                .then(|| Bernoulli::new(s.heavy_share).expect("validated: 0–1")),
            loop_held: Vec::new(),
            now: 0,
            queue: EventQueue::new(),
            reqs: Requests::default(),
            tellers: Tellers::default(),
            cores: Cores::new(
                s.cores,
                ms(s.time_slice_ms),
                (s.switch_us * 1e3).round() as Time,
            ),
            stats: Stats::new(t_warm, warm_count, series_dt, t_growth, t_growth_late),
            arrived: 0,
            calls: 0,
            stream_sent: 0,
            retries: 0,
            pending_retries: 0,
            tokens: MAX_TOKENS,
            breaker: Breaker::default(),
            arrivals_done: false,
            timeout: s.timeout_ms.map(ms),
            // A breaker learns of a timed-out try when the caller gives up.
            timeout_events: s.arrivals == Arrivals::Closed
                || s.retries > 0
                || conns_on
                || s.breaker_after.is_some(),
            mean_service: ms(s.mean_service_ms()),
            may_drop: s.drop_abandoned
                || s.shed_after_ms.is_some()
                || (s.drop_hopeless && s.timeout_ms.is_some()),
            conns_on,
            dep: Dependency::new(
                s.dep_pool,
                s.dep_concurrency,
                s.fan_out,
                s.hedge_after_ms.map(ms),
            ),
            dep_next: Vec::new(),
            conns: Slab::default(),
            clients: if s.arrivals == Arrivals::Closed {
                vec![ClientConn::default(); s.clients as usize]
            } else {
                Vec::new()
            },
            s,
        };
        // Tellers that exist from the start.
        let server = match ctx.s.model {
            Model::ThreadPool | Model::ThreadPerRequest => {
                AnyServer::Threads(ThreadServer::new(&mut ctx))
            }
            Model::EventLoop | Model::EventLoopWorkers => {
                AnyServer::Loops(LoopServer::new(&mut ctx))
            }
        };
        ctx.queue.set_sample(series_dt);
        match ctx.s.arrivals {
            Arrivals::Closed => {
                for client in 0..ctx.s.clients {
                    ctx.queue.push(0, Event::ClientSends { client });
                }
            }
            // A schedule that starts with a pause (rate 0) sends its first
            // request once its rate is above 0, drawn as every later one is
            // (at 0 s, one request came in during the pause).
            Arrivals::Poisson | Arrivals::Uniform
                if ctx
                    .s
                    .rps_schedule
                    .is_some_and(|sch| sch.rate_at(0.0) == 0.0) =>
            {
                if let Some(at) = ctx.next_open_arrival() {
                    ctx.queue.set_arrival(at);
                }
            }
            _ => ctx.queue.set_arrival(0),
        }
        Ok(Simulation {
            ctx,
            server,
            events: 0,
            stopped: None,
            end_ns,
        })
    }

    /// Simulated time now, ns.
    pub fn now(&self) -> Time {
        self.ctx.now
    }

    /// The scenario being run.
    pub fn scenario(&self) -> &Scenario {
        &self.ctx.s
    }

    /// Calls made so far (retries not counted), and how many the run makes
    /// at most, if a count ends its arrivals (`requests`, or a batch's).
    pub fn calls(&self) -> (u64, Option<u64>) {
        (self.ctx.calls, call_limit(&self.ctx.s))
    }

    /// Which bound stopped the run, once it has stopped.
    pub fn stopped(&self) -> Option<StoppedBy> {
        self.stopped
    }

    /// Process one event. False when the run has ended.
    pub fn step(&mut self) -> bool {
        if self.stopped.is_some() {
            return false;
        }
        let now = self.ctx.now;
        if self.events >= self.ctx.s.max_events {
            return self.stop(StoppedBy::EventBudget, now);
        }
        if self.ctx.stats.inside > MAX_IN_FLIGHT {
            return self.stop(StoppedBy::InFlightLimit, now);
        }
        if self.ctx.stats.conns_open > MAX_CONNS_OPEN {
            return self.stop(StoppedBy::ConnLimit, now);
        }
        let Some((t, next)) = self.ctx.queue.pop() else {
            return self.stop(StoppedBy::AllDone, now);
        };
        // The run covers [0, end): what falls at the end itself is after
        // it. Ten closed clients whose 10 s timeout equals a 10 s run gave
        // up and sent again at that instant, and the run ended with 19
        // inside for 10 clients.
        if t >= self.end_ns {
            return self.stop(StoppedBy::Duration, self.end_ns);
        }
        self.advance(t);
        self.events += 1;
        match next {
            Next::Arrival => self.on_arrival(Caller::Open, 0, None),
            Next::Sample => {
                let c = &mut self.ctx;
                let at = c.stats.sample(c.now, c.cores.count());
                c.queue.set_sample(at);
            }
            Next::Event(ev) => match ev {
                Event::ClientSends { client } => self.on_arrival(Caller::Client(client), 0, None),
                Event::Retry {
                    caller,
                    attempt,
                    heavy,
                } => self.on_arrival(caller, attempt, heavy),
                Event::CpuDone { core, gen } => {
                    let c = &mut self.ctx;
                    if let Some(t) = c.cores.on_cpu_done(&mut c.tellers, core, gen) {
                        self.server.cpu_step_done(&mut self.ctx, t);
                        let c = &mut self.ctx;
                        c.cores.release(&mut c.tellers, &mut c.queue, c.now);
                    }
                }
                Event::SliceEnd { core, gen } => {
                    let c = &mut self.ctx;
                    c.cores
                        .on_slice_end(&mut c.tellers, &mut c.queue, c.now, core, gen);
                }
                Event::ConnSends { conn } => self.on_arrival(Caller::Conn(conn), 0, None),
                Event::DepDone { copy } => {
                    if let Some(r) = self.ctx.dep_done(copy) {
                        self.ctx.stats.waiting -= 1;
                        self.server.wait_done(&mut self.ctx, r);
                    }
                }
                Event::HedgeDue { call, req_id } => self.ctx.hedge_due(call, req_id),
                Event::CallLimit => return self.stop(StoppedBy::CallLimit, self.ctx.now),
                Event::WaitDone { req } => {
                    self.ctx.stats.waiting -= 1;
                    self.server.wait_done(&mut self.ctx, req);
                }
                Event::Timeout { req, id } => self.on_timeout(req, id),
            },
        }
        let st = &mut self.ctx.stats;
        st.peak_inside = st.peak_inside.max(st.inside);
        if self.ctx.arrivals_done && self.ctx.stats.inside == 0 && self.ctx.pending_retries == 0 {
            return self.stop(StoppedBy::AllDone, self.ctx.now);
        }
        true
    }

    /// Run until `t` ns or at most `max_events` more events (slices for a UI).
    /// False when the run has ended.
    pub fn run_until(&mut self, t: Time, max_events: u64) -> bool {
        let mut n = 0;
        while n < max_events {
            match self.ctx.queue.peek_time() {
                // Nothing due by `t`, before the end: time moves on to it.
                // At or past the end, the next step ends the run, as it
                // ends an uninterrupted one (the clock stayed put, and a
                // lab playing slowly asked for the same time each frame,
                // for ever, when no event fell at the end itself).
                Some(next) if next > t && self.stopped.is_none() && t < self.end_ns => {
                    self.advance(t);
                    return true;
                }
                _ => {}
            }
            if !self.step() {
                return false;
            }
            n += 1;
        }
        self.stopped.is_none()
    }

    /// Run to the end and report.
    pub fn run(mut self) -> Report {
        while self.step() {}
        self.report()
    }

    fn stop(&mut self, why: StoppedBy, at: Time) -> bool {
        self.advance(at.max(self.ctx.now));
        let c = &mut self.ctx;
        c.stats.close_last(c.now, c.cores.count());
        self.stopped = Some(why);
        false
    }

    /// Move the clock to `t`, adding the time-weighted sums on the way.
    #[inline]
    fn advance(&mut self, t: Time) {
        let c = &mut self.ctx;
        c.stats.advance(t, c.cores.busy, c.dep.slots_busy);
        c.now = t;
    }

    /// A try arrives: a new call (`attempt` 0, from the open stream, the
    /// batch or a closed client) or a retry of an earlier one (of class
    /// `heavy`, once drawn).
    fn on_arrival(&mut self, mut caller: Caller, attempt: u32, heavy: Option<bool>) {
        let c = &mut self.ctx;
        if attempt == 0 {
            let s = &c.s;
            let bounded_n = call_limit(s);
            if c.arrivals_done || bounded_n.is_some_and(|n| c.calls >= n) {
                c.arrivals_done = true;
                // A keep-alive connection with nothing more to send closes.
                if let Caller::Conn(conn) = caller {
                    c.close_conn(conn);
                }
                return;
            }
            // The next arrival of an open or batch stream (a request, or a
            // keep-alive connection that sends this one first).
            if caller == Caller::Open {
                match s.arrivals {
                    Arrivals::Poisson | Arrivals::Uniform => {
                        if let Some(at) = c.next_open_arrival() {
                            c.queue.set_arrival(at);
                        }
                    }
                    Arrivals::Batch => c.queue.set_arrival(c.now),
                    Arrivals::Closed => {}
                }
            }
            c.calls += 1;
            if bounded_n.is_some_and(|n| c.calls >= n) {
                c.arrivals_done = true;
            }
        } else {
            c.pending_retries -= 1;
            c.retries += 1;
        }
        // The warm-up counts calls, as `requests` does (not retries), those
        // the breaker fails at once too.
        if c.stats.warm_count > 0 && c.now < c.stats.t_warm && c.calls > c.stats.warm_count {
            c.stats.start_window(c.now);
        }
        // An open circuit breaker fails the call at once: the try never
        // reaches the server, and is not retried. A try it lets through is
        // known by its arrival number, which its request keeps as its `id`
        // (wrapping harmlessly).
        let id = (c.arrived + 1) as u32;
        if c.s.breaker_after.is_some() && !c.breaker.lets_through(c.now, id) {
            c.stats.broken += 1;
            c.call_failed(caller, true);
            return;
        }
        c.arrived += 1;
        c.stats.win_arrived += 1;
        if attempt > 0 {
            c.stats.win_retries += 1;
        }
        let measured = c.now >= c.stats.t_warm;
        if measured {
            c.stats.arrived_in_window += 1;
        }

        // The door: too many connections, or a full line. With keep-alive
        // connections, a new one (a first try, or a retry of one refused)
        // opens if the limit allows; requests on open connections pass it.
        // Without, each request inside holds its own connection. A full
        // line of connections waiting to be accepted refuses the new
        // connection; another full line refuses the request on it.
        // A closed client is one connection too, opened by its first
        // request and held to the end of the run.
        let new_conn = c.conns_on && caller == Caller::Open;
        let new_client = c.opens_client(caller);
        let at_conn_limit = if c.conns_on || c.s.arrivals == Arrivals::Closed {
            (new_conn || new_client)
                && c.s
                    .max_connections
                    .is_some_and(|m| c.stats.conns_open >= u64::from(m))
        } else {
            c.s.max_connections
                .is_some_and(|m| c.stats.inside >= u64::from(m))
        };
        let line_full = !at_conn_limit && self.server.line_is_full(&self.ctx, caller);
        let c = &mut self.ctx;
        // A connection opens unless refused at the limit, or by a full
        // line of connections waiting to be accepted.
        let refused_conn = at_conn_limit || (line_full && self.server.line_holds_connections());
        let opens = !refused_conn;
        if new_conn && opens {
            caller = Caller::Conn(c.open_conn());
        }
        if let (true, true, Caller::Client(k)) = (new_client, opens, caller) {
            c.open_client(k);
        }
        if at_conn_limit || line_full {
            c.stats.refused += 1;
            if measured {
                c.stats.refused_in_window += 1;
            }
            c.call_try_failed(caller, attempt, true, heavy, id);
            return;
        }

        let c = &mut self.ctx;
        let r = c.new_request(id, caller, attempt, measured, heavy);
        c.stats.inside += 1;
        c.stats.line_len += 1;
        if let (true, Some(to)) = (c.timeout_events, c.timeout) {
            let id = c.reqs.get(r).id;
            c.queue.push(c.now + to, Event::Timeout { req: r, id });
        }
        self.server.accept(&mut self.ctx, r);
    }

    /// A caller's timeout: the try has failed, unless it already finished
    /// (its slot may then hold another request: the number tells).
    fn on_timeout(&mut self, r: ReqId, id: u32) {
        let c = &mut self.ctx;
        let q = c.reqs.get(r);
        if !q.live || q.id != id {
            return;
        }
        c.try_failed(r);
    }

    /// Requests still inside whose caller's timeout has passed: they have
    /// timed out too, though nothing has happened to them yet (counted by
    /// looking at each request inside, only when callers have a timeout).
    fn gone_inside(&self) -> u64 {
        let c = &self.ctx;
        c.reqs
            .live()
            .filter(|q| self.caller_has_gone(q.arrival))
            .count() as u64
    }

    /// Whether the caller of a request that arrived at `arrival` ns has
    /// given up by now. The run covers [0, end): a caller whose timeout
    /// falls at the end itself has not given up within it (ten closed
    /// clients with a 10 s timeout in a 10 s run were counted as 9 timed
    /// out, "work for nobody" beside none finished). Before the end, one
    /// whose timeout is now has gone, as `Ctx::caller_gone` has it.
    fn caller_has_gone(&self, arrival: Time) -> bool {
        let c = &self.ctx;
        c.timeout.is_some_and(|to| {
            let due = arrival + to;
            c.now > due || (c.now == due && c.now < self.end_ns)
        })
    }

    /// The report so far (complete once the run has stopped).
    pub fn report(&self) -> Report {
        let c = &self.ctx;
        let st = &c.stats;
        let now = c.now;
        let t_warm = st.t_warm.min(now);
        let window_ns = (now - t_warm).max(1) as f64;
        let window_s = window_ns / 1e9;
        let cores = f64::from(c.s.cores);
        let area = if now >= st.t_warm {
            st.area - st.area_at_warm
        } else {
            stats::Area::default()
        };
        // Growth over [t_growth_late, now] once that span is at least as
        // long as the one before it (see `Simulation::new`); before, over
        // [t_growth, now]; before that,
        // over the measured window, or, when the run stopped inside its
        // warm-up, over the run so far (over its 1 ns stand-in a line of
        // 1,000 grew by 10^12 a second).
        let late = st.t_growth_late.saturating_sub(st.t_growth);
        let (growth_from, from) = if now > st.t_growth_late && now - st.t_growth_late >= late {
            (st.t_growth_late, st.at_late)
        } else if now > st.t_growth {
            (st.t_growth, st.at_growth)
        } else if now > st.t_warm {
            (st.t_warm, st.at_warm)
        } else {
            (0, stats::Mark::default())
        };
        let growth_s = ((now - growth_from) as f64 / 1e9).max(1e-9);
        let [p50, p90, p99, p999] = st
            .latency
            .quantiles([0.5, 0.9, 0.99, 0.999])
            .map(|ns| ns / NS_PER_MS);
        let latency_ms = Latency {
            mean: st.latency.mean() / NS_PER_MS,
            p50,
            p90,
            p99,
            p999,
            max: st.latency.max() as f64 / NS_PER_MS,
        };
        let arrival_rps = st.arrived_in_window as f64 / window_s;
        // Refused arrivals spend no time inside: Little's law counts the rest.
        let admitted_rps = (st.arrived_in_window - st.refused_in_window) as f64 / window_s;
        let gone_inside = self.gone_inside();
        let loop_connections = self.server.loop_connections();
        let has_loops = matches!(self.server, AnyServer::Loops(_));
        let open_step = match &self.server {
            AnyServer::Loops(l) => l.longest_open_step(c),
            AnyServer::Threads(_) => 0,
        };
        let kb_to_mb = 1.0 / 1000.0;
        let conn_kb = if c.s.keeps_connection_state() {
            c.s.conn_state_kb
        } else {
            0.0
        };
        let peak_threads = c.tellers.peak;
        // Keep-alive connections and closed clients' stay open between
        // their requests.
        let peak_connections = if c.conns_on || c.s.arrivals == Arrivals::Closed {
            st.peak_conns
        } else {
            st.peak_inside
        };
        // Tries still inside past their caller's timeout, whose failure no
        // event has counted yet, are failed calls too.
        let failed_inside = c
            .reqs
            .live()
            .filter(|q| !q.abandoned && self.caller_has_gone(q.arrival))
            .count() as u64;
        Report {
            arrived: c.arrived,
            attempts: c.arrived,
            calls: c.calls,
            retries: c.retries,
            calls_succeeded: st.calls_succeeded,
            calls_failed: st.calls_failed + failed_inside,
            broken: st.broken,
            shed: st.shed,
            dropped_hopeless: st.dropped_hopeless,
            call_success_rps: st.good_in_window as f64 / window_s,
            dep_calls: c.dep.sent,
            hedges: c.dep.hedges,
            dep_utilisation: c
                .s
                .dep_concurrency
                .map(|k| (area.dep_busy / window_ns / f64::from(k)).clamp(0.0, 1.0)),
            dep_pool_wait_ms: QueueWait {
                mean: c.dep.pool_wait.mean() / NS_PER_MS,
                p99: c.dep.pool_wait.quantile(0.99) / NS_PER_MS,
            },
            dep_queue_wait_ms: QueueWait {
                mean: c.dep.queue_wait.mean() / NS_PER_MS,
                p99: c.dep.queue_wait.quantile(0.99) / NS_PER_MS,
            },
            connections_opened: st.connections_opened,
            loop_requests: self.server.loop_requests(),
            completed: st.completed,
            refused: st.refused,
            dropped: st.dropped,
            timed_out: st.timed_out + gone_inside,
            finished_after_timeout: st.finished_late,
            in_flight_end: st.inside,
            queue_len_end: st.line_len,
            queue_growth_per_s: (st.line_len as f64 - from.line as f64) / growth_s,
            inside_growth_per_s: (st.inside as f64 - from.inside as f64) / growth_s,
            growth_from_s: growth_from as f64 / 1e9,
            growth_arrival_rps: (st.arrived_in_window - from.arrived) as f64 / growth_s,
            growth_throughput_rps: (st.completed_in_window - from.completed) as f64 / growth_s,
            throughput_rps: st.completed_in_window as f64 / window_s,
            goodput_rps: st.good_in_window as f64 / window_s,
            arrival_rps,
            admitted_rps,
            measured: st.latency.count(),
            latency_ms,
            queue_wait_ms: QueueWait {
                mean: st.queue_wait.mean() / NS_PER_MS,
                p99: st.queue_wait.quantile(0.99) / NS_PER_MS,
            },
            cpu_utilisation: (area.busy_cores / window_ns / cores).clamp(0.0, 1.0),
            mean_busy: area.busy / window_ns,
            mean_busy_workers: (c.s.model == Model::EventLoopWorkers)
                .then(|| area.busy_workers / window_ns),
            mean_in_flight: area.inside / window_ns,
            littles_law_in_flight: admitted_rps * latency_ms.mean / 1e3,
            makespan_s: st.last_finish as f64 / 1e9,
            loop_block_ms: has_loops.then(|| LoopBlock {
                mean: st.loop_block.mean() / NS_PER_MS,
                p99: st.loop_block.quantile(0.99) / NS_PER_MS,
                max: open_step.max(st.loop_block.max()) as f64 / NS_PER_MS,
            }),
            loop_connections,
            worker_wait_ms: self.server.worker_wait().map(|h| QueueWait {
                mean: h.mean() / NS_PER_MS,
                p99: h.quantile(0.99) / NS_PER_MS,
            }),
            peak_threads,
            peak_memory_reserved_mb: peak_threads as f64 * c.s.stack_reserved_kb * kb_to_mb,
            peak_memory_used_mb: (peak_threads as f64 * c.s.stack_used_kb
                + peak_connections as f64 * conn_kb)
                * kb_to_mb,
            peak_connections,
            stopped_by: self.stopped.unwrap_or(StoppedBy::Duration),
            finished: self.stopped.is_some(),
            events: self.events,
            sim_time_s: now as f64 / 1e9,
            warmup_s: t_warm as f64 / 1e9,
            series: st.series.clone(),
        }
    }

    /// What the animation draws now. With more tellers than
    /// [`SNAPSHOT_TELLERS`], the ones on a core or wanting one come first,
    /// so the picture always shows who holds the cores.
    pub fn snapshot(&self) -> Snapshot {
        let c = &self.ctx;
        // Counted as the tellers change, not walked: a frame walked ten
        // million per-loop workers in 100 to 200 ms.
        // (Checked against a walk at 200 moments of every preset.)
        let (alive, busy) = (c.tellers.alive, c.stats.busy_tellers);
        let queued = |t: TellerId| self.server.teller_load(c, t);
        let view = |(i, t): (usize, &cores::Teller)| TellerView {
            kind: t.kind,
            state: t.state,
            load: queued(i as TellerId) + u32::from(t.req.is_some()),
        };
        let live = || c.tellers.all.iter().enumerate().filter(|(_, t)| t.alive);
        let wants_cpu =
            |t: &cores::Teller| matches!(t.state, TellerState::OnCore | TellerState::Ready);
        let tellers: Vec<TellerView> = if alive as usize <= SNAPSHOT_TELLERS {
            live().map(view).collect()
        } else {
            // Those on a core or in the ready line, read from the cores (at
            // most a list's worth), in id order; then the others, as many
            // as there is room for.
            let mut wanting: Vec<TellerId> = c.cores.wanting().take(SNAPSHOT_TELLERS).collect();
            wanting.sort_unstable();
            let room = SNAPSHOT_TELLERS - wanting.len();
            wanting
                .into_iter()
                .map(|t| (t as usize, c.tellers.get(t)))
                .chain(live().filter(|(_, t)| !wants_cpu(t)).take(room))
                .map(view)
                .collect()
        };
        Snapshot {
            t_s: c.now as f64 / 1e9,
            line: c.stats.line_len,
            waiting: c.stats.waiting,
            worker_line: self.server.worker_line(),
            // One count per loop, none without loops.
            loops: c.loop_held.len() as u64,
            loop_counts: !c.loop_held.is_empty() && c.s.accept != Accept::Shared,
            workers_per_loop: c.s.workers_per_loop(),
            inside: c.stats.inside,
            busy_cores: c.cores.busy,
            cores: c.s.cores,
            tellers,
            tellers_alive: alive,
            tellers_busy: busy,
            completed: c.stats.completed,
            refused: c.stats.refused,
            timed_out: c.stats.timed_out + self.gone_inside(),
            dep: (!c.dep.is_plain()).then(|| DepView {
                pool: c.s.dep_pool,
                conns_busy: c.dep.conns_busy,
                conn_line: c.dep.waiting_for_connection(),
                slots: c.s.dep_concurrency,
                slots_busy: c.dep.slots_busy,
                slot_line: c.dep.waiting_for_slot(),
            }),
            breaker: c
                .s
                .breaker_after
                .map(|after| c.breaker.view(c.now, after, c.stats.broken)),
        }
    }
}

/// A time-series interval that gives about 200 points for the expected run, ns.
fn first_series_interval(s: &Scenario) -> Time {
    let expected_s = match (s.arrivals, s.requests) {
        (Arrivals::Poisson | Arrivals::Uniform, Some(n)) => n as f64 / s.rps,
        (Arrivals::Batch, _) => {
            let n = s
                .requests
                .unwrap_or(u64::from(s.count))
                .min(u64::from(s.count)) as f64;
            n * s.mean_cpu_ms() / 1e3 / f64::from(s.cores) + s.mean_service_ms() / 1e3
        }
        _ => s.duration_s,
    };
    let expected_s = expected_s.min(s.duration_s).max(1e-3);
    ((expected_s / 200.0 * 1e9) as Time).max(100_000)
}

/// Run a scenario to the end: the report, or every bad field.
pub fn simulate(s: &Scenario) -> Result<Report, Vec<FieldError>> {
    Ok(Simulation::new(s)?.run())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A keep-alive connection thinking when the last call of a bounded
    /// run arrives closes when it would have sent its next request, so it
    /// does not hold a place under the connection limit from then on (a
    /// late retry would have been refused by connections with nothing
    /// left to send). The run ends once nothing is inside; the test then
    /// lets the thinking connections come back, one by one.
    #[test]
    fn keep_alive_connections_close_when_the_calls_run_out() {
        let s = Scenario {
            model: Model::EventLoop,
            rps: 100.0,
            conn_requests: 10,
            think_ms: 1000.0,
            cpu_ms: 1.0,
            wait_ms: 0.0,
            requests: Some(200),
            seed: 3,
            ..Scenario::default()
        };
        let mut sim = Simulation::new(&s).unwrap();
        while sim.step() {}
        assert_eq!(sim.stopped(), Some(StoppedBy::AllDone));
        assert_eq!(sim.ctx.calls, 200);
        assert!(sim.ctx.stats.connections_opened > 20);
        let thinking = sim.ctx.stats.conns_open;
        assert!(thinking > 5, "{thinking} connections thinking at the end");
        let mut came_back = 0;
        while let Some((t, next)) = sim.ctx.queue.pop() {
            sim.ctx.now = t;
            if let Next::Event(Event::ConnSends { conn }) = next {
                sim.on_arrival(Caller::Conn(conn), 0, None);
                came_back += 1;
            }
        }
        assert_eq!(came_back, thinking);
        assert_eq!(sim.ctx.stats.conns_open, 0);
        assert_eq!(sim.ctx.calls, 200, "no call was sent after the last");
    }
}
