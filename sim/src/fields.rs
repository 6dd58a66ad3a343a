//! The machinery of the scenario's field table: what one field knows about
//! itself, and how its value is read and written as text or as a number.
//!
//! Each scenario field is defined once, in [`crate::scenario`], by one entry
//! of the `scenario!` macro: its type, default, label, unit, range, help,
//! which scenarios use it and the control that sets it. The macro writes
//! the `Scenario` struct, its `Default` and [`crate::scenario::FIELDS`] from
//! that one list. Every reader is generated from the table:
//! [`crate::scenario::Scenario::validate`], the CLI's flags and `tellers
//! help`, the URL query ([`crate::query`]), the playground's controls and
//! the names a lesson's `sim` block may offer as sliders. A consistency test
//! (`tests/fields.rs`) proves they agree.
//!
//! Conventions every field follows:
//! * the name is `snake_case` in JSON and URLs, `--kebab-case` on the command line;
//! * an optional count or time is off when `None`, written `none` in text,
//!   and `0` also switches it off (a line limit of 0 means "no limit", as the
//!   slider says);
//! * numbers are written in the shortest form that reads back to the same bits.

use crate::schedule::Schedule;
pub use crate::text::clip;
use std::fmt;

/// A field's value, as every reader sees it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Value {
    /// A whole number (counts, the seed).
    Int(u64),
    /// A real number (times, shares).
    Real(f64),
    /// On or off.
    Switch(bool),
    /// One of the field's choices, by its name (`event-loop`).
    Choice(&'static str),
    /// A load schedule.
    Schedule(Schedule),
    /// An optional field that is off.
    Off,
}

impl Value {
    /// The value as a number: counts and reals as themselves, a switch as
    /// 0 or 1, an off field as 0; `None` for a choice.
    pub fn as_f64(self) -> Option<f64> {
        match self {
            Value::Int(n) => Some(n as f64),
            Value::Real(x) => Some(x),
            Value::Switch(b) => Some(f64::from(u8::from(b))),
            Value::Off => Some(0.0),
            Value::Choice(_) | Value::Schedule(_) => None,
        }
    }
}

impl fmt::Display for Value {
    /// As the URL and the command line write it: `8`, `0.30000000000000004`,
    /// `true`, `event-loop`, `none`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Int(n) => write!(f, "{n}"),
            // Rust writes the shortest decimal that reads back to the same bits.
            Value::Real(x) => write!(f, "{x}"),
            Value::Switch(b) => write!(f, "{b}"),
            Value::Choice(name) => f.write_str(name),
            Value::Schedule(s) => write!(f, "{s}"),
            Value::Off => f.write_str("none"),
        }
    }
}

/// What values a field takes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Kind {
    /// A whole number within `min..=max`.
    Int {
        /// Smallest allowed.
        min: u64,
        /// Largest allowed.
        max: u64,
    },
    /// A number within `min..=max`.
    Real {
        /// Smallest allowed.
        min: f64,
        /// Largest allowed.
        max: f64,
    },
    /// On or off (`true` / `false`; a bare flag on the command line).
    Switch,
    /// One of a few named choices, as (name, label).
    Choice(&'static [(&'static str, &'static str)]),
    /// A load schedule, `time_s:rps` pairs ([`Schedule`]).
    Schedule,
}

/// Where a field belongs, for help pages and grouped controls.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Group {
    /// The server: model, cores, threads, loops and their costs.
    Server,
    /// What each request costs: CPU, wait, write, heavy share.
    Workload,
    /// How requests arrive.
    Arrivals,
    /// What sits behind the server: a dependency, its pool, fan-out, hedging.
    Dependency,
    /// What callers do: time out, retry.
    Callers,
    /// What the server does when it cannot keep up: order, shed, drop.
    Overload,
    /// The run itself: length, warm-up, bounds, seed.
    Run,
}

impl Group {
    /// Every group, in the order shown.
    pub const ALL: [Group; 7] = [
        Group::Server,
        Group::Workload,
        Group::Arrivals,
        Group::Dependency,
        Group::Callers,
        Group::Overload,
        Group::Run,
    ];

    /// The heading shown above the group.
    pub fn heading(self) -> &'static str {
        match self {
            Group::Server => "Server",
            Group::Workload => "Workload",
            Group::Arrivals => "Arrivals",
            Group::Dependency => "Beyond one box",
            Group::Callers => "Callers",
            Group::Overload => "When overloaded",
            Group::Run => "The run",
        }
    }
}

/// The control that sets a field in the app.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Control {
    /// No control: the command line, files and URLs only.
    None,
    /// A slider with a number box. The slider spans `min..=max` in steps of
    /// `step`; the box takes the field's whole range.
    Slider {
        /// Slider minimum.
        min: f64,
        /// Slider maximum.
        max: f64,
        /// Slider step.
        step: f64,
    },
    /// A select over the field's choices.
    Select,
    /// A check box.
    Toggle,
    /// A plain number box (the seed).
    NumberBox,
    /// A few (time, rate) rows: the load schedule.
    ScheduleEditor,
}

/// Which scenarios use a field: a rule the scenario module defines (its
/// models and arrival processes live there), so this module needs to know
/// nothing of the scenario itself.
pub trait UseRule<S>: Copy {
    /// Does `s` use the field?
    fn by(&self, s: &S) -> bool;
    /// In words, for `tellers help`.
    fn describe(&self) -> String;
}

/// One scenario field: everything every reader needs to know about it.
/// `S` is the scenario, `U` its rule for which scenarios use a field.
#[derive(Clone, Copy)]
pub struct Field<S: 'static, U: 'static> {
    /// `snake_case` name, as in JSON and URLs.
    pub name: &'static str,
    /// What the learner reads beside the control.
    pub label: &'static str,
    /// Unit after a value ("" for a plain count or a choice).
    pub unit: &'static str,
    /// One line of help: what it means, its unit, what 0 or `none` means.
    pub help: &'static str,
    /// Where it belongs.
    pub group: Group,
    /// The values it takes.
    pub kind: Kind,
    /// True for an optional field (`none`, or 0, switches it off).
    pub optional: bool,
    /// Which scenarios use it.
    pub used: U,
    /// The control that sets it.
    pub control: Control,
    /// Shown in the playground (when used), not only offered to lessons.
    pub in_playground: bool,
    /// Reads the field of a scenario.
    pub get: fn(&S) -> Value,
    /// Writes the field; `false` if the value has the wrong type for it.
    pub set: fn(&mut S, Value) -> bool,
}

impl<S, U> PartialEq for Field<S, U> {
    /// Fields are the same when they have the same name (names are unique).
    fn eq(&self, other: &Self) -> bool {
        self.name == other.name
    }
}

