//! The points of the utilisation → response-time curve: the scenario run
//! at a chosen utilisation of its capacity. The app's curve and
//! `tellers sweep` both use these, so they show the same points.

use crate::scenario::{Arrivals, Scenario};
use crate::theory::Theory;

/// Utilisations the curve is simulated at.
pub const SWEEP_RHOS: [f64; 10] = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95];
/// Requests per simulated point of the curve: enough for a mean, quick to run.
pub const SWEEP_REQUESTS: u64 = 20_000;

/// `s` run at utilisation `rho` of its capacity, for one point of the curve:
/// Poisson arrivals at ρ × capacity, at most [`SWEEP_REQUESTS`] requests and
/// no timeout. `None` when the curve does not apply (no finite capacity).
pub fn sweep_scenario(s: &Scenario, th: &Theory, rho: f64) -> Option<Scenario> {
    let cap = th.capacity.capacity_rps;
    if !(cap.is_finite() && cap > 0.0) {
        return None;
    }
    let rps = (rho * cap).clamp(0.001, 1_000_000.0);
    let requests = SWEEP_REQUESTS;
    // Room for the arrivals, then for the last of them to finish: a request
    // takes at least its own work, and long waits (C10K's 10 s) outlast the
    // arrivals themselves.
    let own_work_s = (s.cpu_ms + s.wait_ms + s.write_ms + s.heavy_share * s.heavy_cpu_ms) / 1000.0;
    Some(Scenario {
        arrivals: Arrivals::Poisson,
        rps,
        // The curve is the steady state: no schedule, no caller who gives up
        // or retries, nobody shed.
        rps_schedule: None,
        retries: 0,
        shed_after_ms: None,
        requests: Some(requests),
        timeout_ms: None,
        duration_s: (requests as f64 / rps * 3.0 + 20.0 * own_work_s).clamp(1.0, 86_400.0),
        warmup: 0.1,
        max_events: 5_000_000,
        ..s.clone()
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::presets::preset;
    use crate::theory::theory;

    #[test]
    fn sweep_points_run_at_the_asked_utilisation() {
        let s = preset("sale-day").unwrap();
        let th = theory(&s);
        let p = sweep_scenario(&s, &th, 0.5).unwrap();
        assert!(
            (p.rps - 100.0).abs() < 1e-9,
            "half of the 200 rps thread limit"
        );
        assert_eq!(p.requests, Some(SWEEP_REQUESTS));
        assert!(p.validate().is_empty());
    }

    #[test]
    fn every_sweep_point_finishes_requests_even_with_long_waits() {
        // C10K: 10 s of waiting per request, far longer than the arrivals take.
        for name in [
            "c10k-threads",
            "c10k-event-loop",
            "sale-day",
            "node-heavy-pool",
        ] {
            let s = preset(name).unwrap();
            let th = theory(&s);
            for rho in SWEEP_RHOS {
                let p = sweep_scenario(&s, &th, rho).unwrap();
                let r = crate::simulate(&p).unwrap();
                assert_eq!(
                    r.completed, SWEEP_REQUESTS,
                    "{name} at {rho}: {:?}",
                    r.stopped_by
                );
            }
        }
    }
}
