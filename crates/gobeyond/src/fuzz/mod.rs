//! `gobeyond fuzz`: a mutation fuzzer on the stable toolchain (no libFuzzer, no coverage
//! feedback: seeds, structure-aware mutations and a corpus that keeps the inputs that parsed).
//!
//! Targets: map specs, custom map files, JSON records, SGF, GTP sessions, every WebSocket and
//! HTTP body the server reads, and random action sequences on every rule system and map
//! family. A panic anywhere is a failure (the input is saved under `target/fuzz-failures/`);
//! so is a broken invariant: a refused action that changed the game, a game whose record does
//! not replay to the same state, an outcome whose ranking is not the players.

use std::{
    panic::{AssertUnwindSafe, catch_unwind},
    path::PathBuf,
};

use anyhow::{Result, bail};
use clap::ValueEnum;
use gobeyond_maps::{CustomMap, generate_within};
use gobeyond_rules::{
    AnyGame, Player, Rng, SYSTEMS,
    record::{MapSource, PlayerInfo, Record},
    registry::Object,
};
use serde::Serialize;
use serde_json::{Value, json};

mod mutations;
mod random_game;

use mutations::{dictionary, mutate, seeds};
use random_game::play_random_game;

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Target {
    MapSpec,
    CustomMap,
    Record,
    Sgf,
    Gtp,
    Messages,
    Actions,
}

impl Target {
    pub const ALL: [Target; 7] = [
        Target::MapSpec,
        Target::CustomMap,
        Target::Record,
        Target::Sgf,
        Target::Gtp,
        Target::Messages,
        Target::Actions,
    ];
}

/// What one target did.
#[derive(Debug, Clone, Serialize)]
pub struct TargetReport {
    pub target: Target,
    /// Inputs tried (for `actions`: actions submitted).
    pub inputs: u64,
    /// Inputs the code under test accepted (parsed, built, legal).
    pub accepted: u64,
    pub corpus: usize,
    pub failures: Vec<String>,
}

/// Runs `target` on `inputs` inputs from `seed`; `tick` is called with the inputs done.
pub fn run(target: Target, inputs: u64, seed: u64, mut tick: impl FnMut(u64)) -> TargetReport {
    let mut rng = Rng::new(seed ^ (target as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15));
    let mut corpus: Vec<Vec<u8>> = seeds(target).into_iter().map(|s| s.into_bytes()).collect();
    let seeded = corpus.len();
    let mut report = TargetReport { target, inputs: 0, accepted: 0, corpus: 0, failures: Vec::new() };
    let (mut done, mut ticked) = (0u64, 0u64);
    while done < inputs && report.failures.len() < 10 {
        if target == Target::Actions {
            let game_seed = rng.next_u64();
            let budget = (inputs - done).min(400);
            let outcome = catch_unwind(AssertUnwindSafe(|| play_random_game(game_seed, budget)));
            let (n, accepted, failure) = match outcome {
                Ok(r) => r,
                Err(p) => (1, 0, Some(format!("panic: {}", panic_text(&p)))),
            };
            done += n.max(1);
            report.accepted += accepted;
            if let Some(f) = failure {
                report.failures.push(save(
                    target,
                    &format!("seed {game_seed}: {f}"),
                    game_seed.to_string().as_bytes(),
                ));
            }
        } else {
            let input = mutate(&mut rng, &corpus, dictionary(target));
            let outcome = catch_unwind(AssertUnwindSafe(|| check(target, &input)));
            done += 1;
            match outcome {
                Ok(Ok(true)) => {
                    report.accepted += 1;
                    if corpus.len() < 2000 && input.len() < 64 * 1024 {
                        corpus.push(input);
                    } else if corpus.len() >= 2000 {
                        let i = seeded + rng.below((corpus.len() - seeded) as u32) as usize;
                        corpus[i] = input;
                    }
                }
                Ok(Ok(false)) => {}
                Ok(Err(broken)) => report.failures.push(save(target, &broken, &input)),
                Err(p) => report.failures.push(save(target, &format!("panic: {}", panic_text(&p)), &input)),
            }
        }
        if done - ticked >= 256 || done >= inputs {
            tick(done);
            ticked = done;
        }
    }
    report.inputs = done;
    report.corpus = corpus.len();
    report
}

