//! Command-line parsing for `tellers`, on clap, kept apart from printing so
//! it can be tested. The scenario flags are not written here: each is made
//! from its entry in [`FIELDS`] (name → `--kebab-case`, help, allowed values,
//! default), so a new field is a new flag, in `--help`, `tellers help` and
//! the shell completions, with nothing to add.
//!
//! Errors keep one contract: one line naming the flag and what is allowed,
//! and exit status 2 (the binary's `main`).

use crate::fields::{kebab, nearest, Group, Kind, UseRule};
use crate::presets::{preset, preset_names};
use crate::scenario::{Field, Scenario, FIELDS};
use clap::error::{ContextKind, ContextValue, ErrorKind};
use clap::{Arg, ArgAction, ArgMatches};

/// What the user asked for.
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    /// Run one scenario.
    Simulate {
        /// The scenario: preset or file, then flags.
        scenario: Scenario,
        /// Print JSON instead of a table.
        json: bool,
        /// Include the time series in the JSON.
        series: bool,
        /// A note for each field flag given that the scenario does not use.
        notes: Vec<String>,
    },
    /// Utilisation → analytic and simulated mean and p99.
    Sweep {
        /// The scenario whose curve is swept.
        scenario: Scenario,
        /// Print JSON instead of a table.
        json: bool,
        /// Utilisations to run, 0.01–0.99.
        points: Vec<f64>,
        /// A note for each field flag given that the scenario does not use.
        notes: Vec<String>,
    },
    /// List presets (as JSON: every scenario in full).
    Presets {
        /// Print JSON.
        json: bool,
    },
    /// Measure engine speed against a minimal M/M/c loop.
    Bench {
        /// Requests per contestant.
        requests: u64,
        /// Print JSON.
        json: bool,
    },
    /// Print the usage and every scenario flag, or one field in full.
    Help {
        /// The field asked about, if any.
        field: Option<&'static Field>,
    },
    /// Print a shell completion script.
    Completions {
        /// The shell.
        shell: clap_complete::Shell,
    },
}

/// The commands, before the list of scenario flags.
pub const USAGE: &str = "\
tellers — simulate one server handling many requests

USAGE:
  tellers simulate [--preset NAME | --scenario FILE] [FLAGS] [--json] [--series]
  tellers sweep    [--preset NAME | --scenario FILE] [FLAGS] [--rhos 0.5,0.7,0.9] [--json]
  tellers presets  [--json]
  tellers bench    [--requests N] [--json]
  tellers help [FIELD]               every flag below, or one field in full
  tellers completions bash|zsh|fish  a completion script for your shell
  tellers COMMAND --help             one command's flags (or tellers help COMMAND)
  tellers --version                  which engine made a report

EXAMPLES:
  tellers simulate --preset mm1
  tellers simulate --preset sale-day --threads 40 --json
  tellers sweep --preset mm4 --rhos 0.5,0.8,0.9

SWEEP: each point runs the scenario at ρ × its capacity with Poisson
arrivals and 20,000 requests (keep-alive connections: about 20,000,
measured once the connections reach the rate), the same points as the
app's curve (default ρ: 0.1, 0.2, … 0.9, 0.95).

FLAGS (override the preset or file; each is a scenario field, the same
name in snake_case in URLs and scenario files):";

/// The one top-level help: the usage, then every scenario flag. Bare
/// `tellers`, `tellers help`, `tellers --help` and `-h` all print it
/// (`--help` printed clap's list of commands, another text than bare
/// `tellers`).
pub fn top_help() -> String {
    format!("{USAGE}\n\n{}", fields_help())
}

/// The word a flag's value is called in help: `N`, `MS`, `NAME`.
fn value_name(f: &Field) -> &'static str {
    match f.kind {
        Kind::Int { .. } => "N",
        Kind::Real { .. } => match f.unit {
            "ms" => "MS",
            "s" => "S",
            "µs" => "US",
            "KB" => "KB",
            _ => "X",
        },
        Kind::Switch => "BOOL",
        Kind::Choice(_) => "NAME",
        Kind::Schedule => "T:RPS,…",
    }
}

/// One field as `tellers help` lists it: the flag and its value, then the
/// help, what is allowed and the default.
fn field_line(f: &Field) -> String {
    let flag = match f.kind {
        Kind::Switch => f.flag(),
        _ => format!("{} {}", f.flag(), value_name(f)),
    };
    format!(
        "  {flag:<24} {} [{}; default {}]",
        f.help,
        f.allowed(),
        crate::text::group_thousands(&f.default_text())
    )
}

/// Every scenario flag, grouped: the list `tellers help` prints and the
/// README repeats (a test keeps the two equal).
pub fn fields_help() -> String {
    let mut out = String::new();
    for g in Group::ALL {
        out.push_str(&format!("{}:\n", g.heading()));
        for f in FIELDS.iter().filter(|f| f.group == g) {
            out.push_str(&field_line(f));
            out.push('\n');
        }
    }
    out
}

/// One field in full, for `tellers help FIELD`.
pub fn field_help(f: &Field) -> String {
    let flag = match f.kind {
        Kind::Switch => format!("{} (or {} false)", f.flag(), f.flag()),
        _ => format!("{} {}", f.flag(), value_name(f)),
    };
    let mut out = format!(
        "{label}\n\n  {help}\n\n  flag:     {flag}\n  URL key:  {name}=VALUE (scenario files: \"{name}\")\n  allowed:  {allowed}\n  default:  {default}\n  used by:  {used}\n",
        label = f.label,
        help = f.help,
        name = f.name,
        allowed = f.allowed(),
        default = crate::text::group_thousands(&f.default_text()),
        used = f.used.describe(),
    );
    for (name, label) in f.choices() {
        out.push_str(&format!("    {name:<20} {label}\n"));
    }
    out
}

/// A value parser for the completions' sake: it takes any text, as the
/// default one does (the field table then checks it, with its own one-line
/// errors), but names the values a shell may offer after the flag. Without
/// it every flag's completion was a file name.
/// Each value is a (name, description) pair; the description may be empty.
#[derive(Clone)]
struct Offer(Vec<(&'static str, &'static str)>);

impl clap::builder::TypedValueParser for Offer {
    type Value = String;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&Arg>,
        value: &std::ffi::OsStr,
    ) -> Result<String, clap::Error> {
        clap::builder::StringValueParser::new().parse_ref(cmd, arg, value)
    }

    fn possible_values(
        &self,
    ) -> Option<Box<dyn Iterator<Item = clap::builder::PossibleValue> + '_>> {
        Some(Box::new(self.0.iter().map(|&(name, about)| {
            clap::builder::PossibleValue::new(name).help((!about.is_empty()).then_some(about))
        })))
    }
}

/// An argument whose completions are `values` (not listed again in
/// `--help`, whose text already says what is allowed).
fn offering(arg: Arg, values: Vec<(&'static str, &'static str)>) -> Arg {
    arg.value_parser(Offer(values)).hide_possible_values(true)
}

/// An argument whose value is typed, not completed (a number, a list):
/// shells offer nothing rather than file names.
fn typed(arg: Arg) -> Arg {
    arg.value_hint(clap::ValueHint::Other)
}

/// The scenario flag made from a field.
fn field_arg(f: &'static Field) -> Arg {
    let long = kebab(f.name);
    let help = format!(
        "{} [{}; default {}]",
        f.help,
        f.allowed(),
        crate::text::group_thousands(&f.default_text())
    );
    let arg = Arg::new(f.name)
        .long(long)
        .help(help)
        .help_heading(f.group.heading())
        .action(ArgAction::Set);
    match f.kind {
        // `--drop-abandoned` alone means true; `--drop-abandoned false` turns it off.
        Kind::Switch => offering(arg, vec![("true", ""), ("false", "")])
            .num_args(0..=1)
            .default_missing_value("true")
            .value_name("BOOL"),
        Kind::Choice(choices) => offering(arg, choices.to_vec()).value_name(value_name(f)),
        // `--cores -1` and `--rps -inf` are values out of range or not
        // numbers (the field says which), not unknown flags `-1`, `-i`.
        _ => typed(arg)
            .value_name(value_name(f))
            .allow_hyphen_values(true),
    }
}

fn scenario_command(name: &'static str, about: &'static str) -> clap::Command {
    clap::Command::new(name)
        .about(about)
        .arg(offering(
            Arg::new("preset")
                .long("preset")
                .value_name("NAME")
                .help("Start from a preset (tellers presets lists them)")
                .conflicts_with("scenario"),
            crate::presets::presets()
                .iter()
                .map(|p| (p.name, p.about))
                .collect(),
        ))
        .arg(
            Arg::new("scenario")
                .long("scenario")
                .value_name("FILE")
                .value_hint(clap::ValueHint::FilePath)
                .help("Start from a scenario file (JSON; field names as in URLs; - reads the standard input)"),
        )
        .arg(
            Arg::new("json")
                .long("json")
                .action(ArgAction::SetTrue)
                .help("Print JSON"),
        )
        // `sweep` has no flags for what each of its points sets itself.
        .args(
            FIELDS
                .iter()
                .filter(|f| name != "sweep" || !crate::sweep::SWEEP_SETS.contains(&f.name))
                .map(field_arg),
        )
}

