//! The Tribal Go game engine: the turn's steps (handicap, dice, placement, cards), captures
//! shared among the tribes touching a group, alliances, the end and the outcome.
//! Rule numbers and readings A1–A17 are those of `docs/rules/spec/tribal.md`; A18 and later are
//! the project's own readings (`docs/rules/tribal.md`, "Interpretations").

use std::{collections::HashSet, sync::Arc};

use gobeyond_maps::{Map, NodeId};

use super::{
    Card, CardPlay, Event, RangeRule, TribalRules, card_play, cards, handicap_order, team_board::TeamBoard,
};
use crate::{Outcome, Player, setup::SetupError};

/// What a seat (or the server, for dice and time-outs) does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Action {
    /// A stone: a handicap stone, or the turn's placement.
    Place(NodeId),
    /// Pass the turn (ends the game when everyone passes in a row).
    Pass,
    /// Play: roll the dice for the range (casual game).
    Roll,
    /// Do nothing after the roll, or give up a handicap stone (breaks a run of passes).
    Forgo,
    /// Choose a start point (in the order of the roll-off).
    ChooseStart(NodeId),
    /// Offer to surrender to a player (3 or more players).
    Surrender(Player),
    /// Answer a surrender offer.
    Accept,
    Decline,
    /// Leave one's occupier.
    Independence,
    /// The clock ran out (sent by the server): see [`TribalGame::timeout_input`].
    Timeout,
    /// Two dice, as the server rolled them.
    Dice(u8, u8),
    /// Play a card from the hand, after the roll.
    PlayCard(Card),
    /// A Move card's step: one's stone from a node to another.
    Move(NodeId, NodeId),
    /// A Trade Prisoners card's other player.
    TradeWith(Player),
    /// An answer in a reaction window.
    React(Reaction),
    /// A card discarded over the hand limit at the end of a turn (face up).
    Discard(Card),
    /// A card returned under the pile over the hand limit after a pass (face down).
    Return(Card),
    /// The card the server drew for the seat.
    Drawn(Card),
}

/// An answer to another player's Play.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Reaction {
    Decline,
    Reject,
    RejectAndReplace,
}

/// Everything a seat can send, as kept in the log.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Input {
    Action(Action),
    /// Clean-Up: the player's own stones they agree are dead.
    Dead(Vec<NodeId>),
    /// Clean-Up time ran out: nothing named.
    CleanUpTimeout,
}

/// Where the game is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Phase {
    /// The dice roll-off for the order (casual): these seats must roll.
    RollOff {
        pending: Vec<Player>,
    },
    /// Players choose start points in the roll-off's order.
    ChooseStart {
        next: usize,
    },
    /// Handicap stones: `next` indexes the order.
    Handicap {
        next: usize,
    },
    /// A normal turn: before the roll (or, in Pro, the whole turn), or after it.
    Turn {
        rolled: Option<Roll>,
    },
    /// `from` offered to surrender to `to`, who answers.
    Offer {
        from: Player,
        to: Player,
    },
    /// A card being played: its placements or its target.
    Card(CardPlay),
    /// Every other player may reject `mover`'s Play: their answers so far (per seat).
    Reaction {
        mover: Player,
        placed: Vec<NodeId>,
        answers: Vec<Option<Reaction>>,
    },
    /// Reject and Replace: `player` may put a stone where `mover`'s rejected Play did.
    Replace {
        player: Player,
        mover: Player,
        nodes: Vec<NodeId>,
    },
    /// More than three cards at the end of the turn: one to the discard pile.
    Discard {
        player: Player,
    },
    /// More than three cards after a pass: one back under the pile.
    Return {
        player: Player,
    },
    /// The end: each player names their dead stones.
    CleanUp,
    Finished,
}

/// A Play's roll.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Roll {
    pub dice: (u8, u8),
    pub range: u32,
    pub doubles: bool,
}

