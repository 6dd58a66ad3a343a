//! Checking a learner's numeric answer: the number, its unit, and the
//! tolerance. A wrong unit is explained apart from a wrong value, and
//! equivalent forms (0.1 s and 100 ms; 1 MB as 1,000 KB or as 1,024 KB;
//! "10 times" for a ratio; "15/2" for 7.5; "36.8 %" for a plain 0.368) are
//! all accepted. A bare number that is wrong in the answer's unit but right
//! in another of its family ("10000" for 10 s) is not counted: the learner
//! is told to type the unit. Where the line grows without limit, the answer
//! is a phrase such as "no limit", not a number.
//!
//! Commas: "1,000" is one thousand, as the lessons print numbers; a comma
//! that cannot group thousands is a decimal comma ("7,5" is 7.5, never 75).
//! A lone comma before three digits ("7,500") reads both ways: as the
//! lessons print numbers first, and if only the decimal reading is right,
//! the learner is asked which they meant.

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
    /// Microseconds (read from a learner's answer; 1 ms = 1,000 µs).
    Us,
    /// Milliseconds.
    Ms,
    /// Seconds.
    S,
    /// Minutes (read from a learner's answer; 1 min = 60 s).
    Min,
    /// Requests per second.
    Rps,
    /// Requests per minute (read from a learner's answer; 60 a minute is
    /// 1 a second).
    #[serde(rename = "per-minute")]
    PerMin,
    /// Requests per millisecond (read from a learner's answer, as a
    /// worked solution may write a rate: 0.2 a ms is 200 a second).
    #[serde(rename = "per-ms")]
    PerMs,
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

impl Family {
    /// The units of the family a bare number may have been meant in (one
    /// for a family whose answers have one unit, or none to convert).
    fn units(self) -> &'static [Unit] {
        match self {
            Family::Time => &[Unit::Ms, Unit::S],
            Family::Memory => &[Unit::Kb, Unit::Mb, Unit::Gb],
            Family::Rate => &[Unit::Rps],
            Family::Count | Family::Percent => &[],
        }
    }
}

impl Unit {
    fn family(self) -> Family {
        match self {
            Unit::Count | Unit::Threads | Unit::Cores | Unit::Servers | Unit::Requests => {
                Family::Count
            }
            Unit::Us | Unit::Ms | Unit::S | Unit::Min => Family::Time,
            Unit::Rps | Unit::PerMin | Unit::PerMs => Family::Rate,
            Unit::Kb | Unit::Mb | Unit::Gb => Family::Memory,
            Unit::Percent => Family::Percent,
        }
    }

    /// Size in the family's base unit (ms, rps, KB, or 1).
    fn scale(self) -> f64 {
        match self {
            Unit::PerMin => 1.0 / 60.0,
            Unit::PerMs => 1000.0,
            Unit::Us => 0.001,
            Unit::S => 1000.0,
            Unit::Min => 60_000.0,
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
            Unit::Us => "µs",
            Unit::Ms => "ms",
            Unit::S => "s",
            Unit::Min => "min",
            Unit::Rps => "requests per second",
            Unit::PerMin => "requests per minute",
            Unit::PerMs => "requests per ms",
            Unit::Kb => "KB",
            Unit::Mb => "MB",
            Unit::Gb => "GB",
            Unit::Percent => "%",
        }
    }

    /// Units a learner may type for this answer, for the hint under the box.
    pub fn accepted(self) -> String {
        match self.family() {
            Family::Count if self == Unit::Count => "a number".into(),
            Family::Count => format!("a number, optionally followed by {}", self.label()),
            Family::Time => "a time: µs, ms, s or min (e.g. 100 ms or 0.1 s)".into(),
            Family::Rate => "a rate: rps, req/s or requests per second".into(),
            Family::Memory => "a size: KB, MB or GB (1 GB = 1,000 MB)".into(),
            Family::Percent => "a percentage (70 %) or a fraction (0.7)".into(),
        }
    }

    /// What an answer in this unit is, for a message: "a number of threads".
    fn what(self) -> String {
        match self.family() {
            Family::Count if self == Unit::Count => "a plain number".into(),
            Family::Count => format!("a number of {}", self.label()),
            Family::Time => "a time".into(),
            Family::Rate => "a rate".into(),
            Family::Memory => "a size".into(),
            Family::Percent => "a percentage".into(),
        }
    }

    /// Whether a count typed in this unit answers a question asked in
    /// `asked`: the same unit, or a plain number on either side, or
    /// requests for threads (a thread is busy exactly while a request holds
    /// it, so Little's law counts either). Cores, servers and threads do
    /// not stand for one another.
    fn counts_for(self, asked: Unit) -> bool {
        self == asked
            || self == Unit::Count
            || asked == Unit::Count
            || (self == Unit::Requests && asked == Unit::Threads)
    }
}

/// Words after a ratio ("10 times less"): a plain count.
const RATIO_WORDS: &[&str] = &["x", "×", "times", "fold", "times,"];

/// Phrases that mean "the line grows without limit" (lower case) and are
/// an answer on their own: "no limit (20)" gives two answers.
const NO_LIMIT_ANSWERS: &[&str] = &[
    "∞",
    "infinit",
    "no limit",
    "without limit",
    "unbounded",
    "unlimited",
    "no upper limit",
    "no bound",
    "endless",
    "limitless",
];

/// Phrases that say the line grows without limit in a sentence that may
/// hold a number of its own ("grows at 200 rps"), lower case.
const NO_LIMIT_SAYINGS: &[&str] = &[
    "grows",
    "never settles",
    "growing",
    "without end",
    "unstable",
    "diverge",
    "forever",
    "no end",
    "overload",
    "explode",
    "blows up",
    "blow up",
];

/// Words that deny what follows ("it does not grow without limit", "never
/// grows"): such a phrase says the line is finite, not that it grows.
const DENIALS: &[&str] = &[
    "not ",
    "n't",
    "never grow",
    "never infinit",
    "no longer",
    "stop grow",
    "stops grow",
    "stopped grow",
    "never overload",
    "no overload",
    "without overload",
    "never explode",
    "never blow",
    "no blow",
];

/// Phrases that say the line grows with a "not" of their own: "it cannot
/// keep up" is the answer a prompt's "if it cannot keep up" asks for, and
/// was marked wrong as a denial.
const FALLS_BEHIND_WORDS: &[&str] = &[
    "not keep up",
    "n't keep up",
    "never keep up",
    "never keeps up",
    "not settle",
    "n't settle",
    "never settle",
    "not catch up",
    "n't catch up",
    "never catch",
    "no steady state",
    "no longer keep",
    "not bounded",
    "n't bounded",
    "not stable",
    "n't stable",
    "no upper bound",
];

/// True when the learner says the line grows without limit: a phrase such
/// as "no limit" or "it cannot keep up" (with or without numbers beside
/// it), and not denied.
pub fn says_no_limit(input: &str) -> bool {
    // The words are ASCII, so ASCII's lower case finds them (and keeps
    // Unicode's case tables out of the wasm).
    let t = input.trim().to_ascii_lowercase();
    if FALLS_BEHIND_WORDS.iter().any(|w| t.contains(w)) {
        // Each one's own "not" is part of it; another denies them ("it is
        // not true that it cannot keep up").
        let rest = FALLS_BEHIND_WORDS
            .iter()
            .fold(t.clone(), |rest, w| rest.replace(w, " "));
        return !denies(&rest);
    }
    let infinity = matches!(t.trim_start_matches('+'), "inf" | "inf.");
    let said = NO_LIMIT_ANSWERS
        .iter()
        .chain(NO_LIMIT_SAYINGS)
        .any(|w| t.contains(w));
    (infinity || said) && !denies(&t)
}

/// True when lower-case `t` denies a growing line ([`DENIALS`]).
fn denies(t: &str) -> bool {
    DENIALS.iter().any(|w| t.contains(w))
}

/// Words a learner may put before the number ("grows by 200", "about 40").
const LEAD_WORDS: &[&str] = &[
    "it grows by",
    "grows by",
    "about",
    "roughly",
    "around",
    "approximately",
    "approx.",
    "approx",
    "nearly",
    "≈",
    "~",
    // A ratio written before its number: "×3.3", "x3.3".
    "×",
    "x",
];

/// Words a learner may write after the number that say nothing of its
/// unit ("27.5 threads on average", "255 in the line"): dropped before the
/// unit is read, as are the exercise's own words ([`check_in`]).
const FILLER_WORDS: &[&str] = &[
    "on",
    "average",
    "in",
    "the",
    "a",
    "an",
    "of",
    "at",
    "once",
    "busy",
    "waiting",
    "total",
    "each",
    "about",
    "roughly",
    "approximately",
    "all",
    // What the number counts, said in other words than the prompt's
    // ("140 rejected" where it asks how many are refused).
    "rejected",
    "refused",
    "stuck",
    "queued",
    "needed",
    "required",
    "concurrent",
    "concurrently",
    "inside",
    "max",
    "maximum",
];

/// The learner's unit words, lower case, mapped to a unit.
fn unit_from_words(w: &str) -> Option<Unit> {
    // ASCII's lower case, as in `says_no_limit`: the unit words are ASCII.
    let w = w.trim().trim_end_matches('.').to_ascii_lowercase();
    let w = w.as_str();
    // "reqs/sec", "requests per min": any request word over a second or a
    // minute (no word below has a "/" or a " per " between two words).
    if let Some(rate) = rate_words(w) {
        return Some(rate);
    }
    // A time each request takes: "200 ms per request" is 200 ms.
    if let Some(time) = time_per_request(w) {
        return Some(time);
    }
    Some(match w {
        "" => return None,
        // The micro sign (U+00B5) and the Greek mu (U+03BC) look alike.
        "µs" | "μs" | "us" | "usec" | "usecs" | "micros" | "microsecond" | "microseconds" => {
            Unit::Us
        }
        "ms" | "msec" | "msecs" | "millis" | "millisec" | "millisecs" | "millisecond"
        | "milliseconds" => Unit::Ms,
        "s" | "sec" | "secs" | "second" | "seconds" => Unit::S,
        "min" | "mins" | "minute" | "minutes" => Unit::Min,
        // "req/s", "requests per second", "calls/sec"...: [`rate_words`].
        "rps" | "qps" | "per s" | "per sec" | "per second" | "a sec" | "a second"
        | "requests a second" => Unit::Rps,
        "rpm" | "qpm" | "per min" | "per minute" | "a minute" | "requests a minute" => Unit::PerMin,
        "per ms" | "per msec" | "per millisecond" | "a millisecond" => Unit::PerMs,
        // KiB, MiB and GiB are within the 1,024 conventions `check` allows.
        "kb" | "kib" | "kilobyte" | "kilobytes" => Unit::Kb,
        "mb" | "mib" | "megabyte" | "megabytes" => Unit::Mb,
        "gb" | "gib" | "gigabyte" | "gigabytes" => Unit::Gb,
        "%" | "percent" | "per cent" | "pct" => Unit::Percent,
        "thread" | "threads" => Unit::Threads,
        "core" | "cores" | "cpu" | "cpus" | "cpu cores" | "vcpu" | "vcpus" => Unit::Cores,
        "server" | "servers" | "machine" | "machines" | "instance" | "instances" | "node"
        | "nodes" | "host" | "hosts" => Unit::Servers,
        "request" | "requests" | "req" | "connection" | "connections" | "place" | "places"
        | "slot" | "slots" | "spot" | "spots" => Unit::Requests,
        // A ratio of counts, as the solutions write them.
        "tries per call"
        | "calls per call"
        | "extra calls per call"
        | "per call"
        | "retries per call"
        | "retry per call"
        | "extra tries per call"
        | "tries/call"
        | "retries/call"
        | "calls/call" => Unit::Count,
        // Worker threads are threads; tries, calls, clients and users are
        // counted as requests (they count for a plain number, or for
        // threads busy by Little's law, never for cores or servers).
        "worker" | "workers" => Unit::Threads,
        "try" | "tries" | "retry" | "retries" | "attempt" | "attempts" | "client" | "clients"
        | "call" | "calls" | "user" | "users" | "reqs" => Unit::Requests,
        // A ratio: "10 times", "10x", "10 times less" (not "10 x 4": a
        // product, read as one by `read_number`).
        w if RATIO_WORDS.contains(&w.split_whitespace().next().unwrap_or(""))
            && w.split_whitespace().count() <= 2
            && w.split_whitespace()
                .nth(1)
                .is_none_or(|x| number_end(x) == 0) =>
        {
            Unit::Count
        }
        _ => return None,
    })
}

/// The unit words after a number name, read as the checker reads them
/// ("worker threads" is threads), if any.
fn unit_read(words: &str) -> Option<Unit> {
    unit_from_words(words).or_else(|| unit_said(words, "").1)
}

/// The rate written as a request word over a second or a minute, by "/"
/// or "per": "reqs/sec", "requests per sec", "calls/minute".
fn rate_words(w: &str) -> Option<Unit> {
    let (what, per) = w.split_once('/').or_else(|| w.split_once(" per "))?;
    // What a second brings: requests, and what the prompts call them
    // ("150 answers/s", "200 more per second").
    let request = [
        "",
        "r",
        "req",
        "reqs",
        "request",
        "requests",
        "call",
        "calls",
        "try",
        "tries",
        "retry",
        "retries",
        "query",
        "queries",
        "answer",
        "answers",
        "response",
        "responses",
        "attempt",
        "attempts",
        "more",
    ]
    .contains(&what.trim());
    match per.trim() {
        _ if !request => None,
        "s" | "sec" | "secs" | "second" => Some(Unit::Rps),
        "min" | "mins" | "minute" => Some(Unit::PerMin),
        "ms" | "msec" | "millisecond" => Some(Unit::PerMs),
        _ => None,
    }
}

/// A time unit followed by "per request" (or "/request", "a request",
/// "per call"): the time each request takes, in that unit.
fn time_per_request(w: &str) -> Option<Unit> {
    let (time, each) = w
        .split_once('/')
        .or_else(|| w.split_once(" per ").or_else(|| w.split_once(" a ")))?;
    if !["request", "req", "call", "connection"].contains(&each.trim()) {
        return None;
    }
    unit_from_words(time).filter(|u| u.family() == Family::Time)
}

