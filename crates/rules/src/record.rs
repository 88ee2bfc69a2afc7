//! JSON game records: the map (a generator spec or an inline map), the rules, the players, setup
//! stones and every input. This module knows the file format only: the rules and the inputs are
//! each system's own wire form, read and replayed through the registry. Replaying a record is
//! deterministic (chance outcomes are inputs too). Schema: `docs/formats.md`.

use std::sync::Arc;

use gobeyond_maps::{CustomMap, Map, NodeId, generate};
use serde::{Deserialize, Serialize};

use crate::{
    AnyGame, Player,
    registry::RulesError,
    system::{RuleSystem, Start},
    tree::{self, Comment, NodeRef, TreeError, VariationNode},
    wire::{Object, to_object},
};
pub use crate::{PlayerInfo, registry::RulesSpec};

pub const FORMAT: &str = "gobeyond-record";
/// Version 2 added the review tree (variations and comments); version 1 is still read.
pub const VERSION: u32 = 2;
/// The oldest version read.
pub const OLDEST_VERSION: u32 = 1;

/// Where a record's map comes from.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MapSource {
    /// A generator spec such as `square:19` or `goldberg:2,1`.
    Spec(String),
    /// A whole map, as in a custom map file.
    Custom(CustomMap),
}

impl MapSource {
    pub fn load(&self) -> Result<Map, RecordError> {
        match self {
            MapSource::Spec(s) => generate(s).map_err(|e| RecordError::Map(e.to_string())),
            MapSource::Custom(c) => c.clone().build().map_err(|e| RecordError::Map(e.to_string())),
        }
    }
}

/// A stone on the board before the first move (handicap, problems).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct SetupStone {
    pub player: u8,
    pub node: NodeId,
}

/// One input as written in a record: the seat, and the system's wire form of the input
/// (`{"type": "place", "node": 12, "at": "C4"}`, `{"type": "pass"}`, ...).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RecordedAction {
    pub player: u8,
    /// When it was played (epoch milliseconds), where the record's writer knew (server games).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub at_ms: Option<i64>,
    #[serde(flatten)]
    pub input: Object,
}

impl RecordedAction {
    /// An input of `player` from any system's wire type.
    pub fn new<T: Serialize>(player: Player, input: &T) -> RecordedAction {
        RecordedAction { player: player.0, at_ms: None, input: to_object(input) }
    }

    /// The input's `type` (`place`, `pass`, ...).
    pub fn kind(&self) -> &str {
        self.input.get("type").and_then(|t| t.as_str()).unwrap_or("")
    }
}

/// A game record.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Record {
    pub format: String,
    pub version: u32,
    pub map: MapSource,
    pub rules: RulesSpec,
    pub players: Vec<PlayerInfo>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub setup: Vec<SetupStone>,
    /// Who moves first (default: player 0).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub first: Option<u8>,
    pub actions: Vec<RecordedAction>,
    /// Free-form date (SGF `DT`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub date: Option<String>,
    /// Every effect of the inputs, for readers and UIs, in the system's terms. Derived from the
    /// inputs; when present, a replay checks that it produces exactly these.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub events: Vec<serde_json::Value>,
    /// Version 2: actions played off the main line, parents before children.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub variations: Vec<VariationNode>,
    /// Version 2: comments on nodes of the main line or of variations.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub comments: Vec<Comment>,
    /// The event the game was played in (a tournament's round and table; SGF `EV`, `RO`).
    /// Optional, so it needs no new version (docs/formats.md, "Game record").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub event: Option<RecordEvent>,
}

/// The event of a game: what SGF's `EV` and `RO` name, and where the server knows them, the
/// tournament's id and the table.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RecordEvent {
    /// The server's tournament id (`#/tournaments/ID`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tournament: Option<i64>,
    /// The tournament's name (SGF `EV`).
    pub name: String,
    /// The round, from 1 (SGF `RO`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub round: Option<u32>,
    /// The table of the round, from 1.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub table: Option<u32>,
}

/// Why a record could not be read or replayed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RecordError {
    #[error("not a record: {0}")]
    Parse(String),
    #[error(
        "unsupported record format {format:?} version {version} (expected {FORMAT:?} version {OLDEST_VERSION} to {VERSION})"
    )]
    Format { format: String, version: u32 },
    #[error("the record's map is invalid: {0}")]
    Map(String),
    #[error("the record's rules are invalid: {0}")]
    Rules(String),
    #[error("the record's setup is invalid: {0}")]
    Setup(String),
    #[error("action #{index} (player {player}): {reason}")]
    Action { index: usize, player: u8, reason: String },
    #[error("the record is for {found} rules, not {expected}")]
    System { expected: String, found: String },
    #[error(
        "event #{index} of the record differs from the replay: the record says {recorded}, the replay gives {replayed}"
    )]
    Events { index: usize, recorded: String, replayed: String },
    #[error("{0}")]
    Tree(#[from] TreeError),
}

impl From<RulesError> for RecordError {
    fn from(e: RulesError) -> RecordError {
        match e {
            RulesError::WrongSystem { expected, found } => RecordError::System { expected, found },
            RulesError::Setup(text) => RecordError::Setup(text),
            other => RecordError::Rules(other.to_string()),
        }
    }
}

