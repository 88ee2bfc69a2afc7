//! Moderation in the database (see `crate::moderation`, docs/moderation.md): roles, sanctions,
//! reports, the audit log, deleted chat lines, voided ratings and daily sign-ups per address.

use sqlx::{Row, any::AnyRow};

use super::{Store, now_ms};
use crate::error::ApiError;

/// What applies to an account now: its role and the sanctions that have not ended, each with
/// its own reason (lifting one leaves the others' as they were).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Standing {
    pub role: String,
    pub muted_until_ms: Option<i64>,
    pub mute_reason: Option<String>,
    pub suspended_until_ms: Option<i64>,
    pub suspension_reason: Option<String>,
    pub banned: bool,
    pub ban_reason: Option<String>,
}

/// One account's sanctions as read (`prefix` "" for the account, "owner_" for a bot's owner);
/// ended mutes and suspensions read as none.
fn sanctions(row: &AnyRow, prefix: &str, now: i64) -> Result<Standing, sqlx::Error> {
    let column = |name: &str| format!("{prefix}{name}");
    let running = |until: Option<i64>| until.filter(|u| *u > now);
    let muted = running(row.try_get(column("muted_until_ms").as_str())?);
    let suspended = running(row.try_get(column("suspended_until_ms").as_str())?);
    let banned = row.try_get::<Option<i64>, _>(column("banned_ms").as_str())?.is_some();
    let reason = |on: bool, name: &str| -> Result<Option<String>, sqlx::Error> {
        if on { row.try_get(column(name).as_str()) } else { Ok(None) }
    };
    Ok(Standing {
        role: String::new(),
        mute_reason: reason(muted.is_some(), "mute_reason")?,
        muted_until_ms: muted,
        suspension_reason: reason(suspended.is_some(), "suspension_reason")?,
        suspended_until_ms: suspended,
        ban_reason: reason(banned, "ban_reason")?,
        banned,
    })
}

/// Of two sanctions of one kind, the one that ends later, with its reason.
fn later(
    a: (Option<i64>, Option<String>),
    b: (Option<i64>, Option<String>),
) -> (Option<i64>, Option<String>) {
    if a.0 >= b.0 { a } else { b }
}

impl Standing {
    /// Reads the columns of [`STANDING_COLUMNS`]: a bot answers for its owner's sanctions too
    /// (a muted, suspended or banned owner does not go on through a bot).
    pub(super) fn from_row(row: &AnyRow, now: i64) -> Result<Standing, sqlx::Error> {
        let own = sanctions(row, "", now)?;
        let owner = match row.try_get::<Option<i64>, _>("owner_id")? {
            Some(_) => sanctions(row, "owner_", now)?,
            None => Standing::default(),
        };
        let (muted_until_ms, mute_reason) =
            later((own.muted_until_ms, own.mute_reason), (owner.muted_until_ms, owner.mute_reason));
        let (suspended_until_ms, suspension_reason) = later(
            (own.suspended_until_ms, own.suspension_reason),
            (owner.suspended_until_ms, owner.suspension_reason),
        );
        Ok(Standing {
            role: row.try_get("role")?,
            muted_until_ms,
            mute_reason,
            suspended_until_ms,
            suspension_reason,
            banned: own.banned || owner.banned,
            ban_reason: own.ban_reason.or(owner.ban_reason),
        })
    }

    /// The reason of the weightiest sanction that applies (ban, suspension, mute), for the
    /// player to read.
    pub fn reason(&self) -> Option<&str> {
        fn of(on: bool, r: &Option<String>) -> Option<&str> {
            if on { r.as_deref() } else { None }
        }
        of(self.banned, &self.ban_reason)
            .or_else(|| of(self.suspended_until_ms.is_some(), &self.suspension_reason))
            .or_else(|| of(self.muted_until_ms.is_some(), &self.mute_reason))
    }
}

/// The columns [`Standing::from_row`] reads (`users` is the account), with [`STANDING_JOIN`].
pub const STANDING_COLUMNS: &str = "users.role, users.muted_until_ms, users.mute_reason, \
     users.suspended_until_ms, users.suspension_reason, users.banned_ms, users.ban_reason, \
     owner.id AS owner_id, owner.muted_until_ms AS owner_muted_until_ms, \
     owner.mute_reason AS owner_mute_reason, owner.suspended_until_ms AS owner_suspended_until_ms, \
     owner.suspension_reason AS owner_suspension_reason, owner.banned_ms AS owner_banned_ms, \
     owner.ban_reason AS owner_ban_reason";
pub const STANDING_JOIN: &str = "LEFT JOIN users owner ON owner.id = users.owner";

/// One sanction column and its new value.
#[derive(Debug, Clone, Copy)]
pub enum Sanction {
    MutedUntil(Option<i64>),
    SuspendedUntil(Option<i64>),
    Banned(Option<i64>),
}

/// A chat line as moderators read it (deleted ones included).
#[derive(Debug, Clone)]
pub struct ChatRow {
    pub id: i64,
    pub game_id: i64,
    pub user_id: Option<i64>,
    pub from: Option<String>,
    pub text: String,
    pub at_ms: i64,
    pub deleted: bool,
}

