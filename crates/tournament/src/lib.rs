//! Tournament pairing for GoBeyond (docs/tournaments.md): round robin, Swiss and McMahon,
//! single elimination, arena — for two and N players per game — with standings, tie-breaks
//! explained in plain words, and a check that refuses bad rounds. Pure: the server and the lab
//! keep the state and call these functions with the whole history.

pub mod arena;
pub mod double_elimination;
pub mod elimination;
pub mod elimination_many;
pub mod error;
pub mod history;
pub mod mcmahon;
pub mod round_robin;
pub mod spec;
pub mod standings;
pub mod swiss;
mod tables;
pub mod tiebreak;

use std::collections::HashSet;

pub use error::PairingError;
pub use mcmahon::mcmahon_start;
pub use spec::{Entrant, EntrantId, Format, Round, Spec, Table, TableResult};
pub use standings::{StandingRow, Standings, standings, standings_named};
pub use tiebreak::TieBreak;

/// Rounds the format needs for `entrants`: Swiss, McMahon and arena use `Spec::rounds`; round
/// robin and elimination compute it when `Spec::rounds` is 0.
pub fn rounds_needed(spec: &Spec, entrants: usize) -> u32 {
    match spec.format {
        Format::Swiss | Format::McMahon | Format::Arena => spec.rounds,
        _ if spec.rounds > 0 => spec.rounds,
        Format::RoundRobin => round_robin::rounds_needed(spec.players(), entrants),
        Format::SingleElimination if spec.players() == 2 => elimination::rounds_needed(entrants),
        Format::SingleElimination => elimination_many::rounds_needed(spec, entrants),
        // An estimate (for progress): the losers' bracket takes about twice as long, plus the final.
        Format::DoubleElimination => 2 * elimination::rounds_needed(entrants) + 1,
    }
}

/// The next round (number = history.len() + 1), from the standings so far; deterministic for a
/// seed. Err(Finished) when the format has no more rounds; entrants not active this round are
/// left out.
pub fn pair_round(spec: &Spec, entrants: &[Entrant], history: &[Round]) -> Result<Round, PairingError> {
    spec.validate()?;
    if let Some(last) = history.last()
        && !last.is_complete()
    {
        return Err(PairingError::RoundNotFinished(last.number));
    }
    let number = history.len() as u32 + 1;
    let seeded = entrants.iter().filter(|e| e.joined_round <= 1).count();
    let needed = rounds_needed(spec, seeded);
    let knockout = matches!(spec.format, Format::SingleElimination | Format::DoubleElimination);
    if !knockout && number > needed {
        return Err(PairingError::Finished);
    }
    if matches!(spec.format, Format::Swiss | Format::McMahon) && spec.rounds == 0 {
        return Err(PairingError::BadSpec("Swiss and McMahon need a number of rounds".into()));
    }
    let active = entrants.iter().filter(|e| e.active_in(number)).count();
    if active < spec.players() {
        return Err(PairingError::TooFewEntrants { active, needed: spec.players() });
    }
    match spec.format {
        Format::RoundRobin if spec.players() == 2 => Ok(round_robin::pair_two(entrants, number)),
        Format::RoundRobin => Ok(round_robin::pair_many(spec, entrants, history, number)),
        Format::Swiss | Format::McMahon => Ok(swiss::pair(spec, entrants, history, number)),
        Format::SingleElimination => elimination::pair(spec, entrants, history, number),
        Format::DoubleElimination if spec.players() != 2 => {
            Err(PairingError::NotYet("double elimination with more than two players per game".into()))
        }
        Format::DoubleElimination => {
            double_elimination::pair(spec, entrants, history, number).ok_or(PairingError::Finished)
        }
        Format::Arena => Err(PairingError::BadSpec(
            "an arena has no rounds: tables form from the lobby (arena_tables)".into(),
        )),
    }
}

/// Arena: tables formed from the entrants waiting in the lobby now, avoiding repeat opponents;
/// those who do not fill a table keep waiting.
pub fn arena_tables(
    spec: &Spec,
    waiting: &[EntrantId],
    entrants: &[Entrant],
    history: &[Round],
) -> Vec<Table> {
    arena::tables(spec, waiting, entrants, history)
}

/// Refuses a round with the reason: a player in two tables, an unknown, withdrawn or not yet
/// joined entrant, a table of the wrong size, results that do not fit their table.
pub fn check_round(spec: &Spec, entrants: &[Entrant], round: &Round) -> Result<(), PairingError> {
    spec.validate()?;
    let bad = |why: String| Err(PairingError::BadRound(why));
    let n = round.number;
    let mut seen = HashSet::new();
    let listed = round.tables.iter().flat_map(|t| &t.seats).chain(&round.byes).chain(&round.absent);
    for &id in listed {
        let Some(entrant) = entrants.iter().find(|e| e.id == id) else {
            return bad(format!("entrant {id} is not in this tournament"));
        };
        if entrant.joined_round > n {
            return bad(format!("entrant {id} joins in round {}, not before", entrant.joined_round));
        }
        if let Some(last) = entrant.withdrawn_after.filter(|&last| n > last) {
            return bad(format!("entrant {id} withdrew after round {last}"));
        }
        if !seen.insert(id) {
            return bad(format!("entrant {id} appears twice in round {n}"));
        }
    }
    for (i, table) in round.tables.iter().enumerate() {
        if table.seats.len() != spec.players() {
            return bad(format!(
                "table {} has {} players, the games are for {}",
                i + 1,
                table.seats.len(),
                spec.players()
            ));
        }
    }
    if round.results.len() != round.tables.len() {
        return bad(format!("{} results for {} tables", round.results.len(), round.tables.len()));
    }
    for (i, result) in round.results.iter().enumerate() {
        let Some(result) = result else { continue };
        let seats = spec.players();
        if result.places.len() != seats || result.forfeit.len() != seats {
            return bad(format!("table {}'s result needs a place and a forfeit flag per seat", i + 1));
        }
        if let Some(p) = result.places.iter().find(|&&p| p == 0 || usize::from(p) > seats) {
            return bad(format!("table {} has place {p}, places run from 1 to {seats}", i + 1));
        }
    }
    Ok(())
}

/// Whether every round is played and the format has no more.
pub fn is_finished(spec: &Spec, entrants: &[Entrant], history: &[Round]) -> bool {
    history.iter().all(Round::is_complete)
        && !history.is_empty()
        && matches!(pair_round(spec, entrants, history), Err(PairingError::Finished))
}
