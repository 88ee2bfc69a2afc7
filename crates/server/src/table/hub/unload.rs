//! Games leave memory: the caps on games and bytes, the longest-idle table evicted for a new one,
//! idle tables unloaded, expired open games and abandoned live games ended by the sweep.

use super::*;

impl Hub {
    /// Whether one more game would pass the cap on games or on their bytes.
    pub(super) fn full(&self, tables: &HashMap<i64, Slot>) -> bool {
        tables.len() >= self.limits.loaded_games
            || self.bytes_in(tables) + super::size::loading_bytes() > self.limits.games_bytes
    }

    /// The estimated bytes of the games in memory: each table's own, each map once however
    /// many tables share it (its largest estimate: a Tribal Go table's counts the map's balls,
    /// built when it loaded), and what loads are counted as until they are done.
    pub(super) fn bytes_in(&self, tables: &HashMap<i64, Slot>) -> u64 {
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
    pub(super) fn evict_one(&self, tables: &mut HashMap<i64, Slot>) -> Option<watch::Receiver<bool>> {
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
    pub(super) fn unload(&self, tables: &mut HashMap<i64, Slot>, id: i64) -> Option<watch::Receiver<bool>> {
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
    pub(super) async fn end_abandoned_games(self: &Arc<Self>, now: i64) {
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
}

/// A table nobody watches, not pinned, idle for `idle_ms`.
fn unloadable(handle: &TableHandle, shared: &Shared, now: i64, idle_ms: i64) -> bool {
    use std::sync::atomic::Ordering;
    !shared.pinned.load(Ordering::Relaxed)
        && handle.updates.receiver_count() == 0
        && now - shared.active_ms.load(Ordering::Relaxed) >= idle_ms
}
