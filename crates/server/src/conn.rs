//! Connections: the accept loop and its limits. axum's own `serve` sets no read timeout and
//! takes every connection, so 1,030 connections that never finished a request once made
//! `/api/health` time out. Here every connection is admitted against a total and a per-address
//! count; its first byte must come within the header deadline counted from accept (hyper's own
//! deadline starts only with the first byte: 20 addresses × 64 silent connections once blocked
//! `/api/health` for 40 s), and HTTP/1 requests must send their headers within it (which also
//! closes idle keep-alive connections). When the server is full, the connection idle longest
//! makes room, so a health check always gets in.

use std::{
    collections::HashMap,
    convert::Infallible,
    net::{IpAddr, SocketAddr},
    sync::{
        Arc, Mutex,
        atomic::{AtomicI64, AtomicU64, AtomicUsize, Ordering},
    },
};

use axum::{Router, extract::ConnectInfo};
use hyper::body::Incoming;
use hyper_util::{
    rt::{TokioExecutor, TokioIo, TokioTimer},
    server::{conn::auto::Builder, graceful::GracefulShutdown},
};
use tokio::net::TcpListener;
use tower::ServiceExt;

use crate::{limit::Limits, store::now_ms};

/// Open connections, in all and per client address (a guard per connection gives its place back).
#[derive(Debug)]
pub struct Admission {
    total: usize,
    per_address: usize,
    /// Addresses whose connections are not counted one by one (a trusted reverse proxy carries
    /// everybody's).
    exempt: Vec<IpAddr>,
    open: Mutex<Open>,
    next_id: AtomicU64,
}

#[derive(Debug, Default)]
struct Open {
    total: usize,
    by_address: HashMap<IpAddr, usize>,
    /// Every open connection's activity, to find the one idle longest when the server is full.
    activity: HashMap<u64, Arc<Activity>>,
}

/// What one connection is doing, seen from the admission.
#[derive(Debug)]
pub struct Activity {
    /// Requests being answered now.
    busy: AtomicUsize,
    /// When it last began or finished a request (ms since the epoch).
    since_ms: AtomicI64,
    /// Told when the connection must make room for another.
    pub evicted: tokio::sync::Notify,
}

impl Activity {
    /// A request begins; the guard marks its end.
    pub fn begin(self: &Arc<Self>) -> Busy {
        self.busy.fetch_add(1, Ordering::SeqCst);
        self.since_ms.store(now_ms(), Ordering::SeqCst);
        Busy(self.clone())
    }
}

/// A request in progress on a connection.
#[derive(Debug)]
pub struct Busy(Arc<Activity>);

impl Drop for Busy {
    fn drop(&mut self) {
        self.0.since_ms.store(now_ms(), Ordering::SeqCst);
        self.0.busy.fetch_sub(1, Ordering::SeqCst);
    }
}

/// A connection's place; dropped when the connection ends.
#[derive(Debug)]
pub struct Admitted {
    admission: Arc<Admission>,
    ip: IpAddr,
    id: u64,
    pub activity: Arc<Activity>,
}

impl Admission {
    pub fn new(total: usize, per_address: usize, exempt: Vec<IpAddr>) -> Arc<Admission> {
        Arc::new(Admission { total, per_address, exempt, open: Mutex::default(), next_id: AtomicU64::new(0) })
    }

