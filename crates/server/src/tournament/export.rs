//! `GET /api/tournaments/{id}/export.json` and `export.csv`: the standings and every game with
//! its result, for organisers' own tools.

use axum::{
    Json,
    extract::{Path, State},
    http::header,
    response::{IntoResponse, Response},
};
use serde_json::{Value, json};

use super::{Loaded, load, summary, view};
use crate::{AppState, error::ApiError};

async fn gather(app: &AppState, id: i64) -> Result<Value, ApiError> {
    let Loaded { row, settings } = load(app, id).await?;
    let entrants = app.store.entrants(id).await?;
    let (standings, _, _) = super::director::standings_view(&settings, &entrants, app, id).await?;
    let entrant_views: Vec<_> = entrants.iter().map(view::entrant_view).collect();
    Ok(json!({
        "tournament": summary(&row, &settings),
        "entrants": entrant_views,
        "standings": standings,
        "rounds": view::rounds(app, id).await?,
    }))
}

pub async fn json(State(app): State<AppState>, Path(id): Path<i64>) -> Result<Json<Value>, ApiError> {
    Ok(Json(gather(&app, id).await?))
}

/// One CSV field, quoted when it holds a comma, a quote or a line break; a name starting like
/// a formula is opened by a quote mark, so that a spreadsheet shows it rather than runs it.
fn field(s: &str) -> String {
    let s = &if s.starts_with(['=', '+', '-', '@']) { format!("'{s}") } else { s.to_string() };
    if s.contains([',', '"', '\n', '\r']) { format!("\"{}\"", s.replace('"', "\"\"")) } else { s.to_string() }
}

pub async fn csv(State(app): State<AppState>, Path(id): Path<i64>) -> Result<Response, ApiError> {
    let all = gather(&app, id).await?;
    let name_of = |entrant: &Value| -> String {
        let id = entrant.as_i64();
        all["entrants"]
            .as_array()
            .into_iter()
            .flatten()
            .find(|e| e["id"].as_i64() == id)
            .and_then(|e| e["name"].as_str())
            .unwrap_or("?")
            .to_string()
    };
    let mut out = String::from("section,place,entrant,points,games,round,table,game,seats,places\n");
    for row in all["standings"]["rows"].as_array().into_iter().flatten() {
        out += &format!(
            "standings,{},{},{},{},,,,,\n",
            row["place"],
            field(&name_of(&row["entrant"])),
            row["points"],
            row["games"]
        );
    }
    for round in all["rounds"].as_array().into_iter().flatten() {
        for table in round["tables"].as_array().into_iter().flatten() {
            let seats: Vec<String> = table["seats"].as_array().into_iter().flatten().map(name_of).collect();
            let places: Vec<String> =
                table["places"].as_array().into_iter().flatten().map(|p| p.to_string()).collect();
            out += &format!(
                "game,,,,,{},{},{},{},{}\n",
                round["number"],
                table["table"],
                table["game_id"].as_i64().map(|g| g.to_string()).unwrap_or_default(),
                field(&seats.join(" / ")),
                field(&places.join(" / ")),
            );
        }
        // A bye or an absence (a forfeit loss) is a line of its own: no game was played.
        for (section, key) in [("bye", "byes"), ("forfeit", "absent")] {
            for entrant in round[key].as_array().into_iter().flatten() {
                out += &format!("{section},,{},,,{},,,,\n", field(&name_of(entrant)), round["number"]);
            }
        }
    }
    Ok(([(header::CONTENT_TYPE, "text/csv; charset=utf-8")], out).into_response())
}
