//! Mail: addresses and notice preferences, single-use tokens, the outgoing queue and the games
//! waiting for players who may be mailed about them (see `crate::mail`).

use sqlx::{Row, any::AnyRow};

use super::{Store, now_ms};
use crate::error::ApiError;

/// An account's address and what it wants to be mailed about.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize, ts_rs::TS)]
pub struct MailPrefs {
    /// Mail when a game has waited this many hours for your move.
    pub your_turn: bool,
    pub idle_hours: i64,
    /// Mail when your clock has less than this many hours left.
    pub time_low: bool,
    pub time_low_hours: i64,
    /// Mail when someone challenges you.
    pub challenge: bool,
    /// Mail when a game of yours ends.
    pub game_over: bool,
    /// One mail a day listing the games waiting for you.
    pub digest: bool,
    /// Mail when a tournament round you play in starts (on when a client leaves it out).
    #[serde(default = "on")]
    pub tournament: bool,
}

fn on() -> bool {
    true
}

#[derive(Debug, Clone)]
pub struct MailAddress {
    pub address: String,
    pub confirmed: bool,
    pub prefs: MailPrefs,
}

/// Why a token was refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TokenProblem {
    Unknown,
    Used,
    Expired,
}

#[derive(Debug, Clone)]
pub struct TokenRow {
    pub user_id: i64,
    pub address: Option<String>,
    pub notice: Option<String>,
}

/// A mail claimed for sending.
#[derive(Debug, Clone)]
pub struct QueuedMail {
    pub id: i64,
    pub user_id: i64,
    pub kind: String,
    pub game_id: Option<i64>,
    pub to_address: Option<String>,
    pub payload: String,
    pub attempts: i64,
}

/// What a new queue row holds.
#[derive(Debug, Clone)]
pub struct NewMail<'a> {
    pub user_id: i64,
    pub kind: &'a str,
    pub game_id: Option<i64>,
    /// The recipient when it is not the account's confirmed address (a confirmation).
    pub to_address: Option<&'a str>,
    pub payload: &'a str,
    pub due_ms: i64,
}

/// The queue's bounds, checked by the insert itself.
#[derive(Debug, Clone, Copy)]
pub struct MailBounds {
    pub per_day: i64,
    pub queue_max: i64,
}

/// A game waiting for a player, due for a notice.
#[derive(Debug, Clone)]
pub struct WaitingRow {
    pub game_id: i64,
    pub user_id: i64,
    pub seq: i64,
    pub deadline_ms: Option<i64>,
}

const DAY_MS: i64 = 24 * 3600 * 1000;

fn flag(row: &AnyRow, column: &str) -> Result<bool, sqlx::Error> {
    Ok(row.try_get::<i64, _>(column)? != 0)
}

fn mail_address(row: &AnyRow) -> Result<MailAddress, sqlx::Error> {
    Ok(MailAddress {
        address: row.try_get("address")?,
        confirmed: row.try_get::<Option<i64>, _>("confirmed_ms")?.is_some(),
        prefs: MailPrefs {
            your_turn: flag(row, "your_turn")?,
            idle_hours: row.try_get("idle_hours")?,
            time_low: flag(row, "time_low")?,
            time_low_hours: row.try_get("time_low_hours")?,
            challenge: flag(row, "challenge")?,
            game_over: flag(row, "game_over")?,
            digest: flag(row, "digest")?,
            tournament: flag(row, "tournament")?,
        },
    })
}

impl Store {
    pub async fn mail_address(&self, user: i64) -> Result<Option<MailAddress>, ApiError> {
        const Q: &str = "SELECT address, confirmed_ms, your_turn, idle_hours, time_low, time_low_hours, challenge, \
                         game_over, digest, tournament FROM mail_addresses WHERE user_id = $1";
        let row = sqlx::query(Q).bind(user).fetch_optional(&self.pool).await?;
        Ok(row.as_ref().map(mail_address).transpose()?)
    }

