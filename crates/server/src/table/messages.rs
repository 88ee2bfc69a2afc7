//! What reaches a table and what it sends: the commands handlers and other instances send it,
//! the handle they reach it by, and the broadcasts its watchers get.

use std::sync::Arc;

use gobeyond_rules::registry::Object;
use tokio::sync::{broadcast, mpsc, oneshot};

use super::UNKNOWN;
use crate::{error::ApiError, protocol::GameInfo, store::User};

/// A message for every watcher of a game, serialised once: the sequence number of the action it
/// reports (0 for chat, lobby and other news), and the JSON text.
pub type Broadcast = (u64, Payload);

/// A message's text: one for everybody, or, in games with hidden information, one per seat
/// (with the user in it when it was sent) and the public one for spectators.
#[derive(Debug, Clone)]
pub struct Payload {
    pub(super) public: Arc<str>,
    pub(super) seats: Option<SeatTexts>,
}

/// Per seat: the user seated there when the message was made, and their text.
pub type SeatTexts = Arc<[(Option<i64>, Arc<str>)]>;

impl Payload {
    pub fn public(text: Arc<str>) -> Payload {
        Payload { public: text, seats: None }
    }

    /// As it crosses an internal link: the public text and each seat's.
    pub fn from_parts(public: Arc<str>, seats: Option<Vec<(Option<i64>, Arc<str>)>>) -> Payload {
        Payload { public, seats: seats.map(Into::into) }
    }

    pub fn parts(&self) -> (&Arc<str>, Option<&SeatTexts>) {
        (&self.public, self.seats.as_ref())
    }

    /// The text `user` may see: their seat's view, or the public one.
    pub fn for_user(&self, user: i64) -> Arc<str> {
        self.seats
            .as_ref()
            .and_then(|s| s.iter().find(|(u, _)| *u == Some(user)))
            .map_or_else(|| self.public.clone(), |(_, text)| text.clone())
    }
}

/// Requests to a table.
#[derive(Debug)]
pub enum Command {
    Act {
        user: i64,
        seat: Option<usize>,
        action: Object,
        /// The sequence number the action was meant to follow, when the client said.
        after: Option<u64>,
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
        /// Who asks: a seated user gets their seat's view.
        user: i64,
        reply: oneshot::Sender<(u64, String)>,
    },
    /// The lobby view of the game (seats, status, clock).
    Info {
        reply: oneshot::Sender<GameInfo>,
    },
    Chat {
        user: User,
        /// Where the socket found the user may speak (a seat taken since moves them to the
        /// players' channel).
        channel: crate::store::chat::Channel,
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
    /// Leave memory: finish the commands already queued, refuse new ones, stop; `done` is
    /// handed back to the hub.
    Unload {
        done: tokio::sync::watch::Sender<bool>,
    },
    /// Tell everyone at this (finished) table about a rematch (the message as sent): `text` to
    /// spectators, `players` (with the new game's invitation) to the game's players.
    Announce {
        text: Arc<str>,
        players: Option<Arc<str>>,
        /// A line for the game's chat, from the table itself.
        line: Option<String>,
    },
    /// Ask to take back the user's last move.
    Undo {
        user: i64,
        reply: oneshot::Sender<Result<(), ApiError>>,
    },
    UndoAnswer {
        user: i64,
        accept: bool,
        reply: oneshot::Sender<Result<(), ApiError>>,
    },
    /// End this live game as abandoned if nothing was played since action `seq`; or, with a
    /// `user`, at the request of its only person (every other seat a bot).
    Abandon {
        seq: Option<u64>,
        user: Option<i64>,
        reply: oneshot::Sender<Result<bool, ApiError>>,
    },
    /// Account `user` has a new name (a moderator's rename, a deleted account's anonymous one).
    Renamed {
        user: i64,
        name: String,
    },
    /// Remove this game if it is still open and was created before `before_ms`.
    Expire {
        before_ms: i64,
        reply: oneshot::Sender<Result<bool, ApiError>>,
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
            .map_err(|_| ApiError::Unavailable("the game stopped: try again".into()))?;
        rx.await.map_err(|_| ApiError::Unknown(UNKNOWN.into()))
    }
}
