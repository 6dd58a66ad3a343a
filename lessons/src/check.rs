//! Checking a learner's numeric answer: the number, its unit, and the
//! tolerance. A wrong unit is explained apart from a wrong value, and
//! equivalent forms (0.1 s and 100 ms; 1 MB as 1,000 KB or as 1,024 KB;
//! "10 times" for a ratio) are all accepted. Where the line grows without
//! limit, the answer is a phrase such as "no limit", not a number.

use serde::{Deserialize, Serialize};

/// The unit an exercise's answer is in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Unit {
    /// A plain count.
    Count,
    /// Threads.
    Threads,
    /// Cores.
    Cores,
    /// Servers.
    Servers,
    /// Requests.
    Requests,
    /// Milliseconds.
    Ms,
    /// Seconds.
    S,
    /// Requests per second.
    Rps,
    /// Kilobytes (1 MB = 1,000 KB).
    #[serde(rename = "KB")]
    Kb,
    /// Megabytes.
    #[serde(rename = "MB")]
    Mb,
    /// Gigabytes (1 GB = 1,000 MB).
    #[serde(rename = "GB")]
    Gb,
    /// Percent.
    Percent,
}

/// What kind of quantity a unit measures; units of one family convert.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Family {
    Count,
    Time,
    Rate,
    Memory,
    Percent,
}

impl Unit {
    fn family(self) -> Family {
        match self {
            Unit::Count | Unit::Threads | Unit::Cores | Unit::Servers | Unit::Requests => {
                Family::Count
            }
            Unit::Ms | Unit::S => Family::Time,
            Unit::Rps => Family::Rate,
            Unit::Kb | Unit::Mb | Unit::Gb => Family::Memory,
            Unit::Percent => Family::Percent,
        }
    }

    /// Size in the family's base unit (ms, KB, or 1).
    fn scale(self) -> f64 {
        match self {
            Unit::S => 1000.0,
            Unit::Mb => 1000.0,
            Unit::Gb => 1_000_000.0,
            _ => 1.0,
        }
    }

    /// How the unit is written after a number.
    pub fn label(self) -> &'static str {
        match self {
            Unit::Count => "",
            Unit::Threads => "threads",
            Unit::Cores => "cores",
            Unit::Servers => "servers",
            Unit::Requests => "requests",
            Unit::Ms => "ms",
            Unit::S => "s",
            Unit::Rps => "requests per second",
            Unit::Kb => "KB",
            Unit::Mb => "MB",
            Unit::Gb => "GB",
            Unit::Percent => "%",
        }
    }

    /// Units a learner may type for this answer, for the hint under the box.
    pub fn accepted(self) -> &'static str {
        match self.family() {
            Family::Count => "a number, optionally followed by its unit",
            Family::Time => "a time: ms or s (e.g. 100 ms or 0.1 s)",
            Family::Rate => "a rate: rps, req/s or requests per second",
            Family::Memory => "a size: KB, MB or GB (1 GB = 1,000 MB)",
            Family::Percent => "a percentage (70 %) or a fraction (0.7)",
        }
    }
}

/// Words after a ratio ("10 times less"): a plain count.
const RATIO_WORDS: &[&str] = &["x", "×", "times", "fold", "times,"];

/// Phrases that mean "the line grows without limit" (lower case).
const NO_LIMIT_WORDS: &[&str] = &[
    "∞",
    "infinit",
    "no limit",
    "without limit",
    "unbounded",
    "unlimited",
    "grows",
    "never settles",
    "without end",
];

/// True when the learner says the line grows without limit instead of giving a number.
pub fn says_no_limit(input: &str) -> bool {
    let t = input.trim().to_lowercase();
    NO_LIMIT_WORDS.iter().any(|w| t.contains(w))
}

