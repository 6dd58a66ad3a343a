//! The discrete-event engine: one server, its cores, its tellers (threads,
//! event loops, workers) and the requests that pass through.
//!
//! The simulation owns its clock, its event queue and its generator. Events
//! are ordered by (time, sequence), so events at equal times leave in the
//! order they were scheduled. Nothing here reads a wall clock.
//!
//! A request goes: accept → line → CPU (read + compute) → wait (off the CPU)
//! → CPU (write) → done. Which teller runs each CPU step depends on the model;
//! all tellers that want the CPU share the cores (see [`Cores`]).

use crate::histogram::Histogram;
use crate::report::{Latency, LoopBlock, QueueWait, Report, SeriesPoint, StoppedBy};
use crate::rng::Rng;
use crate::scenario::{Accept, Arrivals, Dist, FieldError, Model, Scenario};
use std::cmp::Reverse;
use std::collections::{BinaryHeap, VecDeque};

/// Simulated time, ns.
pub type Time = u64;
const NONE: u32 = u32::MAX;
const NS_PER_MS: f64 = 1e6;
/// Most requests kept inside before the run is stopped as overloaded.
pub const MAX_IN_FLIGHT: u64 = 1_000_000;
/// Most points in a time series; beyond it, neighbours are merged.
const MAX_POINTS: usize = 400;

/// ms → ns, rounded to nearest (inputs are never negative).
#[inline]
fn ms(x: f64) -> Time {
    (x * NS_PER_MS + 0.5) as Time
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Event {
    /// The next request arrives (open or batch), or a closed client sends (`client`).
    Arrival { client: u32 },
    /// A core finishes the CPU burst it started (stale if `gen` moved on).
    CpuDone { core: u32, gen: u32 },
    /// A core's time slice ends: if others wait, the teller goes to the back.
    SliceEnd { core: u32, gen: u32 },
    /// A request's wait off the CPU is over.
    WaitDone { req: u32 },
    /// A closed client's timeout for request number `id` in slot `req`.
    Timeout { req: u32, id: u32 },
    /// Close a time-series interval.
    Sample,
}

/// What a request is doing now.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    /// In the line, or its read step queued on a loop.
    Read,
    /// Its read step is with the worker pool.
    Worker,
    /// Back from a worker, the loop takes the result.
    Resume,
    /// Waiting off the CPU.
    Wait,
    /// Writing the answer.
    Write,
}

#[derive(Clone, Debug)]
struct Req {
    /// Arrival number (for closed-loop timeouts; wraps harmlessly).
    id: u32,
    arrival: Time,
    first_start: Time,
    read: Time,
    wait: Time,
    write: Time,
    phase: Phase,
    /// Thread serving it, or the loop it is pinned to.
    owner: u32,
    client: u32,
    abandoned: bool,
    measured: bool,
    /// In the heavy class.
    heavy: bool,
}

/// A teller: something that runs CPU steps on a core.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TellerKind {
    /// A thread (pool or per request): holds its request through the wait.
    Thread,
    /// An event loop: runs one step at a time for many connections.
    Loop,
    /// A worker thread beside event loops.
    Worker,
}

/// What a teller is doing right now.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TellerState {
    /// Nothing to do.
    Idle,
    /// Has CPU work, waits for a core.
    Ready,
    /// Running on a core.
    OnCore,
    /// Holds a request that waits off the CPU (a thread only): idle but taken.
    Blocked,
}

#[derive(Clone, Debug)]
struct Teller {
    kind: TellerKind,
    alive: bool,
    cpu_left: Time,
    /// The request of the current step (thread: the one it holds).
    req: u32,
    state: TellerState,
    step_start: Time,
}

/// One core's current run.
#[derive(Clone, Debug)]
struct Core {
    teller: u32,
    last: u32,
    /// When progress started (after any switch cost), ns.
    start: Time,
    end: Time,
    gen: u32,
    slice_pending: bool,
}

/// Running sums over time since t = 0 (ns × count); means over any window
/// are differences of two of them.
#[derive(Clone, Copy, Debug, Default)]
struct Area {
    busy_cores: f64,
    inside: f64,
    line: f64,
    busy: f64,
}

/// A teller as the animation shows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TellerView {
    /// Thread, loop or worker.
    pub kind: TellerKind,
    /// What it does now.
    pub state: TellerState,
    /// Requests tied to it: held (thread), pinned and queued (loop), or running (worker).
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
    /// Callers that gave up so far (dropped or finished late).
    pub timed_out: u64,
}

/// One simulation run. Create with [`Simulation::new`], advance with
/// [`Simulation::run`] or [`Simulation::run_until`], read with [`Simulation::report`].
pub struct Simulation {
    s: Scenario,
    rng: Rng,
    now: Time,
    seq: u64,
    queue: BinaryHeap<Reverse<(Time, u64, Event)>>,
    /// The next open or batch arrival, (time, sequence), outside the heap.
    next_arrival: Option<(Time, u64)>,
    /// The next series sample, (time, sequence), outside the heap.
    next_sample: Option<(Time, u64)>,
    events: u64,
    stopped: Option<StoppedBy>,
    end_ns: Time,

    // requests
    reqs: Vec<Req>,
    free_reqs: Vec<u32>,
    arrived: u64,
    arrivals_done: bool,
    warm_count: u64,
    t_warm: Time,
    completed: u64,
    completed_in_window: u64,
    good_in_window: u64,
    arrived_in_window: u64,
    refused: u64,
    dropped: u64,
    timed_out: u64,
    finished_late: u64,
    inside: u64,
    line_len: u64,
    line_at_warm: u64,
    waiting: u64,
    last_finish: Time,

