//! A printable worksheet: one lesson's exercises with one student's
//! numbers, room to work, and no answers, hints or solutions. Built as HTML
//! text ([`worksheet_html`]): it is static once drawn. A whole class's
//! worksheets for one lesson ([`class_sheets`], the teacher's tools) are
//! the same sheets, one after another, each on its own pages.

use crate::answer::{kind_label, option_letter};
use crate::classroom::{key_students, KEY_MAX_STUDENTS};
use crate::progress::student_seed;
use crate::route::query_escape;
use html_escape::encode_text as text;
use tellers_course::{Course, Kind, Lesson};
use tellers_sim::text::and_list;

/// One exercise as the worksheet prints it.
#[derive(Clone, Debug, PartialEq)]
pub struct WorksheetItem {
    /// Its number as the lesson, the answer key and the results table
    /// give it ("4.2"): the sheet numbered 1, 2, … beside a key's 4.1, 4.2.
    pub number: String,
    /// "Calculate", "Recall" or "Diagnose".
    pub kind: &'static str,
    /// The question with the student's numbers.
    pub prompt: String,
    /// Options to tick, lettered ("A. …"); empty for a numeric exercise.
    pub options: Vec<String>,
    /// The unit to answer in, for the answer line ("" when none;
    /// "threads, or \"no limit\"" where the line may grow without end).
    pub unit: String,
}

/// The worksheet of `lesson` for the student with `seed`: their numbers,
/// and the options in their order (the one the answer key's letters use).
pub fn worksheet(lesson: &Lesson, seed: &str) -> Vec<WorksheetItem> {
    lesson
        .numbered_exercises()
        .map(|(number, e)| {
            let variant = e.variant(seed);
            let (prompt, options) = match &variant {
                Ok(v) => (v.prompt.clone(), v.options.clone()),
                Err(err) => (
                    format!("(this exercise could not be set up: {err})"),
                    e.options.clone(),
                ),
            };
            WorksheetItem {
                number,
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
                // Where the line may grow without end, the blank may hold
                // words, not a count of the unit.
                unit: match (e.unit, e.no_limit) {
                    (Some(u), true) => {
                        format!("{}, or \"{}\"", u.label(), crate::answer::KEY_NO_LIMIT)
                    }
                    (Some(u), false) => u.label().to_string(),
                    (None, _) => String::new(),
                },
            }
        })
        .collect()
}

/// A `<style>` that prints whose sheet it is at the top of each printed
/// page of the named page `page` (the element holding the sheet says
/// `style="page: PAGE"`): the name is written once on the sheet, and the
/// second page of a sheet, picked up from the printer apart from the
/// first, still says whose it is. Empty when there is no name.
pub fn running_head(page: &str, lesson: &Lesson, class: &str, name: &str) -> String {
    if name.trim().is_empty() {
        return String::new();
    }
    let class = if class.trim().is_empty() {
        String::new()
    } else {
        format!(" \u{b7} class {}", class.trim())
    };
    let label = format!(
        "{}{class} \u{b7} Lesson {} worksheet",
        name.trim(),
        lesson.number
    );
    format!(
        "<style>@page {page} {{ margin: 1.5cm; @top-right {{ content: \"{}\"; font: 9pt sans-serif; color: #444; }} }}</style>",
        css_string(&label)
    )
}

/// The named page a student's own worksheet prints on (see
/// [`own_sheet_html`]).
pub const OWN_SHEET_PAGE: &str = "sheet";

/// A student's own worksheet ([`worksheet_html`]) with its
/// [`running_head`], for an element whose style says `page: sheet`
/// ([`OWN_SHEET_PAGE`]).
pub fn own_sheet_html(lesson: &Lesson, class: &str, name: &str) -> String {
    running_head(OWN_SHEET_PAGE, lesson, class, name) + &worksheet_html(lesson, class, name)
}

/// `s` as the inside of a CSS string in a `<style>`: quotes and
/// backslashes escaped, line breaks and `<` (which could end the
/// `<style>`) written as code points.
fn css_string(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '"' | '\\' => {
                out.push('\\');
                out.push(c);
            }
            '<' | '\n' | '\r' | '\u{c}' => out += &format!("\\{:x} ", u32::from(c)),
            _ => out.push(c),
        }
    }
    out
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
            "<li class=\"worksheet__item\" data-testid=\"worksheet-item\"><p class=\"exercise__kind\">{} \u{b7} {}</p>\
             <p class=\"worksheet__prompt\">{}</p>",
            item.number,
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

