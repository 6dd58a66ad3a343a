//! Exercises: their definition (from a lesson's `exercise` block), the
//! per-student numbers drawn from a seed, the text with those numbers in
//! it, the answer, and the scenario that checks it in the simulator.

use crate::check::Unit;
use crate::expr::{eval, Vars};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use tellers_sim::rng::{below, seeded};
use tellers_sim::text::{fmt_figures, fmt_fixed};
use tellers_sim::Scenario;

/// What kind of answer an exercise wants.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    /// A number with a unit.
    Numeric,
    /// One of several options.
    Choice,
    /// One of several options that each describe a cause and a fix.
    Diagnosis,
}

/// One exercise, as written in a lesson.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Exercise {
    /// Unique id, kebab-case; the deep link is `#/lessons/SLUG/ID`.
    pub id: String,
    /// Numeric, choice or diagnosis.
    pub kind: Kind,
    /// The question; `{name}` shows a parameter, `{= expr}` a computed value.
    pub prompt: String,
    /// Per-student parameters: name → [min, max, step].
    #[serde(default)]
    pub params: BTreeMap<String, [f64; 3]>,
    /// The answer as an expression over the parameters (numeric).
    #[serde(default)]
    pub answer: Option<String>,
    /// The unit of the answer (numeric).
    #[serde(default)]
    pub unit: Option<Unit>,
    /// Relative tolerance, e.g. 0.02 for 2 % (numeric).
    #[serde(default)]
    pub tolerance: Option<f64>,
    /// Options (choice, diagnosis).
    #[serde(default)]
    pub options: Vec<String>,
    /// Index of the right option.
    #[serde(default)]
    pub correct: Option<usize>,
    /// Why each option is right or wrong.
    #[serde(default)]
    pub explain: Vec<String>,
    /// Hints, revealed one at a time.
    #[serde(default)]
    pub hints: Vec<String>,
    /// The worked solution, one line of arithmetic per step.
    #[serde(default)]
    pub solution: Vec<String>,
    /// Scenario fields for "check it in the simulator"; strings may hold `{param}`.
    #[serde(default)]
    pub check: Option<serde_json::Map<String, serde_json::Value>>,
    /// The report field that confirms the answer.
    #[serde(default)]
    pub check_field: Option<String>,
    /// Where theory and simulation part, and why.
    #[serde(default)]
    pub note: Option<String>,
    /// True when, for some numbers, the right answer is that the line grows
    /// without limit (the answer evaluates to `inf`); the prompt must say
    /// how to answer then, and the app says it under the answer box.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub no_limit: bool,
    /// Plausible wrong methods (numeric), as expressions over the params:
    /// forgetting the wait, the line, a unit. The course tests check that
    /// each is marked wrong in nearly every variant; the app names the
    /// slip when an answer is the number one of them gives
    /// ([`Exercise::slip`]).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub mistakes: Vec<String>,
    /// What each mistake's number is, in words, one per mistake in its
    /// order: "That is the CPU time alone: …".
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub mistake_notes: Vec<String>,
    /// When the answer chooses between branches (the two limits of a
    /// `min`): each branch as an expression. The course tests check that
    /// each is the answer in about as many variants as the others, so a
    /// method that computes only one branch is right no more than by chance.
    #[serde(default, skip_serializing)]
    pub branches: Vec<String>,
}

/// What an answer a thousand times too large or too small is, where the
/// question has units a thousand apart ([`Exercise::slip_note_of`]).
const THOUSANDFOLD_UNITS: &str =
    "That is a thousand times off: check each step between units (ms and s, KB and MB).";

/// The same where it has none.
const THOUSANDFOLD: &str =
    "That is a thousand times off: check where the decimal point or the zeros went.";

/// What "3.950" is where 3,950 is right: a dot grouping thousands, as
/// many countries write them, read as a decimal point.
const DOT_THOUSANDS: &str =
    "That dot reads as a decimal point: write thousands with a comma, a space or nothing (1,500 or 1500).";

/// Whether `typed` starts with a number whose dot could group thousands:
/// one to three digits, not led by 0, a dot, then three ("3.950
/// connections"; "0.015" is a decimal, a thousand times too small).
fn dot_groups_thousands(typed: &str) -> bool {
    let number = typed.split_whitespace().next().unwrap_or("");
    number.split_once('.').is_some_and(|(whole, part)| {
        (1..=3).contains(&whole.len())
            && !whole.starts_with('0')
            && part.len() == 3
            && whole
                .chars()
                .chain(part.chars())
                .all(|c| c.is_ascii_digit())
    })
}

/// The least relative tolerance a listed mistake's number is read with,
/// 0–1: a mistake's number need not be typed to more decimals than the
/// question asks of the answer.
pub const SLIP_TOLERANCE: f64 = 0.005;

/// The most mistakes, or options, an exercise may list: a progress file
/// records the slips made in one byte per exercise ([`Slip::bit`]).
pub const MAX_LISTED: usize = 6;

/// A wrong answer the checker can name ([`Exercise::slip`]), or a wrong
/// option picked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Slip {
    /// The number the exercise's listed mistake of this index gives.
    Mistake(usize),
    /// The answer a thousand times too small, written with a dot grouping
    /// thousands ("3.950" for 3,950).
    DotThousands,
    /// The answer a thousand times too large or too small.
    Thousandfold,
    /// A wrong option, by its index in the exercise's written order (not
    /// the student's shuffled one).
    Option(usize),
}

impl Slip {
    /// The bit a progress file records it by, in one byte per exercise:
    /// bit `i` for the listed mistake `i` of a numeric exercise or the
    /// written option `i` of the others (an exercise lists at most
    /// [`MAX_LISTED`]), bit 6 for a dot grouping thousands, bit 7 for a
    /// thousandfold slip; 0 past the sixth (not recorded).
    pub fn bit(self) -> u8 {
        match self {
            Slip::Mistake(i) | Slip::Option(i) if i < MAX_LISTED => 1 << i,
            Slip::Mistake(_) | Slip::Option(_) => 0,
            Slip::DotThousands => 1 << 6,
            Slip::Thousandfold => 1 << 7,
        }
    }
}

