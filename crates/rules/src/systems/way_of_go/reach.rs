//! The board's incremental tables (issue 45, `docs/bots.md` "The Way of Go and BeSiege"): the
//! liberties of every level-group, per level and node (so a range is one lookup), and, for
//! BeSiege, how many moves of each colour end exactly on each node (so the points each colour
//! attacks, BeSiege rule 7, are one lookup too).
//!
//! A change of one node only changes, at each level where the node's part changed (a stone
//! there or not, or another colour), the level-groups touching the node or containing it: those
//! are counted again, and every stack whose range at that level changed takes its old moves
//! off the counts and puts its new ones on. A move's destination depends only on its start, its
//! range and the lines, not on what lies there, so the counts include occupied nodes and a
//! node is attacked when it is empty and counted.

use std::cell::RefCell;

use gobeyond_maps::{Lines, NodeId};

use super::board::{Colour, StackBoard};

/// The tables kept with a [`StackBoard`].
#[derive(Debug, Default)]
pub(super) struct Reach {
    /// `libs[(level - 1) * n + node]`: the liberties of the level-group of the stone at
    /// `level` on `node` (0 when the stack is lower). Grows a level at a time.
    pub(super) libs: Vec<u32>,
    /// `ends[colour * n + node]`: moves of `colour`'s stacks (any top part, any direction, at
    /// its exact range) that end on `node`, whatever is there; empty unless tracked.
    pub(super) ends: Vec<u32>,
}

clone_reusing!(Reach { libs, ends });

#[derive(Default)]
struct GroupScratch {
    stamp: Vec<u32>,
    lib_stamp: Vec<u32>,
    mark: u32,
    members: Vec<NodeId>,
}

thread_local! {
    static GROUPS: RefCell<GroupScratch> = RefCell::new(GroupScratch::default());
}

/// Adds (`add`) or takes off the moves of a stack of `colour` on `from` moving `range` steps.
fn count_ends(lines: &Lines, ends: &mut [u32], n: usize, from: NodeId, colour: u8, range: u32, add: bool) {
    let base = colour as usize * n;
    for dir in 0..lines.directions() {
        let (mut node, mut d) = (from, dir);
        let mut reached = true;
        for _ in 0..range {
            match lines.step(node, d) {
                Some(next) => (node, d) = next,
                None => {
                    reached = false;
                    break;
                }
            }
        }
        if reached && node != from {
            let e = &mut ends[base + node as usize];
            // Counts only go down for moves put on before, so they never wrap.
            *e = if add { *e + 1 } else { e.saturating_sub(1) };
        }
    }
}

impl StackBoard {
    /// Brings the tables up to date after the stack on `node` changed from `(c0, h0)` (colour
    /// code, height) to what it is now.
    pub(super) fn relevel(&mut self, node: NodeId, c0: u8, h0: u8) {
        let i = node as usize;
        let n = self.map.len();
        let (c1, h1) = (self.colour[i], self.height[i]);
        let levels = self.reach.libs.len() / n.max(1);
        if (h1 as usize) > levels {
            self.reach.libs.resize(h1 as usize * n, 0);
        }
        for level in 1..=h0.max(h1) {
            let (was, is) = (h0 >= level, h1 >= level);
            if was == is && (!was || c0 == c1) {
                // Nothing changed at this level on `node`, so no liberty count did.
                continue;
            }
            if was {
                let at = (level as usize - 1) * n + i;
                let old = std::mem::take(&mut self.reach.libs[at]);
                if old > 0 && !self.reach.ends.is_empty() {
                    let lines = self.map.lines().expect("a board's map has lines");
                    count_ends(lines, &mut self.reach.ends, n, node, c0, old, false);
                }
            }
            self.regroup(node, level);
        }
    }

