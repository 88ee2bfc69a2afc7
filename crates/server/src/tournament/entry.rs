//! Entering and leaving: join, leave (or withdraw once running), bots, start, byes
//! (docs/api.md "Tournaments").

use axum::{
    Json,
    extract::{Path, State},
};
use serde::Deserialize;
use serde_json::{Value, json};

use super::{Loaded, create::NewTournament, load};
use crate::{AppState, auth::Session, error::ApiError, store::tournaments::NewEntrant};

/// Byes one entrant may ask for in advance.
const MAX_BYES: usize = 8;

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct JoinBody {
    #[serde(default)]
    pub invite: Option<String>,
}

/// The player's rating in the tournament's system at its number of players (the default rating
/// when they have none there yet).
async fn rating_of(app: &AppState, user: i64, settings: &NewTournament) -> Result<f64, ApiError> {
    let ratings = app.store.ratings_of(user).await?;
    let found = ratings
        .iter()
        .find(|(system, players, _)| *system == settings.system && *players == settings.players_per_game)
        .map(|(_, _, r)| *r)
        .unwrap_or_default();
    Ok(f64::from(found.value()))
}

pub async fn join(
    State(app): State<AppState>,
    session: Session,
    Path(id): Path<i64>,
    body: Option<Json<JoinBody>>,
) -> Result<Json<Value>, ApiError> {
    crate::moderation::may_play(&session.standing)?;
    let Loaded { row, settings } = load(&app, id).await?;
    let Json(body) = body.unwrap_or_default();
    let late = super::arena::late_entry(&row.state, &settings);
    if row.state != "open" && !late {
        return Err(ApiError::Conflict("the tournament has started: entries are closed".into()));
    }
    if settings.entry == "invitation" && (body.invite.is_none() || body.invite != settings.invite) {
        return Err(ApiError::Forbidden(
            "this tournament is by invitation: ask its creator for the link".into(),
        ));
    }
    if settings.rated && session.user.kind == "guest" {
        return Err(ApiError::Forbidden("this tournament is rated: register to play in it".into()));
    }
    let rating = rating_of(&app, session.user.id, &settings).await?;
    if let Some(lo) = settings.min_rating.filter(|lo| rating < *lo) {
        return Err(ApiError::Forbidden(format!(
            "your rating {rating} is below this tournament's least, {lo}"
        )));
    }
    if let Some(hi) = settings.max_rating.filter(|hi| rating > *hi) {
        return Err(ApiError::Forbidden(format!(
            "your rating {rating} is above this tournament's most, {hi}"
        )));
    }
    let entrant = NewEntrant {
        user_id: Some(session.user.id),
        bot_level: None,
        name: &session.user.name,
        rating,
        // A late entry plays from the next round (an arena: the next tables formed).
        joined_round: if late { app.store.tournament_rounds(id).await?.len() as i64 + 1 } else { 1 },
    };
    let entrant = app.store.add_entrant_while(id, &entrant, &row.state).await?;
    start_when_full(&app, id).await?;
    Ok(Json(json!({ "entrant": entrant })))
}

/// A tournament with no start time starts as soon as it is full.
pub(super) async fn start_when_full(app: &AppState, id: i64) -> Result<(), ApiError> {
    let Loaded { row, .. } = load(app, id).await?;
    if row.start_ms.is_none()
        && row.entrants >= row.max_entrants
        && app.store.start_tournament_now(id).await?
    {
        super::director::wake(app);
    }
    Ok(())
}

