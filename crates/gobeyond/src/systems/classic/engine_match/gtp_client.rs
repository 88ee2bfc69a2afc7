//! The controller's side of a GTP engine: the child process it talks to, and the clock it keeps
//! for it (sent as `time_settings` and `time_left`, as GoGui's twogtp does).

use std::{
    io::{BufRead, BufReader, Write},
    process::{Child, ChildStdin, ChildStdout, Command, Stdio},
};

use anyhow::{Context, Result, bail};

/// A GTP engine in a child process.
pub(super) struct Engine {
    pub(super) name: String,
    child: Child,
    input: ChildStdin,
    output: BufReader<ChildStdout>,
    /// Takes only whole seconds in `time_left`.
    whole_seconds: bool,
}

impl Engine {
    pub(super) fn spawn(spec: &str, seed: u64) -> Result<Engine> {
        let (program, args): (String, Vec<String>) = match spec.strip_prefix("self") {
            Some(rest) => {
                let mut args = vec!["gtp".to_string()];
                for opt in rest.trim_start_matches(':').split(',').filter(|s| !s.is_empty()) {
                    let (k, v) = opt.split_once('=').context("self:NAME=VALUE,...")?;
                    args.push(format!("--{k}"));
                    args.push(v.to_string());
                }
                if !rest.contains("seed=") {
                    args.extend(["--seed".to_string(), seed.to_string()]);
                }
                (std::env::current_exe()?.to_string_lossy().into_owned(), args)
            }
            None => {
                // `{seed}` in a command line is the game's seed (e.g. GNU Go's `--seed {seed}`,
                // which otherwise plays the same game every time).
                let spec = spec.replace("{seed}", &seed.to_string());
                let mut words = spec.split_whitespace().map(String::from);
                let program = words.next().context("empty engine command")?;
                (program, words.collect())
            }
        };
        let mut child = Command::new(&program)
            .args(&args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .with_context(|| format!("cannot start {program}"))?;
        let input = child.stdin.take().context("no stdin")?;
        let output = BufReader::new(child.stdout.take().context("no stdout")?);
        Ok(Engine { name: spec.to_string(), child, input, output, whole_seconds: false })
    }

    pub(super) fn cmd(&mut self, command: &str) -> Result<String> {
        writeln!(self.input, "{command}")?;
        self.input.flush()?;
        let mut text = String::new();
        loop {
            let mut line = String::new();
            if self.output.read_line(&mut line)? == 0 {
                bail!("{} closed its output after {command:?}", self.name);
            }
            if line.trim().is_empty() {
                if text.is_empty() {
                    continue;
                }
                break;
            }
            text.push_str(&line);
        }
        let text = text.trim();
        match text.strip_prefix('=') {
            Some(rest) => Ok(rest.trim_start_matches(|c: char| c.is_ascii_digit()).trim().to_string()),
            None => bail!("{}: {command:?} failed: {text}", self.name),
        }
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = writeln!(self.input, "quit");
        let _ = self.input.flush();
        let _ = self.child.wait();
    }
}

/// A player's clock as the controller keeps it: main time, then a byo-yomi period per move.
#[derive(Debug, Clone, Copy)]
pub(super) struct Clock {
    pub(super) main: f64,
    pub(super) byo: f64,
}

impl Clock {
    /// What GTP's `time_left` says: seconds and stones left (0 stones: main time).
    pub(super) fn time_left(&self) -> (f64, u32) {
        if self.main > 0.0 { (self.main, 0) } else { (self.byo, 1) }
    }

    /// Books a move of `elapsed` seconds; false when it overran the time left.
    pub(super) fn spend(&mut self, elapsed: f64) -> bool {
        if self.main >= elapsed {
            self.main -= elapsed;
            return true;
        }
        let over = elapsed - self.main;
        self.main = 0.0;
        over <= self.byo
    }
}

/// GTP wants whole seconds in `time_settings`; a fractional clock is sent as it is (our engine
/// takes it) and, to an engine that refuses it, rounded up.
pub(super) fn send_time_settings(e: &mut Engine, main: f64, byo: f64) -> Result<()> {
    if e.cmd(&format!("time_settings {main} {byo} 1")).is_err() {
        e.cmd(&format!("time_settings {} {} 1", main.ceil(), byo.ceil()))?;
    }
    Ok(())
}

/// `time_left` to the millisecond, or in whole seconds (rounded down: never more than is left)
/// to an engine that wants integers, as GNU Go does.
pub(super) fn send_time_left(e: &mut Engine, color: &str, left: f64, stones: u32) -> Result<()> {
    if !e.whole_seconds && e.cmd(&format!("time_left {color} {left:.3} {stones}")).is_ok() {
        return Ok(());
    }
    e.whole_seconds = true;
    e.cmd(&format!("time_left {color} {} {stones}", left.floor()))?;
    Ok(())
}
