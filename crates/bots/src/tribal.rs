//! Tribal Go for the search: dice sampled as the server rolls them, random playouts that place
//! within the rolled range (never in a one-point eye of their own team), and a computer seat
//! that accepts surrenders and names no dead stones (the playouts' counting already removes
//! groups without liberties).

use std::time::Duration;

use gobeyond_maps::NodeId;
use gobeyond_rules::{
    Game, MAX_PLAYERS, Player, Rng, RuleSystem, TribalGame,
    tribal::{Action, Card, Event, Input, Move, Phase, RangeRule, Reaction},
};

use crate::{
    Level, Searchable,
    computer::{Computer, search},
    policy::Policy,
    searchable::{Prior, Rewards, Workspace},
};

/// Share of a reward that is winning alone, the rest being the place. With place rewards
/// only, a search valued second place half a win and a three-way tie (every score 0 after
/// three early passes: the rules end the game there) as much as playing on, and against
/// greedy players, who pass half the time, it drew two games in three.
const WIN_WEIGHT: f32 = 0.6;

/// Rewards from the places: first 1, last 0; players sharing a place share the positions
/// they span (three tied for first all get ½, not a win each). A sole first place adds
/// [`WIN_WEIGHT`]; a shared one adds nothing, so a draw is worth less than its share of a win.
fn place_rewards(game: &TribalGame) -> Rewards {
    let mut r = [0.0; MAX_PLAYERS];
    let Some(o) = game.outcome() else { return r };
    let n = o.places.len();
    if n < 2 {
        return r;
    }
    for (i, &place) in o.places.iter().enumerate() {
        let tied = o.places.iter().filter(|&&q| q == place).count();
        let position = place as f32 + (tied as f32 - 1.0) / 2.0;
        let by_place = 1.0 - (position - 1.0) / (n as f32 - 1.0);
        let win = if place == 1 && tied == 1 { 1.0 } else { 0.0 };
        r[i] = WIN_WEIGHT * win + (1.0 - WIN_WEIGHT) * by_place;
    }
    r
}

/// The only liberty of the team group at `node`, if it has exactly one.
fn sole_liberty(game: &TribalGame, node: NodeId, stones: &mut Vec<NodeId>) -> Option<NodeId> {
    let owner = game.stone_at(node)?;
    let team = game.team(owner);
    stones.clear();
    stones.push(node);
    let mut liberty = None;
    let mut i = 0;
    while i < stones.len() {
        let v = stones[i];
        i += 1;
        for &w in game.map().neighbors(v) {
            match game.stone_at(w) {
                None if liberty.is_none_or(|l| l == w) => liberty = Some(w),
                None => return None,
                Some(q) if game.team(q) == team && !stones.contains(&w) => stones.push(w),
                Some(_) => {}
            }
        }
    }
    liberty
}

/// The playouts' one tactic, as in Go's light playouts: take a group that the last stone left
/// in atari (the last stone's own group included), when the capture is in range.
fn play_capture(game: &mut TribalGame, p: Player, last: NodeId, stones: &mut Vec<NodeId>) -> Option<NodeId> {
    let team = game.team(p);
    let map = game.map().clone();
    for &v in std::iter::once(&last).chain(map.neighbors(last)) {
        if game.stone_at(v).is_none_or(|q| game.team(q) == team) {
            continue;
        }
        if let Some(l) = sole_liberty(game, v, stones)
            && game.play(Action::Place(l)).is_ok()
        {
            return Some(l);
        }
    }
    None
}

/// A one-point eye of `p`'s team: every neighbour is a stone of that team.
fn own_eye(game: &TribalGame, p: Player, node: NodeId) -> bool {
    let team = game.team(p);
    game.map().neighbors(node).iter().all(|&w| game.stone_at(w).is_some_and(|q| game.team(q) == team))
}

/// A random placement for the player to move within its range, if one is legal (tried on a
/// copy, so nothing changes).
fn random_placement(game: &mut TribalGame, p: Player, rng: &mut Rng) -> Option<NodeId> {
    let range = game.current_range();
    let mut candidates = candidates(game, p, range);
    while !candidates.is_empty() {
        let v = candidates.swap_remove(rng.below(candidates.len() as u32) as usize);
        if game.placeable(p, v, range) {
            return Some(v);
        }
    }
    None
}