/// The whole command line, as clap sees it (also what the completions describe).
pub fn command() -> clap::Command {
    clap::Command::new("tellers")
        .about("Simulate one server handling many requests")
        // The same text bare `tellers` and `tellers help` print.
        .override_help(top_help())
        // Which engine made a report, for numbers compared across machines.
        .version(env!("CARGO_PKG_VERSION"))
        .disable_help_subcommand(true)
        .subcommand_required(false)
        .subcommand(
            scenario_command("simulate", "Run one scenario and print its report")
                .after_help(
                    "Examples:\n  tellers simulate --preset mm1\n  \
                     tellers simulate --preset sale-day --threads 40 --json\n  \
                     tellers simulate --scenario class.json --seed 7\n  \
                     tellers simulate --scenario - < class.json",
                )
                .arg(
                Arg::new("series")
                    .long("series")
                    .action(ArgAction::SetTrue)
                    .help("With --json: include the time series (at most 200 points, each an average over its interval)"),
            ),
        )
        .subcommand(
            scenario_command(
                "sweep",
                "Utilisation → mean and p99 response time, simulated and in theory",
            )
            .after_help(
                "Examples:\n  tellers sweep --preset mm4\n  \
                 tellers sweep --preset mm1 --rhos 0.5,0.8,0.9,0.95 --json",
            )
            .arg(typed(
                Arg::new("rhos")
                    .long("rhos")
                    .value_name("LIST")
                    .allow_hyphen_values(true)
                    .help("Utilisations to run, comma-separated, each 0.01–0.99"),
            )),
        )
        .subcommand(
            clap::Command::new("presets")
                .about("List the presets (with --json: every scenario in full)")
                .arg(
                    Arg::new("json")
                        .long("json")
                        .action(ArgAction::SetTrue)
                        .help("Print every preset's scenario, all its fields, as JSON"),
                ),
        )
        .subcommand(
            clap::Command::new("bench")
                .about("Engine speed beside a minimal M/M/c loop, side by side in one run")
                .arg(typed(
                    Arg::new("requests")
                        .long("requests")
                        .value_name("N")
                        .allow_hyphen_values(true)
                        .help("Requests per contestant, 1,000–100,000,000 [default 2,000,000]"),
                ))
                .arg(
                    Arg::new("json")
                        .long("json")
                        .action(ArgAction::SetTrue)
                        .help("Print JSON"),
                ),
        )
        .subcommand(
            clap::Command::new("help")
                .about("Every scenario flag, or one field in full")
                .arg(offering(
                    Arg::new("field")
                        .value_name("FIELD")
                        .allow_hyphen_values(true)
                        .help("A scenario field, such as cpu_ms; or a command, such as simulate"),
                    FIELDS.iter().map(|f| (f.name, f.label)).collect(),
                )),
        )
        .subcommand(
            clap::Command::new("completions")
                .about("Print a completion script: tellers completions bash > tellers.bash")
                .arg(offering(
                    Arg::new("shell")
                        .value_name("SHELL")
                        .required(true)
                        .help("bash, zsh or fish"),
                    vec![("bash", ""), ("zsh", ""), ("fish", "")],
                )),
        )
}

/// A clap error as one line: what is wrong, and what is allowed or meant.
/// `sub` is the command typed, `None` when the line starts with a flag;
/// `later` is a command typed after such a flag, if any.
fn one_line(err: &clap::Error, sub: Option<&str>, later: Option<&str>) -> String {
    let ctx = |k: ContextKind| match err.get(k) {
        Some(ContextValue::String(s)) => Some(s.clone()),
        Some(ContextValue::Strings(v)) => Some(v.join(", ")),
        _ => None,
    };
    let arg = ctx(ContextKind::InvalidArg).unwrap_or_default();
    let flag = arg.split_whitespace().next().unwrap_or("").to_owned();
    match err.kind() {
        ErrorKind::UnknownArgument
            if sub == Some("sweep")
                && FIELDS.iter().any(|f| {
                    crate::sweep::SWEEP_SETS.contains(&f.name)
                        && f.flag() == flag.split('=').next().unwrap_or("")
                }) =>
        {
            format!(
                "{}: sweep sets it for each point (random arrivals at each utilisation, no timeout, \
                 retries or shedding); leave it out, or use simulate",
                crate::fields::clip(flag.split('=').next().unwrap_or(""))
            )
        }
        ErrorKind::UnknownArgument if sub.is_some_and(|sub| owners(&flag, sub).is_some()) => {
            let owners = sub.and_then(|sub| owners(&flag, sub)).unwrap_or_default();
            format!(
                "{} goes with tellers {owners}, not {}",
                crate::fields::clip(&flag),
                sub.unwrap_or_default()
            )
        }
        // A command's flag typed before any command (`tellers --rps 5 simulate`).
        ErrorKind::UnknownArgument if sub.is_none() && commands_with(&flag).is_some() => {
            let commands = commands_with(&flag).unwrap_or_default();
            let mut takes = commands.split(" or ");
            // The command typed after it, when it is one that takes the flag.
            let command = later
                .filter(|c| takes.clone().any(|t| t == *c))
                .or_else(|| takes.next())
                .unwrap_or_default();
            format!(
                "{} goes after the command: tellers {command} {} …",
                crate::fields::clip(&flag),
                crate::fields::clip(&flag)
            )
        }
        // `simulate -- --rps 5`: after `--` a flag is a bare word ("did you
        // mean '--rps'?" of '--rps' itself).
        ErrorKind::UnknownArgument if nearest_flag(&arg, sub).as_deref() == Some(arg.as_str()) => {
            format!(
                "'{}' comes after '--', which ends the flags: leave out the '--'",
                crate::fields::clip(&arg)
            )
        }
        // A word where only flags go (`tellers presets extra`, `tellers
        // help cores threads`) is not an unknown flag.
        ErrorKind::UnknownArgument if !arg.starts_with('-') => match sub {
            Some("help") => format!(
                "'{}': tellers help explains one field at a time",
                crate::fields::clip(&arg)
            ),
            Some("completions") => format!(
                "'{}': tellers completions takes one shell, bash, zsh or fish",
                crate::fields::clip(&arg)
            ),
            Some(sub) => format!(
                "unexpected '{}': tellers {sub} takes flags only (see tellers {sub} --help)",
                crate::fields::clip(&arg)
            ),
            None => format!(
                "unexpected '{}' (see tellers --help)",
                crate::fields::clip(&arg)
            ),
        },
        ErrorKind::UnknownArgument => match nearest_flag(&arg, sub) {
            Some(s) => format!(
                "unknown flag '{}'; did you mean '{s}'? (see tellers help)",
                crate::fields::clip(&arg)
            ),
            None => format!(
                "unknown flag '{}' (see tellers help)",
                crate::fields::clip(&arg)
            ),
        },
        ErrorKind::InvalidSubcommand => {
            let sub = ctx(ContextKind::InvalidSubcommand).unwrap_or(arg);
            match ctx(ContextKind::SuggestedSubcommand) {
                Some(s) => format!("unknown command '{sub}'; did you mean '{s}'?"),
                None => format!(
                    "unknown command '{sub}': use simulate, sweep, presets, bench, help or completions"
                ),
            }
        }
        ErrorKind::InvalidValue | ErrorKind::NoEquals => format!("{flag} needs a value"),
        ErrorKind::ArgumentConflict => {
            let other = ctx(ContextKind::PriorArg).unwrap_or_default();
            let other = other.split_whitespace().next().unwrap_or("");
            if other == flag || other.is_empty() {
                format!("{flag} is given twice: give it once")
            } else {
                format!("{flag} cannot go with {other}: give one of them")
            }
        }
        ErrorKind::MissingRequiredArgument if sub == Some("completions") => {
            "completions: which shell? tellers completions bash, zsh or fish".to_owned()
        }
        ErrorKind::MissingRequiredArgument => format!("missing {arg}"),
        _ => {
            // Fall back to clap's own first line, without its "error: " prefix.
            let text = err.render().to_string();
            let first = text.lines().next().unwrap_or("bad command line");
            first.trim_start_matches("error: ").to_owned()
        }
    }
}

