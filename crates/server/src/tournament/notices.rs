//! The notice of a round's start (docs/tournaments.md, "Records and notices"): when a table's
//! game is made, each person seated at it is told as for their turn. The game shows in their
//! games (`GET /api/tell` and the lobby) because they hold its seat; a mail goes to those who
//! want tournament notices ([`crate::mail::wanted`] checks the address and the preference),
//! queued in the transaction that notes the table's game (`put_table_game`): a director that
//! stops before noting it queues nothing, and the one that takes over notes the table and
//! queues its mails once. Bots are told nothing.

use crate::{
    AppState,
    error::ApiError,
    mail::{Notice, wanted},
    store::{
        mail::{MailBounds, NewMail},
        now_ms,
        tournaments::EntrantRow,
    },
};

/// The round-start mails of one table: per person who wants one, the queue row's payload.
pub(super) struct RoundStartMails {
    rows: Vec<(i64, String, MailBounds)>,
    game: i64,
    /// The notice's kind (its preference), `tournament`.
    kind: &'static str,
}

impl RoundStartMails {
    /// The rows to queue with the table's game.
    pub(super) fn rows(&self) -> Vec<(NewMail<'_>, MailBounds)> {
        let due_ms = now_ms();
        self.rows
            .iter()
            .map(|(user, payload, bounds)| {
                let mail = NewMail {
                    user_id: *user,
                    kind: self.kind,
                    game_id: Some(self.game),
                    to_address: None,
                    payload,
                    due_ms,
                };
                (mail, *bounds)
            })
            .collect()
    }
}

/// The round-start mails of `game` for the people of `seats` who want them.
pub(super) async fn round_start_mails(
    app: &AppState,
    tournament: i64,
    name: &str,
    round: u32,
    game: i64,
    seats: &[&EntrantRow],
) -> Result<RoundStartMails, ApiError> {
    let notice = Notice::RoundStart { tournament, name: name.to_string(), round, game };
    let mut rows = Vec::new();
    for user in seats.iter().filter_map(|e| e.user_id) {
        if let Some((payload, bounds)) = wanted(&app.store, user, &notice).await? {
            rows.push((user, payload, bounds));
        }
    }
    Ok(RoundStartMails { rows, game, kind: notice.kind() })
}

/// Wakes the mail sender when mails were queued (it would find them at its next poll anyway).
pub(super) fn wake_sender(app: &AppState, mails: &RoundStartMails) {
    if !mails.rows.is_empty()
        && let Some(m) = &app.mail
    {
        m.wake.notify_one();
    }
}
