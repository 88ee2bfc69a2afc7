//! The computer's review of a finished game: for each position, the search's value for every
//! seat, its best actions, and the final owner of each node; for each action, what it lost the
//! mover. Used by `gobeyond analyze` and the server's reviews (`docs/analysis.md`).
//!
//! Positions are numbered as records number actions: position `at` is the game after its first
//! `at` actions; the judgement of action `at` compares position `at` with position `at + 1`.

use gobeyond_rules::{
    AnyGame, Player, dispatch,
    record::{Record, RecordError},
    registry::{Object, to_object},
};
use serde::{Deserialize, Serialize};

use crate::{
    Computer,
    search::{mcts::SearchConfig, mcts::Searcher},
};

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
    /// several seats at once): then `values` are carried or final.
    pub to_move: Option<u8>,
    /// Per seat, the expected reward (1 = first place, 0 = last): the win chance of two players.
    pub values: Vec<f32>,
    /// Per seat, the expected final score, where the system scores.
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

/// The losses from which an action is an inaccuracy, a mistake, a blunder (in reward).
pub const THRESHOLDS: [f32; 3] = [0.05, 0.10, 0.20];

/// Searches one position of any system.
pub fn review_position(game: &AnyGame, at: usize, options: &ReviewOptions) -> PositionReview {
    dispatch!(game, g => review_typed(g, at, options))
}

fn review_typed<G: Computer>(game: &G, at: usize, options: &ReviewOptions) -> PositionReview {
    let seats = game.player_count();
    let mover = game.to_move().filter(|_| game.turn().seats.len() == 1);
    let Some(mover) = mover else {
        let values = match game.outcome() {
            Some(_) => game.final_rewards()[..seats].to_vec(),
            None => vec![0.5; seats],
        };
        return PositionReview {
            at,
            to_move: None,
            values,
            scores: None,
            best: Vec::new(),
            playouts: 0,
            ownership: Vec::new(),
        };
    };
    let config = SearchConfig {
        playouts: options.playouts,
        seed: options.seed,
        threads: options.threads,
        ..SearchConfig::default()
    };
    let analysis = Searcher::<G>::new(config).search(game);
    let value = analysis.value();
    let others = if seats > 1 { (1.0 - value) / (seats - 1) as f32 } else { 0.0 };
    let values = (0..seats).map(|s| if s == mover.index() { value } else { others }).collect();
    let best = analysis
        .actions
        .iter()
        .take(options.best)
        .map(|a| Candidate { input: to_object(&game.to_wire(a.action)), value: a.value, visits: a.visits })
        .collect();
    let ownership = (0..analysis.ownership.len() as u32)
        .map(|n| analysis.owner(n).map(|(p, share)| (p.0, share)))
        .collect();
    PositionReview {
        at,
        to_move: Some(mover.0),
        values,
        scores: None,
        best,
        playouts: analysis.playouts,
        ownership,
    }
}

/// What each action lost its mover, from the positions before and after it.
pub fn judge_moves(record: &Record, positions: &[PositionReview]) -> Vec<MoveJudgement> {
    positions
        .windows(2)
        .filter_map(|pair| {
            let (before, after) = (&pair[0], &pair[1]);
            let mover = before.to_move?;
            let action = record.actions.get(before.at)?;
            if action.player != mover {
                return None;
            }
            let seat = mover as usize;
            let loss = before.values.get(seat)? - after.values.get(seat)?;
            let mark = match loss {
                l if l >= THRESHOLDS[2] => Some(Mark::Blunder),
                l if l >= THRESHOLDS[1] => Some(Mark::Mistake),
                l if l >= THRESHOLDS[0] => Some(Mark::Inaccuracy),
                _ => None,
            };
            Some(MoveJudgement { at: before.at, player: mover, loss, points_lost: None, mark })
        })
        .collect()
}

/// Reviews every position of a record, telling `progress` (done, total) after each.
pub fn review_record(
    record: &Record,
    options: &ReviewOptions,
    mut progress: impl FnMut(usize, usize),
) -> Result<GameReview, RecordError> {
    let mut game = record.new_game()?;
    let total = record.actions.len() + 1;
    let mut positions = Vec::with_capacity(total);
    for (index, action) in record.actions.iter().enumerate() {
        positions.push(review_position(&game, index, options));
        progress(index + 1, total);
        game.submit(Player(action.player), &action.input).map_err(|r| RecordError::Action {
            index,
            player: action.player,
            reason: r.message,
        })?;
    }
    positions.push(review_position(&game, record.actions.len(), options));
    progress(total, total);
    let moves = judge_moves(record, &positions);
    Ok(GameReview { format: FORMAT.into(), version: VERSION, playouts: options.playouts, positions, moves })
}
