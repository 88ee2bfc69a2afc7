//! Plays tournaments with made-up results for the tests.
#![allow(dead_code)]

use gobeyond_tournament::{Entrant, EntrantId, Round, Spec, TableResult, pair_round};

pub fn spec(format: gobeyond_tournament::Format, players: u8, rounds: u32, seed: u64) -> Spec {
    Spec {
        format,
        players_per_game: players,
        rounds,
        points: Vec::new(),
        advance: 1,
        mcmahon_bar: None,
        seed,
    }
}

/// Entrants 1..=n, the lower id the higher rating.
pub fn entrants(n: u32) -> Vec<Entrant> {
    (1..=n).map(|id| Entrant::new(id, f64::from(1000 - id))).collect()
}

/// Places for a table: the better rated wins, or a reproducible shuffle with the odd draw.
pub fn result(seats: &[EntrantId], by_rating: bool, salt: u64) -> TableResult {
    let mut order: Vec<usize> = (0..seats.len()).collect();
    let mix = |i: usize| (u64::from(seats[i]) ^ salt).wrapping_mul(0x9E37_79B9_7F4A_7C15).rotate_left(17);
    if by_rating {
        order.sort_by_key(|&i| seats[i]);
    } else {
        order.sort_by_key(|&i| mix(i));
    }
    let mut places = vec![0u8; seats.len()];
    for (rank, &seat) in order.iter().enumerate() {
        places[seat] = rank as u8 + 1;
    }
    // Now and then the last two share their place (a draw / jigo).
    if !by_rating && salt.is_multiple_of(7) {
        let n = seats.len() as u8;
        for p in &mut places {
            if *p == n {
                *p = n - 1;
            }
        }
    }
    TableResult { places, forfeit: vec![false; seats.len()] }
}

/// Pairs and plays rounds until the format says finished (or `limit` rounds).
pub fn play(spec: &Spec, entrants: &[Entrant], by_rating: bool, limit: u32) -> Vec<Round> {
    let mut history: Vec<Round> = Vec::new();
    while (history.len() as u32) < limit {
        let Ok(mut round) = pair_round(spec, entrants, &history) else { break };
        for (t, table) in round.tables.iter().enumerate() {
            round.results[t] =
                Some(result(&table.seats, by_rating, spec.seed ^ u64::from(round.number) ^ t as u64));
        }
        history.push(round);
    }
    history
}
