//! `tellers` — the command line on the simulator engine. See `tellers help`.

use std::io::{IsTerminal, Write};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};
use tellers_sim::analytic::{CpuPart, Limit};
use tellers_sim::bench::{bench_scenario, engine_mmc, reference_mmc};
use tellers_sim::cli::{
    command, field_help, parse_or_help, top_help, Command, Outcome, MAX_SCENARIO_FILE_BYTES,
};
use tellers_sim::presets::presets;
use tellers_sim::scenario::MAX_EVENTS;
use tellers_sim::signs::stop_note;
use tellers_sim::text::{fmt_count, fmt_length_s, fmt_s};
use tellers_sim::theory::{theory, Bound, Theory, Threads};
use tellers_sim::window::{measuring_note, warming_up};
use tellers_sim::{Arrivals, FieldError, Model, Report, Scenario, Simulation, StoppedBy};

/// `println!` that ends the program quietly once the reader has gone, as in
/// `tellers sweep --json | head` (println! would panic on the closed pipe).
macro_rules! out {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        if let Err(e) = writeln!(std::io::stdout(), $($arg)*) {
            output_failed(&e);
        }
    }};
}

/// Ends the program after a failed write to stdout: quietly for a closed
/// pipe (`| head` has read what it wanted), and with a line on stderr and
/// status 1 for anything else (a full disk: `> /dev/full` lost the output
/// and exited 0 without a word).
fn output_failed(e: &std::io::Error) -> ! {
    if e.kind() == std::io::ErrorKind::BrokenPipe {
        std::process::exit(0);
    }
    eprintln!("tellers: cannot write the output: {e}");
    std::process::exit(1);
}

/// A scenario file's text, refused past [`MAX_SCENARIO_FILE_BYTES`] (read
/// no further, so `/dev/zero` is refused at once).
fn read_scenario_file(path: &str) -> Result<String, String> {
    use std::io::Read;
    let mut text = String::new();
    // `-` is the standard input, so a script can pipe a scenario in.
    let read = if path == "-" {
        // Typed at a terminal, it would wait without a word.
        if std::io::stdin().is_terminal() {
            eprintln!("tellers: reading the scenario from the standard input; end it with Ctrl-D");
        }
        std::io::stdin()
            .take(MAX_SCENARIO_FILE_BYTES + 1)
            .read_to_string(&mut text)
    } else {
        std::fs::File::open(path).and_then(|f| {
            f.take(MAX_SCENARIO_FILE_BYTES + 1)
                .read_to_string(&mut text)
        })
    };
    read.map_err(|e| match e.kind() {
        std::io::ErrorKind::InvalidData => {
            "not a text file; a scenario file is JSON text such as {\"rps\": 200}".to_owned()
        }
        // "No such file or directory (os error 2)": the number is noise.
        _ => {
            let words = e.to_string();
            match words.find(" (os error") {
                Some(at) => words[..at].to_owned(),
                None => words,
            }
        }
    })?;
    if text.len() as u64 > MAX_SCENARIO_FILE_BYTES {
        return Err(format!(
            "larger than {} MB; a scenario file is a few KB",
            MAX_SCENARIO_FILE_BYTES / 1_000_000
        ));
    }
    Ok(text)
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let read = |p: &str| read_scenario_file(p);
    match parse_or_help(&args, &read) {
        Ok(cmd) => {
            // On stderr, so `--json` output stays clean.
            if let Command::Simulate { notes, .. } | Command::Sweep { notes, .. } = &cmd {
                for note in notes {
                    eprintln!("tellers: {note}");
                }
            }
            let code = run(cmd);
            // What is still buffered is written now, and checked.
            if let Err(e) = std::io::Write::flush(&mut std::io::stdout()) {
                output_failed(&e);
            }
            code
        }
        Err(Outcome::Help(text)) => {
            out!("{}", text.trim_end());
            ExitCode::SUCCESS
        }
        Err(Outcome::Message(msg)) => {
            eprintln!("tellers: {msg}");
            ExitCode::from(2)
        }
    }
}

fn run(cmd: Command) -> ExitCode {
    match cmd {
        Command::Help { field: None } => out!("{}", top_help().trim_end()),
        Command::Help { field: Some(f) } => out!("{}", field_help(f).trim_end()),
        Command::Completions { shell } => {
            // Into a buffer, then written as everything else is: a closed
            // pipe (`| head`) ends the program quietly, not in a panic.
            let mut script = Vec::new();
            clap_complete::generate(shell, &mut command(), "tellers", &mut script);
            out!("{}", String::from_utf8_lossy(&script).trim_end());
        }
        Command::Presets { json: false } => {
            for p in presets() {
                out!("{:<26} {}", p.name, p.about);
            }
        }
        Command::Presets { json: true } => {
            let all: serde_json::Map<String, serde_json::Value> = presets()
                .iter()
                .map(|p| {
                    (
                        p.name.to_string(),
                        serde_json::to_value(&p.scenario).expect("a scenario serialises"),
                    )
                })
                .collect();
            out!("{}", serde_json::Value::Object(all));
        }
        Command::Simulate {
            scenario,
            json,
            series,
            ..
        } => {
            // How long the run took here, on the terminal only: the report
            // holds what the scenario and seed decide, so two runs of one
            // scenario print the same bytes (`diff` shows it).
            #[allow(clippy::disallowed_methods)]
            let t = Instant::now();
            let mut progress = Progress::on_a_terminal();
            let r = simulate_showing_progress(&scenario, "", &mut progress)
                .expect("validated by the parser");
            progress.clear();
            progress.say(&format!(
                "tellers: {} simulated in {} s here",
                tellers_sim::text::plural(r.events, "event"),
                tellers_sim::text::fmt_fixed(t.elapsed().as_secs_f64(), 3)
            ));
            if json {
                out!("{}", report_json(&r, &scenario, series));
            } else {
                print_table(&scenario, &r);
            }
        }
        Command::Sweep {
            scenario,
            json,
            points,
            ..
        } => {
            if let Err(msg) = sweep(&scenario, &points, json) {
                eprintln!("tellers: {msg}");
                return ExitCode::from(2);
            }
        }
        Command::Bench { requests, json } => bench(requests, json),
    }
    ExitCode::SUCCESS
}

/// How often a long run says how far it has got.
const PROGRESS_EVERY: Duration = Duration::from_secs(1);

/// Where a long run says how far it has got: stderr when it is a terminal
/// (a run of an hour at 100,000 rps printed nothing for over two minutes),
/// nowhere when stderr is a file or a pipe, so scripts see no more than
/// before.
/// One timer for all the runs it is given: a sweep of ten points of under
/// a second each said nothing for 7-17 s, its timer restarting each point.
struct Progress {
    out: Option<Box<dyn Write>>,
    every: Duration,
    /// Set when the runs are to stop (Ctrl-C: [`INTERRUPTED`]).
    stop: &'static AtomicBool,
    /// What ends the program once a stopped run has said so (exit status
    /// 130, as a shell reports Ctrl-C); a test's returns, and the run ends.
    exit: fn(),
    /// When the first run began.
    started: Option<Instant>,
    /// Wall time since `started` of the next line.
    next: Duration,
    /// Whether a line is on screen, to clear at the end.
    shown: bool,
}

