//! The playground's plain logic: which controls a scenario shows, reading
//! and writing a scenario field by name, the figures table, numbers as the
//! learner reads them, chart ticks, the sweep behind the curve, and the
//! view settings kept in the URL beside the scenario.
//!
//! No browser types here: everything is checked with `cargo test`.

use tellers_sim::analytic::Limit;
use tellers_sim::query::{from_query, percent_decode, scenario_from_map, to_query};
use tellers_sim::report::Report;
use tellers_sim::theory::Theory;
use tellers_sim::{Arrivals, Model, Scenario};

/// One slider (with its number box).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Control {
    /// Scenario field, `snake_case` as in URLs.
    pub field: &'static str,
    /// What the learner reads beside the slider.
    pub label: &'static str,
    /// Unit shown after the value ("" for a plain count).
    pub unit: &'static str,
    /// Slider range and step.
    pub min: f64,
    /// Slider maximum; the number box accepts up to `box_max`.
    pub max: f64,
    /// Slider step.
    pub step: f64,
    /// Largest value the number box accepts (the scenario's own range).
    pub box_max: f64,
}

const fn c(
    field: &'static str,
    label: &'static str,
    unit: &'static str,
    min: f64,
    max: f64,
    step: f64,
    box_max: f64,
) -> Control {
    Control {
        field,
        label,
        unit,
        min,
        max,
        step,
        box_max,
    }
}

/// Every slider the playground knows, in the order they are shown.
pub const CONTROLS: &[Control] = &[
    c("cores", "Cores", "cores", 1.0, 64.0, 1.0, 1024.0),
    c(
        "threads",
        "Pool size",
        "threads",
        1.0,
        400.0,
        1.0,
        100_000.0,
    ),
    c(
        "queue_limit",
        "Line limit (0 = no limit)",
        "requests",
        0.0,
        2000.0,
        1.0,
        10_000_000.0,
    ),
    c(
        "loops",
        "Event loops (0 = one per core)",
        "loops",
        0.0,
        64.0,
        1.0,
        1024.0,
    ),
    c(
        "workers",
        "Worker threads",
        "threads",
        1.0,
        64.0,
        1.0,
        10_000.0,
    ),
    c(
        "offload_above_ms",
        "Hand steps of at least this to workers",
        "ms",
        0.0,
        100.0,
        0.5,
        600_000.0,
    ),
    c(
        "handoff_ms",
        "Hand-off cost on the loop",
        "ms",
        0.0,
        10.0,
        0.05,
        1_000.0,
    ),
    c(
        "cpu_ms",
        "CPU per request (read + compute)",
        "ms",
        0.0,
        200.0,
        0.5,
        600_000.0,
    ),
    c(
        "heavy_share",
        "Share of heavy requests",
        "0–1",
        0.0,
        1.0,
        0.01,
        1.0,
    ),
    c(
        "heavy_cpu_ms",
        "CPU per heavy request",
        "ms",
        0.0,
        500.0,
        1.0,
        600_000.0,
    ),
    c(
        "wait_ms",
        "Wait off the CPU (database, disk)",
        "ms",
        0.0,
        1000.0,
        1.0,
        3_600_000.0,
    ),
    c(
        "write_ms",
        "CPU to write the answer",
        "ms",
        0.0,
        50.0,
        0.5,
        600_000.0,
    ),
    c("rps", "Arrival rate", "rps", 1.0, 2000.0, 1.0, 1_000_000.0),
    c(
        "count",
        "Requests in the batch",
        "requests",
        1.0,
        10_000.0,
        1.0,
        10_000_000.0,
    ),
    c("clients", "Clients", "clients", 1.0, 1000.0, 1.0, 100_000.0),
    c(
        "think_ms",
        "Think time between requests",
        "ms",
        0.0,
        5000.0,
        10.0,
        3_600_000.0,
    ),
    c(
        "timeout_ms",
        "Caller gives up after (0 = never)",
        "ms",
        0.0,
        20_000.0,
        100.0,
        3_600_000.0,
    ),
    c("duration_s", "Run length", "s", 1.0, 600.0, 1.0, 86_400.0),
];

/// The slider for `field`, if it is one.
pub fn control(field: &str) -> Option<Control> {
    CONTROLS.iter().copied().find(|c| c.field == field)
}

/// The label of the `threads` slider, which means different things per model.
pub fn threads_label(model: Model) -> &'static str {
    match model {
        Model::ThreadPerRequest => "Thread cap (0 = no cap)",
        _ => "Pool size",
    }
}

