use leptos::html;
use leptos::prelude::*;

use crate::charts::{curve_chart, sweep_json};
use crate::draw::{draw_chart, Theme};
use crate::figures::curve_approx_note;
use crate::format::{fmt_ms, fmt_pct};
use crate::lab::Lab;
use tellers_sim::sweep::SWEEP_RHOS;

/// Size of the curve chart, CSS pixels.
const SIZE: (f64, f64) = (960.0, 440.0);

/// The utilisation → response-time curve: theory for one and for c
/// workers, simulated points, and where the scenario runs now.
#[component]
pub fn CurvePanel(
    /// The widget's lab.
    lab: Lab,
) -> impl IntoView {
    let canvas = NodeRef::<html::Canvas>::new();
    Effect::new(move |_| {
        let th = lab.theory.get();
        let points = lab.sweep.get();
        let report = lab.report.get();
        let dark = lab.dark.get();
        if let Some(c) = canvas.get() {
            let chart = curve_chart(&th, &points, report.as_ref());
            draw_chart(&c, &chart, &Theme::new(dark), SIZE.0, SIZE.1);
        }
    });
    let caption = move || {
        let th = lab.theory.get();
        let now = match (th.utilisation, th.mean_ms) {
            (Some(u), Some(m)) => format!(
                " This scenario runs at {} of its limit: theory says {} on average.",
                fmt_pct(u),
                fmt_ms(m)
            ),
            (Some(u), None) if u >= 1.0 => format!(
                " This scenario asks for {} of its limit: it is overloaded.",
                fmt_pct(u)
            ),
            _ => String::new(),
        };
        format!(
            "Response time as the line at {} gets busier ({}: {} of {} each).{now}",
            th.line_at,
            th.queue_model,
            if th.servers == 1 {
                "1 worker".to_owned()
            } else {
                format!("{} workers", th.servers)
            },
            fmt_ms(th.service_ms)
        )
    };
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
                width=SIZE.0
                height=SIZE.1
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
