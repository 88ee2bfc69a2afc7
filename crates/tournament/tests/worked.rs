//! Worked examples (docs/tournaments.md): schedules, brackets and a tie-break with its words.

mod common;

use common::{entrants, play, spec};
use gobeyond_tournament::{
    Format, PairingError, Round, Table, TableResult, check_round, is_finished, pair_round, standings,
};

fn pairs(round: &Round) -> Vec<[u32; 2]> {
    let mut pairs: Vec<[u32; 2]> = round
        .tables
        .iter()
        .map(|t| {
            let mut p = [t.seats[0], t.seats[1]];
            p.sort();
            p
        })
        .collect();
    pairs.sort();
    pairs
}

#[test]
fn four_player_round_robin_schedule() {
    let spec = spec(Format::RoundRobin, 2, 0, 1);
    let history = play(&spec, &entrants(4), true, 10);
    let schedule: Vec<_> = history.iter().map(pairs).collect();
    assert_eq!(schedule, vec![vec![[1, 4], [2, 3]], vec![[1, 3], [2, 4]], vec![[1, 2], [3, 4]]]);
    assert!(is_finished(&spec, &entrants(4), &history));
    for id in 1..=4 {
        let black = history.iter().flat_map(|r| &r.tables).filter(|t| t.seats[0] == id).count();
        assert!((1..=2).contains(&black), "entrant {id} had {black} blacks of 3");
    }
    let table = standings(&spec, &entrants(4), &history);
    let points: Vec<f64> = table.rows.iter().map(|r| r.points).collect();
    assert_eq!(points, vec![3.0, 2.0, 1.0, 0.0]);
}

fn played(number: u32, games: &[(u32, u32)]) -> Round {
    Round {
        number,
        tables: games.iter().map(|&(w, l)| Table { seats: vec![w, l] }).collect(),
        results: games
            .iter()
            .map(|_| Some(TableResult { places: vec![1, 2], forfeit: vec![false, false] }))
            .collect(),
        byes: Vec::new(),
        absent: Vec::new(),
    }
}

#[test]
fn swiss_tie_decided_by_sos_with_the_words() {
    let spec = spec(Format::Swiss, 2, 3, 1);
    // 1 beats 2 and 3; 3 beats 4; 4 beats 2: 3 and 4 both have 1 point, 3 met the stronger.
    let history = vec![played(1, &[(1, 2), (3, 4)]), played(2, &[(1, 3), (4, 2)])];
    let table = standings(&spec, &entrants(4), &history);
    let order: Vec<u32> = table.rows.iter().map(|r| r.entrant).collect();
    assert_eq!(order, vec![1, 3, 4, 2]);
    assert_eq!(
        table.rows[1].why.as_deref(),
        Some("tied on 1 point with entrant 4: ahead on SOS (opponents' points) 3 to 1")
    );
    assert_eq!(table.rows[0].why, None);
    let places: Vec<u32> = table.rows.iter().map(|r| r.place).collect();
    assert_eq!(places, vec![1, 2, 3, 4]);
    // Round 3 pairs the leaders' neighbours without repeats: 1–4 and 3–2.
    let next = pair_round(&spec, &entrants(4), &history).expect("round 3");
    assert_eq!(pairs(&next), vec![[1, 4], [2, 3]]);
}

#[test]
fn eight_entrant_single_elimination_bracket() {
    let spec = spec(Format::SingleElimination, 2, 0, 1);
    let history = play(&spec, &entrants(8), true, 10);
    let rounds: Vec<_> = history.iter().map(pairs).collect();
    assert_eq!(rounds, vec![vec![[1, 8], [2, 7], [3, 6], [4, 5]], vec![[1, 4], [2, 3]], vec![[1, 2]],]);
    assert!(is_finished(&spec, &entrants(8), &history));
    let table = standings(&spec, &entrants(8), &history);
    assert_eq!(table.rows[0].entrant, 1);
    assert!(!table.rows[0].eliminated);
    assert!(table.rows[1..].iter().all(|r| r.eliminated));
}

#[test]
fn six_entrant_elimination_gives_the_top_seeds_byes() {
    let spec = spec(Format::SingleElimination, 2, 0, 1);
    let history = play(&spec, &entrants(6), true, 10);
    assert_eq!(pairs(&history[0]), vec![[3, 6], [4, 5]]);
    assert_eq!(history[0].byes, vec![1, 2]);
    assert_eq!(pairs(&history[1]), vec![[1, 4], [2, 3]]);
    assert_eq!(pairs(&history[2]), vec![[1, 2]]);
    assert_eq!(history.len(), 3);
}

