//! Tribal Go's incremental board (issue 45): groups by team with their pseudo-liberties, the
//! empty nodes, and for each player and node how many of the player's stones lie at each
//! distance up to the range (`range_counts.rs`), kept up to date as a single stone is placed
//! and groups are captured — the search's whole game — as `crate::board::Board` keeps Go's
//! groups.
//!
//! Everything here is a function of the stones, the alliances and the start points, so anything
//! else that changes those (a Play rejected and undone, a Move or Replace Any card lifting a
//! stone, Pair Place's two stones, a surrender accepted or independence, a start point chosen,
//! the end's removals) marks the board stale, and the next placement rebuilds it from the stones
//! (`docs/bots.md`, "Tribal Go"). A stale board is never read: the from-scratch searches of
//! `board.rs` answer until then.

use gobeyond_maps::NodeId;

use super::{Illegal, TribalGame, TribalKo, spoils::Spoils};
use crate::{Player, zobrist};

/// An occupied node's place in the list of empty nodes.
const NOT_EMPTY: u32 = u32::MAX;
/// No group: an empty node.
const NO_GROUP: NodeId = NodeId::MAX;

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(super) struct TeamBoard {
    /// Whether everything below matches the stones (else it is rebuilt before use).
    pub(super) fresh: bool,
    /// Per node: its stone's group (the group's root node), or [`NO_GROUP`].
    root: Vec<NodeId>,
    /// Per stone: the next stone of its group, in a cycle.
    next: Vec<NodeId>,
    /// Per root: stones in the group.
    size: Vec<u32>,
    /// Per root: pseudo-liberties, each empty neighbour counted once per stone it touches. It
    /// is 0 exactly when the group has no liberty, and a group's only liberties are a node
    /// exactly when the count equals the group's stones around that node.
    libs: Vec<u32>,
    /// The empty nodes, in no order (the playouts draw from them).
    empty: Vec<NodeId>,
    /// Per node: its index in `empty`, or [`NOT_EMPTY`].
    empty_slot: Vec<u32>,
    /// Per player, per node: how many of the player's sources (stones and start point) lie at
    /// each distance `d` up to `radius`, a byte at bit `8 d` (a ring of the map's balls holds
    /// at most [`gobeyond_maps::Balls::MAX_RING`] nodes, and the start point may add one).
    /// Empty when the range is searched instead (no range, a range past the balls' radius, or
    /// a map without balls). Kept by `range_counts.rs`.
    pub(super) near: Vec<u64>,
    /// The longest range `near` counts.
    pub(super) radius: u32,
}

impl TeamBoard {
    pub(super) fn is_fresh(&self) -> bool {
        self.fresh
    }

    pub(super) fn mark_stale(&mut self) {
        self.fresh = false;
    }

    /// Joins two groups (the smaller is relabelled).
    fn join(&mut self, a: NodeId, b: NodeId) {
        if a == b {
            return;
        }
        let (big, small) = if self.size[a as usize] >= self.size[b as usize] { (a, b) } else { (b, a) };
        let mut s = small;
        loop {
            self.root[s as usize] = big;
            s = self.next[s as usize];
            if s == small {
                break;
            }
        }
        self.next.swap(big as usize, small as usize);
        self.size[big as usize] += self.size[small as usize];
        self.libs[big as usize] += self.libs[small as usize];
    }

    /// Groups as the set of stones with the same root, compared by their smallest node, with
    /// their pseudo-liberties: equal for two boards of the same stones however they were built.
    fn canonical(&self) -> Vec<Option<(NodeId, u32)>> {
        let mut least = vec![NO_GROUP; self.root.len()];
        for (v, &r) in self.root.iter().enumerate() {
            if r != NO_GROUP {
                least[r as usize] = least[r as usize].min(v as NodeId);
            }
        }
        self.root
            .iter()
            .map(|&r| (r != NO_GROUP).then(|| (least[r as usize], self.libs[r as usize])))
            .collect()
    }
}

impl TribalGame {
    /// Brings the incremental board up to date: a search's copy of the game may start stale,
    /// and playouts draw from the board's empty nodes.
    pub fn refresh_board(&mut self) {
        self.ensure_board();
    }

    /// Rebuilds the board if it is stale.
    pub(super) fn ensure_board(&mut self) {
        if !self.board.is_fresh() {
            self.board = self.board_from_scratch();
        }
    }

