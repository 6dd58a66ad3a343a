use leptos::prelude::*;
use std::sync::Arc;

use super::{ClassCodeField, KeyHonesty, TeacherHead};
use crate::answer::{key_left_out_note, key_lesson, student_key_html};
use crate::classroom::{
    key_access, key_opens, key_students, read_class_code, repeated_names, repeated_names_note,
    KeyAccess,
};
use crate::reveal::reveal_in_frames;
use crate::worksheet::{class_sheets_offer, printed_too_soon};
use tellers_course::Course;

/// The teacher's answer key for a class: for each student name, every
/// exercise (of one lesson, or all) with that student's numbers and the
/// answer. A class created in Tellers opens only with its teacher key; an
/// old class with a plain code opens with a notice saying anyone could.
/// Printable.
#[component]
pub fn AnswerKey(
    /// The course.
    course: Arc<Course>,
    /// The class code from the link.
    class: String,
    /// One lesson's slug, from the link; all lessons when `None`.
    lesson: Option<String>,
) -> impl IntoView {
    let class = RwSignal::new(class);
    let key = RwSignal::new(String::new());
    let opened = RwSignal::new(None::<String>);
    let refused = RwSignal::new(None::<String>);
    let (lesson, lesson_note) = key_lesson(&course, lesson.as_deref());
    let lesson = RwSignal::new(lesson);
    let names = RwSignal::new(String::new());
    let questions = RwSignal::new(false);
    // The students' tables drawn, of all listed: printing waits for them
    // (the key printed 2 of 60 tables when Print was pressed at once).
    let drawn = RwSignal::new((0_usize, 0_usize));
    let drawing = move || drawn.with(|&(shown, total)| shown < total);
    let access = Memo::new(move |_| opened.with(|o| key_access(&class.get(), o.as_deref())));

    let open = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let code = class.get_untracked();
        match key_opens(&key.get_untracked(), &code) {
            Ok(()) => {
                refused.set(None);
                opened.set(Some(read_class_code(&code).text().to_string()));
                key.set(String::new());
            }
            Err(why) => refused.set(Some(why)),
        }
    };
    let lessons: Vec<(String, String)> = course
        .lessons
        .iter()
        .map(|l| (l.slug.clone(), format!("{}. {}", l.number, l.title)))
        .collect();

    let key_form = move || {
        match access.get() {
        KeyAccess::AskCode => Some(
            view! {
                <p class="key__ask" role="status">"Type the class code."</p>
            }
            .into_any(),
        ),
        KeyAccess::AskKey(code) => Some(
            view! {
                <form class="key__form key__unlock print-hide" on:submit=open aria-label="Open the answer key">
                    <p class="key__ask">
                        {format!("Class {code} was created in Tellers: its answer key opens with the teacher key.")}
                    </p>
                    <label>
                        "Teacher key"
                        <input
                            type="password"
                            autocomplete="off"
                            spellcheck="false"
                            prop:value=key
                            on:input=move |ev| key.set(event_target_value(&ev))
                            data-testid="teacher-key"
                        />
                    </label>
                    <button type="submit" class="button button--primary">
                        "Open the key"
                    </button>
                    {move || {
                        refused
                            .get()
                            .map(|why| {
                                view! {
                                    <p class="feedback feedback--wrong" role="alert" data-testid="key-refused">
                                        {why}
                                    </p>
                                }
                            })
                    }}
                </form>
            }
            .into_any(),
        ),
        KeyAccess::Open { notice: Some(n), .. } => Some(
            view! {
                <p class="notice" role="status" data-testid="plain-code-notice">
                    {n}
                </p>
            }
            .into_any(),
        ),
        // Opened with the teacher key: said, as the form that had the
        // focus is gone (the names box takes it, below).
        KeyAccess::Open { notice: None, code } => Some(
            view! {
                <p class="print-hide" role="status" data-testid="key-opened">
                    {format!("The answer key of class {code} is open: list your students' names.")}
                </p>
            }
            .into_any(),
        ),
    }
    };

    // Once the teacher key opens the key, the names box has the focus (the
    // form that had it is gone, and the focus fell to the page's body).
    // Only when the key opens (not each time the box is drawn again, as
    // when the class code box is edited afterwards): the previous value
    // is the Effect's own.
    let names_box = NodeRef::<leptos::html::Textarea>::new();
    Effect::new(move |was_open: Option<bool>| {
        let open = opened.with(Option::is_some);
        if open && was_open == Some(false) {
            // The box is drawn in this same turn: focus it in the next frame.
            request_animation_frame(move || {
                if let Some(el) = names_box.get_untracked() {
                    let _ = el.focus();
                }
            });
        }
        open
    });

    let key_body = move || {
        let KeyAccess::Open { code, .. } = access.get() else {
            return None;
        };
        Some(view! {
            {lesson_note.clone().map(|note| view! { <p class="notice print-hide" role="status" data-testid="key-lesson-note">{note}</p> })}
            <div class="key__form print-hide">
                <label>
                    "Student names, one per line"
                    <textarea node_ref=names_box rows="4" prop:value=names on:input=move |ev| names.set(event_target_value(&ev)) data-testid="key-names"></textarea>
                </label>
                <label>
                    "Lessons"
                    <select prop:value=lesson on:change=move |ev| lesson.set(event_target_value(&ev)) data-testid="key-lesson">
                        <option value="">"All lessons"</option>
                        {lessons
                            .iter()
                            .cloned()
                            .map(|(slug, title)| view! { <option value=slug>{title}</option> })
                            .collect_view()}
                    </select>
                </label>
                <label class="key__check">
                    <input type="checkbox" prop:checked=questions on:change=move |ev| questions.set(event_target_checked(&ev)) data-testid="key-questions" />
                    "With the questions (longer to print)"
                </label>
                <button type="button" class="button" disabled=drawing on:click=move |_| { let _ = window().print(); } data-testid="key-print">
                    "Print the key"
                </button>
                {move || drawing().then(|| {
                    let (shown, total) = drawn.get();
                    view! { <span role="status" data-testid="key-preparing">{format!("Preparing the key: {shown} of {total} students…")}</span> }
                })}
            </div>
            <KeyTables course=course.clone() code lesson names questions drawn />
        })
    };

    view! {
        <section class="key" class:unready=drawing data-testid="answer-key">
            <p class="unready__note">
                {move || drawn.with(|&(shown, total)| printed_too_soon("the key", shown, total))}
            </p>
            <TeacherHead
                title="Answer key"
                lead="Each student who types the class code and their name gets their own numbers. \
                      List the names, one per line, to see every student's numbers and answers."
            />
            <div class="key__form print-hide">
                <ClassCodeField class test_id="key-class" />
            </div>
            {key_form}
            {key_body}
            <div class="print-hide">
                <KeyHonesty />
            </div>
        </section>
    }
}

