use leptos::prelude::*;
use std::sync::Arc;
use wasm_bindgen_futures::JsFuture;

use super::{ClassCodeField, TeacherHead};
use crate::results::{
    check_file, check_parts, Checks, Dropped, Names, Rejection, ResultsTable, TableView,
    MAX_FILE_BYTES,
};
use crate::reveal::reveal_in_frames;
use tellers_course::Course;

/// What the results page had in this tab, for when it is opened again
/// (Back, or a link away and back): the files read, the class code typed,
/// the columns picked and whether names are hidden.
#[derive(Default)]
struct Kept {
    files: Vec<Dropped>,
    class: String,
    view: Option<TableView>,
    names: Names,
}

thread_local! {
    /// The results page's [`Kept`]; gone when the tab closes.
    static KEPT: std::cell::RefCell<Kept> = std::cell::RefCell::new(Kept::default());
}

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

/// Resolves in a task of its own, after what is queued now.
async fn next_task() {
    let task = js_sys::Promise::new(&mut |resolve, _| {
        set_timeout(
            move || _ = resolve.call0(&wasm_bindgen::JsValue::NULL),
            std::time::Duration::ZERO,
        );
    });
    let _ = JsFuture::from(task).await;
}

/// `files` checked for class `class` a few per task ([`check_parts`]), so
/// that forty of them are no long task. `None` if `current` turns false
/// meanwhile (newer files or another class code).
async fn check_in_parts(
    class: &str,
    files: &[Dropped],
    current: impl Fn() -> bool,
) -> Option<Checks> {
    if class.trim().is_empty() || files.is_empty() {
        return Some(Checks::all_at_once(class, files));
    }
    let mut checked = Vec::with_capacity(files.len());
    for part in check_parts(files) {
        next_task().await;
        if !current() {
            return None;
        }
        checked.extend(files[part].iter().map(|f| check_file(f, class)));
    }
    next_task().await;
    current().then(|| Checks::For {
        class: class.to_owned(),
        checked,
    })
}

/// The class's results, at `#/lessons/results?class=CODE`: the teacher
/// drops the students' saved progress files and sees one table, a row per
/// student and a column per exercise, with totals, the exercises most got
/// wrong at first, the mistakes (slips the checker named, wrong options
/// picked first) more than one student made, the files left out and why, and a CSV to download
/// (all made by [`ResultsPage`]). The files are read in the teacher's
/// browser; nothing is uploaded.
#[component]
pub fn ClassResults(
    /// The course.
    course: Arc<Course>,
    /// The class code from the link.
    class: String,
) -> impl IntoView {
    // The files this tab read, and the code typed for them, kept for it:
    // a teacher who loaded thirty files and clicked the breadcrumb above
    // the heading came Back to an empty table, and one who had typed the
    // code (not come by a link with it) to an empty box. Kept in memory
    // only, until the tab closes. A link's code comes first.
    let class = if class.trim().is_empty() {
        KEPT.with(|k| k.borrow().class.clone())
    } else {
        class
    };
    let checks = RwSignal::new(Arc::new(Checks::all_at_once(&class, &[])));
    let class = RwSignal::new(class);
    // The code typed is written into the address, in place, so Back to
    // this page, or a reload, opens it with that code.
    Effect::new(move |_| {
        let hash = crate::route::shown_hash();
        let want = class.with(|c| crate::route::with_class(&hash, c));
        if want != hash {
            crate::route::replace_hash(&want);
        }
    });
    let files = RwSignal::new(KEPT.with(|k| k.borrow().files.clone()));
    // Names hidden for a projector, kept for the tab as the rest is.
    let names = RwSignal::new(KEPT.with(|k| k.borrow().names));
    Effect::new(move |_| {
        let hidden = names.get();
        KEPT.with(|k| k.borrow_mut().names = hidden);
    });
    Effect::new(move |_| {
        let (now, code) = (files.get(), class.get());
        KEPT.with(|k| {
            let mut k = k.borrow_mut();
            // Cleared: the next files are a new table, on its own first
            // columns (a late student's file keeps the columns picked).
            if now.is_empty() {
                k.view = None;
            }
            k.files = now;
            k.class = code;
        });
    });
    let dragging = RwSignal::new(false);
    // Each change of the files or the class code checks them again; a
    // check still under way for an earlier change stops.
    let latest = StoredValue::new(0_u64);
    Effect::new(move |_| {
        let (class, files) = (class.get(), files.get());
        let check = latest.get_value() + 1;
        latest.set_value(check);
        leptos::task::spawn_local(async move {
            let current = || latest.try_get_value() == Some(check);
            if let Some(done) = check_in_parts(&class, &files, current).await {
                // The page may have been left meanwhile.
                let _ = checks.try_set(Arc::new(done));
            }
        });
    });
    // The page from the last files checked: hiding the names or showing
    // them again draws it anew from those, and checks nothing again.
    let page = Memo::new(move |_| Arc::new(checks.with(|c| c.page(&course, names.get()))));
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
    let shown = move || {
        let page = page.get();
        let table = page
            .table
            .clone()
            .map(|table| view! { <ResultsTableView table /> });
        view! {
            <div inner_html=page.notes.clone()></div>
            {table}
        }
    };
    view! {
        <section class="results" data-testid="class-results">
            <TeacherHead
                title="Class results"
                lead="Drop your students' saved progress files here, as many as you like at once. \
                      They are read in this browser: nothing is uploaded, and they are kept only until this tab closes."
            />
            <div class="key__form">
                <ClassCodeField class test_id="results-class" />
                <button type="button" class="button print-hide" on:click=move |_| files.set(vec![])>
                    "Clear the files"
                </button>
                <label class="key__check print-hide">
                    <input
                        type="checkbox"
                        prop:checked=move || names.get() == Names::Hidden
                        on:change=move |ev| {
                            names.set(if event_target_checked(&ev) { Names::Hidden } else { Names::Shown });
                        }
                        data-testid="hide-names"
                    />
                    "Hide names, for a projector"
                </label>
            </div>
            <label
                class="dropzone print-hide"
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
            {shown}
        </section>
    }
}

