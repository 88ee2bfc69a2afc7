//! Playouts of The Way of Go and BeSiege: whole turns at random, with a taste for captures and
//! for drops that threaten or take an enemy's liberty.

use gobeyond_maps::NodeId;
use gobeyond_rules::{
    Game, Rng,
    way_of_go::{Action, Colour, Phase, Variant, WayGame},
};

use super::tactics::{threatens, touches_enemy};

/// A random legal drop, tried on random nodes first and then on the full list.
fn random_drop<V: Variant>(game: &WayGame<V>, rng: &mut Rng) -> Option<NodeId> {
    let n = game.map().len() as u32;
    for _ in 0..16 {
        let v = rng.below(n);
        if game.may_drop(v).is_ok() {
            return Some(v);
        }
    }
    let mut all = Vec::new();
    game.drops(&mut all);
    (!all.is_empty()).then(|| all[rng.below(all.len() as u32) as usize])
}

/// A move after a drop, uniform over the mover's moves that capture nothing and do not start
/// on the dropped stone — the same choice as drawing from their list, by drawing a stack, a
/// count and a direction until they make such a move (`docs/bots.md`, "The Way of Go and
/// BeSiege"); `None` after a few misses (then the list decides: there may be no such move).
fn sampled_quiet_move<V: Variant>(game: &WayGame<V>, rng: &mut Rng, dropped: NodeId) -> Option<Action> {
    let (board, config) = (game.board(), game.config());
    let colour = game.colour_of(game.to_move()?);
    let n = game.map().len() as u32;
    let tallest = if config.stacks { board.tallest() } else { 1 };
    let directions = board.directions();
    if n == 0 || tallest == 0 || directions == 0 {
        return None;
    }
    for _ in 0..64 {
        let from = rng.below(n);
        let count = 1 + rng.below(tallest as u32) as u8;
        let dir = rng.below(directions as u32) as u8;
        if from == dropped || board.colour(from) != Some(colour) || count > board.height(from) {
            continue;
        }
        let Some(step) = board.step_along(from, count, dir, board.range(from, count)) else { continue };
        match board.landing(colour, &step, config.stacks, config.push) {
            Some(l) if !l.captures() => return Some(Action::Move { from, count, dir, to: step.to }),
            _ => {}
        }
    }
    None
}

