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
                    if l.captures() {
                        let removed = game.board().removed_by(&s, l);
                        if removed > best {
                            best = removed;
                            scratch.clear();
                        }
                        if removed == best {
                            scratch.push(Action::Move { from: s.from, count: s.count, dir: s.dir, to: s.to });
                        }
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