/// Figures of a report that an exercise's check or a lesson's claim may
/// read: report fields, plus a few shares and the loop-block percentiles;
/// those of [`FIGURE_LABELS`], in its order.
pub fn figures() -> impl Iterator<Item = &'static str> {
    FIGURE_LABELS.iter().map(|l| l.name)
}

/// Whether `name` is one of the report [`figures`].
pub fn is_figure(name: &str) -> bool {
    figure_label(name).is_some()
}

/// The report [`figures`], for a message listing what is allowed.
pub fn figures_list() -> String {
    figures().collect::<Vec<_>>().join(", ")
}

/// Read `field` (one of the [`figures`]) from a report; `None` for an unknown
/// field, or a loop (worker) figure of a run without loops (workers).
pub fn report_value(r: &tellers_sim::Report, field: &str) -> Option<f64> {
    let share = |a: f64, b: f64| if b > 0.0 { a / b } else { 0.0 };
    Some(match field {
        "throughput_rps" => r.throughput_rps,
        "goodput_rps" => r.goodput_rps,
        "goodput_share" => share(r.goodput_rps, r.throughput_rps),
        "arrival_rps" => r.arrival_rps,
        "admitted_rps" => r.admitted_rps,
        "latency_mean_ms" => r.latency_ms.mean,
        "latency_p50_ms" => r.latency_ms.p50,
        "latency_p90_ms" => r.latency_ms.p90,
        "latency_p99_ms" => r.latency_ms.p99,
        "queue_wait_mean_ms" => r.queue_wait_ms.mean,
        "cpu_utilisation" => r.cpu_utilisation,
        "mean_busy" => r.mean_busy,
        "mean_busy_workers" => r.mean_busy_workers?,
        "mean_in_flight" => r.mean_in_flight,
        "littles_law_in_flight" => r.littles_law_in_flight,
        "makespan_s" => r.makespan_s,
        "queue_len_end" => r.queue_len_end as f64,
        "queue_growth_per_s" => r.queue_growth_per_s,
        "inside_growth_per_s" => r.inside_growth_per_s,
        "peak_threads" => r.peak_threads as f64,
        "peak_connections" => r.peak_connections as f64,
        "peak_memory_used_mb" => r.peak_memory_used_mb,
        "peak_memory_reserved_mb" => r.peak_memory_reserved_mb,
        "completed" => r.completed as f64,
        "refused" => r.refused as f64,
        "refused_share" => share(r.refused as f64, r.arrived as f64),
        "dropped" => r.dropped as f64,
        "finished_after_timeout" => r.finished_after_timeout as f64,
        "loop_block_p99_ms" => r.loop_block_ms?.p99,
        "loop_block_max_ms" => r.loop_block_ms?.max,
        "worker_wait_mean_ms" => r.worker_wait_ms?.mean,
        "worker_wait_p99_ms" => r.worker_wait_ms?.p99,
        // Most connections one loop accepted ÷ fewest: 1 when spread evenly.
        "loop_connections_spread" => {
            let most = *r.loop_connections.iter().max()?;
            let fewest = *r.loop_connections.iter().min()?;
            most as f64 / (fewest as f64).max(1.0)
        }
        "latency_p999_ms" => r.latency_ms.p999,
        "latency_max_ms" => r.latency_ms.max,
        "queue_wait_p99_ms" => r.queue_wait_ms.p99,
        "calls" => r.calls as f64,
        "retries" => r.retries as f64,
        "tries_per_call" => r.tries_per_call().unwrap_or(0.0),
        // Calls answered in time ÷ calls made, over the whole run.
        "call_success_share" => share(r.calls_succeeded as f64, r.calls as f64),
        "shed" => r.shed as f64,
        "dropped_hopeless" => r.dropped_hopeless as f64,
        "broken" => r.broken as f64,
        "timed_out" => r.timed_out as f64,
        "dep_calls" => r.dep_calls as f64,
        "hedges" => r.hedges as f64,
        // Hedges per call sent the first time: the extra load hedging costs.
        "hedge_extra_share" => share(r.hedges as f64, r.dep_calls.saturating_sub(r.hedges) as f64),
        "dep_utilisation" => r.dep_utilisation?,
        "dep_pool_wait_mean_ms" => r.dep_pool_wait_ms.mean,
        "dep_pool_wait_p99_ms" => r.dep_pool_wait_ms.p99,
        "dep_queue_wait_mean_ms" => r.dep_queue_wait_ms.mean,
        "dep_queue_wait_p99_ms" => r.dep_queue_wait_ms.p99,
        _ => return None,
    })
}

/// A report figure as the learner reads it: what it is, in the course's
/// words, and the unit after its number. The one home of these words: the
/// simulator check of an exercise says "mean wait in line: 57.3 ms", never
/// a field's name.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FigureLabel {
    /// The figure's name, as reports, claims and exercises name it.
    pub name: &'static str,
    /// What it is, lower case (to sit inside a sentence): "mean wait in line".
    pub words: &'static str,
    /// What follows the number: "ms", "requests per second", "% of calls";
    /// empty for a count whose words say what is counted.
    pub unit: &'static str,
    /// The number shown is the report's value × this: 100 for a share
    /// shown in percent.
    pub scale: f64,
}

/// A figure shown as it is in the report.
const fn plain(name: &'static str, words: &'static str, unit: &'static str) -> FigureLabel {
    FigureLabel {
        name,
        words,
        unit,
        scale: 1.0,
    }
}

