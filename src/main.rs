//! The web app's entry point: it only mounts [`tellers::App`] on the page.

fn main() {
    console_error_panic_hook::set_once();
    leptos::mount::mount_to_body(tellers::App);
}
