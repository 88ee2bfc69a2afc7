//! The state of a Gengo game as JSON: what `gobeyond replay` prints and what the web board
//! draws (stones as discs, who overlaps each space, groups with their liberties, why a space
//! cannot be played, both scores).

use gobeyond_maps::NodeId;
use serde::Serialize;

use super::{Action, GengoGame, Illegal, scoring};
use crate::{
    Game, Player,
    record::{MapSummary, PlayerInfo, RulesSpec},
};

#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct GengoState {
    pub map: MapSummary,
    pub rules: RulesSpec,
    /// `playing` or `finished`.
    pub status: &'static str,
    pub to_move: Option<u8>,
    /// Turns played (plays and passes).
    pub moves_played: u32,
    pub turn_limit: u32,
    pub consecutive_passes: u32,
    pub players: Vec<GengoPlayer>,
    /// The stone on each space: `null` or the player.
    pub board: Vec<Option<u8>>,
    /// Who overlaps each space: `null` nobody, 0 or 1 one player, 2 both.
    pub cover: Vec<Option<u8>>,
    /// Who each space counts for under area scoring (`null`: neutral or nobody's).
    pub area: Vec<Option<u8>>,
    /// Every group with its liberties.
    pub groups: Vec<GroupView>,
    /// For the player to move, why each space cannot take a stone (`null`: it can): `stone`,
    /// `overlap`, `ko`, `superko`, `suicide` or `friendly_fire`.
    pub blocked: Vec<Option<&'static str>>,
    /// A stone's disc radius in map units: half the distance to the nearest space another
    /// stone may take.
    pub stone_radius: f64,
    /// The stone that may not be recaptured alone on this turn.
    pub ko: Option<String>,
    pub hash: String,
    pub outcome: Option<crate::Outcome>,
}

#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct GengoPlayer {
    pub player: u8,
    pub name: String,
    pub color: &'static str,
    /// Labels of the player's stones.
    pub stones: Vec<String>,
    /// Opposing stones this player captured.
    pub prisoners: u32,
    /// This player's stones removed (captured, or by their own suicide and friendly fire).
    pub lost: u32,
    /// Stones on the board, with komi for White.
    pub stone_score: f64,
    /// Area, with komi for White.
    pub area_score: f64,
    /// The score that decides (by the `scoring` setting).
    pub score: f64,
    pub resigned: bool,
}

#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct GroupView {
    pub player: u8,
    pub stones: Vec<NodeId>,
    pub liberties: Vec<NodeId>,
}

impl GengoState {
    pub fn of(game: &GengoGame, names: &[PlayerInfo]) -> GengoState {
        let map = game.map();
        let board = game.board();
        let area = scoring::area(board, map);
        let (stone_scores, area_scores, scores) = (game.stone_scores(), game.area_scores(), game.scores());
        let mut seen = vec![false; map.len()];
        let mut groups = Vec::new();
        for (p, player) in board.stone_list() {
            if seen[p as usize] {
                continue;
            }
            let stones = board.group_stones(p);
            for &s in &stones {
                seen[s as usize] = true;
            }
            let mut stones_sorted = stones;
            stones_sorted.sort_unstable();
            groups.push(GroupView { player: player.0, liberties: board.liberties(p), stones: stones_sorted });
        }
        let blocked = map
            .nodes()
            .map(|p| {
                if game.is_over() {
                    return Some("game_over");
                }
                match game.check(Action::Place(p)) {
                    Ok(()) => None,
                    Err(Illegal::Occupied { .. }) => Some("stone"),
                    Err(Illegal::Overlapped { .. }) => Some("overlap"),
                    Err(Illegal::Ko { .. }) => Some("ko"),
                    Err(Illegal::Superko { .. }) => Some("superko"),
                    Err(Illegal::Suicide { .. }) => Some("suicide"),
                    Err(Illegal::FriendlyFire { .. }) => Some("friendly_fire"),
                    Err(_) => Some("other"),
                }
            })
            .collect();
        GengoState {
            map: MapSummary { name: map.name().into(), spec: map.spec().into(), nodes: map.len() },
            rules: RulesSpec::of::<GengoGame>(game.rules()),
            status: if game.is_over() { "finished" } else { "playing" },
            to_move: game.to_move().map(|p| p.0),
            moves_played: game.turns(),
            turn_limit: game.rules().turn_limit(map.len()),
            consecutive_passes: game.consecutive_passes(),
            players: (0..2u8)
                .map(Player)
                .map(|p| GengoPlayer {
                    player: p.0,
                    name: names.get(p.index()).map(|i| i.name.clone()).unwrap_or_default(),
                    color: p.color_name(2),
                    stones: board
                        .stone_list()
                        .filter(|&(_, owner)| owner == p)
                        .map(|(n, _)| map.label(n).to_string())
                        .collect(),
                    prisoners: game.captures(p),
                    lost: game.lost(p),
                    stone_score: stone_scores[p.index()],
                    area_score: area_scores[p.index()],
                    score: game.outcome().map_or(scores[p.index()], |o| o.scores[p.index()]),
                    resigned: game.resigned().contains(&p),
                })
                .collect(),
            board: map.nodes().map(|p| board.stone_at(p).map(|s| s.0)).collect(),
            cover: map
                .nodes()
                .map(|p| match board.cover(p) {
                    [0, 0] => None,
                    [_, 0] => Some(0),
                    [0, _] => Some(1),
                    _ => Some(2),
                })
                .collect(),
            area: area.owner,
            groups,
            blocked,
            stone_radius: stone_radius(game),
            ko: game.ko_stone().map(|(k, _)| map.label(k).to_string()),
            hash: format!("{:016x}", board.hash()),
            outcome: game.outcome().cloned(),
        }
    }
}

/// Half the distance from a space with the largest overlap to the nearest space outside it
/// that it reaches: on the default regions of a square grid, 1 (stones two apart touch).
fn stone_radius(game: &GengoGame) -> f64 {
    let map = game.map();
    let tables = game.board().tables();
    let Some(p) = map.nodes().max_by_key(|&p| (tables.overlap(p).len(), tables.reach(p).len())) else {
        return 0.5;
    };
    let c = map.coord(p);
    let dist = |q: NodeId| {
        let d = map.coord(q);
        ((c[0] - d[0]).powi(2) + (c[1] - d[1]).powi(2) + (c[2] - d[2]).powi(2)).sqrt()
    };
    tables
        .reach(p)
        .iter()
        .filter(|q| tables.overlap(p).binary_search(q).is_err())
        .map(|&q| dist(q) / 2.0)
        .fold(f64::INFINITY, f64::min)
        .clamp(0.05, 8.0)
}
