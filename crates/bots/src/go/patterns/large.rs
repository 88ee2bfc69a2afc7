//! Large shapes: the 5×5 block around a move, up to rotation and reflection, as Pachi's spatial
//! patterns are (docs/bots.md, "Large shapes"). The 3×3 shape tells a hane from a cut; the 5×5
//! one also sees the stones a knight's move and two lines away, which is where most opening and
//! fighting shape lives. Fitted on 9-dan games they predict more of their moves, and with
//! their weights held within 1/10 to 10 the big-board model won 15 of 20 19×19 self-play games
//! against the one without (docs/benchmarks.md, "19×19: large shapes").
//!
//! The block is read from the map's graph, not from coordinates, so it means the same on a
//! square grid, a torus or a cylinder: the inner ring is the node's shape cycle
//! ([`PlayoutTables::cycle`], its 8 neighbours and diagonals in order), the outer ring the 16
//! points beyond it — the straight point past each neighbour, the two knight's-move points
//! beside each diagonal and the corner between them. Nodes whose neighbourhood is no such grid
//! (hex cells, the cube's corners) have no large shape.

use gobeyond_maps::{Map, NodeId};
use gobeyond_rules::{
    Board, Player,
    board::EMPTY,
    playout::{OFF_MAP, PlayoutTables},
};

/// Slots of the inner ring (neighbours and diagonals) and of the outer ring.
const INNER: usize = 8;
const OUTER: usize = 16;
const SLOT_CHARS: [char; 4] = ['.', 'O', 'X', '#'];

/// A large shape: 24 slots of 2 bits (empty, own, enemy, off the map), the inner ring's highest
/// so that keys sort as their texts, the least reading over the square's eight symmetries.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct LargeKey(pub u64);

impl LargeKey {
    /// `inner:outer`, e.g. `O.......:X...............`: own `O`, enemy `X`, empty `.`, off the
    /// map `#`, each ring from a neighbour (its straight point) on.
    pub fn text(self) -> String {
        let slot = |i: usize| SLOT_CHARS[((self.0 >> (2 * (INNER + OUTER - 1 - i))) & 3) as usize];
        let inner: String = (0..INNER).map(slot).collect();
        let outer: String = (INNER..INNER + OUTER).map(slot).collect();
        format!("{inner}:{outer}")
    }

    /// The key of a text written by [`LargeKey::text`]; `None` for anything else, a reading that
    /// is not the least of its symmetries included.
    pub fn parse(s: &str) -> Option<LargeKey> {
        let (inner, outer) = s.split_once(':')?;
        let code = |c: char| SLOT_CHARS.iter().position(|&k| k == c).map(|i| i as u8);
        let inner: Vec<u8> = inner.chars().map(code).collect::<Option<_>>()?;
        let outer: Vec<u8> = outer.chars().map(code).collect::<Option<_>>()?;
        let (inner, outer): ([u8; INNER], [u8; OUTER]) = (inner.try_into().ok()?, outer.try_into().ok()?);
        let key = canonical(&inner, &outer);
        (key.text() == s).then_some(key)
    }
}

/// The least key over the rotations (a quarter turn moves the inner ring 2 slots, the outer 4)
/// and reflections.
fn canonical(inner: &[u8; INNER], outer: &[u8; OUTER]) -> LargeKey {
    let mut best = u64::MAX;
    for start in (0..INNER).step_by(2) {
        for forward in [true, false] {
            let turn =
                |i: usize, len: usize, at: usize| if forward { (at + i) % len } else { (at + len - i) % len };
            let mut key = 0u64;
            for i in 0..INNER {
                key = key << 2 | u64::from(inner[turn(i, INNER, start)]);
            }
            for i in 0..OUTER {
                key = key << 2 | u64::from(outer[turn(i, OUTER, 2 * start)]);
            }
            best = best.min(key);
        }
    }
    LargeKey(best)
}

