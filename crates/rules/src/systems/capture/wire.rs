//! Capture Go as a registered rule system: the [`RuleSystem`] implementation, in the Go-board
//! systems' shared words ([`crate::go_wire`]).

use std::sync::Arc;

use gobeyond_maps::Map;

use super::{Action, CaptureGame, CaptureRules, CaptureState, Event, Input, Move, settings::PRESETS};
use crate::{
    Game, Player, PlayerInfo,
    setup::SetupError,
    system::{Preset, Refusal, RuleSystem, SettingInfo, SettingsError, Start, Turn, Viewer, resolve_node},
};

/// The wire form of an engine action.
pub(super) fn wire(map: &Map, action: Action) -> Move {
    match action {
        Action::Place(n) => Move::place(map, n),
        Action::Pass => Move::Pass,
        Action::Resign => Move::Resign,
    }
}

impl RuleSystem for CaptureGame {
    const NAME: &'static str = "capture";
    const TITLE: &'static str = "Capture Go";
    const ABOUT: &'static str = "The newcomer's game: the first to capture wins; any map, 2 to 8 players";
    const DOCUMENT: &'static str = include_str!("../../../../../docs/rules/capture.md");

    type Settings = CaptureRules;
    type Move = Move;
    type Event = Event;
    type View = CaptureState;

    fn presets() -> &'static [Preset] {
        PRESETS
    }

    fn preset(name: &str) -> Option<CaptureRules> {
        CaptureRules::preset(name)
    }

    fn describe_settings() -> Vec<SettingInfo> {
        CaptureRules::describe()
    }

    fn validate(settings: &CaptureRules, players: usize) -> Result<(), SettingsError> {
        settings.validate(players)
    }

    fn start(
        map: Arc<Map>,
        players: usize,
        settings: CaptureRules,
        start: &Start,
    ) -> Result<Self, SetupError> {
        CaptureGame::new(map, players, settings, &start.stones, start.first.unwrap_or(Player(0)))
    }

    fn settings(&self) -> &CaptureRules {
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
        let refusal = |e: crate::capture::Illegal, map: &Map| Refusal::of(&e, e.describe(map));
        let action = match input {
            Move::Place { node, at } => Action::Place(resolve_node(self.map(), *node, at.as_deref())?),
            Move::Pass => Action::Pass,
            Move::Resign => Action::Resign,
            Move::Timeout => return self.time_out(seat).map_err(|e| refusal(e, self.map())),
        };
        self.play_as(seat, action).map_err(|e| refusal(e, self.map()))
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
        self.log().len()
    }

    fn input(&self, i: usize) -> Option<(Player, Move)> {
        self.log().wire(i, |input| match *input {
            Input::Act(a) => wire(self.map(), a),
            Input::Timeout => Move::Timeout,
        })
    }

    fn events(&self) -> &[Event] {
        CaptureGame::events(self)
    }

    fn view(&self, _: Viewer, names: &[PlayerInfo], _: bool) -> CaptureState {
        CaptureState::of(self, names)
    }
}
