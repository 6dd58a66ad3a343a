//! The class's results: the progress files students saved, read back in the
//! teacher's browser, checked, and laid out as one table (a row per
//! student, a column per exercise, totals per lesson and per exercise),
//! with the exercises most of the class got wrong at first, and as CSV.
//!
//! A file that cannot be read, comes from another class, was edited after
//! it was saved (its check value no longer matches), or repeats a student
//! already read is listed with the reason, never merged.
//!
//! The page shows them as HTML text made here ([`ResultsPage`]): a class's
//! table has thousands of cells, static once drawn, and strings are far
//! less code and drawing than as many reactive nodes. People's text
//! (names, file names) is escaped.
//!
//! Forty students' files made a task of 45–50 ms when read, checked and
//! drawn at once, then one of 75–90 ms laying the whole table out; so the
//! page checks the files a few per task ([`check_parts`]), draws the table
//! a few rows per frame ([`ResultsTable::row_parts`]), and makes the CSV
//! only when it is downloaded.

use crate::classroom::{
    as_name_box_keeps, bare_code, file_check, name_order_key, read_class_code, seed_text,
    ClassCode, CLASS_FILE_HEADING,
};
use crate::progress::{ExerciseProgress, Progress, READABLE_VERSIONS, VERSION};
use crate::reveal::steps_by_cost;
use crate::route::{lesson_href, query_escape};
use html_escape::{encode_double_quoted_attribute as attr, encode_text as text};
use std::fmt;
use std::ops::Range;
use tellers_course::{Course, Exercise, Slip};
use tellers_sim::text::{and_list, plural};

/// The largest file read: a progress file is a few kilobytes.
pub const MAX_FILE_BYTES: f64 = 1_000_000.0;

/// The files the page checks in one task: as many, in order, as fit in
/// this many bytes (a file larger has a task of its own). Checking 64 KB
/// of files (parse each, write it again, its HMAC) took 1.5–3.5 ms in
/// Chromium on this 2-core machine, under a trace; forty students' files
/// with 27 exercises each were 167 KB.
pub const CHECK_BYTES_PER_TASK: u32 = 64_000;

/// The table cells the page draws in one frame. A table of 40 rows of
/// 140 cells laid out at once took one task of 75–90 ms (Chromium, this
/// 2-core machine); 7 rows a frame, 25–35 ms a frame. Each frame lays out
/// the whole table again, so fewer rows a frame would not make the last
/// frames much shorter.
pub const CELLS_PER_FRAME: u32 = 1_000;

/// A file dropped on the page: its name and its text, or why it was not read.
pub type Dropped = (String, Result<String, Rejection>);

/// A file checked for a class ([`check_file`]): its name and its progress,
/// or why it is left out.
pub type Checked = (String, Result<Progress, Rejection>);

/// Why a file was left out of the table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Rejection {
    /// Larger than [`MAX_FILE_BYTES`].
    TooLarge {
        /// Its size.
        bytes: u64,
    },
    /// Not text, not JSON, or not shaped like a progress file.
    Unreadable(String),
    /// The class's code and teacher key, as the teacher's page saves them.
    ClassFile,
    /// Saved by a version of Tellers this one cannot read.
    OtherVersion(u32),
    /// Saved with no class code.
    NoClass,
    /// Saved for another class.
    OtherClass {
        /// The class code in the file.
        theirs: String,
        /// The code the teacher typed, when one of the two looks like the
        /// other mistyped (no hyphen, O for 0, I or L for 1, a symbol
        /// left out or added).
        looks_like: Option<String>,
    },
    /// Cut off before its end (an unfinished download or copy).
    CutOff,
    /// Has no check value (saved before files had one).
    NoCheck,
    /// Changed after it was saved: the check value does not match.
    Edited,
    /// The same file read again (dropped twice): it is in the table once.
    Again,
    /// A second file for a student already in the table.
    SameStudent {
        /// Who.
        name: String,
        /// The file kept for them.
        kept: String,
        /// Whether the two record the same work (else the kept one records more).
        same: bool,
    },
}

impl fmt::Display for Rejection {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Rejection::TooLarge { bytes } => write!(
                f,
                "too large for a progress file ({} KB; they are a few KB, and at most {} KB is read)",
                tellers_sim::text::fmt_count((bytes / 1000) as f64),
                tellers_sim::text::fmt_count(MAX_FILE_BYTES / 1000.0)
            ),
            Rejection::Unreadable(why) => write!(f, "not a Tellers progress file ({why})"),
            Rejection::ClassFile => f.write_str(
                "the class's code and teacher key, as the teacher's page saves them: not a \
                 student's progress file (students save theirs with \"Save progress to a file\")",
            ),
            // A newer format: this page is older than the student's (a
            // cached copy); reloading it gets the newer reader.
            Rejection::OtherVersion(v) if *v > VERSION => write!(
                f,
                "saved by a newer Tellers (format {v}); reload this page to read it"
            ),
            Rejection::OtherVersion(v) => write!(
                f,
                "saved by another version of Tellers (format {v}); ask the student to save it again"
            ),
            Rejection::NoClass => f.write_str(
                "saved without a class code; the student should type the class code, then save again",
            ),
            Rejection::OtherClass {
                theirs,
                looks_like: None,
            } => write!(f, "from another class ({theirs})"),
            Rejection::OtherClass {
                theirs,
                looks_like: Some(class),
            } => write!(
                f,
                "saved for class {theirs}, not {class}: one looks like the other mistyped (a hyphen, \
                 O for 0, I or L for 1, a symbol left out or added), and the student's numbers are those of {theirs}. Check the \
                 code typed here and the one the student typed"
            ),
            Rejection::CutOff => f.write_str(
                "cut off before its end (an unfinished download or copy); ask the student to save it again",
            ),
            Rejection::NoCheck => f.write_str(
                "has no check value (saved by an older Tellers, or edited); ask the student to save it again",
            ),
            Rejection::Edited => f.write_str(
                "changed after it was saved: its check value does not match its contents",
            ),
            Rejection::Again => {
                f.write_str("the same file, read a second time (dropped twice); it counts once")
            }
            Rejection::SameStudent { name, kept, same: false } => write!(
                f,
                "a second file for {name}; kept {kept}, which records all of this one's work and more (a later save)"
            ),
            Rejection::SameStudent { name, kept, same: true } => write!(
                f,
                "a second file for {name}, recording the same work as {kept}, which is kept"
            ),
        }
    }
}

/// Whether two bare codes ([`bare_code`]) are one code mistyped: the same,
/// or one symbol left out of one of them (`H9FC-F26` for `H9FC-F260`), for
/// codes of 6 symbols or more (short hand-made codes differ by one symbol
/// by chance: `R12` and `R1`).
fn codes_look_alike(a: &str, b: &str) -> bool {
    let (short, long) = if a.len() <= b.len() { (a, b) } else { (b, a) };
    if a == b {
        return true;
    }
    if long.len() != short.len() + 1 || short.chars().count() < 6 {
        return false;
    }
    // The first place they differ is the symbol left out.
    let at = short
        .char_indices()
        .zip(long.chars())
        .find(|((_, x), y)| x != y)
        .map_or(short.len(), |((i, _), _)| i);
    let skipped = long[at..].chars().next().map_or(0, char::len_utf8);
    long.get(..at) == short.get(..at) && long.get(at + skipped..) == short.get(at..)
}

/// Whether `a` and `b` have one symbol each, in one place, that differ.
fn one_symbol_changed(a: &str, b: &str) -> bool {
    a.chars().count() == b.chars().count()
        && a.chars().zip(b.chars()).filter(|(x, y)| x != y).count() == 1
}

/// Read one progress file for class `class` (as the teacher typed it).
pub fn read_file(text: &str, class: &str) -> Result<Progress, Rejection> {
    // The teacher's own file, dropped with the students': said, not "not JSON".
    if text
        .trim_start_matches('\u{feff}')
        .starts_with(CLASS_FILE_HEADING)
    {
        return Err(Rejection::ClassFile);
    }
    let file: Progress = serde_json::from_str(text).map_err(|e| {
        if e.is_eof() && text.trim_start().starts_with('{') {
            return Rejection::CutOff;
        }
        // A file that does not fit the layout at its first token may still
        // not be JSON further on (900,000 '[' were called "JSON, but not
        // laid out as a progress file"): read it whole to tell.
        let json = || serde_json::from_str::<serde::de::IgnoredAny>(text).is_ok();
        Rejection::Unreadable(if text.trim().is_empty() {
            "the file is empty".to_string()
        } else if e.is_syntax() || e.is_eof() || !json() {
            "it is not JSON".to_string()
        } else {
            "it is JSON, but not laid out as a progress file".to_string()
        })
    })?;
    let (p, check) = file.split_check();
    if !READABLE_VERSIONS.contains(&p.version) {
        return Err(Rejection::OtherVersion(p.version));
    }
    let theirs = p.student.class.trim();
    if theirs.is_empty() {
        return Err(Rejection::NoClass);
    }
    if seed_text(theirs) != seed_text(class) {
        // One code typed as the other mistyped: said, as it is likely. So
        // is a Tellers code with one symbol changed, which its check symbol
        // says is no code made in Tellers ("HNG0-ZAE0" for HNG0-ZAEV): not
        // a hand-made code one symbol from another (sections CS101-A and
        // CS101-B).
        let (bare_theirs, bare_class) = (bare_code(theirs), bare_code(class));
        let changed = matches!(read_class_code(theirs), ClassCode::Mistyped(_))
            && matches!(read_class_code(class), ClassCode::Keyed(_))
            && one_symbol_changed(&bare_theirs, &bare_class);
        let looks_like = (changed || codes_look_alike(&bare_theirs, &bare_class))
            .then(|| class.trim().to_owned());
        return Err(Rejection::OtherClass {
            theirs: theirs.chars().take(40).collect(),
            looks_like,
        });
    }
    match check {
        None => Err(Rejection::NoCheck),
        Some(check) if check != file_check(class, &p.save()) => Err(Rejection::Edited),
        Some(_) => Ok(p),
    }
}

/// Check one dropped file for class `class` (as the teacher typed it).
pub fn check_file((name, text): &Dropped, class: &str) -> Checked {
    let outcome = match text {
        Ok(text) => read_file(text, class),
        Err(why) => Err(why.clone()),
    };
    (name.clone(), outcome)
}

/// The parts the page checks `files` in, one part per task, in order:
/// as many files as fit in [`CHECK_BYTES_PER_TASK`], at least one.
pub fn check_parts(files: &[Dropped]) -> Vec<Range<usize>> {
    let bytes: Vec<u32> = files
        .iter()
        .map(|(_, text)| {
            text.as_ref()
                .map_or(0, |t| t.len())
                .try_into()
                .unwrap_or(u32::MAX)
        })
        .collect();
    ranges(&steps_by_cost(
        &bytes,
        CHECK_BYTES_PER_TASK,
        CHECK_BYTES_PER_TASK,
    ))
}

/// The parts between rising counts (`[2, 5]`: `0..2`, `2..5`), empty ones left out.
fn ranges(steps: &[usize]) -> Vec<Range<usize>> {
    let mut from = 0;
    steps
        .iter()
        .filter_map(|&to| {
            let part = from..to;
            from = to;
            (!part.is_empty()).then_some(part)
        })
        .collect()
}

/// One exercise's column.
#[derive(Clone, Debug, PartialEq)]
pub struct Column {
    /// Its lesson's index in the course (from 0).
    pub lesson: usize,
    /// The exercise id.
    pub id: String,
    /// Short label: lesson number and position, `4.2`.
    pub label: String,
    /// Each slip this exercise names, with its words: what the checker
    /// told a student who made it ([`Exercise::slip_note_of`]), or a wrong
    /// option's text ([`said_of`] puts the verb before them).
    pub slip_notes: Vec<(Slip, String)>,
}

/// What the results say of a student who made `slip`, before its words in
/// quotes: a numeric slip's note was said to them ("were told" of several
/// in the list, "told" in a cell's tooltip), a wrong option was picked as a
/// first answer ("first chose").
fn said_of(slip: Slip, several: bool) -> &'static str {
    match (slip, several) {
        (Slip::Option(_), _) => "first chose",
        (_, true) => "were told",
        (_, false) => "told",
    }
}

impl Column {
    /// The column of exercise `e`, labelled `label`, in lesson `lesson`.
    fn new(lesson: usize, label: String, e: &Exercise) -> Column {
        let told = (0..e.mistake_notes.len())
            .map(Slip::Mistake)
            .chain([Slip::DotThousands, Slip::Thousandfold])
            .filter(|_| e.unit.is_some())
            .filter_map(|slip| Some((slip, e.slip_note_of(slip)?.to_string())));
        let chose = (0..e.options.len())
            .filter(|&i| Some(i) != e.correct)
            .map(|i| (Slip::Option(i), e.options[i].clone()));
        Column {
            lesson,
            id: e.id.clone(),
            label,
            slip_notes: told.chain(chose).collect(),
        }
    }

    /// What one student was told or chose of the slips `bits` records
    /// ([`Slip::bit`]) that this exercise names, in its order: `told “…”`,
    /// `first chose “…”`; others (a file of another version or an edited
    /// one) are left out.
    fn said_to_one(&self, bits: u8) -> impl Iterator<Item = String> + '_ {
        self.slip_notes
            .iter()
            .filter(move |(slip, _)| bits & slip.bit() != 0)
            .map(|(slip, note)| format!("{} “{note}”", said_of(*slip, false)))
    }
}

/// One lesson's span of columns.
#[derive(Clone, Debug, PartialEq)]
pub struct LessonSpan {
    /// Lesson number, from 1.
    pub number: u32,
    /// Title.
    pub title: String,
    /// How many exercise columns it has.
    pub exercises: usize,
}

/// One student's row.
#[derive(Clone, Debug, PartialEq)]
pub struct StudentRow {
    /// The name they typed ("(no name)" when none).
    pub name: String,
    /// The file it came from.
    pub file: String,
    /// How each exercise went, by column; `None` if not worked on (no
    /// answer checked, hint or solution opened).
    pub cells: Vec<Option<ExerciseProgress>>,
    /// Exercises solved, per lesson.
    pub solved_per_lesson: Vec<usize>,
    /// Exercises solved in all.
    pub solved: usize,
}