/// Free nodes in range that are not the player's own one-point eyes.
fn candidates(game: &TribalGame, p: Player, range: Option<u32>) -> Vec<NodeId> {
    let reach = game.reachable(p, range);
    game.map()
        .nodes()
        .filter(|&v| reach[v as usize] && game.stone_at(v).is_none() && !own_eye(game, p, v))
        .collect()
}

/// Playouts place straight away: the first random candidate the rules accept (a refused
/// placement changes nothing), without a trial copy.
fn play_random_placement(game: &mut TribalGame, p: Player, rng: &mut Rng) -> Option<NodeId> {
    // Random nodes first (the rules check the range on their own): cheaper than listing every
    // reachable node on each move. The full list only when those miss.
    let n = game.map().len() as u32;
    for _ in 0..24 {
        let v = rng.below(n);
        if game.stone_at(v).is_none() && !own_eye(game, p, v) && game.play(Action::Place(v)).is_ok() {
            return Some(v);
        }
    }
    let mut candidates = candidates(game, p, game.current_range());
    while !candidates.is_empty() {
        let v = candidates.swap_remove(rng.below(candidates.len() as u32) as usize);
        if game.play(Action::Place(v)).is_ok() {
            return Some(v);
        }
    }
    None
}

/// The liberties of the team group at `node`, counted up to `limit` (a search over the group).
fn liberties_upto(game: &TribalGame, node: NodeId, limit: usize) -> usize {
    let Some(owner) = game.stone_at(node) else { return limit };
    let team = game.team(owner);
    let mut stones = vec![node];
    let mut seen = std::collections::HashSet::from([node]);
    let mut libs = std::collections::HashSet::new();
    let mut i = 0;
    while i < stones.len() && libs.len() < limit {
        let v = stones[i];
        i += 1;
        for &w in game.map().neighbors(v) {
            match game.stone_at(w) {
                None => {
                    libs.insert(w);
                }
                Some(q) if game.team(q) == team && seen.insert(w) => stones.push(w),
                Some(_) => {}
            }
        }
    }
    libs.len()
}

/// Whether `node` lies in an empty region of at most `limit` nodes bordered by `p`'s team
/// alone (and by some stone of it): its territory, where a stone only costs a point under
/// territory counting.
fn in_own_territory(game: &TribalGame, p: Player, node: NodeId, limit: usize) -> bool {
    let team = game.team(p);
    let mut region = vec![node];
    let mut bordered = false;
    let mut i = 0;
    while i < region.len() {
        let v = region[i];
        i += 1;
        for &w in game.map().neighbors(v) {
            match game.stone_at(w) {
                Some(q) if game.team(q) != team => return false,
                Some(_) => bordered = true,
                None if !region.contains(&w) => {
                    if region.len() >= limit {
                        return false;
                    }
                    region.push(w);
                }
                None => {}
            }
        }
    }
    bordered
}

/// How much the mover's territory and prisoners grow at once with a stone on `node`.
fn gain(game: &TribalGame, node: NodeId) -> Option<f64> {
    let p = game.to_move()?;
    let mut g = game.without_events();
    g.play(Action::Place(node)).ok()?;
    Some(g.greedy_value(p) - game.greedy_value(p))
}

/// What the search expects of a placement before playing it out: captures and saving one's
/// own group in atari first, a stone in one's own territory or one that puts itself in atari
/// last, touching one's own stones a little better than a stone alone. (Playouts fill the
/// board, so they cannot see that a stone in one's own territory loses a point.)
fn placement_prior(game: &TribalGame, node: NodeId) -> Prior {
    let Some(p) = game.to_move() else { return Prior { visits: 10.0, value: 0.5 } };
    if in_own_territory(game, p, node, 40) {
        return Prior { visits: 40.0, value: 0.1 };
    }
    let team = game.team(p);
    let mut captures = false;
    let mut saves = false;
    let mut own_neighbour = false;
    let mut empty = 0;
    for &w in game.map().neighbors(node) {
        match game.stone_at(w) {
            None => empty += 1,
            Some(q) if game.team(q) == team => {
                own_neighbour = true;
                saves |= liberties_upto(game, w, 2) == 1;
            }
            Some(_) => captures |= liberties_upto(game, w, 2) == 1,
        }
    }
    if captures {
        Prior { visits: 30.0, value: 0.8 }
    } else if saves && empty >= 2 {
        Prior { visits: 20.0, value: 0.7 }
    } else if empty <= 1 && !captures {
        // At most one liberty of its own (more only through friends): likely a self-atari.
        Prior { visits: 20.0, value: if own_neighbour { 0.45 } else { 0.2 } }
    } else if own_neighbour {
        Prior { visits: 10.0, value: 0.55 }
    } else {
        Prior { visits: 10.0, value: 0.5 }
    }
}

