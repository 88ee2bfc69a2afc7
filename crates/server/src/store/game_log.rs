//! A game's life in the database: its start, each action appended under the instance's lease,
//! its end with the ratings it changes, and its log read back.

use sqlx::Row;

use super::{Fence, Store, leases, now_ms, ratings};
use crate::error::ApiError;

impl Store {
    /// Marks a game live (checked against `fence` when several instances share the database).
    pub async fn start_game(&self, id: i64, clock: &str, fence: Option<&Fence>) -> Result<(), ApiError> {
        let mut tx = self.pool.begin().await?;
        if let Some(fence) = fence {
            leases::check(&mut tx, id, fence).await?;
        }
        sqlx::query("UPDATE games SET status = 'live', started_ms = $1, clock = $2 WHERE id = $3")
            .bind(now_ms())
            .bind(clock)
            .bind(id)
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(())
    }

    /// Appends one action to the log, with the clock as it stands after it (`None` for untimed
    /// games: nothing to store), in one transaction: once this returns the action is committed
    /// and may be acknowledged. With several instances, `fence` must still hold the game's
    /// lease, checked under its lock in the same transaction.
    pub async fn append_action(
        &self,
        game_id: i64,
        seq: u64,
        action: &str,
        clock: Option<&str>,
        fence: Option<&Fence>,
    ) -> Result<(), ApiError> {
        let insert = sqlx::query("INSERT INTO actions (game_id, seq, action, at_ms) VALUES ($1, $2, $3, $4)")
            .bind(game_id)
            .bind(seq as i64)
            .bind(action)
            .bind(now_ms());
        if clock.is_none() && fence.is_none() {
            insert.execute(&self.pool).await?;
            return Ok(());
        }
        let mut tx = self.pool.begin().await?;
        if let Some(fence) = fence {
            leases::check(&mut tx, game_id, fence).await?;
        }
        insert.execute(&mut *tx).await?;
        let Some(clock) = clock else {
            tx.commit().await?;
            return Ok(());
        };
        sqlx::query("UPDATE games SET clock = $1 WHERE id = $2")
            .bind(clock)
            .bind(game_id)
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(())
    }

    /// Marks a game finished and, when it is rated, updates its players' ratings (`rated`: the
    /// rule system and each player's user id and place), all in one transaction: a game
    /// finishes and counts exactly once, however often this is called (a restart finishes games
    /// the log shows ended). Concurrent updates of one player's rating are compared and set on
    /// its game count, and retried. Returns why a rated game changed no rating (its players are
    /// not independent: see [`ratings::not_independent`]), which its stored result also says.
    pub async fn finish_game(
        &self,
        id: i64,
        result: &str,
        rated: Option<(&str, &[(i64, u32)])>,
        fence: Option<&Fence>,
    ) -> Result<Option<String>, ApiError> {
        for _ in 0..8 {
            let mut tx = self.pool.begin().await?;
            if let Some(fence) = fence {
                leases::check(&mut tx, id, fence).await?;
            }
            // A write first: SQLite takes its write lock here, so what follows is serialised.
            let marked = sqlx::query(
                "UPDATE games SET status = 'finished', finished_ms = $1, result = $2 WHERE id = $3 AND status <> 'finished'",
            )
            .bind(now_ms())
            .bind(result)
            .bind(id)
            .execute(&mut *tx)
            .await?
            .rows_affected();
            let Some((system, players)) = rated.filter(|_| marked == 1) else {
                tx.commit().await?;
                return Ok(None);
            };
            if let Some(reason) = ratings::not_independent(&mut tx, players).await? {
                let mut shown: serde_json::Value = serde_json::from_str(result).unwrap_or_default();
                if let Some(fields) = shown.as_object_mut() {
                    fields.insert("unrated".into(), reason.clone().into());
                }
                sqlx::query("UPDATE games SET result = $1 WHERE id = $2")
                    .bind(shown.to_string())
                    .bind(id)
                    .execute(&mut *tx)
                    .await?;
                tx.commit().await?;
                return Ok(Some(reason));
            }
            if !ratings::rate(&mut tx, id, system, players).await? {
                // Another game changed one of these ratings meanwhile: again, from the start.
                tx.rollback().await?;
                continue;
            }
            tx.commit().await?;
            return Ok(None);
        }
        Err(ApiError::Internal(format!("game {id}: the ratings kept changing under the update")))
    }

    /// The log from `after + 1` on, in order.
    pub async fn actions(&self, game_id: i64, after: u64) -> Result<Vec<(u64, String)>, ApiError> {
        Ok(self.timed_actions(game_id, after).await?.into_iter().map(|(seq, text, _)| (seq, text)).collect())
    }

    /// [`Store::actions`] with when each was played (epoch milliseconds), for records.
    pub async fn timed_actions(&self, game_id: i64, after: u64) -> Result<Vec<(u64, String, i64)>, ApiError> {
        let rows = sqlx::query(
            "SELECT seq, action, at_ms FROM actions WHERE game_id = $1 AND seq > $2 ORDER BY seq",
        )
        .bind(game_id)
        .bind(after as i64)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| Ok((r.try_get::<i64, _>("seq")? as u64, r.try_get("action")?, r.try_get("at_ms")?)))
            .collect()
    }
}
