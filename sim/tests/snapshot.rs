//! What the animation is given: bounded lists, but counts over everything.

use tellers_sim::{Model, Scenario, Simulation, TellerState, SNAPSHOT_TELLERS};

/// A thread per request on 4 cores, λ = 2,000/s, each request waiting 1 s
/// off the CPU: about 2,000 threads at once.
fn two_thousand_threads(cpu_ms: f64) -> Simulation {
    let s = Scenario {
        model: Model::ThreadPerRequest,
        cores: 4,
        cpu_ms,
        wait_ms: 1000.0,
        rps: 2000.0,
        duration_s: 10.0,
        ..Scenario::default()
    };
    Simulation::new(&s).unwrap()
}

#[test]
fn with_thousands_of_threads_the_snapshot_lists_256_but_counts_them_all() {
    let mut sim = two_thousand_threads(0.2);
    sim.run_until(5_000_000_000, u64::MAX);
    let snap = sim.snapshot();
    assert_eq!(snap.tellers.len(), SNAPSHOT_TELLERS, "the list is bounded");
    assert!(snap.tellers_alive > 1_500, "{} threads", snap.tellers_alive);
    assert!(snap.tellers_busy > 1_500, "{} busy", snap.tellers_busy);
    assert!(snap.tellers_busy <= snap.tellers_alive);
    assert!(snap.inside > 1_500 && snap.waiting > 1_500, "{snap:?}");
}

#[test]
fn the_tellers_on_a_core_are_always_among_those_listed() {
    // Most of the 2,000 threads wait; the few on a core must be drawn.
    let mut sim = two_thousand_threads(1.0);
    let mut seen_busy = 0;
    for second in 2..8u64 {
        sim.run_until(second * 1_000_000_000, u64::MAX);
        let snap = sim.snapshot();
        let on_core = snap
            .tellers
            .iter()
            .filter(|t| t.state == TellerState::OnCore)
            .count();
        assert_eq!(
            on_core as u32, snap.busy_cores,
            "at {second} s: {} cores busy",
            snap.busy_cores
        );
        seen_busy += on_core;
    }
    assert!(
        seen_busy > 0,
        "some thread was on a core at some sampled moment"
    );
}
