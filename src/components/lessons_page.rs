use leptos::prelude::*;
use std::sync::Arc;
use tellers_course::Course;

use super::{take_class_from_links, LessonContents, LessonView, TeacherTools, WorksheetPage};
use crate::course_data::{CourseError, CourseLoader, CourseState};
use crate::progress::{progress_notice_seen, provide_progress};
use crate::route::{no_lesson_text, LessonPath};

/// The lessons, at `#/lessons…`: the contents, one lesson or its
/// worksheet, and the teacher's pages (the class, the answer key, the
/// class's results, a class's worksheets). Opening them starts the
/// course's fetch if it has not started; until it arrives the page says
/// so, and if it fails, why, with a button to try again.
#[component]
pub fn LessonsPage(
    /// Where inside the lessons the URL points.
    path: Memo<LessonPath>,
    /// The course, loaded once for the whole visit.
    loader: CourseLoader,
) -> impl IntoView {
    let notice = provide_progress();
    // A teacher's link's class code, now and whenever the address changes.
    take_class_from_links();
    let course = loader.want();
    // The teacher's pages are their own tools, loaded apart: one mount for
    // all of them, kept while the learner moves between them.
    let teacher = Memo::new(move |_| path.with(LessonPath::is_teacher));
    // Shown once on a learner's page; until then a reload keeps it.
    let shown = notice.is_some();
    Effect::new(move |_| {
        if shown && !teacher.get() {
            progress_notice_seen();
        }
    });
    view! {
        // The learner's notice, not on the teacher's pages (it meant
        // nothing to a teacher there).
        {move || {
            notice
                .clone()
                .filter(|_| !teacher.get())
                .map(|n| {
                    view! {
                        <p class="notice" role="status" data-testid="progress-notice">
                            {n}
                        </p>
                    }
                })
        }}
        {move || {
            if teacher.get() {
                return view! { <TeacherTools /> }.into_any();
            }
            with_course(course, path, lesson_page).into_any()
        }}
    }
}

/// The page `page` draws for each path, once the course is there: "Loading
/// the lessons…" until then, and, if it did not come, why and a button to
/// try again.
pub(crate) fn with_course(
    course: CourseState,
    path: Memo<LessonPath>,
    page: fn(Arc<Course>, LessonPath) -> AnyView,
) -> impl IntoView {
    move || match course.get() {
        None => view! {
            <p class="loading" role="status">
                "Loading the lessons…"
            </p>
        }
        .into_any(),
        Some(Ok(loaded)) => page(loaded, path.get()),
        // The one failure (the course did not come) is shown in place:
        // an ErrorBoundary would add about 8 KB of gzipped wasm for it.
        Some(Err(e)) => course_error(e, move || course.retry()).into_any(),
    }
}

/// Why the course could not be loaded, and a way to try again.
fn course_error(error: CourseError, retry: impl Fn() + Send + 'static) -> impl IntoView {
    view! {
        <section class="notice" role="alert" data-testid="course-error">
            <p>
                <strong>"The lessons could not be loaded"</strong>
                {format!(" ({error}).")}
            </p>
            <p>
                <button type="button" class="button" on:click=move |_| retry()>
                    "Try again"
                </button>
                " The playground works without them."
            </p>
        </section>
    }
}

/// The part of the lessons a path opens, once the course is loaded.
fn lesson_page(course: Arc<Course>, path: LessonPath) -> AnyView {
    match path {
        LessonPath::Contents => view! { <LessonContents course /> }.into_any(),
        LessonPath::Lesson {
            slug,
            exercise,
            presenter,
            ignored,
        } if course.lesson(&slug).is_some() => {
            view! { <LessonView course slug exercise presenter ignored /> }.into_any()
        }
        LessonPath::Worksheet {
            slug,
            student,
            ignored,
        } if course.lesson(&slug).is_some() => {
            view! { <WorksheetPage course slug student ignored /> }.into_any()
        }
        LessonPath::Lesson { slug, .. } | LessonPath::Worksheet { slug, .. } => {
            no_such_lesson(slug)
        }
        // Drawn by the teacher's tools (see `LessonsPage`).
        LessonPath::AnswerKey { .. }
        | LessonPath::Teacher
        | LessonPath::Results { .. }
        | LessonPath::ClassWorksheets { .. } => ().into_any(),
    }
}

fn no_such_lesson(slug: String) -> AnyView {
    view! {
        <section class="placeholder">
            <h1>"No such lesson"</h1>
            <p>{no_lesson_text(&slug)}</p>
            <p>
                <a href="#/lessons">"See all lessons"</a>
            </p>
        </section>
    }
    .into_any()
}
