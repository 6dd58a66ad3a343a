//! The `tellers` binary's output when stdout fails: a closed pipe ends it
//! quietly, any other failed write is said on stderr with status 1.

use std::io::Read;
use std::process::{Command, Stdio};

fn tellers() -> Command {
    Command::new(env!("CARGO_BIN_EXE_tellers"))
}

/// One test, so no other test's child holds the pipe open while it forks
/// (a closed pipe then looked open, and a wrong status went unseen).
#[test]
fn a_failed_write_is_said_and_a_closed_pipe_is_quiet() {
    a_failed_write_is_said_with_status_1();
    a_closed_pipe_ends_quietly();
}

/// `tellers presets > /dev/full` lost its output and exited 0 without a word.
fn a_failed_write_is_said_with_status_1() {
    let full = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .expect("/dev/full (Linux)");
    for args in [
        &["presets"][..],
        &["help"],
        &["simulate", "--duration-s", "1"],
    ] {
        let out = tellers()
            .args(args)
            .stdout(Stdio::from(full.try_clone().unwrap()))
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {err}");
        assert!(
            err.contains("tellers: cannot write the output: No space left on device"),
            "{args:?}: {err}"
        );
    }
}

/// A reader that has gone (`| head -1` once it has its line) ends the
/// program quietly. The pipe is closed before the program starts writing
/// (it is still starting up), so its first write meets the closed pipe.
fn a_closed_pipe_ends_quietly() {
    let mut child = tellers()
        .args(["presets", "--json"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let mut err = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(0), "{err}");
    assert_eq!(err, "");
}