/// Why an action was refused. The game is unchanged.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error, strum::IntoStaticStr)]
#[strum(serialize_all = "snake_case")]
pub enum Illegal {
    #[error("the game is over")]
    GameOver,
    #[error("it is not {0}'s turn")]
    NotYourTurn(Player),
    #[error("{0} is not possible now ({1})")]
    NotNow(&'static str, &'static str),
    #[error("node {0} is not on the map")]
    UnknownNode(NodeId),
    #[error("{0} is occupied")]
    Occupied(NodeId),
    #[error("{node} is more than {range} steps from the start point and stones")]
    OutOfRange { node: NodeId, range: u32 },
    #[error("{0} would leave the stone's group without liberties")]
    Suicide(NodeId),
    #[error("{0} would repeat an earlier position (ko)")]
    Ko(NodeId),
    #[error("no stones left in the supply")]
    NoStones,
    #[error("{0} is not a free start point")]
    NotAStartPoint(NodeId),
    #[error("surrender: {0}")]
    Surrender(String),
    #[error("dice must be 1 to 6")]
    BadDice,
    #[error("{0} is not your stone")]
    NotYourStone(NodeId),
    #[error("{0} is named twice")]
    Duplicate(NodeId),
    #[error("already chose")]
    #[strum(serialize = "already_submitted")]
    AlreadyChose,
    #[error("resignation is not permitted: a tribe may pass at every turn")]
    NoResignation,
    #[error("{} is not in your hand", .0.title())]
    NotInHand(Card),
    #[error("{} cannot be drawn now", .0.title())]
    NotInDeck(Card),
    #[error("{} cannot be played: {}", .0.title(), .1)]
    CardNotPlayable(Card, &'static str),
    #[error("stones placed in one turn stand at least 5 steps apart: {0} and {1} are closer")]
    TooClose(NodeId, NodeId),
    #[error("{0} would join a group with a stone placed this turn")]
    SameGroup(NodeId),
    #[error("{0} and {1} are not next to each other")]
    NotAdjacent(NodeId, NodeId),
    #[error("no pair of stones can start at {0}")]
    NoPair(NodeId),
    #[error("trade: {0}")]
    Trade(String),
}

/// A Tribal Go game.
#[derive(Debug, Clone)]
pub struct TribalGame {
    pub(super) map: Arc<Map>,
    pub(super) rules: TribalRules,
    pub(super) players: usize,
    /// Owner per node: 0 empty, p + 1 a stone of player p.
    pub(super) owner: Vec<u8>,
    /// Groups, liberties and ranges kept up to date as stones are placed (`team_board.rs`).
    pub(super) board: TeamBoard,
    /// Per player: who occupies them.
    pub(super) occupier: Vec<Option<Player>>,
    /// Candidate start points (as far apart as possible) and each player's choice.
    start_candidates: Vec<NodeId>,
    pub(super) start: Vec<Option<NodeId>>,
    /// Roll-off totals per player, in order (re-rolls appended).
    rolloff: Vec<Vec<u8>>,
    /// The roll-off's order (choice of start points); the first is the first player.
    pub(super) order: Vec<Player>,
    pub(super) first: Player,
    pub(super) handicap: Vec<Player>,
    pub(super) phase: Phase,
    pub(super) to_move: Player,
    /// The player to move chose Play: the server rolls their dice next.
    pub(super) awaiting_dice: bool,
    pub(super) passes: u32,
    /// Players who ran out of time: they pass on every turn from then on.
    pub(super) gone: Vec<bool>,
    /// Prisoners `[holder][colour]`.
    pub(super) prisoners: Vec<Vec<u32>>,
    /// Stones left in supply, when limited.
    pub(super) supply: Vec<Option<u32>>,
    /// Points banked by cards.
    pub(super) banked: Vec<i64>,
    /// The cards in each hand, and the rest.
    pub(super) hands: Vec<Vec<Card>>,
    pub(super) deck: cards::Deck,
    /// A draw waiting for the server's card.
    pub(super) drawing: Option<(Player, card_play::DrawFor)>,
    /// What the Play under way changed (to undo it if rejected).
    pub(super) snapshot: Option<Box<card_play::Snapshot>>,
    /// The last finished Play's snapshot, kept to be filled again (a Play starts every turn).
    pub(super) spare_snapshot: card_play::Spare,
    pub(super) hash: u64,
    /// Every position so far (superko), and the one before the last action (simple ko).
    /// Keyed by a hasher seeded per process (`foldhash`): the positions' Zobrist hashes are a
    /// linear function of the stones, so a fixed hash could be steered into collisions.
    pub(super) history: HashSet<u64, foldhash::fast::RandomState>,
    pub(super) previous_hash: u64,
    pub(super) dead: Vec<Option<Vec<NodeId>>>,
    log: Vec<(Player, Input)>,
    events: Vec<Event>,
    pub(super) record_events: bool,
    pub(super) outcome: Option<Outcome>,
}

impl TribalGame {
    pub fn new(
        map: Arc<Map>,
        players: usize,
        rules: TribalRules,
        first: Option<Player>,
    ) -> Result<TribalGame, SetupError> {
        rules.validate(players).map_err(|(name, m)| SetupError::Rules(format!("{name}: {m}")))?;
        if map.len() < players {
            return Err(SetupError::Rules(format!("{} nodes cannot hold {players} start points", map.len())));
        }
        if rules.range != RangeRule::Unlimited {
            // The map's balls, which the range counts come from, are built now rather than on
            // the first placement: memory budgets count them with the map when a table loads.
            let _ = map.balls();
        }
        let first = first.unwrap_or(Player(0));
        if first.index() >= players {
            return Err(SetupError::Rules(format!("seat {} is not in a {players}-player game", first.0)));
        }
        let start_candidates = gobeyond_maps::start_points(&map, players);
        let n = map.len();
        let mut g = TribalGame {
            map,
            players,
            owner: vec![0; n],
            board: TeamBoard::default(),
            occupier: vec![None; players],
            start_candidates,
            start: vec![None; players],
            rolloff: vec![Vec::new(); players],
            order: Vec::new(),
            first,
            handicap: Vec::new(),
            phase: Phase::Finished,
            to_move: first,
            awaiting_dice: false,
            passes: 0,
            gone: vec![false; players],
            prisoners: vec![vec![0; players]; players],
            supply: vec![rules.stones_per_player; players],
            banked: vec![0; players],
            hands: vec![Vec::new(); players],
            deck: cards::Deck::new(rules.replace_any),
            drawing: None,
            snapshot: None,
            spare_snapshot: card_play::Spare::default(),
            hash: 0,
            history: HashSet::from_iter([0]),
            previous_hash: 0,
            dead: vec![None; players],
            log: Vec::new(),
            events: Vec::new(),
            record_events: true,
            outcome: None,
            rules,
        };
        if g.rules.range == RangeRule::Dice {
            g.phase = Phase::RollOff { pending: (0..players as u8).map(Player).collect() };
        } else {
            // Pro: no roll-off; start points are chosen in turn order from the first player.
            g.order = (0..players).map(|k| Player(((first.index() + k) % players) as u8)).collect();
            g.phase = Phase::ChooseStart { next: 0 };
        }
        Ok(g)
    }

