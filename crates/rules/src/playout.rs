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

/// Per-map tables for playouts (diagonals, the shape ring and its order), built once and shared.
#[derive(Debug, Clone)]
pub struct PlayoutTables {
    offsets: Vec<u32>,
    diagonals: Vec<NodeId>,
    /// The most diagonals any node has (4 on a square grid, none on a hex grid).
    max_diagonals: usize,
    ring_offsets: Vec<u32>,
    ring: Vec<NodeId>,
    max_ring: usize,
    /// Per node, [`PlayoutTables::cycle`]'s slots: twice the map's largest degree, or none.
    cycle_offsets: Vec<u32>,
    cycles: Vec<NodeId>,
}

/// A slot of a shape cycle that is off the map (the edge).
pub const OFF_MAP: NodeId = NodeId::MAX;

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
        let mut tables = PlayoutTables {
            offsets,
            diagonals,
            max_diagonals,
            ring_offsets,
            ring,
            max_ring,
            cycle_offsets: Vec::new(),
            cycles: Vec::new(),
        };
        (tables.cycle_offsets, tables.cycles) = shape_cycles(map, &tables);
        tables
    }

    /// The neighbours of `node` and its shape ring in their order around it, alternating (a
    /// neighbour first), with [`OFF_MAP`] slots where the map's edge cuts the ring: the 3×3
    /// block read around its centre on a square grid, six neighbours and six bridge points on a
    /// hex grid. Every ordered node of a map has the same number of slots, twice the map's
    /// largest degree; empty where the neighbourhood has no such order (maps whose ring is not
    /// one point between each two neighbours, such as the honeycomb, a 3-D grid or a sphere's
    /// pentagons).
    #[inline]
    pub fn cycle(&self, node: NodeId) -> &[NodeId] {
        let (a, b) = (self.cycle_offsets[node as usize], self.cycle_offsets[node as usize + 1]);
        &self.cycles[a as usize..b as usize]
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

/// Every node's shape cycle ([`PlayoutTables::cycle`]) as offsets and slots. Only maps where the
/// ring has as many points as the largest degree can be ordered (a ring point between each two
/// neighbours), and only up to 12 neighbours (a shape key holds 24 slots).
fn shape_cycles(map: &Map, tables: &PlayoutTables) -> (Vec<u32>, Vec<NodeId>) {
    let mut offsets = Vec::with_capacity(map.len() + 1);
    let mut slots = Vec::new();
    offsets.push(0);
    let top = map.max_degree();
    let orderable = top > 0 && top <= 12 && tables.max_ring == top;
    for p in map.nodes() {
        if orderable && let Some(order) = shape_cycle(map, p, tables.ring(p), 2 * top) {
            slots.extend_from_slice(&order);
        }
        offsets.push(slots.len() as u32);
    }
    (offsets, slots)
}

/// The cycle of `p`'s neighbours and ring points: two neighbours follow each other when a ring
/// point lies between them (adjacent to both) or, without one, when they touch (hex cells near a
/// corner, where the edge took the bridge point); the slot between them holds that ring point or
/// [`OFF_MAP`]. Where the edge breaks the cycle into a path the slots are padded with [`OFF_MAP`]
/// to `len`. `None` when the neighbourhood is no such cycle or path.
fn shape_cycle(map: &Map, p: NodeId, ring: &[NodeId], len: usize) -> Option<Vec<NodeId>> {
    let neighbors = map.neighbors(p);
    let mut links: Vec<(NodeId, NodeId, NodeId)> = Vec::with_capacity(neighbors.len());
    for &r in ring {
        let mut next_to = neighbors.iter().copied().filter(|&q| map.are_adjacent(q, r));
        let (a, b) = (next_to.next()?, next_to.next()?);
        if next_to.next().is_some() {
            return None;
        }
        links.push((a, b, r));
    }
    for (i, &a) in neighbors.iter().enumerate() {
        for &b in &neighbors[i + 1..] {
            let linked = links.iter().any(|&(x, y, _)| (x, y) == (a, b) || (x, y) == (b, a));
            if !linked && map.are_adjacent(a, b) {
                links.push((a, b, OFF_MAP));
            }
        }
    }
    let degree = |q: NodeId| links.iter().filter(|&&(a, b, _)| a == q || b == q).count();
    if neighbors.iter().any(|&q| degree(q) > 2) {
        return None;
    }
    // A path starts at one of its ends; a cycle anywhere.
    let start = neighbors.iter().copied().find(|&q| degree(q) < 2).or(neighbors.first().copied())?;
    let mut order = vec![start];
    let mut used = vec![false; links.len()];
    let mut at = start;
    let mut closed = false;
    while let Some(i) = (0..links.len()).find(|&i| !used[i] && (links[i].0 == at || links[i].1 == at)) {
        used[i] = true;
        let (a, b, between) = links[i];
        order.push(between);
        at = if a == at { b } else { a };
        if at == start {
            closed = true;
            break;
        }
        order.push(at);
    }
    // Every neighbour and every link once: one piece, no branches.
    let whole = used.iter().all(|&u| u) && order.len() == neighbors.len() + links.len();
    if !whole || (closed && order.len() != len) || order.len() > len {
        return None;
    }
    order.resize(len, OFF_MAP);
    Some(order)
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
