//! The computer's review of finished games on the server (issue 43; `docs/api.md`, "Computer
//! review"): requested by a button, queued in the database, searched in the background by
//! [`runner`] one position after another, cached per game and budget.
//!
//! The search itself is the bots crate's (`gobeyond_bots::review`); this module decides who may
//! ask, bounds what they may ask for, and reads back what is stored.

pub mod runner;

use std::sync::{
    Arc,
    atomic::{AtomicBool, AtomicUsize, Ordering},
};

use axum::{
    Json, Router,
    extract::{Path, Query, State},
    http::StatusCode,
    routing::get,
};
use gobeyond_bots::review::{MoveJudgement, PositionReview, judge_moves};
use serde::{Deserialize, Serialize};
use tokio::sync::Notify;

use crate::{
    AppState,
    auth::{MaybeSession, Session},
    error::ApiError,
    http::{Readable, record_of, visible},
    store::{GameRow, ReviewBounds, ReviewRow},
};

/// The fewest playouts per position a review may ask for: fewer says nothing worth storing.
pub const MIN_PLAYOUTS: u32 = 50;
/// Reviews one account may have waiting (queued or running) at once.
pub const PER_ACCOUNT: i64 = 2;
/// Reviews waiting on the whole server (every instance sharing the database) at once.
pub const WAITING_MAX: i64 = 50;

/// The serve flags of reviews.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ReviewConfig {
    /// Playouts per position when a request names none (`--review-playouts`).
    pub playouts: u32,
    /// The most a request may ask for (`--review-max-playouts`).
    pub max_playouts: u32,
    /// Reviews this instance runs at once, each on its own thread (`--reviews-at-once`); 0:
    /// none (other instances sharing the database run them).
    pub at_once: usize,
}

impl Default for ReviewConfig {
    fn default() -> Self {
        ReviewConfig { playouts: 1000, max_playouts: 10_000, at_once: 1 }
    }
}

impl ReviewConfig {
    /// The budget of a request: the default when it names none, refused out of bounds.
    pub fn playouts(&self, asked: Option<u32>) -> Result<u32, ApiError> {
        let max = self.max_playouts.max(MIN_PLAYOUTS);
        match asked {
            None => Ok(self.playouts.clamp(MIN_PLAYOUTS, max)),
            Some(p) if (MIN_PLAYOUTS..=max).contains(&p) => Ok(p),
            Some(p) => Err(ApiError::BadRequest(format!(
                "playouts: {p} is out of range; a computer review searches {MIN_PLAYOUTS} to {max} playouts per position"
            ))),
        }
    }
}

/// This instance's reviews: its settings, and the runner's state.
#[derive(Debug)]
pub struct Reviews {
    pub config: ReviewConfig,
    /// Who this instance is in the database's claims.
    pub owner: String,
    /// Told when a review is queued here, so that the runner need not wait for its next look.
    wake: Notify,
    running: AtomicUsize,
    stopping: AtomicBool,
}

impl Reviews {
    pub fn new(config: ReviewConfig, owner: String) -> Arc<Reviews> {
        Arc::new(Reviews {
            config,
            owner,
            wake: Notify::new(),
            running: AtomicUsize::new(0),
            stopping: AtomicBool::new(false),
        })
    }

    /// Reviews running on this instance now.
    pub fn running(&self) -> usize {
        self.running.load(Ordering::Relaxed)
    }

    /// The server stops: running reviews end after their current position.
    pub fn stop(&self) {
        self.stopping.store(true, Ordering::Relaxed);
        self.wake.notify_one();
    }

    fn stopping(&self) -> bool {
        self.stopping.load(Ordering::Relaxed)
    }
}

pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/api/games/{id}/review", get(show).post(request))
        .route("/api/games/{id}/review/positions/{at}", get(position))
}

