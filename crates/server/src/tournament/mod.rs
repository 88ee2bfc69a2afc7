//! Tournaments on the server (issue 44; docs/tournaments.md "Running a tournament on the
//! server", docs/api.md "Tournaments"): the endpoints, and the director ([`director`]) that
//! starts them, makes each round's games, reads their places and pairs the next round with the
//! pairing library. Everything is in the database (`store/tournaments.rs`), so a restart or
//! another instance carries on where the last director stopped.

mod arena;
mod checks;
pub mod create;
pub mod director;
mod entry;
mod export;
mod mcmahon;
mod notices;
mod rounds;
mod tables;
mod view;

use axum::{
    Json, Router,
    extract::{Query, State},
    routing::{get, post},
};
use serde::{Deserialize, Serialize};

use crate::{AppState, error::ApiError, store::tournaments::TournamentRow};
use create::NewTournament;

/// Tournaments one list shows at most.
const LIST_LIMIT: i64 = 100;

pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/api/tournaments", get(list).post(create::create))
        .route("/api/tournaments/{id}", get(view::view))
        .route("/api/tournaments/{id}/join", post(entry::join))
        .route("/api/tournaments/{id}/leave", post(entry::leave))
        .route("/api/tournaments/{id}/bots", post(entry::bots))
        .route("/api/tournaments/{id}/start", post(entry::start))
        .route("/api/tournaments/{id}/bye", post(entry::bye))
        .route("/api/tournaments/{id}/export.json", get(export::json))
        .route("/api/tournaments/{id}/export.csv", get(export::csv))
}

/// A tournament as lists show it.
#[derive(Debug, Clone, Serialize)]
pub struct TournamentSummary {
    pub id: i64,
    pub name: String,
    pub system: String,
    pub map: serde_json::Value,
    pub format: String,
    pub players_per_game: i64,
    pub rounds: i64,
    pub state: String,
    pub entrants: i64,
    pub max_entrants: i64,
    pub start_ms: Option<i64>,
    pub creator: String,
    pub time_control_text: String,
}

/// A stored tournament with its settings read.
pub(crate) struct Loaded {
    pub row: TournamentRow,
    pub settings: NewTournament,
}

pub(crate) async fn load(app: &AppState, id: i64) -> Result<Loaded, ApiError> {
    let Some(row) = app.store.tournament(id).await? else {
        return Err(ApiError::NotFound(format!("there is no tournament {id}")));
    };
    let settings = serde_json::from_str(&row.settings)
        .map_err(|e| ApiError::Internal(format!("tournament {id}'s settings do not read: {e}")))?;
    Ok(Loaded { row, settings })
}

fn summary(row: &TournamentRow, settings: &NewTournament) -> TournamentSummary {
    let map = match &settings.map {
        serde_json::Value::String(s) => serde_json::Value::String(s.clone()),
        _ => serde_json::Value::String("custom map".into()),
    };
    TournamentSummary {
        id: row.id,
        name: row.name.clone(),
        system: settings.system.clone(),
        map,
        format: settings.format.clone(),
        players_per_game: settings.players_per_game,
        rounds: settings.rounds,
        state: row.state.clone(),
        entrants: row.entrants,
        max_entrants: row.max_entrants,
        start_ms: row.start_ms,
        creator: row.creator_name.clone(),
        time_control_text: time_text(&settings.time_control),
    }
}

/// A time control in a few words for lists ("10 min + 5 s").
fn time_text(time: &serde_json::Value) -> String {
    let Some(control) = time_control(time) else { return "no clock".into() };
    let min = |s: f64| {
        if s >= 86_400.0 {
            format!("{} d", (s / 86_400.0).round())
        } else if s >= 60.0 {
            format!("{} min", (s / 60.0).round())
        } else {
            format!("{s} s")
        }
    };
    use crate::setup::TimeControl as T;
    match control {
        T::None => "no clock".into(),
        T::Absolute { main_seconds } => min(main_seconds),
        T::Fischer { main_seconds, increment_seconds, .. } => {
            format!("{} + {}", min(main_seconds), min(increment_seconds))
        }
        T::ByoYomi { main_seconds, periods, period_seconds } => {
            format!("{} + {periods} × {}", min(main_seconds), min(period_seconds))
        }
        T::Canadian { main_seconds, stones, period_seconds } => {
            format!("{} + {stones} moves in {}", min(main_seconds), min(period_seconds))
        }
        T::Simple { move_seconds } => format!("{} a move", min(move_seconds)),
        T::Correspondence { move_seconds, .. } => format!("correspondence, {} a move", min(move_seconds)),
    }
}

