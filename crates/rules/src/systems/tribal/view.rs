//! The state of a Tribal Go game as JSON: what `gobeyond replay` prints and what a UI draws.

use serde::Serialize;

use super::{Card, Event, Phase, TribalGame};
use crate::{
    Game, Outcome, Player, Viewer,
    record::{MapSummary, PlayerInfo, RulesSpec},
};

#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct TribalState {
    pub map: MapSummary,
    pub rules: RulesSpec,
    /// `roll_off`, `choose_start`, `handicap`, `playing`, `card` (a card's placements),
    /// `reaction` (other players may reject the last move), `replace`, `discard`,
    /// `surrender_offer`, `clean_up`, `finished`.
    pub phase: &'static str,
    /// The seat that must act (the player to move, or the one answering an offer). In a
    /// reaction window: the viewer while they hold a Reject card and have not answered (who
    /// else may answer is not shown).
    pub to_move: Option<u8>,
    /// The seat whose dice the server rolls next.
    pub rolling: Option<u8>,
    /// This turn's roll, once made: the two dice and the range.
    pub dice: Option<[u8; 2]>,
    pub range: Option<u32>,
    /// Per node, whether the player to move may reach it with the range in force (their start
    /// point and stones within range; Extra Move's second stone: only where the card allows
    /// it); empty when nobody is placing.
    pub reachable: Vec<bool>,
    pub consecutive_passes: u32,
    pub players: Vec<TribalPlayer>,
    /// Per node: the stone's player (`null` when empty).
    pub board: Vec<Option<u8>>,
    /// The start points still to choose from (while choosing).
    pub start_choices: Vec<u32>,
    /// A surrender offer waiting for its answer: from, to.
    pub offer: Option<[u8; 2]>,
    /// The handicap stones still to come, by seat, in order.
    pub handicap_left: Vec<u8>,
    /// Clean-Up: players who still have to name their dead stones.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub awaiting_cleanup: Vec<u8>,
    /// Whether the game has cards.
    pub cards: bool,
    /// The viewer's hand (a seat's own view only).
    pub hand: Option<Vec<Card>>,
    /// The cards of the hand the viewer may play now.
    pub playable: Vec<Card>,
    /// Cards left to draw, and the face-up discard pile.
    pub to_draw: u32,
    pub discards: Vec<Card>,
    /// The card being played: its placements so far and how many remain.
    pub card_play: Option<TribalCardPlay>,
    /// A reaction window: whose move may be rejected, and what the viewer may answer.
    pub reaction: Option<TribalReaction>,
    /// Reject and Replace: the nodes the rejecter may take.
    pub replace: Vec<u32>,
    pub outcome: Option<Outcome>,
    pub events: Vec<Event>,
}

#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct TribalCardPlay {
    pub card: Card,
    pub placed: Vec<u32>,
    /// Pair Place: the first node, waiting for its neighbour.
    pub pair: Option<u32>,
    pub steps_left: u32,
}

#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct TribalReaction {
    pub mover: u8,
    /// Where the move put stones.
    pub placed: Vec<u32>,
    /// The viewer holds a Reject card and has not answered yet: only they are prompted (the
    /// window runs its full length for everyone else).
    pub asked: bool,
    pub can_reject: bool,
    pub can_replace: bool,
}

#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct TribalPlayer {
    pub player: u8,
    pub name: String,
    pub color: &'static str,
    /// The node of the start point, once chosen.
    pub start: Option<u32>,
    /// The faction occupying this one.
    pub occupier: Option<u8>,
    /// Prisoners held, per colour (seat): `held[c]` stones of seat `c`.
    pub held: Vec<u32>,
    /// Stones left in supply, when limited.
    pub supply: Option<u32>,
    /// Ran out of time: passes on every turn.
    pub gone: bool,
    /// The roll-off's totals.
    pub rolls: Vec<u8>,
    pub stones: Vec<String>,
    /// Cards in hand (their faces are the holder's secret).
    pub cards: u32,
    /// Points banked by points cards.
    pub banked: i64,
}

/// In a reaction window, whether `p` is prompted: asked and holding a card that answers.
fn asked(game: &TribalGame, p: Player) -> bool {
    game.acting().contains(&p) && game.hand(p).iter().any(|c| c.is_reject())
}

