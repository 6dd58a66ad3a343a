//! What a run reports. Every duration says its unit in the field name.

use serde::Serialize;

/// Latency summary, ms.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct Latency {
    /// Mean, ms.
    pub mean: f64,
    /// Median, ms.
    pub p50: f64,
    /// 90th percentile, ms.
    pub p90: f64,
    /// 99th percentile, ms.
    pub p99: f64,
    /// 99.9th percentile, ms.
    pub p999: f64,
    /// Largest, ms.
    pub max: f64,
}

/// Time in the line before first service, ms.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct QueueWait {
    /// Mean, ms.
    pub mean: f64,
    /// 99th percentile, ms.
    pub p99: f64,
}

/// How long one CPU step held its event loop, ms.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct LoopBlock {
    /// Mean, ms (of the steps that have ended).
    pub mean: f64,
    /// 99th percentile, ms (of the steps that have ended).
    pub p99: f64,
    /// Longest, ms, a step still under way included for the time it has
    /// held its loop so far.
    pub max: f64,
}

/// Which bound ended the run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum StoppedBy {
    /// Simulated time reached `duration_s`.
    #[default]
    Duration,
    /// Every request of a bounded workload finished (or was refused or dropped).
    AllDone,
    /// The event budget `max_events` ran out.
    EventBudget,
    /// More requests were inside than the engine keeps (a line growing without limit).
    InFlightLimit,
    /// More calls to the dependency were in flight than the engine keeps
    /// (`engine::MAX_CALLS_IN_FLIGHT`: many calls per request, or a line
    /// for the dependency growing without limit).
    CallLimit,
    /// More keep-alive connections were open than the engine keeps
    /// (`engine::MAX_CONNS_OPEN`: connections that think long between
    /// their requests pile up).
    ConnLimit,
}

impl StoppedBy {
    /// Why the run ended, in words ("the event budget ran out"), for the
    /// CLI's table: its JSON has the kebab-case name.
    pub fn why(self) -> &'static str {
        match self {
            StoppedBy::Duration => "its length reached",
            StoppedBy::AllDone => "every request done",
            StoppedBy::EventBudget => "the event budget ran out",
            StoppedBy::InFlightLimit => "too many requests inside",
            StoppedBy::CallLimit => "too many dependency calls in flight",
            StoppedBy::ConnLimit => "too many connections open",
        }
    }
}

/// One point of the time series: averages over `[t_s − interval, t_s)`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct SeriesPoint {
    /// End of the interval, s.
    pub t_s: f64,
    /// Mean requests in the line (accepted, not yet started).
    pub line: f64,
    /// Mean requests inside the server (line + in service).
    pub in_flight: f64,
    /// Mean CPU utilisation, 0–1.
    pub cpu: f64,
    /// Mean busy threads, loops and workers.
    pub busy: f64,
    /// Completions per second in the interval.
    pub throughput_rps: f64,
    /// 99th percentile latency of requests finished in the interval, ms
    /// (coarse: within about 5 %; 0 when none finished).
    pub p99_ms: f64,
    /// Tries arriving at the server per second in the interval (calls and
    /// retries, not those the circuit breaker failed at once): the load
    /// offered to the server.
    pub offered_rps: f64,
    /// Answers within the caller's timeout per second in the interval.
    pub goodput_rps: f64,
    /// Retries arriving at the server per second in the interval (a part
    /// of `offered_rps`).
    pub retries_rps: f64,
}

