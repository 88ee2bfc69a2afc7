//! The board of The Way of Go and BeSiege: a stack of one colour on each node (height 0 is
//! empty; The Way of Go never stacks, so its heights are 0 or 1), level-groups and their
//! liberties, ranges, straight-line destinations and the points each colour attacks.
//!
//! TWoG rules and readings are those of `docs/rules/spec/way-of-go.md`, BeSiege rules those of
//! `docs/rules/spec/besiege.md`.
//!
//! Nothing is ever removed for lack of liberties here (TWoG rule 18): a group without liberties
//! just cannot move. Groups are found on demand, with a per-thread scratch so that queries take
//! `&self` and allocate nothing once warm.

use std::sync::Arc;

use gobeyond_maps::{Direction, Lines, Map, NodeId};
use serde::{Deserialize, Serialize};

use super::reach::Reach;
use crate::zobrist;

/// A side of the game. Seats choose their colour by the pie rule, so the board speaks colours.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(rename = "WayColour"))]
#[serde(rename_all = "snake_case")]
pub enum Colour {
    Black,
    White,
}

impl Colour {
    pub fn index(self) -> usize {
        self as usize
    }

    pub fn other(self) -> Colour {
        match self {
            Colour::Black => Colour::White,
            Colour::White => Colour::Black,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Colour::Black => "Black",
            Colour::White => "White",
        }
    }

    pub fn symbol(self) -> char {
        match self {
            Colour::Black => 'X',
            Colour::White => 'O',
        }
    }

    fn of(code: u8) -> Option<Colour> {
        match code {
            0 => Some(Colour::Black),
            1 => Some(Colour::White),
            _ => None,
        }
    }
}

pub(super) const EMPTY: u8 = u8::MAX;

/// The most stones one node may hold: every stone of a 255-high stack would have to come from
/// drops, one per turn, so this is never reached in a game of sane length; moves that would
/// exceed it are refused.
pub const MAX_HEIGHT: u8 = u8::MAX;

/// Where a move lands, and what happens there.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(rename = "WayLanding"))]
#[serde(rename_all = "snake_case")]
pub enum Landing {
    /// An empty node.
    Empty,
    /// On the mover's own stack (BeSiege).
    Stack,
    /// On an enemy stack: a capture.
    Capture,
    /// On an own piece, pushed one step further onto an empty node (the push option).
    Push,
    /// On an own piece, pushed one step further onto an enemy piece, which it captures.
    PushCapture,
}

impl Landing {
    pub fn captures(self) -> bool {
        matches!(self, Landing::Capture | Landing::PushCapture)
    }
}

/// One straight move: the top `count` stones of `from` go along direction `dir` to `to`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Step {
    pub from: NodeId,
    pub count: u8,
    pub dir: Direction,
    pub to: NodeId,
    /// The direction the line continues in at `to` (for a push).
    pub dir_at_to: Direction,
}

/// Stacks on the nodes of a map with lines.
#[derive(Debug)]
pub struct StackBoard {
    pub(super) map: Arc<Map>,
    pub(super) colour: Vec<u8>,
    pub(super) height: Vec<u8>,
    stones: [u32; 2],
    hash: u64,
    /// Liberties per level and the moves ending on each node, kept up to date (`reach.rs`).
    pub(super) reach: Reach,
}

clone_reusing!(StackBoard { map, colour, height, stones, hash, reach });

fn cell_key(node: NodeId, colour: u8, height: u8) -> u64 {
    zobrist::key(((node as u64) << 16) | ((colour as u64) << 8) | height as u64)
}

impl StackBoard {
    /// An empty board; the map must have lines (checked by the game).
    pub fn new(map: Arc<Map>) -> StackBoard {
        let n = map.len();
        StackBoard {
            map,
            colour: vec![EMPTY; n],
            height: vec![0; n],
            stones: [0; 2],
            hash: 0,
            reach: Reach::default(),
        }
    }

    pub fn map(&self) -> &Arc<Map> {
        &self.map
    }

    fn lines(&self) -> Option<&Lines> {
        self.map.lines()
    }

    /// The colour of the stack on `node`, if any.
    pub fn colour(&self, node: NodeId) -> Option<Colour> {
        Colour::of(self.colour[node as usize])
    }

    pub fn height(&self, node: NodeId) -> u8 {
        self.height[node as usize]
    }

