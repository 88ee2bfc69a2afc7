//! Taking and leaving a seat, abandoning a game against bots, taking a move back.

use axum::{
    Json,
    extract::{Path, State},
};
use serde::Deserialize;

use super::access::visible;
use crate::{
    AppState,
    auth::Session,
    error::ApiError,
    protocol::{Joined, OkBody},
    table::Command,
};

#[derive(Debug, Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct JoinBody {
    #[serde(default)]
    seat: Option<usize>,
    #[serde(default)]
    invite: Option<String>,
}

pub async fn join(
    State(app): State<AppState>,
    session: Session,
    Path(id): Path<i64>,
    body: Option<Json<JoinBody>>,
) -> Result<Json<Joined>, ApiError> {
    let JoinBody { seat, invite } = body.map(|Json(b)| b).unwrap_or_default();
    crate::moderation::may_play(&session.standing)?;
    // A private game is not there for whoever may not read it (ids are sequential).
    visible(&app, id, Some(&session), invite.as_deref()).await?;
    if app.store.blocked_in_game(id, session.user.id).await? {
        return Err(ApiError::Forbidden("a player of this game has blocked you: you cannot join it".into()));
    }
    let user = session.user;
    let seat = app.hub.ask(id, |reply| Command::Join { user, seat, invite, reply }).await??;
    Ok(Json(Joined { seat, game: app.hub.ask(id, |reply| Command::Info { reply }).await? }))
}

pub async fn leave(
    State(app): State<AppState>,
    session: Session,
    Path(id): Path<i64>,
) -> Result<Json<OkBody>, ApiError> {
    visible(&app, id, Some(&session), None).await?;
    let user = session.user.id;
    app.hub.ask(id, |reply| Command::Leave { user, reply }).await??;
    Ok(Json(OkBody { ok: true }))
}

/// `POST /api/games/{id}/abandon`: the only person in a live game against bots ends it, with
/// no result (from My games: a forgotten game against the computer need not be played out).
pub async fn abandon(
    State(app): State<AppState>,
    session: Session,
    Path(id): Path<i64>,
) -> Result<Json<OkBody>, ApiError> {
    visible(&app, id, Some(&session), None).await?;
    let user = Some(session.user.id);
    if !app.hub.ask(id, |reply| Command::Abandon { seq: None, user, reply }).await?? {
        return Err(ApiError::Conflict("the game is not being played".into()));
    }
    Ok(Json(OkBody { ok: true }))
}

/// `POST /api/games/{id}/undo`: ask to take back your last move.
pub async fn undo(
    State(app): State<AppState>,
    session: Session,
    Path(id): Path<i64>,
) -> Result<Json<OkBody>, ApiError> {
    crate::moderation::may_play(&session.standing)?;
    visible(&app, id, Some(&session), None).await?;
    let user = session.user.id;
    app.hub.ask(id, |reply| Command::Undo { user, reply }).await??;
    Ok(Json(OkBody { ok: true }))
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UndoAnswerBody {
    accept: bool,
}

/// `POST /api/games/{id}/undo/answer` `{"accept": true}`: answer another player's request.
pub async fn undo_answer(
    State(app): State<AppState>,
    session: Session,
    Path(id): Path<i64>,
    body: Result<Json<UndoAnswerBody>, axum::extract::rejection::JsonRejection>,
) -> Result<Json<OkBody>, ApiError> {
    let Json(UndoAnswerBody { accept }) = body.map_err(|e| ApiError::BadRequest(e.body_text()))?;
    visible(&app, id, Some(&session), None).await?;
    let user = session.user.id;
    app.hub.ask(id, |reply| Command::UndoAnswer { user, accept, reply }).await??;
    Ok(Json(OkBody { ok: true }))
}
