//! Lesson 16's hedged calls on a dependency that serves 160 calls at once:
//! hedges send nearly every call twice and the dependency melts. The signs
//! and theory must say so, with figures that agree with each other.

use tellers_sim::analytic::{self, Limit};
use tellers_sim::presets::preset;
use tellers_sim::signs::{read_signs, Sign, SignKind};
use tellers_sim::theory::theory;
use tellers_sim::{simulate, Report, Scenario};

/// The lesson's second simulation with `dep_concurrency` slots, run to its end.
fn hedged(slots: u32) -> Scenario {
    Scenario {
        dep_concurrency: Some(slots),
        ..preset("fan-out-100-hedged").unwrap()
    }
}

fn run(s: &Scenario) -> (Report, Vec<Sign>) {
    let r = simulate(s).unwrap();
    let signs = read_signs(s, &r, &theory(s));
    (r, signs)
}

fn sign(signs: &[Sign], kind: SignKind) -> &Sign {
    signs
        .iter()
        .find(|g| g.kind == kind)
        .unwrap_or_else(|| panic!("no {kind:?} in {signs:?}"))
}

/// The number just before `unit` after `after` in `text`: "80" from
/// "(the dependency limit is 80 rps".
fn number_after(text: &str, after: &str, unit: &str) -> f64 {
    let rest = &text[text
        .find(after)
        .unwrap_or_else(|| panic!("{after:?} in {text}"))
        + after.len()..];
    let end = rest
        .find(unit)
        .unwrap_or_else(|| panic!("{unit:?} in {rest}"));
    rest[..end]
        .trim()
        .replace(',', "")
        .parse()
        .unwrap_or_else(|e| panic!("{e}: {rest}"))
}

#[test]
fn the_growing_line_names_the_dependency_limit_the_hedges_leave() {
    let s = hedged(160);
    let (r, signs) = run(&s);
    let grow = &sign(&signs, SignKind::LineGrowing).detail;
    let arrive = number_after(grow, " on): ", " rps arrive");
    let finish = number_after(grow, "rps arrive, ", " rps finish");
    let limit = number_after(grow, "(the dependency limit is ", " rps");
    // Arrivals above capacity: the limit it names is below the arrivals,
    // and is what the run finishes (80 rps: every call sent twice).
    assert!(limit < arrive, "{grow}");
    assert!((limit - finish).abs() <= 2.0, "{grow}");
    assert!(
        (r.throughput_rps - 80.0).abs() < 2.0,
        "{}",
        r.throughput_rps
    );
    assert!(grow.contains("of its calls sent again)"), "{grow}");
}

#[test]
fn the_dependency_sign_blames_the_hedges_with_the_runs_share() {
    let (_, signs) = run(&hedged(160));
    let dep = sign(&signs, SignKind::ConnectionPoolLimit);
    assert_eq!(
        dep.title, "Hedges overload the dependency",
        "{}",
        dep.detail
    );
    let most = number_after(&dep.detail, "held per request = ", " rps at most");
    assert!((most - 80.0).abs() <= 1.0, "{}", dep.detail);
    assert!(
        dep.detail.contains("Hedges add to the load")
            && dep.detail.contains("rather than 1,000 ms"),
        "{}",
        dep.detail
    );
}

/// 100 slots cannot keep up even with few calls sent again: the sign gives
/// the limit's own remedy (more slots, less time per call) before what the
/// hedges add, not the hedges' alone.
#[test]
fn an_overloaded_dependency_keeps_its_own_remedy_beside_the_hedges() {
    let (_, signs) = run(&hedged(100));
    let dep = sign(&signs, SignKind::ConnectionPoolLimit);
    assert_eq!(dep.title, "The dependency is the limit", "{}", dep.detail);
    assert!(
        dep.detail.contains(
            "A dependency that serves more calls at once, or less time per call there, helps. Hedges add to the load"
        ),
        "{}",
        dep.detail
    );
}

#[test]
fn the_slowest_call_is_not_blamed_when_the_dependency_is_overloaded() {
    let (_, signs) = run(&hedged(160));
    let kinds: Vec<_> = signs.iter().map(|g| g.kind).collect();
    assert!(!kinds.contains(&SignKind::SlowestCallDecides), "{signs:?}");
    // With room at the dependency (300 slots keep up), the fan-out's tail
    // is named as before, and hedges are not blamed.
    let (r, signs) = run(&hedged(300));
    assert!(r.latency_ms.mean < 100.0, "{}", r.latency_ms.mean);
    let kinds: Vec<_> = signs.iter().map(|g| g.kind).collect();
    assert!(kinds.contains(&SignKind::SlowestCallDecides), "{signs:?}");
    assert!(!kinds.contains(&SignKind::LineGrowing), "{signs:?}");
}

