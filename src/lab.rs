//! The running side of a simulation widget: the animated run, the run to
//! the end and the sweep behind the curve, all in small slices so the page
//! never freezes.
//!
//! Every slice stops after [`SLICE_MS`] of wall time and hands the main
//! thread back (the next animation frame, or a zero timeout), so no task
//! comes near the 50 ms a browser calls a long task. A generation number
//! cancels the slices of a run that a new scenario has replaced.

use std::time::Duration;

use leptos::html;
use leptos::prelude::*;
use tellers_sim::report::Report;
use tellers_sim::theory::{theory, Theory};
use tellers_sim::{Scenario, Simulation, Snapshot, StoppedBy};

use crate::charts::SweepPoint;
use crate::draw::{draw_tellers, Theme};
use crate::figures::{budget_note, stop_note};
use crate::format::{fmt_length_s, fmt_num, fmt_s};
use tellers_sim::sweep::{point_missed, rate_missed, sweep_scenario, SWEEP_RHOS};

/// Wall time one slice may use, ms.
pub const SLICE_MS: f64 = 5.0;
// A slice shares its frame with drawing and the browser's own work, and the
// Long Tasks API only reports tasks over 50 ms, so the browser tests would
// not notice a slice of 40 ms until a slower machine did: the build does.
const _: () = assert!(
    SLICE_MS <= 10.0,
    "SLICE_MS must leave the frame room to draw"
);
/// Events between two looks at the clock.
const CHUNK: u64 = 2_000;
/// How often the figures follow the animation, ms.
const REPORT_EVERY_MS: f64 = 250.0;

/// The page's clock, ms since it opened (0 without one).
pub fn now_ms() -> f64 {
    web_sys::window()
        .and_then(|w| w.performance())
        .map_or(0.0, |p| p.now())
}

/// True when the learner asked the system for less motion.
pub fn prefers_reduced_motion() -> bool {
    thread_local! {
        static LIST: Option<web_sys::MediaQueryList> = media_list("(prefers-reduced-motion: reduce)");
    }
    LIST.with(|l| l.as_ref().is_some_and(web_sys::MediaQueryList::matches))
}

/// True when the page is in the dark colour scheme.
pub fn prefers_dark() -> bool {
    // One query list, asked again each time: the animation asks every
    // frame, and making a list evaluates the query anew.
    thread_local! {
        static LIST: Option<web_sys::MediaQueryList> = media_list("(prefers-color-scheme: dark)");
    }
    LIST.with(|l| l.as_ref().is_some_and(web_sys::MediaQueryList::matches))
}

fn media_list(q: &str) -> Option<web_sys::MediaQueryList> {
    web_sys::window().and_then(|w| w.match_media(q).ok().flatten())
}

/// Runs `sim` up to simulated time `t_ns`, for at most `budget_ms` of wall
/// time. Returns false once the run has ended.
fn advance(sim: &mut Simulation, t_ns: u64, budget_ms: f64) -> bool {
    let start = now_ms();
    loop {
        if !sim.run_until(t_ns, CHUNK) {
            return false;
        }
        if sim.now() >= t_ns || now_ms() - start > budget_ms {
            return true;
        }
    }
}

/// Steps `sim` for at most `budget_ms` of wall time (the order of events is
/// exactly that of an uninterrupted run). Returns false once it has ended.
fn run_slice(sim: &mut Simulation, budget_ms: f64) -> bool {
    advance(sim, u64::MAX, budget_ms)
}

/// Run `sim` to the end a slice at a time, yielding to the browser between
/// slices, then hand the report to `done` (used by an exercise's simulator
/// check, which shows no animation).
pub fn run_in_slices(mut sim: Simulation, done: impl FnOnce(Report) + 'static) {
    if run_slice(&mut sim, SLICE_MS) {
        set_timeout(move || run_in_slices(sim, done), Duration::ZERO);
    } else {
        done(sim.report());
    }
}

