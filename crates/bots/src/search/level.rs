//! Strength levels a user can pick, 1 (random play) to 10 (full strength), and a bot that plays
//! at a level.

use std::{
    sync::Arc,
    time::{Duration, Instant},
};

use gobeyond_rules::{Player, Rng, playout::PlayoutTables};

use super::{
    baseline,
    mcts::{Analysis, SearchConfig, Searcher},
    searchable::Searchable,
};
use crate::{computer::Computer, go::Policy};

/// A strength level, 1 to 10.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Level(u8);

impl Level {
    pub const MAX: Level = Level(10);

    pub fn new(level: u8) -> Result<Level, String> {
        if (1..=10).contains(&level) {
            Ok(Level(level))
        } else {
            Err(format!("levels go from 1 to 10, not {level}"))
        }
    }

    pub fn get(self) -> u8 {
        self.0
    }

    /// The search of this level: level 1 plays at random; from level 2 up the playouts per turn
    /// double at each level (100 at level 2, 25,600 at level 10; a turn of several actions
    /// shares them, [`Searchable::turn_step`]); light playouts up to level 4, heavy above (the
    /// Go-board systems' policy; BeSiege's tactical prior goes with it).
    pub fn config(self, seed: u64, threads: usize) -> Option<SearchConfig> {
        (self.0 >= 2).then(|| SearchConfig {
            playouts: 100 << (self.0 - 2),
            policy: if self.0 <= 4 { Policy::Light } else { Policy::Tactics },
            seed,
            threads,
            ..SearchConfig::default()
        })
    }
}

/// Who picks a bot's moves.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Strategy {
    Random,
    Greedy,
    Search(Level),
    /// The search at a level without the learned move patterns (the hand-written priors), to
    /// measure what the patterns bring.
    Plain(Level),
}

impl std::str::FromStr for Strategy {
    type Err = String;
    /// `random`, `greedy`, or a level `1`..`10` (also `level:5`; `plain:10` without the
    /// learned patterns).
    fn from_str(s: &str) -> Result<Strategy, String> {
        match s {
            "random" => Ok(Strategy::Random),
            "greedy" => Ok(Strategy::Greedy),
            other if other.starts_with("plain:") => match other[6..].parse::<Strategy>()? {
                Strategy::Search(level) => Ok(Strategy::Plain(level)),
                _ => Err(format!("{s:?}: plain takes a level 1-10")),
            },
            other => {
                let n = other.strip_prefix("level:").unwrap_or(other);
                let level: u8 =
                    n.parse().map_err(|_| format!("{s:?} is not random, greedy or a level 1-10"))?;
                Ok(Strategy::Search(Level::new(level)?))
            }
        }
    }
}

/// A computer player for one rule system: its strategy, its search (whose tree it keeps from
/// move to move) and its random numbers. What it sends for a seat is the system's
/// [`Computer::decide`].
#[derive(Debug)]
pub struct Bot<G: Searchable> {
    pub strategy: Strategy,
    searcher: Option<Searcher<G>>,
    rng: Rng,
    tables: Option<Arc<PlayoutTables>>,
    seed: u64,
    time: Option<Duration>,
    /// When the turn under way must end ([`Bot::decide`]), and the game's action count at the
    /// bot's last action in it.
    turn: Option<(Instant, usize)>,
    /// When the search of the decision under way must end: set as the decision starts, so what
    /// the system does before searching (BeSiege's capture check) counts too.
    deadline: Option<Instant>,
    /// Playouts searched so far, over every decision.
    playouts: u64,
}

impl<G: Searchable> Bot<G> {
    /// A bot; `time` caps each turn's search when given.
    pub fn new(strategy: Strategy, seed: u64, threads: usize, time: Option<Duration>) -> Bot<G> {
        let searcher = match strategy {
            Strategy::Search(level) | Strategy::Plain(level) => level.config(seed, threads).map(|mut c| {
                c.time = time;
                c.patterns = matches!(strategy, Strategy::Search(_));
                Searcher::new(c)
            }),
            _ => None,
        };
        Bot::assemble(strategy, searcher, seed, time)
    }

