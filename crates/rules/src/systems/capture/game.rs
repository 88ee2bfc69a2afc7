//! The Capture Go engine: placements on the Go board, captures counted per player, the race to
//! the target (`docs/rules/capture.md`).

use std::sync::Arc;

use gobeyond_maps::{Map, NodeId};

use super::{CaptureRules, Event};
use crate::{
    Board, MAX_PLAYERS, Player, SuicideRule,
    board::PlaceError,
    game::{EndReason, Game, Outcome, rank},
    kit::InputLog,
    setup::{SetupError, setup_board},
};

/// A Capture Go action. Resigning is one too, but [`Game::legal_actions`] leaves it out.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Action {
    Place(NodeId),
    Pass,
    Resign,
}

/// An input as the game logs it: an action of the player to move, or the clock's time-out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Input {
    Act(Action),
    Timeout,
}

/// Why an action was refused (`docs/rules/capture.md`, "Placing a stone"). The game is
/// unchanged.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error, strum::IntoStaticStr)]
#[strum(serialize_all = "snake_case")]
pub enum Illegal {
    #[error("node {node} is not on the map")]
    UnknownNode { node: NodeId },
    #[error("node {node} is occupied")]
    Occupied { node: NodeId },
    #[error("node {node} would leave its own group without liberties")]
    Suicide { node: NodeId },
    #[error("node {node} would repeat an earlier position")]
    Superko { node: NodeId },
    #[error("it is not {player}'s turn")]
    NotYourTurn { player: Player },
    #[error("the game is over")]
    GameOver,
}

impl Illegal {
    /// A sentence for people, with node labels.
    pub fn describe(&self, map: &Map) -> String {
        let label = |n: &NodeId| {
            if map.contains(u64::from(*n)) { map.label(*n).to_string() } else { format!("node {n}") }
        };
        match self {
            Illegal::UnknownNode { node } => format!("{} is not on the map", label(node)),
            Illegal::Occupied { node } => format!("{} is occupied", label(node)),
            Illegal::Suicide { node } => format!("{} would leave your group without liberties", label(node)),
            Illegal::Superko { node } => format!("{} would repeat an earlier position", label(node)),
            other => other.to_string(),
        }
    }
}

/// A game of Capture Go.
#[derive(Debug)]
pub struct CaptureGame {
    rules: CaptureRules,
    board: Board,
    players: usize,
    setup: Vec<(NodeId, Player)>,
    first: Player,
    to_move: Player,
    /// Stones each seat has captured.
    captures: [u32; MAX_PLAYERS],
    /// In the order they left (resigned or timed out).
    resigned: Vec<Player>,
    /// Passes in a row by the seats still playing.
    passes: u32,
    turns: u32,
    /// Board hash after every placement (start included): positional superko.
    positions: Vec<u64>,
    outcome: Option<Outcome>,
    log: InputLog<Input>,
    /// Every effect, while recording (search copies do not record).
    events: Vec<Event>,
    recording: bool,
}

clone_reusing!(CaptureGame {
    rules,
    board,
    players,
    setup,
    first,
    to_move,
    captures,
    resigned,
    passes,
    turns,
    positions,
    outcome,
    log,
    events,
    recording
});

impl CaptureGame {
    /// A game from setup stones, `first` to move.
    pub fn new(
        map: Arc<Map>,
        players: usize,
        rules: CaptureRules,
        setup: &[(NodeId, Player)],
        first: Player,
    ) -> Result<CaptureGame, SetupError> {
        let board = setup_board(&map, players, setup)?;
        if first.index() >= players {
            return Err(SetupError::UnknownPlayer { index: 0, player: first.0, players });
        }
        let start = board.hash();
        Ok(CaptureGame {
            rules,
            board,
            players,
            setup: setup.to_vec(),
            first,
            to_move: first,
            captures: [0; MAX_PLAYERS],
            resigned: Vec::new(),
            passes: 0,
            turns: 0,
            positions: vec![start],
            outcome: None,
            log: InputLog::default(),
            events: Vec::new(),
            recording: true,
        })
    }

    /// Search copies turn recording off: no events are kept.
    pub fn set_recording(&mut self, on: bool) {
        self.recording = on;
        if !on {
            self.events = Vec::new();
        }
    }

    pub fn rules(&self) -> &CaptureRules {
        &self.rules
    }

    pub fn board(&self) -> &Board {
        &self.board
    }

    pub fn setup(&self) -> &[(NodeId, Player)] {
        &self.setup
    }

    pub fn first_player(&self) -> Player {
        self.first
    }

    /// Stones `player` has captured.
    pub fn captures(&self, player: Player) -> u32 {
        self.captures[player.index()]
    }

    pub fn is_resigned(&self, player: Player) -> bool {
        self.resigned.contains(&player)
    }

    pub fn turns_played(&self) -> u32 {
        self.turns
    }

    pub fn consecutive_passes(&self) -> u32 {
        self.passes
    }

    pub fn events(&self) -> &[Event] {
        &self.events
    }

    /// Every input so far, with its seat.
    pub fn inputs(&self) -> &[(Player, Input)] {
        self.log.as_slice()
    }

    pub(super) fn log(&self) -> &InputLog<Input> {
        &self.log
    }

    /// The players who left, in the order they left.
    pub fn resigned(&self) -> &[Player] {
        &self.resigned
    }

    /// Each seat's score: its captures.
    pub fn scores(&self) -> Vec<f64> {
        self.captures[..self.players].iter().map(|&c| f64::from(c)).collect()
    }

    fn active(&self) -> usize {
        self.players - self.resigned.len()
    }

