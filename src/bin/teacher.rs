//! The teacher's tools as their own wasm: create a class, the answer key,
//! the class's results, a class's worksheets. The app (`tellers-app`)
//! loads this only when a teacher page opens and calls
//! [`mount_teacher_tools`]; students never download it. Built by trunk
//! beside the app (index.html), with the same profile and simulator.
//!
//! It also carries the engine's entry points that only the browser tests
//! call (the speed benchmark and the native-versus-wasm report), so that
//! the app students download does not.

use wasm_bindgen::prelude::*;

fn main() {}

/// The tools, mounted; dropping or [`TeacherTools::unmount`] removes them.
#[wasm_bindgen]
pub struct TeacherTools {
    _mounted: Box<dyn std::any::Any>,
}

#[wasm_bindgen]
impl TeacherTools {
    /// Removes the tools from the page.
    pub fn unmount(self) {}
}

/// Draws the teacher's tools inside `root`.
#[wasm_bindgen]
pub fn mount_teacher_tools(root: web_sys::HtmlElement) -> TeacherTools {
    tellers::stopped::on_panic_say_so();
    TeacherTools {
        _mounted: Box::new(leptos::mount::mount_to(
            root,
            tellers::components::TeacherApp,
        )),
    }
}

// ---------------------------------------------------------------------------
// For the browser tests (engine.test.mjs), which import this module: the
// engine and the minimal M/M/c loop of `tellers_sim::bench`, and a
// scenario's report, compiled to WebAssembly. No page calls them.
// ---------------------------------------------------------------------------

/// Runs the engine on M/M/4 at ρ = 0.9, 10 ms service, `n` requests.
/// Returns the mean response time, ms (so the work cannot be skipped).
#[wasm_bindgen]
pub fn bench_engine(n: u32) -> f64 {
    tellers_sim::bench::engine_mmc(4, 0.9, 10.0, n as u64, 1).0
}

/// Runs the minimal M/M/c loop on the same queue. Returns the mean response time, ms.
#[wasm_bindgen]
pub fn bench_reference(n: u32) -> f64 {
    tellers_sim::bench::reference_mmc(4, 0.9, 10.0, n as u64, 1)
}

/// The full report of a scenario given as JSON, as JSON (without the time
/// series), or `{"error": …}`: lets a test compare wasm with the native CLI.
#[wasm_bindgen]
pub fn report_json(scenario: &str) -> String {
    match tellers_sim::Scenario::from_json(scenario) {
        Err(errs) => {
            let errs: Vec<String> = errs.iter().map(|e| e.to_string()).collect();
            format!(
                "{{\"error\": {}}}",
                serde_json::to_string(&errs).expect("text serialises")
            )
        }
        Ok(s) => match tellers_sim::simulate(&s) {
            Err(_) => "{\"error\": \"invalid\"}".into(),
            Ok(r) => r.to_json(false),
        },
    }
}

/// Installs the pages' panic hook and panics: lets a test see what a
/// learner sees when the app stops with an error ([`tellers::stopped`]).
#[wasm_bindgen]
pub fn panic_for_test() {
    tellers::stopped::on_panic_say_so();
    panic!("a test asked for a panic");
}
