//! Persistence: one `Store` over sqlx's `Any` driver, for SQLite (embedded, the default) and
//! PostgreSQL. SQL is written once with `$1..$N` placeholders, which both accept; each dialect has
//! its own migrations folder because their id columns differ.
//!
//! This file opens the database; the queries live by subject in `store/`: accounts and sessions
//! (`accounts.rs`), games and their seats (`games.rs`), a game's log and end (`game_log.rs`),
//! and one file for each feature built on them.

use std::str::FromStr;

use sqlx::{
    AnyPool,
    any::{AnyConnectOptions, AnyPoolOptions},
    migrate::Migrator,
};

use crate::error::ApiError;

mod account_data;
mod accounts;
mod backup;
mod challenges;
pub mod chat;
mod finished_games;
mod game_events;
mod game_log;
mod games;
mod leases;
mod lists;
pub mod mail;
mod mail_queue;
mod metric_counts;
pub mod moderation;
pub mod moderation_reports;
pub mod profiles;
mod ratings;
mod rematches;
mod review_tree;
mod reviews;
mod seeks;
mod social;
mod tournament_arena;
pub mod tournaments;
mod vacations;
mod waits;
pub use accounts::User;
pub use backup::Moved;
pub use challenges::{ChallengeCaps, ChallengeRow};
pub use finished_games::FinishedGame;
pub use games::{GameRow, NewSeat, Quota, SeatRow};
use games::{game, insert_seats};
pub use leases::{Fence, Holder, InstanceRow};
pub use lists::{FilterKeys, ListFilter, ListKeys, PlayerFound};
pub use ratings::{HistoryRow, RatedSeat};
pub use rematches::RematchClaim;
pub use review_tree::{Added, StoredComment, StoredVariation, TreeCaps};
pub use reviews::{ReviewBounds, ReviewRow};
pub use seeks::{SeekRow, SeekSpec};
pub use social::{Related, Relation, SEEN_EVERY_MS};
pub use vacations::Vacation;
pub use waits::{MAX_WAITS, Wait, WaitRow};

static SQLITE: Migrator = sqlx::migrate!("migrations/sqlite");
static POSTGRES: Migrator = sqlx::migrate!("migrations/postgres");

/// Milliseconds since the Unix epoch: how every timestamp is stored (portable across both
/// databases under `Any`).
pub fn now_ms() -> i64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_millis() as i64)
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Backend {
    Sqlite,
    Postgres,
}

#[derive(Debug, Clone)]
pub struct Store {
    pool: AnyPool,
    pub backend: Backend,
    /// The time game clocks and vacations read ([`crate::now`]).
    pub time: std::sync::Arc<crate::now::Now>,
    /// Set when this server sends mail: games note who they wait for and queue notices within
    /// these bounds (see `crate::mail`).
    mail: std::sync::Arc<std::sync::OnceLock<mail::MailBounds>>,
}

impl Store {
    /// The time of game clocks and vacations: [`now_ms`], unless a test moved it.
    pub fn now(&self) -> i64 {
        self.time.ms()
    }

    /// Connects, creating the SQLite file if it is missing, and applies the migrations.
    pub async fn connect(url: &str) -> Result<Store, ApiError> {
        sqlx::any::install_default_drivers();
        let backend = if url.starts_with("sqlite:") {
            Backend::Sqlite
        } else if url.starts_with("postgres:") || url.starts_with("postgresql:") {
            Backend::Postgres
        } else {
            return Err(ApiError::Config(format!(
                "unsupported database {url:?}: use sqlite://FILE or postgres://..."
            )));
        };
        let url = match backend {
            Backend::Sqlite if !url.contains("mode=") => {
                format!("{url}{}mode=rwc", if url.contains('?') { "&" } else { "?" })
            }
            _ => url.to_string(),
        };
        let options = AnyConnectOptions::from_str(&url).map_err(|e| ApiError::Config(e.to_string()))?;
        let pool = AnyPoolOptions::new()
            // SQLite has one writer anyway; a few connections serve concurrent reads.
            .max_connections(if backend == Backend::Sqlite { 4 } else { 16 })
            .after_connect(move |conn, _| {
                Box::pin(async move {
                    if backend == Backend::Sqlite {
                        // WAL: readers never block the writer. synchronous=NORMAL keeps every
                        // committed transaction across a crash of the process (SIGKILL); only a
                        // power cut can lose the last ones.
                        for pragma in [
                            "PRAGMA journal_mode = WAL",
                            "PRAGMA synchronous = NORMAL",
                            "PRAGMA busy_timeout = 10000",
                            "PRAGMA foreign_keys = ON",
                        ] {
                            sqlx::query(pragma).execute(&mut *conn).await?;
                        }
                    }
                    Ok(())
                })
            })
            .connect_with(options)
            .await
            .map_err(|e| ApiError::Config(format!("cannot open the database: {e}")))?;
        let migrator = match backend {
            Backend::Sqlite => &SQLITE,
            Backend::Postgres => &POSTGRES,
        };
        migrator.run(&pool).await.map_err(|e| ApiError::Config(format!("migrations failed: {e}")))?;
        let store = Store { pool, backend, time: Default::default(), mail: Default::default() };
        store.fill_name_keys().await?;
        Ok(store)
    }

    /// The queue's bounds if this server sends mail (set once at start).
    pub fn mail_bounds(&self) -> Option<mail::MailBounds> {
        self.mail.get().copied()
    }

    pub fn set_mail_bounds(&self, bounds: mail::MailBounds) {
        let _ = self.mail.set(bounds);
    }

    pub async fn close(&self) {
        self.pool.close().await;
    }
}

fn unique_violation(e: sqlx::Error, conflict: impl FnOnce() -> ApiError) -> ApiError {
    match &e {
        sqlx::Error::Database(d) if d.is_unique_violation() => conflict(),
        _ => ApiError::from(e),
    }
}
