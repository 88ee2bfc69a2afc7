//! Everything that happens in a GoBeyond game, as a list of events: a UI animates them and a
//! reader audits every PlayPoint with them (each event that moves PlayPoints says how many).

use gobeyond_maps::{Map, NodeId};
use serde::{Deserialize, Serialize};

use crate::{EndReason, Player};

/// One node whose claimant changed (`None`: occupied or disputed).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(deny_unknown_fields)]
pub struct ClaimChange {
    pub node: NodeId,
    pub from: Option<Player>,
    pub to: Option<Player>,
}

/// An event. Nodes are node numbers of the record's map.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(rename = "GoBeyondEvent"))]
#[serde(tag = "event", rename_all = "snake_case", deny_unknown_fields)]
pub enum Event {
    /// Starting PlayPoints (handicap included).
    StartingPoints { player: Player, points: i64 },
    /// A player's turn begins (phase 1). `turn` counts turns from 1; automatic passes of resigned
    /// players are not turns.
    TurnStarted { turn: u32, player: Player },
    /// Phase 1: the player's reservation ends; the node stays claimed.
    ReservationReleased { player: Player, node: NodeId },
    /// Phase 2: `claimed` nodes earn `points`.
    Income { player: Player, claimed: u32, points: i64 },
    /// Phase 3: a stone placed, `cost` paid.
    Occupied { player: Player, node: NodeId, cost: i64 },
    /// Phase 4: `player` captured `nodes` of `victim` and earned `award`.
    Captured { player: Player, victim: Player, nodes: Vec<NodeId>, award: i64 },
    /// Phase 4 (and Clean-Up): nodes whose claimant changed.
    ClaimsChanged { changes: Vec<ClaimChange> },
    /// Phase 4: the Reserved-node rule made `node` reserved for `player`.
    Reserved { player: Player, node: NodeId },
    /// A Skip; `timeout` when the turn ran out of time.
    Skipped { player: Player, timeout: bool },
    /// A Pass; `automatic` for a resigned player's turn. `consecutive` counts passes in a row.
    Passed { player: Player, automatic: bool, consecutive: u32 },
    /// A resignation; `place` is the final place it earns (1 = first).
    Resigned {
        player: Player,
        place: u32,
        /// Resigned for them: their turn ran out `timeouts_to_resign` times in a row.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        absent: bool,
    },
    /// The turn limit was reached: play ends as if by passes.
    TurnLimitReached { turns: u32 },
    /// Enough passes: Clean-Up begins for `players` (everyone not resigned).
    CleanUpStarted { players: Vec<Player> },
    /// A player's Clean-Up choice; `timeout` when their Clean-Up time ran out (nothing given up).
    Surrendered { player: Player, nodes: Vec<NodeId>, timeout: bool },
    /// Surrendered stones of `owner` leave the board; `claimant` (who claims their nodes now, if
    /// anyone) earns `award`.
    StonesRemoved { owner: Player, nodes: Vec<NodeId>, claimant: Option<Player>, award: i64 },
    /// The final bonus for `claimed` nodes.
    FinalBonus { player: Player, claimed: u32, points: i64 },
    /// The game is over: `ranking` from first place, `scores` per seat (PlayPoints plus the
    /// tie-break komi).
    GameOver { reason: EndReason, ranking: Vec<Player>, scores: Vec<f64> },
}

impl Event {
    /// The PlayPoints this event gives `player` (negative for a cost).
    pub fn points_for(&self, player: Player) -> i64 {
        match *self {
            Event::StartingPoints { player: p, points }
            | Event::Income { player: p, points, .. }
            | Event::FinalBonus { player: p, points, .. }
            | Event::Captured { player: p, award: points, .. }
                if p == player =>
            {
                points
            }
            Event::Occupied { player: p, cost, .. } if p == player => -cost,
            Event::StonesRemoved { claimant: Some(p), award, .. } if p == player => award,
            _ => 0,
        }
    }