impl<S, U> fmt::Debug for Field<S, U> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Field").field("name", &self.name).finish()
    }
}

/// Why a JSON object or text did not read as a scenario: the field whose
/// value is wrong, if one is, and what is wrong and allowed. Shown as
/// `field: message`, or the message alone.
#[derive(Clone, Debug, PartialEq)]
pub struct ReadError {
    /// The field whose value did not read (`None`: the JSON itself, or a
    /// key that is no field).
    pub field: Option<&'static str>,
    /// What is wrong, and what is allowed.
    pub message: String,
}

impl ReadError {
    fn of(field: &'static str, message: String) -> Self {
        ReadError {
            field: Some(field),
            message,
        }
    }
}

impl From<String> for ReadError {
    /// A message that names no field.
    fn from(message: String) -> Self {
        ReadError {
            field: None,
            message,
        }
    }
}

impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.field {
            Some(name) => write!(f, "{name}: {}", self.message),
            None => f.write_str(&self.message),
        }
    }
}

/// A scenario from a JSON object of fields laid over the defaults, by the
/// table: what the JSON reader of a scenario file, a lesson's sim block and
/// a check-it scenario share. Each key must be a field; each value must have
/// its field's type (see [`Field::from_json`]); ranges are left to
/// `validate`. The message names the field and what it allows.
pub fn read_object<S: Default, U>(
    fields: &[Field<S, U>],
    obj: &serde_json::Map<String, serde_json::Value>,
) -> Result<S, ReadError> {
    let mut s = S::default();
    for (key, v) in obj {
        let f = field_of_key(fields, key)?;
        let value = f.from_json(v).map_err(|e| ReadError::of(f.name, e))?;
        if !(f.set)(&mut s, value) {
            return Err(ReadError::of(
                f.name,
                format!(
                    "{} is not allowed; allowed {}",
                    clip(&v.to_string()),
                    f.allowed()
                ),
            ));
        }
    }
    Ok(s)
}

/// The field a JSON key names, or the message for a key that is none
/// (with the field it meant, when it is one spelt as its flag).
fn field_of_key<'a, S, U>(fields: &'a [Field<S, U>], key: &str) -> Result<&'a Field<S, U>, String> {
    if let Some(f) = fields.iter().find(|f| f.name == key) {
        return Ok(f);
    }
    if let Some(name) = meant_field(fields, key) {
        return Err(format!(
            "'{}' is not a scenario field; did you mean '{name}'?{}",
            clip(key),
            if spelt_otherwise(key) {
                " (a file's field names are in small letters, joined by _)"
            } else {
                ""
            }
        ));
    }
    let names: Vec<&str> = fields.iter().map(|f| f.name).collect();
    Err(format!(
        "'{}' is not a scenario field; the fields are {}",
        clip(key),
        names.join(", ")
    ))
}

/// A scenario from JSON text, by the table: a JSON object whose keys are
/// each given once ([`UniqueKeys`]), then [`read_object`]. A number no
/// float holds (`1e400`) is refused by serde before the table sees it;
/// it is named here by the field whose value it is, with what the field
/// allows, as any other value of the wrong kind is.
pub fn read_text<S: Default, U>(fields: &[Field<S, U>], text: &str) -> Result<S, ReadError> {
    let failed = std::cell::Cell::new(None);
    let mut de = serde_json::Deserializer::from_str(text);
    let read = serde::Deserializer::deserialize_map(
        &mut de,
        Keys {
            failed_key: Some(&failed),
        },
    )
    .and_then(|obj| de.end().map(|()| obj));
    match read {
        Ok(obj) => read_object(fields, &obj.0),
        // serde has no kind for it, only its words.
        Err(e) if e.to_string().starts_with("number out of range") => Err(match failed.take() {
            Some(key) => {
                let f = field_of_key(fields, &key)?;
                ReadError::of(f.name, f.out_of_range_unshown())
            }
            None => format!(
                "the number at line {}, column {} is too large for any field",
                e.line(),
                e.column()
            )
            .into(),
        }),
        // serde's words end "at line 1 column 30"; the place is said once,
        // and a slip in the JSON itself says what a file should be.
        Err(e) => {
            let text = e.to_string();
            let what = text
                .rsplit_once(" at line ")
                .map_or(text.as_str(), |(w, _)| w);
            Err(match e.classify() {
                serde_json::error::Category::Syntax | serde_json::error::Category::Eof => format!(
                    "{what} (line {}, column {}); a scenario file is a JSON object of fields, such as {{\"rps\": 200}}",
                    e.line(),
                    e.column()
                ),
                _ => what.to_owned(),
            }
            .into())
        }
    }
}

/// The name of `names` nearest to `typed`, if one is near: at most two
/// edits (a swap of neighbours counts as one), the first in order of a tie.
/// One rule for every "did you mean": a flag, a preset, a field in a link
/// or a file.
pub fn nearest<T: AsRef<str> + Ord>(typed: &str, names: impl IntoIterator<Item = T>) -> Option<T> {
    names
        .into_iter()
        .map(|n| (strsim::osa_distance(typed, n.as_ref()), n))
        .min()
        .filter(|(d, _)| *d <= 2)
        .map(|(_, n)| n)
}

/// The field a name that is none most likely means: spelt as its flag is
/// (`cpu-ms`, `--cpu-ms`), in capitals or camelCase (`CPU_MS`, `cpuMs`),
/// without its unit (`timeout` for `timeout_ms`, `duration` for
/// `duration_s`), or else misspelt by at most two edits ([`nearest`]:
/// `rsp` for `rps`).
pub fn meant_field<S, U>(fields: &[Field<S, U>], key: &str) -> Option<&'static str> {
    let snake = snake_case(key);
    fields
        .iter()
        .find(|f| f.name == snake)
        .or_else(|| {
            fields.iter().find(|f| {
                f.name
                    .strip_prefix(snake.as_str())
                    .is_some_and(|unit| ["_ms", "_s", "_us", "_kb"].contains(&unit))
            })
        })
        .map(|f| f.name)
        .or_else(|| nearest(&snake, fields.iter().map(|f| f.name)))
}

/// Whether `key` is written other than fields are (with `-`, capitals or
/// camelCase), which a "did you mean" then explains.
pub fn spelt_otherwise(key: &str) -> bool {
    snake_case(key) != key
}

