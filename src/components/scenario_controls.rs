use std::sync::atomic::{AtomicUsize, Ordering};

use leptos::prelude::*;
use tellers_sim::fields::Control;
use tellers_sim::scenario::Field;
use tellers_sim::Scenario;

use crate::controls::{
    a_spike, add_row_note, box_problem, can_add_row, can_remove_row, choice_value, control_field,
    control_items, edit_row, field_value, schedule_rows, try_choice, try_field, with_box,
    with_choice, with_one_more_row, with_schedule_rows, ControlItem,
};
use crate::format::{fmt_setting, fmt_tick};
use crate::page_change::focus_if_lost;

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
    let items = Memo::new(move |_| control_items(&fields.get()));
    view! {
        <div class="controls">
            <For each=move || items.get() key=|i| *i let:item>
                {
                    match item {
                        ControlItem::Heading(h) => view! { <h3 class="controls__group">{h}</h3> }.into_any(),
                        ControlItem::Field(name) => {
                            let id = format!("{prefix}-{name}");
                            match control_field(name) {
                                Some(f) => match f.control {
                                    Control::Select => view! { <ChoiceControl scenario field=f id /> }.into_any(),
                                    Control::Toggle => view! { <ToggleControl scenario field=f id /> }.into_any(),
                                    Control::NumberBox => view! { <SeedControl scenario field=f id /> }.into_any(),
                                    Control::ScheduleEditor => view! { <ScheduleEditor scenario field=f id /> }.into_any(),
                                    _ => view! { <SliderControl scenario field=f id /> }.into_any(),
                                },
                                None => ().into_any(),
                            }
                        }
                    }
                }
            </For>
        </div>
    }
}

/// Why a control's last change was refused (a rule between fields), shown
/// beside it until the scenario changes.
fn refusal(scenario: RwSignal<Scenario>) -> RwSignal<Option<String>> {
    let refused = RwSignal::new(None::<String>);
    Effect::new(move |_| {
        scenario.track();
        refused.set(None);
    });
    refused
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
    // What is wrong with the number in the box (kept until it is fixed),
    // or why the last slider move was refused (until the scenario changes).
    let problem = RwSignal::new(None::<String>);
    let refused = refusal(scenario);
    // A move or a number the scenario cannot take (a rule between fields)
    // says why beside the control; the run keeps the last good value.
    let set_slider = move |ev: leptos::ev::Event| {
        let Some(v) = tellers_sim::text::number(&event_target_value(&ev)) else {
            return;
        };
        match try_field(&scenario.get_untracked(), name, v) {
            Ok(next) => {
                problem.set(None);
                scenario.set(next);
            }
            Err(why) => {
                refused.set(Some(why));
                // The thumb goes back to the value the run keeps.
                let input = event_target::<web_sys::HtmlInputElement>(&ev);
                input.set_value(&value.get_untracked().to_string());
            }
        }
    };
    let set_box = move |text: String| match with_box(&scenario.get_untracked(), name, &text) {
        Ok(next) => {
            problem.set(None);
            scenario.set(next);
        }
        Err(why) => problem.set(Some(why)),
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
                    aria-valuetext=move || fmt_setting(field, value.get())
                    on:input=set_slider
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
                {move || match problem.get().or_else(|| refused.get()) {
                    Some(p) => view! { <span class="control__problem" role="alert">{p}</span> }.into_any(),
                    None => view! { <span aria-hidden="true">{range_note(field, value.get())}</span> }.into_any(),
                }}
            </div>
        </div>
    }
    .into_any()
}