    /// A place for a connection from `ip`, or `None` when that address is full, or the server
    /// is and no connection is idle. Counted under one lock: simultaneous connections cannot
    /// pass the limit together.
    pub fn admit(self: &Arc<Self>, ip: IpAddr) -> Option<Admitted> {
        let mut open = self.open.lock().unwrap_or_else(|e| e.into_inner());
        let exempt = self.exempt.contains(&ip);
        let mine = open.by_address.get(&ip).copied().unwrap_or(0);
        if !exempt && mine >= self.per_address {
            return None;
        }
        if open.total >= self.total {
            // The longest-idle connection closes at once and gives its place to this one.
            let (&id, _) = open
                .activity
                .iter()
                .filter(|(_, a)| a.busy.load(Ordering::SeqCst) == 0)
                .min_by_key(|(_, a)| a.since_ms.load(Ordering::SeqCst))?;
            if let Some(idle) = open.activity.remove(&id) {
                idle.evicted.notify_one();
            }
        }
        open.total += 1;
        *open.by_address.entry(ip).or_insert(0) += 1;
        let id = self.next_id.fetch_add(1, Ordering::Relaxed);
        let activity = Arc::new(Activity {
            busy: AtomicUsize::new(0),
            since_ms: AtomicI64::new(now_ms()),
            evicted: tokio::sync::Notify::new(),
        });
        open.activity.insert(id, activity.clone());
        Some(Admitted { admission: self.clone(), ip, id, activity })
    }

    /// Connections open now (from `ip` when given).
    pub fn open(&self, ip: Option<IpAddr>) -> usize {
        let open = self.open.lock().unwrap_or_else(|e| e.into_inner());
        match ip {
            Some(ip) => open.by_address.get(&ip).copied().unwrap_or(0),
            None => open.total,
        }
    }
}

impl Drop for Admitted {
    fn drop(&mut self) {
        let mut open = self.admission.open.lock().unwrap_or_else(|e| e.into_inner());
        open.total = open.total.saturating_sub(1);
        open.activity.remove(&self.id);
        if let Some(n) = open.by_address.get_mut(&self.ip) {
            *n -= 1;
            if *n == 0 {
                open.by_address.remove(&self.ip);
            }
        }
    }
}

/// Open files kept for the database, logs, reports and the listener, besides connections.
pub const FILES_RESERVED: u64 = 256;

/// Raises this process's open-file limit to its hard limit and returns it (`None` where it
/// cannot be read): the connection caps are sized to fit under it.
pub fn raise_file_limit() -> Option<u64> {
    #[cfg(unix)]
    {
        let raised = rlimit::increase_nofile_limit(u64::MAX).ok();
        raised.or_else(|| rlimit::getrlimit(rlimit::Resource::NOFILE).ok().map(|(soft, _)| soft))
    }
    #[cfg(not(unix))]
    {
        None
    }
}

/// `limits` with connections and sockets fitted under `files` open files, keeping `reserve`
/// for the database, the log and what else the process opens; the two share what is left in
/// proportion to what was asked.
pub fn fit_to_files(limits: &mut Limits, files: u64, reserve: u64) {
    let room = files.saturating_sub(reserve) as usize;
    let asked = limits.connections + limits.sockets;
    if asked <= room || asked == 0 {
        return;
    }
    let connections = (limits.connections * room / asked).max(1);
    tracing::warn!(
        files,
        connections,
        sockets = room.saturating_sub(connections).max(1),
        "the open-file limit is low: connection caps lowered to fit under it"
    );
    limits.connections = connections;
    limits.sockets = room.saturating_sub(connections).max(1);
}

