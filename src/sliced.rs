//! Running a whole simulation without freezing the page: a slice of events,
//! then back to the browser, then the next slice.

use leptos::prelude::set_timeout;
use std::time::Duration;
use tellers_sim::{Report, Simulation};

/// Events per slice: about 5–10 ms of work in WebAssembly on a laptop,
/// far below the 50 ms that counts as a long task.
pub const SLICE_EVENTS: u64 = 20_000;

/// Run `sim` to the end in slices, then hand the report to `done`.
pub fn run_in_slices(mut sim: Simulation, done: impl FnOnce(Report) + 'static) {
    if sim.run_until(u64::MAX, SLICE_EVENTS) {
        set_timeout(move || run_in_slices(sim, done), Duration::ZERO);
    } else {
        done(sim.report());
    }
}
