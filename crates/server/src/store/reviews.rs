//! Computer reviews of finished games (`crate::review`): one row per game and budget, and each
//! position as its search finishes. Several instances may share the database: a waiting review
//! is claimed by one (`claimed_by` until `claim_until_ms`, renewed after each position) with a
//! conditional update, as the mail queue does (`mail_queue.rs`), so that two instances never run
//! the same review; a claim whose instance died expires and the review is taken over, resuming
//! from the positions stored.

use sqlx::{AssertSqlSafe, Row, any::AnyRow};

use super::{Store, now_ms};
use crate::error::ApiError;

/// A review as stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReviewRow {
    pub id: i64,
    pub game_id: i64,
    pub playouts: i64,
    /// `queued`, `running`, `done` or `failed`.
    pub status: String,
    /// Positions in the game (actions + 1).
    pub total: i64,
    pub error: Option<String>,
}

/// How many reviews may wait (queued or running): per account, in all.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ReviewBounds {
    pub per_account: i64,
    pub all: i64,
}

const COLUMNS: &str = "id, game_id, playouts, status, total, error";
// The queries below are put together from these constants only (no input).
/// Waiting: not finished, whether queued or running.
const WAITING: &str = "status IN ('queued', 'running')";

fn review(row: &AnyRow) -> Result<ReviewRow, sqlx::Error> {
    Ok(ReviewRow {
        id: row.try_get("id")?,
        game_id: row.try_get("game_id")?,
        playouts: row.try_get("playouts")?,
        status: row.try_get("status")?,
        total: row.try_get("total")?,
        error: row.try_get("error")?,
    })
}

impl Store {
    /// The review of `game` at `playouts` per position, if one was requested.
    pub async fn review(&self, game: i64, playouts: i64) -> Result<Option<ReviewRow>, ApiError> {
        let row = sqlx::query(AssertSqlSafe(format!(
            "SELECT {COLUMNS} FROM reviews WHERE game_id = $1 AND playouts = $2"
        )))
        .bind(game)
        .bind(playouts)
        .fetch_optional(&self.pool)
        .await?;
        Ok(row.as_ref().map(review).transpose()?)
    }

    /// Queues a review for `user` unless the bounds are reached (checked by the insert itself);
    /// a failed one is queued again. Whether it was queued.
    pub async fn queue_review(
        &self,
        game: i64,
        playouts: i64,
        user: i64,
        total: i64,
        bounds: ReviewBounds,
    ) -> Result<bool, ApiError> {
        let within = format!(
            "(SELECT COUNT(*) FROM reviews WHERE requested_by = $3 AND {WAITING}) < $5 \
             AND (SELECT COUNT(*) FROM reviews WHERE {WAITING}) < $6"
        );
        let r = sqlx::query(AssertSqlSafe(format!(
            "INSERT INTO reviews (game_id, playouts, requested_by, status, total, created_ms) \
             SELECT CAST($1 AS BIGINT), CAST($2 AS BIGINT), CAST($3 AS BIGINT), 'queued', CAST($4 AS BIGINT), \
             CAST($7 AS BIGINT) WHERE {within} ON CONFLICT DO NOTHING"
        )))
        .bind(game)
        .bind(playouts)
        .bind(user)
        .bind(total)
        .bind(bounds.per_account)
        .bind(bounds.all)
        .bind(now_ms())
        .execute(&self.pool)
        .await?;
        if r.rows_affected() == 1 {
            return Ok(true);
        }
        // A failed review is tried again, within the same bounds.
        let r = sqlx::query(AssertSqlSafe(format!(
            "UPDATE reviews SET status = 'queued', error = NULL, requested_by = $3, total = $4, claim_until_ms = 0, \
             created_ms = $7 WHERE game_id = $1 AND playouts = $2 AND status = 'failed' AND {within}"
        )))
        .bind(game)
        .bind(playouts)
        .bind(user)
        .bind(total)
        .bind(bounds.per_account)
        .bind(bounds.all)
        .bind(now_ms())
        .execute(&self.pool)
        .await?;
        Ok(r.rows_affected() == 1)
    }

    /// Reviews waiting (queued or running): requested by `user`, in all.
    pub async fn reviews_waiting(&self, user: i64) -> Result<(i64, i64), ApiError> {
        let row = sqlx::query(AssertSqlSafe(format!(
            "SELECT (SELECT COUNT(*) FROM reviews WHERE requested_by = $1 AND {WAITING}) AS mine, \
             (SELECT COUNT(*) FROM reviews WHERE {WAITING}) AS every"
        )))
        .bind(user)
        .fetch_one(&self.pool)
        .await?;
        Ok((row.try_get("mine")?, row.try_get("every")?))
    }

    /// Where a queued review stands in the queue (1: next).
    pub async fn review_queue_position(&self, id: i64) -> Result<i64, ApiError> {
        let row = sqlx::query("SELECT COUNT(*) AS n FROM reviews WHERE status = 'queued' AND id <= $1")
            .bind(id)
            .fetch_one(&self.pool)
            .await?;
        Ok(row.try_get("n")?)
    }