/// The lowest value `c`'s slider reaches under `model`: a thread-per-request
/// server may have no cap on threads (0), a pool needs at least one.
pub fn slider_min(c: &Control, model: Model) -> f64 {
    if c.field == "threads" && model == Model::ThreadPerRequest {
        0.0
    } else {
        c.min
    }
}

/// The choices of a select, as (URL value, label), if `field` is one.
pub fn choices(field: &str) -> Option<&'static [(&'static str, &'static str)]> {
    Some(match field {
        "model" => &[
            ("thread-per-request", "Thread per request"),
            ("thread-pool", "Thread pool"),
            ("event-loop", "Event loop"),
            ("event-loop-workers", "Event loop + worker pool"),
        ],
        "arrivals" => &[
            ("poisson", "Random (Poisson) at a rate"),
            ("uniform", "Evenly spaced at a rate"),
            ("batch", "A batch, all at once"),
            ("closed", "Closed loop of clients"),
        ],
        "cpu_dist" | "wait_dist" => &[
            ("exp", "Random (exponential)"),
            ("const", "Always the same"),
        ],
        "accept" => &[
            ("round-robin", "In turn (round robin)"),
            ("random", "At random"),
            ("shared", "One shared line"),
            ("idlest", "The idle loop accepts more"),
        ],
        _ => return None,
    })
}

/// The label of a select.
pub fn choice_label(field: &str) -> &'static str {
    match field {
        "model" => "Concurrency model",
        "arrivals" => "How requests arrive",
        "cpu_dist" => "CPU times are",
        "wait_dist" => "Wait times are",
        "accept" => "New connections go to a loop",
        _ => "",
    }
}

/// The controls that matter for `s`, by field name, in display order: the
/// model's own settings, the workload, the arrivals' own settings, the
/// caller, the run and its seed.
pub fn visible_controls(s: &Scenario) -> Vec<&'static str> {
    let mut v = vec!["model", "cores"];
    match s.model {
        Model::ThreadPool => v.extend(["threads", "queue_limit"]),
        Model::ThreadPerRequest => v.push("threads"),
        Model::EventLoop => v.extend(["loops", "accept"]),
        Model::EventLoopWorkers => v.extend([
            "loops",
            "accept",
            "workers",
            "offload_above_ms",
            "handoff_ms",
        ]),
    }
    v.extend(["cpu_ms", "cpu_dist", "heavy_share"]);
    if s.heavy_share > 0.0 {
        v.push("heavy_cpu_ms");
    }
    v.extend(["wait_ms", "wait_dist", "write_ms", "arrivals"]);
    match s.arrivals {
        Arrivals::Poisson | Arrivals::Uniform => v.push("rps"),
        Arrivals::Batch => v.push("count"),
        Arrivals::Closed => v.extend(["clients", "think_ms"]),
    }
    v.extend(["timeout_ms", "duration_s", "seed"]);
    v
}

fn as_map(s: &Scenario) -> serde_json::Map<String, serde_json::Value> {
    match serde_json::to_value(s) {
        Ok(serde_json::Value::Object(m)) => m,
        _ => serde_json::Map::new(),
    }
}

/// A numeric field's value (an optional field that is off reads as 0).
pub fn field_value(s: &Scenario, field: &str) -> f64 {
    as_map(s)
        .get(field)
        .and_then(serde_json::Value::as_f64)
        .unwrap_or(0.0)
}

/// A select field's value as the URL writes it, e.g. `thread-pool`.
pub fn choice_value(s: &Scenario, field: &str) -> String {
    as_map(s)
        .get(field)
        .and_then(|v| v.as_str().map(str::to_owned))
        .unwrap_or_default()
}

/// `s` with `field` set to `value`, clamped to the control's range
/// (0 switches an optional field off). Unchanged if the result is invalid.
pub fn with_field(s: &Scenario, field: &str, value: f64) -> Scenario {
    let mut map = as_map(s);
    let base = as_map(&Scenario::default());
    let Some(default) = base.get(field) else {
        return s.clone();
    };
    if !value.is_finite() {
        return s.clone();
    }
    let (lo, hi) = control(field).map_or((f64::MIN, f64::MAX), |c| (c.min.min(0.0), c.box_max));
    let v = value.clamp(lo, hi);
    let integer = default.is_u64() || field == "queue_limit";
    let optional = default.is_null();
    let json = if optional && v == 0.0 {
        serde_json::Value::Null
    } else if integer {
        serde_json::Value::from(v.round().max(0.0) as u64)
    } else {
        serde_json::Value::from(v)
    };
    map.insert(field.to_owned(), json);
    match scenario_from_map(&map) {
        Some(next) if next.validate().is_empty() => next,
        _ => s.clone(),
    }
}