/// The time control of the settings, when it reads.
pub(crate) fn time_control(time: &serde_json::Value) -> Option<crate::setup::TimeControl> {
    let choice = match time {
        serde_json::Value::String(s) if s == "none" => return Some(crate::setup::TimeControl::None),
        other => serde_json::from_value::<crate::setup::TimeChoice>(other.clone()).ok()?,
    };
    choice.resolve().ok()
}

/// A server bot's rating for seeding: the default rating, and more with each level.
pub fn bot_rating(level: i64) -> f64 {
    f64::from(crate::rating::Rating::default().value()) + 100.0 * (level as f64 - 5.0)
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ListQuery {
    #[serde(default)]
    pub state: Option<String>,
}

async fn list(
    State(app): State<AppState>,
    Query(q): Query<ListQuery>,
) -> Result<Json<serde_json::Value>, ApiError> {
    let state = q.state.unwrap_or_else(|| "open".into());
    if !matches!(state.as_str(), "open" | "running" | "finished" | "cancelled") {
        return Err(ApiError::BadRequest(format!(
            "state: open, running, finished or cancelled, not {state:?}"
        )));
    }
    let rows = app.store.tournaments(&state, LIST_LIMIT).await?;
    let mut out = Vec::with_capacity(rows.len());
    for row in &rows {
        // One whose settings no longer read is left out of lists rather than failing them.
        if let Ok(settings) = serde_json::from_str::<NewTournament>(&row.settings) {
            out.push(summary(row, &settings));
        }
    }
    Ok(Json(serde_json::json!({ "tournaments": out })))
}

/// The format, points and tie-breaks in plain words, for the tournament's page.
pub(crate) fn rules_text(settings: &NewTournament) -> Vec<String> {
    let n = settings.players_per_game;
    let mut out = vec![match settings.format.as_str() {
        "round_robin" => format!("Round robin: every entrant meets every other, {n} at a table."),
        "swiss" => format!(
            "Swiss, {} rounds: each round pairs entrants with equal scores, {n} at a table, never the same opponents twice when it can be helped.",
            settings.rounds
        ),
        "mcmahon" => mcmahon::rules_line(settings),
        "single_elimination" if n > 2 => format!(
            "Knockout, {n} at a table: the best {} of each table go on (more when fewer than {n} would be left), until {n} play the final table; a place shared at the cut goes to the higher seed.",
            settings.advance.unwrap_or(1)
        ),
        "single_elimination" => format!("Knockout: the winner of each table goes on, {n} at a table."),
        "double_elimination" => "Double knockout: an entrant is out after losing twice.".to_string(),
        _ => "Arena: a new table as soon as enough entrants are waiting.".to_string(),
    }];
    let points = if settings.points.is_empty() {
        (0..n).rev().map(|p| p.to_string()).collect::<Vec<_>>().join(", ")
    } else {
        settings.points.iter().map(f64::to_string).collect::<Vec<_>>().join(", ")
    };
    out.push(format!("Points by place, first to last: {points}. Shared places share their points."));
    out.push(
        "An entrant absent when a round starts loses that game by forfeit; a bye scores the points of a middle place."
            .into(),
    );
    out.push(if n == 2 {
        "Ties on points are broken by the opponents' scores (SOS), then SODOS, then the game between them."
            .into()
    } else {
        "Ties on points are broken by the tablemates' scores, then by the points scored against each other."
            .into()
    });
    out
}
