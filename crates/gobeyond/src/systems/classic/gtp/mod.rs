//! `gobeyond gtp`: a GTP version 2 engine for two-player classic Go on square boards up to 25×25.
//!
//! GTP lets a controller play either colour at any time; the engine keeps turn order by putting
//! in a pass for the other colour when the same colour plays twice. Consecutive passes never end
//! the game here: the controller decides when a game is over.
//!
//! `genmove` runs the Monte-Carlo search within the time the controller gives (`time_settings`,
//! `time_left`, `kgs-time_settings`) or the command line's budget, and resigns hopeless games;
//! `final_score` and `final_status_list` come from the search's ownership estimate.
//!
//! With pondering on, the engine goes on searching after its `genmove` answer, on the
//! opponent's time, until the controller's next command arrives; the tree it grows is kept for
//! the opponent's actual move.

use std::{
    io::{BufRead, Write},
    sync::Arc,
    time::Duration,
};

mod clock;
mod ponder;

use gobeyond_bots::{Analysis, SearchConfig, Searcher};
use gobeyond_maps::{Map, NodeId, generate};
use gobeyond_rules::{
    ClassicRules, Game, KoRule, Player, Rng, SuicideRule,
    classic::{Action, ClassicGame},
    playout::{PlayoutTables, is_eye},
    record::PlayerInfo,
    setup::fixed_handicap,
    sgf,
};

use self::clock::{GameClock, TimeSettings};

const COMMANDS: &[&str] = &[
    "protocol_version",
    "name",
    "version",
    "known_command",
    "list_commands",
    "quit",
    "boardsize",
    "clear_board",
    "komi",
    "play",
    "genmove",
    "undo",
    "showboard",
    "final_score",
    "final_status_list",
    "fixed_handicap",
    "place_free_handicap",
    "set_free_handicap",
    "loadsgf",
    "printsgf",
    "is_legal",
    "all_legal",
    "list_stones",
    "captures",
    "countlib",
    "findlib",
    "time_settings",
    "time_left",
    "kgs-time_settings",
];

/// The engine's state between commands.
#[derive(Debug)]
pub struct GtpEngine {
    size: u32,
    rules: ClassicRules,
    map: Arc<Map>,
    tables: Arc<PlayoutTables>,
    setup: Vec<(NodeId, Player)>,
    first: Player,
    moves: Vec<(Player, Action)>,
    game: ClassicGame,
    rng: Rng,
    /// The search; `None` plays random legal moves (level 1).
    searcher: Option<Searcher<ClassicGame>>,
    /// Playouts per move without any time limit (the level's, or the command line's).
    playouts: u32,
    /// Playouts per move when time limits the search: the command line's, or a level's below
    /// the top (a strength limit); `None`: time alone.
    timed_playouts: Option<u32>,
    /// Seconds per move from the command line, used without time settings.
    seconds_per_move: Option<f64>,
    clock: GameClock,
    /// Seeds of the games: the search's seed for game `n` is drawn from `seed ^ n`.
    seed: u64,
    games: u64,
    /// The last analysis and the number of moves it was made at.
    analysis: Option<(usize, Analysis<Action>)>,
    /// Our searches in a row, up to now, that found the game hopeless.
    hopeless_moves: u32,
    /// Search on the opponent's time after a `genmove`.
    ponder: bool,
    /// The colour that is to answer our last `genmove`, while pondering on it makes sense.
    ponder_for: Option<Player>,
    pub quit: bool,
}

/// The engine resigns when its best move's expected reward stays below this...
const RESIGN_BELOW: f32 = 0.06;
/// ...for this many of its moves in a row (as KataGo does): one pessimistic search, a seki or
/// a semeai the playouts misread for a move, does not throw a game away.
const RESIGN_AFTER: u32 = 3;

/// Search settings for `gobeyond gtp`.
#[derive(Debug, Clone)]
pub struct BotOptions {
    /// The search without time limits (its `playouts` per move); `None` plays at random.
    pub search: Option<SearchConfig>,
    /// Playouts per move under a time limit; `None`: as many as the time allows.
    pub timed_playouts: Option<u32>,
    pub seconds_per_move: Option<f64>,
    /// Go on searching on the opponent's time (see `GtpEngine::run_pondering`).
    pub ponder: bool,
}

type Reply = Result<String, String>;

