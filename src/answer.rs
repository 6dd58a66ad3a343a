//! An exercise's answer: checking what the learner gave, the words that go
//! with the verdict, and the right answer as the teacher's key prints it.
//! Plain functions, so the exercise card and the answer key only wire
//! signals to them.

use crate::classroom::{tidy, KEY_MAX_STUDENTS};
use crate::progress::student_seed;
use crate::route::query_escape;
use html_escape::{encode_double_quoted_attribute as attr, encode_text as text};
use tellers_course::exercise::{figure_label, report_value, FigureLabel};
use tellers_course::{
    check_exercise, describe, format_number, points_to_hints, Course, Exercise, Kind, Slip, Unit,
    Variant, Verdict,
};
use tellers_sim::text::decapitalised;
use tellers_sim::{Report, Simulation};

/// What checking one answer gave.
#[derive(Clone, Debug, PartialEq)]
pub struct Checked {
    /// Right (within the exercise's tolerance, or the right option).
    pub correct: bool,
    /// What to tell the learner.
    pub message: String,
    /// Whether it counts as an attempt: a number or an option was given.
    pub counts: bool,
    /// Whether the learner is pointed to the help after the message (an
    /// answer read and wrong): [`feedback_text`] says which help.
    pub to_help: bool,
    /// The slip the wrong number was named as, or the wrong option picked,
    /// if any: the progress records it for the teacher's results.
    pub slip: Option<Slip>,
}

/// Said after what an answer may be, where its line may grow without end.
const NO_LIMIT_TOO: &str = " If the line grows without end, type \"no limit\".";

/// Said after a slip named in a number such as "40,000", which is right
/// only with a decimal comma: read, as the lessons print numbers, with a
/// thousands comma (asked "40000 or 40?", the learner was handed the answer).
const COMMA_READ: &str = " (The comma is read as a thousands comma, as the lessons print numbers.)";

/// The line under a numeric exercise's answer box: what it may be
/// answered with, and "no limit" where the line may grow without end.
pub fn answer_with(unit: Unit, no_limit: bool) -> String {
    let words = if no_limit { NO_LIMIT_TOO } else { "" };
    format!("Answer with {}.{words}", unit.accepted())
}

/// Check a learner's answer to `exercise` with their numbers (`variant`):
/// the typed text for a numeric exercise, the index of the chosen option
/// in the order this student sees them (`variant.options`) for the others.
pub fn check_answer(
    exercise: &Exercise,
    variant: &Variant,
    typed: &str,
    choice: Option<usize>,
) -> Checked {
    match exercise.kind {
        Kind::Numeric => {
            let (Some(unit), Some(expected)) = (exercise.unit, variant.answer) else {
                return Checked {
                    correct: false,
                    message: "This exercise cannot be checked: it has no answer or unit.".into(),
                    counts: false,
                    to_help: false,
                    slip: None,
                };
            };
            let verdict = check_exercise(
                typed,
                expected,
                unit,
                exercise.tolerance.unwrap_or(0.01),
                &exercise.prompt,
                exercise.rounded_up_from(&variant.vars),
            );
            // A wrong number that a listed mistake gives is named as that
            // slip ("That is the CPU time alone: …"), not only "too low".
            // So is a bare "1" for a percentage, wrong as 1 % and as 100 %,
            // where 1 % is a mistake's number (lesson 16: one call's
            // chance), and the answer rounded too far where it is exactly a
            // listed mistake's number: lesson 12's "10" % for ten requests
            // is 9.56 rounded and the ten 1 % chances added up, and "rounded
            // too far" alone told the adder the method was right.
            let slip = exercise.slip_for(&verdict, &variant.vars, variant.answer, typed);
            // A listed mistake outranks "right before rounding" and "rounded
            // down": its author wrote the note, and it counts (lesson 13's
            // step 6 lists the fraction of a server, and a server at 100 %).
            let comma_read = matches!(verdict, Verdict::Ambiguous { .. }) && slip.is_some();
            let verdict = match (verdict, slip) {
                (Verdict::NotRoundedUp { .. } | Verdict::RoundedDown { .. }, Some(_)) => {
                    Verdict::WrongValue { too_high: false }
                }
                // Read with its thousands comma, a slip: named, and counted.
                (Verdict::Ambiguous { thousands, .. }, Some(_)) => Verdict::WrongValue {
                    too_high: thousands > expected,
                },
                // "Give one answer: a number, or 'no limit'" only where
                // "no limit" may be the answer.
                (Verdict::TwoAnswers, _) if !exercise.no_limit => Verdict::Unreadable,
                (v, _) => v,
            };
            let mut message = match slip.and_then(|s| exercise.slip_note_of(s)) {
                Some(note) if matches!(verdict, Verdict::TooRounded { .. }) => format!(
                    "Not quite: {} Or, if that is your answer rounded, it is rounded too far: {}",
                    decapitalised(note),
                    tellers_course::check::ROUNDING_ADVICE
                ),
                Some(note) => format!("Not quite: {}", decapitalised(note)),
                None => describe(&verdict, unit),
            };
            if comma_read {
                message.push_str(COMMA_READ);
            }
            // Where the answer may be words, the words are said too.
            if exercise.no_limit && verdict == Verdict::Unreadable {
                message.push_str(NO_LIMIT_TOO);
            }
            Checked {
                correct: verdict.is_right(),
                message,
                counts: verdict.counts(),
                to_help: points_to_hints(&verdict),
                slip,
            }
        }
        Kind::Choice | Kind::Diagnosis => match choice {
            None => Checked {
                correct: false,
                message: "Pick one of the options first.".into(),
                counts: false,
                to_help: false,
                slip: None,
            },
            Some(i) => {
                // The student's own option order: the variant carries it.
                let correct = Some(i) == variant.correct;
                let verdict = if correct { "Correct." } else { "Not this one." };
                let message = match variant.explain.get(i).map(|w| after_verdict(w)) {
                    Some(why) if !why.is_empty() => format!("{verdict} {why}"),
                    _ => verdict.to_string(),
                };
                // A wrong option, recorded by its written place (the
                // student saw the options shuffled).
                let written = variant
                    .options
                    .get(i)
                    .and_then(|shown| exercise.options.iter().position(|o| o == shown));
                Checked {
                    correct,
                    message,
                    counts: true,
                    to_help: false,
                    slip: written.filter(|_| !correct).map(Slip::Option),
                }
            }
        },
    }
}

