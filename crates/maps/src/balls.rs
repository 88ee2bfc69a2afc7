//! The nodes within a few steps of each node, ring by ring.
//!
//! Tribal Go lets a stone go only within a range of the player's stones, counted in steps along
//! the map (stones do not block). Its board keeps, per node, how many of a player's stones lie at
//! each distance up to the range (`docs/bots.md`, "Tribal Go"): placing or removing a stone
//! updates the nodes of its ball, which this table lists, so a range check is one load.

use crate::{Map, NodeId};

/// For every node, the nodes at distance `0..=RADIUS` from it along the map, nearest first, with
/// where each ring ends.
#[derive(Debug, Clone)]
pub struct Balls {
    /// Per node, the index in `nodes` where its ball starts (one more entry at the end).
    start: Vec<u32>,
    /// Per node and ring `d` (`0..=RADIUS`): the index in `nodes` where ring `d` ends.
    ring_end: Vec<u32>,
    nodes: Vec<NodeId>,
}

impl Balls {
    /// The largest distance listed: the dice's 6 and a card's one step more.
    pub const RADIUS: u32 = 7;
    /// The most nodes one ring may hold: counts of nodes at one distance fit in a byte.
    pub const MAX_RING: usize = 254;
    /// About 4 MB of node ids: maps whose balls are bigger (large 3-D and N-dimensional grids)
    /// get no table, and their range is searched.
    pub const MAX_ENTRIES: usize = 1 << 20;

    /// The table, or `None` if the map's balls are too big for it (see [`Balls::MAX_ENTRIES`] and
    /// [`Balls::MAX_RING`]).
    pub fn build(map: &Map) -> Option<Balls> {
        let n = map.len();
        let rings = Self::RADIUS as usize + 1;
        let mut balls = Balls {
            start: Vec::with_capacity(n + 1),
            ring_end: Vec::with_capacity(n * rings),
            nodes: Vec::new(),
        };
        // Distances from the current centre, reset after each ball (only its nodes were set).
        let mut seen = vec![false; n];
        for centre in map.nodes() {
            balls.start.push(balls.nodes.len() as u32);
            let ball_start = balls.nodes.len();
            seen[centre as usize] = true;
            balls.nodes.push(centre);
            balls.ring_end.push(balls.nodes.len() as u32);
            let mut ring_start = ball_start;
            for _ in 1..rings {
                let ring_stop = balls.nodes.len();
                for i in ring_start..ring_stop {
                    for &w in map.neighbors(balls.nodes[i]) {
                        if !seen[w as usize] {
                            seen[w as usize] = true;
                            balls.nodes.push(w);
                        }
                    }
                }
                if balls.nodes.len() - ring_stop > Self::MAX_RING || balls.nodes.len() > Self::MAX_ENTRIES {
                    return None;
                }
                ring_start = ring_stop;
                balls.ring_end.push(balls.nodes.len() as u32);
            }
            for &v in &balls.nodes[ball_start..] {
                seen[v as usize] = false;
            }
        }
        balls.start.push(balls.nodes.len() as u32);
        Some(balls)
    }

    /// The nodes at exactly `distance` steps from `node` (`distance` at most [`Balls::RADIUS`]).
    #[inline]
    pub fn ring(&self, node: NodeId, distance: u32) -> &[NodeId] {
        let rings = Self::RADIUS as usize + 1;
        let i = node as usize * rings + distance as usize;
        let from = if distance == 0 { self.start[node as usize] } else { self.ring_end[i - 1] };
        &self.nodes[from as usize..self.ring_end[i] as usize]
    }

    /// The heap bytes this table takes.
    pub fn bytes(&self) -> usize {
        (self.start.len() + self.ring_end.len()) * 4 + self.nodes.len() * std::mem::size_of::<NodeId>()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate;

    /// Every ring holds exactly the nodes at that breadth-first distance.
    #[test]
    fn rings_are_the_nodes_at_each_distance() {
        for spec in ["square:9", "hex:4", "honeycomb:3", "torus:7", "cube:3", "goldberg:2,1", "grid:4x4x4"] {
            let map = generate(spec).unwrap();
            let balls = Balls::build(&map).unwrap_or_else(|| panic!("{spec}: no table"));
            for v in map.nodes() {
                let dist = map.distances_from(v);
                for d in 0..=Balls::RADIUS {
                    let mut ring = balls.ring(v, d).to_vec();
                    ring.sort_unstable();
                    let expected: Vec<NodeId> = map.nodes().filter(|&w| dist[w as usize] == d).collect();
                    assert_eq!(ring, expected, "{spec}: node {v}, distance {d}");
                }
            }
        }
    }

    /// Maps whose balls would pass the bounds get no table.
    #[test]
    fn the_table_is_bounded() {
        // 14,641 nodes, rings of up to ~500 nodes at distance 7 in four dimensions.
        let map = generate("grid:11x11x11x11").unwrap();
        assert!(Balls::build(&map).is_none());
        let map = generate("square:19").unwrap();
        let balls = Balls::build(&map).unwrap();
        assert_eq!(balls.ring(180, 7).len(), 28);
    }
}
