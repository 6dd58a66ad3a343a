//! The figures table: each simulated figure beside what theory says, with
//! theory's own label (exact or approximate). Plain logic, checked with
//! `cargo test`; the component only draws the rows.

use tellers_sim::analytic::{CpuPart, Limit};
use tellers_sim::report::Report;
use tellers_sim::text::{decimals_for, fmt_fixed, noun, plural};
use tellers_sim::theory::{Bound, KeepAlive, Theory, Threads};
use tellers_sim::{Arrivals, BreakerState, BreakerView, DepView, Model, Scenario, Snapshot};

use crate::format::{fmt_count, fmt_ms, fmt_ms_pair, fmt_num, fmt_pct, fmt_per_s, fmt_rps, fmt_s};
use tellers_sim::window::{ended, measuring_note, warm_up, window, Window};

/// Fewer measured requests than this, and the response-time rows say how
/// many they are of: a p99 of a handful is their longest.
pub const FEW_MEASURED: u64 = 20;

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
    /// `sim` says why there is no figure yet ("warming up", "not run
    /// yet"): a few words the page keeps on one line.
    pub pending: bool,
}

pub use tellers_sim::signs::stopped_early;

/// A field's on-screen label without its note in brackets: "Line limit".
pub fn label_of(name: &str) -> &'static str {
    Scenario::field(name).map_or("", |f| f.label.split(" (").next().unwrap_or(f.label))
}

/// Which bound stopped a run and what to change, in the learner's words
/// (each field by its control's label), or `None` when the run was not
/// cut short ([`tellers_sim::signs::stop_note`]).
pub fn stop_note(s: &Scenario, r: &Report, th: &Theory) -> Option<String> {
    tellers_sim::signs::stop_note(s, r, th, |f| label_of(f.name).to_ascii_lowercase())
}

/// Before a run, where its event budget would end it before its length
/// ([`tellers_sim::window::budget_end`]), what the learner can change,
/// each field by its control's label; `None` otherwise.
pub fn budget_note(s: &Scenario) -> Option<String> {
    let end = tellers_sim::window::budget_end(s)?;
    let measured = if end.inside_warm_up {
        ", inside its warm-up: nothing would be measured"
    } else {
        ""
    };
    Some(format!(
        "At {} its event budget ends the run by {} s{measured}. A shorter {} or a lower {} runs it all.",
        fmt_rps(s.rps),
        tellers_sim::text::fmt_rate(end.by_s),
        label_of("duration_s").to_ascii_lowercase(),
        label_of("rps").to_ascii_lowercase(),
    ))
}

/// What a panel shows instead of its figures or signs.
#[derive(Clone, Debug, PartialEq)]
pub enum RunNote {
    /// Nothing has happened yet: no request arrived, none finished.
    NotStarted,
    /// The run has begun, but its figures are not measured yet, and why
    /// ([`measuring_note`]).
    Measuring(String),
}

/// What a run cannot show yet ([`RunNote`]); `None` once its figures are
/// measured. The figures row and the signs both read it.
pub fn run_note(s: &Scenario, r: &Report) -> Option<RunNote> {
    if r.arrived == 0 && r.completed == 0 {
        Some(RunNote::NotStarted)
    } else {
        measuring_note(s, r).map(RunNote::Measuring)
    }
}

/// The line under a lesson's short row of figures: how to start the run,
/// what is not measured yet, and once it is, the warm-up the figures leave
/// out ("The first 6.0 s are warm-up and not measured."): the full table's
/// caption says it, and the short row, whose caption is hidden, did not
/// (a learner compared three tables of one lesson without knowing it).
pub fn compact_note(s: &Scenario, r: &Report) -> String {
    match run_note(s, r) {
        Some(RunNote::NotStarted) => "Press Play or Run to the end: the figures fill in as the run goes, and theory appears when it ends.".to_owned(),
        Some(RunNote::Measuring(note)) => note,
        None => warm_up(s).map_or(String::new(), |w| {
            format!(
                "{} warm-up and not measured.",
                tellers_sim::text::capitalised(&w.first())
            )
        }),
    }
}

/// What a screen reader hears of the signs: their titles, once the run
/// is measured ("The pool is the limit. The line keeps growing."), and
/// nothing before. It changes only when the verdict does, where the signs'
/// details change with every figure, a few times a second.
pub fn signs_heard(s: &Scenario, r: &Report, th: &Theory) -> String {
    if run_note(s, r).is_some() {
        return String::new();
    }
    let titles: Vec<String> = tellers_sim::signs::read_signs(s, r, th)
        .into_iter()
        .map(|g| format!("{}.", g.title))
        .collect();
    format!("Reading the signs: {}", titles.join(" "))
}

/// The figures table's caption: "Figures so far", "Figures of the whole
/// run", or with a warm-up "Final figures (the first 6.0 s are warm-up and
/// not measured)": not "the whole run" beside what it leaves out (a
/// learner's walk read it as a contradiction), and no longer than the
/// caption during the run, so the table does not move when it ends.
pub fn figures_caption(s: &Scenario, finished: bool) -> String {
    match (warm_up(s), finished) {
        (Some(w), true) => format!("Final figures ({} warm-up and not measured)", w.first()),
        (Some(w), false) => format!("Figures so far ({} warm-up and not measured)", w.first()),
        (None, true) => "Figures of the whole run".to_owned(),
        (None, false) => "Figures so far".to_owned(),
    }
}

/// The theory column's heading: "Theory", or, where a load schedule changes
/// the rate, the rate theory works from ("Theory at 150 rps, the first
/// step"), so its steady figures beside a run that falls over read as what
/// they are.
pub fn theory_heading(th: &Theory) -> String {
    match th.offered_rps {
        Some(rps) if !th.steady_load => format!("Theory at {}, the first step", fmt_rps(rps)),
        _ => "Theory".to_owned(),
    }
}

/// The figures table: simulated beside theory, for the figures that matter
/// to `s`'s model and arrivals. A figure not measured yet says why
/// ("warming up", "measuring…", "not measured" once the run has ended
/// without it) instead of showing an empty window's zero.
pub fn figure_rows(s: &Scenario, r: &Report, th: &Theory) -> Vec<FigureRow> {
    let mut rows = figure_rows_raw(s, r, th);
    if warm_up(s).is_some() {
        for row in rows.iter_mut().filter(|row| WHOLE_RUN.contains(&row.key)) {
            row.label.push_str(" (whole run)");
        }
    }
    let ended = ended(r);
    // The rows that say why instead of a figure; `None`, every row: before
    // the run nothing is a result yet, counts included (a bold "0 MB" or
    // "0 s" beside "not run yet" read as figures of a run).
    let (hidden, why): (Option<&[&str]>, &str) = match window(r) {
        Window::WarmingUp if r.sim_time_s == 0.0 && r.events > 0 => {
            (Some(&WINDOWED), "no time passed")
        }
        Window::WarmingUp if r.sim_time_s == 0.0 && !ended => (None, "not run yet"),
        Window::WarmingUp if ended => (Some(&WINDOWED), "not measured"),
        Window::WarmingUp => (Some(&WINDOWED), "warming up"),
        Window::Measuring if ended => (Some(&TIMED), "not measured"),
        Window::Measuring => (Some(&TIMED), "measuring…"),
        Window::Measured => (Some(&[]), ""),
    };
    for row in &mut rows {
        if hidden.is_none_or(|h| h.contains(&row.key)) {
            row.sim = why.to_owned();
            row.pending = true;
            if row.key == "fig-inside" {
                // A run that ended unmeasured never will be.
                row.theory = if ended { "—" } else { "λ·W once measured" }.to_owned();
            }
        }
    }
    rows
}

/// True when row `key` of `r` holds a measured figure (not "warming up"
/// or "measuring…").
pub fn row_measured(key: &str, r: &Report) -> bool {
    match window(r) {
        Window::WarmingUp => !WINDOWED.contains(&key),
        Window::Measuring => !TIMED.contains(&key),
        Window::Measured => true,
    }
}

/// Rows that count over the whole run, warm-up too (the report's
/// counters): where a run has a warm-up, their labels say so. Under a
/// heading that says the warm-up is not measured, a learner divided
/// lesson 6's 3,072 finished by the measured 28 s (110 a second, beside a
/// measured 73.1).
const WHOLE_RUN: [&str; 7] = [
    "fig-counts",
    "fig-dep-calls",
    "fig-timeouts",
    "fig-calls",
    "fig-broken",
    "fig-retries",
    "fig-shed",
];

/// The rows of response times and their parts, which theory gives or not
/// together (its "no response time here").
const RESPONSE_TIMES: [&str; 5] = [
    "fig-mean",
    "fig-p50",
    "fig-p99",
    "fig-tail",
    "fig-queue-wait",
];

/// Rows measured over the window after warm-up.
const WINDOWED: [&str; 13] = [
    "fig-arrivals",
    "fig-throughput",
    "fig-goodput",
    "fig-cpu",
    "fig-busy",
    "fig-growth",
    "fig-mean",
    "fig-p50",
    "fig-p99",
    "fig-tail",
    "fig-queue-wait",
    "fig-inside",
    "fig-loop-block",
];

/// Rows made of response times of requests that arrived after the warm-up.
const TIMED: [&str; 6] = [
    "fig-mean",
    "fig-p50",
    "fig-p99",
    "fig-tail",
    "fig-queue-wait",
    "fig-inside",
];

/// The wait in line's mean and p99, ms, as the row shows them: a mean
/// above the p99 ("4.54 ms / 0 ms", where under 1 % of requests waited)
/// read as a fault, and is said to be a few long waits.
fn queue_wait_text(mean: f64, p99: f64) -> String {
    let pair = fmt_ms_pair(mean, p99);
    // Not under a mean shown as "under 0.01 ms": next to 0 ms it reads as
    // nothing to explain, and "long waits" as a puzzle.
    if mean > p99 && mean >= 0.01 {
        format!("{pair} (a few long waits lift the mean above the p99)")
    } else {
        pair
    }
}

/// The row of the figures table that shows report figure `figure` (a name
/// from the course's figure list, such as `latency_mean_ms`), if any.
pub fn row_key(figure: &str) -> Option<&'static str> {
    Some(match figure {
        "throughput_rps" => "fig-throughput",
        "goodput_rps" | "goodput_share" => "fig-goodput",
        "latency_mean_ms" => "fig-mean",
        "latency_p50_ms" | "latency_p90_ms" => "fig-p50",
        "latency_p99_ms" => "fig-p99",
        "latency_p999_ms" | "latency_max_ms" => "fig-tail",
        "queue_wait_mean_ms" | "queue_wait_p99_ms" => "fig-queue-wait",
        "cpu_utilisation" => "fig-cpu",
        "mean_busy" | "mean_busy_workers" => "fig-busy",
        "arrival_rps" => "fig-arrivals",
        "admitted_rps" | "mean_in_flight" | "littles_law_in_flight" => "fig-inside",
        "makespan_s" => "fig-makespan",
        "queue_len_end" => "fig-line",
        "queue_growth_per_s" | "inside_growth_per_s" => "fig-growth",
        "peak_threads" => "fig-peak-threads",
        "peak_connections" => "fig-connections",
        "peak_memory_used_mb" | "peak_memory_reserved_mb" => "fig-memory",
        "completed" | "refused" | "refused_share" => "fig-counts",
        "dropped" | "finished_after_timeout" => "fig-timeouts",
        "loop_block_p99_ms" | "loop_block_max_ms" => "fig-loop-block",
        "loop_connections_spread" => "fig-loop-conns",
        "worker_wait_mean_ms" | "worker_wait_p99_ms" => "fig-worker-wait",
        "calls" | "call_success_share" => "fig-calls",
        "retries" | "tries_per_call" => "fig-retries",
        "shed" | "dropped_hopeless" => "fig-shed",
        "broken" => "fig-broken",
        "timed_out" => "fig-timeouts",
        "dep_calls" | "hedges" | "hedge_extra_share" => "fig-dep-calls",
        "dep_utilisation" => "fig-dep-busy",
        "dep_pool_wait_mean_ms" | "dep_pool_wait_p99_ms" => "fig-dep-pool-wait",
        "dep_queue_wait_mean_ms" | "dep_queue_wait_p99_ms" => "fig-dep-queue-wait",
        _ => return None,
    })
}

/// The rows a lesson widget shows for its `figures` (report figure names),
/// each row once, in the order first named.
pub fn compact_rows(figures: &[String], s: &Scenario, r: &Report, th: &Theory) -> Vec<FigureRow> {
    let mut keys: Vec<&str> = Vec::new();
    for k in figures.iter().filter_map(|f| row_key(f)) {
        if !keys.contains(&k) {
            keys.push(k);
        }
    }
    let rows = figure_rows(s, r, th);
    keys.iter()
        .filter_map(|k| rows.iter().find(|row| row.key == *k).cloned())
        .collect()
}

/// A theory note as the page shows it: what stays in view (the lead,
/// "Theory gives no response time here.", or nothing) and theory's reasons
/// in a fold. A note of several reasons ran to six to ten lines under a
/// three-row table or a curve.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NoteFold {
    /// Said in view, before the fold ("" for none).
    pub lead: String,
    /// True where the reasons are why theory's figures are approximate;
    /// false where they are about a model that gives no response time.
    pub approx: bool,
    /// Theory's reasons, joined by semicolons, as they read after a colon.
    pub why: String,
    /// True for the curve's fold, false for the figures table's: the
    /// playground shows both, and two folds of one name over different
    /// reasons could not be told apart by a screen reader.
    pub curve: bool,
}

impl NoteFold {
    /// The fold's name, what a click opens.
    pub fn summary(&self) -> &'static str {
        match (self.approx, self.curve) {
            (true, false) => "Why theory's figures are marked (approx.)",
            (true, true) => "Why the curve's theory is marked (approx.)",
            (false, false) => "About theory's model",
            (false, true) => "About the curve's model",
        }
    }

    /// The reasons as a sentence.
    pub fn reasons(&self) -> String {
        format!("{}.", tellers_sim::text::capitalised(&self.why))
    }
}

/// The note in one line, as it was said before it was folded (and as tests
/// read it): "Approx.: …." or "Theory gives no response time here. About
/// its model: …."
impl std::fmt::Display for NoteFold {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.approx {
            write!(f, "Approx.: {}.", self.why)
        } else if self.why.is_empty() {
            write!(f, "{}", self.lead)
        } else {
            write!(f, "{} About its model: {}.", self.lead, self.why)
        }
    }
}

/// Theory's reasons (and its figure notes), for a note beside the figures: why
/// its figures are approximate ("Approx.: …", beside the "(approx.)" labels), or,
/// when it gives none, every reason it has (no formula, evenly spaced
/// arrivals, a load that changes…); `None` when it has no reason to give.
pub fn approx_fold(th: &Theory) -> Option<NoteFold> {
    let why = (th.approx_because.iter().chain(&th.figure_notes))
        .map(String::as_str)
        .collect::<Vec<_>>()
        .join("; ");
    let gives_times = th.mean_ms.is_some() || th.p99_ms.is_some();
    // Past the limit with no reason to give (M/M/1 asked for more, or the
    // sale day's four loops at exactly 400 rps), the rows' "grows without
    // limit" still gets its lead below, as where there are reasons.
    if why.is_empty() && (gives_times || !th.grows_without_limit()) {
        return None;
    }
    if gives_times {
        Some(NoteFold {
            lead: String::new(),
            approx: true,
            why,
            curve: false,
        })
    } else {
        // The lead says it once; the reasons (worded for the CLI, where
        // each stands alone) need not end by saying it again. Past the
        // limit the rows say the times grow without limit: "gives no
        // response time" under them read as a contradiction.
        Some(NoteFold {
            // Served newest first, its rows say it has no formula for the
            // times: "response times grow without limit" under them read
            // as a contradiction (the adaptive LIFO preset).
            lead: if th.grows_without_limit() && th.newest_first {
                "Theory's line grows without limit here; it has no formula for the times of requests served newest first.".into()
            } else if th.grows_without_limit() {
                "Theory's response times grow without limit here.".into()
            } else {
                "Theory gives no response time here.".into()
            },
            approx: false,
            why: why.replace(", so theory gives no response time", ""),
            curve: false,
        })
    }
}

/// [`approx_fold`] under a table of the rows of report figures `figures`
/// (empty: every row): without its lead, "Theory gives no response time
/// here.", where the table has no response-time row (under a lesson's
/// table of the CPU and the line, a learner found it unexplained).
pub fn approx_fold_for(th: &Theory, figures: &[String]) -> Option<NoteFold> {
    let mut fold = approx_fold(th)?;
    let shows_times = figures.is_empty()
        || figures
            .iter()
            .filter_map(|f| row_key(f))
            .any(|k| RESPONSE_TIMES.contains(&k));
    if !shows_times {
        fold.lead.clear();
    }
    (!fold.lead.is_empty() || !fold.why.is_empty()).then_some(fold)
}

