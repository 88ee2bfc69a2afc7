//! The director: a background task on every instance that runs due tournaments
//! (docs/tournaments.md "Running a tournament on the server", "Restarts and failover").

use serde_json::Value;

use super::create::NewTournament;
use crate::{AppState, error::ApiError, store::tournaments::EntrantRow};

/// Wakes the directors of this process at once (a tournament was started), rather than at
/// their next look.
static WAKE: tokio::sync::Notify = tokio::sync::Notify::const_new();

pub fn wake(_app: &AppState) {
    WAKE.notify_waiters();
}

/// The standings, the crosstable and the rules in plain words.
pub(super) async fn standings_view(
    settings: &NewTournament,
    _entrants: &[EntrantRow],
    _app: &AppState,
    _id: i64,
) -> Result<(Value, Vec<Vec<Value>>, Vec<String>), ApiError> {
    Ok((super::view::no_standings(), Vec::new(), super::rules_text(settings)))
}
