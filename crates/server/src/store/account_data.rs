//! A player's own data (docs/moderation.md, "Accounts"): its deletion, keeping games under an
//! anonymous name, and its export.

use sqlx::Row;

use super::{Store, now_ms};
use crate::error::ApiError;

/// Rows of one part an export holds at most (an account's own data, bounded all the same).
const EXPORT_ROWS_MAX: usize = 100_000;

/// The parts of an account's export and their queries (`$1` the account).
const EXPORT_PARTS: [(&str, &str); 17] = [
    (
        "account",
        "SELECT id, name, kind, created_ms, last_seen_ms, role, muted_until_ms, suspended_until_ms, \
         mute_reason, suspension_reason, banned_ms, ban_reason FROM users WHERE id = $1",
    ),
    ("bots", "SELECT id, name, created_ms FROM users WHERE owner = $1 ORDER BY id"),
    (
        "mail",
        "SELECT address, confirmed_ms, your_turn, idle_hours, time_low, time_low_hours, challenge, game_over, \
         digest, tournament, created_ms FROM mail_addresses WHERE user_id = $1",
    ),
    ("games_created", "SELECT id, created_ms, creator_address FROM games WHERE creator = $1 ORDER BY id"),
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
        "challenges",
        "SELECT c.id, f.name AS from_name, t.name AS to_name, c.setup, c.status, c.created_ms, c.game_id \
         FROM challenges c JOIN users f ON f.id = c.from_user JOIN users t ON t.id = c.to_user \
         WHERE c.from_user = $1 OR c.to_user = $1 ORDER BY c.id",
    ),
    ("seek", "SELECT spec, system, players, created_ms FROM seeks WHERE user_id = $1"),
    (
        "tournaments",
        "SELECT tournament_id, name, rating, joined_round, withdrawn_after FROM tournament_entrants \
         WHERE user_id = $1 ORDER BY tournament_id",
    ),
    (
        "review_comments",
        "SELECT game_id, node, text, at_ms FROM review_comments WHERE author_id = $1 ORDER BY at_ms",
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
                "UPDATE games SET creator_address = NULL WHERE creator = $1",
                "UPDATE review_comments SET text = '' WHERE author_id = $1",
                "UPDATE challenges SET status = 'declined' WHERE (from_user = $1 OR to_user = $1) AND status = 'pending'",
            ] {
                sqlx::query(sql).bind(id).execute(&mut *tx).await?;
            }
            sqlx::query(
                "UPDATE chat SET deleted_ms = COALESCE(deleted_ms, $2), text = '' WHERE user_id = $1",
            )
            .bind(id)
            .bind(now)
            .execute(&mut *tx)
            .await?;
            sqlx::query("UPDATE tournament_entrants SET name = $2 WHERE user_id = $1")
                .bind(id)
                .bind(&name)
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
}
