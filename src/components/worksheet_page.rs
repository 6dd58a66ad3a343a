use leptos::prelude::*;
use std::sync::Arc;

use crate::progress::ProgressRead;
use crate::route::lesson_href;
use crate::worksheet::{own_sheet_html, OWN_SHEET_PAGE};
use tellers_course::Course;

/// A printable worksheet for one lesson, at `#/lessons/worksheet/SLUG`:
/// the lesson's exercises with one student's numbers, room to work, and
/// no answers. Without a student in the link, the learner's own numbers.
#[component]
pub fn WorksheetPage(
    /// The course.
    course: Arc<Course>,
    /// The lesson's slug (known to exist).
    slug: String,
    /// A class code and a name from the link (a teacher printing for a
    /// student); the learner's own when `None`.
    student: Option<(String, String)>,
    /// What the link gave that a worksheet does not read, in sentences.
    ignored: Vec<String>,
) -> impl IntoView {
    let ProgressRead(progress) = expect_context();
    let Some(lesson) = course.lesson(&slug) else {
        return view! { <p>"No such lesson."</p> }.into_any();
    };
    let (class, name) = student.unwrap_or_else(|| {
        progress.with_untracked(|p| (p.student.class.clone(), p.student.name.clone()))
    });
    // On screen only: the paper is the sheet.
    let ignored = (!ignored.is_empty()).then(|| {
        view! {
            <p class="notice print-hide" role="status" data-testid="link-ignored">
                {ignored.join(" ")}
            </p>
        }
    });
    // A code that looks like a Tellers code mistyped gives other numbers
    // than the class's: said on screen, as the student panel says it
    // (a link with D336ZZW5 printed its sheet without a word).
    let code_note = crate::classroom::class_code_note(&class).map(|n| {
        view! {
            <p class="notice print-hide" role="status" data-testid="worksheet-code-note">
                {n}
            </p>
        }
    });
    view! {
        <article class="worksheet" data-testid="worksheet">
            {ignored}
            {code_note}
            <p class="print-hide worksheet__tools">
                <button type="button" class="button button--primary" on:click=move |_| { let _ = window().print(); }>
                    "Print the worksheet"
                </button>
                <a class="button" href=lesson_href(&lesson.slug, None)>"Back to the lesson"</a>
            </p>
            <div
                style=format!("page: {OWN_SHEET_PAGE}")
                inner_html=own_sheet_html(lesson, &class, &name)
            ></div>
        </article>
    }
    .into_any()
}
