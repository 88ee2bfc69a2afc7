//! `GET /api/tournaments/{id}`: the tournament, its entrants, rounds with their games, the
//! standings and what the reader may do (docs/api.md "Tournaments").

use axum::{
    Json,
    extract::{Path, State},
};
use serde::Serialize;
use serde_json::Value;

use super::{Loaded, TournamentSummary, load, summary};
use crate::{AppState, auth::MaybeSession, error::ApiError, store::tournaments::EntrantRow};

#[derive(Debug, Serialize)]
pub struct EntrantView {
    pub id: i64,
    pub name: String,
    pub rating: f64,
    pub bot_level: Option<i64>,
    pub withdrawn_after: Option<i64>,
    pub user_id: Option<i64>,
}

#[derive(Debug, Serialize)]
pub struct TableView {
    pub table: i64,
    pub seats: Vec<i64>,
    pub game_id: Option<i64>,
    pub places: Option<Vec<u8>>,
}

#[derive(Debug, Serialize)]
pub struct RoundView {
    pub number: i64,
    pub tables: Vec<TableView>,
    pub byes: Vec<i64>,
    pub absent: Vec<i64>,
    pub started_ms: i64,
    pub finished_ms: Option<i64>,
}

#[derive(Debug, Serialize)]
pub struct TournamentView {
    pub summary: TournamentSummary,
    pub settings: Value,
    pub spec: Value,
    pub rules_text: Vec<String>,
    pub entrants: Vec<EntrantView>,
    pub rounds: Vec<RoundView>,
    pub standings: Value,
    pub crosstable: Vec<Vec<Value>>,
    pub may_join: bool,
    pub may_leave: bool,
    pub may_start: bool,
    pub why_not: Option<String>,
    /// An arena's window of play once it started (docs/tournaments.md "Arena").
    pub arena: Option<super::arena::Window>,
}

pub(super) fn entrant_view(e: &EntrantRow) -> EntrantView {
    EntrantView {
        id: e.id,
        name: e.name.clone(),
        rating: e.rating,
        bot_level: e.bot_level,
        withdrawn_after: e.withdrawn_after,
        user_id: e.user_id,
    }
}

/// The rounds as stored, each table with its game.
pub(super) async fn rounds(app: &AppState, id: i64) -> Result<Vec<RoundView>, ApiError> {
    let games = app.store.tournament_games(id).await?;
    let mut out = Vec::new();
    for row in app.store.tournament_rounds(id).await? {
        let round: Value = serde_json::from_str(&row.round).unwrap_or_default();
        let ids = |v: &Value| -> Vec<i64> {
            v.as_array().into_iter().flatten().filter_map(Value::as_i64).collect()
        };
        let tables = round["tables"].as_array().cloned().unwrap_or_default();
        let tables = tables
            .iter()
            .enumerate()
            .map(|(n, t)| TableView {
                table: n as i64 + 1,
                seats: ids(&t["seats"]),
                game_id: games.iter().find(|g| g.0 == row.number && g.1 == n as i64 + 1).map(|g| g.2),
                places: serde_json::from_value(round["results"][n]["places"].clone()).ok(),
            })
            .collect();
        out.push(RoundView {
            number: row.number,
            tables,
            byes: ids(&round["byes"]),
            absent: ids(&round["absent"]),
            started_ms: row.started_ms,
            finished_ms: row.finished_ms,
        });
    }
    Ok(out)
}

pub async fn view(
    State(app): State<AppState>,
    MaybeSession(session): MaybeSession,
    Path(id): Path<i64>,
) -> Result<Json<TournamentView>, ApiError> {
    let Loaded { row, settings } = load(&app, id).await?;
    let entrants = app.store.entrants(id).await?;
    let me = session.as_ref().map(|s| s.user.id);
    let mine = entrants.iter().find(|e| e.user_id.is_some() && e.user_id == me);
    let creator = me == Some(row.creator);
    if let Some(me) = me {
        // A reader of the page is present: not absent at a round start, waiting in an arena.
        crate::social::touch(&app, me).await;
    }
    let open = row.state == "open" || super::arena::late_entry(&row.state, &settings);
    let full = row.entrants >= row.max_entrants;
    let why_not = if session.is_none() {
        Some("sign in to join".to_string())
    } else if !open {
        Some(format!("the tournament is {}: entries are closed", row.state))
    } else if mine.is_some() {
        None
    } else if full {
        Some("the tournament is full".into())
    } else if settings.entry == "invitation" {
        Some("this tournament is by invitation".into())
    } else {
        None
    };
    let may_join = open && mine.is_none() && why_not.is_none();
    let may_leave =
        mine.is_some_and(|m| m.withdrawn_after.is_none()) && matches!(row.state.as_str(), "open" | "running");
    let mut shown = serde_json::to_value(&settings).map_err(|e| ApiError::Internal(e.to_string()))?;
    if !creator && let Some(map) = shown.as_object_mut() {
        // The invitation's token is for its creator to hand out.
        map.remove("invite");
    }
    let (standings, crosstable, rules_text) =
        super::director::standings_view(&settings, &entrants, &app, id).await?;
    Ok(Json(TournamentView {
        summary: summary(&row, &settings),
        settings: shown,
        spec: settings.spec(),
        rules_text,
        entrants: entrants.iter().map(entrant_view).collect(),
        rounds: rounds(&app, id).await?,
        standings,
        crosstable,
        may_join,
        may_leave,
        may_start: creator && row.state == "open" && row.entrants >= settings.min_entrants,
        why_not,
        arena: super::arena::window(&app, id, &settings).await?,
    }))
}
