//! Runs the course's claims on more seeds than the tests do and prints, for
//! each, the range its runs measure beside its bounds: a tool for whoever
//! writes or reviews a claim, to see whether a bound has room or was fitted
//! to the twenty seeds the tests run.
//!
//!   claim-ranges [--seeds FIRST..LAST] [--lessons DIR] [CLAIM_ID ...]
//!
//! Seeds default to 1..100; the claims to all of them. Each line gives the
//! claim, its lesson, its bounds, the lowest, highest and median value
//! measured, the smallest room left to a bound as a share of the bound, and the seeds that
//! broke a bound. Exit status 1 when any claim broke a bound, 2 on bad input.

use std::path::PathBuf;
use std::process::ExitCode;
use tellers_course::claim::map_on_cores;
use tellers_course::parse::parse_course_with_claims;

/// What to run, from the command line.
struct Args {
    seeds: std::ops::RangeInclusive<u64>,
    lessons: PathBuf,
    ids: Vec<String>,
}

fn args() -> Result<Args, String> {
    let mut out = Args {
        seeds: 1..=100,
        lessons: PathBuf::from("lessons"),
        ids: vec![],
    };
    let mut it = std::env::args().skip(1);
    while let Some(a) = it.next() {
        match a.as_str() {
            "--seeds" => {
                let v = it
                    .next()
                    .ok_or("--seeds needs FIRST..LAST, such as 1..100")?;
                let (lo, hi) = v
                    .split_once("..")
                    .and_then(|(a, b)| Some((a.parse::<u64>().ok()?, b.parse::<u64>().ok()?)))
                    .filter(|(a, b)| a <= b)
                    .ok_or(format!(
                        "--seeds '{v}': give FIRST..LAST, whole numbers, FIRST ≤ LAST, such as 1..100"
                    ))?;
                out.seeds = lo..=hi;
            }
            "--lessons" => {
                out.lessons = it.next().ok_or("--lessons needs a folder")?.into();
            }
            "-h" | "--help" => {
                return Err(
                    "usage: claim-ranges [--seeds FIRST..LAST] [--lessons DIR] [CLAIM_ID ...]"
                        .into(),
                )
            }
            _ if a.starts_with('-') => {
                return Err(format!(
                    "unknown flag '{a}': the flags are --seeds FIRST..LAST and --lessons DIR"
                ))
            }
            _ => out.ids.push(a),
        }
    }
    Ok(out)
}

fn main() -> ExitCode {
    let a = match args() {
        Ok(a) => a,
        Err(e) => {
            eprintln!("claim-ranges: {e}");
            return ExitCode::from(2);
        }
    };
    let claims = match parse_course_with_claims(&a.lessons) {
        Ok((_, c)) => c,
        Err(e) => {
            eprintln!("claim-ranges: broken lesson: {e}");
            return ExitCode::FAILURE;
        }
    };
    if let Some(id) = a
        .ids
        .iter()
        .find(|id| !claims.iter().any(|(_, c)| &c.id == *id))
    {
        eprintln!("claim-ranges: no claim '{id}' in {}", a.lessons.display());
        return ExitCode::from(2);
    }
    let chosen: Vec<_> = claims
        .iter()
        .filter(|(_, c)| a.ids.is_empty() || a.ids.contains(&c.id))
        .collect();
    // One line a claim, worked out on every core, printed in course order.
    let lines = map_on_cores(&chosen, |(slug, c)| line(slug, c, a.seeds.clone()));
    let mut broken = 0;
    for l in lines {
        match l {
            Ok((text, ok)) => {
                println!("{text}");
                broken += usize::from(!ok);
            }
            Err(e) => {
                eprintln!("claim-ranges: {e}");
                return ExitCode::FAILURE;
            }
        }
    }
    if broken > 0 {
        eprintln!("claim-ranges: {broken} claims broke a bound");
        return ExitCode::FAILURE;
    }
    ExitCode::SUCCESS
}

/// A claim's line of the table and whether it held on every seed, or why
/// it could not be run.
type Line = Result<(String, bool), String>;

/// The claim's line of the table, and whether it held on every seed.
fn line(
    slug: &str,
    c: &tellers_course::claim::Claim,
    seeds: std::ops::RangeInclusive<u64>,
) -> Line {
    let mut values = Vec::new();
    let mut outside = Vec::new();
    for seed in seeds {
        let v = c
            .measure(seed)
            .map_err(|e| format!("{slug} {}: seed {seed}: {e}", c.id))?;
        if !c.holds(v) {
            outside.push(seed);
        }
        values.push(v);
    }
    let lo = values.iter().copied().fold(f64::INFINITY, f64::min);
    let hi = values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    // The middle value (the lower of the two middle ones for an even count):
    // why texts quote it beside the range.
    let mut sorted = values.clone();
    sorted.sort_by(f64::total_cmp);
    let median = sorted[(sorted.len() - 1) / 2];
    // Room to each bound as a share of the bound's size (negative: broken).
    let room = |bound: f64, v: f64| (v - bound) / bound.abs().max(1e-9);
    let margin = [
        c.at_least.map(|b| room(b, lo)),
        c.at_most.map(|b| -room(b, hi)),
    ]
    .into_iter()
    .flatten()
    .fold(f64::INFINITY, f64::min);
    // A sign is shown (1) or not (0): no room to a bound to speak of.
    let room_text = if c.sign.is_some() {
        "room —".to_string()
    } else {
        format!("room {:.1} %", margin * 100.0)
    };
    let text = format!(
        "{slug}\t{}\t{}\tmeasured {lo:.4} to {hi:.4}, median {median:.4}\t{room_text}\t{}",
        c.id,
        c.bounds(),
        if outside.is_empty() {
            String::new()
        } else {
            format!("OUTSIDE on seeds {outside:?}")
        }
    );
    Ok((text, outside.is_empty()))
}