/// The long flags of subcommand `sub` (all subcommands' when `sub` is not
/// one), as clap's own definition has them.
fn flags_of(sub: Option<&str>) -> Vec<String> {
    let cmd = command();
    let mut subs: Vec<&clap::Command> = cmd.get_subcommands().collect();
    if let Some(one) = sub.and_then(|sub| cmd.find_subcommand(sub)) {
        subs = vec![one];
    }
    let mut flags: Vec<String> = subs
        .iter()
        .flat_map(|c| c.get_arguments().filter_map(|a| a.get_long()))
        .map(|l| format!("--{l}"))
        .collect();
    flags.sort();
    flags.dedup();
    flags
}

/// Whether `flag` (as typed, without `=value`) must be followed by a value:
/// every field's flag but a switch's, and the commands' own value flags.
fn needs_value(flag: &str) -> bool {
    ["--preset", "--scenario", "--rhos", "--requests"].contains(&flag)
        || FIELDS
            .iter()
            .any(|f| !matches!(f.kind, Kind::Switch) && f.flag() == flag)
}

/// The subcommands a flag belongs to ("simulate" or "simulate or sweep"),
/// when `sub` is a subcommand and the flag is not one of its own.
fn owners(flag: &str, sub: &str) -> Option<String> {
    command().find_subcommand(sub)?;
    commands_with(flag).filter(|names| !names.split(" or ").any(|n| n == sub))
}

/// The commands that take `flag` ("simulate or sweep"), if any does.
fn commands_with(flag: &str) -> Option<String> {
    let flag = flag.split('=').next().unwrap_or(flag);
    let cmd = command();
    let names: Vec<&str> = cmd
        .get_subcommands()
        .filter(|c| flags_of(Some(c.get_name())).iter().any(|f| f == flag))
        .map(|c| c.get_name())
        .collect();
    (!names.is_empty()).then(|| names.join(" or "))
}

/// The flag of subcommand `sub` a mistyped one meant, if one is near: the
/// flag with its unit left off (`--timeout` for `--timeout-ms`), a letter
/// short or over at the end (`--thread` for `--threads`), the one flag it
/// begins (`--shed` for `--shed-after-ms`), or else one at most two edits
/// away (a swap of neighbours counts as one), so `--rsp` finds `--rps`.
fn nearest_flag(typed: &str, sub: Option<&str>) -> Option<String> {
    let typed = typed.split('=').next().unwrap_or(typed);
    let flags = flags_of(sub);
    if flags.iter().any(|f| f == typed) {
        return Some(typed.to_owned());
    }
    let only = |found: Vec<&String>| (found.len() == 1).then(|| found[0].clone());
    let unit_left_off = only(
        flags
            .iter()
            .filter(|f| {
                f.strip_prefix(typed)
                    .and_then(|rest| rest.strip_prefix('-'))
                    .is_some_and(|unit| ["ms", "s", "us", "kb"].contains(&unit))
            })
            .collect(),
    );
    let begun = || {
        only(
            flags
                .iter()
                .filter(|f| typed.len() > 3 && f.starts_with(&format!("{typed}-")))
                .collect(),
        )
    };
    // A letter short or over at the end first: `--thread` is `--threads`,
    // not `--thread-cap` (and `--shed` is not `--seed`).
    let last_letter = || {
        let one = |long: &str, short: &str| {
            long.strip_prefix(short)
                .is_some_and(|rest| rest.chars().count() == 1)
        };
        flags
            .iter()
            .find(|f| one(f, typed) || one(typed, f))
            .cloned()
    };
    unit_left_off
        .or_else(last_letter)
        .or_else(begun)
        .or_else(|| nearest(typed, flags))
}

/// The preset nearest to a misspelt name, if one is near (as for flags:
/// [`nearest`]), so `sael-day` finds `sale-day` and `mm11` finds `mm1`.
fn nearest_preset(typed: &str) -> Option<&'static str> {
    nearest(typed, preset_names())
}

/// The value of a flag the user gave, if they gave it.
fn given<'a>(m: &'a ArgMatches, id: &str) -> Option<&'a String> {
    // `sweep` does not define the fields its points set: not given there.
    m.try_get_one::<String>(id).ok().flatten()
}

/// The scenario of `simulate` / `sweep`: a preset or a file, then every
/// field flag on top, whatever the order on the line, then the whole
/// checked. `--requests N` runs until all N are done: the duration becomes
/// a far safety bound unless a flag or the file gives one.
fn scenario_from(
    m: &ArgMatches,
    read_file: &dyn Fn(&str) -> Result<String, String>,
) -> Result<Scenario, String> {
    let mut file_sets_duration = false;
    // The fields the file names, for a rule broken where it set neither.
    let mut file_fields: Vec<String> = Vec::new();
    // The file's path as shown, for a whole-scenario error no flag caused.
    let mut file_shown: Option<String> = None;
    let mut s = if let Some(typed) = given(m, "preset") {
        // Names are lower case: `MM1` is mm1 (it suggested md1).
        let name = &typed.to_ascii_lowercase();
        preset(name).ok_or_else(|| {
            let near = nearest_preset(name)
                .map(|n| format!(" (did you mean '{n}'?)"))
                .unwrap_or_default();
            format!(
                "--preset: no preset '{}'{near}; allowed: {}",
                crate::fields::clip(typed),
                preset_names().join(", ")
            )
        })?
    } else if let Some(path) = given(m, "scenario") {
        // The path as given, control characters (a newline, a terminal
        // escape) shown as '?'.
        let shown: String = path
            .chars()
            .map(|c| if c.is_control() { '?' } else { c })
            .collect();
        let text =
            read_file(path).map_err(|e| format!("--scenario: cannot read '{shown}': {e}"))?;
        file_shown = Some(shown.clone());
        let value = serde_json::from_str::<serde_json::Value>(
            text.strip_prefix('\u{feff}').unwrap_or(&text),
        )
        .ok();
        // A report of `simulate --json` runs again: its "scenario" is the
        // scenario that made it, every field (it was refused on its first
        // figure, "'admitted_rps' is not a scenario field", and 51 names).
        let inner = value.as_ref().and_then(report_scenario);
        // The scenario the file gives: a report's, or the file itself.
        let given_scenario = inner.or(value.as_ref());
        // A run length the file sets is kept with --requests, as a flag's is.
        file_sets_duration =
            given_scenario.is_some_and(|v| v.get("duration_s").is_some_and(|d| !d.is_null()));
        file_fields = given_scenario
            .and_then(serde_json::Value::as_object)
            .map(|o| o.keys().cloned().collect())
            .unwrap_or_default();
        let text = inner.map_or(text, |v| v.to_string());
        // Each field checked here, the scenario as a whole once the flags
        // are on it: a flag may mend what the file has (a stack used above
        // the reserve that --stack-reserved-kb raises).
        Scenario::from_json_fields(&text).map_err(|errs| {
            // A whole-file error names no field ("scenario: not a valid
            // scenario: …" said it twice).
            let all: Vec<_> = errs
                .iter()
                .map(|e| {
                    if e.field == "scenario" {
                        e.message.clone()
                    } else {
                        e.to_string()
                    }
                })
                .collect();
            format!("--scenario {shown}: {}", all.join("; "))
        })?
    } else {
        Scenario::default()
    };
    for f in FIELDS {
        if let Some(text) = given(m, f.name) {
            f.set_text(&mut s, text)
                .map_err(|e| format!("{}: {e}", f.flag()))?;
        }
    }
    if s.requests.is_some() && given(m, "duration_s").is_none() && !file_sets_duration {
        s.duration_s = crate::scenario::MAX_DURATION_S;
    }
    if let Some(e) = s.validate().first() {
        // Named by the flag that set the field, or else by the file.
        return Err(match &file_shown {
            Some(file) if given(m, &e.field).is_none() && file_fields.contains(&e.field) => {
                format!("--scenario {file}: {}: {}", e.field, e.message)
            }
            // A field no flag gave broke a rule with one that did: said
            // so, or `--stack-reserved-kb 50` blamed --stack-used-kb as if
            // it had been typed.
            _ if given(m, &e.field).is_none() => format!(
                "--{} (not given: {}): {}",
                kebab(&e.field),
                if given(m, "preset").is_some() {
                    "the preset's value"
                } else {
                    "its default"
                },
                e.message
            ),
            _ => format!("--{}: {}", kebab(&e.field), e.message),
        });
    }
    Ok(s)
}

