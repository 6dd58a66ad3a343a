//! How far a run's measured window has come, and what its figures cannot
//! say yet: the warm-up the engine leaves out, rates measured before any
//! response time, a run cut short inside its warm-up. One home for the
//! app's figures and signs and the CLI's notes under its table.

use crate::report::Report;
use crate::scenario::{Arrivals, Scenario};
use crate::signs::{backlog_grows_without_end, stopped_early};
use crate::text::{fmt_count, fmt_rps, fmt_s, noun};

/// Shortest measured window, s, before rates mean anything: a second
/// holds a few hundred completions at the rates the lessons use, so a rate
/// read then is within about a tenth of where it settles.
pub const MIN_WINDOW_S: f64 = 1.0;

/// Where the event budget ends a run before its length, known before it
/// runs ([`budget_end`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BudgetEnd {
    /// The requests a second that are sure to come, the rate `by_s` is
    /// worked out from: rps, or with keep-alive the connections' first
    /// requests alone (rps ÷ `conn_requests`).
    pub sure_rps: f64,
    /// The latest the budget lets the run go, simulated s.
    pub by_s: f64,
    /// It ends inside the warm-up: nothing would be measured.
    pub inside_warm_up: bool,
}

/// Where the event budget ends a run before its length, known before it
/// runs: each request is at least one event, so open arrivals at a steady
/// rate stop the run by `max_events` ÷ rps seconds (a day at 1,000,000 rps
/// ran 200 s, 50 s of waiting in the browser, to say nothing was
/// measured). With keep-alive connections only their first requests are
/// sure, rps ÷ `conn_requests` a second: the others wait on answers and
/// think time (a day of connections that each think an hour was told it
/// would end at 200 s, and ran all of it). `None` where the run can reach
/// its length, or its arrivals are not a steady open rate. The CLI's note
/// and the playground's say it.
pub fn budget_end(s: &Scenario) -> Option<BudgetEnd> {
    if !matches!(s.arrivals, Arrivals::Poisson | Arrivals::Uniform)
        || s.rps_schedule.is_some()
        || s.requests.is_some()
        || s.rps <= 0.0
    {
        return None;
    }
    let sure_rps = s.rps / f64::from(s.conn_requests.max(1));
    let by_s = s.max_events as f64 / sure_rps;
    (by_s < s.duration_s).then_some(BudgetEnd {
        sure_rps,
        by_s,
        inside_warm_up: by_s <= s.warmup * s.duration_s,
    })
}

/// How far a run's measured window has come.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Window {
    /// In the warm-up, which is not measured, or barely past it.
    WarmingUp,
    /// Past the warm-up, but no request that arrived since has finished:
    /// rates are measured, response times not yet (they are not zero).
    Measuring,
    /// Rates and response times are measured.
    Measured,
}

/// True while a report's measured window is too short to read: the run is
/// still in its warm-up (which is not measured) or, still running, has
/// barely left it, or barely begun where nothing is left out (two steps
/// of a run measured from 0 s read a line growing by 1,135 a second at
/// 400 arriving). A run that has ended has its final figures, however
/// short its window (a run of 0.5 s measured 64 requests and said nothing
/// was measured).
pub fn warming_up(r: &Report) -> bool {
    r.window_empty() || (!ended(r) && r.sim_time_s - r.warmup_s < MIN_WINDOW_S)
}

/// True once some request that arrived after the warm-up has finished, so
/// its response time is in the report.
pub fn latency_measured(r: &Report) -> bool {
    r.measured > 0
}

/// Where `r`'s measured window stands.
pub fn window(r: &Report) -> Window {
    if warming_up(r) {
        Window::WarmingUp
    } else if latency_measured(r) {
        Window::Measured
    } else {
        Window::Measuring
    }
}

/// The run is over: it has finished, or a bound stopped it, so what is not
/// measured by now never will be.
pub fn ended(r: &Report) -> bool {
    r.finished || stopped_early(r).is_some()
}

