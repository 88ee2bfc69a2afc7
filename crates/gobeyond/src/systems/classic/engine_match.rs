//! `gobeyond match --engine A --engine B`: two-player classic Go between GTP engines
//! (`self:level=10` or `self:playouts=N` runs this program's own engine; anything else is a
//! command line, e.g. `gnugo --mode gtp --level 10 --seed {seed}`), alternating colours, refereed by our rules
//! engine, scored by area with dead stones from our ownership estimate, one SGF per game, with
//! results and Elo. GTP speaks classic Go, so this lives with the classic system.
//!
//! The controller keeps a real clock, as GoGui's twogtp or a server does: it sends
//! `time_settings` and, before every `genmove`, `time_left`; it times each answer, and a move
//! that overruns the time left loses the game on time.

use std::{
    io::{BufRead, BufReader, Write},
    path::PathBuf,
    process::{Child, ChildStdin, ChildStdout, Command, Stdio},
    sync::Arc,
};

use anyhow::{Context, Result, bail};
use gobeyond_bots::{SearchConfig, Searcher};
use gobeyond_maps::generate;
use gobeyond_rules::{
    ClassicGame, ClassicRules, EndReason, Game, Player, classic::Action, record::PlayerInfo, sgf,
};
use serde::Serialize;

/// A GTP engine in a child process.
struct Engine {
    name: String,
    child: Child,
    input: ChildStdin,
    output: BufReader<ChildStdout>,
    /// Takes only whole seconds in `time_left`.
    whole_seconds: bool,
}

impl Engine {
    fn spawn(spec: &str, seed: u64) -> Result<Engine> {
        let (program, args): (String, Vec<String>) = match spec.strip_prefix("self") {
            Some(rest) => {
                let mut args = vec!["gtp".to_string()];
                for opt in rest.trim_start_matches(':').split(',').filter(|s| !s.is_empty()) {
                    let (k, v) = opt.split_once('=').context("self:NAME=VALUE,...")?;
                    args.push(format!("--{k}"));
                    args.push(v.to_string());
                }
                if !rest.contains("seed=") {
                    args.extend(["--seed".to_string(), seed.to_string()]);
                }
                (std::env::current_exe()?.to_string_lossy().into_owned(), args)
            }
            None => {
                // `{seed}` in a command line is the game's seed (e.g. GNU Go's `--seed {seed}`,
                // which otherwise plays the same game every time).
                let spec = spec.replace("{seed}", &seed.to_string());
                let mut words = spec.split_whitespace().map(String::from);
                let program = words.next().context("empty engine command")?;
                (program, words.collect())
            }
        };
        let mut child = Command::new(&program)
            .args(&args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .with_context(|| format!("cannot start {program}"))?;
        let input = child.stdin.take().context("no stdin")?;
        let output = BufReader::new(child.stdout.take().context("no stdout")?);
        Ok(Engine { name: spec.to_string(), child, input, output, whole_seconds: false })
    }

    fn cmd(&mut self, command: &str) -> Result<String> {
        writeln!(self.input, "{command}")?;
        self.input.flush()?;
        let mut text = String::new();
        loop {
            let mut line = String::new();
            if self.output.read_line(&mut line)? == 0 {
                bail!("{} closed its output after {command:?}", self.name);
            }
            if line.trim().is_empty() {
                if text.is_empty() {
                    continue;
                }
                break;
            }
            text.push_str(&line);
        }
        let text = text.trim();
        match text.strip_prefix('=') {
            Some(rest) => Ok(rest.trim_start_matches(|c: char| c.is_ascii_digit()).trim().to_string()),
            None => bail!("{}: {command:?} failed: {text}", self.name),
        }
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = writeln!(self.input, "quit");
        let _ = self.input.flush();
        let _ = self.child.wait();
    }
}

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

/// A player's clock as the controller keeps it: main time, then a byo-yomi period per move.
#[derive(Debug, Clone, Copy)]
struct Clock {
    main: f64,
    byo: f64,
}

impl Clock {
    /// What GTP's `time_left` says: seconds and stones left (0 stones: main time).
    fn time_left(&self) -> (f64, u32) {
        if self.main > 0.0 { (self.main, 0) } else { (self.byo, 1) }
    }

