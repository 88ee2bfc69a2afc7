//! JSON game records: the map (a generator spec or an inline map), the rules, the players, setup
//! stones and every action. Replaying a record is deterministic. Schema: `docs/formats.md`.

use std::sync::Arc;

use gobeyond_maps::{CustomMap, Map, NodeId, generate};
use serde::{Deserialize, Serialize};

use crate::{
    ClassicRules, Player,
    classic::{Action, ClassicGame},
    game::Game,
    gobeyond::{self, GoBeyondGame, GoBeyondRules, GoBeyondState, Input},
    regions,
};

pub const FORMAT: &str = "gobeyond-record";
pub const VERSION: u32 = 1;

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

/// The rule system and its settings.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "system", rename_all = "snake_case")]
pub enum RulesSpec {
    Classic(ClassicRules),
    #[serde(rename = "gobeyond")]
    GoBeyond(GoBeyondRules),
}

impl RulesSpec {
    /// The rule system's name as written in records.
    pub fn system(&self) -> &'static str {
        match self {
            RulesSpec::Classic(_) => "classic",
            RulesSpec::GoBeyond(_) => "gobeyond",
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct PlayerInfo {
    #[serde(default)]
    pub name: String,
}

/// A stone on the board before the first move (handicap, problems).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct SetupStone {
    pub player: u8,
    pub node: NodeId,
}

/// One action as written in a record. A placement names its node by number (`node`) or by label
/// (`at`); records written by GoBeyond carry both. `skip`, `surrender` and `cleanup_timeout`
/// belong to the GoBeyond rules.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum RecordedKind {
    #[serde(alias = "occupy")]
    Place {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        node: Option<u64>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        at: Option<String>,
    },
    Pass,
    Resign,
    /// Ran out of time (classic: loses the game; GoBeyond: the turn is skipped).
    Timeout,
    /// GoBeyond: no action.
    Skip,
    /// GoBeyond Clean-Up: the stones a player gives up, by number (`nodes`) or label (`at`).
    Surrender {
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        nodes: Vec<u64>,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        at: Vec<String>,
    },
    /// GoBeyond Clean-Up: the player's Clean-Up time ran out (nothing surrendered).
    CleanupTimeout,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RecordedAction {
    pub player: u8,
    #[serde(flatten)]
    pub kind: RecordedKind,
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
    /// GoBeyond: every effect of the actions, for readers and UIs. Derived from the actions;
    /// when present, a replay checks that it produces exactly these.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub events: Vec<gobeyond::Event>,
}

/// A replayed game of any rule system.
#[derive(Debug, Clone)]
#[allow(clippy::large_enum_variant)] // one per replay: boxing would only add noise
pub enum AnyGame {
    Classic(ClassicGame),
    GoBeyond(GoBeyondGame),
}

impl AnyGame {
    /// Plays one recorded action, checked: on error the game is unchanged and the message says
    /// why (in the terms of the rule system, with node labels).
    pub fn apply(&mut self, action: &RecordedAction) -> Result<(), String> {
        match self {
            AnyGame::Classic(g) => apply_classic(g, action),
            AnyGame::GoBeyond(g) => apply_gobeyond(g, action),
        }
    }

    pub fn map(&self) -> &Arc<Map> {
        match self {
            AnyGame::Classic(g) => g.map(),
            AnyGame::GoBeyond(g) => g.map(),
        }
    }

    pub fn player_count(&self) -> usize {
        match self {
            AnyGame::Classic(g) => g.player_count(),
            AnyGame::GoBeyond(g) => g.player_count(),
        }
    }

    pub fn outcome(&self) -> Option<&crate::Outcome> {
        match self {
            AnyGame::Classic(g) => g.outcome(),
            AnyGame::GoBeyond(g) => g.outcome(),
        }
    }

    /// The players who may act now: the player to move, or everyone still to choose in
    /// GoBeyond's Clean-Up; empty once the game is over.
    pub fn waiting_for(&self) -> Vec<Player> {
        match self {
            AnyGame::Classic(g) => g.to_move().into_iter().collect(),
            AnyGame::GoBeyond(g) => match g.phase() {
                gobeyond::Phase::Playing => g.to_move().into_iter().collect(),
                gobeyond::Phase::CleanUp => g.awaiting_cleanup(),
                gobeyond::Phase::Finished => Vec::new(),
            },
        }
    }

    /// The state (what clients render), ready to serialise.
    pub fn state(&self, names: &[PlayerInfo]) -> AnyState {
        match self {
            AnyGame::Classic(g) => AnyState::Classic(GameState::of(g, names)),
            AnyGame::GoBeyond(g) => AnyState::GoBeyond(GoBeyondState::of(g, names)),
        }
    }

