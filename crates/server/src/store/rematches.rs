//! One rematch per finished game: the first player to ask claims it, the others are sent to the
//! game it became.

use sqlx::Row;

use super::Store;
use crate::error::ApiError;

/// Where a game's rematch stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RematchClaim {
    /// This caller claimed it and must make the game (then [`Store::set_rematch`]).
    Claimed,
    /// Another caller is making it now.
    Making,
    /// It is this game.
    Made(i64),
}

impl Store {
    /// Claims the rematch of finished game `old`, or says who has.
    pub async fn claim_rematch(&self, old: i64) -> Result<RematchClaim, ApiError> {
        let claimed = sqlx::query("UPDATE games SET rematch = 0 WHERE id = $1 AND rematch IS NULL")
            .bind(old)
            .execute(&self.pool)
            .await?
            .rows_affected();
        if claimed == 1 {
            return Ok(RematchClaim::Claimed);
        }
        let made = sqlx::query("SELECT rematch FROM games WHERE id = $1")
            .bind(old)
            .fetch_optional(&self.pool)
            .await?
            .map(|r| r.try_get::<Option<i64>, _>("rematch"))
            .transpose()?
            .flatten();
        Ok(match made {
            Some(0) => RematchClaim::Making,
            Some(id) => RematchClaim::Made(id),
            // Released between the two statements: whoever asks again claims it.
            None => RematchClaim::Making,
        })
    }

    /// Records the game `old`'s claimed rematch became.
    pub async fn set_rematch(&self, old: i64, new: i64) -> Result<(), ApiError> {
        sqlx::query("UPDATE games SET rematch = $2 WHERE id = $1")
            .bind(old)
            .bind(new)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// Gives up a claim whose game could not be made (a quota, a full server), so that another
    /// player may try.
    pub async fn release_rematch(&self, old: i64) -> Result<(), ApiError> {
        sqlx::query("UPDATE games SET rematch = NULL WHERE id = $1 AND rematch = 0")
            .bind(old)
            .execute(&self.pool)
            .await?;
        Ok(())
    }
}
