use leptos::prelude::*;

use crate::classroom::{class_code, class_file, new_teacher_key, KEY_RANDOM_BYTES};
use crate::route::query_escape;

/// A new class: its code for students and the key the teacher keeps.
#[derive(Clone, Debug, PartialEq)]
struct NewClass {
    code: String,
    key: String,
}

/// A new class from the browser's random numbers, or why there is none.
fn create_class() -> Result<NewClass, String> {
    let mut random = [0u8; KEY_RANDOM_BYTES];
    window()
        .crypto()
        .and_then(|c| c.get_random_values_with_u8_array(&mut random))
        .map_err(|_| "This browser gave no random numbers to make a key with.".to_string())?;
    let key = new_teacher_key(&random);
    let code = class_code(&key)?;
    Ok(NewClass { code, key })
}

/// An address for a file to save, holding `text`: a `blob:` address, so
/// the text is not in the link (a `data:` link put the teacher key in the
/// status bar as the pointer passed over the button, with the key hidden).
/// The address is let go when the card that shows it goes.
fn file_address(text: &str) -> String {
    let blob_address = || {
        let options = web_sys::BlobPropertyBag::new();
        options.set_type("text/plain;charset=utf-8");
        let parts = js_sys::Array::of1(&text.into());
        let blob = web_sys::Blob::new_with_str_sequence_and_options(&parts, &options).ok()?;
        web_sys::Url::create_object_url_with_blob(&blob).ok()
    };
    match blob_address() {
        Some(address) => {
            let kept = address.clone();
            on_cleanup(move || {
                let _ = web_sys::Url::revoke_object_url(&kept);
            });
            address
        }
        None => format!(
            "data:text/plain;charset=utf-8,{}",
            js_sys::encode_uri_component(text)
        ),
    }
}

/// Where the tab keeps the class it created last, so that the card is
/// still there after a visit to the answer key or the results, or a reload.
const KEPT_CLASS: &str = "tellers.teacher.new-class";

/// The class this tab created last: its key, from which the code is made
/// again (anything else stored there is ignored).
fn kept_class() -> Option<NewClass> {
    let key = crate::session::load(KEPT_CLASS)?;
    let code = class_code(&key).ok()?;
    Some(NewClass { code, key })
}

