//! The engine of The Way of Go and BeSiege: the pie, drops, moves and captures, the contract,
//! the end and the outcome, over the [`StackBoard`]. Rules and readings are those of
//! `docs/rules/spec/way-of-go.md` for The Way of Go and `docs/rules/spec/besiege.md` for BeSiege.

use std::{cell::RefCell, marker::PhantomData, sync::Arc};

use gobeyond_maps::{Direction, Map, NodeId};

use super::{Besiege, Colour, Config, Event, Landing, StackBoard, Step, Variant, WayOfGo};
use crate::{
    EndReason, Game, Outcome, Player, kit::InputLog, rank, setup::SetupError, system::SettingsError,
};

thread_local! {
    /// A board to try a move on (is a drop left after it?), reused.
    static AFTER_MOVE: RefCell<Option<StackBoard>> = const { RefCell::new(None) };
}

/// The Way of Go.
pub type WayOfGoGame = WayGame<WayOfGo>;
/// BeSiege.
pub type BesiegeGame = WayGame<Besiege>;

/// One small action of the player to move.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Action {
    /// One of the pie's three stones (two Black, one White), by seat 0.
    PieStone {
        node: NodeId,
        colour: Colour,
    },
    /// Seat 1 takes a colour; seat 0 gets the other.
    ChooseSide(Colour),
    /// A stone of the mover's colour on an empty node.
    Drop(NodeId),
    /// The top `count` stones of `from` along direction `dir` to `to`.
    Move {
        from: NodeId,
        count: u8,
        dir: Direction,
        to: NodeId,
    },
    /// Ends a turn after a drop, without the optional move.
    EndTurn,
    /// Only when no turn is possible (The Way of Go; an engine addition, A6).
    Pass,
    Resign,
}

/// One input: an action of a seat, or its clock running out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Input {
    Act(Action),
    Timeout,
}

/// Where a turn stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Phase {
    /// Seat 0 places the pie's stones (`black` and `white` placed so far).
    Pie {
        black: u8,
        white: u8,
    },
    /// Seat 1 chooses a colour.
    Choose,
    /// The start of a turn: drop, move, or capture.
    Start,
    /// After a non-capturing move: the drop must follow.
    AfterMove,
    /// After a drop: a non-capturing move of another piece, or the end of the turn.
    AfterDrop {
        dropped: NodeId,
    },
    Over,
}

