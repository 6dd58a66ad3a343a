use leptos::html;
use leptos::prelude::*;

use crate::charts::{curve_chart, sweep_json};
use crate::draw::{canvas_fit, draw_chart, Theme};
use crate::figures::{curve_approx_note, curve_caption};
use crate::lab::Lab;
use tellers_sim::sweep::SWEEP_RHOS;

/// The utilisation → response-time curve: theory for one and for c
/// workers, simulated points, and where the scenario runs now.
#[component]
pub fn CurvePanel(
    /// The widget's lab.
    lab: Lab,
) -> impl IntoView {
    let canvas = NodeRef::<html::Canvas>::new();
    let fit = canvas_fit(canvas);
    Effect::new(move |_| {
        let th = lab.theory.get();
        let points = lab.sweep.get();
        let report = lab.report.get();
        let dark = lab.dark.get();
        let fit = fit.get();
        if let Some(c) = canvas.get() {
            let chart = curve_chart(&th, &points, report.as_ref());
            draw_chart(&c, &chart, &Theme::new(dark), fit, true);
        }
    });
    let caption = move || curve_caption(&lab.theory.get());
    let progress = move || {
        let done = lab.sweep.get().len();
        if lab.sweeping.get() {
            format!("Simulating points: {done} of {}", SWEEP_RHOS.len())
        } else {
            format!(
                "{done} simulated {}",
                if done == 1 { "point" } else { "points" }
            )
        }
    };
    view! {
        <figure class="panel panel--curve">
            <canvas
                class="chart"
                node_ref=canvas
                width="960"
                height="460"
                role="img"
                aria-label=caption
                data-testid="curve-canvas"
                data-points=move || lab.sweep.get().len().to_string()
                data-sweeping=move || lab.sweeping.get().to_string()
                data-sweep=move || sweep_json(&lab.sweep.get())
            ></canvas>
            <figcaption>
                {caption}
                " "
                <span data-testid="curve-approx">
                    {move || curve_approx_note(&lab.theory.get()).unwrap_or_default()}
                </span>
                " "
                <span class="muted" data-testid="sweep-progress">
                    {progress}
                </span>
            </figcaption>
        </figure>
    }
}
