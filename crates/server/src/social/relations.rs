//! Following and blocking players, and what a player page shows of them to its reader.

use std::collections::HashMap;

use axum::{
    Json,
    extract::{Path, State},
};
use serde::Deserialize;

use super::{
    online, touch, user_named,
    wire::{PeopleList, PersonView, Relations},
};
use crate::{
    AppState,
    auth::{MaybeSession, Session},
    error::ApiError,
    protocol::OkBody,
    store::Relation,
};

/// Players one account may follow, and block.
pub const MAX_FOLLOWS: i64 = 200;
pub const MAX_BLOCKS: i64 = 500;
/// Live games listed for the players one follows, in all.
const MAX_LIVE_LISTED: i64 = 200;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NameBody {
    name: String,
}

fn body<T>(b: Result<Json<T>, axum::extract::rejection::JsonRejection>) -> Result<T, ApiError> {
    b.map(|Json(b)| b).map_err(|e| ApiError::BadRequest(e.body_text()))
}

/// `GET /api/follows`: the players the reader follows, who of them is online, their live games.
pub async fn following(State(app): State<AppState>, session: Session) -> Result<Json<PeopleList>, ApiError> {
    touch(&app, session.user.id).await;
    let mut live: HashMap<i64, Vec<i64>> = HashMap::new();
    for (user, game) in app.store.live_games_followed(session.user.id, MAX_LIVE_LISTED).await? {
        live.entry(user).or_default().push(game);
    }
    let people = app
        .store
        .related(Relation::Follow, session.user.id)
        .await?
        .into_iter()
        .map(|p| PersonView {
            online: online(p.last_seen_ms),
            live_games: live.remove(&p.id).unwrap_or_default(),
            name: p.name,
            kind: p.kind,
            last_seen_ms: p.last_seen_ms,
        })
        .collect();
    Ok(Json(PeopleList { people }))
}

/// `POST /api/follows {"name"}`.
pub async fn follow(
    State(app): State<AppState>,
    session: Session,
    b: Result<Json<NameBody>, axum::extract::rejection::JsonRejection>,
) -> Result<Json<OkBody>, ApiError> {
    let target = user_named(&app, &body(b)?.name).await?;
    if target.id == session.user.id {
        return Err(ApiError::BadRequest("you cannot follow yourself".into()));
    }
    if app.store.relates(Relation::Block, target.id, session.user.id).await? {
        return Err(ApiError::Forbidden(format!("{} has blocked you", target.name)));
    }
    if !app.store.relate(Relation::Follow, session.user.id, target.id, MAX_FOLLOWS).await? {
        return Err(ApiError::TooMany(format!("you may follow at most {MAX_FOLLOWS} players")));
    }
    Ok(Json(OkBody { ok: true }))
}

/// `DELETE /api/follows/{name}`.
pub async fn unfollow(
    State(app): State<AppState>,
    session: Session,
    Path(name): Path<String>,
) -> Result<Json<OkBody>, ApiError> {
    let target = user_named(&app, &name).await?;
    app.store.unrelate(Relation::Follow, session.user.id, target.id).await?;
    Ok(Json(OkBody { ok: true }))
}

/// `GET /api/blocks`: the players the reader blocked.
pub async fn blocked(State(app): State<AppState>, session: Session) -> Result<Json<PeopleList>, ApiError> {
    let people = app
        .store
        .related(Relation::Block, session.user.id)
        .await?
        .into_iter()
        .map(|p| PersonView {
            name: p.name,
            kind: p.kind,
            // A blocked player's whereabouts are not the blocker's business either.
            online: false,
            last_seen_ms: None,
            live_games: Vec::new(),
        })
        .collect();
    Ok(Json(PeopleList { people }))
}

/// `POST /api/blocks {"name"}`: from now on their challenges, invitations and chat do not
/// reach the reader; their pending challenges either way are withdrawn, and they stop
/// following the reader.
pub async fn block(
    State(app): State<AppState>,
    session: Session,
    b: Result<Json<NameBody>, axum::extract::rejection::JsonRejection>,
) -> Result<Json<OkBody>, ApiError> {
    let me = session.user.id;
    let target = user_named(&app, &body(b)?.name).await?;
    if target.id == me {
        return Err(ApiError::BadRequest("you cannot block yourself".into()));
    }
    if !app.store.relate(Relation::Block, me, target.id, MAX_BLOCKS).await? {
        return Err(ApiError::TooMany(format!("you may block at most {MAX_BLOCKS} players")));
    }
    app.store.unrelate(Relation::Follow, target.id, me).await?;
    for c in app.store.challenges_of(me, 200).await? {
        let between =
            (c.from_user == target.id && c.to_user == me) || (c.from_user == me && c.to_user == target.id);
        if between && c.status == "pending" {
            app.store.move_challenge(c.id, "pending", "withdrawn", None).await?;
        }
    }
    Ok(Json(OkBody { ok: true }))
}

/// `DELETE /api/blocks/{name}`.
pub async fn unblock(
    State(app): State<AppState>,
    session: Session,
    Path(name): Path<String>,
) -> Result<Json<OkBody>, ApiError> {
    let target = user_named(&app, &name).await?;
    app.store.unrelate(Relation::Block, session.user.id, target.id).await?;
    Ok(Json(OkBody { ok: true }))
}

/// `GET /api/players/{name}/social`: online or not, their live games, and for a signed-in
/// reader whether they follow or blocked them and whether they may challenge them.
pub async fn player(
    State(app): State<AppState>,
    MaybeSession(session): MaybeSession,
    Path(name): Path<String>,
) -> Result<Json<Relations>, ApiError> {
    let target = user_named(&app, &name).await?;
    let live_games = app
        .store
        .public_games_of(target.id, 20)
        .await?
        .into_iter()
        .filter(|g| g.status == "live")
        .map(|g| g.id)
        .collect();
    let mut relations = Relations {
        online: online(app.store.last_seen(target.id).await?),
        following: false,
        blocked: false,
        challenge: Some("sign in to challenge players".into()),
        live_games,
    };
    if let Some(s) = session {
        relations.following = app.store.relates(Relation::Follow, s.user.id, target.id).await?;
        relations.blocked = app.store.relates(Relation::Block, s.user.id, target.id).await?;
        relations.challenge = super::challenges::may_challenge(&app, &s.user, &target).await?.err();
    }
    Ok(Json(relations))
}
