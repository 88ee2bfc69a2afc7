//! Finding and keeping opponents: challenges to named players ([`challenges`]), following and
//! blocking ([`relations`]), automatch ([`seeks`]), and cancelling an open game. Everything
//! lives in the database (presence too), so that every instance sharing it agrees.
//!
//! Choices (docs/api.md says them to clients):
//! - Challenges are between accounts: a guest neither sends nor receives one (a guest name is
//!   throwaway, and many guests could fill a player's list of incoming challenges).
//! - A blocked player's chat lines are dropped on the way to the blocker's sockets and from the
//!   chat history the blocker reads: the others in the game still read them, and the blocked
//!   player is not told (see [`ChatFilter`]).

pub mod challenges;
pub mod relations;
mod seat;
pub mod seeks;
pub mod wire;

use std::{
    collections::HashSet,
    sync::{Arc, Mutex},
    time::{Duration, Instant},
};

use axum::{
    Json, Router,
    extract::{Path, State},
    routing::{delete, get, post},
};

use crate::{
    AppState,
    auth::Session,
    error::ApiError,
    protocol::OkBody,
    store::{User, now_ms},
    table::Command,
};

/// Seen this recently: online.
pub const ONLINE_MS: i64 = 5 * 60_000;

pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/api/challenges", post(challenges::create).get(challenges::list))
        .route("/api/challenges/{id}/accept", post(challenges::accept))
        .route("/api/challenges/{id}/decline", post(challenges::decline))
        .route("/api/challenges/{id}/withdraw", post(challenges::withdraw))
        .route("/api/follows", get(relations::following).post(relations::follow))
        .route("/api/follows/{name}", delete(relations::unfollow))
        .route("/api/blocks", get(relations::blocked).post(relations::block))
        .route("/api/blocks/{name}", delete(relations::unblock))
        .route("/api/players/{name}/social", get(relations::player))
        .route("/api/seek", post(seeks::seek).get(seeks::poll).delete(seeks::withdraw))
        .route("/api/games/{id}/cancel", post(cancel))
}

/// The account called `name`, or an error naming it.
pub(crate) async fn user_named(app: &AppState, name: &str) -> Result<User, ApiError> {
    if name.chars().count() > 64 {
        return Err(ApiError::BadRequest("a player's name has at most 64 characters".into()));
    }
    app.store
        .user_by_name(name)
        .await?
        .ok_or_else(|| ApiError::NotFound(format!("there is no player {name:?}")))
}

/// Notes the reader as present (at most one write a minute); a failure is only logged.
pub(crate) async fn touch(app: &AppState, user: i64) {
    if let Err(e) = app.store.touch(user, now_ms()).await {
        tracing::warn!(user, error = %e, "could not note a player as present");
    }
}

pub(crate) fn online(last_seen_ms: Option<i64>) -> bool {
    last_seen_ms.is_some_and(|t| now_ms() - t < ONLINE_MS)
}

/// `POST /api/games/{id}/cancel`: the creator of a game nobody has started takes it down; its
/// seats are freed and it leaves every list. Whoever watches it is told.
pub async fn cancel(
    State(app): State<AppState>,
    session: Session,
    Path(id): Path<i64>,
) -> Result<Json<OkBody>, ApiError> {
    let row = crate::http::visible(&app, id, Some(&session), None).await?;
    if row.creator != session.user.id {
        return Err(ApiError::Forbidden("only the game's creator may cancel it".into()));
    }
    if row.status != "open" {
        return Err(ApiError::Conflict("the game has started: it can no longer be cancelled".into()));
    }
    let before_ms = crate::table::CANCEL;
    if !app.hub.ask(id, |reply| Command::Expire { before_ms, reply }).await?? {
        return Err(ApiError::Conflict("the game has started: it can no longer be cancelled".into()));
    }
    Ok(Json(OkBody { ok: true }))
}

/// What a game socket leaves out for its reader: chat lines of the players they blocked. The
/// list is read from the database when the socket starts and again at most every
/// [`ChatFilter::FRESH`] when a chat line passes, so a block made meanwhile holds within that.
#[derive(Debug, Clone, Default)]
pub struct ChatFilter {
    blocked: Arc<Mutex<Option<BlockedNames>>>,
}

/// The names a reader blocked, and when they were read.
type BlockedNames = (Instant, Arc<HashSet<String>>);

impl ChatFilter {
    const FRESH: Duration = Duration::from_secs(5);

    /// Whether `text` (a broadcast's public text) is a chat line `user` does not want.
    pub async fn hides(&self, app: &AppState, user: i64, text: &str) -> bool {
        if !text.starts_with(r#"{"type":"chat""#) {
            return false;
        }
        let Some(blocked) = self.names(app, user).await else { return false };
        if blocked.is_empty() {
            return false;
        }
        #[derive(serde::Deserialize)]
        struct Line {
            /// None for the table's own lines.
            from: Option<String>,
        }
        serde_json::from_str::<Line>(text).is_ok_and(|l| l.from.is_some_and(|f| blocked.contains(&f)))
    }

    async fn names(&self, app: &AppState, user: i64) -> Option<Arc<HashSet<String>>> {
        let cached = self.blocked.lock().unwrap_or_else(|e| e.into_inner()).clone();
        if let Some((at, names)) = cached
            && at.elapsed() < Self::FRESH
        {
            return Some(names);
        }
        let names = match app.store.related(crate::store::Relation::Block, user).await {
            Ok(list) => Arc::new(list.into_iter().map(|p| p.name).collect::<HashSet<_>>()),
            Err(e) => {
                tracing::warn!(user, error = %e, "could not read a player's blocks");
                return None;
            }
        };
        *self.blocked.lock().unwrap_or_else(|e| e.into_inner()) = Some((Instant::now(), names.clone()));
        Some(names)
    }
}
