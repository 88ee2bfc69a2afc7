//! Every table of this server: found, loaded from the database and started on demand.

use super::*;

/// Every table this server runs, started on demand.
#[derive(Debug)]
pub struct Hub {
    store: Store,
    tables: Mutex<HashMap<i64, TableHandle>>,
    bots: Arc<Semaphore>,
    /// Tables still running; shutdown waits for them to finish their writes.
    running: Mutex<Vec<tokio::task::JoinHandle<()>>>,
    /// Set once at shutdown: every table stops after the command it is handling.
    stop: tokio::sync::watch::Sender<bool>,
}

impl Hub {
    pub fn new(store: Store, bot_threads: usize) -> Hub {
        Hub {
            store,
            tables: Mutex::new(HashMap::new()),
            bots: Arc::new(Semaphore::new(bot_threads.max(1))),
            running: Mutex::new(Vec::new()),
            stop: tokio::sync::watch::channel(false).0,
        }
    }

    /// The table of game `id`, loaded from the database if it is not running yet.
    pub async fn table(self: &Arc<Self>, id: i64) -> Result<TableHandle, ApiError> {
        if *self.stop.borrow() {
            return Err(ApiError::Internal("the server is shutting down".into()));
        }
        if let Some(h) = self.lock().get(&id) {
            return Ok(h.clone());
        }
        let table = Table::load(self.store.clone(), id, self.bots.clone()).await?;
        // Another request may have loaded it meanwhile: keep the first.
        let mut tables = self.lock();
        if let Some(h) = tables.get(&id) {
            return Ok(h.clone());
        }
        let (tx, rx) = mpsc::channel(64);
        let handle = TableHandle { commands: tx.clone(), updates: table.updates.clone() };
        tables.insert(id, handle.clone());
        drop(tables);
        let task = tokio::spawn(table.run(rx, tx, self.stop.subscribe()));
        let mut running = self.running.lock().unwrap_or_else(|e| e.into_inner());
        running.retain(|t| !t.is_finished());
        running.push(task);
        Ok(handle)
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<i64, TableHandle>> {
        self.tables.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Starts every live game (after a restart), so clocks and bots resume.
    pub async fn resume_all(self: &Arc<Self>) -> Result<usize, ApiError> {
        let ids = self.store.live_game_ids().await?;
        for &id in &ids {
            self.table(id).await?;
        }
        Ok(ids.len())
    }

    /// Stops every table; each finishes the write it is doing first (10 s at most in all).
    pub async fn shutdown(&self) {
        let _ = self.stop.send(true);
        self.lock().clear();
        let tasks: Vec<_> = self.running.lock().unwrap_or_else(|e| e.into_inner()).drain(..).collect();
        let _ = tokio::time::timeout(Duration::from_secs(10), futures_util::future::join_all(tasks)).await;
    }

    pub fn loaded(&self) -> usize {
        self.lock().len()
    }
}
