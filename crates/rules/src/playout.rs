//! Light random playouts: uniformly random legal moves that never fill the mover's own eye.
//!
//! The eye test works on any graph. A node is an eye of colour `c` when every neighbour is a
//! stone of `c` and not too many of its *diagonals* hold other players' stones. Diagonals are
//! defined from the graph alone: `d` is a diagonal of `p` when `d` is at distance 2 and `p` and
//! `d` share two neighbours that are not adjacent to each other (opposite corners of a chordless
//! 4-cycle). On the square grid these are the usual four diagonal points; on the triangular and
//! hexagonal-cell lattices there are none (every pair of common neighbours is adjacent), so there
//! all-own neighbours make an eye. The number of foreign diagonals tolerated is a quarter of the
//! node's diagonals, rounded down: 1 of 4 in the middle of a square board, 0 on its edge. On a
//! node without diagonals no neighbouring group may have the node as its only liberty: that is a
//! false eye the opponent captures in, which its owner should fill to connect — without this,
//! playouts on the honeycomb (three separate stones around most points) hardly ever ended
//! (docs/rules/classic.md, "Light playouts").

use gobeyond_maps::{Map, NodeId};

use crate::{Board, Player, Rng, SuicideRule, board::EMPTY};

/// Per-map tables for playouts (diagonals and the shape ring), built once and shared.
#[derive(Debug, Clone)]
pub struct PlayoutTables {
    offsets: Vec<u32>,
    diagonals: Vec<NodeId>,
    /// The most diagonals any node has (4 on a square grid, none on a hex grid).
    max_diagonals: usize,
    ring_offsets: Vec<u32>,
    ring: Vec<NodeId>,
    max_ring: usize,
}

impl PlayoutTables {
    pub fn new(map: &Map) -> PlayoutTables {
        let mut offsets = Vec::with_capacity(map.len() + 1);
        let mut diagonals = Vec::new();
        offsets.push(0);
        let mut common = Vec::new();
        for p in map.nodes() {
            let mut candidates = second_shell(map, p);
            candidates.dedup();
            for d in candidates {
                common.clear();
                common.extend(map.neighbors(p).iter().copied().filter(|&q| map.are_adjacent(q, d)));
                let open_corner = common
                    .iter()
                    .enumerate()
                    .any(|(i, &a)| common[i + 1..].iter().any(|&b| !map.are_adjacent(a, b)));
                if open_corner {
                    diagonals.push(d);
                }
            }
            offsets.push(diagonals.len() as u32);
        }
        let max_diagonals = offsets.windows(2).map(|w| (w[1] - w[0]) as usize).max().unwrap_or(0);
        let (ring_offsets, ring) =
            if max_diagonals > 0 { (offsets.clone(), diagonals.clone()) } else { bridge_points(map) };
        let max_ring = ring_offsets.windows(2).map(|w| (w[1] - w[0]) as usize).max().unwrap_or(0);
        PlayoutTables { offsets, diagonals, max_diagonals, ring_offsets, ring, max_ring }
    }

    /// The shape ring of `node`: the points around its neighbours that a move's shape looks at
    /// besides them. Its diagonals on maps that have some; on maps without any (hex cells, the
    /// triangular lattice, Goldberg spheres) the *bridge points*, two steps away through two
    /// common neighbours, which make the two-way connection of those maps' shapes.
    #[inline]
    pub fn ring(&self, node: NodeId) -> &[NodeId] {
        &self.ring[self.ring_offsets[node as usize] as usize..self.ring_offsets[node as usize + 1] as usize]
    }

    /// The largest shape ring of the map.
    pub fn max_ring(&self) -> usize {
        self.max_ring
    }

    /// The most graph diagonals any node of the map has.
    pub fn max_diagonals(&self) -> usize {
        self.max_diagonals
    }

