//! Which page the learner is on, read from the URL's hash (`#/playground`),
//! and where inside the lessons (`#/lessons/littles-law/threads-busy`).
//!
//! Hash routing keeps Tellers a plain static site: every page is
//! `index.html`, so any static host (or a file copied to a laptop) serves
//! it, and a link to `#/lessons` opens the lessons page.
//!
//! This is the one place that reads the hash: [`watch_hash`] follows it
//! for the app, which hands each page what it needs from it (the [`Route`],
//! the [`LessonPath`], the playground's query), and [`on_hash_change`]
//! lets the lessons take a teacher's link's class code as it comes.

use crate::classroom::{as_class_box_keeps, as_name_box_keeps};
use leptos::prelude::*;
use tellers_sim::fields::switch_value;
use tellers_sim::query::percent_decode;

/// A page of the app.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Route {
    /// The welcome page, at `#/` (or no hash at all).
    Home,
    /// The live simulator with its sliders, at `#/playground`.
    Playground,
    /// The list of lessons, at `#/lessons`.
    Lessons,
    /// Any hash we do not know, so a mistyped link says so.
    NotFound,
}

impl Route {
    /// The pages shown in the navigation bar, in order.
    pub const NAV: [Route; 2] = [Route::Playground, Route::Lessons];

    /// The link that opens this page.
    pub fn href(self) -> &'static str {
        match self {
            Route::Home | Route::NotFound => "#/",
            Route::Playground => "#/playground",
            Route::Lessons => "#/lessons",
        }
    }

    /// The page's name as the learner sees it in the navigation bar.
    pub fn label(self) -> &'static str {
        match self {
            Route::Home => "Home",
            Route::Playground => "Playground",
            Route::Lessons => "Lessons",
            Route::NotFound => "Page not found",
        }
    }
}

/// The browser tab's title for the page at `hash`, whose main heading reads
/// `heading` once it is drawn: the page, then the part of the site, then
/// Tellers ("Little's law · Lessons · Tellers"). Before the heading is
/// there (a lesson still loading), the part of the site alone.
pub fn page_title(hash: &str, heading: Option<&str>) -> String {
    let route = route_from_hash(hash);
    let heading = heading.map(str::trim).filter(|h| !h.is_empty());
    match (route, heading) {
        (Route::Home, _) => "Tellers".to_owned(),
        (Route::Lessons, Some(h)) if h != Route::Lessons.label() => {
            let page = match lesson_path(hash) {
                LessonPath::Worksheet { .. } => format!("Worksheet: {h}"),
                _ => h.to_owned(),
            };
            format!("{page} · Lessons · Tellers")
        }
        (other, _) => format!("{} · Tellers", other.label()),
    }
}

/// Which page `hash` shows, for telling a change of page (a new heading
/// to announce) from a change inside one (a scenario, a class code): the
/// path, without the query.
pub fn page_of(hash: &str) -> &str {
    let path = hash.trim_start_matches('#').trim_start_matches('/');
    path.split('?')
        .next()
        .unwrap_or_default()
        .trim_end_matches('/')
}

/// Reads a URL hash such as `#/playground` (as `location.hash` gives it)
/// and says which page it opens.
///
/// The leading `#` and `/`, a trailing `/`, and anything after `?` (kept
/// for scenario state) are ignored, so `#/lessons/` and
/// `#/playground?cores=4` still find their page. `#/lessons/<slug>`
/// belongs to the lessons page.
pub fn route_from_hash(hash: &str) -> Route {
    let path = hash.strip_prefix('#').unwrap_or(hash);
    let path = path.split('?').next().unwrap_or_default();
    let path = path.trim_matches('/');
    let first = path.split('/').next().unwrap_or_default();
    match first {
        "" => Route::Home,
        // The playground has no pages under it: `#/playground/foo` is a
        // mistyped link, said so, not the playground.
        "playground" if path == first => Route::Playground,
        "lessons" => Route::Lessons,
        _ => Route::NotFound,
    }
}

