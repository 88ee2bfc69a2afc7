//! A game being played: one task per game owns its state (the engine game, seats, clock) and
//! serialises everything that changes it — actions, joins, clock expiries, bot moves. Every
//! action is validated by the engine, committed to the log, and only then acknowledged and
//! broadcast (already serialised once, as JSON) to every player and spectator.
//!
//! This module is the game actor (commit, clock, broadcasts); `messages.rs` holds the commands it
//! takes and what it sends, [`hub`] finds and starts tables, [`seating`] handles joining,
//! leaving and the start, [`chat`] the chat, and [`bots`] schedules computer seats. Nothing here knows a particular rule system: the game
//! is an [`AnyGame`] and everything about it goes through the registry.

mod abandon;
mod bots;
pub(crate) mod chat;
mod days;
mod hub;
mod mail_hooks;
mod messages;
mod seating;
pub mod size;
mod undo;
mod waits;

pub use chat::{CHAT_MAX_CHARS, clean as clean_chat};
pub use hub::{BotPools, Hub, Shared};
pub use messages::{Broadcast, Command, Payload, SeatTexts, TableHandle};
pub use seating::seat_name;
pub use undo::effective;

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

/// The rule system's own clock when it has one, else the game's time control.
fn clock_kind(setup: &GameSetup) -> ClockKind {
    match setup.rules.info().ok().and_then(|i| i.clock(&setup.rules.settings)) {
        Some(c) => ClockKind::PerTurn { turn_ms: c.turn_ms, decision_ms: c.decision_ms },
        None => ClockKind::Control { time: setup.time },
    }
}

