//! Numbers as the learner reads them (`1,234 ms`, `50 %`, `2.5×`, a tick
//! label). Plain functions, checked with `cargo test`.

/// A number with `decimals` decimals and thousands separated by commas.
pub use tellers_course::exercise::fmt_fixed as fmt_num;

/// Decimals that keep about three significant figures for numbers a learner reads.
fn decimals_for(x: f64) -> usize {
    let a = x.abs();
    if a >= 100.0 || a == 0.0 {
        0
    } else if a >= 10.0 {
        1
    } else {
        2
    }
}

/// A duration given in ms, e.g. `1,234 ms`, `45.6 ms`, `0.25 ms`; from 10 s
/// on in seconds (`22.6 s`).
pub fn fmt_ms(x: f64) -> String {
    // From 10 s on in seconds: "22.6 s", not "22,567 ms".
    if x.abs() >= 10_000.0 {
        return fmt_s(x / 1000.0);
    }
    format!("{} ms", fmt_num(x, decimals_for(x)))
}

/// A duration in seconds, e.g. `2.3 s`, `0.25 s`, `1,200 s`; under 10 ms
/// in ms (`1.00 ms`, not `0.00 s`).
pub fn fmt_s(x: f64) -> String {
    if x != 0.0 && x.abs() < 0.01 {
        return fmt_ms(x * 1000.0);
    }
    format!(
        "{} s",
        fmt_num(x, decimals_for(x).min(if x >= 1.0 { 1 } else { 2 }))
    )
}

/// A run length in seconds as it was set: `60`, `2.5` (never rounded to
/// `2`), without the unit.
pub fn fmt_length_s(x: f64) -> String {
    let exact = |d: usize| {
        let k = 10f64.powi(d as i32);
        ((x * k).round() / k - x).abs() < 1e-9
    };
    fmt_num(x, (0..3).find(|d| exact(*d)).unwrap_or(3))
}

/// A rate, e.g. `400 rps`.
pub fn fmt_rps(x: f64) -> String {
    format!("{} rps", fmt_num(x, decimals_for(x)))
}

/// A share 0–1 as a percentage, e.g. `50 %`. Near 100 % a share just
/// under or over it says which (`99.8 %`, `100.3 %`), never a round
/// `100 %` that is not exactly all.
pub fn fmt_pct(x: f64) -> String {
    let mut p = x * 100.0;
    // Off by rounding in the sum that made it (1000/19 × 19/1000): all.
    if (p - 100.0).abs() < 1e-9 {
        p = 100.0;
    }
    let mut d = if x.abs() < 0.1 { 1 } else { 0 };
    let rounds_to_all = |d: usize| {
        let k = 10f64.powi(d as i32);
        p != 100.0 && (p * k).round() == 100.0 * k
    };
    while d < 3 && rounds_to_all(d) {
        d += 1;
    }
    if rounds_to_all(d) {
        return if p < 100.0 { "99.999 %" } else { "100.001 %" }.to_owned();
    }
    format!("{} %", fmt_num(p, d))
}

/// A rate of growth per second, e.g. `200 per s`, `0.05 per s`: a line
/// that grows at all never reads `0 per s`.
pub fn fmt_per_s(x: f64) -> String {
    let n = if x <= 0.0 || x >= 1.0 {
        fmt_count(x.max(0.0).round())
    } else if x < 0.005 {
        "under 0.01".to_owned()
    } else {
        fmt_num(x, 2)
    };
    format!("{n} per s")
}

/// A count or a mean count, e.g. `2,260` or `19.6`.
pub fn fmt_count(x: f64) -> String {
    fmt_num(
        x,
        if x.fract() == 0.0 {
            0
        } else {
            decimals_for(x).min(1)
        },
    )
}

/// A value with a slider's unit, for the value box's accessible text.
pub fn fmt_value(x: f64, unit: &str) -> String {
    let n = fmt_num(x, if x.fract() == 0.0 { 0 } else { 2 });
    if unit.is_empty() {
        n
    } else {
        format!("{n} {unit}")
    }
}

/// `text` with every whole number of four or more digits grouped by
/// commas (the simulator's, which theory's text uses too).
pub use tellers_sim::text::group_thousands;

