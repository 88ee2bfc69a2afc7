//! Finished games written in one go from a record: the test hook `POST /api/test/games`
//! (`crate::test_games`) stores a game as if it had been played, so that tests of reviews reach
//! a finished game of any system without playing it.

use super::{NewSeat, Store, insert_seats, now_ms};
use crate::error::ApiError;

/// A finished game to store: its settings, seats, action log and result, as a played game has.
#[derive(Debug)]
pub struct FinishedGame<'a> {
    pub creator: i64,
    pub setup: &'a str,
    pub brief: &'a str,
    pub public: bool,
    pub invite: Option<&'a str>,
    pub seats: &'a [NewSeat],
    /// Each action's logged text and when it was played (epoch milliseconds).
    pub actions: &'a [(String, i64)],
    pub result: &'a str,
}

impl Store {
    /// Stores a finished game in one transaction; returns its id.
    pub async fn insert_finished_game(&self, g: &FinishedGame<'_>) -> Result<i64, ApiError> {
        let now = now_ms();
        let started = g.actions.first().map_or(now, |a| a.1.min(now));
        let mut tx = self.pool.begin().await?;
        let id: i64 = sqlx::query_scalar(
            "INSERT INTO games (creator, setup, brief, status, public, invite, created_ms, started_ms, finished_ms, result, casual) \
             VALUES ($1, $2, $3, 'finished', $4, $5, $6, $6, $7, $8, 0) RETURNING id",
        )
        .bind(g.creator)
        .bind(g.setup)
        .bind(g.brief)
        .bind(i64::from(g.public))
        .bind(g.invite)
        .bind(started)
        .bind(now)
        .bind(g.result)
        .fetch_one(&mut *tx)
        .await?;
        insert_seats(&mut tx, id, g.seats).await?;
        for (seq, (text, at_ms)) in g.actions.iter().enumerate() {
            sqlx::query("INSERT INTO actions (game_id, seq, action, at_ms) VALUES ($1, $2, $3, $4)")
                .bind(id)
                .bind(seq as i64 + 1)
                .bind(text)
                .bind(at_ms)
                .execute(&mut *tx)
                .await?;
        }
        tx.commit().await?;
        Ok(id)
    }
}