/// Why an action was refused. The game is unchanged.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error, strum::IntoStaticStr)]
#[strum(serialize_all = "snake_case")]
pub enum Illegal {
    #[error("node {node} is not on the map")]
    UnknownNode { node: u64 },
    #[error("node {node} is not empty")]
    Occupied { node: NodeId },
    #[error("node {node} is attacked (drops go on neutral points)")]
    NotNeutral { node: NodeId },
    #[error("the pie has its stones of that colour")]
    PieColour { colour: Colour },
    #[error("node {node} holds no stone of the mover")]
    NotYours { node: NodeId },
    #[error("the stack on {node} has {height} stones, not {count}")]
    #[strum(serialize = "bad_count")]
    Count { node: NodeId, count: u8, height: u8 },
    #[error("the group at {node} has no liberties")]
    NoRange { node: NodeId },
    #[error("no move of range {range} from {from} ends on {to}")]
    NotInRange { from: NodeId, to: NodeId, range: u32 },
    #[error("{to} holds an own piece")]
    OwnPiece { to: NodeId },
    #[error("a capture is a whole turn")]
    CaptureNotNow { to: NodeId },
    #[error("the dropped piece may not move this turn")]
    DroppedPiece { node: NodeId },
    #[error("no drop would be possible after this move")]
    NoDropAfter { from: NodeId, to: NodeId },
    #[error("that action does not fit this point of the turn")]
    WrongStep { expected: &'static str },
    #[error("a pass is only allowed with no possible turn")]
    PassNotForced,
    #[error("it is not player {player}'s turn")]
    NotYourTurn { player: u8 },
    #[error("the game is over")]
    GameOver,
}

impl Illegal {
    /// A sentence for people, with node labels.
    pub fn describe(&self, map: &Map) -> String {
        let l = |n: NodeId| map.label(n).to_string();
        match *self {
            Illegal::UnknownNode { node } => format!("node {node} is not on this map ({} nodes)", map.len()),
            Illegal::Occupied { node } => format!("{} is not empty", l(node)),
            Illegal::NotNeutral { node } => {
                format!("{} is attacked (a stack could move there): drops go only on neutral points", l(node))
            }
            Illegal::PieColour { colour } => {
                format!(
                    "the pie already has its {} stone{}",
                    colour.name(),
                    if colour == Colour::Black { "s" } else { "" }
                )
            }
            Illegal::NotYours { node } => format!("{} holds none of your stones", l(node)),
            Illegal::Count { node, count, height } => {
                format!("the stack on {} has {height} stone(s): {count} cannot be lifted", l(node))
            }
            Illegal::NoRange { node } => {
                format!("the group of {} has no liberties, so it cannot move", l(node))
            }
            Illegal::NotInRange { from, to, range } => format!(
                "{} moves exactly {range} step(s) along a line, and none of those ends on {}",
                l(from),
                l(to)
            ),
            Illegal::OwnPiece { to } => format!("{} holds your own piece: one cannot capture it", l(to)),
            Illegal::CaptureNotNow { to } => format!(
                "landing on {} would capture, and a capture must be the whole turn (no drop before or after)",
                l(to)
            ),
            Illegal::DroppedPiece { node } => {
                format!("{} was just dropped: the move after a drop is of a different piece", l(node))
            }
            Illegal::NoDropAfter { from, to } => format!(
                "after {}–{} no neutral point would be left for the drop that must follow",
                l(from),
                l(to)
            ),
            Illegal::WrongStep { expected } => format!("now {expected}"),
            Illegal::PassNotForced => "a pass is only allowed when no turn is possible".into(),
            Illegal::NotYourTurn { player } => format!("it is not seat {player}'s turn"),
            Illegal::GameOver => "the game is over".into(),
        }
    }
}

/// A game of The Way of Go or BeSiege (`V`).
#[derive(Debug)]
pub struct WayGame<V: Variant> {
    map: Arc<Map>,
    rules: V::Settings,
    config: Config,
    board: StackBoard,
    phase: Phase,
    /// Each seat's colour (seat 0 Black until the pie's choice).
    colours: [Colour; 2],
    to_move: Option<Player>,
    /// Captures by seat.
    captures: [u32; 2],
    /// Contracts by seat, as raised (The Way of Go).
    contracts: [u32; 2],
    /// Regular turns completed (passes included; the pie is not counted).
    turns: u32,
    forced_passes: u32,
    inputs: InputLog<Input>,
    events: Vec<Event>,
    recording: bool,
    resigned: Vec<Player>,
    outcome: Option<Outcome>,
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

    fn emit(&mut self, e: Event) {
        if self.recording {
            self.events.push(e);
        }
    }

    /// Colours attacking `node`: bit 0 Black, bit 1 White (always 0 without neutral drops).
    /// The board keeps them up to date (`reach.rs`).
    pub fn attacked_by(&self, node: NodeId) -> u8 {
        self.board.attackers(node)
    }

    /// Who attacks each node of the board (bit 0 Black, bit 1 White), for views.
    pub fn attack_map(&self) -> std::borrow::Cow<'_, [u8]> {
        std::borrow::Cow::Owned(self.map.nodes().map(|n| self.board.attackers(n)).collect())
    }

    /// Whether a stone may be dropped on `node` now (empty, and neutral where that matters).
    pub fn may_drop(&self, node: NodeId) -> Result<(), Illegal> {
        if !self.board.is_empty(node) {
            return Err(Illegal::Occupied { node });
        }
        if self.config.neutral_drops && self.attacked_by(node) != 0 {
            return Err(Illegal::NotNeutral { node });
        }
        Ok(())
    }

    fn any_drop(&self) -> bool {
        self.map.nodes().any(|n| self.may_drop(n).is_ok())
    }

