//! What a rule system is: the one trait each system in `systems/` implements, and the small
//! types every layer shares (refusals, whose turn, viewers, settings descriptions).
//!
//! A rule system extends [`Game`] (the typed interface search uses) with everything a server,
//! a record or a user interface needs: its name and document, settings with defaults, presets
//! and validation, a wire form for what a seat may send ([`RuleSystem::Move`], serde, stable in
//! records), typed refusals, events for every effect, the state as one seat or a spectator sees
//! it, its clock, and the action taken when time runs out. The registry
//! ([`crate::registry`]) lists the systems; every other layer dispatches through it.

use std::{fmt::Debug, sync::Arc};

use gobeyond_maps::{Map, NodeId};
use serde::{Serialize, de::DeserializeOwned};

use crate::{Game, Player, PlayerInfo, setup::SetupError};

/// Why something a seat sent was refused: a stable code for programs, a sentence for people
/// (with node labels and colour names). The game is unchanged.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, serde::Deserialize, thiserror::Error)]
#[error("{message}")]
pub struct Refusal {
    /// `snake_case`, stable: `occupied`, `not_your_turn`, `bad_action`, ...
    pub code: String,
    pub message: String,
}

impl Refusal {
    pub fn new(code: impl Into<String>, message: impl Into<String>) -> Refusal {
        Refusal { code: code.into(), message: message.into() }
    }
}

/// Who looks at a game: a seat (sees its own hidden information) or a spectator (sees only
/// what is public). Every view a client receives is built for one viewer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Viewer {
    Seat(Player),
    Spectator,
}

/// What a game waits for now.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Turn {
    /// The seats that may (and must) act now: one player to move, several seats that decide at
    /// the same time (Clean-Up), or a reaction window. Empty when the game is over.
    pub seats: Vec<Player>,
    /// The phase's name, for clients (`playing`, `clean_up`, ...; `finished` at the end).
    pub phase: &'static str,
    /// The seats decide at the same time on one deadline (a decision), rather than in turn.
    pub simultaneous: bool,
    /// A chance event (dice, a card draw) must be resolved for this seat first: the server
    /// draws it ([`RuleSystem::draw_chance`]) and logs the outcome as an input, so replays stay
    /// deterministic and no player ever holds a seed.
    pub chance: Option<Player>,
}

impl Turn {
    /// One player to move.
    pub fn to_move(player: Option<Player>, phase: &'static str) -> Turn {
        Turn { seats: player.into_iter().collect(), phase, simultaneous: false, chance: None }
    }

    pub fn finished() -> Turn {
        Turn { seats: Vec::new(), phase: "finished", simultaneous: false, chance: None }
    }
}

/// A rule system's own clock (GoBeyond's seconds per turn). Systems without one are timed by
/// the game's time control (absolute, Fischer, byo-yomi).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct TurnClock {
    /// Per turn; 0 = untimed.
    pub turn_ms: i64,
    /// Per simultaneous decision (Clean-Up); 0 = untimed.
    pub decision_ms: i64,
}

/// One setting, described for forms and `--set` help: built from the system's own settings.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct SettingInfo {
    pub name: &'static str,
    /// `integer`, `number`, `choice`, `integers` (a list), `optional_integer`, or `boolean`.
    #[cfg_attr(
        feature = "ts",
        ts(type = "'integer' | 'number' | 'choice' | 'integers' | 'optional_integer' | 'boolean'")
    )]
    pub kind: &'static str,
    #[cfg_attr(feature = "ts", ts(type = "unknown"))]
    pub default: serde_json::Value,
    pub help: &'static str,
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    #[cfg_attr(feature = "ts", ts(as = "Option<Vec<String>>", optional))]
    pub choices: &'static [&'static str],
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub min: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub max: Option<f64>,
}

/// A named preset of a system's settings.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Preset {
    pub name: &'static str,
    pub description: &'static str,
}

/// A setting that cannot be used, naming it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, thiserror::Error)]
#[error("{setting}: {message}")]
pub struct SettingsError {
    pub setting: String,
    pub message: String,
}

impl SettingsError {
    pub fn new(setting: impl Into<String>, message: impl Into<String>) -> SettingsError {
        SettingsError { setting: setting.into(), message: message.into() }
    }
}

/// How a game starts: stones on the board before the first move, and who moves first.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Start {
    pub stones: Vec<(NodeId, Player)>,
    pub first: Option<Player>,
}