/// A name as a field spells it: `cpu-ms`, `--cpu-ms`, `CPU_MS` and
/// `cpuMs` read `cpu_ms`.
fn snake_case(name: &str) -> String {
    let mut out = String::with_capacity(name.len() + 4);
    let mut after_lower = false;
    for c in name.trim_start_matches('-').chars() {
        match c {
            '-' | ' ' => out.push('_'),
            // camelCase: a capital after a small letter starts a word.
            c if c.is_ascii_uppercase() => {
                if after_lower {
                    out.push('_');
                }
                out.push(c.to_ascii_lowercase());
            }
            c => out.push(c),
        }
        after_lower = c.is_ascii_lowercase();
    }
    out
}

/// A JSON object in which no key is given twice. serde_json's own map keeps
/// the last of a repeated key without a word, so a scenario file giving
/// `cores` twice would run with one of the two and nobody told; read through
/// this, it is refused, naming the key.
pub struct UniqueKeys(pub serde_json::Map<String, serde_json::Value>);

impl<'de> serde::Deserialize<'de> for UniqueKeys {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_map(Keys { failed_key: None })
    }
}

/// Reads [`UniqueKeys`]; keeps, in `failed_key` if given, the key whose
/// value could not be read, which serde's error does not name.
struct Keys<'a> {
    failed_key: Option<&'a std::cell::Cell<Option<String>>>,
}

impl<'de> serde::de::Visitor<'de> for Keys<'_> {
    type Value = UniqueKeys;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON object of scenario fields, such as {\"rps\": 200}")
    }
    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut m: A) -> Result<UniqueKeys, A::Error> {
        let mut out = serde_json::Map::new();
        while let Some(key) = m.next_key::<String>()? {
            let value = match m.next_value::<serde_json::Value>() {
                Ok(value) => value,
                Err(e) => {
                    if let Some(failed) = self.failed_key {
                        failed.set(Some(key));
                    }
                    return Err(e);
                }
            };
            if out.contains_key(&key) {
                return Err(serde::de::Error::custom(format!(
                    "'{}' is given twice; give each field once",
                    clip(&key)
                )));
            }
            out.insert(key, value);
        }
        Ok(UniqueKeys(out))
    }
}

/// The fields of `s` that differ from the defaults, as a JSON object that
/// [`read_object`] reads back to `s`: a scenario written where many are
/// stored (the course's sim blocks) without the fields nobody changed.
pub fn changed_object<S: Default, U>(
    fields: &[Field<S, U>],
    s: &S,
) -> serde_json::Map<String, serde_json::Value> {
    use serde_json::Value as J;
    let default = S::default();
    let mut out = serde_json::Map::new();
    for f in fields {
        let v = (f.get)(s);
        if v == (f.get)(&default) {
            continue;
        }
        let json = match v {
            Value::Int(n) => J::from(n),
            Value::Real(x) => J::from(x),
            Value::Switch(b) => J::Bool(b),
            Value::Off => J::Null,
            Value::Choice(_) | Value::Schedule(_) => J::String(v.to_string()),
        };
        out.insert(f.name.to_owned(), json);
    }
    out
}

/// `snake_case` → `kebab-case`.
pub fn kebab(name: &str) -> String {
    name.replace('_', "-")
}

/// What a switch refuses, after the value: what it reads, in full.
const SWITCH_REFUSED: &str =
    "is not true or false; allowed true or false (on/off, yes/no and 1/0 are read too)";

/// What a switch reads a word as: `true`, `on`, `yes`, `1` are on, their
/// opposites off, in any case ("True", "YES" as people type them); `None`
/// for any other. A link's `presenter` reads the same words.
pub fn switch_value(text: &str) -> Option<bool> {
    match text.trim().to_ascii_lowercase().as_str() {
        "true" | "on" | "yes" | "1" => Some(true),
        "false" | "off" | "no" | "0" => Some(false),
        _ => None,
    }
}

/// A whole number with its thousands grouped: `18,446,744,073,709,551,615`.
fn grouped(n: u64) -> String {
    crate::text::group_digits(&n.to_string())
}

/// The shortest time above 0 a field in ms takes: 1 ns, the engine's step.
pub const MIN_TIME_MS: f64 = 1e-6;

/// A number as a range shows it: `1,000,000`, `0.5`.
fn shown(x: f64) -> String {
    if x.fract() == 0.0 && x.abs() < 1e15 {
        let out = grouped(x.abs() as u64);
        if x < 0.0 {
            format!("-{out}")
        } else {
            out
        }
    } else {
        // Short far from 1: 1e-300 written out is three hundred digits.
        crate::text::typed(x)
    }
}

impl<S: Default, U> Field<S, U> {
    /// 1 ns, the engine's step, in this field's unit, for a time in ms or
    /// µs; `None` for any other field.
    fn one_ns(&self) -> Option<f64> {
        match self.unit {
            "ms" => Some(MIN_TIME_MS),
            "µs" => Some(MIN_TIME_MS * 1000.0),
            _ => None,
        }
    }