/// The learner's unit words, lower case, mapped to a unit.
fn unit_from_words(w: &str) -> Option<Unit> {
    let w = w.trim().trim_end_matches('.').to_lowercase();
    let w = w.as_str();
    Some(match w {
        "" => return None,
        "ms" | "msec" | "millisecond" | "milliseconds" => Unit::Ms,
        "s" | "sec" | "secs" | "second" | "seconds" => Unit::S,
        "rps"
        | "req/s"
        | "requests/s"
        | "/s"
        | "per second"
        | "requests per second"
        | "requests/second"
        | "request per second"
        | "qps" => Unit::Rps,
        "kb" => Unit::Kb,
        "mb" => Unit::Mb,
        "gb" => Unit::Gb,
        "%" | "percent" | "per cent" => Unit::Percent,
        "thread" | "threads" => Unit::Threads,
        "core" | "cores" | "cpu" | "cpus" => Unit::Cores,
        "server" | "servers" | "machine" | "machines" => Unit::Servers,
        "request" | "requests" | "req" | "connections" => Unit::Requests,
        // A ratio: "10 times", "10x", "10 times less".
        w if RATIO_WORDS.contains(&w.split_whitespace().next().unwrap_or(""))
            && w.split_whitespace().count() <= 2 =>
        {
            Unit::Count
        }
        _ => return None,
    })
}

/// The outcome of checking one answer.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Verdict {
    /// Right, within tolerance.
    Correct,
    /// A number in the right kind of unit, but not the right value.
    WrongValue {
        /// Whether the answer is too high (true) or too low (false).
        too_high: bool,
    },
    /// The unit cannot measure this answer (e.g. ms for a count of threads).
    WrongUnit {
        /// What was typed.
        typed: String,
    },
    /// Not a number we can read.
    Unreadable,
    /// "It grows without limit", but here the server keeps up: a number is expected.
    ExpectedNumber,
    /// A number, but here the line grows without limit.
    ExpectedNoLimit,
}

/// Read "1,000", "0.1", "1.5e3", "50 %" into a number and the text after it.
fn split_number(input: &str) -> Option<(f64, String)> {
    // The lessons print a typographic minus; learners type a hyphen. Both read.
    let t = input.trim().replace('\u{2212}', "-");
    let t = t.as_str();
    let mut end = 0;
    let mut seen_digit = false;
    for (i, c) in t.char_indices() {
        let ok = c.is_ascii_digit()
            || c == '.'
            || c == ','
            || c == '_'
            || c == '\u{202f}'
            || ((c == '-' || c == '+') && i == 0)
            || ((c == 'e' || c == 'E')
                && seen_digit
                && t[i + 1..].starts_with(|d: char| d.is_ascii_digit() || d == '-'))
            || ((c == '-') && t[..i].ends_with(['e', 'E']));
        if !ok {
            break;
        }
        seen_digit |= c.is_ascii_digit();
        end = i + c.len_utf8();
    }
    if !seen_digit {
        return None;
    }
    let num: String = t[..end]
        .chars()
        .filter(|c| !matches!(c, ',' | '_' | '\u{202f}'))
        .collect();
    let v: f64 = num.parse().ok()?;
    v.is_finite().then(|| (v, t[end..].trim().to_string()))
}

