use leptos::prelude::*;

use crate::format::fmt_speed;
use crate::lab::{run_state_heard, run_status, Lab, RunState};
use crate::playground::{slider_from_speed, speed_from_slider, SPEEDS};

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
        run_status(
            lab.state.get(),
            lab.snapshot.get().t_s,
            &lab.scenario.get(),
            lab.report.get().as_ref(),
            &lab.theory.get(),
        )
    };
    let heard = Memo::new(move |_| run_state_heard(lab.state.get(), &status()));
    // While a run goes to its end the buttons say they are unavailable
    // (aria-disabled), and the lab ignores them, but they keep the focus: a disabled
    // button dropped it to the page, and Tab started again at the top.
    view! {
        <div class="run-controls" role="group" aria-label="Run the simulation">
            <button
                type="button"
                class="button button--primary"
                data-testid="play"
                aria-pressed=move || playing().to_string()
                aria-disabled=move || busy().to_string()
                on:click=move |_| lab.toggle_play()
            >
                {move || if playing() { "Pause" } else { "Play" }}
            </button>
            <button
                type="button"
                class="button"
                data-testid="step"
                aria-disabled=move || busy().to_string()
                on:click=move |_| lab.step()
            >
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
                            aria-disabled=move || busy().to_string()
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
                    min="0"
                    max=SPEEDS.len() - 1
                    step="1"
                    prop:value=move || slider_from_speed(lab.speed.get()).to_string()
                    aria-valuetext=move || format!("{} simulated time", fmt_speed(lab.speed.get()))
                    on:input=move |ev| {
                        if let Some(x) = tellers_sim::text::number(&event_target_value(&ev)) {
                            lab.speed.set(speed_from_slider(x));
                        }
                    }
                />
                <output data-testid="speed">{move || fmt_speed(lab.speed.get())}</output>
            </div>
            <p class="run-controls__status" data-testid="run-status" data-state=move || lab.state.get().name()>
                {status}
            </p>
            // Said: the state as it changes, and the whole line once the run
            // has ended (the line above changes with every frame).
            <p class="visually-hidden" role="status" data-testid="run-heard">
                {move || heard.get()}
            </p>
        </div>
    }
}
