//! The classic game engine: the board, turns, captures, ko and superko, the dead-stone phase
//! and the score.

use std::sync::Arc;

use gobeyond_maps::{Map, NodeId};
use serde::{Deserialize, Serialize};

use super::{ClassicRules, Event};
use crate::{
    Board, MAX_PLAYERS, Player,
    board::PlaceError,
    game::{EndReason, Game, Outcome, rank},
    regions,
    settings::{KoRule, Scoring},
    setup::{SetupError, setup_board},
    zobrist,
};

/// A classic Go action. Resigning is an action too, but [`Game::legal_actions`] leaves it out:
/// search has no use for it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Action {
    Place(NodeId),
    Pass,
    Resign,
}

impl Action {
    /// The node of a placement.
    pub fn node(self) -> Option<NodeId> {
        if let Action::Place(n) = self { Some(n) } else { None }
    }
}

/// Why an action was refused. Node ids, not labels: [`Illegal::describe`] writes a sentence.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error, Serialize, strum::IntoStaticStr)]
#[strum(serialize_all = "snake_case")]
#[serde(tag = "reason", rename_all = "snake_case")]
pub enum Illegal {
    #[error("node {node} is not on this map")]
    UnknownNode { node: u64 },
    #[error("node {node} is occupied")]
    Occupied { node: NodeId },
    #[error("node {node} retakes a ko immediately")]
    Ko { node: NodeId },
    #[error("node {node} would repeat an earlier position (superko)")]
    Superko { node: NodeId },
    #[error("node {node} would be suicide")]
    Suicide { node: NodeId },
    #[error("it is not {player}'s turn")]
    NotYourTurn { player: Player, to_move: Player },
    #[error("{player} has resigned")]
    Resigned { player: Player },
    #[error("the game is over")]
    GameOver,
    #[error("play has ended: the players are agreeing on dead stones")]
    InScoring,
    #[error("the game is not in its dead-stone phase")]
    NotInScoring,
    #[error("node {node} holds no stone")]
    NoStone { node: NodeId },
    #[error("Black places {left} more handicap stones before anyone passes")]
    HandicapFirst { left: u32 },
}

/// Inputs besides moves, kept in order with them (each after `at` moves).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Extra {
    /// Time ran out: during play the player loses; in the dead-stone phase it accepts.
    Timeout,
    /// The dead stones as this player marks them (whole groups); `proposed` for the first
    /// estimate, made by a computer.
    Dead { nodes: Vec<NodeId>, proposed: bool },
    /// The player accepts the dead stones as marked.
    Accept,
    /// Play resumes (the player disagrees): the next player moves.
    Resume,
}

/// The dead-stone phase after the passes: the stones marked dead and who has accepted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScoringPhase {
    /// Every stone of every group marked dead, sorted.
    pub dead: Vec<NodeId>,
    /// Per seat (resigned seats count as accepted).
    pub accepted: Vec<bool>,
    /// Whether anything was marked yet (the first marking is the computer's proposal).
    pub marked: bool,
    /// Markings made by each seat in this phase (the proposal not counted).
    pub marks: Vec<u32>,
}

impl Illegal {
    /// A sentence for people, with node labels.
    pub fn describe(&self, map: &Map) -> String {
        let label = |n: &NodeId| map.label(*n).to_string();
        match self {
            Illegal::UnknownNode { node } => format!("there is no node {node} on this map"),
            Illegal::Occupied { node } => format!("{} is occupied", label(node)),
            Illegal::Ko { node } => format!("{} retakes the ko at once; play elsewhere first", label(node)),
            Illegal::Superko { node } => {
                format!("{} would repeat an earlier position (superko)", label(node))
            }
            Illegal::Suicide { node } => format!("{} would be suicide", label(node)),
            Illegal::NoStone { node } => format!("{} holds no stone", label(node)),
            other => other.to_string(),
        }
    }
}

