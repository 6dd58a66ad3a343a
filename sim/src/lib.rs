//! # tellers-sim
//!
//! A deterministic discrete-event simulator of one server handling many
//! requests, and the queueing formulas that predict what it should show.
//!
//! ```text
//!  arrivals ─► [ line ] ─► teller (thread / loop / worker) ─► CPU ─► wait ─► CPU ─► done
//!                 │                 competes for `cores`             (off CPU)
//!                 └─ refused when full, dropped when the caller has gone
//! ```
//!
//! * [`scenario`] — the one schema for CLI flags, presets, URLs and lessons.
//! * [`analytic`] — CPU limit, thread limit, Little's law, M/M/1, M/M/c, M/D/1.
//!
//! Time in the engine is an integer number of nanoseconds; events at equal
//! times leave in the order they were scheduled. The generator is xoshiro256**,
//! so the same scenario and seed give the same report on every platform.

pub mod analytic;
pub mod bench;
#[cfg(not(target_arch = "wasm32"))]
pub mod cli;
pub mod closed_loop;
pub mod closed_pair;
pub mod engine;
pub mod fields;
pub mod histogram;
pub mod presets;
pub mod query;
pub mod report;
pub mod rng;
pub mod scenario;
pub mod schedule;
pub mod signs;
pub mod sweep;
pub mod text;
pub mod theory;
pub mod window;

pub use engine::{
    simulate, BreakerState, BreakerView, DepView, Simulation, Snapshot, TellerKind, TellerState,
    TellerView, SNAPSHOT_TELLERS,
};
pub use report::{Report, StoppedBy};
pub use scenario::{Accept, Arrivals, Discipline, Dist, FieldError, Model, Scenario};
