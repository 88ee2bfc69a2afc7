//! Classic rule settings as data, with named presets.

use serde::{Deserialize, Serialize};

use crate::{
    settings::{KoRule, Scoring, SuicideRule},
    system::Preset,
};

/// Rules for classic Go with any number of players.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ClassicRules {
    pub ko: KoRule,
    pub suicide: SuicideRule,
    /// Compensation for moving later: with two players White (the second) gets all of it; with
    /// N players, the player in turn position k (0-based) gets `komi × k / (N − 1)`.
    pub komi: f64,
    pub scoring: Scoring,
    /// Consecutive passes that end the game; `None` means one per player still in the game.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub passes_to_end: Option<u32>,
    /// After the passes, the players agree on dead stones (proposed by the search) before the
    /// score; off, every stone on the board counts as alive (Tromp-Taylor). Records made before
    /// this setting existed read it as off, so they replay as they were played.
    #[serde(default)]
    pub dead_stones: bool,
    /// Handicap stones Black has before White's first move (two players only): 0, or 2 to 9.
    /// Absent in records made before handicap existed, which read it as 0.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub handicap: u32,
    /// Where the handicap stones go: the standard points, or wherever Black places them.
    #[serde(default, skip_serializing_if = "is_fixed")]
    pub handicap_placement: HandicapPlacement,
}

/// Where handicap stones go.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, strum::VariantNames)]
#[strum(serialize_all = "snake_case")]
#[serde(rename_all = "snake_case")]
pub enum HandicapPlacement {
    /// On the standard star points (GTP `fixed_handicap`), set before the game starts.
    #[default]
    Fixed,
    /// Black places them one by one, anywhere, before White's first move.
    Free,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

fn is_fixed(p: &HandicapPlacement) -> bool {
    *p == HandicapPlacement::Fixed
}

/// The most handicap stones a game may have.
pub const MAX_HANDICAP: u32 = 9;

/// Komi with a handicap when none is given: half a point, so that there is no jigo.
pub const HANDICAP_KOMI: f64 = 0.5;

impl Default for ClassicRules {
    fn default() -> Self {
        Self::preset("chinese").unwrap_or(ClassicRules {
            ko: KoRule::PositionalSuperko,
            suicide: SuicideRule::Forbidden,
            komi: 7.5,
            scoring: Scoring::Area,
            passes_to_end: None,
            dead_stones: true,
            handicap: 0,
            handicap_placement: HandicapPlacement::Fixed,
        })
    }
}

/// Named presets.
pub const PRESETS: &[Preset] = &[
    Preset { name: "chinese", description: "area scoring, positional superko, no suicide, komi 7.5" },
    Preset { name: "japanese", description: "territory scoring, simple ko, no suicide, komi 6.5" },
    Preset { name: "korean", description: "territory scoring, simple ko, no suicide, komi 6.5" },
    Preset { name: "aga", description: "area scoring, situational superko, no suicide, komi 7.5" },
    Preset { name: "new-zealand", description: "area scoring, situational superko, suicide allowed, komi 7" },
    Preset {
        name: "tromp-taylor",
        description: "area scoring, positional superko, suicide allowed, komi 7.5",
    },
    Preset { name: "stones", description: "stone counting, simple ko, no suicide, komi 0" },
];

impl ClassicRules {
    /// A named preset (see [`PRESETS`]).
    pub fn preset(name: &str) -> Option<ClassicRules> {
        use KoRule::{PositionalSuperko, Simple, SituationalSuperko};
        use Scoring::{Area, Stones, Territory};
        use SuicideRule::{Allowed, Forbidden};
        let (ko, suicide, komi, scoring) = match name.to_ascii_lowercase().as_str() {
            "chinese" => (PositionalSuperko, Forbidden, 7.5, Area),
            "japanese" | "korean" => (Simple, Forbidden, 6.5, Territory),
            "aga" => (SituationalSuperko, Forbidden, 7.5, Area),
            "new-zealand" | "nz" => (SituationalSuperko, Allowed, 7.0, Area),
            "tromp-taylor" | "tt" => (PositionalSuperko, Allowed, 7.5, Area),
            "stones" => (Simple, Forbidden, 0.0, Stones),
            _ => return Option::None,
        };
        // Tromp-Taylor counts every stone as it stands; the others agree on dead stones.
        let dead_stones = !matches!(name.to_ascii_lowercase().as_str(), "tromp-taylor" | "tt");
        Some(ClassicRules {
            ko,
            suicide,
            komi,
            scoring,
            passes_to_end: Option::None,
            dead_stones,
            handicap: 0,
            handicap_placement: HandicapPlacement::Fixed,
        })
    }

    /// Komi received by the player in turn position `position` of `players`.
    pub fn komi_for(&self, position: usize, players: usize) -> f64 {
        if players < 2 || position == 0 { 0.0 } else { self.komi * position as f64 / (players - 1) as f64 }
    }
}
