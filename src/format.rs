//! Numbers as the learner reads them (`1,234 ms`, `50 %`, `2.5×`, a tick
//! label). Plain functions, checked with `cargo test`.

/// A number with `decimals` decimals and thousands separated by commas.
pub use tellers_sim::text::fmt_fixed as fmt_num;

/// A count, a run length as it was set, a share as a percentage: the
/// simulator's, which its signs and notes use too.
pub use tellers_sim::text::{fmt_count, fmt_length_s, fmt_pct};
/// Durations as the figures and the signs both show them.
pub use tellers_sim::text::{fmt_ms, fmt_s};

pub use tellers_sim::text::fmt_rps;

/// A rate of growth per second, to about three figures as the table's
/// other rates, e.g. `200 per s`, `3.75 per s`, `0.05 per s`: a line that
/// grows at all never reads `0 per s`, and lesson 1's 3.75 a second read
/// "4 per s" beside a lesson that works it out as 3.75.
pub fn fmt_per_s(x: f64) -> String {
    let n = if x <= 0.0 {
        "0".to_owned()
    } else if x < 0.01 {
        "under 0.01".to_owned()
    } else {
        tellers_sim::text::fmt_rate(x)
    };
    format!("{n} per s")
}

/// A value with a slider's unit, for the value box's accessible text.
pub fn fmt_value(x: f64, unit: &str) -> String {
    let n = fmt_num(x, if x.fract() == 0.0 { 0 } else { 2 });
    if unit.is_empty() {
        n
    } else {
        format!("{n} {}", unit_for(x, unit))
    }
}

/// A setting of `field` at `x` as a learner reads it: [`fmt_value`] in its
/// unit, or what 0 means where its label says ("no cap", not "0").
pub fn fmt_setting(field: &tellers_sim::scenario::Field, x: f64) -> String {
    match field.zero_means() {
        Some(said) if x == 0.0 => said.to_owned(),
        _ => fmt_value(x, field.unit),
    }
}

/// A field's unit as it reads after `x`: a counted thing in the singular
/// after exactly 1 ("1 call", "1 retry"; "this run: 1 calls" read wrongly),
/// a unit of measure as it is ("1 ms", "1 rps").
fn unit_for(x: f64, unit: &str) -> String {
    let measure = tellers_sim::text::UNITS.contains(&unit);
    match unit.strip_suffix("ies") {
        _ if x != 1.0 || measure => unit.to_owned(),
        Some(stem) => format!("{stem}y"),
        None => unit.strip_suffix('s').unwrap_or(unit).to_owned(),
    }
}

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

/// Two times side by side ("mean / p99") in one unit: both in seconds
/// when either reaches 10 s ("5.6 s / 10.0 s", not "5,632 ms / 10.0 s").
pub fn fmt_ms_pair(a: f64, b: f64) -> String {
    if a.abs().max(b.abs()) >= 10_000.0 {
        format!("{} / {}", fmt_s(a / 1000.0), fmt_s(b / 1000.0))
    } else {
        format!("{} / {}", fmt_ms(a), fmt_ms(b))
    }
}

/// `text` with each number kept on a line with its unit (one home, shared
/// with the course's text).
pub use tellers_sim::text::units_kept;

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
        // A pair reads in one unit.
        assert_eq!(fmt_ms_pair(5_632.0, 10_040.0), "5.6 s / 10.0 s");
        assert_eq!(fmt_ms_pair(788.0, 1_131.0), "788 ms / 1,131 ms");
        // A wait that rounds to nothing still happened; none is 0 ms.
        assert_eq!(fmt_ms(0.002), "under 0.01 ms");
        assert_eq!(fmt_ms(0.0), "0 ms");
        assert_eq!(fmt_rps(400.0), "400 rps");
        assert_eq!(fmt_rps(f64::INFINITY), "no limit");
        assert_eq!(fmt_num(-1234567.0, 0), "−1,234,567");
        assert_eq!(fmt_num(-0.001, 0), "0");
        assert_eq!(fmt_num(f64::INFINITY, 0), "∞");
        assert_eq!(fmt_value(2.5, "ms"), "2.50 ms");
        assert_eq!(fmt_value(1.0, "calls"), "1 call");
        assert_eq!(fmt_value(1.0, "retries"), "1 retry");
        assert_eq!(fmt_value(100.0, "calls"), "100 calls");
        assert_eq!(fmt_value(1.0, "ms"), "1 ms");
        assert_eq!(fmt_value(1.0, "rps"), "1 rps");
        // Every field's unit after 1: a unit of measure as it is, a counted
        // thing in the singular ("1 calls" was read on screen).
        for f in tellers_sim::scenario::FIELDS {
            let one = fmt_value(1.0, f.unit);
            let measure = f.unit.is_empty() || tellers_sim::text::UNITS.contains(&f.unit);
            assert_eq!(
                one == format!("1 {}", f.unit).trim_end(),
                measure,
                "{}: {one}",
                f.name
            );
        }
        // A 0 that switches a setting off reads as its label says; other
        // values, and fields without such a 0, read as the number.
        let field = |name| tellers_sim::Scenario::field(name).unwrap();
        assert_eq!(fmt_setting(field("thread_cap"), 0.0), "no cap");
        assert_eq!(fmt_setting(field("thread_cap"), 64.0), "64 threads");
        assert_eq!(fmt_setting(field("timeout_ms"), 0.0), "never");
        assert_eq!(fmt_setting(field("loops"), 0.0), "one per core");
        assert_eq!(fmt_setting(field("wait_ms"), 0.0), "0 ms");
        assert_eq!(fmt_s(2.34), "2.3 s");
        assert_eq!(fmt_s(0.25), "0.25 s");
        assert_eq!(fmt_s(0.001), "1.00 ms", "a short makespan is not 0.00 s");
        assert_eq!(fmt_per_s(0.048), "0.048 per s");
        assert_eq!(fmt_per_s(0.007), "under 0.01 per s");
        assert_eq!(fmt_per_s(0.001), "under 0.01 per s");
        assert_eq!(fmt_per_s(0.0), "0 per s");
        assert_eq!(fmt_per_s(200.4), "200 per s");
        // To three figures, as the other rates: lesson 1 works out 3.75.
        assert_eq!(fmt_per_s(3.75), "3.75 per s");
        assert_eq!(fmt_per_s(54.23), "54.2 per s");
        assert_eq!(fmt_per_s(-2.0), "0 per s");
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
