//! Tribal Go as a registered rule system: its wire form, settings description and the
//! [`RuleSystem`] implementation.

use std::sync::Arc;

use gobeyond_maps::Map;
use serde::{Deserialize, Serialize};

use super::{
    Action, Card, Event, Illegal, Input, Phase, RangeRule, Reaction, TribalGame, TribalRules, TribalState,
};
use crate::{
    Game, Player,
    record::PlayerInfo,
    setup::SetupError,
    system::{
        Preset, Refusal, RuleSystem, SeatHistory, SettingInfo, SettingsError, Start, Turn, Viewer, node_ref,
        resolve_node, resolve_nodes,
    },
    wire::Object,
};

/// What a seat sends in a Tribal Go game (and what records keep).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(rename = "TribalMove"))]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum Move {
    /// A stone (the turn's, or a handicap stone), by number (`node`), label (`at`) or both.
    Place {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        node: Option<u64>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        at: Option<String>,
    },
    Pass,
    /// Play: the server rolls the dice next.
    Roll,
    /// Nothing after the roll, or a handicap stone given up.
    Forgo,
    ChooseStart {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        node: Option<u64>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        at: Option<String>,
    },
    /// Offer to surrender to seat `to` (from 0).
    Surrender {
        to: u8,
    },
    Accept,
    Decline,
    Independence,
    /// Refused: "resignation is not permitted" (a tribe passes instead).
    Resign,
    /// The clock ran out (sent by the server).
    Timeout,
    /// Two dice rolled by the server.
    Dice {
        dice: [u8; 2],
    },
    /// Clean-Up: the player's own dead stones.
    Dead {
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        nodes: Vec<u64>,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        at: Vec<String>,
    },
    CleanupTimeout,
    /// Play a card from the hand.
    PlayCard {
        card: Card,
    },
    /// A Move card's step: one's stone from `from` to `node`.
    MoveStone {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        from: Option<u64>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        from_at: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        node: Option<u64>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        at: Option<String>,
    },
    /// A Trade Prisoners card's other player (seat from 0).
    Trade {
        with: u8,
    },
    /// An answer to another player's move. Other seats are shown no answer (`null`) until the
    /// window closes.
    React {
        answer: Option<Answer>,
    },
    /// A card discarded (face up) over the hand limit at the end of a turn.
    Discard {
        card: Card,
    },
    /// A card returned under the pile (face down) over the hand limit after a pass; other
    /// seats are shown no card.
    Return {
        card: Option<Card>,
    },
    /// The card the server drew for the seat; other seats are shown no card.
    Draw {
        card: Option<Card>,
    },
}

/// An answer in a reaction window.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(rename = "TribalAnswer"))]
#[serde(rename_all = "snake_case")]
pub enum Answer {
    Decline,
    Reject,
    RejectAndReplace,
}

impl Move {
    fn of(map: &Map, input: &Input) -> Move {
        match input {
            Input::Action(a) => match *a {
                Action::Place(n) => {
                    let (node, at) = node_ref(map, n);
                    Move::Place { node, at }
                }
                Action::ChooseStart(n) => {
                    let (node, at) = node_ref(map, n);
                    Move::ChooseStart { node, at }
                }
                Action::Pass => Move::Pass,
                Action::Roll => Move::Roll,
                Action::Forgo => Move::Forgo,
                Action::Surrender(q) => Move::Surrender { to: q.0 },
                Action::Accept => Move::Accept,
                Action::Decline => Move::Decline,
                Action::Independence => Move::Independence,
                Action::Timeout => Move::Timeout,
                Action::Dice(a, b) => Move::Dice { dice: [a, b] },
                Action::PlayCard(card) => Move::PlayCard { card },
                Action::Move(from, to) => {
                    let (from, from_at) = node_ref(map, from);
                    let (node, at) = node_ref(map, to);
                    Move::MoveStone { from, from_at, node, at }
                }
                Action::TradeWith(q) => Move::Trade { with: q.0 },
                Action::React(r) => Move::React {
                    answer: Some(match r {
                        Reaction::Decline => Answer::Decline,
                        Reaction::Reject => Answer::Reject,
                        Reaction::RejectAndReplace => Answer::RejectAndReplace,
                    }),
                },
                Action::Discard(card) => Move::Discard { card },
                Action::Return(card) => Move::Return { card: Some(card) },
                Action::Drawn(card) => Move::Draw { card: Some(card) },
            },
            Input::Dead(nodes) => Move::Dead {
                nodes: nodes.iter().map(|&n| n as u64).collect(),
                at: nodes.iter().map(|&n| map.label(n).to_string()).collect(),
            },
            Input::CleanUpTimeout => Move::CleanupTimeout,
        }
    }

