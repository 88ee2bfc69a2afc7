//! The range on Tribal Go's incremental board: per player and node, how many of the player's
//! sources (stones and start point) lie at each distance up to the game's longest range, a byte
//! per distance in one word, counted from the map's balls (`Map::balls`). A stone placed or
//! taken off adds or takes one from the nodes of its ball; a range check is one load
//! (`docs/bots.md`, "Tribal Go").

use gobeyond_maps::{Balls, NodeId};

use super::{RangeRule, TribalGame};
use crate::Player;

impl TribalGame {
    /// The longest range the board counts: the turn's (the dice's highest, or the fixed range),
    /// if [`Balls`] reach that far. Other ranges (a handicap distance past it) are searched.
    pub(super) fn counted_range(&self) -> Option<u32> {
        let range = match self.rules.range {
            RangeRule::Unlimited => return None,
            RangeRule::Fixed => self.rules.fixed_range,
            RangeRule::Dice => 6,
        };
        (range <= Balls::RADIUS).then_some(range)
    }

    /// The counts of every player's sources up to `radius` (none for `None`, or on a map without
    /// balls: the range is searched then).
    pub(super) fn range_counts_from_scratch(&self, radius: Option<u32>) -> Vec<u64> {
        let n = self.map.len();
        let (Some(radius), Some(balls)) = (radius, self.map.balls()) else { return Vec::new() };
        let mut counts = vec![0; n * self.players];
        for p in 0..self.players {
            let near = &mut counts[p * n..(p + 1) * n];
            let code = p as u8 + 1;
            let sources = self.map.nodes().filter(|&v| self.owner[v as usize] == code);
            for v in sources.chain(self.start_point(Player(p as u8))) {
                count_source(balls, radius, near, v, true);
            }
        }
        counts
    }

    /// Whether `node` is within `range` of `p`'s stones or start point, when the board counts it.
    #[inline]
    pub(super) fn field_within(&self, p: Player, node: NodeId, range: u32) -> Option<bool> {
        let b = &self.board;
        (b.fresh && range <= b.radius && !b.near.is_empty())
            .then(|| b.near[p.index() * self.map.len() + node as usize] & lanes_up_to(range) != 0)
    }

    /// Nodes within `range` of `p`'s sources, when the board counts it.
    pub(super) fn field_reachable(&self, p: Player, range: u32) -> Option<Vec<bool>> {
        let (b, n) = (&self.board, self.map.len());
        (b.fresh && range <= b.radius && !b.near.is_empty()).then(|| {
            let mask = lanes_up_to(range);
            b.near[p.index() * n..(p.index() + 1) * n].iter().map(|&c| c & mask != 0).collect()
        })
    }

    /// `p`'s stone on `v` (`added`) or off it: the counts of the nodes around change.
    pub(super) fn count_stone(&mut self, p: Player, v: NodeId, added: bool) {
        let n = self.map.len();
        if let (false, Some(balls)) = (self.board.near.is_empty(), self.map.balls()) {
            let near = &mut self.board.near[p.index() * n..(p.index() + 1) * n];
            count_source(balls, self.board.radius, near, v, added);
        }
    }
}

/// The lanes of the counts for distances `0..=range` (`range` at most [`Balls::RADIUS`]).
#[inline]
fn lanes_up_to(range: u32) -> u64 {
    if range >= 7 { u64::MAX } else { (1u64 << (8 * (range + 1))) - 1 }
}

/// Counts a source on `v` in (`added`) or out of the counts `near` of the nodes within `radius`.
fn count_source(balls: &Balls, radius: u32, near: &mut [u64], v: NodeId, added: bool) {
    for d in 0..=radius {
        let one = 1u64 << (8 * d);
        for &u in balls.ring(v, d) {
            let c = &mut near[u as usize];
            *c = if added { c.wrapping_add(one) } else { c.wrapping_sub(one) };
        }
    }
}