    // tellers and cores
    tellers: Vec<Teller>,
    free_tellers: Vec<u32>,
    threads_alive: u64,
    peak_threads: u64,
    peak_inside: u64,
    busy_tellers: u64,
    cores: Vec<Core>,
    free_cores: Vec<u32>,
    ready: VecDeque<u32>,
    busy_cores: u32,

    // thread models
    line: VecDeque<u32>,
    free_threads: Vec<u32>,

    // loop models
    loops: Vec<u32>,
    loop_q: Vec<VecDeque<u32>>,
    shared_q: VecDeque<u32>,
    idle_loops: Vec<u32>,
    loop_conns: Vec<u64>,
    next_loop: u32,
    workers_free: Vec<u32>,
    worker_q: VecDeque<u32>,

    // measurements
    latency: Histogram,
    queue_wait: Histogram,
    loop_block: Histogram,
    area: Area,
    last_t: Time,
    series_dt: Time,
    series: Vec<SeriesPoint>,
    /// The sums when the measured window began.
    area_at_warm: Area,
    /// The sums when the open series interval began.
    area_at_win: Area,
    /// Start of the open series interval, ns.
    win_start: Time,
    win_done: u64,
    win_hist: Vec<u32>,

    // derived constants, ns
    timeout: Option<Time>,
    handoff_half: Time,
    slice: Time,
    switch: Time,
    spawn: Time,
    offload_at: Time,
}

/// Coarse histogram for windowed p99: 16 buckets per power of two.
fn coarse_index(v: Time) -> usize {
    if v < 16 {
        return v as usize;
    }
    let e = 63 - v.leading_zeros();
    ((e - 3) as usize) * 16 + ((v >> (e - 4)) - 16) as usize
}

fn coarse_mid(i: usize) -> f64 {
    if i < 16 {
        return i as f64;
    }
    let e = (i / 16) as u32 + 3;
    let lo = (16 + (i % 16) as u64) << (e - 4);
    lo as f64 + ((1u64 << (e - 4)) as f64) / 2.0
}

const COARSE: usize = 61 * 16;

impl Simulation {
    /// A new run, or every bad field of the scenario.
    pub fn new(s: &Scenario) -> Result<Simulation, Vec<FieldError>> {
        let errs = s.validate();
        if !errs.is_empty() {
            return Err(errs);
        }
        let s = s.clone();
        let end_ns = (s.duration_s * 1e9).round() as Time;
        let cores = s.cores as usize;
        let open = matches!(s.arrivals, Arrivals::Poisson | Arrivals::Uniform);
        let mut sim = Simulation {
            rng: Rng::new(s.seed),
            now: 0,
            seq: 0,
            queue: BinaryHeap::new(),
            next_arrival: None,
            next_sample: None,
            events: 0,
            stopped: None,
            end_ns,
            reqs: Vec::new(),
            free_reqs: Vec::new(),
            arrived: 0,
            arrivals_done: false,
            warm_count: 0,
            t_warm: 0,
            completed: 0,
            completed_in_window: 0,
            good_in_window: 0,
            arrived_in_window: 0,
            refused: 0,
            dropped: 0,
            timed_out: 0,
            finished_late: 0,
            inside: 0,
            line_len: 0,
            line_at_warm: 0,
            waiting: 0,
            last_finish: 0,
            tellers: Vec::new(),
            free_tellers: Vec::new(),
            threads_alive: 0,
            peak_threads: 0,
            peak_inside: 0,
            busy_tellers: 0,
            cores: (0..cores)
                .map(|_| Core {
                    teller: NONE,
                    last: NONE,
                    start: 0,
                    end: 0,
                    gen: 0,
                    slice_pending: false,
                })
                .collect(),
            free_cores: (0..cores as u32).rev().collect(),
            ready: VecDeque::new(),
            busy_cores: 0,
            line: VecDeque::new(),
            free_threads: Vec::new(),
            loops: Vec::new(),
            loop_q: Vec::new(),
            shared_q: VecDeque::new(),
            idle_loops: Vec::new(),
            loop_conns: Vec::new(),
            next_loop: 0,
            workers_free: Vec::new(),
            worker_q: VecDeque::new(),
            latency: Histogram::new(),
            queue_wait: Histogram::new(),
            loop_block: Histogram::new(),
            area: Area::default(),
            last_t: 0,
            series_dt: 1,
            series: Vec::new(),
            area_at_warm: Area::default(),
            area_at_win: Area::default(),
            win_start: 0,
            win_done: 0,
            win_hist: vec![0; COARSE],
            timeout: s.timeout_ms.map(ms),
            handoff_half: ms(s.handoff_ms / 2.0),
            slice: ms(s.time_slice_ms).max(1),
            switch: (s.switch_us * 1e3).round() as Time,
            spawn: ms(s.spawn_ms),
            offload_at: ms(s.offload_above_ms),
            s,
        };
        // The measured window.
        if open {
            match sim.s.requests {
                Some(n) => {
                    sim.warm_count = (sim.s.warmup * n as f64).floor() as u64;
                    sim.t_warm = if sim.warm_count == 0 { 0 } else { Time::MAX };
                }
                None => sim.t_warm = (sim.s.warmup * end_ns as f64).round() as Time,
            }
        }
        // Tellers that exist from the start.
        match sim.s.model {
            Model::ThreadPool => {
                for _ in 0..sim.s.threads {
                    let t = sim.new_teller(TellerKind::Thread);
                    sim.free_threads.push(t);
                }
                sim.free_threads.reverse();
            }
            Model::ThreadPerRequest => {}
            Model::EventLoop | Model::EventLoopWorkers => {
                let n = sim.s.loop_count();
                for i in 0..n {
                    let t = sim.new_teller(TellerKind::Loop);
                    sim.loops.push(t);
                    sim.loop_q.push(VecDeque::new());
                    sim.idle_loops.push(n - 1 - i);
                }
                sim.loop_conns = vec![0; n as usize];
                if sim.s.model == Model::EventLoopWorkers {
                    for _ in 0..sim.s.workers {
                        let t = sim.new_teller(TellerKind::Worker);
                        sim.workers_free.push(t);
                    }
                }
            }
        }
        sim.series_dt = sim.first_series_interval();
        sim.schedule(sim.series_dt, Event::Sample);
        match sim.s.arrivals {
            Arrivals::Closed => {
                for c in 0..sim.s.clients {
                    sim.schedule(0, Event::Arrival { client: c });
                }
            }
            _ => sim.schedule(0, Event::Arrival { client: NONE }),
        }
        Ok(sim)
    }

