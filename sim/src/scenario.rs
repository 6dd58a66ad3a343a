//! The scenario: everything that decides a run, in one flat, serde-friendly
//! struct shared by the CLI, presets, URLs and lesson blocks.
//!
//! Flat on purpose: every field is one slider, one CLI flag
//! (`snake_case` → `--kebab-case`) and one URL parameter. Fields a model does
//! not use are ignored by it (the pool size means nothing to an event loop).
//! [`Scenario::validate`] names every bad field and its allowed range.

use serde::{Deserialize, Serialize};
use std::fmt;

/// How the server runs requests.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Model {
    /// A new thread for each accepted request; `threads` caps them (0 = no cap).
    ThreadPerRequest,
    /// `threads` threads and a FIFO line (`queue_limit`) in front of them.
    ThreadPool,
    /// `loops` event loops; CPU steps run to the end on their loop.
    EventLoop,
    /// Event loops that hand CPU steps of at least `offload_above_ms` to `workers` threads.
    EventLoopWorkers,
}

/// How new connections are spread over event loops.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Accept {
    /// One shared line of ready steps: any free loop takes the next one.
    Shared,
    /// Each connection is pinned to a loop chosen at random.
    Random,
    /// Each connection is pinned to the next loop in turn.
    RoundRobin,
    /// Connections wait in the listen line until some loop is idle; that loop
    /// (the one that became idle last, as epoll wakes it) accepts and keeps it.
    Idlest,
}

/// The shape of a per-request time.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Dist {
    /// Always the mean.
    Const,
    /// Exponential with that mean.
    Exp,
}

/// How requests arrive.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Arrivals {
    /// Open: Poisson at `rps`.
    Poisson,
    /// Open: evenly spaced at `rps`.
    Uniform,
    /// `count` requests all at t = 0.
    Batch,
    /// Closed: `clients` clients, each sending its next request `think_ms`
    /// after the previous answer came back (or after it gave up).
    Closed,
}

/// One scenario. Times are in the unit their name says; `Option` fields are
/// off when `None`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Scenario {
    // --- server ---
    /// The concurrency model.
    pub model: Model,
    /// CPU cores, 1–1,024.
    pub cores: u32,
    /// Pool size (thread pool) or thread cap (thread per request, 0 = no cap).
    pub threads: u32,
    /// Longest line before new requests are refused; `None` = no limit.
    pub queue_limit: Option<u32>,
    /// Event loops; 0 = one per core.
    pub loops: u32,
    /// How connections are spread over loops.
    pub accept: Accept,
    /// Worker threads beside the loops (event loop + workers).
    pub workers: u32,
    /// CPU steps costing at least this many ms go to the workers (0 = all).
    pub offload_above_ms: f64,
    /// Offload by class instead: every read step of the heavy class goes to
    /// the workers, whatever it costs (the server knows which requests need
    /// the slow work, not how long it will take).
    pub offload_heavy: bool,
    /// Loop CPU time, ms, to hand a step over and take its result back.
    pub handoff_ms: f64,
    /// CPU time, ms, to create a thread (thread per request).
    pub spawn_ms: f64,
    /// Time slice, ms, when more threads want the CPU than there are cores.
    pub time_slice_ms: f64,
    /// CPU cost of one context switch, µs.
    pub switch_us: f64,
    /// Most open connections (file descriptors); `None` = no limit.
    pub max_connections: Option<u32>,
    /// Stack set aside per thread, KB (1 MB = 1,000 KB in reports).
    pub stack_reserved_kb: f64,
    /// Stack really used per thread, KB.
    pub stack_used_kb: f64,
    /// State kept per open connection, KB.
    pub conn_state_kb: f64,

    // --- workload ---
    /// Mean CPU time to read and compute, ms (light class).
    pub cpu_ms: f64,
    /// Shape of the CPU times.
    pub cpu_dist: Dist,
    /// Mean wait off the CPU (database, disk, another service), ms.
    pub wait_ms: f64,
    /// Shape of the wait times.
    pub wait_dist: Dist,
    /// Mean CPU time to write the answer, ms (drawn like `cpu_dist`).
    pub write_ms: f64,
    /// Share of requests in the heavy class, 0–1.
    pub heavy_share: f64,
    /// Mean read + compute CPU time of the heavy class, ms.
    pub heavy_cpu_ms: f64,
    /// Arrival process.
    pub arrivals: Arrivals,
    /// Arrival rate for open arrivals, requests per second.
    pub rps: f64,
    /// Requests in a batch.
    pub count: u32,
    /// Clients in a closed loop.
    pub clients: u32,
    /// Think time between a client's answer and its next request, ms.
    pub think_ms: f64,

    // --- callers and the run ---
    /// The caller gives up after this many ms; `None` = waits for ever.
    pub timeout_ms: Option<f64>,
    /// Drop a request whose caller has gone before starting it.
    pub drop_abandoned: bool,
    /// Stop arrivals after this many requests and run until all are done.
    pub requests: Option<u64>,
    /// End the run at this simulated time, s.
    pub duration_s: f64,
    /// Fraction of an open run discarded as warm-up, 0–0.9.
    pub warmup: f64,
    /// Most events before the run is stopped.
    pub max_events: u64,
    /// Seed of the random generator.
    pub seed: u64,
}

