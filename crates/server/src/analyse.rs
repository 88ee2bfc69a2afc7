//! The free board (“analyse from here”, `docs/api.md`): `POST /api/analyse` plays a record's
//! actions and, optionally, one more input of any seat, through the rule system, and answers
//! with the position. Stateless: nothing is stored; bounded: the body (the server's 1 MB),
//! the actions, the map's nodes, and the work on the view workers.

use std::sync::Arc;

use axum::{Json, Router, extract::State, routing::post};
use gobeyond_maps::{Map, generate_within};
use gobeyond_rules::{
    Player, Rng, Viewer,
    record::{FORMAT, MapSource, OLDEST_VERSION, Record, RecordedAction, VERSION},
    registry::Object,
    tree,
};
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;

use crate::{AppState, error::ApiError, setup::MAX_NODES, views::MapView};

/// The most actions a free board's record may have.
pub const MAX_ACTIONS: usize = 5_000;

pub fn routes() -> Router<AppState> {
    Router::new().route("/api/analyse", post(analyse))
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AnalyseBody {
    /// Version 1 or 2; its actions are the position.
    pub record: Record,
    #[serde(default)]
    pub input: Option<Object>,
    /// The seat that plays `input`, needed only where several seats act at once (or to act out
    /// of turn where the rules allow it).
    #[serde(default)]
    pub player: Option<u8>,
    #[serde(default)]
    pub with_map: bool,
}

#[derive(Debug, Serialize)]
pub struct Analysed {
    pub record: Record,
    pub state: Box<RawValue>,
    pub total: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub map: Option<MapView>,
}

/// `POST /api/analyse {"record": ..., "input"?: ..., "player"?: 0, "with_map"?: true}`.
pub async fn analyse(
    State(app): State<AppState>,
    body: Result<Json<AnalyseBody>, axum::extract::rejection::JsonRejection>,
) -> Result<Json<Analysed>, ApiError> {
    let Json(body) = body.map_err(|e| ApiError::BadRequest(e.body_text()))?;
    let r = &body.record;
    if r.format != FORMAT || !(OLDEST_VERSION..=VERSION).contains(&r.version) {
        return Err(ApiError::BadRequest(format!(
            "record: not a {FORMAT:?} of version {OLDEST_VERSION} to {VERSION} (format {:?}, version {})",
            r.format, r.version
        )));
    }
    if r.actions.len() > MAX_ACTIONS {
        return Err(ApiError::BadRequest(format!(
            "record: at most {MAX_ACTIONS} actions on a free board, not {}",
            r.actions.len()
        )));
    }
    tree::check_shape(r.actions.len(), &r.variations, &r.comments)
        .map_err(|e| ApiError::BadRequest(format!("record: {e}")))?;
    let seed = {
        let mut b = [0u8; 8];
        getrandom::fill(&mut b).map_err(|e| ApiError::Internal(format!("no randomness: {e}")))?;
        u64::from_le_bytes(b)
    };
    Ok(Json(app.views.run(move || play(body, seed)).await??))
}

/// The record's map, within the node limit of server games.
fn load_map(source: &MapSource) -> Result<Map, ApiError> {
    let bad = |e: String| ApiError::BadRequest(format!("record: the map: {e}"));
    let map = match source {
        MapSource::Spec(s) if s.len() > 200 => return Err(bad("a spec has at most 200 characters".into())),
        MapSource::Spec(s) => generate_within(s, MAX_NODES).map_err(|e| bad(e.to_string()))?,
        MapSource::Custom(c) => c.clone().build().map_err(|e| bad(e.to_string()))?,
    };
    if map.len() > MAX_NODES {
        return Err(bad(format!("{} nodes; at most {MAX_NODES}", map.len())));
    }
    Ok(map)
}

fn play(body: AnalyseBody, seed: u64) -> Result<Analysed, ApiError> {
    let AnalyseBody { mut record, input, player, with_map } = body;
    let map = Arc::new(load_map(&record.map)?);
    let info = record.rules.info().map_err(|e| ApiError::BadRequest(format!("record: {e}")))?;
    let mut game = info
        .start(map.clone(), record.players.len(), &record.rules.settings, &record.start())
        .map_err(|e| ApiError::BadRequest(format!("record: {e}")))?;
    for (index, a) in record.actions.iter().enumerate() {
        game.submit(Player(a.player), &a.input).map_err(|r| {
            ApiError::BadRequest(format!("record: action #{index} (player {}): {}", a.player, r.message))
        })?;
    }
    if let Some(input) = input {
        let turn = game.turn();
        let (seat, input) = if turn.chance.is_some() {
            game.draw_chance(&mut Rng::new(seed))
                .ok_or_else(|| ApiError::Internal("the position waits for chance but none is drawn".into()))?
        } else {
            let seat = match (player, turn.seats.as_slice()) {
                (Some(p), _) => Player(p),
                (None, [only]) => *only,
                (None, []) => return Err(ApiError::BadRequest("the game is over: no move follows".into())),
                (None, _) => {
                    return Err(ApiError::BadRequest(
                        "player: several seats act at this position: say which one plays".into(),
                    ));
                }
            };
            (seat, input)
        };
        game.submit(seat, &input).map_err(ApiError::Refused)?;
        let written = game.input(game.input_count().saturating_sub(1)).map_or(input, |(_, i)| i);
        record.actions.push(RecordedAction { player: seat.0, at_ms: None, input: written });
    }
    let state = game.view(Viewer::Spectator, &record.players, true);
    Ok(Analysed { total: record.actions.len(), map: with_map.then(|| MapView::of(&map)), state, record })
}
