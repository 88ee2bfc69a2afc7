//! Strength levels a user can pick, 1 (random play) to 10 (full strength), and a bot that plays
//! at a level.

use std::{sync::Arc, time::Duration};

use gobeyond_rules::{Rng, playout::PlayoutTables};

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

    /// The search of this level: level 1 plays at random; from level 2 up the playouts double at
    /// each level (100 at level 2, 25,600 at level 10); light playouts up to level 4, heavy above
    /// (the Go-board systems' policy; BeSiege's tactical prior goes with it).
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
}

impl<G: Searchable> Bot<G> {
    /// A bot; `time` caps each move's search when given.
    pub fn new(strategy: Strategy, seed: u64, threads: usize, time: Option<Duration>) -> Bot<G> {
        let searcher = match strategy {
            Strategy::Search(level) | Strategy::Plain(level) => level.config(seed, threads).map(|mut c| {
                c.time = time;
                c.patterns = matches!(strategy, Strategy::Search(_));
                Searcher::new(c)
            }),
            _ => None,
        };
        Bot { strategy, searcher, rng: Rng::new(seed), tables: None, seed, time }
    }

    /// A bot with an explicit search configuration.
    pub fn with_config(config: SearchConfig) -> Bot<G> {
        let (seed, time) = (config.seed, config.time);
        Bot {
            strategy: Strategy::Search(Level::MAX),
            searcher: Some(Searcher::new(config)),
            rng: Rng::new(seed),
            tables: None,
            seed,
            time,
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
            let a = s.search(game);
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
