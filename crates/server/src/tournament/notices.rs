//! The notice of a round's start (docs/tournaments.md, "Round start"): when a table's game is
//! made, each person seated at it is told as for their turn. The game shows in their games
//! (`GET /api/tell` and the lobby) because they hold its seat; a mail goes to those who want
//! tournament notices ([`crate::mail::notify`] checks the address and the preference). Bots are
//! told nothing.

use crate::{
    AppState,
    mail::{Notice, notify},
    store::tournaments::EntrantRow,
};

/// Queues the round-start mail of `game` for each person of `seats`. Called once per table,
/// after the table's game was recorded: a failure is logged, never stops the round.
pub(super) async fn round_started(
    app: &AppState,
    tournament: i64,
    name: &str,
    round: u32,
    game: i64,
    seats: &[&EntrantRow],
) {
    for user in seats.iter().filter_map(|e| e.user_id) {
        let notice = Notice::RoundStart { tournament, name: name.to_string(), round, game };
        if let Err(e) = notify(app, user, notice).await {
            tracing::warn!(tournament, game, user, error = %e, "a round start notice was not queued");
        }
    }
}
