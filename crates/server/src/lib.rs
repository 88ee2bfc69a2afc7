//! The GoBeyond game server: `gobeyond serve`.
//!
//! - [`store`]: SQLite (default, embedded) or PostgreSQL through one `Store`; an append-only
//!   action log per game.
//! - [`table`]: one task per game in play, the only writer of its state: validates with the
//!   engine, commits, then broadcasts; server clocks and server bots live there.
//! - [`ws`]: the WebSocket protocol; [`http`]: accounts, lobby and records; [`auth`]: sessions.
//!
//! The protocol is documented in `docs/api.md`.
#![forbid(unsafe_code)]

pub mod analyse;
pub mod auth;
pub mod clock;
pub mod cluster;
pub mod conn;
mod dates;
pub mod error;
pub mod http;
pub mod lab;
pub mod limit;
pub mod lists;
pub mod mail;
pub mod metrics;
pub mod moderation;
pub mod now;
mod profile;
pub mod protocol;
pub mod rating;
mod rematch;
pub mod review;
pub mod review_tree;
pub mod running_time;
pub mod setup;
pub mod shared_maps;
pub mod shared_reads;
pub mod social;
pub mod store;
pub mod table;
pub mod tell;
pub mod test_games;
pub mod test_seen;
pub mod time_control;
pub mod tournament;
mod vacation;
pub mod views;
pub mod web;
mod web_encoding;
pub mod ws;

use std::{
    net::{IpAddr, SocketAddr},
    sync::Arc,
};

use axum::{
    Router,
    extract::DefaultBodyLimit,
    routing::{get, post},
};
use tokio::net::TcpListener;

use crate::{store::Store, table::Hub};

/// Request bodies larger than this are refused (a custom map is the largest thing sent).
pub const MAX_BODY: usize = 1024 * 1024;

#[derive(Debug, Clone)]
pub struct Config {
    pub listen: SocketAddr,
    /// `sqlite://FILE` (created if missing) or `postgres://...`.
    pub database: String,
    /// Origins besides the server's own that may open a game socket (a separate dev front end).
    pub allowed_origins: Vec<String>,
    /// Reverse proxies whose `X-Forwarded-For` (the client's address) and `X-Forwarded-Proto`
    /// (HTTPS: session cookies get `Secure`) are believed.
    pub trusted_proxies: Vec<IpAddr>,
    /// Session cookies always marked `Secure` (the server is only reached over HTTPS).
    pub secure_cookies: bool,
    pub limits: limit::Limits,
    /// Test hooks: games may be created with chance outcomes fixed in advance (`rigged`), so
    /// that browser tests can script dice and cards. Never on a real server.
    pub test_hooks: bool,
    /// Vacation days each account may take per calendar year (correspondence clocks stop).
    pub vacation_days: u32,
    /// With PostgreSQL, this instance's id among those sharing the database (default: made up
    /// from the host name, the port and a random number).
    pub instance: Option<String>,
    /// With PostgreSQL, the base URL other instances reach this one at (default: the listen
    /// address, `127.0.0.1` for an unspecified one).
    pub advertise: Option<String>,
    /// With PostgreSQL, how long a game stays with an instance that stopped renewing its lease
    /// (died, frozen, cut off) before another takes it over.
    pub lease_ttl: std::time::Duration,
    /// The directory of the designers' lab reports the web app lists (`gobeyond lab ... --html`);
    /// none: no reports.
    pub reports: Option<std::path::PathBuf>,
    /// How to send mail; none: this server sends none (the web app says so).
    pub mail: Option<mail::MailConfig>,
    /// Computer reviews of finished games: budgets, and how many run here at once.
    pub reviews: review::ReviewConfig,
    /// `GET /metrics` on a listen address of its own, without a token.
    pub metrics_listen: Option<SocketAddr>,
    /// `GET /metrics` on the main listen address, for requests bearing this token.
    pub metrics_token: Option<String>,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            listen: SocketAddr::from(([127, 0, 0, 1], 8080)),
            database: "sqlite://gobeyond.db".into(),
            allowed_origins: Vec::new(),
            trusted_proxies: Vec::new(),
            secure_cookies: false,
            limits: limit::Limits::default(),
            test_hooks: false,
            vacation_days: 30,
            instance: None,
            advertise: None,
            lease_ttl: std::time::Duration::from_secs(10),
            reports: None,
            mail: None,
            reviews: review::ReviewConfig::default(),
            metrics_listen: None,
            metrics_token: None,
        }
    }
}

