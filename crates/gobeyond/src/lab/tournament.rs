//! `gobeyond lab tournament`: a tournament of bots paired by the tournament library
//! (docs/tournaments.md) and played by the match runner — a designer's way to rank bots or
//! compare how a format treats them. Prints a plain standings table, or JSON with `--json`.

use std::sync::Arc;

use anyhow::{Context, Result, bail};
use clap::Args;
use gobeyond_bots::level::Strategy;
use gobeyond_rules::Game;
use gobeyond_tournament::{
    Entrant, EntrantId, Format, Round, Spec, Standings, TableResult, pair_round, rounds_needed,
    standings_named,
};
use serde::Serialize;

use super::entrant::{self, EntrantSpec};
use crate::{
    cli::{parse_rules, rules_help},
    map_source,
};

#[derive(Debug, Args)]
pub struct TournamentArgs {
    #[arg(long, default_value = "gobeyond", value_parser = parse_rules, help = rules_help("Rules of every game"))]
    rules: String,
    #[arg(long, default_value = "hex:5")]
    map: String,
    #[arg(long, default_value_t = 2)]
    players_per_game: u8,
    /// round_robin, swiss, mcmahon, single_elimination, double_elimination.
    #[arg(long, default_value = "swiss")]
    format: String,
    /// Rounds (Swiss, McMahon); 0 = as many as the format needs.
    #[arg(long, default_value_t = 0)]
    rounds: u32,
    /// Single elimination with more than two players per game: how many of each table go on.
    #[arg(long, default_value_t = 1)]
    advance: u8,
    /// An entrant: `bot:level=4`, `bot:random`, `bot:greedy` (or just `4`), with its own settings
    /// after commas: `level=6,seconds=0.5`, `level=8,patterns=off`, `level=4,name=Ann`. Repeat
    /// for each.
    #[arg(long = "entrant", required = true)]
    entrants: Vec<String>,
    /// Settings over the preset for every game, e.g. `--set komi=6.5`.
    #[arg(long = "set", value_name = "NAME=VALUE")]
    settings: Vec<String>,
    /// Seconds per move (default: each level's fixed number of playouts, reproducible).
    #[arg(long)]
    seconds_per_move: Option<f64>,
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Print JSON instead of the table.
    #[arg(long)]
    pub json: bool,
}

/// What `--json` prints.
#[derive(Debug, Serialize)]
pub struct TournamentResult {
    pub spec: Spec,
    pub entrants: Vec<NamedEntrant>,
    pub rounds: Vec<Round>,
    pub standings: Standings,
}

#[derive(Debug, Serialize)]
pub struct NamedEntrant {
    pub id: EntrantId,
    pub name: String,
}

fn format(name: &str) -> Result<Format> {
    serde_json::from_value(serde_json::Value::String(name.into())).map_err(|_| {
        anyhow::anyhow!(
            "--format: round_robin, swiss, mcmahon, single_elimination or double_elimination, not {name:?}"
        )
    })
}

