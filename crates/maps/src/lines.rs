//! Straight lines through a map, and walks of many steps along them in one lookup.
//!
//! The Way of Go and BeSiege move a stack exactly as far as its group has liberties, so their
//! search walks lines of several steps millions of times a second (`docs/bots.md`, "The Way of
//! Go and BeSiege"). A walk is a chain of dependent loads; the jump table, built the first time a
//! walk is asked for, makes a walk of up to [`JumpTable::MAX_HOP`] steps one load.

use std::{fmt, sync::OnceLock};

use crate::{Direction, NodeId};

/// Straight lines through the map: for each node and direction, the next node along the line and
/// the direction in which the line continues from there (it changes, e.g., across a cube edge).
#[derive(Debug, Clone)]
pub struct Lines {
    directions: u8,
    next_node: Vec<NodeId>,
    next_dir: Vec<Direction>,
    /// Built on the first [`Lines::walk`]: maps whose lines are never walked (every classic
    /// game's) do not pay for it.
    jumps: OnceLock<JumpTable>,
}

/// Equal lines lead to the same nodes; the jump table follows from them.
impl PartialEq for Lines {
    fn eq(&self, other: &Lines) -> bool {
        (self.directions, &self.next_node, &self.next_dir)
            == (other.directions, &other.next_node, &other.next_dir)
    }
}

impl Eq for Lines {}

const NONE: NodeId = NodeId::MAX;

impl Lines {
    /// A table with `directions` directions per node and no steps yet.
    pub fn new(nodes: usize, directions: u8) -> Lines {
        let cells = nodes * directions as usize;
        Lines { directions, next_node: vec![NONE; cells], next_dir: vec![0; cells], jumps: OnceLock::new() }
    }

    /// Records that from `node`, going in `dir`, the line reaches `to`, continuing in `to_dir`.
    pub fn set(&mut self, node: NodeId, dir: Direction, to: NodeId, to_dir: Direction) {
        let i = node as usize * self.directions as usize + dir as usize;
        self.next_node[i] = to;
        self.next_dir[i] = to_dir;
        self.jumps = OnceLock::new();
    }

    pub fn directions(&self) -> u8 {
        self.directions
    }

    /// Node-direction cells in the table (nodes × directions), for validation.
    pub(crate) fn cells(&self) -> usize {
        self.next_node.len()
    }

    /// The most heap bytes the table of walks ([`Lines::walk`]) takes once built: memory
    /// budgets count it with the map.
    pub fn walk_table_bytes(&self) -> usize {
        let entries = (self.next_node.len() * JumpTable::MAX_HOP as usize)
            .min(JumpTable::MAX_ENTRIES.max(self.next_node.len()));
        entries * (std::mem::size_of::<NodeId>() + std::mem::size_of::<Direction>())
    }

    /// The next node along the line, or `None` at the end of the line (an edge of the board).
    #[inline]
    pub fn step(&self, node: NodeId, dir: Direction) -> Option<(NodeId, Direction)> {
        if dir >= self.directions {
            return None;
        }
        let i = node as usize * self.directions as usize + dir as usize;
        match self.next_node.get(i) {
            Some(&n) if n != NONE => Some((n, self.next_dir[i])),
            _ => None,
        }
    }

    /// The node exactly `distance` steps from `node` along direction `dir`, with the direction
    /// the line continues in there; `None` if the line ends first. The same as `distance` calls
    /// of [`Lines::step`], in one lookup per [`JumpTable::MAX_HOP`] steps.
    #[inline]
    pub fn walk(&self, node: NodeId, dir: Direction, distance: u32) -> Option<(NodeId, Direction)> {
        if dir >= self.directions || node as usize * self.directions as usize >= self.next_node.len() {
            return None;
        }
        let jumps = self.jumps.get_or_init(|| JumpTable::build(self));
        let (mut node, mut dir, mut left) = (node, dir, distance);
        while left > 0 {
            let hop = left.min(jumps.hop);
            let i = ((node as usize * self.directions as usize + dir as usize) * jumps.hop as usize)
                + (hop as usize - 1);
            let to = jumps.node[i];
            if to == NONE {
                return None;
            }
            (node, dir) = (to, jumps.dir[i]);
            left -= hop;
        }
        Some((node, dir))
    }
}

