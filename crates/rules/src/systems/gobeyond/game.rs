//! The GoBeyond game engine: the turn's four phases, PlayPoints, captures, claims, the
//! Reserved-node rule and the end of play (Clean-Up is in `cleanup.rs`).

use std::sync::Arc;

use gobeyond_maps::{Map, NodeId};
use serde::{Deserialize, Serialize};

use super::{ClaimChange, Event, GoBeyondRules, SettingsError};
use crate::{
    Board, MAX_PLAYERS, Player, SuicideRule,
    board::{EMPTY, PlaceError},
    game::{EndReason, Game, Outcome, rank},
    regions,
    setup::{SetupError, setup_board},
};

/// A phase-3 action. Resign may also be played out of turn; [`Game::legal_actions`] offers
/// neither Resign nor Timeout (the clock's owner plays that one).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Action {
    Occupy(NodeId),
    Skip,
    Pass,
    Resign,
    /// The turn's time ran out: a Skip.
    Timeout,
}

/// Everything a player can send, as kept in the game's log (and its record).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Input {
    Action(Action),
    /// Clean-Up: the stones given up (possibly none).
    Surrender(Vec<NodeId>),
    /// Clean-Up time ran out: nothing given up.
    CleanUpTimeout,
}

/// Where the game is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(rename = "GoBeyondPhase"))]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    Playing,
    CleanUp,
    Finished,
}

/// Why an action or a Clean-Up submission was refused. The game is unchanged.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error, Serialize, strum::IntoStaticStr)]
#[strum(serialize_all = "snake_case")]
#[serde(tag = "reason", rename_all = "snake_case")]
pub enum Illegal {
    #[error("node {node} is not on this map")]
    UnknownNode { node: u64 },
    #[error("node {node} is occupied")]
    Occupied { node: NodeId },
    #[error("node {node} is reserved by {by}")]
    Reserved { node: NodeId, by: Player },
    #[error("node {node} would capture the mover's own group (self-capture)")]
    SelfCapture { node: NodeId },
    #[error("occupying costs {cost} PlayPoints but {player} has {points}")]
    CannotPay { player: Player, points: i64, cost: i64 },
    #[error("there is no {player} in this game")]
    UnknownPlayer { player: Player },
    #[error("it is not {player}'s turn")]
    NotYourTurn { player: Player, to_move: Player },
    #[error("{player} has resigned")]
    Resigned { player: Player },
    #[error("play has ended; the game is in Clean-Up")]
    InCleanUp,
    #[error("the game is not in Clean-Up")]
    NotInCleanUp,
    #[error("{player} has already submitted a Clean-Up choice")]
    AlreadySubmitted { player: Player },
    #[error("node {node} does not hold a stone of {player}")]
    NotYourStone { node: NodeId, player: Player },
    #[error("node {node} is listed twice")]
    Duplicate { node: NodeId },
    #[error("node {node} lies in {player}'s own territory: it is not doomed")]
    OwnTerritory { node: NodeId, player: Player },
    #[error("the game is over")]
    GameOver,
}

impl Illegal {
    /// A sentence for people, with node labels and colour names.
    pub fn describe(&self, map: &Map, players: usize) -> String {
        let label = |n: &NodeId| map.label(*n).to_string();
        let name = |p: &Player| p.color_name(players);
        match self {
            Illegal::UnknownNode { node } => format!("there is no node {node} on this map"),
            Illegal::Occupied { node } => format!("{} is occupied", label(node)),
            Illegal::Reserved { node, by } => format!(
                "{} is reserved by {} until the start of their next turn; play elsewhere",
                label(node),
                name(by)
            ),
            Illegal::SelfCapture { node } => {
                format!("{} would leave your own group without liberties (no self-capture)", label(node))
            }
            Illegal::CannotPay { player, points, cost } => {
                format!("occupying costs {cost} PP and {} has {points}", name(player))
            }
            Illegal::NotYourTurn { player, to_move } => {
                format!("it is {}'s turn, not {}'s", name(to_move), name(player))
            }
            Illegal::Resigned { player } => format!("{} has resigned", name(player)),
            Illegal::AlreadySubmitted { player } => {
                format!("{} has already made a Clean-Up choice", name(player))
            }
            Illegal::NotYourStone { node, player } => {
                format!("{} is not a stone of {}", label(node), name(player))
            }
            Illegal::Duplicate { node } => format!("{} is listed twice", label(node)),
            Illegal::OwnTerritory { node, .. } => format!(
                "{} stands in your own territory: it is not doomed, and surrendering it would earn nothing",
                label(node)
            ),
            other => other.to_string(),
        }
    }
}

