//! Command-line parsing for `tellers`, kept apart from printing so it can be
//! tested: flags (kebab-case) map one-to-one onto [`Scenario`] fields.

use crate::presets::{preset, preset_names};
use crate::scenario::{Accept, Arrivals, Dist, Model, Scenario};

/// What the user asked for.
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    /// Run one scenario.
    Simulate {
        scenario: Scenario,
        json: bool,
        series: bool,
    },
    /// Utilisation → analytic and simulated mean and p99.
    Sweep {
        scenario: Scenario,
        json: bool,
        points: Vec<f64>,
    },
    /// List presets (as JSON: every scenario in full).
    Presets { json: bool },
    /// Measure engine speed against a minimal M/M/c loop.
    Bench { requests: u64, json: bool },
    /// Print usage.
    Help,
}

/// Usage text.
pub const USAGE: &str = "\
tellers — simulate one server handling many requests

USAGE:
  tellers simulate [--preset NAME] [--scenario FILE] [FLAGS] [--json] [--series]
  tellers sweep    [--preset NAME] [--scenario FILE] [FLAGS] [--rhos 0.5,0.7,0.9] [--json]
  tellers presets  [--json]
  tellers bench    [--requests N] [--json]

FLAGS (override the preset or file):
  --model thread-per-request|thread-pool|event-loop|event-loop-workers
  --cores N  --threads N  --queue-limit N  --loops N  --accept shared|random|round-robin|idlest
  --workers N  --offload-above-ms X  --offload-heavy  --handoff-ms X  --spawn-ms X
  --cpu-ms X  --cpu-dist const|exp  --wait-ms X  --wait-dist const|exp  --write-ms X
  --heavy-share F  --heavy-cpu-ms X
  --arrivals poisson|uniform|batch|closed  --rps X  --count N  --clients N  --think-ms X
  --requests N  --duration-s T  --timeout-ms X  --drop-abandoned  --max-connections N
  --time-slice-ms X  --switch-us X  --seed N  --warmup F  --max-events N

SWEEP: each point runs the scenario at ρ × its capacity with Poisson
arrivals and 20,000 requests, the same points as the app's curve
(default ρ: 0.1, 0.2, … 0.9, 0.95).
";

fn num<T: std::str::FromStr>(flag: &str, v: &str, what: &str) -> Result<T, String> {
    v.parse::<T>()
        .map_err(|_| format!("{flag}: '{v}' is not {what}"))
}

fn pick<T: Copy>(flag: &str, v: &str, options: &[(&str, T)]) -> Result<T, String> {
    options
        .iter()
        .find(|(n, _)| *n == v)
        .map(|(_, t)| *t)
        .ok_or_else(|| {
            let names: Vec<_> = options.iter().map(|(n, _)| *n).collect();
            format!("{flag}: '{v}' is not one of {}", names.join(", "))
        })
}

