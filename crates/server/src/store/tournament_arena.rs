//! Arenas (`crate::tournament::arena`, docs/tournaments.md "Arena"): when the window of play
//! opened, and who of the entrants was seen lately (people present may be paired).

use sqlx::Row;

use super::Store;
use crate::error::ApiError;

impl Store {
    /// When the running tournament's arena window opened: noted as `now` by the first director
    /// step under `epoch` that finds none, so a restart keeps the same window. None when the
    /// claim was lost.
    pub async fn arena_started(&self, id: i64, epoch: i64, now: i64) -> Result<Option<i64>, ApiError> {
        sqlx::query(
            "UPDATE tournaments SET started_ms = $3 WHERE id = $1 AND epoch = $2 AND started_ms IS NULL",
        )
        .bind(id)
        .bind(epoch)
        .bind(now)
        .execute(&self.pool)
        .await?;
        let row = sqlx::query("SELECT started_ms FROM tournaments WHERE id = $1 AND epoch = $2")
            .bind(id)
            .bind(epoch)
            .fetch_optional(&self.pool)
            .await?;
        Ok(row.map(|r| r.try_get::<Option<i64>, _>("started_ms")).transpose()?.flatten())
    }

    /// When the tournament's arena window opened, if it did (for its page).
    pub async fn arena_start_of(&self, id: i64) -> Result<Option<i64>, ApiError> {
        let row = sqlx::query("SELECT started_ms FROM tournaments WHERE id = $1")
            .bind(id)
            .fetch_optional(&self.pool)
            .await?;
        Ok(row.map(|r| r.try_get::<Option<i64>, _>("started_ms")).transpose()?.flatten())
    }

    /// The tournament's people (by user id) seen since `since_ms`.
    pub async fn entrants_seen_since(&self, tournament: i64, since_ms: i64) -> Result<Vec<i64>, ApiError> {
        let rows = sqlx::query(
            "SELECT u.id FROM tournament_entrants e JOIN users u ON u.id = e.user_id \
             WHERE e.tournament_id = $1 AND u.last_seen_ms >= $2",
        )
        .bind(tournament)
        .bind(since_ms)
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(|r| r.try_get("id")).collect::<Result<_, sqlx::Error>>().map_err(Into::into)
    }

    /// Test hook: notes `user` as last seen at `at_ms` (or never).
    pub async fn set_last_seen(&self, user: i64, at_ms: Option<i64>) -> Result<bool, ApiError> {
        let r = sqlx::query("UPDATE users SET last_seen_ms = $2 WHERE id = $1")
            .bind(user)
            .bind(at_ms)
            .execute(&self.pool)
            .await?;
        Ok(r.rows_affected() == 1)
    }
}