/// The card a hand over the limit gives up: the least useful (No Move first, the Rejects
/// last), discarded or returned as the phase asks.
fn card_to_drop(game: &TribalGame, p: Player) -> Action {
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
fn wins_if_everyone_passes(game: &TribalGame, seat: Player) -> bool {
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
            Some((g.greedy_value(seat), a))
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
fn play_on_when_behind(game: &TribalGame, seat: Player, action: Action) -> Action {
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

/// A random player: a start point at random, Play while some stone could still go somewhere
/// useful, a random placement in range, else forgo.
fn random_action(game: &mut TribalGame, p: Player, rng: &mut Rng) -> Action {
    match game.phase() {
        Phase::Reaction { .. } => Action::React(Reaction::Decline),
        Phase::Discard { .. } | Phase::Return { .. } => card_to_drop(game, p),
        Phase::ChooseStart { .. } | Phase::Offer { .. } | Phase::Card(_) | Phase::Replace { .. } => {
            let mut legal = Vec::new();
            game.legal_actions(&mut legal);
            legal.get(rng.below(legal.len().max(1) as u32) as usize).copied().unwrap_or(Action::Timeout)
        }
        Phase::Turn { rolled: None } if game.rules().range == RangeRule::Dice => {
            // Whatever the dice say, at most 6: is there anything left to place?
            let any = game.reachable(p, Some(6)).iter().enumerate().any(|(v, &r)| {
                let v = v as NodeId;
                r && game.stone_at(v).is_none() && !own_eye(game, p, v) && game.placeable(p, v, Some(6))
            });
            if any { Action::Roll } else { Action::Pass }
        }
        _ => match random_placement(game, p, rng) {
            Some(v) => Action::Place(v),
            None if matches!(game.phase(), Phase::Turn { rolled: None }) => Action::Pass,
            None => Action::Forgo,
        },
    }
}

impl Searchable for TribalGame {
    fn amaf_key(action: Action) -> Option<NodeId> {
        match action {
            Action::Place(n) => Some(n),
            _ => None,
        }
    }

    fn search_copy(&self) -> Self {
        self.without_events()
    }

    fn has_hidden_information(&self) -> bool {
        self.rules().cards
    }

    fn determinize(&self, viewer: Player, rng: &mut Rng) -> Self {
        TribalGame::determinize(self, viewer, rng)
    }

    fn sample_chance(&mut self, rng: &mut Rng) -> bool {
        if self.chance_seat().is_none() {
            return false;
        }
        if let Some(card) = self.random_draw(rng) {
            return self.play(Action::Drawn(card)).is_ok();
        }
        let (a, b) = (1 + rng.below(6) as u8, 1 + rng.below(6) as u8);
        self.play(Action::Dice(a, b)).is_ok()
    }

    fn final_rewards(&self) -> Rewards {
        place_rewards(self)
    }

    fn playout(
        &mut self,
        ws: &mut Workspace,
        rng: &mut Rng,
        _policy: Policy,
        played: &mut Vec<(Player, NodeId)>,
    ) -> Rewards {
        let g = self;
        // Counted in turns, not inputs: a casual turn is a roll, the dice, a stone and every
        // other player's answer, and a budget in inputs would stop those playouts half-way.
        let n = g.map().len();
        let mut turns = 0;
        let mut last = None;
        let mut stones = Vec::new();
        for _ in 0..(10 * (3 * n + 60) + 1000) {
            if g.outcome().is_some() || turns > 3 * n + 60 {
                break;
            }
            if matches!(g.phase(), Phase::Turn { rolled: None }) && g.chance_seat().is_none() {
                turns += 1;
            }
            if g.sample_chance(rng) {
                continue;
            }
            if *g.phase() == Phase::CleanUp {
                for p in g.acting() {
                    let _ = g.apply(p, &Input::Dead(Vec::new()));
                }
                continue;
            }
            let Some(p) = g.to_move() else { break };
            // Out of time: everyone passes from here.
            let late = turns > 2 * n;
            let action = match g.phase() {
                Phase::RollOff { .. } => break,
                Phase::ChooseStart { .. } => {
                    let mut legal = Vec::new();
                    g.legal_actions(&mut legal);
                    legal
                        .get(rng.below(legal.len().max(1) as u32) as usize)
                        .copied()
                        .unwrap_or(Action::Timeout)
                }
                Phase::Offer { .. } => Action::Decline,
                // Playouts play no cards and reject nothing: the tree decides those.
                Phase::Reaction { .. } => Action::React(Reaction::Decline),
                Phase::Card(_) | Phase::Replace { .. } => Action::Forgo,
                Phase::Discard { .. } | Phase::Return { .. } => card_to_drop(g, p),
                Phase::Turn { rolled: None } if g.rules().range == RangeRule::Dice => {
                    if late {
                        Action::Pass
                    } else {
                        Action::Roll
                    }
                }
                Phase::Turn { rolled: None } if late => Action::Pass,
                _ => match last
                    .and_then(|l| play_capture(g, p, l, &mut stones))
                    .or_else(|| play_random_placement(g, p, rng))
                {
                    Some(v) => {
                        played.push((p, v));
                        last = Some(v);
                        continue;
                    }
                    None if matches!(g.phase(), Phase::Turn { rolled: None }) => Action::Pass,
                    None => Action::Forgo,
                },
            };
            if g.play(action).is_err() {
                let fallback = if matches!(g.phase(), Phase::Turn { rolled: None }) {
                    Action::Pass
                } else {
                    Action::Forgo
                };
                if g.play(fallback).is_err() {
                    break;
                }
            }
        }
        for (v, owner) in g.owners().into_iter().enumerate() {
            ws.owner[v] = owner.map_or(0, Player::stone);
        }
        g.final_rewards()
    }

    fn prior(&self, action: Action, _ws: &mut Workspace) -> Prior {
        match action {
            Action::Place(node) => match gain(self, node) {
                // What the count gains at once (territory closed, prisoners taken): the greedy
                // player's whole knowledge, which playouts that fill the board blur.
                Some(g) if g > 0.0 => {
                    let g = g.min(10.0) as f32;
                    Prior { visits: 20.0 + 2.0 * g, value: 0.6 + 0.03 * g }
                }
                _ => placement_prior(self, node),
            },
            // Passing early throws the game away; later it is how a game ends.
            Action::Pass if self.passes() == 0 => Prior { visits: 20.0, value: 0.3 },
            Action::Forgo | Action::Timeout => Prior { visits: 20.0, value: 0.2 },
            Action::Surrender(_) => Prior { visits: 30.0, value: 0.1 },
            // Points are points; the other cards are worth trying.
            Action::PlayCard(c) if c.points().is_some() => Prior { visits: 20.0, value: 0.7 },
            Action::PlayCard(Card::ExtraMove | Card::MoveAnywhere | Card::PairPlace) => {
                Prior { visits: 10.0, value: 0.6 }
            }
            _ => Prior { visits: 10.0, value: 0.5 },
        }
    }

    /// Passing, and where no pass is possible the other ways of doing nothing (after a roll, a
    /// handicap stone, an offer).
    fn is_pass(&self, action: Action) -> bool {
        matches!(action, Action::Pass | Action::Forgo | Action::Decline | Action::React(Reaction::Decline))
    }

    fn review_choice(&self, action: Action) -> Action {
        match self.to_move() {
            Some(seat) => play_on_when_behind(self, seat, action),
            None => action,
        }
    }

    fn quick_answer(&self) -> Option<Action> {
        let seat = self.to_move()?;
        match self.phase() {
            Phase::Offer { to, .. } if *to == seat => Some(Action::Accept),
            Phase::Reaction { .. } => Some(reject_answer(self, seat)),
            Phase::Discard { .. } | Phase::Return { .. } => Some(card_to_drop(self, seat)),
            _ => None,
        }
    }

    fn baseline_random(&self, rng: &mut Rng) -> Option<Action> {
        let p = self.to_move()?;
        Some(random_action(&mut self.without_events(), p, rng))
    }

    /// Territory (of the player's team) plus prisoners held.
    fn greedy_value(&self, player: Player) -> f64 {
        let territory = self.territory()[self.team(player).index()];
        let prisoners: u32 = self.prisoners(player).iter().sum();
        f64::from(territory + prisoners)
    }

    fn action_count(&self) -> usize {
        self.log().len()
    }

    fn action_at(&self, i: usize) -> Option<Action> {
        match self.log().get(i) {
            Some((_, Input::Action(a))) => Some(*a),
            _ => None,
        }
    }
}

impl Computer for TribalGame {
    fn computer_input(&self, seat: Player, level: Level, seed: u64, time: Option<Duration>) -> Option<Move> {
        match self.phase() {
            Phase::CleanUp => return Some(Move::dead(self.map(), &[])),
            // A vassal's territory counts for its occupier: always worth accepting.
            Phase::Offer { to, .. } if *to == seat => return Some(Move::Accept),
            Phase::Reaction { .. } => return Some(Move::action(self.map(), reject_answer(self, seat))),
            Phase::Discard { .. } | Phase::Return { .. } => {
                return Some(Move::action(self.map(), card_to_drop(self, seat)));
            }
            _ => {}
        }
        // The lowest level plays at random (within the rules, never in its own eyes); the
        // others search.
        let action = if level.config(seed, 1).is_none() {
            random_action(&mut self.without_events(), seat, &mut Rng::new(seed))
        } else {
            search(self, level, seed, time)?
        };
        Some(match action {
            Action::Timeout => self.fallback_move(seat),
            a => Move::action(self.map(), a),
        })
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use std::sync::Arc;

    use gobeyond_rules::tribal::TribalRules;

    use super::*;

    #[test]
    fn a_computer_seat_acts_in_every_phase() {
        play_out("square:7", 3, 1);
    }

    #[test]
    fn a_searching_seat_acts_in_every_phase() {
        play_out("square:5", 2, 2);
    }

    /// Reaction windows and discards are answered without a search, as a server seat answers
    /// them; the other decisions are searched.
    #[test]
    fn reactions_are_answered_at_once_as_a_server_seat_would() {
        let map = Arc::new(gobeyond_maps::generate("square:7").unwrap());
        let mut g = TribalGame::new(map, 3, TribalRules::default(), None).unwrap();
        let mut rng = Rng::new(5);
        let config = crate::mcts::SearchConfig { playouts: 30, ..Default::default() };
        let mut searcher: crate::mcts::Searcher<TribalGame> = crate::mcts::Searcher::new(config);
        let (mut quick, mut searched) = (0, 0);
        for _ in 0..400 {
            if g.outcome().is_some() {
                break;
            }
            if g.sample_chance(&mut rng) {
                continue;
            }
            let Some(seat) = g.to_move() else { break };
            let analysis = searcher.search(&g);
            let action = analysis.best.unwrap();
            if matches!(g.phase(), Phase::Reaction { .. } | Phase::Discard { .. }) {
                assert_eq!(analysis.playouts, 0, "{:?}", g.phase());
                let served = g.computer_input(seat, Level::MAX, 1, None).unwrap();
                assert_eq!(Move::action(g.map(), action), served);
                quick += 1;
            } else {
                assert!(analysis.playouts > 0, "{:?} was not searched", g.phase());
                searched += 1;
            }
            g.play(action).unwrap();
        }
        assert!(quick > 5 && searched > 5, "{quick} quick answers, {searched} searches");
    }

    /// A playout reaches the end of the game, casual (where a turn is many inputs: the roll,
    /// the dice, the stone, every answer) as much as Pro, having filled the board.
    #[test]
    fn playouts_finish_the_game() {
        let map = Arc::new(gobeyond_maps::generate("square:13").unwrap());
        for rules in [TribalRules::default(), TribalRules::pro()] {
            let g = TribalGame::new(map.clone(), 4, rules, None).unwrap();
            let tables = Arc::new(gobeyond_rules::playout::PlayoutTables::new(&map));
            let mut ws = Workspace::new(&map, tables);
            let mut played = Vec::new();
            let mut c = g.without_events();
            let rewards = c.playout(&mut ws, &mut Rng::new(1), Policy::Light, &mut played);
            assert!(c.outcome().is_some(), "{:?}: the playout ended in {:?}", c.rules().range, c.phase());
            assert!(played.len() > map.len(), "{:?}: only {} stones", c.rules().range, played.len());
            assert!(rewards.iter().sum::<f32>() > 0.0);
        }
    }

    /// A seat plays on rather than pass while the game, ended now, would not be its win alone;
    /// a seat that would win passes as the search chose.
    #[test]
    fn a_seat_behind_plays_on_and_a_seat_ahead_may_pass() {
        let map = Arc::new(gobeyond_maps::generate("square:5").unwrap());
        let rules = TribalRules { range: RangeRule::Unlimited, cards: false, ..TribalRules::default() };
        let mut g = TribalGame::new(map, 2, rules, None).unwrap();
        while let Phase::ChooseStart { .. } = g.phase() {
            let seat = g.acting()[0];
            g.apply(seat, &Input::Action(Action::Timeout)).unwrap();
        }
        let (b, w) = (Player(0), Player(1));
        let at = |g: &TribalGame, l: &str| g.map().node_by_label(l).unwrap();
        // Nobody has anything: a tie, which is no win.
        assert!(!wins_if_everyone_passes(&g, b) && !wins_if_everyone_passes(&g, w));
        assert!(matches!(play_on_when_behind(&g, b, Action::Pass), Action::Place(_)));
        // Black walls off column A; White leaves its wall open at D5: Black's 5 points to 0.
        for (seat, what) in [
            (b, "B1"),
            (w, "D1"),
            (b, "B2"),
            (w, "D2"),
            (b, "B3"),
            (w, "D3"),
            (b, "B4"),
            (w, "D4"),
            (b, "B5"),
        ] {
            let v = at(&g, what);
            g.apply(seat, &Input::Action(Action::Place(v))).unwrap();
        }
        g.apply(w, &Input::Action(Action::Forgo)).unwrap();
        assert!(wins_if_everyone_passes(&g, b));
        assert!(!wins_if_everyone_passes(&g, w));
        assert_eq!(play_on_when_behind(&g, b, Action::Pass), Action::Pass);
        g.apply(b, &Input::Action(Action::Pass)).unwrap();
        // White is behind: neither a pass nor a forgo, and never a stone in Black's column A
        // or in its own territory.
        for choice in [Action::Pass, Action::Forgo] {
            let Action::Place(v) = play_on_when_behind(&g, w, choice) else { panic!("{choice:?} kept") };
            assert_ne!(g.map().label(v).chars().next(), Some('A'), "{}", g.map().label(v));
        }
        // Nothing was played by asking.
        assert_eq!(g.passes(), 1);
    }

    fn play_out(spec: &str, players: usize, level: u8) {
        let map = Arc::new(gobeyond_maps::generate(spec).unwrap());
        let mut g = TribalGame::new(map, players, TribalRules::default(), None).unwrap();
        let mut rng = Rng::new(3);
        let level = Level::new(level).unwrap();
        for step in 0..5000 {
            if g.outcome().is_some() {
                break;
            }
            if g.sample_chance(&mut rng) {
                continue;
            }
            let seat = g.acting()[0];
            let m = g
                .computer_input(seat, level, step, None)
                .unwrap_or_else(|| panic!("no input in {:?}", g.phase()));
            assert!(TribalGame::seat_may_send(&m), "{m:?} in {:?}", g.phase());
            RuleSystem::submit(&mut g, seat, &m).unwrap_or_else(|e| panic!("{m:?}: {e}"));
        }
        assert!(g.outcome().is_some(), "bots finish a game");
        let placed =
            g.events().iter().filter(|e| matches!(e, gobeyond_rules::tribal::Event::Placed { .. })).count();
        assert!(placed >= 6, "{spec}: {placed} stones");
    }
}