/// A classic game: the board, whose turn, prisoners, history for superko and undo.
#[derive(Debug)]
pub struct ClassicGame {
    rules: ClassicRules,
    board: Board,
    players: usize,
    setup: Vec<(NodeId, Player)>,
    first: Player,
    to_move: Player,
    passes: u32,
    prisoners: [u32; MAX_PLAYERS],
    resigned: Vec<Player>,
    moves: Vec<(Player, Action)>,
    /// Board hash after every action (start included), for positional superko.
    positions: Vec<u64>,
    /// The same combined with the player to move, for situational superko.
    situations: Vec<u64>,
    outcome: Option<Outcome>,
    /// Inputs that are not moves (time-outs, the dead-stone phase), as `(moves played before
    /// it, player, input)`.
    extras: Vec<(usize, Player, Extra)>,
    /// The dead-stone phase, between the passes and the end.
    scoring: Option<ScoringPhase>,
    /// The dead stones agreed when the phase ended (removed for the final score).
    dead: Vec<NodeId>,
    /// Every effect, while recording (search copies do not record).
    events: Vec<Event>,
    recording: bool,
    /// Free handicap: stones Black still places before White's first move (set in
    /// `handicap.rs`).
    pub(super) handicap_left: u32,
}

clone_reusing!(ClassicGame {
    rules,
    board,
    players,
    setup,
    first,
    to_move,
    passes,
    prisoners,
    resigned,
    moves,
    positions,
    situations,
    outcome,
    extras,
    scoring,
    dead,
    events,
    recording,
    handicap_left
});

impl ClassicGame {
    /// An empty board; player 0 moves first.
    pub fn new(map: Arc<Map>, players: usize, rules: ClassicRules) -> Result<ClassicGame, SetupError> {
        Self::with_setup(map, players, rules, &[], Player(0))
    }

    /// A board with `setup` stones already on it (handicap, problems), `first` to move.
    pub fn with_setup(
        map: Arc<Map>,
        players: usize,
        rules: ClassicRules,
        setup: &[(NodeId, Player)],
        first: Player,
    ) -> Result<ClassicGame, SetupError> {
        let board = setup_board(&map, players, setup)?;
        if first.index() >= players {
            return Err(SetupError::UnknownPlayer { index: 0, player: first.0, players });
        }
        let h = board.hash();
        Ok(ClassicGame {
            rules,
            board,
            players,
            setup: setup.to_vec(),
            first,
            to_move: first,
            passes: 0,
            prisoners: [0; MAX_PLAYERS],
            resigned: Vec::new(),
            moves: Vec::new(),
            positions: vec![h],
            situations: vec![h ^ zobrist::to_move_key(first.0)],
            outcome: None,
            extras: Vec::new(),
            scoring: None,
            dead: Vec::new(),
            events: Vec::new(),
            recording: true,
            handicap_left: 0,
        })
    }

    /// Search copies turn recording off: no events are kept.
    pub fn set_recording(&mut self, on: bool) {
        self.recording = on;
        if !on {
            self.events = Vec::new();
        }
    }

    /// Every effect so far.
    pub fn events(&self) -> &[Event] {
        &self.events
    }

    /// Inputs that are not moves, as `(moves played before it, player, input)`.
    pub fn extras(&self) -> &[(usize, Player, Extra)] {
        &self.extras
    }

    /// The dead-stone phase, while it lasts.
    pub fn scoring(&self) -> Option<&ScoringPhase> {
        self.scoring.as_ref()
    }

    /// The stones counted dead: as marked in the dead-stone phase, or as agreed at its end.
    pub fn dead_stones(&self) -> &[NodeId] {
        self.scoring.as_ref().map_or(&self.dead, |s| &s.dead)
    }

