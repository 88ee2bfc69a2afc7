//! What a game is made of: the settings a creator sends, checked once, stored as JSON with the
//! game, and turned into a fresh engine game through the registry, as the record replayer does
//! (`Record::new_game`), on the map the games that use it share.

use std::sync::Arc;

use gobeyond_maps::CustomMap;
use gobeyond_rules::{
    AnyGame,
    record::{MapSource, PlayerInfo, Record, RulesSpec},
    registry::{self, Object},
};
use serde::{Deserialize, Serialize};

use crate::error::ApiError;

/// The largest map a server game may use: bots must still think in a turn.
pub const MAX_NODES: usize = 4096;

/// Rules as a creator may write them: a system or preset name (`gobeyond`, `chinese`,
/// `japanese`, ...) or the full settings (`{"system": "gobeyond", "turn_seconds": 30}`).
#[derive(Debug, Clone, Deserialize)]
#[serde(untagged)]
pub enum RulesChoice {
    Name(String),
    Spec(RulesSpec),
}

/// A map as a creator may give it: a generator spec (`hex:5`) or a whole custom map.
#[derive(Debug, Clone, Deserialize)]
#[serde(untagged)]
pub enum MapChoice {
    Spec(String),
    Custom(CustomMap),
}

pub use crate::time_control::{TimeChoice, TimeControl, check_time};

/// Who sits in a seat when the game is created.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize, Default, ts_rs::TS)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum SeatChoice {
    /// Anyone who can see the game may take it.
    #[default]
    Open,
    /// Only holders of the game's invite link.
    Invite,
    /// A server bot at `level` 1–10.
    Bot { level: u8 },
    /// The creator.
    Me,
}

/// The body of `POST /api/games`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewGame {
    pub rules: RulesChoice,
    pub map: MapChoice,
    pub players: usize,
    /// A time control or a preset's name (`"rapid"`).
    #[serde(default)]
    pub time: TimeChoice,
    /// One per seat; missing seats are open. Default: the creator in seat 0, the rest open.
    #[serde(default)]
    pub seats: Vec<SeatChoice>,
    #[serde(default = "yes")]
    pub public: bool,
    /// Changes its players' ratings: public, between accounts (no guests, no server bots).
    #[serde(default)]
    pub rated: bool,
    /// Test hook (a server started with `--test-hooks` only): chance outcomes in wire form,
    /// each used by the first chance event of its `type`.
    #[serde(default)]
    pub rigged: Vec<Object>,
}

fn yes() -> bool {
    true
}

/// A checked game setup, as stored in the `games.setup` column.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GameSetup {
    pub rules: RulesSpec,
    /// Shared by every game of one map while they are in memory ([`crate::shared_maps`]).
    pub map: Arc<MapSource>,
    pub players: usize,
    pub time: TimeControl,
    pub seats: Vec<SeatChoice>,
    /// Missing in games made before ratings existed: they were all unrated.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub rated: bool,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub rigged: Vec<Object>,
    /// Per seat, the only account that may take it (a rematch keeps the other players' seats
    /// for them); empty when no seat is kept. Set by the server, never by a creator.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub reserved: Vec<Option<i64>>,
}

impl GameSetup {
    /// The account seat `seat` is kept for, if any.
    pub fn reserved_for(&self, seat: usize) -> Option<i64> {
        self.reserved.get(seat).copied().flatten()
    }
}

