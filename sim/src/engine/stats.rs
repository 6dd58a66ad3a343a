//! What a run measures as it goes: how many requests are where (the
//! levels), what happened to them (the counters), their latencies, and the
//! time-weighted sums behind every mean — over the measured window (after
//! the warm-up) and per time-series interval.

use super::queue::Time;
use crate::histogram::Histogram;
use crate::report::SeriesPoint;

/// ns per ms.
pub const NS_PER_MS: f64 = 1e6;
/// Most points in a time series; beyond it, neighbours are merged.
const MAX_POINTS: usize = 400;
/// Buckets of the coarse per-interval histogram.
const COARSE: usize = 61 * 16;

/// A count or a duration as a real number. Through `i64`, which x86-64
/// converts in one instruction (`u64` takes several); the same value for
/// anything below 2^63, so the same bits.
#[inline]
fn real(x: u64) -> f64 {
    debug_assert!(x < 1 << 63);
    x as i64 as f64
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

/// Why a request left the line without being served.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LeftLine {
    /// Its caller had gone (dropped as abandoned).
    CallerGone,
    /// It had waited longer than the shedding bound.
    Shed,
    /// Its caller had less time left than a mean service time.
    Hopeless,
}

/// Running sums over time since t = 0 (ns × count); means over any window
/// are differences of two of them.
#[derive(Clone, Copy, Debug, Default)]
pub struct Area {
    /// Busy cores × ns.
    pub busy_cores: f64,
    /// Requests inside × ns.
    pub inside: f64,
    /// Requests in line × ns.
    pub line: f64,
    /// Busy tellers × ns.
    pub busy: f64,
    /// Busy worker threads (event loop + workers) × ns.
    pub busy_workers: f64,
    /// Dependency slots serving a call × ns.
    pub dep_busy: f64,
}

impl std::ops::Sub for Area {
    type Output = Area;
    fn sub(self, o: Area) -> Area {
        Area {
            busy_cores: self.busy_cores - o.busy_cores,
            inside: self.inside - o.inside,
            line: self.line - o.line,
            busy: self.busy - o.busy,
            busy_workers: self.busy_workers - o.busy_workers,
            dep_busy: self.dep_busy - o.dep_busy,
        }
    }
}

/// Levels, counters, latencies and time-weighted sums of one run.
/// Two neighbouring series points as one, ending where `b` ends: each
/// figure the mean of the two weighted by their intervals' lengths (`wa`,
/// `wb`, any unit), the p99 the larger of the two.
fn merged(a: &SeriesPoint, b: &SeriesPoint, wa: f64, wb: f64) -> SeriesPoint {
    let mix = |x: f64, y: f64| (x * wa + y * wb) / (wa + wb);
    SeriesPoint {
        t_s: b.t_s,
        line: mix(a.line, b.line),
        in_flight: mix(a.in_flight, b.in_flight),
        cpu: mix(a.cpu, b.cpu),
        busy: mix(a.busy, b.busy),
        throughput_rps: mix(a.throughput_rps, b.throughput_rps),
        p99_ms: a.p99_ms.max(b.p99_ms),
        offered_rps: mix(a.offered_rps, b.offered_rps),
        goodput_rps: mix(a.goodput_rps, b.goodput_rps),
        retries_rps: mix(a.retries_rps, b.retries_rps),
    }
}

#[derive(Clone, Debug)]
pub struct Stats {
    // --- levels: how many are where now ---
    /// Requests inside (line + in service).
    pub inside: u64,
    /// Requests accepted and not yet started.
    pub line_len: u64,
    /// Requests waiting off the CPU.
    pub waiting: u64,
    /// Tellers busy with a request (threads held, loops and workers in a step).
    pub busy_tellers: u64,
    /// Worker threads (event loop + workers) running a step now; counted
    /// in `busy_tellers` too.
    pub busy_workers: u64,
    /// Most requests inside at once.
    pub peak_inside: u64,

