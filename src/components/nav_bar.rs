use leptos::prelude::*;

use crate::route::Route;

/// The bar across the top of every page: the Tellers name (a link home)
/// and links to the Playground and the Lessons, with the open page marked.
#[component]
pub fn NavBar(
    /// The page now open; its link gets `aria-current="page"`.
    #[prop(into)]
    current: Signal<Route>,
    /// Drawn first in the header: the skip link, so that it sits in a
    /// landmark (the banner), as every part of a page should.
    children: Children,
) -> impl IntoView {
    view! {
        <header class="site-header">
            {children()}
            <div class="site-header__inner">
                <a class="brand" href=Route::Home.href()>
                    <svg class="brand__mark" viewBox="0 0 32 32" aria-hidden="true">
                        <rect x="2" y="4" width="28" height="24" rx="7" class="brand__tile" />
                        <circle cx="9" cy="16" r="3" class="brand__dot" />
                        <circle cx="16" cy="16" r="3" class="brand__dot" />
                        <rect x="21" y="10" width="5" height="12" rx="2" class="brand__desk" />
                    </svg>
                    <span class="brand__name">"Tellers"</span>
                </a>
                <nav class="site-nav" aria-label="Main">
                    <ul>
                        {Route::NAV
                            .into_iter()
                            .map(|route| {
                                let is_current = move || current.get() == route;
                                view! {
                                    <li>
                                        <a
                                            class="site-nav__link"
                                            href=route.href()
                                            aria-current=move || is_current().then_some("page")
                                        >
                                            {route.label()}
                                        </a>
                                    </li>
                                }
                            })
                            .collect_view()}
                    </ul>
                </nav>
            </div>
        </header>
    }
}
