//! A game made for players the server names (a challenge's two, a seek's table): created by
//! one of them, every other seat of theirs kept for them and taken at once, so the game starts
//! as soon as it is made.

use crate::{
    AppState,
    auth::Session,
    error::ApiError,
    protocol::GameCreated,
    setup::{NewGame, SeatChoice},
    store::User,
    table::Command,
};

/// Creates `new` for `creator` (who holds the seat marked `Me`) and seats each of `others` in
/// theirs. A game that could not be filled is taken down again.
pub async fn game_for(
    app: &AppState,
    creator: &User,
    mut new: NewGame,
    others: &[(usize, User)],
) -> Result<GameCreated, ApiError> {
    let n = new.players;
    new.seats.resize(n, SeatChoice::Open);
    let mut reserved = vec![None; n];
    for (seat, user) in others {
        let slot = new
            .seats
            .get_mut(*seat)
            .ok_or_else(|| ApiError::BadRequest(format!("there is no seat {seat}")))?;
        *slot = SeatChoice::Invite;
        reserved[*seat] = Some(user.id);
    }
    // Made by the server for its players: counted against the creator's caps, not an address.
    let session = Session {
        user: creator.clone(),
        token_hash: String::new(),
        expires_ms: None,
        standing: Default::default(),
    };
    let created = crate::http::create(app, &session, None, new, reserved).await?;
    let id = created.game.id;
    for (seat, user) in others {
        let seated = seat_one(app, id, *seat, user).await;
        if let Err(e) = seated {
            let before_ms = crate::table::CANCEL;
            let _ = app.hub.ask(id, |reply| Command::Expire { before_ms, reply }).await;
            return Err(e);
        }
    }
    Ok(GameCreated { game: app.hub.info(id).await?, invite: created.invite })
}

async fn seat_one(app: &AppState, id: i64, seat: usize, user: &User) -> Result<(), ApiError> {
    // A private game is readable by the players it keeps seats for.
    app.store.admit(id, user.id).await?;
    let user = user.clone();
    app.hub.ask(id, |reply| Command::Join { user, seat: Some(seat), invite: None, reply }).await??;
    Ok(())
}