    // --- Reading the game -------------------------------------------------------------

    pub fn rules(&self) -> &TribalRules {
        &self.rules
    }

    pub fn phase(&self) -> &Phase {
        &self.phase
    }

    pub fn log(&self) -> &[(Player, Input)] {
        &self.log
    }

    pub fn events(&self) -> &[Event] {
        &self.events
    }

    /// The stone on a node.
    pub fn stone_at(&self, node: NodeId) -> Option<Player> {
        self.owner.get(node as usize).and_then(|&o| o.checked_sub(1)).map(Player)
    }

    pub fn start_point(&self, p: Player) -> Option<NodeId> {
        self.start.get(p.index()).copied().flatten()
    }

    pub fn start_candidates(&self) -> &[NodeId] {
        &self.start_candidates
    }

    pub fn occupier(&self, p: Player) -> Option<Player> {
        self.occupier.get(p.index()).copied().flatten()
    }

    /// The root of `p`'s team: their occupier, or themselves.
    pub fn team(&self, p: Player) -> Player {
        self.occupier(p).unwrap_or(p)
    }

    pub fn prisoners(&self, holder: Player) -> &[u32] {
        &self.prisoners[holder.index()]
    }

    pub fn supply(&self, p: Player) -> Option<u32> {
        self.supply[p.index()]
    }

    pub fn passes(&self) -> u32 {
        self.passes
    }

    pub fn is_gone(&self, p: Player) -> bool {
        self.gone[p.index()]
    }

    pub fn first_player(&self) -> Player {
        self.first
    }

