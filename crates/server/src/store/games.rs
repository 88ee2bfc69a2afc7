//! Games: creating one under its creator's quota, its seats and settings, the results a player's
//! history is read from, and the lists and sweeps that find games by state (its log and its end
//! are in `game_log.rs`).

use sqlx::{Row, any::AnyRow};

use gobeyond_rules::system::SeatHistory;

use super::{Backend, Store, now_ms};
use crate::error::ApiError;

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
pub(super) async fn insert_seats(
    conn: &mut sqlx::AnyConnection,
    id: i64,
    seats: &[NewSeat],
) -> Result<(), ApiError> {
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

pub(super) fn game(row: &AnyRow) -> Result<GameRow, sqlx::Error> {
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
