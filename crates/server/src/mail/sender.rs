//! The sender: claims due mails from the queue (one instance per mail, with an expiring claim),
//! writes each over SMTP, and retries failures with exponential backoff until the attempts run
//! out. Between batches it turns games waiting for players into notices (`events`).

use std::{sync::Arc, time::Duration};

use lettre::{AsyncSmtpTransport, AsyncTransport, Tokio1Executor};

use super::{MailConfig, Mailer, Notice, compose};
use crate::{
    auth,
    error::ApiError,
    store::{Store, mail::QueuedMail, now_ms},
};

pub type Transport = AsyncSmtpTransport<Tokio1Executor>;

/// A send gives up after this long; a claim lasts far longer, so that no other instance takes
/// a mail still being written.
const SEND_TIMEOUT: Duration = Duration::from_secs(30);
const CLAIM_MS: i64 = 5 * 60 * 1000;
const BATCH: i64 = 10;
const MAX_BACKOFF: Duration = Duration::from_secs(6 * 3600);
/// Unsubscribe links keep working this long.
const UNSUBSCRIBE_MS: i64 = 90 * 24 * 3600 * 1000;

/// The SMTP transport of these settings (no connection yet).
pub fn transport(config: &MailConfig) -> Result<Transport, ApiError> {
    let builder = Transport::from_url(&config.smtp_url).map_err(|_| {
        ApiError::Config(
            "--smtp-url is not an SMTP URL (smtp://host:port or smtps://user:password@host)".into(),
        )
    })?;
    Ok(builder.timeout(Some(SEND_TIMEOUT)).build())
}

/// The wait before attempt `attempts + 1`: the base, doubled for each attempt made, capped.
pub fn backoff(base: Duration, attempts: i64) -> Duration {
    let doublings = u32::try_from(attempts.saturating_sub(1).clamp(0, 20)).unwrap_or(20);
    base.saturating_mul(1u32 << doublings).min(MAX_BACKOFF)
}

/// Runs until the task is aborted (at shutdown).
pub async fn run(store: Store, mailer: Arc<Mailer>) {
    let mut last_cleanup = 0;
    loop {
        if let Err(e) = super::events::scan(&store, &mailer.config).await {
            tracing::warn!(error = %e, "mail notices could not be read");
        }
        let sent = match send_due(&store, &mailer).await {
            Ok(n) => n,
            Err(e) => {
                tracing::warn!(error = %e, "the mail queue could not be read");
                0
            }
        };
        if now_ms() - last_cleanup > 3600 * 1000 {
            last_cleanup = now_ms();
            let _ = store.delete_old_mail().await;
            let _ = store.delete_old_mail_tokens().await;
        }
        // A full batch: there may be more at once.
        if sent < BATCH as usize {
            tokio::select! {
                () = tokio::time::sleep(mailer.config.poll) => {}
                () = mailer.wake.notified() => {}
            }
        }
    }
}

/// Claims and sends one batch of due mails; how many were claimed.
async fn send_due(store: &Store, mailer: &Mailer) -> Result<usize, ApiError> {
    let claimed = store.claim_mail(&mailer.owner, now_ms() + CLAIM_MS, BATCH).await?;
    let n = claimed.len();
    for mail in claimed {
        let (id, kind) = (mail.id, mail.kind.clone());
        match draft(store, &mailer.config, &mail).await {
            Ok(Some((to, d))) => deliver(store, mailer, &mail, &to, d).await?,
            Ok(None) => {
                tracing::debug!(mail = id, kind, "mail dropped: nothing to say any more");
                store.end_mail(id, &mailer.owner, "dropped", None).await?;
            }
            Err(e) => {
                tracing::warn!(mail = id, kind, error = %e, "mail could not be written");
                store.end_mail(id, &mailer.owner, "failed", Some(&e.to_string())).await?;
            }
        }
    }
    Ok(n)
}

/// The recipient and text of a claimed mail; none when it no longer applies (the address was
/// removed, the notice turned off, the player moved).
async fn draft(
    store: &Store,
    config: &MailConfig,
    mail: &QueuedMail,
) -> Result<Option<(String, compose::Draft)>, ApiError> {
    let bad = |e: serde_json::Error| ApiError::Internal(format!("a queued mail does not read: {e}"));
    if mail.kind == "confirm" {
        let Some(to) = mail.to_address.clone() else { return Ok(None) };
        let p = serde_json::from_str(&mail.payload).map_err(bad)?;
        return Ok(Some((to, compose::confirm(config, &p))));
    }
    let Some(address) = store.mail_address(mail.user_id).await? else { return Ok(None) };
    if !address.confirmed {
        return Ok(None);
    }
    if mail.kind == "reset" {
        let p = serde_json::from_str(&mail.payload).map_err(bad)?;
        return Ok(Some((address.address, compose::reset(config, &p))));
    }
    let notice: Notice = serde_json::from_str(&mail.payload).map_err(bad)?;
    if let Notice::YourTurn { game } | Notice::TimeLow { game, .. } = notice
        && !store.still_waiting_any(game, mail.user_id).await?
    {
        return Ok(None);
    }
    let token = auth::new_token()?;
    let expires = now_ms() + UNSUBSCRIBE_MS;
    store
        .insert_mail_token(
            &auth::token_hash(&token),
            mail.user_id,
            "unsubscribe",
            None,
            Some(notice.kind()),
            expires,
        )
        .await?;
    Ok(Some((address.address, compose::notice(config, &notice, &token))))
}

/// Sends one mail and records how it went.
async fn deliver(
    store: &Store,
    mailer: &Mailer,
    mail: &QueuedMail,
    to: &str,
    d: compose::Draft,
) -> Result<(), ApiError> {
    let owner = &mailer.owner;
    let message = match compose::message(&mailer.config, to, d) {
        Ok(m) => m,
        Err(e) => return store.end_mail(mail.id, owner, "failed", Some(&e.to_string())).await,
    };
    match mailer.transport.send(message).await {
        Ok(_) => {
            tracing::info!(mail = mail.id, kind = mail.kind, "mail sent");
            store.end_mail(mail.id, owner, "sent", None).await
        }
        Err(e) => {
            // The server's answer may quote the address: the log line says only how it failed.
            let how = if e.is_permanent() {
                "refused"
            } else if e.is_transient() {
                "deferred"
            } else {
                "unreachable"
            };
            let error: String = e.to_string().chars().take(300).collect();
            if e.is_permanent() || mail.attempts >= mailer.config.max_attempts {
                tracing::warn!(
                    mail = mail.id,
                    kind = mail.kind,
                    attempts = mail.attempts,
                    how,
                    "mail given up"
                );
                return store.end_mail(mail.id, owner, "failed", Some(&error)).await;
            }
            let wait = backoff(mailer.config.retry_base, mail.attempts);
            tracing::info!(mail = mail.id, kind = mail.kind, attempts = mail.attempts, how, retry_in = ?wait, "mail not sent yet");
            store.retry_mail(mail.id, owner, now_ms() + wait.as_millis() as i64, &error).await
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backoff_doubles_from_the_base_and_stops_at_six_hours() {
        let base = Duration::from_secs(30);
        assert_eq!(backoff(base, 1), base);
        assert_eq!(backoff(base, 2), base * 2);
        assert_eq!(backoff(base, 4), base * 8);
        assert_eq!(backoff(base, 40), MAX_BACKOFF);
    }
}