    /// The board computed from the stones alone.
    pub(super) fn board_from_scratch(&self) -> TeamBoard {
        let n = self.map.len();
        let radius = self.counted_range();
        let mut b = TeamBoard {
            fresh: true,
            root: vec![NO_GROUP; n],
            next: vec![NO_GROUP; n],
            size: vec![0; n],
            libs: vec![0; n],
            empty: Vec::with_capacity(n),
            empty_slot: vec![NOT_EMPTY; n],
            near: Vec::new(),
            radius: radius.unwrap_or(0),
        };
        for v in self.map.nodes().filter(|&v| self.owner[v as usize] == 0) {
            b.empty_slot[v as usize] = b.empty.len() as u32;
            b.empty.push(v);
        }
        let mut seen = vec![false; n];
        for v in self.map.nodes() {
            if self.owner[v as usize] == 0 || seen[v as usize] {
                continue;
            }
            let (stones, _) = self.group(v, &mut seen);
            for (i, &s) in stones.iter().enumerate() {
                b.root[s as usize] = v;
                b.next[s as usize] = stones[(i + 1) % stones.len()];
                b.libs[v as usize] += self.empty_slots(s);
            }
            b.size[v as usize] = stones.len() as u32;
        }
        b.near = self.range_counts_from_scratch(radius);
        b
    }

    /// Empty neighbour slots of `v` (a neighbour listed twice counts twice; `v` itself never).
    fn empty_slots(&self, v: NodeId) -> u32 {
        self.map.neighbors(v).iter().filter(|&&w| w != v && self.owner[w as usize] == 0).count() as u32
    }

    /// Whether the board matches the stones (for tests): the groups, their liberties and the
    /// counts of sources by distance. A stale board is not compared.
    pub fn board_matches_stones(&self) -> Result<(), String> {
        if !self.board.is_fresh() {
            return Ok(());
        }
        let scratch = self.board_from_scratch();
        if self.board.canonical() != scratch.canonical() {
            return Err(format!("groups {:?} != {:?}", self.board.canonical(), scratch.canonical()));
        }
        let mut empty = self.board.empty.clone();
        empty.sort_unstable();
        let slots_agree =
            self.board.empty.iter().enumerate().all(|(i, &v)| self.board.empty_slot[v as usize] == i as u32)
                && self.board.empty_slot.iter().filter(|&&i| i != NOT_EMPTY).count() == empty.len();
        if empty != scratch.empty || !slots_agree {
            return Err(format!("empty nodes {:?} != {:?}", self.board.empty, scratch.empty));
        }
        if self.board.near != scratch.near {
            return Err(format!("sources by distance {:?} != {:?}", self.board.near, scratch.near));
        }
        Ok(())
    }

    /// The empty nodes in no particular order, when the board is up to date (the playouts draw
    /// from them).
    pub fn empty_nodes(&self) -> Option<&[NodeId]> {
        self.board.fresh.then_some(&self.board.empty[..])
    }

    /// The only liberty of the group (by team) of the stone on `node`, if it has exactly one.
    pub fn sole_liberty(&self, node: NodeId) -> Option<NodeId> {
        if *self.owner.get(node as usize)? == 0 {
            return None;
        }
        if !self.board.fresh {
            return self.sole_liberty_from_scratch(node);
        }
        let b = &self.board;
        let r = b.root[node as usize];
        // Some liberty of the group; it is the only one when every pseudo-liberty is on it.
        let mut s = node;
        let liberty = loop {
            if let Some(&l) = self.map.neighbors(s).iter().find(|&&w| w != s && self.owner[w as usize] == 0) {
                break l;
            }
            s = b.next[s as usize];
            if s == node {
                return None;
            }
        };
        let around =
            self.map.neighbors(liberty).iter().filter(|&&x| x != liberty && b.root[x as usize] == r).count();
        (b.libs[r as usize] == around as u32).then_some(liberty)
    }

    /// The only liberties of the groups, not of `team`, with a stone on `node` or next to it,
    /// each once, in the order of `node` then its neighbours (the playouts' captures).
    pub fn atari_liberties_around(&self, node: NodeId, team: Player, out: &mut Vec<NodeId>) {
        out.clear();
        if !self.map.contains(u64::from(node)) {
            return;
        }
        let around = std::iter::once(node).chain(self.map.neighbors(node).iter().copied());
        for (i, v) in around.clone().enumerate() {
            if self.team_of_code(self.owner[v as usize]).is_none_or(|t| t == team) {
                continue;
            }
            // A group met before has been answered.
            let r = self.board.root[v as usize];
            if self.board.fresh && around.clone().take(i).any(|u| self.board.root[u as usize] == r) {
                continue;
            }
            if let Some(l) = self.sole_liberty(v)
                && !out.contains(&l)
            {
                out.push(l);
            }
        }
    }

    /// [`Self::sole_liberty`] by searching the group (its oracle in tests).
    pub fn sole_liberty_from_scratch(&self, node: NodeId) -> Option<NodeId> {
        let team = self.team_of_code(*self.owner.get(node as usize)?)?;
        let mut stones = vec![node];
        let mut liberty = None;
        let mut i = 0;
        while i < stones.len() {
            let v = stones[i];
            i += 1;
            for &w in self.map.neighbors(v) {
                match self.owner[w as usize] {
                    0 if liberty.is_none_or(|l| l == w) => liberty = Some(w),
                    0 => return None,
                    code if self.team_of_code(code) == Some(team) && !stones.contains(&w) => stones.push(w),
                    _ => {}
                }
            }
        }
        liberty
    }

    // --- One stone --------------------------------------------------------------------

