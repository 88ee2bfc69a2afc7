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

/// Seat order for a table: the order (of all, up to six players; seat by seat above) that keeps
/// the members' seat counts most level — the sum of squares of the counts after this game —
/// then the one that does not repeat last game's seat, then the tie-break hash.
pub fn seat(members: &[EntrantId], history: &History, tie: impl Fn(EntrantId) -> u64) -> Table {
    if members.len() > 6 {
        return seat_greedy(members, history, tie);
    }
    let cost = |order: &[EntrantId]| {
        let mut squares = 0u64;
        let mut repeats = 0u32;
        for (s, &id) in order.iter().enumerate() {
            squares += u64::from(history.seat_count(id, s) + 1).pow(2);
            repeats += u32::from(history.records.get(&id).and_then(|r| r.last_seat) == Some(s));
        }
        (squares, repeats, order.iter().map(|&id| tie(id)).collect::<Vec<_>>())
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