/// An option's explanation without a verdict of its own at the start
/// ("Right. L = λ × W…" → "L = λ × W…"): the card says "Correct." already.
fn after_verdict(why: &str) -> &str {
    ["Right.", "Correct.", "Yes."]
        .iter()
        .find_map(|v| why.strip_prefix(v))
        .unwrap_or(why)
        .trim_start()
}

/// What the simulator's run says beside the formula: `got` is the
/// report's figure `field`, `expected` the exercise's answer (if numeric)
/// on the same scale as the report's value (a share as 0–1), each read
/// with the figure's label and unit ("mean wait in line: 57.3 ms").
pub fn sim_check_text(field: &str, got: f64, expected: Option<f64>) -> String {
    // Every figure an exercise may check has a label (the course's tests
    // say so); this is only a guard.
    let label = figure_label(field).copied().unwrap_or(FigureLabel {
        name: "",
        words: "the figure checked",
        unit: "",
        scale: 1.0,
    });
    let measured = label.text(got);
    match expected {
        Some(a) => format!(
            "The simulator measured {measured}; the formula gives {}.",
            label.value_text(a)
        ),
        None => format!("The simulator measured {measured}."),
    }
}

/// The simulation that confirms an exercise for these numbers, or why
/// there is none to run.
pub fn sim_check_setup(exercise: &Exercise, variant: &Variant) -> Result<Simulation, String> {
    let scenario = match exercise.check_scenario(&variant.vars) {
        Some(Ok(s)) => s,
        Some(Err(e)) => return Err(format!("The simulator check could not be set up: {e}.")),
        None => return Err("This exercise has no simulator check.".into()),
    };
    Simulation::new(&scenario).map_err(|errors| {
        let why: Vec<String> = errors.iter().map(ToString::to_string).collect();
        format!(
            "The simulator check could not be set up: {}.",
            why.join("; ")
        )
    })
}

/// What the finished run says: the exercise's check field beside the
/// formula's answer, then the exercise's note on where the two part.
pub fn sim_check_message(exercise: &Exercise, report: &Report, expected: Option<f64>) -> String {
    let field = exercise.check_field.as_deref().unwrap_or("throughput_rps");
    let got = report_value(report, field).unwrap_or(f64::NAN);
    // An answer in percent beside a share the report gives as 0–1.
    let shown_in_percent = figure_label(field).is_some_and(|l| l.scale == 100.0);
    let expected = match exercise.unit {
        Some(Unit::Percent) if shown_in_percent => expected.map(|a| a / 100.0),
        _ => expected,
    };
    let text = sim_check_text(field, got, expected);
    match &exercise.note {
        Some(note) => format!("{text} {note}"),
        None => text,
    }
}

/// The word above an exercise: what it asks the learner to do.
pub fn kind_label(kind: Kind) -> &'static str {
    match kind {
        Kind::Numeric => "Calculate",
        Kind::Choice => "Recall",
        Kind::Diagnosis => "Diagnose",
    }
}

/// The hint button's label with `shown` of `total` hints open.
pub fn hint_label(shown: usize, total: usize) -> String {
    // Saturating: a count from edited storage (u32::MAX) wrapped to
    // "Hint (0 of 3)".
    format!("Hint ({} of {total})", shown.saturating_add(1).min(total))
}

/// The letter of option `i`: A, B, C…
pub fn option_letter(i: usize) -> char {
    char::from(b'A' + (i % 26) as u8)
}

/// What the key prints, and a student types, where the line grows without
/// limit: the words the question asks for (an exercise whose answer can be
/// unbounded must say to answer "no limit"; the checker takes them, and
/// never a number, as right).
pub const KEY_NO_LIMIT: &str = "no limit";

/// The right answer as the teacher's key prints it: what the student with
/// `seed` should type (the number and its unit, or [`KEY_NO_LIMIT`] where
/// the line grows without limit), or the right option with its letter.
pub fn answer_text(exercise: &Exercise, seed: &str) -> String {
    match exercise.kind {
        Kind::Numeric => match exercise.variant(seed) {
            // Not "∞ threads": the question asks for words, and a unit
            // after them means nothing.
            Ok(v) if v.answer.is_some_and(f64::is_infinite) => KEY_NO_LIMIT.to_string(),
            Ok(v) => {
                let unit = exercise.unit.map(|u| u.label()).unwrap_or_default();
                let answer = v.answer.unwrap_or(f64::NAN);
                // With the decimals the question asks for ("Give one
                // decimal place": 112.6, not the 113 of three figures,
                // which the checker would call rounded too far).
                let number = match tellers_course::decimals_asked(&exercise.prompt) {
                    Some(n) => tellers_sim::text::fmt_fixed(answer, n),
                    None => format_number(answer),
                };
                format!("{number} {unit}").trim_end().to_string()
            }
            Err(err) => format!("(cannot set up: {err})"),
        },
        // The options in this student's order: the variant carries it.
        Kind::Choice | Kind::Diagnosis => exercise
            .variant(seed)
            .ok()
            .and_then(|v| {
                let i = v.correct?;
                let text = v.options.get(i)?;
                Some(format!("{}. {text}", option_letter(i)))
            })
            .unwrap_or_else(|| "(no right option given)".into()),
    }
}

/// The lesson an answer key opens on, from its link: the slug when the
/// course has that lesson, else all lessons ("") and a note saying why.
pub fn key_lesson(course: &Course, asked: Option<&str>) -> (String, Option<String>) {
    match asked.filter(|a| !a.is_empty()) {
        None => (String::new(), None),
        Some(a) if course.lessons.iter().any(|l| l.slug == a) => (a.to_string(), None),
        Some(a) => (
            String::new(),
            Some(format!(
                "The link names a lesson \u{201c}{}\u{201d} that is not in this course, so every lesson is shown; pick one below.",
                a.chars().filter(|c| !c.is_control()).take(60).collect::<String>()
            )),
        ),
    }
}

/// How many names the teacher listed beyond the key's
/// [`KEY_MAX_STUDENTS`], in a sentence; `None` when none was left out.
pub fn key_left_out_note(left_out: usize) -> Option<String> {
    let more = match left_out {
        0 => return None,
        1 => "1 more was".to_string(),
        n => format!("{n} more were"),
    };
    Some(format!(
        "This key lists the first {KEY_MAX_STUDENTS} names; {more} left out. Make a second key with the rest."
    ))
}

