//! `gobeyond train`: the data and the fit of the learned move patterns
//! (`gobeyond_bots::patterns`). `train games` plays GNU Go against itself, a seed per game, into
//! SGF files; `train fit` reads classic Go records (SGF, or the project's JSON records, which
//! `gobeyond match --record-dir` writes for the bot's own games on any map), fits the weights by
//! MM and writes the weights file with how well they predict held-out moves. The fit is
//! deterministic: the same records give the same file.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use clap::Subcommand;
use gobeyond_bots::patterns::{
    Weights,
    fit::{Quality, Samples, Start, fit, played_large_shapes},
};
use gobeyond_rules::ClassicGame;
use serde::Serialize;

use super::engine_match::{ClassicMatch, classic_match};

#[derive(Debug, Subcommand)]
pub enum TrainCommand {
    /// Self-play records of GNU Go (a seed per game) for the fit.
    Games {
        #[arg(long, default_value_t = 13)]
        size: u32,
        #[arg(long, default_value_t = 100)]
        games: u32,
        /// GNU Go's level.
        #[arg(long, default_value_t = 8)]
        level: u8,
        #[arg(long, default_value = "/usr/games/gnugo")]
        gnugo: String,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Directory for the SGF files.
        #[arg(long)]
        out: PathBuf,
    },
    /// Fit the pattern weights on classic Go records: SGF or JSON game records, files or
    /// directories of them.
    Fit {
        #[arg(required = true)]
        records: Vec<PathBuf>,
        /// MM rounds over all feature groups.
        #[arg(long, default_value_t = 20)]
        iterations: usize,
        /// Every K-th position is held out to measure the weights (0: none).
        #[arg(long, default_value_t = 10)]
        hold_out: usize,
        /// The weights file to write (the checked-in one is crates/bots/data/patterns.json).
        #[arg(long)]
        out: PathBuf,
        /// Extend this weights file: its feature groups and the shapes it knows keep their
        /// weights, only shapes it has never seen (another map family's) are fitted; its shapes
        /// are read as it reads them (oriented or counted).
        #[arg(long)]
        base: Option<PathBuf>,
        /// Count the shapes by kind instead of orienting them (a version 1 file: the small-board
        /// model, `crates/bots/data/patterns.json`).
        #[arg(long)]
        counted: bool,
        /// Fit the large shapes (5×5) played at least this often in the records (0: none).
        #[arg(long, default_value_t = LARGE_MIN_PLAYED)]
        large_min_played: u32,
        /// Virtual wins and losses against a γ of 1 for each large shape (every other feature
        /// gets 1): more keep the rare ones nearer 1.
        #[arg(long, default_value_t = 1.0)]
        large_prior_games: f64,
        /// Hold each large shape's γ within 1/C to C after the fit (`inf`: free).
        #[arg(long, default_value_t = LARGE_CAP)]
        large_cap: f64,
    },
}

/// What `train fit` reports (JSON).
#[derive(Debug, Serialize)]
pub struct FitReport {
    /// Records fitted on.
    pub games: usize,
    /// Records left out, each with why: collections of real games hold some that do not
    /// replay under the engine's rules (a ko retaken at once, a move on a stone).
    pub skipped: Vec<Skipped>,
    pub positions: usize,
    pub candidates: usize,
    pub shapes: usize,
    /// Large shapes weighed: those played often enough, and the base's.
    pub large_shapes: usize,
    /// Equal weights on the held-out positions.
    pub equal: Quality,
    /// The starting weights on the held-out positions: the base's when extending one, else
    /// equal weights.
    pub before: Quality,
    /// The fitted weights on the held-out positions.
    pub held_out: Quality,
    pub training: Quality,
}

/// A record `train fit` left out.
#[derive(Debug, Serialize)]
pub struct Skipped {
    pub file: String,
    pub reason: String,
}

