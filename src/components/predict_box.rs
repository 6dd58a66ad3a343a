use leptos::prelude::*;

/// "Predict, then run": a question to answer before the simulation moves.
/// The learner may jot a guess; it stays on the page to compare with.
#[component]
pub fn PredictBox(
    /// The question, as HTML compiled from our own lesson Markdown.
    html: String,
) -> impl IntoView {
    view! {
        <aside class="predict" aria-label="Predict">
            <p class="predict__label">"Predict"</p>
            <div class="predict__text" inner_html=html></div>
            <label class="predict__guess">
                "Your guess"
                <input type="text" maxlength="80" placeholder="write it before you run" />
            </label>
        </aside>
    }
}