/// A share (0–1) shown in percent: `unit` starts with "%".
const fn share(name: &'static str, words: &'static str, unit: &'static str) -> FigureLabel {
    FigureLabel {
        name,
        words,
        unit,
        scale: 100.0,
    }
}

const RPS: &str = "requests per second";

/// Every report figure lessons may name ([`figures`]), with its label:
/// the one list of them.
pub const FIGURE_LABELS: &[FigureLabel] = &[
    plain("throughput_rps", "throughput", RPS),
    plain(
        "goodput_rps",
        "goodput (finished while the caller still waited)",
        RPS,
    ),
    share(
        "goodput_share",
        "finished while the caller still waited",
        "% of requests finished",
    ),
    plain("arrival_rps", "arrivals", RPS),
    plain("admitted_rps", "arrivals let in", RPS),
    plain("latency_mean_ms", "mean response time", "ms"),
    plain("latency_p50_ms", "median response time (p50)", "ms"),
    plain("latency_p90_ms", "p90 response time", "ms"),
    plain("latency_p99_ms", "p99 response time", "ms"),
    plain("queue_wait_mean_ms", "mean wait in line", "ms"),
    share("cpu_utilisation", "CPU busy", "% of the time"),
    plain("mean_busy", "busy threads, loops and workers (mean)", ""),
    plain("mean_busy_workers", "busy worker threads (mean)", ""),
    plain("mean_in_flight", "requests inside (mean)", ""),
    plain(
        "littles_law_in_flight",
        "requests inside by Little's law (λ × W)",
        "",
    ),
    plain("makespan_s", "time until the last request finished", "s"),
    plain("queue_len_end", "requests in line at the end", ""),
    plain("queue_growth_per_s", "line growth", RPS),
    // The figures table's "Line growth (all requests inside)": the line
    // and the busy threads (a line of 204 a second beside the table's 205).
    plain(
        "inside_growth_per_s",
        "line growth (all requests inside)",
        RPS,
    ),
    plain("peak_threads", "threads alive (peak)", ""),
    plain("peak_connections", "open connections (peak)", ""),
    plain(
        "peak_memory_used_mb",
        // In use: stacks, and for event loops their connections' state
        // (the figures row says which): a thread's connection keeps none
        // apart from its stack.
        "memory in use (peak)",
        "MB",
    ),
    plain(
        "peak_memory_reserved_mb",
        "stack memory reserved (peak)",
        "MB",
    ),
    plain("completed", "requests finished", ""),
    plain("refused", "requests refused at the door", ""),
    share("refused_share", "refused at the door", "% of arrivals"),
    plain(
        "dropped",
        "requests dropped before starting, their caller gone",
        "",
    ),
    plain(
        "finished_after_timeout",
        "requests finished after their caller had gone",
        "",
    ),
    plain("loop_block_p99_ms", "p99 time one step held its loop", "ms"),
    plain(
        "loop_block_max_ms",
        "longest time one step held its loop",
        "ms",
    ),
    plain(
        "worker_wait_mean_ms",
        "mean wait for a free worker (steps handed to the workers)",
        "ms",
    ),
    plain(
        "worker_wait_p99_ms",
        "p99 wait for a free worker (steps handed to the workers)",
        "ms",
    ),
    plain(
        "loop_connections_spread",
        "connections per loop, busiest ÷ quietest",
        "",
    ),
    plain("latency_p999_ms", "p99.9 response time", "ms"),
    plain("latency_max_ms", "longest response time", "ms"),
    plain("queue_wait_p99_ms", "p99 wait in line", "ms"),
    plain("calls", "calls made", ""),
    plain("retries", "retries", ""),
    plain("tries_per_call", "tries per call", ""),
    share("call_success_share", "calls answered in time", "% of calls"),
    plain("shed", "requests shed from the line", ""),
    plain("dropped_hopeless", "requests dropped as hopeless", ""),
    plain("broken", "tries the circuit breaker failed at once", ""),
    plain("timed_out", "requests timed out", ""),
    plain("dep_calls", "calls to the dependency", ""),
    plain("hedges", "hedges (slow calls sent again)", ""),
    share(
        "hedge_extra_share",
        "extra calls from hedging",
        "% of calls",
    ),
    share(
        "dep_utilisation",
        "the dependency's slots busy",
        "% of the time",
    ),
    plain(
        "dep_pool_wait_mean_ms",
        "mean wait for a connection to the dependency",
        "ms",
    ),
    plain(
        "dep_pool_wait_p99_ms",
        "p99 wait for a connection to the dependency",
        "ms",
    ),
    plain(
        "dep_queue_wait_mean_ms",
        "mean wait in line at the dependency",
        "ms",
    ),
    plain(
        "dep_queue_wait_p99_ms",
        "p99 wait in line at the dependency",
        "ms",
    ),
];

/// The label of figure `name`; `None` for a name not among the [`figures`].
pub fn figure_label(name: &str) -> Option<&'static FigureLabel> {
    FIGURE_LABELS.iter().find(|l| l.name == name)
}

impl FigureLabel {
    /// A report value as the learner reads it, with its unit: "57.3 ms",
    /// "36.7 % of calls", "30"; "—" for no value.
    pub fn value_text(&self, value: f64) -> String {
        let number = format_number(value * self.scale);
        if value.is_nan() || self.unit.is_empty() {
            number
        } else {
            format!("{number} {}", self.unit)
        }
    }

    /// The unit a learner writes this figure in: a share in percent, a
    /// time in ms or s, a rate in rps, memory in MB, else a count.
    pub fn answer_unit(&self) -> Unit {
        match self.unit {
            _ if self.scale == 100.0 => Unit::Percent,
            "ms" => Unit::Ms,
            "s" => Unit::S,
            "MB" => Unit::Mb,
            RPS => Unit::Rps,
            _ => Unit::Count,
        }
    }

    /// The figure and its value: "mean wait in line: 57.3 ms".
    pub fn text(&self, value: f64) -> String {
        format!("{}: {}", self.words, self.value_text(value))
    }
}

