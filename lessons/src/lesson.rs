//! The course as the app holds it: lessons made of segments. The app gets
//! it as JSON made at build time (see `parse`), so the browser needs no
//! Markdown or TOML parser.

use crate::exercise::Exercise;
use serde::{Deserialize, Serialize};
use tellers_sim::Scenario;

/// What an embedded simulation shows.
pub const VIEWS: &[&str] = &["tellers", "curve", "series", "stats"];

/// An embedded, preconfigured simulation.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SimBlock {
    /// The scenario it starts from, written as the fields that differ from
    /// the defaults (a sim block's full scenario was 60-odd fields, and the
    /// course's JSON is read at start-up on a lesson page).
    #[serde(serialize_with = "changed_fields")]
    pub scenario: Scenario,
    /// The preset it was built on, if any.
    pub preset: Option<String>,
    /// One of [`VIEWS`].
    pub view: String,
    /// What to watch, one sentence.
    pub caption: String,
    /// Scenario fields the learner may change here.
    pub sliders: Vec<String>,
    /// Report figures (names from [`figures`](crate::exercise::figures))
    /// the widget shows in its row of figures: those its predict box asks
    /// for, those the block lists under `figures`, then those its claims
    /// check, each once. Curve claims (`sweep_rho`) are read off the curve.
    #[serde(default)]
    pub figures: Vec<String>,
}

fn changed_fields<S: serde::Serializer>(s: &Scenario, ser: S) -> Result<S::Ok, S::Error> {
    tellers_sim::fields::changed_object(tellers_sim::scenario::FIELDS, s).serialize(ser)
}

/// One piece of a lesson, in reading order.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
// Externally tagged (`{"sim": {…}}`): read in one pass. A `"type"` tag inside
// the object made serde buffer each segment and compile a second reader for
// the exercises and sim blocks inside (about 20 KB of the app's wasm).
#[serde(rename_all = "kebab-case")]
// A course holds a few hundred segments, built once: their size does not matter.
#[allow(clippy::large_enum_variant)]
pub enum Segment {
    /// Lesson text, as trusted HTML compiled from our own Markdown.
    Html {
        /// The HTML.
        html: String,
    },
    /// "Predict, then run": a question to answer before the simulation moves.
    Predict {
        /// The question, as HTML.
        html: String,
        /// Report figures the learner guesses (names from
        /// [`figures`](crate::exercise::figures)), compared with the run of
        /// the sim block that follows; empty for a guess in words.
        #[serde(default)]
        figures: Vec<String>,
        /// Settings the guess is about, as (scenario field, value): the
        /// guess is compared only with a run at these settings.
        #[serde(default)]
        when: Vec<(String, f64)>,
    },
    /// A live simulation.
    Sim(SimBlock),
    /// An exercise checked on the spot.
    Exercise(Exercise),
}

/// One lesson.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Lesson {
    /// From the file name: `04-littles-law.md` → `littles-law`.
    pub slug: String,
    /// Position in the course, from 1.
    pub number: u32,
    /// Title.
    pub title: String,
    /// One sentence for the table of contents.
    pub summary: String,
    /// The lesson, in order.
    pub segments: Vec<Segment>,
}

impl Lesson {
    /// The lesson's exercises, in order.
    pub fn exercises(&self) -> impl Iterator<Item = &Exercise> {
        self.segments.iter().filter_map(|s| match s {
            Segment::Exercise(e) => Some(e),
            _ => None,
        })
    }

    /// The lesson's exercises with their numbers, as teachers see them:
    /// `4.2` is the second exercise of lesson 4.
    pub fn numbered_exercises(&self) -> impl Iterator<Item = (String, &Exercise)> {
        self.exercises()
            .enumerate()
            .map(|(i, e)| (format!("{}.{}", self.number, i + 1), e))
    }

    /// The number of the exercise `id` as [`Lesson::numbered_exercises`]
    /// gives it; `None` when this lesson has no such exercise.
    pub fn exercise_number(&self, id: &str) -> Option<String> {
        self.numbered_exercises()
            .find(|(_, e)| e.id == id)
            .map(|(n, _)| n)
    }
}