fn chat_row(r: &AnyRow) -> Result<ChatRow, sqlx::Error> {
    Ok(ChatRow {
        id: r.try_get("id")?,
        game_id: r.try_get("game_id")?,
        user_id: r.try_get("user_id")?,
        from: r.try_get("name")?,
        text: r.try_get("text")?,
        at_ms: r.try_get("at_ms")?,
        deleted: r.try_get::<Option<i64>, _>("deleted_ms")?.is_some(),
    })
}

const CHAT_SELECT: &str = "SELECT chat.id, chat.game_id, chat.user_id, users.name, chat.text, chat.at_ms, \
     chat.deleted_ms FROM chat LEFT JOIN users ON users.id = chat.user_id";

impl Store {
    pub async fn standing(&self, user: i64) -> Result<Standing, ApiError> {
        let sql = format!("SELECT {STANDING_COLUMNS} FROM users {STANDING_JOIN} WHERE users.id = $1");
        let row = sqlx::query(sqlx::AssertSqlSafe(sql)).bind(user).fetch_optional(&self.pool).await?;
        let row = row.ok_or_else(|| ApiError::NotFound("no such account".into()))?;
        Ok(Standing::from_row(&row, now_ms())?)
    }

    pub async fn set_role(&self, user: i64, role: &str) -> Result<(), ApiError> {
        sqlx::query("UPDATE users SET role = $2 WHERE id = $1")
            .bind(user)
            .bind(role)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// Sets one sanction with the reason the player is shown (lifting one keeps its reason,
    /// unread until it is set again). A suspension or ban also withdraws the account's seek and
    /// declines its pending challenges, both ways; a ban ends its sessions and its bots'.
    pub async fn sanction(&self, user: i64, sanction: Sanction, reason: &str) -> Result<(), ApiError> {
        let (column, reason_column, value) = match sanction {
            Sanction::MutedUntil(v) => ("muted_until_ms", "mute_reason", v),
            Sanction::SuspendedUntil(v) => ("suspended_until_ms", "suspension_reason", v),
            Sanction::Banned(v) => ("banned_ms", "ban_reason", v),
        };
        let mut tx = self.pool.begin().await?;
        let sql = match value {
            Some(_) => format!("UPDATE users SET {column} = $2, {reason_column} = $3 WHERE id = $1"),
            None => format!("UPDATE users SET {column} = $2 WHERE id = $1"),
        };
        let mut query = sqlx::query(sqlx::AssertSqlSafe(sql)).bind(user).bind(value);
        if value.is_some() {
            query = query.bind(reason);
        }
        query.execute(&mut *tx).await?;
        if matches!(sanction, Sanction::SuspendedUntil(Some(_)) | Sanction::Banned(Some(_))) {
            sqlx::query("DELETE FROM seeks WHERE user_id = $1").bind(user).execute(&mut *tx).await?;
            sqlx::query(
                "UPDATE challenges SET status = 'declined' \
                 WHERE (from_user = $1 OR to_user = $1) AND status = 'pending'",
            )
            .bind(user)
            .execute(&mut *tx)
            .await?;
        }
        if matches!(sanction, Sanction::Banned(Some(_))) {
            sqlx::query(
                "DELETE FROM sessions WHERE user_id IN (SELECT id FROM users WHERE id = $1 OR owner = $1)",
            )
            .bind(user)
            .execute(&mut *tx)
            .await?;
        }
        tx.commit().await?;
        Ok(())
    }

    /// The hashes of the sessions of `user` and of its bots (to close their sockets).
    pub async fn session_hashes(&self, user: i64) -> Result<Vec<String>, ApiError> {
        let rows = sqlx::query(
            "SELECT token_hash FROM sessions WHERE user_id IN (SELECT id FROM users WHERE id = $1 OR owner = $1)",
        )
        .bind(user)
        .fetch_all(&self.pool)
        .await?;
        Ok(rows.iter().map(|r| r.try_get("token_hash")).collect::<Result<_, _>>()?)
    }

    /// The games `user` holds a seat in, with whether each is live.
    pub async fn seated_games(&self, user: i64) -> Result<Vec<(i64, bool)>, ApiError> {
        let rows = sqlx::query(
            "SELECT games.id, games.status FROM seats JOIN games ON games.id = seats.game_id WHERE seats.user_id = $1",
        )
        .bind(user)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| Ok((r.try_get("id")?, r.try_get::<String, _>("status")? == "live")))
            .collect::<Result<_, sqlx::Error>>()
            .map_err(Into::into)
    }

