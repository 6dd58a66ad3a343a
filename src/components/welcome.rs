use leptos::prelude::*;

use super::QueueSketch;
use crate::route::Route;

/// The home page: what Tellers is, what you do in it, and the ways in.
#[component]
pub fn Welcome() -> impl IntoView {
    view! {
        <section class="hero" aria-labelledby="welcome-title">
            <div class="hero__text">
                <p class="eyebrow">"A live lab for system design"</p>
                <h1 id="welcome-title">"Tellers"</h1>
                <p class="lead">
                    "How one server handles many requests, and why it slows down when it is busy."
                </p>
                <p class="welcome">
                    "Tellers is a lab you can touch. Move the sliders for cores, CPU time, "
                    "pool size and arrival rate, and watch requests line up at the tellers "
                    "like customers in a bank. Push the load towards full and see latency "
                    "stay calm, then bend sharply upwards. Threads, thread pools, event loops "
                    "and Little's law stop being words: you predict a number, type it in, and "
                    "the exercise checks it on the spot; some then let you run the simulation "
                    "and compare what it measures with your number."
                </p>
                <div class="actions">
                    <a class="button button--primary" href=Route::Playground.href()>
                        "Open the playground"
                    </a>
                    <a class="button" href=Route::Lessons.href()>
                        "Start the lessons"
                    </a>
                </div>
            </div>
            <QueueSketch />
        </section>
        <section class="steps" aria-labelledby="steps-title">
            <h2 id="steps-title">"How it works"</h2>
            <ol class="cards">
                <li class="card">
                    <h3>"Move the sliders"</h3>
                    <p>
                        "Cores, CPU and wait time, pool size, arrival rate, concurrency model: "
                        "change one and the simulation answers straight away."
                    </p>
                </li>
                <li class="card">
                    <h3>"Watch the line"</h3>
                    <p>
                        "Every request walks up to a teller. See where it waits, for how long, "
                        "and what the theory says it should be."
                    </p>
                </li>
                <li class="card">
                    <h3>"Check your answers"</h3>
                    <p>
                        "Work out a throughput or a p99, type it in, and learn at once whether "
                        "you were right, with hints and a worked solution when you are not."
                    </p>
                </li>
            </ol>
            // A teacher's way in, here and under the lessons' list (it was
            // only there, below all seventeen lessons).
            <p class="welcome" data-testid="welcome-teachers">
                "Teaching a class? "
                <a href="#/lessons/teacher">"Run a class with Tellers"</a>
                ": every student gets numbers of their own, with worksheets to print, "
                "an answer key, and a page that reads their saved work. Lessons and the "
                "playground have a presenter mode for the projector."
            </p>
        </section>
    }
}
