//! The Way of Go and BeSiege as registered rule systems: the wire form of their small actions,
//! their events, settings descriptions, and one [`RuleSystem`] implementation for both, told
//! apart by a [`Variant`].

use std::{fmt::Debug, sync::Arc};

use gobeyond_maps::{Direction, Map, NodeId};
use serde::{Deserialize, Serialize, de::DeserializeOwned};

use super::{
    Action, BesiegeRules, Colour, Config, Illegal, Input, Landing, WayGame, WayOfGoRules, WayState,
    settings::MAX_CONTRACT,
};
use crate::{
    Game, Outcome, Player,
    record::PlayerInfo,
    setup::SetupError,
    system::{Preset, Refusal, RuleSystem, SettingInfo, SettingsError, Start, Turn, Viewer, resolve_node},
};

/// What tells the two rule sets apart: names, settings, and the [`Config`] they run on.
pub trait Variant: Copy + Debug + Default + Send + Sync + 'static {
    const NAME: &'static str;
    const TITLE: &'static str;
    const ABOUT: &'static str;
    const DOCUMENT: &'static str;
    type Settings: Serialize + DeserializeOwned + Clone + PartialEq + Debug + Default + Send + Sync;
    fn config(settings: &Self::Settings) -> Config;
    fn validate(settings: &Self::Settings) -> Result<(), SettingsError>;
    fn presets() -> &'static [Preset];
    fn preset(name: &str) -> Option<Self::Settings>;
    fn describe() -> Vec<SettingInfo>;
}

/// The Way of Go: contracts, any empty point for drops, no stacks.
#[derive(Debug, Clone, Copy, Default)]
pub struct WayOfGo;

/// BeSiege: neutral drops, stacks, most captures when the player to move has no turn.
#[derive(Debug, Clone, Copy, Default)]
pub struct Besiege;

fn max_turns() -> SettingInfo {
    SettingInfo::optional_integer(
        "max_turns",
        serde_json::Value::Null,
        "turns after which the game is scored (empty: ten per node; an engine addition)",
    )
    .range(1.0, 1_000_000.0)
}

static WAY_PRESETS: &[Preset] = &[
    Preset { name: "way-of-go", description: "the document's game: contracts of 5, the pie rule" },
    Preset {
        name: "way-of-go-push",
        description: "with the push variant: a move onto an own piece pushes it",
    },
    Preset { name: "way-of-go-short", description: "contracts of 3, for a quick game" },
];

static BESIEGE_PRESETS: &[Preset] =
    &[Preset { name: "besiege", description: "the document's game: neutral drops, stacks, most captures" }];

impl Variant for WayOfGo {
    const NAME: &'static str = "way-of-go";
    const TITLE: &'static str = "The Way of Go";
    const ABOUT: &'static str =
        "stones move along lines as far as their group has liberties, and capture by landing";
    const DOCUMENT: &'static str = include_str!("../../../../../docs/rules/way-of-go.md");
    type Settings = WayOfGoRules;

    fn config(s: &WayOfGoRules) -> Config {
        Config::from(s)
    }

    fn validate(s: &WayOfGoRules) -> Result<(), SettingsError> {
        s.validate()
    }

    fn presets() -> &'static [Preset] {
        WAY_PRESETS
    }

    fn preset(name: &str) -> Option<WayOfGoRules> {
        let d = WayOfGoRules::default();
        match name.to_ascii_lowercase().as_str() {
            "way-of-go" => Some(d),
            "way-of-go-push" => Some(WayOfGoRules { push: true, ..d }),
            "way-of-go-short" => Some(WayOfGoRules { contracts: [3, 3], ..d }),
            _ => None,
        }
    }

    fn describe() -> Vec<SettingInfo> {
        let d = WayOfGoRules::default();
        vec![
            SettingInfo::integers(
                "contracts",
                d.contracts,
                "captures each seat must make, by seat (set before the pie decides colours)",
            )
            .range(1.0, MAX_CONTRACT as f64),
            SettingInfo::boolean("push", d.push, "a move ending on an own piece pushes it one step further"),
            SettingInfo::boolean(
                "pie",
                d.pie,
                "seat 0 places two Black stones and one White, seat 1 chooses a side",
            ),
            max_turns(),
        ]
    }
}

impl Variant for Besiege {
    const NAME: &'static str = "besiege";
    const TITLE: &'static str = "BeSiege";
    const ABOUT: &'static str =
        "The Way of Go with stacks: drops only where no one attacks, most captures wins";
    const DOCUMENT: &'static str = include_str!("../../../../../docs/rules/besiege.md");
    type Settings = BesiegeRules;