/// A place inside `#/lessons…`. Whether a lesson slug exists is for the
/// lessons page to say, once the course has loaded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LessonPath {
    /// `#/lessons`: the table of contents.
    Contents,
    /// `#/lessons/SLUG` or `#/lessons/SLUG/EXERCISE-ID`, with
    /// `?presenter=1` (or `0`) for presenter mode on (or off).
    Lesson {
        /// The lesson's slug, as in the link (at most 60 characters).
        slug: String,
        /// An exercise to scroll to.
        exercise: Option<String>,
        /// Presenter mode as the link sets it: `None` without `presenter`,
        /// `Some(Err(value))` for a value that is not 1 or 0 (cut to 60
        /// characters), which the lesson names in a notice.
        presenter: Option<Result<bool, String>>,
        /// What the link gives that a lesson does not read, in sentences
        /// for the lesson's notice ([`lesson_link_ignored`]).
        ignored: Vec<String>,
    },
    /// `#/lessons/answer-key?class=CODE&lesson=SLUG`: the teacher's answer key.
    AnswerKey {
        /// The class code (may be empty).
        class: String,
        /// Only this lesson's exercises, when given.
        lesson: Option<String>,
    },
    /// `#/lessons/teacher`: create a class, and the ways to the key and results.
    Teacher,
    /// `#/lessons/results?class=CODE`: the class's results from students' files.
    Results {
        /// The class code (may be empty).
        class: String,
    },
    /// `#/lessons/worksheet/SLUG?class=CODE&name=NAME`: a printable
    /// worksheet; without a class, the learner's own numbers.
    Worksheet {
        /// The lesson's slug.
        slug: String,
        /// A class code and a student name, when the link gives them.
        student: Option<(String, String)>,
        /// What the link gave that a worksheet does not read, in sentences
        /// for its notice ([`worksheet_link_ignored`]).
        ignored: Vec<String>,
    },
    /// `#/lessons/worksheets/SLUG?class=CODE&name=A&name=B`: the worksheets
    /// of a whole class for one lesson, each student's on its own pages
    /// (the teacher's tools; the link is built by
    /// `worksheet::class_sheets_href`, which says why the names travel in
    /// the URL).
    ClassWorksheets {
        /// The lesson's slug.
        slug: String,
        /// The class code (may be empty).
        class: String,
        /// Every `name` in the link, decoded, in order (may be empty).
        names: Vec<String>,
    },
}

impl LessonPath {
    /// A page of the teacher's tools (the class, the answer key, the
    /// class's results), which the app loads apart from the lessons.
    pub fn is_teacher(&self) -> bool {
        matches!(
            self,
            LessonPath::Teacher
                | LessonPath::AnswerKey { .. }
                | LessonPath::Results { .. }
                | LessonPath::ClassWorksheets { .. }
        )
    }
}

/// Names after `#/lessons/` that are pages, not lessons. No lesson may take
/// one as its slug (a test checks the course).
pub const RESERVED_LESSON_NAMES: [&str; 5] = [
    "answer-key",
    "teacher",
    "results",
    "worksheet",
    "worksheets",
];

/// The class code a teacher's link to the lessons or to a lesson carries
/// (`#/lessons?class=K7Q2-MX4P`, `#/lessons/littles-law?class=…`), as the
/// student's box would keep it; `None` for any other page or without a code.
pub fn class_from_link(hash: &str) -> Option<String> {
    let lessons = matches!(
        lesson_path(hash),
        LessonPath::Contents | LessonPath::Lesson { .. }
    );
    if !lessons || !hash.starts_with("#/lessons") {
        return None;
    }
    let query = hash.split_once('?')?.1;
    Some(as_class_box_keeps(&query_param(query, "class")?)).filter(|c| !c.is_empty())
}

/// `hash` with its `class` setting `code` (escaped), or none for a blank
/// code, the rest kept in their order: the results page writes the code
/// typed into its address, so Back finds it.
pub fn with_class(hash: &str, code: &str) -> String {
    let code = code.trim();
    let pair = (!code.is_empty()).then(|| format!("class={}", query_escape(code)));
    with_setting(hash, "class", pair.as_deref())
}

/// `hash` without its `class` settings, the rest kept in their order: the
/// code a link gave is taken once, so a reload keeps what the student
/// types next.
pub fn without_class(hash: &str) -> String {
    with_setting(hash, "class", None)
}