impl NewGame {
    /// Checks everything a game needs, with a message that says what is wrong.
    pub fn validate(self) -> Result<GameSetup, ApiError> {
        let bad = |m: String| ApiError::BadRequest(m);
        if self.rigged.len() > 1000 {
            return Err(bad(format!("rigged: at most 1000 outcomes, not {}", self.rigged.len())));
        }
        if !(2..=8).contains(&self.players) {
            return Err(bad(format!("players must be 2 to 8, not {}", self.players)));
        }
        let mut rules = match self.rules {
            RulesChoice::Name(n) => registry::rules_by_name(&n).map_err(bad)?,
            RulesChoice::Spec(s) => s,
        };
        let system = rules.info().map_err(|e| bad(e.to_string()))?;
        // Settings left out take today's defaults, stored with the game (a setting added later
        // reads as "off" in older records, which must replay as they were played).
        let mut settings = system.defaults_for(&rules.settings);
        settings.extend(std::mem::take(&mut rules.settings));
        rules.settings = settings;
        system.validate(&rules.settings, self.players).map_err(|e| bad(format!("rules: {e}")))?;
        let time = self.time.resolve()?;
        if system.clock(&rules.settings).is_some() && time != TimeControl::None {
            return Err(bad(format!(
                "{} games are timed by their own settings, not by a time control",
                system.title
            )));
        }
        let map = Arc::new(checked_map(self.map)?);
        let seats = checked_seats(self.seats, self.players)?;
        if self.rated && !self.public {
            return Err(bad("a rated game is public: anyone may watch and check it".into()));
        }
        if self.rated {
            check_rated_clock(&rules, system.title, &time)?;
        }
        if self.rated && seats.iter().any(|s| matches!(s, SeatChoice::Bot { .. })) {
            return Err(bad(
                "rated games are between accounts: server bots play unrated games (a program may \
                 play rated ones with its own bot account)"
                    .into(),
            ));
        }
        let setup = GameSetup {
            rules,
            map,
            players: self.players,
            time,
            seats,
            rated: self.rated,
            rigged: self.rigged,
            reserved: Vec::new(),
        };
        // Building the game checks the map and the rules against each other.
        let game = setup.new_game()?;
        if game.map().len() > MAX_NODES {
            return Err(bad(format!(
                "the map has {} nodes; server games allow at most {MAX_NODES}",
                game.map().len()
            )));
        }
        Ok(setup)
    }
}

/// A map the server can hold: a spec generated within [`MAX_NODES`] (refused before anything is
/// built), or a custom map whose informational spec is bounded like a name.
fn checked_map(map: MapChoice) -> Result<MapSource, ApiError> {
    let bad = |m: String| ApiError::BadRequest(m);
    Ok(match map {
        MapChoice::Spec(s) => {
            // Too big for the server: refused before anything is generated.
            gobeyond_maps::generate_within(&s, MAX_NODES).map_err(|e| bad(format!("map: {e}")))?;
            MapSource::Spec(s)
        }
        MapChoice::Custom(c) => {
            // Informational, but echoed with the game's settings: bounded like a name (a
            // 900 KB spec once travelled in every info and sync).
            let chars = c.spec.as_deref().map_or(0, |s| s.chars().count());
            if chars > gobeyond_maps::MAX_NAME_CHARS {
                return Err(bad(format!(
                    "map: the custom map's spec has {chars} characters; at most {} are allowed",
                    gobeyond_maps::MAX_NAME_CHARS
                )));
            }
            MapSource::Custom(c)
        }
    })
}

/// The seats as listed, filled up with open seats: the creator in one at most (the first when
/// none is listed), bots of levels 1 to 10.
fn checked_seats(mut seats: Vec<SeatChoice>, players: usize) -> Result<Vec<SeatChoice>, ApiError> {
    let bad = |m: String| ApiError::BadRequest(m);
    if seats.len() > players {
        return Err(bad(format!("{} seats listed for {} players", seats.len(), players)));
    }
    if seats.is_empty() {
        seats.push(SeatChoice::Me);
    }
    seats.resize(players, SeatChoice::Open);
    if seats.iter().filter(|s| **s == SeatChoice::Me).count() > 1 {
        return Err(bad("the creator can take one seat only".into()));
    }
    if let Some(SeatChoice::Bot { level }) =
        seats.iter().find(|s| matches!(s, SeatChoice::Bot { level } if !(1..=10).contains(level)))
    {
        return Err(bad(format!("bot level {level} is not 1 to 10")));
    }
    Ok(seats)
}