    /// What 0 on its control means where that is more than the number,
    /// as its label says in a closing "(0 = …)": `no cap` for "Thread cap
    /// (0 = no cap)"; `None` for a label without one.
    pub fn zero_means(&self) -> Option<&'static str> {
        let (_, said) = self.label.split_once(" (0 = ")?;
        said.strip_suffix(')')
    }

    /// The command-line flag, `--queue-limit`.
    pub fn flag(&self) -> String {
        format!("--{}", kebab(self.name))
    }

    /// What the field allows, in words: `1–1,024 cores`, `one of exp, const`,
    /// `true or false`; optional fields add `(0 or none = off)`.
    pub fn allowed(&self) -> String {
        let unit = if self.unit.is_empty() {
            String::new()
        } else {
            format!(" {}", self.unit)
        };
        let base = match self.kind {
            Kind::Int { min, max } => format!("{}–{}{unit}", grouped(min), grouped(max)),
            Kind::Real { min, max } => format!("{}–{}{unit}", shown(min), shown(max)),
            Kind::Switch => "true or false".to_owned(),
            Kind::Choice(c) => format!(
                "one of {}",
                c.iter().map(|(n, _)| *n).collect::<Vec<_>>().join(", ")
            ),
            Kind::Schedule => format!(
                "time_s:rps pairs from 0 s, times increasing, e.g. 0:150,10:400,15:150 (at most {} pairs)",
                crate::schedule::MAX_POINTS
            ),
        };
        if self.optional {
            format!("{base}, or 0 / none for off")
        } else {
            base
        }
    }

    /// The default value, as text.
    pub fn default_text(&self) -> String {
        (self.get)(&S::default()).to_string()
    }

    /// `t` without the field's own unit after its number ("40 ms", "40ms"
    /// and "20 threads" for fields in ms and threads; "1 thread" too), or
    /// as it is: another unit ("40 s" for ms) is left for the number's
    /// reader to refuse, quoted whole.
    fn without_unit<'a>(&self, t: &'a str) -> &'a str {
        if !matches!(self.kind, Kind::Int { .. } | Kind::Real { .. }) || self.unit.is_empty() {
            return t;
        }
        let singular = self.unit.strip_suffix('s').filter(|_| self.unit.len() > 3);
        [Some(self.unit), singular]
            .into_iter()
            .flatten()
            .find_map(|w| {
                let cut = t.len().checked_sub(w.len())?;
                let rest = t.get(..cut)?.trim_end();
                (t.get(cut..)?.eq_ignore_ascii_case(w)
                    && rest.ends_with(|c: char| c.is_ascii_digit() || c == '.'))
                .then_some(rest)
            })
            .unwrap_or(t)
    }

    /// Reads `text` as a value of this field: the type and the choice names,
    /// not yet the range ([`Field::check`] does that). The message says what
    /// is wrong and what is allowed.
    pub fn parse(&self, text: &str) -> Result<Value, String> {
        let t = text.trim();
        // In any case: "None" and "OFF" as people type them.
        if self.optional
            && ["none", "off", "null"]
                .iter()
                .any(|w| t.eq_ignore_ascii_case(w))
        {
            return Ok(Value::Off);
        }
        // "40 ms" in a box of ms, as the lessons write a setting.
        let t = self.without_unit(t);
        // "1,000" as the help and the lessons print numbers; "2,5" refused.
        let allowed = |e: String| format!("{e}; allowed {}", self.allowed());
        let v = match self.kind {
            Kind::Int { .. } => Value::Int(crate::text::typed_whole(t).map_err(allowed)?),
            // A share (0 to 1 at most) typed as a percentage, as a lesson
            // writes one: "20 %" is 0.2 ("'20 %' is not a number" answered
            // a learner doing as lesson 12 said).
            Kind::Real { max, .. } if max <= 1.0 && t.ends_with('%') => {
                let n = t.trim_end_matches('%').trim_end();
                Value::Real(crate::text::typed_number(n).map_err(allowed)? / 100.0)
            }
            Kind::Real { .. } => Value::Real(crate::text::typed_number(t).map_err(allowed)?),
            Kind::Switch => match switch_value(t) {
                Some(on) => Value::Switch(on),
                None => return Err(format!("'{}' {}", clip(t), SWITCH_REFUSED)),
            },
            // "0" is off, as the field's help says of every optional
            // field; an empty value is refused like an empty number, not
            // read as off (`--rps-schedule "$UNSET"` ran with no schedule).
            Kind::Schedule if t == "0" && self.optional => Value::Off,
            Kind::Schedule if t.is_empty() => {
                return Err(format!("the value is empty; allowed {}", self.allowed()))
            }
            Kind::Schedule => Value::Schedule(t.parse::<Schedule>()?),
            // In any case, as a preset's name is: `--model Thread-Pool`.
            Kind::Choice(choices) => {
                match choices.iter().find(|(n, _)| n.eq_ignore_ascii_case(t)) {
                    Some((n, _)) => Value::Choice(n),
                    None => {
                        // `event_loop` as a field's name is spelt: the choice meant.
                        let typed = t.to_ascii_lowercase().replace('_', "-");
                        let near = nearest(&typed, choices.iter().map(|(n, _)| *n))
                            .map_or(String::new(), |n| format!(" (did you mean '{n}'?)"));
                        return Err(format!(
                            "'{}' is not a choice{near}; allowed {}",
                            clip(t),
                            self.allowed()
                        ));
                    }
                }
            }
        };
        Ok(self.normalise(v))
    }

    /// 0 switches an optional field off.
    fn normalise(&self, v: Value) -> Value {
        match v {
            Value::Int(0) if self.optional => Value::Off,
            Value::Real(x) if self.optional && x == 0.0 => Value::Off,
            // "-0" is 0: shown and linked as 0, not "-0".
            Value::Real(0.0) => Value::Real(0.0),
            other => other,
        }
    }

    /// A value from a number (a slider or a number box): rounded for whole
    /// numbers, 0 switches an optional field off. `None` for a choice or a
    /// number that is not finite or below 0 for a count.
    pub fn from_f64(&self, x: f64) -> Option<Value> {
        if !x.is_finite() {
            return None;
        }
        let v = match self.kind {
            Kind::Int { .. } if x >= 0.0 => Value::Int(x.round() as u64),
            Kind::Int { .. } => return None,
            Kind::Real { .. } => Value::Real(x),
            Kind::Switch => Value::Switch(x != 0.0),
            Kind::Choice(_) | Kind::Schedule => return None,
        };
        Some(self.normalise(v))
    }

    /// The message for a JSON value of the wrong kind for this field
    /// (`true` for a count, a list for a schedule), `shown` as read.
    fn not_of_kind(&self, shown: &str) -> String {
        let kind = match self.kind {
            Kind::Int { .. } => "a whole number",
            Kind::Real { .. } => "a number",
            Kind::Schedule => "a schedule",
            Kind::Switch => return format!("{shown} {SWITCH_REFUSED}"),
            Kind::Choice(_) => {
                return format!("{shown} is not a choice; allowed {}", self.allowed())
            }
        };
        format!("{shown} is not {kind}; allowed {}", self.allowed())
    }

    /// The message for a number out of the field's range whose digits are
    /// not known as typed (serde read them as a float, or could not read
    /// them at all): said without it.
    fn out_of_range_unshown(&self) -> String {
        format!("the number is out of range; allowed {}", self.allowed())
    }

    /// Is `v` within the field's range? The message names the value and the
    /// allowed range (`0 is out of range; allowed 1–1,024 cores`).
    pub fn check(&self, v: Value) -> Result<(), String> {
        let out = |shown_v: String| {
            Err(format!(
                "{shown_v} is out of range; allowed {}",
                self.allowed()
            ))
        };
        match (self.kind, v) {
            (_, Value::Off) if self.optional => Ok(()),
            (Kind::Int { min, max }, Value::Int(n)) if n < min || n > max => out(grouped(n)),
            (Kind::Real { .. }, Value::Real(x)) if !x.is_finite() => {
                Err(format!("not a number; allowed {}", self.allowed()))
            }
            (Kind::Real { min, max }, Value::Real(x)) if x < min || x > max => out(shown(x)),
            // The engine keeps time in whole nanoseconds: a shorter time
            // would run as 0 while theory took it as given (1e-100 ms
            // gave theory a NaN).
            (Kind::Real { min, max }, Value::Real(x))
                if min == 0.0 && x > 0.0 && self.one_ns().is_some_and(|ns| x < ns) =>
            {
                let (unit, ns) = (self.unit, self.one_ns().unwrap_or_default());
                Err(format!(
                    "{} {unit} is shorter than the simulator's step of 1 ns; allowed 0, or {ns} {unit} and more (up to {} {unit})",
                    shown(x),
                    shown(max),
                ))
            }
            (Kind::Int { .. }, Value::Int(_))
            | (Kind::Real { .. }, Value::Real(_))
            | (Kind::Switch, Value::Switch(_))
            | (Kind::Choice(_), Value::Choice(_))
            | (Kind::Schedule, Value::Schedule(_)) => Ok(()),
            (_, other) => Err(format!(
                "{other} is not allowed; allowed {}",
                self.allowed()
            )),
        }
    }

    /// Reads a JSON value as a value of this field: a number for a count or
    /// a time (a whole one for a count), `true`/`false` for a switch, a
    /// choice's name or a schedule as a string, `null` for an optional field
    /// that is off; a string is also read as text is ([`Field::parse`]). The
    /// range is not checked here (`validate` does that for the whole scenario).
    pub fn from_json(&self, v: &serde_json::Value) -> Result<Value, String> {
        use serde_json::Value as J;
        let wrong = || {
            // A list or an object named as such: clipped, its brackets and
            // quotes would show as '?'.
            let shown = match v {
                J::Array(_) => "a list".to_owned(),
                J::Object(_) => "an object".to_owned(),
                _ => clip(&v.to_string()),
            };
            self.not_of_kind(&shown)
        };
        let number = match (self.kind, v) {
            (_, J::String(t)) => return self.parse(t),
            (_, J::Null) if self.optional => return Ok(Value::Off),
            // 0 is off for a schedule, as for every optional field.
            (Kind::Schedule, J::Number(n)) if self.optional && n.as_f64() == Some(0.0) => {
                return Ok(Value::Off)
            }
            (Kind::Int { .. }, J::Number(n)) => match (n.as_u64(), n.as_f64()) {
                (Some(k), _) => Ok(Value::Int(k)),
                // A whole number written as a float (`8.0`, or after a lesson's
                // `{param}` substitution) is that count.
                // (`u64::MAX as f64` is 2^64, one past the largest count: a
                // seed of 2^64 was read as 2^64 − 1 without a word.)
                (None, Some(x)) if x >= 0.0 && x.fract() == 0.0 && x < u64::MAX as f64 => {
                    Ok(Value::Int(x as u64))
                }
                // 2^64 and past: serde has read its digits as a float, so
                // they are not shown ("1e+23" of 99999999999999999999999).
                (None, Some(x)) if x >= u64::MAX as f64 => Err(self.out_of_range_unshown()),
                // `{"seed": -1}`: below every count's range, as the flag says
                // of `--seed -1`.
                (None, Some(x)) if x < 0.0 && x.fract() == 0.0 => Err(format!(
                    "{} is out of range; allowed {}",
                    clip(&v.to_string()),
                    self.allowed()
                )),
                // `{"threads": 2.5}`: said as the flag says it.
                (None, Some(x)) if x.fract() != 0.0 => Err(format!(
                    "{} is not a whole number; allowed {}",
                    clip(&v.to_string()),
                    self.allowed()
                )),
                _ => Err(wrong()),
            },
            (Kind::Real { .. }, J::Number(n)) => n.as_f64().map(Value::Real).ok_or_else(wrong),
            (Kind::Switch, J::Bool(b)) => Ok(Value::Switch(*b)),
            // 1 and 0 (1.0 too), as a flag or a link's "1" is read.
            (Kind::Switch, J::Number(n)) if matches!(n.as_f64(), Some(x) if x == 0.0 || x == 1.0) => {
                Ok(Value::Switch(n.as_f64() == Some(1.0)))
            }
            _ => Err(wrong()),
        };
        // 0 switches an optional field off, as the same 0 typed does
        // (`{"queue_limit": 0}` was refused with a message that allows 0).
        number.map(|v| self.normalise(v))
    }

    /// Sets the field of `s` from text: parsed, range-checked and written,
    /// or the message.
    pub fn set_text(&self, s: &mut S, text: &str) -> Result<(), String> {
        let v = self.parse(text)?;
        self.check(v)?;
        if (self.set)(s, v) {
            Ok(())
        } else {
            Err(format!(
                "'{}' is not allowed; allowed {}",
                clip(text),
                self.allowed()
            ))
        }
    }

    /// The value as a number (see [`Value::as_f64`]); 0 for a choice.
    pub fn number(&self, s: &S) -> f64 {
        (self.get)(s).as_f64().unwrap_or(0.0)
    }

    /// The largest value the field allows, for a number box.
    pub fn max(&self) -> f64 {
        match self.kind {
            Kind::Int { max, .. } => max as f64,
            Kind::Real { max, .. } => max,
            Kind::Switch => 1.0,
            Kind::Choice(_) | Kind::Schedule => 0.0,
        }
    }

    /// The smallest value a number box takes (0 for an optional field: off).
    pub fn min(&self) -> f64 {
        if self.optional {
            return 0.0;
        }
        match self.kind {
            Kind::Int { min, .. } => min as f64,
            Kind::Real { min, .. } => min,
            _ => 0.0,
        }
    }

    /// The choices of a select, as (name, label); empty for other fields.
    pub fn choices(&self) -> &'static [(&'static str, &'static str)] {
        match self.kind {
            Kind::Choice(c) => c,
            _ => &[],
        }
    }
}

