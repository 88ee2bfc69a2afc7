//! Learned move patterns on any graph: features of a move that mean the same on every map,
//! weighted by a generalized Bradley–Terry model fitted with Hunter's MM algorithm, as in
//! Coulom's "Computing Elo ratings of move patterns" (2007) and Pachi.
//!
//! A move is a team of features, one from each group ([`Group`]): what it captures, whether it
//! escapes an atari, self-ataris or ataris, its liberties afterwards, its graph distance to the
//! last two moves, and the shape of its graph neighbourhood — the colours of its neighbours and
//! of its shape ring (the graph diagonals; on maps without diagonals, such as hex cells, the
//! bridge points two steps away through two common neighbours) counted by kind (own, enemy,
//! empty, off the map), which on a square grid is the 3×3 block up to rotation and reflection and
//! means the same on a torus; a hex grid's shapes (six neighbours, six bridge points) are keys
//! of their own, learned from the bot's own hex games. The big-board model also reads a
//! move's line (its graph distance from the map's edge, as Coulom's "distance to the border"):
//! shapes within two steps cannot tell the third line from the seventh in an empty area.
//! A move's strength is the product of its features' weights (γ); the chance that it is the move
//! played is its strength over the sum of all legal moves' strengths.
//!
//! The weights are fitted by `gobeyond train fit` on records of games (GNU Go self-play, the
//! bot's own games) and checked in as `data/patterns.json`; the search uses them as tree priors
//! and, for the shape alone (cheap), to choose among sampled moves in heavy playouts.

pub mod fit;
mod large;
mod model;
mod shape;

pub use large::{LargeKey, OuterRings, large_shape};
pub use model::{BIG_MAP, Model, NO_LARGE_SHAPE, WEIGHTS_VERSION, Weights};
pub use shape::{ShapeKey, shape};

use gobeyond_maps::NodeId;
use gobeyond_rules::{
    Board, Player, SuicideRule,
    board::EMPTY,
    playout::{PlayoutTables, is_eye},
};

/// The feature groups: every move has exactly one feature of each.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Group {
    Capture,
    Escape,
    SelfAtari,
    Atari,
    Liberties,
    LastMove,
    OwnLastMove,
    Line,
    Shape,
    LargeShape,
}

/// The groups of a fixed set of features (all but the shapes), each of at most four.
pub const FIXED_GROUPS: usize = 8;

pub const GROUPS: [Group; 10] = [
    Group::Capture,
    Group::Escape,
    Group::SelfAtari,
    Group::Atari,
    Group::Liberties,
    Group::LastMove,
    Group::OwnLastMove,
    Group::Line,
    Group::Shape,
    Group::LargeShape,
];

impl Group {
    pub fn name(self) -> &'static str {
        match self {
            Group::Capture => "capture",
            Group::Escape => "escape",
            Group::SelfAtari => "self_atari",
            Group::Atari => "atari",
            Group::Liberties => "liberties",
            Group::LastMove => "last_move",
            Group::OwnLastMove => "own_last_move",
            Group::Line => "line",
            Group::Shape => "shape",
            Group::LargeShape => "large_shape",
        }
    }

    /// Names of the group's features (the shape's are keys, found in the data).
    pub fn features(self) -> &'static [&'static str] {
        match self {
            Group::Capture => &["none", "one", "several", "saves"],
            Group::Escape => &["none", "extends"],
            Group::SelfAtari => &["none", "single", "group"],
            Group::Atari => &["none", "atari"],
            Group::Liberties => &["1", "2", "3", "4+"],
            Group::LastMove => &["1", "2", "3", "far"],
            Group::OwnLastMove => &["1", "2", "3", "far"],
            // "far": the fifth line and beyond, and every node of a map without edge.
            Group::Line => &["near", "1-2", "3-4", "far"],
            Group::Shape | Group::LargeShape => &[],
        }
    }
}

/// A move's features: an index per fixed group, its shape's key and, where the map is a grid
/// around it and the model reads them, its large shape's.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Features {
    pub fixed: [u8; FIXED_GROUPS],
    pub shape: ShapeKey,
    pub large: Option<LargeKey>,
}