/// A rated game needs a clock: without one a player who is losing can leave the game hanging
/// for ever instead of losing it (and an account farming points meets no time cost).
fn check_rated_clock(rules: &RulesSpec, title: &str, time: &TimeControl) -> Result<(), ApiError> {
    let own = rules.info().ok().and_then(|i| i.clock(&rules.settings));
    match own {
        Some(c) if c.turn_ms > 0 => Ok(()),
        Some(_) => Err(ApiError::BadRequest(format!(
            "a rated game needs a clock: {title} games are timed by their turn_seconds setting, \
             which must be above 0 in a rated game"
        ))),
        None if *time != TimeControl::None => Ok(()),
        None => Err(ApiError::BadRequest(
            "a rated game needs a clock: choose a time control (absolute, fischer, byo_yomi, \
             canadian, simple or correspondence) or make the game unrated"
                .into(),
        )),
    }
}

impl GameSetup {
    /// The record header of this game (no actions yet).
    pub fn record(&self, names: &[String]) -> Record {
        let players = (0..self.players)
            .map(|i| PlayerInfo { name: names.get(i).cloned().unwrap_or_default() })
            .collect();
        Record::new(self.map.as_ref().clone(), self.rules.clone(), players)
    }

    /// A fresh engine game for this setup, on the map every game of it shares (server games
    /// start on an empty board, the first seat first).
    pub fn new_game(&self) -> Result<AnyGame, ApiError> {
        let (_, map) = crate::shared_maps::share(self.map.clone())?;
        let bad = |e: String| ApiError::BadRequest(e);
        let info = self.rules.info().map_err(|e| bad(e.to_string()))?;
        info.start(map, self.players, &self.rules.settings, &gobeyond_rules::system::Start::default())
            .map_err(|e| bad(e.to_string()))
    }

    /// Makes this setup hold the shared copy of its map (a game loaded from the database
    /// parsed its own).
    pub fn share_map(&mut self) -> Result<(), ApiError> {
        self.map = crate::shared_maps::share(self.map.clone())?.0;
        Ok(())
    }
}

/// What lobby lists show of a game's settings, stored with the game (`games.brief`) so that a
/// list never reads a whole custom map: 14 lists of 200 games on 1 MiB maps once took the
/// server from 12 MiB to 3 GiB.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct GameBrief {
    pub system: String,
    pub players: usize,
    pub map: crate::protocol::MapBrief,
    pub rated: bool,
    /// Seats only the invitation (or a rematch's player) may take.
    pub kept_seats: Vec<usize>,
    /// The time control, when there is one (briefs stored before it were written without).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub time: Option<TimeControl>,
}

impl GameSetup {
    /// One person against bots with no clock of any kind (neither the game's time control nor
    /// the rule system's own turn clock): such games do not count against the creator's cap.
    pub fn casual(&self) -> bool {
        // GoBeyond's turn clock with 0 s turns runs no clock.
        let system_clock =
            self.rules.info().ok().and_then(|i| i.clock(&self.rules.settings)).filter(|c| c.turn_ms > 0);
        let people = self.seats.iter().filter(|s| **s == SeatChoice::Me).count();
        let bots = self.seats.iter().filter(|s| matches!(s, SeatChoice::Bot { .. })).count();
        self.time == TimeControl::None
            && system_clock.is_none()
            && people == 1
            && people + bots == self.players
    }

    pub fn brief(&self) -> GameBrief {
        let kept = |i: usize| {
            self.seats.get(i) == Some(&SeatChoice::Invite)
                || self.reserved.get(i).is_some_and(Option::is_some)
        };
        GameBrief {
            system: self.rules.system.clone(),
            players: self.players,
            map: crate::protocol::MapBrief::of(&self.map),
            rated: self.rated,
            kept_seats: (0..self.players).filter(|&i| kept(i)).collect(),
            time: (self.time != TimeControl::None).then_some(self.time),
        }
    }
}