/// Apply one `--flag value` to a scenario. Returns false if the flag is not a scenario flag.
fn apply(s: &mut Scenario, flag: &str, v: &str) -> Result<bool, String> {
    let f = flag;
    const INT: &str = "a whole number";
    const NUM: &str = "a number";
    match f {
        "--model" => {
            s.model = pick(
                f,
                v,
                &[
                    ("thread-per-request", Model::ThreadPerRequest),
                    ("thread-pool", Model::ThreadPool),
                    ("event-loop", Model::EventLoop),
                    ("event-loop-workers", Model::EventLoopWorkers),
                ],
            )?
        }
        "--accept" => {
            s.accept = pick(
                f,
                v,
                &[
                    ("shared", Accept::Shared),
                    ("random", Accept::Random),
                    ("round-robin", Accept::RoundRobin),
                    ("idlest", Accept::Idlest),
                ],
            )?
        }
        "--arrivals" => {
            s.arrivals = pick(
                f,
                v,
                &[
                    ("poisson", Arrivals::Poisson),
                    ("uniform", Arrivals::Uniform),
                    ("batch", Arrivals::Batch),
                    ("closed", Arrivals::Closed),
                ],
            )?
        }
        "--cpu-dist" => s.cpu_dist = pick(f, v, &[("const", Dist::Const), ("exp", Dist::Exp)])?,
        "--wait-dist" => s.wait_dist = pick(f, v, &[("const", Dist::Const), ("exp", Dist::Exp)])?,
        "--cores" => s.cores = num(f, v, INT)?,
        "--threads" => s.threads = num(f, v, INT)?,
        "--queue-limit" => s.queue_limit = Some(num(f, v, INT)?),
        "--loops" => s.loops = num(f, v, INT)?,
        "--workers" => s.workers = num(f, v, INT)?,
        "--offload-above-ms" => s.offload_above_ms = num(f, v, NUM)?,
        "--handoff-ms" => s.handoff_ms = num(f, v, NUM)?,
        "--spawn-ms" => s.spawn_ms = num(f, v, NUM)?,
        "--time-slice-ms" => s.time_slice_ms = num(f, v, NUM)?,
        "--switch-us" => s.switch_us = num(f, v, NUM)?,
        "--max-connections" => s.max_connections = Some(num(f, v, INT)?),
        "--cpu-ms" => s.cpu_ms = num(f, v, NUM)?,
        "--wait-ms" => s.wait_ms = num(f, v, NUM)?,
        "--write-ms" => s.write_ms = num(f, v, NUM)?,
        "--heavy-share" => s.heavy_share = num(f, v, NUM)?,
        "--heavy-cpu-ms" => s.heavy_cpu_ms = num(f, v, NUM)?,
        "--rps" => s.rps = num(f, v, NUM)?,
        "--count" => s.count = num(f, v, INT)?,
        "--clients" => s.clients = num(f, v, INT)?,
        "--think-ms" => s.think_ms = num(f, v, NUM)?,
        "--requests" => s.requests = Some(num(f, v, INT)?),
        "--duration-s" => s.duration_s = num(f, v, NUM)?,
        "--timeout-ms" => s.timeout_ms = Some(num(f, v, NUM)?),
        "--seed" => s.seed = num(f, v, INT)?,
        "--warmup" => s.warmup = num(f, v, NUM)?,
        "--max-events" => s.max_events = num(f, v, INT)?,
        _ => return Ok(false),
    }
    Ok(true)
}

