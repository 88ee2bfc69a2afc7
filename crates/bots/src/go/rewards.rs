//! Go playouts' rewards beyond the win: the score bonus of two-player games.

use crate::search::searchable::Rewards;

/// Two players' rewards with a share `bonus` of them taken from Black's margin `margin` (as
/// Pachi's and Fuego's score bonus): the winner still always gets more than the loser, and
/// among wins the bigger one, so that a search sure of winning keeps its lead instead of
/// playing random moves that give points away, and a losing one still fights for points that
/// may turn the game if the opponent errs. The margin saturates at an eighth of the board.
pub fn with_margin(rewards: Rewards, margin: f64, nodes: usize, bonus: f32) -> Rewards {
    if bonus <= 0.0 {
        return rewards;
    }
    let scale = (nodes as f64 / 8.0).max(1.0);
    let black = 0.5 + 0.5 * (margin / scale).clamp(-1.0, 1.0) as f32;
    let mut r = rewards;
    r[0] = (1.0 - bonus) * rewards[0] + bonus * black;
    r[1] = (1.0 - bonus) * rewards[1] + bonus * (1.0 - black);
    r
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::searchable::shared_tie_rewards;

    #[test]
    fn the_score_bonus_orders_wins_by_margin_and_never_a_loss_above_a_win() {
        let win = shared_tie_rewards(&[45.0, 44.0], &[]);
        assert_eq!(with_margin(win, 1.0, 81, 0.0), win, "no bonus: the win alone");
        let r = |margin: f64| with_margin(shared_tie_rewards(&[margin, 0.0], &[]), margin, 81, 0.1);
        let (small, big, huge, loss, jigo) = (r(1.0), r(8.0), r(40.0), r(-1.0), r(0.0));
        assert!(big[0] > small[0] && huge[0] > big[0], "{small:?} {big:?} {huge:?}");
        assert!(loss[0] < small[0] && loss[1] > loss[0], "the narrowest loss is below every win");
        assert_eq!(jigo[0], jigo[1]);
        assert_eq!(huge[0], 1.0, "saturated at an eighth of the board");
        for rw in [small, big, huge, loss, jigo] {
            assert!((rw[0] + rw[1] - 1.0).abs() < 1e-6, "the rewards still sum to one: {rw:?}");
        }
    }
}
