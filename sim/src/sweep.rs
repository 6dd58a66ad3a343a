//! The points of the utilisation → response-time curve: the scenario run
//! at a chosen utilisation of its capacity. The app's curve and
//! `tellers sweep` both use these, so they show the same points.

use crate::report::{Report, StoppedBy};
use crate::scenario::{Arrivals, Scenario, MAX_DURATION_S, MAX_RPS, MIN_RPS};
use crate::theory::{keep_alive_fill_s, keep_alive_life_s, theory, Theory};

/// Utilisations the curve is simulated at, as shares of the capacity (0–1).
pub const SWEEP_RHOS: [f64; 10] = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95];
/// Requests per simulated point of the curve: enough for a mean, quick to run.
pub const SWEEP_REQUESTS: u64 = 20_000;
/// Most requests a point with keep-alive connections runs, its warm-up
/// included ([`keep_alive_point`]): the WAF presets' points at 95 % run
/// about 200,000, within the points' event budget of 5 million.
const KEEP_ALIVE_MAX_REQUESTS: u64 = 250_000;

/// The fields [`sweep_scenario`] sets for each point, whatever the
/// scenario says: the CLI refuses them as `sweep` flags.
pub const SWEEP_SETS: &[&str] = &[
    "arrivals",
    "rps",
    "rps_schedule",
    "retries",
    "shed_after_ms",
    "requests",
    "timeout_ms",
    "duration_s",
    "warmup",
    "max_events",
];

/// `s` run at utilisation `rho` of its capacity, for one point of the curve:
/// Poisson arrivals at ρ × capacity, at most [`SWEEP_REQUESTS`] requests and
/// no timeout; with keep-alive connections, about as many measured once
/// the connections have reached the rate ([`keep_alive_point`]). `None`
/// when the curve does not apply (no finite capacity).
pub fn sweep_scenario(s: &Scenario, th: &Theory, rho: f64) -> Option<Scenario> {
    let cap = th.capacity.capacity_rps;
    if !(cap.is_finite() && cap > 0.0) {
        return None;
    }
    let rps = (rho * cap).clamp(MIN_RPS, MAX_RPS);
    let requests = SWEEP_REQUESTS;
    // Room for the arrivals, then for the last of them to finish: a request
    // takes at least its own work, and long waits (C10K's 10 s) outlast the
    // arrivals themselves.
    let own_work_s = (s.cpu_ms + s.wait_ms + s.write_ms + s.heavy_share * s.heavy_cpu_ms) / 1000.0;
    let point = Scenario {
        arrivals: Arrivals::Poisson,
        rps,
        // The curve is the steady state: no schedule, no caller who gives up
        // or retries, nobody shed.
        rps_schedule: None,
        retries: 0,
        shed_after_ms: None,
        requests: Some(requests),
        timeout_ms: None,
        duration_s: (requests as f64 / rps * 3.0 + 20.0 * own_work_s).clamp(1.0, MAX_DURATION_S),
        warmup: 0.1,
        max_events: 5_000_000,
        ..s.clone()
    };
    Some(if s.conn_requests > 1 {
        keep_alive_point(point)
    } else {
        point
    })
}

/// Least share of its rate a keep-alive point's arrivals must reach in its
/// measured window for the point to be drawn: below it the run never
/// reached the utilisation the point stands for. The WAF presets' points
/// reach 0.86 to 1.23 of their rates (seed 1: connections arrive in
/// bursts); connections that think for 100 s reached under a tenth.
pub const MIN_SHARE_ARRIVED: f64 = 0.5;

/// Why the point at utilisation `rho` cannot be drawn at its own load,
/// whatever its run shows: its rate is outside what the simulator takes,
/// so [`sweep_scenario`] ran it at the nearest rate it takes (a point at
/// ρ 0.9 of a server of 2 M rps ran at 1 M rps and was labelled 0.9).
pub fn rate_missed(th: &Theory, rho: f64) -> Option<&'static str> {
    let cap = th.capacity.capacity_rps;
    // No finite capacity: no curve at all, which sweep_scenario says.
    if !(cap.is_finite() && cap > 0.0) {
        return None;
    }
    let rps = rho * cap;
    if rps > MAX_RPS {
        Some("its rate would be above 1,000,000 rps, the most the simulator takes")
    } else if rps < MIN_RPS {
        Some("its rate would be below 0.001 rps, the least the simulator takes")
    } else {
        None
    }
}

