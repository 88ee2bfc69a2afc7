//! The end of a game: its result stored, ratings changed (or why not), the seats' new ratings
//! read back.

use super::*;

impl Table {
    pub(super) async fn finish(&mut self) -> Result<(), ApiError> {
        self.status = Status::Finished;
        self.clock.deadline_ms = None;
        let outcome = self.game.outcome();
        let aborted = self.setup.rated && self.too_short();
        let mut result = serde_json::to_value(outcome).unwrap_or_default();
        if aborted && let Some(fields) = result.as_object_mut() {
            fields.insert("aborted".into(), true.into());
            fields.insert("unrated".into(), crate::rating::ABORTED.into());
        }
        // Every seat of a rated game is an account (checked at creation and joining).
        let places: Option<Vec<(i64, u32)>> = outcome
            .filter(|_| self.setup.rated && !aborted)
            .and_then(|o| self.seats.iter().map(|s| Some((s.user_id?, *o.places.get(s.seat)?))).collect());
        let rated = places.as_deref().map(|p| (self.setup.rules.system.as_str(), p));
        let result = serde_json::to_string(&result).unwrap_or_default();
        let refused = self.store.finish_game(self.id, &result, rated, self.fence.as_ref()).await?;
        self.unrated = if aborted { Some(crate::rating::ABORTED.into()) } else { refused };
        self.load_ratings().await
    }

    /// A rated game that ends before every seat has made [`crate::rating::MIN_MOVES`] moves of
    /// its own is aborted. Resignations and the server's actions (time-outs, chance) are not
    /// moves: a bot resigning at once, or left to time out, is no win to farm.
    pub(super) fn too_short(&self) -> bool {
        let mut moves = vec![0usize; self.seats.len()];
        for &seq in &self.standing {
            let Some(action) = seq
                .checked_sub(1)
                .and_then(|i| self.actions.get(i as usize))
                .and_then(|t| serde_json::from_str::<RecordedAction>(t).ok())
            else {
                continue;
            };
            let resigned = action.input.get("type").and_then(|t| t.as_str()) == Some("resign");
            if !resigned
                && self.game.seat_may_send(&action.input)
                && let Some(n) = moves.get_mut(usize::from(action.player))
            {
                *n += 1;
            }
        }
        moves.iter().any(|&n| n < crate::rating::MIN_MOVES)
    }

    pub(super) async fn load_ratings(&mut self) -> Result<(), ApiError> {
        let mut ratings = vec![None; self.seats.len()];
        for r in self.store.seats_rated(self.id, &self.setup.rules.system).await? {
            if let Some(slot) = ratings.get_mut(r.seat.seat) {
                *slot = r.rating;
            }
        }
        self.ratings = ratings;
        Ok(())
    }
}