impl GtpEngine {
    /// An engine under Chinese rules with these changes (GTP's usual rules).
    pub fn with_overrides(
        ko: Option<KoRule>,
        suicide: Option<SuicideRule>,
        komi: Option<f64>,
        seed: u64,
        bot: BotOptions,
    ) -> anyhow::Result<GtpEngine> {
        let base = ClassicRules::preset("chinese").unwrap_or_default();
        Self::new(
            ko.unwrap_or(base.ko),
            suicide.unwrap_or(base.suicide),
            komi.unwrap_or(base.komi),
            seed,
            bot,
        )
    }

    pub fn new(
        ko: KoRule,
        suicide: SuicideRule,
        komi: f64,
        seed: u64,
        bot: BotOptions,
    ) -> anyhow::Result<GtpEngine> {
        // The controller scores (final_score, final_status_list): no dead-stone phase here.
        let rules = ClassicRules {
            ko,
            suicide,
            komi,
            passes_to_end: Some(u32::MAX),
            dead_stones: false,
            ..ClassicRules::default()
        };
        let map = Arc::new(generate("square:19")?);
        let game = ClassicGame::new(map.clone(), 2, rules.clone())?;
        Ok(GtpEngine {
            size: 19,
            tables: Arc::new(PlayoutTables::new(&map)),
            map,
            rules,
            setup: Vec::new(),
            first: Player(0),
            moves: Vec::new(),
            game,
            rng: Rng::new(seed),
            playouts: bot.search.as_ref().map_or(0, |c| c.playouts),
            timed_playouts: bot.timed_playouts,
            searcher: bot.search.map(Searcher::new),
            seconds_per_move: bot.seconds_per_move,
            clock: GameClock::default(),
            seed,
            games: 0,
            analysis: None,
            hopeless_moves: 0,
            ponder: bot.ponder,
            ponder_for: None,
            quit: false,
        })
    }

    /// Reads commands until `quit` or end of input.
    pub fn run(&mut self, input: impl BufRead, mut output: impl Write) -> std::io::Result<()> {
        for line in input.lines() {
            if !self.answer(&line?, &mut output)? {
                break;
            }
        }
        Ok(())
    }

    /// Handles one line and writes its reply; false once the engine quits.
    fn answer(&mut self, line: &str, output: &mut impl Write) -> std::io::Result<bool> {
        if let Some(reply) = self.handle(line) {
            output.write_all(reply.as_bytes())?;
            output.flush()?;
        }
        Ok(!self.quit)
    }

    /// Answers one line; `None` for lines with no command (blank or comment).
    pub fn handle(&mut self, raw: &str) -> Option<String> {
        let cleaned: String = raw
            .split('#')
            .next()
            .unwrap_or("")
            .chars()
            .filter(|c| !c.is_control() || *c == '\t')
            .map(|c| if c == '\t' { ' ' } else { c })
            .collect();
        let mut words = cleaned.split_whitespace();
        let first = words.next()?;
        let (id, command) = match first.parse::<u64>() {
            Ok(id) => (Some(id), words.next().unwrap_or("")),
            Err(_) => (None, first),
        };
        let args: Vec<&str> = words.collect();
        self.ponder_for = None;
        let reply = self.dispatch(command, &args);
        let id = id.map(|i| i.to_string()).unwrap_or_default();
        Some(match reply {
            Ok(text) if text.is_empty() => format!("={id}\n\n"),
            Ok(text) => format!("={id} {text}\n\n"),
            Err(msg) => format!("?{id} {msg}\n\n"),
        })
    }

