//! The command line: every subcommand and its arguments (clap), read with `serve`'s config file.

use std::path::PathBuf;

use anyhow::Result;
use clap::{Args, CommandFactory, FromArgMatches, Parser, Subcommand, ValueEnum};
use gobeyond_rules::{KoRule, SuicideRule, registry};

use crate::{admin, analyze, backup, fuzz, lab, serve, systems};

#[derive(Debug, Parser)]
#[command(name = "gobeyond", version, about = "Generalized Go: any map, 2-8 players, several rule systems")]
pub(crate) struct Cli {
    #[command(subcommand)]
    pub(crate) command: Command,
}

#[derive(Debug, Subcommand)]
pub(crate) enum Command {
    /// Run the game server with its web UI (SQLite by default, or PostgreSQL).
    Serve(Box<serve::ServeArgs>),
    /// Ask a running server whether it serves (its `/api/health`): a container's health check.
    Healthcheck(serve::health::HealthArgs),
    /// Back up a database: an SQLite copy while the server runs, or a JSON export of either kind.
    Backup(backup::BackupArgs),
    /// Restore a backup into a new database (a JSON export into SQLite or PostgreSQL).
    Restore(backup::RestoreArgs),
    /// Operators' commands on a server's database (grant a role).
    Admin(admin::AdminArgs),
    /// Fuzz the parsers and the engines (map specs, map files, records, SGF, GTP, server
    /// messages, random games on every rule system and map family); fails on any panic or
    /// broken invariant.
    Fuzz {
        /// Targets to fuzz (default: all).
        #[arg(long = "target", value_enum)]
        targets: Vec<fuzz::Target>,
        /// Inputs (and actions) in all, split over the targets.
        #[arg(long, default_value_t = 100_000)]
        inputs: u64,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Run one saved failing input again (with one --target).
        #[arg(long)]
        replay: Option<PathBuf>,
        /// Print the report as JSON.
        #[arg(long)]
        json: bool,
    },
    /// Load a running server with many concurrent games over WebSockets; report moves per second
    /// and latency (JSON).
    Loadtest {
        /// The server; repeat for several instances of one cluster (each game's two players
        /// then connect to two different instances).
        #[arg(long = "url", default_value = "http://127.0.0.1:8080")]
        urls: Vec<String>,
        /// Concurrent games (two players and two sockets each).
        #[arg(long, default_value_t = 1000)]
        games: usize,
        /// How long to play.
        #[arg(long, default_value_t = 30.0)]
        seconds: f64,
        #[arg(long, default_value = "square:9")]
        map: String,
        /// Offered moves per second over all games; 0 = as fast as the server answers.
        #[arg(long, default_value_t = 3000.0)]
        rate: f64,
        /// Computer reviews searching on the server during the load: as many 19×19 games are
        /// played to the end first and a review of each is requested.
        #[arg(long, default_value_t = 0)]
        reviews: usize,
        /// Playouts per position of those reviews.
        #[arg(long, default_value_t = 10_000)]
        review_playouts: u32,
    },
    /// Play in the terminal, pass-and-play.
    Play(PlayArgs),
    /// Speak GTP version 2 on standard input and output (two players, square boards).
    Gtp(GtpArgs),
    /// The computer's review of a recorded game (JSON or SGF): each action's loss and mark, the
    /// best moves; a table, `--json`, or `--sgf` with comments for Sabaki (docs/analysis.md).
    Analyze(analyze::AnalyzeArgs),
    /// How far the review's marks can be trusted: its judgement at a budget against the search
    /// at ten times it (and GNU Go's score for classic games), over records (docs/analysis.md).
    AnalyzeTrust(analyze::trust::TrustArgs),
    /// Replay a record (JSON or SGF) and print the resulting state as JSON.
    Replay {
        file: PathBuf,
        /// Stop after this many actions.
        #[arg(long)]
        upto: Option<usize>,
        /// Also write the game as SGF to this file (two-player rectangular games).
        #[arg(long)]
        sgf: Option<PathBuf>,
    },
    /// Play a series of games between engines or bots and report the results (JSON).
    Match(MatchArgs),
    /// The rule systems, their presets and settings (from the registry).
    Rules {
        /// As JSON.
        #[arg(long)]
        json: bool,
    },
    /// Map tools.
    Map {
        #[command(subcommand)]
        what: MapCommand,
    },
    /// Measure engine speed.
    Bench {
        #[command(subcommand)]
        what: BenchCommand,
    },
    /// The designers' lab: self-play series, sweeps, fair values, life tables (JSON; `--html`
    /// for a report with charts). See docs/lab.md.
    Lab {
        #[command(subcommand)]
        what: lab::cli::LabCommand,
    },
    /// The learned move patterns: GNU Go self-play records and the MM fit of their weights.
    Train {
        #[command(subcommand)]
        what: systems::classic::train::TrainCommand,
    },
}