    /// The state as pretty JSON (`gobeyond replay`).
    pub fn state_json(&self, names: &[PlayerInfo]) -> String {
        let text = match self {
            AnyGame::Classic(g) => serde_json::to_string_pretty(&GameState::of(g, names)),
            AnyGame::GoBeyond(g) => serde_json::to_string_pretty(&GoBeyondState::of(g, names)),
        };
        text.unwrap_or_default()
    }
}

/// The state of a game of any rule system; serialises as that system's state JSON.
#[derive(Debug, Clone, Serialize)]
#[serde(untagged)]
#[allow(clippy::large_enum_variant)] // built once per message and serialised at once
pub enum AnyState {
    Classic(GameState),
    GoBeyond(GoBeyondState),
}

impl AnyState {
    /// The state without GoBeyond's event history (`events: []`), for messages that carry the
    /// new events next to it: the history grows with every turn.
    pub fn without_history(mut self) -> AnyState {
        if let AnyState::GoBeyond(s) = &mut self {
            s.events.clear();
        }
        self
    }
}

/// Plays one recorded action of a classic game.
fn apply_classic(game: &mut ClassicGame, a: &RecordedAction) -> Result<(), String> {
    if a.player as usize >= game.player_count() {
        return Err(format!("there is no player {}", a.player));
    }
    let player = Player(a.player);
    let action = match &a.kind {
        RecordedKind::Place { node, at } => Action::Place(resolve(game.map(), *node, at.as_deref())?),
        RecordedKind::Pass => Action::Pass,
        RecordedKind::Resign => Action::Resign,
        RecordedKind::Timeout => {
            if game.is_over() {
                return Err("the game is over".into());
            }
            game.time_out(player);
            return Ok(());
        }
        RecordedKind::Skip | RecordedKind::Surrender { .. } | RecordedKind::CleanupTimeout => {
            return Err("skip, surrender and cleanup_timeout are GoBeyond actions, not classic ones".into());
        }
    };
    game.play_as(player, action).map_err(|e| e.describe(game.map()))
}

/// Plays one recorded action (or Clean-Up choice) of a GoBeyond game.
fn apply_gobeyond(game: &mut GoBeyondGame, a: &RecordedAction) -> Result<(), String> {
    let n = game.player_count();
    if a.player as usize >= n {
        return Err(format!("there is no player {}", a.player));
    }
    let input = match &a.kind {
        RecordedKind::Place { node, at } => {
            Input::Action(gobeyond::Action::Occupy(resolve(game.map(), *node, at.as_deref())?))
        }
        RecordedKind::Pass => Input::Action(gobeyond::Action::Pass),
        RecordedKind::Skip => Input::Action(gobeyond::Action::Skip),
        RecordedKind::Resign => Input::Action(gobeyond::Action::Resign),
        RecordedKind::Timeout => Input::Action(gobeyond::Action::Timeout),
        RecordedKind::CleanupTimeout => Input::CleanUpTimeout,
        RecordedKind::Surrender { nodes, at } => Input::Surrender(resolve_list(game.map(), nodes, at)?),
    };
    game.apply(Player(a.player), &input).map_err(|e| e.describe(game.map(), n))
}

/// Why a record could not be read or replayed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RecordError {
    #[error("not a record: {0}")]
    Parse(String),
    #[error("unsupported record format {format:?} version {version} (expected {FORMAT:?} version {VERSION})")]
    Format { format: String, version: u32 },
    #[error("the record's map is invalid: {0}")]
    Map(String),
    #[error("the record's setup is invalid: {0}")]
    Setup(String),
    #[error("action #{index} (player {player}): {reason}")]
    Action { index: usize, player: u8, reason: String },
    #[error("the record is for {found} rules, not {expected}")]
    System { expected: &'static str, found: &'static str },
    #[error(
        "event #{index} of the record differs from the replay: the record says {recorded}, the replay gives {replayed}"
    )]
    Events { index: usize, recorded: String, replayed: String },
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
        }
    }

    pub fn from_json(text: &str) -> Result<Record, RecordError> {
        let r: Record = serde_json::from_str(text).map_err(|e| RecordError::Parse(e.to_string()))?;
        if r.format != FORMAT || r.version != VERSION {
            return Err(RecordError::Format { format: r.format, version: r.version });
        }
        Ok(r)
    }

    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_default()
    }

    fn setup_stones(&self) -> Vec<(NodeId, Player)> {
        self.setup.iter().map(|s| (s.node, Player(s.player))).collect()
    }

    /// Replays every action under the record's rule system.
    pub fn replay(&self) -> Result<AnyGame, RecordError> {
        match self.rules {
            RulesSpec::Classic(_) => self.replay_classic().map(AnyGame::Classic),
            RulesSpec::GoBeyond(_) => self.replay_gobeyond().map(AnyGame::GoBeyond),
        }
    }

    /// Replays a classic record; the first illegal action is reported with its index.
    pub fn replay_classic(&self) -> Result<ClassicGame, RecordError> {
        let RulesSpec::Classic(rules) = &self.rules else {
            return Err(RecordError::System { expected: "classic", found: self.rules.system() });
        };
        let map = Arc::new(self.map.load()?);
        let first = Player(self.first.unwrap_or(0));
        let mut game =
            ClassicGame::with_setup(map, self.players.len(), rules.clone(), &self.setup_stones(), first)
                .map_err(|e| RecordError::Setup(e.to_string()))?;
        for (index, a) in self.actions.iter().enumerate() {
            apply_classic(&mut game, a).map_err(|reason| RecordError::Action {
                index,
                player: a.player,
                reason,
            })?;
        }
        Ok(game)
    }

    /// Replays a GoBeyond record, and checks its events (when it has any) against the replay.
    pub fn replay_gobeyond(&self) -> Result<GoBeyondGame, RecordError> {
        let RulesSpec::GoBeyond(rules) = &self.rules else {
            return Err(RecordError::System { expected: "gobeyond", found: self.rules.system() });
        };
        if self.first.is_some_and(|f| f != 0) {
            return Err(RecordError::Setup(
                "in GoBeyond seat 0 moves first: list the players in turn order".into(),
            ));
        }
        let map = Arc::new(self.map.load()?);
        let mut game = GoBeyondGame::with_setup(map, self.players.len(), rules.clone(), &self.setup_stones())
            .map_err(|e| RecordError::Setup(e.to_string()))?;
        for (index, a) in self.actions.iter().enumerate() {
            apply_gobeyond(&mut game, a).map_err(|reason| RecordError::Action {
                index,
                player: a.player,
                reason,
            })?;
        }
        if !self.events.is_empty() {
            let replayed = game.events();
            let index =
                (0..self.events.len().max(replayed.len())).find(|&i| self.events.get(i) != replayed.get(i));
            if let Some(index) = index {
                let show = |e: Option<&gobeyond::Event>| {
                    e.map_or("nothing".to_string(), |e| serde_json::to_string(e).unwrap_or_default())
                };
                return Err(RecordError::Events {
                    index,
                    recorded: show(self.events.get(index)),
                    replayed: show(replayed.get(index)),
                });
            }
        }
        Ok(game)
    }

    /// Appends an action in the record's own terms.
    pub fn push(&mut self, map: &Map, player: Player, action: Action) {
        let kind = match action {
            Action::Place(n) => {
                RecordedKind::Place { node: Some(n as u64), at: Some(map.label(n).to_string()) }
            }
            Action::Pass => RecordedKind::Pass,
            Action::Resign => RecordedKind::Resign,
        };
        self.actions.push(RecordedAction { player: player.0, kind });
    }

    /// The record of a GoBeyond game so far, with its events.
    pub fn of_gobeyond(game: &GoBeyondGame, map: MapSource, players: Vec<PlayerInfo>) -> Record {
        let m = game.map();
        let mut r = Record::new(map, RulesSpec::GoBeyond(game.rules().clone()), players);
        r.setup = game.setup().iter().map(|&(node, p)| SetupStone { player: p.0, node }).collect();
        for (p, input) in game.log() {
            let kind = match input {
                Input::Action(gobeyond::Action::Occupy(n)) => {
                    RecordedKind::Place { node: Some(*n as u64), at: Some(m.label(*n).to_string()) }
                }
                Input::Action(gobeyond::Action::Skip) => RecordedKind::Skip,
                Input::Action(gobeyond::Action::Pass) => RecordedKind::Pass,
                Input::Action(gobeyond::Action::Resign) => RecordedKind::Resign,
                Input::Action(gobeyond::Action::Timeout) => RecordedKind::Timeout,
                Input::Surrender(nodes) => RecordedKind::Surrender {
                    nodes: nodes.iter().map(|&n| n as u64).collect(),
                    at: nodes.iter().map(|&n| m.label(n).to_string()).collect(),
                },
                Input::CleanUpTimeout => RecordedKind::CleanupTimeout,
            };
            r.actions.push(RecordedAction { player: p.0, kind });
        }
        r.events = game.events().to_vec();
        r
    }

    /// The record of a game so far.
    pub fn of_game(game: &ClassicGame, map: MapSource, players: Vec<PlayerInfo>) -> Record {
        let mut r = Record::new(map, RulesSpec::Classic(game.rules().clone()), players);
        r.setup = game.setup().iter().map(|&(node, p)| SetupStone { player: p.0, node }).collect();
        r.first = (game.first_player() != Player(0)).then_some(game.first_player().0);
        for &(p, a) in game.moves() {
            r.push(game.map(), p, a);
        }
        r
    }
}