/// The curve's note on its theory: [`approx_fold`] for the theory of its
/// points (`points_th`, at the highest utilisation it draws), said of that
/// point when theory gives the scenario itself (`th`) a response time but
/// not the point: the sale day planned at 70 % has 104 ms, and its pool,
/// slowed by waits for a core, is overloaded at 95 %.
pub fn curve_approx_fold(points_th: &Theory, th: &Theory) -> Option<NoteFold> {
    let mut fold = approx_fold(points_th)?;
    fold.curve = true;
    if !fold.approx && th.mean_ms.is_some() {
        fold.lead = format!(
            "Theory gives no response time at the curve's highest point, {} of the limit.",
            fmt_pct(tellers_sim::sweep::SWEEP_RHOS[tellers_sim::sweep::SWEEP_RHOS.len() - 1])
        );
    }
    Some(fold)
}

/// Whether the scene's tellers include workers (beside loops).
pub fn has_workers(s: &Snapshot) -> bool {
    s.loops > 0 && s.tellers_alive > s.loops
}

/// Who the tellers are: "20 threads", "4 event loops", "1 loop and 5
/// workers" (the scene said "6 loops and workers"), "4 loops with 3
/// workers each" where each of several loops has its own pool.
pub fn tellers_named(s: &Snapshot) -> String {
    if s.loops == 0 {
        plural(s.tellers_alive, "thread")
    } else if s.workers_per_loop > 0 && s.loops > 1 {
        format!(
            "{} with {} each",
            plural(s.loops, "loop"),
            plural(u64::from(s.workers_per_loop), "worker")
        )
    } else if has_workers(s) {
        format!(
            "{} and {}",
            plural(s.loops, "loop"),
            plural(s.tellers_alive - s.loops, "worker")
        )
    } else {
        plural(s.loops, "event loop")
    }
}

/// The tellers' heading, longest first, for the scene to take the first
/// that fits its column: "Tellers: 1 loop and 5 workers", the same without
/// "Tellers:", the count alone ("Tellers: 64,064").
pub fn tellers_titles(s: &Snapshot) -> [String; 3] {
    let named = tellers_named(s);
    [
        format!("Tellers: {named}"),
        named,
        format!("Tellers: {}", fmt_count(s.tellers_alive as f64)),
    ]
}

/// The tellers' heading's second line: how many are busy and, beside
/// workers, how many requests wait for one ("1 busy; 22 wait for a
/// worker": they were drawn nowhere).
pub fn tellers_detail(s: &Snapshot) -> String {
    let busy = format!("{} busy", fmt_count(s.tellers_busy as f64));
    if has_workers(s) {
        format!(
            "{busy}; {} {} for a worker",
            fmt_count(s.worker_line as f64),
            noun(s.worker_line, "waits", "wait")
        )
    } else {
        busy
    }
}

/// The tellers scene in words, for screen readers (and tests): "1 request
/// in line, 0 waiting off the CPU, 1 of 4 cores busy, 20 threads, …".
pub fn tellers_summary(s: &Snapshot) -> String {
    let for_worker = if has_workers(s) {
        format!(", {} waiting for a worker", fmt_count(s.worker_line as f64))
    } else {
        String::new()
    };
    let outcomes: Vec<String> = scene_outcomes(s)
        .iter()
        .map(|(o, n)| {
            format!(
                "{} {}",
                fmt_count(*n as f64),
                o.label().to_ascii_lowercase()
            )
        })
        .collect();
    let text = format!(
        "{} in line{for_worker}, {} waiting off the CPU, {} of {} busy, {}, {}.",
        plural(s.line, "request"),
        fmt_count(s.waiting as f64),
        fmt_count(f64::from(s.busy_cores)),
        plural(u64::from(s.cores), "core"),
        tellers_named(s),
        outcomes.join(", "),
    );
    // A limit's detail goes on from its heading ("Connections: 10 of 10
    // in use"); the breaker's says what its state does.
    let dep = s.dep.as_ref().map(dep_lines).unwrap_or_default();
    let text = dep
        .iter()
        .fold(text, |t, (head, detail)| format!("{t} {head} {detail}."));
    match s.breaker.as_ref().map(breaker_line) {
        Some((head, detail)) => format!("{text} {head}, {detail}."),
        None => text,
    }
}

/// What became of a request, as the scene's outcome rows count them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Finished.
    Finished,
    /// Refused at the door.
    Refused,
    /// Its caller gave up on it.
    TimedOut,
    /// Failed at once by the callers' open circuit breaker.
    Blocked,
}

impl Outcome {
    /// The row's label.
    pub fn label(self) -> &'static str {
        match self {
            Outcome::Finished => "Finished",
            Outcome::Refused => "Refused",
            Outcome::TimedOut => "Timed out",
            Outcome::Blocked => "Blocked",
        }
    }
}

/// The scene's outcome rows, each with its count: finished, refused,
/// timed out, and, where the callers have a circuit breaker, the tries it
/// blocked (failed at once).
pub fn scene_outcomes(s: &Snapshot) -> Vec<(Outcome, u64)> {
    let mut rows = vec![
        (Outcome::Finished, s.completed),
        (Outcome::Refused, s.refused),
        (Outcome::TimedOut, s.timed_out),
    ];
    if let Some(b) = &s.breaker {
        rows.push((Outcome::Blocked, b.broken));
    }
    rows
}

/// What the scene lists under its sections, a heading and a detail line
/// each: the dependency's limits ([`dep_lines`]), then the callers'
/// circuit breaker ([`breaker_line`]).
pub fn scene_parts(s: &Snapshot) -> Vec<(String, String)> {
    let mut parts = s.dep.as_ref().map(dep_lines).unwrap_or_default();
    parts.extend(s.breaker.as_ref().map(breaker_line));
    parts
}

/// The callers' circuit breaker as the scene shows it: where it is, and
/// what that does to calls now. The time an open breaker has left is
/// rounded up to a tenth of a second, so it reads 0.0 s only when its time
/// is up.
pub fn breaker_line(b: &BreakerView) -> (String, String) {
    let (state, detail) = match b.state {
        BreakerState::Closed { failures } => (
            "closed",
            format!(
                "failures in a row: {} of {}",
                fmt_count(f64::from(failures)),
                fmt_count(f64::from(b.after))
            ),
        ),
        BreakerState::Open { left_s } if left_s > 0.0 => (
            "open",
            format!(
                "calls blocked for {} s more",
                fmt_fixed((left_s * 10.0).ceil() / 10.0, 1)
            ),
        ),
        BreakerState::Open { .. } => ("open", "the next call is its trial".to_owned()),
        BreakerState::HalfOpen => ("half-open", "a trial is out; others blocked".to_owned()),
    };
    (format!("Circuit breaker: {state}"), detail)
}

/// The dependency's limits as the scene shows them: a heading and a detail
/// line for its connections, then for its slots (the calls it serves at
/// once), each only when it is limited. Empty for a dependency with no
/// limit (fan-out or hedging alone).
pub fn dep_lines(d: &DepView) -> Vec<(String, String)> {
    let n = |x: u64| fmt_count(x as f64);
    let mut lines = Vec::new();
    if let Some(pool) = d.pool {
        lines.push((
            format!(
                "Connections: {} of {}",
                n(u64::from(d.conns_busy)),
                n(u64::from(pool))
            ),
            format!("in use; {} in line", plural(d.conn_line, "call")),
        ));
    }
    if let Some(slots) = d.slots {
        lines.push((
            format!(
                "Dependency: {} of {}",
                n(u64::from(d.slots_busy)),
                n(u64::from(slots))
            ),
            format!("busy; {} in line", plural(d.slot_line, "call")),
        ));
    }
    lines
}

/// The curve's caption: what it shows, the model of its lines from the
/// theory of its points (`points_th`,
/// [`curve_theory`](tellers_sim::sweep::curve_theory)), and where the
/// scenario (theory `th`) sits on it. A load that changes during the run
/// has no one point on a curve of steady loads, and the caption says so.
pub fn curve_caption(th: &Theory, points_th: &Theory) -> String {
    let now = match (th.utilisation, th.mean_ms) {
        (Some(u), _) if !th.steady_load => format!(
            " This scenario's load changes during the run, so no one point of these steady-load curves is its own; its first step asks for {} of its limit.",
            fmt_pct(u)
        ),
        (Some(u), Some(m)) => format!(
            " This scenario runs at {} of its limit: theory says {} on average{}.",
            fmt_pct(u),
            fmt_ms(m),
            if th.mean_exact { "" } else { " (approx.)" }
        ),
        (Some(u), None) if u >= 1.0 => format!(
            " This scenario asks for {} of its limit: it is overloaded.",
            fmt_pct(u)
        ),
        _ => String::new(),
    };
    format!("{}{now}", curve_lines_text(points_th))
}

/// What the curve's lines are, from the theory they are drawn from (`th`,
/// the curve's points'): the line and, where a formula draws it, its model.
fn curve_lines_text(th: &Theory) -> String {
    // The queue's model only where a formula draws its lines.
    // A loop and its pool: the x-axis is the cores' load, not a line of
    // workers of the request's CPU each.
    let model = if matches!(th.keep_alive, Some(KeepAlive::Pair(_))) {
        format!(
            " ({}; {} of CPU a request on the {})",
            th.queue_model,
            fmt_ms(th.service_ms),
            th.servers_label(th.servers)
        )
    } else if let (Some(p), true) = (&th.pool_line, th.curve_formula) {
        format!(
            " ({}: {}, {} of CPU and {} off it a request)",
            th.queue_model,
            th.servers_label(th.servers),
            fmt_ms(p.cpu_ms),
            fmt_ms(p.off_cpu_ms)
        )
    } else if th.curve_formula {
        format!(
            " ({}: {}, {} a request)",
            th.queue_model,
            th.servers_label(th.servers),
            fmt_ms(th.service_ms)
        )
    } else {
        String::new()
    };
    format!(
        "Response time as the line at {} gets busier{model}.",
        th.line_at
    )
}

/// Calls neither answered nor failed at the end of a run with nothing
/// inside: each waits for its next try. `None` if there are none.
fn calls_waiting_to_retry(r: &Report) -> Option<u64> {
    let resolved = r.calls_succeeded + r.calls_failed;
    (r.in_flight_end == 0 && r.calls > resolved).then(|| r.calls - resolved)
}

