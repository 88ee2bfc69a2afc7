//! `gobeyond match --bot A --bot B ...`: multi-player self-play for any rule system (bots in
//! process: levels, `random`, `greedy`), seats rotating, results per seat and per bot. Matches
//! between GTP engines (classic Go) are in `systems/classic/engine_match/`.

use std::{sync::Arc, time::Duration};

use anyhow::{Context, Result};
use gobeyond_bots::{
    Computer, Level,
    level::{Bot, Strategy},
};
use gobeyond_rules::{
    Game, Outcome,
    record::{PlayerInfo, Record},
};
use serde::Serialize;

/// Results of a multi-player series, per bot.
#[derive(Debug, Serialize)]
pub struct SeriesResult {
    pub games: u32,
    pub rules: String,
    pub map: String,
    pub bots: Vec<BotResult>,
    /// Wins per seat (turn position), whoever sat there; draws are not counted.
    pub wins_by_seat: Vec<u32>,
}

#[derive(Debug, Serialize)]
pub struct BotResult {
    pub bot: String,
    /// Games this bot finished first alone.
    pub wins: u32,
    pub win_rate: f64,
    /// Games in which it shared first place (a draw).
    pub draws: u32,
    /// Its mean place, a shared place counted as such (two drawn players are both 1st).
    pub mean_place: f64,
}

/// Bots in process, seats rotating each game.
#[allow(clippy::too_many_arguments)] // the command line's options, passed on as they are
pub fn series(
    rules: &str,
    map: &str,
    settings: &[String],
    bots: &[String],
    games: u32,
    seconds: Option<f64>,
    threads: usize,
    seed: u64,
    record_dir: Option<&std::path::Path>,
) -> Result<SeriesResult> {
    if let Some(dir) = record_dir {
        std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    }
    let n = bots.len();
    let strategies: Vec<Strategy> =
        bots.iter().map(|b| b.parse::<Strategy>().map_err(anyhow::Error::msg)).collect::<Result<_>>()?;
    let map_arc = Arc::new(crate::map_source(map)?.load()?);
    let bar = indicatif::ProgressBar::new(games as u64)
        .with_style(indicatif::ProgressStyle::with_template("{bar:30} {pos}/{len} games [{elapsed}<{eta}]")?);
    let mut tally = SeriesTally::new(n);
    let time = seconds.map(Duration::from_secs_f64);
    let rules_spec = gobeyond_rules::registry::rules_with(rules, settings).map_err(anyhow::Error::msg)?;
    let system = rules_spec.info()?;
    for g in 0..games {
        // Seat s is played by bot (s + g) % n.
        let bot_at = |seat: usize| (seat + g as usize) % n;
        let game = system.start(map_arc.clone(), n, &rules_spec.settings, &Default::default())?;
        let seat_strategies: Vec<Strategy> = (0..n).map(|s| strategies[bot_at(s)]).collect();
        let seed = seed + 97 * g as u64;
        let names = (0..n).map(|s| PlayerInfo { name: bots[bot_at(s)].clone() }).collect();
        let source = crate::map_source(map)?;
        let (outcome, record) = gobeyond_rules::dispatch!(game, game => {
            let end = play_series_game(game, &seat_strategies, seed, time, threads, 10 * map_arc.len(), &mut |_| {})?;
            (end.outcome().cloned().context("no outcome")?, Record::of(&end, source, names))
        });
        if let Some(dir) = record_dir {
            crate::terminal::write_atomically(
                &dir.join(format!("game-{:03}.json", g + 1)),
                &record.to_json(),
            )?;
        }
        tally.add(&outcome, bot_at);
        bar.inc(1);
    }
    bar.finish_and_clear();
    Ok(tally.result(games, rules, map, bots))
}

/// A series' results so far, per bot (and wins per seat).
struct SeriesTally {
    n: usize,
    wins: Vec<u32>,
    places: Vec<u32>,
    wins_by_seat: Vec<u32>,
    draws: Vec<u32>,
}

impl SeriesTally {
    fn new(n: usize) -> SeriesTally {
        SeriesTally { n, wins: vec![0; n], places: vec![0; n], wins_by_seat: vec![0; n], draws: vec![0; n] }
    }

