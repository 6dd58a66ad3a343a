//! A printable worksheet: one lesson's exercises with one student's
//! numbers, room to work, and no answers, hints or solutions. Built as HTML
//! text ([`worksheet_html`]): it is static once drawn.

use crate::answer::{kind_label, option_letter};
use crate::progress::student_seed;
use html_escape::encode_text as text;
use tellers_course::{Kind, Lesson};

/// One exercise as the worksheet prints it.
#[derive(Clone, Debug, PartialEq)]
pub struct WorksheetItem {
    /// "Calculate", "Recall" or "Diagnose".
    pub kind: &'static str,
    /// The question with the student's numbers.
    pub prompt: String,
    /// Options to tick, lettered ("A. …"); empty for a numeric exercise.
    pub options: Vec<String>,
    /// The unit to answer in, for the answer line ("" when none).
    pub unit: String,
}

/// The worksheet of `lesson` for the student with `seed`: their numbers,
/// and the options in their order (the one the answer key's letters use).
pub fn worksheet(lesson: &Lesson, seed: &str) -> Vec<WorksheetItem> {
    lesson
        .exercises()
        .map(|e| {
            let variant = e.variant(seed);
            let (prompt, options) = match &variant {
                Ok(v) => (v.prompt.clone(), v.options.clone()),
                Err(err) => (
                    format!("(this exercise could not be set up: {err})"),
                    e.options.clone(),
                ),
            };
            WorksheetItem {
                kind: kind_label(e.kind),
                prompt,
                options: match e.kind {
                    Kind::Numeric => vec![],
                    Kind::Choice | Kind::Diagnosis => options
                        .iter()
                        .enumerate()
                        .map(|(i, o)| format!("{}. {o}", option_letter(i)))
                        .collect(),
                },
                unit: e.unit.map(|u| u.label().to_string()).unwrap_or_default(),
            }
        })
        .collect()
}

/// The worksheet of `lesson` for the student `name` in class `class`, as
/// HTML: who, the exercises with their numbers, room to work, an answer
/// line. No answers.
pub fn worksheet_html(lesson: &Lesson, class: &str, name: &str) -> String {
    let blank = |s: &str| {
        if s.trim().is_empty() {
            "\u{a0}".repeat(30)
        } else {
            text(s).into_owned()
        }
    };
    let whose = if class.trim().is_empty() {
        "Everyone without a class code gets these numbers.".to_string()
    } else if name.trim().is_empty() {
        format!(
            "Numbers for a student without a name in class {}.",
            text(class)
        )
    } else {
        format!("Numbers for {} in class {}.", text(name), text(class))
    };
    let mut h = format!(
        "<p class=\"eyebrow\">Lesson {} · Worksheet</p><h1>{}</h1>\
         <p class=\"worksheet__who\"><span>Name: <span class=\"worksheet__blank\">{}</span></span>\
         <span>Class: <span class=\"worksheet__blank\">{}</span></span></p>\
         <p class=\"worksheet__note\">{whose} Work each one out below, then check your answers in the lesson.</p>\
         <ol class=\"worksheet__items\">",
        lesson.number,
        text(&lesson.title),
        blank(name),
        blank(class),
    );
    for item in worksheet(lesson, &student_seed(class, name)) {
        h += &format!(
            "<li class=\"worksheet__item\" data-testid=\"worksheet-item\"><p class=\"exercise__kind\">{}</p>\
             <p class=\"worksheet__prompt\">{}</p>",
            item.kind,
            text(&item.prompt)
        );
        if !item.options.is_empty() {
            h += "<ul class=\"worksheet__options\">";
            for o in &item.options {
                h += &format!("<li>☐ {}</li>", text(o));
            }
            h += "</ul>";
        }
        // Room to work where there is something to work out.
        if item.options.is_empty() {
            h += "<div class=\"worksheet__work\" role=\"presentation\"></div>";
        }
        h += &format!(
            "<p class=\"worksheet__answer\">Answer: <span class=\"worksheet__blank\">{}</span> {}</p></li>",
            "\u{a0}".repeat(30),
            text(&item.unit)
        );
    }
    h + "</ol>"
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::answer::answer_text;
    use crate::course_data::compiled_course;

    #[test]
    fn a_worksheet_has_the_students_numbers_and_no_answers() {
        let seed = student_seed("K7Q2-MX4P", "Ana");
        for lesson in &compiled_course().lessons {
            let sheet = worksheet(lesson, &seed);
            let exercises: Vec<_> = lesson.exercises().collect();
            assert_eq!(sheet.len(), exercises.len());
            for (item, e) in sheet.iter().zip(exercises) {
                let v = e.variant(&seed).unwrap();
                assert_eq!(item.prompt, v.prompt, "their numbers");
                let printed = format!("{} {} {}", item.prompt, item.options.join(" "), item.unit);
                for secret in v.hints.iter().chain(&v.solution).chain(&e.explain) {
                    assert!(!printed.contains(secret.as_str()), "{}: {secret}", e.id);
                }
                if e.kind == Kind::Numeric {
                    assert!(item.options.is_empty());
                    // The answer's number is not on the sheet unless the
                    // question itself happens to print it.
                    let answer = answer_text(e, &seed);
                    let number = answer.split(' ').next().unwrap();
                    assert!(
                        !printed.contains(&answer) || v.prompt.contains(number),
                        "{}: {answer}",
                        e.id
                    );
                } else {
                    assert_eq!(item.options.len(), e.options.len());
                    assert!(item.options[0].starts_with("A. "));
                    // In the student's order, so the key's letter is theirs.
                    let right = v.correct.unwrap();
                    assert_eq!(
                        item.options[right],
                        format!("{}. {}", option_letter(right), v.options[right])
                    );
                    assert!(
                        answer_text(e, &seed).starts_with(&item.options[right]),
                        "{}",
                        e.id
                    );
                }
            }
        }
    }

    #[test]
    fn the_printed_sheet_says_whose_numbers_and_escapes_the_name() {
        let lesson = compiled_course().lesson("littles-law").unwrap();
        let html = worksheet_html(lesson, "R12", "<b>Ana</b>");
        assert!(html.contains("Numbers for &lt;b&gt;Ana&lt;/b&gt; in class R12."));
        assert!(!html.contains("<b>"));
        assert_eq!(
            html.matches("data-testid=\"worksheet-item\"").count(),
            lesson.exercises().count()
        );
        let seed = student_seed("R12", "<b>Ana</b>");
        let first = lesson.exercises().next().unwrap();
        let prompt = first.variant(&seed).unwrap().prompt;
        assert!(html.contains(&*text(&prompt)), "their numbers");
        assert!(worksheet_html(lesson, "", "").contains("Everyone without a class code"));
    }
}
