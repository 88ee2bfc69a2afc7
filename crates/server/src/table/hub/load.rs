//! A game's table comes into memory: its slot claimed, the game read and started (with several
//! instances: its lease claimed first, or a relay to the instance that runs it).

use super::*;

impl Hub {
    /// The table of game `id`, waiting while its slot is busy; a new load claims the slot
    /// (`capped`: evicting the longest-idle table when memory is full; `local`: never a relay).
    pub(super) async fn table_within(
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
    pub(super) async fn start(
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

    /// Starts a relay of game `id`, run by `holder`: commands go over the link to it, its
    /// broadcasts come back to this instance's watchers. The relay stops when the owner
    /// drops the game or the link dies; the next request finds the owner again.
    pub(super) async fn start_relay(
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
}