impl Config {
    /// How this instance joins the others on a PostgreSQL database.
    fn cluster(&self) -> cluster::ClusterConfig {
        let instance = self.instance.clone().unwrap_or_else(|| {
            let host = std::fs::read_to_string("/etc/hostname")
                .ok()
                .map(|h| h.trim().to_string())
                .filter(|h| !h.is_empty())
                .unwrap_or_else(|| "gobeyond".into());
            let mut b = [0u8; 2];
            let _ = getrandom::fill(&mut b);
            format!("{host}:{}-{:04x}", self.listen.port(), u16::from_le_bytes(b))
        });
        let advertise = self.advertise.clone().unwrap_or_else(|| {
            let ip = if self.listen.ip().is_unspecified() {
                IpAddr::from([127, 0, 0, 1])
            } else {
                self.listen.ip()
            };
            format!("http://{}", SocketAddr::new(ip, self.listen.port()))
        });
        cluster::ClusterConfig { instance, advertise, lease_ttl: self.lease_ttl }
    }
}

/// What every handler can reach.
#[derive(Debug, Clone)]
pub struct AppState {
    pub store: Store,
    pub hub: Arc<Hub>,
    pub config: Arc<Config>,
    pub limiter: Arc<limit::Limiter>,
    /// Sessions with open sockets (closed at logout).
    pub sessions: Arc<auth::LiveSessions>,
    /// Failed logins per account and address, and per account.
    pub logins: Arc<limit::LoginBackoff>,
    /// Game sockets open, in all and per address.
    pub sockets: Arc<conn::Admission>,
    /// Connections open, in all and per address.
    pub connections: Arc<conn::Admission>,
    /// CPU work of read-only views (replays, maps), bounded.
    pub views: Arc<limit::WorkGate>,
    /// Password hashes (Argon2), bounded.
    pub hashes: Arc<limit::WorkGate>,
    /// The lobby's public lists, computed once at a time.
    pub lobby: Arc<shared_reads::SharedReads>,
    /// The mail service, when this server sends mail.
    pub mail: Option<Arc<mail::Mailer>>,
    /// Computer reviews run by this instance.
    pub reviews: Arc<review::Reviews>,
    /// Limits per account, whatever its address (docs/moderation.md).
    pub account_rates: Arc<moderation::AccountRates>,
}

/// Connects to the database, resumes every live game and builds the routes.
pub async fn app(mut config: Config) -> anyhow::Result<(AppState, Router)> {
    // Connections past the open-file limit would fail at accept, health checks first.
    if let Some(files) = conn::raise_file_limit() {
        conn::fit_to_files(&mut config.limits, files, conn::FILES_RESERVED);
    }
    let store = Store::connect(&config.database).await?;
    lists::fill_list_keys(&store).await?;
    let limits = &config.limits;
    // On PostgreSQL several instances may share the database: games are owned through leases.
    let cluster = match store.backend {
        store::Backend::Postgres => {
            let c = cluster::Cluster::join(store.clone(), &config.cluster()).await?;
            tracing::info!(instance = %c.id, address = %c.address, "joined the instances on this database");
            Some(c)
        }
        store::Backend::Sqlite => None,
    };
    // Who this instance is in the database's claims (mail, reviews).
    let owner = cluster.as_ref().map_or_else(|| config.cluster().instance, |c| c.id.to_string());
    let reviews = review::Reviews::new(config.reviews, owner.clone());
    let mailer = match &config.mail {
        Some(m) => {
            let mailer = mail::Mailer::new(m.clone(), owner)?;
            store.set_mail_bounds(m.bounds());
            tracing::info!(config = ?m, "sending mail");
            Some(mailer)
        }
        None => None,
    };
    let hub = Arc::new(Hub::new(store.clone(), limits.clone(), cluster));
    let resumed = hub.resume_all().await?;
    tracing::info!(resumed, "live games resumed");
    let state = AppState {
        store,
        hub,
        limiter: Arc::new(limit::Limiter::new(limits.auth_rate, limits.auth_burst)),
        account_rates: Arc::new(moderation::AccountRates::new(limits)),
        logins: Arc::new(limit::LoginBackoff::new(limits.login_failures, limits.login_failures_per_account)),
        sessions: Arc::default(),
        sockets: conn::Admission::new(
            limits.sockets,
            limits.sockets_per_address,
            config.trusted_proxies.clone(),
        ),
        connections: conn::Admission::new(
            limits.connections,
            limits.connections_per_address,
            config.trusted_proxies.clone(),
        ),
        views: Arc::new(limit::WorkGate::new(
            limits.view_work,
            4 * limits.view_work + 8,
            "the server is busy: try again in a moment",
        )),
        hashes: Arc::new(auth::hash_gate()),
        lobby: Arc::new(shared_reads::SharedReads::new(64)),
        mail: mailer,
        reviews,
        config: Arc::new(config),
    };
    review::runner::requeue_orphans(&state).await?;
    Ok((state.clone(), routes(state)))
}

