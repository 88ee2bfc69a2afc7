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
    Hello {
        user: User,
    },
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
        clock: Option<ClockView>,
        status: Status,
    },
    /// The game started (every seat taken).
    Started {
        game: i64,
        info: GameInfo,
    },
    /// Seats changed in an open game.
    Lobby {
        game: i64,
        info: GameInfo,
    },
    /// An undo request: waiting for `request.waiting` to answer, or settled (`request` null) with
    /// `note` saying how ("Seat 2 (bob) declined the undo", "Seat 1 (ada) took back a move";
    /// a taken-back move is followed by a full `sync`).
    Undo {
        game: i64,
        request: Option<UndoView>,
        note: Option<String>,
    },
    /// A player of this finished game offers a rematch: `rematch` is the new game, its seats for
    /// the other players taken with `invite`.
    Rematch {
        game: i64,
        rematch: i64,
        from: String,
        invite: Option<String>,
    },
    Chat {
        game: i64,
        from: String,
        text: String,
        at_ms: i64,
    },
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
    pub map: gobeyond_rules::record::MapSource,
    pub players: usize,
    pub time: TimeControl,
    pub seats: Vec<SeatView>,
    /// Changes its players' ratings.
    pub rated: bool,
    pub seq: u64,
    /// The rule system's phase (`playing`, `clean_up`, ...; `finished`).
    pub phase: String,
    pub waiting_for: Vec<u8>,
    pub clock: Option<ClockView>,
    pub outcome: Option<Outcome>,
    /// An undo request waiting for answers.
    pub undo: Option<UndoView>,
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
    #[ts(type = "unknown")]
    pub result: Option<Value>,
    pub rated: bool,
}

/// A map as lobby lists name it: its spec, or a custom map's name and size (never its nodes:
/// one guest's 20 custom-map games once made a 21 MB list).
#[derive(Debug, Serialize, TS)]
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
    /// Their public games, newest first.
    pub games: Vec<GameSummary>,
}

#[derive(Debug, Serialize, TS)]
pub struct SystemRating {
    pub system: String,
    pub rating: RatingView,
}

#[derive(Debug, Serialize, TS)]
pub struct RatedGame {
    pub game: i64,
    pub system: String,
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
    pub from: String,
    pub text: String,
    pub at_ms: i64,
}

#[derive(Debug, Serialize, TS)]
pub struct ChatHistory {
    pub chat: Vec<ChatLine>,
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
}

/// The TypeScript declarations of the protocol, as `web/src/protocol.ts` holds them.
pub fn typescript() -> String {
    use gobeyond_rules::{EndReason, classic, gengo, gobeyond, system::Preset, tribal, way_of_go};
    let cfg = ts_rs::Config::default().with_large_int("number");
    let decls = [
        ClientMessage::decl(&cfg),
        ServerMessage::decl(&cfg),
        SeqAction::decl(&cfg),
        GameInfo::decl(&cfg),
        SeatView::decl(&cfg),
        UndoView::decl(&cfg),
        ClockView::decl(&cfg),
        ClockKind::decl(&cfg),
        TimeControl::decl(&cfg),
        SeatChoice::decl(&cfg),
        Status::decl(&cfg),
        User::decl(&cfg),
        Outcome::decl(&cfg),
        gobeyond_rules::Player::decl(&cfg),
        EndReason::decl(&cfg),
        ErrorBody::decl(&cfg),
        Health::decl(&cfg),
        InviteBody::decl(&cfg),
        UserBody::decl(&cfg),
        OkBody::decl(&cfg),
        BotCreated::decl(&cfg),
        BotList::decl(&cfg),
        GameCreated::decl(&cfg),
        Joined::decl(&cfg),
        GameSummary::decl(&cfg),
        SummarySeat::decl(&cfg),
        crate::rating::RatingView::decl(&cfg),
        PlayerProfile::decl(&cfg),
        SystemRating::decl(&cfg),
        RatedGame::decl(&cfg),
        MapBrief::decl(&cfg),
        GameList::decl(&cfg),
        ChatLine::decl(&cfg),
        ChatHistory::decl(&cfg),
        StateAt::decl(&cfg),
        RuleSystems::decl(&cfg),
        RuleSystemView::decl(&cfg),
        PresetView::decl(&cfg),
        SettingInfo::decl(&cfg),
        Preset::decl(&cfg),
        // Each rule system's own state, inputs and events, for web/src/systems/.
        gobeyond_rules::record::RulesSpec::decl(&cfg),
        gobeyond_rules::record::MapSummary::decl(&cfg),
        classic::GameState::decl(&cfg),
        classic::PlayerState::decl(&cfg),
        classic::Move::decl(&cfg),
        classic::Event::decl(&cfg),
        gobeyond::GoBeyondState::decl(&cfg),
        gobeyond::GoBeyondPlayer::decl(&cfg),
        gobeyond::NodeState::decl(&cfg),
        gobeyond::Phase::decl(&cfg),
        gobeyond::Move::decl(&cfg),
        gobeyond::Event::decl(&cfg),
        gobeyond::ClaimChange::decl(&cfg),
        tribal::TribalState::decl(&cfg),
        tribal::state::TribalPlayer::decl(&cfg),
        tribal::Move::decl(&cfg),
        tribal::Event::decl(&cfg),
        tribal::Card::decl(&cfg),
        tribal::Answer::decl(&cfg),
        tribal::state::TribalCardPlay::decl(&cfg),
        tribal::state::TribalReaction::decl(&cfg),
        gengo::GengoState::decl(&cfg),
        gengo::GengoPlayer::decl(&cfg),
        gengo::GroupView::decl(&cfg),
        gengo::Move::decl(&cfg),
        gengo::Event::decl(&cfg),
        way_of_go::WayState::decl(&cfg),
        way_of_go::WayPlayer::decl(&cfg),
        way_of_go::WayMoveView::decl(&cfg),
        way_of_go::Colour::decl(&cfg),
        way_of_go::Landing::decl(&cfg),
        way_of_go::Move::decl(&cfg),
        way_of_go::Event::decl(&cfg),
    ];
    let mut out = String::from(
        "// Generated from crates/server/src/protocol.rs by `make protocol`: do not edit.\n\
         // A game's state and its recorded actions are each rule system's own: views.ts reads them\n\
         // as any system's, src/systems/ as its own (the systems' types are at the end).\n\n\
         import type { GameState, RecordedAction } from './views';\n\n",
    );
    for d in decls {
        out.push_str("export ");
        out.push_str(&d);
        out.push_str("\n\n");
    }
    out.truncate(out.trim_end().len());
    out.push('\n');
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
