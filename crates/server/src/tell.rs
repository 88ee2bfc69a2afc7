//! `GET /api/tell`: what a signed-in player is told in every tab — the games waiting for them
//! (with the time left), and their games that ended lately (with a rematch offered to them).
//! Read from the database only (`waits`, kept by each game's owner), so any instance answers
//! it and no game is loaded: one indexed query of at most 200 rows, and one of at most 20.

use axum::{Json, extract::State};
use serde::Serialize;
use ts_rs::TS;

use crate::{AppState, auth::Session, error::ApiError, store::now_ms};

/// Games that ended this long ago at most are told about.
pub const ENDED_WITHIN_MS: i64 = 24 * 3600 * 1000;
/// At most this many ended games are told about.
pub const MAX_ENDED: i64 = 20;

#[derive(Debug, Serialize, TS)]
pub struct Tell {
    /// The games waiting for you, the least time left first, untimed ones after.
    pub waiting: Vec<WaitingGame>,
    /// Your games that ended in the last 24 hours, newest first.
    pub ended: Vec<EndedGame>,
    /// The server's clock (epoch milliseconds), to count `deadline_ms` down from.
    pub now_ms: i64,
}

#[derive(Debug, Serialize, TS)]
pub struct WaitingGame {
    pub game: i64,
    /// `move`, `decision` (dead stones, a reaction window: several seats at once) or `undo`
    /// (another player asks to take a move back).
    pub kind: String,
    /// The game's sequence number when the wait began: a new wait has a new one.
    pub seq: i64,
    pub since_ms: i64,
    /// When your time runs out (`null`: no clock runs for you).
    pub deadline_ms: Option<i64>,
    pub left_ms: Option<i64>,
}

#[derive(Debug, Serialize, TS)]
pub struct EndedGame {
    pub game: i64,
    pub finished_ms: i64,
    /// Its rematch, while that waits for you to take your seat.
    pub rematch: Option<i64>,
}

pub async fn tell(State(app): State<AppState>, session: Session) -> Result<Json<Tell>, ApiError> {
    let user = session.user.id;
    let now = now_ms();
    let waiting = app
        .store
        .waits_of(user)
        .await?
        .into_iter()
        .map(|w| WaitingGame {
            game: w.game_id,
            kind: w.kind,
            seq: w.seq,
            since_ms: w.since_ms,
            deadline_ms: w.deadline_ms,
            left_ms: w.deadline_ms.map(|d| (d - now).max(0)),
        })
        .collect();
    let ended = app
        .store
        .recent_endings(user, now - ENDED_WITHIN_MS, MAX_ENDED)
        .await?
        .into_iter()
        .map(|(game, finished_ms, rematch, seated)| EndedGame {
            game,
            finished_ms,
            rematch: rematch.filter(|_| !seated),
        })
        .collect();
    Ok(Json(Tell { waiting, ended, now_ms: now }))
}