/// How a Rust value of a field's type becomes a [`Value`] and back. The
/// `scenario!` macro uses it to write each field's `get` and `set`.
pub trait FieldType: Sized {
    /// True for `Option<T>`: `none` (or 0) switches the field off.
    const OPTIONAL: bool = false;
    /// The value.
    fn to_value(&self) -> Value;
    /// Back from a value; `None` when the value has another type.
    fn from_value(v: Value) -> Option<Self>;
}

impl FieldType for u32 {
    fn to_value(&self) -> Value {
        Value::Int(u64::from(*self))
    }
    fn from_value(v: Value) -> Option<Self> {
        match v {
            Value::Int(n) => u32::try_from(n).ok(),
            _ => None,
        }
    }
}

impl FieldType for u64 {
    fn to_value(&self) -> Value {
        Value::Int(*self)
    }
    fn from_value(v: Value) -> Option<Self> {
        match v {
            Value::Int(n) => Some(n),
            _ => None,
        }
    }
}

impl FieldType for f64 {
    fn to_value(&self) -> Value {
        Value::Real(*self)
    }
    fn from_value(v: Value) -> Option<Self> {
        match v {
            Value::Real(x) => Some(x),
            Value::Int(n) => Some(n as f64),
            _ => None,
        }
    }
}

