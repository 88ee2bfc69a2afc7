//! The computer's review of a finished game: for each position, the search's value for every
//! seat, its best actions, and the final owner of each node; for each action, what it lost the
//! mover. Used by `gobeyond analyze` and the server's reviews (`docs/analysis.md`).
//!
//! Positions are numbered as records number actions: position `at` is the game after its first
//! `at` actions; the judgement of action `at` compares position `at` with position `at + 1`.

mod judge;
mod position;

use gobeyond_rules::{
    AnyGame, Player, dispatch,
    record::{Record, RecordError},
    registry::Object,
};
use serde::{Deserialize, Serialize};

pub use self::judge::{THRESHOLDS, default_thresholds, judge_moves, judge_moves_with, mark, thresholds};

pub const FORMAT: &str = "gobeyond-review";
pub const VERSION: u32 = 1;

/// How much a review searches.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ReviewOptions {
    /// Playouts per position.
    pub playouts: u32,
    pub seed: u64,
    pub threads: usize,
    /// How many of the search's best actions each position keeps.
    pub best: usize,
}

impl Default for ReviewOptions {
    fn default() -> Self {
        ReviewOptions { playouts: 1000, seed: 1, threads: 1, best: 3 }
    }
}

/// One of the search's best actions in a position.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Candidate {
    /// The action in the system's wire form (as a record keeps it).
    pub input: Object,
    /// Expected reward of the mover after it, 0 to 1.
    pub value: f32,
    pub visits: u32,
}

/// The search's judgement of one position.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PositionReview {
    /// Actions played before this position.
    pub at: usize,
    /// The seat the search played for; `None` when nobody moves alone (the end, a decision of
    /// several seats at once, a chance draw): then `values` are final, carried or an
    /// expectation over the draw, and no action from here is judged.
    pub to_move: Option<u8>,
    /// Per seat, the expected reward (1 = first place, 0 = last, places evenly between): the
    /// win chance of two players. The mean over the search's simulations at the root (an
    /// expectation over dice and, before the end, over the search's own choices); at the end,
    /// the final rewards.
    pub values: Vec<f32>,
    /// The values are not searched but carried from the position before (several seats decide
    /// at once, as a Clean-Up): judgements look past it.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub carried: bool,
    /// Per seat, the expected final score in the system's points, where the system scores
    /// (classic Go with komi, GoBeyond, Tribal Go); at the end, the final count.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scores: Option<Vec<f32>>,
    /// Most visited first.
    pub best: Vec<Candidate>,
    pub playouts: u32,
    /// Per node, the likely final owner and how likely (empty when the system keeps none).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub ownership: Vec<Option<(u8, f32)>>,
}

/// How bad an action was for its mover.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Mark {
    Inaccuracy,
    Mistake,
    Blunder,
}

/// What one action lost its mover.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MoveJudgement {
    /// The action's index in the record.
    pub at: usize,
    pub player: u8,
    /// The mover's value before minus after (negative: better than the search expected).
    pub loss: f32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub points_lost: Option<f32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mark: Option<Mark>,
}

/// A whole game's review.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GameReview {
    pub format: String,
    pub version: u32,
    pub playouts: u32,
    pub positions: Vec<PositionReview>,
    pub moves: Vec<MoveJudgement>,
}

/// Searches one position of any system. A position where nobody moves alone (several seats at
/// once) gets equal shares; [`review_position_after`] carries the previous position's values.
pub fn review_position(game: &AnyGame, at: usize, options: &ReviewOptions) -> PositionReview {
    review_position_after(game, at, options, None)
}

/// [`review_position`] knowing the position before it, whose values a position where nobody
/// moves alone carries (`carried`).
pub fn review_position_after(
    game: &AnyGame,
    at: usize,
    options: &ReviewOptions,
    previous: Option<&PositionReview>,
) -> PositionReview {
    dispatch!(game, g => position::review_typed(g, at, options, previous))
}

/// Gives every carried position the values (and scores) of the position before it, in order:
/// for positions reviewed one at a time with [`review_position`].
pub fn carry_values(positions: &mut [PositionReview]) {
    for i in 1..positions.len() {
        if positions[i].carried {
            let (values, scores) = (positions[i - 1].values.clone(), positions[i - 1].scores.clone());
            positions[i].values = values;
            positions[i].scores = scores;
        }
    }
}

/// Reviews every position of a record, telling `progress` (done, total) after each.
pub fn review_record(
    record: &Record,
    options: &ReviewOptions,
    mut progress: impl FnMut(usize, usize),
) -> Result<GameReview, RecordError> {
    let mut game = record.new_game()?;
    let total = record.actions.len() + 1;
    let mut positions: Vec<PositionReview> = Vec::with_capacity(total);
    for (index, action) in record.actions.iter().enumerate() {
        positions.push(review_position_after(&game, index, options, positions.last()));
        progress(index + 1, total);
        game.submit(Player(action.player), &action.input).map_err(|r| RecordError::Action {
            index,
            player: action.player,
            reason: r.message,
        })?;
    }
    positions.push(review_position_after(&game, record.actions.len(), options, positions.last()));
    progress(total, total);
    let moves = judge_moves(record, &positions);
    Ok(GameReview { format: FORMAT.into(), version: VERSION, playouts: options.playouts, positions, moves })
}
