//! Baseline players, to measure the search against: uniformly random and greedy one-ply.

use gobeyond_rules::{Rng, playout::PlayoutTables, playout::is_eye};

use crate::computer::Computer;

/// A uniformly random legal placement that does not fill the mover's own eye; the first other
/// action that passes when there is none. Resigning is never chosen.
pub fn random_action<G: Computer>(game: &G, tables: &PlayoutTables, rng: &mut Rng) -> Option<G::Action> {
    let player = game.to_move()?;
    let mut actions = Vec::new();
    game.legal_actions(&mut actions);
    let places: Vec<G::Action> = actions
        .iter()
        .copied()
        .filter(|&a| {
            G::amaf_key(a)
                .is_some_and(|n| !game.go_board().is_some_and(|b| is_eye(b, tables, n, player.stone())))
        })
        .collect();
    if places.is_empty() {
        return actions.iter().copied().find(|&a| G::amaf_key(a).is_none() && game.is_pass(a));
    }
    Some(places[rng.below(places.len() as u32) as usize])
}

/// The legal action that leaves the mover best off right away by the rule system's own
/// material count ([`Computer::greedy_value`]); ties are broken at random. With nothing to
/// choose from, `random` decides.
pub fn greedy_action<G: Computer>(
    game: &G,
    tables: &PlayoutTables,
    rng: &mut Rng,
    random: impl FnOnce(&G, &PlayoutTables, &mut Rng) -> Option<G::Action>,
) -> Option<G::Action> {
    let player = game.to_move()?;
    let mut actions = Vec::new();
    game.legal_actions(&mut actions);
    let mut best = Vec::new();
    let mut best_value = f64::NEG_INFINITY;
    let base = game.search_copy();
    for &a in &actions {
        if G::amaf_key(a)
            .is_some_and(|n| game.go_board().is_some_and(|b| is_eye(b, tables, n, player.stone())))
        {
            continue;
        }
        let mut g = base.clone();
        if g.play(a).is_err() {
            continue;
        }
        let v = g.greedy_value(player);
        if v > best_value + 1e-9 {
            best_value = v;
            best.clear();
        }
        if (v - best_value).abs() <= 1e-9 {
            best.push(a);
        }
    }
    if best.is_empty() {
        return random(game, tables, rng);
    }
    Some(best[rng.below(best.len() as u32) as usize])
}