    /// The move `from`-`to` lifting `count` stones of the mover, with what it does. The first
    /// direction that reaches `to` is used when `dir` is `None`.
    pub fn find_move(
        &self,
        from: NodeId,
        count: u8,
        to: NodeId,
        dir: Option<Direction>,
    ) -> Result<(Step, Landing), Illegal> {
        let player = self.to_move.ok_or(Illegal::GameOver)?;
        let colour = self.colour_of(player);
        if self.board.colour(from) != Some(colour) {
            return Err(Illegal::NotYours { node: from });
        }
        let height = self.board.height(from);
        let max = if self.config.stacks { height } else { 1 };
        if count == 0 || count > max {
            return Err(Illegal::Count { node: from, count, height });
        }
        let range = self.board.range(from, count);
        if range == 0 {
            return Err(Illegal::NoRange { node: from });
        }
        let mut found = None;
        let mut own = false;
        let each = |s: Step| {
            if s.to != to || found.is_some() {
                return;
            }
            match self.board.landing(colour, &s, self.config.stacks, self.config.push) {
                Some(l) => found = Some((s, l)),
                None => own = true,
            }
        };
        match dir {
            // The search names the direction of every move it plays: one walk, not all.
            Some(d) => self.board.step_along(from, count, d, range).into_iter().for_each(each),
            None => self.board.steps(from, count, each),
        }
        match found {
            Some(f) => Ok(f),
            None if own => Err(Illegal::OwnPiece { to }),
            None => Err(Illegal::NotInRange { from, to, range }),
        }
    }

    /// Every move of the player to move with its landing (whatever the point of the turn).
    pub fn moves(&self, each: impl FnMut(Step, Landing)) {
        let Some(player) = self.to_move else { return };
        self.board.moves(self.colour_of(player), self.config.stacks, self.config.push, each);
    }

    /// Every capturing move of the player to move, in the order of [`WayGame::moves`].
    pub fn capturing_moves(&self, each: impl FnMut(Step, Landing)) {
        let Some(player) = self.to_move else { return };
        self.board.capturing_moves(self.colour_of(player), self.config.stacks, self.config.push, each);
    }

    /// Whether a drop would be possible after this non-capturing move (BeSiege: neutral
    /// points change with every move).
    fn drop_after(&self, step: &Step, landing: Landing) -> bool {
        if !self.config.neutral_drops {
            // The moved piece leaves its node empty.
            return true;
        }
        let colour = self.colour_of(self.to_move.unwrap_or(Player(0)));
        AFTER_MOVE.with_borrow_mut(|trial| {
            let board = trial.get_or_insert_with(|| self.board.clone());
            board.clone_from(&self.board);
            board.apply(colour, step, landing);
            self.map.nodes().any(|n| board.is_empty(n) && board.attackers(n) == 0)
        })
    }

    /// Whether the player to move has any turn at all (drop, move then drop, capture).
    pub fn has_turn(&self) -> bool {
        if self.any_drop() {
            return true;
        }
        let mut any = false;
        self.moves(|s, l| {
            if !any && (l.captures() || self.drop_after(&s, l)) {
                any = true;
            }
        });
        any
    }

