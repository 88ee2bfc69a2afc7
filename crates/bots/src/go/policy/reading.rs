//! `reading`: the tactics, then three times in four a move for a group of two liberties next to
//! the last move, as Pachi's playouts read races.

use gobeyond_maps::NodeId;
use gobeyond_rules::{Board, Player, Rng, SuicideRule};

use super::{Groups, liberties_after};
use crate::go::ladder;

/// Races and short fights, as Pachi's playouts read them: for each group next to `last` (or
/// `last`'s own) with exactly two liberties, an own group extends at a liberty that gives it
/// three or more; an opponent's group is put in atari from a liberty where the new stone has
/// two liberties itself and from which the group's extension at its other liberty would leave
/// it two at most (a ladder or a net, not a push that lets it out). A random one of these;
/// `None` when there is none.
pub fn two_liberty_move(board: &Board, player: Player, last: NodeId, rng: &mut Rng) -> Option<NodeId> {
    let map = board.map();
    let mut groups = Groups::new();
    let mut candidates = [0 as NodeId; 8];
    let mut k = 0;
    let mut seen = [0; 8];
    for q in std::iter::once(last).chain(map.neighbors(last).iter().copied()) {
        let Some(owner) = board.stone_at(q) else { continue };
        if !groups.add(board.group_id(q).unwrap_or(q)) {
            continue;
        }
        let mut libs = [0; 3];
        if ladder::liberties(board, q, &mut libs) != 2 {
            continue;
        }
        for (l, other) in [(libs[0], libs[1]), (libs[1], libs[0])] {
            if k == candidates.len() || board.check(l, player, SuicideRule::Forbidden).is_err() {
                continue;
            }
            let good = if owner == player {
                liberties_after(board, l, player, 3, &mut seen) >= 3
            } else {
                // `l` is still empty on the board, so it counts among the extension's liberties.
                liberties_after(board, l, player, 2, &mut seen) >= 2
                    && liberties_after(board, other, owner, 4, &mut seen) <= 3
            };
            if good && !candidates[..k].contains(&l) {
                candidates[k] = l;
                k += 1;
            }
        }
    }
    (k > 0).then(|| candidates[rng.below(k as u32) as usize])
}