#[test]
fn bad_rounds_are_refused_with_reasons() {
    let spec = spec(Format::Swiss, 2, 3, 1);
    let people = entrants(4);
    let mut round = played(1, &[(1, 2), (1, 3)]);
    let err = check_round(&spec, &people, &round).expect_err("twice");
    assert_eq!(err.to_string(), "bad round: entrant 1 appears twice in round 1");
    round = played(1, &[(1, 9)]);
    let err = check_round(&spec, &people, &round).expect_err("unknown");
    assert_eq!(err.to_string(), "bad round: entrant 9 is not in this tournament");
    round = played(1, &[(1, 2)]);
    round.tables[0].seats.push(3);
    let err = check_round(&spec, &people, &round).expect_err("size");
    assert_eq!(err.to_string(), "bad round: table 1 has 3 players, the games are for 2");
    let mut gone = entrants(4);
    gone[1].withdrawn_after = Some(1);
    round = played(2, &[(1, 2)]);
    let err = check_round(&spec, &gone, &round).expect_err("withdrawn");
    assert_eq!(err.to_string(), "bad round: entrant 2 withdrew after round 1");
    round = played(1, &[(1, 2)]);
    round.results[0] = Some(TableResult { places: vec![1, 3], forfeit: vec![false, false] });
    let err = check_round(&spec, &people, &round).expect_err("place");
    assert_eq!(err.to_string(), "bad round: table 1 has place 3, places run from 1 to 2");
}

#[test]
fn unfinished_rounds_and_bad_specs_are_refused() {
    let spec2 = spec(Format::Swiss, 2, 3, 1);
    let mut round = pair_round(&spec2, &entrants(4), &[]).expect("round 1");
    round.results[0] = None;
    assert_eq!(pair_round(&spec2, &entrants(4), &[round]), Err(PairingError::RoundNotFinished(1)));
    let nine = spec(Format::Swiss, 9, 3, 1);
    assert!(matches!(pair_round(&nine, &entrants(20), &[]), Err(PairingError::BadSpec(_))));
    let no_rounds = spec(Format::Swiss, 2, 0, 1);
    assert!(matches!(
        pair_round(&no_rounds, &entrants(4), &[]),
        Err(PairingError::Finished | PairingError::BadSpec(_))
    ));
    let few = spec(Format::Swiss, 4, 3, 1);
    assert_eq!(
        pair_round(&few, &entrants(3), &[]),
        Err(PairingError::TooFewEntrants { active: 3, needed: 4 })
    );
}

#[test]
fn shared_places_share_points() {
    let spec = spec(Format::RoundRobin, 3, 0, 1);
    // Two tied for first of three share (2 + 1) / 2.
    assert_eq!(spec.points_for(&[1, 1, 3], 0), 1.5);
    assert_eq!(spec.points_for(&[1, 1, 3], 2), 0.0);
    assert_eq!(spec.bye_points(), 1.0);
    assert_eq!(common::spec(Format::Swiss, 2, 1, 1).bye_points(), 0.0);
}

#[test]
fn four_entrant_double_elimination() {
    let spec = spec(Format::DoubleElimination, 2, 0, 1);
    // The better rated always wins: 1 beats everyone, 2 loses only to 1, and so on.
    let history = play(&spec, &entrants(4), true, 20);
    let rounds: Vec<_> = history.iter().map(pairs).collect();
    assert_eq!(
        rounds,
        vec![
            vec![[1, 4], [2, 3]], // winners' bracket
            vec![[1, 2], [3, 4]], // winners' final; losers' bracket: 4 out
            vec![[2, 3]],         // losers' final: 3 out, 1 waits
            vec![[1, 2]],         // the final: 2 out
        ]
    );
    assert_eq!(history[2].byes, vec![1]);
    assert!(is_finished(&spec, &entrants(4), &history));
    let order: Vec<u32> = standings(&spec, &entrants(4), &history).rows.iter().map(|r| r.entrant).collect();
    assert_eq!(order, vec![1, 2, 3, 4]);
}

/// The server and the web client name the format `mcmahon`: a spec they write is read, and the
/// library writes the same name back (the older `mc_mahon` is still read).
#[test]
fn mcmahon_is_named_as_the_server_names_it() {
    use gobeyond_tournament::{Format, TieBreak};
    let format: Format = serde_json::from_str("\"mcmahon\"").expect("the server's name");
    assert_eq!(format, Format::McMahon);
    assert_eq!(serde_json::to_string(&format).expect("written"), "\"mcmahon\"");
    let old: Format = serde_json::from_str("\"mc_mahon\"").expect("the older name");
    assert_eq!(old, Format::McMahon);
    assert_eq!(serde_json::to_string(&TieBreak::McMahonScore).expect("written"), "\"mcmahon_score\"");
}