/// What the figures cannot say yet and why, in a sentence or two (`None`
/// once they are measured): the warm-up, or response times not known yet
/// and what the line already says about them.
pub fn measuring_note(s: &Scenario, r: &Report) -> Option<String> {
    let cut = ended(r);
    match (window(r), warm_up(s)) {
        (Window::Measured, _) => None,
        (Window::WarmingUp, Some(WarmUp::Seconds(t))) if cut => Some(format!(
            "Nothing was measured: the run stopped inside its {} warm-up.",
            fmt_s(t)
        )),
        (Window::WarmingUp, Some(w @ WarmUp::Arrivals(..))) if cut => Some(format!(
            "Nothing was measured: the run stopped inside its warm-up ({}).",
            w.counted()
        )),
        (Window::WarmingUp, None) if cut => {
            Some("Nothing was measured: the run stopped as it began.".to_owned())
        }
        // Past the warm-up but less than MIN_WINDOW_S measured.
        (Window::WarmingUp, Some(_)) if r.sim_time_s > r.warmup_s => Some(
            "Measuring: the figures and signs appear once a second past the warm-up has run, or when the run ends.".to_owned(),
        ),
        (Window::WarmingUp, Some(w)) => Some(format!(
            "Warming up: {} not measured. The figures and signs appear after.",
            w.first()
        )),
        (Window::WarmingUp, None) => {
            Some("The run has just begun: the figures and signs appear once its first second has run, or when it ends.".to_owned())
        }
        (Window::Measuring, warm) => {
            let since = fmt_s(r.sim_time_s - r.warmup_s);
            // A run measured from t = 0 has no warm-up to count from.
            // The warm-up's length said where nothing after it finished: a
            // lesson's widget shows no caption that says it (lesson 14's
            // is 40 s, which "the warm-up" alone read as a few seconds).
            let (after, since_start) = match warm {
                Some(w) => (
                    format!("after the warm-up ({})", w.counted()),
                    "since the warm-up",
                ),
                None => ("in the run".to_owned(), "since the run began"),
            };
            let head = if cut {
                format!("No request that arrived {after} finished before the run stopped, so response times were not measured.")
            } else {
                format!(
                    "Measuring: none of the requests that arrived in the {since} {since_start} has finished yet, so response times are not known."
                )
            };
            let line = if r.queue_len_end > 0 && r.throughput_rps > 0.0 {
                format!(
                    " The line already says they are long: {} {} ahead of the newest, about {} of waiting at the {} the server finishes.",
                    fmt_count(r.queue_len_end as f64),
                    noun(r.queue_len_end, "request waits", "requests wait"),
                    fmt_s(r.queue_len_end as f64 / r.throughput_rps),
                    fmt_rps(r.throughput_rps),
                )
            } else {
                String::new()
            };
            // The diagnosis the figures already allow, as the signs judge
            // it: the line has no end (the signs themselves need response
            // times, which such a run may never measure).
            let growing = if backlog_grows_without_end(s, r) {
                format!(
                    " More come in ({}) than it finishes: the line keeps growing.",
                    fmt_rps(r.admitted_rps),
                )
            } else {
                String::new()
            };
            Some(format!("{head}{line}{growing}"))
        }
    }
}

/// The part of a run the engine leaves out of its figures.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum WarmUp {
    /// The first this many simulated seconds (an open run of set length).
    Seconds(f64),
    /// The first this many calls (first tries: the engine does not count
    /// retries towards it), or the first this many seconds if they end
    /// sooner (an open run that stops arrivals after a number of
    /// requests); and whether the scenario retries, when the words say so.
    Arrivals(u64, f64, bool),
}

impl WarmUp {
    /// "the first 6.0 s are", "the first 10 arrivals, or 1.0 s if sooner,
    /// are".
    pub fn first(self) -> String {
        match self {
            WarmUp::Seconds(_) => format!("{} are", self.counted()),
            // "…, or 6.0 s if sooner, are".
            WarmUp::Arrivals(..) => format!("{}, are", self.counted()),
        }
    }

