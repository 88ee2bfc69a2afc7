//! Prometheus metrics: `GET /metrics` in the OpenMetrics text format, on a listen address of its
//! own (`--metrics-listen`) or on the main one behind a bearer token (`--metrics-token`);
//! docs/deploy.md, "Metrics", lists them.
//!
//! Counters and histograms are counted where things happen, once per process (a process is one
//! instance); gauges that describe the instance's state are read when scraped, from the same
//! sources as `/api/health`.

use std::{
    net::SocketAddr,
    sync::LazyLock,
    time::{Duration, Instant},
};

use axum::{
    Router,
    extract::{MatchedPath, Request, State},
    http::{HeaderMap, StatusCode, header},
    middleware::Next,
    response::{IntoResponse, Response},
    routing::get,
};
use prometheus_client::{
    encoding::{EncodeLabelSet, text::encode},
    metrics::{
        counter::Counter,
        family::Family,
        gauge::Gauge,
        histogram::{Histogram, exponential_buckets},
    },
    registry::Registry,
};

use crate::AppState;

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct RouteLabels {
    /// The route's pattern (`/api/games/:id`), never the path itself: the label's values stay
    /// few whatever clients ask. `static` for the web client's files, `none` for no route.
    pub route: String,
    pub status: u16,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct SystemLabels {
    pub system: String,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct KindLabels {
    pub kind: String,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct PoolLabels {
    /// `people` (games with people) or `bots_only`: the two budgets of bot searches.
    pub pool: String,
}

#[derive(Debug)]
pub struct Metrics {
    registry: Registry,
    pub requests: Family<RouteLabels, Counter>,
    pub request_seconds: Histogram,
    pub moves: Family<SystemLabels, Counter>,
    pub commit_seconds: Histogram,
    pub errors: Family<KindLabels, Counter>,
    pub takeovers: Counter,
    pub games_loaded: Family<SystemLabels, Gauge>,
    pub bot_searches_waiting: Family<PoolLabels, Gauge>,
    // Read when scraped.
    bot_searches_running: Family<PoolLabels, Gauge>,
    sockets: Gauge,
    connections: Gauge,
    games_live: Gauge,
    games_bytes: Gauge,
    mail_queued: Gauge,
    leases_held: Gauge,
}

/// The process's metrics.
pub fn metrics() -> &'static Metrics {
    static METRICS: LazyLock<Metrics> = LazyLock::new(Metrics::new);
    &METRICS
}

impl Metrics {
    fn new() -> Metrics {
        let mut registry = Registry::with_prefix("gobeyond");
        let m = Metrics {
            requests: Family::default(),
            request_seconds: Histogram::new(exponential_buckets(0.0005, 2.0, 16)),
            moves: Family::default(),
            commit_seconds: Histogram::new(exponential_buckets(0.0001, 2.0, 16)),
            errors: Family::default(),
            takeovers: Counter::default(),
            games_loaded: Family::default(),
            bot_searches_waiting: Family::default(),
            bot_searches_running: Family::default(),
            sockets: Gauge::default(),
            connections: Gauge::default(),
            games_live: Gauge::default(),
            games_bytes: Gauge::default(),
            mail_queued: Gauge::default(),
            leases_held: Gauge::default(),
            registry: Registry::default(),
        };
        let r = &mut registry;
        r.register("http_requests", "HTTP requests answered, by route and status", m.requests.clone());
        r.register("http_request_seconds", "Time to answer an HTTP request", m.request_seconds.clone());
        r.register("moves", "Actions committed to games' logs, by rule system", m.moves.clone());
        r.register("commit_seconds", "Time to commit one action to the database", m.commit_seconds.clone());
        r.register("errors", "Error answers, by kind", m.errors.clone());
        r.register(
            "takeovers",
            "Games this instance took over from an instance that stopped",
            m.takeovers.clone(),
        );
        r.register("games_loaded", "Games in this instance's memory, by rule system", m.games_loaded.clone());
        r.register(
            "bot_searches_waiting",
            "Bot searches waiting for a thread, by budget",
            m.bot_searches_waiting.clone(),
        );
        r.register("bot_searches_running", "Bot searches running, by budget", m.bot_searches_running.clone());
        r.register("websockets", "Open game sockets", m.sockets.clone());
        r.register("connections", "Open client connections", m.connections.clone());
        r.register("games_live", "Games in play in the database (every instance's)", m.games_live.clone());
        r.register("games_bytes", "Estimated bytes of the games in memory", m.games_bytes.clone());
        r.register("mail_queued", "Mails waiting to be sent (every instance's)", m.mail_queued.clone());
        r.register(
            "leases_held",
            "Game leases this instance holds (several instances only)",
            m.leases_held.clone(),
        );
        Metrics { registry, ..m }
    }

    /// Sets the gauges read from the instance's state, then encodes every metric. The gauges
    /// are the process's: one scrape at a time, so that another server in the process (tests)
    /// cannot set them between this one's setting and encoding.
    async fn scrape(&self, app: &AppState) -> Result<String, std::fmt::Error> {
        static ONE_AT_A_TIME: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());
        let _turn = ONE_AT_A_TIME.lock().await;
        let [people, bots_only] = app.hub.bot_searches();
        for (pool, running) in [("people", people), ("bots_only", bots_only)] {
            let labels = PoolLabels { pool: pool.into() };
            self.bot_searches_running.get_or_create(&labels).set(running as i64);
            // Listed at 0 before any search has waited.
            let _ = self.bot_searches_waiting.get_or_create(&labels);
        }
        self.sockets.set(app.sockets.open(None) as i64);
        self.connections.set(app.connections.open(None) as i64);
        self.games_bytes.set(i64::try_from(app.hub.bytes()).unwrap_or(i64::MAX));
        if app.hub.cluster().is_some() {
            self.leases_held.set(app.hub.owned().len() as i64);
        }
        match app.store.metric_counts().await {
            Ok((live, mail)) => {
                self.games_live.set(live);
                self.mail_queued.set(mail);
            }
            Err(e) => tracing::warn!(error = %e, "metrics: could not count live games and queued mail"),
        }
        let mut text = String::new();
        encode(&mut text, &self.registry)?;
        Ok(text)
    }
}

/// Counts one in a gauge of `family` while it lives: a game in memory (`loaded_game`), a bot
/// search waiting for a thread (`waiting_search`).
#[derive(Debug)]
pub struct Held<L: Clone + std::hash::Hash + Eq + std::fmt::Debug + 'static> {
    family: &'static Family<L, Gauge>,
    labels: L,
}

