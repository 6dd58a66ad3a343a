use leptos::prelude::*;
use tellers_sim::report::Report;
use tellers_sim::signs::read_signs;

use crate::figures::{
    approx_fold_for, compact_note, compact_rows, figure_rows, figures_caption, report_json,
    row_key, run_note, signs_heard, theory_heading, FigureRow, RunNote,
};
use crate::format::units_kept;
use crate::lab::{Lab, RunState};

/// What a theory cell says in a lesson before the run has ended: the
/// learner predicts first.
const THEORY_AFTER_THE_RUN: &str = "after the run";

/// The figures: simulated beside theory, the reading-the-signs verdict,
/// and the report as JSON. In a lesson, theory waits until the run ends,
/// and the table holds the figures the lesson asks about, with the rest
/// folded under "All figures" (all eighteen rows put the run's answer a
/// screen below its Play button).
#[component]
pub fn FiguresPanel(
    /// The widget's lab.
    lab: Lab,
    /// In a lesson: theory appears only once the run has ended.
    #[prop(optional)]
    lesson: bool,
    /// Report figure names the lesson asks about (`["mean_in_flight"]`):
    /// the table shows their rows first. Empty: every row.
    #[prop(optional)]
    focus: Vec<String>,
) -> impl IntoView {
    let report = Memo::new(move |_| lab.report.get().unwrap_or_default());
    let finished = move || lab.state.get() == RunState::Ended;
    let show_theory = move || !lesson || finished();
    let all_rows = move || figure_rows(&lab.scenario.get(), &report.get(), &lab.theory.get());
    // Figures with no row of their own (a claim's ratio) leave the whole table.
    let focus = if focus.iter().any(|f| row_key(f).is_some()) {
        focus
    } else {
        Vec::new()
    };
    let focused = !focus.is_empty();
    let rows = move || {
        if focus.is_empty() {
            all_rows()
        } else {
            compact_rows(
                &focus,
                &lab.scenario.get(),
                &report.get(),
                &lab.theory.get(),
            )
        }
    };
    // The folded table's caption is for screen readers: on screen it would
    // repeat the one just above it.
    let table = move |rows: Box<dyn Fn() -> Vec<FigureRow> + Send + Sync>,
                      id: &'static str,
                      caption_class: &'static str| {
        view! {
            <table class="figures" data-testid=id>
                <caption class=caption_class>{move || figures_caption(&lab.scenario.get(), finished())}</caption>
                <thead>
                    <tr>
                        <th scope="col">"Figure"</th>
                        <th scope="col">"Simulated"</th>
                        <th scope="col">{move || theory_heading(&lab.theory.get())}</th>
                    </tr>
                </thead>
                <tbody>{move || figure_row_views(rows(), show_theory())}</tbody>
            </table>
        }
    };
    view! {
        // A group, not a landmark: a lesson has several, and landmarks of
        // one name ("Figures" five times) cannot be told apart.
        <div class="panel panel--figures" role="group" aria-label="Figures">
            // In a lesson the figures it asks about come first, and the
            // signs under them: above, the signs' few lines appearing after
            // the warm-up pushed the table down by up to 87 px mid-run.
            {(!focused).then(|| verdict(lab, report))}
            {table(Box::new(rows), "figures", "")}
            {focused.then(|| verdict(lab, report))}
            {focused
                .then(|| {
                    view! {
                        <details class="figures-all">
                            <summary>"All figures"</summary>
                            {table(Box::new(all_rows), "figures-all", "visually-hidden")}
                        </details>
                    }
                })}
            // Every row is in the table folded under "All figures".
            {approx(lab, show_theory, Vec::new())}
            <details class="report-json">
                <summary>"Report as JSON"</summary>
                // It scrolls: focusable, so a keyboard can scroll it. (No
                // label: a pre may not be named; its fold's summary says it.)
                <pre
                    data-testid="report-json"
                    tabindex="0"
                    data-final=move || finished().to_string()
                >
                    {move || report_json(&report.get())}
                </pre>
            </details>
        </div>
    }
}

/// A lesson widget's short row of figures: the ones its lesson asks about,
/// simulated beside theory (theory once the run has ended).
#[component]
pub fn FiguresRow(
    /// The widget's lab.
    lab: Lab,
    /// Report figure names, e.g. `["latency_mean_ms"]`.
    figures: Vec<String>,
) -> impl IntoView {
    let report = Memo::new(move |_| lab.report.get().unwrap_or_default());
    let finished = move || lab.state.get() == RunState::Ended;
    let shown = figures.clone();
    let rows = move || {
        compact_rows(
            &figures,
            &lab.scenario.get(),
            &report.get(),
            &lab.theory.get(),
        )
    };
    view! {
        <div class="panel panel--figures panel--compact">
            <table class="figures figures--compact" data-testid="figures-row">
                <caption class="visually-hidden">"The figures this lesson asks about"</caption>
                <thead>
                    <tr>
                        <th scope="col">"Figure"</th>
                        <th scope="col">"Simulated"</th>
                        <th scope="col">{move || theory_heading(&lab.theory.get())}</th>
                    </tr>
                </thead>
                <tbody>{move || figure_row_views(rows(), finished())}</tbody>
            </table>
            <p class="figures__note muted" data-testid="figures-row-note">
                {move || compact_note(&lab.scenario.get(), &report.get())}
            </p>
            {approx(lab, finished, shown)}
        </div>
    }
}

