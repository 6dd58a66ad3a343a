//! The playground's and the lessons' controls, read off the simulator's
//! field table ([`tellers_sim::scenario::FIELDS`]): which fields a scenario
//! shows, and reading and writing one by name. Labels, units, ranges,
//! slider steps and choices all come from the table; nothing here repeats
//! them.

use tellers_sim::fields::{Control, UseRule};
use tellers_sim::scenario::Field;
use tellers_sim::scenario::FIELDS;
use tellers_sim::schedule::Schedule;
use tellers_sim::Scenario;

/// The field called `name`, if there is one.
pub fn field(name: &str) -> Option<&'static Field> {
    Scenario::field(name)
}

/// The field called `name` if a lesson or the playground can show a control
/// for it (a slider, a select, a check box or the seed box).
pub fn control_field(name: &str) -> Option<&'static Field> {
    field(name).filter(|f| !matches!(f.control, Control::None))
}

/// The playground's controls for `s`, by field name, in the table's order:
/// the model's own settings, the workload, the arrivals' own settings, the
/// caller, the run and its seed. A field shows when `s` uses it.
pub fn visible_controls(s: &Scenario) -> Vec<&'static str> {
    FIELDS
        .iter()
        .filter(|f| f.in_playground && f.used.by(s))
        .map(|f| f.name)
        .collect()
}

/// A lesson widget's controls for `s`: of the fields its author lists
/// (`sliders`, names the course build has checked), those `s` uses, in the
/// list's order. A lesson that lets the learner switch arrivals lists
/// both "clients" and "rps", and sees the one the arrivals use.
pub fn widget_controls(sliders: &[String], s: &Scenario) -> Vec<&'static str> {
    sliders
        .iter()
        .filter_map(|name| control_field(name))
        .filter(|f| f.used.by(s))
        .map(|f| f.name)
        .collect()
}

/// The load's controls, first on presenter mode's strip.
const STRIP_LOAD: [&str; 3] = ["rps", "clients", "count"];
/// Mechanisms a preset turns on to be seen, next on the strip while they
/// differ from the default scenario's value (off, none or one call).
const STRIP_MECHANISMS: [&str; 9] = [
    "timeout_ms",
    "retries",
    "retry_budget",
    "breaker_after",
    "queue_limit",
    "shed_after_ms",
    "hedge_after_ms",
    "fan_out",
    "dep_pool",
];
/// The server's size, its cores and the wait: the strip's last places.
const STRIP_SIZE: [&str; 6] = [
    "threads",
    "thread_cap",
    "workers",
    "loops",
    "cores",
    "wait_ms",
];