/// What the features of a position's moves are read from: the board, its map's tables, outer
/// rings and lines, the distances from the last moves.
#[derive(Debug, Clone, Copy)]
pub struct Surroundings<'a> {
    pub board: &'a Board,
    pub tables: &'a PlayoutTables,
    /// Empty (no large shapes) for a model that does not read them.
    pub rings: &'a OuterRings,
    /// Each node's line ([`crate::go::priors::lines`]).
    pub lines: &'a [u8],
    pub dist: &'a Distances,
}

/// Adds the liberties of the group at `node` to `found` (no repeats, `except` never) until it
/// holds `cap`.
fn liberties_upto(board: &Board, node: NodeId, except: NodeId, found: &mut Vec<NodeId>, cap: usize) {
    for s in board.group_stones(node) {
        for &q in board.map().neighbors(s) {
            if q != except && board.color(q) == EMPTY && !found.contains(&q) {
                found.push(q);
                if found.len() >= cap {
                    return;
                }
            }
        }
    }
}

/// Graph distances from the last moves, up to 3: computed once per position.
#[derive(Debug, Clone, Default)]
pub struct Distances {
    last: Vec<u8>,
    own_last: Vec<u8>,
}

impl Distances {
    /// Distances from `last` (the opponent's last placement) and `own_last` (the mover's).
    pub fn new(board: &Board, last: Option<NodeId>, own_last: Option<NodeId>) -> Distances {
        let map = board.map();
        let bfs = |from: Option<NodeId>| {
            let mut d = vec![u8::MAX; map.len()];
            let Some(from) = from else { return d };
            let mut frontier = vec![from];
            d[from as usize] = 0;
            for step in 1..=3u8 {
                let mut next = Vec::new();
                for &v in &frontier {
                    for &w in map.neighbors(v) {
                        if d[w as usize] == u8::MAX {
                            d[w as usize] = step;
                            next.push(w);
                        }
                    }
                }
                frontier = next;
            }
            d
        };
        Distances { last: bfs(last), own_last: bfs(own_last) }
    }

    fn bucket(d: &[u8], node: NodeId) -> u8 {
        match d.get(node as usize).copied().unwrap_or(u8::MAX) {
            1 => 0,
            2 => 1,
            3 => 2,
            _ => 3,
        }
    }
}

/// The features of `player` placing on the empty `node` (the shape oriented if `oriented`).
pub fn features(around: &Surroundings, node: NodeId, player: Player, oriented: bool) -> Features {
    let Surroundings { board, tables, rings, lines, dist } = *around;
    let map = board.map();
    let own = player.stone();
    let mut captured = 0u32;
    let mut saves = false;
    let mut escape = false;
    let mut atari = false;
    let mut libs: Vec<NodeId> = Vec::with_capacity(8);
    let mut scratch: Vec<NodeId> = Vec::with_capacity(4);
    for &q in map.neighbors(node) {
        let c = board.color(q);
        if c == EMPTY {
            if !libs.contains(&q) {
                libs.push(q);
            }
            continue;
        }
        let in_atari = board.atari_liberty(q) == Some(node);
        if c == own {
            escape |= in_atari;
            if libs.len() < 4 {
                liberties_upto(board, q, node, &mut libs, 4);
            }
        } else if in_atari {
            captured += board.group_size(q);
            // Capturing a group that holds one of ours in atari saves it.
            saves |= board
                .group_stones(q)
                .any(|s| map.neighbors(s).iter().any(|&r| board.color(r) == own && board.in_atari(r)));
            // The captured stones next to the move become its liberties.
            libs.push(q);
        } else {
            scratch.clear();
            liberties_upto(board, q, u32::MAX, &mut scratch, 3);
            atari |= scratch.len() == 2 && scratch.contains(&node);
        }
    }
    let liberties = libs.len().min(4) as u8;
    let capture = match (captured, saves) {
        (0, _) => 0,
        (_, true) => 3,
        (1, false) => 1,
        _ => 2,
    };
    let self_atari = if liberties <= 1 && captured == 0 {
        let joined = map.neighbors(node).iter().any(|&q| board.color(q) == own);
        if joined { 2 } else { 1 }
    } else {
        0
    };
    Features {
        fixed: [
            capture,
            u8::from(escape),
            self_atari,
            u8::from(atari),
            liberties.max(1) - 1,
            Distances::bucket(&dist.last, node),
            Distances::bucket(&dist.own_last, node),
            line_bucket(board, lines, node),
        ],
        shape: shape(board, tables, node, player, oriented),
        large: large_shape(board, tables, rings, node, player),
    }
}

