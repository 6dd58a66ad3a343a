//! The shared machinery every server works with ([`Ctx`]), and what
//! differs between kinds of server ([`Server`]). The servers (threads.rs,
//! loops.rs) and the simulation (mod.rs) use these; nothing here knows
//! which kind of server runs.

use super::breaker::Breaker;
use super::cores::{Cores, TellerId, Tellers};
use super::dependency::{Call, CallId, CopyId, Dependency, Slab, Started};
use super::event::Event;
use super::queue::{EventQueue, Time};
use super::request::{Caller, Owner, Phase, Req, ReqId, Requests};
use super::stats::{LeftLine, Stats, NS_PER_MS};
use crate::histogram::Histogram;
use crate::rng::{self, Rng};
use crate::scenario::{Arrivals, Dist, Scenario};
use rand::distr::{Bernoulli, Distribution};

/// Most calls to the dependency (fan-out calls and their hedges) kept in
/// flight before the run is stopped as overloaded. The request limit alone
/// let 1,000 calls a request grow to a billion (tens of GB) before it
/// fired; this many take about 100 MB.
pub const MAX_CALLS_IN_FLIGHT: u64 = 2_000_000;

/// ms → ns, rounded to nearest (inputs are never negative). Through `i64`,
/// which converts in one instruction on x86-64 (the same value below 2^63 ns).
#[inline]
pub(super) fn ms(x: f64) -> Time {
    (x * NS_PER_MS + 0.5) as i64 as Time
}

/// What differs between kinds of server. Each call gets the shared
/// machinery as `ctx`; the server keeps only its own state (its line, its
/// idle threads, its loops' queues).
pub trait Server {
    /// Would the door refuse a try of `caller` now (a full line)?
    fn line_is_full(&self, ctx: &Ctx, caller: Caller) -> bool;
    /// Whether the line [`Server::line_is_full`] guards holds connections
    /// waiting to be accepted (loops where the idle loop accepts more), so a full one
    /// refuses the connection itself, not a request on it.
    fn line_holds_connections(&self) -> bool {
        false
    }
    /// A new request `r`, already counted inside and in line.
    fn accept(&mut self, ctx: &mut Ctx, r: ReqId);
    /// Teller `t` finished the CPU step it asked for.
    fn cpu_step_done(&mut self, ctx: &mut Ctx, t: TellerId);
    /// Request `r`'s wait off the CPU is over.
    fn wait_done(&mut self, ctx: &mut Ctx, r: ReqId);
    /// Requests tied to teller `t` beside the one it runs (a loop's: those
    /// pinned to it, queued or waiting off the CPU).
    fn teller_load(&self, _ctx: &Ctx, _t: TellerId) -> u32 {
        0
    }
    /// Connections each event loop accepted; empty without loops.
    fn loop_connections(&self) -> Vec<u64> {
        Vec::new()
    }
    /// Requests each event loop served; empty without loops.
    fn loop_requests(&self) -> Vec<u64> {
        Vec::new()
    }
    /// How long the measured requests' steps handed to workers waited for
    /// one, ns; `None` without workers.
    fn worker_wait(&self) -> Option<&Histogram> {
        None
    }
    /// Steps waiting for a free worker thread, in every pool; 0 without
    /// workers.
    fn worker_line(&self) -> u64 {
        0
    }
}