/// Read the lessons part of a hash such as `#/lessons/littles-law/threads-busy`.
pub fn lesson_path(hash: &str) -> LessonPath {
    let path = hash.trim_start_matches('#').trim_start_matches('/');
    let (path, query) = path.split_once('?').unwrap_or((path, ""));
    // Each part decoded as the query is (`threads%2Dbusy` is
    // `threads-busy`, `work%73heet` the worksheet page), then cut to 60
    // characters (no page name is longer).
    let mut parts = path
        .trim_matches('/')
        .split('/')
        .skip(1)
        .filter(|p| !p.is_empty())
        .map(|p| percent_decode(p).chars().take(60).collect::<String>());
    let Some(first) = parts.next() else {
        return LessonPath::Contents;
    };
    let param = |name: &str| query_param(query, name).unwrap_or_default();
    // A class code or a name as the student's boxes would keep it: a link
    // with 20,000 letters of name drew them all, off the page.
    let class = || as_class_box_keeps(&param("class"));
    match first.as_str() {
        "answer-key" => LessonPath::AnswerKey {
            class: class(),
            lesson: query_param(query, "lesson").filter(|l| !l.is_empty()),
        },
        "teacher" => LessonPath::Teacher,
        "results" => LessonPath::Results { class: class() },
        "worksheet" => LessonPath::Worksheet {
            slug: parts.next().unwrap_or_default(),
            student: Some(class())
                .filter(|c| !c.is_empty())
                .map(|c| (c, as_name_box_keeps(&param("name")))),
            ignored: worksheet_link_ignored(query),
        },
        "worksheets" => LessonPath::ClassWorksheets {
            slug: parts.next().unwrap_or_default(),
            class: class(),
            names: query_values(query, "name"),
        },
        _ => LessonPath::Lesson {
            exercise: parts.next(),
            slug: first,
            presenter: query_param(query, "presenter")
                .map(|v| switch_value(&v).ok_or_else(|| v.chars().take(60).collect())),
            ignored: lesson_link_ignored(query),
        },
    }
}

/// What a lesson's link gives that the lesson does not read, said as the
/// playground says its link's: names other than `presenter` (a lesson
/// link's `?foo=1` or `?presentr=1` was dropped without a word), and a
/// `presenter` given more than once. Empty when the link is clean.
pub fn lesson_link_ignored(query: &str) -> Vec<String> {
    link_ignored(
        query,
        "a lesson's link",
        &[
            ("presenter", "presenter (1 or 0)"),
            ("class", "class (a class code)"),
        ],
        &["presenter", "class"],
    )
}

/// What a worksheet's link gives that the worksheet does not read: names
/// other than `class` and `name`, a setting given more than once (two
/// `name`s printed the first's alone, without a word), and a name without
/// a class code (the learner's own numbers were printed, without a word).
pub fn worksheet_link_ignored(query: &str) -> Vec<String> {
    let given = |key| query_param(query, key).is_some_and(|v| !v.trim().is_empty());
    let name_alone = given("name") && !given("class");
    // Not "the first was read" of names where none was.
    let repeats: &[&str] = if name_alone {
        &["class"]
    } else {
        &["name", "class"]
    };
    let mut out = link_ignored(
        query,
        "a worksheet's link",
        &[
            ("name", "name (a student's name)"),
            ("class", "class (a class code)"),
        ],
        repeats,
    );
    if name_alone {
        out.push(
            "This link gives a name but no class code, so it was ignored: the worksheet has \
             the numbers this browser uses."
                .to_owned(),
        );
    } else if query_values(query, "name").len() > 1 {
        out.push(
            "A worksheet is one student's: a class's worksheets, a student to a page, are \
             printed from the teacher's answer key."
                .to_owned(),
        );
    }
    out
}

/// What a link's `query` gives that its page does not read, in sentences:
/// names not among `reads` (each with the words that say what it takes),
/// a setting with no name, and one of `repeats` (names of `reads`) given
/// more than once (the first is read). `page` names the link ("a lesson's
/// link").
fn link_ignored(query: &str, page: &str, reads: &[(&str, &str)], repeats: &[&str]) -> Vec<String> {
    const LISTED: usize = 3;
    let mut unknown: Vec<String> = Vec::new();
    let mut times = vec![0usize; reads.len()];
    let mut nameless = false;
    for kv in query.split('&').filter(|kv| !kv.is_empty()) {
        let key = query_key(kv);
        if let Some(i) = reads.iter().position(|(name, _)| *name == key) {
            times[i] += 1;
        } else if key.trim().is_empty() {
            nameless = true;
        } else {
            let shown = format!("'{}'", tellers_sim::text::clip(&key));
            if !unknown.contains(&shown) {
                unknown.push(shown);
            }
        }
    }
    let mut out = Vec::new();
    if !unknown.is_empty() {
        let more = unknown.len().saturating_sub(LISTED);
        let mut names = unknown[..unknown.len().min(LISTED)].join(", ");
        if more > 0 {
            names.push_str(&format!(" and {more} more"));
        }
        let read: Vec<String> = reads.iter().map(|(_, words)| (*words).to_owned()).collect();
        out.push(format!(
            "This link's {names} {} ignored: {page} reads only {}.",
            if unknown.len() == 1 { "was" } else { "were" },
            tellers_sim::text::and_list(&read)
        ));
    }
    if nameless {
        out.push("This link has a setting with no name, which was ignored.".to_owned());
    }
    for ((name, _), n) in reads.iter().zip(times) {
        if n > 1 && repeats.contains(name) {
            out.push(format!(
                "This link gives {name} {n} times; the first was read."
            ));
        }
    }
    out
}