    fn dispatch(&mut self, command: &str, args: &[&str]) -> Reply {
        match command {
            "protocol_version" => Ok("2".into()),
            "name" => Ok("GoBeyond".into()),
            "version" => Ok(env!("CARGO_PKG_VERSION").into()),
            "known_command" => Ok(COMMANDS.contains(&arg(args, 0)?).to_string()),
            "list_commands" => Ok(COMMANDS.join("\n")),
            "quit" => {
                self.quit = true;
                Ok(String::new())
            }
            "boardsize" => {
                let n: u32 = arg(args, 0)?.parse().map_err(|_| "boardsize not an integer".to_string())?;
                if !(2..=25).contains(&n) {
                    return Err("unacceptable size".into());
                }
                self.size = n;
                self.map = Arc::new(generate(&format!("square:{n}")).map_err(|e| e.to_string())?);
                self.tables = Arc::new(PlayoutTables::new(&self.map));
                self.clear();
                Ok(String::new())
            }
            "clear_board" => {
                self.clear();
                Ok(String::new())
            }
            "komi" => {
                let k: f64 = arg(args, 0)?.parse().map_err(|_| "komi not a float".to_string())?;
                if !k.is_finite() {
                    return Err("komi not a float".into());
                }
                self.rules.komi = k;
                self.rebuild()
            }
            "play" => {
                let player = color(arg(args, 0)?)?;
                let action = self.vertex(arg(args, 1)?)?;
                self.play(player, action).map(|_| String::new()).map_err(|e| format!("illegal move: {e}"))
            }
            "genmove" => {
                let player = color(arg(args, 0)?)?;
                let action = self.choose(player);
                if action == Action::Resign {
                    return Ok("resign".into());
                }
                self.play(player, action).map_err(|e| format!("internal error: {e}"))?;
                if self.ponder && self.searcher.is_some() {
                    self.ponder_for = Some(Player(1 - player.0));
                }
                Ok(self.vertex_name(action))
            }
            "undo" => {
                if self.moves.pop().is_none() {
                    return Err("cannot undo".into());
                }
                // Drop the pass we put in for an out-of-turn move together with it.
                self.rebuild()
            }
            "showboard" => Ok(format!("\n{}", crate::textboard::render(self.game.board(), 2, None))),
            "final_score" => {
                let dead = self.dead_stones();
                let s = self.game.scores_with_dead(&dead);
                Ok(sgf::score_result(s[0] - s[1]))
            }
            "final_status_list" => {
                let dead = self.dead_stones();
                let names = |keep: &dyn Fn(NodeId) -> bool| {
                    self.map
                        .nodes()
                        .filter(|&n| self.game.board().stone_at(n).is_some() && keep(n))
                        .map(|n| self.map.label(n).to_string())
                        .collect::<Vec<_>>()
                        .join(" ")
                };
                match arg(args, 0)? {
                    "alive" => Ok(names(&|n| !dead.contains(&n))),
                    "dead" => Ok(names(&|n| dead.contains(&n))),
                    "seki" => Ok(String::new()),
                    _ => Err("invalid status".into()),
                }
            }
            "fixed_handicap" | "place_free_handicap" => {
                let n: usize = arg(args, 0)?.parse().map_err(|_| "handicap not an integer".to_string())?;
                if !self.moves.is_empty() || !self.setup.is_empty() {
                    return Err("board not empty".into());
                }
                let points = match fixed_handicap(&self.map, n) {
                    Ok(p) => p,
                    Err(e) if command == "fixed_handicap" => return Err(format!("invalid handicap: {e}")),
                    Err(_) if n >= 2 && n < self.map.len() => gobeyond_maps::start_points(&self.map, n),
                    Err(e) => return Err(format!("invalid handicap: {e}")),
                };
                self.set_handicap(points.clone())?;
                Ok(points.iter().map(|&p| self.map.label(p).to_string()).collect::<Vec<_>>().join(" "))
            }
            "set_free_handicap" => {
                if !self.moves.is_empty() || !self.setup.is_empty() {
                    return Err("board not empty".into());
                }
                let mut points = Vec::new();
                for a in args {
                    match self.vertex(a)? {
                        Action::Place(n) if !points.contains(&n) => points.push(n),
                        _ => return Err("bad vertex list".into()),
                    }
                }
                if points.len() < 2 {
                    return Err("bad vertex list".into());
                }
                self.set_handicap(points).map(|_| String::new())
            }
            "loadsgf" => {
                let path = arg(args, 0)?;
                let text = std::fs::read_to_string(path).map_err(|e| format!("cannot load file: {e}"))?;
                let record = sgf::import(&text).map_err(|e| format!("cannot load file: {e}"))?;
                let upto = match args.get(1) {
                    Some(n) => n
                        .parse::<usize>()
                        .map_err(|_| "move number not an integer".to_string())?
                        .saturating_sub(1),
                    None => record.actions.len(),
                };
                let mut cut = record.clone();
                cut.actions.truncate(upto);
                let game = cut.replay_as::<ClassicGame>().map_err(|e| format!("cannot load file: {e}"))?;
                let grid = game.map().grid().ok_or("cannot load file: not a square board")?;
                if grid.width != grid.height || grid.width > 25 {
                    return Err("cannot load file: only square boards up to 25×25".into());
                }
                self.size = grid.width;
                self.map = game.map().clone();
                self.tables = Arc::new(PlayoutTables::new(&self.map));
                self.rules.komi = game.rules().komi;
                self.setup = game.setup().to_vec();
                self.first = game.first_player();
                self.moves = game.moves().to_vec();
                self.rebuild()?;
                Ok(if self.game.next_player() == Player(0) { "black" } else { "white" }.into())
            }
            "printsgf" => {
                let text = sgf::export(&self.game, &[PlayerInfo::default(), PlayerInfo::default()], None)
                    .map_err(|e| e.to_string())?;
                match args.first() {
                    Some(path) => {
                        std::fs::write(path, text).map(|_| String::new()).map_err(|e| e.to_string())
                    }
                    None => Ok(text.trim_end().to_string()),
                }
            }
            "is_legal" => {
                let player = color(arg(args, 0)?)?;
                let action = self.vertex(arg(args, 1)?)?;
                Ok(if self.legal_for(player, action) { "1" } else { "0" }.into())
            }
            "all_legal" => {
                let player = color(arg(args, 0)?)?;
                let list: Vec<String> = self
                    .map
                    .nodes()
                    .filter(|&n| self.legal_for(player, Action::Place(n)))
                    .map(|n| self.map.label(n).to_string())
                    .collect();
                Ok(list.join(" "))
            }
            "list_stones" => {
                let player = color(arg(args, 0)?)?;
                Ok(self.stones(Some(player)).join(" "))
            }
            "captures" => Ok(self.game.prisoners(color(arg(args, 0)?)?).to_string()),
            "countlib" | "findlib" => {
                let Action::Place(n) = self.vertex(arg(args, 0)?)? else {
                    return Err("vertex must not be pass".into());
                };
                if self.game.board().stone_at(n).is_none() {
                    return Err("vertex must not be empty".into());
                }
                let libs = self.game.board().liberties(n);
                Ok(if command == "countlib" {
                    libs.len().to_string()
                } else {
                    libs.iter().map(|&l| self.map.label(l).to_string()).collect::<Vec<_>>().join(" ")
                })
            }
            "time_settings" => {
                let (main, byo, stones) = (number(args, 0)?, number(args, 1)?, count(args, 2)?);
                self.clock = GameClock::new(TimeSettings::from_gtp(main, byo, stones));
                Ok(String::new())
            }
            "kgs-time_settings" => {
                let settings = match arg(args, 0)? {
                    "none" => None,
                    "absolute" => TimeSettings::from_gtp(number(args, 1)?, 0.0, 0),
                    // KGS byo-yomi has several periods of one move each; the last one counts.
                    "byoyomi" => TimeSettings::from_gtp(number(args, 1)?, number(args, 2)?, 1),
                    "canadian" => TimeSettings::from_gtp(number(args, 1)?, number(args, 2)?, count(args, 3)?),
                    _ => return Err("unknown time system".into()),
                };
                self.clock = GameClock::new(settings);
                Ok(String::new())
            }
            "time_left" => {
                let player = color(arg(args, 0)?)?;
                self.clock.set_left(player.index(), number(args, 1)?, count(args, 2)?);
                Ok(String::new())
            }
            "" => Err("unknown command".into()),
            _ => Err("unknown command".into()),
        }
    }