/// One student's part of the teacher's answer key, as HTML: a table per
/// lesson (of the lesson with slug `lesson`, or all when empty), headed by
/// its number and title, a row per exercise by its number (`4.2`) with
/// their answer and, when `questions`, the question with their numbers;
/// with one lesson, a link to the student's worksheet. Built as text: a
/// class's key is long and static.
///
/// Printed, the name heading also says the class (the class code box is
/// not printed), and each table's caption starts with whose answers these
/// are ("Ana Souza · 4. Little's law"): a class's key prints packed, one
/// student after another in two columns, so a page can start in the middle
/// of a student's tables, and its first caption says whose they are. Both
/// are on lines already there, so the key takes no more paper. (A row in
/// each table's head, which Chromium repeats on every page, and
/// `break-after: avoid` on the names were tried: 37 % more paper for a
/// class of 30, and a blank last page for 13 of 30 class sizes on A4.)
pub fn student_key_html(
    course: &Course,
    class: &str,
    name: &str,
    lesson: &str,
    questions: bool,
) -> String {
    let seed = student_seed(class, name);
    let who = match tidy(name) {
        n if n.is_empty() => "Students without a name".to_string(),
        n => text(&n).into_owned(),
    };
    let class_said = match tidy(class) {
        c if c.is_empty() => String::new(),
        c => format!(
            "<span class=\"key__whose\"> \u{b7} class {}</span>",
            text(&c)
        ),
    };
    let mut h = format!(
        "<section class=\"key__student\"><div class=\"key__head\"><h2>{who}{class_said}</h2>"
    );
    if !lesson.is_empty() {
        let href = format!(
            "#/lessons/worksheet/{lesson}?class={}&name={}",
            query_escape(class),
            query_escape(name)
        );
        h += &format!(
            "<a class=\"print-hide\" href=\"{}\" target=\"_blank\" rel=\"noopener\">Their worksheet</a>",
            attr(&href)
        );
    }
    h += if questions {
        "</div><div class=\"key__lessons key__lessons--questions\">"
    } else {
        "</div><div class=\"key__lessons\">"
    };
    let question_head = if questions {
        "<th scope=\"col\">Question (their numbers)</th>"
    } else {
        ""
    };
    for l in course
        .lessons
        .iter()
        .filter(|l| lesson.is_empty() || l.slug == lesson)
    {
        h += &format!(
            "<table class=\"key__table\"><caption><span class=\"key__whose\">{who} \u{b7} </span>{}. {}</caption><thead><tr>\
             <th scope=\"col\">No.</th>{question_head}<th scope=\"col\">Answer</th></tr></thead><tbody>",
            l.number,
            text(&l.title)
        );
        for (label, e) in l.numbered_exercises() {
            let question = if questions {
                let prompt = e
                    .variant(&seed)
                    .map(|v| v.prompt)
                    .unwrap_or_else(|_| e.prompt.clone());
                format!("<td>{}</td>", text(&prompt))
            } else {
                String::new()
            };
            h += &format!(
                "<tr data-exercise=\"{}\"><th scope=\"row\">{label}</th>{question}<td class=\"key__answer\">{}</td></tr>",
                attr(&e.id),
                text(&answer_text(e, &seed))
            );
        }
        h += "</tbody></table>";
    }
    h + "</div></section>"
}

/// Where the learner stands with an exercise's help when an answer is
/// checked: what a wrong answer's feedback points to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Help {
    /// A hint is still to be opened.
    HintsLeft,
    /// Every hint is open; the worked solution is not.
    HintsOpen,
    /// The worked solution is open.
    SolutionOpen,
}

impl Help {
    /// The help of a card with `shown` of its `total` hints open and its
    /// worked solution open or not.
    pub fn at(shown: usize, total: usize, solution_open: bool) -> Help {
        if solution_open {
            Help::SolutionOpen
        } else if shown < total {
            Help::HintsLeft
        } else {
            Help::HintsOpen
        }
    }

    /// The sentence that points to it.
    fn pointer(self) -> &'static str {
        match self {
            Help::HintsLeft => "Try a hint.",
            Help::HintsOpen => "Every hint is open: read them again, or open the worked solution.",
            Help::SolutionOpen => "Compare your steps with the worked solution.",
        }
    }
}

