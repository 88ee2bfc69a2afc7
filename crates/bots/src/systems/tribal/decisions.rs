//! Tribal Go's decisions outside the search: the card a full hand gives up, the answer in a
//! reaction window, and the second thoughts on a search's pass when the seat is behind.

use gobeyond_maps::NodeId;
use gobeyond_rules::{
    Game, MAX_PLAYERS, Player, Rng, TribalGame,
    tribal::{Action, Card, Event, Input, Phase, RangeRule, Reaction},
};

use super::priors::{in_own_territory, material};
use crate::search::searchable::Searchable;

/// The card a hand over the limit gives up: the least useful (No Move first, the Rejects
/// last), discarded or returned as the phase asks.
pub(super) fn card_to_drop(game: &TribalGame, p: Player) -> Action {
    let worth = |c: Card| match c {
        Card::NoMove => 0,
        c if c.trade().is_some() => 1,
        Card::MoveTwo | Card::MoveThree => 2,
        Card::PairPlace | Card::MoveAnywhere => 3,
        Card::ExtraMove | Card::ReplaceAny => 4,
        Card::Points3 | Card::Points5 => 5,
        _ => 6,
    };
    let card = game.hand(p).iter().copied().min_by_key(|&c| worth(c)).unwrap_or(Card::NoMove);
    if matches!(game.phase(), Phase::Return { .. }) { Action::Return(card) } else { Action::Discard(card) }
}

/// Whether to reject the Play in the window: when it took stones of `p`'s team or banked
/// points. Decided at once from what everyone sees, so the answer's speed reveals no hand.
fn reject_answer(game: &TribalGame, p: Player) -> Action {
    let Phase::Reaction { mover, .. } = game.phase() else { return Action::React(Reaction::Decline) };
    let hand = game.hand(p);
    let card = if hand.contains(&Card::RejectAndReplace) {
        Reaction::RejectAndReplace
    } else if hand.contains(&Card::Reject) {
        Reaction::Reject
    } else {
        return Action::React(Reaction::Decline);
    };
    let team = game.team(p);
    // The events of this Play: everything after the mover's turn began.
    let hurt = game
        .events()
        .iter()
        .rev()
        .take_while(|e| {
            !matches!(e, Event::NotRejected { .. } | Event::Rejected { .. } | Event::Passed { .. })
        })
        .any(|e| match e {
            Event::Captured { player: Some(by), owners, .. } => {
                by == mover && owners.iter().any(|o| game.team(*o) == team)
            }
            Event::CardPlayed { player, card } => player == mover && card.points().is_some(),
            Event::Traded { with, .. } => *with == p,
            _ => false,
        });
    Action::React(if hurt { card } else { Reaction::Decline })
}

/// Whether `seat` would win alone if everyone passed from here: the game would end with the
/// board as it stands (Clean-Up naming nothing).
pub(super) fn wins_if_everyone_passes(game: &TribalGame, seat: Player) -> bool {
    let mut g = game.without_events();
    let mut rng = Rng::new(1);
    for _ in 0..64 * MAX_PLAYERS {
        if let Some(o) = g.outcome() {
            return o.places[seat.index()] == 1 && o.places.iter().filter(|&&q| q == 1).count() == 1;
        }
        if g.sample_chance(&mut rng) {
            continue;
        }
        if *g.phase() == Phase::CleanUp {
            for p in g.acting() {
                let _ = g.apply(p, &Input::Dead(Vec::new()));
            }
            continue;
        }
        let Some(p) = g.to_move() else { return false };
        let action = match g.phase() {
            Phase::Turn { rolled: None } => Action::Pass,
            Phase::Reaction { .. } => Action::React(Reaction::Decline),
            Phase::Discard { .. } | Phase::Return { .. } => card_to_drop(&g, p),
            Phase::Offer { .. } => Action::Decline,
            _ => return false,
        };
        if g.play(action).is_err() {
            return false;
        }
    }
    false
}

/// The placement that leaves `seat` best off right away (territory and prisoners), outside
/// its own territory, if any is legal now.
fn best_placement(game: &TribalGame, seat: Player) -> Option<Action> {
    let mut legal = Vec::new();
    game.legal_actions(&mut legal);
    legal
        .into_iter()
        .filter(|a| matches!(a, Action::Place(v) if !in_own_territory(game, seat, *v, 40)))
        .filter_map(|a| {
            let mut g = game.without_events();
            g.play(a).ok()?;
            Some((material(&g, seat), a))
        })
        .max_by(|x, y| x.0.total_cmp(&y.0))
        .map(|(_, a)| a)
}

/// The search's pass or forgo, second-guessed: the rules end the game after a round of passes,
/// and the playouts (where nobody passes before the board is full) cannot see that others will
/// pass. A seat that would not win if the game ended now plays on while it has a placement:
/// it rolls instead of passing, and places (the best placement right away) instead of forgoing.
/// The game still ends: every such turn places a stone, and positional superko forbids
/// repeating a position.
pub(super) fn play_on_when_behind(game: &TribalGame, seat: Player, action: Action) -> Action {
    let behind = || !wins_if_everyone_passes(game, seat);
    match (game.phase(), action) {
        (Phase::Turn { rolled: None }, Action::Pass) if game.rules().range == RangeRule::Dice => {
            let open = game.reachable(seat, Some(6)).iter().enumerate().any(|(v, &r)| {
                let v = v as NodeId;
                r && game.stone_at(v).is_none()
                    && !in_own_territory(game, seat, v, 40)
                    && game.placeable(seat, v, Some(6))
            });
            if open && behind() { Action::Roll } else { action }
        }
        (Phase::Turn { .. }, Action::Pass | Action::Forgo) if behind() => {
            best_placement(game, seat).unwrap_or(action)
        }
        _ => action,
    }
}

/// A decision that needs no search, answered at once from public facts (surrender offers,
/// reaction windows, discards: the same answers at every level, so the answer's speed reveals
/// no hand).
pub(super) fn quick_answer(game: &TribalGame, seat: Player) -> Option<Action> {
    match game.phase() {
        // A vassal's territory counts for its occupier: always worth accepting.
        Phase::Offer { to, .. } if *to == seat => Some(Action::Accept),
        Phase::Reaction { .. } => Some(reject_answer(game, seat)),
        Phase::Discard { .. } | Phase::Return { .. } => Some(card_to_drop(game, seat)),
        _ => None,
    }
}
