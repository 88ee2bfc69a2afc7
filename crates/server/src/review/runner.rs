//! The background runner: claims waiting reviews from the database (one instance per review,
//! with an expiring claim renewed after each position), runs at most `--reviews-at-once` of
//! them, each search on a thread of its own with one search thread, so that no review ever
//! takes a thread of the bot pool or of the views pool. People's games come first: between
//! positions a review waits while a bot of a game with people searches. Each position is stored
//! as soon as it is searched, so that a review taken over (a restart, a dead instance) resumes
//! where it stopped.

use std::{collections::HashMap, sync::atomic::Ordering, time::Duration};

use gobeyond_bots::review::{PositionReview, ReviewOptions, review_position_after};
use gobeyond_rules::{AnyGame, Player};

use super::Reviews;
use crate::{
    AppState,
    error::ApiError,
    http::record_of,
    store::{ReviewRow, now_ms},
};

/// A claim lasts this long unless renewed (after each position, and while a review waits for
/// the bots): far longer than one position's search, so that only a dead instance loses one.
const CLAIM_MS: i64 = 60_000;
/// How often an instance looks for reviews queued on another instance.
const POLL: Duration = Duration::from_secs(2);
/// How often a review waiting for the bots looks again.
const BOTS_POLL: Duration = Duration::from_millis(20);

/// Runs until the server stops ([`Reviews::stop`]).
pub async fn run(app: AppState) {
    let reviews = app.reviews.clone();
    if reviews.config.at_once == 0 {
        return;
    }
    loop {
        while !reviews.stopping() && reviews.running() < reviews.config.at_once {
            match app.store.claim_review(&reviews.owner, now_ms() + CLAIM_MS).await {
                Ok(Some(review)) => {
                    reviews.running.fetch_add(1, Ordering::Relaxed);
                    tokio::spawn(run_claimed(app.clone(), review));
                }
                Ok(None) => break,
                Err(e) => {
                    tracing::warn!(error = %e, "the review queue could not be read");
                    break;
                }
            }
        }
        if reviews.stopping() {
            return;
        }
        tokio::select! {
            () = tokio::time::sleep(POLL) => {}
            () = reviews.wake.notified() => {}
        }
    }
}

/// How a claimed review ended on this instance.
enum Ended {
    Done,
    /// The server stops, or another instance took the review over.
    Left,
    /// It cannot be reviewed: the reason is stored for the players.
    Failed(String),
}

/// Runs one claimed review, then frees its slot.
async fn run_claimed(app: AppState, review: ReviewRow) {
    let reviews = app.reviews.clone();
    let owner = reviews.owner.clone();
    match run_review(&app, &reviews, &review).await {
        Ok(Ended::Done) => {
            tracing::info!(game = review.game_id, playouts = review.playouts, "computer review done");
            if let Err(e) = app.store.end_review(review.id, &owner, "done", None).await {
                tracing::warn!(review = review.id, error = %e, "a finished review could not be marked done");
            }
        }
        Ok(Ended::Left) => {}
        Ok(Ended::Failed(reason)) => {
            tracing::warn!(game = review.game_id, reason, "computer review failed");
            let _ = app.store.end_review(review.id, &owner, "failed", Some(&reason)).await;
        }
        // The database failed: the claim expires and the review is taken up again.
        Err(e) => tracing::warn!(review = review.id, error = %e, "computer review interrupted"),
    }
    reviews.running.fetch_sub(1, Ordering::Relaxed);
    reviews.wake.notify_one();
}

