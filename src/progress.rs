//! A learner's progress, kept in local storage and exportable for the
//! teacher. Reading it never fails: storage that is missing, corrupt or from
//! another version is replaced by a fresh start, with a notice saying so.
//!
//! Progress is kept per identity: the shared numbers (no class code) and
//! each class code and name have their own, so an exercise solved with one
//! set of numbers is never solved for another. An exercise's record stops
//! at its first right answer: later answers, hints and solutions are not
//! counted. Opening the worked solution before solving is recorded.
//!
//! This module owns the progress in the app too: [`provide_progress`] loads
//! it, saves every change, and hands the lesson components two narrow
//! contexts, [`ProgressRead`] and [`ProgressWrite`].

use crate::classroom::{
    as_class_box_keeps, as_name_box_keeps, composed, file_check, read_class_code, seed_text, tidy,
};
use leptos::prelude::*;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use tellers_course::Slip;

/// The local-storage key.
pub const STORAGE_KEY: &str = "tellers.progress";
/// Where stored progress that could not be read whole is copied before it
/// is saved over, so nothing typed in is lost beyond recovery.
pub const DAMAGED_KEY: &str = "tellers.progress.damaged";
/// A notice about stored progress not yet shown on a learner's page (the
/// teacher's pages do not show it): kept until a learner's page has.
pub const NOTICE_KEY: &str = "tellers.progress.notice";
/// What the learner is told when stored progress could not be read at all.
const RESET_NOTICE: &str = "Saved progress could not be read (it may be damaged), so it was reset.";
/// The progress file's format: 3 records the slips the checker named and
/// the wrong options picked first, 2 the worked solution, and stops at the
/// first right answer; files of formats 1 and 2 are still read. (A file's check value is computed over
/// the fields its reader knows, so a format with a new field is a new
/// number: an older Tellers says the file is from another version, not
/// that it was edited; from this one on, that it is from a newer Tellers
/// and the page should be reloaded.)
pub const VERSION: u32 = 3;
/// File formats a teacher's Tellers reads.
pub const READABLE_VERSIONS: [u32; 3] = [1, 2, VERSION];
/// The local-storage format: progress by identity ([`Learner`]); format 1
/// kept one [`Progress`], which is read as its student's identity. (Not
/// raised for the slips: a tab of an older Tellers reads this format and
/// leaves them out when it saves, which costs only the teacher's count of
/// them.)
const STORE_VERSION: u32 = 2;

/// How one exercise went, up to its first right answer.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ExerciseProgress {
    /// Answered right at least once.
    pub solved: bool,
    /// Answers checked, up to and including the first right one (in files of
    /// format 1, every answer checked).
    pub attempts: u32,
    /// Hints opened before it was solved (the most at once).
    pub hints: u32,
    /// Whether the first checked answer was right (absent in progress kept
    /// before this was recorded).
    #[serde(default)]
    pub first_correct: Option<bool>,
    /// Whether the worked solution was opened before it was solved (absent
    /// in progress kept before this was recorded: not known).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub solution: Option<bool>,
    /// The slips the checker named among the wrong answers before it was
    /// solved, and the wrong option of a first answer, as
    /// [`tellers_course::Slip::bit`]s: 3 for the first two listed mistakes'
    /// numbers, or for the first two written options. (One byte, not a
    /// list of names: the record stays 12 bytes, the size of another map's
    /// values, and the compiler shares the maps' code; as a list or a `u32`
    /// the download grew by 1.6 KB.)
    #[serde(default, skip_serializing_if = "is_zero")]
    pub slips: u8,
}

impl ExerciseProgress {
    /// A record started by this version, which records the solution.
    fn started() -> Self {
        ExerciseProgress {
            solution: Some(false),
            ..Self::default()
        }
    }

    /// Was the first answer wrong? From the record when it was kept, else
    /// from what must have happened (tried and never solved: yes; solved at
    /// the first attempt: no); `None` when it cannot be known.
    pub fn wrong_first(&self) -> Option<bool> {
        match self.first_correct {
            Some(right) => Some(!right),
            None if self.attempts > 0 && !self.solved => Some(true),
            None if self.solved && self.attempts == 1 => Some(false),
            None => None,
        }
    }

    /// Record a checked answer and the slip it was named as, if any; none
    /// count once it is solved. A wrong option is recorded only as the
    /// first answer: the picks after it may be a search through the rest,
    /// not what the student thought.
    pub fn attempt(&mut self, correct: bool, slip: Option<Slip>) {
        if self.solved {
            return;
        }
        let first = self.attempts == 0;
        if first {
            self.first_correct = Some(correct);
        }
        self.attempts += 1;
        self.solved = correct;
        let kept = |s: &Slip| !correct && (first || !matches!(s, Slip::Option(_)));
        if let Some(slip) = slip.filter(kept) {
            self.slips |= slip.bit();
        }
    }

    /// Worked on: an answer checked, a hint or the worked solution opened.
    pub fn worked_on(&self) -> bool {
        self.attempts > 0 || self.hints > 0 || self.solution == Some(true)
    }

    /// Record that `shown` hints are open (not once it is solved).
    pub fn hints_open(&mut self, shown: u32) {
        if !self.solved {
            self.hints = self.hints.max(shown);
        }
    }

    /// Record that the worked solution was opened (not once it is solved).
    pub fn solution_open(&mut self) {
        if !self.solved {
            self.solution = Some(true);
        }
    }

