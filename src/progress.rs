//! A learner's progress, kept in local storage and exportable for the
//! teacher. Reading it never fails: storage that is missing, corrupt or from
//! another version is replaced by a fresh start, with a notice saying so.
//!
//! This module owns the progress in the app too: [`provide_progress`] loads
//! it, saves every change, and hands the lesson components two narrow
//! contexts, [`ProgressRead`] and [`ProgressWrite`].

use crate::classroom::file_check;
use leptos::prelude::*;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The local-storage key; the version is in the name and in the value.
pub const STORAGE_KEY: &str = "tellers.progress";
const VERSION: u32 = 1;

/// How one exercise went.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ExerciseProgress {
    /// Answered right at least once.
    pub solved: bool,
    /// Answers checked.
    pub attempts: u32,
    /// Hints opened (the most at once).
    pub hints: u32,
    /// Whether the first checked answer was right (absent in progress kept
    /// before this was recorded).
    #[serde(default)]
    pub first_correct: Option<bool>,
}

impl ExerciseProgress {
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
    /// The seed for per-student numbers; empty when no class code is set,
    /// so everyone without one shares the default numbers.
    pub fn seed(&self) -> String {
        student_seed(&self.class, &self.name)
    }
}

/// The seed for a class code and a name: trimmed, lower case, `class/name`.
pub fn student_seed(class: &str, name: &str) -> String {
    let class = class.trim().to_lowercase();
    if class.is_empty() {
        return String::new();
    }
    format!("{class}/{}", name.trim().to_lowercase())
}

/// Everything kept for one learner.
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
    /// Read stored text: the progress and, if the text could not be used, a
    /// notice for the learner.
    pub fn load(stored: Option<&str>) -> (Progress, Option<String>) {
        let Some(text) = stored else {
            return (Progress::default(), None);
        };
        match serde_json::from_str::<Progress>(text) {
            Ok(p) if p.version == VERSION => (p, None),
            Ok(p) => (
                Progress::default(),
                Some(format!(
                    "Saved progress was from another version ({}); starting fresh.",
                    p.version
                )),
            ),
            Err(_) => (
                Progress::default(),
                Some(
                    "Saved progress could not be read (it may be damaged), so it was reset.".into(),
                ),
            ),
        }
    }

    /// The text to store.
    pub fn save(&self) -> String {
        serde_json::to_string(self).expect("progress serialises")
    }

    /// Record a checked answer.
    pub fn record_attempt(&mut self, id: &str, correct: bool) {
        let e = self.exercises.entry(id.to_string()).or_default();
        if e.attempts == 0 {
            e.first_correct = Some(correct);
        }
        e.attempts += 1;
        e.solved |= correct;
    }

    /// Record that `shown` hints are open.
    pub fn record_hints(&mut self, id: &str, shown: u32) {
        let e = self.exercises.entry(id.to_string()).or_default();
        e.hints = e.hints.max(shown);
    }

    /// Is this exercise solved?
    pub fn solved(&self, id: &str) -> bool {
        self.exercises.get(id).is_some_and(|e| e.solved)
    }

    /// How many of these ids are solved.
    pub fn solved_count<'a>(&self, ids: impl IntoIterator<Item = &'a str>) -> usize {
        ids.into_iter().filter(|id| self.solved(id)).count()
    }

    /// A file for the teacher: who, how each exercise went, and (with a
    /// class code) a check value over it, so the teacher can tell an edited
    /// file or one from another class.
    pub fn export(&self) -> String {
        let mut file = self.unchecked();
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

    fn unchecked(&self) -> Progress {
        Progress {
            check: None,
            ..self.clone()
        }
    }

    /// The name of the file [`Progress::export`] is saved as:
    /// `tellers-progress-ana.json` (letters and digits of the name only).
    pub fn export_file_name(&self) -> String {
        let name: String = self
            .student
            .name
            .to_lowercase()
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
            format!(
                "tellers-progress-{}.json",
                name.chars().take(40).collect::<String>()
            )
        }
    }
}

/// Read access to the learner's progress, for every lesson component that
/// shows it (what is solved, whose numbers these are). Read-only on purpose:
/// showing progress must never be able to change it.
#[derive(Clone, Copy)]
pub struct ProgressRead(pub ReadSignal<Progress>);

/// The changes a lesson component may make, and no others: an exercise
/// card records answers and hints, the student panel says who is working.
/// Like the setter in Leptos's todomvc example, it is provided apart from
/// the reading side, and it cannot replace or reset the progress wholesale.
#[derive(Clone, Copy)]
pub struct ProgressWrite(WriteSignal<Progress>);

impl ProgressWrite {
    /// Record a checked answer to exercise `id`.
    pub fn attempt(&self, id: &str, correct: bool) {
        self.0.update(|p| p.record_attempt(id, correct));
    }

    /// Record that `shown` hints of exercise `id` are open.
    pub fn hints(&self, id: &str, shown: u32) {
        self.0.update(|p| p.record_hints(id, shown));
    }

