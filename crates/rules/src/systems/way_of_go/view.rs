//! The state of a game of The Way of Go or BeSiege as JSON: what `gobeyond replay` prints and
//! what the web board draws (stacks with their heights, each stack's ranges, the legal moves
//! and drops of the player to move, the points each colour attacks, captures against
//! contracts).

use serde::Serialize;

use super::{Colour, Landing, Phase, Variant, WayGame};
use crate::{
    Game, Player, RuleSystem,
    record::{MapSummary, PlayerInfo, RulesSpec},
};

#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct WayState {
    pub map: MapSummary,
    pub rules: RulesSpec,
    /// `pie`, `choose_side`, `playing` (start of a turn), `drop_after_move`,
    /// `move_after_drop`, or `finished`.
    pub phase: &'static str,
    pub status: &'static str,
    pub to_move: Option<u8>,
    /// Regular turns played (the pie not counted).
    pub turns: u32,
    pub turn_limit: u32,
    pub players: Vec<WayPlayer>,
    /// The seat whose stack is on each node (`null`: empty); `colour` says which colour.
    pub board: Vec<Option<u8>>,
    /// Forced passes in a row (two end the game).
    pub consecutive_passes: u32,
    /// The colour of the stack on each node (`null`: empty).
    pub colour: Vec<Option<Colour>>,
    pub height: Vec<u8>,
    /// For each node, the range of each top part of its stack: `ranges[n][k-1]` is how far the
    /// top `k` stones move (one entry for a single stone).
    pub ranges: Vec<Vec<u32>>,
    /// Who attacks each empty node: bit 0 Black, bit 1 White (BeSiege; all 0 in The Way of Go).
    pub attacked: Vec<u8>,
    /// Nodes where the player to move may drop now.
    pub drops: Vec<u32>,
    /// The moves the player to move may make now.
    pub moves: Vec<WayMoveView>,
    /// The node dropped this turn (its piece may not move after).
    pub dropped: Option<u32>,
    pub hash: String,
    pub outcome: Option<crate::Outcome>,
}

#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct WayMoveView {
    pub from: u32,
    pub count: u8,
    pub dir: u8,
    pub to: u32,
    pub landing: Landing,
}

#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct WayPlayer {
    pub player: u8,
    pub name: String,
    /// The seat's colour (seat 0 is Black until the pie's choice).
    pub colour: Colour,
    /// The colour's name, `Black` or `White`.
    pub color: &'static str,
    pub captures: u32,
    /// The contract now (The Way of Go), raised when both reach theirs in one round.
    pub contract: Option<u32>,
    /// Stones on the board, all stacks counted.
    pub stone_count: u32,
    /// Labels of the nodes holding the seat's stacks.
    pub stones: Vec<String>,
    pub resigned: bool,
}

impl WayState {
    pub fn of<V: Variant>(game: &WayGame<V>, names: &[PlayerInfo]) -> WayState {
        let map = game.map();
        let board = game.board();
        let mut drops = Vec::new();
        let mut moves = Vec::new();
        let mut legal = Vec::new();
        game.legal_actions(&mut legal);
        for a in &legal {
            match *a {
                super::Action::Drop(n) | super::Action::PieStone { node: n, .. } if !drops.contains(&n) => {
                    drops.push(n);
                }
                super::Action::Move { from, count, dir, to } => {
                    if let Ok((_, landing)) = game.find_move(from, count, to, Some(dir)) {
                        moves.push(WayMoveView { from, count, dir, to, landing });
                    }
                }
                _ => {}
            }
        }
        WayState {
            map: MapSummary { name: map.name().into(), spec: map.spec().into(), nodes: map.len() },
            rules: RulesSpec::of::<WayGame<V>>(game.rules()),
            phase: game.turn().phase,
            status: if game.is_over() { "finished" } else { "playing" },
            to_move: game.to_move().map(|p| p.0),
            turns: game.turns(),
            turn_limit: game.turn_limit(),
            players: (0..2u8)
                .map(Player)
                .map(|p| WayPlayer {
                    player: p.0,
                    name: names.get(p.index()).map(|i| i.name.clone()).unwrap_or_default(),
                    colour: game.colour_of(p),
                    color: game.colour_of(p).name(),
                    captures: game.captures(p),
                    contract: game.contract(p),
                    stone_count: board.stones(game.colour_of(p)),
                    stones: board
                        .stacks()
                        .filter(|&(_, c, _)| c == game.colour_of(p))
                        .map(|(n, _, _)| map.label(n).to_string())
                        .collect(),
                    resigned: game.resigned().contains(&p),
                })
                .collect(),
            board: map.nodes().map(|n| board.colour(n).map(|c| game.seat_of(c).0)).collect(),
            consecutive_passes: game.forced_passes(),
            colour: map.nodes().map(|n| board.colour(n)).collect(),
            height: map.nodes().map(|n| board.height(n)).collect(),
            ranges: map.nodes().map(|n| (1..=board.height(n)).map(|k| board.range(n, k)).collect()).collect(),
            attacked: game.attack_map().into_owned(),
            drops,
            moves,
            dropped: match game.phase() {
                Phase::AfterDrop { dropped } => Some(dropped),
                _ => None,
            },
            hash: format!("{:016x}", board.hash()),
            outcome: game.outcome().cloned(),
        }
    }
}
