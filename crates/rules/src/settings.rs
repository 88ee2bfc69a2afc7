//! Settings shared by the rule systems that play on the Go board: ko and scoring.

use serde::{Deserialize, Serialize};

pub use crate::board::SuicideRule;

/// Which repetitions are forbidden.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, strum::VariantNames)]
#[strum(serialize_all = "snake_case")]
#[serde(rename_all = "snake_case")]
pub enum KoRule {
    /// A lone stone may not immediately retake a lone stone (the basic ko).
    Simple,
    /// No move may recreate an earlier board position.
    PositionalSuperko,
    /// No move may recreate an earlier board position with the same player to move.
    SituationalSuperko,
    /// No repetition check at all.
    None,
}

/// How a finished game is counted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, strum::VariantNames)]
#[strum(serialize_all = "snake_case")]
#[serde(rename_all = "snake_case")]
pub enum Scoring {
    /// Stones on the board plus empty regions bordered by one player only.
    Area,
    /// Empty regions bordered by one player only plus prisoners (stones captured, dead stones).
    Territory,
    /// Stones on the board only (the oldest form of counting; Gengo's).
    Stones,
}
