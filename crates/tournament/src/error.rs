//! Why a round could not be paired or was refused.

use thiserror::Error;

#[derive(Debug, Error, Clone, PartialEq)]
pub enum PairingError {
    /// The format has no more rounds.
    #[error("the tournament is finished: no more rounds to pair")]
    Finished,
    /// A format (or a combination) the library does not pair yet.
    #[error("not supported yet: {0}")]
    NotYet(String),
    /// The spec itself is wrong (players per game, points, advance…).
    #[error("bad tournament settings: {0}")]
    BadSpec(String),
    /// Fewer active entrants than one table needs.
    #[error("too few entrants: {active} can play this round, a table needs {needed}")]
    TooFewEntrants { active: usize, needed: usize },
    /// The previous round has tables without results.
    #[error("round {0} is not finished yet")]
    RoundNotFinished(u32),
    /// A round refused by `check_round`.
    #[error("bad round: {0}")]
    BadRound(String),
}
