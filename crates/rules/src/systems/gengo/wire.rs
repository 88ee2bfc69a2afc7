//! Gengo as a registered rule system: its wire form, events, settings description and the
//! [`RuleSystem`] implementation.

use std::sync::Arc;

use gobeyond_maps::Map;

use super::{Action, Event, GengoGame, GengoRules, GengoState, Illegal, Input, Move};
use crate::{
    Game, Player,
    record::PlayerInfo,
    setup::SetupError,
    system::{Preset, Refusal, RuleSystem, SettingInfo, SettingsError, Start, Turn, Viewer, resolve_node},
};

/// The wire form of an engine action.
fn wire(map: &Map, action: Action) -> Move {
    match action {
        Action::Place(n) => Move::place(map, n),
        Action::Pass => Move::Pass,
        Action::Resign => Move::Resign,
    }
}

fn refusal(e: &Illegal, map: &Map) -> Refusal {
    Refusal::of(e, e.describe(map))
}

static PRESETS: &[Preset] = &[
    Preset { name: "gengo", description: "the document's game: 3×3 overlap, stones decide" },
    Preset { name: "gengo-classic", description: "ordinary Go's regions: one space, four neighbours" },
    Preset { name: "gengo-area", description: "the default regions, decided by area" },
];

impl RuleSystem for GengoGame {
    const NAME: &'static str = "gengo";
    const TITLE: &'static str = "Gengo";
    const ABOUT: &'static str = "Go on a finer grid: stones overlap a region and connect across a wider one";
    const DOCUMENT: &'static str = include_str!("../../../../../docs/rules/gengo.md");
    // Two boards (the game's and a trial one) of about 240 bytes a node.
    const STATE_BYTES_PER_NODE: usize = 512;

    type Settings = GengoRules;
    type Move = Move;
    type Event = Event;
    type View = GengoState;

    fn presets() -> &'static [Preset] {
        PRESETS
    }

    fn preset(name: &str) -> Option<GengoRules> {
        let d = GengoRules::default();
        match name.to_ascii_lowercase().as_str() {
            "gengo" => Some(d),
            "gengo-classic" => Some(GengoRules { regions: super::Regions::Classic, ..d }),
            "gengo-area" => Some(GengoRules { scoring: super::GengoScoring::Area, ..d }),
            _ => None,
        }
    }

    fn describe_settings() -> Vec<SettingInfo> {
        let d = GengoRules::default();
        vec![
            SettingInfo::choice(
                "regions",
                d.regions,
                "each stone's overlap and neighbour regions (custom offsets through the API)",
            )
            // Custom regions are a JSON object, not a form's choice.
            .only(&["default", "classic"]),
            SettingInfo::choice("suicide", d.suicide, "a play whose own group dies"),
            SettingInfo::choice(
                "friendly_fire",
                d.friendly_fire,
                "a play that kills another of the mover's groups",
            ),
            SettingInfo::choice(
                "self_capture_order",
                d.self_capture_order,
                "which of the mover's dead groups go first",
            ),
            SettingInfo::choice(
                "own_overlap",
                d.own_overlap,
                "playing inside the overlap of one's own stones (which then connect)",
            )
            .only(&["forbidden", "allowed"]),
            SettingInfo::choice("ko", d.ko, "which repetitions are forbidden"),
            SettingInfo::choice("scoring", d.scoring, "what decides: stones on the board, or area"),
            SettingInfo::number("komi", d.komi, "points added to White's score").range(-1000.0, 1000.0),
            SettingInfo::integer(
                "handicap",
                d.handicap,
                "Black's consecutive plays at the start (0, or 2 and more)",
            )
            .range(0.0, 50.0),
            SettingInfo::optional_integer(
                "max_turns",
                serde_json::Value::Null,
                "turns after which the game is scored (empty: ten per space)",
            )
            .range(1.0, 1_000_000.0),
        ]
    }

    fn validate(settings: &GengoRules, players: usize) -> Result<(), SettingsError> {
        GengoGame::validate(settings, players)
    }

    fn start(map: Arc<Map>, players: usize, settings: GengoRules, start: &Start) -> Result<Self, SetupError> {
        if players != 2 {
            return Err(SetupError::Rules(format!("Gengo is for two players, not {players}")));
        }
        GengoGame::new(map, settings, &start.stones, start.first.unwrap_or(Player(0)))
    }

    fn settings(&self) -> &GengoRules {
        self.rules()
    }

    fn start_position(&self) -> Start {
        Start { stones: self.setup().to_vec(), first: Some(self.first_player()) }
    }

    fn turn(&self) -> Turn {
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
            Move::Timeout => return self.time_out(seat).map_err(|e| refusal(&e, self.map())),
        };
        self.play_as(seat, action).map_err(|e| refusal(&e, self.map()))
    }

    fn to_wire(&self, action: Action) -> Move {
        wire(self.map(), action)
    }

    fn timeout_move(&self, _: Player) -> Move {
        Move::Timeout
    }

    fn fallback_move(&self, _: Player) -> Move {
        Move::Pass
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
                    Input::Act(a) => wire(self.map(), a),
                    Input::Timeout => Move::Timeout,
                },
            )
        })
    }

    fn events(&self) -> &[Event] {
        GengoGame::events(self)
    }

    fn view(&self, _: Viewer, names: &[PlayerInfo], _: bool) -> GengoState {
        GengoState::of(self, names)
    }
}
