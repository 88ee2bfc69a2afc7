//! The board's mutable state and the incremental updates of a placement: groups as circular
//! lists, pseudo-liberties per group, the empty list, and per node a summary of its neighbours.
//! Kept apart from the map so that a placement can read the adjacency while it writes here
//! (no reference-count traffic on the shared map in the hot path).

use gobeyond_maps::{Map, NodeId};

use crate::{Player, zobrist};

/// Board colour code of an empty node; a stone of player `i` is `i + 1`.
pub const EMPTY: u8 = 0;
pub(super) const NONE: u32 = u32::MAX;

/// Neighbour summary of a node, one `u64`: bits 0–15 count its empty neighbours, bits 16–39 sum
/// its neighbours' colour codes, bits 40–63 sum their squares. A map has at most 65,536 nodes
/// (`gobeyond_maps::MAX_NODES`), so a degree fits in 16 bits, a sum of codes (≤ 8 · degree) in
/// 24 and a sum of squares (≤ 64 · degree) in 24: the fields never carry into each other.
/// "Every neighbour is a stone of code `c`" is then one multiplication (as for pseudo-liberties:
/// with no empty neighbour, k codes all equal `c` exactly when `Σ = k·c` and `Σ² = k·c²`).
const SUM_SHIFT: u32 = 16;
const SQUARES_SHIFT: u32 = 40;
const EMPTY_MASK: u64 = 0xFFFF;

/// What a stone of code `stone` adds to each neighbour's summary (besides one empty fewer).
#[inline(always)]
pub(super) fn stone_summary(stone: u8) -> u64 {
    let c = stone as u64;
    (c << SUM_SHIFT) | ((c * c) << SQUARES_SHIFT)
}

