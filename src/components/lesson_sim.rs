use leptos::prelude::*;

use tellers_course::SimBlock;
use tellers_sim::query::to_query;

/// A live simulation inside a lesson, set up by the lesson's `sim` block,
/// with a link that opens the same scenario in the full playground.
#[component]
pub fn LessonSim(
    /// The lesson's block: scenario, view, caption and the sliders offered.
    block: SimBlock,
) -> impl IntoView {
    let href = format!("#/playground?{}", to_query(&block.scenario));
    view! {
        <figure class="lesson-sim" data-testid="lesson-sim">
            <super::SimWidget
                scenario=block.scenario
                view=block.view
                sliders=block.sliders
                caption=block.caption
            />
            <figcaption>
                <a href=href>"Open this scenario in the playground"</a>
            </figcaption>
        </figure>
    }
}
