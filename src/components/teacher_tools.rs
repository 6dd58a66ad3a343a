use leptos::html;
use leptos::prelude::*;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;

/// The teacher's tools' script, beside `index.html` (see `src/bin/teacher.rs`).
const TOOLS: &str = "./tellers-teacher.js";

/// Loads the teacher's tools (the first time) and mounts them in `root`;
/// the handle unmounts them.
async fn mount_tools(root: web_sys::HtmlElement) -> Result<JsValue, String> {
    let failed = |what: &str| format!("could not {what} {TOOLS}");
    let call = |f: &JsValue, arg: &JsValue| -> Result<JsValue, String> {
        f.dyn_ref::<js_sys::Function>()
            .ok_or_else(|| failed("use"))?
            .call1(&JsValue::NULL, arg)
            .map_err(|_| failed("start"))
    };
    let get = |o: &JsValue, name: &str| {
        js_sys::Reflect::get(o, &JsValue::from_str(name)).map_err(|_| failed("use"))
    };
    // A dynamic import, which Rust cannot write itself.
    let import = js_sys::Function::new_with_args("url", "return import(url)");
    let module = JsFuture::from(js_sys::Promise::from(call(
        &import,
        &JsValue::from_str(TOOLS),
    )?))
    .await
    .map_err(|_| failed("download"))?;
    // Initialising twice is harmless: the second call returns the first.
    let init = call(&get(&module, "default")?, &JsValue::UNDEFINED)?;
    JsFuture::from(js_sys::Promise::from(init))
        .await
        .map_err(|_| failed("download"))?;
    call(&get(&module, "mount_teacher_tools")?, &root)
}

/// Removes tools mounted by [`mount_tools`].
fn unmount(tools: &JsValue) {
    if let Ok(f) = js_sys::Reflect::get(tools, &JsValue::from_str("unmount")) {
        if let Some(f) = f.dyn_ref::<js_sys::Function>() {
            let _ = f.call0(tools);
        }
    }
}

/// Where the teacher's pages go: the tools are loaded (once) and drawn in
/// here, and removed when the learner leaves the teacher's pages.
#[component]
pub fn TeacherTools() -> impl IntoView {
    let root = NodeRef::<html::Div>::new();
    let failed = RwSignal::new(None::<String>);
    let tools = StoredValue::new_local(None::<JsValue>);
    let attempt = RwSignal::new(0u32);
    Effect::new(move |_| {
        attempt.track();
        let Some(el) = root.get() else {
            return;
        };
        leptos::task::spawn_local(async move {
            let mounted = mount_tools(el.into()).await;
            // Left while loading (the signal is gone): take them straight down again.
            if failed.try_set(None).is_some() {
                if let Ok(t) = &mounted {
                    unmount(t);
                }
                return;
            }
            match mounted {
                Ok(t) => tools.set_value(Some(t)),
                Err(e) => failed.set(Some(e)),
            }
        });
    });
    on_cleanup(move || {
        if let Some(t) = tools.try_update_value(Option::take).flatten() {
            unmount(&t);
        }
    });
    view! {
        {move || {
            failed
                .get()
                .map(|why| {
                    view! {
                        <section class="notice" role="alert" data-testid="teacher-tools-error">
                            <p>
                                <strong>"The teacher's tools could not be loaded"</strong>
                                {format!(" ({why}).")}
                            </p>
                            <p>
                                <button type="button" class="button" on:click=move |_| attempt.update(|n| *n += 1)>
                                    "Try again"
                                </button>
                            </p>
                        </section>
                    }
                })
        }}
        <div node_ref=root data-testid="teacher-tools"></div>
    }
}