#[derive(Debug, Clone, Copy, ValueEnum)]
pub(crate) enum KoArg {
    None,
    Simple,
    PositionalSuperko,
    SituationalSuperko,
}

impl From<KoArg> for KoRule {
    fn from(k: KoArg) -> Self {
        match k {
            KoArg::None => KoRule::None,
            KoArg::Simple => KoRule::Simple,
            KoArg::PositionalSuperko => KoRule::PositionalSuperko,
            KoArg::SituationalSuperko => KoRule::SituationalSuperko,
        }
    }
}

#[derive(Debug, Clone, Copy, ValueEnum)]
pub(crate) enum SuicideArg {
    Forbidden,
    MultiStone,
    Allowed,
}

impl From<SuicideArg> for SuicideRule {
    fn from(s: SuicideArg) -> Self {
        match s {
            SuicideArg::Forbidden => SuicideRule::Forbidden,
            SuicideArg::MultiStone => SuicideRule::MultiStoneOnly,
            SuicideArg::Allowed => SuicideRule::Allowed,
        }
    }
}

/// Rule overrides shared by `play` and `gtp`.
#[derive(Debug, Args)]
pub(crate) struct RuleArgs {
    /// Ko rule (overrides the preset).
    #[arg(long, value_enum)]
    pub(crate) ko: Option<KoArg>,
    /// Suicide rule (overrides the preset).
    #[arg(long, value_enum)]
    pub(crate) suicide: Option<SuicideArg>,
    /// Komi (overrides the preset).
    #[arg(long)]
    pub(crate) komi: Option<f64>,
}

impl RuleArgs {
    /// The overrides as settings of any system that has them (`ko`, `suicide`, `komi`).
    pub(crate) fn apply_to(&self, settings: &mut registry::Object) -> Result<()> {
        if let Some(k) = self.ko {
            settings.insert("ko".into(), serde_json::to_value(KoRule::from(k))?);
        }
        if let Some(s) = self.suicide {
            settings.insert("suicide".into(), serde_json::to_value(SuicideRule::from(s))?);
        }
        if let Some(k) = self.komi {
            settings.insert("komi".into(), serde_json::to_value(k)?);
        }
        Ok(())
    }
}

#[derive(Debug, Args)]
pub(crate) struct PlayArgs {
    /// A map generator spec (see `gobeyond map list`) or a custom map JSON file.
    #[arg(long, default_value = "square:9")]
    pub(crate) map: String,
    #[arg(long, default_value_t = 2)]
    pub(crate) players: usize,
    #[arg(long, default_value = "chinese", value_parser = parse_rules, help = rules_help("Rule system or preset"))]
    pub(crate) rules: String,
    #[command(flatten)]
    pub(crate) overrides: RuleArgs,
    /// Settings of the rule system over its preset, e.g. `--set turn_seconds=0 --set
    /// handicap=[0,20]` (`gobeyond rules` lists every system's settings).
    #[arg(long = "set", value_name = "NAME=VALUE")]
    pub(crate) settings: Vec<String>,
    /// Keep the record in this file, updated after every move.
    #[arg(long)]
    pub(crate) save: Option<PathBuf>,
    /// Continue the game of this record (JSON).
    #[arg(long)]
    pub(crate) load: Option<PathBuf>,
}