impl Progress {
    fn on_a_terminal() -> Progress {
        let err = std::io::stderr();
        let on = err.is_terminal();
        if on {
            stop_cleanly_on_ctrl_c();
        }
        Progress::to(on.then(|| Box::new(err) as Box<dyn Write>), PROGRESS_EVERY)
    }

    fn to(out: Option<Box<dyn Write>>, every: Duration) -> Progress {
        Progress {
            out,
            every,
            stop: &INTERRUPTED,
            exit: || std::process::exit(130),
            started: None,
            next: every,
            shown: false,
        }
    }

    /// Rewrites the line in place with `line(wall time so far)`, once
    /// `every` has passed since the last.
    fn tick(&mut self, line: impl FnOnce(Duration) -> String) {
        let Some(out) = self.out.as_mut() else {
            return;
        };
        #[allow(clippy::disallowed_methods)]
        let wall = self.started.get_or_insert_with(Instant::now).elapsed();
        if wall >= self.next {
            // "\r" and erase to the end: the line is rewritten in place.
            let _ = write!(out, "\r{}\x1b[K", line(wall));
            let _ = out.flush();
            self.shown = true;
            self.next = wall + self.every;
        }
    }

    /// Writes `line` on a line of its own, on the terminal only.
    fn say(&mut self, line: &str) {
        if let Some(out) = self.out.as_mut() {
            let _ = writeln!(out, "{line}");
        }
    }

    /// Clears the line, if one was shown.
    fn clear(&mut self) {
        if let (Some(out), true) = (self.out.as_mut(), self.shown) {
            let _ = write!(out, "\r\x1b[K");
            let _ = out.flush();
            self.shown = false;
        }
    }
}

/// The progress line: `what` (empty for a lone run), then the simulated
/// time so far (s) of the run's `duration_s`, the `calls` made so far of
/// the most the run makes where a count ends its arrivals, and the wall
/// time so far.
fn progress_line(
    what: &str,
    s: &Scenario,
    simulated_s: f64,
    calls: (u64, Option<u64>),
    wall: Duration,
) -> String {
    let sent = match calls {
        (made, Some(most)) => format!(
            ", {} of {} requests sent,",
            fmt_count(made as f64),
            fmt_count(most as f64)
        ),
        (_, None) => String::new(),
    };
    format!(
        "tellers: {what}simulated {} of {} s{sent} in {}",
        fmt_s(simulated_s),
        fmt_length_s(s.duration_s),
        fmt_s(wall.as_secs_f64())
    )
}

/// [`tellers_sim::simulate`], saying on `progress` how far the run has got every
/// [`Progress::every`] of wall time (since the first run it was given);
/// the caller clears the line once all its runs have ended. The
/// engine runs in slices of events, which give the same report as one
/// uninterrupted run.
fn simulate_showing_progress(
    s: &Scenario,
    what: &str,
    progress: &mut Progress,
) -> Result<Report, Vec<FieldError>> {
    let mut sim = Simulation::new(s)?;
    if progress.out.is_none() {
        return Ok(sim.run());
    }
    while sim.run_until(u64::MAX, 50_000) {
        progress.tick(|wall| progress_line(what, s, sim.now() as f64 / 1e9, sim.calls(), wall));
        if progress.stop.load(Ordering::SeqCst) {
            progress.clear();
            progress.say(&interrupted_line(what, sim.now() as f64 / 1e9, s));
            (progress.exit)();
            break;
        }
    }
    Ok(sim.report())
}

/// Set by Ctrl-C while a run shows its progress; a second Ctrl-C ends the
/// program at once, wherever it is.
static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// Ctrl-C, while runs show their progress on a terminal: the run in hand
/// stops at its next slice of events, clears its progress line and says
/// where it stopped, where Ctrl-C killed it mid-line (the line stayed).
fn stop_cleanly_on_ctrl_c() {
    let _ = ctrlc::set_handler(|| {
        if INTERRUPTED.swap(true, Ordering::SeqCst) {
            std::process::exit(130);
        }
    });
}

/// What an interrupted run says: `what` (empty for a lone run, "ρ = 0.5:
/// " in a sweep) and how far it got, `now_s` of the scenario's length, s.
fn interrupted_line(what: &str, now_s: f64, s: &Scenario) -> String {
    format!(
        "tellers: {what}interrupted at {} s of {} s simulated; nothing is reported",
        tellers_sim::text::fmt_fixed(now_s, 1),
        tellers_sim::text::fmt_fixed(s.duration_s, 1)
    )
}

fn opt(x: Option<f64>) -> String {
    x.map_or("—".into(), |v| format!("{v:.1}"))
}

/// [`opt`] marked with how the figure stands against a run: "≈ 43.5" for
/// an approximation, "≥ 36.0" for a floor.
fn opt_bounded(x: Option<f64>, bound: Bound) -> String {
    x.map_or("—".into(), |v| {
        format!("{}{:.1}", mark(bound), bound.shown(v, 1))
    })
}

/// How a figure stands against a run, before it: "≈ " for an
/// approximation, "≥ " for a floor, nothing when exact.
fn mark(bound: Bound) -> &'static str {
    match bound {
        Bound::Exact => "",
        Bound::Approx => "≈ ",
        Bound::AtLeast => "≥ ",
    }
}

/// A limit in rps marked with how it stands against a run ([`mark`]).
fn marked_limit(x: f64, bound: Bound) -> String {
    format!("{}{}", mark(bound), limit(x))
}

/// A limit in rps: "no limit" when nothing bounds it (no work at all).
fn limit(x: f64) -> String {
    if x.is_finite() {
        format!("{x:.1}")
    } else {
        "no limit".into()
    }
}

/// The theory column's limits under the throughput row: the capacity, the CPU's, the
/// threads', the dependency's (and, where hedges can tip it over, its limit
/// once every call is sent twice, as the app's figures give it), the tries a
/// second if every try timed out where that passes the capacity, and which
/// one binds.
fn limit_rows(th: &Theory) -> Vec<(&'static str, String)> {
    let cap = &th.capacity;
    let mut rows = vec![
        (
            "  capacity, rps",
            marked_limit(cap.capacity_rps, th.capacity_bound()),
        ),
        (
            "  CPU limit, rps",
            marked_limit(cap.cpu_limit_rps, th.cpu_bound()),
        ),
        (
            "  thread limit, rps",
            cap.thread_limit_rps
                .map_or("—".into(), |t| marked_limit(t, th.thread_limit_bound())),
        ),
    ];
    // Threads that wait for cores finish less than both limits when all
    // are busy: the figure the throughput follows, beside the limits.
    if let Some(p) = th.all_busy_rps() {
        rows.push(("    all threads busy", marked_limit(p, Bound::Approx)));
    }
    if let Some(d) = cap.dep_limit_rps {
        rows.push(("  dependency limit, rps", limit(d)));
        if let Some(t) = th.tipped_limit_rps() {
            rows.push(("    every call sent twice", limit(t)));
        }
    }
    // Where every try timing out would hold the server past its limit:
    // the tries a second then, as the app's throughput row names that state.
    if let Some(t) = th.retry_storm_rps {
        rows.push(("  tries if all time out", limit(t)));
    }
    rows.push((
        "  binding limit",
        cap.binding_limits()
            .into_iter()
            .map(|b| match (b, cap.cpu_part) {
                (Limit::Cpu, CpuPart::Loops) => "cpu (the loops' own steps)".to_owned(),
                (Limit::Cpu, CpuPart::Workers) => "cpu (the workers' steps)".to_owned(),
                (b, _) => format!("{b:?}").to_lowercase(),
            })
            .collect::<Vec<_>>()
            .join(" and "),
    ));
    rows
}