/// Reads `tellers help FIELD`'s field: `queue_limit`, `queue-limit` or `--queue-limit`.
fn field_named(name: &str) -> Result<&'static Field, String> {
    let key = name.trim_start_matches('-').replace('-', "_");
    // An empty name is closest to the shortest field: no suggestion then.
    if key.trim().is_empty() {
        return Err(
            "help: give a field's name, such as rps or cores (tellers help lists them)".into(),
        );
    }
    FIELDS.iter().find(|f| f.name == key).ok_or_else(|| {
        // A command's own flag (`rhos`, `json`) is not a field: said so,
        // where "did you mean 'rps'?" sent `tellers help rhos` astray.
        if let Some(commands) = commands_with(&format!("--{}", kebab(&key))) {
            return format!(
                "help: --{} is a flag of tellers {commands}, not a scenario field (see tellers {} --help)",
                crate::fields::clip(&kebab(&key)),
                commands.split(" or ").next().unwrap_or_default()
            );
        }
        // One rule for "did you mean", as for a flag or a preset.
        let near = nearest(&key, FIELDS.iter().map(|f| f.name))
            .map(|n| format!("; did you mean '{}'?", kebab(n)))
            .unwrap_or_default();
        format!(
            "help: no field '{}'{near} (tellers help lists them)",
            crate::fields::clip(name)
        )
    })
}

/// Parse the arguments after the program name. `read_file` loads `--scenario FILE`.
/// `Err` is the one-line message for exit status 2; `--help` is returned as
/// `Err` too, with clap's help text, by [`parse_or_help`].
pub fn parse(
    args: &[String],
    read_file: &dyn Fn(&str) -> Result<String, String>,
) -> Result<Command, String> {
    match parse_or_help(args, read_file) {
        Ok(cmd) => Ok(cmd),
        Err(Outcome::Message(m)) => Err(m),
        Err(Outcome::Help(text)) => Err(text),
    }
}

/// Why parsing did not give a command.
#[derive(Clone, Debug, PartialEq)]
pub enum Outcome {
    /// Bad input: one line, exit status 2.
    Message(String),
    /// `--help` was asked for: print this and exit 0.
    Help(String),
}

/// [`parse`], telling a `--help` request apart from an error.
pub fn parse_or_help(
    args: &[String],
    read_file: &dyn Fn(&str) -> Result<String, String>,
) -> Result<Command, Outcome> {
    // A flag that needs a value, followed by a flag: the value is missing.
    // (Value flags take values that start with '-', such as "-0.5", so clap
    // would take the flag after as the value.)
    // Cheapest test first: the clap command behind `flags_of` is built
    // only for a flag followed by a flag, not for every value given.
    if let Some(w) = args
        .windows(2)
        .find(|w| w[1].starts_with("--") && needs_value(&w[0]) && flags_of(None).contains(&w[1]))
    {
        return Err(Outcome::Message(format!("{} needs a value", w[0])));
    }
    let argv = std::iter::once("tellers".to_owned()).chain(args.iter().cloned());
    let m = match command().try_get_matches_from(argv) {
        Ok(m) => m,
        // `tellers --version extra`: clap prints the version and drops
        // the rest, which was then read as nothing.
        Err(e) if e.kind() == ErrorKind::DisplayVersion => {
            let extra = args
                .iter()
                .find(|a| !matches!(a.as_str(), "--version" | "-V"));
            return Err(match extra {
                Some(extra) => Outcome::Message(format!(
                    "--version takes nothing else; leave out '{}'",
                    crate::fields::clip(extra)
                )),
                None => Outcome::Help(e.render().to_string()),
            });
        }
        Err(e) if e.kind() == ErrorKind::DisplayHelp => {
            return Err(Outcome::Help(e.render().to_string()))
        }
        Err(e) => {
            // The subcommand typed, for flags that belong to another one;
            // none when the line starts with a flag (clap stops there).
            let sub = args
                .iter()
                .find(|a| !a.starts_with('-'))
                .filter(|_| args.first().is_some_and(|a| !a.starts_with('-')))
                .map(String::as_str);
            let cmd = command();
            let later = args
                .iter()
                .find(|a| cmd.find_subcommand(a.as_str()).is_some())
                .map(String::as_str);
            return Err(Outcome::Message(one_line(&e, sub, later)));
        }
    };
    let msg = Outcome::Message;
    let flag = |m: &ArgMatches, id: &str| m.get_flag(id);
    Ok(match m.subcommand() {
        None => Command::Help { field: None },
        Some(("help", sub)) => match given(sub, "field") {
            // `tellers help simulate` is `tellers simulate --help`, as in
            // git and cargo.
            Some(name) if name != "help" && command().find_subcommand(name).is_some() => {
                return parse_or_help(&[name.clone(), "--help".to_owned()], read_file);
            }
            Some(name) => Command::Help {
                field: Some(field_named(name).map_err(msg)?),
            },
            None => Command::Help { field: None },
        },
        Some(("completions", sub)) => {
            let name = given(sub, "shell").map(String::as_str).unwrap_or("");
            let shell = match name {
                "bash" => clap_complete::Shell::Bash,
                "zsh" => clap_complete::Shell::Zsh,
                "fish" => clap_complete::Shell::Fish,
                other => {
                    return Err(msg(format!(
                        "completions: '{}' is not a shell Tellers writes for; allowed bash, zsh or fish",
                        crate::fields::clip(other)
                    )))
                }
            };
            Command::Completions { shell }
        }
        Some(("presets", sub)) => Command::Presets {
            json: flag(sub, "json"),
        },
        Some(("bench", sub)) => {
            let requests = match given(sub, "requests") {
                None => 2_000_000,
                Some(v) => bench_requests(v).map_err(msg)?,
            };
            Command::Bench {
                requests,
                json: flag(sub, "json"),
            }
        }
        Some(("simulate", sub)) => {
            if flag(sub, "series") && !flag(sub, "json") {
                return Err(msg(
                    "--series: the time series is printed only in JSON; add --json".into(),
                ));
            }
            let scenario = scenario_from(sub, read_file).map_err(msg)?;
            Command::Simulate {
                notes: unused_flag_notes(sub, &scenario)
                    .into_iter()
                    .chain(budget_note(&scenario))
                    .collect(),
                scenario,
                json: flag(sub, "json"),
                series: flag(sub, "series"),
            }
        }
        Some(("sweep", sub)) => {
            let points = match given(sub, "rhos") {
                None => crate::sweep::SWEEP_RHOS.to_vec(),
                Some(v) => {
                    const ALLOWED: &str =
                        "allowed utilisations 0.01–0.99, comma-separated, such as 0.5,0.8,0.9";
                    let points = v
                        .split(',')
                        .map(|x| match crate::text::number(x) {
                            None if x.trim().is_empty() => Err(format!(
                                "--rhos: an empty point (a comma at the end, or two together); {ALLOWED}"
                            )),
                            None => Err(format!(
                                "--rhos: '{}' is not a number; {ALLOWED}",
                                crate::fields::clip(x)
                            )),
                            Some(p) if !(0.01..=0.99).contains(&p) => Err(format!(
                                "--rhos: {} is out of range; {ALLOWED}",
                                crate::fields::clip(x.trim())
                            )),
                            Some(p) => Ok(p),
                        })
                        .collect::<Result<Vec<_>, _>>()
                        .map_err(msg)?;
                    if points.len() > MAX_SWEEP_POINTS {
                        return Err(msg(format!(
                            "--rhos: {} points; at most {MAX_SWEEP_POINTS} (one per 0.01 from 0.01 to 0.99)",
                            points.len()
                        )));
                    }
                    points
                }
            };
            let scenario = scenario_from(sub, read_file).map_err(msg)?;
            // What a point runs, not the scenario: a point has random
            // arrivals and no timeout or retries, so --drop-hopeless or
            // --retry-budget changed nothing there, without a word.
            let th = crate::theory::theory(&scenario);
            let point = crate::sweep::sweep_scenario(&scenario, &th, 0.5);
            let mut notes = unused_flag_notes(sub, &scenario);
            if let Some(point) = &point {
                notes.extend(
                    given_unused(sub, point)
                        .filter(|f| f.used.by(&scenario))
                        .map(|f| {
                            format!(
                                "note: {} changes nothing in a sweep: its points have random arrivals, \
                                 no timeout, retries or shedding",
                                f.flag()
                            )
                        }),
                );
            }
            Command::Sweep {
                notes,
                scenario,
                json: flag(sub, "json"),
                points,
            }
        }
        Some((other, _)) => return Err(msg(format!("unknown command '{other}'"))),
    })
}

/// `bench --requests N`: a whole number 1,000–100,000,000, read as a
/// count field reads one (`2e6` and `2,000,000` too; `-1` out of range,
/// not "not a whole number").
fn bench_requests(v: &str) -> Result<u64, String> {
    const ALLOWED: &str = "allowed 1,000–100,000,000 requests";
    let n = crate::text::typed_whole(v).map_err(|e| format!("--requests: {e}; {ALLOWED}"))?;
    if (1_000..=100_000_000).contains(&n) {
        Ok(n)
    } else {
        // Quoted as typed, its commas read, as typed_whole quotes it.
        let typed = crate::text::ungrouped(v).unwrap_or_default();
        Err(format!(
            "--requests: '{}' is out of range; {ALLOWED}",
            crate::fields::clip(&typed)
        ))
    }
}

