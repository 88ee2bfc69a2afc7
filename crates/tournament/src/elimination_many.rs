//! Single elimination with N players per game (docs/tournaments.md, "Elimination with N
//! players"): each round the entrants still in sit at tables of N — snake-seeded so the
//! strongest are spread (by rating in round 1, then by the place reached in the previous round)
//! — and the top `advance` of each table go on; when the count is not a multiple of N the rest
//! (fewer than N) have a bye and go on, the best seeds with the fewest byes first. When that
//! would leave fewer than N for the final, the round's cut moves down just enough that N are
//! left. When exactly N remain they play the final table and its winner wins. Places shared at
//! the cut go to the better seed. Like the two-player bracket, all is rebuilt from the rounds.

use crate::elimination::seeds;
use crate::history::History;
use crate::spec::{Entrant, EntrantId, Round, Spec, tie_hash};
use crate::tables::{choose_byes, seat};

/// How many of each table go on in a round of `tables` tables and `byes` byes: one at the
/// final (one table, no bye), else `advance`, or more when fewer than N would be left.
pub fn cut(players: usize, advance: usize, tables: usize, byes: usize) -> usize {
    if tables == 0 {
        return 0;
    }
    if tables == 1 && byes == 0 {
        return 1;
    }
    let short = players.saturating_sub(byes).div_ceil(tables);
    advance.max(short).min(players - 1)
}

/// The rounds an elimination of `entrants` takes (without withdrawals): reduction rounds while
/// more than N remain, then the final.
pub fn rounds_needed(spec: &Spec, entrants: usize) -> u32 {
    let n = spec.players();
    if entrants < n {
        return 0;
    }
    let (mut left, mut rounds) = (entrants, 1);
    while left > n {
        let (tables, byes) = (left / n, left % n);
        left = tables * cut(n, spec.advancing(), tables, byes) + byes;
        rounds += 1;
    }
    rounds
}

/// Who goes on from each finished round, in the order the next round is seeded: the best place
/// reached first (a bye counts as a first place), then the original seed. Everyone from the
/// start before round 1. Stops at the first round without every result.
pub fn alive(spec: &Spec, entrants: &[Entrant], history: &[Round]) -> Vec<EntrantId> {
    let seeds = seeds(spec, entrants);
    let rank = |id: EntrantId| seeds.iter().position(|&s| s == id).unwrap_or(usize::MAX);
    let mut alive = seeds.clone();
    for round in history {
        if !round.is_complete() {
            break;
        }
        let a = cut(spec.players(), spec.advancing(), round.tables.len(), round.byes.len());
        let mut next: Vec<(u8, usize, EntrantId)> = round
            .byes
            .iter()
            .filter(|id| alive.contains(id) && !round.absent.contains(id))
            .map(|&id| (0, rank(id), id))
            .collect();
        for (table, result) in round.tables.iter().zip(&round.results) {
            let Some(result) = result else { continue };
            let mut by_place: Vec<(bool, u8, usize, EntrantId)> = table
                .seats
                .iter()
                .enumerate()
                .map(|(s, &id)| {
                    let forfeit = result.forfeit.get(s).copied().unwrap_or(false);
                    (forfeit, result.places.get(s).copied().unwrap_or(u8::MAX), rank(id), id)
                })
                .collect();
            by_place.sort();
            // Those who lost by absence never go on, whatever their place.
            next.extend(by_place.iter().take(a).filter(|t| !t.0).map(|&(_, place, r, id)| (place, r, id)));
        }
        next.sort();
        alive = next.into_iter().map(|(_, _, id)| id).collect();
    }
    alive
}

/// The next round, or None when the winner is known (or withdrawals left fewer than a table:
/// the standings then place those left by their last round).
pub fn pair(spec: &Spec, entrants: &[Entrant], history: &[Round], number: u32) -> Option<Round> {
    let n = spec.players();
    let active = |id: &EntrantId| entrants.iter().any(|e| e.id == *id && e.active_in(number));
    let mut order: Vec<EntrantId> = alive(spec, entrants, history).into_iter().filter(active).collect();
    if order.len() < n {
        return None;
    }
    let past = History::read(spec, history);
    let tables = order.len() / n;
    // The bye goes to the best seeds with the fewest byes (`choose_byes` takes the last first).
    let worst_first: Vec<EntrantId> = order.iter().rev().copied().collect();
    let byes = choose_byes(&worst_first, order.len() % n, &[], &past);
    order.retain(|id| !byes.contains(id));
    let mut groups: Vec<Vec<EntrantId>> = vec![Vec::with_capacity(n); tables];
    // Snake: 1 2 3 | 3 2 1 | 1 2 3 … so each table gets one of the best, one of the next, …
    for (i, &id) in order.iter().enumerate() {
        let (row, col) = (i / tables, i % tables);
        let t = if row % 2 == 0 { col } else { tables - 1 - col };
        groups[t].push(id);
    }
    let tables: Vec<_> =
        groups.iter().map(|members| seat(members, &past, |id| tie_hash(spec.seed, number, id))).collect();
    Some(Round { number, results: vec![None; tables.len()], tables, byes, absent: Vec::new() })
}

/// The place of `id` at the last table it sat at (for the standings: within a round of
/// elimination, a better place is above).
pub fn last_place(id: EntrantId, history: &[Round]) -> Option<u8> {
    history.iter().rev().find_map(|round| {
        round.tables.iter().zip(&round.results).find_map(|(table, result)| {
            let seat = table.seats.iter().position(|&s| s == id)?;
            result.as_ref()?.places.get(seat).copied()
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cut_leaves_a_full_final_table() {
        // 9 players, 4 a table, top 1: 2 tables and a bye would leave 3 — the cut moves to 2.
        assert_eq!(cut(4, 1, 2, 1), 2);
        // 12 players, 3 a table, top 1: 4 tables leave 4.
        assert_eq!(cut(3, 1, 4, 0), 1);
        // The final: one table, the winner.
        assert_eq!(cut(4, 3, 1, 0), 1);
        // 5 players, 4 a table, top 1: one table and a bye; 3 go on from the table.
        assert_eq!(cut(4, 1, 1, 1), 3);
    }
}