/// An exercise most of those who tried it got wrong at first.
#[derive(Clone, Debug, PartialEq)]
pub struct Hard {
    /// Its column.
    pub column: usize,
    /// Students whose first answer was wrong.
    pub wrong_first: usize,
    /// Students whose first answer is known (right or wrong).
    pub known: usize,
}

/// How many of the mistakes more than one student made the results list.
const SLIPS_LISTED: usize = 10;

/// How many names each of those mistakes lists before "and N others".
const NAMES_LISTED: usize = 8;

/// A slip the checker named ([`tellers_course::Exercise::slip`]), or a
/// wrong option picked first, that more than one student made on one
/// exercise.
#[derive(Clone, Debug, PartialEq)]
pub struct CommonSlip {
    /// Its exercise's column.
    pub column: usize,
    /// The slip.
    pub slip: Slip,
    /// The rows of the students who made it (each once, however often
    /// they gave that answer), in the table's order.
    pub who: Vec<usize>,
    /// Its words ([`Column::slip_notes`]).
    pub note: String,
}

/// The whole class in one table.
#[derive(Clone, Debug, PartialEq)]
pub struct ClassResults {
    /// Exercise columns, in course order.
    pub columns: Vec<Column>,
    /// Lessons over the columns, in order.
    pub lessons: Vec<LessonSpan>,
    /// One row per student, by name.
    pub students: Vec<StudentRow>,
    /// Files left out: file name and why.
    pub rejected: Vec<(String, String)>,
    /// Files for one name, each with work the others lack, all in the
    /// table: the name and the rows (indexes into `students`, in the order
    /// the files came).
    pub both_kept: Vec<(String, Vec<usize>)>,
    /// Files in the table that record work on exercises this course does
    /// not have (renamed or removed since they were saved, or a file of
    /// another course): the file and how many such exercises. That work
    /// is not counted, and without this a file of only such work read as
    /// a student who did nothing.
    pub unknown_work: Vec<(String, usize)>,
    /// Whether the rows name their students ([`ClassResults::without_names`]).
    pub names: Names,
}

impl ClassResults {
    /// The same results with no name or file name in them, for a
    /// projector: the rows in an order that does not follow the names (a
    /// hash of each name and file: in name order, a class list would tell
    /// who "Student 1" is), each student "Student 1", "Student 2"… in
    /// that order, and the notes on files (left out, work on other
    /// exercises) left out, as they name files. Rows of one name stay
    /// said to be one name's, by their numbers.
    pub fn without_names(mut self) -> Self {
        let order = mixed_order(&self.students);
        let mut now = vec![0; order.len()];
        for (new, &old) in order.iter().enumerate() {
            now[old] = new;
        }
        let mut rows: Vec<Option<StudentRow>> = self.students.drain(..).map(Some).collect();
        self.students = order.into_iter().filter_map(|i| rows[i].take()).collect();
        for (i, row) in self.students.iter_mut().enumerate() {
            row.name = format!("Student {}", i + 1);
            row.file = format!("file {}", i + 1);
        }
        for (name, rows) in &mut self.both_kept {
            name.clear();
            for r in rows.iter_mut() {
                *r = now[*r];
            }
            // In the table's order: "Student 3 and Student 5", not "5 and 3".
            rows.sort_unstable();
        }
        self.rejected.clear();
        self.unknown_work.clear();
        self.names = Names::Hidden;
        self
    }
}

/// The rows of `rows` (their indexes) in an order that does not follow
/// their names: by an FNV-1a hash of each name and file, the same on
/// every machine and every visit ([`ClassResults::without_names`]).
fn mixed_order(rows: &[StudentRow]) -> Vec<usize> {
    let hash = |row: &StudentRow| {
        format!("{}\u{0}{}", row.name, row.file)
            .bytes()
            .fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
                (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
            })
    };
    let mut order: Vec<usize> = (0..rows.len()).collect();
    order.sort_by_cached_key(|&i| hash(&rows[i]));
    order
}

/// Whether the record `a` holds all of `b`'s work: every exercise `b`
/// worked on is in `a`, solved if `b` solved it, with at least as many
/// answers checked and hints opened, the worked solution if `b` opened
/// it, and every slip `b` made. A student's record only grows, so their
/// later save holds the earlier one.
fn holds(a: &Progress, b: &Progress) -> bool {
    b.exercises.iter().all(|(id, e)| {
        a.exercises.get(id).is_some_and(|x| {
            (x.solved || !e.solved)
                && x.attempts >= e.attempts
                && x.hints >= e.hints
                && (x.solution == Some(true) || e.solution != Some(true))
                && e.slips & !x.slips == 0
        })
    })
}

/// How a rejected file's reason names the file `kept` in its place: by
/// its name, or, where two downloads share one (the `rejected` file's),
/// as the other file of that name ("kept tellers-progress-ana.json" beside
/// tellers-progress-ana.json told a teacher nothing).
fn kept_file(kept: &str, rejected: &str) -> String {
    if kept == rejected {
        "the other file of this name".to_owned()
    } else {
        kept.to_owned()
    }
}

/// The name a row shows for `name`: as the student's name box keeps it
/// ([`as_name_box_keeps`]: no control characters for the CSV, no marks
/// that turn the table's text round), or "(no name)".
fn shown_name(name: &str) -> String {
    let name = as_name_box_keeps(name);
    if name.is_empty() {
        "(no name)".into()
    } else {
        name
    }
}

impl ClassResults {
    /// Read `files` (each a file name and its text, or why it was not
    /// read) for class `class`, against the exercises of `course`.
    pub fn new(course: &Course, class: &str, files: &[Dropped]) -> Self {
        Self::from_checked(course, files.iter().map(|f| check_file(f, class)).collect())
    }

    /// The table of the files `checked` (each by [`check_file`], in the
    /// order they came), against the exercises of `course`.
    pub fn from_checked(course: &Course, checked: Vec<Checked>) -> Self {
        let mut columns = Vec::new();
        let mut lessons = Vec::new();
        for (li, lesson) in course.lessons.iter().enumerate() {
            let before = columns.len();
            for (label, e) in lesson.numbered_exercises() {
                columns.push(Column::new(li, label, e));
            }
            lessons.push(LessonSpan {
                number: lesson.number,
                title: lesson.title.clone(),
                exercises: columns.len() - before,
            });
        }

        let mut rejected = Vec::new();
        let mut read: Vec<(String, Progress)> = Vec::new();
        for (file, outcome) in checked {
            match outcome {
                Ok(p) => read.push((file, p)),
                Err(why) => rejected.push((file, why.to_string())),
            }
        }
        // One row per student, by name: of two files for one name where
        // one holds all the other's work (a record only grows, so it is the
        // later save), keep that one and list the other. Two that each hold
        // work the other lacks are two students with one name, or one
        // student on two computers: both rows stay, and a note says so.
        // (Kept in order as they come: cheaper than sorting afterwards.)
        let mut kept: Vec<(String, String, Progress)> = Vec::new();
        for (n, (file, p)) in read.into_iter().enumerate() {
            // Files without a name may be different students: each its own
            // row, after the named ones, in the order they came. Named
            // rows sort by their letters, accents second (one key for one
            // [`seed_text`]).
            let key = match seed_text(&p.student.name) {
                name if name.is_empty() => format!("\u{10ffff}{n:08}"),
                _ => name_order_key(&p.student.name),
            };
            // The rows already kept for this name: `key`, then `key\0…`.
            let start = kept.partition_point(|(k, _, _)| k.as_str() < key.as_str());
            let second = format!("{key}\u{0}");
            let end = start
                + kept[start..]
                    .iter()
                    .take_while(|(k, _, _)| *k == key || k.starts_with(&second))
                    .count();
            if let Some(j) = (start..end).find(|&j| holds(&kept[j].2, &p)) {
                // A row holds all its work: an earlier save, or a copy (a
                // copy under the kept one's name is that file dropped again).
                let same = p.exercises == kept[j].2.exercises;
                let why = if same && file == kept[j].1 {
                    Rejection::Again
                } else {
                    Rejection::SameStudent {
                        name: shown_name(&kept[j].2.student.name),
                        kept: kept_file(&kept[j].1, &file),
                        same,
                    }
                };
                rejected.push((file, why.to_string()));
            } else if let Some(j) = (start..end).find(|&j| holds(&p, &kept[j].2)) {
                // It holds a row's work (a later save): it takes the row's
                // place, and any other row it holds goes too.
                let held: Vec<usize> = (start..end).filter(|&j| holds(&p, &kept[j].2)).collect();
                let row_key = kept[j].0.clone();
                for &h in held.iter().rev() {
                    let (_, old_file, _) = kept.remove(h);
                    let why = Rejection::SameStudent {
                        name: shown_name(&p.student.name),
                        kept: kept_file(&file, &old_file),
                        same: false,
                    };
                    rejected.push((old_file, why.to_string()));
                }
                kept.insert(j, (row_key, file, p));
            } else {
                // Work none of the rows holds, nor holds theirs: another
                // row, after the name's others ("\0" sorts first, and `n`
                // grows).
                let row_key = if start == end {
                    key
                } else {
                    format!("{second}{n:08}")
                };
                kept.insert(end, (row_key, file, p));
            }
        }
        // Names with more than one row, and their rows in order.
        let mut both_kept: Vec<(String, Vec<usize>)> = Vec::new();
        for (i, (k, _, p)) in kept.iter().enumerate() {
            if k.contains('\u{0}') {
                match both_kept.last_mut() {
                    Some((_, rows)) if rows.last() == Some(&(i - 1)) => rows.push(i),
                    _ => both_kept.push((shown_name(&p.student.name), vec![i - 1, i])),
                }
            }
        }

        let unknown_work = kept
            .iter()
            .filter_map(|(_, file, p)| {
                let n = p
                    .exercises
                    .iter()
                    .filter(|(id, e)| e.worked_on() && !columns.iter().any(|c| &c.id == *id))
                    .count();
                (n > 0).then(|| (file.clone(), n))
            })
            .collect();
        let students = kept
            .into_iter()
            .map(|(_, file, p)| {
                let cells: Vec<Option<ExerciseProgress>> = columns
                    .iter()
                    // Worked on: an answer checked, a hint or the solution opened.
                    .map(|c| p.exercises.get(&c.id).filter(|e| e.worked_on()).cloned())
                    .collect();
                let mut solved_per_lesson = vec![0; lessons.len()];
                for (c, cell) in columns.iter().zip(&cells) {
                    if cell.as_ref().is_some_and(|e| e.solved) {
                        solved_per_lesson[c.lesson] += 1;
                    }
                }
                StudentRow {
                    name: shown_name(&p.student.name),
                    file,
                    solved: solved_per_lesson.iter().sum(),
                    cells,
                    solved_per_lesson,
                }
            })
            .collect();
        ClassResults {
            columns,
            lessons,
            students,
            rejected,
            both_kept,
            unknown_work,
            names: Names::Shown,
        }
    }

    fn count(&self, column: usize, f: impl Fn(&ExerciseProgress) -> bool) -> usize {
        self.students
            .iter()
            .filter(|s| s.cells[column].as_ref().is_some_and(&f))
            .count()
    }

    /// Students who solved the exercise in `column`.
    pub fn solved_by(&self, column: usize) -> usize {
        self.count(column, |e| e.solved)
    }

    /// Students who checked at least one answer to it.
    pub fn tried_by(&self, column: usize) -> usize {
        self.count(column, |e| e.attempts > 0)
    }

    /// Students whose first answer to it was wrong.
    pub fn wrong_first_by(&self, column: usize) -> usize {
        self.count(column, |e| e.wrong_first() == Some(true))
    }

    /// Students who solved every exercise of lesson `lesson` (the "solved
    /// by" row under the lesson's total: students, as in every other cell
    /// of that row, not a sum of solves).
    pub fn lesson_solved(&self, lesson: usize) -> usize {
        let exercises = self.columns.iter().filter(|c| c.lesson == lesson).count();
        self.students
            .iter()
            .filter(|s| exercises > 0 && s.solved_per_lesson[lesson] == exercises)
            .count()
    }

    /// Students who solved every exercise of the course.
    pub fn all_solved(&self) -> usize {
        let n = self.columns.len();
        self.students
            .iter()
            .filter(|s| n > 0 && s.solved == n)
            .count()
    }

    /// How many students must have answered an exercise for it to be
    /// ranked among the most missed: a quarter of the class (at least
    /// one), so one student's slip does not top a big class's list.
    pub fn fewest_to_rank(&self) -> usize {
        self.students.len().div_ceil(4).max(1)
    }

    /// The exercises more than half of those whose first answer is known
    /// got wrong at first, of those at least [`Self::fewest_to_rank`]
    /// answered: the most students wrong first, then the highest share,
    /// then in course order (by share alone, one student's "1 of 1" topped
    /// "2 of 3" in a class of three).
    pub fn most_wrong_first(&self) -> Vec<Hard> {
        let before = |a: &Hard, b: &Hard| {
            (a.wrong_first, a.wrong_first * b.known) > (b.wrong_first, b.wrong_first * a.known)
        };
        let mut hard: Vec<Hard> = Vec::new();
        for column in 0..self.columns.len() {
            let h = Hard {
                column,
                wrong_first: self.wrong_first_by(column),
                known: self.count(column, |e| e.wrong_first().is_some()),
            };
            if 2 * h.wrong_first > h.known && h.known >= self.fewest_to_rank() {
                let at = hard
                    .iter()
                    .position(|x| before(&h, x))
                    .unwrap_or(hard.len());
                hard.insert(at, h);
            }
        }
        hard
    }

    /// The slips the checker named that more than one student made on one
    /// exercise: what the class may need taught again. By exercise, the
    /// exercise whose slip most made first (then in course order), and in
    /// each the most made first (then in its own order), so one exercise's
    /// slips stand together. Slips the course's exercise does not name (a
    /// file of another version, or an edited one) are left out.
    pub fn common_slips(&self) -> Vec<CommonSlip> {
        let mut common = Vec::new();
        for (column, c) in self.columns.iter().enumerate() {
            for (slip, note) in &c.slip_notes {
                let who: Vec<usize> = (0..self.students.len())
                    .filter(|&r| {
                        let cell = &self.students[r].cells[column];
                        cell.as_ref().is_some_and(|e| e.slips & slip.bit() != 0)
                    })
                    .collect();
                if who.len() > 1 {
                    common.push(CommonSlip {
                        column,
                        slip: *slip,
                        who,
                        note: note.clone(),
                    });
                }
            }
        }
        let mut most = vec![0; self.columns.len()];
        for x in &common {
            most[x.column] = most[x.column].max(x.who.len());
        }
        // Stable: course order, then the exercise's own order of slips.
        common.sort_by_key(|x| {
            (
                std::cmp::Reverse(most[x.column]),
                x.column,
                std::cmp::Reverse(x.who.len()),
            )
        });
        common
    }

