//! Playout policies on the bare board, for every map.
//!
//! - **Light**: a uniformly random legal move that does not fill the mover's own eye
//!   ([`gobeyond_rules::playout::choose_light`]).
//! - **Heavy**: first the tactics around the last move, as Pachi and libego do, but with graph
//!   neighbourhoods instead of 3×3 patterns so that it works on any map: capture a group of any
//!   opponent left in atari next to the last move; else save an own group the last move put in
//!   atari by extending (only if that gives it at least two liberties) or by capturing a neighbour;
//!   else a light move that is not a self-atari of two or more stones.

use gobeyond_maps::NodeId;
use gobeyond_rules::{
    Board, Player, Rng, SuicideRule,
    board::EMPTY,
    playout::{PlayoutTables, choose_light},
};

/// Which playout policy a search uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Policy {
    Light,
    Heavy,
}

/// Liberties the group at `node` would have after `player` plays `node` (distinct nodes, capped at
/// `cap`), ignoring captures. Allocation-free; cost grows with the groups joined.
fn liberties_after(board: &Board, node: NodeId, player: Player, cap: usize, seen: &mut [NodeId; 8]) -> usize {
    let map = board.map();
    let stone = player.stone();
    let mut count = 0;
    let mut add = |q: NodeId, count: &mut usize| {
        if q != node && !seen[..*count].contains(&q) && *count < cap {
            seen[*count] = q;
            *count += 1;
        }
    };
    for &q in map.neighbors(node) {
        if board.color(q) == EMPTY {
            add(q, &mut count);
        }
    }
    for &q in map.neighbors(node) {
        if board.color(q) == stone {
            for s in board.group_stones(q) {
                for &l in map.neighbors(s) {
                    if board.color(l) == EMPTY {
                        add(l, &mut count);
                    }
                }
                if count >= cap {
                    return count;
                }
            }
        }
    }
    count
}

/// True when `node` captures something for `player`.
fn captures(board: &Board, node: NodeId, player: Player) -> bool {
    board.map().neighbors(node).iter().any(|&q| {
        let c = board.color(q);
        c != EMPTY && c != player.stone() && board.atari_liberty(q) == Some(node)
    })
}

/// A self-atari of two or more stones (a lone stone in atari is often a good throw-in).
fn bad_self_atari(board: &Board, node: NodeId, player: Player) -> bool {
    let mut seen = [0; 8];
    if captures(board, node, player) || liberties_after(board, node, player, 2, &mut seen) >= 2 {
        return false;
    }
    board.map().neighbors(node).iter().any(|&q| board.color(q) == player.stone())
}

/// The heavy policy's move for `player`, `last` being the previous placement.
pub fn choose_heavy(
    board: &Board,
    tables: &PlayoutTables,
    player: Player,
    last: Option<NodeId>,
    rng: &mut Rng,
) -> Option<NodeId> {
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
    // A light move, avoiding big self-ataris (a few tries, then anything light).
    for _ in 0..4 {
        let p = choose_light(board, tables, player, rng)?;
        if !bad_self_atari(board, p, player) {
            return Some(p);
        }
    }
    choose_light(board, tables, player, rng)
}

/// Plays a playout on `board` with `policy` until everyone passes in a row or `max_moves`;
/// each placement is reported to `played`. Returns the number of actions.
#[allow(clippy::too_many_arguments)]
pub fn playout(
    board: &mut Board,
    tables: &PlayoutTables,
    policy: Policy,
    first: Player,
    players: u8,
    rng: &mut Rng,
    max_moves: u32,
    played: &mut Vec<(Player, NodeId)>,
) -> u32 {
    let mut to_move = first.0;
    let mut passes = 0u8;
    let mut moves = 0;
    let mut last = None;
    while passes < players && moves < max_moves {
        let player = Player(to_move);
        let choice = match policy {
            Policy::Light => choose_light(board, tables, player, rng),
            Policy::Heavy => choose_heavy(board, tables, player, last, rng),
        };
        match choice {
            Some(p) => {
                board.play_unchecked(p, player);
                played.push((player, p));
                passes = 0;
                last = Some(p);
            }
            None => {
                board.pass();
                passes += 1;
                last = None;
            }
        }
        moves += 1;
        to_move = (to_move + 1) % players;
    }
    moves
}
