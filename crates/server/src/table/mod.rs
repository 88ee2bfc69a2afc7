//! A game being played: one task per game owns its state (the engine game, seats, clock) and
//! serialises everything that changes it — actions, joins, clock expiries, bot moves. Every
//! action is validated by the engine, committed to the log, and only then acknowledged and
//! broadcast (already serialised once, as JSON) to every player and spectator.
//!
//! This module is the game actor: its state and its loop, which takes one command at a time.
//! [`load`] reads a table back from the database, [`commit`] is every action's one path (and
//! the clock's time-outs), [`finish`] ends a game and its ratings, [`views`] is what watchers
//! are sent; `messages.rs` holds the commands the actor takes and what it sends, [`hub`] finds
//! and starts tables, [`seating`] handles joining, leaving and the start, [`chat`] the chat, and
//! [`bots`] schedules computer seats. Nothing here knows a particular rule system: the game is
//! an [`AnyGame`] and everything about it goes through the registry.

mod abandon;
mod bots;
pub(crate) mod chat;
mod commit;
mod days;
mod finish;
mod hub;
mod load;
mod mail_hooks;
mod messages;
mod seating;
pub mod size;
mod undo;
mod views;
mod waits;

pub use chat::{CHAT_MAX_CHARS, clean as clean_chat};
pub use hub::{BotPools, Hub, Shared};
pub use messages::{Broadcast, Command, Payload, SeatTexts, TableHandle};
pub use seating::seat_name;
pub use undo::effective;

use commit::stored_clock;
use load::replay;

use std::{
    collections::{HashMap, HashSet, VecDeque},
    sync::{Arc, Mutex},
    time::{Duration, Instant},
};

use gobeyond_bots::Level;
use gobeyond_rules::{
    AnyGame, Player, Viewer,
    record::{PlayerInfo, RecordedAction},
    registry::Object,
};
use serde_json::value::RawValue;
use tokio::sync::{Semaphore, broadcast, mpsc, oneshot};

use crate::{
    clock::{Clock, ClockKind},
    cluster::Cluster,
    error::ApiError,
    protocol::{GameInfo, SeatView, SeqAction, ServerMessage},
    rating::RatingView,
    setup::{GameSetup, SeatChoice},
    store::{Fence, SeatRow, Store, User, now_ms},
};

/// The answer when a table stopped before answering: its server may have applied the request.
pub(crate) const UNKNOWN: &str =
    "the game stopped answering before saying whether this was done: watch it again to see where it stands";

/// Test hook: a pause between an action's commit and its answer
/// (`GOBEYOND_TEST_REPLY_DELAY_MS`), so that a fault test can kill the server in that window.
/// Never set on a real server (it only slows answers down).
static TEST_REPLY_DELAY: std::sync::LazyLock<Option<Duration>> = std::sync::LazyLock::new(|| {
    let ms = std::env::var("GOBEYOND_TEST_REPLY_DELAY_MS").ok()?.parse::<u64>().ok()?;
    Some(Duration::from_millis(ms.min(60_000)))
});

/// Updates a watcher may fall behind before it is sent a full state instead.
const BROADCAST_BUFFER: usize = 256;
/// `Command::Expire` with this cutoff: the creator cancels the open game (`POST
/// /api/games/{id}/cancel`), whenever it was made.
pub const CANCEL: i64 = i64::MAX;

#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize, ts_rs::TS)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    Open,
    Live,
    Finished,
}

impl Status {
    fn parse(s: &str) -> Status {
        match s {
            "live" => Status::Live,
            "finished" => Status::Finished,
            _ => Status::Open,
        }
    }
}

