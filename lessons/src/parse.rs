//! Build time: lesson files → [`Course`]. Every mistake in a lesson is an
//! error here, with the file and what is wrong, so a broken lesson fails the
//! build instead of reaching a learner.

use crate::claim::{scenario_with, Claim};
use crate::exercise::{figures_list, is_figure, Exercise, Kind};
use crate::lesson::{Course, Lesson, Segment, SimBlock, VIEWS};
use crate::math::math_to_mathml;
use std::collections::{BTreeMap, BTreeSet};
use tellers_sim::text::units_kept;
use tellers_sim::Scenario;

/// Seeds every exercise is tried with at build time.
const TRY_SEEDS: &[&str] = &["", "a/1", "b/2", "c/3", "d/4", "e/5", "f/6", "g/7"];

fn markdown(md: &str) -> String {
    use pulldown_cmark::{html, Options, Parser};
    let md = math_to_mathml(md);
    let events = Parser::new_ext(&md, Options::ENABLE_TABLES).collect();
    let mut out = String::new();
    html::push_html(&mut out, shape_tables(display_formulas(events)).into_iter());
    ranges_kept(&units_kept(&out))
}

/// `html` with a word joiner after each en dash between two digits, so a
/// range ("10–20") never breaks after its dash: lesson 5's table headed
/// "10–" over "20" at 390 px.
fn ranges_kept(html: &str) -> String {
    let mut out = String::with_capacity(html.len());
    let mut chars = html.chars().peekable();
    let mut prev = ' ';
    while let Some(c) = chars.next() {
        out.push(c);
        if c == '–' && prev.is_ascii_digit() && chars.peek().is_some_and(char::is_ascii_digit) {
            out.push('\u{2060}');
        }
        prev = c;
    }
    out
}

