use leptos::prelude::*;

use crate::draw::{canvas_fit, pixel_ratio};
use crate::format::fmt_count;
use crate::lab::Lab;

/// The tellers scene: requests in line, the tellers and the cores they
/// hold, the back office, and what became of finished requests.
#[component]
pub fn TellersPanel(
    /// The widget's lab.
    lab: Lab,
) -> impl IntoView {
    // A text twin of the picture for screen readers (and tests).
    let summary = move || {
        let s = lab.snapshot.get();
        format!(
            "{} requests in line, {} waiting off the CPU, {} of {} cores busy, {} tellers, {} done, {} refused, {} gave up.",
            fmt_count(s.line as f64),
            fmt_count(s.waiting as f64),
            s.busy_cores,
            s.cores,
            fmt_count(s.tellers_alive as f64),
            fmt_count(s.completed as f64),
            fmt_count(s.refused as f64),
            fmt_count(s.timed_out as f64),
        )
    };
    // Draw once the canvas is laid out, whenever its width changes (the
    // scene is drawn for the width it gets) and when the colours change.
    let fit = canvas_fit(lab.scene);
    Effect::new(move |_| {
        lab.dark.track();
        let fit = fit.get();
        if let Some(c) = lab.scene.get() {
            if fit.width > 0.0 {
                c.set_width((fit.width * pixel_ratio()).round() as u32);
                let _ = c.set_attribute("data-zoom", &fit.zoom.to_string());
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
