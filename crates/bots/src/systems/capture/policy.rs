//! Capture Go's playout policy: take any stone left in atari, save an own group in atari,
//! else a random point that is neither an own eye nor a self-atari (in a race to the first
//! captures a self-atari decides the game, so playouts that allow them measure only who
//! blunders first; `docs/bots.md`, "Capture Go").

use gobeyond_maps::NodeId;
use gobeyond_rules::{
    Board, CaptureGame, Game, Player, Rng,
    capture::{Action, Input},
};

use crate::go::ladder;

/// The placements of the last two rounds, newest first. A group put in atari (by a stone next
/// to it or by its own extension) touches the stone that did it; two rounds rather than one
/// so that a mover who took one capture while another waited still finds the other.
fn recent_placements(game: &CaptureGame) -> impl Iterator<Item = NodeId> + '_ {
    game.inputs().iter().rev().take(2 * game.player_count()).filter_map(|(_, input)| match input {
        Input::Act(Action::Place(n)) => Some(*n),
        _ => None,
    })
}

/// The liberty that captures a group of another player in atari at or next to `around`, if
/// the game allows playing there.
fn capture_at(game: &CaptureGame, around: NodeId, player: Player) -> Option<NodeId> {
    let board = game.board();
    std::iter::once(around)
        .chain(game.map().neighbors(around).iter().copied())
        .filter(|&q| board.stone_at(q).is_some_and(|o| o != player))
        .filter_map(|q| board.atari_liberty(q))
        .find(|&l| game.check(Action::Place(l)).is_ok())
}

/// The liberty that saves a group of `player` in atari at or next to `around`, if extending
/// there gives it two liberties or more.
fn escape_at(game: &CaptureGame, around: NodeId, player: Player) -> Option<NodeId> {
    let board = game.board();
    std::iter::once(around)
        .chain(game.map().neighbors(around).iter().copied())
        .filter(|&q| board.stone_at(q) == Some(player))
        .filter_map(|q| board.atari_liberty(q))
        .find(|&l| game.check(Action::Place(l)).is_ok() && liberties_after(board, l, player) > 1)
}

/// Liberties the group of a stone of `player` on `node` would have, counted up to two: the
/// node's empty neighbours and the other liberties of the groups it joins (captures not
/// counted).
pub(super) fn liberties_after(board: &Board, node: NodeId, player: Player) -> usize {
    liberties_after_up_to::<2>(board, node, player)
}

/// [`liberties_after`] counted up to `CAP` (at most 3).
pub(super) fn liberties_after_up_to<const CAP: usize>(board: &Board, node: NodeId, player: Player) -> usize {
    let mut found = [0 as NodeId; CAP];
    let mut count = 0;
    let mut add = |l: NodeId| {
        if l != node && !found[..count].contains(&l) {
            found[count] = l;
            count += 1;
        }
        count == found.len()
    };
    let neighbours = board.map().neighbors(node);
    for &q in neighbours {
        if board.stone_at(q).is_none() && add(q) {
            return CAP;
        }
    }
    for &q in neighbours {
        if board.stone_at(q) == Some(player) {
            // One more than CAP: one of them may be `node` itself.
            let mut libs = [0 as NodeId; 4];
            let n = ladder::liberties(board, q, &mut libs[..=CAP]);
            if libs[..n].iter().any(|&l| add(l)) {
                return CAP;
            }
        }
    }
    count
}

/// Whether `player` placing on `node` captures a neighbouring group of another player.
pub(super) fn captures_at(board: &Board, node: NodeId, player: Player) -> bool {
    board
        .map()
        .neighbors(node)
        .iter()
        .any(|&q| board.stone_at(q).is_some_and(|o| o != player) && board.only_liberty_is(q, node))
}

/// Whether `node` is an eye of `player`: every neighbour holds one of its stones.
pub(super) fn own_eye(game: &CaptureGame, node: NodeId, player: Player) -> bool {
    game.map().neighbors(node).iter().all(|&q| game.board().stone_at(q) == Some(player))
}

/// A placement a playout may make: legal, not in an own eye, and not a self-atari (unless it
/// captures).
fn safe(game: &CaptureGame, node: NodeId, player: Player) -> bool {
    let board = game.board();
    !own_eye(game, node, player)
        && (liberties_after(board, node, player) > 1 || captures_at(board, node, player))
        && game.check(Action::Place(node)).is_ok()
}