/// The few controls presenter mode keeps on screen (at most four, those
/// the scenario uses), so a teacher can change the key values live in
/// front of a class: the load, then the mechanisms the scenario turns on
/// (a timeout, retries, a breaker: the spike-metastable preset is about
/// them), then the server's size, its cores and the wait. Under a load
/// schedule there is no load control: the schedule's editor, a table of
/// steps, would push the scene off a 720p projector.
///
/// `before` is the scenario and the strip shown before this change. The
/// strip stays where only its own sliders moved and they all still show:
/// a teacher who slides retries to 0 keeps the retries slider under the
/// pointer, where a ranking by what is on would take it away. Any other
/// change (a preset chosen, a link opened) ranks the strip afresh.
pub fn presenter_controls(
    s: &Scenario,
    before: Option<(&Scenario, &[&'static str])>,
) -> Vec<&'static str> {
    let shown = visible_controls(s);
    let base = Scenario::default();
    let on: Vec<&str> = changed(&base, s).map(|f| f.name).collect();
    // In the strip's order: the load, the mechanisms on, the size.
    let mut wanted: Vec<&'static str> = STRIP_LOAD
        .iter()
        .chain(&STRIP_MECHANISMS)
        .chain(&STRIP_SIZE)
        .copied()
        .filter(|f| shown.contains(f) && (!STRIP_MECHANISMS.contains(f) || on.contains(f)))
        .collect();
    if let Some((was, k)) = before {
        let moved_on_strip = changed(was, s).all(|f| k.contains(&f.name));
        if moved_on_strip && k.iter().all(|f| shown.contains(f)) {
            return k.to_vec();
        }
    }
    wanted.truncate(4);
    wanted
}

/// One line of a controls panel: a group's heading or a field's control.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ControlItem {
    /// A heading ("Callers", "When overloaded").
    Heading(&'static str),
    /// A field's control, by name.
    Field(&'static str),
}

/// The controls for `fields` with a heading before each group, when they
/// span more than one group (a lesson's two sliders need no headings).
pub fn control_items(fields: &[&'static str]) -> Vec<ControlItem> {
    let groups: Vec<_> = fields
        .iter()
        .filter_map(|f| field(f).map(|f| f.group))
        .collect();
    let headed = groups.windows(2).any(|w| w[0] != w[1]);
    let mut out = Vec::new();
    let mut last = None;
    for (name, group) in fields.iter().zip(groups) {
        if headed && last != Some(group) {
            out.push(ControlItem::Heading(group.heading()));
            last = Some(group);
        }
        out.push(ControlItem::Field(name));
    }
    out
}

/// A numeric field's value (an optional field that is off reads as 0).
pub fn field_value(s: &Scenario, name: &str) -> f64 {
    field(name).map_or(0.0, |f| f.number(s))
}

/// A field's value as the URL writes it, e.g. `thread-pool` or `true`.
pub fn choice_value(s: &Scenario, name: &str) -> String {
    field(name).map_or_else(String::new, |f| (f.get)(s).to_string())
}

/// `s` with `name` set to `value`, clamped to the field's range (0
/// switches an optional field off). Unchanged if the result is invalid.
pub fn with_field(s: &Scenario, name: &str, value: f64) -> Scenario {
    try_field(s, name, value).unwrap_or_else(|_| s.clone())
}

/// [`with_field`], or why the scenario would not be valid (a rule between
/// fields, in the learner's words).
pub fn try_field(s: &Scenario, name: &str, value: f64) -> Result<Scenario, String> {
    let f = field(name).ok_or_else(|| format!("'{name}' is not a scenario field"))?;
    let refused = || {
        format!(
            "{}: {value} is not allowed; allowed {}",
            f.label,
            f.allowed()
        )
    };
    let v = f
        .from_f64(value.clamp(f.min(), f.max()))
        .ok_or_else(refused)?;
    f.check(v)?;
    let mut next = s.clone();
    if !(f.set)(&mut next, v) {
        return Err(refused());
    }
    match next.validate().first() {
        Some(e) => Err(e.message.clone()),
        None => Ok(next),
    }
}

/// `s` with `name` set from text (a select's value such as `event-loop`, or
/// `true`). Unchanged if the text is not allowed.
pub fn with_choice(s: &Scenario, name: &str, value: &str) -> Scenario {
    try_choice(s, name, value).unwrap_or_else(|_| s.clone())
}

/// [`with_choice`], or why not: the text is not one of the choices, or the
/// scenario would break a rule between fields (in the learner's words).
pub fn try_choice(s: &Scenario, name: &str, value: &str) -> Result<Scenario, String> {
    with_box(s, name, value)
}

/// What a number box says when its text is not allowed: what is wrong and
/// what is allowed, or `None` when the text is fine.
pub fn box_problem(s: &Scenario, name: &str, text: &str) -> Option<String> {
    with_box(s, name, text).err()
}

/// `s` with `name` set from the text typed in its number box ("1,200", or
/// "none" for an optional field), or what is wrong and what is allowed.
pub fn with_box(s: &Scenario, name: &str, text: &str) -> Result<Scenario, String> {
    let f = field(name).ok_or_else(|| format!("'{name}' is not a scenario field"))?;
    // The field reads thousands commas ("1,200") and refuses a decimal one.
    let mut next = s.clone();
    f.set_text(&mut next, text)?;
    match next.validate().first() {
        Some(e) => Err(e.message.clone()),
        None => Ok(next),
    }
}

/// A load schedule's steps, as (start s, rps) rows for the editor; empty
/// when the rate is steady.
pub fn schedule_rows(s: &Scenario) -> Vec<(f64, f64)> {
    s.rps_schedule
        .map(|sch| sch.steps().to_vec())
        .unwrap_or_default()
}

/// `s` with the load schedule set from editor rows (`None`: a steady rate),
/// or what is wrong with the rows.
pub fn with_schedule_rows(s: &Scenario, rows: Option<&[(f64, f64)]>) -> Result<Scenario, String> {
    let mut next = s.clone();
    next.rps_schedule = match rows {
        None => None,
        Some(rows) => Some(Schedule::new(rows)?),
    };
    match next.validate().first() {
        Some(e) => Err(e.message.clone()),
        None => Ok(next),
    }
}

/// A first schedule to edit: the steady rate, twice it for 5 s from 10 s,
/// then the steady rate again.
pub fn a_spike(s: &Scenario) -> Vec<(f64, f64)> {
    let r = s.rps;
    vec![
        (0.0, r),
        (10.0, (2.0 * r).min(tellers_sim::schedule::MAX_RPS)),
        (15.0, r),
    ]
}

/// Rows with the cell at `row`, `column` (0: the step's start, s; 1: its
/// rate) set from the text typed in it, or what is wrong with the text,
/// naming the step ("step 2: …").
pub fn edit_row(
    rows: &[(f64, f64)],
    row: usize,
    column: usize,
    text: &str,
) -> Result<Vec<(f64, f64)>, String> {
    use tellers_sim::schedule::{MAX_RPS, MAX_TIME_S, MIN_RPS};
    use tellers_sim::text::fmt_fixed;
    // What the cell allows, as the schedule's own check says it.
    let allowed = if column == 0 {
        format!("allowed 0–{} s", fmt_fixed(MAX_TIME_S, 0))
    } else {
        format!(
            "allowed 0 (a pause) or {MIN_RPS}–{} rps",
            fmt_fixed(MAX_RPS, 0)
        )
    };
    // "-0" is 0 ("from -0 s: times must increase").
    // Read as every number box reads one (the field table's own reader).
    let v = tellers_sim::text::typed_number(text)
        .map_err(|e| format!("step {}: {e}; {allowed}", row + 1))?
        + 0.0;
    let mut out = rows.to_vec();
    if let Some(r) = out.get_mut(row) {
        if column == 0 {
            r.0 = v;
        } else {
            r.1 = v;
        }
    }
    Ok(out)
}

/// Whether a schedule of `n` steps has room for one more.
pub fn can_add_row(n: usize) -> bool {
    n < tellers_sim::schedule::MAX_POINTS
}

/// What the schedule says beside its disabled "Add a step", at its most
/// steps (the button was greyed out with no word why); `None` below.
pub fn add_row_note(n: usize) -> Option<String> {
    (!can_add_row(n)).then(|| {
        format!(
            "A schedule has at most {} steps.",
            tellers_sim::schedule::MAX_POINTS
        )
    })
}

/// Whether a step can be removed from a schedule of `n` steps: one stays
/// ("Steady rate" removes the schedule).
pub fn can_remove_row(n: usize) -> bool {
    n > 1
}

/// Rows with one more step after the last (5 s later, the same rate), if
/// there is room for one.
pub fn with_one_more_row(rows: &[(f64, f64)]) -> Vec<(f64, f64)> {
    let mut out = rows.to_vec();
    if can_add_row(out.len()) {
        let (t, r) = out.last().copied().unwrap_or((0.0, 100.0));
        out.push(if out.is_empty() {
            (0.0, r)
        } else {
            (t + 5.0, r)
        });
    }
    out
}

/// The fields `now` sets otherwise than `first`, in the field table's
/// order.
fn changed<'a>(
    first: &'a Scenario,
    now: &'a Scenario,
) -> impl Iterator<Item = &'static Field> + 'a {
    FIELDS
        .iter()
        .filter(move |f| (f.get)(first) != (f.get)(now))
}

/// The labels of the fields `now` sets otherwise than `first`, in the
/// field table's order.
pub fn changed_fields(first: &Scenario, now: &Scenario) -> Vec<&'static str> {
    changed(first, now).map(|f| f.label).collect()
}

/// What a lesson's simulation says under its caption once the learner has
/// changed its settings: the caption is about the first ones. `None` while
/// nothing is changed. (After the learner set a wait of 150 ms, lesson 1's
/// caption still said "it holds each request for 100 ms".)
pub fn caption_changed_note(first: &Scenario, now: &Scenario) -> Option<String> {
    let changed: Vec<String> = changed_fields(first, now)
        .iter()
        .map(|label| format!("\u{201c}{label}\u{201d}"))
        .collect();
    (!changed.is_empty()).then(|| {
        format!(
            "You changed {}: the caption above is about the first settings.",
            tellers_sim::text::and_list(&changed)
        )
    })
}

#[cfg(test)]
mod tests {

    /// The note under a lesson's caption names what the learner changed,
    /// and goes once the settings are back.
    #[test]
    fn the_caption_says_when_the_settings_are_no_longer_its_own() {
        let first = tellers_sim::presets::preset("mm1").unwrap();
        assert_eq!(super::caption_changed_note(&first, &first), None);
        let wait = super::with_field(&first, "cpu_ms", 15.0);
        let both = super::with_field(&wait, "rps", 30.0);
        let label = |name| super::field(name).unwrap().label;
        assert_eq!(
            super::caption_changed_note(&first, &both).unwrap(),
            format!(
                "You changed \u{201c}{}\u{201d} and \u{201c}{}\u{201d}: the caption above is about the first settings.",
                label("cpu_ms"),
                label("rps")
            )
        );
        let back = super::with_field(&both, "cpu_ms", first.cpu_ms);
        let back = super::with_field(&back, "rps", first.rps);
        assert_eq!(super::caption_changed_note(&first, &back), None);
    }

    /// Each control a lesson lists shows at the start, or once another
    /// listed choice is changed (lesson 14's LIFO threshold, once the
    /// discipline is adaptive): none is listed and never seen.
    #[test]
    fn every_listed_control_of_a_lesson_can_be_seen() {
        use tellers_course::lesson::Segment;
        use tellers_sim::fields::Value;
        let course = crate::course_data::compiled_course();
        for l in &course.lessons {
            for seg in &l.segments {
                let Segment::Sim(sim) = seg else { continue };
                for name in &sim.sliders {
                    let seen =
                        |s: &Scenario| widget_controls(&sim.sliders, s).contains(&name.as_str());
                    let after_a_choice =
                        sim.sliders
                            .iter()
                            .filter_map(|c| control_field(c))
                            .any(|c| {
                                c.choices().iter().any(|(choice, _)| {
                                    let mut s = sim.scenario.clone();
                                    (c.set)(&mut s, Value::Choice(choice)) && seen(&s)
                                })
                            });
                    assert!(
                        seen(&sim.scenario) || after_a_choice,
                        "{}: {name} is listed but never shown",
                        l.slug
                    );
                }
            }
        }
    }

    #[test]
    fn a_widget_shows_the_listed_controls_its_arrivals_use() {
        let list: Vec<String> = ["arrivals", "clients", "rps", "nope"]
            .iter()
            .map(|n| n.to_string())
            .collect();
        let closed = Scenario {
            arrivals: tellers_sim::Arrivals::Closed,
            ..Scenario::default()
        };
        assert_eq!(widget_controls(&list, &closed), ["arrivals", "clients"]);
        let open = Scenario {
            arrivals: tellers_sim::Arrivals::Poisson,
            ..closed
        };
        assert_eq!(widget_controls(&list, &open), ["arrivals", "rps"]);
    }

    use super::*;
    use tellers_sim::{Arrivals, Model};
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

    /// A slider shows only where moving it changes the run: the arrival
    /// rate not under a load schedule (which sets the rate), the adaptive
    /// LIFO threshold only where threads take from a line.
    #[test]
    fn a_control_that_would_change_nothing_is_hidden() {
        let scheduled = tellers_sim::presets::preset("spike-metastable").unwrap();
        assert!(scheduled.rps_schedule.is_some());
        assert!(!visible_controls(&scheduled).contains(&"rps"));
        assert!(visible_controls(&Scenario::default()).contains(&"rps"));
        let adaptive = Scenario {
            discipline: tellers_sim::Discipline::AdaptiveLifo,
            ..Scenario::default()
        };
        assert!(visible_controls(&adaptive).contains(&"lifo_above_ms"));
        let on_loops = Scenario {
            model: tellers_sim::Model::EventLoop,
            ..adaptive
        };
        assert!(!visible_controls(&on_loops).contains(&"lifo_above_ms"));
    }

    #[test]
    fn presenter_mode_keeps_the_load_the_size_and_the_cores() {
        let pool = presenter_controls(&Scenario::default(), None);
        assert_eq!(pool, ["rps", "threads", "cores", "wait_ms"]);
        let loops = presenter_controls(
            &Scenario {
                model: Model::EventLoopWorkers,
                arrivals: Arrivals::Closed,
                ..Scenario::default()
            },
            None,
        );
        assert!(
            loops.contains(&"clients") && loops.contains(&"workers"),
            "{loops:?}"
        );
        assert!(loops.len() <= 4);
        // Under a load schedule the rate's slider would do nothing; the
        // spike's timeout and retries, what the preset is about, take its
        // place (the strip offered the pool, the cores and the wait).
        let spike = tellers_sim::presets::preset("spike-metastable").unwrap();
        let strip = presenter_controls(&spike, None);
        assert_eq!(strip, ["timeout_ms", "retries", "threads", "cores"]);
        let breaker = tellers_sim::presets::preset("spike-breaker").unwrap();
        let breaker_strip = presenter_controls(&breaker, Some((&spike, &strip)));
        assert_eq!(
            breaker_strip,
            ["timeout_ms", "retries", "breaker_after", "threads"],
            "another preset ranks the strip afresh"
        );
        // On to the shedding spike: the breaker's slider goes, shedding's
        // comes. (Back to the plain spike is the breaker switched off, its
        // one slider moved, and the strip stays as a slider moved to off.)
        let shed = tellers_sim::presets::preset("spike-shed").unwrap();
        assert_eq!(
            presenter_controls(&shed, Some((&breaker, &breaker_strip))),
            ["timeout_ms", "retries", "shed_after_ms", "threads"]
        );
        assert_eq!(
            presenter_controls(&spike, Some((&breaker, &breaker_strip))),
            breaker_strip
        );
        // Retries slid to 0 on the strip keep their slider; ranked afresh
        // they would go.
        let no_retries = with_field(&spike, "retries", 0.0);
        assert_eq!(no_retries.retries, 0);
        assert_eq!(
            presenter_controls(&no_retries, Some((&spike, &strip))),
            strip
        );
        assert_eq!(
            presenter_controls(&no_retries, None),
            ["timeout_ms", "threads", "cores", "wait_ms"]
        );
        // A slider off the strip moved (here the wait) ranks it afresh.
        let longer = with_field(&no_retries, "wait_ms", 50.0);
        assert_eq!(
            presenter_controls(&longer, Some((&no_retries, &strip))),
            ["timeout_ms", "threads", "cores", "wait_ms"]
        );
        assert_eq!(
            presenter_controls(&Scenario::default(), Some((&spike, &strip))),
            pool
        );
        // A misspelt name would never show.
        for f in STRIP_LOAD
            .iter()
            .chain(&STRIP_MECHANISMS)
            .chain(&STRIP_SIZE)
        {
            assert!(control_field(f).is_some(), "{f}");
        }
    }

    #[test]
    fn every_visible_field_has_a_slider_or_a_select() {
        for p in tellers_sim::presets::presets() {
            for f in visible_controls(&p.scenario) {
                assert!(control_field(f).is_some(), "{f}");
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
    fn thread_per_request_shows_its_cap_and_a_pool_its_size() {
        let per_request = Scenario {
            model: Model::ThreadPerRequest,
            ..Scenario::default()
        };
        let shown = visible_controls(&per_request);
        assert!(shown.contains(&"thread_cap") && !shown.contains(&"threads"));
        assert_eq!(with_field(&per_request, "thread_cap", 0.0).thread_cap, None);
        assert_eq!(
            with_field(&per_request, "thread_cap", 40.0).thread_cap,
            Some(40)
        );
        let pool = Scenario::default();
        assert!(!visible_controls(&pool).contains(&"thread_cap"));
        assert_eq!(
            with_field(&pool, "threads", 0.0).threads,
            1,
            "a slider clamps to the smallest pool"
        );
        assert!(
            box_problem(&pool, "threads", "0").is_some(),
            "the box says why"
        );
    }

    #[test]
    fn the_schedule_editor_edits_rows_and_says_what_is_wrong() {
        let s = Scenario::default();
        assert!(schedule_rows(&s).is_empty());
        let spike = a_spike(&s);
        assert_eq!(spike, vec![(0.0, 150.0), (10.0, 300.0), (15.0, 150.0)]);
        let with = with_schedule_rows(&s, Some(&spike)).unwrap();
        assert_eq!(schedule_rows(&with), spike);
        assert_eq!(with_one_more_row(&spike).last(), Some(&(20.0, 150.0)));
        let e = with_schedule_rows(&s, Some(&[(0.0, 150.0), (0.0, 300.0)])).unwrap_err();
        assert_eq!(
            e,
            "step 2 (from 0 s, 300 rps): times must increase (after 0 s)"
        );
        assert_eq!(with_schedule_rows(&with, None).unwrap().rps_schedule, None);
    }

    /// A refusal names fields as the learner sees them, with what is allowed.
    #[test]
    fn refusals_say_what_is_allowed_in_the_learners_words() {
        let s = Scenario {
            stack_reserved_kb: 50.0,
            ..Scenario::default()
        };
        let e = with_box(&s, "stack_used_kb", "60").unwrap_err();
        assert_eq!(
            e,
            "60 KB is more than the 50 KB of stack set aside per thread: a thread cannot use more stack than it has"
        );
        let e = try_field(&s, "cores", f64::NAN).unwrap_err();
        assert!(e.ends_with("is not allowed; allowed 1–1,024 cores"), "{e}");
    }

    #[test]
    fn a_schedule_cell_sets_its_column_or_names_the_step_and_what_is_allowed() {
        let rows = [(0.0, 150.0), (10.0, 300.0)];
        assert_eq!(
            edit_row(&rows, 1, 0, "12").unwrap(),
            [(0.0, 150.0), (12.0, 300.0)]
        );
        assert_eq!(
            edit_row(&rows, 0, 1, "1,200").unwrap(),
            [(0.0, 1200.0), (10.0, 300.0)]
        );
        let e = edit_row(&rows, 1, 1, "2,5").unwrap_err();
        assert_eq!(
            e,
            "step 2: '2,5': write decimals with a point (2.5); a comma may only group thousands (1,000); allowed 0 (a pause) or 0.001–1,000,000 rps"
        );
        // Each cell says what it allows (it said only "is not a number"),
        // and a number too large to read is out of range.
        assert_eq!(
            edit_row(&rows, 0, 0, "soon").unwrap_err(),
            "step 1: 'soon' is not a number; allowed 0–86,400 s"
        );
        assert_eq!(edit_row(&rows, 0, 0, "-0").unwrap()[0].0.to_string(), "0");
        assert_eq!(
            edit_row(&rows, 1, 1, "1e400").unwrap_err(),
            "step 2: '1e400' is out of range; allowed 0 (a pause) or 0.001–1,000,000 rps"
        );
    }

    #[test]
    fn a_schedule_keeps_one_step_and_at_most_max_points() {
        use tellers_sim::schedule::MAX_POINTS;
        assert!(!can_remove_row(1) && can_remove_row(2));
        assert!(can_add_row(1) && can_add_row(MAX_POINTS - 1));
        assert!(!can_add_row(MAX_POINTS));
        // At its most, the schedule says why it takes no more.
        assert_eq!(add_row_note(MAX_POINTS - 1), None);
        assert_eq!(
            add_row_note(MAX_POINTS).as_deref(),
            Some(format!("A schedule has at most {MAX_POINTS} steps.").as_str())
        );
        let full = vec![(0.0, 1.0); MAX_POINTS];
        assert_eq!(with_one_more_row(&full), full);
    }

    #[test]
    fn the_playground_groups_its_controls_under_headings() {
        let items = control_items(&visible_controls(&Scenario::default()));
        let headings: Vec<_> = items
            .iter()
            .filter_map(|i| match i {
                ControlItem::Heading(h) => Some(*h),
                ControlItem::Field(_) => None,
            })
            .collect();
        assert_eq!(
            headings,
            [
                "Server",
                "Workload",
                "Arrivals",
                "Beyond one box",
                "Callers",
                "When overloaded",
                "The run"
            ]
        );
        assert_eq!(
            control_items(&["rps", "timeout_ms"]).len(),
            4,
            "two groups, two headings"
        );
        assert!(control_items(&["rps"])
            .iter()
            .all(|i| matches!(i, ControlItem::Field(_))));
    }

    #[test]
    fn a_bad_box_says_what_is_allowed() {
        let s = Scenario::default();
        let e = box_problem(&s, "rps", "-1").unwrap();
        assert!(e.contains("allowed 0.001–1,000,000 rps"), "{e}");
        let e = box_problem(&s, "cores", "0").unwrap();
        assert!(e.contains("allowed 1–1,024 cores"), "{e}");
        assert_eq!(box_problem(&s, "rps", "1,200"), None);
        assert!(box_problem(&s, "cores", "many")
            .unwrap()
            .contains("whole number"));
    }

    /// "none" in a box for an optional field switches it off, as the help
    /// and links say (the box showed "none" while the run kept 50); a move
    /// the scenario cannot take says why instead of doing nothing.
    #[test]
    fn a_box_or_slider_sets_what_it_shows_or_says_why_not() {
        let s = Scenario {
            queue_limit: Some(50),
            ..Scenario::default()
        };
        assert_eq!(
            with_box(&s, "queue_limit", "none").unwrap().queue_limit,
            None
        );
        assert_eq!(
            with_box(&s, "queue_limit", "1,200").unwrap().queue_limit,
            Some(1200)
        );
        // With the box's own unit, as the lessons write a setting.
        assert_eq!(with_box(&s, "cpu_ms", "40 ms").unwrap().cpu_ms, 40.0);
        assert_eq!(
            with_box(&s, "queue_limit", "120 requests")
                .unwrap()
                .queue_limit,
            Some(120)
        );
        // Closed clients with no think time and no wait: no CPU either is refused.
        let closed = Scenario {
            arrivals: tellers_sim::Arrivals::Closed,
            wait_ms: 0.0,
            ..Scenario::default()
        };
        let why = try_field(&closed, "cpu_ms", 0.0).unwrap_err();
        assert!(why.contains("think"), "{why}");
        assert_eq!(with_field(&closed, "cpu_ms", 0.0), closed, "unchanged");
        assert_eq!(box_problem(&closed, "cpu_ms", "0"), Some(why));
        // A select too: closed clients where requests have no work.
        let idle = Scenario {
            cpu_ms: 0.0,
            wait_ms: 0.0,
            ..Scenario::default()
        };
        let why = try_choice(&idle, "arrivals", "closed").unwrap_err();
        assert!(why.contains("think"), "{why}");
        assert_eq!(with_choice(&idle, "arrivals", "closed"), idle);
        assert!(try_choice(&idle, "arrivals", "batch").is_ok());
    }

    #[test]
    fn a_decimal_comma_is_refused_not_read_as_a_bigger_number() {
        use tellers_sim::text::typed_number;
        let s = Scenario::default();
        // "2,5" meant 2.5 ms; it was read as 25 ms with no word said.
        let e = box_problem(&s, "cpu_ms", "2,5").unwrap();
        assert!(e.contains("'2,5': write decimals with a point"), "{e}");
        assert!(box_problem(&s, "heavy_share", "0,5").is_some());
        assert_eq!(
            typed_number("2,5").unwrap_err(),
            tellers_sim::text::ungrouped("2,5").unwrap_err()
        );
        // Commas that group thousands read as before.
        for (typed, v) in [
            ("1,200", 1200.0),
            ("12,500.5", 12500.5),
            ("-1,000", -1000.0),
            ("2.5", 2.5),
            ("1e3", 1000.0),
        ] {
            assert_eq!(typed_number(typed), Ok(v), "{typed}");
        }
        for bad in [
            "1,20", "1,2000", ",5", "1,,000", "1.000,5", "1,000,5", "abc,def",
        ] {
            assert!(typed_number(bad).is_err(), "{bad}");
        }
        assert_eq!(typed_number("many").unwrap_err(), "'many' is not a number");
    }
}
