//! Moderation in the database (see `crate::moderation`, docs/moderation.md): roles, sanctions,
//! reports, the audit log, deleted chat lines, voided ratings and daily sign-ups per address.

use sqlx::{Row, any::AnyRow};

use super::{Store, now_ms};
use crate::error::ApiError;

/// What applies to an account now: its role and the sanctions that have not ended.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Standing {
    pub role: String,
    pub muted_until_ms: Option<i64>,
    pub suspended_until_ms: Option<i64>,
    pub banned: bool,
    pub reason: Option<String>,
}

impl Standing {
    /// Reads the users columns of `crate::store::Store::session_user` and `standing`: ended
    /// mutes and suspensions read as none.
    pub(super) fn from_row(row: &AnyRow, now: i64) -> Result<Standing, sqlx::Error> {
        let running = |until: Option<i64>| until.filter(|u| *u > now);
        let muted = running(row.try_get("muted_until_ms")?);
        let suspended = running(row.try_get("suspended_until_ms")?);
        let banned = row.try_get::<Option<i64>, _>("banned_ms")?.is_some();
        let any = muted.is_some() || suspended.is_some() || banned;
        Ok(Standing {
            role: row.try_get("role")?,
            muted_until_ms: muted,
            suspended_until_ms: suspended,
            banned,
            reason: if any { row.try_get("sanction_reason")? } else { None },
        })
    }
}

/// The columns [`Standing::from_row`] reads.
pub const STANDING_COLUMNS: &str =
    "users.role, users.muted_until_ms, users.suspended_until_ms, users.banned_ms, users.sanction_reason";

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

/// A report with the names it refers to.
#[derive(Debug, Clone)]
pub struct ReportRow {
    pub id: i64,
    pub reporter: String,
    pub user: Option<String>,
    pub game: Option<i64>,
    pub chat: Option<i64>,
    pub reason: String,
    pub text: String,
    pub created_ms: i64,
    pub status: String,
    pub closed_by: Option<String>,
    pub note: Option<String>,
}

/// A new report.
#[derive(Debug, Clone)]
pub struct NewReport<'a> {
    pub reporter: i64,
    pub user: Option<i64>,
    pub game: Option<i64>,
    pub chat: Option<i64>,
    pub reason: &'a str,
    pub text: &'a str,
}

/// One line of the audit log.
#[derive(Debug, Clone)]
pub struct LogRow {
    pub id: i64,
    pub moderator: Option<String>,
    pub user: Option<String>,
    pub action: String,
    pub reason: String,
    pub detail: Option<String>,
    pub until_ms: Option<i64>,
    pub at_ms: i64,
}

/// A line to write into the audit log.
#[derive(Debug, Clone)]
pub struct NewLog<'a> {
    pub moderator: Option<i64>,
    pub user: Option<i64>,
    pub action: &'a str,
    pub reason: &'a str,
    pub detail: Option<String>,
    pub until_ms: Option<i64>,
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

/// Rows of one part an export holds at most (an account's own data, bounded all the same).
const EXPORT_ROWS_MAX: usize = 100_000;

/// The parts of an account's export and their queries (`$1` the account).
const EXPORT_PARTS: [(&str, &str); 12] = [
    (
        "account",
        "SELECT id, name, kind, created_ms, last_seen_ms, role, muted_until_ms, suspended_until_ms, \
         banned_ms, sanction_reason FROM users WHERE id = $1",
    ),
    ("bots", "SELECT id, name, created_ms FROM users WHERE owner = $1 ORDER BY id"),
    (
        "mail",
        "SELECT address, confirmed_ms, your_turn, idle_hours, time_low, time_low_hours, challenge, game_over, \
         digest, created_ms FROM mail_addresses WHERE user_id = $1",
    ),
    (
        "games",
        "SELECT games.id, seats.seat, games.status, games.result, games.created_ms, games.finished_ms \
         FROM seats JOIN games ON games.id = seats.game_id WHERE seats.user_id = $1 ORDER BY games.id",
    ),
    (
        "ratings",
        "SELECT system, players, mu, sigma, games FROM ratings WHERE user_id = $1 ORDER BY system, players",
    ),
    (
        "rating_history",
        "SELECT game_id, system, players, place, mu_before, sigma_before, mu_after, sigma_after, at_ms \
         FROM rating_history WHERE user_id = $1 ORDER BY at_ms",
    ),
    ("chat", "SELECT game_id, channel, text, at_ms, deleted_ms FROM chat WHERE user_id = $1 ORDER BY id"),
    (
        "follows",
        "SELECT users.name, follows.at_ms FROM follows JOIN users ON users.id = follows.followed \
         WHERE follows.follower = $1 ORDER BY follows.at_ms",
    ),
    (
        "blocks",
        "SELECT users.name, blocks.at_ms FROM blocks JOIN users ON users.id = blocks.blocked \
         WHERE blocks.blocker = $1 ORDER BY blocks.at_ms",
    ),
    (
        "vacations",
        "SELECT started_ms, until_ms, ended_ms FROM vacations WHERE user_id = $1 ORDER BY started_ms",
    ),
    (
        "reports_sent",
        "SELECT id, game_id, chat_id, reason, text, created_ms, status FROM reports WHERE reporter = $1 ORDER BY id",
    ),
    (
        "moderation",
        "SELECT action, reason, detail, until_ms, at_ms FROM moderation_log WHERE user_id = $1 ORDER BY id",
    ),
];

