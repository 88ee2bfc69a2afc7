//! A watched game: a sync of its state, then its updates as they happen, in order and without
//! gaps, followed across lags and across the instances that host its table.

use std::{
    collections::HashMap,
    time::{Duration, Instant},
};

use tokio::{
    sync::{broadcast, mpsc},
    task::JoinHandle,
};

use super::{MAX_WATCHED, Outbox, send_error};
use crate::{
    AppState,
    auth::Session,
    error::ApiError,
    social::ChatFilter,
    table::{Broadcast, Command},
};

/// Starts (or restarts) watching `game` for this socket: a sync from `since` now, the updates
/// after it from a task of their own.
pub(super) async fn watch(
    app: &AppState,
    session: &Session,
    game: i64,
    since: Option<u64>,
    out: &Outbox,
    watched: &mut HashMap<i64, JoinHandle<()>>,
    chat_filter: &ChatFilter,
) {
    if !watched.contains_key(&game) && watched.len() >= MAX_WATCHED {
        send_error(out, None, &format!("watch at most {MAX_WATCHED} games at once"));
        return;
    }
    if let Err(e) = crate::http::visible(app, game, Some(session), None).await {
        return send_error(out, None, &format!("game {game}: {e}"));
    }
    let table = match app.hub.table(game).await {
        Ok(t) => t,
        Err(e) => return send_error(out, None, &format!("game {game}: {e}")),
    };
    // Subscribe before asking for the state, so nothing falls between the two.
    let updates = table.updates.subscribe();
    let user = session.user.id;
    let (last, sync) = match table.ask(|reply| Command::Sync { since, user, reply }).await {
        Ok(s) => s,
        Err(e) => return send_error(out, None, &format!("game {game}: {e}")),
    };
    out.send(sync.into());
    // Only the command queue is kept: a watcher holding the broadcast's sender would never hear
    // that the table stopped.
    let follow = Follow { game, user, last, commands: table.commands, updates };
    let forward = tokio::spawn(follow.forward(app.clone(), out.clone(), chat_filter.clone()));
    if let Some(old) = watched.insert(game, forward) {
        old.abort();
    }
}

/// One watcher's place in a game's updates.
struct Follow {
    game: i64,
    user: i64,
    /// The last sequence number this client has.
    last: u64,
    commands: mpsc::Sender<Command>,
    updates: broadcast::Receiver<Broadcast>,
}

impl Follow {
    /// Sends the updates to the client until it is gone or the game cannot be found again.
    async fn forward(mut self, app: AppState, out: Outbox, chat_filter: ChatFilter) {
        loop {
            let sync = match self.updates.recv().await {
                Ok((seq, msg)) => {
                    // Updates already covered by the sync are skipped.
                    if seq != 0 {
                        if seq <= self.last {
                            continue;
                        }
                        self.last = seq;
                    } else if chat_filter.hides(&app, self.user, msg.parts().0).await {
                        // A line from a player the reader blocked.
                        continue;
                    }
                    // An empty text is a message this user does not get (the spectators' chat,
                    // for a player of a live game).
                    let text = msg.for_user(self.user);
                    if !text.is_empty() && !out.send(text) {
                        return;
                    }
                    continue;
                }
                // Fell behind: a full state replaces what was dropped.
                Err(broadcast::error::RecvError::Lagged(_)) => self.sync().await,
                // The table stopped (another instance took the game over, or its owner died):
                // find it again and catch up from the last sequence number this client saw.
                Err(broadcast::error::RecvError::Closed) => self.reattach(&app).await,
            };
            if !sync.is_some_and(|sync| out.send(sync.into())) {
                return;
            }
        }
    }

    /// A sync from the last sequence number on, from the same table.
    async fn sync(&mut self) -> Option<String> {
        let (reply, answer) = tokio::sync::oneshot::channel();
        let (since, user) = (Some(self.last), self.user);
        self.commands.send(Command::Sync { since, user, reply }).await.ok()?;
        let (seq, sync) = answer.await.ok()?;
        self.last = seq;
        Some(sync)
    }

    /// The game's table again after its copy stopped, with a sync from the last sequence number
    /// on: retried for up to two lease lifetimes (a dead owner's games wait for its lease to
    /// expire).
    async fn reattach(&mut self, app: &AppState) -> Option<String> {
        let patience =
            app.hub.cluster().map_or(Duration::from_secs(5), |c| 2 * c.ttl + Duration::from_secs(2));
        let until = Instant::now() + patience;
        let mut pause = Duration::from_millis(50);
        let (since, user) = (Some(self.last), self.user);
        while Instant::now() < until {
            match app.hub.table(self.game).await {
                Ok(table) => {
                    let updates = table.updates.subscribe();
                    if let Ok((seq, sync)) = table.ask(|reply| Command::Sync { since, user, reply }).await {
                        (self.commands, self.updates, self.last) = (table.commands, updates, seq);
                        return Some(sync);
                    }
                }
                // Gone for good (an expired open game), or this server is stopping.
                Err(ApiError::NotFound(_)) => return None,
                Err(ApiError::Unavailable(m)) if m.contains("shutting down") => return None,
                Err(_) => {}
            }
            tokio::time::sleep(pause).await;
            pause = (pause * 2).min(Duration::from_secs(1));
        }
        None
    }
}