struct Table {
    id: i64,
    store: Store,
    setup: GameSetup,
    status: Status,
    creator: i64,
    /// Listed in the lobby; a game that is not takes every seat by invitation only.
    public: bool,
    invite: Option<String>,
    seats: Vec<SeatRow>,
    game: AnyGame,
    /// The log as JSON, `actions[i]` having sequence number `i + 1`.
    actions: Vec<String>,
    clock: Clock,
    updates: broadcast::Sender<Broadcast>,
    bots: BotPools,
    bot_pending: Option<u64>,
    /// What the hub reads without asking (live or not, last activity).
    shared: Arc<Shared>,
    created_ms: i64,
    /// Removed (an expired open game): the table stops.
    gone: bool,
    /// When someone last watched the game (or it was loaded): games of bots only pause when
    /// nobody has for a while.
    watched_ms: i64,
    /// Draws chance events (dice, cards): seeded from the system's randomness, never stored
    /// (the drawn outcomes are).
    chance: gobeyond_rules::Rng,
    chat_times: HashMap<i64, VecDeque<Instant>>,
    /// Events already sent.
    events_sent: usize,
    /// Per seat, its player's rating in this rule system (accounts only).
    ratings: Vec<Option<RatingView>>,
    /// Why this finished rated game changed no rating (see [`crate::rating`]).
    unrated: Option<String>,
    /// Ended by the server because nobody played in it (see `abandon.rs`).
    abandoned: bool,
    /// The sequence numbers of the actions standing (not taken back), in order.
    standing: Vec<u64>,
    /// The last take-back marker's sequence number (0: none).
    last_take_back: u64,
    undo: Option<undo::Request>,
    /// Who the game waits for, as last written to the database (`None`: not yet).
    waits_written: Option<Vec<crate::store::Wait>>,
    /// Moves whose undo was declined: not asked again.
    undo_declined: HashSet<u64>,
    /// Computer seats that have nothing to send in the position of this sequence number (a
    /// decline left to the window's end): not asked again until the game moves on.
    bots_silent: (u64, Vec<usize>),
    /// The computer seat whose turn goes on, the sequence number after its last action, and when
    /// its turn began: the actions of one turn share one search budget.
    bot_turn: Option<(usize, u64, i64)>,
    /// With several instances: this instance's lease on the game, which every write shows.
    fence: Option<Fence>,
    cluster: Option<Arc<Cluster>>,
    /// Counts this game in the metrics while it is in memory.
    _loaded: crate::metrics::Held<crate::metrics::SystemLabels>,
}

impl Table {
    /// Serves commands until stopped; when unloaded, returns the hub's `done` signal.
    async fn run(
        &mut self,
        mut rx: mpsc::Receiver<Command>,
        me: mpsc::Sender<Command>,
        mut stop: tokio::sync::watch::Receiver<bool>,
    ) -> Option<tokio::sync::watch::Sender<bool>> {
        let me = me.downgrade();
        // A test moving the server's time forward wakes the clock (see `crate::now`).
        let mut jumps = self.store.time.jumps();
        self.touch();
        if self.status == Status::Open
            && self.seats.iter().all(|s| s.user_id.is_some() || s.bot_level.is_some())
            && let Err(e) = self.start().await
        {
            tracing::error!(game = self.id, error = %e, "could not start the game");
        }
        loop {
            if self.gone {
                return None;
            }
            if !self.owned() {
                tracing::warn!(game = self.id, "this server's lease on the game lapsed: the table stops");
                return None;
            }
            self.publish_waits().await;
            if self.updates.receiver_count() > 0 {
                self.watched_ms = now_ms();
            }
            if let Some(tx) = me.upgrade()
                && !self.paused()
            {
                self.resolve_chance().await;
                self.schedule_bots(&tx).await;
            }
            self.shared.pinned.store(self.pinned(), std::sync::atomic::Ordering::Relaxed);
            let deadline = self.clock.deadline_ms.filter(|_| self.status == Status::Live);
            let sleep = async {
                match deadline {
                    Some(d) => {
                        tokio::time::sleep(Duration::from_millis((d - self.store.now()).max(0) as u64)).await
                    }
                    None => std::future::pending().await,
                }
            };
            tokio::select! {
                cmd = rx.recv() => match cmd {
                    Some(Command::Unload { done }) => {
                        // No new commands; those already queued are answered by this copy.
                        rx.close();
                        while let Some(cmd) = rx.recv().await {
                            self.handle(cmd).await;
                        }
                        if let Some(fence) = &self.fence
                            && self.status != Status::Live
                            && let Err(e) = self.store.release_lease(self.id, fence).await
                        {
                            tracing::warn!(game = self.id, error = %e, "could not release the lease");
                        }
                        return Some(done);
                    }
                    Some(cmd) => {
                        self.touch();
                        self.handle(cmd).await;
                    }
                    None => return None,
                },
                () = sleep => self.time_out().await,
                _ = jumps.changed() => {}
                _ = stop.changed() => return None,
                () = self.shared.revoked_now() => return None,
            }
        }
    }

    /// Estimates this table's own bytes for the hub's budget ([`size::own_bytes`]).
    fn measure(&self) {
        let system = gobeyond_rules::registry::SystemInfo::get(self.game.system());
        let bytes = size::own_bytes(
            self.game.map().len(),
            system.map_or(0, |s| s.state_bytes_per_node),
            self.actions.iter().map(String::len).sum(),
            self.actions.len(),
            self.game.events_json(0).get().len(),
        );
        self.shared.bytes.store(bytes, std::sync::atomic::Ordering::Relaxed);
    }

    /// Whether the game must stay in memory: its clock runs, a bot thinks or is to move, or an
    /// undo waits for its answer. Anything else is found again in the log when next asked.
    fn pinned(&self) -> bool {
        self.status == Status::Live
            && !self.paused()
            && (self.clock.deadline_ms.is_some() || self.bot_pending.is_some() || self.undo.is_some())
    }