fn figure_row_views(rows: Vec<FigureRow>, show_theory: bool) -> impl IntoView {
    rows.into_iter()
        .map(|r| {
            let (theory, class) = if show_theory {
                (r.theory, "figures__theory")
            } else {
                (THEORY_AFTER_THE_RUN.to_owned(), "figures__theory muted")
            };
            view! {
                <tr data-testid=r.key>
                    <th scope="row">{r.label}</th>
                    <td class="figures__sim" class:figures__pending=r.pending>{units_kept(&r.sim)}</td>
                    <td class=class>{units_kept(&theory)}</td>
                </tr>
            }
        })
        .collect_view()
}

/// Why theory's "(approx.)" figures are approximate, under a table of the
/// rows of `figures` (empty: every row), while `show` says theory is shown.
fn approx(
    lab: Lab,
    show: impl Fn() -> bool + Send + Sync + 'static,
    figures: Vec<String>,
) -> impl IntoView {
    let open = RwSignal::new(false);
    move || {
        show()
            .then(|| approx_fold_for(&lab.theory.get(), &figures))
            .flatten()
            .map(|note| {
                view! {
                    <div class="figures__note" data-testid="approx-note">
                        <NoteFolded fold=note open />
                    </div>
                }
            })
    }
}

/// A theory note: its lead in view, its reasons in a fold
/// ([`crate::figures::NoteFold`]). `open` outlives the note: the note is
/// drawn anew whenever theory changes (a slider moved, a run ended), and a
/// fold the learner opened closed each time.
#[component]
pub fn NoteFolded(fold: crate::figures::NoteFold, open: RwSignal<bool>) -> impl IntoView {
    view! {
        {(!fold.lead.is_empty()).then(|| view! { <p class="note-fold__lead">{units_kept(&fold.lead)}</p> })}
        // A lead with no reasons has nothing to fold.
        {(!fold.why.is_empty()).then(|| view! {
            <details
                class="note-fold"
                open=move || open.get()
            >
                // The signal opens and closes it (the summary's own toggle is
                // held back), so the state outlives the element.
                <summary on:click=move |ev| {
                    ev.prevent_default();
                    open.update(|o| *o = !*o);
                }>{fold.summary()}</summary>
                <p>{units_kept(&fold.reasons())}</p>
            </details>
        })}
    }
}

/// Reading the signs: what the figures say about the server, once they
/// are measured; until then, what is not measured yet and why. Its heading
/// is an h3: under the lesson's section in a lesson, and under the
/// figures' own (hidden) h2 on the playground.
fn verdict(lab: Lab, report: Memo<Report>) -> impl IntoView {
    // A memo: the text is set only when it changes, so nothing is said again.
    let heard =
        Memo::new(move |_| signs_heard(&lab.scenario.get(), &report.get(), &lab.theory.get()));
    view! {
        // Not a live region itself: its details change with every figure,
        // a few times a second. The verdict's titles are said when they
        // change.
        <div class="signs" data-testid="signs">
            <p class="visually-hidden" role="status" data-testid="signs-heard">
                {move || heard.get()}
            </p>
            <h3>"Reading the signs"</h3>
            {move || {
                let r = report.get();
                let s = lab.scenario.get();
                match run_note(&s, &r) {
                    Some(RunNote::NotStarted) => {
                        return view! { <p class="signs__empty">"Play or step the run to read its signs."</p> }.into_any();
                    }
                    Some(RunNote::Measuring(note)) => {
                        return view! { <p class="signs__empty" data-testid="measuring">{note}</p> }.into_any();
                    }
                    None => {}
                }
                let list = read_signs(&s, &r, &lab.theory.get());
                view! {
                    <ul class="signs__list">
                        {list
                            .into_iter()
                            .map(|s| {
                                let class = if s.kind.is_warning() {
                                    "sign sign--warning"
                                } else {
                                    "sign sign--healthy"
                                };
                                view! {
                                    <li class=class data-sign=s.kind.name()>
                                        // A full stop after the title: read aloud or
                                        // copied, it does not run into the detail.
                                        // Numbers keep their units on their line.
                                        <strong>{units_kept(&s.title)} "."</strong>
                                        " "
                                        <span>{units_kept(&s.detail)}</span>
                                    </li>
                                }
                            })
                            .collect_view()}
                    </ul>
                }
                    .into_any()
            }}
        </div>
    }
}