    fn config(s: &BesiegeRules) -> Config {
        Config::from(s)
    }

    fn validate(s: &BesiegeRules) -> Result<(), SettingsError> {
        s.validate()
    }

    fn presets() -> &'static [Preset] {
        BESIEGE_PRESETS
    }

    fn preset(name: &str) -> Option<BesiegeRules> {
        (name.eq_ignore_ascii_case("besiege")).then(BesiegeRules::default)
    }

    fn describe() -> Vec<SettingInfo> {
        let d = BesiegeRules::default();
        vec![
            SettingInfo::boolean(
                "pie",
                d.pie,
                "seat 0 places two Black stones and one White, seat 1 chooses a side",
            ),
            max_turns(),
        ]
    }
}

/// What a seat sends in The Way of Go or BeSiege (and what records keep). Nodes are given by
/// number, by label, or both (records carry both).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(rename = "WayMove"))]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum Move {
    /// One of the pie's stones (seat 0, before the game).
    PieStone {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        node: Option<u64>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        at: Option<String>,
        colour: Colour,
    },
    /// Seat 1's choice of colour after the pie.
    ChooseSide {
        colour: Colour,
    },
    Drop {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        node: Option<u64>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        at: Option<String>,
    },
    /// The top `count` stones of `from` (default: the whole stack) to `to`; `dir` picks the
    /// direction when two reach the same node (wrapped maps), otherwise it may be left out.
    Move {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        from: Option<u64>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        from_at: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        to: Option<u64>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        to_at: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        count: Option<u8>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        dir: Option<Direction>,
    },
    EndTurn,
    /// Only when no turn is possible.
    Pass,
    Resign,
    /// Ran out of time: loses the game (sent by the clock).
    Timeout,
}

impl Move {
    pub fn of(map: &Map, action: Action) -> Move {
        let r = |n: NodeId| (Some(n as u64), Some(map.label(n).to_string()));
        match action {
            Action::PieStone { node, colour } => {
                let (node, at) = r(node);
                Move::PieStone { node, at, colour }
            }
            Action::ChooseSide(colour) => Move::ChooseSide { colour },
            Action::Drop(n) => {
                let (node, at) = r(n);
                Move::Drop { node, at }
            }
            Action::Move { from, count, dir, to } => {
                let (from, from_at) = r(from);
                let (to, to_at) = r(to);
                Move::Move { from, from_at, to, to_at, count: Some(count), dir: Some(dir) }
            }
            Action::EndTurn => Move::EndTurn,
            Action::Pass => Move::Pass,
            Action::Resign => Move::Resign,
        }
    }
}

/// Every effect in a game of The Way of Go or BeSiege.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(rename = "WayEvent"))]
#[serde(tag = "event", rename_all = "snake_case", deny_unknown_fields)]
pub enum Event {
    PieStone {
        player: Player,
        node: NodeId,
        colour: Colour,
    },
    SideChosen {
        player: Player,
        colour: Colour,
    },
    Dropped {
        player: Player,
        node: NodeId,
    },
    /// A non-capturing move (onto an empty node, a stack, or pushing an own piece).
    Moved {
        player: Player,
        from: NodeId,
        to: NodeId,
        count: u8,
        landing: Landing,
    },
    /// A capture: `removed` enemy stones gone (the mover's score), `lost` of the mover's own.
    Captured {
        player: Player,
        from: NodeId,
        to: NodeId,
        count: u8,
        removed: u32,
        lost: u32,
    },
    /// Both reached their contracts in one round: both go up by one.
    ContractsRaised {
        contracts: [u32; 2],
    },
    Passed {
        player: Player,
    },
    Resigned {
        player: Player,
    },
    TimedOut {
        player: Player,
    },
    GameOver {
        outcome: Outcome,
    },
}

fn refusal(e: &Illegal, map: &Map) -> Refusal {
    Refusal::of(e, e.describe(map))
}

