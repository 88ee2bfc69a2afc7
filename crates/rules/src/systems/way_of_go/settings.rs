//! The settings of The Way of Go and of BeSiege, and the one [`Config`] the shared engine runs
//! on: BeSiege is The Way of Go with neutral drops, stacks, no contract and its own ending.

use serde::{Deserialize, Serialize};

use crate::system::SettingsError;

/// The Way of Go's settings (rule and reading numbers: `docs/rules/spec/way-of-go.md`). Missing
/// fields take these defaults.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct WayOfGoRules {
    /// Captures each seat must make, by seat (not colour: contracts are set before the pie
    /// decides colours). The document gives no number (A4).
    pub contracts: [u32; 2],
    /// Moving onto an own piece pushes it one step further (the document's variant, rule 24).
    pub push: bool,
    /// The pie rule opens the game (rules 4–6); without it seat 0 is Black, seat 1 White.
    pub pie: bool,
    /// Turns after which the game ends, scored by the shortfall (an engine addition, rule 23);
    /// `None`: ten per node.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_turns: Option<u32>,
}

impl Default for WayOfGoRules {
    fn default() -> WayOfGoRules {
        WayOfGoRules { contracts: [5, 5], push: false, pie: true, max_turns: None }
    }
}

/// BeSiege's settings (rule and reading numbers: `docs/rules/spec/besiege.md`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct BesiegeRules {
    /// The pie rule opens the game (kept from The Way of Go, A7).
    pub pie: bool,
    /// Turns after which the game ends, scored by captures (an engine addition, rule 21);
    /// `None`: ten per node.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_turns: Option<u32>,
}

impl Default for BesiegeRules {
    fn default() -> BesiegeRules {
        BesiegeRules { pie: true, max_turns: None }
    }
}

/// What the engine needs to know of either rule set.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Config {
    /// The Way of Go's contracts by seat; `None` in BeSiege.
    pub contracts: Option<[u32; 2]>,
    pub push: bool,
    /// Moves may end on own stacks, and top parts of stacks move (BeSiege).
    pub stacks: bool,
    /// Drops only on points neither colour attacks (BeSiege).
    pub neutral_drops: bool,
    pub pie: bool,
    pub max_turns: Option<u32>,
}

impl Config {
    /// The turn limit on a map of `nodes` nodes.
    pub fn turn_limit(&self, nodes: usize) -> u32 {
        self.max_turns.unwrap_or_else(|| (10 * nodes).min(u32::MAX as usize) as u32)
    }
}

impl From<&WayOfGoRules> for Config {
    fn from(r: &WayOfGoRules) -> Config {
        Config {
            contracts: Some(r.contracts),
            push: r.push,
            stacks: false,
            neutral_drops: false,
            pie: r.pie,
            max_turns: r.max_turns,
        }
    }
}

impl From<&BesiegeRules> for Config {
    fn from(r: &BesiegeRules) -> Config {
        Config {
            contracts: None,
            push: false,
            stacks: true,
            neutral_drops: true,
            pie: r.pie,
            max_turns: r.max_turns,
        }
    }
}

/// The most captures a contract may ask for: more than any board holds is pointless.
pub const MAX_CONTRACT: u32 = 10_000;

impl WayOfGoRules {
    pub fn validate(&self) -> Result<(), SettingsError> {
        for (seat, &c) in self.contracts.iter().enumerate() {
            if c == 0 || c > MAX_CONTRACT {
                return Err(SettingsError::new(
                    "contracts",
                    format!("seat {seat}'s contract is {c}: a contract is 1 to {MAX_CONTRACT} captures"),
                ));
            }
        }
        validate_turns(self.max_turns)
    }
}

impl BesiegeRules {
    pub fn validate(&self) -> Result<(), SettingsError> {
        validate_turns(self.max_turns)
    }
}

fn validate_turns(max_turns: Option<u32>) -> Result<(), SettingsError> {
    match max_turns {
        Some(0) => Err(SettingsError::new("max_turns", "the turn limit must be at least 1")),
        Some(t) if t > 1_000_000 => {
            Err(SettingsError::new("max_turns", format!("{t} turns is over the limit of 1,000,000")))
        }
        _ => Ok(()),
    }
}