/// The unit in the words after a number, and those words as read for it:
/// a unit as [`unit_from_words`] reads it, or else the same words less
/// those that say nothing of a unit ([`FILLER_WORDS`] and `prompt`'s own
/// words, but never a unit's, and never a number: "200 20" is two): "27.5 busy threads" is threads, "255 in
/// the line" a bare number, "23650 client connections" requests (every
/// unit word left names one unit). Words that stay unread are returned
/// whole, with no unit: a wrong unit.
fn unit_said(said: &str, prompt: &str) -> (String, Option<Unit>) {
    if said.is_empty() {
        return (String::new(), None);
    }
    if let Some(u) = unit_from_words(said) {
        return (said.to_string(), Some(u));
    }
    // A share of something: "2.5 % of requests", "40 percent of the time".
    // What follows "of" names the whole, not a second unit.
    if let Some((share, _whole)) = said.split_once(" of ") {
        if unit_from_words(share) == Some(Unit::Percent) {
            return (share.to_string(), Some(Unit::Percent));
        }
    }
    let prompt = prompt.to_ascii_lowercase();
    let without_per = prompt_per_dropped(said, &prompt);
    let said = without_per.as_str();
    let in_prompt = |w: &str| {
        prompt
            .split(|c: char| !c.is_ascii_alphanumeric())
            .any(|p| p == w || p.strip_suffix('s') == Some(w) || w.strip_suffix('s') == Some(p))
    };
    let kept: Vec<String> = said
        .split_whitespace()
        .map(|w| {
            w.trim_matches(|c: char| matches!(c, ',' | '.' | ';' | '(' | ')'))
                .to_ascii_lowercase()
        })
        // A number is never filler, even one the prompt has: "200 20" is
        // two numbers, not 200 (it was read as 200, and right). A word
        // with digits in it ("p99") is a word.
        .filter(|w| {
            !w.is_empty()
                && (w == "per"
                    || unit_from_words(w).is_some()
                    || number_end(w) == w.len()
                    || !(FILLER_WORDS.contains(&w.as_str()) || in_prompt(w)))
        })
        .collect();
    let joined = kept.join(" ");
    if joined.is_empty() {
        return (joined, None);
    }
    if let Some(u) = unit_from_words(&joined) {
        return (joined, Some(u));
    }
    // Every word left a unit word, all naming one unit.
    let units: Vec<Option<Unit>> = kept.iter().map(|w| unit_from_words(w)).collect();
    match units.first() {
        Some(Some(u)) if units.iter().all(|x| *x == Some(*u)) => (joined, Some(*u)),
        _ => (said.to_string(), None),
    }
}

/// `said` without a "per hour" (or "/h", "per hr", "per day") where the
/// prompt asks for a number per hour (or day): the prompt's own words for what the number
/// counts, as "an hour" already was ("600 calls per hour" was "not a
/// unit"). Any other "per" stays, for the unit words to read.
fn prompt_per_dropped(said: &str, prompt: &str) -> String {
    let spelt = |w: &str| {
        let w = w
            .trim_matches(|c: char| matches!(c, ',' | '.' | ';' | '(' | ')' | '?'))
            .to_ascii_lowercase();
        match w.as_str() {
            "h" | "hr" | "hrs" | "hour" | "hours" => "hour".to_owned(),
            _ => w,
        }
    };
    // Only times no unit word reads ("per request" is no unit to drop:
    // "200 per request" was right as 200 rps).
    let asked = |w: &str| {
        let w = spelt(w);
        ["hour", "day"].contains(&w.as_str()) && prompt.contains(&format!("per {w}"))
    };
    let mut kept: Vec<&str> = Vec::new();
    let mut words = said.split_whitespace().peekable();
    while let Some(w) = words.next() {
        if w.eq_ignore_ascii_case("per") && words.peek().is_some_and(|next| asked(next)) {
            words.next();
            continue;
        }
        match w.split_once('/') {
            Some((what, per)) if asked(per) => {
                if !what.is_empty() {
                    kept.push(what);
                }
            }
            _ => kept.push(w),
        }
    }
    kept.join(" ")
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
    /// A number such as "7,500", which reads as 7500 (as the lessons print
    /// numbers) or as 7.5 (a decimal comma), and is wrong read either way,
    /// one reading too high and the other too low.
    WrongEitherWay {
        /// The number as typed.
        typed: String,
        /// Read with a thousands comma.
        thousands: f64,
        /// Read with a decimal comma.
        decimal: f64,
    },
    /// A number such as "7,500" that is right only with a decimal comma:
    /// the learner is asked which they meant (not counted as an attempt;
    /// in an exercise, "40,000", whose thousands reading is a slip the
    /// exercise names, is that slip and counts).
    Ambiguous {
        /// The number as typed.
        typed: String,
        /// Read with a thousands comma.
        thousands: f64,
        /// Read with a decimal comma.
        decimal: f64,
    },
    /// A bare number up to 1 for a percentage, such as "1", which reads as
    /// 1 % or as the fraction 1 (100 %), and is wrong either way, one
    /// reading too low and the other too high.
    PercentEitherWay {
        /// The number as typed.
        typed: String,
        /// Read as a percentage, %.
        percent: f64,
        /// Read as a fraction, in %.
        fraction: f64,
    },
    /// A bare number, wrong in the answer's unit but right read in another
    /// unit of its family ("10000" for 10 s, right as 10000 ms): the
    /// learner is told to type the unit (not counted as an attempt).
    UnitMissing {
        /// The number as typed.
        typed: String,
        /// The unit in which it would be right.
        meant: Unit,
        /// Whether, read in the answer's unit, it is too high.
        too_high: bool,
    },
    /// A number right in the answer's unit, typed with another unit of
    /// its family ("2 MB" for 2 GB): the unit is the slip, not the sum,
    /// and the learner is told so (not counted as an attempt). A listed
    /// mistake that gives the same value ("from MB to GB you divide by
    /// 1,000, not by 1,000,000") told a learner who divided rightly.
    UnitSwapped {
        /// The number as typed, without its unit.
        typed: String,
        /// The unit typed.
        said: Unit,
        /// What was typed, read in the answer's unit.
        value: f64,
        /// Whether, so read, it is too high.
        too_high: bool,
    },
    /// The unit cannot measure this answer (e.g. ms for a count of threads).
    WrongUnit {
        /// What was typed.
        typed: String,
    },
    /// Not a number we can read.
    Unreadable,
    /// "No limit" and a number both ("no limit (20)"), where the number
    /// cannot be read as the answer: the learner is asked for one (not
    /// counted as an attempt).
    TwoAnswers,
    /// A formula ("5*ln(1000)", "1-0.99^10"): the learner is asked for the
    /// number it gives (not counted as an attempt).
    Formula {
        /// The formula as typed.
        typed: String,
    },
    /// Two numbers as a range ("50-100", "50 to 100"): the learner is asked
    /// for one (not counted as an attempt).
    Range {
        /// The range as typed.
        typed: String,
    },
    /// A number below zero where the answer is a size, a time, a rate or a
    /// count, which cannot be (not counted as an attempt: most often a
    /// stray sign).
    Negative {
        /// The number as typed.
        typed: String,
    },
    /// A number too large for a computer's numbers (1e400, or 400
    /// digits): not "type a number", which it is (not counted as an
    /// attempt).
    TooLarge {
        /// The number as typed, clipped.
        typed: String,
    },
    /// The answer rounded to two significant figures where it keeps three
    /// ("1400" for 1,442): the method is right, the rounding too coarse
    /// (not counted as an attempt; "too low" sent the learner to redo
    /// a right method).
    TooRounded {
        /// The number as typed.
        typed: String,
    },
    /// The answer before rounding up, where the question asks for a whole
    /// number rounded up ("3.95" for a pool of 4 connections): the method
    /// is right (not counted as an attempt; "too low" sent the learner to
    /// redo it).
    NotRoundedUp {
        /// The number as typed.
        typed: String,
    },
    /// The whole number below the answer before rounding up ("92" for a
    /// pool of 92.4 that rounds up to 93): too low, and perhaps rounded
    /// down or to the nearest, which is said (it was only "too low"). An
    /// attempt, as "too low" was: a wrong method may land there too. A
    /// listed mistake of that number outranks it.
    RoundedDown {
        /// The number as typed.
        typed: String,
    },
    /// Right within tolerance, with the decimals the question asks for or
    /// fewer, but not the answer rounded to them ("9.5" for 9.56 asked to
    /// one decimal place: cut, or worked from rounded steps; "17" for
    /// 16.8): accepted, and the learner is shown the rounded answer.
    RoundedOff {
        /// The number as typed.
        typed: String,
        /// The answer rounded to the decimals asked.
        rounded: f64,
        /// The decimals asked.
        places: usize,
    },
    /// A bare fraction for a percentage ("0.111" for 11.1 %): right, and
    /// shown as the percentage the question asks for.
    FractionRight {
        /// The fraction as a percentage, %.
        percent: f64,
    },
    /// A fraction typed with a % sign ("0.158 %" for 15.8 %): right as a
    /// fraction, so the learner is shown the percentage it makes (not
    /// counted as an attempt).
    FractionAsPercent {
        /// The number as typed.
        typed: String,
        /// It read as a fraction, in %.
        percent: f64,
    },
    /// "It grows without limit", but the answer is a number.
    ExpectedNumber,
    /// A number, but here the line grows without limit.
    ExpectedNoLimit,
}

impl Verdict {
    /// Whether the answer is accepted: right, or right but rounded off
    /// from the decimals asked.
    pub fn is_right(&self) -> bool {
        matches!(
            self,
            Verdict::Correct | Verdict::RoundedOff { .. } | Verdict::FractionRight { .. }
        )
    }

    /// Whether this verdict is an answer at all, and so an attempt: not
    /// when nothing could be read, nor when the learner is asked what they
    /// meant (a comma that reads both ways, a missing unit).
    pub fn counts(&self) -> bool {
        // A unit Tellers does not read ("22.2 reqs/min") is not an answer
        // read wrong: it was counted as a wrong attempt, which the teacher
        // saw. A unit that cannot measure the answer (ms for threads) is.
        if let Verdict::WrongUnit { typed } = self {
            return unit_read(typed).is_some();
        }
        !matches!(
            self,
            Verdict::Unreadable
                | Verdict::TwoAnswers
                | Verdict::Ambiguous { .. }
                | Verdict::UnitMissing { .. }
                | Verdict::UnitSwapped { .. }
                | Verdict::Range { .. }
                | Verdict::Formula { .. }
                | Verdict::Negative { .. }
                | Verdict::TooLarge { .. }
                | Verdict::TooRounded { .. }
                | Verdict::NotRoundedUp { .. }
                | Verdict::FractionAsPercent { .. }
        )
    }
}

/// A number as the learner typed it.
#[derive(Clone, Debug, PartialEq)]
struct Reading {
    /// The value, with commas read as the lessons print numbers ("1,000" is
    /// one thousand) and a decimal comma where that is the only reading
    /// ("7,5" is seven and a half).
    value: f64,
    /// For a lone comma before exactly three digits ("7,500"): the value
    /// with it read as a decimal comma (7.5).
    decimal: Option<f64>,
    /// The number as typed.
    text: String,
    /// The text after the number: its unit, if any.
    rest: String,
}

/// Where the number at the start of `t` ends (0: none): digits,
/// separators, a leading sign and an exponent. A separator at the end
/// belongs to the sentence, not the number.
fn number_end(t: &str) -> usize {
    let mut end = 0;
    for (i, c) in t.char_indices() {
        let ok = c.is_ascii_digit()
            || matches!(c, '.' | ',' | '_' | '\u{202f}')
            || (matches!(c, ' ' | '\u{a0}') && thousands_space(t, i))
            || ((c == '-' || c == '+') && i == 0)
            || ((c == 'e' || c == 'E')
                && t[..i].ends_with(|d: char| d.is_ascii_digit())
                && t[i + 1..].starts_with(|d: char| d.is_ascii_digit() || d == '-' || d == '+'))
            || ((c == '-' || c == '+') && t[..i].ends_with(['e', 'E']));
        if !ok {
            break;
        }
        end = i + c.len_utf8();
    }
    let number = t[..end].trim_end_matches([',', '.']);
    if number.contains(|c: char| c.is_ascii_digit()) {
        number.len()
    } else {
        0
    }
}

/// Whether the space at byte `i` of `t` groups thousands, as in "10 000":
/// a digit before it, exactly three digits after it.
fn thousands_space(t: &str, i: usize) -> bool {
    let after = &t[i + t[i..].chars().next().map_or(1, char::len_utf8)..];
    let digits = after.chars().take_while(char::is_ascii_digit).count();
    t[..i].ends_with(|d: char| d.is_ascii_digit()) && digits == 3
}

/// `digits` with its grouping separator `sep` removed, if it groups by
/// thousands ("1,234,567"): one to three digits, then groups of three.
fn ungrouped(digits: &str, sep: char) -> Option<String> {
    let mut groups = digits.split(sep);
    let first = groups.next()?;
    let rest: Vec<&str> = groups.collect();
    let ok = (1..=3).contains(&first.len()) && rest.iter().all(|g| g.len() == 3);
    ok.then(|| digits.replace(sep, ""))
}