/// The shared machinery every server works with: the clock, the queue, the
/// generator, requests, tellers, cores and statistics.
pub struct Ctx {
    /// The scenario being run.
    pub s: Scenario,
    /// Simulated time now, ns.
    pub now: Time,
    /// Pending events.
    pub queue: EventQueue<Event>,
    /// The generator (xoshiro256**).
    pub rng: Rng,
    /// Whether a request is heavy: a Bernoulli trial with the heavy share.
    pub(super) heavy: Option<Bernoulli>,
    /// Requests pinned to each event loop, from the moment a loop takes
    /// them on until they leave: running, queued on it, or waiting off the
    /// CPU (for the dependency or a worker). Empty without loops.
    pub(super) loop_held: Vec<u32>,
    pub(super) reqs: Requests,
    pub(super) tellers: Tellers,
    pub(super) cores: Cores,
    pub(super) stats: Stats,
    /// Tries that have arrived (calls and retries).
    pub(super) arrived: u64,
    /// Calls that have arrived (first tries).
    pub(super) calls: u64,
    /// Arrivals the open stream has scheduled after its first: requests, or
    /// keep-alive connections, refused ones too. Evenly spaced arrivals are
    /// timed by it, so a refusal cannot pull the next one to the same instant.
    pub(super) stream_sent: u64,
    /// Retries that have arrived.
    pub(super) retries: u64,
    /// Retries scheduled that have not arrived yet.
    pub(super) pending_retries: u64,
    /// Retry budget tokens held (at most [`MAX_TOKENS`]).
    pub(super) tokens: f64,
    /// The callers' circuit breaker (unused without `breaker_after`).
    pub(super) breaker: Breaker,
    /// No more calls will come.
    pub(super) arrivals_done: bool,
    /// The caller gives up after this long, ns.
    pub(super) timeout: Option<Time>,
    /// A timeout event is scheduled for every try, not only closed clients'
    /// (needed to retry at the right moment).
    pub(super) timeout_events: bool,
    /// Mean service time (CPU + wait), ns: the least time a request still needs.
    pub(super) mean_service: Time,
    /// The scenario may drop a request as a thread or loop takes it (caller
    /// gone, waited too long, or hopeless): [`Ctx::admit`] has work to do.
    pub(super) may_drop: bool,
    /// Open arrivals come as keep-alive connections of `conn_requests` requests.
    pub(super) conns_on: bool,
    /// What sits behind the wait step.
    pub(super) dep: Dependency,
    /// Copies that may start after one finished (a reused buffer).
    pub(super) dep_next: Vec<CopyId>,
    /// Keep-alive connections: requests each still has to send, and the
    /// loop it is pinned to.
    pub(super) conns: Slab<Conn>,
    /// Each closed client's connection: a closed client is one
    /// connection that sends its requests one after another (a load
    /// tool's), not a new connection a request. Empty without closed
    /// clients.
    pub(super) clients: Vec<ClientConn>,
}

/// A closed client's connection.
#[derive(Clone, Copy, Debug, Default)]
pub struct ClientConn {
    /// Open: its first request opened it (if the connection limit
    /// allowed), and it stays open until the client gives up on a request
    /// (a reset), counted among the open connections while it thinks.
    open: bool,
    /// The loop that accepted it, once one has.
    pinned: Option<u32>,
}

/// A keep-alive connection.
#[derive(Clone, Copy, Debug)]
pub struct Conn {
    /// Requests it still has to send after the current one.
    left: u32,
    /// The loop that accepted it, once one has.
    pinned: Option<u32>,
}

/// Most retry-budget tokens a caller holds; it starts with this many.
pub const MAX_TOKENS: f64 = 10.0;

impl Ctx {
    /// `x` ms in ns.
    pub(super) fn ms(&self, x: f64) -> Time {
        ms(x)
    }

    /// Teller `t` wants `ns` of CPU.
    #[inline]
    pub(super) fn want_cpu(&mut self, t: TellerId, ns: Time) {
        self.cores
            .want(&mut self.tellers, &mut self.queue, self.now, t, ns);
    }

    #[inline]
    fn draw(&mut self, mean_ms: f64, dist: Dist) -> Time {
        if mean_ms <= 0.0 {
            return 0;
        }
        match dist {
            Dist::Const => ms(mean_ms),
            Dist::Exp => ms(rng::exp(&mut self.rng, mean_ms)),
        }
    }