impl Store {
    pub async fn standing(&self, user: i64) -> Result<Standing, ApiError> {
        let sql = format!("SELECT {STANDING_COLUMNS} FROM users WHERE id = $1");
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

    /// Sets one sanction and the reason the player is shown.
    pub async fn sanction(&self, user: i64, sanction: Sanction, reason: &str) -> Result<(), ApiError> {
        let (column, value) = match sanction {
            Sanction::MutedUntil(v) => ("muted_until_ms", v),
            Sanction::SuspendedUntil(v) => ("suspended_until_ms", v),
            Sanction::Banned(v) => ("banned_ms", v),
        };
        let sql = format!("UPDATE users SET {column} = $2, sanction_reason = $3 WHERE id = $1");
        sqlx::query(sqlx::AssertSqlSafe(sql)).bind(user).bind(value).bind(reason).execute(&self.pool).await?;
        if matches!(sanction, Sanction::Banned(Some(_))) {
            sqlx::query("DELETE FROM sessions WHERE user_id = $1").bind(user).execute(&self.pool).await?;
        }
        Ok(())
    }

    /// The hashes of `user`'s sessions (to close their sockets before they are deleted).
    pub async fn session_hashes(&self, user: i64) -> Result<Vec<String>, ApiError> {
        let rows = sqlx::query("SELECT token_hash FROM sessions WHERE user_id = $1")
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

    pub async fn add_report(&self, report: &NewReport<'_>) -> Result<i64, ApiError> {
        let row = sqlx::query(
            "INSERT INTO reports (reporter, user_id, game_id, chat_id, reason, text, created_ms) \
             VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id",
        )
        .bind(report.reporter)
        .bind(report.user)
        .bind(report.game)
        .bind(report.chat)
        .bind(report.reason)
        .bind(report.text)
        .bind(now_ms())
        .fetch_one(&self.pool)
        .await?;
        Ok(row.try_get("id")?)
    }

    /// Reports `reporter` sent since `since_ms`.
    pub async fn reports_since(&self, reporter: i64, since_ms: i64) -> Result<i64, ApiError> {
        let row = sqlx::query("SELECT COUNT(*) AS n FROM reports WHERE reporter = $1 AND created_ms >= $2")
            .bind(reporter)
            .bind(since_ms)
            .fetch_one(&self.pool)
            .await?;
        Ok(row.try_get("n")?)
    }

    /// Reports in `status`, oldest open first (the queue), newest closed first.
    pub async fn reports(&self, status: &str, limit: i64) -> Result<Vec<ReportRow>, ApiError> {
        let order = if status == "open" { "ASC" } else { "DESC" };
        let sql = format!(
            "SELECT reports.id, r.name AS reporter, u.name AS user_name, reports.game_id, reports.chat_id, \
             reports.reason, reports.text, reports.created_ms, reports.status, c.name AS closed_by, reports.note \
             FROM reports JOIN users r ON r.id = reports.reporter LEFT JOIN users u ON u.id = reports.user_id \
             LEFT JOIN users c ON c.id = reports.closed_by WHERE reports.status = $1 ORDER BY reports.id {order} LIMIT $2"
        );
        let rows =
            sqlx::query(sqlx::AssertSqlSafe(sql)).bind(status).bind(limit).fetch_all(&self.pool).await?;
        let report = |r: &AnyRow| -> Result<ReportRow, sqlx::Error> {
            Ok(ReportRow {
                id: r.try_get("id")?,
                reporter: r.try_get("reporter")?,
                user: r.try_get("user_name")?,
                game: r.try_get("game_id")?,
                chat: r.try_get("chat_id")?,
                reason: r.try_get("reason")?,
                text: r.try_get("text")?,
                created_ms: r.try_get("created_ms")?,
                status: r.try_get("status")?,
                closed_by: r.try_get("closed_by")?,
                note: r.try_get("note")?,
            })
        };
        Ok(rows.iter().map(report).collect::<Result<_, _>>()?)
    }

    /// Closes an open report; false when there is no such open report.
    pub async fn close_report(&self, id: i64, by: i64, note: &str) -> Result<bool, ApiError> {
        let r = sqlx::query(
            "UPDATE reports SET status = 'closed', closed_by = $2, note = $3, closed_ms = $4 \
             WHERE id = $1 AND status = 'open'",
        )
        .bind(id)
        .bind(by)
        .bind(note)
        .bind(now_ms())
        .execute(&self.pool)
        .await?;
        Ok(r.rows_affected() == 1)
    }

    pub async fn log_moderation(&self, line: &NewLog<'_>) -> Result<i64, ApiError> {
        let row = sqlx::query(
            "INSERT INTO moderation_log (moderator, user_id, action, reason, detail, until_ms, at_ms) \
             VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id",
        )
        .bind(line.moderator)
        .bind(line.user)
        .bind(line.action)
        .bind(line.reason)
        .bind(line.detail.as_deref())
        .bind(line.until_ms)
        .bind(now_ms())
        .fetch_one(&self.pool)
        .await?;
        Ok(row.try_get("id")?)
    }

    /// The audit log, newest first, of one account or of all.
    pub async fn moderation_log(&self, user: Option<i64>, limit: i64) -> Result<Vec<LogRow>, ApiError> {
        let rows = sqlx::query(
            "SELECT l.id, m.name AS moderator, u.name AS user_name, l.action, l.reason, l.detail, l.until_ms, l.at_ms \
             FROM moderation_log l LEFT JOIN users m ON m.id = l.moderator LEFT JOIN users u ON u.id = l.user_id \
             WHERE ($1 = 0 OR l.user_id = $2) ORDER BY l.id DESC LIMIT $3",
        )
        .bind(i64::from(user.is_some()))
        .bind(user.unwrap_or(0))
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        let line = |r: &AnyRow| -> Result<LogRow, sqlx::Error> {
            Ok(LogRow {
                id: r.try_get("id")?,
                moderator: r.try_get("moderator")?,
                user: r.try_get("user_name")?,
                action: r.try_get("action")?,
                reason: r.try_get("reason")?,
                detail: r.try_get("detail")?,
                until_ms: r.try_get("until_ms")?,
                at_ms: r.try_get("at_ms")?,
            })
        };
        Ok(rows.iter().map(line).collect::<Result<_, _>>()?)
    }

    /// Takes back what game `game` did to its players' ratings (each mu by its change, one
    /// game fewer) and forgets its history rows: the players' names and mu changes returned,
    /// none when it moved no rating.
    pub async fn void_rating(&self, game: i64) -> Result<Vec<(String, f64)>, ApiError> {
        let mut tx = self.pool.begin().await?;
        let rows = sqlx::query(
            "SELECT h.user_id, users.name, h.system, h.players, h.mu_before, h.mu_after FROM rating_history h \
             JOIN users ON users.id = h.user_id WHERE h.game_id = $1 ORDER BY h.place",
        )
        .bind(game)
        .fetch_all(&mut *tx)
        .await?;
        let mut voided = Vec::with_capacity(rows.len());
        for r in &rows {
            let change = r.try_get::<f64, _>("mu_after")? - r.try_get::<f64, _>("mu_before")?;
            // `games` changes too: a rating update running meanwhile compares it and retries.
            sqlx::query(
                "UPDATE ratings SET mu = mu - $1, games = games - 1 \
                 WHERE user_id = $2 AND system = $3 AND players = $4 AND games > 0",
            )
            .bind(change)
            .bind(r.try_get::<i64, _>("user_id")?)
            .bind(r.try_get::<String, _>("system")?)
            .bind(r.try_get::<i64, _>("players")?)
            .execute(&mut *tx)
            .await?;
            voided.push((r.try_get::<String, _>("name")?, -change));
        }
        sqlx::query("DELETE FROM rating_history WHERE game_id = $1").bind(game).execute(&mut *tx).await?;
        tx.commit().await?;
        Ok(voided)
    }

    /// Deletes the personal data of account `user` (and of its bots): its name becomes
    /// `deleted-ID`, its password, mail address, sessions, follows, blocks, seeks, pending
    /// challenges and chat lines go; its games, results and ratings stay under that name.
    pub async fn delete_account(&self, user: i64) -> Result<(), ApiError> {
        let mut tx = self.pool.begin().await?;
        let bots =
            sqlx::query("SELECT id FROM users WHERE owner = $1").bind(user).fetch_all(&mut *tx).await?;
        let mut ids = vec![user];
        for b in &bots {
            ids.push(b.try_get("id")?);
        }
        let now = now_ms();
        for id in ids {
            let name = format!("deleted-{id}");
            sqlx::query(
                "UPDATE users SET name = $2, name_key = $3, kind = 'deleted', password_hash = NULL, \
                 last_seen_ms = NULL, role = 'player' WHERE id = $1",
            )
            .bind(id)
            .bind(&name)
            .bind(crate::auth::name_key(&name))
            .execute(&mut *tx)
            .await?;
            for sql in [
                "DELETE FROM sessions WHERE user_id = $1",
                "DELETE FROM mail_tokens WHERE user_id = $1",
                "DELETE FROM mail_waiting WHERE user_id = $1",
                "DELETE FROM mail_queue WHERE user_id = $1",
                "DELETE FROM mail_addresses WHERE user_id = $1",
                "DELETE FROM follows WHERE follower = $1 OR followed = $1",
                "DELETE FROM blocks WHERE blocker = $1 OR blocked = $1",
                "DELETE FROM seeks WHERE user_id = $1",
                "UPDATE challenges SET status = 'declined' WHERE (from_user = $1 OR to_user = $1) AND status = 'pending'",
            ] {
                sqlx::query(sql).bind(id).execute(&mut *tx).await?;
            }
            sqlx::query("UPDATE chat SET deleted_ms = $2, text = '' WHERE user_id = $1")
                .bind(id)
                .bind(now)
                .execute(&mut *tx)
                .await?;
        }
        tx.commit().await?;
        Ok(())
    }

    /// Everything the database holds about account `user`, by part, for its owner to download.
    pub async fn export_account(
        &self,
        user: i64,
    ) -> Result<serde_json::Map<String, serde_json::Value>, ApiError> {
        let mut out = serde_json::Map::new();
        for (part, sql) in EXPORT_PARTS {
            let sql = format!("{sql} LIMIT {EXPORT_ROWS_MAX}");
            let rows = sqlx::query(sqlx::AssertSqlSafe(sql)).bind(user).fetch_all(&self.pool).await?;
            let rows = rows
                .iter()
                .map(|r| super::backup::row_to_json(r).map(serde_json::Value::Object))
                .collect::<Result<Vec<_>, _>>()?;
            out.insert(part.to_string(), serde_json::Value::Array(rows));
        }
        Ok(out)
    }

    /// Accounts made from the address with this hash since `since_ms`, after forgetting rows
    /// older than `since_ms` (the table holds one day at most).
    pub async fn signups_since(&self, address_hash: &str, since_ms: i64) -> Result<i64, ApiError> {
        sqlx::query("DELETE FROM signups WHERE at_ms < $1").bind(since_ms).execute(&self.pool).await?;
        let row = sqlx::query("SELECT COUNT(*) AS n FROM signups WHERE address_hash = $1")
            .bind(address_hash)
            .fetch_one(&self.pool)
            .await?;
        Ok(row.try_get("n")?)
    }

    pub async fn add_signup(&self, address_hash: &str) -> Result<(), ApiError> {
        sqlx::query("INSERT INTO signups (address_hash, at_ms) VALUES ($1, $2)")
            .bind(address_hash)
            .bind(now_ms())
            .execute(&self.pool)
            .await?;
        Ok(())
    }
}