/// The value of a number as typed ("1,000", "7,5", "1.234,5", "1.5e3",
/// "−4"), and for a lone comma before three digits its decimal reading.
fn read_token(token: &str) -> Option<(f64, Option<f64>)> {
    let token: String = token
        .chars()
        .filter(|c| !matches!(c, '_' | '\u{202f}' | ' ' | '\u{a0}'))
        .collect();
    let (mantissa, exponent) = token.split_at(token.find(['e', 'E']).unwrap_or(token.len()));
    let (sign, digits) = match mantissa.strip_prefix(['-', '+']) {
        Some(d) => (&mantissa[..1], d),
        None => ("", mantissa),
    };
    let parse =
        |d: &str| -> Option<f64> { tellers_sim::text::number(&format!("{sign}{d}{exponent}")) };
    let commas = digits.matches(',').count();
    let dots = digits.matches('.').count();
    let last = |c: char| digits.rfind(c).unwrap_or(0);
    let plain = match (commas, dots) {
        (0, 0 | 1) => digits.to_string(),
        (0, _) => ungrouped(digits, '.')?,
        (1, 0) => {
            let (int, frac) = digits.split_once(',')?;
            let decimal = format!("{int}.{frac}");
            // "7,500": one thousand-style group; "0,500" or "1234,5" cannot be one.
            if frac.len() == 3 && (1..=3).contains(&int.len()) && !int.starts_with('0') {
                return Some((parse(&format!("{int}{frac}"))?, Some(parse(&decimal)?)));
            }
            decimal
        }
        (_, 0) => ungrouped(digits, ',')?,
        // Both: the last one is the decimal mark, and occurs once.
        _ if last('.') > last(',') && dots == 1 => {
            let (int, frac) = digits.split_once('.')?;
            format!("{}.{frac}", ungrouped(int, ',')?)
        }
        _ if last(',') > last('.') && commas == 1 => {
            let (int, frac) = digits.split_once(',')?;
            format!("{}.{frac}", ungrouped(int, '.')?)
        }
        _ => return None,
    };
    Some((parse(&plain)?, None))
}

/// Read "1,000", "0.1", "7,5", "1.5e3", "15/2", "50 %" into a number and
/// the text after it. A fraction of two numbers is read as its value.
fn read_number(input: &str) -> Option<Reading> {
    // The lessons print a typographic minus; learners type a hyphen. Both read.
    let t = input.trim().replace('\u{2212}', "-");
    let end = number_end(&t);
    if end == 0 {
        return None;
    }
    let (mut value, mut decimal) = read_token(&t[..end])?;
    let mut text = t[..end].to_string();
    let mut rest = t[end..].trim_start();
    // A thousand: "60k", "23.65k rps" (but "60 kb" is a size).
    if let Some(after) = rest.strip_prefix(['k', 'K']) {
        if after.is_empty() || after.starts_with(' ') {
            value *= 1000.0;
            decimal = decimal.map(|d| d * 1000.0);
            text.push('k');
            rest = after.trim_start();
        }
    }
    // A sum worked left to right: "15/2", "15 / 2 ms", "400 × 0.1",
    // "250 × 110 / 1000" (but "400/s" is a unit, and "10x" and "10 times
    // less" are ratios).
    loop {
        let op = ['/', '÷', '×', '*', 'x']
            .into_iter()
            .find_map(|m| rest.strip_prefix(m).map(|after| (m, after.trim_start())));
        let Some((op, after)) = op else { break };
        let n_end = number_end(after);
        if n_end == 0 {
            break;
        }
        let (n, n_decimal) = read_token(&after[..n_end])?;
        let divide = matches!(op, '/' | '÷');
        if n_decimal.is_some() || divide && n == 0.0 || !divide && decimal.is_some() {
            return None;
        }
        if divide {
            value /= n;
            decimal = decimal.map(|d| d / n);
            text = format!("{text}/{}", &after[..n_end]);
        } else {
            value *= n;
            text = format!("{text} × {}", &after[..n_end]);
        }
        rest = after[n_end..].trim_start();
    }
    value.is_finite().then(|| Reading {
        value,
        decimal,
        text,
        rest: rest.to_string(),
    })
}

/// Whether what follows a number is more of a number or of a sum, not a
/// unit: a digit ("7 1/2") or a sign, with no letter after it ("400 1/s"
/// is a unit the checker does not read, and says so), or an exponent's
/// `e` without its digits ("1e"). (A power never gets here: it is a
/// formula, [`is_formula`].)
fn more_number(rest: &str) -> bool {
    let t = rest.trim_start();
    (t.starts_with(|c: char| c.is_ascii_digit() || "+*=".contains(c))
        && !t.contains(char::is_alphabetic))
        || t.eq_ignore_ascii_case("e")
}

/// Whether `t` is a formula the checker does not work out: a power,
/// brackets, a root or a function such as ln ("5*ln(1000)", "1-0.99^10",
/// "(0.6/0.4)*5"). Sums such as "15/2" and "4 × 100" are read as numbers.
/// A bracket counts only at the start or after an operator: "40
/// (threads)" and "no limit (20)" are a number or words with a note.
fn is_formula(t: &str) -> bool {
    let lower = t.to_ascii_lowercase();
    let bracket = t.match_indices('(').any(|(i, _)| {
        t[..i]
            .trim_end()
            .chars()
            .next_back()
            .is_none_or(|c| "*/×÷+-−(".contains(c))
    });
    bracket
        || t.contains(['^', '√'])
        || lower
            .split(|c: char| !c.is_ascii_alphabetic())
            .any(|w| ["ln", "log", "exp", "sqrt"].contains(&w))
}

/// "1 in 3" (or "one in 30" written with digits) as "1/3", the chance the
/// lessons write so; `None` for any other text.
fn one_in(t: &str) -> Option<String> {
    let (a, b) = t.split_once(" in ")?;
    // The sentence's full stop ("1 in 3.").
    let b = b.trim().strip_suffix('.').unwrap_or(b);
    let whole = |x: &str| !x.is_empty() && x.bytes().all(|c| c.is_ascii_digit() || c == b',');
    // "1 in 2,000" as lesson 17 prints it: the divisor without its commas.
    let bare = |x: &str| x.trim().replace(',', "");
    (whole(a.trim()) && whole(b.trim())).then(|| format!("{}/{}", bare(a), bare(b)))
}

/// What to do with an answer rounded too far ([`Verdict::TooRounded`]).
pub const ROUNDING_ADVICE: &str =
    "keep three significant figures, or the decimals the question asks for.";

/// Check `input` against `expected` (in `unit`), with relative `tolerance`.
/// An infinite `expected` means the line grows without limit: only a phrase
/// such as "no limit" or "∞" is right.
pub fn check(input: &str, expected: f64, unit: Unit, tolerance: f64) -> Verdict {
    check_in(input, expected, unit, tolerance, "")
}

/// [`check`] for an answer to `prompt`: the prompt's own words after the
/// number ("350 answers per second" where it asks how many answers a
/// second) say nothing of the unit, and are read past.
pub fn check_in(input: &str, expected: f64, unit: Unit, tolerance: f64, prompt: &str) -> Verdict {
    check_with(input, expected, unit, tolerance, prompt, true, None)
}

/// [`check_in`] for an exercise whose answer is a whole number rounded up
/// from `before_rounding` (its formula is `ceil(…)`; see
/// `Exercise::rounded_up_from`), where that number, typed, is named as
/// the answer before rounding, not "too low".
pub fn check_exercise(
    input: &str,
    expected: f64,
    unit: Unit,
    tolerance: f64,
    prompt: &str,
    before_rounding: Option<f64>,
) -> Verdict {
    check_with(
        input,
        expected,
        unit,
        tolerance,
        prompt,
        true,
        before_rounding,
    )
}

/// [`check`] for a guess beside a run (a predict box): a memory figure in
/// the run's one convention (1 MB = 1,000 KB), as the run writes it. An
/// exercise's answer may count in 1,024s; a guess of 9,800 MB beside a run's
/// 10,277 MB (its 9,800 MiB) was "within a fiftieth of the run's figure".
pub fn check_guess(input: &str, expected: f64, unit: Unit, tolerance: f64) -> Verdict {
    check_with(input, expected, unit, tolerance, "", false, None)
}

/// Whether `prompt` says memory is counted in thousands ("Use 1 GB =
/// 1,000 MB", "1 MB = 1,000 KB", "1 GB = 1,000,000 KB").
fn says_thousands(prompt: &str) -> bool {
    ["1 GB = 1,000", "1 MB = 1,000", "1 GB = 1000", "1 MB = 1000"]
        .iter()
        .any(|said| prompt.contains(said))
}