pub fn run(args: &TournamentArgs) -> Result<TournamentResult> {
    let spec = Spec {
        format: format(&args.format)?,
        players_per_game: args.players_per_game,
        rounds: args.rounds,
        points: Vec::new(),
        advance: args.advance,
        mcmahon_bar: None,
        seed: args.seed,
    };
    spec.validate()?;
    if matches!(spec.format, Format::Swiss | Format::McMahon) && spec.rounds == 0 {
        bail!("--rounds: a Swiss or McMahon tournament needs a number of rounds");
    }
    if args.entrants.len() > 256 {
        bail!("--entrant: at most 256 entrants, not {}", args.entrants.len());
    }
    let specs: Vec<EntrantSpec> = args.entrants.iter().map(|e| entrant::parse(e)).collect::<Result<_>>()?;
    // Seeded by level (the stronger first); the order given breaks ties.
    let entrants: Vec<Entrant> = specs
        .iter()
        .enumerate()
        .map(|(i, e)| Entrant::new(i as EntrantId + 1, e.level * 100.0 - i as f64 * 0.001))
        .collect();
    let names: Vec<String> =
        specs.iter().enumerate().map(|(i, e)| format!("{} #{}", e.name, i + 1)).collect();
    let name = |id: EntrantId| names.get(id as usize - 1).cloned().unwrap_or_default();
    let games = rounds_needed(&spec, entrants.len()) as u64 * (entrants.len() / spec.players()) as u64;
    let bar = indicatif::ProgressBar::new(games.max(1)).with_style(indicatif::ProgressStyle::with_template(
        "{bar:30} {pos}/{len} games, {msg} [{elapsed}]",
    )?);
    let mut history: Vec<Round> = Vec::new();
    loop {
        let mut round = match pair_round(&spec, &entrants, &history) {
            Ok(round) => round,
            Err(gobeyond_tournament::PairingError::Finished) => break,
            Err(e) => bail!("{e}"),
        };
        bar.set_message(format!("round {}", round.number));
        for (t, table) in round.tables.iter().enumerate() {
            let seats: Vec<&EntrantSpec> =
                table.seats.iter().filter_map(|&id| specs.get(id as usize - 1)).collect();
            let seed = args.seed ^ (u64::from(round.number) << 20) ^ t as u64;
            round.results[t] = Some(play_table(args, &seats, seed)?);
            bar.inc(1);
        }
        history.push(round);
    }
    bar.finish_and_clear();
    let standings = standings_named(&spec, &entrants, &history, &name);
    Ok(TournamentResult {
        spec,
        entrants: entrants.iter().map(|e| NamedEntrant { id: e.id, name: name(e.id) }).collect(),
        rounds: history,
        standings,
    })
}

/// One game of the tournament: the places of its seats.
fn play_table(args: &TournamentArgs, seats: &[&EntrantSpec], seed: u64) -> Result<TableResult> {
    let n = seats.len();
    let map = Arc::new(map_source(&args.map)?.load()?);
    let rules =
        gobeyond_rules::registry::rules_with(&args.rules, &args.settings).map_err(anyhow::Error::msg)?;
    let system = rules.info()?;
    let game = system.start(map.clone(), n, &rules.settings, &Default::default())?;
    let strategies: Vec<Strategy> = seats.iter().map(|e| e.strategy).collect();
    let times: Vec<_> = seats.iter().map(|e| e.time(args.seconds_per_move)).collect();
    let outcome = gobeyond_rules::dispatch!(game, game => {
        let end = crate::matches::play_game_timed(game, &strategies, &times, seed, 1, 10 * map.len(), &mut |_| {})?;
        end.outcome().cloned().context("the game ended without an outcome")?
    });
    let place_of = |seat: usize| {
        outcome.places.get(seat).copied().filter(|&p| p > 0).unwrap_or_else(|| {
            outcome.ranking.iter().position(|p| p.index() == seat).map_or(n as u32, |i| i as u32 + 1)
        })
    };
    let places = (0..n).map(|s| u8::try_from(place_of(s).min(n as u32)).unwrap_or(u8::MAX)).collect();
    Ok(TableResult { places, forfeit: vec![false; n] })
}

/// The standings as a plain table.
pub fn table(result: &TournamentResult) -> String {
    let name = |id: EntrantId| {
        result.entrants.iter().find(|e| e.id == id).map(|e| e.name.clone()).unwrap_or_default()
    };
    let breaks: Vec<String> = result.standings.tie_breaks.iter().map(|t| format!("{t:?}")).collect();
    let mut out = format!(
        "{:>5}  {:<24} {:>7} {:>6} {:>5}  {}\n",
        "place",
        "entrant",
        "points",
        "games",
        "byes",
        breaks.join(" / ")
    );
    for row in &result.standings.rows {
        let tbs: Vec<String> =
            row.tie_breaks.iter().map(|&x| gobeyond_tournament::standings::number(x)).collect();
        out += &format!(
            "{:>5}  {:<24} {:>7} {:>6} {:>5}  {}\n",
            row.place,
            name(row.entrant),
            gobeyond_tournament::standings::number(row.points),
            row.games,
            row.byes,
            tbs.join(" / ")
        );
        if let Some(why) = &row.why {
            out += &format!("{:>7}{why}\n", "");
        }
    }
    out
}
