//! What the charts show, as plain data: the utilisation → response-time
//! curve (theory for one and for c workers, simulated points, the operating
//! point) and the time series of a run, and where each part of a chart goes
//! on a canvas of a given width. [`crate::draw`] paints them with plotters.

use tellers_sim::report::{Report, SeriesPoint};
use tellers_sim::signs::backlog_grows;
use tellers_sim::theory::Theory;
use tellers_sim::Scenario;

use crate::format::fmt_axis_tick;
use tellers_sim::window::warming_up;

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
    /// The edge drawn inside a yellow square: yellow alone is 1.3 : 1
    /// against the white panel, this edge 3.9 : 1 (WCAG asks 3 : 1 of a
    /// shape that carries meaning).
    pub const YELLOW_EDGE: &str = "#8F8200";
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

impl Mark {
    /// A line (solid or dashed), clipped to the plot; the others are marks
    /// drawn whole at points inside the axes ([`inside_axes`]).
    pub fn is_line(self) -> bool {
        matches!(self, Mark::Line | Mark::Dashed)
    }
}

/// Whether the point `(x, y)` lies inside the axes' ranges `x` and `y`
/// (ends included; on a log axis `log`, y must be above 0 too): a mark
/// there is drawn whole, even where it overlaps an axis.
pub fn inside_axes(
    (x, y): (f64, f64),
    x_range: (f64, f64),
    y_range: (f64, f64),
    log: bool,
) -> bool {
    (x_range.0..=x_range.1).contains(&x)
        && (y_range.0..=y_range.1).contains(&y)
        && (!log || y > 0.0)
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

/// Type sizes of the charts, CSS pixels: never under 12 px, on a phone too.
pub mod type_px {
    /// Tick labels, CSS px.
    pub const TICK: f64 = 13.0;
    /// Legend entries, CSS px.
    pub const LEGEND: f64 = 14.0;
    /// Axis labels, CSS px.
    pub const AXIS: f64 = 14.0;
}

/// Width of a legend entry's mark and the space after it, CSS px.
pub const LEGEND_MARK: f64 = 26.0;
/// Space between two legend entries on a row, CSS px.
pub const LEGEND_GAP: f64 = 16.0;
/// Height of a legend row, CSS px.
pub const LEGEND_ROW: f64 = 20.0;
/// Space under the plot for the x ticks, CSS px.
pub const X_TICKS_PX: f64 = 28.0;
/// Height of a line of the x-axis label, CSS px.
pub const X_LABEL_ROW: f64 = 18.0;
/// Empty margin left and right of a chart, CSS px.
pub const SIDE_PX: f64 = 8.0;

/// `text` broken at spaces into lines at most `max_w` wide as `measure`
/// measures them (a single word wider than that keeps a line of its own).
pub fn wrap(text: &str, max_w: f64, measure: &dyn Fn(&str) -> f64) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    for word in text.split(' ') {
        match lines.last_mut() {
            Some(line) if measure(&format!("{line} {word}")) <= max_w => {
                line.push(' ');
                line.push_str(word);
            }
            _ => lines.push(word.to_owned()),
        }
    }
    lines
}

/// One legend entry placed: its mark's left edge, the middle of its first
/// line, and its text in lines.
#[derive(Clone, Debug, PartialEq)]
pub struct LegendEntry {
    /// Left of the mark, CSS px.
    pub x: f64,
    /// Middle of the first line, CSS px.
    pub y: f64,
    /// The label, in one line or more.
    pub lines: Vec<String>,
}

/// Lays out a legend from (`x0`, `y0`) (the first row's middle) in rows at
/// most `max_w` wide, `row_h` apart: each entry is a mark `mark_w` wide
/// then its label; entries are `gap` apart; a label too wide for a row
/// wraps onto more lines. Returns the entries and the height of the rows.
#[allow(clippy::too_many_arguments)]
pub fn legend_layout(
    labels: &[&str],
    measure: &dyn Fn(&str) -> f64,
    (x0, y0): (f64, f64),
    max_w: f64,
    mark_w: f64,
    gap: f64,
    row_h: f64,
) -> (Vec<LegendEntry>, f64) {
    let mut out = Vec::with_capacity(labels.len());
    let (mut x, mut y, mut row_lines) = (0.0, y0, 1usize);
    for label in labels {
        let lines = if mark_w + measure(label) <= max_w {
            vec![(*label).to_owned()]
        } else {
            wrap(label, max_w - mark_w, measure)
        };
        let w = mark_w + lines.iter().map(|l| measure(l)).fold(0.0, f64::max);
        if x > 0.0 && x + w > max_w {
            x = 0.0;
            y += row_lines as f64 * row_h;
            row_lines = 1;
        }
        row_lines = row_lines.max(lines.len());
        out.push(LegendEntry {
            x: x0 + x,
            y,
            lines,
        });
        x += w + gap;
    }
    let height = if labels.is_empty() {
        0.0
    } else {
        y - y0 + row_lines as f64 * row_h
    };
    (out, height)
}

/// Where a chart's parts go on a canvas `width` CSS pixels wide.
#[derive(Clone, Debug, PartialEq)]
pub struct ChartLayout {
    /// Canvas width, CSS px.
    pub width: f64,
    /// Canvas height, CSS px.
    pub height: f64,
    /// The legend entries, in the order of the series.
    pub legend: Vec<LegendEntry>,
    /// Middle of the y-axis label's line, CSS px from the top.
    pub y_label_y: f64,
    /// Top of the plot, CSS px from the top.
    pub plot_top: f64,
    /// Height of the plot (without the x axis under it), CSS px.
    pub plot_h: f64,
    /// The x-axis label, in one line or more (centred under the plot).
    pub x_label: Vec<String>,
    /// Middle of the x-axis label's first line, CSS px from the top.
    pub x_label_y: f64,
    /// About how many ticks the x axis gets.
    pub x_ticks: usize,
    /// About how many ticks a linear y axis gets.
    pub y_ticks: usize,
}

/// The height of the plot of a chart `width` CSS px wide: wide charts are
/// flatter, narrow ones keep enough height to read the lines. `tall` is the
/// curve, which spans the page; otherwise a time series.
pub fn plot_height(width: f64, tall: bool) -> f64 {
    if tall {
        (width * 0.36).clamp(220.0, 330.0)
    } else {
        (width * 0.42).clamp(150.0, 210.0)
    }
}

/// Lays out a chart `width` CSS px wide with the legend `labels` and the
/// x-axis label `x_label` (as `measure` measures them: legend and axis
/// labels have one size, [`type_px::LEGEND`] = [`type_px::AXIS`]) and y
/// tick labels that need `y_axis_w` CSS px: the legend in rows on top, the
/// y-axis label under it, then the plot, its x ticks and the x-axis label,
/// wrapped if the chart is narrow. `tall` is the curve. The legend takes
/// at least `legend_h_min` CSS px ([`legend_height`] of the charts beside
/// it), so charts side by side start their plots at one height.
pub fn chart_layout(
    width: f64,
    labels: &[&str],
    x_label: &str,
    measure: &dyn Fn(&str) -> f64,
    y_axis_w: f64,
    tall: bool,
    legend_h_min: f64,
) -> ChartLayout {
    let max_w = width - 2.0 * SIDE_PX;
    let (legend, legend_h) = chart_legend(width, labels, measure);
    let y_label_y = legend_h.max(legend_h_min) + 18.0;
    let plot_top = y_label_y + 16.0;
    let plot_h = plot_height(width, tall);
    let plot_w = width - y_axis_w - 2.0 * SIDE_PX;
    let x_label = wrap(x_label, max_w, measure);
    let x_label_y = plot_top + plot_h + X_TICKS_PX + X_LABEL_ROW / 2.0;
    ChartLayout {
        width,
        height: (plot_top + plot_h + X_TICKS_PX + (x_label.len() as f64 + 0.5) * X_LABEL_ROW)
            .ceil(),
        legend,
        y_label_y,
        plot_top,
        plot_h,
        x_label,
        x_label_y,
        // At least 4: plotters then labels a 60 s axis 0, 20, 40, 60, where
        // 3 gave only 0 and 50 on a phone (a screenshot review).
        x_ticks: ((plot_w / 64.0) as usize).clamp(4, 10),
        // At least 5: with 4, plotters labelled 0 to 957 (a peak of 870)
        // only 0 and 500 (a screenshot review); with 5 it takes steps of
        // 1, 2 or 5 that give at least three labels on any range from 0.
        y_ticks: ((plot_h / 36.0) as usize).clamp(5, 8),
    }
}