impl Default for Scenario {
    fn default() -> Self {
        Scenario {
            model: Model::ThreadPool,
            cores: 4,
            threads: 20,
            queue_limit: None,
            loops: 0,
            accept: Accept::RoundRobin,
            workers: 4,
            offload_above_ms: 5.0,
            offload_heavy: false,
            handoff_ms: 0.05,
            spawn_ms: 0.05,
            time_slice_ms: 4.0,
            switch_us: 5.0,
            max_connections: None,
            stack_reserved_kb: 1000.0,
            stack_used_kb: 100.0,
            conn_state_kb: 10.0,
            cpu_ms: 10.0,
            cpu_dist: Dist::Exp,
            wait_ms: 90.0,
            wait_dist: Dist::Exp,
            write_ms: 0.0,
            heavy_share: 0.0,
            heavy_cpu_ms: 100.0,
            arrivals: Arrivals::Poisson,
            rps: 150.0,
            count: 1000,
            clients: 10,
            think_ms: 0.0,
            timeout_ms: None,
            drop_abandoned: false,
            requests: None,
            duration_s: 60.0,
            warmup: 0.1,
            max_events: 200_000_000,
            seed: 1,
        }
    }
}

/// One bad field: its name (as in JSON) and what is wrong and allowed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct FieldError {
    /// Field name, `snake_case` as in JSON.
    pub field: String,
    /// What is wrong and what is allowed.
    pub message: String,
}

impl fmt::Display for FieldError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.field, self.message)
    }
}

/// Upper bound on the work a scenario can ask for, so every run is finite.
pub const MAX_EVENTS: u64 = 2_000_000_000;

fn check(errs: &mut Vec<FieldError>, field: &str, value: f64, lo: f64, hi: f64, unit: &str) {
    if !value.is_finite() || value < lo || value > hi {
        let shown = if value.is_finite() {
            format!("{value}")
        } else {
            "not a number".to_string()
        };
        errs.push(FieldError {
            field: field.to_string(),
            message: format!("{shown} is out of range: allowed {lo}–{hi}{unit}"),
        });
    }
}

