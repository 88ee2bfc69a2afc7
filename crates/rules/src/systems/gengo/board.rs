//! Gengo's board: stones on spaces, how much of each space the stones of each colour overlap,
//! groups over the neighbour relation, and a Zobrist hash — all updated incrementally, with no
//! allocation in play.
//!
//! A space is empty when no stone overlaps it (a stone overlaps its own space). A group's
//! liberties are the empty spaces in its stones' neighbour regions. Groups are circular lists
//! of stones with a head, merged on placement; they are only ever removed whole, so removal
//! never splits a group.
//!
//! Readings (A2) are those of `docs/rules/spec/gengo.md`.

use std::sync::Arc;

use gobeyond_maps::NodeId;

use super::{
    regions::RegionTables,
    settings::{Permission, SelfCaptureOrder},
};
use crate::{Player, zobrist::stone_key};

/// No stone on a space.
pub const NONE: u8 = 0;

/// What one placement did.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Effects {
    /// Opposing stones removed (step 1).
    pub captured: u32,
    /// The mover's own stones removed (step 2).
    pub lost: u32,
    /// The played stone's group died.
    pub suicide: bool,
    /// Another of the mover's groups died.
    pub friendly_fire: bool,
    /// The only stone removed, when exactly one was.
    pub single: Option<NodeId>,
}

impl Effects {
    /// Stones removed of both colours ("captured" in the ko rule, A2).
    pub fn removed(&self) -> u32 {
        self.captured + self.lost
    }
}

/// The board of a two-player Gengo game.
#[derive(Debug)]
pub struct GengoBoard {
    tables: Arc<RegionTables>,
    /// Colour code (1 Black, 2 White) of the stone on each space, or [`NONE`].
    color: Vec<u8>,
    /// Per space, how many stones of each colour overlap it.
    cover: Vec<[u16; 2]>,
    /// Next stone of the same group (a circular list).
    next: Vec<NodeId>,
    /// The group's head, for every stone.
    head: Vec<NodeId>,
    /// Stones in the group, at its head.
    size: Vec<u32>,
    hash: u64,
    stones: [u32; 2],
    /// Scratch marks for liberty counts (`mark[q] == stamp`: seen).
    mark: Vec<u32>,
    stamp: u32,
    /// Groups met in the current capture step (heads), reused.
    groups: Vec<NodeId>,
    own_overlap: bool,
}

impl Clone for GengoBoard {
    fn clone(&self) -> Self {
        let mut b = GengoBoard::new(self.tables.clone(), self.own_overlap);
        b.clone_from(self);
        b
    }

    fn clone_from(&mut self, o: &Self) {
        if !Arc::ptr_eq(&self.tables, &o.tables) {
            self.tables = o.tables.clone();
        }
        self.color.clone_from(&o.color);
        self.cover.clone_from(&o.cover);
        self.next.clone_from(&o.next);
        self.head.clone_from(&o.head);
        self.size.clone_from(&o.size);
        self.hash = o.hash;
        self.stones = o.stones;
        if self.mark.len() != o.mark.len() {
            self.mark = vec![0; o.mark.len()];
            self.stamp = 0;
        }
        self.own_overlap = o.own_overlap;
    }
}

impl PartialEq for GengoBoard {
    fn eq(&self, o: &Self) -> bool {
        self.color == o.color && self.cover == o.cover && self.hash == o.hash
    }
}

impl GengoBoard {
    pub fn new(tables: Arc<RegionTables>, own_overlap: bool) -> GengoBoard {
        let n = tables.len();
        GengoBoard {
            tables,
            color: vec![NONE; n],
            cover: vec![[0; 2]; n],
            next: (0..n as NodeId).collect(),
            head: (0..n as NodeId).collect(),
            size: vec![0; n],
            hash: 0,
            stones: [0; 2],
            mark: vec![0; n],
            stamp: 0,
            groups: Vec::with_capacity(32),
            own_overlap,
        }
    }

    pub fn tables(&self) -> &Arc<RegionTables> {
        &self.tables
    }

    pub fn len(&self) -> usize {
        self.color.len()
    }

    pub fn is_empty(&self) -> bool {
        self.color.is_empty()
    }

    /// The player whose stone is on `p`.
    #[inline]
    pub fn stone_at(&self, p: NodeId) -> Option<Player> {
        match self.color[p as usize] {
            NONE => None,
            c => Some(Player(c - 1)),
        }
    }

    /// How many stones of each colour overlap `p`.
    #[inline]
    pub fn cover(&self, p: NodeId) -> [u16; 2] {
        self.cover[p as usize]
    }

