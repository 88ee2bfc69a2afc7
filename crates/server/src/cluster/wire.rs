//! What instances send each other over an internal link: requests for a game's table (the
//! [`Command`]s a handler may send, minus their reply channels), their answers, and the
//! table's broadcasts. Everything is JSON text frames.

use serde::{Deserialize, Serialize, de::DeserializeOwned};
use serde_json::Value;
use tokio::sync::oneshot;

use crate::{
    error::ApiError,
    store::{User, chat::Channel},
    table::Command,
};

fn spectators() -> Channel {
    Channel::Spectators
}
use gobeyond_rules::{Refusal, registry::Object};

/// A command for a table owned by the instance at the other end.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Request {
    Act {
        user: i64,
        seat: Option<usize>,
        action: Object,
        /// Missing from older instances' requests.
        #[serde(default)]
        after: Option<u64>,
    },
    Join {
        user: User,
        seat: Option<usize>,
        invite: Option<String>,
    },
    Leave {
        user: i64,
    },
    Sync {
        since: Option<u64>,
        user: i64,
    },
    Info,
    Chat {
        user: User,
        text: String,
        /// Older instances sent none: a line from someone not seated is a spectator's (the
        /// table puts a seated author's in the players' channel whatever this says).
        #[serde(default = "spectators")]
        channel: Channel,
    },
    Undo {
        user: i64,
    },
    UndoAnswer {
        user: i64,
        accept: bool,
    },
    Expire {
        before_ms: i64,
    },
    Abandon {
        seq: Option<u64>,
        user: Option<i64>,
    },
    Renamed {
        user: i64,
        name: String,
    },
    Announce {
        text: String,
        /// The players' text (older instances sent none).
        #[serde(default)]
        players: Option<String>,
        /// A line for the game's chat (older instances sent none).
        #[serde(default)]
        line: Option<String>,
    },
}

/// One frame on a link. The instance that opened it (the one serving the clients) sends
/// `watch`, `unwatch` and `request`; the owner sends `reply`, `update` and `gone`.
#[derive(Debug, Serialize, Deserialize)]
#[serde(tag = "t", rename_all = "snake_case")]
pub enum Frame {
    /// Relay game `game`'s broadcasts.
    Watch {
        game: i64,
    },
    Unwatch {
        game: i64,
    },
    Request {
        id: u64,
        game: i64,
        request: Request,
    },
    Reply {
        id: u64,
        value: Value,
    },
    /// A broadcast of game `game` (action `seq`, 0 for news): the public text and, in games
    /// with hidden information, each seat's (with the user seated there).
    Update {
        game: i64,
        seq: u64,
        public: String,
        seats: Option<Vec<(Option<i64>, String)>>,
    },
    /// The owner no longer runs game `game` here (lost its lease, unloaded, or never had it):
    /// the other end finds its owner again.
    Gone {
        game: i64,
    },
}

/// An error as it crosses a link.
#[derive(Debug, Serialize, Deserialize)]
pub struct WireError {
    kind: String,
    message: String,
    refusal: Option<Refusal>,
}

impl From<ApiError> for WireError {
    fn from(e: ApiError) -> WireError {
        // The server's own failures cross as `internal`: the other instance cannot act on them.
        let kind = match e.kind() {
            "config" | "database" => "internal",
            kind => kind,
        };
        let refusal = match &e {
            ApiError::Refused(r) => Some(r.clone()),
            _ => None,
        };
        let message = match &e {
            ApiError::TooMany(m) => m.clone(),
            _ => e.to_string(),
        };
        WireError { kind: kind.into(), message, refusal }
    }
}

