//! Every table of this server: found, loaded from the database and started on demand, unloaded
//! when idle, and never more than [`Limits::loaded_games`] at once (every game ever read once
//! stayed in memory: 3.7 GiB after a loop over `GET /api/games/1..3419`).
//!
//! A table leaves memory in three steps, so that no two copies of one game ever write: the slot
//! is marked unloading (new requests wait), the table closes its queue and finishes what was
//! already in it, then the slot is freed. A request that still held the old handle and finds
//! its queue closed gets its command back and sends it to the new copy ([`Hub::ask`]).

use tokio::sync::{mpsc::error::SendError, watch};
use tracing::Instrument;

use super::*;
use crate::{
    cluster::{Cluster, Place},
    limit::Limits,
    store::Holder,
};

mod leases;
mod load;
mod unload;

/// The answer when no more games fit in memory.
const FULL: &str = "the server has as many games in play as it can hold: try again later";

/// Bot searches of games with people and of games of bots only run on separate budgets: 20
/// bot-only games once starved a person's level-1 bot to 40 s per move.
#[derive(Debug, Clone)]
pub struct BotPools {
    pub people: Arc<Semaphore>,
    pub bots_only: Arc<Semaphore>,
    /// A game of bots only that nobody has watched for this long stops searching (and leaves
    /// memory) until someone watches it again: one guest's 20 such games once kept half the
    /// cores busy for ever.
    pub unwatched_patience: Duration,
}

/// What the hub knows of a running table without asking it.
#[derive(Debug)]
pub struct Shared {
    /// The game must stay in memory: its clock runs, a bot thinks, or an undo waits for an
    /// answer. A live game waiting on a person with no clock is not pinned: nobody touching it
    /// must not hold a place (2,000 such games once filled the server for everyone).
    pub pinned: std::sync::atomic::AtomicBool,
    /// When the table last handled a command (ms since the epoch).
    pub active_ms: std::sync::atomic::AtomicI64,
    /// The table's own estimated bytes, its map aside ([`super::size`]).
    pub bytes: std::sync::atomic::AtomicU64,
    /// Its map (the shared copy's address, to count each map once) and the map's bytes.
    pub map: std::sync::atomic::AtomicUsize,
    pub map_bytes: std::sync::atomic::AtomicU64,
    /// A relay of a game another instance owns, not a table.
    pub remote: bool,
    /// Made after the lease was claimed: a renewal sent later that no longer finds the game
    /// ours means another instance took it.
    made: Instant,
    /// Another instance took the game: the table stops at once, without writing.
    revoked: std::sync::atomic::AtomicBool,
    revoke: tokio::sync::Notify,
}

impl Default for Shared {
    fn default() -> Shared {
        Shared::new(false)
    }
}

impl Shared {
    fn new(remote: bool) -> Shared {
        Shared {
            pinned: Default::default(),
            active_ms: std::sync::atomic::AtomicI64::new(now_ms()),
            bytes: std::sync::atomic::AtomicU64::new(0),
            map: std::sync::atomic::AtomicUsize::new(0),
            map_bytes: std::sync::atomic::AtomicU64::new(0),
            remote,
            made: Instant::now(),
            revoked: Default::default(),
            revoke: tokio::sync::Notify::new(),
        }
    }

    pub fn revoked(&self) -> bool {
        self.revoked.load(std::sync::atomic::Ordering::SeqCst)
    }

    fn revoke(&self) {
        self.revoked.store(true, std::sync::atomic::Ordering::SeqCst);
        self.revoke.notify_one();
    }

    /// Resolves when the game is revoked.
    pub async fn revoked_now(&self) {
        self.revoke.notified().await;
    }
}

#[derive(Debug)]
enum Slot {
    Ready {
        handle: TableHandle,
        shared: Arc<Shared>,
    },
    /// Being loaded, or being unloaded: wait for the change.
    Busy(watch::Receiver<bool>),
}

/// Every table this server runs, started on demand.
#[derive(Debug)]
pub struct Hub {
    store: Store,
    limits: Limits,
    tables: Mutex<HashMap<i64, Slot>>,
    bots: BotPools,
    /// Tables still running; shutdown waits for them to finish their writes.
    running: Mutex<Vec<tokio::task::JoinHandle<()>>>,
    /// Set once at shutdown: every table stops after the command it is handling.
    stop: watch::Sender<bool>,
    /// One transient load at a time per core, for views of games not in memory.
    peeks: Semaphore,
    /// With several instances on one database: this one's part (leases, links).
    cluster: Option<Arc<Cluster>>,
    /// When the sweep last looked for abandoned games (a query over every live game: not at
    /// every sweep).
    abandon_scanned_ms: std::sync::atomic::AtomicI64,
}

/// Marks a busy slot done when dropped (also on error paths). A load's guard also frees its
/// slot if it is still busy then: a load cancelled mid-way (its request gone) once left a busy
/// slot whose waiters woke, found it busy again and spun for ever (issue 47). Never dropped
/// while the hub's map is locked.
struct Done {
    tx: watch::Sender<bool>,
    /// The hub and game whose slot this guards (loads only; unloads free their slot themselves).
    slot: Option<(std::sync::Weak<Hub>, i64)>,
}

impl Done {
    fn unload(tx: watch::Sender<bool>) -> Done {
        Done { tx, slot: None }
    }
}

impl Drop for Done {
    fn drop(&mut self) {
        if let Some((hub, id)) = &self.slot
            && let Some(hub) = hub.upgrade()
        {
            let mut tables = hub.lock();
            if matches!(tables.get(id), Some(Slot::Busy(rx)) if rx.same_channel(&self.tx.subscribe())) {
                tables.remove(id);
            }
        }
        let _ = self.tx.send(true);
    }
}

