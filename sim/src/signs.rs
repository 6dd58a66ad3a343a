//! Reading the signs: what a run's figures say about the server, in the
//! words a learner would use at a whiteboard.
//!
//! [`read_signs`] looks at a report beside its theory and names what limits
//! the server: a full pool with the CPU half idle, a CPU near its limit, a
//! line that keeps growing, one slow step that freezes its event loop,
//! callers who give up. When none of these shows, the run is healthy.

use crate::analytic::{self, Limit};
use crate::report::Report;
use crate::scenario::Scenario;
use crate::theory::Theory;
use serde::Serialize;

/// What a sign is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum SignKind {
    /// Every thread is taken while the CPU has time to spare.
    PoolLimit,
    /// The cores the model can use are nearly always busy.
    CpuNear,
    /// More requests arrive than the server finishes: the line grows.
    LineGrowing,
    /// One long CPU step holds an event loop, so its other connections wait.
    LoopBlocked,
    /// Callers give up; the server may still finish their work for nobody.
    Timeouts,
    /// Retries add a large share of the load: failures make more work.
    RetryStorm,
    /// Calls wait for a connection to the dependency (or a slot there)
    /// while the CPU idles: the pool is the limit.
    ConnectionPoolLimit,
    /// Each request waits for the slowest of many calls.
    SlowestCallDecides,
    /// Requests wait in line longer than their callers wait for them: the
    /// server is busy, but mostly for callers who have left.
    LineOutlivesCallers,
    /// Nothing above: the server keeps up with room to spare.
    Healthy,
}

/// One sign: what it is, a headline, and the figures that show it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Sign {
    /// Which sign.
    pub kind: SignKind,
    /// The verdict in a few words.
    pub title: String,
    /// The figures behind it, in a sentence.
    pub detail: String,
}

/// CPU utilisation at or above this share of the usable cores counts as near the limit.
pub const CPU_NEAR: f64 = 0.85;
/// Requests that make at least this many calls wait for the slowest.
pub const SLOW_FAN_OUT: u32 = 10;
/// Retries at or above this share of calls count as a storm.
pub const RETRY_STORM: f64 = 0.2;
/// A pool this full (busy threads ÷ threads) counts as full.
pub const POOL_FULL: f64 = 0.9;
/// A loop step p99 at least this long (ms) can freeze a loop...
pub const LOOP_BLOCK_MS: f64 = 20.0;
/// ...when it is also this many times the mean CPU step.
pub const LOOP_BLOCK_RATIO: f64 = 6.0;

/// True when `r`'s line or the requests inside grow by more than 5 % of
/// the arrivals (and more than one request) each second of the measured
/// window: less is the noise of a short window. A run that grows has not
/// settled, whatever its utilisation says.
pub fn backlog_grows(r: &Report) -> bool {
    r.queue_growth_per_s.max(r.inside_growth_per_s) > (0.05 * r.arrival_rps).max(1.0)
}