    /// A student's slips for the CSV, in course order: "4.2 threads-busy:
    /// told “…”; 4.1 littles-law-says: first chose “…”".
    fn mistakes_of(&self, s: &StudentRow) -> String {
        let mut said = Vec::new();
        for (c, cell) in self.columns.iter().zip(&s.cells) {
            let Some(e) = cell else { continue };
            for told in c.said_to_one(e.slips) {
                said.push(format!("{} {}: {told}", c.label, c.id));
            }
        }
        said.join("; ")
    }

    /// Whether any student's record holds a slip the checker named.
    fn any_slips(&self) -> bool {
        self.students
            .iter()
            .any(|s| s.cells.iter().flatten().any(|e| e.slips != 0))
    }

    /// The table as CSV: a row per student (per exercise: solved yes/no,
    /// answers checked, hints opened and whether the worked solution was
    /// opened before solving, blank if not worked on or not recorded; per
    /// lesson and in all: solved; the mistakes the checker named and the
    /// wrong options picked first), then the class's totals per exercise
    /// and per lesson.
    pub fn csv(&self) -> String {
        let mut header = vec!["student".to_string(), "file".to_string()];
        for c in &self.columns {
            for what in CSV_PER_EXERCISE {
                header.push(format!("{} {} {what}", c.label, c.id));
            }
        }
        for l in &self.lessons {
            header.push(format!("lesson {} solved (of {})", l.number, l.exercises));
        }
        header.push(format!("total solved (of {})", self.columns.len()));
        header.push("mistakes (told or first chose)".into());
        let mut rows = vec![header];
        for s in &self.students {
            let mut row = vec![s.name.clone(), s.file.clone()];
            for cell in &s.cells {
                let yes = |b: bool| if b { "yes" } else { "no" }.to_string();
                match cell {
                    Some(e) => row.extend([
                        yes(e.solved),
                        e.attempts.to_string(),
                        e.hints.to_string(),
                        e.solution.map(yes).unwrap_or_default(),
                    ]),
                    None => row.extend(CSV_PER_EXERCISE.map(|_| String::new())),
                }
            }
            row.extend(s.solved_per_lesson.iter().map(usize::to_string));
            row.push(s.solved.to_string());
            row.push(self.mistakes_of(s));
            rows.push(row);
        }
        let n = self.students.len();
        let mut solved = vec![format!("solved by (of {n})"), String::new()];
        let mut wrong = vec!["wrong at first by".to_string(), String::new()];
        let blanks = || CSV_PER_EXERCISE[1..].iter().map(|_| String::new());
        for c in 0..self.columns.len() {
            solved.push(self.solved_by(c).to_string());
            solved.extend(blanks());
            wrong.push(self.wrong_first_by(c).to_string());
            wrong.extend(blanks());
        }
        solved.extend((0..self.lessons.len()).map(|l| self.lesson_solved(l).to_string()));
        solved.push(self.all_solved().to_string());
        solved.push(String::new());
        wrong.extend((0..=self.lessons.len() + 1).map(|_| String::new()));
        rows.push(solved);
        rows.push(wrong);
        rows.iter()
            .map(|r| r.iter().map(|f| csv_field(f)).collect::<Vec<_>>().join(","))
            .map(|line| line + "\r\n")
            .collect()
    }

    /// The files left out with their reasons, and the exercises most got
    /// wrong at first (linked), as HTML.
    pub fn notes_html(&self, course: &Course) -> String {
        let mut h = String::new();
        if !self.rejected.is_empty() {
            h += "<h2>Files left out</h2><ul class=\"results__rejected\" data-testid=\"rejected\">";
            for (file, why) in &self.rejected {
                h += &format!("<li><strong>{}</strong>: {}</li>", text(file), text(why));
            }
            h += "</ul>";
        }
        if !self.both_kept.is_empty() {
            h += &format!(
                "<h2>{} with one name</h2><ul class=\"results__rejected\" data-testid=\"both-kept\">",
                match self.names {
                    Names::Shown => "Files",
                    Names::Hidden => "Rows",
                }
            );
            for (name, rows) in &self.both_kept {
                // The files, or with names hidden the rows' numbers.
                let listed: Vec<String> = rows
                    .iter()
                    .map(|&r| {
                        let row = &self.students[r];
                        let what = match self.names {
                            Names::Shown => &row.file,
                            Names::Hidden => &row.name,
                        };
                        format!("<strong>{}</strong>", text(what))
                    })
                    .collect();
                let (all, others, rows) = if rows.len() == 2 {
                    ("both", "the other lacks", "Both rows are")
                } else {
                    ("all", "the others lack", "All their rows are")
                };
                let share = if all == "both" { "share" } else { "all share" };
                h += &match self.names {
                    Names::Shown => format!(
                        "<li>{} are {all} for {}, and each records work {others}: students with one \
                         name, or one student on more than one computer. {rows} in the table; the CSV's \
                         file column tells them apart.</li>",
                        and_list(&listed),
                        text(name)
                    ),
                    Names::Hidden => format!(
                        "<li>{} {share} one name, and each records work {others}: students with \
                         one name, or one student on more than one computer.</li>",
                        and_list(&listed),
                    ),
                };
            }
            h += "</ul>";
        }
        if !self.unknown_work.is_empty() {
            h += "<h2>Work on exercises this course does not have</h2><ul class=\"results__rejected\" data-testid=\"unknown-work\">";
            for (file, n) in &self.unknown_work {
                h += &format!(
                    "<li><strong>{}</strong> records work on {} this course does not have \
                     (renamed or removed since it was saved, or another course's): not counted.</li>",
                    text(file),
                    plural(*n as u64, "exercise")
                );
            }
            h += "</ul>";
        }
        if self.students.is_empty() {
            return h;
        }
        // Of those who answered: "most of the class" stood over one
        // student's "1 of 1" in a class of three.
        h += "<h2>Most of those who answered got these wrong at first</h2>";
        let least = self.fewest_to_rank();
        let of_those = if least > 1 {
            format!(
                " (of the exercises at least {least} students answered, a quarter of the class)"
            )
        } else {
            String::new()
        };
        let hard = self.most_wrong_first();
        if hard.is_empty() {
            h += &format!(
                "<p data-testid=\"hardest\">None: no exercise was answered wrong at first by more \
                  than half of those who tried it{of_those}.</p>"
            );
        } else {
            if least > 1 {
                h += &format!("<p>More than half wrong at first{of_those}:</p>");
            }
            h += "<ol class=\"results__hard\" data-testid=\"hardest\">";
            for x in hard.iter().take(10) {
                h += &format!(
                    "<li>{}: {} of {} got it wrong at first{}</li>",
                    self.exercise_link(course, x.column),
                    x.wrong_first,
                    x.known,
                    if x.known < self.students.len() {
                        format!(" ({} of the {} answered it)", x.known, self.students.len())
                    } else {
                        String::new()
                    }
                );
            }
            h += "</ol>";
        }
        h + &self.slips_html(course)
    }

    /// The link to the exercise in `column`, in a new tab (the table, read
    /// from files, stays here): `<a …>4.2 threads-busy</a>`.
    fn exercise_link(&self, course: &Course, column: usize) -> String {
        let c = &self.columns[column];
        let href = lesson_href(&course.lessons[c.lesson].slug, Some(&c.id));
        format!(
            "<a href=\"{}\" target=\"_blank\" rel=\"noopener\">{} {}</a>",
            attr(&href),
            c.label,
            text(&c.id)
        )
    }

    /// The slips more than one student made ([`Self::common_slips`]), with
    /// what the checker told them or the option they chose, as HTML;
    /// nothing where no record holds a slip (files from before slips were
    /// recorded, or none made).
    fn slips_html(&self, course: &Course) -> String {
        if !self.any_slips() {
            return String::new();
        }
        let mut h = "<h2>Mistakes more than one student made</h2>".to_string();
        let common = self.common_slips();
        if common.is_empty() {
            return h + "<p data-testid=\"slips\">None: no two students gave the same known wrong \
                   answer on one exercise.</p>";
        }
        let top = if common.len() > SLIPS_LISTED {
            format!("; the {SLIPS_LISTED} most made")
        } else {
            String::new()
        };
        h += &format!(
            "<p>Wrong numbers the checker recognised as a known mistake, with what it told the \
             students, and wrong options picked as a first answer (each student counts once per \
             exercise, however often they gave that answer{top}):</p><ol class=\"results__hard\" data-testid=\"slips\">"
        );
        for x in common.iter().take(SLIPS_LISTED) {
            h += &format!(
                "<li>{}: {} students ({}) {} “{}”</li>",
                self.exercise_link(course, x.column),
                x.who.len(),
                text(&self.names(&x.who)),
                said_of(x.slip, true),
                text(&x.note)
            );
        }
        h + "</ol>"
    }

    /// The names of the students in `rows`, the first [`NAMES_LISTED`]
    /// and how many others: "Ana, Ben and Fay". A name two rows share says
    /// which file each is ("Ana (ana-home.json), Ana (ana-lab.json)"):
    /// "4 students (Ana, Ana, Lou and Uma)" read as one student counted
    /// twice, and the rows "Files with one name" lists look alike.
    fn names(&self, rows: &[usize]) -> String {
        // A name two rows of the table share, whether or not both are
        // listed here ("Ana and Lou" beside two rows called Ana).
        let shared = |r: usize| {
            self.students
                .iter()
                .filter(|o| o.name == self.students[r].name)
                .count()
                > 1
        };
        let mut names: Vec<String> = rows
            .iter()
            .take(NAMES_LISTED)
            .map(|&r| {
                let row = &self.students[r];
                if shared(r) {
                    format!("{} ({})", row.name, row.file)
                } else {
                    row.name.clone()
                }
            })
            .collect();
        if rows.len() > NAMES_LISTED {
            names.push(plural((rows.len() - NAMES_LISTED) as u64, "other"));
        }
        and_list(&names)
    }

    /// The lessons the table shows: those with exercises that at least one
    /// student worked on (a class working on one lesson sees its columns,
    /// not 122); the CSV keeps every exercise.
    pub fn lessons_shown(&self) -> Vec<usize> {
        (0..self.lessons.len())
            .filter(|&li| {
                self.lessons[li].exercises > 0
                    && self.columns.iter().enumerate().any(|(ci, c)| {
                        c.lesson == li && self.students.iter().any(|s| s.cells[ci].is_some())
                    })
            })
            .collect()
    }

    /// The table in one piece, as the page draws it in parts
    /// ([`ResultsTable`]): a row per student, a column per exercise (✓
    /// solved or ✗ not yet, with the answers checked), a sum per lesson and
    /// in all, and the class's totals below; as HTML.
    pub fn table_html(&self) -> String {
        let shown = self.lessons_shown();
        format!(
            "<table class=\"results__table\" data-testid=\"results-table\"><thead>{}</thead><tbody>{}</tbody><tfoot>{}</tfoot></table>",
            self.table_head_html(&shown),
            self.table_rows_html(&shown, 0..self.students.len()),
            self.table_foot_html(&shown)
        )
    }

    /// The columns of lesson `lesson` (its index): index and column.
    fn columns_in(&self, lesson: usize) -> impl Iterator<Item = (usize, &Column)> {
        self.columns
            .iter()
            .enumerate()
            .filter(move |(_, c)| c.lesson == lesson)
    }

    /// The table's two heading rows (what `<thead>` holds), with the
    /// lessons `shown`.
    fn table_head_html(&self, shown: &[usize]) -> String {
        let mut h = String::from("<tr><th scope=\"col\" rowspan=\"2\">Student</th>");
        for &li in shown {
            let l = &self.lessons[li];
            h += &format!(
                "<th scope=\"colgroup\" colspan=\"{}\" title=\"{}\">Lesson {}</th>",
                l.exercises + 1,
                attr(&l.title),
                l.number
            );
        }
        h += &format!(
            "<th scope=\"col\" rowspan=\"2\">Solved (of {})</th></tr><tr>",
            self.columns.len()
        );
        for &li in shown {
            for (_, c) in self.columns_in(li) {
                h += &format!(
                    "<th scope=\"col\" title=\"{}\">{}</th>",
                    attr(&c.id),
                    c.label
                );
            }
            h += &format!(
                "<th scope=\"col\" class=\"results__sum\" title=\"Exercises solved in lesson {}; in the Solved by row, students who solved them all\">Σ</th>",
                self.lessons[li].number
            );
        }
        h + "</tr>"
    }

    /// The rows of the students `rows` (what a `<tbody>` holds), with the
    /// lessons `shown`.
    fn table_rows_html(&self, shown: &[usize], rows: Range<usize>) -> String {
        let mut h = String::new();
        for s in &self.students[rows] {
            h += &format!(
                "<tr data-testid=\"results-row\"><th scope=\"row\" title=\"{}\">{}</th>",
                attr(&s.file),
                text(&s.name)
            );
            for &li in shown {
                for (ci, c) in self.columns_in(li) {
                    let (class, mark, words) = match &s.cells[ci] {
                        None => ("", String::new(), "not tried".to_string()),
                        Some(e) => (
                            if e.solved {
                                " results__cell--solved"
                            } else {
                                " results__cell--open"
                            },
                            cell_mark(e),
                            cell_words(e, c),
                        ),
                    };
                    h += &format!(
                        "<td class=\"results__cell{class}\" title=\"{}: {}\">{mark}</td>",
                        attr(&c.id),
                        attr(&words)
                    );
                }
                h += &format!(
                    "<td class=\"results__sum\">{}</td>",
                    s.solved_per_lesson[li]
                );
            }
            h += &format!("<td class=\"results__sum\">{}</td></tr>", s.solved);
        }
        h
    }