#[derive(Debug, Args)]
pub(crate) struct GtpArgs {
    #[command(flatten)]
    pub(crate) rules: RuleArgs,
    /// Seed of the move generator (each game draws its own from it); default: a fresh one.
    #[arg(long)]
    pub(crate) seed: Option<u64>,
    /// Strength 1 (random) to 10 (full search).
    #[arg(long, default_value_t = 10)]
    pub(crate) level: u8,
    /// Playouts per move, also under a clock (overrides the level's; without it a clock or
    /// --seconds-per-move lifts level 10's cap, while lower levels keep theirs).
    #[arg(long)]
    pub(crate) playouts: Option<u32>,
    /// Seconds per move without a clock from the controller; with one, the most a move may take.
    #[arg(long)]
    pub(crate) seconds_per_move: Option<f64>,
    /// Search threads, sharing one tree; default: one per core.
    #[arg(long)]
    pub(crate) threads: Option<usize>,
    /// Tree priors from the learned move patterns (`false`: the hand-written ones).
    #[arg(long, default_value_t = true, action = clap::ArgAction::Set)]
    pub(crate) patterns: bool,
    /// Playout policy of the search: light (random, no own-eye filling), tactics (captures,
    /// escapes, no big self-ataris), reading (tactics and groups of two liberties), heavy
    /// (tactics and shape patterns) or patterns (tactics and learned shapes); default: the
    /// level's.
    #[arg(long)]
    pub(crate) policy: Option<String>,
    /// UCT exploration constant of the search (for tuning; default 0.1, 0 for classic Go on
    /// 13×13 and up).
    #[arg(long)]
    pub(crate) exploration: Option<f32>,
    /// RAVE equivalence: real visits after which AMAF counts for half (for tuning; default 1000,
    /// 4000 for classic Go on 13×13 and up).
    #[arg(long)]
    pub(crate) rave_equivalence: Option<f32>,
    /// Share of a playout's reward taken from the score margin, 0 to 1 (for tuning; default
    /// the level's).
    #[arg(long)]
    pub(crate) score_bonus: Option<f32>,
    /// Most MiB of search tree per thread: at the budget the tree stops growing and the search
    /// goes on (default 256).
    #[arg(long, value_name = "MIB")]
    pub(crate) tree_memory: Option<usize>,
    /// Think on the opponent's time: after each `genmove` the search goes on until the next
    /// command (at most a minute), and keeps its tree for the opponent's move.
    #[arg(long, default_value_t = false, num_args = 0..=1, default_missing_value = "true",
          action = clap::ArgAction::Set)]
    pub(crate) ponder: bool,
}

#[derive(Debug, Args)]
pub(crate) struct MatchArgs {
    /// Classic two-engine match: two GTP engines, e.g. `self:level=10` (this program) and
    /// "gnugo --mode gtp --level 10 --chinese-rules".
    #[arg(long = "engine", num_args = 1)]
    pub(crate) engines: Vec<String>,
    /// Multi-player series: one bot per seat (`random`, `greedy`, or a level 1-10).
    #[arg(long = "bot", num_args = 1)]
    pub(crate) bots: Vec<String>,
    #[arg(long, default_value = "gobeyond", value_parser = parse_rules, help = rules_help("Rules of a bot series"))]
    pub(crate) rules: String,
    /// Map of a bot series.
    #[arg(long, default_value = "hex:5")]
    pub(crate) map: String,
    #[arg(long, default_value_t = 10)]
    pub(crate) games: u32,
    /// Board size of an engine match.
    #[arg(long, default_value_t = 9)]
    pub(crate) size: u32,
    #[arg(long, default_value_t = 7.0)]
    pub(crate) komi: f64,
    /// Seconds per move: an engine match's byo-yomi (a clock the controller keeps: an overrun
    /// loses on time; default 1); bots in a series search this long when given.
    #[arg(long)]
    pub(crate) seconds_per_move: Option<f64>,
    /// Main time of each engine in an engine match, before its byo-yomi.
    #[arg(long, default_value_t = 0.0)]
    pub(crate) main_time: f64,
    /// Only the first engine loses on time (the second's overruns are counted, not punished:
    /// GNU Go overruns short byo-yomi periods).
    #[arg(long)]
    pub(crate) clock_first_only: bool,
    /// An engine match resumed at this game of its `--games` (1-based): the earlier games are
    /// left out, the rest get the seeds and colours of the whole series (a series longer than
    /// one sitting, run in parts; the summary counts the games played now).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..))]
    pub(crate) first_game: u32,
    /// Search threads of each bot in a series and of `self` engines; default: one per core.
    #[arg(long)]
    pub(crate) threads: Option<usize>,
    /// Directory for one SGF per game (engine matches).
    #[arg(long)]
    pub(crate) sgf_dir: Option<PathBuf>,
    /// Directory for one JSON record per game (bot series)
    #[arg(long)]
    pub(crate) record_dir: Option<PathBuf>,
    /// Settings of a bot series' rule system over its preset, e.g. `--set max_turns=200`.
    #[arg(long = "set", value_name = "NAME=VALUE")]
    pub(crate) settings: Vec<String>,
    #[arg(long, default_value_t = 1)]
    pub(crate) seed: u64,
}