    /// A new request inside, try `attempt` of `caller`'s call, known by
    /// its arrival number `id` (as the circuit breaker knows its trial).
    #[inline]
    pub(super) fn new_request(
        &mut self,
        id: u32,
        caller: Caller,
        attempt: u32,
        measured: bool,
        heavy: Option<bool>,
    ) -> ReqId {
        let heavy = heavy.unwrap_or_else(|| self.heavy.is_some_and(|b| b.sample(&mut self.rng)));
        let cpu_mean = if heavy {
            self.s.heavy_cpu_ms
        } else {
            self.s.cpu_ms
        };
        let read = self.draw(cpu_mean, self.s.cpu_dist);
        let wait = self.draw(self.s.wait_ms, self.s.wait_dist);
        let write = self.draw(self.s.write_ms, self.s.cpu_dist);
        self.reqs.insert(Req {
            id,
            arrival: self.now,
            first_start: Time::MAX,
            read,
            wait,
            write,
            phase: Phase::Read,
            owner: Owner::Nobody,
            caller,
            attempt,
            calls_left: 0,
            pool: 0,
            abandoned: false,
            measured,
            heavy,
            live: true,
        })
    }

    /// A closed client sends its next request after thinking (at least 1 ms
    /// after a refusal, so a refused client cannot spin at one instant).
    fn client_next(&mut self, client: u32, refused: bool) {
        if self.arrivals_done {
            return;
        }
        let mut think = self.draw(self.s.think_ms, Dist::Const);
        if refused {
            think = think.max(ms(1.0));
        }
        self.queue
            .push(self.now + think, Event::ClientSends { client });
    }

    /// Has the caller of `r` gone?
    fn caller_gone(&self, r: ReqId) -> bool {
        let q = self.reqs.get(r);
        q.abandoned || self.timeout.is_some_and(|to| self.now >= q.arrival + to)
    }

    /// A thread or loop is about to take `r` from the line: true to go on,
    /// or false when the scenario drops it instead — its caller has gone, it
    /// waited longer than the shedding bound, or it cannot finish in time.
    #[inline(always)]
    pub(super) fn admit(&mut self, r: ReqId) -> bool {
        !self.may_drop || self.admit_or_drop(r)
    }

    /// [`Ctx::admit`] for a scenario that may drop requests.
    #[cold]
    fn admit_or_drop(&mut self, r: ReqId) -> bool {
        let q = self.reqs.get(r);
        let why = if self.s.drop_abandoned && self.caller_gone(r) {
            LeftLine::CallerGone
        } else if self
            .s
            .shed_after_ms
            .is_some_and(|x| self.now - q.arrival > ms(x))
        {
            LeftLine::Shed
        } else if self.s.drop_hopeless
            && self
                .timeout
                .is_some_and(|to| q.arrival + to < self.now + self.mean_service)
        {
            LeftLine::Hopeless
        } else {
            return true;
        };
        // Shed or dropped as hopeless after its caller had given up: a
        // caller that gave up all the same.
        let gave_up = why != LeftLine::CallerGone && self.caller_gone(r);
        self.stats.left_line(why);
        if gave_up {
            self.stats.timed_out += 1;
        }
        self.try_failed(r);
        self.remove(r);
        false
    }

    /// `r` is pinned to loop `l`: its steps run there until it leaves.
    pub(super) fn pin_to_loop(&mut self, r: ReqId, l: u32) {
        let q = self.reqs.get_mut(r);
        debug_assert_eq!(q.owner, Owner::Nobody, "a request is pinned once");
        q.owner = Owner::Loop(l);
        self.loop_held[l as usize] += 1;
    }

    /// `r` leaves the server (answered or dropped).
    #[inline]
    fn remove(&mut self, r: ReqId) {
        if let Owner::Loop(l) = self.reqs.get(r).owner {
            self.loop_held[l as usize] -= 1;
        }
        self.reqs.remove(r);
    }

