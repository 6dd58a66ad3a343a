//! The course, compiled from `lessons/*.md` at build time.
//!
//! In the browser it is fetched from `course-<hash>.json`, so the playground
//! and the home page never download or parse lesson text. [`CourseLoader`]
//! starts its fetch the first time something wants the course: the app,
//! two seconds after start-up, or a lessons page, at once. A failed fetch
//! can be tried again ([`CourseState::retry`]). Native
//! builds (the tests) read the JSON that `build.rs` left in OUT_DIR
//! ([`compiled_course`]).
//!
//! The course is held in a plain signal filled by a spawned task, not in a
//! `LocalResource` read under `<Suspense>`: that machinery (async derived
//! values, suspense boundaries) was code in the wasm for this one use.

use leptos::prelude::*;
use std::sync::Arc;
use tellers_course::Course;

/// The file the app fetches the course from, relative to the page.
pub const COURSE_FILE: &str = env!("TELLERS_COURSE_FILE");

/// Why the course could not be loaded, in words a learner can pass on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CourseError(pub String);

impl std::fmt::Display for CourseError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for CourseError {}

/// The course as the app holds it: loaded once, shared by every page.
pub type CourseResult = Result<Arc<Course>, CourseError>;

/// The course, fetched once it is wanted and kept for the rest of the visit
/// (so the lessons still open if the network has gone by then).
#[derive(Clone, Copy)]
pub struct CourseLoader(StoredValue<Loader>);

struct Loader {
    /// The app's owner: the course lives as long as the app, not as the
    /// page that first wanted it.
    owner: Owner,
    /// The course's state, once wanted.
    course: Option<CourseState>,
}

/// The course as a page sees it: `None` while it is on its way, then what
/// came (the course, or why it did not).
#[derive(Clone, Copy)]
pub struct CourseState(RwSignal<Option<CourseResult>>);

impl CourseState {
    /// The course, if it has come (tracked: a view re-runs when it does).
    pub fn get(&self) -> Option<CourseResult> {
        self.0.get()
    }

    /// Fetches the course again (after a failure), showing it as on its
    /// way until then.
    pub fn retry(&self) {
        self.0.set(None);
        self.fetch();
    }

    fn fetch(self) {
        leptos::task::spawn_local(async move {
            let course = load_course().await.map(Arc::new);
            // `try_set`: the app may be gone by the time it arrives.
            let _ = self.0.try_set(Some(course));
        });
    }
}

impl CourseLoader {
    /// A loader that fetches nothing until [`CourseLoader::want`]; the
    /// course it loads lives as long as the calling component.
    pub fn new() -> Self {
        CourseLoader(StoredValue::new(Loader {
            owner: Owner::current().unwrap_or_default(),
            course: None,
        }))
    }

    /// The course, its fetch started now if it had not been.
    pub fn want(&self) -> CourseState {
        let made = self.0.try_update_value(|l| {
            *l.course.get_or_insert_with(|| {
                let state = CourseState(l.owner.with(|| RwSignal::new(None)));
                state.fetch();
                state
            })
        });
        made.expect("the course loader lives as long as the app")
    }
}

impl Default for CourseLoader {
    fn default() -> Self {
        Self::new()
    }
}

/// Lessons read in one task: a lesson is a few milliseconds of reading.
const LESSONS_PER_TASK: usize = 3;

/// Fetches and reads the course, a few lessons a task (the whole course in
/// one task was a long one on every lesson page's start).
async fn load_course() -> Result<Course, CourseError> {
    let text = fetch_text(COURSE_FILE).await.map_err(CourseError)?;
    let course = match Course::lesson_lines(&text) {
        Some(lines) => {
            let mut lessons = Vec::with_capacity(lines.len());
            for (i, line) in lines.iter().enumerate() {
                if i > 0 && i % LESSONS_PER_TASK == 0 {
                    next_task().await;
                }
                lessons.push(Course::read_lesson(line).map_err(CourseError)?);
            }
            Course { lessons }
        }
        None => Course::from_json(&text).map_err(CourseError)?,
    };
    if course.lessons.is_empty() {
        return Err(CourseError(format!("{COURSE_FILE} holds no lessons")));
    }
    // Reading the course and drawing the page it opens are separate tasks,
    // and the page is drawn after a frame, not in it: in the frame's own
    // callback it shared a task with that frame's layout.
    after_next_frame().await;
    Ok(course)
}

async fn fetch_text(url: &str) -> Result<String, String> {
    use wasm_bindgen::JsCast;
    use wasm_bindgen_futures::JsFuture;
    let failed = |what: &str| format!("could not {what} {url}");
    let window = web_sys::window().ok_or_else(|| failed("reach the page to fetch"))?;
    let response = JsFuture::from(window.fetch_with_str(url))
        .await
        .map_err(|_| failed("download"))?
        .dyn_into::<web_sys::Response>()
        .map_err(|_| failed("download"))?;
    if !response.ok() {
        return Err(format!("{url} answered HTTP {}", response.status()));
    }
    let text = JsFuture::from(response.text().map_err(|_| failed("read"))?)
        .await
        .map_err(|_| failed("read"))?;
    text.as_string().ok_or_else(|| failed("read"))
}

/// Resolves in a task of its own.
async fn next_task() {
    let task = js_sys::Promise::new(&mut |resolve, _| {
        set_timeout(
            move || _ = resolve.call0(&wasm_bindgen::JsValue::NULL),
            std::time::Duration::ZERO,
        );
    });
    let _ = wasm_bindgen_futures::JsFuture::from(task).await;
}

/// Resolves in a task of its own after the next animation frame.
async fn after_next_frame() {
    let frame = js_sys::Promise::new(&mut |resolve, _| {
        request_animation_frame(move || _ = resolve.call0(&wasm_bindgen::JsValue::NULL));
    });
    let _ = wasm_bindgen_futures::JsFuture::from(frame).await;
    next_task().await;
}

/// The course compiled by `build.rs`, for native tests.
#[cfg(test)]
pub fn compiled_course() -> &'static Course {
    static COURSE: std::sync::OnceLock<Course> = std::sync::OnceLock::new();
    COURSE.get_or_init(|| {
        Course::from_json(include_str!(concat!(env!("OUT_DIR"), "/course.json")))
            .expect("build.rs wrote a readable course")
    })
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_compiled_course_reads_back_under_the_name_the_app_fetches() {
        let json = include_str!(concat!(env!("OUT_DIR"), "/course.json"));
        assert_eq!(super::compiled_course().lessons.len(), 17);
        assert_eq!(
            super::COURSE_FILE,
            tellers_course::parse::course_file_name(json)
        );
    }
}