    /// The engine's input for this wire form.
    pub fn input(&self, map: &Map) -> Result<Input, Refusal> {
        Ok(Input::Action(match self {
            Move::Place { node, at } => Action::Place(resolve_node(map, *node, at.as_deref())?),
            Move::ChooseStart { node, at } => Action::ChooseStart(resolve_node(map, *node, at.as_deref())?),
            Move::Pass => Action::Pass,
            Move::Roll => Action::Roll,
            Move::Forgo => Action::Forgo,
            Move::Surrender { to } => Action::Surrender(Player(*to)),
            Move::Accept => Action::Accept,
            Move::Decline => Action::Decline,
            Move::Independence => Action::Independence,
            Move::Resign => {
                return Err(Refusal::new("no_resignation", Illegal::NoResignation.to_string()));
            }
            Move::Timeout => Action::Timeout,
            Move::Dice { dice } => Action::Dice(dice[0], dice[1]),
            Move::Dead { nodes, at } => return Ok(Input::Dead(resolve_nodes(map, nodes, at)?)),
            Move::CleanupTimeout => return Ok(Input::CleanUpTimeout),
            Move::PlayCard { card } => Action::PlayCard(*card),
            Move::MoveStone { from, from_at, node, at } => Action::Move(
                resolve_node(map, *from, from_at.as_deref())?,
                resolve_node(map, *node, at.as_deref())?,
            ),
            Move::Trade { with } => Action::TradeWith(Player(*with)),
            Move::React { answer } => Action::React(match answer {
                Some(Answer::Decline) => Reaction::Decline,
                Some(Answer::Reject) => Reaction::Reject,
                Some(Answer::RejectAndReplace) => Reaction::RejectAndReplace,
                None => return Err(hidden("answer")),
            }),
            Move::Discard { card } => Action::Discard(*card),
            Move::Return { card } => Action::Return(card.ok_or_else(|| hidden("card"))?),
            Move::Draw { card } => Action::Drawn(card.ok_or_else(|| hidden("card"))?),
        }))
    }

    pub fn action(map: &Map, action: Action) -> Move {
        Move::of(map, &Input::Action(action))
    }

    pub fn dead(map: &Map, nodes: &[u32]) -> Move {
        Move::of(map, &Input::Dead(nodes.to_vec()))
    }
}

fn hidden(what: &str) -> Refusal {
    Refusal::new("bad_action", format!("the {what} is missing (it was hidden from this copy of the game)"))
}