/// `s` with the select `field` set to `value` (a URL value such as `event-loop`).
pub fn with_choice(s: &Scenario, field: &str, value: &str) -> Scenario {
    let mut map = as_map(s);
    map.insert(
        field.to_owned(),
        serde_json::Value::String(value.to_owned()),
    );
    match scenario_from_map(&map) {
        Some(next) if next.validate().is_empty() => next,
        _ => s.clone(),
    }
}

// ---------------------------------------------------------------- numbers

/// A number with `decimals` decimals and thousands separated by commas.
pub use tellers_course::exercise::fmt_fixed as fmt_num;

/// Decimals that keep about three significant figures for numbers a learner reads.
fn decimals_for(x: f64) -> usize {
    let a = x.abs();
    if a >= 100.0 || a == 0.0 {
        0
    } else if a >= 10.0 {
        1
    } else {
        2
    }
}

/// A duration in ms, e.g. `1,234 ms`, `45.6 ms`, `0.25 ms`.
pub fn fmt_ms(x: f64) -> String {
    format!("{} ms", fmt_num(x, decimals_for(x)))
}

/// A rate, e.g. `400 rps`.
pub fn fmt_rps(x: f64) -> String {
    format!("{} rps", fmt_num(x, decimals_for(x)))
}

/// A share 0–1 as a percentage, e.g. `50 %`.
pub fn fmt_pct(x: f64) -> String {
    format!(
        "{} %",
        fmt_num(x * 100.0, if x.abs() < 0.1 { 1 } else { 0 })
    )
}

/// A count or a mean count, e.g. `2,260` or `19.6`.
pub fn fmt_count(x: f64) -> String {
    fmt_num(
        x,
        if x.fract() == 0.0 {
            0
        } else {
            decimals_for(x).min(1)
        },
    )
}

/// A value with a slider's unit, for the value box's accessible text.
pub fn fmt_value(x: f64, unit: &str) -> String {
    let n = fmt_num(x, if x.fract() == 0.0 { 0 } else { 2 });
    if unit.is_empty() {
        n
    } else {
        format!("{n} {unit}")
    }
}

// ---------------------------------------------------------------- axes

/// About `n` evenly spaced round ticks (1, 2 or 5 × 10^k apart) covering `lo`–`hi`.
pub fn linear_ticks(lo: f64, hi: f64, n: usize) -> Vec<f64> {
    if !(lo.is_finite() && hi.is_finite()) || hi <= lo || n == 0 {
        return vec![];
    }
    let raw = (hi - lo) / n as f64;
    let mag = 10f64.powf(raw.log10().floor());
    let step = [1.0, 2.0, 5.0, 10.0]
        .iter()
        .map(|m| m * mag)
        .find(|s| *s >= raw)
        .unwrap_or(10.0 * mag);
    let first = (lo / step).ceil() as i64;
    let last = (hi / step + 1e-9).floor() as i64;
    (first..=last).map(|k| k as f64 * step).collect()
}

/// Ticks for a log axis: powers of ten in `lo`–`hi`, with 2 and 5 between
/// when the axis spans fewer than three decades.
pub fn log_ticks(lo: f64, hi: f64) -> Vec<f64> {
    if !(lo > 0.0 && hi > lo && hi.is_finite()) {
        return vec![];
    }
    let (a, b) = (lo.log10().floor() as i32, hi.log10().ceil() as i32);
    let mids: &[f64] = if b - a < 3 { &[1.0, 2.0, 5.0] } else { &[1.0] };
    let mut v = Vec::new();
    for e in a..=b {
        for m in mids {
            let t = m * 10f64.powi(e);
            if t >= lo * (1.0 - 1e-9) && t <= hi * (1.0 + 1e-9) {
                v.push(t);
            }
        }
    }
    v
}

/// A tick's label: `0.5`, `20`, `1,000`, `10k`.
pub fn fmt_tick(x: f64) -> String {
    if x >= 10_000.0 && (x / 1000.0).fract() == 0.0 {
        format!("{}k", fmt_num(x / 1000.0, 0))
    } else if x.fract() == 0.0 {
        fmt_num(x, 0)
    } else {
        let s = format!("{x:.3}");
        s.trim_end_matches('0').trim_end_matches('.').to_owned()
    }
}

