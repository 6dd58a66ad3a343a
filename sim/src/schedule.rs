//! A load schedule: the arrival rate as a step function of time, written
//! `time_s:rps` pairs from 0 in increasing order — `0:150,10:400,15:150`
//! is 150 rps, then 400 rps from 10 s, then 150 rps again from 15 s.
//!
//! Small and `Copy` (at most [`MAX_POINTS`] steps), so it travels through
//! the field table like any other value.

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;

/// Most steps a schedule holds.
pub const MAX_POINTS: usize = 8;
/// Highest arrival rate, requests per second: the most a step may ask
/// for, and the top of the `rps` field's range (the field table in
/// [`crate::scenario`] reads it here, as the schedule cannot read the table).
pub const MAX_RPS: f64 = 1_000_000.0;
/// Lowest arrival rate above 0, rps: the least a step may ask for besides
/// a pause (0), and the bottom of the `rps` field's range (read as
/// [`MAX_RPS`] is).
pub const MIN_RPS: f64 = 0.001;
/// Longest run, s: the latest a step may start, and the top of the
/// `duration_s` field's range (read as [`MAX_RPS`] is).
pub const MAX_TIME_S: f64 = 86_400.0;

/// The arrival rate over time: steps of (start, s; rate, rps).
#[derive(Clone, Copy, PartialEq)]
pub struct Schedule {
    len: usize,
    steps: [(f64, f64); MAX_POINTS],
}

impl fmt::Debug for Schedule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Schedule({self})")
    }
}

impl fmt::Display for Schedule {
    /// `0:150,10:400,15:150`, numbers in their shortest exact form.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let parts: Vec<String> = self
            .steps()
            .iter()
            .map(|(t, r)| format!("{t}:{r}"))
            .collect();
        f.write_str(&parts.join(","))
    }
}

/// A step of a schedule at or above a limit ([`Schedule::peak_above`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Peak {
    /// When the step starts, s.
    pub from_s: f64,
    /// When the next step starts, s; `None` for the last step.
    pub to_s: Option<f64>,
    /// Its rate, rps.
    pub rps: f64,
    /// True when a later step is at or above the limit too.
    pub later_above: bool,
}

impl Schedule {
    /// A schedule from (start s, rps) steps; the message names the bad step.
    pub fn new(steps: &[(f64, f64)]) -> Result<Schedule, String> {
        if steps.is_empty() {
            return Err("a schedule needs at least one step, time_s:rps, starting at 0 s".into());
        }
        if steps.len() > MAX_POINTS {
            return Err(format!(
                "{} steps: at most {MAX_POINTS} are allowed",
                steps.len()
            ));
        }
        let mut out = [(0.0, 0.0); MAX_POINTS];
        for (i, &(t, r)) in steps.iter().enumerate() {
            // "step", as the editor's rows are called; the values as typed.
            let pair = format!(
                "step {} (from {} s, {} rps)",
                i + 1,
                crate::text::typed(t),
                crate::text::typed(r)
            );
            if !(t.is_finite() && r.is_finite()) {
                return Err(format!("{pair}: not a number"));
            }
            if i == 0 && t != 0.0 {
                return Err(format!("{pair}: the first step must start at 0 s"));
            }
            // A time before the start is said so, not "times must increase".
            if i > 0 && t < 0.0 {
                return Err(format!(
                    "{pair}: a step cannot start before 0 s; allowed 0–{} s, after the step before",
                    crate::text::fmt_fixed(MAX_TIME_S, 0)
                ));
            }
            if i > 0 && t <= steps[i - 1].0 {
                return Err(format!(
                    "{pair}: times must increase (after {} s)",
                    steps[i - 1].0
                ));
            }
            if t > MAX_TIME_S {
                return Err(format!("{pair}: {}", time_allowed()));
            }
            // A rate between 0 and the field's least ran as no arrivals
            // while theory took it as given.
            if !(r == 0.0 || (MIN_RPS..=MAX_RPS).contains(&r)) {
                return Err(format!("{pair}: {}", rate_allowed()));
            }
            out[i] = (t, r);
        }
        if steps.iter().all(|&(_, r)| r == 0.0) {
            return Err("every rate is 0: nothing would arrive".into());
        }
        Ok(Schedule {
            len: steps.len(),
            steps: out,
        })
    }

    /// The steps, (start s, rps).
    pub fn steps(&self) -> &[(f64, f64)] {
        &self.steps[..self.len]
    }

    /// The rate at `t_s`, rps.
    pub fn rate_at(&self, t_s: f64) -> f64 {
        self.steps()
            .iter()
            .take_while(|(start, _)| *start <= t_s)
            .last()
            .map_or(0.0, |s| s.1)
    }

    /// The first step's rate, rps: the load before any change.
    pub fn base_rps(&self) -> f64 {
        self.steps[0].1
    }

    /// The highest rate, rps.
    pub fn peak_rps(&self) -> f64 {
        self.steps().iter().map(|s| s.1).fold(0.0, f64::max)
    }

    /// The highest step at or above `limit_rps` that starts before
    /// `before_s` (the first of equal ones), as [`Peak`]; `None` when every
    /// step that starts before then stays below the limit.
    pub fn peak_above(&self, limit_rps: f64, before_s: f64) -> Option<Peak> {
        let steps = self.steps();
        let mut best: Option<Peak> = None;
        for (i, &(from_s, rps)) in steps.iter().enumerate() {
            if rps >= limit_rps && from_s < before_s && best.is_none_or(|b| rps > b.rps) {
                best = Some(Peak {
                    from_s,
                    to_s: steps.get(i + 1).map(|n| n.0),
                    rps,
                    later_above: steps[i + 1..].iter().any(|st| st.1 >= limit_rps),
                });
            }
        }
        best
    }

