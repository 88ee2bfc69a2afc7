//! `gobeyond match --engine A --engine B`: two-player classic Go between GTP engines
//! (`self:level=10` or `self:playouts=N` runs this program's own engine; anything else is a
//! command line, e.g. `gnugo --mode gtp --level 10 --seed {seed}`), alternating colours, refereed by our rules
//! engine, scored by area with dead stones from our ownership estimate, one SGF per game, with
//! results and Elo. GTP speaks classic Go, so this lives with the classic system.
//!
//! The controller keeps a real clock, as GoGui's twogtp or a server does: it sends
//! `time_settings` and, before every `genmove`, `time_left`; it times each answer, and a move
//! that overruns the time left loses the game on time.

use std::{path::PathBuf, sync::Arc};

use anyhow::{Result, bail};
use gobeyond_bots::{SearchConfig, Searcher};
use gobeyond_maps::{Map, generate};
use gobeyond_rules::{
    ClassicGame, ClassicRules, EndReason, Game, Player, classic::Action, record::PlayerInfo, sgf,
};
use serde::Serialize;

mod gtp_client;

use gtp_client::{Clock, Engine, send_time_left, send_time_settings};

/// Wins, win rate with a 95 % Wilson interval, and the Elo difference it implies. A draw (jigo,
/// possible with an integer komi) counts half a win for each engine in the rate.
#[derive(Debug, Serialize)]
pub struct Summary {
    pub games: u32,
    pub wins: [u32; 2],
    pub wins_as_black: [u32; 2],
    pub draws: u32,
    /// Engine `a`'s score: (wins + draws / 2) / games.
    pub win_rate: f64,
    pub interval: [f64; 2],
    pub elo: f64,
    pub elo_interval: [f64; 2],
    pub engines: [String; 2],
    /// Games each engine lost on time.
    pub time_losses: [u32; 2],
    /// Moves over the byo-yomi period of an engine whose clock was not enforced.
    pub overruns: [u32; 2],
    /// Each engine's mean time per move, answer included, as the controller measured it.
    pub seconds_per_move: [f64; 2],
}

fn elo(p: f64) -> f64 {
    let p = p.clamp(1e-3, 1.0 - 1e-3);
    -400.0 * (1.0 / p - 1.0).log10()
}

pub fn summarize(engines: [String; 2], wins: [u32; 2], wins_as_black: [u32; 2], draws: u32) -> Summary {
    let n = (wins[0] + wins[1] + draws) as f64;
    let p = if n > 0.0 { (wins[0] as f64 + draws as f64 / 2.0) / n } else { 0.5 };
    let z = 1.96;
    let (lo, hi) = if n > 0.0 {
        let centre = (p + z * z / (2.0 * n)) / (1.0 + z * z / n);
        let half = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt() / (1.0 + z * z / n);
        (centre - half, centre + half)
    } else {
        (0.0, 1.0)
    };
    Summary {
        games: n as u32,
        wins,
        wins_as_black,
        draws,
        win_rate: p,
        interval: [lo, hi],
        elo: elo(p),
        elo_interval: [elo(lo), elo(hi)],
        engines,
        time_losses: [0; 2],
        overruns: [0; 2],
        seconds_per_move: [0.0; 2],
    }
}

/// Options of a two-engine classic match.
pub struct ClassicMatch {
    pub engines: [String; 2],
    pub games: u32,
    /// The series' first game played now (1-based): games before it were played in an earlier
    /// run, and each later game keeps the seed and colours it has in the whole series.
    pub first_game: u32,
    pub size: u32,
    pub komi: f64,
    /// Main time per player, seconds.
    pub main_time: f64,
    /// Byo-yomi: seconds for each move once the main time is spent (one move per period).
    pub seconds: f64,
    pub sgf_dir: Option<PathBuf>,
    pub seed: u64,
    /// Whose clock loses games on time (engine a, engine b): an engine that ignores clocks
    /// (GNU Go overruns a 1-s byo-yomi) can still be measured at its usual strength.
    pub enforce: [bool; 2],
}

pub fn classic_match(opts: &ClassicMatch) -> Result<Summary> {
    let map = Arc::new(generate(&format!("square:{}", opts.size))?);
    // Two passes end the game; the referee finds the dead stones (no agreement phase, in
    // which a third pass would be refused as illegal).
    let rules = ClassicRules {
        komi: opts.komi,
        dead_stones: false,
        ..ClassicRules::preset("chinese").unwrap_or_default()
    };
    if let Some(d) = &opts.sgf_dir {
        std::fs::create_dir_all(d)?;
    }
    let played = opts.first_game.max(1) - 1..opts.games;
    if played.is_empty() {
        bail!("--first-game {} is past the series' {} games", opts.first_game, opts.games);
    }
    let bar = indicatif::ProgressBar::new(played.len() as u64).with_style(
        indicatif::ProgressStyle::with_template("{bar:30} {pos}/{len} games, {msg} [{elapsed}<{eta}]")?,
    );
    let mut tally = Tally::default();
    for g in played {
        let game = play_game(opts, &map, &rules, g)?;
        tally.add(&game);
        bar.set_message(format!(
            "{} {} – {} {}{}",
            short(&opts.engines[0]),
            tally.wins[0],
            tally.wins[1],
            short(&opts.engines[1]),
            if tally.draws > 0 { format!(", {} drawn", tally.draws) } else { String::new() }
        ));
        bar.inc(1);
    }
    bar.finish_and_clear();
    Ok(tally.summary(opts.engines.clone()))
}