    /// The caller of `r` learns its try failed (timed out, shed, dropped),
    /// unless it already knew. A try dropped the instant it arrived is
    /// turned away like a refusal: a client waits at least 1 ms before its
    /// next call, so a client whose every try is hopeless cannot send
    /// without end at one instant.
    pub(super) fn try_failed(&mut self, r: ReqId) {
        let q = self.reqs.get_mut(r);
        if q.abandoned {
            return;
        }
        q.abandoned = true;
        let (caller, attempt, at_once) = (q.caller, q.attempt, q.arrival == self.now);
        let (heavy, id) = (Some(q.heavy), q.id);
        // A closed client that gives up resets its connection, as a load
        // tool does (autocannon's timeout "resets the connection"): its
        // next request opens a new one, which a loop accepts afresh; the
        // abandoned request stays inside, worked on for nobody.
        if let Caller::Client(k) = caller {
            self.reset_client(k);
        }
        self.call_try_failed(caller, attempt, at_once, heavy, id);
    }

    /// Try number `attempt` of `caller`'s call failed: retry it after a
    /// backoff if tries and budget are left, else the call has failed. The
    /// retry keeps the call's class (`heavy`, when one was drawn); its
    /// times are drawn again, as the same work can take another time.
    pub(super) fn call_try_failed(
        &mut self,
        caller: Caller,
        attempt: u32,
        refused: bool,
        heavy: Option<bool>,
        id: u32,
    ) {
        if let Some(after) = self.s.breaker_after {
            let open_for = ms(self.s.breaker_open_ms);
            self.breaker.failed(self.now, id, after, open_for);
        }
        let budget_ok = self.s.retry_budget.is_none() || self.tokens >= 1.0;
        if attempt < self.s.retries && budget_ok {
            if self.s.retry_budget.is_some() {
                self.tokens -= 1.0;
            }
            // Full jitter: the k-th retry waits a uniform time in [0, X·2^(k−1)].
            let cap_ms = self.s.retry_backoff_ms * 2f64.powi(attempt as i32);
            let wait = if cap_ms > 0.0 {
                ms(rng::uniform_upto(&mut self.rng, cap_ms))
            } else {
                0
            };
            self.pending_retries += 1;
            self.queue.push(
                self.now + wait,
                Event::Retry {
                    caller,
                    attempt: attempt + 1,
                    heavy,
                },
            );
        } else {
            self.call_failed(caller, refused);
        }
    }

    /// `caller`'s call has failed for good: a closed client or a keep-alive
    /// connection sends its next call (at least 1 ms later when `refused`).
    pub(super) fn call_failed(&mut self, caller: Caller, refused: bool) {
        self.stats.calls_failed += 1;
        match caller {
            Caller::Client(c) => self.client_next(c, refused),
            Caller::Conn(c) => self.conn_next(c, refused),
            Caller::Open => {}
        }
    }

    /// `r` leaves the line and starts its first step.
    #[inline]
    pub(super) fn first_start(&mut self, r: ReqId) {
        self.reqs.get_mut(r).first_start = self.now;
        self.stats.started();
    }

    /// `r` begins its wait off the CPU: a plain delay, or calls to the
    /// dependency (through its pool, fan-out and hedging).
    pub(super) fn begin_wait(&mut self, r: ReqId) {
        self.stats.waiting += 1;
        let q = self.reqs.get(r);
        if self.dep.is_plain() {
            let at = self.now + q.wait;
            self.queue.push(at, Event::WaitDone { req: r });
            return;
        }
        let (first, req_id, measured) = (q.wait, q.id, q.measured);
        let n = self.dep.fan_out;
        self.reqs.get_mut(r).calls_left = n;
        for i in 0..n {
            // The first call takes the wait drawn with the request; the
            // others draw their own.
            let service = if i == 0 {
                first
            } else {
                self.draw(self.s.wait_ms, self.s.wait_dist)
            };
            let call = self.dep.calls.insert(Call {
                req: r,
                req_id,
                answered: false,
                copies_out: 0,
            });
            self.send_copy(call, service, measured);
            if let Some(h) = self.dep.hedge_after {
                self.queue
                    .push(self.now + h, Event::HedgeDue { call, req_id });
            }
        }
    }