// ---------------------------------------------------------------- sweep

/// The points of the curve are defined in the simulator, so the CLI's
/// `tellers sweep` runs exactly the app's points.
pub use tellers_sim::sweep::{sweep_scenario, SWEEP_REQUESTS, SWEEP_RHOS};

/// The fixed delay the curve adds to its queueing formula: the wait off the
/// CPU when the cores are the queue (the wait does not queue for a core).
pub fn curve_delay_ms(s: &Scenario, th: &Theory) -> f64 {
    match th.capacity.binding {
        Limit::Cpu => s.wait_ms,
        Limit::Threads => 0.0,
    }
}

// ---------------------------------------------------------------- view state

/// How the page is shown, kept in the URL beside the scenario.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ViewState {
    /// Presenter mode: big type, controls folded away.
    pub presenter: bool,
    /// Simulated seconds per real second.
    pub speed: f64,
}

impl Default for ViewState {
    fn default() -> Self {
        ViewState {
            presenter: false,
            speed: 1.0,
        }
    }
}

/// Slowest and fastest animation speed, simulated seconds per second.
pub const SPEED_RANGE: (f64, f64) = (0.1, 100.0);

/// Splits a playground query into the scenario (with a notice per bad
/// field) and the view settings (`presenter=1`, `speed=2`).
pub fn read_query(q: &str) -> (Scenario, ViewState, Vec<String>) {
    let q = q.strip_prefix('?').unwrap_or(q);
    let mut view = ViewState::default();
    let mut notices = Vec::new();
    let mut rest = Vec::new();
    for pair in q.split('&').filter(|p| !p.is_empty()) {
        let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
        match k {
            "presenter" => view.presenter = v == "1" || v == "true",
            "speed" => match percent_decode(v).parse::<f64>() {
                Ok(x) if x.is_finite() && (SPEED_RANGE.0..=SPEED_RANGE.1).contains(&x) => {
                    view.speed = x
                }
                _ => notices.push("speed: not a speed from 0.1 to 100; 1× was used".to_owned()),
            },
            _ => rest.push(pair),
        }
    }
    let (s, mut bad) = from_query(&rest.join("&"));
    notices.append(&mut bad);
    (s, view, notices)
}

/// The hash that opens the playground on `s` with `view`.
pub fn playground_hash(s: &Scenario, view: &ViewState) -> String {
    let mut parts = vec![];
    let q = to_query(s);
    if !q.is_empty() {
        parts.push(q);
    }
    if view.presenter {
        parts.push("presenter=1".into());
    }
    if view.speed != 1.0 {
        parts.push(format!("speed={}", view.speed));
    }
    if parts.is_empty() {
        "#/playground".into()
    } else {
        format!("#/playground?{}", parts.join("&"))
    }
}

/// The query part of a hash (`#/playground?cores=4` → `cores=4`).
pub fn hash_query(hash: &str) -> &str {
    hash.split_once('?').map_or("", |(_, q)| q)
}

/// Speed from the speed slider's position (−1…2, a power of ten).
pub fn speed_from_slider(x: f64) -> f64 {
    let s = 10f64.powf(x.clamp(-1.0, 2.0));
    (s * 100.0).round() / 100.0
}

/// The speed slider's position for `speed`.
pub fn slider_from_speed(speed: f64) -> f64 {
    speed.clamp(SPEED_RANGE.0, SPEED_RANGE.1).log10()
}

/// A speed as the learner reads it: `0.1×`, `1×`, `25×`.
pub fn fmt_speed(speed: f64) -> String {
    format!("{}×", fmt_tick((speed * 100.0).round() / 100.0))
}