/// The range under a slider: its span (`1–64`) while the value is on it;
/// when the value is beyond it (the box and links take the field's whole
/// range), the span and what the box takes, from the field table, so the
/// label never contradicts the number shown (it said "1–64" beside 1,024).
pub fn range_note(field: &Field, value: f64) -> String {
    let Control::Slider { min, max, .. } = field.control else {
        return String::new();
    };
    let span = format!("{}–{}", fmt_tick(min), fmt_tick(max));
    if (min..=max).contains(&value) {
        span
    } else {
        format!("Slider {span}; the box takes {}", field.allowed())
    }
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
    let refused = refusal(scenario);
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
                    match try_choice(&scenario.get_untracked(), name, &v) {
                        Ok(next) => scenario.set(next),
                        Err(why) => {
                            refused.set(Some(why));
                            // The select goes back to the choice the run keeps.
                            let select = event_target::<web_sys::HtmlSelectElement>(&ev);
                            select.set_value(&current.get_untracked());
                        }
                    }
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
            {move || refused.get().map(|p| view! { <span class="control__problem" role="alert">{p}</span> })}
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
    // A seed that is not allowed stays as typed, with what is wrong below.
    let problem = RwSignal::new(None::<String>);
    let note_id = format!("{id}-note");
    view! {
        <div class="control control--select" data-field=name>
            <label class="control__label" for=id.clone()>
                {field.label}
            </label>
            // Text, not type=number: a number box gives "" for "1e400" or
            // "-", so the note quoted an empty value the learner never typed.
            <input
                type="text"
                inputmode="numeric"
                spellcheck="false"
                autocomplete="off"
                id=id
                class="control__box control__box--wide"
                class:control__box--bad=move || problem.get().is_some()
                aria-invalid=move || problem.get().is_some().to_string()
                aria-describedby=note_id.clone()
                prop:value=move || choice_value(&scenario.get(), name)
                on:change=move |ev| {
                    let text = event_target_value(&ev);
                    let trouble = box_problem(&scenario.get_untracked(), name, &text);
                    if trouble.is_none() {
                        scenario.update(|s| *s = with_choice(s, name, text.trim()));
                    }
                    problem.set(trouble);
                }
            />
            <div class="control__range" id=note_id aria-live="polite">
                {move || problem.get().map(|p| view! { <span class="control__problem" role="alert">{p}</span> })}
            </div>
        </div>
    }
}

/// The load schedule: a few rows of "from this second, this many requests
/// per second", or a steady rate. Rows that do not make a schedule stay as
/// typed, with what is wrong beside them, until they are fixed.
#[component]
fn ScheduleEditor(
    /// The scenario.
    scenario: RwSignal<Scenario>,
    /// The schedule field.
    field: &'static Field,
    /// Element id.
    id: String,
) -> impl IntoView {
    // The rows as typed; they follow the scenario when it changes elsewhere.
    let rows = RwSignal::new(schedule_rows(&scenario.get_untracked()));
    let problem = RwSignal::new(None::<String>);
    Effect::new(move |_| {
        let from_scenario = schedule_rows(&scenario.get());
        if problem.get_untracked().is_none() {
            rows.set(from_scenario);
        }
    });
    let apply = move |next: Option<Vec<(f64, f64)>>| {
        match with_schedule_rows(&scenario.get_untracked(), next.as_deref()) {
            Ok(s) => {
                problem.set(None);
                scenario.set(s);
            }
            Err(e) => problem.set(Some(e)),
        }
        if let Some(r) = next {
            rows.set(r);
        }
    };
    let edit = move |i: usize, col: usize, text: String| {
        let edited = edit_row(&rows.get_untracked(), i, col, &text);
        match edited {
            Ok(r) => apply(Some(r)),
            Err(e) => problem.set(Some(e)),
        }
    };
    let note_id = format!("{id}-note");
    let table_note = note_id.clone();
    view! {
        <div class="control control--schedule" data-field=field.name id=id>
            <span class="control__label">{field.label}</span>
            {move || {
                let r = rows.get();
                if r.is_empty() {
                    view! {
                        <p class="control__range">"A steady rate: the arrival rate above."</p>
                        <button
                            type="button"
                            class="button button--small"
                            data-testid="schedule-add-spike"
                            on:click=move |_| {
                                // The button goes: the focus goes to the schedule's first box.
                                focus_if_lost(".control--schedule input");
                                apply(Some(a_spike(&scenario.get_untracked())));
                            }
                        >
                            "Add a load schedule"
                        </button>
                    }
                        .into_any()
                } else {
                    let n = r.len();
                    let rows_view = r
                        .into_iter()
                        .enumerate()
                        .map(|(i, (t, rate))| {
                            view! {
                                <tr>
                                    <td>
                                        <input
                                            type="text"
                                            inputmode="decimal"
                                            class="control__box"
                                            aria-label=format!("Step {}: from, seconds", i + 1)
                                            prop:value=t.to_string()
                                            on:change=move |ev| edit(i, 0, event_target_value(&ev))
                                        />
                                    </td>
                                    <td>
                                        <input
                                            type="text"
                                            inputmode="decimal"
                                            class="control__box"
                                            aria-label=format!("Step {}: rate, requests per second", i + 1)
                                            prop:value=rate.to_string()
                                            on:change=move |ev| edit(i, 1, event_target_value(&ev))
                                        />
                                    </td>
                                    <td>
                                        <button
                                            type="button"
                                            class="button button--small"
                                            aria-label=format!("Remove step {}", i + 1)
                                            disabled=!can_remove_row(n)
                                            on:click=move |_| {
                                                let mut r = rows.get_untracked();
                                                r.remove(i);
                                                apply(Some(r));
                                            }
                                        >
                                            "×"
                                        </button>
                                    </td>
                                </tr>
                            }
                        })
                        .collect_view();
                    view! {
                        <table class="schedule" aria-describedby=table_note.clone()>
                            <thead>
                                <tr>
                                    <th scope="col">"From, s"</th>
                                    <th scope="col">"Rate, rps"</th>
                                    <th scope="col">
                                        <span class="visually-hidden">"Remove"</span>
                                    </th>
                                </tr>
                            </thead>
                            <tbody>{rows_view}</tbody>
                        </table>
                        <div class="schedule__actions">
                            <button
                                type="button"
                                class="button button--small"
                                data-testid="schedule-add-step"
                                disabled=!can_add_row(n)
                                on:click=move |_| apply(Some(with_one_more_row(&rows.get_untracked())))
                            >
                                "Add a step"
                            </button>
                            <button
                                type="button"
                                class="button button--small"
                                data-testid="schedule-steady"
                                on:click=move |_| {
                                    // The button goes: the focus goes to the one that adds a schedule again.
                                    focus_if_lost(".control--schedule button");
                                    rows.set(Vec::new());
                                    apply(None);
                                }
                            >
                                "Steady rate"
                            </button>
                            {add_row_note(n).map(|note| view! { <span class="control__hint" data-testid="schedule-full">{note}</span> })}
                        </div>
                    }
                        .into_any()
                }
            }}
            <div class="control__range" id=note_id aria-live="polite">
                {move || {
                    problem
                        .get()
                        .map(|p| view! { <span class="control__problem" role="alert">{p}</span> })
                }}
            </div>
        </div>
    }
}