    pub fn order(&self) -> &[Player] {
        &self.order
    }

    pub fn rolloff(&self, p: Player) -> &[u8] {
        &self.rolloff[p.index()]
    }

    /// The handicap stones still to come, in order.
    pub fn handicap_left(&self) -> &[Player] {
        match self.phase {
            Phase::Handicap { next } => &self.handicap[next.min(self.handicap.len())..],
            _ => &[],
        }
    }

    /// The seat whose dice the server must roll now (roll-off, or a Play's roll).
    pub fn chance_seat(&self) -> Option<Player> {
        if let Some((p, _)) = self.drawing {
            return Some(p);
        }
        match &self.phase {
            Phase::RollOff { pending } => pending.first().copied(),
            Phase::Turn { rolled: None } if self.awaiting_dice => Some(self.to_move),
            _ => None,
        }
    }

    /// The range of a placement by the player to move now (None: no limit).
    pub fn current_range(&self) -> Option<u32> {
        match (&self.phase, self.rules.range) {
            (Phase::Handicap { .. }, _) => Some(self.rules.handicap_distance),
            (_, RangeRule::Unlimited) => None,
            (_, RangeRule::Fixed) => Some(self.rules.fixed_range),
            (Phase::Turn { rolled: Some(r) }, RangeRule::Dice) => Some(r.range),
            (Phase::Card(play), _) => play.range,
            (_, RangeRule::Dice) => Some(0),
        }
    }

    /// Room for `more` positions in the superko history (each stone placed adds one): a
    /// playout makes it once rather than growing the set as it goes.
    pub fn reserve_positions(&mut self, more: usize) {
        self.history.reserve(more);
    }

    pub(super) fn emit(&mut self, e: Event) {
        if self.record_events {
            self.events.push(e);
        }
    }

    /// Takes back the last input of a seat (with the dice rolled after it): the game is
    /// rebuilt from its log. False when nothing is left to take back.
    pub fn undo(&mut self) -> bool {
        // The dice and cards drawn after the last input go with it.
        let drawn = |input: &Input| matches!(input, Input::Action(Action::Dice(..) | Action::Drawn(_)));
        let Some(keep) = self.log.iter().rposition(|(_, input)| !drawn(input)) else { return false };
        match crate::kit::replay_first(self, keep) {
            Some(g) => {
                *self = g;
                true
            }
            None => false,
        }
    }

    /// A copy that records no events (search).
    pub fn without_events(&self) -> TribalGame {
        let mut g = self.clone();
        g.events.clear();
        g.log.clear();
        g.record_events = false;
        g
    }

    // --- The flow of turns -----------------------------------------------------------

    /// The next player's turn; players who ran out of time pass by themselves.
    pub(super) fn next_turn(&mut self, after: Player) {
        let mut p = after;
        loop {
            p = Player(((p.index() + 1) % self.players) as u8);
            self.to_move = p;
            self.phase = Phase::Turn { rolled: None };
            self.awaiting_dice = false;
            if !self.gone[p.index()] {
                return;
            }
            self.passes += 1;
            let consecutive = self.passes;
            self.emit(Event::Passed { player: p, automatic: true, consecutive });
            if self.end_if_passed() {
                return;
            }
        }
    }

    fn end_if_passed(&mut self) -> bool {
        if self.passes as usize >= self.players {
            self.begin_counting();
            true
        } else {
            false
        }
    }

    fn after_handicap_or_start(&mut self) {
        // Setup done: the first player's turn.
        self.to_move = self.first;
        self.phase = Phase::Turn { rolled: None };
        self.awaiting_dice = false;
        if self.gone[self.first.index()] {
            let before = Player(((self.first.index() + self.players - 1) % self.players) as u8);
            self.next_turn(before);
        }
    }

    fn begin_handicap(&mut self) {
        let values: Vec<i32> = (0..self.players).map(|p| self.rules.handicap_of(p)).collect();
        self.handicap =
            handicap_order(&values, self.first.index()).into_iter().map(|s| Player(s as u8)).collect();
        if self.handicap.is_empty() {
            self.after_handicap_or_start();
        } else {
            self.phase = Phase::Handicap { next: 0 };
        }
    }

