use leptos::ev;
use leptos::html;
use leptos::prelude::*;

use super::{LessonsPage, NavBar, NotFound, PlaygroundPage, SiteFooter, Welcome};
use crate::course_data::load_course;
use crate::route::{route_from_hash, Route};

/// How long after start-up the course is fetched in the background.
const COURSE_PREFETCH_AFTER: std::time::Duration = std::time::Duration::from_secs(2);

/// The whole app: the navigation bar, the page the URL's hash asks for,
/// and the footer. It follows `hashchange`, so links, the back button and
/// shared URLs all open the right page.
#[component]
pub fn App() -> impl IntoView {
    let route = RwSignal::new(current_route());
    let main_ref = NodeRef::<html::Main>::new();

    let listener = window_event_listener(ev::hashchange, move |_| {
        route.set(current_route());
        window().scroll_to_with_x_and_y(0.0, 0.0);
    });
    on_cleanup(move || listener.remove());

    Effect::new(move |_| document().set_title(&route.get().document_title()));

    // Fetch the course once the first page has settled, so the lessons open
    // at once later and still open if the network has gone by then.
    set_timeout(
        || leptos::task::spawn_local(async { _ = load_course().await }),
        COURSE_PREFETCH_AFTER,
    );

    // A plain `href="#main"` would change the hash, and so the page; the
    // skip link moves focus to the content instead.
    let skip_to_content = move |event: ev::MouseEvent| {
        event.prevent_default();
        if let Some(main) = main_ref.get() {
            let _ = main.focus();
        }
    };

    view! {
        <a class="skip-link" href="#/" on:click=skip_to_content>
            "Skip to content"
        </a>
        <NavBar current=route />
        <main id="main" class="page" tabindex="-1" node_ref=main_ref>
            {move || match route.get() {
                Route::Home => view! { <Welcome /> }.into_any(),
                Route::Playground => view! { <PlaygroundPage /> }.into_any(),
                Route::Lessons => view! { <LessonsPage /> }.into_any(),
                Route::NotFound => view! { <NotFound /> }.into_any(),
            }}
        </main>
        <SiteFooter />
    }
}

/// The page the browser's current URL opens.
fn current_route() -> Route {
    route_from_hash(&window().location().hash().unwrap_or_default())
}
