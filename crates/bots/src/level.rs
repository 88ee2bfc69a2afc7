//! Strength levels a user can pick, 1 (random play) to 10 (full strength), and a bot that plays
//! at a level.

use std::{sync::Arc, time::Duration};

use gobeyond_rules::{Rng, playout::PlayoutTables};

use crate::{
    baseline,
    mcts::{Analysis, SearchConfig, Searcher},
    policy::Policy,
    searchable::Searchable,
};

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
    /// each level (100 at level 2, 25,600 at level 10); light playouts up to level 4, heavy above.
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

/// A computer player for one rule system.
#[derive(Debug)]
pub struct Bot<G: Searchable> {
    pub strategy: Strategy,
    searcher: Option<Searcher<G>>,
    rng: Rng,
    tables: Option<Arc<PlayoutTables>>,
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
        Bot { strategy, searcher, rng: Rng::new(seed), tables: None }
    }

    /// A bot with an explicit search configuration.
    pub fn with_config(config: SearchConfig) -> Bot<G> {
        let seed = config.seed;
        Bot {
            strategy: Strategy::Search(Level::MAX),
            searcher: Some(Searcher::new(config)),
            rng: Rng::new(seed),
            tables: None,
        }
    }

    pub fn config_mut(&mut self) -> Option<&mut SearchConfig> {
        self.searcher.as_mut().map(|s| &mut s.config)
    }

    /// The action to play, with the search's analysis when there was a search.
    pub fn choose(&mut self, game: &G) -> (Option<G::Action>, Option<Analysis<G::Action>>) {
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
            Strategy::Greedy => baseline::greedy_action(game, &tables, &mut self.rng),
            _ => baseline::random_action(game, &tables, &mut self.rng),
        };
        (a, None)
    }
}