    /// A game of bots only that nobody has watched for a while: its bots wait (and it leaves
    /// memory) until someone watches it again.
    fn paused(&self) -> bool {
        let bots_only = self.seats.iter().all(|s| s.user_id.is_none() && s.bot_level.is_some());
        bots_only && now_ms() - self.watched_ms > self.bots.unwatched_patience.as_millis() as i64
    }

    /// This instance still surely runs the game: not taken over, and its leases renewed within
    /// their lifetime (a server frozen past it must not serve a stale state).
    fn owned(&self) -> bool {
        !self.shared.revoked() && self.cluster.as_ref().is_none_or(|c| c.lease_valid())
    }

    fn touch(&self) {
        self.shared.active_ms.store(now_ms(), std::sync::atomic::Ordering::Relaxed);
    }

    /// Removes an open game nobody joined in time.
    async fn expire(&mut self, before_ms: i64) -> Result<bool, ApiError> {
        if self.status != Status::Open || self.created_ms >= before_ms {
            return Ok(false);
        }
        self.store.delete_open_game(self.id).await?;
        self.gone = true;
        let (error, code) = if before_ms == CANCEL {
            (format!("game {} was cancelled by its creator", self.id), "cancelled")
        } else {
            (format!("game {} expired: nobody joined it in time", self.id), "expired")
        };
        self.broadcast(ServerMessage::Error {
            id: None,
            game: Some(self.id),
            error,
            code: Some(code.into()),
        });
        Ok(true)
    }

    async fn handle(&mut self, cmd: Command) {
        if self.gone || !self.owned() {
            // Dropped unanswered: the handler hears the game stopped answering, and the
            // client tries again, reaching the new owner.
            self.gone = true;
            return;
        }
        match cmd {
            Command::Unload { done } => drop(done),
            Command::Announce { text, players, line } => {
                let mut payload = Payload::public(text);
                payload.seats = players.map(|p| self.seats.iter().map(|s| (s.user_id, p.clone())).collect());
                let _ = self.updates.send((0, payload));
                if let Some(line) = line {
                    self.say(line).await;
                }
            }
            Command::Renamed { user, name } => {
                for seat in self.seats.iter_mut().filter(|s| s.user_id == Some(user)) {
                    seat.user_name = Some(name.clone());
                }
            }
            Command::Abandon { seq, user, reply } => {
                let _ = reply.send(self.abandon(seq, user).await);
            }
            Command::Expire { before_ms, reply } => {
                let _ = reply.send(self.expire(before_ms).await);
            }
            Command::Act { user, seat, action, after, reply } => {
                let r = self.act_after(user, seat, action, after).await;
                if r.is_ok()
                    && let Some(delay) = *TEST_REPLY_DELAY
                {
                    tokio::time::sleep(delay).await;
                }
                let _ = reply.send(r);
            }
            Command::Undo { user, reply } => {
                let _ = reply.send(self.request_undo(user).await);
            }
            Command::UndoAnswer { user, accept, reply } => {
                let _ = reply.send(self.answer_undo(user, accept).await);
            }
            Command::Join { user, seat, invite, reply } => {
                let _ = reply.send(self.join(&user, seat, invite).await);
            }
            Command::Leave { user, reply } => {
                let _ = reply.send(self.leave(user).await);
            }
            Command::Sync { since, user, reply } => {
                let viewer = self.viewer(user);
                let _ = reply.send((self.seq(), self.sync_message(since, viewer)));
            }
            Command::Info { reply } => {
                let _ = reply.send(self.info());
            }
            Command::Chat { user, channel, text, reply } => {
                let _ = reply.send(self.chat(&user, channel, text).await);
            }
            Command::BotMove { seq, seat, action } => self.bot_moved(seq, seat, action).await,
            Command::BotFailed { seq, seat } => self.bot_failed(seq, seat).await,
        }
    }

    fn seq(&self) -> u64 {
        self.actions.len() as u64
    }

    /// Who the clock runs for: the player to move, or a decision of several seats at once
    /// (one deadline for all).
    fn turn(&self) -> (Option<usize>, bool) {
        let turn = self.game.turn();
        if turn.simultaneous { (None, true) } else { (turn.seats.first().map(|p| p.index()), false) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_seated_user_gets_their_seat_view_and_others_the_public_one() {
        let mut p = Payload::public("public".into());
        assert_eq!(&*p.for_user(7), "public");
        p.seats = Some(
            vec![(Some(7), Arc::from("seat 0")), (None, Arc::from("seat 1")), (Some(9), Arc::from("seat 2"))]
                .into(),
        );
        assert_eq!(&*p.for_user(7), "seat 0");
        assert_eq!(&*p.for_user(9), "seat 2");
        assert_eq!(&*p.for_user(8), "public", "a spectator never gets a seat's view");
    }
}