    /// A sentence for people, with node labels and colour names.
    pub fn describe(&self, map: &Map, players: usize) -> String {
        let name = |p: Player| p.color_name(players);
        let list = |nodes: &[NodeId]| nodes.iter().map(|&n| map.label(n)).collect::<Vec<_>>().join(" ");
        let stones = |k: usize| if k == 1 { "1 stone".to_string() } else { format!("{k} stones") };
        match self {
            Event::StartingPoints { player, points } => format!("{} starts with {points} PP", name(*player)),
            Event::TurnStarted { turn, player } => format!("Turn {turn}: {}", name(*player)),
            Event::ReservationReleased { player, node } => {
                format!("{}'s reservation of {} ends", name(*player), map.label(*node))
            }
            Event::Income { player, claimed, points } => {
                format!("{} claims {claimed} nodes: +{points} PP", name(*player))
            }
            Event::Occupied { player, node, cost } => {
                format!("{} occupies {}: −{cost} PP", name(*player), map.label(*node))
            }
            Event::Captured { player, victim, nodes, award } => format!(
                "{} captures {} of {} ({}): +{award} PP",
                name(*player),
                stones(nodes.len()),
                name(*victim),
                list(nodes)
            ),
            Event::ClaimsChanged { changes } => {
                let gained = |p: Player| changes.iter().filter(|c| c.to == Some(p)).count();
                let mut parts: Vec<String> = (0..players as u8)
                    .map(Player)
                    .filter(|&p| gained(p) > 0)
                    .map(|p| format!("{} now claims {} more", name(p), gained(p)))
                    .collect();
                let lost = changes.iter().filter(|c| c.to.is_none()).count();
                if lost > 0 {
                    parts.push(format!("{lost} nodes no longer claimed"));
                }
                format!("Claims: {}", parts.join(", "))
            }
            Event::Reserved { player, node } => {
                format!("{} is reserved for {} until their next turn", map.label(*node), name(*player))
            }
            Event::Skipped { player, timeout: false } => format!("{} skips", name(*player)),
            Event::Skipped { player, timeout: true } => format!("{} ran out of time: skip", name(*player)),
            Event::Passed { player, automatic, consecutive } => format!(
                "{} passes{} ({consecutive} in a row)",
                name(*player),
                if *automatic { " (resigned)" } else { "" }
            ),
            Event::Resigned { player, place, absent: false } => {
                format!("{} resigns and takes place {place}", name(*player))
            }
            Event::Resigned { player, place, absent: true } => {
                format!("{} ran out of time too often and is out of the game: place {place}", name(*player))
            }
            Event::TurnLimitReached { turns } => {
                format!("The turn limit ({turns} turns) is reached: play ends")
            }
            Event::CleanUpStarted { players: ps } => format!(
                "Play ends. Clean-Up: {} choose stones to surrender",
                ps.iter().map(|&p| name(p)).collect::<Vec<_>>().join(", ")
            ),
            Event::Surrendered { player, nodes, timeout } => match (nodes.is_empty(), timeout) {
                (_, true) => format!("{} ran out of Clean-Up time: surrenders nothing", name(*player)),
                (true, false) => format!("{} surrenders nothing", name(*player)),
                (false, false) => {
                    format!("{} surrenders {} ({})", name(*player), stones(nodes.len()), list(nodes))
                }
            },
            Event::StonesRemoved { owner, nodes, claimant, award } => match claimant {
                Some(c) => format!(
                    "{} of {} removed ({}): +{award} PP to {}",
                    stones(nodes.len()),
                    name(*owner),
                    list(nodes),
                    name(*c)
                ),
                None => format!(
                    "{} of {} removed ({}): disputed, no award",
                    stones(nodes.len()),
                    name(*owner),
                    list(nodes)
                ),
            },
            Event::FinalBonus { player, claimed, points } => {
                format!("{} claims {claimed} nodes at the end: +{points} PP", name(*player))
            }
            Event::GameOver { ranking, scores, .. } => {
                let places: Vec<String> = ranking
                    .iter()
                    .enumerate()
                    .map(|(i, &p)| format!("{}. {} {}", i + 1, name(p), scores[p.index()]))
                    .collect();
                format!("Game over: {}", places.join(", "))
            }
        }
    }
}
