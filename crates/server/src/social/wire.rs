//! The bodies of the social routes, exported to the web client with the protocol's types.

use serde::Serialize;
use ts_rs::TS;

use crate::setup::TimeControl;

/// A challenge as its two players see it.
#[derive(Debug, Serialize, TS)]
pub struct ChallengeView {
    pub id: i64,
    pub from: String,
    pub to: String,
    /// Sent to the reader (else sent by them).
    pub incoming: bool,
    /// `pending`, `accepted`, `declined`, `withdrawn` or `expired`.
    pub status: String,
    pub created_ms: i64,
    pub expires_ms: i64,
    /// The game it became, once accepted.
    pub game: Option<i64>,
    /// The rules as given (a system or preset name), the map, the number of players.
    pub rules: String,
    pub map: String,
    pub players: usize,
    pub rated: bool,
    pub time: TimeControl,
    /// The seat kept for the challenged player, and the challenger's.
    pub their_seat: usize,
    pub my_seat: Option<usize>,
}

/// `GET /api/challenges`: the reader's challenges, newest first, and how many wait for their
/// answer (`incoming_pending`: what a notification badge counts).
#[derive(Debug, Serialize, TS)]
pub struct ChallengeList {
    pub challenges: Vec<ChallengeView>,
    pub incoming_pending: usize,
}

/// A followed or blocked player.
#[derive(Debug, Serialize, TS)]
pub struct PersonView {
    pub name: String,
    pub kind: String,
    /// Seen in the last few minutes (an open game socket or the lobby).
    pub online: bool,
    pub last_seen_ms: Option<i64>,
    /// Their public live games.
    pub live_games: Vec<i64>,
}

#[derive(Debug, Serialize, TS)]
pub struct PeopleList {
    pub people: Vec<PersonView>,
}

/// `GET /api/players/{name}/social`: where the reader stands with a player.
#[derive(Debug, Serialize, TS)]
pub struct Relations {
    pub online: bool,
    /// The reader follows them, blocked them (false for nobody signed in).
    pub following: bool,
    pub blocked: bool,
    /// Whether the reader may challenge them, and if not why.
    pub challenge: Option<String>,
    pub live_games: Vec<i64>,
}

/// The reader's seek, if any.
#[derive(Debug, Serialize, TS)]
pub struct SeekView {
    /// `waiting`, `pairing` or `matched`.
    pub state: String,
    pub game: Option<i64>,
    pub waited_ms: i64,
    pub rules: String,
    pub shape: String,
    pub min_size: i64,
    pub max_size: i64,
    pub players: i64,
    pub rating: i64,
    /// The opponents' ratings accepted now: the range asked for, widened with the wait.
    pub accepts: [i64; 2],
    /// Other seekers who could meet this seek now.
    pub others: usize,
}

#[derive(Debug, Serialize, TS)]
pub struct SeekStatus {
    pub seek: Option<SeekView>,
}

/// The declarations `protocol::typescript` adds.
pub fn declarations(cfg: &ts_rs::Config) -> Vec<(String, String)> {
    macro_rules! decls {
        ($($t:ty),* $(,)?) => { vec![$((<$t>::ident(cfg), <$t>::decl(cfg))),*] };
    }
    decls![ChallengeView, ChallengeList, PersonView, PeopleList, Relations, SeekView, SeekStatus]
}
