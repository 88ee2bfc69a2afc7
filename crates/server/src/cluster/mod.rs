//! Several instances on one PostgreSQL database. Each live game is run by exactly one instance,
//! its owner, through a lease in the database (owner, expiry, fencing epoch); any instance
//! serves any client, forwarding what concerns a game owned elsewhere to its owner over an
//! internal link and relaying the owner's broadcasts back ([`link`]). When an instance dies,
//! its leases expire and the others take its games over, replaying them from the log.
//!
//! Why instance-to-instance links and not LISTEN/NOTIFY: a broadcast is a full per-seat view
//! of the board, often past NOTIFY's 8000-byte payload, and requests need answers; a link is
//! one WebSocket per pair of instances, ordered, with the request/answer pairing built in.
//!
//! Safety rests on two things: a table runs only while this instance's last lease renewal is
//! younger than the lease's lifetime (measured on this machine's monotonic clock from when the
//! renewal was sent), and every write of the action log checks the epoch under the lease row's
//! lock — so a former owner that was frozen past its lease can neither serve a stale state
//! nor append.

pub mod link;
pub mod wire;

use std::{
    collections::HashMap,
    sync::{
        Arc, Mutex,
        atomic::{AtomicU64, Ordering},
    },
    time::{Duration, Instant},
};

use crate::{
    error::ApiError,
    store::{Fence, Holder, Store},
};

/// How an instance takes part in a cluster.
#[derive(Debug, Clone)]
pub struct ClusterConfig {
    /// This instance's id (unique among the instances on the database).
    pub instance: String,
    /// The base URL the other instances reach this one at (`http://10.0.0.5:8080`).
    pub advertise: String,
    /// How long a lease lasts without renewal: an instance that dies holds its games this long.
    pub lease_ttl: Duration,
}

/// Where a game is run.
#[derive(Debug)]
pub enum Place {
    /// Here: the lease is ours, with this fence.
    Mine(Fence),
    /// Elsewhere, by a live owner.
    Elsewhere(Holder),
}

/// This instance's part in the cluster.
#[derive(Debug)]
pub struct Cluster {
    pub id: Arc<str>,
    pub address: String,
    pub ttl: Duration,
    secret: String,
    store: Store,
    base: Instant,
    /// Milliseconds after `base` until which every lease this instance renewed is surely still
    /// its own.
    valid_until_ms: AtomicU64,
    /// Games whose leases this instance found under its id when it started (a predecessor of
    /// the same id died holding them): run at start-up like orphaned ones, not left held and
    /// unrun until a client asks (issue 47).
    inherited: Mutex<Vec<i64>>,
    links: Mutex<HashMap<String, Arc<link::Link>>>,
}

impl Cluster {
    /// Joins the cluster on `store`'s database: says where this instance is reached.
    pub async fn join(store: Store, config: &ClusterConfig) -> Result<Arc<Cluster>, ApiError> {
        if config.lease_ttl < Duration::from_millis(300) {
            return Err(ApiError::Config("the lease must last at least 0.3 s".into()));
        }
        let secret = store.cluster_secret().await?;
        let cluster = Arc::new(Cluster {
            id: config.instance.as_str().into(),
            address: config.advertise.trim_end_matches('/').to_string(),
            ttl: config.lease_ttl,
            secret,
            store,
            base: Instant::now(),
            valid_until_ms: AtomicU64::new(0),
            links: Mutex::new(HashMap::new()),
            inherited: Mutex::new(Vec::new()),
        });
        let held = cluster.renew().await?;
        if !held.is_empty() {
            tracing::info!(games = held.len(), "this instance's id already held games: running them");
        }
        *cluster.inherited.lock().unwrap_or_else(|e| e.into_inner()) = held;
        Ok(cluster)
    }

    /// The games this instance's id held when it started, once.
    pub fn take_inherited(&self) -> Vec<i64> {
        std::mem::take(&mut *self.inherited.lock().unwrap_or_else(|e| e.into_inner()))
    }

