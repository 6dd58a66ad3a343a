//! Compiles the course (`lessons/*.md`) into JSON. A broken lesson — a bad
//! scenario block, an unknown widget, an exercise whose answer does not
//! evaluate — fails the build here, not in a learner's browser.
//!
//! The app fetches the course at run time from `course-<hash>.json` (written
//! into dist/ by the `course-json` hook in Trunk.toml, from the same lessons
//! by the same code); the name reaches the app as `TELLERS_COURSE_FILE`.
//! Native builds (the tests) read the JSON from OUT_DIR instead.

use std::path::Path;

fn main() {
    let root = std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR");
    let dir = Path::new(&root).join("lessons");
    println!("cargo:rerun-if-changed=lessons");
    let (json, name) = match tellers_course::parse::compile_course(&dir) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("error: broken lesson: {e}");
            std::process::exit(1);
        }
    };
    let out = Path::new(&std::env::var("OUT_DIR").expect("cargo sets OUT_DIR")).join("course.json");
    std::fs::write(&out, json).expect("OUT_DIR is writable");
    println!("cargo:rustc-env=TELLERS_COURSE_FILE={name}");
}
