//! The board: stones, groups, liberties and the Zobrist hash on any map, for up to 8 players.
//!
//! This is the hot path of search, so it works on flat arrays of small integers and never
//! allocates after construction. Groups are circular linked lists of stones with a root; each
//! root keeps *pseudo-liberties* (one per stone–empty adjacency, counted with repetition) with
//! their sum and sum of squares, so "the group's only liberty is p" is two multiplications:
//! all `k` pseudo-liberties equal `p` exactly when `Σ = k·p` and `Σ² = k·p²`.

use std::sync::Arc;

use gobeyond_maps::{Map, NodeId};

use crate::{Player, zobrist};

/// Board colour code of an empty node; a stone of player `i` is `i + 1`.
pub const EMPTY: u8 = 0;
const NONE: u32 = u32::MAX;

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

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct GroupInfo {
    /// Pseudo-liberties.
    libs: u32,
    size: u32,
    lsum: u64,
    lsum2: u64,
}

impl GroupInfo {
    #[inline]
    fn add_lib(&mut self, p: u32) {
        self.libs += 1;
        self.lsum += p as u64;
        self.lsum2 += p as u64 * p as u64;
    }

    #[inline]
    fn remove_lib(&mut self, p: u32) {
        self.libs -= 1;
        self.lsum -= p as u64;
        self.lsum2 -= p as u64 * p as u64;
    }

    /// True when every pseudo-liberty is `p` (so `p` is the group's only liberty).
    #[inline]
    fn only_liberty_is(&self, p: u32) -> bool {
        let k = self.libs as u64;
        let p = p as u64;
        self.lsum == k * p && self.lsum2 == k * p * p
    }

    /// The only liberty, when there is exactly one.
    #[inline]
    fn single_liberty(&self) -> Option<u32> {
        if self.libs == 0 {
            return None;
        }
        let k = self.libs as u128;
        let (s, s2) = (self.lsum as u128, self.lsum2 as u128);
        (k * s2 == s * s).then(|| (self.lsum / self.libs as u64) as u32)
    }
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
    color: Vec<u8>,
    group: Vec<u32>,
    next: Vec<u32>,
    info: Vec<GroupInfo>,
    empties: Vec<u32>,
    empty_pos: Vec<u32>,
    hash: u64,
    stones: [u32; crate::MAX_PLAYERS],
    ko_point: u32,
    ko_stone: u8,
    captured: Vec<NodeId>,
    captured_stone: Vec<u8>,
    /// Scratch list of group roots, reused so that a placement never allocates.
    scratch: Vec<u32>,
}

impl Clone for Board {
    /// A copy with full working capacity in every buffer, so that playing on it never allocates.
    fn clone(&self) -> Self {
        let n = self.color.len();
        let mut captured = Vec::with_capacity(n);
        captured.extend_from_slice(&self.captured);
        let mut captured_stone = Vec::with_capacity(n);
        captured_stone.extend_from_slice(&self.captured_stone);
        let mut empties = Vec::with_capacity(n);
        empties.extend_from_slice(&self.empties);
        Board {
            map: self.map.clone(),
            color: self.color.clone(),
            group: self.group.clone(),
            next: self.next.clone(),
            info: self.info.clone(),
            empties,
            empty_pos: self.empty_pos.clone(),
            hash: self.hash,
            stones: self.stones,
            ko_point: self.ko_point,
            ko_stone: self.ko_stone,
            captured,
            captured_stone,
            scratch: Vec::with_capacity(self.scratch.capacity()),
        }
    }

    fn clone_from(&mut self, other: &Self) {
        self.copy_from(other);
    }
}

impl PartialEq for Board {
    /// Same stones on the same nodes and the same ko state (groups follow from the stones).
    fn eq(&self, other: &Self) -> bool {
        self.color == other.color && self.ko_point == other.ko_point && self.ko_stone == other.ko_stone
    }
}

impl Board {
    /// An empty board on `map`.
    pub fn new(map: Arc<Map>) -> Board {
        let n = map.len();
        let empties: Vec<u32> = (0..n as u32).collect();
        let empty_pos = empties.clone();
        Board {
            color: vec![EMPTY; n],
            group: vec![NONE; n],
            next: vec![NONE; n],
            info: vec![GroupInfo::default(); n],
            empties,
            empty_pos,
            hash: 0,
            stones: [0; crate::MAX_PLAYERS],
            ko_point: NONE,
            ko_stone: 0,
            captured: Vec::with_capacity(n),
            captured_stone: Vec::with_capacity(n),
            // At most one root per neighbour is ever collected.
            scratch: Vec::with_capacity(map.max_degree().max(4)),
            map,
        }
    }