    pub async fn rename(&self, user: i64, name: &str) -> Result<(), ApiError> {
        sqlx::query("UPDATE users SET name = $2, name_key = $3 WHERE id = $1")
            .bind(user)
            .bind(name)
            .bind(crate::auth::name_key(name))
            .execute(&self.pool)
            .await
            .map_err(|e| {
                super::unique_violation(e, || ApiError::Conflict(format!("the name {name:?} is taken")))
            })?;
        // Tournaments show their entrants by the name they entered under.
        sqlx::query("UPDATE tournament_entrants SET name = $2 WHERE user_id = $1")
            .bind(user)
            .bind(name)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    pub async fn chat_line(&self, id: i64) -> Result<Option<ChatRow>, ApiError> {
        let sql = format!("{CHAT_SELECT} WHERE chat.id = $1");
        let row = sqlx::query(sqlx::AssertSqlSafe(sql)).bind(id).fetch_optional(&self.pool).await?;
        Ok(row.as_ref().map(chat_row).transpose()?)
    }

    /// The lines of game `game` around line `around` (`n` each side), or its last `2n` lines.
    pub async fn chat_context(
        &self,
        game: i64,
        around: Option<i64>,
        n: i64,
    ) -> Result<Vec<ChatRow>, ApiError> {
        let (before, after) = match around {
            Some(id) => {
                let before = format!(
                    "{CHAT_SELECT} WHERE chat.game_id = $1 AND chat.id <= $2 ORDER BY chat.id DESC LIMIT $3"
                );
                let after = format!(
                    "{CHAT_SELECT} WHERE chat.game_id = $1 AND chat.id > $2 ORDER BY chat.id LIMIT $3"
                );
                let q = |sql: String, limit: i64| {
                    sqlx::query(sqlx::AssertSqlSafe(sql))
                        .bind(game)
                        .bind(id)
                        .bind(limit)
                        .fetch_all(&self.pool)
                };
                (q(before, n + 1).await?, q(after, n).await?)
            }
            None => {
                let sql = format!("{CHAT_SELECT} WHERE chat.game_id = $1 ORDER BY chat.id DESC LIMIT $2");
                (
                    sqlx::query(sqlx::AssertSqlSafe(sql))
                        .bind(game)
                        .bind(2 * n)
                        .fetch_all(&self.pool)
                        .await?,
                    vec![],
                )
            }
        };
        let mut lines: Vec<ChatRow> =
            before.iter().rev().chain(&after).map(chat_row).collect::<Result<_, _>>()?;
        lines.sort_by_key(|l| l.id);
        Ok(lines)
    }

    /// Marks a chat line deleted; false if it was already.
    pub async fn delete_chat(&self, id: i64) -> Result<bool, ApiError> {
        let r = sqlx::query("UPDATE chat SET deleted_ms = $2 WHERE id = $1 AND deleted_ms IS NULL")
            .bind(id)
            .bind(now_ms())
            .execute(&self.pool)
            .await?;
        Ok(r.rows_affected() == 1)
    }

    /// Takes back what game `game` did to its players' ratings (each mu by its change, one
    /// game fewer) and forgets its history rows: the players' names and mu changes returned,
    /// none when it moved no rating. The rows are deleted first and only those this call
    /// deleted are taken back, so two voids at once take back one game, not two.
    pub async fn void_rating(&self, game: i64) -> Result<Vec<(String, f64)>, ApiError> {
        let mut tx = self.pool.begin().await?;
        let rows = sqlx::query(
            "DELETE FROM rating_history WHERE game_id = $1 RETURNING user_id, system, players, mu_before, mu_after",
        )
        .bind(game)
        .fetch_all(&mut *tx)
        .await?;
        let mut voided = Vec::with_capacity(rows.len());
        for r in &rows {
            let user: i64 = r.try_get("user_id")?;
            let change = r.try_get::<f64, _>("mu_after")? - r.try_get::<f64, _>("mu_before")?;
            // `games` changes too: a rating update running meanwhile compares it and retries.
            sqlx::query(
                "UPDATE ratings SET mu = mu - $1, games = games - 1 \
                 WHERE user_id = $2 AND system = $3 AND players = $4 AND games > 0",
            )
            .bind(change)
            .bind(user)
            .bind(r.try_get::<String, _>("system")?)
            .bind(r.try_get::<i64, _>("players")?)
            .execute(&mut *tx)
            .await?;
            let name =
                sqlx::query("SELECT name FROM users WHERE id = $1").bind(user).fetch_one(&mut *tx).await?;
            voided.push((name.try_get::<String, _>("name")?, -change));
        }
        tx.commit().await?;
        Ok(voided)
    }

    /// Counts a new account from the address with this hash unless `limit` were made from it
    /// since `since_ms` (false then), forgetting rows older than that (the table holds a day).
    pub async fn add_signup(&self, address_hash: &str, since_ms: i64, limit: i64) -> Result<bool, ApiError> {
        sqlx::query("DELETE FROM signups WHERE at_ms < $1").bind(since_ms).execute(&self.pool).await?;
        let r = sqlx::query(
            "INSERT INTO signups (address_hash, at_ms) SELECT $1, $2 \
             WHERE (SELECT COUNT(*) FROM signups WHERE address_hash = $1) < $3",
        )
        .bind(address_hash)
        .bind(now_ms())
        .bind(limit)
        .execute(&self.pool)
        .await?;
        Ok(r.rows_affected() == 1)
    }
}
