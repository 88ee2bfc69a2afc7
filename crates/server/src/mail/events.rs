//! Notices read from the games waiting for players (`mail_waiting`, kept by the tables): a
//! game idle past its player's setting, a clock running low, the daily digest. Each is marked
//! before it is queued, with a conditional update, so that of several instances one queues it.

use super::{MailConfig, Notice, notify_store};
use crate::{error::ApiError, store::Store};

/// Notices queued per scan of each kind, at most (the next scan takes the rest).
const PER_SCAN: i64 = 100;

/// Queues the notices that are due.
pub async fn scan(store: &Store, config: &MailConfig) -> Result<(), ApiError> {
    let hour_ms = config.hour.as_millis() as i64;
    for row in store.due_turn_notices(hour_ms, PER_SCAN).await? {
        if store.mark_waiting_mailed(&row, false).await? {
            notify_store(store, row.user_id, &Notice::YourTurn { game: row.game_id }).await?;
        }
    }
    for row in store.due_time_notices(hour_ms, PER_SCAN).await? {
        let Some(deadline_ms) = row.deadline_ms else { continue };
        if store.mark_waiting_mailed(&row, true).await? {
            notify_store(store, row.user_id, &Notice::TimeLow { game: row.game_id, deadline_ms }).await?;
        }
    }
    for (user, games) in store.claim_digests(24 * hour_ms, PER_SCAN).await? {
        notify_store(store, user, &Notice::Digest { games }).await?;
    }
    Ok(())
}
