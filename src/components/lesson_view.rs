use leptos::prelude::*;
use std::sync::Arc;
use wasm_bindgen::JsCast;

use super::{ExerciseCard, LessonSim, PredictBox, Prediction, WhoseNumbers};
use crate::reveal::{reveal_in_steps, steps_by_cost};
use crate::route::lesson_href;
use crate::session;
use tellers_course::{Course, Lesson, Segment};

/// What a segment costs to build, in paragraphs: a simulation (its
/// controls, picture and figures) is the costliest part of a lesson.
fn segment_cost(seg: &Segment) -> u32 {
    match seg {
        Segment::Html { .. } => 1,
        Segment::Predict { .. } | Segment::Exercise(_) => 2,
        Segment::Sim(_) => 4,
    }
}

/// Segments built with the lesson's heading, in paragraphs (see `segment_cost`).
const FIRST_STEP_COST: u32 = 2;
/// Segments built in each later step, after a frame, in paragraphs: a
/// simulation gets a step of its own.
const STEP_COST: u32 = 4;

/// How many of a lesson's segments are shown after each step of its reveal.
fn lesson_steps(segments: &[Segment]) -> Vec<usize> {
    let costs: Vec<u32> = segments.iter().map(segment_cost).collect();
    steps_by_cost(&costs, FIRST_STEP_COST, STEP_COST)
}

/// The predict box of each segment that is one, shared with the sim block
/// right after it (which compares its run with the guesses).
fn predictions(segments: &[Segment], slug: &str) -> Vec<Option<Prediction>> {
    segments
        .iter()
        .enumerate()
        .map(|(i, seg)| match seg {
            Segment::Predict { figures, when, .. } => Some(Prediction::new(
                figures.clone(),
                when.clone(),
                session::lesson_key(slug, i, "guess"),
            )),
            _ => None,
        })
        .collect()
}

/// The view of segment `i` of `lesson`.
fn segment_view(lesson: &Lesson, i: usize, predictions: &[Option<Prediction>]) -> AnyView {
    let (seg, slug) = (&lesson.segments[i], &lesson.slug);
    match seg {
        Segment::Html { html } => {
            view! { <div class="prose" inner_html=html.clone()></div> }.into_any()
        }
        Segment::Predict { html, .. } => match predictions.get(i).cloned().flatten() {
            Some(prediction) => view! { <PredictBox html=html.clone() prediction /> }.into_any(),
            None => ().into_any(),
        },
        Segment::Sim(block) => {
            let prediction = i
                .checked_sub(1)
                .and_then(|j| predictions.get(j).cloned().flatten());
            let key = session::lesson_key(slug, i, "settings");
            view! { <LessonSim block=block.clone() key prediction /> }.into_any()
        }
        Segment::Exercise(ex) => {
            let number = lesson.exercise_number(&ex.id).unwrap_or_default();
            view! { <ExerciseCard exercise=ex.clone() lesson=slug.to_string() number /> }.into_any()
        }
    }
}

/// Where the tab keeps presenter mode for lessons ("1" on), so that it
/// stays on from one lesson to the next.
const PRESENTER: &str = "tellers.lesson.presenter";

