//! Every table of this server: found, loaded from the database and started on demand, unloaded
//! when idle, and never more than [`Limits::loaded_games`] at once (every game ever read once
//! stayed in memory: 3.7 GiB after a loop over `GET /api/games/1..3419`).
//!
//! A table leaves memory in three steps, so that no two copies of one game ever write: the slot
//! is marked unloading (new requests wait), the table closes its queue and finishes what was
//! already in it, then the slot is freed. A request that still held the old handle and finds
//! its queue closed gets its command back and sends it to the new copy ([`Hub::ask`]).

use tokio::sync::{mpsc::error::SendError, watch};

use super::*;
use crate::limit::Limits;

/// Bot searches of games with people and of games of bots only run on separate budgets: 20
/// bot-only games once starved a person's level-1 bot to 40 s per move.
#[derive(Debug, Clone)]
pub struct BotPools {
    pub people: Arc<Semaphore>,
    pub bots_only: Arc<Semaphore>,
}

/// What the hub knows of a running table without asking it.
#[derive(Debug, Default)]
pub struct Shared {
    /// Live games keep their clocks and bots running: never unloaded.
    pub live: std::sync::atomic::AtomicBool,
    /// When the table last handled a command (ms since the epoch).
    pub active_ms: std::sync::atomic::AtomicI64,
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
}

/// Marks a busy slot done when dropped (also on error paths).
struct Done(watch::Sender<bool>);

impl Drop for Done {
    fn drop(&mut self) {
        let _ = self.0.send(true);
    }
}

impl Hub {
    pub fn new(store: Store, limits: Limits) -> Hub {
        Hub {
            store,
            bots: BotPools {
                people: Arc::new(Semaphore::new(limits.bot_threads.max(1))),
                bots_only: Arc::new(Semaphore::new(limits.bot_only_threads.max(1))),
            },
            peeks: Semaphore::new(limits.view_work.max(1)),
            limits,
            tables: Mutex::new(HashMap::new()),
            running: Mutex::new(Vec::new()),
            stop: watch::channel(false).0,
        }
    }

    /// The table of game `id`, loaded from the database if it is not running yet.
    pub async fn table(self: &Arc<Self>, id: i64) -> Result<TableHandle, ApiError> {
        self.table_within(id, true).await
    }

    async fn table_within(self: &Arc<Self>, id: i64, capped: bool) -> Result<TableHandle, ApiError> {
        loop {
            if *self.stop.borrow() {
                return Err(ApiError::Internal("the server is shutting down".into()));
            }
            let done = {
                let mut tables = self.lock();
                match tables.get(&id) {
                    Some(Slot::Ready { handle, .. }) => return Ok(handle.clone()),
                    Some(Slot::Busy(wait)) => Err(wait.clone()),
                    None => {
                        if capped && tables.len() >= self.limits.loaded_games {
                            match self.evict_one(&mut tables) {
                                Some(wait) => Err(wait),
                                None => {
                                    return Err(ApiError::Unavailable(
                                        "the server has as many games in play as it can hold: try again later"
                                            .into(),
                                    ));
                                }
                            }
                        } else {
                            let (tx, rx) = watch::channel(false);
                            tables.insert(id, Slot::Busy(rx));
                            Ok(Done(tx))
                        }
                    }
                }
            };
            match done {
                Err(mut wait) => {
                    let _ = wait.wait_for(|d| *d).await;
                }
                Ok(done) => return self.start(id, done).await,
            }
        }
    }

