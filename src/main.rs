//! The web app's entry point: it removes the loading placeholder and
//! mounts [`tellers::App`] on the page.

fn main() {
    console_error_panic_hook::set_once();
    // Mount in a task of its own: this one already finished compiling the
    // module and instantiating it, and the app's first functions are
    // compiled as they are first called, so both together made one long
    // task (over 50 ms on a 2-core machine).
    leptos::prelude::set_timeout(mount, std::time::Duration::ZERO);
}

fn mount() {
    // The "Loading…" placeholder of index.html.
    if let Some(boot) = leptos::prelude::document().get_element_by_id("boot") {
        boot.remove();
    }
    leptos::mount::mount_to_body(tellers::App);
}
