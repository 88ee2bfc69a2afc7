//! Who may read a game: visibility, invite links and admitted spectators.

use axum::{
    Json,
    extract::{Path, Query, State},
};
use serde::Deserialize;

use crate::{
    AppState,
    auth::{self, MaybeSession, Session},
    error::ApiError,
    protocol::{GameInfo, OkBody},
    store::GameRow,
};

/// Game `id` if the request may see it: public games for everybody; a private game for its
/// creator, players and admitted spectators, or with its invite code (which admits a
/// signed-in user for good). Others are told it does not exist (ids are sequential: a
/// "forbidden" would confirm that a private game is there).
pub(crate) async fn visible(
    app: &AppState,
    id: i64,
    session: Option<&Session>,
    invite: Option<&str>,
) -> Result<GameRow, ApiError> {
    let missing = || {
        ApiError::NotFound(format!(
            "there is no game {id} (or it is private: ask its players for the invite link)"
        ))
    };
    let row = app.store.game(id).await?.ok_or_else(missing)?;
    if row.public {
        return Ok(row);
    }
    if let Some(s) = session
        && app.store.takes_part(id, s.user.id).await?
    {
        return Ok(row);
    }
    let invited = matches!((invite, row.invite.as_deref()), (Some(a), Some(b)) if auth::same_secret(a, b));
    if !invited {
        return Err(missing());
    }
    if let Some(s) = session {
        app.store.admit(id, s.user.id).await?;
    }
    Ok(row)
}

/// A game the request may read ([`visible`]): the id from the path, the session if there is
/// one, `invite` from the query string. Every read of a game goes through it.
#[derive(Debug)]
pub struct Readable(pub GameRow);

impl axum::extract::FromRequestParts<AppState> for Readable {
    type Rejection = ApiError;

    async fn from_request_parts(
        parts: &mut axum::http::request::Parts,
        app: &AppState,
    ) -> Result<Self, Self::Rejection> {
        #[derive(Deserialize)]
        struct Invite {
            invite: Option<String>,
        }
        let Path(id) = Path::<i64>::from_request_parts(parts, app)
            .await
            .map_err(|e| ApiError::BadRequest(e.body_text()))?;
        let MaybeSession(session) = MaybeSession::from_request_parts(parts, app).await?;
        let invite = Query::<Invite>::try_from_uri(&parts.uri).ok().and_then(|Query(q)| q.invite);
        Ok(Readable(visible(app, id, session.as_ref(), invite.as_deref()).await?))
    }
}

pub async fn game_info(
    State(app): State<AppState>,
    Readable(row): Readable,
) -> Result<Json<GameInfo>, ApiError> {
    let mut info = app.hub.info(row.id).await?;
    info.event = app.store.game_event(row.id).await?;
    Ok(Json(info))
}

/// `GET /api/games/{id}/invite`: the invite link's code, for the game's creator only (to share
/// it again after the page that created the game is gone).
pub async fn invite(
    State(app): State<AppState>,
    session: Session,
    Path(id): Path<i64>,
) -> Result<Json<crate::protocol::InviteBody>, ApiError> {
    let row = visible(&app, id, Some(&session), None).await?;
    if row.creator != session.user.id {
        return Err(ApiError::Forbidden("only the game's creator may share its invitation".into()));
    }
    Ok(Json(crate::protocol::InviteBody { invite: row.invite }))
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AdmitBody {
    invite: String,
}

/// `POST /api/games/{id}/admit`: a spectator with a private game's invite link may from now on
/// read it and chat in it.
pub async fn admit(
    State(app): State<AppState>,
    session: Session,
    Path(id): Path<i64>,
    Json(b): Json<AdmitBody>,
) -> Result<Json<OkBody>, ApiError> {
    visible(&app, id, Some(&session), Some(&b.invite)).await?;
    Ok(Json(OkBody { ok: true }))
}