fn refusal(e: &Illegal, map: &Map) -> Refusal {
    let label = |n: u32| if map.contains(n as u64) { map.label(n).to_string() } else { format!("node {n}") };
    let message = match e {
        Illegal::NotYourTurn(p) => format!("it is not seat {}'s turn", p.0 + 1),
        Illegal::UnknownNode(n) => format!("{} is not on the map", label(*n)),
        Illegal::Occupied(n) => format!("{} is occupied", label(*n)),
        Illegal::OutOfRange { node, range } => {
            format!("{} is more than {range} steps from your start point and stones", label(*node))
        }
        Illegal::Suicide(n) => format!("{} would leave your group without liberties", label(*n)),
        Illegal::Ko(n) => format!("{} would repeat an earlier position (ko)", label(*n)),
        Illegal::NotAStartPoint(n) => format!("{} is not a free start point", label(*n)),
        Illegal::NotYourStone(n) => format!("{} is not your stone", label(*n)),
        Illegal::Duplicate(n) => format!("{} is named twice", label(*n)),
        Illegal::TooClose(a, b) => format!(
            "stones placed in one turn stand at least 5 steps apart: {} and {} are closer",
            label(*a),
            label(*b)
        ),
        Illegal::SameGroup(n) => format!("{} would join a group with a stone placed this turn", label(*n)),
        Illegal::NotAdjacent(a, b) => format!("{} and {} are not next to each other", label(*a), label(*b)),
        Illegal::NoPair(n) => format!("no pair of stones can start at {}", label(*n)),
        _ => e.to_string(),
    };
    Refusal::of(e, message)
}

impl RuleSystem for TribalGame {
    const NAME: &'static str = "tribal";
    const TITLE: &'static str = "Tribal Go";
    const ABOUT: &'static str =
        "2 to 8 tribes: a range from the dice, captures shared among neighbours, alliances by surrender";
    const DOCUMENT: &'static str = include_str!("../../../../../docs/rules/tribal.md");

    type Settings = TribalRules;
    type Move = Move;
    type Event = Event;
    type View = TribalState;

