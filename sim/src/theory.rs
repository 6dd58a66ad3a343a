//! The analytic companion of a whole scenario: which limit binds, and what
//! queueing theory predicts for the response time, for showing beside the
//! simulated figures.
//!
//! The queue is taken at the binding resource: the pool's threads (service =
//! CPU + wait) when threads bind, or the cores (service = CPU; the wait is
//! added as a fixed delay) when the CPU binds. Exponential services give the
//! exact M/M/c figures; other shapes use the Allen–Cunneen correction
//! (mean wait × (1 + SCV) / 2), exact for one worker (Pollaczek–Khinchine).

use crate::analytic::{self, Capacity, Limit};
use crate::scenario::{Accept, Arrivals, Dist, Model, Scenario};
use serde::Serialize;

/// What theory says about a scenario.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Theory {
    /// CPU limit, thread limit and the capacity, rps.
    pub capacity: Capacity,
    /// Offered load (open arrivals), rps; `None` for batch and closed workloads.
    pub offered_rps: Option<f64>,
    /// Utilisation of the binding resource, 0–∞ (≥ 1 means overload).
    pub utilisation: Option<f64>,
    /// CPU utilisation expected, 0–1 (capped: the CPU cannot do more than all of its time).
    pub cpu_utilisation: Option<f64>,
    /// Workers in the queueing model (threads, cores or one loop).
    pub servers: u32,
    /// Service time at the binding resource, ms.
    pub service_ms: f64,
    /// The model's name, e.g. "M/M/4" or "M/G/1".
    pub queue_model: String,
    /// True when the formula is exact for this scenario (not an approximation).
    pub exact: bool,
    /// Mean response time, ms; `None` when overloaded or not open.
    pub mean_ms: Option<f64>,
    /// 99th percentile response time, ms (M/M/c formula; exact only when `exact`).
    pub p99_ms: Option<f64>,
    /// Threads needed by Little's law at the offered load.
    pub threads_needed: Option<f64>,
    /// Line growth when overloaded: offered − capacity, requests per second.
    pub growth_per_s: Option<f64>,
}

fn var(mean: f64, dist: Dist) -> f64 {
    match dist {
        Dist::Const => 0.0,
        Dist::Exp => mean * mean,
    }
}

/// Mean CPU per request and its variance, ms and ms², over both classes.
fn cpu_moments(s: &Scenario) -> (f64, f64) {
    let (h, l) = (s.heavy_share, 1.0 - s.heavy_share);
    let second = |m: f64| var(m, s.cpu_dist) + m * m;
    let mean = l * s.cpu_ms + h * s.heavy_cpu_ms;
    let ex2 = l * second(s.cpu_ms) + h * second(s.heavy_cpu_ms);
    let write_var = var(s.write_ms, s.cpu_dist);
    (mean + s.write_ms, (ex2 - mean * mean) + write_var)
}

/// The analytic companion of `s`.
pub fn theory(s: &Scenario) -> Theory {
    let capacity = analytic::capacity(s);
    let offered = matches!(s.arrivals, Arrivals::Poisson | Arrivals::Uniform).then_some(s.rps);
    let (cpu_mean, cpu_var) = cpu_moments(s);
    let wait_var = var(s.wait_ms, s.wait_dist);
    let pinned_loops = matches!(s.model, Model::EventLoop) && s.accept != Accept::Shared;
    let (servers, service_ms, svc_var, delay_ms) = match capacity.binding {
        Limit::Threads => (
            s.threads.max(1),
            cpu_mean + s.wait_ms,
            cpu_var + wait_var,
            0.0,
        ),
        Limit::Cpu => {
            let c = match s.model {
                Model::EventLoop if pinned_loops => 1,
                Model::EventLoop => s.cores.min(s.loop_count()),
                _ => s.cores,
            };
            (c, cpu_mean, cpu_var, s.wait_ms)
        }
    };
    let scv = if service_ms > 0.0 {
        svc_var / (service_ms * service_ms)
    } else {
        0.0
    };
    // Pinned loops: each loop is its own one-worker queue with 1/L of the traffic.
    let per_server_rps = match (offered, pinned_loops && capacity.binding == Limit::Cpu) {
        (Some(r), true) => Some(r / s.loop_count() as f64),
        (r, _) => r,
    };
    let rho = per_server_rps.map(|r| r * service_ms / 1000.0 / servers as f64);
    let letter = if scv == 0.0 {
        "D"
    } else if (scv - 1.0).abs() < 1e-12 {
        "M"
    } else {
        "G"
    };
    let exact = letter == "M" || servers == 1 || scv == 1.0;
    let stable = rho.is_some_and(|r| r < 1.0) && s.arrivals == Arrivals::Poisson;
    let (mean_ms, p99_ms) = if stable {
        let r = rho.unwrap_or(0.0);
        let wq = analytic::mmc_wait_ms(servers, service_ms, r) * (1.0 + scv) / 2.0;
        // When the cores are the line and a random wait follows, the wait is
        // added as the random time it is, not as a fixed delay.
        let p99 = if delay_ms > 0.0 && s.wait_dist == Dist::Exp {
            analytic::mmc_then_wait_p99_ms(servers, service_ms, r, delay_ms)
        } else {
            analytic::mmc_response_percentile_ms(servers, service_ms, r, 0.99) + delay_ms
        };
        (Some(wq + service_ms + delay_ms), Some(p99))
    } else {
        (None, None)
    };
    let cpu_utilisation = offered.map(|r| {
        let used = r.min(capacity.capacity_rps);
        (used * cpu_mean / 1000.0 / s.cores as f64).min(1.0)
    });
    Theory {
        offered_rps: offered,
        utilisation: offered.map(|r| r / capacity.capacity_rps),
        cpu_utilisation,
        servers,
        service_ms,
        queue_model: format!("M/{letter}/{servers}"),
        exact: exact && stable && s.arrivals == Arrivals::Poisson,
        mean_ms,
        p99_ms,
        threads_needed: offered.map(|r| analytic::threads_needed(r, s.mean_service_ms())),
        growth_per_s: offered.map(|r| (r - capacity.capacity_rps).max(0.0)),
        capacity,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::presets::preset;

    #[test]
    fn sale_day_is_thread_bound_at_200_rps_and_grows_by_200() {
        let t = theory(&preset("sale-day").unwrap());
        assert_eq!(t.capacity.binding, Limit::Threads);
        assert!((t.capacity.capacity_rps - 200.0).abs() < 1e-9);
        assert!((t.growth_per_s.unwrap() - 200.0).abs() < 1e-9);
        assert!((t.cpu_utilisation.unwrap() - 0.5).abs() < 1e-9);
        assert!((t.threads_needed.unwrap() - 40.0).abs() < 1e-9);
        assert_eq!(t.mean_ms, None, "overloaded: no finite mean");
    }

    #[test]
    fn mm1_preset_matches_the_textbook() {
        let t = theory(&preset("mm1").unwrap());
        assert_eq!(t.queue_model, "M/M/1");
        assert!(t.exact);
        assert!((t.mean_ms.unwrap() - 50.0).abs() < 1e-9);
    }

    #[test]
    fn md1_waits_half_as_long() {
        let t = theory(&preset("md1").unwrap());
        assert_eq!(t.queue_model, "M/D/1");
        assert!((t.mean_ms.unwrap() - (10.0 + 20.0)).abs() < 1e-9);
    }
}