impl FieldType for Schedule {
    fn to_value(&self) -> Value {
        Value::Schedule(*self)
    }
    fn from_value(v: Value) -> Option<Self> {
        match v {
            Value::Schedule(s) => Some(s),
            _ => None,
        }
    }
}

impl FieldType for bool {
    fn to_value(&self) -> Value {
        Value::Switch(*self)
    }
    fn from_value(v: Value) -> Option<Self> {
        match v {
            Value::Switch(b) => Some(b),
            _ => None,
        }
    }
}

impl<T: FieldType> FieldType for Option<T> {
    const OPTIONAL: bool = true;
    fn to_value(&self) -> Value {
        self.as_ref().map_or(Value::Off, T::to_value)
    }
    fn from_value(v: Value) -> Option<Self> {
        match v {
            Value::Off => Some(None),
            other => T::from_value(other).map(Some),
        }
    }
}

/// Declares a choice enum once: its variants, each with the name the URL,
/// the command line and JSON use, and the label the learner reads. Writes
/// the enum, `name`, `label`, `from_name`, `ALL`, `CHOICES`, serde by name,
/// and [`FieldType`].
#[macro_export]
macro_rules! choice_enum {
    (
        $(#[$meta:meta])*
        pub enum $Enum:ident {
            $( $(#[$vmeta:meta])* $Variant:ident = $name:literal, $label:literal; )+
        }
    ) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum $Enum {
            $( $(#[$vmeta])* $Variant, )+
        }

        impl $Enum {
            /// Every variant, in the order choices are shown.
            pub const ALL: &'static [$Enum] = &[$($Enum::$Variant),+];
            /// (name, label) of every variant, in the order shown.
            pub const CHOICES: &'static [(&'static str, &'static str)] = &[$(($name, $label)),+];

            /// The name as URLs, the command line and JSON write it.
            pub fn name(self) -> &'static str {
                match self { $($Enum::$Variant => $name),+ }
            }

            /// What the learner reads.
            pub fn label(self) -> &'static str {
                match self { $($Enum::$Variant => $label),+ }
            }

            /// The variant with that name.
            /// The variant with that name, in any case (`Thread-Pool`).
            pub fn from_name(name: &str) -> Option<$Enum> {
                $(if $name.eq_ignore_ascii_case(name) { return Some($Enum::$Variant); })+
                None
            }
        }

        impl serde::Serialize for $Enum {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.serialize_str(self.name())
            }
        }

        impl<'de> serde::Deserialize<'de> for $Enum {
            fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                let text = <std::borrow::Cow<'de, str>>::deserialize(d)?;
                $Enum::from_name(&text).ok_or_else(|| {
                    serde::de::Error::custom(format!(
                        "'{}' is not a choice; allowed one of {}",
                        $crate::fields::clip(&text),
                        [$($name),+].join(", ")
                    ))
                })
            }
        }

        impl $crate::fields::FieldType for $Enum {
            fn to_value(&self) -> $crate::fields::Value {
                $crate::fields::Value::Choice(self.name())
            }
            fn from_value(v: $crate::fields::Value) -> Option<Self> {
                match v {
                    $crate::fields::Value::Choice(n) => $Enum::from_name(n),
                    _ => None,
                }
            }
        }
    };
}

