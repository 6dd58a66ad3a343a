//! What the `tellers` binary prints, run as a learner runs it: the help
//! they get however they ask for it, and the summary line under a report.
//! (Apart from `cli_output.rs`, whose pipe test wants no other child
//! process started beside it.)

use std::process::Command;

/// The binary's stdout for `args`, which must exit 0.
fn tellers(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_tellers"))
        .args(args)
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// `tellers` alone, `tellers --help`, `tellers -h` and `tellers help` print
/// one help: bare `tellers` printed the usage and every flag, `--help`
/// clap's own list of commands, two top-level helps that did not agree.
#[test]
fn every_way_of_asking_for_help_prints_one_help() {
    let bare = tellers(&[]);
    assert!(
        bare.starts_with("tellers — simulate one server handling many requests\n"),
        "{bare}"
    );
    // The usage, the examples and every scenario flag.
    for part in [
        "USAGE:",
        "EXAMPLES:",
        "tellers simulate --preset mm1",
        "--cores N",
    ] {
        assert!(bare.contains(part), "{part} missing: {bare}");
    }
    for args in [&["--help"][..], &["-h"], &["help"]] {
        assert_eq!(tellers(args), bare, "{args:?}");
    }
    // A command's own help is still that command's.
    let simulate = tellers(&["simulate", "--help"]);
    assert!(simulate.contains("Usage: tellers simulate"), "{simulate}");
}

/// The summary line under the table says what each memory figure counts:
/// "memory reserved 4.0 MB, used 100.4 MB" read as if use had passed the
/// reserve, where the first is thread stacks only and the second adds the
/// state an event loop keeps per connection.
#[test]
fn the_memory_figures_say_what_each_counts() {
    let line = |args: &[&str]| {
        let out = tellers(args);
        out.lines()
            .find(|l| l.starts_with("peak threads "))
            .unwrap_or_else(|| panic!("{args:?}: no memory line in {out}"))
            .to_owned()
    };
    // 4 loops' stacks (1,000 KB set aside, 100 KB used each) and 10,000
    // connections of 10 KB.
    assert_eq!(
        line(&["simulate", "--preset", "c10k-event-loop"]),
        "peak threads 4  stacks reserved 4.0 MB  memory used 100.4 MB (stacks used + connection state)  peak connections 10000"
    );
    // Threads keep no connection state apart from their stacks.
    let pool = line(&["simulate", "--preset", "sale-day", "--duration-s", "2"]);
    assert!(
        pool.starts_with("peak threads 20  stacks reserved 20.0 MB  memory used 2.0 MB (stacks used)  peak connections "),
        "{pool}"
    );
}

/// Where callers give up and answers came late, the summary says the
/// latencies count them, and how many; a run without a timeout does not.
#[test]
fn late_answers_in_the_latencies_are_said() {
    let late = tellers(&[
        "simulate",
        "--preset",
        "spike-metastable",
        "--duration-s",
        "30",
    ]);
    let said = late
        .lines()
        .find(|l| l.contains("the latencies count answers that came after their caller gave up"))
        .unwrap_or_else(|| panic!("no line in {late}"));
    assert!(said.ends_with(" of them)"), "{said}");
    let plain = tellers(&["simulate", "--preset", "sale-day", "--duration-s", "2"]);
    assert!(!plain.contains("gave up"), "{plain}");
}

/// Two runs of one scenario and seed print the same bytes, as a table and
/// as JSON, so `diff` shows the engine is deterministic: each printed the
/// wall time the run took here (`wall_s`, "… events in 0.007 s"), which
/// now goes to the terminal only.
#[test]
fn two_runs_of_one_scenario_print_the_same_bytes() {
    for args in [
        &["simulate", "--preset", "mm1", "--duration-s", "20"][..],
        &[
            "simulate",
            "--preset",
            "mm1",
            "--duration-s",
            "20",
            "--json",
        ],
        &["sweep", "--preset", "mm1", "--rhos", "0.5", "--json"],
    ] {
        let first = tellers(args);
        assert!(!first.contains("wall_s"), "{args:?}: {first}");
        assert_eq!(tellers(args), first, "{args:?}");
    }
}

/// `simulate --json` carries the scenario that ran and theory's figures
/// beside the run's: it held only the run, so a saved report did not say
/// what made it, and its figures had nothing to be compared with.
#[test]
fn a_json_report_says_what_ran_and_what_theory_says() {
    let text = tellers(&[
        "simulate",
        "--preset",
        "mm1",
        "--requests",
        "2,000",
        "--seed",
        "3",
        "--json",
    ]);
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    // The report's own figures, as before.
    assert_eq!(v["completed"], 2000, "{text}");
    assert!(v["latency_ms"]["mean"].as_f64().unwrap() > 0.0);
    // The scenario: the preset with the flags on it, read back as a file.
    let s: tellers_sim::Scenario =
        tellers_sim::Scenario::from_json(&v["scenario"].to_string()).unwrap();
    assert_eq!((s.requests, s.seed), (Some(2000), 3));
    let preset = tellers_sim::presets::presets()
        .iter()
        .find(|p| p.name == "mm1")
        .unwrap();
    assert_eq!(
        (s.rps, s.cores),
        (preset.scenario.rps, preset.scenario.cores)
    );
    // Theory of that scenario: M/M/1's mean, S/(1 − ρ).
    let th = tellers_sim::theory::theory(&s);
    assert_eq!(v["theory"]["mean_ms"].as_f64(), th.mean_ms, "{text}");
    let rho = th.utilisation.unwrap();
    let m = th.mean_ms.unwrap();
    assert!(
        (m - s.cpu_ms / (1.0 - rho)).abs() < 1e-9 * m,
        "{m} at ρ {rho}"
    );
    // The report itself, given as a scenario file, runs its scenario
    // again: the same bytes (it was refused on its first figure).
    let file = std::env::temp_dir().join(format!("tellers-report-{}.json", std::process::id()));
    std::fs::write(&file, &text).unwrap();
    let again = tellers(&["simulate", "--scenario", file.to_str().unwrap(), "--json"]);
    std::fs::remove_file(&file).unwrap();
    assert_eq!(again, text);
}
