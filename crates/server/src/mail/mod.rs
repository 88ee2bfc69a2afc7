//! Mail for players who close the tab (issue 42): a confirmed address per account, notices they
//! choose (their turn after some idle hours, time running out, a challenge, a game's end, a
//! daily digest, a tournament round's start), password resets, and a queue in the database that survives restarts and is
//! shared by every instance on it.
//!
//! - [`address`]: what an address may be; [`compose`]: each mail's subject and text;
//!   [`sender`]: the task that claims queued mails and sends them over SMTP, with backoff;
//!   [`events`]: the notices read from games waiting for players (idle, clock, digest);
//!   [`http`]: the account's settings, confirmation, unsubscribe and password reset.
//! - Tables (`table/mail_hooks.rs`) note which players a game waits for and queue game-over
//!   notices; another feature queues its own with [`notify`].
//!
//! Addresses, tokens and passwords never appear in a log line: tokens travel in links' `#`
//! fragments (never sent to a server) or in request bodies, and request logs carry paths only.

pub mod address;
pub mod compose;
pub mod events;
pub mod http;
pub mod sender;

use std::{sync::Arc, time::Duration};

use serde::{Deserialize, Serialize};

use crate::{
    AppState,
    error::ApiError,
    store::{
        Store,
        mail::{MailBounds, NewMail},
        now_ms,
    },
};

/// How the server sends mail (`gobeyond serve --smtp-url … --mail-from … --public-url …`).
#[derive(Clone)]
pub struct MailConfig {
    /// `smtp://host:port` (plain: a relay on this machine), `smtp://user:password@host?tls=required`
    /// (STARTTLS; `tls=opportunistic`: when offered) or `smtps://user:password@host` (TLS).
    pub smtp_url: String,
    /// The sender, `GoBeyond <games@example.org>`.
    pub from: String,
    /// Where players reach the server: links in mails start with it.
    pub public_url: String,
    /// How long the hours of the players' settings are (an hour; tests shorten it).
    pub hour: Duration,
    /// The first retry waits this long; each next one twice as long (at most six hours).
    pub retry_base: Duration,
    /// Attempts before a mail is given up.
    pub max_attempts: i64,
    /// Mails one account may be sent per day.
    pub per_day: i64,
    /// Mails waiting in the queue, in all: past this, new ones are refused.
    pub queue_max: i64,
    /// How often the sender looks for due mails and notices when nothing wakes it.
    pub poll: Duration,
}

impl MailConfig {
    /// The defaults for this SMTP server, sender and public URL.
    pub fn new(smtp_url: String, from: String, public_url: String) -> MailConfig {
        MailConfig {
            smtp_url,
            from,
            public_url: public_url.trim_end_matches('/').to_string(),
            hour: Duration::from_secs(3600),
            retry_base: Duration::from_secs(30),
            max_attempts: 8,
            per_day: 40,
            queue_max: 10_000,
            poll: Duration::from_secs(5),
        }
    }

    pub fn bounds(&self) -> MailBounds {
        MailBounds { per_day: self.per_day, queue_max: self.queue_max }
    }
}

/// The SMTP URL's password stays out of debug output (configurations are logged).
impl std::fmt::Debug for MailConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let server = self.smtp_url.rsplit_once('@').map_or(self.smtp_url.as_str(), |(_, host)| host);
        f.debug_struct("MailConfig")
            .field("smtp_server", &server)
            .field("public_url", &self.public_url)
            .field("hour", &self.hour)
            .field("retry_base", &self.retry_base)
            .field("max_attempts", &self.max_attempts)
            .field("per_day", &self.per_day)
            .field("queue_max", &self.queue_max)
            .finish_non_exhaustive()
    }
}

/// The running mail service of a server.
pub struct Mailer {
    pub config: MailConfig,
    transport: sender::Transport,
    /// Wakes the sender when a mail is queued (a confirmation should leave at once).
    pub wake: tokio::sync::Notify,
    /// This instance's name on the claims it takes.
    pub owner: String,
}

impl std::fmt::Debug for Mailer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Mailer").field("config", &self.config).field("owner", &self.owner).finish()
    }
}

impl Mailer {
    /// Checks the settings (the SMTP URL, the sender) without connecting.
    pub fn new(config: MailConfig, owner: String) -> Result<Arc<Mailer>, ApiError> {
        let transport = sender::transport(&config)?;
        if config.from.parse::<lettre::message::Mailbox>().is_err() {
            return Err(ApiError::Config(
                "--mail-from is not an address (write games@example.org or \"GoBeyond <games@example.org>\")"
                    .into(),
            ));
        }
        if !(config.public_url.starts_with("http://") || config.public_url.starts_with("https://")) {
            return Err(ApiError::Config("--public-url starts with http:// or https://".into()));
        }
        Ok(Arc::new(Mailer { config, transport, wake: tokio::sync::Notify::new(), owner }))
    }
}