/// The link to the worksheets of `names` (in this order) in class `class`
/// for the lesson `slug`: `#/lessons/worksheets/SLUG?class=CODE&name=A&name=B`.
///
/// The names travel in the URL, one `name=` each (percent-encoded, so a
/// comma or an `&` in a name is kept), because that is the simplest thing
/// that works in the new tab the answer key opens it in: the key's links
/// open with `rel="noopener"` (the key keeps its unlocked state), and such
/// a tab starts with empty session storage in Chromium; a URL also
/// survives a reload and can be opened again next week. The hash is never
/// sent to a server, so the names still do not leave the browser. The key
/// lists at most [`KEY_MAX_STUDENTS`] names (about 10 KB of URL at 50
/// bytes a name, far below any browser's limit); a longer, edited link
/// prints the first ones and says how many were left out
/// What a page drawn a few students at a time prints when printed from the
/// browser's menu before it is ready (`what`: "the worksheets", "the
/// key"), with `shown` of `total` students drawn: the page's own Print
/// button waits, the browser's menu does not (a class of 24 printed 16
/// sheets without a word).
pub fn printed_too_soon(what: &str, shown: usize, total: usize) -> String {
    format!(
        "Printed before {what} {} ready ({shown} of {total} students). Wait until the page's Print button can be pressed, then print again.",
        if what.ends_with('s') { "were" } else { "was" }
    )
}

/// ([`ClassSheets::left_out_note`]).
pub fn class_sheets_href(slug: &str, class: &str, names: &[String]) -> String {
    let mut href = format!("#/lessons/worksheets/{slug}?class={}", query_escape(class));
    for name in names {
        href += "&name=";
        href += &query_escape(name);
    }
    href
}

/// What the answer key offers for the worksheets of its listed students:
/// a link ([`class_sheets_href`]) once one lesson is picked, or a line
/// saying to pick one.
#[derive(Clone, Debug, PartialEq)]
pub struct SheetsOffer {
    /// The link to the class's worksheets; `None` while every lesson is
    /// shown (a worksheet is one lesson's).
    pub href: Option<String>,
    /// The link's words, or what to do to get it.
    pub text: String,
}

/// The answer key's offer of worksheets for the students `names` of class
/// `class` with the lesson `lesson` picked ("" for all lessons), when
/// `left_out` more names were listed than the key takes: not "all" of
/// them then, but "the first". Nothing while no names are listed.
pub fn class_sheets_offer(
    lesson: &str,
    class: &str,
    names: &[String],
    left_out: usize,
) -> Option<SheetsOffer> {
    let n = names.len();
    if n == 0 {
        return None;
    }
    let all = match (n, left_out) {
        (1, 0) => "the worksheet for 1 student".to_string(),
        (_, 0) => format!("worksheets for all {n} students"),
        (1, _) => "the worksheet for the first student".to_string(),
        _ => format!("worksheets for the first {n} students"),
    };
    Some(if lesson.is_empty() {
        SheetsOffer {
            href: None,
            text: format!("To print {all}, pick one lesson."),
        }
    } else {
        SheetsOffer {
            href: Some(class_sheets_href(lesson, class, names)),
            text: format!("Print {all}"),
        }
    })
}

/// The worksheets of a class for one lesson, as a link asks for them
/// ([`class_sheets`]): checked, with the students in the link's order.
#[derive(Clone, Debug, PartialEq)]
pub struct ClassSheets {
    /// The lesson's slug, a lesson of the course.
    pub slug: String,
    /// "Lesson 4 · Worksheets for class R12".
    pub eyebrow: String,
    /// The page's heading: "Worksheets: Little's law".
    pub heading: String,
    /// The class code.
    pub class: String,
    /// The students, in the link's order: each once, tidied as the answer
    /// key tidies names ([`key_students`]), at most [`KEY_MAX_STUDENTS`].
    pub names: Vec<String>,
    /// How many more students the link listed, left out.
    pub left_out: usize,
}

