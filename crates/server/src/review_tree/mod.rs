//! The review tree of a finished game (issue 43; `docs/api.md`, "Review tree"): its main line
//! with move numbers, variations played from any node, and comments on any node, stored with the
//! game (`store::review_tree`). The game's players may add to it, and for games that are not
//! invite-only any signed-in account; every addition is bounded per game and per author
//! (`docs/security.md`).

mod comments;
mod play;

use std::collections::HashMap;

use axum::{
    Json, Router,
    extract::State,
    routing::{get, post},
};
use gobeyond_rules::{
    record::{Record, RecordedAction},
    registry::Object,
    tree::{self, Comment, NodeRef, VariationNode},
};
use serde::Serialize;

use crate::{
    AppState,
    auth::{MaybeSession, Session},
    error::ApiError,
    http::{self, Readable},
    store::{GameRow, TreeCaps},
};

pub use play::state_of_variation;

/// At most this many variation nodes per game, and per author per game.
pub const VARIATION_CAPS: TreeCaps = TreeCaps { per_game: 1_000, per_author: 200 };
/// At most this many comments per game, and per author per game.
pub const COMMENT_CAPS: TreeCaps = TreeCaps { per_game: 300, per_author: 60 };

pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/api/games/{id}/tree", get(review_tree))
        .route("/api/games/{id}/variations", post(play::add_variation))
        .route("/api/games/{id}/comments", post(comments::add_comment))
}

/// One action of the main line, numbered as the game counts moves.
#[derive(Debug, Serialize)]
pub struct MainMove {
    pub at: usize,
    pub player: u8,
    pub input: Object,
    pub move_number: Option<u32>,
    pub at_ms: Option<i64>,
}

/// A variation node with its move number.
#[derive(Debug, Serialize)]
pub struct NumberedVariation {
    #[serde(flatten)]
    pub node: VariationNode,
    pub move_number: Option<u32>,
}

/// `GET /api/games/{id}/tree`.
#[derive(Debug, Serialize)]
pub struct ReviewTree {
    pub total: usize,
    pub moves: Vec<MainMove>,
    pub variations: Vec<NumberedVariation>,
    pub comments: Vec<Comment>,
    pub may_edit: bool,
    pub why_not: Option<String>,
}

/// The tree exists for finished games only (abandoned ones included): a live game's players
/// must not explore its future in public.
fn finished(row: &GameRow) -> Result<(), ApiError> {
    if row.status != "finished" {
        return Err(ApiError::Conflict("the game is not over: its review opens when it ends".into()));
    }
    Ok(())
}

/// Why `session` may not add to game `row`'s tree, if it may not: the game's players may, and
/// for games that are not invite-only any signed-in account.
async fn why_not_edit(
    app: &AppState,
    row: &GameRow,
    session: Option<&Session>,
) -> Result<Option<String>, ApiError> {
    if row.status != "finished" {
        return Ok(Some("the game is not over: its review opens when it ends".into()));
    }
    let Some(session) = session else {
        return Ok(Some("sign in to add variations and comments".into()));
    };
    if row.public {
        return Ok(None);
    }
    let seated = app.store.seats(row.id).await?.iter().any(|s| s.user_id == Some(session.user.id));
    Ok((!seated).then(|| "only the players may add variations and comments to an invite-only game".into()))
}

/// The game's record with its tree (variations and comments), as the export writes it.
pub async fn with_tree(app: &AppState, row: &GameRow, mut record: Record) -> Result<Record, ApiError> {
    if row.status != "finished" {
        return Ok(record);
    }
    let bad =
        |e: serde_json::Error| ApiError::Internal(format!("game {}: an unreadable tree node: {e}", row.id));
    for v in app.store.variations(row.id).await? {
        record.variations.push(VariationNode {
            id: v.id,
            parent: serde_json::from_str(&v.parent).map_err(bad)?,
            player: v.player,
            input: serde_json::from_str(&v.input).map_err(bad)?,
            author: v.author,
        });
    }
    for c in app.store.review_comments(row.id).await? {
        record.comments.push(Comment {
            id: c.id,
            node: serde_json::from_str(&c.node).map_err(bad)?,
            author: c.author,
            text: c.text,
            at_ms: c.at_ms,
        });
    }
    Ok(record)
}

/// Whether `node` is in the tree.
fn has_node(record: &Record, node: NodeRef) -> bool {
    match node {
        NodeRef::At(k) => (k as usize) <= record.actions.len(),
        NodeRef::Var(id) => record.variations.iter().any(|v| v.id == id),
    }
}

/// The actions from the start to `node`: the main line's first k, then each variation down.
fn path_to(record: &Record, node: NodeRef) -> Result<Vec<RecordedAction>, ApiError> {
    let by_id: HashMap<u32, &VariationNode> = record.variations.iter().map(|v| (v.id, v)).collect();
    let mut chain = Vec::new();
    let mut at = node;
    let main = loop {
        match at {
            NodeRef::At(k) => break k as usize,
            NodeRef::Var(id) => {
                let v = by_id
                    .get(&id)
                    .ok_or_else(|| ApiError::NotFound(format!("there is no variation {id}")))?;
                chain.push(*v);
                at = v.parent;
                if chain.len() > by_id.len() {
                    return Err(ApiError::Internal("the tree has a cycle".into()));
                }
            }
        }
    };
    let mut path = record
        .actions
        .get(..main)
        .ok_or_else(|| {
            ApiError::NotFound(format!("the game has {} actions, not {main}", record.actions.len()))
        })?
        .to_vec();
    path.extend(chain.iter().rev().map(|v| RecordedAction {
        player: v.player,
        at_ms: None,
        input: v.input.clone(),
    }));
    Ok(path)
}

/// `GET /api/games/{id}/tree`: the main line and the variations with their move numbers, the
/// comments, and whether the reader may add to them.
pub async fn review_tree(
    State(app): State<AppState>,
    MaybeSession(session): MaybeSession,
    Readable(row): Readable,
) -> Result<Json<ReviewTree>, ApiError> {
    finished(&row)?;
    let record = with_tree(&app, &row, http::record_of(&app, &row).await?).await?;
    let why_not = why_not_edit(&app, &row, session.as_ref()).await?;
    let tree = app
        .views
        .run(move || {
            let game = record.new_game().map_err(|e| ApiError::Internal(e.to_string()))?;
            let actions: Vec<(u8, &Object)> = record.actions.iter().map(|a| (a.player, &a.input)).collect();
            let (main, numbers) = tree::number_tree(game, &actions, &record.variations);
            let moves = record
                .actions
                .iter()
                .enumerate()
                .map(|(at, a)| MainMove {
                    at,
                    player: a.player,
                    input: a.input.clone(),
                    move_number: main.get(at).copied().flatten(),
                    at_ms: a.at_ms,
                })
                .collect();
            let variations = record
                .variations
                .iter()
                .zip(numbers)
                .map(|(v, move_number)| NumberedVariation { node: v.clone(), move_number })
                .collect();
            Ok::<_, ApiError>(ReviewTree {
                total: record.actions.len(),
                moves,
                variations,
                comments: record.comments,
                may_edit: false,
                why_not: None,
            })
        })
        .await??;
    Ok(Json(ReviewTree { may_edit: why_not.is_none(), why_not, ..tree }))
}