    /// Overwrites `self` with `other` reusing `self`'s buffers: no allocation when both are on
    /// maps of the same size. This is how search copies positions.
    pub fn copy_from(&mut self, other: &Board) {
        if !Arc::ptr_eq(&self.map, &other.map) {
            self.map = other.map.clone();
        }
        self.color.clone_from(&other.color);
        self.group.clone_from(&other.group);
        self.next.clone_from(&other.next);
        self.info.clone_from(&other.info);
        self.empties.clone_from(&other.empties);
        self.empty_pos.clone_from(&other.empty_pos);
        self.hash = other.hash;
        self.stones = other.stones;
        self.ko_point = other.ko_point;
        self.ko_stone = other.ko_stone;
        self.captured.clone_from(&other.captured);
        self.captured_stone.clone_from(&other.captured_stone);
    }

    pub fn map(&self) -> &Arc<Map> {
        &self.map
    }

    pub fn len(&self) -> usize {
        self.color.len()
    }

    pub fn is_empty(&self) -> bool {
        self.color.is_empty()
    }

    /// Colour code at `node`: [`EMPTY`] or `player + 1`.
    #[inline]
    pub fn color(&self, node: NodeId) -> u8 {
        self.color[node as usize]
    }

    /// The colour codes of all nodes.
    pub fn colors(&self) -> &[u8] {
        &self.color
    }

    /// The owner of the stone at `node`.
    #[inline]
    pub fn stone_at(&self, node: NodeId) -> Option<Player> {
        Player::of_stone(self.color[node as usize])
    }

    /// Empty nodes, in no particular order.
    #[inline]
    pub fn empties(&self) -> &[NodeId] {
        &self.empties
    }

    /// Zobrist hash of the stones (not of whose turn it is, nor of the ko state).
    #[inline]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// Stones of `player` on the board.
    pub fn stone_count(&self, player: Player) -> u32 {
        self.stones[player.index()]
    }

