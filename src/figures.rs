//! The figures table: each simulated figure beside what theory says, with
//! theory's own label (exact or approximate). Plain logic, checked with
//! `cargo test`; the component only draws the rows.

use tellers_sim::analytic::Limit;
use tellers_sim::report::Report;
use tellers_sim::theory::Theory;
use tellers_sim::{Model, Scenario};

use crate::format::{fmt_count, fmt_ms, fmt_num, fmt_pct, fmt_rps};

/// One row of the figures table.
#[derive(Clone, Debug, PartialEq)]
pub struct FigureRow {
    /// `data-testid` of the row, e.g. `fig-throughput`.
    pub key: &'static str,
    /// What the row measures.
    pub label: String,
    /// The simulated figure.
    pub sim: String,
    /// What theory says.
    pub theory: String,
}

/// Shortest measured window, s, before rates and means mean anything.
pub const MIN_WINDOW_S: f64 = 0.2;

/// True while a report's measured window is too short to read: the run is
/// still in its warm-up (which is not measured) or has barely left it.
pub fn warming_up(r: &Report) -> bool {
    r.sim_time_s <= r.warmup_s || (r.warmup_s > 0.0 && r.sim_time_s - r.warmup_s < MIN_WINDOW_S)
}

/// The figures table: simulated beside theory, for the figures that matter
/// to `s`'s model and arrivals. While the run warms up, the measured
/// figures say so instead of showing an empty window's numbers.
pub fn figure_rows(s: &Scenario, r: &Report, th: &Theory) -> Vec<FigureRow> {
    let mut rows = figure_rows_raw(s, r, th);
    if warming_up(r) {
        let wait = "warming up".to_owned();
        for row in &mut rows {
            if WINDOWED.contains(&row.key) {
                row.sim = wait.clone();
            }
            if row.key == "fig-inside" {
                row.theory = "λ·W once measured".to_owned();
            }
        }
    }
    rows
}

/// Rows measured over the window after warm-up.
const WINDOWED: [&str; 8] = [
    "fig-throughput",
    "fig-cpu",
    "fig-busy",
    "fig-growth",
    "fig-mean",
    "fig-p50",
    "fig-p99",
    "fig-inside",
];

