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

/// An HTTP error: what was wrong, and the rule system's refusal code when it refused.
#[derive(Debug, Serialize, TS)]
pub struct ErrorBody {
    pub error: String,
    pub code: Option<String>,
}

/// `GET /api/games/{id}/invite`: the invite code (`null` for a game without invitations).
#[derive(Debug, Serialize, TS)]
pub struct InviteBody {
    pub invite: Option<String>,
}

#[derive(Debug, Serialize, TS)]
pub struct Health {
    pub ok: bool,
    /// `sqlite` or `postgres`.
    pub database: String,
    pub games_loaded: usize,
    /// Resident memory of the server process (Linux).
    pub rss_bytes: Option<u64>,
    /// Bot searches running now for games with people, and for games of bots only (separate
    /// budgets).
    pub bot_searches: [usize; 2],
    /// With PostgreSQL: this instance's id among those sharing the database.
    pub instance: Option<String>,
    /// The games this instance runs (their clocks and bots), by id.
    pub games_owned: Vec<i64>,
    /// Games of other instances relayed to this one's clients now.
    pub games_relayed: usize,
    /// Game sockets and HTTP connections open now.
    pub sockets: usize,
    pub connections: usize,
    /// The estimated bytes of the games in memory, and the budget they are kept within.
    pub games_bytes: u64,
    pub games_bytes_budget: u64,
}

/// `{"user": ...}`: sign-up, login, guest, `GET /api/me`; `claimed_guest` when a guest
/// account became a registered one.
#[derive(Debug, Serialize, TS)]
pub struct UserBody {
    pub user: User,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    #[ts(as = "Option<bool>", optional)]
    pub claimed_guest: bool,
}

/// `GET /api/vacation`, and the answer to `POST /api/vacation`: the caller's vacation and
/// this calendar year's allowance (UTC).
#[derive(Debug, Serialize, TS)]
pub struct VacationView {
    /// A vacation runs now: the caller's correspondence clocks stand still.
    pub on: bool,
    /// When it ends by itself (the allowance used up), unless ended sooner.
    pub until_ms: Option<i64>,
    pub allowance_days: u32,
    pub used_ms: i64,
    pub left_ms: i64,
    /// The server's time, which the other times are counted against.
    pub now_ms: i64,
}

/// `GET /api/me`: the signed-in user, or null when the request carries no credential.
#[derive(Debug, Serialize, TS)]
pub struct MeBody {
    pub user: Option<User>,
    /// The account's role and sanctions (docs/moderation.md); none when nobody is signed in.
    pub standing: Option<crate::moderation::wire::StandingView>,
}

#[derive(Debug, Serialize, TS)]
pub struct OkBody {
    pub ok: bool,
}

/// A new bot account and its API token (shown once).
#[derive(Debug, Serialize, TS)]
pub struct BotCreated {
    pub user: User,
    pub token: String,
}

#[derive(Debug, Serialize, TS)]
pub struct BotList {
    pub bots: Vec<User>,
}

#[derive(Debug, Serialize, TS)]
pub struct GameCreated {
    pub game: GameInfo,
    /// The invitation code, when a seat is by invitation.
    pub invite: Option<String>,
}

#[derive(Debug, Serialize, TS)]
pub struct Joined {
    pub seat: usize,
    pub game: GameInfo,
}

/// One game in a lobby list.
#[derive(Debug, Serialize, TS)]
pub struct GameSummary {
    pub id: i64,
    pub status: String,
    /// The rule system's name.
    pub rules: Option<String>,
    pub map: Option<MapBrief>,
    pub players: usize,
    pub seats: Vec<SummarySeat>,
    pub created_ms: i64,
    /// When it was last played in (epoch milliseconds).
    pub last_active_ms: Option<i64>,
    /// Sockets watching it now, its players' included (those of the instance that answered).
    pub watchers: usize,
    #[ts(type = "unknown")]
    pub result: Option<Value>,
    /// The result as the system's players write it (classic Go's `W+8.5`, `B+R`), if it has a
    /// notation.
    pub result_text: Option<String>,
    pub rated: bool,
    /// Its time control, if it has one (not known for games listed before time controls
    /// were: lists then show none).
    pub time: Option<TimeControl>,
}

/// A map as lobby lists name it: its spec, or a custom map's name and size (never its nodes:
/// one guest's 20 custom-map games once made a 21 MB list).
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum MapBrief {
    Spec(String),
    Custom { name: String, nodes: usize },
}

