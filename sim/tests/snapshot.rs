//! What the animation is given: bounded lists, but counts over everything.

use tellers_sim::{Model, Scenario, Simulation};

#[test]
fn with_thousands_of_threads_the_snapshot_lists_256_but_counts_them_all() {
    // λ = 2,000/s, each request waits 1 s: about 2,000 threads at once.
    let s = Scenario {
        model: Model::ThreadPerRequest,
        threads: 0,
        cores: 4,
        cpu_ms: 0.2,
        wait_ms: 1000.0,
        rps: 2000.0,
        duration_s: 10.0,
        ..Scenario::default()
    };
    let mut sim = Simulation::new(&s).unwrap();
    sim.run_until(5_000_000_000, u64::MAX);
    let snap = sim.snapshot();
    assert_eq!(snap.tellers.len(), 256, "the list is bounded");
    assert!(snap.tellers_alive > 1_500, "{} threads", snap.tellers_alive);
    assert!(snap.tellers_busy > 1_500, "{} busy", snap.tellers_busy);
    assert!(snap.tellers_busy <= snap.tellers_alive);
    assert!(snap.inside > 1_500 && snap.waiting > 1_500, "{snap:?}");
}
