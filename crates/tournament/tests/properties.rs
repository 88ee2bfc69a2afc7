//! Properties of every format (docs/tournaments.md): 2–5 players per game, 3–64 entrants,
//! byes, withdrawals and late entries. Case counts stay small: CI runs on a busy 2-core machine.

mod common;

use std::collections::{BTreeMap, HashMap};

use common::{entrants, play, spec};
use gobeyond_tournament::{
    Entrant, Format, Round, Spec, arena_tables, check_round, history::History, pair_round, standings,
};
use proptest::prelude::*;

fn config() -> ProptestConfig {
    ProptestConfig { cases: 24, ..ProptestConfig::default() }
}

/// Checks every round, determinism and points conservation; returns the history.
fn checked(spec: &Spec, people: &[Entrant], limit: u32) -> Result<Vec<Round>, TestCaseError> {
    let history = play(spec, people, false, limit);
    for (i, round) in history.iter().enumerate() {
        check_round(spec, people, round).map_err(|e| TestCaseError::fail(e.to_string()))?;
        let again =
            pair_round(spec, people, &history[..i]).map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert_eq!(&again.tables, &round.tables, "not deterministic for a seed");
        prop_assert_eq!(&again.byes, &round.byes);
        // Everyone active is either seated or has a bye (N-player tables leave n mod N out).
        let active = people.iter().filter(|e| e.active_in(round.number)).count();
        let seated = round.tables.len() * spec.players() + round.byes.len();
        if !matches!(spec.format, Format::SingleElimination | Format::DoubleElimination) {
            prop_assert_eq!(seated, active, "everyone active is seated or has a bye");
        }
    }
    let given: f64 = history
        .iter()
        .map(|r| {
            let tables: f64 = r
                .tables
                .iter()
                .zip(&r.results)
                .flat_map(|(t, res)| {
                    let res = res.clone().expect("played");
                    (0..t.seats.len()).map(move |s| spec.points_for(&res.places, s))
                })
                .sum();
            tables + r.byes.len() as f64 * spec.bye_points()
        })
        .sum();
    let total: f64 = standings(spec, people, &history).rows.iter().map(|r| r.points).sum();
    prop_assert!((given - total).abs() < 1e-9, "points given {} but standings sum {}", given, total);
    Ok(history)
}

fn meets(history: &[Round]) -> HashMap<(u32, u32), u32> {
    let mut meets = HashMap::new();
    for t in history.iter().flat_map(|r| &r.tables) {
        for (i, &a) in t.seats.iter().enumerate() {
            for &b in &t.seats[i + 1..] {
                *meets.entry((a.min(b), a.max(b))).or_insert(0) += 1;
            }
        }
    }
    meets
}