/// A note, before the run, when its arrivals alone outrun the event
/// budget: each request is at least one event, so the run stops by
/// `max_events` / rps seconds (a day at 100,000 rps ran 92 s to say
/// nothing was measured). Open arrivals at a steady rate only.
fn budget_note(s: &Scenario) -> Option<String> {
    let end = crate::window::budget_end(s)?;
    let by_s = end.by_s;
    // Three figures, grouped: "2,000", "0.01" (a slow rate never "0").
    let shown = crate::text::fmt_rate;
    let measured = if end.inside_warm_up {
        format!(
            ", inside its warm-up of {} s: nothing would be measured",
            shown(s.warmup * s.duration_s)
        )
    } else {
        String::new()
    };
    // With keep-alive only the connections' first requests are sure: the
    // arithmetic said is theirs (at 1,000,000 rps it gave 2,000 s beside
    // "at 1,000,000 rps, at least one event a request").
    let rate = if s.conn_requests > 1 {
        format!(
            "{} new connections a second, each opening with a request,",
            shown(end.sure_rps)
        )
    } else {
        format!("{} rps", shown(s.rps))
    };
    Some(format!(
        "note: at {rate} the event budget ({} event{}, at least one a request) ends the run within {} s of its {} s{measured}; shorten --duration-s, lower --rps or raise --max-events (up to {})",
        crate::text::fmt_count(s.max_events as f64),
        if s.max_events == 1 { "" } else { "s" },
        shown(by_s),
        shown(s.duration_s),
        shown(crate::scenario::MAX_EVENTS as f64)
    ))
}

/// A note for each field flag given in `m` that `s` does not use (its
/// field table's `used` rule), naming who uses it: `--discipline lifo` on
/// event loops changed nothing, without a word. Notes, not errors: the run
/// is still the one asked for.
fn unused_flag_notes(m: &ArgMatches, s: &Scenario) -> Vec<String> {
    given_unused(m, s)
        .map(|f| {
            format!(
                "note: {} changes nothing in this scenario; it is used by: {}",
                f.flag(),
                f.used.describe()
            )
        })
        .collect()
}

/// The fields given as flags in `m` that `s` does not use (their field
/// table's `used` rule).
fn given_unused<'a>(
    m: &'a ArgMatches,
    s: &'a Scenario,
) -> impl Iterator<Item = &'static Field> + 'a {
    FIELDS
        .iter()
        .filter(move |f| given(m, f.name).is_some() && !f.used.by(s))
}

/// Most points a sweep runs: one for each 0.01 of utilisation that
/// `--rhos` allows. A point takes a few to tens of ms, so a list of
/// thousands ran for minutes.
pub const MAX_SWEEP_POINTS: usize = 99;

/// Largest scenario file read, bytes: a scenario with every field written
/// out is a few KB, and the results page takes student files up to 1 MB
/// too; `--scenario /dev/zero` read until memory ran out.
pub const MAX_SCENARIO_FILE_BYTES: u64 = 1_000_000;