/// The report of one run. Counters cover the whole run; rates, latencies and
/// averages cover the measured window (after warm-up).
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Report {
    /// Requests that arrived: every try of every call that reached the
    /// server (the same as `attempts`).
    pub arrived: u64,
    /// Tries that arrived at the server (calls + retries − `broken`).
    pub attempts: u64,
    /// Distinct calls: first tries.
    pub calls: u64,
    /// Retries sent: tries after the first (the open circuit breaker may
    /// fail some at once).
    pub retries: u64,
    /// Calls answered within the caller's timeout, on any try.
    pub calls_succeeded: u64,
    /// Calls out of tries (or of retry budget), including tries still
    /// inside past their caller's timeout at the end, and calls the open
    /// circuit breaker failed at once (`broken`).
    pub calls_failed: u64,
    /// Tries the open circuit breaker failed at once, without sending them
    /// to the server: first tries and retries, each ending its call
    /// (counted in `calls` or `retries` and in `calls_failed`, not in
    /// `attempts`).
    pub broken: u64,
    /// Requests shed: dropped from the line after waiting longer than `shed_after_ms`.
    pub shed: u64,
    /// Requests dropped because their caller had less time left than a mean service time.
    pub dropped_hopeless: u64,
    /// Calls sent to the dependency (fan-out calls and hedges); 0 when the
    /// wait step is a plain delay.
    pub dep_calls: u64,
    /// Hedges: copies of slow calls sent again.
    pub hedges: u64,
    /// Share of the dependency's slots busy over the measured window, 0–1;
    /// `None` when it has no limit.
    pub dep_utilisation: Option<f64>,
    /// Time a call waited for a connection to the dependency, ms.
    pub dep_pool_wait_ms: QueueWait,
    /// Time a call waited in line at the dependency for a slot, ms.
    pub dep_queue_wait_ms: QueueWait,
    /// Keep-alive connections opened (0 when each request is its own connection).
    pub connections_opened: u64,
    /// Requests each event loop served (took the first step of); empty without loops.
    pub loop_requests: Vec<u64>,
    /// Calls answered within the timeout per second in the measured window
    /// (a call succeeds on at most one try, so this equals `goodput_rps`).
    pub call_success_rps: f64,
    /// Requests the server finished, including those whose caller had gone.
    pub completed: u64,
    /// Requests refused at the door (full line or too many connections).
    pub refused: u64,
    /// Requests dropped before starting because their caller had gone.
    pub dropped: u64,
    /// Requests that timed out (each try of a caller that retries counts):
    /// dropped, finished late, shed or dropped as hopeless after their
    /// caller had gone, or still inside past the timeout at the end.
    pub timed_out: u64,
    /// Requests finished after their caller had gone: work for nobody.
    pub finished_after_timeout: u64,
    /// Requests still inside at the end.
    pub in_flight_end: u64,
    /// Requests in the line at the end.
    pub queue_len_end: u64,
    /// How fast the line grew over the measured window, requests per second
    /// (for a closed loop, measured from 0, from the warm-up share of the
    /// run on: its clients' first requests fill the line at the start);
    /// from two thirds of the way to its set end on, over the span from one
    /// third of the way (the last two thirds, at the end), so a line that
    /// filled and then held (at a limit, or where callers' requests are
    /// dropped) is not growing.
    pub queue_growth_per_s: f64,
    /// How fast the requests inside grew, over the same span as the
    /// line's, requests per second: every line at once (the server's, and
    /// those for a dependency's connections or slots).
    pub inside_growth_per_s: f64,
    /// Where that span starts, s (it ends at `sim_time_s`).
    pub growth_from_s: f64,
    /// Arrivals per second over the growth's span (`arrival_rps` is over
    /// the measured window): the growth is these less
    /// `growth_throughput_rps`, less those turned away.
    pub growth_arrival_rps: f64,
    /// Completions per second over the growth's span.
    pub growth_throughput_rps: f64,
    /// Completions per second in the measured window.
    pub throughput_rps: f64,
    /// Completions within the caller's timeout per second.
    pub goodput_rps: f64,
    /// Arrivals per second in the measured window.
    pub arrival_rps: f64,
    /// Arrivals let in per second in the measured window: `arrival_rps`
    /// less those refused at the door.
    pub admitted_rps: f64,
    /// Requests whose response time `latency_ms` holds: arrived in the
    /// measured window and finished. 0: no response time was measured.
    pub measured: u64,
    /// Response time from arrival to finish, ms.
    pub latency_ms: Latency,
    /// Time from arrival to first service, ms, of the measured requests
    /// that finished (the same requests as [`Report::latency_ms`]).
    pub queue_wait_ms: QueueWait,
    /// Share of core time busy (work and switching), 0–1.
    pub cpu_utilisation: f64,
    /// Mean busy threads, loops and workers.
    pub mean_busy: f64,
    /// Mean busy worker threads (event loop + workers; counted in
    /// `mean_busy` too, so the loops' share is the difference); `None` for
    /// other models.
    pub mean_busy_workers: Option<f64>,
    /// Time-averaged requests inside the server.
    pub mean_in_flight: f64,
    /// Little's law: admitted rate (`admitted_rps`) × mean response time,
    /// requests. Requests that leave the line unserved (dropped, shed) are
    /// inside for a while but have no response time, so with them the law
    /// is an approximation.
    pub littles_law_in_flight: f64,
    /// Time the last request finished, s.
    pub makespan_s: f64,
    /// Time each CPU step held its loop, ms, over the whole run, the
    /// warm-up included (unlike the response times); `None` without loops.
    pub loop_block_ms: Option<LoopBlock>,
    /// Connections each event loop accepted; empty without loops.
    pub loop_connections: Vec<u64>,
    /// Time a measured request's step handed to the workers waited for a
    /// free worker (of its loop's pool, with a pool per loop), ms; `None`
    /// without workers.
    pub worker_wait_ms: Option<QueueWait>,
    /// Most threads alive at once (pool threads, loops and workers count too).
    pub peak_threads: u64,
    /// Peak stack set aside, MB (1 MB = 1,000 KB, as the lessons count).
    pub peak_memory_reserved_mb: f64,
    /// Peak memory really used: stacks in use plus, for event loops,
    /// connection state ([`crate::Scenario::keeps_connection_state`]), MB.
    pub peak_memory_used_mb: f64,
    /// Most open connections at once.
    pub peak_connections: u64,
    /// Which bound ended the run (`Duration` while it runs: see `finished`).
    pub stopped_by: StoppedBy,
    /// The run has ended: false in a report taken while it runs.
    pub finished: bool,
    /// Events processed.
    pub events: u64,
    /// Simulated time at the end, s.
    pub sim_time_s: f64,
    /// Start of the measured window, s.
    pub warmup_s: f64,
    /// Time series for charts (in JSON only when asked: [`Report::to_json`]).
    #[serde(skip)]
    pub series: Vec<SeriesPoint>,
}