    /// Take in what another copy of this record holds (the same exercise
    /// worked in another tab): solved if either is, the more attempts and
    /// hints, the solution opened if either says so, the slips either
    /// made. Returns whether anything changed.
    fn absorb(&mut self, other: &ExerciseProgress) -> bool {
        let before = self.clone();
        if self.attempts == 0 && other.attempts > 0 {
            self.first_correct = other.first_correct;
        }
        self.solved |= other.solved;
        self.attempts = self.attempts.max(other.attempts);
        self.hints = self.hints.max(other.hints);
        self.solution = match (self.solution, other.solution) {
            (Some(true), _) | (_, Some(true)) => Some(true),
            (a, b) => a.or(b),
        };
        self.slips |= other.slips;
        *self != before
    }
}

fn is_zero(n: &u8) -> bool {
    *n == 0
}

/// Who is working, for per-student numbers.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Student {
    /// The class code the teacher gave.
    pub class: String,
    /// The learner's name or nickname.
    pub name: String,
}

impl Student {
    /// A class code and a name as typed, tidied: spaces trimmed and runs of
    /// them made one, a code made in Tellers in capitals.
    pub fn new(class: &str, name: &str) -> Self {
        Student {
            class: tidy(read_class_code(class).text()),
            name: as_name_box_keeps(name),
        }
    }

    /// Whose numbers these are, as the lessons say it: "Numbers for Ana
    /// Souza · SD-101", or the shared numbers without a class code.
    pub fn whose_numbers(&self) -> String {
        match (self.class.is_empty(), self.name.is_empty()) {
            (true, _) => {
                "Shared numbers in the exercises: a class code gives each student their own.".into()
            }
            (false, true) => format!("Numbers for a student with no name · {}", self.class),
            (false, false) => format!("Numbers for {} · {}", self.name, self.class),
        }
    }

    /// What the student panel says under its boxes: no class code, no
    /// name (the teacher cannot tell their file from others'), or whose
    /// numbers these are and how to hand progress in.
    pub fn status(&self) -> String {
        match (self.class.is_empty(), self.name.trim().is_empty()) {
            (true, _) => "Without a class code everyone sees the same numbers.".into(),
            (false, true) => format!(
                "{}. Type your name too: your numbers are your own, and your teacher can tell \
                 your progress file from the others'.",
                self.whose_numbers()
            ),
            (false, false) => format!(
                "{}. Each class code and name keeps its own progress; save it to a file to hand it to your teacher.",
                self.whose_numbers()
            ),
        }
    }

    /// The seed for per-student numbers; empty when no class code is set,
    /// so everyone without one shares the default numbers. It also names
    /// the identity progress is kept under.
    pub fn seed(&self) -> String {
        student_seed(&self.class, &self.name)
    }
}

/// The seed for a class code and a name, as [`seed_text`] reads each:
/// `class/name`, or "" without a class. Case and spacing do not matter, so
/// "Ana  Souza" has Ana Souza's numbers.
pub fn student_seed(class: &str, name: &str) -> String {
    let class = seed_text(class);
    if class.is_empty() {
        return String::new();
    }
    format!("{class}/{}", seed_text(name))
}

/// One student's progress: what a file for the teacher holds.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Progress {
    /// Format version.
    pub version: u32,
    /// Who is working.
    pub student: Student,
    /// By exercise id.
    pub exercises: BTreeMap<String, ExerciseProgress>,
    /// In a file exported for the teacher: [`file_check`] of the rest, as
    /// [`Progress::save`] writes it with no check, keyed by the class code.
    /// Never kept in the browser's own storage.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub check: Option<String>,
}

impl Default for Progress {
    fn default() -> Self {
        Progress {
            version: VERSION,
            student: Student::default(),
            exercises: BTreeMap::new(),
            check: None,
        }
    }
}

impl Progress {
    /// The compact text the check value is computed over.
    pub fn save(&self) -> String {
        serde_json::to_string(self).expect("progress serialises")
    }

    /// Record a checked answer and the slip it was named as, if any.
    pub fn record_attempt(&mut self, id: &str, correct: bool, slip: Option<Slip>) {
        self.entry(id).attempt(correct, slip);
    }

    /// Record that `shown` hints are open.
    pub fn record_hints(&mut self, id: &str, shown: u32) {
        self.entry(id).hints_open(shown);
    }

    /// Record that the worked solution was opened.
    pub fn record_solution(&mut self, id: &str) {
        self.entry(id).solution_open();
    }

    fn entry(&mut self, id: &str) -> &mut ExerciseProgress {
        self.exercises
            .entry(id.to_string())
            .or_insert_with(ExerciseProgress::started)
    }

    /// Is this exercise solved?
    pub fn solved(&self, id: &str) -> bool {
        self.exercises.get(id).is_some_and(|e| e.solved)
    }

    /// A file for the teacher: who, how each exercise went, and (with a
    /// class code) a check value over it, so the teacher can tell an edited
    /// file or one from another class.
    pub fn export(&self) -> String {
        let mut file = Progress {
            check: None,
            ..self.clone()
        };
        if !file.student.class.trim().is_empty() {
            file.check = Some(file_check(&file.student.class, &file.save()));
        }
        serde_json::to_string_pretty(&file).expect("progress serialises")
    }

    /// This progress without its check value, and the check value.
    pub fn split_check(mut self) -> (Progress, Option<String>) {
        let check = self.check.take();
        (self, check)
    }

