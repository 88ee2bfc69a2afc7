//! Double elimination, two players: out after two losses. Each round the unbeaten (the winners'
//! bracket) play each other in seed order (the top seed against the bottom one) and those with
//! one loss (the losers' bracket) play each other, nearest seeds first and without repeats when
//! possible; an odd one out has a bye. When one unbeaten and one once-beaten remain they meet in
//! the final; if the once-beaten wins, both have lost once and they play again
//! (docs/tournaments.md, "Double elimination").

use std::collections::BTreeMap;

use crate::history::History;
use crate::spec::{Entrant, EntrantId, Round, Spec, tie_hash};
use crate::tables::{choose_byes, pair_two, seat};

/// Losses per entrant: a table lost, or a shared first place against a better seed.
pub fn losses(spec: &Spec, entrants: &[Entrant], history: &[Round]) -> BTreeMap<EntrantId, u32> {
    let seeds = seed_order(spec, entrants);
    let rank = |id: EntrantId| seeds.iter().position(|&s| s == id).unwrap_or(usize::MAX);
    let mut losses: BTreeMap<EntrantId, u32> = entrants.iter().map(|e| (e.id, 0)).collect();
    for round in history {
        for (table, result) in round.tables.iter().zip(&round.results) {
            let Some(result) = result else { continue };
            let best = table
                .seats
                .iter()
                .enumerate()
                .min_by_key(|&(s, &id)| (result.places.get(s).copied().unwrap_or(u8::MAX), rank(id)))
                .map(|(_, &id)| id);
            for &id in table.seats.iter().filter(|&&id| Some(id) != best) {
                *losses.entry(id).or_default() += 1;
            }
        }
        for &id in &round.absent {
            *losses.entry(id).or_default() += 1;
        }
    }
    losses
}

fn seed_order(spec: &Spec, entrants: &[Entrant]) -> Vec<EntrantId> {
    let mut order: Vec<&Entrant> = entrants.iter().collect();
    order.sort_by(|a, b| {
        b.rating.total_cmp(&a.rating).then(tie_hash(spec.seed, 0, a.id).cmp(&tie_hash(spec.seed, 0, b.id)))
    });
    order.iter().map(|e| e.id).collect()
}

/// Entrants still in (fewer than two losses), in seed order.
pub fn alive(spec: &Spec, entrants: &[Entrant], history: &[Round]) -> Vec<EntrantId> {
    let losses = losses(spec, entrants, history);
    seed_order(spec, entrants).into_iter().filter(|id| losses.get(id).copied().unwrap_or(0) < 2).collect()
}

/// The next round, or None when one entrant is left.
pub fn pair(spec: &Spec, entrants: &[Entrant], history: &[Round], number: u32) -> Option<Round> {
    let losses = losses(spec, entrants, history);
    let past = History::read(spec, history);
    let active = |id: &EntrantId| entrants.iter().any(|e| e.id == *id && e.active_in(number));
    let alive: Vec<EntrantId> = alive(spec, entrants, history).into_iter().filter(active).collect();
    if alive.len() < 2 {
        return None;
    }
    let lost = |n: u32| -> Vec<EntrantId> {
        alive.iter().copied().filter(|id| losses.get(id).copied().unwrap_or(0) == n).collect()
    };
    let (unbeaten, once) = (lost(0), lost(1));
    let mut groups: Vec<Vec<EntrantId>> = Vec::new();
    let mut byes = Vec::new();
    if unbeaten.len() == 1 && once.len() == 1 || unbeaten.is_empty() && once.len() == 2 {
        groups.push(alive.clone());
    } else {
        // Winners' bracket: top seed against bottom seed; the odd one out waits — the best seed
        // among those with the fewest byes, so the top seed does not wait every round.
        let mut top = unbeaten.clone();
        let bottom_first: Vec<EntrantId> = top.iter().rev().copied().collect();
        let waiting = choose_byes(&bottom_first, top.len() % 2, &[], &past);
        top.retain(|id| !waiting.contains(id));
        byes.extend(waiting);
        let half = top.len() / 2;
        groups.extend((0..half).map(|i| vec![top[i], top[top.len() - 1 - i]]));
        // Losers' bracket: nearest seeds without repeats; the odd one with the fewest byes waits.
        let mut low = once.clone();
        let waiting = choose_byes(&low, low.len() % 2, &[], &past);
        low.retain(|id| !waiting.contains(id));
        byes.extend(waiting);
        groups.extend(pair_two(&low, &past));
    }
    let tables: Vec<_> =
        groups.iter().map(|members| seat(members, &past, |id| tie_hash(spec.seed, number, id))).collect();
    Some(Round { number, results: vec![None; tables.len()], tables, byes, absent: Vec::new() })
}