impl Report {
    /// True when the measured window is empty: the run stopped inside its
    /// warm-up, so it has no rates or averages (only its counts).
    pub fn window_empty(&self) -> bool {
        self.sim_time_s <= self.warmup_s
    }

    /// Tries made per call: 1 without retries, up to 1 + retries when
    /// every try fails; the tries the circuit breaker failed at once count
    /// (a call that never reached the server still made its try). `None`
    /// before any call.
    pub fn tries_per_call(&self) -> Option<f64> {
        (self.calls > 0).then(|| (self.calls + self.retries) as f64 / self.calls as f64)
    }

    /// Requests turned away: refused at the door, shed from the line, or
    /// dropped as hopeless.
    pub fn turned_away(&self) -> u64 {
        self.refused + self.shed + self.dropped_hopeless
    }

    /// True when `littles_law_in_flight` should match `mean_in_flight` up
    /// to the run's noise: every request that left did so answered (none
    /// dropped, shed or dropped as hopeless, which were inside a while
    /// with no response time), and at most one in twenty of the requests
    /// measured was still inside at the end (those spent time inside that
    /// no response time counts yet: a run ending far from steady, such as
    /// a line still growing, can be far off).
    pub fn littles_law_exact(&self) -> bool {
        self.littles_law_gap().is_none()
    }