/// FNV-1a: a stable hash of a text, the same on every platform.
pub fn stable_hash(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ b as u64).wrapping_mul(0x0100_0000_01b3)
    })
}

/// Format a number as the lessons write it: thousands separated by commas,
/// about three significant digits, no trailing zeros ("1,000", "33.3", "0.1").
pub fn format_number(x: f64) -> String {
    fmt_figures(x, 0)
}

/// One student's version of an exercise.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Variant {
    /// Parameter values.
    pub vars: Vars,
    /// The question with the numbers in it.
    pub prompt: String,
    /// The expected answer in the exercise's unit (numeric), else `None`.
    pub answer: Option<f64>,
    /// Hints with the numbers in them.
    pub hints: Vec<String>,
    /// Solution steps with the numbers in them.
    pub solution: Vec<String>,
    /// Options in the order this student sees them (choice, diagnosis).
    pub options: Vec<String>,
    /// Why each shown option is right or wrong, in the shown order.
    pub explain: Vec<String>,
    /// Index of the right option in the shown order.
    pub correct: Option<usize>,
}

impl Exercise {
    /// Parameter values for `seed` (a class code and student name, or "" for
    /// everyone): each drawn from its grid min, min + step, …, max. The first
    /// value of every grid is the default when the seed is empty.
    pub fn vars(&self, seed: &str) -> Vars {
        let mut rng = seeded(stable_hash(&format!("{seed}/{}", self.id)));
        self.params
            .iter()
            .map(|(name, &[lo, hi, step])| {
                let steps = ((hi - lo) / step).round().max(0.0) as u64;
                let k = if seed.is_empty() {
                    0
                } else {
                    below(&mut rng, steps + 1)
                };
                // Round away binary noise such as 0.30000000000000004.
                let v = ((lo + k as f64 * step) * 1e9).round() / 1e9;
                (name.clone(), v)
            })
            .collect()
    }

    /// The order in which `seed`'s student sees the options: shown
    /// position → written index. A shuffle drawn from the seed and the
    /// exercise id, so each student keeps one order and classmates differ;
    /// the empty seed is shuffled too, so the written order never shows.
    pub fn option_order(&self, seed: &str) -> Vec<usize> {
        let mut order: Vec<usize> = (0..self.options.len()).collect();
        let mut rng = seeded(stable_hash(&format!("{seed}/{}/options", self.id)));
        for i in (1..order.len()).rev() {
            let j = below(&mut rng, i as u64 + 1) as usize;
            order.swap(i, j);
        }
        order
    }

    /// The student's version for `seed`.
    pub fn variant(&self, seed: &str) -> Result<Variant, String> {
        let vars = self.vars(seed);
        let fill = |t: &String| fill_text(t, &vars);
        let order = self.option_order(seed);
        Ok(Variant {
            prompt: fill(&self.prompt)?,
            answer: self.answer.as_ref().map(|a| eval(a, &vars)).transpose()?,
            hints: fill_lines(&self.hints, &vars)?,
            solution: fill_lines(&self.solution, &vars)?,
            options: order.iter().map(|&i| self.options[i].clone()).collect(),
            explain: order
                .iter()
                .filter_map(|&i| self.explain.get(i).cloned())
                .collect(),
            correct: self
                .correct
                .and_then(|c| order.iter().position(|&i| i == c)),
            vars,
        })
    }

    /// Whether the answer is a whole number rounded up: its formula is one
    /// `ceil(…)` ("ceil(rps * cpu / 700)", not "ceil(n / pool) * wait").
    pub fn rounds_up(&self) -> bool {
        self.rounded_up_formula().is_some()
    }

    /// The number the answer rounds up, for `vars` (see
    /// [`Exercise::rounds_up`]): the checker names it, typed, as the answer
    /// before rounding.
    pub fn rounded_up_from(&self, vars: &Vars) -> Option<f64> {
        eval(self.rounded_up_formula()?, vars).ok()
    }

    /// The formula inside the answer's one `ceil(…)`, if it is one.
    fn rounded_up_formula(&self) -> Option<&str> {
        let inner = self
            .answer
            .as_deref()
            .map(str::trim)
            .and_then(|a| a.strip_prefix("ceil("))
            .and_then(|a| a.strip_suffix(')'))?;
        // "ceil(a) + ceil(b)" ends in a parenthesis too: the first one
        // closes before the end.
        let mut depth = 0i32;
        for c in inner.chars() {
            depth += match c {
                '(' => 1,
                ')' => -1,
                _ => 0,
            };
            if depth < 0 {
                return None;
            }
        }
        (depth == 0).then_some(inner)
    }

    /// Which slip a wrong answer's number is, where it is the number a
    /// listed mistake gives for these values (read as the answer is, within
    /// the exercise's tolerance and at least [`SLIP_TOLERANCE`], or rounded
    /// to the decimals the question asks for, or as typed to fewer where
    /// the answer rounded so reads otherwise): that mistake, the nearest
    /// where several are near (525 MB is 500 MiB, the first mistake's
    /// number, but exactly the second's); else, where it is `answer` (the
    /// variant's) a thousand times too large or too small, that. `None` for
    /// any other number (and for an exercise that is not numeric).
    pub fn slip(&self, vars: &Vars, answer: Option<f64>, typed: &str) -> Option<Slip> {
        self.slip_within(vars, answer, typed, false)
    }

    /// The listed mistake whose number `typed` is, to a thousandth: for a
    /// number that is also the answer rounded too far, where only a
    /// mistake's own number says which the learner did (lesson 12's "10" %
    /// is ten 1 % chances added up; "44" for 44.4 threads is no sign of a
    /// mistake of 43.2, which the tolerance would have named).
    pub fn exact_slip(&self, vars: &Vars, typed: &str) -> Option<Slip> {
        self.slip_within(vars, None, typed, true)
    }