#[test]
fn theory_gives_no_hedge_share_or_wait_when_hedges_can_melt_the_dependency() {
    // 100 rps × 100 calls × 10 ms: 152 rps at most with 5 % sent again,
    // 80 rps with all of them, below the 100 arriving.
    let th = theory(&hedged(160));
    let o = th.dep.hedge_overload.expect("hedges can overload it");
    assert!(!o.certain);
    assert!((o.all_limit_rps - 80.0).abs() < 1e-9, "{o:?}");
    assert!((o.few_limit_rps - 152.4).abs() < 0.1, "{o:?}");
    assert_eq!(th.dep.hedge_share, None);
    assert_eq!(th.dep.queue_wait_ms, None);
    assert_eq!(th.dep.calls_rps, None);
    assert_eq!(
        th.growth_per_s, None,
        "keeping up or melting: no growth to give"
    );
    assert_eq!(th.mean_ms, None);
    let why = th.approx_because.join("; ");
    assert!(
        why.contains("hedges can overload the dependency")
            && why.contains("at most 80 rps, less than the 100 rps that reach it"),
        "{why}"
    );
    // With room even for every call sent twice, theory gives its figures.
    let th = theory(&hedged(220));
    assert_eq!(th.dep.hedge_overload, None);
    assert!((th.dep.hedge_share.unwrap() - (-3.0f64).exp()).abs() < 1e-12);
    assert_eq!(th.growth_per_s, Some(0.0));
    // But no wait at its slots: a request's 100 calls reach them together,
    // and wait far longer than Erlang C's calls at random moments (at 160
    // slots without hedges, runs of 3.5 ms where it gave under 0.01).
    assert_eq!(th.dep.queue_wait_ms, None);
    let plain = Scenario {
        hedge_after_ms: None,
        ..hedged(160)
    };
    let r = simulate(&Scenario {
        duration_s: 30.0,
        ..plain.clone()
    })
    .unwrap();
    let erlang = analytic::mmc_wait_ms(160, plain.wait_ms, 100.0 * 100.0 * 0.01 / 160.0);
    assert!(
        r.dep_queue_wait_ms.mean > 100.0 * erlang,
        "{} against {erlang}",
        r.dep_queue_wait_ms.mean
    );
    assert_eq!(theory(&plain).dep.queue_wait_ms, None);
    // One call a request keeps Erlang C.
    let single = Scenario {
        fan_out: 1,
        ..plain
    };
    assert!(theory(&single).dep.queue_wait_ms.is_some());
}

#[test]
fn theory_counts_every_call_twice_when_the_dependency_is_overloaded_anyway() {
    // 100 slots: 95 rps at most even with 5 % sent again, below the 100
    // arriving; its line grows, every call is sent again: 50 rps.
    let s = hedged(100);
    let th = theory(&s);
    assert!(th.dep.hedge_overload.is_some_and(|o| o.certain));
    assert_eq!(th.dep.hedge_share, Some(1.0));
    assert_eq!(th.dep.queue_wait_ms, None);
    assert_eq!(th.capacity.binding, Limit::Dependency);
    assert!((th.capacity.capacity_rps - 50.0).abs() < 1e-9);
    assert!((th.growth_per_s.unwrap() - 50.0).abs() < 1e-9);
    // analytic::capacity still gives the limit with few sent again.
    assert!((analytic::capacity(&s).capacity_rps - 95.26).abs() < 0.01);
    let (r, signs) = run(&s);
    assert!(
        (r.throughput_rps - 50.0).abs() < 1.5,
        "{}",
        r.throughput_rps
    );
    let extra = r.hedges as f64 / (r.dep_calls - r.hedges) as f64;
    assert!(extra > 0.95, "{extra}");
    // Overloaded even with few sent again: the dependency is the limit,
    // hedges or not, and the sign says what they add.
    let dep = sign(&signs, SignKind::ConnectionPoolLimit);
    assert_eq!(dep.title, "The dependency is the limit", "{}", dep.detail);
    assert!(
        dep.detail.contains("Hedges add to the load"),
        "{}",
        dep.detail
    );
    let grow = &sign(&signs, SignKind::LineGrowing).detail;
    let limit = number_after(grow, "(the dependency limit is ", " rps");
    assert!((limit - 50.0).abs() <= 1.0, "{grow}");
}
