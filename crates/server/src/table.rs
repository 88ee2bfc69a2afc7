//! A game being played: one task per game owns its state (the engine game, seats, clock) and
//! serialises everything that changes it — actions, joins, clock expiries, bot moves. Every
//! action is validated by the engine, committed to the log, and only then acknowledged and
//! broadcast (already serialised once, as JSON) to every player and spectator.

use std::{
    collections::{HashMap, VecDeque},
    sync::{Arc, Mutex},
    time::{Duration, Instant},
};

use gobeyond_bots::Level;
use gobeyond_rules::{
    AnyGame, Player, Viewer,
    record::{PlayerInfo, RecordedAction},
    registry::Object,
};
use serde_json::json;
use tokio::sync::{Semaphore, broadcast, mpsc, oneshot};

use crate::{
    clock::{Clock, ClockKind},
    error::ApiError,
    setup::{GameSetup, SeatChoice},
    store::{SeatRow, Store, User, now_ms},
};

/// Longest a server bot thinks per move.
const BOT_SECONDS: f64 = 2.0;
pub const CHAT_MAX_CHARS: usize = 500;
/// Chat lines per user and game in any 10 seconds.
const CHAT_BURST: usize = 5;
/// Updates a watcher may fall behind before it is sent a full state instead.
const BROADCAST_BUFFER: usize = 256;

#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
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

/// A message for every watcher of a game, serialised once: the sequence number of the action it
/// reports (0 for chat, lobby and other news), and the JSON text.
pub type Broadcast = (u64, Arc<str>);

/// Requests to a table.
#[derive(Debug)]
pub enum Command {
    Act {
        user: i64,
        seat: Option<usize>,
        action: Object,
        reply: oneshot::Sender<Result<u64, ApiError>>,
    },
    Join {
        user: User,
        seat: Option<usize>,
        invite: Option<String>,
        reply: oneshot::Sender<Result<usize, ApiError>>,
    },
    Leave {
        user: i64,
        reply: oneshot::Sender<Result<(), ApiError>>,
    },
    /// The state as a `sync` message (with its sequence number), with the actions after
    /// `since` when given.
    Sync {
        since: Option<u64>,
        reply: oneshot::Sender<(u64, String)>,
    },
    /// The lobby view of the game (seats, status, clock).
    Info {
        reply: oneshot::Sender<serde_json::Value>,
    },
    Chat {
        user: User,
        text: String,
        reply: oneshot::Sender<Result<(), ApiError>>,
    },
    BotMove {
        seq: u64,
        seat: usize,
        action: Object,
    },
    /// A bot search failed: the table plays a safe action for it instead.
    BotFailed {
        seq: u64,
        seat: usize,
    },
}

/// How to reach a table.
#[derive(Debug, Clone)]
pub struct TableHandle {
    pub commands: mpsc::Sender<Command>,
    pub updates: broadcast::Sender<Broadcast>,
}

impl TableHandle {
    /// Sends a request and waits for the answer.
    pub async fn ask<T>(&self, make: impl FnOnce(oneshot::Sender<T>) -> Command) -> Result<T, ApiError> {
        let (tx, rx) = oneshot::channel();
        self.commands
            .send(make(tx))
            .await
            .map_err(|_| ApiError::Internal("the game is shutting down".into()))?;
        rx.await.map_err(|_| ApiError::Internal("the game stopped answering".into()))
    }
}

/// Every table this server runs, started on demand.
#[derive(Debug)]
pub struct Hub {
    store: Store,
    tables: Mutex<HashMap<i64, TableHandle>>,
    bots: Arc<Semaphore>,
    /// Tables still running; shutdown waits for them to finish their writes.
    running: Mutex<Vec<tokio::task::JoinHandle<()>>>,
    /// Set once at shutdown: every table stops after the command it is handling.
    stop: tokio::sync::watch::Sender<bool>,
}

impl Hub {
    pub fn new(store: Store, bot_threads: usize) -> Hub {
        Hub {
            store,
            tables: Mutex::new(HashMap::new()),
            bots: Arc::new(Semaphore::new(bot_threads.max(1))),
            running: Mutex::new(Vec::new()),
            stop: tokio::sync::watch::channel(false).0,
        }
    }

