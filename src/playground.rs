//! The playground's state in the URL: the scenario (through the field
//! table's query, [`tellers_sim::query`]) and the view settings beside it
//! (presenter mode, speed), and the speed slider's scale.

use tellers_sim::query::{from_query_notices, percent_decode, to_query, Notice, Outcome};
use tellers_sim::Scenario;

/// How the page is shown, kept in the URL beside the scenario.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ViewState {
    /// Presenter mode: big type, controls folded away.
    pub presenter: bool,
    /// Simulated seconds per real second.
    pub speed: f64,
}

impl Default for ViewState {
    fn default() -> Self {
        ViewState {
            presenter: false,
            speed: 1.0,
        }
    }
}

/// Slowest and fastest animation speed, simulated seconds per second.
pub const SPEED_RANGE: (f64, f64) = (0.1, 100.0);

/// Splits a playground query into the scenario (with a notice per bad
/// field) and the view settings (`presenter=1`, `speed=2`).
pub fn read_query(q: &str) -> (Scenario, ViewState, Vec<Notice>) {
    let q = q.strip_prefix('?').unwrap_or(q);
    let mut view = ViewState::default();
    let mut notices = Vec::new();
    let mut rest = Vec::new();
    // How often each view key came, and whether its first value was read.
    let mut times = [0usize; 2];
    let mut read = [true; 2];
    let notice = |outcome, text: String| Notice { outcome, text };
    for pair in q.split('&').filter(|p| !p.is_empty()) {
        let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
        // Decoded, as a field's name is (`pres%65nter` is `presenter`).
        let i = match crate::route::query_key(k).as_str() {
            "presenter" => 0,
            "speed" => 1,
            _ => {
                rest.push(pair);
                continue;
            }
        };
        times[i] += 1;
        if times[i] > 1 {
            continue;
        }
        // As the scenario's fields say a bad value: what was typed, what
        // is allowed, what is shown instead.
        let value = percent_decode(v);
        let typed = tellers_sim::text::clip(&value);
        if i == 0 {
            match tellers_sim::fields::switch_value(&value) {
                Some(on) => view.presenter = on,
                None => {
                    read[0] = false;
                    notices.push(notice(
                        Outcome::UsedDefault,
                        format!(
                            "presenter: '{typed}' is not on or off; allowed 1 or 0 (on/off, yes/no and true/false are read too); presenter mode is off"
                        ),
                    ));
                }
            }
        } else {
            match tellers_sim::text::number(&value) {
                Some(x) if (SPEED_RANGE.0..=SPEED_RANGE.1).contains(&x) => view.speed = x,
                _ => {
                    read[1] = false;
                    notices.push(notice(
                        Outcome::UsedDefault,
                        format!("speed: '{typed}' is not a speed; allowed 0.1–100 (times real time); 1× was used"),
                    ));
                }
            }
        }
    }
    // A repeat is said as a scenario field's is.
    for (i, name) in ["presenter", "speed"].into_iter().enumerate() {
        if times[i] > 1 {
            notices.push(Notice::repeated(
                name,
                times[i],
                read[i],
                Outcome::UsedDefault,
            ));
        }
    }
    let (s, mut bad) = from_query_notices(&rest.join("&"));
    notices.append(&mut bad);
    (s, view, notices)
}

/// The headline of a link's notice, "Some settings in this link could not
/// be used.", is followed by this: what the page shows instead, said only
/// where it is true of every item listed (a repeated field shows its first
/// value, not its default; an unknown name shows nothing).
pub fn link_notice_lead(notices: &[Notice]) -> &'static str {
    let all = |o: Outcome| notices.iter().all(|n| n.outcome == o);
    if all(Outcome::UsedDefault) {
        "Their defaults are shown instead:"
    } else if all(Outcome::UsedPreset) {
        "The preset's values are shown instead:"
    } else if all(Outcome::KeptFirst) {
        "Each was given more than once, and its first value is shown:"
    } else if all(Outcome::Ignored) {
        "The playground has no such settings, so they were ignored:"
    } else {
        "Each line says what was done with it:"
    }
}