impl MapBrief {
    pub fn of(map: &gobeyond_rules::record::MapSource) -> MapBrief {
        match map {
            gobeyond_rules::record::MapSource::Spec(s) => MapBrief::Spec(s.clone()),
            gobeyond_rules::record::MapSource::Custom(c) => {
                MapBrief::Custom { name: c.name.chars().take(200).collect(), nodes: c.nodes.len() }
            }
        }
    }
}

#[derive(Debug, Serialize, TS)]
pub struct SummarySeat {
    pub seat: usize,
    pub user: Option<String>,
    pub bot_level: Option<u8>,
    pub rating: Option<RatingView>,
}

/// `GET /api/players/{name}`: a player's page.
#[derive(Debug, Serialize, TS)]
pub struct PlayerProfile {
    pub name: String,
    /// `guest`, `registered` or `bot`.
    pub kind: String,
    /// One per rule system they played rated games in.
    pub ratings: Vec<SystemRating>,
    /// Their rated games, newest first.
    pub history: Vec<RatedGame>,
    /// Wins, draws and losses per rule system and number of players (all their finished games).
    pub record: Vec<SystemRecord>,
    /// Their public games, newest first.
    pub games: Vec<GameSummary>,
}

#[derive(Debug, Serialize, TS)]
pub struct SystemRating {
    pub system: String,
    /// Ratings are per rule system and number of players.
    #[ts(type = "number")]
    pub players: i64,
    pub rating: RatingView,
}

#[derive(Debug, Serialize, TS)]
pub struct SystemRecord {
    pub system: String,
    pub players: usize,
    pub won: u32,
    pub drawn: u32,
    pub lost: u32,
}

#[derive(Debug, Serialize, TS)]
pub struct RatedGame {
    pub game: i64,
    pub system: String,
    #[ts(type = "number")]
    pub players: i64,
    pub place: u32,
    pub before: i32,
    pub after: i32,
    pub at_ms: i64,
}

#[derive(Debug, Serialize, TS)]
pub struct GameList {
    pub games: Vec<GameSummary>,
}

#[derive(Debug, Serialize, TS)]
pub struct ChatLine {
    /// What a report or a moderator names the line by.
    pub id: i64,
    /// None for the table's own lines (channel `system`).
    pub from: Option<String>,
    pub channel: crate::store::chat::Channel,
    pub text: String,
    pub at_ms: i64,
}

#[derive(Debug, Serialize, TS)]
pub struct ChatHistory {
    pub chat: Vec<ChatLine>,
    /// Whether the reader may write in this chat now (players, the creator, spectators admitted
    /// with the invite link); joining a seat gives the right too.
    pub may_chat: bool,
    /// Where the reader's lines go (`players` or `spectators`), when they may chat.
    pub channel: Option<crate::store::chat::Channel>,
    /// Why the reader may not chat, when they may not.
    pub why_not: Option<String>,
}

/// The state after the first `at` actions of a game, for review.
#[derive(Debug, Serialize, TS)]
pub struct StateAt {
    pub at: usize,
    pub total: usize,
    #[ts(type = "RecordedAction | null")]
    pub action: Option<RecordedAction>,
    #[ts(type = "GameState")]
    pub state: Box<RawValue>,
}

/// `GET /api/rules`: every registered rule system.
#[derive(Debug, Serialize, TS)]
pub struct RuleSystems {
    pub systems: Vec<RuleSystemView>,
}

#[derive(Debug, Serialize, TS)]
pub struct RuleSystemView {
    pub name: String,
    pub title: String,
    pub about: String,
    #[ts(type = "Record<string, unknown>")]
    pub defaults: Object,
    pub presets: Vec<PresetView>,
    /// One description per setting, for forms.
    pub settings: Vec<SettingInfo>,
    /// The system times its own turns (then a game has no time control).
    pub own_clock: bool,
}

#[derive(Debug, Serialize, TS)]
pub struct PresetView {
    pub name: String,
    pub about: String,
    #[ts(type = "Record<string, unknown>")]
    pub settings: Object,
    /// Whether a game with these settings runs a clock of its own (a turn or decision time).
    pub timed: bool,
}