    /// No stone overlaps `p`.
    #[inline]
    pub fn is_empty_space(&self, p: NodeId) -> bool {
        self.cover[p as usize] == [0, 0]
    }

    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// Stones of `player` on the board.
    pub fn stones(&self, player: Player) -> u32 {
        self.stones[player.index()]
    }

    /// Whether `player` may put a stone on `p` as far as overlap goes: on an empty space, or,
    /// with own overlap allowed, on a space no stone holds and no opposing stone overlaps.
    #[inline]
    pub fn open_for(&self, p: NodeId, player: Player) -> bool {
        let c = self.cover[p as usize];
        if self.own_overlap {
            self.color[p as usize] == NONE && c[1 - player.index()] == 0
        } else {
            c == [0, 0]
        }
    }

    /// The group head of the stone on `p`.
    #[inline]
    pub fn group(&self, p: NodeId) -> NodeId {
        self.head[p as usize]
    }

    /// The stones of the group of the stone on `p`.
    pub fn group_stones(&self, p: NodeId) -> Vec<NodeId> {
        let mut out = vec![p];
        let mut s = self.next[p as usize];
        while s != p {
            out.push(s);
            s = self.next[s as usize];
        }
        out
    }

    /// The liberties of the group of the stone on `p`, sorted.
    pub fn liberties(&self, p: NodeId) -> Vec<NodeId> {
        let mut out = Vec::new();
        for s in self.group_stones(p) {
            out.extend(self.tables.neighbours(s).iter().copied().filter(|&q| self.is_empty_space(q)));
        }
        out.sort_unstable();
        out.dedup();
        out
    }

    /// How many liberties the group of the stone on `p` has, counting up to `limit`.
    pub fn liberty_count(&mut self, p: NodeId, limit: u32) -> u32 {
        self.next_stamp();
        let mut count = 0;
        let mut s = p;
        loop {
            for &q in self.tables.neighbours(s) {
                if self.cover[q as usize] == [0, 0] && self.mark[q as usize] != self.stamp {
                    self.mark[q as usize] = self.stamp;
                    count += 1;
                    if count >= limit {
                        return count;
                    }
                }
            }
            s = self.next[s as usize];
            if s == p {
                return count;
            }
        }
    }

