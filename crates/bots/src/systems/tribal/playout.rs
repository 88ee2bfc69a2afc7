//! Tribal Go's playouts and random player: placements within the rolled range, never in a
//! one-point eye of their own team, taking a group the last stone left in atari when the
//! capture is in range.

use gobeyond_maps::NodeId;
use gobeyond_rules::{
    Game, Player, Rng, TribalGame,
    tribal::{Action, Input, Phase, RangeRule, Reaction},
};

use super::decisions::card_to_drop;
use crate::search::searchable::Searchable;

/// The playouts' one tactic, as in Go's light playouts: take a group that the last stone left
/// in atari (the last stone's own group included), when the capture is in range.
fn play_capture(game: &mut TribalGame, p: Player, last: NodeId) -> Option<NodeId> {
    let mut takes = Vec::new();
    game.atari_liberties_around(last, game.team(p), &mut takes);
    takes.into_iter().find(|&l| place(game, p, l))
}

/// `p`, to move, places on `v` if the rules let them (else nothing changes).
fn place(game: &mut TribalGame, p: Player, v: NodeId) -> bool {
    game.apply(p, &Input::Action(Action::Place(v))).is_ok()
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
    match game.empty_nodes() {
        // The board counts the range: asked node by node.
        Some(empty) if range == game.current_range() => {
            empty.iter().copied().filter(|&v| game.in_current_range(p, v) && !own_eye(game, p, v)).collect()
        }
        _ => {
            let reach = game.reachable(p, range);
            let fits = |&v: &NodeId| reach[v as usize] && game.stone_at(v).is_none() && !own_eye(game, p, v);
            game.map().nodes().filter(fits).collect()
        }
    }
}

/// Playouts place straight away: a candidate drawn at random that the rules accept (a refused
/// placement changes nothing), without a trial copy. Drawn from the empty nodes first, the
/// range asked before the rules' other checks: cheaper than listing every candidate on each
/// move, and the same uniform choice among the placements that stand, since a refused draw is
/// drawn again. The full list only when those miss.
fn play_random_placement(game: &mut TribalGame, p: Player, rng: &mut Rng) -> Option<NodeId> {
    let n = game.map().len() as u32;
    for _ in 0..24 {
        let v = match game.empty_nodes() {
            Some([]) => return None,
            Some(empty) => empty[rng.below(empty.len() as u32) as usize],
            None => rng.below(n),
        };
        // Out of range is the rules' most frequent refusal: asked first, without a Play.
        if game.stone_at(v).is_none()
            && game.in_current_range(p, v)
            && !own_eye(game, p, v)
            && place(game, p, v)
        {
            return Some(v);
        }
    }
    let mut candidates = candidates(game, p, game.current_range());
    while !candidates.is_empty() {
        let v = candidates.swap_remove(rng.below(candidates.len() as u32) as usize);
        if place(game, p, v) {
            return Some(v);
        }
    }
    None
}