pub fn routes(state: AppState) -> Router {
    let creating = Router::new()
        .route("/api/guest", post(http::guest))
        .route("/api/register", post(http::register))
        .route("/api/login", post(http::login))
        .route("/api/bots", post(http::create_bot).get(http::my_bots))
        .route("/api/bots/{name}/token", post(http::rotate_bot_token))
        .merge(mail::limited_routes())
        .route_layer(axum::middleware::from_fn_with_state(state.clone(), limit::limit));
    Router::new()
        .merge(creating)
        .merge(social::routes())
        .merge(moderation::routes())
        .route("/api/health", get(http::health))
        .route("/metrics", get(metrics::scrape_with_token))
        .route("/api/logout", post(http::logout))
        .route("/api/me", get(http::me).delete(moderation::account::delete))
        .route("/api/games", post(http::create_game).get(lists::list_games))
        .route("/api/players/{name}", get(profile::player))
        .route("/api/players", get(lists::search_players))
        .route("/api/tell", get(tell::tell))
        .route("/api/games/{id}", get(http::game_info))
        .route("/api/games/{id}/join", post(http::join))
        .route("/api/games/{id}/admit", post(http::admit))
        .route("/api/games/{id}/invite", get(http::invite))
        .route("/api/games/{id}/rematch", post(rematch::rematch))
        .route("/api/games/{id}/leave", post(http::leave))
        .route("/api/games/{id}/abandon", post(http::abandon))
        .route("/api/games/{id}/undo", post(http::undo))
        .route("/api/games/{id}/undo/answer", post(http::undo_answer))
        .route("/api/games/{id}/record", get(http::record))
        .route("/api/games/{id}/sgf", get(http::sgf_export))
        .route("/api/games/{id}/chat", get(http::chat))
        .route("/api/games/{id}/map", get(views::game_map))
        .route("/api/games/{id}/state", get(views::state_at))
        .route("/api/maps/preview", get(views::preview))
        .route("/api/rules", get(views::rules))
        .route("/api/rules/{system}/doc", get(views::rules_doc))
        .route("/api/lab/reports", get(lab::reports))
        .route("/api/lab/reports/{name}", get(lab::report))
        .route("/api/ws", get(ws::upgrade))
        .route("/api/test/advance", post(now::advance))
        .merge(test_games::routes())
        .merge(test_seen::routes())
        .merge(review_tree::routes())
        .merge(analyse::routes())
        .merge(vacation::routes())
        .route("/api/internal/link", get(cluster::link::accept))
        .merge(mail::routes())
        .merge(review::routes())
        .merge(tournament::routes())
        .fallback(web::asset)
        .layer(axum::middleware::from_fn_with_state(state.clone(), same_origin_writes))
        .layer(axum::middleware::from_fn(metrics::count_requests))
        .layer(DefaultBodyLimit::max(MAX_BODY))
        // A slow body or a slow answer holds a connection: both are bounded. (Game sockets
        // leave this layer as soon as they are upgraded.)
        .layer(tower_http::timeout::TimeoutLayer::with_status_code(
            axum::http::StatusCode::REQUEST_TIMEOUT,
            state.config.limits.request_timeout,
        ))
        // Paths only: a query may carry a token (the one-click unsubscribe link).
        .layer(tower_http::trace::TraceLayer::new_for_http().make_span_with(
            |r: &axum::http::Request<axum::body::Body>| {
                tracing::info_span!("request", method = %r.method(), path = %r.uri().path())
            },
        ))
        .with_state(state)
}

