//! Shared pieces of pairing: who sits out (byes), grouping an ordered list into tables that
//! repeat as few meetings as possible, and seat order balancing who moves first.

use crate::history::History;
use crate::spec::{EntrantId, Table};

/// Picks `count` byes from `order` (best first): those who asked first, then those with the
/// fewest byes so far, lowest in `order` first — so nobody gets a second bye while another
/// active entrant has none (docs/tournaments.md, "Byes").
pub fn choose_byes(
    order: &[EntrantId],
    count: usize,
    requested: &[EntrantId],
    history: &History,
) -> Vec<EntrantId> {
    let mut byes: Vec<EntrantId> = order.iter().copied().filter(|id| requested.contains(id)).collect();
    let mut rest: Vec<(u32, usize, EntrantId)> = order
        .iter()
        .enumerate()
        .filter(|(_, id)| !requested.contains(id))
        .map(|(i, &id)| (history.byes(id), usize::MAX - i, id))
        .collect();
    rest.sort();
    // A requested bye is granted even beyond `count`: the rest must still fill whole tables,
    // so the caller rounds the remainder again.
    for (_, _, id) in rest {
        if byes.len() >= count {
            break;
        }
        byes.push(id);
    }
    byes
}

/// Groups `order` (best first) into tables of `size`: each table starts with the best entrant
/// left and adds, one at a time, the entrant that met the table's members least often, the
/// better placed first among equals. `order.len()` must be a multiple of `size`.
pub fn greedy_tables(order: &[EntrantId], size: usize, history: &History) -> Vec<Vec<EntrantId>> {
    let mut left: Vec<EntrantId> = order.to_vec();
    let mut tables = Vec::new();
    while left.len() >= size {
        let mut table = vec![left.remove(0)];
        while table.len() < size {
            let best = (0..left.len())
                .min_by_key(|&i| (table.iter().map(|&t| history.met(t, left[i])).sum::<u32>(), i))
                .unwrap_or(0);
            table.push(left.remove(best));
        }
        tables.push(table);
    }
    tables
}

/// Two-player pairing of `order` (best first, even length): depth-first, the nearest opponent
/// first, bounded. First without a repeat and without giving anyone a second colour in excess,
/// then without a repeat, else the greedy pairing.
pub fn pair_two(order: &[EntrantId], history: &History) -> Vec<Vec<EntrantId>> {
    let excess = |id: EntrantId| i64::from(history.seat_count(id, 0)) - i64::from(history.seat_count(id, 1));
    let strict =
        |a: EntrantId, b: EntrantId| history.met(a, b) == 0 && excess(a).signum() * excess(b).signum() <= 0;
    let fresh = |a: EntrantId, b: EntrantId| history.met(a, b) == 0;
    for allowed in [&strict as &dyn Fn(EntrantId, EntrantId) -> bool, &fresh] {
        let mut budget = 20_000u32;
        let mut paired = Vec::new();
        if search(order.to_vec(), allowed, &mut paired, &mut budget) {
            return paired.chunks(2).map(<[EntrantId]>::to_vec).collect();
        }
    }
    greedy_tables(order, 2, history)
}

fn search(
    left: Vec<EntrantId>,
    allowed: &dyn Fn(EntrantId, EntrantId) -> bool,
    out: &mut Vec<EntrantId>,
    budget: &mut u32,
) -> bool {
    let Some((&top, rest)) = left.split_first() else {
        return true;
    };
    for i in 0..rest.len() {
        if *budget == 0 {
            return false;
        }
        *budget -= 1;
        if !allowed(top, rest[i]) {
            continue;
        }
        let mut next = rest.to_vec();
        let opponent = next.remove(i);
        out.extend([top, opponent]);
        if search(next, allowed, out, budget) {
            return true;
        }
        out.truncate(out.len() - 2);
    }
    false
}