    pub fn is_empty(&self, node: NodeId) -> bool {
        self.height[node as usize] == 0
    }

    /// The height of the tallest stack.
    pub fn tallest(&self) -> u8 {
        self.height.iter().copied().max().unwrap_or(0)
    }

    /// Stones of `colour` on the board (every stone of every stack).
    pub fn stones(&self, colour: Colour) -> u32 {
        self.stones[colour.index()]
    }

    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// Sets the stack on `node` (height 0 empties it).
    fn set(&mut self, node: NodeId, colour: Option<Colour>, height: u8) {
        let i = node as usize;
        let (c0, h0) = (self.colour[i], self.height[i]);
        if self.height[i] > 0 {
            self.hash ^= cell_key(node, self.colour[i], self.height[i]);
            self.stones[self.colour[i] as usize] -= self.height[i] as u32;
        }
        match colour {
            Some(c) if height > 0 => {
                self.colour[i] = c as u8;
                self.height[i] = height;
                self.hash ^= cell_key(node, c as u8, height);
                self.stones[c.index()] += height as u32;
            }
            _ => {
                self.colour[i] = EMPTY;
                self.height[i] = 0;
            }
        }
        if (c0, h0) != (self.colour[i], self.height[i]) {
            self.reach.recolour(node, c0, self.colour[i], self.map.len());
            self.relevel(node, c0, h0);
        }
    }

    /// One stone of `colour` on the empty `node`.
    pub fn drop_stone(&mut self, node: NodeId, colour: Colour) {
        self.set(node, Some(colour), 1);
    }

    /// The number of liberties of the level-group of the stone at `level` (from 1) on `node`:
    /// stones of its colour at that level in cells joined through adjacent cells, and as
    /// liberties the distinct adjacent cells with nothing at that level (BeSiege rule 14; at
    /// level 1 this is Go's group and liberties). 0 if there is no such stone. Kept up to date
    /// with every change (`reach.rs`).
    pub fn liberties_at(&self, node: NodeId, level: u8) -> u32 {
        let i = node as usize;
        if level == 0 || self.height.get(i).is_none_or(|&h| h < level) {
            return 0;
        }
        self.reach.libs.get((level as usize - 1) * self.map.len() + i).copied().unwrap_or(0)
    }

    /// The nodes of the level-group of the stone at `level` on `node` (for views and tests).
    pub fn group_at(&self, node: NodeId, level: u8) -> Vec<NodeId> {
        let i = node as usize;
        if level == 0 || self.height[i] < level {
            return Vec::new();
        }
        let colour = self.colour[i];
        let mut seen = vec![false; self.map.len()];
        let mut out = vec![node];
        seen[i] = true;
        let mut k = 0;
        while k < out.len() {
            let v = out[k];
            k += 1;
            for &w in self.map.neighbors(v) {
                let j = w as usize;
                if !seen[j] && self.height[j] >= level && self.colour[j] == colour {
                    seen[j] = true;
                    out.push(w);
                }
            }
        }
        out.sort_unstable();
        out
    }

    /// How far the top `count` stones of `node` move: the liberties of the lowest moving
    /// stone's level-group (BeSiege rule 13; TWoG rule 11 for single stones).
    pub fn range(&self, node: NodeId, count: u8) -> u32 {
        let h = self.height(node);
        if count == 0 || count > h {
            return 0;
        }
        self.liberties_at(node, h - count + 1)
    }

    /// The node exactly `distance` steps from `from` along direction `dir`, with the direction
    /// the line continues in there; `None` if the line ends first.
    pub fn walk(&self, from: NodeId, dir: Direction, distance: u32) -> Option<(NodeId, Direction)> {
        self.lines()?.walk(from, dir, distance)
    }

    pub fn directions(&self) -> u8 {
        self.lines().map_or(0, Lines::directions)
    }

    /// Every straight move of the top `count` stones of `from`, whatever lands there (moves
    /// that end on their own start, TWoG A9, are left out).
    pub fn steps(&self, from: NodeId, count: u8, mut each: impl FnMut(Step)) {
        let range = self.range(from, count);
        if range == 0 {
            return;
        }
        for dir in 0..self.directions() {
            if let Some(step) = self.step_along(from, count, dir, range) {
                each(step);
            }
        }
    }