    // --- counters over the whole run ---
    /// Requests the server finished.
    pub completed: u64,
    /// Requests refused at the door.
    pub refused: u64,
    /// Requests dropped before starting because their caller had gone.
    pub dropped: u64,
    /// Requests timed out (each try counts): see `Report::timed_out`.
    pub timed_out: u64,
    /// Requests finished after their caller had gone.
    pub finished_late: u64,
    /// Requests shed: dropped from the line after waiting too long.
    pub shed: u64,
    /// Requests dropped because their caller had too little time left.
    pub dropped_hopeless: u64,
    /// Keep-alive connections opened.
    pub connections_opened: u64,
    /// Keep-alive connections open now (sending a request or between two).
    pub conns_open: u64,
    /// Most keep-alive connections open at once.
    pub peak_conns: u64,
    /// Calls answered within the caller's timeout, on any try.
    pub calls_succeeded: u64,
    /// Calls that ran out of tries (or of retry budget), or that the open
    /// circuit breaker failed at once.
    pub calls_failed: u64,
    /// Calls the open circuit breaker failed at once.
    pub broken: u64,
    /// When the last request finished, ns.
    pub last_finish: Time,

    // --- the measured window ---
    /// Start of the measured window, ns: the warm-up share of the run length,
    /// or earlier when a count of arrivals (`warm_count`) comes first.
    pub t_warm: Time,
    /// Calls (first tries, as `requests` counts them) discarded as warm-up
    /// when the run is bounded by a count.
    pub warm_count: u64,
    /// Arrivals in the window.
    pub arrived_in_window: u64,
    /// Arrivals in the window refused at the door (never inside).
    pub refused_in_window: u64,
    /// Completions in the window.
    pub completed_in_window: u64,
    /// Completions in the window within the caller's timeout.
    pub good_in_window: u64,
    /// The counts when the window began.
    pub at_warm: Mark,
    /// Where the line's growth is measured from, ns: the window's start,
    /// or for a closed loop (measured from 0) the warm-up share of the run
    /// length, so the clients' first requests filling the line at the
    /// start are not read as growth.
    pub t_growth: Time,
    /// The counts at `t_growth`.
    pub at_growth: Mark,
    /// A third of the way from `t_growth` to the run's set end, ns:
    /// growth is measured from here once the run is as far past it as it
    /// is past `t_growth` (over the last two thirds at the end), so a line
    /// that filled early and then held is not read as growing.
    pub t_growth_late: Time,
    /// The counts at `t_growth_late`.
    pub at_late: Mark,
    /// Response times of measured requests, ns.
    pub latency: Histogram,
    /// Time in line of measured requests that finished, ns.
    pub queue_wait: Histogram,
    /// How long each loop step held its loop, ns.
    pub loop_block: Histogram,
    /// The sums now.
    pub area: Area,
    /// The sums when the window began.
    pub area_at_warm: Area,
    last_t: Time,

    // --- the time series ---
    /// Interval between samples, ns (doubles when points merge).
    pub series_dt: Time,
    /// The points so far.
    pub series: Vec<SeriesPoint>,
    area_at_win: Area,
    win_start: Time,
    win_done: u64,
    win_hist: Vec<u32>,
    /// Tries that arrived at the server in the open interval (calls and
    /// retries, not those the circuit breaker failed at once).
    pub win_arrived: u64,
    /// Retries that arrived at the server in the open interval.
    pub win_retries: u64,
    win_good: u64,
}

/// The counts at a moment the window or the growth is measured from: the
/// line, the requests inside, and the window's arrivals and completions so
/// far (so the rates in and out over the same span can be given beside it).
#[derive(Clone, Copy, Debug, Default)]
pub struct Mark {
    /// Requests in the line.
    pub line: u64,
    /// Requests inside.
    pub inside: u64,
    /// Arrivals in the window so far.
    pub arrived: u64,
    /// Completions in the window so far.
    pub completed: u64,
}