/// Where the widget's run stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RunState {
    /// Paused (or not started).
    Paused,
    /// Animating in real time × speed.
    Playing,
    /// Running to the end in slices.
    RunningToEnd,
    /// The run has ended; the figures are final.
    Ended,
}

impl RunState {
    /// The state's name on the page (`data-state`, which the browser
    /// tests wait on).
    pub fn name(self) -> &'static str {
        match self {
            RunState::Paused => "paused",
            RunState::Playing => "playing",
            RunState::RunningToEnd => "running-to-end",
            RunState::Ended => "ended",
        }
    }
}

/// The line under the run controls saying where the run stands; when a
/// bound stopped the run, which one and what to change.
///
/// * `t_s` — simulated time now, s.
/// * `report` — the report, once there is one (it says what stopped the run).
pub fn run_status(
    state: RunState,
    t_s: f64,
    s: &Scenario,
    report: Option<&Report>,
    th: &Theory,
) -> String {
    // Under a second, to the millisecond: a step moves the run by a few
    // ms, and "0.0 s" after two steps looked as if Step did nothing.
    let decimals = if t_s > 0.0 && t_s < 1.0 { 3 } else { 1 };
    let (t, length) = (fmt_num(t_s, decimals), fmt_length_s(s.duration_s));
    let at = if s.ends_when_done() {
        format!("{t} s simulated (at most {length} s)")
    } else {
        format!("{t} s of {length} s simulated")
    };
    // Nothing has happened yet: "Paused: 0.0 s" read as a run stopped.
    let untouched = t_s == 0.0 && report.is_none_or(|r| r.events == 0);
    match state {
        RunState::Playing => format!("Playing: {at}"),
        RunState::Paused if untouched && s.ends_when_done() => {
            format!("Not started: it runs until every request is done (at most {length} s)")
        }
        // Said before a run the event budget would cut short: a day at
        // 1,000,000 rps ran 50 s to say nothing was measured.
        RunState::Paused if untouched => match budget_note(s) {
            Some(note) => format!("Not started: {length} s to simulate. {note}"),
            None => format!("Not started: {length} s to simulate"),
        },
        RunState::Paused => format!("Paused: {at}"),
        RunState::RunningToEnd => format!("Running to the end: {at}"),
        RunState::Ended => match report.and_then(|r| stop_note(s, r, th)) {
            Some(note) => note,
            // As the figures write the last finish ("0.10 s" beside "0.100 s").
            None if report.is_some_and(|r| r.stopped_by == StoppedBy::AllDone) => format!(
                "Finished: every request was done at {} simulated. The figures are final.",
                fmt_s(t_s)
            ),
            None => format!("Finished: {at}. The figures are final."),
        },
    }
}

/// What a screen reader hears of the run's state: a word when it starts,
/// pauses or runs to the end, and the whole of `status` once it has ended
/// (where the run's status line changes with every frame while it plays).
pub fn run_state_heard(state: RunState, status: &str) -> String {
    match state {
        RunState::Playing => "Playing".to_owned(),
        RunState::Paused => "Paused".to_owned(),
        RunState::RunningToEnd => "Running to the end".to_owned(),
        RunState::Ended => status.to_owned(),
    }
}

