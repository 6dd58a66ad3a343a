//! Scenarios in URLs: `cores=8&model=event-loop&seed=7`.
//!
//! [`to_query`] writes only the fields that differ from
//! [`Scenario::default`], so links stay short and old links keep working
//! when a default changes. [`from_query`] never fails and never panics: a bad
//! or unknown field gets one notice and falls back to its default, so a
//! tampered link still opens a working scenario and says what was wrong.
//! A link may also start from a preset (`preset=sale-day&rps=300`, for a
//! teacher to write on the board): then a bad field keeps the preset's
//! value. Links the app writes never name a preset.
//!
//! Values: numbers as JSON writes them (shortest form that reads back to the
//! same bits), enums in kebab-case, `true`/`false`, and `none` for an
//! optional field that is off.

use crate::fields::clip;
use crate::scenario::{Scenario, FIELDS};
use serde_json::{Map, Value};

/// A scenario from a JSON object (a lesson block's fields): through text,
/// so the app carries one JSON reader for scenarios, not two.
pub fn scenario_from_map(map: &Map<String, Value>) -> Option<Scenario> {
    serde_json::from_str(&Value::Object(map.clone()).to_string()).ok()
}

/// The query string (without `?`) for `s`: `name=value` pairs joined by `&`,
/// in alphabetical order, only where `s` differs from the default.
pub fn to_query(s: &Scenario) -> String {
    let base = Scenario::default();
    let mut pairs: Vec<String> = FIELDS
        .iter()
        .filter(|f| (f.get)(s) != (f.get)(&base))
        .map(|f| format!("{}={}", f.name, percent_encode(&(f.get)(s).to_string())))
        .collect();
    // Old thread-per-request links wrote their cap as `threads` ([`threads_means_cap`]):
    // a link with `threads` and no cap says so, or it would read back capped.
    if s.model == crate::Model::ThreadPerRequest
        && s.thread_cap.is_none()
        && s.threads != base.threads
    {
        pairs.push("thread_cap=none".to_owned());
    }
    pairs.sort_unstable();
    pairs.join("&")
}

