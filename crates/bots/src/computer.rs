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
pub(crate) fn search<G: Searchable>(
    game: &G,
    level: Level,
    seed: u64,
    time: Option<Duration>,
) -> Option<G::Action> {
    Bot::<G>::new(Strategy::Search(level), seed, 1, time).choose(game).0
}

impl Computer for ClassicGame {
    /// The dead-stone phase: the first marking proposes the stones the search's ownership says
    /// are dead; later, accept a marking that agrees with that estimate, or mark the estimate
    /// once — after its own marking a bot accepts, so that two bots (whose estimates may differ
    /// from one search to the next) never mark against each other for ever. Otherwise the
    /// search's move.
    fn computer_input(
        &self,
        seat: Player,
        level: Level,
        seed: u64,
        time: Option<Duration>,
    ) -> Option<classic::Move> {
        if let Some(phase) = self.scoring() {
            let config = SearchConfig { playouts: 3000, seed, time, ..SearchConfig::default() };
            let estimate = crate::cleanup::dead_classic_stones(self, config);
            let marked_before = phase.marks.get(seat.index()).is_some_and(|&m| m > 0);
            return Some(if !phase.marked {
                classic::Move::dead(self.map(), &estimate, true)
            } else if phase.dead == estimate || marked_before {
                classic::Move::Accept
            } else {
                classic::Move::dead(self.map(), &estimate, false)
            });
        }
        let (action, analysis) = Bot::<ClassicGame>::new(Strategy::Search(level), seed, 1, time).choose(self);
        let action = match analysis {
            Some(a) if self.rules().scoring == gobeyond_rules::Scoring::Territory => {
                skip_settled_territory(self, &a)
            }
            _ => action?,
        };
        Some(classic::Move::of(self.map(), action))
    }
}

/// Under territory scoring a stone in secure territory — one's own, or the opponent's, where it
/// dies — costs a point and gains nothing, and the search cannot tell (its playouts count
/// area): the bot takes the most visited action that is not such a stone, and passes when none
/// is left. A level-3 bot once filled its own territory for 35 moves before passing.
/// The share of playouts that make a claimed empty node its claimant's: secure territory.
const SECURE: f32 = 0.6;

fn skip_settled_territory(
    game: &ClassicGame,
    analysis: &crate::Analysis<classic::Action>,
) -> classic::Action {
    let regions = gobeyond_rules::regions::ownership(game.board());
    // Nothing is settled while the mover has no stone and most of the map is empty (one stone
    // on an empty 5×5 board "claims" all of it, and a search can find it winning there).
    let empties = game.board().empties().len();
    let open = empties * 2 > game.map().len() && game.board().stone_count(game.next_player()) == 0;
    let secure = |node: gobeyond_maps::NodeId| {
        let claimant = regions.get(node as usize).copied().flatten();
        !open
            && game.board().stone_at(node).is_none()
            && claimant
                .is_some_and(|q| analysis.owner(node).is_some_and(|(p, share)| p == q && share >= SECURE))
    };
    analysis
        .actions
        .iter()
        .map(|a| a.action)
        .find(|a| !matches!(a, classic::Action::Place(n) if secure(*n)))
        .unwrap_or(classic::Action::Pass)
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