    /// The head of the table of each lesson's total, with the lessons
    /// `shown`: a column a lesson, "Lesson 4 (of 7)".
    fn totals_head_html(&self, shown: &[usize]) -> String {
        let mut h = String::from("<tr><th scope=\"col\">Student</th>");
        for &li in shown {
            let l = &self.lessons[li];
            h += &format!(
                "<th scope=\"col\" title=\"{}\">Lesson {} (of {})</th>",
                attr(&l.title),
                l.number,
                l.exercises
            );
        }
        h + &format!(
            "<th scope=\"col\">Solved (of {})</th></tr>",
            self.columns.len()
        )
    }

    /// The rows of the students `rows` in the table of each lesson's
    /// total, with the lessons `shown`.
    fn totals_rows_html(&self, shown: &[usize], rows: Range<usize>) -> String {
        let mut h = String::new();
        for s in &self.students[rows] {
            h += &format!(
                "<tr data-testid=\"results-row\"><th scope=\"row\" title=\"{}\">{}</th>",
                attr(&s.file),
                text(&s.name)
            );
            for &li in shown {
                h += &format!(
                    "<td class=\"results__sum\">{}</td>",
                    s.solved_per_lesson[li]
                );
            }
            h += &format!("<td class=\"results__sum\">{}</td></tr>", s.solved);
        }
        h
    }

    /// The foot of the table of each lesson's total: students who solved
    /// every exercise of each lesson `shown`, and of the course.
    fn totals_foot_html(&self, shown: &[usize]) -> String {
        let mut h = String::from("<tr><th scope=\"row\">Solved by</th>");
        for &li in shown {
            h += &format!("<td class=\"results__sum\">{}</td>", self.lesson_solved(li));
        }
        h + &format!("<td class=\"results__sum\">{}</td></tr>", self.all_solved())
    }

    /// The class's totals per exercise and lesson (what `<tfoot>` holds),
    /// with the lessons `shown`.
    fn table_foot_html(&self, shown: &[usize]) -> String {
        let mut h = String::new();
        for (label, wrong) in [("Solved by", false), ("Wrong at first", true)] {
            h += &format!("<tr><th scope=\"row\">{label}</th>");
            for &li in shown {
                for (ci, _) in self.columns_in(li) {
                    let n = if wrong {
                        self.wrong_first_by(ci)
                    } else {
                        self.solved_by(ci)
                    };
                    h += &format!("<td>{n}</td>");
                }
                let sum = if wrong {
                    String::new()
                } else {
                    self.lesson_solved(li).to_string()
                };
                h += &format!("<td class=\"results__sum\">{sum}</td>");
            }
            let all = if wrong {
                String::new()
            } else {
                self.all_solved().to_string()
            };
            h += &format!("<td class=\"results__sum\">{all}</td></tr>");
        }
        h
    }
}

/// What the results page shows below its inputs: how many files were
/// read, those left out and why, the exercises most got wrong at first,
/// and the table.
#[derive(Clone, Debug, PartialEq)]
pub struct ResultsPage {
    /// How many files were read, those left out and why, and the
    /// exercises most got wrong at first, as HTML.
    pub notes: String,
    /// The table, when a student is in it.
    pub table: Option<ResultsTable>,
}

impl ResultsPage {
    /// The page before a class code is typed, with `files` waiting.
    pub fn waiting(files: usize) -> Self {
        ResultsPage {
            notes: status(if files == 0 {
                "Type the class code, then drop the files.".into()
            } else {
                format!(
                    "{} read. Type the class code to check them against.",
                    count(files, "file")
                )
            }),
            table: None,
        }
    }

    /// The page for class `class` from the files `checked` for it (each by
    /// [`check_file`], in the order they came).
    pub fn new(course: &Course, class: &str, checked: Vec<Checked>) -> Self {
        Self::with_names(course, class, checked, Names::Shown)
    }

    /// [`ResultsPage::new`], with the students' names shown or hidden.
    pub fn with_names(course: &Course, class: &str, checked: Vec<Checked>, names: Names) -> Self {
        // A code and no files (none yet, or all cleared): what to do next,
        // not "0 files read: 0 students in the table, 0 files left out".
        if checked.is_empty() {
            return ResultsPage {
                notes: status(
                    "No files read yet: drop your students' progress files below.".into(),
                ),
                table: None,
            };
        }
        let read = count(checked.len(), "file");
        let mut r = ClassResults::from_checked(course, checked);
        let mut notes = status(format!(
            "{read} read: {} in the table, {} left out.",
            count(r.students.len(), "student"),
            count(r.rejected.len(), "file")
        ));
        if names == Names::Hidden {
            r = r.without_names();
            notes += NAMES_HIDDEN_HTML;
        }
        notes += &r.notes_html(course);
        let table = (!r.students.is_empty()).then(|| {
            let mut table = ResultsTable {
                view: TableView::Exercises,
                csv_file: format!("tellers-results-{}.csv", class.trim()),
                results: r,
            };
            if !table.every_exercise_fits() {
                table.view = TableView::Totals;
            }
            table
        });
        ResultsPage { notes, table }
    }
}

/// The files the results page has checked and the class code they were
/// checked for: what the page is drawn from, with names shown or hidden
/// (hiding them checks nothing again).
#[derive(Clone, Debug)]
pub enum Checks {
    /// No class code typed yet: this many files wait for one.
    NoCode(usize),
    /// The files checked for class `class` (each by [`check_file`], in
    /// the order they came).
    For {
        /// The class code, as typed.
        class: String,
        /// The files, checked.
        checked: Vec<Checked>,
    },
}

impl Checks {
    /// `files` checked for class `class` (as typed), all at once; the page
    /// checks a few per task ([`check_parts`]).
    pub fn all_at_once(class: &str, files: &[Dropped]) -> Checks {
        if class.trim().is_empty() {
            return Checks::NoCode(files.len());
        }
        Checks::For {
            class: class.to_owned(),
            checked: files.iter().map(|f| check_file(f, class)).collect(),
        }
    }

    /// The page these checks make, names shown or hidden.
    pub fn page(&self, course: &Course, names: Names) -> ResultsPage {
        match self {
            Checks::NoCode(files) => ResultsPage::waiting(*files),
            Checks::For { class, checked } => {
                ResultsPage::with_names(course, class, checked.clone(), names)
            }
        }
    }
}

/// The results page for class `class` (as typed), its files all checked
/// at once; the page checks a few per task ([`check_parts`]).
pub fn results_page(course: &Course, class: &str, files: &[Dropped]) -> ResultsPage {
    Checks::all_at_once(class, files).page(course, Names::Shown)
}

/// `n` and `what`, plural when `n` is not 1: "2 files".
fn count(n: usize, what: &str) -> String {
    format!("{n} {what}{}", if n == 1 { "" } else { "s" })
}

/// The line that says what was read.
fn status(text: String) -> String {
    format!("<p class=\"results__count\" role=\"status\">{text}</p>")
}

/// The class's table, in the parts the page draws: its legend, its head
/// and foot, and its rows a few per frame ([`ResultsTable::row_parts`]).
#[derive(Clone, Debug, PartialEq)]
pub struct ResultsTable {
    /// The class's results.
    pub results: ClassResults,
    /// Which columns it shows.
    pub view: TableView,
    /// The name the CSV is saved as.
    pub csv_file: String,
}

/// Whether the results page shows the students' names, or hides them for
/// a projector ([`ClassResults::without_names`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Names {
    /// Each row and each list of mistakes names its student.
    #[default]
    Shown,
    /// Students are numbered in an order that does not follow their names; no name or file name
    /// is on the page.
    Hidden,
}

/// What the page says while names are hidden.
const NAMES_HIDDEN_HTML: &str =
    "<p class=\"notice\" data-testid=\"names-hidden\">Names are hidden, \
for a projector: students are numbered in an order that does not follow their names. The files left out, and the CSV, \
are there when the names are shown.</p>";

/// Which columns the results table shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TableView {
    /// Each exercise of every lesson someone worked on, with each
    /// lesson's Σ: for a class whose table has at most [`MAX_CELLS`] cells.
    Exercises,
    /// One column a lesson: the exercises each student solved in it.
    Totals,
    /// Each exercise of one lesson (its index in the course).
    Lesson(usize),
}

impl TableView {
    /// The view as a `<select>`'s value: `every`, `totals`, `lesson-3`.
    pub fn key(self) -> String {
        match self {
            TableView::Exercises => "every".into(),
            TableView::Totals => "totals".into(),
            TableView::Lesson(li) => format!("lesson-{li}"),
        }
    }

    /// The view a `<select>`'s value names ([`TableView::key`]).
    pub fn from_key(key: &str) -> Option<TableView> {
        match key {
            "every" => Some(TableView::Exercises),
            "totals" => Some(TableView::Totals),
            k => k
                .strip_prefix("lesson-")?
                .parse()
                .ok()
                .map(TableView::Lesson),
        }
    }
}

/// The most cells the table shows with every exercise of every lesson: the
/// browser lays out and paints the whole table in one frame as its last
/// rows come, and 40 students × 141 columns (5,640 cells) took 50-85 ms on
/// a 2-core machine, over the 50 ms a page may hold the main thread. A
/// bigger class starts on each lesson's total, with each lesson's
/// exercises a pick away (and every exercise in the CSV).
pub const MAX_CELLS: usize = 2_000;

impl ResultsTable {
    /// The legend above the table (under its heading and the pick of its
    /// columns), as HTML.
    pub fn legend_html(&self) -> String {
        if self.view == TableView::Totals {
            return format!(
                "<p class=\"results__legend\">A column a lesson: the exercises \
                 each student solved in it, of the lesson's exercises; in the Solved by row, students \
                 who solved every exercise of the lesson (in the last column, of the course). Pick a \
                 lesson above to see each of its exercises; the CSV has every exercise.{}</p>",
                self.hidden_lessons_note()
            );
        }
        format!(
            "<p class=\"results__legend\">✓ solved, ✗ not yet; the number is how many \
             answers they checked, up to the first right one (records from an older Tellers may count them all); h2: two hints opened, S: the worked \
             solution opened before solving. Columns are lesson.exercise (4.2: lesson 4, its second \
             exercise), numbered as in the answer key; the CSV's column names add each exercise's id. Σ: exercises solved in the lesson; in the Solved by row, students who solved \
             every exercise of the lesson (in the last column, of the course).{}</p>",
            self.hidden_lessons_note()
        )
    }

    /// What the legend says of the lessons the table leaves out, if any.
    fn hidden_lessons_note(&self) -> String {
        let with_exercises = self
            .results
            .lessons
            .iter()
            .filter(|l| l.exercises > 0)
            .count();
        if let TableView::Lesson(li) = self.view {
            return format!(
                " Lesson {} alone is shown here; the CSV has every exercise.",
                self.results.lessons[li].number
            );
        }
        match with_exercises - self.shown().len() {
            0 => String::new(),
            1 => {
                " One lesson nobody worked on is left out here; the CSV has every exercise.".into()
            }
            n => {
                format!(
                    " {n} lessons nobody worked on are left out here; the CSV has every exercise."
                )
            }
        }
    }

    /// The CSV ([`ClassResults::csv`]) as a link's address: made when the
    /// teacher downloads it, as it is a large string.
    pub fn csv_href(&self) -> String {
        format!(
            "data:text/csv;charset=utf-8,{}",
            query_escape(&format!("{CSV_BOM}{}", self.results.csv()))
        )
    }

    /// The views the teacher may pick, with their labels: every exercise
    /// (when it fits in [`MAX_CELLS`]), each lesson's total, then each
    /// lesson someone worked on, exercise by exercise.
    pub fn views(&self) -> Vec<(TableView, String)> {
        let mut views = Vec::new();
        if self.every_exercise_fits() {
            views.push((TableView::Exercises, "Every exercise".to_string()));
        }
        views.push((TableView::Totals, "Each lesson's total".to_string()));
        for li in self.results.lessons_shown() {
            let l = &self.results.lessons[li];
            views.push((
                TableView::Lesson(li),
                format!("Lesson {}: each exercise", l.number),
            ));
        }
        views
    }

    /// This table with the columns of `view`.
    pub fn with_view(&self, view: TableView) -> ResultsTable {
        ResultsTable {
            view,
            ..self.clone()
        }
    }

    /// The lessons it shows: those someone worked on
    /// ([`ClassResults::lessons_shown`]), or the one picked.
    fn shown(&self) -> Vec<usize> {
        match self.view {
            TableView::Lesson(li) => vec![li],
            TableView::Exercises | TableView::Totals => self.results.lessons_shown(),
        }
    }

    /// The columns of the lessons `shown`: the names, each lesson's
    /// exercises and its Σ, and the total.
    fn exercise_columns(&self, shown: &[usize]) -> usize {
        shown
            .iter()
            .map(|&li| self.results.lessons[li].exercises + 1)
            .sum::<usize>()
            + 2
    }

    /// Whether every exercise of every lesson someone worked on fits in
    /// [`MAX_CELLS`] for this class.
    fn every_exercise_fits(&self) -> bool {
        self.exercise_columns(&self.results.lessons_shown()) * self.results.students.len()
            <= MAX_CELLS
    }

    /// The table's columns: the names, each shown lesson's exercises and
    /// its Σ (or its total alone), and the total.
    pub fn columns(&self) -> usize {
        let shown = self.shown();
        if self.view == TableView::Totals {
            return shown.len() + 2;
        }
        self.exercise_columns(&shown)
    }

    /// What a printout says above a table wider than paper (the printout
    /// stops at the sheet's right edge), or `None` when it fits.
    pub fn print_note(&self) -> Option<String> {
        (self.columns() > PRINT_COLUMNS).then(|| {
            format!(
                "This table has {} columns, more than a sheet of paper holds (about {PRINT_COLUMNS} \
                 across a landscape A4): the printout stops at its right edge. To print every \
                 column, {}.",
                self.columns(),
                match self.results.names {
                    Names::Shown => "open the CSV in a spreadsheet",
                    Names::Hidden => "show the names and open the CSV in a spreadsheet",
                }
            )
        })
    }

    /// What `<thead>` holds.
    pub fn head_html(&self) -> String {
        if self.view == TableView::Totals {
            return self.results.totals_head_html(&self.shown());
        }
        self.results.table_head_html(&self.shown())
    }

