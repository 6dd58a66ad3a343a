use leptos::prelude::*;

/// "A new version is ready": shown when the service worker has downloaded
/// a new deployment of Tellers in the background (`assets/offline.js` fires
/// `tellers:update-ready`), with the button that switches to it (it fires
/// `tellers:apply-update`). Until then the page keeps running the version
/// it started with.
#[component]
pub fn UpdateNotice() -> impl IntoView {
    let ready = RwSignal::new(false);
    let listener = window_event_listener_untyped("tellers:update-ready", move |_| ready.set(true));
    on_cleanup(move || listener.remove());
    let reload = |_| {
        if let Ok(event) = web_sys::Event::new("tellers:apply-update") {
            let _ = window().dispatch_event(&event);
        }
    };
    view! {
        <Show when=move || ready.get()>
            <div class="update-notice print-hide" role="status" data-testid="update-notice">
                <p>"A new version of Tellers is ready."</p>
                <button type="button" class="button button--primary" on:click=reload>
                    "Reload"
                </button>
            </div>
        </Show>
    }
}
