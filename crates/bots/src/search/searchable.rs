//! What the search needs from a rule system beyond [`Game`]: a scratch space per search thread,
//! fast playouts to the end, rewards, priors, AMAF keys and the game's history. Each rule system
//! implements it once (`systems/`); the search is shared. Nothing here assumes a Go board: the
//! Go-board systems bring theirs in their scratch ([`crate::go::Scratch`]).

use std::{fmt::Debug, sync::Arc};

use gobeyond_maps::NodeId;
use gobeyond_rules::{EndReason, Game, MAX_PLAYERS, Player, Rng, playout::PlayoutTables, rank};

use super::mcts::{SearchConfig, TreePolicy};

/// One reward per seat, in [0, 1].
pub type Rewards = [f32; MAX_PLAYERS];

/// A prior: `visits` virtual playouts worth `value` to the mover.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Prior {
    pub visits: f32,
    pub value: f32,
}

/// An action's place in its turn: the mover has taken `done` actions of this turn before it,
/// and a turn is at most `most` actions.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TurnStep {
    pub done: u32,
    pub most: u32,
}

impl TurnStep {
    /// A turn of one action.
    pub const WHOLE: TurnStep = TurnStep { done: 0, most: 1 };

    /// The share of the turn's playouts this action gets: an even part, so that the shares of
    /// a turn's actions never add up to more than the whole, however the turn goes.
    pub fn playout_share(self) -> f32 {
        1.0 / self.most.max(1) as f32
    }

    /// The share of the turn's time still left that this action gets: an even part of what is
    /// left among the actions that may still come (the last takes all of it).
    pub fn time_share(self) -> f32 {
        1.0 / self.most.saturating_sub(self.done).max(1) as f32
    }
}

/// Rewards from a ranking: first place 1, last place 0, evenly spaced between.
pub fn rank_rewards(ranking: &[Player]) -> Rewards {
    let mut r = [0.0; MAX_PLAYERS];
    let last = ranking.len().saturating_sub(1).max(1) as f32;
    for (place, p) in ranking.iter().enumerate() {
        r[p.index()] = (ranking.len() - 1 - place) as f32 / last;
    }
    r
}

/// Rewards from scores in which players with equal scores share their places' rewards. With an
/// integer komi a tie is jigo, a draw wherever a game is refereed (GNU Go, GTP match runners);
/// the engine's ranking puts the later seat first, and a bot that trusted it played White for
/// jigo as if it were a win.
pub fn shared_tie_rewards(scores: &[f64], resigned: &[Player]) -> Rewards {
    let ranking = rank(scores, resigned);
    let mut r = rank_rewards(&ranking);
    let tied = |a: &Player, b: &Player| {
        !resigned.contains(a) && !resigned.contains(b) && scores[a.index()] == scores[b.index()]
    };
    for places in ranking.chunk_by(tied) {
        let mean = places.iter().map(|p| r[p.index()]).sum::<f32>() / places.len() as f32;
        for p in places {
            r[p.index()] = mean;
        }
    }
    r
}

/// `outcome`'s scores into `out` ([`Searchable::final_scores`] of a system whose playouts
/// finish the game itself); false without an outcome, or when it ended otherwise than by its
/// count (a resignation, the clock: its scores say nothing of the board).
pub fn outcome_scores(game: &impl Game, out: &mut [f32; MAX_PLAYERS]) -> bool {
    match game.outcome() {
        Some(o) if !matches!(o.reason, EndReason::Resignation | EndReason::Time) => {
            for (slot, &s) in out.iter_mut().zip(&o.scores) {
                *slot = s as f32;
            }
            true
        }
        _ => false,
    }
}

