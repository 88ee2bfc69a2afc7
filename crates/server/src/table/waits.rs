//! Who the game waits for, written to the database whenever it changes (`store/waits.rs`):
//! the "your move" list and notices read it on any instance without loading the game.

use super::{Status, Table};
use crate::store::{Wait, now_ms};

impl Table {
    /// The accounts this game waits for now: the seats to move (or deciding together), and
    /// those asked to answer an undo request. A seat's own answer to a secret window is its
    /// own to know, so the true list is used: each row is read by its player only.
    fn waits_now(&self) -> Vec<Wait> {
        if self.status != Status::Live {
            return Vec::new();
        }
        let turn = self.game.turn();
        let kind = if turn.simultaneous { "decision" } else { "move" };
        let seq = self.seq();
        let since_ms = if self.clock.turn_started_ms > 0 { self.clock.turn_started_ms } else { now_ms() };
        let mut waits: Vec<Wait> = Vec::new();
        let mut add = |user: Option<i64>, kind: &'static str, deadline_ms: Option<i64>| {
            if let Some(user_id) = user
                && !waits.iter().any(|w| w.user_id == user_id)
            {
                waits.push(Wait { user_id, kind, seq, since_ms, deadline_ms });
            }
        };
        for p in &turn.seats {
            let user = self.seats.get(p.index()).and_then(|s| s.user_id);
            add(user, kind, self.clock.deadline_ms);
        }
        for &seat in self.undo.as_ref().map_or(&[][..], |u| &u.waiting[..]) {
            add(self.seats.get(seat).and_then(|s| s.user_id), "undo", None);
        }
        waits
    }

    /// Writes the waits when they changed since last written (every table writes them once
    /// when loaded). A failed write is tried again at the next change of anything.
    pub(super) async fn publish_waits(&mut self) {
        let now = self.waits_now();
        // `since_ms` of an untimed game moves when it is reloaded: not a change worth a write.
        let same = |a: &[Wait], b: &[Wait]| {
            a.len() == b.len()
                && a.iter().zip(b).all(|(x, y)| {
                    (x.user_id, x.kind, x.seq, x.deadline_ms) == (y.user_id, y.kind, y.seq, y.deadline_ms)
                })
        };
        if self.waits_written.as_deref().is_some_and(|w| same(w, &now)) {
            return;
        }
        if self.waits_written.is_none() && now.is_empty() && self.status != Status::Live {
            // An open or finished game: lists read live games' waits only.
            self.waits_written = Some(now);
            return;
        }
        match self.store.set_waits(self.id, &now, self.fence.as_ref()).await {
            Ok(()) => self.waits_written = Some(now),
            Err(e) => {
                tracing::warn!(game = self.id, error = %e, "could not record who the game waits for");
                self.waits_written = None;
            }
        }
    }
}
