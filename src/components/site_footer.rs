use leptos::prelude::*;

/// The line at the bottom of every page: where Tellers runs.
#[component]
pub fn SiteFooter() -> impl IntoView {
    view! {
        <footer class="site-footer">
            <p>
                "Tellers runs entirely in your browser: no account, no server, "
                "and it keeps working offline once loaded."
            </p>
        </footer>
    }
}
