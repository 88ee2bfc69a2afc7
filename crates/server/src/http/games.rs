//! New games, and a game as the lobby and profiles list it.

use axum::{
    Json,
    extract::State,
    http::StatusCode,
    response::{IntoResponse, Response},
};

use super::{MAX_ACTIVE_GAMES, MAX_BOT_ONLY_GAMES};
use crate::{
    AppState,
    auth::{self, Session},
    error::ApiError,
    limit::ClientIp,
    protocol::{GameCreated, GameInfo, GameSummary, SummarySeat},
    setup::{GameBrief, GameSetup, NewGame, SeatChoice},
    store::{GameRow, NewSeat, Quota},
    table::Command,
};

pub async fn create_game(
    State(app): State<AppState>,
    session: Session,
    ClientIp(address): ClientIp,
    body: Result<Json<NewGame>, axum::extract::rejection::JsonRejection>,
) -> Result<Response, ApiError> {
    let Json(new) = body.map_err(|e| ApiError::BadRequest(e.body_text()))?;
    app.account_rates.check(session.user.id, crate::moderation::Doing::CreateGame)?;
    let created = create(&app, &session, address, new, Vec::new()).await?;
    Ok((StatusCode::CREATED, Json(created)).into_response())
}

/// Checks and stores a new game, and starts its table. `reserved`: per seat, the account it is
/// kept for (a rematch's), else empty.
pub(crate) async fn create(
    app: &AppState,
    session: &Session,
    address: Option<std::net::IpAddr>,
    new: NewGame,
    reserved: Vec<Option<i64>>,
) -> Result<GameCreated, ApiError> {
    crate::moderation::may_play(&session.standing)?;
    let address = address.map(|a| a.to_string());
    let bots_only =
        new.seats.len() >= new.players && new.seats.iter().all(|s| matches!(s, SeatChoice::Bot { .. }));
    // Counted again where it cannot race (the store); this early look spares the map's building
    // for whoever is surely over the cap (a game against bots without a clock is not counted).
    let maybe_casual = matches!(new.time, crate::setup::TimeChoice::Control(crate::setup::TimeControl::None))
        && new.seats.iter().all(|s| matches!(s, SeatChoice::Me | SeatChoice::Bot { .. }));
    if !maybe_casual && app.store.active_games_created(session.user.id).await? >= MAX_ACTIVE_GAMES {
        return Err(ApiError::TooMany(format!("at most {MAX_ACTIVE_GAMES} open or live games per player")));
    }
    let public = new.public;
    if !new.rigged.is_empty() && !app.config.test_hooks {
        return Err(ApiError::BadRequest(
            "rigged: fixed chance outcomes are a test hook this server does not offer".into(),
        ));
    }
    if new.rated
        && session.user.kind == "guest"
        && (new.seats.is_empty() || new.seats.contains(&SeatChoice::Me))
    {
        return Err(ApiError::Forbidden("rated games need an account: register to play one".into()));
    }
    // Building the game (map generation, rule checks) is CPU work: keep it off the async workers.
    let mut setup = tokio::task::spawn_blocking(move || new.validate())
        .await
        .map_err(|e| ApiError::Internal(e.to_string()))??;
    setup.reserved = reserved;
    let quota = Quota {
        user: session.user.id,
        per_user: MAX_ACTIVE_GAMES,
        address: address.as_deref(),
        per_address: app.config.limits.games_per_address,
        bots_only,
        per_user_bots_only: MAX_BOT_ONLY_GAMES,
        casual: setup.casual(),
    };
    let invite =
        if setup.seats.contains(&SeatChoice::Invite) || !public { Some(auth::new_token()?) } else { None };
    let seats = new_seats(&setup.seats, Some(session.user.id));
    let (_, info) = store_game(app, &quota, &setup, public, invite.as_deref(), &seats).await?;
    Ok(GameCreated { game: info, invite })
}

/// The seat rows of a new game: `me` in the seat marked `Me`, bots in theirs, invited seats kept.
pub(crate) fn new_seats(seats: &[SeatChoice], me: Option<i64>) -> Vec<NewSeat> {
    seats
        .iter()
        .map(|s| NewSeat {
            user_id: if *s == SeatChoice::Me { me } else { None },
            bot_level: match s {
                SeatChoice::Bot { level } => Some(*level),
                _ => None,
            },
            invite_only: *s == SeatChoice::Invite,
        })
        .collect()
}