    /// The name of the file [`Progress::export`] is saved as, after the
    /// student: `tellers-progress-ana-souza.json` (letters and digits of
    /// the name only).
    pub fn export_file_name(&self) -> String {
        let name: String = composed(&crate::classroom::lower_case(&self.student.name))
            .chars()
            .map(|c| if c.is_alphanumeric() { c } else { '-' })
            .collect();
        let name = name
            .split('-')
            .filter(|p| !p.is_empty())
            .collect::<Vec<_>>()
            .join("-");
        if name.is_empty() {
            "tellers-progress.json".into()
        } else {
            // Cut to 40, not ending on a hyphen where the cut falls
            // after one ("…-von-.json").
            let cut: String = name.chars().take(40).collect();
            format!("tellers-progress-{}.json", cut.trim_end_matches('-'))
        }
    }
}

/// Take `theirs` into `mine`: every exercise either worked on is kept
/// ([`ExerciseProgress::absorb`]). Returns whether `mine` changed.
fn merge(
    mine: &mut BTreeMap<String, ExerciseProgress>,
    theirs: BTreeMap<String, ExerciseProgress>,
) -> bool {
    let mut changed = false;
    for (id, record) in theirs {
        match mine.get_mut(&id) {
            Some(kept) => changed |= kept.absorb(&record),
            None => {
                mine.insert(id, record);
                changed = true;
            }
        }
    }
    changed
}

/// What this browser keeps: who is working now, and the progress of every
/// identity used here, by [`Student::seed`] ("" for the shared numbers).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Learner {
    /// Format version ([`STORE_VERSION`]).
    pub version: u32,
    /// Who is working now.
    pub student: Student,
    /// By identity, then by exercise id.
    pub identities: BTreeMap<String, BTreeMap<String, ExerciseProgress>>,
}

/// What a store that did not read whole lost ([`Learner::salvage`]).
#[derive(Debug, Default)]
struct Lost {
    /// Exercise records (or whole identities) that could not be read.
    records: usize,
    /// The class code and name could not be read.
    student: bool,
}

impl Lost {
    /// The notice: what was left out, that the rest is kept, and what to
    /// type again.
    fn notice(&self) -> String {
        let mut said =
            "Part of your saved progress could not be read (it may be damaged)".to_owned();
        if self.records > 0 {
            said.push_str(&format!(
                ": {} left out",
                tellers_sim::text::plural(self.records as u64, "exercise record")
            ));
        }
        said.push_str("; the rest is kept.");
        if self.student {
            said.push_str(" Type your class code and name again.");
        }
        said
    }
}

impl Default for Learner {
    fn default() -> Self {
        Learner {
            version: STORE_VERSION,
            student: Student::default(),
            identities: BTreeMap::new(),
        }
    }
}

impl Learner {
    /// Read stored text: the progress and, if the text could not be used, a
    /// notice for the learner. Format 1 (one student's progress) is read as
    /// that student's identity.
    pub fn load(stored: Option<&str>) -> (Learner, Option<String>) {
        let Some(text) = stored else {
            return (Learner::default(), None);
        };
        let damaged = || (Learner::default(), Some(RESET_NOTICE.to_owned()));
        match stored_version(text) {
            Some(1) => match serde_json::from_str::<Progress>(text) {
                Ok(old) => {
                    let mut learner = Learner {
                        student: old.student,
                        ..Learner::default()
                    };
                    if !old.exercises.is_empty() {
                        learner.identities.insert(learner.seed(), old.exercises);
                    }
                    (learner, None)
                }
                Err(_) => damaged(),
            },
            Some(v) if v == u64::from(STORE_VERSION) => match serde_json::from_str::<Learner>(text)
            {
                Ok(learner) => (learner.seeds_composed().student_as_boxes_keep(), None),
                // One bad record (an edited or half-written store) costs
                // that record, not every class's progress.
                Err(_) => match Learner::salvage(text) {
                    Some((learner, lost)) => (
                        learner.seeds_composed().student_as_boxes_keep(),
                        Some(lost.notice()),
                    ),
                    None => damaged(),
                },
            },
            // A newer Tellers (in another tab, or before a downgrade): its
            // store is left as it is (`to_store_over`), so nothing done
            // here is kept in the browser; a file still keeps it.
            Some(v) if v > u64::from(STORE_VERSION) => (
                Learner::default(),
                Some(
                    "Progress saved by a newer version of Tellers is left as it is, so work done in \
                     this tab is not kept in the browser: use “Save progress to a file” to keep it."
                        .into(),
                ),
            ),
            Some(v) => (
                Learner::default(),
                Some(format!(
                    "Saved progress was from another version ({v}); starting fresh."
                )),
            ),
            None => damaged(),
        }
    }

    /// What can still be read of a store of this format that does not read
    /// whole: every exercise record that reads, under its identity, and
    /// the student if that reads; with what was left out. `None` when the
    /// text is not such a store at all.
    fn salvage(text: &str) -> Option<(Learner, Lost)> {
        let serde_json::Value::Object(top) = serde_json::from_str(text).ok()? else {
            return None;
        };
        let serde_json::Value::Object(identities) = top.get("identities")? else {
            return None;
        };
        let mut learner = Learner::default();
        let mut lost = Lost::default();
        match top
            .get("student")
            .and_then(|v| serde_json::from_str::<Student>(&v.to_string()).ok())
        {
            Some(student) => learner.student = student,
            None => lost.student = true,
        }
        for (seed, records) in identities {
            let serde_json::Value::Object(records) = records else {
                lost.records += 1;
                continue;
            };
            let mut kept = BTreeMap::new();
            for (id, record) in records {
                match serde_json::from_str::<ExerciseProgress>(&record.to_string()) {
                    Ok(r) => {
                        kept.insert(id.clone(), r);
                    }
                    Err(_) => lost.records += 1,
                }
            }
            if !kept.is_empty() {
                learner.identities.insert(seed.clone(), kept);
            }
        }
        Some((learner, lost))
    }