    pub fn ttl_ms(&self) -> i64 {
        self.ttl.as_millis() as i64
    }

    /// The leases renewed last are surely still ours (a margin of a tenth of their lifetime
    /// covers clock rate differences between this machine and the database's).
    pub fn lease_valid(&self) -> bool {
        (self.base.elapsed().as_millis() as u64) < self.valid_until_ms.load(Ordering::SeqCst)
    }

    /// Says this instance is alive and extends its leases; the games still its own.
    pub async fn renew(&self) -> Result<Vec<i64>, ApiError> {
        let sent = Instant::now();
        let mine = self.renew_unconfirmed().await?;
        self.confirm(sent);
        Ok(mine)
    }

    /// [`Cluster::renew`] without extending this instance's own idea of its leases: the
    /// caller first stops the tables of games no longer its own, then calls
    /// [`Cluster::confirm`] with the time the renewal was sent.
    pub async fn renew_unconfirmed(&self) -> Result<Vec<i64>, ApiError> {
        self.store.heartbeat(&self.id, &self.address).await?;
        self.store.renew_leases(&self.id, self.ttl_ms()).await
    }

    pub fn confirm(&self, sent: Instant) {
        let until = sent.duration_since(self.base) + self.ttl - self.ttl / 10;
        self.valid_until_ms.fetch_max(until.as_millis() as u64, Ordering::SeqCst);
    }

    pub fn fence(&self, epoch: i64) -> Fence {
        Fence { owner: self.id.clone(), epoch }
    }

    /// Claims game `id` if nobody else holds it, else says who does.
    pub async fn place(&self, id: i64) -> Result<Place, ApiError> {
        for _ in 0..3 {
            let sent = Instant::now();
            if let Some(epoch) = self.store.claim_lease(id, &self.id, self.ttl_ms()).await? {
                // A new claim is as fresh as a renewal.
                self.confirm(sent);
                return Ok(Place::Mine(self.fence(epoch)));
            }
            match self.store.lease_holder(id).await? {
                Some(h) if h.held && *h.owner != *self.id => return Ok(Place::Elsewhere(h)),
                // Expired meanwhile: claim again.
                _ => continue,
            }
        }
        Err(ApiError::Unavailable(format!("game {id} is changing servers: try again")))
    }

    /// The link to instance `owner` at `address`, opened if needed.
    pub async fn link(&self, owner: &str, address: &str) -> Result<Arc<link::Link>, ApiError> {
        {
            let mut links = self.links.lock().unwrap_or_else(|e| e.into_inner());
            match links.get(owner) {
                Some(l) if !l.is_closed() => return Ok(l.clone()),
                Some(_) => {
                    links.remove(owner);
                }
                None => {}
            }
        }
        let link = link::Link::connect(self, owner, address).await?;
        let mut links = self.links.lock().unwrap_or_else(|e| e.into_inner());
        // Two requests may have connected at once: keep one.
        let kept = links.entry(owner.to_string()).or_insert_with(|| link.clone());
        if kept.is_closed() {
            *kept = link.clone();
        }
        Ok(kept.clone())
    }

    /// Whether `token` is this cluster's secret.
    pub fn admits(&self, token: &str) -> bool {
        let (a, b) = (token.as_bytes(), self.secret.as_bytes());
        a.len() == b.len() && a.iter().zip(b).fold(0u8, |d, (x, y)| d | (x ^ y)) == 0
    }

    /// Gives up every lease at a clean shutdown, so that the others take over at once.
    pub async fn release_all(&self) {
        if let Err(e) = self.store.release_all_leases(&self.id).await {
            tracing::warn!(error = %e, "could not release the leases");
        }
        for (_, link) in self.links.lock().unwrap_or_else(|e| e.into_inner()).drain() {
            link.close();
        }
    }
}