/// The live state of one simulation widget. Cheap to copy: every field is
/// a handle into the reactive arena, dropped with the widget.
#[derive(Clone, Copy)]
pub struct Lab {
    /// The scenario shown.
    pub scenario: RwSignal<Scenario>,
    /// Theory for the scenario.
    pub theory: Memo<Theory>,
    /// Play, pause, run to the end, ended.
    pub state: RwSignal<RunState>,
    /// Simulated seconds per real second.
    pub speed: RwSignal<f64>,
    /// The report of the run so far (or of the finished run).
    pub report: RwSignal<Option<Report>>,
    /// What the animation shows now (refreshed with the report).
    pub snapshot: RwSignal<Snapshot>,
    /// Simulated points of the curve so far.
    pub sweep: RwSignal<Vec<SweepPoint>>,
    /// Points of the curve that cannot be drawn: the utilisation (0–1)
    /// and why ([`point_missed`]).
    pub sweep_missed: RwSignal<Vec<(f64, &'static str)>>,
    /// True while the sweep still runs.
    pub sweeping: RwSignal<bool>,
    /// Whether to draw in dark colours.
    pub dark: RwSignal<bool>,
    /// The canvas of the tellers scene, when shown.
    pub scene: NodeRef<html::Canvas>,
    /// The widget's box, when the run should rest while it is scrolled out
    /// of sight (lesson widgets; the playground always runs).
    pub root: NodeRef<html::Section>,
    sim: StoredValue<Option<Simulation>>,
    generation: StoredValue<u64>,
    sweep_generation: StoredValue<u64>,
    dirty: StoredValue<bool>,
    /// Whether this widget runs the sweep (only when it shows the curve).
    with_sweep: bool,
}

impl Lab {
    /// A lab for `scenario`: starts its animation loop, restarts the run
    /// whenever the scenario changes and, when `with_sweep`, re-runs the
    /// curve's points. Plays at once when `autoplay` and motion is welcome.
    pub fn new(scenario: RwSignal<Scenario>, autoplay: bool, with_sweep: bool) -> Lab {
        let lab = Lab {
            scenario,
            theory: Memo::new(move |_| theory(&scenario.get())),
            state: RwSignal::new(if autoplay && !prefers_reduced_motion() {
                RunState::Playing
            } else {
                RunState::Paused
            }),
            speed: RwSignal::new(1.0),
            report: RwSignal::new(None),
            snapshot: RwSignal::new(Snapshot::default()),
            sweep: RwSignal::new(vec![]),
            sweep_missed: RwSignal::new(vec![]),
            sweeping: RwSignal::new(false),
            dark: RwSignal::new(prefers_dark()),
            scene: NodeRef::new(),
            root: NodeRef::new(),
            sim: StoredValue::new(None),
            generation: StoredValue::new(0),
            sweep_generation: StoredValue::new(0),
            dirty: StoredValue::new(true),
            with_sweep,
        };
        Effect::new(move |_| {
            let s = scenario.get();
            lab.restart_with(&s);
            if lab.with_sweep {
                lab.start_sweep(s);
            }
        });
        lab.frame_loop(now_ms(), 0.0);
        lab
    }

    fn restart_with(&self, s: &Scenario) {
        self.generation.update_value(|g| *g += 1);
        let sim = Simulation::new(s).ok();
        let snap = sim.as_ref().map(Simulation::snapshot).unwrap_or_default();
        self.sim.set_value(sim);
        self.snapshot.set(snap);
        self.report.set(None);
        self.dirty.set_value(true);
        let state = self.state.get_untracked();
        if matches!(state, RunState::Ended | RunState::RunningToEnd) {
            self.state.set(RunState::Paused);
        }
    }

    /// Starts the run again from the beginning, with the same seed.
    pub fn restart(&self) {
        let s = self.scenario.get_untracked();
        self.restart_with(&s);
    }

    /// Play or pause.
    pub fn toggle_play(&self) {
        match self.state.get_untracked() {
            RunState::Playing => self.pause(),
            RunState::Paused => self.state.set(RunState::Playing),
            RunState::Ended => {
                self.restart();
                self.state.set(RunState::Playing);
            }
            RunState::RunningToEnd => {}
        }
    }

    /// Pause and bring the figures up to date.
    pub fn pause(&self) {
        if self.state.get_untracked() == RunState::Playing {
            self.state.set(RunState::Paused);
        }
        self.refresh();
    }