/// The worksheets a link asks for: the lesson `slug` of `course`, class
/// `class`, students `names` (as [`class_sheets_href`] writes them). Or,
/// for a link that was cut or edited, what is wrong with it, in words a
/// teacher can act on: no such lesson, no class, no students.
pub fn class_sheets(
    course: &Course,
    slug: &str,
    class: &str,
    names: &[String],
) -> Result<ClassSheets, String> {
    let mut wrong = Vec::new();
    let lesson = course.lesson(slug);
    if slug.is_empty() {
        wrong.push("names no lesson".to_string());
    } else if lesson.is_none() {
        let shown: String = slug.chars().filter(|c| !c.is_control()).take(60).collect();
        wrong.push(format!(
            "names a lesson \u{201c}{shown}\u{201d} that is not in this course"
        ));
    }
    let class = class.trim();
    if class.is_empty() {
        wrong.push("names no class".to_string());
    }
    // A name typed in the student panel has no line break, so joining the
    // names by lines loses none.
    let (names, left_out) = key_students(&names.join("\n"));
    if names.is_empty() {
        wrong.push("lists no students".to_string());
    }
    match (lesson, wrong.is_empty()) {
        (Some(lesson), true) => Ok(ClassSheets {
            slug: lesson.slug.clone(),
            eyebrow: format!("Lesson {} · Worksheets for class {class}", lesson.number),
            heading: format!("Worksheets: {}", lesson.title),
            class: class.to_string(),
            names,
            left_out,
        }),
        _ => Err(format!(
            "This link {}, so there is nothing to print. Open the answer key, list your \
             students' names, pick one lesson and follow its \u{201c}Print worksheets\u{201d} link again.",
            and_list(&wrong)
        )),
    }
}

impl ClassSheets {
    /// Under the heading: how many students, whose, and how it prints.
    pub fn summary(&self) -> String {
        match self.names.len() {
            1 => format!(
                "1 student of class {}: the worksheet has the student's name and their own \
                 numbers.",
                self.class
            ),
            n => format!(
                "{n} students of class {}, in the order of your list; each worksheet \
                 starts on a new page, with the student's name and their own numbers. \
                 Print one-sided: a worksheet may take an odd number of pages.",
                self.class
            ),
        }
    }

    /// What the print button says.
    pub fn print_label(&self) -> String {
        match self.names.len() {
            1 => "Print the worksheet".to_string(),
            n => format!("Print the {n} worksheets"),
        }
    }

    /// When the link listed more students than are printed at once, how
    /// many were left out and what to do.
    pub fn left_out_note(&self) -> Option<String> {
        (self.left_out > 0).then(|| {
            format!(
                "This link lists {} students; {KEY_MAX_STUDENTS} are printed at once, so \
                 the last {} left out. Print {} from a second list on the answer key.",
                self.names.len() + self.left_out,
                if self.left_out == 1 {
                    "one was".to_string()
                } else {
                    format!("{} were", self.left_out)
                },
                if self.left_out == 1 { "it" } else { "them" }
            )
        })
    }

