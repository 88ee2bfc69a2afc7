//! Variations: a move played from any node of a finished game's tree, checked by the rule
//! system as live play is (on the bounded view workers), and the position at a variation node.

use axum::{Json, extract::State};
use gobeyond_rules::{
    Player, Rng, Viewer,
    record::{Record, RecordedAction},
    registry::Object,
    tree::{MoveCounter, NodeRef, VariationNode},
};
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;

use super::{NumberedVariation, VARIATION_CAPS, finished, has_node, path_to, why_not_edit, with_tree};
use crate::{
    AppState,
    auth::Session,
    error::ApiError,
    http::{self, Readable},
    protocol::StateAt,
    store::{Added, GameRow, StoredVariation},
};

/// The largest variation input, in bytes of JSON.
pub const MAX_INPUT_BYTES: usize = 2048;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewVariation {
    pub parent: NodeRef,
    pub input: Object,
    /// The seat that plays, needed only where several seats act at once.
    #[serde(default)]
    pub player: Option<u8>,
}

#[derive(Debug, Serialize)]
pub struct VariationAdded {
    pub node: NumberedVariation,
    pub state: Box<RawValue>,
}

/// A move played from a node: who played what (in the system's written form), its number,
/// and the position after it.
struct Played {
    player: u8,
    input: Object,
    move_number: Option<u32>,
    state: Box<RawValue>,
}

/// `POST /api/games/{id}/variations {"parent": {"at": 12}, "input": {...}}`.
pub async fn add_variation(
    State(app): State<AppState>,
    session: Session,
    Readable(row): Readable,
    body: Result<Json<NewVariation>, axum::extract::rejection::JsonRejection>,
) -> Result<Json<VariationAdded>, ApiError> {
    let Json(new) = body.map_err(|e| ApiError::BadRequest(e.body_text()))?;
    finished(&row)?;
    if let Some(why) = why_not_edit(&app, &row, Some(&session)).await? {
        return Err(ApiError::Forbidden(why));
    }
    let size = serde_json::to_string(&new.input).map_or(usize::MAX, |t| t.len());
    if size > MAX_INPUT_BYTES {
        return Err(ApiError::BadRequest(format!(
            "input: at most {MAX_INPUT_BYTES} bytes of JSON, not {size}"
        )));
    }
    let record = with_tree(&app, &row, http::record_of(&app, &row).await?).await?;
    if !has_node(&record, new.parent) {
        return Err(ApiError::NotFound("the parent node is not in this game's tree".into()));
    }
    let seed = {
        let mut b = [0u8; 8];
        getrandom::fill(&mut b).map_err(|e| ApiError::Internal(format!("no randomness: {e}")))?;
        u64::from_le_bytes(b)
    };
    let parent = new.parent;
    let played = app.views.run(move || play(&record, &new, seed)).await??;
    let stored = StoredVariation {
        id: 0,
        parent: text(&parent),
        player: played.player,
        input: text(&played.input),
        author: Some(session.user.name.clone()),
    };
    let id = match app.store.add_variation(row.id, session.user.id, &stored, VARIATION_CAPS).await? {
        Added::New(id) | Added::Existing(id) => id,
    };
    // The existing node for the same move keeps its first author.
    let author = app.store.variations(row.id).await?.into_iter().find(|v| v.id == id).and_then(|v| v.author);
    let node = VariationNode { id, parent, player: played.player, input: played.input, author };
    Ok(Json(VariationAdded {
        node: NumberedVariation { node, move_number: played.move_number },
        state: played.state,
    }))
}

/// JSON text of node references and inputs, as stored and compared for duplicates.
fn text<T: Serialize>(value: &T) -> String {
    serde_json::to_string(value).unwrap_or_default()
}

/// Replays to the parent and plays the input there (or, where the position waits for chance,
/// the server's draw), through the rule system.
fn play(record: &Record, new: &NewVariation, seed: u64) -> Result<Played, ApiError> {
    let path = path_to(record, new.parent)?;
    let mut game = record.new_game().map_err(|e| ApiError::Internal(e.to_string()))?;
    let mut counter = MoveCounter::default();
    for a in &path {
        counter.next(&game.turn(), a.player);
        game.submit(Player(a.player), &a.input).map_err(|e| ApiError::Internal(e.message))?;
    }
    let turn = game.turn();
    let (seat, input) = if turn.chance.is_some() {
        let drawn = game.draw_chance(&mut Rng::new(seed));
        drawn.ok_or_else(|| ApiError::Internal("the position waits for chance but none is drawn".into()))?
    } else {
        let seat = match (new.player, turn.seats.as_slice()) {
            (Some(p), _) => Player(p),
            (None, [only]) => *only,
            (None, []) => {
                return Err(ApiError::BadRequest(
                    "the game is over at this position: no move follows".into(),
                ));
            }
            (None, _) => {
                return Err(ApiError::BadRequest(
                    "player: several seats act at this position: say which one plays".into(),
                ));
            }
        };
        (seat, new.input.clone())
    };
    let move_number = counter.next(&turn, seat.0);
    game.submit(seat, &input).map_err(ApiError::Refused)?;
    // Stored in the system's own written form, so that the same move sent differently is one node.
    let input = game.input(game.input_count().saturating_sub(1)).map_or(input, |(_, i)| i);
    let state = game.view(Viewer::Spectator, &record.players, true);
    Ok(Played { player: seat.0, input, move_number, state })
}

/// `GET /api/games/{id}/state?var=ID`: the position at variation node `id`, as `?at=` gives
/// one of the main line (`at`: its depth in actions, `action`: its input).
pub async fn state_of_variation(app: &AppState, row: &GameRow, id: u32) -> Result<StateAt, ApiError> {
    finished(row)?;
    let record = with_tree(app, row, http::record_of(app, row).await?).await?;
    let total = record.actions.len();
    let path = path_to(&record, NodeRef::Var(id))?;
    app.views
        .run(move || {
            let mut game = record.new_game().map_err(|e| ApiError::Internal(e.to_string()))?;
            for a in &path {
                game.submit(Player(a.player), &a.input).map_err(|e| ApiError::Internal(e.message))?;
            }
            let state = game.view(Viewer::Spectator, &record.players, true);
            let action: Option<RecordedAction> = path.last().cloned();
            Ok(StateAt { at: path.len(), total, action, state })
        })
        .await?
}
