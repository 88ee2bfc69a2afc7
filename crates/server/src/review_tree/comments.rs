//! Comments on the nodes of a finished game's tree, bounded in length and in number per game
//! and per author (`docs/security.md`).

use axum::{Json, extract::State};
use gobeyond_rules::tree::{Comment, NodeRef};
use serde::{Deserialize, Serialize};

use super::{COMMENT_CAPS, finished, has_node, why_not_edit, with_tree};
use crate::{
    AppState,
    auth::Session,
    error::ApiError,
    http::{self, Readable},
};

/// The longest comment, in characters and in bytes (four per character at most).
pub const MAX_COMMENT_CHARS: usize = 1_000;
pub const MAX_COMMENT_BYTES: usize = 4_000;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewComment {
    pub node: NodeRef,
    pub text: String,
}

#[derive(Debug, Serialize)]
pub struct CommentAdded {
    pub comment: Comment,
}

/// `POST /api/games/{id}/comments {"node": {"at": 12}, "text": "..."}`.
pub async fn add_comment(
    State(app): State<AppState>,
    session: Session,
    Readable(row): Readable,
    body: Result<Json<NewComment>, axum::extract::rejection::JsonRejection>,
) -> Result<Json<CommentAdded>, ApiError> {
    let Json(new) = body.map_err(|e| ApiError::BadRequest(e.body_text()))?;
    // A comment is public text: not from a muted account.
    crate::moderation::may_chat(&session.standing)?;
    finished(&row)?;
    if let Some(why) = why_not_edit(&app, &row, Some(&session)).await? {
        return Err(ApiError::Forbidden(why));
    }
    // As chat lines are cleaned (invisible and direction-changing characters dropped), line by
    // line: a comment may have several.
    let cleaned = new.text.split('\n').map(crate::table::chat::clean).collect::<Vec<_>>().join("\n");
    let text = cleaned.trim();
    let chars = text.chars().count();
    if chars == 0 {
        return Err(ApiError::BadRequest("text: write something first (the comment is empty)".into()));
    }
    if chars > MAX_COMMENT_CHARS || text.len() > MAX_COMMENT_BYTES {
        return Err(ApiError::BadRequest(format!(
            "text: at most {MAX_COMMENT_CHARS} characters ({MAX_COMMENT_BYTES} bytes), not {chars}"
        )));
    }
    let record = with_tree(&app, &row, http::record_of(&app, &row).await?).await?;
    if !has_node(&record, new.node) {
        return Err(ApiError::NotFound("that node is not in this game's tree".into()));
    }
    let node = serde_json::to_string(&new.node).map_err(|e| ApiError::Internal(e.to_string()))?;
    let at_ms = app.store.now();
    let id = app.store.add_comment(row.id, session.user.id, &node, text, at_ms, COMMENT_CAPS).await?;
    Ok(Json(CommentAdded {
        comment: Comment {
            id,
            node: new.node,
            author: session.user.name.clone(),
            text: text.to_string(),
            at_ms,
        },
    }))
}