/// For teachers, at `#/lessons/teacher`: create a class (a code for
/// students, a key for the teacher), and the ways to the answer key and
/// the class's results.
#[component]
pub fn TeacherPage() -> impl IntoView {
    let created = RwSignal::new(kept_class().map(Ok));
    // The key is hidden until asked, as a class is created too (a teacher
    // creating one in front of the class put it on the projector, 20 px):
    // "Save the code and key to a file" saves it unseen. A page projected
    // to show the class its code does not show the key.
    let key_shown = RwSignal::new(false);
    // The class code over the whole window, to be read from the back of
    // a room (on the card it is 36 px at 1080p); never the key.
    let projected = RwSignal::new(false);
    let project_button = NodeRef::<leptos::html::Button>::new();
    let create = move |_| {
        // A second class would take the first one's card off the page:
        // only once the teacher says so (both classes stay valid).
        let shown = matches!(created.get_untracked(), Some(Ok(_)));
        if shown
            && !window()
                .confirm_with_message(
                    "Create another class? This class's code and key leave this page \
                     (they still work): save them first.",
                )
                .unwrap_or(false)
        {
            return;
        }
        let made = create_class();
        if let Ok(class) = &made {
            crate::session::save(KEPT_CLASS, &class.key);
        }
        key_shown.set(false);
        created.set(Some(made));
    };
    let new_class = move || {
        created.get().map(|made| match made {
            Err(why) => view! { <p class="notice" role="alert">{why}</p> }.into_any(),
            Ok(class) => {
                let file = file_address(&class_file(&class.code, &class.key));
                view! {
                    <div class="class-card" data-testid="new-class">
                        <p class="class-card__label">"Class code, for your students"</p>
                        <p class="class-card__code" data-testid="new-class-code">{class.code.clone()}</p>
                        <p class="print-hide">
                            <button type="button" class="button" node_ref=project_button data-testid="project-code" on:click=move |_| {
                                // The key, if shown, is hidden before the
                                // projector shows the page.
                                key_shown.set(false);
                                projected.set(true);
                            }>
                                "Show the code large, for a projector"
                            </button>
                        </p>
                        <p class="class-card__label">"Teacher key, for you alone"</p>
                        {
                            let key = class.key.clone();
                            move || {
                                if key_shown.get() {
                                    view! {
                                        <p class="class-card__key" data-testid="new-teacher-key">{key.clone()}</p>
                                        <p>
                                            <button type="button" class="button" data-testid="hide-teacher-key" on:click=move |_| key_shown.set(false)>
                                                "Hide the key"
                                            </button>
                                        </p>
                                    }
                                        .into_any()
                                } else {
                                    view! {
                                        <p class="class-card__hidden" data-testid="teacher-key-hidden">
                                            "Hidden, so that it does not show on a projector: it opens every student's answers."
                                        </p>
                                        <p>
                                            <button type="button" class="button" data-testid="show-teacher-key" on:click=move |_| key_shown.set(true)>
                                                "Show the key"
                                            </button>
                                        </p>
                                    }
                                        .into_any()
                                }
                            }
                        }
                        <p>
                            "Tellers keeps them only until this tab closes: save them now. Without "
                            "the key the answer key will not open; you would create a new class."
                        </p>
                        <p class="class-card__actions">
                            <a class="button button--primary" href=file download=format!("tellers-class-{}.txt", class.code)>
                                "Save the code and key to a file"
                            </a>
                        </p>
                    </div>
                }
                .into_any()
            }
        })
    };
    // The site's address without its hash, for the students' link.
    let site = {
        let l = window().location();
        format!(
            "{}{}",
            l.origin().unwrap_or_default(),
            l.pathname().unwrap_or_default()
        )
    };
    let code = move || {
        created.with(|c| match c {
            Some(Ok(class)) => Some(class.code.clone()),
            _ => None,
        })
    };
    let steps = move || steps_html(code());
    let site_for_projector = site.clone();
    let link = move || {
        code().map(|c| {
            view! { <StudentsLink link=students_link(&c, &site) /> }
        })
    };
    view! {
        <section class="teacher" data-testid="teacher-page">
            <p class="eyebrow">
                <a href="#/lessons">"Lessons"</a>
                " · For teachers"
            </p>
            <h1>"Run a class"</h1>
            <p class="lead">
                "Each student types your class code and their name, and gets their own numbers. "
                "You keep a teacher key: it opens the answer key with every student's answers."
            </p>
            <h2>"1. Create the class"</h2>
            <p>
                // Once a class is shown, saving its code and key is the next
                // step: this button steps back from primary.
                <button
                    type="button"
                    class="button"
                    class:button--primary=move || !matches!(created.get(), Some(Ok(_)))
                    on:click=create
                    data-testid="create-class"
                >
                    {move || if matches!(created.get(), Some(Ok(_))) { "Create another class" } else { "Create a class" }}
                </button>
            </p>
            // Said as it appears: a screen reader hears the new code and
            // key, where before nothing was announced.
            <div role="status">{new_class}</div>
            {move || {
                let code = code().filter(|_| projected.get())?;
                let link = students_link(&code, &site_for_projector);
                Some(view! { <ProjectedCode code link projected back=project_button /> })
            }}
            <div inner_html=IN_CLASS_HTML></div>
            {link}
            <div inner_html=steps></div>
            <KeyHonesty />
        </section>
    }
}

/// The link for the students that fills in the class code (the lessons
/// read `?class=` once), written out to paste into a chat or onto a
/// slide, with a button that copies it.
fn students_link(code: &str, site: &str) -> String {
    format!("{site}#/lessons?class={}", query_escape(code))
}