fn figure_rows_raw(s: &Scenario, r: &Report, th: &Theory) -> Vec<FigureRow> {
    let mut rows = Vec::new();
    let mut row = |key, label: &str, sim: String, theory: String| {
        rows.push(FigureRow {
            key,
            label: label.to_owned(),
            sim,
            theory,
            pending: false,
        })
    };
    let cap = &th.capacity;
    // Threads that outnumber the cores and wait for them finish less than
    // any limit: that row is the limit (the sale day's pool of 40 pointed
    // at its two 400 rps limits while it finished about 365).
    let all_busy = th.all_busy_rps().filter(|p| *p < cap.capacity_rps);
    // Every limit that gives the capacity: on a tie, both.
    let binding = |l: Limit| {
        if cap.binds(l) && all_busy.is_none() {
            " ← the limit"
        } else {
            ""
        }
    };
    let expected = th.expected_rps;
    // The first step's rate, each request once: an estimate where the
    // server gets another load (a schedule, retries, keep-alive filling),
    // or dear switches or waits for a core could bring the capacity down
    // to it.
    // What arrives, retries too: shown in λ·W alone, a lesson's "about
    // 600 tries a second" read "not measured" there while no late arrival
    // had finished.
    // A batch has no rate: its count over the run's length read as 200 rps
    // with 20 threads and 10,000 with 1,000.
    let batch = s.arrivals == Arrivals::Batch;
    row(
        "fig-arrivals",
        if s.retries > 0 {
            "Tries arriving (retries too)"
        } else {
            "Requests arriving"
        },
        if batch {
            format!("{} at once, at 0 s", fmt_count(f64::from(s.count)))
        } else {
            fmt_rps(r.arrival_rps)
        },
        "—".into(),
    );
    row(
        "fig-throughput",
        "Throughput",
        fmt_rps(r.throughput_rps),
        expected.map_or_else(
            || match cap.capacity_rps {
                c if c.is_finite() => format!("at most {}", fmt_rps(c)),
                _ => "no limit".into(),
            },
            |x| {
                // The second state: every try timed out, the server at its
                // capacity finishing answers nobody waits for.
                let storm = th.retry_storm_rps.map_or(String::new(), |_| {
                    format!(
                        ", or {}, none in time, once tries time out",
                        fmt_rps(cap.capacity_rps)
                    )
                });
                // Hedges that can tip the dependency over: what it then
                // finishes (lesson 16's melt-down ran 80 rps beside a
                // theory of 100, the limit row saying 80 below it).
                let tipped = th.tipped_limit_rps().map_or(String::new(), |t| {
                    format!(", or {} once every call is sent twice", fmt_rps(t.min(x)))
                });
                format!(
                    "{}{storm}{tipped}",
                    bounded(&fmt_rps(x), th.throughput_bound())
                )
            },
        ),
    );
    if s.timeout_ms.is_some() {
        row(
            "fig-goodput",
            "Finished while the caller still waited",
            format!(
                "{} ({} of all finished)",
                fmt_rps(r.goodput_rps),
                fmt_pct(if r.throughput_rps > 0.0 {
                    r.goodput_rps / r.throughput_rps
                } else {
                    0.0
                })
            ),
            "—".into(),
        );
    }
    row(
        "fig-cpu-limit",
        "CPU limit",
        "—".into(),
        if cap.cpu_limit_rps.is_infinite() {
            "no limit: requests use no CPU".into()
        } else {
            format!(
                "{}{}{}",
                bounded(&fmt_rps(cap.cpu_limit_rps), th.cpu_bound()),
                cpu_part_text(s, cap.cpu_part),
                binding(Limit::Cpu)
            )
        },
    );
    row(
        "fig-thread-limit",
        "Thread limit",
        "—".into(),
        cap.thread_limit_rps.map_or_else(
            || no_thread_limit(s.model).to_owned(),
            |t| {
                format!(
                    "{}{}",
                    bounded(&fmt_rps(t), th.thread_limit_bound()),
                    binding(Limit::Threads)
                )
            },
        ),
    );
    // Threads that outnumber the cores also wait for one: all busy, they
    // finish less than either limit (20 threads on 2 cores: about 176 rps
    // where both limits say 200), and the throughput follows this figure.
    if let Some(p) = th.all_busy_rps() {
        row(
            "fig-pool-rps",
            "All threads busy, sharing the cores",
            "—".into(),
            format!(
                "{}: they also wait for a core{}",
                bounded(&fmt_rps(p), Bound::Approx),
                if all_busy.is_some() {
                    " ← the limit"
                } else {
                    ""
                }
            ),
        );
    }
    if let Some(d) = cap.dep_limit_rps {
        // Where hedges can tip the dependency over (a burst sends every
        // call twice, for good), both limits: the signs may name the lower.
        let tipped = th.tipped_limit_rps().map_or(String::new(), |t| {
            format!("; {} once every call is sent twice", fmt_rps(t))
        });
        row(
            "fig-dep-limit",
            "Dependency limit (connections or slots ÷ time held)",
            "—".into(),
            format!("{}{}{tipped}", fmt_rps(d), binding(Limit::Dependency)),
        );
    }
    row(
        "fig-cpu",
        "CPU busy",
        fmt_pct(r.cpu_utilisation),
        th.cpu_utilisation
            .map_or("—".into(), |u| bounded(&fmt_pct(u), th.cpu_busy_bound())),
    );
    let busy_theory = th.busy_threads.map_or("—".into(), |n| {
        let bound = th.busy_threads_bound;
        match s.thread_limit() {
            // A floor at the pool's size is the whole pool: no more can be
            // busy ("at least 20" of a pool of 20 read as if more could).
            Some(t) if bound == Bound::AtLeast && n >= f64::from(t) => {
                format!("all {}", fmt_count(f64::from(t)))
            }
            _ => bounded(&fmt_count(bound.shown(n, 1)), bound),
        }
    });
    // Named for what this model has: "threads" of a plain pool read
    // oddly as "threads, loops and workers".
    let busy_what = match s.model {
        Model::ThreadPool | Model::ThreadPerRequest => "Busy threads (mean)",
        Model::EventLoop => "Busy event loops (mean)",
        Model::EventLoopWorkers => "Busy loops and workers (mean)",
    };
    row("fig-busy", busy_what, fmt_count(r.mean_busy), busy_theory);
    // The server's own line, told from a line at the dependency, which
    // the growth counts too (all requests inside).
    let for_what = match s.model {
        Model::ThreadPool | Model::ThreadPerRequest => "for a thread",
        Model::EventLoop | Model::EventLoopWorkers => "for a loop",
    };
    row(
        "fig-line",
        &format!("Requests in line {for_what} now"),
        fmt_count(r.queue_len_end as f64),
        "—".into(),
    );
    row(
        "fig-growth",
        "Line growth (all requests inside)",
        // A batch's line only drains ("0 per s" while 1,000 drained).
        if batch {
            "none: a batch only drains".into()
        } else {
            fmt_per_s(r.inside_growth_per_s.max(0.0))
        },
        th.growth_per_s.map_or("—".into(), |g| {
            if g <= 0.0 && th.at_full_load() {
                "0 per s, but it never settles".into()
            } else {
                bounded(&fmt_per_s(g), th.growth_bound())
            }
        }),
    );
    // At exactly 100 % busy the line grows no set amount a second, but
    // wanders and never settles: no mean or p99 to give either.
    let unbounded = th.grows_without_limit();
    // Theory says whether each formula is exact for this scenario.
    // Where every try timing out would hold the server past its limit,
    // theory's times are those of the state where few do (lesson 16's run
    // showed 433 ms beside 204 s, as if that were its prediction).
    let few_time_out = if th.retry_storm_rps.is_some() {
        " while few tries time out"
    } else {
        ""
    };
    let lat_theory = |x: Option<f64>, exact: bool| match x {
        Some(v) => format!(
            "{}{}{few_time_out}",
            fmt_ms(v),
            if exact { "" } else { " (approx.)" }
        ),
        // Served newest first, those served wait little however long the
        // line: nothing grows without limit but the line, and no formula
        // here gives their times.
        None if unbounded && th.newest_first => "no formula for newest first".into(),
        None if unbounded => "grows without limit".into(),
        None => "—".into(),
    };
    // Where callers give up, the server's times count answers nobody
    // waited for: a median of 134 s beside a 220 ms timeout read as wrong.
    let late_too = if s.timeout_ms.is_some() {
        " (late answers too)"
    } else {
        ""
    };
    // Where few requests were measured, the mean and the p99 say how many:
    // node-collapse-blocking's were all one request's, unsaid.
    let of_few = if r.measured < FEW_MEASURED {
        format!(" (of {})", plural(r.measured, "request"))
    } else {
        String::new()
    };
    row(
        "fig-mean",
        &format!("Mean response time{late_too}"),
        format!("{}{of_few}", fmt_ms(r.latency_ms.mean)),
        lat_theory(th.mean_ms, th.mean_exact),
    );
    row(
        "fig-p50",
        &format!("Median / p90 response time{late_too}"),
        fmt_ms_pair(r.latency_ms.p50, r.latency_ms.p90),
        "—".into(),
    );
    row(
        "fig-p99",
        &format!("p99 response time{late_too}"),
        format!("{}{of_few}", fmt_ms(r.latency_ms.p99)),
        lat_theory(th.p99_ms, th.p99_exact),
    );
    row(
        "fig-tail",
        &format!("p99.9 / longest response{late_too}"),
        fmt_ms_pair(r.latency_ms.p999, r.latency_ms.max),
        "—".into(),
    );
    row(
        "fig-queue-wait",
        &format!("Time in line {for_what}: mean / p99"),
        queue_wait_text(r.queue_wait_ms.mean, r.queue_wait_ms.p99),
        th.line_wait_ms.map_or("—".into(), |w| {
            format!(
                "mean {}{}{few_time_out}",
                fmt_ms(w),
                if th.mean_exact { "" } else { " (approx.)" }
            )
        }),
    );
    row(
        "fig-inside",
        "Requests inside (mean) vs λ·W",
        fmt_count(r.mean_in_flight),
        littles_law_text(r),
    );
    let threads_theory = th.threads.map_or("—".into(), |t| match t {
        Threads::Pool(n) => plural(u64::from(n), "thread"),
        Threads::Loops(n) => plural(u64::from(n), "loop"),
        Threads::LoopsAndWorkers { loops, workers } => format!(
            "{} + {}",
            plural(u64::from(loops), "loop"),
            plural(u64::from(workers), "worker")
        ),
        Threads::UpTo(n) => format!("up to {}", plural(u64::from(n), "thread")),
        // Theory's mean is the busy threads' count: a floor (rounded
        // down, to stay one) where they wait for cores that the time held
        // with no line leaves out.
        Threads::Mean { mean, .. } => {
            let bound = th.busy_threads_bound;
            let how = if bound == Bound::AtLeast {
                "at least"
            } else {
                "≈"
            };
            let n = bound.shown(mean, 0).round() as u64;
            format!("mean {how} {}", plural(n, "thread"))
        }
    });
    // Without a cap, theory has only Little's law: the mean number alive,
    // which the peak the row shows is above.
    let peak_note = match th.threads {
        Some(Threads::Mean { random: true, .. }) => " (the peak is higher)",
        Some(Threads::Mean { random: false, .. }) => " (the peak is at least that)",
        _ => "",
    };
    if matches!(s.model, Model::ThreadPool | Model::ThreadPerRequest) {
        row(
            "fig-peak-threads",
            "Threads alive (peak)",
            fmt_count(r.peak_threads as f64),
            format!("{threads_theory}{peak_note}"),
        );
    }
    row(
        "fig-memory",
        // "Used" counts the event loops' state per open connection too:
        // the row is memory, not stacks alone. Threads keep none apart from
        // their stacks here (the field's own rule says where it is kept),
        // and lesson 15's 2,873 connections waiting for a pool read "in
        // use (stacks + connection state) 4 MB".
        if s.keeps_connection_state() {
            "Memory (peak): reserved for stacks / in use (stacks + connection state)"
        } else {
            "Memory (peak): reserved for stacks / in use (stacks)"
        },
        format!(
            "{} MB / {} MB",
            fmt_count(r.peak_memory_reserved_mb),
            fmt_count(r.peak_memory_used_mb)
        ),
        match th.stack_reserved_mb {
            // A sum is bracketed before it is multiplied.
            Some(mb) if matches!(th.threads, Some(Threads::LoopsAndWorkers { .. })) => format!(
                "({threads_theory}) × {} KB = {} MB{peak_note}",
                fmt_num(s.stack_reserved_kb, 0),
                fmt_count(mb)
            ),
            Some(mb) => format!(
                "{threads_theory} × {} KB = {} MB{peak_note}",
                fmt_num(s.stack_reserved_kb, 0),
                fmt_count(mb)
            ),
            // No count of threads in theory, so no product to show.
            None if th.threads.is_none() => "—".into(),
            None => format!(
                "{threads_theory} × {} KB{peak_note}",
                fmt_num(s.stack_reserved_kb, 0)
            ),
        },
    );
    row(
        "fig-connections",
        "Open connections (peak)",
        fmt_count(r.peak_connections as f64),
        "—".into(),
    );
    let has_loops = s.model.has_loops();
    if let Some(b) = r.loop_block_ms.or(has_loops.then(Default::default)) {
        row(
            "fig-loop-block",
            "Loop held by one step: p99 / longest",
            fmt_ms_pair(b.p99, b.max),
            tellers_sim::analytic::mean_loop_step_ms(s)
                .map_or("—".into(), |m| format!("mean step {}", fmt_ms(m))),
        );
        // Not once a run's loops have accepted none: "— | —" said nothing
        // (the database pool's and the fan-out's loops count no
        // connections). Before a run the row waits for its figure.
        let counted = r.loop_connections.iter().any(|&n| n > 0);
        if counted || r.loop_connections.is_empty() {
            row(
                "fig-loop-conns",
                "Connections each loop accepted (busiest ÷ quietest)",
                loop_connections_text(&r.loop_connections),
                "—".into(),
            );
        }
    }
    let has_workers = s.model == Model::EventLoopWorkers;
    if let Some(w) = r.worker_wait_ms.or(has_workers.then(Default::default)) {
        row(
            "fig-worker-wait",
            // Counted as each worker takes its step, so it takes in the
            // requests still inside: node-collapse-pool's 4,141 ms stood
            // beside finished requests that had waited none.
            "Wait for a free worker (each step a worker took): mean / p99",
            fmt_ms_pair(w.mean, w.p99),
            "—".into(),
        );
    }
    if s.timeout_ms.is_some() || r.timed_out > 0 {
        row(
            "fig-timeouts",
            "Requests timed out / work for nobody",
            format!(
                "{} / {}",
                fmt_count(r.timed_out as f64),
                fmt_count(r.finished_after_timeout as f64)
            ),
            "—".into(),
        );
    }
    dependency_rows(s, r, th, &mut row);
    let retried = s.retries > 0 || r.retries > 0;
    let breaker = s.breaker_after.is_some();
    if retried || breaker {
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
    }
    if breaker {
        row(
            "fig-broken",
            "Tries the circuit breaker failed at once",
            fmt_count(r.broken as f64),
            "—".into(),
        );
    }
    if retried {
        // Those the breaker failed at once too (0.93 tries a call read as
        // nonsense).
        let per_call = r.tries_per_call().unwrap_or(1.0);
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
    if s.arrivals == Arrivals::Batch {
        row(
            "fig-makespan",
            "Last request finished at",
            if r.completed == 0 {
                "none has finished yet".into()
            } else if r.in_flight_end > 0 {
                // Not the batch's end: a run cut short (batch-pool-20 at
                // 2 s read "1.9 s" beside 620 still inside).
                format!(
                    "{} so far ({} still inside)",
                    fmt_s(r.makespan_s),
                    fmt_count(r.in_flight_end as f64)
                )
            } else if let Some(waiting) = calls_waiting_to_retry(r) {
                // None inside, yet not done: every call left waits out its
                // back-off before its next try.
                format!(
                    "{} so far ({} waiting to try again)",
                    fmt_s(r.makespan_s),
                    plural(waiting, "call")
                )
            } else {
                fmt_s(r.makespan_s)
            },
            th.makespan.map_or("—".into(), |m| {
                format!(
                    "{} × {} = {}{}",
                    plural(m.rounds, "round"),
                    fmt_ms(m.round_ms),
                    fmt_s(m.makespan_s),
                    if m.exact { "" } else { " (approx.)" }
                )
            }),
        );
    }
    row(
        "fig-counts",
        "Finished / refused",
        format!(
            "{} / {}",
            fmt_count(r.completed as f64),
            fmt_count(r.refused as f64)
        ),
        "—".into(),
    );
    row(
        "fig-model",
        // Kendall's letters, glossed where they are shown: lesson 8 names
        // M/M/1 and M/M/c, and the playground shows others (M/G/20, D/M/4).
        "Theory's model of the line (arrivals / service / workers: M random, D fixed, G any)",
        "—".into(),
        th.model_of_line.clone(),
    );
    rows
}

/// Connections per loop, `36 / 36 / 35 / 35 (1.03)`: how evenly the loops
/// accepted them (busiest ÷ quietest); "—" before any was accepted.
pub fn loop_connections_text(per_loop: &[u64]) -> String {
    let (Some(&max), Some(&min)) = (per_loop.iter().max(), per_loop.iter().min()) else {
        return "—".into();
    };
    if max == 0 {
        return "—".into();
    }
    // One loop has no busiest and quietest ("1,025 (1.00)").
    if per_loop.len() == 1 {
        return format!("{} (one loop)", fmt_count(max as f64));
    }
    let list: Vec<String> = per_loop.iter().map(|&n| fmt_count(n as f64)).collect();
    let spread = if min == 0 {
        "the quietest took none".to_owned()
    } else {
        fmt_num(max as f64 / min as f64, 2)
    };
    format!("{} ({spread})", list.join(" / "))
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
    // The run's calls as theory gives them, a rate and the share sent
    // again (a run's total beside a rate compared nothing), with the total.
    let first_tries = r.dep_calls.saturating_sub(r.hedges);
    let run = if r.sim_time_s > 0.0 && first_tries > 0 {
        let rate = format!("{} calls/s", fmt_num(r.dep_calls as f64 / r.sim_time_s, 0));
        if s.hedge_after_ms.is_some() {
            format!(
                "{rate}, {} sent again ({} in all)",
                fmt_pct(r.hedges as f64 / first_tries as f64),
                fmt_count(r.dep_calls as f64)
            )
        } else {
            format!("{rate} ({} in all)", fmt_count(r.dep_calls as f64))
        }
    } else {
        fmt_count(r.dep_calls as f64)
    };
    row("fig-dep-calls", "Calls to the dependency", run, {
        let approx = if d.calls_rps_exact { "" } else { " (approx.)" };
        match (d.calls_rps, d.hedge_share) {
            (Some(c), Some(h)) => format!(
                "{} calls/s, {} sent again{approx}",
                fmt_num(c, 0),
                fmt_pct(h)
            ),
            (Some(c), None) => {
                match th
                    .dep_calls_sent_rps(s)
                    .filter(|sent| *sent > c * (1.0 + 1e-9))
                {
                    // Past the dependency's limit the calls are still sent (and
                    // counted) as requests reach the wait step; only `c` a
                    // second are served, the rest wait for a connection or slot.
                    Some(sent) => format!(
                        "{} calls/s sent, {} served{approx}",
                        fmt_num(sent, 0),
                        fmt_num(c, 0)
                    ),
                    None => format!("{} calls/s{approx}", fmt_num(c, 0)),
                }
            }
            _ => "—".into(),
        }
    });
    if let Some(u) = r.dep_utilisation {
        row(
            "fig-dep-busy",
            "Dependency slots busy",
            fmt_pct(u),
            dep_slots_busy_text(th),
        );
    }
    let wait = |w: &tellers_sim::report::QueueWait| fmt_ms_pair(w.mean, w.p99);
    let erlang = if th.dep.wait_exact {
        "Erlang C"
    } else {
        "Erlang C, approx."
    };
    let mean_theory =
        |x: Option<f64>| x.map_or("—".into(), |m| format!("mean {} ({erlang})", fmt_ms(m)));
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
            // Theory's step has no line at the dependency: with a limit
            // there, calls may also wait in its line (theory says which).
            if !d.wait_step_exact {
                format!(
                    "mean {}{p99}{slow} (approx.: with no line at the dependency)",
                    fmt_ms(d.wait_step_ms)
                )
            } else {
                format!("mean {}{p99}{slow}", fmt_ms(d.wait_step_ms))
            },
        );
    }
}

/// The thread limit's theory cell when threads do not limit the rate.
/// Threads per request without a cap still wait (for cores, off the CPU);
/// they are just never too few. An event loop holds no thread while a
/// request waits.
fn no_thread_limit(model: Model) -> &'static str {
    match model {
        Model::ThreadPerRequest => "none: threads are not capped",
        // Steps wait for a free worker, but a worker holds a step only
        // while it computes: its limit is CPU time.
        Model::EventLoopWorkers => {
            "none: no thread is held while a request waits; the workers' limit is in the CPU limit"
        }
        _ => "none: no thread waits",
    }
}

/// Which part of the CPU gives the CPU limit, after its figure: nothing
/// for the cores; for event loop + workers, the loops' or the workers'
/// steps and the cores those can use ("the workers' steps: 1 worker, a
/// core each"), so a limit of one worker's core is not read as the
/// cores' while most of them idle.
fn cpu_part_text(s: &Scenario, part: CpuPart) -> String {
    let on = |n: u32, what: &str| {
        if n <= s.cores {
            format!("{}, a core each", plural(u64::from(n), what))
        } else {
            format!("on all {}", plural(u64::from(s.cores), "core"))
        }
    };
    match part {
        CpuPart::Cores => String::new(),
        CpuPart::Loops => format!(" (the loops' own steps: {})", on(s.loop_count(), "loop")),
        CpuPart::Workers => format!(
            " (the workers' steps: {})",
            on(s.worker_threads(), "worker")
        ),
    }
}

/// Little's law beside the requests inside: the rate let in × mean
/// response time (the report's `littles_law_in_flight`). Refused requests
/// spend no time inside, so with refusals the rate is the admitted one.
/// The rate keeps three figures, so the product can be checked by hand.
/// Where requests left unserved or many are still inside, it says whom
/// the law's figure leaves out ([`Report::littles_law_gap`]): with a
/// growing backlog that can be most of those inside.
pub fn littles_law_text(r: &Report) -> String {
    let rate = if r.refused == 0 {
        "rps"
    } else {
        "admitted rps"
    };
    let (lambda, w, sign) =
        product_terms(r.admitted_rps, r.latency_ms.mean, r.littles_law_in_flight);
    format!(
        "{lambda} {rate} × {w} {sign} {}{}",
        fmt_count(r.littles_law_in_flight),
        r.littles_law_gap()
            .map_or(String::new(), |g| format!(", leaving out {}", g.text()))
    )
}

/// λ (rps) and W (`mean_ms`, shown in seconds) as Little's law shows them
/// beside `product` (requests), and the sign between: to about three
/// figures, or with a decimal more where three made the sum read wrong by
/// hand ("399 rps × 0.100 s = 40.0", of 399.4 rps and 100.3 ms); "≈"
/// where even that rounds to another last digit. W is in seconds, as the
/// law multiplies it: "398.7 rps × 100.2 ms ≈ 40.0" is the slip lesson 4
/// warns of (read as written, it is 39,950).
fn product_terms(rate_rps: f64, mean_ms: f64, product: f64) -> (String, String, &'static str) {
    let shown = fmt_count(product);
    let w = mean_ms / 1e3;
    let (dr, dw) = (decimals_for(rate_rps), seconds_decimals(w));
    let round = |x: f64, d: usize| {
        let k = 10f64.powi(d as i32);
        (x * k).round() / k
    };
    let reads_right =
        |extra: usize| fmt_count(round(rate_rps, dr + extra) * round(w, dw + extra)) == shown;
    let extra = usize::from(!reads_right(0));
    let sign = if reads_right(extra) { "=" } else { "≈" };
    (
        fmt_num(rate_rps, dr + extra),
        format!("{} s", fmt_num(w, dw + extra)),
        sign,
    )
}

/// Decimals that keep about three significant figures of `s` seconds,
/// below one second too (0.100, 0.0200; [`decimals_for`] keeps two).
fn seconds_decimals(s: f64) -> usize {
    if s >= 1.0 || s <= 0.0 {
        decimals_for(s)
    } else {
        (2.0 - s.log10().floor()).min(6.0) as usize
    }
}