fn panic_text(p: &Box<dyn std::any::Any + Send>) -> String {
    p.downcast_ref::<String>()
        .cloned()
        .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
        .unwrap_or_else(|| "a panic".into())
}

/// Keeps a failing input for replay (`gobeyond fuzz --replay FILE`), and describes it.
fn save(target: Target, what: &str, input: &[u8]) -> String {
    let dir = PathBuf::from("target/fuzz-failures");
    let name = format!("{target:?}-{:016x}", fnv(input)).to_lowercase();
    let path = dir.join(&name);
    let saved = std::fs::create_dir_all(&dir).and_then(|()| std::fs::write(&path, input));
    match saved {
        Ok(()) => format!("{what} (input saved in {})", path.display()),
        Err(_) => format!("{what} (input: {:?})", String::from_utf8_lossy(input)),
    }
}

fn fnv(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3))
}

/// One input through one target: `Ok(accepted)`, or the invariant it broke.
pub fn check(target: Target, input: &[u8]) -> Result<bool, String> {
    let text = String::from_utf8_lossy(input);
    match target {
        // The server's limit: bigger maps are refused before generating, as the server does.
        Target::MapSpec => Ok(generate_within(&text, 4096).is_ok()),
        Target::CustomMap => match CustomMap::from_json(&text) {
            Ok(m) => Ok(m.build_with_limit(4096).is_ok()),
            Err(_) => Ok(false),
        },
        Target::Record => {
            let Ok(record) = Record::from_json(&text) else { return Ok(false) };
            if record.actions.len() > 2000 {
                return Ok(false);
            }
            if let MapSource::Spec(spec) = &record.map
                && generate_within(spec, 4096).is_err()
            {
                return Ok(false);
            }
            match record.replay() {
                Ok(game) => replays_the_same(&game, &record.map, &record.players).map(|()| true),
                Err(_) => Ok(false),
            }
        }
        Target::Sgf => match gobeyond_rules::systems::classic::sgf::import(&text) {
            Ok(record) => match record.replay() {
                Ok(game) => {
                    // What was imported exports again.
                    let _ = game.sgf(&record.players, None);
                    Ok(true)
                }
                Err(_) => Ok(false),
            },
            Err(_) => Ok(false),
        },
        Target::Gtp => {
            let bot = crate::gtp::BotOptions {
                search: None,
                timed_playouts: None,
                seconds_per_move: None,
                ponder: false,
            };
            let mut engine =
                crate::gtp::GtpEngine::with_overrides(None, None, None, 1, bot).map_err(|e| e.to_string())?;
            let mut ok = false;
            for line in text.lines().take(64) {
                // Search commands are the bots' business (fuzzed elsewhere): only the protocol here.
                let word = line.split_whitespace().find(|w| w.parse::<u32>().is_err()).unwrap_or("");
                let searches = ["genmove", "analyze", "final_score", "final_status"];
                if word.starts_with("kgs-") || searches.iter().any(|s| word.contains(s)) {
                    continue;
                }
                if let Some(reply) = engine.handle(line) {
                    ok |= reply.starts_with('=') && !line.trim().is_empty();
                    if !(reply.starts_with('=') || reply.starts_with('?')) {
                        return Err(format!("GTP reply {reply:?} is neither success nor failure"));
                    }
                }
            }
            Ok(ok)
        }
        Target::Messages => {
            use gobeyond_server::{auth, http, protocol::ClientMessage, setup::NewGame, table};
            let a = serde_json::from_str::<ClientMessage>(&text).is_ok();
            let b = match serde_json::from_str::<NewGame>(&text) {
                Ok(new) => new.validate().is_ok(),
                Err(_) => false,
            };
            let c = serde_json::from_str::<http::NewBot>(&text).is_ok()
                || serde_json::from_str::<http::TokenBody>(&text).is_ok();
            // The text checks of names, passwords and chat (Unicode folding, look-alikes,
            // controls): any text, no panic; a cleaned chat line is clean.
            let name = auth::check_name(&text).is_ok();
            let _ = auth::name_key(&text);
            let _ = auth::check_password("fuzz", &text);
            let chat = table::clean_chat(&text);
            if table::clean_chat(&chat) != chat {
                return Err(format!("chat text {text:?} is not clean once cleaned: {chat:?}"));
            }
            Ok(a || b || c || name)
        }
        Target::Actions => Ok(false),
    }
}