    fn next_stamp(&mut self) {
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.mark.iter_mut().for_each(|m| *m = 0);
            self.stamp = 1;
        }
    }

    /// Whether the group of the stone on `p` has a liberty.
    #[inline]
    pub fn has_liberty(&self, p: NodeId) -> bool {
        let mut s = p;
        loop {
            if self.tables.neighbours(s).iter().any(|&q| self.cover[q as usize] == [0, 0]) {
                return true;
            }
            s = self.next[s as usize];
            if s == p {
                return false;
            }
        }
    }

    /// Whether stones on `a` and `b` (same colour) are connected: each in the other's
    /// neighbour region, or, with own overlap allowed, in each other's overlap.
    fn touches(&self, p: NodeId, q: NodeId) -> bool {
        self.tables.neighbours(p).binary_search(&q).is_ok()
            || (self.own_overlap && self.tables.overlap(p).binary_search(&q).is_ok())
    }

    /// Puts a stone of `player` on `p` and joins it to its groups; no capture. The caller
    /// has checked that the space is open for it.
    pub fn put(&mut self, p: NodeId, player: Player) {
        let c = player.index();
        let code = player.stone();
        let tables = self.tables.clone();
        self.color[p as usize] = code;
        for &q in tables.overlap(p) {
            self.cover[q as usize][c] += 1;
        }
        self.hash ^= stone_key(p, code);
        self.stones[c] += 1;
        self.next[p as usize] = p;
        self.head[p as usize] = p;
        self.size[p as usize] = 1;
        for &s in tables.reach(p) {
            if self.color[s as usize] == code
                && s != p
                && self.head[s as usize] != self.head[p as usize]
                && self.touches(p, s)
            {
                self.join(p, s);
            }
        }
    }

    fn join(&mut self, a: NodeId, b: NodeId) {
        let (ha, hb) = (self.head[a as usize], self.head[b as usize]);
        // Relabel the smaller group.
        let (big, small) = if self.size[ha as usize] >= self.size[hb as usize] { (ha, hb) } else { (hb, ha) };
        let mut s = small;
        loop {
            self.head[s as usize] = big;
            s = self.next[s as usize];
            if s == small {
                break;
            }
        }
        self.size[big as usize] += self.size[small as usize];
        self.next.swap(big as usize, small as usize);
    }

    /// Removes the group of the stone on `p`; returns its size. `out` receives its stones.
    fn remove_group(&mut self, p: NodeId, out: &mut Vec<NodeId>) -> u32 {
        let tables = self.tables.clone();
        let mut count = 0;
        let mut s = p;
        loop {
            let next = self.next[s as usize];
            let code = self.color[s as usize];
            let c = (code - 1) as usize;
            for &q in tables.overlap(s) {
                self.cover[q as usize][c] -= 1;
            }
            self.hash ^= stone_key(s, code);
            self.stones[c] -= 1;
            self.color[s as usize] = NONE;
            self.next[s as usize] = s;
            self.head[s as usize] = s;
            out.push(s);
            count += 1;
            s = next;
            if s == p {
                return count;
            }
        }
    }

    /// Heads of the groups of colour `code` with a stone within reach of `p` (in `self.groups`).
    fn groups_near(&mut self, p: NodeId, code: u8) {
        self.groups.clear();
        let tables = self.tables.clone();
        for &s in tables.reach(p) {
            if self.color[s as usize] == code {
                let h = self.head[s as usize];
                if !self.groups.contains(&h) {
                    self.groups.push(h);
                }
            }
        }
    }

    /// Plays a stone of `player` on `p` (open for it, checked by the caller) with the two-step
    /// capture; removed stones are appended to `removed` (opponents' first). Legality of
    /// suicide, friendly fire and ko is the caller's, from the returned effects.
    pub fn play(
        &mut self,
        p: NodeId,
        player: Player,
        order: SelfCaptureOrder,
        removed: &mut Vec<NodeId>,
    ) -> Effects {
        self.put(p, player);
        let own = player.stone();
        let theirs = 3 - own;
        let mut fx = Effects::default();
        let first = removed.len();
        // Step 1: every opposing group without liberties, all at once.
        self.groups_near(p, theirs);
        let dead: usize = {
            let mut k = 0;
            for i in 0..self.groups.len() {
                let h = self.groups[i];
                if !self.has_liberty(h) {
                    self.groups.swap(k, i);
                    k += 1;
                }
            }
            k
        };
        for i in 0..dead {
            let h = self.groups[i];
            fx.captured += self.remove_group(h, removed);
        }
        // Step 2: the mover's own groups, in the configured order.
        let played = |b: &GengoBoard| b.head[p as usize];
        match order {
            SelfCaptureOrder::SameTime => {
                self.groups_near(p, own);
                let mut k = 0;
                for i in 0..self.groups.len() {
                    if !self.has_liberty(self.groups[i]) {
                        self.groups.swap(k, i);
                        k += 1;
                    }
                }
                let ph = played(self);
                for i in 0..k {
                    let h = self.groups[i];
                    if h == ph {
                        fx.suicide = true;
                    } else {
                        fx.friendly_fire = true;
                    }
                    fx.lost += self.remove_group(h, removed);
                }
            }
            SelfCaptureOrder::PlayedFirst => {
                if !self.has_liberty(p) {
                    fx.suicide = true;
                    fx.lost += self.remove_group(p, removed);
                }
                self.remove_other_own(p, own, &mut fx, removed);
            }
            SelfCaptureOrder::PlayedLast => {
                self.remove_other_own(p, own, &mut fx, removed);
                if !self.has_liberty(p) {
                    fx.suicide = true;
                    fx.lost += self.remove_group(p, removed);
                }
            }
        }
        if removed.len() - first == 1 {
            fx.single = Some(removed[first]);
        }
        fx
    }

    /// Removes the mover's groups near `p`, other than the played one, that have no liberty.
    fn remove_other_own(&mut self, p: NodeId, own: u8, fx: &mut Effects, removed: &mut Vec<NodeId>) {
        self.groups_near(p, own);
        let ph = if self.color[p as usize] == own { Some(self.head[p as usize]) } else { None };
        let mut k = 0;
        for i in 0..self.groups.len() {
            let h = self.groups[i];
            if Some(h) != ph && !self.has_liberty(h) {
                self.groups.swap(k, i);
                k += 1;
            }
        }
        for i in 0..k {
            let h = self.groups[i];
            fx.friendly_fire = true;
            fx.lost += self.remove_group(h, removed);
        }
    }

    /// Every stone on the board with its owner, in space order.
    pub fn stone_list(&self) -> impl Iterator<Item = (NodeId, Player)> + '_ {
        self.color.iter().enumerate().filter(|(_, c)| **c != NONE).map(|(i, c)| (i as NodeId, Player(c - 1)))
    }

    /// The own-overlap setting the board plays by.
    pub fn own_overlap(&self) -> Permission {
        if self.own_overlap { Permission::Allowed } else { Permission::Forbidden }
    }
}
