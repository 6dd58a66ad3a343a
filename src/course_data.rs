//! The course, compiled from `lessons/*.md` at build time.
//!
//! In the browser it is fetched from `course-<hash>.json` the first time a
//! learner opens the lessons, so the playground and the home page never
//! download or parse lesson text. Native builds (the tests) read the JSON
//! that `build.rs` left in OUT_DIR.

use std::sync::OnceLock;
use tellers_course::Course;

static COURSE: OnceLock<Course> = OnceLock::new();

/// The file the app fetches the course from, relative to the page.
pub const COURSE_FILE: &str = env!("TELLERS_COURSE_FILE");

/// The whole course; empty in the browser until [`load_course`] has
/// finished (the lessons page shows nothing of it before then).
pub fn course() -> &'static Course {
    #[cfg(not(target_arch = "wasm32"))]
    {
        COURSE.get_or_init(|| {
            Course::from_json(include_str!(concat!(env!("OUT_DIR"), "/course.json")))
                .unwrap_or_default()
        })
    }
    #[cfg(target_arch = "wasm32")]
    {
        static EMPTY: Course = Course { lessons: vec![] };
        COURSE.get().unwrap_or(&EMPTY)
    }
}

/// True once the course can be read.
pub fn course_loaded() -> bool {
    cfg!(not(target_arch = "wasm32")) || COURSE.get().is_some()
}

/// Fetches and reads the course (once); the error says what went wrong in
/// words a learner can pass on.
pub async fn load_course() -> Result<(), String> {
    if course_loaded() {
        return Ok(());
    }
    let text = fetch_text(COURSE_FILE).await?;
    let course = Course::from_json(&text)?;
    if course.lessons.is_empty() {
        return Err(format!("{COURSE_FILE} holds no lessons"));
    }
    let _ = COURSE.set(course);
    Ok(())
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

#[cfg(test)]
mod tests {
    #[test]
    fn the_compiled_course_reads_back() {
        let json = include_str!(concat!(env!("OUT_DIR"), "/course.json"));
        let c = tellers_course::Course::from_json(json).unwrap();
        assert_eq!(c.lessons.len(), 17);
        assert!(super::course_loaded());
        assert_eq!(
            super::COURSE_FILE,
            tellers_course::parse::course_file_name(json)
        );
    }
}