/// A GoBeyond game.
#[derive(Debug)]
pub struct GoBeyondGame {
    pub(super) rules: GoBeyondRules,
    pub(super) board: Board,
    pub(super) players: usize,
    setup: Vec<(NodeId, Player)>,
    pub(super) points: [i64; MAX_PLAYERS],
    /// In order of resignation.
    resigned: Vec<Player>,
    to_move: Player,
    turn: u32,
    passes: u32,
    /// The node each player has reserved, until the start of their next turn.
    reservations: [Option<NodeId>; MAX_PLAYERS],
    /// Turns each player has let run out in a row.
    timeouts: [u32; MAX_PLAYERS],
    /// Why play ended (passes, or the turn limit), for the outcome after Clean-Up.
    pub(super) ending: EndReason,
    /// Claimant colour code per node (0: occupied or disputed).
    claims: Vec<u8>,
    previous_claims: Vec<u8>,
    stack: Vec<NodeId>,
    region: Vec<NodeId>,
    /// Clean-Up choices per seat once Clean-Up has begun (resigned seats: nothing to submit).
    pub(super) surrenders: Option<Vec<Option<Vec<NodeId>>>>,
    log: Vec<(Player, Input)>,
    events: Vec<Event>,
    /// False in search copies: no events, no log (see [`GoBeyondGame::set_recording`]).
    recording: bool,
    outcome: Option<Outcome>,
}

clone_reusing!(GoBeyondGame {
    rules,
    board,
    players,
    setup,
    points,
    resigned,
    to_move,
    turn,
    passes,
    reservations,
    timeouts,
    ending,
    claims,
    previous_claims,
    stack,
    region,
    surrenders,
    log,
    events,
    recording,
    outcome
});

impl GoBeyondGame {
    /// An empty map; seat 0 moves first.
    pub fn new(map: Arc<Map>, players: usize, rules: GoBeyondRules) -> Result<GoBeyondGame, SetupError> {
        Self::with_setup(map, players, rules, &[])
    }

    /// A map with `setup` stones already on it (problems, teaching positions); seat 0 moves
    /// first and collects income for whatever the setup lets it claim.
    pub fn with_setup(
        map: Arc<Map>,
        players: usize,
        rules: GoBeyondRules,
        setup: &[(NodeId, Player)],
    ) -> Result<GoBeyondGame, SetupError> {
        rules.validate(players).map_err(|e| match e {
            SettingsError::Players(n) => SetupError::Players(n),
            other => SetupError::Rules(other.to_string()),
        })?;
        let board = setup_board(&map, players, setup)?;
        let mut points = [0; MAX_PLAYERS];
        let mut events = Vec::new();
        for (seat, p) in points.iter_mut().enumerate().take(players) {
            *p = rules.start_for(seat);
            events.push(Event::StartingPoints { player: Player(seat as u8), points: *p });
        }
        let mut game = GoBeyondGame {
            rules,
            board,
            players,
            setup: setup.to_vec(),
            points,
            resigned: Vec::new(),
            to_move: Player(0),
            turn: 0,
            passes: 0,
            reservations: [None; MAX_PLAYERS],
            timeouts: [0; MAX_PLAYERS],
            ending: EndReason::Passes,
            claims: Vec::new(),
            previous_claims: Vec::new(),
            stack: Vec::new(),
            region: Vec::new(),
            surrenders: None,
            log: Vec::new(),
            events,
            recording: true,
            outcome: None,
        };
        regions::claims_into(&game.board, &mut game.claims, &mut game.stack, &mut game.region);
        game.begin_turn();
        Ok(game)
    }

    /// Turns the event list and the input log on or off. Search turns them off in its copies:
    /// they cost time and memory there, and nobody reads them. Off, [`GoBeyondGame::events`] and
    /// [`GoBeyondGame::log`] stop growing and `undo` no longer works.
    pub fn set_recording(&mut self, on: bool) {
        self.recording = on;
    }

