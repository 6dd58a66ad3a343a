use leptos::prelude::*;
use tellers_sim::Scenario;

use super::{
    CurvePanel, FiguresPanel, FiguresRow, Prediction, RunControls, ScenarioControls, SeriesPanel,
    TellersPanel,
};
use crate::lab::{Lab, RunState};
use crate::predict::guess_lines;

/// One view of a lab by name: `tellers`, `curve`, `series` or `stats`.
#[component]
pub fn LabView(
    /// The lab to show.
    lab: Lab,
    /// Which view.
    #[prop(into)]
    view: String,
    /// In a lesson: theory waits until the run has ended.
    #[prop(optional)]
    lesson: bool,
    /// The figures a lesson asks about, first in a `stats` view's table.
    #[prop(optional)]
    figures: Vec<String>,
) -> impl IntoView {
    match view.as_str() {
        "tellers" => view! { <TellersPanel lab /> }.into_any(),
        "curve" => view! { <CurvePanel lab /> }.into_any(),
        "series" => view! { <SeriesPanel lab /> }.into_any(),
        _ => view! { <FiguresPanel lab lesson focus=figures /> }.into_any(),
    }
}

/// A simulation a lesson embeds: one view, the sliders the learner may
/// move, a caption, the figures the lesson asks about and, when a predict
/// box comes before it, the learner's guesses beside the run. It waits for
/// the learner to press Play or Run to the end; theory appears when the run
/// has ended.
#[component]
pub fn SimWidget(
    /// The scenario shown (the learner's sliders change it).
    scenario: RwSignal<Scenario>,
    /// `tellers`, `curve`, `series` or `stats`.
    #[prop(into)]
    view: String,
    /// Scenario fields the learner may change, e.g. `["rps", "threads"]`.
    #[prop(optional)]
    sliders: Vec<String>,
    /// What the widget shows, in a sentence.
    #[prop(into, optional)]
    caption: String,
    /// Report figures the lesson asks about, shown in a short row under a
    /// picture (a `stats` view shows them all in its table).
    #[prop(optional)]
    figures: Vec<String>,
    /// The predict box's guesses to compare with the run.
    prediction: Option<Prediction>,
    /// The settings the caption is about (a lesson's block): once the
    /// learner has changed them, a note under the caption says so, with a
    /// button back to them.
    #[prop(optional)]
    first: Option<Scenario>,
) -> impl IntoView {
    // The curve needs no animation: it is simulated point by point.
    let animated = view != "curve";
    let lab = Lab::new(scenario, false, !animated);
    // Names are checked when the course is built; an unknown one is
    // skipped, and one the scenario does not use now is hidden (clients
    // under random arrivals).
    let has_controls = sliders
        .iter()
        .any(|f| crate::controls::control_field(f).is_some());
    let view_name = view.clone();
    let fields =
        Signal::derive(move || scenario.with(|s| crate::controls::widget_controls(&sliders, s)));
    let stats = view == "stats";
    let row = (animated && !stats && !figures.is_empty())
        .then(|| view! { <FiguresRow lab figures=figures.clone() /> });
    let focus = if stats { figures } else { Vec::new() };
    // Under a predict box the caption, which says what the run shows
    // ("the median page takes about 50 ms"), waits for the run to end: shown
    // at once, it gave the answer away before the learner had guessed.
    let after_guess = animated && prediction.is_some();
    let guesses = (animated)
        .then_some(prediction)
        .flatten()
        .map(|p| guess_result(lab, p));
    // Until the run ends under a predict box, the caption is held back.
    let held = move || after_guess && lab.state.get() != RunState::Ended;
    let caption = (!caption.is_empty()).then(|| {
        let text = move || {
            if held() {
                CAPTION_AFTER_THE_RUN.to_owned()
            } else {
                caption.clone()
            }
        };
        let changed = first.map(|first| {
            let note = {
                let first = first.clone();
                move || crate::controls::caption_changed_note(&first, &scenario.get())
            };
            move || {
                // Not beside the placeholder a predict box shows until the
                // run ends: it is no caption of the settings.
                note().filter(|_| !held()).map(|note| {
                    let first = first.clone();
                    view! {
                        <p class="sim-widget__changed" data-testid="caption-changed">
                            {note}" "
                            <button type="button" class="button button--small" on:click=move |_| scenario.set(first.clone())>
                                "Back to the first settings"
                            </button>
                        </p>
                    }
                })
            }
        });
        view! {
            <p class="sim-widget__caption" data-testid="widget-caption">{text}</p>
            {changed}
        }
    });
    view! {
        <section class="sim-widget" data-view=view_name node_ref=lab.root>
            {caption}
            {has_controls.then(|| view! { <ScenarioControls scenario fields /> })}
            {animated.then(|| view! { <RunControls lab run_to_end=true /> })}
            <LabView lab view lesson=true figures=focus />
            {row}
            {guesses}
        </section>
    }
}

/// What a widget under a predict box says in place of its caption until
/// its run has ended.
pub const CAPTION_AFTER_THE_RUN: &str =
    "Guess first, then run it to the end: when it ends, this line says what it showed.";

/// The learner's guesses beside the run, once it has ended.
fn guess_result(lab: Lab, p: Prediction) -> impl IntoView {
    let lines = move || {
        if lab.state.get() != RunState::Ended {
            return vec![];
        }
        let report = lab.report.get().unwrap_or_default();
        guess_lines(
            &p.figures,
            &p.when,
            &p.guesses.get(),
            &lab.scenario.get(),
            &report,
        )
    };
    view! {
        <div class="guess-result" data-testid="guess-result" aria-live="polite">
            {move || {
                let lines = lines();
                (!lines.is_empty())
                    .then(|| {
                        view! {
                            <p class="predict__label">"Your prediction and the run"</p>
                            <ul>{lines.into_iter().map(|l| view! { <li>{l}</li> }).collect_view()}</ul>
                        }
                    })
            }}
        </div>
    }
}
