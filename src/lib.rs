//! Tellers, the web app: a live lab, in the browser, for how one server
//! handles many requests.
//!
//! `main.rs` only mounts [`App`]. Each thing the learner sees is one
//! component in [`components`]; anything that branches on domain values
//! (such as which page a URL opens, in [`route`]) is a plain function with
//! a native test, so `cargo test` checks it without a browser.

pub mod answer;
pub mod charts;
pub mod classroom;
pub mod clipboard;
pub mod components;
pub mod controls;
pub mod course_data;
pub mod draw;
pub mod figures;
pub mod format;
pub mod lab;
pub mod page_change;
pub mod playground;
pub mod predict;
pub mod progress;
pub mod results;
pub mod reveal;
pub mod route;
pub mod session;
pub mod stopped;
pub mod worksheet;

pub use components::{App, SimWidget};
pub use route::{route_from_hash, Route};
