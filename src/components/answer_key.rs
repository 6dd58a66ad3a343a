use leptos::prelude::*;
use std::sync::Arc;

use crate::answer::answer_text;
use crate::progress::student_seed;
use tellers_course::Course;

/// Raise `shown` toward `total`, one each animation frame.
fn grow_each_frame(shown: RwSignal<usize>, total: usize) {
    request_animation_frame(move || {
        let more = shown.try_update(|n| {
            let grow = *n < total;
            *n = (*n + 1).min(total);
            grow
        });
        if more == Some(true) {
            grow_each_frame(shown, total);
        }
    });
}

/// The teacher's answer key for a class code: for each student name, every
/// exercise with that student's numbers and the answer. Printable.
#[component]
pub fn AnswerKey(
    /// The course.
    course: Arc<Course>,
    /// The class code from the link.
    class: String,
) -> impl IntoView {
    let class = RwSignal::new(class);
    let names = RwSignal::new(String::new());
    let students = Memo::new(move |_| {
        let mut names: Vec<String> = names
            .get()
            .lines()
            .map(|n| n.trim().to_string())
            .filter(|n| !n.is_empty())
            .take(200)
            .collect();
        if names.is_empty() {
            names.push(String::new());
        }
        names
    });
    // One student's table per animation frame, so a long class list never
    // blocks the page.
    let shown = RwSignal::new(0usize);
    Effect::new(move |_| {
        let total = students.with(Vec::len);
        shown.set(0);
        grow_each_frame(shown, total);
    });
    let key = move || {
        let class = class.get();
        let n = shown.get();
        students
            .get()
            .into_iter()
            .take(n)
            .enumerate()
            .map(|(i, name)| (format!("{i}/{class}/{name}"), class.clone(), name))
            .collect::<Vec<_>>()
    };
    let student_view = move |class: String, name: String| {
        let seed = student_seed(&class, &name);
        let rows = course
            .exercises()
            .map(|(slug, e)| {
                let answer = answer_text(e, &seed);
                let prompt = e
                    .variant(&seed)
                    .map(|v| v.prompt)
                    .unwrap_or_else(|_| e.prompt.clone());
                view! {
                    <tr>
                        <td>{slug.to_string()}</td>
                        <td>{e.id.clone()}</td>
                        <td>{prompt}</td>
                        <td class="key__answer">{answer}</td>
                    </tr>
                }
            })
            .collect_view();
        let who = if name.is_empty() {
            "Students without a name".to_string()
        } else {
            name.clone()
        };
        view! {
            <section class="key__student">
                <h2>{who}</h2>
                <table class="key__table">
                    <thead>
                        <tr>
                            <th scope="col">"Lesson"</th>
                            <th scope="col">"Exercise"</th>
                            <th scope="col">"Question (their numbers)"</th>
                            <th scope="col">"Answer"</th>
                        </tr>
                    </thead>
                    <tbody>{rows}</tbody>
                </table>
            </section>
        }
    };
    view! {
        <section class="key" data-testid="answer-key">
            <p class="eyebrow">
                <a href="#/lessons">"Lessons"</a>
                " · For teachers"
            </p>
            <h1>"Answer key"</h1>
            <p class="lead">
                "Each student who types the class code and their name gets their own numbers. "
                "List the names, one per line, to see every student's numbers and answers."
            </p>
            <div class="key__form print-hide">
                <label>
                    "Class code"
                    <input type="text" prop:value=class on:input=move |ev| class.set(event_target_value(&ev)) data-testid="key-class" />
                </label>
                <label>
                    "Student names, one per line"
                    <textarea rows="4" prop:value=names on:input=move |ev| names.set(event_target_value(&ev)) data-testid="key-names"></textarea>
                </label>
                <button class="button" on:click=move |_| { let _ = window().print(); }>"Print the key"</button>
            </div>
            <For each=key key=|(k, _, _)| k.clone() let:student>
                {student_view(student.1, student.2)}
            </For>
        </section>
    }
}
