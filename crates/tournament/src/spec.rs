//! The shapes shared with the server (docs/tournaments.md, "Formats"): the spec, entrants,
//! tables, results and rounds, and how places turn into points.

use serde::{Deserialize, Serialize};

use crate::error::PairingError;

/// The server's entrant id (not an index).
pub type EntrantId = u32;

#[derive(Serialize, Deserialize, Clone, Copy, PartialEq, Eq, Debug)]
#[serde(rename_all = "snake_case")]
pub enum Format {
    RoundRobin,
    Swiss,
    /// Written `mcmahon` as the server and the web client name it (`mc_mahon` still read).
    #[serde(rename = "mcmahon", alias = "mc_mahon")]
    McMahon,
    SingleElimination,
    DoubleElimination,
    Arena,
}

#[derive(Serialize, Deserialize, Clone, Debug)]
pub struct Spec {
    pub format: Format,
    /// 2..=8.
    pub players_per_game: u8,
    /// Swiss/McMahon/arena: as given; round robin / elimination: 0 = as many as the format needs.
    pub rounds: u32,
    /// Points by place, index 0 = 1st; empty = the default N-1 … 0.
    pub points: Vec<f64>,
    /// Elimination with N players: the top k of each table advance (0 is read as 1).
    pub advance: u8,
    /// McMahon: bands above the bar all start at the bar's score.
    pub mcmahon_bar: Option<i32>,
    /// Breaks ties in pairing, reproducibly.
    pub seed: u64,
}

#[derive(Serialize, Deserialize, Clone, Debug)]
pub struct Entrant {
    pub id: EntrantId,
    /// For seeding and rank bands.
    pub rating: f64,
    /// McMahon only: starting score from the rank band (the server computes it).
    pub mcmahon_start: i32,
    /// 1 = from the start; late entries join later (Swiss, arena).
    pub joined_round: u32,
    /// Not paired in rounds after this one.
    pub withdrawn_after: Option<u32>,
    /// Rounds for which the entrant asked for a bye.
    pub bye_requested: Vec<u32>,
}

impl Entrant {
    /// An entrant from the start with nothing special (tests and the lab).
    pub fn new(id: EntrantId, rating: f64) -> Self {
        Entrant {
            id,
            rating,
            mcmahon_start: 0,
            joined_round: 1,
            withdrawn_after: None,
            bye_requested: Vec::new(),
        }
    }

    /// Whether the entrant may be paired in `round`.
    pub fn active_in(&self, round: u32) -> bool {
        self.joined_round <= round && self.withdrawn_after.is_none_or(|last| round <= last)
    }
}

/// Seats in turn order; seat 0 moves first (Black).
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct Table {
    pub seats: Vec<EntrantId>,
}

#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct TableResult {
    /// Per seat, 1 = first; equal places are shared (draws, jigo).
    pub places: Vec<u8>,
    /// Per seat: lost by absence (no game played by that seat).
    pub forfeit: Vec<bool>,
}

#[derive(Serialize, Deserialize, Clone, Debug, Default, PartialEq)]
pub struct Round {
    /// 1-based.
    pub number: u32,
    pub tables: Vec<Table>,
    /// Per table; None = not finished.
    pub results: Vec<Option<TableResult>>,
    /// Given a bye this round (scored as [`Spec::bye_points`]).
    pub byes: Vec<EntrantId>,
    /// Forfeited this round by absence (scored as last place).
    pub absent: Vec<EntrantId>,
}

impl Round {
    pub fn is_complete(&self) -> bool {
        self.results.len() == self.tables.len() && self.results.iter().all(Option::is_some)
    }
}

impl Spec {
    pub fn players(&self) -> usize {
        usize::from(self.players_per_game)
    }

    /// The top k of a table that advance in elimination.
    pub fn advancing(&self) -> usize {
        usize::from(self.advance.max(1))
    }

    /// Points for each place, 1st first: `Spec::points` or the default N-1 … 0.
    pub fn place_points(&self) -> Vec<f64> {
        if self.points.is_empty() {
            (0..self.players()).rev().map(|p| p as f64).collect()
        } else {
            self.points.clone()
        }
    }

    /// Points of a bye: the mean of the places' points, rounded down (docs/tournaments.md,
    /// "Byes"): 0 with two players, 1 with three or four with the default points.
    pub fn bye_points(&self) -> f64 {
        let points = self.place_points();
        if points.is_empty() {
            return 0.0;
        }
        (points.iter().sum::<f64>() / points.len() as f64).floor()
    }

    /// Points of a seat given the places of the table: shared places share the points of the
    /// places they cover (two players tied for 1st of 3 get (2+1)/2 each).
    pub fn points_for(&self, places: &[u8], seat: usize) -> f64 {
        let table = self.place_points();
        let Some(&place) = places.get(seat) else {
            return 0.0;
        };
        let first = usize::from(place.max(1)) - 1;
        let sharing = places.iter().filter(|&&p| p == place).count().max(1);
        let covered: f64 = (first..first + sharing).map(|i| table.get(i).copied().unwrap_or(0.0)).sum();
        covered / sharing as f64
    }

    /// Refuses settings the library cannot pair, with the reason.
    pub fn validate(&self) -> Result<(), PairingError> {
        let n = self.players();
        if !(2..=8).contains(&n) {
            return Err(PairingError::BadSpec(format!("players per game must be 2 to 8, not {n}")));
        }
        if !self.points.is_empty() && self.points.len() != n {
            return Err(PairingError::BadSpec(format!(
                "points by place need one value per place ({n}), not {}",
                self.points.len()
            )));
        }
        if self.points.iter().any(|p| !p.is_finite()) {
            return Err(PairingError::BadSpec("points by place must be numbers".into()));
        }
        if self.advancing() >= n {
            return Err(PairingError::BadSpec(format!(
                "advance must be fewer than the players per game ({n}), not {}",
                self.advance
            )));
        }
        Ok(())
    }
}

/// A reproducible mix of the seed, the round and an entrant: breaks ties without a random
/// number generator dependency (splitmix64).
pub(crate) fn tie_hash(seed: u64, round: u32, id: EntrantId) -> u64 {
    let mut z = seed ^ (u64::from(round) << 32) ^ u64::from(id);
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}
