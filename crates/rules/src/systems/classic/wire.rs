//! Classic Go as a registered rule system: its wire form, events, settings description and
//! the [`RuleSystem`] implementation.

use std::sync::Arc;

use gobeyond_maps::{Map, NodeId};
use serde::{Deserialize, Serialize};

use super::{
    Action, ClassicGame, ClassicRules, ClassicView, Extra, HANDICAP_KOMI, Illegal, MAX_HANDICAP, PRESETS,
    count::notation,
};
use crate::{
    Game, Outcome, Player,
    record::PlayerInfo,
    setup::SetupError,
    system::{
        Preset, Refusal, RuleSystem, SettingInfo, SettingsError, Start, Turn, Viewer, node_ref, resolve_node,
    },
};

/// What a seat sends in a classic game (and what records keep). A placement names its node by
/// number (`node`), by label (`at`) or both; written records carry both.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(rename = "ClassicMove"))]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum Move {
    #[serde(alias = "occupy")]
    Place {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        node: Option<u64>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        at: Option<String>,
    },
    Pass,
    Resign,
    /// Ran out of time: loses the game (sent by the clock); in the dead-stone phase, accepts.
    Timeout,
    /// Dead-stone phase: the dead stones as this player marks them, by number (`nodes`), label
    /// (`at`) or both; any stone stands for its whole group. `proposed` marks the computer's
    /// first estimate.
    Dead {
        #[serde(default)]
        nodes: Vec<u64>,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        at: Vec<String>,
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        proposed: bool,
    },
    /// Dead-stone phase: accept the marking.
    Accept,
    /// Dead-stone phase: disagree, and play on.
    Resume,
}

impl Move {
    /// A placement on `node`, with its label.
    pub fn place(map: &Map, node: NodeId) -> Move {
        let (node, at) = node_ref(map, node);
        Move::Place { node, at }
    }

    /// The dead stones, with their labels.
    pub fn dead(map: &Map, nodes: &[NodeId], proposed: bool) -> Move {
        Move::Dead {
            nodes: nodes.iter().map(|&n| u64::from(n)).collect(),
            at: nodes.iter().map(|&n| map.label(n).to_string()).collect(),
            proposed,
        }
    }

    /// The wire form of an input that is not a move.
    pub fn of_extra(map: &Map, extra: &Extra) -> Move {
        match extra {
            Extra::Timeout => Move::Timeout,
            Extra::Dead { nodes, proposed } => Move::dead(map, nodes, *proposed),
            Extra::Accept => Move::Accept,
            Extra::Resume => Move::Resume,
        }
    }

    /// The wire form of an engine action.
    pub fn of(map: &Map, action: Action) -> Move {
        match action {
            Action::Place(n) => Move::place(map, n),
            Action::Pass => Move::Pass,
            Action::Resign => Move::Resign,
        }
    }
}

/// Every effect in a classic game.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(rename = "ClassicEvent"))]
#[serde(tag = "event", rename_all = "snake_case", deny_unknown_fields)]
pub enum Event {
    Placed {
        player: Player,
        node: NodeId,
    },
    /// `player` captured `nodes` of `owner` (the mover's own stones too, with suicide allowed).
    Captured {
        player: Player,
        owner: Player,
        nodes: Vec<NodeId>,
    },
    Passed {
        player: Player,
        consecutive: u32,
    },
    Resigned {
        player: Player,
    },
    TimedOut {
        player: Player,
    },
    /// The passes have ended play: the players agree on dead stones.
    ScoringStarted {},
    /// `player` marked these stones dead (whole groups); `proposed` for the computer's estimate.
    DeadMarked {
        player: Player,
        nodes: Vec<NodeId>,
        proposed: bool,
    },
    Accepted {
        player: Player,
        /// Accepted by running out of time.
        timeout: bool,
    },
    /// `player` disagreed: play goes on.
    Resumed {
        player: Player,
    },
    GameOver {
        outcome: Outcome,
    },
}

