//! GoBeyond as a registered rule system: its wire form, settings description and the
//! [`RuleSystem`] implementation.

use std::sync::Arc;

use gobeyond_maps::{Map, NodeId};
use serde::{Deserialize, Serialize};

use super::{
    Action, Event, GoBeyondGame, GoBeyondRules, GoBeyondState, Illegal, Input, Phase, SettingsError as Bad,
};
use crate::{
    Game, Player,
    record::PlayerInfo,
    setup::SetupError,
    system::{
        Preset, Refusal, RuleSystem, SettingInfo, SettingsError, Start, Turn, TurnClock, Viewer, node_ref,
        resolve_node, resolve_nodes,
    },
};

/// What a seat sends in a GoBeyond game (and what records keep).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(rename = "GoBeyondMove"))]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum Move {
    /// Occupy a node, by number (`node`), label (`at`) or both.
    #[serde(alias = "occupy")]
    Place {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        node: Option<u64>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        at: Option<String>,
    },
    Pass,
    Skip,
    Resign,
    /// The turn's time ran out: a Skip (sent by the clock).
    Timeout,
    /// Clean-Up: the stones given up, by number (`nodes`), label (`at`) or both.
    Surrender {
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        nodes: Vec<u64>,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        at: Vec<String>,
    },
    /// Clean-Up time ran out: nothing given up (sent by the clock).
    CleanupTimeout,
}

impl Move {
    /// The wire form of a logged input.
    fn of(map: &Map, input: &Input) -> Move {
        match input {
            Input::Action(Action::Occupy(n)) => {
                let (node, at) = node_ref(map, *n);
                Move::Place { node, at }
            }
            Input::Action(Action::Skip) => Move::Skip,
            Input::Action(Action::Pass) => Move::Pass,
            Input::Action(Action::Resign) => Move::Resign,
            Input::Action(Action::Timeout) => Move::Timeout,
            Input::Surrender(nodes) => Move::Surrender {
                nodes: nodes.iter().map(|&n| n as u64).collect(),
                at: nodes.iter().map(|&n| map.label(n).to_string()).collect(),
            },
            Input::CleanUpTimeout => Move::CleanupTimeout,
        }
    }

    /// The engine's input for this wire form.
    pub fn input(&self, map: &Map) -> Result<Input, Refusal> {
        Ok(match self {
            Move::Place { node, at } => {
                Input::Action(Action::Occupy(resolve_node(map, *node, at.as_deref())?))
            }
            Move::Pass => Input::Action(Action::Pass),
            Move::Skip => Input::Action(Action::Skip),
            Move::Resign => Input::Action(Action::Resign),
            Move::Timeout => Input::Action(Action::Timeout),
            Move::Surrender { nodes, at } => Input::Surrender(resolve_nodes(map, nodes, at)?),
            Move::CleanupTimeout => Input::CleanUpTimeout,
        })
    }

    /// Clean-Up: surrender `nodes`.
    pub fn surrender(map: &Map, nodes: &[NodeId]) -> Move {
        Move::of(map, &Input::Surrender(nodes.to_vec()))
    }

    /// A phase-3 action.
    pub fn action(map: &Map, action: Action) -> Move {
        Move::of(map, &Input::Action(action))
    }
}

fn refusal(e: &Illegal, map: &Map, players: usize) -> Refusal {
    Refusal::of(e, e.describe(map, players))
}

/// A setting described for forms, from the document's defaults.
fn amount(name: &'static str, default: impl serde::Serialize, help: &'static str) -> SettingInfo {
    SettingInfo::integer(name, default, help).range(0.0, super::settings::MAX_AMOUNT as f64)
}

/// A time setting described for forms.
fn seconds(name: &'static str, default: impl serde::Serialize, help: &'static str) -> SettingInfo {
    SettingInfo::integer(name, default, help).range(0.0, super::settings::MAX_SECONDS as f64)
}

impl RuleSystem for GoBeyondGame {
    const NAME: &'static str = "gobeyond";
    const TITLE: &'static str = "GoBeyond";
    const ABOUT: &'static str =
        "PlayPoints economy, claims and income, Reserved nodes, Clean-Up; 2 to 8 players";
    const DOCUMENT: &'static str = include_str!("../../../../../docs/rules/gobeyond.md");

    type Settings = GoBeyondRules;
    type Move = Move;
    type Event = Event;
    type View = GoBeyondState;