    pub(super) fn emit(&mut self, event: Event) {
        if self.recording {
            self.events.push(event);
        }
    }

    pub(super) fn note(&mut self, player: Player, input: Input) {
        if self.recording {
            self.log.push((player, input));
        }
    }

    pub fn rules(&self) -> &GoBeyondRules {
        &self.rules
    }
    pub fn board(&self) -> &Board {
        &self.board
    }
    pub fn setup(&self) -> &[(NodeId, Player)] {
        &self.setup
    }
    /// A player's PlayPoints now.
    pub fn points(&self, player: Player) -> i64 {
        self.points[player.index()]
    }
    /// Players in order of resignation.
    pub fn resigned(&self) -> &[Player] {
        &self.resigned
    }
    pub fn is_resigned(&self, player: Player) -> bool {
        self.resigned.contains(&player)
    }
    /// Resigned for missing too many turns (rule: three time-outs resign), not by choice.
    pub fn timed_out(&self, player: Player) -> bool {
        self.events
            .iter()
            .any(|e| matches!(e, Event::Resigned { player: p, absent: true, .. } if *p == player))
    }
    /// Turns started so far (the current one included).
    pub fn turn(&self) -> u32 {
        self.turn
    }
    pub fn consecutive_passes(&self) -> u32 {
        self.passes
    }
    pub fn passes_to_end(&self) -> u32 {
        self.rules.passes_for(self.players)
    }
    /// Whose turn it is, or was when play ended.
    pub fn current_player(&self) -> Player {
        self.to_move
    }
    /// Everything that has happened, in order.
    pub fn events(&self) -> &[Event] {
        &self.events
    }
    /// Everything the players sent that was accepted, in order.
    pub fn log(&self) -> &[(Player, Input)] {
        &self.log
    }

    pub fn phase(&self) -> Phase {
        if self.outcome.is_some() {
            Phase::Finished
        } else if self.surrenders.is_some() {
            Phase::CleanUp
        } else {
            Phase::Playing
        }
    }

    /// Who claims `node`: an empty node whose region only that player's stones border.
    pub fn claimant(&self, node: NodeId) -> Option<Player> {
        self.claims.get(node as usize).and_then(|&c| Player::of_stone(c))
    }

    /// Nodes `player` claims now.
    pub fn claimed_count(&self, player: Player) -> u32 {
        let code = player.stone();
        self.claims.iter().filter(|&&c| c == code).count() as u32
    }

    /// The player who has reserved `node`, if anyone.
    pub fn reserved_by(&self, node: NodeId) -> Option<Player> {
        (0..self.players).find(|&i| self.reservations[i] == Some(node)).map(|i| Player(i as u8))
    }

    /// The node `player` has reserved, if any.
    pub fn reservation(&self, player: Player) -> Option<NodeId> {
        self.reservations.get(player.index()).copied().flatten()
    }

    /// Scores: whole PlayPoints. The tie-break komi only orders players with equal PlayPoints
    /// (the later turn position first), as the rule document gives it "if a tie occurs"
    /// (`docs/rules/gobeyond.md`, interpretation 14).
    pub fn scores(&self) -> Vec<f64> {
        (0..self.players).map(|i| self.points[i] as f64).collect()
    }

    /// What a player would have if the game ended now: PlayPoints plus the final bonus for what
    /// they claim (nothing more for a resigned player).
    pub fn projected(&self, player: Player) -> i64 {
        let bonus = if self.is_resigned(player) {
            0
        } else {
            i64::from(self.claimed_count(player)) * self.rules.final_bonus
        };
        self.points[player.index()] + bonus
    }

    fn active_players(&self) -> usize {
        self.players - self.resigned.len()
    }

    fn next_seat(&self, p: Player) -> Player {
        Player(((p.index() + 1) % self.players) as u8)
    }

    fn check_player(&self, player: Player) -> Result<(), Illegal> {
        if player.index() >= self.players {
            return Err(Illegal::UnknownPlayer { player });
        }
        if self.is_resigned(player) {
            return Err(Illegal::Resigned { player });
        }
        Ok(())
    }