    /// The text to store.
    pub fn save(&self) -> String {
        serde_json::to_string(self).expect("progress serialises")
    }

    /// The identity at work: its seed.
    pub fn seed(&self) -> String {
        self.student.seed()
    }

    /// The progress of the identity at work, as a file holds it.
    pub fn progress(&self) -> Progress {
        Progress {
            student: self.student.clone(),
            exercises: self
                .identities
                .get(&self.seed())
                .cloned()
                .unwrap_or_default(),
            ..Progress::default()
        }
    }

    fn entry(&mut self, id: &str) -> &mut ExerciseProgress {
        let seed = self.seed();
        self.identities
            .entry(seed)
            .or_default()
            .entry(id.to_string())
            .or_insert_with(ExerciseProgress::started)
    }

    /// Record a checked answer to exercise `id` and the slip it was named
    /// as, if any, for the identity at work.
    pub fn record_attempt(&mut self, id: &str, correct: bool, slip: Option<Slip>) {
        self.entry(id).attempt(correct, slip);
    }

    /// Record that `shown` hints of exercise `id` are open.
    pub fn record_hints(&mut self, id: &str, shown: u32) {
        self.entry(id).hints_open(shown);
    }

    /// Record that the worked solution of exercise `id` was opened.
    pub fn record_solution(&mut self, id: &str) {
        self.entry(id).solution_open();
    }

    /// Is exercise `id` solved by the identity at work?
    pub fn solved(&self, id: &str) -> bool {
        self.identities
            .get(&self.seed())
            .and_then(|ex| ex.get(id))
            .is_some_and(|e| e.solved)
    }

    /// The help the identity at work opened on exercise `id` before
    /// solving it: hints (the most at once) and whether the worked
    /// solution was opened. A card shows them again after a reload: the
    /// teacher's file counts them, so the learner sees them too.
    pub fn help_opened(&self, id: &str) -> (u32, bool) {
        self.identities
            .get(&self.seed())
            .and_then(|ex| ex.get(id))
            .map_or((0, false), |e| (e.hints, e.solution == Some(true)))
    }

    /// How many of these ids the identity at work has solved.
    pub fn solved_count<'a>(&self, ids: impl IntoIterator<Item = &'a str>) -> usize {
        ids.into_iter().filter(|id| self.solved(id)).count()
    }

    /// Who works from now on: a class code and a name as typed.
    pub fn set_student(&mut self, class: &str, name: &str) {
        self.student = Student::new(class, name);
    }

    /// Take in the progress of `stored`, text another tab saved: every
    /// exercise either worked on is kept ([`ExerciseProgress::absorb`]);
    /// who is at work here stays. Text that is not this format is left
    /// alone. Returns whether anything changed.
    pub fn absorb(&mut self, stored: &str) -> bool {
        // Read as at start-up: an older format is converted; damaged text
        // or a newer format gives a notice, and nothing to take in.
        let (other, notice) = Learner::load(Some(stored));
        if notice.is_some() {
            return false;
        }
        let mut changed = false;
        for (seed, exercises) in other.identities {
            changed |= merge(self.identities.entry(seed).or_default(), exercises);
        }
        changed
    }

    /// This progress with each identity under its seed in Unicode's
    /// composed form, as [`seed_text`] reads names now: a name typed with a
    /// combining accent was kept under another seed before, and its work
    /// joins the name's (merged where both hold an exercise).
    /// The class code and name as the student's boxes would keep them
    /// ([`as_class_box_keeps`], [`as_name_box_keeps`]): storage someone
    /// edited by hand held a name of 5,000 letters, drawn whole.
    fn student_as_boxes_keep(mut self) -> Self {
        self.student.class = as_class_box_keeps(&self.student.class);
        self.student.name = as_name_box_keeps(&self.student.name);
        self
    }

    fn seeds_composed(mut self) -> Self {
        if self.identities.keys().all(|seed| seed.is_ascii()) {
            return self;
        }
        for (seed, exercises) in std::mem::take(&mut self.identities) {
            merge(
                self.identities.entry(composed(&seed)).or_default(),
                exercises,
            );
        }
        self
    }

    /// The text to store over `stored` (what storage holds now, which
    /// another tab may have saved since this one read it): this progress
    /// with the stored one taken in, so no tab's work is lost. `None`
    /// when the stored text is of a newer format than this version reads
    /// (a newer Tellers in another tab): it is left as it is.
    pub fn to_store_over(&self, stored: Option<&str>) -> Option<String> {
        if stored
            .and_then(stored_version)
            .is_some_and(|v| v > u64::from(STORE_VERSION))
        {
            return None;
        }
        let mut merged = self.clone();
        if let Some(text) = stored {
            merged.absorb(text);
        }
        Some(merged.save())
    }
}

/// The format version of stored progress, read alone (any other field is
/// skipped) to know its shape; `None` when the text has none.
fn stored_version(text: &str) -> Option<u64> {
    #[derive(Deserialize)]
    struct Version {
        version: u64,
    }
    serde_json::from_str::<Version>(text)
        .ok()
        .map(|v| v.version)
}

/// Read access to the learner's progress, for every lesson component that
/// shows it (what is solved, whose numbers these are). Read-only on purpose:
/// showing progress must never be able to change it.
#[derive(Clone, Copy)]
pub struct ProgressRead(pub ReadSignal<Learner>);

