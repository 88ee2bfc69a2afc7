//! Challenges to named players: the challenger sends the settings the create form sends (a
//! `POST /api/games` body) and the seat kept for the other player, who accepts (the game
//! starts with both seated), declines, or lets it expire; the challenger may withdraw it.

use axum::{
    Json,
    extract::{Path, Query, State},
    http::StatusCode,
};
use serde::Deserialize;

use super::{
    seat::game_for,
    touch, user_named,
    wire::{ChallengeList, ChallengeView},
};
use crate::{
    AppState,
    auth::Session,
    error::ApiError,
    setup::{NewGame, SeatChoice},
    store::{ChallengeCaps, ChallengeRow, Relation, User},
};

/// Pending challenges per account: sent, received, and from one player to another.
pub const CAPS: ChallengeCaps = ChallengeCaps { outgoing: 20, incoming: 50, per_pair: 3 };
/// How long a challenge waits for its answer unless the challenger says less.
pub const DEFAULT_EXPIRY_SECONDS: u32 = 7 * 24 * 3600;
/// Challenges (pending and recently answered) a list shows.
const LISTED: i64 = 100;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewChallenge {
    /// The challenged player's name.
    to: String,
    /// The game, as `POST /api/games` takes it (the challenger's seat is the one marked `me`).
    game: serde_json::Value,
    /// The seat kept for the challenged player (default: the first open one).
    #[serde(default)]
    their_seat: Option<usize>,
    /// 1 second to 7 days (the default).
    #[serde(default)]
    expires_seconds: Option<u32>,
}

/// Whether `from` may challenge `to`: the reason why not, in the challenger's words.
pub async fn may_challenge(app: &AppState, from: &User, to: &User) -> Result<Result<(), String>, ApiError> {
    Ok(if from.id == to.id {
        Err("you cannot challenge yourself".into())
    } else if from.kind == "guest" {
        Err("challenges are between accounts: register to challenge players".into())
    } else if to.kind == "guest" {
        Err(format!("{} is a guest: guests cannot be challenged (invite them to a game instead)", to.name))
    } else if app.store.relates(Relation::Block, to.id, from.id).await? {
        Err(format!("{} has blocked you", to.name))
    } else if app.store.relates(Relation::Block, from.id, to.id).await? {
        Err(format!("you have blocked {}: unblock them first", to.name))
    } else {
        Ok(())
    })
}

fn refused(reason: Result<(), String>) -> Result<(), ApiError> {
    reason.map_err(ApiError::Forbidden)
}

/// The game a challenge's settings describe, with the challenged player's seat by invitation.
fn game_of(text: &str, their_seat: Option<usize>) -> Result<(NewGame, usize), ApiError> {
    let mut game: NewGame =
        serde_json::from_str(text).map_err(|e| ApiError::BadRequest(format!("game: {e}")))?;
    if !game.rigged.is_empty() {
        return Err(ApiError::BadRequest("game: rigged outcomes are not for challenges".into()));
    }
    if !(2..=8).contains(&game.players) {
        return Err(ApiError::BadRequest(format!("game: players must be 2 to 8, not {}", game.players)));
    }
    if game.seats.len() > game.players {
        return Err(ApiError::BadRequest(format!(
            "game: {} seats listed for {} players",
            game.seats.len(),
            game.players
        )));
    }
    if game.seats.is_empty() {
        game.seats.push(SeatChoice::Me);
    }
    game.seats.resize(game.players, SeatChoice::Open);
    if !game.seats.contains(&SeatChoice::Me) {
        return Err(ApiError::BadRequest("game: the challenger takes a seat (mark it \"me\")".into()));
    }
    let seat = match their_seat {
        Some(s) => s,
        None => game.seats.iter().position(|s| *s == SeatChoice::Open).ok_or_else(|| {
            ApiError::BadRequest("game: no open seat is left for the challenged player".into())
        })?,
    };
    match game.seats.get(seat) {
        Some(SeatChoice::Open) => {}
        Some(_) => return Err(ApiError::BadRequest(format!("their_seat {seat} is not an open seat"))),
        None => {
            return Err(ApiError::BadRequest(format!(
                "their_seat {seat}: the game has {} seats",
                game.players
            )));
        }
    }
    game.seats[seat] = SeatChoice::Invite;
    Ok((game, seat))
}

