//! A minimal GTP controller for tests: spawns an engine and exchanges commands with it.
#![allow(dead_code)]
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic on setup failures

use std::{
    io::{BufRead, BufReader, Write},
    process::{Child, ChildStdin, ChildStdout, Command, Stdio},
};

#[derive(Debug)]
pub struct Gtp {
    pub name: String,
    child: Child,
    input: ChildStdin,
    output: BufReader<ChildStdout>,
}

impl Gtp {
    pub fn spawn(program: &str, args: &[&str]) -> Gtp {
        let mut child = Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {program}: {e} (run `make test`, which installs it)"));
        let input = child.stdin.take().expect("stdin");
        let output = BufReader::new(child.stdout.take().expect("stdout"));
        Gtp { name: program.rsplit('/').next().unwrap_or(program).into(), child, input, output }
    }

    /// Sends a command; `Ok(answer)` for `=`, `Err(message)` for `?`.
    pub fn cmd(&mut self, command: &str) -> Result<String, String> {
        writeln!(self.input, "{command}").expect("write to engine");
        self.input.flush().expect("flush");
        let mut text = String::new();
        loop {
            let mut line = String::new();
            let n = self.output.read_line(&mut line).expect("read from engine");
            assert!(n > 0, "{} closed its output after {command:?}", self.name);
            if line.trim().is_empty() && !text.is_empty() {
                break;
            }
            if line.trim().is_empty() {
                continue;
            }
            text.push_str(&line);
        }
        let text = text.trim_end().to_string();
        // Answers may echo the command's id: `=7 result`.
        let strip_id = |r: &str| r.trim_start_matches(|c: char| c.is_ascii_digit()).trim().to_string();
        if let Some(rest) = text.strip_prefix('=') {
            Ok(strip_id(rest))
        } else if let Some(rest) = text.strip_prefix('?') {
            Err(strip_id(rest))
        } else {
            panic!("{}: malformed answer {text:?} to {command:?}", self.name)
        }
    }

    /// The answer exactly as the engine wrote it (without the closing blank line).
    pub fn handle_raw(&mut self, command: &str) -> String {
        writeln!(self.input, "{command}").expect("write to engine");
        self.input.flush().expect("flush");
        let mut line = String::new();
        self.output.read_line(&mut line).expect("read");
        let mut blank = String::new();
        self.output.read_line(&mut blank).expect("read");
        line.trim_end().to_string()
    }

    pub fn ok(&mut self, command: &str) -> String {
        self.cmd(command).unwrap_or_else(|e| panic!("{}: {command:?} failed: {e}", self.name))
    }
}

impl Drop for Gtp {
    fn drop(&mut self) {
        let _ = writeln!(self.input, "quit");
        let _ = self.input.flush();
        let _ = self.child.wait();
    }
}

/// A sorted list of vertices from a GTP answer (upper case).
pub fn vertices(answer: &str) -> Vec<String> {
    let mut v: Vec<String> = answer.split_whitespace().map(|s| s.to_ascii_uppercase()).collect();
    v.sort();
    v
}
