//! `POST /api/games/{id}/rematch`: a player of a finished game starts the same game again —
//! same rules, map, time and bots, every seat moved one place on (colours change hands). The
//! other players' seats are kept for them (nobody else may take them, with or without the
//! invitation), and only they are told at the old table how to take them: spectators hear
//! that a rematch began, without the link. A game has one rematch: a player who asks after
//! another (or at the same moment) is sent to the game the first one made.

use std::time::Duration;

use axum::{
    Json,
    extract::{Path, State},
    http::StatusCode,
    response::{IntoResponse, Response},
};

use crate::{
    AppState,
    auth::Session,
    error::ApiError,
    http::{create, setup_of, visible},
    limit::ClientIp,
    protocol::{GameCreated, ServerMessage},
    setup::{MapChoice, NewGame, RulesChoice, SeatChoice},
    store::{GameRow, RematchClaim, SeatRow},
    table::Command,
};

/// How long a second player's request waits for the first one's game to be made (making one
/// takes milliseconds; a map may take longer to build).
const WAIT_FOR_MAKER: Duration = Duration::from_secs(10);

pub async fn rematch(
    State(app): State<AppState>,
    session: Session,
    ClientIp(address): ClientIp,
    Path(id): Path<i64>,
) -> Result<Response, ApiError> {
    let row = visible(&app, id, Some(&session), None).await?;
    if row.status != "finished" {
        return Err(ApiError::Conflict("a rematch follows a finished game".into()));
    }
    let old_seats = app.store.seats(id).await?;
    let Some(me) = old_seats.iter().position(|s| s.user_id == Some(session.user.id)) else {
        return Err(ApiError::Forbidden("only the game's players may ask for a rematch".into()));
    };
    let waited = tokio::time::Instant::now();
    loop {
        match app.store.claim_rematch(id).await? {
            RematchClaim::Claimed => break,
            RematchClaim::Made(new) => return made_already(&app, &session, new).await,
            RematchClaim::Making if waited.elapsed() < WAIT_FOR_MAKER => {
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
            RematchClaim::Making => {
                return Err(ApiError::Unavailable("the rematch is still being made: try again".into()));
            }
        }
    }
    match make(&app, &session, address, &row, &old_seats, me).await {
        Ok(created) => {
            app.store.set_rematch(id, created.game.id).await?;
            announce(&app, id, &session, &created).await;
            Ok((StatusCode::CREATED, Json(created)).into_response())
        }
        Err(e) => {
            app.store.release_rematch(id).await?;
            Err(e)
        }
    }
}

/// The game another player's rematch became, with the link to take the seat kept there.
async fn made_already(app: &AppState, session: &Session, new: i64) -> Result<Response, ApiError> {
    let row = visible(app, new, Some(session), None).await?;
    let game = app.hub.info(new).await?;
    Ok((StatusCode::OK, Json(GameCreated { game, invite: row.invite })).into_response())
}

async fn make(
    app: &AppState,
    session: &Session,
    address: Option<std::net::IpAddr>,
    row: &GameRow,
    old_seats: &[SeatRow],
    me: usize,
) -> Result<GameCreated, ApiError> {
    let setup = setup_of(row)?;
    let n = setup.players;
    // Seat k of the new game is seat k - 1 of the old one.
    let mut seats = vec![SeatChoice::Open; n];
    let mut reserved = vec![None; n];
    for (old, s) in old_seats.iter().enumerate() {
        let new = (old + 1) % n;
        seats[new] = match (s.user_id, s.bot_level) {
            (Some(_), _) if old == me => SeatChoice::Me,
            (Some(user), _) => {
                reserved[new] = Some(user);
                SeatChoice::Invite
            }
            (None, Some(level)) => SeatChoice::Bot { level },
            (None, None) => SeatChoice::Open,
        };
    }
    let new = NewGame {
        rules: RulesChoice::Spec(setup.rules.clone()),
        map: match setup.map.as_ref().clone() {
            gobeyond_rules::record::MapSource::Spec(s) => MapChoice::Spec(s),
            gobeyond_rules::record::MapSource::Custom(c) => MapChoice::Custom(c),
        },
        players: n,
        time: crate::setup::TimeChoice::Control(setup.time),
        seats,
        public: row.public,
        rated: setup.rated,
        // A rematch is a new game: its chance is the server's.
        rigged: Vec::new(),
    };
    let created = create(app, session, address, new, reserved.clone()).await?;
    // The players a seat is kept for may read the new game even when it is private.
    for user in reserved.into_iter().flatten() {
        app.store.admit(created.game.id, user).await?;
    }
    Ok(created)
}

/// Tells the old table: its players get the link to their kept seats, spectators only the news.
async fn announce(app: &AppState, old: i64, session: &Session, created: &GameCreated) {
    let message = |invite: Option<String>| {
        ServerMessage::Rematch {
            game: old,
            rematch: created.game.id,
            from: session.user.name.clone(),
            invite,
        }
        .to_text()
        .into()
    };
    let command = Command::Announce {
        text: message(None),
        players: Some(message(created.invite.clone())),
        line: Some(format!("{} offered a rematch: game #{}", session.user.name, created.game.id)),
    };
    // Best effort: the new game stands whether or not the old table could be told.
    let _ = app.hub.send(old, command).await;
}