    fn send_copy(&mut self, call: CallId, service: Time, measured: bool) {
        if let Started::Served(c) = self.dep.send(call, service, measured, self.now) {
            self.dep_serve(c);
        }
        if self.dep.copies.len() as u64 == MAX_CALLS_IN_FLIGHT + 1 {
            self.queue.push(self.now, Event::CallLimit);
        }
    }

    /// Copy `c` is served from now for its service time.
    fn dep_serve(&mut self, c: CopyId) {
        let at = self.now + self.dep.copies.get(c).service;
        self.queue.push(at, Event::DepDone { copy: c });
    }

    /// Copy `c` was served; returns the request whose wait is over, if this
    /// answered its last call.
    pub(super) fn dep_done(&mut self, c: CopyId) -> Option<ReqId> {
        let mut next = std::mem::take(&mut self.dep_next);
        let (r, first) = self.dep.done(c, self.now, &mut next);
        for s in next.drain(..) {
            self.dep_serve(s);
        }
        self.dep_next = next;
        if !first {
            return None;
        }
        let q = self.reqs.get_mut(r);
        q.calls_left -= 1;
        (q.calls_left == 0).then_some(r)
    }

    /// A call still unanswered after the hedge delay is sent again.
    pub(super) fn hedge_due(&mut self, call: CallId, req_id: u32) {
        let cl = self.dep.calls.get(call);
        if cl.answered || cl.req_id != req_id {
            return;
        }
        let measured = self.reqs.get(cl.req).measured;
        let service = self.draw(self.s.wait_ms, self.s.wait_dist);
        self.dep.hedges += 1;
        self.send_copy(call, service, measured);
    }

    /// A connection opens (keep-alive, or a closed client's): counted
    /// among those opened and those open.
    fn count_opened(&mut self) {
        self.stats.connections_opened += 1;
        self.stats.conns_open += 1;
        self.stats.peak_conns = self.stats.peak_conns.max(self.stats.conns_open);
    }

    /// A keep-alive connection opens, with `n` requests to send.
    pub(super) fn open_conn(&mut self) -> u32 {
        self.count_opened();
        self.conns.insert(Conn {
            left: self.s.conn_requests - 1,
            pinned: None,
        })
    }

    /// Whether `caller` is a closed client whose connection is not open
    /// yet (its request would open it).
    pub(super) fn opens_client(&self, caller: Caller) -> bool {
        matches!(caller, Caller::Client(k) if !self.clients[k as usize].open)
    }

    /// A closed client's connection opens, until the client gives up.
    pub(super) fn open_client(&mut self, k: u32) {
        self.clients[k as usize].open = true;
        self.count_opened();
    }

    /// A closed client's connection closes (its caller gave up): no
    /// longer open, nor pinned to a loop.
    fn reset_client(&mut self, k: u32) {
        let client = &mut self.clients[k as usize];
        if std::mem::take(client).open {
            self.stats.conns_open -= 1;
        }
    }

    /// A keep-alive connection closes.
    pub(super) fn close_conn(&mut self, conn: u32) {
        self.conns.remove(conn);
        self.stats.conns_open -= 1;
    }

    /// A connection's call is over: it sends its next request after
    /// thinking (at least 1 ms after a refusal), or closes.
    fn conn_next(&mut self, conn: u32, refused: bool) {
        let c = self.conns.get_mut(conn);
        if c.left == 0 || self.arrivals_done {
            self.close_conn(conn);
            return;
        }
        c.left -= 1;
        let mut think = self.draw(self.s.think_ms, Dist::Const);
        if refused {
            think = think.max(ms(1.0));
        }
        self.queue.push(self.now + think, Event::ConnSends { conn });
    }