impl<L: Clone + std::hash::Hash + Eq + std::fmt::Debug + 'static> Held<L> {
    fn new(family: &'static Family<L, Gauge>, labels: L) -> Held<L> {
        family.get_or_create(&labels).inc();
        Held { family, labels }
    }
}

impl<L: Clone + std::hash::Hash + Eq + std::fmt::Debug + 'static> Drop for Held<L> {
    fn drop(&mut self) {
        self.family.get_or_create(&self.labels).dec();
    }
}

/// A game in memory, counted in `games_loaded` while the table holds this.
pub fn loaded_game(system: &'static str) -> Held<SystemLabels> {
    Held::new(&metrics().games_loaded, SystemLabels { system: system.into() })
}

/// A bot search waiting for a thread of `pool`, counted while this lives.
pub fn waiting_search(pool: &'static str) -> Held<PoolLabels> {
    Held::new(&metrics().bot_searches_waiting, PoolLabels { pool: pool.into() })
}

/// Counts one committed action and the time its commit took.
pub fn committed(system: &'static str, took: Duration) {
    let m = metrics();
    m.moves.get_or_create(&SystemLabels { system: system.into() }).inc();
    m.commit_seconds.observe(took.as_secs_f64());
}

/// The middleware that counts every HTTP request by route and status.
pub async fn count_requests(request: Request, next: Next) -> Response {
    let route = match request.extensions().get::<MatchedPath>() {
        // `/api/games/:id`: braces in a label value trip some Prometheus text parsers.
        Some(path) => path.as_str().replace('{', ":").replace('}', ""),
        None if request.uri().path().starts_with("/api/") => "none".to_string(),
        None => "static".to_string(),
    };
    let start = Instant::now();
    let response = next.run(request).await;
    let m = metrics();
    m.requests.get_or_create(&RouteLabels { route, status: response.status().as_u16() }).inc();
    m.request_seconds.observe(start.elapsed().as_secs_f64());
    response
}

const CONTENT_TYPE: &str = "application/openmetrics-text; version=1.0.0; charset=utf-8";

async fn encoded(app: &AppState) -> Response {
    match metrics().scrape(app).await {
        Ok(text) => ([(header::CONTENT_TYPE, CONTENT_TYPE)], text).into_response(),
        Err(_) => StatusCode::INTERNAL_SERVER_ERROR.into_response(),
    }
}

/// `GET /metrics` on the main listen address: only with the configured bearer token (none
/// configured: not found, as if the route did not exist).
pub async fn scrape_with_token(State(app): State<AppState>, headers: HeaderMap) -> Response {
    let Some(token) = app.config.metrics_token.as_deref() else {
        return StatusCode::NOT_FOUND.into_response();
    };
    let sent = headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "));
    if !sent.is_some_and(|sent| same_secret(sent.as_bytes(), token.as_bytes())) {
        return (StatusCode::UNAUTHORIZED, [(header::WWW_AUTHENTICATE, "Bearer")]).into_response();
    }
    encoded(&app).await
}

/// Compares two secrets in a time that does not depend on where they differ.
fn same_secret(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

/// Serves `GET /metrics` alone on `addr` (`--metrics-listen`), without a token: that address is
/// meant to be reachable by the monitoring system only.
pub async fn serve_separately(addr: SocketAddr, app: AppState) -> anyhow::Result<()> {
    let listener = tokio::net::TcpListener::bind(addr).await?;
    tracing::info!(address = %listener.local_addr()?, "serving metrics");
    let router = Router::new()
        .route("/metrics", get(|State(app): State<AppState>| async move { encoded(&app).await }))
        .with_state(app);
    axum::serve(listener, router).await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::same_secret;

    #[test]
    fn secrets_match_only_when_equal() {
        assert!(same_secret(b"abc", b"abc"));
        assert!(!same_secret(b"abc", b"abd"));
        assert!(!same_secret(b"abc", b"abcd"));
        assert!(!same_secret(b"", b"a"));
    }
}