/// One game of a match as the controller saw it. Per-engine arrays are indexed as
/// `ClassicMatch::engines`.
#[derive(Default)]
struct Played {
    /// By colour (`Player(0)` is Black); `None`: a draw.
    winner: Option<Player>,
    /// The engines playing Black and White.
    order: [usize; 2],
    think: [f64; 2],
    moves: [u32; 2],
    overruns: [u32; 2],
    lost_on_time: Option<usize>,
}

/// The match so far, engine by engine.
#[derive(Default)]
struct Tally {
    wins: [u32; 2],
    wins_as_black: [u32; 2],
    draws: u32,
    time_losses: [u32; 2],
    think: [f64; 2],
    moves: [u32; 2],
    overruns: [u32; 2],
}

impl Tally {
    fn add(&mut self, game: &Played) {
        match game.winner {
            Some(w) => {
                let engine = game.order[w.index()];
                self.wins[engine] += 1;
                if w == Player(0) {
                    self.wins_as_black[engine] += 1;
                }
            }
            None => self.draws += 1,
        }
        if let Some(engine) = game.lost_on_time {
            self.time_losses[engine] += 1;
        }
        for i in 0..2 {
            self.think[i] += game.think[i];
            self.moves[i] += game.moves[i];
            self.overruns[i] += game.overruns[i];
        }
    }

    fn summary(self, engines: [String; 2]) -> Summary {
        let mut summary = summarize(engines, self.wins, self.wins_as_black, self.draws);
        summary.time_losses = self.time_losses;
        summary.overruns = self.overruns;
        summary.seconds_per_move = [0, 1].map(|i| self.think[i] / f64::from(self.moves[i].max(1)));
        summary
    }
}

/// Game `g` (from 0) of the series: engine `a` plays Black in even games, each engine seeded by
/// the game's number; refereed, and written as SGF when asked.
fn play_game(opts: &ClassicMatch, map: &Arc<Map>, rules: &ClassicRules, g: u32) -> Result<Played> {
    let order = if g.is_multiple_of(2) { [0, 1] } else { [1, 0] };
    let mut engines = [
        Engine::spawn(&opts.engines[order[0]], opts.seed + 2 * u64::from(g))?,
        Engine::spawn(&opts.engines[order[1]], opts.seed + 2 * u64::from(g) + 1)?,
    ];
    for e in &mut engines {
        e.cmd(&format!("boardsize {}", opts.size))?;
        e.cmd("clear_board")?;
        e.cmd(&format!("komi {}", opts.komi))?;
        send_time_settings(e, opts.main_time, opts.seconds)?;
    }
    let mut game = ClassicGame::new(map.clone(), 2, rules.clone())?;
    let mut played = Played { order, ..Played::default() };
    let mut result = play_moves(opts, &mut engines, &mut game, &mut played, g)?;
    if played.winner.is_none() && result.is_none() {
        played.winner =
            game.outcome().filter(|o| o.reason == EndReason::Resignation).and_then(|o| o.winner());
    }
    if played.winner.is_none() && result.is_none() {
        let (w, re) = referee(&game);
        played.winner = w;
        result = Some(re);
    }
    if let Some(d) = &opts.sgf_dir {
        let names = order.map(|i| PlayerInfo { name: opts.engines[i].clone() }).to_vec();
        let text = sgf::export_with_result(&game, &names, None, result.as_deref())?;
        std::fs::write(d.join(format!("game-{:03}.sgf", g + 1)), text)?;
    }
    Ok(played)
}