/// Stores a checked game with its seats, brief and list keys, gives it to an instance when there
/// are several, and loads its table, which starts the game at once when no seat is open (its
/// creator and bots, or players the server seats next). Its id and what the lobby shows of it.
pub(crate) async fn store_game(
    app: &AppState,
    quota: &Quota<'_>,
    setup: &GameSetup,
    public: bool,
    invite: Option<&str>,
    seats: &[NewSeat],
) -> Result<(i64, GameInfo), ApiError> {
    let text = serde_json::to_string(setup).map_err(|e| ApiError::Internal(e.to_string()))?;
    let id = app.store.create_game(quota, &text, public, invite, seats).await?;
    let brief = serde_json::to_string(&setup.brief()).map_err(|e| ApiError::Internal(e.to_string()))?;
    app.store.set_brief(id, &brief).await?;
    app.store.set_list_keys(id, &crate::store::ListKeys::of(setup)).await?;
    // With several instances, the game goes to the one running the fewest (it claims the lease
    // when first asked; this instance relays).
    if let Some(cluster) = app.hub.cluster()
        && let Err(e) = app.store.assign_lease(id, cluster.ttl_ms()).await
    {
        tracing::warn!(game = id, error = %e, "could not give the new game to an instance");
    }
    let info = app.hub.ask(id, |reply| Command::Info { reply }).await?;
    Ok((id, info))
}

pub(crate) struct Summarized {
    pub(crate) summary: GameSummary,
    pub(crate) status: String,
    /// Has a free seat a stranger may take.
    pub(crate) joinable: bool,
}

/// A game as lobby lists and profiles show it.
pub(crate) async fn summarize(app: &AppState, row: GameRow) -> Result<Summarized, ApiError> {
    let brief = match row.brief.as_deref().map(serde_json::from_str::<GameBrief>) {
        Some(Ok(brief)) => Some(brief),
        // A game made before briefs: made once from its settings and kept.
        _ => {
            let brief = serde_json::from_str::<GameSetup>(&row.setup).ok().map(|s| s.brief());
            if let Some(text) = brief.as_ref().and_then(|b| serde_json::to_string(b).ok()) {
                app.store.set_brief(row.id, &text).await?;
            }
            brief
        }
    };
    let system = brief.as_ref().map_or("", |b| b.system.as_str());
    let seats = app.store.seats_rated(row.id, system).await?;
    let joinable = seats.iter().map(|r| &r.seat).any(|s| {
        s.user_id.is_none()
            && s.bot_level.is_none()
            && !brief.as_ref().is_some_and(|b| b.kept_seats.contains(&s.seat))
    });
    let summary = GameSummary {
        id: row.id,
        status: row.status.clone(),
        rules: brief.as_ref().map(|b| b.system.clone()),
        players: brief.as_ref().map_or(seats.len(), |b| b.players),
        seats: seats
            .iter()
            .map(|r| SummarySeat {
                seat: r.seat.seat,
                user: r.seat.user_name.clone(),
                bot_level: r.seat.bot_level,
                // Games whose settings cannot be read have no rule system to rate in.
                rating: r.rating.clone().filter(|_| brief.is_some()),
            })
            .collect(),
        created_ms: row.created_ms,
        result_text: result_notation(brief.as_ref(), row.result.as_deref()),
        last_active_ms: row.last_active_ms,
        watchers: app.hub.watchers(row.id),
        result: row.result.as_deref().and_then(|r| serde_json::from_str::<serde_json::Value>(r).ok()),
        rated: brief.as_ref().is_some_and(|b| b.rated),
        time: brief.as_ref().and_then(|b| b.time),
        map: brief.map(|b| b.map),
    };
    Ok(Summarized { summary, status: row.status, joinable })
}

/// A stored result in its system's notation (classic Go's `W+8.5`), if the system has one.
fn result_notation(brief: Option<&GameBrief>, result: Option<&str>) -> Option<String> {
    let brief = brief?;
    let outcome: gobeyond_rules::Outcome = serde_json::from_str(result?).ok()?;
    gobeyond_rules::SystemInfo::get(&brief.system)?.result_notation(&outcome, brief.players)
}
