//! The speed benchmark's two contestants, without timing (the caller times
//! them: `std::time::Instant` natively, `performance.now()` in the browser).
//!
//! Both simulate M/M/c with the same generator and the same inverse-transform
//! exponentials, so the ratio measures the engine's overhead, not the maths.

use crate::engine::simulate;
use crate::rng::{exp, seeded};
use crate::scenario::{Arrivals, Dist, Model, Scenario, MAX_DURATION_S};
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// The benchmark scenario: M/M/`c` at utilisation `rho`, `service_ms` mean
/// service, `n` requests, as the engine runs it (a pool of c threads on c cores).
pub fn bench_scenario(c: u32, rho: f64, service_ms: f64, n: u64) -> Scenario {
    Scenario {
        model: Model::ThreadPool,
        cores: c,
        threads: c,
        cpu_ms: service_ms,
        cpu_dist: Dist::Exp,
        wait_ms: 0.0,
        switch_us: 0.0,
        arrivals: Arrivals::Poisson,
        rps: rho * c as f64 * 1000.0 / service_ms,
        requests: Some(n),
        duration_s: MAX_DURATION_S,
        warmup: 0.0,
        ..Scenario::default()
    }
}

/// A minimal hand-written M/M/c loop: the earliest free server from a small
/// heap, FCFS. Returns the mean response time, ms.
pub fn reference_mmc(c: u32, rho: f64, service_ms: f64, n: u64, seed: u64) -> f64 {
    let mut rng = seeded(seed);
    let lambda_gap_ms = service_ms / (rho * c as f64);
    let mut free: BinaryHeap<Reverse<u64>> = (0..c).map(|_| Reverse(0u64)).collect();
    let mut t = 0.0f64;
    let mut sum = 0.0f64;
    for _ in 0..n {
        t += exp(&mut rng, lambda_gap_ms);
        let arrival = (t * 1e6) as u64;
        let Reverse(server_free) = free.pop().expect("c ≥ 1");
        let start = arrival.max(server_free);
        let end = start + (exp(&mut rng, service_ms) * 1e6) as u64;
        free.push(Reverse(end));
        sum += (end - arrival) as f64;
    }
    sum / n as f64 / 1e6
}

/// The engine on the same scenario. Returns the mean response time, ms, and the events processed.
pub fn engine_mmc(c: u32, rho: f64, service_ms: f64, n: u64, seed: u64) -> (f64, u64) {
    let s = Scenario {
        seed,
        ..bench_scenario(c, rho, service_ms, n)
    };
    let r = simulate(&s).expect("the bench scenario is valid");
    (r.latency_ms.mean, r.events)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analytic::mmc_response_ms;

    #[test]
    fn both_contestants_agree_with_erlang_c() {
        // 400,000 requests at ρ = 0.8 on 4 servers: the mean's relative standard
        // error is about 1 % (autocorrelated waits); 4 % is over 3 sigma.
        let theory = mmc_response_ms(4, 10.0, 0.8);
        let reference = reference_mmc(4, 0.8, 10.0, 400_000, 3);
        let (engine, events) = engine_mmc(4, 0.8, 10.0, 400_000, 3);
        assert!(
            (reference - theory).abs() / theory < 0.04,
            "{reference} vs {theory}"
        );
        assert!(
            (engine - theory).abs() / theory < 0.04,
            "{engine} vs {theory}"
        );
        assert!(
            events >= 800_000,
            "two events per request at least: {events}"
        );
    }
}
