//! Capture Go's settings (`docs/rules/capture.md`, "Settings").

use serde::{Deserialize, Serialize};

use crate::system::{Preset, SettingInfo, SettingsError};

/// The most stones a target may ask for.
pub const MAX_TARGET: u32 = 10_000;

/// The settings of a Capture Go game. Missing fields in JSON take these defaults.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct CaptureRules {
    /// Captured stones that win at once (the first player to have taken as many).
    pub target: u32,
    /// Turns after which the game ends as if everyone had passed; `None`: three per node.
    pub turn_limit: Option<u32>,
}

impl Default for CaptureRules {
    fn default() -> Self {
        CaptureRules { target: 1, turn_limit: None }
    }
}

pub(super) static PRESETS: &[Preset] = &[
    Preset { name: "capture", description: "first capture wins: the newcomer's game" },
    Preset { name: "capture-5", description: "the first to capture five stones wins" },
];

impl CaptureRules {
    pub fn preset(name: &str) -> Option<CaptureRules> {
        match name.to_ascii_lowercase().as_str() {
            "capture" => Some(CaptureRules::default()),
            "capture-5" => Some(CaptureRules { target: 5, ..CaptureRules::default() }),
            _ => None,
        }
    }

    /// The turn limit on a map of `nodes` nodes.
    pub fn turns(&self, nodes: usize) -> u32 {
        self.turn_limit.unwrap_or_else(|| u32::try_from(nodes.saturating_mul(3)).unwrap_or(u32::MAX))
    }

    pub fn describe() -> Vec<SettingInfo> {
        let d = CaptureRules::default();
        vec![
            SettingInfo::integer("target", d.target, "captured stones that win at once")
                .range(1.0, f64::from(MAX_TARGET)),
            SettingInfo::optional_integer(
                "turn_limit",
                d.turn_limit,
                "turns after which the most captures win (empty: three per node)",
            )
            .range(1.0, 1_000_000.0),
        ]
    }

    pub fn validate(&self, players: usize) -> Result<(), SettingsError> {
        if !(2..=crate::MAX_PLAYERS).contains(&players) {
            return Err(SettingsError::new("players", format!("a game needs 2 to 8 players, not {players}")));
        }
        if !(1..=MAX_TARGET).contains(&self.target) {
            return Err(SettingsError::new(
                "target",
                format!("must be from 1 to {MAX_TARGET}, not {}", self.target),
            ));
        }
        if let Some(limit) = self.turn_limit
            && !(1..=1_000_000).contains(&limit)
        {
            return Err(SettingsError::new("turn_limit", format!("must be from 1 to 1000000, not {limit}")));
        }
        Ok(())
    }
}