    /// Checks `action` for the player to move.
    pub fn check_action(&self, action: Action) -> Result<(), Illegal> {
        if self.to_move.is_none() {
            return Err(Illegal::GameOver);
        }
        match (self.phase, action) {
            (Phase::Over, _) => Err(Illegal::GameOver),
            (_, Action::Resign) => Ok(()),
            (Phase::Pie { black, white }, Action::PieStone { node, colour }) => {
                let full = match colour {
                    Colour::Black => black >= 2,
                    Colour::White => white >= 1,
                };
                if full {
                    return Err(Illegal::PieColour { colour });
                }
                self.check_node(node)?;
                self.may_drop(node)
            }
            (Phase::Pie { .. }, _) => {
                Err(Illegal::WrongStep { expected: "the pie: two Black stones and one White" })
            }
            (Phase::Choose, Action::ChooseSide(_)) => Ok(()),
            (Phase::Choose, _) => Err(Illegal::WrongStep { expected: "choose Black or White" }),
            (Phase::Start | Phase::AfterMove, Action::Drop(node)) => {
                self.check_node(node)?;
                self.may_drop(node)
            }
            (Phase::Start, Action::Move { from, count, dir, to }) => {
                self.check_node(from)?;
                self.check_node(to)?;
                let (step, landing) = self.find_move(from, count, to, Some(dir))?;
                if !landing.captures() && !self.drop_after(&step, landing) {
                    return Err(Illegal::NoDropAfter { from, to });
                }
                Ok(())
            }
            (Phase::AfterDrop { dropped }, Action::Move { from, count, dir, to }) => {
                self.check_node(from)?;
                self.check_node(to)?;
                if from == dropped {
                    return Err(Illegal::DroppedPiece { node: from });
                }
                let (_, landing) = self.find_move(from, count, to, Some(dir))?;
                if landing.captures() {
                    return Err(Illegal::CaptureNotNow { to });
                }
                Ok(())
            }
            (Phase::AfterDrop { .. }, Action::EndTurn) => Ok(()),
            (Phase::Start, Action::Pass) => {
                if self.has_turn() {
                    Err(Illegal::PassNotForced)
                } else {
                    Ok(())
                }
            }
            (Phase::Start, _) => Err(Illegal::WrongStep { expected: "drop, move, or capture" }),
            (Phase::AfterMove, _) => Err(Illegal::WrongStep { expected: "the drop that follows a move" }),
            (Phase::AfterDrop { .. }, _) => {
                Err(Illegal::WrongStep { expected: "a non-capturing move of another piece, or end the turn" })
            }
        }
    }

    fn check_node(&self, node: NodeId) -> Result<(), Illegal> {
        if self.map.contains(node as u64) { Ok(()) } else { Err(Illegal::UnknownNode { node: node as u64 }) }
    }

    /// Plays `action` for `seat`, checked; resignations are taken from any seat still playing.
    pub fn play_as(&mut self, seat: Player, action: Action) -> Result<(), Illegal> {
        if self.outcome.is_some() {
            return Err(Illegal::GameOver);
        }
        if action == Action::Resign {
            if seat.index() > 1 {
                return Err(Illegal::NotYourTurn { player: seat.0 });
            }
            self.inputs.push(seat, Input::Act(action));
            self.resigned.push(seat);
            self.emit(Event::Resigned { player: seat });
            self.finish(EndReason::Resignation, Some(Player(1 - seat.0)));
            return Ok(());
        }
        if self.to_move != Some(seat) {
            return Err(Illegal::NotYourTurn { player: seat.0 });
        }
        self.check_action(action)?;
        self.inputs.push(seat, Input::Act(action));
        self.apply(seat, action);
        Ok(())
    }

    /// `seat`'s clock ran out: it loses.
    pub fn time_out(&mut self, seat: Player) -> Result<(), Illegal> {
        if self.outcome.is_some() {
            return Err(Illegal::GameOver);
        }
        if seat.index() > 1 {
            return Err(Illegal::NotYourTurn { player: seat.0 });
        }
        self.inputs.push(seat, Input::Timeout);
        self.emit(Event::TimedOut { player: seat });
        self.finish(EndReason::Time, Some(Player(1 - seat.0)));
        Ok(())
    }

