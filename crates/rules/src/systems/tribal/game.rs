//! The Tribal Go game engine: its actions, phases and refusals, the game's state, its start and
//! what can be read of it. The turn's steps are applied in `inputs.rs`, placements and captures
//! in `board.rs`, cards in `card_play.rs`, the end in `scoring.rs`.
//! Rule numbers and readings A1–A17 are those of `docs/rules/spec/tribal.md`; A18 and later are
//! the project's own readings (`docs/rules/tribal.md`, "Interpretations").

use std::{collections::HashSet, sync::Arc};

use gobeyond_maps::{Map, NodeId};

use super::{
    Card, CardPlay, Event, RangeRule, TribalRules, card_play, cards, reaction, team_board::TeamBoard,
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
    pub(super) start_candidates: Vec<NodeId>,
    pub(super) start: Vec<Option<NodeId>>,
    /// Roll-off totals per player, in order (re-rolls appended).
    pub(super) rolloff: Vec<Vec<u8>>,
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
    pub(super) snapshot: Option<Box<reaction::Snapshot>>,
    /// The last finished Play's snapshot, kept to be filled again (a Play starts every turn).
    pub(super) spare_snapshot: reaction::Spare,
    pub(super) hash: u64,
    /// Every position so far (superko), and the one before the last action (simple ko).
    /// Keyed by a hasher seeded per process (`foldhash`): the positions' Zobrist hashes are a
    /// linear function of the stones, so a fixed hash could be steered into collisions.
    pub(super) history: HashSet<u64, foldhash::fast::RandomState>,
    pub(super) previous_hash: u64,
    pub(super) dead: Vec<Option<Vec<NodeId>>>,
    pub(super) log: Vec<(Player, Input)>,
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
            spare_snapshot: reaction::Spare::default(),
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

    pub fn outcome(&self) -> Option<&Outcome> {
        self.outcome.as_ref()
    }
}