/// The whole course, in order.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Course {
    /// Lessons, in order.
    pub lessons: Vec<Lesson>,
}

/// The first line of the course as [`Course::to_json`] writes it.
const FIRST_LINE: &str = "{\"lessons\":[";
/// Its last line.
const LAST_LINE: &str = "]}";

impl Course {
    /// The course as JSON, one lesson to a line, so the app can read it a
    /// lesson at a time (see [`Course::lesson_lines`]); still one JSON value.
    pub fn to_json(&self) -> Result<String, String> {
        let mut out = String::from(FIRST_LINE);
        for (i, lesson) in self.lessons.iter().enumerate() {
            out.push_str(if i == 0 { "\n" } else { ",\n" });
            // serde_json escapes newlines inside strings: one lesson, one line.
            out.push_str(
                &serde_json::to_string(lesson)
                    .map_err(|e| format!("lesson {} does not serialise: {e}", lesson.slug))?,
            );
        }
        out.push('\n');
        out.push_str(LAST_LINE);
        out.push('\n');
        Ok(out)
    }

    /// Each lesson's JSON in a course written by [`Course::to_json`];
    /// `None` when `text` is laid out some other way (read it whole).
    pub fn lesson_lines(text: &str) -> Option<Vec<&str>> {
        let mut lines = text.lines();
        if lines.next()? != FIRST_LINE {
            return None;
        }
        let mut out = Vec::new();
        for line in lines {
            if line == LAST_LINE {
                return Some(out);
            }
            out.push(line.strip_suffix(',').unwrap_or(line));
        }
        None
    }

    /// One lesson from its line of the compiled course.
    pub fn read_lesson(line: &str) -> Result<Lesson, String> {
        serde_json::from_str(line).map_err(|e| format!("the compiled course is not readable: {e}"))
    }

    /// The course compiled into JSON at build time, read whole.
    pub fn from_json(text: &str) -> Result<Course, String> {
        serde_json::from_str(text).map_err(|e| format!("the compiled course is not readable: {e}"))
    }

    /// The lesson with this slug.
    pub fn lesson(&self, slug: &str) -> Option<&Lesson> {
        self.lessons.iter().find(|l| l.slug == slug)
    }

    /// Every exercise with the slug of its lesson.
    pub fn exercises(&self) -> impl Iterator<Item = (&str, &Exercise)> {
        self.lessons
            .iter()
            .flat_map(|l| l.exercises().map(move |e| (l.slug.as_str(), e)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lesson(slug: &str) -> Lesson {
        Lesson {
            slug: slug.into(),
            number: 1,
            title: "A\nB, \"c\"".into(),
            summary: "]}".into(),
            segments: vec![Segment::Html {
                html: "<p>one\ntwo</p>".into(),
            }],
        }
    }

    #[test]
    fn the_compiled_course_is_one_json_value_with_a_lesson_to_a_line() {
        let course = Course {
            lessons: vec![lesson("a"), lesson("b")],
        };
        let json = course.to_json().unwrap();
        assert_eq!(Course::from_json(&json).unwrap(), course);
        let lines = Course::lesson_lines(&json).unwrap();
        assert_eq!(lines.len(), 2);
        let read: Vec<Lesson> = lines
            .iter()
            .map(|l| Course::read_lesson(l).unwrap())
            .collect();
        assert_eq!(read, course.lessons);
        // No lessons: no lines, still a course.
        let empty = Course::default().to_json().unwrap();
        assert_eq!(Course::lesson_lines(&empty), Some(vec![]));
        assert_eq!(Course::from_json(&empty).unwrap(), Course::default());
    }

    #[test]
    fn another_layout_is_read_whole() {
        let whole = serde_json::to_string(&Course {
            lessons: vec![lesson("a")],
        })
        .unwrap();
        assert_eq!(Course::lesson_lines(&whole), None);
        let cut = Course {
            lessons: vec![lesson("a")],
        }
        .to_json()
        .unwrap()
        .replace("]}\n", "");
        assert_eq!(Course::lesson_lines(&cut), None, "no last line");
    }
}
