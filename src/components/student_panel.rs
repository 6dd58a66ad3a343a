use leptos::prelude::*;

use crate::progress::{ProgressRead, ProgressWrite};

/// Who is working: a class code and a name give each student their own
/// numbers; progress can be saved to a file for the teacher.
#[component]
pub fn StudentPanel() -> impl IntoView {
    let ProgressRead(progress) = expect_context();
    let record = expect_context::<ProgressWrite>();
    let class = RwSignal::new(progress.with_untracked(|p| p.student.class.clone()));
    let name = RwSignal::new(progress.with_untracked(|p| p.student.name.clone()));
    let save = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        record.set_student(&class.get_untracked(), &name.get_untracked());
    };
    let export_href = move || {
        let text = progress.with(|p| p.export());
        format!(
            "data:application/json;charset=utf-8,{}",
            js_sys::encode_uri_component(&text)
        )
    };
    let key_href = move || {
        format!(
            "#/lessons/answer-key?class={}",
            js_sys::encode_uri_component(&class.get())
        )
    };
    view! {
        <form class="student" on:submit=save aria-label="Your class and name">
            <label>
                "Class code"
                <input
                    type="text"
                    name="class"
                    maxlength="40"
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
            <a class="button" href=export_href download="tellers-progress.json" data-testid="export">
                "Save progress to a file"
            </a>
            <a class="student__key" href=key_href>
                "Teacher: answer key for this class"
            </a>
            <p class="student__hint">
                {move || {
                    progress
                        .with(|p| {
                            if p.student.class.is_empty() {
                                "Without a class code everyone sees the same numbers.".to_string()
                            } else {
                                format!(
                                    "Numbers for {} in class {}.",
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
