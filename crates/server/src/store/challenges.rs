//! Challenges to named players (see `crate::social::challenges`). A pending challenge whose
//! `expires_ms` has passed reads as expired: nothing needs to sweep them.

use sqlx::{Row, any::AnyRow};

use super::{Store, now_ms};
use crate::error::ApiError;

/// A challenge as stored, with both players' names.
#[derive(Debug, Clone)]
pub struct ChallengeRow {
    pub id: i64,
    pub from_user: i64,
    pub from_name: String,
    pub to_user: i64,
    pub to_name: String,
    /// The `POST /api/games` body, as JSON.
    pub setup: String,
    pub their_seat: usize,
    /// `pending`, `accepting`, `accepted`, `declined`, `withdrawn` (an expired pending one reads
    /// `expired`).
    pub status: String,
    pub created_ms: i64,
    pub expires_ms: i64,
    pub game_id: Option<i64>,
}

/// Caps on pending challenges, checked where they cannot race.
#[derive(Debug, Clone, Copy)]
pub struct ChallengeCaps {
    pub outgoing: i64,
    pub incoming: i64,
    pub per_pair: i64,
}

// `query()` takes static SQL only: the column list is repeated.
const CHALLENGE_BY_ID: &str = "SELECT c.id, c.from_user, f.name AS from_name, c.to_user, t.name AS to_name, c.setup, \
     c.their_seat, c.status, c.created_ms, c.expires_ms, c.game_id FROM challenges c \
     JOIN users f ON f.id = c.from_user JOIN users t ON t.id = c.to_user WHERE c.id = $1";
const CHALLENGES_OF: &str = "SELECT c.id, c.from_user, f.name AS from_name, c.to_user, t.name AS to_name, c.setup, \
     c.their_seat, c.status, c.created_ms, c.expires_ms, c.game_id FROM challenges c \
     JOIN users f ON f.id = c.from_user JOIN users t ON t.id = c.to_user \
     WHERE (c.from_user = $1 OR c.to_user = $1) AND (c.status IN ('pending', 'accepting') OR c.expires_ms > $2 - 86400000) \
     ORDER BY c.id DESC LIMIT $3";

fn challenge(r: &AnyRow, now: i64) -> Result<ChallengeRow, sqlx::Error> {
    let status: String = r.try_get("status")?;
    let expires_ms: i64 = r.try_get("expires_ms")?;
    Ok(ChallengeRow {
        id: r.try_get("id")?,
        from_user: r.try_get("from_user")?,
        from_name: r.try_get("from_name")?,
        to_user: r.try_get("to_user")?,
        to_name: r.try_get("to_name")?,
        setup: r.try_get("setup")?,
        their_seat: r.try_get::<i64, _>("their_seat")? as usize,
        status: if status == "pending" && expires_ms <= now { "expired".into() } else { status },
        created_ms: r.try_get("created_ms")?,
        expires_ms,
        game_id: r.try_get("game_id")?,
    })
}

/// Which pending challenges [`pending_count`] counts.
#[derive(Clone, Copy)]
enum Pending {
    From(i64),
    To(i64),
    Pair(i64, i64),
}

/// Pending challenges (not expired at `now`) from an account, to one, or between a pair.
async fn pending_count(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    which: Pending,
    now: i64,
) -> Result<i64, ApiError> {
    let query = match which {
        Pending::From(a) => sqlx::query(
            "SELECT COUNT(*) AS n FROM challenges WHERE status IN ('pending', 'accepting') AND expires_ms > $1 AND from_user = $2",
        )
        .bind(now)
        .bind(a),
        Pending::To(b) => sqlx::query(
            "SELECT COUNT(*) AS n FROM challenges WHERE status IN ('pending', 'accepting') AND expires_ms > $1 AND to_user = $2",
        )
        .bind(now)
        .bind(b),
        Pending::Pair(a, b) => sqlx::query(
            "SELECT COUNT(*) AS n FROM challenges WHERE status IN ('pending', 'accepting') AND expires_ms > $1 AND from_user = $2 AND to_user = $3",
        )
        .bind(now)
        .bind(a)
        .bind(b),
    };
    Ok(query.fetch_one(&mut **tx).await?.try_get("n")?)
}