/// [`check_in`], with memory counted both ways (`both_memory_ways`) or in
/// thousands only, and for an answer rounded up from `before_rounding` or not.
fn check_with(
    input: &str,
    expected: f64,
    unit: Unit,
    tolerance: f64,
    prompt: &str,
    both_memory_ways: bool,
    before_rounding: Option<f64>,
) -> Verdict {
    // "No limit", "∞ (500 > 400)": right where the line grows without
    // limit; elsewhere a number is expected, and one given beside the
    // words ("grows by 200") is read.
    let has_digit = input.contains(|c: char| c.is_ascii_digit());
    if says_no_limit(input) && (expected.is_infinite() || !has_digit) {
        return if expected.is_infinite() {
            Verdict::Correct
        } else {
            Verdict::ExpectedNumber
        };
    }
    // "It does not grow without limit": a finite line, in words.
    if !has_digit && denies(&input.to_ascii_lowercase()) {
        return if expected.is_infinite() {
            Verdict::ExpectedNoLimit
        } else {
            Verdict::Unreadable
        };
    }
    // A worked answer or a named one ("N = 16.8", "400 × 0.1 = 40",
    // "t ≈ 34.5 ms"): what follows the last sign is the answer.
    let trimmed = input.rsplit(['=', '≈']).next().unwrap_or(input).trim();
    // A formula ("5*ln(1000)", "1-0.99^10"): not read as a number and a
    // unit ("'*ln(1000)' is not a unit"), a range or a negative number.
    if is_formula(trimmed) {
        return Verdict::Formula {
            typed: trimmed.to_string(),
        };
    }
    let mut number = trimmed;
    // Each lead word in turn: "grows by about 200".
    while let Some(rest) = LEAD_WORDS.iter().find_map(|w| {
        let lead = number.get(..w.len())?;
        lead.eq_ignore_ascii_case(w)
            .then(|| number[w.len()..].trim_start())
    }) {
        number = rest;
    }
    // "1 in 3", as the lessons say a chance ("about 1 in 30."): 1/3.
    let in_form = one_in(number);
    let number = in_form.as_deref().unwrap_or(number);
    let Some(reading) = read_number(number) else {
        // "no limit (20)": told to type "no limit" or a number, it had.
        // Not a sentence with "grows" in it ("the line grows at 200 rps").
        let lower = input.to_ascii_lowercase();
        if says_no_limit(input) && NO_LIMIT_ANSWERS.iter().any(|w| lower.contains(w)) {
            return Verdict::TwoAnswers;
        }
        let token = &number.trim()[..number_end(number.trim())];
        return match tellers_sim::text::read_number(token) {
            // Its digits and its exponent clipped apart, so that a long
            // number keeps the exponent the message speaks of.
            Err(tellers_sim::text::NotNumber::TooLarge) if !token.is_empty() => {
                let clip = tellers_sim::text::clip;
                let typed = match token.find(['e', 'E']) {
                    Some(i) => format!("{}{}", clip(&token[..i]), clip(&token[i..])),
                    None => clip(token),
                };
                Verdict::TooLarge { typed }
            }
            _ => Verdict::Unreadable,
        };
    };
    // A full stop ends the sentence, not the unit; "3.3-fold" is a ratio.
    // So does a question mark: "11.1?" is an answer, unsure.
    let said = reading
        .rest
        .trim_end_matches(['.', '!', '?', ';', ','])
        .trim();
    let said = said
        .strip_prefix('-')
        .filter(|w| w.starts_with(|c: char| c.is_ascii_alphabetic()))
        .unwrap_or(said);
    // "50-100", "50 – 100 ms", "50 to 100": a range, not a number and a unit.
    let range_end = ["-", "–", "to "]
        .iter()
        .find_map(|m| said.strip_prefix(m))
        .map(|after| number_end(after.trim_start()))
        .unwrap_or(0);
    if range_end > 0 {
        // Echoed as typed ("400 - 200" was shown as "400- 200").
        return Verdict::Range {
            typed: number
                .trim()
                .trim_end_matches(['.', '!', ';', ','])
                .to_string(),
        };
    }
    if reading.value < 0.0 && expected > 0.0 {
        return Verdict::Negative {
            typed: reading.text,
        };
    }
    let (rest, typed_unit) = unit_said(said, prompt);
    // A bare number up to 1 for a percentage reads as a fraction (0.7 is
    // 70 %) or as the percentage itself (0.5 is 0.5 %): right if either is.
    let fraction = typed_unit.is_none() && unit == Unit::Percent && reading.value.abs() <= 1.0;
    // The typed number in the answer's unit (for a bare fraction, the
    // reading nearer a percentage of this size).
    // A percentage for a plain number that is a share: 36.8 % is 0.368
    // (not for counted things: "50 %" is no number of threads, and
    // "395000 %" was right for 3,950 connections).
    let percent_of_one =
        unit == Unit::Count && typed_unit == Some(Unit::Percent) && expected.abs() <= 1.0;
    let in_unit = |value: f64| match typed_unit {
        None if fraction && expected.abs() > 1.0 => value * 100.0,
        None => value,
        Some(_) if percent_of_one => value / 100.0,
        Some(t) => value * t.scale() / unit.scale(),
    };
    match typed_unit {
        // "2^2000", "7 1/2", "1+1", "1e": more of a number or a sum, which
        // the checker does not read, not a unit ("'^2000' is not a unit").
        None if more_number(&rest) => return Verdict::Unreadable,
        None if !rest.is_empty() => return Verdict::WrongUnit { typed: rest },
        _ if percent_of_one => {}
        Some(t) if t.family() != unit.family() => return Verdict::WrongUnit { typed: rest },
        Some(t) if t.family() == Family::Count && !t.counts_for(unit) => {
            return Verdict::WrongUnit { typed: rest };
        }
        _ => {}
    }
    if expected.is_infinite() {
        return Verdict::ExpectedNoLimit;
    }
    let allowed = (expected.abs() * tolerance).max(1e-9);
    // Memory: 1 MB may be counted as 1,000 KB or as 1,024 KB, at each step,
    // unless the question says which ("Use 1 GB = 1,000 MB": 1.9 GB was
    // right for 2, within the 1,024s and the tolerance).
    let both_memory_ways = both_memory_ways && !says_thousands(prompt);
    let conventions: &[f64] = if unit.family() == Family::Memory && both_memory_ways {
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
    let right = |value: f64| {
        conventions
            .iter()
            .any(|k| (value - expected * k).abs() <= allowed * k)
    };
    let value = in_unit(reading.value);
    // "17" for 16.8 where the question asks for one decimal place: within
    // the tolerance, but rounded past what was asked: right, with the
    // answer to the places asked beside it (it was asked again as
    // "rounded too far", while a less accurate "16.9" was accepted).
    // A whole number that is the answer so rounded ("17" for 17.0) is not.
    let mut rounded_off = None;
    if let Some(asked) = decimals_asked(prompt) {
        // A plain number in the answer's unit ("525/20" is worked out,
        // "1.2k" scaled: their decimals say nothing of rounding).
        let plain = reading
            .text
            .chars()
            .all(|c| c.is_ascii_digit() || matches!(c, '.' | ',' | '-' | '+' | '−'));
        // A percentage for a fraction has two places more than it shows:
        // "37 %" is 0.37, as rounded as "0.37" (it passed where "0.37" was
        // asked again).
        let as_typed =
            plain && !fraction && (percent_of_one || typed_unit.is_none_or(|t| t == unit));
        let shown = decimals_typed(&reading.text) + if percent_of_one { 2 } else { 0 };
        let k = 10f64.powi(asked as i32);
        let rounded = (expected * k).round() / k;
        let off_rounded = (value - rounded).abs() > 1e-9 * rounded.abs().max(1.0);
        // Rounded further only if it is the answer so rounded: within half
        // a unit of its last place ("31.9" for 32 asked to two places is
        // another number, not a rounding: it was told "rounded too far"
        // while "31.90" was right).
        let half_place = 0.5 * 10f64.powi(-(shown as i32)) * (1.0 + 1e-9);
        // Past the margin only: "8" for 7.5 threads asked to one place is
        // the answer rounded whole (it was "too high"). Within it, the
        // answer rounded further than asked is right with a note, as any
        // number within the margin is: "51" for 51.3 % was asked again
        // while "52" passed (a learner's walk of lesson 12). Not zero: "0"
        // for 0.2 cores is no answer "close, but rounded too far" (a
        // learner's walk of lesson 4), as `rounded_too_far` holds below.
        // And close: within a tenth of the answer ("1" for 0.56 asked to
        // two places is the answer rounded whole, but 79 % off, and was
        // called "close" while a nearer "0.9" was "too high").
        if as_typed
            && value != 0.0
            && shown < asked
            && off_rounded
            && (value - expected).abs() <= half_place
            && (value - expected).abs() <= CLOSE * expected.abs()
            && !right(value)
        {
            return Verdict::TooRounded {
                typed: reading.text,
            };
        }
        if as_typed && shown <= asked && off_rounded {
            rounded_off = Some(Verdict::RoundedOff {
                typed: reading.text.clone(),
                rounded,
                places: asked,
            });
        }
    }
    // A fraction for a percentage is right, and shown as the percentage
    // asked for ("0.111" was a plain "Correct." where the question asks
    // for 11.1 %).
    let as_percent = Verdict::FractionRight {
        percent: reading.value * 100.0,
    };
    if right(value) {
        if fraction && value != reading.value {
            return as_percent;
        }
        return rounded_off.unwrap_or(Verdict::Correct);
    }
    if fraction && right(reading.value) {
        return Verdict::Correct;
    }
    if fraction && right(reading.value * 100.0) {
        return as_percent;
    }
    // "0.158 %" for 15.8 %: the fraction, with a % sign.
    if unit == Unit::Percent
        && typed_unit == Some(Unit::Percent)
        && reading.value.abs() <= 1.0
        && right(reading.value * 100.0)
    {
        return Verdict::FractionAsPercent {
            typed: reading.text,
            percent: reading.value * 100.0,
        };
    }
    if let Some(before) = before_rounding.filter(|_| !fraction) {
        // "3.95" where the pool of 3.9497 rounds up to 4: the number before
        // rounding, within a hundredth or as rounded to the places typed
        // (not any fraction below the answer: "3.2" is wrong, and asked
        // again free it would find the answer).
        let half_place = 0.5 * 10f64.powi(-(decimals_typed(&reading.text) as i32));
        if value.fract().abs() > 1e-9
            && (value - before).abs() <= (0.01 * before.abs()).max(half_place)
        {
            return Verdict::NotRoundedUp {
                typed: reading.text,
            };
        }
        // "3": the whole number below it, rounded down or to the nearest.
        if before.fract() > 1e-9 && before.ceil() == expected && value == before.floor() {
            return Verdict::RoundedDown {
                typed: reading.text,
            };
        }
    }
    let too_high = value > expected;
    // Not where the answer is exact (tolerance 0: a count such as 3,950
    // connections, where 4,000 is the mistake of forgetting what is used).
    // "1,400" as the lessons print it too, unless its decimal reading is
    // right (asked below).
    let decimal_right = reading.decimal.is_some_and(|d| right(in_unit(d)));
    if tolerance > 0.0 && !fraction && !decimal_right && rounded_too_far(value, expected) {
        return Verdict::TooRounded {
            typed: reading.text,
        };
    }
    // "2 MB" for 2 GB: the number right, the unit another of the family.
    // Not where a decimal comma's reading is right in the unit typed
    // ("1,500 s" for 1,500 ms asks which was meant).
    if let Some(said) = typed_unit.filter(|&t| t != unit && !percent_of_one) {
        if right(reading.value) && !decimal_right {
            return Verdict::UnitSwapped {
                typed: reading.text,
                said,
                value,
                too_high: value > expected,
            };
        }
    }
    // "1" for 11.1 %: too high as a fraction (100 %), too low as 1 %.
    if fraction && (reading.value > expected) != (reading.value * 100.0 > expected) {
        return Verdict::PercentEitherWay {
            typed: reading.text,
            percent: reading.value,
            fraction: reading.value * 100.0,
        };
    }
    let Some(decimal) = reading.decimal else {
        // A bare number right in another unit of the family: "10000" for
        // 10 s, meaning ms.
        let meant = (typed_unit.is_none() && rest.is_empty())
            .then(|| {
                unit.family()
                    .units()
                    .iter()
                    .copied()
                    .find(|&u| u != unit && right(reading.value * u.scale() / unit.scale()))
            })
            .flatten();
        return match meant {
            Some(meant) => Verdict::UnitMissing {
                typed: reading.text,
                meant,
                too_high,
            },
            None => Verdict::WrongValue { too_high },
        };
    };
    let (typed, thousands) = (reading.text, reading.value);
    let other = in_unit(decimal);
    if right(other) {
        Verdict::Ambiguous {
            typed,
            thousands,
            decimal,
        }
    } else if (other > expected) == too_high {
        Verdict::WrongValue { too_high }
    } else {
        Verdict::WrongEitherWay {
            typed,
            thousands,
            decimal,
        }
    }
}

/// The decimal places a question asks its answer in: "Give one decimal
/// place", "to two decimal places" (not "take √a to two decimals", which
/// is a step of the working, not the answer).
pub fn decimals_asked(prompt: &str) -> Option<usize> {
    let p = prompt.to_ascii_lowercase();
    [
        ("one decimal place", 1),
        ("two decimal places", 2),
        ("three decimal places", 3),
    ]
    .iter()
    .find(|(words, _)| p.contains(words))
    .map(|&(_, n)| n)
}

/// The decimal places of a number as typed: after its point, or after a
/// decimal comma ("16,8"; a comma before exactly three digits groups
/// thousands, as the lessons print numbers).
pub(crate) fn decimals_typed(text: &str) -> usize {
    let after = |sep: char| {
        text.rsplit_once(sep)
            .map(|(_, d)| d.chars().take_while(char::is_ascii_digit).count())
    };
    match after('.') {
        Some(n) => n,
        None => after(',').filter(|&n| n != 3).unwrap_or(0),
    }
}

/// How far from the answer, relative, an answer rounded further than the
/// question asks may be and still be called "close, but rounded too far"
/// (0–1).
const CLOSE: f64 = 0.1;

/// True when `value` is `expected` rounded to two significant figures: a
/// multiple of a unit in its second figure, within half of one of
/// `expected` (1400 for 1,442; not 1500, 58 away).
fn rounded_too_far(value: f64, expected: f64) -> bool {
    if value == 0.0 || expected == 0.0 || !expected.is_finite() {
        return false;
    }
    let step = 10f64.powf(expected.abs().log10().floor() - 1.0);
    let near = (value - expected).abs() <= step * (0.5 + 1e-9);
    let whole = ((value / step).round() - value / step).abs() <= 1e-6;
    near && whole
}

/// Whether a verdict is about an answer read and wrong, so that the
/// learner is pointed to the help (the hints, or once they are open, the
/// worked solution); not where the answer is asked for again.
pub fn points_to_hints(v: &Verdict) -> bool {
    matches!(
        v,
        Verdict::WrongValue { .. }
            | Verdict::WrongEitherWay { .. }
            | Verdict::PercentEitherWay { .. }
            | Verdict::RoundedDown { .. }
            | Verdict::ExpectedNumber
            | Verdict::ExpectedNoLimit
    )
}

/// A sentence about a verdict, without a pointer to hints (a predict
/// box has none).
pub fn describe(v: &Verdict, unit: Unit) -> String {
    // Numbers in messages are printed plainly: "7500", never "7,500". (Fixed
    // decimals, trimmed: the shortest-form float printer would add its own
    // code to the app's download.)
    let plain = |x: &f64| {
        let s = format!("{x:.6}");
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    };
    match v {
        Verdict::Correct => "Correct.".into(),
        Verdict::FractionRight { percent } => {
            // To three significant figures: "1/9" is 11.1 %, not 11.111111 %;
            // more where that would round to 100 % from below or above it.
            let mut places = 0;
            let rounds_to_all = |places: i32| {
                let k = 10f64.powi(places);
                *percent != 100.0 && (percent * k).round() == 100.0 * k
            };
            while places < 6 && (percent.abs() * 10f64.powi(places) < 100.0 || rounds_to_all(places)) {
                places += 1;
            }
            let shown = format!("{percent:.*}", places as usize);
            let shown = if rounds_to_all(places) {
                // Still 100 at six places: said as just under or over it.
                if *percent < 100.0 { "99.999999" } else { "100.000001" }
            } else if shown.contains('.') {
                shown.trim_end_matches('0').trim_end_matches('.')
            } else {
                &shown
            };
            format!("Correct. As a percentage, that is {shown} %.")
        }
        Verdict::RoundedOff {
            rounded, places, ..
        } => format!(
            "Correct, within the margin: to {}, the answer is {:.*}.",
            match places {
                1 => "one decimal place",
                2 => "two decimal places",
                _ => "three decimal places",
            },
            places,
            rounded
        ),
        Verdict::WrongValue { too_high: true } => "Not quite: that is too high.".into(),
        Verdict::WrongValue { too_high: false } => "Not quite: that is too low.".into(),
        Verdict::WrongEitherWay {
            typed,
            thousands,
            decimal,
        } => format!(
            "Not quite, whether {typed} means {} or {}.",
            plain(thousands),
            plain(decimal)
        ),
        Verdict::PercentEitherWay {
            typed,
            percent,
            fraction,
        } => format!(
            "Not quite, whether {typed} means {} % or, as a fraction, {} %.",
            plain(percent),
            plain(fraction)
        ),
        Verdict::Ambiguous {
            typed,
            thousands,
            decimal,
        } => {
            let (t, d) = (plain(thousands), plain(decimal));
            format!(
                "{typed}: did you mean {t} or {d}? A comma before three digits reads both ways, \
                 so type {t} (no comma) or {d} (with a dot)."
            )
        }
        Verdict::UnitMissing {
            typed,
            meant,
            too_high,
        } => format!(
            "{typed} reads as {typed} {} here, too {}; if you meant {typed} {}, type the unit: {typed} {}.",
            unit.label(),
            if *too_high { "high" } else { "low" },
            meant.label(),
            meant.label()
        ),
        Verdict::UnitSwapped {
            typed,
            said,
            value,
            too_high,
        } => format!(
            "{typed} {} is {} {}, too {}; the number would be right in {}: check the unit you typed.",
            said.label(),
            // To about three figures, plainly ("0.0000003", where six
            // decimals read "0").
            tellers_sim::text::fmt_figures(*value, 0).replace(',', ""),
            unit.label(),
            if *too_high { "high" } else { "low" },
            unit.label()
        ),
        Verdict::WrongUnit { typed } => match unit_read(typed) {
            // What was typed after the number, a few characters of it: a
            // long answer is not repeated back whole.
            None => format!(
                "Wrong unit: '{}' is not a unit Tellers reads, and this answer is {}. Use {}.",
                tellers_sim::text::clip(typed),
                unit.what(),
                unit.accepted()
            ),
            Some(t) => format!(
                "Wrong unit: '{}' gives {}, but this answer is {}. Use {}.",
                tellers_sim::text::clip(typed),
                t.what(),
                unit.what(),
                unit.accepted()
            ),
        },
        Verdict::Formula { typed } => format!(
            "{} is a formula: work it out and type the number it gives (sums such as 15/2 or 4 × 100 are read; powers, brackets and ln are not). Use {}.",
            tellers_sim::text::clip(typed),
            unit.accepted()
        ),
        Verdict::Range { typed } => format!(
            "{}: type one number, not a range or a difference. Use {}.",
            tellers_sim::text::clip(typed),
            unit.accepted()
        ),
        Verdict::Negative { typed } => format!(
            "{typed} is below zero, and this answer is {}, which cannot be negative.",
            unit.what()
        ),
        Verdict::TooRounded { typed } => {
            format!("{typed} is close, but rounded too far: {ROUNDING_ADVICE}")
        }
        Verdict::NotRoundedUp { typed } => format!(
            "{typed} is right before rounding: the question asks for a whole number, rounded up."
        ),
        Verdict::RoundedDown { .. } => "Not quite: that is too low. If you rounded down or to the \
             nearest, the question asks for a whole number, rounded up."
            .into(),
        Verdict::FractionAsPercent { typed, percent } => format!(
            "{typed} % is a fraction with a % sign: as a fraction, {typed} is {} %. \
             Type the percentage, or the fraction without the sign.",
            plain(percent)
        ),
        // Its exponent named only where one was typed (400 nines have none).
        Verdict::TooLarge { typed } => format!(
            "{typed} is too large to work with: check its digits{}. Use {}.",
            if typed.contains(['e', 'E']) { " and its exponent" } else { "" },
            unit.accepted()
        ),
        Verdict::Unreadable => format!(
            "Type a number, such as 40, 7.5 or 1,000 (a fraction such as 15/2 works too). Use {}.",
            unit.accepted()
        ),
        Verdict::TwoAnswers => {
            "Give one answer: a number, or \"no limit\" on its own, not both.".into()
        }
        // Not "the server keeps up": some of these ask for a number where
        // the line does grow (how long after 10 s?), or of no server.
        Verdict::ExpectedNumber => format!(
            "Not quite: this answer is {}, not \"no limit\".",
            unit.what()
        ),
        Verdict::ExpectedNoLimit => {
            "Not quite: compare the arrivals with what can be finished: where they reach it, or pass it, the line grows without end.".into()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What a learner with a hint still to open reads about a verdict:
    /// [`describe`], then where it points to the help, the app's pointer
    /// (`Help::HintsLeft` in the app's `answer.rs`).
    fn explain(v: &Verdict, unit: Unit) -> String {
        let said = describe(v, unit);
        if points_to_hints(v) {
            format!("{said} Try a hint.")
        } else {
            said
        }
    }

    /// A fraction typed with a % sign is shown as the percentage it makes,
    /// not counted: "0.1579 %" for 15.8 % said "too low" to a right method.
    #[test]
    fn a_fraction_with_a_percent_sign_is_shown_its_percentage() {
        let v = check("0.1579 %", 15.8, Unit::Percent, 0.02);
        assert!(
            matches!(&v, Verdict::FractionAsPercent { typed, percent }
                if typed == "0.1579" && (percent - 15.79).abs() < 1e-9),
            "{v:?}"
        );
        assert!(!v.counts());
        assert_eq!(
            explain(&v, Unit::Percent),
            "0.1579 % is a fraction with a % sign: as a fraction, 0.1579 is 15.79 %. \
             Type the percentage, or the fraction without the sign."
        );
        // The fraction without the sign, or the percentage, is right; a
        // small percentage that is the answer stays right, and one that is
        // wrong either way is only too low.
        for (typed, expected, verdict) in [
            ("15.79 %", 15.8, Verdict::Correct),
            ("0.833 %", 0.833, Verdict::Correct),
            ("0.3 %", 15.8, Verdict::WrongValue { too_high: false }),
        ] {
            assert_eq!(
                check(typed, expected, Unit::Percent, 0.02),
                verdict,
                "{typed}"
            );
        }
        assert!(check("0.1579", 15.8, Unit::Percent, 0.02).is_right());
    }

    /// A formula is asked to be worked out, not read as a number and a
    /// unit, a range or a negative number (a learners' walk of lessons 15
    /// to 17); "1 in 3" is a chance, as the lessons write one.
    #[test]
    fn a_formula_is_asked_for_its_number() {
        for typed in [
            "-5*ln(1-0.99^(1/10))",
            "5*ln(1000)",
            "5 ln 1000",
            "1-0.99^10",
            "100*(1-0.99^10)",
            "(0.6/(1-0.6))*0.5*10",
            "√29",
        ] {
            let v = check(typed, 34.5, Unit::Ms, 0.01);
            assert_eq!(
                v,
                Verdict::Formula {
                    typed: typed.to_string()
                },
                "{typed}"
            );
            assert!(!v.counts());
            assert!(explain(&v, Unit::Ms).contains("work it out"), "{typed}");
        }
        // Worked out after it, the number is read.
        assert_eq!(
            check("5*ln(1000) = 34.5 ms", 34.5, Unit::Ms, 0.01),
            Verdict::Correct
        );
        // Notes in brackets after a number or words are no formula.
        assert!(!matches!(
            check("40 (threads)", 40.0, Unit::Threads, 0.01),
            Verdict::Formula { .. }
        ));
        assert_eq!(
            check_in("no limit (20)", 20.0, Unit::Count, 0.01, ""),
            Verdict::TwoAnswers
        );
        assert!(check("1 in 3", 33.3, Unit::Percent, 0.01).is_right());
        assert!(check("1 in 2,000", 0.05, Unit::Percent, 0.01).is_right());
        assert!(check("1 in 30", 3.33, Unit::Percent, 0.01).is_right());
        assert!(!check("1 in 3", 25.0, Unit::Percent, 0.01).is_right());
        // With a lead word or a full stop, as a sentence says it.
        assert!(check("about 1 in 3", 33.3, Unit::Percent, 0.01).is_right());
        assert!(check("1 in 3.", 33.3, Unit::Percent, 0.01).is_right());
        assert!(check("roughly 1 in 2,000.", 0.05, Unit::Percent, 0.01).is_right());
        assert!(!check("1 in 3.5", 33.3, Unit::Percent, 0.01).is_right());
    }

    /// Words a learners' walk had refused as "not a unit" while their
    /// siblings were read, each right here.
    #[test]
    fn the_prompts_own_words_and_their_siblings_are_read() {
        let hour = "Once the breaker has opened, about how many calls reach the database per hour?";
        for typed in [
            "600 per hour",
            "600 calls per hour",
            "600/h",
            "600 per hr",
            "600 calls/h",
            "about 600 calls/hour",
            "600 an hour",
        ] {
            assert_eq!(
                check_in(typed, 600.0, Unit::Count, 0.05, hour),
                Verdict::Correct,
                "{typed}"
            );
        }
        // Not where the prompt asks for no such thing, nor any other "per".
        assert!(matches!(
            check_in("600 per hour", 600.0, Unit::Count, 0.05, "How many calls?"),
            Verdict::WrongUnit { .. }
        ));
        assert!(!check_in(
            "200 per request",
            200.0,
            Unit::Rps,
            0.01,
            "Each request uses 10 ms of CPU per request. How many per second?"
        )
        .is_right());
        for typed in [
            "0.56 retries per call",
            "0.56 retry per call",
            "0.56 retries/call",
            "0.56 extra tries per call",
        ] {
            assert_eq!(
                check(typed, 0.56, Unit::Count, 0.02),
                Verdict::Correct,
                "{typed}"
            );
        }
        for typed in [
            "0.15 requests per ms",
            "0.15 per ms",
            "0.15 req/ms",
            "150 answers/s",
            "150 responses per second",
            "150 attempts per second",
            "150 more per second",
        ] {
            assert_eq!(
                check(typed, 150.0, Unit::Rps, 0.01),
                Verdict::Correct,
                "{typed}"
            );
        }
        assert!(matches!(
            check("0.15 per ms", 0.15, Unit::Rps, 0.01),
            Verdict::UnitSwapped {
                said: Unit::PerMs,
                ..
            }
        ));
        for typed in [
            "200 ms per request",
            "0.2 s per request",
            "200 ms/request",
            "200 ms a request",
        ] {
            assert_eq!(
                check(typed, 200.0, Unit::Ms, 0.01),
                Verdict::Correct,
                "{typed}"
            );
        }
        for typed in ["60 slots", "60 spots", "60 places"] {
            assert_eq!(
                check(typed, 60.0, Unit::Count, 0.01),
                Verdict::Correct,
                "{typed}"
            );
        }
        // A rate per request is no time.
        assert!(matches!(
            check("200 rps per request", 200.0, Unit::Ms, 0.01),
            Verdict::WrongUnit { .. }
        ));
    }

    #[test]
    fn forms_learners_type_are_read() {
        // A rate per minute is a rate: 24,000 a minute is 400 a second.
        for typed in [
            "24000 per minute",
            "24,000/min",
            "24000 rpm",
            "24000 requests per minute",
            "24000 req/min",
        ] {
            assert_eq!(
                check(typed, 400.0, Unit::Rps, 0.01),
                Verdict::Correct,
                "{typed}"
            );
        }
        let swapped = check("400 per minute", 400.0, Unit::Rps, 0.01);
        assert!(
            matches!(
                swapped,
                Verdict::UnitSwapped {
                    said: Unit::PerMin,
                    ..
                }
            ),
            "{swapped:?}"
        );
        assert!(describe(&swapped, Unit::Rps).starts_with(
            "400 requests per minute is 6.67 requests per second, too low; the number would be right in requests per second"
        ));
        assert_eq!(
            check("25000 per minute", 400.0, Unit::Rps, 0.01),
            Verdict::WrongValue { too_high: true }
        );
        // An emoji after the number is echoed as typed (it was '?').
        let v = check("25.0 👍", 25.0, Unit::Mb, 0.03);
        assert!(describe(&v, Unit::Mb).starts_with("Wrong unit: '👍' is not a unit"));
        // An unsure answer, and what it counts in other words.
        assert_eq!(check("11.1?", 11.1, Unit::Percent, 0.02), Verdict::Correct);
        assert_eq!(check("20 ?", 20.0, Unit::Threads, 0.02), Verdict::Correct);
        assert_eq!(
            check("140 rejected", 140.0, Unit::Requests, 0.02),
            Verdict::Correct
        );
        assert_eq!(
            check("2.5 requests stuck", 2.5, Unit::Requests, 0.02),
            Verdict::Correct
        );
        assert_eq!(
            check("40 threads needed", 40.0, Unit::Threads, 0.02),
            Verdict::Correct
        );
        assert_eq!(check("3 min", 180.0, Unit::S, 0.02), Verdict::Correct);
        assert!(matches!(
            check("2.5 cores stuck", 2.5, Unit::Requests, 0.02),
            Verdict::WrongUnit { .. }
        ));
        // A fraction for a percentage under 1 % (pause-share: 0.833 %):
        // the fraction the worked solution shows, or the percentage.
        assert_eq!(
            describe(&check("0.00833", 0.833, Unit::Percent, 0.02), Unit::Percent),
            "Correct. As a percentage, that is 0.833 %."
        );
        assert_eq!(check("0.833", 0.833, Unit::Percent, 0.02), Verdict::Correct);
        assert_eq!(
            check("0.01", 1.0, Unit::Percent, 0.02),
            Verdict::FractionRight { percent: 1.0 }
        );
        assert_eq!(check("1", 1.0, Unit::Percent, 0.02), Verdict::Correct);
        // 0.02 % is too low and 2 % too high: said so, not "too low".
        assert!(matches!(
            check("0.02", 1.0, Unit::Percent, 0.02),
            Verdict::PercentEitherWay { .. }
        ));
        // A product, as the lessons write Little's law (400 × 0.1 s).
        assert_eq!(
            check("400 × 0.1", 40.0, Unit::Threads, 0.01),
            Verdict::Correct
        );
        assert_eq!(
            check("200 x 0.2", 40.0, Unit::Threads, 0.01),
            Verdict::Correct
        );
        assert_eq!(
            check("400*0.1", 40.0, Unit::Threads, 0.01),
            Verdict::Correct
        );
        assert_eq!(
            check("200 x 0.3", 40.0, Unit::Threads, 0.01),
            Verdict::WrongValue { too_high: true }
        );
        // The prompt's own nouns for a plain count.
        for typed in [
            "26 workers",
            "27 tries",
            "3950 clients",
            "1 connection",
            "3 attempts",
        ] {
            let n = read_number(typed).unwrap().value;
            assert_eq!(
                check(typed, n, Unit::Count, 0.01),
                Verdict::Correct,
                "{typed}"
            );
        }
        // Thousands grouped by spaces, and an exponent with a plus sign.
        assert_eq!(
            check("10 000", 10_000.0, Unit::Count, 0.01),
            Verdict::Correct
        );
        assert_eq!(
            check("10\u{a0}000 ms", 10.0, Unit::S, 0.01),
            Verdict::Correct
        );
        assert_eq!(check("1 000 000", 1e6, Unit::Count, 0.01), Verdict::Correct);
        assert_eq!(check("1e+3", 1000.0, Unit::Count, 0.01), Verdict::Correct);
        assert_eq!(check("15 / 2", 7.5, Unit::Count, 0.01), Verdict::Correct);
        // "grows by 200" gives a number, which is read.
        assert_eq!(
            check("grows by 200", 200.0, Unit::Requests, 0.01),
            Verdict::Correct
        );
        assert_eq!(
            check("It grows by 200 rps", 200.0, Unit::Rps, 0.01),
            Verdict::Correct
        );
        assert_eq!(
            check("about 40", 40.0, Unit::Threads, 0.01),
            Verdict::Correct
        );
        // The no-limit answer with numbers beside it is still right.
        let inf = f64::INFINITY;
        for said in ["no limit (500 > 400)", "∞, ρ = 1.2", "unbounded at 100/s"] {
            assert_eq!(check(said, inf, Unit::Ms, 0.02), Verdict::Correct, "{said}");
        }
        // "If it cannot keep up, answer no limit": the prompt's own words,
        // and a learner's others, are that answer (a review found "it
        // cannot keep up" marked wrong, as a denial).
        for said in [
            "it cannot keep up",
            "can't keep up",
            "it does not keep up",
            "doesn't settle",
            "it never catches up",
            "the line keeps growing",
            "no upper limit",
            "inf",
            "Inf",
            "can't keep up, won't settle",
            "it no longer keeps up",
            "the line is not bounded",
            "no upper bound",
        ] {
            assert_eq!(
                check(said, inf, Unit::Threads, 0.02),
                Verdict::Correct,
                "{said}"
            );
        }
        // Denied, they say the line is finite; and rates as people spell
        // them.
        for (said, expected, unit, verdict) in [
            (
                "it is not true that it cannot keep up",
                inf,
                Unit::Threads,
                Verdict::ExpectedNoLimit,
            ),
            (
                "it does not grow",
                inf,
                Unit::Threads,
                Verdict::ExpectedNoLimit,
            ),
            (
                "it is not growing",
                inf,
                Unit::Threads,
                Verdict::ExpectedNoLimit,
            ),
            (
                "it stops growing",
                inf,
                Unit::Threads,
                Verdict::ExpectedNoLimit,
            ),
            ("22.2 reqs/sec", 22.2, Unit::Rps, Verdict::Correct),
            ("22.2 requests per sec", 22.2, Unit::Rps, Verdict::Correct),
            ("22.2 req per second", 22.2, Unit::Rps, Verdict::Correct),
            ("22.2 calls/s", 22.2, Unit::Rps, Verdict::Correct),
        ] {
            assert_eq!(check(said, expected, unit, 0.02), verdict, "{said}");
        }
        // Every rate spelling read before the rule for them, still read.
        for w in [
            "rps",
            "req/s",
            "req/sec",
            "reqs/s",
            "r/s",
            "requests/s",
            "requests/sec",
            "/s",
            "/sec",
            "per sec",
            "a second",
            "requests a second",
            "per second",
            "requests per second",
            "requests/second",
            "request per second",
            "qps",
            "tries per second",
            "calls per second",
            "retries per second",
        ] {
            assert_eq!(unit_from_words(w), Some(Unit::Rps), "{w}");
        }
        assert_eq!(
            check("40 reqs", 40.0, Unit::Requests, 0.01),
            Verdict::Correct
        );
        assert_eq!(
            check("1.18 retries", 1.18, Unit::Count, 0.01),
            Verdict::Correct
        );
        // A unit Tellers does not read is said, and not counted as a try;
        // one that cannot measure the answer is.
        let unread = check("22.2 reqs/hour", 22.2, Unit::Rps, 0.01);
        assert!(
            matches!(unread, Verdict::WrongUnit { .. }) && !unread.counts(),
            "{unread:?}"
        );
        let wrong = check("22.2 ms", 22.2, Unit::Rps, 0.01);
        assert!(
            matches!(wrong, Verdict::WrongUnit { .. }) && wrong.counts(),
            "{wrong:?}"
        );
        // Rounded to two figures where the answer keeps three: asked
        // again, not counted; further off, too low or too high.
        for (typed, expected, unit) in [
            ("1400", 1442.0, Unit::Count),
            ("120 ms", 115.0, Unit::Ms),
            ("0.12 s", 115.0, Unit::Ms),
            ("1.2k rps", 1250.0, Unit::Rps),
        ] {
            let v = check(typed, expected, unit, 0.01);
            assert!(
                matches!(v, Verdict::TooRounded { .. }) && !v.counts(),
                "{typed}: {v:?}"
            );
        }
        // As the lessons print it, with a comma.
        assert!(matches!(
            check("1,400", 1442.0, Unit::Count, 0.01),
            Verdict::TooRounded { .. }
        ));
        // A unit read from two words, wrong for the answer, is an attempt.
        let two = check("40 worker threads", 40.0, Unit::Ms, 0.01);
        assert!(
            matches!(two, Verdict::WrongUnit { .. }) && two.counts(),
            "{two:?}"
        );
        assert_eq!(
            check("1500", 1442.0, Unit::Count, 0.01),
            Verdict::WrongValue { too_high: true }
        );
        assert_eq!(
            check("1410", 1442.0, Unit::Count, 0.01),
            Verdict::WrongValue { too_high: false }
        );
        // The solutions' own words.
        assert_eq!(
            check("100 places", 100.0, Unit::Requests, 0.01),
            Verdict::Correct
        );
        assert_eq!(
            check("2.31 tries per call", 2.31, Unit::Count, 0.01),
            Verdict::Correct
        );
        assert_eq!(
            check("0.0183 extra calls per call", 0.0183, Unit::Count, 0.01),
            Verdict::Correct
        );
        assert_eq!(
            check("600 tries per second", 600.0, Unit::Rps, 0.01),
            Verdict::Correct
        );
        // Workers are threads: not an answer for cores.
        assert_eq!(
            check("4 workers", 4.0, Unit::Threads, 0.01),
            Verdict::Correct
        );
        assert_eq!(
            check("4 workers", 4.0, Unit::Cores, 0.01),
            Verdict::WrongUnit {
                typed: "workers".into()
            }
        );
        assert_eq!(
            check("4 loops", 4.0, Unit::Cores, 0.01),
            Verdict::WrongUnit {
                typed: "loops".into()
            }
        );
    }

    #[test]
    fn equivalent_forms_are_accepted() {
        assert_eq!(check("100 ms", 100.0, Unit::Ms, 0.02), Verdict::Correct);
        assert_eq!(check("0.1 s", 100.0, Unit::Ms, 0.02), Verdict::Correct);
        assert_eq!(check("0.1s", 100.0, Unit::Ms, 0.02), Verdict::Correct);
        assert_eq!(check("5 seconds", 5.0, Unit::S, 0.02), Verdict::Correct);
        assert_eq!(check("5000 ms", 5.0, Unit::S, 0.02), Verdict::Correct);
        // Asked for one decimal place: "17" for 16.8 is rounded past it,
        // within the margin (right, shown 16.8), "17" for 17.0 is the
        // answer, and so is any answer with the decimals asked or more.
        let one = "How many threads are busy? Give one decimal place.";
        let v = check_in("17", 16.8, Unit::Threads, 0.02, one);
        assert!(
            matches!(v, Verdict::RoundedOff { places: 1, .. }) && v.counts(),
            "{v:?}"
        );
        for (typed, expected) in [
            ("17", 17.02),
            ("16.8", 16.8),
            ("16,8", 16.8),
            ("16.84", 16.8),
        ] {
            assert_eq!(
                check_in(typed, expected, Unit::Threads, 0.02, one),
                Verdict::Correct,
                "{typed}"
            );
        }
        // The decimals asked, within the margin but not the answer rounded
        // ("9.5" for 9.56, cut or worked from rounded steps): accepted, and
        // shown the rounded answer. It was a plain "Correct." while "0.37"
        // for 0.368, nearer, was asked again for its third decimal.
        let v = check_in("9.5", 9.56, Unit::Threads, 0.01, one);
        assert!(v.is_right() && v.counts(), "{v:?}");
        assert_eq!(
            describe(&v, Unit::Threads),
            "Correct, within the margin: to one decimal place, the answer is 9.6."
        );
        let three = "What share is that? Give three decimal places.";
        let v = check_in("0.367", 0.3679, Unit::Count, 0.01, three);
        assert_eq!(
            describe(&v, Unit::Count),
            "Correct, within the margin: to three decimal places, the answer is 0.368."
        );
        // Fewer decimals than asked, but not the answer rounded to them
        // ("31.9" for 32 asked to two places, "4.9" for 5): another number
        // within the margin, not "rounded too far", as "31.90" is not.
        let two = "How long, in seconds? Give two decimal places.";
        for (typed, expected) in [
            ("31.9", 32.0),
            ("31.90", 32.0),
            ("4.9", 5.0),
            ("32.1", 32.0),
        ] {
            let v = check_in(typed, expected, Unit::S, 0.02, two);
            assert!(matches!(v, Verdict::RoundedOff { .. }), "{typed}: {v:?}");
        }
        // The answer rounded further than asked, within the margin, is
        // right as any number there is: "51" for 51.3 % was asked again
        // while "52" passed.
        for (typed, expected, prompt) in [
            ("32", 31.96, two),
            ("0.37", 0.368, three),
            ("51", 51.28, one),
            ("52", 51.28, one),
        ] {
            let v = check_in(typed, expected, Unit::S, 0.02, prompt);
            assert!(matches!(v, Verdict::RoundedOff { .. }), "{typed}: {v:?}");
        }
        // Past the margin it is rounded too far.
        let v = check_in("32", 31.96, Unit::S, 0.001, two);
        assert!(matches!(v, Verdict::TooRounded { .. }), "{v:?}");
        assert_eq!(check_in("32", 32.0, Unit::S, 0.02, two), Verdict::Correct);
        // Rounded whole past the margin is still rounded too far, not wrong.
        let v = check_in("8", 7.5, Unit::Threads, 0.02, one);
        assert!(
            matches!(v, Verdict::TooRounded { .. }) && !v.counts(),
            "{v:?}"
        );
        assert_eq!(
            check_in("9", 7.5, Unit::Threads, 0.02, one),
            Verdict::WrongValue { too_high: true }
        );
        // Zero is not close to 0.2 cores asked to three figures: it was
        // "0 is close, but rounded too far".
        assert_eq!(
            check_in("0", 0.2, Unit::Count, 0.02, three),
            Verdict::WrongValue { too_high: false }
        );
        // Nor "1" for 0.56 asked to two places: rounded whole, but 79 % off
        // (lesson 14's retries a call; a nearer "0.9" was "too high").
        assert_eq!(
            check_in("1", 0.56, Unit::Count, 0.02, two),
            Verdict::WrongValue { too_high: true }
        );
        let v = check_in("0.6", 0.56, Unit::Count, 0.02, two);
        assert!(matches!(v, Verdict::TooRounded { .. }), "{v:?}");
        // The answer rounded, more decimals, or fewer that round the same,
        // are plainly right.
        for typed in ["9.6", "9.56", "9.55"] {
            assert_eq!(
                check_in(typed, 9.56, Unit::Threads, 0.01, one),
                Verdict::Correct,
                "{typed}"
            );
        }
        // Worked out or scaled, the decimals typed are not a rounding.
        for typed in ["84/5", "0.0168k"] {
            assert_eq!(
                check_in(typed, 16.8, Unit::Threads, 0.02, one),
                Verdict::Correct,
                "{typed}"
            );
        }
        let two = "How long, in seconds? Give two decimal places.";
        assert!(matches!(
            check_in("0.6 s", 0.64, Unit::S, 0.05, two),
            Verdict::TooRounded { .. }
        ));
        // Not where the decimals are of a step ("take √a to two decimals"),
        // nor in another unit than the answer's.
        assert_eq!(
            check_in("17", 16.8, Unit::Threads, 0.02, "Take √a to two decimals."),
            Verdict::Correct
        );
        assert_eq!(
            check_in("640 ms", 0.64, Unit::S, 0.1, two),
            Verdict::Correct
        );
        // Asked to round up to a whole number, the number before rounding
        // is named as that, not "too low"; a whole number that is not the
        // answer, or a number that rounds up to another, is wrong.
        let up = "How big should its pool be? Round up to a whole connection.";
        let before = Some(3.9497);
        for typed in ["3.95", "3.9", "3,95", "3.949"] {
            let v = check_exercise(typed, 4.0, Unit::Count, 0.0, up, before);
            assert!(
                matches!(v, Verdict::NotRoundedUp { .. }) && !v.counts(),
                "{typed}: {v:?}"
            );
            assert_eq!(
                describe(&v, Unit::Count),
                format!("{typed} is right before rounding: the question asks for a whole number, rounded up.")
            );
        }
        // The whole number below, rounded down or to the nearest.
        // Counted, as "too low" was: a wrong method may land there too.
        let v = check_exercise("3", 4.0, Unit::Count, 0.0, up, before);
        assert!(matches!(v, Verdict::RoundedDown { .. }) && v.counts() && points_to_hints(&v));
        assert_eq!(
            describe(&v, Unit::Count),
            "Not quite: that is too low. If you rounded down or to the nearest, the question asks \
             for a whole number, rounded up."
        );
        for (typed, v) in [
            ("4", Verdict::Correct),
            ("2", Verdict::WrongValue { too_high: false }),
            ("4.2", Verdict::WrongValue { too_high: true }),
            // A fraction that is not the number before rounding.
            ("3.2", Verdict::WrongValue { too_high: false }),
            ("3.5", Verdict::WrongValue { too_high: false }),
        ] {
            assert_eq!(
                check_exercise(typed, 4.0, Unit::Count, 0.0, up, before),
                v,
                "{typed}"
            );
        }
        assert_eq!(
            check_exercise("3.95", 4.0, Unit::Count, 0.0, up, None),
            Verdict::WrongValue { too_high: false },
            "not where the answer is not rounded up"
        );
        // A fraction to three places typed as a percentage: "37 %" is as
        // rounded as "0.37", right within the margin and shown 0.368;
        // "36.8 %" has the places asked.
        let three = "Answer as a fraction, to three decimal places (such as 0.052).";
        for typed in ["0.37", "37 %", "37%"] {
            let v = check_in(typed, 0.3679, Unit::Count, 0.03, three);
            assert!(
                matches!(v, Verdict::RoundedOff { places: 3, rounded, .. } if rounded == 0.368),
                "{typed}: {v:?}"
            );
        }
        // Past the margin, rounded too far.
        for typed in ["0.37", "37 %"] {
            let v = check_in(typed, 0.3679, Unit::Count, 0.001, three);
            assert!(matches!(v, Verdict::TooRounded { .. }), "{typed}: {v:?}");
        }
        for typed in ["0.368", "36.8 %", "36.79%"] {
            assert_eq!(
                check_in(typed, 0.3679, Unit::Count, 0.03, three),
                Verdict::Correct,
                "{typed}"
            );
        }
        // A percentage is a share: no count of 3,950 connections.
        assert!(matches!(
            check("395000 %", 3950.0, Unit::Count, 0.01),
            Verdict::WrongUnit { .. }
        ));
        // Microseconds and minutes, as a learner may write a context
        // switch or a line that takes most of a minute to drain; "pct".
        for (typed, expected, unit) in [
            ("50 µs", 0.05, Unit::Ms),
            ("50 μs", 0.05, Unit::Ms),
            ("50us", 0.05, Unit::Ms),
            ("50 microseconds", 0.05, Unit::Ms),
            ("0.9 min", 54.0, Unit::S),
            ("1.5 minutes", 90.0, Unit::S),
            ("120 millisec", 0.12, Unit::S),
            ("85 pct", 85.0, Unit::Percent),
        ] {
            assert_eq!(
                check(typed, expected, unit, 0.01),
                Verdict::Correct,
                "{typed}"
            );
        }
        // Read, so a wrong value in them is a wrong value, not a unit
        // Tellers cannot read.
        assert_eq!(
            check("2 min", 54.0, Unit::S, 0.01),
            Verdict::WrongValue { too_high: true }
        );
        assert_eq!(
            check("5 µs", 0.05, Unit::Ms, 0.01),
            Verdict::WrongValue { too_high: false }
        );
        assert_eq!(
            check("1,000", 1000.0, Unit::Requests, 0.01),
            Verdict::Correct
        );
        assert_eq!(check("1 GB", 1000.0, Unit::Mb, 0.01), Verdict::Correct);
        assert_eq!(check("10,000 MB", 10.0, Unit::Gb, 0.01), Verdict::Correct);
        assert_eq!(check("70 %", 70.0, Unit::Percent, 0.01), Verdict::Correct);
        assert_eq!(
            check("0.7", 70.0, Unit::Percent, 0.01),
            Verdict::FractionRight { percent: 70.0 }
        );
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
        assert!(
            msg.contains("'MB'") && msg.contains("µs, ms, s or min"),
            "{msg}"
        );
    }

    /// "2.5 % of requests" is a percentage of requests, not two units
    /// (it was refused as the wrong unit, "% of requests").
    #[test]
    fn a_percentage_of_something_is_a_percentage() {
        for t in [
            "2.5 % of requests",
            "2.5% of the time",
            "2.5 percent of calls",
        ] {
            assert_eq!(check(t, 2.5, Unit::Percent, 0.02), Verdict::Correct, "{t}");
        }
        assert_eq!(
            check("3 % of requests", 2.5, Unit::Percent, 0.02),
            Verdict::WrongValue { too_high: true }
        );
        // Only a percentage takes "of": a count of something else is still
        // the wrong unit.
        assert_eq!(
            check("40 ms of threads", 40.0, Unit::Threads, 0.01),
            Verdict::WrongUnit {
                typed: "ms of threads".into()
            }
        );
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
        // Unless the question says which: "Use 1 GB = 1,000 MB".
        let thousands = "How much is reserved, in GB? Use 1 GB = 1,000 MB.";
        assert_eq!(
            check_in("9.77 GB", 10.0, Unit::Gb, 0.02, thousands),
            Verdict::WrongValue { too_high: false }
        );
        assert_eq!(
            check_in("1.9", 2.0, Unit::Gb, 0.03, thousands),
            Verdict::WrongValue { too_high: false }
        );
        assert_eq!(
            check_in("10 GB", 10.0, Unit::Gb, 0.02, thousands),
            Verdict::Correct
        );
        // Only memory has two conventions.
        assert_eq!(
            check("102.4", 100.0, Unit::Ms, 0.02),
            Verdict::WrongValue { too_high: true }
        );
        // The right number with another unit of the family: the unit is
        // the slip (lesson 2's "2 MB" for 2 GB was told to divide by 1,000).
        let swapped = check("2 MB", 2.0, Unit::Gb, 0.02);
        assert_eq!(
            swapped,
            Verdict::UnitSwapped {
                typed: "2".into(),
                said: Unit::Mb,
                value: 0.002,
                too_high: false
            }
        );
        assert!(!swapped.counts());
        assert_eq!(
            describe(&swapped, Unit::Gb),
            "2 MB is 0.002 GB, too low; the number would be right in GB: check the unit you typed."
        );
        assert!(matches!(
            check("100 s", 100.0, Unit::Ms, 0.02),
            Verdict::UnitSwapped { too_high: true, .. }
        ));
        assert!(describe(&check("0.3 KB", 0.3, Unit::Gb, 0.02), Unit::Gb)
            .starts_with("0.3 KB is 0.0000003 GB, too low"));
        // Right in its own unit stays right; another number stays wrong.
        assert_eq!(check("2000 MB", 2.0, Unit::Gb, 0.02), Verdict::Correct);
        assert_eq!(
            check("3 MB", 2.0, Unit::Gb, 0.02),
            Verdict::WrongValue { too_high: false }
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
        assert!(explain(&Verdict::ExpectedNumber, Unit::Ms).contains("this answer is a time"));
    }

    #[test]
    fn unreadable_input_gets_a_clear_message() {
        assert_eq!(
            check("forty", 40.0, Unit::Threads, 0.01),
            Verdict::Unreadable
        );
        assert_eq!(check("", 40.0, Unit::Threads, 0.01), Verdict::Unreadable);
        // A number past f64 is a number, too large (it was Unreadable).
        assert_eq!(
            check("1e999", 40.0, Unit::Threads, 0.01),
            Verdict::TooLarge {
                typed: "1e999".into()
            }
        );
        assert!(explain(&Verdict::Unreadable, Unit::Ms).contains("Type a number"));
        // More of a number or a sum after the number is not a unit
        // ("Wrong unit: '^2000' is not a unit Tellers reads").
        for typed in ["7 1/2", "=1+1", "1e", "40 +"] {
            assert_eq!(
                check(typed, 40.0, Unit::Threads, 0.01),
                Verdict::Unreadable,
                "{typed}"
            );
        }
        // A power is a formula, asked to be worked out.
        assert!(matches!(
            check("2^2000", 40.0, Unit::Threads, 0.01),
            Verdict::Formula { .. }
        ));
        // A unit after the number is still read as one, and one that
        // starts with a digit is still a unit it does not read.
        assert!(matches!(
            check("400 1/s", 400.0, Unit::Rps, 0.01),
            Verdict::WrongUnit { .. }
        ));
        assert_eq!(
            check("40 (about)", 40.0, Unit::Threads, 0.01),
            Verdict::Correct
        );
        assert_eq!(
            check("40 threads", 40.0, Unit::Threads, 0.01),
            Verdict::Correct
        );
        assert!(matches!(
            check("40 ms", 40.0, Unit::Threads, 0.01),
            Verdict::WrongUnit { .. }
        ));
        // A long answer after its number is not echoed whole.
        let long = format!("40 {}", "because the pool is full ".repeat(12));
        let Verdict::WrongUnit { typed } = check(&long, 40.0, Unit::Requests, 0.01) else {
            panic!("read as a number with a unit");
        };
        let said = explain(&Verdict::WrongUnit { typed }, Unit::Requests);
        assert!(
            said.len() < 200 && said.contains("because the pool is"),
            "{said}"
        );
    }

    #[test]
    fn a_range_or_a_negative_number_is_asked_again_not_marked_wrong() {
        for typed in [
            "50-100",
            "50 - 100 rps",
            "50–100",
            "50 to 100",
            "1,000-2,000 ms",
        ] {
            let v = check(typed, 75.0, Unit::Rps, 0.01);
            assert!(matches!(v, Verdict::Range { .. }), "{typed}: {v:?}");
            assert!(!v.counts(), "{typed}");
            let said = explain(&v, Unit::Rps);
            assert!(said.contains("type one number, not a range"), "{said}");
        }
        assert_eq!(
            describe(&check("50-100", 75.0, Unit::Ms, 0.01), Unit::Ms),
            "50-100: type one number, not a range or a difference. Use a time: µs, ms, s or min (e.g. 100 ms or 0.1 s)."
        );
        // Echoed as typed, spaces and all.
        assert!(
            describe(&check("400 - 200", 200.0, Unit::Rps, 0.01), Unit::Rps)
                .starts_with("400 - 200: type one number")
        );
        // Still one number with its unit: an exponent, "3.3-fold", a sum.
        assert_eq!(check("1e-3 s", 1.0, Unit::Ms, 0.01), Verdict::Correct);
        assert_eq!(check("3.3-fold", 3.3, Unit::Count, 0.01), Verdict::Correct);
        assert_eq!(
            check("400 - 200 = 200", 200.0, Unit::Rps, 0.01),
            Verdict::Correct
        );
        let v = check("-10", 40.0, Unit::Rps, 0.01);
        assert_eq!(
            v,
            Verdict::Negative {
                typed: "-10".into()
            }
        );
        assert!(!v.counts());
        assert_eq!(
            explain(&v, Unit::Rps),
            "-10 is below zero, and this answer is a rate, which cannot be negative."
        );
        // A number beyond a computer's numbers is said to be too large
        // (it was "Type a number, such as 40"), and asked again.
        let huge = "9".repeat(400);
        let long_e = format!("{}e400", "1".repeat(30));
        for typed in ["1e400", "1e400 ms", huge.as_str(), long_e.as_str()] {
            let v = check(typed, 40.0, Unit::Ms, 0.01);
            assert!(matches!(v, Verdict::TooLarge { .. }), "{typed}: {v:?}");
            assert!(!v.counts());
            let said = explain(&v, Unit::Ms);
            let check_what = if typed.contains('e') {
                "check its digits and its exponent."
            } else {
                "check its digits."
            };
            assert!(
                said.contains(&format!("is too large to work with: {check_what}"))
                    && said.len() < 200,
                "{said}"
            );
        }
        assert_eq!(
            check("1e308", 40.0, Unit::Ms, 0.01),
            Verdict::WrongValue { too_high: true }
        );
        // The lessons' minus sign reads as one.
        assert!(matches!(
            check("\u{2212}0.5", 70.0, Unit::Percent, 0.01),
            Verdict::Negative { .. }
        ));
    }

    #[test]
    fn a_decimal_comma_is_read_where_it_is_the_only_reading() {
        for (typed, value) in [
            ("7,5", 7.5),
            ("0,25", 0.25),
            ("0,500", 0.5),
            ("7,25 ms", 7.25),
            ("1234,5", 1234.5),
            ("1.234,5", 1234.5),
            ("1,234.5", 1234.5),
            ("1,000", 1000.0),
            ("12,345,678", 12_345_678.0),
            ("1.000.000", 1_000_000.0),
            ("−7,5", -7.5),
        ] {
            assert_eq!(
                check(typed, value, Unit::Ms, 0.001),
                Verdict::Correct,
                "{typed}"
            );
        }
        // "7,5" is never seventy-five.
        assert_eq!(
            check("7,5", 75.0, Unit::Count, 0.01),
            Verdict::WrongValue { too_high: false }
        );
        for bad in ["1,2,3", "1.2.3", "1,23,456", "1.234.5,6,7"] {
            assert_eq!(
                check(bad, 1.0, Unit::Count, 0.01),
                Verdict::Unreadable,
                "{bad}"
            );
        }
        // A comma closing the number belongs to the sentence.
        assert_eq!(
            check("40, I think", 40.0, Unit::Count, 0.01),
            Verdict::WrongUnit {
                typed: ", I think".into()
            }
        );
    }

    #[test]
    fn a_bare_one_for_a_percentage_is_wrong_either_way_not_too_high() {
        // 11.1 %: "1" is 1 % (too low) or the fraction 1, 100 % (too high).
        let v = check("1", 11.1, Unit::Percent, 0.02);
        assert_eq!(
            v,
            Verdict::PercentEitherWay {
                typed: "1".into(),
                percent: 1.0,
                fraction: 100.0
            }
        );
        assert!(v.counts());
        let msg = explain(&v, Unit::Percent);
        assert_eq!(
            msg,
            "Not quite, whether 1 means 1 % or, as a fraction, 100 %. Try a hint."
        );
        // Both readings on one side: plainly too high or too low.
        assert_eq!(
            check("0.5", 80.0, Unit::Percent, 0.02),
            Verdict::WrongValue { too_high: false }
        );
        assert_eq!(
            check("0.9", 0.5, Unit::Percent, 0.02),
            Verdict::WrongValue { too_high: true }
        );
        // Either reading right is right; a fraction is shown as the
        // percentage asked for.
        let v = check("0.111", 11.1, Unit::Percent, 0.02);
        assert!(v.is_right() && v.counts(), "{v:?}");
        assert_eq!(
            describe(&v, Unit::Percent),
            "Correct. As a percentage, that is 11.1 %."
        );
        // A fraction typed as a division, to three figures.
        let v = check("1/9", 11.1, Unit::Percent, 0.02);
        assert_eq!(
            describe(&v, Unit::Percent),
            "Correct. As a percentage, that is 11.1 %."
        );
        let v = check("0.7", 70.0, Unit::Percent, 0.02);
        assert_eq!(
            describe(&v, Unit::Percent),
            "Correct. As a percentage, that is 70 %."
        );
        // Never 100 % for a fraction below 1.
        let v = check("0.9996", 99.9, Unit::Percent, 0.02);
        assert_eq!(
            describe(&v, Unit::Percent),
            "Correct. As a percentage, that is 99.96 %."
        );
        let v = check("0.9999999996", 99.9, Unit::Percent, 0.02);
        assert_eq!(
            describe(&v, Unit::Percent),
            "Correct. As a percentage, that is 99.999999 %."
        );
    }

    #[test]
    fn a_comma_before_three_digits_reads_as_the_lessons_print_numbers_or_asks() {
        // As the lessons print numbers: one thousand five hundred.
        assert_eq!(check("7,500", 7500.0, Unit::Count, 0.01), Verdict::Correct);
        // Right only with a decimal comma: asked, not counted.
        let asked = check("7,500", 7.5, Unit::Count, 0.01);
        let reading = Verdict::Ambiguous {
            typed: "7,500".into(),
            thousands: 7500.0,
            decimal: 7.5,
        };
        assert_eq!(asked, reading);
        assert!(!asked.counts());
        let msg = explain(&asked, Unit::Count);
        assert!(msg.contains("did you mean 7500 or 7.5?"), "{msg}");
        // Wrong either way, one reading on each side: said so, and counted.
        let wrong = check("7,500", 40.0, Unit::Count, 0.01);
        assert_eq!(
            wrong,
            Verdict::WrongEitherWay {
                typed: "7,500".into(),
                thousands: 7500.0,
                decimal: 7.5
            }
        );
        assert!(wrong.counts());
        assert_eq!(
            explain(&wrong, Unit::Count),
            "Not quite, whether 7,500 means 7500 or 7.5. Try a hint."
        );
        // Both readings on one side: too high is too high.
        assert_eq!(
            check("7,500", 2.0, Unit::Count, 0.01),
            Verdict::WrongValue { too_high: true }
        );
        // In another unit, both readings are converted.
        assert_eq!(
            check("1,500 s", 1.5, Unit::Ms, 0.01),
            Verdict::WrongValue { too_high: true }
        );
        assert!(matches!(
            check("1,500 s", 1500.0, Unit::Ms, 0.01),
            Verdict::Ambiguous { .. }
        ));
    }

    #[test]
    fn a_fraction_is_read_as_its_value() {
        assert_eq!(check("15/2", 7.5, Unit::Threads, 0.01), Verdict::Correct);
        assert_eq!(
            check("15 / 2 threads", 7.5, Unit::Threads, 0.01),
            Verdict::Correct
        );
        assert_eq!(check("1/2 s", 500.0, Unit::Ms, 0.01), Verdict::Correct);
        assert_eq!(
            check("15/2", 75.0, Unit::Count, 0.01),
            Verdict::WrongValue { too_high: false }
        );
        // "/s" after a number is a unit, not a fraction.
        assert_eq!(check("400/s", 400.0, Unit::Rps, 0.01), Verdict::Correct);
        assert_eq!(check("15/0", 7.5, Unit::Count, 0.01), Verdict::Unreadable);
        assert!(explain(&Verdict::Unreadable, Unit::Count).contains("15/2"));
    }

    #[test]
    fn a_wrong_unit_says_the_unit_is_wrong_and_nothing_about_the_number() {
        let v = check("99 ms", 40.0, Unit::Threads, 0.01);
        assert_eq!(v, Verdict::WrongUnit { typed: "ms".into() });
        assert!(v.counts());
        let msg = explain(&v, Unit::Threads);
        assert_eq!(
            msg,
            "Wrong unit: 'ms' gives a time, but this answer is a number of threads. \
             Use a number, optionally followed by threads."
        );
        assert!(!msg.contains("may be fine"));
        let msg = explain(&check("99 ms", 40.0, Unit::Count, 0.01), Unit::Count);
        assert!(
            msg.contains("this answer is a plain number. Use a number."),
            "{msg}"
        );
        let msg = explain(&check("4 bananas", 4.0, Unit::Ms, 0.01), Unit::Ms);
        assert!(
            msg.starts_with(
                "Wrong unit: 'bananas' is not a unit Tellers reads, and this answer is a time."
            ),
            "{msg}"
        );
        let msg = explain(&check("4 cores", 4.0, Unit::Threads, 0.01), Unit::Threads);
        assert!(msg.contains("'cores' gives a number of cores"), "{msg}");
    }

    #[test]
    fn a_bare_number_right_in_another_unit_asks_for_the_unit_and_is_not_counted() {
        // 10 s typed as 10000, meaning ms.
        let v = check("10000", 10.0, Unit::S, 0.01);
        assert_eq!(
            v,
            Verdict::UnitMissing {
                typed: "10000".into(),
                meant: Unit::Ms,
                too_high: true
            }
        );
        assert!(!v.counts());
        assert_eq!(
            explain(&v, Unit::S),
            "10000 reads as 10000 s here, too high; if you meant 10000 ms, \
             type the unit: 10000 ms."
        );
        // With the unit typed, it is right.
        assert_eq!(check("10000 ms", 10.0, Unit::S, 0.01), Verdict::Correct);
        // The other way: 100 ms typed as 0.1, meaning s.
        let v = check("0.1", 100.0, Unit::Ms, 0.01);
        assert_eq!(
            v,
            Verdict::UnitMissing {
                typed: "0.1".into(),
                meant: Unit::S,
                too_high: false
            }
        );
        assert!(explain(&v, Unit::Ms).starts_with("0.1 reads as 0.1 ms here, too low;"));
        // Memory: 2 GB as 2000 (MB) or 2048 (MB counted by 1,024), and
        // as 2,000,000 (KB); the number as typed is said back.
        for (typed, meant) in [
            ("2000", Unit::Mb),
            ("2048", Unit::Mb),
            ("2,000,000", Unit::Kb),
        ] {
            let v = check(typed, 2.0, Unit::Gb, 0.01);
            assert_eq!(
                v,
                Verdict::UnitMissing {
                    typed: typed.into(),
                    meant,
                    too_high: true
                },
                "{typed}"
            );
            assert!(explain(&v, Unit::Gb).contains(&format!("type the unit: {typed} ")));
        }
        // Wrong in every unit: too high, as before; a typed unit is read as typed.
        assert_eq!(
            check("12000", 10.0, Unit::S, 0.01),
            Verdict::WrongValue { too_high: true }
        );
        assert_eq!(
            check("10000 s", 10.0, Unit::S, 0.01),
            Verdict::WrongValue { too_high: true }
        );
        // Families of one unit, counts and percentages: nothing else to mean.
        assert_eq!(
            check("400", 0.4, Unit::Rps, 0.01),
            Verdict::WrongValue { too_high: true }
        );
        assert_eq!(
            check("4000", 4.0, Unit::Threads, 0.01),
            Verdict::WrongValue { too_high: true }
        );
        // The rules for commas and fractions of a percentage still come first.
        assert!(matches!(
            check("1,500", 1.5, Unit::S, 0.01),
            Verdict::Ambiguous { .. }
        ));
        assert!(check("0.7", 70.0, Unit::Percent, 0.01).is_right());
        assert_eq!(check("7,5", 7.5, Unit::S, 0.01), Verdict::Correct);
    }

    #[test]
    fn a_percentage_answers_a_plain_number_but_no_counted_thing() {
        // hedge-cost: 0.368 extra calls per call, "36.8 % more load".
        assert_eq!(check("36.8 %", 0.368, Unit::Count, 0.03), Verdict::Correct);
        assert_eq!(check("36.8%", 0.368, Unit::Count, 0.03), Verdict::Correct);
        assert_eq!(
            check("36,8 percent", 0.368, Unit::Count, 0.03),
            Verdict::Correct
        );
        assert_eq!(check("0.368", 0.368, Unit::Count, 0.03), Verdict::Correct);
        assert_eq!(
            check("50 %", 0.368, Unit::Count, 0.03),
            Verdict::WrongValue { too_high: true }
        );
        assert_eq!(
            check("0.368 %", 0.368, Unit::Count, 0.03),
            Verdict::WrongValue { too_high: false }
        );
        // Threads, cores, servers and requests are counted: "%" is no number of them.
        for unit in [Unit::Threads, Unit::Cores, Unit::Servers, Unit::Requests] {
            assert_eq!(
                check("50 %", 0.5, unit, 0.01),
                Verdict::WrongUnit { typed: "%".into() },
                "{unit:?}"
            );
        }
        assert!(
            explain(&check("50 %", 0.5, Unit::Threads, 0.01), Unit::Threads)
                .starts_with("Wrong unit: '%' gives a percentage")
        );
    }

    #[test]
    fn requests_count_for_threads_busy_but_not_the_other_way() {
        // Little's law: 75 requests per second × 0.1 s = 7.5 requests inside,
        // each holding a thread.
        assert_eq!(
            check("7.5 requests", 7.5, Unit::Threads, 0.02),
            Verdict::Correct
        );
        assert_eq!(
            check("7,5 requests", 7.5, Unit::Threads, 0.02),
            Verdict::Correct
        );
        assert_eq!(
            check("7.5 requests", 7.5, Unit::Requests, 0.02),
            Verdict::Correct
        );
        // Requests waiting in a line hold no thread.
        assert_eq!(
            check("7.5 threads", 7.5, Unit::Requests, 0.02),
            Verdict::WrongUnit {
                typed: "threads".into()
            }
        );
        assert_eq!(
            check("7.5 requests", 7.5, Unit::Cores, 0.02),
            Verdict::WrongUnit {
                typed: "requests".into()
            }
        );
    }

    /// What a reviewer typed into every exercise as a learner would, and
    /// found marked wrong though right (a full stop, the prompt's own
    /// words, other spellings, a named or worked answer), or marked right
    /// though it denied the answer ("does not grow without limit").
    #[test]
    fn a_classrooms_ways_of_writing_an_answer_are_read() {
        let right = |typed: &str, expected: f64, unit: Unit, prompt: &str| {
            assert_eq!(
                check_in(typed, expected, unit, 0.01, prompt),
                Verdict::Correct,
                "{typed}"
            );
        };
        right("27.5.", 27.5, Unit::Threads, "");
        let busy = "On average, how many threads are busy?";
        for typed in [
            "27.5 busy threads",
            "27.5 threads busy",
            "27.5 threads on average",
        ] {
            right(typed, 27.5, Unit::Threads, busy);
        }
        let answers = "How many answers per second reach their callers in time?";
        right("350 answers per second", 350.0, Unit::Rps, answers);
        let line = "How many requests are waiting in the line?";
        for typed in ["255 requests waiting", "255 waiting", "255 in the line."] {
            right(typed, 255.0, Unit::Requests, line);
        }
        // A second number is never taken for a word of the prompt: "200
        // 20" and "200 rps 400" were right where the prompt had "20" or
        // "400" in it.
        let step = "Step 3: 400 requests per second arrive for 20 s at 4 cores. How many \
                    requests per second does the line grow by?";
        right("200 step", 200.0, Unit::Rps, step);
        // A prompt's word with digits in it is still one of its words.
        right("46 ms p99", 46.0, Unit::Ms, "What is the p99, in ms?");
        for typed in ["200 20", "200 4", "200 rps 400", "200 1,000"] {
            let v = check_in(typed, 200.0, Unit::Rps, 0.02, step);
            assert!(!v.is_right(), "{typed}: {v:?}");
        }
        let memory = "How many times less memory does the loop use?";
        right("3.3 times less memory", 3.3, Unit::Count, memory);
        right("3.3-fold", 3.3, Unit::Count, memory);
        right("×3.3", 3.3, Unit::Count, memory);
        right("x3.3", 3.3, Unit::Count, memory);
        right("23650 client connections", 23650.0, Unit::Count, "");
        for typed in [
            "10 req/sec",
            "10 requests/sec",
            "10 per sec",
            "10 r/s",
            "10 per s",
            "10 a sec",
        ] {
            right(typed, 10.0, Unit::Rps, "");
        }
        right("4 CPU cores", 4.0, Unit::Cores, "");
        right("4 vCPUs", 4.0, Unit::Cores, "");
        for typed in ["3 instances", "3 nodes", "3 hosts"] {
            right(typed, 3.0, Unit::Servers, "");
        }
        right("100 megabytes", 100.0, Unit::Mb, "");
        right("100 MiB", 100.0, Unit::Mb, "");
        right("60k", 60_000.0, Unit::Count, "");
        right("23.65k", 23_650.0, Unit::Count, "");
        right("N = 16.8", 16.8, Unit::Count, "");
        right("t = 34.5 ms", 34.5, Unit::Ms, "");
        right("= 27.5", 27.5, Unit::Threads, "");
        right("approx. 27.5", 27.5, Unit::Threads, "");
        right("250 × 110 / 1000", 27.5, Unit::Threads, "");
        right("400 × 0.1 = 40", 40.0, Unit::Threads, "");
        right("unstable", f64::INFINITY, Unit::Requests, "");
        right("it never settles", f64::INFINITY, Unit::Requests, "");
        // Still wrong: a unit is never read past, nor is a word of nothing.
        assert_eq!(
            check_in("27.5 seconds", 27.5, Unit::Threads, 0.01, "seconds"),
            Verdict::WrongUnit {
                typed: "seconds".into()
            }
        );
        assert_eq!(
            check_in("255 bananas", 255.0, Unit::Requests, 0.01, line),
            Verdict::WrongUnit {
                typed: "bananas".into()
            }
        );
        assert_eq!(
            check("250 × 110 / 100", 27.5, Unit::Threads, 0.01),
            Verdict::WrongValue { too_high: true }
        );
        // Denied, the line is finite: wrong where it grows, and where a
        // number is asked, not an answer at all.
        for typed in [
            "it does not grow without limit",
            "not infinite",
            "never grows",
        ] {
            assert_eq!(
                check(typed, f64::INFINITY, Unit::Requests, 0.01),
                Verdict::ExpectedNoLimit,
                "{typed}"
            );
            assert_eq!(
                check(typed, 5.0, Unit::Requests, 0.01),
                Verdict::Unreadable,
                "{typed}"
            );
        }
        // "No limit" where a number is asked: no word of a server keeping
        // up, which some such exercises do not (how long is the line after
        // 10 s?).
        // "No limit" and a number, where the number is not the answer as
        // read: one answer is asked for (it was told to type "no limit").
        let v = check("no limit (20)", 20.0, Unit::Threads, 0.02);
        assert_eq!(v, Verdict::TwoAnswers);
        assert!(!v.counts());
        assert!(explain(&v, Unit::Threads).starts_with("Give one answer"));
        assert_eq!(
            check("no limit (20)", f64::INFINITY, Unit::Threads, 0.02),
            Verdict::Correct
        );
        // A sentence with "grows" in it is one answer: read, or not read.
        for typed in ["grows by about 200 rps", "it grows by roughly 200"] {
            assert_eq!(
                check(typed, 200.0, Unit::Rps, 0.02),
                Verdict::Correct,
                "{typed}"
            );
        }
        for typed in [
            "the line grows at 200 requests per second",
            "growing by 200/s",
        ] {
            assert_eq!(
                check(typed, 200.0, Unit::Rps, 0.02),
                Verdict::Unreadable,
                "{typed}"
            );
        }
        for typed in [
            "endless",
            "limitless",
            "it is overloaded",
            "it explodes",
            "it blows up",
        ] {
            assert_eq!(
                check(typed, f64::INFINITY, Unit::Requests, 0.01),
                Verdict::Correct,
                "{typed}"
            );
        }
        for typed in [
            "not overloaded",
            "never overloaded",
            "no overload",
            "never explodes",
            "it never blows up",
        ] {
            assert_eq!(
                check(typed, f64::INFINITY, Unit::Requests, 0.01),
                Verdict::ExpectedNoLimit,
                "{typed}"
            );
        }
        let v = check("no limit", 2000.0, Unit::Requests, 0.01);
        assert_eq!(v, Verdict::ExpectedNumber);
        assert_eq!(
            explain(&v, Unit::Requests),
            "Not quite: this answer is a number of requests, not \"no limit\". Try a hint."
        );
    }
}
