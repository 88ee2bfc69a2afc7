//! Game ownership between instances sharing one PostgreSQL database: leases with a fencing
//! epoch, instance heartbeats, and the cluster's shared secret. Times are the database's own
//! clock (`NOW_MS`), so instances whose clocks disagree still agree on who holds a lease.
//!
//! SQLite has a single instance and never calls these.

use sqlx::{Any, Row, Transaction};

use super::{Store, now_ms};
use crate::error::ApiError;

/// The database's clock in milliseconds since the epoch (PostgreSQL).
macro_rules! now_ms_sql {
    () => {
        "(EXTRACT(EPOCH FROM clock_timestamp()) * 1000)::BIGINT"
    };
}

/// The right of one instance to write one game's log: checked under the lease row's lock by
/// every write, so a former owner (paused, partitioned) can never append after a takeover.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fence {
    pub owner: std::sync::Arc<str>,
    pub epoch: i64,
}

/// Who holds a game's lease.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Holder {
    pub owner: String,
    /// Where the owner is reached (from its heartbeat), when known.
    pub address: Option<String>,
    /// The lease has not expired.
    pub held: bool,
}

/// An instance as the others see it.
#[derive(Debug, Clone, serde::Serialize)]
pub struct InstanceRow {
    pub id: String,
    pub address: String,
    /// Milliseconds since its last heartbeat (database clock).
    pub silent_ms: i64,
    /// Games whose lease it holds now.
    pub games: i64,
}

/// Locks game `game_id`'s lease row (shared: writes of one owner do not wait on each other)
/// and checks that `fence` still holds it; a takeover waits for this transaction, and a write
/// after the takeover sees the new epoch and is refused.
pub(super) async fn check(
    tx: &mut Transaction<'_, Any>,
    game_id: i64,
    fence: &Fence,
) -> Result<(), ApiError> {
    let epoch: Option<i64> =
        sqlx::query("SELECT epoch FROM game_leases WHERE game_id = $1 AND owner = $2 FOR SHARE")
            .bind(game_id)
            .bind(fence.owner.as_ref())
            .fetch_optional(&mut **tx)
            .await?
            .map(|r| r.try_get("epoch"))
            .transpose()?;
    if epoch == Some(fence.epoch) {
        Ok(())
    } else {
        Err(ApiError::Fenced(format!("game {game_id} is run by another server now: try again")))
    }
}

impl Store {
    /// The secret instances show each other, made by the first instance.
    pub async fn cluster_secret(&self) -> Result<String, ApiError> {
        let mut bytes = [0u8; 32];
        getrandom::fill(&mut bytes).map_err(|e| ApiError::Internal(format!("no randomness: {e}")))?;
        let fresh: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
        sqlx::query("INSERT INTO cluster (id, secret) VALUES (1, $1) ON CONFLICT (id) DO NOTHING")
            .bind(fresh)
            .execute(&self.pool)
            .await?;
        let row = sqlx::query("SELECT secret FROM cluster WHERE id = 1").fetch_one(&self.pool).await?;
        Ok(row.try_get("secret")?)
    }

