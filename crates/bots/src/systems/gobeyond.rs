//! GoBeyond for the search and for computer seats: playouts under the full rules (economy,
//! reservations) with the Go policies, the shared Go priors plus what GoBeyond's economy adds
//! (Skip and Pass, attacks on weak groups), and a seat that surrenders at Clean-Up the stones
//! the search's ownership says are doomed.

use std::sync::Arc;

use gobeyond_maps::NodeId;
use gobeyond_rules::{
    Board, Game, GoBeyondGame, MAX_PLAYERS, Player, Rng, RuleSystem,
    board::EMPTY,
    gobeyond::{self, Phase},
    playout::PlayoutTables,
};

use crate::{
    computer::Computer,
    go::{
        Scratch, dead_stones,
        priors::{EVEN, placement_prior},
    },
    search::{
        level::Bot,
        mcts::SearchConfig,
        searchable::{Prior, Rewards, Searchable, rank_rewards},
    },
};

/// Share of a GoBeyond reward that is winning, the rest being the place.
const WIN_WEIGHT: f32 = 0.6;

/// Playouts of the search that judges which stones are doomed at Clean-Up.
const CLEANUP_PLAYOUTS: u32 = 2000;

/// Whether `node` takes a liberty from an opponent group with three or fewer while the mover's
/// own stone keeps two. In GoBeyond a captured group pays the capture award and hands its
/// claims over, and surrounding takes several moves in a row that random playouts never
/// string together: without this the search let a lone stone live on a map it claimed.
fn attacks(board: &Board, node: NodeId, player: Player) -> bool {
    let map = board.map();
    let stone = player.stone();
    let weak_neighbour = map.neighbors(node).iter().any(|&q| {
        let c = board.color(q);
        c != EMPTY && c != stone && board.liberties(q).len() <= 3
    });
    if !weak_neighbour {
        return false;
    }
    let mut libs: Vec<NodeId> =
        map.neighbors(node).iter().copied().filter(|&q| board.color(q) == EMPTY).collect();
    for &q in map.neighbors(node) {
        if board.color(q) == stone {
            libs.extend(board.liberties(q).into_iter().filter(|&l| l != node));
        }
    }
    libs.sort_unstable();
    libs.dedup();
    libs.len() >= 2
}

/// GoBeyond-specific knowledge for the priors.
trait GoBeyondKnowledge {
    fn opponent_runs_away(&self) -> bool;
    fn leads_if_ended(&self) -> bool;
}

impl GoBeyondKnowledge for GoBeyondGame {
    /// Some opponent claims an eighth of the map more than the player to move.
    fn opponent_runs_away(&self) -> bool {
        let me = self.current_player();
        let mine = self.claimed_count(me);
        let margin = (self.map().len() / 8) as u32;
        (0..self.player_count() as u8).map(Player).any(|p| p != me && self.claimed_count(p) > mine + margin)
    }

    /// The player to move would rank first if play ended now (PlayPoints plus the final bonus
    /// on today's claims, ties broken by seat as the rules do).
    fn leads_if_ended(&self) -> bool {
        let me = self.current_player();
        let standing = |p: Player| {
            self.points(p) as f64
                + (self.rules().final_bonus * self.claimed_count(p) as i64) as f64
                + self.rules().tie_break * (p.index() + 1) as f64
        };
        let mine = standing(me);
        (0..self.player_count() as u8)
            .map(Player)
            .filter(|&p| p != me && !self.is_resigned(p))
            .all(|p| standing(p) < mine)
    }
}

impl Searchable for GoBeyondGame {
    type Scratch = Scratch;

    fn scratch(&self, tables: &Arc<PlayoutTables>, config: &SearchConfig) -> Scratch {
        Scratch::new(self.map(), tables.clone(), config)
    }

    fn owners(scratch: &Scratch) -> &[u8] {
        &scratch.owner
    }

    /// Playouts finish the game: its own count.
    fn final_scores(&self, _: &Scratch, out: &mut [f32; MAX_PLAYERS]) -> bool {
        crate::search::searchable::outcome_scores(self, out)
    }

    fn amaf_key(action: gobeyond::Action) -> Option<NodeId> {
        match action {
            gobeyond::Action::Occupy(n) => Some(n),
            _ => None,
        }
    }

    fn search_copy(&self) -> Self {
        let mut g = self.clone();
        g.set_recording(false);
        g
    }

    /// Winning is what counts: a win is worth more than the ranking alone says (with ranking
    /// rewards only, a safe second place looked as good as a risky try for first, and the bot
    /// settled for it against a passive opponent).
    fn final_rewards(&self) -> Rewards {
        let Some(o) = self.outcome() else { return [0.0; MAX_PLAYERS] };
        let mut r = rank_rewards(&o.ranking);
        let winner = o.ranking.first().map(|p| p.index());
        for (i, x) in r.iter_mut().enumerate() {
            let win = if Some(i) == winner { 1.0 } else { 0.0 };
            *x = WIN_WEIGHT * win + (1.0 - WIN_WEIGHT) * *x;
        }
        r
    }