/// Declares the scenario from one list of field entries: writes the
/// `Scenario` struct (each field documented by its help), its `Default`, and
/// `FIELDS`, the table every reader is generated from. See
/// [`crate::scenario`] for the list.
#[macro_export]
macro_rules! scenario_fields {
    (
        $(#[$meta:meta])*
        pub struct $Scenario:ident;
        $(
            $name:ident : $ty:ty = $default:expr => {
                group: $group:expr,
                label: $label:literal,
                unit: $unit:literal,
                kind: $kind:expr,
                used: $used:expr,
                control: $control:expr,
                playground: $pg:literal,
                help: $help:literal $(,)?
            }
        )+
    ) => {
        $(#[$meta])*
        #[derive(Clone, Debug, PartialEq, serde::Serialize)]
        pub struct $Scenario {
            $( #[doc = $help] pub $name: $ty, )+
        }

        impl Default for $Scenario {
            fn default() -> Self {
                $Scenario { $( $name: $default, )+ }
            }
        }

        /// Read from a JSON object by the field table ([`read_object`](crate::fields::read_object)):
        /// missing fields take their defaults, unknown ones are refused by name.
        impl<'de> serde::Deserialize<'de> for $Scenario {
            fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                let obj = $crate::fields::UniqueKeys::deserialize(d)?.0;
                $crate::fields::read_object(FIELDS, &obj).map_err(serde::de::Error::custom)
            }
        }

        /// Every scenario field, in the order the playground shows them.
        pub static FIELDS: &[Field] = &[
            $(
                $crate::fields::Field {
                    name: stringify!($name),
                    label: $label,
                    unit: $unit,
                    help: $help,
                    group: $group,
                    kind: $kind,
                    optional: <$ty as $crate::fields::FieldType>::OPTIONAL,
                    used: $used,
                    control: $control,
                    in_playground: $pg,
                    get: |s| $crate::fields::FieldType::to_value(&s.$name),
                    set: |s, v| match <$ty as $crate::fields::FieldType>::from_value(v) {
                        Some(x) => {
                            s.$name = x;
                            true
                        }
                        None => false,
                    },
                },
            )+
        ];
    };
}

#[cfg(test)]
mod tests {
    use crate::scenario::{Scenario, FIELDS};

    fn field(name: &str) -> &'static crate::scenario::Field {
        FIELDS.iter().find(|f| f.name == name).unwrap()
    }

    /// A slider whose 0 switches its field off says in its label what 0
    /// means, so a screen reader reads "no cap" for the thumb at 0, and the
    /// label ends with it.
    #[test]
    fn a_slider_whose_zero_switches_its_field_off_says_what_zero_means() {
        for f in FIELDS {
            if let super::Control::Slider { min, .. } = f.control {
                if f.optional && min == 0.0 {
                    assert!(f.zero_means().is_some(), "{}: {}", f.name, f.label);
                }
            }
        }
        assert_eq!(field("thread_cap").zero_means(), Some("no cap"));
        assert_eq!(field("loops").zero_means(), Some("one per core"));
        assert_eq!(field("cores").zero_means(), None);
    }

    /// `-2` in the Cores box is a whole number below the range, and said so
    /// with the range (it said "'-2' is not a whole number"), the number
    /// bare, as a decimal box says it.
    #[test]
    fn a_negative_whole_number_is_out_of_range_not_unreadable() {
        let mut s = Scenario::default();
        let cores = field("cores");
        assert_eq!(
            cores.set_text(&mut s, "-2"),
            Err("-2 is out of range; allowed 1–1,024 cores".to_owned())
        );
        assert_eq!(
            cores.parse("-99999999999999999999999"),
            Err("-99999999999999999999999 is out of range; allowed 1–1,024 cores".to_owned())
        );
        // A whole-number box and a decimal box say a number alike, bare:
        // one quoted it ("'-3' is out of range") and the other did not.
        let said = |name: &str| {
            field(name)
                .set_text(&mut Scenario::default(), "-3")
                .unwrap_err()
        };
        assert!(said("breaker_after").starts_with("-3 is out of range; allowed 1–100,000 failures"));
        assert!(said("breaker_open_ms").starts_with("-3 is out of range; allowed 0–3,600,000 ms"));
        // "-0" is 0: in range where 0 is allowed, off for an optional field.
        assert_eq!(field("loops").parse("-0"), Ok(super::Value::Int(0)));
        let Ok(super::Value::Real(zero)) = field("wait_ms").parse("-0") else {
            panic!("wait_ms reads -0");
        };
        assert!(zero.is_sign_positive(), "-0 ms is 0 ms, not -0");
        assert_eq!(field("queue_limit").parse("-0"), Ok(super::Value::Off));
        assert!(cores
            .set_text(&mut s, "-0")
            .unwrap_err()
            .contains("0 is out of range"));
        // What is not a whole number is still said so.
        for t in ["-2.5", "2.5", "-", "--2", "-x", "abc"] {
            let e = cores.parse(t).unwrap_err();
            assert!(
                e.contains("is not a whole number; allowed 1–1,024"),
                "{t}: {e}"
            );
        }
        assert_eq!(s, Scenario::default(), "nothing refused was set");
        // A whole number written as a decimal is that number, as a file's
        // 40.0 is ("'40.0' is not a whole number" was not true).
        assert_eq!(cores.parse("40.0"), Ok(super::Value::Int(40)));
        assert_eq!(cores.parse("1e3"), Ok(super::Value::Int(1000)));
        assert_eq!(
            field("threads").parse("1,000.0"),
            Ok(super::Value::Int(1000))
        );
        for t in ["1e400", "-3.0", "99999999999999999999.0"] {
            let e = cores.parse(t).unwrap_err();
            assert!(e.contains("is out of range; allowed 1–1,024"), "{t}: {e}");
        }
    }

    /// A share typed as a percentage, as the lessons write shares, is that
    /// share ("20 %" is 0.2); other numbers keep their own reading, and a
    /// percentage past the range is said with it.
    #[test]
    fn a_share_reads_a_percentage() {
        let share = field("heavy_share");
        for t in ["20 %", "20%", " 20 % "] {
            let Ok(super::Value::Real(x)) = share.parse(t) else {
                panic!("{t}");
            };
            assert!((x - 0.2).abs() < 1e-12, "{t}: {x}");
        }
        assert_eq!(share.parse("0.2"), Ok(super::Value::Real(0.2)));
        let mut s = Scenario::default();
        assert!(share
            .set_text(&mut s, "150 %")
            .unwrap_err()
            .contains("out of range; allowed 0–1"));
        assert!(share
            .parse("x %")
            .unwrap_err()
            .contains("'x' is not a number"));
        // Not where a field is no share: "20 %" of a rate is no number.
        assert!(field("rps").parse("20 %").is_err());
    }

    /// A number typed with its field's own unit is that number ("40 ms"
    /// in a box of ms was "not a number"); another unit is refused, the
    /// text quoted whole.
    #[test]
    fn a_number_reads_with_its_fields_own_unit() {
        let real = |name: &str, t: &str| match field(name).parse(t) {
            Ok(super::Value::Real(x)) => Ok(x),
            Ok(v) => panic!("{v:?}"),
            Err(e) => Err(e),
        };
        for t in ["40 ms", "40ms", "40 MS", "1,000 ms"] {
            assert!(
                real("cpu_ms", t).is_ok_and(|x| x == 40.0 || x == 1000.0),
                "{t}"
            );
        }
        assert_eq!(
            field("threads").parse("20 threads"),
            Ok(super::Value::Int(20))
        );
        assert_eq!(field("threads").parse("1 thread"), Ok(super::Value::Int(1)));
        assert_eq!(field("cores").parse("4 cores"), Ok(super::Value::Int(4)));
        assert_eq!(real("rps", "150 rps"), Ok(150.0));
        let e = real("cpu_ms", "40 s").unwrap_err();
        assert!(e.starts_with("'40 s' is not a number; allowed 0–"), "{e}");
        assert!(real("cpu_ms", "ms")
            .unwrap_err()
            .starts_with("'ms' is not a number"));
    }

    /// A switch reads 1/0, on/off and yes/no beside true/false, and a
    /// value it cannot read is told all of them (the message named only
    /// true and false, so `--drop-hopeless 1` looked like a lucky guess).
    #[test]
    fn a_switch_says_every_word_it_reads() {
        let f = field("drop_hopeless");
        for (t, on) in [
            ("1", true),
            ("yes", true),
            ("on", true),
            ("0", false),
            ("no", false),
            ("True", true),
            ("OFF", false),
        ] {
            assert_eq!(f.parse(t), Ok(super::Value::Switch(on)), "{t}");
        }
        let refused =
            "is not true or false; allowed true or false (on/off, yes/no and 1/0 are read too)";
        assert_eq!(f.parse("maybe"), Err(format!("'maybe' {refused}")));
        // A file's JSON 1 and 0 are read as a flag's "1" and "0" are (a
        // file refused `"offload_heavy": 1` that a link took).
        assert_eq!(
            f.from_json(&serde_json::json!(1)),
            Ok(super::Value::Switch(true))
        );
        assert_eq!(
            f.from_json(&serde_json::json!(0)),
            Ok(super::Value::Switch(false))
        );
        assert_eq!(
            f.from_json(&serde_json::json!(1.0)),
            Ok(super::Value::Switch(true))
        );
        assert_eq!(
            f.from_json(&serde_json::json!(2)),
            Err(format!("2 {refused}"))
        );
    }

    /// A choice is read in any case, as a preset's name is (`--model
    /// Thread-Pool` was refused), and a name it does not know is told
    /// what it allows in the `; allowed` form every field uses.
    #[test]
    fn a_choice_is_read_in_any_case() {
        let f = field("model");
        assert_eq!(
            f.parse("Thread-Pool"),
            Ok(super::Value::Choice("thread-pool"))
        );
        assert_eq!(
            f.from_json(&serde_json::json!("EVENT-LOOP")),
            Ok(super::Value::Choice("event-loop"))
        );
        assert_eq!(
            crate::scenario::Model::from_name("Event-Loop"),
            Some(crate::scenario::Model::EventLoop)
        );
        let e = f.parse("fibers").unwrap_err();
        assert!(
            e.starts_with("'fibers' is not a choice; allowed one of thread-per-request, "),
            "{e}"
        );
        // Spelt as a field's name is, or a letter off: the choice meant.
        let e = f.parse("event_loop").unwrap_err();
        assert!(
            e.starts_with(
                "'event_loop' is not a choice (did you mean 'event-loop'?); allowed one of "
            ),
            "{e}"
        );
    }

    /// A reader's error carries the field it is about apart from its
    /// words, so no caller has to find the field in the text.
    #[test]
    fn a_read_error_names_its_field_apart() {
        use crate::scenario::{Scenario, FIELDS};
        let e = super::read_text::<Scenario, _>(FIELDS, r#"{"cores": true}"#).unwrap_err();
        assert_eq!(e.field, Some("cores"));
        assert!(e.message.starts_with("true is not a whole number"), "{e}");
        assert!(e.to_string().starts_with("cores: true is not"), "{e}");
        // A number no float holds, named by its field.
        let e = super::read_text::<Scenario, _>(FIELDS, r#"{"rps": 1e400}"#).unwrap_err();
        assert_eq!(e.field, Some("rps"));
        // A key that is no field, or JSON that is not, names none.
        let e = super::read_text::<Scenario, _>(FIELDS, r#"{"cores_x": 1}"#).unwrap_err();
        assert_eq!(e.field, None);
        let e = super::read_text::<Scenario, _>(FIELDS, "{").unwrap_err();
        assert_eq!(e.field, None);
    }

    /// A count out of range is shown grouped, as its range is
    /// ("100001 is out of range; allowed 1–100,000").
    #[test]
    fn a_count_out_of_range_is_grouped_as_its_range() {
        let f = field("threads");
        let e = f.check(super::Value::Int(100_001)).unwrap_err();
        assert!(
            e.starts_with("100,001 is out of range; allowed 1–100,000"),
            "{e}"
        );
    }

    /// A time under the engine's 1 ns step is refused, with the smallest
    /// allowed (1e-100 ms ran as 0 ns while theory printed NaN), and a
    /// number far outside a range is written short.
    #[test]
    fn a_time_under_a_nanosecond_is_refused_and_long_numbers_are_short() {
        let mut s = Scenario::default();
        for t in ["1e-100", "0.0000009", "5e-324"] {
            let e = field("wait_ms").set_text(&mut s, t).unwrap_err();
            assert!(
                e.contains("shorter than the simulator's step of 1 ns; allowed 0, or 0.000001 ms and more (up to 3,600,000 ms)"),
                "{t}: {e}"
            );
            assert!(e.len() < 140, "{e}");
        }
        for t in ["0", "0.000001", "0.5"] {
            assert_eq!(field("wait_ms").set_text(&mut s, t), Ok(()), "{t}");
        }
        // A switch cost is in µs: 1 ns is 0.001 µs.
        let e = field("switch_us").set_text(&mut s, "1e-100").unwrap_err();
        assert_eq!(e, "1e-100 µs is shorter than the simulator's step of 1 ns; allowed 0, or 0.001 µs and more (up to 10,000 µs)");
        assert_eq!(field("switch_us").set_text(&mut s, "0.001"), Ok(()));
        assert_eq!(
            field("rps").set_text(&mut s, "1e308"),
            Err("1e308 is out of range; allowed 0.001–1,000,000 rps".to_owned())
        );
        assert_eq!(
            field("duration_s").set_text(&mut s, "1e-300").unwrap_err(),
            format!(
                "1e-300 is out of range; allowed {}",
                field("duration_s").allowed()
            )
        );
        // Too close to 0 for a float: said as typed, not as the 0 it
        // would be read as ("0 is out of range" of "rps=1e-400"), and not
        // taken as 0 where 0 is allowed.
        assert_eq!(
            field("rps").set_text(&mut s, "1e-400"),
            Err("'1e-400' is too close to 0 to hold (it would be read as 0); allowed 0.001–1,000,000 rps".to_owned())
        );
        assert!(field("wait_ms")
            .set_text(&mut s, "0.5e-400")
            .unwrap_err()
            .starts_with("'0.5e-400' is too close to 0 to hold"));
        assert_eq!(field("wait_ms").set_text(&mut s, "0e-400"), Ok(()));
        // Counts too: a line limit of 1e-400 switched the limit off.
        for name in ["threads", "queue_limit"] {
            let e = field(name).set_text(&mut s, "1e-400").unwrap_err();
            assert!(
                e.starts_with("'1e-400' is too close to 0 to hold"),
                "{name}: {e}"
            );
        }
    }

    /// 0 in a scenario file switches an optional field off, as typed "0"
    /// does: it was refused with "0 is out of range; allowed …, or 0 /
    /// none for off".
    #[test]
    fn a_json_0_switches_an_optional_field_off() {
        for name in [
            "queue_limit",
            "thread_cap",
            "timeout_ms",
            "hedge_after_ms",
            "requests",
            "rps_schedule",
        ] {
            let f = field(name);
            for v in [serde_json::json!(0), serde_json::json!(0.0)] {
                assert_eq!(f.from_json(&v), Ok(super::Value::Off), "{name}: {v}");
            }
        }
        // A field that is not optional keeps 0 as 0, for its range to judge.
        assert_eq!(
            field("loops").from_json(&serde_json::json!(0)),
            Ok(super::Value::Int(0))
        );
    }

    /// A schedule is off for "0" and "none", as the help of every optional
    /// field says; an empty one is refused with what is allowed (it was
    /// read as off, so `--rps-schedule ''` ran silently without one, and
    /// "0" was refused as a malformed step).
    #[test]
    fn a_schedule_is_off_for_0_or_none_and_refused_when_empty() {
        let f = field("rps_schedule");
        assert!(
            f.allowed().ends_with("or 0 / none for off"),
            "{}",
            f.allowed()
        );
        for t in ["0", "none", " none "] {
            assert_eq!(f.parse(t), Ok(super::Value::Off), "{t}");
        }
        for t in ["", "  "] {
            let e = f.parse(t).unwrap_err();
            assert!(
                e.starts_with("the value is empty; allowed time_s:rps pairs"),
                "{t:?}: {e}"
            );
        }
        assert!(matches!(
            f.parse("0:150,10:400"),
            Ok(super::Value::Schedule(_))
        ));
    }
}