/// The TypeScript declarations of the protocol, as `web/src/protocol.ts` holds them: the
/// envelope's types, then every registered system's own (from the registry, never a list here)
/// and the maps that name them by system.
pub fn typescript() -> String {
    use gobeyond_rules::{EndReason, SYSTEMS, system::Preset};
    let cfg = ts_rs::Config::default().with_large_int("number");
    let mut decls: Vec<(String, String)> = Vec::new();
    // Systems share types (The Way of Go and BeSiege, the Go words): declared once. Two
    // different types under one name would give the client wrong types, so that is refused.
    let mut add = |name: String, decl: String| match decls.iter().find(|(n, _)| *n == name) {
        Some((_, known)) => assert_eq!(*known, decl, "two TypeScript types are called {name}"),
        None => decls.push((name, decl)),
    };
    macro_rules! envelope {
        ($($t:ty),* $(,)?) => { $(add(<$t>::ident(&cfg), <$t>::decl(&cfg));)* };
    }
    envelope![
        ClientMessage,
        ServerMessage,
        SeqAction,
        GameInfo,
        GameEvent,
        SeatView,
        UndoView,
        UndoNote,
        ClockView,
        ClockKind,
        TimeControl,
        SeatChoice,
        Status,
        User,
        Outcome,
        gobeyond_rules::Player,
        EndReason,
        ErrorBody,
        Health,
        InviteBody,
        UserBody,
        MeBody,
        VacationView,
        OkBody,
        BotCreated,
        BotList,
        GameCreated,
        Joined,
        GameSummary,
        SummarySeat,
        crate::rating::RatingView,
        PlayerProfile,
        SystemRating,
        SystemRecord,
        RatedGame,
        MapBrief,
        GameList,
        crate::lists::GamePage,
        crate::lists::PlayersFound,
        crate::lists::FoundPlayer,
        crate::tell::Tell,
        crate::tell::WaitingGame,
        crate::tell::EndedGame,
        ChatLine,
        crate::store::chat::Channel,
        ChatHistory,
        StateAt,
        crate::store::mail::MailPrefs,
        crate::mail::http::MailSettings,
        crate::mail::http::Confirmed,
        crate::mail::http::Unsubscribed,
        crate::mail::http::PasswordReset,
        RuleSystems,
        RuleSystemView,
        PresetView,
        SettingInfo,
        Preset,
        gobeyond_rules::record::RulesSpec,
        gobeyond_rules::record::MapSummary,
    ];
    for (name, decl) in crate::moderation::wire::declarations(&cfg) {
        add(name, decl);
    }
    for (name, decl) in crate::social::wire::declarations(&cfg) {
        add(name, decl);
    }
    let systems: Vec<_> = SYSTEMS.iter().map(|s| (s.name, (s.typescript)(&cfg))).collect();
    for (_, types) in &systems {
        for (name, decl) in &types.declarations {
            add(name.clone(), decl.clone());
        }
    }
    let mut out = String::from(
        "// Generated from crates/server/src/protocol.rs by `make protocol`: do not edit.\n\
         // The envelope's types, then each rule system's own (its state, inputs and events) and\n\
         // `SystemTypes`, which names them by system, all from the rules registry. views.ts says\n\
         // what a state or an action of any system is.\n\n\
         import type { GameState, RecordedAction } from './views';\n\n",
    );
    for (_, d) in decls {
        out.push_str("export ");
        out.push_str(&d);
        out.push_str("\n\n");
    }
    let names: Vec<String> = systems.iter().map(|(name, _)| format!("'{name}'")).collect();
    out.push_str(&format!(
        "/** Every rule system's name. */\nexport type SystemName = {};\n\n",
        names.join(" | ")
    ));
    out.push_str(
        "/** Each system's state, input and event types, by name. */\nexport type SystemTypes = {\n",
    );
    for (name, t) in &systems {
        out.push_str(&format!(
            "  '{name}': {{ state: {}; move: {}; event: {} }};\n",
            t.state, t.input, t.event
        ));
    }
    out.push_str("};\n\n");
    for (union, field) in [("AnyState", "state"), ("AnyMove", "move"), ("AnyEvent", "event")] {
        out.push_str(&format!("export type {union} = SystemTypes[SystemName]['{field}'];\n"));
    }
    out
}

#[cfg(test)]
mod tests {
    /// The checked-in TypeScript is what the Rust types say (`make protocol` rewrites it).
    #[test]
    fn web_protocol_types_are_current() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../web/src/protocol.ts");
        let fresh = super::typescript();
        if std::env::var_os("UPDATE_PROTOCOL").is_some() {
            std::fs::write(path, &fresh).unwrap_or_else(|e| panic!("writing {path}: {e}"));
            return;
        }
        let current = std::fs::read_to_string(path).unwrap_or_default();
        assert!(
            current == fresh,
            "web/src/protocol.ts is stale: run `make protocol` (UPDATE_PROTOCOL=1 cargo test -p gobeyond-server protocol)"
        );
    }
}
