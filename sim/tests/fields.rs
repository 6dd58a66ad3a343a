//! The field table's promise: every scenario field has a flag, a URL key,
//! a validation range and a label, and every reader agrees with the table.
//! A field added to the struct without one of these fails here.

use tellers_sim::cli::{fields_help, parse, Command};
use tellers_sim::fields::{Control, Kind, Value};
use tellers_sim::query::{from_query, to_query};
use tellers_sim::scenario::Field;
use tellers_sim::scenario::FIELDS;
use tellers_sim::Scenario;

/// A valid value of `f` other than its default, and the scenario holding it.
fn changed(f: &Field) -> (Value, Scenario) {
    let base = Scenario::default();
    let default = (f.get)(&base);
    let candidates: Vec<Value> = match f.kind {
        Kind::Int { min, max } => vec![Value::Int(min), Value::Int(max), Value::Int(min + 1)],
        Kind::Real { min, max } => vec![
            Value::Real(min),
            Value::Real(max),
            Value::Real((min + max) / 2.0),
        ],
        Kind::Switch => vec![Value::Switch(true), Value::Switch(false)],
        Kind::Choice(c) => c.iter().map(|(n, _)| Value::Choice(n)).collect(),
        Kind::Schedule => vec![Value::Schedule(
            "0:150,10:400,15:150".parse().expect("a good schedule"),
        )],
    };
    for v in candidates {
        if v == default {
            continue;
        }
        let mut s = base.clone();
        if (f.set)(&mut s, v) && s.validate().is_empty() {
            return (v, s);
        }
    }
    panic!("{}: no valid value other than the default", f.name);
}

#[test]
fn the_struct_and_the_table_name_the_same_fields_in_order() {
    let json = serde_json::to_value(Scenario::default()).unwrap();
    let keys: Vec<&str> = json
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    let mut names: Vec<&str> = FIELDS.iter().map(|f| f.name).collect();
    names.sort_unstable();
    let mut keys_sorted = keys.clone();
    keys_sorted.sort_unstable();
    assert_eq!(names, keys_sorted, "every serde key is one table entry");
}

#[test]
fn every_field_has_a_label_help_and_a_range_that_refuses() {
    for f in FIELDS {
        assert!(!f.label.is_empty() && !f.help.is_empty(), "{}", f.name);
        match f.kind {
            Kind::Int { min, max } => {
                assert!(min <= max, "{}", f.name);
                if max < u64::MAX {
                    assert!(f.check(Value::Int(max + 1)).is_err(), "{}", f.name);
                }
            }
            Kind::Real { min, max } => {
                assert!(
                    min.is_finite() && max.is_finite() && min <= max,
                    "{}",
                    f.name
                );
                assert!(f.check(Value::Real(max * 2.0 + 1.0)).is_err(), "{}", f.name);
                assert!(f.check(Value::Real(f64::NAN)).is_err(), "{}", f.name);
            }
            Kind::Switch => {}
            Kind::Choice(c) => assert!(c.len() >= 2, "{}", f.name),
            Kind::Schedule => assert!(f.parse("0:1,0:2").is_err(), "{}", f.name),
        }
        assert!(
            f.check((f.get)(&Scenario::default())).is_ok(),
            "{}: the default is allowed",
            f.name
        );
    }
}

#[test]
fn every_field_is_a_flag_and_a_url_key() {
    for f in FIELDS {
        let (v, want) = changed(f);
        // The command line.
        let mut line = vec!["simulate".to_owned(), f.flag(), v.to_string()];
        // `--requests` alone lifts the run's time bound (documented); pin it.
        if f.name == "requests" {
            line.extend(["--duration-s".to_owned(), "60".to_owned()]);
        }
        match parse(&line, &|_| Err("no files".into())) {
            Ok(Command::Simulate { scenario, .. }) => assert_eq!(scenario, want, "{line:?}"),
            other => panic!("{line:?}: {other:?}"),
        }
        // The URL.
        let q = to_query(&want);
        assert!(q.contains(&format!("{}=", f.name)), "{}: {q}", f.name);
        let (back, notices) = from_query(&q);
        assert!(notices.is_empty(), "{}: {notices:?}", f.name);
        assert_eq!(back, want, "{}: {q}", f.name);
    }
}

