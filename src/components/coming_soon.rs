use leptos::prelude::*;

use crate::route::Route;

/// A page that is planned but not built yet: its title, what it will
/// hold, and a way back home.
#[component]
pub fn ComingSoon(
    /// The page's title, shown as its heading.
    title: &'static str,
    /// What the page will let the learner do, in a sentence or two.
    children: Children,
) -> impl IntoView {
    view! {
        <section class="placeholder" aria-labelledby="placeholder-title">
            <p class="badge">"Coming soon"</p>
            <h1 id="placeholder-title">{title}</h1>
            <p class="lead">{children()}</p>
            <p>
                <a href=Route::Home.href()>"Back to the welcome page"</a>
            </p>
        </section>
    }
}
