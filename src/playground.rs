//! The playground's state in the URL: the scenario (through the field
//! table's query, [`tellers_sim::query`]) and the view settings beside it
//! (presenter mode, speed), and the speed slider's scale.

use tellers_sim::query::{from_query, percent_decode, to_query};
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
pub fn read_query(q: &str) -> (Scenario, ViewState, Vec<String>) {
    let q = q.strip_prefix('?').unwrap_or(q);
    let mut view = ViewState::default();
    let mut notices = Vec::new();
    let mut rest = Vec::new();
    for pair in q.split('&').filter(|p| !p.is_empty()) {
        let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
        match k {
            "presenter" => view.presenter = v == "1" || v == "true",
            "speed" => match percent_decode(v).parse::<f64>() {
                Ok(x) if x.is_finite() && (SPEED_RANGE.0..=SPEED_RANGE.1).contains(&x) => {
                    view.speed = x
                }
                _ => notices.push("speed: not a speed from 0.1 to 100; 1× was used".to_owned()),
            },
            _ => rest.push(pair),
        }
    }
    let (s, mut bad) = from_query(&rest.join("&"));
    notices.append(&mut bad);
    (s, view, notices)
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

/// The query part of a hash (`#/playground?cores=4` → `cores=4`).
pub fn hash_query(hash: &str) -> &str {
    hash.split_once('?').map_or("", |(_, q)| q)
}

/// Speed from the speed slider's position (−1…2, a power of ten).
pub fn speed_from_slider(x: f64) -> f64 {
    let s = 10f64.powf(x.clamp(-1.0, 2.0));
    (s * 100.0).round() / 100.0
}

/// The speed slider's position for `speed`.
pub fn slider_from_speed(speed: f64) -> f64 {
    speed.clamp(SPEED_RANGE.0, SPEED_RANGE.1).log10()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::fmt_speed;
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
    }

    #[test]
    fn speed_slider_spans_a_tenth_to_a_hundred() {
        assert_eq!(speed_from_slider(-1.0), 0.1);
        assert_eq!(speed_from_slider(0.0), 1.0);
        assert_eq!(speed_from_slider(2.0), 100.0);
        assert_eq!(speed_from_slider(9.0), 100.0);
        assert!((slider_from_speed(10.0) - 1.0).abs() < 1e-12);
        assert_eq!(fmt_speed(0.1), "0.1×");
    }
}
