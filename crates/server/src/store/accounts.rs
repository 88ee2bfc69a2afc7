//! Accounts and sessions: people, guests and the bots a person owns, the sessions they sign in
//! with, and the keys that make two spellings of a name one account.

use sqlx::{Row, any::AnyRow};

use super::{Store, moderation, now_ms, unique_violation};
use crate::error::ApiError;

#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize, ts_rs::TS)]
pub struct User {
    pub id: i64,
    pub name: String,
    /// `guest`, `registered` or `bot`.
    pub kind: String,
    #[serde(skip)]
    pub password_hash: Option<String>,
}

pub(super) fn user(row: &AnyRow) -> Result<User, sqlx::Error> {
    Ok(User {
        id: row.try_get("id")?,
        name: row.try_get("name")?,
        kind: row.try_get("kind")?,
        password_hash: row.try_get("password_hash")?,
    })
}

impl Store {
    /// Accounts without a key get theirs: those made before names were compared by key, and
    /// every account after a migration that changed the key (it clears them all). Oldest
    /// first: of two names with one key (possible before), the older keeps it and the other
    /// gets a key of its own, which no name typed at login has.
    pub(super) async fn fill_name_keys(&self) -> Result<(), ApiError> {
        let rows = sqlx::query("SELECT id, name FROM users WHERE name_key IS NULL ORDER BY id")
            .fetch_all(&self.pool)
            .await?;
        for row in rows {
            let id: i64 = row.try_get("id")?;
            let name: String = row.try_get("name")?;
            let key = crate::auth::name_key(&name);
            let set = |key: String| {
                sqlx::query("UPDATE users SET name_key = $1 WHERE id = $2")
                    .bind(key)
                    .bind(id)
                    .execute(&self.pool)
            };
            if let Err(e) = set(key.clone()).await {
                match &e {
                    sqlx::Error::Database(d) if d.is_unique_violation() => {
                        set(format!("{key}#{id}")).await?;
                    }
                    _ => return Err(e.into()),
                }
            }
        }
        Ok(())
    }

    pub async fn create_user(
        &self,
        name: &str,
        kind: &str,
        password_hash: Option<&str>,
        owner: Option<i64>,
    ) -> Result<User, ApiError> {
        let row = sqlx::query(
            "INSERT INTO users (name, name_key, kind, password_hash, owner, created_ms) VALUES ($1, $2, $3, $4, $5, $6) \
             RETURNING id, name, kind, password_hash",
        )
        .bind(name)
        .bind(crate::auth::name_key(name))
        .bind(kind)
        .bind(password_hash)
        .bind(owner)
        .bind(now_ms())
        .fetch_one(&self.pool)
        .await
        .map_err(|e| unique_violation(e, || ApiError::Conflict(format!("the name {name:?} is taken"))))?;
        Ok(user(&row)?)
    }

    pub async fn user_by_name(&self, name: &str) -> Result<Option<User>, ApiError> {
        let row = sqlx::query("SELECT id, name, kind, password_hash FROM users WHERE name_key = $1")
            .bind(crate::auth::name_key(name))
            .fetch_optional(&self.pool)
            .await?;
        Ok(row.as_ref().map(user).transpose()?)
    }

    pub async fn user_by_id(&self, id: i64) -> Result<Option<User>, ApiError> {
        let row = sqlx::query("SELECT id, name, kind, password_hash FROM users WHERE id = $1")
            .bind(id)
            .fetch_optional(&self.pool)
            .await?;
        Ok(row.as_ref().map(user).transpose()?)
    }

    /// Turns a guest into a registered account, keeping its games.
    pub async fn register_guest(&self, id: i64, name: &str, password_hash: &str) -> Result<User, ApiError> {
        let row = sqlx::query(
            "UPDATE users SET name = $1, name_key = $4, kind = 'registered', password_hash = $2 \
             WHERE id = $3 AND kind = 'guest' RETURNING id, name, kind, password_hash",
        )
        .bind(name)
        .bind(password_hash)
        .bind(id)
        .bind(crate::auth::name_key(name))
        .fetch_optional(&self.pool)
        .await
        .map_err(|e| unique_violation(e, || ApiError::Conflict(format!("the name {name:?} is taken"))))?;
        let row = row.ok_or_else(|| ApiError::Conflict("only a guest account can be claimed".into()))?;
        Ok(user(&row)?)
    }

