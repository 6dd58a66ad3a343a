//! # tellers-course
//!
//! The course behind Tellers: lessons in `lessons/NN-slug.md`, each made of
//! Markdown text, "predict" prompts, embedded simulations (`sim` blocks, the
//! scenario schema of `tellers-sim`) and exercises (`exercise` blocks, TOML).
//!
//! ```text
//!  lessons/*.md ──(build time: parse, validate, Markdown→HTML, $…$→MathML)──► course.json
//!  course.json ──(in the app)──► Course ──► Exercise::variant(seed) ──► check(answer)
//! ```
//!
//! The `build` feature (on by default; the app turns it off) holds the
//! parsing, so the browser carries neither a Markdown nor a TOML parser.

pub mod check;
#[cfg(feature = "build")]
pub mod claim;
pub mod exercise;
pub mod expr;
pub mod lesson;
pub mod math;
#[cfg(feature = "build")]
pub mod parse;

pub use check::{
    check, check_exercise, check_guess, check_in, decimals_asked, describe, points_to_hints, Unit,
    Verdict,
};
pub use exercise::{format_number, Exercise, Kind, Slip, Variant};
pub use lesson::{Course, Lesson, Segment, SimBlock};
