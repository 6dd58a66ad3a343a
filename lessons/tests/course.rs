//! The real course: every lesson parses, every exercise's answer agrees with
//! the analytic module, and, where an exercise offers a simulator check, the
//! simulator agrees too.

use std::path::Path;
use tellers_course::exercise::report_value;
use tellers_course::parse::parse_course;
use tellers_course::{check, Kind, Verdict};

fn course() -> tellers_course::Course {
    parse_course(Path::new(env!("CARGO_MANIFEST_DIR"))).unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn every_lesson_parses_in_order() {
    let c = course();
    assert_eq!(c.lessons.len(), 13);
    for l in &c.lessons {
        assert!(
            l.exercises().count() >= 3,
            "lesson {} has fewer than three exercises",
            l.slug
        );
    }
}

#[test]
fn each_variant_accepts_its_own_answer_in_the_shown_form() {
    // The solution's last line shows the answer rounded as the lessons print
    // it; typing that must be accepted.
    for (_, ex) in course().exercises() {
        if ex.kind != Kind::Numeric {
            continue;
        }
        for seed in ["", "class-1/ana", "class-1/ben", "class-9/zoe"] {
            let v = ex.variant(seed).unwrap();
            let a = v.answer.unwrap();
            let shown = tellers_course::format_number(a);
            let unit = ex.unit.unwrap();
            assert_eq!(
                check(&shown, a, unit, ex.tolerance.unwrap()),
                Verdict::Correct,
                "{}: {shown}",
                ex.id
            );
        }
    }
}

#[test]
fn simulator_checks_agree_with_the_answers() {
    for (_, ex) in course().exercises() {
        let Some(field) = &ex.check_field else {
            continue;
        };
        for seed in ["", "class-1/ana"] {
            let v = ex.variant(seed).unwrap();
            let s = ex.check_scenario(&v.vars).unwrap().unwrap();
            let r = tellers_sim::simulate(&s).unwrap();
            let got = report_value(&r, field).unwrap();
            let want = v.answer.unwrap();
            // Fields compared in the exercise's unit: percentages against utilisation.
            let got = if field == "cpu_utilisation" && want > 1.0 {
                got * 100.0
            } else {
                got
            };
            // A simulated run is a sample: 10 %; where the exercise's note
            // explains why theory and simulation part, 25 %.
            let allowed = if ex.note.is_some() { 0.25 } else { 0.10 };
            let rel = (got - want).abs() / want.abs().max(1e-9);
            assert!(
                rel < allowed,
                "{} seed {seed:?}: simulated {got}, answer {want} (off by {:.0} %)",
                ex.id,
                rel * 100.0
            );
        }
    }
}
