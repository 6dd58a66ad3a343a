use leptos::prelude::*;
use std::sync::Arc;

use crate::classroom::teacher_code_note;
use crate::reveal::reveal_in_frames;
use crate::route::lesson_href;
use crate::worksheet::{class_sheets, printed_too_soon};
use tellers_course::Course;

/// Worksheets drawn per animation frame: a sheet is one lesson's
/// exercises, a few of them are far below a frame's budget.
const SHEETS_PER_FRAME: usize = 4;

/// A class's worksheets for one lesson, at
/// `#/lessons/worksheets/SLUG?class=CODE&name=A&name=B` (the answer key's
/// "Print worksheets for all N students"): each student's worksheet with
/// their own numbers, one after another, each starting on a new printed
/// page ([`class_sheets`] checks the link and builds the sheets). Printed
/// as the single worksheet is: the browser's print, the buttons hidden.
#[component]
pub fn ClassWorksheets(
    /// The course.
    course: Arc<Course>,
    /// The lesson's slug, from the link.
    slug: String,
    /// The class code, from the link.
    class: String,
    /// The students' names, from the link, in order.
    names: Vec<String>,
) -> impl IntoView {
    let sheets = match class_sheets(&course, &slug, &class, &names) {
        Ok(sheets) => Arc::new(sheets),
        Err(why) => {
            return view! {
                <section class="placeholder" data-testid="class-worksheets-error">
                    <h1>"No worksheets to print"</h1>
                    <p role="alert">{why}</p>
                    <p>
                        <a href="#/lessons/teacher">"For teachers: run a class"</a>
                    </p>
                </section>
            }
            .into_any()
        }
    };
    let n = sheets.names.len();
    let shown = reveal_in_frames(SHEETS_PER_FRAME, n, SHEETS_PER_FRAME);
    let ready = move || shown.get() >= n;
    let preparing =
        move || (!ready()).then(|| format!("Preparing the worksheets: {} of {n}…", shown.get()));
    let sheet = {
        let sheets = sheets.clone();
        move |i: usize| sheets.sheet_html(&course, i)
    };
    view! {
        // Printed from the browser's menu before every sheet is ready, the
        // paper says so and carries no sheets (a class of 24 printed 16).
        <article class="worksheet" class:unready=move || !ready() data-testid="class-worksheets">
            <p class="unready__note" data-testid="class-worksheets-unready">
                {move || printed_too_soon("the worksheets", shown.get(), n)}
            </p>
            <div class="print-hide">
                <p class="eyebrow">{sheets.eyebrow.clone()}</p>
                <h1>{sheets.heading.clone()}</h1>
                <p class="worksheet__note">{sheets.summary()}</p>
                // A code edited by hand in the link gives other numbers:
                // said here as the results page says it.
                {teacher_code_note(&class)
                    .map(|note| {
                        view! {
                            <p class="notice" role="alert" data-testid="class-worksheets-code-note">
                                {note}
                            </p>
                        }
                    })}
                {sheets
                    .left_out_note()
                    .map(|note| {
                        view! {
                            <p class="notice" role="status" data-testid="class-worksheets-left-out">
                                {note}
                            </p>
                        }
                    })}
                <p class="worksheet__tools">
                    <button
                        type="button"
                        class="button button--primary"
                        disabled=move || !ready()
                        on:click=move |_| {
                            let _ = window().print();
                        }
                        data-testid="class-worksheets-print"
                    >
                        {sheets.print_label()}
                    </button>
                    <a class="button" href=lesson_href(&sheets.slug, None)>
                        "Back to the lesson"
                    </a>
                </p>
                <p role="status">{preparing}</p>
            </div>
            <For each=move || 0..shown.get() key=|i| *i let:i>
                <div inner_html=sheet(i)></div>
            </For>
        </article>
    }
    .into_any()
}