#[test]
fn sliders_sit_inside_their_field_range() {
    for f in FIELDS {
        if let Control::Slider { min, max, step } = f.control {
            assert!(step > 0.0 && min < max, "{}", f.name);
            assert!(
                min >= f.min() && max <= f.max(),
                "{}: slider {min}–{max}",
                f.name
            );
        }
        if matches!(f.control, Control::Select) {
            assert!(!f.choices().is_empty(), "{}", f.name);
        }
        if f.in_playground {
            assert!(!matches!(f.control, Control::None), "{}", f.name);
        }
    }
}

#[test]
fn choice_names_are_what_json_writes() {
    for f in FIELDS {
        for (name, _) in f.choices() {
            let mut s = Scenario::default();
            assert!((f.set)(&mut s, Value::Choice(name)), "{}={name}", f.name);
            let json = serde_json::to_value(&s).unwrap();
            assert_eq!(json[f.name], *name, "{}", f.name);
        }
    }
}

#[test]
fn the_readme_lists_the_flags_tellers_help_prints() {
    let readme = include_str!("../../README.md");
    let begin = "<!-- tellers help: begin -->\n```text\n";
    let end = "```\n<!-- tellers help: end -->";
    let start = readme.find(begin).expect("README has the flag list") + begin.len();
    let stop = readme[start..].find(end).expect("the flag list ends") + start;
    assert_eq!(
        &readme[start..stop],
        fields_help(),
        "README's flag list differs from `tellers help`: paste the FLAGS part of `tellers help`"
    );
}

#[test]
fn a_range_shows_its_whole_numbers_exactly() {
    // Through f64 the seed's top read 18446744073709552000, above u64::MAX.
    let seed = FIELDS.iter().find(|f| f.name == "seed").unwrap();
    assert_eq!(seed.allowed(), "0–18,446,744,073,709,551,615");
    let cores = FIELDS.iter().find(|f| f.name == "cores").unwrap();
    assert_eq!(cores.allowed(), "1–1,024 cores");
}

#[test]
fn a_batch_fits_inside_the_server_the_engine_keeps() {
    // A batch arrives whole at t = 0: a larger one could never run (the
    // engine stops at MAX_IN_FLIGHT) and was allowed, with a report of zeros.
    let count = FIELDS.iter().find(|f| f.name == "count").unwrap();
    assert_eq!(
        count.kind,
        Kind::Int {
            min: 1,
            max: tellers_sim::engine::MAX_IN_FLIGHT
        }
    );
}

#[test]
fn a_scenario_file_value_too_large_for_its_field_says_what_is_allowed() {
    let e = Scenario::from_json(r#"{"cores": 5000000000}"#).unwrap_err();
    let text = e[0].to_string();
    assert!(
        text.contains("cores: 5000000000 is not allowed; allowed 1–1,024 cores"),
        "{text}"
    );
}

#[test]
fn a_count_past_the_largest_is_refused_not_read_as_the_largest() {
    // 2^64 as JSON was read as 2^64 − 1 (f64 → u64 saturates), where the
    // flag and the URL refuse it.
    let seed = FIELDS.iter().find(|f| f.name == "seed").unwrap();
    let past: serde_json::Value = serde_json::from_str("18446744073709551616").unwrap();
    let e = seed.from_json(&past).unwrap_err();
    assert!(
        e == "the number is out of range; allowed 0–18,446,744,073,709,551,615",
        "{e}"
    );
    let top: serde_json::Value = serde_json::from_str("18446744073709551615").unwrap();
    assert!(seed.from_json(&top).is_ok());
    let whole: serde_json::Value = serde_json::from_str("8.0").unwrap();
    assert!(seed.from_json(&whole).is_ok());
}
