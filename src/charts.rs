//! What the charts show, as plain data: the utilisation → response-time
//! curve (theory for one and for c workers, simulated points, the operating
//! point) and the time series of a run. [`crate::draw`] paints them.

use tellers_sim::report::{Report, SeriesPoint};
use tellers_sim::theory::Theory;

use crate::figures::warming_up;

/// Okabe–Ito colours: distinct for the common kinds of colour blindness.
pub mod palette {
    /// Orange: a teller on a core; requests inside.
    pub const ORANGE: &str = "#E69F00";
    /// Sky blue: waiting off the CPU.
    pub const SKY: &str = "#56B4E9";
    /// Bluish green: completed; CPU.
    pub const GREEN: &str = "#009E73";
    /// Yellow: wants a core.
    pub const YELLOW: &str = "#F0E442";
    /// Blue: in the line; mean latency.
    pub const BLUE: &str = "#0072B2";
    /// Vermillion: refused; p99 latency.
    pub const VERMILLION: &str = "#D55E00";
    /// Reddish purple: timed out; the operating point.
    pub const PURPLE: &str = "#CC79A7";
}

/// How a series is drawn.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Mark {
    /// A solid line.
    Line,
    /// A dashed line.
    Dashed,
    /// Filled dots.
    Dots,
    /// Filled squares.
    Squares,
    /// A large ring (the operating point).
    Ring,
}

/// One series of a chart.
#[derive(Clone, Debug, PartialEq)]
pub struct Series {
    /// Legend text.
    pub label: String,
    /// Colour.
    pub color: &'static str,
    /// How it is drawn.
    pub mark: Mark,
    /// Points (x, y) in data units; non-finite ones are skipped.
    pub points: Vec<(f64, f64)>,
}

/// A chart: axes with labels and units, and its series.
#[derive(Clone, Debug, PartialEq)]
pub struct Chart {
    /// x-axis label with unit.
    pub x_label: String,
    /// y-axis label with unit.
    pub y_label: String,
    /// x range.
    pub x: (f64, f64),
    /// y range.
    pub y: (f64, f64),
    /// Log scale on y.
    pub y_log: bool,
    /// x ticks shown as percentages (x in 0–1).
    pub x_percent: bool,
    /// The series.
    pub series: Vec<Series>,
}

/// One simulated point of the curve: utilisation, mean and p99 response time, ms.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SweepPoint {
    /// Utilisation of the binding resource, 0–1.
    pub rho: f64,
    /// Mean response time, ms.
    pub mean_ms: f64,
    /// 99th percentile response time, ms.
    pub p99_ms: f64,
}

/// The simulated points as JSON, `[[rho, mean_ms, p99_ms], …]`, each number
/// written to round-trip exactly (tests compare them with `tellers sweep`).
pub fn sweep_json(points: &[SweepPoint]) -> String {
    let rows: Vec<String> = points
        .iter()
        .map(|p| format!("[{},{},{}]", p.rho, p.mean_ms, p.p99_ms))
        .collect();
    format!("[{}]", rows.join(","))
}

/// A log axis range, in whole decades, covering every positive finite value.
pub fn log_range(values: impl IntoIterator<Item = f64>) -> (f64, f64) {
    let (mut lo, mut hi) = (f64::INFINITY, 0.0f64);
    for v in values.into_iter().filter(|v| v.is_finite() && *v > 0.0) {
        lo = lo.min(v);
        hi = hi.max(v);
    }
    if !lo.is_finite() {
        return (1.0, 1000.0);
    }
    let lo = 10f64.powf((lo * 0.8).log10().floor());
    let hi = 10f64.powf(hi.log10().ceil()).max(lo * 10.0);
    (lo, hi)
}

/// A linear axis maximum: a little above the largest value, at least `floor`.
pub fn linear_max(values: impl IntoIterator<Item = f64>, floor: f64) -> f64 {
    let m = values
        .into_iter()
        .filter(|v| v.is_finite())
        .fold(floor, f64::max);
    m * 1.1
}