/// The hash that opens the playground on `s` with `view`.
pub fn playground_hash(s: &Scenario, view: &ViewState) -> String {
    let mut parts = vec![];
    let q = to_query(s);
    if !q.is_empty() {
        parts.push(q);
    }
    if view.presenter {
        parts.push("presenter=1".into());
    }
    if view.speed != 1.0 {
        parts.push(format!("speed={}", view.speed));
    }
    if parts.is_empty() {
        "#/playground".into()
    } else {
        format!("#/playground?{}", parts.join("&"))
    }
}

/// The shortest time between two writes of the address bar, ms. A slider
/// dragged sends a change every frame; writing the URL each time cost about
/// a fifth of the handling of each change (Chromium traces), so while the
/// scenario keeps changing the URL follows it a few times a second, and
/// always ends on the last change.
pub const URL_EVERY_MS: f64 = 300.0;

/// How long to wait before writing the address bar, ms: 0 (now) when the
/// last write was `URL_EVERY_MS` or more before `now_ms` (or there was
/// none), else the time left until then. Both times in ms on one clock.
pub fn url_write_wait_ms(now_ms: f64, last_write_ms: Option<f64>) -> f64 {
    match last_write_ms {
        Some(last) if now_ms - last < URL_EVERY_MS && now_ms >= last => {
            URL_EVERY_MS - (now_ms - last)
        }
        _ => 0.0,
    }
}

/// The name of the preset `s` is, if it is one unchanged; `None` once the
/// learner has changed anything ("Your own scenario").
pub fn preset_name(s: &Scenario) -> Option<&'static str> {
    tellers_sim::presets::presets()
        .iter()
        .find(|p| p.scenario == *s)
        .map(|p| p.name)
}

/// The query part of a hash (`#/playground?cores=4` → `cores=4`).
pub fn hash_query(hash: &str) -> &str {
    hash.split_once('?').map_or("", |(_, q)| q)
}

/// The speeds the speed slider stops at, simulated seconds per second:
/// round numbers a learner can read at a glance and say aloud.
pub const SPEEDS: [f64; 18] = [
    0.1, 0.2, 0.3, 0.5, 0.7, 1.0, 1.5, 2.0, 3.0, 5.0, 7.0, 10.0, 15.0, 20.0, 30.0, 50.0, 70.0,
    100.0,
];

/// Speed from the speed slider's position (an index into [`SPEEDS`]).
pub fn speed_from_slider(x: f64) -> f64 {
    let i = x.round().clamp(0.0, (SPEEDS.len() - 1) as f64) as usize;
    SPEEDS[i]
}

/// The speed slider's position for `speed`: the stop nearest to it (a
/// shared link may carry a speed between two stops).
pub fn slider_from_speed(speed: f64) -> f64 {
    let target = speed.clamp(SPEED_RANGE.0, SPEED_RANGE.1).ln();
    let (i, _) = SPEEDS
        .iter()
        .enumerate()
        .map(|(i, s)| (i, (s.ln() - target).abs()))
        .fold((0, f64::MAX), |best, c| if c.1 < best.1 { c } else { best });
    i as f64
}

/// A playground key's action.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shortcut {
    /// Space: play or pause.
    PlayPause,
    /// →: one event.
    Step,
    /// f: full screen.
    FullScreen,
    /// p: presenter mode.
    Presenter,
}

impl Shortcut {
    /// A single letter's action, which the "Letter keys" box turns off.
    pub fn is_letter(self) -> bool {
        matches!(self, Shortcut::FullScreen | Shortcut::Presenter)
    }
}

/// The playground's keys, in the legend's order: the key (as
/// `KeyboardEvent.key` names it; a letter in either case), as the legend
/// shows it, its action and what it does. [`shortcut`] reads its keys here.
pub const KEYS: [(&str, &str, Shortcut, &str); 4] = [
    (" ", "Space", Shortcut::PlayPause, "play or pause"),
    ("ArrowRight", "→", Shortcut::Step, "one event"),
    ("f", "f", Shortcut::FullScreen, "full screen"),
    ("p", "p", Shortcut::Presenter, "presenter mode"),
];