impl Record {
    /// A new, empty record.
    pub fn new(map: MapSource, rules: RulesSpec, players: Vec<PlayerInfo>) -> Record {
        Record {
            format: FORMAT.into(),
            version: VERSION,
            map,
            rules,
            players,
            setup: Vec::new(),
            first: None,
            actions: Vec::new(),
            date: None,
            events: Vec::new(),
            variations: Vec::new(),
            event: None,
            comments: Vec::new(),
        }
    }

    pub fn from_json(text: &str) -> Result<Record, RecordError> {
        let r: Record = serde_json::from_str(text).map_err(|e| RecordError::Parse(e.to_string()))?;
        if r.format != FORMAT || !(OLDEST_VERSION..=VERSION).contains(&r.version) {
            return Err(RecordError::Format { format: r.format, version: r.version });
        }
        tree::check_shape(r.actions.len(), &r.variations, &r.comments)?;
        // Read as version 1 or 2, written as the current version.
        Ok(Record { version: VERSION, ..r })
    }

    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_default()
    }

    /// How the game starts: setup stones and the first player.
    pub fn start(&self) -> Start {
        Start {
            stones: self.setup.iter().map(|s| (s.node, Player(s.player))).collect(),
            first: self.first.map(Player),
        }
    }

    /// The game before any input.
    pub fn new_game(&self) -> Result<AnyGame, RecordError> {
        let info = self.rules.info()?;
        let map = Arc::new(self.map.load()?);
        Ok(info.start(map, self.players.len(), &self.rules.settings, &self.start())?)
    }

    /// Replays every input under the record's rule system; the first refused input is
    /// reported with its index, and recorded events (when present) are checked. Variations
    /// are played too: the first refused one is reported with its id.
    pub fn replay(&self) -> Result<AnyGame, RecordError> {
        let mut game = self.new_game()?;
        let kids = if self.variations.is_empty() {
            Default::default()
        } else {
            tree::check_shape(self.actions.len(), &self.variations, &self.comments)?;
            tree::children(&self.variations)
        };
        for (index, a) in self.actions.iter().enumerate() {
            tree::check_below(&game, NodeRef::At(index as u32), &self.variations, &kids)?;
            game.submit(Player(a.player), &a.input).map_err(|r| RecordError::Action {
                index,
                player: a.player,
                reason: r.message,
            })?;
        }
        tree::check_below(&game, NodeRef::At(self.actions.len() as u32), &self.variations, &kids)?;
        if !self.events.is_empty() {
            let replayed = game.events();
            let index = (0..self.events.len().max(replayed.len()))
                .find(|&i| !same_event(self.events.get(i), replayed.get(i)));
            if let Some(index) = index {
                let show = |e: Option<&serde_json::Value>| e.map_or("nothing".to_string(), |e| e.to_string());
                return Err(RecordError::Events {
                    index,
                    recorded: show(self.events.get(index)),
                    replayed: show(replayed.get(index)),
                });
            }
        }
        Ok(game)
    }

    /// Replays a record that must be of system `S`.
    pub fn replay_as<S: RuleSystem + TryFrom<AnyGame>>(&self) -> Result<S, RecordError> {
        if self.rules.system != S::NAME {
            return Err(RecordError::System {
                expected: S::NAME.to_string(),
                found: self.rules.system.clone(),
            });
        }
        S::try_from(self.replay()?).map_err(|_| RecordError::System {
            expected: S::NAME.to_string(),
            found: self.rules.system.clone(),
        })
    }

    /// The record of a game so far, with its events.
    pub fn of<S: RuleSystem>(game: &S, map: MapSource, players: Vec<PlayerInfo>) -> Record {
        let mut r = Record::new(map, RulesSpec::of::<S>(game.settings()), players);
        let start = game.start_position();
        r.setup = start.stones.iter().map(|&(node, p)| SetupStone { player: p.0, node }).collect();
        r.first = start.first.filter(|&f| f != Player(0)).map(|f| f.0);
        r.actions = (0..game.input_count())
            .filter_map(|i| game.input(i))
            .map(|(p, input)| RecordedAction::new(p, &input))
            .collect();
        r.events = game.events().iter().map(|e| serde_json::to_value(e).unwrap_or_default()).collect();
        r
    }

    /// The record of a game of any system so far.
    pub fn of_any(game: &AnyGame, map: MapSource, players: Vec<PlayerInfo>) -> Record {
        dispatch!(game, g => Record::of(g, map, players))
    }
}

/// Whether a recorded event is the replayed one. Numbers compare by value: a record that went
/// through another JSON writer (a browser writes the score `81.0` as `81`) still replays.
fn same_event(a: Option<&serde_json::Value>, b: Option<&serde_json::Value>) -> bool {
    use serde_json::Value;
    fn same(a: &Value, b: &Value) -> bool {
        match (a, b) {
            (Value::Number(x), Value::Number(y)) => x.as_f64() == y.as_f64(),
            (Value::Array(x), Value::Array(y)) => {
                x.len() == y.len() && x.iter().zip(y).all(|(x, y)| same(x, y))
            }
            (Value::Object(x), Value::Object(y)) => {
                x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| same(v, w)))
            }
            _ => a == b,
        }
    }
    match (a, b) {
        (Some(a), Some(b)) => same(a, b),
        (a, b) => a == b,
    }
}

/// A summary of the map in state JSON.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct MapSummary {
    pub name: String,
    pub spec: String,
    pub nodes: usize,
}
