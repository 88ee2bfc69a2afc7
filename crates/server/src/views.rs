//! Read-only views the web client draws from: a map's geometry (for previews and boards), the
//! rule systems with their defaults and documents, and a finished or live game at any step (for
//! review). Handlers only: the geometry comes from the maps crate, states from the engine.

use axum::{
    Json,
    extract::{Path, Query, State},
    http::{HeaderValue, header},
    response::{IntoResponse, Response},
};
use gobeyond_maps::{Map, generate_within};
use gobeyond_rules::{AnyGame, SYSTEMS, SystemInfo, Viewer};
use serde::{Deserialize, Serialize};

use crate::{
    AppState,
    error::ApiError,
    http,
    protocol::{PresetView, RuleSystemView, RuleSystems, StateAt},
    setup::MAX_NODES,
};

/// What a client needs to draw a map: coordinates (rounded: drawing does not need more), labels,
/// edges, and the grid shape when the map is a (possibly wrapped) grid.
#[derive(Debug, Serialize)]
pub struct MapView {
    pub name: String,
    pub spec: String,
    /// 2 for maps drawn in the plane, 3 for maps drawn in space.
    pub dimension: u8,
    pub nodes: usize,
    pub x: Vec<f32>,
    pub y: Vec<f32>,
    /// Empty for flat maps.
    pub z: Vec<f32>,
    pub labels: Vec<String>,
    pub edges: Vec<[u32; 2]>,
    /// Grid maps number their nodes row by row: node = row × width + column.
    pub grid: Option<GridView>,
    /// Where the first stones are best placed, one per seat (most players first).
    pub start_points: Vec<u32>,
    /// Whether the map has straight lines (The Way of Go and BeSiege need them): the lobby
    /// says so before a game is created.
    pub straight_lines: bool,
}

#[derive(Debug, Serialize)]
pub struct GridView {
    pub width: u32,
    pub height: u32,
    /// True when edges cross the rectangle's sides (torus, cylinder, Klein bottle).
    pub wrap: bool,
}