fn percent_encode(s: &str) -> String {
    let mut out = String::new();
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || b"-_.~".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// Decodes `%xx` escapes and `+` (a space); bad escapes are kept as written.
pub fn percent_decode(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        if b == b'%' && i + 2 < bytes.len() {
            let hex = std::str::from_utf8(&bytes[i + 1..i + 3]).ok();
            if let Some(v) = hex.and_then(|h| u8::from_str_radix(h, 16).ok()) {
                out.push(v);
                i += 3;
                continue;
            }
        }
        out.push(if b == b'+' { b' ' } else { b });
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// Links made before thread per request had its own cap field wrote the cap
/// as `threads` (0 = no cap). Such a link still opens what it showed:
/// true when `q` is such a link, so its `threads` is read as `thread_cap`.
fn threads_means_cap(q: &str) -> bool {
    let tpr = q.split('&').any(|p| p == "model=thread-per-request");
    let has_cap = q.split('&').any(|p| p.starts_with("thread_cap="));
    tpr && !has_cap
}

/// Most settings read from one link. A link the app writes has at most one
/// per field and two of the view's; past this many the rest are not read,
/// so a link padded with thousands of names opens at once (3,000 unknown
/// names took 22 s on a 2-core laptop when each was read and listed).
pub const MAX_LINK_SETTINGS: usize = 200;

/// Most unknown names listed one by one; the rest are counted in one notice.
pub const MAX_UNKNOWN_LISTED: usize = 10;

/// What a link's reader did with a setting it could not use as written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The field shows its default instead (a bad value, a rule between
    /// fields, or a repeat of a field whose first value was not used).
    UsedDefault,
    /// As [`Outcome::UsedDefault`], in a link that starts from a preset:
    /// the field shows the preset's value.
    UsedPreset,
    /// The field was given more than once; its first value is shown.
    KeptFirst,
    /// Not a field: nothing was set from it.
    Ignored,
}

/// One notice about a link: what was wrong, in words, and what was done.
#[derive(Clone, Debug, PartialEq)]
pub struct Notice {
    /// What was done with the setting.
    pub outcome: Outcome,
    /// The notice as the learner reads it, naming the field.
    pub text: String,
}

impl Notice {
    fn new(outcome: Outcome, text: String) -> Self {
        Notice { outcome, text }
    }

    /// For a setting `name` given `times` times: its first value is kept
    /// if it was read (`kept`), else `otherwise` says what is shown.
    pub fn repeated(name: &str, times: usize, kept: bool, otherwise: Outcome) -> Self {
        let given = if times == 2 {
            "given twice".to_owned()
        } else {
            format!("given {times} times")
        };
        if kept {
            Notice::new(
                Outcome::KeptFirst,
                format!("{name}: {given}; the first value was kept"),
            )
        } else {
            Notice::new(
                otherwise,
                format!("{name}: {given}; only the first value was read"),
            )
        }
    }
}

/// A link may start from a preset: `preset=sale-day&rps=300` is the
/// preset with the link's own fields on it. Returns the preset (`None`
/// when the link names none, or a name no preset has: then a notice says
/// so and lists the names), the link's other settings, and a notice when
/// `preset` is given more than once (the first counts).
fn preset_of(q: &str) -> (Option<Scenario>, String, Vec<Notice>) {
    let key = |p: &str| p.split('=').next().unwrap_or("").to_owned();
    let (named, own): (Vec<&str>, Vec<&str>) = q.split('&').partition(|p| key(p) == "preset");
    let Some(first) = named.first() else {
        return (None, q.to_owned(), vec![]);
    };
    let mut notices = vec![];
    if named.len() > 1 {
        notices.push(Notice::new(
            Outcome::KeptFirst,
            if named.len() == 2 {
                "preset: given twice; the first was used".to_owned()
            } else {
                format!("preset: given {} times; the first was used", named.len())
            },
        ));
    }
    // Names are lower case: "Sale-Day" is sale-day.
    let name = percent_decode(first.split_once('=').map_or("", |(_, v)| v))
        .trim()
        .to_ascii_lowercase();
    let preset = crate::presets::preset(&name);
    if preset.is_none() {
        let what = if name.is_empty() {
            "no name given".to_owned()
        } else {
            let near = crate::fields::nearest(&name, crate::presets::preset_names())
                .map(|n| format!(" (did you mean '{n}'?)"))
                .unwrap_or_default();
            format!("no preset '{}'{near}", clip(&name))
        };
        notices.push(Notice::new(
            Outcome::UsedDefault,
            format!(
                "preset: {what}; the defaults were used; allowed: {}",
                crate::presets::preset_names().join(", ")
            ),
        ));
    }
    (preset, own.join("&"), notices)
}

/// Reads a query string (with or without a leading `?`) into a scenario.
///
/// Returns the scenario and one notice per field that was unknown, repeated,
/// unreadable or out of range; each such field keeps its default (the
/// preset's value in a link that starts from a preset). Fields
/// that are fine are kept, so a link with one typo still opens nearly what
/// was shared. [`from_query_notices`] says, for each notice, what was done.
pub fn from_query(q: &str) -> (Scenario, Vec<String>) {
    let (s, notices) = from_query_notices(q);
    (s, notices.into_iter().map(|n| n.text).collect())
}

/// [`from_query`], each notice with what was done: the default used, the
/// first of a repeated field kept, or an unknown name ignored.
pub fn from_query_notices(q: &str) -> (Scenario, Vec<Notice>) {
    let q = q.strip_prefix('?').unwrap_or(q);
    let (preset, q, mut notices) = preset_of(q);
    let q = q.as_str();
    // What a field the link cannot set keeps: the preset's value, or the
    // default.
    let (fallback, used, put_back, all_used) = match preset {
        Some(_) => (
            Outcome::UsedPreset,
            "the preset's value was used",
            "the preset's value",
            "the preset was used",
        ),
        None => (
            Outcome::UsedDefault,
            "the default was used",
            "its default",
            "the defaults were used",
        ),
    };
    let base = preset.unwrap_or_default();
    let mut s = base.clone();
    let mut seen: Vec<&str> = Vec::new();
    // Fields given more than once: where their notice goes, and how often
    // they were given. Whether the first value stood is known only at the
    // end, after the rules between fields.
    let mut repeated: Vec<(usize, &str, usize)> = Vec::new();
    // The fields the link set, in its order: what a rule between fields
    // can put back when the field it names is already at its default.
    let mut set = Vec::new();
    let cap_key = threads_means_cap(q);
    let pairs: Vec<&str> = q.split('&').filter(|p| !p.is_empty()).collect();
    let mut unknown = 0;
    let mut unknown_seen: Vec<String> = Vec::new();
    let mut nameless = 0;
    for pair in pairs.iter().take(MAX_LINK_SETTINGS) {
        let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
        let key = percent_decode(k);
        let name = if cap_key && key == "threads" {
            "thread_cap"
        } else {
            key.as_str()
        };
        // A setting with no name (`?=&==`) is one notice, however many.
        if key.trim().is_empty() {
            nameless += 1;
            continue;
        }
        let Some(f) = FIELDS.iter().find(|f| f.name == name) else {
            // A name given twice is told once.
            if unknown_seen.contains(&key) {
                continue;
            }
            unknown_seen.push(key.clone());
            unknown += 1;
            if unknown <= MAX_UNKNOWN_LISTED {
                // `cpu-ms` as the flag is spelt, `timeout` without its
                // unit: the field meant, as a file's reader says it.
                let meant = crate::fields::meant_field(FIELDS, &key).map_or(String::new(), |n| {
                    if crate::fields::spelt_otherwise(&key) {
                        format!(" (did you mean '{n}'? a link's field names are in small letters, joined by _)")
                    } else {
                        format!(" (did you mean '{n}'?)")
                    }
                });
                notices.push(Notice::new(
                    Outcome::Ignored,
                    format!("unknown field '{}' was ignored{meant}", clip(&key)),
                ));
            }
            continue;
        };
        let raw = percent_decode(v);
        if seen.contains(&f.name) {
            match repeated.iter_mut().find(|r| r.1 == f.name) {
                Some(r) => r.2 += 1,
                None => {
                    repeated.push((notices.len(), f.name, 2));
                    // Filled in below.
                    notices.push(Notice::new(Outcome::KeptFirst, String::new()));
                }
            }
            continue;
        }
        seen.push(f.name);
        match f.set_text(&mut s, &raw) {
            Ok(()) => set.push(f),
            Err(e) => notices.push(Notice::new(fallback, format!("{}: {e}; {used}", f.name))),
        }
    }
    if nameless > 0 {
        notices.push(Notice::new(
            Outcome::Ignored,
            if nameless == 1 {
                "a setting with no name was ignored".to_owned()
            } else {
                format!("{nameless} settings with no name were ignored")
            },
        ));
    }
    if unknown > MAX_UNKNOWN_LISTED {
        notices.push(Notice::new(
            Outcome::Ignored,
            format!(
                "{} more unknown fields were ignored",
                unknown - MAX_UNKNOWN_LISTED
            ),
        ));
    }
    if pairs.len() > MAX_LINK_SETTINGS {
        notices.push(Notice::new(
            Outcome::Ignored,
            format!(
                "the link has {} settings; only the first {MAX_LINK_SETTINGS} were read",
                pairs.len()
            ),
        ));
    }
    // Rules between fields: put back to its default the first field that
    // clears the rule's error, trying the field it names, then the fields
    // the link set from the last; if none alone clears it, the named field
    // (or the last set) goes back and the next pass looks again. Each pass
    // puts one changed field back, so it ends.
    let differs = |f: &crate::scenario::Field, s: &Scenario| (f.get)(s) != (f.get)(&base);
    let reset = |f: &crate::scenario::Field, s: &Scenario| {
        let mut next = s.clone();
        (f.set)(&mut next, (f.get)(&base));
        next
    };
    while let Some(e) = s.validate().into_iter().next() {
        let named = FIELDS.iter().find(|f| f.name == e.field);
        let candidates: Vec<&crate::scenario::Field> = named
            .into_iter()
            .chain(set.iter().rev().copied())
            .filter(|f| differs(f, &s))
            .collect();
        let clears = candidates
            .iter()
            .find(|f| !reset(f, &s).validate().iter().any(|x| x.field == e.field));
        let Some(f) = clears.or(candidates.first()).copied() else {
            notices.push(Notice::new(
                fallback,
                format!("the scenario could not be repaired; {all_used}"),
            ));
            s = base.clone();
            set.clear();
            break;
        };
        s = reset(f, &s);
        set.retain(|x| x.name != f.name);
        notices.push(Notice::new(
            fallback,
            if f.name == e.field {
                format!("{e}; {used}")
            } else {
                format!("{e}; {} was put back to {put_back}", f.name)
            },
        ));
    }
    // A repeated field's first value is shown only if it was read and no
    // rule put it back; otherwise its other notice says the default is used.
    for (at, name, times) in repeated {
        let kept = set.iter().any(|f| f.name == name);
        notices[at] = Notice::repeated(name, times, kept, fallback);
    }
    (s, notices)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A link breaking a rule between fields whose named field is already
    /// at its default puts back a field the link set, once, and keeps the
    /// rest (it said the same notice four times, then reset everything).
    #[test]
    fn a_link_breaking_a_rule_keeps_what_it_can() {
        let (s, notices) = from_query("arrivals=closed&cpu_ms=0&wait_ms=0");
        assert_eq!(s.arrivals, crate::Arrivals::Closed, "{notices:?}");
        assert!(s.validate().is_empty());
        assert_eq!(notices.len(), 1, "{notices:?}");
        assert!(
            notices[0].contains("wait_ms was put back to its default"),
            "{notices:?}"
        );
        // The field that clears the rule goes back, not the last one set.
        let (s, notices) = from_query("stack_reserved_kb=50&timeout_ms=3000");
        assert!(s.validate().is_empty());
        assert_eq!(s.timeout_ms, Some(3000.0), "{notices:?}");
        assert_eq!(notices.len(), 1, "{notices:?}");
        assert!(
            notices[0].contains("stack_reserved_kb was put back"),
            "{notices:?}"
        );
        let (s, notices) = from_query("stack_used_kb=60&stack_reserved_kb=50");
        assert!(s.validate().is_empty());
        assert_eq!(s.stack_used_kb, 60.0, "{notices:?}");
        assert_eq!(notices.len(), 1, "{notices:?}");
        let (_, notices) = from_query("arrivals=closed&cpu_ms=0&wait_ms=0&warmup=0");
        assert_eq!(notices.len(), 1, "{notices:?}");
        assert!(!notices[0].contains("warmup"), "{notices:?}");
    }

    /// A pool of 50 switched to thread per request keeps `threads=50` (the
    /// model switch leaves it): its link reads back uncapped, as it was.
    #[test]
    fn a_thread_per_request_link_with_a_pool_size_reads_back_uncapped() {
        let s = Scenario {
            model: crate::Model::ThreadPerRequest,
            threads: 50,
            ..Scenario::default()
        };
        let q = to_query(&s);
        assert!(q.contains("thread_cap=none"), "{q}");
        assert_eq!(from_query(&q), (s, vec![]));
    }
    use crate::presets::presets;
    use crate::scenario::{Arrivals, Model};

    #[test]
    fn the_default_scenario_is_an_empty_query() {
        assert_eq!(to_query(&Scenario::default()), "");
        assert_eq!(from_query(""), (Scenario::default(), vec![]));
    }

    #[test]
    fn only_changed_fields_are_written() {
        let s = Scenario {
            cores: 8,
            model: Model::EventLoop,
            timeout_ms: Some(3000.0),
            ..Scenario::default()
        };
        assert_eq!(to_query(&s), "cores=8&model=event-loop&timeout_ms=3000");
    }

    #[test]
    fn a_link_may_start_from_a_preset_and_change_some_fields() {
        let sale = crate::presets::preset("sale-day").unwrap();
        assert_eq!(from_query("preset=sale-day"), (sale.clone(), vec![]));
        assert_eq!(from_query("preset=Sale-Day").0, sale);
        // The link's own fields win, wherever the preset stands in it.
        let (s, notices) = from_query("rps=123&preset=sale-day&seed=9");
        assert_eq!(notices, Vec::<String>::new());
        assert_eq!(
            s,
            Scenario {
                rps: 123.0,
                seed: 9,
                ..sale.clone()
            }
        );
        // A field the link cannot set keeps the preset's value, said so.
        let (s, notices) = from_query_notices("preset=mm1&cores=abc");
        assert_eq!(s, crate::presets::preset("mm1").unwrap());
        assert_eq!(notices.len(), 1);
        assert_eq!(notices[0].outcome, Outcome::UsedPreset);
        assert!(
            notices[0].text.ends_with("; the preset's value was used"),
            "{notices:?}"
        );
        // A rule between fields puts a field back to the preset's value.
        let (s, notices) = from_query("preset=sale-day&arrivals=closed&cpu_ms=0&wait_ms=0");
        assert!(s.validate().is_empty());
        assert!(
            notices
                .iter()
                .any(|n| n.contains("was put back to the preset's value")),
            "{notices:?}"
        );
        // A repeated preset is said, and the first counts; a repeated field
        // is its own notice.
        let (s, notices) = from_query("preset=sale-day&preset=mm1&rps=5&rps=6");
        assert_eq!(s.rps, 5.0);
        assert_eq!(s.cores, sale.cores);
        assert_eq!(
            notices,
            vec![
                "preset: given twice; the first was used".to_owned(),
                "rps: given twice; the first value was kept".to_owned()
            ]
        );
        // An unknown or missing name says what is allowed and that the
        // defaults are shown; the link's fields stand.
        let (s, notices) = from_query_notices("preset=sael-day&cores=3");
        assert_eq!(s.cores, 3);
        assert_eq!(notices.len(), 1);
        assert_eq!(notices[0].outcome, Outcome::UsedDefault);
        assert!(
            notices[0]
                .text
                .starts_with("preset: no preset 'sael-day' (did you mean 'sale-day'?); the defaults were used; allowed: ")
                && notices[0].text.contains("sale-day"),
            "{notices:?}"
        );
        assert!(from_query("preset=").1[0].starts_with("preset: no name given; "));
    }

    #[test]
    fn every_preset_round_trips_exactly() {
        for p in presets() {
            let q = to_query(&p.scenario);
            let (back, notices) = from_query(&q);
            assert_eq!(notices, Vec::<String>::new(), "{}: {q}", p.name);
            assert_eq!(back, p.scenario, "{}: {q}", p.name);
        }
    }

    #[test]
    fn awkward_floats_and_big_seeds_round_trip_bit_for_bit() {
        let s = Scenario {
            cpu_ms: 0.1 + 0.2,
            rps: 1.0 / 3.0,
            seed: u64::MAX,
            ..Scenario::default()
        };
        let (back, notices) = from_query(&format!("?{}", to_query(&s)));
        assert!(notices.is_empty(), "{notices:?}");
        assert_eq!(back.cpu_ms.to_bits(), s.cpu_ms.to_bits());
        assert_eq!(back, s);
    }

    #[test]
    fn an_optional_field_can_be_switched_off() {
        let (s, n) = from_query("timeout_ms=none&queue_limit=50");
        assert!(n.is_empty(), "{n:?}");
        assert_eq!(s.timeout_ms, None);
        assert_eq!(s.queue_limit, Some(50));
    }

    #[test]
    fn tampered_fields_fall_back_one_by_one_with_a_notice_each() {
        let (s, n) = from_query(
            "cores=8&cpu_ms=NaN&threads=99999999999&corez=4&model=fibers&rps=1e400&seed=%3Cscript%3Ealert(1)%3C/script%3E",
        );
        assert_eq!(s.cores, 8, "good fields are kept");
        let d = Scenario::default();
        assert_eq!(
            (s.cpu_ms, s.threads, s.model, s.rps, s.seed),
            (d.cpu_ms, d.threads, d.model, d.rps, d.seed)
        );
        assert_eq!(n.len(), 6, "{n:?}");
        for f in ["cpu_ms", "threads", "corez", "model", "rps", "seed"] {
            assert!(n.iter().any(|m| m.contains(f)), "no notice for {f}: {n:?}");
        }
        assert!(
            n.iter().all(|m| !m.contains('<') && !m.contains('>')),
            "markup echoed: {n:?}"
        );
    }

    #[test]
    fn out_of_range_values_name_their_range_and_use_the_default() {
        let (s, n) = from_query("cores=0&warmup=5&cpu_ms=-3");
        assert_eq!(s, Scenario::default());
        assert_eq!(n.len(), 3, "{n:?}");
        assert!(
            n[0].contains("cores") && n[0].contains("allowed 1–1,024"),
            "{n:?}"
        );
    }

    #[test]
    fn junk_never_panics() {
        for q in [
            "&&&",
            "=",
            "==",
            "%",
            "%zz=1",
            "cores",
            "cores=",
            "arrivals=closed&clients=0",
            "%E2%82",
            "a=b=c",
        ] {
            let (s, _) = from_query(q);
            assert!(s.validate().is_empty(), "{q}");
        }
        let (s, n) = from_query("arrivals=closed&clients=0");
        assert_eq!(s.arrivals, Arrivals::Closed);
        assert_eq!(s.clients, Scenario::default().clients);
        assert_eq!(n.len(), 1, "{n:?}");
    }

    #[test]
    fn old_thread_per_request_links_keep_their_cap() {
        let (s, n) = from_query("model=thread-per-request&threads=0");
        assert!(n.is_empty(), "{n:?}");
        assert_eq!(s.thread_limit(), None);
        let (s, _) = from_query("model=thread-per-request&threads=30");
        assert_eq!(s.thread_limit(), Some(30));
        let (s, _) = from_query("threads=30");
        assert_eq!(s.threads, 30, "a pool's size is still threads");
    }

    #[test]
    fn old_links_with_json_style_numbers_still_read() {
        let (s, n) = from_query("timeout_ms=3000.0&queue_limit=none");
        assert!(n.is_empty(), "{n:?}");
        assert_eq!(s.timeout_ms, Some(3000.0));
    }

    /// Settings with no name are one notice, and an unknown name given
    /// twice is told once (`?=&==` said "unknown field '' was ignored"
    /// once for each).
    #[test]
    fn nameless_and_repeated_unknown_settings_are_told_once() {
        let (s, n) = from_query("=&==&cores=2&x=1&x=2");
        assert_eq!(s.cores, 2);
        assert_eq!(
            n,
            [
                "unknown field 'x' was ignored",
                "2 settings with no name were ignored"
            ]
        );
        let (_, n) = from_query("=5");
        assert_eq!(n, ["a setting with no name was ignored"]);
    }

    /// A field written as its flag (`cpu-ms`, from `tellers help`), in
    /// capitals or without its unit was ignored with no word of the field
    /// meant, where a file's reader and the CLI name it.
    #[test]
    fn an_unknown_field_near_a_fields_name_is_named() {
        for (link, meant) in [
            ("cpu-ms=5", "cpu_ms"),
            ("Threads=5", "threads"),
            ("timeout=500", "timeout_ms"),
            ("duration=30", "duration_s"),
        ] {
            let (s, n) = from_query(link);
            assert_eq!(s, Scenario::default(), "{link}");
            let key = link.split('=').next().unwrap();
            // The spelling explained where it is another's (`-`, capitals).
            let why = if key.contains('-') || key.contains('T') {
                " a link's field names are in small letters, joined by _"
            } else {
                ""
            };
            assert_eq!(
                n,
                [format!(
                    "unknown field '{key}' was ignored (did you mean '{meant}'?{why})"
                )],
                "{link}"
            );
        }
        // Misspelt by two edits at most (a swap counts as one): named.
        let (_, n) = from_query("thredas=5");
        assert_eq!(
            n,
            ["unknown field 'thredas' was ignored (did you mean 'threads'?)"]
        );
        let (_, n) = from_query("colour=5");
        assert_eq!(n, ["unknown field 'colour' was ignored"]);
    }

    #[test]
    fn a_link_padded_with_names_is_read_up_to_a_limit_and_its_notices_are_few() {
        let padded: Vec<String> = (0..3000).map(|i| format!("k{i}=1")).collect();
        let (s, notices) = from_query(&format!("cores=8&{}", padded.join("&")));
        assert_eq!(s.cores, 8);
        assert_eq!(notices.len(), MAX_UNKNOWN_LISTED + 2, "{notices:?}");
        assert_eq!(notices[0], "unknown field 'k0' was ignored");
        assert_eq!(
            notices[MAX_UNKNOWN_LISTED],
            format!(
                "{} more unknown fields were ignored",
                MAX_LINK_SETTINGS - 1 - MAX_UNKNOWN_LISTED
            )
        );
        assert_eq!(
            notices[MAX_UNKNOWN_LISTED + 1],
            format!("the link has 3001 settings; only the first {MAX_LINK_SETTINGS} were read")
        );
        // Settings past the limit are not read, whatever they are.
        let late = format!("{}&cores=4", padded[..MAX_LINK_SETTINGS].join("&"));
        assert_eq!(from_query(&late).0.cores, Scenario::default().cores);
    }

    #[test]
    fn repeated_fields_keep_the_first() {
        let (s, n) = from_query("cores=2&cores=3");
        assert_eq!(s.cores, 2);
        assert_eq!(n.len(), 1);
    }

    /// Each notice says what the field shows: a repeated field its first
    /// value, only while that value stood; a bad one its default; an
    /// unknown name nothing (it said "the first value was kept" of a field
    /// showing its default).
    #[test]
    fn each_notice_says_what_the_field_shows() {
        let notice = |outcome, text: &str| Notice {
            outcome,
            text: text.to_owned(),
        };
        let (s, n) = from_query_notices("cores=6&cores=8");
        assert_eq!(s.cores, 6);
        assert_eq!(
            n,
            [notice(
                Outcome::KeptFirst,
                "cores: given twice; the first value was kept"
            )]
        );
        let (s, n) = from_query_notices("cores=2&cores=3&cores=5&rps=9");
        assert_eq!((s.cores, s.rps), (2, 9.0));
        assert_eq!(
            n,
            [notice(
                Outcome::KeptFirst,
                "cores: given 3 times; the first value was kept"
            )]
        );
        // The first value was refused: the default shows, not the first.
        let (s, n) = from_query_notices("cores=abc&cores=8");
        assert_eq!(s.cores, Scenario::default().cores);
        assert_eq!(n.len(), 2, "{n:?}");
        assert_eq!(n[0].outcome, Outcome::UsedDefault);
        assert_eq!(
            n[1],
            notice(
                Outcome::UsedDefault,
                "cores: given twice; only the first value was read"
            )
        );
        // The first value was read, then a rule put the field back.
        let (s, n) =
            from_query_notices("stack_reserved_kb=50&stack_reserved_kb=60&timeout_ms=3000");
        assert_eq!(s.stack_reserved_kb, Scenario::default().stack_reserved_kb);
        assert_eq!(
            n[0],
            notice(
                Outcome::UsedDefault,
                "stack_reserved_kb: given twice; only the first value was read"
            )
        );
        assert!(n.iter().all(|x| x.outcome == Outcome::UsedDefault), "{n:?}");
        let (_, n) = from_query_notices("bogus=1&cores=0");
        assert_eq!(
            n.iter().map(|x| x.outcome).collect::<Vec<_>>(),
            [Outcome::Ignored, Outcome::UsedDefault]
        );
        // The plain reader says the same words.
        let (_, texts) = from_query("cores=6&cores=8");
        assert_eq!(texts, ["cores: given twice; the first value was kept"]);
    }
}