impl Hub {
    pub fn new(store: Store, limits: Limits, cluster: Option<Arc<Cluster>>) -> Hub {
        Hub {
            store,
            cluster,
            bots: BotPools {
                people: Arc::new(Semaphore::new(limits.bot_threads.max(1))),
                bots_only: Arc::new(Semaphore::new(limits.bot_only_threads.max(1))),
                unwatched_patience: limits.unload_after,
            },
            peeks: Semaphore::new(limits.view_work.max(1)),
            limits,
            tables: Mutex::new(HashMap::new()),
            running: Mutex::new(Vec::new()),
            stop: watch::channel(false).0,
            abandon_scanned_ms: std::sync::atomic::AtomicI64::new(0),
        }
    }

    /// The table of game `id`, loaded from the database if it is not running yet.
    /// (With several instances, a relay to the table of the instance that runs it.)
    pub async fn table(self: &Arc<Self>, id: i64) -> Result<TableHandle, ApiError> {
        self.table_within(id, true, false).await
    }

    /// The table of game `id` run by this instance (claiming it if nobody runs it), never a
    /// relay: what another instance's link asks for.
    pub async fn local_table(self: &Arc<Self>, id: i64) -> Result<TableHandle, ApiError> {
        self.table_within(id, true, true).await
    }

    /// Sends a command to this instance's own table of game `id`.
    pub async fn send_local(self: &Arc<Self>, id: i64, mut command: Command) -> Result<(), ApiError> {
        for _ in 0..5 {
            let table = self.local_table(id).await?;
            match table.commands.send(command).await {
                Ok(()) => return Ok(()),
                Err(SendError(c)) => command = c,
            }
            tokio::task::yield_now().await;
        }
        Err(ApiError::Unavailable("the game is being reloaded: try again".into()))
    }

    pub fn cluster(&self) -> Option<&Arc<Cluster>> {
        self.cluster.as_ref()
    }

    /// Sends a command to game `id`'s table and waits for the answer; a table that was being
    /// unloaded hands the command back and it goes to the reloaded table.
    pub async fn ask<T>(
        self: &Arc<Self>,
        id: i64,
        make: impl FnOnce(oneshot::Sender<T>) -> Command,
    ) -> Result<T, ApiError> {
        let (tx, rx) = oneshot::channel();
        self.send(id, make(tx)).await?;
        // Unanswered: the table stopped (it lost its lease) or its owner's link died, perhaps
        // after committing: only a look at the game can tell (a "try again" once made players
        // resend moves that were in the log).
        rx.await.map_err(|_| ApiError::Unknown(super::UNKNOWN.into()))
    }

    /// Sends a command to game `id`'s table (loading it if needed), resending it to the
    /// reloaded table when the one it reached was being unloaded.
    pub async fn send(self: &Arc<Self>, id: i64, mut command: Command) -> Result<(), ApiError> {
        for _ in 0..5 {
            let table = self.table(id).await?;
            match table.commands.send(command).await {
                Ok(()) => return Ok(()),
                Err(SendError(c)) => command = c,
            }
            tokio::task::yield_now().await;
        }
        Err(ApiError::Unavailable("the game is being reloaded: try again".into()))
    }

    /// Sends a command to game `id`'s table only if this instance holds it (its own or a
    /// relay to its owner): never loads it. A table being loaded is waited for: it may have
    /// read the database before the change this command tells of.
    pub async fn send_if_loaded(&self, id: i64, command: Command) {
        for _ in 0..5 {
            let slot = match self.lock().get(&id) {
                Some(Slot::Ready { handle, .. }) => Ok(handle.clone()),
                Some(Slot::Busy(wait)) => Err(wait.clone()),
                None => return,
            };
            match slot {
                Ok(handle) => {
                    let _ = handle.commands.send(command).await;
                    return;
                }
                Err(mut wait) => {
                    let _ = wait.wait_for(|d| *d).await;
                }
            }
        }
    }

    /// The lobby view of game `id`: from its table when loaded, else from a transient copy
    /// (loaded from the database and dropped, never kept).
    pub async fn info(self: &Arc<Self>, id: i64) -> Result<GameInfo, ApiError> {
        let loaded = matches!(self.lock().get(&id), Some(Slot::Ready { .. }));
        if loaded {
            return self.ask(id, |reply| Command::Info { reply }).await;
        }
        let _permit = self.peeks.acquire().await.map_err(|e| ApiError::Internal(e.to_string()))?;
        let table = Table::load(self.store.clone(), id, self.bots.clone(), Arc::default(), None).await?;
        Ok(table.info())
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<i64, Slot>> {
        self.tables.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Games relayed from other instances now.
    pub fn relayed(&self) -> usize {
        self.lock()
            .values()
            .filter(|slot| matches!(slot, Slot::Ready { shared, .. } if shared.remote))
            .count()
    }

    /// Bot searches running now: for games with people, for games of bots only.
    pub fn bot_searches(&self) -> [usize; 2] {
        [
            self.limits.bot_threads.max(1) - self.bots.people.available_permits(),
            self.limits.bot_only_threads.max(1) - self.bots.bots_only.available_permits(),
        ]
    }

    /// Games in memory now.
    pub fn loaded(&self) -> usize {
        self.lock().len()
    }

    /// How many sockets watch game `id` here now (players and spectators; 0 when the game is
    /// not in this instance's memory).
    pub fn watchers(&self, id: i64) -> usize {
        match self.lock().get(&id) {
            Some(Slot::Ready { handle, .. }) => handle.updates.receiver_count(),
            _ => 0,
        }
    }
}