    /// A time-series interval that gives about 200 points for the expected run.
    fn first_series_interval(&self) -> Time {
        let s = &self.s;
        let expected_s = match (s.arrivals, s.requests) {
            (Arrivals::Poisson | Arrivals::Uniform, Some(n)) => n as f64 / s.rps,
            (Arrivals::Batch, _) => {
                let n = s.requests.unwrap_or(s.count as u64).min(s.count as u64) as f64;
                n * s.mean_cpu_ms() / 1e3 / s.cores as f64 + s.mean_service_ms() / 1e3
            }
            _ => s.duration_s,
        };
        let expected_s = expected_s.min(s.duration_s).max(1e-3);
        ((expected_s / 200.0 * 1e9) as Time).max(100_000)
    }

    fn new_teller(&mut self, kind: TellerKind) -> u32 {
        let t = Teller {
            kind,
            alive: true,
            cpu_left: 0,
            req: NONE,
            state: TellerState::Idle,
            step_start: 0,
        };
        self.threads_alive += 1;
        self.peak_threads = self.peak_threads.max(self.threads_alive);
        if let Some(i) = self.free_tellers.pop() {
            self.tellers[i as usize] = t;
            i
        } else {
            self.tellers.push(t);
            (self.tellers.len() - 1) as u32
        }
    }

    /// Schedule `ev` at `at`. The open arrival stream and the sampler have
    /// one pending event each, kept beside the heap; [`Self::next_event`]
    /// merges all three by (time, sequence), so the order is as if one heap.
    #[inline]
    fn schedule(&mut self, at: Time, ev: Event) {
        self.seq += 1;
        match ev {
            Event::Arrival { client: NONE } => self.next_arrival = Some((at, self.seq)),
            Event::Sample => self.next_sample = Some((at, self.seq)),
            _ => self.queue.push(Reverse((at, self.seq, ev))),
        }
    }

    /// The earliest pending event: 0 = heap, 1 = arrival slot, 2 = sample slot.
    #[inline]
    fn earliest(&self) -> Option<(Time, u8)> {
        let mut best = self.queue.peek().map(|Reverse((t, q, _))| ((*t, *q), 0u8));
        for (slot, which) in [(self.next_arrival, 1u8), (self.next_sample, 2u8)] {
            if let Some(key) = slot {
                if best.is_none_or(|(b, _)| key < b) {
                    best = Some((key, which));
                }
            }
        }
        best.map(|((t, _), which)| (t, which))
    }

    /// Take the earliest pending event.
    #[inline]
    fn next_event(&mut self) -> Option<(Time, Event)> {
        let (t, which) = self.earliest()?;
        Some(match which {
            0 => {
                let Reverse((t, _, ev)) = self.queue.pop().expect("peeked");
                (t, ev)
            }
            1 => {
                self.next_arrival = None;
                (t, Event::Arrival { client: NONE })
            }
            _ => {
                self.next_sample = None;
                (t, Event::Sample)
            }
        })
    }

    /// Simulated time now, ns.
    pub fn now(&self) -> Time {
        self.now
    }

    /// The scenario being run.
    pub fn scenario(&self) -> &Scenario {
        &self.s
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
        if self.events >= self.s.max_events {
            return self.stop(StoppedBy::EventBudget, self.now);
        }
        if self.inside > MAX_IN_FLIGHT {
            return self.stop(StoppedBy::InFlightLimit, self.now);
        }
        let Some((t, ev)) = self.next_event() else {
            return self.stop(StoppedBy::AllDone, self.now);
        };
        if t > self.end_ns {
            return self.stop(StoppedBy::Duration, self.end_ns);
        }
        self.advance(t);
        self.events += 1;
        match ev {
            Event::Arrival { client } => self.on_arrival(client),
            Event::CpuDone { core, gen } => self.on_cpu_done(core, gen),
            Event::SliceEnd { core, gen } => self.on_slice_end(core, gen),
            Event::WaitDone { req } => self.on_wait_done(req),
            Event::Timeout { req, id } => self.on_timeout(req, id),
            Event::Sample => self.on_sample(),
        }
        self.peak_inside = self.peak_inside.max(self.inside);
        if self.arrivals_done && self.inside == 0 {
            return self.stop(StoppedBy::AllDone, self.now);
        }
        true
    }

