//! The state of a GoBeyond game as JSON: what `gobeyond replay` prints and what a UI draws.

use serde::Serialize;

use super::{Event, GoBeyondGame, Phase};
use crate::{
    Game, Outcome, Player,
    record::{MapSummary, PlayerInfo, RulesSpec},
};

/// What a node is now.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(rename = "GoBeyondNode"))]
#[serde(rename_all = "snake_case")]
pub enum NodeState {
    /// A stone is on it.
    Occupied,
    /// Empty, in a region bordered by one player's stones only.
    Claimed,
    /// Claimed and reserved: nobody may occupy it until its player's next turn.
    Reserved,
    /// Empty, in a region bordered by several players' stones, or by none.
    Disputed,
}

#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct GoBeyondState {
    pub map: MapSummary,
    pub rules: RulesSpec,
    pub phase: Phase,
    /// Turns started so far.
    pub turn: u32,
    /// The player in phase 3, while play goes on.
    pub to_move: Option<u8>,
    pub consecutive_passes: u32,
    pub passes_to_end: u32,
    pub players: Vec<GoBeyondPlayer>,
    /// Per node: the state.
    pub nodes: Vec<NodeState>,
    /// Per node: the stone's player (`null` when empty).
    pub board: Vec<Option<u8>>,
    /// Per node: the claimant of an empty node (`null` if occupied or disputed).
    pub claims: Vec<Option<u8>>,
    /// Per node: the player holding a reservation on it.
    pub reserved: Vec<Option<u8>>,
    /// Clean-Up: players who still have to choose.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub awaiting_cleanup: Vec<u8>,
    pub outcome: Option<Outcome>,
    pub events: Vec<Event>,
}

#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct GoBeyondPlayer {
    pub player: u8,
    pub name: String,
    pub color: &'static str,
    /// PlayPoints now.
    pub points: i64,
    /// PlayPoints if the game ended now: plus the final bonus for what the player claims.
    pub projected: i64,
    /// `playing`, `resigned`, or `timed_out` (resigned for missing too many turns).
    pub status: &'static str,
    /// 1 for the first to resign, 2 for the second, ...
    #[serde(skip_serializing_if = "Option::is_none")]
    pub resigned_order: Option<usize>,
    /// Empty nodes claimed now (the next turn's income, before any change).
    pub claimed: u32,
    /// Labels of the player's stones.
    pub stones: Vec<String>,
    /// The label of the node the player has reserved.
    pub reservation: Option<String>,
    /// Clean-Up: labels of the stones given up, once chosen.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub surrendered: Option<Vec<String>>,
}

impl GoBeyondState {
    /// The state with every event so far.
    pub fn of(game: &GoBeyondGame, names: &[PlayerInfo]) -> GoBeyondState {
        Self::build(game, names, true)
    }

    /// The state, with the event history only when asked (updates carry their new events apart,
    /// and copying the whole history for each one grew with every turn).
    pub fn build(game: &GoBeyondGame, names: &[PlayerInfo], history: bool) -> GoBeyondState {
        let map = game.map();
        let board = game.board();
        let n = game.player_count();
        let labels = |nodes: &[u32]| nodes.iter().map(|&v| map.label(v).to_string()).collect::<Vec<_>>();
        let players = (0..n as u8)
            .map(Player)
            .map(|p| GoBeyondPlayer {
                player: p.0,
                name: names.get(p.index()).map(|i| i.name.clone()).unwrap_or_default(),
                color: p.color_name(n),
                points: game.points(p),
                projected: game.projected(p),
                status: match (game.is_resigned(p), game.timed_out(p)) {
                    (true, true) => "timed_out",
                    (true, false) => "resigned",
                    (false, _) => "playing",
                },
                resigned_order: game.resigned().iter().position(|&q| q == p).map(|i| i + 1),
                claimed: game.claimed_count(p),
                stones: map
                    .nodes()
                    .filter(|&v| board.stone_at(v) == Some(p))
                    .map(|v| map.label(v).to_string())
                    .collect(),
                reservation: game.reservation(p).map(|v| map.label(v).to_string()),
                surrendered: game.surrendered(p).map(labels),
            })
            .collect();
        GoBeyondState {
            map: MapSummary { name: map.name().into(), spec: map.spec().into(), nodes: map.len() },
            rules: RulesSpec::of::<GoBeyondGame>(game.rules()),
            phase: game.phase(),
            turn: game.turn(),
            to_move: game.to_move().map(|p| p.0),
            consecutive_passes: game.consecutive_passes(),
            passes_to_end: game.passes_to_end(),
            players,
            nodes: map
                .nodes()
                .map(|v| match (board.stone_at(v), game.reserved_by(v), game.claimant(v)) {
                    (Some(_), _, _) => NodeState::Occupied,
                    (None, Some(_), _) => NodeState::Reserved,
                    (None, None, Some(_)) => NodeState::Claimed,
                    (None, None, None) => NodeState::Disputed,
                })
                .collect(),
            board: map.nodes().map(|v| board.stone_at(v).map(|p| p.0)).collect(),
            claims: map.nodes().map(|v| game.claimant(v).map(|p| p.0)).collect(),
            reserved: map.nodes().map(|v| game.reserved_by(v).map(|p| p.0)).collect(),
            awaiting_cleanup: game.awaiting_cleanup().iter().map(|p| p.0).collect(),
            outcome: game.outcome().cloned(),
            events: if history { game.events().to_vec() } else { Vec::new() },
        }
    }
}
