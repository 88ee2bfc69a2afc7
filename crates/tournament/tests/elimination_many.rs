//! Single elimination with 3, 4 and 5 players per game (docs/tournaments.md, "Elimination with
//! N players"): nobody out plays again, each round lets through the documented number, one
//! winner at the end.

mod common;

use std::collections::BTreeSet;

use common::{entrants, play, spec};
use gobeyond_tournament::{
    Format, check_round, elimination_many::cut, is_finished, rounds_needed, standings,
};
use proptest::prelude::*;

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn n_player_elimination_ends_with_one_winner(players in 3u8..=5, advance in 1u8..=4, n in 3u32..=64, seed: u64, by_rating: bool) {
        prop_assume!(advance < players && n >= u32::from(players));
        let mut spec = spec(Format::SingleElimination, players, 0, seed);
        spec.advance = advance;
        let people = entrants(n);
        let history = play(&spec, &people, by_rating, 100);
        let size = usize::from(players);
        let mut alive: BTreeSet<u32> = (1..=n).collect();
        for round in &history {
            check_round(&spec, &people, round).map_err(|e| TestCaseError::fail(e.to_string()))?;
            let here: BTreeSet<u32> = round.tables.iter().flat_map(|t| t.seats.iter()).chain(&round.byes).copied().collect();
            prop_assert_eq!(&here, &alive, "round {}: everyone still in plays or has a bye, nobody else", round.number);
            prop_assert!(round.byes.len() < size, "fewer byes than a table");
            let a = cut(size, usize::from(advance), round.tables.len(), round.byes.len());
            let mut next: BTreeSet<u32> = round.byes.iter().copied().collect();
            for (table, result) in round.tables.iter().zip(&round.results) {
                let result = result.clone().expect("played");
                // The best `a` places go on; shared places at the cut go to the better seed
                // (the lower id in these tests).
                let mut by_place: Vec<(u8, u32)> = table.seats.iter().zip(&result.places).map(|(&id, &p)| (p, id)).collect();
                by_place.sort();
                next.extend(by_place.iter().take(a).map(|&(_, id)| id));
            }
            let expected = round.tables.len() * a + round.byes.len();
            prop_assert_eq!(next.len(), expected);
            prop_assert!(next.len() >= size || next.len() == 1, "the final table is full: {} left", next.len());
            alive = next;
        }
        prop_assert_eq!(alive.len(), 1, "one winner");
        prop_assert_eq!(history.len() as u32, rounds_needed(&spec, n as usize));
        prop_assert!(is_finished(&spec, &people, &history));
        let table = standings(&spec, &people, &history);
        let winners: Vec<u32> = table.rows.iter().filter(|r| !r.eliminated).map(|r| r.entrant).collect();
        prop_assert_eq!(winners.iter().copied().collect::<BTreeSet<_>>(), alive);
        prop_assert_eq!(table.rows[0].entrant, winners[0]);
        // Those out in a later round are above those out earlier.
        let reached: Vec<u32> = table.rows.iter().map(|r| r.games + r.byes).collect();
        prop_assert!(reached.windows(2).all(|w| w[0] >= w[1]), "{:?}", reached);
    }
}

#[test]
fn round_one_spreads_the_strongest() {
    let spec = spec(Format::SingleElimination, 4, 0, 7);
    let round = gobeyond_tournament::pair_round(&spec, &entrants(16), &[]).unwrap();
    assert_eq!(round.tables.len(), 4);
    for (t, table) in round.tables.iter().enumerate() {
        let mut seats = table.seats.clone();
        seats.sort();
        // Snake seeding: table 1 has seeds 1, 8, 9, 16; table 2 has 2, 7, 10, 15; …
        let t = t as u32;
        assert_eq!(seats, vec![t + 1, 8 - t, 9 + t, 16 - t], "table {}", t + 1);
    }
}

#[test]
fn a_withdrawal_that_leaves_too_few_ends_it() {
    let spec = spec(Format::SingleElimination, 3, 0, 1);
    let mut people = entrants(3);
    people[2].withdrawn_after = Some(0);
    assert!(gobeyond_tournament::pair_round(&spec, &people, &[]).is_err());
}