/// Searches the positions of `review` not stored yet, in order, storing each.
async fn run_review(app: &AppState, reviews: &Reviews, review: &ReviewRow) -> Result<Ended, ApiError> {
    let Some(row) = app.store.game(review.game_id).await? else {
        return Ok(Ended::Failed("the game is gone".into()));
    };
    // After the game every hand and draw is known: the record holds them all.
    let record = record_of(app, &row).await?;
    let mut game = match record.new_game() {
        Ok(g) => g,
        Err(e) => return Ok(Ended::Failed(format!("the game's record does not replay: {e}"))),
    };
    // Positions where nobody moves alone carry the values of the one before: each search is
    // told the position before it, stored or just searched.
    let mut stored = HashMap::new();
    for (at, body) in app.store.review_positions(review.id).await? {
        let position: PositionReview = serde_json::from_str(&body)
            .map_err(|e| ApiError::Internal(format!("a stored review does not read: {e}")))?;
        stored.insert(at, position);
    }
    let options = ReviewOptions {
        playouts: u32::try_from(review.playouts).unwrap_or(super::MIN_PLAYOUTS),
        threads: 1,
        ..ReviewOptions::default()
    };
    let mut previous = None;
    for at in 0..=record.actions.len() {
        let position = match stored.remove(&(at as i64)) {
            Some(p) => p,
            None => {
                if !wait_for_people(app, reviews, review.id).await? {
                    return Ok(Ended::Left);
                }
                let Some(position) = search(game.clone(), at, options, previous.take()).await else {
                    return Ok(Ended::Failed(format!("the search failed on position {at}")));
                };
                if !store(app, reviews, review.id, position.clone()).await? {
                    return Ok(Ended::Left);
                }
                position
            }
        };
        previous = Some(position);
        if let Some(action) = record.actions.get(at)
            && let Err(r) = game.submit(Player(action.player), &action.input)
        {
            return Ok(Ended::Failed(format!("action {at} of the record is refused: {}", r.message)));
        }
    }
    Ok(Ended::Done)
}

/// Waits while bots of games with people search (they come first), keeping the claim. False
/// when the review must be left: the server stops or the claim was lost.
async fn wait_for_people(app: &AppState, reviews: &Reviews, id: i64) -> Result<bool, ApiError> {
    let mut renewed = now_ms();
    while app.hub.bot_searches()[0] > 0 {
        if reviews.stopping() {
            return Ok(false);
        }
        if now_ms() - renewed > CLAIM_MS / 4 {
            renewed = now_ms();
            if !app.store.renew_review_claim(id, &reviews.owner, renewed + CLAIM_MS).await? {
                return Ok(false);
            }
        }
        tokio::time::sleep(BOTS_POLL).await;
    }
    Ok(!reviews.stopping())
}

/// One position's search on a thread of its own (none when it panicked).
async fn search(
    game: AnyGame,
    at: usize,
    options: ReviewOptions,
    previous: Option<PositionReview>,
) -> Option<PositionReview> {
    let (tx, rx) = tokio::sync::oneshot::channel();
    std::thread::Builder::new()
        .name("review".into())
        .spawn(move || {
            let _ = tx.send(review_position_after(&game, at, &options, previous.as_ref()));
        })
        .ok()?;
    rx.await.ok()
}

/// Stores a searched position and renews the claim; false when the claim was lost.
async fn store(
    app: &AppState,
    reviews: &Reviews,
    id: i64,
    position: PositionReview,
) -> Result<bool, ApiError> {
    let ownership =
        serde_json::to_string(&position.ownership).map_err(|e| ApiError::Internal(e.to_string()))?;
    let at = position.at as i64;
    let body = serde_json::to_string(&PositionReview { ownership: Vec::new(), ..position })
        .map_err(|e| ApiError::Internal(e.to_string()))?;
    let owner = &reviews.owner;
    Ok(app.store.store_review_position(id, owner, at, &body, &ownership).await?
        && app.store.renew_review_claim(id, owner, now_ms() + CLAIM_MS).await?)
}

/// At start on SQLite (one instance per database): the reviews a stopped process was running
/// are queued again. With PostgreSQL, their claims expire instead.
pub async fn requeue_orphans(app: &AppState) -> Result<(), ApiError> {
    if app.store.backend == crate::store::Backend::Sqlite {
        let n = app.store.release_reviews(None).await?;
        if n > 0 {
            tracing::info!(reviews = n, "computer reviews queued again after a restart");
        }
    }
    Ok(())
}

/// At shutdown: this instance's running reviews go back to the queue at once (another
/// instance, or this one restarted, resumes them from their stored positions).
pub async fn release(app: &AppState) {
    if let Err(e) = app.store.release_reviews(Some(&app.reviews.owner)).await {
        tracing::warn!(error = %e, "running reviews could not be given back");
    }
}