    /// What λ·W leaves out, if enough to matter (see
    /// [`Report::littles_law_exact`]): the requests still inside first,
    /// which in a run whose backlog grows can make the law's figure a
    /// small part of the mean inside.
    pub fn littles_law_gap(&self) -> Option<LawGap> {
        let unserved = self.dropped + self.shed + self.dropped_hopeless;
        if self.in_flight_end.saturating_mul(20) > self.measured {
            Some(LawGap::StillInside(self.in_flight_end))
        } else if unserved > 0 {
            Some(LawGap::Unanswered(unserved))
        } else {
            None
        }
    }

    /// The report as one JSON object (keys in the order of the fields
    /// above), with the time series last, only when `with_series`: what
    /// `tellers simulate --json` prints, and what the browser shows for
    /// comparing with it. Written straight to text, not through a
    /// `serde_json::Value`, whose writer was 2 KB of the app's wasm for
    /// this one use.
    /// What was not measured is `null`, not 0, as in `tellers sweep
    /// --json`: zeros would read as response times of 0 ms, or as a server
    /// that finished nothing. With no response time measured (`measured`
    /// 0), the times (`latency_ms`, the waits); with an empty window (the
    /// run stopped inside its warm-up), every rate and time average too.
    pub fn to_json(&self, with_series: bool) -> String {
        let mut shown = std::borrow::Cow::Borrowed(self);
        if self.window_empty() {
            // serde_json writes a float that is not finite as `null`.
            let r = shown.to_mut();
            for x in [
                &mut r.queue_growth_per_s,
                &mut r.inside_growth_per_s,
                &mut r.growth_arrival_rps,
                &mut r.growth_throughput_rps,
                &mut r.throughput_rps,
                &mut r.goodput_rps,
                &mut r.arrival_rps,
                &mut r.admitted_rps,
                &mut r.call_success_rps,
                &mut r.cpu_utilisation,
                &mut r.mean_busy,
                &mut r.mean_in_flight,
                &mut r.littles_law_in_flight,
            ] {
                *x = f64::NAN;
            }
            r.dep_utilisation = r.dep_utilisation.map(|_| f64::NAN);
            r.mean_busy_workers = r.mean_busy_workers.map(|_| f64::NAN);
        }
        if self.measured == 0 {
            shown.to_mut().worker_wait_ms = None;
        }
        let mut out = serde_json::to_string(&*shown).expect("a report serialises");
        if self.measured == 0 {
            for key in [
                "\"latency_ms\":",
                "\"queue_wait_ms\":",
                "\"dep_pool_wait_ms\":",
                "\"dep_queue_wait_ms\":",
            ] {
                if let Some(at) = out.find(key).map(|i| i + key.len()) {
                    // Each holds numbers only: its object ends at the first '}'.
                    if let Some(end) = out[at..].find('}').map(|len| at + len + 1) {
                        out = [&out[..at], "null", &out[end..]].concat();
                    }
                }
            }
        }
        if with_series {
            let series = serde_json::to_string(&self.series).expect("a series serialises");
            out.pop(); // the closing brace
            out.push_str(",\"series\":");
            out.push_str(&series);
            out.push('}');
        }
        out
    }
}

/// What Little's law, as the report computes it (admitted rate × mean
/// response time), leaves out of the requests inside.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LawGap {
    /// Requests still inside at the end: more than one in twenty of those
    /// measured. Their time inside has no response time yet.
    StillInside(u64),
    /// Requests that left the line unanswered (dropped, shed, dropped as
    /// hopeless): inside a while, with no response time.
    Unanswered(u64),
}