impl<V: Variant> WayGame<V> {
    /// The action a wire move names, resolved against this position.
    pub fn action_of(&self, input: &Move) -> Result<Action, Refusal> {
        let map = self.map();
        Ok(match input {
            Move::PieStone { node, at, colour } => {
                Action::PieStone { node: resolve_node(map, *node, at.as_deref())?, colour: *colour }
            }
            Move::ChooseSide { colour } => Action::ChooseSide(*colour),
            Move::Drop { node, at } => Action::Drop(resolve_node(map, *node, at.as_deref())?),
            Move::Move { from, from_at, to, to_at, count, dir } => {
                let from = resolve_node(map, *from, from_at.as_deref())?;
                let to = resolve_node(map, *to, to_at.as_deref())?;
                let count =
                    count.unwrap_or_else(|| if self.config().stacks { self.board().height(from) } else { 1 });
                let (step, _) = self.find_move(from, count, to, *dir).map_err(|e| refusal(&e, map))?;
                Action::Move { from, count, dir: step.dir, to }
            }
            Move::EndTurn => Action::EndTurn,
            Move::Pass => Action::Pass,
            Move::Resign => Action::Resign,
            Move::Timeout => return Err(Refusal::new("bad_action", "a time-out is the clock's to send")),
        })
    }
}

impl<V: Variant> RuleSystem for WayGame<V> {
    const NAME: &'static str = V::NAME;
    const TITLE: &'static str = V::TITLE;
    const ABOUT: &'static str = V::ABOUT;
    const DOCUMENT: &'static str = V::DOCUMENT;

    type Settings = V::Settings;
    type Move = Move;
    type Event = Event;
    type View = WayState;

    fn presets() -> &'static [Preset] {
        V::presets()
    }

    fn preset(name: &str) -> Option<V::Settings> {
        V::preset(name)
    }

    fn describe_settings() -> Vec<SettingInfo> {
        V::describe()
    }

    fn validate(settings: &V::Settings, players: usize) -> Result<(), SettingsError> {
        WayGame::<V>::validate(settings, players)
    }

    fn start(
        map: Arc<Map>,
        players: usize,
        settings: V::Settings,
        start: &Start,
    ) -> Result<Self, SetupError> {
        if players != 2 {
            return Err(SetupError::Rules(format!("{} is for two players, not {players}", V::TITLE)));
        }
        if !start.stones.is_empty() {
            return Err(SetupError::Rules(format!("{} starts on an empty board", V::TITLE)));
        }
        WayGame::new(map, settings)
    }

    fn settings(&self) -> &V::Settings {
        self.rules()
    }

    fn start_position(&self) -> Start {
        Start::default()
    }

    fn turn(&self) -> Turn {
        let phase = match self.phase() {
            super::Phase::Pie { .. } => "pie",
            super::Phase::Choose => "choose_side",
            super::Phase::Start => "playing",
            super::Phase::AfterMove => "drop_after_move",
            super::Phase::AfterDrop { .. } => "move_after_drop",
            super::Phase::Over => return Turn::finished(),
        };
        Turn::to_move(self.to_move(), phase)
    }

    fn submit(&mut self, seat: Player, input: &Move) -> Result<(), Refusal> {
        if *input == Move::Timeout {
            return self.time_out(seat).map_err(|e| refusal(&e, self.map()));
        }
        if *input != Move::Resign && self.to_move() != Some(seat) {
            return Err(refusal(&Illegal::NotYourTurn { player: seat.0 }, self.map()));
        }
        let action = self.action_of(input)?;
        self.play_as(seat, action).map_err(|e| refusal(&e, self.map()))
    }

    fn to_wire(&self, action: Action) -> Move {
        Move::of(self.map(), action)
    }

    fn timeout_move(&self, _: Player) -> Move {
        Move::Timeout
    }

    fn fallback_move(&self, seat: Player) -> Move {
        // The mildest action that is always there: end the turn after a drop, the first legal
        // drop otherwise, a forced pass, or a choice of side.
        let mut out = Vec::new();
        if self.to_move() == Some(seat) {
            self.legal_actions(&mut out);
        }
        let pick = out
            .iter()
            .find(|a| matches!(a, Action::EndTurn | Action::ChooseSide(_)))
            .or_else(|| out.iter().find(|a| matches!(a, Action::Drop(_) | Action::PieStone { .. })))
            .or_else(|| out.first());
        pick.map_or(Move::Resign, |&a| Move::of(self.map(), a))
    }

    fn seat_may_send(input: &Move) -> bool {
        *input != Move::Timeout
    }

    fn input_count(&self) -> usize {
        self.inputs().len()
    }

    fn input(&self, i: usize) -> Option<(Player, Move)> {
        self.inputs().get(i).map(|&(p, input)| {
            (
                p,
                match input {
                    Input::Act(a) => Move::of(self.map(), a),
                    Input::Timeout => Move::Timeout,
                },
            )
        })
    }

    fn events(&self) -> &[Event] {
        WayGame::events(self)
    }

    fn view(&self, _: Viewer, names: &[PlayerInfo], _: bool) -> WayState {
        WayState::of(self, names)
    }
}