impl TribalState {
    pub fn build(game: &TribalGame, viewer: Viewer, names: &[PlayerInfo], history: bool) -> TribalState {
        let map = game.map();
        let n = game.player_count();
        let me = match viewer {
            Viewer::Seat(p) if p.index() < n => Some(p),
            _ => None,
        };
        let placing = matches!(game.phase(), Phase::Handicap { .. } | Phase::Turn { .. } | Phase::Card(_))
            && game.chance_seat().is_none();
        let mover = game.acting().first().copied();
        let reachable = match mover {
            Some(p) if placing => reachable_view(game, p),
            _ => Vec::new(),
        };
        let rolled = match game.phase() {
            Phase::Turn { rolled: Some(r) } => Some(*r),
            _ => None,
        };
        TribalState {
            map: MapSummary { name: map.name().into(), spec: map.spec().into(), nodes: map.len() },
            rules: RulesSpec::of::<TribalGame>(game.rules()),
            phase: phase_name(game.phase()),
            to_move: match game.phase() {
                Phase::CleanUp | Phase::Finished => None,
                Phase::Reaction { .. } => me.filter(|&p| asked(game, p)).map(|p| p.0),
                _ => mover.map(|p| p.0),
            },
            rolling: game.chance_seat().map(|p| p.0),
            dice: rolled.map(|r| [r.dice.0, r.dice.1]),
            range: if placing { game.current_range() } else { None },
            reachable,
            consecutive_passes: game.passes(),
            players: (0..n as u8).map(|p| player_view(game, Player(p), names)).collect(),
            board: map.nodes().map(|v| game.stone_at(v).map(|p| p.0)).collect(),
            start_choices: match game.phase() {
                Phase::ChooseStart { .. } => game
                    .start_candidates()
                    .iter()
                    .copied()
                    .filter(|v| (0..n as u8).all(|p| game.start_point(Player(p)) != Some(*v)))
                    .collect(),
                _ => Vec::new(),
            },
            offer: match game.phase() {
                Phase::Offer { from, to } => Some([from.0, to.0]),
                _ => None,
            },
            handicap_left: game.handicap_left().iter().map(|p| p.0).collect(),
            awaiting_cleanup: if *game.phase() == Phase::CleanUp {
                game.acting().iter().map(|p| p.0).collect()
            } else {
                Vec::new()
            },
            cards: game.rules().cards,
            hand: me.map(|p| game.hand(p).to_vec()),
            playable: me.filter(|p| mover == Some(*p)).map(|p| game.playable_cards(p)).unwrap_or_default(),
            to_draw: game.deck().to_draw(),
            discards: Card::ALL
                .iter()
                .flat_map(|&c| std::iter::repeat_n(c, usize::from(game.deck().discards()[c.index()])))
                .collect(),
            card_play: card_play_view(game),
            reaction: reaction_view(game, me),
            replace: match game.phase() {
                Phase::Replace { nodes, .. } => nodes.clone(),
                _ => Vec::new(),
            },
            outcome: game.outcome().cloned(),
            events: if history { game.events().to_vec() } else { Vec::new() },
        }
    }
}

/// The phase as the web client names it.
fn phase_name(phase: &Phase) -> &'static str {
    match phase {
        Phase::RollOff { .. } => "roll_off",
        Phase::ChooseStart { .. } => "choose_start",
        Phase::Handicap { .. } => "handicap",
        Phase::Turn { .. } => "playing",
        Phase::Offer { .. } => "surrender_offer",
        Phase::Card(_) => "card",
        Phase::Reaction { .. } => "reaction",
        Phase::Replace { .. } => "replace",
        Phase::Discard { .. } => "discard",
        Phase::Return { .. } => "return",
        Phase::CleanUp => "clean_up",
        Phase::Finished => "finished",
    }
}

/// The points `mover` may take now (none before a roll, under the dice rule).
fn reachable_view(game: &TribalGame, mover: Player) -> Vec<bool> {
    if matches!(game.phase(), Phase::Turn { rolled: None }) && game.rules().range == super::RangeRule::Dice {
        return Vec::new();
    }
    game.card_targets(mover, game.reachable(mover, game.current_range()))
}

/// A seat as everyone sees it: its stones, prisoners, supply and how many cards it holds.
fn player_view(game: &TribalGame, p: Player, names: &[PlayerInfo]) -> TribalPlayer {
    let map = game.map();
    TribalPlayer {
        player: p.0,
        name: names.get(p.index()).map(|i| i.name.clone()).unwrap_or_default(),
        color: p.color_name(game.player_count()),
        start: game.start_point(p),
        occupier: game.occupier(p).map(|o| o.0),
        held: game.prisoners(p).to_vec(),
        supply: game.supply(p),
        gone: game.is_gone(p),
        rolls: game.rolloff(p).to_vec(),
        cards: game.hand(p).len() as u32,
        banked: game.banked(p),
        stones: map
            .nodes()
            .filter(|&v| game.stone_at(v) == Some(p))
            .map(|v| map.label(v).to_string())
            .collect(),
    }
}

/// The card being played, for everyone to see.
fn card_play_view(game: &TribalGame) -> Option<TribalCardPlay> {
    match game.phase() {
        Phase::Card(play) => Some(TribalCardPlay {
            card: play.card,
            placed: play.placed.clone(),
            pair: play.pair,
            steps_left: (play.steps().saturating_sub(play.placed.len())) as u32,
        }),
        _ => None,
    }
}

/// A reaction window as `me` sees it: whether they are asked and what they could answer.
fn reaction_view(game: &TribalGame, me: Option<Player>) -> Option<TribalReaction> {
    match game.phase() {
        Phase::Reaction { mover, placed, .. } => Some(TribalReaction {
            mover: mover.0,
            placed: placed.clone(),
            asked: me.is_some_and(|p| asked(game, p)),
            can_reject: me.is_some_and(|p| game.hand(p).contains(&Card::Reject)),
            can_replace: me.is_some_and(|p| game.hand(p).contains(&Card::RejectAndReplace)),
        }),
        _ => None,
    }
}
