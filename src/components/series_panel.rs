use leptos::html;
use leptos::prelude::*;

use crate::charts::{chart_summary, series_charts};
use crate::draw::{canvas_fit, draw_chart, draw_soon, Theme};
use crate::lab::Lab;
use tellers_sim::Scenario;

/// The run over time: requests in line and inside, the load (arriving,
/// finished, in time, retries), CPU busy, p99.
#[component]
pub fn SeriesPanel(
    /// The widget's lab.
    lab: Lab,
) -> impl IntoView {
    let refs = [
        NodeRef::<html::Canvas>::new(),
        NodeRef::<html::Canvas>::new(),
        NodeRef::<html::Canvas>::new(),
        NodeRef::<html::Canvas>::new(),
    ];
    let fits = refs.map(canvas_fit);
    // Each chart redrawn in a task of its own (see `draw_soon`) whenever the
    // run, the colours or its width change.
    for (i, (canvas, fit)) in refs.into_iter().zip(fits).enumerate() {
        let pending = StoredValue::new(false);
        // Whether the chart beside this one (0 and 1, 2 and 3) is on its
        // row, found for a width: reading it makes the browser lay out the
        // page, so it is read once a width, and only when asked.
        let row_at = StoredValue::new(None::<(f64, bool)>);
        Effect::new(move |_| {
            lab.report.track();
            lab.dark.track();
            fit.track();
            draw_soon(pending, move || {
                let (Some(c), Some(report), Some(dark), Some(fit)) = (
                    canvas.get_untracked(),
                    lab.report.try_get_untracked(),
                    lab.dark.try_get_untracked(),
                    fit.try_get_untracked(),
                ) else {
                    return;
                };
                let series = report.map(|r| r.series).unwrap_or_default();
                let Some(charts) = lab
                    .scenario
                    .try_with_untracked(|s| series_charts(&series, s))
                else {
                    return;
                };
                let same_row = || match row_at.get_value() {
                    Some((w, on_row)) if w == fit.width => on_row,
                    _ => {
                        let on_row = refs[i ^ 1]
                            .get_untracked()
                            .is_some_and(|p| p.offset_top() == c.offset_top());
                        row_at.set_value(Some((fit.width, on_row)));
                        on_row
                    }
                };
                let beside = charts
                    .get(i ^ 1)
                    .map(|(_, other)| (other, &same_row as &dyn Fn() -> bool));
                if let Some((label, chart)) = charts.get(i) {
                    let lay = draw_chart(&c, chart, &Theme::new(dark), fit, false, beside);
                    // Where the plot starts, for the tests that line charts up.
                    if let Some(lay) = lay {
                        let _ = c.set_attribute("data-plot-top", &lay.plot_top.to_string());
                    }
                    // The chart in words for a screen reader, which hears
                    // only the canvas's label: set here with each drawing.
                    let said = chart_summary(chart);
                    let label = if said.is_empty() {
                        (*label).to_owned()
                    } else {
                        format!("{label}: {said}")
                    };
                    let _ = c.set_attribute("aria-label", &label);
                }
            });
        });
    }
    let empty = Memo::new(move |_| {
        lab.report
            .with(|r| r.as_ref().is_none_or(|r| r.series.is_empty()))
    });
    view! {
        <figure class="panel panel--series">
            <div class="series-grid">
                {refs
                    .into_iter()
                    .zip(series_charts(&[], &Scenario::default()))
                    .map(|(r, (label, _))| {
                        view! {
                            <canvas
                                class="chart"
                                node_ref=r
                                width="480"
                                height="300"
                                role="img"
                                aria-label=label
                            ></canvas>
                        }
                    })
                    .collect_view()}
            </div>
            <figcaption>
                // Before a run the charts are bare axes, which read as
                // placeholders (a phone walk): say why they are empty.
                {move || empty.get().then(|| view! {
                    <strong data-testid="series-empty">"Nothing to draw yet: the charts fill in as the run goes. "</strong>
                })}
                "The run over time: counts and rates averaged over short intervals, each interval's p99 \
                 to within about 5 %. \u{201c}In line\u{201d} is the server's own line, for a thread or a loop; \
                 requests waiting at a dependency count in \u{201c}inside\u{201d}."
            </figcaption>
        </figure>
    }
}