impl Stats {
    /// Empty statistics; the window starts at `t_warm` ns, growth is
    /// measured from `t_growth` ns, and from `t_growth_late` ns once the
    /// run has passed it.
    pub fn new(
        t_warm: Time,
        warm_count: u64,
        series_dt: Time,
        t_growth: Time,
        t_growth_late: Time,
    ) -> Stats {
        Stats {
            inside: 0,
            line_len: 0,
            waiting: 0,
            busy_tellers: 0,
            busy_workers: 0,
            peak_inside: 0,
            completed: 0,
            refused: 0,
            dropped: 0,
            timed_out: 0,
            finished_late: 0,
            shed: 0,
            dropped_hopeless: 0,
            connections_opened: 0,
            conns_open: 0,
            peak_conns: 0,
            calls_succeeded: 0,
            calls_failed: 0,
            broken: 0,
            last_finish: 0,
            t_warm,
            warm_count,
            arrived_in_window: 0,
            refused_in_window: 0,
            completed_in_window: 0,
            good_in_window: 0,
            at_warm: Mark::default(),
            t_growth,
            at_growth: Mark::default(),
            t_growth_late,
            at_late: Mark::default(),
            latency: Histogram::new(),
            queue_wait: Histogram::new(),
            loop_block: Histogram::new(),
            area: Area::default(),
            area_at_warm: Area::default(),
            last_t: 0,
            series_dt,
            series: Vec::new(),
            area_at_win: Area::default(),
            win_start: 0,
            win_done: 0,
            win_hist: vec![0; COARSE],
            win_arrived: 0,
            win_retries: 0,
            win_good: 0,
        }
    }

    /// Moves the sums to `t` ns (with `busy_cores` busy cores and
    /// `dep_busy` busy dependency slots since the last change), remembering
    /// them where the warm-up ends.
    #[inline]
    pub fn advance(&mut self, t: Time, busy_cores: u32, dep_busy: u32) {
        if t > self.last_t {
            // Growth measured from 0 starts after what arrived at 0: a
            // batch, or closed clients' first requests, are there from the
            // start, not growth (10 clients read as "2 a second" over 5 s).
            let from_zero = self.t_growth == 0 && self.last_t == 0;
            if (self.last_t < self.t_growth || from_zero) && self.t_growth <= t {
                self.at_growth = self.mark();
            }
            if self.last_t < self.t_growth_late && self.t_growth_late <= t {
                self.at_late = self.mark();
            }
            if self.last_t < self.t_warm && self.t_warm <= t {
                // The warm-up ends inside this step: remember the sums there.
                self.accumulate(self.t_warm, busy_cores, dep_busy);
                self.area_at_warm = self.area;
                self.at_warm = self.mark();
            }
            self.accumulate(t, busy_cores, dep_busy);
        }
    }

    #[inline]
    fn accumulate(&mut self, t: Time, busy_cores: u32, dep_busy: u32) {
        let dt = real(t - self.last_t);
        let a = &mut self.area;
        a.busy_cores += dt * f64::from(busy_cores);
        a.dep_busy += dt * f64::from(dep_busy);
        a.inside += dt * real(self.inside);
        a.line += dt * real(self.line_len);
        a.busy += dt * real(self.busy_tellers);
        a.busy_workers += dt * real(self.busy_workers);
        self.last_t = t;
    }

    /// The window starts now (`now` ns): a count of arrivals decided it.
    pub fn start_window(&mut self, now: Time) {
        self.t_warm = now;
        self.area_at_warm = self.area;
        self.at_warm = self.mark();
        self.t_growth = now;
        self.at_growth = self.at_warm;
    }

    /// The counts now, for the window or the growth to be measured from.
    fn mark(&self) -> Mark {
        Mark {
            line: self.line_len,
            inside: self.inside,
            arrived: self.arrived_in_window,
            completed: self.completed_in_window,
        }
    }

    /// A request left the line and started.
    #[inline]
    pub fn started(&mut self) {
        self.line_len -= 1;
    }