/// A refusal with its code and sentence.
pub(super) fn refusal(e: &Illegal, map: &Map) -> Refusal {
    Refusal::of(e, e.describe(map))
}

impl RuleSystem for ClassicGame {
    const NAME: &'static str = "classic";
    const TITLE: &'static str = "Classic Go";
    const ABOUT: &'static str = "Go on any map for 2 to 8 players, with the usual rule sets";
    const DOCUMENT: &'static str = include_str!("../../../../../docs/rules/classic.md");
    const RATED_IN_KYU_DAN: bool = true;

    type Settings = ClassicRules;
    type Move = Move;
    type Event = Event;
    type View = ClassicView;

    fn presets() -> &'static [Preset] {
        PRESETS
    }

    fn preset(name: &str) -> Option<ClassicRules> {
        ClassicRules::preset(name)
    }

    fn describe_settings() -> Vec<SettingInfo> {
        let d = ClassicRules::default();
        vec![
            SettingInfo::choice("ko", d.ko, "which repetitions are forbidden"),
            SettingInfo::choice(
                "suicide",
                d.suicide,
                "whether a move may leave its own group without liberties",
            ),
            SettingInfo::number(
                "komi",
                d.komi,
                "points for moving later (with N players, seat k gets komi × k / (N − 1))",
            )
            .range(-1000.0, 1000.0),
            SettingInfo::choice("scoring", d.scoring, "area, territory, or stones on the board"),
            SettingInfo::integer(
                "handicap",
                d.handicap,
                "stones Black gets before White's first move (0, or 2 to 9; two players); komi is then 0.5 unless given",
            )
            .range(0.0, f64::from(MAX_HANDICAP)),
            SettingInfo::choice(
                "handicap_placement",
                d.handicap_placement,
                "fixed: on the standard points; free: Black places them anywhere",
            ),
        ]
    }

    fn validate(settings: &ClassicRules, players: usize) -> Result<(), SettingsError> {
        if !(2..=crate::MAX_PLAYERS).contains(&players) {
            return Err(SettingsError::new("players", format!("a game needs 2 to 8 players, not {players}")));
        }
        if !settings.komi.is_finite() || settings.komi.abs() > 1000.0 {
            return Err(SettingsError::new(
                "komi",
                format!("must be a number from -1000 to 1000, not {}", settings.komi),
            ));
        }
        if settings.handicap == 1 || settings.handicap > MAX_HANDICAP {
            return Err(SettingsError::new(
                "handicap",
                format!("must be 0, or 2 to {MAX_HANDICAP} stones, not {}", settings.handicap),
            ));
        }
        if settings.handicap > 0 && players != 2 {
            return Err(SettingsError::new("handicap", "handicap stones are for two-player games"));
        }
        if settings.passes_to_end == Some(0) {
            return Err(SettingsError::new("passes_to_end", "must be at least 1"));
        }
        Ok(())
    }

    fn start(
        map: Arc<Map>,
        players: usize,
        settings: ClassicRules,
        start: &Start,
    ) -> Result<Self, SetupError> {
        ClassicGame::with_handicap(map, players, settings, &start.stones, start.first)
    }

    /// A handicap without a komi given: half a point (White still wins ties).
    fn defaults_for(given: &crate::wire::Object) -> ClassicRules {
        let handicap = given.get("handicap").and_then(|h| h.as_u64()).unwrap_or(0);
        let komi = if handicap >= 2 { HANDICAP_KOMI } else { ClassicRules::default().komi };
        ClassicRules { komi, ..ClassicRules::default() }
    }

    fn result_notation(outcome: &Outcome, players: usize) -> Option<String> {
        notation(outcome, players)
    }

    fn settings(&self) -> &ClassicRules {
        self.rules()
    }

    fn start_position(&self) -> Start {
        Start { stones: self.setup().to_vec(), first: Some(self.first_player()) }
    }

    fn turn(&self) -> Turn {
        if let Some(phase) = self.scoring() {
            let seats = phase
                .accepted
                .iter()
                .enumerate()
                .filter(|(_, a)| !**a)
                .map(|(i, _)| Player(i as u8))
                .collect();
            return Turn { seats, phase: "scoring", simultaneous: true, chance: None };
        }
        match self.to_move() {
            Some(p) => Turn::to_move(Some(p), "playing"),
            None => Turn::finished(),
        }
    }

    fn submit(&mut self, seat: Player, input: &Move) -> Result<(), Refusal> {
        let action = match input {
            Move::Place { node, at } => Action::Place(resolve_node(self.map(), *node, at.as_deref())?),
            Move::Pass => Action::Pass,
            Move::Resign => Action::Resign,
            Move::Timeout => {
                if self.is_over() {
                    return Err(Refusal::new("game_over", "the game is over"));
                }
                self.time_out(seat);
                return Ok(());
            }
            Move::Dead { nodes, at, proposed } => {
                let mut list = Vec::with_capacity(nodes.len() + at.len());
                for &n in nodes {
                    list.push(resolve_node(self.map(), Some(n), None)?);
                }
                for label in at {
                    let n = resolve_node(self.map(), None, Some(label))?;
                    if !list.contains(&n) {
                        list.push(n);
                    }
                }
                return self.mark_dead(seat, &list, *proposed).map_err(|e| refusal(&e, self.map()));
            }
            Move::Accept => return self.accept(seat).map_err(|e| refusal(&e, self.map())),
            Move::Resume => return self.resume(seat).map_err(|e| refusal(&e, self.map())),
        };
        self.play_as(seat, action).map_err(|e| refusal(&e, self.map()))
    }

    fn to_wire(&self, action: Action) -> Move {
        Move::of(self.map(), action)
    }

    fn timeout_move(&self, _: Player) -> Move {
        Move::Timeout
    }

    fn fallback_move(&self, _: Player) -> Move {
        if self.handicap_left() > 0 {
            return self.next_handicap_stone().map_or(Move::Resign, |n| Move::place(self.map(), n));
        }
        match self.scoring() {
            // Nothing marked yet: a proposal of no dead stones; then agreement.
            Some(phase) if !phase.marked => Move::dead(self.map(), &[], true),
            Some(_) => Move::Accept,
            None => Move::Pass,
        }
    }

    /// The first marking of the dead-stone phase is the computer's proposal (from the search's
    /// ownership on the server), made for the first seat the phase waits for.
    fn decided_for(&self) -> Vec<Player> {
        match self.scoring() {
            Some(phase) if !phase.marked => {
                phase.accepted.iter().position(|a| !a).map(|i| Player(i as u8)).into_iter().collect()
            }
            _ => Vec::new(),
        }
    }

    fn seat_may_send(input: &Move) -> bool {
        *input != Move::Timeout
    }

    fn input_count(&self) -> usize {
        self.moves().len() + self.extras().len()
    }

    /// Moves and other inputs merged in the order they happened: extra input `k`, after `at`
    /// moves, is input `at + k`. Costs the number of extra inputs (the server asks for every
    /// new input).
    fn input(&self, i: usize) -> Option<(Player, Move)> {
        let mut before = 0;
        for (k, (at, p, extra)) in self.extras().iter().enumerate() {
            match (at + k).cmp(&i) {
                std::cmp::Ordering::Equal => return Some((*p, Move::of_extra(self.map(), extra))),
                std::cmp::Ordering::Less => before += 1,
                std::cmp::Ordering::Greater => break,
            }
        }
        self.moves().get(i - before).map(|&(p, a)| (p, Move::of(self.map(), a)))
    }

    fn events(&self) -> &[Event] {
        ClassicGame::events(self)
    }

    fn view(&self, _: Viewer, names: &[PlayerInfo], _: bool) -> ClassicView {
        ClassicView::of(self, names)
    }

    fn sgf(&self, players: &[PlayerInfo], date: Option<&str>) -> Option<Result<String, String>> {
        Some(super::sgf::export(self, players, date).map_err(|e| e.to_string()))
    }
}
