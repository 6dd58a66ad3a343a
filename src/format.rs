//! Numbers as the learner reads them (`1,234 ms`, `50 %`, `2.5×`) and the
//! ticks of a chart's axes. Plain functions, checked with `cargo test`.

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

/// A duration in ms, e.g. `1,234 ms`, `45.6 ms`, `0.25 ms`.
pub fn fmt_ms(x: f64) -> String {
    format!("{} ms", fmt_num(x, decimals_for(x)))
}

/// A duration in seconds, e.g. `2.3 s`, `0.25 s`, `1,200 s`.
pub fn fmt_s(x: f64) -> String {
    format!(
        "{} s",
        fmt_num(x, decimals_for(x).min(if x >= 1.0 { 1 } else { 2 }))
    )
}

/// A rate, e.g. `400 rps`.
pub fn fmt_rps(x: f64) -> String {
    format!("{} rps", fmt_num(x, decimals_for(x)))
}

/// A share 0–1 as a percentage, e.g. `50 %`.
pub fn fmt_pct(x: f64) -> String {
    format!(
        "{} %",
        fmt_num(x * 100.0, if x.abs() < 0.1 { 1 } else { 0 })
    )
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
/// commas, as the rest of the app prints them: "mean 2136 ms" → "mean
/// 2,136 ms". Digits after a decimal point are left alone.
pub fn group_thousands(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len() + 8);
    let mut i = 0;
    while i < chars.len() {
        if !chars[i].is_ascii_digit() {
            out.push(chars[i]);
            i += 1;
            continue;
        }
        let start = i;
        while i < chars.len() && chars[i].is_ascii_digit() {
            i += 1;
        }
        let run: String = chars[start..i].iter().collect();
        let fraction = start > 0 && chars[start - 1] == '.';
        if fraction || run.len() < 4 {
            out.push_str(&run);
        } else {
            for (k, c) in run.chars().enumerate() {
                if k > 0 && (run.len() - k).is_multiple_of(3) {
                    out.push(',');
                }
                out.push(c);
            }
        }
    }
    out
}

/// About `n` evenly spaced round ticks (1, 2 or 5 × 10^k apart) covering `lo`–`hi`.
pub fn linear_ticks(lo: f64, hi: f64, n: usize) -> Vec<f64> {
    if !(lo.is_finite() && hi.is_finite()) || hi <= lo || n == 0 {
        return vec![];
    }
    let raw = (hi - lo) / n as f64;
    let mag = 10f64.powf(raw.log10().floor());
    let step = [1.0, 2.0, 5.0, 10.0]
        .iter()
        .map(|m| m * mag)
        .find(|s| *s >= raw)
        .unwrap_or(10.0 * mag);
    let first = (lo / step).ceil() as i64;
    let last = (hi / step + 1e-9).floor() as i64;
    (first..=last).map(|k| k as f64 * step).collect()
}

/// Ticks for a log axis: powers of ten in `lo`–`hi`, with 2 and 5 between
/// when the axis spans fewer than three decades.
pub fn log_ticks(lo: f64, hi: f64) -> Vec<f64> {
    if !(lo > 0.0 && hi > lo && hi.is_finite()) {
        return vec![];
    }
    let (a, b) = (lo.log10().floor() as i32, hi.log10().ceil() as i32);
    let mids: &[f64] = if b - a < 3 { &[1.0, 2.0, 5.0] } else { &[1.0] };
    let mut v = Vec::new();
    for e in a..=b {
        for m in mids {
            let t = m * 10f64.powi(e);
            if t >= lo * (1.0 - 1e-9) && t <= hi * (1.0 + 1e-9) {
                v.push(t);
            }
        }
    }
    v
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

/// The labels of one axis's ticks, all in one style: thousands as `5k`,
/// `10k` when the axis reaches 10,000, otherwise in full (`5,000`), so no
/// axis shows `10k` beside `5,000`.
pub fn fmt_ticks(ticks: &[f64]) -> Vec<String> {
    let big = ticks.iter().any(|t| t.abs() >= 10_000.0);
    ticks
        .iter()
        .map(|&x| {
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
        })
        .collect()
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
    }

    #[test]
    fn long_numbers_in_a_sentence_are_grouped() {
        assert_eq!(
            group_thousands("mean 7238 ms against 100 ms; 1024 cores, 0.12345 s, 1,234"),
            "mean 7,238 ms against 100 ms; 1,024 cores, 0.12345 s, 1,234"
        );
        assert_eq!(group_thousands("1000000 rps"), "1,000,000 rps");
        assert_eq!(group_thousands("no numbers"), "no numbers");
    }

    #[test]
    fn ticks_are_round_and_cover_the_range() {
        assert_eq!(
            linear_ticks(0.0, 1.0, 5),
            vec![0.0, 0.2, 0.4, 0.6000000000000001, 0.8, 1.0]
        );
        assert_eq!(linear_ticks(0.0, 20.0, 4), vec![0.0, 5.0, 10.0, 15.0, 20.0]);
        assert!(linear_ticks(1.0, 1.0, 4).is_empty());
        assert_eq!(log_ticks(1.0, 1000.0), vec![1.0, 10.0, 100.0, 1000.0]);
        assert_eq!(log_ticks(10.0, 100.0), vec![10.0, 20.0, 50.0, 100.0]);
        assert!(log_ticks(0.0, 10.0).is_empty());
        assert_eq!(fmt_tick(0.5), "0.5");
        assert_eq!(fmt_tick(1000.0), "1,000");
        assert_eq!(fmt_tick(20_000.0), "20k");
        assert_eq!(
            fmt_ticks(&[0.0, 5000.0, 10_000.0, 12_500.0]),
            ["0", "5k", "10k", "12.5k"]
        );
        assert_eq!(fmt_ticks(&[0.0, 2500.0, 5000.0]), ["0", "2,500", "5,000"]);
        assert_eq!(fmt_ticks(&[0.5, 1.0]), ["0.5", "1"]);
    }
}
