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
};

mod clock;
mod commands;
mod ponder;
mod search;

use gobeyond_bots::{Analysis, SearchConfig, Searcher};
use gobeyond_maps::{Map, NodeId, generate};
use gobeyond_rules::{
    ClassicRules, KoRule, Player, Rng, SuicideRule,
    classic::{Action, ClassicGame},
    playout::PlayoutTables,
};

use self::clock::GameClock;

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

#[cfg(test)]
mod tests;
