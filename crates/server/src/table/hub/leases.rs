//! The games this instance runs: resumed after a restart, their leases renewed (and taken over
//! from an instance that died), all stopped at shutdown.

use super::*;

impl Hub {
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
}
