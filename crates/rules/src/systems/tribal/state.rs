//! The state of a Tribal Go game as JSON: what `gobeyond replay` prints and what a UI draws.

use serde::Serialize;

use super::{Event, Phase, TribalGame};
use crate::{
    Game, Outcome, Player,
    record::{MapSummary, PlayerInfo, RulesSpec},
};

#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct TribalState {
    pub map: MapSummary,
    pub rules: RulesSpec,
    /// `roll_off`, `choose_start`, `handicap`, `playing`, `surrender_offer`, `clean_up`,
    /// `finished`.
    pub phase: &'static str,
    /// The seat that must act (the player to move, or the one answering an offer).
    pub to_move: Option<u8>,
    /// The seat whose dice the server rolls next.
    pub rolling: Option<u8>,
    /// This turn's roll, once made: the two dice and the range.
    pub dice: Option<[u8; 2]>,
    pub range: Option<u32>,
    /// Per node, whether the player to move may reach it with the range in force (their start
    /// point and stones within range); empty when nobody is placing.
    pub reachable: Vec<bool>,
    pub consecutive_passes: u32,
    pub players: Vec<TribalPlayer>,
    /// Per node: the stone's player (`null` when empty).
    pub board: Vec<Option<u8>>,
    /// The start points still to choose from (while choosing).
    pub start_choices: Vec<u32>,
    /// A surrender offer waiting for its answer: from, to.
    pub offer: Option<[u8; 2]>,
    /// The handicap stones still to come, by seat, in order.
    pub handicap_left: Vec<u8>,
    /// Clean-Up: players who still have to name their dead stones.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub awaiting_cleanup: Vec<u8>,
    pub outcome: Option<Outcome>,
    pub events: Vec<Event>,
}

#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct TribalPlayer {
    pub player: u8,
    pub name: String,
    pub color: &'static str,
    /// The node of the start point, once chosen.
    pub start: Option<u32>,
    /// The faction occupying this one.
    pub occupier: Option<u8>,
    /// Prisoners held, per colour (seat): `held[c]` stones of seat `c`.
    pub held: Vec<u32>,
    /// Stones left in supply, when limited.
    pub supply: Option<u32>,
    /// Ran out of time: passes on every turn.
    pub gone: bool,
    /// The roll-off's totals.
    pub rolls: Vec<u8>,
    pub stones: Vec<String>,
}

impl TribalState {
    pub fn build(game: &TribalGame, names: &[PlayerInfo], history: bool) -> TribalState {
        let map = game.map();
        let n = game.player_count();
        let placing = matches!(game.phase(), Phase::Handicap { .. } | Phase::Turn { .. })
            && game.chance_seat().is_none();
        let mover = game.acting().first().copied();
        let reachable = match (placing, mover) {
            (true, Some(p))
                if !matches!(game.phase(), Phase::Turn { rolled: None })
                    || game.rules().range != super::RangeRule::Dice =>
            {
                game.reachable(p, game.current_range())
            }
            _ => Vec::new(),
        };
        let rolled = match game.phase() {
            Phase::Turn { rolled: Some(r) } => Some(*r),
            _ => None,
        };
        TribalState {
            map: MapSummary { name: map.name().into(), spec: map.spec().into(), nodes: map.len() },
            rules: RulesSpec::of::<TribalGame>(game.rules()),
            phase: match game.phase() {
                Phase::RollOff { .. } => "roll_off",
                Phase::ChooseStart { .. } => "choose_start",
                Phase::Handicap { .. } => "handicap",
                Phase::Turn { .. } => "playing",
                Phase::Offer { .. } => "surrender_offer",
                Phase::CleanUp => "clean_up",
                Phase::Finished => "finished",
            },
            to_move: if matches!(game.phase(), Phase::CleanUp | Phase::Finished) {
                None
            } else {
                mover.map(|p| p.0)
            },
            rolling: game.chance_seat().map(|p| p.0),
            dice: rolled.map(|r| [r.dice.0, r.dice.1]),
            range: if placing { game.current_range() } else { None },
            reachable,
            consecutive_passes: game.passes(),
            players: (0..n as u8)
                .map(Player)
                .map(|p| TribalPlayer {
                    player: p.0,
                    name: names.get(p.index()).map(|i| i.name.clone()).unwrap_or_default(),
                    color: p.color_name(n),
                    start: game.start_point(p),
                    occupier: game.occupier(p).map(|o| o.0),
                    held: game.prisoners(p).to_vec(),
                    supply: game.supply(p),
                    gone: game.is_gone(p),
                    rolls: game.rolloff(p).to_vec(),
                    stones: map
                        .nodes()
                        .filter(|&v| game.stone_at(v) == Some(p))
                        .map(|v| map.label(v).to_string())
                        .collect(),
                })
                .collect(),
            board: map.nodes().map(|v| game.stone_at(v).map(|p| p.0)).collect(),
            start_choices: match game.phase() {
                Phase::ChooseStart { .. } => game
                    .start_candidates()
                    .iter()
                    .copied()
                    .filter(|v| (0..n as u8).all(|p| game.start_point(Player(p)) != Some(*v)))
                    .collect(),
                _ => Vec::new(),
            },
            offer: match game.phase() {
                Phase::Offer { from, to } => Some([from.0, to.0]),
                _ => None,
            },
            handicap_left: game.handicap_left().iter().map(|p| p.0).collect(),
            awaiting_cleanup: if *game.phase() == Phase::CleanUp {
                game.acting().iter().map(|p| p.0).collect()
            } else {
                Vec::new()
            },
            outcome: game.outcome().cloned(),
            events: if history { game.events().to_vec() } else { Vec::new() },
        }
    }
}