    /// Run until `t` ns or at most `max_events` more events (slices for a UI).
    /// False when the run has ended.
    pub fn run_until(&mut self, t: Time, max_events: u64) -> bool {
        let mut n = 0;
        while n < max_events {
            match self.earliest() {
                Some((next, _)) if next > t && self.stopped.is_none() => {
                    if t <= self.end_ns {
                        self.advance(t);
                    }
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
        self.advance(at.max(self.now));
        self.close_window();
        self.stopped = Some(why);
        false
    }

    /// Move the clock to `t`, adding the time-weighted sums on the way.
    #[inline]
    fn advance(&mut self, t: Time) {
        if t > self.last_t {
            if self.last_t < self.t_warm && self.t_warm <= t {
                // The warm-up ends inside this step: remember the sums there.
                self.accumulate(self.t_warm);
                self.area_at_warm = self.area;
                self.line_at_warm = self.line_len;
            }
            self.accumulate(t);
        }
        self.now = t;
    }

    /// Add the time-weighted sums from the last change up to `t`.
    #[inline]
    fn accumulate(&mut self, t: Time) {
        let dt = (t - self.last_t) as f64;
        let a = &mut self.area;
        a.busy_cores += dt * self.busy_cores as f64;
        a.inside += dt * self.inside as f64;
        a.line += dt * self.line_len as f64;
        a.busy += dt * self.busy_tellers as f64;
        self.last_t = t;
    }

    // ---------------------------------------------------------------- arrivals

    fn on_arrival(&mut self, client: u32) {
        let s = &self.s;
        let bounded_n = match s.arrivals {
            Arrivals::Batch => Some(s.requests.map_or(s.count as u64, |r| r.min(s.count as u64))),
            _ => s.requests,
        };
        if self.arrivals_done || bounded_n.is_some_and(|n| self.arrived >= n) {
            self.arrivals_done = true;
            return;
        }
        // The next arrival of an open or batch stream.
        match s.arrivals {
            Arrivals::Poisson => {
                let gap = self.rng.exp(1e9 / s.rps);
                self.schedule(
                    self.now + (gap + 0.5) as Time,
                    Event::Arrival { client: NONE },
                );
            }
            Arrivals::Uniform => {
                let next = ((self.arrived + 1) as f64 * 1e9 / s.rps).round() as Time;
                self.schedule(next, Event::Arrival { client: NONE });
            }
            Arrivals::Batch => self.schedule(self.now, Event::Arrival { client: NONE }),
            Arrivals::Closed => {}
        }
        self.arrived += 1;
        if bounded_n.is_some_and(|n| self.arrived >= n) {
            self.arrivals_done = true;
        }
        if self.t_warm == Time::MAX && self.arrived > self.warm_count {
            self.t_warm = self.now;
            self.area_at_warm = self.area;
            self.line_at_warm = self.line_len;
        }
        let measured = self.now >= self.t_warm;
        if measured {
            self.arrived_in_window += 1;
        }

        // The door: too many connections, or a full line.
        let at_conn_limit = self
            .s
            .max_connections
            .is_some_and(|m| self.inside >= m as u64);
        if at_conn_limit || self.line_is_full() {
            self.refused += 1;
            if client != NONE {
                self.client_next(client, true);
            }
            return;
        }

        let r = self.new_request(client, measured);
        self.inside += 1;
        self.line_len += 1;
        if client != NONE {
            if let Some(to) = self.timeout {
                let id = self.reqs[r as usize].id;
                self.schedule(self.now + to, Event::Timeout { req: r, id });
            }
        }
        match self.s.model {
            Model::ThreadPool | Model::ThreadPerRequest => {
                self.line.push_back(r);
                self.pump_threads();
            }
            Model::EventLoop | Model::EventLoopWorkers => self.accept_connection(r),
        }
    }

    fn line_is_full(&self) -> bool {
        let Some(limit) = self.s.queue_limit else {
            return false;
        };
        match self.s.model {
            Model::ThreadPool => {
                self.line.len() as u64 >= limit as u64 && self.free_threads.is_empty()
            }
            Model::ThreadPerRequest => {
                self.s
                    .thread_cap
                    .is_some_and(|cap| self.threads_alive >= u64::from(cap))
                    && self.line.len() as u64 >= limit as u64
            }
            Model::EventLoop | Model::EventLoopWorkers => {
                self.s.accept == Accept::Idlest
                    && self.idle_loops.is_empty()
                    && self.line.len() as u64 >= limit as u64
            }
        }
    }

    #[inline]
    fn draw(&mut self, mean_ms: f64, dist: Dist) -> Time {
        if mean_ms <= 0.0 {
            return 0;
        }
        match dist {
            Dist::Const => ms(mean_ms),
            Dist::Exp => ms(self.rng.exp(mean_ms)),
        }
    }

    #[inline]
    fn new_request(&mut self, client: u32, measured: bool) -> u32 {
        let heavy = self.s.heavy_share > 0.0 && self.rng.uniform() <= self.s.heavy_share;
        let cpu_mean = if heavy {
            self.s.heavy_cpu_ms
        } else {
            self.s.cpu_ms
        };
        let read = self.draw(cpu_mean, self.s.cpu_dist);
        let wait = self.draw(self.s.wait_ms, self.s.wait_dist);
        let write = self.draw(self.s.write_ms, self.s.cpu_dist);
        let req = Req {
            id: self.arrived as u32,
            arrival: self.now,
            first_start: Time::MAX,
            read,
            wait,
            write,
            phase: Phase::Read,
            owner: NONE,
            client,
            abandoned: false,
            measured,
            heavy,
        };
        if let Some(i) = self.free_reqs.pop() {
            self.reqs[i as usize] = req;
            i
        } else {
            self.reqs.push(req);
            (self.reqs.len() - 1) as u32
        }
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
        self.schedule(self.now + think, Event::Arrival { client });
    }

    fn on_timeout(&mut self, r: u32, id: u32) {
        let q = &mut self.reqs[r as usize];
        if q.id != id || q.abandoned || q.client == NONE {
            return; // finished already (the slot may be reused)
        }
        q.abandoned = true;
        let client = q.client;
        self.client_next(client, false);
    }

    /// Has the caller of `r` gone?
    fn caller_gone(&self, r: u32) -> bool {
        let q = &self.reqs[r as usize];
        q.abandoned || self.timeout.is_some_and(|to| self.now >= q.arrival + to)
    }

    /// Drop `r` before it starts if its caller has gone and the model drops such requests.
    fn drop_if_abandoned(&mut self, r: u32) -> bool {
        if !(self.s.drop_abandoned && self.caller_gone(r)) {
            return false;
        }
        self.dropped += 1;
        self.timed_out += 1;
        self.line_len -= 1;
        self.inside -= 1;
        self.free_reqs.push(r);
        true
    }

    /// `r` leaves the line and starts its first step.
    #[inline]
    fn first_start(&mut self, r: u32) {
        let q = &mut self.reqs[r as usize];
        q.first_start = self.now;
        let waited = self.now - q.arrival;
        if q.measured {
            self.queue_wait.record(waited);
        }
        self.line_len -= 1;
    }

    // ---------------------------------------------------------------- cores

    /// Teller `t` wants `ns` of CPU.
    #[inline]
    fn want_cpu(&mut self, t: u32, ns: Time) {
        self.tellers[t as usize].cpu_left = ns;
        if let Some(core) = self.free_cores.pop() {
            self.dispatch(core, t);
        } else {
            self.tellers[t as usize].state = TellerState::Ready;
            let was_empty = self.ready.is_empty();
            self.ready.push_back(t);
            if was_empty {
                // Someone now waits: every running core gets a slice end.
                for core in 0..self.cores.len() {
                    let c = &self.cores[core];
                    if c.slice_pending || c.teller == NONE {
                        continue;
                    }
                    let ran = self.now.saturating_sub(c.start);
                    let boundary = c.start + (ran / self.slice + 1) * self.slice;
                    if boundary < c.end {
                        let gen = c.gen;
                        self.cores[core].slice_pending = true;
                        self.schedule(
                            boundary,
                            Event::SliceEnd {
                                core: core as u32,
                                gen,
                            },
                        );
                    }
                }
            }
        }
    }

    #[inline]
    fn dispatch(&mut self, core: u32, t: u32) {
        let switch = if self.cores[core as usize].last != t {
            self.switch
        } else {
            0
        };
        let start = self.now + switch;
        let end = start + self.tellers[t as usize].cpu_left;
        let c = &mut self.cores[core as usize];
        c.teller = t;
        c.last = t;
        c.start = start;
        c.end = end;
        c.gen = c.gen.wrapping_add(1);
        let gen = c.gen;
        c.slice_pending = false;
        self.busy_cores += 1;
        self.tellers[t as usize].state = TellerState::OnCore;
        self.schedule(end, Event::CpuDone { core, gen });
        if !self.ready.is_empty() && start + self.slice < end {
            self.cores[core as usize].slice_pending = true;
            self.schedule(start + self.slice, Event::SliceEnd { core, gen });
        }
    }

    fn on_slice_end(&mut self, core: u32, gen: u32) {
        let c = &mut self.cores[core as usize];
        if c.gen != gen {
            return;
        }
        c.slice_pending = false;
        let Some(next) = self.ready.pop_front() else {
            return;
        };
        let t = c.teller;
        let progress = self.now.saturating_sub(c.start);
        self.busy_cores -= 1;
        let tl = &mut self.tellers[t as usize];
        tl.cpu_left = tl.cpu_left.saturating_sub(progress);
        tl.state = TellerState::Ready;
        self.ready.push_back(t);
        self.dispatch(core, next);
    }

    fn on_cpu_done(&mut self, core: u32, gen: u32) {
        let c = &mut self.cores[core as usize];
        if c.gen != gen {
            return;
        }
        let t = c.teller;
        c.teller = NONE;
        c.slice_pending = false;
        self.busy_cores -= 1;
        self.tellers[t as usize].cpu_left = 0;
        match self.ready.pop_front() {
            Some(next) => self.dispatch(core, next),
            None => self.free_cores.push(core),
        }
        self.tellers[t as usize].state = TellerState::Idle;
        self.cpu_step_done(t);
    }

    fn cpu_step_done(&mut self, t: u32) {
        match self.tellers[t as usize].kind {
            TellerKind::Thread => self.thread_step_done(t),
            TellerKind::Loop => {
                self.loop_step_done(t);
                self.pump_loop(t);
            }
            TellerKind::Worker => self.worker_step_done(t),
        }
    }

    // ---------------------------------------------------------------- threads

    /// Hand waiting requests to free threads (or new ones, thread per request).
    fn pump_threads(&mut self) {
        while let Some(&r) = self.line.front() {
            let t = match self.s.model {
                Model::ThreadPool => match self.free_threads.pop() {
                    Some(t) => t,
                    None => return,
                },
                _ => {
                    if self
                        .s
                        .thread_cap
                        .is_some_and(|cap| self.threads_alive >= u64::from(cap))
                    {
                        return;
                    }
                    self.line.pop_front();
                    if self.drop_if_abandoned(r) {
                        continue;
                    }
                    let t = self.new_teller(TellerKind::Thread);
                    self.start_on_thread(t, r, self.spawn);
                    continue;
                }
            };
            self.line.pop_front();
            if self.drop_if_abandoned(r) {
                self.free_threads.push(t);
                continue;
            }
            self.start_on_thread(t, r, 0);
        }
    }

    fn start_on_thread(&mut self, t: u32, r: u32, extra: Time) {
        self.first_start(r);
        self.busy_tellers += 1;
        self.tellers[t as usize].req = r;
        self.reqs[r as usize].owner = t;
        let read = self.reqs[r as usize].read + extra;
        self.thread_cpu(t, read);
    }

    fn thread_cpu(&mut self, t: u32, ns: Time) {
        if ns == 0 {
            self.thread_step_done(t);
        } else {
            self.want_cpu(t, ns);
        }
    }

    fn thread_step_done(&mut self, t: u32) {
        let r = self.tellers[t as usize].req;
        let q = &mut self.reqs[r as usize];
        match q.phase {
            Phase::Read => {
                if q.wait > 0 {
                    q.phase = Phase::Wait;
                    let at = self.now + q.wait;
                    self.waiting += 1;
                    self.tellers[t as usize].state = TellerState::Blocked;
                    self.schedule(at, Event::WaitDone { req: r });
                } else {
                    q.phase = Phase::Write;
                    let w = q.write;
                    self.thread_cpu(t, w);
                }
            }
            Phase::Write => {
                self.finish(r);
                self.release_thread(t);
            }
            _ => unreachable!("a thread runs only read and write steps"),
        }
    }

    fn release_thread(&mut self, t: u32) {
        self.busy_tellers -= 1;
        let tl = &mut self.tellers[t as usize];
        tl.req = NONE;
        tl.state = TellerState::Idle;
        if self.s.model == Model::ThreadPool {
            self.free_threads.push(t);
        } else {
            tl.alive = false;
            self.threads_alive -= 1;
            self.free_tellers.push(t);
        }
        self.pump_threads();
    }

    fn on_wait_done(&mut self, r: u32) {
        self.waiting -= 1;
        let q = &mut self.reqs[r as usize];
        q.phase = Phase::Write;
        let (owner, write) = (q.owner, q.write);
        match self.s.model {
            Model::ThreadPool | Model::ThreadPerRequest => {
                self.tellers[owner as usize].state = TellerState::Idle;
                self.thread_cpu(owner, write);
            }
            _ => {
                if write == 0 {
                    self.finish(r);
                } else {
                    self.enqueue_step(r);
                }
            }
        }
    }

    // ---------------------------------------------------------------- loops

    fn accept_connection(&mut self, r: u32) {
        let n = self.loops.len() as u32;
        let l = match self.s.accept {
            Accept::Shared => NONE,
            Accept::RoundRobin => {
                let l = self.next_loop;
                self.next_loop = (self.next_loop + 1) % n;
                l
            }
            Accept::Random => self.rng.below(n as u64) as u32,
            Accept::Idlest => match self.idle_loops.last() {
                Some(&l) => l,
                None => {
                    self.line.push_back(r); // the listen line: no loop is free to accept
                    return;
                }
            },
        };
        if l != NONE {
            self.loop_conns[l as usize] += 1;
        }
        self.reqs[r as usize].owner = l;
        self.enqueue_step(r);
    }

    /// Put the next loop step of `r` on its loop (or the shared line) and wake a loop.
    fn enqueue_step(&mut self, r: u32) {
        let l = self.reqs[r as usize].owner;
        if l == NONE {
            self.shared_q.push_back(r);
            if let Some(&idle) = self.idle_loops.last() {
                self.pump_loop(self.loops[idle as usize]);
            }
        } else {
            self.loop_q[l as usize].push_back(r);
            self.pump_loop(self.loops[l as usize]);
        }
    }

    /// Loops are created first, so loop `i` is teller `i`.
    fn loop_index(&self, t: u32) -> u32 {
        debug_assert_eq!(self.loops[t as usize], t);
        t
    }

    fn set_loop_idle(&mut self, l: u32, idle: bool) {
        let pos = self.idle_loops.iter().position(|&x| x == l);
        match (idle, pos) {
            (true, None) => self.idle_loops.push(l),
            (false, Some(p)) => {
                self.idle_loops.remove(p);
            }
            _ => {}
        }
    }

    /// If loop teller `t` is free, start its next step; zero-cost steps finish at once.
    fn pump_loop(&mut self, t: u32) {
        let l = self.loop_index(t);
        loop {
            if self.tellers[t as usize].state != TellerState::Idle
                || self.tellers[t as usize].req != NONE
            {
                return;
            }
            let next = match self.loop_q[l as usize].pop_front() {
                Some(r) => Some(r),
                None => self.shared_q.pop_front(),
            };
            let Some(r) = next else {
                // Nothing queued: an idle loop accepts a waiting connection.
                if self.s.accept == Accept::Idlest {
                    if let Some(r) = self.line.pop_front() {
                        self.loop_conns[l as usize] += 1;
                        self.reqs[r as usize].owner = l;
                        self.loop_q[l as usize].push_back(r);
                        continue;
                    }
                }
                self.set_loop_idle(l, true);
                return;
            };
            self.set_loop_idle(l, false);
            let q = &self.reqs[r as usize];
            let cost = match q.phase {
                Phase::Read => {
                    if q.first_start == Time::MAX {
                        if self.drop_if_abandoned(r) {
                            continue;
                        }
                        self.first_start(r);
                    }
                    let q = &self.reqs[r as usize];
                    if self.offloads(r) {
                        self.handoff_half
                    } else {
                        q.read
                    }
                }
                Phase::Resume => self.handoff_half,
                Phase::Write => q.write,
                Phase::Worker | Phase::Wait => unreachable!("not a loop step"),
            };
            let tl = &mut self.tellers[t as usize];
            tl.req = r;
            tl.step_start = self.now;
            self.busy_tellers += 1;
            if cost > 0 {
                self.want_cpu(t, cost);
                return;
            }
            self.loop_step_done(t);
        }
    }

    /// Does the read step of `r` go to the workers? By class when
    /// `offload_heavy`, else by its cost against `offload_above_ms`.
    fn offloads(&self, r: u32) -> bool {
        let q = &self.reqs[r as usize];
        self.s.model == Model::EventLoopWorkers
            && if self.s.offload_heavy {
                q.heavy
            } else {
                q.read >= self.offload_at
            }
    }

    fn loop_step_done(&mut self, t: u32) {
        let tl = &mut self.tellers[t as usize];
        let r = tl.req;
        tl.req = NONE;
        tl.state = TellerState::Idle;
        self.busy_tellers -= 1;
        let held = self.now - tl.step_start;
        self.loop_block.record(held);
        match self.reqs[r as usize].phase {
            Phase::Read if self.offloads(r) => {
                self.reqs[r as usize].phase = Phase::Worker;
                self.worker_q.push_back(r);
                self.pump_workers();
            }
            Phase::Read | Phase::Resume => self.after_compute(r),
            Phase::Write => self.finish(r),
            _ => unreachable!("not a loop step"),
        }
    }

    /// Read and compute are done: wait off the CPU, or write.
    fn after_compute(&mut self, r: u32) {
        let q = &mut self.reqs[r as usize];
        if q.wait > 0 {
            q.phase = Phase::Wait;
            let at = self.now + q.wait;
            self.waiting += 1;
            self.schedule(at, Event::WaitDone { req: r });
        } else if q.write > 0 {
            q.phase = Phase::Write;
            self.enqueue_step(r);
        } else {
            self.finish(r);
        }
    }

    fn pump_workers(&mut self) {
        while !self.worker_q.is_empty() {
            let Some(w) = self.workers_free.pop() else {
                return;
            };
            let r = self.worker_q.pop_front().expect("not empty");
            let read = self.reqs[r as usize].read;
            self.tellers[w as usize].req = r;
            self.busy_tellers += 1;
            if read > 0 {
                self.want_cpu(w, read);
            } else {
                self.worker_step_done(w);
            }
        }
    }

    fn worker_step_done(&mut self, w: u32) {
        let tl = &mut self.tellers[w as usize];
        let r = tl.req;
        tl.req = NONE;
        tl.state = TellerState::Idle;
        self.busy_tellers -= 1;
        self.workers_free.push(w);
        self.reqs[r as usize].phase = Phase::Resume;
        if self.handoff_half > 0 {
            self.enqueue_step(r);
        } else {
            self.after_compute(r);
        }
        self.pump_workers();
    }

    // ---------------------------------------------------------------- the end of a request

    #[inline]
    fn finish(&mut self, r: u32) {
        let q = &self.reqs[r as usize];
        let latency = self.now - q.arrival;
        let late = self.timeout.is_some_and(|to| latency > to);
        let (measured, client, abandoned) = (q.measured, q.client, q.abandoned);
        self.completed += 1;
        self.inside -= 1;
        self.last_finish = self.now;
        if late {
            self.timed_out += 1;
            self.finished_late += 1;
        }
        if self.now >= self.t_warm {
            self.completed_in_window += 1;
            if !late {
                self.good_in_window += 1;
            }
        }
        if measured {
            self.latency.record(latency);
        }
        self.win_done += 1;
        self.win_hist[coarse_index(latency).min(COARSE - 1)] += 1;
        self.free_reqs.push(r);
        if client != NONE && !abandoned {
            self.client_next(client, false);
        }
    }

    // ---------------------------------------------------------------- time series

    fn on_sample(&mut self) {
        self.close_window();
        if self.series.len() >= MAX_POINTS {
            // Merge neighbours: the interval doubles; the merged p99 is the larger of the two.
            let merged: Vec<SeriesPoint> = self
                .series
                .chunks(2)
                .map(|p| match p {
                    [a, b] => SeriesPoint {
                        t_s: b.t_s,
                        line: (a.line + b.line) / 2.0,
                        in_flight: (a.in_flight + b.in_flight) / 2.0,
                        cpu: (a.cpu + b.cpu) / 2.0,
                        busy: (a.busy + b.busy) / 2.0,
                        throughput_rps: (a.throughput_rps + b.throughput_rps) / 2.0,
                        p99_ms: a.p99_ms.max(b.p99_ms),
                    },
                    [a] => *a,
                    _ => unreachable!(),
                })
                .collect();
            self.series = merged;
            self.series_dt *= 2;
        }
        self.schedule(self.now + self.series_dt, Event::Sample);
    }

    fn close_window(&mut self) {
        let t_s = self.now as f64 / 1e9;
        if self.now <= self.win_start {
            return;
        }
        let dt_ns = (self.now - self.win_start) as f64;
        self.win_start = self.now;
        let a = self.area - self.area_at_win;
        self.area_at_win = self.area;
        let mut p99 = 0.0;
        if self.win_done > 0 {
            let rank = ((0.99 * self.win_done as f64).ceil() as u64).max(1);
            let mut seen = 0;
            for (i, &c) in self.win_hist.iter().enumerate() {
                seen += c as u64;
                if seen >= rank {
                    p99 = coarse_mid(i) / NS_PER_MS;
                    break;
                }
            }
        }
        self.series.push(SeriesPoint {
            t_s,
            line: a.line / dt_ns,
            in_flight: a.inside / dt_ns,
            cpu: a.busy_cores / dt_ns / self.s.cores as f64,
            busy: a.busy / dt_ns,
            throughput_rps: self.win_done as f64 / (dt_ns / 1e9),
            p99_ms: p99,
        });
        self.win_done = 0;
        self.win_hist.iter_mut().for_each(|c| *c = 0);
    }

    // ---------------------------------------------------------------- reading

    /// The report so far (complete once the run has stopped).
    pub fn report(&self) -> Report {
        let now = self.now;
        let t_warm = self.t_warm.min(now);
        let window_ns = (now - t_warm).max(1) as f64;
        let window_s = window_ns / 1e9;
        let cores = self.s.cores as f64;
        let area = if now >= self.t_warm {
            self.area - self.area_at_warm
        } else {
            Area::default()
        };
        let lat = |q: f64| self.latency.quantile(q) / NS_PER_MS;
        let latency_ms = Latency {
            mean: self.latency.mean() / NS_PER_MS,
            p50: lat(0.5),
            p90: lat(0.9),
            p99: lat(0.99),
            p999: lat(0.999),
            max: self.latency.max() as f64 / NS_PER_MS,
        };
        let arrival_rps = self.arrived_in_window as f64 / window_s;
        // Callers still inside past their timeout have given up too.
        let mut gone_inside = 0;
        if let Some(to) = self.timeout {
            let mut live = vec![true; self.reqs.len()];
            for &f in &self.free_reqs {
                live[f as usize] = false;
            }
            gone_inside = self
                .reqs
                .iter()
                .zip(&live)
                .filter(|(q, &l)| l && now >= q.arrival + to)
                .count() as u64;
        }
        let has_loops = !self.loops.is_empty();
        let kb_to_mb = 1.0 / 1000.0;
        let conn_kb = if has_loops { self.s.conn_state_kb } else { 0.0 };
        Report {
            arrived: self.arrived,
            completed: self.completed,
            refused: self.refused,
            dropped: self.dropped,
            timed_out: self.timed_out + gone_inside,
            finished_after_timeout: self.finished_late,
            in_flight_end: self.inside,
            queue_len_end: self.line_len,
            queue_growth_per_s: (self.line_len as f64 - self.line_at_warm as f64) / window_s,
            throughput_rps: self.completed_in_window as f64 / window_s,
            goodput_rps: self.good_in_window as f64 / window_s,
            arrival_rps,
            latency_ms,
            queue_wait_ms: QueueWait {
                mean: self.queue_wait.mean() / NS_PER_MS,
                p99: self.queue_wait.quantile(0.99) / NS_PER_MS,
            },
            cpu_utilisation: (area.busy_cores / window_ns / cores).clamp(0.0, 1.0),
            mean_busy: area.busy / window_ns,
            mean_in_flight: area.inside / window_ns,
            littles_law_in_flight: arrival_rps * latency_ms.mean / 1e3,
            makespan_s: self.last_finish as f64 / 1e9,
            loop_block_ms: has_loops.then(|| LoopBlock {
                p99: self.loop_block.quantile(0.99) / NS_PER_MS,
                max: self.loop_block.max() as f64 / NS_PER_MS,
            }),
            loop_connections: self.loop_conns.clone(),
            peak_threads: self.peak_threads,
            peak_memory_reserved_mb: self.peak_threads as f64 * self.s.stack_reserved_kb * kb_to_mb,
            peak_memory_used_mb: (self.peak_threads as f64 * self.s.stack_used_kb
                + self.peak_inside as f64 * conn_kb)
                * kb_to_mb,
            peak_connections: self.peak_inside,
            stopped_by: self.stopped.unwrap_or(StoppedBy::Duration),
            events: self.events,
            sim_time_s: now as f64 / 1e9,
            warmup_s: t_warm as f64 / 1e9,
            wall_s: 0.0,
            series: self.series.clone(),
        }
    }

    /// What the animation draws now. With more tellers than
    /// [`SNAPSHOT_TELLERS`], the ones on a core or wanting one come first,
    /// so the picture always shows who holds the cores.
    pub fn snapshot(&self) -> Snapshot {
        let mut alive = 0;
        let mut busy = 0;
        for t in self.tellers.iter().filter(|t| t.alive) {
            alive += 1;
            busy += u64::from(t.state != TellerState::Idle);
        }
        let view = |(i, t): (usize, &Teller)| {
            let load = match t.kind {
                TellerKind::Loop => {
                    let l = self.loop_index(i as u32) as usize;
                    self.loop_q[l].len() as u32 + u32::from(t.req != NONE)
                }
                _ => u32::from(t.req != NONE),
            };
            TellerView {
                kind: t.kind,
                state: t.state,
                load,
            }
        };
        let live = || self.tellers.iter().enumerate().filter(|(_, t)| t.alive);
        let wants_cpu = |t: &Teller| matches!(t.state, TellerState::OnCore | TellerState::Ready);
        let tellers: Vec<TellerView> = if alive as usize <= SNAPSHOT_TELLERS {
            live().map(view).collect()
        } else {
            live()
                .filter(|(_, t)| wants_cpu(t))
                .chain(live().filter(|(_, t)| !wants_cpu(t)))
                .take(SNAPSHOT_TELLERS)
                .map(view)
                .collect()
        };
        Snapshot {
            t_s: self.now as f64 / 1e9,
            line: self.line_len,
            waiting: self.waiting,
            inside: self.inside,
            busy_cores: self.busy_cores,
            cores: self.s.cores,
            tellers,
            tellers_alive: alive,
            tellers_busy: busy,
            completed: self.completed,
            refused: self.refused,
            timed_out: self.timed_out,
        }
    }
}

impl std::ops::Sub for Area {
    type Output = Area;
    fn sub(self, o: Area) -> Area {
        Area {
            busy_cores: self.busy_cores - o.busy_cores,
            inside: self.inside - o.inside,
            line: self.line - o.line,
            busy: self.busy - o.busy,
        }
    }
}

/// Run a scenario to the end: the report, or every bad field.
pub fn simulate(s: &Scenario) -> Result<Report, Vec<FieldError>> {
    Ok(Simulation::new(s)?.run())
}