/// Check `input` against `expected` (in `unit`), with relative `tolerance`.
/// An infinite `expected` means the line grows without limit: only a phrase
/// such as "no limit" or "∞" is right.
pub fn check(input: &str, expected: f64, unit: Unit, tolerance: f64) -> Verdict {
    if says_no_limit(input) {
        return if expected.is_infinite() {
            Verdict::Correct
        } else {
            Verdict::ExpectedNumber
        };
    }
    let Some((value, rest)) = split_number(input) else {
        return Verdict::Unreadable;
    };
    let typed_unit = if rest.is_empty() {
        None
    } else {
        unit_from_words(&rest)
    };
    if !rest.is_empty() && typed_unit.is_none() {
        return Verdict::WrongUnit { typed: rest };
    }
    let value = match typed_unit {
        None => {
            // A bare fraction for a percentage: 0.7 means 70 %.
            if unit == Unit::Percent && value.abs() <= 1.0 && expected.abs() > 1.0 {
                value * 100.0
            } else {
                value
            }
        }
        Some(t) if t.family() != unit.family() => return Verdict::WrongUnit { typed: rest },
        Some(t)
            if t.family() == Family::Count
                && t != unit
                && t != Unit::Count
                && unit != Unit::Count =>
        {
            return Verdict::WrongUnit { typed: rest };
        }
        Some(t) => value * t.scale() / unit.scale(),
    };
    if expected.is_infinite() {
        return Verdict::ExpectedNoLimit;
    }
    let allowed = (expected.abs() * tolerance).max(1e-9);
    // Memory: 1 MB may be counted as 1,000 KB or as 1,024 KB, at each step.
    let conventions: &[f64] = if unit.family() == Family::Memory {
        &[
            1.0,
            1.024,
            1.024 * 1.024,
            1.0 / 1.024,
            1.0 / (1.024 * 1.024),
        ]
    } else {
        &[1.0]
    };
    if conventions
        .iter()
        .any(|k| (value - expected * k).abs() <= allowed * k)
    {
        Verdict::Correct
    } else {
        Verdict::WrongValue {
            too_high: value > expected,
        }
    }
}

