//! Build time: lesson files → [`Course`]. Every mistake in a lesson is an
//! error here, with the file and what is wrong, so a broken lesson fails the
//! build instead of reaching a learner.

use crate::exercise::{scenario_from_fields, Exercise, Kind, CHECK_FIELDS};
use crate::lesson::{Course, Lesson, Segment, SimBlock, VIEWS};
use crate::math::math_to_mathml;
use std::collections::BTreeSet;
use tellers_sim::presets::{preset, preset_names};
use tellers_sim::Scenario;

/// Seeds every exercise is tried with at build time.
const TRY_SEEDS: &[&str] = &["", "a/1", "b/2", "c/3", "d/4", "e/5", "f/6", "g/7"];

fn markdown(md: &str) -> String {
    use pulldown_cmark::{html, Options, Parser};
    let md = math_to_mathml(md);
    let mut out = String::new();
    html::push_html(&mut out, Parser::new_ext(&md, Options::ENABLE_TABLES));
    out
}

fn sim_block(json: &str) -> Result<SimBlock, String> {
    let v: serde_json::Value =
        serde_json::from_str(json).map_err(|e| format!("sim block is not JSON: {e}"))?;
    let mut obj = v
        .as_object()
        .cloned()
        .ok_or("sim block must be a JSON object")?;
    let take_str = |obj: &mut serde_json::Map<String, serde_json::Value>,
                    k: &str|
     -> Result<Option<String>, String> {
        match obj.remove(k) {
            None => Ok(None),
            Some(serde_json::Value::String(s)) => Ok(Some(s)),
            Some(other) => Err(format!("sim block: '{k}' must be a string, not {other}")),
        }
    };
    let preset_name = take_str(&mut obj, "preset")?;
    let view = take_str(&mut obj, "view")?.unwrap_or_else(|| "tellers".into());
    let caption = take_str(&mut obj, "caption")?.unwrap_or_default();
    let sliders: Vec<String> = match obj.remove("sliders") {
        None => vec![],
        Some(v) => serde_json::from_value(v)
            .map_err(|_| "sim block: 'sliders' must be a list of field names")?,
    };
    if !VIEWS.contains(&view.as_str()) {
        return Err(format!(
            "sim block: unknown view '{view}'; allowed: {}",
            VIEWS.join(", ")
        ));
    }
    let base = match &preset_name {
        Some(p) => preset(p).ok_or_else(|| {
            format!(
                "sim block: no preset '{p}'; allowed: {}",
                preset_names().join(", ")
            )
        })?,
        None => Scenario::default(),
    };
    let mut fields = serde_json::to_value(&base)
        .expect("a scenario serialises")
        .as_object()
        .cloned()
        .expect("an object");
    // A slider is a field the simulator's field table gives a control.
    for f in &sliders {
        match Scenario::field(f) {
            Some(field) if !matches!(field.control, tellers_sim::fields::Control::None) => {}
            Some(_) => {
                return Err(format!(
                    "sim block: '{f}' has no control; sliders can be: {}",
                    slider_names().join(", ")
                ))
            }
            None => return Err(format!("sim block: slider '{f}' is not a scenario field")),
        }
    }
    fields.extend(obj);
    let scenario = scenario_from_fields(fields).map_err(|e| format!("sim block: {e}"))?;
    Ok(SimBlock {
        scenario,
        preset: preset_name,
        view,
        caption,
        sliders,
    })
}

fn exercise(toml_text: &str) -> Result<Exercise, String> {
    let ex: Exercise = toml::from_str(toml_text).map_err(|e| format!("exercise block: {e}"))?;
    let at = |msg: String| format!("exercise '{}': {msg}", ex.id);
    if ex.hints.is_empty() {
        return Err(at("give at least one hint".into()));
    }
    match ex.kind {
        Kind::Numeric => {
            if ex.answer.is_none() || ex.unit.is_none() || ex.tolerance.is_none() {
                return Err(at(
                    "a numeric exercise needs answer, unit and tolerance".into()
                ));
            }
            if ex.solution.is_empty() {
                return Err(at("a numeric exercise needs a worked solution".into()));
            }
            for (name, [lo, hi, step]) in &ex.params {
                if !(lo <= hi && *step > 0.0) {
                    return Err(at(format!(
                        "param '{name}' needs [min, max, step] with min ≤ max and step > 0"
                    )));
                }
            }
        }
        Kind::Choice | Kind::Diagnosis => {
            let n = ex.options.len();
            if n < 2 || ex.correct.is_none_or(|c| c >= n) {
                return Err(at(
                    "needs at least two options and a correct index among them".into(),
                ));
            }
            if !ex.explain.is_empty() && ex.explain.len() != n {
                return Err(at(format!(
                    "has {n} options but {} explanations",
                    ex.explain.len()
                )));
            }
        }
    }
    if let Some(f) = &ex.check_field {
        if !CHECK_FIELDS.contains(&f.as_str()) {
            return Err(at(format!(
                "check_field '{f}' is not one of {}",
                CHECK_FIELDS.join(", ")
            )));
        }
    }
    for seed in TRY_SEEDS {
        let v = ex.variant(seed).map_err(&at)?;
        if let Some(a) = v.answer {
            if !a.is_finite() {
                return Err(at(format!(
                    "the answer is not a finite number for {:?}",
                    v.vars
                )));
            }
        }
        if let Some(Err(e)) = ex.check_scenario(&v.vars) {
            return Err(at(format!("check scenario: {e}")));
        }
    }
    Ok(ex)
}