/// What a checked answer says: the checker's message, then, where it
/// points to the help, the help still unread (it said "Try a hint." beside
/// three hints already open), and where the answer is wrong but the
/// exercise was solved before, that the solve stands (the card's "✓
/// solved" sat beside "Not quite" unexplained).
pub fn feedback_text(checked: &Checked, solved_before: bool, help: Help) -> String {
    let mut said = checked.message.clone();
    if checked.to_help {
        said = format!("{said} {}", help.pointer());
    }
    if !checked.correct && solved_before {
        said += " You solved it before, and that stays in your progress.";
    }
    said
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_wrong_answer_points_to_the_help_not_yet_read_and_a_solve_stands() {
        let wrong = Checked {
            correct: false,
            message: "Not quite: that is too high.".into(),
            counts: true,
            to_help: true,
            slip: None,
        };
        assert_eq!(
            feedback_text(&wrong, true, Help::HintsLeft),
            "Not quite: that is too high. Try a hint. You solved it before, and that stays in your progress."
        );
        assert_eq!(
            feedback_text(&wrong, false, Help::HintsOpen),
            "Not quite: that is too high. Every hint is open: read them again, or open the worked solution."
        );
        assert_eq!(
            feedback_text(&wrong, false, Help::SolutionOpen),
            "Not quite: that is too high. Compare your steps with the worked solution."
        );
        // Asked again (a unit to type): no pointer, and no solve said.
        let asked = Checked {
            correct: false,
            message: "Which unit?".into(),
            counts: false,
            to_help: false,
            slip: None,
        };
        assert_eq!(feedback_text(&asked, false, Help::HintsOpen), "Which unit?");
        let right = Checked {
            correct: true,
            message: "Correct.".into(),
            counts: true,
            to_help: false,
            slip: None,
        };
        assert_eq!(feedback_text(&right, true, Help::HintsLeft), "Correct.");
        // Which help: the solution first, then any hint left.
        assert_eq!(Help::at(1, 3, false), Help::HintsLeft);
        assert_eq!(Help::at(3, 3, false), Help::HintsOpen);
        assert_eq!(Help::at(1, 3, true), Help::SolutionOpen);
    }

    use super::*;
    use crate::course_data::compiled_course;
    use tellers_course::check_in;

    #[test]
    fn a_key_link_naming_no_lesson_of_the_course_shows_all_and_says_so() {
        let course = compiled_course();
        assert_eq!(key_lesson(course, None), (String::new(), None));
        assert_eq!(
            key_lesson(course, Some("littles-law")),
            ("littles-law".to_string(), None)
        );
        let (slug, note) = key_lesson(course, Some("thread-pool"));
        assert_eq!(slug, "");
        assert!(note
            .unwrap()
            .contains("\u{201c}thread-pool\u{201d} that is not in this course"));
        // The worksheet opens beside the key, which keeps its unlocked state.
        let html = student_key_html(course, "R12", "Ana", "littles-law", false);
        assert!(
            html.contains("target=\"_blank\" rel=\"noopener\">Their worksheet"),
            "{html}"
        );
    }

    fn exercise(id: &str) -> &'static Exercise {
        compiled_course()
            .exercises()
            .find(|(_, e)| e.id == id)
            .map(|(_, e)| e)
            .unwrap_or_else(|| panic!("no exercise {id}"))
    }

    /// Where an exercise's answer is rounded up (its formula one `ceil`),
    /// the number before rounding is named as that, on every variant
    /// tried: lesson 13's cores and servers at 70 % said "too low" to
    /// 10.71, where the same method in a question that said "round up" was
    /// named.
    #[test]
    fn the_number_before_rounding_up_is_named_as_that() {
        let up: Vec<&str> = compiled_course()
            .exercises()
            .filter(|(_, e)| e.rounds_up())
            .map(|(_, e)| e.id.as_str())
            .collect();
        for id in [
            "db-pool-size",
            "cores-for-seventy",
            "servers-at-seventy",
            "square-root-rule",
        ] {
            assert!(up.contains(&id), "{id} rounds up: {up:?}");
        }
        // "ceil(n / pool) * wait / …" is not an answer rounded up.
        assert!(!exercise("batch-time").rounds_up());
        let mut rounded_down = 0;
        for id in ["servers-at-seventy", "cores-for-seventy", "db-pool-size"] {
            let e = exercise(id);
            for seed in ["", "r12/ana", "r12/ben", "r12/cy"] {
                let v = e.variant(seed).unwrap();
                let answer = v.answer.unwrap();
                let before = e.rounded_up_from(&v.vars).unwrap();
                if before.fract() == 0.0 {
                    continue;
                }
                let checked = check_answer(e, &v, &format!("{before:.2}"), None);
                assert!(
                    !checked.correct
                        && !checked.counts
                        && checked.message.contains("right before rounding"),
                    "{id} {seed}: {before:.2}: {}",
                    checked.message
                );
                // The whole number below it, perhaps rounded down or to
                // the nearest: said so (it was only "too low"), unless a
                // listed mistake gives that number.
                let down = check_answer(e, &v, &format!("{}", before.floor()), None);
                let listed = e
                    .mistakes
                    .iter()
                    .any(|m| tellers_course::expr::eval(m, &v.vars).ok() == Some(before.floor()));
                assert_eq!(
                    down.message.contains(
                        "If you rounded down or to the nearest, the question asks for a whole number"
                    ),
                    !listed,
                    "{id} {seed}: {}: {}",
                    before.floor(),
                    down.message
                );
                // An attempt either way, as "too low" was.
                assert!(down.counts);
                rounded_down += usize::from(!listed);
                // Another fraction below the answer, half a unit away from
                // the number before rounding, is only wrong (and counts).
                let other = answer - 1.0 + (before - (answer - 1.0) + 0.5).fract();
                if other.fract() > 0.01 {
                    let checked = check_answer(e, &v, &format!("{other:.2}"), None);
                    assert!(
                        !checked.message.contains("before rounding") && checked.counts,
                        "{id} {seed}: {other:.2}: {}",
                        checked.message
                    );
                }
            }
        }
        assert!(rounded_down > 0, "no variant said rounded down");
    }

    /// A wrong number that one of an exercise's listed mistakes gives is
    /// told what it is, for every mistake of every numeric exercise (on one
    /// student's numbers), and a thousandfold slip is told so.
    #[test]
    fn a_number_a_listed_mistake_gives_is_named_as_that_slip() {
        let seed = "r12/ana";
        let mut named = 0;
        for (_, e) in compiled_course().exercises() {
            let Ok(v) = e.variant(seed) else { continue };
            let (Some(unit), Some(answer)) = (e.unit, v.answer) else {
                continue;
            };
            for (m, note) in e.mistakes.iter().zip(&e.mistake_notes) {
                let value = tellers_course::expr::eval(m, &v.vars).unwrap();
                let typed = format!("{value}");
                // Only where the number is read as a wrong value (not the
                // answer, not asked again for its unit or its decimals).
                if !value.is_finite()
                    || !matches!(
                        check_in(&typed, answer, unit, e.tolerance.unwrap(), &e.prompt),
                        Verdict::WrongValue { .. }
                    )
                {
                    continue;
                }
                let checked = check_answer(e, &v, &typed, None);
                assert!(!checked.correct && checked.counts, "{}: {m}", e.id);
                // An earlier mistake may give the same number.
                let first = e
                    .slip(&v.vars, v.answer, &typed)
                    .and_then(|s| e.slip_note_of(s))
                    .unwrap();
                assert_eq!(
                    checked.message,
                    format!("Not quite: {}", decapitalised(first)),
                    "{}: {m}",
                    e.id
                );
                named += usize::from(first == note);
            }
        }
        assert!(named > 100, "only {named} mistakes named by their own note");
        let e = exercise("threads-busy");
        let v = e.variant(seed).unwrap();
        let off = format!("{} threads", v.answer.unwrap() * 1000.0);
        let checked = check_answer(e, &v, &off, None);
        assert!(
            checked.message.contains("a thousand times off"),
            "{}",
            checked.message
        );
        slips_near_a_number();
        // The answer rounded too far that is also a listed mistake's number
        // is told both: lesson 12's ten requests, 9.56 % typed as 10, the
        // ten 1 % chances added up. Not counted, as a rounding is not.
        let tail = exercise("page-tail-chance");
        let ten = (0..1000)
            .map(|i| tail.variant(&format!("r1/s{i}")).unwrap())
            .find(|v| v.vars.get("n") == Some(&10.0))
            .unwrap();
        let both = check_answer(tail, &ten, "10", None);
        assert!(!both.correct && !both.counts);
        assert!(
            both.message.starts_with("Not quite: that adds up the 1")
                && both.message.contains("rounded too far"),
            "{}",
            both.message
        );
        // A bare "1" for a percentage, wrong as 1 % and as 100 %, names the
        // mistake whose number is 1 % (lesson 16's one call's chance).
        let one_call = exercise("slowest-of-n");
        let first = one_call.variant("").unwrap();
        assert_eq!(first.vars.get("p"), Some(&1.0));
        let p = check_answer(one_call, &first, "1", None);
        assert!(!p.correct && p.counts);
        assert!(p.message.contains("one call alone"), "{}", p.message);
        // Only a mistake's own number: "44" for 44.4 threads is the answer
        // rounded further than asked, within the margin, not a sign of the
        // mistake that gives 43.2, and "1400" for 1,442 none of the one that
        // gives 1,376.
        let formula = exercise("threads-formula");
        let mut these = formula.variant("").unwrap();
        these.vars = [
            ("cores", 2.0),
            ("cpu", 5.0),
            ("wait", 180.0),
            ("util", 60.0),
        ]
        .into_iter()
        .map(|(k, v)| (k.to_string(), v))
        .collect();
        these.answer = Some(44.4);
        let near = check_answer(formula, &these, "44", None);
        assert!(
            near.correct
                && near.message
                    == "Correct, within the margin: to one decimal place, the answer is 44.4.",
            "{}",
            near.message
        );
        // Zero is no thousandfold slip of a small answer (0 for 0.2 cores
        // was told "a thousand times off"), in any exercise.
        for (_, e) in compiled_course().exercises() {
            let Some(v) = e
                .variant(seed)
                .ok()
                .filter(|v| v.answer.is_some_and(|a| a != 0.0))
            else {
                continue;
            };
            let said = check_answer(e, &v, "0", None).message;
            assert!(!said.contains("thousand times"), "{}: {said}", e.id);
        }
        // Any other wrong number is only too high or too low.
        let other = format!("{} threads", v.answer.unwrap() * 3.7);
        assert_eq!(
            check_answer(e, &v, &other, None).message,
            "Not quite: that is too high."
        );
    }

    /// What exercise `id` says to `typed` on the first numbers (no class
    /// code), and that exercise's answer there.
    fn said_on_first_numbers(id: &str, typed: impl Fn(f64) -> String) -> (String, f64) {
        let e = exercise(id);
        let v = e.variant("").unwrap();
        let answer = v.answer.unwrap();
        (check_answer(e, &v, &typed(answer), None).message, answer)
    }

    fn slips_near_a_number() {
        // Of two mistakes near a number, the nearer is named: lesson 6's
        // 525 MB is 500 MiB (the first mistake's 500 MB) but exactly the
        // second's 525 MB.
        let (near, _) = said_on_first_numbers("connection-state-memory", |_| "525 MB".into());
        assert!(near.contains("thread stack"), "{near}");
        // A mistake's number rounded to the decimals the question asks:
        // the line's wait alone at 22.5 % busy is 1.452 ms, typed 1.5 ms.
        let (rounded, _) = said_on_first_numbers("mm1-or-no-limit", |_| "1.5 ms".into());
        assert!(rounded.contains("only the wait in the line"), "{rounded}");
        // A dot that groups thousands (3.950 for 3,950) is said to be a
        // decimal point; a thousandfold slip with no units a thousand apart
        // is pointed at the zeros.
        let (dot, answer) = said_on_first_numbers("fd-limit-clients", |_| "3.950".into());
        assert_eq!(answer, 3950.0);
        assert!(dot.contains("that dot reads as a decimal point"), "{dot}");
        // Even where a listed mistake is a thousandth of the answer:
        // connections-per-ram's 10.000 was told it read 1 GB as 1,000 KB.
        let (dot, answer) =
            said_on_first_numbers("connections-per-ram", |a| format!("{}.000", a / 1000.0));
        assert_eq!(answer, 10_000.0);
        assert!(dot.contains("that dot reads as a decimal point"), "{dot}");
        let (zeros, _) = said_on_first_numbers("burst-in-line", |a| format!("{}", a * 1000.0));
        assert!(
            zeros.contains("where the decimal point or the zeros went"),
            "{zeros}"
        );
        // "40,000" for 40 threads: forty thousand as the lessons print
        // numbers, the thousandfold slip, named and counted; not asked
        // "did you mean 40000 or 40?", which handed over the answer.
        let e = exercise("sale-day-step-2");
        let v = e.variant("").unwrap();
        assert_eq!(v.answer, Some(40.0));
        let comma = check_answer(e, &v, "40,000", None);
        assert!(!comma.correct && comma.counts, "{}", comma.message);
        assert!(
            comma.message.contains("a thousand times off"),
            "{}",
            comma.message
        );
        assert!(!comma.message.contains("40 "), "{}", comma.message);
        // Digits after the comma that are not ",000" may be a decimal
        // comma's: the question stands, uncounted.
        let asked = check_answer(e, &v, "40,013", None);
        assert!(
            !asked.counts && asked.message.contains("did you mean"),
            "{}",
            asked.message
        );
        // check-moderate-row is about a 5 % gap (492.6 against the
        // table's 468): "500", 1.5 % off, is no longer right.
        let (high, _) = said_on_first_numbers("check-moderate-row", |_| "500".into());
        assert_eq!(high, "Not quite: that is too high.");
        let (near, _) = said_on_first_numbers("check-moderate-row", |_| "493".into());
        assert!(near.starts_with("Correct"), "{near}");
        // Said how the comma was read, for one who meant a decimal comma.
        assert!(
            comma.message.ends_with(
                "(The comma is read as a thousands comma, as the lessons print numbers.)"
            ),
            "{}",
            comma.message
        );
    }

    #[test]
    fn a_numeric_answer_is_checked_with_its_unit() {
        let e = exercise("threads-busy");
        let v = e.variant("r12/ana").unwrap();
        let right = v.answer.unwrap();
        let ok = check_answer(e, &v, &format!("{right} threads"), None);
        assert_eq!((ok.correct, ok.counts), (true, true));
        assert_eq!(ok.message, "Correct.");
        // "No limit" and a number: asked for one answer only where "no
        // limit" may be one (threads-busy takes a number only).
        assert!(!e.no_limit);
        let both = check_answer(e, &v, &format!("no limit ({right})"), None);
        assert!(
            !both.counts && both.message.starts_with("Type a number"),
            "{}",
            both.message
        );
        let pool = exercise("pool-above-the-mean");
        let pv = pool.variant("").unwrap();
        let both = check_answer(
            pool,
            &pv,
            &format!("no limit ({})", pv.answer.unwrap()),
            None,
        );
        assert!(
            !both.counts && both.message.starts_with("Give one answer"),
            "{}",
            both.message
        );
        let high = check_answer(e, &v, &format!("{}", right * 2.0), None);
        assert_eq!((high.correct, high.counts), (false, true));
        assert!(high.message.contains("too high"), "{}", high.message);
        let unit = check_answer(e, &v, &format!("{right} ms"), None);
        assert!(!unit.correct && unit.counts);
        assert!(
            unit.message.starts_with("Wrong unit: 'ms' gives a time"),
            "{}",
            unit.message
        );
        // Nothing readable is not an attempt.
        let none = check_answer(e, &v, "lots", None);
        assert_eq!((none.correct, none.counts), (false, false));
        assert!(none.message.contains("Type a number"));
    }

    /// A student of class R12 whose "threads busy" answer has a decimal part.
    fn decimal_student(e: &Exercise) -> Variant {
        (0..200)
            .map(|i| e.variant(&format!("r12/student {i}")).unwrap())
            .find(|v| v.answer.unwrap().fract() != 0.0)
            .expect("some student gets a fractional answer")
    }

    #[test]
    fn answers_as_learners_type_them() {
        let e = exercise("threads-busy");
        let v = decimal_student(e);
        let right = v.answer.unwrap();
        let comma = format!("{right}").replace('.', ",");
        // A decimal comma: right, and never read as a hundred times more.
        let ok = check_answer(e, &v, &comma, None);
        assert_eq!((ok.correct, ok.counts), (true, true), "{comma}");
        let no_comma = format!("{right}").replace('.', "");
        assert!(!check_answer(e, &v, &no_comma, None).correct);
        // Little's law counts the requests inside, each holding a thread.
        let requests = check_answer(e, &v, &format!("{right} requests"), None);
        assert!(requests.correct, "{}", requests.message);
        // A fraction is its value, not a unit.
        let (num, den) = ((right * 20.0).round(), 20.0);
        let fraction = check_answer(e, &v, &format!("{num}/{den}"), None);
        assert!(fraction.correct, "{}", fraction.message);
        // A time for a count: the unit is wrong, and nothing is said of the number.
        let ms = check_answer(e, &v, "99 ms", None);
        assert!(!ms.correct && ms.counts);
        assert!(ms.message.starts_with("Wrong unit: 'ms'"), "{}", ms.message);
        assert!(!ms.message.contains("may be fine"), "{}", ms.message);
    }

    #[test]
    fn a_bare_number_meant_in_another_unit_asks_for_the_unit_and_is_no_attempt() {
        // batch-time's answer is in s; the learner typed it in ms, no unit.
        let e = exercise("batch-time");
        let v = e.variant("r12/ana").unwrap();
        let ms = format!("{}", v.answer.unwrap() * 1000.0);
        let bare = check_answer(e, &v, &ms, None);
        assert_eq!(
            (bare.correct, bare.counts),
            (false, false),
            "{}",
            bare.message
        );
        assert!(
            bare.message
                .starts_with(&format!("{ms} reads as {ms} s here, too high;"))
                && bare.message.ends_with(&format!("type the unit: {ms} ms.")),
            "{}",
            bare.message
        );
        let with_unit = check_answer(e, &v, &format!("{ms} ms"), None);
        assert!(with_unit.correct, "{}", with_unit.message);
    }

    #[test]
    fn hedge_cost_takes_a_percentage_as_its_solution_says_it() {
        let e = exercise("hedge-cost");
        assert_eq!(e.unit, Some(Unit::Count));
        let v = e.variant("r12/ana").unwrap();
        let percent = format!("{} %", format_number(v.answer.unwrap() * 100.0));
        // As the learner reads it: the unit on the number's line.
        let shown = tellers_sim::text::units_kept(&percent);
        assert!(
            v.solution.last().unwrap().contains(&shown),
            "{shown}: {:?}",
            v.solution
        );
        // Typed, or copied from the solution with its no-break space.
        for answer in [&percent, &shown] {
            let typed = check_answer(e, &v, answer, None);
            assert_eq!(
                (typed.correct, typed.counts),
                (true, true),
                "{answer:?}: {}",
                typed.message
            );
        }
        // A count of threads is no percentage.
        let threads = exercise("threads-busy");
        let tv = threads.variant("r12/ana").unwrap();
        let pct = check_answer(threads, &tv, "50 %", None);
        assert!(!pct.correct && pct.counts, "{}", pct.message);
        assert!(
            pct.message.starts_with("Wrong unit: '%'"),
            "{}",
            pct.message
        );
    }

    #[test]
    fn a_right_option_says_correct_once() {
        let e = exercise("littles-law-says");
        let v = e.variant("r12/ana").unwrap();
        let right = v.correct.unwrap();
        assert!(
            v.explain[right].starts_with("Right. "),
            "the lesson's own words"
        );
        let ok = check_answer(e, &v, "", Some(right));
        assert!(ok.correct);
        assert_eq!(
            ok.message,
            format!("Correct. {}", &v.explain[right]["Right. ".len()..])
        );
        assert!(!ok.message.contains("Right."), "{}", ok.message);
        assert_eq!(after_verdict("Yes. Because."), "Because.");
        assert_eq!(after_verdict("Rightly so."), "Rightly so.");
    }

    #[test]
    fn an_option_is_right_or_says_why_not() {
        let e = exercise("work-or-wait-step");
        // The student's own order: the right option's place is the variant's.
        let v = e.variant("").unwrap();
        let right = v.correct.unwrap();
        let wrong = (right + 1) % v.options.len();
        let ok = check_answer(e, &v, "", Some(right));
        assert!(ok.correct && ok.counts && ok.message.starts_with("Correct."));
        let no = check_answer(e, &v, "", Some(wrong));
        assert!(!no.correct && no.counts && no.message.starts_with("Not this one."));
        assert!(no.message.len() > "Not this one.".len(), "says why");
        // The wrong option is recorded by its written place, whatever the
        // student's order; a right one records none.
        assert_eq!(ok.slip, None);
        let Some(Slip::Option(written)) = no.slip else {
            panic!("{:?}", no.slip)
        };
        assert_eq!(e.options[written], v.options[wrong]);
        let mut moved = 0;
        for seed in ["r12/ana", "r12/bo", "r12/cy", "r12/di"] {
            let v = e.variant(seed).unwrap();
            let picked = (v.correct.unwrap() + 1) % v.options.len();
            let Some(Slip::Option(w)) = check_answer(e, &v, "", Some(picked)).slip else {
                panic!("no slip for {seed}")
            };
            assert_eq!(w, e.option_order(seed)[picked], "{seed}");
            moved += usize::from(w != picked);
        }
        assert!(moved > 0, "some student sees the options shuffled");
        let unpicked = check_answer(e, &v, "", None);
        assert_eq!((unpicked.correct, unpicked.counts), (false, false));
        assert_eq!(unpicked.message, "Pick one of the options first.");
    }

    #[test]
    fn the_key_gives_each_students_own_answer() {
        let e = exercise("threads-busy");
        let ana = e.variant("r12/ana").unwrap().answer.unwrap();
        assert_eq!(
            answer_text(e, "r12/ana"),
            format!("{} threads", format_number(ana))
        );
        let c = exercise("work-or-wait-step");
        let cv = c.variant("r12/ana").unwrap();
        let i = cv.correct.unwrap();
        assert_eq!(
            answer_text(c, "r12/ana"),
            format!("{}. {}", option_letter(i), cv.options[i])
        );
        // The same text as the written key, wherever this student sees it.
        assert_eq!(cv.options[i], c.options[c.correct.unwrap()]);
    }

    /// The numeric exercises with some student of class R12 whose line
    /// grows without limit, each with that student's seed.
    fn unbounded_students() -> Vec<(&'static Exercise, String)> {
        compiled_course()
            .exercises()
            .filter(|(_, e)| e.kind == Kind::Numeric)
            .filter_map(|(_, e)| {
                (0..400)
                    .map(|i| student_seed("R12", &format!("Student {i}")))
                    .find(|seed| {
                        e.variant(seed)
                            .is_ok_and(|v| v.answer.is_some_and(f64::is_infinite))
                    })
                    .map(|seed| (e, seed))
            })
            .collect()
    }

    #[test]
    fn the_key_says_no_limit_as_the_question_asks_never_infinity_with_a_unit() {
        let found = unbounded_students();
        let ids: Vec<&str> = found.iter().map(|(e, _)| e.id.as_str()).collect();
        // Lesson 4's "If it cannot keep up … answer \"no limit\"" among them.
        assert!(ids.contains(&"pool-above-the-mean"), "{ids:?}");
        for (e, seed) in &found {
            let v = e.variant(seed).unwrap();
            let shown = answer_text(e, seed);
            assert_eq!(shown, KEY_NO_LIMIT, "{}", e.id);
            // What the question tells the student to type, and what the
            // checker takes as right.
            assert!(v.prompt.contains(KEY_NO_LIMIT), "{}: {}", e.id, v.prompt);
            let typed = check_answer(e, &v, &shown, None);
            assert!(typed.correct, "{}: {}", e.id, typed.message);
            // The prompt's own words are right too; a reply the checker
            // cannot read says the words that are, and is not counted;
            // the line under the box says them from the start.
            let said = check_answer(e, &v, "it cannot keep up", None);
            assert!(said.correct, "{}: {}", e.id, said.message);
            let unread = check_answer(e, &v, "hmm", None);
            assert!(
                !unread.counts && unread.message.ends_with("type \"no limit\"."),
                "{}: {}",
                e.id,
                unread.message
            );
            assert!(
                e.no_limit,
                "{}: the app is told its answer may be words",
                e.id
            );
            assert!(answer_with(e.unit.unwrap(), e.no_limit).ends_with("type \"no limit\"."));
        }
        assert_eq!(
            answer_with(Unit::Threads, false),
            "Answer with a number, optionally followed by threads."
        );
        // Every place the key writes an answer: the student's table.
        let (e, seed) = &found[ids
            .iter()
            .position(|&i| i == "pool-above-the-mean")
            .unwrap()];
        let lesson = compiled_course()
            .lessons
            .iter()
            .find(|l| l.exercises().any(|x| x.id == e.id))
            .unwrap();
        let name = (0..400)
            .map(|i| format!("Student {i}"))
            .find(|n| student_seed("R12", n) == *seed)
            .unwrap();
        let html = student_key_html(compiled_course(), "R12", &name, &lesson.slug, true);
        let row = &html[html.find(&format!("data-exercise=\"{}\"", e.id)).unwrap()..];
        let row = &row[..row.find("</tr>").unwrap()];
        assert!(
            row.ends_with("<td class=\"key__answer\">no limit</td>"),
            "{row}"
        );
        assert!(!html.contains('\u{221e}'), "no \u{221e} on the key");
        // The browser test's class of 20 (key.test.mjs) has such students.
        let (e, _) = found[ids
            .iter()
            .position(|&i| i == "pool-above-the-mean")
            .unwrap()];
        let unbounded = (0..20)
            .map(|i| answer_text(e, &student_seed("R12", &format!("Student {i}"))))
            .filter(|a| a == KEY_NO_LIMIT)
            .count();
        assert!((1..20).contains(&unbounded), "{unbounded} of 20");
    }

    #[test]
    fn every_numeric_answer_on_the_key_is_right_when_a_student_types_it() {
        for (_, e) in compiled_course()
            .exercises()
            .filter(|(_, e)| e.kind == Kind::Numeric)
        {
            for i in 0..25 {
                let seed = student_seed("R12", &format!("Student {i}"));
                let v = e.variant(&seed).unwrap();
                let shown = answer_text(e, &seed);
                let typed = check_answer(e, &v, &shown, None);
                assert!(
                    typed.correct,
                    "{} for {seed}: {shown}: {}",
                    e.id, typed.message
                );
            }
        }
    }

    #[test]
    fn each_printed_table_of_the_key_says_whose_answers_and_the_name_the_class() {
        let course = compiled_course();
        let all = student_key_html(course, " R12 ", "Ana <Souza>", "", false);
        assert!(
            all.starts_with(
                "<section class=\"key__student\"><div class=\"key__head\"><h2>Ana &lt;Souza&gt;\
             <span class=\"key__whose\"> \u{b7} class R12</span></h2>"
            ),
            "{all}"
        );
        // Every table's caption starts with whose answers: a printed page
        // that starts in the middle of a student says whose they are.
        let whose = "<caption><span class=\"key__whose\">Ana &lt;Souza&gt; \u{b7} </span>";
        assert_eq!(all.matches(whose).count(), course.lessons.len(), "{all}");
        assert_eq!(all.matches("<table ").count(), course.lessons.len());
        let nameless = student_key_html(course, "", "", "littles-law", true);
        assert!(
            nameless.contains("<h2>Students without a name</h2>"),
            "no class, nothing said of it: {nameless}"
        );
        assert!(nameless.contains(
            "<caption><span class=\"key__whose\">Students without a name \u{b7} </span>"
        ));
    }

    #[test]
    fn the_key_says_how_many_names_were_left_out_one_or_more() {
        assert_eq!(key_left_out_note(0), None);
        assert_eq!(
            key_left_out_note(1).unwrap(),
            format!(
                "This key lists the first {KEY_MAX_STUDENTS} names; 1 more was left out. \
                 Make a second key with the rest."
            )
        );
        let five = key_left_out_note(5).unwrap();
        assert!(five.contains("; 5 more were left out."), "{five}");
    }

    #[test]
    fn simulator_figures_read_in_words_with_their_units() {
        assert_eq!(
            sim_check_text("mean_in_flight", 39.87, Some(40.0)),
            "The simulator measured requests inside (mean): 39.9; the formula gives 40."
        );
        assert_eq!(
            sim_check_text("queue_len_end", 30.0, None),
            "The simulator measured requests in line at the end: 30."
        );
        assert_eq!(
            sim_check_text("queue_growth_per_s", 204.0, Some(200.0)),
            "The simulator measured line growth: 204 requests per second; \
             the formula gives 200 requests per second."
        );
        assert_eq!(
            sim_check_text("hedge_extra_share", 0.367, Some(0.368)),
            "The simulator measured extra calls from hedging: 36.7 % of calls; \
             the formula gives 36.8 % of calls."
        );
        assert_eq!(
            sim_check_text("queue_wait_mean_ms", 57.3, None),
            "The simulator measured mean wait in line: 57.3 ms."
        );
        assert_eq!(
            sim_check_text("cpu_utilisation", 0.5, None),
            "The simulator measured CPU busy: 50 % of the time."
        );
        assert_eq!(
            sim_check_text("throughput_rps", f64::NAN, Some(10.0)),
            "The simulator measured throughput: —; the formula gives 10 requests per second."
        );
    }

    #[test]
    fn no_simulator_check_shows_a_field_name() {
        // Every exercise's check, with its own figure: words, never the
        // report's field name, and the course's "line", never "queue".
        let fields: Vec<&str> = compiled_course()
            .exercises()
            .filter_map(|(_, e)| e.check_field.as_deref())
            .collect();
        assert!(fields.contains(&"hedge_extra_share"), "{fields:?}");
        for field in fields {
            let text = sim_check_text(field, 12.5, Some(12.0));
            assert!(!text.contains('_'), "{field}: {text}");
            assert!(!text.to_lowercase().contains("queue"), "{field}: {text}");
            assert!(!text.contains(" = "), "{field}: {text}");
        }
    }

    #[test]
    fn the_simulator_check_runs_the_exercises_scenario() {
        let e = exercise("threads-busy");
        let v = e.variant("r12/ana").unwrap();
        let report = sim_check_setup(e, &v).unwrap().run();
        let text = sim_check_message(e, &report, v.answer);
        assert!(
            text.starts_with("The simulator measured requests inside (mean): "),
            "{text}"
        );
        assert!(text.ends_with(e.note.as_deref().unwrap()), "{text}");
        // An answer given as a plain number beside a share in percent.
        let hedge = exercise("hedge-cost");
        let hv = hedge.variant("").unwrap();
        let report = Report {
            hedges: 367,
            dep_calls: 1367,
            ..Report::default()
        };
        let text = sim_check_message(hedge, &report, hv.answer);
        assert!(
            text.starts_with(&format!(
                "The simulator measured extra calls from hedging: 36.7 % of calls; \
                 the formula gives {} % of calls.",
                format_number(hv.answer.unwrap() * 100.0)
            )),
            "{text}"
        );
        // An answer in percent beside a share the report gives as 0–1.
        let busy = Exercise {
            unit: Some(Unit::Percent),
            check_field: Some("cpu_utilisation".into()),
            note: None,
            ..e.clone()
        };
        let report = Report {
            cpu_utilisation: 0.5,
            ..Report::default()
        };
        assert_eq!(
            sim_check_message(&busy, &report, Some(49.0)),
            "The simulator measured CPU busy: 50 % of the time; the formula gives 49 % of the time."
        );
        let plain = exercise("work-or-wait-step");
        assert_eq!(
            sim_check_setup(plain, &plain.variant("").unwrap()).err(),
            Some("This exercise has no simulator check.".to_string())
        );
    }

    #[test]
    fn the_key_lists_a_students_answers_for_one_lesson_or_all() {
        let course = compiled_course();
        let all = student_key_html(course, "R12", "Ana", "", false);
        assert_eq!(
            all.matches("<tr data-exercise=").count(),
            course.exercises().count()
        );
        assert_eq!(all.matches("<caption>").count(), course.lessons.len());
        assert!(!all.contains("Their worksheet"));
        assert!(!all.contains("Question"), "compact: no questions");
        let one = student_key_html(course, "R12", "Zoë <3", "littles-law", true);
        let littles = course.lesson("littles-law").unwrap();
        let n = littles.exercises().count();
        assert_eq!(one.matches("<tr data-exercise=").count(), n);
        // By lesson number and title, each exercise by its number.
        assert!(one.contains(&format!(
            "</span>{}. Little's law</caption>",
            littles.number
        )));
        let (label, first) = littles.numbered_exercises().next().unwrap();
        assert_eq!(label, format!("{}.1", littles.number));
        assert!(one.contains(&format!(
            "<tr data-exercise=\"{}\"><th scope=\"row\">{label}</th><td>",
            first.id
        )));
        assert!(
            one.contains("<h2>Zoë &lt;3<span class=\"key__whose\"> \u{b7} class R12</span></h2>")
        );
        assert!(one.contains(
            "href=\"#/lessons/worksheet/littles-law?class=R12&amp;name=Zo%C3%AB%20%3C3\""
        ));
        let e = exercise("threads-busy");
        assert!(one.contains(&*text(&answer_text(e, &student_seed("R12", "Zoë <3")))));
    }

    #[test]
    fn names_spaced_apart_have_the_same_key() {
        let course = compiled_course();
        let key = |name| student_key_html(course, "R12", name, "littles-law", true);
        let (a, b) = (key("Ana Souza"), key("Ana  Souza"));
        let body = |h: &str| h[h.find("<div class=\"key__lessons").unwrap()..].to_string();
        assert_eq!(body(&a), body(&b));
    }

    #[test]
    fn labels() {
        assert_eq!(kind_label(Kind::Diagnosis), "Diagnose");
        assert_eq!(hint_label(0, 3), "Hint (1 of 3)");
        assert_eq!(hint_label(3, 3), "Hint (3 of 3)");
        assert_eq!(hint_label(usize::MAX, 3), "Hint (3 of 3)");
        assert_eq!(option_letter(2), 'C');
    }
}