/// For each node, direction and distance `1..=hop`, where the line leads.
#[derive(Clone)]
struct JumpTable {
    /// The longest walk one lookup makes: the longest line's length, at most
    /// [`JumpTable::MAX_HOP`], and less on maps so big that the table would pass
    /// [`JumpTable::MAX_ENTRIES`].
    hop: u32,
    node: Vec<NodeId>,
    dir: Vec<Direction>,
}

impl fmt::Debug for JumpTable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "JumpTable {{ hop: {}, entries: {} }}", self.hop, self.node.len())
    }
}

impl JumpTable {
    const MAX_HOP: u32 = 32;
    /// About 2.5 MB (a node and a direction per entry).
    const MAX_ENTRIES: usize = 1 << 19;

    fn build(lines: &Lines) -> JumpTable {
        let cells = lines.next_node.len();
        let hop = Self::longest_line(lines)
            .clamp(1, Self::MAX_HOP)
            .min((Self::MAX_ENTRIES / cells.max(1)).max(1) as u32);
        let mut node = vec![NONE; cells * hop as usize];
        let mut dir = vec![0; cells * hop as usize];
        for cell in 0..cells {
            let d = (cell % lines.directions as usize) as Direction;
            let mut at = Some(((cell / lines.directions as usize) as NodeId, d));
            for k in 0..hop as usize {
                at = at.and_then(|(v, d)| lines.step(v, d));
                let Some((v, d)) = at else { break };
                node[cell * hop as usize + k] = v;
                dir[cell * hop as usize + k] = d;
            }
        }
        JumpTable { hop, node, dir }
    }

    /// The most steps any line goes on for, up to one more than [`JumpTable::MAX_HOP`] (lines
    /// that close on themselves go on for ever).
    fn longest_line(lines: &Lines) -> u32 {
        let mut longest = 0;
        for cell in 0..lines.next_node.len() {
            let d = (cell % lines.directions as usize) as Direction;
            let mut at = ((cell / lines.directions as usize) as NodeId, d);
            let mut steps = 0;
            while steps <= Self::MAX_HOP
                && let Some(next) = lines.step(at.0, at.1)
            {
                at = next;
                steps += 1;
            }
            longest = longest.max(steps);
            if longest > Self::MAX_HOP {
                break;
            }
        }
        longest
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use crate::generate;

    /// A walk of any length ends where as many single steps do, on maps with edges, lines that
    /// close on themselves (torus) and lines that turn (cube), past the table's longest hop.
    #[test]
    fn a_walk_is_its_steps() {
        for spec in [
            "square:13",
            "torus:7",
            "cube:4",
            "hex:5",
            "rect:40x3",
            "grid:4x4x4",
            "klein:5x4",
            "cylinder:6x3",
        ] {
            let map = generate(spec).unwrap();
            let lines = map.lines().unwrap();
            for node in map.nodes() {
                for dir in 0..lines.directions() {
                    let mut at = Some((node, dir));
                    for distance in 0..80 {
                        assert_eq!(lines.walk(node, dir, distance), at, "{spec}: {node} {dir} {distance}");
                        at = at.and_then(|(v, d)| lines.step(v, d));
                    }
                }
            }
            assert_eq!(lines.walk(0, lines.directions(), 1), None, "{spec}: no such direction");
            let table = lines.jumps.get().unwrap();
            assert!(table.node.len() * 5 <= lines.walk_table_bytes(), "{spec}: {table:?}");
            assert_eq!(lines.walk(map.len() as u32, 0, 1), None, "{spec}: no such node");
        }
    }

    /// The table stays within its bound on a big map (a shorter hop), and walks there still
    /// end where their steps do.
    #[test]
    fn the_table_is_bounded() {
        let map = generate("grid:40x40x40").unwrap();
        let lines = map.lines().unwrap();
        for (node, dir, distance) in [(0, 0, 39), (0, 1, 39), (5, 2, 30), (63_999, 1, 39), (1_000, 4, 17)] {
            let mut at = Some((node, dir));
            for _ in 0..distance {
                at = at.and_then(|(v, d)| lines.step(v, d));
            }
            assert_eq!(lines.walk(node, dir, distance), at, "{node} {dir} {distance}");
            assert_eq!(lines.walk(node, dir, 40), None, "{node} {dir}: off the edge");
        }
        let table = lines.jumps.get().unwrap();
        assert!(table.node.len() <= super::JumpTable::MAX_ENTRIES, "{table:?}");
        assert!(table.node.len() * 5 <= lines.walk_table_bytes(), "{table:?}");
        assert!(table.hop < 39, "{table:?}: the bound shortened the hop");
    }
}