/// Parse one lesson file. `file_name` is like `04-littles-law.md`.
pub fn parse_lesson(file_name: &str, text: &str) -> Result<Lesson, String> {
    let at = |msg: String| format!("lessons/{file_name}: {msg}");
    let stem = file_name
        .strip_suffix(".md")
        .ok_or_else(|| at("not a .md file".into()))?;
    let (num, slug) = stem
        .split_once('-')
        .ok_or_else(|| at("name it NN-slug.md".into()))?;
    let number: u32 = num.parse().map_err(|_| at("name it NN-slug.md".into()))?;
    let body = text
        .strip_prefix("---\n")
        .ok_or_else(|| at("starts without front matter ('---')".into()))?;
    let (front, body) = body
        .split_once("\n---\n")
        .ok_or_else(|| at("front matter is not closed".into()))?;
    let mut title = None;
    let mut summary = None;
    for line in front.lines() {
        match line.split_once(':') {
            Some(("title", v)) => title = Some(v.trim().to_string()),
            Some(("summary", v)) => summary = Some(v.trim().to_string()),
            _ => return Err(at(format!("unknown front matter line '{line}'"))),
        }
    }
    let mut segments = Vec::new();
    let mut md = String::new();
    let mut lines = body.lines().enumerate();
    let flush = |md: &mut String, segments: &mut Vec<Segment>| {
        if !md.trim().is_empty() {
            segments.push(Segment::Html { html: markdown(md) });
        }
        md.clear();
    };
    while let Some((n, line)) = lines.next() {
        let trimmed = line.trim_end();
        let block_end =
            |end: &str, lines: &mut dyn Iterator<Item = (usize, &str)>| -> Result<String, String> {
                let mut inner = String::new();
                for (_, l) in lines {
                    if l.trim_end() == end {
                        return Ok(inner);
                    }
                    inner.push_str(l);
                    inner.push('\n');
                }
                Err(format!("line {}: block is not closed with '{end}'", n + 1))
            };
        match trimmed {
            "```sim" => {
                flush(&mut md, &mut segments);
                let inner = block_end("```", &mut lines).map_err(&at)?;
                segments.push(Segment::Sim(
                    sim_block(&inner).map_err(|e| at(format!("line {}: {e}", n + 1)))?,
                ));
            }
            "```exercise" => {
                flush(&mut md, &mut segments);
                let inner = block_end("```", &mut lines).map_err(&at)?;
                segments.push(Segment::Exercise(
                    exercise(&inner).map_err(|e| at(format!("line {}: {e}", n + 1)))?,
                ));
            }
            "::: predict" => {
                flush(&mut md, &mut segments);
                let inner = block_end(":::", &mut lines).map_err(&at)?;
                segments.push(Segment::Predict {
                    html: markdown(&inner),
                });
            }
            t if t.starts_with("```sim")
                || t.starts_with("```exercise")
                || t.starts_with(":::") =>
            {
                return Err(at(format!("line {}: unknown block '{t}'", n + 1)));
            }
            _ => {
                md.push_str(line);
                md.push('\n');
            }
        }
    }
    flush(&mut md, &mut segments);
    Ok(Lesson {
        slug: slug.to_string(),
        number,
        title: title.ok_or_else(|| at("front matter has no title".into()))?,
        summary: summary.ok_or_else(|| at("front matter has no summary".into()))?,
        segments,
    })
}