    /// A bot with an explicit search configuration.
    pub fn with_config(config: SearchConfig) -> Bot<G> {
        let (seed, time) = (config.seed, config.time);
        Bot::assemble(Strategy::Search(Level::MAX), Some(Searcher::new(config)), seed, time)
    }

    /// A bot at the start of a game: no turn begun, no tables built yet.
    fn assemble(
        strategy: Strategy,
        searcher: Option<Searcher<G>>,
        seed: u64,
        time: Option<Duration>,
    ) -> Bot<G> {
        Bot {
            strategy,
            searcher,
            rng: Rng::new(seed),
            tables: None,
            seed,
            time,
            turn: None,
            deadline: None,
            playouts: 0,
        }
    }

    pub fn config_mut(&mut self) -> Option<&mut SearchConfig> {
        self.searcher.as_mut().map(|s| &mut s.config)
    }

    /// The seed the bot started from, and the time it may take per move (for the searches a
    /// system runs besides the bot's own, such as a dead-stone estimate).
    pub fn seed(&self) -> u64 {
        self.seed
    }

    pub fn time(&self) -> Option<Duration> {
        self.time
    }

    /// Playouts the bot has searched, over all its decisions.
    pub fn playouts(&self) -> u64 {
        self.playouts
    }

    /// Whether the bot decides by searching (a level from 2 up), rather than as a baseline.
    pub fn searches(&self) -> bool {
        self.searcher.is_some()
    }

    /// The bot's random numbers (baselines, decisions a system draws).
    pub fn rng(&mut self) -> &mut Rng {
        &mut self.rng
    }
}

impl<G: Computer> Bot<G> {
    /// What the bot sends for `seat` ([`Computer::decide`]). Its time is per turn: a turn's
    /// first action starts the turn's clock, and each action gets its part of what is left
    /// ([`TurnStep::time_share`]). A bot that did not play the turn's earlier actions (a
    /// server seat is made for each action) takes its time as what the turn has left.
    pub fn decide(&mut self, game: &G, seat: Player) -> Option<G::Move> {
        let now = Instant::now();
        let step = game.turn_step();
        let count = game.action_count();
        let turn_end = match self.turn {
            Some((end, last)) if step.done > 0 && last + 1 == count => Some(end),
            _ => self.searcher.as_ref().and_then(|s| s.config.time).and_then(|t| now.checked_add(t)),
        };
        self.deadline =
            turn_end.map(|end| now + end.saturating_duration_since(now).mul_f32(step.time_share()));
        let input = game.decide(seat, self);
        self.turn = turn_end.map(|end| (end, count));
        self.deadline = None;
        input
    }

    /// The action to play, with the search's analysis when there was a search; the baselines
    /// play the generic random placement ([`baseline::random_action`]).
    pub fn choose(&mut self, game: &G) -> (Option<G::Action>, Option<Analysis<G::Action>>) {
        self.choose_with(game, baseline::random_action)
    }

    /// [`Bot::choose`] with the rule system's own random player, for systems whose turns are
    /// more than placing or passing (Tribal Go's dice and start points).
    pub fn choose_with(
        &mut self,
        game: &G,
        random: impl FnOnce(&G, &PlayoutTables, &mut Rng) -> Option<G::Action>,
    ) -> (Option<G::Action>, Option<Analysis<G::Action>>) {
        if let Some(s) = &mut self.searcher {
            let deadline =
                self.deadline.or_else(|| s.config.time.and_then(|t| Instant::now().checked_add(t)));
            // At least one playout, at most the action's share of the turn's (rounded down, so
            // that a turn's shares never add up to more than the whole).
            let share = game.turn_step().playout_share();
            let playouts = ((s.config.playouts as f32 * share) as u32).max(1);
            let a = s.search_within(game, playouts, deadline);
            self.playouts += a.playouts as u64;
            return (a.best, Some(a));
        }
        let tables = match &self.tables {
            Some(t) if t.len() == game.map().len() => t.clone(),
            _ => {
                let t = Arc::new(PlayoutTables::new(game.map()));
                self.tables = Some(t.clone());
                t
            }
        };
        let a = match self.strategy {
            Strategy::Greedy => baseline::greedy_action(game, &tables, &mut self.rng, random),
            _ => random(game, &tables, &mut self.rng),
        };
        (a, None)
    }
}
