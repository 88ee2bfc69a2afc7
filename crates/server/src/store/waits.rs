//! Who each live game waits for, kept by the game's owner (`table/waits.rs`) and read by the
//! "your move" list and notices (`tell.rs`) without loading any game, on any instance.

use sqlx::Row;

use super::{
    Store,
    leases::{self, Fence},
};
use crate::error::ApiError;

/// One account a game waits for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Wait {
    pub user_id: i64,
    /// `move`, `decision` (several seats at once: dead stones, a reaction window) or `undo`.
    pub kind: &'static str,
    /// The game's sequence number when the wait began.
    pub seq: u64,
    pub since_ms: i64,
    pub deadline_ms: Option<i64>,
}

/// A wait as read back for its player.
#[derive(Debug, Clone)]
pub struct WaitRow {
    pub game_id: i64,
    pub kind: String,
    pub seq: i64,
    pub since_ms: i64,
    pub deadline_ms: Option<i64>,
}

/// At most this many games wait for one player in an answer (a player may join many games).
pub const MAX_WAITS: i64 = 200;

impl Store {
    /// Replaces game `game_id`'s waits (checked against `fence` with several instances: a
    /// server that lost the game writes nothing).
    pub async fn set_waits(
        &self,
        game_id: i64,
        waits: &[Wait],
        fence: Option<&Fence>,
    ) -> Result<(), ApiError> {
        let mut tx = self.pool.begin().await?;
        if let Some(fence) = fence {
            leases::check(&mut tx, game_id, fence).await?;
        }
        sqlx::query("DELETE FROM waits WHERE game_id = $1").bind(game_id).execute(&mut *tx).await?;
        for w in waits {
            sqlx::query(
                "INSERT INTO waits (game_id, user_id, kind, seq, since_ms, deadline_ms) VALUES ($1, $2, $3, $4, $5, $6) \
                 ON CONFLICT (game_id, user_id) DO NOTHING",
            )
            .bind(game_id)
            .bind(w.user_id)
            .bind(w.kind)
            .bind(w.seq as i64)
            .bind(w.since_ms)
            .bind(w.deadline_ms)
            .execute(&mut *tx)
            .await?;
        }
        tx.commit().await?;
        Ok(())
    }

    /// The live games waiting for `user`, the least time left first, untimed ones after (the
    /// longest waiting first), at most [`MAX_WAITS`].
    pub async fn waits_of(&self, user: i64) -> Result<Vec<WaitRow>, ApiError> {
        let rows = sqlx::query(
            "SELECT w.game_id, w.kind, w.seq, w.since_ms, w.deadline_ms FROM waits w JOIN games g ON g.id = w.game_id \
             WHERE w.user_id = $1 AND g.status = 'live' \
             ORDER BY CASE WHEN w.deadline_ms IS NULL THEN 1 ELSE 0 END, w.deadline_ms, w.since_ms, w.game_id LIMIT $2",
        )
        .bind(user)
        .bind(MAX_WAITS)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| {
                Ok(WaitRow {
                    game_id: r.try_get("game_id")?,
                    kind: r.try_get("kind")?,
                    seq: r.try_get("seq")?,
                    since_ms: r.try_get("since_ms")?,
                    deadline_ms: r.try_get("deadline_ms")?,
                })
            })
            .collect()
    }

    /// `user`'s games that ended after `after_ms` (newest first, at most `limit`), each with
    /// the game its rematch became, if any, and whether `user` holds a seat in that one.
    pub async fn recent_endings(
        &self,
        user: i64,
        after_ms: i64,
        limit: i64,
    ) -> Result<Vec<(i64, i64, Option<i64>, bool)>, ApiError> {
        let rows = sqlx::query(
            "SELECT g.id, g.finished_ms, CASE WHEN g.rematch > 0 AND EXISTS (SELECT 1 FROM games r \
               WHERE r.id = g.rematch AND r.status = 'open') THEN g.rematch ELSE NULL END AS rematch, \
               CASE WHEN EXISTS (SELECT 1 FROM seats rs WHERE rs.game_id = g.rematch AND rs.user_id = $1) \
               THEN 1 ELSE 0 END AS seated \
             FROM games g WHERE g.status = 'finished' AND g.finished_ms > $2 \
               AND EXISTS (SELECT 1 FROM seats s WHERE s.game_id = g.id AND s.user_id = $1) \
             ORDER BY g.finished_ms DESC, g.id DESC LIMIT $3",
        )
        .bind(user)
        .bind(after_ms)
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| {
                Ok((
                    r.try_get("id")?,
                    r.try_get("finished_ms")?,
                    r.try_get("rematch")?,
                    r.try_get::<i64, _>("seated")? != 0,
                ))
            })
            .collect()
    }
}