    /// Random play under the full GoBeyond rules (economy, reservations): a player occupies a
    /// policy move it can pay for, else passes; Clean-Up surrenders nothing (random play leaves
    /// few doomed stones on the board, and those are counted by the claims anyway).
    fn playout(
        &mut self,
        scratch: &mut Scratch,
        rng: &mut Rng,
        played: &mut Vec<(Player, NodeId)>,
    ) -> Rewards {
        let g = self;
        let policy = scratch.policy;
        g.set_recording(false);
        let max = 3 * g.board().len() + 50;
        let mut last = None;
        for _ in 0..max {
            let Some(p) = g.to_move() else { break };
            let choice = policy.choose(g.board(), &scratch.tables, p, last, rng);
            let action = match choice {
                Some(n) if g.check(gobeyond::Action::Occupy(n)).is_ok() => gobeyond::Action::Occupy(n),
                _ => gobeyond::Action::Pass,
            };
            if g.play(action).is_err() {
                let _ = g.play(gobeyond::Action::Pass);
            }
            last = Self::amaf_key(action);
            if let Some(n) = last {
                played.push((p, n));
            }
        }
        // Out of moves: everyone passes.
        while g.to_move().is_some() {
            if g.play(gobeyond::Action::Pass).is_err() {
                break;
            }
        }
        if g.phase() == Phase::CleanUp {
            for p in g.awaiting_cleanup() {
                let _ = g.surrender(p, &[]);
            }
        }
        scratch.board.copy_from(g.board());
        for v in g.map().nodes() {
            scratch.owner[v as usize] = g.board().color(v).max(g.claimant(v).map_or(EMPTY, Player::stone));
        }
        g.final_rewards()
    }

    fn prior(&self, action: gobeyond::Action, scratch: &mut Scratch) -> Prior {
        match action {
            gobeyond::Action::Occupy(node) => {
                let board = GoBeyondGame::board(self);
                let player = self.current_player();
                match placement_prior(board, &scratch.tables, node, player) {
                    p if p == EVEN && attacks(board, node, player) => Prior { visits: 20.0, value: 0.7 },
                    p => p,
                }
            }
            // Spending is optional in GoBeyond: a stone costs PlayPoints and only pays through
            // claims, so not playing starts as a good option (a low prior made the bot buy
            // stones it could not use) — unless an opponent is collecting income on a big claim:
            // random playouts break such a claim at once, a passive opponent never does, so the
            // search alone would let it run.
            gobeyond::Action::Skip | gobeyond::Action::Pass if self.opponent_runs_away() => {
                Prior { visits: 50.0, value: 0.1 }
            }
            // Passing while behind helps the leader end the game; a Skip keeps it going.
            // (Only for a while: a bot that cannot catch up must not hold a game open for ever.)
            gobeyond::Action::Pass if !self.leads_if_ended() && self.log().len() < 4 * self.map().len() => {
                Prior { visits: 50.0, value: 0.1 }
            }
            gobeyond::Action::Skip => Prior { visits: 20.0, value: 0.55 },
            gobeyond::Action::Pass => Prior { visits: 20.0, value: 0.6 },
            gobeyond::Action::Resign | gobeyond::Action::Timeout => Prior { visits: 50.0, value: 0.0 },
        }
    }

    fn action_count(&self) -> usize {
        self.log().len()
    }

    fn action_at(&self, i: usize) -> Option<gobeyond::Action> {
        match self.log().get(i) {
            Some((_, gobeyond::Input::Action(a))) => Some(*a),
            _ => None,
        }
    }
}

impl Computer for GoBeyondGame {
    /// Clean-Up: the stones the playouts say are lost; otherwise the bot's action.
    fn decide(&self, seat: Player, bot: &mut Bot<Self>) -> Option<gobeyond::Move> {
        if self.phase() == Phase::CleanUp {
            let config = SearchConfig {
                playouts: CLEANUP_PLAYOUTS,
                seed: bot.seed(),
                time: bot.time(),
                ..SearchConfig::default()
            };
            let doomed = dead_stones::doomed_stones(self, seat, config);
            return Some(gobeyond::Move::surrender(self.map(), &doomed));
        }
        let action = match bot.choose(self).0? {
            gobeyond::Action::Timeout => gobeyond::Action::Skip,
            a => a,
        };
        Some(self.to_wire(action))
    }

    fn go_board(&self) -> Option<&Board> {
        Some(GoBeyondGame::board(self))
    }

    fn is_pass(&self, action: gobeyond::Action) -> bool {
        action == gobeyond::Action::Pass
    }

    /// PlayPoints plus what the claims would bring at the end.
    fn greedy_value(&self, player: Player) -> f64 {
        (self.points(player) + self.rules().final_bonus * self.claimed_count(player) as i64) as f64
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use std::sync::Arc;

    use gobeyond_maps::generate;

    use super::*;

    #[test]
    fn attacks_weak_opponent_groups_only_from_safety() {
        let map = Arc::new(generate("square:5").unwrap());
        let at = |l: &str| map.node_by_label(l).unwrap();
        let mut b = Board::new(map.clone());
        // A lone white stone in the middle (4 liberties), then with one black neighbour (3).
        b.put_stone(at("C3"), Player(1));
        assert!(!attacks(&b, at("C2"), Player(0)), "four liberties: not weak yet");
        b.put_stone(at("B3"), Player(0));
        assert!(attacks(&b, at("C2"), Player(0)));
        assert!(!attacks(&b, at("A1"), Player(0)), "not next to the group");
        assert!(!attacks(&b, at("C2"), Player(1)), "its own group");
        // A black stone that would be left with fewer than two liberties is no attack.
        let mut c = Board::new(map.clone());
        for l in ["B1", "D1", "C2"] {
            c.put_stone(at(l), Player(1));
        }
        // C1 touches C2 (three liberties: B2, D2, C3) but would have no liberty of its own.
        assert!(!attacks(&c, at("C1"), Player(0)));
        assert!(attacks(&c, at("B2"), Player(0)));
    }
}