    /// One event, then pause.
    pub fn step(&self) {
        if self.state.get_untracked() == RunState::RunningToEnd {
            return;
        }
        let mut ended = false;
        self.sim.update_value(|sim| {
            if let Some(sim) = sim {
                ended = !sim.step();
            }
        });
        self.state.set(if ended {
            RunState::Ended
        } else {
            RunState::Paused
        });
        self.refresh();
    }

    /// Runs a fresh copy of the scenario to its end in slices, then shows
    /// its final report. The events happen in exactly the order of the
    /// command line's run, so the report is the same to the last bit.
    pub fn run_to_end(&self) {
        if self.state.get_untracked() == RunState::RunningToEnd {
            return;
        }
        let Ok(sim) = Simulation::new(&self.scenario.get_untracked()) else {
            return;
        };
        self.generation.update_value(|g| *g += 1);
        let generation = self.generation.get_value();
        self.sim.set_value(Some(sim));
        self.state.set(RunState::RunningToEnd);
        self.run_to_end_slice(generation);
    }

    fn run_to_end_slice(self, generation: u64) {
        if self.generation.try_get_value() != Some(generation) {
            return;
        }
        let mut more = false;
        self.sim.update_value(|sim| {
            if let Some(sim) = sim {
                more = run_slice(sim, SLICE_MS);
            }
        });
        if more {
            self.snapshot_only();
            set_timeout(move || self.run_to_end_slice(generation), Duration::ZERO);
        } else {
            self.state.set(RunState::Ended);
            self.refresh();
        }
    }

    fn snapshot_only(&self) {
        if let Some(snap) = self
            .sim
            .with_value(|s| s.as_ref().map(Simulation::snapshot))
        {
            self.snapshot.set(snap);
        }
        self.dirty.set_value(true);
    }

    /// Reads the report and the snapshot from the run now.
    pub fn refresh(&self) {
        let (report, snap) = self.sim.with_value(|s| match s {
            Some(sim) => (Some(sim.report()), sim.snapshot()),
            None => (None, Snapshot::default()),
        });
        self.report.set(report);
        self.snapshot.set(snap);
        self.dirty.set_value(true);
    }

    /// One animation frame: advance by the frame's time × speed (within the
    /// slice budget), draw, and ask for the next frame.
    fn frame_loop(self, last: f64, last_report: f64) {
        request_animation_frame(move || {
            let t = now_ms();
            let Some(state) = self.state.try_get_untracked() else {
                return;
            };
            let mut next_report = last_report;
            if state == RunState::Playing && self.in_sight() {
                let dt_s = ((t - last) / 1000.0).clamp(0.0, 0.1);
                let speed = self.speed.get_untracked();
                let mut ended = false;
                self.sim.update_value(|sim| {
                    if let Some(sim) = sim {
                        let target = sim.now() + (dt_s * speed * 1e9) as u64;
                        ended = !advance(sim, target, SLICE_MS);
                    }
                });
                self.dirty.set_value(true);
                if ended {
                    self.state.set(RunState::Ended);
                    self.refresh();
                } else if t - last_report > REPORT_EVERY_MS {
                    self.refresh();
                    next_report = t;
                }
            } else if t - last_report > 4.0 * REPORT_EVERY_MS {
                next_report = t;
            }
            // Follow the system's colour scheme when it changes, at the
            // next frame (asked only with the figures, an idle picture kept
            // the old colours for up to a second: its dark text vanished on
            // a projector's page that had just turned dark).
            let dark = prefers_dark();
            if dark != self.dark.get_untracked() {
                self.dark.set(dark);
                self.dirty.set_value(true);
            }
            if self.dirty.get_value() {
                self.draw();
            }
            self.frame_loop(t, next_report);
        });
    }

    /// False when the widget's box is set and lies wholly outside the window.
    fn in_sight(&self) -> bool {
        let Some(el) = self.root.get_untracked() else {
            return true;
        };
        let r = el.get_bounding_client_rect();
        let h = window()
            .inner_height()
            .ok()
            .and_then(|v| v.as_f64())
            .unwrap_or(f64::MAX);
        r.bottom() >= 0.0 && r.top() <= h
    }

