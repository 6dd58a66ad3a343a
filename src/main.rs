//! The web app's entry point: it removes the loading placeholder and
//! mounts [`tellers::App`] on the page.

fn main() {
    // A panic stops the app for good (its state is gone): say so on the
    // page, not only in the console, so no one waits on a frozen figure
    // (a run that ran out of memory left "Running to the end: 67.1 s"
    // and buttons that did nothing).
    tellers::stopped::on_panic_say_so();
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
