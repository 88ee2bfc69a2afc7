//! What a game tells the mail service (only when the server sends mail): which players it waits
//! for after each action (their turn and clock notices are read from that, see `crate::mail`),
//! and its end (a notice to each player who wants one).

use super::{Status, Table};
use crate::mail::{Notice, notify_store};

impl Table {
    /// After action `seq`: the players the game now waits for, or the end.
    pub(super) async fn mail_after_action(&self, seq: u64) {
        if self.store.mail_bounds().is_none() {
            return;
        }
        let result = if self.status == Status::Finished {
            self.mail_game_over().await
        } else {
            self.mail_waiting(seq).await
        };
        if let Err(e) = result {
            // Mail is a courtesy: the game goes on without it.
            tracing::warn!(game = self.id, error = %e, "mail notices of a game could not be noted");
        }
    }

    async fn mail_waiting(&self, seq: u64) -> Result<(), crate::error::ApiError> {
        let waiting: Vec<usize> = self.game.waiting_for().iter().map(|p| p.index()).collect();
        let users: Vec<i64> = self
            .seats
            .iter()
            .filter(|s| waiting.contains(&s.seat) && s.bot_level.is_none())
            .filter_map(|s| s.user_id)
            .collect();
        self.store.set_mail_waiting(self.id, seq as i64, &users, self.clock.deadline_ms).await
    }

    async fn mail_game_over(&self) -> Result<(), crate::error::ApiError> {
        self.store.set_mail_waiting(self.id, 0, &[], None).await?;
        let outcome = self.game.outcome();
        let players = self.seats.len();
        let mut told = Vec::new();
        for s in self.seats.iter().filter(|s| s.bot_level.is_none()) {
            let Some(user) = s.user_id else { continue };
            // One mail per account, even with several seats.
            if told.contains(&user) {
                continue;
            }
            told.push(user);
            let place = outcome.as_ref().and_then(|o| o.places.get(s.seat).copied());
            notify_store(&self.store, user, &Notice::GameOver { game: self.id, place, players }).await?;
        }
        Ok(())
    }
}