/// A theory figure as text with how it stands against a run: "43",
/// "43 (approx.)", or "at least 36" for a floor.
fn bounded(figure: &str, bound: Bound) -> String {
    match bound {
        Bound::Exact => figure.to_owned(),
        Bound::Approx => format!("{figure} (approx.)"),
        Bound::AtLeast => format!("at least {figure}"),
    }
}

/// Theory's share of the dependency's slots busy, as the simulator
/// measures it ([`DepTheory::slots_busy`]), "(approx.)" unless the
/// dependency gets the calls theory counts.
///
/// [`DepTheory::slots_busy`]: tellers_sim::theory::DepTheory::slots_busy
pub fn dep_slots_busy_text(th: &Theory) -> String {
    th.dep.slots_busy.map_or("—".into(), |u| {
        format!(
            "{}{}",
            fmt_pct(u),
            if th.dep.calls_exact { "" } else { " (approx.)" }
        )
    })
}

/// The report as the CLI's `--json` prints it: no series.
pub fn report_json(r: &Report) -> String {
    r.to_json(false)
}

#[cfg(test)]
mod tests {
    use super::*;
    use tellers_sim::presets::preset;
    use tellers_sim::theory::theory;
    use tellers_sim::window::warming_up;
    use tellers_sim::{Dist, StoppedBy};

    /// [`approx_fold`] in one line, as the tests read it.
    fn approx_note(th: &Theory) -> Option<String> {
        approx_fold(th).map(|f| f.to_string())
    }

    /// [`curve_approx_fold`] in one line.
    fn curve_approx_note(points_th: &Theory, th: &Theory) -> Option<String> {
        curve_approx_fold(points_th, th).map(|f| f.to_string())
    }

    #[test]
    fn the_signs_are_heard_by_their_titles_once_measured() {
        let s = Scenario::default();
        let th = theory(&s);
        assert_eq!(signs_heard(&s, &Report::default(), &th), "");
        let r = tellers_sim::simulate(&Scenario {
            rps: 400.0,
            duration_s: 20.0,
            ..s.clone()
        })
        .unwrap();
        let heard = signs_heard(&s, &r, &th);
        assert!(
            heard.starts_with("Reading the signs: The pool is the limit."),
            "{heard}"
        );
        // Titles only: no figure that changes with every report.
        assert!(!heard.chars().any(|c| c.is_ascii_digit()), "{heard}");
    }

    #[test]
    fn the_memory_row_says_used_counts_connection_state() {
        // An event loop's memory in use is its connections' state, far
        // above its few stacks: the row must not call it stack memory.
        let s = tellers_sim::presets::preset("c10k-event-loop").unwrap();
        let r = tellers_sim::simulate(&Scenario {
            duration_s: 5.0,
            ..s.clone()
        })
        .unwrap();
        assert!(r.peak_memory_used_mb > r.peak_memory_reserved_mb);
        let rows = figure_rows(&s, &r, &theory(&s));
        let mem = rows.iter().find(|r| r.key == "fig-memory").unwrap();
        assert!(mem.label.contains("connection state"), "{}", mem.label);
        assert!(!mem.label.starts_with("Stack memory"), "{}", mem.label);
        // A pool of threads keeps no state per connection beside its
        // stacks: its row does not say it counts any.
        let pool = tellers_sim::presets::preset("sale-day").unwrap();
        let r = tellers_sim::simulate(&Scenario {
            duration_s: 5.0,
            ..pool.clone()
        })
        .unwrap();
        let rows = figure_rows(&pool, &r, &theory(&pool));
        let mem = rows.iter().find(|r| r.key == "fig-memory").unwrap();
        assert_eq!(
            mem.label,
            "Memory (peak): reserved for stacks / in use (stacks)"
        );
    }

    /// Lesson 16's hedges on 160 slots: the sign says the limit is 80 rps
    /// (every call sent twice); the row gave 152 alone.
    #[test]
    fn the_dependency_row_gives_the_limit_hedges_can_tip_it_to() {
        let s = Scenario {
            dep_concurrency: Some(160),
            duration_s: 5.0,
            ..preset("fan-out-100-hedged").unwrap()
        };
        let r = tellers_sim::simulate(&s).unwrap();
        let rows = figure_rows(&s, &r, &theory(&s));
        let dep = rows.iter().find(|r| r.key == "fig-dep-limit").unwrap();
        assert!(dep.theory.starts_with("152 rps"), "{}", dep.theory);
        assert!(
            dep.theory.ends_with(&format!(
                "; {} once every call is sent twice",
                fmt_rps(80.0)
            )),
            "{}",
            dep.theory
        );
        // The throughput names both states too: the run melted down to 80
        // beside a theory of 100 alone.
        let tput = rows.iter().find(|r| r.key == "fig-throughput").unwrap();
        assert!(
            tput.theory.starts_with("100 rps")
                && tput.theory.ends_with(&format!(
                    ", or {} once every call is sent twice",
                    fmt_rps(80.0)
                )),
            "{}",
            tput.theory
        );
        // With room to spare even when every call is sent twice: one limit.
        let roomy = Scenario {
            dep_concurrency: Some(1000),
            ..s
        };
        let rows = figure_rows(&roomy, &r, &theory(&roomy));
        let dep = rows.iter().find(|r| r.key == "fig-dep-limit").unwrap();
        assert!(!dep.theory.contains("twice"), "{}", dep.theory);
        let tput = rows.iter().find(|r| r.key == "fig-throughput").unwrap();
        assert!(!tput.theory.contains("twice"), "{}", tput.theory);
    }

    #[test]
    fn theory_says_once_that_it_gives_no_response_time() {
        let s = Scenario {
            arrivals: Arrivals::Uniform,
            ..Scenario::default()
        };
        let note = approx_note(&theory(&s)).unwrap();
        assert_eq!(note.matches("no response time").count(), 1, "{note}");
    }

    #[test]
    fn the_calls_row_gives_the_run_as_theory_gives_it_a_rate() {
        let s = Scenario {
            duration_s: 5.0,
            ..preset("fan-out-100-hedged").unwrap()
        };
        let r = tellers_sim::simulate(&s).unwrap();
        let rows = figure_rows(&s, &r, &theory(&s));
        let calls = rows.iter().find(|r| r.key == "fig-dep-calls").unwrap();
        let rate = fmt_num(r.dep_calls as f64 / r.sim_time_s, 0);
        assert!(
            calls.sim.starts_with(&format!("{rate} calls/s, "))
                && calls.sim.contains(" sent again ("),
            "{}",
            calls.sim
        );
        assert!(calls.theory.contains("calls/s"), "{}", calls.theory);
    }

    /// Reads and writes of 2 ms are two loop steps of 2 ms, as the engine
    /// measures them (the table said "mean step 4 ms", a request's whole
    /// CPU); with workers, which steps stay on the loop is not a formula.
    #[test]
    fn the_loop_rows_mean_step_is_a_step_not_a_request() {
        let s = Scenario {
            model: Model::EventLoop,
            cores: 1,
            loops: 1,
            cpu_ms: 2.0,
            cpu_dist: Dist::Const,
            write_ms: 2.0,
            wait_ms: 0.0,
            rps: 50.0,
            duration_s: 20.0,
            ..Scenario::default()
        };
        let r = tellers_sim::simulate(&s).unwrap();
        let rows = figure_rows(&s, &r, &theory(&s));
        let row = rows.iter().find(|r| r.key == "fig-loop-block").unwrap();
        assert_eq!(row.theory, format!("mean step {}", fmt_ms(2.0)));
        // (A switch to the loop now and then adds a few µs.)
        assert!((r.loop_block_ms.unwrap().mean - 2.0).abs() < 0.01);
        let workers = Scenario {
            model: Model::EventLoopWorkers,
            ..s
        };
        let r = tellers_sim::simulate(&workers).unwrap();
        let rows = figure_rows(&workers, &r, &theory(&workers));
        let row = rows.iter().find(|r| r.key == "fig-loop-block").unwrap();
        assert_eq!(row.theory, "—");
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
        // With a line limit the excess is refused: no growth is claimed.
        let limited = Scenario {
            queue_limit: Some(10),
            ..s.clone()
        };
        let r = tellers_sim::simulate(&limited).unwrap();
        let rows = figure_rows(&limited, &r, &theory(&limited));
        let get = |k: &str| rows.iter().find(|r| r.key == k).unwrap().clone();
        assert_eq!(get("fig-mean").theory, "—");
        assert_eq!(get("fig-growth").theory, "—");
        assert!(r.queue_len_end <= 10);
        assert!(get("fig-inside").theory.contains("rps ×"));
        assert!(rows.iter().all(|r| r.key != "fig-loop-block"));
    }

    #[test]
    fn the_cpu_limit_says_when_the_workers_or_the_loops_give_it() {
        // One worker for 10 ms of CPU a request on 8 cores: the worker's
        // core gives the limit, 100 rps.
        let s = preset("one-worker-limit").unwrap();
        let th = theory(&s);
        let rows = figure_rows(&s, &Report::default(), &th);
        let cpu = rows.iter().find(|r| r.key == "fig-cpu-limit").unwrap();
        assert_eq!(
            cpu.theory,
            "100 rps (the workers' steps: 1 worker, a core each) ← the limit"
        );
        let threads = rows.iter().find(|r| r.key == "fig-thread-limit").unwrap();
        assert!(
            threads
                .theory
                .ends_with("the workers' limit is in the CPU limit"),
            "{}",
            threads.theory
        );
        let loops = Scenario {
            workers: 8,
            handoff_ms: 8.0,
            ..s
        };
        let rows = figure_rows(&loops, &Report::default(), &theory(&loops));
        let cpu = rows.iter().find(|r| r.key == "fig-cpu-limit").unwrap();
        assert!(
            cpu.theory
                .contains(" (the loops' own steps: 1 loop, a core each)"),
            "{}",
            cpu.theory
        );
        let mm4 = preset("mm4").unwrap();
        let rows = figure_rows(&mm4, &Report::default(), &theory(&mm4));
        let cpu = rows.iter().find(|r| r.key == "fig-cpu-limit").unwrap();
        assert!(!cpu.theory.contains("steps"), "{}", cpu.theory);
    }

    #[test]
    fn a_run_that_ended_with_nothing_measured_says_so_not_measuring() {
        // Every request is hopeless (a 50 ms timeout, 100 ms of fixed work)
        // and dropped as a thread takes it: no response time is ever
        // measured. While the run goes on the rows say "measuring…"; once
        // it has ended they say "not measured", and the note says why.
        let s = Scenario {
            model: Model::ThreadPool,
            cpu_ms: 100.0,
            cpu_dist: Dist::Const,
            wait_ms: 0.0,
            timeout_ms: Some(50.0),
            drop_hopeless: true,
            duration_s: 10.0,
            ..preset("mm1").unwrap()
        };
        let r = tellers_sim::simulate(&s).unwrap();
        assert!(
            r.finished && r.measured == 0 && r.dropped_hopeless > 0,
            "{r:?}"
        );
        let mean = |r: &Report| row_of("fig-mean", &s, r).sim;
        assert_eq!(mean(&r), "not measured");
        // Little's law's row has nothing to wait for either.
        let inside = |r: &Report| row_of("fig-inside", &s, r);
        let ended = inside(&r);
        assert_eq!(
            (ended.sim.as_str(), ended.theory.as_str()),
            ("not measured", "—")
        );
        let note = measuring_note(&s, &r).unwrap();
        assert!(note.contains("before the run stopped"), "{note}");
        let running = Report {
            finished: false,
            ..r
        };
        assert_eq!(mean(&running), "measuring…");
        assert_eq!(inside(&running).theory, "λ·W once measured");
    }

    #[test]
    fn a_run_with_no_work_says_no_time_passed() {
        // One request with no work ends at 0 s: the rates would divide by
        // no time at all (the engine floors the window at 1 ns, giving
        // 1e9 rps), so the windowed rows say why they are empty, and a
        // run not started yet still says so.
        let s = Scenario {
            requests: Some(1),
            cpu_ms: 0.0,
            wait_ms: 0.0,
            ..preset("mm1").unwrap()
        };
        let r = tellers_sim::engine::simulate(&s).unwrap();
        assert_eq!(r.completed, 1);
        assert_eq!(r.sim_time_s, 0.0);
        let rows = figure_rows(&s, &r, &theory(&s));
        let tput = rows.iter().find(|r| r.key == "fig-throughput").unwrap();
        assert_eq!(tput.sim, "no time passed");
        for row in &rows {
            assert!(
                !row.sim.contains("inf") && !row.sim.contains("NaN"),
                "{row:?}"
            );
        }
        let rows = figure_rows(&s, &Report::default(), &theory(&s));
        let tput = rows.iter().find(|r| r.key == "fig-throughput").unwrap();
        assert_eq!(tput.sim, "not run yet");
        // Counts too: no bold 0 before anything ran.
        for row in &rows {
            assert_eq!(row.sim, "not run yet", "{row:?}");
            assert!(row.pending, "{row:?}");
        }
        assert!(tput.pending);
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
        // A run of half a second: while it runs its 0.45 s past the
        // warm-up are too short to read; once it has finished they are its
        // figures.
        let half = Scenario {
            duration_s: 0.5,
            ..Scenario::default()
        };
        let running = Report {
            sim_time_s: 0.3,
            warmup_s: 0.05,
            completed: 40,
            measured: 35,
            ..Report::default()
        };
        assert!(warming_up(&running));
        assert_eq!(
            measuring_note(&half, &running).unwrap(),
            "Measuring: the figures and signs appear once a second past the warm-up has run, or when the run ends."
        );
        let ended = Report {
            sim_time_s: 0.5,
            finished: true,
            ..running
        };
        assert!(!warming_up(&ended));
        assert_eq!(window(&ended), Window::Measured);
        assert_eq!(measuring_note(&half, &ended), None);
    }

    /// `s` run up to `t_s` simulated seconds, as the animation would.
    fn report_at(s: &Scenario, t_s: f64) -> Report {
        let mut sim = tellers_sim::Simulation::new(s).unwrap();
        while sim.run_until((t_s * 1e9) as u64, 10_000) && sim.now() < (t_s * 1e9) as u64 {}
        sim.report()
    }

    #[test]
    fn an_overloaded_run_past_its_warm_up_says_measuring_never_zero() {
        // Sale day: 2 s of warm-up leave a line of about 400, which takes
        // about 2 s more to clear; 1.2 s after the warm-up nobody who
        // arrived since has finished.
        let s = preset("sale-day").unwrap();
        let th = theory(&s);
        let r = report_at(&s, 3.2);
        assert_eq!(window(&r), Window::Measuring);
        assert_eq!(
            r.latency_ms.mean, 0.0,
            "the report has no response time yet"
        );
        let rows = figure_rows(&s, &r, &th);
        let get = |k: &str| rows.iter().find(|r| r.key == k).unwrap().clone();
        for k in ["fig-mean", "fig-p50", "fig-p99", "fig-inside"] {
            assert_eq!(get(k).sim, "measuring…", "{k}");
        }
        assert!(!get("fig-inside").theory.contains("= 0"));
        assert!(
            get("fig-throughput").sim.ends_with("rps"),
            "rates are measured"
        );
        let note = measuring_note(&s, &r).unwrap();
        assert!(
            note.starts_with("Measuring:") && note.contains("The line already says"),
            "{note}"
        );
        // The wait and the rate it comes from, in one clause (it read "at
        // the 10.0 rps the server finishes that is about 180 s").
        assert!(
            note.contains(" ahead of the newest, about ") && note.contains(" of waiting at the "),
            "{note}"
        );
        // A run that ends so says how long its warm-up was (lesson 14's
        // 40 s read as a few seconds).
        let short = Scenario {
            duration_s: 6.0,
            warmup: 0.67,
            ..s.clone()
        };
        let cut = tellers_sim::simulate(&short).unwrap();
        let note = measuring_note(&short, &cut).unwrap();
        assert!(
            note.starts_with("No request that arrived after the warm-up (the first "),
            "{note}"
        );
        // Once someone who came after the warm-up has finished, the figures show.
        let later = report_at(&s, 8.0);
        assert_eq!(window(&later), Window::Measured);
        assert!(measuring_note(&s, &later).is_none());
        assert!(figure_rows(&s, &later, &th)
            .iter()
            .all(|r| r.sim != "measuring…"));
    }

