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

    async fn table_within(
        self: &Arc<Self>,
        id: i64,
        capped: bool,
        local: bool,
    ) -> Result<TableHandle, ApiError> {
        loop {
            if *self.stop.borrow() {
                return Err(ApiError::Unavailable("the server is shutting down".into()));
            }
            let done = {
                let mut tables = self.lock();
                match tables.get(&id) {
                    Some(Slot::Ready { shared, .. }) if local && shared.remote => {
                        return Err(ApiError::Fenced(format!("game {id} is not run here")));
                    }
                    Some(Slot::Ready { handle, .. }) => return Ok(handle.clone()),
                    Some(Slot::Busy(wait)) => Err(wait.clone()),
                    None => {
                        if capped && self.full(&tables) {
                            match self.evict_one(&mut tables) {
                                Some(wait) => Err(wait),
                                None => return Err(ApiError::Unavailable(FULL.into())),
                            }
                        } else {
                            let (tx, rx) = watch::channel(false);
                            tables.insert(id, Slot::Busy(rx));
                            Ok(Done { tx, slot: Some((Arc::downgrade(self), id)) })
                        }
                    }
                }
            };
            match done {
                Err(mut wait) => {
                    let _ = wait.wait_for(|d| *d).await;
                }
                Ok(done) => return self.start(id, done, capped, local).await,
            }
        }
    }

    /// Loads and starts game `id`, whose slot this caller marked busy; with several instances,
    /// claims it first, or relays to the instance that runs it (unless `local`).
    async fn start(
        self: &Arc<Self>,
        id: i64,
        done: Done,
        capped: bool,
        local: bool,
    ) -> Result<TableHandle, ApiError> {
        let fence = match &self.cluster {
            None => None,
            Some(cluster) => match cluster.place(id).await {
                Ok(Place::Mine(fence)) => Some(fence),
                Ok(Place::Elsewhere(holder)) if !local => {
                    return self.start_relay(id, done, cluster, holder).await;
                }
                Ok(Place::Elsewhere(holder)) => {
                    self.lock().remove(&id);
                    return Err(ApiError::Fenced(format!("game {id} is run by {}", holder.owner)));
                }
                Err(e) => {
                    self.lock().remove(&id);
                    return Err(e);
                }
            },
        };
        let shared = Arc::new(Shared::new(false));
        let owner = fence.clone().zip(self.cluster.clone());
        let table = match Table::load(self.store.clone(), id, self.bots.clone(), shared.clone(), owner).await
        {
            Ok(t) => t,
            Err(e) => {
                self.lock().remove(&id);
                return Err(e);
            }
        };
        let (tx, rx) = mpsc::channel(64);
        let handle = TableHandle { commands: tx.clone(), updates: table.updates.clone() };
        {
            let mut tables = self.lock();
            // Measured now, with its map: a game bigger than it was counted while loading that
            // does not fit is not kept.
            let own = shared.bytes.load(std::sync::atomic::Ordering::Relaxed)
                + shared.map_bytes.load(std::sync::atomic::Ordering::Relaxed);
            let total = self.bytes_in(&tables).saturating_sub(super::size::loading_bytes()) + own;
            if capped && total > self.limits.games_bytes {
                tables.remove(&id);
                return Err(ApiError::Unavailable(FULL.into()));
            }
            tables.insert(id, Slot::Ready { handle: handle.clone(), shared });
        }
        drop(done);
        let hub = Arc::downgrade(self);
        let stop = self.stop.subscribe();
        let task = tokio::spawn(
            async move {
                let (mut table, mut rx, mut tx) = (table, rx, tx);
                loop {
                    let unloaded = table.run(rx, tx, stop.clone()).await;
                    let Some(hub) = hub.upgrade() else { break };
                    if unloaded.is_some() && table.pinned() {
                        // A command queued behind the unload started a clock or a bot: the table
                        // stays, with a new queue (the old one is closed).
                        (tx, rx) = mpsc::channel(64);
                        let handle = TableHandle { commands: tx.clone(), updates: table.updates.clone() };
                        hub.lock().insert(id, Slot::Ready { handle, shared: table.shared.clone() });
                        drop(unloaded.map(Done::unload));
                        continue;
                    }
                    // The slot is freed before the waiters are told.
                    hub.lock().remove(&id);
                    drop(unloaded.map(Done::unload));
                    break;
                }
            }
            // Every log line of the game's table carries its id (docs/deploy.md, "Logs").
            .instrument(tracing::info_span!("game", id)),
        );
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

    /// Starts a relay of game `id`, run by `holder`: commands go over the link to it, its
    /// broadcasts come back to this instance's watchers. The relay stops when the owner
    /// drops the game or the link dies; the next request finds the owner again.
    async fn start_relay(
        self: &Arc<Self>,
        id: i64,
        done: Done,
        cluster: &Arc<Cluster>,
        holder: Holder,
    ) -> Result<TableHandle, ApiError> {
        let linked = match holder.address.as_deref() {
            Some(address) => cluster.link(&holder.owner, address).await,
            None => Err(ApiError::Unavailable(format!("the server running game {id} gave no address"))),
        };
        let (updates, _) = broadcast::channel(BROADCAST_BUFFER);
        let relayed = linked.and_then(|link| Ok((link.watch(id, updates.clone())?, link)));
        let (gone, link) = match relayed {
            Ok(r) => r,
            Err(e) => {
                self.lock().remove(&id);
                return Err(e);
            }
        };
        let (tx, mut rx) = mpsc::channel(64);
        let handle = TableHandle { commands: tx, updates };
        let shared = Arc::new(Shared::new(true));
        self.lock().insert(id, Slot::Ready { handle: handle.clone(), shared: shared.clone() });
        drop(done);
        let hub = Arc::downgrade(self);
        let timeout = cluster.ttl;
        let commands = handle.commands.clone();
        tokio::spawn(async move {
            let mut gone = gone;
            let unloaded = loop {
                tokio::select! {
                    command = rx.recv() => match command {
                        Some(Command::Unload { done }) => {
                            rx.close();
                            while let Some(c) = rx.recv().await {
                                link.forward(id, c, timeout);
                            }
                            link.unwatch(id);
                            break Some(done);
                        }
                        Some(c) => {
                            shared.active_ms.store(now_ms(), std::sync::atomic::Ordering::Relaxed);
                            link.forward(id, c, timeout);
                        }
                        None => break None,
                    },
                    _ = &mut gone => break None,
                }
            };
            if let Some(hub) = hub.upgrade() {
                let mut tables = hub.lock();
                if matches!(tables.get(&id), Some(Slot::Ready { handle, .. }) if handle.commands.same_channel(&commands))
                {
                    tables.remove(&id);
                }
            }
            drop(unloaded.map(Done::unload));
        });
        Ok(handle)
    }

    /// Whether one more game would pass the cap on games or on their bytes.
    fn full(&self, tables: &HashMap<i64, Slot>) -> bool {
        tables.len() >= self.limits.loaded_games
            || self.bytes_in(tables) + super::size::loading_bytes() > self.limits.games_bytes
    }

    /// The estimated bytes of the games in memory: each table's own, each map once however
    /// many tables share it (its largest estimate: a Tribal Go table's counts the map's balls,
    /// built when it loaded), and what loads are counted as until they are done.
    fn bytes_in(&self, tables: &HashMap<i64, Slot>) -> u64 {
        use std::sync::atomic::Ordering;
        let mut maps: HashMap<usize, u64> = HashMap::new();
        let own: u64 = tables
            .values()
            .map(|slot| match slot {
                Slot::Ready { shared, .. } => {
                    let map = maps.entry(shared.map.load(Ordering::Relaxed)).or_default();
                    *map = (*map).max(shared.map_bytes.load(Ordering::Relaxed));
                    shared.bytes.load(Ordering::Relaxed)
                }
                Slot::Busy(_) => super::size::loading_bytes(),
            })
            .sum();
        own + maps.values().sum::<u64>()
    }

    /// The estimated bytes of the games in memory now.
    pub fn bytes(&self) -> u64 {
        self.bytes_in(&self.lock())
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
        self.end_abandoned_games(now).await;
    }

    /// Ends live games nobody has played in for [`Limits::abandon_after`] (see `abandon.rs`),
    /// looking at most every eighth of that period (and every ten minutes at most).
    async fn end_abandoned_games(self: &Arc<Self>, now: i64) {
        use std::sync::atomic::Ordering;
        let after_ms = self.limits.abandon_after.as_millis() as i64;
        let every_ms = (after_ms / 8).min(600_000);
        if now - self.abandon_scanned_ms.load(Ordering::Relaxed) < every_ms {
            return;
        }
        self.abandon_scanned_ms.store(now, Ordering::Relaxed);
        match self.store.idle_live_games(now - after_ms, 100).await {
            Ok(games) => {
                for (id, seq) in games {
                    let ended =
                        self.ask(id, |reply| Command::Abandon { seq: Some(seq), user: None, reply }).await;
                    match ended {
                        Ok(Ok(true)) => tracing::info!(game = id, "ended as abandoned"),
                        Ok(Ok(false)) => {}
                        Ok(Err(e)) | Err(e) => {
                            tracing::warn!(game = id, error = %e, "could not end an abandoned game")
                        }
                    }
                }
            }
            Err(e) => tracing::warn!(error = %e, "could not list abandoned games"),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<i64, Slot>> {
        self.tables.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Starts every live game (after a restart), so clocks and bots resume. Live games are
    /// never refused for the cap: they were accepted before.
    pub async fn resume_all(self: &Arc<Self>) -> Result<usize, ApiError> {
        let ids = match &self.cluster {
            None => self.store.live_game_ids().await?,
            // Those nobody runs, and those this instance's id held before a restart: the others
            // stay with their owners.
            Some(cluster) => {
                let mut ids = self.store.orphaned_live_games(i64::MAX).await?;
                ids.extend(cluster.take_inherited());
                ids.sort_unstable();
                ids.dedup();
                ids
            }
        };
        let mut resumed = 0;
        for &id in &ids {
            match self.table_within(id, false, true).await {
                Ok(_) => resumed += 1,
                // Another instance claimed it first.
                Err(ApiError::Fenced(_)) => {}
                Err(e) => return Err(e),
            }
        }
        Ok(resumed)
    }

    /// Renews this instance's leases every third of their lifetime, stops the tables whose
    /// game another instance took, and takes over live games nobody runs (their owner died).
    pub async fn keep_leases_forever(self: Arc<Self>) {
        let Some(cluster) = self.cluster.clone() else { return };
        loop {
            tokio::time::sleep(cluster.ttl / 3).await;
            if *self.stop.borrow() {
                return;
            }
            let sent = Instant::now();
            let mine = match cluster.renew_unconfirmed().await {
                Ok(m) => m.into_iter().collect::<HashSet<i64>>(),
                Err(e) => {
                    tracing::warn!(error = %e, "could not renew the leases");
                    continue;
                }
            };
            for (id, slot) in self.lock().iter() {
                if let Slot::Ready { shared, .. } = slot
                    && !shared.remote
                    && shared.made < sent
                    && !mine.contains(id)
                {
                    tracing::warn!(game = id, "another server took this game over");
                    shared.revoke();
                }
            }
            cluster.confirm(sent);
            match self.store.orphaned_live_games(8).await {
                Ok(ids) => {
                    for id in ids {
                        match self.table_within(id, false, true).await {
                            Ok(_) => {
                                crate::metrics::metrics().takeovers.inc();
                                tracing::info!(game = id, "took over a game nobody ran");
                            }
                            Err(ApiError::Fenced(_)) => {}
                            Err(e) => tracing::warn!(game = id, error = %e, "could not take a game over"),
                        }
                    }
                }
                Err(e) => tracing::warn!(error = %e, "could not look for games nobody runs"),
            }
        }
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
        if let Some(cluster) = &self.cluster {
            cluster.release_all().await;
        }
    }

    /// The games this instance runs now and can still write (not those it relays): none while
    /// its leases are not surely renewed (a woken instance once listed games already taken).
    pub fn owned(&self) -> Vec<i64> {
        if self.cluster.as_ref().is_some_and(|c| !c.lease_valid()) {
            return Vec::new();
        }
        let mut ids: Vec<i64> = self
            .lock()
            .iter()
            .filter(
                |(_, slot)| matches!(slot, Slot::Ready { shared, .. } if !shared.remote && !shared.revoked()),
            )
            .map(|(&id, _)| id)
            .collect();
        ids.sort_unstable();
        ids
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

/// A table nobody watches, not pinned, idle for `idle_ms`.
fn unloadable(handle: &TableHandle, shared: &Shared, now: i64, idle_ms: i64) -> bool {
    use std::sync::atomic::Ordering;
    !shared.pinned.load(Ordering::Relaxed)
        && handle.updates.receiver_count() == 0
        && now - shared.active_ms.load(Ordering::Relaxed) >= idle_ms
}
