//! Players' reports and the moderators' audit log in the database (see `crate::moderation`,
//! docs/moderation.md).

use sqlx::{Row, any::AnyRow};

use super::{Store, now_ms};
use crate::error::ApiError;

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

impl Store {
    /// Stores a report unless its reporter sent `limit` since `since_ms` (none then): the
    /// count and the insert are one statement.
    pub async fn add_report(
        &self,
        report: &NewReport<'_>,
        since_ms: i64,
        limit: i64,
    ) -> Result<Option<i64>, ApiError> {
        let row = sqlx::query(
            "INSERT INTO reports (reporter, user_id, game_id, chat_id, reason, text, created_ms) \
             SELECT $1, $2, $3, $4, $5, $6, $7 \
             WHERE (SELECT COUNT(*) FROM reports WHERE reporter = $1 AND created_ms >= $8) < $9 RETURNING id",
        )
        .bind(report.reporter)
        .bind(report.user)
        .bind(report.game)
        .bind(report.chat)
        .bind(report.reason)
        .bind(report.text)
        .bind(now_ms())
        .bind(since_ms)
        .bind(limit)
        .fetch_optional(&self.pool)
        .await?;
        Ok(row.map(|r| r.try_get("id")).transpose()?)
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

    pub async fn report_is_open(&self, id: i64) -> Result<bool, ApiError> {
        let row = sqlx::query("SELECT COUNT(*) AS n FROM reports WHERE id = $1 AND status = 'open'")
            .bind(id)
            .fetch_one(&self.pool)
            .await?;
        Ok(row.try_get::<i64, _>("n")? > 0)
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
}