/// A random player: a start point at random, Play while some stone could still go somewhere
/// useful, a random placement in range, else forgo.
pub(super) fn random_action(game: &mut TribalGame, p: Player, rng: &mut Rng) -> Action {
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

/// What a playout does next.
enum Step {
    /// Stop the playout here.
    Stop,
    /// A stone was placed (on the game already).
    Placed(NodeId),
    /// Every seat still to answer a Play declined (on the game already).
    Answered,
    Play(Action),
}

/// One playout step for `p`: playouts play no cards and reject nothing (the tree decides
/// those), roll while not `late`, and place at random, a capture first.
fn step(g: &mut TribalGame, p: Player, late: bool, last: Option<NodeId>, rng: &mut Rng) -> Step {
    Step::Play(match g.phase() {
        Phase::RollOff { .. } => return Step::Stop,
        Phase::ChooseStart { .. } => {
            let mut legal = Vec::new();
            g.legal_actions(&mut legal);
            legal.get(rng.below(legal.len().max(1) as u32) as usize).copied().unwrap_or(Action::Timeout)
        }
        Phase::Offer { .. } => Action::Decline,
        Phase::Reaction { .. } => {
            g.decline_all_answers();
            return Step::Answered;
        }
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
        _ => match last.and_then(|l| play_capture(g, p, l)).or_else(|| play_random_placement(g, p, rng)) {
            Some(v) => return Step::Placed(v),
            None if matches!(g.phase(), Phase::Turn { rolled: None }) => Action::Pass,
            None => Action::Forgo,
        },
    })
}

/// Plays `g` to its end (or a turn limit) and leaves each node's final owner in `owner`.
pub(super) fn play_to_end(
    g: &mut TribalGame,
    owner: &mut [u8],
    rng: &mut Rng,
    played: &mut Vec<(Player, NodeId)>,
) {
    // Counted in turns, not inputs: a casual turn is a roll, the dice, a stone and every
    // other player's answer, and a budget in inputs would stop those playouts half-way.
    let n = g.map().len();
    let mut turns = 0;
    let mut last = None;
    let (players, mut idle) = (g.player_count(), 0);
    // Draws come from the board's empty nodes from the first move on; the superko history
    // grows by a position a stone (about two a node in a four-player playout), room made once.
    g.refresh_board();
    g.reserve_positions(2 * n);
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
        // Out of time, or a whole round found nowhere to place (the board is full of eyes and
        // suicides; with dice, rolling on would only repeat it): everyone passes from here.
        let late = turns > 2 * n || idle >= players;
        let action = match step(g, p, late, last, rng) {
            Step::Stop => break,
            Step::Placed(v) => {
                played.push((p, v));
                last = Some(v);
                idle = 0;
                continue;
            }
            Step::Answered => continue,
            Step::Play(action) => {
                if matches!(action, Action::Forgo | Action::Pass) {
                    idle += 1;
                }
                action
            }
        };
        if g.play(action).is_err() {
            let fallback =
                if matches!(g.phase(), Phase::Turn { rolled: None }) { Action::Pass } else { Action::Forgo };
            if g.play(fallback).is_err() {
                break;
            }
        }
    }
    for (v, o) in g.owners().into_iter().enumerate() {
        owner[v] = o.map_or(0, Player::stone);
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use std::sync::Arc;

    use gobeyond_rules::tribal::{Event, TribalRules};

    use super::*;

    /// Once a whole round of seats found nowhere to place, a playout ends by passes: with dice
    /// it does not roll on to the turn limit, forgoing turn after turn on a full board.
    #[test]
    fn a_playout_ends_by_passes_once_a_round_found_nowhere_to_place() {
        let map = Arc::new(gobeyond_maps::generate("square:9").unwrap());
        for seed in 0..4 {
            // Events recorded: the playout's own inputs are read back from them.
            let mut g = TribalGame::new(map.clone(), 3, TribalRules::default(), None).unwrap();
            let mut owner = vec![0; map.len()];
            play_to_end(&mut g, &mut owner, &mut Rng::new(seed), &mut Vec::new());
            assert!(g.outcome().is_some(), "seed {seed}: the playout ended in {:?}", g.phase());
            let events = g.events();
            let last_placed = events.iter().rposition(|e| matches!(e, Event::Placed { .. })).unwrap();
            let forgone = events[last_placed..].iter().filter(|e| matches!(e, Event::Forgone { .. })).count();
            assert!(forgone <= 3, "seed {seed}: {forgone} turns forgone after the last stone");
        }
    }

    /// A placement in a playout is a uniform draw among the placements the rules accept outside
    /// the player's own eyes: over many draws from one position, every such node comes up about
    /// equally often and no other node does.
    #[test]
    fn a_random_placement_is_a_uniform_draw_among_the_placements_that_stand() {
        // A short range, so that draws out of range are refused too.
        let map = Arc::new(gobeyond_maps::generate("square:13").unwrap());
        let rules = TribalRules { fixed_range: 2, ..TribalRules::pro() };
        let mut g = TribalGame::new(map.clone(), 3, rules, None).unwrap().without_events();
        let mut rng = Rng::new(5);
        let mut played = Vec::new();
        // Into the middle game: start points, then some random placements.
        while played.len() < 20 {
            let Some(p) = g.to_move() else { break };
            match step(&mut g, p, false, None, &mut rng) {
                Step::Placed(v) => played.push(v),
                Step::Play(a) => g.play(a).unwrap(),
                Step::Answered => {}
                Step::Stop => break,
            }
        }
        let p = g.to_move().unwrap();
        let expected: Vec<NodeId> = map
            .nodes()
            .filter(|&v| {
                g.stone_at(v).is_none() && !own_eye(&g, p, v) && g.placeable(p, v, g.current_range())
            })
            .collect();
        let reach = g.reachable(p, g.current_range());
        assert!(expected.len() >= 10 && map.nodes().any(|v| !reach[v as usize]), "{expected:?}");
        let draws = 400 * expected.len();
        let mut count = vec![0u32; map.len()];
        for _ in 0..draws {
            let v = play_random_placement(&mut g.clone(), p, &mut rng).unwrap();
            count[v as usize] += 1;
        }
        for v in map.nodes() {
            if expected.contains(&v) {
                assert!(
                    (300..=500).contains(&count[v as usize]),
                    "node {v}: {} of {draws}",
                    count[v as usize]
                );
            } else {
                assert_eq!(count[v as usize], 0, "node {v} is not a placement that stands");
            }
        }
    }
}