    /// The listed mistake the checker's `verdict` on `typed` names: for a
    /// wrong number (or one not rounded up, or a percentage either way) the
    /// mistake whose number it is within the tolerance ([`Exercise::slip`]);
    /// for the answer rounded too far, only a mistake's own number
    /// ([`Exercise::exact_slip`]); for any other verdict none. The page and
    /// the course's tests ask it alike.
    pub fn slip_for(
        &self,
        verdict: &crate::check::Verdict,
        vars: &Vars,
        answer: Option<f64>,
        typed: &str,
    ) -> Option<Slip> {
        use crate::check::Verdict;
        match verdict {
            Verdict::WrongValue { .. }
            | Verdict::NotRoundedUp { .. }
            | Verdict::RoundedDown { .. }
            | Verdict::PercentEitherWay { .. } => self.slip(vars, answer, typed),
            // "40,000" where the answer is 40: right only with a decimal
            // comma, but one who meant 40 would not type ",000": as the
            // lessons print numbers it is forty thousand, the slip of
            // 100 ms read as 100 s. Asked "40000 or 40?", the learner was
            // handed the answer. "96,078" for 96.08 is still asked.
            Verdict::Ambiguous { typed: shown, .. } if groups_zeros(shown) => {
                self.slip(vars, answer, typed)
            }
            Verdict::TooRounded { .. } => self.exact_slip(vars, typed),
            _ => None,
        }
    }

    fn slip_within(
        &self,
        vars: &Vars,
        answer: Option<f64>,
        typed: &str,
        exact: bool,
    ) -> Option<Slip> {
        let unit = self.unit?;
        let tolerance = self.tolerance?.max(SLIP_TOLERANCE);
        let asked = crate::check::decimals_asked(&self.prompt);
        // Whether `typed` is `value` within `tol`, or `value` rounded as asked.
        let gives = |value: f64, tol: f64| {
            let rounded = asked.map(|d| {
                let k = 10f64.powi(d as i32);
                (value * k).round() / k
            });
            value.is_finite()
                && [Some(value), rounded]
                    .into_iter()
                    .flatten()
                    .any(|v| crate::check::check_in(typed, v, unit, tol, &self.prompt).is_right())
        };
        let listed: Vec<(usize, f64)> = self
            .mistakes
            .iter()
            .take(self.mistake_notes.len())
            .enumerate()
            .filter_map(|(i, m)| Some((i, eval(m, vars).ok()?)))
            .collect();
        // A mistake's window never reaches past halfway to the answer: with
        // fd-limit-clients' exact 31,900 beside the whole limit of 32,000,
        // 31,899 (one off) was named "that is the whole limit".
        let within = |tol: f64| {
            listed
                .iter()
                .find(|(_, value)| {
                    let halfway = answer.map_or(tol, |a| (value - a).abs() / (2.0 * value.abs()));
                    gives(*value, tol.min(halfway))
                })
                .map(|(i, _)| Slip::Mistake(*i))
        };
        // A mistake's number rounded to fewer decimals than the question
        // asks, as typed: "36.8" or "37" for hedge-cost's share in percent,
        // 36.788 (read as "rounded too far", it was told only "too high"),
        // within the tolerance of it.
        // Not where the answer rounded the same way reads so too ("7" for
        // 6.67 is no sign of a mistake of 7.14), and the mistake nearest
        // the number typed where several round to it.
        let rounded_further = || {
            let places = crate::check::decimals_typed(typed);
            if asked? <= places {
                return None;
            }
            let k = 10f64.powi(places as i32);
            let round = |v: f64| (v * k).round() / k;
            let reads =
                |v: f64| v.is_finite() && crate::check::check(typed, v, unit, 1e-9).is_right();
            if answer.is_some_and(|a| reads(round(a))) {
                return None;
            }
            // Rounded as typed, and still near it: "2" is no rounding of
            // threads-busy's 1.5 that says which slip it was.
            let near = |v: f64| (round(v) - v).abs() <= tolerance * v.abs();
            listed
                .iter()
                .filter(|(_, value)| reads(round(*value)) && near(*value))
                .min_by(|(_, a), (_, b)| (a - round(*a)).abs().total_cmp(&(b - round(*b)).abs()))
                .map(|(i, _)| Slip::Mistake(*i))
        };
        // The nearest first: exact, then within a thousandth, then rounded
        // further than asked, then within the tolerance.
        let near = within(0.0).or_else(|| within(0.001));
        if exact {
            return near;
        }
        // Zero is a thousandth of nothing: it was named a thousandfold slip
        // of a small answer (0 for 0.2 cores).
        let a = answer.filter(|a| *a != 0.0 && !gives(0.0, 0.0));
        let too_small = a.is_some_and(|a| gives(a / 1000.0, tolerance));
        // "10.000" for 10,000 is thousands written with a dot, even where a
        // listed mistake is a thousandth of the answer (connections-per-ram
        // named its GB read as 1,000 KB); but not where the question asks
        // for as many decimals, and "1.500" may be 1.5 to three places.
        if too_small
            && dot_groups_thousands(typed)
            && asked.is_none_or(|d| crate::check::decimals_typed(typed) > d)
        {
            return Some(Slip::DotThousands);
        }
        let named = near.or_else(rounded_further).or_else(|| within(tolerance));
        named.or_else(|| {
            let too_large = gives(a? * 1000.0, tolerance);
            (too_small || too_large).then_some(Slip::Thousandfold)
        })
    }

