//! Gengo for the search: light playouts that never fill their own eyes nor play a stone with
//! no liberty of its own, ownership from area counting, and priors from Gengo's liberties
//! (captures, stones without liberties, replies near the last play).

use std::sync::Arc;

use gobeyond_maps::NodeId;
use gobeyond_rules::{
    Game, GengoGame, MAX_PLAYERS, Player, Rng, RuleSystem,
    gengo::{Action, GengoBoard, GengoScoring, Input, Move, scoring},
    playout::PlayoutTables,
};

use crate::{
    computer::Computer,
    search::{
        level::Bot,
        mcts::SearchConfig,
        searchable::{Prior, Rewards, Searchable, shared_tie_rewards},
    },
};

/// Whether `p` is an eye of `player`: an empty space whose adjacent spaces are all overlapped
/// by `player`'s stones only. With classic regions this is Go's one-point eye.
pub fn is_own_eye(board: &GengoBoard, map: &gobeyond_maps::Map, p: NodeId, player: Player) -> bool {
    let me = player.index();
    map.neighbors(p).iter().all(|&q| {
        let c = board.cover(q);
        c[me] > 0 && c[1 - me] == 0
    })
}

/// Whether a stone of `player` on `p` would have a liberty of its own (an empty space in its
/// neighbour region: the overlap never covers those).
fn own_liberty(board: &GengoBoard, p: NodeId) -> bool {
    board.tables().neighbours(p).iter().any(|&q| board.is_empty_space(q))
}

/// Whether a stone on `p` would take the last liberty of an opposing group.
fn captures(board: &GengoBoard, p: NodeId, player: Player) -> bool {
    let tables = board.tables();
    let overlap = tables.overlap(p);
    tables.reach(p).iter().any(|&s| {
        board.stone_at(s).is_some_and(|o| o != player)
            && board.liberties(s).iter().all(|l| overlap.binary_search(l).is_ok())
    })
}

/// A playout move for the player to move: a random open space that is not its own eye and
/// where the stone has a liberty of its own.
fn choose(game: &GengoGame, rng: &mut Rng) -> Option<NodeId> {
    let player = game.to_move()?;
    let board = game.board();
    let map = game.map();
    let n = map.len() as u32;
    let ok =
        |p: NodeId| board.open_for(p, player) && own_liberty(board, p) && !is_own_eye(board, map, p, player);
    for _ in 0..8 {
        let p = rng.below(n);
        if ok(p) && game.check(Action::Place(p)).is_ok() {
            return Some(p);
        }
    }
    let start = rng.below(n);
    (0..n).map(|k| (start + k) % n).find(|&p| ok(p) && game.check(Action::Place(p)).is_ok())
}

/// Rewards of a position by the game's own scoring (both players' scores with komi).
fn rewards(game: &GengoGame, area: &scoring::Area) -> Rewards {
    let komi = game.rules().komi;
    let scores: Vec<f64> = match game.rules().scoring {
        GengoScoring::Stones => game.stone_scores(),
        GengoScoring::Area => vec![area.counts[0] as f64, area.counts[1] as f64 + komi],
    };
    shared_tie_rewards(&scores, game.resigned())
}

impl Searchable for GengoGame {
    /// The final owner of each space after a playout: Gengo's playouts need nothing else.
    type Scratch = Vec<u8>;

    fn scratch(&self, _: &Arc<PlayoutTables>, _: &SearchConfig) -> Vec<u8> {
        vec![0; self.map().len()]
    }

    fn owners(scratch: &Vec<u8>) -> &[u8] {
        scratch
    }

    fn amaf_key(action: Action) -> Option<NodeId> {
        match action {
            Action::Place(n) => Some(n),
            _ => None,
        }
    }

    fn search_copy(&self) -> Self {
        let mut g = self.clone();
        g.set_recording(false);
        g
    }

    fn final_rewards(&self) -> Rewards {
        self.outcome().map_or([0.0; MAX_PLAYERS], |o| shared_tie_rewards(&o.scores, self.resigned()))
    }