/// The scenario inside a report written by `simulate --json` (an object
/// with the run's figures and a `"scenario"` object), if `v` is one.
fn report_scenario(v: &serde_json::Value) -> Option<&serde_json::Value> {
    let inner = v.get("scenario").filter(|s| s.is_object())?;
    (v.get("latency_ms").is_some() && v.get("completed").is_some()).then_some(inner)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(line: &str) -> Result<Command, String> {
        let args: Vec<String> = line.split_whitespace().map(String::from).collect();
        parse(&args, &|_| Err("no files in tests".into()))
    }

    /// `tellers simulate --scenario f.json` where the file holds `text`.
    fn with_file(text: &str) -> Result<Command, String> {
        let args: Vec<String> = ["simulate", "--scenario", "f.json"]
            .map(String::from)
            .to_vec();
        parse(&args, &|_| Ok(text.to_owned()))
    }

    fn scenario(line: &str) -> Scenario {
        match run(line) {
            Ok(Command::Simulate { scenario, .. }) => scenario,
            other => panic!("{line}: {other:?}"),
        }
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

    /// A flag typed without its unit, or cut short, is the slip the
    /// review found most often: each gets the flag it meant (`--cpu`
    /// suggested `--rps`, two edits away, and `--timeout` nothing).
    #[test]
    fn a_flag_without_its_unit_or_cut_short_is_found() {
        for (typed, meant) in [
            ("--timeout", "--timeout-ms"),
            ("--wait", "--wait-ms"),
            ("--cpu", "--cpu-ms"),
            ("--duration", "--duration-s"),
            ("--stack-reserved", "--stack-reserved-kb"),
            ("--switch", "--switch-us"),
            ("--shed", "--shed-after-ms"),
            ("--rsp", "--rps"),
            ("--thread", "--threads"),
        ] {
            let e = run(&format!("simulate {typed} 5")).unwrap_err();
            assert!(
                e.contains(&format!("did you mean '{meant}'?")),
                "{typed}: {e}"
            );
        }
        // Two flags begin with it: no guess between them.
        let e = run("simulate --heavy 5").unwrap_err();
        assert!(!e.contains("did you mean"), "{e}");
    }

    /// `tellers help simulate` is the command's help, as in git and cargo
    /// (it said "no field 'simulate'"); a field is still explained.
    #[test]
    fn help_with_a_command_shows_that_commands_help() {
        let args = |line: &str| {
            line.split_whitespace()
                .map(String::from)
                .collect::<Vec<_>>()
        };
        let none = |_: &str| Err("no files in tests".to_owned());
        for sub in ["simulate", "sweep", "bench"] {
            match parse_or_help(&args(&format!("help {sub}")), &none) {
                Err(Outcome::Help(text)) => {
                    assert!(text.contains(&format!("tellers {sub}")), "{text}")
                }
                other => panic!("help {sub}: {other:?}"),
            }
        }
        assert!(matches!(
            run("help cores"),
            Ok(Command::Help { field: Some(f) }) if f.name == "cores"
        ));
        match parse_or_help(&args("--version"), &none) {
            Err(Outcome::Help(text)) => assert!(text.contains(env!("CARGO_PKG_VERSION"))),
            other => panic!("--version: {other:?}"),
        }
    }

    /// A run whose arrivals alone outrun its event budget is told before
    /// it starts, and whether anything would be measured.
    #[test]
    fn a_run_the_event_budget_must_end_is_told_first() {
        let notes = |line: &str| match run(line) {
            Ok(Command::Simulate { notes, .. }) => notes,
            other => panic!("{line}: {other:?}"),
        };
        let day = notes("simulate --preset sale-day --rps 100000 --cores 1024 --threads 100000 --duration-s 86400");
        assert!(
            day.iter().any(|n| n.contains("ends the run within 2,000 s of its 86,400 s, inside its warm-up of 8,640 s: nothing would be measured")),
            "{day:?}"
        );
        let hour = notes("simulate --preset mm1 --rps 100000 --cores 1024 --duration-s 3600");
        assert!(
            hour.iter()
                .any(|n| n.contains("within 2,000 s of its 3,600 s; shorten")),
            "{hour:?}"
        );
        // A budget the arrivals fit: no note.
        assert!(notes("simulate --preset mm1 --rps 100000 --cores 1024 --duration-s 3600 --max-events 1000000000").is_empty());
        assert!(notes("simulate --preset mm1").is_empty());
        // A count of events is a count ("1.00 events" was a rate's form).
        let one = notes("simulate --preset mm1 --max-events 1");
        assert!(
            one.iter()
                .any(|n| n.contains("the event budget (1 event, at least one a request)")),
            "{one:?}"
        );
        let many = notes("simulate --preset mm1 --max-events 1000");
        assert!(
            many.iter()
                .any(|n| n.contains("the event budget (1,000 events,")),
            "{many:?}"
        );
        // Keep-alive: the arithmetic of the connections' first requests,
        // the only sure ones (2,000 s at 100,000 ÷ 10 a second).
        let kept = notes(
            "simulate --preset mm1 --rps 1000000 --cores 1024 --conn-requests 10 --duration-s 3600",
        );
        assert!(
            kept.iter().any(|n| n.contains(
                "at 100,000 new connections a second, each opening with a request, the event budget (200,000,000 events, at least one a request) ends the run within 2,000 s"
            )),
            "{kept:?}"
        );
    }

    /// A rule between fields broken by a flag names the other field as
    /// not given, at its default or the preset's value.
    #[test]
    fn a_rule_broken_by_one_flag_says_the_other_field_was_not_given() {
        assert_eq!(
            run("simulate --stack-reserved-kb 50").unwrap_err(),
            "--stack-used-kb (not given: its default): 100 KB is more than the 50 KB of stack set aside per thread: a thread cannot use more stack than it has"
        );
        // Its numbers grouped as everywhere else ("2000 KB" was not).
        assert!(run("simulate --stack-used-kb 2000")
            .unwrap_err()
            .contains("2,000 KB is more than the 1,000 KB"));
        assert!(
            run("simulate --stack-used-kb 100.4 --stack-reserved-kb 100")
                .unwrap_err()
                .contains("100.4 KB is more than the 100 KB")
        );
        assert!(run("simulate --preset mm1 --stack-reserved-kb 50")
            .unwrap_err()
            .starts_with("--stack-used-kb (not given: the preset's value): "));
        // A file that does not set it either does not take the blame.
        let reserve_50_with = |file: &str| {
            let args = "simulate --scenario f.json --stack-reserved-kb 50"
                .split(' ')
                .map(String::from)
                .collect::<Vec<_>>();
            parse(&args, &|_| Ok(file.to_owned())).unwrap_err()
        };
        let e = reserve_50_with(r#"{"duration_s": 1}"#);
        assert!(
            e.starts_with("--stack-used-kb (not given: its default): "),
            "{e}"
        );
        let e = reserve_50_with(r#"{"stack_used_kb": 80}"#);
        assert!(
            e.starts_with("--scenario f.json: stack_used_kb: 80 KB is more"),
            "{e}"
        );
        // Both given: the flag is named as before.
        assert!(run("simulate --stack-reserved-kb 50 --stack-used-kb 60")
            .unwrap_err()
            .starts_with("--stack-used-kb: 60 KB is more than"));
    }

    /// A bad point of `--rhos` is named, with what is allowed.
    #[test]
    fn a_bad_sweep_point_is_named() {
        let e = run("sweep --preset mm1 --rhos 0.5,1.2").unwrap_err();
        assert!(
            e.contains("1.2 is out of range") && e.contains("0.01–0.99"),
            "{e}"
        );
        let e = run("sweep --preset mm1 --rhos 0.5,").unwrap_err();
        assert!(e.contains("an empty point (a comma at the end"), "{e}");
        let e = run("sweep --preset mm1 --rhos abc").unwrap_err();
        assert!(
            e.contains("'abc' is not a number") && e.contains("0.01–0.99"),
            "{e}"
        );
    }

    /// A scenario file's slips as a student makes them: empty, a field
    /// spelt as its flag, a count with a fraction.
    #[test]
    fn a_files_slips_are_named_with_what_is_meant() {
        let with = |text: &str| with_file(text).unwrap_err();
        let e = with("  \n");
        assert!(
            e.contains("f.json: the file is empty") && e.contains("{\"rps\": 200}"),
            "{e}"
        );
        // The field as its flag, in camelCase, in capitals, with dashes.
        for json in [
            r#"{"cpu-ms": 5}"#,
            r#"{"cpuMs": 5}"#,
            r#"{"CPU_MS": 5}"#,
            r#"{"--cpu-ms": 5}"#,
        ] {
            let e = with(json);
            assert!(
                e.contains("did you mean 'cpu_ms'?") && !e.contains("the fields are"),
                "{json}: {e}"
            );
        }
        // Misspelt: the field meant, without a word on `_`.
        let e = with(r#"{"cpu_msx": 5}"#);
        assert!(
            e.contains("'cpu_msx' is not a scenario field; did you mean 'cpu_ms'?")
                && !e.contains("joined by _"),
            "{e}"
        );
        let e = with(r#"{"colour": 5}"#);
        assert!(e.contains("the fields are"), "{e}");
        let e = with(r#"{"threads": 2.5}"#);
        assert!(
            e.contains("threads: 2.5 is not a whole number; allowed 1–"),
            "{e}"
        );
    }

    /// A number in a file past what its field can hold is named by the
    /// field, with what the field allows, as a flag's is: serde refused
    /// 1e400 before the field table saw it ("the number at line 1, column
    /// 13 is too large for any field"), and read a seed past 2^64 − 1 as a
    /// float ("seed: 1e+23 is not allowed").
    #[test]
    fn a_files_number_past_its_field_is_named_by_the_field() {
        let with = |text: &str| with_file(text).unwrap_err();
        let rps = "--scenario f.json: rps: the number is out of range; allowed 0.001–1,000,000 rps";
        assert_eq!(with(r#"{"rps": 1e400}"#), rps);
        assert_eq!(with(r#"{"cores": 2, "rps": -1e400}"#), rps);
        let seed =
            "--scenario f.json: seed: the number is out of range; allowed 0–18,446,744,073,709,551,615";
        for json in [
            r#"{"seed": 99999999999999999999999}"#,
            r#"{"seed": 18446744073709551616}"#,
            r#"{"seed": 1e400}"#,
        ] {
            assert_eq!(with(json), seed, "{json}");
        }
        // The largest seed is still read.
        match with_file(r#"{"seed": 18446744073709551615}"#) {
            Ok(Command::Simulate { scenario, .. }) => assert_eq!(scenario.seed, u64::MAX),
            other => panic!("{other:?}"),
        }
        // A key that is no field is named as one, whatever its number.
        let e = with(r#"{"rpz": 1e400}"#);
        assert!(
            e.starts_with("--scenario f.json: not a valid scenario: 'rpz' is not a scenario field"),
            "{e}"
        );
        // The flag names the seed's range as the file does.
        assert_eq!(
            run("simulate --seed 99999999999999999999999").unwrap_err(),
            "--seed: 99999999999999999999999 is out of range; allowed 0–18,446,744,073,709,551,615"
        );
    }

    /// A preset's name and the words for off are read in any case.
    #[test]
    fn names_and_off_are_read_in_any_case() {
        assert_eq!(
            scenario("simulate --preset MM1"),
            scenario("simulate --preset mm1")
        );
        // Off in any case, where the preset sets it.
        assert!(scenario("simulate --preset sale-day-timeout")
            .timeout_ms
            .is_some());
        assert_eq!(
            scenario("simulate --preset sale-day-timeout --timeout-ms None").timeout_ms,
            None
        );
    }

    /// A number as help prints it ("1,000") is read; a decimal comma is
    /// refused, saying why.
    #[test]
    fn numbers_with_thousands_commas_are_read() {
        assert_eq!(scenario("simulate --threads 1,000").threads, 1000);
        assert_eq!(scenario("simulate --rps 12,500.5").rps, 12500.5);
        let e = run("simulate --cpu-ms 2,5").unwrap_err();
        assert!(
            e.starts_with("--cpu-ms: '2,5': write decimals with a point"),
            "{e}"
        );
        assert!(matches!(
            run("bench --requests 100,000"),
            Ok(Command::Bench {
                requests: 100_000,
                ..
            })
        ));
    }

    #[test]
    fn bad_values_name_the_flag_and_what_is_allowed() {
        let e = run("simulate --cores 0").unwrap_err();
        assert!(
            e.starts_with("--cores:") && e.contains("allowed 1–1,024 cores"),
            "{e}"
        );
        let e = run("simulate --model fibers").unwrap_err();
        assert!(e.contains("--model") && e.contains("event-loop"), "{e}");
        let e = run("simulate --rps fast").unwrap_err();
        assert!(e.starts_with("--rps: 'fast' is not a number"), "{e}");
        let e = run("simulate --preset nope").unwrap_err();
        assert!(e.contains("sale-day"), "{e}");
        let e = run("simulate --bogus 1").unwrap_err();
        assert!(e.contains("unknown flag '--bogus'"), "{e}");
        let e = run("simulate --rps").unwrap_err();
        assert!(e.contains("needs a value"), "{e}");
        // Typed text echoed back carries no control characters.
        let e = run("simulate --bo\u{1b}[2Jgus 1").unwrap_err();
        assert!(!e.contains('\u{1b}'), "{e}");
        let args: Vec<String> = ["simulate", "--scenario", "a\nb.json"]
            .map(String::from)
            .to_vec();
        let e = parse(&args, &|_| Err("no such file".into())).unwrap_err();
        assert!(e.contains("cannot read 'a?b.json'"), "{e}");
        // A negative value is out of range, not an unknown flag '-1'.
        let e = run("simulate --cores -1").unwrap_err();
        assert!(
            e.starts_with("--cores:") && e.contains("allowed 1–1,024 cores"),
            "{e}"
        );
        let e = run("simulate --rps -5").unwrap_err();
        assert!(
            e.starts_with("--rps:") && e.contains("allowed 0.001"),
            "{e}"
        );
        for e in [
            run("simulate --cores 0").unwrap_err(),
            run("simulate --rsp 5").unwrap_err(),
        ] {
            assert!(!e.contains('\n'), "one line: {e}");
        }
    }

    #[test]
    fn a_misspelt_flag_gets_a_suggestion() {
        let e = run("simulate --rsp 5").unwrap_err();
        assert!(e.contains("did you mean '--rps'"), "{e}");
        let e = run("simulate --queue-limt 5").unwrap_err();
        assert!(e.contains("--queue-limit"), "{e}");
        // A misspelt preset too, before the list of every preset.
        let e = run("simulate --preset sael-day").unwrap_err();
        assert!(
            e.starts_with("--preset: no preset 'sael-day' (did you mean 'sale-day'?); allowed: "),
            "{e}"
        );
        let e = run("sweep --preset mm11").unwrap_err();
        assert!(e.contains("did you mean 'mm1'?"), "{e}");
        let e = run("simulate --preset nothing-like-it").unwrap_err();
        assert!(!e.contains("did you mean"), "{e}");
    }

    #[test]
    fn help_groups_the_defaults_as_it_groups_the_ranges() {
        let help = fields_help();
        assert!(help.contains("default 200,000,000]"), "--max-events");
        assert!(help.contains("KB; default 1,000]"), "--stack-reserved-kb");
        let seed = FIELDS.iter().find(|f| f.name == "seed").unwrap();
        assert!(field_help(seed).contains("default:  1\n"));
    }
    #[test]
    fn requests_lift_the_duration_bound_unless_given() {
        // As long as the field table allows.
        let Some(Kind::Real { max, .. }) = Scenario::field("duration_s").map(|f| f.kind) else {
            panic!("duration_s is a real number");
        };
        assert_eq!(scenario("simulate --requests 100").duration_s, max);
        assert_eq!(
            scenario("simulate --requests 100 --duration-s 5").duration_s,
            5.0
        );
        // A file's run length is given too (it was replaced by the far
        // bound, so a 5 s file ran 665 s); a file without one gets the bound.
        let from_file = |json: &'static str, line: &str| {
            let args: Vec<String> = line.split_whitespace().map(String::from).collect();
            match parse(&args, &|_| Ok(json.to_owned())) {
                Ok(Command::Simulate { scenario, .. }) => scenario.duration_s,
                other => panic!("{line}: {other:?}"),
            }
        };
        let both = r#"{"duration_s": 5, "requests": 100000}"#;
        assert_eq!(from_file(both, "simulate --scenario f.json"), 5.0);
        let length = r#"{"duration_s": 5}"#;
        let line = "simulate --scenario f.json --requests 100000";
        assert_eq!(from_file(length, line), 5.0);
        let count = r#"{"requests": 100000}"#;
        assert_eq!(from_file(count, "simulate --scenario f.json"), max);
    }

    /// A flag may mend what a file has: the whole scenario is checked once
    /// the flags are on it (a stack used above the file's reserve was
    /// refused before --stack-reserved-kb could raise the reserve).
    #[test]
    fn flags_mend_a_file_before_the_scenario_is_checked() {
        let file = |line: &str| {
            let args: Vec<String> = line.split_whitespace().map(String::from).collect();
            parse(&args, &|_| Ok(r#"{"stack_used_kb": 2000}"#.to_owned()))
        };
        match file("simulate --scenario f.json --stack-reserved-kb 4000") {
            Ok(Command::Simulate { scenario, .. }) => {
                assert_eq!(
                    (scenario.stack_used_kb, scenario.stack_reserved_kb),
                    (2000.0, 4000.0)
                );
            }
            other => panic!("{other:?}"),
        }
        // Without the flag the whole is still refused, naming the file
        // and its field (not a flag that was never typed).
        let e = file("simulate --scenario f.json").unwrap_err();
        assert!(
            e.starts_with("--scenario f.json: stack_used_kb: 2,000 KB is more than"),
            "{e}"
        );
        // A field out of its range is the file's, with every such field.
        let args: Vec<String> = ["simulate", "--scenario", "f.json"]
            .map(String::from)
            .to_vec();
        let e = parse(&args, &|_| Ok(r#"{"cores": 0, "threads": 0}"#.to_owned())).unwrap_err();
        assert!(
            e.starts_with("--scenario f.json: cores: 0 is out of range")
                && e.contains("; threads: 0 is out of range"),
            "{e}"
        );
    }

    #[test]
    fn every_field_is_a_flag_that_takes_its_default() {
        for f in FIELDS {
            let line = match f.kind {
                Kind::Switch => format!("simulate {} {}", f.flag(), f.default_text()),
                _ => format!("simulate {} {}", f.flag(), f.default_text()),
            };
            assert_eq!(scenario(&line), Scenario::default(), "{line}");
        }
    }

    #[test]
    fn the_memory_fields_have_flags() {
        let s = scenario("simulate --stack-used-kb 50 --stack-reserved-kb 500 --conn-state-kb 2");
        assert_eq!(
            (s.stack_used_kb, s.stack_reserved_kb, s.conn_state_kb),
            (50.0, 500.0, 2.0)
        );
    }

    #[test]
    fn switches_can_be_turned_on_and_off() {
        assert!(scenario("simulate --drop-abandoned").drop_abandoned);
        assert!(!scenario("simulate --drop-abandoned false").drop_abandoned);
    }

    #[test]
    fn thread_per_request_has_no_cap_unless_one_is_set() {
        let s = scenario("simulate --model thread-per-request --rps 500");
        assert_eq!(s.thread_limit(), None);
        let s = scenario("simulate --model thread-per-request --thread-cap 50");
        assert_eq!(s.thread_limit(), Some(50));
        assert_eq!(
            scenario("simulate --queue-limit 0").queue_limit,
            None,
            "0 switches an optional field off"
        );
    }

    #[test]
    fn help_lists_every_field_and_explains_one() {
        let all = fields_help();
        for f in FIELDS {
            assert!(all.contains(&f.flag()), "{} missing from help", f.name);
        }
        let Command::Help { field: Some(f) } = run("help --thread-cap").unwrap() else {
            panic!()
        };
        let text = field_help(f);
        assert!(text.contains("no cap"), "{text}");
        assert!(run("help corez").unwrap_err().contains("cores"));
        // A command's own flag is named as one ("did you mean 'rps'?" of
        // rhos sent the reader to another field).
        assert_eq!(
            run("help rhos").unwrap_err(),
            "help: --rhos is a flag of tellers sweep, not a scenario field (see tellers sweep --help)"
        );
        assert!(run("help --json")
            .unwrap_err()
            .starts_with("help: --json is a flag of tellers "));
        // An empty name: asked for, not "did you mean 'rps'?".
        let empty = parse(&["help".into(), String::new()], &|_| Err("no files".into()));
        assert_eq!(
            empty.unwrap_err(),
            "help: give a field's name, such as rps or cores (tellers help lists them)"
        );
    }

    #[test]
    fn completions_for_three_shells() {
        for sh in ["bash", "zsh", "fish"] {
            assert!(matches!(
                run(&format!("completions {sh}")),
                Ok(Command::Completions { .. })
            ));
        }
        assert_eq!(
            run("completions tcsh").unwrap_err(),
            "completions: 'tcsh' is not a shell Tellers writes for; allowed bash, zsh or fish"
        );
        // No shell at all is told which there are ("missing <SHELL>").
        assert_eq!(
            run("completions").unwrap_err(),
            "completions: which shell? tellers completions bash, zsh or fish"
        );
    }

    /// `--version` with more after it is refused, not printed with the
    /// rest dropped; alone it is the version, as help is help.
    #[test]
    fn version_takes_nothing_else() {
        assert_eq!(
            run("--version extra").unwrap_err(),
            "--version takes nothing else; leave out 'extra'"
        );
        // Twice is still the version (it said "leave out ''").
        assert!(matches!(run("-V --version"), Err(v) if v.starts_with("tellers ")));
        let none = |_: &str| -> Result<String, String> { Err("no files".into()) };
        assert!(matches!(
            parse_or_help(&["--version".to_owned()], &none),
            Err(Outcome::Help(v)) if v.starts_with("tellers ")
        ));
    }

    /// The bash script's completion of one flag of `simulate`.
    fn bash_completion_of(flag: &str) -> String {
        let mut script = Vec::new();
        clap_complete::generate(
            clap_complete::Shell::Bash,
            &mut command(),
            "tellers",
            &mut script,
        );
        let script = String::from_utf8(script).unwrap();
        let simulate = script.split("tellers__subcmd__simulate)").nth(1).unwrap();
        let case = simulate.split(&format!("{flag})")).nth(1).unwrap();
        case.split(";;").next().unwrap().to_owned()
    }

    #[test]
    fn a_flag_the_scenario_does_not_use_gets_a_note() {
        let notes = |line: &str| match run(line) {
            Ok(Command::Simulate { notes, .. }) => notes,
            other => panic!("{line}: {other:?}"),
        };
        assert_eq!(
            notes("simulate --preset sale-day-event-loop --discipline=lifo --threads 8 --rps 300"),
            [
                "note: --threads changes nothing in this scenario; it is used by: thread-pool",
                "note: --discipline changes nothing in this scenario; it is used by: thread pool; thread per request with a cap",
            ]
        );
        // Used where it applies: no note.
        assert!(notes("simulate --preset sale-day --discipline lifo --threads 8").is_empty());
        // A batch has no warm-up, and steps offloaded by kind no cost
        // threshold: both changed nothing without a word.
        assert_eq!(
            notes("simulate --arrivals batch --warmup 0.2"),
            ["note: --warmup changes nothing in this scenario; it is used by: every scenario but a batch"]
        );
        assert!(notes("simulate --arrivals closed --warmup 0.2").is_empty());
        let offload = "simulate --model event-loop-workers --offload-above-ms 50";
        assert!(notes(offload).is_empty());
        assert_eq!(
            notes(&format!("{offload} --offload-heavy")),
            ["note: --offload-above-ms changes nothing in this scenario; it is used by: event loop + workers, unless heavy steps are offloaded by kind"]
        );
    }

    #[test]
    fn a_flag_before_its_command_is_told_to_go_after_it() {
        // It was "unknown flag '--rps'; did you mean '--rps'?".
        let e = run("--rps 5 simulate").unwrap_err();
        assert_eq!(e, "--rps goes after the command: tellers simulate --rps …");
        let e = run("--rhos 0.5 sweep").unwrap_err();
        assert_eq!(e, "--rhos goes after the command: tellers sweep --rhos …");
        // A flag two commands take: the one typed after it.
        let e = run("--cores 8 sweep").unwrap_err();
        assert_eq!(e, "--cores goes after the command: tellers sweep --cores …");
        let e = run("--json presets").unwrap_err();
        assert_eq!(e, "--json goes after the command: tellers presets --json …");
        // A misspelt one still gets its suggestion.
        let e = run("--rsp 5 simulate").unwrap_err();
        assert!(e.contains("did you mean '--rps'"), "{e}");
        // After `--` a flag is no flag: said so, not "did you mean itself".
        let e = run("simulate -- --rps 5").unwrap_err();
        assert_eq!(
            e,
            "'--rps' comes after '--', which ends the flags: leave out the '--'"
        );
    }

    /// A sweep's flags are judged by what its points run: a point has no
    /// timeout, retries or batch, so flags for those changed nothing
    /// without a word (the fields a point sets itself are refused).
    #[test]
    fn a_sweep_notes_flags_its_points_do_not_use() {
        let notes = |line: &str| match run(line) {
            Ok(Command::Sweep { notes, .. }) => notes,
            other => panic!("{line}: {other:?}"),
        };
        for (line, flag) in [
            (
                "sweep --preset sale-day-timeout --drop-hopeless",
                "--drop-hopeless",
            ),
            (
                "sweep --preset spike-metastable --retry-budget 0.3",
                "--retry-budget",
            ),
            ("sweep --preset batch-pool-20 --count 5", "--count"),
        ] {
            assert_eq!(
                notes(line),
                vec![format!(
                    "note: {flag} changes nothing in a sweep: its points have random arrivals, \
                     no timeout, retries or shedding"
                )],
                "{line}"
            );
        }
        // What a point runs as given: no note.
        assert!(notes("sweep --threads 30 --cores 8 --seed 3").is_empty());
    }

    /// A word where only flags go is said to be one, not an unknown flag
    /// ("unknown flag 'threads'" of `tellers help cores threads`).
    #[test]
    fn a_stray_word_is_not_an_unknown_flag() {
        for (line, said) in [
            (
                "help cores threads",
                "'threads': tellers help explains one field at a time",
            ),
            (
                "presets extra",
                "unexpected 'extra': tellers presets takes flags only (see tellers presets --help)",
            ),
            (
                "completions bash extra",
                "'extra': tellers completions takes one shell, bash, zsh or fish",
            ),
            (
                "simulate 5",
                "unexpected '5': tellers simulate takes flags only (see tellers simulate --help)",
            ),
        ] {
            assert_eq!(run(line).unwrap_err(), said, "{line}");
        }
        let args = vec!["simulate".to_owned(), String::new()];
        let e = parse(&args, &|_| Err("no files".into())).unwrap_err();
        assert!(e.starts_with("unexpected '':"), "{e}");
    }

    #[test]
    fn flags_of_another_command_and_negative_values_are_named() {
        let e = run("sweep --series").unwrap_err();
        assert_eq!(e, "--series goes with tellers simulate, not sweep");
        let e = run("presets --cores 5").unwrap_err();
        assert_eq!(
            e,
            "--cores goes with tellers simulate or sweep, not presets"
        );
        let e = run("presets --rps 5").unwrap_err();
        assert_eq!(e, "--rps goes with tellers simulate, not presets");
        // A misspelt flag is matched against the command's own flags.
        let e = run("sweep --rhoz 0.5").unwrap_err();
        assert!(e.contains("did you mean '--rhos'"), "{e}");
        let e = run("sweep --serie").unwrap_err();
        assert!(!e.contains("--series"), "{e}");
        // A value starting with '-' is the flag's value, not a flag.
        let e = run("sweep --rhos -0.5").unwrap_err();
        assert!(e.starts_with("--rhos: -0.5 is out of range"), "{e}");
        let many = vec!["0.5"; MAX_SWEEP_POINTS + 1].join(",");
        let e = run(&format!("sweep --rhos {many}")).unwrap_err();
        assert_eq!(
            e,
            "--rhos: 100 points; at most 99 (one per 0.01 from 0.01 to 0.99)"
        );
        let most = vec!["0.5"; MAX_SWEEP_POINTS].join(",");
        assert!(run(&format!("sweep --rhos {most}")).is_ok());
        // Below the range is out of range, as a field's count says it
        // (it said "'-5' is not a whole number"); whole numbers written
        // as decimals are read.
        for (t, says) in [
            ("-5", "--requests: -5 is out of range; allowed 1,000–100,000,000 requests"),
            ("99999999999999999999999", "--requests: 99999999999999999999999 is out of range; allowed 1,000–100,000,000 requests"),
            ("2.5", "--requests: '2.5' is not a whole number; allowed 1,000–100,000,000 requests"),
            ("many", "--requests: 'many' is not a whole number; allowed 1,000–100,000,000 requests"),
        ] {
            assert_eq!(run(&format!("bench --requests {t}")).unwrap_err(), says);
        }
        assert!(matches!(
            run("bench --requests 2e6"),
            Ok(Command::Bench {
                requests: 2_000_000,
                ..
            })
        ));
        let e = run("simulate --rps -inf").unwrap_err();
        assert!(e.starts_with("--rps: '-inf' is not a number"), "{e}");
        let e = run("simulate --cores -1").unwrap_err();
        assert!(
            e.starts_with("--cores: -1 is out of range; allowed 1–1,024 cores"),
            "{e}"
        );
        // A switch still takes no value after it.
        assert!(run("simulate --drop-abandoned --json").is_ok());
        // --series alone would be dropped: said, with what to add.
        let e = run("simulate --series").unwrap_err();
        assert!(e.contains("add --json"), "{e}");
        assert!(run("simulate --series --json").is_ok());
        // sweep refuses what each of its points sets itself, and neither
        // suggests nor completes those flags.
        let e = run("sweep --rps 100").unwrap_err();
        assert!(e.starts_with("--rps: sweep sets it for each point"), "{e}");
        let e = run("sweep --duration-s=5").unwrap_err();
        assert!(e.starts_with("--duration-s: sweep sets it"), "{e}");
        assert!(run("sweep --cores 8").is_ok());
        let e = run("sweep --rsp 100").unwrap_err();
        assert!(!e.contains("'--rps'"), "{e}");
        // A value flag followed by a flag: its value is missing.
        assert_eq!(
            run("simulate --cores --rps 5").unwrap_err(),
            "--cores needs a value"
        );
        assert_eq!(
            run("simulate --rps --json").unwrap_err(),
            "--rps needs a value"
        );
        assert!(run("simulate --drop-abandoned --json").is_ok());
    }

    #[test]
    fn completions_offer_a_flags_values_not_file_names() {
        let model = bash_completion_of("--model");
        assert!(
            model.contains("compgen -W") && model.contains("event-loop"),
            "{model}"
        );
        let preset = bash_completion_of("--preset");
        assert!(
            preset.contains("sale-day") && preset.contains("mm1"),
            "{preset}"
        );
        let switch = bash_completion_of("--drop-abandoned");
        assert!(switch.contains("true false"), "{switch}");
        for number in ["--cores", "--rps", "--rps-schedule"] {
            let text = bash_completion_of(number);
            assert!(!text.contains("compgen"), "{number}: {text}");
        }
        assert!(bash_completion_of("--scenario").contains("compgen -f"));
        // Values stay the field table's to check, with its own message.
        let e = run("simulate --model threads").unwrap_err();
        assert!(e.contains("--model") && e.contains("event-loop"), "{e}");
        assert!(run("simulate --preset mm1 --json").is_ok());
    }
}
