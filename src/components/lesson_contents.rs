use leptos::prelude::*;
use std::sync::Arc;
use tellers_course::Course;

use super::StudentPanel;
use crate::progress::ProgressRead;
use crate::route::lesson_href;

/// The table of contents: every lesson in order, with how many of its
/// exercises the learner has solved, and who is working.
#[component]
pub fn LessonContents(
    /// The course.
    course: Arc<Course>,
) -> impl IntoView {
    let ProgressRead(progress) = expect_context();
    let items = course
        .lessons
        .iter()
        .map(|l| {
            let ids: Vec<String> = l.exercises().map(|e| e.id.clone()).collect();
            let total = ids.len();
            let done = move || progress.with(|p| p.solved_count(ids.iter().map(String::as_str)));
            view! {
                <li class="toc__item">
                    <a class="toc__link" href=lesson_href(&l.slug, None)>
                        <span class="toc__number">{l.number}</span>
                        <span class="toc__text">
                            <span class="toc__title">{l.title.clone()}</span>
                            <span class="toc__summary">{l.summary.clone()}</span>
                        </span>
                        // Its exercises solved, said in words ("2 / 4 solved").
                        <span class="toc__done">
                            {move || format!("{} / {} solved", done(), total)}
                        </span>
                    </a>
                </li>
            }
        })
        .collect_view();
    view! {
        <section class="lessons" aria-labelledby="lessons-title">
            <p class="eyebrow">"Course"</p>
            <h1 id="lessons-title">"Lessons"</h1>
            <p class="lead">
                "Short lessons, from the two halves of a request to a full sale-day plan, "
                "then what senior interviews ask: overload, pool sizing, tail latency and honest measurement. "
                "Each has a live simulation and exercises checked the moment you submit them."
            </p>
            <StudentPanel />
            <ol class="toc">{items}</ol>
            <p class="toc__teacher">
                <a href="#/lessons/teacher">"For teachers: run a class"</a>
            </p>
        </section>
    }
}