    fn apply(&mut self, seat: Player, action: Action) {
        let colour = self.colour_of(seat);
        match action {
            Action::PieStone { node, colour } => {
                self.board.drop_stone(node, colour);
                self.emit(Event::PieStone { player: seat, node, colour });
                if let Phase::Pie { black, white } = self.phase {
                    let (black, white) = match colour {
                        Colour::Black => (black + 1, white),
                        Colour::White => (black, white + 1),
                    };
                    self.phase = if black == 2 && white == 1 {
                        self.to_move = Some(Player(1));
                        Phase::Choose
                    } else {
                        Phase::Pie { black, white }
                    };
                }
            }
            Action::ChooseSide(c) => {
                self.colours = [c.other(), c];
                self.emit(Event::SideChosen { player: seat, colour: c });
                self.phase = Phase::Start;
                self.to_move = Some(self.seat_of(Colour::White));
                self.start_turn();
            }
            Action::Drop(node) => {
                self.board.drop_stone(node, colour);
                self.emit(Event::Dropped { player: seat, node });
                match self.phase {
                    Phase::AfterMove => self.end_turn(),
                    _ => self.phase = Phase::AfterDrop { dropped: node },
                }
            }
            Action::Move { from, count, dir, to } => {
                let Ok((step, landing)) = self.find_move(from, count, to, Some(dir)) else { return };
                let (removed, lost) = self.board.apply(colour, &step, landing);
                if landing.captures() {
                    self.captures[seat.index()] += removed;
                    self.emit(Event::Captured { player: seat, from, to, count, removed, lost });
                    self.end_turn();
                } else {
                    self.emit(Event::Moved { player: seat, from, to, count, landing });
                    match self.phase {
                        Phase::AfterDrop { .. } => self.end_turn(),
                        _ => self.phase = Phase::AfterMove,
                    }
                }
            }
            Action::EndTurn => self.end_turn(),
            Action::Pass => {
                self.emit(Event::Passed { player: seat });
                self.forced_passes += 1;
                self.end_turn_after_pass();
            }
            Action::Resign => {}
        }
    }

    fn end_turn(&mut self) {
        self.forced_passes = 0;
        self.end_turn_after_pass();
    }

    fn end_turn_after_pass(&mut self) {
        let Some(seat) = self.to_move else { return };
        self.turns += 1;
        // The Way of Go's contracts are judged at the end of each round (White, then Black).
        if self.config.contracts.is_some() && self.colour_of(seat) == Colour::Black {
            match (self.captures[0] >= self.contracts[0], self.captures[1] >= self.contracts[1]) {
                (true, true) => {
                    self.contracts[0] += 1;
                    self.contracts[1] += 1;
                    self.emit(Event::ContractsRaised { contracts: self.contracts });
                }
                (true, false) => return self.finish(EndReason::Contract, Some(Player(0))),
                (false, true) => return self.finish(EndReason::Contract, Some(Player(1))),
                (false, false) => {}
            }
        }
        if self.forced_passes >= 2 {
            return self.finish(EndReason::NoLegalMove, None);
        }
        if self.turns >= self.turn_limit() {
            return self.finish(EndReason::TurnLimit, None);
        }
        self.to_move = Some(Player(1 - seat.0));
        self.phase = Phase::Start;
        self.start_turn();
    }

    /// BeSiege ends as soon as the player to move has no turn (BeSiege rule 9).
    fn start_turn(&mut self) {
        if self.config.contracts.is_none() && !self.has_turn() {
            self.finish(EndReason::NoLegalMove, None);
        }
    }

    /// Ends the game: `winner` when the rules name one, otherwise scored (the smaller
    /// shortfall under contracts, the more captures in BeSiege; equal is a draw).
    fn finish(&mut self, reason: EndReason, winner: Option<Player>) {
        let scores: Vec<f64> = self.captures.iter().map(|&c| c as f64).collect();
        let outcome = match winner {
            Some(w) => Outcome {
                scores,
                ranking: vec![w, Player(1 - w.0)],
                places: if w == Player(0) { vec![1, 2] } else { vec![2, 1] },
                reason,
                tie_broken: false,
            },
            None => {
                // Shortfall as a score (higher is better) decides under contracts.
                let key: Vec<f64> = match self.config.contracts {
                    Some(_) => {
                        (0..2).map(|s| -(self.contracts[s].saturating_sub(self.captures[s]) as f64)).collect()
                    }
                    None => scores.clone(),
                };
                let ranking = rank(&key, &self.resigned);
                let mut o = Outcome::new(key, ranking, &self.resigned, reason);
                o.scores = scores;
                o
            }
        };
        self.emit(Event::GameOver { outcome: outcome.clone() });
        self.outcome = Some(outcome);
        self.phase = Phase::Over;
        self.to_move = None;
    }

    /// Takes back the last input (terminal play): the game is replayed without it.
    pub fn undo(&mut self) -> bool {
        crate::kit::undo_last(self)
    }

    /// Legal drops now, appended to `out`.
    pub fn drops(&self, out: &mut Vec<NodeId>) {
        out.extend(self.map.nodes().filter(|&n| self.may_drop(n).is_ok()));
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
