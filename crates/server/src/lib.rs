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

pub mod auth;
pub mod clock;
pub mod error;
pub mod http;
pub mod limit;
pub mod protocol;
pub mod setup;
pub mod store;
pub mod table;
pub mod views;
pub mod web;
pub mod ws;

use std::{net::SocketAddr, sync::Arc};

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
    /// Bot searches run at the same time (each on one core).
    pub bot_threads: usize,
    /// Sign-ups and logins per second per client address (burst 50 times that); 0 = no limit.
    pub auth_rate: f64,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            listen: SocketAddr::from(([127, 0, 0, 1], 8080)),
            database: "sqlite://gobeyond.db".into(),
            allowed_origins: Vec::new(),
            bot_threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
            auth_rate: 2.0,
        }
    }
}

/// What every handler can reach.
#[derive(Debug, Clone)]
pub struct AppState {
    pub store: Store,
    pub hub: Arc<Hub>,
    pub config: Arc<Config>,
    pub limiter: Arc<limit::Limiter>,
}

/// Connects to the database, resumes every live game and builds the routes.
pub async fn app(config: Config) -> anyhow::Result<(AppState, Router)> {
    let store = Store::connect(&config.database).await?;
    let hub = Arc::new(Hub::new(store.clone(), config.bot_threads));
    let resumed = hub.resume_all().await?;
    tracing::info!(resumed, "live games resumed");
    let limiter = Arc::new(limit::Limiter::new(config.auth_rate, config.auth_rate * 50.0));
    let state = AppState { store, hub, config: Arc::new(config), limiter };
    Ok((state.clone(), routes(state)))
}

pub fn routes(state: AppState) -> Router {
    let creating = Router::new()
        .route("/api/guest", post(http::guest))
        .route("/api/register", post(http::register))
        .route("/api/login", post(http::login))
        .route("/api/bots", post(http::create_bot).get(http::my_bots))
        .route_layer(axum::middleware::from_fn_with_state(state.clone(), limit::limit));
    Router::new()
        .merge(creating)
        .route("/api/health", get(http::health))
        .route("/api/logout", post(http::logout))
        .route("/api/me", get(http::me))
        .route("/api/games", post(http::create_game).get(http::list_games))
        .route("/api/games/{id}", get(http::game_info))
        .route("/api/games/{id}/join", post(http::join))
        .route("/api/games/{id}/leave", post(http::leave))
        .route("/api/games/{id}/record", get(http::record))
        .route("/api/games/{id}/sgf", get(http::sgf_export))
        .route("/api/games/{id}/chat", get(http::chat))
        .route("/api/games/{id}/map", get(views::game_map))
        .route("/api/games/{id}/state", get(views::state_at))
        .route("/api/maps/preview", get(views::preview))
        .route("/api/rules", get(views::rules))
        .route("/api/rules/{system}/doc", get(views::rules_doc))
        .route("/api/ws", get(ws::upgrade))
        .fallback(web::asset)
        .layer(axum::middleware::from_fn_with_state(state.clone(), same_origin_writes))
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .layer(tower_http::trace::TraceLayer::new_for_http())
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
    axum::serve(listener, router.into_make_service_with_connect_info::<SocketAddr>())
        .with_graceful_shutdown(async move {
            let _ = on_signal.await;
        })
        .await?;
    let _ = stopper.await;
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