/// A sentence for the learner about a verdict.
pub fn explain(v: &Verdict, unit: Unit) -> String {
    match v {
        Verdict::Correct => "Correct.".into(),
        Verdict::WrongValue { too_high: true } => "Not quite: that is too high. Try a hint.".into(),
        Verdict::WrongValue { too_high: false } => "Not quite: that is too low. Try a hint.".into(),
        Verdict::WrongUnit { typed } => {
            format!(
                "The number may be fine, but '{typed}' is not a unit for this answer. Use {}.",
                unit.accepted()
            )
        }
        Verdict::Unreadable => format!(
            "Type a number, such as 40 or 1,000. Use {}.",
            unit.accepted()
        ),
        Verdict::ExpectedNumber => {
            "Not quite: here the server keeps up, so the answer is a number. Try a hint.".into()
        }
        Verdict::ExpectedNoLimit => {
            "Not quite: compare the arrivals with what the server can finish. Try a hint.".into()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equivalent_forms_are_accepted() {
        assert_eq!(check("100 ms", 100.0, Unit::Ms, 0.02), Verdict::Correct);
        assert_eq!(check("0.1 s", 100.0, Unit::Ms, 0.02), Verdict::Correct);
        assert_eq!(check("0.1s", 100.0, Unit::Ms, 0.02), Verdict::Correct);
        assert_eq!(check("5 seconds", 5.0, Unit::S, 0.02), Verdict::Correct);
        assert_eq!(check("5000 ms", 5.0, Unit::S, 0.02), Verdict::Correct);
        assert_eq!(
            check("1,000", 1000.0, Unit::Requests, 0.01),
            Verdict::Correct
        );
        assert_eq!(check("1 GB", 1000.0, Unit::Mb, 0.01), Verdict::Correct);
        assert_eq!(check("10,000 MB", 10.0, Unit::Gb, 0.01), Verdict::Correct);
        assert_eq!(check("70 %", 70.0, Unit::Percent, 0.01), Verdict::Correct);
        assert_eq!(check("0.7", 70.0, Unit::Percent, 0.01), Verdict::Correct);
        assert_eq!(check("400 req/s", 400.0, Unit::Rps, 0.01), Verdict::Correct);
        assert_eq!(
            check("40 threads", 40.0, Unit::Threads, 0.01),
            Verdict::Correct
        );
        assert_eq!(check("  40 ", 40.0, Unit::Threads, 0.01), Verdict::Correct);
        assert_eq!(check("4e2", 400.0, Unit::Rps, 0.01), Verdict::Correct);
        assert_eq!(check("−5", -5.0, Unit::Count, 0.01), Verdict::Correct);
    }

    #[test]
    fn tolerance_is_relative_and_both_sides() {
        assert_eq!(check("7.14", 7.142857, Unit::Cores, 0.02), Verdict::Correct);
        assert_eq!(
            check("7.3", 7.142857, Unit::Cores, 0.02),
            Verdict::WrongValue { too_high: true }
        );
        assert_eq!(check("7", 7.142857, Unit::Cores, 0.02), Verdict::Correct);
        assert_eq!(
            check("6.9", 7.142857, Unit::Cores, 0.02),
            Verdict::WrongValue { too_high: false }
        );
    }

    #[test]
    fn wrong_unit_is_not_a_wrong_value() {
        assert_eq!(
            check("40 ms", 40.0, Unit::Threads, 0.01),
            Verdict::WrongUnit { typed: "ms".into() }
        );
        assert_eq!(
            check("40 cores", 40.0, Unit::Threads, 0.01),
            Verdict::WrongUnit {
                typed: "cores".into()
            }
        );
        assert_eq!(
            check("100 bananas", 100.0, Unit::Ms, 0.01),
            Verdict::WrongUnit {
                typed: "bananas".into()
            }
        );
        let msg = explain(&check("3 MB", 3.0, Unit::S, 0.01), Unit::S);
        assert!(msg.contains("'MB'") && msg.contains("ms or s"), "{msg}");
    }

    #[test]
    fn ratios_and_both_memory_conventions_are_accepted() {
        assert_eq!(check("10 times", 10.0, Unit::Count, 0.02), Verdict::Correct);
        assert_eq!(check("10x", 10.0, Unit::Count, 0.02), Verdict::Correct);
        assert_eq!(
            check("10 times less", 10.0, Unit::Count, 0.02),
            Verdict::Correct
        );
        assert_eq!(
            check("10 times", 10.0, Unit::Ms, 0.02),
            Verdict::WrongUnit {
                typed: "times".into()
            }
        );
        // 10,000 × 1 MB: 10 GB counting 1,000 MB, 9.77 GB counting 1,024.
        assert_eq!(check("10 GB", 10.0, Unit::Gb, 0.02), Verdict::Correct);
        assert_eq!(check("9.77 GB", 10.0, Unit::Gb, 0.02), Verdict::Correct);
        assert_eq!(check("9.54", 10.0, Unit::Gb, 0.02), Verdict::Correct);
        assert_eq!(
            check("9.3", 10.0, Unit::Gb, 0.02),
            Verdict::WrongValue { too_high: false }
        );
        // Only memory has two conventions.
        assert_eq!(
            check("102.4", 100.0, Unit::Ms, 0.02),
            Verdict::WrongValue { too_high: true }
        );
    }

    #[test]
    fn a_line_without_limit_is_answered_in_words() {
        let inf = f64::INFINITY;
        for said in [
            "no limit",
            "It grows without limit",
            "∞",
            "infinite",
            "unbounded",
        ] {
            assert_eq!(check(said, inf, Unit::Ms, 0.02), Verdict::Correct, "{said}");
            assert_eq!(
                check(said, 100.0, Unit::Ms, 0.02),
                Verdict::ExpectedNumber,
                "{said}"
            );
        }
        assert_eq!(
            check("100 ms", inf, Unit::Ms, 0.02),
            Verdict::ExpectedNoLimit
        );
        assert_eq!(
            check("100 GB", inf, Unit::Ms, 0.02),
            Verdict::WrongUnit { typed: "GB".into() }
        );
        assert!(explain(&Verdict::ExpectedNumber, Unit::Ms).contains("keeps up"));
    }

    #[test]
    fn unreadable_input_gets_a_clear_message() {
        assert_eq!(
            check("forty", 40.0, Unit::Threads, 0.01),
            Verdict::Unreadable
        );
        assert_eq!(check("", 40.0, Unit::Threads, 0.01), Verdict::Unreadable);
        assert_eq!(
            check("1e999", 40.0, Unit::Threads, 0.01),
            Verdict::Unreadable
        );
        assert!(explain(&Verdict::Unreadable, Unit::Ms).contains("Type a number"));
    }
}