/// The changes a lesson component may make, and no others: an exercise
/// card records answers, hints and solutions, the student panel says who
/// is working. Like the setter in Leptos's todomvc example, it is provided
/// apart from the reading side, and it cannot replace or reset the progress
/// wholesale.
#[derive(Clone, Copy)]
pub struct ProgressWrite(WriteSignal<Learner>);

impl ProgressWrite {
    /// Record a checked answer to exercise `id` and the slip it was named
    /// as, if any.
    pub fn attempt(&self, id: &str, correct: bool, slip: Option<Slip>) {
        self.0.update(|p| p.record_attempt(id, correct, slip));
    }

    /// Record that `shown` hints of exercise `id` are open.
    pub fn hints(&self, id: &str, shown: u32) {
        self.0.update(|p| p.record_hints(id, shown));
    }

    /// Record that the worked solution of exercise `id` was opened.
    pub fn solution(&self, id: &str) {
        self.0.update(|p| p.record_solution(id));
    }

    /// Set who is working: a class code and a name as typed (tidied). Does
    /// nothing when they are already the ones at work.
    pub fn set_student(&self, class: &str, name: &str) {
        let student = Student::new(class, name);
        self.0.maybe_update(|p| {
            let changed = p.student != student;
            p.student = student;
            changed
        });
    }
}

/// The notice when the browser keeps no site data for Tellers.
pub const NOT_KEPT: &str = "This browser does not let Tellers keep your progress (site data is blocked or off), so it is lost when the page closes. Use \u{201c}Save progress to a file\u{201d} before you leave.";

/// The browser's local storage, where Tellers keeps progress and settings;
/// `None` when the browser keeps no site data for it.
pub fn storage() -> Option<web_sys::Storage> {
    window().local_storage().ok().flatten()
}

/// Loads the learner's progress from local storage, saves it on every
/// change (taking in what other tabs saved: [`Learner::to_store_over`]),
/// takes in what other tabs save while it is open, and provides
/// [`ProgressRead`] and [`ProgressWrite`] to the components below. Returns
/// the notice to show when saved progress could not be read and was reset.
pub fn provide_progress() -> Option<String> {
    let store = storage();
    let stored = store
        .as_ref()
        .and_then(|s| s.get_item(STORAGE_KEY).ok().flatten());
    let (loaded, notice) = Learner::load(stored.as_deref());
    // What could not be read is about to be saved over: a copy stays, if
    // the storage takes it (a value of megabytes may not fit twice).
    let notice = match (&store, &stored, notice) {
        (Some(s), Some(text), Some(n)) => {
            let notice = with_copy_note(n, s.set_item(DAMAGED_KEY, text).is_ok());
            // Said on the next learner's page, should a teacher's page
            // (which does not show it) have opened first.
            let _ = s.set_item(NOTICE_KEY, &notice);
            Some(notice)
        }
        (_, _, n) => n,
    };
    let pending = || store.as_ref()?.get_item(NOTICE_KEY).ok().flatten();
    let notice = notice
        .or_else(pending)
        .or_else(|| store.is_none().then(|| NOT_KEPT.to_owned()));
    let (read, write) = signal(loaded);
    provide_context(ProgressRead(read));
    provide_context(ProgressWrite(write));
    Effect::new(move |_| {
        let Some(s) = storage() else { return };
        let stored = s.get_item(STORAGE_KEY).ok().flatten();
        if let Some(text) = read.with(|l| l.to_store_over(stored.as_deref())) {
            let _ = s.set_item(STORAGE_KEY, &text);
        }
    });
    // Another tab saved: show its work here too (only when it adds
    // something, so two tabs do not answer each other forever).
    let listener = window_event_listener(leptos::ev::storage, move |e| {
        if e.key().as_deref() == Some(STORAGE_KEY) {
            if let Some(text) = e.new_value() {
                write.maybe_update(|l| l.absorb(&text));
            }
        }
    });
    on_cleanup(move || listener.remove());
    notice
}

/// A notice about stored progress, with where its copy stays when it is
/// the reset's (the progress about to be saved over) and the copy was
/// `kept`: after a newer version's notice, which leaves it as it is, the
/// sentence read as if this tab's work were kept.
pub fn with_copy_note(notice: String, kept: bool) -> String {
    if kept && notice == RESET_NOTICE {
        format!("{notice} A copy of it stays in this browser's storage ({DAMAGED_KEY}).")
    } else {
        notice
    }
}

