use leptos::html;
use leptos::prelude::*;

use super::NoteFolded;
use crate::charts::{curve_chart, sweep_json, sweep_progress, CurveLines};
use crate::draw::{canvas_fit, draw_chart, draw_soon, Theme};
use crate::figures::{curve_approx_fold, curve_caption};
use crate::format::units_kept;
use crate::lab::Lab;
use tellers_sim::sweep::{curve_theory, SWEEP_RHOS};

/// The utilisation → response-time curve: theory for one and for c
/// workers, simulated points, and where the scenario runs now.
#[component]
pub fn CurvePanel(
    /// The widget's lab.
    lab: Lab,
) -> impl IntoView {
    let canvas = NodeRef::<html::Canvas>::new();
    let fit = canvas_fit(canvas);
    // Redrawn whenever theory, the sweep, the run, the colours or the width
    // change, in a task of its own (see `draw_soon`).
    let pending = StoredValue::new(false);
    let lines = StoredValue::new(CurveLines::default());
    // The theory of the curve's own points, once a scenario: its lines,
    // their labels and the caption's model and note.
    let points_th = Memo::new(move |_| curve_theory(&lab.scenario.get(), &lab.theory.get()));
    // Bumped while a scenario's theory lines are being computed, a few points a draw.
    let more = RwSignal::new(0_usize);
    Effect::new(move |_| {
        more.track();
        lab.scenario.track();
        lab.theory.track();
        lab.sweep.track();
        lab.report.track();
        lab.dark.track();
        fit.track();
        draw_soon(pending, move || {
            let (
                Some(c),
                Some(s),
                Some(th),
                Some(points_th),
                Some(points),
                Some(report),
                Some(dark),
                Some(fit),
            ) = (
                canvas.get_untracked(),
                lab.scenario.try_get_untracked(),
                lab.theory.try_get_untracked(),
                points_th.try_get_untracked(),
                lab.sweep.try_get_untracked(),
                lab.report.try_get_untracked(),
                lab.dark.try_get_untracked(),
                fit.try_get_untracked(),
            )
            else {
                return;
            };
            if lines.try_update_value(|l| l.add_one(&s, &points_th)) == Some(false) {
                more.update(|n| *n += 1);
            }
            let chart = lines.with_value(|l| curve_chart(&th, l.shown(), &points, report.as_ref()));
            draw_chart(&c, &chart, &Theme::new(dark), fit, true, None);
        });
    });
    let caption = move || curve_caption(&lab.theory.get(), &points_th.get());
    // The theory note's fold stays as the learner left it when theory changes.
    let approx_open = RwSignal::new(false);
    let progress = move || {
        lab.sweep_missed.with(|missed| {
            sweep_progress(
                lab.sweep.get().len(),
                SWEEP_RHOS.len(),
                lab.sweeping.get(),
                missed,
            )
        })
    };
    view! {
        <figure class="panel panel--curve">
            <canvas
                class="chart"
                node_ref=canvas
                width="960"
                height="460"
                // Its caption is the figure's: labelled too, it was read twice.
                aria-hidden="true"
                data-testid="curve-canvas"
                data-points=move || lab.sweep.get().len().to_string()
                data-sweeping=move || lab.sweeping.get().to_string()
                data-sweep=move || sweep_json(&lab.sweep.get())
            ></canvas>
            <figcaption>
                {move || units_kept(&caption())}
                " "
                <span class="muted" data-testid="sweep-progress">
                    {progress}
                </span>
                <div data-testid="curve-approx">
                    {move || {
                        curve_approx_fold(&points_th.get(), &lab.theory.get())
                            .map(|fold| view! { <NoteFolded fold open=approx_open /> })
                    }}
                </div>
            </figcaption>
        </figure>
    }
}
