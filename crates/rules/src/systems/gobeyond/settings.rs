//! GoBeyond's settings: every number the rules document gives "e.g." is adjustable per game.

use serde::{Deserialize, Serialize};

use crate::MAX_PLAYERS;

/// The settings of a GoBeyond game. Missing fields in JSON take the document's defaults.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct GoBeyondRules {
    /// PlayPoints every player starts with.
    pub starting_points: i64,
    /// Extra starting PlayPoints per seat (turn order), for handicap games; missing seats get 0.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub handicap: Vec<i64>,
    /// Price of occupying a node.
    pub occupy_cost: i64,
    /// Award per captured stone, to the capturer.
    pub capture_award: i64,
    /// Income per claimed node at the start of the claimant's turn.
    pub claim_income: i64,
    /// Award per surrendered stone, to the player who claims its node after Clean-Up.
    pub surrender_award: i64,
    /// Final bonus per claimed node.
    pub final_bonus: i64,
    /// Tie-break komi per turn position (first player: position 1).
    pub tie_break: f64,
    /// Seconds per turn; a turn that runs out is a Skip. 0: no limit.
    pub turn_seconds: u32,
    /// Seconds each player has to submit Clean-Up surrenders; running out surrenders nothing.
    /// 0: no limit.
    pub cleanup_seconds: u32,
    /// Consecutive passes that end play; `None`: the document's N + 1 for N players.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub passes_to_end: Option<u32>,
    /// A player whose turn runs out this many times in a row resigns (an addition to the
    /// document: a player who left would otherwise keep the game going for ever). 0: never.
    /// Records made before this setting existed read as 0, so that they replay as played.
    #[serde(default)]
    pub timeouts_to_resign: u32,
    /// Play ends (and Clean-Up begins) once this many turns have started (an addition to the
    /// document, so that every game ends). 0: no limit; older records read as 0.
    #[serde(default)]
    pub turn_limit: u32,
}

impl Default for GoBeyondRules {
    fn default() -> Self {
        GoBeyondRules {
            starting_points: 200,
            handicap: Vec::new(),
            occupy_cost: 10,
            capture_award: 10,
            claim_income: 1,
            surrender_award: 10,
            final_bonus: 10,
            tie_break: 0.1,
            turn_seconds: 20,
            cleanup_seconds: 60,
            passes_to_end: None,
            timeouts_to_resign: 3,
            turn_limit: 1000,
        }
    }
}

/// The largest PlayPoint amount a setting may hold: with at most 65,536 nodes and a few
/// thousand turns, sums stay far inside i64 (`i64::MAX` costs once wrapped PlayPoints to −2).
pub const MAX_AMOUNT: i64 = 1_000_000_000;
/// The longest turn or Clean-Up time: 30 days (games played across days; older servers
/// allowed a day, so every stored setting still reads).
pub const MAX_SECONDS: i64 = 30 * 86_400;

/// A setting that cannot be used.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum SettingsError {
    #[error("{name} must not be negative (got {value})")]
    Negative { name: &'static str, value: i64 },
    #[error("{name} must be at most {max} (got {value})")]
    TooLarge { name: &'static str, value: i64, max: i64 },
    #[error("handicap lists {given} seats but the game has {players} players")]
    HandicapSeats { given: usize, players: usize },
    #[error("a game needs 2 to {MAX_PLAYERS} players, not {0}")]
    Players(usize),
    #[error("tie_break must be a positive number below 1/{MAX_PLAYERS} of a PlayPoint, not {0}")]
    TieBreak(f64),
    #[error("passes_to_end must be at least 1")]
    Passes,
}

impl GoBeyondRules {
    /// Checks the settings for a game of `players`.
    pub fn validate(&self, players: usize) -> Result<(), SettingsError> {
        if !(2..=MAX_PLAYERS).contains(&players) {
            return Err(SettingsError::Players(players));
        }
        let amounts = [
            ("starting_points", self.starting_points),
            ("occupy_cost", self.occupy_cost),
            ("capture_award", self.capture_award),
            ("claim_income", self.claim_income),
            ("surrender_award", self.surrender_award),
            ("final_bonus", self.final_bonus),
        ];
        for (name, value) in amounts {
            if value < 0 {
                return Err(SettingsError::Negative { name, value });
            }
            if value > MAX_AMOUNT {
                return Err(SettingsError::TooLarge { name, value, max: MAX_AMOUNT });
            }
        }
        if let Some(&value) = self.handicap.iter().find(|&&h| h < 0) {
            return Err(SettingsError::Negative { name: "handicap", value });
        }
        if let Some(&value) = self.handicap.iter().find(|&&h| h > MAX_AMOUNT) {
            return Err(SettingsError::TooLarge { name: "handicap", value, max: MAX_AMOUNT });
        }
        for (name, value) in [("turn_seconds", self.turn_seconds), ("cleanup_seconds", self.cleanup_seconds)]
        {
            if i64::from(value) > MAX_SECONDS {
                return Err(SettingsError::TooLarge { name, value: i64::from(value), max: MAX_SECONDS });
            }
        }
        if self.timeouts_to_resign > 1000 {
            let value = i64::from(self.timeouts_to_resign);
            return Err(SettingsError::TooLarge { name: "timeouts_to_resign", value, max: 1000 });
        }
        if self.turn_limit > 1_000_000 {
            let value = i64::from(self.turn_limit);
            return Err(SettingsError::TooLarge { name: "turn_limit", value, max: 1_000_000 });
        }
        if let Some(p) = self.passes_to_end.filter(|&p| p > 1000) {
            return Err(SettingsError::TooLarge { name: "passes_to_end", value: i64::from(p), max: 1000 });
        }
        if self.handicap.len() > players {
            return Err(SettingsError::HandicapSeats { given: self.handicap.len(), players });
        }
        // PlayPoints are whole numbers: a tie-break below 1/8 can never reorder unequal scores.
        if !(self.tie_break > 0.0 && self.tie_break * MAX_PLAYERS as f64 <= 1.0) {
            return Err(SettingsError::TieBreak(self.tie_break));
        }
        if self.passes_to_end == Some(0) {
            return Err(SettingsError::Passes);
        }
        Ok(())
    }

    /// Starting PlayPoints of the player in seat `seat`.
    pub fn start_for(&self, seat: usize) -> i64 {
        self.starting_points + self.handicap.get(seat).copied().unwrap_or(0)
    }

    /// Consecutive passes that end play with `players` players.
    pub fn passes_for(&self, players: usize) -> u32 {
        self.passes_to_end.unwrap_or(players as u32 + 1)
    }
}
