use leptos::prelude::*;

use crate::route::Route;

/// The page for a link Tellers does not know, with a way back home.
#[component]
pub fn NotFound() -> impl IntoView {
    view! {
        <section class="placeholder" aria-labelledby="not-found-title">
            <h1 id="not-found-title">"Page not found"</h1>
            <p class="lead">"There is no page at this address. The link may be mistyped or old."</p>
            <p>
                <a href=Route::Home.href()>"Back to the welcome page"</a>
            </p>
        </section>
    }
}
