//! What a change of page does for people who cannot see it: the tab's
//! title names the new page ([`page_title`]) and focus moves to the page's
//! main heading, so a screen reader announces it (otherwise focus falls
//! back to `<body>` and nothing is said).
//!
//! Pages draw their heading when they are ready (a lesson once the course
//! is there, the teacher's pages once their tools are loaded), so this
//! waits for it, a frame at a time. The first page of a visit keeps the
//! browser's own focus: the screen reader reads a newly loaded page anyway.

use leptos::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::HtmlElement;

use crate::route::{page_of, page_title};

/// Frames to wait for a page's heading (about 10 s at 60 frames a second);
/// a page that could not load says so in its own words.
const MAX_FRAMES: u32 = 600;

/// Titles every page and moves focus to its heading after each change of
/// page in `hash` (not after a change inside a page, such as a scenario).
pub fn follow_page_changes(hash: ReadSignal<String>) {
    let page = Memo::new(move |_| hash.with(|h| page_of(h).to_owned()));
    // The heading last announced, and its text: the old page's, which the
    // next is not. (A page drawn in place of one of the same kind may keep
    // the old page's element and change its text.)
    let announced = StoredValue::new_local(None::<Heading>);
    // Each change of page; a wait for an older page's heading stops.
    let changes = StoredValue::new(0u64);
    Effect::new(move |before: Option<()>| {
        // Read, not only tracked: a memo that was never read never runs,
        // and so never hears of a new hash.
        page.with(|_| ());
        let hash = hash.get_untracked();
        document().set_title(&page_title(&hash, None));
        changes.update_value(|n| *n += 1);
        let wait = Wait {
            announced,
            changes,
            change: changes.get_value(),
            hash,
            focus: before.is_some(),
            seen: None,
        };
        request_animation_frame(move || wait.frame(MAX_FRAMES));
    });
}

/// A page's main heading and its text.
type Heading = (HtmlElement, String);

/// One wait for a new page's heading, a frame at a time.
struct Wait {
    announced: StoredValue<Option<Heading>, LocalStorage>,
    changes: StoredValue<u64>,
    change: u64,
    hash: String,
    focus: bool,
    /// The heading found on the frame before: one is taken once it has
    /// lasted a frame, as a page swapped in may pass through another.
    seen: Option<Heading>,
}

impl Wait {
    fn frame(mut self, frames_left: u32) {
        if self.changes.try_with_value(|n| *n) != Some(self.change) {
            return;
        }
        let heading = self.heading();
        if let Some((h1, text)) = heading.clone().filter(|_| heading == self.seen) {
            document().set_title(&page_title(&self.hash, Some(&text)));
            if self.focus {
                if !h1.has_attribute("tabindex") {
                    let _ = h1.set_attribute("tabindex", "-1");
                }
                let options = web_sys::FocusOptions::new();
                options.set_prevent_scroll(true);
                let _ = h1.focus_with_options(&options);
            }
            self.announced.set_value(Some((h1, text)));
            return;
        }
        self.seen = heading;
        if frames_left > 0 {
            request_animation_frame(move || self.frame(frames_left - 1));
        }
    }

    /// The page's main heading, if it is drawn, named, and not the last
    /// page's.
    fn heading(&self) -> Option<Heading> {
        let h1 = document()
            .query_selector("main h1")
            .ok()??
            .dyn_into::<HtmlElement>()
            .ok()?;
        let text = h1.text_content().unwrap_or_default().trim().to_owned();
        let heading = (h1, text);
        let new = self.announced.with_value(|a| a.as_ref() != Some(&heading));
        (new && !heading.1.is_empty()).then_some(heading)
    }
}

/// Whether the focus is still where a page's arrival left it (nowhere, the
/// page's body, the main element or the main heading), so that a page may
/// move it, as a link to an exercise does once the lesson is drawn. Once
/// someone has moved it to a control, it stays there: a lesson draws its
/// parts over several frames, and a button pressed in its first part would
/// otherwise lose the focus to the exercise a moment later.
pub fn focus_is_unclaimed() -> bool {
    let Some(el) = document().active_element() else {
        return true;
    };
    let tag = el.tag_name();
    tag.eq_ignore_ascii_case("body")
        || tag.eq_ignore_ascii_case("main")
        || (tag.eq_ignore_ascii_case("h1") && el.closest("main").ok().flatten().is_some())
}

/// Keeps the focus on the page when a change takes away the element that
/// has it: after the next frame, if that element is gone (taken out of the
/// page, or hidden: it has no size), the focus goes to the first element
/// matching `selector`, not to the page's body, where a screen reader says
/// nothing and Tab starts again from the top. Call it as the change is made.
pub fn focus_if_lost(selector: &'static str) {
    let had = document().active_element();
    request_animation_frame(move || {
        if had.is_some_and(|el| el.get_bounding_client_rect().width() == 0.0) {
            focus_first(selector);
        }
    });
}

/// Moves the focus to the first element matching `selector`, if any.
pub fn focus_first(selector: &str) {
    if let Some(Ok(el)) = document()
        .query_selector(selector)
        .ok()
        .flatten()
        .map(JsCast::dyn_into::<HtmlElement>)
    {
        let _ = el.focus();
    }
}