    /// When the rate next changes after `t_s`, s.
    pub fn next_change(&self, t_s: f64) -> Option<f64> {
        self.steps().iter().map(|s| s.0).find(|&start| start > t_s)
    }
}

impl std::str::FromStr for Schedule {
    type Err = String;

    /// Reads `0:150,10:400`; the message names the step that is wrong.
    fn from_str(text: &str) -> Result<Schedule, String> {
        let mut steps = Vec::new();
        for (i, part) in text.split(',').enumerate() {
            let part = part.trim();
            let shown = crate::text::clip(part);
            let (t, r) = part.split_once(':').ok_or_else(|| {
                format!("step {} ('{shown}'): write time_s:rps, e.g. 10:400", i + 1)
            })?;
            use crate::text::{
                read_setting,
                NotNumber::{Text, TooLarge, TooSmall},
            };
            // A number too large for an f64 is out of range, said as a
            // typed number is ("'1e309' is out of range", as the rps field
            // says of it), with what the step allows; one too close to 0
            // ("1e-400") likewise, not run as 0 (a pause).
            let unheld = |x: &str, allowed: fn() -> String| {
                let said = crate::text::typed_number(x).err().unwrap_or_default();
                format!("step {} ('{shown}'): {said}; {}", i + 1, allowed())
            };
            match (read_setting(t), read_setting(r)) {
                (Ok(t), Ok(r)) => steps.push((t, r)),
                // Text that is no number is said first ("abc:1e309").
                (Err(Text), _) | (_, Err(Text)) => {
                    return Err(format!(
                        "step {} ('{shown}'): not two numbers time_s:rps",
                        i + 1
                    ))
                }
                (Err(TooLarge | TooSmall), _) => return Err(unheld(t, time_allowed)),
                (_, Err(TooLarge | TooSmall)) => return Err(unheld(r, rate_allowed)),
            }
        }
        Schedule::new(&steps)
    }
}

/// What a step's start time may be, in words.
fn time_allowed() -> String {
    format!(
        "a time must be within 0–{} s",
        crate::text::fmt_fixed(MAX_TIME_S, 0)
    )
}

/// What a step's rate may be, in words.
fn rate_allowed() -> String {
    format!(
        "a rate must be 0 (a pause) or within {}–{} rps",
        MIN_RPS,
        crate::text::fmt_fixed(MAX_RPS, 0)
    )
}

impl Serialize for Schedule {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.to_string())
    }
}

impl<'de> Deserialize<'de> for Schedule {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let text = <std::borrow::Cow<'de, str>>::deserialize(d)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_schedule_reads_and_writes_its_pairs() {
        // A pause and the least rate are allowed.
        assert!("0:0.001,5:0,10:100".parse::<Schedule>().is_ok());
        let s: Schedule = "0:150, 10:400,15:150".parse().unwrap();
        assert_eq!(s.to_string(), "0:150,10:400,15:150");
        assert_eq!(s.rate_at(0.0), 150.0);
        assert_eq!(s.rate_at(9.999), 150.0);
        assert_eq!(s.rate_at(10.0), 400.0);
        assert_eq!(s.rate_at(100.0), 150.0);
        assert_eq!(s.next_change(10.0), Some(15.0));
        assert_eq!(s.next_change(15.0), None);
        assert_eq!((s.base_rps(), s.peak_rps()), (150.0, 400.0));
    }

    #[test]
    fn a_bad_list_names_the_pair() {
        for (text, says) in [
            ("5:150", "step 1"),
            ("0:150,10x400", "step 2"),
            ("0:150,10:fast", "step 2"),
            ("0:150,10:400,8:100", "step 3"),
            ("0:150,10:-4", "step 2"),
            ("0:0", "nothing would arrive"),
            ("0:1,1:1,2:1,3:1,4:1,5:1,6:1,7:1,8:1", "at most 8"),
            // Above 0 but below the least rate the simulator takes.
            (
                "0:1e-300",
                "step 1 (from 0 s, 1e-300 rps): a rate must be 0 (a pause) or within 0.001–1,000,000 rps",
            ),
            ("0:100,5:0.0009", "step 2"),
            // Too large for a number: out of range, with what is allowed.
            (
                "0:1e309",
                "step 1 ('0:1e309'): '1e309' is out of range; a rate must be 0 (a pause) or within 0.001–1,000,000 rps",
            ),
            (
                "0:5,1e400:5",
                "step 2 ('1e400:5'): '1e400' is out of range; a time must be within 0–86,400 s",
            ),
            ("0:5,-1e400:5", "'-1e400' is out of range; a time must be within 0–86,400 s"),
            ("abc:1e309", "step 1 ('abc:1e309'): not two numbers"),
            // Too close to 0 to hold: refused, not run as a pause.
            (
                "0:100,10:1e-400",
                "step 2 ('10:1e-400'): '1e-400' is too close to 0 to hold (it would be read as 0); a rate must be 0 (a pause) or within 0.001–1,000,000 rps",
            ),
            // A start before 0 s is said so ("times must increase").
            (
                "0:100,-1:50",
                "step 2 (from -1 s, 50 rps): a step cannot start before 0 s; allowed 0–86,400 s",
            ),
        ] {
            let e = text.parse::<Schedule>().unwrap_err();
            assert!(e.contains(says), "{text}: {e}");
        }
    }
}
