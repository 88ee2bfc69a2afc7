//! The board's tables found from scratch: the references the incremental ones (`reach.rs`) are
//! tested against, kept as they were before those (issue 45).

use std::cell::RefCell;

use gobeyond_maps::NodeId;

use super::board::StackBoard;

#[derive(Default)]
struct Scratch {
    stamp: Vec<u32>,
    lib_stamp: Vec<u32>,
    mark: u32,
    stack: Vec<NodeId>,
}

/// [`StackBoard::attacked`]'s scratch: marks, liberties per node, a group's members, the
/// stacks tallest first.
type LevelScratch = (Scratch, Vec<u32>, Vec<NodeId>, Vec<NodeId>);

thread_local! {
    static SCRATCH: RefCell<Scratch> = RefCell::new(Scratch::default());
    /// For [`StackBoard::attacked`]: each node's level-group liberties at one level.
    static LEVEL: RefCell<LevelScratch> = RefCell::new(Default::default());
}

impl StackBoard {
    /// The number of liberties of the level-group of the stone at `level` (from 1) on `node`:
    /// stones of its colour at that level in cells joined through adjacent cells, and as
    /// liberties the distinct adjacent cells with nothing at that level (BeSiege rule 14; at
    /// level 1 this is Go's group and liberties). 0 if there is no such stone. Found from scratch:
    /// the reference [`StackBoard::liberties_at`] is tested against.
    pub fn liberties_slowly(&self, node: NodeId, level: u8) -> u32 {
        let i = node as usize;
        if level == 0 || self.height[i] < level {
            return 0;
        }
        let colour = self.colour[i];
        SCRATCH.with(|s| {
            let mut s = s.borrow_mut();
            let s = &mut *s;
            let n = self.map.len();
            if s.stamp.len() < n {
                s.stamp.resize(n, 0);
                s.lib_stamp.resize(n, 0);
            }
            s.mark = s.mark.wrapping_add(1);
            if s.mark == 0 {
                s.stamp.iter_mut().for_each(|v| *v = 0);
                s.lib_stamp.iter_mut().for_each(|v| *v = 0);
                s.mark = 1;
            }
            let mark = s.mark;
            let mut libs = 0;
            s.stack.clear();
            s.stack.push(node);
            s.stamp[i] = mark;
            while let Some(v) = s.stack.pop() {
                for &w in self.map.neighbors(v) {
                    let j = w as usize;
                    if self.height[j] < level {
                        if s.lib_stamp[j] != mark {
                            s.lib_stamp[j] = mark;
                            libs += 1;
                        }
                    } else if self.colour[j] == colour && s.stamp[j] != mark {
                        s.stamp[j] = mark;
                        s.stack.push(w);
                    }
                }
            }
            libs
        })
    }

    /// Marks in `out` (bit 0 Black, bit 1 White) each empty node some stack of that colour can
    /// reach with one move, any top part of it, any direction (BeSiege rule 7), from scratch.
    /// Level by level, each level-group's liberties are counted once for all its stones.
    pub fn attacked(&self, out: &mut Vec<u8>) {
        let n = self.map.len();
        out.clear();
        out.resize(n, 0);
        let top = self.height.iter().copied().max().unwrap_or(0);
        let Some(lines) = self.map.lines() else { return };
        LEVEL.with(|cell| {
            let mut cell = cell.borrow_mut();
            let (s, libs, members, stacks) = &mut *cell;
            // The stacks, tallest first: level ℓ looks at the prefix of those at least ℓ high.
            stacks.clear();
            stacks.extend(self.map.nodes().filter(|&v| self.height[v as usize] > 0));
            stacks.sort_unstable_by_key(|&v| std::cmp::Reverse(self.height[v as usize]));
            if s.stamp.len() < n {
                s.stamp.resize(n, 0);
                s.lib_stamp.resize(n, 0);
                libs.resize(n, 0);
            }
            // Marks only grow within a call (one per level and one per group): start again from
            // zero when the counter could run out on the way.
            if s.mark as usize > u32::MAX as usize - (n + 1) * (top as usize + 1) {
                s.stamp.iter_mut().for_each(|v| *v = 0);
                s.lib_stamp.iter_mut().for_each(|v| *v = 0);
                s.mark = 0;
            }
            for level in 1..=top {
                // A fresh mark per level: the group stamps tell which nodes are counted.
                s.mark += 1;
                let group_mark = s.mark;
                let high = stacks.partition_point(|&v| self.height[v as usize] >= level);
                for &start in &stacks[..high] {
                    let i = start as usize;
                    if s.stamp[i] == group_mark {
                        continue;
                    }
                    // One level-group: its members, and its liberties counted with a mark of
                    // their own (taken from the same counter, so never equal to a group mark).
                    s.mark += 1;
                    let lib_mark = s.mark;
                    let colour = self.colour[i];
                    members.clear();
                    members.push(start);
                    s.stamp[i] = group_mark;
                    let (mut k, mut count) = (0, 0);
                    while k < members.len() {
                        let v = members[k];
                        k += 1;
                        for &w in self.map.neighbors(v) {
                            let j = w as usize;
                            if self.height[j] < level {
                                if s.lib_stamp[j] != lib_mark {
                                    s.lib_stamp[j] = lib_mark;
                                    count += 1;
                                }
                            } else if self.colour[j] == colour && s.stamp[j] != group_mark {
                                s.stamp[j] = group_mark;
                                members.push(w);
                            }
                        }
                    }
                    for &v in members.iter() {
                        libs[v as usize] = count;
                    }
                }
                // Each stack whose lowest moving stone sits at this level: the top
                // `height - level + 1` stones move `libs` steps.
                for &from in &stacks[..high] {
                    let i = from as usize;
                    if libs[i] == 0 {
                        continue;
                    }
                    let bit = 1 << self.colour[i];
                    for dir in 0..lines.directions() {
                        let (mut node, mut d) = (from, dir);
                        let mut ok = true;
                        for _ in 0..libs[i] {
                            match lines.step(node, d) {
                                Some(next) => (node, d) = next,
                                None => {
                                    ok = false;
                                    break;
                                }
                            }
                        }
                        if ok && node != from && self.height[node as usize] == 0 {
                            out[node as usize] |= bit;
                        }
                    }
                }
            }
        });
    }

    /// The same as [`StackBoard::attacked`], one BFS per stack and top part: the reference the
    /// faster ones are tested against.
    pub fn attacked_slowly(&self, out: &mut Vec<u8>) {
        out.clear();
        out.resize(self.map.len(), 0);
        for node in self.map.nodes() {
            let Some(c) = self.colour(node) else { continue };
            let bit = 1 << c.index();
            let h = self.height(node);
            for count in 1..=h {
                let range = self.liberties_slowly(node, h - count + 1);
                for dir in 0..self.directions() {
                    if range > 0
                        && let Some((to, _)) = self.walk(node, dir, range)
                        && to != node
                        && self.is_empty(to)
                    {
                        out[to as usize] |= bit;
                    }
                }
            }
        }
    }
}
