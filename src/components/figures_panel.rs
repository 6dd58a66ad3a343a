use leptos::prelude::*;
use tellers_sim::report::Report;
use tellers_sim::signs::{read_signs, SignKind};

use crate::figures::{figure_rows, report_json, warming_up};
use crate::format::fmt_num;
use crate::lab::{Lab, RunState};

/// The figures: simulated beside theory, the reading-the-signs verdict,
/// and the report as JSON.
#[component]
pub fn FiguresPanel(
    /// The widget's lab.
    lab: Lab,
) -> impl IntoView {
    let report = Memo::new(move |_| lab.report.get().unwrap_or_default());
    let rows = move || figure_rows(&lab.scenario.get(), &report.get(), &lab.theory.get());
    let signs = move || {
        let r: Report = report.get();
        if r.completed == 0 && r.arrived == 0 {
            return vec![];
        }
        read_signs(&lab.scenario.get(), &r, &lab.theory.get())
    };
    let finished = move || lab.state.get() == RunState::Ended;
    view! {
        <section class="panel panel--figures" aria-label="Figures">
            <div class="signs" data-testid="signs" aria-live="polite">
                <h3>"Reading the signs"</h3>
                {move || {
                    let list = signs();
                    let r = report.get();
                    if warming_up(&r) && r.arrived > 0 {
                        let s = lab.scenario.get();
                        view! {
                            <p class="signs__empty">
                                {format!(
                                    "Warming up: the first {} s are not measured. The signs appear after.",
                                    fmt_num(s.duration_s * s.warmup, 1),
                                )}
                            </p>
                        }
                            .into_any()
                    } else if list.is_empty() {
                        view! { <p class="signs__empty">"Play or step the run to read its signs."</p> }.into_any()
                    } else {
                        view! {
                            <ul class="signs__list">
                                {list
                                    .into_iter()
                                    .map(|s| {
                                        let class = if s.kind == SignKind::Healthy {
                                            "sign sign--healthy"
                                        } else {
                                            "sign sign--warning"
                                        };
                                        view! {
                                            <li class=class data-sign=format!("{:?}", s.kind)>
                                                <strong>{s.title}</strong>
                                                " "
                                                <span>{s.detail}</span>
                                            </li>
                                        }
                                    })
                                    .collect_view()}
                            </ul>
                        }
                            .into_any()
                    }
                }}
            </div>
            <table class="figures" data-testid="figures">
                <caption>
                    {move || {
                        let s = lab.scenario.get();
                        let warm = if s.warmup > 0.0 {
                            format!(" (the first {} s are warm-up and not measured)", fmt_num(s.duration_s * s.warmup, 1))
                        } else {
                            String::new()
                        };
                        if finished() { format!("Figures of the whole run{warm}") } else { format!("Figures so far{warm}") }
                    }}
                </caption>
                <thead>
                    <tr>
                        <th scope="col">"Figure"</th>
                        <th scope="col">"Simulated"</th>
                        <th scope="col">"Theory"</th>
                    </tr>
                </thead>
                <tbody>
                    {move || {
                        rows()
                            .into_iter()
                            .map(|r| {
                                view! {
                                    <tr data-testid=r.key>
                                        <th scope="row">{r.label}</th>
                                        <td class="figures__sim">{r.sim}</td>
                                        <td class="figures__theory">{r.theory}</td>
                                    </tr>
                                }
                            })
                            .collect_view()
                    }}
                </tbody>
            </table>
            <details class="report-json">
                <summary>"Report as JSON"</summary>
                <pre data-testid="report-json" data-final=move || finished().to_string()>
                    {move || report_json(&report.get())}
                </pre>
            </details>
        </section>
    }
}