/// A rule system the search can play. A system whose position is no Go board (stones that move,
/// stacks, regions) gives its own playout and scratch; the Go-board systems share
/// [`crate::go::Scratch`] and the Go helpers (`go::policy`, `go::ladder`, `go::priors`).
pub trait Searchable: Game {
    /// What one search thread reuses from playout to playout (boards, caches, the knobs of its
    /// playouts), so that a simulation allocates nothing.
    type Scratch: Send + Debug;
    /// A new scratch for searches of this game's map with `config` (a thread makes one when it
    /// starts, and again when the configuration changes).
    fn scratch(&self, tables: &Arc<PlayoutTables>, config: &SearchConfig) -> Self::Scratch;
    /// The final owner of each node after the last playout in `scratch` (colour code, 0 for
    /// nobody), for the ownership statistics; empty when the system keeps none.
    fn owners(scratch: &Self::Scratch) -> &[u8] {
        let _ = scratch;
        &[]
    }
    /// The final score of each seat (in the system's points) after the last playout from `self`
    /// (the position played out, `scratch` its thread's scratch), or of `self` when it is over;
    /// false when the system keeps no score (or this end has none, as a resignation). Reviews
    /// show the expected final scores and points lost from it (`docs/analysis.md`).
    fn final_scores(&self, scratch: &Self::Scratch, out: &mut [f32; MAX_PLAYERS]) -> bool {
        let _ = (scratch, out);
        false
    }
    /// The constants of the tree's selection for this game ([`TreePolicy`]).
    fn tree_policy(&self) -> TreePolicy {
        TreePolicy::DEFAULT
    }
    /// The node of a placement (for AMAF statistics), if the action is one.
    fn amaf_key(action: Self::Action) -> Option<NodeId>;
    /// A copy for search to play on (for example without event recording).
    fn search_copy(&self) -> Self {
        self.clone()
    }
    /// Whether some of the position is hidden from the player to move (then every simulation
    /// starts from a [`Searchable::determinize`]d copy).
    fn has_hidden_information(&self) -> bool {
        false
    }
    /// A copy in which what `viewer` cannot see (other hands, the deck order) is sampled
    /// with `rng` (determinization). Games without hidden information return themselves.
    fn determinize(&self, viewer: Player, rng: &mut Rng) -> Self {
        let _ = (viewer, rng);
        self.search_copy()
    }
    /// Resolves a pending chance event (dice, a card draw) at random, as the server would;
    /// false when none is pending. Search samples chance this way (open-loop: the tree's
    /// children after a chance event gather the results of every outcome).
    fn sample_chance(&mut self, rng: &mut Rng) -> bool {
        let _ = rng;
        false
    }
    /// Rewards of a finished game.
    fn final_rewards(&self) -> Rewards;
    /// Plays to the end from here; returns the rewards and leaves the final owners in
    /// `scratch` ([`Searchable::owners`]). Every placement is appended to `played`. The
    /// search's own copy of the position is played on (and thrown away after): no copy per
    /// playout.
    fn playout(
        &mut self,
        scratch: &mut Self::Scratch,
        rng: &mut Rng,
        played: &mut Vec<(Player, NodeId)>,
    ) -> Rewards;
    /// Prior knowledge about `action` for the player to move.
    fn prior(&self, action: Self::Action, scratch: &mut Self::Scratch) -> Prior;
    /// Where the player to move stands in a turn of several actions (BeSiege's drop and
    /// move): a bot's playouts and time are per turn, and each action takes its part
    /// ([`TurnStep`]). Systems whose turns are one action keep [`TurnStep::WHOLE`].
    fn turn_step(&self) -> TurnStep {
        TurnStep::WHOLE
    }
    /// Actions so far, for tree reuse: the `i`-th action of the game.
    fn action_count(&self) -> usize;
    fn action_at(&self, i: usize) -> Option<Self::Action>;
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A turn's playouts are split evenly whatever happens; its time left goes to the actions
    /// that may still come, the last taking all of it.
    #[test]
    fn a_turn_step_shares_playouts_evenly_and_the_time_left_among_what_may_come() {
        let step = |done, most| TurnStep { done, most };
        assert_eq!(TurnStep::WHOLE.playout_share(), 1.0);
        assert_eq!(TurnStep::WHOLE.time_share(), 1.0);
        assert_eq!([step(0, 2).playout_share(), step(1, 2).playout_share()], [0.5, 0.5]);
        assert_eq!([step(0, 2).time_share(), step(1, 2).time_share()], [0.5, 1.0]);
        assert_eq!([step(0, 3), step(1, 3), step(2, 3)].map(TurnStep::time_share), [1.0 / 3.0, 0.5, 1.0]);
        // Nonsense never divides by zero.
        assert_eq!([step(5, 2).time_share(), step(0, 0).playout_share()], [1.0, 1.0]);
    }

    #[test]
    fn equal_scores_share_their_reward() {
        // Jigo: half each, whoever the ranking puts first.
        let r = shared_tie_rewards(&[44.0, 44.0], &[]);
        assert_eq!((r[0], r[1]), (0.5, 0.5));
        let r = shared_tie_rewards(&[45.0, 44.0], &[]);
        assert_eq!((r[0], r[1]), (1.0, 0.0));
        // Three players, the last two tied: first 1, the others share 0.5 and 0.
        let r = shared_tie_rewards(&[10.0, 3.0, 3.0], &[]);
        assert_eq!((r[0], r[1], r[2]), (1.0, 0.25, 0.25));
        // A resigned player is last whatever its score, and shares with nobody.
        let r = shared_tie_rewards(&[5.0, 5.0, 5.0], &[Player(0)]);
        assert_eq!((r[0], r[1], r[2]), (0.0, 0.75, 0.75));
    }
}