/// Requests that change something (every method but GET and HEAD) from a browser page must come
/// from the server's own origin or an allowed one: a cross-site `POST /api/guest` once swapped a
/// visitor's session. Programs that send no `Origin` (bots with tokens, curl) are not concerned.
async fn same_origin_writes(
    axum::extract::State(state): axum::extract::State<AppState>,
    request: axum::extract::Request,
    next: axum::middleware::Next,
) -> axum::response::Response {
    use axum::{http::Method, response::IntoResponse};
    let reads = matches!(*request.method(), Method::GET | Method::HEAD | Method::OPTIONS);
    if !reads && !auth::origin_allowed(request.headers(), &state.config.allowed_origins) {
        return error::ApiError::Forbidden("requests from other sites may not change anything here".into())
            .into_response();
    }
    next.run(request).await
}

/// Serves until `shutdown` resolves, then lets every game finish the write it is doing.
pub async fn serve(
    listener: TcpListener,
    state: AppState,
    router: Router,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) -> anyhow::Result<()> {
    // Stop the games as soon as the signal comes: open game sockets would otherwise keep the
    // HTTP server waiting. Each game finishes the write it is doing.
    let (signalled, on_signal) = tokio::sync::oneshot::channel::<()>();
    let hub = state.hub.clone();
    let stopper = tokio::spawn(async move {
        shutdown.await;
        hub.shutdown().await;
        let _ = signalled.send(());
    });
    let sweeper = tokio::spawn(state.hub.clone().sweep_forever());
    let keeper = tokio::spawn(state.hub.clone().keep_leases_forever());
    let mailer = state.mail.clone().map(|m| tokio::spawn(mail::sender::run(state.store.clone(), m)));
    let reviewer = tokio::spawn(review::runner::run(state.clone()));
    let director = tokio::spawn(tournament::director::run(state.clone()));
    let metrics = state.config.metrics_listen.map(|addr| {
        let app = state.clone();
        tokio::spawn(async move {
            if let Err(e) = metrics::serve_separately(addr, app).await {
                tracing::error!(error = %e, "the metrics address does not serve");
            }
        })
    });
    conn::accept_loop(listener, router, state.config.limits.clone(), state.connections.clone(), async move {
        let _ = on_signal.await;
    })
    .await;
    sweeper.abort();
    keeper.abort();
    if let Some(m) = metrics {
        m.abort();
    }
    director.abort();
    let _ = director.await;
    tournament::director::release(&state).await;
    if let Some(m) = mailer {
        m.abort();
    }
    let _ = stopper.await;
    // The runner first, so that it claims nothing after the running reviews are given back.
    state.reviews.stop();
    let _ = reviewer.await;
    review::runner::release(&state).await;
    state.store.close().await;
    Ok(())
}

/// `gobeyond serve`: runs until Ctrl-C or SIGTERM.
pub async fn run(config: Config) -> anyhow::Result<()> {
    let listener = TcpListener::bind(config.listen).await?;
    let (state, router) = app(config).await?;
    tracing::info!(address = %listener.local_addr()?, "serving");
    serve(listener, state, router, shutdown_signal()).await
}

async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let term = async {
        if let Ok(mut s) = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            s.recv().await;
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! {
        () = ctrl_c => {},
        () = term => {},
    }
    tracing::info!("shutting down");
}
