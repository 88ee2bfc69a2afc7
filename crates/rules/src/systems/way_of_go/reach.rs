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

use gobeyond_maps::{Direction, Lines, NodeId};

use super::board::{Colour, Landing, StackBoard, Step};

/// The tables kept with a [`StackBoard`].
#[derive(Debug, Default)]
pub(super) struct Reach {
    /// `libs[(level - 1) * n + node]`: the liberties of the level-group of the stone at
    /// `level` on `node` (0 when the stack is lower). Grows a level at a time.
    pub(super) libs: Vec<u32>,
    /// `ends[colour * n + node]`: moves of `colour`'s stacks (any top part, any direction, at
    /// its exact range) that end on `node`, whatever is there; empty unless tracked.
    pub(super) ends: Vec<u32>,
    /// `sources[colour * n + node]`: the sum of [`Part::key`] over the moves counted in `ends`
    /// there, so that the move of a node reached by one move alone is known without a search.
    sources: Vec<u64>,
    /// Per colour, the enemy stacks some move of that colour ends on: `targets[colour * n +
    /// i]` for `i < on_enemy[colour]`, in no order, and `slot[colour * n + node]` where `node`
    /// is in that list. Whether a capture exists is one load, and the captures are found
    /// without a scan of the board.
    targets: Vec<NodeId>,
    slot: Vec<u32>,
    on_enemy: [u32; 2],
}

clone_reusing!(Reach { libs, ends, sources, targets, slot, on_enemy });

/// Captures read from the attack table, each with its sort key (start, count, direction);
/// the first so many are filled.
type TableCaptures = [(u64, Option<Step>); 16];

/// The stones of a stack from `level` up, moving together `range` steps.
#[derive(Debug, Clone, Copy)]
struct Part {
    from: NodeId,
    colour: u8,
    level: u8,
    range: u32,
}

impl Part {
    /// The move of this part in direction `dir`, as one number ([`Reach::sources`]).
    fn key(self, dir: Direction) -> u64 {
        (self.from as u64) << 16 | (self.level as u64) << 8 | dir as u64
    }

    /// The start, level and direction of a move from its [`Part::key`].
    fn unkey(key: u64) -> (NodeId, u8, Direction) {
        ((key >> 16) as NodeId, (key >> 8) as u8, key as u8)
    }
}

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

/// Whether a stack coded `occupant` (a colour code, or none) is an enemy of `colour`'s.
fn is_enemy(occupant: u8, colour: usize) -> bool {
    occupant as usize == 1 - colour
}

impl Reach {
    /// Moves the counted ends of `part`'s moves from its range to `range` (either may be 0: no
    /// moves), one direction at a time; `colours` are the board's stacks' colour codes.
    fn move_ends(&mut self, lines: &Lines, colours: &[u8], part: Part, range: u32) {
        let c = part.colour as usize;
        let base = c * colours.len();
        for dir in 0..lines.directions() {
            let key = part.key(dir);
            for (distance, add) in [(part.range, false), (range, true)] {
                if distance == 0 {
                    continue;
                }
                let Some((to, _)) = lines.walk(part.from, dir, distance) else { continue };
                if to == part.from {
                    continue;
                }
                let at = base + to as usize;
                let e = &mut self.ends[at];
                let was = *e > 0;
                // Counts only go down for moves put on before, so they never wrap.
                *e = if add { *e + 1 } else { e.saturating_sub(1) };
                if was != (*e > 0) && is_enemy(colours[to as usize], c) {
                    if add {
                        self.enter(c, to, colours.len());
                    } else {
                        self.leave(c, to, colours.len());
                    }
                }
                self.sources[at] =
                    if add { self.sources[at].wrapping_add(key) } else { self.sources[at].wrapping_sub(key) };
            }
        }
    }

    /// Puts the enemy stack on `node` in `colour`'s targets.
    fn enter(&mut self, colour: usize, node: NodeId, n: usize) {
        let k = self.on_enemy[colour];
        self.targets[colour * n + k as usize] = node;
        self.slot[colour * n + node as usize] = k;
        self.on_enemy[colour] += 1;
    }

    /// Takes `node` out of `colour`'s targets (the last one takes its place).
    fn leave(&mut self, colour: usize, node: NodeId, n: usize) {
        let (k, last) = (self.slot[colour * n + node as usize], self.on_enemy[colour] - 1);
        let moved = self.targets[colour * n + last as usize];
        self.targets[colour * n + k as usize] = moved;
        self.slot[colour * n + moved as usize] = k;
        self.on_enemy[colour] = last;
    }

