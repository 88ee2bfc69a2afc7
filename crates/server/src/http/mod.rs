//! HTTP handlers: accounts, the lobby, games and their records. Handlers check input and call the
//! store or the game's table; game logic lives in the engine and `table/`.

use axum::{Json, extract::State};

use crate::{AppState, protocol::Health};

/// Open or live games one user may have created at a time.
pub const MAX_ACTIVE_GAMES: i64 = 20;
/// Of those, games of bots only (they search on every move, for as long as they are watched).
pub const MAX_BOT_ONLY_GAMES: i64 = 3;

mod access;
mod accounts;
mod games;
mod reads;
mod seats;

pub use access::*;
pub use accounts::*;
pub use games::*;
pub use reads::*;
pub use seats::*;

pub async fn health(State(app): State<AppState>) -> Json<Health> {
    Json(Health {
        ok: true,
        database: format!("{:?}", app.store.backend).to_lowercase(),
        games_loaded: app.hub.loaded(),
        rss_bytes: rss_bytes(),
        bot_searches: app.hub.bot_searches(),
        instance: app.hub.cluster().map(|c| c.id.to_string()),
        games_owned: app.hub.owned(),
        games_relayed: app.hub.relayed(),
        sockets: app.sockets.open(None),
        connections: app.connections.open(None),
        games_bytes: app.hub.bytes(),
        games_bytes_budget: app.config.limits.games_bytes,
    })
}

/// Resident memory of this process (Linux), for the load test's memory-per-game figure.
fn rss_bytes() -> Option<u64> {
    let statm = std::fs::read_to_string("/proc/self/statm").ok()?;
    let pages: u64 = statm.split_whitespace().nth(1)?.parse().ok()?;
    Some(pages * 4096)
}