/// A paragraph that is one formula and nothing else shows it as a display
/// formula (`<math display="block">`: on its own line, fractions full size).
/// A formula inside a sentence stays inline.
fn display_formulas(mut events: Vec<pulldown_cmark::Event>) -> Vec<pulldown_cmark::Event> {
    use pulldown_cmark::{Event, Tag, TagEnd};
    let is = |e: &Event, html: &str| matches!(e, Event::InlineHtml(h) if h.as_ref() == html);
    let starts: Vec<usize> = (0..events.len())
        .filter(|&i| matches!(events[i], Event::Start(Tag::Paragraph)))
        .collect();
    for start in starts {
        let Some(len) = events[start..]
            .iter()
            .position(|e| matches!(e, Event::End(TagEnd::Paragraph)))
        else {
            continue;
        };
        let inner = &events[start + 1..start + len];
        let one_formula = inner.first().is_some_and(|e| is(e, "<math>"))
            && inner.last().is_some_and(|e| is(e, "</math>"))
            && inner.iter().filter(|e| is(e, "<math>")).count() == 1;
        if one_formula {
            events[start + 1] = Event::InlineHtml(r#"<math display="block">"#.into());
        }
    }
    events
}

/// Units a table cell may end with and still be a number.
const CELL_UNITS: &[&str] = &["%", "ms", "s", "rps", "KB", "MB", "GB", "×"];

/// Whether a table cell is a number: digits with `,` and `.`, perhaps a sign
/// before and a unit after ("1,000 ms", "−0.5", "70 %").
fn is_number(cell: &str) -> bool {
    let s = cell.trim();
    let s = s.strip_prefix(['−', '-', '+', '≈', '~']).unwrap_or(s);
    let end = s
        .find(|c: char| !(c.is_ascii_digit() || c == ',' || c == '.'))
        .unwrap_or(s.len());
    let (n, unit) = s.split_at(end);
    let digit = |c: char| c.is_ascii_digit();
    n.starts_with(digit)
        && n.ends_with(digit)
        && (unit.is_empty() || CELL_UNITS.contains(&unit.trim_start()))
}

/// For each column of the table that starts at `events[0]`: whether its
/// body is numbers (blank cells and dashes aside, at least one number).
fn number_columns(events: &[pulldown_cmark::Event]) -> Vec<bool> {
    use pulldown_cmark::{Event, Tag, TagEnd};
    // Per column: (a cell is not a number, a cell is a number).
    let mut seen: Vec<(bool, bool)> = Vec::new();
    let (mut head, mut col, mut text, mut plain) = (false, 0, String::new(), true);
    for e in events {
        match e {
            Event::End(TagEnd::Table) => break,
            Event::Start(Tag::TableHead) => head = true,
            Event::End(TagEnd::TableHead) => head = false,
            Event::Start(Tag::TableRow) => col = 0,
            Event::Start(Tag::TableCell) => {
                text.clear();
                plain = true;
            }
            Event::End(TagEnd::TableCell) => {
                if !head {
                    if seen.len() <= col {
                        seen.resize(col + 1, (false, false));
                    }
                    let t = text.trim();
                    if !plain || !(t.is_empty() || ["–", "—", "-", "−"].contains(&t)) {
                        let number = plain && is_number(t);
                        seen[col].0 |= !number;
                        seen[col].1 |= number;
                    }
                }
                col += 1;
            }
            Event::Text(t) => text.push_str(t),
            Event::Start(Tag::Table(_)) => {}
            _ => plain = false,
        }
    }
    seen.into_iter()
        .map(|(other, number)| number && !other)
        .collect()
}

/// Each table sits in a box that scrolls sideways (a wide table on a phone
/// scrolls instead of losing its last columns), and the cells of a column of
/// numbers have `class="num"`, so that only numbers are right-aligned.
fn shape_tables(events: Vec<pulldown_cmark::Event>) -> Vec<pulldown_cmark::Event> {
    use pulldown_cmark::{Alignment, Event, Tag, TagEnd};
    let mut out = Vec::with_capacity(events.len());
    let (mut numbers, mut aligns) = (Vec::new(), Vec::new());
    let (mut head, mut col) = (false, 0);
    for (i, e) in events.iter().enumerate() {
        match e {
            Event::Start(Tag::Table(a)) => {
                numbers = number_columns(&events[i..]);
                aligns.clone_from(a);
                out.push(Event::Html(
                    r#"<div class="table-scroll" tabindex="0" role="region" aria-label="Table, scrolls sideways">"#
                        .into(),
                ));
            }
            Event::Start(Tag::TableHead) => (head, col) = (true, 0),
            Event::End(TagEnd::TableHead) => head = false,
            Event::Start(Tag::TableRow) => col = 0,
            Event::End(TagEnd::TableCell) => col += 1,
            _ => {}
        }
        let number = numbers.get(col) == Some(&true)
            && matches!(aligns.get(col), None | Some(Alignment::None));
        if matches!(e, Event::Start(Tag::TableCell)) && number {
            let tag = if head { "th" } else { "td" };
            out.push(Event::Html(format!(r#"<{tag} class="num">"#).into()));
        } else {
            out.push(e.clone());
        }
        if matches!(e, Event::End(TagEnd::Table)) {
            out.push(Event::Html("</div>\n".into()));
        }
    }
    out
}

/// A sim block and the ids of the claims its caption cites.
fn sim_block(json: &str) -> Result<(SimBlock, Vec<String>), String> {
    let mut obj = serde_json::from_str::<tellers_sim::fields::UniqueKeys>(json)
        .map_err(|e| format!("sim block is not a JSON object with each key once: {e}"))?
        .0;
    let take_str = |obj: &mut serde_json::Map<String, serde_json::Value>,
                    k: &str|
     -> Result<Option<String>, String> {
        match obj.remove(k) {
            None => Ok(None),
            Some(serde_json::Value::String(s)) => Ok(Some(s)),
            Some(other) => Err(format!("sim block: '{k}' must be a string, not {other}")),
        }
    };
    let take_list = |obj: &mut serde_json::Map<String, serde_json::Value>,
                     k: &str|
     -> Result<Vec<String>, String> {
        match obj.remove(k) {
            None => Ok(vec![]),
            Some(v) => serde_json::from_value(v)
                .map_err(|_| format!("sim block: '{k}' must be a list of names")),
        }
    };
    let preset_name = take_str(&mut obj, "preset")?;
    let view = take_str(&mut obj, "view")?.unwrap_or_else(|| "tellers".into());
    let caption = take_str(&mut obj, "caption")?.unwrap_or_default();
    let sliders = take_list(&mut obj, "sliders")?;
    let claims = take_list(&mut obj, "claims")?;
    let figures = take_list(&mut obj, "figures")?;
    check_figures(&figures).map_err(|e| format!("sim block: {e}"))?;
    if !VIEWS.contains(&view.as_str()) {
        return Err(format!(
            "sim block: unknown view '{view}'; allowed: {}",
            VIEWS.join(", ")
        ));
    }
    if caption.trim().is_empty() {
        return Err("sim block: give a caption saying what to watch".into());
    }
    if claims.is_empty() {
        return Err(format!(
            "sim block: the caption '{caption}' says what the simulator shows; \
             list the claims that check it in \"claims\""
        ));
    }
    let scenario =
        scenario_with(preset_name.as_deref(), &obj).map_err(|e| format!("sim block: {e}"))?;
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
    Ok((
        SimBlock {
            scenario,
            preset: preset_name,
            view,
            caption,
            sliders,
            figures,
        },
        claims,
    ))
}

/// Every name in `figures` is a report figure.
fn check_figures(figures: &[String]) -> Result<(), String> {
    match figures.iter().find(|f| !is_figure(f)) {
        Some(f) => Err(format!(
            "'{f}' is not a report figure; allowed: {}",
            figures_list()
        )),
        None => Ok(()),
    }
}

/// What a predict box asks for: `::: predict latency_mean_ms rps=90` names
/// the figures the learner guesses and the settings the guess is about.
type PredictAsks = (Vec<String>, Vec<(String, f64)>);

fn predict_header(rest: &str) -> Result<PredictAsks, String> {
    let mut figures = Vec::new();
    let mut when = Vec::new();
    for word in rest.split_whitespace() {
        match word.split_once('=') {
            Some((field, value)) => {
                let f = Scenario::field(field)
                    .ok_or_else(|| format!("predict box: '{field}' is not a scenario field"))?;
                let v: f64 = tellers_sim::text::number(value)
                    .ok_or_else(|| format!("predict box: '{word}' needs a number after '='"))?;
                f.from_f64(v)
                    .ok_or_else(|| format!("predict box: '{word}' is not a value of {field}"))
                    .and_then(|x| f.check(x))
                    .map_err(|e| format!("predict box: {e}"))?;
                when.push((field.to_string(), v));
            }
            None => figures.push(word.to_string()),
        }
    }
    check_figures(&figures).map_err(|e| format!("predict box: {e}"))?;
    Ok((figures, when))
}

/// Gives each sim block the figures its row shows (see
/// [`SimBlock::figures`]), and checks that a predict box naming figures or
/// settings sits right before the sim block it is about, whose sliders can
/// reach those settings. `cited` lists (claim id, sim block index).
fn settle_figures(
    segments: &mut [Segment],
    cited: &[(String, Option<usize>)],
    claims: &BTreeMap<&str, &Claim>,
) -> Result<(), String> {
    for i in 0..segments.len() {
        let asks = match &segments[i] {
            Segment::Predict { figures, when, .. } => Some((figures.clone(), when.clone())),
            _ => None,
        };
        let from_claims: Vec<String> = cited
            .iter()
            .filter(|(_, b)| *b == Some(i))
            .filter_map(|(id, _)| claims.get(id.as_str()))
            .filter(|c| c.sweep_rho.is_none())
            .filter_map(|c| c.figure.clone())
            .collect();
        let asked_before = match i.checked_sub(1).map(|j| &segments[j]) {
            Some(Segment::Predict { figures, .. }) => figures.clone(),
            _ => vec![],
        };
        if let Segment::Sim(b) = &mut segments[i] {
            let mut all = asked_before;
            all.append(&mut b.figures);
            all.extend(from_claims);
            for f in all {
                if !b.figures.contains(&f) {
                    b.figures.push(f);
                }
            }
        }
        if let Some((figures, when)) = asks {
            if figures.is_empty() && when.is_empty() {
                continue;
            }
            let Some(Segment::Sim(b)) = segments.get(i + 1) else {
                return Err(
                    "a predict box that names figures or settings must come right before \
                     the sim block whose run answers it"
                        .into(),
                );
            };
            if let Some((f, _)) = when.iter().find(|(f, _)| !b.sliders.contains(f)) {
                return Err(format!(
                    "the predict box asks about {f}, but the sim block after it has no {f} slider"
                ));
            }
            // A guess is compared only with runs at numeric settings: a
            // choice, a switch, a schedule or a number that starts off
            // beside it would let a run under another setting answer it,
            // so the build refuses such a pair.
            use tellers_sim::fields::Value;
            let not_a_number = |f: &String| -> Option<&'static str> {
                match (Scenario::field(f)?.get)(&b.scenario) {
                    Value::Int(_) | Value::Real(_) => None,
                    Value::Choice(_) => Some("is a choice"),
                    Value::Switch(_) => Some("is a switch"),
                    Value::Schedule(_) => Some("is a load schedule"),
                    Value::Off => Some("starts off"),
                }
            };
            if !figures.is_empty() {
                if let Some((f, what)) = b.sliders.iter().find_map(|f| Some((f, not_a_number(f)?)))
                {
                    return Err(format!(
                        "the predict box guesses figures of the sim block after it, whose {f} \
                         control {what}: a guess is compared only with runs at numeric \
                         settings, so a run at another {f} would answer it (drop the {f} \
                         slider there, or the box's figures)"
                    ));
                }
            }
            // A guess of figures that names no settings is about the block
            // as it opens: its sliders' own values (a run after moving one
            // is not what was asked); all of them are numbers (above).
            if when.is_empty() && !figures.is_empty() {
                let at_start: Vec<(String, f64)> = b
                    .sliders
                    .iter()
                    .filter_map(|f| Some((f.clone(), Scenario::field(f)?.number(&b.scenario))))
                    .collect();
                if let Segment::Predict { when, .. } = &mut segments[i] {
                    *when = at_start;
                }
            }
        }
    }
    Ok(())
}

fn claim(toml_text: &str) -> Result<Claim, String> {
    let c: Claim = toml::from_str(toml_text).map_err(|e| format!("claim block: {e}"))?;
    c.validate()?;
    Ok(c)
}

/// Scenario fields on which `a` and `b` differ, by name.
fn differing_fields(a: &Scenario, b: &Scenario) -> Vec<String> {
    let (a, b) = (
        serde_json::to_value(a).expect("a scenario serialises"),
        serde_json::to_value(b).expect("a scenario serialises"),
    );
    let (Some(a), Some(b)) = (a.as_object(), b.as_object()) else {
        return vec![];
    };
    a.iter()
        .filter(|(k, v)| b.get(*k) != Some(*v))
        .map(|(k, _)| k.clone())
        .collect()
}

/// A claim a caption cites must be about the block's own scenario: the
/// same fields, except those the learner may move with a slider and the seed,
/// and the block's own seed among those it is checked on.
fn caption_claim_fits(block: &SimBlock, c: &Claim) -> Result<(), String> {
    let s = c.base_scenario()?;
    let off: Vec<String> = differing_fields(&s, &block.scenario)
        .into_iter()
        .filter(|f| f != "seed" && !block.sliders.contains(f))
        .collect();
    if !off.is_empty() {
        return Err(format!(
            "the caption cites claim '{}', whose scenario differs from the block's in {} \
             (only slider fields and the seed may differ)",
            c.id,
            off.join(", ")
        ));
    }
    if c.sweep_rho.is_some() && block.view != "curve" {
        return Err(format!(
            "claim '{}' is about a point of the curve, but the block shows no curve",
            c.id
        ));
    }
    if c.sign.is_some() && block.view != "stats" {
        return Err(format!(
            "claim '{}' is about the signs, which only a stats view shows",
            c.id
        ));
    }
    if !crate::claim::SEEDS.contains(&block.scenario.seed) {
        return Err(format!(
            "the block's seed {} is not one its claims are checked on: use one of {} to {}",
            block.scenario.seed,
            crate::claim::SEEDS.start(),
            crate::claim::SEEDS.end()
        ));
    }
    Ok(())
}

/// An exercise block, with the claims its text cites. Text that speaks
/// of the simulator (a hint, a step of the solution, an option's
/// explanation, the note…) ends with `{claim: id}`, taken out here, as
/// the lesson's paragraphs do.
fn exercise(toml_text: &str) -> Result<(Exercise, Vec<String>), String> {
    let mut ex: Exercise = toml::from_str(toml_text).map_err(|e| format!("exercise block: {e}"))?;
    let id = ex.id.clone();
    let at = |msg: String| format!("exercise '{id}': {msg}");
    let mut cited = Vec::new();
    // What the learner reads keeps each number on a line with its unit: a
    // prompt's "{cpu} %" once broke as "25 / %".
    let mut read = |t: &str| -> Result<String, String> {
        let (text, ids) = take_markers(t).map_err(&at)?;
        let text = text.trim_end().to_owned();
        if ids.is_empty() && speaks_of_the_simulator(&text) {
            let start: String = text.chars().take(70).collect();
            return Err(at(format!(
                "this text says what the simulator shows; end it with {{claim: id}}: \"{start}…\""
            )));
        }
        cited.extend(ids);
        Ok(units_kept(&text))
    };
    ex.prompt = read(&ex.prompt)?;
    ex.note = ex.note.as_deref().map(&mut read).transpose()?;
    for text in [
        &mut ex.options,
        &mut ex.explain,
        &mut ex.hints,
        &mut ex.solution,
    ] {
        for t in text.iter_mut() {
            *t = read(t)?;
        }
    }
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
            if ex.mistakes.len() < 2 {
                return Err(at(
                    "list at least two plausible wrong methods in 'mistakes' (forgetting the wait, the line, a unit…)".into(),
                ));
            }
            // A progress file records the slips made in one byte.
            if ex.mistakes.len() > crate::exercise::MAX_LISTED {
                return Err(at(format!(
                    "list at most {} mistakes (it has {}): a student's progress records the slips made in one byte",
                    crate::exercise::MAX_LISTED,
                    ex.mistakes.len()
                )));
            }
            // A learner whose number is a listed mistake's is told what that
            // number is: every mistake has its words.
            if ex.mistake_notes.len() != ex.mistakes.len() {
                return Err(at(format!(
                    "give 'mistake_notes' one note for each of the {} mistakes, in their order, saying what its number is (it has {})",
                    ex.mistakes.len(),
                    ex.mistake_notes.len()
                )));
            }
            for note in &mut ex.mistake_notes {
                *note = read(note)?;
            }
            for m in ex.mistakes.iter().chain(&ex.branches) {
                crate::expr::eval(m, &ex.vars(""))
                    .map_err(|e| at(format!("mistake '{m}': {e}")))?;
            }
            if ex.no_limit && !ex.prompt.contains("no limit") {
                return Err(at(
            "the answer can be that the line grows without limit: the prompt must say to answer \"no limit\" then".into(),
        ));
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
            // A wrong pick is recorded by the option's place, found by its
            // words: two options with one text would be one place.
            if let Some((i, o)) = ex
                .options
                .iter()
                .enumerate()
                .find(|(i, o)| ex.options[..*i].contains(o))
            {
                return Err(at(format!(
                    "option {} repeats an earlier one: '{o}'",
                    i + 1
                )));
            }
            // A progress file records the wrong options picked in one byte.
            if n > crate::exercise::MAX_LISTED {
                return Err(at(format!(
                    "list at most {} options (it has {n}): a student's progress records the wrong ones picked in one byte",
                    crate::exercise::MAX_LISTED
                )));
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
        if !is_figure(f) {
            return Err(at(format!(
                "check_field '{f}' is not one of {}",
                figures_list()
            )));
        }
    }
    for seed in TRY_SEEDS {
        let v = ex.variant(seed).map_err(&at)?;
        if let Some(a) = v.answer {
            let no_limit = ex.no_limit && a == f64::INFINITY;
            if !a.is_finite() && !no_limit {
                return Err(at(format!(
                    "the answer is not a finite number for {:?} (set no_limit = true \
                     if the line grows without limit there)",
                    v.vars
                )));
            }
        }
        if let Some(Err(e)) = ex.check_scenario(&v.vars) {
            return Err(at(format!("check scenario: {e}")));
        }
    }
    Ok((ex, cited))
}

/// Sections whose every paragraph describes what a run shows.
const RUN_SECTIONS: &[&str] = &["What happened", "Try it"];

/// Words that mark a sentence about what the simulator shows, wherever it
/// is: "simulat…" (simulator, simulation, simulated), "slider…", and "the
/// run" as a whole word ("the running example" does not count).
fn speaks_of_the_simulator(text: &str) -> bool {
    let lower = text.to_ascii_lowercase();
    let whole = |w: &str| {
        lower.match_indices(w).any(|(i, _)| {
            !lower[i + w.len()..]
                .chars()
                .next()
                .is_some_and(char::is_alphanumeric)
        })
    };
    lower.contains("simulat") || lower.contains("slider") || whole("the run")
}

/// `{claim: a, b}` markers taken out of one paragraph: the text without
/// them, and the ids they cite.
fn take_markers(unit: &str) -> Result<(String, Vec<String>), String> {
    let mut text = String::new();
    let mut ids = Vec::new();
    let mut rest = unit;
    while let Some(open) = rest.find("{claim:") {
        text.push_str(rest[..open].trim_end_matches(' '));
        let close = rest[open..]
            .find('}')
            .ok_or_else(|| format!("unclosed '{{claim:' in: {unit}"))?
            + open;
        for id in rest[open + "{claim:".len()..close].split(',') {
            let id = id.trim();
            if id.is_empty() {
                return Err(format!("an empty claim id in: {unit}"));
            }
            ids.push(id.to_string());
        }
        rest = &rest[close + 1..];
    }
    text.push_str(rest);
    Ok((text, ids))
}

/// Lesson text with its claim markers taken out, and the ids cited. Every
/// paragraph, list item and line of a "What happened" or "Try it" section,
/// and every one elsewhere that speaks of the simulator, must cite a claim.
/// `first_line` is the file line of `md`'s first line, for messages;
/// `section` carries the current `## ` heading across chunks.
fn cite_claims(
    md: &str,
    first_line: usize,
    section: &mut String,
) -> Result<(String, Vec<String>), String> {
    let mut out = String::new();
    let mut cited = Vec::new();
    // One unit: a paragraph, a list item with its continuation lines, or a
    // table row; with the file line it starts on.
    let mut unit: Vec<&str> = Vec::new();
    let mut unit_line = first_line;
    let mut flush = |unit: &mut Vec<&str>, at: usize, section: &str, out: &mut String| {
        if unit.is_empty() {
            return Ok(());
        }
        let joined = unit.join("\n");
        unit.clear();
        let (text, ids) = take_markers(&joined).map_err(|e| format!("line {at}: {e}"))?;
        let plain = text.trim();
        let formula_only =
            plain.starts_with('$') && plain.ends_with('$') && plain.matches('$').count() == 2;
        let needs = !formula_only
            && !plain.starts_with('|')
            && (RUN_SECTIONS.contains(&section) || speaks_of_the_simulator(plain));
        if needs && ids.is_empty() {
            let start: String = plain.chars().take(70).collect();
            return Err(format!(
                "line {at}: this text says what the simulator shows; end it with {{claim: id}}: \"{start}…\""
            ));
        }
        cited.extend(ids);
        out.push_str(&text);
        out.push('\n');
        Ok(())
    };
    for (i, line) in md.lines().enumerate() {
        let t = line.trim_start();
        let item = t.starts_with("- ")
            || t.starts_with("* ")
            || t.split_once(". ")
                .is_some_and(|(n, _)| !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()));
        let blank_or_heading = line.trim().is_empty() || line.starts_with('#');
        if blank_or_heading || item || t.starts_with('|') {
            flush(&mut unit, unit_line, section, &mut out)?;
        }
        if let Some(h) = line.strip_prefix("## ") {
            *section = h.trim().to_string();
        }
        if blank_or_heading {
            out.push_str(line);
            out.push('\n');
        } else {
            if unit.is_empty() {
                unit_line = first_line + i;
            }
            unit.push(line);
            if t.starts_with('|') {
                flush(&mut unit, unit_line, section, &mut out)?;
            }
        }
    }
    flush(&mut unit, unit_line, section, &mut out)?;
    Ok((out, cited))
}

/// Parse one lesson file. `file_name` is like `04-littles-law.md`.
pub fn parse_lesson(file_name: &str, text: &str) -> Result<Lesson, String> {
    parse_lesson_with_claims(file_name, text).map(|(l, _)| l)
}

/// Parse one lesson file, with the claims it states. Checks that every
/// caption and every paragraph about what the simulator shows cites a claim
/// stated in the lesson, that every claim is cited, and that a caption's
/// claims are about its own block's scenario.
pub fn parse_lesson_with_claims(
    file_name: &str,
    text: &str,
) -> Result<(Lesson, Vec<Claim>), String> {
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
            Some(("title", v)) => title = Some(units_kept(v.trim())),
            Some(("summary", v)) => summary = Some(units_kept(v.trim())),
            _ => return Err(at(format!("unknown front matter line '{line}'"))),
        }
    }
    let mut segments = Vec::new();
    let mut claims: Vec<Claim> = Vec::new();
    // Where each claim is cited: (claim id, the sim block it captions, if any).
    let mut citations: Vec<(String, Option<usize>)> = Vec::new();
    let mut md = String::new();
    // Lines are counted in the file: the front matter and its two fences come first.
    let offset = front.lines().count() + 2;
    let mut md_line = offset + 1;
    let mut section = String::new();
    let mut lines = body.lines().enumerate().map(|(n, l)| (n + offset, l));
    let flush = |md: &mut String,
                 md_line: usize,
                 section: &mut String,
                 segments: &mut Vec<Segment>,
                 citations: &mut Vec<(String, Option<usize>)>|
     -> Result<(), String> {
        let (clean, cited) = cite_claims(md, md_line, section)?;
        citations.extend(cited.into_iter().map(|id| (id, None)));
        if !clean.trim().is_empty() {
            segments.push(Segment::Html {
                html: markdown(&clean),
            });
        }
        md.clear();
        Ok(())
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
        let is_predict = trimmed == "::: predict" || trimmed.starts_with("::: predict ");
        let is_block = is_predict || matches!(trimmed, "```sim" | "```exercise" | "```claim");
        if is_block {
            flush(
                &mut md,
                md_line,
                &mut section,
                &mut segments,
                &mut citations,
            )
            .map_err(&at)?;
        }
        match trimmed {
            "```sim" => {
                let inner = block_end("```", &mut lines).map_err(&at)?;
                let (block, ids) =
                    sim_block(&inner).map_err(|e| at(format!("line {}: {e}", n + 1)))?;
                citations.extend(ids.into_iter().map(|id| (id, Some(segments.len()))));
                segments.push(Segment::Sim(block));
            }
            "```exercise" => {
                let inner = block_end("```", &mut lines).map_err(&at)?;
                let (ex, ids) = exercise(&inner).map_err(|e| at(format!("line {}: {e}", n + 1)))?;
                citations.extend(ids.into_iter().map(|id| (id, None)));
                segments.push(Segment::Exercise(ex));
            }
            "```claim" => {
                let inner = block_end("```", &mut lines).map_err(&at)?;
                claims.push(claim(&inner).map_err(|e| at(format!("line {}: {e}", n + 1)))?);
            }
            _ if is_predict => {
                let (figures, when) = predict_header(&trimmed["::: predict".len()..])
                    .map_err(|e| at(format!("line {}: {e}", n + 1)))?;
                let inner = block_end(":::", &mut lines).map_err(&at)?;
                segments.push(Segment::Predict {
                    html: markdown(&inner),
                    figures,
                    when,
                });
            }
            t if t.starts_with("```sim")
                || t.starts_with("```exercise")
                || t.starts_with("```claim")
                || t.starts_with(":::") =>
            {
                return Err(at(format!("line {}: unknown block '{t}'", n + 1)));
            }
            _ => {
                if md.is_empty() {
                    md_line = n + 1;
                }
                md.push_str(line);
                md.push('\n');
            }
        }
    }
    flush(
        &mut md,
        md_line,
        &mut section,
        &mut segments,
        &mut citations,
    )
    .map_err(&at)?;
    let by_id: BTreeMap<&str, &Claim> = claims.iter().map(|c| (c.id.as_str(), c)).collect();
    if by_id.len() != claims.len() {
        return Err(at("two claims share an id".into()));
    }
    for (id, block) in &citations {
        let c = by_id.get(id.as_str()).ok_or_else(|| {
            at(format!(
                "cites claim '{id}', which this lesson does not state"
            ))
        })?;
        if let Some(Segment::Sim(b)) = block.map(|i| &segments[i]) {
            caption_claim_fits(b, c).map_err(&at)?;
        }
    }
    settle_figures(&mut segments, &citations, &by_id).map_err(&at)?;
    for c in &claims {
        if !citations.iter().any(|(id, _)| *id == c.id) {
            return Err(at(format!(
                "claim '{}' is cited nowhere; cite it where the text relies on it",
                c.id
            )));
        }
    }
    Ok((
        Lesson {
            slug: slug.to_string(),
            number,
            title: title.ok_or_else(|| at("front matter has no title".into()))?,
            summary: summary.ok_or_else(|| at("front matter has no summary".into()))?,
            segments,
        },
        claims,
    ))
}

/// Parse every `NN-slug.md` in `dir`, in order, and check the course as a
/// whole: numbers 1, 2, 3… without gaps, unique slugs and exercise ids.
pub fn parse_course(dir: &std::path::Path) -> Result<Course, String> {
    parse_course_with_claims(dir).map(|(c, _)| c)
}

/// The course and every claim its lessons state, with the lesson's slug.
/// Claim ids are unique across the course.
pub fn parse_course_with_claims(
    dir: &std::path::Path,
) -> Result<(Course, Vec<(String, Claim)>), String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .map_err(|e| format!("cannot read {}: {e}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.file_name().to_string_lossy().into_owned()))
        .filter(|n| n.ends_with(".md") && n.starts_with(|c: char| c.is_ascii_digit()))
        .collect();
    names.sort();
    let mut lessons = Vec::new();
    let mut claims = Vec::new();
    for name in &names {
        let text =
            std::fs::read_to_string(dir.join(name)).map_err(|e| format!("lessons/{name}: {e}"))?;
        let (lesson, cs) = parse_lesson_with_claims(name, &text)?;
        claims.extend(cs.into_iter().map(|c| (lesson.slug.clone(), c)));
        lessons.push(lesson);
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
    let mut claim_ids = BTreeSet::new();
    for (slug, c) in &claims {
        if !claim_ids.insert(c.id.clone()) {
            return Err(format!(
                "claim id '{}' is used twice (again in {slug})",
                c.id
            ));
        }
    }
    Ok((Course { lessons }, claims))
}

/// The course in `dir` as the JSON the app fetches, and the file name it
/// is served under: `course-<hash>.json`, so a browser never keeps an old
/// course beside a new app.
pub fn compile_course(dir: &std::path::Path) -> Result<(String, String), String> {
    let course = parse_course(dir)?;
    let json = course.to_json()?;
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

    const GOOD: &str = r#"---
title: T
summary: S
---

Text with $L = λ × W$.

::: predict
Guess.
:::

```sim
{"preset": "sale-day", "view": "stats", "threads": 40, "sliders": ["rps"], "caption": "Watch the line.", "claims": ["pool-40-line"]}
```

```claim
id = "pool-40-line"
preset = "sale-day"
set = { threads = 40, rps = 300 }
figure = "queue_len_end"
at_most = 100
why = "300 rps on a pool that finishes about 360; 20 s runs end with a short line"
```

## What happened

The line stays short. {claim: pool-40-line}

```exercise
id = "x"
kind = "numeric"
prompt = "{rps} × 0.1"
params = { rps = [100, 400, 100] }
answer = "rps * 0.1"
unit = "threads"
tolerance = 0.01
hints = ["h"]
solution = ["{rps} × 0.1 s = {= rps * 0.1} threads"]
mistakes = ["rps", "rps * 0.01"]
mistake_notes = ["That is the rate alone.", "That is the rate times a hundredth."]
```
"#;

    #[test]
    fn a_good_lesson_parses_into_its_segments() {
        let l = parse_lesson("04-little.md", GOOD).unwrap();
        assert_eq!(
            (l.number, l.slug.as_str(), l.title.as_str()),
            (4, "little", "T")
        );
        assert_eq!(l.segments.len(), 5);
        let Segment::Html { html } = &l.segments[0] else {
            panic!()
        };
        assert!(html.contains("<math"), "{html}");
        let Segment::Sim(b) = &l.segments[2] else {
            panic!()
        };
        assert_eq!((b.scenario.threads, b.scenario.rps), (40, 400.0));
        let Segment::Html { html } = &l.segments[3] else {
            panic!()
        };
        assert!(
            html.contains("<p>The line stays short.</p>"),
            "the claim marker is not shown: {html}"
        );
        let (_, claims) = parse_lesson_with_claims("04-little.md", GOOD).unwrap();
        assert_eq!(claims[0].id, "pool-40-line");
    }

    #[test]
    fn a_formula_alone_in_its_paragraph_is_shown_as_a_display_formula() {
        let html = markdown("So $L = λ × W$ holds.\n\n$R = \\frac{S}{1 - ρ}$\n\n- $x$\n");
        assert!(
            html.contains(r#"<p><math display="block"><mrow><mi>R</mi>"#),
            "{html}"
        );
        assert!(html.contains("<p>So <math><mrow><mi>L</mi>"), "{html}");
        assert!(html.contains("<li><math><mrow><mi>x</mi>"), "{html}");
        assert_eq!(html.matches("display=").count(), 1, "{html}");
        // Two formulas in one paragraph stay in the line.
        assert!(!markdown("$a$ and $b$\n").contains("display="));
    }

    #[test]
    fn only_the_cells_of_a_column_of_numbers_are_marked_num() {
        let html = markdown(
            "| level | time | share | note |\n|---|---|---|---|\n\
             | SDE-1 | 1,000 ms | 70 % | 12 |\n| SDE-2 | – | −0.5 | a b |\n",
        );
        let cells: Vec<&str> = html
            .split('<')
            .filter(|t| t.starts_with("td") || t.starts_with("th") && !t.starts_with("thead"))
            .collect();
        assert_eq!(
            cells,
            [
                "th>level",
                "th class=\"num\">time",
                "th class=\"num\">share",
                "th>note",
                "td>SDE-1",
                "td class=\"num\">1,000\u{a0}ms",
                "td class=\"num\">70\u{a0}%",
                "td>12",
                "td>SDE-2",
                "td class=\"num\">–",
                "td class=\"num\">−0.5",
                "td>a b",
            ],
            "{html}"
        );
        for n in ["0", "1,000", "13.05", "1,000 ms", "70 %", "−3", "2×"] {
            assert!(is_number(n), "{n}");
        }
        for t in ["SDE-1", "0–10", "a", "", "1.", "12 threads", "–"] {
            assert!(!is_number(t), "{t}");
        }
    }

    #[test]
    fn a_table_scrolls_sideways_in_its_own_box() {
        let html = markdown("Before.\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\nAfter.\n");
        let open = r#"<div class="table-scroll" tabindex="0" role="region" aria-label="Table, scrolls sideways"><table>"#;
        assert!(html.contains(open), "{html}");
        assert!(html.contains("</table>\n</div>\n<p>After.</p>"), "{html}");
    }

    #[test]
    fn a_range_does_not_break_after_its_dash() {
        let html = markdown("| 0–10 | 10–20 |\n|---|---|\n| A – B | x |\n");
        assert!(
            html.contains("0–\u{2060}10") && html.contains("10–\u{2060}20"),
            "{html}"
        );
        // A dash between words, or spaced, is left to break.
        assert!(
            html.contains("A – B") && !html.contains("–\u{2060} "),
            "{html}"
        );
    }

    #[test]
    fn a_unit_stays_on_the_line_of_its_number() {
        assert_eq!(
            markdown("plan for 70 %. At 10 ms, 5 seconds, 200 rps and 3 so on"),
            "<p>plan for 70\u{a0}%. At 10\u{a0}ms, 5 seconds, 200\u{a0}rps and 3 so on</p>\n"
        );
    }

    /// An exercise's texts keep their units on the line of their numbers,
    /// the numbers filled in for each learner too.
    #[test]
    fn an_exercise_keeps_its_units_beside_its_numbers() {
        let text = GOOD.replace(
            r#"prompt = "{rps} × 0.1""#,
            r#"prompt = "At {rps} rps, CPU is at {= rps / 10} % and 3 slots are free""#,
        );
        let l = parse_lesson("04-little.md", &text).unwrap();
        let ex = l.exercises().next().unwrap();
        let v = ex.variant("a/1").unwrap();
        let rps = v.vars["rps"];
        assert_eq!(
            v.prompt,
            format!(
                "At {rps}\u{a0}rps, CPU is at {}\u{a0}% and 3 slots are free",
                rps / 10.0
            )
        );
        assert!(
            v.solution[0].contains(" × 0.1\u{a0}s = "),
            "{:?}",
            v.solution
        );
    }

    #[test]
    fn a_widget_shows_the_figures_its_predict_box_and_claims_name() {
        let text = GOOD.replace("::: predict\n", "::: predict latency_mean_ms rps=300\n");
        let l = parse_lesson("04-little.md", &text).unwrap();
        let Segment::Predict { figures, when, .. } = &l.segments[1] else {
            panic!()
        };
        assert_eq!(figures, &["latency_mean_ms"]);
        assert_eq!(when, &[("rps".to_string(), 300.0)]);
        let Segment::Sim(b) = &l.segments[2] else {
            panic!()
        };
        assert_eq!(b.figures, ["latency_mean_ms", "queue_len_end"]);
        // Listed figures come before the claims' and are not repeated.
        let listed = text.replace(
            "\"claims\": [",
            "\"figures\": [\"cpu_utilisation\", \"queue_len_end\"], \"claims\": [",
        );
        let Segment::Sim(b) = &parse_lesson("04-little.md", &listed).unwrap().segments[2] else {
            panic!()
        };
        assert_eq!(
            b.figures,
            ["latency_mean_ms", "cpu_utilisation", "queue_len_end"]
        );
        let err = |t: &str| parse_lesson("04-little.md", t).unwrap_err();
        let e = err(&GOOD.replace("::: predict\n", "::: predict latency_mean\n"));
        assert!(e.contains("'latency_mean' is not a report figure"), "{e}");
        let e = err(&GOOD.replace("::: predict\n", "::: predict threads=30\n"));
        assert!(e.contains("has no threads slider"), "{e}");
        let e = err(&GOOD.replace("::: predict\n", "::: predict rps=fast\n"));
        assert!(e.contains("needs a number"), "{e}");
        let e = err(&GOOD
            .replace("::: predict\n", "::: predict cpu_utilisation\n")
            .replace("Guess.\n:::\n", "Guess.\n:::\n\nA paragraph between.\n"));
        assert!(e.contains("right before"), "{e}");
    }

    /// A guess of figures naming no settings is about the widget as it
    /// opens: its number sliders' values. A choice or a switch beside it
    /// could not be followed (a run under another choice would answer the
    /// guess), so the build refuses that pair.
    #[test]
    fn a_guess_naming_no_settings_takes_the_widgets_numbers() {
        let text = GOOD.replace("::: predict\n", "::: predict latency_mean_ms\n");
        let l = parse_lesson("04-little.md", &text).unwrap();
        let (Segment::Predict { when, .. }, Segment::Sim(b)) = (&l.segments[1], &l.segments[2])
        else {
            panic!()
        };
        assert!(!when.is_empty());
        assert!(when.iter().all(|(f, _)| b.sliders.contains(f)), "{when:?}");
        let sliders = text
            .find("\"sliders\": [")
            .map(|i| i + "\"sliders\": [".len())
            .unwrap();
        for (other, what) in [("arrivals", "is a choice"), ("timeout_ms", "starts off")] {
            let text = format!("{}\"{other}\", {}", &text[..sliders], &text[sliders..]);
            let e = parse_lesson("04-little.md", &text).unwrap_err();
            assert!(e.contains(&format!("whose {other} control {what}")), "{e}");
        }
        // A box that guesses no figures (words only) may sit beside any control.
        let words = format!(
            "{}\"arrivals\", {}",
            &GOOD[..GOOD.find("\"sliders\": [").unwrap() + "\"sliders\": [".len()],
            &GOOD[GOOD.find("\"sliders\": [").unwrap() + "\"sliders\": [".len()..]
        );
        assert!(parse_lesson("04-little.md", &words).is_ok());
    }

    #[test]
    fn what_the_simulator_shows_must_cite_a_claim_that_fits() {
        let err = |text: &str| parse_lesson("01-a.md", text).unwrap_err();
        let e = err(&GOOD.replace(" {claim: pool-40-line}", ""));
        assert!(
            e.contains("end it with {claim: id}") && e.contains("The line stays short"),
            "{e}"
        );
        let e = err(&GOOD.replace(", \"claims\": [\"pool-40-line\"]", ""));
        assert!(e.contains("list the claims"), "{e}");
        let e = err(&GOOD.replace("{claim: pool-40-line}", "{claim: pool-41-line}"));
        assert!(e.contains("does not state"), "{e}");
        // The caption's claim must be about the block's scenario: rps is a
        // slider there, threads is not.
        let e = err(&GOOD.replace("threads = 40, rps = 300", "threads = 30, rps = 300"));
        assert!(e.contains("differs from the block's in threads"), "{e}");
        let e = err(&GOOD.replace("\"threads\": 40,", "\"threads\": 40, \"seed\": 21,"));
        assert!(
            e.contains("seed 21 is not one its claims are checked on"),
            "{e}"
        );
        // The signs show only under a stats view's figures.
        let e = err(&GOOD
            .replace("\"view\": \"stats\"", "\"view\": \"series\"")
            .replace(
                "figure = \"queue_len_end\"\nat_most = 100",
                "sign = \"healthy\"",
            ));
        assert!(
            e.contains("claim 'pool-40-line' is about the signs, which only a stats view shows"),
            "{e}"
        );
        // Every claim runs on the same seeds: a claim cannot pick its own.
        let e = err(&GOOD.replace(
            "figure = \"queue_len_end\"",
            "seeds = [2, 3]\nfigure = \"queue_len_end\"",
        ));
        assert!(e.contains("unknown field `seeds`"), "{e}");
        // A sentence anywhere that speaks of the simulator needs a claim too.
        let e = err(&GOOD.replace("Text with", "The simulator shows"));
        assert!(e.contains("end it with {claim: id}"), "{e}");
        // Each listed mistake has a note saying what its number is.
        let e = err(&GOOD.replace(", \"That is the rate times a hundredth.\"", ""));
        assert!(
            e.contains("give 'mistake_notes' one note for each of the 2 mistakes")
                && e.contains("(it has 1)"),
            "{e}"
        );
        // At most six mistakes: a progress file records slips in a byte.
        let seven = (0..7)
            .map(|i| format!("\"rps * {i}\""))
            .collect::<Vec<_>>()
            .join(", ");
        let notes = ["\"A note.\""; 7].join(", ");
        let e = err(&GOOD
            .replace(
                "mistakes = [\"rps\", \"rps * 0.01\"]",
                &format!("mistakes = [{seven}]"),
            )
            .replace(
                "mistake_notes = [\"That is the rate alone.\", \"That is the rate times a hundredth.\"]",
                &format!("mistake_notes = [{notes}]"),
            ));
        assert!(e.contains("list at most 6 mistakes (it has 7)"), "{e}");
        // And at most six options, for the wrong ones picked.
        let seven = (0..7)
            .map(|i| format!("\"o{i}\""))
            .collect::<Vec<_>>()
            .join(", ");
        let (start, end) = (GOOD.find("id = \"x\"").unwrap(), GOOD.rfind("```").unwrap());
        let e = err(&format!(
            "{}id = \"x\"\nkind = \"choice\"\nprompt = \"Which?\"\noptions = [{seven}]\ncorrect = 0\nhints = [\"h\"]\n{}",
            &GOOD[..start],
            &GOOD[end..]
        ));
        assert!(e.contains("list at most 6 options (it has 7)"), "{e}");
        let e = err(&format!(
            "{}id = \"x\"\nkind = \"choice\"\nprompt = \"Which?\"\noptions = [\"a\", \"b\", \"a\"]\ncorrect = 0\nhints = [\"h\"]\n{}",
            &GOOD[..start],
            &GOOD[end..]
        ));
        assert!(e.contains("option 3 repeats an earlier one: 'a'"), "{e}");
        // A claim nobody cites is an error.
        let e = err(&GOOD.replace("```exercise", "```claim\nid = \"spare\"\npreset = \"sale-day\"\nfigure = \"throughput_rps\"\nat_least = 100\nwhy = \"a pool of 20 finishes about 200 per second\"\n```\n\n```exercise"));
        assert!(e.contains("claim 'spare' is cited nowhere"), "{e}");
    }

    /// An exercise's text that speaks of the simulator (here its note)
    /// cites a claim as a paragraph does; the marker is taken out of what
    /// the learner reads, and the claim counts as cited.
    #[test]
    fn an_exercise_that_speaks_of_the_simulator_cites_a_claim() {
        let with_note = |note: &str| {
            GOOD.replace(
                "mistakes = [\"rps\", \"rps * 0.01\"]",
                &format!("mistakes = [\"rps\", \"rps * 0.01\"]\nnote = \"{note}\""),
            )
        };
        let e = parse_lesson("01-a.md", &with_note("The simulated count wobbles.")).unwrap_err();
        assert!(
            e.contains("exercise 'x'") && e.contains("end it with {claim: id}"),
            "{e}"
        );
        let e = parse_lesson(
            "01-a.md",
            &with_note("The simulated count wobbles. {claim: pool-41-line}"),
        )
        .unwrap_err();
        assert!(e.contains("does not state"), "{e}");
        // The paragraph's citation gone, the note's alone cites the claim.
        let cited = with_note("The simulated line stays short. {claim: pool-40-line}").replace(
            "## What happened\n\nThe line stays short. {claim: pool-40-line}",
            "## Notes\n\nThe line.",
        );
        let l = parse_lesson("01-a.md", &cited).unwrap();
        let note = l
            .segments
            .iter()
            .find_map(|s| match s {
                Segment::Exercise(ex) => ex.note.clone(),
                _ => None,
            })
            .unwrap();
        assert_eq!(note, "The simulated line stays short.");
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
        let twice = GOOD.replace("\"threads\": 40", "\"threads\": 40, \"threads\": 8");
        assert!(parse_lesson("01-a.md", &twice)
            .unwrap_err()
            .contains("'threads' is given twice"));
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
