//! Shared by every rule system that uses the Go board: the checked setup of stones before the
//! first move, and the standard handicap points.

use std::sync::Arc;

use gobeyond_maps::{Map, NodeId};

use crate::{Board, MAX_PLAYERS, Player};

/// Problems with a game's setup.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SetupError {
    #[error("a game needs 2 to {MAX_PLAYERS} players, not {0}")]
    Players(usize),
    #[error("setup stone #{index} is on node {node}, which is not on the map")]
    UnknownNode { index: usize, node: u64 },
    #[error("setup stone #{index} is on node {node}, which already has a stone")]
    Occupied { index: usize, node: NodeId },
    #[error("setup stone #{index} belongs to player {player}, but there are {players} players")]
    UnknownPlayer { index: usize, player: u8, players: usize },
    #[error("the setup leaves the group at node {node} without liberties")]
    NoLiberties { node: NodeId },
    #[error("handicap: {0}")]
    Handicap(String),
    /// Already a whole sentence for players ("The Way of Go needs a map with straight lines…").
    #[error("{0}")]
    Rules(String),
}

/// A board with `setup` stones on it, each checked: on the map, for an existing player, on an
/// empty node, and no group left without liberties.
pub fn setup_board(map: &Arc<Map>, players: usize, setup: &[(NodeId, Player)]) -> Result<Board, SetupError> {
    if !(2..=MAX_PLAYERS).contains(&players) {
        return Err(SetupError::Players(players));
    }
    let mut board = Board::new(map.clone());
    for (index, &(node, player)) in setup.iter().enumerate() {
        if !map.contains(node as u64) {
            return Err(SetupError::UnknownNode { index, node: node as u64 });
        }
        if player.index() >= players {
            return Err(SetupError::UnknownPlayer { index, player: player.0, players });
        }
        if board.color(node) != crate::board::EMPTY {
            return Err(SetupError::Occupied { index, node });
        }
        board.put_stone(node, player);
        if board.color(node) == crate::board::EMPTY {
            return Err(SetupError::NoLiberties { node });
        }
    }
    for &(node, _) in setup {
        if board.liberties(node).is_empty() {
            return Err(SetupError::NoLiberties { node });
        }
    }
    Ok(board)
}

/// Standard fixed handicap points on square boards (the GTP `fixed_handicap` placement):
/// corners on the 3rd line (4th from 13×13 up), then the sides and the centre on odd boards.
pub fn fixed_handicap(map: &Map, stones: usize) -> Result<Vec<NodeId>, SetupError> {
    let grid = map.grid().filter(|g| g.plain && g.width == g.height).ok_or_else(|| {
        SetupError::Handicap("fixed handicap needs a square board; place stones freely instead".into())
    })?;
    let n = grid.width;
    if n < 7 {
        return Err(SetupError::Handicap(format!("no fixed handicap on a {n}×{n} board")));
    }
    let max = if n % 2 == 1 && n >= 9 { 9 } else { 4 };
    if !(2..=max).contains(&stones) {
        return Err(SetupError::Handicap(format!(
            "fixed handicap on {n}×{n} is 2 to {max} stones, not {stones}"
        )));
    }
    let edge = if n >= 13 { 3 } else { 2 };
    let (lo, mid, hi) = (edge, n / 2, n - 1 - edge);
    // (column, row from the bottom) in GTP's order: D4 Q16 D16 Q4, then the side points, K10.
    let at = |x: u32, y_from_bottom: u32| y_from_bottom_to_node(map, x, y_from_bottom, n);
    let mut pts = vec![at(lo, lo), at(hi, hi)];
    if stones >= 3 {
        pts.push(at(lo, hi));
    }
    if stones >= 4 {
        pts.push(at(hi, lo));
    }
    if stones == 5 || stones == 7 || stones == 9 {
        pts.push(at(mid, mid));
    }
    if stones >= 6 {
        pts.push(at(lo, mid));
        pts.push(at(hi, mid));
    }
    if stones >= 8 {
        pts.push(at(mid, lo));
        pts.push(at(mid, hi));
    }
    Ok(pts)
}

fn y_from_bottom_to_node(map: &Map, x: u32, y: u32, n: u32) -> NodeId {
    map.grid_node(x, n - 1 - y).unwrap_or(0)
}