/// The game's record replays to the same state.
fn replays_the_same(game: &AnyGame, map: &MapSource, players: &[PlayerInfo]) -> Result<(), String> {
    let record = Record::of_any(game, map.clone(), players.to_vec());
    let again = record.replay().map_err(|e| format!("the game's own record does not replay: {e}"))?;
    if again.state_json(players) != game.state_json(players) {
        return Err("the game's own record replays to another state".into());
    }
    if let Some(o) = game.outcome() {
        let mut seen: Vec<u8> = o.ranking.iter().map(|p| p.0).collect();
        seen.sort_unstable();
        if seen != (0..game.player_count() as u8).collect::<Vec<_>>() {
            return Err(format!("the outcome's ranking {:?} is not the players", o.ranking));
        }
    }
    Ok(())
}

/// `gobeyond fuzz`: every target (or those named), `inputs` in all, split evenly.
pub fn command(
    targets: Vec<Target>,
    inputs: u64,
    seed: u64,
    replay: Option<PathBuf>,
    json: bool,
) -> Result<()> {
    if let Some(path) = replay {
        let target = *targets.first().ok_or_else(|| anyhow::anyhow!("--replay needs one --target"))?;
        let input = std::fs::read(&path)?;
        let result = catch_unwind(AssertUnwindSafe(|| check(target, &input)));
        match result {
            Ok(Ok(accepted)) => println!("no failure (accepted: {accepted})"),
            Ok(Err(e)) => bail!("{e}"),
            Err(p) => bail!("panic: {}", panic_text(&p)),
        }
        return Ok(());
    }
    let targets = if targets.is_empty() { Target::ALL.to_vec() } else { targets };
    let each = inputs.div_ceil(targets.len() as u64);
    let bar = indicatif::ProgressBar::new(each * targets.len() as u64);
    bar.set_style(
        indicatif::ProgressStyle::with_template(
            "{spinner} {msg:12} [{bar:40}] {pos}/{len} ({per_sec}, {eta})",
        )
        .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
    );
    // Panics are expected and caught: keep their messages off the terminal.
    let hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    let started = std::time::Instant::now();
    let reports: Vec<TargetReport> = std::thread::scope(|scope| {
        let handles: Vec<_> = targets
            .iter()
            .map(|&t| {
                let bar = bar.clone();
                scope.spawn(move || {
                    let mut last = 0;
                    run(t, each, seed, |done| {
                        bar.inc(done - last);
                        bar.set_message(format!("{t:?}"));
                        last = done;
                    })
                })
            })
            .collect();
        handles.into_iter().filter_map(|h| h.join().ok()).collect()
    });
    std::panic::set_hook(hook);
    bar.finish_and_clear();
    let total: u64 = reports.iter().map(|r| r.inputs).sum();
    let failures: usize = reports.iter().map(|r| r.failures.len()).sum();
    let seconds = started.elapsed().as_secs_f64();
    if json {
        println!(
            "{}",
            json!({"inputs": total, "failures": failures, "seconds": seconds, "seed": seed, "targets": reports})
        );
    } else {
        for r in &reports {
            println!(
                "{:<11} {:>10} inputs {:>9} accepted  corpus {:>5}  failures {}",
                format!("{:?}", r.target),
                r.inputs,
                r.accepted,
                r.corpus,
                r.failures.len()
            );
            for f in &r.failures {
                println!("  {f}");
            }
        }
        println!("{total} inputs in {seconds:.0} s, {failures} failures (seed {seed})");
    }
    if failures > 0 {
        bail!("{failures} fuzzing failures");
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The short run of `make test`: every target, a few thousand inputs, no failure.
    #[test]
    fn every_target_survives_a_short_run() {
        for target in Target::ALL {
            let inputs = if target == Target::Actions { 3000 } else { 1500 };
            let report = run(target, inputs, 20261123, |_| {});
            assert!(report.failures.is_empty(), "{target:?}: {:?}", report.failures);
            assert!(report.inputs >= inputs, "{target:?} ran {} inputs", report.inputs);
            assert!(report.accepted > 0, "{target:?}: no input was ever accepted: the seeds are wrong");
        }
    }
}
