//! Handicap in classic Go: the game a `handicap` setting starts (fixed stones, or Black placing
//! them freely), where a computer puts a free stone, and moves numbered without them.

use std::sync::Arc;

use gobeyond_maps::{Map, NodeId};

use super::{Action, ClassicGame, ClassicRules, HandicapPlacement};
use crate::{
    Game, Player,
    setup::{SetupError, fixed_handicap},
};

impl ClassicGame {
    /// A game as its settings start it: with `rules.handicap` stones on the standard points
    /// (White first), or Black placing them freely first; `setup` stones, when given, are the
    /// handicap already placed (a record's start) and are used as they are.
    pub fn with_handicap(
        map: Arc<Map>,
        players: usize,
        rules: ClassicRules,
        setup: &[(NodeId, Player)],
        first: Option<Player>,
    ) -> Result<ClassicGame, SetupError> {
        let stones = rules.handicap as usize;
        if stones == 0 || !setup.is_empty() {
            let first = first.unwrap_or(Player(0));
            return Self::with_setup(map, players, rules, setup, first);
        }
        match rules.handicap_placement {
            HandicapPlacement::Fixed => {
                let points: Vec<_> =
                    fixed_handicap(&map, stones)?.into_iter().map(|n| (n, Player(0))).collect();
                Self::with_setup(map, players, rules, &points, Player(1))
            }
            HandicapPlacement::Free => {
                if stones >= map.len() {
                    return Err(SetupError::Handicap(format!(
                        "{stones} handicap stones do not fit on a board of {} points",
                        map.len()
                    )));
                }
                let mut game = Self::with_setup(map, players, rules, &[], Player(0))?;
                game.handicap_left = stones as u32;
                Ok(game)
            }
        }
    }

    /// Free handicap: stones Black still places before White's first move.
    pub fn handicap_left(&self) -> u32 {
        self.handicap_left
    }

    /// Moves as Go players number them: placements and passes, not the free handicap stones
    /// (nor resignations).
    pub fn move_number(&self) -> usize {
        let free = self.setup().is_empty() && self.rules().handicap_placement == HandicapPlacement::Free;
        let handicap = if free { self.rules().handicap as usize } else { 0 };
        let played = self.moves().iter().filter(|(_, a)| *a != Action::Resign).count();
        played.saturating_sub(handicap)
    }

    /// Free handicap: where a computer puts the next stone: the first free standard point when
    /// the board has them, else the first empty point at least two steps from every stone.
    pub fn next_handicap_stone(&self) -> Option<NodeId> {
        let board = self.board();
        let empty = |n: &NodeId| board.stone_at(*n).is_none();
        let total = self.rules().handicap as usize;
        let standard = fixed_handicap(self.map(), total.max(2)).unwrap_or_default();
        if let Some(n) = standard.into_iter().find(empty) {
            return Some(n);
        }
        let map = self.map();
        let apart = |n: &NodeId| map.neighbors(*n).iter().all(|m| board.stone_at(*m).is_none());
        map.nodes().filter(empty).find(apart).or_else(|| map.nodes().find(empty))
    }
}
