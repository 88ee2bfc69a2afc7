//! `patterns`: the tactics, then of two light moves (not big self-ataris) one drawn in
//! proportion to its learned shape weight.

use gobeyond_maps::NodeId;
use gobeyond_rules::{Board, Player, Rng, playout::PlayoutTables};

use super::{light_but_not_big_self_atari, tactics::urgent};
use crate::go::patterns;

/// The tactics, then a light move chosen between two by the learned shape weights.
pub fn choose(
    board: &Board,
    tables: &PlayoutTables,
    player: Player,
    last: Option<NodeId>,
    rng: &mut Rng,
) -> Option<NodeId> {
    if let Some(n) = urgent(board, player, last, rng) {
        return Some(n);
    }
    let a = light_but_not_big_self_atari(board, tables, player, rng)?;
    let Some(b) = light_but_not_big_self_atari(board, tables, player, rng).filter(|&b| b != a) else {
        return Some(a);
    };
    let model = patterns::Model::builtin(board.len());
    let ga = model.shape_gamma(patterns::shape(board, tables, a, player, model.oriented()));
    let gb = model.shape_gamma(patterns::shape(board, tables, b, player, model.oriented()));
    Some(if rng.unit() * f64::from(ga + gb) < f64::from(ga) { a } else { b })
}