    /// Loads and starts game `id`, whose slot this caller marked busy.
    async fn start(self: &Arc<Self>, id: i64, done: Done) -> Result<TableHandle, ApiError> {
        let shared = Arc::new(Shared::default());
        let table = match Table::load(self.store.clone(), id, self.bots.clone(), shared.clone()).await {
            Ok(t) => t,
            Err(e) => {
                self.lock().remove(&id);
                return Err(e);
            }
        };
        let (tx, rx) = mpsc::channel(64);
        let handle = TableHandle { commands: tx.clone(), updates: table.updates.clone() };
        self.lock().insert(id, Slot::Ready { handle: handle.clone(), shared });
        drop(done);
        let hub = Arc::downgrade(self);
        let stop = self.stop.subscribe();
        let task = tokio::spawn(async move {
            let (mut table, mut rx, mut tx) = (table, rx, tx);
            loop {
                let unloaded = table.run(rx, tx, stop.clone()).await;
                let Some(hub) = hub.upgrade() else { break };
                if unloaded.is_some() && table.status == Status::Live {
                    // A join queued behind the unload started the game: it stays, with a new
                    // queue (the old one is closed).
                    (tx, rx) = mpsc::channel(64);
                    let handle = TableHandle { commands: tx.clone(), updates: table.updates.clone() };
                    hub.lock().insert(id, Slot::Ready { handle, shared: table.shared.clone() });
                    drop(unloaded.map(Done));
                    continue;
                }
                // The slot is freed before the waiters are told.
                hub.lock().remove(&id);
                drop(unloaded.map(Done));
                break;
            }
        });
        let mut running = self.running.lock().unwrap_or_else(|e| e.into_inner());
        running.retain(|t| !t.is_finished());
        running.push(task);
        Ok(handle)
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
        rx.await.map_err(|_| ApiError::Internal("the game stopped answering".into()))
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

    /// The lobby view of game `id`: from its table when loaded, else from a transient copy
    /// (loaded from the database and dropped, never kept).
    pub async fn info(self: &Arc<Self>, id: i64) -> Result<GameInfo, ApiError> {
        let loaded = matches!(self.lock().get(&id), Some(Slot::Ready { .. }));
        if loaded {
            return self.ask(id, |reply| Command::Info { reply }).await;
        }
        let _permit = self.peeks.acquire().await.map_err(|e| ApiError::Internal(e.to_string()))?;
        let table = Table::load(self.store.clone(), id, self.bots.clone(), Arc::default()).await?;
        Ok(table.info())
    }

    /// Marks the longest-idle unloadable table as unloading; its slot frees when it stops.
    fn evict_one(&self, tables: &mut HashMap<i64, Slot>) -> Option<watch::Receiver<bool>> {
        let now = now_ms();
        let (&id, _) = tables
            .iter()
            .filter(|(_, slot)| matches!(slot, Slot::Ready { handle, shared } if unloadable(handle, shared, now, 0)))
            .min_by_key(|(_, slot)| match slot {
                Slot::Ready { shared, .. } => shared.active_ms.load(std::sync::atomic::Ordering::Relaxed),
                Slot::Busy(_) => i64::MAX,
            })?;
        self.unload(tables, id)
    }

    /// Asks table `id` to stop; `None` when it could not be asked (its queue is full).
    fn unload(&self, tables: &mut HashMap<i64, Slot>, id: i64) -> Option<watch::Receiver<bool>> {
        let Some(Slot::Ready { handle, .. }) = tables.get(&id) else { return None };
        let (tx, rx) = watch::channel(false);
        handle.commands.try_send(Command::Unload { done: tx }).ok()?;
        tables.insert(id, Slot::Busy(rx.clone()));
        Some(rx)
    }

    /// Unloads idle tables and removes expired open games, every few seconds, for ever.
    pub async fn sweep_forever(self: Arc<Self>) {
        let every = (self.limits.unload_after / 4).clamp(Duration::from_millis(100), Duration::from_secs(30));
        loop {
            tokio::time::sleep(every).await;
            self.sweep().await;
        }
    }

    pub async fn sweep(self: &Arc<Self>) {
        let now = now_ms();
        let idle_ms = self.limits.unload_after.as_millis() as i64;
        {
            let mut tables = self.lock();
            let idle: Vec<i64> = tables
                .iter()
                .filter(|(_, slot)| matches!(slot, Slot::Ready { handle, shared } if unloadable(handle, shared, now, idle_ms)))
                .map(|(&id, _)| id)
                .collect();
            for id in idle {
                self.unload(&mut tables, id);
            }
        }
        let cutoff = now - self.limits.open_game_expiry.as_millis() as i64;
        match self.store.stale_open_games(cutoff, 100).await {
            Ok(ids) => {
                for id in ids {
                    let expired = self.ask(id, |reply| Command::Expire { before_ms: cutoff, reply }).await;
                    if let Err(e) = expired {
                        tracing::warn!(game = id, error = %e, "could not expire an open game");
                    }
                }
            }
            Err(e) => tracing::warn!(error = %e, "could not list stale open games"),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<i64, Slot>> {
        self.tables.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Starts every live game (after a restart), so clocks and bots resume. Live games are
    /// never refused for the cap: they were accepted before.
    pub async fn resume_all(self: &Arc<Self>) -> Result<usize, ApiError> {
        let ids = self.store.live_game_ids().await?;
        for &id in &ids {
            self.table_within(id, false).await?;
        }
        Ok(ids.len())
    }

    /// Stops every table; each finishes the write it is doing first (10 s at most in all).
    pub async fn shutdown(&self) {
        let _ = self.stop.send(true);
        let tables: Vec<TableHandle> = self
            .lock()
            .drain()
            .filter_map(|(_, slot)| match slot {
                Slot::Ready { handle, .. } => Some(handle),
                Slot::Busy(_) => None,
            })
            .collect();
        drop(tables);
        let tasks: Vec<_> = self.running.lock().unwrap_or_else(|e| e.into_inner()).drain(..).collect();
        let _ = tokio::time::timeout(Duration::from_secs(10), futures_util::future::join_all(tasks)).await;
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
}

/// A table nobody watches, not live, idle for `idle_ms`.
fn unloadable(handle: &TableHandle, shared: &Shared, now: i64, idle_ms: i64) -> bool {
    use std::sync::atomic::Ordering;
    !shared.live.load(Ordering::Relaxed)
        && handle.updates.receiver_count() == 0
        && now - shared.active_ms.load(Ordering::Relaxed) >= idle_ms
}
