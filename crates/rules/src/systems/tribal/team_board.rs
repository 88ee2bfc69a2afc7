//! Tribal Go's incremental board (issue 45): groups by team with their pseudo-liberties, and each
//! player's distance field for the range, kept up to date as a single stone is placed and groups
//! are captured — the search's whole game — as `crate::board::Board` keeps Go's groups.
//!
//! Everything here is a function of the stones, the alliances and the start points, so anything
//! else that changes those (a Play rejected and undone, a Move or Replace Any card lifting a
//! stone, Pair Place's two stones, a surrender accepted or independence, a start point chosen,
//! the end's removals) marks the board stale, and the next placement rebuilds it from the stones
//! (`docs/bots.md`, "Tribal Go"). A stale board is never read: the from-scratch searches of
//! `board.rs` answer until then.

use gobeyond_maps::{Map, NodeId};

use super::{Illegal, TribalGame, TribalKo};
use crate::{Player, zobrist};

/// The longest range the distance fields measure: the dice's 6 and a card's range plus one.
/// Longer ranges (a larger fixed range or handicap distance) are searched from scratch.
pub(super) const FIELD_RANGE: u32 = 7;
/// A distance beyond [`FIELD_RANGE`].
const FAR: u8 = FIELD_RANGE as u8 + 1;
/// Not reached (in [`TeamBoard::mark`]).
const UNSEEN: u8 = u8::MAX;
/// No group: an empty node.
const NO_GROUP: NodeId = NodeId::MAX;

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(super) struct TeamBoard {
    /// Whether everything below matches the stones (else it is rebuilt before use).
    fresh: bool,
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
    /// Per player, per node: steps to the player's nearest stone or start point, [`FAR`] past
    /// [`FIELD_RANGE`].
    dist: Vec<u8>,
    /// A breadth-first queue kept between uses (empty when cloned).
    queue: Vec<NodeId>,
    /// Per node, [`UNSEEN`] between uses: distances from removed stones (made on first use).
    mark: Vec<u8>,
}

impl TeamBoard {
    pub(super) fn is_fresh(&self) -> bool {
        self.fresh
    }