/// The height, CSS px, of a chart's legend of `labels` at `width` (as
/// [`chart_layout`] lays it out).
pub fn legend_height(width: f64, labels: &[&str], measure: &dyn Fn(&str) -> f64) -> f64 {
    chart_legend(width, labels, measure).1
}

/// A chart's legend at `width`: its entries and its height, CSS px.
fn chart_legend(
    width: f64,
    labels: &[&str],
    measure: &dyn Fn(&str) -> f64,
) -> (Vec<LegendEntry>, f64) {
    legend_layout(
        labels,
        measure,
        (SIDE_PX, 12.0),
        width - 2.0 * SIDE_PX,
        LEGEND_MARK,
        LEGEND_GAP,
        LEGEND_ROW,
    )
}

/// The parts of the polyline `points` inside `lo ≤ y ≤ hi`, each a
/// polyline of its own, cut where it crosses a bound (interpolated in log10
/// of y when `log`, as a log axis draws it). A theory line that climbs far
/// past the top of the axis ends there instead of running on for thousands
/// of pixels above the canvas (which a dashed line draws dash by dash).
/// Non-finite points, and on a log axis points ≤ 0, break the line.
pub fn clip_to_range(
    points: &[(f64, f64)],
    (lo, hi): (f64, f64),
    log: bool,
) -> Vec<Vec<(f64, f64)>> {
    let t = |y: f64| if log { y.log10() } else { y };
    let back = |v: f64| if log { 10f64.powf(v) } else { v };
    let (tlo, thi) = (t(lo), t(hi));
    let valid = |p: &(f64, f64)| p.0.is_finite() && p.1.is_finite() && (!log || p.1 > 0.0);
    let mut parts: Vec<Vec<(f64, f64)>> = Vec::new();
    let mut current: Vec<(f64, f64)> = Vec::new();
    let mut prev: Option<(f64, f64)> = None;
    for p in points {
        if !valid(p) {
            prev = None;
            if !current.is_empty() {
                parts.push(std::mem::take(&mut current));
            }
            continue;
        }
        let (x, ty) = (p.0, t(p.1));
        let inside = (tlo..=thi).contains(&ty);
        if let Some((px, pty)) = prev {
            let was_inside = (tlo..=thi).contains(&pty);
            // Where the segment crosses each bound it crosses, in order along it.
            let cross = |b: f64| ((pty - b) * (ty - b) < 0.0).then(|| ((b - pty) / (ty - pty), b));
            let (mut first, mut second) = (cross(tlo), cross(thi));
            if let (Some(a), Some(b)) = (first, second) {
                if b.0 < a.0 {
                    (first, second) = (second, first);
                }
            }
            let cuts = first.into_iter().chain(second);
            let mut inside_now = was_inside;
            for (f, b) in cuts {
                let at = (px + f * (x - px), back(b));
                if inside_now {
                    current.push(at);
                    parts.push(std::mem::take(&mut current));
                } else {
                    current.push(at);
                }
                inside_now = !inside_now;
            }
        }
        if inside {
            current.push(*p);
        }
        prev = Some((x, ty));
    }
    if !current.is_empty() {
        parts.push(current);
    }
    parts.retain(|part| !part.is_empty());
    parts
}

/// Whether an axis up to `max` labels its thousands as `5k` (see
/// [`fmt_axis_tick`]): when it reaches 10,000.
pub fn big_axis(max: f64) -> bool {
    max >= 10_000.0
}

/// The label of a tick at `v` on a log axis up to `max`, where a decade
/// spans `px_per_decade` CSS px: powers of ten always; 2 and 5 times them
/// when a decade is tall enough for three labels; nothing for the other lines.
pub fn log_tick_label(v: f64, px_per_decade: f64, max: f64) -> String {
    if !(v > 0.0 && v.is_finite()) {
        return String::new();
    }
    let base = 10f64.powi((v.log10() + 1e-9).floor() as i32);
    // 1, 2 and 5 are 0.3 decade apart at the closest: room for 1.8 lines of text.
    let room = px_per_decade * 0.3 >= 1.8 * type_px::TICK;
    let shown: &[f64] = if room { &[1.0, 2.0, 5.0] } else { &[1.0] };
    shown
        .iter()
        .find(|&&m| (v / base - m).abs() < 1e-6)
        .map_or_else(String::new, |m| fmt_axis_tick(m * base, big_axis(max)))
}

/// The ticks of a log axis from `lo` to `hi`: 1×, 2× and 5× each power of
/// ten in it, or with `every_digit` 1× to 9× (log paper), from the decade
/// `lo` is in, so an axis that starts at 20 or 50 has its 20 and 50.
pub fn log_key_points(lo: f64, hi: f64, every_digit: bool) -> Vec<f64> {
    if !(lo > 0.0 && hi > lo && hi.is_finite()) {
        return Vec::new();
    }
    let digits: &[f64] = if every_digit {
        &[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0]
    } else {
        &[1.0, 2.0, 5.0]
    };
    let (first, last) = (lo.log10().floor() as i32, hi.log10().ceil() as i32);
    let (from, to) = (lo * (1.0 - 1e-9), hi * (1.0 + 1e-9));
    (first..=last)
        .flat_map(|k| digits.iter().map(move |m| m * 10f64.powi(k)))
        .filter(|v| (from..=to).contains(v))
        .collect()
}