    /// The verdict on `p`'s stone on the empty `node` (board fresh): the groups it captures
    /// (a stone of each, in the order the from-scratch check finds them), or why it is
    /// suicide or a repetition. Nothing changes.
    pub(super) fn single_stone_verdict(&self, p: Player, node: NodeId) -> Result<Vec<NodeId>, Illegal> {
        let b = &self.board;
        let team = self.team(p);
        let neighbours = self.map.neighbors(node);
        let around =
            |r: NodeId| neighbours.iter().filter(|&&x| x != node && b.root[x as usize] == r).count() as u32;
        let mut liberty = false;
        let mut captured: Vec<NodeId> = Vec::new();
        for &w in neighbours {
            let code = self.owner[w as usize];
            if w == node {
                continue;
            }
            if code == 0 {
                liberty = true;
                continue;
            }
            let r = b.root[w as usize];
            if self.team_of_code(code) == Some(team) {
                liberty |= b.libs[r as usize] > around(r);
            } else if b.libs[r as usize] == around(r) && !captured.iter().any(|&c| b.root[c as usize] == r) {
                captured.push(w);
            }
        }
        if !liberty && captured.is_empty() {
            return Err(Illegal::Suicide(node));
        }
        let mut hash = self.hash ^ zobrist::stone_key(node, p.0 + 1);
        for &c in &captured {
            let mut s = c;
            loop {
                hash ^= zobrist::stone_key(s, self.owner[s as usize]);
                s = b.next[s as usize];
                if s == c {
                    break;
                }
            }
        }
        let repeated = match self.rules.ko {
            TribalKo::PositionalSuperko => self.history.contains(&hash),
            TribalKo::Simple => hash == self.previous_hash,
        };
        if repeated { Err(Illegal::Ko(node)) } else { Ok(captured) }
    }

    /// Puts `p`'s stone on the empty `node` (board fresh), joining its team's groups around.
    pub(super) fn board_add_stone(&mut self, p: Player, node: NodeId) {
        self.set_stone(node, p.0 + 1);
        let v = node as usize;
        let b = &mut self.board;
        b.root[v] = node;
        b.next[v] = node;
        b.size[v] = 1;
        b.libs[v] = 0;
        let i = std::mem::replace(&mut b.empty_slot[v], NOT_EMPTY) as usize;
        b.empty.swap_remove(i);
        if let Some(&moved) = b.empty.get(i) {
            b.empty_slot[moved as usize] = i as u32;
        }
        for &w in self.map.neighbors(node) {
            if w == node {
                continue;
            }
            match b.root[w as usize] {
                NO_GROUP => b.libs[v] += 1,
                r => b.libs[r as usize] -= 1,
            }
        }
        let team = Some(self.team(p));
        for &w in self.map.neighbors(node) {
            let code = self.owner[w as usize];
            if code != 0 && w != node && self.team_of_code(code) == team {
                self.board.join(self.board.root[v], self.board.root[w as usize]);
            }
        }
        self.count_stone(p, node, true);
    }
    /// The spoils of the group of the stone on `node` (board fresh, the group still on it), with
    /// its `stones` listed for the event (their owners added when events are recorded). The
    /// players touching it are the stones around it outside its group: a group is its team's
    /// whole chain.
    pub(super) fn board_spoils(&self, node: NodeId, stones: Vec<NodeId>) -> Spoils {
        let b = &self.board;
        let mut spoils = Spoils::default();
        let r = b.root[node as usize];
        let mut s = node;
        loop {
            spoils.colours[self.owner[s as usize] as usize - 1] += 1;
            for &w in self.map.neighbors(s) {
                let code = self.owner[w as usize];
                if code != 0 && b.root[w as usize] != r {
                    spoils.recipients |= 1 << (code - 1);
                }
            }
            s = b.next[s as usize];
            if s == node {
                break;
            }
        }
        if self.record_events {
            spoils.owners = stones.iter().filter_map(|&v| self.stone_at(v)).collect();
        }
        spoils.stones = stones;
        spoils
    }

    /// Takes the captured group of the stone on `node` off (board fresh): its neighbours gain
    /// the liberties, and the counts around its stones lose their owners' stones.
    pub(super) fn board_remove_group(&mut self, node: NodeId) {
        // The group's cycle (`next`) is left as it was: it is walked twice, and an empty node's
        // `next` is never read.
        let mut s = node;
        loop {
            if let Some(o) = self.stone_at(s) {
                self.count_stone(o, s, false);
            }
            self.set_stone(s, 0);
            let b = &mut self.board;
            b.root[s as usize] = NO_GROUP;
            b.empty_slot[s as usize] = b.empty.len() as u32;
            b.empty.push(s);
            s = b.next[s as usize];
            if s == node {
                break;
            }
        }
        loop {
            for &w in self.map.neighbors(s) {
                let r = self.board.root[w as usize];
                if w != s && r != NO_GROUP {
                    self.board.libs[r as usize] += 1;
                }
            }
            s = self.board.next[s as usize];
            if s == node {
                break;
            }
        }
    }
}