    /// The table of game `id`, loaded from the database if it is not running yet.
    pub async fn table(self: &Arc<Self>, id: i64) -> Result<TableHandle, ApiError> {
        if *self.stop.borrow() {
            return Err(ApiError::Internal("the server is shutting down".into()));
        }
        if let Some(h) = self.lock().get(&id) {
            return Ok(h.clone());
        }
        let table = Table::load(self.store.clone(), id, self.bots.clone()).await?;
        // Another request may have loaded it meanwhile: keep the first.
        let mut tables = self.lock();
        if let Some(h) = tables.get(&id) {
            return Ok(h.clone());
        }
        let (tx, rx) = mpsc::channel(64);
        let handle = TableHandle { commands: tx.clone(), updates: table.updates.clone() };
        tables.insert(id, handle.clone());
        drop(tables);
        let task = tokio::spawn(table.run(rx, tx, self.stop.subscribe()));
        let mut running = self.running.lock().unwrap_or_else(|e| e.into_inner());
        running.retain(|t| !t.is_finished());
        running.push(task);
        Ok(handle)
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<i64, TableHandle>> {
        self.tables.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Starts every live game (after a restart), so clocks and bots resume.
    pub async fn resume_all(self: &Arc<Self>) -> Result<usize, ApiError> {
        let ids = self.store.live_game_ids().await?;
        for &id in &ids {
            self.table(id).await?;
        }
        Ok(ids.len())
    }

    /// Stops every table; each finishes the write it is doing first (10 s at most in all).
    pub async fn shutdown(&self) {
        let _ = self.stop.send(true);
        self.lock().clear();
        let tasks: Vec<_> = self.running.lock().unwrap_or_else(|e| e.into_inner()).drain(..).collect();
        let _ = tokio::time::timeout(Duration::from_secs(10), futures_util::future::join_all(tasks)).await;
    }

    pub fn loaded(&self) -> usize {
        self.lock().len()
    }
}

struct Table {
    id: i64,
    store: Store,
    setup: GameSetup,
    status: Status,
    creator: i64,
    invite: Option<String>,
    seats: Vec<SeatRow>,
    game: AnyGame,
    /// The log as JSON, `actions[i]` having sequence number `i + 1`.
    actions: Vec<String>,
    clock: Clock,
    updates: broadcast::Sender<Broadcast>,
    bots: Arc<Semaphore>,
    bot_pending: Option<u64>,
    chat_times: HashMap<i64, VecDeque<Instant>>,
    /// Events already sent.
    events_sent: usize,
}

/// The rule system's own clock when it has one, else the game's time control.
fn clock_kind(setup: &GameSetup) -> ClockKind {
    match setup.rules.info().ok().and_then(|i| i.clock(&setup.rules.settings)) {
        Some(c) => ClockKind::PerTurn { turn_ms: c.turn_ms, cleanup_ms: c.decision_ms },
        None => ClockKind::Control(setup.time),
    }
}

impl Table {
    async fn load(store: Store, id: i64, bots: Arc<Semaphore>) -> Result<Table, ApiError> {
        let row =
            store.game(id).await?.ok_or_else(|| ApiError::NotFound(format!("there is no game {id}")))?;
        let setup: GameSetup = serde_json::from_str(&row.setup)
            .map_err(|e| ApiError::Internal(format!("game {id} has unreadable settings: {e}")))?;
        let seats = store.seats(id).await?;
        let names: Vec<String> = seats.iter().map(seat_name).collect();
        let actions: Vec<String> = store.actions(id, 0).await?.into_iter().map(|(_, text)| text).collect();
        let game =
            replay(&setup, &names, &actions).map_err(|e| ApiError::Internal(format!("game {id}: {e}")))?;
        let status = Status::parse(&row.status);
        let clock = row
            .clock
            .as_deref()
            .and_then(|c| serde_json::from_str(c).ok())
            .unwrap_or_else(|| Clock::new(clock_kind(&setup), setup.players));
        let (updates, _) = broadcast::channel(BROADCAST_BUFFER);
        let events_sent = game.event_count();
        let mut table = Table {
            id,
            store,
            setup,
            status,
            creator: row.creator,
            invite: row.invite,
            seats,
            game,
            actions,
            clock,
            updates,
            bots,
            bot_pending: None,
            chat_times: HashMap::new(),
            events_sent,
        };
        if status == Status::Live {
            let (player, cleanup) = table.turn();
            // The current turn starts again with the time the player had when it began: time
            // the server was down is not charged to anyone.
            table.clock.start_turn(player, cleanup, now_ms());
            if table.game.outcome().is_some() {
                // Finished in the log but not marked (a crash between the two writes).
                table.finish().await?;
            }
        }
        Ok(table)
    }

    async fn run(
        mut self,
        mut rx: mpsc::Receiver<Command>,
        me: mpsc::Sender<Command>,
        mut stop: tokio::sync::watch::Receiver<bool>,
    ) {
        let me = me.downgrade();
        if self.status == Status::Open
            && self.seats.iter().all(|s| s.user_id.is_some() || s.bot_level.is_some())
            && let Err(e) = self.start().await
        {
            tracing::error!(game = self.id, error = %e, "could not start the game");
        }
        loop {
            if let Some(tx) = me.upgrade() {
                self.schedule_bots(&tx).await;
            }
            let deadline = self.clock.deadline_ms.filter(|_| self.status == Status::Live);
            let sleep = async {
                match deadline {
                    Some(d) => tokio::time::sleep(Duration::from_millis((d - now_ms()).max(0) as u64)).await,
                    None => std::future::pending().await,
                }
            };
            tokio::select! {
                cmd = rx.recv() => match cmd {
                    Some(cmd) => self.handle(cmd).await,
                    None => break,
                },
                () = sleep => self.time_out().await,
                _ = stop.changed() => break,
            }
        }
    }

    async fn handle(&mut self, cmd: Command) {
        match cmd {
            Command::Act { user, seat, action, reply } => {
                let r = self.act(user, seat, action).await;
                let _ = reply.send(r);
            }
            Command::Join { user, seat, invite, reply } => {
                let _ = reply.send(self.join(&user, seat, invite).await);
            }
            Command::Leave { user, reply } => {
                let _ = reply.send(self.leave(user).await);
            }
            Command::Sync { since, reply } => {
                let _ = reply.send((self.seq(), self.sync_message(since)));
            }
            Command::Info { reply } => {
                let _ = reply.send(self.info());
            }
            Command::Chat { user, text, reply } => {
                let _ = reply.send(self.chat(&user, text).await);
            }
            Command::BotMove { seq, seat, action } => {
                if self.bot_pending == Some(seq) {
                    self.bot_pending = None;
                    if self.seq() == seq
                        && let Err(e) = self.commit(seat, action).await
                    {
                        tracing::warn!(game = self.id, seat, error = %e, "bot action refused");
                        self.fallback(seat).await;
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
                return Err(ApiError::Forbidden(format!("seat {s} is not yours")));
            }
            Some(s) => s,
            None => *mine.iter().find(|s| waiting.contains(s)).unwrap_or(&mine[0]),
        };
        if !self.game.seat_may_send(&action) {
            return Err(ApiError::BadRequest(
                "time-outs are the server clock's to send, and chance outcomes the server's".into(),
            ));
        }
        if !waiting.contains(&seat) {
            return Err(ApiError::Conflict(format!("it is not seat {seat}'s turn")));
        }
        self.commit(seat, action).await
    }

    /// Applies, logs, acknowledges: the one path for every action (humans, bots, the clock).
    async fn commit(&mut self, seat: usize, input: Object) -> Result<u64, ApiError> {
        let (before_player, before_cleanup) = self.turn();
        let prior_clock = self.clock.clone();
        self.game.submit(Player(seat as u8), &input).map_err(ApiError::Refused)?;
        // Logged and broadcast in the system's own written form (placements with both the
        // node number and its label), however it was sent.
        let logged = self.game.input_count().checked_sub(1).and_then(|i| self.game.input(i));
        let action = match logged {
            Some((p, input)) => RecordedAction { player: p.0, input },
            None => RecordedAction { player: seat as u8, input },
        };
        let now = now_ms();
        let (player, cleanup) = self.turn();
        if before_player == Some(seat) && !before_cleanup {
            self.clock.end_turn(seat, now);
        }
        if (player, cleanup) != (before_player, before_cleanup) || !cleanup {
            self.clock.start_turn(player, cleanup, now);
        }
        let text = serde_json::to_string(&action).map_err(|e| ApiError::Internal(e.to_string()))?;
        let timed = !matches!(
            self.clock.control,
            ClockKind::None | ClockKind::Control(crate::setup::TimeControl::None)
        );
        let clock = if timed {
            Some(serde_json::to_string(&self.clock).map_err(|e| ApiError::Internal(e.to_string()))?)
        } else {
            None
        };
        let seq = self.seq() + 1;
        if let Err(e) = self.store.append_action(self.id, seq, &text, clock.as_deref()).await {
            // Not committed: the action never happened. Rebuild the state from the log.
            tracing::error!(game = self.id, error = %e, "could not log an action");
            self.clock = prior_clock;
            self.reload_game().await;
            return Err(e);
        }
        self.actions.push(text);
        if self.game.outcome().is_some()
            && let Err(e) = self.finish().await
        {
            tracing::error!(game = self.id, error = %e, "could not mark the game finished");
        }
        self.broadcast_update(seq, &action);
        Ok(seq)
    }

    async fn reload_game(&mut self) {
        let names: Vec<String> = self.seats.iter().map(seat_name).collect();
        match replay(&self.setup, &names, &self.actions) {
            Ok(g) => self.game = g,
            Err(e) => tracing::error!(game = self.id, error = %e, "the log no longer replays"),
        }
    }

    async fn finish(&mut self) -> Result<(), ApiError> {
        self.status = Status::Finished;
        self.clock.deadline_ms = None;
        let result = serde_json::to_string(&self.game.outcome()).unwrap_or_default();
        self.store.finish_game(self.id, &result).await
    }

    async fn time_out(&mut self) {
        let (player, cleanup) = self.turn();
        let now = now_ms();
        if self.clock.deadline_ms.is_none_or(|d| d > now) {
            return;
        }
        if cleanup {
            for p in self.game.waiting_for() {
                if let Err(e) = self.commit(p.index(), self.game.timeout_input(p)).await {
                    tracing::error!(game = self.id, error = %e, "Clean-Up timeout failed");
                    return;
                }
            }
        } else if let Some(p) = player
            && let Err(e) = self.commit(p, self.game.timeout_input(Player(p as u8))).await
        {
            tracing::error!(game = self.id, error = %e, "timeout failed");
            // Try again in a second rather than spinning.
            self.clock.deadline_ms = Some(now + 1000);
        }
    }

    /// Starts a search for a bot seat that must act (one at a time per game, on the bot pool).
    async fn schedule_bots(&mut self, me: &mpsc::Sender<Command>) {
        if self.status != Status::Live || self.bot_pending.is_some() {
            return;
        }
        let waiting = self.game.waiting_for();
        let Some((seat, level)) = waiting.iter().find_map(|p| {
            let s = self.seats.get(p.index())?;
            s.bot_level.map(|l| (p.index(), l))
        }) else {
            return;
        };
        let seq = self.seq();
        self.bot_pending = Some(seq);
        let game = self.game.clone();
        let bots = self.bots.clone();
        let me = me.clone();
        let seed = (self.id as u64).wrapping_mul(1_000_003).wrapping_add(seq);
        tokio::spawn(async move {
            // The permit bounds how many searches run at once; the search itself runs on the
            // blocking pool so it never holds up the async workers.
            let Ok(permit) = bots.acquire_owned().await else { return };
            let result = tokio::task::spawn_blocking(move || {
                let _permit = permit;
                bot_action(&game, seat, level, seed)
            })
            .await;
            let cmd = match result {
                Ok(Some(action)) => Command::BotMove { seq, seat, action },
                _ => Command::BotFailed { seq, seat },
            };
            let _ = me.send(cmd).await;
        });
    }

    /// When a bot cannot decide: the rule system's mildest input (a pass, a skip).
    async fn fallback(&mut self, seat: usize) {
        let input = self.game.fallback_input(Player(seat as u8));
        if let Err(e) = self.commit(seat, input).await {
            tracing::error!(game = self.id, seat, error = %e, "bot fallback refused");
        }
    }

    async fn join(
        &mut self,
        user: &User,
        seat: Option<usize>,
        invite: Option<String>,
    ) -> Result<usize, ApiError> {
        if self.status != Status::Open {
            return Err(ApiError::Conflict("the game has already started".into()));
        }
        if self.seats.iter().any(|s| s.user_id == Some(user.id)) {
            return Err(ApiError::Conflict("you already hold a seat in this game".into()));
        }
        let invited = invite.is_some() && invite == self.invite;
        let free = |s: &SeatRow| {
            s.user_id.is_none()
                && s.bot_level.is_none()
                && match self.setup.seats.get(s.seat) {
                    Some(SeatChoice::Invite) => invited,
                    _ => true,
                }
        };
        let seat = match seat {
            Some(n) => {
                let s =
                    self.seats.get(n).ok_or_else(|| ApiError::BadRequest(format!("there is no seat {n}")))?;
                if !free(s) {
                    return Err(ApiError::Conflict(format!("seat {n} is not free")));
                }
                n
            }
            None => self.seats.iter().find(|s| free(s)).map(|s| s.seat).ok_or_else(|| {
                ApiError::Conflict("the game is full (or its free seats need the invite link)".into())
            })?,
        };
        self.store.set_seat(self.id, seat, Some(user.id)).await?;
        self.seats[seat].user_id = Some(user.id);
        self.seats[seat].user_name = Some(user.name.clone());
        if self.seats.iter().all(|s| s.user_id.is_some() || s.bot_level.is_some()) {
            self.start().await?;
        } else {
            self.broadcast(json!({"type": "lobby", "game": self.id, "info": self.info()}));
        }
        Ok(seat)
    }

    async fn leave(&mut self, user: i64) -> Result<(), ApiError> {
        if self.status != Status::Open {
            return Err(ApiError::Conflict("the game has started: resign instead".into()));
        }
        let Some(seat) = self.seats.iter().position(|s| s.user_id == Some(user)) else {
            return Err(ApiError::Conflict("you hold no seat in this game".into()));
        };
        self.store.set_seat(self.id, seat, None).await?;
        self.seats[seat].user_id = None;
        self.seats[seat].user_name = None;
        self.broadcast(json!({"type": "lobby", "game": self.id, "info": self.info()}));
        Ok(())
    }

    async fn start(&mut self) -> Result<(), ApiError> {
        let names: Vec<String> = self.seats.iter().map(seat_name).collect();
        self.game = self.setup.new_game(&names)?;
        let (player, cleanup) = self.turn();
        self.clock.start_turn(player, cleanup, now_ms());
        let clock = serde_json::to_string(&self.clock).map_err(|e| ApiError::Internal(e.to_string()))?;
        self.store.start_game(self.id, &clock).await?;
        self.status = Status::Live;
        self.broadcast(json!({"type": "started", "game": self.id, "info": self.info()}));
        let sync = self.sync_message(None);
        let _ = self.updates.send((0, sync.into()));
        Ok(())
    }

    async fn chat(&mut self, user: &User, text: String) -> Result<(), ApiError> {
        let text = text.trim().to_string();
        if text.is_empty() {
            return Err(ApiError::BadRequest("empty chat message".into()));
        }
        if text.chars().count() > CHAT_MAX_CHARS {
            return Err(ApiError::BadRequest(format!(
                "chat messages have at most {CHAT_MAX_CHARS} characters"
            )));
        }
        let times = self.chat_times.entry(user.id).or_default();
        let now = Instant::now();
        while times.front().is_some_and(|t| now.duration_since(*t) > Duration::from_secs(10)) {
            times.pop_front();
        }
        if times.len() >= CHAT_BURST {
            return Err(ApiError::TooMany(format!("at most {CHAT_BURST} chat messages per 10 seconds")));
        }
        times.push_back(now);
        let at = now_ms();
        self.store.add_chat(self.id, user.id, &text, at).await?;
        self.broadcast(
            json!({"type": "chat", "game": self.id, "from": user.name, "text": text, "at_ms": at}),
        );
        Ok(())
    }

    fn names(&self) -> Vec<PlayerInfo> {
        self.seats.iter().map(|s| PlayerInfo { name: seat_name(s) }).collect()
    }

    fn info(&self) -> serde_json::Value {
        let now = now_ms();
        json!({
            "id": self.id,
            "status": self.status,
            "creator": self.creator,
            "rules": self.setup.rules,
            "map": self.setup.map,
            "players": self.setup.players,
            "time": self.setup.time,
            "seats": self.seats.iter().map(|s| json!({
                "seat": s.seat,
                "kind": self.setup.seats.get(s.seat),
                "user": s.user_name,
                "user_id": s.user_id,
                "bot_level": s.bot_level,
            })).collect::<Vec<_>>(),
            "seq": self.seq(),
            "phase": self.game.turn().phase,
            "waiting_for": self.game.waiting_for().iter().map(|p| p.0).collect::<Vec<_>>(),
            "clock": (self.status == Status::Live).then(|| self.clock.view(now)),
            "outcome": self.game.outcome(),
        })
    }

    /// The full picture for a (re)connecting client: what it missed and the state now.
    fn sync_message(&self, since: Option<u64>) -> String {
        let from = since.unwrap_or(0).min(self.seq()) as usize;
        let missed: Vec<serde_json::Value> = self.actions[from..]
            .iter()
            .enumerate()
            .map(|(i, a)| {
                json!({"seq": from + i + 1, "action": serde_json::from_str::<serde_json::Value>(a).unwrap_or_default()})
            })
            .collect();
        json!({
            "type": "sync",
            "game": self.id,
            "seq": self.seq(),
            "since": from,
            "actions": missed,
            "info": self.info(),
            "state": (self.status != Status::Open).then(|| self.game.view(Viewer::Spectator, &self.names(), true)),
        })
        .to_string()
    }

    fn broadcast_update(&mut self, seq: u64, action: &RecordedAction) {
        /// Serialised straight from the engine's types: this runs for every action of every game.
        #[derive(serde::Serialize)]
        struct Update<'a> {
            #[serde(rename = "type")]
            kind: &'static str,
            game: i64,
            seq: u64,
            action: &'a RecordedAction,
            events: Box<serde_json::value::RawValue>,
            state: Box<serde_json::value::RawValue>,
            clock: Option<serde_json::Value>,
            status: Status,
        }
        let timed = self.status == Status::Live && self.clock.deadline_ms.is_some();
        let update = Update {
            kind: "update",
            game: self.id,
            seq,
            action,
            events: self.game.events_json(self.events_sent),
            state: self.game.view(Viewer::Spectator, &self.names(), false),
            clock: timed.then(|| self.clock.view(now_ms())),
            status: self.status,
        };
        let text = serde_json::to_string(&update).unwrap_or_default();
        self.events_sent = self.game.event_count();
        let _ = self.updates.send((seq, text.into()));
    }

    fn broadcast(&self, message: serde_json::Value) {
        self.broadcast_seq(0, message);
    }

    fn broadcast_seq(&self, seq: u64, message: serde_json::Value) {
        // No receivers is fine: nobody is watching.
        let _ = self.updates.send((seq, message.to_string().into()));
    }
}

/// A game rebuilt from its log (`actions[i]` being action `i + 1`).
fn replay(setup: &GameSetup, names: &[String], actions: &[String]) -> Result<AnyGame, String> {
    let mut game = setup.new_game(names).map_err(|e| e.to_string())?;
    for (i, text) in actions.iter().enumerate() {
        let a: RecordedAction =
            serde_json::from_str(text).map_err(|e| format!("action {} is unreadable: {e}", i + 1))?;
        game.submit(Player(a.player), &a.input)
            .map_err(|e| format!("action {} does not replay: {e}", i + 1))?;
    }
    Ok(game)
}

/// The name shown for a seat: its player's, a bot's description, or nothing while open.
pub fn seat_name(s: &SeatRow) -> String {
    match (&s.user_name, s.bot_level) {
        (Some(n), _) => n.clone(),
        (None, Some(l)) => format!("bot (level {l})"),
        (None, None) => String::new(),
    }
}

/// A server bot's input, in the rule system's wire form (the search runs here, on a blocking
/// thread).
fn bot_action(game: &AnyGame, seat: usize, level: u8, seed: u64) -> Option<Object> {
    let level = Level::new(level).ok()?;
    let time = Some(Duration::from_secs_f64(BOT_SECONDS));
    gobeyond_bots::computer_input(game, Player(seat as u8), level, seed, time)
}