pub fn run(command: TrainCommand) -> Result<()> {
    match command {
        TrainCommand::Games { size, games, level, gnugo, seed, out } => {
            if !(1..=10).contains(&level) {
                bail!("GNU Go's levels are 1 to 10, not {level}");
            }
            let engine = format!("{gnugo} --mode gtp --level {level} --seed {{seed}}");
            let summary = classic_match(&ClassicMatch {
                engines: [engine.clone(), engine],
                games,
                first_game: 1,
                size,
                komi: 7.0,
                main_time: 0.0,
                // The records are for learning, not a time race: GNU Go is told 30 s a move, and a
                // move over it (a loaded machine) does not lose the game (one 19×19 game was
                // lost on time after 15 moves beside a `make test`).
                seconds: 30.0,
                sgf_dir: Some(out),
                seed,
                enforce: [false; 2],
            })?;
            println!("{}", serde_json::to_string_pretty(&summary)?);
        }
        TrainCommand::Fit {
            records,
            iterations,
            hold_out,
            out,
            base,
            counted,
            large_min_played,
            large_prior_games,
            large_cap,
        } => {
            if !(large_prior_games.is_finite() && large_prior_games > 0.0) {
                bail!("--large-prior-games must be a number above 0");
            }
            if large_cap.is_nan() || large_cap < 1.0 {
                bail!("--large-cap must be a number of 1 or more");
            }
            let base = base.as_deref().map(read_weights).transpose()?;
            let options =
                FitOptions { iterations, hold_out, counted, large_min_played, large_prior_games, large_cap };
            let report = fit_files(&records, &options, base.as_ref(), &out)?;
            println!("{}", serde_json::to_string_pretty(&report)?);
        }
    }
    Ok(())
}

/// A weights file, checked as the engine would load it.
fn read_weights(path: &Path) -> Result<Weights> {
    let text = std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    let weights: Weights =
        serde_json::from_str(&text).with_context(|| format!("reading {}", path.display()))?;
    gobeyond_bots::patterns::Model::from_weights(&weights)
        .map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
    Ok(weights)
}

/// Whether a file is a game record the fit reads, by its extension.
fn is_record(path: &Path) -> bool {
    path.extension().is_some_and(|x| x.eq_ignore_ascii_case("sgf") || x.eq_ignore_ascii_case("json"))
}

/// Record files under `paths`, sorted (the fit must not depend on the directory's order).
fn record_files(paths: &[PathBuf]) -> Result<Vec<PathBuf>> {
    let mut files = Vec::new();
    for p in paths {
        if p.is_dir() {
            for e in std::fs::read_dir(p).with_context(|| format!("reading {}", p.display()))? {
                let path = e?.path();
                if is_record(&path) {
                    files.push(path);
                }
            }
        } else {
            files.push(p.clone());
        }
    }
    files.sort();
    if files.is_empty() {
        bail!("no game records (.sgf or .json) in {paths:?}");
    }
    Ok(files)
}

/// The large shapes fitted are those played at least 3 times in the records, their γ held within
/// 1/10 to 10: free, the rarest weighed up to 1,900 and the model lost 5 of 6 19×19 self-play
/// games; held, it won 15 of 20 (docs/benchmarks.md, "19×19: large shapes").
pub const LARGE_MIN_PLAYED: u32 = 3;
pub const LARGE_CAP: f64 = 10.0;

/// How `train fit` fits.
#[derive(Debug, Clone)]
pub struct FitOptions {
    pub iterations: usize,
    pub hold_out: usize,
    pub counted: bool,
    pub large_min_played: u32,
    pub large_prior_games: f64,
    /// Each large shape's γ is held within `1 / large_cap ..= large_cap` (infinite: free).
    pub large_cap: f64,
}