    /// The roll-off is settled when every total sequence differs; ties roll again.
    fn settle_rolloff(&mut self) {
        let mut tied = Vec::new();
        for p in 0..self.players {
            if (0..self.players).any(|q| q != p && self.rolloff[q] == self.rolloff[p]) {
                tied.push(Player(p as u8));
            }
        }
        if !tied.is_empty() {
            self.phase = Phase::RollOff { pending: tied };
            return;
        }
        let mut order: Vec<Player> = (0..self.players as u8).map(Player).collect();
        order.sort_by(|a, b| self.rolloff[b.index()].cmp(&self.rolloff[a.index()]));
        self.first = order[0];
        self.order = order.clone();
        self.emit(Event::Order { order });
        self.phase = Phase::ChooseStart { next: 0 };
    }

    // --- Applying inputs -------------------------------------------------------------

    /// Plays one input of `seat`, checked: on a refusal nothing changes.
    pub fn apply(&mut self, seat: Player, input: &Input) -> Result<(), Illegal> {
        if seat.index() >= self.players {
            return Err(Illegal::NotYourTurn(seat));
        }
        match input {
            Input::Action(a) => self.act(seat, *a)?,
            Input::Dead(nodes) => self.choose_dead(seat, nodes)?,
            Input::CleanUpTimeout => self.choose_dead(seat, &[])?,
        }
        if self.record_events {
            self.log.push((seat, input.clone()));
        }
        Ok(())
    }

    pub(super) fn act(&mut self, seat: Player, action: Action) -> Result<(), Illegal> {
        if self.outcome.is_some() {
            return Err(Illegal::GameOver);
        }
        if let Action::Drawn(card) = action {
            return self.drawn(seat, card);
        }
        if self.drawing.is_some() {
            return Err(Illegal::NotNow(action_name(action), "a card is being drawn"));
        }
        if matches!(action, Action::Dice(..)) {
            if self.chance_seat() != Some(seat) {
                return Err(Illegal::NotNow("dice", "no roll is pending for this seat"));
            }
        } else if !self.is_acting(seat) {
            return Err(Illegal::NotYourTurn(seat));
        }
        // The inputs of every turn, without copying the phase.
        match (&self.phase, action) {
            (&Phase::Turn { rolled }, action) => return self.turn_action(seat, rolled, action),
            (Phase::Reaction { .. }, Action::React(answer)) => return self.react(seat, answer),
            (Phase::Reaction { .. }, Action::Timeout) => return self.react(seat, Reaction::Decline),
            _ => {}
        }
        match (self.phase.clone(), action) {
            (Phase::RollOff { pending }, Action::Dice(a, b)) => {
                if pending.first() != Some(&seat) {
                    return Err(Illegal::NotYourTurn(seat));
                }
                check_dice(a, b)?;
                self.rolloff[seat.index()].push(a + b);
                self.emit(Event::RolledOff { player: seat, dice: [a, b], total: a + b });
                let rest: Vec<Player> = pending[1..].to_vec();
                if rest.is_empty() {
                    self.settle_rolloff();
                } else {
                    self.phase = Phase::RollOff { pending: rest };
                }
            }
            (Phase::ChooseStart { next }, Action::ChooseStart(node) | Action::Place(node)) => {
                if !self.start_candidates.contains(&node) || self.start.contains(&Some(node)) {
                    return Err(Illegal::NotAStartPoint(node));
                }
                self.choose_start(next, seat, node);
            }
            (Phase::ChooseStart { next }, Action::Timeout) => {
                let free = self.start_candidates.iter().copied().find(|v| !self.start.contains(&Some(*v)));
                if let Some(node) = free {
                    self.choose_start(next, seat, node);
                }
            }
            (Phase::Handicap { next }, Action::Place(node)) => {
                self.place(seat, node, Some(self.rules.handicap_distance), true)?;
                self.advance_handicap(next);
            }
            (Phase::Handicap { next }, Action::Forgo | Action::Timeout) => {
                self.emit(Event::Forgone { player: seat, handicap: true });
                self.advance_handicap(next);
            }
            (Phase::Offer { from, to }, Action::Accept) => {
                let previous = self.occupier(from);
                self.occupier[from.index()] = Some(to);
                // Teams changed: so do the groups.
                self.board.mark_stale();
                self.emit(Event::SurrenderAccepted { player: from, to, previous });
                self.next_turn(from);
            }
            (Phase::Offer { from, to }, Action::Decline | Action::Timeout) => {
                self.emit(Event::SurrenderDeclined { player: from, to });
                self.next_turn(from);
            }
            (Phase::Card(play), action) => self.card_step(seat, play, action)?,
            (Phase::Replace { player, mover, nodes }, Action::Place(v)) => {
                if !nodes.contains(&v) {
                    return Err(Illegal::NotNow(
                        "replacing there",
                        "only where the rejected move placed a stone",
                    ));
                }
                self.place(player, v, None, false)?;
                self.end_round(mover);
            }
            (Phase::Replace { mover, .. }, Action::Forgo | Action::Timeout) => self.end_round(mover),
            (Phase::Discard { player }, Action::Discard(card)) => self.give_up_card(player, card, false)?,
            (Phase::Return { player }, Action::Return(card)) => self.give_up_card(player, card, true)?,
            (Phase::Discard { player } | Phase::Return { player }, Action::Timeout) => {
                // The card drawn last goes.
                let under = matches!(self.phase, Phase::Return { .. });
                if let Some(&card) = self.hands[player.index()].last() {
                    self.give_up_card(player, card, under)?;
                }
            }
            (_, Action::Dice(..)) => return Err(Illegal::NotNow("dice", "no roll is pending")),
            _ => return Err(Illegal::NotNow(action_name(action), self.phase_name())),
        }
        Ok(())
    }

