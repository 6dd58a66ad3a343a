//! Predict, then run: a learner's guess beside what the run measured.
//!
//! A predict box may name report figures (`::: predict latency_mean_ms`)
//! and the settings the guess is about (`rps=90`). Once the widget after it
//! has run to its end, each guess is read with the course's answer checker
//! (so "0.1 s" and "100 ms" are the same guess) and compared with the run.
//! Plain functions, checked with `cargo test`.

use tellers_course::exercise::{figure_label, report_value};
use tellers_course::{check_guess, describe, Unit, Verdict};
use tellers_sim::report::Report;
use tellers_sim::Scenario;

use crate::controls::field_value;
use crate::figures::{label_of, row_key, row_measured};
use crate::format::{
    fmt_count, fmt_ms, fmt_pct, fmt_per_s, fmt_rps, fmt_s, fmt_setting, units_kept,
};

/// Within this share of the run's figure, a guess is spot on.
pub const SPOT_ON: f64 = 0.02;
/// Within this share of the run's figure, a guess is close.
pub const CLOSE: f64 = 0.1;
/// Within this share, a guess is in the right range.
pub const IN_RANGE: f64 = 0.5;

/// The unit a guess of report figure `figure` is read in, and the factor
/// from the report's value to that unit (shares are guessed in percent):
/// the figure's label in the course's one list ([`figure_label`]); a count
/// for a figure it lacks.
pub fn guess_unit(figure: &str) -> (Unit, f64) {
    figure_label(figure).map_or((Unit::Count, 1.0), |l| (l.answer_unit(), l.scale))
}

/// What the learner reads beside the guess box, e.g. "Mean response time
/// (ms)": the figure's words from the course's one list of them
/// ([`figure_label`]), a capital first (not for "p99 …"), and the unit the
/// guess is read in.
pub fn guess_label(figure: &str) -> String {
    let words = figure_label(figure).map_or(figure, |l| l.words);
    let first_word = words.split(' ').next().unwrap_or("");
    let name = if first_word.chars().any(|c| c.is_ascii_digit()) {
        words.to_owned()
    } else {
        tellers_sim::text::capitalised(words)
    };
    let unit = match guess_unit(figure).0 {
        Unit::Count => return name,
        Unit::Percent => "%".to_owned(),
        Unit::Rps if is_growth(figure) => "per s".to_owned(),
        Unit::Rps => "rps".to_owned(),
        u => u.label().to_owned(),
    };
    // "Median response time (p50), ms", not "(p50) (ms)".
    if name.ends_with(')') {
        format!("{name}, {unit}")
    } else {
        format!("{name} ({unit})")
    }
}

/// The run's value of `figure`, in the unit the guess is read in; `None`
/// while the table says it is not measured yet.
pub fn measured(figure: &str, r: &Report) -> Option<f64> {
    if row_key(figure).is_some_and(|k| !row_measured(k, r)) {
        return None;
    }
    let (_, k) = guess_unit(figure);
    report_value(r, figure).map(|v| v * k)
}

/// Whether `figure` is a growth a second (of the line, of those inside),
/// which the figures table writes "per s", not as a rate in rps.
fn is_growth(figure: &str) -> bool {
    figure.ends_with("_growth_per_s")
}

/// A measured value as the learner reads it, in the guess's unit.
pub fn fmt_measured(figure: &str, v: f64) -> String {
    match guess_unit(figure).0 {
        // A growth as the figures table writes it ("205 per s", not "rps").
        Unit::Rps if is_growth(figure) => fmt_per_s(v),
        Unit::Ms => fmt_ms(v),
        Unit::S => fmt_s(v),
        Unit::Rps => fmt_rps(v),
        // As the figures table writes a share (99.96 %, not 100 %).
        Unit::Percent => fmt_pct(v / 100.0),
        Unit::Mb => format!("{} MB", fmt_count(v.round())),
        _ => fmt_count(v),
    }
}