    /// A request finished at `now` ns, `latency` ns after arriving, of
    /// which `waited` ns in line; `late` when its caller had already given
    /// up. Its time in line is recorded here, beside its response time, so
    /// both average the same requests: recorded when it left the line, the
    /// time in line counted the requests still being served at the end,
    /// and in an overloaded run came out longer than the response time
    /// less the work (a learner's walk of lesson 10).
    #[inline]
    pub fn finished(&mut self, now: Time, latency: Time, waited: Time, late: bool, measured: bool) {
        self.completed += 1;
        self.inside -= 1;
        self.last_finish = now;
        if late {
            self.timed_out += 1;
            self.finished_late += 1;
        }
        if now >= self.t_warm {
            self.completed_in_window += 1;
            if !late {
                self.good_in_window += 1;
            }
        }
        if !late {
            // A call succeeds on at most one try: an earlier one that timed
            // out finishes late, one refused or dropped never finishes.
            self.calls_succeeded += 1;
            self.win_good += 1;
        }
        if measured {
            self.latency.record(latency);
            self.queue_wait.record(waited);
        }
        self.win_done += 1;
        self.win_hist[coarse_index(latency).min(COARSE - 1)] += 1;
    }

    /// A request left the line without service: `why` says how.
    pub fn left_line(&mut self, why: LeftLine) {
        match why {
            LeftLine::CallerGone => {
                self.dropped += 1;
                self.timed_out += 1;
            }
            LeftLine::Shed => self.shed += 1,
            LeftLine::Hopeless => self.dropped_hopeless += 1,
        }
        self.line_len -= 1;
        self.inside -= 1;
    }

    /// A sample is due at `now` ns: closes the interval (merging neighbours
    /// when there are too many points) and returns when the next is due.
    pub fn sample(&mut self, now: Time, cores: u32) -> Time {
        self.close_window(now, cores);
        if self.series.len() >= MAX_POINTS {
            // Merge neighbours: the interval doubles; the merged p99 is the larger of the two.
            self.series = self
                .series
                .chunks(2)
                .map(|p| match p {
                    [a, b] => merged(a, b, 1.0, 1.0),
                    [a] => *a,
                    _ => unreachable!("chunks of two"),
                })
                .collect();
            self.series_dt *= 2;
        }
        now + self.series_dt
    }

    /// Closes the last series interval when the run ends at `now` ns. One
    /// shorter than half the others is merged into the point before it,
    /// each figure weighted by time: a rate over a sliver of time is noise
    /// (one answer 0.1 ms after the last sample read as 10,000 rps).
    pub fn close_last(&mut self, now: Time, cores: u32) {
        let points = self.series.len();
        let short = now.saturating_sub(self.win_start) < self.series_dt / 2;
        self.close_window(now, cores);
        if !short || points == 0 || self.series.len() != points + 1 {
            return;
        }
        let b = self.series.pop().expect("the point just closed");
        let start = if points >= 2 {
            self.series[points - 2].t_s
        } else {
            0.0
        };
        let a = self.series.last_mut().expect("a point before it");
        *a = merged(a, &b, a.t_s - start, b.t_s - a.t_s);
    }

    /// Closes the open series interval at `now` ns.
    pub fn close_window(&mut self, now: Time, cores: u32) {
        if now <= self.win_start {
            return;
        }
        let dt_ns = (now - self.win_start) as f64;
        self.win_start = now;
        let a = self.area - self.area_at_win;
        self.area_at_win = self.area;
        let mut p99 = 0.0;
        if self.win_done > 0 {
            let rank = ((0.99 * self.win_done as f64).ceil() as u64).max(1);
            let mut seen = 0;
            for (i, &c) in self.win_hist.iter().enumerate() {
                seen += u64::from(c);
                if seen >= rank {
                    p99 = coarse_mid(i) / NS_PER_MS;
                    break;
                }
            }
        }
        self.series.push(SeriesPoint {
            t_s: now as f64 / 1e9,
            line: a.line / dt_ns,
            in_flight: a.inside / dt_ns,
            cpu: a.busy_cores / dt_ns / f64::from(cores),
            busy: a.busy / dt_ns,
            throughput_rps: self.win_done as f64 / (dt_ns / 1e9),
            p99_ms: p99,
            offered_rps: self.win_arrived as f64 / (dt_ns / 1e9),
            goodput_rps: self.win_good as f64 / (dt_ns / 1e9),
            retries_rps: self.win_retries as f64 / (dt_ns / 1e9),
        });
        self.win_done = 0;
        self.win_arrived = 0;
        self.win_retries = 0;
        self.win_good = 0;
        self.win_hist.iter_mut().for_each(|c| *c = 0);
    }
}
