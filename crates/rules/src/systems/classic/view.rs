//! The state of a classic game as JSON: what `gobeyond replay` prints and what a UI draws.

use serde::Serialize;

use super::{ClassicGame, ScoreCount, count::notation};
use crate::{
    Game, Player,
    record::{MapSummary, PlayerInfo, RulesSpec},
    regions,
};

/// The state of a game as JSON: what `gobeyond replay` prints.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(rename = "ClassicState"))]
pub struct ClassicView {
    pub map: MapSummary,
    pub rules: RulesSpec,
    /// `playing`, `scoring` (the dead-stone phase) or `finished`.
    pub status: &'static str,
    /// The player to move, while the game is on.
    pub to_move: Option<u8>,
    pub moves_played: usize,
    pub consecutive_passes: u32,
    pub players: Vec<PlayerState>,
    /// Colour per node: `null` for empty, else the player number.
    pub board: Vec<Option<u8>>,
    /// Per node, the player who owns it (stone or claimed empty region), else `null`; dead
    /// stones marked (or agreed) count as removed.
    pub ownership: Vec<Option<u8>>,
    /// Stones marked dead (the dead-stone phase) or agreed dead (after it).
    pub dead: Vec<u32>,
    /// While the position is counted (the dead-stone phase, an end by passes): per node, the
    /// player whose territory it is (an empty point, or a dead stone's), else `null`. Empty
    /// otherwise.
    pub territory: Vec<Option<u8>>,
    /// Moves as Go players number them: placements and passes, not free handicap stones.
    pub move_number: usize,
    /// Free handicap: stones Black still places before White's first move.
    #[serde(skip_serializing_if = "is_zero")]
    #[cfg_attr(feature = "ts", ts(as = "Option<u32>", optional))]
    pub handicap_left: u32,
    /// The result as Go players write it (`W+8.5`, `B+R`, `W+T`, `Jigo`; two players only).
    pub result: Option<String>,
    /// The dead-stone phase: seats that have accepted the marking.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub accepted: Option<Vec<u8>>,
    pub ko: Option<String>,
    pub hash: String,
    pub outcome: Option<crate::Outcome>,
}

#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(rename = "ClassicPlayer"))]
pub struct PlayerState {
    pub player: u8,
    pub name: String,
    pub color: &'static str,
    /// Labels of the player's stones.
    pub stones: Vec<String>,
    pub prisoners: u32,
    pub score: f64,
    /// The count (territory, stones or captures, komi) while the position is counted.
    pub count: Option<ScoreCount>,
    pub resigned: bool,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

impl ClassicView {
    pub fn of(game: &ClassicGame, names: &[PlayerInfo]) -> ClassicView {
        let map = game.map();
        let board = game.board();
        let n = game.player_count();
        let dead = game.dead_stones();
        let scores = match game.outcome() {
            Some(o) => o.scores.clone(),
            None => game.scores_with_dead(dead),
        };
        let (without_dead, _) = regions::remove_dead(board, dead, n);
        let count = game.counting().then(|| game.count(dead));
        ClassicView {
            map: MapSummary { name: map.name().into(), spec: map.spec().into(), nodes: map.len() },
            rules: RulesSpec::of::<ClassicGame>(game.rules()),
            status: if game.is_over() {
                "finished"
            } else if game.scoring().is_some() {
                "scoring"
            } else {
                "playing"
            },
            to_move: game.to_move().map(|p| p.0),
            moves_played: game.moves().len(),
            consecutive_passes: game.consecutive_passes(),
            players: (0..n as u8)
                .map(Player)
                .map(|p| PlayerState {
                    player: p.0,
                    name: names.get(p.index()).map(|i| i.name.clone()).unwrap_or_default(),
                    color: p.color_name(n),
                    stones: map
                        .nodes()
                        .filter(|&v| board.stone_at(v) == Some(p))
                        .map(|v| map.label(v).into())
                        .collect(),
                    prisoners: game.prisoners(p),
                    score: scores[p.index()],
                    count: count.as_ref().and_then(|c| c.players.get(p.index()).cloned()),
                    resigned: game.resigned().contains(&p),
                })
                .collect(),
            board: map.nodes().map(|v| board.stone_at(v).map(|p| p.0)).collect(),
            ownership: regions::ownership(&without_dead).into_iter().map(|o| o.map(|p| p.0)).collect(),
            dead: dead.to_vec(),
            territory: count.map_or_else(Vec::new, |c| c.territory.iter().map(|o| o.map(|p| p.0)).collect()),
            move_number: game.move_number(),
            handicap_left: game.handicap_left(),
            result: game.outcome().and_then(|o| notation(o, n)),
            accepted: game
                .scoring()
                .map(|s| s.accepted.iter().enumerate().filter(|(_, a)| **a).map(|(i, _)| i as u8).collect()),
            ko: board.ko().map(|(node, _)| map.label(node).to_string()),
            hash: format!("{:016x}", board.hash()),
            outcome: game.outcome().cloned(),
        }
    }
}
