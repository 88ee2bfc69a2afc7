//! The tournament a game is a table of, read from the game's `tournament_id` and
//! `tournament_round` (set with the table's game, `put_table_game`) and its row of
//! `tournament_games`: a lookup by primary keys, at most one round's tables scanned.

use sqlx::Row;

use super::Store;
use crate::{error::ApiError, protocol::GameEvent};

impl Store {
    /// The tournament, round and table of `game`; None for a game of no tournament.
    pub async fn game_event(&self, game: i64) -> Result<Option<GameEvent>, ApiError> {
        let row = sqlx::query(
            "SELECT g.tournament_id, g.tournament_round, t.name, tg.table_no FROM games g \
             JOIN tournaments t ON t.id = g.tournament_id \
             JOIN tournament_games tg ON tg.tournament_id = g.tournament_id \
               AND tg.round = g.tournament_round AND tg.game_id = g.id \
             WHERE g.id = $1",
        )
        .bind(game)
        .fetch_optional(&self.pool)
        .await?;
        let Some(row) = row else { return Ok(None) };
        let round: i64 = row.try_get("tournament_round")?;
        let table: i64 = row.try_get("table_no")?;
        Ok(Some(GameEvent {
            tournament: row.try_get("tournament_id")?,
            name: row.try_get("name")?,
            round: u32::try_from(round).unwrap_or(0),
            table: u32::try_from(table).unwrap_or(0),
        }))
    }
}
