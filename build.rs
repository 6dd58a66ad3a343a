//! Compiles the course (`lessons/*.md`) into JSON for the app. A broken
//! lesson — a bad scenario block, an unknown widget, an exercise whose
//! answer does not evaluate — fails the build here, not in a learner's browser.

use std::path::Path;

fn main() {
    let root = std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR");
    let dir = Path::new(&root).join("lessons");
    println!("cargo:rerun-if-changed=lessons");
    let course = match tellers_course::parse::parse_course(&dir) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("error: broken lesson: {e}");
            std::process::exit(1);
        }
    };
    let out = Path::new(&std::env::var("OUT_DIR").expect("cargo sets OUT_DIR")).join("course.json");
    let json = serde_json::to_string(&course).expect("the course serialises");
    std::fs::write(&out, json).expect("OUT_DIR is writable");
}