/// Why the run `r` of a curve point (`point`, from [`sweep_scenario`])
/// cannot be drawn, in words, or `None` when it can: it measured no
/// request (what stopped it), or its arrivals reached under
/// [`MIN_SHARE_ARRIVED`] of the rate it was set to (keep-alive connections
/// that think for minutes open too slowly to reach the rate within a
/// point's run, and a point drawn there would stand at a load it never
/// had). The app's curve and `tellers sweep` both ask this.
pub fn point_missed(point: &Scenario, r: &Report) -> Option<&'static str> {
    if r.measured == 0 {
        return Some(match r.stopped_by {
            StoppedBy::EventBudget => {
                "the run spent its budget of events before a request finished"
            }
            StoppedBy::InFlightLimit | StoppedBy::CallLimit | StoppedBy::ConnLimit => {
                "the run stopped with more inside than the engine keeps, before a request finished"
            }
            StoppedBy::Duration | StoppedBy::AllDone => "no request finished inside the run",
        });
    }
    // Only a point whose arrivals last the whole run (keep-alive
    // connections): other points stop arriving after their count of
    // requests, and their window holds the last requests' finish too.
    (point.requests.is_none() && r.arrival_rps < MIN_SHARE_ARRIVED * point.rps).then_some(
        "requests arrived at under half the point's rate, so the run never reached its load",
    )
}

/// Theory of the curve's own points: `s` as [`sweep_scenario`] runs it at
/// the highest utilisation of [`SWEEP_RHOS`] (random arrivals at a steady
/// load below the limit, no timeout, retries or shedding). Its exactness
/// flags and reasons say whether the curve's theory lines are exact for
/// the points drawn beside them, which the scenario's own theory cannot
/// when the scenario is overloaded, its arrivals evenly spaced or its load
/// changing. `s`'s own theory (`th`) when the curve does not apply.
pub fn curve_theory(s: &Scenario, th: &Theory) -> Theory {
    let top = SWEEP_RHOS[SWEEP_RHOS.len() - 1];
    sweep_scenario(s, th, top).map_or_else(|| th.clone(), |p| theory(&p))
}

