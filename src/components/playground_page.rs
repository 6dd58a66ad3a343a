use leptos::ev;
use leptos::leptos_dom::helpers::TimeoutHandle;
use leptos::prelude::*;
use std::time::Duration;
use tellers_sim::presets::{preset, presets};
use tellers_sim::Scenario;
use wasm_bindgen::JsCast;

use super::{CurvePanel, FiguresPanel, RunControls, ScenarioControls, SeriesPanel, TellersPanel};
use crate::controls::{presenter_controls, visible_controls};
use crate::lab::{now_ms, Lab};
use crate::page_change::{focus_first, focus_if_lost};
use crate::playground::{
    focus_of, hash_query, keys_legend_html, letter_keys_on, link_notice_lead, playground_hash,
    preset_name, preset_option_text, read_query, shortcut, url_write_wait_ms, Focus, Shortcut,
    ViewState, LETTER_KEYS,
};
use crate::progress::storage;
use crate::reveal::reveal_in_frames;
use crate::route::{route_from_hash, shown_hash, Route};

/// The playground page, at `#/playground?…`: every control, the tellers,
/// the figures beside their theory, the curve and the run over time. The
/// URL keeps the whole scenario, its seed and the view, so a copied link
/// opens exactly this.
#[component]
pub fn PlaygroundPage(
    /// The URL's hash when the page opened: its query is the scenario.
    hash: String,
) -> impl IntoView {
    let (initial, initial_view, notices) = read_query(hash_query(&hash));
    let scenario = RwSignal::new(initial);
    let presenter = RwSignal::new(initial_view.presenter);
    let lab = Lab::new(scenario, true, true);
    lab.speed.set(initial_view.speed);

    let view_state = move || ViewState {
        presenter: presenter.get(),
        speed: lab.speed.get(),
    };
    let hash_now = Memo::new(move |_| playground_hash(&scenario.get(), &view_state()));
    // Keep the URL in step without a `hashchange` (which would reload the
    // page), at most every `URL_EVERY_MS` while a slider is dragged: a write
    // due later reads the newest hash then. Only while the playground is
    // still the page shown (the learner may have gone on to a lesson).
    let last_write = StoredValue::new(None::<f64>);
    let pending = StoredValue::new(None::<TimeoutHandle>);
    let write_url = move || {
        pending.try_set_value(None);
        let Some(hash) = hash_now.try_get_untracked() else {
            return;
        };
        if route_from_hash(&shown_hash()) != Route::Playground {
            return;
        }
        crate::route::replace_hash(&hash);
        last_write.try_set_value(Some(now_ms()));
    };
    Effect::new(move |_| {
        hash_now.track();
        if pending.get_value().is_some() {
            return;
        }
        match url_write_wait_ms(now_ms(), last_write.get_value()) {
            0.0 => write_url(),
            wait => {
                let later = set_timeout_with_handle(write_url, Duration::from_millis(wait as u64));
                pending.set_value(later.ok());
            }
        }
    });
    // A drag ends with a `change`: the URL takes its last value at once, so
    // leaving the page right after cannot strand it in the throttle.
    let flush = window_event_listener(ev::change, move |_| {
        if let Some(Some(handle)) = pending.try_get_value() {
            handle.clear();
            write_url();
        }
    });
    on_cleanup(move || {
        flush.remove();
        if let Some(Some(handle)) = pending.try_get_value() {
            handle.clear();
        }
    });
    let link = move || {
        let loc = window().location();
        format!(
            "{}{}{}",
            loc.origin().unwrap_or_default(),
            loc.pathname().unwrap_or_default(),
            hash_now.get()
        )
    };

    let copied = RwSignal::new(String::new());
    let copy_link = move |_| crate::clipboard::copy_link(&link(), copied);

    let current_preset = Memo::new(move |_| preset_name(&scenario.get()).unwrap_or_default());
    let choose_preset = move |ev: ev::Event| {
        let name = event_target_value(&ev);
        if let Some(s) = preset(&name) {
            scenario.set(s);
        }
    };

    let fields = Memo::new(move |_| visible_controls(&scenario.get()));
    // The strip shown stays while the teacher moves only its own sliders
    // (see `presenter_controls`): the scenario it was ranked for is kept
    // beside it, outside the reactive graph.
    let ranked_for = StoredValue::new(None::<Scenario>);
    let key_fields = Memo::new(move |kept: Option<&Vec<&'static str>>| {
        let s = scenario.get();
        let before = ranked_for.get_value();
        let fields = presenter_controls(
            &s,
            before.as_ref().zip(kept).map(|(w, k)| (w, k.as_slice())),
        );
        ranked_for.set_value(Some(s));
        fields
    });

    // Presenter mode folds controls away: one that had the focus (a key
    // pressed on a slider) hands it to Play, where Space still plays or
    // pauses, not to the page.
    let toggle_presenter = move || {
        focus_if_lost("[data-testid=play]");
        presenter.update(|p| *p = !*p);
    };

    // Keys: space plays or pauses, → steps, f goes full screen, p presents;
    // they keep working after a click on a button (see `shortcut`). Whether
    // the focus came by pointer or by Tab decides what Space does on a button.
    // The letters can be turned off (a box in the legend, kept).
    let letters = std::rc::Rc::new(std::cell::Cell::new(letter_keys_on(
        storage()
            .and_then(|s| s.get_item(LETTER_KEYS).ok().flatten())
            .as_deref(),
    )));
    let (letters_down, letters_up) = (letters.clone(), letters.clone());
    let by_pointer = std::rc::Rc::new(std::cell::Cell::new(false));
    let pointer = window_event_listener(ev::pointerdown, {
        let by_pointer = by_pointer.clone();
        move |_| by_pointer.set(true)
    });
    let down = by_pointer.clone();
    let keys = window_event_listener(ev::keydown, move |e: ev::KeyboardEvent| {
        if e.key() == "Tab" {
            down.set(false);
        }
        if e.ctrl_key() || e.meta_key() || e.alt_key() {
            return;
        }
        let Some(action) = shortcut(&e.key(), key_focus(&e, down.get()), letters_down.get()) else {
            return;
        };
        e.prevent_default();
        match action {
            Shortcut::PlayPause => lab.toggle_play(),
            Shortcut::Step => lab.step(),
            Shortcut::FullScreen => toggle_full_screen(),
            Shortcut::Presenter => toggle_presenter(),
        }
    });
    // A button pressed by Space fires on key up: the shortcut took the key.
    let keys_up = window_event_listener(ev::keyup, move |e: ev::KeyboardEvent| {
        let focus = key_focus(&e, by_pointer.get());
        if shortcut(&e.key(), focus, letters_up.get()).is_some() {
            e.prevent_default();
        }
    });
    on_cleanup(move || {
        pointer.remove();
        keys_up.remove();
    });
    on_cleanup(move || keys.remove());

    let has_notices = !notices.is_empty();
    // The page's heading and the run's buttons come first; the tools, the
    // controls, the tellers, figures, curve and series follow, each built
    // in a task of its own after a frame, so no single task builds or lays
    // out the whole page.
    let parts = reveal_in_frames(0, 6, 1);
    view! {
        <section
            class="playground"
            class:playground--presenter=move || presenter.get()
            aria-labelledby="playground-title"
        >
            <header class="playground__head">
                <div>
                    <h1 id="playground-title">"Playground"</h1>
                    <p class="lead playground__lead">
                        "One server, many requests. Move a slider, press Play, and watch the line, "
                        "the tellers and the figures beside what theory predicts."
                    </p>
                </div>
                // The tools take their place at once (nothing below them
                // moves when they fill in: it moved 97 px); the presets'
                // 35 options come a part later, in a task of their own.
                <div class="playground__tools">
                    <label class="playground__preset">
                        <span>"Preset"</span>
                        <select data-testid="presets" prop:value=move || current_preset.get() on:change=choose_preset>
                            <option value="">"Your own scenario"</option>
                            <Show when=move || { parts.get() >= 1 }>
                                {presets()
                                    .iter()
                                    .map(|p| {
                                        let name = p.name;
                                        view! {
                                            <option value=name selected=move || current_preset.get() == name>
                                                {preset_option_text(p)}
                                            </option>
                                        }
                                    })
                                    .collect_view()}
                            </Show>
                        </select>
                    </label>
                    <button type="button" class="button" data-testid="copy-link" on:click=copy_link>
                        "Copy link"
                    </button>
                    <button
                        type="button"
                        class="button"
                        data-testid="presenter"
                        aria-pressed=move || presenter.get().to_string()
                        on:click=move |_| toggle_presenter()
                    >
                        {move || if presenter.get() { "Leave presenter mode" } else { "Presenter mode" }}
                    </button>
                    <button type="button" class="button" data-testid="full-screen" on:click=move |_| toggle_full_screen()>
                        "Full screen"
                    </button>
                    <p class="playground__copied" role="status">
                        {move || copied.get()}
                    </p>
                </div>
                <label class="playground__link">
                    <span>"Link to this scenario"</span>
                    <input type="text" readonly data-testid="share-link" prop:value=link />
                </label>
                {has_notices
                    .then(|| {
                        view! {
                            <div class="notice" role="alert" data-testid="link-notice">
                                <p>
                                    <strong>"Some settings in this link could not be used."</strong>
                                    " "
                                    {link_notice_lead(&notices)}
                                </p>
                                <ul>{notices.into_iter().map(|n| view! { <li>{n.text}</li> }).collect_view()}</ul>
                            </div>
                        }
                    })}
                <p
                    class="playground__keys"
                    inner_html=keys_legend_html(letters.get())
                    on:change=move |ev| {
                        let on = event_target_checked(&ev);
                        letters.set(on);
                        if let Some(s) = storage() {
                            let _ = s.set_item(LETTER_KEYS, if on { "1" } else { "0" });
                        }
                    }
                ></p>
            </header>
            {move || {
                presenter
                    .get()
                    .then(|| {
                        view! {
                            <section class="presenter-strip" aria-label="Key settings" data-testid="presenter-strip">
                                <ScenarioControls scenario fields=key_fields />
                            </section>
                        }
                    })
            }}
            <div class="playground__layout">
                <aside class="playground__controls" aria-label="Scenario">
                    // Play came after every scenario control, the 51st Tab
                    // stop; this link, shown when focused, goes there.
                    <a
                        class="skip-link skip-link--local"
                        href="#/playground"
                        on:click=move |e: ev::MouseEvent| {
                            e.prevent_default();
                            focus_first("[data-testid=play]");
                        }
                    >
                        "Skip to Play"
                    </a>
                    <h2>"Scenario"</h2>
                    // The reset button comes with the controls above it, so
                    // it is not shown first and then pushed down the page.
                    <Show when=move || { parts.get() >= 2 }>
                        <ScenarioControls scenario fields=fields />
                        <button type="button" class="button" on:click=move |_| scenario.set(Scenario::default())>
                            "Reset to defaults"
                        </button>
                    </Show>
                </aside>
                <div class="playground__main">
                    <RunControls lab run_to_end=true />
                    <Show when=move || { parts.get() >= 3 }>
                        <TellersPanel lab />
                    </Show>
                    <Show when=move || { parts.get() >= 4 }>
                        // The signs' h3 sits under this, not under the
                        // scenario panel's h2 (nor, in presenter mode with
                        // the panel folded, straight under the h1).
                        <h2 class="visually-hidden">"Figures"</h2>
                        <FiguresPanel lab />
                    </Show>
                    <Show when=move || { parts.get() >= 5 }>
                        <h2>"Utilisation and response time"</h2>
                        <CurvePanel lab />
                    </Show>
                    <Show when=move || { parts.get() >= 6 }>
                        <h2>"The run over time"</h2>
                        <SeriesPanel lab />
                    </Show>
                </div>
            </div>
        </section>
    }
}

/// Where a key event's focus is; `by_pointer` when it came by a click.
fn key_focus(e: &ev::KeyboardEvent, by_pointer: bool) -> Focus {
    e.target()
        .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
        .map_or(Focus::Page, |el| {
            focus_of(
                &el.tag_name(),
                &el.get_attribute("type").unwrap_or_default(),
                !by_pointer,
            )
        })
}

fn toggle_full_screen() {
    let doc = document();
    if doc.fullscreen_element().is_some() {
        doc.exit_fullscreen();
    } else if let Some(el) = doc.document_element() {
        let _ = el.request_fullscreen();
    }
}
