use std::sync::atomic::{AtomicUsize, Ordering};

use leptos::prelude::*;
use tellers_sim::Scenario;

use crate::playground::{
    choice_label, choice_value, choices, control, field_value, fmt_value, slider_min,
    threads_label, with_choice, with_field,
};

static NEXT_ID: AtomicUsize = AtomicUsize::new(0);

/// A prefix for element ids that is unique on the page, so two widgets
/// with the same slider do not share an id.
pub fn unique_prefix() -> String {
    format!("w{}", NEXT_ID.fetch_add(1, Ordering::Relaxed))
}

/// The sliders and selects for `fields` of a scenario. Each slider has a
/// label, a number box, its unit and its range; keyboard arrows move it.
#[component]
pub fn ScenarioControls(
    /// The scenario the controls change.
    scenario: RwSignal<Scenario>,
    /// Which fields to show, in order (see [`crate::playground::visible_controls`]).
    #[prop(into)]
    fields: Signal<Vec<&'static str>>,
) -> impl IntoView {
    let prefix = unique_prefix();
    view! {
        <div class="controls">
            <For each=move || fields.get() key=|f| *f let:field>
                {
                    let id = format!("{prefix}-{field}");
                    if choices(field).is_some() {
                        view! { <ChoiceControl scenario field id /> }.into_any()
                    } else if field == "seed" {
                        view! { <SeedControl scenario id /> }.into_any()
                    } else {
                        view! { <SliderControl scenario field id /> }.into_any()
                    }
                }
            </For>
        </div>
    }
}

/// One slider with its number box, unit and range.
#[component]
fn SliderControl(
    /// The scenario.
    scenario: RwSignal<Scenario>,
    /// The field it sets.
    field: &'static str,
    /// Element id of the slider.
    id: String,
) -> impl IntoView {
    let Some(c) = control(field) else {
        return ().into_any();
    };
    let value = Memo::new(move |_| field_value(&scenario.get(), field));
    let label = move || {
        if field == "threads" {
            threads_label(scenario.get().model)
        } else {
            c.label
        }
    };
    let set = move |text: String| {
        if let Ok(v) = text.trim().replace(',', "").parse::<f64>() {
            scenario.update(|s| *s = with_field(s, field, v));
        }
    };
    let set2 = set;
    let min = Memo::new(move |_| slider_min(&c, scenario.get().model));
    let box_id = format!("{id}-box");
    let unit = if c.unit == "0–1" { "" } else { c.unit };
    view! {
        <div class="control" data-field=field>
            <label class="control__label" for=id.clone()>
                {label}
            </label>
            <div class="control__row">
                <input
                    type="range"
                    id=id
                    min=move || min.get()
                    max=c.max
                    step=c.step
                    prop:value=move || value.get().to_string()
                    aria-valuetext=move || fmt_value(value.get(), unit)
                    on:input=move |ev| set(event_target_value(&ev))
                />
                <input
                    type="number"
                    id=box_id
                    class="control__box"
                    min=c.min.min(0.0)
                    max=c.box_max
                    step=c.step
                    aria-label=move || format!("{}, {}", label(), if unit.is_empty() { "number" } else { unit })
                    prop:value=move || value.get().to_string()
                    on:change=move |ev| set2(event_target_value(&ev))
                />
                <span class="control__unit">{unit}</span>
            </div>
            <div class="control__range" aria-hidden="true">
                {move || {
                    format!(
                        "{}–{}",
                        crate::playground::fmt_tick(min.get()),
                        crate::playground::fmt_tick(c.max),
                    )
                }}
            </div>
        </div>
    }
    .into_any()
}

/// A select: model, arrivals, distributions, how loops accept.
#[component]
fn ChoiceControl(
    /// The scenario.
    scenario: RwSignal<Scenario>,
    /// The field it sets.
    field: &'static str,
    /// Element id.
    id: String,
) -> impl IntoView {
    let options = choices(field).unwrap_or(&[]);
    let current = Memo::new(move |_| choice_value(&scenario.get(), field));
    view! {
        <div class="control control--select" data-field=field>
            <label class="control__label" for=id.clone()>
                {choice_label(field)}
            </label>
            <select
                id=id
                prop:value=move || current.get()
                on:change=move |ev| {
                    let v = event_target_value(&ev);
                    scenario.update(|s| *s = with_choice(s, field, &v));
                }
            >
                {options
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

/// The random seed: the same seed gives the same run.
#[component]
fn SeedControl(
    /// The scenario.
    scenario: RwSignal<Scenario>,
    /// Element id.
    id: String,
) -> impl IntoView {
    view! {
        <div class="control control--select" data-field="seed">
            <label class="control__label" for=id.clone()>
                "Seed (same seed, same run)"
            </label>
            <input
                type="number"
                id=id
                class="control__box control__box--wide"
                min="0"
                step="1"
                prop:value=move || scenario.get().seed.to_string()
                on:change=move |ev| {
                    if let Ok(seed) = event_target_value(&ev).trim().parse::<u64>() {
                        scenario.update(|s| s.seed = seed);
                    }
                }
            />
        </div>
    }
}
