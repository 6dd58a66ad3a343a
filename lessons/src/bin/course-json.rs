//! Writes the compiled course next to the built app, as the file the app
//! fetches when a learner opens the lessons.
//!
//!   course-json [LESSONS_DIR] [OUT_DIR]
//!
//! LESSONS_DIR defaults to `lessons`; OUT_DIR to `$TRUNK_STAGING_DIR` (trunk
//! runs this as a post-build hook, see Trunk.toml). Prints the file written.

use std::path::PathBuf;
use std::process::ExitCode;

fn main() -> ExitCode {
    let mut args = std::env::args().skip(1);
    let lessons = PathBuf::from(args.next().unwrap_or_else(|| "lessons".into()));
    let Some(out) = args
        .next()
        .or_else(|| std::env::var("TRUNK_STAGING_DIR").ok())
        .map(PathBuf::from)
    else {
        eprintln!(
            "course-json: no output folder: give one, or run it from trunk (TRUNK_STAGING_DIR)"
        );
        return ExitCode::from(2);
    };
    let (json, name) = match tellers_course::parse::compile_course(&lessons) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("course-json: broken lesson: {e}");
            return ExitCode::FAILURE;
        }
    };
    let path = out.join(&name);
    if let Err(e) = std::fs::create_dir_all(&out).and_then(|()| std::fs::write(&path, json)) {
        eprintln!("course-json: cannot write {}: {e}", path.display());
        return ExitCode::FAILURE;
    }
    println!("{}", path.display());
    ExitCode::SUCCESS
}