/// The label of a tick at `v` on a linear axis up to `max`; `percent`
/// shows 0–1 as 0–100.
pub fn linear_tick_label(v: f64, percent: bool, max: f64) -> String {
    if percent {
        fmt_axis_tick((v * 100.0).round(), false)
    } else {
        // Round away the binary noise of tick arithmetic (0.30000000000000004).
        fmt_axis_tick((v * 1e6).round() / 1e6, big_axis(max))
    }
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

/// The line under the curve on its simulated points: how far the sweep
/// has got while it runs (`done` of `total`), then how many points it drew
/// and, for points it could not draw (`missed`: utilisation 0–1 and why,
/// [`point_missed`](tellers_sim::sweep::point_missed)), why. No point at
/// all and none missed: the scenario has no capacity to take a share of.
pub fn sweep_progress(
    done: usize,
    total: usize,
    sweeping: bool,
    missed: &[(f64, &'static str)],
) -> String {
    if sweeping {
        return format!("Simulating points: {} of {total}", done + missed.len());
    }
    if done == 0 && missed.is_empty() {
        return "No simulated points: the scenario's capacity is unlimited, so there is no share of it to run them at.".to_owned();
    }
    let drawn = format!(
        "{done} simulated {}",
        if done == 1 { "point" } else { "points" }
    );
    if missed.is_empty() {
        return drawn;
    }
    let at: Vec<String> = missed
        .iter()
        .map(|(rho, _)| format!("{} %", fmt_axis_tick((rho * 100.0).round(), false)))
        .collect();
    let mut why: Vec<&str> = missed.iter().map(|(_, why)| *why).collect();
    why.dedup();
    let (points, are) = if missed.len() == 1 {
        ("the point", "is")
    } else {
        ("the points", "are")
    };
    format!(
        "{drawn}; {points} at {} {are} not drawn: {}.",
        tellers_sim::text::and_list(&at),
        why.join("; ")
    )
}

/// A log axis range covering every positive finite value, up to a whole
/// decade with room above the highest (a flat line at 100 ms drew along the
/// top edge of a 10–100 axis, where it read as the frame), and from 1, 2 or
/// 5 times a power of ten just below the lowest (from the decade below, a
/// curve starting at 10 ms left its lowest third, 1 to 10 ms, empty).
pub fn log_range(values: impl IntoIterator<Item = f64>) -> (f64, f64) {
    let (mut lo, mut hi) = (f64::INFINITY, 0.0f64);
    for v in values.into_iter().filter(|v| v.is_finite() && *v > 0.0) {
        lo = lo.min(v);
        hi = hi.max(v);
    }
    if !lo.is_finite() {
        return (1.0, 1000.0);
    }
    let below = lo * 0.8;
    let decade = 10f64.powf(below.log10().floor());
    let hi = 10f64.powf((hi * 1.1).log10().ceil()).max(decade * 10.0);
    // Only where a whole decade stays above the start: the axis labels its
    // powers of ten, and a range inside one decade (50 to 100) had one label.
    let lo = [5.0, 2.0]
        .into_iter()
        .map(|m| m * decade)
        .find(|&b| b <= below && hi / b >= 10.0 - 1e-9)
        .unwrap_or(decade);
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
/// recovery of an overloaded server. Goodput is left out where it is the
/// throughput throughout (no answer came late), and retries where there
/// were none: three lines on top of each other read as a scribble on a
/// projector.
fn load_chart(series: &[SeriesPoint], t_max: f64, s: &Scenario) -> Chart {
    let callers_give_up = s.timeout_ms.is_some();
    let late = series.iter().any(|p| p.goodput_rps != p.throughput_rps);
    let retried = series.iter().any(|p| p.retries_rps > 0.0);
    // Where goodput is left out, the legend says why, if callers can give
    // up: a caption about answers in time found no line named for them.
    let finished = if callers_give_up && !late {
        "finished (all in time)"
    } else {
        "finished"
    };
    let pts = |f: fn(&SeriesPoint) -> f64| series.iter().map(|p| (p.t_s, f(p))).collect::<Vec<_>>();
    let y_max = linear_max(
        series
            .iter()
            .flat_map(|p| [p.offered_rps, p.throughput_rps, p.goodput_rps]),
        1.0,
    );
    let line = |label: &str, color, mark, f| Series {
        label: label.into(),
        color,
        mark,
        points: pts(f),
    };
    // With a circuit breaker, calls it fails at once never arrive: the line
    // is what reached the server (a fall to 0 read as callers who stopped).
    let arriving = match (s.breaker_after.is_some(), retried) {
        (true, true) => "reaching the server (retries too)",
        (true, false) => "reaching the server",
        (false, true) => "arriving (retries too)",
        (false, false) => "arriving",
    };
    let mut lines = vec![line(arriving, palette::BLUE, Mark::Line, |p| p.offered_rps)];
    // Drawn before "finished", so where every answer is in time (the two
    // are equal) its dashes lie on the green line, not under it.
    if late {
        lines.push(line(
            "finished in time (goodput)",
            palette::GREEN,
            Mark::Line,
            |p| p.goodput_rps,
        ));
    }
    lines.push(line(finished, palette::ORANGE, Mark::Dashed, |p| {
        p.throughput_rps
    }));
    if retried {
        lines.push(line("retries", palette::PURPLE, Mark::Dashed, |p| {
            p.retries_rps
        }));
    }
    Chart {
        x_label: "Simulated time, s".into(),
        y_label: "Requests per second".into(),
        x: (0.0, t_max),
        y: (0.0, y_max),
        y_log: false,
        x_percent: false,
        series: lines,
    }
}

/// A time series chart in words, for a screen reader, which cannot see
/// the lines: each series' lowest and highest value over the run, when it
/// peaked, and its last value ("in line from 0 to 1,020, highest at 35 s,
/// 0 at the end"). Numbers to about three figures, with the unit the y
/// axis names after its last comma (`%`, `ms`); empty before a run has
/// points.
pub fn chart_summary(chart: &Chart) -> String {
    let unit = chart
        .y_label
        .rsplit_once(", ")
        .map_or("", |(_, u)| u)
        .trim();
    let num = |y: f64| {
        let n = tellers_sim::text::fmt_count(y);
        if unit.is_empty() {
            n
        } else {
            format!("{n} {unit}")
        }
    };
    let parts: Vec<String> = chart
        .series
        .iter()
        .filter_map(|s| {
            // A gap (no value there, drawn as a break) is not a value.
            let points: Vec<(f64, f64)> = s
                .points
                .iter()
                .copied()
                .filter(|p| p.1.is_finite())
                .collect();
            let (t_last, last) = *points.last()?;
            let (t_top, top) =
                points.iter().fold(
                    (t_last, f64::MIN),
                    |m, &(t, y)| if y > m.1 { (t, y) } else { m },
                );
            let low = points.iter().map(|p| p.1).fold(f64::MAX, f64::min);
            let (low, top) = (num(low), num(top));
            Some(if low == top {
                format!("{} {top} throughout", s.label)
            } else {
                format!(
                    "{} from {low} to {top}, highest at {} s, {} at the end",
                    s.label,
                    tellers_sim::text::fmt_count(t_top),
                    num(last)
                )
            })
        })
        .collect();
    if parts.is_empty() {
        String::new()
    } else {
        format!("{}.", parts.join("; "))
    }
}

/// Utilisations of the theory lines.
fn theory_rhos() -> Vec<f64> {
    (1..=49).map(|i| f64::from(i) * 0.02).collect()
}

/// The share of its offered rate a run with keep-alive connections must
/// average before its measured mean stands at the scenario's point on the
/// curve (theory's stands there until then).
const REACHED_LOAD: f64 = 0.8;

/// How many theory lines the utilisation → response-time chart can have
/// ([`curve_line_head`]).
pub const CURVE_LINES: usize = 4;

/// Which theory line: the mean or the p99 for `n` workers.
#[derive(Clone, Copy)]
struct LineOf {
    n: u32,
    p99: bool,
}

impl LineOf {
    /// The utilisations the line is drawn at. A p99 line takes every
    /// other one (0.02, 0.06 … 0.98): each of its points may invert a
    /// transform (a mix's tail, hedged calls), and 49 points of two lines
    /// in one task took 53-67 ms in the browser.
    fn rhos(self) -> Vec<f64> {
        theory_rhos()
            .into_iter()
            .step_by(if self.p99 { 2 } else { 1 })
            .collect()
    }

    /// The line's response time at utilisation `r`, ms: theory decides the
    /// formula (and its corrections); the chart only reads it.
    fn at(self, th: &Theory, r: f64) -> f64 {
        if self.p99 {
            th.p99_at(self.n, r)
        } else {
            th.mean_at(self.n, r)
        }
    }

    /// Points computed in one call of [`CurveLines::add_one`]: a mean line
    /// whole, a p99 line [`P99_POINTS_A_CALL`] at a time.
    fn points_a_call(self) -> usize {
        if self.p99 {
            P99_POINTS_A_CALL
        } else {
            usize::MAX
        }
    }
}

/// p99 points of a theory line computed in one task. The p99 line of 100
/// fan-out calls, hedged, took 22-27 ms for its 25 points in one task in
/// the browser (about 1 ms a point; 90-110 ms with the CPU slowed 4×).
const P99_POINTS_A_CALL: usize = 5;

/// Theory line `i` (of [`CURVE_LINES`]) of the utilisation → response-time
/// chart, with no points yet, and which line it is: the mean and the p99
/// for `th.servers` workers, then for one; none when theory has no formula
/// for the line ([`Theory::curve_formula`]), or for one worker where theory
/// has no such line ([`Theory::has_one_worker_line`]). `th` is the theory
/// of the curve's points ([`curve_theory`](tellers_sim::sweep::curve_theory):
/// random arrivals at a steady load, no timeout, retries or shedding), as
/// `tellers sweep` gives it: the lines are for the points drawn beside
/// them, and labelled "(approx.)" where it says so (the scenario's own
/// theory, with a timeout, took another model for the lines than its note
/// described). A p99 point
/// may invert a transform, so the app computes the points once a scenario,
/// a few a task ([`CurveLines`]), not on every redraw: [`curve_chart`]
/// takes the lines.
fn curve_line_head(th: &Theory, i: usize) -> Option<(Series, LineOf)> {
    let c = th.servers.max(1);
    // The same formulas with one worker, labelled by theory's own flags:
    // one worker assumes nothing the c-worker line does not (the p99 still
    // takes service times as random), so they are exact where theory's are.
    // A closed line of keep-alive connections has no such line.
    let one = th.has_one_worker_line();
    let (n, p99) = match i {
        0 => (c, false),
        1 => (c, true),
        2 if one => (1, false),
        3 if one => (1, true),
        _ => return None,
    };
    // No formula covers this scenario's line at any load (theory says
    // so): no theory lines, only the simulated points.
    if !th.curve_formula {
        return None;
    }
    let exact = if p99 { th.p99_exact } else { th.mean_exact };
    let what = match (n == c, p99) {
        (true, false) => format!("mean, theory, {}", th.servers_label(c)),
        (true, true) => format!("p99, theory, {}", th.servers_label(c)),
        (false, false) => format!("mean, {}", th.servers_label(1)),
        (false, true) => format!("p99, {}", th.servers_label(1)),
    };
    let series = Series {
        label: if exact {
            what
        } else {
            format!("{what} (approx.)")
        },
        color: if p99 {
            palette::VERMILLION
        } else {
            palette::BLUE
        },
        mark: if n == c { Mark::Line } else { Mark::Dashed },
        points: vec![],
    };
    Some((series, LineOf { n, p99 }))
}

/// The curve's theory lines, computed once a scenario, a few points a
/// draw ([`curve_line_head`]): a p99 line of 100 fan-out calls took about 25 ms,
/// and the curve is redrawn at each simulated point and a few times a
/// second during a run. Until a new scenario's lines are all there, the
/// last ones stay drawn.
#[derive(Default)]
pub struct CurveLines {
    /// The scenario of the lines being computed.
    of: Option<Scenario>,
    /// The lines computed so far (the last may be part done: `open` says
    /// which line it is), and the next line to start.
    done: Vec<Series>,
    open: Option<LineOf>,
    next: usize,
    /// True once `of`'s lines are all shown.
    finished: bool,
    /// The lines drawn.
    shown: Vec<Series>,
}

impl CurveLines {
    /// Computes a few more points of the lines of `s` (`th`, the theory of
    /// the curve's own points: [`curve_theory`](tellers_sim::sweep::curve_theory)): a mean line
    /// whole or [`P99_POINTS_A_CALL`] points of a p99 line. True once all
    /// are shown.
    pub fn add_one(&mut self, s: &Scenario, th: &Theory) -> bool {
        if self.of.as_ref() != Some(s) {
            self.of = Some(s.clone());
            self.done.clear();
            self.open = None;
            self.next = 0;
            self.finished = false;
        }
        if self.finished {
            return true;
        }
        self.start_next_line(th);
        if let (Some(line), Some(series)) = (self.open, self.done.last_mut()) {
            let rhos = line.rhos();
            let from = series.points.len();
            let to = from.saturating_add(line.points_a_call()).min(rhos.len());
            series
                .points
                .extend(rhos[from..to].iter().map(|&r| (r, line.at(th, r))));
            if to < rhos.len() {
                return false;
            }
            self.open = None;
            self.start_next_line(th);
            if self.open.is_some() {
                return false;
            }
        }
        self.shown = std::mem::take(&mut self.done);
        self.finished = true;
        true
    }

    /// Starts the next line that exists, with no points yet, unless one is
    /// open.
    fn start_next_line(&mut self, th: &Theory) {
        while self.open.is_none() && self.next < CURVE_LINES {
            if let Some((series, line)) = curve_line_head(th, self.next) {
                self.done.push(series);
                self.open = Some(line);
            }
            self.next += 1;
        }
    }

    /// The lines to draw.
    pub fn shown(&self) -> &[Series] {
        &self.shown
    }
}

/// The utilisation → response-time chart: the theory `lines` of `th`
/// ([`CurveLines`]), the simulated points, and where the scenario runs
/// now (from `live`, when it has open arrivals below capacity).
pub fn curve_chart(
    th: &Theory,
    lines: &[Series],
    points: &[SweepPoint],
    live: Option<&Report>,
) -> Chart {
    let mut series = lines.to_vec();
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
    // enough, else what theory says. The curve is for one steady load: a
    // load that changes during the run, or a run whose backlog keeps
    // growing (retries feeding a line, say), has no point on it.
    // Keep-alive connections open a few a second, so a run's arrivals
    // reach the rate late: until they reach most of it, the run is not at
    // the scenario's point (waf-offload-unbalanced averaged 679 of its
    // 1,100 rps, and its mean was drawn at the 81 % it asks for).
    let at_its_load = |r: &Report| {
        th.keep_alive.is_none()
            || th
                .offered_rps
                .is_none_or(|rps| r.arrival_rps >= REACHED_LOAD * rps)
    };
    let measured = live.filter(|r| r.completed > 0 && !warming_up(r) && at_its_load(r));
    let settled = th.steady_load && !measured.is_some_and(backlog_grows);
    let now = match (th.utilisation, measured, th.mean_ms) {
        _ if !settled => None,
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
    // An axis that reaches past 100 s is read in seconds (its ticks said
    // "1,000k" ms for a thousand seconds); up to 100 s the ticks stay in
    // ms ("100k" at most), as the lessons' captions speak of ms.
    let (lo, hi) = log_range(ys);
    let (y, y_label) = if hi > 100_000.0 {
        for p in series.iter_mut().flat_map(|s| s.points.iter_mut()) {
            p.1 /= 1000.0;
        }
        ((lo / 1000.0, hi / 1000.0), "Response time, s (log scale)")
    } else {
        ((lo, hi), "Response time, ms (log scale)")
    };
    Chart {
        x_label: "Utilisation of the limiting resource, %".into(),
        y_label: y_label.into(),
        x: (0.0, 1.0),
        y,
        y_log: true,
        x_percent: true,
        series,
    }
}

/// The time-series charts of a run, each with its label (what a screen
/// reader says for it): requests in line and inside; the load (offered,
/// answered, answered in time, retries); CPU busy; p99 response time per
/// interval; the legends say what `s` makes of them (late answers, a
/// circuit breaker).
pub fn series_charts(series: &[SeriesPoint], s: &Scenario) -> [(&'static str, Chart); 4] {
    // The run's own length: a batch over in 0.1 s fills the axis too
    // (a floor of 1 s once squeezed it into the first tenth).
    let t_max = series.last().map_or(1.0, |p| p.t_s).max(1e-3);
    let pts = |f: fn(&SeriesPoint) -> f64| series.iter().map(|p| (p.t_s, f(p))).collect::<Vec<_>>();
    let line = pts(|p| p.line);
    let inside = pts(|p| p.in_flight);
    let count_max = linear_max(line.iter().chain(&inside).map(|p| p.1), 1.0);
    // An interval where nothing finished has no p99: a gap in the line,
    // not a slope drawn across it from the values either side.
    let p99 = pts(|p| p.p99_ms)
        .into_iter()
        .map(|(t, v)| (t, if v > 0.0 { v } else { f64::NAN }))
        .collect::<Vec<_>>();
    let p99_max = linear_max(p99.iter().map(|p| p.1), 1.0);
    [
        (
            "Requests in line and inside over simulated time",
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
        ),
        (
            "Requests per second over simulated time: arriving and finished (in time, and retries, where there are any)",
            load_chart(series, t_max, s),
        ),
        (
            "CPU busy, percent, over simulated time",
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
        ),
        (
            "p99 response time per interval, ms, over simulated time",
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
        ),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use tellers_sim::presets::preset;
    use tellers_sim::sweep::curve_theory;
    use tellers_sim::theory::theory;

    /// A mark is drawn whole where its point lies inside the axes (the
    /// operating point at 0.6 % busy sits on the y axis), and not at all
    /// outside them, nor at a value a log axis cannot show.
    #[test]
    fn marks_are_drawn_at_points_inside_the_axes() {
        let (x, y) = ((0.0, 100.0), (10.0, 1000.0));
        assert!(inside_axes((0.6, 12.0), x, y, true));
        assert!(inside_axes((0.0, 10.0), x, y, true));
        assert!(!inside_axes((50.0, 2000.0), x, y, true));
        assert!(!inside_axes((-1.0, 50.0), x, y, false));
        assert!(!inside_axes((f64::NAN, 50.0), x, y, false));
        assert!(!inside_axes((5.0, 0.0), x, (0.0, 10.0), true));
        assert!(inside_axes((5.0, 0.0), x, (0.0, 10.0), false));
        assert!(Mark::Dashed.is_line() && !Mark::Ring.is_line());
    }

    #[test]
    fn a_series_chart_is_told_in_words() {
        let at = |t_s, line, cpu| SeriesPoint {
            t_s,
            line,
            in_flight: line + 20.0,
            cpu,
            p99_ms: 0.0,
            ..SeriesPoint::default()
        };
        let run = [
            at(1.0, 0.0, 0.3),
            at(35.0, 1_000.0, 0.3),
            at(60.0, 0.0, 0.3),
        ];
        let [(_, counts), _, (_, cpu), (_, p99)] = series_charts(&run, &Scenario::default());
        assert_eq!(
            chart_summary(&counts),
            "in line from 0 to 1,000, highest at 35 s, 0 at the end; \
             inside (line + served) from 20 to 1,020, highest at 35 s, 20 at the end."
        );
        assert_eq!(chart_summary(&cpu), "CPU busy 30 % throughout.");
        // No interval finished a request: the p99 line has no points.
        assert_eq!(chart_summary(&p99), "");
        let [(_, before), ..] = series_charts(&[], &Scenario::default());
        assert_eq!(chart_summary(&before), "");
    }

    /// All the theory lines of the chart, in one go, each with all its
    /// points: what [`CurveLines`] builds a few points at a time.
    fn curve_lines(th: &Theory) -> Vec<Series> {
        (0..CURVE_LINES)
            .filter_map(|i| {
                let (mut series, line) = curve_line_head(th, i)?;
                series.points = line
                    .rhos()
                    .into_iter()
                    .map(|r| (r, line.at(th, r)))
                    .collect();
                Some(series)
            })
            .collect()
    }

    /// The curve of `th` with its theory lines, as the app draws it.
    fn chart(
        th: &Theory,
        points_th: &Theory,
        points: &[SweepPoint],
        live: Option<&Report>,
    ) -> Chart {
        curve_chart(th, &curve_lines(points_th), points, live)
    }

    #[test]
    fn long_response_times_are_drawn_in_seconds() {
        let short = Scenario::default();
        let ch = chart(&theory(&short), &theory(&short), &[], None);
        assert_eq!(ch.y_label, "Response time, ms (log scale)");
        // Waits of 100 s: the axis in seconds, every point divided by 1,000.
        let long = Scenario {
            wait_ms: 100_000.0,
            ..Scenario::default()
        };
        let th = theory(&long);
        let points = [SweepPoint {
            rho: 0.5,
            mean_ms: 120_000.0,
            p99_ms: 400_000.0,
        }];
        let ch = chart(&th, &th, &points, None);
        assert_eq!(ch.y_label, "Response time, s (log scale)");
        assert!(ch.y.1 >= 100.0 && ch.y.1 <= 1000.0, "{:?}", ch.y);
        let dots = ch
            .series
            .iter()
            .find(|s| s.label == "mean, simulated")
            .unwrap();
        assert_eq!(dots.points, vec![(0.5, 120.0)]);
        let line = &ch.series[0];
        let at50 = line
            .points
            .iter()
            .find(|p| (p.0 - 0.5).abs() < 1e-9)
            .unwrap()
            .1;
        assert!((at50 * 1000.0 - th.mean_at(th.servers, 0.5)).abs() < 1e-6);
    }

    #[test]
    fn the_sweep_says_why_points_are_missing() {
        let (budget, slow) = ("its run spent its budget", "it never reached its load");
        assert_eq!(
            sweep_progress(3, 10, true, &[]),
            "Simulating points: 3 of 10"
        );
        assert_eq!(
            sweep_progress(3, 10, true, &[(0.1, budget)]),
            "Simulating points: 4 of 10"
        );
        assert_eq!(sweep_progress(10, 10, false, &[]), "10 simulated points");
        assert_eq!(sweep_progress(1, 10, false, &[]), "1 simulated point");
        assert_eq!(
            sweep_progress(0, 10, false, &[]),
            "No simulated points: the scenario's capacity is unlimited, so there is no share of it to run them at."
        );
        assert_eq!(
            sweep_progress(8, 10, false, &[(0.9, budget), (0.95, budget)]),
            "8 simulated points; the points at 90 % and 95 % are not drawn: its run spent its budget."
        );
        assert_eq!(
            sweep_progress(8, 10, false, &[(0.1, slow), (0.95, budget)]),
            "8 simulated points; the points at 10 % and 95 % are not drawn: it never reached its load; its run spent its budget."
        );
        assert_eq!(
            sweep_progress(9, 10, false, &[(0.1, slow)]),
            "9 simulated points; the point at 10 % is not drawn: it never reached its load."
        );
    }

    #[test]
    fn log_ranges_end_at_a_decade_and_start_at_one_two_or_five() {
        assert_eq!(log_range([12.0, 340.0]), (5.0, 1000.0));
        assert_eq!(log_range([10.0, 340.0]), (5.0, 1000.0));
        assert_eq!(log_range([6.0, 340.0]), (2.0, 1000.0));
        assert_eq!(log_range([2.4, 340.0]), (1.0, 1000.0));
        assert_eq!(log_range([15.0, 340.0]), (10.0, 1000.0));
        assert_eq!(log_range([f64::INFINITY, 0.0, f64::NAN]), (1.0, 1000.0));
        assert_eq!(log_range([20.0]), (10.0, 100.0));
        // Within one decade, from the decade: 10 to 100 has its 10 and 100.
        assert_eq!(log_range([30.0, 80.0]), (10.0, 100.0));
        assert_eq!(log_range([0.5]), (0.1, 1.0));
        assert_eq!(log_range([12.0, 90.0]), (5.0, 100.0));
        // A value at a decade, or just under one, is not drawn on the top edge.
        assert_eq!(log_range([100.0]), (50.0, 1000.0));
        assert_eq!(log_range([95.0]), (50.0, 1000.0));
        assert_eq!(log_range([90.0]), (10.0, 100.0));
    }

    /// A log axis from 20 has ticks at 20 and 50: plotters' own began at
    /// 100, and the fan-out presets' means (30 to 52 ms) sat in a band with
    /// no label (a learner's walk).
    #[test]
    fn a_log_axis_has_ticks_from_its_start() {
        assert_eq!(
            log_key_points(20.0, 1000.0, false),
            vec![20.0, 50.0, 100.0, 200.0, 500.0, 1000.0]
        );
        assert_eq!(
            log_key_points(1.0, 100.0, false),
            vec![1.0, 2.0, 5.0, 10.0, 20.0, 50.0, 100.0]
        );
        let paper = log_key_points(50.0, 1000.0, true);
        assert_eq!(paper.len(), 5 + 9 + 1, "{paper:?}");
        assert_eq!(paper[0], 50.0);
        // Each tick a label can show reads as a whole number.
        let labels: Vec<String> = log_key_points(20.0, 1000.0, false)
            .iter()
            .map(|&v| log_tick_label(v, 100.0, 1000.0))
            .collect();
        assert_eq!(labels, ["20", "50", "100", "200", "500", "1,000"]);
        assert!(log_key_points(0.0, 10.0, true).is_empty());
    }

    #[test]
    fn the_curve_has_theory_for_one_and_c_workers_and_the_operating_point() {
        // A pool of 4 on 4 cores: its threads are the line, one a core.
        let s = Scenario {
            threads: 4,
            rps: 30.0,
            ..preset("sale-day-planned").unwrap()
        };
        let th = theory(&s);
        let r = tellers_sim::simulate(&s).unwrap();
        let pts = [SweepPoint {
            rho: 0.5,
            mean_ms: 100.0,
            p99_ms: 400.0,
        }];
        let ch = chart(&th, &th, &pts, Some(&r));
        let labels: Vec<_> = ch.series.iter().map(|s| s.label.as_str()).collect();
        assert!(
            labels.contains(&"mean, 1 worker (approx.)")
                && labels.contains(&"p99, 1 worker (approx.)")
                && labels.contains(&"now (mean, simulated)"),
            "{labels:?}"
        );
        assert!(labels
            .iter()
            .any(|l| l.contains(&format!("{} workers", th.servers))));
        assert!(
            ch.y.0 <= 100.0 && ch.y.1 >= 400.0,
            "{:?} {}",
            ch.y,
            ch.y_label
        );
        // Mean rises with utilisation.
        let mean = &ch.series[0].points;
        assert!(mean.windows(2).all(|w| w[1].1 >= w[0].1));
    }

    #[test]
    fn no_theory_lines_where_theory_has_no_formula() {
        use tellers_sim::Scenario;
        // The slowest of 10 calls through the dependency's 50 slots, the
        // dependency the limit: theory has no formula at any load.
        let s = Scenario {
            model: tellers_sim::Model::EventLoop,
            cores: 8,
            loops: 8,
            accept: tellers_sim::Accept::Shared,
            cpu_ms: 0.5,
            wait_ms: 10.0,
            fan_out: 10,
            dep_concurrency: Some(50),
            rps: 300.0,
            ..Scenario::default()
        };
        let th = theory(&s);
        assert!(th.mean_ms.is_none() && th.utilisation.unwrap() < 1.0);
        let pts = [SweepPoint {
            rho: 0.5,
            mean_ms: 30.0,
            p99_ms: 60.0,
        }];
        let labels: Vec<_> = chart(&th, &th, &pts, None)
            .series
            .into_iter()
            .map(|s| (s.label, s.points.len()))
            .collect();
        assert_eq!(
            labels,
            [
                ("mean, simulated".to_owned(), 1),
                ("p99, simulated".to_owned(), 1)
            ]
        );
        // Evenly spaced arrivals: no figure for the run itself, but the
        // curve's points arrive at random, and the formulas are for those.
        let even = Scenario {
            arrivals: tellers_sim::Arrivals::Uniform,
            ..preset("mm4").unwrap()
        };
        let th = theory(&even);
        assert!(th.mean_ms.is_none() && th.utilisation.unwrap() < 1.0);
        let labels: Vec<_> = chart(&th, &th, &pts, None)
            .series
            .into_iter()
            .map(|s| s.label)
            .collect();
        assert!(
            labels
                .iter()
                .any(|l| l.starts_with("mean, theory, 4 workers")),
            "{labels:?}"
        );
    }

    /// The labels of `s`'s curve, its lines computed as the app does.
    fn curve_labels(s: &Scenario) -> Vec<String> {
        let th = theory(s);
        chart(&th, &curve_theory(s, &th), &[], None)
            .series
            .into_iter()
            .map(|s| s.label)
            .collect()
    }

    #[test]
    fn the_one_worker_lines_say_approx_as_theory_does() {
        let labels = |name: &str| curve_labels(&preset(name).unwrap());
        // M/M/4: random times, the formulas are exact.
        let mm4 = labels("mm4");
        assert!(
            mm4.contains(&"mean, 1 worker".to_owned()) && mm4.contains(&"p99, 1 worker".to_owned()),
            "{mm4:?}"
        );
        // A pool holding threads through a random wait: approximate.
        let planned = curve_labels(&Scenario {
            threads: 4,
            rps: 30.0,
            ..preset("sale-day-planned").unwrap()
        });
        assert!(
            planned.contains(&"mean, 1 worker (approx.)".to_owned())
                && planned.contains(&"p99, 1 worker (approx.)".to_owned()),
            "{planned:?}"
        );
        // M/M/4 asked for twice its limit: theory has no figure for the
        // scenario, but the lines are exact for the points (all below it).
        let over = curve_labels(&Scenario {
            rps: 800.0,
            ..preset("mm4").unwrap()
        });
        assert!(
            over.contains(&"mean, theory, 4 workers".to_owned())
                && over.contains(&"p99, 1 worker".to_owned()),
            "{over:?}"
        );
    }

    #[test]
    fn a_loop_and_its_pool_has_its_own_lines_named_by_the_cores() {
        // The pair's line is the cores' load: its legend names the cores,
        // and the open line with one worker, another model, is not drawn.
        let s = preset("waf-offload-round-robin").unwrap();
        let th = theory(&s);
        assert!(matches!(
            th.keep_alive,
            Some(tellers_sim::theory::KeepAlive::Pair(_))
        ));
        let labels = curve_labels(&s);
        assert!(
            labels.contains(&"mean, theory, 4 cores (approx.)".to_owned())
                && labels.contains(&"p99, theory, 4 cores (approx.)".to_owned())
                && !labels.iter().any(|l| l.contains("worker")),
            "{labels:?}"
        );
    }

    #[test]
    fn the_legend_names_the_lines_workers_as_what_they_are() {
        // Each loop its own line: "1 loop", not a worker (in the WAF
        // lesson a worker is a thread of the loop's pool).
        let inline = curve_labels(&preset("waf-inline").unwrap());
        assert!(
            inline.contains(&"mean, theory, 1 loop (approx.)".to_owned()),
            "{inline:?}"
        );
        // Loops sharing one line: the loops, then one loop.
        let shared = curve_labels(&Scenario {
            model: tellers_sim::Model::EventLoop,
            loops: 4,
            accept: tellers_sim::Accept::Shared,
            ..preset("mm4").unwrap()
        });
        assert!(
            shared
                .iter()
                .any(|l| l.starts_with("mean, theory, 4 loops"))
                && shared.iter().any(|l| l.starts_with("mean, 1 loop")),
            "{shared:?}"
        );
        // A pool on fewer cores: one line for its threads on their cores,
        // and no line for one worker (another model).
        let pool = curve_labels(&preset("sale-day-pool-40").unwrap());
        assert!(
            pool.contains(&"mean, theory, 40 threads on 4 cores (approx.)".to_owned())
                && !pool.iter().any(|l| l.contains("worker")),
            "{pool:?}"
        );
        // A pool of threads: the course's workers.
        let mm4 = curve_labels(&preset("mm4").unwrap());
        assert!(
            mm4.contains(&"mean, theory, 4 workers".to_owned()),
            "{mm4:?}"
        );
    }

    #[test]
    fn the_mean_line_follows_the_shape_of_the_service_times() {
        let mm1 = preset("mm1").unwrap();
        let md1 = preset("md1").unwrap();
        assert!((theory(&mm1).scv - 1.0).abs() < 1e-12);
        assert_eq!(theory(&md1).scv, 0.0);
        // M/D/1 at 80 %: 10 ms + 20 ms in line, the theory's own figure.
        let ch = chart(&theory(&md1), &theory(&md1), &[], None);
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
        let ch = chart(&theory(&s), &theory(&s), &[], None);
        let ring = ch.series.iter().find(|s| s.mark == Mark::Ring).unwrap();
        assert_eq!(ring.label, "now (mean, theory)");
        assert!((ring.points[0].1 - 50.0).abs() < 1e-9);
    }

    /// A run whose keep-alive connections have not brought its arrivals
    /// up to the rate is not at the scenario's point: theory's mean stands
    /// there, not the run's, until they reach most of it.
    #[test]
    fn a_run_below_its_load_is_not_drawn_at_the_scenarios_point() {
        let s = preset("waf-offload-unbalanced").unwrap();
        let th = theory(&s);
        assert!(th.keep_alive.is_some() && th.mean_ms.is_some());
        let run = |arrival_rps: f64| Report {
            completed: 10_000,
            measured: 10_000,
            arrival_rps,
            sim_time_s: 60.0,
            warmup_s: 6.0,
            finished: true,
            latency_ms: tellers_sim::report::Latency {
                mean: 44.0,
                ..Default::default()
            },
            ..Report::default()
        };
        let ring = |r: &Report| {
            let ch = chart(&th, &th, &[], Some(r));
            let ring = ch
                .series
                .into_iter()
                .find(|s| s.mark == Mark::Ring)
                .unwrap();
            ring.label
        };
        assert_eq!(ring(&run(679.0)), "now (mean, theory)");
        assert_eq!(ring(&run(1_090.0)), "now (mean, simulated)");
    }

    #[test]
    fn an_overloaded_scenario_has_no_operating_point() {
        let s = preset("sale-day").unwrap();
        let ch = chart(
            &theory(&s),
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
    fn a_run_that_does_not_settle_has_no_operating_point() {
        // Spike, then back to 75 %: retries keep the line growing, and the
        // load changes during the run, so no point of the curve is "now".
        let s = preset("spike-metastable").unwrap();
        let th = theory(&s);
        assert!(th.utilisation.unwrap() < 1.0 && !th.steady_load);
        let ring = |ch: &Chart| ch.series.iter().any(|s| s.mark == Mark::Ring);
        assert!(!ring(&chart(&th, &th, &[], None)));
        // The same load held steady, but the run's backlog grows.
        let mut steady = s.clone();
        steady.rps_schedule = None;
        let th = theory(&steady);
        assert!(th.steady_load);
        assert!(
            ring(&chart(&th, &th, &[], None)),
            "a steady load has a point"
        );
        let r = tellers_sim::simulate(&s).unwrap();
        assert!(
            tellers_sim::signs::backlog_grows(&r),
            "{}",
            r.inside_growth_per_s
        );
        assert!(!ring(&chart(&th, &th, &[], Some(&r))));
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
        let [(_, a), (_, load), (_, b), (_, c)] = series_charts(&pts, &Scenario::default());
        // Nothing late and no retries: arriving and finished only.
        let labels: Vec<&str> = load.series.iter().map(|s| s.label.as_str()).collect();
        assert_eq!(labels, ["arriving", "finished"]);
        // With callers who give up, the legend says none did.
        let timed = Scenario {
            timeout_ms: Some(1000.0),
            ..Scenario::default()
        };
        let [_, (_, load), _, _] = series_charts(&pts, &timed);
        let labels: Vec<&str> = load.series.iter().map(|s| s.label.as_str()).collect();
        assert_eq!(labels, ["arriving", "finished (all in time)"]);
        let late: Vec<SeriesPoint> = pts
            .iter()
            .map(|p| SeriesPoint {
                throughput_rps: 10.0,
                goodput_rps: 4.0,
                retries_rps: 1.0,
                ..*p
            })
            .collect();
        let [_, (_, load), _, _] = series_charts(&late, &timed);
        assert!(load.y_label.contains("per second") && load.series.len() == 4);
        let labels: Vec<&str> = load.series.iter().map(|s| s.label.as_str()).collect();
        assert_eq!(
            labels,
            [
                "arriving (retries too)",
                "finished in time (goodput)",
                "finished",
                "retries"
            ]
        );
        // With a circuit breaker, the tries drawn are those that reached
        // the server: the calls it failed at once are not among them.
        let broken = Scenario {
            breaker_after: Some(20),
            ..timed.clone()
        };
        let [_, (_, load), _, _] = series_charts(&late, &broken);
        assert_eq!(load.series[0].label, "reaching the server (retries too)");
        // The dashed "finished" is drawn over the solid goodput: where the
        // two are equal it shows, not hidden under it.
        let at = |l: &str| load.series.iter().position(|s| s.label == l).unwrap();
        assert!(at("finished") > at("finished in time (goodput)"));
        assert_eq!(load.series[at("finished")].mark, Mark::Dashed);
        assert_eq!(a.x, (0.0, 2.0));
        assert!(a.y.1 >= 12.0);
        // A run over in a tenth of a second spans the axis.
        let short = [SeriesPoint { t_s: 0.1, ..pts[0] }];
        assert_eq!(
            series_charts(&short, &Scenario::default())[0].1.x,
            (0.0, 0.1)
        );
        assert!(b.y_label.contains('%') && c.y_label.contains("ms"));
        // An interval where nothing finished is a gap in the p99 line, not
        // a slope across it, and the chart's words skip it.
        let gap = [
            pts[0],
            pts[1],
            SeriesPoint {
                t_s: 3.0,
                p99_ms: 30.0,
                ..pts[0]
            },
        ];
        let [_, _, _, (_, p99)] = series_charts(&gap, &Scenario::default());
        assert_eq!(clip_to_range(&p99.series[0].points, p99.y, false).len(), 2);
        let said = chart_summary(&p99);
        assert!(
            said.contains("from 20 ms to 30 ms") && !said.contains("NaN"),
            "{said}"
        );
        assert!(
            c.series[0].points.len() == 2 && c.series[0].points[1].1.is_nan(),
            "an interval with nothing finished is a gap"
        );
    }

    /// Each chart's label says what its chart shows, in the panel's order.
    #[test]
    fn each_series_chart_carries_its_own_label() {
        let charts = series_charts(&[], &Scenario::default());
        let labels = charts.each_ref().map(|(l, _)| *l);
        assert_eq!(
            labels,
            [
                "Requests in line and inside over simulated time",
                "Requests per second over simulated time: arriving and finished (in time, and retries, where there are any)",
                "CPU busy, percent, over simulated time",
                "p99 response time per interval, ms, over simulated time",
            ]
        );
        for (label, chart) in &charts {
            let what = chart.y_label.split(',').next().unwrap();
            assert!(label.starts_with(what), "{label} / {}", chart.y_label);
        }
    }

    /// About what a sans-serif font measures: 0.6 em a letter (wide, like DejaVu Sans).
    fn measure(s: &str) -> f64 {
        s.chars().count() as f64 * type_px::LEGEND * 0.6
    }

    #[test]
    fn legends_flow_into_rows_and_long_labels_wrap() {
        let m = |s: &str| s.chars().count() as f64 * 10.0;
        let (places, h) = legend_layout(
            &["aaaa", "bbbb", "cccc"],
            &m,
            (5.0, 10.0),
            110.0,
            10.0,
            5.0,
            20.0,
        );
        let at: Vec<_> = places.iter().map(|e| (e.x, e.y)).collect();
        assert_eq!(at, vec![(5.0, 10.0), (60.0, 10.0), (5.0, 30.0)]);
        assert_eq!(h, 40.0);
        // Too wide for a row: wrapped at spaces, the next row below both lines.
        let (places, h) = legend_layout(
            &["aaaa bbbb cccc", "dd"],
            &m,
            (0.0, 10.0),
            110.0,
            10.0,
            5.0,
            20.0,
        );
        assert_eq!(places[0].lines, vec!["aaaa bbbb", "cccc"]);
        assert_eq!((places[1].x, places[1].y), (0.0, 50.0));
        assert_eq!(h, 60.0);
        assert_eq!(wrap("a bb ccc", 40.0, &m), vec!["a bb", "ccc"]);
        assert_eq!(wrap("toolongword x", 40.0, &m), vec!["toolongword", "x"]);
        assert_eq!(
            legend_layout(&[], &m, (0.0, 10.0), 100.0, 10.0, 5.0, 20.0),
            (vec![], 0.0)
        );
    }

    #[test]
    fn a_chart_lays_out_for_a_phone_and_a_desktop() {
        let s = preset("sale-day-planned").unwrap();
        let ch = chart(&theory(&s), &theory(&s), &[], None);
        let labels: Vec<&str> = ch.series.iter().map(|s| s.label.as_str()).collect();
        for width in [220.0, 258.0, 342.0, 600.0, 900.0] {
            let lay = chart_layout(width, &labels, &ch.x_label, &measure, 48.0, true, 0.0);
            assert_eq!(lay.legend.len(), ch.series.len());
            let mut bottom: f64 = 0.0;
            for e in &lay.legend {
                let w = e.lines.iter().map(|l| measure(l)).fold(0.0, f64::max);
                assert!(
                    e.x + LEGEND_MARK + w <= width - SIDE_PX + 1e-9,
                    "{width}: {e:?} runs off"
                );
                bottom = bottom.max(e.y + (e.lines.len() as f64 - 0.5) * LEGEND_ROW);
            }
            assert!(
                lay.y_label_y > bottom && lay.plot_top > lay.y_label_y,
                "{width}: {lay:?}"
            );
            assert!(lay.plot_h >= 220.0, "{width}: a plot of {} px", lay.plot_h);
            for line in &lay.x_label {
                assert!(
                    measure(line) <= width - 2.0 * SIDE_PX,
                    "{width}: {line} runs off"
                );
            }
            assert_eq!(lay.x_label.join(" "), ch.x_label);
            let last = lay.x_label_y + (lay.x_label.len() - 1) as f64 * X_LABEL_ROW;
            assert!(lay.x_label_y > lay.plot_top + lay.plot_h + 20.0);
            assert!(last + X_LABEL_ROW / 2.0 <= lay.height);
            assert!((4..=10).contains(&lay.x_ticks) && (5..=8).contains(&lay.y_ticks));
        }
        // A desktop fits the legend in a few rows; a narrow chart gets fewer x ticks.
        let wide = chart_layout(900.0, &labels, "x", &measure, 48.0, false, 0.0);
        assert!(wide.legend.last().unwrap().y <= 12.0 + 2.0 * LEGEND_ROW);
        assert!(
            chart_layout(342.0, &labels, "x", &measure, 48.0, false, 0.0).x_ticks < wide.x_ticks
        );
    }

    /// A phone's time series labels its 60 s axis every 20 s: with 3
    /// ticks plotters gave only 0 and 50.
    #[test]
    fn a_narrow_time_axis_keeps_enough_labels() {
        use plotters::coord::ranged1d::{KeyPointHint, Ranged};
        use plotters::coord::types::RangedCoordf64;
        let measure = |s: &str| s.chars().count() as f64 * 7.0;
        for width in [240.0, 300.0, 342.0, 390.0] {
            let lay = chart_layout(width, &[], "Simulated time, s", &measure, 48.0, false, 0.0);
            let axis: RangedCoordf64 = (0.0..60.0).into();
            let labels = axis.key_points(lay.x_ticks.bold_points());
            assert_eq!(labels, [0.0, 20.0, 40.0, 60.0], "{width} px");
        }
    }

    /// A time series' y axis, from 0 to a tenth above its peak
    /// ([`linear_max`]), has at least three labels at every height: with 4
    /// ticks, a peak of 870 got only 0 and 500.
    #[test]
    fn a_linear_y_axis_keeps_at_least_three_labels() {
        use plotters::coord::ranged1d::{KeyPointHint, Ranged};
        use plotters::coord::types::RangedCoordf64;
        let measure = |s: &str| s.chars().count() as f64 * 7.0;
        for width in [240.0, 342.0, 500.0, 900.0] {
            let lay = chart_layout(width, &[], "x", &measure, 48.0, false, 0.0);
            for peak in (1..=400).map(|i| f64::from(i) * 2.5) {
                let axis: RangedCoordf64 = (0.0..linear_max([peak], 1.0)).into();
                let labels = axis.key_points(lay.y_ticks.bold_points());
                assert!(labels.len() >= 3, "{width} px, peak {peak}: {labels:?}");
            }
        }
        let lay = chart_layout(900.0, &[], "x", &measure, 48.0, false, 0.0);
        let axis: RangedCoordf64 = (0.0..linear_max([870.0], 1.0)).into();
        assert_eq!(
            axis.key_points(lay.y_ticks.bold_points()),
            [0.0, 200.0, 400.0, 600.0, 800.0]
        );
    }

    /// The curve's theory lines come one a call, all four for a scenario
    /// with several workers, and the old ones stay drawn until the new
    /// scenario's are all there; a call for lines already there computes
    /// nothing.
    #[test]
    fn theory_lines_come_one_a_draw_and_the_old_stay_until_the_new_are_in() {
        let (a, b) = (preset("fan-out-10").unwrap(), preset("sale-day").unwrap());
        let (ta, tb) = (theory(&a), theory(&b));
        let (pa, pb) = (curve_theory(&a, &ta), curve_theory(&b, &tb));
        assert!(ta.servers > 1 && ta.curve_formula && tb.servers > 1 && tb.curve_formula);
        // Each mean line in one call, each p99 line of 25 points in five.
        let calls = |lines: &[Series]| -> usize {
            lines
                .iter()
                .map(|l| {
                    if l.label.starts_with("p99") {
                        l.points.len().div_ceil(P99_POINTS_A_CALL)
                    } else {
                        1
                    }
                })
                .sum()
        };
        let all_a = curve_lines(&pa);
        assert_eq!(all_a.len(), CURVE_LINES);
        assert_eq!(calls(&all_a), 12);
        let mut lines = CurveLines::default();
        for _ in 1..calls(&all_a) {
            assert!(!lines.add_one(&a, &pa));
            assert!(lines.shown().is_empty());
        }
        assert!(lines.add_one(&a, &pa));
        assert_eq!(lines.shown(), all_a);
        assert!(lines.add_one(&a, &pa));
        assert_eq!(lines.shown(), all_a);
        // A new scenario: a's lines stay until all of b's are computed.
        for _ in 1..calls(&curve_lines(&pb)) {
            assert!(!lines.add_one(&b, &pb));
            assert_eq!(lines.shown(), all_a);
        }
        assert!(lines.add_one(&b, &pb));
        assert_eq!(lines.shown(), curve_lines(&pb));
        assert_ne!(lines.shown(), all_a);
        // A scenario with no theory lines (a fan-out the dependency
        // limits): none are drawn, from the first call.
        let none = Scenario {
            fan_out: 3,
            dep_concurrency: Some(1),
            ..Scenario::default()
        };
        let pn = curve_theory(&none, &theory(&none));
        assert!(curve_lines(&pn).is_empty());
        assert!(lines.add_one(&none, &pn));
        assert!(lines.shown().is_empty());
    }

    #[test]
    fn lines_are_cut_where_they_leave_the_axis() {
        // Linear: up through the top at x = 1.5, back in at x = 3.5.
        let pts = [(0.0, 0.0), (1.0, 5.0), (2.0, 15.0), (3.0, 15.0), (4.0, 5.0)];
        let parts = clip_to_range(&pts, (0.0, 10.0), false);
        assert_eq!(
            parts,
            vec![
                vec![(0.0, 0.0), (1.0, 5.0), (1.5, 10.0)],
                vec![(3.5, 10.0), (4.0, 5.0)]
            ]
        );
        // Log: from 10 to 10,000 crosses 1,000 two thirds of the way, in log10.
        let parts = clip_to_range(&[(0.0, 10.0), (3.0, 10_000.0)], (1.0, 1000.0), true);
        assert_eq!(parts.len(), 1);
        let end = parts[0][1];
        assert!(
            (end.0 - 2.0).abs() < 1e-9 && (end.1 - 1000.0).abs() < 1e-9,
            "{end:?}"
        );
        // A segment that jumps over the whole range keeps the part inside.
        let parts = clip_to_range(&[(0.0, -10.0), (2.0, 30.0)], (0.0, 10.0), false);
        assert_eq!(parts, vec![vec![(0.5, 0.0), (1.0, 10.0)]]);
        // Bad points break the line; nothing inside gives nothing.
        let parts = clip_to_range(
            &[(0.0, 1.0), (1.0, f64::NAN), (2.0, 2.0), (3.0, 3.0)],
            (0.0, 10.0),
            false,
        );
        assert_eq!(parts, vec![vec![(0.0, 1.0)], vec![(2.0, 2.0), (3.0, 3.0)]]);
        assert!(clip_to_range(&[(0.0, 50.0), (1.0, 60.0)], (0.0, 10.0), false).is_empty());
        assert!(clip_to_range(&[(0.0, 0.0), (1.0, 0.0)], (1.0, 10.0), true).is_empty());
    }

    #[test]
    fn the_curve_stays_inside_its_axis() {
        // Theory at 98 % is far above the axis; the drawn parts end at its top.
        let s = preset("mm1").unwrap();
        let ch = chart(&theory(&s), &theory(&s), &[], None);
        for series in ch.series.iter().filter(|s| s.mark == Mark::Line) {
            for part in clip_to_range(&series.points, ch.y, true) {
                assert!(part
                    .iter()
                    .all(|p| p.1 >= ch.y.0 * (1.0 - 1e-9) && p.1 <= ch.y.1 * (1.0 + 1e-9)));
            }
        }
    }

    #[test]
    fn log_ticks_label_powers_of_ten_and_2_and_5_when_there_is_room() {
        assert_eq!(log_tick_label(100.0, 50.0, 1000.0), "100");
        assert_eq!(log_tick_label(1000.0000000001, 50.0, 1000.0), "1,000");
        assert_eq!(log_tick_label(0.1, 50.0, 1000.0), "0.1");
        assert_eq!(
            log_tick_label(200.0, 50.0, 1000.0),
            "",
            "1 and 2 would touch"
        );
        assert_eq!(log_tick_label(200.00000000000003, 120.0, 1000.0), "200");
        assert_eq!(log_tick_label(50.0, 120.0, 1000.0), "50");
        assert_eq!(
            log_tick_label(30.0, 120.0, 1000.0),
            "",
            "a grid line without a label"
        );
        assert_eq!(log_tick_label(0.0, 120.0, 1000.0), "");
        assert_eq!(log_tick_label(f64::NAN, 120.0, 1000.0), "");
        assert_eq!(linear_tick_label(0.30000000000000004, false, 1.0), "0.3");
        assert_eq!(linear_tick_label(0.6000000000000001, true, 1.0), "60");
        assert_eq!(linear_tick_label(1500.0, false, 2000.0), "1,500");
        // An axis up to 10,000: every thousand in one style.
        assert_eq!(log_tick_label(5000.0, 120.0, 10_000.0), "5k");
        assert_eq!(log_tick_label(10_000.0, 120.0, 10_000.0), "10k");
        assert_eq!(log_tick_label(500.0, 120.0, 10_000.0), "500");
        assert_eq!(linear_tick_label(7500.0, false, 12_000.0), "7.5k");
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