/// Step 2's paragraph, which the students' link follows once a class is
/// created.
const IN_CLASS_HTML: &str = "<h2>2. In class</h2>\
<p>Students open the Lessons and type the class code and their name: from then on each lesson \
says “Numbers for” their name and shows their own numbers. Each lesson has a printable worksheet \
with their numbers.</p>";

/// The class code `code` and the students' `link`, large, over the whole
/// window, for a projector; Close or Escape sets `projected` to false and
/// gives the focus `back` to the button that opened it.
#[component]
fn ProjectedCode(
    code: String,
    link: String,
    projected: RwSignal<bool>,
    back: NodeRef<leptos::html::Button>,
) -> impl IntoView {
    let close_button = NodeRef::<leptos::html::Button>::new();
    let focus_close = move || {
        if let Some(b) = close_button.get_untracked() {
            let _ = b.focus();
        }
    };
    Effect::new(move |_| {
        if close_button.get().is_some() {
            focus_close();
        }
    });
    let close = move || {
        projected.set(false);
        if let Some(b) = back.get_untracked() {
            let _ = b.focus();
        }
    };
    // Escape closes it wherever the focus is (a click on the code moves
    // it to the page), and Tab stays on Close, its one control: the page
    // behind, with its Show the key button, is out of reach.
    let keys = window_event_listener(leptos::ev::keydown, move |ev| match ev.key().as_str() {
        "Escape" => close(),
        "Tab" => {
            ev.prevent_default();
            focus_close();
        }
        _ => {}
    });
    on_cleanup(move || keys.remove());
    view! {
        <div
            class="projector"
            role="dialog"
            aria-modal="true"
            aria-label="Class code"
            data-testid="projected-code"
        >
            <p class="class-card__label">"Class code"</p>
            <p class="projector__code">{code}</p>
            <p class="projector__link">{link}</p>
            <button type="button" class="button" node_ref=close_button on:click=move |_| close()>
                "Close"
            </button>
        </div>
    }
}

/// The students' link with its Copy button (the playground's Copy link
/// does the same for a scenario).
#[component]
fn StudentsLink(link: String) -> impl IntoView {
    let copied = RwSignal::new(String::new());
    let text = link.clone();
    let copy = move |_| crate::clipboard::copy_link(&text, copied);
    view! {
        <p>"Or give them this link, which fills in the code:"</p>
        <div class="class-link__row">
            <code class="class-link" data-testid="class-link">{link}</code>
            <button type="button" class="button" data-testid="copy-class-link" on:click=copy>
                "Copy the link"
            </button>
        </div>
        <p class="class-link__said" role="status" data-testid="class-link-copied">{move || copied.get()}</p>
    }
}