fn figure_rows_raw(s: &Scenario, r: &Report, th: &Theory) -> Vec<FigureRow> {
    let mut rows = Vec::new();
    let mut row = |key, label: &str, sim: String, theory: String| {
        rows.push(FigureRow {
            key,
            label: label.to_owned(),
            sim,
            theory,
        })
    };
    let cap = &th.capacity;
    let binding = |l: Limit| {
        if cap.binding == l {
            " ← the limit"
        } else {
            ""
        }
    };
    let expected = th.offered_rps.map(|o| o.min(cap.capacity_rps));
    row(
        "fig-throughput",
        "Throughput",
        fmt_rps(r.throughput_rps),
        expected.map_or_else(|| format!("at most {}", fmt_rps(cap.capacity_rps)), fmt_rps),
    );
    row(
        "fig-cpu-limit",
        "CPU limit",
        "—".into(),
        format!("{}{}", fmt_rps(cap.cpu_limit_rps), binding(Limit::Cpu)),
    );
    row(
        "fig-thread-limit",
        "Thread limit",
        "—".into(),
        cap.thread_limit_rps.map_or_else(
            || "none: no thread waits".to_owned(),
            |t| format!("{}{}", fmt_rps(t), binding(Limit::Threads)),
        ),
    );
    if let Some(d) = cap.dep_limit_rps {
        row(
            "fig-dep-limit",
            "Dependency limit (connections or slots ÷ time held)",
            "—".into(),
            format!("{}{}", fmt_rps(d), binding(Limit::Dependency)),
        );
    }
    row(
        "fig-cpu",
        "CPU busy",
        fmt_pct(r.cpu_utilisation),
        th.cpu_utilisation.map_or("—".into(), fmt_pct),
    );
    let busy_theory = match (s.model, th.threads_needed, s.thread_limit()) {
        (Model::ThreadPool | Model::ThreadPerRequest, Some(n), Some(t)) => {
            fmt_count(n.min(f64::from(t)))
        }
        (Model::ThreadPerRequest, Some(n), None) => fmt_count(n),
        _ => "—".into(),
    };
    row(
        "fig-busy",
        "Busy threads, loops and workers (mean)",
        fmt_count(r.mean_busy),
        busy_theory,
    );
    row(
        "fig-line",
        "Requests in line now",
        fmt_count(r.queue_len_end as f64),
        "—".into(),
    );
    row(
        "fig-growth",
        "Line growth (every line: requests inside)",
        format!(
            "{} per s",
            fmt_count(r.inside_growth_per_s.max(0.0).round())
        ),
        th.growth_per_s
            .map_or("—".into(), |g| format!("{} per s", fmt_count(g.round()))),
    );
    let unbounded = th.growth_per_s.is_some_and(|g| g > 0.0);
    // Theory says whether each formula is exact for this scenario.
    let lat_theory = |x: Option<f64>, exact: bool| match x {
        Some(v) => format!("{}{}", fmt_ms(v), if exact { "" } else { " (approx.)" }),
        None if unbounded => "grows without limit".into(),
        None => "—".into(),
    };
    row(
        "fig-mean",
        "Mean response time",
        fmt_ms(r.latency_ms.mean),
        lat_theory(th.mean_ms, th.mean_exact),
    );
    row(
        "fig-p50",
        "Median (p50)",
        fmt_ms(r.latency_ms.p50),
        "—".into(),
    );
    row(
        "fig-p99",
        "p99 response time",
        fmt_ms(r.latency_ms.p99),
        lat_theory(th.p99_ms, th.p99_exact),
    );
    row(
        "fig-inside",
        "Requests inside (mean) vs λ·W",
        fmt_count(r.mean_in_flight),
        format!(
            "{} rps × {} = {}",
            fmt_num(r.arrival_rps, 0),
            fmt_ms(r.latency_ms.mean),
            fmt_count(r.littles_law_in_flight)
        ),
    );
    let threads_theory = match s.model {
        Model::ThreadPool => format!("{} threads", s.threads),
        Model::EventLoop => format!(
            "{} loop{}",
            s.loop_count(),
            if s.loop_count() == 1 { "" } else { "s" }
        ),
        Model::EventLoopWorkers => format!("{} loops + {} workers", s.loop_count(), s.workers),
        Model::ThreadPerRequest => match (s.thread_cap, th.threads_needed) {
            (Some(cap), _) => format!("up to {cap} threads"),
            (None, Some(n)) => format!("≈ {} threads", fmt_count(n.ceil())),
            (None, None) => "—".into(),
        },
    };
    row(
        "fig-memory",
        "Stack memory: reserved / used (peak)",
        format!(
            "{} MB / {} MB",
            fmt_count(r.peak_memory_reserved_mb),
            fmt_count(r.peak_memory_used_mb)
        ),
        format!("{threads_theory} × {} KB", fmt_num(s.stack_reserved_kb, 0)),
    );
    row(
        "fig-connections",
        "Open connections (peak)",
        fmt_count(r.peak_connections as f64),
        "—".into(),
    );
    if let Some(b) = r.loop_block_ms {
        row(
            "fig-loop-block",
            "Loop held by one step: p99 / longest",
            format!("{} / {}", fmt_ms(b.p99), fmt_ms(b.max)),
            format!("mean step {}", fmt_ms(s.mean_cpu_ms())),
        );
    }
    if s.timeout_ms.is_some() || r.timed_out > 0 {
        row(
            "fig-timeouts",
            "Callers who gave up / work for nobody",
            format!(
                "{} / {}",
                fmt_count(r.timed_out as f64),
                fmt_count(r.finished_after_timeout as f64)
            ),
            "—".into(),
        );
    }
    dependency_rows(s, r, th, &mut row);
    if s.retries > 0 || r.retries > 0 {
        let per_call = if r.calls > 0 {
            r.attempts as f64 / r.calls as f64
        } else {
            1.0
        };
        row(
            "fig-calls",
            "Calls answered in time / failed",
            format!(
                "{} / {} of {}",
                fmt_count(r.calls_succeeded as f64),
                fmt_count(r.calls_failed as f64),
                fmt_count(r.calls as f64)
            ),
            "—".into(),
        );
        row(
            "fig-retries",
            "Retries (tries per call)",
            format!("{} ({})", fmt_count(r.retries as f64), fmt_num(per_call, 2)),
            format!("at most {} tries per call", s.retries + 1),
        );
    }
    if s.shed_after_ms.is_some() || s.drop_hopeless || r.shed + r.dropped_hopeless > 0 {
        row(
            "fig-shed",
            "Shed / dropped as hopeless",
            format!(
                "{} / {}",
                fmt_count(r.shed as f64),
                fmt_count(r.dropped_hopeless as f64)
            ),
            "—".into(),
        );
    }
    row(
        "fig-counts",
        "Completed / refused",
        format!(
            "{} / {}",
            fmt_count(r.completed as f64),
            fmt_count(r.refused as f64)
        ),
        "—".into(),
    );
    row(
        "fig-model",
        "Theory's model of the line",
        "—".into(),
        format!("{} at {}", th.queue_model, th.line_at),
    );
    rows
}

