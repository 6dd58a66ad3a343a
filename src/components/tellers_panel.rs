use leptos::prelude::*;

use crate::draw::{canvas_fit, pixel_ratio, scene_zoom};
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
    let fit = canvas_fit(lab.scene);
    Effect::new(move |_| {
        lab.dark.track();
        let fit = fit.get();
        if let Some(c) = lab.scene.get() {
            if fit.width > 0.0 {
                c.set_width((fit.width * pixel_ratio()).round() as u32);
                let _ = c.set_attribute("data-zoom", &scene_zoom(fit).to_string());
            }
            lab.draw();
        }
    });
    view! {
        <figure class="panel panel--tellers">
            <canvas
                class="scene"
                node_ref=lab.scene
                width="960"
                height="402"
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