    /// Checks an action of `player` without playing it.
    pub fn check_as(&self, player: Player, action: Action) -> Result<(), Illegal> {
        match self.phase() {
            Phase::Finished => return Err(Illegal::GameOver),
            Phase::CleanUp => return Err(Illegal::InCleanUp),
            Phase::Playing => {}
        }
        self.check_player(player)?;
        match action {
            Action::Resign => Ok(()),
            _ if player != self.to_move => Err(Illegal::NotYourTurn { player, to_move: self.to_move }),
            Action::Occupy(node) => self.check_occupy(player, node),
            Action::Skip | Action::Pass | Action::Timeout => Ok(()),
        }
    }

    fn check_occupy(&self, player: Player, node: NodeId) -> Result<(), Illegal> {
        if !self.board.map().contains(node as u64) {
            return Err(Illegal::UnknownNode { node: node as u64 });
        }
        if self.board.color(node) != EMPTY {
            return Err(Illegal::Occupied { node });
        }
        if let Some(by) = self.reserved_by(node) {
            return Err(Illegal::Reserved { node, by });
        }
        let (points, cost) = (self.points[player.index()], self.rules.occupy_cost);
        if points < cost {
            return Err(Illegal::CannotPay { player, points, cost });
        }
        self.board.check_with(node, player, SuicideRule::Forbidden, false).map_err(|e| match e {
            PlaceError::Occupied => Illegal::Occupied { node },
            PlaceError::Ko | PlaceError::Suicide => Illegal::SelfCapture { node },
        })
    }

    /// Plays an action of `player`; on error nothing changes (and the turn's clock, which the
    /// caller owns, keeps running).
    pub fn play_as(&mut self, player: Player, action: Action) -> Result<(), Illegal> {
        self.check_as(player, action)?;
        self.note(player, Input::Action(action));
        let in_turn = player == self.to_move;
        // A player whose turn runs out too many times in a row has left: resigned for them.
        let limit = self.rules.timeouts_to_resign;
        let absent = if action == Action::Timeout {
            self.timeouts[player.index()] += 1;
            limit > 0 && self.timeouts[player.index()] >= limit
        } else {
            self.timeouts[player.index()] = 0;
            false
        };
        let action = if absent { Action::Resign } else { action };
        match action {
            Action::Occupy(node) => self.occupy(player, node),
            Action::Skip | Action::Timeout => {
                self.passes = 0;
                self.emit(Event::Skipped { player, timeout: action == Action::Timeout });
            }
            Action::Pass => {
                self.passes += 1;
                self.emit(Event::Passed { player, automatic: false, consecutive: self.passes });
            }
            Action::Resign => {
                self.resigned.push(player);
                let place = (self.players - self.resigned.len() + 1) as u32;
                self.emit(Event::Resigned { player, place, absent });
                if in_turn {
                    // From now on a resigned player always passes, starting with this turn.
                    self.passes += 1;
                    self.emit(Event::Passed { player, automatic: true, consecutive: self.passes });
                }
            }
        }
        if self.active_players() <= 1 {
            // The last player standing gets the final bonus for what they claim, as at the end
            // of any game.
            self.pay_final_bonus();
            self.finish(EndReason::Resignation);
        } else if in_turn {
            self.to_move = self.next_seat(player);
            self.begin_turn();
        }
        Ok(())
    }

    /// Phase 4 of an Occupy.
    fn occupy(&mut self, player: Player, node: NodeId) {
        self.passes = 0;
        let cost = self.rules.occupy_cost;
        self.points[player.index()] -= cost;
        self.emit(Event::Occupied { player, node, cost });
        let outcome = self.board.play_unchecked(node, player);
        let mut emptied = None;
        if outcome.captured > 0 {
            for victim in (0..self.players as u8).map(Player) {
                let mut nodes: Vec<NodeId> = self
                    .board
                    .last_captured()
                    .filter(|&(_, c)| c == victim.stone())
                    .map(|(n, _)| n)
                    .collect();
                if nodes.is_empty() {
                    continue;
                }
                nodes.sort_unstable();
                emptied = nodes.first().copied();
                let award = nodes.len() as i64 * self.rules.capture_award;
                self.points[player.index()] += award;
                self.emit(Event::Captured { player, victim, nodes, award });
            }
        }
        self.update_claims();
        // The Reserved-node rule, word for word: exactly one stone captured, the placed stone a
        // group of one whose only liberty is the emptied node, and that node claimed by the mover.
        if let (1, Some(emptied)) = (outcome.captured, emptied)
            && self.board.group_size(node) == 1
            && self.board.liberties(node) == [emptied]
            && self.claimant(emptied) == Some(player)
        {
            self.reservations[player.index()] = Some(emptied);
            self.emit(Event::Reserved { player, node: emptied });
        }
    }