    #[test]
    fn a_run_a_bound_stopped_says_what_was_not_measured() {
        let s = Scenario {
            rps: 1_000_000.0,
            threads: 100_000,
            ..Scenario::default()
        };
        let th = theory(&s);
        let r = Report {
            sim_time_s: 1.0,
            warmup_s: 1.0,
            stopped_by: StoppedBy::InFlightLimit,
            ..Report::default()
        };
        let rows = figure_rows(&s, &r, &th);
        let mean = rows.iter().find(|r| r.key == "fig-mean").unwrap();
        assert_eq!(mean.sim, "not measured");
        assert!(measuring_note(&s, &r)
            .unwrap()
            .contains("stopped inside its 6.0 s warm-up"));
        // A run of a millisecond has a warm-up of a tenth of one, said so
        // (it was "its 0.0 s warm-up").
        let blink = Scenario {
            duration_s: 0.001,
            ..s.clone()
        };
        let r_blink = Report {
            sim_time_s: 0.000_05,
            warmup_s: 0.000_05,
            ..r.clone()
        };
        assert_eq!(
            measuring_note(&blink, &r_blink).unwrap(),
            "Nothing was measured: the run stopped inside its 0.10 ms warm-up."
        );
        assert!(stop_note(&s, &r, &th)
            .unwrap()
            .contains("1,000,000 requests arrive each second"));
        assert!(stop_note(&s, &Report::default(), &th).is_none());
        // Ten minutes of CPU a request: the server finishes a fraction of
        // one a second, not "about 0".
        let slow = Scenario {
            cpu_ms: 600_000.0,
            ..Scenario::default()
        };
        let note = stop_note(&slow, &r, &theory(&slow)).unwrap();
        assert!(
            note.contains("the server can finish less than one,"),
            "{note}"
        );
        assert!(note.contains("Lower the arrival rate,"), "{note}");
        // Under a load schedule the schedule sets the load, not the slider.
        let scheduled = tellers_sim::presets::preset("spike-metastable").unwrap();
        let note = stop_note(&scheduled, &r, &theory(&scheduled)).unwrap();
        assert!(
            note.contains("Lower the rates in the load schedule,"),
            "{note}"
        );
        let budget = Report {
            stopped_by: StoppedBy::EventBudget,
            ..r.clone()
        };
        let note = stop_note(&scheduled, &budget, &theory(&scheduled)).unwrap();
        assert!(note.contains("A shorter run length or lowering the rates in the load schedule needs fewer events."), "{note}");
        assert!(!note.contains("time slice"), "{note}");
        let note = stop_note(&slow, &budget, &theory(&slow)).unwrap();
        assert!(
            note.contains("or lowering the arrival rate needs"),
            "{note}"
        );
        // 600 s of CPU in 4 ms slices: the slices are the events to cut.
        assert!(
            note.contains("Each request's CPU is about 150,000 time slices,")
                && note.contains(": a longer time slice needs fewer."),
            "{note}"
        );
        let calls = Report {
            stopped_by: StoppedBy::CallLimit,
            ..r.clone()
        };
        let note = stop_note(&slow, &calls, &theory(&slow)).unwrap();
        assert!(
            note.contains("more than 2,000,000 calls to the dependency")
                && note.contains("Lower the calls per request or the arrival rate,"),
            "{note}"
        );
        let conns = Report {
            stopped_by: StoppedBy::ConnLimit,
            ..r.clone()
        };
        let note = stop_note(&slow, &conns, &theory(&slow)).unwrap();
        assert!(
            note.contains("more than 1,000,000 connections were open at once")
                && note.contains("lower the arrival rate, the think time between requests or the requests per connection, or set the most open connections so"),
            "{note}"
        );
    }

    #[test]
    fn every_lesson_widget_shows_the_figures_its_lesson_asks_about() {
        use tellers_course::Segment;
        let mut checked = 0;
        for lesson in &crate::course_data::compiled_course().lessons {
            for seg in &lesson.segments {
                let Segment::Sim(b) = seg else { continue };
                if b.view == "curve" {
                    continue;
                }
                checked += 1;
                let s = &b.scenario;
                let r = tellers_sim::simulate(&Scenario {
                    duration_s: s.duration_s.min(5.0),
                    ..s.clone()
                })
                .unwrap();
                // Before the run (an empty report) and after it.
                for r in [Report::default(), r] {
                    let rows = compact_rows(&b.figures, s, &r, &theory(s));
                    assert!(
                        !rows.is_empty(),
                        "lesson {}: the widget '{}' shows no figures",
                        lesson.slug,
                        b.caption
                    );
                    let all = figure_rows(s, &r, &theory(s));
                    for f in &b.figures {
                        let key = row_key(f).unwrap_or_else(|| panic!("{f} has no row"));
                        assert!(
                            all.iter().any(|r| r.key == key),
                            "lesson {}: {f} needs row {key}, which this scenario does not show",
                            lesson.slug
                        );
                    }
                }
            }
        }
        assert!(checked >= 20, "only {checked} widgets in the course");
    }

    #[test]
    fn the_busy_row_names_what_the_model_has() {
        let label = |model| {
            let s = Scenario {
                model,
                ..preset("sale-day").unwrap()
            };
            let r = Report::default();
            let rows = figure_rows(&s, &r, &theory(&s));
            rows.iter()
                .find(|r| r.key == "fig-busy")
                .unwrap()
                .label
                .clone()
        };
        assert_eq!(label(Model::ThreadPool), "Busy threads (mean)");
        assert_eq!(label(Model::ThreadPerRequest), "Busy threads (mean)");
        assert_eq!(label(Model::EventLoop), "Busy event loops (mean)");
        assert_eq!(
            label(Model::EventLoopWorkers),
            "Busy loops and workers (mean)"
        );
    }

    #[test]
    fn theory_names_the_rate_it_works_from_when_the_load_changes() {
        // The retry storm's schedule: 150 a second, then 400 for 5 s.
        let storm = preset("spike-metastable").unwrap();
        let heading = theory_heading(&theory(&storm));
        assert!(
            heading.starts_with("Theory at 150") && heading.ends_with("rps, the first step"),
            "{heading}"
        );
        assert_eq!(
            theory_heading(&theory(&preset("sale-day").unwrap())),
            "Theory"
        );
        // A schedule whose every step is the same rate is a steady load.
        let flat = Scenario {
            rps_schedule: "0:400,10:400".parse().ok(),
            ..preset("sale-day").unwrap()
        };
        assert_eq!(theory_heading(&theory(&flat)), "Theory");
    }

    #[test]
    fn a_row_named_by_a_response_time_figure_shows_that_figure() {
        // Lesson 17 quotes a p90 its widget once did not show: the row a
        // figure names must hold the figure's own value.
        let s = Scenario {
            duration_s: 20.0,
            ..preset("sale-day").unwrap()
        };
        let r = tellers_sim::simulate(&s).unwrap();
        let l = &r.latency_ms;
        for (figure, value) in [
            ("latency_mean_ms", l.mean),
            ("latency_p50_ms", l.p50),
            ("latency_p90_ms", l.p90),
            ("latency_p99_ms", l.p99),
            ("latency_p999_ms", l.p999),
            ("latency_max_ms", l.max),
        ] {
            let rows = compact_rows(&[figure.to_owned()], &s, &r, &theory(&s));
            let shown = fmt_ms(value);
            let number = shown.trim_end_matches(" ms");
            assert!(
                rows.len() == 1 && rows[0].sim.contains(number),
                "{figure} = {shown}, but its row shows {rows:?}"
            );
        }
    }

    #[test]
    fn approximate_theory_says_why() {
        // Twenty threads at 150 rps: the p99 takes an exponential tail
        // for their time held (10 ms of CPU, then a 90 ms wait).
        let pool = theory(&Scenario {
            rps: 150.0,
            ..preset("sale-day").unwrap()
        });
        let note = approx_note(&pool).unwrap();
        assert!(
            note.starts_with("Approx.:") && note.contains("p99"),
            "{note}"
        );
        for exact in ["mm1", "md1"] {
            assert!(
                approx_note(&theory(&preset(exact).unwrap())).is_none(),
                "{exact}"
            );
        }
    }

    #[test]
    fn without_a_response_time_theory_still_gives_its_reasons() {
        // The slowest of 10 calls through the dependency's 50 slots.
        let fan = Scenario {
            model: Model::EventLoop,
            cores: 8,
            loops: 8,
            accept: tellers_sim::Accept::Shared,
            cpu_ms: 0.5,
            wait_ms: 10.0,
            fan_out: 10,
            dep_concurrency: Some(50),
            rps: 300.0,
            ..Scenario::default()
        };
        let th = theory(&fan);
        assert!(th.mean_ms.is_none() && th.p99_ms.is_none());
        let note = approx_note(&th).unwrap();
        assert!(
            note.starts_with("Theory gives no response time here.")
                && note.contains("no formula: the slowest of N calls"),
            "{note}"
        );
        // Under a table with a response-time row, or every row, the lead
        // stays; under one of the CPU and the line alone it would name a
        // row the table does not show.
        let lead = |figures: &[&str]| {
            let figures: Vec<String> = figures.iter().map(|f| f.to_string()).collect();
            approx_fold_for(&th, &figures).unwrap().lead
        };
        assert_eq!(lead(&[]), "Theory gives no response time here.");
        assert_eq!(
            lead(&["cpu_utilisation", "latency_p99_ms"]),
            "Theory gives no response time here."
        );
        assert_eq!(lead(&["cpu_utilisation", "queue_len_end"]), "");
        // Past the limit the rows say "grows without limit", and the lead
        // says the same (it said "no response time", lesson 1's try-it).
        let over = theory(&preset("sale-day").unwrap());
        assert!(over.mean_ms.is_none());
        assert_eq!(
            approx_fold(&over).unwrap().lead,
            "Theory's response times grow without limit here."
        );
        // With no reason to give, the lead is said all the same: the sale
        // day's four loops at exactly 400 rps showed "grows without limit"
        // rows with no word under them (the pool's sale day had its lead).
        let full = theory(&preset("sale-day-event-loop").unwrap());
        assert!(full.at_full_load() && full.mean_ms.is_none());
        let fold = approx_fold(&full).unwrap();
        assert_eq!(
            (fold.lead.as_str(), fold.why.as_str()),
            ("Theory's response times grow without limit here.", "")
        );
        assert_eq!(
            fold.to_string(),
            "Theory's response times grow without limit here."
        );
        assert!(approx_fold_for(&full, &["cpu_utilisation".into()]).is_none());
        // Served newest first, the rows give no formula for the times; the
        // lead said they "grow without limit" under them.
        let lifo = theory(&preset("overload-adaptive-lifo").unwrap());
        assert!(lifo.newest_first && lifo.grows_without_limit());
        assert_eq!(
            approx_fold(&lifo).unwrap().lead,
            "Theory's line grows without limit here; it has no formula for the times of requests served newest first."
        );
        assert!(approx_fold_for(&th, &["cpu_utilisation".into()])
            .unwrap()
            .why
            .contains("slowest"));
        // A load that starts above the limit, then changes.
        let mm1 = preset("mm1").unwrap();
        let cap = theory(&mm1).capacity.capacity_rps;
        let changing = Scenario {
            rps_schedule: Some(
                tellers_sim::schedule::Schedule::new(&[(0.0, cap * 1.2), (300.0, cap * 0.5)])
                    .unwrap(),
            ),
            ..mm1
        };
        let th = theory(&changing);
        assert!(th.mean_ms.is_none());
        let note = approx_note(&th).unwrap();
        assert!(note.contains("the load changes during the run"), "{note}");
        // Evenly spaced arrivals say why there is no response time.
        let even = Scenario {
            arrivals: Arrivals::Uniform,
            ..preset("mm4").unwrap()
        };
        let note = approx_note(&theory(&even)).unwrap();
        assert!(note.contains("evenly spaced"), "{note}");
    }

    #[test]
    fn theorys_model_of_the_line_is_the_scenarios_own() {
        let model = |s: &Scenario| theory_of("fig-model", s, &Report::default());
        let mm4 = preset("mm4").unwrap();
        assert_eq!(model(&mm4), "M/M/4 at the 4 cores");
        let even = Scenario {
            arrivals: Arrivals::Uniform,
            ..mm4.clone()
        };
        assert_eq!(model(&even), "D/M/4 at the 4 cores");
        let batch = Scenario {
            arrivals: Arrivals::Batch,
            count: 100,
            ..mm4
        };
        assert!(model(&batch).starts_with("none: 100 requests all at once"));
    }

    #[test]
    fn fixed_calls_have_no_share_slower_than_their_p99() {
        let wait_step = |s: &Scenario| theory_of("fig-wait-step", s, &Report::default());
        let exp = Scenario {
            fan_out: 100,
            ..Scenario::default()
        };
        assert!(wait_step(&exp).contains("63 % meet a call slower than its p99"));
        let fixed = Scenario {
            wait_dist: Dist::Const,
            ..exp
        };
        let text = wait_step(&fixed);
        assert!(!text.contains("slower than"), "{text}");
        assert!(!wait_step(&exp).contains("approx."));
        // Calls that may wait in a line at the dependency: theory's step
        // has no line, and says so.
        let limited = Scenario {
            dep_concurrency: Some(500),
            ..exp
        };
        assert!(
            wait_step(&limited).ends_with("(approx.: with no line at the dependency)"),
            "{}",
            wait_step(&limited)
        );
    }

    #[test]
    fn the_tellers_heading_names_loops_and_workers_apart() {
        let named = |alive: u64, loops: u64| {
            tellers_named(&Snapshot {
                tellers_alive: alive,
                loops,
                ..Snapshot::default()
            })
        };
        assert_eq!(named(1, 0), "1 thread");
        assert_eq!(named(2_000, 0), "2,000 threads");
        assert_eq!(named(1, 1), "1 event loop");
        assert_eq!(named(4, 4), "4 event loops");
        assert_eq!(named(2, 1), "1 loop and 1 worker");
        assert_eq!(named(64_064, 64), "64 loops and 64,000 workers");
        // Each loop with its own pool: how many are each loop's.
        let own = |alive: u64, loops: u64, per: u32| {
            tellers_named(&Snapshot {
                tellers_alive: alive,
                loops,
                workers_per_loop: per,
                ..Snapshot::default()
            })
        };
        assert_eq!(own(16, 4, 3), "4 loops with 3 workers each");
        // One loop's pool is all the workers there are.
        assert_eq!(own(3, 1, 2), "1 loop and 2 workers");
        let many = Snapshot {
            tellers_alive: 64_064,
            loops: 64,
            ..Snapshot::default()
        };
        assert_eq!(
            tellers_titles(&many),
            [
                "Tellers: 64 loops and 64,000 workers",
                "64 loops and 64,000 workers",
                "Tellers: 64,064"
            ]
        );
    }

    /// Beside workers, the tellers' heading says how many requests wait
    /// for one: the scene showed them nowhere (a loop read 23 beside an
    /// empty line and back office, 22 waiting for the one worker).
    #[test]
    fn the_tellers_heading_counts_the_busy_and_the_wait_for_a_worker() {
        let detail = |busy: u64, loops: u64, worker_line: u64| {
            tellers_detail(&Snapshot {
                tellers_busy: busy,
                tellers_alive: 6,
                loops,
                worker_line,
                ..Snapshot::default()
            })
        };
        assert_eq!(detail(3, 0, 0), "3 busy");
        assert_eq!(detail(3, 6, 0), "3 busy");
        assert_eq!(detail(2, 1, 1), "2 busy; 1 waits for a worker");
        assert_eq!(detail(5, 1, 1234), "5 busy; 1,234 wait for a worker");
    }

    #[test]
    fn the_scene_in_words_counts_one_as_one() {
        let one = Snapshot {
            line: 1,
            cores: 1,
            busy_cores: 1,
            tellers_alive: 1,
            ..Snapshot::default()
        };
        let text = tellers_summary(&one);
        assert!(text.starts_with("1 request in line,"), "{text}");
        assert!(text.contains("1 of 1 core busy, 1 thread,"), "{text}");
        let many = Snapshot {
            line: 7238,
            cores: 4,
            tellers_alive: 20,
            ..Snapshot::default()
        };
        assert!(tellers_summary(&many).starts_with("7,238 requests in line"));
        let offload = Snapshot {
            worker_line: 17,
            loops: 4,
            ..many.clone()
        };
        let text = tellers_summary(&offload);
        assert!(
            text.starts_with("7,238 requests in line, 17 waiting for a worker, 0 waiting off"),
            "{text}"
        );
        assert!(text.contains(", 4 loops and 16 workers,"), "{text}");
        let pool = Snapshot {
            dep: Some(DepView {
                pool: Some(10),
                conns_busy: 10,
                conn_line: 1,
                ..DepView::default()
            }),
            ..many
        };
        assert!(
            tellers_summary(&pool).ends_with(" Connections: 10 of 10 in use; 1 call in line."),
            "{}",
            tellers_summary(&pool)
        );
        // Without a breaker, three outcomes; with one, the tries it
        // blocked too, and where it is, after the dependency's limits.
        assert!(tellers_summary(&pool).contains("0 finished, 0 refused, 0 timed out."));
        let breaker = Snapshot {
            completed: 5,
            breaker: Some(BreakerView {
                state: BreakerState::Open { left_s: 0.42 },
                after: 20,
                broken: 1234,
            }),
            ..pool
        };
        let text = tellers_summary(&breaker);
        assert!(
            text.contains("5 finished, 0 refused, 0 timed out, 1,234 blocked."),
            "{text}"
        );
        assert!(
            text.ends_with("1 call in line. Circuit breaker: open, calls blocked for 0.5 s more."),
            "{text}"
        );
        assert_eq!(
            scene_outcomes(&breaker).last(),
            Some(&(Outcome::Blocked, 1234)),
            "the scene's fourth row"
        );
    }

