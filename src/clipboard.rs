//! The clipboard, for the links the app hands out.

use leptos::prelude::*;

/// Copies `text` (a link) to the clipboard and then says how it went in
/// `said`: "Link copied.", or, where the browser refused, to copy it by
/// hand. One home for the playground's Copy link and the teacher page's.
pub fn copy_link(text: &str, said: RwSignal<String>) {
    let promise = window().navigator().clipboard().write_text(text);
    leptos::task::spawn_local(async move {
        let ok = wasm_bindgen_futures::JsFuture::from(promise).await.is_ok();
        said.set(
            if ok {
                "Link copied."
            } else {
                "Select the link and copy it."
            }
            .into(),
        );
    });
}
