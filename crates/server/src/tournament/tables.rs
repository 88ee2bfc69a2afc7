//! The game of one table: made for the tournament's creator like a challenge's game
//! (`social/seat.rs`), with each person's seat kept for them and taken at once, and bots in bot
//! seats, so that it starts as soon as it is made. Counted against the tournament's bounds, not
//! the creator's game caps: a tournament of 256 makes up to 128 games a round.

use crate::{
    AppState,
    error::ApiError,
    setup::SeatChoice,
    store::{Quota, User, tournaments::EntrantRow},
    table::Command,
};

use super::create::NewTournament;

/// Makes the game of a table whose `seats` are in turn order; returns its id.
pub(super) async fn make_game(
    app: &AppState,
    creator: &User,
    settings: &NewTournament,
    seats: &[&EntrantRow],
) -> Result<i64, ApiError> {
    let choices: Vec<SeatChoice> = seats
        .iter()
        .map(|e| match e.bot_level {
            Some(level) => SeatChoice::Bot { level: level.clamp(1, 10) as u8 },
            None => SeatChoice::Invite,
        })
        .collect();
    let new = settings.game(choices)?;
    let mut setup = tokio::task::spawn_blocking(move || new.validate())
        .await
        .map_err(|e| ApiError::Internal(e.to_string()))??;
    setup.reserved = seats.iter().map(|e| e.user_id).collect();
    let quota = Quota {
        user: creator.id,
        per_user: i64::MAX,
        address: None,
        per_address: i64::MAX,
        bots_only: false,
        per_user_bots_only: i64::MAX,
        casual: true,
    };
    let invite = Some(crate::auth::new_token()?);
    // People's seats are kept for them (invited) and taken just below.
    let new_seats = crate::http::new_seats(&setup.seats, None);
    let (id, _) = crate::http::store_game(app, &quota, &setup, true, invite.as_deref(), &new_seats).await?;
    for (seat, entrant) in seats.iter().enumerate() {
        let Some(user_id) = entrant.user_id else { continue };
        let Some(user) = app.store.user_by_id(user_id).await? else { continue };
        app.store.admit(id, user.id).await?;
        let joined =
            app.hub.ask(id, |reply| Command::Join { user, seat: Some(seat), invite: None, reply }).await;
        // A seat not taken stays kept for its player, who may take it from the game's page.
        if let Err(e) | Ok(Err(e)) = joined.map(|r| r.map(|_| ())) {
            tracing::warn!(game = id, seat, error = %e, "a tournament player could not be seated");
        }
    }
    Ok(id)
}
