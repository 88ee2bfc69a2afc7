//! Persistence: one `Store` over sqlx's `Any` driver, for SQLite (embedded, the default) and
//! PostgreSQL. SQL is written once with `$1..$N` placeholders, which both accept; each dialect has
//! its own migrations folder because their id columns differ.

use std::str::FromStr;

use sqlx::{
    AnyPool, Row,
    any::{AnyConnectOptions, AnyPoolOptions, AnyRow},
    migrate::Migrator,
};

use gobeyond_rules::system::SeatHistory;

use crate::error::ApiError;

mod account_data;
mod backup;
mod challenges;
pub mod chat;
mod finished_games;
mod game_events;
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
pub use backup::Moved;
pub use challenges::{ChallengeCaps, ChallengeRow};
pub use finished_games::FinishedGame;
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

#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize, ts_rs::TS)]
pub struct User {
    pub id: i64,
    pub name: String,
    /// `guest`, `registered` or `bot`.
    pub kind: String,
    #[serde(skip)]
    pub password_hash: Option<String>,
}

#[derive(Debug, Clone)]
pub struct GameRow {
    pub id: i64,
    pub creator: i64,
    pub setup: String,
    pub status: String,
    pub public: bool,
    pub invite: Option<String>,
    pub clock: Option<String>,
    pub result: Option<String>,
    pub created_ms: i64,
    /// What lists show of the settings ([`crate::setup::GameBrief`] as JSON); lists read it
    /// instead of `setup` (empty there) when a game has one.
    pub brief: Option<String>,
    /// When its last action was played (its creation before any), where lists read it.
    pub last_active_ms: Option<i64>,
}

/// Writes the seats of new game `id` (a created game, or a finished one stored from a record).
async fn insert_seats(conn: &mut sqlx::AnyConnection, id: i64, seats: &[NewSeat]) -> Result<(), ApiError> {
    for (seat, s) in seats.iter().enumerate() {
        sqlx::query(
            "INSERT INTO seats (game_id, seat, user_id, bot_level, invite_only) VALUES ($1, $2, $3, $4, $5)",
        )
        .bind(id)
        .bind(seat as i64)
        .bind(s.user_id)
        .bind(s.bot_level.map(i64::from))
        .bind(i64::from(s.invite_only))
        .execute(&mut *conn)
        .await?;
    }
    Ok(())
}

/// A seat of a game being created.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NewSeat {
    pub user_id: Option<i64>,
    pub bot_level: Option<u8>,
    /// Taken only with the invite link (or by the player it is kept for).
    pub invite_only: bool,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SeatRow {
    pub seat: usize,
    pub user_id: Option<i64>,
    pub user_name: Option<String>,
    pub bot_level: Option<u8>,
}

fn user(row: &AnyRow) -> Result<User, sqlx::Error> {
    Ok(User {
        id: row.try_get("id")?,
        name: row.try_get("name")?,
        kind: row.try_get("kind")?,
        password_hash: row.try_get("password_hash")?,
    })
}

fn game(row: &AnyRow) -> Result<GameRow, sqlx::Error> {
    Ok(GameRow {
        id: row.try_get("id")?,
        creator: row.try_get("creator")?,
        setup: row.try_get("setup")?,
        status: row.try_get("status")?,
        public: row.try_get::<i64, _>("public")? != 0,
        invite: row.try_get("invite")?,
        clock: row.try_get("clock")?,
        result: row.try_get("result")?,
        created_ms: row.try_get("created_ms")?,
        brief: row.try_get("brief").ok().flatten(),
        last_active_ms: row.try_get("last_active").ok(),
    })
}

// `query()` takes static SQL only (no string building): the column list is repeated. Lists
// read a game's brief, and its settings only where it has none yet (games made before briefs).
const GAME_BY_ID: &str =
    "SELECT id, creator, setup, status, public, invite, clock, result, created_ms FROM games WHERE id = $1";
const PUBLIC_GAMES_OF_USER: &str = "SELECT id, creator, CASE WHEN brief IS NULL THEN setup ELSE '' END AS setup, brief, status, public, invite, clock, result, created_ms, \
     COALESCE((SELECT MAX(a.at_ms) FROM actions a WHERE a.game_id = games.id), created_ms) AS last_active FROM games \
     WHERE public = 1 AND id IN (SELECT game_id FROM seats WHERE user_id = $1) ORDER BY id DESC LIMIT $2";