/// `hash` (a lesson's) with presenter mode written in its query as `on`
/// says: `presenter=1`, or no `presenter` at all (off is the default, and
/// the tab remembers the choice), other parameters kept in their order.
pub fn with_presenter(hash: &str, on: bool) -> String {
    with_setting(hash, "presenter", on.then_some("presenter=1"))
}

/// `hash` with every `name` setting of its query taken out, the others
/// kept in their order, and `pair` (`name=value`), if any, added last.
fn with_setting(hash: &str, name: &str, pair: Option<&str>) -> String {
    let (path, query) = hash.split_once('?').unwrap_or((hash, ""));
    let mut kept: Vec<&str> = query
        .split('&')
        // Decoded, as the link is read (`pres%65nter=0` stayed beside the
        // `presenter=1` written, and was read first).
        .filter(|kv| !kv.is_empty() && query_key(kv) != name)
        .collect();
    kept.extend(pair);
    if kept.is_empty() {
        path.to_owned()
    } else {
        format!("{path}?{}", kept.join("&"))
    }
}

/// What a lesson link that finds no lesson says: the name it gave, or
/// that it gave none (`#/lessons/worksheet` said "There is no lesson
/// called “”").
pub fn no_lesson_text(slug: &str) -> String {
    if slug.trim().is_empty() {
        "This link names no lesson.".to_owned()
    } else {
        // Safe to echo: a decoded link may hold control or direction marks.
        format!(
            "There is no lesson called “{}”.",
            tellers_sim::text::clip(slug)
        )
    }
}

/// The part of the lessons to show for `hash`, given the `last` one shown.
/// Outside the lessons the last part holds: the lessons page is closing,
/// and must not be redrawn as the contents on its way out.
pub fn lessons_part(hash: &str, last: Option<&LessonPath>) -> LessonPath {
    match last {
        Some(last) if route_from_hash(hash) != Route::Lessons => last.clone(),
        _ => lesson_path(hash),
    }
}

/// The name of one setting of a query (`pres%65nter=1` → `presenter`),
/// decoded: a link's names are compared as read, not as written.
pub fn query_key(pair: &str) -> String {
    percent_decode(pair.split('=').next().unwrap_or_default())
}

/// The value of `name` in a query such as `class=R%2012&lesson=x`, decoded
/// and trimmed; `None` when absent.
pub fn query_param(query: &str, name: &str) -> Option<String> {
    query.split('&').find_map(|kv| {
        let (k, v) = kv.split_once('=').unwrap_or((kv, ""));
        (percent_decode(k) == name).then(|| percent_decode(v).trim().to_string())
    })
}

/// Every value of `name` in a query such as `name=Ana&name=Bo`, decoded
/// and trimmed, in order.
pub fn query_values(query: &str, name: &str) -> Vec<String> {
    query
        .split('&')
        .filter_map(|kv| {
            kv.split_once('=')
                .filter(|(k, _)| percent_decode(k) == name)
        })
        .map(|(_, v)| percent_decode(v).trim().to_string())
        .collect()
}

/// The link to a lesson, or to one exercise in it.
pub fn lesson_href(slug: &str, exercise: Option<&str>) -> String {
    match exercise {
        Some(id) => format!("#/lessons/{slug}/{id}"),
        None => format!("#/lessons/{slug}"),
    }
}

/// `text` made safe for a URL's query: every byte but letters, digits and
/// `-_.~` percent-encoded.
pub fn query_escape(text: &str) -> String {
    text.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => {
                (b as char).to_string()
            }
            _ => format!("%{b:02X}"),
        })
        .collect()
}

/// The URL's hash as it is now ("" when there is none).
pub fn shown_hash() -> String {
    window().location().hash().unwrap_or_default()
}

/// Writes presenter mode `on` into the lesson's address as it is now
/// ([`with_presenter`]), in place: no new history entry, no `hashchange`.
pub fn show_presenter_in_hash(on: bool) {
    let hash = shown_hash();
    let to = with_presenter(&hash, on);
    if to != hash {
        replace_hash(&to);
    }
}

/// Sets the address's hash to `to` in place: no new history entry, and no
/// `hashchange`, so the page is not built again.
pub fn replace_hash(to: &str) {
    if let Ok(history) = window().history() {
        let _ = history.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(to));
    }
}

/// Calls `f` on every change of the URL's hash while the component that
/// calls this is mounted (the lessons page takes a teacher's link's class
/// code so: [`crate::components::take_class_from_links`]).
pub fn on_hash_change(f: impl Fn() + 'static) {
    let listener = window_event_listener(leptos::ev::hashchange, move |_| f());
    on_cleanup(move || listener.remove());
}