#[cfg(test)]
mod tests {
    use super::range_note;
    use crate::controls::{control_field, field_value};
    use tellers_sim::query::from_query;
    use tellers_sim::scenario::FIELDS;
    use tellers_sim::Scenario;

    /// `?cores=1024&threads=100000` is allowed: the labels say what the
    /// box takes beside values past the slider, not "1–64" and "1–400".
    #[test]
    fn a_range_note_never_contradicts_the_value_shown() {
        let (s, notices) = from_query("cores=1024&threads=100000");
        assert!(notices.is_empty(), "{notices:?}");
        let note = |name: &str| range_note(control_field(name).unwrap(), field_value(&s, name));
        assert_eq!(note("cores"), "Slider 1–64; the box takes 1–1,024 cores");
        assert_eq!(
            note("threads"),
            "Slider 1–400; the box takes 1–100,000 threads"
        );
        let base = Scenario::default();
        let usual = |name: &str| range_note(control_field(name).unwrap(), field_value(&base, name));
        assert_eq!(usual("cores"), "1–64");
        assert_eq!(usual("threads"), "1–400");
        // Below the slider too, and for an optional field, with its "off".
        let (low, _) = from_query("rps=0.5&queue_limit=5000");
        let note = |name: &str| range_note(control_field(name).unwrap(), field_value(&low, name));
        assert!(
            note("rps").starts_with("Slider 1–2,000; the box takes 0.001–"),
            "{}",
            note("rps")
        );
        assert!(
            note("queue_limit").ends_with("or 0 / none for off"),
            "{}",
            note("queue_limit")
        );
        // Every slider's default sits on it, so a fresh page shows spans only.
        for f in FIELDS
            .iter()
            .filter(|f| matches!(f.control, tellers_sim::fields::Control::Slider { .. }))
        {
            let n = range_note(f, f.number(&base));
            assert!(!n.starts_with("Slider"), "{}: {n}", f.name);
        }
    }
}
