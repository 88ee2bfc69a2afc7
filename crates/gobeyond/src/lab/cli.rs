//! The `gobeyond lab` command line: what a series plays, the subcommands, and running them.

use std::path::PathBuf;

use anyhow::{Context, Result};
use clap::{Args, Subcommand};

use crate::{
    cli::{parse_rules, rules_help},
    map_source, terminal,
};

/// What a lab series plays.
#[derive(Debug, Args)]
pub struct LabSeriesArgs {
    #[arg(long, default_value = "gobeyond", value_parser = parse_rules, help = rules_help("Rules of the series"))]
    rules: String,
    #[arg(long, default_value = "hex:5")]
    map: String,
    #[arg(long, default_value_t = 2)]
    players: usize,
    /// The bot in every seat (`random`, `greedy`, or a level 1-10), or one per seat.
    #[arg(long = "bot", num_args = 1, default_value = "3")]
    bots: Vec<String>,
    #[arg(long, default_value_t = 100)]
    games: u32,
    /// Seconds per move (default: each level's fixed number of playouts, reproducible).
    #[arg(long)]
    seconds_per_move: Option<f64>,
    /// Settings over the preset, e.g. `--set komi=6.5`.
    #[arg(long = "set", value_name = "NAME=VALUE")]
    settings: Vec<String>,
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Games played at once (default: one per core).
    #[arg(long)]
    threads: Option<usize>,
    /// Also write an HTML report with charts.
    #[arg(long)]
    html: Option<PathBuf>,
}

impl LabSeriesArgs {
    fn spec(&self) -> super::Spec {
        super::Spec {
            rules: self.rules.clone(),
            settings: self.settings.clone(),
            map: self.map.clone(),
            players: self.players,
            bots: self.bots.clone(),
            games: self.games,
            seconds: self.seconds_per_move,
            seed: self.seed,
            threads: self
                .threads
                .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get())),
        }
    }
}

#[derive(Debug, Subcommand)]
pub enum LabCommand {
    /// A tournament of bots (round robin, Swiss, McMahon, elimination): the standings with
    /// their tie-breaks (docs/tournaments.md).
    Tournament(super::tournament::TournamentArgs),
    /// A self-play series (or one per value with --sweep): wins per seat with intervals, the
    /// first seat's advantage, lengths, margins, endings, points over time.
    Run {
        #[command(flatten)]
        series: LabSeriesArgs,
        /// A series per value: `NAME=V1,V2,...` for a setting, `map=SPEC1,SPEC2,...` for maps.
        #[arg(long)]
        sweep: Option<String>,
    },
    /// The value of a numeric setting (komi, a cost) that evens the first seat's chances.
    Fair {
        #[command(flatten)]
        series: LabSeriesArgs,
        /// The setting searched, e.g. `komi`.
        #[arg(long)]
        setting: String,
        #[arg(long)]
        from: f64,
        #[arg(long)]
        to: f64,
        /// Values tried are multiples of this from --from (1 for whole-number settings).
        #[arg(long, default_value_t = 0.5)]
        step: f64,
    },
    /// The fewest stones of an unconditionally alive group (Benson) at each kind of place of a
    /// map: corner, edge, open; pentagon and hexagon on a Goldberg sphere.
    Life {
        #[arg(long, default_value = "square:19")]
        map: String,
        /// `classic` (Go, Benson) or `gengo` (pass-alive on regions).
        #[arg(long, default_value = "classic")]
        rules: String,
        /// Gengo's regions as in its settings: `default`, `classic`, or JSON such as
        /// `{"graph":{"overlap_radius":1,"neighbour_radius":2,"max_graph_distance":3}}` or
        /// `{"offsets":{"overlap":[[0,0],...],"neighbour":[[2,0],...]}}`.
        #[arg(long, default_value = "default")]
        regions: String,
        /// Only groups of fewer stones than this are searched.
        #[arg(long, default_value_t = 14)]
        limit: usize,
        /// Count only groups made of one chain (Benson also accepts several chains that
        /// share their eyes).
        #[arg(long)]
        one_chain: bool,
        #[arg(long)]
        html: Option<PathBuf>,
    },
}

/// Runs one lab subcommand: JSON on standard output, the report where `--html` says.
pub fn run(what: LabCommand) -> Result<()> {
    let write_html = |path: &Option<PathBuf>, html: String| -> Result<()> {
        if let Some(p) = path {
            if let Some(dir) = p.parent().filter(|d| !d.as_os_str().is_empty()) {
                std::fs::create_dir_all(dir).with_context(|| format!("making {}", dir.display()))?;
            }
            terminal::write_atomically(p, &html)?;
            eprintln!("report: {}", p.display());
        }
        Ok(())
    };
    match what {
        LabCommand::Tournament(args) => {
            let r = super::tournament::run(&args)?;
            if args.json {
                println!("{}", serde_json::to_string_pretty(&r)?);
            } else {
                print!("{}", super::tournament::table(&r));
            }
        }
        LabCommand::Run { series, sweep: None } => {
            let r = super::series(&series.spec(), "playing")?;
            write_html(&series.html, super::report::series(&r))?;
            println!("{}", serde_json::to_string_pretty(&r)?);
        }
        LabCommand::Run { series, sweep: Some(sweep) } => {
            let r = super::sweep(&series.spec(), &sweep)?;
            write_html(&series.html, super::report::sweep(&r))?;
            println!("{}", serde_json::to_string_pretty(&r)?);
        }
        LabCommand::Fair { series, setting, from, to, step } => {
            let r = super::fair(&series.spec(), &setting, from, to, step)?;
            write_html(&series.html, super::report::fair(&r))?;
            println!("{}", serde_json::to_string_pretty(&r)?);
        }
        LabCommand::Life { map, rules, regions, limit, one_chain, html } => {
            let m = map_source(&map)?.load()?;
            let r = match rules.as_str() {
                "classic" | "go" => super::life::table(&map, &m, limit, one_chain)?,
                "gengo" => {
                    let regions: gobeyond_rules::gengo::Regions = match regions.as_str() {
                        "default" | "classic" => serde_json::from_value(serde_json::Value::String(regions))?,
                        json => serde_json::from_str(json).context("--regions: not a region setting")?,
                    };
                    gobeyond_rules::gengo::regions::validate(&regions)
                        .map_err(|e| anyhow::anyhow!("--regions: {e}"))?;
                    super::regions_life::table(&map, &m, &regions, limit, one_chain)?
                }
                other => {
                    anyhow::bail!("--rules: life tables are computed for classic and gengo, not {other:?}")
                }
            };
            write_html(&html, super::report::life(&r))?;
            println!("{}", serde_json::to_string_pretty(&r)?);
        }
    }
    Ok(())
}
