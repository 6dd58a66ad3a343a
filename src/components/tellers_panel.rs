use leptos::prelude::*;

use crate::draw::{canvas_fit, draw_soon, pixel_ratio, scene_zoom};
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
    // Draw once the canvas is laid out, whenever its width changes (the
    // scene is drawn for the width it gets) and when the colours change.
    // Like the charts, in a task of its own: at start-up the first drawing
    // (the first text on a canvas makes the browser resolve its fonts) was
    // a third of the task that builds the page.
    let fit = canvas_fit(lab.scene);
    let pending = StoredValue::new(false);
    Effect::new(move |_| {
        lab.dark.track();
        fit.track();
        lab.scene.track();
        // Sized and drawn in one task, so no frame shows it blank.
        draw_soon(pending, move || {
            let fit = fit.get_untracked();
            if let Some(c) = lab.scene.get_untracked() {
                if fit.width > 0.0 {
                    c.set_width((fit.width * pixel_ratio()).round() as u32);
                    let _ = c.set_attribute("data-zoom", &scene_zoom(fit).to_string());
                }
                lab.draw();
            }
        });
    });
    view! {
        <figure class="panel panel--tellers">
            <canvas
                class="scene"
                node_ref=lab.scene
                width="960"
                height="402"
                // The caption below says what it shows: labelled too, the
                // canvas was read twice.
                aria-hidden="true"
                data-testid="tellers-canvas"
                data-inside=move || lab.snapshot.get().inside
            ></canvas>
            <figcaption class="visually-hidden" data-testid="tellers-summary">
                {summary}
            </figcaption>
        </figure>
    }
}
