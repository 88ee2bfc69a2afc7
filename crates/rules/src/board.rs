//! The board: stones, groups, liberties and the Zobrist hash on any map, for up to 8 players.
//!
//! This is the hot path of search, so it works on flat arrays of small integers and never
//! allocates after construction. Groups are circular linked lists of stones with a root; each
//! root keeps *pseudo-liberties* (one per stone–empty adjacency, counted with repetition) with
//! their sum and sum of squares, so "the group's only liberty is p" is two multiplications:
//! all `k` pseudo-liberties equal `p` exactly when `Σ = k·p` and `Σ² = k·p²`.
//! Each node also keeps a summary of its neighbours (empty count, sum and sum of squares of
//! their colour codes), so the light-playout questions "has it an empty neighbour?" and "are all
//! its neighbours mine?" need no neighbour walk (`board/stones.rs`).

use std::sync::Arc;

use gobeyond_maps::{Map, NodeId};

use crate::{Player, zobrist};

mod stones;

pub use stones::EMPTY;
use stones::{NONE, Stones, stone_summary, summary_empties};

/// How self-capture is treated.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize, strum::VariantNames,
)]
#[strum(serialize_all = "snake_case")]
#[serde(rename_all = "snake_case")]
pub enum SuicideRule {
    /// A move that captures nothing and leaves its own group without liberties is illegal.
    Forbidden,
    /// Suicide of a group of two or more stones is allowed; of a lone stone it is not.
    MultiStoneOnly,
    /// Every suicide is allowed: the mover's group is removed.
    Allowed,
}

/// Why the board refuses a placement.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PlaceError {
    Occupied,
    /// Retaking a ko immediately.
    Ko,
    Suicide,
}

/// What one placement did.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct PlaceOutcome {
    /// Opponent stones removed (listed in [`Board::last_captured`]).
    pub captured: u32,
    /// The mover's own stones removed by an allowed suicide (also listed there).
    pub self_captured: u32,
}

/// Stones, groups and liberties. Cheap to copy with [`Board::copy_from`] (no allocation).
#[derive(Debug)]
pub struct Board {
    map: Arc<Map>,
    s: Stones,
}

impl Clone for Board {
    /// A copy with full working capacity in every buffer, so that playing on it never allocates.
    fn clone(&self) -> Self {
        Board { map: self.map.clone(), s: self.s.clone_with_capacity() }
    }

    fn clone_from(&mut self, other: &Self) {
        self.copy_from(other);
    }
}

impl PartialEq for Board {
    /// Same stones on the same nodes and the same ko state (groups follow from the stones).
    fn eq(&self, other: &Self) -> bool {
        self.s.color == other.s.color
            && self.s.ko_point == other.s.ko_point
            && self.s.ko_stone == other.s.ko_stone
    }
}

impl Board {
    /// An empty board on `map`.
    pub fn new(map: Arc<Map>) -> Board {
        Board { s: Stones::new(&map), map }
    }

    /// Overwrites `self` with `other` reusing `self`'s buffers: no allocation when both are on
    /// maps of the same size. This is how search copies positions.
    pub fn copy_from(&mut self, other: &Board) {
        if !Arc::ptr_eq(&self.map, &other.map) {
            self.map = other.map.clone();
        }
        self.s.copy_from(&other.s);
    }

    pub fn map(&self) -> &Arc<Map> {
        &self.map
    }

    pub fn len(&self) -> usize {
        self.s.color.len()
    }

    pub fn is_empty(&self) -> bool {
        self.s.color.is_empty()
    }

    /// Colour code at `node`: [`EMPTY`] or `player + 1`.
    #[inline]
    pub fn color(&self, node: NodeId) -> u8 {
        self.s.color[node as usize]
    }

    /// The colour codes of all nodes.
    pub fn colors(&self) -> &[u8] {
        &self.s.color
    }

    /// The owner of the stone at `node`.
    #[inline]
    pub fn stone_at(&self, node: NodeId) -> Option<Player> {
        Player::of_stone(self.s.color[node as usize])
    }

    /// Empty nodes, in no particular order.
    #[inline]
    pub fn empties(&self) -> &[NodeId] {
        &self.s.empties
    }

    /// How many neighbours of `node` are empty (kept up to date, no neighbour walk).
    #[inline]
    pub fn empty_neighbors(&self, node: NodeId) -> u32 {
        summary_empties(self.s.around[node as usize])
    }