/// A type the web client reads, declared in TypeScript from the registry (feature `ts`): a
/// system's `Move`, `Event` and `View` are, so the client's types come from one list.
#[cfg(feature = "ts")]
pub trait Typed: ts_rs::TS + 'static {}
#[cfg(feature = "ts")]
impl<T: ts_rs::TS + 'static> Typed for T {}
/// Without the `ts` feature, every type.
#[cfg(not(feature = "ts"))]
pub trait Typed {}
#[cfg(not(feature = "ts"))]
impl<T> Typed for T {}

/// A player's past games of one rule system on a server, as the system may ask for them when a
/// game starts ([`RuleSystem::settings_from_history`]).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SeatHistory {
    /// Finished games played.
    pub played: u32,
    /// Of those, games finished in first place.
    pub first: u32,
}

/// A rule system: everything beyond [`Game`] that servers, records and interfaces need.
pub trait RuleSystem: Game {
    /// The name in records, URLs and `--rules` (`classic`, `gobeyond`).
    const NAME: &'static str;
    const TITLE: &'static str;
    /// One line for menus.
    const ABOUT: &'static str;
    /// The rules as implemented (`docs/rules/<name>.md`), in Markdown.
    const DOCUMENT: &'static str;

    /// About how many bytes a game's state holds per map node (its boards, scratch boards and
    /// per-node tables), for servers that budget their games by memory; checked against real
    /// allocations by `crates/server/tests/memory/estimates.rs`.
    const STATE_BYTES_PER_NODE: usize = 128;

    /// Its players read a two-player rating as a kyu/dan rank (classic Go); the server maps its
    /// rating scale to ranks (docs/api.md, "Ratings").
    const RATED_IN_KYU_DAN: bool = false;

    type Settings: Serialize + DeserializeOwned + Clone + PartialEq + Debug + Default + Send + Sync;
    /// Everything a seat (or the server, for chance and time-outs) may send, in the wire form
    /// that records keep: changing it needs a new record version.
    type Move: Serialize + DeserializeOwned + Clone + PartialEq + Debug + Send + Sync + Typed;
    /// One effect of an input (a capture, a payment, the end of the game).
    type Event: Serialize + DeserializeOwned + Clone + PartialEq + Debug + Send + Sync + Typed;
    /// The state as one viewer sees it.
    type View: Serialize + Send + Typed;

    fn presets() -> &'static [Preset];
    /// A preset's settings (names are case-insensitive).
    fn preset(name: &str) -> Option<Self::Settings>;
    fn describe_settings() -> Vec<SettingInfo>;
    fn validate(settings: &Self::Settings, players: usize) -> Result<(), SettingsError>;
    /// The system's own clock, if its settings define one.
    fn clock(settings: &Self::Settings) -> Option<TurnClock> {
        let _ = settings;
        None
    }

    /// Whether a game with the `given` settings takes settings from its players' history
    /// ([`RuleSystem::settings_from_history`]): servers look the history up only then.
    fn needs_history(given: &crate::wire::Object) -> bool {
        let _ = given;
        false
    }
    /// Settings a game takes from its players' past games of this system when its creator left
    /// them out (Tribal Go's handicap), given the settings given and each seat's history: the
    /// settings to add, or None. Stored with the game, so that it replays the same.
    fn settings_from_history(
        given: &crate::wire::Object,
        history: &[SeatHistory],
    ) -> Option<crate::wire::Object> {
        let _ = (given, history);
        None
    }

    /// The defaults for the settings not `given`, when they depend on those given (classic Go's
    /// komi is half a point with a handicap): by default the system's defaults.
    fn defaults_for(given: &crate::wire::Object) -> Self::Settings {
        let _ = given;
        Self::Settings::default()
    }

    /// The result as the system's players write it (classic Go's `W+8.5`, `B+R`, `Jigo`), if
    /// it has such a notation; lobby lists and the game page show it.
    fn result_notation(outcome: &crate::Outcome, players: usize) -> Option<String> {
        let _ = (outcome, players);
        None
    }

    /// A new game (settings already validated or not: they are checked again).
    fn start(
        map: Arc<Map>,
        players: usize,
        settings: Self::Settings,
        start: &Start,
    ) -> Result<Self, SetupError>;
    fn settings(&self) -> &Self::Settings;
    fn start_position(&self) -> Start;

    /// Who must act now.
    fn turn(&self) -> Turn;
    /// Plays one input of `seat`, checked: on a refusal nothing changes.
    fn submit(&mut self, seat: Player, input: &Self::Move) -> Result<(), Refusal>;
    /// The wire form of an engine action (a search's choice), nodes with number and label.
    fn to_wire(&self, action: Self::Action) -> Self::Move;
    /// What the clock plays for `seat` when its time runs out.
    fn timeout_move(&self, seat: Player) -> Self::Move;
    /// What the server plays for a computer seat whose search failed: the mildest action.
    fn fallback_move(&self, seat: Player) -> Self::Move;
    /// Draws the pending chance event ([`Turn::chance`]) with the server's generator.
    fn draw_chance(&self, rng: &mut crate::Rng) -> Option<Self::Move> {
        let _ = rng;
        None
    }
    /// Whether a seat may send this input itself (chance outcomes and time-outs are the
    /// server's).
    fn seat_may_send(input: &Self::Move) -> bool;
    /// Seats the game waits for whose decision is made for them, by a computer, because their
    /// player is gone (GoBeyond: resigned players' Clean-Up choices).
    fn decided_for(&self) -> Vec<Player> {
        Vec::new()
    }

