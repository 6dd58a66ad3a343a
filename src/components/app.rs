use leptos::ev;
use leptos::html;
use leptos::prelude::*;

use super::{LessonsPage, NavBar, NotFound, PlaygroundPage, SiteFooter, UpdateNotice, Welcome};
use crate::course_data::CourseLoader;
use crate::page_change::follow_page_changes;
use crate::route::{lessons_part, route_from_hash, watch_hash, Route};

/// How long after start-up the course is fetched in the background (and
/// the service worker registered, which keeps the app for offline use).
const COURSE_PREFETCH_AFTER: std::time::Duration = std::time::Duration::from_secs(2);

/// The whole app: the navigation bar, the page the URL's hash asks for,
/// and the footer. It follows the hash ([`watch_hash`]), so links, the back
/// button and shared URLs all open the right page, and hands each page the
/// part of the route it needs.
#[component]
pub fn App() -> impl IntoView {
    let hash = watch_hash();
    let route = Memo::new(move |_| route_from_hash(&hash.get()));
    let lessons = Memo::new(move |last| lessons_part(&hash.get(), last));
    let main_ref = NodeRef::<html::Main>::new();

    // A new address starts at the top of the page.
    Effect::new(move |first: Option<()>| {
        hash.track();
        if first.is_some() {
            window().scroll_to_with_x_and_y(0.0, 0.0);
        }
    });
    // Each page titled, and focus on its heading after a change of page.
    follow_page_changes(hash);

    // Fetch the course once the first page has settled, so the lessons open
    // at once later and still open if the network has gone by then; and
    // from then on keep the whole app for offline use (assets/offline.js
    // registers the service worker on this event). Not in debug builds
    // (`make serve`), where a cached app would hide every rebuild.
    let course = CourseLoader::new();
    set_timeout(
        move || {
            course.want();
            if !cfg!(debug_assertions) {
                if let Ok(event) = web_sys::Event::new("tellers:offline") {
                    let _ = window().dispatch_event(&event);
                }
            }
        },
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

    // A lesson's course download need not wait for its page: start it now.
    if route.get_untracked() == Route::Lessons {
        course.want();
    }
    // The page itself comes in the task after the one that draws the
    // shell: on a cold load each function the app calls is compiled on its
    // first call, and the shell and the first page together made one task
    // of 64-84 ms on a 2-core machine, half of it compiling.
    let started = RwSignal::new(false);
    set_timeout(move || started.set(true), std::time::Duration::ZERO);

    view! {
        <NavBar current=route>
            <a class="skip-link" href="#/" on:click=skip_to_content>
                "Skip to content"
            </a>
        </NavBar>
        <main id="main" class="page" tabindex="-1" node_ref=main_ref>
            {move || match route.get() {
                _ if !started.get() => ().into_any(),
                Route::Home => view! { <Welcome /> }.into_any(),
                Route::Playground => {
                    // Tracked: a scenario link opened on the playground opens
                    // that scenario. (The page's own updates of the URL do not
                    // fire `hashchange`, so they do not redraw it.)
                    let hash = hash.get();
                    view! { <PlaygroundPage hash /> }.into_any()
                }
                Route::Lessons => view! { <LessonsPage path=lessons loader=course /> }.into_any(),
                Route::NotFound => view! { <NotFound /> }.into_any(),
            }}
        </main>
        <SiteFooter />
        <UpdateNotice />
    }
}
