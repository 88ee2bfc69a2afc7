//! Vacations: when each player's ran, and how much of the year's allowance they used.

use sqlx::Row;

use super::Store;
use crate::error::ApiError;

/// One vacation: from `started_ms` until it was ended (`ended_ms`) or the year's allowance ran
/// out (`until_ms`), whichever came first.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Vacation {
    pub started_ms: i64,
    pub until_ms: i64,
    pub ended_ms: Option<i64>,
}

impl Vacation {
    pub fn end_ms(&self) -> i64 {
        self.ended_ms.map_or(self.until_ms, |e| e.min(self.until_ms))
    }

    /// Whether it runs at `now`.
    pub fn runs_at(&self, now: i64) -> bool {
        self.started_ms <= now && now < self.end_ms()
    }
}

fn vacation(row: &sqlx::any::AnyRow) -> Result<Vacation, sqlx::Error> {
    Ok(Vacation {
        started_ms: row.try_get("started_ms")?,
        until_ms: row.try_get("until_ms")?,
        ended_ms: row.try_get("ended_ms")?,
    })
}

impl Store {
    /// The vacations of `user` that ran at `since_ms` or started later, oldest first (at most
    /// a year's worth: one starts only while allowance is left).
    pub async fn vacations_since(&self, user: i64, since_ms: i64) -> Result<Vec<Vacation>, ApiError> {
        let rows = sqlx::query(
            "SELECT started_ms, until_ms, ended_ms FROM vacations WHERE user_id = $1 \
             AND until_ms > $2 AND (ended_ms IS NULL OR ended_ms > $2) ORDER BY started_ms LIMIT 1000",
        )
        .bind(user)
        .bind(since_ms)
        .fetch_all(&self.pool)
        .await?;
        Ok(rows.iter().map(vacation).collect::<Result<_, _>>()?)
    }

    /// Starts a vacation of `user` at `now` that ends by itself at `until_ms`. False when one
    /// runs already.
    pub async fn start_vacation(&self, user: i64, now: i64, until_ms: i64) -> Result<bool, ApiError> {
        // One that ran out of allowance is over: closed, so that the index allows a new one.
        sqlx::query("UPDATE vacations SET ended_ms = until_ms WHERE user_id = $1 AND ended_ms IS NULL AND until_ms <= $2")
            .bind(user)
            .bind(now)
            .execute(&self.pool)
            .await?;
        let inserted = sqlx::query(
            "INSERT INTO vacations (user_id, started_ms, until_ms) SELECT $1, $2, $3 \
             WHERE NOT EXISTS (SELECT 1 FROM vacations WHERE user_id = $1 AND ended_ms IS NULL)",
        )
        .bind(user)
        .bind(now)
        .bind(until_ms)
        .execute(&self.pool)
        .await;
        match inserted {
            Ok(r) => Ok(r.rows_affected() == 1),
            // Two starts at once: the unique index kept one.
            Err(sqlx::Error::Database(e)) if e.is_unique_violation() => Ok(false),
            Err(e) => Err(e.into()),
        }
    }

    /// Ends the vacation of `user` running at `now`. False when none runs.
    pub async fn end_vacation(&self, user: i64, now: i64) -> Result<bool, ApiError> {
        let ended = sqlx::query(
            "UPDATE vacations SET ended_ms = $2 WHERE user_id = $1 AND ended_ms IS NULL AND until_ms > $2",
        )
        .bind(user)
        .bind(now)
        .execute(&self.pool)
        .await?;
        Ok(ended.rows_affected() > 0)
    }
}