    /// Recomputes claims and records what changed.
    pub(super) fn update_claims(&mut self) {
        std::mem::swap(&mut self.claims, &mut self.previous_claims);
        regions::claims_into(&self.board, &mut self.claims, &mut self.stack, &mut self.region);
        if !self.recording {
            return;
        }
        let changes: Vec<ClaimChange> = self
            .claims
            .iter()
            .zip(&self.previous_claims)
            .enumerate()
            .filter(|(_, (now, before))| now != before)
            .map(|(node, (&now, &before))| ClaimChange {
                node: node as NodeId,
                from: Player::of_stone(before),
                to: Player::of_stone(now),
            })
            .collect();
        if !changes.is_empty() {
            self.emit(Event::ClaimsChanged { changes });
        }
    }

    /// Moves on to the next player who is still playing, passing automatically for resigned
    /// players, and runs phases 1 and 2 of their turn; or starts Clean-Up after enough passes.
    fn begin_turn(&mut self) {
        let goal = self.passes_to_end();
        loop {
            if self.passes >= goal {
                self.start_cleanup();
                return;
            }
            let limit = self.rules.turn_limit;
            if limit > 0 && self.turn >= limit {
                self.emit(Event::TurnLimitReached { turns: self.turn });
                self.ending = EndReason::TurnLimit;
                self.start_cleanup();
                return;
            }
            let p = self.to_move;
            if self.is_resigned(p) {
                self.release(p);
                self.passes += 1;
                self.emit(Event::Passed { player: p, automatic: true, consecutive: self.passes });
                self.to_move = self.next_seat(p);
                continue;
            }
            self.turn += 1;
            self.emit(Event::TurnStarted { turn: self.turn, player: p });
            self.release(p);
            let claimed = self.claimed_count(p);
            if claimed > 0 && self.rules.claim_income > 0 {
                let points = claimed as i64 * self.rules.claim_income;
                self.points[p.index()] += points;
                self.emit(Event::Income { player: p, claimed, points });
            }
            return;
        }
    }

    /// Phase 1: the player's reservation ends (the node stays claimed: see `docs/rules/gobeyond.md`).
    fn release(&mut self, p: Player) {
        if let Some(node) = self.reservations[p.index()].take() {
            self.emit(Event::ReservationReleased { player: p, node });
        }
    }

    pub(super) fn finish(&mut self, reason: EndReason) {
        let scores = self.scores();
        // Equal PlayPoints: the later turn position first (the tie-break komi), no shared place.
        let ranking = rank(&scores, &self.resigned);
        self.emit(Event::GameOver { reason, ranking: ranking.clone(), scores: scores.clone() });
        self.outcome = Some(Outcome::ordered(scores, ranking, &self.resigned, reason));
    }

    /// Takes back the last input (replaying from the start). False if there is none.
    pub fn undo(&mut self) -> bool {
        crate::kit::undo_last(self)
    }

    /// Applies any logged input.
    pub fn apply(&mut self, player: Player, input: &Input) -> Result<(), Illegal> {
        match input {
            Input::Action(a) => self.play_as(player, *a),
            Input::Surrender(nodes) => self.surrender(player, nodes),
            Input::CleanUpTimeout => self.cleanup_time_out(player),
        }
    }
}

impl Game for GoBeyondGame {
    type Action = Action;
    type Illegal = Illegal;

    fn map(&self) -> &Arc<Map> {
        self.board.map()
    }

    fn player_count(&self) -> usize {
        self.players
    }

    /// The player in phase 3; `None` in Clean-Up and after the game.
    fn to_move(&self) -> Option<Player> {
        (self.phase() == Phase::Playing).then_some(self.to_move)
    }

    fn legal_actions(&self, out: &mut Vec<Action>) {
        out.clear();
        if self.phase() != Phase::Playing {
            return;
        }
        for node in self.board.map().nodes() {
            if self.check_occupy(self.to_move, node).is_ok() {
                out.push(Action::Occupy(node));
            }
        }
        out.push(Action::Skip);
        out.push(Action::Pass);
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