/// The signs a report shows, most important first; `[Healthy]` when none.
///
/// * `s` — the scenario that ran.
/// * `r` — its report (a finished run, or one in progress).
/// * `th` — its theory ([`crate::theory::theory`]).
pub fn read_signs(s: &Scenario, r: &Report, th: &Theory) -> Vec<Sign> {
    let mut signs = Vec::new();
    let usable = s.usable_cores();
    let cpu_of_usable = if usable > 0.0 {
        (r.cpu_utilisation * f64::from(s.cores) / usable).min(1.0)
    } else {
        0.0
    };
    let service_ms = s.mean_service_ms();
    let growing = backlog_grows(r);
    let slow = r.latency_ms.mean > 1.5 * service_ms.max(0.001) || growing;

    if let Some(p) = s.thread_limit() {
        if r.mean_busy >= POOL_FULL * f64::from(p) && cpu_of_usable < CPU_NEAR && slow {
            signs.push(Sign {
                kind: SignKind::PoolLimit,
                title: "The pool is the limit".into(),
                detail: format!(
                    "{:.0} of {} threads are busy while the CPU is only {:.0} % used: threads sit waiting, \
                     requests wait in line (mean {:.0} ms against {:.0} ms of work). More threads, or less waiting, helps.",
                    r.mean_busy,
                    p,
                    r.cpu_utilisation * 100.0,
                    r.latency_ms.mean,
                    service_ms
                ),
            });
        }
    }
    if cpu_of_usable >= CPU_NEAR {
        let on = if usable < f64::from(s.cores) {
            format!("the {usable:.0} core(s) its loops can use")
        } else {
            "the cores".to_string()
        };
        signs.push(Sign {
            kind: SignKind::CpuNear,
            title: "The CPU limit is near".into(),
            detail: format!(
                "{on} are busy {:.0} % of the time; the CPU limit is {:.0} rps. Above about 80 %, the line and \
                 the response time rise steeply. Less CPU per request or more cores helps; more threads do not.",
                cpu_of_usable * 100.0,
                th.capacity.cpu_limit_rps
            ),
        });
    }
    if growing {
        let cap = match th.capacity.binding {
            Limit::Cpu => "the CPU limit",
            Limit::Threads => "the thread limit",
            Limit::Dependency => "the dependency limit",
        };
        signs.push(Sign {
            kind: SignKind::LineGrowing,
            title: "Arrivals are above capacity".into(),
            detail: format!(
                "The line grows by {:.0} requests every second: {:.0} rps arrive, {:.0} rps finish ({cap} is {:.0} rps). \
                 Waiting times grow without end until arrivals drop or capacity rises.",
                r.queue_growth_per_s.max(r.inside_growth_per_s),
                r.arrival_rps,
                r.throughput_rps,
                th.capacity.capacity_rps
            ),
        });
    }
    if let Some(b) = r.loop_block_ms {
        let mean_step = s.mean_cpu_ms().max(0.001);
        if b.p99 >= LOOP_BLOCK_MS && b.p99 >= LOOP_BLOCK_RATIO * mean_step {
            signs.push(Sign {
                kind: SignKind::LoopBlocked,
                title: "One slow step freezes its loop".into(),
                detail: format!(
                    "1 step in 100 holds its event loop for {:.0} ms or more (longest {:.0} ms), while the mean \
                     step needs {:.1} ms: every other connection on that loop waits. Hand slow steps to worker threads.",
                    b.p99, b.max, mean_step
                ),
            });
        }
    }
    let dep_wait = r.dep_pool_wait_ms.mean + r.dep_queue_wait_ms.mean;
    let dep_busy = r.dep_utilisation.unwrap_or(0.0) >= POOL_FULL
        || th.capacity.binding == Limit::Dependency && growing;
    if analytic::dep_slots(s).is_some() && (dep_busy || dep_wait >= s.wait_ms.max(0.001)) {
        let held = analytic::slot_ms_per_request(s);
        signs.push(Sign {
            kind: SignKind::ConnectionPoolLimit,
            title: "The connection pool is the limit".into(),
            detail: format!(
                "Calls wait {:.0} ms for a connection or a slot at the dependency, against {:.0} ms of work there, \
                 while the CPU is {:.0} % busy: {} connections ÷ {:.0} ms held per request = {:.0} rps at most. \
                 More connections help only if the dependency has room; less time held helps always.",
                dep_wait,
                s.wait_ms,
                r.cpu_utilisation * 100.0,
                analytic::dep_slots(s).unwrap_or(0),
                held,
                th.capacity.dep_limit_rps.unwrap_or(f64::INFINITY)
            ),
        });
    }
    if s.fan_out >= SLOW_FAN_OUT {
        signs.push(Sign {
            kind: SignKind::SlowestCallDecides,
            title: "The slowest call decides".into(),
            detail: format!(
                "Each request waits for all of its {} calls: {:.0} % of requests meet at least one call slower than a \
                 call's own p99, so their p50 ({:.0} ms) sits far above one call's mean ({:.0} ms). Hedging slow \
                 calls, or fewer calls per request, cuts the tail.",
                s.fan_out,
                analytic::share_meeting_a_slow_call(s.fan_out) * 100.0,
                r.latency_ms.p50,
                s.wait_ms
            ),
        });
    }
    if r.calls > 0 && r.retries as f64 >= RETRY_STORM * r.calls as f64 {
        signs.push(Sign {
            kind: SignKind::RetryStorm,
            title: "A retry storm".into(),
            detail: format!(
                "{} retries came on top of {} calls: {:.1} tries per call. Every failure sends more work to a \
                 server that is already failing. A retry budget, backoff with jitter or shedding stops it.",
                r.retries,
                r.calls,
                r.attempts as f64 / r.calls as f64
            ),
        });
    }
    if let Some(to) = s.timeout_ms {
        let busy = r.throughput_rps > 0.0;
        if busy && r.queue_wait_ms.mean >= to && r.goodput_rps < 0.5 * r.throughput_rps {
            signs.push(Sign {
                kind: SignKind::LineOutlivesCallers,
                title: "The line outlives its callers".into(),
                detail: format!(
                    "Requests wait {:.0} ms in line on average, but callers give up after {:.0} ms: the server \
                     finishes {:.0} rps, only {:.0} rps of them in time. A short line, shedding by wait or \
                     adaptive LIFO serves callers who are still there.",
                    r.queue_wait_ms.mean, to, r.throughput_rps, r.goodput_rps
                ),
            });
        }
    }
    if r.timed_out > 0 {
        signs.push(Sign {
            kind: SignKind::Timeouts,
            title: "Callers give up".into(),
            detail: format!(
                "{} callers stopped waiting; the server still finished {} of their requests: work for nobody.",
                r.timed_out, r.finished_after_timeout
            ),
        });
    }
    if signs.is_empty() {
        signs.push(Sign {
            kind: SignKind::Healthy,
            title: "Healthy".into(),
            detail: format!(
                "The server keeps up: {:.0} rps finish, the CPU is {:.0} % busy and the line does not grow.",
                r.throughput_rps,
                r.cpu_utilisation * 100.0
            ),
        });
    }
    signs
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::presets::preset;
    use crate::theory::theory;

    fn kinds(name: &str) -> Vec<SignKind> {
        let s = preset(name).unwrap();
        let r = crate::simulate(&s).unwrap();
        read_signs(&s, &r, &theory(&s))
            .into_iter()
            .map(|g| g.kind)
            .collect()
    }

    #[test]
    fn sale_day_is_pool_bound_and_its_line_grows() {
        let k = kinds("sale-day");
        assert_eq!(k[0], SignKind::PoolLimit, "{k:?}");
        assert!(k.contains(&SignKind::LineGrowing), "{k:?}");
        assert!(!k.contains(&SignKind::CpuNear), "{k:?}");
    }

    #[test]
    fn a_bigger_pool_or_event_loops_move_the_limit_to_the_cpu() {
        for name in ["sale-day-pool-40", "sale-day-event-loop"] {
            let k = kinds(name);
            assert!(k.contains(&SignKind::CpuNear), "{name}: {k:?}");
            assert!(!k.contains(&SignKind::PoolLimit), "{name}: {k:?}");
            assert!(!k.contains(&SignKind::LoopBlocked), "{name}: {k:?}");
        }
    }

    #[test]
    fn one_blocking_loop_step_is_named() {
        let k = kinds("waf-inline");
        assert!(k.contains(&SignKind::LoopBlocked), "{k:?}");
        assert!(!kinds("waf-offload-round-robin").contains(&SignKind::LoopBlocked));
    }

    #[test]
    fn a_retry_storm_and_a_line_that_outlives_its_callers_are_named() {
        let k = kinds("spike-metastable");
        assert!(k.contains(&SignKind::RetryStorm), "{k:?}");
        assert!(k.contains(&SignKind::LineOutlivesCallers), "{k:?}");
        let k = kinds("overload-fifo");
        assert!(k.contains(&SignKind::LineOutlivesCallers), "{k:?}");
        assert!(!k.contains(&SignKind::RetryStorm), "{k:?}");
        for cured in ["spike-retry-budget", "overload-adaptive-lifo"] {
            let k = kinds(cured);
            assert!(!k.contains(&SignKind::RetryStorm), "{cured}: {k:?}");
            assert!(
                !k.contains(&SignKind::LineOutlivesCallers),
                "{cured}: {k:?}"
            );
        }
    }

    #[test]
    fn the_planned_sale_day_is_healthy() {
        assert_eq!(kinds("sale-day-planned"), vec![SignKind::Healthy]);
    }

    #[test]
    fn callers_who_give_up_are_named() {
        assert!(kinds("sale-day-timeout").contains(&SignKind::Timeouts));
    }

    #[test]
    fn one_event_loop_on_many_cores_is_cpu_bound_on_its_one_core() {
        let k = kinds("node-moderate-blocking");
        assert!(k.contains(&SignKind::CpuNear), "{k:?}");
    }

    #[test]
    fn a_busy_pool_that_keeps_up_is_not_called_the_limit() {
        let s = Scenario {
            rps: 180.0,
            ..preset("sale-day").unwrap()
        };
        let r = Report {
            mean_busy: 19.0,
            cpu_utilisation: 0.44,
            latency_ms: crate::report::Latency {
                mean: 101.0,
                ..Default::default()
            },
            arrival_rps: 183.0,
            throughput_rps: 182.0,
            queue_growth_per_s: 2.0,
            ..Report::default()
        };
        let k: Vec<_> = read_signs(&s, &r, &theory(&s))
            .into_iter()
            .map(|g| g.kind)
            .collect();
        assert_eq!(k, vec![SignKind::Healthy]);
    }

    #[test]
    fn an_empty_report_is_healthy_not_a_panic() {
        let s = Scenario::default();
        let k = read_signs(&s, &Report::default(), &theory(&s));
        assert_eq!(k[0].kind, SignKind::Healthy);
    }
}
