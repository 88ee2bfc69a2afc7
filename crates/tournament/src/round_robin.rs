//! Round robin. Two players: the circle method (one entrant fixed, the others turn round), so
//! every pair meets exactly once in n-1 rounds (n rounds with a bye each when n is odd).
//! N players: a greedy balanced schedule — each round groups the entrants, in an order mixed by
//! the seed, so that tablemates met each other as rarely as possible (docs/tournaments.md,
//! "Round robin").

use crate::history::History;
use crate::spec::{Entrant, EntrantId, Round, Spec, Table, tie_hash};
use crate::tables::{choose_byes, greedy_tables, seat};

/// Rounds a full round robin of `entrants` needs.
pub fn rounds_needed(players: usize, entrants: usize) -> u32 {
    if entrants < 2 {
        return 0;
    }
    if players == 2 {
        return (entrants + entrants % 2 - 1) as u32;
    }
    // Each game meets N-1 others; with byes an entrant plays only (n - n mod N)/n of the rounds.
    let playing = entrants - entrants % players;
    if playing == 0 {
        return 0;
    }
    let games = (entrants - 1).div_ceil(players - 1);
    (games * entrants).div_ceil(playing) as u32
}

/// Everyone in the schedule, in seeding order (rating, then id).
fn seeded(entrants: &[Entrant]) -> Vec<EntrantId> {
    let mut order: Vec<&Entrant> = entrants.iter().collect();
    order.sort_by(|a, b| b.rating.total_cmp(&a.rating).then(a.id.cmp(&b.id)));
    order.iter().map(|e| e.id).collect()
}

/// Round `number` (1-based) of the two-player circle; entrants not active leave their opponent
/// a bye.
pub fn pair_two(entrants: &[Entrant], number: u32) -> Round {
    let mut slots: Vec<Option<EntrantId>> = seeded(entrants).into_iter().map(Some).collect();
    // With an odd number the empty slot is the fixed one, so byes rotate and colours stay
    // level (the fixed entrant's colours alternate, the others' follow their row).
    if slots.len() % 2 == 1 {
        slots.insert(0, None);
    }
    let n = slots.len();
    // Turn every slot but the first (number - 1) steps.
    if n > 2 {
        slots[1..].rotate_right((number as usize - 1) % (n - 1));
    }
    let active = |id: EntrantId| entrants.iter().any(|e| e.id == id && e.active_in(number));
    let mut round = Round { number, ..Round::default() };
    for i in 0..n / 2 {
        match (slots[i], slots[n - 1 - i]) {
            (Some(a), Some(b)) if active(a) && active(b) => {
                // The top row moves first; the fixed entrant alternates.
                let seats = if i == 0 && number.is_multiple_of(2) { vec![b, a] } else { vec![a, b] };
                round.tables.push(Table { seats });
            }
            (Some(a), other) | (other, Some(a)) if active(a) && other.is_none_or(|b| !active(b)) => {
                round.byes.push(a);
            }
            _ => {}
        }
    }
    round.results = vec![None; round.tables.len()];
    round
}

/// Round `number` of the N-player greedy schedule.
pub fn pair_many(spec: &Spec, entrants: &[Entrant], history: &[Round], number: u32) -> Round {
    let past = History::read(spec, history);
    let mut order: Vec<EntrantId> = entrants.iter().filter(|e| e.active_in(number)).map(|e| e.id).collect();
    order.sort_by_key(|&id| tie_hash(spec.seed, number, id));
    let byes = choose_byes(&order, order.len() % spec.players(), &[], &past);
    order.retain(|id| !byes.contains(id));
    let tables = greedy_tables(&order, spec.players(), &past)
        .iter()
        .map(|members| seat(members, &past, |id| tie_hash(spec.seed, number, id)))
        .collect::<Vec<_>>();
    Round { number, results: vec![None; tables.len()], tables, byes, absent: Vec::new() }
}