/// The keys' legend, as HTML: "Keys: " then each key as shown in a
/// `<kbd>` and what it does, the last ending the sentence, then the box
/// that turns the letter keys on and off, ticked when `letters` are on and
/// naming them ("Letter keys (f, p)"); its change is heard by the legend.
/// The letter keys are listed in a `keys__letters` span, which the style
/// sheet hides while the box is unticked (no script redraws the legend,
/// which would take the box's keyboard focus away). Only the fixed text of
/// [`KEYS`] goes in (nothing a person typed).
pub fn keys_legend_html(letters: bool) -> String {
    let mut out = String::from("Keys: ");
    let mut named = Vec::new();
    for (i, (_, shown, action, does)) in KEYS.iter().enumerate() {
        let sep = if i == 0 { "" } else { ", " };
        let key = format!("{sep}<kbd>{shown}</kbd> {does}");
        if action.is_letter() {
            named.push(*shown);
            out.push_str(&format!("<span class=\"keys__letters\">{key}</span>"));
        } else {
            out.push_str(&key);
        }
    }
    let ticked = if letters { " checked" } else { "" };
    out + &format!(
        ". <label><input type=\"checkbox\" data-testid=\"letter-keys\"{ticked}> Letter keys ({})</label>",
        named.join(", ")
    )
}

/// Where the keyboard focus is, as far as shortcuts care.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Focus {
    /// A box or menu that takes letters and spaces: no shortcut there.
    Typing,
    /// A slider: the arrows move it.
    Slider,
    /// A button or check box. `keyboard` when it was reached with the
    /// keyboard (Tab): Space then presses it, as a keyboard user expects;
    /// after a click, Space plays or pauses.
    Button {
        /// Reached with the keyboard.
        keyboard: bool,
    },
    /// Anything else (the page itself).
    Page,
}

/// The focus kind of an element: its tag (`BUTTON`), an input's `type`,
/// and whether the focus came by keyboard (Tab) rather than a click.
pub fn focus_of(tag: &str, input_type: &str, by_keyboard: bool) -> Focus {
    match (tag.to_ascii_uppercase().as_str(), input_type) {
        ("INPUT", "range") => Focus::Slider,
        ("INPUT", "checkbox" | "radio" | "button" | "submit") | ("BUTTON" | "SUMMARY" | "A", _) => {
            Focus::Button {
                keyboard: by_keyboard,
            }
        }
        ("INPUT" | "SELECT" | "TEXTAREA", _) => Focus::Typing,
        _ => Focus::Page,
    }
}

/// Where the browser keeps whether the letter keys (f, p) are on.
pub const LETTER_KEYS: &str = "tellers.letter-keys";

/// Whether the letter keys are on, from what is kept under
/// [`LETTER_KEYS`]: off only when it says "0" (the box unticked), so
/// nothing kept, or anything else found there, leaves them on.
pub fn letter_keys_on(stored: Option<&str>) -> bool {
    stored != Some("0")
}

/// What `key` does with the focus at `focus`; `None` leaves the key to the
/// focused element. Shortcuts keep working after a button was clicked. The
/// single letters (f, p) act only while `letters` is on: a speech-input
/// user, or one who types a letter by mistake, can turn them off.
pub fn shortcut(key: &str, focus: Focus, letters: bool) -> Option<Shortcut> {
    if focus == Focus::Typing {
        return None;
    }
    let (_, _, action, _) = KEYS
        .iter()
        .find(|(k, ..)| *k == key || (k.len() == 1 && k.eq_ignore_ascii_case(key)))?;
    let here = match action {
        Shortcut::PlayPause => !matches!(focus, Focus::Button { keyboard: true }),
        Shortcut::Step => matches!(focus, Focus::Page | Focus::Button { .. }),
        Shortcut::FullScreen | Shortcut::Presenter => true,
    };
    (here && (letters || !action.is_letter())).then_some(*action)
}