    /// Draws the tellers scene, if it is on the page.
    pub fn draw(&self) {
        let Some(canvas) = self.scene.get_untracked() else {
            return;
        };
        let snap = self
            .sim
            .with_value(|s| s.as_ref().map(Simulation::snapshot));
        if let Some(snap) = snap {
            draw_tellers(&canvas, &snap, &Theme::new(self.dark.get_untracked()));
        }
        self.dirty.set_value(false);
    }

    fn start_sweep(&self, s: Scenario) {
        self.sweep_generation.update_value(|g| *g += 1);
        let generation = self.sweep_generation.get_value();
        self.sweep.set(vec![]);
        self.sweep_missed.set(vec![]);
        self.sweeping.set(true);
        let lab = *self;
        // Wait a moment: a dragged slider sends many changes.
        set_timeout(
            move || lab.sweep_point(generation, s, 0, None),
            Duration::from_millis(120),
        );
    }

    fn sweep_point(
        self,
        generation: u64,
        s: Scenario,
        i: usize,
        mut sim: Option<(Scenario, Simulation)>,
    ) {
        if self.sweep_generation.try_get_value() != Some(generation) {
            return;
        }
        let th = self.theory.get_untracked();
        if i >= SWEEP_RHOS.len() {
            self.sweeping.set(false);
            return;
        }
        // A rate the simulator does not take is not run: its point would
        // be the nearest rate's.
        if let (None, Some(why)) = (&sim, rate_missed(&th, SWEEP_RHOS[i])) {
            self.sweep_missed.update(|v| v.push((SWEEP_RHOS[i], why)));
            set_timeout(
                move || self.sweep_point(generation, s, i + 1, None),
                Duration::ZERO,
            );
            return;
        }
        if sim.is_none() {
            sim = sweep_scenario(&s, &th, SWEEP_RHOS[i])
                .and_then(|p| Some((p.clone(), Simulation::new(&p).ok()?)));
            if sim.is_none() {
                self.sweeping.set(false);
                return;
            }
        }
        let Some((point, mut running)) = sim else {
            return;
        };
        let (next_i, next_sim) = if run_slice(&mut running, SLICE_MS) {
            (i, Some((point, running)))
        } else {
            let r = running.report();
            // A point that cannot be drawn (it measured nothing, or never
            // reached its load) has no response time to draw: the panel
            // says why.
            let rho = SWEEP_RHOS[i];
            if let Some(why) = point_missed(&point, &r) {
                self.sweep_missed.update(|v| v.push((rho, why)));
            } else {
                self.sweep.update(|v| {
                    v.push(SweepPoint {
                        rho,
                        mean_ms: r.latency_ms.mean,
                        p99_ms: r.latency_ms.p99,
                    })
                });
            }
            (i + 1, None)
        };
        set_timeout(
            move || self.sweep_point(generation, s, next_i, next_sim),
            Duration::ZERO,
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tellers_sim::StoppedBy;

    #[test]
    fn the_run_is_heard_by_its_state_and_in_full_once_ended() {
        let playing = "Playing: 1.5 s of 60 s simulated";
        assert_eq!(run_state_heard(RunState::Playing, playing), "Playing");
        assert_eq!(run_state_heard(RunState::Paused, "Paused: 2.0 s"), "Paused");
        let done = "Finished: 60.0 s of 60 s simulated. The figures are final.";
        assert_eq!(run_state_heard(RunState::Ended, done), done);
    }

    #[test]
    fn the_status_says_which_bound_stopped_the_run_and_what_to_change() {
        let s = Scenario {
            rps: 1_000_000.0,
            threads: 100_000,
            ..Scenario::default()
        };
        let th = theory(&s);
        let r = Report {
            sim_time_s: 1.04,
            warmup_s: 1.04,
            stopped_by: StoppedBy::InFlightLimit,
            ..Report::default()
        };
        let status = run_status(RunState::Ended, 1.04, &s, Some(&r), &th);
        assert!(
            status.starts_with("The run stopped at 1.0 s of 60 s"),
            "{status}"
        );
        assert!(
            status.contains("1,000,000 requests were inside"),
            "{status}"
        );
        assert!(
            status.contains("arrival rate") && status.contains("line limit"),
            "{status}"
        );
        let budget = Report {
            stopped_by: StoppedBy::EventBudget,
            ..r.clone()
        };
        let status = run_status(RunState::Ended, 1.04, &s, Some(&budget), &th);
        assert!(
            status.contains("200,000,000 events") && status.contains("run length"),
            "{status}"
        );
        let done = Report {
            stopped_by: StoppedBy::Duration,
            ..r
        };
        assert_eq!(
            run_status(RunState::Ended, 60.0, &s, Some(&done), &th),
            "Finished: 60.0 s of 60 s simulated. The figures are final."
        );
        assert_eq!(
            run_status(RunState::Paused, 0.0, &s, None, &th),
            "Not started: 60 s to simulate"
        );
        let fresh = Report::default();
        assert_eq!(
            run_status(RunState::Paused, 0.0, &s, Some(&fresh), &th),
            "Not started: 60 s to simulate"
        );
        // A run its event budget would cut short says so before it starts,
        // and what to change (a day at 1,000,000 rps ran 50 s to say
        // nothing was measured).
        let day = Scenario {
            rps: 1_000_000.0,
            duration_s: 86_400.0,
            cpu_ms: 0.0,
            wait_ms: 0.0,
            ..Scenario::default()
        };
        assert_eq!(
            run_status(RunState::Paused, 0.0, &day, None, &theory(&day)),
            "Not started: 86,400 s to simulate. At 1,000,000 rps its event budget ends the run by 200 s, \
             inside its warm-up: nothing would be measured. A shorter run length or a lower arrival rate runs it all."
        );
        let hour = Scenario {
            duration_s: 3_600.0,
            warmup: 0.0,
            ..day
        };
        assert!(
            run_status(RunState::Paused, 0.0, &hour, None, &theory(&hour)).ends_with(
                "ends the run by 200 s. A shorter run length or a lower arrival rate runs it all."
            )
        );
        // A batch's first step happens at 0 s: stepped, it is paused.
        let stepped = Report {
            events: 3,
            ..Report::default()
        };
        assert_eq!(
            run_status(RunState::Paused, 0.0, &s, Some(&stepped), &th),
            "Paused: 0.0 s of 60 s simulated"
        );
        // A step or two in: the time moves in ms.
        assert_eq!(
            run_status(RunState::Paused, 0.0042, &s, None, &th),
            "Paused: 0.004 s of 60 s simulated"
        );
        // A batch ends when every request is done: lesson 7's pool of 20
        // at 5 s, not "5.0 s of 60 s".
        let batch = tellers_sim::presets::preset("batch-pool-20").unwrap();
        let th = theory(&batch);
        assert_eq!(
            run_status(RunState::Playing, 1.5, &batch, None, &th),
            "Playing: 1.5 s simulated (at most 60 s)"
        );
        assert_eq!(
            run_status(RunState::Paused, 0.0, &batch, None, &th),
            "Not started: it runs until every request is done (at most 60 s)"
        );
        let all_done = Report {
            stopped_by: StoppedBy::AllDone,
            ..Report::default()
        };
        assert_eq!(
            run_status(RunState::Ended, 5.0, &batch, Some(&all_done), &th),
            "Finished: every request was done at 5.0 s simulated. The figures are final."
        );
        assert_eq!(
            run_status(RunState::Ended, 0.1, &batch, Some(&all_done), &th),
            "Finished: every request was done at 0.10 s simulated. The figures are final."
        );
    }
}