#[derive(Debug, Subcommand)]
pub(crate) enum MapCommand {
    /// The map generators and their specs.
    List {
        /// As JSON.
        #[arg(long)]
        json: bool,
    },
    /// Build or load a map, check it, and describe it; optionally write JSON or SVG.
    Show {
        /// A generator spec (e.g. goldberg:2,1) or a custom map JSON file.
        map: String,
        /// Write an SVG picture.
        #[arg(long)]
        svg: Option<PathBuf>,
        /// Write the map as JSON (`-` for standard output).
        #[arg(long)]
        json: Option<PathBuf>,
        /// Also compute start points for this many players.
        #[arg(long)]
        start_points: Option<usize>,
    },
}

#[derive(Debug, Subcommand)]
pub(crate) enum BenchCommand {
    /// Light random playouts per second, one thread.
    Playouts {
        /// Maps to measure (generator specs).
        #[arg(long = "map", default_values = ["square:9", "square:19", "torus:19", "goldberg:6,0"])]
        maps: Vec<String>,
        #[arg(long, default_value_t = 2)]
        players: u8,
        /// Seconds per map.
        #[arg(long, default_value_t = 3.0)]
        seconds: f64,
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
    /// Time a position copy (19×19 mid-game).
    Copy,
    /// Full-strength search speed: playouts per second including the tree.
    Search {
        #[arg(long = "map", default_values = ["square:9", "square:19"])]
        maps: Vec<String>,
        #[arg(long, default_value = "classic", value_parser = parse_rules, help = rules_help("Rules"))]
        rules: String,
        #[arg(long, default_value_t = 2)]
        players: usize,
        /// light, tactics, reading, heavy or patterns.
        #[arg(long, default_value = "tactics")]
        policy: String,
        #[arg(long, default_value_t = 1)]
        threads: usize,
        #[arg(long, default_value_t = 3.0)]
        seconds: f64,
        /// Classic Go's tree priors from the learned patterns (`false`: the hand-written ones).
        #[arg(long, default_value_t = true, action = clap::ArgAction::Set)]
        patterns: bool,
    },
}

/// The command line, with `serve`'s config file read into it (`serve::config_file`).
pub(crate) fn parse_cli() -> Result<Cli> {
    let argv: Vec<std::ffi::OsString> = std::env::args_os().collect();
    let command = Cli::command();
    let matches = command.clone().try_get_matches_from(&argv).unwrap_or_else(|e| e.exit());
    let argv = serve::config_file::with_config_file(&command, &matches, argv)?;
    let matches = command.try_get_matches_from(&argv).unwrap_or_else(|e| e.exit());
    Ok(Cli::from_arg_matches(&matches).unwrap_or_else(|e| e.exit()))
}

/// `--rules`: a rule system or any system's preset, as the registry knows them.
pub(crate) fn parse_rules(name: &str) -> Result<String, String> {
    registry::rules_by_name(name).map(|_| name.to_string())
}

/// The help of `--rules`: every name it takes, from the registry.
pub(crate) fn rules_help(what: &str) -> String {
    let mut names: Vec<&str> = Vec::new();
    for s in gobeyond_rules::SYSTEMS {
        for n in std::iter::once(s.name).chain(s.presets().iter().map(|p| p.name)) {
            if !names.contains(&n) {
                names.push(n);
            }
        }
    }
    format!("{what}: {} (`gobeyond rules` describes them)", names.join(", "))
}
