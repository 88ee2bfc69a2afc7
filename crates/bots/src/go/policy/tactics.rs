//! `tactics` and the frame of the heavier policies: the tactics around the last move, as Pachi
//! and libego do, but with graph neighbourhoods so that it works on any map — capture a group of
//! any opponent left in atari next to the last move; else save an own group the last move put
//! in atari by extending (only if that gives it at least two liberties) or by capturing a
//! neighbour; else (after a heavier policy's stage) a light move that is not a self-atari of
//! two or more stones.

use gobeyond_maps::NodeId;
use gobeyond_rules::{Board, Player, Rng, SuicideRule, board::EMPTY, playout::PlayoutTables};

use super::{heavy::shape_move, liberties_after, light_but_not_big_self_atari, reading::two_liberty_move};

/// What a tactical policy tries after the tactics and before a light move.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stage {
    /// Nothing: straight to the light move (`tactics`).
    None,
    /// MoGo-style shape around the last move (`heavy`).
    Shape,
    /// Three times in four, a group of two liberties next to the last move (`reading`).
    TwoLiberties,
}

/// A tactical policy's move for `player`, `last` being the previous placement: the tactics,
/// then `stage`, then a light move that is not a big self-atari.
pub fn choose_heavy(
    board: &Board,
    tables: &PlayoutTables,
    player: Player,
    last: Option<NodeId>,
    stage: Stage,
    rng: &mut Rng,
) -> Option<NodeId> {
    if let Some(n) = urgent(board, player, last, rng) {
        return Some(n);
    }
    if let Some(last) = last.filter(|&l| board.color(l) != EMPTY) {
        let found = match stage {
            Stage::None => None,
            Stage::Shape => shape_move(board, tables, player, last, rng),
            Stage::TwoLiberties if rng.below(4) != 0 => two_liberty_move(board, player, last, rng),
            Stage::TwoLiberties => None,
        };
        if found.is_some() {
            return found;
        }
    }
    light_but_not_big_self_atari(board, tables, player, rng)
}

/// The tactics around the last move: a capture of a group left in atari next to it, or a save
/// of an own group it put in atari (see the module notes); `None` when there is nothing urgent.
pub fn urgent(board: &Board, player: Player, last: Option<NodeId>, rng: &mut Rng) -> Option<NodeId> {
    let stone = player.stone();
    if let Some(last) = last.filter(|&l| board.color(l) != EMPTY) {
        let map = board.map();
        let mut candidates = [0 as NodeId; 16];
        let mut k = 0;
        let mut push = |n: NodeId, k: &mut usize| {
            if *k < candidates.len() && !candidates[..*k].contains(&n) {
                candidates[*k] = n;
                *k += 1;
            }
        };
        // Captures: groups of any opponent next to the last move (or the last stone's own group)
        // with one liberty.
        let around = std::iter::once(last).chain(map.neighbors(last).iter().copied());
        for q in around {
            let c = board.color(q);
            if c == EMPTY || c == stone {
                continue;
            }
            if let Some(lib) = board.atari_liberty(q)
                && board.check(lib, player, SuicideRule::Forbidden).is_ok()
            {
                push(lib, &mut k);
            }
        }
        // Escapes: own groups next to the last move in atari.
        let mut seen = [0; 8];
        for &q in map.neighbors(last) {
            if board.color(q) != stone {
                continue;
            }
            let Some(lib) = board.atari_liberty(q) else { continue };
            if board.check(lib, player, SuicideRule::Forbidden).is_ok()
                && liberties_after(board, lib, player, 2, &mut seen) >= 2
            {
                push(lib, &mut k);
            }
            // Or capture an attacker of that group.
            for s in board.group_stones(q) {
                for &a in map.neighbors(s) {
                    let c = board.color(a);
                    if c != EMPTY
                        && c != stone
                        && let Some(l) = board.atari_liberty(a)
                        && board.check(l, player, SuicideRule::Forbidden).is_ok()
                    {
                        push(l, &mut k);
                    }
                }
            }
        }
        if k > 0 {
            return Some(candidates[rng.below(k as u32) as usize]);
        }
    }
    None
}
