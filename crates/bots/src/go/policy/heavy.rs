//! `heavy`: the tactics, then MoGo-style shape patterns around the last move before the light
//! move. MoGo matches 3×3 patterns on the 8 points around the last move; here the "3×3
//! neighbourhood" of a node is its neighbours and its graph diagonals
//! ([`PlayoutTables::diagonals`]: opposite corners of a chordless 4-cycle), which is the 3×3
//! block on a square grid and means the same thing on any graph, and the patterns are
//! predicates on groups rather than fixed pictures (see [`good_shape`]).

use gobeyond_maps::NodeId;
use gobeyond_rules::{
    Board, Player, Rng, SuicideRule,
    board::EMPTY,
    playout::{PlayoutTables, is_eye},
};

use super::{Groups, bad_self_atari};

/// Whether playing `node` makes good shape for `player`, MoGo's patterns as predicates on any
/// graph (empty `node`; "opponent" is any other player):
/// - **cut**: `node` touches two groups of one opponent that it separates;
/// - **connect**: `node` joins two of the player's groups with an opponent stone next to it or on
///   one of its diagonals (the opponent's cutting point);
/// - **hane**: `node` touches an opponent stone that is in contact with a stone of the player
///   lying on a diagonal of `node` (reaching round the opponent's contact stone).
pub(super) fn good_shape(board: &Board, tables: &PlayoutTables, node: NodeId, player: Player) -> bool {
    let map = board.map();
    let stone = player.stone();
    let mut own = Groups::new();
    let mut touches_opponent = false;
    for &q in map.neighbors(node) {
        let c = board.color(q);
        if c == EMPTY {
            continue;
        }
        if c == stone {
            own.add(board.group_id(q).unwrap_or(q));
            continue;
        }
        touches_opponent = true;
        // Cut: another group of this colour touches `node` too.
        let id = board.group_id(q).unwrap_or(q);
        if map.neighbors(node).iter().any(|&r| board.color(r) == c && board.group_id(r) != Some(id)) {
            return true;
        }
        // Hane: an own stone touches `q` and is a diagonal of `node`.
        let diagonals = tables.diagonals(node);
        if map.neighbors(q).iter().any(|&r| board.color(r) == stone && diagonals.contains(&r)) {
            return true;
        }
    }
    own.len >= 2
        && (touches_opponent
            || tables.diagonals(node).iter().any(|&d| board.color(d) != EMPTY && board.color(d) != stone))
}

/// A random good-shape move ([`good_shape`]) in the 3×3 neighbourhood of `last`: legal, not an
/// own eye and not a big self-atari.
pub(super) fn shape_move(
    board: &Board,
    tables: &PlayoutTables,
    player: Player,
    last: NodeId,
    rng: &mut Rng,
) -> Option<NodeId> {
    let map = board.map();
    let mut found = [0 as NodeId; 16];
    let mut k = 0;
    for &n in map.neighbors(last).iter().chain(tables.diagonals(last)) {
        if k < found.len()
            && board.color(n) == EMPTY
            && good_shape(board, tables, n, player)
            && !is_eye(board, tables, n, player.stone())
            && board.check(n, player, SuicideRule::Forbidden).is_ok()
            && !bad_self_atari(board, n, player)
        {
            found[k] = n;
            k += 1;
        }
    }
    (k > 0).then(|| found[rng.below(k as u32) as usize])
}
