//! Gengo's settings (`docs/rules/spec/gengo.md`, rules 19–26; the rule and reading numbers
//! below are that spec's): every question the document leaves open ("The best rules are not yet
//! clear") is a setting, with the document's default.

use serde::{Deserialize, Serialize};

/// The overlap and neighbour regions of a stone (rules 2–4, 25).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default, strum::VariantNames)]
#[strum(serialize_all = "snake_case")]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum Regions {
    /// The document's regions: overlap the 3×3 block, neighbours the 5×5 ring without its
    /// corners. On any map: the graph definition with radii 1 and 2 and graph distance 3,
    /// which is exactly the document's regions on square grids.
    #[default]
    Default,
    /// Ordinary Go: the overlap is the stone's own space, the neighbours its adjacent nodes.
    Classic,
    /// Regions from the map graph alone: overlap = nodes within `overlap_radius` steps of the
    /// graph with its diagonals; neighbours = nodes farther than that but within
    /// `neighbour_radius` such steps and `max_graph_distance` steps of the plain graph.
    Graph { overlap_radius: u32, neighbour_radius: u32, max_graph_distance: u32 },
    /// Explicit offsets `[dx, dy]` (columns right, rows up) on a rectangular grid map: the
    /// overlap must hold `[0, 0]`, both lists must be symmetric (`d` with `−d`) and disjoint.
    Offsets { overlap: Vec<[i32; 2]>, neighbour: Vec<[i32; 2]> },
}

/// Whether something is allowed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, strum::VariantNames)]
#[strum(serialize_all = "snake_case")]
#[serde(rename_all = "snake_case")]
pub enum Permission {
    Allowed,
    Forbidden,
}

impl Permission {
    pub fn allowed(self) -> bool {
        self == Permission::Allowed
    }
}

/// Which of the mover's own groups without liberties die first (rule 21).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default, strum::VariantNames)]
#[strum(serialize_all = "snake_case")]
#[serde(rename_all = "snake_case")]
pub enum SelfCaptureOrder {
    /// All of them at once (the document's default).
    #[default]
    SameTime,
    /// The played stone's group first; the others are looked at again after.
    PlayedFirst,
    /// The other groups first; the played stone's group is looked at again after.
    PlayedLast,
}

/// Repetition (rule 23).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default, strum::VariantNames)]
#[strum(serialize_all = "snake_case")]
#[serde(rename_all = "snake_case")]
pub enum GengoKo {
    /// No play may capture exactly one stone, the opponent's last, right after that play
    /// captured exactly one (the document's rule).
    #[default]
    Singleton,
    /// No play may recreate an earlier position (stones and colours).
    PositionalSuperko,
    /// No repetition rule (the turn limit still ends the game).
    None,
}

/// What decides the game (rule 24); both counts are always shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default, strum::VariantNames)]
#[strum(serialize_all = "snake_case")]
#[serde(rename_all = "snake_case")]
pub enum GengoScoring {
    /// Stones on the board (the document's rule).
    #[default]
    Stones,
    /// Spaces overlapped by one colour only, and empty areas bordered only by such spaces.
    Area,
}

/// The settings of a Gengo game. Missing fields in JSON take these defaults.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct GengoRules {
    pub regions: Regions,
    /// A play whose own group dies in the second capture step (rule 19).
    pub suicide: Permission,
    /// A play that kills another of the mover's own groups (rule 20).
    pub friendly_fire: Permission,
    pub self_capture_order: SelfCaptureOrder,
    /// Playing inside the overlap of one's own stones, which then connect (rule 22, A9).
    pub own_overlap: Permission,
    pub ko: GengoKo,
    pub scoring: GengoScoring,
    /// Points added to White's score.
    pub komi: f64,
    /// Black's consecutive plays at the start: 0 (none) or 2 and more (rule 18).
    pub handicap: u32,
    /// Turns (plays and passes) after which the game ends and is scored (rule 26); `None`:
    /// ten times the number of spaces.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_turns: Option<u32>,
}

impl Default for GengoRules {
    fn default() -> GengoRules {
        GengoRules {
            regions: Regions::Default,
            suicide: Permission::Allowed,
            friendly_fire: Permission::Allowed,
            self_capture_order: SelfCaptureOrder::SameTime,
            own_overlap: Permission::Forbidden,
            ko: GengoKo::Singleton,
            scoring: GengoScoring::Stones,
            komi: 0.0,
            handicap: 0,
            max_turns: None,
        }
    }
}

impl GengoRules {
    /// The turn limit on a map of `spaces` nodes.
    pub fn turn_limit(&self, spaces: usize) -> u32 {
        self.max_turns.unwrap_or_else(|| (10 * spaces).min(u32::MAX as usize) as u32)
    }
}
