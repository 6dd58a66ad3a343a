//! Scenarios that more than one test file checks.

use tellers_sim::Scenario;

/// 20 threads on 8 cores at 400 rps; each request holds its thread for
/// 1 ms of CPU, then the slowest of 10 random calls of 10 ms: the threads
/// bind, and the calls are inside the time a thread is held.
pub fn thread_bound_fan_out() -> Scenario {
    Scenario {
        cores: 8,
        threads: 20,
        cpu_ms: 1.0,
        wait_ms: 10.0,
        fan_out: 10,
        rps: 400.0,
        ..Scenario::default()
    }
}