    fn presets() -> &'static [Preset] {
        &[
            Preset { name: "tribal", description: "the casual game: the range from two dice" },
            Preset { name: "tribal-pro", description: "the Pro game: no dice, a fixed range of 5" },
        ]
    }

    fn preset(name: &str) -> Option<TribalRules> {
        match name.to_ascii_lowercase().as_str() {
            "tribal" => Some(TribalRules::default()),
            "tribal-pro" => Some(TribalRules::pro()),
            _ => None,
        }
    }

    /// The handicap comes from the players' history unless the creator set it.
    fn needs_history(given: &Object) -> bool {
        !given.contains_key("handicap")
    }

    /// −(played + won), at most −5, per seat (docs/rules/tribal.md, "Handicap"); equal values
    /// need none.
    fn settings_from_history(given: &Object, history: &[SeatHistory]) -> Option<Object> {
        if !Self::needs_history(given) {
            return None;
        }
        let values: Vec<i32> = history.iter().map(|h| super::handicap_value(h.played, h.first)).collect();
        if values.iter().all(|v| Some(v) == values.first()) {
            return None;
        }
        Some(Object::from_iter([("handicap".to_string(), serde_json::json!(values))]))
    }

    fn describe_settings() -> Vec<SettingInfo> {
        let d = TribalRules::default();
        let range = f64::from(super::settings::MAX_RANGE);
        vec![
            SettingInfo::choice(
                "range",
                d.range,
                "how far a stone may go: the higher of two dice, a fixed range, or anywhere",
            ),
            SettingInfo::integer(
                "fixed_range",
                d.fixed_range,
                "the range when it is fixed (the Pro game: 5)",
            )
            .range(1.0, range),
            SettingInfo::choice(
                "ko",
                d.ko,
                "no position may recur (superko), or only the one before the last move",
            ),
            SettingInfo::optional_integer(
                "stones_per_player",
                d.stones_per_player,
                "stones each tribe has (empty: no limit)",
            )
            .range(1.0, 100_000.0),
            SettingInfo::integers(
                "handicap",
                &d.handicap,
                "per seat, −(games played + games won), at most −5; newcomers 0 place extra stones",
            )
            .range(-5.0, 0.0),
            SettingInfo::boolean(
                "cards",
                d.cards,
                "the deck of cards: a pass and a pair of dice draw one (the casual game)",
            ),
            SettingInfo::boolean(
                "replace_any",
                d.replace_any,
                "two Replace Any cards in the deck (52 cards; the document removed them as too powerful)",
            ),
            SettingInfo::integer(
                "answer_seconds",
                d.answer_seconds,
                "under a time control: seconds to answer a surrender offer",
            )
            .range(3.0, 600.0),
            SettingInfo::integer(
                "reaction_seconds",
                d.reaction_seconds,
                "seconds after each move in which other players may play a Reject card (with or without a clock)",
            )
            .range(
                f64::from(*super::settings::REACTION_SECONDS.start()),
                f64::from(*super::settings::REACTION_SECONDS.end()),
            ),
            SettingInfo::integer(
                "handicap_distance",
                d.handicap_distance,
                "how far a handicap stone may go from the start point and stones",
            )
            .range(0.0, range),
        ]
    }

    fn validate(settings: &TribalRules, players: usize) -> Result<(), SettingsError> {
        settings.validate(players).map_err(|(name, m)| SettingsError::new(name, m))
    }

    fn start(
        map: Arc<Map>,
        players: usize,
        settings: TribalRules,
        start: &Start,
    ) -> Result<Self, SetupError> {
        if !start.stones.is_empty() {
            return Err(SetupError::Rules("Tribal Go starts from start points, not setup stones".into()));
        }
        if start.first.is_some() && settings.range == RangeRule::Dice {
            return Err(SetupError::Rules("in the casual game the roll-off decides who moves first".into()));
        }
        TribalGame::new(map, players, settings, start.first)
    }

    fn settings(&self) -> &TribalRules {
        self.rules()
    }

    fn start_position(&self) -> Start {
        let pro = self.rules().range != RangeRule::Dice;
        Start {
            stones: Vec::new(),
            first: (pro && self.first_player() != Player(0)).then_some(self.first_player()),
        }
    }

    fn turn(&self) -> Turn {
        if let Some(p) = self.chance_seat() {
            let phase = if matches!(self.phase(), Phase::RollOff { .. }) { "roll_off" } else { "playing" };
            return Turn { seats: Vec::new(), phase, simultaneous: false, chance: Some(p) };
        }
        match self.phase() {
            Phase::RollOff { .. } => Turn::to_move(None, "roll_off"),
            Phase::ChooseStart { .. } => Turn::to_move(self.acting().first().copied(), "choose_start"),
            Phase::Handicap { .. } => Turn::to_move(self.acting().first().copied(), "handicap"),
            Phase::Turn { .. } => Turn::to_move(self.acting().first().copied(), "playing"),
            // A decision, not a turn: under a time control it gets the server's short decision
            // time (declining when it runs out), and the offered player's own clock stands.
            Phase::Offer { to, .. } => {
                Turn { seats: vec![*to], phase: "surrender_offer", simultaneous: true, chance: None }
            }
            Phase::Card(_) => Turn::to_move(self.acting().first().copied(), "card"),
            // Every other player answers at once, on the decision time.
            Phase::Reaction { .. } => {
                Turn { seats: self.acting(), phase: "reaction", simultaneous: true, chance: None }
            }
            Phase::Replace { player, .. } => Turn::to_move(Some(*player), "replace"),
            Phase::Discard { player } => Turn::to_move(Some(*player), "discard"),
            Phase::Return { player } => Turn::to_move(Some(*player), "return"),
            Phase::CleanUp => {
                Turn { seats: self.acting(), phase: "clean_up", simultaneous: true, chance: None }
            }
            Phase::Finished => Turn::finished(),
        }
    }

    fn submit(&mut self, seat: Player, input: &Move) -> Result<(), Refusal> {
        let input = input.input(self.map())?;
        self.apply(seat, &input).map_err(|e| refusal(&e, self.map()))
    }

    fn to_wire(&self, action: Action) -> Move {
        Move::action(self.map(), action)
    }

    fn timeout_move(&self, _: Player) -> Move {
        if *self.phase() == Phase::CleanUp { Move::CleanupTimeout } else { Move::Timeout }
    }

    fn fallback_move(&self, _: Player) -> Move {
        match self.phase() {
            Phase::Handicap { .. } | Phase::Turn { rolled: Some(_) } => Move::Forgo,
            Phase::Offer { .. } => Move::Decline,
            Phase::Card(_) | Phase::Replace { .. } => Move::Forgo,
            Phase::Reaction { .. } => Move::React { answer: Some(Answer::Decline) },
            Phase::Discard { player } => match self.hand(*player).last() {
                Some(&card) => Move::Discard { card },
                None => Move::Timeout,
            },
            Phase::Return { player } => Move::Return { card: self.hand(*player).last().copied() },
            Phase::CleanUp => Move::Dead { nodes: Vec::new(), at: Vec::new() },
            Phase::ChooseStart { .. } => Move::Timeout,
            _ if self.rules().range != RangeRule::Dice => Move::Forgo,
            _ => Move::Pass,
        }
    }

    fn draw_chance(&self, rng: &mut crate::Rng) -> Option<Move> {
        self.chance_seat()?;
        if let Some(card) = self.random_draw(rng) {
            return Some(Move::Draw { card: Some(card) });
        }
        Some(Move::Dice { dice: [1 + rng.below(6) as u8, 1 + rng.below(6) as u8] })
    }

    fn seat_may_send(input: &Move) -> bool {
        !matches!(input, Move::Timeout | Move::CleanupTimeout | Move::Dice { .. } | Move::Draw { .. })
    }

    fn hidden_information(&self) -> bool {
        self.rules().cards
    }

    /// Draws and returned cards are shown to their seat only; answers in a reaction window
    /// are shown to their seat only (the outcome is an event for all).
    fn redact(&self, seat: Player, input: &Move, viewer: Viewer) -> Option<Move> {
        if viewer == Viewer::Seat(seat) {
            return None;
        }
        match input {
            Move::Draw { card: Some(_) } => Some(Move::Draw { card: None }),
            Move::Return { card: Some(_) } => Some(Move::Return { card: None }),
            Move::React { answer: Some(_) } => Some(Move::React { answer: None }),
            _ => None,
        }
    }

    /// Surrender offers are answered quickly under a time control (declined on time-out).
    fn decision_seconds(&self) -> Option<f64> {
        matches!(self.phase(), Phase::Offer { .. }).then(|| f64::from(self.rules().answer_seconds))
    }

    /// A reaction window lasts `reaction_seconds` under any clock, whoever has answered, so
    /// that its length reveals no hand; a Reject ends it at once (`docs/rules/tribal.md`,
    /// "Reaction windows").
    fn window_seconds(&self) -> Option<f64> {
        let Phase::Reaction { answers, .. } = self.phase() else { return None };
        let rejected = answers.iter().any(|a| a.is_some_and(|a| a != Reaction::Decline));
        Some(if rejected { 0.0 } else { f64::from(self.rules().reaction_seconds) })
    }

    /// A decline in a reaction window is what its end answers anyway: a computer seat does
    /// not send it, so that the window runs its full length.
    fn left_to_the_window(&self, input: &Move) -> bool {
        matches!(self.phase(), Phase::Reaction { .. })
            && matches!(input, Move::React { answer: Some(Answer::Decline) })
    }

    /// During a reaction window every other player is shown as still answering, so that
    /// nobody learns who was quick (`docs/rules/spec/tribal.md`, rule 41).
    fn public_seats(&self) -> Vec<Player> {
        match self.phase() {
            Phase::Reaction { mover, .. } => (0..self.player_count() as u8)
                .map(Player)
                .filter(|q| q != mover && !self.is_gone(*q))
                .collect(),
            _ => self.turn().seats,
        }
    }

    fn input_count(&self) -> usize {
        self.log().len()
    }

    fn input(&self, i: usize) -> Option<(Player, Move)> {
        self.log().get(i).map(|(p, input)| (*p, Move::of(self.map(), input)))
    }

    fn events(&self) -> &[Event] {
        TribalGame::events(self)
    }

    fn view(&self, viewer: Viewer, names: &[PlayerInfo], history: bool) -> TribalState {
        TribalState::build(self, viewer, names, history)
    }
}
