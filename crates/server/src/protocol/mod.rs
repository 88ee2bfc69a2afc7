//! Every message of the API as a Rust type: WebSocket messages both ways and HTTP bodies.
//! Handlers build these, never JSON by hand. The web client's TypeScript declarations are
//! generated from them (`web/src/protocol.ts`, by `make protocol`); a test fails when the
//! checked-in copy is stale.
//!
//! A game's state, its events and its inputs are each rule system's own (see the registry):
//! they travel as the system serialised them and the client reads them through
//! `web/src/systems/`.

use gobeyond_rules::{Outcome, record::RecordedAction, registry::Object, system::SettingInfo};
use serde::{Deserialize, Serialize};
use serde_json::{Value, value::RawValue};
use ts_rs::TS;

mod bodies;
mod typescript;

pub use bodies::*;
pub use typescript::typescript;

use crate::{
    clock::ClockKind,
    rating::RatingView,
    setup::{SeatChoice, TimeControl},
    store::User,
    table::Status,
};

/// What a client sends on its socket.
#[derive(Debug, Deserialize, TS)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum ClientMessage {
    /// Receive a game's updates; `since` = the last sequence number the client has.
    Watch {
        game: i64,
        #[serde(default)]
        #[ts(optional)]
        since: Option<u64>,
    },
    Unwatch {
        game: i64,
    },
    /// Play: `action` in the rule system's wire form (`{"type": "place", "at": "E5"}`, `pass`,
    /// ...); `seat` only when the user holds several seats.
    Act {
        game: i64,
        #[ts(type = "{ type: string, [key: string]: unknown }")]
        action: Object,
        #[serde(default)]
        #[ts(optional)]
        seat: Option<usize>,
        /// The sequence number of the last action the client saw: the action is for the
        /// position after it and is refused (`stale`) in any other — a resend of an action
        /// that was applied, or one that arrives late, never lands in a later position.
        /// Without it (older clients) the action is for whatever position the game is in.
        #[serde(default)]
        #[ts(optional)]
        after: Option<u64>,
        /// Echoed in the answer, so a client can match answers to requests.
        #[serde(default)]
        #[ts(optional, type = "unknown")]
        id: Option<Value>,
    },
    Chat {
        game: i64,
        text: String,
    },
    Ping {
        #[serde(default)]
        #[ts(optional, type = "unknown")]
        id: Option<Value>,
    },
}

/// What the server sends on a socket.
#[derive(Debug, Serialize, TS)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ServerMessage {
    /// The first message: who the socket belongs to.
    Hello { user: User },
    /// An action was applied and logged with sequence number `seq`.
    Ack {
        #[ts(type = "unknown")]
        id: Option<Value>,
        game: i64,
        seq: u64,
    },
    /// A refusal (nothing changed). `code` is the rule system's refusal code, when it refused.
    Error {
        #[ts(type = "unknown")]
        id: Option<Value>,
        #[serde(skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        game: Option<i64>,
        error: String,
        #[serde(skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        code: Option<String>,
    },
    Pong {
        #[ts(type = "unknown")]
        id: Option<Value>,
    },
    /// Everything a (re)connecting client needs: the actions after `since`, the game, the state.
    Sync {
        game: i64,
        seq: u64,
        since: u64,
        actions: Vec<SeqAction>,
        info: GameInfo,
        #[ts(type = "GameState | null")]
        state: Option<Box<RawValue>>,
        /// Every effect so far, in the rule system's own terms (the log is built from these).
        #[ts(type = "AnyEvent[]")]
        events: Box<RawValue>,
    },
    /// One action, its effects and the state after it.
    Update {
        game: i64,
        seq: u64,
        #[ts(type = "RecordedAction")]
        action: RecordedAction,
        /// The action's effects, in the rule system's own terms.
        #[ts(type = "unknown[]")]
        events: Box<RawValue>,
        #[ts(type = "GameState")]
        state: Box<RawValue>,
        /// The seats the game waits for now, as everyone may be told.
        waiting_for: Vec<u8>,
        clock: Option<ClockView>,
        status: Status,
        /// Per seat, why it may not ask to take back a move now (null: it may).
        #[serde(default)]
        undo_refused: Vec<Option<String>>,
    },
    /// The game started (every seat taken).
    Started { game: i64, info: GameInfo },
    /// Seats changed in an open game.
    Lobby { game: i64, info: GameInfo },
    /// An undo request: waiting for `request.waiting` to answer, or settled (`request` null) with
    /// `note` saying how (a seat declined, a seat took back a move, the request lapsed; a
    /// taken-back move is followed by a full `sync`). Clients name the seat as their page does.
    Undo {
        game: i64,
        request: Option<UndoView>,
        note: Option<UndoNote>,
        /// Per seat, why it may not ask to take back a move now (null: it may).
        #[serde(default)]
        undo_refused: Vec<Option<String>>,
    },
    /// A player of this finished game offers a rematch: `rematch` is the new game, its seats for
    /// the other players taken with `invite`.
    Rematch { game: i64, rematch: i64, from: String, invite: Option<String> },
    Chat {
        game: i64,
        /// The line's id (what a report names).
        id: i64,
        /// None for the table's own lines (channel `system`).
        from: Option<String>,
        channel: crate::store::chat::Channel,
        text: String,
        at_ms: i64,
    },
    /// A moderator deleted chat line `id`: clients take it away.
    ChatDeleted { game: i64, id: i64 },
}