    fn record(&mut self, event: Event) {
        if self.recording {
            self.events.push(event);
        }
    }

    /// Plays `action` for `seat`, which must be the player to move.
    pub fn play_as(&mut self, seat: Player, action: Action) -> Result<(), Illegal> {
        if self.outcome.is_some() {
            return Err(Illegal::GameOver);
        }
        if seat != self.to_move {
            return Err(Illegal::NotYourTurn { player: seat });
        }
        self.check(action)?;
        self.log.push(seat, Input::Act(action));
        self.turns += 1;
        match action {
            Action::Place(node) => self.place(node),
            Action::Pass => self.pass(),
            Action::Resign => {
                self.record(Event::Resigned { player: seat });
                self.leave(seat, EndReason::Resignation);
            }
        }
        Ok(())
    }

    /// The clock ran out for `seat`, the player to move: it leaves the game.
    pub fn time_out(&mut self, seat: Player) -> Result<(), Illegal> {
        if self.outcome.is_some() {
            return Err(Illegal::GameOver);
        }
        if seat != self.to_move {
            return Err(Illegal::NotYourTurn { player: seat });
        }
        self.log.push(seat, Input::Timeout);
        self.turns += 1;
        self.record(Event::TimedOut { player: seat });
        self.leave(seat, EndReason::Time);
        Ok(())
    }

    fn place(&mut self, node: NodeId) {
        let p = self.to_move;
        self.board.play_unchecked(node, p);
        self.positions.push(self.board.hash());
        self.record(Event::Placed { player: p, node });
        // Captured stones grouped by owner, for the events.
        let mut taken = 0;
        for owner in (0..self.players as u8).map(Player) {
            let nodes: Vec<NodeId> = self
                .board
                .last_captured()
                .filter(|&(_, stone)| stone == owner.stone())
                .map(|(n, _)| n)
                .collect();
            if nodes.is_empty() {
                continue;
            }
            taken += nodes.len() as u32;
            if self.recording {
                self.events.push(Event::Captured { player: p, owner, nodes });
            }
        }
        self.captures[p.index()] += taken;
        self.passes = 0;
        if self.captures[p.index()] >= self.rules.target {
            self.finish(EndReason::Contract);
        } else {
            self.next_turn();
        }
    }

    fn pass(&mut self) {
        let p = self.to_move;
        self.passes += 1;
        self.record(Event::Passed { player: p, consecutive: self.passes });
        if self.passes as usize >= self.active() {
            self.finish(EndReason::Passes);
        } else {
            self.next_turn();
        }
    }

    /// `seat` leaves (resigned or out of time); the last one left wins.
    fn leave(&mut self, seat: Player, reason: EndReason) {
        self.resigned.push(seat);
        // Passes are counted among the seats still playing.
        self.passes = self.passes.min(self.active() as u32);
        if self.active() <= 1 {
            self.finish(reason);
        } else if self.passes as usize >= self.active() {
            self.finish(EndReason::Passes);
        } else {
            self.next_turn();
        }
    }

    fn next_turn(&mut self) {
        if self.turns >= self.rules.turns(self.board.len()) {
            self.finish(EndReason::TurnLimit);
            return;
        }
        let mut next = self.to_move;
        for _ in 0..self.players {
            next = Player(((next.index() + 1) % self.players) as u8);
            if !self.resigned.contains(&next) {
                break;
            }
        }
        self.to_move = next;
    }

    /// Ends the game: the most captures first, equal captures sharing a place, those who left
    /// last (the first to leave last of all).
    fn finish(&mut self, reason: EndReason) {
        let scores = self.scores();
        let ranking = rank(&scores, &self.resigned);
        let outcome = Outcome::new(scores, ranking, &self.resigned, reason);
        self.record(Event::GameOver { outcome: outcome.clone() });
        self.outcome = Some(outcome);
    }
}

impl Game for CaptureGame {
    type Action = Action;
    type Illegal = Illegal;

    fn map(&self) -> &Arc<Map> {
        self.board.map()
    }

    fn player_count(&self) -> usize {
        self.players
    }

    fn to_move(&self) -> Option<Player> {
        self.outcome.is_none().then_some(self.to_move)
    }

    fn legal_actions(&self, out: &mut Vec<Action>) {
        out.clear();
        if self.outcome.is_some() {
            return;
        }
        out.extend(
            self.board
                .empties()
                .iter()
                .filter(|&&n| self.check(Action::Place(n)).is_ok())
                .map(|&n| Action::Place(n)),
        );
        out.push(Action::Pass);
    }

    fn check(&self, action: Action) -> Result<(), Illegal> {
        if self.outcome.is_some() {
            return Err(Illegal::GameOver);
        }
        let Action::Place(node) = action else { return Ok(()) };
        if !self.board.map().contains(u64::from(node)) {
            return Err(Illegal::UnknownNode { node });
        }
        // Positional superko covers the simple ko.
        match self.board.check_with(node, self.to_move, SuicideRule::Forbidden, false) {
            Err(PlaceError::Occupied) => return Err(Illegal::Occupied { node }),
            Err(PlaceError::Suicide) => return Err(Illegal::Suicide { node }),
            Err(PlaceError::Ko) | Ok(()) => {}
        }
        if self.positions.contains(&self.board.hash_after(node, self.to_move)) {
            return Err(Illegal::Superko { node });
        }
        Ok(())
    }

    fn play(&mut self, action: Action) -> Result<(), Illegal> {
        self.play_as(self.to_move, action)
    }

    fn outcome(&self) -> Option<&Outcome> {
        self.outcome.as_ref()
    }
}
