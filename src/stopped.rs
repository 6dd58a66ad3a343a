//! What the page says when the app has panicked: its state is gone and
//! nothing on the page will answer again, so a notice at the top says so
//! and asks for a reload, besides the console's message. Without it a run
//! that ran out of memory left "Running to the end: 67.1 s" on screen and
//! buttons that did nothing.

use wasm_bindgen::JsCast;

/// The notice's text.
pub const STOPPED: &str = "Tellers stopped with an error and cannot go on. Reload the page to start again; your saved progress is kept.";

/// Installs the panic hook: the console's message, then the notice.
pub fn on_panic_say_so() {
    std::panic::set_hook(Box::new(|info| {
        console_error_panic_hook::hook(info);
        show();
    }));
}

/// Puts the notice at the top of the page, once. Nothing here may panic
/// again: every step that can fail is let go.
fn show() {
    let Some(doc) = web_sys::window().and_then(|w| w.document()) else {
        return;
    };
    if doc.get_element_by_id("stopped").is_some() {
        return;
    }
    let (Ok(note), Some(body)) = (doc.create_element("div"), doc.body()) else {
        return;
    };
    note.set_id("stopped");
    note.set_class_name("notice stopped");
    let _ = note.set_attribute("role", "alert");
    let _ = note.set_attribute("data-testid", "stopped");
    note.set_text_content(Some(STOPPED));
    let _ = body.insert_before(&note, body.first_child().as_ref());
    if let Ok(el) = note.dyn_into::<web_sys::HtmlElement>() {
        let _ = el.focus();
    }
}
