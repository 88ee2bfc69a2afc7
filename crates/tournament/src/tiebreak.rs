//! The tie-breaks, each computed for every entrant (docs/tournaments.md, "Standings and
//! tie-breaks"): SOS and SODOS (two players), tablemates and direct encounters (N players),
//! head-to-head, McMahon score.

use std::collections::BTreeMap;

use serde::Serialize;

use crate::history::History;
use crate::spec::EntrantId;

#[derive(Serialize, Clone, Copy, Debug, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum TieBreak {
    Sos,
    Sodos,
    HeadToHead,
    /// N-player SOS.
    Tablemates,
    DirectEncounters,
    #[serde(rename = "mcmahon_score", alias = "mc_mahon_score")]
    McMahonScore,
}

impl TieBreak {
    /// The name players read.
    pub fn name(self) -> &'static str {
        match self {
            TieBreak::Sos => "SOS (opponents' points)",
            TieBreak::Sodos => "SODOS (points of the opponents beaten)",
            TieBreak::HeadToHead => "head-to-head",
            TieBreak::Tablemates => "tablemates' points",
            TieBreak::DirectEncounters => "direct encounters",
            TieBreak::McMahonScore => "McMahon score",
        }
    }

    /// What it means, in plain words (for the rules text).
    pub fn explain(self) -> &'static str {
        match self {
            TieBreak::Sos => "the sum of the points of every opponent you played",
            TieBreak::Sodos => "the sum of the points of the opponents you beat (half for a draw)",
            TieBreak::HeadToHead => "the games between the tied players: who won more of them",
            TieBreak::Tablemates => "the sum of the points of everyone who sat at your tables",
            TieBreak::DirectEncounters => {
                "the games where tied players sat together: how often you finished ahead of them"
            }
            TieBreak::McMahonScore => "the starting score from your rank plus the points won",
        }
    }
}

/// `score` is what opponents are worth (points, or the McMahon score).
pub fn sos(id: EntrantId, past: &History, score: &BTreeMap<EntrantId, f64>) -> f64 {
    encounters(id, past).map(|(other, _)| score.get(&other).copied().unwrap_or(0.0)).sum()
}

pub fn sodos(id: EntrantId, past: &History, score: &BTreeMap<EntrantId, f64>) -> f64 {
    encounters(id, past).map(|(other, result)| result * score.get(&other).copied().unwrap_or(0.0)).sum()
}

/// Place score (1 ahead, ½ level) against the members of `group` only.
pub fn against(id: EntrantId, past: &History, group: &[EntrantId]) -> f64 {
    encounters(id, past).filter(|(other, _)| group.contains(other)).map(|(_, result)| result).sum()
}

fn encounters(id: EntrantId, past: &History) -> impl Iterator<Item = (EntrantId, f64)> + '_ {
    past.records.get(&id).into_iter().flat_map(|r| r.encounters.iter().flatten().copied())
}