/// Open or live games a user created that count against their cap.
const ACTIVE_CREATED: &str =
    "SELECT COUNT(*) AS n FROM games WHERE creator = $1 AND status <> 'finished' AND casual = 0";

/// Who creates a game, and how many open or live games they may have.
#[derive(Debug, Clone, Copy)]
pub struct Quota<'a> {
    pub user: i64,
    pub per_user: i64,
    /// The client's address (`None`: not counted by address, as for games made by the server).
    pub address: Option<&'a str>,
    pub per_address: i64,
    /// Whether the new game has bots only, and how many such games a user may have.
    pub bots_only: bool,
    pub per_user_bots_only: i64,
    /// One person against bots with no clock: not counted against `per_user` (the address's
    /// cap still bounds them, and they end as abandoned when left).
    pub casual: bool,
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

    /// Accounts without a key get theirs: those made before names were compared by key, and
    /// every account after a migration that changed the key (it clears them all). Oldest
    /// first: of two names with one key (possible before), the older keeps it and the other
    /// gets a key of its own, which no name typed at login has.
    async fn fill_name_keys(&self) -> Result<(), ApiError> {
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

    // ---- users and sessions ----

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

    // ---- games ----

    /// A new open game with its seats (`None` = open; a bot level = a server bot), unless
    /// its creator, or the address it comes from, already has as many open or live games as
    /// `quota` allows: the counts and the insert happen under a lock (the creator's row, and
    /// on PostgreSQL an advisory lock on the address; SQLite's write lock covers both), so
    /// simultaneous requests cannot pass the caps together (60 at once once made 56 games
    /// against a cap of 20).
    pub async fn create_game(
        &self,
        quota: &Quota<'_>,
        setup: &str,
        public: bool,
        invite: Option<&str>,
        seats: &[NewSeat],
    ) -> Result<i64, ApiError> {
        let creator = quota.user;
        let mut tx = self.pool.begin().await?;
        // A write first: PostgreSQL locks the creator's row, SQLite takes its write lock.
        sqlx::query("UPDATE users SET name = name WHERE id = $1").bind(creator).execute(&mut *tx).await?;
        if let (Some(address), Backend::Postgres) = (quota.address, self.backend) {
            sqlx::query("SELECT pg_advisory_xact_lock(hashtext($1))").bind(address).execute(&mut *tx).await?;
        }
        let active: i64 =
            sqlx::query(ACTIVE_CREATED).bind(creator).fetch_one(&mut *tx).await?.try_get("n")?;
        if active >= quota.per_user && !quota.casual {
            return Err(ApiError::TooMany(format!(
                "at most {} open or live games per player",
                quota.per_user
            )));
        }
        if quota.bots_only {
            let bots_only: i64 = sqlx::query(
                "SELECT COUNT(*) AS n FROM games g WHERE g.creator = $1 AND g.status <> 'finished' \
                 AND NOT EXISTS (SELECT 1 FROM seats s WHERE s.game_id = g.id AND s.bot_level IS NULL)",
            )
            .bind(creator)
            .fetch_one(&mut *tx)
            .await?
            .try_get("n")?;
            if bots_only >= quota.per_user_bots_only {
                return Err(ApiError::TooMany(format!(
                    "at most {} games of bots only at a time per player: finish one first",
                    quota.per_user_bots_only
                )));
            }
        }
        if let Some(address) = quota.address {
            let from_address: i64 = sqlx::query(
                "SELECT COUNT(*) AS n FROM games WHERE creator_address = $1 AND status <> 'finished'",
            )
            .bind(address)
            .fetch_one(&mut *tx)
            .await?
            .try_get("n")?;
            if from_address >= quota.per_address {
                return Err(ApiError::TooMany(format!(
                    "at most {} open or live games from one address: finish some first",
                    quota.per_address
                )));
            }
        }
        let row = sqlx::query(
            "INSERT INTO games (creator, setup, status, public, invite, created_ms, creator_address, casual) VALUES ($1, $2, 'open', $3, $4, $5, $6, $7) RETURNING id",
        )
        .bind(creator)
        .bind(setup)
        .bind(public as i64)
        .bind(invite)
        .bind(now_ms())
        .bind(quota.address)
        .bind(i64::from(quota.casual))
        .fetch_one(&mut *tx)
        .await?;
        let id: i64 = row.try_get("id")?;
        insert_seats(&mut tx, id, seats).await?;
        tx.commit().await?;
        Ok(id)
    }

    pub async fn game(&self, id: i64) -> Result<Option<GameRow>, ApiError> {
        let row = sqlx::query(GAME_BY_ID).bind(id).fetch_optional(&self.pool).await?;
        Ok(row.as_ref().map(game).transpose()?)
    }

    pub async fn seats(&self, game_id: i64) -> Result<Vec<SeatRow>, ApiError> {
        let rows = sqlx::query(
            "SELECT seats.seat, seats.user_id, seats.bot_level, users.name FROM seats \
             LEFT JOIN users ON users.id = seats.user_id WHERE seats.game_id = $1 ORDER BY seats.seat",
        )
        .bind(game_id)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| {
                Ok(SeatRow {
                    seat: r.try_get::<i64, _>("seat")? as usize,
                    user_id: r.try_get("user_id")?,
                    user_name: r.try_get("name")?,
                    bot_level: r.try_get::<Option<i64>, _>("bot_level")?.map(|l| l as u8),
                })
            })
            .collect()
    }

    pub async fn set_seat(&self, game_id: i64, seat: usize, user_id: Option<i64>) -> Result<(), ApiError> {
        sqlx::query("UPDATE seats SET user_id = $1 WHERE game_id = $2 AND seat = $3")
            .bind(user_id)
            .bind(game_id)
            .bind(seat as i64)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// Replaces a game's stored settings (before it starts).
    pub async fn set_setup(&self, id: i64, setup: &str) -> Result<(), ApiError> {
        sqlx::query("UPDATE games SET setup = $1 WHERE id = $2 AND status = 'open'")
            .bind(setup)
            .bind(id)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// A player's finished games of `system` on this server (the latest 200 games of any
    /// system are looked at: systems ask for a few games, Tribal Go for five).
    pub async fn results(&self, user: i64, system: &str) -> Result<SeatHistory, ApiError> {
        let rows = sqlx::query(
            "SELECT games.setup, games.result, seats.seat FROM games JOIN seats ON seats.game_id = games.id \
             WHERE seats.user_id = $1 AND games.status = 'finished' ORDER BY games.id DESC LIMIT 200",
        )
        .bind(user)
        .fetch_all(&self.pool)
        .await?;
        let mut history = SeatHistory::default();
        for r in &rows {
            let setup: String = r.try_get("setup")?;
            let same = serde_json::from_str::<serde_json::Value>(&setup)
                .ok()
                .is_some_and(|v| v["rules"]["system"] == system);
            if !same {
                continue;
            }
            history.played += 1;
            let seat: i64 = r.try_get("seat")?;
            let result: Option<String> = r.try_get("result")?;
            let first = result
                .and_then(|t| serde_json::from_str::<serde_json::Value>(&t).ok())
                .is_some_and(|o| o["places"][seat as usize] == 1);
            history.first += u32::from(first);
        }
        Ok(history)
    }

    /// Marks a game live (checked against `fence` when several instances share the database).
    pub async fn start_game(&self, id: i64, clock: &str, fence: Option<&Fence>) -> Result<(), ApiError> {
        let mut tx = self.pool.begin().await?;
        if let Some(fence) = fence {
            leases::check(&mut tx, id, fence).await?;
        }
        sqlx::query("UPDATE games SET status = 'live', started_ms = $1, clock = $2 WHERE id = $3")
            .bind(now_ms())
            .bind(clock)
            .bind(id)
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(())
    }

    /// Appends one action to the log, with the clock as it stands after it (`None` for untimed
    /// games: nothing to store), in one transaction: once this returns the action is committed
    /// and may be acknowledged. With several instances, `fence` must still hold the game's
    /// lease, checked under its lock in the same transaction.
    pub async fn append_action(
        &self,
        game_id: i64,
        seq: u64,
        action: &str,
        clock: Option<&str>,
        fence: Option<&Fence>,
    ) -> Result<(), ApiError> {
        let insert = sqlx::query("INSERT INTO actions (game_id, seq, action, at_ms) VALUES ($1, $2, $3, $4)")
            .bind(game_id)
            .bind(seq as i64)
            .bind(action)
            .bind(now_ms());
        if clock.is_none() && fence.is_none() {
            insert.execute(&self.pool).await?;
            return Ok(());
        }
        let mut tx = self.pool.begin().await?;
        if let Some(fence) = fence {
            leases::check(&mut tx, game_id, fence).await?;
        }
        insert.execute(&mut *tx).await?;
        let Some(clock) = clock else {
            tx.commit().await?;
            return Ok(());
        };
        sqlx::query("UPDATE games SET clock = $1 WHERE id = $2")
            .bind(clock)
            .bind(game_id)
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(())
    }

    /// Marks a game finished and, when it is rated, updates its players' ratings (`rated`: the
    /// rule system and each player's user id and place), all in one transaction: a game
    /// finishes and counts exactly once, however often this is called (a restart finishes games
    /// the log shows ended). Concurrent updates of one player's rating are compared and set on
    /// its game count, and retried. Returns why a rated game changed no rating (its players are
    /// not independent: see [`ratings::not_independent`]), which its stored result also says.
    pub async fn finish_game(
        &self,
        id: i64,
        result: &str,
        rated: Option<(&str, &[(i64, u32)])>,
        fence: Option<&Fence>,
    ) -> Result<Option<String>, ApiError> {
        for _ in 0..8 {
            let mut tx = self.pool.begin().await?;
            if let Some(fence) = fence {
                leases::check(&mut tx, id, fence).await?;
            }
            // A write first: SQLite takes its write lock here, so what follows is serialised.
            let marked = sqlx::query(
                "UPDATE games SET status = 'finished', finished_ms = $1, result = $2 WHERE id = $3 AND status <> 'finished'",
            )
            .bind(now_ms())
            .bind(result)
            .bind(id)
            .execute(&mut *tx)
            .await?
            .rows_affected();
            let Some((system, players)) = rated.filter(|_| marked == 1) else {
                tx.commit().await?;
                return Ok(None);
            };
            if let Some(reason) = ratings::not_independent(&mut tx, players).await? {
                let mut shown: serde_json::Value = serde_json::from_str(result).unwrap_or_default();
                if let Some(fields) = shown.as_object_mut() {
                    fields.insert("unrated".into(), reason.clone().into());
                }
                sqlx::query("UPDATE games SET result = $1 WHERE id = $2")
                    .bind(shown.to_string())
                    .bind(id)
                    .execute(&mut *tx)
                    .await?;
                tx.commit().await?;
                return Ok(Some(reason));
            }
            if !ratings::rate(&mut tx, id, system, players).await? {
                // Another game changed one of these ratings meanwhile: again, from the start.
                tx.rollback().await?;
                continue;
            }
            tx.commit().await?;
            return Ok(None);
        }
        Err(ApiError::Internal(format!("game {id}: the ratings kept changing under the update")))
    }

    /// The log from `after + 1` on, in order.
    pub async fn actions(&self, game_id: i64, after: u64) -> Result<Vec<(u64, String)>, ApiError> {
        Ok(self.timed_actions(game_id, after).await?.into_iter().map(|(seq, text, _)| (seq, text)).collect())
    }

    /// [`Store::actions`] with when each was played (epoch milliseconds), for records.
    pub async fn timed_actions(&self, game_id: i64, after: u64) -> Result<Vec<(u64, String, i64)>, ApiError> {
        let rows = sqlx::query(
            "SELECT seq, action, at_ms FROM actions WHERE game_id = $1 AND seq > $2 ORDER BY seq",
        )
        .bind(game_id)
        .bind(after as i64)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| Ok((r.try_get::<i64, _>("seq")? as u64, r.try_get("action")?, r.try_get("at_ms")?)))
            .collect()
    }

    /// Stores what lists show of game `id`'s settings.
    pub async fn set_brief(&self, id: i64, brief: &str) -> Result<(), ApiError> {
        sqlx::query("UPDATE games SET brief = $1 WHERE id = $2")
            .bind(brief)
            .bind(id)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// The public games `user` plays or played in, newest first.
    pub async fn public_games_of(&self, user: i64, limit: i64) -> Result<Vec<GameRow>, ApiError> {
        let rows = sqlx::query(PUBLIC_GAMES_OF_USER).bind(user).bind(limit).fetch_all(&self.pool).await?;
        Ok(rows.iter().map(game).collect::<Result<_, _>>()?)
    }

    /// Ids of every game that is still being played (rebuilt at start-up).
    pub async fn live_game_ids(&self) -> Result<Vec<i64>, ApiError> {
        let rows = sqlx::query("SELECT id FROM games WHERE status = 'live' ORDER BY id")
            .fetch_all(&self.pool)
            .await?;
        rows.iter().map(|r| Ok(r.try_get("id")?)).collect()
    }

    /// Open and live games created by `user`: the per-user cap.
    pub async fn active_games_created(&self, user: i64) -> Result<i64, ApiError> {
        let row = sqlx::query(ACTIVE_CREATED).bind(user).fetch_one(&self.pool).await?;
        Ok(row.try_get("n")?)
    }

    /// Live games in which nothing was played since `cutoff_ms` (at most `limit`), each with
    /// its last action's number: to be ended as abandoned.
    /// (Correspondence games are not: their clocks end them, and a vacation may stop one for
    /// longer than the sweep waits.)
    pub async fn idle_live_games(&self, cutoff_ms: i64, limit: i64) -> Result<Vec<(i64, u64)>, ApiError> {
        let rows = sqlx::query(
            "SELECT id, seq FROM (SELECT g.id, \
               COALESCE((SELECT MAX(a.seq) FROM actions a WHERE a.game_id = g.id), 0) AS seq, \
               COALESCE((SELECT MAX(a.at_ms) FROM actions a WHERE a.game_id = g.id), g.created_ms) AS last_ms \
             FROM games g WHERE g.status = 'live' \
               AND (g.clock IS NULL OR g.clock NOT LIKE '%\"kind\":\"correspondence\"%')) AS t \
             WHERE last_ms < $1 ORDER BY id LIMIT $2",
        )
        .bind(cutoff_ms)
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(|r| Ok((r.try_get::<i64, _>("id")?, r.try_get::<i64, _>("seq")? as u64))).collect()
    }

    /// Open games created before `cutoff_ms` (at most `limit`): to be expired.
    pub async fn stale_open_games(&self, cutoff_ms: i64, limit: i64) -> Result<Vec<i64>, ApiError> {
        let rows = sqlx::query(
            "SELECT id FROM games WHERE status = 'open' AND created_ms < $1 ORDER BY created_ms LIMIT $2",
        )
        .bind(cutoff_ms)
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(|r| Ok(r.try_get("id")?)).collect()
    }

    /// Removes an open game (nothing was played in it) with its seats, chat and admissions.
    pub async fn delete_open_game(&self, id: i64) -> Result<(), ApiError> {
        let mut tx = self.pool.begin().await?;
        let open = sqlx::query("SELECT status FROM games WHERE id = $1")
            .bind(id)
            .fetch_optional(&mut *tx)
            .await?
            .map(|r| r.try_get::<String, _>("status"))
            .transpose()?;
        if open.as_deref() != Some("open") {
            return Err(ApiError::Conflict(format!("game {id} is not open")));
        }
        for sql in [
            "DELETE FROM chat WHERE game_id = $1",
            "DELETE FROM seats WHERE game_id = $1",
            "DELETE FROM admitted WHERE game_id = $1",
            "DELETE FROM game_leases WHERE game_id = $1",
            "DELETE FROM games WHERE id = $1",
            // A rematch nobody joined goes: the finished game may be rematched again.
            "UPDATE games SET rematch = NULL WHERE rematch = $1",
        ] {
            sqlx::query(sql).bind(id).execute(&mut *tx).await?;
        }
        tx.commit().await?;
        Ok(())
    }

    /// Lets `user` read a private game and chat in it (they came with its invite link).
    pub async fn admit(&self, game_id: i64, user_id: i64) -> Result<(), ApiError> {
        let r = sqlx::query("INSERT INTO admitted (game_id, user_id) VALUES ($1, $2)")
            .bind(game_id)
            .bind(user_id)
            .execute(&self.pool)
            .await;
        match r {
            Ok(_) => Ok(()),
            Err(sqlx::Error::Database(d)) if d.is_unique_violation() => Ok(()),
            Err(e) => Err(e.into()),
        }
    }

    /// Whether `user` plays in, created, or was admitted to game `game_id`.
    pub async fn takes_part(&self, game_id: i64, user_id: i64) -> Result<bool, ApiError> {
        let row = sqlx::query(
            "SELECT (SELECT COUNT(*) FROM games WHERE id = $1 AND creator = $2) \
             + (SELECT COUNT(*) FROM seats WHERE game_id = $1 AND user_id = $2) \
             + (SELECT COUNT(*) FROM admitted WHERE game_id = $1 AND user_id = $2) AS n",
        )
        .bind(game_id)
        .bind(user_id)
        .fetch_one(&self.pool)
        .await?;
        Ok(row.try_get::<i64, _>("n")? > 0)
    }
}

fn unique_violation(e: sqlx::Error, conflict: impl FnOnce() -> ApiError) -> ApiError {
    match &e {
        sqlx::Error::Database(d) if d.is_unique_violation() => conflict(),
        _ => ApiError::from(e),
    }
}