/// `POST /api/challenges`.
pub async fn create(
    State(app): State<AppState>,
    session: Session,
    body: Result<Json<NewChallenge>, axum::extract::rejection::JsonRejection>,
) -> Result<(StatusCode, Json<ChallengeView>), ApiError> {
    let Json(c) = body.map_err(|e| ApiError::BadRequest(e.body_text()))?;
    crate::moderation::may_play(&session.standing)?;
    app.account_rates.check(session.user.id, crate::moderation::Doing::Challenge)?;
    let to = user_named(&app, &c.to).await?;
    refused(may_challenge(&app, &session.user, &to).await?)?;
    let seconds = c.expires_seconds.unwrap_or(DEFAULT_EXPIRY_SECONDS);
    if !(1..=DEFAULT_EXPIRY_SECONDS).contains(&seconds) {
        return Err(ApiError::BadRequest(format!(
            "expires_seconds {seconds}: a challenge waits 1 second to 7 days ({DEFAULT_EXPIRY_SECONDS})"
        )));
    }
    let text = c.game.to_string();
    let (game, their_seat) = game_of(&text, c.their_seat)?;
    // Checked now with what creating the game checks, so that an accepted challenge starts.
    tokio::task::spawn_blocking(move || game.validate())
        .await
        .map_err(|e| ApiError::Internal(e.to_string()))??;
    let expires = crate::store::now_ms() + i64::from(seconds) * 1000;
    let id = app.store.insert_challenge(session.user.id, to.id, &text, their_seat, expires, CAPS).await?;
    let row = app.store.challenge(id).await?.ok_or_else(|| ApiError::Internal("challenge lost".into()))?;
    // A mail for a player who chose to be told of challenges; the challenge stands without it.
    let notice = crate::mail::Notice::Challenge { from: session.user.name.clone(), game: None };
    if let Err(e) = crate::mail::notify(&app, to.id, notice).await {
        tracing::warn!(challenge = id, error = %e, "the challenge mail was not queued");
    }
    Ok((StatusCode::CREATED, Json(view(&row, session.user.id))))
}

#[derive(Debug, Deserialize, Default)]
pub struct ListQuery {
    /// Present: only challenges sent to the reader that wait for their answer.
    #[serde(default)]
    incoming: Option<String>,
}

/// `GET /api/challenges` (`?incoming`: only those waiting for the reader's answer).
pub async fn list(
    State(app): State<AppState>,
    session: Session,
    Query(q): Query<ListQuery>,
) -> Result<Json<ChallengeList>, ApiError> {
    let me = session.user.id;
    touch(&app, me).await;
    let rows = app.store.challenges_of(me, LISTED).await?;
    let waiting = |c: &ChallengeRow| c.to_user == me && c.status == "pending";
    let incoming_pending = rows.iter().filter(|c| waiting(c)).count();
    let challenges =
        rows.iter().filter(|c| q.incoming.is_none() || waiting(c)).map(|c| view(c, me)).collect();
    Ok(Json(ChallengeList { challenges, incoming_pending }))
}

fn view(c: &ChallengeRow, reader: i64) -> ChallengeView {
    let game: serde_json::Value = serde_json::from_str(&c.setup).unwrap_or_default();
    let rules = match &game["rules"] {
        serde_json::Value::String(s) => s.clone(),
        v => v["system"].as_str().unwrap_or("").to_string(),
    };
    let map = match &game["map"] {
        serde_json::Value::String(s) => s.clone(),
        v => v["name"].as_str().unwrap_or("custom map").to_string(),
    };
    let seats: Vec<SeatChoice> = serde_json::from_value(game["seats"].clone()).unwrap_or_default();
    ChallengeView {
        id: c.id,
        from: c.from_name.clone(),
        to: c.to_name.clone(),
        incoming: c.to_user == reader,
        status: if c.status == "accepting" { "pending".into() } else { c.status.clone() },
        created_ms: c.created_ms,
        expires_ms: c.expires_ms,
        game: c.game_id,
        rules,
        map,
        players: game["players"].as_u64().unwrap_or(2) as usize,
        rated: game["rated"].as_bool().unwrap_or(false),
        time: serde_json::from_value(game["time"].clone()).unwrap_or_default(),
        their_seat: c.their_seat,
        my_seat: Some(seats.iter().position(|s| *s == SeatChoice::Me).unwrap_or(0)),
    }
}

