//! What Tribal Go's search expects of a placement before playing it out, and the material
//! count the greedy baseline and the bot's own second thoughts use.

use gobeyond_maps::NodeId;
use gobeyond_rules::{Game, Player, TribalGame, tribal::Action};

use crate::search::searchable::Prior;

/// Territory (of the player's team) plus prisoners held.
pub(super) fn material(game: &TribalGame, player: Player) -> f64 {
    let territory = game.territory()[game.team(player).index()];
    let prisoners: u32 = game.prisoners(player).iter().sum();
    f64::from(territory + prisoners)
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
pub(super) fn in_own_territory(game: &TribalGame, p: Player, node: NodeId, limit: usize) -> bool {
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
pub(super) fn gain(game: &TribalGame, node: NodeId) -> Option<f64> {
    let p = game.to_move()?;
    let mut g = game.without_events();
    g.play(Action::Place(node)).ok()?;
    Some(material(&g, p) - material(game, p))
}

/// What the search expects of a placement before playing it out: captures and saving one's
/// own group in atari first, a stone in one's own territory or one that puts itself in atari
/// last, touching one's own stones a little better than a stone alone. (Playouts fill the
/// board, so they cannot see that a stone in one's own territory loses a point.)
pub(super) fn placement_prior(game: &TribalGame, node: NodeId) -> Prior {
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