impl LawGap {
    /// The requests left out, in words: "the 2,385 still inside", "the
    /// 12 that left unanswered".
    pub fn text(self) -> String {
        let n = |n: u64| crate::text::fmt_count(n as f64);
        match self {
            LawGap::StillInside(k) => format!("the {} still inside", n(k)),
            LawGap::Unanswered(k) => format!("the {} that left unanswered", n(k)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn littles_law_names_whom_it_leaves_out() {
        let r = Report {
            measured: 11_952,
            ..Report::default()
        };
        assert_eq!(r.littles_law_gap(), None);
        assert!(r.littles_law_exact());
        // One in twenty of those measured still inside is noise; more is not.
        let few = Report {
            in_flight_end: 597,
            ..r.clone()
        };
        assert_eq!(few.littles_law_gap(), None);
        let many = Report {
            in_flight_end: 2_385,
            shed: 4,
            ..r.clone()
        };
        assert_eq!(many.littles_law_gap(), Some(LawGap::StillInside(2_385)));
        assert_eq!(LawGap::StillInside(2_385).text(), "the 2,385 still inside");
        let shed = Report {
            shed: 4,
            dropped_hopeless: 8,
            ..r
        };
        assert_eq!(shed.littles_law_gap(), Some(LawGap::Unanswered(12)));
        assert!(!shed.littles_law_exact());
        assert_eq!(LawGap::Unanswered(12).text(), "the 12 that left unanswered");
    }

    #[test]
    fn json_gives_no_response_time_when_none_was_measured() {
        // A window of 2 s in which nothing finished: its rates are
        // measured (0), its times are not.
        let idle = Report {
            sim_time_s: 12.0,
            warmup_s: 10.0,
            worker_wait_ms: Some(QueueWait::default()),
            ..Report::default()
        };
        let none: serde_json::Value = serde_json::from_str(&idle.to_json(false)).unwrap();
        for key in [
            "latency_ms",
            "queue_wait_ms",
            "dep_pool_wait_ms",
            "dep_queue_wait_ms",
            "worker_wait_ms",
        ] {
            assert!(none[key].is_null(), "{key}: {none}");
        }
        assert_eq!(none["throughput_rps"], 0.0);
        assert_eq!(none["cpu_utilisation"], 0.0);
        let some = Report {
            measured: 3,
            latency_ms: Latency {
                mean: 12.5,
                ..Latency::default()
            },
            ..Report::default()
        };
        let some: serde_json::Value = serde_json::from_str(&some.to_json(true)).unwrap();
        assert_eq!(some["latency_ms"]["mean"], 12.5);
    }

    /// A run stopped inside its warm-up measured no rate and no average:
    /// each is `null` (the table's "—"), where the JSON said 0 rps and 0 %
    /// busy beside a `null` response time.
    #[test]
    fn json_gives_no_rates_for_an_empty_window() {
        let r = Report {
            sim_time_s: 0.6,
            warmup_s: 0.6,
            completed: 49,
            mean_busy_workers: Some(0.0),
            ..Report::default()
        };
        assert!(r.window_empty());
        let json: serde_json::Value = serde_json::from_str(&r.to_json(false)).unwrap();
        for key in [
            "queue_growth_per_s",
            "inside_growth_per_s",
            "growth_arrival_rps",
            "growth_throughput_rps",
            "throughput_rps",
            "goodput_rps",
            "arrival_rps",
            "admitted_rps",
            "call_success_rps",
            "cpu_utilisation",
            "mean_busy",
            "mean_in_flight",
            "littles_law_in_flight",
            "mean_busy_workers",
            "latency_ms",
        ] {
            assert!(json[key].is_null(), "{key}: {json}");
        }
        // The run's counts are still counts.
        assert_eq!(json["completed"], 49);
        assert!(json["dep_utilisation"].is_null());
    }

    #[test]
    fn json_has_the_series_only_when_asked() {
        let r = Report {
            series: vec![SeriesPoint::default()],
            ..Report::default()
        };
        let without: serde_json::Value = serde_json::from_str(&r.to_json(false)).unwrap();
        let with: serde_json::Value = serde_json::from_str(&r.to_json(true)).unwrap();
        assert!(without.get("series").is_none() && without.get("arrived").is_some());
        assert_eq!(with["series"].as_array().map(Vec::len), Some(1));
    }
}