    /// Claims the oldest waiting review (queued, or running on an instance whose claim expired)
    /// for `owner` until `claim_until_ms`.
    pub async fn claim_review(
        &self,
        owner: &str,
        claim_until_ms: i64,
    ) -> Result<Option<ReviewRow>, ApiError> {
        let free = "(status = 'queued' OR (status = 'running' AND claim_until_ms < $3))";
        let row = sqlx::query(AssertSqlSafe(format!(
            "UPDATE reviews SET status = 'running', claimed_by = $1, claim_until_ms = $2, claims = claims + 1 \
             WHERE id IN (SELECT id FROM reviews WHERE {free} ORDER BY id LIMIT 1) AND {free} \
             RETURNING {COLUMNS}"
        )))
        .bind(owner)
        .bind(claim_until_ms)
        .bind(now_ms())
        .fetch_optional(&self.pool)
        .await?;
        Ok(row.as_ref().map(review).transpose()?)
    }

    /// Extends `owner`'s claim; false when it lost the review (another instance took it over).
    pub async fn renew_review_claim(
        &self,
        id: i64,
        owner: &str,
        claim_until_ms: i64,
    ) -> Result<bool, ApiError> {
        let r = sqlx::query(
            "UPDATE reviews SET claim_until_ms = $3 WHERE id = $1 AND claimed_by = $2 AND status = 'running'",
        )
        .bind(id)
        .bind(owner)
        .bind(claim_until_ms)
        .execute(&self.pool)
        .await?;
        Ok(r.rows_affected() == 1)
    }

    /// Stores one position of a review `owner` holds (`body`: its judgement without ownership);
    /// false when the claim was lost.
    pub async fn store_review_position(
        &self,
        id: i64,
        owner: &str,
        at: i64,
        body: &str,
        ownership: &str,
    ) -> Result<bool, ApiError> {
        let r = sqlx::query(
            "INSERT INTO review_positions (review_id, at, body, ownership, computed_by) \
             SELECT CAST($1 AS BIGINT), CAST($3 AS BIGINT), CAST($4 AS TEXT), CAST($5 AS TEXT), CAST($2 AS TEXT) \
             WHERE EXISTS (SELECT 1 FROM reviews WHERE id = $1 AND claimed_by = $2 AND status = 'running') \
             ON CONFLICT DO NOTHING",
        )
        .bind(id)
        .bind(owner)
        .bind(at)
        .bind(body)
        .bind(ownership)
        .execute(&self.pool)
        .await?;
        Ok(r.rows_affected() == 1)
    }

    /// The positions of review `id` stored so far (judgements without ownership), in order.
    pub async fn review_positions(&self, id: i64) -> Result<Vec<(i64, String)>, ApiError> {
        let rows = sqlx::query("SELECT at, body FROM review_positions WHERE review_id = $1 ORDER BY at")
            .bind(id)
            .fetch_all(&self.pool)
            .await?;
        Ok(rows
            .iter()
            .map(|r| Ok::<_, sqlx::Error>((r.try_get("at")?, r.try_get("body")?)))
            .collect::<Result<_, _>>()?)
    }

    /// One stored position with its ownership.
    pub async fn review_position(&self, id: i64, at: i64) -> Result<Option<(String, String)>, ApiError> {
        let row =
            sqlx::query("SELECT body, ownership FROM review_positions WHERE review_id = $1 AND at = $2")
                .bind(id)
                .bind(at)
                .fetch_optional(&self.pool)
                .await?;
        Ok(row.map(|r| Ok::<_, sqlx::Error>((r.try_get("body")?, r.try_get("ownership")?))).transpose()?)
    }

    /// Ends a review `owner` holds: `done` or `failed` (with the reason).
    pub async fn end_review(
        &self,
        id: i64,
        owner: &str,
        status: &str,
        error: Option<&str>,
    ) -> Result<(), ApiError> {
        sqlx::query(
            "UPDATE reviews SET status = $3, error = $4, finished_ms = $5, claim_until_ms = 0 \
             WHERE id = $1 AND claimed_by = $2 AND status = 'running'",
        )
        .bind(id)
        .bind(owner)
        .bind(status)
        .bind(error)
        .bind(now_ms())
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// Puts the reviews `owner` runs back in the queue (it stops); with `None`, every running
    /// review (a SQLite database has one instance: those of a process that died).
    pub async fn release_reviews(&self, owner: Option<&str>) -> Result<u64, ApiError> {
        let r = sqlx::query(
            "UPDATE reviews SET status = 'queued', claim_until_ms = 0 \
             WHERE status = 'running' AND (CAST($1 AS TEXT) IS NULL OR claimed_by = $1)",
        )
        .bind(owner)
        .execute(&self.pool)
        .await?;
        Ok(r.rows_affected())
    }
}
