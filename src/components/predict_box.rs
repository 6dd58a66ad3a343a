use leptos::prelude::*;

use crate::predict::guess_label;
use crate::session;

/// A predict box's guesses, shared with the widget after it, which
/// compares them with its run once the run has ended.
#[derive(Clone)]
pub struct Prediction {
    /// Report figures guessed; empty for a guess in words.
    pub figures: Vec<String>,
    /// Settings the guess is about, as (scenario field, value).
    pub when: Vec<(String, f64)>,
    /// What the learner typed: one entry per figure, or the one guess in words.
    pub guesses: RwSignal<Vec<String>>,
    /// Session-storage key that keeps the guesses across the playground and Back.
    pub key: String,
}

impl Prediction {
    /// A prediction for `figures` at settings `when`, with the guesses kept
    /// under `key` (restored from it, if the learner wrote some before).
    pub fn new(figures: Vec<String>, when: Vec<(String, f64)>, key: String) -> Prediction {
        let n = figures.len().max(1);
        let kept: Vec<String> = session::load(&key)
            .and_then(|t| serde_json::from_str(&t).ok())
            .filter(|v: &Vec<String>| v.len() == n)
            .unwrap_or_else(|| vec![String::new(); n]);
        Prediction {
            figures,
            when,
            guesses: RwSignal::new(kept),
            key,
        }
    }

    fn set(&self, i: usize, text: String) {
        self.guesses.update(|g| {
            if let Some(slot) = g.get_mut(i) {
                *slot = text;
            }
        });
        if let Ok(json) = serde_json::to_string(&self.guesses.get_untracked()) {
            session::save(&self.key, &json);
        }
    }
}

/// "Predict, then run": a question to answer before the simulation moves,
/// with a box for each number it asks for (or one for a guess in words).
/// The widget below compares the guesses with its run once it has ended.
#[component]
pub fn PredictBox(
    /// The question, as HTML compiled from our own lesson Markdown.
    html: String,
    /// The guesses, shared with the widget that answers the question.
    prediction: Prediction,
) -> impl IntoView {
    let prefix = super::scenario_controls::unique_prefix();
    let inputs = if prediction.figures.is_empty() {
        vec![("Your guess".to_owned(), "write it before you run")]
    } else {
        prediction
            .figures
            .iter()
            .map(|f| (format!("Your guess: {}", guess_label(f)), "a number"))
            .collect()
    };
    let boxes = inputs
        .into_iter()
        .enumerate()
        .map(|(i, (label, placeholder))| {
            let id = format!("{prefix}-guess-{i}");
            let for_id = id.clone();
            let p = prediction.clone();
            let value = move || p.guesses.with(|g| g.get(i).cloned().unwrap_or_default());
            let p = prediction.clone();
            view! {
                <label class="predict__guess" for=for_id>
                    {label}
                    <input
                        type="text"
                        id=id
                        maxlength="80"
                        autocomplete="off"
                        placeholder=placeholder
                        data-testid="guess"
                        prop:value=value
                        on:input=move |ev| p.set(i, event_target_value(&ev))
                    />
                </label>
            }
        })
        .collect_view();
    view! {
        // A group, not a landmark: lesson 5 has two, one name for both.
        <div class="predict" role="group" aria-label="Predict" data-testid="predict">
            <p class="predict__label">"Predict"</p>
            <div class="predict__text" inner_html=html></div>
            {boxes}
            <p class="predict__how muted">
                "Then run the simulation below to its end: its figures appear there beside your guess, with theory's where it has one."
            </p>
        </div>
    }
}
