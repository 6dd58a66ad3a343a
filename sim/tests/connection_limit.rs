//! A connection limit with a connection per request is a loss system
//! (M/G/c/c): an arrival that finds every connection taken is refused, and
//! the share refused is Erlang B, whatever the shape of the time each
//! connection is held (it depends only on the mean). Theory's rate and CPU
//! count what the limit lets in by it (`analytic::erlang_b`); the engine
//! refuses at the door. Long runs agree with the formula.
//!
//! Tolerance: each scenario runs [`SEEDS`] independent times of
//! [`DURATION_S`] s (about 100,000 arrivals each); the mean refused share
//! of the runs must be within [`Z`] standard errors of the runs' mean of
//! Erlang B, plus [`FLOOR`] for what no run length removes: theory holds
//! each connection for the request's CPU and wait and leaves out its wait
//! for a loop (about 1 ms of CPU at a loop under 10 % busy here, against
//! 200 ms held), and a run starts with no connection open (its first 0.2 s
//! refuse nothing: 0.1 % of the run). With 10 runs the distance over the
//! standard error follows Student's t with 9 degrees of freedom, beyond
//! 4.5 with a chance of about 0.15 % per check.

use tellers_sim::analytic::erlang_b;
use tellers_sim::theory::theory;
use tellers_sim::{simulate, Dist, Model, Scenario};

const SEEDS: u64 = 10;
const DURATION_S: f64 = 200.0;
const Z: f64 = 4.5;
/// Of the share refused (0–1).
const FLOOR: f64 = 0.003;

fn scenario(wait_dist: Dist) -> Scenario {
    Scenario {
        model: Model::EventLoop,
        cores: 4,
        cpu_ms: 1.0,
        wait_ms: 200.0,
        wait_dist,
        rps: 500.0,
        max_connections: Some(80),
        duration_s: DURATION_S,
        ..Scenario::default()
    }
}

#[test]
fn the_share_a_connection_limit_refuses_is_erlang_b_whatever_the_holding_shape() {
    for dist in [Dist::Exp, Dist::Const] {
        let s = scenario(dist);
        // 500 rps × 201 ms held = 100.5 erlangs on 80 connections.
        let b = erlang_b(80, 500.0 * 0.201);
        assert!(b > 0.15 && b < 0.3, "a limit that binds: B = {b}");
        let shares: Vec<f64> = (1..=SEEDS)
            .map(|seed| {
                let r = simulate(&Scenario { seed, ..s.clone() }).expect("a valid scenario");
                assert!(r.arrived > 90_000, "{} arrived", r.arrived);
                r.refused as f64 / r.arrived as f64
            })
            .collect();
        let k = shares.len() as f64;
        let mean = shares.iter().sum::<f64>() / k;
        let sd = (shares.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (k - 1.0)).sqrt();
        let bound = Z * sd / k.sqrt() + FLOOR;
        assert!(
            (mean - b).abs() <= bound,
            "{dist:?}: refused {mean:.4} of arrivals (sd {sd:.4}), Erlang B {b:.4}, bound {bound:.4}"
        );
        // Theory's rate and CPU are what the limit lets in.
        let th = theory(&s);
        let admitted = 500.0 * (1.0 - b);
        assert!((th.expected_rps.unwrap() - admitted).abs() < 1e-9);
        assert!((th.cpu_utilisation.unwrap() - admitted * 0.001 / 4.0).abs() < 1e-9);
        assert!(
            th.approx_because.iter().any(|w| w.contains("Erlang B")),
            "{:?}",
            th.approx_because
        );
    }
}