impl From<WireError> for ApiError {
    fn from(w: WireError) -> ApiError {
        match (w.kind.as_str(), w.refusal) {
            (_, Some(r)) => ApiError::Refused(r),
            ("bad_request", _) => ApiError::BadRequest(w.message),
            ("unauthorized", _) => ApiError::Unauthorized,
            ("forbidden", _) => ApiError::Forbidden(w.message),
            ("not_found", _) => ApiError::NotFound(w.message),
            ("conflict", _) => ApiError::Conflict(w.message),
            ("stale", _) => ApiError::Stale(w.message),
            ("unknown", _) => ApiError::Unknown(w.message),
            ("too_many", _) => ApiError::TooMany(w.message),
            ("unavailable", _) => ApiError::Unavailable(w.message),
            ("fenced", _) => ApiError::Fenced(w.message),
            _ => ApiError::Internal(w.message),
        }
    }
}

/// Delivers an answer that came over the link to the handler waiting for it.
pub type ReplySink = Box<dyn FnOnce(Value) + Send>;

fn answer<T: DeserializeOwned + Send + 'static>(reply: oneshot::Sender<T>) -> ReplySink {
    Box::new(move |value| {
        // An answer that does not parse is dropped: the handler hears the game stopped
        // answering, as for a lost link.
        if let Ok(v) = serde_json::from_value(value) {
            let _ = reply.send(v);
        }
    })
}

fn result<T: DeserializeOwned + Send + 'static>(reply: oneshot::Sender<Result<T, ApiError>>) -> ReplySink {
    Box::new(move |value| {
        if let Ok(r) = serde_json::from_value::<Result<T, WireError>>(value) {
            let _ = reply.send(r.map_err(ApiError::from));
        }
    })
}

/// Splits a command into what crosses the link and where its answer goes; `None` for the
/// commands only a table's own instance sends (bot moves, unloading).
pub fn split(command: Command) -> Option<(Request, Option<ReplySink>)> {
    Some(match command {
        Command::Act { user, seat, action, after, reply } => {
            (Request::Act { user, seat, action, after }, Some(result(reply)))
        }
        Command::Join { user, seat, invite, reply } => {
            (Request::Join { user, seat, invite }, Some(result(reply)))
        }
        Command::Leave { user, reply } => (Request::Leave { user }, Some(result(reply))),
        Command::Sync { since, user, reply } => (Request::Sync { since, user }, Some(answer(reply))),
        Command::Info { reply } => (Request::Info, Some(answer(reply))),
        Command::Chat { user, channel, text, reply } => {
            (Request::Chat { user, text, channel }, Some(result(reply)))
        }
        Command::Undo { user, reply } => (Request::Undo { user }, Some(result(reply))),
        Command::UndoAnswer { user, accept, reply } => {
            (Request::UndoAnswer { user, accept }, Some(result(reply)))
        }
        Command::Expire { before_ms, reply } => (Request::Expire { before_ms }, Some(result(reply))),
        Command::Abandon { seq, user, reply } => (Request::Abandon { seq, user }, Some(result(reply))),
        Command::Renamed { user, name } => (Request::Renamed { user, name }, None),
        Command::Announce { text, players, line } => (
            Request::Announce { text: text.to_string(), players: players.map(|p| p.to_string()), line },
            None,
        ),
        Command::BotMove { .. } | Command::BotFailed { .. } | Command::Unload { .. } => return None,
    })
}

/// The answer, when it comes, as it goes back over the link.
pub type Answer = std::pin::Pin<Box<dyn std::future::Future<Output = Option<Value>> + Send>>;

fn wait<T: Serialize + Send + 'static>(rx: oneshot::Receiver<T>) -> Answer {
    Box::pin(async move { rx.await.ok().and_then(|v| serde_json::to_value(v).ok()) })
}

fn wait_result<T: Serialize + Send + 'static>(rx: oneshot::Receiver<Result<T, ApiError>>) -> Answer {
    Box::pin(async move {
        let r = rx.await.ok()?.map_err(WireError::from);
        serde_json::to_value(r).ok()
    })
}