/// The empty neighbours in a summary.
#[inline(always)]
pub(super) fn summary_empties(summary: u64) -> u32 {
    (summary & EMPTY_MASK) as u32
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(super) struct GroupInfo {
    /// Pseudo-liberties.
    pub(super) libs: u32,
    pub(super) size: u32,
    pub(super) lsum: u64,
    pub(super) lsum2: u64,
}

impl GroupInfo {
    // Wrapping: the empty nodes' sentinel entry (see `Stones::group`) takes any count.
    #[inline]
    fn add_lib(&mut self, p: u32) {
        self.libs = self.libs.wrapping_add(1);
        self.lsum = self.lsum.wrapping_add(p as u64);
        self.lsum2 = self.lsum2.wrapping_add(p as u64 * p as u64);
    }

    #[inline]
    fn remove_lib(&mut self, p: u32) {
        self.libs = self.libs.wrapping_sub(1);
        self.lsum = self.lsum.wrapping_sub(p as u64);
        self.lsum2 = self.lsum2.wrapping_sub(p as u64 * p as u64);
    }

    /// True when every pseudo-liberty is `p` (so `p` is the group's only liberty).
    #[inline]
    pub(super) fn only_liberty_is(&self, p: u32) -> bool {
        let k = self.libs as u64;
        let p = p as u64;
        // Both halves always: one branch less on the playouts' hot path.
        (self.lsum == k * p) & (self.lsum2 == k * p * p)
    }

    /// The only liberty, when there is exactly one.
    #[inline]
    pub(super) fn single_liberty(&self) -> Option<u32> {
        if self.libs == 0 {
            return None;
        }
        let k = self.libs as u128;
        let (s, s2) = (self.lsum as u128, self.lsum2 as u128);
        (k * s2 == s * s).then(|| (self.lsum / self.libs as u64) as u32)
    }
}

/// Stones, groups, liberties, empties, neighbour summaries, hash and ko state.
#[derive(Debug, Clone)]
pub(super) struct Stones {
    pub(super) color: Vec<u8>,
    /// Per stone its group's root; per empty node the sentinel `len()`, whose `info` entry
    /// absorbs the liberty updates a placement makes on every neighbour without asking which
    /// are stones (random playouts mispredict that branch half the time).
    pub(super) group: Vec<u32>,
    pub(super) next: Vec<u32>,
    /// Per group root; one more entry at the end, the empty nodes' sentinel (never read).
    pub(super) info: Vec<GroupInfo>,
    pub(super) empties: Vec<u32>,
    pub(super) empty_pos: Vec<u32>,
    /// Per node, the summary of its neighbours (see [`stone_summary`]).
    pub(super) around: Vec<u64>,
    pub(super) hash: u64,
    pub(super) stones: [u32; crate::MAX_PLAYERS],
    pub(super) ko_point: u32,
    pub(super) ko_stone: u8,
    pub(super) captured: Vec<NodeId>,
    pub(super) captured_stone: Vec<u8>,
    /// Scratch list of group roots, reused so that a placement never allocates.
    pub(super) scratch: Vec<u32>,
}

impl Stones {
    pub(super) fn new(map: &Map) -> Stones {
        let n = map.len();
        let empties: Vec<u32> = (0..n as u32).collect();
        let empty_pos = empties.clone();
        Stones {
            color: vec![EMPTY; n],
            group: vec![n as u32; n],
            next: vec![NONE; n],
            info: vec![GroupInfo::default(); n + 1],
            empties,
            empty_pos,
            around: map.nodes().map(|p| map.degree(p) as u64).collect(),
            hash: 0,
            stones: [0; crate::MAX_PLAYERS],
            ko_point: NONE,
            ko_stone: 0,
            captured: Vec::with_capacity(n),
            captured_stone: Vec::with_capacity(n),
            // At most one root per neighbour is ever collected.
            scratch: Vec::with_capacity(map.max_degree().max(4)),
        }
    }

    /// Overwrites `self` with `other` reusing the buffers (no allocation at equal sizes).
    pub(super) fn copy_from(&mut self, other: &Stones) {
        self.color.clone_from(&other.color);
        self.group.clone_from(&other.group);
        self.next.clone_from(&other.next);
        self.info.clone_from(&other.info);
        self.empties.clone_from(&other.empties);
        self.empty_pos.clone_from(&other.empty_pos);
        self.around.clone_from(&other.around);
        self.hash = other.hash;
        self.stones = other.stones;
        self.ko_point = other.ko_point;
        self.ko_stone = other.ko_stone;
        self.captured.clone_from(&other.captured);
        self.captured_stone.clone_from(&other.captured_stone);
    }

    /// A copy with full working capacity in every buffer, so that playing on it never allocates.
    pub(super) fn clone_with_capacity(&self) -> Stones {
        let n = self.color.len();
        let with_room = |v: &[u32]| {
            let mut w = Vec::with_capacity(n);
            w.extend_from_slice(v);
            w
        };
        let mut captured_stone = Vec::with_capacity(n);
        captured_stone.extend_from_slice(&self.captured_stone);
        Stones {
            captured: with_room(&self.captured),
            captured_stone,
            empties: with_room(&self.empties),
            scratch: Vec::with_capacity(self.scratch.capacity()),
            ..self.clone()
        }
    }

    /// Puts the stone and links it into groups and liberties; no capture. The first half of
    /// every placement. Leaves in `scratch` the roots of the other players' groups it left
    /// without liberties (the placement's captures, if the caller makes them).
    #[inline(always)]
    pub(super) fn link_stone(&mut self, p: u32, player: Player, nbrs: &[NodeId]) {
        let s = player.stone();
        self.remove_empty(p);
        self.color[p as usize] = s;
        self.hash ^= zobrist::stone_key(p, s);
        self.stones[player.index()] += 1;
        self.group[p as usize] = p;
        self.next[p as usize] = p;
        let added = stone_summary(s);
        let mut mine = GroupInfo { size: 1, ..GroupInfo::default() };
        for &q in nbrs {
            // `q` had `p` as an empty neighbour; now it has a stone of `s` there.
            self.around[q as usize] = self.around[q as usize] + added - 1;
            // No branch on whether `q` is empty (a coin toss in playouts): an empty `q` is
            // counted as a liberty with weight one, a stone with weight zero, and `q`'s group
            // loses `p` as a liberty either way (an empty `q`'s group is the sentinel).
            let empty = (self.color[q as usize] == EMPTY) as u64;
            mine.libs += empty as u32;
            mine.lsum += empty * q as u64;
            mine.lsum2 += empty * (q as u64 * q as u64);
            self.info[self.group[q as usize] as usize].remove_lib(p);
        }
        self.info[p as usize] = mine;
        // One more pass, once every liberty is counted: join own groups, note dead other ones
        // (merging touches own groups only, so the two never interfere).
        self.scratch.clear();
        for &q in nbrs {
            let c = self.color[q as usize];
            let r = self.group[q as usize];
            if c == s {
                if r != self.group[p as usize] {
                    self.merge(self.group[p as usize], r);
                }
            } else if c != EMPTY && self.info[r as usize].libs == 0 && !self.scratch.contains(&r) {
                self.scratch.push(r);
            }
        }
    }

    pub(super) fn lift_group(&mut self, root: u32) {
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
            let next = self.next[s as usize];
            self.group[s as usize] = self.color.len() as u32;
            s = next;
            if s == root {
                break;
            }
        }
    }

    /// Gives the nodes lifted since `captured[from..]` back as liberties to neighbouring stones,
    /// and back as empty neighbours to every neighbour's summary.
    pub(super) fn restore_liberties(&mut self, from: usize, map: &Map) {
        for i in from..self.captured.len() {
            let s = self.captured[i];
            let removed = stone_summary(self.captured_stone[i]);
            for &q in map.neighbors(s) {
                self.around[q as usize] = self.around[q as usize] + 1 - removed;
                // An empty `q` adds to the sentinel: no branch (see `group`).
                self.info[self.group[q as usize] as usize].add_lib(s);
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
