//! The state of a Capture Go game as one viewer sees it (everything is public).

use serde::Serialize;

use super::CaptureGame;
use crate::{
    Game, Outcome, Player, PlayerInfo, RuleSystem,
    record::{MapSummary, RulesSpec},
};

/// The state of a Capture Go game: what `gobeyond replay` prints and what a UI draws.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct CaptureState {
    pub map: MapSummary,
    pub rules: RulesSpec,
    /// `playing` or `finished`.
    pub phase: &'static str,
    /// The player to move, while the game is on.
    pub to_move: Option<u8>,
    /// Captured stones that win.
    pub target: u32,
    pub turns_played: u32,
    pub turn_limit: u32,
    pub consecutive_passes: u32,
    pub players: Vec<CapturePlayer>,
    /// Colour per node: `null` for empty, else the player number.
    pub board: Vec<Option<u8>>,
    /// Per node, the liberties of the group standing there (`null` for empty nodes): a stone
    /// in atari (1) is one capture away.
    pub liberties: Vec<Option<u32>>,
    pub outcome: Option<Outcome>,
}

#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct CapturePlayer {
    pub player: u8,
    pub name: String,
    pub color: &'static str,
    pub captures: u32,
    /// Labels of the player's stones.
    pub stones: Vec<String>,
    pub resigned: bool,
}

impl CaptureState {
    pub fn of(game: &CaptureGame, names: &[PlayerInfo]) -> CaptureState {
        let map = game.map();
        let board = game.board();
        let n = game.player_count();
        CaptureState {
            map: MapSummary { name: map.name().into(), spec: map.spec().into(), nodes: map.len() },
            rules: RulesSpec::of::<CaptureGame>(game.settings()),
            phase: game.turn().phase,
            to_move: game.to_move().map(|p| p.0),
            target: game.rules().target,
            turns_played: game.turns_played(),
            turn_limit: game.rules().turns(map.len()),
            consecutive_passes: game.consecutive_passes(),
            players: (0..n as u8)
                .map(Player)
                .map(|p| CapturePlayer {
                    player: p.0,
                    name: names.get(p.index()).map(|i| i.name.clone()).unwrap_or_default(),
                    color: p.color_name(n),
                    captures: game.captures(p),
                    stones: map
                        .nodes()
                        .filter(|&v| board.stone_at(v) == Some(p))
                        .map(|v| map.label(v).to_string())
                        .collect(),
                    resigned: game.is_resigned(p),
                })
                .collect(),
            board: map.nodes().map(|v| board.stone_at(v).map(|p| p.0)).collect(),
            liberties: map
                .nodes()
                .map(|v| board.stone_at(v).map(|_| board.liberties(v).len() as u32))
                .collect(),
            outcome: game.outcome().cloned(),
        }
    }
}
