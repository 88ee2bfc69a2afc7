//! The `gobeyond` program: terminal play, GTP engine, replays, map tools and benchmarks.
#![forbid(unsafe_code)]

mod admin;
mod analyze;
mod backup;
mod bench;
mod cli;
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
use cli::{BenchCommand, Command, GtpArgs, MapCommand, MatchArgs, PlayArgs};
use gobeyond_maps::{CustomMap, GENERATORS, Map};
use gobeyond_rules::{
    KoRule, SuicideRule,
    record::{MapSource, PlayerInfo, Record},
    registry, sgf,
};
use systems::classic::{engine_match, gtp};

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

fn main() {
    if let Err(e) = cli::parse_cli().and_then(run) {
        eprintln!("error: {e:#}");
        std::process::exit(1);
    }
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

/// A record file: SGF (by its extension or its first character) or the JSON record.
fn load_record(path: &PathBuf) -> Result<Record> {
    let text = std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    if path.extension().is_some_and(|e| e.eq_ignore_ascii_case("sgf")) || text.trim_start().starts_with('(') {
        return Ok(sgf::import(&text)?);
    }
    Ok(Record::from_json(&text)?)
}

/// Runs one subcommand; what it prints for programs is JSON.
fn run(cli: cli::Cli) -> Result<()> {
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
        Command::Gtp(args) => gtp_engine(args)?,
        Command::Analyze(args) => analyze::run(args)?,
        Command::AnalyzeTrust(args) => analyze::trust::run(args)?,
        Command::Replay { file, upto, sgf: sgf_out } => replay(&file, upto, sgf_out)?,
        Command::Match(m) => series(m)?,
        Command::Rules { json } => list_rules(json)?,
        Command::Map { what } => map_tool(what)?,
        Command::Bench { what } => bench(what)?,
        Command::Lab { what } => lab::cli::run(what)?,
        Command::Train { what } => systems::classic::train::run(what)?,
    }
    std::io::stdout().flush()?;
    Ok(())
}

/// `gobeyond gtp`: the classic-Go engine on standard input and output.
fn gtp_engine(args: GtpArgs) -> Result<()> {
    let level = gobeyond_bots::Level::new(args.level).map_err(anyhow::Error::msg)?;
    let seed = args.seed.unwrap_or_else(fresh_seed);
    let mut search = level.config(seed, threads_or_cores(args.threads)?);
    // A level below the top keeps its playouts as a strength limit under any clock.
    let timed_playouts =
        args.playouts.or(search.as_ref().filter(|_| level < gobeyond_bots::Level::MAX).map(|c| c.playouts));
    for (name, v) in [("exploration", args.exploration), ("rave-equivalence", args.rave_equivalence)] {
        if v.is_some_and(|v| !v.is_finite() || v < 0.0) {
            bail!("--{name} must be a number of 0 or more");
        }
    }
    if args.score_bonus.is_some_and(|b| !(0.0..=1.0).contains(&b)) {
        bail!("--score-bonus must be a number from 0 to 1");
    }
    if let Some(mib) = args.tree_memory.filter(|&mib| mib == 0 || mib > 1 << 20) {
        bail!("--tree-memory is 1 to {} MiB, not {mib}", 1 << 20);
    }
    if args.seconds_per_move.is_some_and(|s| !s.is_finite() || s <= 0.0) {
        bail!("--seconds-per-move must be a positive number");
    }
    if let Some(c) = search.as_mut() {
        c.patterns = args.patterns;
        if let Some(p) = args.policy.as_deref() {
            c.policy = p.parse().map_err(anyhow::Error::msg)?;
        }
        c.playouts = args.playouts.unwrap_or(c.playouts);
        c.exploration = args.exploration.or(c.exploration);
        c.rave_equivalence = args.rave_equivalence.or(c.rave_equivalence);
        c.score_bonus = args.score_bonus.unwrap_or(c.score_bonus);
        c.memory = args.tree_memory.map_or(c.memory, |mib| mib << 20);
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
    Ok(())
}

/// `gobeyond replay`: the state after a record's actions (or its first `upto`), as JSON.
fn replay(file: &PathBuf, upto: Option<usize>, sgf_out: Option<PathBuf>) -> Result<()> {
    let mut record = load_record(file)?;
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
    Ok(())
}

/// `gobeyond match`: two GTP engines at classic Go, or a series between bots of any system.
fn series(m: MatchArgs) -> Result<()> {
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
    Ok(())
}

/// `gobeyond rules`: the rule systems, their presets and settings, from the registry.
fn list_rules(json: bool) -> Result<()> {
    if json {
        let systems: Vec<_> = gobeyond_rules::SYSTEMS
            .iter()
            .map(|s| {
                serde_json::json!({
                    "name": s.name, "title": s.title, "about": s.about,
                    "presets": s.presets(), "settings": s.describe_settings(),
                })
            })
            .collect();
        println!("{}", serde_json::to_string_pretty(&systems)?);
        return Ok(());
    }
    for s in gobeyond_rules::SYSTEMS {
        println!("{:<10} {}: {}", s.name, s.title, s.about);
        for p in s.presets() {
            println!("  preset {:<14} {}", p.name, p.description);
        }
        for d in s.describe_settings() {
            println!("  --set {:<16} {} (default {})", d.name, d.help, d.default);
        }
    }
    Ok(())
}

/// `gobeyond map`: the generators, or one map described (and drawn or written).
fn map_tool(what: MapCommand) -> Result<()> {
    match what {
        MapCommand::List { json: true } => println!("{}", serde_json::to_string_pretty(GENERATORS)?),
        MapCommand::List { json: false } => {
            for g in GENERATORS {
                println!("{:<10} {:<38} e.g. {:<18} {}", g.kind, g.usage, g.example, g.description);
            }
        }
        MapCommand::Show { map, svg, json, start_points } => {
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
    }
    Ok(())
}

/// One map's benchmark figures as a JSON line.
type Measure = Box<dyn Fn(&str) -> Result<String>>;

/// `gobeyond bench`: one JSON line per map, with a progress bar over the maps.
fn bench(what: BenchCommand) -> Result<()> {
    let (maps, measure): (Vec<String>, Measure) = match what {
        BenchCommand::Copy => {
            println!("{}", serde_json::to_string(&bench::copies("square:19")?)?);
            return Ok(());
        }
        BenchCommand::Playouts { maps, players, seconds, seed } => (
            maps,
            Box::new(move |m| Ok(serde_json::to_string(&bench::playouts(m, players, seconds, seed)?)?)),
        ),
        BenchCommand::Search { maps, rules, players, policy, threads, seconds, patterns } => {
            let policy: gobeyond_bots::Policy = policy.parse().map_err(anyhow::Error::msg)?;
            let measure = move |m: &str| {
                let f = bench::search(m, &rules, players, policy, threads, seconds, patterns)?;
                Ok(serde_json::to_string(&f)?)
            };
            (maps, Box::new(measure))
        }
    };
    let bar = indicatif::ProgressBar::new(maps.len() as u64)
        .with_style(indicatif::ProgressStyle::with_template("{bar:30} {pos}/{len} {msg}")?);
    for m in maps {
        bar.set_message(m.clone());
        let figures = measure(&m)?;
        bar.suspend(|| println!("{figures}"));
        bar.inc(1);
    }
    bar.finish_and_clear();
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
