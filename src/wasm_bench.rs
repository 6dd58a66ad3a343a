//! The speed benchmark, callable from the browser tests: the engine and the
//! minimal M/M/c loop of `tellers_sim::bench`, compiled to WebAssembly.
//! Trunk exposes these on `window.wasmBindings`; the test times them with
//! `performance.now()` and compares with the native `tellers bench`. No page
//! calls them.

use wasm_bindgen::prelude::wasm_bindgen;

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