impl MapView {
    pub fn of(map: &Map) -> MapView {
        let round = |v: f64| ((v * 1e4).round() / 1e4) as f32;
        let coords = map.coords();
        let spatial = map.dimension() >= 3;
        MapView {
            name: map.name().to_string(),
            spec: map.spec().to_string(),
            dimension: if spatial { 3 } else { 2 },
            nodes: map.len(),
            x: coords.iter().map(|c| round(c[0])).collect(),
            y: coords.iter().map(|c| round(c[1])).collect(),
            z: if spatial { coords.iter().map(|c| round(c[2])).collect() } else { Vec::new() },
            labels: map.nodes().map(|v| map.label(v).to_string()).collect(),
            edges: map.edges().map(|(a, b)| [a, b]).collect(),
            grid: map.grid().map(|g| GridView { width: g.width, height: g.height, wrap: !g.plain }),
            start_points: map.declared_start_points().to_vec(),
            straight_lines: map.lines().is_some_and(|l| l.directions() > 0),
        }
    }
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PreviewQuery {
    spec: String,
}

/// `GET /api/maps/preview?spec=hex:5`: the map a generator spec makes, for the lobby's live
/// preview. The same node limit as games, so that what previews can be played.
pub async fn preview(
    State(app): State<AppState>,
    Query(q): Query<PreviewQuery>,
) -> Result<Response, ApiError> {
    let spec = q.spec;
    if spec.len() > 200 {
        return Err(ApiError::BadRequest("map: a spec has at most 200 characters".into()));
    }
    let map = app
        .views
        .run(move || generate_within(&spec, MAX_NODES))
        .await?
        .map_err(|e| ApiError::BadRequest(format!("map: {e}")))?;
    if map.len() > MAX_NODES {
        return Err(ApiError::BadRequest(format!(
            "the map has {} nodes; server games allow at most {MAX_NODES}",
            map.len()
        )));
    }
    Ok(cached(Json(MapView::of(&map))))
}

/// `GET /api/games/{id}/map`: the game's map.
pub async fn game_map(
    State(app): State<AppState>,
    http::Readable(row): http::Readable,
) -> Result<Response, ApiError> {
    let id = row.id;
    let setup = http::setup_of(&row)?;
    let view = app
        .views
        .run(move || setup.map.load().map(|m| MapView::of(&m)))
        .await?
        .map_err(|e| ApiError::Internal(format!("game {id}: {e}")))?;
    // Private games' maps are not for shared caches.
    Ok(if row.public { cached(Json(view)) } else { Json(view).into_response() })
}

/// Maps never change, so browsers may keep them.
fn cached(body: impl IntoResponse) -> Response {
    let mut r = body.into_response();
    r.headers_mut().insert(header::CACHE_CONTROL, HeaderValue::from_static("public, max-age=3600"));
    r
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StepQuery {
    #[serde(default)]
    at: Option<usize>,
    /// A variation node of the review tree instead of a main-line position.
    #[serde(default)]
    var: Option<u32>,
    /// Read by [`http::Readable`]; listed so that the strict query accepts it.
    #[serde(default)]
    #[allow(dead_code)]
    invite: Option<String>,
}

/// `GET /api/games/{id}/state?at=N`: the state after the first N actions, with the N-th action,
/// for stepping through a game; `?var=ID`: the state at a variation node of a finished game's
/// review tree ([`crate::review_tree`]).
pub async fn state_at(
    State(app): State<AppState>,
    http::Readable(row): http::Readable,
    Query(q): Query<StepQuery>,
) -> Result<Json<StateAt>, ApiError> {
    let at = match (q.at, q.var) {
        (Some(at), None) => at,
        (None, Some(var)) => return Ok(Json(crate::review_tree::state_of_variation(&app, &row, var).await?)),
        _ => {
            return Err(ApiError::BadRequest(
                "give either at (a main-line position) or var (a variation)".into(),
            ));
        }
    };
    let mut record = http::record_of(&app, &row).await?;
    let total = record.actions.len();
    if at > total {
        return Err(ApiError::BadRequest(format!("at = {at} but the game has {total} actions")));
    }
    record.actions.truncate(at);
    let last = record.actions.last().cloned();
    let players = record.players.clone();
    let state = app
        .views
        .run(move || record.replay().map(|g: AnyGame| g.view(Viewer::Spectator, &players, true)))
        .await?
        .map_err(|e| ApiError::Internal(e.to_string()))?;
    Ok(Json(StateAt { at, total, action: last, state }))
}

/// `GET /api/rules`: the rule systems a game can be created with: their default settings,
/// presets, and a description of every setting (the lobby builds its form from it).
pub async fn rules() -> Json<RuleSystems> {
    let systems = SYSTEMS
        .iter()
        .map(|s| RuleSystemView {
            name: s.name.into(),
            title: s.title.into(),
            about: s.about.into(),
            defaults: s.default_settings(),
            presets: s
                .presets()
                .iter()
                .filter_map(|p| {
                    s.preset(p.name).map(|r| PresetView {
                        name: p.name.into(),
                        about: p.description.into(),
                        timed: s.clock(&r.settings).is_some_and(|c| c.turn_ms > 0 || c.decision_ms > 0),
                        settings: r.settings,
                    })
                })
                .collect(),
            settings: s.describe_settings(),
            own_clock: s.clock(&s.default_settings()).is_some(),
        })
        .collect();
    Json(RuleSystems { systems })
}

/// Where a passage for developers (code paths, tests) begins and ends in a rules document:
/// GitHub and editors show it, the players' page leaves it out.
const DEVELOPERS: &str = "<!-- developers -->";
const DEVELOPERS_END: &str = "<!-- /developers -->";

/// A rules document without its passages for developers (an unclosed one runs to the end).
fn for_players(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(start) = rest.find(DEVELOPERS) {
        out.push_str(&rest[..start]);
        let after = &rest[start + DEVELOPERS.len()..];
        rest = after.find(DEVELOPERS_END).map_or("", |end| &after[end + DEVELOPERS_END.len()..]);
    }
    out.push_str(rest);
    out
}

/// A rules document as the players' HTML page.
fn document_html(text: &str) -> String {
    let text = for_players(text);
    let mut html = String::new();
    pulldown_cmark::html::push_html(
        &mut html,
        pulldown_cmark::Parser::new_ext(&text, pulldown_cmark::Options::ENABLE_TABLES),
    );
    html
}

/// `GET /api/rules/{system}/doc`: the rules as implemented (`docs/rules/`), as HTML for
/// players: without the passages for developers.
pub async fn rules_doc(Path(system): Path<String>) -> Result<Response, ApiError> {
    let text = SystemInfo::get(&system).map(|s| s.document).ok_or_else(|| {
        ApiError::NotFound(format!("no rules document for {system:?}: {}", SystemInfo::names()))
    })?;
    let mut r = document_html(text).into_response();
    r.headers_mut().insert(header::CONTENT_TYPE, HeaderValue::from_static("text/html; charset=utf-8"));
    Ok(r)
}

#[cfg(test)]
mod tests {
    use super::{SYSTEMS, document_html, for_players};

    #[test]
    fn developer_passages_are_left_out() {
        assert_eq!(for_players("a <!-- developers -->b<!-- /developers --> c"), "a  c");
        assert_eq!(for_players("a <!-- developers -->b"), "a ", "an unclosed passage runs to the end");
        assert_eq!(for_players("no marks"), "no marks");
    }

    /// Players never read the code's paths (issue 41, item 12): every document marks them.
    #[test]
    fn players_pages_name_no_code() {
        for s in SYSTEMS {
            let html = document_html(s.document);
            for word in ["crates/", "shared/", "web/src", ".rs<", ".ts<", "tests/"] {
                assert!(!html.contains(word), "{}'s rules page shows {word:?}", s.name);
            }
        }
    }
}
