//! Offline: the page's side of the service worker (`assets/sw.js`).
//!
//! The worker keeps the app, its course and its assets in the browser's
//! cache on the first visit, so the lab starts and works with no network.
//! A new deployment brings a new worker (the build writes its file list
//! and version into `sw.js`); it waits until the learner agrees, so a page
//! never changes under them: [`register_service_worker`] reports it, the
//! app shows a notice, and [`apply_update`] lets the new worker take over
//! and reloads the page.

use std::cell::Cell;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{
    ServiceWorker, ServiceWorkerContainer, ServiceWorkerRegistration, ServiceWorkerState,
};

/// The worker's script, beside `index.html`.
const WORKER: &str = "sw.js";

thread_local! {
    /// Set when this page asked the waiting worker to take over: then, and
    /// only then, the page reloads when it has (other tabs keep their work).
    static RELOAD_ON_TAKEOVER: Cell<bool> = const { Cell::new(false) };
}

/// The browser's service workers, where it has them (not in an insecure
/// context, nor in every browser).
fn container() -> Option<ServiceWorkerContainer> {
    let navigator = web_sys::window()?.navigator();
    let has = js_sys::Reflect::has(&navigator, &JsValue::from_str("serviceWorker")).ok()?;
    has.then(|| navigator.service_worker())
}

/// Registers the worker, and calls `ready` when a new version of the app
/// is installed and waiting (not on the first visit: that one simply
/// starts caching).
pub fn register_service_worker(ready: impl Fn() + Clone + 'static) {
    let Some(container) = container() else {
        return;
    };
    let takeover = Closure::<dyn FnMut()>::new(|| {
        if RELOAD_ON_TAKEOVER.with(Cell::get) {
            if let Some(w) = web_sys::window() {
                let _ = w.location().reload();
            }
        }
    });
    container.set_oncontrollerchange(Some(takeover.as_ref().unchecked_ref()));
    takeover.forget();

    let promise = container.register(WORKER);
    wasm_bindgen_futures::spawn_local(async move {
        // Offline, or a host that does not serve sw.js: the app works as before.
        let Ok(registration) = wasm_bindgen_futures::JsFuture::from(promise).await else {
            return;
        };
        let registration: ServiceWorkerRegistration = registration.unchecked_into();
        if registration.waiting().is_some() && container.controller().is_some() {
            ready();
        }
        if let Some(installing) = registration.installing() {
            watch_install(installing, container.clone(), ready.clone());
        }
        let found = {
            let registration = registration.clone();
            Closure::<dyn FnMut()>::new(move || {
                if let Some(installing) = registration.installing() {
                    watch_install(installing, container.clone(), ready.clone());
                }
            })
        };
        registration.set_onupdatefound(Some(found.as_ref().unchecked_ref()));
        found.forget();
    });
}

/// Calls `ready` once `worker` has installed, if it is an update (a worker
/// already controls the page).
fn watch_install(
    worker: ServiceWorker,
    container: ServiceWorkerContainer,
    ready: impl Fn() + 'static,
) {
    let this = worker.clone();
    let changed = Closure::<dyn FnMut()>::new(move || {
        if this.state() == ServiceWorkerState::Installed && container.controller().is_some() {
            ready();
        }
    });
    worker.set_onstatechange(Some(changed.as_ref().unchecked_ref()));
    changed.forget();
}

/// Lets the waiting worker take over; the page reloads when it has.
pub fn apply_update() {
    let Some(container) = container() else {
        return;
    };
    RELOAD_ON_TAKEOVER.with(|r| r.set(true));
    wasm_bindgen_futures::spawn_local(async move {
        let registration = wasm_bindgen_futures::JsFuture::from(container.get_registration()).await;
        let waiting = registration
            .ok()
            .and_then(|r| r.dyn_into::<ServiceWorkerRegistration>().ok())
            .and_then(|r| r.waiting());
        match waiting {
            Some(worker) => {
                let _ = worker.post_message(&JsValue::from_str("skip-waiting"));
            }
            // Nothing waiting any more (another tab took it): just reload.
            None => {
                if let Some(w) = web_sys::window() {
                    let _ = w.location().reload();
                }
            }
        }
    });
}
