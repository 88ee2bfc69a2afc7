//! Seeks for automatch (see `crate::social::seeks`): rows every instance pairs from, claimed
//! atomically so that no seeker lands in two games.

use sqlx::{Row, any::AnyRow};

use super::{Store, now_ms};
use crate::error::ApiError;

/// What a seek asks for, as the columns pairing compares.
#[derive(Debug, Clone)]
pub struct SeekSpec {
    /// The seek as sent (JSON), to build the game from.
    pub spec: String,
    /// The rules name (a system or preset): seekers of the same name meet.
    pub system: String,
    pub shape: String,
    pub min_size: i64,
    pub max_size: i64,
    pub clock_kind: String,
    pub players: i64,
    /// The seeker's own rating in the system, and the opponents' range they accept.
    pub rating: i64,
    pub min_rating: i64,
    pub max_rating: i64,
}

#[derive(Debug, Clone)]
pub struct SeekRow {
    pub id: i64,
    pub user_id: i64,
    pub user_name: String,
    pub kind: SeekSpec,
    pub created_ms: i64,
    pub seen_ms: i64,
    /// `waiting`, `claimed` (being paired) or `matched`.
    pub state: String,
    pub game_id: Option<i64>,
}

const SEEK_OF: &str =
    "SELECT s.*, u.name AS user_name FROM seeks s JOIN users u ON u.id = s.user_id WHERE s.user_id = $1";
// Waiting seeks that could meet seek `$1`: same rules, map shape, clock kind and number of
// players, overlapping sizes, polled since `$2`; the longest waiting first.
const CANDIDATES: &str = "SELECT s.*, u.name AS user_name FROM seeks s JOIN users u ON u.id = s.user_id, seeks me \
     WHERE me.id = $1 AND s.id <> me.id AND s.state = 'waiting' AND s.seen_ms > $2 \
     AND s.system = me.system AND s.shape = me.shape AND s.clock_kind = me.clock_kind AND s.players = me.players \
     AND s.min_size <= me.max_size AND s.max_size >= me.min_size ORDER BY s.created_ms LIMIT $3";

fn seek(r: &AnyRow) -> Result<SeekRow, sqlx::Error> {
    Ok(SeekRow {
        id: r.try_get("id")?,
        user_id: r.try_get("user_id")?,
        user_name: r.try_get("user_name")?,
        kind: SeekSpec {
            spec: r.try_get("spec")?,
            system: r.try_get("system")?,
            shape: r.try_get("shape")?,
            min_size: r.try_get("min_size")?,
            max_size: r.try_get("max_size")?,
            clock_kind: r.try_get("clock_kind")?,
            players: r.try_get("players")?,
            rating: r.try_get("rating")?,
            min_rating: r.try_get("min_rating")?,
            max_rating: r.try_get("max_rating")?,
        },
        created_ms: r.try_get("created_ms")?,
        seen_ms: r.try_get("seen_ms")?,
        state: r.try_get("state")?,
        game_id: r.try_get("game_id")?,
    })
}

impl Store {
    /// `user`'s seek in place of any earlier one.
    pub async fn put_seek(&self, user: i64, k: &SeekSpec) -> Result<(), ApiError> {
        let now = now_ms();
        let mut tx = self.pool.begin().await?;
        // A seek being paired stays: its game is being made.
        let claimed = sqlx::query("SELECT COUNT(*) AS n FROM seeks WHERE user_id = $1 AND state = 'claimed'")
            .bind(user)
            .fetch_one(&mut *tx)
            .await?
            .try_get::<i64, _>("n")?;
        if claimed > 0 {
            return Err(ApiError::Conflict("your game is being made: wait a moment".into()));
        }
        sqlx::query("DELETE FROM seeks WHERE user_id = $1").bind(user).execute(&mut *tx).await?;
        sqlx::query(
            "INSERT INTO seeks (user_id, spec, system, shape, min_size, max_size, clock_kind, players, rating, \
             min_rating, max_rating, created_ms, seen_ms, state) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $12, 'waiting')",
        )
        .bind(user)
        .bind(&k.spec)
        .bind(&k.system)
        .bind(&k.shape)
        .bind(k.min_size)
        .bind(k.max_size)
        .bind(&k.clock_kind)
        .bind(k.players)
        .bind(k.rating)
        .bind(k.min_rating)
        .bind(k.max_rating)
        .bind(now)
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(())
    }