/// A preset as the menu offers it: what it shows first, so a box cut
/// short on a projector still says it, then the name a link or the CLI
/// takes (`?preset=…`, `--preset`).
pub fn preset_option_text(p: &tellers_sim::presets::Preset) -> String {
    format!("{} ({})", p.about, p.name)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::fmt_speed;

    #[test]
    fn the_url_is_written_now_or_when_its_pause_ends() {
        // The first change, and any after a quiet spell, go at once.
        assert_eq!(url_write_wait_ms(1_000.0, None), 0.0);
        assert_eq!(
            url_write_wait_ms(1_000.0, Some(1_000.0 - URL_EVERY_MS)),
            0.0
        );
        assert_eq!(url_write_wait_ms(5_000.0, Some(1_000.0)), 0.0);
        // A change soon after a write waits for the rest of the pause.
        assert_eq!(url_write_wait_ms(1_000.0, Some(1_000.0)), URL_EVERY_MS);
        assert_eq!(
            url_write_wait_ms(1_100.0, Some(1_000.0)),
            URL_EVERY_MS - 100.0
        );
        // A clock that went back (a restored tab) never makes it wait longer than one pause.
        assert_eq!(url_write_wait_ms(500.0, Some(1_000.0)), 0.0);
    }
    #[test]
    fn view_settings_ride_beside_the_scenario() {
        let s = Scenario {
            cores: 8,
            ..Scenario::default()
        };
        let view = ViewState {
            presenter: true,
            speed: 2.5,
        };
        let hash = playground_hash(&s, &view);
        assert_eq!(hash, "#/playground?cores=8&presenter=1&speed=2.5");
        assert_eq!(
            crate::route::route_from_hash(&hash),
            crate::route::Route::Playground
        );
        let (back, v, notices) = read_query(hash_query(&hash));
        assert_eq!((back, v), (s, view));
        assert!(notices.is_empty());
        assert_eq!(
            playground_hash(&Scenario::default(), &ViewState::default()),
            "#/playground"
        );
        let (_, v, notices) = read_query("speed=NaN");
        assert_eq!(v.speed, 1.0);
        assert_eq!(notices.len(), 1);
        // A repeat is said once, as such; a presenter value that is neither
        // on nor off is said too.
        let (_, v, notices) = read_query("speed=Infinity&speed=1e400&presenter=2");
        assert_eq!((v.speed, v.presenter), (1.0, false));
        let texts: Vec<&str> = notices.iter().map(|n| n.text.as_str()).collect();
        assert_eq!(
            texts,
            [
                "speed: 'Infinity' is not a speed; allowed 0.1–100 (times real time); 1× was used",
                "presenter: '2' is not on or off; allowed 1 or 0 (on/off, yes/no and true/false are read too); presenter mode is off",
                "speed: given twice; only the first value was read",
            ]
        );
        assert!(read_query("presenter=0").2.is_empty());
        // As a scenario field's repeat: kept when the first was read.
        let (_, v, notices) = read_query("speed=2&speed=3&speed=4&presenter=yes");
        assert_eq!((v.speed, v.presenter), (2.0, true));
        assert_eq!(
            notices[0].text,
            "speed: given 3 times; the first value was kept"
        );
        // A view key and its value are read decoded and in any case, as a
        // field's are (`pres%65nter` was an unknown field).
        let (_, v, notices) = read_query("pres%65nter=ON&sp%65ed=2");
        assert_eq!((v.speed, v.presenter, notices), (2.0, true, vec![]));
        let (_, v, notices) = read_query("presenter=%31");
        assert_eq!((v.presenter, notices), (true, vec![]));
    }

    /// `?cores=6&cores=8` shows 6, so its notice does not say defaults are
    /// shown (it said "Their defaults are shown instead" of every link).
    #[test]
    fn a_link_notice_claims_defaults_only_when_defaults_are_shown() {
        let lead = |q: &str| {
            let (_, _, notices) = read_query(q);
            assert!(!notices.is_empty(), "{q}");
            link_notice_lead(&notices)
        };
        let (s, _, notices) = read_query("cores=6&cores=8");
        assert_eq!(s.cores, 6);
        assert_eq!(
            notices[0].text,
            "cores: given twice; the first value was kept"
        );
        assert_eq!(
            lead("cores=6&cores=8"),
            "Each was given more than once, and its first value is shown:"
        );
        for q in [
            "cores=abc",
            "cores=0&speed=NaN",
            "cores=abc&cores=8",
            "preset=nope",
        ] {
            assert_eq!(lead(q), "Their defaults are shown instead:", "{q}");
        }
        // From a preset, a field that cannot be read shows the preset's value.
        assert_eq!(
            lead("preset=mm1&cores=abc"),
            "The preset's values are shown instead:"
        );
        assert_eq!(
            lead("bogus=1"),
            "The playground has no such settings, so they were ignored:"
        );
        for q in ["cores=6&cores=8&rps=abc", "bogus=1&rps=abc"] {
            let l = lead(q);
            assert_eq!(l, "Each line says what was done with it:", "{q}");
            assert!(!l.contains("default"), "{q}");
        }
    }

    #[test]
    fn shortcuts_work_after_a_click_but_not_while_typing() {
        let clicked = focus_of("BUTTON", "", false);
        let tabbed = focus_of("button", "", true);
        assert_eq!(shortcut(" ", clicked, true), Some(Shortcut::PlayPause));
        assert_eq!(
            shortcut(" ", tabbed, true),
            None,
            "Space presses a button reached by keyboard"
        );
        for focus in [
            clicked,
            tabbed,
            Focus::Page,
            focus_of("INPUT", "range", false),
        ] {
            assert_eq!(shortcut("p", focus, true), Some(Shortcut::Presenter));
            assert_eq!(shortcut("f", focus, true), Some(Shortcut::FullScreen));
        }
        let typing = focus_of("INPUT", "text", true);
        assert_eq!(typing, Focus::Typing);
        assert_eq!(shortcut("p", typing, true), None);
        assert_eq!(shortcut(" ", focus_of("SELECT", "", false), true), None);
        assert_eq!(
            shortcut("ArrowRight", focus_of("INPUT", "range", true), true),
            None,
            "the slider moves"
        );
        assert_eq!(
            shortcut("ArrowRight", Focus::Page, true),
            Some(Shortcut::Step)
        );
        assert_eq!(shortcut("x", Focus::Page, true), None);
    }

    /// WCAG 2.1.4: single-letter shortcuts can be turned off; Space and →
    /// are not letters and keep working.
    #[test]
    fn the_letter_keys_can_be_turned_off_and_stay_on_unless_turned_off() {
        let clicked = focus_of("BUTTON", "", false);
        for focus in [Focus::Page, clicked, focus_of("INPUT", "range", false)] {
            for key in ["f", "F", "p", "P"] {
                assert_eq!(shortcut(key, focus, false), None, "{key:?} {focus:?}");
                assert!(shortcut(key, focus, true).is_some(), "{key:?} {focus:?}");
            }
        }
        assert_eq!(shortcut(" ", clicked, false), Some(Shortcut::PlayPause));
        assert_eq!(
            shortcut("ArrowRight", Focus::Page, false),
            Some(Shortcut::Step)
        );
        // Only a kept "0" turns them off: nothing kept, or something kept
        // by hand or by another version, leaves them on.
        assert!(!letter_keys_on(Some("0")));
        for stored in [
            None,
            Some("1"),
            Some(""),
            Some("off"),
            Some("{\u{0}"),
            Some("00"),
        ] {
            assert!(letter_keys_on(stored), "{stored:?}");
        }
    }

    #[test]
    fn a_preset_is_named_until_it_is_changed() {
        for p in tellers_sim::presets::presets() {
            assert_eq!(preset_name(&p.scenario), Some(p.name));
            let changed = Scenario {
                seed: p.scenario.seed.wrapping_add(1),
                ..p.scenario.clone()
            };
            assert_eq!(preset_name(&changed), None, "{}", p.name);
        }
    }

    /// [`keys_legend_html`] as it reads with the letter keys `letters` (on or
    /// off): the style sheet hides the `keys__letters` spans while they are
    /// off (the browser test of the letter keys reads the page itself).
    fn keys_legend_read(letters: bool) -> String {
        let mut html = keys_legend_html(letters);
        while let Some(at) = html
            .find("<span class=\"keys__letters\">")
            .filter(|_| !letters)
        {
            let end = html[at..]
                .find("</span>")
                .map_or(html.len(), |e| at + e + 7);
            html.replace_range(at..end, "");
        }
        html
    }

    #[test]
    fn the_legend_lists_exactly_the_keys_shortcut_takes() {
        assert_eq!(
            keys_legend_html(true),
            "Keys: <kbd>Space</kbd> play or pause, <kbd>→</kbd> one event\
             <span class=\"keys__letters\">, <kbd>f</kbd> full screen</span>\
             <span class=\"keys__letters\">, <kbd>p</kbd> presenter mode</span>. \
             <label><input type=\"checkbox\" data-testid=\"letter-keys\" checked> Letter keys (f, p)</label>"
        );
        // Turned off, the letters leave the legend as read; the box still names them.
        assert_eq!(
            keys_legend_read(false),
            "Keys: <kbd>Space</kbd> play or pause, <kbd>→</kbd> one event. \
             <label><input type=\"checkbox\" data-testid=\"letter-keys\"> Letter keys (f, p)</label>"
        );
        for (key, _, action, _) in KEYS {
            assert_eq!(shortcut(key, Focus::Page, true), Some(action), "{key:?}");
        }
        // Every key shortcut takes is in the legend: printable ASCII and
        // the named keys a page sees.
        let named = [
            "ArrowLeft",
            "ArrowRight",
            "ArrowUp",
            "ArrowDown",
            "Enter",
            "Escape",
            "Tab",
            "Backspace",
            "Home",
            "End",
            "PageUp",
            "PageDown",
            "Delete",
        ];
        let chars: Vec<String> = (b' '..=b'~').map(|b| (b as char).to_string()).collect();
        for letters in [true, false] {
            let legend = keys_legend_read(letters);
            let legend = &legend[..legend.find("<label>").unwrap()];
            for key in named
                .iter()
                .copied()
                .chain(chars.iter().map(String::as_str))
            {
                let listed = KEYS.iter().any(|(k, shown, ..)| {
                    (*k == key || k.eq_ignore_ascii_case(key) && key.len() == 1)
                        && legend.contains(&format!("<kbd>{shown}</kbd>"))
                });
                assert_eq!(
                    shortcut(key, Focus::Page, letters).is_some(),
                    listed,
                    "{key:?}, letter keys on: {letters}"
                );
            }
        }
    }

    #[test]
    fn speed_slider_spans_a_tenth_to_a_hundred_in_round_steps() {
        assert_eq!(speed_from_slider(0.0), 0.1);
        assert_eq!(speed_from_slider(-3.0), 0.1);
        assert_eq!(speed_from_slider(5.0), 1.0);
        assert_eq!(speed_from_slider(17.0), 100.0);
        assert_eq!(speed_from_slider(99.0), 100.0);
        assert_eq!(slider_from_speed(10.0), 11.0);
        assert_eq!(
            slider_from_speed(2.5),
            8.0,
            "a linked 2.5× sits at the nearest stop, 3×"
        );
        for (i, s) in SPEEDS.iter().enumerate() {
            assert_eq!(speed_from_slider(slider_from_speed(*s)), *s);
            assert_eq!(slider_from_speed(*s), i as f64);
            let shown = fmt_speed(*s);
            assert!(shown.len() <= "0.1×".len() + 1, "{shown}");
        }
        assert_eq!(fmt_speed(0.1), "0.1×");
        assert_eq!(fmt_speed(1.5), "1.5×");
    }

    #[test]
    fn a_preset_is_offered_by_what_it_shows_then_its_name() {
        let p = tellers_sim::presets::presets()
            .iter()
            .find(|p| p.name == "sale-day")
            .unwrap();
        let text = preset_option_text(p);
        assert!(text.starts_with("Sale day: 400 rps"), "{text}");
        assert!(text.ends_with(" (sale-day)"), "{text}");
    }
}