/// The table with its legend, the pick of its columns and its CSV link;
/// its rows come a few per frame ([`ResultsTable::row_parts`]), as one
/// frame laying out a class's thousands of cells took over 50 ms. A big
/// class starts on each lesson's total ([`crate::results::MAX_CELLS`]).
#[component]
fn ResultsTableView(table: ResultsTable) -> impl IntoView {
    let views = table.views();
    // The columns picked before, if this table offers them (Back found
    // "Every exercise" where "Each lesson's total" had been picked).
    let kept = KEPT
        .with(|k| k.borrow().view)
        .filter(|v| views.iter().any(|(w, _)| w == v));
    let view = RwSignal::new(kept.unwrap_or(table.view));
    Effect::new(move |_| {
        let picked = view.get();
        KEPT.with(|k| k.borrow_mut().view = Some(picked));
    });
    let table = Arc::new(table);
    let picker = (views.len() > 1).then(|| {
        view! {
            <div class="key__form print-hide">
                <label>
                    "Columns"
                    <select
                        prop:value=move || view.get().key()
                        on:change=move |ev| {
                            if let Some(v) = TableView::from_key(&event_target_value(&ev)) {
                                view.set(v);
                            }
                        }
                        data-testid="results-view"
                    >
                        {views
                            .into_iter()
                            .map(|(v, label)| view! { <option value=v.key() selected=move || view.get() == v>{label}</option> })
                            .collect_view()}
                    </select>
                </label>
            </div>
        }
    });
    // A new pick draws the table again, its rows a few per frame.
    let parts = move || {
        let table = table.with_view(view.get());
        view! { <TableParts table /> }
    };
    view! {
        <h2>"The table"</h2>
        {picker}
        {parts}
    }
}

/// One view of the table: legend, print note, CSV link and the rows.
#[component]
fn TableParts(table: ResultsTable) -> impl IntoView {
    let table = Arc::new(table);
    let parts = table.row_parts();
    let drawn = reveal_in_frames(1, parts.len(), 1);
    let rows = {
        let table = table.clone();
        move |part: std::ops::Range<usize>| view! { <tbody inner_html=table.rows_html(part)></tbody> }
    };
    let csv = table.clone();
    // The CSV is made when the link is followed: the address is set in the
    // click, before the browser follows it.
    let on_csv = move |ev: leptos::ev::MouseEvent| {
        use wasm_bindgen::JsCast;
        if let Some(link) = ev
            .current_target()
            .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
        {
            let _ = link.set_attribute("href", &csv.csv_href());
        }
    };
    view! {
        <div inner_html=table.legend_html()></div>
        {table.print_note().map(|note| view! { <p class="print-only notice" data-testid="results-print-note">{note}</p> })}
        {(table.results.names == Names::Shown).then(|| view! {
            <p class="print-hide">
                <a
                    class="button button--primary"
                    href="data:text/csv;charset=utf-8,"
                    download=table.csv_file.clone()
                    on:click=on_csv
                    data-testid="results-csv"
                >
                    "Download as CSV"
                </a>
            </p>
        })}
        <div
            class="results__scroll"
            tabindex="0"
            role="region"
            aria-label="The table, scrolls sideways"
        >
            <table class="results__table" data-testid="results-table">
                <thead inner_html=table.head_html()></thead>
                <For
                    each=move || parts.clone().into_iter().take(drawn.get()).enumerate()
                    key=|(i, _)| *i
                    let:part
                >
                    {rows(part.1)}
                </For>
                <tfoot inner_html=table.foot_html()></tfoot>
            </table>
        </div>
    }
}
