use leptos::prelude::*;

use crate::classroom::{class_code_note, read_class_code};
use crate::progress::{ProgressRead, ProgressWrite};

/// Who is working: a class code and a name give each student their own
/// numbers; progress can be saved to a file for the teacher. A code that
/// looks mistyped gets a note (it is still used: a teacher may have chosen
/// it by hand, before class codes were made in Tellers).
#[component]
pub fn StudentPanel() -> impl IntoView {
    let ProgressRead(progress) = expect_context();
    let record = expect_context::<ProgressWrite>();
    let class = RwSignal::new(progress.with_untracked(|p| p.student.class.clone()));
    let name = RwSignal::new(progress.with_untracked(|p| p.student.name.clone()));
    let note = Memo::new(move |_| class.with(|c| class_code_note(c)));
    let save = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let code = read_class_code(&class.get_untracked());
        class.set(code.text().to_string());
        record.set_student(code.text(), &name.get_untracked());
    };
    let export_href = move || {
        let text = progress.with(|p| p.export());
        format!(
            "data:application/json;charset=utf-8,{}",
            js_sys::encode_uri_component(&text)
        )
    };
    let export_name = move || progress.with(|p| p.export_file_name());
    view! {
        <form class="student" on:submit=save aria-label="Your class and name">
            <label>
                "Class code"
                <input
                    type="text"
                    name="class"
                    maxlength="40"
                    autocomplete="off"
                    prop:value=class
                    on:input=move |ev| class.set(event_target_value(&ev))
                    data-testid="class-code"
                />
            </label>
            <label>
                "Your name"
                <input
                    type="text"
                    name="student"
                    maxlength="60"
                    prop:value=name
                    on:input=move |ev| name.set(event_target_value(&ev))
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
            <p class="student__hint">
                {move || {
                    progress
                        .with(|p| {
                            if p.student.class.is_empty() {
                                "Without a class code everyone sees the same numbers.".to_string()
                            } else {
                                format!(
                                    "Numbers for {} in class {}. Save your progress to a file to hand it to your teacher.",
                                    if p.student.name.is_empty() { "you" } else { &p.student.name },
                                    p.student.class,
                                )
                            }
                        })
                }}
            </p>
        </form>
    }
}