impl Table {
    async fn load(
        store: Store,
        id: i64,
        bots: BotPools,
        shared: Arc<Shared>,
        owner: Option<(Fence, Arc<Cluster>)>,
    ) -> Result<Table, ApiError> {
        let (fence, cluster) = owner.unzip();
        let row =
            store.game(id).await?.ok_or_else(|| ApiError::NotFound(format!("there is no game {id}")))?;
        let mut setup: GameSetup = serde_json::from_str(&row.setup)
            .map_err(|e| ApiError::Internal(format!("game {id} has unreadable settings: {e}")))?;
        drop(row.setup);
        setup.share_map()?;
        let seats = store.seats(id).await?;
        let actions: Vec<String> = store.actions(id, 0).await?.into_iter().map(|(_, text)| text).collect();
        let Replayed { game, standing, last_take_back } =
            replay(&setup, &actions).map_err(|e| ApiError::Internal(format!("game {id}: {e}")))?;
        let status = Status::parse(&row.status);
        let clock = row
            .clock
            .as_deref()
            .and_then(Clock::from_stored)
            .unwrap_or_else(|| Clock::new(clock_kind(&setup), setup.players));
        let (updates, _) = broadcast::channel(BROADCAST_BUFFER);
        let events_sent = game.event_count();
        let loaded = crate::metrics::loaded_game(game.system());
        let mut table = Table {
            id,
            store,
            setup,
            status,
            creator: row.creator,
            public: row.public,
            invite: row.invite,
            seats,
            game,
            actions,
            clock,
            updates,
            bots,
            bot_pending: None,
            shared,
            created_ms: row.created_ms,
            gone: false,
            watched_ms: now_ms(),
            chance: gobeyond_rules::Rng::new({
                let mut b = [0u8; 8];
                getrandom::fill(&mut b).map_err(|e| ApiError::Internal(format!("no randomness: {e}")))?;
                u64::from_le_bytes(b)
            }),
            chat_times: HashMap::new(),
            events_sent,
            ratings: Vec::new(),
            unrated: row.result.as_deref().and_then(unrated_of),
            abandoned: row.result.as_deref().is_some_and(abandon::abandoned_result),
            standing,
            last_take_back,
            undo: None,
            waits_written: None,
            undo_declined: HashSet::new(),
            bots_silent: (0, Vec::new()),
            bot_turn: None,
            _loaded: loaded,
            fence,
            cluster,
        };
        table.load_ratings().await?;
        table.measure();
        // The map's bytes, counted once for every table of it (see `Hub::bytes_in`).
        let map = table.game.map();
        let map_bytes = crate::shared_maps::map_bytes(&table.setup.map, map);
        table.shared.map.store(Arc::as_ptr(map) as usize, std::sync::atomic::Ordering::Relaxed);
        table.shared.map_bytes.store(map_bytes, std::sync::atomic::Ordering::Relaxed);
        if status == Status::Live {
            let (player, simultaneous) = table.turn();
            // The current turn goes on from when it began (stored with the clock): the time
            // already used, the server's downtime included, is charged, never given back.
            let began =
                if table.clock.turn_started_ms > 0 { table.clock.turn_started_ms } else { table.store.now() };
            let decision = table.game.decision_ms();
            table.clock.start_decision(player, simultaneous, decision, began);
            table.clock.apply_window(table.game.window_ms());
            if table.game.outcome().is_some() {
                // Finished in the log but not marked (a crash between the two writes).
                table.finish().await?;
            }
        }
        Ok(table)
    }

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
                let r = match after {
                    Some(after) if after != self.seq() => Err(ApiError::Stale(format!(
                        "the game has moved on (action {} now, yours followed {after}): watch it again to see where it stands",
                        self.seq()
                    ))),
                    _ => self.act(user, seat, action).await,
                };
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
            Command::BotMove { seq, seat, action } => {
                if self.bot_pending == Some(seq) {
                    self.bot_pending = None;
                    if self.seq() == seq && self.game.left_to_the_window(&action) {
                        self.bot_silent(seq, seat);
                    } else if self.seq() == seq {
                        match self.commit(seat, action).await {
                            Ok(after) => {
                                if let Some(turn) = self.bot_turn.as_mut().filter(|t| t.0 == seat) {
                                    turn.1 = after;
                                }
                            }
                            Err(e) => {
                                tracing::warn!(game = self.id, seat, error = %e, "bot action refused");
                                self.fallback(seat).await;
                            }
                        }
                    }
                }
            }
            Command::BotFailed { seq, seat } => {
                if self.bot_pending == Some(seq) {
                    self.bot_pending = None;
                    if self.seq() == seq {
                        self.fallback(seat).await;
                    }
                }
            }
        }
    }

    /// Chance events (dice, card draws) are drawn here, by the server, and logged as inputs:
    /// replays stay deterministic and no player ever holds a seed. Bounded, so that no rule
    /// system can keep a table busy.
    async fn resolve_chance(&mut self) {
        for _ in 0..64 {
            if self.status != Status::Live {
                return;
            }
            let Some((seat, mut input)) = self.game.draw_chance(&mut self.chance) else { return };
            // A test game's fixed outcome of this kind, if one is left (see `GameSetup::rigged`).
            let kind = input.get("type").cloned();
            if let Some(i) = self.setup.rigged.iter().position(|r| r.get("type") == kind.as_ref()) {
                let rigged = self.setup.rigged.remove(i);
                let mut trial = self.game.clone();
                if trial.submit(seat, &rigged).is_ok() {
                    input = rigged;
                }
            }
            if let Err(e) = self.commit(seat.index(), input).await {
                tracing::error!(game = self.id, error = %e, "a chance outcome was refused");
                return;
            }
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

    /// A human's action, checked for seat and turn, then committed.
    async fn act(&mut self, user: i64, seat: Option<usize>, action: Object) -> Result<u64, ApiError> {
        match self.status {
            Status::Open => return Err(ApiError::Conflict("the game has not started".into())),
            Status::Finished => return Err(ApiError::Conflict("the game is over".into())),
            Status::Live => {}
        }
        let mine: Vec<usize> =
            self.seats.iter().filter(|s| s.user_id == Some(user)).map(|s| s.seat).collect();
        if mine.is_empty() {
            return Err(ApiError::Forbidden("you hold no seat in this game".into()));
        }
        let waiting: Vec<usize> = self.game.waiting_for().iter().map(|p| p.index()).collect();
        let seat = match seat {
            Some(s) if !mine.contains(&s) => {
                return Err(ApiError::Forbidden(format!("{} is not yours", self.seat_words(s))));
            }
            Some(s) => s,
            None => *mine.iter().find(|s| waiting.contains(s)).unwrap_or(&mine[0]),
        };
        if !self.game.seat_may_send(&action) {
            return Err(ApiError::BadRequest(
                "time-outs are the server clock's to send, and chance outcomes the server's".into(),
            ));
        }
        // Whose turn it is is the rule system's to judge: some actions (a resignation) may be
        // sent at any time, and its refusal names the players as the board shows them.
        self.commit(seat, action).await
    }

    /// A seat as the page shows it: "Seat 2 (ada)", counted from 1.
    fn seat_words(&self, seat: usize) -> String {
        match self.seats.get(seat).map(seat_name).filter(|n| !n.is_empty()) {
            Some(name) => format!("Seat {} ({name})", seat + 1),
            None => format!("Seat {}", seat + 1),
        }
    }

    /// Applies, logs, acknowledges: the one path for every action (humans, bots, the clock).
    async fn commit(&mut self, seat: usize, input: Object) -> Result<u64, ApiError> {
        let (before_player, before_simultaneous) = self.turn();
        let prior_clock = self.clock.clone();
        self.game.submit(Player(seat as u8), &input).map_err(ApiError::Refused)?;
        // Logged and broadcast in the system's own written form (placements with both the
        // node number and its label), however it was sent.
        let logged = self.game.input_count().checked_sub(1).and_then(|i| self.game.input(i));
        let action = match logged {
            Some((p, input)) => RecordedAction { player: p.0, at_ms: None, input },
            None => RecordedAction { player: seat as u8, at_ms: None, input },
        };
        let now = self.store.now();
        let (player, simultaneous) = self.turn();
        if before_player == Some(seat) && !before_simultaneous {
            let pauses = self.pauses_of(seat, self.clock.turn_started_ms).await;
            self.clock.end_turn_paused(seat, now, &pauses);
        }
        if (player, simultaneous) != (before_player, before_simultaneous) || !simultaneous {
            self.clock.start_decision(player, simultaneous, self.game.decision_ms(), now);
        }
        // A window keeps its start; an answer may end it (a Reject played).
        self.clock.apply_window(self.game.window_ms());
        let text = serde_json::to_string(&action).map_err(|e| ApiError::Internal(e.to_string()))?;
        let clock = stored_clock(&self.clock)?;
        let seq = self.seq() + 1;
        let started = Instant::now();
        let appended =
            self.store.append_action(self.id, seq, &text, clock.as_deref(), self.fence.as_ref()).await;
        if appended.is_ok() {
            crate::metrics::committed(self.game.system(), started.elapsed());
        }
        if let Err(e) = appended {
            // Not committed: the action never happened. Rebuild the state from the log.
            tracing::error!(game = self.id, error = %e, "could not log an action");
            if matches!(e, ApiError::Fenced(_)) {
                // Another instance runs the game now: this copy stops.
                self.gone = true;
            }
            self.clock = prior_clock;
            self.reload_game().await;
            return Err(e);
        }
        self.actions.push(text);
        self.standing.push(seq);
        if seq.is_multiple_of(32) {
            // A game grows with its log and events: measured again now and then, not at every
            // action (events are measured by their JSON).
            self.measure();
        }
        self.withdraw_undo();
        if self.game.outcome().is_some()
            && let Err(e) = self.finish().await
        {
            tracing::error!(game = self.id, error = %e, "could not mark the game finished");
        }
        self.mail_after_action(seq).await;
        let finished = self.status == Status::Finished;
        self.broadcast_update(seq, &action);
        if finished && self.setup.rated {
            // The seats' new ratings and what the game changed.
            self.broadcast(ServerMessage::Lobby { game: self.id, info: self.info() });
        }
        Ok(seq)
    }

    async fn reload_game(&mut self) {
        match replay(&self.setup, &self.actions) {
            Ok(r) => {
                self.game = r.game;
                self.standing = r.standing;
                self.last_take_back = r.last_take_back;
            }
            Err(e) => tracing::error!(game = self.id, error = %e, "the log no longer replays"),
        }
    }

    async fn finish(&mut self) -> Result<(), ApiError> {
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
    fn too_short(&self) -> bool {
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

    async fn load_ratings(&mut self) -> Result<(), ApiError> {
        let mut ratings = vec![None; self.seats.len()];
        for r in self.store.seats_rated(self.id, &self.setup.rules.system).await? {
            if let Some(slot) = ratings.get_mut(r.seat.seat) {
                *slot = r.rating;
            }
        }
        self.ratings = ratings;
        Ok(())
    }

    async fn time_out(&mut self) {
        if !self.owned() {
            self.gone = true;
            return;
        }
        let (player, simultaneous) = self.turn();
        let now = self.store.now();
        if self.clock.deadline_ms.is_none_or(|d| d > now) {
            return;
        }
        if let (Some(p), false) = (player, simultaneous)
            && self.still_in_time(p, now).await
        {
            return;
        }
        if simultaneous {
            for p in self.game.waiting_for() {
                if let Err(e) = self.commit(p.index(), self.game.timeout_input(p)).await {
                    tracing::error!(game = self.id, error = %e, "Clean-Up timeout failed");
                    return;
                }
            }
        } else if let Some(p) = player {
            match self.commit(p, self.game.timeout_input(Player(p as u8))).await {
                Ok(_) => {
                    let name = self.seats.get(p).map(seat_name).unwrap_or_default();
                    self.say(format!("{name} ran out of time")).await;
                }
                Err(e) => {
                    tracing::error!(game = self.id, error = %e, "timeout failed");
                    // Try again in a second rather than spinning.
                    self.clock.deadline_ms = Some(now + 1000);
                }
            }
        }
    }

    fn names(&self) -> Vec<PlayerInfo> {
        self.seats.iter().map(|s| PlayerInfo { name: seat_name(s) }).collect()
    }

    fn info(&self) -> GameInfo {
        let now = self.store.now();
        GameInfo {
            id: self.id,
            status: self.status,
            creator: self.creator,
            rules: self.setup.rules.clone(),
            map: self.setup.map.clone(),
            players: self.setup.players,
            time: self.setup.time,
            seats: self
                .seats
                .iter()
                .map(|s| SeatView {
                    seat: s.seat,
                    kind: self.setup.seats.get(s.seat).copied(),
                    user: s.user_name.clone(),
                    user_id: s.user_id,
                    bot_level: s.bot_level,
                    rating: self.ratings.get(s.seat).cloned().flatten(),
                })
                .collect(),
            rated: self.setup.rated,
            private: !self.public,
            seq: self.seq(),
            phase: self.game.turn().phase.to_string(),
            // Not who still has to answer a secret decision (a Reject window).
            waiting_for: self.game.public_waiting_for().iter().map(|p| p.0).collect(),
            clock: (self.status == Status::Live).then(|| self.clock.view(now)),
            outcome: self.game.outcome().cloned(),
            result_text: self.game.result_notation(),
            undo: self.undo.as_ref().map(undo::Request::view),
            undo_refused: self.undo_refusals(),
            aborted: self.unrated.as_deref() == Some(crate::rating::ABORTED),
            unrated: self.unrated.clone(),
            abandoned: self.abandoned,
            event: None,
        }
    }

    /// How `user` sees the game: from their (first) seat, or as a spectator.
    fn viewer(&self, user: i64) -> Viewer {
        self.seats
            .iter()
            .find(|s| s.user_id == Some(user))
            .map_or(Viewer::Spectator, |s| Viewer::Seat(Player(s.seat as u8)))
    }

    /// The full picture for a (re)connecting client: what it missed and the state now. A client
    /// that saw actions since taken back gets everything again (its log lost lines).
    fn sync_message(&self, since: Option<u64>, viewer: Viewer) -> String {
        let from = since.unwrap_or(0).min(self.seq());
        let from = if self.last_take_back > from { 0 } else { from };
        let hidden = self.game.hidden_information();
        let actions = self
            .standing
            .iter()
            .filter(|&&seq| seq > from)
            .filter_map(|&seq| {
                let text = self.actions.get(seq as usize - 1)?;
                // Another seat's draw or secret answer, without its secret.
                let redacted = hidden
                    .then(|| serde_json::from_str::<RecordedAction>(text).ok())
                    .flatten()
                    .and_then(|a| {
                        let input = self.game.redact(Player(a.player), &a.input, viewer)?;
                        serde_json::to_string(&RecordedAction { player: a.player, at_ms: None, input }).ok()
                    });
                let action = RawValue::from_string(redacted.unwrap_or_else(|| text.clone())).ok()?;
                Some(SeqAction { seq, action })
            })
            .collect();
        let mut info = self.info();
        info.waiting_for = self.game.waiting_for_viewer(viewer).iter().map(|p| p.0).collect();
        ServerMessage::Sync {
            game: self.id,
            seq: self.seq(),
            since: from,
            actions,
            info,
            state: (self.status != Status::Open).then(|| self.game.view(viewer, &self.names(), true)),
            events: self.game.events_json(0),
        }
        .to_text()
    }

    /// A full sync to every watcher, each seat with its own view.
    fn send_sync_to_all(&self) {
        let mut payload = Payload::public(self.sync_message(None, Viewer::Spectator).into());
        if self.game.hidden_information() {
            let seats: Vec<(Option<i64>, Arc<str>)> = self
                .seats
                .iter()
                .map(|s| (s.user_id, self.sync_message(None, Viewer::Seat(Player(s.seat as u8))).into()))
                .collect();
            payload.seats = Some(seats.into());
        }
        let _ = self.updates.send((self.seq(), payload));
    }

    fn broadcast_update(&mut self, seq: u64, action: &RecordedAction) {
        // Serialised once per viewer kind, straight from the engine's JSON: this runs for every
        // action of every game.
        let timed = self.status == Status::Live && self.clock.deadline_ms.is_some();
        let names = self.names();
        let clock = timed.then(|| self.clock.view(self.store.now()));
        let events = self.game.events_json(self.events_sent);
        let undo_refused = self.undo_refusals();
        let text = |viewer: Viewer| -> Arc<str> {
            ServerMessage::Update {
                game: self.id,
                seq,
                action: self.game.redact(Player(action.player), &action.input, viewer).map_or_else(
                    || action.clone(),
                    |input| RecordedAction { player: action.player, at_ms: action.at_ms, input },
                ),
                events: events.clone(),
                state: self.game.view(viewer, &names, false),
                waiting_for: self.game.waiting_for_viewer(viewer).iter().map(|p| p.0).collect(),
                clock: clock.clone(),
                status: self.status,
                undo_refused: undo_refused.clone(),
            }
            .to_text()
            .into()
        };
        let mut payload = Payload::public(text(Viewer::Spectator));
        if self.game.hidden_information() {
            let seats: Vec<(Option<i64>, Arc<str>)> =
                self.seats.iter().map(|s| (s.user_id, text(Viewer::Seat(Player(s.seat as u8))))).collect();
            payload.seats = Some(seats.into());
        }
        self.events_sent = self.game.event_count();
        let _ = self.updates.send((seq, payload));
    }

    fn broadcast(&self, message: ServerMessage) {
        // No receivers is fine: nobody is watching.
        let _ = self.updates.send((0, Payload::public(message.to_text().into())));
    }
}

/// Why a finished game's stored result says it changed no rating.
fn unrated_of(result: &str) -> Option<String> {
    let v: serde_json::Value = serde_json::from_str(result).ok()?;
    v.get("unrated")?.as_str().map(str::to_string)
}

/// The clock as stored with each action: only games under a clock, or in a window (which has
/// a length in untimed games too: a reload keeps its end), have one to keep.
fn stored_clock(clock: &Clock) -> Result<Option<String>, ApiError> {
    let timed = clock.deadline_ms.is_some()
        || !matches!(
            clock.control,
            ClockKind::None | ClockKind::Control { time: crate::setup::TimeControl::None }
        );
    if !timed {
        return Ok(None);
    }
    serde_json::to_string(clock).map(Some).map_err(|e| ApiError::Internal(e.to_string()))
}

/// A game rebuilt from its log.
struct Replayed {
    game: AnyGame,
    /// The sequence numbers of the actions standing (take-back markers applied).
    standing: Vec<u64>,
    /// The last take-back marker's sequence number (0: none).
    last_take_back: u64,
}

/// Rebuilds a game from its log, `actions[i]` being action `i + 1`.
fn replay(setup: &GameSetup, actions: &[String]) -> Result<Replayed, String> {
    let mut game = setup.new_game().map_err(|e| e.to_string())?;
    let mut log = Vec::with_capacity(actions.len());
    let mut last_take_back = 0;
    for (i, text) in actions.iter().enumerate() {
        let a: RecordedAction =
            serde_json::from_str(text).map_err(|e| format!("action {} is unreadable: {e}", i + 1))?;
        if undo::marker_from(&a).is_some() {
            last_take_back = i as u64 + 1;
        }
        log.push((i as u64 + 1, a));
    }
    let standing = undo::effective(log);
    for (seq, a) in &standing {
        game.submit(Player(a.player), &a.input).map_err(|e| format!("action {seq} does not replay: {e}"))?;
    }
    Ok(Replayed { game, standing: standing.into_iter().map(|(s, _)| s).collect(), last_take_back })
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