/// A point with keep-alive connections, measured once they have reached
/// its rate. A run starts with no connection open, and the arrivals come
/// up to the rate only once the first connections have sent all their
/// requests: a connection lives `conn_requests` × (think time + response
/// time), and the connections opened early, which waited less, are
/// followed by ones that live longer as the line grows. So the warm-up is
/// twice that life, with theory's mean response time, and at least 1.5
/// and at most 4 times [`keep_alive_fill_s`] (the life with no waiting):
/// ten runs of `waf-inline` at 95 % of its capacity were 0.90 busy on
/// average after 3 times it and 0.92 after 4 times it, against 0.93 at
/// length. The point then measures about [`SWEEP_REQUESTS`] requests, and
/// stops arrivals only with the run (no count of requests: arrivals before
/// the window are fewer than the rate gives). At most
/// [`KEEP_ALIVE_MAX_REQUESTS`] arrive in all: connections that live for
/// many minutes get a shorter warm-up, and the theory of the points says
/// their runs start empty ([`crate::theory::load_as_offered`]).
fn keep_alive_point(point: Scenario) -> Scenario {
    let fill_s = keep_alive_fill_s(&point);
    let response_ms = theory(&point).mean_ms.unwrap_or(f64::INFINITY);
    let life_s = keep_alive_life_s(&point, response_ms);
    let measured_s = SWEEP_REQUESTS as f64 / point.rps;
    // At most KEEP_ALIVE_MAX_REQUESTS arrive in all (the event budget):
    // a longer warm-up is cut, and theory then says the run starts empty.
    let all_s = KEEP_ALIVE_MAX_REQUESTS as f64 / point.rps;
    let most_s = (all_s - measured_s).min(0.9 * all_s);
    // And at least the usual point's warm-up: a tenth of its requests.
    let warm_s = (2.0 * life_s)
        .clamp(1.5 * fill_s, 4.0 * fill_s)
        .min(most_s)
        .max(0.1 * measured_s);
    // The warm-up share may be at most 0.9 of the run.
    let duration_s = (warm_s + measured_s)
        .max(warm_s / 0.9)
        .clamp(1.0, MAX_DURATION_S);
    Scenario {
        requests: None,
        duration_s,
        warmup: (warm_s / duration_s).min(0.9),
        ..point
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::presets::preset;
    use crate::theory::theory;

    /// A point whose rate the simulator does not take is missed, with the
    /// bound in the words (it ran at the bound and was labelled with its ρ),
    /// and the bounds said are the field's.
    #[test]
    fn a_point_outside_the_simulators_rates_is_missed() {
        let fast = Scenario {
            cores: 64,
            cpu_ms: 0.01,
            wait_ms: 0.0,
            threads: 1000,
            ..Scenario::default()
        };
        let th = theory(&fast);
        assert!(th.capacity.capacity_rps > MAX_RPS / 0.5);
        assert_eq!(rate_missed(&th, 0.1), None);
        assert!(rate_missed(&th, 0.5)
            .unwrap()
            .contains("above 1,000,000 rps"));
        let slow = Scenario {
            cores: 1,
            threads: 1,
            cpu_ms: 600_000.0,
            wait_ms: 0.0,
            ..Scenario::default()
        };
        let th = theory(&slow);
        assert!(rate_missed(&th, 0.1).unwrap().contains("below 0.001 rps"));
        assert_eq!(rate_missed(&th, 0.9), None);
        // No finite capacity is no curve, not a rate out of range (the
        // playground said every point's rate was above the bound).
        let unlimited = Scenario {
            model: crate::Model::EventLoop,
            cpu_ms: 0.0,
            ..Scenario::default()
        };
        let th = theory(&unlimited);
        assert!(sweep_scenario(&unlimited, &th, 0.5).is_none());
        assert_eq!(rate_missed(&th, 0.5), None);
        // The words name the bounds: a change of bound changes them.
        assert_eq!((MAX_RPS, MIN_RPS), (1_000_000.0, 0.001));
    }

    #[test]
    fn a_point_is_drawn_once_it_measured_requests_at_its_load() {
        let th = theory(&Scenario::default());
        let point = sweep_scenario(&Scenario::default(), &th, 0.5).unwrap();
        let ran = Report {
            measured: 100,
            arrival_rps: 0.1 * point.rps,
            ..Report::default()
        };
        // A counted point's arrivals stop early: its window's rate says
        // nothing of its load.
        assert!(point.requests.is_some());
        assert_eq!(point_missed(&point, &ran), None);
        let nothing = Report {
            measured: 0,
            stopped_by: StoppedBy::EventBudget,
            ..ran
        };
        assert_eq!(
            point_missed(&point, &nothing),
            Some("the run spent its budget of events before a request finished")
        );
        // Keep-alive connections that think for 100 s: the point's run
        // never reaches its rate, and is not drawn.
        let slow = Scenario {
            model: crate::Model::EventLoop,
            conn_requests: 100_000,
            think_ms: 100_000.0,
            ..Scenario::default()
        };
        let slow_th = theory(&slow);
        let p = sweep_scenario(&slow, &slow_th, 0.5).unwrap();
        let r = crate::simulate(&p).unwrap();
        assert!(
            r.measured > 0 && r.arrival_rps < 0.1 * p.rps,
            "{} of {}",
            r.arrival_rps,
            p.rps
        );
        assert_eq!(
            point_missed(&p, &r),
            Some("requests arrived at under half the point's rate, so the run never reached its load")
        );
        // The WAF presets' keep-alive points reach their rates.
        let waf = preset("waf-inline").unwrap();
        let waf_th = theory(&waf);
        let p = sweep_scenario(&waf, &waf_th, 0.5).unwrap();
        assert_eq!(point_missed(&p, &crate::simulate(&p).unwrap()), None);
    }

    #[test]
    fn the_fields_a_point_sets_are_the_ones_listed() {
        let s = Scenario::default();
        let th = theory(&s);
        let mut other = s.clone();
        let changes = [
            ("arrivals", "uniform"),
            ("rps", "50"),
            ("rps_schedule", "0:10,5:20"),
            ("retries", "2"),
            ("shed_after_ms", "100"),
            ("requests", "5"),
            ("timeout_ms", "500"),
            ("duration_s", "7"),
            ("warmup", "0.3"),
            ("max_events", "1234"),
        ];
        for (name, text) in changes {
            Scenario::field(name)
                .unwrap()
                .set_text(&mut other, text)
                .unwrap();
        }
        assert_ne!(s, other);
        assert_eq!(
            sweep_scenario(&s, &th, 0.5),
            sweep_scenario(&other, &th, 0.5)
        );
        let names: Vec<&str> = changes.iter().map(|c| c.0).collect();
        assert_eq!(names, SWEEP_SETS);
    }

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
    fn the_curves_formulas_are_exact_for_its_points_at_any_load_of_the_scenario() {
        // M/M/1 at twice its limit: theory has no mean for the scenario,
        // but the curve's points run below the limit, where it is exact.
        let over = Scenario {
            rps: 200.0,
            ..preset("mm1").unwrap()
        };
        let th = theory(&over);
        assert!(th.mean_ms.is_none() && !th.mean_exact, "overloaded");
        let c = curve_theory(&over, &th);
        assert!(c.mean_exact && c.p99_exact, "{:?}", c.approx_because);
        // Evenly spaced arrivals: the scenario's figures are approximate,
        // the curve's points arrive at random.
        let even = Scenario {
            arrivals: Arrivals::Uniform,
            ..preset("mm1").unwrap()
        };
        assert!(!theory(&even).mean_exact);
        assert!(curve_theory(&even, &theory(&even)).mean_exact);
        // What is approximate for the points stays so: a pool holding its
        // threads through a random wait.
        let planned = preset("sale-day-planned").unwrap();
        let c = curve_theory(&planned, &theory(&planned));
        assert!(!c.mean_exact && !c.approx_because.is_empty());
    }

    #[test]
    fn keep_alive_points_are_measured_once_the_connections_reach_the_rate() {
        // A run starts with no connection open; measured from the start
        // of the usual window, the WAF presets' points at 90 % of their
        // capacity got about half their rate. Each seed's rate wanders by
        // 5 to 10 % (a few hundred connections, each sending for a
        // minute or more), so the mean of ten seeds is checked at 8 %,
        // about three of its standard errors.
        for (name, rho) in [("waf-inline", 0.9), ("waf-offload-round-robin", 0.5)] {
            let s = preset(name).unwrap();
            let th = theory(&s);
            let ratios: Vec<f64> = (1..=10)
                .map(|seed| {
                    let p = sweep_scenario(&Scenario { seed, ..s.clone() }, &th, rho).unwrap();
                    assert!(p.validate().is_empty());
                    crate::simulate(&p).unwrap().arrival_rps / p.rps
                })
                .collect();
            let mean = ratios.iter().sum::<f64>() / 10.0;
            assert!((mean - 1.0).abs() < 0.08, "{name} at {rho}: {ratios:?}");
            // And theory no longer says the point's run starts empty.
            assert!(!starts_empty(&curve_theory(&s, &th)));
        }
    }

    #[test]
    fn connections_that_live_for_many_minutes_get_a_warm_up_the_event_budget_allows() {
        // 1,000 requests a connection, 0.5 s apart: each lives about 9
        // minutes, and four lives at 95 % would be 2.7 million requests.
        let s = Scenario {
            conn_requests: 1000,
            think_ms: 500.0,
            ..preset("waf-inline").unwrap()
        };
        let th = theory(&s);
        let p = sweep_scenario(&s, &th, 0.95).unwrap();
        assert!(p.validate().is_empty());
        assert!(p.rps * p.duration_s <= KEEP_ALIVE_MAX_REQUESTS as f64 * 1.001);
        let r = crate::simulate(&p).unwrap();
        assert!(r.measured > 5_000, "{:?} {}", r.stopped_by, r.measured);
        assert!(starts_empty(&curve_theory(&s, &th)));
    }

    /// Whether theory says a run starts with no keep-alive connection open.
    fn starts_empty(th: &Theory) -> bool {
        th.approx_because
            .iter()
            .any(|w| w.contains("no connection open"))
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