fn byes(history: &[Round]) -> BTreeMap<u32, u32> {
    let mut byes = BTreeMap::new();
    for &id in history.iter().flat_map(|r| &r.byes) {
        *byes.entry(id).or_insert(0) += 1;
    }
    byes
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn two_player_round_robin_meets_everyone_once(n in 3u32..=24, seed: u64) {
        let spec = spec(Format::RoundRobin, 2, 0, seed);
        let history = checked(&spec, &entrants(n), 100)?;
        prop_assert_eq!(history.len() as u32, n + n % 2 - 1);
        let meets = meets(&history);
        prop_assert_eq!(meets.len() as u32, n * (n - 1) / 2, "every pair meets");
        prop_assert!(meets.values().all(|&m| m == 1));
        prop_assert!(byes(&history).values().all(|&b| b == 1) && (n % 2 == 1 || byes(&history).is_empty()));
        let past = History::read(&spec, &history);
        for id in 1..=n {
            let (black, white) = (past.seat_count(id, 0), past.seat_count(id, 1));
            prop_assert!(black.abs_diff(white) <= 1, "entrant {} had {} blacks, {} whites", id, black, white);
        }
    }

    #[test]
    fn n_player_round_robin_is_balanced(players in 3u8..=5, n in 3u32..=40, seed: u64) {
        prop_assume!(n >= u32::from(players));
        let spec = spec(Format::RoundRobin, players, 0, seed);
        let history = checked(&spec, &entrants(n), 100)?;
        let byes = byes(&history);
        let most = byes.values().max().copied().unwrap_or(0);
        let fewest = (1..=n).map(|id| byes.get(&id).copied().unwrap_or(0)).min().unwrap_or(0);
        prop_assert!(most - fewest <= 1, "byes spread {}..{}", fewest, most);
        let past = History::read(&spec, &history);
        for id in 1..=n {
            let seats: Vec<u32> = (0..usize::from(players)).map(|s| past.seat_count(id, s)).collect();
            let spread = seats.iter().max().copied().unwrap_or(0) - seats.iter().min().copied().unwrap_or(0);
            prop_assert!(spread <= 3, "entrant {} sat {:?}", id, seats);
        }
    }

    #[test]
    fn swiss_avoids_repeats_and_second_byes(players in 2u8..=5, n in 3u32..=64, rounds in 1u32..=6, seed: u64, withdraw in 0u32..=3, late in 0u32..=3) {
        prop_assume!(n >= u32::from(players) + withdraw + late);
        let spec = spec(Format::Swiss, players, rounds, seed);
        let mut people = entrants(n);
        for e in people.iter_mut().take(withdraw as usize) {
            e.withdrawn_after = Some(1 + e.id % 2);
        }
        for e in people.iter_mut().rev().take(late as usize) {
            e.joined_round = 2;
        }
        let history = checked(&spec, &people, 100)?;
        prop_assert_eq!(history.len() as u32, rounds);
        let steady = n - withdraw - late;
        // Byes at most once while someone steady has none.
        let total_byes: u32 = byes(&history).values().sum();
        if total_byes <= steady {
            prop_assert!(byes(&history).values().all(|&b| b <= 1), "byes {:?}", byes(&history));
        }
        // Two players: no repeat while a perfect pairing without one must exist (Dirac).
        if players == 2 && 2 * rounds + 2 <= steady {
            prop_assert!(meets(&history).values().all(|&m| m == 1), "a pair met twice");
        }
        let past = History::read(&spec, &history);
        for e in &people {
            let seats: Vec<u32> = (0..usize::from(players)).map(|s| past.seat_count(e.id, s)).collect();
            let spread = seats.iter().max().copied().unwrap_or(0) - seats.iter().min().copied().unwrap_or(0);
            // Two players: colours within one when there are enough entrants that pairings
            // need not repeat (then the pairing can always match a Black-heavy entrant with a
            // White-heavy one); with fewer, two. N players: seats within one mostly, but the
            // tables are chosen for fresh tablemates first, so now and then three
            // (docs/tournaments.md, "Seats and colours"). A withdrawal can leave more
            // Black-heavy than White-heavy entrants (proptest found 48 entrants, one withdrawn
            // after round 1 and the bye to a White-heavy one: two Black-heavy ones must meet),
            // so within one is asserted without withdrawals only. Late entries unbalance them
            // the same way (proptest found 63 entrants, two joining in round 2: an entrant sat
            // one Black and three Whites over four rounds), so without late entries too.
            let bound = match players {
                2 if 2 * rounds + 2 <= steady && withdraw == 0 && late == 0 => 1,
                2 => 2,
                _ => 3,
            };
            prop_assert!(spread <= bound, "entrant {} sat {:?}", e.id, seats);
        }
    }

    #[test]
    fn mcmahon_pairs_by_start_and_points(players in 2u8..=4, n in 4u32..=40, seed: u64) {
        prop_assume!(n >= u32::from(players));
        let mut spec = spec(Format::McMahon, players, 4, seed);
        spec.mcmahon_bar = Some(2);
        let mut people = entrants(n);
        for e in &mut people {
            e.mcmahon_start = 3 - (e.id as i32 % 5);
        }
        people[0].bye_requested = vec![2];
        let history = checked(&spec, &people, 100)?;
        prop_assert!(history[1].byes.contains(&1), "a requested bye is granted");
        let table = standings(&spec, &people, &history);
        prop_assert_eq!(table.tie_breaks[0], gobeyond_tournament::TieBreak::McMahonScore);
    }

    #[test]
    fn single_elimination_ends_with_one_champion(n in 3u32..=64, seed: u64) {
        let spec = spec(Format::SingleElimination, 2, 0, seed);
        let people = entrants(n);
        let history = checked(&spec, &people, 100)?;
        prop_assert_eq!(history.len() as u32, gobeyond_tournament::rounds_needed(&spec, n as usize));
        prop_assert!(gobeyond_tournament::is_finished(&spec, &people, &history));
        let table = standings(&spec, &people, &history);
        prop_assert_eq!(table.rows.iter().filter(|r| !r.eliminated).count(), 1);
        prop_assert!(byes(&history).values().all(|&b| b <= 1));
    }

    #[test]
    fn double_elimination_ends_with_one_entrant_beaten_at_most_once(n in 3u32..=40, seed: u64) {
        let spec = spec(Format::DoubleElimination, 2, 0, seed);
        let people = entrants(n);
        let history = checked(&spec, &people, 200)?;
        prop_assert!(gobeyond_tournament::is_finished(&spec, &people, &history));
        let losses = gobeyond_tournament::double_elimination::losses(&spec, &people, &history);
        let champions: Vec<_> = losses.iter().filter(|&(_, &l)| l < 2).collect();
        prop_assert_eq!(champions.len(), 1, "losses {:?}", losses);
        prop_assert!(losses.values().all(|&l| l <= 2));
        let table = standings(&spec, &people, &history);
        prop_assert_eq!(table.rows.iter().filter(|r| !r.eliminated).count(), 1);
        prop_assert_eq!(table.rows[0].entrant, *champions[0].0);
    }

    #[test]
    fn arena_tables_come_from_the_waiting(players in 2u8..=5, n in 3u32..=40, waiting in proptest::collection::vec(1u32..=50, 0..40), seed: u64) {
        let spec = spec(Format::Arena, players, 0, seed);
        let people = entrants(n);
        let tables = arena_tables(&spec, &waiting, &people, &[]);
        let mut seen = Vec::new();
        for t in &tables {
            prop_assert_eq!(t.seats.len(), usize::from(players));
            for id in &t.seats {
                prop_assert!(waiting.contains(id) && *id <= n && !seen.contains(id));
                seen.push(*id);
            }
        }
    }
}