/// The theory column's throughput, rps: what the server is expected to
/// finish ([`Theory::expected_rps`], as the app's figures give it), or,
/// without an offered rate, at most the capacity.
fn throughput_theory(th: &Theory) -> String {
    th.expected_rps.map_or_else(
        || format!("≤ {}", limit(th.capacity.capacity_rps)),
        |x| opt_bounded(Some(x), th.throughput_bound()),
    )
}

fn print_table(s: &Scenario, r: &Report) {
    let th = theory(s);
    out!("{:<28} {:>14} {:>14}", "", "simulated", "theory");
    let row = |name: &str, sim: String, theory: String| out!("{name:<28} {sim:>14} {theory:>14}");
    // No rates over an empty window: the run stopped inside its warm-up.
    let unmeasured = warming_up(r);
    let rated = |x: String| {
        if unmeasured {
            "—".to_owned()
        } else {
            x
        }
    };
    row(
        "throughput, rps",
        rated(format!("{:.1}", r.throughput_rps)),
        throughput_theory(&th),
    );
    for (name, theory) in limit_rows(&th) {
        row(name, String::new(), theory);
    }
    row(
        "CPU utilisation, %",
        rated(format!("{:.1}", r.cpu_utilisation * 100.0)),
        opt_bounded(th.cpu_utilisation.map(|u| u * 100.0), th.cpu_busy_bound()),
    );
    // No request of the measured window finished: no time was measured.
    let measured = |x: f64| opt((r.measured > 0).then_some(x));
    row(
        "latency mean, ms",
        measured(r.latency_ms.mean),
        opt(th.mean_ms),
    );
    row("latency p50, ms", measured(r.latency_ms.p50), String::new());
    row(
        "latency p99, ms",
        measured(r.latency_ms.p99),
        opt(th.p99_ms),
    );
    row("latency max, ms", measured(r.latency_ms.max), String::new());
    row(
        "line wait mean, ms",
        measured(r.queue_wait_ms.mean),
        opt(th.line_wait_ms),
    );
    row(
        "inside (mean) vs λ·W",
        rated(format!("{:.2}", r.mean_in_flight)),
        rated(format!(
            "{}{:.2} λ·W",
            if r.littles_law_exact() { "" } else { "≈ " },
            r.littles_law_in_flight
        )),
    );
    // Growth of every line at once, requests inside, as in the app: the
    // line before the threads stays empty where the line is elsewhere (at
    // the dependency, or threads made for every request).
    row(
        "growth inside, per s",
        rated(no_minus_zero(format!("{:.1}", r.inside_growth_per_s))),
        opt_bounded(th.growth_per_s, th.growth_bound()),
    );
    row(
        "busy tellers (mean)",
        rated(format!("{:.2}", r.mean_busy)),
        opt_bounded(th.busy_threads, th.busy_threads_bound),
    );
    for (name, sim, theory) in thread_rows(s, r, &th) {
        row(name, sim, theory);
    }
    if let Some(b) = r.loop_block_ms {
        row(
            "loop blocked p99, ms",
            format!("{:.2}", b.p99),
            String::new(),
        );
        row(
            "loop blocked max, ms",
            format!("{:.2}", b.max),
            String::new(),
        );
    }
    if let Some(w) = r.worker_wait_ms {
        row("worker wait mean, ms", measured(w.mean), String::new());
        row("worker wait p99, ms", measured(w.p99), String::new());
    }
    out!();
    out!(
        "arrived {}  completed {}  refused {}  dropped {}  timed out {} ({} finished for nobody)  in flight at end {}",
        r.arrived, r.completed, r.refused, r.dropped, r.timed_out, r.finished_after_timeout, r.in_flight_end
    );
    let breaker = s.breaker_after.is_some();
    if r.retries > 0 || r.shed > 0 || r.dropped_hopeless > 0 || s.retries > 0 || breaker {
        let broken = if breaker {
            format!(" ({} at once by the circuit breaker)", r.broken)
        } else {
            String::new()
        };
        out!(
            "calls {}  retries {} ({:.2} tries per call)  succeeded {}  failed {}{broken}  shed {}  dropped as hopeless {}",
            r.calls,
            r.retries,
            r.tries_per_call().unwrap_or(0.0),
            r.calls_succeeded,
            r.calls_failed,
            r.shed,
            r.dropped_hopeless
        );
    }
    out!(
        "peak threads {}  {}  peak connections {}",
        r.peak_threads,
        memory_figures(s, r),
        r.peak_connections
    );
    out!("{}", model_line(&th));
    for line in reason_lines(&th) {
        out!("{line}");
    }
    // "last finish 0.000 s" read as a finish at 0 s when none had finished.
    let last_finish = if r.completed > 0 {
        format!("{:.3} s", r.makespan_s)
    } else {
        "none".to_owned()
    };
    out!(
        "ended at {:.3} s simulated ({})  last finish {last_finish}  {}",
        r.sim_time_s,
        r.stopped_by.why(),
        tellers_sim::text::plural(r.events, "event"),
    );
    // Which bound stopped the run, each field by its flag.
    if let Some(note) = stop_note(s, r, &th, |f| f.flag()) {
        out!("  {note}");
        // The budget itself is a flag here (the app has no control for it).
        if r.stopped_by == StoppedBy::EventBudget && s.max_events < MAX_EVENTS {
            out!(
                "  Or raise --max-events (up to {}).",
                fmt_count(MAX_EVENTS as f64)
            );
        }
    }
    // What the figures could not measure, as the app says it.
    if let Some(note) = measuring_note(s, r) {
        out!("  {note}");
    }
    if let Some(gap) = r.littles_law_gap() {
        out!("  λ·W leaves out {}", gap.text());
    }
    // As the page's "(late answers too)": a median of 134 s beside a
    // 220 ms timeout is the server's time, not a caller's.
    if s.timeout_ms.is_some() && r.finished_after_timeout > 0 {
        out!(
            "  the latencies count answers that came after their caller gave up ({} of them)",
            fmt_count(r.finished_after_timeout as f64)
        );
    }
}

/// The summary's memory at the peak, each figure saying what it counts
/// ("memory reserved 4.0 MB, used 100.4 MB" read as if use had passed the
/// reserve): the stacks set aside, MB, and the memory really used, MB:
/// the stacks' used part, plus the state kept per open connection where
/// the model keeps it (the `conn_state_kb` field's own rule says where).
fn memory_figures(s: &Scenario, r: &Report) -> String {
    let connections = s.keeps_connection_state();
    format!(
        "stacks reserved {:.1} MB  memory used {:.1} MB (stacks used{})",
        r.peak_memory_reserved_mb,
        r.peak_memory_used_mb,
        if connections {
            " + connection state"
        } else {
            ""
        }
    )
}