/// How a guess stands beside the run's figure.
#[derive(Clone, Debug, PartialEq)]
pub enum Closeness {
    /// Nothing was typed.
    NoGuess,
    /// Within [`SPOT_ON`] of the run.
    SpotOn,
    /// Within [`CLOSE`] of the run.
    Close,
    /// Within [`IN_RANGE`], too high or too low.
    InRange {
        /// Above the run's figure.
        too_high: bool,
    },
    /// Further off.
    Far {
        /// Above the run's figure.
        too_high: bool,
    },
    /// Not a number in a unit that fits; the checker says why.
    Unreadable(String),
}

/// How `guess` (as typed) compares with the run's `value` of `figure`.
pub fn closeness(guess: &str, figure: &str, value: f64) -> Closeness {
    if guess.trim().is_empty() {
        return Closeness::NoGuess;
    }
    let (unit, _) = guess_unit(figure);
    // A guess such as "0.12" for a share is read one way here, as the
    // fraction (12 %) for a figure above 1 %, else as the percentage: the
    // answer checker's "wrong either way" is for exercises, with hints.
    // "1,000" is read as the page writes numbers, a thousand.
    let as_guess = |v: Verdict| match v {
        Verdict::PercentEitherWay {
            percent, fraction, ..
        } => Verdict::WrongValue {
            too_high: (if value > 1.0 { fraction } else { percent }) > value,
        },
        Verdict::WrongEitherWay { thousands, .. } => Verdict::WrongValue {
            too_high: thousands > value,
        },
        // "0.5 %" as a guess is the percentage typed: a guess far off is
        // not a fraction to correct.
        Verdict::FractionAsPercent { .. } => Verdict::WrongValue { too_high: false },
        // "100 s" for a run of 100 ms is a guess far off, read in the unit
        // typed, not a unit to correct.
        Verdict::UnitSwapped { too_high, .. } => Verdict::WrongValue { too_high },
        // A guess is a number: "no limit (20)" is not two answers of which
        // one may be "no limit".
        Verdict::TwoAnswers => Verdict::Unreadable,
        // A fraction for a share, as the comment above reads it: right.
        v if v.is_right() => Verdict::Correct,
        v => v,
    };
    match as_guess(check_guess(guess, value, unit, CLOSE)) {
        Verdict::Correct
            if as_guess(check_guess(guess, value, unit, SPOT_ON)) == Verdict::Correct =>
        {
            Closeness::SpotOn
        }
        Verdict::Correct => Closeness::Close,
        Verdict::WrongValue { too_high } => {
            match as_guess(check_guess(guess, value, unit, IN_RANGE)) {
                Verdict::Correct => Closeness::InRange { too_high },
                _ => Closeness::Far { too_high },
            }
        }
        // A predict box has no hints to offer.
        other => Closeness::Unreadable(describe(&other, unit)),
    }
}

/// A sentence on a guess beside the run.
pub fn closeness_sentence(c: &Closeness) -> String {
    let side = |too_high: bool| if too_high { "high" } else { "low" };
    match c {
        Closeness::NoGuess => "You wrote no guess for this one.".into(),
        // Shares of the run's figure in words: "within 10 % of the run"
        // read two ways where the figure is itself a percentage.
        Closeness::SpotOn => "Spot on: within a fiftieth of the run's figure.".into(),
        Closeness::Close => "Close: within a tenth of the run's figure.".into(),
        Closeness::InRange { too_high } => format!(
            "In the right range, but {}: within half of the run's figure.",
            side(*too_high)
        ),
        Closeness::Far { too_high } => format!(
            "Far too {}: off by more than half the run's figure. Before you read on, find what your guess left out.",
            side(*too_high)
        ),
        Closeness::Unreadable(why) => why.clone(),
    }
}

/// The settings a guess is about that `s` does not have, in words ("the arrival
/// rate at 90 rps (this run: 50 rps)"); empty when the run fits the guess.
pub fn unmet_settings(when: &[(String, f64)], s: &Scenario) -> Vec<String> {
    when.iter()
        .filter(|(f, v)| (field_value(s, f) - v).abs() > 1e-9 * v.abs().max(1.0))
        .filter_map(|(f, v)| {
            let field = Scenario::field(f)?;
            Some(format!(
                "the {} at {} (this run: {})",
                in_a_sentence(label_of(f)),
                fmt_setting(field, *v),
                fmt_setting(field, field_value(s, f))
            ))
        })
        .collect()
}