/// A request from the link as a command for the local table, with its answer to come.
pub fn command(request: Request) -> (Command, Option<Answer>) {
    match request {
        Request::Act { user, seat, action, after } => {
            let (reply, rx) = oneshot::channel();
            (Command::Act { user, seat, action, after, reply }, Some(wait_result(rx)))
        }
        Request::Join { user, seat, invite } => {
            let (reply, rx) = oneshot::channel();
            (Command::Join { user, seat, invite, reply }, Some(wait_result(rx)))
        }
        Request::Leave { user } => {
            let (reply, rx) = oneshot::channel();
            (Command::Leave { user, reply }, Some(wait_result(rx)))
        }
        Request::Sync { since, user } => {
            let (reply, rx) = oneshot::channel();
            (Command::Sync { since, user, reply }, Some(wait(rx)))
        }
        Request::Info => {
            let (reply, rx) = oneshot::channel();
            (Command::Info { reply }, Some(wait(rx)))
        }
        Request::Chat { user, text, channel } => {
            let (reply, rx) = oneshot::channel();
            (Command::Chat { user, channel, text, reply }, Some(wait_result(rx)))
        }
        Request::Undo { user } => {
            let (reply, rx) = oneshot::channel();
            (Command::Undo { user, reply }, Some(wait_result(rx)))
        }
        Request::UndoAnswer { user, accept } => {
            let (reply, rx) = oneshot::channel();
            (Command::UndoAnswer { user, accept, reply }, Some(wait_result(rx)))
        }
        Request::Expire { before_ms } => {
            let (reply, rx) = oneshot::channel();
            (Command::Expire { before_ms, reply }, Some(wait_result(rx)))
        }
        Request::Abandon { seq, user } => {
            let (reply, rx) = oneshot::channel();
            (Command::Abandon { seq, user, reply }, Some(wait_result(rx)))
        }
        Request::Renamed { user, name } => (Command::Renamed { user, name }, None),
        Request::Announce { text, players, line } => {
            (Command::Announce { text: text.into(), players: players.map(Into::into), line }, None)
        }
    }
}

/// The error a failed request answers with, in the link's encoding.
pub fn error_value(e: ApiError) -> Value {
    serde_json::to_value(Err::<(), WireError>(WireError::from(e))).unwrap_or(Value::Null)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_command_crosses_the_link_and_its_answer_comes_back() {
        let (reply, rx) = oneshot::channel();
        let mut action = Object::new();
        action.insert("type".into(), "pass".into());
        let (request, sink) =
            split(Command::Act { user: 7, seat: Some(1), action: action.clone(), after: Some(4), reply })
                .expect("forwarded");
        let text = serde_json::to_string(&Frame::Request { id: 1, game: 3, request }).unwrap();
        let Frame::Request { request, .. } = serde_json::from_str(&text).unwrap() else { panic!("{text}") };
        let (command, answer) = command(request);
        let Command::Act { user, seat, action: got, after, reply } = command else { panic!("not an act") };
        assert_eq!((user, seat, got, after), (7, Some(1), action, Some(4)));
        let refusal = Refusal::new("occupied", "C3 is taken");
        let _ = reply.send(Err(ApiError::Refused(refusal.clone())));
        let value = answer.expect("an answer").await.expect("a value");
        sink.expect("a sink")(value);
        match rx.await.expect("answered") {
            Err(ApiError::Refused(r)) => assert_eq!(r, refusal),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn errors_keep_their_kind() {
        for e in [
            ApiError::Forbidden("no".into()),
            ApiError::Conflict("over".into()),
            ApiError::Fenced("moved".into()),
            ApiError::Unavailable("busy".into()),
            ApiError::Stale("moved on".into()),
            ApiError::Unknown("gone".into()),
        ] {
            let (status, code) = (e.status(), e.code().map(str::to_string));
            let back = ApiError::from(WireError::from(e));
            assert_eq!((back.status(), back.code().map(str::to_string)), (status, code), "{back}");
        }
    }
}