/// A review as the client sees it (`docs/api.md`).
#[derive(Debug, Clone, Serialize)]
pub struct ReviewStatus {
    /// `none`, `queued`, `running`, `done` or `failed`.
    pub state: String,
    pub playouts: u32,
    /// Positions searched so far, from the start.
    pub done: usize,
    /// Positions in the game: its actions + 1.
    pub total: usize,
    /// For a queued review, how many are ahead of it plus one.
    pub queue_position: Option<u32>,
    pub error: Option<String>,
    /// The positions searched so far, without ownership (`GET .../review/positions/{at}`).
    pub positions: Vec<PositionReview>,
    /// The judgement of each action whose positions before and after are searched.
    pub moves: Vec<MoveJudgement>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReviewRequest {
    pub playouts: Option<u32>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReviewQuery {
    playouts: Option<u32>,
    /// Read by [`Readable`]; listed so that the strict query accepts it.
    #[allow(dead_code)]
    invite: Option<String>,
}

/// `POST /api/games/{id}/review`: queues a review of a finished game (202), or tells the one
/// requested already at that budget, running or done.
pub async fn request(
    State(app): State<AppState>,
    session: Session,
    Readable(row): Readable,
    body: Option<Json<ReviewRequest>>,
) -> Result<(StatusCode, Json<ReviewStatus>), ApiError> {
    if row.status != "finished" {
        return Err(ApiError::Conflict(
            "this game is still being played: the computer reviews finished games only".into(),
        ));
    }
    let Json(body) = body.unwrap_or_default();
    let playouts = app.reviews.config.playouts(body.playouts)?;
    let existing = app.store.review(row.id, playouts.into()).await?;
    if existing.as_ref().is_none_or(|r| r.status == "failed") {
        let total = record_of(&app, &row).await?.actions.len() as i64 + 1;
        let bounds = ReviewBounds { per_account: PER_ACCOUNT, all: WAITING_MAX };
        let user = session.user.id;
        if !app.store.queue_review(row.id, playouts.into(), user, total, bounds).await? {
            refused(&app, row.id, playouts, user).await?;
        }
        app.reviews.wake.notify_one();
    }
    Ok((StatusCode::ACCEPTED, Json(status_of(&app, &row, playouts).await?)))
}

/// Why a review was not queued: one of the bounds, unless another request queued it meanwhile.
async fn refused(app: &AppState, game: i64, playouts: u32, user: i64) -> Result<(), ApiError> {
    if app.store.review(game, playouts.into()).await?.is_some_and(|r| r.status != "failed") {
        return Ok(());
    }
    let (mine, all) = app.store.reviews_waiting(user).await?;
    if mine >= PER_ACCOUNT {
        return Err(ApiError::TooMany(format!(
            "you have {mine} computer reviews waiting, and at most {PER_ACCOUNT} may wait at once: \
             ask again when one is done"
        )));
    }
    Err(ApiError::Unavailable(format!(
        "the server has {all} computer reviews waiting, its most ({WAITING_MAX}): ask again later"
    )))
}

/// `GET /api/games/{id}/review[?playouts=N]`: the review at that budget (the default one
/// without), as far as it went.
pub async fn show(
    State(app): State<AppState>,
    Readable(row): Readable,
    Query(q): Query<ReviewQuery>,
) -> Result<Json<ReviewStatus>, ApiError> {
    let playouts = app.reviews.config.playouts(q.playouts)?;
    Ok(Json(status_of(&app, &row, playouts).await?))
}

/// `GET /api/games/{id}/review/positions/{at}[?playouts=N]`: one searched position with the
/// ownership of each node.
pub async fn position(
    State(app): State<AppState>,
    MaybeSession(session): MaybeSession,
    Path((id, at)): Path<(i64, i64)>,
    Query(q): Query<ReviewQuery>,
) -> Result<Json<PositionReview>, ApiError> {
    let row = visible(&app, id, session.as_ref(), q.invite.as_deref()).await?;
    let playouts = app.reviews.config.playouts(q.playouts)?;
    let not_yet =
        || ApiError::NotFound(format!("position {at} of game {id} is not reviewed at {playouts} playouts"));
    let review = app.store.review(row.id, playouts.into()).await?.ok_or_else(not_yet)?;
    let (body, ownership) = app.store.review_position(review.id, at).await?.ok_or_else(not_yet)?;
    let mut position: PositionReview = serde_json::from_str(&body).map_err(unreadable)?;
    position.ownership = serde_json::from_str(&ownership).map_err(unreadable)?;
    Ok(Json(position))
}

fn unreadable(e: serde_json::Error) -> ApiError {
    ApiError::Internal(format!("a stored review does not read: {e}"))
}

/// The review of `row` at `playouts` as the client sees it.
async fn status_of(app: &AppState, row: &GameRow, playouts: u32) -> Result<ReviewStatus, ApiError> {
    let record = record_of(app, row).await?;
    let total = record.actions.len() + 1;
    let none = ReviewStatus {
        state: "none".into(),
        playouts,
        done: 0,
        total,
        queue_position: None,
        error: None,
        positions: Vec::new(),
        moves: Vec::new(),
    };
    let Some(review) = app.store.review(row.id, playouts.into()).await? else { return Ok(none) };
    let positions = stored_positions(app, &review).await?;
    let moves = judge_moves(&record, &positions);
    let queue_position = match review.status.as_str() {
        "queued" => Some(app.store.review_queue_position(review.id).await?.clamp(1, u32::MAX.into()) as u32),
        _ => None,
    };
    Ok(ReviewStatus {
        state: review.status,
        done: positions.len(),
        queue_position,
        error: review.error,
        positions,
        moves,
        ..none
    })
}

/// The positions stored from the start on, without a gap (a review stores them in order).
async fn stored_positions(app: &AppState, review: &ReviewRow) -> Result<Vec<PositionReview>, ApiError> {
    let mut positions = Vec::new();
    for (index, (at, body)) in app.store.review_positions(review.id).await?.into_iter().enumerate() {
        if at != index as i64 {
            break;
        }
        positions.push(serde_json::from_str(&body).map_err(unreadable)?);
    }
    Ok(positions)
}