    /// `user`'s seek, noted as polled now.
    pub async fn poll_seek(&self, user: i64) -> Result<Option<SeekRow>, ApiError> {
        sqlx::query("UPDATE seeks SET seen_ms = $2 WHERE user_id = $1")
            .bind(user)
            .bind(now_ms())
            .execute(&self.pool)
            .await?;
        let row = sqlx::query(SEEK_OF).bind(user).fetch_optional(&self.pool).await?;
        Ok(row.as_ref().map(seek).transpose()?)
    }

    /// Withdraws `user`'s seek unless it is being paired (false then).
    pub async fn delete_seek(&self, user: i64) -> Result<bool, ApiError> {
        let claimed = sqlx::query("SELECT COUNT(*) AS n FROM seeks WHERE user_id = $1 AND state = 'claimed'")
            .bind(user)
            .fetch_one(&self.pool)
            .await?
            .try_get::<i64, _>("n")?;
        if claimed > 0 {
            return Ok(false);
        }
        sqlx::query("DELETE FROM seeks WHERE user_id = $1 AND state <> 'claimed'")
            .bind(user)
            .execute(&self.pool)
            .await?;
        Ok(true)
    }

    /// Seeks that could meet seek `id` (see `CANDIDATES`), polled since `fresh_ms`.
    pub async fn seek_candidates(
        &self,
        id: i64,
        fresh_ms: i64,
        limit: i64,
    ) -> Result<Vec<SeekRow>, ApiError> {
        let rows = sqlx::query(CANDIDATES).bind(id).bind(fresh_ms).bind(limit).fetch_all(&self.pool).await?;
        Ok(rows.iter().map(seek).collect::<Result<_, _>>()?)
    }

    /// Claims every seek of `ids` for one game, or none (false) when another request claimed
    /// or withdrew one meanwhile. Rows are taken in id order, so that two claims never wait on
    /// each other crosswise.
    pub async fn claim_seeks(&self, ids: &[i64]) -> Result<bool, ApiError> {
        let mut ids = ids.to_vec();
        ids.sort_unstable();
        let mut tx = self.pool.begin().await?;
        for id in ids {
            let n = sqlx::query(
                "UPDATE seeks SET state = 'claimed', claimed_ms = $2 WHERE id = $1 AND state = 'waiting'",
            )
            .bind(id)
            .bind(now_ms())
            .execute(&mut *tx)
            .await?
            .rows_affected();
            if n != 1 {
                tx.rollback().await?;
                return Ok(false);
            }
        }
        tx.commit().await?;
        Ok(true)
    }

    /// Ends claimed seeks: matched to `game`, or back to waiting when it could not be made.
    pub async fn settle_seeks(&self, ids: &[i64], game: Option<i64>) -> Result<(), ApiError> {
        for id in ids {
            let state = if game.is_some() { "matched" } else { "waiting" };
            sqlx::query("UPDATE seeks SET state = $2, game_id = $3 WHERE id = $1 AND state = 'claimed'")
                .bind(id)
                .bind(state)
                .bind(game)
                .execute(&self.pool)
                .await?;
        }
        Ok(())
    }

    /// Drops seeks nobody polled since `stale_ms` (the seeker left: closed the tab, lost the
    /// network), whatever their state, and matched ones older than `matched_ms`; claims made
    /// before `claimed_ms` (their maker died) go back to waiting.
    pub async fn prune_seeks(&self, stale_ms: i64, matched_ms: i64, claimed_ms: i64) -> Result<(), ApiError> {
        sqlx::query("UPDATE seeks SET state = 'waiting' WHERE state = 'claimed' AND claimed_ms < $1")
            .bind(claimed_ms)
            .execute(&self.pool)
            .await?;
        sqlx::query("DELETE FROM seeks WHERE seen_ms < $1 OR (state = 'matched' AND created_ms < $2)")
            .bind(stale_ms)
            .bind(matched_ms)
            .execute(&self.pool)
            .await?;
        Ok(())
    }
}