/// The node a placement names; `node` and `at` must agree when both are given.
fn resolve(map: &Map, node: Option<u64>, at: Option<&str>) -> Result<NodeId, String> {
    let by_label = match at {
        Some(l) => Some(map.node_by_label(l).ok_or_else(|| format!("there is no node labelled {l:?}"))?),
        None => None,
    };
    match (node, by_label) {
        (Some(n), _) if !map.contains(n) => Err(format!("node {n} is not on this map ({} nodes)", map.len())),
        (Some(n), Some(l)) if n as NodeId != l => Err(format!(
            "node {n} is labelled {:?}, not {:?}",
            map.label(n as NodeId),
            at.unwrap_or_default()
        )),
        (Some(n), _) => Ok(n as NodeId),
        (None, Some(l)) => Ok(l),
        (None, None) => Err("a placement needs \"node\" or \"at\"".into()),
    }
}

/// The nodes a surrender names: by number, by label, or both (then the lists must agree).
fn resolve_list(map: &Map, nodes: &[u64], at: &[String]) -> Result<Vec<NodeId>, String> {
    if !nodes.is_empty() && !at.is_empty() && nodes.len() != at.len() {
        return Err(format!("{} node numbers but {} labels", nodes.len(), at.len()));
    }
    (0..nodes.len().max(at.len()))
        .map(|i| resolve(map, nodes.get(i).copied(), at.get(i).map(String::as_str)))
        .collect()
}