    #[test]
    fn the_breaker_says_where_it_is_and_what_that_does_to_calls() {
        let line = |state| {
            breaker_line(&BreakerView {
                state,
                after: 20,
                broken: 0,
            })
        };
        let pair = |a: &str, b: &str| (a.to_owned(), b.to_owned());
        assert_eq!(
            line(BreakerState::Closed { failures: 3 }),
            pair("Circuit breaker: closed", "failures in a row: 3 of 20")
        );
        // Time left rounds up, so it says 0.0 s only when its time is up...
        assert_eq!(
            line(BreakerState::Open { left_s: 0.01 }),
            pair("Circuit breaker: open", "calls blocked for 0.1 s more")
        );
        assert_eq!(
            line(BreakerState::Open { left_s: 1.0 }).1,
            "calls blocked for 1.0 s more"
        );
        // ...and then the next call is let through as the trial.
        assert_eq!(
            line(BreakerState::Open { left_s: 0.0 }),
            pair("Circuit breaker: open", "the next call is its trial")
        );
        assert_eq!(
            line(BreakerState::HalfOpen),
            pair(
                "Circuit breaker: half-open",
                "a trial is out; others blocked"
            )
        );
    }

    /// The curve's caption for `s`, as the app writes it.
    fn caption_of(s: &Scenario) -> String {
        let th = theory(s);
        curve_caption(&th, &tellers_sim::sweep::curve_theory(s, &th))
    }

    /// The caption names the model its lines are drawn from, the theory of
    /// the curve's points, which its note explains: with a timeout the
    /// scenario's own theory is M/G/20, and the caption said so above a
    /// note on the pool and its cores (and lines no sweep point follows).
    #[test]
    fn the_curve_caption_names_the_model_of_its_lines_and_note() {
        let s = preset("sale-day-timeout").unwrap();
        let th = theory(&s);
        let points_th = tellers_sim::sweep::curve_theory(&s, &th);
        let text = caption_of(&s);
        assert!(
            text.contains("(one line for the pool and its cores: 20 threads on 4 cores")
                && !text.contains("M/G/20"),
            "{text}"
        );
        let note = curve_approx_note(&points_th, &th).unwrap_or_default();
        assert!(note.contains("shares the cores evenly"), "{note}");
    }

    #[test]
    fn the_curve_caption_places_a_steady_load_and_says_when_the_load_changes() {
        let steady = preset("mm1").unwrap();
        let text = caption_of(&steady);
        assert!(
            text.contains("(M/M/1: 1 worker, 10.0 ms a request)"),
            "{text}"
        );
        assert!(
            text.contains("runs at") && text.contains("theory says") && !text.contains("approx."),
            "{text}"
        );
        // The line of a loop is named as a loop, not a worker: in the
        // lessons a worker beside a loop is a thread of its pool.
        let inline = caption_of(&preset("waf-inline").unwrap());
        assert!(inline.contains(": 1 loop, 2.95 ms a request)"), "{inline}");
        // An approximate mean says so, as the table does.
        let limited = Scenario {
            queue_limit: Some(5),
            ..steady
        };
        let text = caption_of(&limited);
        assert!(text.contains("on average (approx.)."), "{text}");
        let spike = preset("spike-metastable").unwrap();
        let text = caption_of(&spike);
        assert!(text.contains("load changes during the run"), "{text}");
        assert!(!text.contains("theory says"), "{text}");
        // A loop and its pool: the cores' load, not workers of the CPU each.
        let text = caption_of(&preset("waf-offload-round-robin").unwrap());
        assert!(
            text.contains("through a loop and its pool; 2.95 ms of CPU a request on the 4 cores)")
                && !text.contains("workers of"),
            "{text}"
        );
        // A pool on fewer cores: its threads on their cores, and the CPU
        // and the wait each request holds a thread for.
        let text = caption_of(&preset("sale-day-pool-40").unwrap());
        assert!(
            text.contains("(one line for the pool and its cores: 40 threads on 4 cores, 10.0 ms of CPU and 90.0 ms off it a request)"),
            "{text}"
        );
        // No formula for the line: the caption names the line, no model.
        let text = caption_of(&preset("one-worker-limit").unwrap());
        assert!(
            text.starts_with("Response time as the line at the one worker thread gets busier.")
                && !text.contains("M/"),
            "{text}"
        );
    }

    #[test]
    fn the_dependency_shows_each_limit_it_has() {
        let both = DepView {
            pool: Some(1000),
            conns_busy: 999,
            conn_line: 0,
            slots: Some(40),
            slots_busy: 40,
            slot_line: 1234,
        };
        assert_eq!(
            dep_lines(&both),
            [
                (
                    "Connections: 999 of 1,000".to_owned(),
                    "in use; 0 calls in line".to_owned()
                ),
                (
                    "Dependency: 40 of 40".to_owned(),
                    "busy; 1,234 calls in line".to_owned()
                ),
            ]
        );
        assert!(dep_lines(&DepView::default()).is_empty());
    }

    /// M/D/1's curve: both lines exact, so no note, and its p99 dots on
    /// the p99 line. (Its p99 line once came from the exponential tail,
    /// twice the dots, with a note saying they fall below it.) The curve's
    /// points run 20,000 requests: at 50 and 70 % their p99 landed within
    /// 8 % of the line on seeds 1 to 10.
    #[test]
    fn the_m_d_1_curve_has_its_p99_dots_on_the_line() {
        use tellers_sim::sweep::sweep_scenario;
        let s = preset("md1").unwrap();
        let th = theory(&s);
        assert!(approx_note(&th).is_none());
        for rho in [0.5, 0.7] {
            let p = sweep_scenario(&s, &th, rho).unwrap();
            let sim_p99 = tellers_sim::simulate(&p).unwrap().latency_ms.p99;
            let line = th.p99_at(th.servers, rho);
            assert!(
                (sim_p99 / line - 1.0).abs() < 0.12,
                "ρ {rho}: simulated p99 {sim_p99} ms, line {line} ms"
            );
        }
    }

    /// The rows read theory's rounds, threads and stacks, as the learner
    /// has always read them.
    #[test]
    fn at_exactly_full_load_theory_says_the_line_never_settles() {
        let s = preset("sale-day-event-loop").unwrap();
        let th = theory(&s);
        assert!(
            (th.utilisation.unwrap() - 1.0).abs() < 1e-9,
            "{:?}",
            th.utilisation
        );
        let r = Report::default();
        assert_eq!(
            theory_of("fig-growth", &s, &r),
            "0 per s, but it never settles"
        );
        assert_eq!(theory_of("fig-mean", &s, &r), "grows without limit");
        assert_eq!(theory_of("fig-p99", &s, &r), "grows without limit");
        // Below it, theory's own figures.
        let below = Scenario { rps: 360.0, ..s };
        assert_ne!(theory_of("fig-mean", &below, &r), "grows without limit");
        // Evenly spaced with fixed times, exactly full is settled: lesson
        // 1's one thread at 10 a second for 100 ms each never has a line
        // (its theory said "0 per s, but it never settles" beside a run
        // whose line stayed at 0 the whole minute).
        let even = Scenario {
            model: Model::ThreadPool,
            threads: 1,
            cores: 1,
            cpu_ms: 10.0,
            cpu_dist: Dist::Const,
            wait_ms: 90.0,
            wait_dist: Dist::Const,
            arrivals: Arrivals::Uniform,
            rps: 10.0,
            ..Scenario::default()
        };
        let th = theory(&even);
        assert!((th.utilisation.unwrap() - 1.0).abs() < 1e-9);
        assert!(th.no_line && !th.at_full_load() && !th.grows_without_limit());
        assert_eq!(theory_of("fig-growth", &even, &r), "0 per s");
        assert_eq!(theory_of("fig-mean", &even, &r), "100 ms");
        // Random arrivals at the same load wander.
        let random = Scenario {
            arrivals: Arrivals::Poisson,
            ..even
        };
        assert_eq!(
            theory_of("fig-growth", &random, &r),
            "0 per s, but it never settles"
        );
    }

    /// Adaptive LIFO at twice what its pool finishes serves the newest in
    /// about 120 ms: theory's column said the mean and p99 grow without
    /// limit beside a run whose mean held at 117 ms. Only the line grows.
    #[test]
    fn newest_first_overload_does_not_say_response_times_grow_without_limit() {
        let s = preset("overload-adaptive-lifo").unwrap();
        let r = tellers_sim::simulate(&s).unwrap();
        assert!(r.inside_growth_per_s > 10.0, "{r:?}");
        assert!(r.latency_ms.mean < 200.0, "{:?}", r.latency_ms);
        for k in ["fig-mean", "fig-p99"] {
            assert_eq!(theory_of(k, &s, &r), "no formula for newest first", "{k}");
        }
        assert!(theory_of("fig-growth", &s, &r).ends_with("per s"));
        // Oldest first, the same overload's times do grow without limit.
        let fifo = preset("overload-fifo").unwrap();
        let r = tellers_sim::simulate(&fifo).unwrap();
        assert_eq!(theory_of("fig-mean", &fifo, &r), "grows without limit");
    }

    #[test]
    fn the_curves_note_says_which_point_theory_cannot_give() {
        let s = preset("sale-day-planned").unwrap();
        let th = theory(&s);
        let points = tellers_sim::sweep::curve_theory(&s, &th);
        assert!(th.mean_ms.is_some() && points.mean_ms.is_none());
        let note = curve_approx_note(&points, &th).unwrap();
        assert!(
            note.starts_with("Theory gives no response time at the curve's highest point, 95 % of the limit. About its model:"),
            "{note}"
        );
        // Where the scenario itself has none, the note is theory's own.
        let over = preset("sale-day").unwrap();
        let th = theory(&over);
        let points = tellers_sim::sweep::curve_theory(&over, &th);
        assert_eq!(curve_approx_note(&points, &th), approx_note(&points));
    }

    #[test]
    fn a_theory_note_keeps_its_lead_in_view_and_folds_its_reasons() {
        let s = preset("sale-day-planned").unwrap();
        let th = theory(&s);
        let points = tellers_sim::sweep::curve_theory(&s, &th);
        let fold = curve_approx_fold(&points, &th).unwrap();
        assert_eq!(
            fold.lead,
            "Theory gives no response time at the curve's highest point, 95 % of the limit."
        );
        // The curve's fold, named apart from the figures table's.
        assert_eq!(fold.summary(), "About the curve's model");
        assert!(
            fold.reasons().starts_with("The formula shares the cores"),
            "{}",
            fold.reasons()
        );
        assert!(
            fold.reasons().ends_with("(a finite-source model)."),
            "{}",
            fold.reasons()
        );
        // "(approx.)" figures: nothing in view but the fold.
        let twenty = preset("sale-day").unwrap();
        let fold = approx_fold(&theory(&Scenario {
            rps: 150.0,
            ..twenty
        }))
        .unwrap();
        assert_eq!(fold.lead, "");
        assert_eq!(fold.summary(), "Why theory's figures are marked (approx.)");
        // The curve's fold beside it has a name of its own.
        let th = theory(&Scenario {
            rps: 150.0,
            ..preset("sale-day").unwrap()
        });
        let curve = curve_approx_fold(&th, &th).unwrap();
        assert_eq!(
            curve.summary(),
            "Why the curve's theory is marked (approx.)"
        );
        assert!(
            fold.reasons().starts_with(|c: char| c.is_ascii_uppercase()),
            "{}",
            fold.reasons()
        );
        assert!(fold.reasons().contains("p99"), "{}", fold.reasons());
    }

    #[test]
    fn the_batch_and_thread_rows_read_theory() {
        let batch = preset("batch-pool-20").unwrap();
        let r = Report::default();
        assert_eq!(
            theory_of("fig-makespan", &batch, &r),
            "50 rounds × 100 ms = 5.0 s"
        );
        let cpu = Scenario {
            cpu_ms: 1.0,
            count: 20,
            ..batch.clone()
        };
        assert_eq!(
            theory_of("fig-makespan", &cpu, &r),
            format!("1 round × {} = 0.10 s (approx.)", fmt_ms(101.0))
        );
        let loop_batch = preset("batch-event-loop").unwrap();
        assert_eq!(theory_of("fig-makespan", &loop_batch, &r), "—");
        // Before any request has finished, no time is shown for the last.
        let row_of = |s: &Scenario, r: &Report, key: &str| {
            figure_rows(s, r, &theory(s))
                .into_iter()
                .find(|row| row.key == key)
                .unwrap()
        };
        let c10k = preset("c10k-threads").unwrap();
        let mut sim = tellers_sim::Simulation::new(&c10k).unwrap();
        sim.run_until(5_000_000_000, u64::MAX);
        let early = sim.report();
        assert_eq!(early.completed, 0);
        assert_eq!(
            row_of(&c10k, &early, "fig-makespan").sim,
            "none has finished yet"
        );
        // A batch the run cut short: the last finish so far, and how many
        // are still inside.
        let short = Scenario {
            duration_s: 2.0,
            ..preset("batch-pool-20").unwrap()
        };
        let cut = tellers_sim::simulate(&short).unwrap();
        assert!(cut.in_flight_end > 0);
        let said = row_of(&short, &cut, "fig-makespan").sim;
        assert!(
            said.ends_with(&format!(
                " so far ({} still inside)",
                tellers_sim::text::fmt_count(cut.in_flight_end as f64)
            )),
            "{said}"
        );
        // Cut short while the calls left wait to try again, none inside:
        // not "finished at", as if the batch were done.
        let waiting = Report {
            calls: 1000,
            calls_succeeded: 990,
            calls_failed: 4,
            completed: 990,
            makespan_s: 1.5,
            sim_time_s: 2.0,
            events: 5000,
            ..Report::default()
        };
        assert_eq!(
            row_of(&short, &waiting, "fig-makespan").sim,
            "1.5 s so far (6 calls waiting to try again)"
        );
        // Every call answered or failed: the batch is done.
        let done = Report {
            calls_failed: 10,
            ..waiting
        };
        assert_eq!(row_of(&short, &done, "fig-makespan").sim, "1.5 s");
        // With no count of threads, theory shows no product for memory.
        assert_eq!(theory(&c10k).threads, None);
        assert_eq!(row_of(&c10k, &r, "fig-memory").theory, "—");
        // Requests that use no CPU meet no limit: said in words, not ∞.
        assert_eq!(theory_of("fig-throughput", &loop_batch, &r), "no limit");
        assert_eq!(
            theory_of("fig-cpu-limit", &loop_batch, &r),
            "no limit: requests use no CPU"
        );
        assert_eq!(
            theory_of("fig-cpu-limit", &batch, &r),
            "no limit: requests use no CPU"
        );
        assert_eq!(theory_of("fig-peak-threads", &batch, &r), "20 threads");
        assert_eq!(
            theory_of("fig-memory", &batch, &r),
            "20 threads × 1,000 KB = 20 MB"
        );
        let capped = Scenario {
            model: Model::ThreadPerRequest,
            thread_cap: Some(30),
            ..Scenario::default()
        };
        assert_eq!(
            theory_of("fig-peak-threads", &capped, &r),
            "up to 30 threads"
        );
        let even = Scenario {
            model: Model::ThreadPerRequest,
            arrivals: Arrivals::Uniform,
            ..Scenario::default()
        };
        assert!(theory_of("fig-memory", &even, &r).ends_with(" MB (the peak is at least that)"));
        let closed = Scenario {
            arrivals: Arrivals::Closed,
            ..even
        };
        assert_eq!(theory_of("fig-peak-threads", &closed, &r), "—");
        let loops = preset("sale-day-event-loop").unwrap();
        assert!(theory_of("fig-memory", &loops, &r).starts_with("4 loops ×"));
    }

    #[test]
    fn a_run_note_says_not_started_then_measuring_then_nothing() {
        let s = preset("sale-day").unwrap();
        assert_eq!(run_note(&s, &Report::default()), Some(RunNote::NotStarted));
        // Arrivals in the warm-up: measuring, with why.
        let early = Report {
            arrived: 40,
            sim_time_s: 0.5,
            warmup_s: 6.0,
            ..Report::default()
        };
        assert_eq!(
            run_note(&s, &early),
            measuring_note(&s, &early).map(RunNote::Measuring)
        );
        assert!(
            matches!(run_note(&s, &early), Some(RunNote::Measuring(n)) if n.starts_with("Warming up"))
        );
        let done = tellers_sim::simulate(&Scenario {
            duration_s: 10.0,
            ..s.clone()
        })
        .unwrap();
        assert_eq!(run_note(&s, &done), None);
    }

    #[test]
    fn a_run_never_measured_still_says_its_line_keeps_growing() {
        // Lesson 5's one blocking thread: 100 a second in, 10 out; nobody
        // who came after the warm-up finishes in 20 s, so no signs.
        let s = Scenario {
            model: Model::ThreadPool,
            threads: 1,
            cores: 1,
            cpu_ms: 10.0,
            cpu_dist: tellers_sim::Dist::Const,
            wait_ms: 90.0,
            wait_dist: tellers_sim::Dist::Const,
            arrivals: Arrivals::Uniform,
            rps: 100.0,
            duration_s: 20.0,
            ..Scenario::default()
        };
        let r = tellers_sim::simulate(&s).unwrap();
        let note = measuring_note(&s, &r).unwrap();
        assert!(
            note.ends_with("More come in (100 rps) than it finishes: the line keeps growing."),
            "{note}"
        );
        // A line limit that refuses the rest: the line stops, and the
        // note does not say it grows.
        let capped = Scenario {
            queue_limit: Some(10),
            ..s.clone()
        };
        let r = tellers_sim::simulate(&capped).unwrap();
        if let Some(note) = measuring_note(&capped, &r) {
            assert!(!note.contains("keeps growing"), "{note}");
        }
    }

