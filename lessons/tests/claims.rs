//! Every claim the lessons state, run on each of seeds 1 to 20: what a
//! caption or a sentence says the simulator shows, it shows. The build has
//! already checked that every such caption and sentence cites a claim.

use std::path::Path;
use std::time::Instant;
use tellers_course::claim::{map_on_cores, Claim};
use tellers_course::parse::parse_course_with_claims;

fn claims() -> Vec<(String, Claim)> {
    parse_course_with_claims(Path::new(env!("CARGO_MANIFEST_DIR")))
        .unwrap_or_else(|e| panic!("{e}"))
        .1
}

#[test]
fn every_claim_holds_on_every_seed() {
    let all = claims();
    assert!(all.len() >= 40, "only {} claims", all.len());
    let start = Instant::now();
    // The machine may have few cores; split the claims over them.
    let failures: Vec<String> = map_on_cores(&all, |(slug, c)| {
        c.check().err().map(|e| format!("{slug}: {e}"))
    })
    .into_iter()
    .flatten()
    .collect();
    assert!(
        failures.is_empty(),
        "{} of {} claims fail:\n{}",
        failures.len(),
        all.len(),
        failures.join("\n")
    );
    eprintln!(
        "{} claims held on all twenty seeds in {:.1} s",
        all.len(),
        start.elapsed().as_secs_f64()
    );
}