impl ServerMessage {
    pub fn to_text(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }
}

/// A logged action with its sequence number.
#[derive(Debug, Serialize, TS)]
pub struct SeqAction {
    pub seq: u64,
    #[ts(type = "RecordedAction")]
    pub action: Box<RawValue>,
}

/// A game as the lobby and the game page see it.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
pub struct GameInfo {
    pub id: i64,
    pub status: Status,
    pub creator: i64,
    #[ts(type = "{ system: string, [key: string]: unknown }")]
    pub rules: gobeyond_rules::record::RulesSpec,
    #[ts(type = "{ spec?: string, custom?: unknown } | string")]
    pub map: std::sync::Arc<gobeyond_rules::record::MapSource>,
    pub players: usize,
    pub time: TimeControl,
    pub seats: Vec<SeatView>,
    /// Changes its players' ratings.
    pub rated: bool,
    /// Listed nowhere: only its players and holders of its invite link see it (an open seat
    /// waits for an invited player).
    #[serde(default)]
    pub private: bool,
    pub seq: u64,
    /// The rule system's phase (`playing`, `clean_up`, ...; `finished`).
    pub phase: String,
    pub waiting_for: Vec<u8>,
    pub clock: Option<ClockView>,
    pub outcome: Option<Outcome>,
    /// The result as the system's players write it (classic Go's `W+8.5`, `B+R`), if it has a
    /// notation.
    #[serde(default)]
    pub result_text: Option<String>,
    /// An undo request waiting for answers.
    pub undo: Option<UndoView>,
    /// Per seat, why it may not ask to take back a move now (null: it may): the Undo button is
    /// disabled with this reason.
    #[serde(default)]
    pub undo_refused: Vec<Option<String>>,
    /// A rated game that ended before every player's second move: it changed no rating.
    pub aborted: bool,
    /// Why this rated game changed no rating (aborted, or its players are not independent
    /// accounts), once it has ended.
    pub unrated: Option<String>,
    /// Ended by the server with no result: nobody played in it for a long time, or its only
    /// person left a game against bots.
    pub abandoned: bool,
    /// The tournament round this game is a table of (`GET /api/games/{id}` only; absent for
    /// other games and in the socket's states).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub event: Option<GameEvent>,
}

/// A tournament game's tournament, round and table (docs/tournaments.md).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct GameEvent {
    /// The tournament's id (`#/tournaments/ID`).
    pub tournament: i64,
    /// The tournament's name.
    pub name: String,
    /// The round, from 1.
    pub round: u32,
    /// The table of the round, from 1.
    pub table: u32,
}

impl From<GameEvent> for gobeyond_rules::record::RecordEvent {
    fn from(e: GameEvent) -> Self {
        gobeyond_rules::record::RecordEvent {
            tournament: Some(e.tournament),
            name: e.name,
            round: Some(e.round),
            table: Some(e.table),
        }
    }
}

/// How an undo request was settled, about which seat.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum UndoNote {
    Declined {
        seat: usize,
    },
    TookBack {
        seat: usize,
    },
    /// The game moved on before everyone answered.
    Lapsed,
}

/// An undo request: `by` asks to take back action `from` and what followed; `waiting` are the
/// seats still to answer.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
pub struct UndoView {
    pub by: usize,
    pub from: u64,
    pub waiting: Vec<usize>,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
pub struct SeatView {
    pub seat: usize,
    /// How the seat was set up at creation.
    pub kind: Option<SeatChoice>,
    pub user: Option<String>,
    pub user_id: Option<i64>,
    pub bot_level: Option<u8>,
    /// The player's rating in this rule system (accounts, not guests or server bots).
    pub rating: Option<RatingView>,
}

/// The clock as clients see it: what is left, and the deadline of the turn running now.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
pub struct ClockView {
    pub control: ClockKind,
    /// Main time left per seat.
    pub remaining_ms: Vec<i64>,
    /// Byo-yomi periods left per seat.
    pub periods_left: Vec<u32>,
    /// When the current turn (or decision) runs out, in epoch milliseconds.
    pub deadline_ms: Option<i64>,
    /// The same, as milliseconds from now.
    pub left_ms: Option<i64>,
}