/// A shrink that rounds to nothing is 0, not "-0.0".
fn no_minus_zero(shown: String) -> String {
    match shown.strip_prefix('-') {
        Some(rest) if rest.bytes().all(|b| b == b'0' || b == b'.') => rest.to_owned(),
        _ => shown,
    }
}

/// The rows of threads, their stacks and a batch's last finish, simulated
/// beside theory, where the app's figures show them: threads for a pool or
/// a thread per request, memory always, the last finish for a batch.
fn thread_rows(s: &Scenario, r: &Report, th: &Theory) -> Vec<(&'static str, String, String)> {
    // "up to 30", "mean ≈ 16.4": what kind of count theory gives.
    let (how, threads) = match th.threads {
        Some(Threads::UpTo(n)) => ("up to ", n.to_string()),
        Some(Threads::Mean { mean, .. }) => {
            let bound = th.busy_threads_bound;
            let how = if bound == Bound::AtLeast {
                "mean ≥ "
            } else {
                "mean ≈ "
            };
            (how, format!("{:.1}", bound.shown(mean, 1)))
        }
        Some(t) => ("", t.count().to_string()),
        None => ("", "—".to_owned()),
    };
    let mut rows = Vec::new();
    if matches!(s.model, Model::ThreadPool | Model::ThreadPerRequest) {
        rows.push((
            "threads alive (peak)",
            r.peak_threads.to_string(),
            format!("{how}{threads}"),
        ));
    }
    rows.push((
        "stack reserved (peak), MB",
        format!("{:.1}", r.peak_memory_reserved_mb),
        th.stack_reserved_mb
            .map_or("—".into(), |mb| format!("{how}{mb:.1}")),
    ));
    if s.arrivals == Arrivals::Batch {
        rows.push((
            "last finish, s",
            format!("{:.3}", r.makespan_s),
            th.makespan.map_or("—".into(), |m| {
                format!(
                    "{:.3}{}",
                    m.makespan_s,
                    if m.exact { "" } else { " approx." }
                )
            }),
        ));
    }
    rows
}

fn sweep(s: &Scenario, points: &[f64], json: bool) -> Result<(), String> {
    let rows = sweep_rows(s, points)?;
    sweep_print(rows, json);
    Ok(())
}

/// `simulate --json`: the report's figures, then the scenario that ran
/// (the preset or file with the flags on it, every field: run it again
/// with `--scenario`) and what theory says of it, the table's "theory"
/// column in full. The report is written as it is (its floats exactly as
/// `Report::to_json` writes them), with the two objects added at its end.
fn report_json(r: &Report, s: &Scenario, series: bool) -> String {
    let report = r.to_json(series);
    let body = report
        .strip_suffix('}')
        .expect("a report is written as one JSON object");
    let scenario = serde_json::to_string(s).expect("a scenario serialises");
    let theory = serde_json::to_string(&theory(s)).expect("theory serialises");
    format!("{body},\"scenario\":{scenario},\"theory\":{theory}}}")
}

/// One row per utilisation point: theory at the point (with whether each
/// figure is exact) and the simulated run.
fn sweep_rows(s: &Scenario, points: &[f64]) -> Result<Vec<serde_json::Value>, String> {
    let th = theory(s);
    let mut rows = Vec::new();
    let mut progress = Progress::on_a_terminal();
    for (i, &rho) in points.iter().enumerate() {
        // The app's curve runs exactly these points.
        let sc = tellers_sim::sweep::sweep_scenario(s, &th, rho).ok_or(
            "sweep: this scenario has no finite capacity, so there is no utilisation to sweep",
        )?;
        // A rate the simulator does not take is neither run nor given
        // theory: the point would be the nearest rate's, labelled with ρ.
        if let Some(why) = tellers_sim::sweep::rate_missed(&th, rho) {
            rows.push(serde_json::json!({
                "rho": rho, "rps": rho * th.capacity.capacity_rps,
                "theory_mean_ms": null, "theory_p99_ms": null,
                "theory_mean_exact": false, "theory_p99_exact": false,
                "theory_approx_because": [],
                "sim_mean_ms": null, "sim_p99_ms": null,
                "sim_cpu": null, "completed": 0,
                "sim_arrival_rps": null, "missed_because": why,
            }));
            continue;
        }
        let point_theory = theory(&sc);
        let what = format!("point {} of {} (ρ = {rho}): ", i + 1, points.len());
        let r = simulate_showing_progress(&sc, &what, &mut progress).map_err(|e| {
            progress.clear();
            format!("sweep: point ρ = {rho} is not valid: {e:?}")
        })?;
        // A point that cannot be drawn (nothing finished, or it never
        // reached its load) has no simulated time (null, "—"), and says why.
        let missed = tellers_sim::sweep::point_missed(&sc, &r);
        let done = missed.is_none().then_some(&r.latency_ms);
        rows.push(serde_json::json!({
            "rho": rho, "rps": sc.rps,
            "theory_mean_ms": point_theory.mean_ms, "theory_p99_ms": point_theory.p99_ms,
            "theory_mean_exact": point_theory.mean_exact, "theory_p99_exact": point_theory.p99_exact,
            "theory_approx_because": point_theory.approx_because,
            "sim_mean_ms": done.map(|l| l.mean), "sim_p99_ms": done.map(|l| l.p99),
            "sim_cpu": r.cpu_utilisation, "completed": r.completed,
            "sim_arrival_rps": r.arrival_rps, "missed_because": missed,
        }));
    }
    progress.clear();
    Ok(rows)
}