/// What a notice mail is about. [`notify`] queues one for an account.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Notice {
    /// A game has waited for the player's move longer than their idle setting.
    YourTurn { game: i64 },
    /// The player's clock in a game has less than their setting left.
    TimeLow { game: i64, deadline_ms: i64 },
    /// Someone challenged the player (`game`: the game to join, if one is made already).
    Challenge { from: String, game: Option<i64> },
    /// A game of the player's ended (`place`: theirs, 1 = first).
    GameOver { game: i64, place: Option<u32>, players: usize },
    /// The games waiting for the player's move.
    Digest { games: Vec<i64> },
    /// A round of a tournament the player is in started, with their game in it.
    RoundStart { tournament: i64, name: String, round: u32, game: i64 },
}

impl Notice {
    /// The preference that turns this notice on or off (and its unsubscribe link).
    pub fn kind(&self) -> &'static str {
        match self {
            Notice::YourTurn { .. } => "your_turn",
            Notice::TimeLow { .. } => "time_low",
            Notice::Challenge { .. } => "challenge",
            Notice::GameOver { .. } => "game_over",
            Notice::Digest { .. } => "digest",
            Notice::RoundStart { .. } => "tournament",
        }
    }

    pub fn game(&self) -> Option<i64> {
        match self {
            Notice::YourTurn { game }
            | Notice::TimeLow { game, .. }
            | Notice::GameOver { game, .. }
            | Notice::RoundStart { game, .. } => Some(*game),
            Notice::Challenge { game, .. } => *game,
            Notice::Digest { .. } => None,
        }
    }
}

/// Queues `notice` for `user` if this server sends mail, the account has a confirmed address
/// and wants this kind, within the per-account and queue bounds. Whether it was queued.
pub async fn notify(app: &AppState, user: i64, notice: Notice) -> Result<bool, ApiError> {
    let queued = notify_store(&app.store, user, &notice).await?;
    if queued && let Some(m) = &app.mail {
        m.wake.notify_one();
    }
    Ok(queued)
}

/// [`notify`] for callers that hold only the store (a game's table).
pub async fn notify_store(store: &Store, user: i64, notice: &Notice) -> Result<bool, ApiError> {
    let Some((payload, bounds)) = wanted(store, user, notice).await? else { return Ok(false) };
    let mail = NewMail {
        user_id: user,
        kind: notice.kind(),
        game_id: notice.game(),
        to_address: None,
        payload: &payload,
        due_ms: now_ms(),
    };
    let queued = store.enqueue_mail(&mail, bounds).await?;
    if !queued {
        tracing::warn!(
            user,
            kind = notice.kind(),
            "a notice was not queued: the account's daily mails or the queue are full"
        );
    }
    Ok(queued)
}

/// A notice for `user` as a queue row's payload (with the queue's bounds) when this server
/// sends mail and the account has a confirmed address that wants this kind; None otherwise.
/// For a caller that queues it in its own transaction ([`Store::enqueue_mail_in`]).
pub async fn wanted(
    store: &Store,
    user: i64,
    notice: &Notice,
) -> Result<Option<(String, MailBounds)>, ApiError> {
    let Some(bounds) = store.mail_bounds() else { return Ok(None) };
    let Some(address) = store.mail_address(user).await? else { return Ok(None) };
    let p = &address.prefs;
    let wanted = match notice {
        Notice::YourTurn { .. } => p.your_turn,
        Notice::TimeLow { .. } => p.time_low,
        Notice::Challenge { .. } => p.challenge,
        Notice::GameOver { .. } => p.game_over,
        Notice::Digest { .. } => p.digest,
        Notice::RoundStart { .. } => p.tournament,
    };
    if !address.confirmed || !wanted {
        return Ok(None);
    }
    let payload = serde_json::to_string(notice).map_err(|e| ApiError::Internal(e.to_string()))?;
    Ok(Some((payload, bounds)))
}

/// The mail routes (see `docs/api.md`, "Mail").
pub fn routes() -> axum::Router<AppState> {
    use axum::routing::{get, post, put};
    axum::Router::new()
        .route("/api/mail", get(http::settings))
        .route("/api/mail/address", put(http::set_address).delete(http::delete_address))
        .route("/api/mail/prefs", put(http::set_prefs))
        .route("/api/mail/confirm", post(http::confirm))
        .route("/api/mail/unsubscribe", post(http::unsubscribe))
        .route("/api/password/reset", post(http::reset_password))
}

/// The forgot-password route: rate-limited per address like sign-ins.
pub fn limited_routes() -> axum::Router<AppState> {
    axum::Router::new().route("/api/password/forgot", axum::routing::post(http::forgot_password))
}