    /// Says this instance is alive and where it is reached.
    pub async fn heartbeat(&self, id: &str, address: &str) -> Result<(), ApiError> {
        sqlx::query(concat!(
            "INSERT INTO instances (id, address, started_ms, seen_ms) VALUES ($1, $2, $3, ",
            now_ms_sql!(),
            ") ON CONFLICT (id) DO UPDATE SET address = EXCLUDED.address, seen_ms = EXCLUDED.seen_ms"
        ))
        .bind(id)
        .bind(address)
        .bind(now_ms())
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// Extends every lease `owner` holds by `ttl_ms`; the games still its own.
    pub async fn renew_leases(&self, owner: &str, ttl_ms: i64) -> Result<Vec<i64>, ApiError> {
        let rows = sqlx::query(concat!(
            "UPDATE game_leases SET expires_ms = ",
            now_ms_sql!(),
            " + $2 WHERE owner = $1 RETURNING game_id"
        ))
        .bind(owner)
        .bind(ttl_ms)
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(|r| Ok(r.try_get("game_id")?)).collect()
    }

    /// Takes game `game_id`'s lease for `owner` when it is free, expired, or already `owner`'s
    /// (then a new epoch fences off any older copy); the new epoch, or `None` when another
    /// instance holds it.
    pub async fn claim_lease(&self, game_id: i64, owner: &str, ttl_ms: i64) -> Result<Option<i64>, ApiError> {
        let row = sqlx::query(concat!(
            "INSERT INTO game_leases (game_id, owner, epoch, expires_ms) VALUES ($1, $2, 1, ",
            now_ms_sql!(),
            " + $3) ON CONFLICT (game_id) DO UPDATE SET owner = EXCLUDED.owner, epoch = game_leases.epoch + 1, \
             expires_ms = EXCLUDED.expires_ms WHERE game_leases.owner = EXCLUDED.owner OR game_leases.expires_ms < ",
            now_ms_sql!(),
            " RETURNING epoch"
        ))
        .bind(game_id)
        .bind(owner)
        .bind(ttl_ms)
        .fetch_optional(&self.pool)
        .await;
        match row {
            Ok(row) => Ok(row.map(|r| r.try_get("epoch")).transpose()?),
            // A game deleted meanwhile (an expired open game).
            Err(sqlx::Error::Database(d)) if d.is_foreign_key_violation() => {
                Err(ApiError::NotFound(format!("there is no game {game_id}")))
            }
            Err(e) => Err(e.into()),
        }
    }

    /// Who holds game `game_id`'s lease, if anybody ever did.
    pub async fn lease_holder(&self, game_id: i64) -> Result<Option<Holder>, ApiError> {
        let row = sqlx::query(concat!(
            "SELECT l.owner, i.address, (l.expires_ms > ",
            now_ms_sql!(),
            ") AS held FROM game_leases l LEFT JOIN instances i ON i.id = l.owner WHERE l.game_id = $1"
        ))
        .bind(game_id)
        .fetch_optional(&self.pool)
        .await?;
        row.map(|r| -> Result<Holder, ApiError> {
            Ok(Holder {
                owner: r.try_get("owner")?,
                address: r.try_get("address")?,
                held: r.try_get("held")?,
            })
        })
        .transpose()
    }

    /// Gives a new game to the live instance running the fewest games (ties at random), for it
    /// to claim when first asked; that instance's id.
    pub async fn assign_lease(&self, game_id: i64, ttl_ms: i64) -> Result<Option<String>, ApiError> {
        let row = sqlx::query(concat!(
            "INSERT INTO game_leases (game_id, owner, epoch, expires_ms) \
             SELECT $1, i.id, 0, ",
            now_ms_sql!(),
            " + $2 FROM instances i WHERE i.seen_ms > ",
            now_ms_sql!(),
            " - $2 ORDER BY (SELECT COUNT(*) FROM game_leases l WHERE l.owner = i.id AND l.expires_ms > ",
            now_ms_sql!(),
            "), random() LIMIT 1 ON CONFLICT (game_id) DO NOTHING RETURNING owner"
        ))
        .bind(game_id)
        .bind(ttl_ms)
        .fetch_optional(&self.pool)
        .await?;
        Ok(row.map(|r| r.try_get("owner")).transpose()?)
    }

    /// Gives up a lease (an unloaded table, a clean shutdown): another instance may take it at
    /// once instead of after it expires.
    pub async fn release_lease(&self, game_id: i64, fence: &Fence) -> Result<(), ApiError> {
        sqlx::query("UPDATE game_leases SET expires_ms = 0 WHERE game_id = $1 AND owner = $2 AND epoch = $3")
            .bind(game_id)
            .bind(fence.owner.as_ref())
            .bind(fence.epoch)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// Gives up every lease of `owner` (a clean shutdown).
    pub async fn release_all_leases(&self, owner: &str) -> Result<(), ApiError> {
        sqlx::query("UPDATE game_leases SET expires_ms = 0 WHERE owner = $1")
            .bind(owner)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// Live games nobody runs: their lease expired (the owner died) or they never had one (a
    /// database from before several instances).
    pub async fn orphaned_live_games(&self, limit: i64) -> Result<Vec<i64>, ApiError> {
        let rows = sqlx::query(concat!(
            "SELECT g.id FROM games g LEFT JOIN game_leases l ON l.game_id = g.id \
             WHERE g.status = 'live' AND (l.game_id IS NULL OR l.expires_ms < ",
            now_ms_sql!(),
            ") ORDER BY random() LIMIT $1"
        ))
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(|r| Ok(r.try_get("id")?)).collect()
    }

    /// Instances heard from within `within_ms`, with the games each holds.
    pub async fn instances(&self, within_ms: i64) -> Result<Vec<InstanceRow>, ApiError> {
        let rows = sqlx::query(concat!(
            "SELECT i.id, i.address, ",
            now_ms_sql!(),
            " - i.seen_ms AS silent_ms, (SELECT COUNT(*) FROM game_leases l WHERE l.owner = i.id AND l.expires_ms > ",
            now_ms_sql!(),
            ") AS games FROM instances i WHERE i.seen_ms > ",
            now_ms_sql!(),
            " - $1 ORDER BY i.id"
        ))
        .bind(within_ms)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| {
                Ok(InstanceRow {
                    id: r.try_get("id")?,
                    address: r.try_get("address")?,
                    silent_ms: r.try_get("silent_ms")?,
                    games: r.try_get("games")?,
                })
            })
            .collect()
    }
}
