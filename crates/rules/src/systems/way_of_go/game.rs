//! The engine of The Way of Go and BeSiege: a game's state over the [`StackBoard`], its setup
//! (the pie, or a position), what it tells its callers, and the [`Game`] trait (what may be
//! done is in `legality.rs`, playing it in `turns.rs`). Rules and readings are those of
//! `docs/rules/spec/way-of-go.md` for The Way of Go and `docs/rules/spec/besiege.md` for BeSiege.

use std::{marker::PhantomData, sync::Arc};

use gobeyond_maps::{Map, NodeId};

use super::{Action, Besiege, Colour, Config, Event, Illegal, Input, Phase, StackBoard, Variant, WayOfGo};
use crate::{Game, Outcome, Player, kit::InputLog, setup::SetupError, system::SettingsError};

/// The Way of Go.
pub type WayOfGoGame = WayGame<WayOfGo>;
/// BeSiege.
pub type BesiegeGame = WayGame<Besiege>;

/// A game of The Way of Go or BeSiege (`V`).
#[derive(Debug)]
pub struct WayGame<V: Variant> {
    pub(super) map: Arc<Map>,
    pub(super) rules: V::Settings,
    pub(super) config: Config,
    pub(super) board: StackBoard,
    pub(super) phase: Phase,
    /// Each seat's colour (seat 0 Black until the pie's choice).
    pub(super) colours: [Colour; 2],
    pub(super) to_move: Option<Player>,
    /// Captures by seat.
    pub(super) captures: [u32; 2],
    /// Contracts by seat, as raised (The Way of Go).
    pub(super) contracts: [u32; 2],
    /// Regular turns completed (passes included; the pie is not counted).
    pub(super) turns: u32,
    pub(super) forced_passes: u32,
    pub(super) inputs: InputLog<Input>,
    pub(super) events: Vec<Event>,
    pub(super) recording: bool,
    pub(super) resigned: Vec<Player>,
    pub(super) outcome: Option<Outcome>,
    _variant: PhantomData<V>,
}

impl<V: Variant> Clone for WayGame<V> {
    fn clone(&self) -> Self {
        WayGame {
            map: self.map.clone(),
            rules: self.rules.clone(),
            config: self.config,
            board: self.board.clone(),
            phase: self.phase,
            colours: self.colours,
            to_move: self.to_move,
            captures: self.captures,
            contracts: self.contracts,
            turns: self.turns,
            forced_passes: self.forced_passes,
            inputs: self.inputs.clone(),
            events: self.events.clone(),
            recording: self.recording,
            resigned: self.resigned.clone(),
            outcome: self.outcome.clone(),
            _variant: PhantomData,
        }
    }
}

impl<V: Variant> WayGame<V> {
    /// Checks settings for a number of players.
    pub fn validate(rules: &V::Settings, players: usize) -> Result<(), SettingsError> {
        if players != 2 {
            return Err(SettingsError::new(
                "players",
                format!("{} is for two players, not {players}", V::TITLE),
            ));
        }
        V::validate(rules)
    }

    /// A new game on `map`, which must have straight lines.
    pub fn new(map: Arc<Map>, rules: V::Settings) -> Result<Self, SetupError> {
        V::validate(&rules).map_err(|e| SetupError::Rules(e.to_string()))?;
        let lines = map.lines().map_or(0, |l| l.directions());
        if lines == 0 {
            return Err(SetupError::Rules(format!(
                "{} needs a map with straight lines (pieces move along them), and {} has none",
                V::TITLE,
                map.name()
            )));
        }
        let config = V::config(&rules);
        let pie = config.pie;
        let contracts = config.contracts.unwrap_or([0, 0]);
        let mut board = StackBoard::new(map.clone());
        if config.neutral_drops {
            // BeSiege's drops go on neutral points: the board counts who attacks each one.
            board.track_attacks();
        }
        let game = WayGame {
            board,
            map,
            rules,
            config,
            phase: if pie { Phase::Pie { black: 0, white: 0 } } else { Phase::Start },
            colours: [Colour::Black, Colour::White],
            to_move: Some(if pie { Player(0) } else { Player(1) }),
            captures: [0; 2],
            contracts,
            turns: 0,
            forced_passes: 0,
            inputs: InputLog::default(),
            events: Vec::new(),
            recording: true,
            resigned: Vec::new(),
            outcome: None,
            _variant: PhantomData,
        };
        Ok(game)
    }