    fn playout(&mut self, owner: &mut Vec<u8>, rng: &mut Rng, played: &mut Vec<(Player, NodeId)>) -> Rewards {
        let limit = 3 * self.map().len() + 50;
        for _ in 0..limit {
            let Some(player) = self.to_move() else { break };
            match choose(self, rng) {
                Some(p) => {
                    if self.play(Action::Place(p)).is_ok() {
                        played.push((player, p));
                    }
                }
                None => {
                    let _ = self.play(Action::Pass);
                }
            }
        }
        let area = scoring::area(self.board(), self.map());
        for (o, a) in owner.iter_mut().zip(&area.owner) {
            *o = a.map_or(0, |p| p + 1);
        }
        match self.outcome() {
            Some(_) => self.final_rewards(),
            None => rewards(self, &area),
        }
    }

    fn prior(&self, action: Action, _: &mut Vec<u8>) -> Prior {
        let Some(player) = self.to_move() else {
            return Prior { visits: 0.0, value: 0.5 };
        };
        let board = self.board();
        match action {
            Action::Place(p) => {
                if captures(board, p, player) {
                    Prior { visits: 20.0, value: 0.85 }
                } else if is_own_eye(board, self.map(), p, player) {
                    Prior { visits: 30.0, value: 0.05 }
                } else if !own_liberty(board, p) {
                    Prior { visits: 20.0, value: 0.1 }
                } else if self
                    .inputs()
                    .iter()
                    .rev()
                    .find_map(|(_, i)| match i {
                        Input::Act(Action::Place(q)) => Some(*q),
                        _ => None,
                    })
                    .is_some_and(|q| board.tables().reach(q).binary_search(&p).is_ok())
                {
                    Prior { visits: 10.0, value: 0.6 }
                } else {
                    Prior { visits: 10.0, value: 0.5 }
                }
            }
            Action::Pass => Prior { visits: 20.0, value: 0.2 },
            Action::Resign => Prior { visits: 50.0, value: 0.0 },
        }
    }

    fn action_count(&self) -> usize {
        self.inputs().len()
    }

    fn action_at(&self, i: usize) -> Option<Action> {
        match self.inputs().get(i)? {
            (_, Input::Act(a)) => Some(*a),
            (_, Input::Timeout) => None,
        }
    }
}

/// The random baseline: a random open space that is not an own eye and where the stone has a
/// liberty of its own, else Pass.
fn random_action(game: &GengoGame, rng: &mut Rng) -> Option<Action> {
    game.to_move()?;
    Some(choose(game, rng).map_or(Action::Pass, Action::Place))
}

impl Computer for GengoGame {
    fn decide(&self, seat: Player, bot: &mut Bot<Self>) -> Option<Move> {
        if self.to_move() != Some(seat) {
            return Some(self.fallback_move(seat));
        }
        let action = bot.choose_with(self, |g, _, rng| random_action(g, rng)).0?;
        Some(self.to_wire(action))
    }

    fn is_pass(&self, action: Action) -> bool {
        action == Action::Pass
    }

    fn greedy_value(&self, player: Player) -> f64 {
        self.scores()[player.index()]
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use gobeyond_rules::{GengoRules, Rng, gengo::GengoGame};

    use super::*;

    fn game(spec: &str) -> GengoGame {
        let map = Arc::new(gobeyond_maps::generate(spec).unwrap());
        GengoGame::new(map, GengoRules::default(), &[], Player(0)).unwrap()
    }

    /// A playout from the empty board ends the game (three passes) with owners for every
    /// space that area counting gives one, and never an illegal play on the way.
    #[test]
    fn playouts_finish_and_leave_owners() {
        for spec in ["square:9", "hex:4", "torus:8", "cube:3"] {
            let mut g = game(spec).search_copy();
            let map = g.map().clone();
            let tables = Arc::new(PlayoutTables::new(&map));
            let mut owner = g.scratch(&tables, &SearchConfig::default());
            let mut played = Vec::new();
            let r = g.playout(&mut owner, &mut Rng::new(7), &mut played);
            assert!(g.is_over(), "{spec}: the playout reached the end");
            assert!(!played.is_empty(), "{spec}: stones were played");
            assert!((r[0] + r[1] - 1.0).abs() < 1e-6, "{spec}: rewards {r:?}");
            assert!(owner.iter().any(|&o| o != 0), "{spec}: some space is owned");
        }
    }
}
