use leptos::prelude::*;

use crate::draw::SCENE;
use crate::figures::tellers_summary;
use crate::lab::Lab;

/// The tellers scene: requests in line, the tellers and the cores they
/// hold, the back office, and what became of finished requests.
#[component]
pub fn TellersPanel(
    /// The widget's lab.
    lab: Lab,
) -> impl IntoView {
    // A text twin of the picture for screen readers (and tests).
    let summary = move || tellers_summary(&lab.snapshot.get());
    // Draw once the canvas is on the page (and whenever the colours change).
    Effect::new(move |_| {
        lab.dark.track();
        if lab.scene.get().is_some() {
            lab.draw();
        }
    });
    view! {
        <figure class="panel panel--tellers">
            <canvas
                class="scene"
                node_ref=lab.scene
                width=SCENE.0
                height=SCENE.1
                role="img"
                aria-label=summary
                data-testid="tellers-canvas"
                data-inside=move || lab.snapshot.get().inside
            ></canvas>
            <figcaption class="visually-hidden" data-testid="tellers-summary">
                {summary}
            </figcaption>
        </figure>
    }
}