    /// Books a move of `elapsed` seconds; false when it overran the time left.
    fn spend(&mut self, elapsed: f64) -> bool {
        if self.main >= elapsed {
            self.main -= elapsed;
            return true;
        }
        let over = elapsed - self.main;
        self.main = 0.0;
        over <= self.byo
    }
}

/// GTP wants whole seconds in `time_settings`; a fractional clock is sent as it is (our engine
/// takes it) and, to an engine that refuses it, rounded up.
fn send_time_settings(e: &mut Engine, main: f64, byo: f64) -> Result<()> {
    if e.cmd(&format!("time_settings {main} {byo} 1")).is_err() {
        e.cmd(&format!("time_settings {} {} 1", main.ceil(), byo.ceil()))?;
    }
    Ok(())
}

/// `time_left` to the millisecond, or in whole seconds (rounded down: never more than is left)
/// to an engine that wants integers, as GNU Go does.
fn send_time_left(e: &mut Engine, color: &str, left: f64, stones: u32) -> Result<()> {
    if !e.whole_seconds && e.cmd(&format!("time_left {color} {left:.3} {stones}")).is_ok() {
        return Ok(());
    }
    e.whole_seconds = true;
    e.cmd(&format!("time_left {color} {} {stones}", left.floor()))?;
    Ok(())
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
    let mut wins = [0u32; 2];
    let mut wins_as_black = [0u32; 2];
    let mut draws = 0;
    let mut time_losses = [0u32; 2];
    let mut think = [0f64; 2];
    let mut moves_made = [0u32; 2];
    let mut overruns = [0u32; 2];
    for g in played {
        // Engine `a` plays Black in even games.
        let a_black = g % 2 == 0;
        let order = if a_black { [0, 1] } else { [1, 0] };
        let mut engines = [
            Engine::spawn(&opts.engines[order[0]], opts.seed + 2 * g as u64)?,
            Engine::spawn(&opts.engines[order[1]], opts.seed + 2 * g as u64 + 1)?,
        ];
        for e in &mut engines {
            e.cmd(&format!("boardsize {}", opts.size))?;
            e.cmd("clear_board")?;
            e.cmd(&format!("komi {}", opts.komi))?;
            send_time_settings(e, opts.main_time, opts.seconds)?;
        }
        let mut clocks = [Clock { main: opts.main_time, byo: opts.seconds }; 2];
        let mut game = ClassicGame::new(map.clone(), 2, rules.clone())?;
        let mut winner: Option<Player> = None;
        let mut result: Option<String> = None;
        let max_moves = 3 * map.len();
        while !game.is_over() && game.moves().len() < max_moves {
            let p = game.next_player();
            let color = if p == Player(0) { "b" } else { "w" };
            let (left, stones) = clocks[p.index()].time_left();
            send_time_left(&mut engines[p.index()], color, left, stones)?;
            let asked = std::time::Instant::now();
            let answer = engines[p.index()].cmd(&format!("genmove {color}"))?.to_ascii_lowercase();
            let elapsed = asked.elapsed().as_secs_f64();
            let engine = order[p.index()];
            if !clocks[p.index()].spend(elapsed) && opts.enforce[engine] {
                eprintln!(
                    "game {}: {} lost on time ({elapsed:.3} s with {left:.3} s left)",
                    g + 1,
                    engines[p.index()].name
                );
                winner = Some(Player(1 - p.0));
                result = Some(format!("{}+T", if p == Player(0) { "W" } else { "B" }));
                time_losses[order[p.index()]] += 1;
                break;
            }
            if elapsed > clocks[p.index()].byo && clocks[p.index()].main == 0.0 {
                overruns[engine] += 1;
            }
            think[engine] += elapsed;
            moves_made[engine] += 1;
            let action = match answer.as_str() {
                "resign" => Action::Resign,
                "pass" => Action::Pass,
                v => match map.node_by_label(v) {
                    Some(n) => Action::Place(n),
                    None => bail!("{} answered genmove with {v:?}", engines[p.index()].name),
                },
            };
            if let Err(e) = game.play(action) {
                // An illegal move loses the game.
                eprintln!("game {}: {} played an illegal move {answer}: {e}", g + 1, engines[p.index()].name);
                winner = Some(Player(1 - p.0));
                result = Some(format!("{}+F", if p == Player(0) { "W" } else { "B" }));
                break;
            }
            if action == Action::Resign {
                break;
            }
            let other = 1 - p.index();
            engines[other].cmd(&format!("play {color} {answer}"))?;
        }
        let winner = winner
            .or_else(|| {
                game.outcome().filter(|o| o.reason == EndReason::Resignation).and_then(|o| o.winner())
            })
            .or_else(|| {
                let (w, re) = referee(&game);
                result = Some(re);
                w
            });
        if let Some(d) = &opts.sgf_dir {
            let names = vec![
                PlayerInfo { name: opts.engines[order[0]].clone() },
                PlayerInfo { name: opts.engines[order[1]].clone() },
            ];
            let text = sgf::export_with_result(&game, &names, None, result.as_deref())?;
            std::fs::write(d.join(format!("game-{:03}.sgf", g + 1)), text)?;
        }
        match winner {
            Some(w) => {
                let engine = order[w.index()];
                wins[engine] += 1;
                if w == Player(0) {
                    wins_as_black[engine] += 1;
                }
            }
            None => draws += 1,
        }
        bar.set_message(format!(
            "{} {} – {} {}{}",
            short(&opts.engines[0]),
            wins[0],
            wins[1],
            short(&opts.engines[1]),
            if draws > 0 { format!(", {draws} drawn") } else { String::new() }
        ));
        bar.inc(1);
    }
    bar.finish_and_clear();
    let mut summary = summarize(opts.engines.clone(), wins, wins_as_black, draws);
    summary.time_losses = time_losses;
    summary.overruns = overruns;
    summary.seconds_per_move = [0, 1].map(|i| think[i] / f64::from(moves_made[i].max(1)));
    Ok(summary)
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