/// Every listed student's table, one per animation frame, so a long class
/// list never blocks the page.
#[component]
fn KeyTables(
    course: Arc<Course>,
    /// The class code, as seeds use it.
    code: String,
    /// One lesson's slug, or "" for all.
    lesson: RwSignal<String>,
    /// The names typed, one per line.
    names: RwSignal<String>,
    /// Whether to show each question with the student's numbers.
    questions: RwSignal<bool>,
    /// Set to the tables drawn so far and the tables to draw.
    drawn: RwSignal<(usize, usize)>,
) -> impl IntoView {
    // Each name once, tidied as students' names are: "Ana  Souza" is Ana Souza.
    let listed = Memo::new(move |_| key_students(&names.get()));
    let students = Memo::new(move |_| {
        let mut names = listed.get().0;
        if names.is_empty() {
            names.push(String::new());
        }
        names
    });
    let left_out = move || {
        key_left_out_note(listed.get().1).map(|note| {
            view! {
                <p class="notice" role="status" data-testid="key-left-out">
                    {note}
                </p>
            }
        })
    };
    // A name listed twice is kept once: said, so a teacher who counts 25
    // and reads 24 knows which.
    let repeated = move || {
        names
            .with(|n| repeated_names_note(&repeated_names(n)))
            .map(|note| {
                view! {
                    <p class="notice print-hide" role="status" data-testid="key-repeated">
                        {note}
                    </p>
                }
            })
    };
    // With one lesson picked, every listed student's worksheet in one print.
    let sheets = {
        let code = code.clone();
        move || {
            let offer = listed.with(|(names, left_out)| {
                lesson.with(|l| class_sheets_offer(l, &code, names, *left_out))
            })?;
            Some(view! {
                <p class="print-hide key__sheets" data-testid="key-class-worksheets">
                    {match offer.href {
                        Some(href) => {
                            view! {
                                <a class="button" href=href target="_blank" rel="noopener">
                                    {offer.text}
                                    <span class="visually-hidden">" (opens in a new tab)"</span>
                                </a>
                            }
                                .into_any()
                        }
                        None => offer.text.into_any(),
                    }}
                </p>
            })
        }
    };
    let tables = move || {
        let list = students.get();
        let slug = lesson.get();
        let questions = questions.get();
        let total = list.len();
        let shown = reveal_in_frames(1, total, 1);
        Effect::new(move |_| drawn.set((shown.get(), total)));
        let course = course.clone();
        let code = code.clone();
        view! {
            <For
                each=move || list.clone().into_iter().take(shown.get()).enumerate()
                key=|(i, name)| format!("{i}/{name}")
                let:student
            >
                <div inner_html=student_key_html(&course, &code, &student.1, &slug, questions)></div>
            </For>
        }
    };
    view! {
        {sheets}
        {left_out}
        {repeated}
        <div data-testid="key-tables">{tables}</div>
    }
}