    /// A session ending at `expires_ms` (never when `None`: program tokens).
    pub async fn insert_session(
        &self,
        token_hash: &str,
        user_id: i64,
        kind: &str,
        expires_ms: Option<i64>,
    ) -> Result<(), ApiError> {
        sqlx::query(
            "INSERT INTO sessions (token_hash, user_id, kind, created_ms, expires_ms) VALUES ($1, $2, $3, $4, $5)",
        )
        .bind(token_hash)
        .bind(user_id)
        .bind(kind)
        .bind(now_ms())
        .bind(expires_ms)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// The user of a session that has not ended, with when it ends and the account's standing
    /// (read in the same query: every request needs it).
    pub async fn session_user(
        &self,
        token_hash: &str,
    ) -> Result<Option<(User, Option<i64>, moderation::Standing)>, ApiError> {
        let sql = format!(
            "SELECT users.id, users.name, users.kind, users.password_hash, sessions.expires_ms, {} \
             FROM sessions JOIN users ON users.id = sessions.user_id {} \
             WHERE sessions.token_hash = $1 AND (sessions.expires_ms IS NULL OR sessions.expires_ms > $2)",
            moderation::STANDING_COLUMNS,
            moderation::STANDING_JOIN
        );
        let now = now_ms();
        let row = sqlx::query(sqlx::AssertSqlSafe(sql))
            .bind(token_hash)
            .bind(now)
            .fetch_optional(&self.pool)
            .await?;
        row.map(|r| Ok((user(&r)?, r.try_get("expires_ms")?, moderation::Standing::from_row(&r, now)?)))
            .transpose()
    }

    /// Forgets sessions that have ended.
    pub async fn delete_ended_sessions(&self) -> Result<u64, ApiError> {
        let r = sqlx::query("DELETE FROM sessions WHERE expires_ms IS NOT NULL AND expires_ms <= $1")
            .bind(now_ms())
            .execute(&self.pool)
            .await?;
        Ok(r.rows_affected())
    }

    pub async fn delete_session(&self, token_hash: &str) -> Result<(), ApiError> {
        sqlx::query("DELETE FROM sessions WHERE token_hash = $1")
            .bind(token_hash)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// A new bot account of `owner`, unless it already has `max_bots`: counted and inserted
    /// under the owner's row lock, like [`Store::create_game`], so that simultaneous requests
    /// cannot pass the cap together.
    pub async fn create_bot(&self, owner: i64, name: &str, max_bots: i64) -> Result<User, ApiError> {
        let mut tx = self.pool.begin().await?;
        // A write first: PostgreSQL locks the owner's row, SQLite takes its write lock.
        sqlx::query("UPDATE users SET name = name WHERE id = $1").bind(owner).execute(&mut *tx).await?;
        let bots: i64 = sqlx::query("SELECT COUNT(*) AS n FROM users WHERE owner = $1 AND kind = 'bot'")
            .bind(owner)
            .fetch_one(&mut *tx)
            .await?
            .try_get("n")?;
        if bots >= max_bots {
            return Err(ApiError::TooMany(format!("at most {max_bots} bots per owner")));
        }
        let row = sqlx::query(
            "INSERT INTO users (name, name_key, kind, password_hash, owner, created_ms) \
             VALUES ($1, $2, 'bot', NULL, $3, $4) RETURNING id, name, kind, password_hash",
        )
        .bind(name)
        .bind(crate::auth::name_key(name))
        .bind(owner)
        .bind(now_ms())
        .fetch_one(&mut *tx)
        .await
        .map_err(|e| unique_violation(e, || ApiError::Conflict(format!("the name {name:?} is taken"))))?;
        let bot = user(&row)?;
        tx.commit().await?;
        Ok(bot)
    }

    /// `owner`'s bot called `name` (as names compare), if it has one.
    pub async fn bot_of(&self, owner: i64, name: &str) -> Result<Option<User>, ApiError> {
        let row = sqlx::query(
            "SELECT id, name, kind, password_hash FROM users WHERE name_key = $1 AND owner = $2 AND kind = 'bot'",
        )
        .bind(crate::auth::name_key(name))
        .bind(owner)
        .fetch_optional(&self.pool)
        .await?;
        Ok(row.as_ref().map(user).transpose()?)
    }

    /// Replaces every token of `user_id` by one new one, in one transaction (no moment with
    /// both, none lost half-way); returns the old tokens' hashes, to close their sockets.
    pub async fn replace_tokens(
        &self,
        user_id: i64,
        token_hash: &str,
        kind: &str,
        expires_ms: Option<i64>,
    ) -> Result<Vec<String>, ApiError> {
        let mut tx = self.pool.begin().await?;
        // The write first: an SQLite transaction that read first cannot become a writer once
        // another has written (it fails at once, "database is locked").
        let old = sqlx::query("DELETE FROM sessions WHERE user_id = $1 RETURNING token_hash")
            .bind(user_id)
            .fetch_all(&mut *tx)
            .await?
            .iter()
            .map(|r| r.try_get("token_hash"))
            .collect::<Result<Vec<String>, _>>()?;
        sqlx::query(
            "INSERT INTO sessions (token_hash, user_id, kind, created_ms, expires_ms) VALUES ($1, $2, $3, $4, $5)",
        )
        .bind(token_hash)
        .bind(user_id)
        .bind(kind)
        .bind(now_ms())
        .bind(expires_ms)
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(old)
    }

    pub async fn bots_of(&self, owner: i64) -> Result<Vec<User>, ApiError> {
        let rows =
            sqlx::query("SELECT id, name, kind, password_hash FROM users WHERE owner = $1 ORDER BY id")
                .bind(owner)
                .fetch_all(&self.pool)
                .await?;
        Ok(rows.iter().map(user).collect::<Result<_, _>>()?)
    }
}