/// Accepts connections until `shutdown` resolves, then waits (10 s at most) for the requests
/// in progress. Upgraded connections (game sockets) are closed by their own tasks.
pub async fn accept_loop(
    listener: TcpListener,
    router: Router,
    limits: Limits,
    admission: Arc<Admission>,
    shutdown: impl std::future::Future<Output = ()> + Send,
) {
    let mut builder = Builder::new(TokioExecutor::new()).http1_only();
    builder
        .http1()
        .timer(TokioTimer::new())
        .header_read_timeout(limits.header_timeout)
        .max_buf_size(limits.max_header_bytes.max(8192));
    let graceful = GracefulShutdown::new();
    let mut shutdown = std::pin::pin!(shutdown);
    loop {
        let (stream, addr) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(a) => a,
                Err(e) => {
                    // Out of file descriptors and the like: wait rather than spin.
                    tracing::warn!(error = %e, "accept failed");
                    tokio::time::sleep(std::time::Duration::from_millis(50)).await;
                    continue;
                }
            },
            () = &mut shutdown => break,
        };
        let Some(place) = admission.admit(addr.ip()) else {
            tracing::debug!(%addr, "connection refused: too many open");
            drop(stream);
            continue;
        };
        let _ = stream.set_nodelay(true);
        let router = router.clone();
        let activity = place.activity.clone();
        let service = hyper::service::service_fn(move |mut request: hyper::Request<Incoming>| {
            request.extensions_mut().insert(ConnectInfo::<SocketAddr>(addr));
            let router = router.clone();
            let busy = activity.begin();
            async move {
                let response = router.oneshot(request.map(axum::body::Body::new)).await.unwrap_infallible();
                drop(busy);
                Ok::<_, Infallible>(response)
            }
        });
        let first_byte = limits.header_timeout;
        let builder = builder.clone();
        let watcher = graceful.watcher();
        tokio::spawn(async move {
            let place = place;
            // hyper waits for the first byte without a deadline (its own starts with the
            // request line): here the header deadline counts from accept.
            let mut peek = [0u8; 1];
            tokio::select! {
                first = tokio::time::timeout(first_byte, stream.peek(&mut peek)) => match first {
                    Ok(Ok(n)) if n > 0 => {}
                    _ => return,
                },
                () = place.activity.evicted.notified() => return,
            }
            let connection = builder.serve_connection_with_upgrades(TokioIo::new(stream), service);
            let connection = watcher.watch(connection.into_owned());
            tokio::select! {
                ended = connection => {
                    if let Err(e) = ended {
                        tracing::debug!(%addr, error = %e, "connection ended");
                    }
                }
                // Made to give its place to another while idle: closes at once.
                () = place.activity.evicted.notified() => {}
            }
        });
    }
    drop(listener);
    if tokio::time::timeout(std::time::Duration::from_secs(10), graceful.shutdown()).await.is_err() {
        tracing::warn!("some requests were still running after 10 s; stopping anyway");
    }
}

/// `Result<T, Infallible>` into `T`.
trait UnwrapInfallible<T> {
    fn unwrap_infallible(self) -> T;
}

impl<T> UnwrapInfallible<T> for Result<T, Infallible> {
    fn unwrap_infallible(self) -> T {
        match self {
            Ok(t) => t,
            Err(e) => match e {},
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn caps_fit_under_the_file_limit_in_proportion() {
        let mut limits = Limits { connections: 4096, sockets: 4096, ..Limits::default() };
        fit_to_files(&mut limits, 1024, FILES_RESERVED);
        assert_eq!((limits.connections, limits.sockets), (384, 384));
        let mut roomy = Limits::default();
        let before = (roomy.connections, roomy.sockets);
        fit_to_files(&mut roomy, 1 << 20, FILES_RESERVED);
        assert_eq!((roomy.connections, roomy.sockets), before, "caps under the limit are kept");
    }

    #[test]
    fn a_full_server_makes_room_by_closing_the_connection_idle_longest() {
        let admission = Admission::new(2, 10, Vec::new());
        let ip: IpAddr = [127, 0, 0, 1].into();
        let a = admission.admit(ip).expect("room");
        let b = admission.admit(ip).expect("room");
        let _answering = b.activity.begin();
        a.activity.since_ms.store(1, Ordering::SeqCst);
        let c = admission.admit(ip).expect("the idle connection makes room");
        assert!(
            futures_util::FutureExt::now_or_never(a.activity.evicted.notified()).is_some(),
            "the idle one is told to close"
        );
        drop(a);
        assert_eq!(admission.open(None), 2);
        let _busy = c.activity.begin();
        assert!(admission.admit(ip).is_none(), "no idle connection: refused");
    }
}