    /// True when every neighbour of `node` holds a stone of colour code `stone` (a node without
    /// neighbours counts as surrounded). Kept up to date, no neighbour walk: the eye test's
    /// first half.
    #[inline]
    pub fn surrounded_by(&self, node: NodeId, stone: u8) -> bool {
        self.s.around[node as usize] == self.map.degree(node) as u64 * stone_summary(stone)
    }

    /// Zobrist hash of the stones (not of whose turn it is, nor of the ko state).
    #[inline]
    pub fn hash(&self) -> u64 {
        self.s.hash
    }

    /// Stones of `player` on the board.
    pub fn stone_count(&self, player: Player) -> u32 {
        self.s.stones[player.index()]
    }

    /// Stones removed by the last placement, with their colour codes.
    pub fn last_captured(&self) -> impl Iterator<Item = (NodeId, u8)> + '_ {
        self.s.captured.iter().copied().zip(self.s.captured_stone.iter().copied())
    }

    /// The simple-ko point: the node the given colour may not play on this move.
    pub fn ko(&self) -> Option<(NodeId, u8)> {
        (self.s.ko_point != NONE).then_some((self.s.ko_point, self.s.ko_stone))
    }

    /// The root stone of the group at `node` (a stable id for the group while it lives).
    #[inline]
    pub fn group_id(&self, node: NodeId) -> Option<NodeId> {
        (self.s.color[node as usize] != EMPTY).then(|| self.s.group[node as usize])
    }

    /// The stones of the group at `node` (empty if `node` is empty).
    pub fn group_stones(&self, node: NodeId) -> GroupStones<'_> {
        let start = if self.s.color[node as usize] == EMPTY { NONE } else { node };
        GroupStones { next: &self.s.next, start, at: start }
    }

    pub fn group_size(&self, node: NodeId) -> u32 {
        self.group_id(node).map_or(0, |r| self.s.info[r as usize].size)
    }

    /// The distinct liberties of the group at `node`, sorted. Not for the hot path.
    pub fn liberties(&self, node: NodeId) -> Vec<NodeId> {
        let mut libs: Vec<NodeId> = self
            .group_stones(node)
            .flat_map(|s| self.map.neighbors(s).iter().copied())
            .filter(|&q| self.s.color[q as usize] == EMPTY)
            .collect();
        libs.sort_unstable();
        libs.dedup();
        libs
    }

    /// True when the group at `node` has exactly one liberty.
    #[inline]
    pub fn in_atari(&self, node: NodeId) -> bool {
        self.group_id(node).is_some_and(|r| self.s.info[r as usize].single_liberty().is_some())
    }

    /// True when the stone at `node` belongs to a group whose only liberty is `liberty` (which
    /// must be a liberty of it). Cheaper than [`Board::atari_liberty`].
    #[inline]
    pub fn only_liberty_is(&self, node: NodeId, liberty: NodeId) -> bool {
        self.group_id(node).is_some_and(|r| self.s.info[r as usize].only_liberty_is(liberty))
    }

    /// The single liberty of the group at `node`, if it has exactly one.
    pub fn atari_liberty(&self, node: NodeId) -> Option<NodeId> {
        self.group_id(node).and_then(|r| self.s.info[r as usize].single_liberty())
    }

    /// Whether `player` may place on `node` under the board-level rules (occupied, simple ko,
    /// suicide). Superko needs the game's history and is checked by the game.
    #[inline]
    pub fn check(&self, node: NodeId, player: Player, suicide: SuicideRule) -> Result<(), PlaceError> {
        self.check_with(node, player, suicide, true)
    }

    /// [`Board::check`], optionally ignoring the simple-ko point (for games without a ko rule).
    #[inline]
    pub fn check_with(
        &self,
        node: NodeId,
        player: Player,
        suicide: SuicideRule,
        simple_ko: bool,
    ) -> Result<(), PlaceError> {
        let p = node as usize;
        let s = player.stone();
        if self.s.color[p] != EMPTY {
            return Err(PlaceError::Occupied);
        }
        if simple_ko && node == self.s.ko_point && s == self.s.ko_stone {
            return Err(PlaceError::Ko);
        }
        // Most candidate points in a game have an empty neighbour: legal without looking further.
        if summary_empties(self.s.around[p]) > 0 {
            return Ok(());
        }
        let mut own = false;
        for &q in self.map.neighbors(node) {
            let c = self.s.color[q as usize];
            if c == EMPTY {
                return Ok(());
            }
            let g = &self.s.info[self.s.group[q as usize] as usize];
            if c == s {
                own = true;
                if !g.only_liberty_is(node) {
                    return Ok(());
                }
            } else if g.only_liberty_is(node) {
                return Ok(()); // captures
            }
        }
        match suicide {
            SuicideRule::Allowed => Ok(()),
            SuicideRule::MultiStoneOnly if own => Ok(()),
            _ => Err(PlaceError::Suicide),
        }
    }

    /// [`Board::check`] with suicide forbidden, for an empty `node` without an empty neighbour
    /// (the light playout's question on a surrounded point). Every neighbour is a stone, so the
    /// move is legal exactly when some neighbour is an own group with another liberty or an
    /// opponent group whose last liberty this is: one test a neighbour, no branch.
    #[inline]
    pub fn surrounded_legal(&self, node: NodeId, player: Player) -> bool {
        debug_assert!(self.s.color[node as usize] == EMPTY && self.empty_neighbors(node) == 0);
        let s = player.stone();
        if node == self.s.ko_point && s == self.s.ko_stone {
            return false;
        }
        let mut legal = false;
        for &q in self.map.neighbors(node) {
            let own = self.s.color[q as usize] == s;
            let last = self.s.info[self.s.group[q as usize] as usize].only_liberty_is(node);
            legal |= own != last;
        }
        legal
    }

    /// Places a stone of `player` on the empty `node`, removes every opponent group left without
    /// liberties (all at once), then the mover's own group if it has none (suicide).
    ///
    /// Assumes `node` is empty; legality beyond that (ko, suicide rule) is the caller's business:
    /// call [`Board::check`] first.
    pub fn play_unchecked(&mut self, node: NodeId, player: Player) -> PlaceOutcome {
        let p = node;
        debug_assert_eq!(self.s.color[p as usize], EMPTY);
        self.s.captured.clear();
        self.s.captured_stone.clear();
        let nbrs = self.map.neighbors(p);
        self.s.link_stone(p, player, nbrs);
        // Every opponent group without liberties (listed in `scratch`) goes at once: with three
        // or more players two such groups can touch, and removing one first would wrongly give
        // the other liberties.
        let mut outcome = PlaceOutcome::default();
        if !self.s.scratch.is_empty() {
            for i in 0..self.s.scratch.len() {
                let r = self.s.scratch[i];
                self.s.lift_group(r);
            }
            outcome.captured = self.s.captured.len() as u32;
            self.s.restore_liberties(0, &self.map);
        }
        let root = self.s.group[p as usize];
        let mine = self.s.info[root as usize];
        if mine.libs == 0 {
            // Allowed suicide: the mover's own group goes.
            let before = self.s.captured.len();
            self.s.lift_group(root);
            outcome.self_captured = (self.s.captured.len() - before) as u32;
            self.s.restore_liberties(before, &self.map);
        }
        // Simple ko: a lone stone that captured a lone stone and sits in its only liberty may
        // not be retaken at once by the captured colour.
        if outcome.captured == 1 && mine.size == 1 && mine.libs == 1 {
            self.s.ko_point = self.s.captured[0];
            self.s.ko_stone = self.s.captured_stone[0];
        } else {
            self.s.ko_point = NONE;
        }
        outcome
    }

    /// A board with a stone of `code(n)` on each node, built without any capture: groups left
    /// without liberties stay on the board. For rule systems that regroup stones (Tribal's
    /// alliances: the codes are teams, the system keeps each stone's owner beside the board)
    /// or that never capture by liberties (The Way of Go).
    pub fn from_codes(map: Arc<Map>, code: impl Fn(NodeId) -> Option<Player>) -> Board {
        let mut b = Board::new(map.clone());
        for n in 0..b.len() as NodeId {
            if let Some(p) = code(n) {
                b.s.link_stone(n, p, map.neighbors(n));
            }
        }
        b
    }

    /// A pass: only the ko state changes.
    pub fn pass(&mut self) {
        self.s.ko_point = NONE;
        self.s.captured.clear();
        self.s.captured_stone.clear();
    }

    /// The hash the board would have after `player` plays on `node` (assumed legal under the
    /// board rules), without changing anything. Used for superko.
    pub fn hash_after(&self, node: NodeId, player: Player) -> u64 {
        let s = player.stone();
        let nbrs = self.map.neighbors(node);
        // A group touching `node` through several stones is counted once: only at its first
        // neighbour. Quadratic in the degree, exact for any degree, no allocation.
        let first_touch = |i: usize, r: u32| {
            !nbrs[..i].iter().any(|&q| self.s.color[q as usize] != EMPTY && self.s.group[q as usize] == r)
        };
        let mut h = self.s.hash ^ zobrist::stone_key(node, s);
        let mut captures = false;
        let mut own_dies = true;
        for (i, &q) in nbrs.iter().enumerate() {
            let c = self.s.color[q as usize];
            if c == EMPTY {
                own_dies = false;
                continue;
            }
            let r = self.s.group[q as usize];
            let g = &self.s.info[r as usize];
            if c == s {
                own_dies &= g.only_liberty_is(node);
            } else if g.only_liberty_is(node) && first_touch(i, r) {
                captures = true;
                for st in self.group_stones(r) {
                    h ^= zobrist::stone_key(st, c);
                }
            }
        }
        if !captures && own_dies {
            // Suicide: the new stone and every own group it joins disappear.
            h ^= zobrist::stone_key(node, s);
            for (i, &q) in nbrs.iter().enumerate() {
                let r = self.s.group[q as usize];
                if self.s.color[q as usize] == s && first_touch(i, r) {
                    for st in self.group_stones(r) {
                        h ^= zobrist::stone_key(st, s);
                    }
                }
            }
        }
        h
    }

    /// Removes the whole group at `node` (dead stones at the end of a game, surrendered stones),
    /// giving liberties back to its neighbours. Returns the removed stones.
    pub fn remove_group(&mut self, node: NodeId) -> Vec<NodeId> {
        let Some(root) = self.group_id(node) else { return Vec::new() };
        self.s.captured.clear();
        self.s.captured_stone.clear();
        self.s.lift_group(root);
        self.s.restore_liberties(0, &self.map);
        self.s.ko_point = NONE;
        self.s.captured.clone()
    }

    /// Removes individual stones (GoBeyond's Clean-Up surrenders stones, not whole groups); a
    /// group cut in pieces becomes several groups. Rebuilds the board from the remaining stones:
    /// every partial group keeps a liberty while it is rebuilt, so nothing is captured.
    pub fn remove_stones(&mut self, nodes: &[NodeId]) {
        let mut gone = vec![false; self.len()];
        for &n in nodes {
            if let Some(g) = gone.get_mut(n as usize) {
                *g = true;
            }
        }
        let mut fresh = Board::new(self.map.clone());
        for n in self.map.nodes() {
            if let Some(p) = self.stone_at(n).filter(|_| !gone[n as usize]) {
                fresh.put_stone(n, p);
            }
        }
        *self = fresh;
    }

    /// Recomputes groups, liberties, hash and empties from the colours alone, and compares:
    /// a consistency check for tests and debugging.
    pub fn is_consistent(&self) -> bool {
        let mut fresh = Board::new(self.map.clone());
        for n in 0..self.len() as NodeId {
            if let Some(p) = self.stone_at(n) {
                fresh.put_stone(n, p);
            }
        }
        if fresh.s.hash != self.s.hash || fresh.s.stones != self.s.stones || fresh.s.around != self.s.around {
            return false;
        }
        let mut a = self.s.empties.clone();
        a.sort_unstable();
        let mut b = fresh.s.empties.clone();
        b.sort_unstable();
        if a != b {
            return false;
        }
        (0..self.len() as NodeId).all(|n| {
            self.s.color[n as usize] == EMPTY
                || (self.s.info[self.s.group[n as usize] as usize]
                    == fresh.s.info[fresh.s.group[n as usize] as usize]
                    && self.group_stones(n).count() == fresh.group_stones(n).count())
        })
    }

    /// Puts a stone without captures or checks (setup positions, handicap stones). Groups and
    /// liberties stay correct; a setup that leaves a group without liberties is the caller's to
    /// reject.
    pub fn put_stone(&mut self, node: NodeId, player: Player) {
        if self.s.color[node as usize] != EMPTY {
            return;
        }
        let ko = (self.s.ko_point, self.s.ko_stone);
        self.play_unchecked(node, player);
        (self.s.ko_point, self.s.ko_stone) = ko;
    }
}

/// Iterator over a group's stones.
#[derive(Debug)]
pub struct GroupStones<'a> {
    next: &'a [u32],
    start: u32,
    at: u32,
}

impl Iterator for GroupStones<'_> {
    type Item = NodeId;
    fn next(&mut self) -> Option<NodeId> {
        if self.at == NONE {
            return None;
        }
        let here = self.at;
        let n = self.next[here as usize];
        self.at = if n == self.start { NONE } else { n };
        Some(here)
    }
}