    /// Set who is working: a class code and a name, trimmed.
    pub fn set_student(&self, class: &str, name: &str) {
        self.0.update(|p| {
            p.student = Student {
                class: class.trim().to_string(),
                name: name.trim().to_string(),
            }
        });
    }
}

fn storage() -> Option<web_sys::Storage> {
    window().local_storage().ok().flatten()
}

/// Loads the learner's progress from local storage, saves it on every
/// change, and provides [`ProgressRead`] and [`ProgressWrite`] to the
/// components below. Returns the notice to show when saved progress could
/// not be read and was reset.
pub fn provide_progress() -> Option<String> {
    let stored = storage().and_then(|s| s.get_item(STORAGE_KEY).ok().flatten());
    let (loaded, notice) = Progress::load(stored.as_deref());
    let (read, write) = signal(loaded);
    provide_context(ProgressRead(read));
    provide_context(ProgressWrite(write));
    Effect::new(move |_| {
        let text = read.with(Progress::save);
        if let Some(s) = storage() {
            let _ = s.set_item(STORAGE_KEY, &text);
        }
    });
    notice
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_keeps_everything() {
        let mut p = Progress {
            student: Student {
                class: "R12".into(),
                name: "Ana".into(),
            },
            ..Progress::default()
        };
        p.record_attempt("threads-busy", false);
        p.record_attempt("threads-busy", true);
        p.record_hints("threads-busy", 2);
        let (back, notice) = Progress::load(Some(&p.save()));
        assert_eq!((back, notice), (p.clone(), None));
        assert!(p.solved("threads-busy"));
        assert_eq!(p.exercises["threads-busy"].attempts, 2);
        assert_eq!(p.solved_count(["threads-busy", "other"]), 1);
    }

    #[test]
    fn corrupt_or_foreign_storage_resets_with_a_notice() {
        for bad in ["{", "null", "[]", "{\"version\":1}", "\u{0}garbage"] {
            let (p, notice) = Progress::load(Some(bad));
            assert_eq!(p, Progress::default());
            assert!(notice.unwrap().contains("reset"), "{bad}");
        }
        let (_, notice) = Progress::load(Some(
            r#"{"version":9,"student":{"class":"","name":""},"exercises":{}}"#,
        ));
        assert!(notice.unwrap().contains("another version"));
        assert_eq!(Progress::load(None), (Progress::default(), None));
    }

    #[test]
    fn the_first_answer_is_remembered_and_inferred_for_old_records() {
        let mut p = Progress::default();
        p.record_attempt("a", false);
        p.record_attempt("a", true);
        p.record_attempt("b", true);
        p.record_attempt("b", false);
        assert_eq!(p.exercises["a"].wrong_first(), Some(true));
        assert_eq!(p.exercises["b"].wrong_first(), Some(false));
        let old = |solved, attempts| ExerciseProgress {
            solved,
            attempts,
            hints: 0,
            first_correct: None,
        };
        assert_eq!(old(false, 2).wrong_first(), Some(true));
        assert_eq!(old(true, 1).wrong_first(), Some(false));
        assert_eq!(old(true, 3).wrong_first(), None);
        assert_eq!(old(false, 0).wrong_first(), None);
        // Progress kept before first_correct existed still loads.
        let (back, notice) = Progress::load(Some(
            r#"{"version":1,"student":{"class":"","name":""},"exercises":{"a":{"solved":true,"attempts":1,"hints":0}}}"#,
        ));
        assert_eq!(notice, None);
        assert_eq!(back.exercises["a"].wrong_first(), Some(false));
    }

    #[test]
    fn an_exported_file_carries_a_check_over_its_progress() {
        let mut p = Progress {
            student: Student {
                class: "K7Q2-MX4P".into(),
                name: "Ana Lí".into(),
            },
            ..Progress::default()
        };
        p.record_attempt("threads-busy", true);
        let file: Progress = serde_json::from_str(&p.export()).unwrap();
        let (progress, check) = file.split_check();
        assert_eq!(progress, p);
        assert_eq!(check, Some(file_check("K7Q2-MX4P", &p.save())));
        // Without a class there is nothing to key the check with.
        let alone: Progress = serde_json::from_str(&Progress::default().export()).unwrap();
        assert_eq!(alone.check, None);
        assert!(!Progress::default().export().contains("check"));
        assert_eq!(p.export_file_name(), "tellers-progress-ana-lí.json");
        assert_eq!(
            Progress::default().export_file_name(),
            "tellers-progress.json"
        );
    }

    #[test]
    fn seeds_ignore_case_and_spaces_and_need_a_class() {
        assert_eq!(student_seed(" R12 ", "Ana "), "r12/ana");
        assert_eq!(student_seed("", "Ana"), "");
        assert_ne!(student_seed("r12", "ana"), student_seed("r12", "ben"));
    }
}
