//! The `gobeyond` binary as a user runs it.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic on setup failures

mod gtp;
#[path = "../gtp_client/mod.rs"]
mod gtp_client;
mod maps_and_records;
mod matches;
mod patterns;
mod terminal;

use std::{
    io::Write,
    process::{Command, Stdio},
};

use gtp_client::Gtp;

const BIN: &str = env!("CARGO_BIN_EXE_gobeyond");

fn run(args: &[&str], stdin: &str) -> (bool, String, String) {
    let mut child = Command::new(BIN)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // A command that refuses its arguments may exit before reading its input: a closed pipe
    // is its answer, not the test's failure.
    if let Err(e) = child.stdin.take().unwrap().write_all(stdin.as_bytes()) {
        assert_eq!(e.kind(), std::io::ErrorKind::BrokenPipe, "{e}");
    }
    let out = child.wait_with_output().unwrap();
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into(),
        String::from_utf8_lossy(&out.stderr).into(),
    )
}

fn tmp(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("gobeyond-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}