/// The URL's hash, followed as it changes: the app's `hashchange` listener for
/// its pages (removed with the component that calls this).
pub fn watch_hash() -> ReadSignal<String> {
    let (hash, set_hash) = signal(shown_hash());
    on_hash_change(move || set_hash.set(shown_hash()));
    hash
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_class_code_is_written_into_an_address_escaped_or_taken_out() {
        assert_eq!(
            with_class("#/lessons/results", "R12"),
            "#/lessons/results?class=R12"
        );
        assert_eq!(
            with_class("#/lessons/results?class=K7Q2-MX4P", " R 12 "),
            "#/lessons/results?class=R%2012"
        );
        assert_eq!(
            with_class("#/lessons/results?class=R12", "  "),
            "#/lessons/results"
        );
    }

    /// A link's class code and name are kept as the student's boxes keep
    /// them: 20,000 letters of name were drawn whole, off the page.
    #[test]
    fn a_links_class_and_name_are_cut_as_the_boxes_cut_them() {
        let long = format!(
            "#/lessons/worksheet/littles-law?class={}&name={}",
            "Q".repeat(500),
            "N".repeat(20_000)
        );
        let LessonPath::Worksheet {
            student: Some((class, name)),
            ..
        } = lesson_path(&long)
        else {
            panic!("{:?}", lesson_path(&long));
        };
        assert_eq!(class.len(), crate::classroom::CLASS_MAX);
        assert_eq!(name.len(), crate::classroom::NAME_MAX);
        let LessonPath::AnswerKey { class, .. } = lesson_path(&format!(
            "#/lessons/answer-key?class={}",
            "Q".repeat(50_000)
        )) else {
            panic!()
        };
        assert_eq!(class.len(), crate::classroom::CLASS_MAX);
    }

    #[test]
    fn empty_and_root_hashes_open_home() {
        for hash in ["", "#", "#/", "/", "#//"] {
            assert_eq!(route_from_hash(hash), Route::Home, "hash {hash:?}");
        }
    }

    #[test]
    fn known_pages_are_found_with_or_without_slashes_and_queries() {
        assert_eq!(route_from_hash("#/playground"), Route::Playground);
        assert_eq!(route_from_hash("#playground"), Route::Playground);
        assert_eq!(route_from_hash("#/playground/"), Route::Playground);
        assert_eq!(
            route_from_hash("#/playground?cores=4&seed=7"),
            Route::Playground
        );
        assert_eq!(route_from_hash("#/lessons"), Route::Lessons);
        assert_eq!(route_from_hash("#/lessons/littles-law"), Route::Lessons);
    }

    #[test]
    fn a_whole_scenario_after_the_path_still_opens_the_playground() {
        let hash = "#/playground?model=thread-pool&cores=4&cpu_ms=10.0&timeout_ms=none&presenter=1&speed=2.5";
        assert_eq!(route_from_hash(hash), Route::Playground);
        assert_eq!(
            route_from_hash("#/playground/?seed=%3Cscript%3E"),
            Route::Playground
        );
        assert_eq!(route_from_hash("#/playground?"), Route::Playground);
    }

    #[test]
    fn unknown_hashes_are_not_found_rather_than_silently_home() {
        assert_eq!(route_from_hash("#/playgroundx"), Route::NotFound);
        assert_eq!(route_from_hash("#/Lessons"), Route::NotFound);
        assert_eq!(route_from_hash("#/nope"), Route::NotFound);
        // The playground has no pages under it (it opened, saying nothing).
        assert_eq!(
            route_from_hash("#/playground/foo/bar?cores=2"),
            Route::NotFound
        );
    }

    /// Path parts are decoded as the query is, and a link naming no lesson
    /// says so (it said there is no lesson called “”).
    #[test]
    fn lesson_links_are_decoded_and_an_empty_one_is_named() {
        assert_eq!(
            lesson_path("#/lessons/littles-law/threads%2Dbusy"),
            LessonPath::Lesson {
                slug: "littles-law".into(),
                exercise: Some("threads-busy".into()),
                presenter: None,
                ignored: vec![]
            }
        );
        assert_eq!(
            lesson_path("#/lessons/little%73-law"),
            LessonPath::Lesson {
                slug: "littles-law".into(),
                exercise: None,
                presenter: None,
                ignored: vec![]
            }
        );
        assert_eq!(no_lesson_text(""), "This link names no lesson.");
        assert_eq!(no_lesson_text("nope"), "There is no lesson called “nope”.");
        assert_eq!(
            no_lesson_text("a\u{202e}b"),
            "There is no lesson called “a?b”."
        );
        assert!(matches!(
            lesson_path("#/lessons/work%73heet/littles-law"),
            LessonPath::Worksheet { .. }
        ));
        let long = format!("#/lessons/littles-law/{}", "x".repeat(500));
        let LessonPath::Lesson { exercise, .. } = lesson_path(&long) else {
            panic!("a lesson");
        };
        assert_eq!(exercise.map(|e| e.chars().count()), Some(60));
        let LessonPath::Worksheet { slug, .. } = lesson_path("#/lessons/worksheet") else {
            panic!("a worksheet");
        };
        assert_eq!(no_lesson_text(&slug), "This link names no lesson.");
    }

    #[test]
    fn every_link_leads_back_to_its_own_page() {
        for route in [Route::Home, Route::Playground, Route::Lessons] {
            assert_eq!(route_from_hash(route.href()), route);
        }
        assert_eq!(route_from_hash(Route::NotFound.href()), Route::Home);
    }

    #[test]
    fn titles_name_the_page_then_the_part_then_the_app() {
        assert_eq!(page_title("", Some("Tellers")), "Tellers");
        assert_eq!(
            page_title("#/playground?cores=2", Some("Playground")),
            "Playground · Tellers"
        );
        assert_eq!(
            page_title("#/lessons", Some("Lessons")),
            "Lessons · Tellers"
        );
        assert_eq!(
            page_title("#/lessons/littles-law/threads-busy", Some(" Little's law ")),
            "Little's law · Lessons · Tellers"
        );
        assert_eq!(
            page_title("#/lessons/littles-law", None),
            "Lessons · Tellers",
            "still loading"
        );
        assert_eq!(
            page_title("#/lessons/answer-key?class=R12", Some("Answer key")),
            "Answer key · Lessons · Tellers"
        );
        assert_eq!(
            page_title("#/lessons/worksheet/littles-law", Some("Little's law")),
            "Worksheet: Little's law · Lessons · Tellers"
        );
        assert_eq!(
            page_title(
                "#/lessons/worksheets/littles-law?class=R12&name=Ana",
                Some("Worksheets: Little's law")
            ),
            "Worksheets: Little's law · Lessons · Tellers"
        );
        assert_eq!(
            page_title("#/nope", Some("Page not found")),
            "Page not found · Tellers"
        );
    }

    #[test]
    fn a_page_is_its_path_without_the_query() {
        assert_eq!(page_of("#/playground?cores=2"), "playground");
        assert_eq!(page_of("#/playground/"), page_of("#/playground?cores=6"));
        assert_eq!(
            page_of("#/lessons/answer-key?class=R12"),
            "lessons/answer-key"
        );
        assert_ne!(page_of("#/lessons/a"), page_of("#/lessons/b"));
        assert_eq!(page_of(""), "");
    }

    #[test]
    fn paths_inside_the_lessons() {
        assert_eq!(lesson_path("#/lessons"), LessonPath::Contents);
        // A teacher's link to the lessons carries the class code.
        assert_eq!(
            class_from_link("#/lessons?class=K7Q2-MX4P").as_deref(),
            Some("K7Q2-MX4P")
        );
        assert_eq!(
            class_from_link("#/lessons/?class=%20R%2012%20").as_deref(),
            Some("R 12")
        );
        assert_eq!(class_from_link("#/lessons?class="), None);
        assert_eq!(class_from_link("#/lessons"), None);
        assert_eq!(
            class_from_link("#/lessons/littles-law?presenter=1&class=R12").as_deref(),
            Some("R12")
        );
        assert_eq!(class_from_link("#/lessons/answer-key?class=R12"), None);
        assert_eq!(
            without_class("#/lessons/littles-law?presenter=1&class=R12"),
            "#/lessons/littles-law?presenter=1"
        );
        assert_eq!(without_class("#/lessons?class=R12"), "#/lessons");
        assert!(lesson_link_ignored("presenter=1&class=R12").is_empty());
        assert_eq!(
            without_class("#/lessons/x?cl%61ss=R&a=1"),
            "#/lessons/x?a=1"
        );
        assert_eq!(class_from_link("#/playground?class=R12"), None);
        assert_eq!(
            class_from_link(&format!("#/lessons?class={}", "A".repeat(500))).map(|c| c.len()),
            Some(crate::classroom::CLASS_MAX)
        );
        assert_eq!(lesson_path("#/lessons/"), LessonPath::Contents);
        assert_eq!(
            lesson_path("#/lessons/littles-law"),
            LessonPath::Lesson {
                slug: "littles-law".into(),
                exercise: None,
                presenter: None,
                ignored: vec![]
            }
        );
        assert_eq!(
            lesson_path("#/lessons/littles-law/some-id/"),
            LessonPath::Lesson {
                slug: "littles-law".into(),
                exercise: Some("some-id".into()),
                presenter: None,
                ignored: vec![]
            }
        );
        assert_eq!(
            lesson_path("#/lessons/answer-key?class=Room%2012"),
            LessonPath::AnswerKey {
                class: "Room 12".into(),
                lesson: None
            }
        );
        assert_eq!(
            lesson_path("#/lessons/answer-key?lesson=threads&class=+K7Q2-MX4P+"),
            LessonPath::AnswerKey {
                class: "K7Q2-MX4P".into(),
                lesson: Some("threads".into())
            }
        );
        assert_eq!(lesson_path("#/lessons/teacher"), LessonPath::Teacher);
        assert_eq!(
            lesson_path("#/lessons/results?class=R12"),
            LessonPath::Results {
                class: "R12".into()
            }
        );
        assert_eq!(
            lesson_path("#/lessons/worksheet/threads"),
            LessonPath::Worksheet {
                slug: "threads".into(),
                student: None,
                ignored: vec![]
            }
        );
        assert_eq!(
            lesson_path("#/lessons/worksheet/threads?class=R12&name=Ana%20B"),
            LessonPath::Worksheet {
                slug: "threads".into(),
                student: Some(("R12".into(), "Ana B".into())),
                ignored: vec![]
            }
        );
        assert_eq!(
            lesson_path("#/lessons/worksheets/threads?class=R12&name=Ana%20B&x=1&name=Bo"),
            LessonPath::ClassWorksheets {
                slug: "threads".into(),
                class: "R12".into(),
                names: vec!["Ana B".into(), "Bo".into()]
            }
        );
        assert_eq!(
            lesson_path("#/lessons/worksheets"),
            LessonPath::ClassWorksheets {
                slug: String::new(),
                class: String::new(),
                names: vec![]
            }
        );
        let long = "x".repeat(500);
        assert_eq!(
            lesson_path(&format!("#/lessons/{long}")),
            LessonPath::Lesson {
                slug: "x".repeat(60),
                exercise: None,
                presenter: None,
                ignored: vec![]
            }
        );
    }

    #[test]
    fn the_teachers_pages_are_told_apart() {
        for hash in [
            "#/lessons/teacher",
            "#/lessons/answer-key?class=R12",
            "#/lessons/results",
            "#/lessons/worksheets/x?class=R12&name=Ana",
        ] {
            assert!(lesson_path(hash).is_teacher(), "{hash}");
        }
        for hash in [
            "#/lessons",
            "#/lessons/littles-law",
            "#/lessons/worksheet/x",
        ] {
            assert!(!lesson_path(hash).is_teacher(), "{hash}");
        }
    }

    #[test]
    fn leaving_the_lessons_keeps_the_last_part() {
        let lesson = lesson_path("#/lessons/littles-law");
        assert_eq!(lessons_part("#/playground", Some(&lesson)), lesson);
        assert_eq!(lessons_part("#/", Some(&lesson)), lesson);
        assert_eq!(
            lessons_part("#/lessons", Some(&lesson)),
            LessonPath::Contents
        );
        assert_eq!(lessons_part("#/playground", None), LessonPath::Contents);
    }

    #[test]
    fn no_lesson_takes_the_name_of_a_page() {
        for lesson in &crate::course_data::compiled_course().lessons {
            assert!(
                !RESERVED_LESSON_NAMES.contains(&lesson.slug.as_str()),
                "{}",
                lesson.slug
            );
        }
    }

    #[test]
    fn query_values_round_trip_through_escaping() {
        for text in ["Room 12", "Zoë & Ana", "a=b?c#d/e", "K7Q2-MX4P"] {
            let q = format!("x=1&class={}", query_escape(text));
            assert_eq!(query_param(&q, "class").as_deref(), Some(text));
        }
        assert_eq!(query_param("class", "class").as_deref(), Some(""));
        assert_eq!(query_param("x=1", "class"), None);
        let names = ["Zoë & Ana", "Souza, Ana", "a=b"];
        let q: Vec<String> = names
            .iter()
            .map(|n| format!("name={}", query_escape(n)))
            .collect();
        assert_eq!(query_values(&q.join("&"), "name"), names);
        assert_eq!(query_values("names=x&name", "name"), Vec::<String>::new());
    }

    /// What a lesson's or a worksheet's link `hash` says it ignored.
    fn ignored(hash: &str) -> Vec<String> {
        match lesson_path(hash) {
            LessonPath::Lesson { ignored, .. } | LessonPath::Worksheet { ignored, .. } => ignored,
            other => panic!("{other:?}"),
        }
    }

    /// A worksheet's link says what it did not read: a name without a
    /// class printed this browser's numbers, and a second name printed
    /// nothing, both without a word.
    #[test]
    fn a_worksheet_link_says_what_it_ignored() {
        assert!(ignored("#/lessons/worksheet/threads?class=R12&name=Ana").is_empty());
        assert!(ignored("#/lessons/worksheet/threads").is_empty());
        assert_eq!(
            ignored("#/lessons/worksheet/threads?name=Ana"),
            [
                "This link gives a name but no class code, so it was ignored: the worksheet has \
              the numbers this browser uses."
            ]
        );
        assert_eq!(
            ignored("#/lessons/worksheet/threads?name=Ana&name=Bo"),
            [
                "This link gives a name but no class code, so it was ignored: the worksheet has \
              the numbers this browser uses."
            ]
        );
        assert_eq!(
            ignored("#/lessons/worksheet/threads?class=R12&name=Ana&name=Bo&nmae=Cy"),
            [
                "This link's 'nmae' was ignored: a worksheet's link reads only name (a student's \
                 name) and class (a class code).",
                "This link gives name 2 times; the first was read.",
                "A worksheet is one student's: a class's worksheets, a student to a page, are \
                 printed from the teacher's answer key."
            ]
        );
    }

    /// A lesson link's names other than presenter, and a repeated
    /// presenter, are told, not dropped without a word.
    #[test]
    fn a_lesson_link_says_what_it_ignored() {
        assert!(ignored("#/lessons/littles-law?presenter=1").is_empty());
        assert!(ignored("#/lessons/littles-law?pres%65nter=1").is_empty());
        assert_eq!(
            ignored("#/lessons/littles-law?foo=1&foo=2"),
            ["This link's 'foo' was ignored: a lesson's link reads only presenter (1 or 0) and class (a class code)."]
        );
        assert_eq!(
            ignored("#/lessons/littles-law?a=1&b&c=3&d=4&presenter=1&presenter=0"),
            [
                "This link's 'a', 'b', 'c' and 1 more were ignored: a lesson's link reads only presenter (1 or 0) and class (a class code).",
                "This link gives presenter 2 times; the first was read."
            ]
        );
        // A setting with no name is said so, not quoted as ''.
        assert_eq!(
            ignored("#/lessons/littles-law?=1"),
            ["This link has a setting with no name, which was ignored."]
        );
        // Echoed safely.
        assert_eq!(
            ignored("#/lessons/littles-law?%3Cb%3E=1"),
            ["This link's '?b?' was ignored: a lesson's link reads only presenter (1 or 0) and class (a class code)."]
        );
    }

    /// A lesson link turns presenter mode on or off, says what it could
    /// not read, and the lesson's own toggle writes it back into the link.
    #[test]
    fn a_lesson_link_carries_presenter_mode() {
        let presenter = |hash: &str| match lesson_path(hash) {
            LessonPath::Lesson { presenter, .. } => presenter,
            other => panic!("{other:?}"),
        };
        assert_eq!(presenter("#/lessons/littles-law"), None);
        assert_eq!(
            presenter("#/lessons/littles-law?presenter=1"),
            Some(Ok(true))
        );
        assert_eq!(
            presenter("#/lessons/littles-law/threads-busy?presenter=0"),
            Some(Ok(false))
        );
        // Read as the scenario's switches are: yes is on; 2 is neither.
        assert_eq!(
            presenter("#/lessons/littles-law?presenter=yes"),
            Some(Ok(true))
        );
        assert_eq!(
            presenter("#/lessons/littles-law?presenter=2"),
            Some(Err("2".into()))
        );
        assert_eq!(
            with_presenter("#/lessons/littles-law/threads-busy", true),
            "#/lessons/littles-law/threads-busy?presenter=1"
        );
        assert_eq!(
            with_presenter("#/lessons/littles-law?presenter=yes&x=2", true),
            "#/lessons/littles-law?x=2&presenter=1"
        );
        assert_eq!(
            with_presenter("#/lessons/littles-law?presenter=1", false),
            "#/lessons/littles-law"
        );
        // An encoded name is the same name, replaced as the plain one is.
        assert_eq!(
            with_presenter("#/lessons/littles-law?pres%65nter=0", true),
            "#/lessons/littles-law?presenter=1"
        );
        assert_eq!(switch_value("true"), Some(true));
        assert_eq!(switch_value("on"), Some(true));
        assert_eq!(switch_value("no"), Some(false));
        assert_eq!(switch_value("2"), None);
    }
}