    /// The worksheet of the `i`-th student, as HTML: the sheet
    /// [`worksheet_html`] prints for one student, on its own printed pages,
    /// each headed by the student's name (this is in the sheet's text, not
    /// the app's stylesheet, which students download).
    pub fn sheet_html(&self, course: &Course, i: usize) -> String {
        let (Some(lesson), Some(name)) = (course.lesson(&self.slug), self.names.get(i)) else {
            return String::new();
        };
        // Each sheet is its own named page, so its pages carry its
        // student's name ([`running_head`]); a new named page starts on a
        // new sheet of paper.
        let page = format!("sheet-{i}");
        format!(
            "<section class=\"worksheet__sheet\" data-testid=\"class-worksheet\" style=\"page: {page}\">{}{}</section>",
            running_head(&page, lesson, &self.class, name),
            worksheet_html(lesson, &self.class, name)
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_print_made_too_soon_says_how_many_were_ready() {
        assert_eq!(
            printed_too_soon("the worksheets", 16, 24),
            "Printed before the worksheets were ready (16 of 24 students). Wait until the page's Print button can be pressed, then print again."
        );
        assert!(printed_too_soon("the key", 2, 4)
            .starts_with("Printed before the key was ready (2 of 4 students)."));
    }
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
                // Numbered as the key and the lesson number it ("4.2").
                assert_eq!(lesson.exercise_number(&e.id).as_ref(), Some(&item.number));
                let v = e.variant(&seed).unwrap();
                assert_eq!(item.prompt, v.prompt, "their numbers");
                let printed = format!("{} {} {}", item.prompt, item.options.join(" "), item.unit);
                for secret in v.hints.iter().chain(&v.solution).chain(&e.explain) {
                    assert!(!printed.contains(secret.as_str()), "{}: {secret}", e.id);
                }
                if e.kind == Kind::Numeric {
                    assert!(item.options.is_empty());
                    // A blank for "no limit" says it may hold those words.
                    assert_eq!(
                        item.unit.ends_with(", or \"no limit\""),
                        e.no_limit,
                        "{}",
                        e.id
                    );
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
        // The number the key gives it, before its kind.
        assert!(
            html.contains(&format!("\">{}.1 \u{b7} ", lesson.number)),
            "{html}"
        );
        assert!(worksheet_html(lesson, "", "").contains("Everyone without a class code"));
    }

    #[test]
    fn each_printed_page_says_whose_sheet_it_is_and_a_name_cannot_end_the_style() {
        let lesson = compiled_course().lesson("littles-law").unwrap();
        let html = own_sheet_html(lesson, " R12 ", " Ana ");
        assert!(html.starts_with(
            "<style>@page sheet { margin: 1.5cm; @top-right { content: \"Ana \u{b7} class R12 \u{b7} Lesson 4 worksheet\";"
        ));
        assert!(html.ends_with(&worksheet_html(lesson, " R12 ", " Ana ")));
        // Quotes, backslashes, a line break and `</style>` in a name stay
        // inside the CSS string.
        let head = running_head("p", lesson, "", "Bo \"x\\\n</style><b>");
        assert_eq!(
            head,
            "<style>@page p { margin: 1.5cm; @top-right { content: \"Bo \\\"x\\\\\\a \\3c /style>\\3c b> \u{b7} Lesson 4 worksheet\"; \
             font: 9pt sans-serif; color: #444; } }</style>"
        );
        assert_eq!(head.matches("</style>").count(), 1);
        // No name, no head: the blank on the sheet is for the pen.
        assert_eq!(running_head("p", lesson, "R12", "  "), "");
        assert_eq!(
            own_sheet_html(lesson, "", ""),
            worksheet_html(lesson, "", "")
        );
    }
}

#[cfg(test)]
mod class_tests {
    use super::*;
    use crate::course_data::compiled_course;
    use crate::route::{lesson_path, LessonPath};

    fn names(list: &[&str]) -> Vec<String> {
        list.iter().map(|n| n.to_string()).collect()
    }

    /// Every sheet of `sheets`, one after another, as the page draws them.
    fn printed(sheets: &ClassSheets) -> String {
        (0..sheets.names.len())
            .map(|i| sheets.sheet_html(compiled_course(), i))
            .collect()
    }

    #[test]
    fn each_student_has_their_own_sheet_with_their_numbers_under_their_name() {
        let course = compiled_course();
        let lesson = course.lesson("littles-law").unwrap();
        let list = names(&["Ana", "<b>Bo</b>", "Cy & Dee"]);
        let sheets = class_sheets(course, "littles-law", "R12", &list).unwrap();
        assert_eq!(sheets.names, list, "in the link's order");
        let html = printed(&sheets);
        assert!(!html.contains("<b>"), "names are escaped");
        // Where each student's sheet starts: at their name, in order.
        let starts: Vec<usize> = list
            .iter()
            .map(|n| {
                let who = format!("Numbers for {} in class R12.", text(n));
                html.find(&who)
                    .unwrap_or_else(|| panic!("no sheet for {n}"))
            })
            .collect();
        assert!(starts.windows(2).all(|w| w[0] < w[1]), "{starts:?}");
        let prompts: Vec<Vec<String>> = list
            .iter()
            .map(|n| {
                let seed = student_seed("R12", n);
                lesson
                    .exercises()
                    .map(|e| text(&e.variant(&seed).unwrap().prompt).into_owned())
                    .collect()
            })
            .collect();
        for (i, own) in prompts.iter().enumerate() {
            let end = starts.get(i + 1).copied().unwrap_or(html.len());
            let sheet = &html[starts[i]..end];
            for p in own {
                assert!(sheet.contains(p.as_str()), "{}'s numbers: {p}", list[i]);
            }
            // Another student's numbers are not on this sheet.
            for (j, other) in prompts.iter().enumerate().filter(|(j, _)| *j != i) {
                let theirs: Vec<_> = other.iter().filter(|p| !own.contains(p)).collect();
                assert!(!theirs.is_empty(), "{} and {} differ", list[i], list[j]);
                for p in theirs {
                    assert!(!sheet.contains(p.as_str()), "{}'s sheet has {p}", list[i]);
                }
            }
            // The very sheet a single student's link prints.
            assert!(sheets
                .sheet_html(course, i)
                .contains(&worksheet_html(lesson, "R12", &list[i])));
        }
        assert_eq!(html.matches("data-testid=\"class-worksheet\"").count(), 3);
        assert_eq!(
            html.matches("data-testid=\"worksheet-item\"").count(),
            3 * lesson.exercises().count()
        );
    }

    #[test]
    fn each_sheet_after_the_first_starts_a_new_page() {
        let course = compiled_course();
        let sheets = class_sheets(course, "littles-law", "R12", &names(&["A", "B", "C"])).unwrap();
        // A sheet of its own named page: a new page where it starts, and
        // its name on each of its pages.
        for (i, name) in ["A", "B", "C"].iter().enumerate() {
            let sheet = sheets.sheet_html(course, i);
            assert!(sheet.starts_with(&format!(
                "<section class=\"worksheet__sheet\" data-testid=\"class-worksheet\" style=\"page: sheet-{i}\"><style>@page sheet-{i} {{ margin: 1.5cm; @top-right {{ content: \"{name} \u{b7} class R12 \u{b7} Lesson 4 worksheet\";"
            )), "{sheet}");
        }
        assert_eq!(sheets.sheet_html(course, 3), "", "no fourth student");
    }

    #[test]
    fn students_keep_the_lists_order_each_once_tidied() {
        let course = compiled_course();
        let list = names(&["Zed", "Ana  Souza", " ", "ana souza", "Bo"]);
        let sheets = class_sheets(course, "littles-law", " R12 ", &list).unwrap();
        assert_eq!(sheets.names, names(&["Zed", "Ana Souza", "Bo"]));
        assert_eq!(sheets.class, "R12");
        assert_eq!(sheets.left_out, 0);
        assert_eq!(sheets.left_out_note(), None);
        assert_eq!(sheets.heading, "Worksheets: Little's law");
        assert!(sheets.eyebrow.ends_with("Worksheets for class R12"));
        assert!(sheets
            .summary()
            .starts_with("3 students of class R12, in the order of your list"));
        assert_eq!(sheets.print_label(), "Print the 3 worksheets");
        let one = class_sheets(course, "littles-law", "R12", &names(&["Ana"])).unwrap();
        assert!(one.summary().starts_with("1 student of class"));
        assert_eq!(one.print_label(), "Print the worksheet");
    }

    #[test]
    fn a_bad_link_says_what_is_wrong_never_a_blank_page() {
        let course = compiled_course();
        let ana = names(&["Ana"]);
        let err =
            |slug, class, list: &[String]| class_sheets(course, slug, class, list).unwrap_err();
        // An empty class.
        for empty in [vec![], names(&["", "  "])] {
            let why = err("littles-law", "R12", &empty);
            assert!(
                why.starts_with("This link lists no students, so there is nothing to print."),
                "{why}"
            );
        }
        let why = err("thread-pool", "R12", &ana);
        assert!(
            why.starts_with("This link names a lesson \u{201c}thread-pool\u{201d} that is not in this course, so"),
            "{why}"
        );
        assert!(err("", "R12", &ana).starts_with("This link names no lesson, so"));
        assert!(err("littles-law", " ", &ana).starts_with("This link names no class, so"));
        let all = err("x\u{7}y", "", &[]);
        assert!(
            all.starts_with(
                "This link names a lesson \u{201c}xy\u{201d} that is not in this course, \
                 names no class and lists no students"
            ),
            "{all}"
        );
        assert!(all.contains("Open the answer key"), "what to do: {all}");
    }

    #[test]
    fn a_link_with_too_many_students_prints_the_first_and_says_so() {
        let course = compiled_course();
        let many: Vec<String> = (0..KEY_MAX_STUDENTS + 5)
            .map(|i| format!("Student {i}"))
            .collect();
        let sheets = class_sheets(course, "littles-law", "R12", &many).unwrap();
        assert_eq!(sheets.names, many[..KEY_MAX_STUDENTS]);
        assert_eq!(sheets.left_out, 5);
        let note = sheets.left_out_note().unwrap();
        assert!(
            note.starts_with(&format!(
                "This link lists {} students",
                KEY_MAX_STUDENTS + 5
            )),
            "{note}"
        );
        assert!(note.contains("the last 5 were left out"), "{note}");
        let one = ClassSheets {
            left_out: 1,
            ..sheets.clone()
        };
        let note = one.left_out_note().unwrap();
        assert!(
            note.contains("the last one was left out. Print it from"),
            "{note}"
        );
    }

    #[test]
    fn the_link_carries_every_name_through_the_url() {
        let list = names(&["Zoë & Ana", "Souza, Ana", "a=b?c#d", "Bo"]);
        let href = class_sheets_href("littles-law", "R 12", &list);
        assert!(href.starts_with("#/lessons/worksheets/littles-law?class=R%2012&name="));
        assert_eq!(
            lesson_path(&href),
            LessonPath::ClassWorksheets {
                slug: "littles-law".into(),
                class: "R 12".into(),
                names: list.clone()
            }
        );
        assert!(
            lesson_path(&href).is_teacher(),
            "drawn by the teacher's tools"
        );
        // The key's longest list stays a modest URL.
        let many: Vec<String> = (0..KEY_MAX_STUDENTS)
            .map(|i| format!("Student Number {i}"))
            .collect();
        assert!(class_sheets_href("littles-law", "K7Q2-MX4P", &many).len() < 10_000);
    }

    #[test]
    fn the_key_offers_the_class_worksheets_once_a_lesson_is_picked() {
        let two = names(&["Ana", "Bo"]);
        assert_eq!(class_sheets_offer("littles-law", "R12", &[], 0), None);
        assert_eq!(
            class_sheets_offer("", "R12", &two, 0),
            Some(SheetsOffer {
                href: None,
                text: "To print worksheets for all 2 students, pick one lesson.".into()
            })
        );
        assert_eq!(
            class_sheets_offer("littles-law", "R12", &two, 0),
            Some(SheetsOffer {
                href: Some(class_sheets_href("littles-law", "R12", &two)),
                text: "Print worksheets for all 2 students".into()
            })
        );
        let one = class_sheets_offer("littles-law", "R12", &names(&["Ana"]), 0).unwrap();
        assert_eq!(one.text, "Print the worksheet for 1 student");
    }

    #[test]
    fn the_key_offers_the_first_students_worksheets_not_all_when_some_were_left_out() {
        // 201 names typed: the key lists 200 and leaves 1 out.
        let typed: Vec<String> = (0..=KEY_MAX_STUDENTS)
            .map(|i| format!("Student {i}"))
            .collect();
        let (listed, left_out) = key_students(&typed.join("\n"));
        assert_eq!((listed.len(), left_out), (KEY_MAX_STUDENTS, 1));
        let offer = class_sheets_offer("littles-law", "R12", &listed, left_out).unwrap();
        assert_eq!(
            offer.text,
            format!("Print worksheets for the first {KEY_MAX_STUDENTS} students")
        );
        assert_eq!(
            offer.href,
            Some(class_sheets_href("littles-law", "R12", &listed))
        );
        let pick = class_sheets_offer("", "R12", &listed, left_out).unwrap();
        assert_eq!(
            pick.text,
            format!(
                "To print worksheets for the first {KEY_MAX_STUDENTS} students, pick one lesson."
            )
        );
        assert!(!pick.text.contains("all"), "{}", pick.text);
    }
}
