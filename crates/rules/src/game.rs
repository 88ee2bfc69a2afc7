//! The interface every rule system offers to bots, servers and tools.

use std::sync::Arc;

use gobeyond_maps::Map;
use serde::Serialize;

use crate::Player;

/// How a game ended, with everyone's place.
#[derive(Debug, Clone, PartialEq, Serialize, serde::Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Outcome {
    /// Final score per player in turn order (what "score" means is the rule system's).
    pub scores: Vec<f64>,
    /// Players from first place to last (players sharing a place in seat order's tie-break).
    pub ranking: Vec<Player>,
    /// Per seat, its place from 1; players who share a place (a draw, jigo) have the same one.
    #[serde(default)]
    pub places: Vec<u32>,
    pub reason: EndReason,
    /// Players with equal scores were ordered by turn position, the later first (GoBeyond's
    /// tie-breaker); they hold distinct places.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    #[cfg_attr(feature = "ts", ts(as = "Option<bool>", optional))]
    pub tie_broken: bool,
}

impl Outcome {
    /// An outcome from a ranking; players still in the game with equal scores share a place.
    pub fn new(scores: Vec<f64>, ranking: Vec<Player>, resigned: &[Player], reason: EndReason) -> Outcome {
        let mut places = vec![0; scores.len()];
        for (i, &p) in ranking.iter().enumerate() {
            let shared = i > 0 && {
                let q = ranking[i - 1];
                !resigned.contains(&p) && !resigned.contains(&q) && scores[p.index()] == scores[q.index()]
            };
            places[p.index()] = if shared { places[ranking[i - 1].index()] } else { i as u32 + 1 };
        }
        Outcome { scores, ranking, places, reason, tie_broken: false }
    }

    /// An outcome where no place is shared: players with equal scores keep the ranking's order
    /// (turn position), and `tie_broken` says that it decided.
    pub fn ordered(
        scores: Vec<f64>,
        ranking: Vec<Player>,
        resigned: &[Player],
        reason: EndReason,
    ) -> Outcome {
        let mut places = vec![0; scores.len()];
        for (i, &p) in ranking.iter().enumerate() {
            places[p.index()] = i as u32 + 1;
        }
        let tie_broken = ranking.windows(2).any(|w| {
            !resigned.contains(&w[0])
                && !resigned.contains(&w[1])
                && scores[w[0].index()] == scores[w[1].index()]
        });
        Outcome { scores, ranking, places, reason, tie_broken }
    }

    /// More than one player shares first place.
    pub fn is_draw(&self) -> bool {
        self.places.iter().filter(|&&p| p == 1).count() > 1
    }

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
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum EndReason {
    /// Enough consecutive passes.
    Passes,
    /// Everyone else resigned.
    Resignation,
    /// A player ran out of time.
    Time,
    /// A player reached their contract (The Way of Go) or the captures that win (Capture Go).
    Contract,
    /// The player to move had no legal move.
    NoLegalMove,
    /// The turn limit was reached.
    TurnLimit,
}

/// A rule system, as seen by search and servers. `play` is checked: an illegal action returns the
/// reason and leaves the game exactly as it was.
///
/// `to_move` is the one seat search plays for; a turn made of several steps (roll, then
/// place; move, then drop) is a sequence of small actions by the same player, so that search
/// and interfaces handle every step alike. Decisions by several seats at once and chance are
/// described by [`crate::system::RuleSystem::turn`].
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