/// Offered load (tries arriving, retries included), throughput, goodput
/// and retries per second over the run: the spike, the collapse and the
/// recovery of an overloaded server.
fn load_chart(series: &[SeriesPoint], t_max: f64) -> Chart {
    let pts = |f: fn(&SeriesPoint) -> f64| series.iter().map(|p| (p.t_s, f(p))).collect::<Vec<_>>();
    let y_max = linear_max(
        series
            .iter()
            .flat_map(|p| [p.offered_rps, p.throughput_rps, p.goodput_rps]),
        1.0,
    );
    Chart {
        x_label: "Simulated time, s".into(),
        y_label: "Requests per second".into(),
        x: (0.0, t_max),
        y: (0.0, y_max),
        y_log: false,
        x_percent: false,
        series: vec![
            Series {
                label: "arriving (retries too)".into(),
                color: palette::BLUE,
                mark: Mark::Line,
                points: pts(|p| p.offered_rps),
            },
            Series {
                label: "finished".into(),
                color: palette::ORANGE,
                mark: Mark::Dashed,
                points: pts(|p| p.throughput_rps),
            },
            Series {
                label: "finished in time (goodput)".into(),
                color: palette::GREEN,
                mark: Mark::Line,
                points: pts(|p| p.goodput_rps),
            },
            Series {
                label: "retries".into(),
                color: palette::PURPLE,
                mark: Mark::Dashed,
                points: pts(|p| p.retries_rps),
            },
        ],
    }
}

/// Utilisations of the theory lines.
fn theory_rhos() -> Vec<f64> {
    (1..=49).map(|i| f64::from(i) * 0.02).collect()
}

/// The utilisation → response-time chart: theory for one worker and for
/// `th.servers` workers (mean and p99), the simulated points, and where the
/// scenario runs now (from `live`, when it has open arrivals below capacity).
pub fn curve_chart(th: &Theory, points: &[SweepPoint], live: Option<&Report>) -> Chart {
    let c = th.servers.max(1);
    let rhos = theory_rhos();
    // Theory decides the formula (and its corrections); the chart only reads it.
    let line = |n: u32, p99: bool| -> Vec<(f64, f64)> {
        rhos.iter()
            .map(|&r| {
                (
                    r,
                    if p99 {
                        th.p99_at(n, r)
                    } else {
                        th.mean_at(n, r)
                    },
                )
            })
            .collect()
    };
    let label = |what: &str, exact: bool| {
        if exact {
            what.to_owned()
        } else {
            format!("{what} (approx.)")
        }
    };
    let workers = |n: u32| {
        if n == 1 {
            "1 worker".to_owned()
        } else {
            format!("{n} workers")
        }
    };
    let mut series = vec![
        Series {
            label: label(&format!("mean, theory, {}", workers(c)), th.mean_exact),
            color: palette::BLUE,
            mark: Mark::Line,
            points: line(c, false),
        },
        Series {
            label: label(&format!("p99, theory, {}", workers(c)), th.p99_exact),
            color: palette::VERMILLION,
            mark: Mark::Line,
            points: line(c, true),
        },
    ];
    if c > 1 {
        series.push(Series {
            label: "mean, 1 worker".into(),
            color: palette::BLUE,
            mark: Mark::Dashed,
            points: line(1, false),
        });
        series.push(Series {
            label: "p99, 1 worker".into(),
            color: palette::VERMILLION,
            mark: Mark::Dashed,
            points: line(1, true),
        });
    }
    series.push(Series {
        label: "mean, simulated".into(),
        color: palette::BLUE,
        mark: Mark::Dots,
        points: points.iter().map(|p| (p.rho, p.mean_ms)).collect(),
    });
    series.push(Series {
        label: "p99, simulated".into(),
        color: palette::VERMILLION,
        mark: Mark::Squares,
        points: points.iter().map(|p| (p.rho, p.p99_ms)).collect(),
    });
    // Where the scenario runs now: measured when the run has gone far
    // enough, else what theory says.
    let measured = live.filter(|r| r.completed > 0 && !warming_up(r));
    let now = match (th.utilisation, measured, th.mean_ms) {
        (Some(u), Some(r), _) if u < 1.0 => Some(("now (mean, simulated)", u, r.latency_ms.mean)),
        (Some(u), None, Some(m)) if u < 1.0 => Some(("now (mean, theory)", u, m)),
        _ => None,
    };
    if let Some((label, u, y)) = now {
        series.push(Series {
            label: label.into(),
            color: palette::PURPLE,
            mark: Mark::Ring,
            points: vec![(u, y)],
        });
    }
    // The y range: the curves up to ρ = 0.9 and every simulated point.
    let ys = series
        .iter()
        .flat_map(|s| {
            s.points
                .iter()
                .filter(|(x, _)| *x <= 0.9 || s.mark != Mark::Line)
                .map(|p| p.1)
        })
        .collect::<Vec<_>>();
    Chart {
        x_label: "Utilisation of the limiting resource, %".into(),
        y_label: "Response time, ms (log scale)".into(),
        x: (0.0, 1.0),
        y: log_range(ys),
        y_log: true,
        x_percent: true,
        series,
    }
}

