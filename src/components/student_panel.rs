use leptos::prelude::*;

use crate::classroom::{class_code_note, suggested_code, CLASS_MAX, NAME_MAX};
use crate::progress::{ProgressRead, ProgressWrite};

/// Who is working: a class code and a name give each student their own
/// numbers, taken as they are typed (so leaving the page never loses
/// them); progress can be saved to a file for the teacher. A code that
/// looks mistyped gets a note (it is still used: a teacher may have chosen
/// it by hand, before class codes were made in Tellers).
#[component]
pub fn StudentPanel() -> impl IntoView {
    let ProgressRead(progress) = expect_context();
    let record = expect_context::<ProgressWrite>();
    let LinkedClass(linked) = expect_context();
    let class = RwSignal::new(progress.with_untracked(|p| p.student.class.clone()));
    let name = RwSignal::new(progress.with_untracked(|p| p.student.name.clone()));
    let note = Memo::new(move |_| class.with(|c| class_code_note(c)));
    // The Tellers code a code typed without its hyphen (or with O for 0)
    // means: one press uses it. Never read so by itself: a hand-chosen
    // code keeps its numbers.
    let suggested = Memo::new(move |_| class.with(|c| suggested_code(c)));
    // Every keystroke: these are the numbers from now on.
    let apply = move || record.set_student(&class.get_untracked(), &name.get_untracked());
    // Leaving a box, or pressing the button: the boxes show what is kept
    // (a code made in Tellers in capitals, spaces tidied).
    let tidy_boxes = move || {
        progress.with_untracked(|p| {
            class.set(p.student.class.clone());
            name.set(p.student.name.clone());
        })
    };
    // The code a teacher's link gave, said once, in the panel that took it
    // (it came back after each visit to a lesson, the student's own code
    // or name typed since); a link followed while the panel is open shows
    // in its boxes.
    let from_link = RwSignal::new(linked.get_untracked());
    Effect::new(move |_| {
        if let Some(code) = linked.get() {
            from_link.set(Some(code));
            linked.set(None);
            tidy_boxes();
        }
    });
    let save = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        apply();
        tidy_boxes();
    };
    let export_href = move || {
        let text = progress.with(|p| p.progress().export());
        format!(
            "data:application/json;charset=utf-8,{}",
            js_sys::encode_uri_component(&text)
        )
    };
    let export_name = move || progress.with(|p| p.progress().export_file_name());
    view! {
        <form class="student" on:submit=save aria-label="Your class and name">
            <label>
                "Class code"
                <input
                    type="text"
                    name="class"
                    maxlength=CLASS_MAX.to_string()
                    autocomplete="off"
                    prop:value=class
                    on:input=move |ev| {
                        class.set(event_target_value(&ev));
                        apply();
                    }
                    on:change=move |_| tidy_boxes()
                    data-testid="class-code"
                />
            </label>
            <label>
                "Your name"
                <input
                    type="text"
                    name="student"
                    maxlength=NAME_MAX.to_string()
                    prop:value=name
                    on:input=move |ev| {
                        name.set(event_target_value(&ev));
                        apply();
                    }
                    on:change=move |_| tidy_boxes()
                    data-testid="student-name"
                />
            </label>
            <button type="submit" class="button">
                "Use my numbers"
            </button>
            <a class="button" href=export_href download=export_name data-testid="export">
                "Save progress to a file"
            </a>
            {move || {
                note.get()
                    .map(|n| {
                        view! {
                            <p class="student__note" role="status" data-testid="class-code-note">
                                {n}
                            </p>
                        }
                    })
            }}
            {move || {
                suggested
                    .get()
                    .map(|code| {
                        let use_it = code.clone();
                        view! {
                            <button
                                type="button"
                                class="button"
                                data-testid="use-suggested-code"
                                on:click=move |_| {
                                    class.set(use_it.clone());
                                    apply();
                                    tidy_boxes();
                                }
                            >
                                {format!("Use {code}")}
                            </button>
                        }
                    })
            }}
            {move || {
                from_link
                    .get()
                    .map(|code| {
                        view! {
                            <p class="student__note" role="status" data-testid="class-from-link">
                                {format!("Class code {code}, from your teacher's link: type your name to get your own numbers.")}
                            </p>
                        }
                    })
            }}
            <p class="student__hint" data-testid="student-status">
                {move || progress.with(|p| p.student.status())}
            </p>
        </form>
    }
}

/// The class code the last teacher's link gave in this visit to the
/// lessons, for the student panel's note.
#[derive(Clone, Copy)]
pub struct LinkedClass(RwSignal<Option<String>>);

/// A teacher's link (`#/lessons?class=CODE`, or a lesson's with `class=`)
/// fills in the class code beside the student's name, when the lessons
/// open and each time the address changes while they are open (a link
/// pasted into a tab already on the lessons was ignored until a reload):
/// the address loses it, so a reload keeps what the student types next.
/// Provides [`LinkedClass`]; needs the progress
/// ([`crate::progress::provide_progress`]).
pub fn take_class_from_links() {
    let ProgressRead(progress) = expect_context();
    let record = expect_context::<ProgressWrite>();
    let linked = RwSignal::new(None);
    provide_context(LinkedClass(linked));
    let take = move || {
        let hash = crate::route::shown_hash();
        let Some(code) = crate::route::class_from_link(&hash) else {
            return;
        };
        let name = progress.with_untracked(|p| p.student.name.clone());
        record.set_student(&code, &name);
        crate::route::replace_hash(&crate::route::without_class(&hash));
        linked.set(Some(code));
    };
    take();
    crate::route::on_hash_change(take);
}

/// Whose numbers a lesson's exercises use, at the top of every lesson and
/// worksheet: "Numbers for Ana Souza · SD-101", or the shared numbers, with
/// the way to the student panel.
#[component]
pub fn WhoseNumbers() -> impl IntoView {
    let ProgressRead(progress) = expect_context();
    view! {
        <p class="whose" data-testid="whose-numbers">
            {move || progress.with(|p| p.student.whose_numbers())}
            " "
            <a class="print-hide" href="#/lessons">
                {move || {
                    progress.with(|p| {
                        if p.student.class.is_empty() {
                            "Have a class code?"
                        } else if suggested_code(&p.student.class).is_some() {
                            // A Tellers code typed without its hyphen or
                            // with O for 0, said where the numbers are used
                            // (the lessons said nothing). Not for any code
                            // shaped like one: a hand-chosen PHYS-2026 is fine.
                            "Check your class code"
                        } else {
                            "Change"
                        }
                    })
                }}
            </a>
        </p>
    }
}