    fn clear(&mut self) {
        // Every game its own seed (a controller keeps one engine for a whole series).
        self.games += 1;
        let seed = Rng::new(self.seed ^ self.games.wrapping_mul(0x9e37_79b9_7f4a_7c15)).next_u64();
        if let Some(s) = &mut self.searcher {
            s.reseed(seed);
        }
        self.rng = Rng::new(seed);
        self.hopeless_moves = 0;
        self.setup.clear();
        self.first = Player(0);
        self.moves.clear();
        let _ = self.rebuild();
    }

    fn set_handicap(&mut self, points: Vec<NodeId>) -> Result<(), String> {
        self.setup = points.into_iter().map(|p| (p, Player(0))).collect();
        self.first = Player(1);
        self.rebuild().map(|_| ())
    }

    /// Rebuilds the game from setup and moves (after undo, komi, handicap, load).
    fn rebuild(&mut self) -> Reply {
        self.game = self.replay(self.rules.clone())?;
        Ok(String::new())
    }

    /// Setup and moves under `rules`, with a pass put in wherever a colour moved twice.
    fn replay(&self, rules: ClassicRules) -> Result<ClassicGame, String> {
        let mut game = ClassicGame::with_setup(self.map.clone(), 2, rules, &self.setup, self.first)
            .map_err(|e| e.to_string())?;
        for &(p, a) in &self.moves {
            if game.next_player() != p {
                game.play_as(game.next_player(), Action::Pass).map_err(|e| e.to_string())?;
            }
            game.play_as(p, a).map_err(|e| e.to_string())?;
        }
        Ok(game)
    }

