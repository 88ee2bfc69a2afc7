//! The bodies of HTTP requests and answers (WebSocket messages are in `mod.rs`).

use super::*;

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
