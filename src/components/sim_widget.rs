use leptos::prelude::*;
use tellers_sim::Scenario;

use super::{CurvePanel, FiguresPanel, RunControls, ScenarioControls, SeriesPanel, TellersPanel};
use crate::lab::Lab;

/// One view of a lab by name: `tellers`, `curve`, `series` or `stats`.
#[component]
pub fn LabView(
    /// The lab to show.
    lab: Lab,
    /// Which view.
    #[prop(into)]
    view: String,
) -> impl IntoView {
    match view.as_str() {
        "tellers" => view! { <TellersPanel lab /> }.into_any(),
        "curve" => view! { <CurvePanel lab /> }.into_any(),
        "series" => view! { <SeriesPanel lab /> }.into_any(),
        _ => view! { <FiguresPanel lab /> }.into_any(),
    }
}

/// A simulation a lesson embeds: one view, the sliders the learner may
/// move, and a caption. The run plays on its own unless the learner asked
/// for less motion.
#[component]
pub fn SimWidget(
    /// The scenario it starts from.
    scenario: Scenario,
    /// `tellers`, `curve`, `series` or `stats`.
    #[prop(into)]
    view: String,
    /// Scenario fields the learner may change, e.g. `["rps", "threads"]`.
    #[prop(optional)]
    sliders: Vec<String>,
    /// What the widget shows, in a sentence.
    #[prop(into, optional)]
    caption: String,
) -> impl IntoView {
    let scenario = RwSignal::new(scenario);
    // The curve needs no animation: it is simulated point by point.
    let animated = view != "curve";
    let lab = Lab::new(scenario, animated, !animated);
    // Names are checked when the course is built; an unknown one is skipped.
    let fields: Vec<&'static str> = sliders
        .iter()
        .filter_map(|f| crate::controls::control_field(f).map(|f| f.name))
        .collect();
    let has_controls = !fields.is_empty();
    let view_name = view.clone();
    let fields = Signal::stored(fields);
    view! {
        <section class="sim-widget" data-view=view_name node_ref=lab.root>
            {(!caption.is_empty()).then(|| view! { <p class="sim-widget__caption">{caption}</p> })}
            {has_controls.then(|| view! { <ScenarioControls scenario fields /> })}
            {animated.then(|| view! { <RunControls lab run_to_end=true /> })}
            <LabView lab view />
        </section>
    }
}