    /// The loop a connection is pinned to, if one has accepted it.
    pub(super) fn conn_loop(&self, caller: Caller) -> Option<u32> {
        match caller {
            Caller::Conn(c) => self.conns.get(c).pinned,
            Caller::Client(c) => self.clients[c as usize].pinned,
            Caller::Open => None,
        }
    }

    /// Pins `caller`'s connection (if it is one) to loop `l`.
    pub(super) fn pin_conn(&mut self, caller: Caller, l: u32) {
        match caller {
            Caller::Conn(c) => self.conns.get_mut(c).pinned = Some(l),
            Caller::Client(c) => self.clients[c as usize].pinned = Some(l),
            Caller::Open => {}
        }
    }

    /// `r` is answered. An answer at the very instant of the timeout comes
    /// too late, as the caller has gone then ([`Ctx::caller_gone`]): one
    /// boundary, so a call is never counted both failed and answered.
    #[inline]
    pub(super) fn finish(&mut self, r: ReqId) {
        let q = self.reqs.get(r);
        let latency = self.now - q.arrival;
        let waited = q.first_start.min(self.now) - q.arrival;
        let late = self.timeout.is_some_and(|to| latency >= to);
        let (measured, caller, abandoned, id) = (q.measured, q.caller, q.abandoned, q.id);
        self.stats
            .finished(self.now, latency, waited, late, measured);
        if late {
            // Without timeout events the caller's failure is counted here.
            self.try_failed(r);
        } else {
            if let Some(earn) = self.s.retry_budget {
                self.tokens = (self.tokens + earn).min(MAX_TOKENS);
            }
            // An answer to a try its caller still waits for.
            if !abandoned {
                self.breaker.answered(id);
            }
        }
        self.remove(r);
        match (caller, abandoned || late) {
            (Caller::Client(c), false) => self.client_next(c, false),
            (Caller::Conn(c), false) => self.conn_next(c, false),
            _ => {}
        }
    }

    /// Requests each keep-alive connection sends, when open arrivals come
    /// as connections (`None`: a connection per request).
    #[inline]
    fn conn_share(&self) -> Option<f64> {
        self.conns_on.then(|| f64::from(self.s.conn_requests))
    }

    /// When the next call of an open stream arrives, ns (`None`: no more).
    /// A load schedule restarts the draw where the rate changes (Poisson
    /// gaps are memoryless, so this is exact).
    /// With keep-alive connections the stream is of connections, at the
    /// rate ÷ the requests each sends.
    pub(super) fn next_open_arrival(&mut self) -> Option<Time> {
        // Requests per arrival: 1, or a keep-alive connection's share.
        let per = self.conn_share();
        if self.s.rps_schedule.is_none() {
            return Some(match (self.s.arrivals, per) {
                (Arrivals::Uniform, _) => {
                    self.stream_sent += 1;
                    (self.stream_sent as f64 * 1e9 * per.unwrap_or(1.0) / self.s.rps).round()
                        as Time
                }
                (_, None) => {
                    let gap = rng::exp(&mut self.rng, 1e9 / self.s.rps);
                    self.now + (gap + 0.5) as i64 as Time
                }
                (_, Some(n)) => {
                    let gap = rng::exp(&mut self.rng, 1e9 * n / self.s.rps);
                    self.now + (gap + 0.5) as i64 as Time
                }
            });
        }
        // A copy of the schedule (small), so the generator can be borrowed below.
        let sched = self.s.rps_schedule.expect("checked above");
        let mut t_s = self.now as f64 / 1e9;
        loop {
            let rate = sched.rate_at(t_s) / per.unwrap_or(1.0);
            let change = sched.next_change(t_s);
            if rate > 0.0 {
                let gap_s = match self.s.arrivals {
                    Arrivals::Uniform => 1.0 / rate,
                    _ => rng::exp(&mut self.rng, 1.0 / rate),
                };
                if change.is_none_or(|c| t_s + gap_s < c) {
                    return Some(((t_s + gap_s) * 1e9).round().max(self.now as f64) as Time);
                }
            }
            t_s = change?;
        }
    }
}
