//! Games nobody plays in end as abandoned: with no result, no rating change. Untimed games once
//! stayed live for ever, filled every lobby's live list and, at 20, stopped their creator from
//! making games. The hub's sweep ends a live game in which nothing was played for
//! [`crate::limit::Limits::abandon_after`]; the only person in a game against bots may end it at
//! once (from My games).

use super::*;

/// Why an abandoned rated game changed no rating.
const ABANDONED: &str = "abandoned: nobody played in it";

/// Whether a stored result is an abandonment's.
pub(super) fn abandoned_result(result: &str) -> bool {
    serde_json::from_str::<serde_json::Value>(result)
        .ok()
        .and_then(|v| v.get("abandoned")?.as_bool())
        .unwrap_or(false)
}

impl Table {
    /// Ends the game as abandoned: by the sweep if nothing was played since action `seq`, or
    /// for `user` if they are the only person in it. `Ok(false)`: it was not (no longer live,
    /// or played in since).
    pub(super) async fn abandon(&mut self, seq: Option<u64>, user: Option<i64>) -> Result<bool, ApiError> {
        if let Some(user) = user {
            if !self.seats.iter().any(|s| s.user_id == Some(user)) {
                return Err(ApiError::Forbidden("you hold no seat in this game".into()));
            }
            if self.seats.iter().any(|s| s.user_id.is_some_and(|u| u != user)) {
                return Err(ApiError::Conflict("other people play in this game: resign instead".into()));
            }
            if self.status == Status::Finished {
                return Err(ApiError::Conflict("the game is over".into()));
            }
        }
        if self.status != Status::Live || seq.is_some_and(|s| s != self.seq()) {
            return Ok(false);
        }
        if !self.owned() {
            self.gone = true;
            return Err(ApiError::Unavailable("this game moved to another server: try again".into()));
        }
        let result = serde_json::json!({"abandoned": true, "unrated": ABANDONED}).to_string();
        self.store.finish_game(self.id, &result, None, self.fence.as_ref()).await?;
        self.status = Status::Finished;
        self.abandoned = true;
        self.clock.deadline_ms = None;
        // A search in flight answers a game that is over: its move is dropped.
        self.bot_pending = None;
        self.withdraw_undo();
        if self.setup.rated {
            self.unrated = Some(ABANDONED.into());
        }
        self.send_sync_to_all();
        self.broadcast(ServerMessage::Lobby { game: self.id, info: self.info() });
        Ok(true)
    }
}