fn sweep_print(rows: Vec<serde_json::Value>, json: bool) {
    if json {
        out!("{}", serde_json::Value::Array(rows));
        return;
    }
    // Each point's reasons its theory is approximate, with its ρ.
    let rows_why: Vec<(f64, String)> = rows
        .iter()
        .flat_map(|r| {
            let rho = r["rho"].as_f64().unwrap_or(f64::NAN);
            let why = r["theory_approx_because"].as_array().cloned();
            why.unwrap_or_default()
                .into_iter()
                .filter_map(move |w| w.as_str().map(|w| (rho, w.to_owned())))
        })
        .collect();
    // One layout for the heading, its units and every point.
    let line = |c: [&str; 6]| {
        out!(
            "{:>5} {:>9} {:>12} {:>12} {:>12} {:>12}",
            c[0],
            c[1],
            c[2],
            c[3],
            c[4],
            c[5]
        )
    };
    line([
        "ρ",
        "rps",
        "theory mean",
        "sim mean",
        "theory p99",
        "sim p99",
    ]);
    // The response times' unit, said once under the heading.
    line(["", "", "ms", "ms", "ms", "ms"]);
    let mut approx = false;
    for r in &rows {
        // Three significant digits below 100 (a rate of 0.0033 rps is not 0.0).
        let f = |k: &str| {
            r[k].as_f64().map_or("—".to_string(), |v| {
                if v != 0.0 && v.abs() < 100.0 {
                    let decimals = (2 - v.abs().log10().floor() as i32).clamp(1, 9) as usize;
                    format!("{v:.decimals$}")
                } else {
                    format!("{v:.1}")
                }
            })
        };
        let rho = r["rho"]
            .as_f64()
            .map_or("—".to_string(), |v| format!("{v:.2}"));
        // An approximate theory figure is marked, as `simulate` labels it.
        let inexact = |k: &str, exact: &str| r[exact].as_bool() == Some(false) && r[k].is_number();
        approx |= inexact("theory_mean_ms", "theory_mean_exact")
            || inexact("theory_p99_ms", "theory_p99_exact");
        let theory = |k: &str, exact: &str| {
            let star = if inexact(k, exact) { "*" } else { "" };
            format!("{}{star}", f(k))
        };
        line([
            &rho,
            &f("rps"),
            &theory("theory_mean_ms", "theory_mean_exact"),
            &f("sim_mean_ms"),
            &theory("theory_p99_ms", "theory_p99_exact"),
            &f("sim_p99_ms"),
        ]);
    }
    // Points with no simulated figures, and why, once for each reason.
    let mut missed: Vec<(&str, Vec<String>)> = Vec::new();
    for r in &rows {
        if let (Some(why), Some(rho)) = (r["missed_because"].as_str(), r["rho"].as_f64()) {
            match missed.iter_mut().find(|(w, _)| *w == why) {
                Some((_, at)) => at.push(format!("{rho:.2}")),
                None => missed.push((why, vec![format!("{rho:.2}")])),
            }
        }
    }
    for (why, at) in missed {
        out!(
            "— ρ = {}: not simulated: {why}",
            tellers_sim::text::and_list(&at)
        );
    }
    // Why, once each: the points' own theory (Poisson arrivals at each
    // rate, nothing refused or retried), which can differ from the
    // scenario's.
    if approx {
        for line in approx_footnotes(&rows_why) {
            out!("{line}");
        }
    }
}

/// The sweep's footnotes on approximate theory, from each point's (ρ,
/// reason): a reason once, and a reason that recurs with each point's own
/// numbers ("they open at 0.40 a second", "at 0.60 a second") once, at
/// its first point, with the others named.
fn approx_footnotes(whys: &[(f64, String)]) -> Vec<String> {
    // The reason with its numbers blanked: "they open at # a second".
    let shape = |why: &str| -> String {
        let mut out = String::new();
        let mut in_number = false;
        for c in why.chars() {
            let digit = c.is_ascii_digit() || (in_number && matches!(c, '.' | ','));
            if digit && !in_number {
                out.push('#');
            } else if !digit {
                out.push(c);
            }
            in_number = digit;
        }
        out
    };
    let mut groups: Vec<(String, &str, Vec<f64>, bool)> = Vec::new();
    for (rho, why) in whys {
        let sh = shape(why);
        match groups.iter_mut().find(|(s, ..)| *s == sh) {
            Some((_, first, at, same)) => {
                *same &= *first == why.as_str();
                if !at.contains(rho) {
                    at.push(*rho);
                }
            }
            None => groups.push((sh, why, vec![*rho], true)),
        }
    }
    groups
        .into_iter()
        .map(|(_, first, at, same)| {
            if same || at.len() < 2 {
                return format!("* approximate because {first}");
            }
            let others: Vec<String> = at[1..].iter().map(|r| format!("{r:.2}")).collect();
            format!(
                "* approximate because {first} (at ρ = {:.2}; likewise at ρ = {}, with their own figures)",
                at[0],
                tellers_sim::text::and_list(&others)
            )
        })
        .collect()
}

// The bench times the engine: the one place a wall clock belongs.
#[allow(clippy::disallowed_methods)]
fn bench(n: u64, json: bool) {
    let (c, rho, svc) = (4, 0.9, 10.0);
    let _ = bench_scenario(c, rho, svc, n);
    // Warm up both once on a small run, then time them side by side.
    reference_mmc(c, rho, svc, n / 20, 1);
    engine_mmc(c, rho, svc, n / 20, 1);
    let t = Instant::now();
    let ref_mean = reference_mmc(c, rho, svc, n, 1);
    let ref_s = t.elapsed().as_secs_f64();
    let t = Instant::now();
    let (eng_mean, events) = engine_mmc(c, rho, svc, n, 1);
    let eng_s = t.elapsed().as_secs_f64();
    let theory = tellers_sim::analytic::mmc_response_ms(c, svc, rho);
    let (ref_rate, eng_rate) = (n as f64 / ref_s, n as f64 / eng_s);
    if json {
        out!(
            "{}",
            serde_json::json!({
                "scenario": "M/M/4, rho 0.9, 10 ms service", "requests": n,
                "reference_rps": ref_rate, "engine_rps": eng_rate, "ratio": eng_rate / ref_rate,
                "engine_events": events, "theory_mean_ms": theory,
                "reference_mean_ms": ref_mean, "engine_mean_ms": eng_mean,
            })
        );
        return;
    }
    out!("M/M/4 at ρ = 0.9, 10 ms mean service, {n} requests, one core");
    out!(
        "  minimal M/M/c loop  {:>7.2} M requests/s  mean {ref_mean:.2} ms",
        ref_rate / 1e6
    );
    out!(
        "  tellers engine      {:>7.2} M requests/s  mean {eng_mean:.2} ms  ({events} events)",
        eng_rate / 1e6
    );
    out!(
        "  ratio engine/loop   {:>7.3}   (theory mean {theory:.2} ms)",
        eng_rate / ref_rate
    );
}

/// Theory's reasons under the table: they qualify the figures theory
/// gives; when it gives none, they describe its model (as the app's note
/// beside its figures does), not an approximation of nothing.
fn reason_lines(th: &Theory) -> Vec<String> {
    let gives = th.mean_ms.is_some() || th.p99_ms.is_some();
    th.approx_because
        .iter()
        .chain(&th.figure_notes)
        .map(|why| {
            if gives {
                format!("  approximate because {why}")
            } else {
                format!("  about the model: {why}")
            }
        })
        .collect()
}