/// A challenge the reader is part of, else "no such challenge".
async fn mine(app: &AppState, id: i64, me: i64) -> Result<ChallengeRow, ApiError> {
    let missing = || ApiError::NotFound(format!("there is no challenge {id} for you"));
    let c = app.store.challenge(id).await?.ok_or_else(missing)?;
    if c.from_user != me && c.to_user != me {
        return Err(missing());
    }
    Ok(c)
}

fn not_pending(c: &ChallengeRow) -> ApiError {
    match c.status.as_str() {
        "expired" => ApiError::Conflict(format!("challenge {} has expired", c.id)),
        "accepting" => ApiError::Conflict(format!("challenge {} is being accepted", c.id)),
        s => ApiError::Conflict(format!("challenge {} was {s} already", c.id)),
    }
}

/// `POST /api/challenges/{id}/accept`: the game starts with both seated; answers the
/// challenge with its game.
pub async fn accept(
    State(app): State<AppState>,
    session: Session,
    Path(id): Path<i64>,
) -> Result<Json<ChallengeView>, ApiError> {
    crate::moderation::may_play(&session.standing)?;
    let me = session.user.id;
    let c = mine(&app, id, me).await?;
    if app.store.standing(c.from_user).await?.suspended_until_ms.is_some() {
        return Err(ApiError::Conflict(
            "the challenger's account is suspended: this challenge cannot start".into(),
        ));
    }
    if c.to_user != me {
        return Err(ApiError::Forbidden("only the challenged player may accept".into()));
    }
    let from = user_named(&app, &c.from_name).await?;
    refused(may_challenge(&app, &from, &session.user).await?)?;
    if !app.store.move_challenge(id, "pending", "accepting", None).await? {
        return Err(not_pending(&mine(&app, id, me).await?));
    }
    let made = match game_of(&c.setup, Some(c.their_seat)) {
        Ok((game, seat)) => game_for(&app, &from, game, &[(seat, session.user.clone())]).await,
        Err(e) => Err(e),
    };
    match made {
        Ok(created) => {
            app.store.move_challenge(id, "accepting", "accepted", Some(created.game.id)).await?;
            let row = mine(&app, id, me).await?;
            Ok(Json(view(&row, me)))
        }
        Err(e) => {
            app.store.move_challenge(id, "accepting", "pending", None).await?;
            Err(e)
        }
    }
}

/// `POST /api/challenges/{id}/decline`: by the challenged player.
pub async fn decline(
    State(app): State<AppState>,
    session: Session,
    Path(id): Path<i64>,
) -> Result<Json<ChallengeView>, ApiError> {
    answer(&app, &session, id, false).await
}

/// `POST /api/challenges/{id}/withdraw`: by the challenger.
pub async fn withdraw(
    State(app): State<AppState>,
    session: Session,
    Path(id): Path<i64>,
) -> Result<Json<ChallengeView>, ApiError> {
    answer(&app, &session, id, true).await
}

async fn answer(
    app: &AppState,
    session: &Session,
    id: i64,
    withdraw: bool,
) -> Result<Json<ChallengeView>, ApiError> {
    let me = session.user.id;
    let c = mine(app, id, me).await?;
    let (allowed, to, who) = if withdraw {
        (c.from_user == me, "withdrawn", "only the challenger may withdraw a challenge")
    } else {
        (c.to_user == me, "declined", "only the challenged player may decline")
    };
    if !allowed {
        return Err(ApiError::Forbidden(who.into()));
    }
    if !app.store.move_challenge(id, "pending", to, None).await? {
        return Err(not_pending(&mine(app, id, me).await?));
    }
    Ok(Json(view(&mine(app, id, me).await?, me)))
}
