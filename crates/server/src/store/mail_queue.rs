//! The outgoing mail queue and the games waiting for mailable players. Several instances may
//! share the database: a mail is claimed by one (`claimed_by` until `claim_until_ms`) with a
//! conditional update, so two instances never send the same row; a claim whose instance died
//! expires and the row is claimed again. Claims use each instance's clock: the claim lasts far
//! longer than a send may take, which absorbs ordinary clock differences.

use sqlx::{Row, any::AnyRow};

use super::{
    Store,
    mail::{MailBounds, NewMail, QueuedMail, WaitingRow},
    now_ms,
};
use crate::error::ApiError;

const DAY_MS: i64 = 24 * 3600 * 1000;

fn queued(row: &AnyRow) -> Result<QueuedMail, sqlx::Error> {
    Ok(QueuedMail {
        id: row.try_get("id")?,
        user_id: row.try_get("user_id")?,
        kind: row.try_get("kind")?,
        game_id: row.try_get("game_id")?,
        to_address: row.try_get("to_address")?,
        payload: row.try_get("payload")?,
        attempts: row.try_get("attempts")?,
    })
}

fn waiting(row: &AnyRow) -> Result<WaitingRow, sqlx::Error> {
    Ok(WaitingRow {
        game_id: row.try_get("game_id")?,
        user_id: row.try_get("user_id")?,
        seq: row.try_get("seq")?,
        deadline_ms: row.try_get("deadline_ms")?,
    })
}

impl Store {
    /// Queues a mail unless its account had `per_day` mails in the last day or the queue holds
    /// `queue_max`: checked by the insert itself. Whether it was queued.
    pub async fn enqueue_mail(&self, mail: &NewMail<'_>, bounds: MailBounds) -> Result<bool, ApiError> {
        let mut conn = self.pool.acquire().await?;
        Store::enqueue_mail_in(&mut conn, mail, bounds).await
    }

    /// [`Store::enqueue_mail`] on a connection or in a caller's transaction (a mail queued with
    /// the write that causes it: both or neither).
    pub async fn enqueue_mail_in(
        conn: &mut sqlx::AnyConnection,
        mail: &NewMail<'_>,
        bounds: MailBounds,
    ) -> Result<bool, ApiError> {
        let now = now_ms();
        let r = sqlx::query(
            "INSERT INTO mail_queue (user_id, kind, game_id, to_address, payload, status, due_ms, created_ms) \
             SELECT CAST($1 AS BIGINT), CAST($2 AS TEXT), CAST($3 AS BIGINT), CAST($4 AS TEXT), CAST($5 AS TEXT), \
             'queued', CAST($6 AS BIGINT), CAST($7 AS BIGINT) \
             WHERE (SELECT COUNT(*) FROM mail_queue WHERE user_id = $1 AND created_ms > $8) < $9 \
             AND (SELECT COUNT(*) FROM mail_queue WHERE status = 'queued') < $10",
        )
        .bind(mail.user_id)
        .bind(mail.kind)
        .bind(mail.game_id)
        .bind(mail.to_address)
        .bind(mail.payload)
        .bind(mail.due_ms)
        .bind(now)
        .bind(now - DAY_MS)
        .bind(bounds.per_day)
        .bind(bounds.queue_max)
        .execute(&mut *conn)
        .await?;
        Ok(r.rows_affected() == 1)
    }

    /// Mails sent or queued to `address` (any account) in the last day.
    pub async fn mails_to_address_today(&self, address: &str) -> Result<i64, ApiError> {
        let row =
            sqlx::query("SELECT COUNT(*) AS n FROM mail_queue WHERE to_address = $1 AND created_ms > $2")
                .bind(address)
                .bind(now_ms() - DAY_MS)
                .fetch_one(&self.pool)
                .await?;
        Ok(row.try_get("n")?)
    }

    /// Claims up to `limit` due mails for `owner` until `claim_until_ms`, counting the attempt.
    pub async fn claim_mail(
        &self,
        owner: &str,
        claim_until_ms: i64,
        limit: i64,
    ) -> Result<Vec<QueuedMail>, ApiError> {
        let rows = sqlx::query(
            "UPDATE mail_queue SET claimed_by = $1, claim_until_ms = $2, attempts = attempts + 1 \
             WHERE id IN (SELECT id FROM mail_queue WHERE status = 'queued' AND due_ms <= $3 AND claim_until_ms < $3 \
             ORDER BY due_ms LIMIT $4) AND status = 'queued' AND claim_until_ms < $3 \
             RETURNING id, user_id, kind, game_id, to_address, payload, attempts",
        )
        .bind(owner)
        .bind(claim_until_ms)
        .bind(now_ms())
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        Ok(rows.iter().map(queued).collect::<Result<_, _>>()?)
    }