/// Asks the engines for moves until the game ends or reaches its move cap. Returns the SGF
/// result of a game lost on time or by an illegal move (the winner set in `played`), or `None`.
fn play_moves(
    opts: &ClassicMatch,
    engines: &mut [Engine; 2],
    game: &mut ClassicGame,
    played: &mut Played,
    g: u32,
) -> Result<Option<String>> {
    let mut clocks = [Clock { main: opts.main_time, byo: opts.seconds }; 2];
    let max_moves = 3 * game.map().len();
    while !game.is_over() && game.moves().len() < max_moves {
        let p = game.next_player();
        let (color, winner_letter) = if p == Player(0) { ("b", "W") } else { ("w", "B") };
        let (left, stones) = clocks[p.index()].time_left();
        send_time_left(&mut engines[p.index()], color, left, stones)?;
        let asked = std::time::Instant::now();
        let answer = engines[p.index()].cmd(&format!("genmove {color}"))?.to_ascii_lowercase();
        let elapsed = asked.elapsed().as_secs_f64();
        let engine = played.order[p.index()];
        if !clocks[p.index()].spend(elapsed) && opts.enforce[engine] {
            let name = &engines[p.index()].name;
            eprintln!("game {}: {name} lost on time ({elapsed:.3} s with {left:.3} s left)", g + 1);
            played.winner = Some(Player(1 - p.0));
            played.lost_on_time = Some(engine);
            return Ok(Some(format!("{winner_letter}+T")));
        }
        if elapsed > clocks[p.index()].byo && clocks[p.index()].main == 0.0 {
            played.overruns[engine] += 1;
        }
        played.think[engine] += elapsed;
        played.moves[engine] += 1;
        let action = match answer.as_str() {
            "resign" => Action::Resign,
            "pass" => Action::Pass,
            v => match game.map().node_by_label(v) {
                Some(n) => Action::Place(n),
                None => bail!("{} answered genmove with {v:?}", engines[p.index()].name),
            },
        };
        if let Err(e) = game.play(action) {
            // An illegal move loses the game.
            eprintln!("game {}: {} played an illegal move {answer}: {e}", g + 1, engines[p.index()].name);
            played.winner = Some(Player(1 - p.0));
            return Ok(Some(format!("{winner_letter}+F")));
        }
        if action == Action::Resign {
            break;
        }
        engines[1 - p.index()].cmd(&format!("play {color} {answer}"))?;
    }
    Ok(None)
}

fn short(s: &str) -> String {
    s.chars().take(24).collect()
}

/// Area score with the stones our playouts consider dead removed: the winner (none for a draw)
/// and the SGF result ("0" for a draw, as SGF writes it).
fn referee(game: &ClassicGame) -> (Option<Player>, String) {
    let mut searcher = Searcher::new(SearchConfig { playouts: 4000, ..SearchConfig::default() });
    let mut g = game.clone();
    if g.is_over() {
        // Re-open for analysis: the same position with the game still going.
        let rules = ClassicRules { passes_to_end: Some(u32::MAX), ..game.rules().clone() };
        if let Ok(mut fresh) = ClassicGame::new(game.map().clone(), 2, rules) {
            for &(p, a) in game.moves() {
                let _ = fresh.play_as(p, a);
            }
            g = fresh;
        }
    }
    let dead = searcher.search(&g).dead_stones(game.board());
    let s = game.scores_with_dead(&dead);
    let winner = match s[0].partial_cmp(&s[1]) {
        Some(std::cmp::Ordering::Greater) => Some(Player(0)),
        Some(std::cmp::Ordering::Less) => Some(Player(1)),
        _ => None,
    };
    (winner, sgf::score_result(s[0] - s[1]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_draw_counts_half_for_each_engine() {
        let s = summarize(["a".into(), "b".into()], [3, 1], [2, 1], 2);
        assert_eq!(s.games, 6);
        assert!((s.win_rate - 4.0 / 6.0).abs() < 1e-12, "{}", s.win_rate);
        assert!(s.interval[0] < s.win_rate && s.win_rate < s.interval[1]);
        let even = summarize(["a".into(), "b".into()], [0, 0], [0, 0], 4);
        assert!((even.win_rate - 0.5).abs() < 1e-12 && even.elo.abs() < 1e-9);
    }

    #[test]
    fn the_controller_clock_moves_to_byo_yomi_and_flags_an_overrun() {
        let mut c = Clock { main: 2.0, byo: 1.0 };
        assert_eq!(c.time_left(), (2.0, 0));
        assert!(c.spend(1.5));
        // Half a second of main time left, then the period: 1.4 s fits, 1.6 s would not.
        assert!(c.spend(1.4));
        assert_eq!(c.time_left(), (1.0, 1));
        assert!(c.spend(0.99));
        assert!(!c.spend(1.01));
    }

    #[test]
    fn the_referee_calls_an_equal_score_a_draw() -> Result<()> {
        // An empty 3×3 board where both pass: 0 points each, plus komi for White.
        let passed = |komi: f64| -> Result<ClassicGame> {
            let rules = ClassicRules { komi, ..ClassicRules::preset("chinese").unwrap_or_default() };
            let mut game = ClassicGame::new(Arc::new(generate("square:3")?), 2, rules)?;
            game.play(Action::Pass)?;
            game.play(Action::Pass)?;
            Ok(game)
        };
        assert_eq!(referee(&passed(0.0)?), (None, "0".to_string()));
        assert_eq!(referee(&passed(2.0)?), (Some(Player(1)), "W+2".to_string()));
        Ok(())
    }
}