/// Seat order for a table (docs/tournaments.md, "Seats and colours"): of every order (up to six
/// players; seat by seat above), the one that keeps each member's seat counts most level after
/// this game — first the largest spread (most games in one seat minus fewest in another) of any
/// member, then the sum of the spreads, then the sum of squares of the counts — then the one
/// that does not repeat last game's seat, then the tie-break hash. Two players: the one with
/// more Blacks than Whites takes White; on equal counts colours alternate.
pub fn seat(members: &[EntrantId], history: &History, tie: impl Fn(EntrantId) -> u64) -> Table {
    if members.len() > 6 {
        return seat_greedy(members, history, tie);
    }
    let n = members.len();
    let cost = |order: &[EntrantId]| {
        let (mut widest, mut spreads, mut squares, mut repeats) = (0u32, 0u32, 0u64, 0u32);
        for (s, &id) in order.iter().enumerate() {
            let counts = (0..n).map(|k| history.seat_count(id, k) + u32::from(k == s));
            let (lo, hi) = counts.clone().fold((u32::MAX, 0), |(lo, hi), c| (lo.min(c), hi.max(c)));
            widest = widest.max(hi - lo);
            spreads += hi - lo;
            squares += counts.map(|c| u64::from(c).pow(2)).sum::<u64>();
            repeats += u32::from(history.records.get(&id).and_then(|r| r.last_seat) == Some(s));
        }
        (widest, spreads, squares, repeats, order.iter().map(|&id| tie(id)).collect::<Vec<_>>())
    };
    let mut best: Option<(Vec<EntrantId>, _)> = None;
    permutations(members.to_vec(), 0, &mut |order| {
        let c = cost(order);
        if best.as_ref().is_none_or(|(_, b)| c < *b) {
            best = Some((order.to_vec(), c));
        }
    });
    Table { seats: best.map_or_else(|| members.to_vec(), |(o, _)| o) }
}

fn permutations(mut items: Vec<EntrantId>, k: usize, visit: &mut dyn FnMut(&[EntrantId])) {
    if k >= items.len() {
        visit(&items);
        return;
    }
    for i in k..items.len() {
        items.swap(k, i);
        permutations(items.clone(), k + 1, visit);
        items.swap(k, i);
    }
}

/// Seat order for a table: seat by seat, the member who sat there least often (then the one
/// who sat there longest ago, then the tie-break hash) takes it — keeps each entrant's seat
/// counts level (colours within one for two players).
fn seat_greedy(members: &[EntrantId], history: &History, tie: impl Fn(EntrantId) -> u64) -> Table {
    let mut left = members.to_vec();
    let mut seats = Vec::with_capacity(members.len());
    for s in 0..members.len() {
        let fewest = (0..left.len())
            .min_by_key(|&i| {
                let id = left[i];
                let record = history.records.get(&id);
                let total: u32 = record.map_or(0, |r| r.seats.iter().sum());
                // Counted as "sat here minus fair share", so new entrants are not favoured.
                let here = history.seat_count(id, s) as i64 * members.len() as i64 - total as i64;
                let last_here = record.and_then(|r| r.last_seat) == Some(s);
                (here, last_here, tie(id))
            })
            .unwrap_or(0);
        seats.push(left.remove(fewest));
    }
    Table { seats }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spec::{Round, Spec, Table, TableResult};

    /// A history where entrant 1 had `black` Blacks and `white` Whites against a stranger (100+).
    fn games(id: EntrantId, black: u32, white: u32, rounds: &mut Vec<Round>) {
        for g in 0..black + white {
            let stranger = 100 + id * 50 + g;
            let seats = if g < black { vec![id, stranger] } else { vec![stranger, id] };
            rounds.push(Round {
                number: rounds.len() as u32 + 1,
                tables: vec![Table { seats }],
                results: vec![Some(TableResult { places: vec![1, 2], forfeit: vec![false; 2] })],
                ..Round::default()
            });
        }
    }

    fn spec() -> Spec {
        Spec {
            format: crate::Format::Swiss,
            players_per_game: 2,
            rounds: 9,
            points: Vec::new(),
            advance: 1,
            mcmahon_bar: None,
            seed: 0,
        }
    }

    #[test]
    fn the_one_with_more_blacks_takes_white() {
        // 1 had 3 Blacks and 3 Whites, 2 had one Black: 2 takes White, both stay within one
        // (summing squares of the counts would give 2 a second Black in a row).
        let mut rounds = Vec::new();
        games(1, 3, 3, &mut rounds);
        games(2, 1, 0, &mut rounds);
        let past = History::read(&spec(), &rounds);
        assert_eq!(seat(&[1, 2], &past, u64::from).seats, vec![1, 2]);
        assert_eq!(seat(&[2, 1], &past, u64::from).seats, vec![1, 2]);
    }

    #[test]
    fn a_black_ahead_takes_white_and_equals_alternate() {
        let mut rounds = Vec::new();
        games(1, 1, 1, &mut rounds); // level, last game White
        games(3, 2, 1, &mut rounds); // a Black ahead
        let past = History::read(&spec(), &rounds);
        assert_eq!(seat(&[3, 1], &past, u64::from).seats, vec![1, 3]);
        // Both level with White last (4 is new): 1 takes Black, alternating.
        let past = History::read(&spec(), &rounds[..2]);
        assert_eq!(seat(&[4, 1], &past, u64::from).seats, vec![1, 4]);
    }
}
