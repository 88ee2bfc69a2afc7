//! A move's shape for the pattern model: the stones around it, counted by kind or, where the
//! map orders a node's neighbourhood, oriented (docs/bots.md, "Learned move patterns").

use gobeyond_maps::NodeId;
use gobeyond_rules::{
    Board, Player,
    board::EMPTY,
    playout::{OFF_MAP, PlayoutTables},
};

/// A move's shape. For a model with oriented shapes (version 2), where the map orders a node's
/// neighbourhood in eight slots
/// ([`PlayoutTables::cycle`]: the 3×3 block on a square grid) it is the colours around the node
/// in that order, up to rotation and reflection (*oriented*, text `o8:...#####`: own `O`, enemy
/// `X`, empty `.`, off the map `#`, from a neighbour on); elsewhere (hex cells, the honeycomb,
/// spheres) the neighbours and the shape ring counted by kind — own, enemy, empty, missing (the map's
/// most minus this node's) — packed 4 bits a count (text `0130/0040`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ShapeKey(pub u64);

/// Neighbourhoods of up to this many slots get oriented keys: the 3×3 block of square grids (and
/// tori, cylinders, cube faces). A hex grid's twelve slots make too many shapes for the records
/// there are (9,903 from 30 hex games, and held-out moves predicted no better than by counts:
/// docs/benchmarks.md), so hex cells and the triangular lattice keep counts.
const MAX_ORIENTED_SLOTS: usize = 8;

/// Marks an oriented key; its slot count sits under it, its slots (2 bits each, the first
/// highest, so that keys sort as their texts) below.
const ORIENTED: u64 = 1 << 63;
const SLOT_CHARS: [char; 4] = ['.', 'O', 'X', '#'];

impl ShapeKey {
    pub fn text(self) -> String {
        if self.0 & ORIENTED != 0 {
            let len = ((self.0 >> 48) & 63) as usize;
            let slot = |i: usize| SLOT_CHARS[((self.0 >> (2 * (len - 1 - i))) & 3) as usize];
            let slots: String = (0..len).map(slot).collect();
            return format!("o{len}:{slots}");
        }
        let c = |i: u32| (self.0 >> (4 * i)) & 15;
        format!("{}{}{}{}/{}{}{}{}", c(0), c(1), c(2), c(3), c(4), c(5), c(6), c(7))
    }

    pub fn parse(s: &str) -> Option<ShapeKey> {
        if let Some(rest) = s.strip_prefix('o') {
            let (len, slots) = rest.split_once(':')?;
            let len: usize = len.parse().ok()?;
            let codes: Vec<u8> = slots
                .chars()
                .map(|c| SLOT_CHARS.iter().position(|&k| k == c).map(|i| i as u8))
                .collect::<Option<_>>()?;
            return (codes.len() == len && len.is_multiple_of(2) && (2..=24).contains(&len))
                .then(|| oriented_key(&codes));
        }
        let digits: Vec<u64> =
            s.chars().filter(|c| *c != '/').map(|c| c.to_digit(16).map(u64::from)).collect::<Option<_>>()?;
        (digits.len() == 8 && s.len() == 9)
            .then(|| ShapeKey(digits.iter().enumerate().map(|(i, d)| d << (4 * i)).sum()))
    }
}

/// The oriented key of slot codes (0 empty, 1 own, 2 enemy, 3 off the map) read around a node,
/// a neighbour first: the least over the rotations that keep neighbours on even slots and the
/// reflections.
fn oriented_key(codes: &[u8]) -> ShapeKey {
    let len = codes.len();
    let mut best = u64::MAX;
    for start in (0..len).step_by(2) {
        let (mut forward, mut backward) = (0u64, 0u64);
        for i in 0..len {
            forward = forward << 2 | u64::from(codes[(start + i) % len]);
            backward = backward << 2 | u64::from(codes[(start + len - i) % len]);
        }
        best = best.min(forward).min(backward);
    }
    ShapeKey(ORIENTED | (len as u64) << 48 | best)
}

/// The shape around `node` for `player`, oriented where the map allows if `oriented` (the
/// model's [`Model::oriented`]): cheap enough for playouts.
#[inline]
pub fn shape(
    board: &Board,
    tables: &PlayoutTables,
    node: NodeId,
    player: Player,
    oriented: bool,
) -> ShapeKey {
    let own = player.stone();
    let code = |c: u8| {
        if c == EMPTY {
            0
        } else if c == own {
            1
        } else {
            2
        }
    };
    let cycle = tables.cycle(node);
    if oriented && !cycle.is_empty() && cycle.len() <= MAX_ORIENTED_SLOTS {
        let mut codes = [0u8; MAX_ORIENTED_SLOTS];
        for (slot, &q) in codes.iter_mut().zip(cycle) {
            *slot = if q == OFF_MAP { 3 } else { code(board.color(q)) };
        }
        return oriented_key(&codes[..cycle.len()]);
    }
    // Counted as own, enemy, empty.
    let kind = |q: NodeId| (code(board.color(q)) as usize + 2) % 3;
    let map = board.map();
    let mut counts = [0u64; 8];
    for &q in map.neighbors(node) {
        counts[kind(q)] += 1;
    }
    let ring = tables.ring(node);
    for &q in ring {
        counts[4 + kind(q)] += 1;
    }
    counts[3] = (map.max_degree() - map.degree(node)) as u64;
    counts[7] = tables.max_ring().saturating_sub(ring.len()) as u64;
    ShapeKey(counts.iter().enumerate().map(|(i, &c)| c.min(15) << (4 * i)).sum())
}