    fn play(&mut self, player: Player, action: Action) -> Result<(), String> {
        let mut g = self.game.clone();
        if g.next_player() != player {
            g.play_as(g.next_player(), Action::Pass).map_err(|e| e.describe(&self.map))?;
        }
        g.play_as(player, action).map_err(|e| e.describe(&self.map))?;
        self.game = g;
        self.moves.push((player, action));
        Ok(())
    }

    fn legal_for(&self, player: Player, action: Action) -> bool {
        if self.game.next_player() == player {
            return self.game.check_as(player, action).is_ok();
        }
        let mut g = self.game.clone();
        g.play_as(g.next_player(), Action::Pass).is_ok() && g.check_as(player, action).is_ok()
    }

    /// The game as the search sees it: `player` to move (a pass put in if needed), and two
    /// passes ending the game so that the search knows when passing wins.
    fn search_game(&self, player: Player) -> Option<ClassicGame> {
        let mut g = match self.replay(ClassicRules { passes_to_end: None, ..self.rules.clone() }) {
            Ok(g) if !g.is_over() => g,
            // Two passes in a row already (at the end, or earlier with play going on after
            // them, which the controller decides): the search's game does not end by passing.
            _ => self.replay(ClassicRules { passes_to_end: Some(u32::MAX), ..self.rules.clone() }).ok()?,
        };
        if g.next_player() != player {
            g.play_as(g.next_player(), Action::Pass).ok()?;
        }
        Some(g)
    }

    /// Time for this move: from the controller's clock (main time spread over about half the
    /// empty points, at least 20 moves), else the command line; the command line's is the most
    /// a move takes when both are given.
    fn move_time(&self, player: Player) -> Option<Duration> {
        let moves_to_go = (self.game.board().empties().len() as f64 / 2.0).max(20.0);
        let clock = self.clock.budget(player.index(), moves_to_go);
        let given = self.seconds_per_move.map(Duration::from_secs_f64);
        match (clock, given) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    /// The search's move (or a random one without search). Resigns when the search sees no
    /// hope after a real search.
    fn choose(&mut self, player: Player) -> Action {
        let start = std::time::Instant::now();
        let action = self.search_or_random(player);
        self.clock.spent(player.index(), start.elapsed().as_secs_f64());
        action
    }

    fn search_or_random(&mut self, player: Player) -> Action {
        let time = self.move_time(player);
        if self.searcher.is_some()
            && let Some(game) = self.search_game(player)
            && let Some(s) = &mut self.searcher
        {
            // Under a time limit the clock governs; a playout cap stays only when asked for.
            s.config.playouts = match time {
                Some(_) => self.timed_playouts.unwrap_or(u32::MAX),
                None => self.playouts,
            };
            s.config.time = time;
            let a = s.search(&game);
            // For the controller's log (GoGui shows it): how much of the tree came from earlier
            // searches and pondering.
            let in_tree: u32 = a.actions.iter().map(|s| s.visits).sum();
            eprintln!(
                "genmove: {} playouts in {:.2} s, {} in the tree (kept from earlier searches and pondering \
                 included), value {:.3}",
                a.playouts,
                a.elapsed.as_secs_f64(),
                in_tree,
                a.value()
            );
            let best = a.best;
            let hopeless = a.playouts >= 500 && a.value() < RESIGN_BELOW && self.moves.len() > 20;
            self.hopeless_moves = if hopeless { self.hopeless_moves + 1 } else { 0 };
            let hopeless = self.hopeless_moves >= RESIGN_AFTER;
            self.analysis = Some((self.moves.len(), a));
            return match best {
                _ if hopeless => Action::Resign,
                Some(action) => action,
                None => Action::Pass,
            };
        }
        let board = self.game.board();
        let mut candidates: Vec<NodeId> = board
            .empties()
            .iter()
            .copied()
            .filter(|&n| {
                !is_eye(board, &self.tables, n, player.stone()) && self.legal_for(player, Action::Place(n))
            })
            .collect();
        candidates.sort_unstable();
        if candidates.is_empty() {
            return Action::Pass;
        }
        Action::Place(candidates[self.rng.below(candidates.len() as u32) as usize])
    }

    /// Stones the playouts say are lost: owned by someone else in most playouts. Searches the
    /// current position when the last analysis is older.
    fn dead_stones(&mut self) -> Vec<NodeId> {
        let fresh = matches!(&self.analysis, Some((at, _)) if *at == self.moves.len());
        if !fresh {
            let to_move = self.game.next_player();
            let mut searcher = Searcher::new(SearchConfig { playouts: 3000, ..SearchConfig::default() });
            let Some(game) = self.search_game(to_move) else { return Vec::new() };
            self.analysis = Some((self.moves.len(), searcher.search(&game)));
        }
        self.analysis.as_ref().map_or_else(Vec::new, |(_, a)| a.dead_stones(self.game.board()))
    }

    fn vertex(&self, v: &str) -> Result<Action, String> {
        if v.eq_ignore_ascii_case("pass") {
            return Ok(Action::Pass);
        }
        self.map.node_by_label(v).map(Action::Place).ok_or_else(|| "invalid coordinate".to_string())
    }

    fn vertex_name(&self, a: Action) -> String {
        match a {
            Action::Place(n) => self.map.label(n).to_string(),
            Action::Pass => "pass".into(),
            Action::Resign => "resign".into(),
        }
    }

    fn stones(&self, player: Option<Player>) -> Vec<String> {
        let b = self.game.board();
        self.map
            .nodes()
            .filter(|&n| match player {
                Some(p) => b.stone_at(n) == Some(p),
                None => b.stone_at(n).is_some(),
            })
            .map(|n| self.map.label(n).to_string())
            .collect()
    }
}

fn number(args: &[&str], i: usize) -> Result<f64, String> {
    arg(args, i)?
        .parse::<f64>()
        .ok()
        .filter(|t| t.is_finite() && *t >= 0.0)
        .ok_or_else(|| "syntax error".into())
}

fn count(args: &[&str], i: usize) -> Result<u32, String> {
    arg(args, i)?.parse::<u32>().map_err(|_| "syntax error: not a count".into())
}

fn arg<'a>(args: &[&'a str], i: usize) -> Result<&'a str, String> {
    args.get(i).copied().ok_or_else(|| "syntax error: missing argument".to_string())
}