/// The [`Group::Line`] feature of `node`: 0 with a stone within two steps, else 1 on the first
/// or second line, 2 on the third and fourth, 3 beyond (and where the map has no edge).
fn line_bucket(board: &Board, lines: &[u8], node: NodeId) -> u8 {
    if crate::go::priors::near_stones(board, node) {
        return 0;
    }
    match lines.get(node as usize).copied().unwrap_or(0) {
        1 | 2 => 1,
        3 | 4 => 2,
        _ => 3,
    }
}

/// A position to rate moves in: `player` to move on `board` after `moves` moves, the last
/// placements being `last` (the previous player's) and `own_last` (the mover's).
#[derive(Debug, Clone, Copy)]
pub struct Position<'a> {
    pub board: &'a Board,
    pub tables: &'a PlayoutTables,
    /// The map's outer rings, for a model that reads large shapes.
    pub rings: &'a OuterRings,
    /// Each node's line ([`crate::go::priors::lines`]).
    pub lines: &'a [u8],
    pub moves: usize,
    pub player: Player,
    pub last: Option<NodeId>,
    pub own_last: Option<NodeId>,
}

/// A position's move strengths, computed once when the search expands it and read by each of
/// its actions' priors.
#[derive(Debug, Clone, Default)]
pub struct Cache {
    key: Option<(u64, usize)>,
    strengths: Vec<f32>,
    /// The mean strength over the candidates.
    mean: f32,
    /// How many candidates there are.
    count: u32,
}

impl Cache {
    /// The strength of `node` relative to the mean candidate's (1: average) in `position`;
    /// `None` for a node that is no candidate (own eye, illegal).
    pub fn relative(&mut self, model: &Model, position: &Position, node: NodeId) -> Option<f32> {
        let Position { board, tables, rings, lines, moves, player, last, own_last } = *position;
        let key = (board.hash() ^ u64::from(player.0).wrapping_mul(0x9e37_79b9_7f4a_7c15), moves);
        if self.key != Some(key) {
            let dist = Distances::new(board, last, own_last);
            let around = Surroundings { board, tables, rings, lines, dist: &dist };
            self.strengths.clear();
            self.strengths.resize(board.len(), 0.0);
            let (mut sum, mut count) = (0.0f32, 0u32);
            for &v in board.empties() {
                if is_candidate(board, tables, v, player) {
                    let s = model.strength(&features(&around, v, player, model.oriented()));
                    self.strengths[v as usize] = s;
                    sum += s;
                    count += 1;
                }
            }
            self.mean = if count > 0 { sum / count as f32 } else { 1.0 };
            self.count = count;
            self.key = Some(key);
        }
        let s = self.strengths.get(node as usize).copied().unwrap_or(0.0);
        (s > 0.0).then(|| s / self.mean)
    }

    /// How many candidates the last position rated had: a relative strength `r` is the
    /// probability `r / candidates` that the move is the one played.
    pub fn candidates(&self) -> u32 {
        self.count
    }
}

/// Whether `node` is a candidate the model rates: empty, legal, not the mover's own eye.
pub fn is_candidate(board: &Board, tables: &PlayoutTables, node: NodeId, player: Player) -> bool {
    board.color(node) == EMPTY
        && !is_eye(board, tables, node, player.stone())
        && board.check(node, player, SuicideRule::Forbidden).is_ok()
}

#[cfg(test)]
mod tests;
