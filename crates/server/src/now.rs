//! The time game clocks and vacations read. It is the system's time, moved forward only by
//! the test hook `POST /api/test/advance` (a server started with `--test-hooks`), so that a
//! test can play a correspondence game across days in seconds. Each server (each `Store`) has
//! its own, so tests running side by side do not move each other's time.

use std::sync::atomic::{AtomicI64, Ordering};

use axum::{Json, extract::State};
use serde::Deserialize;

use crate::{AppState, error::ApiError};

#[derive(Debug)]
pub struct Now {
    offset_ms: AtomicI64,
    /// Tells the tables when time jumps, so that a clock whose deadline passed runs out now.
    jumped: tokio::sync::watch::Sender<i64>,
}

impl Default for Now {
    fn default() -> Now {
        Now { offset_ms: AtomicI64::new(0), jumped: tokio::sync::watch::channel(0).0 }
    }
}

impl Now {
    /// Milliseconds since the Unix epoch, as the server's clocks see it.
    pub fn ms(&self) -> i64 {
        crate::store::now_ms() + self.offset_ms.load(Ordering::Relaxed)
    }

    /// Moves the time forward by `ms` and wakes the tables.
    pub fn advance(&self, ms: i64) {
        let offset = self.offset_ms.fetch_add(ms.max(0), Ordering::Relaxed) + ms.max(0);
        self.jumped.send_replace(offset);
    }

    /// Changes when time jumps.
    pub fn jumps(&self) -> tokio::sync::watch::Receiver<i64> {
        self.jumped.subscribe()
    }
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Advance {
    pub seconds: f64,
}

/// `POST /api/test/advance {"seconds": 86400}`: a test hook, refused unless the server runs
/// with `--test-hooks`.
pub async fn advance(State(app): State<AppState>, Json(body): Json<Advance>) -> Result<Json<i64>, ApiError> {
    if !app.config.test_hooks {
        return Err(ApiError::NotFound("no such page".into()));
    }
    if !(body.seconds.is_finite() && (0.0..=400.0 * 86_400.0).contains(&body.seconds)) {
        return Err(ApiError::BadRequest("seconds: from 0 to 400 days".into()));
    }
    app.store.time.advance((body.seconds * 1000.0) as i64);
    Ok(Json(app.store.now()))
}