    /// Counts again, at `level`, the level-groups containing `node` or touching it, and moves
    /// the counted ends of each stack whose range changed.
    fn regroup(&mut self, node: NodeId, level: u8) {
        let n = self.map.len();
        let map = self.map.clone();
        let Some(lines) = map.lines() else { return };
        GROUPS.with_borrow_mut(|s| {
            if s.stamp.len() < n {
                s.stamp.resize(n, 0);
                s.lib_stamp.resize(n, 0);
            }
            // One mark for the seeds' groups and one per group's liberties: start again from
            // zero before the counter could run out.
            if s.mark > u32::MAX - 2 * (n as u32 + 2) {
                s.stamp.iter_mut().for_each(|v| *v = 0);
                s.lib_stamp.iter_mut().for_each(|v| *v = 0);
                s.mark = 0;
            }
            s.mark += 1;
            let group_mark = s.mark;
            let seeds = std::iter::once(node).chain(map.neighbors(node).iter().copied());
            for seed in seeds {
                let i = seed as usize;
                if self.height[i] < level || s.stamp[i] == group_mark {
                    continue;
                }
                s.mark += 1;
                let lib_mark = s.mark;
                let colour = self.colour[i];
                s.members.clear();
                s.members.push(seed);
                s.stamp[i] = group_mark;
                let (mut k, mut count) = (0, 0);
                while k < s.members.len() {
                    let v = s.members[k];
                    k += 1;
                    for &w in map.neighbors(v) {
                        let j = w as usize;
                        if self.height[j] < level {
                            if s.lib_stamp[j] != lib_mark {
                                s.lib_stamp[j] = lib_mark;
                                count += 1;
                            }
                        } else if self.colour[j] == colour && s.stamp[j] != group_mark {
                            s.stamp[j] = group_mark;
                            s.members.push(w);
                        }
                    }
                }
                let base = (level as usize - 1) * n;
                let tracked = !self.reach.ends.is_empty();
                for &m in &s.members {
                    let old = std::mem::replace(&mut self.reach.libs[base + m as usize], count);
                    if old != count && tracked {
                        if old > 0 {
                            count_ends(lines, &mut self.reach.ends, n, m, colour, old, false);
                        }
                        if count > 0 {
                            count_ends(lines, &mut self.reach.ends, n, m, colour, count, true);
                        }
                    }
                }
            }
        });
    }

    /// Starts counting the points each colour attacks (BeSiege), from the stacks now on the
    /// board.
    pub fn track_attacks(&mut self) {
        let n = self.map.len();
        if !self.reach.ends.is_empty() || n == 0 {
            return;
        }
        self.reach.ends = vec![0; 2 * n];
        let map = self.map.clone();
        let Some(lines) = map.lines() else { return };
        for level in 0..self.reach.libs.len() / n {
            for node in map.nodes() {
                let range = self.reach.libs[level * n + node as usize];
                if range > 0 {
                    let colour = self.colour[node as usize];
                    count_ends(lines, &mut self.reach.ends, n, node, colour, range, true);
                }
            }
        }
    }

    /// Whether the points each colour attacks are counted ([`StackBoard::track_attacks`]).
    pub fn tracks_attacks(&self) -> bool {
        !self.reach.ends.is_empty()
    }

    /// The colours attacking `node` (bit 0 Black, bit 1 White): it is empty and some stack of
    /// that colour has a move ending there (BeSiege rule 7). Always 0 unless
    /// [`StackBoard::track_attacks`] was called.
    pub fn attackers(&self, node: NodeId) -> u8 {
        let i = node as usize;
        let n = self.map.len();
        if self.reach.ends.is_empty() || self.height.get(i).is_none_or(|&h| h > 0) {
            return 0;
        }
        (self.reach.ends[i] > 0) as u8 | ((self.reach.ends[n + i] > 0) as u8) << 1
    }

    /// Whether some move of `colour` ends on an enemy stack (a capture, pushes aside); `None`
    /// when attacks are not tracked.
    pub fn may_capture(&self, colour: Colour) -> Option<bool> {
        if self.reach.ends.is_empty() {
            return None;
        }
        let (n, enemy) = (self.map.len(), colour.other() as u8);
        let ends = self.reach.ends.get(colour.index() * n..(colour.index() + 1) * n)?;
        Some(ends.iter().zip(&self.colour).any(|(&e, &c)| e > 0 && c == enemy))
    }
}
