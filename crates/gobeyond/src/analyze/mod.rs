//! `gobeyond analyze`: the computer's review of a recorded game in the terminal — a table of
//! each action's judgement, the whole review as JSON, or, for classic Go, SGF with a comment per
//! move and the win chance Sabaki graphs (`docs/analysis.md`). `gobeyond analyze-trust`
//! ([`trust`]) measures how far the marks can be trusted.

mod sgf;
mod table;
pub mod trust;

use std::path::PathBuf;

use anyhow::{Result, bail};
use clap::Args;
use gobeyond_bots::review::{GameReview, ReviewOptions, review_record};

/// The most playouts per position a review may ask for (a minute or so per position).
pub const MAX_PLAYOUTS: u32 = 1_000_000;

#[derive(Debug, Args)]
pub struct AnalyzeArgs {
    /// The game: a JSON record (`gobeyond match --record-dir`, the server's export) or an SGF.
    pub record: PathBuf,
    /// Playouts of the search per position.
    #[arg(long, default_value_t = 1000)]
    pub playouts: u32,
    /// Search threads.
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// Seed of the search's random numbers (one thread: the same review every time).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Print the whole review as JSON (for programs).
    #[arg(long, conflicts_with = "sgf")]
    pub json: bool,
    /// Print the game as SGF with the review in comments and Sabaki's win-rate graph (classic
    /// Go only).
    #[arg(long)]
    pub sgf: bool,
}

/// Checks the search's budget.
pub fn check_budget(playouts: u32, threads: usize) -> Result<()> {
    if playouts == 0 || playouts > MAX_PLAYOUTS {
        bail!("--playouts must be between 1 and {MAX_PLAYOUTS}, not {playouts}");
    }
    if threads == 0 || threads > 64 {
        bail!("--threads must be between 1 and 64, not {threads}");
    }
    Ok(())
}

/// A progress bar on stderr for `total` positions.
pub fn progress_bar(total: u64, what: &str) -> indicatif::ProgressBar {
    let bar = indicatif::ProgressBar::new(total);
    bar.set_style(
        indicatif::ProgressStyle::with_template(
            "{msg} [{bar:40}] {pos}/{len} positions ({elapsed}, {eta} left)",
        )
        .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
    );
    bar.set_message(what.to_string());
    bar
}

pub fn run(args: AnalyzeArgs) -> Result<()> {
    check_budget(args.playouts, args.threads)?;
    let record = crate::load_record(&args.record)?;
    let start = record.new_game()?;
    if args.sgf {
        // Before the search: a game SGF cannot describe fails at once, not after the review.
        if let Err(why) = start.sgf(&record.players, None) {
            bail!(
                "--sgf writes classic Go games on a plain rectangular board with two players; this one cannot be: {why} (use --json or the table)"
            );
        }
    }
    let options = ReviewOptions {
        playouts: args.playouts,
        threads: args.threads,
        seed: args.seed,
        ..ReviewOptions::default()
    };
    let bar = progress_bar(record.actions.len() as u64 + 1, "reviewing");
    let review = review_record(&record, &options, |done, _| bar.set_position(done as u64))?;
    bar.finish_and_clear();
    if args.json {
        println!("{}", serde_json::to_string(&review)?);
    } else if args.sgf {
        print!("{}", sgf::annotated(&record, &review)?);
    } else {
        print!("{}", table::render(&record, &review));
    }
    Ok(())
}

/// The review's best move at `at`, as a player reads it.
pub fn best_move(review: &GameReview, at: usize) -> Option<String> {
    let best = review.positions.get(at)?.best.first()?;
    Some(table::describe(&best.input))
}
