//! Computer seats in any rule system: what a bot sends, in the system's own wire form. Each
//! system says how its bot decides (search for moves, its own logic for decisions such as
//! GoBeyond's Clean-Up); [`computer_input`] reaches them through the registry.

use std::time::Duration;

use gobeyond_rules::{
    AnyGame, ClassicGame, Game, GoBeyondGame, Player, RuleSystem, classic,
    gobeyond::{self, Phase},
    registry::{Object, to_object},
};

use crate::{
    SearchConfig,
    level::{Bot, Level, Strategy},
    searchable::Searchable,
};

/// A rule system that computer seats can play.
pub trait Computer: RuleSystem + Searchable {
    /// The input of `seat` now, at `level`, searching at most `time`.
    fn computer_input(
        &self,
        seat: Player,
        level: Level,
        seed: u64,
        time: Option<Duration>,
    ) -> Option<Self::Move>;
}

/// The search's choice for the player to move.
fn search<G: Searchable>(game: &G, level: Level, seed: u64, time: Option<Duration>) -> Option<G::Action> {
    Bot::<G>::new(Strategy::Search(level), seed, 1, time).choose(game).0
}

impl Computer for ClassicGame {
    /// The dead-stone phase: the first marking proposes the stones the search's ownership says
    /// are dead; later, accept a marking that agrees with that estimate, or mark the estimate
    /// again. Otherwise the search's move.
    fn computer_input(
        &self,
        _: Player,
        level: Level,
        seed: u64,
        time: Option<Duration>,
    ) -> Option<classic::Move> {
        if let Some(phase) = self.scoring() {
            let config = SearchConfig { playouts: 3000, seed, time, ..SearchConfig::default() };
            let estimate = crate::cleanup::dead_classic_stones(self, config);
            return Some(if !phase.marked {
                classic::Move::dead(self.map(), &estimate, true)
            } else if phase.dead == estimate {
                classic::Move::Accept
            } else {
                classic::Move::dead(self.map(), &estimate, false)
            });
        }
        search(self, level, seed, time).map(|a| classic::Move::of(self.map(), a))
    }
}

impl Computer for GoBeyondGame {
    /// Clean-Up: the stones the playouts say are lost; otherwise the search's action.
    fn computer_input(
        &self,
        seat: Player,
        level: Level,
        seed: u64,
        time: Option<Duration>,
    ) -> Option<gobeyond::Move> {
        if self.phase() == Phase::CleanUp {
            let config = SearchConfig { playouts: 2000, seed, time, ..SearchConfig::default() };
            let doomed = crate::cleanup::doomed_stones(self, seat, config);
            return Some(gobeyond::Move::surrender(self.map(), &doomed));
        }
        let action = match search(self, level, seed, time)? {
            gobeyond::Action::Timeout => gobeyond::Action::Skip,
            a => a,
        };
        Some(gobeyond::Move::action(self.map(), action))
    }
}

/// A computer seat's input in any rule system, as a wire object.
pub fn computer_input(
    game: &AnyGame,
    seat: Player,
    level: Level,
    seed: u64,
    time: Option<Duration>,
) -> Option<Object> {
    fn wire<G: Computer>(
        g: &G,
        seat: Player,
        level: Level,
        seed: u64,
        time: Option<Duration>,
    ) -> Option<Object> {
        g.computer_input(seat, level, seed, time).map(|m| to_object(&m))
    }
    gobeyond_rules::dispatch!(game, g => wire(g, seat, level, seed, time))
}