    /// Stones removed by the last placement, with their colour codes.
    pub fn last_captured(&self) -> impl Iterator<Item = (NodeId, u8)> + '_ {
        self.captured.iter().copied().zip(self.captured_stone.iter().copied())
    }

    /// The simple-ko point: the node the given colour may not play on this move.
    pub fn ko(&self) -> Option<(NodeId, u8)> {
        (self.ko_point != NONE).then_some((self.ko_point, self.ko_stone))
    }

    /// The root stone of the group at `node` (a stable id for the group while it lives).
    #[inline]
    pub fn group_id(&self, node: NodeId) -> Option<NodeId> {
        (self.color[node as usize] != EMPTY).then(|| self.group[node as usize])
    }

    /// The stones of the group at `node` (empty if `node` is empty).
    pub fn group_stones(&self, node: NodeId) -> GroupStones<'_> {
        let start = if self.color[node as usize] == EMPTY { NONE } else { node };
        GroupStones { next: &self.next, start, at: start }
    }

    pub fn group_size(&self, node: NodeId) -> u32 {
        self.group_id(node).map_or(0, |r| self.info[r as usize].size)
    }

    /// The distinct liberties of the group at `node`, sorted. Not for the hot path.
    pub fn liberties(&self, node: NodeId) -> Vec<NodeId> {
        let mut libs: Vec<NodeId> = self
            .group_stones(node)
            .flat_map(|s| self.map.neighbors(s).iter().copied())
            .filter(|&q| self.color[q as usize] == EMPTY)
            .collect();
        libs.sort_unstable();
        libs.dedup();
        libs
    }

    /// True when the group at `node` has exactly one liberty.
    #[inline]
    pub fn in_atari(&self, node: NodeId) -> bool {
        self.group_id(node).is_some_and(|r| self.info[r as usize].single_liberty().is_some())
    }

    /// The single liberty of the group at `node`, if it has exactly one.
    pub fn atari_liberty(&self, node: NodeId) -> Option<NodeId> {
        self.group_id(node).and_then(|r| self.info[r as usize].single_liberty())
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
        if self.color[p] != EMPTY {
            return Err(PlaceError::Occupied);
        }
        if simple_ko && node == self.ko_point && s == self.ko_stone {
            return Err(PlaceError::Ko);
        }
        let mut own = false;
        for &q in self.map.neighbors(node) {
            let c = self.color[q as usize];
            if c == EMPTY {
                return Ok(());
            }
            let g = &self.info[self.group[q as usize] as usize];
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

    /// Places a stone of `player` on the empty `node`, removes every opponent group left without
    /// liberties (all at once), then the mover's own group if it has none (suicide).
    ///
    /// Assumes `node` is empty; legality beyond that (ko, suicide rule) is the caller's business:
    /// call [`Board::check`] first.
    pub fn play_unchecked(&mut self, node: NodeId, player: Player) -> PlaceOutcome {
        let p = node;
        let s = player.stone();
        debug_assert_eq!(self.color[p as usize], EMPTY);
        self.captured.clear();
        self.captured_stone.clear();
        let map = Arc::clone(&self.map);
        let nbrs = map.neighbors(p);
        self.link_stone(p, player, nbrs);
        // Every opponent group without liberties goes at once: with three or more players two
        // such groups can touch, and removing one first would wrongly give the other liberties.
        self.scratch.clear();
        for &q in nbrs {
            let c = self.color[q as usize];
            if c != EMPTY && c != s {
                let r = self.group[q as usize];
                if self.info[r as usize].libs == 0 && !self.scratch.contains(&r) {
                    self.scratch.push(r);
                }
            }
        }
        let mut outcome = PlaceOutcome::default();
        if !self.scratch.is_empty() {
            for i in 0..self.scratch.len() {
                let r = self.scratch[i];
                self.lift_group(r);
            }
            outcome.captured = self.captured.len() as u32;
            self.restore_liberties(0);
        }
        let root = self.group[p as usize];
        let mine = self.info[root as usize];
        if mine.libs == 0 {
            // Allowed suicide: the mover's own group goes.
            let before = self.captured.len();
            self.lift_group(root);
            outcome.self_captured = (self.captured.len() - before) as u32;
            self.restore_liberties(before);
        }
        // Simple ko: a lone stone that captured a lone stone and sits in its only liberty may
        // not be retaken at once by the captured colour.
        if outcome.captured == 1 && mine.size == 1 && mine.libs == 1 {
            self.ko_point = self.captured[0];
            self.ko_stone = self.captured_stone[0];
        } else {
            self.ko_point = NONE;
        }
        outcome
    }

    /// Puts the stone and links it into groups and liberties; no capture. The first half of
    /// every placement.
    #[inline(always)]
    fn link_stone(&mut self, p: u32, player: Player, nbrs: &[NodeId]) {
        let s = player.stone();
        self.remove_empty(p);
        self.color[p as usize] = s;
        self.hash ^= zobrist::stone_key(p, s);
        self.stones[player.index()] += 1;
        self.group[p as usize] = p;
        self.next[p as usize] = p;
        let mut mine = GroupInfo { size: 1, ..GroupInfo::default() };
        for &q in nbrs {
            let c = self.color[q as usize];
            if c == EMPTY {
                mine.add_lib(q);
            } else {
                self.info[self.group[q as usize] as usize].remove_lib(p);
            }
        }
        self.info[p as usize] = mine;
        for &q in nbrs {
            if self.color[q as usize] == s && self.group[q as usize] != self.group[p as usize] {
                self.merge(self.group[p as usize], self.group[q as usize]);
            }
        }
    }

    /// A board with a stone of `code(n)` on each node, built without any capture: groups left
    /// without liberties stay on the board. For rule systems that regroup stones (Tribal's
    /// alliances: the codes are teams, the system keeps each stone's owner beside the board)
    /// or that never capture by liberties (The Way of Go).
    pub fn from_codes(map: Arc<Map>, code: impl Fn(NodeId) -> Option<Player>) -> Board {
        let mut b = Board::new(map.clone());
        for n in 0..b.len() as NodeId {
            if let Some(p) = code(n) {
                b.link_stone(n, p, map.neighbors(n));
            }
        }
        b
    }

    /// A pass: only the ko state changes.
    pub fn pass(&mut self) {
        self.ko_point = NONE;
        self.captured.clear();
        self.captured_stone.clear();
    }

    /// The hash the board would have after `player` plays on `node` (assumed legal under the
    /// board rules), without changing anything. Used for superko.
    pub fn hash_after(&self, node: NodeId, player: Player) -> u64 {
        let s = player.stone();
        let nbrs = self.map.neighbors(node);
        // A group touching `node` through several stones is counted once: only at its first
        // neighbour. Quadratic in the degree, exact for any degree, no allocation.
        let first_touch = |i: usize, r: u32| {
            !nbrs[..i].iter().any(|&q| self.color[q as usize] != EMPTY && self.group[q as usize] == r)
        };
        let mut h = self.hash ^ zobrist::stone_key(node, s);
        let mut captures = false;
        let mut own_dies = true;
        for (i, &q) in nbrs.iter().enumerate() {
            let c = self.color[q as usize];
            if c == EMPTY {
                own_dies = false;
                continue;
            }
            let r = self.group[q as usize];
            let g = &self.info[r as usize];
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
                let r = self.group[q as usize];
                if self.color[q as usize] == s && first_touch(i, r) {
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
        self.captured.clear();
        self.captured_stone.clear();
        self.lift_group(root);
        self.restore_liberties(0);
        self.ko_point = NONE;
        self.captured.clone()
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
        if fresh.hash != self.hash || fresh.stones != self.stones {
            return false;
        }
        let mut a = self.empties.clone();
        a.sort_unstable();
        let mut b = fresh.empties.clone();
        b.sort_unstable();
        if a != b {
            return false;
        }
        (0..self.len() as NodeId).all(|n| {
            self.color[n as usize] == EMPTY
                || (self.info[self.group[n as usize] as usize]
                    == fresh.info[fresh.group[n as usize] as usize]
                    && self.group_stones(n).count() == fresh.group_stones(n).count())
        })
    }

    /// Puts a stone without captures or checks (setup positions, handicap stones). Groups and
    /// liberties stay correct; a setup that leaves a group without liberties is the caller's to
    /// reject.
    pub fn put_stone(&mut self, node: NodeId, player: Player) {
        if self.color[node as usize] != EMPTY {
            return;
        }
        let ko = (self.ko_point, self.ko_stone);
        self.play_unchecked(node, player);
        (self.ko_point, self.ko_stone) = ko;
    }

    fn lift_group(&mut self, root: u32) {
        let stone = self.color[root as usize];
        let owner = (stone - 1) as usize;
        let mut s = root;
        loop {
            self.color[s as usize] = EMPTY;
            self.hash ^= zobrist::stone_key(s, stone);
            self.stones[owner] -= 1;
            self.captured.push(s);
            self.captured_stone.push(stone);
            self.add_empty(s);
            s = self.next[s as usize];
            if s == root {
                break;
            }
        }
    }

    /// Gives the nodes lifted since `captured[from..]` back as liberties to neighbouring stones.
    fn restore_liberties(&mut self, from: usize) {
        let map = Arc::clone(&self.map);
        for i in from..self.captured.len() {
            let s = self.captured[i];
            for &q in map.neighbors(s) {
                if self.color[q as usize] != EMPTY {
                    self.info[self.group[q as usize] as usize].add_lib(s);
                }
            }
        }
    }

    fn merge(&mut self, a: u32, b: u32) {
        let (big, small) =
            if self.info[a as usize].size >= self.info[b as usize].size { (a, b) } else { (b, a) };
        let mut s = small;
        loop {
            self.group[s as usize] = big;
            s = self.next[s as usize];
            if s == small {
                break;
            }
        }
        self.next.swap(big as usize, small as usize);
        let si = self.info[small as usize];
        let bi = &mut self.info[big as usize];
        bi.libs += si.libs;
        bi.size += si.size;
        bi.lsum += si.lsum;
        bi.lsum2 += si.lsum2;
    }

    #[inline]
    fn remove_empty(&mut self, p: u32) {
        let i = self.empty_pos[p as usize] as usize;
        let last = self.empties.len() - 1;
        let moved = self.empties[last];
        self.empties[i] = moved;
        self.empty_pos[moved as usize] = i as u32;
        self.empties.pop();
    }

    #[inline]
    fn add_empty(&mut self, p: u32) {
        self.empty_pos[p as usize] = self.empties.len() as u32;
        self.empties.push(p);
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
