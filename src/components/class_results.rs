use leptos::prelude::*;
use std::sync::Arc;
use wasm_bindgen_futures::JsFuture;

use super::{ClassCodeField, TeacherHead};
use crate::results::{results_html, Rejection, MAX_FILE_BYTES};
use tellers_course::Course;

/// A dropped file: its name and its text, or why it was not read.
type Dropped = (String, Result<String, Rejection>);

/// Reads `files` in this browser (nothing is sent anywhere) and adds them
/// to `into`, all at once when the last is read (one redraw of the table).
fn read_files(files: web_sys::FileList, into: RwSignal<Vec<Dropped>>) {
    let files: Vec<web_sys::File> = (0..files.length()).filter_map(|i| files.get(i)).collect();
    leptos::task::spawn_local(async move {
        let mut read = Vec::with_capacity(files.len());
        for file in files {
            let text = if file.size() > MAX_FILE_BYTES {
                Err(Rejection::TooLarge {
                    bytes: file.size() as u64,
                })
            } else {
                JsFuture::from(file.text())
                    .await
                    .ok()
                    .and_then(|t| t.as_string())
                    .ok_or_else(|| Rejection::Unreadable("the browser could not read it".into()))
            };
            read.push((file.name(), text));
        }
        // The page may have been left meanwhile: then there is nothing to update.
        into.try_update(|v| v.extend(read));
    });
}

/// The class's results, at `#/lessons/results?class=CODE`: the teacher
/// drops the students' saved progress files and sees one table, a row per
/// student and a column per exercise, with totals, the exercises most got
/// wrong at first, the files left out and why, and a CSV to download
/// (all made by [`results_html`]). The files are read in the teacher's
/// browser; nothing is uploaded.
#[component]
pub fn ClassResults(
    /// The course.
    course: Arc<Course>,
    /// The class code from the link.
    class: String,
) -> impl IntoView {
    let class = RwSignal::new(class);
    let files = RwSignal::new(Vec::<Dropped>::new());
    let dragging = RwSignal::new(false);
    let on_choose = move |ev: leptos::ev::Event| {
        let input = event_target::<web_sys::HtmlInputElement>(&ev);
        if let Some(list) = input.files() {
            read_files(list, files);
        }
        input.set_value("");
    };
    let on_drop = move |ev: leptos::ev::DragEvent| {
        ev.prevent_default();
        dragging.set(false);
        if let Some(list) = ev.data_transfer().and_then(|d| d.files()) {
            read_files(list, files);
        }
    };
    let shown = move || files.with(|f| results_html(&course, &class.get(), f));
    view! {
        <section class="results" data-testid="class-results">
            <TeacherHead
                title="Class results"
                lead="Drop your students' saved progress files here, as many as you like at once. \
                      They are read in this browser: nothing is uploaded, and nothing is kept when you leave."
            />
            <div class="key__form">
                <ClassCodeField class test_id="results-class" />
                <button type="button" class="button" on:click=move |_| files.set(vec![])>
                    "Clear the files"
                </button>
            </div>
            <label
                class="dropzone"
                class:dropzone--over=move || dragging.get()
                on:dragover=move |ev: leptos::ev::DragEvent| {
                    ev.prevent_default();
                    dragging.set(true);
                }
                on:dragleave=move |_| dragging.set(false)
                on:drop=on_drop
                data-testid="dropzone"
            >
                <span class="dropzone__text">"Drop progress files here, or choose them"</span>
                <input
                    type="file"
                    multiple
                    accept=".json,application/json"
                    on:change=on_choose
                    data-testid="results-files"
                />
            </label>
            <div inner_html=shown></div>
        </section>
    }
}