    pub fn rules(&self) -> &ClassicRules {
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
    /// Every action so far, with who made it.
    pub fn moves(&self) -> &[(Player, Action)] {
        &self.moves
    }
    /// Stones `player` has captured.
    pub fn prisoners(&self, player: Player) -> u32 {
        self.prisoners[player.index()]
    }
    pub fn consecutive_passes(&self) -> u32 {
        self.passes
    }
    pub fn resigned(&self) -> &[Player] {
        &self.resigned
    }
    /// Whose turn it is, even after the game ended (the player who would move next).
    pub fn next_player(&self) -> Player {
        self.to_move
    }

    fn active_players(&self) -> usize {
        self.players - self.resigned.len()
    }

    fn passes_to_end(&self) -> u32 {
        self.rules.passes_to_end.unwrap_or(self.active_players() as u32).max(1)
    }

    fn following(&self, p: Player) -> Player {
        let mut q = p;
        for _ in 0..self.players {
            q = Player(((q.index() + 1) % self.players) as u8);
            if !self.resigned.contains(&q) {
                return q;
            }
        }
        p
    }

    /// Checks an action by `player` without playing it.
    pub fn check_as(&self, player: Player, action: Action) -> Result<(), Illegal> {
        if self.scoring.is_some() && action != Action::Resign && self.outcome.is_none() {
            return Err(Illegal::InScoring);
        }
        if self.outcome.is_some() {
            return Err(Illegal::GameOver);
        }
        if self.resigned.contains(&player) {
            return Err(Illegal::Resigned { player });
        }
        if player.index() >= self.players {
            return Err(Illegal::NotYourTurn { player, to_move: self.to_move });
        }
        match action {
            // Resigning is allowed at any time, in turn or not.
            Action::Resign => Ok(()),
            _ if player != self.to_move => Err(Illegal::NotYourTurn { player, to_move: self.to_move }),
            Action::Pass if self.handicap_left > 0 => {
                Err(Illegal::HandicapFirst { left: self.handicap_left })
            }
            Action::Pass => Ok(()),
            Action::Place(node) => self.check_place(node, player),
        }
    }

    fn check_place(&self, node: NodeId, player: Player) -> Result<(), Illegal> {
        if !self.board.map().contains(node as u64) {
            return Err(Illegal::UnknownNode { node: node as u64 });
        }
        self.board.check_with(node, player, self.rules.suicide, self.rules.ko != KoRule::None).map_err(
            |e| match e {
                PlaceError::Occupied => Illegal::Occupied { node },
                PlaceError::Ko => Illegal::Ko { node },
                PlaceError::Suicide => Illegal::Suicide { node },
            },
        )?;
        match self.rules.ko {
            KoRule::PositionalSuperko => {
                let h = self.board.hash_after(node, player);
                if self.positions.contains(&h) {
                    return Err(Illegal::Superko { node });
                }
            }
            KoRule::SituationalSuperko => {
                let h = self.board.hash_after(node, player) ^ zobrist::to_move_key(self.following(player).0);
                if self.situations.contains(&h) {
                    return Err(Illegal::Superko { node });
                }
            }
            KoRule::None | KoRule::Simple => {}
        }
        Ok(())
    }

    /// Plays an action of `player`; on error nothing changes.
    pub fn play_as(&mut self, player: Player, action: Action) -> Result<(), Illegal> {
        self.check_as(player, action)?;
        match action {
            Action::Place(node) => {
                let out = self.board.play_unchecked(node, player);
                if self.recording {
                    self.record_placement(player, node);
                }
                self.prisoners[player.index()] += out.captured;
                // Stones lost to one's own suicide are the opponents' prisoners only in
                // two-player games; with more players nobody in particular captured them.
                if out.self_captured > 0 && self.players == 2 {
                    self.prisoners[1 - player.index()] += out.self_captured;
                }
                self.passes = 0;
            }
            Action::Pass => {
                self.board.pass();
                self.passes += 1;
                if self.recording {
                    self.events.push(Event::Passed { player, consecutive: self.passes });
                }
            }
            Action::Resign => {
                self.resigned.push(player);
                if self.recording {
                    self.events.push(Event::Resigned { player });
                }
            }
        }
        self.moves.push((player, action));
        // Free handicap: Black keeps the move until the last handicap stone is down.
        let placing_handicap = matches!(action, Action::Place(_)) && self.handicap_left > 0;
        if placing_handicap {
            self.handicap_left -= 1;
        }
        let keeps_move = placing_handicap && self.handicap_left > 0;
        if !keeps_move && (action != Action::Resign || player == self.to_move) {
            self.to_move = self.following(player);
        }
        let h = self.board.hash();
        self.positions.push(h);
        self.situations.push(h ^ zobrist::to_move_key(self.to_move.0));
        if self.active_players() <= 1 {
            self.scoring = None;
            self.finish(EndReason::Resignation);
        } else if let Some(phase) = self.scoring.as_mut() {
            // A resignation during the dead-stone phase: that seat has nothing more to accept.
            phase.accepted[player.index()] = true;
            self.end_scoring_if_agreed();
        } else if self.passes >= self.passes_to_end() {
            if self.rules.dead_stones && self.recording {
                self.start_scoring();
            } else {
                self.finish(EndReason::Passes);
            }
        }
        Ok(())
    }

    /// After the passes: the players agree on dead stones before the score (search copies,
    /// which do not record, count every stone alive and end at once).
    fn start_scoring(&mut self) {
        let accepted = (0..self.players).map(|i| self.resigned.contains(&Player(i as u8))).collect();
        self.scoring =
            Some(ScoringPhase { dead: Vec::new(), accepted, marked: false, marks: vec![0; self.players] });
        if self.recording {
            self.events.push(Event::ScoringStarted {});
        }
    }

    fn check_scoring(&self, player: Player) -> Result<(), Illegal> {
        if self.outcome.is_some() {
            return Err(Illegal::GameOver);
        }
        if self.scoring.is_none() {
            return Err(Illegal::NotInScoring);
        }
        if self.resigned.contains(&player) {
            return Err(Illegal::Resigned { player });
        }
        Ok(())
    }

    /// Every stone of the groups at `nodes`, sorted; an error for a node without a stone.
    pub fn groups_at(&self, nodes: &[NodeId]) -> Result<Vec<NodeId>, Illegal> {
        let mut all = Vec::new();
        for &node in nodes {
            if !self.board.map().contains(node as u64) {
                return Err(Illegal::UnknownNode { node: node as u64 });
            }
            if self.board.stone_at(node).is_none() {
                return Err(Illegal::NoStone { node });
            }
            all.extend(self.board.group_stones(node));
        }
        all.sort_unstable();
        all.dedup();
        Ok(all)
    }

    /// `player` marks the dead stones (whole groups; the stones given stand for their groups).
    /// Every acceptance so far is withdrawn: the others must see the new marking.
    pub fn mark_dead(&mut self, player: Player, nodes: &[NodeId], proposed: bool) -> Result<(), Illegal> {
        self.check_scoring(player)?;
        let dead = self.groups_at(nodes)?;
        let resigned = self.resigned.clone();
        if let Some(phase) = self.scoring.as_mut() {
            phase.dead = dead.clone();
            phase.marked = true;
            if !proposed {
                phase.marks[player.index()] += 1;
            }
            for (i, a) in phase.accepted.iter_mut().enumerate() {
                *a = resigned.contains(&Player(i as u8));
            }
        }
        self.extras.push((self.moves.len(), player, Extra::Dead { nodes: nodes.to_vec(), proposed }));
        if self.recording {
            self.events.push(Event::DeadMarked { player, nodes: dead, proposed });
        }
        Ok(())
    }

    /// `player` accepts the dead stones as marked; when everyone has, the game ends.
    pub fn accept(&mut self, player: Player) -> Result<(), Illegal> {
        self.check_scoring(player)?;
        self.extras.push((self.moves.len(), player, Extra::Accept));
        self.accepted(player, false);
        Ok(())
    }

    fn accepted(&mut self, player: Player, timeout: bool) {
        if let Some(phase) = self.scoring.as_mut() {
            phase.accepted[player.index()] = true;
        }
        if self.recording {
            self.events.push(Event::Accepted { player, timeout });
        }
        self.end_scoring_if_agreed();
    }

    fn end_scoring_if_agreed(&mut self) {
        if self.scoring.as_ref().is_some_and(|p| p.accepted.iter().all(|&a| a)) {
            if let Some(phase) = self.scoring.take() {
                self.dead = phase.dead;
            }
            self.finish(EndReason::Passes);
        }
    }

    /// `player` disagrees and play resumes: the next player moves, the passes start again.
    pub fn resume(&mut self, player: Player) -> Result<(), Illegal> {
        self.check_scoring(player)?;
        self.extras.push((self.moves.len(), player, Extra::Resume));
        self.scoring = None;
        self.passes = 0;
        self.to_move = self.following(player);
        if self.recording {
            self.events.push(Event::Resumed { player });
        }
        Ok(())
    }

    /// The position as if play went on (no dead-stone phase, nothing recorded): what the
    /// search estimates dead stones from.
    pub fn play_resumed(&self) -> ClassicGame {
        let mut g = self.clone();
        g.scoring = None;
        g.passes = 0;
        g.outcome = None;
        g.set_recording(false);
        g
    }

    /// Ends the game because `player` ran out of time: they lose, as if they had resigned. In
    /// the dead-stone phase a time-out accepts the marking instead.
    pub fn time_out(&mut self, player: Player) {
        if self.outcome.is_some() || self.resigned.contains(&player) {
            return;
        }
        if self.scoring.is_some() {
            self.extras.push((self.moves.len(), player, Extra::Timeout));
            self.accepted(player, true);
            return;
        }
        self.resigned.push(player);
        self.extras.push((self.moves.len(), player, Extra::Timeout));
        if self.recording {
            self.events.push(Event::TimedOut { player });
        }
        if self.to_move == player {
            self.to_move = self.following(player);
        }
        if self.active_players() <= 1 {
            self.finish(EndReason::Time);
        }
    }

    /// The placement's events: the stone, then each captured group's stones by owner.
    fn record_placement(&mut self, player: Player, node: NodeId) {
        self.events.push(Event::Placed { player, node });
        let mut captured: Vec<(u8, NodeId)> = self.board.last_captured().map(|(n, c)| (c, n)).collect();
        captured.sort_unstable();
        for chunk in captured.chunk_by(|a, b| a.0 == b.0) {
            let Some(owner) = Player::of_stone(chunk[0].0) else { continue };
            let nodes = chunk.iter().map(|c| c.1).collect();
            self.events.push(Event::Captured { player, owner, nodes });
        }
    }

    fn finish(&mut self, reason: EndReason) {
        let scores = self.scores_with_dead(&self.dead.clone());
        let ranking = rank(&scores, &self.resigned);
        let outcome = Outcome::new(scores, ranking, &self.resigned, reason);
        if self.recording {
            self.events.push(Event::GameOver { outcome: outcome.clone() });
        }
        self.outcome = Some(outcome);
    }

    /// Scores counting every stone on the board as alive.
    pub fn scores(&self) -> Vec<f64> {
        self.scores_with_dead(&[])
    }

    /// Scores after removing the groups at `dead` (any stone of each dead group).
    pub fn scores_with_dead(&self, dead: &[NodeId]) -> Vec<f64> {
        let (board, dead_prisoners) = regions::remove_dead(&self.board, dead, self.players);
        let base: Vec<u32> = match self.rules.scoring {
            Scoring::Area => regions::area(&board, self.players),
            Scoring::Territory => regions::territory(&board, self.players)
                .iter()
                .enumerate()
                .map(|(i, t)| t + self.prisoners[i] + dead_prisoners[i])
                .collect(),
            Scoring::Stones => (0..self.players).map(|i| board.stone_count(Player(i as u8))).collect(),
        };
        base.iter().enumerate().map(|(i, &b)| b as f64 + self.rules.komi_for(i, self.players)).collect()
    }

    /// Takes back the last action (replaying the game from the start). False if there is none.
    pub fn undo(&mut self) -> bool {
        let Some(keep) = self.moves.len().checked_sub(1) else { return false };
        // The moves before the last, with the inputs that came between them.
        let inputs = keep + self.extras.iter().filter(|(at, _, _)| *at < keep).count();
        match crate::kit::replay_first(self, inputs) {
            Some(g) => {
                *self = g;
                true
            }
            None => false,
        }
    }
}

impl Game for ClassicGame {
    type Action = Action;
    type Illegal = Illegal;

    fn map(&self) -> &Arc<Map> {
        self.board.map()
    }

    fn player_count(&self) -> usize {
        self.players
    }

    fn to_move(&self) -> Option<Player> {
        (self.outcome.is_none() && self.scoring.is_none()).then_some(self.to_move)
    }

    fn legal_actions(&self, out: &mut Vec<Action>) {
        out.clear();
        if self.outcome.is_some() || self.scoring.is_some() {
            return;
        }
        for node in self.board.map().nodes() {
            if self.check_place(node, self.to_move).is_ok() {
                out.push(Action::Place(node));
            }
        }
        if self.handicap_left == 0 {
            out.push(Action::Pass);
        }
    }

    fn check(&self, action: Action) -> Result<(), Illegal> {
        self.check_as(self.to_move, action)
    }

    fn play(&mut self, action: Action) -> Result<(), Illegal> {
        self.play_as(self.to_move, action)
    }

    fn outcome(&self) -> Option<&Outcome> {
        self.outcome.as_ref()
    }
}