    /// A game from a position (tests, studies, the designers' lab): `stacks` as `(node,
    /// colour, height)`, seat 0 Black and seat 1 White, `to_move` to start a turn; no pie.
    pub fn from_position(
        map: Arc<Map>,
        rules: V::Settings,
        stacks: &[(NodeId, Colour, u8)],
        to_move: Colour,
    ) -> Result<Self, SetupError> {
        let mut game = WayGame::new(map, rules)?;
        for (index, &(node, colour, height)) in stacks.iter().enumerate() {
            if !game.map.contains(node as u64) {
                return Err(SetupError::UnknownNode { index, node: node as u64 });
            }
            if !game.board.is_empty(node) {
                return Err(SetupError::Occupied { index, node });
            }
            if height == 0 {
                return Err(SetupError::Rules(format!("stack #{index} has no stones")));
            }
            if height > 1 && !game.config.stacks {
                return Err(SetupError::Rules(format!("stack #{index}: {} has no stacks", V::TITLE)));
            }
            game.board.put(node, colour, height);
        }
        game.phase = Phase::Start;
        game.colours = [Colour::Black, Colour::White];
        game.to_move = Some(game.seat_of(to_move));
        game.start_turn();
        Ok(game)
    }

    pub fn rules(&self) -> &V::Settings {
        &self.rules
    }

    pub fn config(&self) -> &Config {
        &self.config
    }

    pub fn board(&self) -> &StackBoard {
        &self.board
    }

    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// The colour `seat` plays (seat 0 Black until seat 1 chooses).
    pub fn colour_of(&self, seat: Player) -> Colour {
        self.colours[seat.index() & 1]
    }

    /// The seat playing `colour`.
    pub fn seat_of(&self, colour: Colour) -> Player {
        if self.colours[0] == colour { Player(0) } else { Player(1) }
    }

    /// Whether seat 1 has chosen (or there is no pie): colours are final.
    pub fn sides_chosen(&self) -> bool {
        !matches!(self.phase, Phase::Pie { .. } | Phase::Choose)
    }

    pub fn captures(&self, seat: Player) -> u32 {
        self.captures[seat.index() & 1]
    }

    /// The contract of `seat` now (raised when both reach theirs in one round); `None` in
    /// BeSiege.
    pub fn contract(&self, seat: Player) -> Option<u32> {
        self.config.contracts.map(|_| self.contracts[seat.index() & 1])
    }

    /// Forced passes in a row.
    pub fn forced_passes(&self) -> u32 {
        self.forced_passes
    }

    pub fn turns(&self) -> u32 {
        self.turns
    }

    pub fn turn_limit(&self) -> u32 {
        self.config.turn_limit(self.map.len())
    }

    pub fn inputs(&self) -> &[(Player, Input)] {
        self.inputs.as_slice()
    }

    pub fn events(&self) -> &[Event] {
        &self.events
    }

    pub fn resigned(&self) -> &[Player] {
        &self.resigned
    }

    /// Events are kept (the default) or not (search copies).
    pub fn set_recording(&mut self, on: bool) {
        self.recording = on;
        if !on {
            self.events.clear();
        }
    }

    pub(super) fn emit(&mut self, e: Event) {
        if self.recording {
            self.events.push(e);
        }
    }
}

impl<V: Variant> Game for WayGame<V> {
    type Action = Action;
    type Illegal = Illegal;

    fn map(&self) -> &Arc<Map> {
        &self.map
    }

    fn player_count(&self) -> usize {
        2
    }

    fn to_move(&self) -> Option<Player> {
        self.to_move
    }

    fn legal_actions(&self, out: &mut Vec<Action>) {
        out.clear();
        match self.phase {
            Phase::Over => {}
            Phase::Pie { black, white } => {
                for node in self.map.nodes() {
                    if self.may_drop(node).is_ok() {
                        if black < 2 {
                            out.push(Action::PieStone { node, colour: Colour::Black });
                        }
                        if white < 1 {
                            out.push(Action::PieStone { node, colour: Colour::White });
                        }
                    }
                }
            }
            Phase::Choose => {
                out.extend([Action::ChooseSide(Colour::Black), Action::ChooseSide(Colour::White)])
            }
            Phase::Start => {
                out.extend(self.map.nodes().filter(|&n| self.may_drop(n).is_ok()).map(Action::Drop));
                self.moves(|s, l| {
                    if l.captures() || self.drop_after(&s, l) {
                        out.push(Action::Move { from: s.from, count: s.count, dir: s.dir, to: s.to });
                    }
                });
                if out.is_empty() {
                    out.push(Action::Pass);
                }
            }
            Phase::AfterMove => {
                out.extend(self.map.nodes().filter(|&n| self.may_drop(n).is_ok()).map(Action::Drop));
            }
            Phase::AfterDrop { dropped } => {
                out.push(Action::EndTurn);
                self.moves(|s, l| {
                    if s.from != dropped && !l.captures() {
                        out.push(Action::Move { from: s.from, count: s.count, dir: s.dir, to: s.to });
                    }
                });
            }
        }
    }

    fn check(&self, action: Action) -> Result<(), Illegal> {
        self.check_action(action)
    }

    fn play(&mut self, action: Action) -> Result<(), Illegal> {
        let seat = self.to_move.ok_or(Illegal::GameOver)?;
        self.play_as(seat, action)
    }

    fn outcome(&self) -> Option<&Outcome> {
        self.outcome.as_ref()
    }
}
