//! The web app's entry point: it removes the loading placeholder and
//! mounts [`tellers::App`] on the page.

fn main() {
    console_error_panic_hook::set_once();
    // The "Loading…" placeholder of index.html.
    if let Some(boot) = leptos::prelude::document().get_element_by_id("boot") {
        boot.remove();
    }
    leptos::mount::mount_to_body(tellers::App);
}