    fn presets() -> &'static [Preset] {
        &[
            Preset {
                name: "gobeyond",
                description: "the document's numbers: 200 PlayPoints, occupy 10, 20 s turns",
            },
            Preset {
                name: "gobeyond-untimed",
                description: "the document's numbers with no turn clock: play at your own pace",
            },
        ]
    }

    fn preset(name: &str) -> Option<GoBeyondRules> {
        if name.eq_ignore_ascii_case("gobeyond") {
            Some(GoBeyondRules::default())
        } else if name.eq_ignore_ascii_case("gobeyond-untimed") {
            // A newcomer who looks away is not timed out of a first game (three missed turns
            // resign a player under the document's 20 s turns).
            Some(GoBeyondRules { turn_seconds: 0, cleanup_seconds: 0, ..GoBeyondRules::default() })
        } else {
            None
        }
    }

    fn describe_settings() -> Vec<SettingInfo> {
        let d = GoBeyondRules::default();
        vec![
            amount("starting_points", d.starting_points, "PlayPoints every player starts with"),
            SettingInfo::integers(
                "handicap",
                &d.handicap,
                "extra starting PlayPoints per seat, in turn order",
            )
            .at_least(0.0),
            amount("occupy_cost", d.occupy_cost, "price of occupying a node"),
            amount("capture_award", d.capture_award, "award per captured stone"),
            amount("claim_income", d.claim_income, "income per claimed node each turn"),
            amount("surrender_award", d.surrender_award, "award per surrendered stone, to the claimant"),
            amount("final_bonus", d.final_bonus, "final bonus per claimed node"),
            SettingInfo::number("tie_break", d.tie_break, "tie-break komi per turn position (below 1/8)")
                .range(0.001, 0.125),
            seconds(
                "turn_seconds",
                d.turn_seconds,
                "seconds per turn (0: untimed; up to 30 days = 2592000); a turn that runs out is a Skip",
            ),
            seconds("cleanup_seconds", d.cleanup_seconds, "seconds for Clean-Up choices (0: untimed)"),
            SettingInfo::integer(
                "timeouts_to_resign",
                d.timeouts_to_resign,
                "a player whose turn runs out this many times in a row is resigned (0: never)",
            )
            .range(0.0, 1000.0),
            SettingInfo::integer(
                "turn_limit",
                d.turn_limit,
                "play ends after this many turns, scored as usual (0: no limit)",
            )
            .range(0.0, 1_000_000.0),
        ]
    }

    fn validate(settings: &GoBeyondRules, players: usize) -> Result<(), SettingsError> {
        settings.validate(players).map_err(|e| {
            let name = match &e {
                Bad::Negative { name, .. } | Bad::TooLarge { name, .. } => *name,
                Bad::HandicapSeats { .. } => "handicap",
                Bad::Players(_) => "players",
                Bad::TieBreak(_) => "tie_break",
                Bad::Passes => "passes_to_end",
            };
            SettingsError::new(name, e.to_string())
        })
    }

    fn clock(settings: &GoBeyondRules) -> Option<TurnClock> {
        Some(TurnClock {
            turn_ms: i64::from(settings.turn_seconds) * 1000,
            decision_ms: i64::from(settings.cleanup_seconds) * 1000,
        })
    }

    fn start(
        map: Arc<Map>,
        players: usize,
        settings: GoBeyondRules,
        start: &Start,
    ) -> Result<Self, SetupError> {
        if start.first.is_some_and(|f| f != Player(0)) {
            return Err(SetupError::Rules(
                "in GoBeyond seat 0 moves first: list the players in turn order".into(),
            ));
        }
        GoBeyondGame::with_setup(map, players, settings, &start.stones)
    }

    fn settings(&self) -> &GoBeyondRules {
        self.rules()
    }

    fn start_position(&self) -> Start {
        Start { stones: self.setup().to_vec(), first: None }
    }

    fn turn(&self) -> Turn {
        match self.phase() {
            Phase::Playing => Turn::to_move(self.to_move(), "playing"),
            Phase::CleanUp => {
                Turn { seats: self.awaiting_cleanup(), phase: "clean_up", simultaneous: true, chance: None }
            }
            Phase::Finished => Turn::finished(),
        }
    }

    fn submit(&mut self, seat: Player, input: &Move) -> Result<(), Refusal> {
        let input = input.input(self.map())?;
        self.apply(seat, &input).map_err(|e| refusal(&e, self.map(), self.player_count()))
    }

    fn to_wire(&self, action: Action) -> Move {
        Move::action(self.map(), action)
    }

    fn timeout_move(&self, _: Player) -> Move {
        if self.phase() == Phase::CleanUp { Move::CleanupTimeout } else { Move::Timeout }
    }

    fn fallback_move(&self, seat: Player) -> Move {
        if self.phase() == Phase::CleanUp {
            Move::surrender(self.map(), &self.suggest_surrender(seat))
        } else {
            Move::Skip
        }
    }

    fn decided_for(&self) -> Vec<Player> {
        GoBeyondGame::decided_for(self)
    }

    fn seat_may_send(input: &Move) -> bool {
        !matches!(input, Move::Timeout | Move::CleanupTimeout)
    }

    fn input_count(&self) -> usize {
        self.log().len()
    }

    fn input(&self, i: usize) -> Option<(Player, Move)> {
        self.log().get(i).map(|(p, input)| (*p, Move::of(self.map(), input)))
    }

    fn events(&self) -> &[Event] {
        GoBeyondGame::events(self)
    }

    fn view(&self, _: Viewer, names: &[PlayerInfo], history: bool) -> GoBeyondState {
        GoBeyondState::build(self, names, history)
    }
}