    /// What a `<tbody>` of the students `rows` holds.
    pub fn rows_html(&self, rows: Range<usize>) -> String {
        if self.view == TableView::Totals {
            return self.results.totals_rows_html(&self.shown(), rows);
        }
        self.results.table_rows_html(&self.shown(), rows)
    }

    /// What `<tfoot>` holds.
    pub fn foot_html(&self) -> String {
        if self.view == TableView::Totals {
            return self.results.totals_foot_html(&self.shown());
        }
        self.results.table_foot_html(&self.shown())
    }

    /// The rows, in the parts the page draws one per frame: as many rows
    /// as fit in [`CELLS_PER_FRAME`], at least one.
    pub fn row_parts(&self) -> Vec<Range<usize>> {
        let cells = u32::try_from(self.columns()).unwrap_or(u32::MAX);
        ranges(&steps_by_cost(
            &vec![cells; self.results.students.len()],
            CELLS_PER_FRAME,
            CELLS_PER_FRAME,
        ))
    }
}

/// Columns of the results table a landscape A4 sheet holds, printed (the
/// names, then cells such as "✓ 2 h1", at the table's type size; measured
/// in Chromium's print to PDF, the browser test checks it).
pub const PRINT_COLUMNS: usize = 24;

/// The mark that opens the downloaded CSV: without it, a spreadsheet such
/// as Excel reads the file in the computer's old code page, and "Élodie"
/// shows as "Ã‰lodie".
pub const CSV_BOM: char = '\u{feff}';

/// The CSV's columns for each exercise, after its label and id.
const CSV_PER_EXERCISE: [&str; 4] = [
    "solved",
    "answers checked",
    "hints opened",
    "solution seen first",
];

/// A cell of the table: ✓ solved or ✗ not yet, the answers checked, then
/// `h2` for two hints opened and `S` for the worked solution opened before
/// solving: `✓ 1 h2 S`.
pub fn cell_mark(e: &ExerciseProgress) -> String {
    let mut mark = format!("{} {}", if e.solved { "✓" } else { "✗" }, e.attempts);
    if e.hints > 0 {
        mark += &format!(" h{}", e.hints);
    }
    if e.solution == Some(true) {
        mark += " S";
    }
    mark
}

/// A cell in words, for its tooltip: "solved in 1 answer, 2 hints, the
/// worked solution opened first", and what the checker told the student of
/// the slips it named in `column`'s exercise, or the wrong option they
/// picked first: "; told “That covers the CPU time alone, …”", "; first
/// chose “Response time = …”".
pub fn cell_words(e: &ExerciseProgress, column: &Column) -> String {
    let plural = |n: u32, what: &str| format!("{n} {what}{}", if n == 1 { "" } else { "s" });
    // Files from before solutions were recorded may count every answer
    // checked, after the first right one too: "in" would claim too much.
    let mut words = if e.solved && e.solution.is_none() {
        format!("solved, {} checked", plural(e.attempts, "answer"))
    } else if e.solved {
        format!("solved in {}", plural(e.attempts, "answer"))
    } else {
        format!("not yet solved, {} checked", plural(e.attempts, "answer"))
    };
    if e.hints > 0 {
        words += &format!(", {}", plural(e.hints, "hint"));
    }
    match e.solution {
        Some(true) => words += ", the worked solution opened first",
        Some(false) => {}
        None => {
            words += " (recorded by an older Tellers: solutions not recorded, and answers after the first right one may be counted)"
        }
    }
    let slips: Vec<String> = column.said_to_one(e.slips).collect();
    if !slips.is_empty() {
        words += &format!("; {}", and_list(&slips));
    }
    words
}