/// A label inside a sentence: its first letter in lower case, unless the
/// label starts with an acronym ("Arrival rate" → "arrival rate", "CPU
/// per request" stays).
fn in_a_sentence(label: &str) -> String {
    let mut chars = label.chars();
    match (chars.next(), chars.next()) {
        (Some(first), Some(second)) if second.is_lowercase() => {
            std::iter::once(first.to_ascii_lowercase())
                .chain(label[first.len_utf8()..].chars())
                .collect()
        }
        _ => label.to_owned(),
    }
}

/// What the learner reads under a widget once its run has ended: each
/// guess beside the run's figure, or why it cannot be compared.
///
/// * `figures`, `when` — what the predict box asked (see [`unmet_settings`]).
/// * `guesses` — what was typed, one per figure (one in words when `figures` is empty).
pub fn guess_lines(
    figures: &[String],
    when: &[(String, f64)],
    guesses: &[String],
    s: &Scenario,
    r: &Report,
) -> Vec<String> {
    if figures.is_empty() {
        let g = guesses.first().map_or("", |g| g.trim());
        return vec![if g.is_empty() {
            "You wrote no guess: next time, write one down before you run.".to_owned()
        } else {
            format!("Your guess was “{g}”. Set it beside the figures of the run.")
        }];
    }
    let unmet = unmet_settings(when, s);
    if !unmet.is_empty() {
        let about = unmet.join(" and ");
        // Not "your guess" where none was written (a learner's walk).
        return vec![if guesses.iter().all(|g| g.trim().is_empty()) {
            format!("This prediction is about {about}, and you wrote no guess: write one, set that, then run to the end again to compare.")
        } else {
            format!("Your guess is about {about}. Set that, then run to the end again to compare.")
        }];
    }
    figures
        .iter()
        .zip(guesses)
        .map(|(f, g)| match measured(f, r) {
            Some(v) => {
                let g = g.trim();
                let said = if g.is_empty() {
                    String::new()
                } else {
                    format!("you guessed {g}; ")
                };
                // Numbers and their units kept on one line, as the figures
                // keep them ("10 %" broke after the 10 on a phone).
                units_kept(&format!(
                    "{}: {said}the run measured {}. {}",
                    guess_label(f),
                    fmt_measured(f, v),
                    closeness_sentence(&closeness(g, f, v))
                ))
            }
            None => format!("{}: the run did not measure it.", guess_label(f)),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_guess_is_read_in_the_figures_unit() {
        assert_eq!(guess_unit("latency_mean_ms").0, Unit::Ms);
        assert_eq!(guess_unit("makespan_s").0, Unit::S);
        assert_eq!(guess_unit("cpu_utilisation"), (Unit::Percent, 100.0));
        assert_eq!(guess_unit("mean_in_flight").0, Unit::Count);
        assert_eq!(guess_label("latency_mean_ms"), "Mean response time (ms)");
        assert_eq!(guess_label("cpu_utilisation"), "CPU busy (%)");
        // The course's words for every figure, never a field's name.
        assert_eq!(guess_label("latency_p99_ms"), "p99 response time (ms)");
        assert_eq!(
            guess_label("latency_p50_ms"),
            "Median response time (p50), ms"
        );
        assert_eq!(guess_label("throughput_rps"), "Throughput (rps)");
        assert_eq!(guess_label("queue_growth_per_s"), "Line growth (per s)");
        // As the figures table names and writes it (lesson 9's box said
        // "204 rps" beside the table's "205 per s", another figure).
        assert_eq!(
            guess_label("inside_growth_per_s"),
            "Line growth (all requests inside), per s"
        );
        assert_eq!(fmt_measured("inside_growth_per_s", 205.0), "205 per s");
        assert_eq!(
            crate::figures::row_key("inside_growth_per_s"),
            Some("fig-growth")
        );
        assert_eq!(
            guess_label("makespan_s"),
            "Time until the last request finished (s)"
        );
        assert_eq!(guess_label("mean_in_flight"), "Requests inside (mean)");
        assert_eq!(
            guess_label("worker_wait_mean_ms"),
            "Mean wait for a free worker (steps handed to the workers), ms"
        );
        for f in tellers_course::exercise::figures() {
            assert!(!guess_label(f).contains('_'), "{f}: {}", guess_label(f));
        }
        let r = Report {
            cpu_utilisation: 0.25,
            sim_time_s: 60.0,
            warmup_s: 6.0,
            completed: 10,
            ..Report::default()
        };
        assert_eq!(measured("cpu_utilisation", &r), Some(25.0));
        // No request since the warm-up has finished: the mean is not 0 ms, it is unknown.
        assert_eq!(measured("latency_mean_ms", &r), None);
        assert_eq!(fmt_measured("cpu_utilisation", 25.0), "25 %");
        assert_eq!(fmt_measured("makespan_s", 5.0), "5.0 s");
    }

    #[test]
    fn a_guess_is_close_in_range_or_far_and_units_convert() {
        assert_eq!(closeness("95", "latency_mean_ms", 100.0), Closeness::Close);
        assert_eq!(
            closeness("0.1 s", "latency_mean_ms", 100.0),
            Closeness::SpotOn
        );
        assert_eq!(closeness("99", "latency_mean_ms", 100.0), Closeness::SpotOn);
        assert_eq!(
            closeness("130 ms", "latency_mean_ms", 100.0),
            Closeness::InRange { too_high: true }
        );
        assert_eq!(
            closeness("20", "latency_mean_ms", 100.0),
            Closeness::Far { too_high: false }
        );
        // The run's number in another unit is a guess far off, not a unit
        // to correct.
        assert_eq!(
            closeness("100 s", "latency_mean_ms", 100.0),
            Closeness::Far { too_high: true }
        );
        assert_eq!(
            closeness("  ", "latency_mean_ms", 100.0),
            Closeness::NoGuess
        );
        assert!(matches!(
            closeness("fast", "latency_mean_ms", 100.0),
            Closeness::Unreadable(_)
        ));
        // "No limit" and a number: a guess takes a number, not "no limit".
        let Closeness::Unreadable(why) = closeness("no limit (20)", "latency_mean_ms", 20.0) else {
            panic!("unread")
        };
        assert!(why.starts_with("Type a number"), "{why}");
        // A share is guessed in percent: 10 for a run at 0.1 busy.
        assert_eq!(
            closeness("10 %", "cpu_utilisation", 10.0),
            Closeness::SpotOn
        );
        assert_eq!(
            closeness("10.8 %", "cpu_utilisation", 10.0),
            Closeness::Close
        );
        // A fraction above the run's share: compared, not "wrong either way".
        assert_eq!(
            closeness("0.12", "cpu_utilisation", 10.0),
            Closeness::InRange { too_high: true }
        );
        assert_eq!(
            closeness("0.5", "cpu_utilisation", 10.0),
            Closeness::Far { too_high: true }
        );
        // A fraction that is the run's share is spot on, not unreadable
        // (the checker's "as a percentage" verdict is an exercise's).
        assert_eq!(closeness("0.1", "cpu_utilisation", 10.0), Closeness::SpotOn);
        assert_eq!(
            closeness("0.105", "cpu_utilisation", 10.0),
            Closeness::Close
        );
        for c in [
            Closeness::NoGuess,
            Closeness::SpotOn,
            Closeness::Close,
            Closeness::InRange { too_high: false },
            Closeness::Far { too_high: true },
        ] {
            assert!(!closeness_sentence(&c).is_empty());
        }
        assert!(closeness_sentence(&Closeness::Far { too_high: true }).contains("Far too high"));
        // "1,000" is a thousand, as the page writes numbers (the exercise
        // checker asks which was meant, with a hint to try).
        assert_eq!(
            closeness("1,000", "throughput_rps", 100.0),
            Closeness::Far { too_high: true }
        );
        // Memory in the run's one convention: lesson 2's run reserved
        // 10,277 MB, and a guess of 9,800 MB (its 9,800 MiB) is 4.6 % off,
        // close, not "within a fiftieth" (a learner's walk found it).
        let reserved = "peak_memory_reserved_mb";
        assert_eq!(closeness("9800", reserved, 10_277.0), Closeness::Close);
        assert_eq!(
            closeness("10,200 MB", reserved, 10_277.0),
            Closeness::SpotOn
        );
        assert_eq!(closeness("10 GB", reserved, 10_277.0), Closeness::Close);
        // No hint to try in a predict box.
        match closeness("no limit", "throughput_rps", 100.0) {
            Closeness::Unreadable(why) => assert!(!why.contains("hint"), "{why}"),
            c => panic!("{c:?}"),
        }
        // A rate below zero or a range is asked again, not "far too low".
        for (guess, said) in [
            ("-10", "-10 is below zero, and this answer is a rate, which cannot be negative."),
            ("50-100", "50-100: type one number, not a range or a difference. Use a rate: rps, req/s or requests per second."),
        ] {
            assert_eq!(
                closeness(guess, "throughput_rps", 100.0),
                Closeness::Unreadable(said.into())
            );
        }
    }

    #[test]
    fn the_lines_under_a_run_compare_each_guess() {
        let s = Scenario::default();
        let r = Report {
            sim_time_s: 60.0,
            warmup_s: 6.0,
            measured: 100,
            latency_ms: tellers_sim::report::Latency {
                mean: 100.0,
                max: 900.0,
                ..Default::default()
            },
            ..Report::default()
        };
        let figures = vec!["latency_mean_ms".to_string()];
        let lines = guess_lines(&figures, &[], &["0.1 s".into()], &s, &r);
        assert_eq!(
            lines,
            ["Mean response time (ms): you guessed 0.1\u{a0}s; the run measured 100\u{a0}ms. Spot on: within a fiftieth of the run's figure."]
        );
        let words = guess_lines(&[], &[], &["it doubles".into()], &s, &r);
        assert!(words[0].contains("“it doubles”"));
        let at_90 = guess_lines(&figures, &[("rps".into(), 90.0)], &["1".into()], &s, &r);
        assert!(
            at_90[0].contains("about the arrival rate at 90 rps (this run: 150 rps)"),
            "{at_90:?}"
        );
        // No guess written: not "your guess".
        let blank = guess_lines(&figures, &[("rps".into(), 90.0)], &[" ".into()], &s, &r);
        assert!(
            blank[0].starts_with("This prediction is about the arrival rate at 90 rps")
                && blank[0].contains("you wrote no guess"),
            "{blank:?}"
        );
    }

    #[test]
    fn a_guess_for_other_settings_says_which() {
        let s = Scenario {
            rps: 50.0,
            ..Scenario::default()
        };
        let when = vec![("rps".to_string(), 90.0)];
        let unmet = unmet_settings(&when, &s);
        assert_eq!(unmet, ["the arrival rate at 90 rps (this run: 50 rps)"]);
        assert_eq!(in_a_sentence("CPU per request"), "CPU per request");
        let at_90 = Scenario { rps: 90.0, ..s };
        assert!(unmet_settings(&when, &at_90).is_empty());
    }

    /// Lesson 4's guess names no settings: it is about the widget as it
    /// opens (400 rps, 90 ms of wait), so a run after moving a slider is
    /// not compared with it (it was: "far too high" against 200 rps).
    #[test]
    fn a_guess_naming_no_settings_is_about_the_widget_as_it_opens() {
        let course = crate::course_data::compiled_course();
        let lesson = course
            .lessons
            .iter()
            .find(|l| l.slug == "littles-law")
            .unwrap();
        let (when, block) = lesson
            .segments
            .windows(2)
            .find_map(|w| match (&w[0], &w[1]) {
                (
                    tellers_course::Segment::Predict { when, figures, .. },
                    tellers_course::Segment::Sim(b),
                ) if figures.iter().any(|f| f == "mean_in_flight") => {
                    Some((when.clone(), b.clone()))
                }
                _ => None,
            })
            .unwrap();
        assert_eq!(
            when,
            [("rps".to_string(), 400.0), ("wait_ms".to_string(), 90.0)]
        );
        assert!(unmet_settings(&when, &block.scenario).is_empty());
        let moved = Scenario {
            rps: 200.0,
            ..block.scenario.clone()
        };
        let lines = guess_lines(
            &["mean_in_flight".into()],
            &when,
            &["40".into()],
            &moved,
            &Report::default(),
        );
        assert!(
            lines[0].contains("the arrival rate at 400 rps (this run: 200 rps)"),
            "{lines:?}"
        );
    }
}