/// The records under `paths` that replay as classic Go, and those left out with why.
fn replay_records(paths: &[PathBuf]) -> Result<(Vec<ClassicGame>, Vec<Skipped>)> {
    let files = record_files(paths)?;
    let bar = indicatif::ProgressBar::new(files.len() as u64)
        .with_style(indicatif::ProgressStyle::with_template("{bar:30} {pos}/{len} records {msg}")?);
    let (mut games, mut skipped) = (Vec::new(), Vec::new());
    for f in &files {
        bar.inc(1);
        let replayed = crate::load_record(f)
            .and_then(|record| record.replay_as::<ClassicGame>().context("replaying it"))
            .map_err(|e| format!("{e:#}"));
        match replayed {
            Ok(game) => games.push(game),
            Err(reason) => {
                bar.suspend(|| eprintln!("train fit: leaving out {}: {reason}", f.display()));
                skipped.push(Skipped { file: f.display().to_string(), reason });
            }
        }
    }
    bar.finish_and_clear();
    if games.is_empty() {
        let why = skipped.first().map_or(String::new(), |s| format!(" ({}: {})", s.file, s.reason));
        bail!("none of the {} records replays as classic Go{why}", files.len());
    }
    Ok((games, skipped))
}

pub fn fit_files(
    paths: &[PathBuf],
    options: &FitOptions,
    base: Option<&Weights>,
    out: &Path,
) -> Result<FitReport> {
    let FitOptions { iterations, hold_out, counted, large_min_played, large_prior_games, large_cap } =
        *options;
    let (games, skipped) = replay_records(paths)?;
    // An extension reads shapes as its base does, and keeps its large shapes.
    let oriented = base.map_or(!counted, Weights::oriented);
    let mut large = if large_min_played > 0 && oriented {
        played_large_shapes(&games, large_min_played).map_err(anyhow::Error::msg)?
    } else {
        Vec::new()
    };
    if let Some(b) = base {
        let known = b.large_shapes.keys().filter_map(|k| gobeyond_bots::patterns::LargeKey::parse(k));
        large.extend(known);
        large.sort();
        large.dedup();
    }
    let mut samples = Samples::new(oriented, &large);
    let bar = indicatif::ProgressBar::new(games.len() as u64)
        .with_style(indicatif::ProgressStyle::with_template("{bar:30} {pos}/{len} games read {msg}")?);
    for game in &games {
        samples.add_game(game).map_err(anyhow::Error::msg)?;
        bar.inc(1);
    }
    bar.finish_and_clear();
    let games = games.len();
    let (positions, candidates) = (samples.positions(), samples.candidates());
    let (train, test) = samples.split(hold_out);
    let equal = gobeyond_bots::patterns::fit::equal_weights(&train).quality(&test);
    let start = match base {
        Some(b) => Start::extending(&train, b).map_err(anyhow::Error::msg)?,
        None => Start::fresh(&train),
    }
    .with_large_prior(large_prior_games)
    .with_large_cap(large_cap);
    let before = start.gammas().quality(&test);
    let bar = indicatif::ProgressBar::new(iterations as u64)
        .with_style(indicatif::ProgressStyle::with_template("{bar:30} {pos}/{len} MM rounds {msg}")?);
    let fitted = fit(&train, start, iterations, |_, q| {
        bar.set_message(format!("top-1 {:.3}", q.top1));
        bar.inc(1);
    });
    bar.finish_and_clear();
    let mut trained_on = format!(
        "{games} records, {} positions, {iterations} MM rounds (gobeyond train fit)",
        train.positions()
    );
    if let Some(b) = base {
        trained_on = format!("{}; extended with new shapes from {trained_on}", b.trained_on);
    }
    let weights = fitted.weights(&train, trained_on);
    std::fs::write(out, serde_json::to_string_pretty(&weights)? + "\n")
        .with_context(|| format!("writing {}", out.display()))?;
    Ok(FitReport {
        games,
        skipped,
        positions,
        candidates,
        shapes: weights.shapes.len(),
        large_shapes: weights.large_shapes.len(),
        equal,
        before,
        held_out: fitted.gamma.quality(&test),
        training: fitted.gamma.quality(&train),
    })
}