/// The state of a game as JSON: what `gobeyond replay` prints.
#[derive(Debug, Clone, Serialize)]
pub struct GameState {
    pub map: MapSummary,
    pub rules: RulesSpec,
    pub status: &'static str,
    /// The player to move, while the game is on.
    pub to_move: Option<u8>,
    pub moves_played: usize,
    pub consecutive_passes: u32,
    pub players: Vec<PlayerState>,
    /// Colour per node: `null` for empty, else the player number.
    pub board: Vec<Option<u8>>,
    /// Per node, the player who owns it (stone or claimed empty region), else `null`.
    pub ownership: Vec<Option<u8>>,
    pub ko: Option<String>,
    pub hash: String,
    pub outcome: Option<crate::Outcome>,
}

#[derive(Debug, Clone, Serialize)]
pub struct MapSummary {
    pub name: String,
    pub spec: String,
    pub nodes: usize,
}

#[derive(Debug, Clone, Serialize)]
pub struct PlayerState {
    pub player: u8,
    pub name: String,
    pub color: &'static str,
    /// Labels of the player's stones.
    pub stones: Vec<String>,
    pub prisoners: u32,
    pub score: f64,
    pub resigned: bool,
}

impl GameState {
    pub fn of(game: &ClassicGame, names: &[PlayerInfo]) -> GameState {
        let map = game.map();
        let board = game.board();
        let n = game.player_count();
        let scores = game.scores();
        GameState {
            map: MapSummary { name: map.name().into(), spec: map.spec().into(), nodes: map.len() },
            rules: RulesSpec::Classic(game.rules().clone()),
            status: if game.is_over() { "finished" } else { "playing" },
            to_move: game.to_move().map(|p| p.0),
            moves_played: game.moves().len(),
            consecutive_passes: game.consecutive_passes(),
            players: (0..n as u8)
                .map(Player)
                .map(|p| PlayerState {
                    player: p.0,
                    name: names.get(p.index()).map(|i| i.name.clone()).unwrap_or_default(),
                    color: p.color_name(n),
                    stones: map
                        .nodes()
                        .filter(|&v| board.stone_at(v) == Some(p))
                        .map(|v| map.label(v).into())
                        .collect(),
                    prisoners: game.prisoners(p),
                    score: scores[p.index()],
                    resigned: game.resigned().contains(&p),
                })
                .collect(),
            board: map.nodes().map(|v| board.stone_at(v).map(|p| p.0)).collect(),
            ownership: regions::ownership(board).into_iter().map(|o| o.map(|p| p.0)).collect(),
            ko: board.ko().map(|(node, _)| map.label(node).to_string()),
            hash: format!("{:016x}", board.hash()),
            outcome: game.outcome().cloned(),
        }
    }
}
