//! What earlier rounds say about each entrant: points, games, byes, who met whom, seats.
//! Pairing and standings both read it.

use std::collections::{BTreeMap, HashMap};

use crate::spec::{EntrantId, Round, Spec};

/// One entrant's record so far.
#[derive(Clone, Debug, Default)]
pub struct Record {
    pub points: f64,
    pub games: u32,
    pub byes: u32,
    /// Games played per seat (index 0 = first to move).
    pub seats: Vec<u32>,
    /// The seat of the last game, to alternate colours.
    pub last_seat: Option<usize>,
    /// Per table played: the tablemates and this entrant's place score against each
    /// (1 ahead, ½ level, 0 behind).
    pub encounters: Vec<Vec<(EntrantId, f64)>>,
}

/// Records of every entrant seen in the history, and how often each pair met.
#[derive(Clone, Debug, Default)]
pub struct History {
    pub records: BTreeMap<EntrantId, Record>,
    meets: HashMap<(EntrantId, EntrantId), u32>,
}

fn key(a: EntrantId, b: EntrantId) -> (EntrantId, EntrantId) {
    if a < b { (a, b) } else { (b, a) }
}

impl History {
    /// Reads every finished table, bye and absence of `rounds`.
    pub fn read(spec: &Spec, rounds: &[Round]) -> History {
        let mut history = History::default();
        let last = spec.place_points().last().copied().unwrap_or(0.0);
        for round in rounds {
            for (table, result) in round.tables.iter().zip(&round.results) {
                for (i, &a) in table.seats.iter().enumerate() {
                    for &b in &table.seats[i + 1..] {
                        *history.meets.entry(key(a, b)).or_default() += 1;
                    }
                }
                let Some(result) = result else { continue };
                for (seat, &id) in table.seats.iter().enumerate() {
                    let place = result.places.get(seat).copied().unwrap_or(u8::MAX);
                    let encounters = table
                        .seats
                        .iter()
                        .zip(&result.places)
                        .filter(|&(&other, _)| other != id)
                        .map(|(&other, &theirs)| (other, versus(place, theirs)))
                        .collect();
                    let record = history.records.entry(id).or_default();
                    record.points += spec.points_for(&result.places, seat);
                    record.games += 1;
                    if record.seats.len() <= seat {
                        record.seats.resize(seat + 1, 0);
                    }
                    record.seats[seat] += 1;
                    record.last_seat = Some(seat);
                    record.encounters.push(encounters);
                }
            }
            for &id in &round.byes {
                let record = history.records.entry(id).or_default();
                record.points += spec.bye_points();
                record.byes += 1;
            }
            for &id in &round.absent {
                history.records.entry(id).or_default().points += last;
            }
        }
        history
    }

    /// How often `a` and `b` sat at the same table (scheduled tables count, finished or not).
    pub fn met(&self, a: EntrantId, b: EntrantId) -> u32 {
        self.meets.get(&key(a, b)).copied().unwrap_or(0)
    }

    pub fn points(&self, id: EntrantId) -> f64 {
        self.records.get(&id).map_or(0.0, |r| r.points)
    }

    pub fn byes(&self, id: EntrantId) -> u32 {
        self.records.get(&id).map_or(0, |r| r.byes)
    }

    /// Games `id` played in `seat`.
    pub fn seat_count(&self, id: EntrantId, seat: usize) -> u32 {
        self.records.get(&id).and_then(|r| r.seats.get(seat).copied()).unwrap_or(0)
    }
}

/// The place score of a place against another (lower place = ahead).
fn versus(mine: u8, theirs: u8) -> f64 {
    match mine.cmp(&theirs) {
        std::cmp::Ordering::Less => 1.0,
        std::cmp::Ordering::Equal => 0.5,
        std::cmp::Ordering::Greater => 0.0,
    }
}