/// Rows for what sits behind the wait step, when it is more than a plain
/// delay: calls and hedges, how busy the dependency is, the waits in its
/// lines, and what fan-out does to the wait.
fn dependency_rows(
    s: &Scenario,
    r: &Report,
    th: &Theory,
    row: &mut impl FnMut(&'static str, &str, String, String),
) {
    let plain = s.dep_pool.is_none()
        && s.dep_concurrency.is_none()
        && s.fan_out == 1
        && s.hedge_after_ms.is_none();
    if plain {
        return;
    }
    let d = &th.dep;
    row(
        "fig-dep-calls",
        "Calls to the dependency (of them hedges)",
        format!(
            "{} ({})",
            fmt_count(r.dep_calls as f64),
            fmt_count(r.hedges as f64)
        ),
        match (d.calls_rps, d.hedge_share) {
            (Some(c), Some(h)) => format!("{} calls/s, {} sent again", fmt_num(c, 0), fmt_pct(h)),
            (Some(c), None) => format!("{} calls/s", fmt_num(c, 0)),
            _ => "—".into(),
        },
    );
    if let Some(u) = r.dep_utilisation {
        row(
            "fig-dep-busy",
            "Dependency slots busy",
            fmt_pct(u),
            d.utilisation.map_or("—".into(), |x| fmt_pct(x.min(1.0))),
        );
    }
    let wait =
        |w: &tellers_sim::report::QueueWait| format!("{} / {}", fmt_ms(w.mean), fmt_ms(w.p99));
    let mean_theory =
        |x: Option<f64>| x.map_or("—".into(), |m| format!("mean {} (Erlang C)", fmt_ms(m)));
    if s.dep_pool.is_some() {
        row(
            "fig-dep-pool-wait",
            "Wait for a connection: mean / p99",
            wait(&r.dep_pool_wait_ms),
            mean_theory(d.pool_wait_ms),
        );
    }
    if s.dep_concurrency.is_some() {
        row(
            "fig-dep-queue-wait",
            "Wait at the dependency: mean / p99",
            wait(&r.dep_queue_wait_ms),
            mean_theory(d.queue_wait_ms),
        );
    }
    if s.fan_out > 1 || s.hedge_after_ms.is_some() {
        let p99 = d
            .wait_step_p99_ms
            .filter(|_| s.hedge_after_ms.is_none())
            .map_or(String::new(), |p| format!(", p99 {}", fmt_ms(p)));
        let slow = d.slow_call_share.map_or(String::new(), |x| {
            format!("; {} meet a call slower than its p99", fmt_pct(x))
        });
        row(
            "fig-wait-step",
            if s.fan_out > 1 {
                "The wait: the slowest of the calls"
            } else {
                "The wait: a hedged call"
            },
            "—".into(),
            format!("mean {}{p99}{slow}", fmt_ms(d.wait_step_ms)),
        );
    }
}

/// The report as the CLI's `--json` prints it: no series, no wall time.
pub fn report_json(r: &Report) -> String {
    Report {
        wall_s: 0.0,
        ..r.clone()
    }
    .to_json(false)
}

#[cfg(test)]
mod tests {
    use super::*;
    use tellers_sim::presets::preset;
    use tellers_sim::theory::theory;
    #[test]
    fn figures_mark_the_binding_limit_and_little() {
        let s = preset("sale-day").unwrap();
        let r = tellers_sim::simulate(&s).unwrap();
        let rows = figure_rows(&s, &r, &theory(&s));
        let get = |k: &str| rows.iter().find(|r| r.key == k).unwrap().clone();
        assert!(get("fig-thread-limit").theory.contains("← the limit"));
        assert!(!get("fig-cpu-limit").theory.contains("← the limit"));
        assert_eq!(get("fig-mean").theory, "grows without limit");
        assert_eq!(get("fig-growth").theory, "200 per s");
        assert!(get("fig-inside").theory.contains("rps ×"));
        assert!(rows.iter().all(|r| r.key != "fig-loop-block"));
    }

    #[test]
    fn an_empty_window_says_warming_up_not_zero() {
        let s = preset("sale-day").unwrap();
        let r = Report {
            sim_time_s: 1.0,
            warmup_s: 1.0,
            queue_growth_per_s: 1e10,
            ..Report::default()
        };
        let rows = figure_rows(&s, &r, &theory(&s));
        let growth = rows.iter().find(|r| r.key == "fig-growth").unwrap();
        assert_eq!(growth.sim, "warming up");
        assert!(warming_up(&r));
        let done = Report {
            sim_time_s: 20.0,
            warmup_s: 2.0,
            completed: 9,
            ..Report::default()
        };
        assert!(!warming_up(&done));
    }

    #[test]
    fn p99_theory_says_approx_unless_the_formula_is_exact() {
        let get = |name: &str| {
            let s = preset(name).unwrap();
            let r = Report {
                sim_time_s: 100.0,
                warmup_s: 1.0,
                ..Report::default()
            };
            let rows = figure_rows(&s, &r, &theory(&s));
            rows.into_iter()
                .find(|r| r.key == "fig-p99")
                .unwrap()
                .theory
        };
        assert!(!get("mm1").contains("approx"), "{}", get("mm1"));
        assert!(get("md1").contains("approx"));
        // A random wait after the CPU line is added as a random time (near the
        // simulated 440 ms), but the pool is not in the formula: approximate.
        let planned = get("sale-day-planned");
        assert!(
            planned.starts_with('4') && planned.contains("approx"),
            "{planned}"
        );
    }

    #[test]
    fn retries_and_shedding_get_their_rows_only_when_they_matter() {
        let keys = |name: &str| {
            let s = preset(name).unwrap();
            let r = tellers_sim::simulate(&s).unwrap();
            figure_rows(&s, &r, &theory(&s))
                .into_iter()
                .map(|r| r.key)
                .collect::<Vec<_>>()
        };
        let storm = keys("spike-metastable");
        assert!(storm.contains(&"fig-retries") && storm.contains(&"fig-calls"));
        assert!(!storm.contains(&"fig-shed"));
        assert!(keys("spike-shed").contains(&"fig-shed"));
        assert!(!keys("mm1").contains(&"fig-retries"));
    }

    #[test]
    fn the_dependency_rows_give_each_figure_beside_its_theory() {
        let keys = |name: &str| {
            let s = preset(name).unwrap();
            let r = tellers_sim::simulate(&s).unwrap();
            figure_rows(&s, &r, &theory(&s))
        };
        let db = keys("db-pool-limit");
        let limit = db.iter().find(|r| r.key == "fig-dep-limit").unwrap();
        assert!(limit.theory.starts_with("500 rps") && limit.theory.contains("the limit"));
        assert!(db.iter().any(|r| r.key == "fig-dep-pool-wait"));
        let fan = keys("fan-out-100");
        let step = fan.iter().find(|r| r.key == "fig-wait-step").unwrap();
        assert!(
            step.theory.contains("51.9 ms") && step.theory.contains("63 %"),
            "{}",
            step.theory
        );
        assert!(keys("mm1").iter().all(|r| !r.key.starts_with("fig-dep")));
    }

    #[test]
    fn report_json_drops_series_and_wall_time() {
        let r = Report {
            wall_s: 3.0,
            series: vec![Default::default()],
            ..Report::default()
        };
        let j = report_json(&r);
        assert!(!j.contains("series") && j.contains("\"wall_s\":0.0"), "{j}");
        let v: serde_json::Value = serde_json::from_str(&j).unwrap();
        assert!(v.is_object());
    }
}