    /// One game's outcome, seat `s` having been played by bot `bot_at(s)`.
    fn add(&mut self, outcome: &Outcome, bot_at: impl Fn(usize) -> usize) {
        let n = self.n;
        // Places as the outcome gives them: players who share one (a draw) both hold it.
        let place_of = |seat: usize| {
            outcome.places.get(seat).copied().filter(|&p| p > 0).unwrap_or_else(|| {
                outcome.ranking.iter().position(|p| p.index() == seat).map_or(n as u32, |i| i as u32 + 1)
            })
        };
        let firsts: Vec<usize> = (0..n).filter(|&s| place_of(s) == 1).collect();
        for seat in 0..n {
            self.places[bot_at(seat)] += place_of(seat);
        }
        match firsts.as_slice() {
            [w] => {
                self.wins[bot_at(*w)] += 1;
                self.wins_by_seat[*w] += 1;
            }
            shared => {
                for &s in shared {
                    self.draws[bot_at(s)] += 1;
                }
            }
        }
    }

    fn result(self, games: u32, rules: &str, map: &str, bots: &[String]) -> SeriesResult {
        SeriesResult {
            games,
            rules: rules.into(),
            map: map.into(),
            bots: (0..self.n)
                .map(|i| BotResult {
                    bot: bots[i].clone(),
                    wins: self.wins[i],
                    win_rate: self.wins[i] as f64 / games.max(1) as f64,
                    draws: self.draws[i],
                    mean_place: self.places[i] as f64 / games.max(1) as f64,
                })
                .collect(),
            wins_by_seat: self.wins_by_seat,
        }
    }
}

/// One game between bots of any rule system: each decides its seat's inputs
/// ([`Computer::decide`], as a served game's bot seats do) for up to `max` actions; then everyone
/// still to move passes, and decisions of several seats at once (GoBeyond's Clean-Up) are the
/// computer's. `observe` sees the game after each action.
pub(crate) fn play_series_game<G: Computer>(
    game: G,
    strategies: &[Strategy],
    seed: u64,
    time: Option<Duration>,
    threads: usize,
    max: usize,
    observe: &mut dyn FnMut(&G),
) -> Result<G> {
    play_game_timed(game, strategies, &vec![time; strategies.len()], seed, threads, max, observe)
}

/// [`play_series_game`] with a time per move for each seat (the lab's tournament entrants may
/// differ in it).
pub(crate) fn play_game_timed<G: Computer>(
    mut game: G,
    strategies: &[Strategy],
    times: &[Option<Duration>],
    seed: u64,
    threads: usize,
    max: usize,
    observe: &mut dyn FnMut(&G),
) -> Result<G> {
    let mut players: Vec<Bot<G>> = strategies
        .iter()
        .enumerate()
        .map(|(s, &st)| Bot::new(st, seed + s as u64, threads, times.get(s).copied().flatten()))
        .collect();
    let mut chance = gobeyond_rules::Rng::new(seed ^ 0x5eed);
    for _ in 0..max {
        if let Some(p) = game.turn().chance {
            let drawn = game.draw_chance(&mut chance).context("a chance event without an outcome")?;
            game.submit(p, &drawn).map_err(|e| anyhow::anyhow!("{p}: {e}"))?;
            continue;
        }
        let Some(p) = game.to_move() else { break };
        // The seat's own bot, through the one decision path every computer seat takes.
        let Some(input) = players[p.index()].decide(&game, p) else { break };
        game.submit(p, &input).map_err(|e| anyhow::anyhow!("bot {p} played an illegal action: {e}"))?;
        observe(&game);
    }
    let mut actions = Vec::new();
    for _ in 0..10 * max.max(1) {
        let turn = game.turn();
        if let Some(p) = turn.chance {
            let drawn = game.draw_chance(&mut chance).context("a chance event without an outcome")?;
            game.submit(p, &drawn).map_err(|e| anyhow::anyhow!("{p}: {e}"))?;
            continue;
        }
        if turn.seats.is_empty() {
            break;
        }
        if turn.simultaneous {
            for &p in &turn.seats {
                let m =
                    game.computer_input(p, Level::MAX, seed, None).unwrap_or_else(|| game.fallback_move(p));
                game.submit(p, &m).map_err(|e| anyhow::anyhow!("{p}: {e}"))?;
            }
            continue;
        }
        game.legal_actions(&mut actions);
        match actions.iter().copied().find(|&a| game.is_pass(a)) {
            Some(pass) => game.play(pass).map_err(|e| anyhow::anyhow!("{e}"))?,
            // Nothing that passes (a card to discard): the mildest input.
            None => {
                let p = turn.seats[0];
                game.submit(p, &game.fallback_move(p)).map_err(|e| anyhow::anyhow!("{p}: {e}"))?;
            }
        }
    }
    Ok(game)
}
