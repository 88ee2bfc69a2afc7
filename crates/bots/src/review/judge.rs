//! What each action lost its mover: the drop of the mover's value between the positions before
//! and after it, marked by thresholds per system, and the points lost where the system scores
//! (`docs/analysis.md`).

use gobeyond_rules::{dispatch, record::Record};

use super::{Mark, MoveJudgement, PositionReview};
use crate::Computer;

/// The drops of a two-player win chance from which an action is an inaccuracy, a mistake, a
/// blunder: lichess's win-chance drops (0.1, 0.2, 0.3 on its −1..1 scale are 0.05, 0.10, 0.15
/// here), the blunder raised to 0.20 because a review's budget leaves the search's values
/// noisier than Stockfish's.
pub const THRESHOLDS: [f32; 3] = [0.05, 0.10, 0.20];

/// The default thresholds for `players` seats. With more than two, values are rank rewards in
/// which one place is worth `1 / (players − 1)`: a blunder costs at least half a place, a
/// mistake a quarter, an inaccuracy an eighth — never less than the two-player drops, below
/// which the search's noise at review budgets decides.
pub fn default_thresholds(players: usize) -> [f32; 3] {
    if players <= 2 {
        return THRESHOLDS;
    }
    let place = 1.0 / (players - 1) as f32;
    let by_place = [place / 8.0, place / 4.0, place / 2.0];
    [0, 1, 2].map(|i| by_place[i].max(THRESHOLDS[i]))
}

/// The thresholds of the record's system (the default for two players when it does not load).
pub fn thresholds(record: &Record) -> [f32; 3] {
    fn of<G: Computer>(g: &G) -> [f32; 3] {
        g.review_thresholds()
    }
    match record.new_game() {
        Ok(game) => dispatch!(&game, g => of(g)),
        Err(_) => THRESHOLDS,
    }
}

/// The mark of a loss under `thresholds` (none below the first).
pub fn mark(loss: f32, thresholds: [f32; 3]) -> Option<Mark> {
    match loss {
        l if l >= thresholds[2] => Some(Mark::Blunder),
        l if l >= thresholds[1] => Some(Mark::Mistake),
        l if l >= thresholds[0] => Some(Mark::Inaccuracy),
        _ => None,
    }
}

/// What each action lost its mover, from the positions before and after it, with the record's
/// system's thresholds.
pub fn judge_moves(record: &Record, positions: &[PositionReview]) -> Vec<MoveJudgement> {
    judge_moves_with(record, positions, thresholds(record))
}

/// [`judge_moves`] with given thresholds. `positions` are consecutive (position `at`, then
/// `at + 1`, ...; a prefix while a review runs). An action is judged when one seat moved alone
/// before it and the record says that seat played it; carried positions after it are looked
/// past (to the next searched or final one); none is judged before a chance draw is made or
/// while several seats decide at once.
pub fn judge_moves_with(
    record: &Record,
    positions: &[PositionReview],
    thresholds: [f32; 3],
) -> Vec<MoveJudgement> {
    positions
        .iter()
        .enumerate()
        .filter_map(|(i, before)| {
            let mover = before.to_move?;
            let next = positions.get(i + 1)?;
            if next.at != before.at + 1 || record.actions.get(before.at)?.player != mover {
                return None;
            }
            let after = positions[i + 1..].iter().find(|p| !p.carried)?;
            let seat = mover as usize;
            let loss = before.values.get(seat)? - after.values.get(seat)?;
            let points_lost = match (&before.scores, &after.scores) {
                (Some(b), Some(a)) => Some(margin(b, seat)? - margin(a, seat)?),
                _ => None,
            };
            Some(MoveJudgement {
                at: before.at,
                player: mover,
                loss,
                points_lost,
                mark: mark(loss, thresholds),
            })
        })
        .collect()
}

/// The seat's score ahead of the best other seat's (negative when behind).
fn margin(scores: &[f32], seat: usize) -> Option<f32> {
    let own = *scores.get(seat)?;
    let best_other =
        scores.iter().enumerate().filter(|&(s, _)| s != seat).map(|(_, &v)| v).reduce(f32::max)?;
    Some(own - best_other)
}
