//! The test hook `POST /api/test/seen` (a server started with `--test-hooks`, as
//! `POST /api/test/advance` in [`crate::now`]): sets when a player was last seen, so that tests
//! of absences (a tournament round's forfeits, an arena's waiting players) need not wait ten
//! minutes. Never on a real server.

use axum::{Json, Router, extract::State, routing::post};
use serde::Deserialize;
use serde_json::{Value, json};

use crate::{AppState, error::ApiError, store::now_ms};

pub fn routes() -> Router<AppState> {
    Router::new().route("/api/test/seen", post(seen))
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Seen {
    pub user: String,
    /// Seconds ago; null: never seen.
    pub seconds_ago: Option<f64>,
}

/// `POST /api/test/seen {"user": "alice", "seconds_ago": 900}` → `{"last_seen_ms": N|null}`.
pub async fn seen(
    State(app): State<AppState>,
    body: Result<Json<Seen>, axum::extract::rejection::JsonRejection>,
) -> Result<Json<Value>, ApiError> {
    if !app.config.test_hooks {
        return Err(ApiError::NotFound("no such page".into()));
    }
    let Json(body) = body.map_err(|e| ApiError::BadRequest(e.body_text()))?;
    if body.seconds_ago.is_some_and(|s| !(s.is_finite() && (0.0..=400.0 * 86_400.0).contains(&s))) {
        return Err(ApiError::BadRequest("seconds_ago: from 0 to 400 days, or null".into()));
    }
    let Some(user) = app.store.user_by_name(&body.user).await? else {
        return Err(ApiError::NotFound(format!("there is no player {:?}", body.user)));
    };
    let at = body.seconds_ago.map(|s| now_ms() - (s * 1000.0) as i64);
    app.store.set_last_seen(user.id, at).await?;
    Ok(Json(json!({ "last_seen_ms": at })))
}