    /// What [`Exercise::slip`]'s slip is, in words, for the learner:
    /// "That is the CPU time alone: …". `None` for a mistake this exercise
    /// does not list (a slip read from a file of another version) and for
    /// an option.
    pub fn slip_note_of(&self, slip: Slip) -> Option<&str> {
        match slip {
            Slip::Mistake(i) => self.mistake_notes.get(i).map(String::as_str),
            // An option is its own words (`options`); the checker names no
            // slip in them.
            Slip::Option(_) => None,
            Slip::DotThousands => Some(DOT_THOUSANDS),
            Slip::Thousandfold => {
                let units = ["ms", "µs", "KB", "MB", "GB"];
                let label = self.unit.map_or("", |u| u.label());
                let in_play =
                    units.contains(&label) || units.iter().any(|u| self.prompt.contains(u));
                Some(if in_play {
                    THOUSANDFOLD_UNITS
                } else {
                    THOUSANDFOLD
                })
            }
        }
    }

    /// The scenario of "check it in the simulator" for these values, if any.
    pub fn check_scenario(&self, vars: &Vars) -> Option<Result<Scenario, String>> {
        let check = self.check.as_ref()?;
        let mut obj = serde_json::Map::new();
        for (k, v) in check {
            let v = match v {
                serde_json::Value::String(s) if s.contains('{') => {
                    let text = match fill_text(s, vars) {
                        Ok(t) => t,
                        Err(e) => return Some(Err(e)),
                    };
                    let n: f64 = match tellers_sim::text::number(&text.replace(',', "")) {
                        Some(n) => n,
                        None => return Some(Err(format!("check.{k}: '{text}' is not a number"))),
                    };
                    serde_json::json!(n)
                }
                other => other.clone(),
            };
            obj.insert(k.clone(), v);
        }
        Some(scenario_from_fields(obj))
    }
}

/// A scenario from JSON fields laid over the defaults, read by the field
/// table (integers given as floats, from `{param}` substitution, are
/// accepted where whole), and validated.
pub fn scenario_from_fields(
    obj: serde_json::Map<String, serde_json::Value>,
) -> Result<Scenario, String> {
    let s: Scenario = tellers_sim::fields::read_object(tellers_sim::scenario::FIELDS, &obj)
        .map_err(|e| e.to_string())?;
    match s.validate().first() {
        Some(e) => Err(e.to_string()),
        None => Ok(s),
    }
}

/// Fill each line with [`fill_text`], keeping a line that starts with
/// `{if EXPR}` only when EXPR is true (not 0), without that prefix: a worked
/// solution can then follow the student's case ("the line grows without
/// limit" or "R = …").
pub fn fill_lines(lines: &[String], vars: &Vars) -> Result<Vec<String>, String> {
    let mut out = Vec::new();
    for line in lines {
        let text = match line.strip_prefix("{if ") {
            Some(rest) => {
                let (cond, text) = rest
                    .split_once('}')
                    .ok_or_else(|| format!("unclosed '{{if' in: {line}"))?;
                if eval(cond, vars)? == 0.0 {
                    continue;
                }
                text.trim_start()
            }
            None => line.as_str(),
        };
        out.push(fill_text(text, vars)?);
    }
    Ok(out)
}

/// Whether a number typed as "40,000" ends in a comma and three zeros: a
/// decimal comma would not be typed so, a thousands comma would.
fn groups_zeros(typed: &str) -> bool {
    typed
        .rsplit_once(',')
        .is_some_and(|(_, after)| after.len() >= 3 && after.bytes().take(3).all(|b| b == b'0'))
}