/// The notice about stored progress has been shown on a learner's page.
pub fn progress_notice_seen() {
    if let Some(s) = storage() {
        let _ = s.remove_item(NOTICE_KEY);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Storage edited by hand: a name of 5,000 letters and a mark that
    /// turns text round are read as the name box would have kept them.
    #[test]
    fn a_stored_name_is_kept_as_the_name_box_keeps_it() {
        let l = Learner {
            student: Student {
                class: "R12".into(),
                name: format!("\u{202E}{}", "N".repeat(5_000)),
            },
            ..Learner::default()
        };
        let (back, note) = Learner::load(Some(&l.save()));
        assert_eq!(note, None);
        assert_eq!(back.student.name, "N".repeat(crate::classroom::NAME_MAX));
        assert_eq!(back.student.class, "R12");
    }

    fn ana() -> Learner {
        let mut l = Learner::default();
        l.set_student("R12", "Ana");
        l
    }

    #[test]
    fn round_trip_keeps_everything() {
        let mut l = ana();
        l.record_attempt("threads-busy", false, None);
        l.record_attempt("threads-busy", true, None);
        l.record_hints("other", 2);
        let (back, notice) = Learner::load(Some(&l.save()));
        assert_eq!((back, notice), (l.clone(), None));
        assert!(l.solved("threads-busy"));
        assert_eq!(l.progress().exercises["threads-busy"].attempts, 2);
        assert_eq!(l.solved_count(["threads-busy", "other"]), 1);
    }

    #[test]
    fn the_help_opened_is_kept_for_the_student_who_opened_it() {
        let mut l = ana();
        assert_eq!(l.help_opened("threads-busy"), (0, false));
        l.record_hints("threads-busy", 2);
        l.record_solution("threads-busy");
        l.record_hints("threads-busy", 1);
        let (back, _) = Learner::load(Some(&l.save()));
        assert_eq!(
            back.help_opened("threads-busy"),
            (2, true),
            "after a reload"
        );
        // Another student at the same desk has opened nothing.
        l.set_student("R12", "Ben");
        assert_eq!(l.help_opened("threads-busy"), (0, false));
    }

    #[test]
    fn corrupt_or_foreign_storage_resets_with_a_notice() {
        for bad in [
            "{",
            "null",
            "[]",
            "{\"version\":1}",
            "{\"version\":2}",
            "\u{0}garbage",
        ] {
            let (p, notice) = Learner::load(Some(bad));
            assert_eq!(p, Learner::default());
            assert!(notice.unwrap().contains("reset"), "{bad}");
        }
        let (_, notice) = Learner::load(Some(
            r#"{"version":9,"student":{"class":"","name":""},"exercises":{}}"#,
        ));
        let notice = notice.unwrap();
        assert!(
            notice.contains("newer version of Tellers is left as it is")
                && notice.contains("Save progress to a file"),
            "{notice}"
        );
        let (_, notice) = Learner::load(Some(
            r#"{"version":0,"student":{"class":"","name":""},"exercises":{}}"#,
        ));
        assert!(notice.unwrap().contains("another version"));
        assert_eq!(Learner::load(None), (Learner::default(), None));
        // Where its copy stays is said only when the copy was stored.
        let reset = Learner::load(Some("{")).1.unwrap();
        assert!(with_copy_note(reset.clone(), true).ends_with("(tellers.progress.damaged)."));
        assert_eq!(with_copy_note(reset.clone(), false), reset);
        let newer = Learner::load(Some(
            r#"{"version":9,"student":{"class":"","name":""},"exercises":{}}"#,
        ))
        .1
        .unwrap();
        assert_eq!(with_copy_note(newer.clone(), true), newer);
    }

    /// A slip is recorded once, only for a wrong answer before the first
    /// right one; two tabs' records keep both's slips; and a file of this
    /// format round-trips them under its check value.
    #[test]
    fn the_slips_named_before_solving_are_recorded_once() {
        let mut e = ExerciseProgress::started();
        e.attempt(false, Some(Slip::Mistake(1)));
        e.attempt(false, Some(Slip::Mistake(1)));
        // A wrong option only as the first answer.
        let mut picked = ExerciseProgress::started();
        picked.attempt(false, Some(Slip::Option(2)));
        picked.attempt(false, Some(Slip::Option(3)));
        assert_eq!(picked.slips, Slip::Option(2).bit());
        e.attempt(false, Some(Slip::Thousandfold));
        e.attempt(true, Some(Slip::Mistake(0)));
        e.attempt(false, Some(Slip::DotThousands));
        assert_eq!(e.slips, Slip::Mistake(1).bit() | Slip::Thousandfold.bit());
        let mut other = ExerciseProgress::started();
        other.attempt(false, Some(Slip::DotThousands));
        other.attempt(false, None);
        assert!(other.absorb(&e));
        assert_eq!(other.slips, e.slips | Slip::DotThousands.bit());
        assert!(!other.absorb(&e));
        let mut p = Progress {
            student: Student::new("R12", "Ana"),
            ..Progress::default()
        };
        p.record_attempt("a", false, Some(Slip::Mistake(2)));
        let file = p.export();
        assert!(
            file.contains("\"version\": 3") && file.contains("\"slips\": 4"),
            "{file}"
        );
        let read = crate::results::read_file(&file, "R12").unwrap();
        assert_eq!(read.exercises["a"].slips, 4);
    }

    /// One record of the wrong type (attempts "2") cost every class's
    /// progress, the class code and the name: the store was reset and the
    /// empty one saved over it. Now only what does not read is left out.
    #[test]
    fn one_bad_record_costs_that_record_not_the_store() {
        let stored = format!(
            r#"{{"version":{STORE_VERSION},"student":{{"class":"R12","name":"Ana"}},"identities":{{
                "r12/ana":{{"a":{{"solved":true,"attempts":1,"hints":0}},"b":{{"solved":false,"attempts":"2","hints":0}}}},
                "":{{"c":{{"solved":true,"attempts":3,"hints":1}}}},
                "r12/bo":7}}}}"#
        );
        let (l, notice) = Learner::load(Some(&stored));
        assert!(l.solved("a") && !l.solved("b"), "{l:?}");
        assert_eq!(l.student, Student::new("R12", "Ana"));
        assert_eq!(l.identities[""]["c"].attempts, 3);
        assert_eq!(
            notice.as_deref(),
            Some("Part of your saved progress could not be read (it may be damaged): 2 exercise records left out; the rest is kept.")
        );
        // A student that does not read: asked for again, the work kept.
        let (l, notice) = Learner::load(Some(&format!(
            r#"{{"version":{STORE_VERSION},"student":5,"identities":{{"":{{"c":{{"solved":true,"attempts":1,"hints":0}}}}}}}}"#
        )));
        assert!(l.identities[""]["c"].solved);
        assert!(notice
            .unwrap()
            .ends_with("the rest is kept. Type your class code and name again."));
    }

    /// Two tabs of one browser: each read the store when it opened; what
    /// one saved is not lost when the other saves after it.
    #[test]
    fn a_save_keeps_what_another_tab_saved() {
        let (mut tab_a, _) = Learner::load(None);
        let (mut tab_b, _) = Learner::load(None);
        tab_a.set_student("R12", "Ana");
        tab_b.set_student("R12", "Ana");
        tab_a.record_attempt("threads-busy", false, None);
        tab_a.record_hints("threads-busy", 1);
        tab_a.record_attempt("threads-busy", true, None);
        let stored = tab_a.to_store_over(None).unwrap();
        tab_b.record_attempt("capacity", true, None);
        let stored = tab_b.to_store_over(Some(&stored)).unwrap();
        let (back, notice) = Learner::load(Some(&stored));
        assert_eq!(notice, None);
        assert!(back.solved("threads-busy") && back.solved("capacity"));
        let ex = &back.progress().exercises["threads-busy"];
        assert_eq!(
            (ex.attempts, ex.hints, ex.wrong_first()),
            (2, 1, Some(true))
        );
        assert_eq!(back.student, Student::new("R12", "Ana"));
        // Tab A hears of B's save and shows it; a second hearing changes nothing.
        assert!(tab_a.absorb(&stored));
        assert!(tab_a.solved("capacity"));
        assert!(!tab_a.absorb(&stored));
        // The same exercise in both: solved in either is solved; the
        // solution opened in either is opened.
        let mut one = ExerciseProgress::started();
        one.attempt(false, None);
        let mut other = ExerciseProgress::started();
        other.solution_open();
        other.attempt(false, None);
        other.attempt(true, None);
        assert!(one.absorb(&other));
        assert!(one.solved && one.solution == Some(true));
        assert_eq!((one.attempts, one.first_correct), (2, Some(false)));
        // A store of a newer format (a newer Tellers in another tab) is
        // left alone; a damaged one is saved over.
        let newer = r#"{"version":9,"student":{"class":"","name":""},"identities":{}}"#;
        assert_eq!(tab_a.to_store_over(Some(newer)), None);
        assert!(tab_a.to_store_over(Some("{")).is_some());
        assert!(!tab_a.absorb("{") && !tab_a.absorb(newer));
        // An older build in another tab saved format 1: its work is kept.
        let old = r#"{"version":1,"student":{"class":"R12","name":"Ana"},"exercises":{"pause-share":{"solved":true,"attempts":1,"hints":0}}}"#;
        let merged = tab_a.to_store_over(Some(old)).unwrap();
        assert!(Learner::load(Some(&merged)).0.solved("pause-share"));
    }

    #[test]
    fn work_kept_under_a_name_typed_with_a_combining_accent_is_that_names() {
        // Stored before names were read in composed form: Zoë's work under
        // "zoe" + U+0308, and some under "zoë" (U+00EB).
        let stored = format!(
            r#"{{"version":{STORE_VERSION},"student":{{"class":"R12","name":"Zoe\u0308"}},"identities":{{"r12/zoe\u0308":{{"a":{{"solved":true,"attempts":1,"hints":0}},"b":{{"solved":false,"attempts":1,"hints":1}}}},"r12/zo\u00eb":{{"b":{{"solved":true,"attempts":1,"hints":0}}}}}}}}"#
        );
        let (l, notice) = Learner::load(Some(&stored));
        assert_eq!(notice, None);
        assert_eq!(l.identities.len(), 1, "{:?}", l.identities.keys());
        assert!(l.solved("a") && l.solved("b"));
        // Merged as two copies of one record are: the more attempts and hints.
        let b = &l.progress().exercises["b"];
        assert_eq!((b.attempts, b.hints), (1, 1));
        let mut typed_as_one_letter = l.clone();
        typed_as_one_letter.set_student("r12", "ZO\u{cb}");
        assert!(typed_as_one_letter.solved("a"));
    }

    #[test]
    fn progress_kept_before_identities_is_its_students() {
        let (l, notice) = Learner::load(Some(
            r#"{"version":1,"student":{"class":"R12","name":"Ana"},"exercises":{"a":{"solved":true,"attempts":1,"hints":0}}}"#,
        ));
        assert_eq!(notice, None);
        assert_eq!(l.student, Student::new("R12", "Ana"));
        assert!(l.solved("a"));
        assert_eq!(l.progress().exercises["a"].wrong_first(), Some(false));
        assert_eq!(l.progress().exercises["a"].solution, None, "not known");
    }

    #[test]
    fn each_identity_keeps_its_own_progress() {
        let mut l = Learner::default();
        l.record_attempt("a", true, None);
        assert!(l.solved("a"), "on the shared numbers");
        l.set_student("SD-101", "Ana Souza");
        assert!(!l.solved("a"), "her own numbers are not solved yet");
        assert_eq!(l.progress().exercises.len(), 0);
        l.record_attempt("a", false, None);
        l.set_student("SD-101", "Ben");
        assert_eq!(l.progress().exercises.len(), 0, "nor Ben's");
        // Back to Ana, however the name is spaced: her record is there.
        l.set_student(" sd-101 ", "ana   souza");
        assert_eq!(l.progress().exercises["a"].attempts, 1);
        assert!(!l.solved("a"));
        l.set_student("", "Ana Souza");
        assert!(l.solved("a"), "the shared numbers, as they were");
    }

    #[test]
    fn a_record_stops_at_the_first_right_answer() {
        let mut l = ana();
        l.record_attempt("a", false, None);
        l.record_hints("a", 1);
        l.record_attempt("a", true, None);
        for _ in 0..20 {
            l.record_attempt("a", false, None);
            l.record_attempt("a", true, None);
        }
        l.record_hints("a", 3);
        l.record_solution("a");
        let e = &l.progress().exercises["a"];
        assert_eq!((e.solved, e.attempts, e.hints), (true, 2, 1));
        assert_eq!(e.solution, Some(false), "opened after solving: not counted");
        assert_eq!(e.wrong_first(), Some(true));
    }

    #[test]
    fn the_worked_solution_opened_first_is_recorded() {
        let mut l = ana();
        l.record_solution("b");
        l.record_attempt("b", true, None);
        let e = &l.progress().exercises["b"];
        assert_eq!((e.solved, e.attempts, e.solution), (true, 1, Some(true)));
    }

    #[test]
    fn the_first_answer_is_remembered_and_inferred_for_old_records() {
        let mut p = Progress::default();
        p.record_attempt("a", false, None);
        p.record_attempt("a", true, None);
        p.record_attempt("b", true, None);
        p.record_attempt("b", false, None);
        assert_eq!(p.exercises["a"].wrong_first(), Some(true));
        assert_eq!(p.exercises["b"].wrong_first(), Some(false));
        assert!(
            p.solved("b"),
            "a wrong answer after the right one changes nothing"
        );
        let old = |solved, attempts| ExerciseProgress {
            solved,
            attempts,
            ..ExerciseProgress::default()
        };
        assert_eq!(old(false, 2).wrong_first(), Some(true));
        assert_eq!(old(true, 1).wrong_first(), Some(false));
        assert_eq!(old(true, 3).wrong_first(), None);
        assert_eq!(old(false, 0).wrong_first(), None);
    }

    #[test]
    fn an_exported_file_carries_a_check_over_its_progress() {
        let mut l = Learner::default();
        l.set_student("K7Q2-MX4P", "Ana  Lí");
        l.record_attempt("threads-busy", true, None);
        let p = l.progress();
        let file: Progress = serde_json::from_str(&p.export()).unwrap();
        assert_eq!(file.version, VERSION);
        let (progress, check) = file.split_check();
        assert_eq!(progress, p);
        assert_eq!(check, Some(file_check("K7Q2-MX4P", &p.save())));
        // Without a class there is nothing to key the check with.
        let alone: Progress = serde_json::from_str(&Progress::default().export()).unwrap();
        assert_eq!(alone.check, None);
        assert!(!Progress::default().export().contains("check"));
        assert_eq!(p.export_file_name(), "tellers-progress-ana-lí.json");
        // An accent typed as its own mark is still one letter of the name.
        let mut decomposed = p.clone();
        decomposed.student.name = "E\u{301}lodie Martin".into();
        assert_eq!(
            decomposed.export_file_name(),
            "tellers-progress-\u{e9}lodie-martin.json"
        );
        assert_eq!(
            Progress::default().export_file_name(),
            "tellers-progress.json"
        );
        // A long name cut where a hyphen falls: no hyphen before ".json".
        let mut long = Progress::default();
        long.student.name = "Maximiliana Alexandrina Wolfgangina von Habsburg".into();
        assert_eq!(
            long.export_file_name(),
            "tellers-progress-maximiliana-alexandrina-wolfgangina-von.json"
        );
    }

    #[test]
    fn a_file_of_format_one_reads_back_byte_for_byte() {
        // Its check value was computed over exactly this text.
        let old = r#"{"version":1,"student":{"class":"R12","name":"Ana"},"exercises":{"a":{"solved":true,"attempts":1,"hints":0,"first_correct":true}}}"#;
        let p: Progress = serde_json::from_str(old).unwrap();
        assert_eq!(p.save(), old);
    }

    #[test]
    fn the_panel_asks_for_a_name_once_there_is_a_class() {
        assert!(Student::new("", "")
            .status()
            .starts_with("Without a class code"));
        let nameless = Student::new("SD-101", "  ").status();
        assert!(nameless.contains("Type your name too"), "{nameless}");
        let ana = Student::new("SD-101", "Ana").status();
        assert!(
            ana.starts_with("Numbers for Ana · SD-101. Each class code"),
            "{ana}"
        );
    }

    #[test]
    fn a_student_is_tidied_and_seeds_ignore_case_and_spaces() {
        assert_eq!(student_seed(" R12 ", "Ana "), "r12/ana");
        assert_eq!(
            student_seed("R12", "Ana  Souza"),
            student_seed("r12", " ana souza")
        );
        assert_eq!(student_seed("", "Ana"), "");
        assert_ne!(student_seed("r12", "ana"), student_seed("r12", "ben"));
        let s = Student::new(" k7q2-mx4p ", "  Ana   Souza ");
        assert_eq!(s.name, "Ana Souza");
        assert_eq!(s.class, Student::new("K7Q2-MX4P", "").class);
        assert_eq!(Student::new("Room  12", "x").class, "Room 12");
        assert_eq!(
            Student::new("SD-101", " Ana  Souza").whose_numbers(),
            "Numbers for Ana Souza · SD-101"
        );
        assert!(Student::new("SD-101", "")
            .whose_numbers()
            .contains("no name"));
        // A sentence, ended: the link "Have a class code?" follows it.
        assert_eq!(
            Student::default().whose_numbers(),
            "Shared numbers in the exercises: a class code gives each student their own."
        );
    }
}