/// A playout move for the player to move: capture a group left in atari, else save an own
/// group in atari, else a random safe point; `None` (a pass) when no point is safe.
pub(super) fn choose(game: &CaptureGame, rng: &mut Rng) -> Option<NodeId> {
    let player = game.to_move()?;
    if let Some(p) = recent_placements(game).find_map(|r| capture_at(game, r, player)) {
        return Some(p);
    }
    if let Some(p) = recent_placements(game).find_map(|r| escape_at(game, r, player)) {
        return Some(p);
    }
    let empties = game.board().empties();
    if empties.is_empty() {
        return None;
    }
    for _ in 0..8 {
        let p = empties[rng.below(empties.len() as u32) as usize];
        if safe(game, p, player) {
            return Some(p);
        }
    }
    let start = rng.below(empties.len() as u32) as usize;
    (0..empties.len()).map(|k| empties[(start + k) % empties.len()]).find(|&p| safe(game, p, player))
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::{
        super::tests::{game_on, place},
        *,
    };

    /// Games played by the playout policy alone, 2 to 3 players, on four map families (over
    /// 300 chances to capture): no placement leaves the mover's group in atari unless it
    /// captured, and whenever a group of another player could be taken, the policy takes one.
    #[test]
    fn playouts_take_every_atari_and_never_give_one() {
        let mut rng = Rng::new(11);
        for (spec, players) in [("square:9", 2), ("hex:4", 3), ("torus:8", 2), ("cube:3", 2)] {
            for _ in 0..20 {
                let mut g = game_on(spec, players, 5, &[]);
                while let Some(player) = g.to_move() {
                    let board = g.board();
                    let takes = board
                        .empties()
                        .iter()
                        .any(|&l| captures_at(board, l, player) && g.check(Action::Place(l)).is_ok());
                    let Some(p) = choose(&g, &mut rng) else {
                        assert!(!takes, "{spec}: passed with a capture on the board");
                        g.play(Action::Pass).unwrap();
                        continue;
                    };
                    let before = g.captures(player);
                    g.play(Action::Place(p)).unwrap();
                    let took = g.captures(player) > before;
                    assert_eq!(took, takes, "{spec}: a capture was there to take: {takes}");
                    if !g.is_over() {
                        let libs = g.board().liberties(p).len();
                        assert!(took || libs >= 2, "{spec}: {} left in atari", g.map().label(p));
                    }
                }
            }
        }
    }

    /// A stone put in atari two moves ago and left there is taken, though the last stone went
    /// elsewhere.
    #[test]
    fn a_stone_left_in_atari_is_taken_after_a_move_elsewhere() {
        let x = Player(0);
        let o = Player(1);
        let mut g = game_on("square:9", 2, 1, &[("D5", x), ("F5", x), ("E5", o)]);
        place(&mut g, "E4");
        place(&mut g, "A9");
        let take = g.map().node_by_label("E6").unwrap();
        for seed in 0..5 {
            assert_eq!(choose(&g, &mut Rng::new(seed)), Some(take));
        }
    }

    /// `liberties_after` agrees with the board after the placement (counted up to two, and up to
    /// three) on every legal point that captures nothing, through random games on three map
    /// families.
    #[test]
    fn liberties_after_counts_as_the_board_does() {
        let mut rng = Rng::new(5);
        for spec in ["square:7", "hex:3", "goldberg:2,0"] {
            let mut g = game_on(spec, 2, 1000, &[]);
            for _ in 0..60 {
                let Some(player) = g.to_move() else { break };
                let board = g.board().clone();
                for &p in board.empties() {
                    if g.check(Action::Place(p)).is_err() || captures_at(&board, p, player) {
                        continue;
                    }
                    let mut after = board.clone();
                    after.play_unchecked(p, player);
                    let real = after.liberties(p).len();
                    let at = g.map().label(p);
                    assert_eq!(liberties_after(&board, p, player), real.min(2), "{spec} at {at}");
                    assert_eq!(liberties_after_up_to::<3>(&board, p, player), real.min(3), "{spec} at {at}");
                }
                let empties = board.empties();
                let p = empties[rng.below(empties.len() as u32) as usize];
                if g.play(Action::Place(p)).is_err() {
                    g.play(Action::Pass).unwrap();
                }
            }
        }
    }
}