pub async fn leave(
    State(app): State<AppState>,
    session: Session,
    Path(id): Path<i64>,
) -> Result<Json<Value>, ApiError> {
    let Loaded { row, .. } = load(&app, id).await?;
    match row.state.as_str() {
        "open" => {
            if !app.store.remove_entrant(id, session.user.id).await? {
                return Err(ApiError::Conflict("you are not in this tournament".into()));
            }
            Ok(Json(json!({ "left": true })))
        }
        "running" => {
            // Withdrawn after the round in play: its game counts, later rounds pair without them.
            let after = app.store.tournament_rounds(id).await?.len() as i64;
            if !app.store.withdraw_entrant(id, session.user.id, after).await? {
                return Err(ApiError::Conflict(
                    "you are not in this tournament (or withdrew already)".into(),
                ));
            }
            Ok(Json(json!({ "withdrawn_after": after })))
        }
        _ => Err(ApiError::Conflict("the tournament is over".into())),
    }
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BotBody {
    pub level: i64,
}

pub async fn bots(
    State(app): State<AppState>,
    session: Session,
    Path(id): Path<i64>,
    body: Result<Json<BotBody>, axum::extract::rejection::JsonRejection>,
) -> Result<Json<Value>, ApiError> {
    let Json(body) = body.map_err(|e| ApiError::BadRequest(e.body_text()))?;
    let Loaded { row, .. } = load(&app, id).await?;
    if row.creator != session.user.id {
        return Err(ApiError::Forbidden("only the tournament's creator adds bots".into()));
    }
    let entrant = super::create::add_bot(&app, id, body.level).await?;
    start_when_full(&app, id).await?;
    Ok(Json(json!({ "entrant": entrant })))
}

pub async fn start(
    State(app): State<AppState>,
    session: Session,
    Path(id): Path<i64>,
) -> Result<Json<Value>, ApiError> {
    let Loaded { row, settings } = load(&app, id).await?;
    if row.creator != session.user.id {
        return Err(ApiError::Forbidden("only the tournament's creator starts it".into()));
    }
    if row.state != "open" {
        return Err(ApiError::Conflict(format!("the tournament is {} already", row.state)));
    }
    if row.entrants < settings.min_entrants {
        return Err(ApiError::Conflict(format!(
            "{} entrants: the tournament needs at least {} to start",
            row.entrants, settings.min_entrants
        )));
    }
    app.store.start_tournament_now(id).await?;
    super::director::wake(&app);
    Ok(Json(json!({ "state": "running" })))
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ByeBody {
    pub round: i64,
}

pub async fn bye(
    State(app): State<AppState>,
    session: Session,
    Path(id): Path<i64>,
    body: Result<Json<ByeBody>, axum::extract::rejection::JsonRejection>,
) -> Result<Json<Value>, ApiError> {
    let Json(body) = body.map_err(|e| ApiError::BadRequest(e.body_text()))?;
    let Loaded { row, settings } = load(&app, id).await?;
    if !matches!(row.state.as_str(), "open" | "running") {
        return Err(ApiError::Conflict("the tournament is over".into()));
    }
    if settings.format == "arena" {
        return Err(ApiError::BadRequest("an arena has no rounds to sit out: just stay away".into()));
    }
    let played = app.store.tournament_rounds(id).await?.len() as i64;
    if body.round <= played || body.round > super::create::MAX_ROUNDS {
        return Err(ApiError::BadRequest(format!(
            "round: a coming round (after round {played}), not {}",
            body.round
        )));
    }
    let entrants = app.store.entrants(id).await?;
    let Some(me) = entrants.iter().find(|e| e.user_id == Some(session.user.id)) else {
        return Err(ApiError::Conflict("you are not in this tournament".into()));
    };
    let mut byes: Vec<i64> = serde_json::from_str(&me.bye_requested).unwrap_or_default();
    if !byes.contains(&body.round) {
        if byes.len() >= MAX_BYES {
            return Err(ApiError::TooMany(format!("at most {MAX_BYES} byes asked in advance")));
        }
        byes.push(body.round);
    }
    let text = serde_json::to_string(&byes).map_err(|e| ApiError::Internal(e.to_string()))?;
    app.store.set_byes_requested(id, session.user.id, &text).await?;
    Ok(Json(json!({ "byes": byes })))
}