    #[test]
    fn one_thread_is_not_threads() {
        let s = Scenario {
            threads: 1,
            ..Scenario::default()
        };
        let rows = figure_rows(&s, &Report::default(), &theory(&s));
        let mem = rows.iter().find(|r| r.key == "fig-memory").unwrap();
        assert!(mem.theory.starts_with("1 thread ×"), "{}", mem.theory);
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
        assert!(!get("md1").contains("approx"), "{}", get("md1"));
        // A random wait after the CPU line is added as a random time (near the
        // simulated 440 ms), but the pool is not in the formula: approximate.
        let planned = get("sale-day-planned");
        assert!(
            planned.starts_with('4') && planned.contains("approx"),
            "{planned}"
        );
    }

    /// A batch's rows give no rate: its 1,000 requests over the run read as
    /// 200 rps arriving with 20 threads and 10,000 with 1,000, and "0 per s"
    /// of growth while they drained.
    #[test]
    fn a_batch_has_no_arrival_rate_or_growth() {
        for name in ["batch-pool-20", "batch-pool-1000"] {
            let s = tellers_sim::presets::preset(name).unwrap();
            let r = tellers_sim::simulate(&s).unwrap();
            assert_eq!(row_of("fig-arrivals", &s, &r).sim, "1,000 at once, at 0 s");
            assert_eq!(
                row_of("fig-growth", &s, &r).sim,
                "none: a batch only drains"
            );
        }
        let s = tellers_sim::presets::preset("mm1").unwrap();
        let r = tellers_sim::simulate(&s).unwrap();
        assert!(row_of("fig-arrivals", &s, &r).sim.ends_with("rps"));
    }