    /// Nodes of the map the tables were built for.
    pub fn len(&self) -> usize {
        self.offsets.len() - 1
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    #[inline]
    pub fn diagonals(&self, node: NodeId) -> &[NodeId] {
        &self.diagonals[self.offsets[node as usize] as usize..self.offsets[node as usize + 1] as usize]
    }
}

/// The points two steps from `p`, sorted, each as many times as it has neighbours in common
/// with `p`.
fn second_shell(map: &Map, p: NodeId) -> Vec<NodeId> {
    let mut second: Vec<NodeId> = map
        .neighbors(p)
        .iter()
        .flat_map(|&q| map.neighbors(q).iter().copied())
        .filter(|&d| d != p && !map.are_adjacent(p, d))
        .collect();
    second.sort_unstable();
    second
}

/// Per node, the points two steps away that share two or more neighbours with it (offsets, points).
fn bridge_points(map: &Map) -> (Vec<u32>, Vec<NodeId>) {
    let mut offsets = Vec::with_capacity(map.len() + 1);
    let mut points = Vec::new();
    offsets.push(0);
    for p in map.nodes() {
        let second = second_shell(map, p);
        // A point reached through two neighbours appears twice (or more) in the sorted list.
        let mut i = 0;
        while i < second.len() {
            let j = second[i..].iter().take_while(|&&d| d == second[i]).count();
            if j >= 2 {
                points.push(second[i]);
            }
            i += j;
        }
        offsets.push(points.len() as u32);
    }
    (offsets, points)
}

/// True when `node` is an eye of colour code `stone` (see the module notes).
#[inline]
pub fn is_eye(board: &Board, tables: &PlayoutTables, node: NodeId, stone: u8) -> bool {
    if !board.surrounded_by(node, stone) {
        return false;
    }
    let diag = tables.diagonals(node);
    // One count per diagonal, without a branch: which ones are foreign is a coin toss in playouts.
    let foreign: usize = diag
        .iter()
        .map(|&d| {
            let c = board.color(d);
            (c != EMPTY && c != stone) as usize
        })
        .sum();
    if foreign > diag.len() / 4 {
        return false;
    }
    // Without diagonals (the honeycomb, irregular graphs) nothing says the stones around are
    // connected: a neighbouring group whose last liberty is this point makes it a false eye, to
    // be filled (if that is legal at all) before the opponent captures there. Where diagonals
    // exist their rule already covers false eyes, and square-board playouts stay libego's.
    !diag.is_empty() || !board.map().neighbors(node).iter().any(|&q| board.only_liberty_is(q, node))
}

/// What a playout did.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct PlayoutStats {
    /// Actions played, passes included.
    pub moves: u32,
    /// True if it stopped at `max_moves` rather than on consecutive passes.
    pub truncated: bool,
}

/// Plays random moves from `board`, `first` to move, among `players`, until every player passes
/// in a row (a player passes when no legal non-eye move is left) or `max_moves` actions.
/// Suicide is never played; the simple-ko point is respected. No allocation.
///
/// Selection: up to 8 random draws among the empty nodes, then a scan from a random start; the
/// first legal non-eye move found is played. Early in the game the first draw nearly always
/// succeeds, so moves are uniform; near the end the scan is slightly biased, as in Pachi.
pub fn light_playout(
    board: &mut Board,
    tables: &PlayoutTables,
    first: Player,
    players: u8,
    rng: &mut Rng,
    max_moves: u32,
) -> PlayoutStats {
    let mut to_move = first.0;
    let mut passes = 0u8;
    let mut stats = PlayoutStats::default();
    while passes < players {
        if stats.moves >= max_moves {
            stats.truncated = true;
            break;
        }
        let player = Player(to_move);
        match choose_light(board, tables, player, rng) {
            Some(p) => {
                board.play_unchecked(p, player);
                passes = 0;
            }
            None => {
                board.pass();
                passes += 1;
            }
        }
        stats.moves += 1;
        to_move += 1;
        if to_move == players {
            to_move = 0;
        }
    }
    stats
}

/// A random legal move for `player` that does not fill its own eye, if there is one.
#[inline]
pub fn choose_light(board: &Board, tables: &PlayoutTables, player: Player, rng: &mut Rng) -> Option<NodeId> {
    let empties = board.empties();
    let n = empties.len();
    if n == 0 {
        return None;
    }
    let ko = board.ko().map_or(u32::MAX, |(k, _)| k);
    for _ in 0..8 {
        let p = empties[rng.below(n as u32) as usize];
        if light_ok(board, tables, p, player, ko) {
            return Some(p);
        }
    }
    let start = rng.below(n as u32) as usize;
    for k in 0..n {
        let i = if start + k >= n { start + k - n } else { start + k };
        let p = empties[i];
        if light_ok(board, tables, p, player, ko) {
            return Some(p);
        }
    }
    None
}

/// Whether the empty `p` is a light move for `player`. A point with an empty neighbour is no
/// eye and no suicide: legal unless it is the ko point `ko` (which after a capture has no empty
/// neighbour, but setup stones could change that). Any other point is asked in full, out of
/// line: inlining only the usual case keeps the drawing loop small.
#[inline(always)]
fn light_ok(board: &Board, tables: &PlayoutTables, p: NodeId, player: Player, ko: NodeId) -> bool {
    (board.empty_neighbors(p) > 0 && p != ko) || light_ok_in_full(board, tables, p, player)
}

fn light_ok_in_full(board: &Board, tables: &PlayoutTables, p: NodeId, player: Player) -> bool {
    if board.empty_neighbors(p) > 0 {
        return board.check(p, player, SuicideRule::Forbidden).is_ok(); // the ko point
    }
    !is_eye(board, tables, p, player.stone()) && board.surrounded_legal(p, player)
}

/// Area score at the end of a playout: stones plus empty nodes whose neighbours all belong to one
/// player (after a playout every empty node is such an eye or a disputed point).
pub fn playout_area(board: &Board, players: usize, out: &mut [u32]) {
    out[..players].fill(0);
    let map = board.map();
    for n in map.nodes() {
        let c = board.color(n);
        if c != EMPTY {
            out[(c - 1) as usize] += 1;
            continue;
        }
        let nb = map.neighbors(n);
        if let Some(&first) = nb.first() {
            let c0 = board.color(first);
            if c0 != EMPTY && nb.iter().all(|&q| board.color(q) == c0) {
                out[(c0 - 1) as usize] += 1;
            }
        }
    }
}