    /// Keeps the targets true while the stack on `node` changes colour from `before` to
    /// `after` (colour codes); called with the ends as they are.
    pub(super) fn recolour(&mut self, node: NodeId, before: u8, after: u8, n: usize) {
        if self.ends.is_empty() || before == after {
            return;
        }
        for c in 0..2 {
            if self.ends[c * n + node as usize] > 0 {
                if is_enemy(before, c) {
                    self.leave(c, node, n);
                }
                if is_enemy(after, c) {
                    self.enter(c, node, n);
                }
            }
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
                    let part = Part { from: node, colour: c0, level, range: old };
                    self.reach.move_ends(lines, &self.colour, part, 0);
                }
            }
            self.regroup(node, level);
        }
    }

    /// Counts again, at `level`, the level-groups containing `node` or touching it, and moves
    /// the counted ends of each stack whose range changed.
    fn regroup(&mut self, node: NodeId, level: u8) {
        let n = self.map.len();
        // Borrowed, not cloned: the closure takes the other fields it needs one by one.
        let map = &self.map;
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
                        self.reach.move_ends(
                            lines,
                            &self.colour,
                            Part { from: m, colour, level, range: old },
                            count,
                        );
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
        self.reach.sources = vec![0; 2 * n];
        self.reach.targets = vec![0; 2 * n];
        self.reach.slot = vec![0; 2 * n];
        self.reach.on_enemy = [0; 2];
        let map = self.map.clone();
        let Some(lines) = map.lines() else { return };
        for level in 0..self.reach.libs.len() / n {
            for node in map.nodes() {
                let range = self.reach.libs[level * n + node as usize];
                if range > 0 {
                    let colour = self.colour[node as usize];
                    let part = Part { from: node, colour, level: level as u8 + 1, range: 0 };
                    self.reach.move_ends(lines, &self.colour, part, range);
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
        (!self.reach.ends.is_empty()).then_some(self.reach.on_enemy[colour.index()] > 0)
    }

    /// Every capturing move of `colour` (a landing on an enemy stack or a push capture), in the
    /// order of [`StackBoard::moves`]: read from the attack table when it can say
    /// ([`StackBoard::captures_from_table`]), else found by a search of the stacks.
    pub fn capturing_moves(
        &self,
        colour: Colour,
        stacks: bool,
        push: bool,
        mut each: impl FnMut(Step, Landing),
    ) {
        if stacks
            && !push
            && let Some((found, k)) = self.captures_from_table(colour)
        {
            for step in found[..k].iter().filter_map(|&(_, s)| s) {
                each(step, Landing::Capture);
            }
            return;
        }
        self.moves(colour, stacks, push, |s, l| {
            if l.captures() {
                each(s, l);
            }
        });
    }

    /// The captures of `colour` (no push) from the attack table: each enemy stack that one move
    /// alone reaches names that move in [`Reach::sources`]. Sorted as [`StackBoard::moves`]
    /// gives them (by start, count, direction); `None` when attacks are not tracked, when some
    /// enemy stack is reached by several moves, or when there are more than the array holds.
    fn captures_from_table(&self, colour: Colour) -> Option<(TableCaptures, usize)> {
        if self.reach.ends.is_empty() {
            return None;
        }
        let n = self.map.len();
        let (c, enemy) = (colour.index(), colour.other() as u8);
        let mut found = [(0u64, None::<Step>); 16];
        let targets = &self.reach.targets[c * n..c * n + self.reach.on_enemy[c] as usize];
        if targets.len() > found.len() {
            return None;
        }
        for (k, &t) in targets.iter().enumerate() {
            let t = t as usize;
            if self.reach.ends[c * n + t] != 1 || self.colour[t] != enemy {
                return None;
            }
            let (from, level, dir) = Part::unkey(self.reach.sources[c * n + t]);
            let h = self.height.get(from as usize).copied().unwrap_or(0);
            if level == 0 || level > h {
                return None;
            }
            let step = self.step_along(from, h - level + 1, dir, self.liberties_at(from, level))?;
            if step.to as usize != t {
                return None;
            }
            found[k] = ((from as u64) << 16 | (step.count as u64) << 8 | dir as u64, Some(step));
        }
        found[..targets.len()].sort_unstable_by_key(|&(key, _)| key);
        Some((found, targets.len()))
    }
}
