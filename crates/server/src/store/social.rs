//! Presence, follows and blocks (see `crate::social`).

use sqlx::Row;

use super::Store;
use crate::error::ApiError;

/// Presence is written at most this often per account: a lobby polling every few seconds and a
/// socket pinging costs one write a minute.
pub const SEEN_EVERY_MS: i64 = 60_000;

/// A followed or blocked account, with when it was last seen.
#[derive(Debug, Clone)]
pub struct Related {
    pub id: i64,
    pub name: String,
    pub kind: String,
    pub last_seen_ms: Option<i64>,
}

impl Store {
    /// Notes that `user` is here now, unless that was noted less than [`SEEN_EVERY_MS`] ago.
    pub async fn touch(&self, user: i64, now: i64) -> Result<(), ApiError> {
        sqlx::query(
            "UPDATE users SET last_seen_ms = $2 WHERE id = $1 AND (last_seen_ms IS NULL OR last_seen_ms < $3)",
        )
        .bind(user)
        .bind(now)
        .bind(now - SEEN_EVERY_MS)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    pub async fn last_seen(&self, user: i64) -> Result<Option<i64>, ApiError> {
        let row = sqlx::query("SELECT last_seen_ms FROM users WHERE id = $1")
            .bind(user)
            .fetch_optional(&self.pool)
            .await?;
        Ok(row.map(|r| r.try_get::<Option<i64>, _>("last_seen_ms")).transpose()?.flatten())
    }

    /// Adds `(a, b)` to `table` (`follows` or `blocks`) unless `a` already has `max` there.
    /// Returns false when the cap is reached (adding one that is there already is fine).
    pub async fn relate(&self, table: Relation, a: i64, b: i64, max: i64) -> Result<bool, ApiError> {
        let mut tx = self.pool.begin().await?;
        // A write first: the account's row is locked (SQLite: the write lock) while counting.
        sqlx::query("UPDATE users SET name = name WHERE id = $1").bind(a).execute(&mut *tx).await?;
        let (count, insert) = match table {
            Relation::Follow => (
                "SELECT COUNT(*) AS n FROM follows WHERE follower = $1",
                "INSERT INTO follows (follower, followed, at_ms) SELECT $1, $2, $3 \
                 WHERE NOT EXISTS (SELECT 1 FROM follows WHERE follower = $1 AND followed = $2)",
            ),
            Relation::Block => (
                "SELECT COUNT(*) AS n FROM blocks WHERE blocker = $1",
                "INSERT INTO blocks (blocker, blocked, at_ms) SELECT $1, $2, $3 \
                 WHERE NOT EXISTS (SELECT 1 FROM blocks WHERE blocker = $1 AND blocked = $2)",
            ),
        };
        let n: i64 = sqlx::query(count).bind(a).fetch_one(&mut *tx).await?.try_get("n")?;
        let inserted = sqlx::query(insert)
            .bind(a)
            .bind(b)
            .bind(super::now_ms())
            .execute(&mut *tx)
            .await?
            .rows_affected();
        if inserted == 1 && n >= max {
            tx.rollback().await?;
            return Ok(false);
        }
        tx.commit().await?;
        Ok(true)
    }

    pub async fn unrelate(&self, table: Relation, a: i64, b: i64) -> Result<(), ApiError> {
        let sql = match table {
            Relation::Follow => "DELETE FROM follows WHERE follower = $1 AND followed = $2",
            Relation::Block => "DELETE FROM blocks WHERE blocker = $1 AND blocked = $2",
        };
        sqlx::query(sql).bind(a).bind(b).execute(&self.pool).await?;
        Ok(())
    }

    /// The accounts `a` follows or blocks, by name.
    pub async fn related(&self, table: Relation, a: i64) -> Result<Vec<Related>, ApiError> {
        let sql = match table {
            Relation::Follow => {
                "SELECT u.id, u.name, u.kind, u.last_seen_ms FROM follows f JOIN users u ON u.id = f.followed \
                 WHERE f.follower = $1 ORDER BY u.name"
            }
            Relation::Block => {
                "SELECT u.id, u.name, u.kind, u.last_seen_ms FROM blocks b JOIN users u ON u.id = b.blocked \
                 WHERE b.blocker = $1 ORDER BY u.name"
            }
        };
        let rows = sqlx::query(sql).bind(a).fetch_all(&self.pool).await?;
        rows.iter()
            .map(|r| {
                Ok(Related {
                    id: r.try_get("id")?,
                    name: r.try_get("name")?,
                    kind: r.try_get("kind")?,
                    last_seen_ms: r.try_get("last_seen_ms")?,
                })
            })
            .collect::<Result<_, sqlx::Error>>()
            .map_err(Into::into)
    }

    /// Whether `a` follows or blocks `b`.
    pub async fn relates(&self, table: Relation, a: i64, b: i64) -> Result<bool, ApiError> {
        let sql = match table {
            Relation::Follow => "SELECT COUNT(*) AS n FROM follows WHERE follower = $1 AND followed = $2",
            Relation::Block => "SELECT COUNT(*) AS n FROM blocks WHERE blocker = $1 AND blocked = $2",
        };
        let n: i64 = sqlx::query(sql).bind(a).bind(b).fetch_one(&self.pool).await?.try_get("n")?;
        Ok(n > 0)
    }

    /// Whether the creator of game `game`, or a player seated in it, blocked `user`.
    pub async fn blocked_in_game(&self, game: i64, user: i64) -> Result<bool, ApiError> {
        let n: i64 = sqlx::query(
            "SELECT COUNT(*) AS n FROM blocks WHERE blocked = $2 AND (blocker = (SELECT creator FROM games WHERE id = $1) \
             OR blocker IN (SELECT user_id FROM seats WHERE game_id = $1 AND user_id IS NOT NULL))",
        )
        .bind(game)
        .bind(user)
        .fetch_one(&self.pool)
        .await?
        .try_get("n")?;
        Ok(n > 0)
    }

    /// Public live games of the accounts `follower` follows: (the followed account, the game).
    pub async fn live_games_followed(&self, follower: i64, limit: i64) -> Result<Vec<(i64, i64)>, ApiError> {
        let rows = sqlx::query(
            "SELECT s.user_id, g.id FROM seats s JOIN games g ON g.id = s.game_id \
             WHERE g.status = 'live' AND g.public = 1 \
             AND s.user_id IN (SELECT followed FROM follows WHERE follower = $1) ORDER BY g.id DESC LIMIT $2",
        )
        .bind(follower)
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| Ok((r.try_get("user_id")?, r.try_get("id")?)))
            .collect::<Result<_, sqlx::Error>>()
            .map_err(Into::into)
    }
}

/// Which list [`Store::relate`] and its siblings work on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Relation {
    Follow,
    Block,
}

impl Store {
    /// The accounts `user` blocked or was blocked by.
    pub async fn blocks_around(&self, user: i64) -> Result<std::collections::HashSet<i64>, ApiError> {
        let rows = sqlx::query(
            "SELECT blocked AS other FROM blocks WHERE blocker = $1 UNION SELECT blocker AS other FROM blocks WHERE blocked = $1",
        )
        .bind(user)
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(|r| r.try_get::<i64, _>("other")).collect::<Result<_, _>>().map_err(Into::into)
    }
}
