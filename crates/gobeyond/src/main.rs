//! The `gobeyond` program: terminal play, GTP engine, replays, map tools and benchmarks.
#![forbid(unsafe_code)]

mod admin;
mod analyze;
mod backup;
mod bench;
mod fuzz;
mod lab;
mod loadtest;
mod loadtest_reviews;
mod matches;
mod serve;
mod systems;
mod terminal;
mod textboard;

use std::{io::Write, path::PathBuf};

use anyhow::{Context, Result, bail};
use clap::{Args, CommandFactory, FromArgMatches, Parser, Subcommand, ValueEnum};
use gobeyond_maps::{CustomMap, GENERATORS, Map};
use gobeyond_rules::{
    KoRule, SuicideRule,
    record::{MapSource, PlayerInfo, Record},
    registry, sgf,
};
use systems::classic::{engine_match, gtp};

#[derive(Debug, Parser)]
#[command(name = "gobeyond", version, about = "Generalized Go: any map, 2-8 players, several rule systems")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
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
enum KoArg {
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
enum SuicideArg {
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
struct RuleArgs {
    /// Ko rule (overrides the preset).
    #[arg(long, value_enum)]
    ko: Option<KoArg>,
    /// Suicide rule (overrides the preset).
    #[arg(long, value_enum)]
    suicide: Option<SuicideArg>,
    /// Komi (overrides the preset).
    #[arg(long)]
    komi: Option<f64>,
}

impl RuleArgs {
    /// The overrides as settings of any system that has them (`ko`, `suicide`, `komi`).
    fn apply_to(&self, settings: &mut registry::Object) -> Result<()> {
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
struct PlayArgs {
    /// A map generator spec (see `gobeyond map list`) or a custom map JSON file.
    #[arg(long, default_value = "square:9")]
    map: String,
    #[arg(long, default_value_t = 2)]
    players: usize,
    #[arg(long, default_value = "chinese", value_parser = parse_rules, help = rules_help("Rule system or preset"))]
    rules: String,
    #[command(flatten)]
    overrides: RuleArgs,
    /// Settings of the rule system over its preset, e.g. `--set turn_seconds=0 --set
    /// handicap=[0,20]` (`gobeyond rules` lists every system's settings).
    #[arg(long = "set", value_name = "NAME=VALUE")]
    settings: Vec<String>,
    /// Keep the record in this file, updated after every move.
    #[arg(long)]
    save: Option<PathBuf>,
    /// Continue the game of this record (JSON).
    #[arg(long)]
    load: Option<PathBuf>,
}

#[derive(Debug, Args)]
struct GtpArgs {
    #[command(flatten)]
    rules: RuleArgs,
    /// Seed of the move generator (each game draws its own from it); default: a fresh one.
    #[arg(long)]
    seed: Option<u64>,
    /// Strength 1 (random) to 10 (full search).
    #[arg(long, default_value_t = 10)]
    level: u8,
    /// Playouts per move, also under a clock (overrides the level's; without it a clock or
    /// --seconds-per-move lifts level 10's cap, while lower levels keep theirs).
    #[arg(long)]
    playouts: Option<u32>,
    /// Seconds per move without a clock from the controller; with one, the most a move may take.
    #[arg(long)]
    seconds_per_move: Option<f64>,
    /// Search threads, sharing one tree; default: one per core.
    #[arg(long)]
    threads: Option<usize>,
    /// Tree priors from the learned move patterns (`false`: the hand-written ones).
    #[arg(long, default_value_t = true, action = clap::ArgAction::Set)]
    patterns: bool,
    /// Playout policy of the search: light (random, no own-eye filling), tactics (captures,
    /// escapes, no big self-ataris), reading (tactics and groups of two liberties), heavy
    /// (tactics and shape patterns) or patterns (tactics and learned shapes); default: the
    /// level's.
    #[arg(long)]
    policy: Option<String>,
    /// UCT exploration constant of the search (for tuning; default 0.1, 0 for classic Go on
    /// 13×13 and up).
    #[arg(long)]
    exploration: Option<f32>,
    /// RAVE equivalence: real visits after which AMAF counts for half (for tuning; default 1000,
    /// 4000 for classic Go on 13×13 and up).
    #[arg(long)]
    rave_equivalence: Option<f32>,
    /// Share of a playout's reward taken from the score margin, 0 to 1 (for tuning; default
    /// the level's).
    #[arg(long)]
    score_bonus: Option<f32>,
    /// Most MiB of search tree per thread: at the budget the tree stops growing and the search
    /// goes on (default 256).
    #[arg(long, value_name = "MIB")]
    tree_memory: Option<usize>,
    /// Think on the opponent's time: after each `genmove` the search goes on until the next
    /// command (at most a minute), and keeps its tree for the opponent's move.
    #[arg(long, default_value_t = false, num_args = 0..=1, default_missing_value = "true",
          action = clap::ArgAction::Set)]
    ponder: bool,
}

#[derive(Debug, Args)]
struct MatchArgs {
    /// Classic two-engine match: two GTP engines, e.g. `self:level=10` (this program) and
    /// "gnugo --mode gtp --level 10 --chinese-rules".
    #[arg(long = "engine", num_args = 1)]
    engines: Vec<String>,
    /// Multi-player series: one bot per seat (`random`, `greedy`, or a level 1-10).
    #[arg(long = "bot", num_args = 1)]
    bots: Vec<String>,
    #[arg(long, default_value = "gobeyond", value_parser = parse_rules, help = rules_help("Rules of a bot series"))]
    rules: String,
    /// Map of a bot series.
    #[arg(long, default_value = "hex:5")]
    map: String,
    #[arg(long, default_value_t = 10)]
    games: u32,
    /// Board size of an engine match.
    #[arg(long, default_value_t = 9)]
    size: u32,
    #[arg(long, default_value_t = 7.0)]
    komi: f64,
    /// Seconds per move: an engine match's byo-yomi (a clock the controller keeps: an overrun
    /// loses on time; default 1); bots in a series search this long when given.
    #[arg(long)]
    seconds_per_move: Option<f64>,
    /// Main time of each engine in an engine match, before its byo-yomi.
    #[arg(long, default_value_t = 0.0)]
    main_time: f64,
    /// Only the first engine loses on time (the second's overruns are counted, not punished:
    /// GNU Go overruns short byo-yomi periods).
    #[arg(long)]
    clock_first_only: bool,
    /// An engine match resumed at this game of its `--games` (1-based): the earlier games are
    /// left out, the rest get the seeds and colours of the whole series (a series longer than
    /// one sitting, run in parts; the summary counts the games played now).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..))]
    first_game: u32,
    /// Search threads of each bot in a series and of `self` engines; default: one per core.
    #[arg(long)]
    threads: Option<usize>,
    /// Directory for one SGF per game (engine matches).
    #[arg(long)]
    sgf_dir: Option<PathBuf>,
    /// Directory for one JSON record per game (bot series)
    #[arg(long)]
    record_dir: Option<PathBuf>,
    /// Settings of a bot series' rule system over its preset, e.g. `--set max_turns=200`.
    #[arg(long = "set", value_name = "NAME=VALUE")]
    settings: Vec<String>,
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

#[derive(Debug, Subcommand)]
enum MapCommand {
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
enum BenchCommand {
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

/// A seed that differs from run to run (time and process), for games that need not repeat.
fn fresh_seed() -> u64 {
    let nanos =
        std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos());
    gobeyond_rules::Rng::new(nanos as u64 ^ (u64::from(std::process::id()) << 32)).next_u64()
}

/// `--threads`: at least one, at most 256; default one per core.
fn threads_or_cores(threads: Option<usize>) -> Result<usize> {
    match threads {
        Some(n) if !(1..=256).contains(&n) => bail!("--threads is 1 to 256, not {n}"),
        Some(n) => Ok(n),
        None => Ok(std::thread::available_parallelism().map_or(1, usize::from)),
    }
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

fn main() {
    if let Err(e) = parse_cli().and_then(run) {
        eprintln!("error: {e:#}");
        std::process::exit(1);
    }
}

/// The command line, with `serve`'s config file read into it (`serve::config_file`).
fn parse_cli() -> Result<Cli> {
    let argv: Vec<std::ffi::OsString> = std::env::args_os().collect();
    let command = Cli::command();
    let matches = command.clone().try_get_matches_from(&argv).unwrap_or_else(|e| e.exit());
    let argv = serve::config_file::with_config_file(&command, &matches, argv)?;
    let matches = command.try_get_matches_from(&argv).unwrap_or_else(|e| e.exit());
    Ok(Cli::from_arg_matches(&matches).unwrap_or_else(|e| e.exit()))
}

/// A generator spec, or a path to a custom map file.
pub fn map_source(arg: &str) -> Result<MapSource> {
    let path = std::path::Path::new(arg);
    if arg.ends_with(".json") || path.is_file() {
        let text = std::fs::read_to_string(path).with_context(|| format!("reading {arg}"))?;
        let custom = CustomMap::from_json(&text).with_context(|| format!("{arg} is not a map file"))?;
        return Ok(MapSource::Custom(custom));
    }
    Ok(MapSource::Spec(arg.to_string()))
}

fn load_record(path: &PathBuf) -> Result<Record> {
    let text = std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    if path.extension().is_some_and(|e| e.eq_ignore_ascii_case("sgf")) || text.trim_start().starts_with('(') {
        return Ok(sgf::import(&text)?);
    }
    Ok(Record::from_json(&text)?)
}

fn run(cli: Cli) -> Result<()> {
    match cli.command {
        Command::Serve(args) => serve::run(*args)?,
        Command::Healthcheck(args) => serve::health::run(args)?,
        Command::Backup(args) => backup::backup(args)?,
        Command::Restore(args) => backup::restore(args)?,
        Command::Admin(args) => admin::admin(args)?,
        Command::Fuzz { targets, inputs, seed, replay, json } => {
            fuzz::command(targets, inputs, seed, replay, json)?
        }
        Command::Loadtest { urls, games, seconds, map, rate, reviews, review_playouts } => {
            let rate = (rate > 0.0).then_some(rate);
            let opts = loadtest::Options { urls, games, seconds, map, rate, reviews, review_playouts };
            let report = tokio::runtime::Builder::new_multi_thread()
                .enable_all()
                .build()?
                .block_on(loadtest::run(opts))?;
            println!("{}", serde_json::to_string_pretty(&report)?);
        }
        Command::Play(args) => play(args)?,
        Command::Gtp(args) => {
            let level = gobeyond_bots::Level::new(args.level).map_err(anyhow::Error::msg)?;
            let seed = args.seed.unwrap_or_else(fresh_seed);
            let mut search = level.config(seed, threads_or_cores(args.threads)?);
            // A level below the top keeps its playouts as a strength limit under any clock.
            let timed_playouts = args
                .playouts
                .or(search.as_ref().filter(|_| level < gobeyond_bots::Level::MAX).map(|c| c.playouts));
            if let Some(c) = search.as_mut() {
                c.patterns = args.patterns;
            }
            if let (Some(c), Some(p)) = (search.as_mut(), args.policy.as_deref()) {
                c.policy = p.parse().map_err(anyhow::Error::msg)?;
            }
            if let (Some(c), Some(p)) = (search.as_mut(), args.playouts) {
                c.playouts = p;
            }
            for (name, v) in [("exploration", args.exploration), ("rave-equivalence", args.rave_equivalence)]
            {
                if v.is_some_and(|v| !v.is_finite() || v < 0.0) {
                    bail!("--{name} must be a number of 0 or more");
                }
            }
            if let (Some(c), Some(e)) = (search.as_mut(), args.exploration) {
                c.exploration = Some(e);
            }
            if let (Some(c), Some(k)) = (search.as_mut(), args.rave_equivalence) {
                c.rave_equivalence = Some(k);
            }
            if let Some(b) = args.score_bonus {
                if !(0.0..=1.0).contains(&b) {
                    bail!("--score-bonus must be a number from 0 to 1");
                }
                if let Some(c) = search.as_mut() {
                    c.score_bonus = b;
                }
            }
            if let Some(mib) = args.tree_memory {
                if mib == 0 || mib > 1 << 20 {
                    bail!("--tree-memory is 1 to {} MiB, not {mib}", 1 << 20);
                }
                if let Some(c) = search.as_mut() {
                    c.memory = mib << 20;
                }
            }
            if args.seconds_per_move.is_some_and(|s| !s.is_finite() || s <= 0.0) {
                bail!("--seconds-per-move must be a positive number");
            }
            let bot = gtp::BotOptions {
                search,
                timed_playouts,
                seconds_per_move: args.seconds_per_move,
                ponder: args.ponder,
            };
            let (ko, suicide) = (args.rules.ko.map(KoRule::from), args.rules.suicide.map(SuicideRule::from));
            let mut engine = gtp::GtpEngine::with_overrides(ko, suicide, args.rules.komi, seed, bot)?;
            if args.ponder {
                engine.run_pondering(std::io::BufReader::new(std::io::stdin()), std::io::stdout())?;
            } else {
                engine.run(std::io::stdin().lock(), std::io::stdout())?;
            }
        }
        Command::Analyze(args) => analyze::run(args)?,
        Command::AnalyzeTrust(args) => analyze::trust::run(args)?,
        Command::Replay { file, upto, sgf: sgf_out } => {
            let mut record = load_record(&file)?;
            if let Some(n) = upto {
                record.actions.truncate(n);
                // The recorded events describe the whole game; the replay makes its own.
                record.events.clear();
            }
            let game = record.replay()?;
            if let Some(out) = sgf_out {
                let text = game.sgf(&record.players, record.date.as_deref()).map_err(anyhow::Error::msg)?;
                std::fs::write(&out, text)?;
            }
            println!("{}", game.state_json(&record.players));
        }
        Command::Match(m) => {
            if m.seconds_per_move.is_some_and(|s| !s.is_finite() || s <= 0.0)
                || !m.main_time.is_finite()
                || m.main_time < 0.0
            {
                bail!("--seconds-per-move must be positive and --main-time 0 or more");
            }
            if m.engines.len() == 2 {
                // `--threads` reaches this program's own engines (`self:threads=N` wins).
                let engine = |spec: &String| match m.threads {
                    Some(n) if spec.starts_with("self") && !spec.contains("threads=") => {
                        let sep = if spec == "self" { ":" } else { "," };
                        Ok(format!("{spec}{sep}threads={}", threads_or_cores(Some(n))?))
                    }
                    _ => Ok::<_, anyhow::Error>(spec.clone()),
                };
                let summary = engine_match::classic_match(&engine_match::ClassicMatch {
                    engines: [engine(&m.engines[0])?, engine(&m.engines[1])?],
                    games: m.games,
                    first_game: m.first_game,
                    size: m.size,
                    komi: m.komi,
                    main_time: m.main_time,
                    seconds: m.seconds_per_move.unwrap_or(1.0),
                    sgf_dir: m.sgf_dir,
                    seed: m.seed,
                    enforce: [true, !m.clock_first_only],
                })?;
                println!("{}", serde_json::to_string_pretty(&summary)?);
            } else if m.bots.len() >= 2 {
                let r = matches::series(
                    &m.rules,
                    &m.map,
                    &m.settings,
                    &m.bots,
                    m.games,
                    m.seconds_per_move,
                    threads_or_cores(m.threads)?,
                    m.seed,
                    m.record_dir.as_deref(),
                )?;
                println!("{}", serde_json::to_string_pretty(&r)?);
            } else {
                bail!("give two --engine commands, or two or more --bot players");
            }
        }
        Command::Rules { json } => {
            let systems: Vec<_> = gobeyond_rules::SYSTEMS
                .iter()
                .map(|s| {
                    serde_json::json!({
                        "name": s.name, "title": s.title, "about": s.about,
                        "presets": s.presets(), "settings": s.describe_settings(),
                    })
                })
                .collect();
            if json {
                println!("{}", serde_json::to_string_pretty(&systems)?);
            } else {
                for s in gobeyond_rules::SYSTEMS {
                    println!("{:<10} {}: {}", s.name, s.title, s.about);
                    for p in s.presets() {
                        println!("  preset {:<14} {}", p.name, p.description);
                    }
                    for d in s.describe_settings() {
                        println!("  --set {:<16} {} (default {})", d.name, d.help, d.default);
                    }
                }
            }
        }
        Command::Map { what: MapCommand::List { json } } => {
            if json {
                println!("{}", serde_json::to_string_pretty(GENERATORS)?);
            } else {
                for g in GENERATORS {
                    println!("{:<10} {:<38} e.g. {:<18} {}", g.kind, g.usage, g.example, g.description);
                }
            }
        }
        Command::Map { what: MapCommand::Show { map, svg, json, start_points } } => {
            let m: Map = map_source(&map)?.load()?;
            describe(&m, start_points)?;
            if let Some(path) = svg {
                std::fs::write(&path, gobeyond_maps::to_svg(&m))
                    .with_context(|| format!("writing {}", path.display()))?;
            }
            if let Some(path) = json {
                let text = serde_json::to_string_pretty(&CustomMap::from_map(&m))?;
                if path.as_os_str() == "-" {
                    println!("{text}");
                } else {
                    std::fs::write(&path, text)?;
                }
            }
        }
        Command::Bench { what: BenchCommand::Playouts { maps, players, seconds, seed } } => {
            let bar = indicatif::ProgressBar::new(maps.len() as u64)
                .with_style(indicatif::ProgressStyle::with_template("{bar:30} {pos}/{len} {msg}")?);
            for m in maps {
                bar.set_message(m.clone());
                let f = bench::playouts(&m, players, seconds, seed)?;
                bar.suspend(|| println!("{}", serde_json::to_string(&f).unwrap_or_default()));
                bar.inc(1);
            }
            bar.finish_and_clear();
        }
        Command::Bench {
            what: BenchCommand::Search { maps, rules, players, policy, threads, seconds, patterns },
        } => {
            let policy: gobeyond_bots::Policy = policy.parse().map_err(anyhow::Error::msg)?;
            let bar = indicatif::ProgressBar::new(maps.len() as u64)
                .with_style(indicatif::ProgressStyle::with_template("{bar:30} {pos}/{len} {msg}")?);
            for m in maps {
                bar.set_message(m.clone());
                let f = bench::search(&m, &rules, players, policy, threads, seconds, patterns)?;
                bar.suspend(|| println!("{}", serde_json::to_string(&f).unwrap_or_default()));
                bar.inc(1);
            }
            bar.finish_and_clear();
        }
        Command::Lab { what } => lab::cli::run(what)?,
        Command::Train { what } => systems::classic::train::run(what)?,
        Command::Bench { what: BenchCommand::Copy } => {
            println!("{}", serde_json::to_string(&bench::copies("square:19")?)?);
        }
    }
    std::io::stdout().flush()?;
    Ok(())
}

fn play(args: PlayArgs) -> Result<()> {
    let (source, game, players) = match &args.load {
        Some(path) => {
            let record = load_record(path)?;
            (record.map.clone(), record.replay()?, record.players.clone())
        }
        None => {
            let source = map_source(&args.map)?;
            let map = std::sync::Arc::new(source.load()?);
            let mut rules = registry::rules_with(&args.rules, &args.settings).map_err(anyhow::Error::msg)?;
            args.overrides.apply_to(&mut rules.settings)?;
            let game = rules.info()?.start(map, args.players, &rules.settings, &Default::default())?;
            (source, game, vec![PlayerInfo::default(); args.players])
        }
    };
    let opts = terminal::Options { source, players, save: args.save };
    let input = std::io::BufReader::new(std::io::stdin());
    gobeyond_rules::dispatch!(game, g => terminal::run(g, opts, input, std::io::stdout()))?;
    Ok(())
}

fn describe(m: &Map, start_points: Option<usize>) -> Result<()> {
    let mut degrees = std::collections::BTreeMap::new();
    for n in m.nodes() {
        *degrees.entry(m.degree(n)).or_insert(0usize) += 1;
    }
    let summary = serde_json::json!({
        "name": m.name(),
        "spec": m.spec(),
        "nodes": m.len(),
        "edges": m.edge_count(),
        "dimension": m.dimension(),
        "degrees": degrees.iter().map(|(d, c)| (d.to_string(), c)).collect::<std::collections::BTreeMap<_, _>>(),
        "lines": m.lines().map(|l| l.directions()),
        "grid": m.grid(),
        "components": m.components(),
        "start_points": start_points.map(|k| gobeyond_maps::start_points(m, k).iter().map(|&n| m.label(n).to_string()).collect::<Vec<_>>()),
    });
    println!("{}", serde_json::to_string_pretty(&summary)?);
    Ok(())
}