    pub(super) fn mark_stale(&mut self) {
        self.fresh = false;
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
    /// Rebuilds the board if it is stale.
    pub(super) fn ensure_board(&mut self) {
        if !self.board.is_fresh() {
            self.board = self.board_from_scratch();
        }
    }

    /// The board computed from the stones alone.
    pub(super) fn board_from_scratch(&self) -> TeamBoard {
        let n = self.map.len();
        let mut b = TeamBoard {
            fresh: true,
            root: vec![NO_GROUP; n],
            next: vec![NO_GROUP; n],
            size: vec![0; n],
            libs: vec![0; n],
            dist: vec![FAR; n * self.players],
            queue: Vec::new(),
            mark: Vec::new(),
        };
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
        let n_players = self.players;
        for (p, dist) in b.dist.chunks_mut(n).enumerate().take(n_players) {
            self.compute_field(Player(p as u8), dist, &mut b.queue);
        }
        b
    }

    /// Empty neighbour slots of `v` (a neighbour listed twice counts twice; `v` itself never).
    fn empty_slots(&self, v: NodeId) -> u32 {
        self.map.neighbors(v).iter().filter(|&&w| w != v && self.owner[w as usize] == 0).count() as u32
    }

    /// Whether the board matches the stones (for tests): the groups, their liberties and the
    /// distance fields. A stale board is not compared.
    pub fn board_matches_stones(&self) -> Result<(), String> {
        if !self.board.is_fresh() {
            return Ok(());
        }
        let scratch = self.board_from_scratch();
        if self.board.canonical() != scratch.canonical() {
            return Err(format!("groups {:?} != {:?}", self.board.canonical(), scratch.canonical()));
        }
        if self.board.dist != scratch.dist {
            return Err(format!("distances {:?} != {:?}", self.board.dist, scratch.dist));
        }
        Ok(())
    }

    // --- The range --------------------------------------------------------------------

    /// Whether `node` is within `range` of `p`'s stones or start point, when the fields know.
    pub(super) fn field_within(&self, p: Player, node: NodeId, range: u32) -> Option<bool> {
        (self.board.is_fresh() && range <= FIELD_RANGE)
            .then(|| u32::from(self.board.dist[p.index() * self.map.len() + node as usize]) <= range)
    }

    /// Nodes within `range` of `p`'s sources, when the fields know.
    pub(super) fn field_reachable(&self, p: Player, range: u32) -> Option<Vec<bool>> {
        let n = self.map.len();
        (self.board.is_fresh() && range <= FIELD_RANGE).then(|| {
            self.board.dist[p.index() * n..(p.index() + 1) * n]
                .iter()
                .map(|&d| u32::from(d) <= range)
                .collect()
        })
    }

    /// `p`'s distances into `dist` (one per node).
    fn compute_field(&self, p: Player, dist: &mut [u8], queue: &mut Vec<NodeId>) {
        let code = p.0 + 1;
        let start = self.start_point(p);
        queue.clear();
        for (v, d) in dist.iter_mut().enumerate() {
            let source = self.owner[v] == code || start == Some(v as NodeId);
            *d = if source { 0 } else { FAR };
            if source {
                queue.push(v as NodeId);
            }
        }
        spread(&self.map, dist, queue);
    }

    /// A new source of `p`'s field at `v`: only nodes it brings closer change.
    fn add_source(&mut self, p: Player, v: NodeId) {
        let n = self.map.len();
        let b = &mut self.board;
        let dist = &mut b.dist[p.index() * n..(p.index() + 1) * n];
        if dist[v as usize] == 0 {
            return;
        }
        dist[v as usize] = 0;
        b.queue.clear();
        b.queue.push(v);
        spread(&self.map, dist, &mut b.queue);
    }

    /// `p`'s field after `removed` (those of them that were `p`'s stones) left the board: only
    /// the nodes whose distance may have come from them — found from the removed stones
    /// outwards, through nodes whose distance equals their distance to the removed stones — are
    /// reset and measured again from their surroundings and the sources among them.
    fn remove_sources(&mut self, p: Player, removed: &[NodeId]) {
        let n = self.map.len();
        let (base, code) = (p.index() * n, p.0 + 1);
        let start = self.start_point(p);
        let b = &mut self.board;
        if b.mark.len() != n {
            b.mark = vec![UNSEEN; n];
        }
        // Distances from the removed stones, over the nodes that may have depended on them.
        let mut visited = std::mem::take(&mut b.queue);
        visited.clear();
        let mut affected = Vec::new();
        for &s in removed {
            if self.owner[s as usize] == 0 && b.dist[base + s as usize] == 0 && b.mark[s as usize] == UNSEEN {
                b.mark[s as usize] = 0;
                visited.push(s);
            }
        }
        let mut i = 0;
        while i < visited.len() {
            let u = visited[i];
            i += 1;
            let d = b.mark[u as usize];
            if b.dist[base + u as usize] != d {
                continue;
            }
            affected.push(u);
            if u32::from(d) >= FIELD_RANGE {
                continue;
            }
            for &w in self.map.neighbors(u) {
                if b.mark[w as usize] == UNSEEN {
                    b.mark[w as usize] = d + 1;
                    visited.push(w);
                }
            }
        }
        for &u in &affected {
            b.dist[base + u as usize] = FAR;
        }
        for &u in &visited {
            b.mark[u as usize] = UNSEEN;
        }
        // Measured again from the sources among them and their unaffected neighbours, relaxing
        // until nothing improves (few nodes: a capture's surroundings).
        visited.clear();
        for &u in &affected {
            if self.owner[u as usize] == code || start == Some(u) {
                b.dist[base + u as usize] = 0;
                visited.push(u);
            }
            for &w in self.map.neighbors(u) {
                if b.dist[base + w as usize] < FAR - 1 {
                    visited.push(w);
                }
            }
        }
        let mut i = 0;
        while i < visited.len() {
            let u = visited[i];
            i += 1;
            let d = b.dist[base + u as usize];
            if u32::from(d) >= FIELD_RANGE {
                continue;
            }
            for &w in self.map.neighbors(u) {
                if b.dist[base + w as usize] > d + 1 {
                    b.dist[base + w as usize] = d + 1;
                    visited.push(w);
                }
            }
        }
        visited.clear();
        b.queue = visited;
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
        for &w in self.map.neighbors(node) {
            if w == node {
                continue;
            }
            match b.root[w as usize] {
                NO_GROUP => b.libs[v] += 1,
                r => b.libs[r as usize] -= 1,
            }
        }
        let team = self.team(p);
        let map = std::sync::Arc::clone(&self.map);
        for &w in map.neighbors(node) {
            let code = self.owner[w as usize];
            if code != 0 && w != node && self.team_of_code(code) == Some(team) {
                self.join(self.board.root[v], self.board.root[w as usize]);
            }
        }
        self.add_source(p, node);
    }

    /// Joins two groups (the smaller is relabelled).
    fn join(&mut self, a: NodeId, b: NodeId) {
        if a == b {
            return;
        }
        let board = &mut self.board;
        let (big, small) = if board.size[a as usize] >= board.size[b as usize] { (a, b) } else { (b, a) };
        let mut s = small;
        loop {
            board.root[s as usize] = big;
            s = board.next[s as usize];
            if s == small {
                break;
            }
        }
        board.next.swap(big as usize, small as usize);
        board.size[big as usize] += board.size[small as usize];
        board.libs[big as usize] += board.libs[small as usize];
    }

    /// Takes a captured group's `stones` off (board fresh): their neighbours gain the liberties,
    /// and their owners' fields are recomputed.
    pub(super) fn board_remove_stones(&mut self, stones: &[NodeId]) {
        // A bit per player (at most 8).
        let mut owners = 0u32;
        for &s in stones {
            if let Some(o) = self.stone_at(s) {
                owners |= 1 << o.index();
            }
            self.set_stone(s, 0);
            self.board.root[s as usize] = NO_GROUP;
        }
        for &s in stones {
            for &w in self.map.neighbors(s) {
                let r = self.board.root[w as usize];
                if w != s && r != NO_GROUP {
                    self.board.libs[r as usize] += 1;
                }
            }
        }
        for p in (0..self.players).filter(|p| owners & (1 << p) != 0) {
            self.remove_sources(Player(p as u8), stones);
        }
    }
}

/// Breadth-first from `queue` (sources, in order of distance), lowering `dist` up to the limit.
fn spread(map: &Map, dist: &mut [u8], queue: &mut Vec<NodeId>) {
    let mut i = 0;
    while i < queue.len() {
        let u = queue[i];
        i += 1;
        let d = dist[u as usize];
        if u32::from(d) >= FIELD_RANGE {
            continue;
        }
        for &w in map.neighbors(u) {
            if dist[w as usize] > d + 1 {
                dist[w as usize] = d + 1;
                queue.push(w);
            }
        }
    }
    queue.clear();
}