/// The run's "model of the line" line: this scenario's own line
/// ([`Theory::model_of_line`]) and whether each response time theory gives
/// is exact; "none" for one it does not give.
fn model_line(th: &Theory) -> String {
    // "mean none, p99 none" said nothing of why. Theory's own growth says
    // the line grows (not where a line limit, shedding or drops cap it).
    if th.growth_per_s.is_some_and(|g| g > 0.0) && th.mean_ms.is_none() && th.p99_ms.is_none() {
        return format!(
            "model of the line: {}; no mean or p99 in theory: the arrivals reach its capacity, so the line grows without end",
            th.model_of_line
        );
    }
    let label = |x: Option<f64>, exact: bool| x.map_or("none", |_| Theory::label(exact));
    format!(
        "model of the line: {}; mean {}, p99 {}",
        th.model_of_line,
        label(th.mean_ms, th.mean_exact),
        label(th.p99_ms, th.p99_exact)
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use tellers_sim::presets::preset;
    use tellers_sim::simulate;

    /// A writer that keeps what it was given where the test can read it.
    #[derive(Clone, Default)]
    struct Kept(std::rc::Rc<std::cell::RefCell<Vec<u8>>>);

    impl Write for Kept {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0.borrow_mut().extend_from_slice(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn a_reason_that_recurs_with_each_points_numbers_is_one_footnote() {
        let whys: Vec<(f64, String)> = vec![
            (0.2, "they open at 0.40 a second".into()),
            (0.2, "service times are not random".into()),
            (0.3, "they open at 0.60 a second".into()),
            (0.3, "service times are not random".into()),
            (0.95, "they open at 1,900.5 a second".into()),
        ];
        assert_eq!(
            approx_footnotes(&whys),
            [
                "* approximate because they open at 0.40 a second (at ρ = 0.20; likewise at ρ = 0.30 and 0.95, with their own figures)",
                "* approximate because service times are not random",
            ]
        );
        // The same words at every point: once, as it is.
        let once = approx_footnotes(&[(0.1, "x is 5".into()), (0.2, "x is 5".into())]);
        assert_eq!(once, ["* approximate because x is 5"]);
    }

    #[test]
    fn a_progress_line_says_how_much_of_the_run_is_simulated() {
        let hour = Scenario {
            duration_s: 3600.0,
            ..Scenario::default()
        };
        assert_eq!(
            progress_line("", &hour, 12.34, (5000, None), Duration::from_millis(5200)),
            "tellers: simulated 12.3 s of 3,600 s in 5.2 s"
        );
        let counted = Scenario {
            requests: Some(100_000),
            ..Scenario::default()
        };
        let mut sim = Simulation::new(&counted).unwrap();
        sim.run_until(u64::MAX, 10_000);
        let (made, most) = sim.calls();
        assert!(made > 0 && made < 100_000, "{made}");
        assert_eq!(most, Some(100_000));
        assert_eq!(
            progress_line(
                "point 2 of 9 (ρ = 0.5): ",
                &counted,
                0.5,
                (40_000, most),
                Duration::from_secs(2)
            ),
            "tellers: point 2 of 9 (ρ = 0.5): simulated 0.50 s of 60 s, 40,000 of 100,000 requests sent, in 2.0 s"
        );
        // A batch's count ends its arrivals too.
        let batch = Scenario {
            arrivals: Arrivals::Batch,
            count: 500,
            ..Scenario::default()
        };
        assert_eq!(Simulation::new(&batch).unwrap().calls(), (0, Some(500)));
    }

    /// Shown after every slice (as if each took a second), the progress
    /// is rewritten in place and cleared at the end, and the report is the
    /// one an uninterrupted run gives, field for field.
    #[test]
    fn a_run_showing_progress_reports_as_one_uninterrupted_run() {
        let s = Scenario {
            rps: 5000.0,
            duration_s: 200.0,
            ..Scenario::default()
        };
        let kept = Kept::default();
        let mut progress = Progress::to(Some(Box::new(kept.clone())), Duration::ZERO);
        let r = simulate_showing_progress(&s, "", &mut progress).unwrap();
        progress.clear();
        assert_eq!(r.to_json(true), simulate(&s).unwrap().to_json(true));
        let text = String::from_utf8(kept.0.borrow().clone()).unwrap();
        let lines: Vec<&str> = text.split('\r').filter(|l| !l.is_empty()).collect();
        assert!(lines.len() >= 3, "{text:?}");
        assert!(lines[0].starts_with("tellers: simulated "), "{text:?}");
        assert!(lines[0].contains(" of 200 s in "), "{text:?}");
        assert_eq!(*lines.last().unwrap(), "\x1b[K");
        // Nowhere to say it: the same report.
        let mut quiet = Progress::to(None, Duration::ZERO);
        let q = simulate_showing_progress(&s, "", &mut quiet).unwrap();
        assert_eq!(q.to_json(true), r.to_json(true));
    }

    /// Ctrl-C stops a run at its next slice of events: it clears the
    /// progress line and says where the run stopped (Ctrl-C killed it
    /// mid-line, and the line stayed on the terminal).
    #[test]
    fn a_run_stopped_by_ctrl_c_clears_its_line_and_says_where() {
        static STOP: AtomicBool = AtomicBool::new(true);
        let kept = Kept::default();
        let mut progress = Progress {
            stop: &STOP,
            exit: || {},
            ..Progress::to(Some(Box::new(kept.clone())), Duration::ZERO)
        };
        let s = Scenario {
            duration_s: 600.0,
            ..Scenario::default()
        };
        let r = simulate_showing_progress(&s, "", &mut progress).unwrap();
        assert!(r.sim_time_s < 600.0, "{}", r.sim_time_s);
        let said = String::from_utf8(kept.0.borrow().clone()).unwrap();
        // The progress line, then it cleared, and where the run stopped.
        let last = said.rsplit('\r').next().unwrap();
        assert!(said.starts_with("\rtellers: simulated "), "{said:?}");
        assert!(
            last.starts_with("\x1b[Ktellers: interrupted at ")
                && last.ends_with(" s of 600.0 s simulated; nothing is reported\n"),
            "{said:?}"
        );
    }

    /// A sweep's points share one progress line, cleared once at the end:
    /// its timer ran from each point's start, so points of under a
    /// second each never said anything.
    #[test]
    fn a_sweeps_points_share_one_progress_line() {
        let s = Scenario {
            rps: 5000.0,
            duration_s: 20.0,
            ..Scenario::default()
        };
        let kept = Kept::default();
        let mut progress = Progress::to(Some(Box::new(kept.clone())), Duration::ZERO);
        for what in ["point 1 of 2: ", "point 2 of 2: "] {
            simulate_showing_progress(&s, what, &mut progress).unwrap();
        }
        let before_clear = String::from_utf8(kept.0.borrow().clone()).unwrap();
        assert!(
            before_clear.contains("point 1 of 2") && before_clear.contains("point 2 of 2"),
            "{before_clear:?}"
        );
        assert!(
            !before_clear.ends_with("\r\x1b[K"),
            "cleared between points"
        );
        progress.clear();
        let text = String::from_utf8(kept.0.borrow().clone()).unwrap();
        assert_eq!(text.matches("\r\x1b[K").count(), 1, "one clear, at the end");
        assert!(text.ends_with("\r\x1b[K"));
        // One timer: a third run keeps the sweep's start.
        let started = progress.started;
        simulate_showing_progress(&s, "point 3: ", &mut progress).unwrap();
        assert!(
            started.is_some() && progress.started == started,
            "the timer restarted"
        );
    }

    /// An overloaded run's theory says why it has no response time.
    #[test]
    fn theorys_missing_mean_under_overload_is_explained() {
        let sale = preset("sale-day").unwrap();
        let line = model_line(&theory(&sale));
        assert!(
            line.ends_with("the arrivals reach its capacity, so the line grows without end"),
            "{line}"
        );
        // A line limit caps it: not said to grow without end.
        let capped = Scenario {
            queue_limit: Some(50),
            ..sale
        };
        let line = model_line(&theory(&capped));
        assert!(!line.contains("without end"), "{line}");
        let mm1 = preset("mm1").unwrap();
        let line = model_line(&theory(&mm1));
        assert!(line.ends_with("mean exact, p99 exact"), "{line}");
    }

    #[test]
    fn a_scenario_file_is_read_up_to_a_megabyte() {
        let dir = std::env::temp_dir().join(format!("tellers-cli-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let big = dir.join("big.json");
        std::fs::write(&big, " ".repeat(MAX_SCENARIO_FILE_BYTES as usize + 1)).unwrap();
        let e = read_scenario_file(big.to_str().unwrap()).unwrap_err();
        assert_eq!(e, "larger than 1 MB; a scenario file is a few KB");
        let fits = dir.join("fits.json");
        std::fs::write(&fits, "{\"cores\": 2}").unwrap();
        assert_eq!(
            read_scenario_file(fits.to_str().unwrap()).unwrap(),
            "{\"cores\": 2}"
        );
        // An endless file is refused without reading it all.
        if std::path::Path::new("/dev/zero").exists() {
            assert!(read_scenario_file("/dev/zero").is_err());
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// A run stopped inside its warm-up has no rates to show: the table
    /// says so, and the report's line growth is over the run so far (it
    /// was a line over 1 ns: 10^15 a second for `--rps 1000000`).
    #[test]
    fn a_run_stopped_inside_its_warm_up_says_nothing_was_measured() {
        let flood = Scenario {
            rps: 1_000_000.0,
            duration_s: 86_400.0,
            ..Scenario::default()
        };
        let r = simulate(&flood).unwrap();
        assert!(
            r.sim_time_s <= r.warmup_s,
            "{} {}",
            r.sim_time_s,
            r.warmup_s
        );
        assert!(warming_up(&r));
        let note = measuring_note(&flood, &r).unwrap();
        assert!(
            note.starts_with("Nothing was measured: the run stopped inside its 8,640 s warm-up."),
            "{note}"
        );
        let so_far = r.queue_len_end as f64 / r.sim_time_s;
        assert!(
            (r.queue_growth_per_s - so_far).abs() < 1e-6 * so_far,
            "{}",
            r.queue_growth_per_s
        );
        // A finished run's short window is still measured.
        let short = Scenario {
            duration_s: 1.0,
            ..Scenario::default()
        };
        let r = simulate(&short).unwrap();
        assert!(!warming_up(&r));
        assert_eq!(measuring_note(&short, &r), None);
        let mm1 = preset("mm1").unwrap();
        assert_eq!(measuring_note(&mm1, &simulate(&mm1).unwrap()), None);
        // A batch has no warm-up to stop in (it was "inside its warm-up
        // (the first 0.000 s)").
        let batch = Scenario {
            arrivals: Arrivals::Batch,
            max_events: 1000,
            ..Scenario::default()
        };
        let r = simulate(&batch).unwrap();
        assert_eq!(r.sim_time_s, 0.0);
        assert_eq!(
            measuring_note(&batch, &r).unwrap(),
            "Nothing was measured: the run stopped as it began."
        );
    }

    #[test]
    fn the_model_line_names_the_scenarios_own_line() {
        let mm4 = preset("mm4").unwrap();
        assert_eq!(
            model_line(&theory(&mm4)),
            "model of the line: M/M/4 at the 4 cores; mean exact, p99 exact"
        );
        let even = Scenario {
            arrivals: Arrivals::Uniform,
            ..mm4.clone()
        };
        assert_eq!(
            model_line(&theory(&even)),
            "model of the line: D/M/4 at the 4 cores; mean none, p99 none"
        );
        let batch = Scenario {
            arrivals: Arrivals::Batch,
            count: 100,
            ..mm4
        };
        let line = model_line(&theory(&batch));
        assert!(
            line.starts_with("model of the line: none: 100 requests all at once"),
            "{line}"
        );
        // No figure, so nothing is "approximate": the reasons describe the model.
        // (A batch whose requests use some CPU: its threads queue for cores.)
        let batch = Scenario {
            cpu_ms: 1.0,
            ..preset("batch-pool-20").unwrap()
        };
        let lines = reason_lines(&theory(&batch));
        assert!(
            !lines.is_empty() && lines.iter().all(|l| l.starts_with("  about the model: ")),
            "{lines:?}"
        );
        let pool = Scenario {
            rps: 300.0,
            ..preset("sale-day-pool-40").unwrap()
        };
        let lines = reason_lines(&theory(&pool));
        assert!(
            !lines.is_empty()
                && lines
                    .iter()
                    .all(|l| l.starts_with("  approximate because ")),
            "{lines:?}"
        );
    }

    /// The limits say the dependency's where it has one and, where hedges
    /// can tip it over for good (lesson 16: 160 slots, 100 rps), its limit
    /// with every call sent twice too, as the app's figures do.
    #[test]
    fn the_limits_give_the_dependencys_and_its_limit_with_every_call_hedged() {
        let hedged = Scenario {
            dep_concurrency: Some(160),
            ..preset("fan-out-100-hedged").unwrap()
        };
        let rows = limit_rows(&theory(&hedged));
        let of = |name: &str| rows.iter().find(|r| r.0 == name).map(|r| r.1.clone());
        assert_eq!(of("  dependency limit, rps").as_deref(), Some("152.4"));
        assert_eq!(of("    every call sent twice").as_deref(), Some("80.0"));
        assert_eq!(of("  binding limit").as_deref(), Some("dependency"));
        // The sale day's 40 threads tie its cores: both are named.
        let tie = limit_rows(&theory(&preset("sale-day-pool-40").unwrap()));
        let binding = tie.iter().find(|r| r.0 == "  binding limit");
        assert_eq!(binding.map(|r| r.1.as_str()), Some("cpu and threads"));
        // Certain overload: theory's limit is already the one with every
        // call sent twice; no second line.
        let certain = Scenario {
            dep_concurrency: Some(100),
            ..hedged.clone()
        };
        let rows = limit_rows(&theory(&certain));
        assert!(
            rows.iter().all(|r| r.0 != "    every call sent twice"),
            "{rows:?}"
        );
        let plain = limit_rows(&theory(&preset("mm4").unwrap()));
        assert!(
            plain.iter().all(|r| !r.0.contains("dependency")),
            "{plain:?}"
        );
    }

    /// The throughput row's theory is what the app's figures expect the
    /// server to finish, not its capacity: the sale day's pool of 40 at
    /// its own 400 a second finishes about 365 (its threads wait for the
    /// cores); the capacity moves to the limits' rows.
    #[test]
    fn the_throughput_row_is_what_theory_expects_the_server_to_finish() {
        let th = theory(&preset("sale-day-pool-40").unwrap());
        let shown = throughput_theory(&th);
        let rps: f64 = shown.trim_start_matches("≈ ").parse().unwrap();
        assert!((364.0..366.0).contains(&rps), "{shown}");
        assert!(shown.starts_with("≈ "), "{shown}");
        let rows = limit_rows(&th);
        assert_eq!(rows[0], ("  capacity, rps", "≈ 400.0".to_owned()));
        // Under the capacity, the offered rate, as exact as the load is.
        let mm1 = theory(&preset("mm1").unwrap());
        assert_eq!(
            throughput_theory(&mm1),
            format!("{:.1}", mm1.offered_rps.unwrap())
        );
        // Without an offered rate: at most the capacity.
        let batch = theory(&preset("batch-pool-20").unwrap());
        assert!(
            throughput_theory(&batch).starts_with("≤ "),
            "{}",
            throughput_theory(&batch)
        );
    }

    /// The CLI shows theory's threads, stacks and a batch's last finish
    /// where the app does.
    #[test]
    fn threads_stacks_and_a_batchs_last_finish_have_theory() {
        let batch = preset("batch-pool-20").unwrap();
        let rows = thread_rows(&batch, &Report::default(), &theory(&batch));
        let theory_of = |rows: &[(&str, String, String)], name: &str| {
            rows.iter()
                .find(|r| r.0 == name)
                .map(|r| r.2.clone())
                .unwrap_or_else(|| panic!("no row {name}: {rows:?}"))
        };
        assert_eq!(theory_of(&rows, "last finish, s"), "5.000");
        assert_eq!(theory_of(&rows, "threads alive (peak)"), "20");
        assert_eq!(theory_of(&rows, "stack reserved (peak), MB"), "20.0");
        let cpu = Scenario {
            cpu_ms: 1.0,
            ..batch
        };
        let rows = thread_rows(&cpu, &Report::default(), &theory(&cpu));
        assert!(theory_of(&rows, "last finish, s").ends_with(" approx."));
        let tpr = Scenario {
            model: Model::ThreadPerRequest,
            ..Scenario::default()
        };
        let th = theory(&tpr);
        let rows = thread_rows(&tpr, &Report::default(), &th);
        let n = th.threads.unwrap().count();
        assert_eq!(
            theory_of(&rows, "threads alive (peak)"),
            format!("mean ≈ {n:.1}")
        );
        assert!(rows.iter().all(|r| r.0 != "last finish, s"));
        // Event loops: no thread row (as in the app), but their stacks.
        let loops = preset("sale-day-event-loop").unwrap();
        let rows = thread_rows(&loops, &Report::default(), &theory(&loops));
        assert!(rows.iter().all(|r| r.0 != "threads alive (peak)"));
        assert_eq!(theory_of(&rows, "stack reserved (peak), MB"), "4.0");
    }

    /// The CLI says which bound stopped a run as the app does, each field
    /// by its flag from the field table: under a load schedule the
    /// schedule sets the load, not --rps.
    #[test]
    fn the_stop_note_names_flags_from_the_field_table() {
        use tellers_sim::report::StoppedBy;
        let flag = |name: &str| Scenario::field(name).unwrap().flag();
        let note = |s: &Scenario, by: StoppedBy| {
            let r = Report {
                sim_time_s: 2.0,
                stopped_by: by,
                ..Report::default()
            };
            stop_note(s, &r, &theory(s), |f| f.flag()).unwrap()
        };
        let scheduled = preset("spike-metastable").unwrap();
        for by in [
            StoppedBy::InFlightLimit,
            StoppedBy::CallLimit,
            StoppedBy::ConnLimit,
            StoppedBy::EventBudget,
        ] {
            let text = note(&scheduled, by);
            assert!(
                !text
                    .replace(&flag("rps_schedule"), "")
                    .contains(&flag("rps"))
                    && text.contains(&format!("the rates in the {}", flag("rps_schedule"))),
                "{text}"
            );
        }
        let plain = Scenario {
            rps: 1_000_000.0,
            ..Scenario::default()
        };
        let text = note(&plain, StoppedBy::InFlightLimit);
        assert!(
            text.contains("more than 1,000,000 requests")
                && text.contains(&format!("Lower the {},", flag("rps")))
                && text.contains(&format!("set a {} so", flag("queue_limit"))),
            "{text}"
        );
        let text = note(&plain, StoppedBy::CallLimit);
        assert!(
            text.contains(&format!(
                "Lower the {} or the {},",
                flag("fan_out"),
                flag("rps")
            )),
            "{text}"
        );
        let text = note(&plain, StoppedBy::EventBudget);
        assert!(
            text.contains(&format!("A shorter {} or", flag("duration_s"))),
            "{text}"
        );
        assert_eq!(
            stop_note(&plain, &Report::default(), &theory(&plain), |f| f.flag()),
            None
        );
    }

    #[test]
    fn a_shrink_that_rounds_to_nothing_is_0() {
        assert_eq!(no_minus_zero(format!("{:.1}", -0.04)), "0.0");
        assert_eq!(no_minus_zero(format!("{:.1}", -0.06)), "-0.1");
        assert_eq!(no_minus_zero(format!("{:.1}", 2.0)), "2.0");
    }

    /// A point whose rate the simulator does not take is not run and says
    /// so, with the rate it stands for (both points above ρ 0.1 ran at
    /// 1,000,000 rps, the same run, and were labelled 0.5 and 0.9).
    #[test]
    fn a_sweep_point_beyond_the_simulators_rates_is_not_run() {
        let fast = Scenario {
            cores: 64,
            cpu_ms: 0.01,
            wait_ms: 0.0,
            threads: 1000,
            ..Scenario::default()
        };
        let cap = theory(&fast).capacity.capacity_rps;
        let rows = sweep_rows(&fast, &[0.1, 0.5]).unwrap();
        assert!(rows[0]["missed_because"].is_null(), "{}", rows[0]);
        assert!(rows[0]["sim_mean_ms"].is_number());
        assert_eq!(rows[1]["rps"].as_f64(), Some(0.5 * cap));
        assert!(rows[1]["sim_mean_ms"].is_null() && rows[1]["theory_mean_ms"].is_null());
        assert!(rows[1]["missed_because"]
            .as_str()
            .unwrap()
            .contains("above 1,000,000 rps"));
    }

    /// A sweep says which theory figures are exact at its points: the
    /// sale day's p99 on 20 threads (theory's pool line on 4 cores) is an
    /// approximation, and so is any service but an exponential one on
    /// several servers (M/D/1's once printed unmarked, 92 against 44; one
    /// server's is exact now).
    #[test]
    fn a_sweep_marks_approximate_theory() {
        let says = |rows: &[serde_json::Value], what: &str| {
            rows[0]["theory_approx_because"]
                .as_array()
                .unwrap()
                .iter()
                .any(|w| w.as_str().unwrap().contains(what))
        };
        let rows = sweep_rows(&preset("sale-day").unwrap(), &[0.5]).unwrap();
        assert_eq!(rows[0]["theory_p99_exact"], false);
        assert!(says(&rows, "a simpler line's p99"));
        let four = Scenario {
            threads: 4,
            ..preset("sale-day").unwrap()
        };
        let rows = sweep_rows(&four, &[0.5]).unwrap();
        assert_eq!(rows[0]["theory_p99_exact"], false);
        assert!(says(&rows, "several servers"));
        for name in ["mm1", "md1"] {
            let rows = sweep_rows(&preset(name).unwrap(), &[0.5]).unwrap();
            assert_eq!(rows[0]["theory_mean_exact"], true, "{name}");
            assert_eq!(rows[0]["theory_p99_exact"], true, "{name}");
        }
    }

    /// The busy-tellers theory is threads busy, at most the pool, and
    /// nothing for event loops (it printed 40 for a pool of 20, and 20 for
    /// four loops).
    #[test]
    fn busy_threads_are_at_most_the_pool_and_none_for_loops() {
        let sale = preset("sale-day").unwrap();
        assert_eq!(theory(&sale).busy_threads, Some(20.0));
        let loops = preset("sale-day-event-loop").unwrap();
        assert_eq!(theory(&loops).busy_threads, None);
    }
}