    fn choose_start(&mut self, next: usize, seat: Player, node: NodeId) {
        self.start[seat.index()] = Some(node);
        self.board.mark_stale();
        self.emit(Event::StartChosen { player: seat, node });
        if next + 1 < self.order.len() {
            self.phase = Phase::ChooseStart { next: next + 1 };
        } else {
            self.begin_handicap();
        }
    }

    fn advance_handicap(&mut self, next: usize) {
        if next + 1 < self.handicap.len() {
            self.phase = Phase::Handicap { next: next + 1 };
        } else {
            self.after_handicap_or_start();
        }
    }

    fn turn_action(&mut self, seat: Player, rolled: Option<Roll>, action: Action) -> Result<(), Illegal> {
        let dice = self.rules.range == RangeRule::Dice;
        match (rolled, action) {
            (None, Action::Dice(a, b)) if self.awaiting_dice => {
                check_dice(a, b)?;
                let roll = Roll { dice: (a, b), range: u32::from(a.max(b)), doubles: a == b };
                self.awaiting_dice = false;
                self.phase = Phase::Turn { rolled: Some(roll) };
                self.emit(Event::Rolled {
                    player: seat,
                    dice: [a, b],
                    range: roll.range,
                    doubles: roll.doubles,
                });
                if roll.doubles && self.rules.cards {
                    self.begin_draw(seat, card_play::DrawFor::Doubles);
                }
                Ok(())
            }
            (None, _) if self.awaiting_dice => {
                Err(Illegal::NotNow(action_name(action), "the dice are being rolled"))
            }
            (None, Action::Roll) if dice => {
                self.awaiting_dice = true;
                Ok(())
            }
            (None, Action::Pass | Action::Timeout) => {
                if action == Action::Timeout {
                    self.gone[seat.index()] = true;
                    self.emit(Event::TimedOut { player: seat });
                }
                self.passes += 1;
                let consecutive = self.passes;
                self.emit(Event::Passed { player: seat, automatic: action == Action::Timeout, consecutive });
                if !self.end_if_passed() {
                    // A pass may draw a card (rule 17): always taken, since one over the limit
                    // goes straight back (A19, `docs/rules/tribal.md`). A player who left draws
                    // nothing.
                    if self.rules.cards && action == Action::Pass {
                        self.begin_draw(seat, card_play::DrawFor::Pass);
                    } else {
                        self.next_turn(seat);
                    }
                }
                Ok(())
            }
            (None, Action::Surrender(q)) => {
                self.check_surrender(seat, q)?;
                self.passes = 0;
                self.emit(Event::SurrenderOffered { player: seat, to: q });
                self.phase = Phase::Offer { from: seat, to: q };
                Ok(())
            }
            (None, Action::Independence) => {
                let Some(was) = self.occupier(seat) else {
                    return Err(Illegal::NotNow("independence", "you are independent"));
                };
                self.occupier[seat.index()] = None;
                self.board.mark_stale();
                self.passes = 0;
                self.emit(Event::Independent { player: seat, from: was });
                self.next_turn(seat);
                Ok(())
            }
            (Some(_), Action::Place(node)) | (None, Action::Place(node)) if rolled.is_some() || !dice => {
                self.place_as_play(seat, node, self.current_range())?;
                self.after_play(seat, vec![node]);
                Ok(())
            }
            (_, Action::PlayCard(card)) => self.play_card(seat, card),
            (Some(_), Action::Forgo | Action::Timeout) | (None, Action::Forgo)
                if rolled.is_some() || !dice =>
            {
                self.emit(Event::Forgone { player: seat, handicap: false });
                self.passes = 0;
                self.end_round(seat);
                Ok(())
            }
            _ => Err(Illegal::NotNow(
                action_name(action),
                if rolled.is_some() { "after the roll" } else { "before the roll" },
            )),
        }
    }