impl Scenario {
    /// Every bad field, with its allowed range. Empty when the scenario can run.
    pub fn validate(&self) -> Vec<FieldError> {
        let mut e = Vec::new();
        let s = self;
        check(&mut e, "cores", s.cores as f64, 1.0, 1024.0, "");
        let min_threads = if s.model == Model::ThreadPerRequest {
            0.0
        } else {
            1.0
        };
        if matches!(s.model, Model::ThreadPool | Model::ThreadPerRequest) {
            check(
                &mut e,
                "threads",
                s.threads as f64,
                min_threads,
                100_000.0,
                "",
            );
        }
        if let Some(q) = s.queue_limit {
            check(&mut e, "queue_limit", q as f64, 0.0, 10_000_000.0, "");
        }
        check(
            &mut e,
            "loops",
            s.loops as f64,
            0.0,
            1024.0,
            " (0 = one per core)",
        );
        if s.model == Model::EventLoopWorkers {
            check(&mut e, "workers", s.workers as f64, 1.0, 10_000.0, "");
        }
        check(
            &mut e,
            "offload_above_ms",
            s.offload_above_ms,
            0.0,
            600_000.0,
            " ms",
        );
        check(&mut e, "handoff_ms", s.handoff_ms, 0.0, 1_000.0, " ms");
        check(&mut e, "spawn_ms", s.spawn_ms, 0.0, 1_000.0, " ms");
        check(
            &mut e,
            "time_slice_ms",
            s.time_slice_ms,
            0.1,
            1_000.0,
            " ms",
        );
        check(&mut e, "switch_us", s.switch_us, 0.0, 10_000.0, " µs");
        if let Some(c) = s.max_connections {
            check(&mut e, "max_connections", c as f64, 1.0, 10_000_000.0, "");
        }
        check(
            &mut e,
            "stack_reserved_kb",
            s.stack_reserved_kb,
            0.0,
            1_048_576.0,
            " KB",
        );
        check(
            &mut e,
            "stack_used_kb",
            s.stack_used_kb,
            0.0,
            1_048_576.0,
            " KB",
        );
        if s.stack_used_kb.is_finite()
            && s.stack_reserved_kb.is_finite()
            && s.stack_used_kb > s.stack_reserved_kb
        {
            e.push(FieldError {
                field: "stack_used_kb".into(),
                message: format!(
                    "{} KB is more than the {} KB set aside (stack_reserved_kb): a thread cannot use more stack than it has",
                    s.stack_used_kb, s.stack_reserved_kb
                ),
            });
        }
        check(
            &mut e,
            "conn_state_kb",
            s.conn_state_kb,
            0.0,
            1_048_576.0,
            " KB",
        );
        check(&mut e, "cpu_ms", s.cpu_ms, 0.0, 600_000.0, " ms");
        check(&mut e, "wait_ms", s.wait_ms, 0.0, 3_600_000.0, " ms");
        check(&mut e, "write_ms", s.write_ms, 0.0, 600_000.0, " ms");
        check(&mut e, "heavy_share", s.heavy_share, 0.0, 1.0, "");
        check(
            &mut e,
            "heavy_cpu_ms",
            s.heavy_cpu_ms,
            0.0,
            600_000.0,
            " ms",
        );
        match s.arrivals {
            Arrivals::Poisson | Arrivals::Uniform => check(
                &mut e,
                "rps",
                s.rps,
                0.001,
                1_000_000.0,
                " requests per second",
            ),
            Arrivals::Batch => check(
                &mut e,
                "count",
                s.count as f64,
                1.0,
                10_000_000.0,
                " requests",
            ),
            Arrivals::Closed => check(
                &mut e,
                "clients",
                s.clients as f64,
                1.0,
                100_000.0,
                " clients",
            ),
        }
        check(&mut e, "think_ms", s.think_ms, 0.0, 3_600_000.0, " ms");
        if let Some(t) = s.timeout_ms {
            check(&mut e, "timeout_ms", t, 0.001, 3_600_000.0, " ms");
        }
        if let Some(n) = s.requests {
            check(
                &mut e,
                "requests",
                n as f64,
                1.0,
                100_000_000.0,
                " requests",
            );
        }
        check(&mut e, "duration_s", s.duration_s, 0.001, 86_400.0, " s");
        check(
            &mut e,
            "warmup",
            s.warmup,
            0.0,
            0.9,
            " (a fraction of the run)",
        );
        check(
            &mut e,
            "max_events",
            s.max_events as f64,
            1.0,
            MAX_EVENTS as f64,
            " events",
        );
        e
    }

    /// Loops actually run: `loops`, or one per core when 0.
    pub fn loop_count(&self) -> u32 {
        if self.loops == 0 {
            self.cores
        } else {
            self.loops
        }
    }

    /// Mean CPU time of one request over both classes, ms.
    pub fn mean_cpu_ms(&self) -> f64 {
        (1.0 - self.heavy_share) * self.cpu_ms
            + self.heavy_share * self.heavy_cpu_ms
            + self.write_ms
    }

    /// Mean time a request spends being served (CPU + wait), ms, with no line.
    pub fn mean_service_ms(&self) -> f64 {
        self.mean_cpu_ms() + self.wait_ms
    }

    /// Parse a scenario from JSON, turning serde's message into a field error.
    pub fn from_json(text: &str) -> Result<Scenario, Vec<FieldError>> {
        let s: Scenario = serde_json::from_str(text).map_err(|err| {
            vec![FieldError {
                field: "scenario".into(),
                message: format!("not a valid scenario: {err}"),
            }]
        })?;
        let errs = s.validate();
        if errs.is_empty() {
            Ok(s)
        } else {
            Err(errs)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_is_valid() {
        assert_eq!(Scenario::default().validate(), vec![]);
    }

    #[test]
    fn each_bad_field_is_named_with_its_range() {
        let s = Scenario {
            cores: 0,
            cpu_ms: f64::NAN,
            warmup: 2.0,
            ..Scenario::default()
        };
        let errs = s.validate();
        let fields: Vec<_> = errs.iter().map(|e| e.field.as_str()).collect();
        assert_eq!(fields, ["cores", "cpu_ms", "warmup"]);
        assert!(errs[0].message.contains("allowed 1–1024"), "{}", errs[0]);
        assert!(errs[1].message.contains("not a number"), "{}", errs[1]);
    }

    #[test]
    fn unknown_json_field_is_refused_with_its_name() {
        let err = Scenario::from_json(r#"{"corez": 4}"#).unwrap_err();
        assert!(err[0].message.contains("corez"), "{}", err[0]);
    }

    #[test]
    fn json_round_trip_keeps_every_field() {
        let s = Scenario {
            model: Model::EventLoopWorkers,
            timeout_ms: Some(3000.0),
            ..Scenario::default()
        };
        let text = serde_json::to_string(&s).unwrap();
        assert_eq!(Scenario::from_json(&text).unwrap(), s);
    }
}
