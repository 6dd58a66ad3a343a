use leptos::prelude::*;

use crate::answer::{
    answer_with, check_answer, feedback_text, hint_label, kind_label, sim_check_message,
    sim_check_setup, Checked, Help,
};
use crate::lab::run_in_slices;
use crate::progress::{ProgressRead, ProgressWrite};
use crate::route::lesson_href;
use tellers_course::{Exercise, Kind};

/// What the simulator said when asked to confirm an answer.
#[derive(Clone, Debug, PartialEq)]
enum SimCheck {
    Idle,
    Running,
    Done(String),
    Failed(String),
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
    /// Its number as teachers see it (`4.2`: lesson 4's second exercise),
    /// shown on the card and naming its buttons, which a page has many of.
    number: String,
) -> impl IntoView {
    let ProgressRead(progress) = expect_context();
    let record = expect_context::<ProgressWrite>();
    let ex = StoredValue::new(exercise);
    let id = ex.with_value(|e| e.id.clone());
    let seed = Memo::new(move |_| progress.with(|p| p.seed()));
    let variant = Memo::new(move |_| ex.with_value(|e| e.variant(&seed.get())));
    let answer = RwSignal::new(String::new());
    let choice = RwSignal::new(None::<usize>);
    // The checked answer and whether it was solved before: its words are
    // put together where they are shown, so the help they point to follows
    // the hints opened since ("Try a hint." stayed beside every hint open).
    let feedback = RwSignal::new(None::<(Checked, bool)>);
    let hints_shown = RwSignal::new(0usize);
    let show_solution = RwSignal::new(false);
    let sim_check = RwSignal::new(SimCheck::Idle);
    let solved = {
        let id = id.clone();
        Memo::new(move |_| progress.with(|p| p.solved(&id)))
    };
    // New numbers (another student) clear what was typed, the option
    // picked (the options come in that student's order) and the help shown
    // for the last one; the help this student opened earlier (before a
    // reload) is open again, as their record counts it.
    let help_id = id.clone();
    Effect::new(move |_| {
        seed.track();
        let (hints, solution) = progress.with_untracked(|p| p.help_opened(&help_id));
        answer.set(String::new());
        choice.set(None);
        feedback.set(None);
        // No more than the exercise has, whatever storage says.
        hints_shown.set((hints as usize).min(ex.with_value(|e| e.hints.len())));
        show_solution.set(solution);
        sim_check.set(SimCheck::Idle);
    });

    // A verdict is about the answer it checked: once the learner changes
    // the answer or the option, it goes ("Correct." stayed beside a wrong
    // option picked after it).
    Effect::new(move |_| {
        answer.track();
        choice.track();
        feedback.set(None);
    });

    let on_submit = {
        let id = id.clone();
        move |ev: leptos::ev::SubmitEvent| {
            ev.prevent_default();
            let Ok(v) = variant.get_untracked() else {
                return;
            };
            let checked = ex.with_value(|e| {
                check_answer(e, &v, &answer.get_untracked(), choice.get_untracked())
            });
            if checked.counts {
                record.attempt(&id, checked.correct, checked.slip);
            }
            // "You solved it before" only beside an answer that was read
            // (after "Type a number, …" it read as if that were an answer).
            let solved_before = checked.counts && solved.get_untracked();
            let said = Some((checked, solved_before));
            if feedback.get_untracked() == said {
                // The same words again (the same wrong answer checked twice):
                // cleared for a frame, so a screen reader says them again.
                feedback.set(None);
                request_animation_frame(move || feedback.set(said));
            } else {
                feedback.set(said);
            }
        }
    };

    let run_check = move |_| {
        let Ok(v) = variant.get_untracked() else {
            return;
        };
        let sim = match ex.with_value(|e| sim_check_setup(e, &v)) {
            Ok(sim) => sim,
            Err(why) => return sim_check.set(SimCheck::Failed(why)),
        };
        sim_check.set(SimCheck::Running);
        run_in_slices(sim, move |report| {
            let text = ex.with_value(|e| sim_check_message(e, &report, v.answer));
            sim_check.set(SimCheck::Done(text));
        });
    };

    let hint_id = id.clone();
    let for_this = format!(" for exercise {number}");
    let check_name = format!("Check exercise {number}");
    let body = move || {
        let for_this = for_this.clone();
        let check_name = check_name.clone();
        let v = match variant.get() {
            Ok(v) => v,
            Err(e) => return view! { <p class="feedback feedback--wrong">"This exercise could not be set up: " {e}</p> }.into_any(),
        };
        let (kind, options, unit, no_limit, has_check) = ex.with_value(|e| {
            (
                e.kind,
                v.options.clone(),
                e.unit,
                e.no_limit,
                e.check.is_some(),
            )
        });
        let hint_total = v.hints.len();
        let hints = v.hints.clone();
        let steps = v.solution.clone();
        let hint_id = hint_id.clone();
        // The question names the choices' group and describes the answer box.
        let prompt_id = format!("prompt-{hint_id}");
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
                        aria-describedby=prompt_id.clone()
                        data-testid="answer"
                    />
                    <span class="exercise__unit">{unit.map(|u| answer_with(u, no_limit))}</span>
                </label>
            }
            .into_any(),
            Kind::Choice | Kind::Diagnosis => view! {
                <div role="radiogroup" aria-labelledby=prompt_id.clone()>
                    {option_inputs(format!("choice-{hint_id}"), options, choice)}
                </div>
            }
            .into_any(),
        };
        view! {
            <p class="exercise__prompt" id=prompt_id>{v.prompt.clone()}</p>
            {input}
            <div class="exercise__actions">
                <button type="submit" class="button button--primary" data-testid="check" aria-label=check_name>
                    "Check"
                </button>
                <button
                    type="button"
                    class="button"
                    // Every hint shown: unavailable, but focusable (a
                    // disabled button dropped the focus to the page).
                    aria-disabled=move || (hints_shown.get() >= hint_total).to_string()
                    on:click=move |_| {
                        if hints_shown.get_untracked() >= hint_total {
                            return;
                        }
                        hints_shown.update(|n| *n = (*n + 1).min(hint_total));
                        let shown = hints_shown.get_untracked() as u32;
                        ex.with_value(|e| record.hints(&e.id, shown));
                    }
                >
                    {move || hint_label(hints_shown.get(), hint_total)}
                    <span class="visually-hidden">{for_this.clone()}</span>
                </button>
                {(!steps.is_empty())
                    .then(|| {
                        let for_this = for_this.clone();
                        view! {
                            <button
                                type="button"
                                class="button"
                                aria-expanded=move || show_solution.get().to_string()
                                on:click=move |_| {
                                    show_solution.update(|s| *s = !*s);
                                    if show_solution.get_untracked() {
                                        ex.with_value(|e| record.solution(&e.id));
                                    }
                                }
                            >
                                {move || if show_solution.get() { "Hide the solution" } else { "Show the worked solution" }}
                                <span class="visually-hidden">{for_this}</span>
                            </button>
                        }
                    })}
                {has_check
                    .then(|| {
                        // The run shows the formula's answer beside the
                        // simulated figure: offered once the learner has
                        // solved the exercise or opened its solution, so
                        // it neither gives the answer away nor hides a
                        // look at it from the teacher's record.
                        let earned = move || solved.get() || show_solution.get();
                        // Why it is unavailable, said on the page (a
                        // title reached no keyboard, touch or screen reader).
                        let why = format!("why-{hint_id}");
                        view! {
                            <button
                                type="button"
                                class="button"
                                disabled=move || !earned()
                                // Running: unavailable, but it keeps the focus.
                                aria-disabled=move || (sim_check.get() == SimCheck::Running).to_string()
                                aria-describedby=why.clone()
                                on:click=move |ev| {
                                    if sim_check.get_untracked() != SimCheck::Running {
                                        run_check(ev)
                                    }
                                }
                                data-testid="sim-check"
                            >
                                "Check it in the simulator"
                                <span class="visually-hidden">{for_this.clone()}</span>
                            </button>
                            <p class="exercise__why muted" id=why>
                                {move || {
                                    (!earned())
                                        .then_some(
                                            "Solve it first (or open the worked solution), then compare your answer with a run.",
                                        )
                                }}
                            </p>
                        }
                    })}
            </div>
            // One status, there from the start: a screen reader hears what
            // is put in it (a region made with its text may be missed).
            <div class="exercise__said" role="status">
                {move || {
                    feedback
                        .get()
                        .map(|(checked, solved_before)| {
                            let help = Help::at(
                                hints_shown.get(),
                                ex.with_value(|e| e.hints.len()),
                                show_solution.get(),
                            );
                            let ok = checked.correct;
                            let msg = feedback_text(&checked, solved_before, help);
                            view! {
                                <p
                                    class=if ok { "feedback feedback--right" } else { "feedback feedback--wrong" }
                                    data-testid="feedback"
                                >
                                    {msg}
                                </p>
                            }
                        })
                }}
                {move || match sim_check.get() {
                    SimCheck::Running => Some(view! { <p class="sim-check">"Running the simulation…"</p> }.into_any()),
                    SimCheck::Done(text) => Some(
                        view! {
                            <p class="sim-check" data-testid="sim-check-result">
                                {text}
                            </p>
                        }
                            .into_any(),
                    ),
                    SimCheck::Idle | SimCheck::Failed(_) => None,
                }}
            </div>
            {move || {
                (hints_shown.get() > 0)
                    .then(|| view! { <p class="exercise__label">"Hints"</p> })
            }}
            // A hint opened is said as it appears.
            <ol class="exercise__hints" aria-live="polite">
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
                SimCheck::Idle | SimCheck::Running | SimCheck::Done(_) => None,
                SimCheck::Failed(why) => Some(
                    view! {
                        <p class="sim-check feedback--wrong" role="alert">
                            {why}
                        </p>
                    }
                        .into_any(),
                ),
            }}
        }
        .into_any()
    };
    let kind_label = ex.with_value(|e| format!("Exercise {number} · {}", kind_label(e.kind)));
    view! {
        <form class="exercise" id=format!("ex-{id}") tabindex="-1" on:submit=on_submit data-testid="exercise">
            // A heading each, so a screen reader's list of headings finds
            // every exercise under the lesson's "Exercises".
            <div class="exercise__kind">
                <h3 class="exercise__title">{kind_label}</h3>
                <a class="exercise__link print-hide" href=lesson_href(&lesson, Some(&id)) aria-label=format!("Link to exercise {number}")>
                    "#"
                </a>
                <span class="exercise__solved" aria-live="polite">
                    {move || if solved.get() { "✓ solved" } else { "" }}
                </span>
            </div>
            {body}
        </form>
    }
}

/// The options of a choice or diagnosis exercise, as radio buttons; `choice`
/// holds the index of the picked option in the order this student sees
/// them (`Variant::options`). The
/// one place options are laid out, so a change to how they are shown (an
/// order per student, say) stays here.
fn option_inputs(
    name: String,
    options: Vec<String>,
    choice: RwSignal<Option<usize>>,
) -> impl IntoView {
    options
        .into_iter()
        .enumerate()
        .map(|(i, o)| {
            view! {
                // Lettered as the answer key and the worksheet letter this
                // student's options, so a teacher's "C" is found on screen.
                <label class="exercise__option">
                    <input
                        type="radio"
                        name=name.clone()
                        prop:checked=move || choice.get() == Some(i)
                        on:change=move |_| choice.set(Some(i))
                    />
                    <b class="exercise__letter">{format!("{}.", crate::answer::option_letter(i))}</b>
                    <span>{o}</span>
                </label>
            }
        })
        .collect_view()
}