    /// "the first 10 arrivals, or 6.0 s if sooner"; with retries, "the
    /// first 10 calls (retries not counted), or 6.0 s if sooner".
    fn counted(self) -> String {
        match self {
            WarmUp::Seconds(t) => format!("the first {}", fmt_s(t)),
            WarmUp::Arrivals(n, t, retries) => format!(
                "the first {}, or {} if sooner",
                if retries {
                    format!("{} calls (retries not counted)", fmt_count(n as f64))
                } else {
                    format!("{} arrivals", fmt_count(n as f64))
                },
                fmt_s(t)
            ),
        }
    }
}

/// The warm-up `s`'s run leaves unmeasured, as the engine decides it:
/// `None` when the engine measures from t = 0 (closed and batch arrivals,
/// whatever the warm-up share, or a share of 0).
pub fn warm_up(s: &Scenario) -> Option<WarmUp> {
    if !matches!(s.arrivals, Arrivals::Poisson | Arrivals::Uniform) {
        return None;
    }
    match s.requests {
        Some(n) => {
            let count = (s.warmup * n as f64).floor() as u64;
            (count > 0).then_some(WarmUp::Arrivals(
                count,
                s.warmup * s.duration_s,
                s.retries > 0,
            ))
        }
        None => {
            let t = s.warmup * s.duration_s;
            (t > 0.0).then_some(WarmUp::Seconds(t))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The budget's end is said only where it is sure: with keep-alive,
    /// of the connections' first requests alone.
    #[test]
    fn the_budget_end_counts_only_sure_requests() {
        let day = Scenario {
            rps: 1_000_000.0,
            duration_s: 86_400.0,
            ..Scenario::default()
        };
        assert_eq!(budget_end(&day).map(|e| e.by_s), Some(200.0));
        // Connections of 1,000 requests an hour apart: 1,000 first
        // requests a second are sure, so 200,000 s, past the day.
        let thinking = Scenario {
            conn_requests: 1000,
            think_ms: 3_600_000.0,
            ..day
        };
        assert_eq!(budget_end(&thinking), None);
        let a_few = Scenario {
            conn_requests: 10,
            ..day
        };
        assert_eq!(budget_end(&a_few).map(|e| e.by_s), Some(2000.0));
    }

    /// A run measured from 0 s shows no figures before a second has run
    /// (two steps read a line growing by 1,135 a second at 400 arriving),
    /// but a run that has ended shows its figures however short.
    #[test]
    fn a_run_measured_from_the_start_waits_a_second_too() {
        let s = Scenario {
            warmup: 0.0,
            rps: 400.0,
            duration_s: 20.0,
            ..Scenario::default()
        };
        let mut sim = crate::Simulation::new(&s).unwrap();
        sim.run_until(2_000_000, u64::MAX); // 2 ms, in ns
        let early = sim.report();
        assert!(early.sim_time_s > 0.0 && early.warmup_s == 0.0);
        assert_eq!(window(&early), Window::WarmingUp);
        sim.run_until(1_500_000_000, u64::MAX); // 1.5 s
        assert_ne!(window(&sim.report()), Window::WarmingUp);
        let short = Report {
            sim_time_s: 0.5,
            finished: true,
            measured: 64,
            ..Report::default()
        };
        assert_ne!(window(&short), Window::WarmingUp);
    }

    /// A warm-up of a count of requests counts calls, not retries, as the
    /// engine does: with retries it said "the first 100 arrivals", which
    /// retries are too.
    #[test]
    fn a_warm_up_of_requests_says_it_counts_calls_where_there_are_retries() {
        let s = Scenario {
            requests: Some(1_000),
            ..Scenario::default()
        };
        let plain = warm_up(&s).unwrap().first();
        assert!(
            plain.starts_with("the first 100 arrivals, or ") && plain.ends_with(" if sooner, are"),
            "{plain}"
        );
        let retrying = warm_up(&Scenario { retries: 2, ..s }).unwrap().first();
        assert!(
            retrying.starts_with("the first 100 calls (retries not counted), or "),
            "{retrying}"
        );
    }
}