    fn phase_name(&self) -> &'static str {
        match self.phase {
            Phase::RollOff { .. } => "the roll-off",
            Phase::ChooseStart { .. } => "the choice of start points",
            Phase::Handicap { .. } => "the handicap stones",
            Phase::Turn { .. } => "this turn",
            Phase::Offer { .. } => "a surrender offer",
            Phase::Card(_) => "a card's play",
            Phase::Reaction { .. } => "the answers to a move",
            Phase::Replace { .. } => "a replacement",
            Phase::Discard { .. } => "a discard",
            Phase::Return { .. } => "a card's return",
            Phase::CleanUp => "Clean-Up",
            Phase::Finished => "the end",
        }
    }

    /// What the clock does for `seat` when time runs out.
    pub fn timeout_input(&self) -> Input {
        if self.phase == Phase::CleanUp { Input::CleanUpTimeout } else { Input::Action(Action::Timeout) }
    }

    fn choose_dead(&mut self, seat: Player, nodes: &[NodeId]) -> Result<(), Illegal> {
        if self.phase != Phase::CleanUp {
            return Err(Illegal::NotNow("naming dead stones", self.phase_name()));
        }
        if self.dead[seat.index()].is_some() {
            return Err(Illegal::AlreadyChose);
        }
        let mut seen = HashSet::new();
        for &v in nodes {
            if !self.map.contains(v as u64) {
                return Err(Illegal::UnknownNode(v));
            }
            if self.stone_at(v) != Some(seat) {
                return Err(Illegal::NotYourStone(v));
            }
            if !seen.insert(v) {
                return Err(Illegal::Duplicate(v));
            }
        }
        self.dead[seat.index()] = Some(nodes.to_vec());
        self.emit(Event::DeadChosen { player: seat, nodes: nodes.to_vec() });
        if self.dead.iter().all(Option::is_some) {
            self.finish_counting();
        }
        Ok(())
    }

    pub fn outcome(&self) -> Option<&Outcome> {
        self.outcome.as_ref()
    }
}

fn check_dice(a: u8, b: u8) -> Result<(), Illegal> {
    if (1..=6).contains(&a) && (1..=6).contains(&b) { Ok(()) } else { Err(Illegal::BadDice) }
}

pub(super) fn action_name(a: Action) -> &'static str {
    match a {
        Action::Place(_) => "placing a stone",
        Action::Pass => "passing",
        Action::Roll => "rolling",
        Action::Forgo => "forgoing",
        Action::ChooseStart(_) => "choosing a start point",
        Action::Surrender(_) => "surrendering",
        Action::Accept | Action::Decline => "answering a surrender",
        Action::Independence => "declaring independence",
        Action::Timeout => "a time-out",
        Action::Dice(..) => "dice",
        Action::PlayCard(_) => "playing a card",
        Action::Move(..) => "moving a stone",
        Action::TradeWith(_) => "trading prisoners",
        Action::React(_) => "answering a move",
        Action::Discard(_) => "discarding",
        Action::Return(_) => "returning a card",
        Action::Drawn(_) => "a card draw",
    }
}