/// One playout action for the player to move.
pub(super) fn playout_action<V: Variant>(
    game: &WayGame<V>,
    rng: &mut Rng,
    scratch: &mut Vec<Action>,
) -> Option<Action> {
    let seat = game.to_move()?;
    let colour = game.colour_of(seat);
    Some(match game.phase() {
        Phase::Over => return None,
        Phase::Pie { black, white } => {
            let node = random_drop(game, rng)?;
            let colour =
                if black < 2 && (white >= 1 || rng.below(3) < 2) { Colour::Black } else { Colour::White };
            Action::PieStone { node, colour }
        }
        Phase::Choose => Action::ChooseSide(if rng.below(2) == 0 { Colour::Black } else { Colour::White }),
        Phase::Start => {
            // Captures, the biggest (stones removed) first. A BeSiege capture only ever scores
            // for the mover, so a playout that passes one by misjudges the position it came
            // from; in The Way of Go the mover is sacrificed, and a quarter of them are passed.
            scratch.clear();
            let mut best = 0;
            // The board counts the moves ending on each node: none on an enemy stack, no
            // capture to look for (`docs/bots.md`, BeSiege's incremental attack table).
            if game.board().may_capture(colour) != Some(false) {
                game.capturing_moves(|s, l| {
                    let removed = game.board().removed_by(&s, l);
                    if removed > best {
                        best = removed;
                        scratch.clear();
                    }
                    if removed == best {
                        scratch.push(Action::Move { from: s.from, count: s.count, dir: s.dir, to: s.to });
                    }
                });
            }
            let pass_one_in = if game.config().neutral_drops { 8 } else { 4 };
            if !scratch.is_empty() && rng.below(pass_one_in) != 0 {
                return Some(scratch[rng.below(scratch.len() as u32) as usize]);
            }
            // A drop, preferring one that threatens a capture, then one that takes an enemy's
            // liberty.
            let (mut pick, mut best) = (None, 0);
            for _ in 0..4 {
                let Some(v) = random_drop(game, rng) else { break };
                let worth = if threatens(game, v, colour) {
                    3
                } else if touches_enemy(game, v, colour) {
                    2
                } else {
                    1
                };
                if worth > best {
                    (pick, best) = (Some(v), worth);
                }
                if worth == 3 {
                    break;
                }
            }
            match pick {
                Some(v) => Action::Drop(v),
                None if !scratch.is_empty() => scratch[rng.below(scratch.len() as u32) as usize],
                None => {
                    // Only a move that opens a neutral point, or a forced pass.
                    game.legal_actions(scratch);
                    scratch[rng.below(scratch.len() as u32) as usize]
                }
            }
        }
        Phase::AfterMove => Action::Drop(random_drop(game, rng)?),
        Phase::AfterDrop { dropped } => {
            if rng.below(4) != 0 {
                Action::EndTurn
            } else if let Some(a) = sampled_quiet_move(game, rng, dropped) {
                a
            } else {
                scratch.clear();
                game.moves(|s, l| {
                    if s.from != dropped && !l.captures() {
                        scratch.push(Action::Move { from: s.from, count: s.count, dir: s.dir, to: s.to });
                    }
                });
                if scratch.is_empty() {
                    Action::EndTurn
                } else {
                    scratch[rng.below(scratch.len() as u32) as usize]
                }
            }
        }
    })
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use std::{collections::HashMap, sync::Arc};

    use gobeyond_rules::way_of_go::{BesiegeGame, BesiegeRules};

    use super::*;

    /// Drawn moves are the listed ones (quiet, not from the dropped stone), each about equally
    /// often: the draw is the list's uniform choice without building the list.
    #[test]
    fn a_sampled_quiet_move_is_a_uniform_draw_from_the_list() {
        use Colour::{Black, White};
        let map = Arc::new(gobeyond_maps::generate("square:9").unwrap());
        let at = |l: &str| map.node_by_label(l).unwrap();
        let stacks = [
            (at("C3"), Black, 2),
            (at("E5"), Black, 1),
            (at("G7"), Black, 3),
            (at("E6"), White, 1),
            (at("B8"), White, 2),
        ];
        let mut g = BesiegeGame::from_position(map.clone(), BesiegeRules::default(), &stacks, Black).unwrap();
        let dropped = (0..map.len() as NodeId).find(|&v| g.may_drop(v).is_ok() && v != at("A1")).unwrap();
        g.play(Action::Drop(dropped)).unwrap();
        assert_eq!(g.phase(), Phase::AfterDrop { dropped });
        let mut listed = Vec::new();
        g.moves(|s, l| {
            if s.from != dropped && !l.captures() {
                listed.push(Action::Move { from: s.from, count: s.count, dir: s.dir, to: s.to });
            }
        });
        assert!(listed.len() > 10, "{listed:?}");
        let mut rng = Rng::new(11);
        let draws = 400 * listed.len();
        let mut seen: HashMap<Action, usize> = HashMap::new();
        let mut drawn = 0;
        while drawn < draws {
            // A miss leaves the choice to the list (as the playout does): not counted here.
            let Some(a) = sampled_quiet_move(&g, &mut rng, dropped) else { continue };
            drawn += 1;
            assert!(listed.contains(&a), "{a:?} is not a listed move");
            *seen.entry(a).or_default() += 1;
        }
        // 400 expected each: a fair draw stays within ±25 % (over 5 standard deviations).
        for a in &listed {
            let k = seen.get(a).copied().unwrap_or(0);
            assert!((300..=500).contains(&k), "{a:?} drawn {k} times of {draws}");
        }
    }
}