/// One CSV field: quoted when it holds a comma, quote or line break, and
/// with a leading `'` when a spreadsheet would read it as a formula (a
/// student's name is theirs to choose).
pub fn csv_field(text: &str) -> String {
    let text = if text.starts_with(['=', '+', '-', '@', '\t', '\r']) {
        format!("'{text}")
    } else {
        text.to_string()
    };
    if text.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::course_data::compiled_course;
    use crate::progress::Student;

    const CLASS: &str = "K7Q2-MX4P";

    fn student(name: &str, class: &str, answers: &[(&str, &[bool])]) -> Progress {
        let mut p = Progress {
            student: Student {
                class: class.into(),
                name: name.into(),
            },
            ..Progress::default()
        };
        for (id, tries) in answers {
            for &ok in *tries {
                p.record_attempt(id, ok, None);
            }
        }
        p
    }

    fn file(name: &str, p: &Progress) -> (String, Result<String, Rejection>) {
        (name.to_string(), Ok(p.export()))
    }

    fn reason(r: &ClassResults, file: &str) -> String {
        r.rejected
            .iter()
            .find(|(f, _)| f == file)
            .map(|(_, why)| why.clone())
            .unwrap_or_else(|| panic!("{file} was not rejected: {:?}", r.rejected))
    }

    /// The slips the checker named that more than one student made are
    /// listed, the most made first, each with what the students were told;
    /// a slip one student made, one the course does not name, and a slip
    /// typed twice by one student count as they should.
    #[test]
    fn mistakes_more_than_one_student_made_are_listed_with_what_they_were_told() {
        let slipped = |name: &str, id: &str, slips: &[Slip]| {
            let mut p = student(name, CLASS, &[]);
            for &slip in slips {
                p.record_attempt(id, false, Some(slip));
            }
            p
        };
        let m0 = Slip::Mistake(0);
        let m1 = Slip::Mistake(1);
        let mut ana = slipped("Ana", "threads-busy", &[m0, m0, m1]);
        ana.record_attempt("threads-busy", true, None);
        let files = [
            file("ana.json", &ana),
            file("bo.json", &slipped("Bo", "threads-busy", &[m0])),
            file(
                "cy.json",
                &slipped("Cy", "threads-busy", &[m0, Slip::Mistake(4)]),
            ),
            file(
                "di.json",
                &slipped("Di", "threads-busy", &[Slip::Mistake(4)]),
            ),
            file("ed.json", &slipped("Ed", "pause-share", &[m1])),
        ];
        let course = compiled_course();
        let r = ClassResults::new(course, CLASS, &files);
        assert_eq!(r.students.len(), 5, "{:?}", r.rejected);
        let tb = r
            .columns
            .iter()
            .position(|c| c.id == "threads-busy")
            .unwrap();
        let e = course
            .exercises()
            .find(|(_, e)| e.id == "threads-busy")
            .unwrap()
            .1;
        let common: Vec<(usize, Slip, usize)> = r
            .common_slips()
            .iter()
            .map(|x| (x.column, x.slip, x.who.len()))
            .collect();
        // m0 by three (Ana's twice counted once); m1 by Ana alone; m4
        // is no mistake of this exercise; Ed's slip is on another exercise.
        assert_eq!(common, [(tb, m0, 3)]);
        let notes = r.notes_html(course);
        let told = html_escape::encode_text(e.slip_note_of(m0).unwrap()).to_string();
        assert!(
            notes.contains("Mistakes more than one student made")
                && notes.contains(&format!(
                    "threads-busy</a>: 3 students (Ana, Bo and Cy) were told “{told}”"
                )),
            "{notes}"
        );
        // A student's cell says what they were told, in the exercise's order.
        let said = |m: Slip| e.slip_note_of(m).unwrap();
        assert!(
            r.table_html().contains(&format!(
                "; told “{}” and told “{}”\"",
                attr(said(m0)),
                attr(said(m1))
            )),
            "Ana's cell"
        );
        // And her row of the CSV, in its last field.
        let csv = r.csv();
        let row = csv.lines().find(|l| l.starts_with("Ana,")).unwrap();
        assert!(
            row.ends_with(&format!(
                ",\"4.2 threads-busy: told “{}”; 4.2 threads-busy: told “{}”\"",
                said(m0),
                said(m1)
            )),
            "{row}"
        );
        // A wrong option two students picked: what they chose (the third,
        // who picked the right one, records none).
        let q = course
            .exercises()
            .find(|(_, e)| e.id == "work-or-wait-step")
            .unwrap()
            .1;
        let right = q.correct.unwrap();
        let chose = |name: &str, option: usize| {
            let mut p = student(name, CLASS, &[]);
            let slip = (option != right).then_some(Slip::Option(option));
            p.record_attempt("work-or-wait-step", option == right, slip);
            file(&format!("{name}.json"), &p)
        };
        let other = (right + 1) % q.options.len();
        let picked = [chose("Ana", other), chose("Bo", other), chose("Cy", right)];
        let r = ClassResults::new(course, CLASS, &picked);
        let listed: Vec<(Slip, usize)> = r
            .common_slips()
            .iter()
            .map(|x| (x.slip, x.who.len()))
            .collect();
        assert_eq!(listed, [(Slip::Option(other), 2)]);
        let chosen = attr(&q.options[other]).to_string();
        assert!(
            r.notes_html(course).contains(&format!(
                "work-or-wait-step</a>: 2 students (Ana and Bo) first chose “{}”",
                text(&q.options[other])
            )) && r
                .table_html()
                .contains(&format!("; first chose “{chosen}”")),
            "{}",
            r.notes_html(course)
        );
        // Files without slips (an older Tellers, or none made) say nothing
        // of them; with slips but none shared, "None".
        let none = ClassResults::new(course, CLASS, &files[3..]);
        assert!(none.notes_html(course).contains("None: no two students"));
        let plain = ClassResults::new(
            course,
            CLASS,
            &[file(
                "fa.json",
                &student("Fa", CLASS, &[("threads-busy", &[false])]),
            )],
        );
        assert!(!plain.notes_html(course).contains("Mistakes more than one"));
    }

    /// One exercise's mistakes stand together, the exercise with the most
    /// made first; a long list of names ends with how many others.
    #[test]
    fn each_exercises_mistakes_stand_together_and_long_name_lists_are_cut() {
        let course = compiled_course();
        let says = course
            .exercises()
            .find(|(_, e)| e.id == "littles-law-says")
            .unwrap()
            .1;
        let wrong = (says.correct.unwrap() + 1) % says.options.len();
        let made = |name: &str, slips: &[(&str, Slip)]| {
            let mut p = student(name, CLASS, &[]);
            for &(id, slip) in slips {
                p.record_attempt(id, false, Some(slip));
            }
            file(&format!("{name}.json"), &p)
        };
        let (tb, ti, ls) = ("threads-busy", "time-inside-from-count", "littles-law-says");
        let (m0, m1, o) = (Slip::Mistake(0), Slip::Mistake(1), Slip::Option(wrong));
        let files = [
            made("A", &[(tb, m0), (tb, m1), (ls, o)]),
            made("B", &[(tb, m0), (ti, m1), (ls, o)]),
            made("C", &[(tb, m0), (ti, m1)]),
            made("D", &[(tb, m1)]),
        ];
        let r = ClassResults::new(course, CLASS, &files);
        let order: Vec<(&str, Slip, usize)> = r
            .common_slips()
            .iter()
            .map(|x| (r.columns[x.column].id.as_str(), x.slip, x.who.len()))
            .collect();
        // Lesson 4's first exercise comes first in the course, but
        // threads-busy has the slip most made: its two stand together.
        assert_eq!(order, [(tb, m0, 3), (tb, m1, 2), (ls, o, 2), (ti, m1, 2)]);
        let class: Vec<_> = (1..=10)
            .map(|i| made(&format!("S{i:02}"), &[(tb, m0)]))
            .collect();
        let notes = ClassResults::new(course, CLASS, &class).notes_html(course);
        assert!(
            notes.contains(
                ": 10 students (S01, S02, S03, S04, S05, S06, S07, S08 and 2 others) were told “"
            ),
            "{notes}"
        );
    }

    /// Work on exercises the course does not have is named, file by
    /// file: a file of only such work read as a student who did nothing.
    #[test]
    fn work_the_course_does_not_have_is_named() {
        let old = student(
            "Cy",
            CLASS,
            &[("renamed-long-ago", &[true]), ("gone-too", &[false])],
        );
        let ana = student("Ana", CLASS, &[("threads-busy", &[true])]);
        let r = ClassResults::new(
            compiled_course(),
            CLASS,
            &[file("cy.json", &old), file("ana.json", &ana)],
        );
        assert_eq!(r.unknown_work, vec![("cy.json".to_owned(), 2)]);
        let cy = r.students.iter().find(|s| s.name == "Cy").unwrap();
        assert_eq!(cy.solved, 0);
        let notes = r.notes_html(compiled_course());
        assert!(
            notes.contains(
                "<li><strong>cy.json</strong> records work on 2 exercises this course does not have"
            ),
            "{notes}"
        );
        let only_known = ClassResults::new(compiled_course(), CLASS, &[file("ana.json", &ana)]);
        assert!(only_known.unknown_work.is_empty());
        assert!(!only_known
            .notes_html(compiled_course())
            .contains("unknown-work"));
    }

    #[test]
    fn two_students_make_two_rows_with_totals() {
        let ana = student(
            "Ana",
            CLASS,
            &[
                ("threads-busy", &[false, true]),
                ("work-or-wait-step", &[true]),
            ],
        );
        let ben = student(
            "ben",
            CLASS,
            &[
                ("threads-busy", &[true]),
                ("time-inside-from-count", &[false]),
            ],
        );
        let r = ClassResults::new(
            compiled_course(),
            "k7q2-mx4p",
            &[file("b.json", &ben), file("a.json", &ana)],
        );
        assert_eq!(r.rejected, vec![]);
        assert_eq!(r.columns.len(), compiled_course().exercises().count());
        assert_eq!(
            r.lessons.iter().map(|l| l.exercises).sum::<usize>(),
            r.columns.len()
        );
        let names: Vec<&str> = r.students.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(names, ["Ana", "ben"], "by name, any case");
        let col = |id: &str| r.columns.iter().position(|c| c.id == id).unwrap();
        let tb = col("threads-busy");
        let littles = compiled_course().lesson("littles-law").unwrap();
        let nth = littles
            .exercises()
            .position(|e| e.id == "threads-busy")
            .unwrap();
        assert_eq!(
            r.columns[tb].label,
            format!("{}.{}", littles.number, nth + 1)
        );
        assert_eq!(r.solved_by(tb), 2);
        assert_eq!(r.wrong_first_by(tb), 1);
        assert_eq!(r.students[0].cells[tb].as_ref().unwrap().attempts, 2);
        assert_eq!(r.students[0].solved, 2);
        assert_eq!(r.students[1].solved, 1);
        let tic = col("time-inside-from-count");
        assert_eq!((r.tried_by(tic), r.solved_by(tic)), (1, 0));
        assert_eq!(r.students[0].cells[tic], None);
        let littles = r.columns[tb].lesson;
        assert_eq!(r.students[0].solved_per_lesson[littles], 1);
        // Solved by: students who solved every exercise of the lesson
        // (none here), not the three solves added up.
        assert_eq!(r.lesson_solved(littles), 0);
        assert_eq!(r.all_solved(), 0);
        // The table's Solved by row ends with that count, not a blank.
        assert!(r.table_html().contains(
            "<td class=\"results__sum\">0</td></tr><tr><th scope=\"row\">Wrong at first"
        ));
        // Most got it wrong first: time-inside (1 of 1); threads-busy is 1 of 2.
        let hard: Vec<usize> = r.most_wrong_first().iter().map(|h| h.column).collect();
        assert_eq!(hard, [tic]);
    }

    #[test]
    fn files_that_do_not_belong_are_listed_with_the_reason() {
        let ana = student("Ana", CLASS, &[("threads-busy", &[true])]);
        let edited = ana
            .export()
            .replace("\"solved\": true", "\"solved\": false");
        assert_ne!(edited, ana.export());
        let mut renamed: serde_json::Value = serde_json::from_str(&ana.export()).unwrap();
        renamed["student"]["name"] = "Zoe".into();
        let other = student("Cy", "R12", &[]);
        let nobody = student("Di", "", &[("threads-busy", &[true])]);
        let old = format!(
            "{{\"version\":1,\"student\":{{\"class\":\"{CLASS}\",\"name\":\"Ed\"}},\"exercises\":{{}}}}"
        );
        let files = vec![
            ("edited.json".to_string(), Ok(edited)),
            ("renamed.json".to_string(), Ok(renamed.to_string())),
            file("other.json", &other),
            file("nobody.json", &nobody),
            ("old.json".to_string(), Ok(old)),
            ("photo.png".to_string(), Ok("\u{89}PNG\r\n".to_string())),
            ("list.json".to_string(), Ok("[1, 2]".to_string())),
            (
                "v9.json".to_string(),
                Ok(ana.export().replace(
                    &format!("\"version\": {}", crate::progress::VERSION),
                    "\"version\": 9",
                )),
            ),
            (
                "big.json".to_string(),
                Err(Rejection::TooLarge { bytes: 5_000_000 }),
            ),
            (
                "cut.json".to_string(),
                Ok(ana.export()[..ana.export().len() / 2].to_string()),
            ),
            file("nohyphen.json", &student("Ana", "k7q2mx4p", &[])),
            (
                "tellers-class-K7Q2-MX4P.txt".to_string(),
                Ok(crate::classroom::class_file(
                    CLASS,
                    "ABCD-EFGH-JKMN-PQRS-TVWX",
                )),
            ),
        ];
        let r = ClassResults::new(compiled_course(), CLASS, &files);
        assert_eq!(r.students, vec![], "nothing merged");
        assert_eq!(r.rejected.len(), files.len());
        assert!(reason(&r, "edited.json").contains("changed after it was saved"));
        assert!(reason(&r, "renamed.json").contains("changed after it was saved"));
        assert_eq!(reason(&r, "other.json"), "from another class (R12)");
        assert!(reason(&r, "nobody.json").contains("without a class code"));
        assert!(reason(&r, "old.json").contains("no check value"));
        assert_eq!(
            reason(&r, "photo.png"),
            "not a Tellers progress file (it is not JSON)"
        );
        assert_eq!(
            reason(&r, "list.json"),
            "not a Tellers progress file (it is JSON, but not laid out as a progress file)"
        );
        // A list that never closes is no JSON, whatever its first token.
        let deep = "[".repeat(900_000);
        assert_eq!(
            read_file(&deep, CLASS).unwrap_err().to_string(),
            Rejection::Unreadable("it is not JSON".into()).to_string()
        );
        assert!(reason(&r, "cut.json").starts_with("cut off before its end"));
        // The teacher's own file: said to be that (it was "not JSON").
        assert!(
            reason(&r, "tellers-class-K7Q2-MX4P.txt").starts_with(
                "the class's code and teacher key, as the teacher's page saves them: not a student's"
            ),
            "{}",
            reason(&r, "tellers-class-K7Q2-MX4P.txt")
        );
        assert!(
            reason(&r, "nohyphen.json").starts_with(
                "saved for class k7q2mx4p, not K7Q2-MX4P: one looks like the other mistyped"
            ),
            "{}",
            reason(&r, "nohyphen.json")
        );
        // A newer format: this page is the older one (a cached copy).
        assert_eq!(
            reason(&r, "v9.json"),
            "saved by a newer Tellers (format 9); reload this page to read it"
        );
        // A symbol left out of the code is said to look mistyped too (it
        // said only "from another class (H9FC-F26)").
        let short = student("Bo", "K7Q2-MX4", &[]);
        let e = read_file(&short.export(), CLASS).unwrap_err().to_string();
        assert!(
            e.starts_with(
                "saved for class K7Q2-MX4, not K7Q2-MX4P: one looks like the other mistyped"
            ),
            "{e}"
        );
        // So is a Tellers code with one symbol changed, which no Tellers
        // code is (its check symbol fails); a hand-made code one symbol
        // from another is another section, and is not.
        let made =
            crate::classroom::class_code(&crate::classroom::new_teacher_key(&[7; 13])).unwrap();
        assert!(
            matches!(read_class_code(&made), ClassCode::Keyed(_)),
            "{made}"
        );
        let typo: String = made
            .chars()
            .enumerate()
            .map(|(i, c)| match (i, c) {
                (2, 'A') => 'B',
                (2, _) => 'A',
                _ => c,
            })
            .collect();
        assert!(
            matches!(read_class_code(&typo), ClassCode::Mistyped(_)),
            "{typo}"
        );
        let changed = student("Fay", &typo, &[]);
        let e = read_file(&changed.export(), &made).unwrap_err().to_string();
        assert!(
            e.starts_with(&format!(
                "saved for class {typo}, not {made}: one looks like the other mistyped"
            )),
            "{e}"
        );
        let section = student("Gil", "CS101-B", &[]);
        assert_eq!(
            read_file(&section.export(), "CS101-A")
                .unwrap_err()
                .to_string(),
            "from another class (CS101-B)"
        );
        assert!(codes_look_alike("K7Q2MX4P", "K7Q2X4P") && codes_look_alike("ABCDEFG", "ABCDEFGH"));
        assert!(!codes_look_alike("K7Q2MX4P", "K7Q2MX4Q") && !codes_look_alike("R12", "R1"));
        assert!(!codes_look_alike("K7Q2MX4P", "K7Q2MX"));
        assert_eq!(
            reason(&r, "big.json"),
            "too large for a progress file (5,000 KB; they are a few KB, and at most 1,000 KB is read)"
        );
        // An empty file is said to be empty (it was "not JSON").
        assert_eq!(
            read_file(" \n", CLASS).unwrap_err().to_string(),
            "not a Tellers progress file (the file is empty)"
        );
    }

    #[test]
    fn a_second_file_for_one_student_keeps_the_later_save_and_two_different_records_both() {
        let early = student("Ana", CLASS, &[("threads-busy", &[false])]);
        let late = student("ana ", CLASS, &[("threads-busy", &[false, true])]);
        for files in [
            vec![file("early.json", &early), file("late.json", &late)],
            vec![file("late.json", &late), file("early.json", &early)],
        ] {
            let r = ClassResults::new(compiled_course(), CLASS, &files);
            assert_eq!(r.students.len(), 1);
            assert_eq!(r.students[0].file, "late.json");
            assert_eq!(
                reason(&r, "early.json"),
                "a second file for Ana; kept late.json, which records all of this one's work and more (a later save)"
                    .replace("Ana", &r.students[0].name)
            );
        }
        // Two downloads of one name: the kept one is "the other file".
        let same_name = "tellers-progress-ana.json";
        let r = ClassResults::new(
            compiled_course(),
            CLASS,
            &[file(same_name, &early), file(same_name, &late)],
        );
        assert_eq!(r.students.len(), 1);
        assert!(
            r.rejected.iter().any(|(f, why)| f == same_name
                && why.contains("kept the other file of this name, which records all")),
            "{:?}",
            r.rejected
        );
        // The same answers, but the later save's wrong answer was named
        // as a slip (the other tab's save came first): that one is kept.
        // `more` holds all of `late`'s work and more: it is kept, in either order.
        let kept_over_late = |name: &str, more: &Progress| {
            for files in [
                vec![file("late.json", &late), file(name, more)],
                vec![file(name, more), file("late.json", &late)],
            ] {
                let r = ClassResults::new(compiled_course(), CLASS, &files);
                assert_eq!(r.students[0].file, name);
                assert!(
                    reason(&r, "late.json").contains(&format!("kept {name}, which records all"))
                );
            }
        };
        let mut slipped = student("Ana", CLASS, &[]);
        slipped.record_attempt("threads-busy", false, Some(Slip::Mistake(1)));
        slipped.record_attempt("threads-busy", true, None);
        kept_over_late("slipped.json", &slipped);
        // The same answers, but the later save opened a hint on the next
        // exercise.
        let mut hinted = late.clone();
        hinted.record_hints("time-inside-from-count", 2);
        kept_over_late("hinted.json", &hinted);
        // Two copies of one save: the first is kept, and the note says they are the same.
        let r = ClassResults::new(
            compiled_course(),
            CLASS,
            &[file("a.json", &late), file("b.json", &late)],
        );
        assert_eq!(r.students[0].file, "a.json");
        assert!(reason(&r, "b.json").contains("recording the same work as a.json, which is kept"));
        // One file dropped twice is said to be that, not a second file
        // "left out" under the name of the one "kept".
        let r = ClassResults::new(
            compiled_course(),
            CLASS,
            &[file("a.json", &late), file("a.json", &late)],
        );
        assert_eq!(r.students.len(), 1);
        assert_eq!(
            reason(&r, "a.json"),
            "the same file, read a second time (dropped twice); it counts once"
        );
        // Each with work the other lacks (two students called Ana, or one
        // on two computers; the second solved more, so "more" would have
        // dropped the first's work): both rows stay, and the page says so.
        let elsewhere = student(
            "Ana",
            CLASS,
            &[
                ("time-inside-from-count", &[false, true]),
                ("threads-busy", &[true]),
            ],
        );
        let r = ClassResults::new(
            compiled_course(),
            CLASS,
            &[
                file("a.json", &late),
                file("b.json", &elsewhere),
                file("c.json", &early),
            ],
        );
        let rows: Vec<&str> = r.students.iter().map(|s| s.file.as_str()).collect();
        assert_eq!(rows, ["a.json", "b.json"], "both, in the order they came");
        assert_eq!(r.both_kept, vec![("Ana".to_string(), vec![0, 1])]);
        // The earlier save of the first Ana is held by it: left out.
        assert!(reason(&r, "c.json").contains("kept a.json"));
        let notes = r.notes_html(compiled_course());
        assert!(notes.contains(
            "<li><strong>a.json</strong> and <strong>b.json</strong> are both for Ana, and each records \
             work the other lacks"
        ), "{notes}");
        assert_eq!(r.rejected.len(), 1);
    }

    /// Ana on two computers: her second computer's early save comes after
    /// the first computer's file, then its later save. Each file is
    /// compared with every row of the name: the later save takes the
    /// early one's row, and two rows stay, in the order they came.
    #[test]
    fn a_third_file_for_a_name_meets_every_row_of_it() {
        let one = student("Ana", CLASS, &[("threads-busy", &[true])]);
        let early = student("Ana", CLASS, &[("time-inside-from-count", &[false])]);
        let later = student(
            "Ana",
            CLASS,
            &[
                ("time-inside-from-count", &[false, true]),
                ("cores-busy-little", &[true]),
            ],
        );
        let r = ClassResults::new(
            compiled_course(),
            CLASS,
            &[
                file("one.json", &one),
                file("early.json", &early),
                file("later.json", &later),
            ],
        );
        let rows: Vec<&str> = r.students.iter().map(|s| s.file.as_str()).collect();
        assert_eq!(rows, ["one.json", "later.json"]);
        assert!(reason(&r, "early.json").contains("kept later.json, which records all"));
        assert_eq!(
            r.both_kept,
            vec![("Ana".to_string(), vec![0, 1])],
            "the note names the rows in the table"
        );
        assert!(r.notes_html(compiled_course()).contains(
            "<strong>one.json</strong> and <strong>later.json</strong> are both for Ana"
        ));
        // A third computer with other work: three rows, in order, one note.
        let third = student("Ana", CLASS, &[("little-mismatch", &[true])]);
        let r = ClassResults::new(
            compiled_course(),
            CLASS,
            &[
                file("one.json", &one),
                file("two.json", &early),
                file("three.json", &third),
            ],
        );
        let rows: Vec<&str> = r.students.iter().map(|s| s.file.as_str()).collect();
        assert_eq!(rows, ["one.json", "two.json", "three.json"]);
        assert_eq!(r.both_kept.len(), 1);
        assert!(r
            .notes_html(compiled_course())
            .contains("<strong>one.json</strong>, <strong>two.json</strong> and <strong>three.json</strong> are all for Ana"));
    }

    #[test]
    fn csv_has_a_row_per_student_and_the_totals() {
        let ana = student("Ana, \"A\"", CLASS, &[("threads-busy", &[false, true])]);
        let eve = student("=cmd()", CLASS, &[]);
        let r = ClassResults::new(
            compiled_course(),
            CLASS,
            &[file("a.json", &ana), file("e.json", &eve)],
        );
        let csv = r.csv();
        let lines: Vec<&str> = csv.split("\r\n").filter(|l| !l.is_empty()).collect();
        assert_eq!(lines.len(), 1 + 2 + 2);
        let cols = 2 + 4 * r.columns.len() + r.lessons.len() + 2;
        assert!(lines[0].starts_with("student,file,1.1 "));
        assert_eq!(lines[0].split(',').count(), cols);
        // By name: "=cmd()" sorts before "Ana".
        assert!(lines[1].starts_with("'=cmd(),e.json,,"), "{}", lines[1]);
        assert!(
            lines[2].starts_with("\"Ana, \"\"A\"\"\",a.json,"),
            "{}",
            lines[2]
        );
        assert!(lines[2].contains(",yes,2,0,no,"), "{}", lines[2]);
        assert!(lines[3].starts_with("solved by (of 2),"));
        // The total: students who solved every exercise (nobody), not the
        // one solve counted.
        assert!(lines[3].ends_with(",0,"), "{}", lines[3]);
        assert!(lines[4].starts_with("wrong at first by,"));
        for line in [lines[0], lines[1], lines[3], lines[4]] {
            assert_eq!(line.split(',').count(), cols, "{line}");
        }
    }

    #[test]
    fn the_table_escapes_what_students_typed() {
        let eve = student(
            "<img src=x onerror=alert(1)>",
            CLASS,
            &[("threads-busy", &[true])],
        );
        let files = vec![
            file("a\"b.json", &eve),
            ("<b>.json".to_string(), Ok("nope".to_string())),
        ];
        let r = ClassResults::new(compiled_course(), CLASS, &files);
        let table = r.table_html();
        assert!(!table.contains("<img"), "{table}");
        assert!(table.contains("&lt;img src=x onerror=alert(1)&gt;"));
        assert!(table.contains("title=\"a&quot;b.json\""));
        assert_eq!(table.matches("data-testid=\"results-row\"").count(), 1);
        assert!(table.contains("✓ 1"));
        let notes = r.notes_html(compiled_course());
        assert!(notes.contains("<strong>&lt;b&gt;.json</strong>: not a Tellers progress file"));
        assert!(notes.contains("None: no exercise"), "{notes}");
        // Control characters and marks that turn text round are not passed
        // on to the table or the CSV.
        let odd = student(
            "Zo\u{0}\u{1b}e\u{202E} Li",
            CLASS,
            &[("threads-busy", &[true])],
        );
        let r = ClassResults::new(compiled_course(), CLASS, &[file("odd.json", &odd)]);
        let csv = r.csv();
        assert!(csv.contains("Zo e Li"), "{csv}");
        assert!(!csv.contains(['\u{0}', '\u{1b}', '\u{202E}']), "{csv:?}");
    }

    /// Hidden for a projector, no student's name or file name is on the
    /// page: not in a row, not beside a mistake, not among the files left
    /// out; students are numbered in an order that does not follow their names, and the CSV is not
    /// offered.
    #[test]
    fn names_hidden_for_a_projector_are_nowhere_on_the_page() {
        let wrong_first: &[(&str, &[bool])] = &[("threads-busy", &[false, true])];
        let files = [
            file(
                "tellers-progress-anaya.json",
                &student("Anaya", CLASS, wrong_first),
            ),
            file(
                "tellers-progress-bogdan.json",
                &student("Bogdan", CLASS, wrong_first),
            ),
            file(
                "tellers-progress-cyprian.json",
                &student("Cyprian", "R12", wrong_first),
            ),
        ];
        let checked = || files.iter().map(|f| check_file(f, CLASS)).collect();
        let shown = ResultsPage::with_names(compiled_course(), CLASS, checked(), Names::Shown);
        let hidden = ResultsPage::with_names(compiled_course(), CLASS, checked(), Names::Hidden);
        let whole = |p: &ResultsPage| {
            let t = p.table.as_ref().unwrap();
            let rows: String = t.row_parts().into_iter().map(|r| t.rows_html(r)).collect();
            format!(
                "{}{}{}{}{}",
                p.notes,
                t.legend_html(),
                t.head_html(),
                rows,
                t.foot_html()
            )
        };
        let (shown_text, hidden_text) = (whole(&shown), whole(&hidden));
        for name in ["Anaya", "Bogdan", "cyprian"] {
            assert!(shown_text.contains(name), "{name} shown");
        }
        for name in ["Anaya", "Bogdan", "Cyprian", "anaya", "bogdan", "cyprian"] {
            assert!(!hidden_text.contains(name), "{name} hidden: {hidden_text}");
        }
        assert!(hidden_text.contains("Student 1") && hidden_text.contains("Student 2"));
        // Numbered in an order that does not follow the names, the same
        // each time.
        let class: Vec<Dropped> = ["Ada", "Ben", "Cal", "Dee", "Eve", "Fay"]
            .iter()
            .map(|n| file(&format!("{n}.json"), &student(n, CLASS, wrong_first)))
            .collect();
        let r = ClassResults::new(compiled_course(), CLASS, &class);
        let order = mixed_order(&r.students);
        let mut sorted = order.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, (0..6).collect::<Vec<_>>(), "each row once");
        assert_ne!(order, sorted, "not in name order");
        assert_eq!(order, mixed_order(&r.students));
        assert!(hidden
            .notes
            .contains("3 files read: 2 students in the table, 1 file left out."));
        assert!(hidden.notes.contains("data-testid=\"names-hidden\""));
        assert_eq!(hidden.table.unwrap().results.names, Names::Hidden);
        assert_eq!(shown.table.unwrap().results.names, Names::Shown);
    }

    /// One student's two files, each with work the other lacks, are two
    /// rows; with names hidden the page still says which two rows are one
    /// name's, by their numbers (it said nothing: two rows, no note).
    #[test]
    fn rows_of_one_name_are_said_to_be_one_names_with_names_hidden() {
        let first = student("Ana", CLASS, &[("threads-busy", &[true])]);
        let second = student("Ana", CLASS, &[("time-inside-from-count", &[false, true])]);
        let class: Vec<Dropped> = [("Ben", "b.json"), ("Cal", "c.json"), ("Dee", "d.json")]
            .iter()
            .map(|(n, f)| file(f, &student(n, CLASS, &[("cores-busy-little", &[true])])))
            .chain([file("ana-1.json", &first), file("ana-2.json", &second)])
            .collect();
        let r = ClassResults::new(compiled_course(), CLASS, &class).without_names();
        assert_eq!(r.both_kept.len(), 1);
        let rows = &r.both_kept[0].1;
        // The rows named are the two Anas': one solved threads-busy, the
        // other time-inside-from-count.
        let solved = |row: usize, id: &str| {
            let c = r.columns.iter().position(|c| c.id == id).unwrap();
            r.students[row].cells[c].as_ref().is_some_and(|e| e.solved)
        };
        let mut which: Vec<&str> = rows
            .iter()
            .map(|&row| {
                if solved(row, "threads-busy") {
                    "first"
                } else if solved(row, "time-inside-from-count") {
                    "second"
                } else {
                    "another"
                }
            })
            .collect();
        which.sort_unstable();
        assert_eq!(which, ["first", "second"]);
        assert!(rows[0] < rows[1], "in the table's order: {rows:?}");
        let notes = r.notes_html(compiled_course());
        let said = format!(
            "<li><strong>Student {}</strong> and <strong>Student {}</strong> share one name",
            rows[0] + 1,
            rows[1] + 1
        );
        assert!(notes.contains(&said), "{notes}");
        assert!(notes.contains("<h2>Rows with one name</h2>"));
        assert!(
            !notes.contains("Ana") && !notes.contains(".json"),
            "{notes}"
        );
    }

    #[test]
    fn the_page_says_what_it_read_and_links_the_csv() {
        let ana = student("Ana", CLASS, &[("threads-busy", &[true])]);
        let files = vec![
            file("a.json", &ana),
            ("x.txt".to_string(), Ok("hello".to_string())),
        ];
        let waiting = results_page(compiled_course(), " ", &files);
        assert!(waiting.notes.contains("2 files read. Type the class code"));
        assert_eq!(waiting.table, None);
        assert!(results_page(compiled_course(), "", &[])
            .notes
            .contains("Type the class code, then drop"));
        let page = results_page(compiled_course(), CLASS, &files);
        assert!(page
            .notes
            .contains("2 files read: 1 student in the table, 1 file left out."));
        let table = page.table.unwrap();
        assert_eq!(table.csv_file, "tellers-results-K7Q2-MX4P.csv");
        let csv = ClassResults::new(compiled_course(), CLASS, &files).csv();
        assert_eq!(
            table.csv_href(),
            format!(
                "data:text/csv;charset=utf-8,%EF%BB%BF{}",
                query_escape(&csv)
            )
        );
        // No student, no table.
        let none = results_page(compiled_course(), CLASS, &files[1..]);
        assert!(none.notes.contains("1 file read: 0 students in the table"));
        // A code typed and no file (or all cleared): what to do next.
        let empty = results_page(compiled_course(), CLASS, &[]);
        assert!(
            empty.notes.contains("No files read yet: drop"),
            "{}",
            empty.notes
        );
        assert!(!empty.notes.contains("0 files") && empty.table.is_none());
        assert_eq!(none.table, None);
    }

    #[test]
    fn the_page_checks_files_a_few_per_task_with_the_same_result() {
        // Forty students who each answered forty exercises: files of a few KB.
        let ids: Vec<&str> = compiled_course()
            .exercises()
            .map(|(_, e)| e.id.as_str())
            .collect();
        let files: Vec<Dropped> = (0..40)
            .map(|i| {
                let answers: Vec<(&str, &[bool])> = ids[i..i + 40]
                    .iter()
                    .map(|&id| (id, [false, true].as_slice()))
                    .collect();
                file(
                    &format!("{i}.json"),
                    &student(&format!("S{i}"), CLASS, &answers),
                )
            })
            .chain([(
                "big.json".to_string(),
                Err(Rejection::TooLarge { bytes: 2_000_000 }),
            )])
            .collect();
        let parts = check_parts(&files);
        assert!(parts.len() > 1, "{parts:?}");
        // In order, every file once.
        assert_eq!(parts.first().unwrap().start, 0);
        assert_eq!(parts.last().unwrap().end, files.len());
        assert!(parts
            .windows(2)
            .all(|w| w[0].end == w[1].start && !w[1].is_empty()));
        for part in &parts {
            let bytes: usize = files[part.clone()]
                .iter()
                .map(|(_, t)| t.as_ref().map_or(0, |t| t.len()))
                .sum();
            assert!(
                part.len() == 1 || bytes <= CHECK_BYTES_PER_TASK as usize,
                "{part:?}"
            );
        }
        let mut checked = Vec::new();
        for part in parts {
            checked.extend(files[part].iter().map(|f| check_file(f, CLASS)));
        }
        assert_eq!(
            ResultsPage::new(compiled_course(), CLASS, checked),
            results_page(compiled_course(), CLASS, &files)
        );
        // A file larger than a task's share is checked alone.
        let big = "x".repeat(CHECK_BYTES_PER_TASK as usize + 1);
        let files = [&files[0], &("big".to_string(), Ok(big)), &files[1]].map(Clone::clone);
        assert_eq!(check_parts(&files), [0..1, 1..2, 2..3]);
        assert_eq!(check_parts(&[]), Vec::<Range<usize>>::new());
    }

    #[test]
    fn the_table_drawn_in_parts_is_the_whole_table() {
        let files: Vec<Dropped> = (0..40)
            .map(|i| {
                let tries = [i % 3 == 0, true];
                let answers: Vec<(&str, &[bool])> = vec![("threads-busy", &tries)];
                file(
                    &format!("{i}.json"),
                    &student(&format!("S{i:02}"), CLASS, &answers),
                )
            })
            .collect();
        let table = results_page(compiled_course(), CLASS, &files)
            .table
            .unwrap();
        let parts = table.row_parts();
        // One lesson shown: its exercises and sum, the name and the total.
        let cells = table
            .shown()
            .iter()
            .map(|&l| table.results.lessons[l].exercises + 1)
            .sum::<usize>()
            + 2;
        let per_part = CELLS_PER_FRAME as usize / cells;
        assert_eq!(parts.len(), 40usize.div_ceil(per_part), "{parts:?}");
        assert!(parts.iter().all(|p| p.len() <= per_part));
        let rows: String = parts.into_iter().map(|p| table.rows_html(p)).collect();
        assert_eq!(
            format!(
                "<table class=\"results__table\" data-testid=\"results-table\"><thead>{}</thead><tbody>{rows}</tbody><tfoot>{}</tfoot></table>",
                table.head_html(),
                table.foot_html()
            ),
            table.results.table_html()
        );
        assert_eq!(rows.matches("data-testid=\"results-row\"").count(), 40);
    }

    #[test]
    fn hints_and_solutions_reach_the_table_and_the_csv() {
        let mut ana = student("Ana", CLASS, &[]);
        ana.record_hints("threads-busy", 2);
        ana.record_solution("threads-busy");
        ana.record_attempt("threads-busy", true, None);
        ana.record_attempt("work-or-wait-step", false, None);
        let r = ClassResults::new(compiled_course(), CLASS, &[file("a.json", &ana)]);
        let table = r.table_html();
        assert!(table.contains(">✓ 1 h2 S</td>"), "{table}");
        assert!(table.contains(
            "threads-busy: solved in 1 answer, 2 hints, the worked solution opened first"
        ));
        assert!(table.contains(">✗ 1</td>"));
        let csv = r.csv();
        let header: Vec<&str> = csv.lines().next().unwrap().split(',').collect();
        let at = header
            .iter()
            .position(|h| h.ends_with(" threads-busy solved"))
            .unwrap();
        let row: Vec<&str> = csv.lines().nth(1).unwrap().split(',').collect();
        assert_eq!(row[at..at + 4], ["yes", "1", "2", "yes"]);
        assert!(header[at + 3].ends_with("threads-busy solution seen first"));
        // Hints and the solution opened with no answer checked: worked on,
        // and the teacher sees it (it was an empty, "not tried" cell), but
        // not counted as tried.
        let mut ben = student("Ben", CLASS, &[]);
        ben.record_hints("threads-busy", 2);
        ben.record_solution("threads-busy");
        let r = ClassResults::new(compiled_course(), CLASS, &[file("b.json", &ben)]);
        assert!(
            r.table_html().contains(">✗ 0 h2 S</td>"),
            "{}",
            r.table_html()
        );
        let tb = r
            .columns
            .iter()
            .position(|c| c.id == "threads-busy")
            .unwrap();
        assert_eq!(r.tried_by(tb), 0);
    }

    #[test]
    fn files_of_format_one_are_still_read() {
        // As Tellers wrote them before solutions were recorded.
        let text = r#"{"version":1,"student":{"class":"K7Q2-MX4P","name":"Ana"},"exercises":{"threads-busy":{"solved":true,"attempts":3,"hints":1,"first_correct":false}}}"#;
        let check = file_check(CLASS, text);
        let file = format!("{},\"check\":\"{check}\"}}", &text[..text.len() - 1]);
        let r = ClassResults::new(compiled_course(), CLASS, &[("old.json".into(), Ok(file))]);
        assert_eq!(r.rejected, vec![]);
        let table = r.table_html();
        assert!(table.contains(">✓ 3 h1</td>"), "{table}");
        assert!(table.contains("threads-busy: solved, 3 answers checked, 1 hint (recorded by an older Tellers: solutions not recorded"), "{table}");
        let row = r.csv().lines().nth(1).unwrap().to_string();
        assert!(row.contains(",yes,3,1,,"), "{row}");
    }

    /// A class of 40 who worked in every lesson: 40 × 143 cells is more
    /// than a frame can lay out, so the table starts on each lesson's
    /// total, and each lesson's exercises are a pick away; a small class
    /// starts on every exercise.
    #[test]
    fn a_big_class_starts_on_each_lessons_total() {
        let course = compiled_course();
        let firsts: Vec<String> = course
            .lessons
            .iter()
            .filter_map(|l| l.exercises().next().map(|e| e.id.clone()))
            .collect();
        let done: Vec<(&str, &[bool])> =
            firsts.iter().map(|id| (id.as_str(), &[true][..])).collect();
        let files: Vec<_> = (0..40)
            .map(|i| {
                file(
                    &format!("s{i}.json"),
                    &student(&format!("S{i:02}"), CLASS, &done),
                )
            })
            .collect();
        let big = results_page(course, CLASS, &files).table.unwrap();
        assert_eq!(big.view, TableView::Totals);
        let shown = big.results.lessons_shown().len();
        assert_eq!(shown, firsts.len());
        assert_eq!(big.columns(), shown + 2);
        assert!(big.columns() * 40 <= MAX_CELLS);
        let head = big.head_html();
        assert_eq!(
            head.matches("<th scope=\"col\"").count(),
            shown + 2,
            "{head}"
        );
        assert!(head.contains(">Lesson 4 (of 7)<"), "{head}");
        let rows = big.rows_html(0..1);
        assert!(rows.starts_with(
            "<tr data-testid=\"results-row\"><th scope=\"row\" title=\"s0.json\">S00</th>"
        ));
        assert_eq!(rows.matches("<td").count(), shown + 1);
        assert!(big.foot_html().contains(">Solved by<"));
        assert!(big.legend_html().contains("A column a lesson"));
        let views = big.views();
        assert_eq!(
            views[0],
            (TableView::Totals, "Each lesson's total".to_string())
        );
        assert!(
            views.iter().all(|(v, _)| *v != TableView::Exercises),
            "every exercise is too many cells"
        );
        assert_eq!(views.len(), 1 + shown);
        // A lesson picked: its exercises and its Σ.
        let (lesson4, label) = views[4].clone();
        assert_eq!(label, "Lesson 4: each exercise");
        let one = big.with_view(lesson4);
        assert_eq!(one.columns(), 1 + 7 + 1 + 1);
        assert!(one.legend_html().contains("Lesson 4 alone is shown here"));
        for (v, _) in &views {
            assert_eq!(TableView::from_key(&v.key()), Some(*v));
        }
        assert_eq!(TableView::from_key("lesson-x"), None);
        // Two of them: every exercise fits, and comes first.
        let small = results_page(course, CLASS, &files[..2]).table.unwrap();
        assert_eq!(small.view, TableView::Exercises);
        assert_eq!(small.views()[0].0, TableView::Exercises);
    }

    #[test]
    fn a_table_wider_than_paper_says_so_in_print() {
        let course = compiled_course();
        let ana = student("Ana", CLASS, &[("threads-busy", &[true])]);
        let narrow = results_page(course, CLASS, &[file("a.json", &ana)])
            .table
            .unwrap();
        let littles = course.lesson("littles-law").unwrap().exercises().count();
        assert_eq!(narrow.columns(), 1 + littles + 1 + 1);
        assert_eq!(narrow.print_note(), None);
        // One exercise of every lesson: every lesson is a column group.
        let firsts: Vec<String> = course
            .lessons
            .iter()
            .filter_map(|l| l.exercises().next().map(|e| e.id.clone()))
            .collect();
        let done: Vec<(&str, &[bool])> =
            firsts.iter().map(|id| (id.as_str(), &[true][..])).collect();
        let wide = results_page(
            course,
            CLASS,
            &[file("w.json", &student("Wu", CLASS, &done))],
        )
        .table
        .unwrap();
        assert!(wide.columns() > PRINT_COLUMNS);
        assert!(wide.print_note().unwrap().starts_with(&format!(
            "This table has {} columns, more than a sheet of paper holds",
            wide.columns()
        )));
    }

    #[test]
    fn the_table_shows_the_lessons_someone_worked_on() {
        let ana = student("Ana", CLASS, &[("threads-busy", &[true])]);
        let ben = student("Ben", CLASS, &[("time-inside-from-count", &[false])]);
        let r = ClassResults::new(
            compiled_course(),
            CLASS,
            &[file("a.json", &ana), file("b.json", &ben)],
        );
        let tb = r
            .columns
            .iter()
            .position(|c| c.id == "threads-busy")
            .unwrap();
        let littles = r.columns[tb].lesson;
        assert_eq!(r.lessons_shown(), [littles]);
        let table = r.table_html();
        assert_eq!(table.matches("scope=\"colgroup\"").count(), 1, "{table}");
        assert!(table.contains(&format!(">Lesson {}<", r.lessons[littles].number)));
        // The total still counts the whole course, and the CSV every exercise.
        assert!(table.contains(&format!("Solved (of {})", r.columns.len())));
        assert!(r
            .csv()
            .lines()
            .next()
            .unwrap()
            .contains("solution seen first"));
        let page = results_page(
            compiled_course(),
            CLASS,
            &[file("a.json", &ana), file("b.json", &ben)],
        )
        .table
        .unwrap()
        .legend_html();
        let hidden = r.lessons.iter().filter(|l| l.exercises > 0).count() - 1;
        assert!(
            page.contains(&format!(
                " {hidden} lessons nobody worked on are left out here"
            )),
            "{page}"
        );
    }

    #[test]
    fn students_without_a_name_are_each_a_row() {
        let one = student("", CLASS, &[("threads-busy", &[true])]);
        let two = student(" ", CLASS, &[("time-inside-from-count", &[false, true])]);
        let ana = student("Ana", CLASS, &[("threads-busy", &[true])]);
        let r = ClassResults::new(
            compiled_course(),
            CLASS,
            &[
                file("tellers-progress.json", &one),
                file("tellers-progress (1).json", &two),
                file("ana.json", &ana),
            ],
        );
        assert!(r.rejected.is_empty(), "{:?}", r.rejected);
        let rows: Vec<(&str, &str)> = r
            .students
            .iter()
            .map(|s| (s.name.as_str(), s.file.as_str()))
            .collect();
        assert_eq!(
            rows,
            [
                ("Ana", "ana.json"),
                ("(no name)", "tellers-progress.json"),
                ("(no name)", "tellers-progress (1).json")
            ]
        );
    }

    #[test]
    fn a_name_two_rows_share_says_whose_file_in_the_mistakes_list() {
        // One student on two computers (or two with one name): both rows
        // are kept, and the mistakes list read "3 students (Ana, Ana and
        // Lou)", as if one student were counted twice.
        let slipped = |name: &str, extra: Option<&str>| {
            let mut s = student(name, CLASS, &[]);
            s.record_attempt("threads-busy", false, Some(Slip::Mistake(1)));
            s.record_attempt("threads-busy", true, None);
            if let Some(id) = extra {
                s.record_attempt(id, true, None);
            }
            s
        };
        // Each of Ana's files records work the other lacks, so both are kept.
        let files = vec![
            file(
                "ana-home.json",
                &slipped("Ana", Some("time-inside-from-count")),
            ),
            file("ana-lab.json", &slipped("Ana", Some("cores-busy-little"))),
            file("lou.json", &slipped("Lou", None)),
        ];
        let r = ClassResults::new(compiled_course(), CLASS, &files);
        assert_eq!(r.students.len(), 3, "both of Ana's files are rows");
        let notes = r.notes_html(compiled_course());
        assert!(
            notes.contains("3 students (Ana (ana-home.json), Ana (ana-lab.json) and Lou)"),
            "{notes}"
        );
        // Only one of the two Anas made it: still said which.
        let mut lab = student("Ana", CLASS, &[("cores-busy-little", &[true])]);
        lab.record_attempt("threads-busy", true, None);
        let files = vec![
            files[0].clone(),
            file("ana-lab.json", &lab),
            files[2].clone(),
        ];
        let r = ClassResults::new(compiled_course(), CLASS, &files);
        assert_eq!(r.students.len(), 3, "both of Ana's files are rows");
        let notes = r.notes_html(compiled_course());
        assert!(
            notes.contains("2 students (Ana (ana-home.json) and Lou)"),
            "{notes}"
        );
    }

    #[test]
    fn more_students_wrong_rank_above_a_higher_share_of_fewer() {
        // A class of three: one student missed time-inside at first (1 of
        // 1); two of the three missed threads-busy (2 of 3). By share the
        // one student's exercise came first, under "Most of the class".
        let files = vec![
            file(
                "0.json",
                &student(
                    "S0",
                    CLASS,
                    &[
                        ("time-inside-from-count", &[false, true]),
                        ("threads-busy", &[false, true]),
                    ],
                ),
            ),
            file(
                "1.json",
                &student("S1", CLASS, &[("threads-busy", &[false, true])]),
            ),
            file(
                "2.json",
                &student("S2", CLASS, &[("threads-busy", &[true])]),
            ),
        ];
        let r = ClassResults::new(compiled_course(), CLASS, &files);
        let col = |id: &str| r.columns.iter().position(|c| c.id == id).unwrap();
        let hard: Vec<(usize, usize, usize)> = r
            .most_wrong_first()
            .iter()
            .map(|h| (h.column, h.wrong_first, h.known))
            .collect();
        assert_eq!(
            hard,
            [
                (col("threads-busy"), 2, 3),
                (col("time-inside-from-count"), 1, 1)
            ]
        );
        let notes = r.notes_html(compiled_course());
        assert!(
            notes.contains("Most of those who answered got these wrong at first"),
            "{notes}"
        );
        assert!(
            notes.contains("1 of 1 got it wrong at first (1 of the 3 answered it)"),
            "{notes}"
        );
        assert!(
            notes.contains("2 of 3 got it wrong at first</li>"),
            "{notes}"
        );
    }

    #[test]
    fn one_students_slip_does_not_top_a_big_classs_list() {
        let mut files = Vec::new();
        for i in 0..8 {
            let answers: Vec<(&str, &[bool])> = match i {
                // Only one student tried it, and missed it at first.
                0 => vec![("time-inside-from-count", &[false, true])],
                // Three tried it; two missed it at first.
                1 | 2 => vec![("threads-busy", &[false, true])],
                3 => vec![("threads-busy", &[true])],
                _ => vec![],
            };
            files.push(file(
                &format!("{i}.json"),
                &student(&format!("S{i}"), CLASS, &answers),
            ));
        }
        let r = ClassResults::new(compiled_course(), CLASS, &files);
        assert_eq!(r.fewest_to_rank(), 2);
        let tb = r
            .columns
            .iter()
            .position(|c| c.id == "threads-busy")
            .unwrap();
        let hard: Vec<(usize, usize, usize)> = r
            .most_wrong_first()
            .iter()
            .map(|h| (h.column, h.wrong_first, h.known))
            .collect();
        assert_eq!(hard, [(tb, 2, 3)]);
        let notes = r.notes_html(compiled_course());
        assert!(notes.contains("at least 2 students answered"), "{notes}");
        assert!(notes.contains("target=\"_blank\""), "{notes}");
    }

    #[test]
    fn one_student_however_their_name_is_spaced() {
        let a = student("Ana Souza", CLASS, &[("threads-busy", &[true])]);
        let b = student(
            "ana  souza",
            "k7q2-mx4p ",
            &[("threads-busy", &[false, true])],
        );
        let r = ClassResults::new(
            compiled_course(),
            CLASS,
            &[file("a.json", &a), file("b.json", &b)],
        );
        assert_eq!(r.students.len(), 1);
        assert_eq!(r.students[0].file, "b.json");
    }

    #[test]
    fn one_student_however_their_accent_was_typed_and_accents_sort_as_letters() {
        // Zoë's first file has "ë" as one letter, her later one as e and a
        // combining diaeresis (a pasted name): one student, the later file.
        let first = student("Zo\u{eb}", CLASS, &[("threads-busy", &[true])]);
        let later = student(
            "Zoe\u{308}",
            CLASS,
            &[("threads-busy", &[true]), ("work-or-wait-step", &[true])],
        );
        let elodie = student("\u{c9}lodie", CLASS, &[]);
        let ana = student("Ana", CLASS, &[]);
        let r = ClassResults::new(
            compiled_course(),
            CLASS,
            &[
                file("z1.json", &first),
                file("e.json", &elodie),
                file("z2.json", &later),
                file("a.json", &ana),
            ],
        );
        let rows: Vec<(&str, &str)> = r
            .students
            .iter()
            .map(|s| (s.name.as_str(), s.file.as_str()))
            .collect();
        assert_eq!(
            rows,
            [
                ("Ana", "a.json"),
                ("\u{c9}lodie", "e.json"),
                // Shown (and written to the CSV) in the composed form:
                // a spreadsheet sees one name however it was typed.
                ("Zo\u{eb}", "z2.json")
            ],
            "Élodie between Ana and Zoë; Zoë once"
        );
        assert!(
            reason(&r, "z1.json").contains("z2.json"),
            "{:?}",
            r.rejected
        );
    }

    #[test]
    fn csv_fields_are_quoted_only_when_needed() {
        assert_eq!(csv_field("Ana"), "Ana");
        assert_eq!(csv_field("a,b"), "\"a,b\"");
        assert_eq!(csv_field("say \"hi\""), "\"say \"\"hi\"\"\"");
        assert_eq!(csv_field("-1"), "'-1");
        assert_eq!(csv_field("@x"), "'@x");
        assert_eq!(csv_field(""), "");
    }
}