/// Every node's outer ring, or none where the map is no grid there.
#[derive(Debug, Clone, Default)]
pub struct OuterRings {
    /// Per node, its 16 outer points ([`OFF_MAP`] beyond the edge), or `None`.
    rings: Vec<Option<[NodeId; OUTER]>>,
}

impl OuterRings {
    pub fn new(map: &Map, tables: &PlayoutTables) -> OuterRings {
        OuterRings { rings: map.nodes().map(|p| outer_ring(map, tables, p)).collect() }
    }

    pub fn get(&self, node: NodeId) -> Option<&[NodeId; OUTER]> {
        self.rings.get(node as usize).and_then(Option::as_ref)
    }
}

/// The points of `q` beyond `p`'s 3×3 block: its neighbours that are neither `p` nor in `cycle`.
fn beyond(map: &Map, p: NodeId, cycle: &[NodeId], q: NodeId) -> impl Iterator<Item = NodeId> {
    map.neighbors(q).iter().copied().filter(move |&r| r != p && !cycle.contains(&r))
}

/// `p`'s outer ring: for each neighbour slot `2k` of its cycle, the straight point past it (slot
/// `4k`), then for the diagonal after it the knight's point beside that straight point (`4k+1`),
/// the corner (`4k+2`) and the knight's point beside the next straight point (`4k+3`).
fn outer_ring(map: &Map, tables: &PlayoutTables, p: NodeId) -> Option<[NodeId; OUTER]> {
    let cycle = tables.cycle(p);
    if cycle.len() != INNER {
        return None;
    }
    let mut ring = [OFF_MAP; OUTER];
    for k in 0..4 {
        let n = cycle[2 * k];
        if n == OFF_MAP {
            continue;
        }
        let mut past = beyond(map, p, cycle, n);
        let straight = past.next();
        if past.next().is_some() {
            return None;
        }
        ring[4 * k] = straight.unwrap_or(OFF_MAP);
    }
    for k in 0..4 {
        let d = cycle[2 * k + 1];
        if d == OFF_MAP {
            continue;
        }
        let (here, next) = (ring[4 * k], ring[(4 * k + 4) % OUTER]);
        for r in beyond(map, p, cycle, d) {
            let slot = match (
                here != OFF_MAP && map.are_adjacent(r, here),
                next != OFF_MAP && map.are_adjacent(r, next),
            ) {
                (true, false) => 4 * k + 1,
                (false, true) => 4 * k + 3,
                // Beside both straight points, or beside neither: no grid here.
                _ => return None,
            };
            if ring[slot] != OFF_MAP || ring.contains(&r) {
                return None;
            }
            ring[slot] = r;
        }
        let (a, b) = (ring[4 * k + 1], ring[4 * k + 3]);
        if a != OFF_MAP && b != OFF_MAP {
            let mut corners = beyond(map, p, cycle, a).filter(|&c| c != d && map.are_adjacent(c, b));
            let corner = corners.next();
            if corners.next().is_some() {
                return None;
            }
            ring[4 * k + 2] = corner.unwrap_or(OFF_MAP);
        }
    }
    Some(ring)
}

/// The large shape around `node` for `player`, where the map is a grid there.
pub fn large_shape(
    board: &Board,
    tables: &PlayoutTables,
    rings: &OuterRings,
    node: NodeId,
    player: Player,
) -> Option<LargeKey> {
    let outer_points = rings.get(node)?;
    let own = player.stone();
    let code = |q: NodeId| {
        if q == OFF_MAP {
            return 3;
        }
        match board.color(q) {
            EMPTY => 0,
            c if c == own => 1,
            _ => 2,
        }
    };
    let mut inner = [0u8; INNER];
    for (slot, &q) in inner.iter_mut().zip(tables.cycle(node)) {
        *slot = code(q);
    }
    let mut outer = [0u8; OUTER];
    for (slot, &q) in outer.iter_mut().zip(outer_points) {
        *slot = code(q);
    }
    Some(canonical(&inner, &outer))
}