// ---------------------------------------------------------------- figures

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
    row(
        "fig-cpu",
        "CPU busy",
        fmt_pct(r.cpu_utilisation),
        th.cpu_utilisation.map_or("—".into(), fmt_pct),
    );
    let busy_theory = match (s.model, th.threads_needed) {
        (Model::ThreadPool, Some(n)) => fmt_count(n.min(f64::from(s.threads))),
        (Model::ThreadPerRequest, Some(n)) if s.threads > 0 => {
            fmt_count(n.min(f64::from(s.threads)))
        }
        (Model::ThreadPerRequest, Some(n)) => fmt_count(n),
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
        "Line growth",
        format!("{} per s", fmt_count(r.queue_growth_per_s.max(0.0).round())),
        th.growth_per_s
            .map_or("—".into(), |g| format!("{} per s", fmt_count(g.round()))),
    );
    let unbounded = th.growth_per_s.is_some_and(|g| g > 0.0);
    // The p99 is M/M/c's: exact only for random service times with nothing
    // else random beside them (theory adds a random wait as a random time).
    let scv = crate::charts::service_scv(s, th);
    let p99 = th.p99_ms;
    let p99_exact = th.exact && (scv - 1.0).abs() < 1e-9;
    let lat_theory = |x: Option<f64>, exact: bool| match x {
        Some(v) => format!("{}{}", fmt_ms(v), if exact { "" } else { " (approx.)" }),
        None if unbounded => "grows without limit".into(),
        None => "—".into(),
    };
    row(
        "fig-mean",
        "Mean response time",
        fmt_ms(r.latency_ms.mean),
        lat_theory(th.mean_ms, th.exact),
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
        lat_theory(p99, p99_exact),
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
        Model::ThreadPerRequest => th.threads_needed.map_or("—".into(), |n| {
            format!("≈ {} threads", fmt_count(n.ceil()))
        }),
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
    row(
        "fig-counts",
        "Completed / refused",
        format!(
            "{} / {}",
            fmt_count(r.completed as f64),
            fmt_count(r.refused as f64)
        ),
        th.queue_model.clone(),
    );
    rows
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
    fn each_model_shows_its_own_controls() {
        let pool = visible_controls(&Scenario::default());
        assert!(pool.contains(&"threads") && pool.contains(&"queue_limit"));
        assert!(!pool.contains(&"loops") && !pool.contains(&"workers"));
        let lw = visible_controls(&Scenario {
            model: Model::EventLoopWorkers,
            ..Scenario::default()
        });
        for f in [
            "loops",
            "accept",
            "workers",
            "offload_above_ms",
            "handoff_ms",
        ] {
            assert!(lw.contains(&f), "{f}");
        }
        assert!(!lw.contains(&"threads"));
        let el = visible_controls(&Scenario {
            model: Model::EventLoop,
            ..Scenario::default()
        });
        assert!(!el.contains(&"workers") && el.contains(&"loops"));
    }

    #[test]
    fn arrivals_show_their_own_settings() {
        let open = visible_controls(&Scenario::default());
        assert!(open.contains(&"rps") && !open.contains(&"clients"));
        let closed = visible_controls(&Scenario {
            arrivals: Arrivals::Closed,
            ..Scenario::default()
        });
        assert!(
            closed.contains(&"clients") && closed.contains(&"think_ms") && !closed.contains(&"rps")
        );
        let batch = visible_controls(&Scenario {
            arrivals: Arrivals::Batch,
            ..Scenario::default()
        });
        assert!(batch.contains(&"count") && !batch.contains(&"rps"));
    }

    #[test]
    fn every_visible_field_has_a_slider_or_a_select() {
        for p in tellers_sim::presets::presets() {
            for f in visible_controls(&p.scenario) {
                assert!(
                    control(f).is_some() || choices(f).is_some() || f == "seed",
                    "{f}"
                );
            }
        }
    }

    #[test]
    fn fields_are_read_and_written_by_name_within_range() {
        let s = Scenario::default();
        assert_eq!(field_value(&s, "cores"), 4.0);
        assert_eq!(with_field(&s, "cores", 8.0).cores, 8);
        assert_eq!(
            with_field(&s, "cores", 5000.0).cores,
            1024,
            "clamped to the range"
        );
        assert_eq!(with_field(&s, "cores", f64::NAN), s);
        assert_eq!(
            with_field(&s, "timeout_ms", 3000.0).timeout_ms,
            Some(3000.0)
        );
        assert_eq!(
            with_field(&with_field(&s, "timeout_ms", 3000.0), "timeout_ms", 0.0).timeout_ms,
            None
        );
        assert_eq!(with_field(&s, "queue_limit", 50.0).queue_limit, Some(50));
        assert_eq!(with_field(&s, "cpu_ms", 12.5).cpu_ms, 12.5);
        assert_eq!(
            with_choice(&s, "model", "event-loop").model,
            Model::EventLoop
        );
        assert_eq!(with_choice(&s, "model", "fibers"), s);
        assert_eq!(choice_value(&s, "arrivals"), "poisson");
    }

    #[test]
    fn numbers_read_like_prose() {
        assert_eq!(fmt_ms(1234.4), "1,234 ms");
        assert_eq!(fmt_ms(45.62), "45.6 ms");
        assert_eq!(fmt_ms(0.25), "0.25 ms");
        assert_eq!(fmt_rps(400.0), "400 rps");
        assert_eq!(fmt_pct(0.5013), "50 %");
        assert_eq!(fmt_pct(0.05), "5.0 %");
        assert_eq!(fmt_count(2259.85), "2,260");
        assert_eq!(fmt_count(19.0), "19");
        assert_eq!(fmt_num(-1234567.0, 0), "−1,234,567");
        assert_eq!(fmt_num(-0.001, 0), "0");
        assert_eq!(fmt_num(f64::INFINITY, 0), "∞");
        assert_eq!(fmt_value(2.5, "ms"), "2.50 ms");
    }

    #[test]
    fn ticks_are_round_and_cover_the_range() {
        assert_eq!(
            linear_ticks(0.0, 1.0, 5),
            vec![0.0, 0.2, 0.4, 0.6000000000000001, 0.8, 1.0]
        );
        assert_eq!(linear_ticks(0.0, 20.0, 4), vec![0.0, 5.0, 10.0, 15.0, 20.0]);
        assert!(linear_ticks(1.0, 1.0, 4).is_empty());
        assert_eq!(log_ticks(1.0, 1000.0), vec![1.0, 10.0, 100.0, 1000.0]);
        assert_eq!(log_ticks(10.0, 100.0), vec![10.0, 20.0, 50.0, 100.0]);
        assert!(log_ticks(0.0, 10.0).is_empty());
        assert_eq!(fmt_tick(0.5), "0.5");
        assert_eq!(fmt_tick(1000.0), "1,000");
        assert_eq!(fmt_tick(20_000.0), "20k");
    }

    #[test]
    fn the_curve_adds_no_delay_when_threads_are_the_queue() {
        let s = preset("sale-day").unwrap();
        assert_eq!(curve_delay_ms(&s, &theory(&s)), 0.0);
    }

    #[test]
    fn view_settings_ride_beside_the_scenario() {
        let s = Scenario {
            cores: 8,
            ..Scenario::default()
        };
        let view = ViewState {
            presenter: true,
            speed: 2.5,
        };
        let hash = playground_hash(&s, &view);
        assert_eq!(hash, "#/playground?cores=8&presenter=1&speed=2.5");
        assert_eq!(
            crate::route::route_from_hash(&hash),
            crate::route::Route::Playground
        );
        let (back, v, notices) = read_query(hash_query(&hash));
        assert_eq!((back, v), (s, view));
        assert!(notices.is_empty());
        assert_eq!(
            playground_hash(&Scenario::default(), &ViewState::default()),
            "#/playground"
        );
        let (_, v, notices) = read_query("speed=NaN");
        assert_eq!(v.speed, 1.0);
        assert_eq!(notices.len(), 1);
    }

    #[test]
    fn speed_slider_spans_a_tenth_to_a_hundred() {
        assert_eq!(speed_from_slider(-1.0), 0.1);
        assert_eq!(speed_from_slider(0.0), 1.0);
        assert_eq!(speed_from_slider(2.0), 100.0);
        assert_eq!(speed_from_slider(9.0), 100.0);
        assert!((slider_from_speed(10.0) - 1.0).abs() < 1e-12);
        assert_eq!(fmt_speed(0.1), "0.1×");
    }

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
        // A random wait after the CPU line: added as a random time, near the simulated 440 ms.
        let planned = get("sale-day-planned");
        assert!(
            planned.starts_with('4') && !planned.contains("approx"),
            "{planned}"
        );
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

    #[test]
    fn the_thread_cap_slider_reaches_no_cap_but_a_pool_needs_a_thread() {
        let threads = control("threads").unwrap();
        assert_eq!(slider_min(&threads, Model::ThreadPerRequest), 0.0);
        assert_eq!(slider_min(&threads, Model::ThreadPool), 1.0);
        let per_request = Scenario {
            model: Model::ThreadPerRequest,
            ..Scenario::default()
        };
        assert_eq!(with_field(&per_request, "threads", 0.0).threads, 0);
        let pool = Scenario::default();
        assert_eq!(
            with_field(&pool, "threads", 0.0),
            pool,
            "a pool of no threads is refused"
        );
    }
}
