use leptos::prelude::*;

/// How far apart, in SVG units, the requests waiting in line stand.
const LINE_SPACING: f64 = 30.0;

/// A small picture of the idea behind the app: requests waiting in one
/// line for three tellers, each teller serving one request.
#[component]
pub fn QueueSketch() -> impl IntoView {
    let waiting = (0..5)
        .map(|i| {
            let cx = 36.0 + LINE_SPACING * f64::from(i);
            view! { <circle class="sketch__request" cx=cx cy="110" r="10" /> }
        })
        .collect_view();
    let tellers = [40.0, 110.0, 180.0]
        .into_iter()
        .enumerate()
        .map(|(i, y)| {
            view! {
                <path class="sketch__route" d=format!("M186 110 C 220 110, 220 {y}, 252 {y}") />
                <rect class="sketch__desk" x="252" y=y - 24.0 width="84" height="48" rx="12" />
                <circle
                    class=format!("sketch__request sketch__request--served sketch__request--{i}")
                    cx="280"
                    cy=y
                    r="10"
                />
                <rect class="sketch__teller" x="308" y=y - 12.0 width="14" height="24" rx="4" />
            }
        })
        .collect_view();

    view! {
        <figure class="sketch">
            <svg
                viewBox="0 0 360 232"
                role="img"
                aria-labelledby="sketch-title"
                class="sketch__svg"
            >
                <title id="sketch-title">"Requests waiting in one line for three tellers"</title>
                {waiting}
                {tellers}
                <text class="sketch__label" x="96" y="144" text-anchor="middle">
                    "waiting in line"
                </text>
                <text class="sketch__label" x="294" y="226" text-anchor="middle">
                    "tellers"
                </text>
            </svg>
            <figcaption>"One line, three tellers: who waits, and for how long?"</figcaption>
        </figure>
    }
}