    /// A mean wait above its p99 (under 1 % waited, some long) is said to
    /// be so: "4.54 ms / 0 ms" read as a fault.
    #[test]
    fn a_mean_wait_above_its_p99_is_explained() {
        assert_eq!(
            queue_wait_text(4.54, 0.0),
            "4.54 ms / 0 ms (a few long waits lift the mean above the p99)"
        );
        assert_eq!(queue_wait_text(4.54, 20.0), "4.54 ms / 20.0 ms");
        assert_eq!(queue_wait_text(0.004, 0.0), "under 0.01 ms / 0 ms");
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
        // Loops that accepted no connection have no row of "— | —".
        assert!(!keys("db-pool-limit").contains(&"fig-loop-conns"));
        assert!(keys("waf-inline").contains(&"fig-loop-conns"));
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
    fn report_json_drops_series() {
        let r = Report {
            series: vec![Default::default()],
            ..Report::default()
        };
        let j = report_json(&r);
        assert!(!j.contains("series") && j.contains("\"events\":0"), "{j}");
        let v: serde_json::Value = serde_json::from_str(&j).unwrap();
        assert!(v.is_object());
    }

    /// The theory cell of row `key` for `s` after `r`.
    /// Row `key` of the figures of `s`'s run `r`.
    fn row_of(key: &str, s: &Scenario, r: &Report) -> FigureRow {
        figure_rows(s, r, &theory(s))
            .into_iter()
            .find(|row| row.key == key)
            .unwrap_or_else(|| panic!("no row {key}"))
    }

    fn theory_of(key: &str, s: &Scenario, r: &Report) -> String {
        row_of(key, s, r).theory
    }

    /// A run that measured a handful of requests says so beside their
    /// response times: node-collapse-blocking's are one request's.
    #[test]
    fn few_measured_requests_are_counted_beside_their_response_times() {
        let s = preset("node-collapse-blocking").unwrap();
        let r = tellers_sim::simulate(&s).unwrap();
        assert_eq!(r.measured, 1);
        for key in ["fig-mean", "fig-p99"] {
            let row = row_of(key, &s, &r);
            assert!(row.sim.ends_with(" (of 1 request)"), "{key}: {}", row.sim);
        }
        // Said twice is enough: not beside the median and the longest too.
        for key in ["fig-p50", "fig-tail"] {
            assert!(!row_of(key, &s, &r).sim.contains("(of"), "{key}");
        }
        let s = preset("mm1").unwrap();
        let r = tellers_sim::simulate(&s).unwrap();
        assert!(!row_of("fig-mean", &s, &r).sim.contains("(of"));
    }

    /// Tries per call counts the tries the circuit breaker failed at once:
    /// a call that never reached the server still made its try.
    #[test]
    fn tries_per_call_counts_those_the_breaker_failed_at_once() {
        let s = Scenario {
            retries: 3,
            breaker_after: Some(20),
            ..Scenario::default()
        };
        let r = Report {
            calls: 100,
            retries: 20,
            attempts: 90,
            broken: 30,
            sim_time_s: 60.0,
            warmup_s: 6.0,
            measured: 50,
            ..Report::default()
        };
        assert_eq!(row_of("fig-retries", &s, &r).sim, "20 (1.20)");
        assert_eq!(row_of("fig-broken", &s, &r).sim, "30");
    }

    /// Where callers give up, the response times say they count the late
    /// answers too (the server's times of tries nobody waited for).
    #[test]
    fn response_times_say_they_count_late_answers_where_callers_give_up() {
        let s = Scenario::default();
        let r = Report::default();
        assert_eq!(
            row_of("fig-p50", &s, &r).label,
            "Median / p90 response time"
        );
        let timed = Scenario {
            timeout_ms: Some(220.0),
            ..s
        };
        for key in ["fig-mean", "fig-p50", "fig-p99", "fig-tail"] {
            let label = row_of(key, &timed, &r).label;
            assert!(label.ends_with(" (late answers too)"), "{key}: {label}");
        }
    }

    #[test]
    fn uncapped_threads_per_request_are_no_limit_yet_still_wait() {
        let tpr = Scenario {
            model: Model::ThreadPerRequest,
            ..Scenario::default()
        };
        assert_eq!(
            theory_of("fig-thread-limit", &tpr, &Report::default()),
            "none: threads are not capped"
        );
        let loops = Scenario {
            model: Model::EventLoop,
            ..Scenario::default()
        };
        assert_eq!(
            theory_of("fig-thread-limit", &loops, &Report::default()),
            "none: no thread waits"
        );
    }

    #[test]
    fn uncapped_threads_theory_is_a_mean_below_the_peak() {
        let s = Scenario {
            model: Model::ThreadPerRequest,
            duration_s: 10.0,
            ..Scenario::default()
        };
        let r = tellers_sim::simulate(&s).unwrap();
        let n = theory(&s).threads_needed.unwrap();
        assert!(r.peak_threads as f64 > n + 1.0, "{} vs {n}", r.peak_threads);
        let peak = theory_of("fig-peak-threads", &s, &r);
        assert!(
            peak.starts_with("mean ≈ ") && peak.ends_with("(the peak is higher)"),
            "{peak}"
        );
        let mem = theory_of("fig-memory", &s, &r);
        assert!(
            mem.starts_with("mean ≈ ") && mem.ends_with(" MB (the peak is higher)"),
            "{mem}"
        );
    }

    #[test]
    fn a_pool_per_loop_counts_every_loops_workers() {
        let s = Scenario {
            duration_s: 1.0,
            ..preset("waf-offload-unbalanced").unwrap()
        };
        assert!(s.pool_per_loop && s.model == Model::EventLoopWorkers);
        let r = tellers_sim::simulate(&s).unwrap();
        let mem = theory_of("fig-memory", &s, &r);
        assert!(mem.starts_with("(4 loops + 4 workers) ×"), "{mem}");
        assert_eq!(s.worker_threads(), 4, "the count's one home");
        assert_eq!(r.peak_threads, 8, "the threads the engine runs");
    }

    #[test]
    fn littles_law_counts_only_the_requests_let_in() {
        // 400 rps at a pool that finishes about 200 with a line of 10:
        // about half are refused at the door and spend no time inside.
        let s = Scenario {
            rps: 400.0,
            queue_limit: Some(10),
            duration_s: 30.0,
            ..Scenario::default()
        };
        let r = tellers_sim::simulate(&s).unwrap();
        assert!(r.refused > r.arrived / 4, "{} of {}", r.refused, r.arrived);
        assert!(r.admitted_rps < 0.75 * r.arrival_rps, "{r:?}");
        let law = r.admitted_rps * r.latency_ms.mean / 1e3;
        assert_eq!(r.littles_law_in_flight, law, "the report's λ·W");
        // 30 s of a line of at most 10 and 20 threads: the window's mean
        // inside is known within a few per cent.
        let off = (law / r.mean_in_flight - 1.0).abs();
        assert!(off < 0.05, "λ·W {law} vs {} inside", r.mean_in_flight);
        let text = theory_of("fig-inside", &s, &r);
        let (lambda, w, sign) = product_terms(r.admitted_rps, r.latency_ms.mean, law);
        assert_eq!(
            text,
            format!("{lambda} admitted rps × {w} {sign} {}", fmt_count(law))
        );
        // With nobody refused, the law reads as before.
        let mm1 = preset("mm1").unwrap();
        let r = Report {
            arrived: 10,
            measured: 10,
            arrival_rps: 50.0,
            admitted_rps: 50.0,
            latency_ms: tellers_sim::report::Latency {
                mean: 20.0,
                max: 90.0,
                ..Default::default()
            },
            littles_law_in_flight: 1.0,
            sim_time_s: 100.0,
            warmup_s: 1.0,
            ..Report::default()
        };
        assert_eq!(theory_of("fig-inside", &mm1, &r), "50.0 rps × 0.0200 s = 1");
        // A slow rate keeps its figures: 1.61 rps read as "2 rps" made
        // 2 × 8.32 s = 13.4 on screen.
        let slow = Report {
            admitted_rps: 1.61,
            latency_ms: tellers_sim::report::Latency {
                mean: 8319.0,
                ..Default::default()
            },
            littles_law_in_flight: 13.39,
            ..r.clone()
        };
        assert_eq!(
            theory_of("fig-inside", &mm1, &slow),
            "1.61 rps × 8.32 s = 13.4"
        );
        // Three figures each that multiply to another figure than the
        // product shown gain a decimal: 399 × 0.100 s is 39.9, not 40.0;
        // 399.4 × 0.1003 s is 40.06, so it is "about".
        let terms = |r: f64, w: f64, p: f64| {
            let (a, b, c) = product_terms(r, w, p);
            format!("{a} × {b} {c} {}", fmt_count(p))
        };
        assert_eq!(
            terms(399.4, 100.27, 399.4 * 0.10027),
            "399.4 × 0.1003 s ≈ 40.0"
        );
        // 544 rps × 13.6 s would read 7,398, beside 7,423.
        assert_eq!(
            terms(544.2, 13_640.0, 544.2 * 13.64),
            "544.2 × 13.64 s = 7,423"
        );
        // Where three figures read right they stay.
        assert_eq!(terms(183.0, 104.0, 19.03), "183 × 0.104 s = 19.0");
        // Some left the line unserved: inside a while, with no response time.
        let shed = Report {
            shed: 3,
            ..r.clone()
        };
        assert_eq!(
            theory_of("fig-inside", &mm1, &shed),
            "50.0 rps × 0.0200 s = 1, leaving out the 3 that left unanswered"
        );
        // One in five of those measured still inside at the end: time
        // inside that no response time counts yet.
        let unfinished = Report {
            in_flight_end: 2,
            ..r
        };
        assert_eq!(
            theory_of("fig-inside", &mm1, &unfinished),
            "50.0 rps × 0.0200 s = 1, leaving out the 2 still inside"
        );
        // A backlog that grows: adaptive LIFO at twice what its pool
        // finishes had 1,408 inside on average beside a law's 29.1 marked
        // only "(approx.)"; the thousands still inside are why.
        let s = preset("overload-adaptive-lifo").unwrap();
        let r = tellers_sim::simulate(&s).unwrap();
        assert!(r.mean_in_flight > 10.0 * r.littles_law_in_flight, "{r:?}");
        let text = theory_of("fig-inside", &s, &r);
        let still = tellers_sim::text::group_digits(&r.in_flight_end.to_string());
        assert!(
            text.ends_with(&format!(", leaving out the {still} still inside")),
            "{text}"
        );
        // The Node run of 8 s requests ends with 19 inside and one
        // measured: the law's 16.6 against 10 inside is no test of it.
        let s = preset("node-collapse-blocking").unwrap();
        let r = tellers_sim::simulate(&s).unwrap();
        assert!(r.in_flight_end > r.measured, "{r:?}");
        let text = theory_of("fig-inside", &s, &r);
        assert!(text.contains(", leaving out the "), "{text}");
    }

    /// Busy threads say how theory's count stands: exact, an estimate, or
    /// (where threads wait for a core that the time held with no line
    /// leaves out) a floor.
    #[test]
    fn busy_threads_theory_says_when_it_is_a_floor() {
        let r = Report::default();
        let own_cores = Scenario {
            threads: 4,
            cores: 4,
            rps: 100.0,
            cpu_ms: 5.0,
            wait_ms: 20.0,
            switch_us: 0.0,
            ..Scenario::default()
        };
        assert_eq!(theory_of("fig-busy", &own_cores, &r), "2.5");
        // A switch of threads on a core costs CPU time they hold.
        let switching = Scenario {
            switch_us: 5.0,
            ..own_cores.clone()
        };
        assert_eq!(theory_of("fig-busy", &switching, &r), "at least 2.5");
        let even = Scenario {
            model: Model::ThreadPerRequest,
            arrivals: Arrivals::Uniform,
            rps: 360.0,
            ..preset("sale-day").unwrap()
        };
        let busy = theory_of("fig-busy", &even, &r);
        assert!(busy.starts_with("at least "), "{busy}");
        let alive = theory_of("fig-peak-threads", &even, &r);
        assert!(alive.starts_with("mean at least 36 threads"), "{alive}");
        let pool = Scenario {
            rps: 360.0,
            threads: 1000,
            ..preset("sale-day-planned").unwrap()
        };
        let busy = theory_of("fig-busy", &pool, &r);
        assert!(busy.ends_with(" (approx.)"), "{busy}");
        // Overloaded, the floor is the whole pool, which no more can pass.
        for (name, all) in [("sale-day", "all 20"), ("sale-day-pool-40", "all 40")] {
            let s = preset(name).unwrap();
            assert_eq!(theory_of("fig-busy", &s, &r), all, "{name}");
        }
    }

    /// Throughput, CPU busy and the dependency's calls are the first
    /// step's rate, each request once: marked where the server gets
    /// another load (retries at the database pool ran 1,193 calls/s and 30 %
    /// CPU beside theory's 400 and 10 %).
    #[test]
    fn rates_from_the_offered_load_are_marked_where_the_load_differs() {
        let r = Report::default();
        let db = Scenario {
            rps: 400.0,
            ..preset("db-pool-limit").unwrap()
        };
        assert!(!theory_of("fig-cpu", &db, &r).contains("approx"));
        assert_eq!(theory_of("fig-dep-calls", &db, &r), "400 calls/s");
        // Past the 10 connections' 500 a second, the calls are still sent
        // as requests arrive (the run counted 598 a second at 600): theory
        // said 500 beside them, the rate served.
        let over = preset("db-pool-limit").unwrap();
        assert_eq!(
            theory_of("fig-dep-calls", &over, &r),
            "600 calls/s sent, 500 served"
        );
        let run = tellers_sim::simulate(&over).unwrap();
        // A random count of about 36,000 over 60 s: 2 % is about four of
        // its standard deviations.
        let sent = run.dep_calls as f64 / run.sim_time_s;
        assert!((sent / 600.0 - 1.0).abs() < 0.02, "{sent} calls/s sent");
        let retrying = Scenario {
            timeout_ms: Some(25.0),
            retries: 2,
            ..db
        };
        assert!(theory_of("fig-cpu", &retrying, &r).ends_with("(approx.)"));
        // Marked, and with the state where every try times out beside it.
        let tput = theory_of("fig-throughput", &retrying, &r);
        assert!(
            tput.contains("(approx.), or") && tput.ends_with("once tries time out"),
            "{tput}"
        );
        assert_eq!(
            theory_of("fig-dep-calls", &retrying, &r),
            "400 calls/s (approx.)"
        );
    }

    /// Lesson 16's callers who give up after 220 ms and try three more
    /// times: theory's figures are of the state where few tries time out,
    /// and say so, with the other state's throughput beside them. The page
    /// showed "433 ms (approx.)" beside a p99 of 204 s, and 160 rps beside
    /// the 200 finished, none in time.
    #[test]
    fn theory_beside_retries_on_timeouts_names_both_states() {
        let r = Report::default();
        let s = Scenario {
            rps: 160.0,
            timeout_ms: Some(220.0),
            retries: 3,
            ..preset("sale-day").unwrap()
        };
        assert_eq!(
            theory_of("fig-throughput", &s, &r),
            "160 rps (approx.), or 200 rps, none in time, once tries time out"
        );
        for key in ["fig-mean", "fig-p99", "fig-queue-wait"] {
            let t = theory_of(key, &s, &r);
            assert!(
                t.ends_with(" ms (approx.) while few tries time out"),
                "{key}: {t}"
            );
        }
        // Without retries, one state: the figures as they were.
        let once = Scenario { retries: 0, ..s };
        assert_eq!(theory_of("fig-throughput", &once, &r), "160 rps");
        assert!(!theory_of("fig-p99", &once, &r).contains("few tries"));
    }

    /// Theory's wait for a thread beside the run's: M/M/1's 40 ms exactly
    /// (lesson 15's Kingman run), and lesson 4's pool of 45 for 40 busy
    /// on 16 cores from the pool's line, 6.8 ms marked as an estimate
    /// (both showed no theory beside the waits their text works out). None
    /// where the line is not the threads': the sale day overloaded, or a
    /// thread per request whose line is the cores.
    #[test]
    fn the_wait_for_a_thread_has_theory_where_the_threads_are_the_line() {
        let r = Report::default();
        assert_eq!(
            theory_of("fig-queue-wait", &preset("mm1").unwrap(), &r),
            format!("mean {}", fmt_ms(40.0))
        );
        let pool = Scenario {
            threads: 45,
            cores: 16,
            rps: 400.0,
            cpu_ms: 10.0,
            wait_ms: 90.0,
            duration_s: 300.0,
            ..Scenario::default()
        };
        assert_eq!(
            theory_of("fig-queue-wait", &pool, &r),
            format!("mean {} (approx.)", fmt_ms(6.81))
        );
        assert_eq!(
            theory_of("fig-queue-wait", &preset("sale-day").unwrap(), &r),
            "—"
        );
        let per_request = Scenario {
            model: Model::ThreadPerRequest,
            ..Scenario::default()
        };
        assert_eq!(theory_of("fig-queue-wait", &per_request, &r), "—");
    }

    /// Theory's CPU figures leave context switches out: with 20 µs
    /// switches on 0.2 ms steps (up to 11 % more CPU) the CPU limit, CPU
    /// busy and the line's growth are marked, and the note says why;
    /// with the default 5 µs on 10 ms steps nothing is.
    #[test]
    fn dear_switches_mark_the_cpu_figures_and_say_why() {
        let r = Report::default();
        let cheap = Scenario::default();
        for key in ["fig-cpu-limit", "fig-cpu", "fig-growth"] {
            assert!(!theory_of(key, &cheap, &r).contains("approx"), "{key}");
        }
        let dear = Scenario {
            threads: 200,
            cores: 4,
            cpu_ms: 0.2,
            wait_ms: 0.5,
            switch_us: 20.0,
            rps: 25_000.0,
            ..Scenario::default()
        };
        assert_eq!(
            theory_of("fig-cpu-limit", &dear, &r),
            "20,000 rps (approx.) ← the limit"
        );
        assert_eq!(theory_of("fig-cpu", &dear, &r), "100 % (approx.)");
        assert_eq!(theory_of("fig-growth", &dear, &r), "5,000 per s (approx.)");
        let note = approx_note(&theory(&dear)).unwrap();
        assert!(
            note.contains("context switches can add up to 11 %"),
            "{note}"
        );
    }

    #[test]
    fn threads_that_wait_for_cores_mark_the_thread_limit_and_say_why() {
        let r = Report::default();
        // A pool of 20 on 4 cores loses under 1 % to the waits: exact.
        let twenty = preset("sale-day").unwrap();
        assert_eq!(
            theory_of("fig-thread-limit", &twenty, &r),
            "200 rps ← the limit"
        );
        let note = approx_note(&theory(&twenty)).unwrap_or_default();
        assert!(!note.contains("finite-source"), "{note}");
        // A pool of 32 loses 3.6 %: its limit, growth and throughput are
        // estimates, and the note gives the finite-source figure.
        let full = Scenario {
            threads: 32,
            ..twenty
        };
        // The limit is what all 32 finish on the cores (below), not the
        // thread limit.
        assert_eq!(
            theory_of("fig-thread-limit", &full, &r),
            "320 rps (approx.)"
        );
        // The line grows by what the 32 finish on the cores short of 400
        // (theory's pool line), not by the thread limit's 80.
        assert_eq!(theory_of("fig-growth", &full, &r), "91.1 per s (approx.)");
        assert_eq!(theory_of("fig-throughput", &full, &r), "309 rps (approx.)");
        // Beside the limits, what all 32 finish on the cores.
        assert_eq!(
            theory_of("fig-pool-rps", &full, &r),
            "309 rps (approx.): they also wait for a core ← the limit"
        );
        let note = approx_note(&theory(&full)).unwrap();
        assert!(
            note.contains("32 threads on 4 cores finish about 309 rps when all are busy, not 320"),
            "{note}"
        );
        // 48 threads: the CPU limit (400) is the lower; the thread limit
        // (480) is what the formula says, and the capacity is the estimate.
        let more = Scenario {
            threads: 48,
            ..full
        };
        assert_eq!(theory_of("fig-thread-limit", &more, &r), "480 rps");
        assert_eq!(theory_of("fig-cpu-limit", &more, &r), "400 rps");
        assert!(theory_of("fig-pool-rps", &more, &r).ends_with("← the limit"));
        // At 400 rps the line grows only by what the waits take.
        assert_eq!(theory_of("fig-growth", &more, &r), "6.60 per s (approx.)");
        let note = approx_note(&theory(&more)).unwrap();
        assert!(
            note.contains("which the thread and CPU limits leave out: 48 threads on 4 cores finish about 393 rps when all are busy, not 400"),
            "{note}"
        );
        // 40 threads tie the cores at 400 rps, but all busy they finish
        // about 365: that is the limit, not the two 400s (the sale day's
        // pool of 40 pointed at both).
        let tie = Scenario {
            threads: 40,
            ..more
        };
        assert_eq!(theory_of("fig-thread-limit", &tie, &r), "400 rps (approx.)");
        assert_eq!(theory_of("fig-cpu-limit", &tie, &r), "400 rps");
        assert_eq!(
            theory_of("fig-pool-rps", &tie, &r),
            "365 rps (approx.): they also wait for a core ← the limit"
        );
        // 20 threads on 4 cores: no such row, and the thread limit binds.
        assert!(!figure_rows(&twenty, &r, &theory(&twenty))
            .iter()
            .any(|row| row.key == "fig-pool-rps"));
        // 41 threads: the cores alone.
        let over = Scenario { threads: 41, ..tie };
        assert_eq!(theory_of("fig-thread-limit", &over, &r), "410 rps");
    }

    #[test]
    fn erlang_c_says_approx_unless_calls_come_at_random() {
        // Ten connections in front of a dependency, called after 1 ms of
        // CPU on the loops: the calls do not come at random.
        let pool = Scenario {
            rps: 400.0,
            duration_s: 2.0,
            ..preset("db-pool-limit").unwrap()
        };
        let r = tellers_sim::simulate(&pool).unwrap();
        let wait = theory_of("fig-dep-pool-wait", &pool, &r);
        assert!(wait.ends_with("(Erlang C, approx.)"), "{wait}");
        // Random calls as requests arrive, random times, one line: exact,
        // and the simulated mean wait agrees.
        let s = Scenario {
            model: Model::ThreadPerRequest,
            spawn_ms: 0.0,
            cpu_ms: 0.0,
            wait_ms: 20.0,
            rps: 150.0,
            dep_concurrency: Some(4),
            duration_s: 200.0,
            ..Scenario::default()
        };
        let th = theory(&s);
        assert!(th.dep.wait_exact);
        let r = tellers_sim::simulate(&s).unwrap();
        let text = theory_of("fig-dep-queue-wait", &s, &r);
        assert!(text.ends_with("(Erlang C)"), "{text}");
        let erlang = th.dep.queue_wait_ms.unwrap();
        let sim = r.dep_queue_wait_ms.mean;
        assert!((sim / erlang - 1.0).abs() < 0.15, "{sim} vs {erlang} ms");
        // Fan-out, fixed waits, hedges or CPU before the call break it.
        for bent in [
            Scenario {
                fan_out: 2,
                rps: 50.0,
                ..s.clone()
            },
            Scenario {
                wait_dist: Dist::Const,
                ..s.clone()
            },
            Scenario {
                hedge_after_ms: Some(30.0),
                ..s.clone()
            },
            Scenario {
                cpu_ms: 1.0,
                ..s.clone()
            },
        ] {
            assert!(!theory(&bent).dep.wait_exact, "{bent:?}");
        }
    }

    #[test]
    fn dependency_slots_busy_compares_like_with_like() {
        // 200 calls/s of 20 ms: 4 calls in service, on 10 slots behind a
        // pool of 5 connections. The simulator divides by the 10 slots.
        let s = Scenario {
            model: Model::ThreadPerRequest,
            cpu_ms: 1.0,
            wait_ms: 20.0,
            wait_dist: Dist::Const,
            rps: 200.0,
            dep_pool: Some(5),
            dep_concurrency: Some(10),
            duration_s: 30.0,
            ..Scenario::default()
        };
        let r = tellers_sim::simulate(&s).unwrap();
        let u = r.dep_utilisation.unwrap();
        assert!((u - 0.4).abs() < 0.03, "simulated {u}");
        assert_eq!(theory_of("fig-dep-busy", &s, &r), fmt_pct(0.4));
        // Overloaded: the pool lets in at most 5 at once, half the slots.
        let over = Scenario {
            rps: 400.0,
            ..s.clone()
        };
        assert_eq!(dep_slots_busy_text(&theory(&over)), "50 % (approx.)");
    }

    /// A lesson's short row says, once measured, what the warm-up left
    /// out, as the full table's caption does.
    #[test]
    fn the_short_rows_note_names_the_warm_up_once_measured() {
        let s = preset("mm1").unwrap();
        assert!(compact_note(&s, &Report::default()).starts_with("Press Play"));
        let r = tellers_sim::simulate(&s).unwrap();
        assert_eq!(
            compact_note(&s, &r),
            format!(
                "The first {} are warm-up and not measured.",
                fmt_s(s.warmup * s.duration_s)
            )
        );
        // A batch has no warm-up to name.
        let batch = preset("batch-pool-20").unwrap();
        let r = tellers_sim::simulate(&batch).unwrap();
        assert_eq!(compact_note(&batch, &r), "");
    }

    #[test]
    fn the_caption_names_the_warm_up_the_engine_leaves_out() {
        let open = Scenario {
            duration_s: 10.0,
            ..Scenario::default()
        };
        assert_eq!(
            figures_caption(&open, false),
            "Figures so far (the first 1.0 s are warm-up and not measured)"
        );
        assert_eq!(tellers_sim::simulate(&open).unwrap().warmup_s, 1.0);
        // Closed and batch runs are measured from t = 0, whatever the share.
        for arrivals in [Arrivals::Closed, Arrivals::Batch] {
            let s = Scenario {
                arrivals,
                count: 100,
                ..open.clone()
            };
            assert!(s.warmup > 0.0);
            assert_eq!(tellers_sim::simulate(&s).unwrap().warmup_s, 0.0);
            assert_eq!(figures_caption(&s, true), "Figures of the whole run");
        }
        // Stopping after 200 requests: the first 20 arrivals are warm-up.
        let counted = Scenario {
            requests: Some(200),
            ..open.clone()
        };
        assert_eq!(
            figures_caption(&counted, true),
            "Final figures (the first 20 arrivals, or 1.0 s if sooner, are warm-up and not measured)"
        );
        // Beside such a caption, the rows that count the whole run say so;
        // in a run measured from the start they need not.
        let label = |s: &Scenario, key: &str| {
            let r = tellers_sim::simulate(s).unwrap();
            figure_rows(s, &r, &theory(s))
                .into_iter()
                .find(|row| row.key == key)
                .map(|row| row.label)
                .unwrap()
        };
        let timed = Scenario {
            timeout_ms: Some(50.0),
            retries: 1,
            ..open.clone()
        };
        for key in ["fig-counts", "fig-timeouts", "fig-calls", "fig-retries"] {
            assert!(label(&timed, key).ends_with(" (whole run)"), "{key}");
        }
        assert_eq!(
            label(&timed, "fig-mean"),
            "Mean response time (late answers too)"
        );
        let from_start = Scenario {
            warmup: 0.0,
            ..timed
        };
        assert_eq!(label(&from_start, "fig-counts"), "Finished / refused");
    }

    #[test]
    fn a_run_measured_from_the_start_never_mentions_a_warm_up() {
        // A batch of 10-second waits: nobody has finished after 5 s.
        let s = Scenario {
            model: Model::ThreadPerRequest,
            cpu_ms: 0.1,
            wait_ms: 10_000.0,
            wait_dist: Dist::Const,
            arrivals: Arrivals::Batch,
            count: 1000,
            ..Scenario::default()
        };
        let r = report_at(&s, 5.0);
        assert_eq!(window(&r), Window::Measuring);
        let note = measuring_note(&s, &r).unwrap();
        assert!(
            note.contains("since the run began") && !note.contains("warm-up"),
            "{note}"
        );
    }

    #[test]
    fn loop_connections_read_as_a_list_and_their_spread() {
        assert_eq!(
            loop_connections_text(&[36, 36, 35, 35]),
            "36 / 36 / 35 / 35 (1.03)"
        );
        assert_eq!(
            loop_connections_text(&[68, 30, 20, 0]),
            "68 / 30 / 20 / 0 (the quietest took none)"
        );
        assert_eq!(loop_connections_text(&[0, 0]), "—");
        assert_eq!(loop_connections_text(&[1025]), "1,025 (one loop)");
        assert_eq!(loop_connections_text(&[]), "—");
    }

    /// The rows of `s` beside report `r` that theory marks "(approx.)",
    /// each checked to have a note that says why (`name` says where).
    fn approx_rows_with_notes(name: &str, s: &Scenario, r: &Report) -> usize {
        let th = theory(s);
        let note = approx_note(&th);
        let mut marked = 0;
        for row in figure_rows(s, r, &th) {
            if row.theory.contains("(approx.)") {
                marked += 1;
                assert!(
                    note.is_some(),
                    "{name}: {} is '{}' with no note: {s:?}",
                    row.key,
                    row.theory
                );
            }
        }
        marked
    }

    /// Wherever the figures mark a theory figure "(approx.)", a note says
    /// why: every preset, with pools, loads, cores, switches and CPU
    /// around their defaults.
    #[test]
    fn every_approximate_figure_has_a_note_that_says_why() {
        let r = Report::default();
        let mut marked = 0;
        for p in tellers_sim::presets::presets() {
            for (threads, rps, cores, switch_us, cpu_ms) in loads_grid() {
                let s = Scenario {
                    threads,
                    rps,
                    cores,
                    switch_us,
                    cpu_ms,
                    ..p.scenario.clone()
                };
                marked += approx_rows_with_notes(p.name, &s, &r);
            }
        }
        assert!(marked > 1000, "only {marked} marked: the grid misses them");
    }

    /// The same with each preset's own measured report (a short run): rows
    /// that show only once something was measured get their note too.
    #[test]
    fn every_approximate_figure_of_a_run_has_a_note_that_says_why() {
        let mut marked = 0;
        for p in tellers_sim::presets::presets() {
            let s = Scenario {
                duration_s: p.scenario.duration_s.min(3.0),
                ..p.scenario.clone()
            };
            let r = tellers_sim::simulate(&s).unwrap();
            marked += approx_rows_with_notes(p.name, &s, &r);
        }
        assert!(marked > 10, "only {marked} marked: the presets miss them");
    }

    /// Pools, offered rps, cores, switch µs and CPU ms.
    fn loads_grid() -> Vec<(u32, f64, u32, f64, f64)> {
        let mut grid = Vec::new();
        for threads in [2, 5, 20, 40, 100] {
            for rps in [10.0, 150.0, 350.0, 1e4] {
                for cores in [1, 2, 4, 8] {
                    for switch_us in [5.0, 20.0] {
                        for cpu_ms in [1.0, 10.0] {
                            grid.push((threads, rps, cores, switch_us, cpu_ms));
                        }
                    }
                }
            }
        }
        grid
    }

    /// Past the capacity the calls go out at the capacity's rate (the
    /// engine sent 79,977 a second of 80,000): exact where the capacity
    /// is, an estimate where dear switches make the capacity one.
    #[test]
    fn calls_past_the_capacity_go_out_at_the_capacity() {
        let r = Report::default();
        let past = Scenario {
            rps: 10_000.0,
            cpu_ms: 1.0,
            ..preset("fan-out-10").unwrap()
        };
        assert_eq!(theory_of("fig-dep-calls", &past, &r), "80,000 calls/s");
        let dear = Scenario {
            switch_us: 50.0,
            ..past
        };
        assert!(theory(&dear).capacity_bound() == tellers_sim::theory::Bound::Approx);
        assert!(
            theory_of("fig-dep-calls", &dear, &r).ends_with("calls/s (approx.)"),
            "{}",
            theory_of("fig-dep-calls", &dear, &r)
        );
    }

    /// The server's line is named for what it waits for, so that a line
    /// at the dependency (which the growth counts) is not read as it: a
    /// screenshot review saw "Requests in line now 0" beside a sign of a
    /// line growing by 99 a second at the connections.
    #[test]
    fn the_servers_line_says_what_its_requests_wait_for() {
        let r = Report::default();
        let label = |s: &Scenario, key: &str| row_of(key, s, &r).label;
        let pool = preset("sale-day").unwrap();
        assert_eq!(
            label(&pool, "fig-line"),
            "Requests in line for a thread now"
        );
        let loops = preset("sale-day-event-loop").unwrap();
        assert_eq!(
            label(&loops, "fig-queue-wait"),
            "Time in line for a loop: mean / p99"
        );
    }
}