    /// How many inputs have been played.
    fn input_count(&self) -> usize;
    /// Input `i` (from 0) with its seat, in wire form (nodes with number and label).
    fn input(&self, i: usize) -> Option<(Player, Self::Move)>;
    /// Every effect so far, in order (empty in search copies).
    fn events(&self) -> &[Self::Event];
    /// Whether some of the state is hidden from some seats (hands, the deck): then every seat
    /// is sent its own view, and spectators the public one.
    fn hidden_information(&self) -> bool {
        false
    }
    /// `seat`'s input as `viewer` may see it (None: unchanged): a card only its drawer sees,
    /// an answer in a window only its author.
    fn redact(&self, seat: Player, input: &Self::Move, viewer: Viewer) -> Option<Self::Move> {
        let _ = (seat, input, viewer);
        None
    }
    /// How long a decision of several seats at once may take under a time control, when the
    /// system wants it shorter than the server's default (None: the default).
    fn decision_seconds(&self) -> Option<f64> {
        None
    }
    /// A window of fixed length the system gives the decision now under any clock or none
    /// (Tribal Go's reaction window), counted from its start: when it has passed, the server
    /// plays the time-out for every seat still asked. 0 ends the window at once. None: no
    /// window.
    fn window_seconds(&self) -> Option<f64> {
        None
    }
    /// Whether `input` is what the window's end would answer anyway (a decline): a computer
    /// seat does not send it, so that the window's length reveals nothing.
    fn left_to_the_window(&self, input: &Self::Move) -> bool {
        let _ = input;
        false
    }
    /// The seats the game waits for, as everyone may be told: a system whose answers are
    /// secret shows every seat that was asked until all have answered.
    fn public_seats(&self) -> Vec<Player> {
        self.turn().seats
    }
    /// The state as `viewer` sees it; `history` adds every event so far.
    fn view(&self, viewer: Viewer, names: &[PlayerInfo], history: bool) -> Self::View;
    /// The record in SGF, for systems SGF can describe.
    fn sgf(&self, players: &[PlayerInfo], date: Option<&str>) -> Option<Result<String, String>> {
        let _ = (players, date);
        None
    }
}

/// A placement's node as the wire gives it: by number, by label, or both (they must agree).
pub fn resolve_node(map: &Map, node: Option<u64>, at: Option<&str>) -> Result<NodeId, Refusal> {
    let bad = |m: String| Refusal::new("unknown_node", m);
    let by_label = match at {
        Some(l) => Some(map.node_by_label(l).ok_or_else(|| bad(format!("there is no node labelled {l:?}")))?),
        None => None,
    };
    match (node, by_label) {
        (Some(n), _) if !map.contains(n) => {
            Err(bad(format!("node {n} is not on this map ({} nodes)", map.len())))
        }
        (Some(n), Some(l)) if n as NodeId != l => Err(bad(format!(
            "node {n} is labelled {:?}, not {:?}",
            map.label(n as NodeId),
            at.unwrap_or_default()
        ))),
        (Some(n), _) => Ok(n as NodeId),
        (None, Some(l)) => Ok(l),
        (None, None) => Err(Refusal::new("bad_action", "a placement needs \"node\" or \"at\"")),
    }
}

/// The nodes a list names: by number, by label, or both (then the lists must agree).
pub fn resolve_nodes(map: &Map, nodes: &[u64], at: &[String]) -> Result<Vec<NodeId>, Refusal> {
    if !nodes.is_empty() && !at.is_empty() && nodes.len() != at.len() {
        return Err(Refusal::new(
            "bad_action",
            format!("{} node numbers but {} labels", nodes.len(), at.len()),
        ));
    }
    (0..nodes.len().max(at.len()))
        .map(|i| resolve_node(map, nodes.get(i).copied(), at.get(i).map(String::as_str)))
        .collect()
}

/// `(node, label)` as the wire writes a placement: both, so that readers need no map.
pub fn node_ref(map: &Map, node: NodeId) -> (Option<u64>, Option<String>) {
    (Some(node as u64), Some(map.label(node).to_string()))
}