/// Parse the arguments after the program name. `read_file` loads `--scenario FILE`.
pub fn parse(
    args: &[String],
    read_file: &dyn Fn(&str) -> Result<String, String>,
) -> Result<Command, String> {
    let Some(cmd) = args.first() else {
        return Ok(Command::Help);
    };
    let rest = &args[1..];
    match cmd.as_str() {
        "help" | "--help" | "-h" => return Ok(Command::Help),
        "presets" => {
            return match rest.first().map(String::as_str) {
                None => Ok(Command::Presets { json: false }),
                Some("--json") if rest.len() == 1 => Ok(Command::Presets { json: true }),
                Some(other) => Err(format!("presets: unknown flag '{other}' (allowed: --json)")),
            };
        }
        "bench" => {
            let mut requests = 2_000_000;
            let mut json = false;
            let mut i = 0;
            while i < rest.len() {
                match rest[i].as_str() {
                    "--json" => json = true,
                    "--requests" => {
                        let v = rest.get(i + 1).ok_or("--requests needs a value")?;
                        requests = num("--requests", v, "a whole number")?;
                        if !(1_000..=100_000_000).contains(&requests) {
                            return Err(format!(
                                "--requests: {requests} is out of range: allowed 1000–100000000"
                            ));
                        }
                        i += 1;
                    }
                    other => {
                        return Err(format!(
                            "bench: unknown flag '{other}' (allowed: --requests N, --json)"
                        ))
                    }
                }
                i += 1;
            }
            return Ok(Command::Bench { requests, json });
        }
        "simulate" | "sweep" => {}
        other => {
            return Err(format!(
                "unknown command '{other}': use simulate, sweep, presets or bench"
            ))
        }
    }

    // The base scenario: a preset or a file, then flags on top, in any order.
    let mut base = Scenario::default();
    let mut i = 0;
    while i < rest.len() {
        match rest[i].as_str() {
            "--preset" => {
                let name = rest.get(i + 1).ok_or("--preset needs a name")?;
                base = preset(name).ok_or_else(|| {
                    format!(
                        "--preset: no preset '{name}'; allowed: {}",
                        preset_names().join(", ")
                    )
                })?;
            }
            "--scenario" => {
                let path = rest.get(i + 1).ok_or("--scenario needs a file")?;
                let text = read_file(path)
                    .map_err(|e| format!("--scenario: cannot read '{path}': {e}"))?;
                base = Scenario::from_json(&text).map_err(|errs| {
                    let all: Vec<_> = errs.iter().map(|e| e.to_string()).collect();
                    format!("--scenario {path}: {}", all.join("; "))
                })?;
            }
            _ => {}
        }
        i += 1;
    }
    let mut s = base;
    let (mut json, mut series, mut points) = (false, false, crate::sweep::SWEEP_RHOS.to_vec());
    let mut duration_given = false;
    let mut i = 0;
    while i < rest.len() {
        let flag = rest[i].as_str();
        match flag {
            "--json" => json = true,
            "--series" => series = true,
            "--drop-abandoned" => s.drop_abandoned = true,
            "--offload-heavy" => s.offload_heavy = true,
            "--preset" | "--scenario" => i += 1,
            _ => {
                let v = rest
                    .get(i + 1)
                    .ok_or_else(|| format!("{flag} needs a value"))?;
                if flag == "--rhos" {
                    points = v
                        .split(',')
                        .map(|x| num::<f64>("--rhos", x.trim(), "a number"))
                        .collect::<Result<_, _>>()?;
                    if points.is_empty() || points.iter().any(|p| !(0.01..=0.99).contains(p)) {
                        return Err("--rhos: each utilisation must be within 0.01–0.99".into());
                    }
                } else if !apply(&mut s, flag, v)? {
                    return Err(format!("unknown flag '{flag}' (see tellers help)"));
                }
                duration_given |= flag == "--duration-s";
                i += 1;
            }
        }
        i += 1;
    }
    // `--requests N` runs until all N are done: the duration becomes a far safety bound.
    if s.requests.is_some() && !duration_given {
        s.duration_s = 86_400.0;
    }
    if let Some(e) = s.validate().first() {
        return Err(format!("--{}: {}", e.field.replace('_', "-"), e.message));
    }
    Ok(if cmd == "simulate" {
        Command::Simulate {
            scenario: s,
            json,
            series,
        }
    } else {
        Command::Sweep {
            scenario: s,
            json,
            points,
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(line: &str) -> Result<Command, String> {
        let args: Vec<String> = line.split_whitespace().map(String::from).collect();
        parse(&args, &|_| Err("no files in tests".into()))
    }

    #[test]
    fn flags_override_a_preset_in_any_order() {
        let Command::Simulate { scenario, json, .. } =
            run("simulate --threads 40 --preset sale-day --json").unwrap()
        else {
            panic!()
        };
        assert_eq!(scenario.threads, 40);
        assert_eq!(scenario.rps, 400.0);
        assert!(json);
    }

    #[test]
    fn bad_values_name_the_flag_and_what_is_allowed() {
        let e = run("simulate --cores 0").unwrap_err();
        assert!(
            e.starts_with("--cores:") && e.contains("allowed 1–1024"),
            "{e}"
        );
        let e = run("simulate --model fibers").unwrap_err();
        assert!(e.contains("--model") && e.contains("event-loop"), "{e}");
        let e = run("simulate --rps fast").unwrap_err();
        assert_eq!(e, "--rps: 'fast' is not a number");
        let e = run("simulate --preset nope").unwrap_err();
        assert!(e.contains("sale-day"), "{e}");
        assert!(run("simulate --bogus 1")
            .unwrap_err()
            .contains("unknown flag '--bogus'"));
        assert!(run("simulate --rps").unwrap_err().contains("needs a value"));
    }

    #[test]
    fn requests_lift_the_duration_bound_unless_given() {
        let Command::Simulate { scenario, .. } = run("simulate --requests 100").unwrap() else {
            panic!()
        };
        assert_eq!(scenario.duration_s, 86_400.0);
        let Command::Simulate { scenario, .. } =
            run("simulate --requests 100 --duration-s 5").unwrap()
        else {
            panic!()
        };
        assert_eq!(scenario.duration_s, 5.0);
    }
}