impl Store {
    /// Stores a pending challenge unless a cap says no (the message names it). Both accounts'
    /// rows are locked, lower id first, while counting.
    pub async fn insert_challenge(
        &self,
        from: i64,
        to: i64,
        setup: &str,
        their_seat: usize,
        expires_ms: i64,
        caps: ChallengeCaps,
    ) -> Result<i64, ApiError> {
        let now = now_ms();
        let mut tx = self.pool.begin().await?;
        for id in [from.min(to), from.max(to)] {
            sqlx::query("UPDATE users SET name = name WHERE id = $1").bind(id).execute(&mut *tx).await?;
        }
        let (out, incoming, pair) = (
            pending_count(&mut tx, Pending::From(from), now).await?,
            pending_count(&mut tx, Pending::To(to), now).await?,
            pending_count(&mut tx, Pending::Pair(from, to), now).await?,
        );
        if out >= caps.outgoing {
            return Err(ApiError::TooMany(format!(
                "at most {} challenges of yours may wait for an answer: withdraw one first",
                caps.outgoing
            )));
        }
        if incoming >= caps.incoming {
            return Err(ApiError::TooMany(format!(
                "this player already has {} challenges waiting for an answer: try again later",
                caps.incoming
            )));
        }
        if pair >= caps.per_pair {
            return Err(ApiError::TooMany(format!(
                "at most {} challenges to one player may wait at once",
                caps.per_pair
            )));
        }
        let id: i64 = sqlx::query(
            "INSERT INTO challenges (from_user, to_user, setup, their_seat, status, created_ms, expires_ms) \
             VALUES ($1, $2, $3, $4, 'pending', $5, $6) RETURNING id",
        )
        .bind(from)
        .bind(to)
        .bind(setup)
        .bind(their_seat as i64)
        .bind(now)
        .bind(expires_ms)
        .fetch_one(&mut *tx)
        .await?
        .try_get("id")?;
        tx.commit().await?;
        Ok(id)
    }

    pub async fn challenge(&self, id: i64) -> Result<Option<ChallengeRow>, ApiError> {
        let row = sqlx::query(CHALLENGE_BY_ID).bind(id).fetch_optional(&self.pool).await?;
        Ok(row.as_ref().map(|r| challenge(r, now_ms())).transpose()?)
    }

    /// `user`'s challenges still waiting for an answer, and those answered in the last day,
    /// newest first (at most `limit`).
    pub async fn challenges_of(&self, user: i64, limit: i64) -> Result<Vec<ChallengeRow>, ApiError> {
        let now = now_ms();
        let rows = sqlx::query(CHALLENGES_OF).bind(user).bind(now).bind(limit).fetch_all(&self.pool).await?;
        rows.iter().map(|r| challenge(r, now)).collect::<Result<_, _>>().map_err(Into::into)
    }

    /// Moves a challenge from `from` to `to` (with its game once accepted), if it is still in
    /// `from` and, for a pending one, not expired: false when another request got there first.
    pub async fn move_challenge(
        &self,
        id: i64,
        from: &str,
        to: &str,
        game: Option<i64>,
    ) -> Result<bool, ApiError> {
        let moved = sqlx::query(
            "UPDATE challenges SET status = $3, game_id = $4 WHERE id = $1 AND status = $2 \
             AND (status <> 'pending' OR expires_ms > $5)",
        )
        .bind(id)
        .bind(from)
        .bind(to)
        .bind(game)
        .bind(now_ms())
        .execute(&self.pool)
        .await?
        .rows_affected();
        Ok(moved == 1)
    }
}
