use leptos::prelude::*;

use super::lessons_page::ProgressContext;
use crate::lab::run_in_slices;
use crate::lesson_route::lesson_href;
use tellers_course::exercise::report_value;
use tellers_course::{check, explain, format_number, Exercise, Kind, Verdict};
use tellers_sim::Simulation;

/// What the simulator said when asked to confirm an answer.
#[derive(Clone, Debug, PartialEq)]
enum SimCheck {
    Idle,
    Running,
    Done(String),
}

/// One exercise, checked on the spot: the question with this student's
/// numbers, an answer box (or options), hints one at a time, the worked
/// solution, and, where it applies, a run of the simulator that confirms it.
#[component]
pub fn ExerciseCard(
    /// The exercise as written in the lesson.
    exercise: Exercise,
    /// The slug of its lesson, for the deep link.
    lesson: String,
) -> impl IntoView {
    let ctx = expect_context::<ProgressContext>();
    let ex = StoredValue::new(exercise);
    let id = ex.with_value(|e| e.id.clone());
    let seed = Memo::new(move |_| ctx.progress.with(|p| p.student.seed()));
    let variant = Memo::new(move |_| ex.with_value(|e| e.variant(&seed.get())));
    let answer = RwSignal::new(String::new());
    let choice = RwSignal::new(None::<usize>);
    let feedback = RwSignal::new(None::<(bool, String)>);
    let hints_shown = RwSignal::new(0usize);
    let show_solution = RwSignal::new(false);
    let sim_check = RwSignal::new(SimCheck::Idle);
    let solved = {
        let id = id.clone();
        move || ctx.progress.with(|p| p.solved(&id))
    };
    // New numbers (another student) clear what was typed, and the option
    // picked: the options come in that student's order.
    Effect::new(move |_| {
        seed.track();
        choice.set(None);
        feedback.set(None);
        sim_check.set(SimCheck::Idle);
    });

    let check_answer = {
        let id = id.clone();
        move |ev: leptos::ev::SubmitEvent| {
            ev.prevent_default();
            let Ok(v) = variant.get_untracked() else {
                return;
            };
            // (right, message, counts as an attempt: a number or an option was given)
            let (ok, msg, attempted) = ex.with_value(|e| match e.kind {
                Kind::Numeric => {
                    let unit = e.unit.expect("validated at build time");
                    let expected = v.answer.unwrap_or(f64::NAN);
                    let verdict = check(
                        &answer.get_untracked(),
                        expected,
                        unit,
                        e.tolerance.unwrap_or(0.01),
                    );
                    let attempted = verdict != Verdict::Unreadable;
                    (
                        verdict == Verdict::Correct,
                        explain(&verdict, unit),
                        attempted,
                    )
                }
                Kind::Choice | Kind::Diagnosis => match choice.get_untracked() {
                    None => (false, "Pick one of the options first.".to_string(), false),
                    Some(i) => {
                        let right = Some(i) == v.correct;
                        let why = v.explain.get(i).cloned().unwrap_or_default();
                        (
                            right,
                            format!("{} {why}", if right { "Correct." } else { "Not this one." }),
                            true,
                        )
                    }
                },
            });
            if attempted {
                ctx.progress.update(|p| p.record_attempt(&id, ok));
            }
            feedback.set(Some((ok, msg)));
        }
    };

    let run_check = move |_| {
        let Ok(v) = variant.get_untracked() else {
            return;
        };
        let Some(Ok(scenario)) = ex.with_value(|e| e.check_scenario(&v.vars)) else {
            return;
        };
        let Ok(sim) = Simulation::new(&scenario) else {
            return;
        };
        sim_check.set(SimCheck::Running);
        let field = ex
            .with_value(|e| e.check_field.clone())
            .unwrap_or_else(|| "throughput_rps".into());
        let expected = v.answer;
        run_in_slices(sim, move |report| {
            let got = report_value(&report, &field).unwrap_or(f64::NAN);
            let shown = if field == "cpu_utilisation" {
                format!("{} %", format_number(got * 100.0))
            } else {
                format_number(got)
            };
            let text = match expected {
                Some(a) => format!(
                    "The simulator measured {} = {shown}; the formula gives {}.",
                    field.replace('_', " "),
                    format_number(a)
                ),
                None => format!(
                    "The simulator measured {} = {shown}.",
                    field.replace('_', " ")
                ),
            };
            sim_check.set(SimCheck::Done(text));
        });
    };

    let hint_id = id.clone();
    let body = move || {
        let v = match variant.get() {
            Ok(v) => v,
            Err(e) => return view! { <p class="feedback feedback--wrong">"This exercise could not be set up: " {e}</p> }.into_any(),
        };
        let (kind, options, unit, has_check, note) = ex.with_value(|e| {
            (
                e.kind,
                v.options.clone(),
                e.unit,
                e.check.is_some(),
                e.note.clone(),
            )
        });
        let hint_total = v.hints.len();
        let hints = v.hints.clone();
        let steps = v.solution.clone();
        let hint_id = hint_id.clone();
        let input = match kind {
            Kind::Numeric => view! {
                <label class="exercise__answer">
                    "Your answer"
                    <input
                        type="text"
                        inputmode="decimal"
                        autocomplete="off"
                        prop:value=answer
                        on:input=move |ev| answer.set(event_target_value(&ev))
                        data-testid="answer"
                    />
                    <span class="exercise__unit">{unit.map(|u| format!("Answer with {}.", u.accepted()))}</span>
                </label>
            }
            .into_any(),
            Kind::Choice | Kind::Diagnosis => {
                let name = format!("choice-{}", hint_id);
                options
                    .into_iter()
                    .enumerate()
                    .map(|(i, o)| {
                        view! {
                            <label class="exercise__option">
                                <input
                                    type="radio"
                                    name=name.clone()
                                    prop:checked=move || choice.get() == Some(i)
                                    on:change=move |_| choice.set(Some(i))
                                />
                                <span>{o}</span>
                            </label>
                        }
                    })
                    .collect_view()
                    .into_any()
            }
        };
        view! {
            <p class="exercise__prompt">{v.prompt.clone()}</p>
            {input}
            <div class="exercise__actions">
                <button type="submit" class="button button--primary" data-testid="check">
                    "Check"
                </button>
                <button
                    type="button"
                    class="button"
                    disabled=move || { hints_shown.get() >= hint_total }
                    on:click=move |_| {
                        hints_shown.update(|n| *n = (*n + 1).min(hint_total));
                        let shown = hints_shown.get_untracked() as u32;
                        ex.with_value(|e| ctx.progress.update(|p| p.record_hints(&e.id, shown)));
                    }
                >
                    {move || format!("Hint ({} of {})", (hints_shown.get() + 1).min(hint_total), hint_total)}
                </button>
                {(!steps.is_empty())
                    .then(|| {
                        view! {
                            <button type="button" class="button" on:click=move |_| show_solution.update(|s| *s = !*s)>
                                {move || if show_solution.get() { "Hide the solution" } else { "Show the worked solution" }}
                            </button>
                        }
                    })}
                {has_check
                    .then(|| {
                        view! {
                            <button
                                type="button"
                                class="button"
                                disabled=move || sim_check.get() == SimCheck::Running
                                on:click=run_check
                                data-testid="sim-check"
                            >
                                "Check it in the simulator"
                            </button>
                        }
                    })}
            </div>
            {move || {
                feedback
                    .get()
                    .map(|(ok, msg)| {
                        view! {
                            <p
                                class=if ok { "feedback feedback--right" } else { "feedback feedback--wrong" }
                                role="status"
                                data-testid="feedback"
                            >
                                {msg}
                            </p>
                        }
                    })
            }}
            {move || {
                (hints_shown.get() > 0)
                    .then(|| view! { <p class="exercise__label">"Hints"</p> })
            }}
            <ol class="exercise__hints">
                {move || {
                    hints.iter().take(hints_shown.get()).map(|h| view! { <li>{h.clone()}</li> }).collect_view()
                }}
            </ol>
            {move || {
                show_solution
                    .get()
                    .then(|| {
                        view! {
                            <p class="exercise__label">"Worked solution"</p>
                            <ol class="exercise__solution" aria-label="Worked solution">
                                {steps.iter().map(|s| view! { <li>{s.clone()}</li> }).collect_view()}
                            </ol>
                        }
                    })
            }}
            {move || match sim_check.get() {
                SimCheck::Idle => None,
                SimCheck::Running => Some(view! { <p class="sim-check">"Running the simulation…"</p> }.into_any()),
                SimCheck::Done(text) => Some(
                    view! {
                        <p class="sim-check" data-testid="sim-check-result">
                            {text} {note.clone().map(|n| format!(" {n}"))}
                        </p>
                    }
                        .into_any(),
                ),
            }}
        }
        .into_any()
    };
    let kind_label = ex.with_value(|e| match e.kind {
        Kind::Numeric => "Calculate",
        Kind::Choice => "Recall",
        Kind::Diagnosis => "Diagnose",
    });
    view! {
        <form class="exercise" id=format!("ex-{id}") on:submit=check_answer data-testid="exercise">
            <p class="exercise__kind">
                {kind_label}
                <a class="exercise__link" href=lesson_href(&lesson, Some(&id)) aria-label="Link to this exercise">
                    "#"
                </a>
                <span class="exercise__solved" aria-live="polite">
                    {move || if solved() { "✓ solved" } else { "" }}
                </span>
            </p>
            {body}
        </form>
    }
}