    /// The straight move of the top `count` stones of `from` in direction `dir`, whose range
    /// is `range`, if the line is that long and does not come back to `from`.
    pub fn step_along(&self, from: NodeId, count: u8, dir: Direction, range: u32) -> Option<Step> {
        let (to, dir_at_to) = self.walk(from, dir, range)?;
        (to != from).then_some(Step { from, count, dir, to, dir_at_to })
    }

    /// What a move of `colour`'s stones ending on `step.to` does, or `None` if it may not end
    /// there (an own piece without stacking or a workable push).
    pub fn landing(&self, colour: Colour, step: &Step, stacks: bool, push: bool) -> Option<Landing> {
        match self.colour(step.to) {
            None => Some(Landing::Empty),
            Some(c) if c != colour => Some(Landing::Capture),
            Some(_) if stacks => (self.height(step.to) as u32 + step.count as u32 <= MAX_HEIGHT as u32)
                .then_some(Landing::Stack),
            Some(_) if push => {
                let (beyond, _) = self.lines()?.step(step.to, step.dir_at_to)?;
                match self.colour(beyond) {
                    None => Some(Landing::Push),
                    Some(c) if c != colour => Some(Landing::PushCapture),
                    Some(_) => None,
                }
            }
            Some(_) => None,
        }
    }

    /// Every move of `colour`'s stacks with its landing: the top `count` stones of each stack
    /// (any count when `stacks`, else single stones), every direction, every workable landing.
    pub fn moves(&self, colour: Colour, stacks: bool, push: bool, mut each: impl FnMut(Step, Landing)) {
        for from in self.map.nodes() {
            if self.colour(from) != Some(colour) {
                continue;
            }
            let max = if stacks { self.height(from) } else { 1 };
            for count in 1..=max {
                self.steps(from, count, |s| {
                    if let Some(l) = self.landing(colour, &s, stacks, push) {
                        each(s, l);
                    }
                });
            }
        }
    }

    /// The enemy stones a move landing so removes (as [`StackBoard::apply`] counts them): none
    /// unless it captures.
    pub fn removed_by(&self, step: &Step, landing: Landing) -> u32 {
        match landing {
            Landing::Capture => step.count.min(self.height(step.to)) as u32,
            Landing::PushCapture => 1,
            Landing::Empty | Landing::Stack | Landing::Push => 0,
        }
    }

    /// Carries out a move already checked by [`StackBoard::landing`]; returns the enemy stones
    /// removed and the mover's own stones lost.
    pub fn apply(&mut self, colour: Colour, step: &Step, landing: Landing) -> (u32, u32) {
        let k = step.count;
        let h = self.height(step.from);
        self.set(step.from, Some(colour), h - k);
        match landing {
            Landing::Empty => {
                self.set(step.to, Some(colour), k);
                (0, 0)
            }
            Landing::Stack => {
                let t = self.height(step.to);
                self.set(step.to, Some(colour), t + k);
                (0, 0)
            }
            Landing::Capture => {
                // The difference of the two stacks remains (BeSiege rule 17; 1 against 1 in
                // TWoG: both gone, the sacrifice).
                let b = self.height(step.to);
                let enemy = colour.other();
                let removed = k.min(b);
                if k > b {
                    self.set(step.to, Some(colour), k - b);
                } else {
                    self.set(step.to, Some(enemy), b - k);
                }
                (removed as u32, removed as u32)
            }
            Landing::Push | Landing::PushCapture => {
                let Some((beyond, _)) = self.lines().and_then(|l| l.step(step.to, step.dir_at_to)) else {
                    return (0, 0);
                };
                let pushed = self.height(step.to);
                self.set(step.to, Some(colour), k);
                if landing == Landing::Push {
                    self.set(beyond, Some(colour), pushed);
                    (0, 0)
                } else {
                    // The pushed piece captures what it lands on and is sacrificed.
                    self.set(beyond, None, 0);
                    (1, 1)
                }
            }
        }
    }

    /// The stacks as `(node, colour, height)`, for setups and views.
    pub fn stacks(&self) -> impl Iterator<Item = (NodeId, Colour, u8)> + '_ {
        self.map.nodes().filter_map(|n| self.colour(n).map(|c| (n, c, self.height(n))))
    }

    /// Places a stack directly (setups and tests), replacing what was there.
    pub fn put(&mut self, node: NodeId, colour: Colour, height: u8) {
        self.set(node, Some(colour), height);
    }
}
