use leptos::ev;
use leptos::prelude::*;

use super::{AnswerKey, LessonContents, LessonView};
use crate::course_data::{course_loaded, load_course};
use crate::lesson_route::{lesson_path, LessonPath};
use crate::progress::{Progress, STORAGE_KEY};

/// The learner's saved progress, shared by every lesson component.
#[derive(Clone, Copy)]
pub struct ProgressContext {
    /// The progress; every change is saved to local storage.
    pub progress: RwSignal<Progress>,
    /// A notice when saved progress could not be read and was reset.
    pub notice: RwSignal<Option<String>>,
}

fn storage() -> Option<web_sys::Storage> {
    window().local_storage().ok().flatten()
}

/// The lessons, at `#/lessons…`: the contents, one lesson, or the teacher's
/// answer key, following the hash as it changes.
#[component]
pub fn LessonsPage() -> impl IntoView {
    let hash = RwSignal::new(window().location().hash().unwrap_or_default());
    let listener = window_event_listener(ev::hashchange, move |_| {
        hash.set(window().location().hash().unwrap_or_default());
    });
    on_cleanup(move || listener.remove());

    let stored = storage().and_then(|s| s.get_item(STORAGE_KEY).ok().flatten());
    let (loaded, notice) = Progress::load(stored.as_deref());
    let ctx = ProgressContext {
        progress: RwSignal::new(loaded),
        notice: RwSignal::new(notice),
    };
    provide_context(ctx);
    Effect::new(move |_| {
        let text = ctx.progress.with(Progress::save);
        if let Some(s) = storage() {
            let _ = s.set_item(STORAGE_KEY, &text);
        }
    });

    // The course is fetched the first time the lessons are opened.
    let ready = RwSignal::new(course_loaded());
    let failed = RwSignal::new(None::<String>);
    if !ready.get_untracked() {
        fetch_course(ready, failed);
    }
    let try_again = move |_| {
        failed.set(None);
        fetch_course(ready, failed);
    };

    view! {
        {move || {
            ctx.notice
                .get()
                .map(|n| {
                    view! {
                        <p class="notice" role="status" data-testid="progress-notice">
                            {n}
                        </p>
                    }
                })
        }}
        {move || {
            if let Some(e) = failed.get() {
                return view! {
                    <section class="notice" role="alert" data-testid="course-error">
                        <p>
                            <strong>"The lessons could not be loaded"</strong>
                            {format!(" ({e}).")}
                        </p>
                        <p>
                            <button type="button" class="button" on:click=try_again>
                                "Try again"
                            </button>
                            " The playground works without them."
                        </p>
                    </section>
                }
                    .into_any();
            }
            if !ready.get() {
                return view! {
                    <p class="loading" role="status">
                        "Loading the lessons…"
                    </p>
                }
                    .into_any();
            }
            lesson_page(&hash.get())
        }}
    }
}

/// Fetches the course; sets `ready` (in the next frame, so reading the course
/// and drawing the page are separate tasks) or `failed` with the reason.
fn fetch_course(ready: RwSignal<bool>, failed: RwSignal<Option<String>>) {
    leptos::task::spawn_local(async move {
        match load_course().await {
            Ok(()) => request_animation_frame(move || {
                let _ = ready.try_set(true);
            }),
            Err(e) => {
                let _ = failed.try_set(Some(e));
            }
        }
    });
}

/// The part of the lessons a hash opens (once the course is loaded).
fn lesson_page(hash: &str) -> AnyView {
    match lesson_path(hash) {
        LessonPath::Contents => view! { <LessonContents /> }.into_any(),
        LessonPath::Lesson { slug, exercise } => {
            view! { <LessonView slug=slug exercise=exercise /> }.into_any()
        }
        LessonPath::AnswerKey { class } => view! { <AnswerKey class=class /> }.into_any(),
        LessonPath::Unknown { slug } => view! {
            <section class="placeholder">
                <h1>"No such lesson"</h1>
                <p>"There is no lesson called “" {slug} "”."</p>
                <p>
                    <a href="#/lessons">"See all lessons"</a>
                </p>
            </section>
        }
        .into_any(),
    }
}
