//! Correspondence clocks and vacations: a player's clock does not run while they are on
//! vacation. The clock's deadline is set as if no vacation came (the earliest it can be); when
//! it passes, the table counts the vacations in the turn and, if time is left, sets it again.

use super::*;
use crate::{running_time, setup::TimeControl};

/// While the player to move is on vacation, the table looks again at least this often (they
/// may come back early).
const VACATION_CHECK_MS: i64 = 3_600_000;

impl Table {
    /// The vacations of the player in `seat` since `since_ms`, for a correspondence clock (no
    /// other clock stops for them).
    pub(super) async fn pauses_of(&self, seat: usize, since_ms: i64) -> Vec<(i64, i64)> {
        let ClockKind::Control { time } = self.clock.control else { return Vec::new() };
        let Some(user) = self.seats.get(seat).and_then(|s| s.user_id) else { return Vec::new() };
        if !time.correspondence() {
            return Vec::new();
        }
        match self.store.vacations_since(user, since_ms).await {
            Ok(v) => v.iter().map(|v| (v.started_ms, v.end_ms())).collect(),
            Err(e) => {
                tracing::warn!(game = self.id, error = %e, "could not read vacations: the clock counts them as play");
                Vec::new()
            }
        }
    }

    /// Whether `player`, whose deadline passed at `now`, still has time because vacations
    /// stopped their clock; if so the deadline is set again.
    pub(super) async fn still_in_time(&mut self, player: usize, now: i64) -> bool {
        let ClockKind::Control { time: TimeControl::Correspondence { weekends_off, .. } } =
            self.clock.control
        else {
            return false;
        };
        let started = self.clock.turn_started_ms;
        let pauses = self.pauses_of(player, started).await;
        let used = running_time::between_pauses(started, now, weekends_off, &pauses);
        let left = self.clock.remaining_ms.get(player).copied().unwrap_or(0) - used;
        if left <= 0 {
            return false;
        }
        let on_vacation = pauses.iter().find(|&&(a, b)| a <= now && now < b);
        self.clock.deadline_ms = Some(match on_vacation {
            Some(&(_, end)) => end.min(now + VACATION_CHECK_MS),
            None => running_time::after(now, left, weekends_off),
        });
        true
    }
}
