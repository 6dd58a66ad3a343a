use std::sync::atomic::{AtomicUsize, Ordering};

use leptos::prelude::*;
use tellers_sim::fields::Control;
use tellers_sim::scenario::Field;
use tellers_sim::Scenario;

use crate::controls::{
    box_problem, choice_value, control_field, field_value, with_choice, with_field,
};
use crate::format::{fmt_tick, fmt_value};

static NEXT_ID: AtomicUsize = AtomicUsize::new(0);

/// A prefix for element ids that is unique on the page, so two widgets
/// with the same slider do not share an id.
pub fn unique_prefix() -> String {
    format!("w{}", NEXT_ID.fetch_add(1, Ordering::Relaxed))
}

/// The controls for `fields` of a scenario, each made from its entry in the
/// simulator's field table: a slider with a number box, a select, a check
/// box or the seed box. Keyboard arrows move a slider.
#[component]
pub fn ScenarioControls(
    /// The scenario the controls change.
    scenario: RwSignal<Scenario>,
    /// Which fields to show, in order (see [`crate::controls::visible_controls`]).
    #[prop(into)]
    fields: Signal<Vec<&'static str>>,
) -> impl IntoView {
    let prefix = unique_prefix();
    view! {
        <div class="controls">
            <For each=move || fields.get() key=|f| *f let:name>
                {
                    let id = format!("{prefix}-{name}");
                    match control_field(name) {
                        Some(f) => match f.control {
                            Control::Select => view! { <ChoiceControl scenario field=f id /> }.into_any(),
                            Control::Toggle => view! { <ToggleControl scenario field=f id /> }.into_any(),
                            Control::NumberBox => view! { <SeedControl scenario field=f id /> }.into_any(),
                            _ => view! { <SliderControl scenario field=f id /> }.into_any(),
                        },
                        None => ().into_any(),
                    }
                }
            </For>
        </div>
    }
}

/// One slider with its number box, unit and range. A number box holding a
/// value that is not allowed keeps it, marks it and says what is allowed
/// beside it, until it is fixed; the run goes on with the last good value.
#[component]
fn SliderControl(
    /// The scenario.
    scenario: RwSignal<Scenario>,
    /// The field it sets.
    field: &'static Field,
    /// Element id of the slider.
    id: String,
) -> impl IntoView {
    let Control::Slider { min, max, step } = field.control else {
        return ().into_any();
    };
    let name = field.name;
    let value = Memo::new(move |_| field_value(&scenario.get(), name));
    let problem = RwSignal::new(None::<String>);
    let set_slider = move |text: String| {
        if let Ok(v) = text.trim().parse::<f64>() {
            problem.set(None);
            scenario.update(|s| *s = with_field(s, name, v));
        }
    };
    let set_box = move |text: String| {
        let trouble = box_problem(&scenario.get_untracked(), name, &text);
        if trouble.is_none() {
            if let Ok(v) = text.trim().replace(',', "").parse::<f64>() {
                scenario.update(|s| *s = with_field(s, name, v));
            }
        }
        problem.set(trouble);
    };
    let box_id = format!("{id}-box");
    let note_id = format!("{id}-note");
    let unit = field.unit;
    let label = field.label;
    view! {
        <div class="control" data-field=name>
            <label class="control__label" for=id.clone()>
                {label}
            </label>
            <div class="control__row">
                <input
                    type="range"
                    id=id
                    min=min
                    max=max
                    step=step
                    prop:value=move || value.get().to_string()
                    aria-valuetext=move || fmt_value(value.get(), unit)
                    on:input=move |ev| set_slider(event_target_value(&ev))
                />
                <input
                    type="text"
                    inputmode="decimal"
                    id=box_id
                    class="control__box"
                    class:control__box--bad=move || problem.get().is_some()
                    aria-invalid=move || problem.get().is_some().to_string()
                    aria-describedby=note_id.clone()
                    aria-label=format!("{label}, {}", if unit.is_empty() { "number" } else { unit })
                    prop:value=move || value.get().to_string()
                    on:change=move |ev| set_box(event_target_value(&ev))
                />
                <span class="control__unit">{unit}</span>
            </div>
            <div class="control__range" id=note_id aria-live="polite">
                {move || match problem.get() {
                    Some(p) => view! { <span class="control__problem" role="alert">{p}</span> }.into_any(),
                    None => view! { <span aria-hidden="true">{format!("{}–{}", fmt_tick(min), fmt_tick(max))}</span> }.into_any(),
                }}
            </div>
        </div>
    }
    .into_any()
}

/// A select over a field's choices: model, arrivals, distributions, how loops accept.
#[component]
fn ChoiceControl(
    /// The scenario.
    scenario: RwSignal<Scenario>,
    /// The field it sets.
    field: &'static Field,
    /// Element id.
    id: String,
) -> impl IntoView {
    let name = field.name;
    let current = Memo::new(move |_| choice_value(&scenario.get(), name));
    view! {
        <div class="control control--select" data-field=name>
            <label class="control__label" for=id.clone()>
                {field.label}
            </label>
            <select
                id=id
                prop:value=move || current.get()
                on:change=move |ev| {
                    let v = event_target_value(&ev);
                    scenario.update(|s| *s = with_choice(s, name, &v));
                }
            >
                {field
                    .choices()
                    .iter()
                    .map(|(value, label)| {
                        view! {
                            <option value=*value selected=move || current.get() == *value>
                                {*label}
                            </option>
                        }
                    })
                    .collect_view()}
            </select>
        </div>
    }
}

/// A check box for an on/off field.
#[component]
fn ToggleControl(
    /// The scenario.
    scenario: RwSignal<Scenario>,
    /// The field it sets.
    field: &'static Field,
    /// Element id.
    id: String,
) -> impl IntoView {
    let name = field.name;
    let on = Memo::new(move |_| choice_value(&scenario.get(), name) == "true");
    view! {
        <div class="control control--toggle" data-field=name>
            <input
                type="checkbox"
                id=id.clone()
                prop:checked=move || on.get()
                on:change=move |ev| {
                    let checked = event_target_checked(&ev);
                    scenario.update(|s| *s = with_choice(s, name, if checked { "true" } else { "false" }));
                }
            />
            <label class="control__label" for=id>
                {field.label}
            </label>
        </div>
    }
}

/// The random seed: the same seed gives the same run.
#[component]
fn SeedControl(
    /// The scenario.
    scenario: RwSignal<Scenario>,
    /// The seed field.
    field: &'static Field,
    /// Element id.
    id: String,
) -> impl IntoView {
    let name = field.name;
    view! {
        <div class="control control--select" data-field=name>
            <label class="control__label" for=id.clone()>
                {field.label}
            </label>
            <input
                type="number"
                id=id
                class="control__box control__box--wide"
                min="0"
                step="1"
                prop:value=move || choice_value(&scenario.get(), name)
                on:change=move |ev| {
                    let text = event_target_value(&ev);
                    scenario.update(|s| *s = with_choice(s, name, text.trim()));
                }
            />
        </div>
    }
}
