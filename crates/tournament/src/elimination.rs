//! Single elimination, two players: a knockout bracket seeded by rating in the usual order
//! (1 v 16, 8 v 9, …) so the top seeds meet last; when the entrants are not a power of two the
//! empty slots sit opposite the top seeds, who get a bye in round 1. The bracket is rebuilt
//! from the entrants and the results each time, so nothing but the rounds needs storing
//! (docs/tournaments.md, "Elimination"). N players per game: `elimination_many`.

use crate::error::PairingError;
use crate::spec::{Entrant, EntrantId, Round, Spec};
use crate::tables::seat;
use crate::{history::History, spec::tie_hash};

/// Seeds 1..=size in bracket order: [1, 2] → [1, 4, 2, 3] → [1, 8, 4, 5, 2, 7, 3, 6].
fn bracket_order(size: usize) -> Vec<usize> {
    let mut order = vec![1];
    while order.len() < size {
        let m = order.len() * 2;
        order = order.iter().flat_map(|&s| [s, m + 1 - s]).collect();
    }
    order
}

/// Entrants from the start, the best rated first (the seed breaks equal ratings).
pub(crate) fn seeds(spec: &Spec, entrants: &[Entrant]) -> Vec<EntrantId> {
    let mut from_start: Vec<&Entrant> = entrants.iter().filter(|e| e.joined_round <= 1).collect();
    from_start.sort_by(|a, b| {
        b.rating.total_cmp(&a.rating).then(tie_hash(spec.seed, 0, a.id).cmp(&tie_hash(spec.seed, 0, b.id)))
    });
    from_start.iter().map(|e| e.id).collect()
}

pub fn rounds_needed(entrants: usize) -> u32 {
    entrants.max(1).next_power_of_two().trailing_zeros()
}

/// The bracket's slots before round `history.len() + 1`, or an error when a played round does
/// not match the bracket (a result missing).
pub fn slots(
    spec: &Spec,
    entrants: &[Entrant],
    history: &[Round],
) -> Result<Vec<Option<EntrantId>>, PairingError> {
    let seeds = seeds(spec, entrants);
    let size = seeds.len().max(2).next_power_of_two();
    let mut slots: Vec<Option<EntrantId>> =
        bracket_order(size).into_iter().map(|s| seeds.get(s - 1).copied()).collect();
    for round in history {
        slots = slots.chunks(2).map(|pair| advancer(pair, round)).collect::<Result<_, _>>()?;
    }
    Ok(slots)
}

/// Who comes out of a pair of slots in `round`: the winner of their table, or the one left.
fn advancer(pair: &[Option<EntrantId>], round: &Round) -> Result<Option<EntrantId>, PairingError> {
    let present: Vec<EntrantId> = pair.iter().flatten().copied().collect();
    let table = round
        .tables
        .iter()
        .position(|t| present.iter().all(|id| t.seats.contains(id)) && !present.is_empty());
    let Some(t) = table else {
        // A bye (or a withdrawal): the one entrant who was there and not absent goes on.
        return Ok(present.into_iter().find(|id| round.byes.contains(id) && !round.absent.contains(id)));
    };
    let Some(Some(result)) = round.results.get(t) else {
        return Err(PairingError::RoundNotFinished(round.number));
    };
    // The best place wins; a shared first place goes to the better seed (the earlier slot).
    let seats = &round.tables[t].seats;
    let best = present
        .iter()
        .min_by_key(|id| {
            let s = seats.iter().position(|x| x == *id).unwrap_or(0);
            result.places.get(s).copied().unwrap_or(u8::MAX)
        })
        .copied();
    Ok(best)
}

pub fn pair(
    spec: &Spec,
    entrants: &[Entrant],
    history: &[Round],
    number: u32,
) -> Result<Round, PairingError> {
    if spec.players() != 2 {
        return crate::elimination_many::pair(spec, entrants, history, number).ok_or(PairingError::Finished);
    }
    let slots = slots(spec, entrants, history)?;
    if slots.len() < 2 {
        return Err(PairingError::Finished);
    }
    let active = |id: EntrantId| entrants.iter().any(|e| e.id == id && e.active_in(number));
    let past = History::read(spec, history);
    let mut round = Round { number, ..Round::default() };
    for pair in slots.chunks(2) {
        let here: Vec<EntrantId> = pair.iter().flatten().copied().filter(|&id| active(id)).collect();
        match here.as_slice() {
            [a, b] => round.tables.push(seat(&[*a, *b], &past, |id| tie_hash(spec.seed, number, id))),
            [a] => round.byes.push(*a),
            _ => {}
        }
    }
    round.results = vec![None; round.tables.len()];
    Ok(round)
}

/// Entrants still in the bracket after the finished rounds (everyone before round 1).
pub fn alive(spec: &Spec, entrants: &[Entrant], history: &[Round]) -> Vec<EntrantId> {
    if spec.players() != 2 {
        return crate::elimination_many::alive(spec, entrants, history);
    }
    let complete: Vec<Round> = history.iter().filter(|r| r.is_complete()).cloned().collect();
    slots(spec, entrants, &complete).map(|s| s.into_iter().flatten().collect()).unwrap_or_default()
}
