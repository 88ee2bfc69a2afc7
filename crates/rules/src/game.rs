//! The interface every rule system offers to bots, servers and tools.

use std::sync::Arc;

use gobeyond_maps::Map;
use serde::Serialize;

use crate::Player;

/// How a game ended, with everyone's place.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Outcome {
    /// Final score per player in turn order (what "score" means is the rule system's).
    pub scores: Vec<f64>,
    /// Players from first place to last.
    pub ranking: Vec<Player>,
    pub reason: EndReason,
}

impl Outcome {
    pub fn winner(&self) -> Option<Player> {
        self.ranking.first().copied()
    }

    /// The place (0 = first) of `player`.
    pub fn place(&self, player: Player) -> Option<usize> {
        self.ranking.iter().position(|&p| p == player)
    }
}

/// Why a game is over.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EndReason {
    /// Enough consecutive passes.
    Passes,
    /// Everyone else resigned.
    Resignation,
    /// A player ran out of time.
    Time,
}

/// A rule system, as seen by search and servers. `play` is checked: an illegal action returns the
/// reason and leaves the game exactly as it was.
pub trait Game: Clone + Send + Sync + std::fmt::Debug + 'static {
    type Action: Copy + Eq + std::hash::Hash + std::fmt::Debug + Send + Sync + 'static;
    type Illegal: std::error::Error + Clone + Send + Sync + 'static;

    fn map(&self) -> &Arc<Map>;
    fn player_count(&self) -> usize;
    /// Whose turn it is; `None` when the game is over.
    fn to_move(&self) -> Option<Player>;
    /// Every legal action of the player to move, appended to `out` (cleared first).
    fn legal_actions(&self, out: &mut Vec<Self::Action>);
    fn check(&self, action: Self::Action) -> Result<(), Self::Illegal>;
    fn play(&mut self, action: Self::Action) -> Result<(), Self::Illegal>;
    fn outcome(&self) -> Option<&Outcome>;
    fn is_over(&self) -> bool {
        self.outcome().is_some()
    }
}

/// Ranks players by score (higher first); ties go to the later turn position, which is how
/// GoBeyond's tie-break komi works and a sensible default elsewhere. Resigned players, listed in
/// order of resignation, take the last places, the first to resign last of all.
pub fn rank(scores: &[f64], resigned: &[Player]) -> Vec<Player> {
    let mut active: Vec<Player> =
        (0..scores.len() as u8).map(Player).filter(|p| !resigned.contains(p)).collect();
    active.sort_by(|a, b| scores[b.index()].total_cmp(&scores[a.index()]).then(b.0.cmp(&a.0)));
    active.extend(resigned.iter().rev());
    active
}