/// The time-series charts of a run: requests in line and inside; the load
/// (offered, answered, answered in time, retries); CPU busy; p99 response
/// time per interval.
pub fn series_charts(series: &[SeriesPoint]) -> [Chart; 4] {
    let t_max = series.last().map_or(1.0, |p| p.t_s).max(1.0);
    let pts = |f: fn(&SeriesPoint) -> f64| series.iter().map(|p| (p.t_s, f(p))).collect::<Vec<_>>();
    let line = pts(|p| p.line);
    let inside = pts(|p| p.in_flight);
    let count_max = linear_max(line.iter().chain(&inside).map(|p| p.1), 1.0);
    let p99 = pts(|p| p.p99_ms)
        .into_iter()
        .filter(|p| p.1 > 0.0)
        .collect::<Vec<_>>();
    let p99_max = linear_max(p99.iter().map(|p| p.1), 1.0);
    [
        Chart {
            x_label: "Simulated time, s".into(),
            y_label: "Requests".into(),
            x: (0.0, t_max),
            y: (0.0, count_max),
            y_log: false,
            x_percent: false,
            series: vec![
                Series {
                    label: "in line".into(),
                    color: palette::BLUE,
                    mark: Mark::Line,
                    points: line,
                },
                Series {
                    label: "inside (line + served)".into(),
                    color: palette::ORANGE,
                    mark: Mark::Dashed,
                    points: inside,
                },
            ],
        },
        load_chart(series, t_max),
        Chart {
            x_label: "Simulated time, s".into(),
            y_label: "CPU busy, %".into(),
            x: (0.0, t_max),
            y: (0.0, 100.0),
            y_log: false,
            x_percent: false,
            series: vec![Series {
                label: "CPU busy".into(),
                color: palette::GREEN,
                mark: Mark::Line,
                points: series.iter().map(|p| (p.t_s, p.cpu * 100.0)).collect(),
            }],
        },
        Chart {
            x_label: "Simulated time, s".into(),
            y_label: "p99 response time, ms".into(),
            x: (0.0, t_max),
            y: (0.0, p99_max),
            y_log: false,
            x_percent: false,
            series: vec![Series {
                label: "p99 per interval".into(),
                color: palette::VERMILLION,
                mark: Mark::Line,
                points: p99,
            }],
        },
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use tellers_sim::presets::preset;
    use tellers_sim::theory::theory;

    #[test]
    fn log_ranges_are_whole_decades() {
        assert_eq!(log_range([12.0, 340.0]), (1.0, 1000.0));
        assert_eq!(log_range([15.0, 340.0]), (10.0, 1000.0));
        assert_eq!(log_range([f64::INFINITY, 0.0, f64::NAN]), (1.0, 1000.0));
        assert_eq!(log_range([20.0]), (10.0, 100.0));
    }

    #[test]
    fn the_curve_has_theory_for_one_and_c_workers_and_the_operating_point() {
        let s = preset("sale-day-planned").unwrap();
        let th = theory(&s);
        let r = tellers_sim::simulate(&s).unwrap();
        let pts = [SweepPoint {
            rho: 0.5,
            mean_ms: 100.0,
            p99_ms: 400.0,
        }];
        let ch = curve_chart(&th, &pts, Some(&r));
        let labels: Vec<_> = ch.series.iter().map(|s| s.label.as_str()).collect();
        assert!(
            labels.contains(&"mean, 1 worker") && labels.contains(&"now (mean, simulated)"),
            "{labels:?}"
        );
        assert!(labels
            .iter()
            .any(|l| l.contains(&format!("{} workers", th.servers))));
        assert!(ch.y.0 <= 100.0 && ch.y.1 >= 400.0);
        // Mean rises with utilisation.
        let mean = &ch.series[0].points;
        assert!(mean.windows(2).all(|w| w[1].1 >= w[0].1));
    }

    #[test]
    fn the_mean_line_follows_the_shape_of_the_service_times() {
        let mm1 = preset("mm1").unwrap();
        let md1 = preset("md1").unwrap();
        assert!((theory(&mm1).scv - 1.0).abs() < 1e-12);
        assert_eq!(theory(&md1).scv, 0.0);
        // M/D/1 at 80 %: 10 ms + 20 ms in line, the theory's own figure.
        let ch = curve_chart(&theory(&md1), &[], None);
        let at80 = ch.series[0]
            .points
            .iter()
            .find(|p| (p.0 - 0.8).abs() < 1e-9)
            .unwrap()
            .1;
        assert!(
            (at80 - theory(&md1).mean_ms.unwrap()).abs() < 1e-9,
            "{at80}"
        );
        let waf = preset("waf-inline").unwrap();
        assert!(theory(&waf).scv > 1.0);
    }

    #[test]
    fn without_a_run_the_operating_point_is_theory() {
        let s = preset("mm1").unwrap();
        let ch = curve_chart(&theory(&s), &[], None);
        let ring = ch.series.iter().find(|s| s.mark == Mark::Ring).unwrap();
        assert_eq!(ring.label, "now (mean, theory)");
        assert!((ring.points[0].1 - 50.0).abs() < 1e-9);
    }

    #[test]
    fn an_overloaded_scenario_has_no_operating_point() {
        let s = preset("sale-day").unwrap();
        let ch = curve_chart(
            &theory(&s),
            &[],
            Some(&Report {
                completed: 5,
                ..Report::default()
            }),
        );
        assert!(ch.series.iter().all(|s| s.mark != Mark::Ring));
    }

    #[test]
    fn series_charts_have_units_and_cover_the_run() {
        let pts = [
            SeriesPoint {
                t_s: 1.0,
                line: 5.0,
                in_flight: 8.0,
                cpu: 0.5,
                p99_ms: 20.0,
                ..Default::default()
            },
            SeriesPoint {
                t_s: 2.0,
                line: 9.0,
                in_flight: 12.0,
                cpu: 0.6,
                p99_ms: 0.0,
                ..Default::default()
            },
        ];
        let [a, load, b, c] = series_charts(&pts);
        assert!(load.y_label.contains("per second") && load.series.len() == 4);
        assert_eq!(a.x, (0.0, 2.0));
        assert!(a.y.1 >= 12.0);
        assert!(b.y_label.contains('%') && c.y_label.contains("ms"));
        assert_eq!(
            c.series[0].points.len(),
            1,
            "intervals with nothing finished are skipped"
        );
    }

    #[test]
    fn sweep_points_read_back_as_json_exactly() {
        let pts = [
            SweepPoint {
                rho: 0.1,
                mean_ms: 100.43850926194445,
                p99_ms: 428.3432955,
            },
            SweepPoint {
                rho: 0.95,
                mean_ms: 1.0 / 3.0,
                p99_ms: 2e-7,
            },
        ];
        let v: Vec<[f64; 3]> = serde_json::from_str(&sweep_json(&pts)).unwrap();
        assert_eq!(v.len(), 2);
        for (row, p) in v.iter().zip(&pts) {
            assert_eq!(row, &[p.rho, p.mean_ms, p.p99_ms]);
        }
        assert_eq!(sweep_json(&[]), "[]");
    }
}