/// One lesson: its text, predict boxes, live simulations and exercises in
/// reading order, with previous / next links, print buttons and presenter
/// mode (for a projector: no site header, a wider column, type that grows
/// with the screen). With an exercise id, the page scrolls to that exercise.
#[component]
pub fn LessonView(
    /// The course.
    course: Arc<Course>,
    /// The lesson's slug (known to exist).
    slug: String,
    /// An exercise to scroll to.
    exercise: Option<String>,
    /// Presenter mode as the link sets it (`?presenter=1`), or the value it
    /// gave that is not 1 or 0; without it, as the tab last left it.
    presenter: Option<Result<bool, String>>,
    /// What the link gave that a lesson does not read, in sentences.
    ignored: Vec<String>,
) -> impl IntoView {
    let lessons = &course.lessons;
    let Some(i) = lessons.iter().position(|l| l.slug == slug) else {
        return view! { <p>"No such lesson."</p> }.into_any();
    };
    let lesson_index = i;
    let lesson = &lessons[i];
    let prev = i.checked_sub(1).map(|j| &lessons[j]);
    let next = lessons.get(i + 1);
    // A lesson is long: draw its first paragraph now and the rest in steps
    // by what they cost to build, each after a frame, so no single task
    // blocks the page (and a deep link still lands once all are drawn).
    let total = lesson.segments.len();
    let shown = reveal_in_steps(lesson_steps(&lesson.segments));
    let for_segments = course.clone();
    let predictions = StoredValue::new(predictions(&lesson.segments, &lesson.slug));
    let segments = view! {
        <For each=move || 0..shown.get() key=|i| *i let:i>
            {predictions.with_value(|p| segment_view(&for_segments.lessons[lesson_index], i, p))}
        </For>
    };
    // A link naming an exercise this lesson does not have (mistyped, or
    // from an older course) opens the lesson at its start and says so.
    let missing = exercise.as_ref().filter(|id| {
        !lesson
            .segments
            .iter()
            .any(|seg| matches!(seg, Segment::Exercise(ex) if &ex.id == *id))
    });
    let missing_notice = missing.map(|id| {
        view! {
            <p class="notice" role="status" data-testid="no-such-exercise">
                {format!(
                    "This link names an exercise, '{}', that this lesson does not have, so the lesson opens at its start.",
                    tellers_sim::text::clip(id)
                )}
            </p>
        }
    });
    if let Some(id) = exercise {
        // Once every segment is drawn, bring the linked exercise into view.
        Effect::new(move |done: Option<bool>| {
            if done == Some(true) || shown.get() < total {
                return done.unwrap_or(false);
            }
            request_animation_frame({
                let id = id.clone();
                move || {
                    // Someone already at work on the page keeps their place.
                    if !crate::page_change::focus_is_unclaimed() {
                        return;
                    }
                    if let Some(el) = document().get_element_by_id(&format!("ex-{id}")) {
                        el.scroll_into_view();
                        // The focus goes with it: Tab then moves through the
                        // exercise, not from the top of the page.
                        if let Some(el) = el.dyn_ref::<web_sys::HtmlElement>() {
                            let _ = el.focus();
                        }
                    }
                }
            });
            true
        });
    }
    let bad_presenter = presenter.clone().and_then(Result::err).map(|v| {
        view! {
            <p class="notice" role="status" data-testid="bad-presenter">
                {format!(
                    "This link's presenter={} is not on or off (1 or 0; on/off, yes/no and true/false are read too), so presenter mode is as this tab last left it.",
                    tellers_sim::text::clip(&v)
                )}
            </p>
        }
    });
    let ignored = (!ignored.is_empty()).then(|| {
        view! {
            <p class="notice" role="status" data-testid="link-ignored">
                {ignored.join(" ")}
            </p>
        }
    });
    let linked = presenter.and_then(Result::ok);
    let presenter =
        RwSignal::new(linked.unwrap_or_else(|| session::load(PRESENTER).as_deref() == Some("1")));
    // The tab remembers it for the next lesson, and the link says it, so a
    // teacher can keep a link that opens a lesson ready for the projector.
    let remember = |on: bool| session::save(PRESENTER, if on { "1" } else { "0" });
    match linked {
        Some(on) => remember(on),
        // On as the tab remembers it: the address says so too, so that a
        // teacher who copies it opens the lesson as the projector shows it.
        None if presenter.get_untracked() => crate::route::show_presenter_in_hash(true),
        None => {}
    }
    let toggle_presenter = move |_| {
        presenter.update(|p| *p = !*p);
        let on = presenter.get_untracked();
        remember(on);
        crate::route::show_presenter_in_hash(on);
    };
    let pager = move |l: Option<&tellers_course::Lesson>,
                      rel: &'static str,
                      label: &'static str| {
        l.map(|l| {
                let slug = l.slug.clone();
                view! {
                    <a
                        class="pager__link"
                        rel=rel
                        href=move || crate::route::with_presenter(&lesson_href(&slug, None), presenter.get())
                    >
                        <span class="pager__label">{label}</span>
                        <span>{format!("{}. {}", l.number, l.title)}</span>
                    </a>
                }
            })
    };
    view! {
        <article class="lesson" class:lesson--presenter=move || presenter.get() data-testid="lesson">
            <p class="eyebrow">
                <a href="#/lessons">"Lessons"</a>
                {format!(" · Lesson {} of {}", lesson.number, lessons.len())}
            </p>
            <h1>{lesson.title.clone()}</h1>
            <p class="lead">{lesson.summary.clone()}</p>
            {missing_notice}
            {bad_presenter}
            {ignored}
            <WhoseNumbers />
            <p class="lesson__print print-hide">
                <button class="button" on:click=move |_| { let _ = window().print(); }>
                    "Print this lesson"
                </button>
                <a class="button" href=format!("#/lessons/worksheet/{}", lesson.slug) data-testid="worksheet-link">
                    "Print a worksheet"
                </a>
                <button
                    class="button"
                    data-testid="lesson-presenter"
                    aria-pressed=move || presenter.get().to_string()
                    on:click=toggle_presenter
                >
                    {move || if presenter.get() { "Leave presenter mode" } else { "Presenter mode" }}
                </button>
            </p>
            {segments}
            <nav class="pager print-hide" aria-label="Previous and next lesson">
                {pager(prev, "prev", "Previous")}
                {pager(next, "next", "Next")}
            </nav>
        </article>
    }
    .into_any()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::course_data::compiled_course;

    /// A card's number is the one the answer key and the results give it,
    /// in the order the cards come.
    #[test]
    fn an_exercise_is_numbered_as_the_key_numbers_it() {
        for lesson in &compiled_course().lessons {
            let cards: Vec<String> = (0..lesson.segments.len())
                .filter_map(|i| match &lesson.segments[i] {
                    Segment::Exercise(ex) => lesson.exercise_number(&ex.id),
                    _ => None,
                })
                .collect();
            let key: Vec<String> = lesson.numbered_exercises().map(|(n, _)| n).collect();
            assert_eq!(cards, key, "{}", lesson.slug);
            assert!(!cards.is_empty(), "{}", lesson.slug);
        }
    }

    #[test]
    fn each_simulation_is_built_in_a_step_of_its_own_and_every_segment_is_shown() {
        for lesson in &compiled_course().lessons {
            let steps = lesson_steps(&lesson.segments);
            assert_eq!(
                steps.last(),
                Some(&lesson.segments.len()),
                "{}",
                lesson.slug
            );
            for pair in steps.windows(2) {
                let step = &lesson.segments[pair[0]..pair[1]];
                if step.iter().any(|s| matches!(s, Segment::Sim(_))) {
                    assert_eq!(step.len(), 1, "{}: a simulation shares a step", lesson.slug);
                }
            }
            // The heading's step holds no simulation.
            let first = &lesson.segments[..steps[0]];
            assert!(
                !first.iter().any(|s| matches!(s, Segment::Sim(_))),
                "{}",
                lesson.slug
            );
        }
    }
}
