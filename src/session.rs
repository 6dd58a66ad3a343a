//! What a learner changed on a lesson page, kept in the tab's session
//! storage so that the playground and Back do not lose it: a widget's
//! settings and the guesses in a predict box. Missing storage (a private
//! window that refuses it) only means nothing is kept.

fn storage() -> Option<web_sys::Storage> {
    web_sys::window()?.session_storage().ok().flatten()
}

/// The text kept under `key`, if any.
pub fn load(key: &str) -> Option<String> {
    storage()?.get_item(key).ok().flatten()
}

/// Keeps `value` under `key` for this tab.
pub fn save(key: &str, value: &str) {
    if let Some(s) = storage() {
        let _ = s.set_item(key, value);
    }
}

/// The key for one thing on a lesson page: `tellers.lesson.SLUG.PART.WHAT`,
/// where PART is the segment's place in the lesson.
pub fn lesson_key(slug: &str, part: usize, what: &str) -> String {
    format!("tellers.lesson.{slug}.{part}.{what}")
}
