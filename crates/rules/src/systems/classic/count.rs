//! The count: each player's territory, stones, captures and komi as the scoring rule counts
//! them, who owns each empty point, and the result in the notation Go players read (`W+8.5`,
//! `B+R`, `W+T`, `Jigo`). Shown live while dead stones are marked and at the end.

use gobeyond_maps::NodeId;
use serde::Serialize;

use super::ClassicGame;
use crate::{EndReason, Game, Outcome, Player, regions, settings::Scoring};

/// One player's count. The terms the scoring rule leaves out are absent: area scoring counts
/// stones and territory, territory scoring territory and captures, stone scoring stones.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(rename = "ClassicCount"))]
pub struct ScoreCount {
    /// Empty points surrounded by this player alone, dead stones' points included.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub territory: Option<u32>,
    /// Living stones on the board.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub stones: Option<u32>,
    /// Stones captured in play plus the opponents' dead stones in this player's territory.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub captures: Option<u32>,
    pub komi: f64,
    pub total: f64,
}

/// The count of a position with `dead` stones removed: per player, and the owner of each
/// point that counts as territory (empty, or a dead stone's), else `None`.
#[derive(Debug, Clone)]
pub struct Count {
    pub players: Vec<ScoreCount>,
    pub territory: Vec<Option<Player>>,
}

impl ClassicGame {
    /// Counts the board with the groups at `dead` removed (any stone names its group).
    pub fn count(&self, dead: &[NodeId]) -> Count {
        let n = self.player_count();
        let (board, dead_prisoners) = regions::remove_dead(self.board(), dead, n);
        let owners = regions::ownership(&board);
        let territory: Vec<Option<Player>> = owners
            .iter()
            .enumerate()
            .map(|(v, o)| o.filter(|_| board.stone_at(v as NodeId).is_none()))
            .collect();
        let scoring = self.rules().scoring;
        let players = (0..n)
            .map(|i| {
                let p = Player(i as u8);
                let area = territory.iter().filter(|&&o| o == Some(p)).count() as u32;
                let stones = board.stone_count(p);
                let captures = self.prisoners(p) + dead_prisoners[i];
                let komi = self.rules().komi_for(i, n);
                let (territory, stones, captures) = match scoring {
                    Scoring::Area => (Some(area), Some(stones), None),
                    Scoring::Territory => (Some(area), None, Some(captures)),
                    Scoring::Stones => (None, Some(stones), None),
                };
                let counted = territory.unwrap_or(0) + stones.unwrap_or(0) + captures.unwrap_or(0);
                ScoreCount { territory, stones, captures, komi, total: counted as f64 + komi }
            })
            .collect();
        Count { players, territory }
    }

    /// Whether the position is being counted or was: the dead-stone phase, or an end by passes.
    pub fn counting(&self) -> bool {
        self.scoring().is_some() || self.outcome().is_some_and(|o| o.reason == EndReason::Passes)
    }
}

/// The result of a two-player game as Go players write it: the winner's colour and the margin
/// (`W+8.5`), `B+R` for a resignation, `W+T` on time, `Jigo` for equal scores. None for more
/// players, who read the ranking.
pub fn notation(outcome: &Outcome, players: usize) -> Option<String> {
    if players != 2 {
        return None;
    }
    let winner = outcome.winner()?;
    let colour = if winner == Player(0) { "B" } else { "W" };
    Some(match outcome.reason {
        EndReason::Resignation => format!("{colour}+R"),
        EndReason::Time => format!("{colour}+T"),
        _ if outcome.is_draw() => "Jigo".to_string(),
        _ => {
            let (own, other) = (outcome.scores.first()?, outcome.scores.get(1)?);
            format!("{colour}+{}", (own - other).abs())
        }
    })
}
