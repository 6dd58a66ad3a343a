use leptos::prelude::*;

use crate::format::{fmt_num, fmt_speed};
use crate::lab::{Lab, RunState};
use crate::playground::{slider_from_speed, speed_from_slider};

/// Play, pause, step, speed, restart and "Run to the end", with a line
/// saying where the run stands.
#[component]
pub fn RunControls(
    /// The widget's lab.
    lab: Lab,
    /// Show "Run to the end" (the playground does; small lesson widgets may not).
    #[prop(optional)]
    run_to_end: bool,
) -> impl IntoView {
    let speed_id = format!("{}-speed", super::scenario_controls::unique_prefix());
    let playing = move || lab.state.get() == RunState::Playing;
    let busy = move || lab.state.get() == RunState::RunningToEnd;
    let status = move || {
        let t = lab.snapshot.get().t_s;
        let s = lab.scenario.get();
        let at = format!(
            "{} s of {} s simulated",
            fmt_num(t, 1),
            fmt_num(s.duration_s, 0)
        );
        match lab.state.get() {
            RunState::Playing => format!("Playing: {at}"),
            RunState::Paused => format!("Paused: {at}"),
            RunState::RunningToEnd => format!("Running to the end: {at}"),
            RunState::Ended => format!("Finished: {at}. The figures are final."),
        }
    };
    view! {
        <div class="run-controls" role="group" aria-label="Run the simulation">
            <button
                type="button"
                class="button button--primary"
                data-testid="play"
                aria-pressed=move || playing().to_string()
                disabled=busy
                on:click=move |_| lab.toggle_play()
            >
                {move || if playing() { "Pause" } else { "Play" }}
            </button>
            <button type="button" class="button" data-testid="step" disabled=busy on:click=move |_| lab.step()>
                "Step"
            </button>
            <button type="button" class="button" data-testid="restart" on:click=move |_| lab.restart()>
                "Restart"
            </button>
            {run_to_end
                .then(|| {
                    view! {
                        <button
                            type="button"
                            class="button"
                            data-testid="run-to-end"
                            disabled=busy
                            on:click=move |_| lab.run_to_end()
                        >
                            "Run to the end"
                        </button>
                    }
                })}
            <div class="run-controls__speed">
                <label for=speed_id.clone()>"Speed"</label>
                <input
                    type="range"
                    id=speed_id
                    min="-1"
                    max="2"
                    step="0.05"
                    prop:value=move || slider_from_speed(lab.speed.get()).to_string()
                    aria-valuetext=move || format!("{} simulated time", fmt_speed(lab.speed.get()))
                    on:input=move |ev| {
                        if let Ok(x) = event_target_value(&ev).parse::<f64>() {
                            lab.speed.set(speed_from_slider(x));
                        }
                    }
                />
                <output data-testid="speed">{move || fmt_speed(lab.speed.get())}</output>
            </div>
            <p class="run-controls__status" data-testid="run-status" data-state=move || format!("{:?}", lab.state.get()).to_lowercase()>
                {status}
            </p>
        </div>
    }
}