fn color(c: &str) -> Result<Player, String> {
    match c.to_ascii_lowercase().as_str() {
        "b" | "black" => Ok(Player(0)),
        "w" | "white" => Ok(Player(1)),
        _ => Err("syntax error: invalid color".into()),
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use std::sync::atomic::{AtomicBool, Ordering};

    use super::*;

    fn engine(level: u8, seed: u64) -> GtpEngine {
        let level = gobeyond_bots::Level::new(level).unwrap();
        let search = level.config(seed, 1);
        let timed_playouts =
            search.as_ref().filter(|_| level < gobeyond_bots::Level::MAX).map(|c| c.playouts);
        let bot = BotOptions { search, timed_playouts, seconds_per_move: None, ponder: false };
        let mut e = GtpEngine::with_overrides(None, None, Some(7.0), seed, bot).unwrap();
        assert_eq!(e.handle("boardsize 9"), Some("=\n\n".into()));
        e
    }

    fn config(e: &GtpEngine) -> &SearchConfig {
        &e.searcher.as_ref().unwrap().config
    }

    /// Without a clock the level's playouts bound the search; under the controller's clock the
    /// time does (level 10), while a lower level keeps its cap as a strength limit.
    #[test]
    fn the_controllers_clock_governs_the_search() {
        let mut e = engine(10, 1);
        e.handle("genmove b");
        assert_eq!((config(&e).playouts, config(&e).time), (25_600, None));
        e.handle("time_settings 0 1 1");
        e.handle("time_left w 0.2 1");
        e.handle("genmove w");
        let c = config(&e);
        assert_eq!(c.playouts, u32::MAX);
        let t = c.time.unwrap().as_secs_f64();
        assert!(t > 0.1 && t < 0.2, "{t} s of a 0.2 s period");

        let mut weak = engine(4, 1);
        weak.handle("time_settings 0 1 1");
        weak.handle("genmove b");
        assert_eq!(config(&weak).playouts, 400);
        assert!(config(&weak).time.is_some());
    }

    /// Pondering follows our own `genmove` only, searches until stopped, and leaves the engine
    /// ready for the opponent's move.
    #[test]
    fn pondering_searches_on_their_time_after_our_move() {
        let mut e = engine(5, 1);
        e.ponder = true;
        assert_eq!(e.ponder_until(&AtomicBool::new(false)), 0, "nothing to ponder before a genmove");
        assert!(e.handle("genmove b").unwrap().starts_with("= "));
        assert_eq!(e.ponder_for, Some(Player(1)));
        let stop = AtomicBool::new(false);
        let playouts = std::thread::scope(|s| {
            s.spawn(|| {
                std::thread::sleep(Duration::from_millis(100));
                stop.store(true, Ordering::SeqCst);
            });
            e.ponder_until(&stop)
        });
        assert!(playouts > 0);
        assert_eq!(e.ponder_for, None);
        assert_eq!(e.handle("play w E5"), Some("=\n\n".into()));
        assert!(e.handle("genmove b").unwrap().starts_with("= "));
        e.handle("showboard");
        assert_eq!(e.ponder_for, None, "only a genmove is pondered on");
    }

    /// Commands that arrive while the engine ponders are answered, in order, and `quit` ends.
    #[test]
    fn a_pondering_engine_answers_every_command() {
        let mut e = engine(5, 2);
        e.ponder = true;
        let (reader, mut writer) = std::io::pipe().unwrap();
        let controller = std::thread::spawn(move || {
            for (command, pause) in [("genmove b", 200), ("play w pass", 0), ("genmove b", 0), ("quit", 0)] {
                writeln!(writer, "{command}").unwrap();
                std::thread::sleep(Duration::from_millis(pause));
            }
        });
        let mut out = Vec::new();
        e.run_pondering(std::io::BufReader::new(reader), &mut out).unwrap();
        controller.join().unwrap();
        let text = String::from_utf8(out).unwrap();
        let replies: Vec<&str> = text.split("\n\n").filter(|r| !r.is_empty()).collect();
        assert_eq!(replies.len(), 4, "{text}");
        assert!(replies.iter().all(|r| r.starts_with('=')), "{text}");
        assert!(e.quit);
    }

    /// White's one group with nine eyes fills the board: Black can only pass. The engine
    /// resigns at its third hopeless move in a row, not before, and a new game counts anew.
    #[test]
    fn a_hopeless_game_is_resigned_on_the_third_move_in_a_row() {
        let mut e = engine(10, 1);
        e.playouts = 600;
        let fill = |e: &mut GtpEngine| {
            for (i, c) in "ABCDEFGHJ".chars().enumerate() {
                for r in 1..=9 {
                    if i % 3 != 1 || r % 3 != 2 {
                        assert_eq!(e.handle(&format!("play w {c}{r}")), Some("=\n\n".into()));
                    }
                }
            }
        };
        fill(&mut e);
        let mut answers = Vec::new();
        for _ in 0..3 {
            answers.push(e.handle("genmove b").unwrap());
            e.handle("play w pass");
        }
        assert_eq!(answers, ["= pass\n\n", "= pass\n\n", "= resign\n\n"]);
        e.handle("clear_board");
        fill(&mut e);
        assert_eq!(e.handle("genmove b").unwrap(), "= pass\n\n");
    }

    /// Every game draws its own seed; the same --seed gives the same series of seeds.
    #[test]
    fn each_game_has_its_own_seed() {
        let seeds = |seed: u64| {
            let mut e = engine(10, seed);
            (0..3)
                .map(|_| {
                    e.handle("clear_board");
                    config(&e).seed
                })
                .collect::<Vec<_>>()
        };
        let a = seeds(5);
        assert!(a[0] != a[1] && a[1] != a[2] && a[0] != a[2], "{a:?}");
        assert_eq!(a, seeds(5));
        assert_ne!(a, seeds(6));
    }

    #[test]
    fn time_commands_are_checked() {
        let mut e = engine(2, 1);
        assert!(e.handle("time_settings 0 1").unwrap().starts_with('?'));
        assert!(e.handle("time_left b -3 0").unwrap().starts_with('?'));
        assert!(e.handle("time_left b 10 x").unwrap().starts_with('?'));
        assert!(e.handle("kgs-time_settings hourglass 5").unwrap().starts_with('?'));
        assert_eq!(e.handle("kgs-time_settings byoyomi 0 1 5"), Some("=\n\n".into()));
    }
}