/// Replace `{name}` with a parameter and `{= expr}` with its value, formatted
/// ([`format_number`]); `{=.2 expr}` gives it with 2 decimals, as a sum
/// about to be rounded up needs ("31.99", where three figures say "32");
/// `{=+ expr}` with a decimal more, as a number the solution goes on to
/// multiply needs ("105.3", where three figures say "105"), and `{=++ expr}`
/// with two more, where a quotient of such numbers must still round as
/// shown ("21.845 ÷ (14.781 + 21.845) = 0.596").
pub fn fill_text(text: &str, vars: &Vars) -> Result<String, String> {
    let mut out = String::new();
    let mut rest = text;
    while let Some(open) = rest.find('{') {
        out.push_str(&rest[..open]);
        let close = rest[open..]
            .find('}')
            .ok_or_else(|| format!("unclosed '{{' in: {text}"))?
            + open;
        let inner = rest[open + 1..close].trim();
        // "=.2 expr": two decimals ("= .5 + x" is an expression). The
        // space may have become a no-break one ("=.1 rps" reads as a number
        // and its unit).
        let spec = inner
            .strip_prefix("=.")
            .and_then(|d| d.split_once(char::is_whitespace))
            .filter(|(d, _)| d.len() == 1 && d.as_bytes()[0].is_ascii_digit());
        // "=+ expr", "=++ expr": a decimal more for each "+".
        let finer = inner.strip_prefix('=').and_then(|e| {
            let more = e.len() - e.trim_start_matches('+').len();
            let expr = e[more..].strip_prefix(char::is_whitespace)?;
            (more > 0).then_some((more, expr))
        });
        let (expr, decimals) = match (spec, finer, inner.strip_prefix('=')) {
            (Some((d, expr)), _, _) => (Some(expr), Some(usize::from(d.as_bytes()[0] - b'0'))),
            (None, Some((_, expr)), _) => (Some(expr), None),
            (None, None, e) => (e, None),
        };
        let value = match expr {
            Some(expr) => eval(expr, vars)?,
            None => *vars
                .get(inner)
                .ok_or_else(|| format!("unknown parameter '{inner}' in: {text}"))?,
        };
        out.push_str(&match decimals {
            Some(d) => fmt_fixed(value, d),
            // A number the solution goes on to multiply keeps a decimal
            // more per "+", so the product shown is the product of the
            // numbers shown ("105.3 × 5 ms = 526 ms").
            None => fmt_figures(value, finer.map_or(0, |(more, _)| more)),
        });
        rest = &rest[close + 1..];
    }
    out.push_str(rest);
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A dot groups thousands only after a whole part not led by 0:
    /// "0.015" for 15 is a thousand times too small, not "1.500" written
    /// the European way.
    #[test]
    fn a_dot_after_a_leading_zero_is_a_decimal_point() {
        assert!(dot_groups_thousands("3.950 connections"));
        assert!(dot_groups_thousands("120.000"));
        assert!(!dot_groups_thousands("0.015"));
        assert!(!dot_groups_thousands("0.150 s"));
        assert!(!dot_groups_thousands("3.95"));
    }

    /// Each slip of an exercise has a bit of its own, and one past what an
    /// exercise may list has none.
    #[test]
    fn each_slip_has_a_bit_of_its_own() {
        let numeric: Vec<Slip> = (0..MAX_LISTED)
            .map(Slip::Mistake)
            .chain([Slip::DotThousands, Slip::Thousandfold])
            .collect();
        let options: Vec<Slip> = (0..MAX_LISTED).map(Slip::Option).collect();
        for slips in [numeric, options] {
            let bits: Vec<u8> = slips.iter().map(|s| s.bit()).collect();
            assert!(bits.iter().all(|b| b.count_ones() == 1), "{bits:?}");
            let all = bits.iter().fold(0u8, |a, b| a | b);
            assert_eq!(all.count_ones() as usize, bits.len(), "{bits:?}");
        }
        assert_eq!(Slip::Mistake(MAX_LISTED).bit(), 0);
        assert_eq!(Slip::Option(MAX_LISTED).bit(), 0);
    }

    /// `{=.2 expr}` keeps two decimals where three figures would round a
    /// sum to the whole number it is about to be rounded up to.
    #[test]
    fn a_number_can_be_given_with_its_decimals() {
        let vars: Vars = [("x".to_string(), 31.987)].into_iter().collect();
        assert_eq!(fill_text("{= x}", &vars).unwrap(), "32");
        assert_eq!(
            fill_text("{=.2 x} over {=.0 x}", &vars).unwrap(),
            "31.99 over 32"
        );
        assert_eq!(fill_text("{= .5 + x}", &vars).unwrap(), "32.5");
        // A decimal more, without trailing zeros.
        let rate: Vars = [("r".to_string(), 1000.0 / 9.5)].into_iter().collect();
        assert_eq!(fill_text("{=+ r} × 5", &rate).unwrap(), "105.3 × 5");
        assert_eq!(fill_text("{=+ r / r * 100}", &rate).unwrap(), "100");
        assert_eq!(fill_text("{=+ 0.99 ^ 10}", &rate).unwrap(), "0.9044");
        assert_eq!(fill_text("{=++ r} × 5", &rate).unwrap(), "105.26 × 5");
    }

    #[test]
    fn checks_fill_whole_number_fields_that_are_off_by_default() {
        let fields: serde_json::Map<String, serde_json::Value> =
            serde_json::from_str(r#"{"threads": 20.0, "queue_limit": 50.0, "retries": 3.0}"#)
                .unwrap();
        let s = scenario_from_fields(fields).unwrap();
        assert_eq!((s.threads, s.queue_limit, s.retries), (20, Some(50), 3));
        let half: serde_json::Map<String, serde_json::Value> =
            serde_json::from_str(r#"{"queue_limit": 50.5}"#).unwrap();
        assert!(scenario_from_fields(half).is_err());
    }

    #[test]
    fn every_figure_reads_from_a_report() {
        let s = Scenario {
            retries: 2,
            timeout_ms: Some(150.0),
            duration_s: 5.0,
            ..Scenario::default()
        };
        let r = tellers_sim::simulate(&s).unwrap();
        for f in figures()
            // Figures of one model or feature: read where they apply.
            .filter(|f| {
                !f.starts_with("loop_")
                    && !f.starts_with("worker_")
                    && !matches!(*f, "dep_utilisation" | "mean_busy_workers")
            })
        {
            let v = report_value(&r, f).unwrap_or_else(|| panic!("{f} does not read"));
            assert!(v.is_finite(), "{f} = {v}");
        }
        assert_eq!(report_value(&r, "no_such_figure"), None);
        // A call is one to three tries: the share and the ratio say so.
        let tries = report_value(&r, "tries_per_call").unwrap();
        assert!((1.0..=3.0).contains(&tries) && tries > 1.0, "{tries}");
        let ok = report_value(&r, "call_success_share").unwrap();
        assert!(ok > 0.0 && ok < 1.0, "{ok}");
        // A dependency with a limit has a utilisation; hedges are counted.
        let dep = tellers_sim::simulate(&Scenario {
            dep_concurrency: Some(4),
            fan_out: 3,
            hedge_after_ms: Some(50.0),
            duration_s: 5.0,
            ..Scenario::default()
        })
        .unwrap();
        let u = report_value(&dep, "dep_utilisation").unwrap();
        assert!(u > 0.0 && u <= 1.0, "{u}");
        let extra = report_value(&dep, "hedge_extra_share").unwrap();
        assert!(extra > 0.0 && extra < 1.0, "{extra}");
        assert_eq!(report_value(&r, "dep_utilisation"), None);
        // Workers report their wait; other models have none to read.
        let workers = tellers_sim::simulate(&Scenario {
            model: tellers_sim::Model::EventLoopWorkers,
            loops: 1,
            offload_above_ms: 0.0,
            rps: 300.0,
            duration_s: 5.0,
            ..Scenario::default()
        })
        .unwrap();
        let mean = report_value(&workers, "worker_wait_mean_ms").unwrap();
        let p99 = report_value(&workers, "worker_wait_p99_ms").unwrap();
        assert!(mean > 0.0 && p99 > mean, "{mean} {p99}");
        assert_eq!(report_value(&r, "worker_wait_mean_ms"), None);
    }

    #[test]
    fn every_figure_has_a_label_in_words_with_its_unit() {
        for l in FIGURE_LABELS {
            assert!(!l.words.contains('_'), "{}: {}", l.name, l.words);
            // The course says "line", never "queue".
            assert!(!l.words.contains("queue"), "{}: {}", l.name, l.words);
            assert_eq!(l.words, l.words.trim(), "{}", l.name);
            // A share shown in percent says so; nothing else does.
            assert_eq!(l.scale == 100.0, l.unit.starts_with('%'), "{}", l.name);
            // A guess is read in the unit shown: only a bare count is a count.
            assert_eq!(
                l.unit.is_empty(),
                l.answer_unit() == Unit::Count,
                "{}: {}",
                l.name,
                l.unit
            );
        }
        let text = |name, v| figure_label(name).unwrap().text(v);
        assert_eq!(
            text("queue_len_end", 30.0),
            "requests in line at the end: 30"
        );
        assert_eq!(
            text("queue_growth_per_s", 204.0),
            "line growth: 204 requests per second"
        );
        assert_eq!(
            text("hedge_extra_share", 0.367),
            "extra calls from hedging: 36.7 % of calls"
        );
        assert_eq!(
            text("queue_wait_mean_ms", 57.3),
            "mean wait in line: 57.3 ms"
        );
        assert_eq!(text("latency_mean_ms", f64::NAN), "mean response time: —");
        assert_eq!(figure_label("no_such_figure"), None);
    }

    #[test]
    fn numbers_read_as_in_the_lessons() {
        assert_eq!(format_number(1000.0), "1,000");
        assert_eq!(format_number(10_000_000.0), "10,000,000");
        assert_eq!(format_number(33.3333), "33.3");
        assert_eq!(format_number(7.142857), "7.14");
        assert_eq!(format_number(0.1), "0.1");
        assert_eq!(format_number(0.26), "0.26");
        assert_eq!(format_number(40.0), "40");
        assert_eq!(format_number(-1234.6), "−1,235");
        assert_eq!(format_number(0.0), "0");
        assert_eq!(format_number(f64::NAN), "—");
    }

    #[test]
    fn text_takes_params_and_expressions() {
        let vars: Vars = [("rps".to_string(), 400.0)].into_iter().collect();
        assert_eq!(
            fill_text("{rps} × 0.1 s = {= rps * 0.1} threads", &vars).unwrap(),
            "400 × 0.1 s = 40 threads"
        );
        assert!(fill_text("{nope}", &vars)
            .unwrap_err()
            .contains("unknown parameter 'nope'"));
    }

    #[test]
    fn conditional_lines_follow_the_case() {
        let lines = vec![
            "ρ = {= rps / 100}".to_string(),
            "{if rps >= 100} The line grows without limit.".to_string(),
            "{if rps < 100} R = {= 10 / (1 - rps / 100)} ms".to_string(),
        ];
        let at = |rps: f64| {
            let vars: Vars = [("rps".to_string(), rps)].into_iter().collect();
            fill_lines(&lines, &vars).unwrap()
        };
        assert_eq!(at(50.0), ["ρ = 0.5", "R = 20 ms"]);
        assert_eq!(at(120.0), ["ρ = 1.2", "The line grows without limit."]);
    }

    #[test]
    fn options_are_shuffled_per_student_and_the_key_follows() {
        let ex = Exercise {
            id: "q".into(),
            kind: Kind::Choice,
            prompt: "?".into(),
            params: BTreeMap::new(),
            answer: None,
            unit: None,
            tolerance: None,
            options: ["a", "b", "c", "d"].map(String::from).to_vec(),
            correct: Some(2),
            explain: ["no a", "no b", "yes c", "no d"].map(String::from).to_vec(),
            hints: vec![],
            solution: vec![],
            check: None,
            check_field: None,
            note: None,
            no_limit: false,
            mistakes: vec![],
            mistake_notes: vec![],
            branches: vec![],
        };
        let mut orders = std::collections::BTreeSet::new();
        for i in 0..40 {
            let seed = format!("class-1/s{i}");
            let v = ex.variant(&seed).unwrap();
            assert_eq!(v, ex.variant(&seed).unwrap(), "one order per student");
            let c = v.correct.unwrap();
            assert_eq!(v.options[c], "c");
            assert_eq!(v.explain[c], "yes c");
            for (o, e) in v.options.iter().zip(&v.explain) {
                assert!(e.ends_with(o.as_str()), "{o}: {e}");
            }
            orders.insert(v.options.concat());
        }
        assert!(
            orders.len() > 10,
            "classmates see different orders: {orders:?}"
        );
    }

    #[test]
    fn seeds_give_stable_different_numbers_on_the_grid() {
        let ex = Exercise {
            id: "t".into(),
            kind: Kind::Numeric,
            prompt: "{rps}".into(),
            params: [("rps".to_string(), [100.0, 1000.0, 50.0])]
                .into_iter()
                .collect(),
            answer: Some("rps / 10".into()),
            unit: Some(Unit::Rps),
            tolerance: Some(0.01),
            options: vec![],
            correct: None,
            explain: vec![],
            hints: vec![],
            solution: vec![],
            check: None,
            check_field: None,
            note: None,
            no_limit: false,
            mistakes: vec![],
            mistake_notes: vec![],
            branches: vec![],
        };
        assert_eq!(ex.vars("")["rps"], 100.0);
        let a = ex.vars("class-7/ana")["rps"];
        assert_eq!(a, ex.vars("class-7/ana")["rps"]);
        let distinct: std::collections::BTreeSet<u64> = (0..20)
            .map(|i| ex.vars(&format!("class-7/s{i}"))["rps"] as u64)
            .collect();
        assert!(
            distinct.len() > 5,
            "classmates get different numbers: {distinct:?}"
        );
        for v in distinct {
            assert!((100..=1000).contains(&v) && v % 50 == 0);
        }
        assert_eq!(ex.variant("class-7/ana").unwrap().answer, Some(a / 10.0));
    }
}
