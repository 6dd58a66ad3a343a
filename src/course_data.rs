//! The course, compiled from `lessons/*.md` by `build.rs` and parsed once.

use std::sync::OnceLock;
use tellers_course::Course;

/// The whole course. The JSON is made by our own build step, so failing to
/// read it is a bug in the build, found by the native tests.
pub fn course() -> &'static Course {
    static COURSE: OnceLock<Course> = OnceLock::new();
    COURSE.get_or_init(|| {
        Course::from_json(include_str!(concat!(env!("OUT_DIR"), "/course.json")))
            .unwrap_or_default()
    })
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_compiled_course_reads_back() {
        let json = include_str!(concat!(env!("OUT_DIR"), "/course.json"));
        let c = tellers_course::Course::from_json(json).unwrap();
        assert_eq!(c.lessons.len(), 13);
    }
}
