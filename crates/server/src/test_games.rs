//! The test hook `POST /api/test/games` (a server started with `--test-hooks`, as
//! `POST /api/test/advance` in [`crate::now`]): a finished game made from a record, stored as a
//! played game is (settings, seats, action log, result), so that tests of reviews, move trees
//! and exports reach a finished game of any system at once. Never on a real server.

use std::sync::Arc;

use axum::{Json, Router, extract::State, routing::post};
use gobeyond_rules::record::{Record, RecordedAction};
use serde::{Deserialize, Serialize};

use crate::{
    AppState,
    error::ApiError,
    setup::{GameSetup, SeatChoice, TimeControl},
    store::{FinishedGame, NewSeat},
};

pub fn routes() -> Router<AppState> {
    Router::new().route("/api/test/games", post(finished_game))
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewFinishedGame {
    pub record: Record,
    /// Per seat, the account seated there by name (`None`: a server bot of level 1).
    pub seats: Vec<Option<String>>,
    /// A game only its players (and holders of its invitation) may read; default public.
    #[serde(default = "public_by_default")]
    pub public: bool,
}

fn public_by_default() -> bool {
    true
}

#[derive(Debug, Serialize)]
pub struct Created {
    pub id: i64,
}

/// `POST /api/test/games {"record": ..., "seats": ["alice", null]}` → `{"id": N}`.
pub async fn finished_game(
    State(app): State<AppState>,
    body: Result<Json<NewFinishedGame>, axum::extract::rejection::JsonRejection>,
) -> Result<Json<Created>, ApiError> {
    if !app.config.test_hooks {
        return Err(ApiError::NotFound("no such page".into()));
    }
    let Json(new) = body.map_err(|e| ApiError::BadRequest(e.body_text()))?;
    let players = new.record.players.len();
    if new.seats.len() != players {
        return Err(ApiError::BadRequest(format!(
            "seats: one per player of the record ({players}), not {}",
            new.seats.len()
        )));
    }
    let mut seats = Vec::with_capacity(players);
    for name in &new.seats {
        let user_id = match name {
            Some(n) => Some(
                app.store
                    .user_by_name(n)
                    .await?
                    .ok_or_else(|| ApiError::BadRequest(format!("seats: there is no account {n:?}")))?
                    .id,
            ),
            None => None,
        };
        seats.push(NewSeat { user_id, bot_level: user_id.is_none().then_some(1), invite_only: false });
    }
    let creator = seats
        .iter()
        .find_map(|s| s.user_id)
        .ok_or_else(|| ApiError::BadRequest("seats: name at least one account".into()))?;
    let record = new.record;
    let Stored { setup, actions, result } = app.views.run(move || replayed(record)).await??;
    let setup_text = serde_json::to_string(&setup).map_err(|e| ApiError::Internal(e.to_string()))?;
    let brief = serde_json::to_string(&setup.brief()).map_err(|e| ApiError::Internal(e.to_string()))?;
    let invite = if new.public { None } else { Some(crate::auth::new_token()?) };
    let id = app
        .store
        .insert_finished_game(&FinishedGame {
            creator,
            setup: &setup_text,
            brief: &brief,
            public: new.public,
            invite: invite.as_deref(),
            seats: &seats,
            actions: &actions,
            result: &result,
        })
        .await?;
    app.store.set_list_keys(id, &crate::store::ListKeys::of(&setup)).await?;
    Ok(Json(Created { id }))
}

/// A finished game as stored: its settings, its log (each action in the system's written form,
/// and when it was played) and its result.
struct Stored {
    setup: GameSetup,
    actions: Vec<(String, i64)>,
    result: String,
}

/// The game to store, from a record that must replay to a finished game as a server game
/// starts (an empty board, the first seat first).
fn replayed(record: Record) -> Result<Stored, ApiError> {
    if !record.setup.is_empty() || record.first.is_some_and(|f| f != 0) {
        return Err(ApiError::BadRequest(
            "record: server games start on an empty board with the first seat: no setup stones, no other first player"
                .into(),
        ));
    }
    let game = record.replay().map_err(|e| ApiError::BadRequest(format!("record: {e}")))?;
    let outcome = game.outcome().ok_or_else(|| {
        ApiError::BadRequest("record: the game is not over (a finished game is needed)".into())
    })?;
    let result = serde_json::to_string(outcome).map_err(|e| ApiError::Internal(e.to_string()))?;
    let now = crate::store::now_ms();
    let mut actions = Vec::with_capacity(game.input_count());
    for i in 0..game.input_count() {
        let Some((p, input)) = game.input(i) else { continue };
        let at_ms = record.actions.get(i).and_then(|a| a.at_ms).unwrap_or(now);
        let text = serde_json::to_string(&RecordedAction { player: p.0, at_ms: None, input })
            .map_err(|e| ApiError::Internal(e.to_string()))?;
        actions.push((text, at_ms));
    }
    let players = record.players.len();
    let setup = GameSetup {
        rules: record.rules,
        map: Arc::new(record.map),
        players,
        time: TimeControl::None,
        seats: vec![SeatChoice::Open; players],
        rated: false,
        rigged: Vec::new(),
        reserved: Vec::new(),
    };
    Ok(Stored { setup, actions, result })
}
