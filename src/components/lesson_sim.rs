use leptos::prelude::*;

use tellers_course::SimBlock;
use tellers_sim::query::{from_query, to_query};

use super::Prediction;
use crate::session;

/// A live simulation inside a lesson, set up by the lesson's `sim` block,
/// with a link that opens the scenario as the learner has set it in the
/// full playground. The learner's settings are kept for the tab, so the
/// playground and Back do not lose them.
#[component]
pub fn LessonSim(
    /// The lesson's block: scenario, view, caption and the sliders offered.
    block: SimBlock,
    /// Where the learner's settings are kept (see [`session::lesson_key`]).
    key: String,
    /// The predict box before it, if any.
    prediction: Option<Prediction>,
) -> impl IntoView {
    // Kept settings are used only if they were made from this very block.
    let start = to_query(&block.scenario);
    let kept = session::load(&key)
        .and_then(|t| {
            t.split_once('\n')
                .map(|(a, b)| (a.to_owned(), b.to_owned()))
        })
        .filter(|(from, _)| *from == start)
        .map(|(_, q)| from_query(&q))
        .filter(|(_, bad)| bad.is_empty())
        .map(|(s, _)| s);
    let scenario = RwSignal::new(kept.unwrap_or_else(|| block.scenario.clone()));
    Effect::new(move |_| session::save(&key, &format!("{start}\n{}", to_query(&scenario.get()))));
    let href = move || format!("#/playground?{}", to_query(&scenario.get()));
    // On paper the simulation is left out; this line stands in its place,
    // so "press Run to the end" before it points somewhere.
    let on_paper = format!("▶ A simulation, to run in Tellers: {}", block.caption);
    view! {
        <p class="print-only lesson-sim__paper" data-testid="lesson-sim-paper">{on_paper}</p>
        <figure class="lesson-sim" data-testid="lesson-sim">
            <super::SimWidget
                scenario
                view=block.view
                sliders=block.sliders
                caption=block.caption
                figures=block.figures
                prediction=prediction
                first=block.scenario.clone()
            />
            <figcaption>
                <a href=href data-testid="open-in-playground">"Open this scenario in the playground"</a>
            </figcaption>
        </figure>
    }
}