/// Parse every `NN-slug.md` in `dir`, in order, and check the course as a
/// whole: numbers 1, 2, 3… without gaps, unique slugs and exercise ids.
pub fn parse_course(dir: &std::path::Path) -> Result<Course, String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .map_err(|e| format!("cannot read {}: {e}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.file_name().to_string_lossy().into_owned()))
        .filter(|n| n.ends_with(".md") && n.starts_with(|c: char| c.is_ascii_digit()))
        .collect();
    names.sort();
    let mut lessons = Vec::new();
    for name in &names {
        let text =
            std::fs::read_to_string(dir.join(name)).map_err(|e| format!("lessons/{name}: {e}"))?;
        lessons.push(parse_lesson(name, &text)?);
    }
    let mut ids = BTreeSet::new();
    for (i, l) in lessons.iter().enumerate() {
        if l.number != i as u32 + 1 {
            return Err(format!(
                "lesson '{}' is number {}, expected {}",
                l.slug,
                l.number,
                i + 1
            ));
        }
        for e in l.exercises() {
            if !ids.insert(e.id.clone()) {
                return Err(format!("exercise id '{}' is used twice", e.id));
            }
        }
    }
    Ok(Course { lessons })
}

/// The course in `dir` as the JSON the app fetches, and the file name it
/// is served under: `course-<hash>.json`, so a browser never keeps an old
/// course beside a new app.
pub fn compile_course(dir: &std::path::Path) -> Result<(String, String), String> {
    let course = parse_course(dir)?;
    let json = serde_json::to_string(&course)
        .map_err(|e| format!("the course does not serialise: {e}"))?;
    let name = course_file_name(&json);
    Ok((json, name))
}

/// `course-<16 hex digits>.json`, from an FNV-1a hash of the JSON.
pub fn course_file_name(json: &str) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in json.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    format!("course-{h:016x}.json")
}

/// The fields a lesson may offer as sliders (those with a control).
fn slider_names() -> Vec<&'static str> {
    tellers_sim::scenario::FIELDS
        .iter()
        .filter(|f| !matches!(f.control, tellers_sim::fields::Control::None))
        .map(|f| f.name)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    const GOOD: &str = "---\ntitle: T\nsummary: S\n---\n\nText with $L = λ × W$.\n\n::: predict\nGuess.\n:::\n\n```sim\n{\"preset\": \"sale-day\", \"view\": \"stats\", \"threads\": 40, \"sliders\": [\"rps\"]}\n```\n\n```exercise\nid = \"x\"\nkind = \"numeric\"\nprompt = \"{rps} × 0.1\"\nparams = { rps = [100, 400, 100] }\nanswer = \"rps * 0.1\"\nunit = \"threads\"\ntolerance = 0.01\nhints = [\"h\"]\nsolution = [\"{rps} × 0.1 s = {= rps * 0.1} threads\"]\n```\n";

    #[test]
    fn a_good_lesson_parses_into_its_segments() {
        let l = parse_lesson("04-little.md", GOOD).unwrap();
        assert_eq!(
            (l.number, l.slug.as_str(), l.title.as_str()),
            (4, "little", "T")
        );
        assert_eq!(l.segments.len(), 4);
        let Segment::Html { html } = &l.segments[0] else {
            panic!()
        };
        assert!(html.contains("<math"), "{html}");
        let Segment::Sim(b) = &l.segments[2] else {
            panic!()
        };
        assert_eq!((b.scenario.threads, b.scenario.rps), (40, 400.0));
    }

    #[test]
    fn broken_lessons_fail_with_the_file_and_the_reason() {
        let bad_preset = GOOD.replace("sale-day", "sail-day");
        assert!(parse_lesson("01-a.md", &bad_preset)
            .unwrap_err()
            .contains("no preset 'sail-day'"));
        let bad_field = GOOD.replace("\"threads\": 40", "\"thread\": 40");
        assert!(parse_lesson("01-a.md", &bad_field)
            .unwrap_err()
            .contains("thread"));
        let bad_view = GOOD.replace("stats", "movie");
        assert!(parse_lesson("01-a.md", &bad_view)
            .unwrap_err()
            .contains("unknown view 'movie'"));
        let bad_answer = GOOD.replace("rps * 0.1\"", "rsp * 0.1\"");
        assert!(parse_lesson("01-a.md", &bad_answer)
            .unwrap_err()
            .contains("unknown name 'rsp'"));
        let unclosed = GOOD.replace("Guess.\n:::", "Guess.");
        assert!(parse_lesson("01-a.md", &unclosed)
            .unwrap_err()
            .contains("not closed"));
        let unknown_widget = GOOD.replace("```sim\n", "```simulation\n");
        assert!(parse_lesson("01-a.md", &unknown_widget)
            .unwrap_err()
            .contains("unknown block"));
        let e =
            parse_lesson("01-a.md", &GOOD.replace("hints = [\"h\"]", "hints = []")).unwrap_err();
        assert!(
            e.starts_with("lessons/01-a.md: line") && e.contains("hint"),
            "{e}"
        );
    }

    #[test]
    fn the_course_file_name_follows_its_content() {
        let a = course_file_name("{\"lessons\":[]}");
        assert_eq!(a, course_file_name("{\"lessons\":[]}"));
        assert_ne!(a, course_file_name("{\"lessons\":[1]}"));
        assert!(
            a.starts_with("course-") && a.ends_with(".json") && a.len() == 28,
            "{a}"
        );
    }
}