    /// Ends a claimed mail: `sent`, `failed` (attempts exhausted) or `dropped` (nothing to say
    /// any more); its body, which may hold links, is erased.
    pub async fn end_mail(
        &self,
        id: i64,
        owner: &str,
        status: &str,
        error: Option<&str>,
    ) -> Result<(), ApiError> {
        sqlx::query(
            "UPDATE mail_queue SET status = $3, payload = '', last_error = $4, sent_ms = $5, claim_until_ms = 0 \
             WHERE id = $1 AND claimed_by = $2",
        )
        .bind(id)
        .bind(owner)
        .bind(status)
        .bind(error)
        .bind(now_ms())
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// Releases a claimed mail to be tried again at `due_ms`.
    pub async fn retry_mail(&self, id: i64, owner: &str, due_ms: i64, error: &str) -> Result<(), ApiError> {
        sqlx::query(
            "UPDATE mail_queue SET due_ms = $3, last_error = $4, claim_until_ms = 0 WHERE id = $1 AND claimed_by = $2",
        )
        .bind(id)
        .bind(owner)
        .bind(due_ms)
        .bind(error)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// A mail's status and attempts (tests and the operator's questions).
    pub async fn mail_status(&self, id: i64) -> Result<Option<(String, i64)>, ApiError> {
        let row = sqlx::query("SELECT status, attempts FROM mail_queue WHERE id = $1")
            .bind(id)
            .fetch_optional(&self.pool)
            .await?;
        Ok(row.map(|r| Ok::<_, sqlx::Error>((r.try_get("status")?, r.try_get("attempts")?))).transpose()?)
    }

    /// Forgets mails ended more than a week ago (the per-day bound reads the last day only).
    pub async fn delete_old_mail(&self) -> Result<u64, ApiError> {
        let r = sqlx::query("DELETE FROM mail_queue WHERE status <> 'queued' AND created_ms < $1")
            .bind(now_ms() - 7 * DAY_MS)
            .execute(&self.pool)
            .await?;
        Ok(r.rows_affected())
    }

    // ---- games waiting for players ----

    /// After action `seq`, game `game` waits for `users` (those with a confirmed address are
    /// kept), whose clock ends at `deadline_ms`.
    pub async fn set_mail_waiting(
        &self,
        game: i64,
        seq: i64,
        users: &[i64],
        deadline_ms: Option<i64>,
    ) -> Result<(), ApiError> {
        let mut tx = self.pool.begin().await?;
        sqlx::query("DELETE FROM mail_waiting WHERE game_id = $1").bind(game).execute(&mut *tx).await?;
        for &user in users {
            sqlx::query(
                "INSERT INTO mail_waiting (game_id, user_id, seq, since_ms, deadline_ms) \
                 SELECT CAST($1 AS BIGINT), CAST($2 AS BIGINT), CAST($3 AS BIGINT), CAST($4 AS BIGINT), CAST($5 AS BIGINT) \
                 WHERE EXISTS (SELECT 1 FROM mail_addresses WHERE user_id = $2 AND confirmed_ms IS NOT NULL) \
                 ON CONFLICT DO NOTHING",
            )
            .bind(game)
            .bind(user)
            .bind(seq)
            .bind(now_ms())
            .bind(deadline_ms)
            .execute(&mut *tx)
            .await?;
        }
        tx.commit().await?;
        Ok(())
    }

    // Live games only: a game that ends outside a move (abandoned) leaves its rows behind.

    /// Games waiting for a move past their player's idle setting (`hour_ms` long hours), not
    /// mailed about yet.
    pub async fn due_turn_notices(&self, hour_ms: i64, limit: i64) -> Result<Vec<WaitingRow>, ApiError> {
        let rows = sqlx::query(
            "SELECT w.game_id, w.user_id, w.seq, w.deadline_ms FROM mail_waiting w \
             JOIN mail_addresses a ON a.user_id = w.user_id JOIN games g ON g.id = w.game_id AND g.status = 'live' \
             WHERE w.turn_mailed = 0 AND a.confirmed_ms IS NOT NULL AND a.your_turn = 1 \
             AND w.since_ms + a.idle_hours * $2 <= $1 LIMIT $3",
        )
        .bind(now_ms())
        .bind(hour_ms)
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        Ok(rows.iter().map(waiting).collect::<Result<_, _>>()?)
    }

    /// Games whose waiting player's clock has less than their setting left, not mailed yet.
    pub async fn due_time_notices(&self, hour_ms: i64, limit: i64) -> Result<Vec<WaitingRow>, ApiError> {
        let rows = sqlx::query(
            "SELECT w.game_id, w.user_id, w.seq, w.deadline_ms FROM mail_waiting w \
             JOIN mail_addresses a ON a.user_id = w.user_id JOIN games g ON g.id = w.game_id AND g.status = 'live' \
             WHERE w.time_mailed = 0 AND a.confirmed_ms IS NOT NULL AND a.time_low = 1 \
             AND w.deadline_ms IS NOT NULL AND w.deadline_ms > $1 AND w.deadline_ms - a.time_low_hours * $2 <= $1 \
             LIMIT $3",
        )
        .bind(now_ms())
        .bind(hour_ms)
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        Ok(rows.iter().map(waiting).collect::<Result<_, _>>()?)
    }

    /// Marks a waiting game mailed about (`time`: the clock notice, else the turn notice); false
    /// if another instance did first.
    pub async fn mark_waiting_mailed(&self, row: &WaitingRow, time: bool) -> Result<bool, ApiError> {
        let q = if time {
            "UPDATE mail_waiting SET time_mailed = 1 WHERE game_id = $1 AND user_id = $2 AND seq = $3 AND time_mailed = 0"
        } else {
            "UPDATE mail_waiting SET turn_mailed = 1 WHERE game_id = $1 AND user_id = $2 AND seq = $3 AND turn_mailed = 0"
        };
        let r = sqlx::query(q).bind(row.game_id).bind(row.user_id).bind(row.seq).execute(&self.pool).await?;
        Ok(r.rows_affected() == 1)
    }

    /// Whether game `game` still waits for `user`.
    pub async fn still_waiting_any(&self, game: i64, user: i64) -> Result<bool, ApiError> {
        let row = sqlx::query("SELECT 1 AS one FROM mail_waiting WHERE game_id = $1 AND user_id = $2")
            .bind(game)
            .bind(user)
            .fetch_optional(&self.pool)
            .await?;
        Ok(row.is_some())
    }

    /// Accounts due their daily digest (`day_ms` since the last) with games waiting for them;
    /// each is claimed (its digest time set) so that one instance mails it. With their games.
    pub async fn claim_digests(&self, day_ms: i64, limit: i64) -> Result<Vec<(i64, Vec<i64>)>, ApiError> {
        let now = now_ms();
        let due = sqlx::query(
            "SELECT a.user_id, a.digest_sent_ms FROM mail_addresses a WHERE a.digest = 1 AND a.confirmed_ms IS NOT NULL \
             AND a.digest_sent_ms + $2 <= $1 AND EXISTS (SELECT 1 FROM mail_waiting w JOIN games g ON g.id = w.game_id \
             WHERE w.user_id = a.user_id AND g.status = 'live') \
             LIMIT $3",
        )
        .bind(now)
        .bind(day_ms)
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        let mut claimed = Vec::new();
        for row in due {
            let (user, last): (i64, i64) = (row.try_get("user_id")?, row.try_get("digest_sent_ms")?);
            let r = sqlx::query(
                "UPDATE mail_addresses SET digest_sent_ms = $3 WHERE user_id = $1 AND digest_sent_ms = $2",
            )
            .bind(user)
            .bind(last)
            .bind(now)
            .execute(&self.pool)
            .await?;
            if r.rows_affected() != 1 {
                continue;
            }
            let games = sqlx::query(
                "SELECT w.game_id FROM mail_waiting w JOIN games g ON g.id = w.game_id \
                 WHERE w.user_id = $1 AND g.status = 'live' ORDER BY w.since_ms LIMIT 50",
            )
            .bind(user)
            .fetch_all(&self.pool)
            .await?
            .iter()
            .map(|r| r.try_get("game_id"))
            .collect::<Result<Vec<i64>, _>>()?;
            claimed.push((user, games));
        }
        Ok(claimed)
    }
}