    /// Sets `user`'s address, unconfirmed (its preferences stay).
    pub async fn set_mail_address(&self, user: i64, address: &str) -> Result<(), ApiError> {
        sqlx::query(
            "INSERT INTO mail_addresses (user_id, address, address_key, created_ms) VALUES ($1, $2, $3, $4) \
             ON CONFLICT (user_id) DO UPDATE SET address = $2, address_key = $3, confirmed_ms = NULL",
        )
        .bind(user)
        .bind(address)
        .bind(address.to_lowercase())
        .bind(now_ms())
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// Confirms `user`'s address if it is still `address`; false if it was changed since.
    pub async fn confirm_mail_address(&self, user: i64, address: &str) -> Result<bool, ApiError> {
        let r =
            sqlx::query("UPDATE mail_addresses SET confirmed_ms = $3 WHERE user_id = $1 AND address = $2")
                .bind(user)
                .bind(address)
                .bind(now_ms())
                .execute(&self.pool)
                .await?;
        Ok(r.rows_affected() == 1)
    }

    /// Forgets `user`'s address, its waiting notices and its unused confirmation links.
    pub async fn delete_mail_address(&self, user: i64) -> Result<(), ApiError> {
        let mut tx = self.pool.begin().await?;
        for q in [
            "DELETE FROM mail_addresses WHERE user_id = $1",
            "DELETE FROM mail_waiting WHERE user_id = $1",
            "DELETE FROM mail_tokens WHERE user_id = $1 AND purpose = 'confirm'",
        ] {
            sqlx::query(q).bind(user).execute(&mut *tx).await?;
        }
        tx.commit().await?;
        Ok(())
    }

    pub async fn set_mail_prefs(&self, user: i64, p: &MailPrefs) -> Result<bool, ApiError> {
        let r = sqlx::query(
            "UPDATE mail_addresses SET your_turn = $2, idle_hours = $3, time_low = $4, time_low_hours = $5, \
             challenge = $6, game_over = $7, digest = $8, tournament = $9 WHERE user_id = $1",
        )
        .bind(user)
        .bind(i64::from(p.your_turn))
        .bind(p.idle_hours)
        .bind(i64::from(p.time_low))
        .bind(p.time_low_hours)
        .bind(i64::from(p.challenge))
        .bind(i64::from(p.game_over))
        .bind(i64::from(p.digest))
        .bind(i64::from(p.tournament))
        .execute(&self.pool)
        .await?;
        Ok(r.rows_affected() == 1)
    }

    /// Turns one kind of notice off (an unsubscribe link); `all` turns every kind off.
    pub async fn mail_unsubscribe(&self, user: i64, notice: &str) -> Result<(), ApiError> {
        let q = match notice {
            "your_turn" => "UPDATE mail_addresses SET your_turn = 0 WHERE user_id = $1",
            "time_low" => "UPDATE mail_addresses SET time_low = 0 WHERE user_id = $1",
            "challenge" => "UPDATE mail_addresses SET challenge = 0 WHERE user_id = $1",
            "game_over" => "UPDATE mail_addresses SET game_over = 0 WHERE user_id = $1",
            "digest" => "UPDATE mail_addresses SET digest = 0 WHERE user_id = $1",
            "tournament" => "UPDATE mail_addresses SET tournament = 0 WHERE user_id = $1",
            _ => {
                "UPDATE mail_addresses SET your_turn = 0, time_low = 0, challenge = 0, game_over = 0, digest = 0, \
                 tournament = 0 WHERE user_id = $1"
            }
        };
        sqlx::query(q).bind(user).execute(&self.pool).await?;
        Ok(())
    }

    /// The registered account whose confirmed address this is (any case).
    pub async fn user_by_mail(&self, address: &str) -> Result<Option<i64>, ApiError> {
        let row = sqlx::query(
            "SELECT user_id FROM mail_addresses WHERE address_key = $1 AND confirmed_ms IS NOT NULL",
        )
        .bind(address.to_lowercase())
        .fetch_optional(&self.pool)
        .await?;
        Ok(row.map(|r| r.try_get("user_id")).transpose()?)
    }

    pub async fn user_name(&self, user: i64) -> Result<Option<String>, ApiError> {
        let row =
            sqlx::query("SELECT name FROM users WHERE id = $1").bind(user).fetch_optional(&self.pool).await?;
        Ok(row.map(|r| r.try_get("name")).transpose()?)
    }

    // ---- tokens ----

    pub async fn insert_mail_token(
        &self,
        token_hash: &str,
        user: i64,
        purpose: &str,
        address: Option<&str>,
        notice: Option<&str>,
        expires_ms: i64,
    ) -> Result<(), ApiError> {
        sqlx::query(
            "INSERT INTO mail_tokens (token_hash, user_id, purpose, address, notice, created_ms, expires_ms) \
             VALUES ($1, $2, $3, $4, $5, $6, $7)",
        )
        .bind(token_hash)
        .bind(user)
        .bind(purpose)
        .bind(address)
        .bind(notice)
        .bind(now_ms())
        .bind(expires_ms)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// The token of this purpose, if it may still be used (`consume`: and marks it used, once:
    /// of two simultaneous uses one is refused as used).
    pub async fn mail_token(
        &self,
        token_hash: &str,
        purpose: &str,
        consume: bool,
    ) -> Result<Result<TokenRow, TokenProblem>, ApiError> {
        let row = sqlx::query(
            "SELECT user_id, address, notice, expires_ms, used_ms FROM mail_tokens WHERE token_hash = $1 AND purpose = $2",
        )
        .bind(token_hash)
        .bind(purpose)
        .fetch_optional(&self.pool)
        .await?;
        let Some(row) = row else { return Ok(Err(TokenProblem::Unknown)) };
        if row.try_get::<Option<i64>, _>("used_ms")?.is_some() {
            return Ok(Err(TokenProblem::Used));
        }
        if row.try_get::<i64, _>("expires_ms")? <= now_ms() {
            return Ok(Err(TokenProblem::Expired));
        }
        if consume {
            let r =
                sqlx::query("UPDATE mail_tokens SET used_ms = $2 WHERE token_hash = $1 AND used_ms IS NULL")
                    .bind(token_hash)
                    .bind(now_ms())
                    .execute(&self.pool)
                    .await?;
            if r.rows_affected() != 1 {
                return Ok(Err(TokenProblem::Used));
            }
        }
        Ok(Ok(TokenRow {
            user_id: row.try_get("user_id")?,
            address: row.try_get("address")?,
            notice: row.try_get("notice")?,
        }))
    }

    /// Forgets tokens a day after they expired (until then a reuse is named as such).
    pub async fn delete_old_mail_tokens(&self) -> Result<u64, ApiError> {
        let r = sqlx::query("DELETE FROM mail_tokens WHERE expires_ms < $1")
            .bind(now_ms() - DAY_MS)
            .execute(&self.pool)
            .await?;
        Ok(r.rows_affected())
    }

    /// A new password for `user`; every session of the account ends (their hashes are returned
    /// so that their open sockets close too).
    pub async fn reset_password(&self, user: i64, password_hash: &str) -> Result<Vec<String>, ApiError> {
        let mut tx = self.pool.begin().await?;
        sqlx::query("UPDATE users SET password_hash = $2 WHERE id = $1")
            .bind(user)
            .bind(password_hash)
            .execute(&mut *tx)
            .await?;
        let hashes = sqlx::query("SELECT token_hash FROM sessions WHERE user_id = $1")
            .bind(user)
            .fetch_all(&mut *tx)
            .await?
            .iter()
            .map(|r| r.try_get("token_hash"))
            .collect::<Result<Vec<String>, _>>()?;
        sqlx::query("DELETE FROM sessions WHERE user_id = $1").bind(user).execute(&mut *tx).await?;
        tx.commit().await?;
        Ok(hashes)
    }
}