/// A tick's label: `0.5`, `20`, `1,000`, `10k`.
pub fn fmt_tick(x: f64) -> String {
    if x >= 10_000.0 && (x / 1000.0).fract() == 0.0 {
        format!("{}k", fmt_num(x / 1000.0, 0))
    } else if x.fract() == 0.0 {
        fmt_num(x, 0)
    } else {
        let s = format!("{x:.3}");
        s.trim_end_matches('0').trim_end_matches('.').to_owned()
    }
}

/// A tick's label on an axis that reaches `big` numbers (10,000 or more):
/// there every thousand reads as `5k`, `12.5k`, so no axis shows `10k`
/// beside `5,000`; elsewhere numbers are in full (`5,000`, `0.25`).
pub fn fmt_axis_tick(x: f64, big: bool) -> String {
    if big && x.abs() >= 1000.0 {
        let k = x / 1000.0;
        let s = format!("{k:.1}");
        format!("{}k", fmt_num(k, usize::from(!s.ends_with(".0"))))
    } else if x.fract() == 0.0 {
        fmt_num(x, 0)
    } else {
        let s = format!("{x:.3}");
        s.trim_end_matches('0').trim_end_matches('.').to_owned()
    }
}

/// A speed as the learner reads it: `0.1×`, `1×`, `25×`.
pub fn fmt_speed(speed: f64) -> String {
    format!("{}×", fmt_tick((speed * 100.0).round() / 100.0))
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn numbers_read_like_prose() {
        assert_eq!(fmt_ms(1234.4), "1,234 ms");
        assert_eq!(fmt_ms(9_999.0), "9,999 ms");
        assert_eq!(fmt_ms(22_567.0), "22.6 s");
        assert_eq!(fmt_ms(109_345.0), "109 s");
        assert_eq!(fmt_ms(45.62), "45.6 ms");
        assert_eq!(fmt_ms(0.25), "0.25 ms");
        assert_eq!(fmt_rps(400.0), "400 rps");
        assert_eq!(fmt_pct(0.5013), "50 %");
        assert_eq!(fmt_pct(0.05), "5.0 %");
        assert_eq!(fmt_count(2259.85), "2,260");
        assert_eq!(fmt_count(19.0), "19");
        assert_eq!(fmt_num(-1234567.0, 0), "−1,234,567");
        assert_eq!(fmt_num(-0.001, 0), "0");
        assert_eq!(fmt_num(f64::INFINITY, 0), "∞");
        assert_eq!(fmt_value(2.5, "ms"), "2.50 ms");
        assert_eq!(fmt_s(2.34), "2.3 s");
        assert_eq!(fmt_s(0.25), "0.25 s");
        assert_eq!(fmt_s(0.001), "1.00 ms", "a short makespan is not 0.00 s");
        assert_eq!(fmt_length_s(2.5), "2.5");
        assert_eq!(fmt_length_s(60.0), "60");
        // The tipping point reads as what it is.
        assert_eq!(fmt_pct(0.9975), "99.8 %");
        assert_eq!(fmt_pct(0.9996), "99.96 %");
        assert_eq!(fmt_pct(1.0), "100 %");
        assert_eq!(fmt_pct(1.003), "100.3 %");
        assert_eq!(fmt_pct(1000.0 / 19.0 * 19.0 / 1000.0), "100 %");
        assert_eq!(fmt_pct(0.999_999_9), "99.999 %");
        assert_eq!(fmt_per_s(0.048), "0.05 per s");
        assert_eq!(fmt_per_s(0.001), "under 0.01 per s");
        assert_eq!(fmt_per_s(0.0), "0 per s");
        assert_eq!(fmt_per_s(200.4), "200 per s");
    }

    #[test]
    fn tick_labels_are_short() {
        assert_eq!(fmt_tick(0.5), "0.5");
        assert_eq!(fmt_tick(1000.0), "1,000");
        assert_eq!(fmt_tick(20_000.0), "20k");
        let axis = |xs: &[f64]| {
            xs.iter()
                .map(|&x| fmt_axis_tick(x, true))
                .collect::<Vec<_>>()
        };
        assert_eq!(
            axis(&[0.0, 5000.0, 10_000.0, 12_500.0]),
            ["0", "5k", "10k", "12.5k"]
        );
        assert_eq!(fmt_axis_tick(5000.0, false), "5,000");
        assert_eq!(fmt_axis_tick(0.25, false), "0.25");
    }
}
