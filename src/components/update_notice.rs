use leptos::prelude::*;

use crate::offline::apply_update;

/// "A new version is ready": shown when a new deployment of Tellers has
/// been downloaded in the background, with the button that switches to it.
/// Until then the page keeps running the version it started with.
#[component]
pub fn UpdateNotice(
    /// True once a new version is installed and waiting.
    #[prop(into)]
    ready: Signal<bool>,
) -> impl IntoView {
    view! {
        <Show when=move || ready.get()>
            <div class="update-notice print-hide" role="status" data-testid="update-notice">
                <p>"A new version of Tellers is ready."</p>
                <button type="button" class="button button--primary" on:click=move |_| apply_update()>
                    "Reload"
                </button>
            </div>
        </Show>
    }
}