/// The rest of a class, step by step, after step 2 and the students'
/// link: its buttons open the class just created, `code`, when there is
/// one (else the pages ask for a code).
///
/// Once a class is created they open in new tabs, so that its card, with
/// the key to type there, stays open here. (The card once had buttons of
/// its own for the same two pages: two pairs, one opening a new tab and
/// one not, a screenshot review found.)
fn steps_html(code: Option<String>) -> String {
    // A link that opens a new tab says so to a screen reader.
    let (class, tab, said) = code.map_or((String::new(), "", ""), |c| {
        (
            format!("?class={}", query_escape(&c)),
            " target=\"_blank\" rel=\"noopener\"",
            "<span class=\"visually-hidden\"> (opens in a new tab)</span>",
        )
    });
    format!(
        "<h2>3. The answer key</h2>\
<p>Open the answer key, type your teacher key, then list your students' names: it shows each \
one's answers by lesson and exercise number (with their questions if you like), for one lesson or \
all, ready to print.</p>\
<p><a class=\"button\" href=\"#/lessons/answer-key{class}\"{tab}>Open the answer key{said}</a></p>\
<h2>4. The class's results</h2>\
<p>Students press “Save progress to a file” and give you the file. Drop all the files on the \
results page: one table, a row per student, ready to download as CSV, with the exercises most \
got wrong at first and the mistakes more than one student made. To show it on a projector, \
tick Hide names: students are numbered instead.</p>\
<p><a class=\"button\" href=\"#/lessons/results{class}\"{tab}>Class results{said}</a></p>\
<h2>5. On the projector</h2>\
<p>To show the class code, press Show the code large, for a projector, on the class's card: \
the code and the students' link fill the screen, and the key stays hidden. \
Each lesson and the playground have a Presenter mode button: larger type and no site header, \
and in the playground the scene, the signs and four key sliders on one screen. There, set up a \
scenario and press Copy link to share it or to open it again later.</p>"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_steps_open_the_class_just_created() {
        let site = "https://tellers.example/";
        let none = steps_html(None);
        assert!(none.contains("href=\"#/lessons/answer-key\">Open the answer key"));
        assert!(none.contains("href=\"#/lessons/results\">Class results"));
        // The projector's step names both presenter modes and the link.
        assert!(none.contains("<h2>5. On the projector</h2>") && none.contains("Copy link"));
        let made = steps_html(Some("K7Q2-MX4P".into()));
        // The students' link fills in the code.
        assert_eq!(
            students_link("K7Q2-MX4P", site),
            "https://tellers.example/#/lessons?class=K7Q2-MX4P"
        );
        let tab = " target=\"_blank\" rel=\"noopener\">";
        assert!(made.contains(&format!(
            "href=\"#/lessons/answer-key?class=K7Q2-MX4P\"{tab}Open the answer key"
        )));
        assert!(made.contains(&format!(
            "href=\"#/lessons/results?class=K7Q2-MX4P\"{tab}Class results"
        )));
        assert!(!none.contains("_blank"), "without a class, the same tab");
        assert!(made.contains(
            "Class results<span class=\"visually-hidden\"> (opens in a new tab)</span></a>"
        ));
        assert!(!none.contains("new tab"));
    }
}

/// What the teacher key protects, and what it does not, said plainly.
#[component]
pub fn KeyHonesty() -> impl IntoView {
    view! {
        <p class="key__honesty">
            <strong>"What the key does: "</strong>
            "Tellers checks answers in the browser, with no server, so a determined student "
            "with the browser's developer tools can still work the answers out. The teacher key "
            "stops casual copying: a student cannot open the answer key with the class code alone."
        </p>
    }
}

/// The top of a teacher's page: the way back to the teacher's page, the
/// title, and what the page is for.
#[component]
pub fn TeacherHead(
    /// The page's title.
    title: &'static str,
    /// One or two sentences on what the page does.
    lead: &'static str,
) -> impl IntoView {
    view! {
        <p class="eyebrow print-hide">
            <a href="#/lessons/teacher">"For teachers"</a>
            {format!(" · {title}")}
        </p>
        <h1>{title}</h1>
        <p class="lead print-hide">{lead}</p>
    }
}

/// The class code box of a teacher's page.
#[component]
pub fn ClassCodeField(
    /// The code typed.
    class: RwSignal<String>,
    /// Its `data-testid`.
    test_id: &'static str,
) -> impl IntoView {
    let note = move || {
        crate::classroom::teacher_code_note(&class.get()).map(|n| {
            view! { <p class="student__note" role="status" data-testid="teacher-code-note">{n}</p> }
        })
    };
    // The Tellers code a code typed without its hyphen (or with O for 0)
    // means, one press away, as the student panel offers it: the results
    // page had said it once per file left out, thirty times for a class.
    let use_suggested = move || {
        class
            .with(|c| crate::classroom::suggested_code(c))
            .map(|code| {
                let label = format!("Use {code}");
                view! {
                    <p class="print-hide">
                        <button
                            type="button"
                            class="button"
                            data-testid="use-suggested-teacher-code"
                            on:click=move |_| class.set(code.clone())
                        >
                            {label}
                        </button>
                    </p>
                }
            })
    };
    view! {
        <label>
            "Class code"
            <input
                type="text"
                autocomplete="off"
                prop:value=class
                on:input=move |ev| class.set(event_target_value(&ev))
                data-testid=test_id
            />
        </label>
        {note}
        {use_suggested}
    }
}
