//! Connections: the accept loop and its limits. axum's own `serve` sets no read timeout and
//! takes every connection, so 1,030 connections that never finished a request once made
//! `/api/health` time out. Here every connection is admitted against a total and a per-address
//! count, and HTTP/1 requests must send their headers within a deadline (which also closes idle
//! keep-alive connections: hyper restarts the deadline while waiting for the next request).

use std::{
    collections::HashMap,
    convert::Infallible,
    net::{IpAddr, SocketAddr},
    sync::{Arc, Mutex},
};

use axum::{Router, extract::ConnectInfo};
use hyper::body::Incoming;
use hyper_util::{
    rt::{TokioExecutor, TokioIo, TokioTimer},
    server::{conn::auto::Builder, graceful::GracefulShutdown},
};
use tokio::net::TcpListener;
use tower::ServiceExt;

use crate::limit::Limits;

/// Open connections, in all and per client address (a guard per connection gives its place back).
#[derive(Debug)]
pub struct Admission {
    total: usize,
    per_address: usize,
    /// Addresses whose connections are not counted one by one (a trusted reverse proxy carries
    /// everybody's).
    exempt: Vec<IpAddr>,
    open: Mutex<(usize, HashMap<IpAddr, usize>)>,
}

/// A connection's place; dropped when the connection ends.
#[derive(Debug)]
pub struct Admitted {
    admission: Arc<Admission>,
    ip: IpAddr,
}

impl Admission {
    pub fn new(total: usize, per_address: usize, exempt: Vec<IpAddr>) -> Arc<Admission> {
        Arc::new(Admission { total, per_address, exempt, open: Mutex::new((0, HashMap::new())) })
    }

    /// A place for a connection from `ip`, or `None` when the server or that address is full.
    /// Counted under one lock: simultaneous connections cannot pass the limit together.
    pub fn admit(self: &Arc<Self>, ip: IpAddr) -> Option<Admitted> {
        let mut open = self.open.lock().unwrap_or_else(|e| e.into_inner());
        if open.0 >= self.total {
            return None;
        }
        let exempt = self.exempt.contains(&ip);
        let mine = open.1.get(&ip).copied().unwrap_or(0);
        if !exempt && mine >= self.per_address {
            return None;
        }
        open.0 += 1;
        *open.1.entry(ip).or_insert(0) += 1;
        Some(Admitted { admission: self.clone(), ip })
    }

    /// Connections open now (from `ip` when given).
    pub fn open(&self, ip: Option<IpAddr>) -> usize {
        let open = self.open.lock().unwrap_or_else(|e| e.into_inner());
        match ip {
            Some(ip) => open.1.get(&ip).copied().unwrap_or(0),
            None => open.0,
        }
    }
}

impl Drop for Admitted {
    fn drop(&mut self) {
        let mut open = self.admission.open.lock().unwrap_or_else(|e| e.into_inner());
        open.0 = open.0.saturating_sub(1);
        if let Some(n) = open.1.get_mut(&self.ip) {
            *n -= 1;
            if *n == 0 {
                open.1.remove(&self.ip);
            }
        }
    }
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
        let service = hyper::service::service_fn(move |mut request: hyper::Request<Incoming>| {
            request.extensions_mut().insert(ConnectInfo::<SocketAddr>(addr));
            let router = router.clone();
            async move {
                Ok::<_, Infallible>(
                    router.oneshot(request.map(axum::body::Body::new)).await.unwrap_infallible(),
                )
            }
        });
        let connection = builder.serve_connection_with_upgrades(TokioIo::new(stream), service).into_owned();
        let connection = graceful.watch(connection);
        tokio::spawn(async move {
            let _place = place;
            if let Err(e) = connection.await {
                tracing::debug!(%addr, error = %e, "connection ended");
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
