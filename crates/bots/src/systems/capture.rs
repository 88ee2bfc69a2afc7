//! Capture Go for the search: playouts that take a stone in atari when they can and save their
//! own otherwise (the whole game is the race to the first captures), rewards by captures, and
//! priors from the same tactics.

use std::sync::Arc;

use gobeyond_maps::NodeId;
use gobeyond_rules::{
    Board, CaptureGame, Game, MAX_PLAYERS, Player, Rng,
    capture::{Action, Input},
    playout::PlayoutTables,
};

use crate::{
    computer::Computer,
    search::{
        mcts::SearchConfig,
        searchable::{Prior, Rewards, Searchable, shared_tie_rewards},
    },
};

/// The last placement, if the last input was one.
fn last_placement(game: &CaptureGame) -> Option<NodeId> {
    match game.inputs().last()? {
        (_, Input::Act(Action::Place(n))) => Some(*n),
        _ => None,
    }
}

/// The liberty that captures a group of another player in atari next to `around` (or the
/// group at `around` itself), if the game allows playing there.
fn capture_at(game: &CaptureGame, around: NodeId, player: Player) -> Option<NodeId> {
    let board = game.board();
    std::iter::once(around)
        .chain(game.map().neighbors(around).iter().copied())
        .filter(|&q| board.stone_at(q).is_some_and(|o| o != player))
        .filter_map(|q| board.atari_liberty(q))
        .find(|&l| game.check(Action::Place(l)).is_ok())
}

/// The liberty that saves a group of `player` in atari next to `around`, if extending there
/// gives it more than one liberty.
fn escape_at(game: &CaptureGame, around: NodeId, player: Player) -> Option<NodeId> {
    let board = game.board();
    game.map()
        .neighbors(around)
        .iter()
        .filter(|&&q| board.stone_at(q) == Some(player))
        .filter_map(|&q| board.atari_liberty(q))
        .find(|&l| game.check(Action::Place(l)).is_ok() && extension_liberties(board, game, l, player) > 1)
}

/// Liberties a stone of `player` on `node` would have, counting the groups it joins (an
/// estimate: the empty neighbours of the stone and of the joined groups' single liberties).
fn extension_liberties(board: &Board, game: &CaptureGame, node: NodeId, player: Player) -> usize {
    let map = game.map();
    let mut free: Vec<NodeId> =
        map.neighbors(node).iter().copied().filter(|&q| board.stone_at(q).is_none()).collect();
    for &q in map.neighbors(node) {
        if board.stone_at(q) == Some(player) {
            free.extend(board.liberties(q).into_iter().filter(|&l| l != node));
        }
    }
    free.sort_unstable();
    free.dedup();
    free.len()
}

/// Whether `node` is an eye of `player`: every neighbour holds one of its stones.
fn own_eye(game: &CaptureGame, node: NodeId, player: Player) -> bool {
    game.map().neighbors(node).iter().all(|&q| game.board().stone_at(q) == Some(player))
}

/// A playout move for the player to move: capture next to the last stone, else save a group
/// it put in atari, else a random legal point that is not an own eye.
fn choose(game: &CaptureGame, rng: &mut Rng) -> Option<NodeId> {
    let player = game.to_move()?;
    if let Some(last) = last_placement(game)
        && let Some(p) = capture_at(game, last, player).or_else(|| escape_at(game, last, player))
    {
        return Some(p);
    }
    let empties = game.board().empties();
    if empties.is_empty() {
        return None;
    }
    let ok = |p: NodeId| !own_eye(game, p, player) && game.check(Action::Place(p)).is_ok();
    for _ in 0..8 {
        let p = empties[rng.below(empties.len() as u32) as usize];
        if ok(p) {
            return Some(p);
        }
    }
    let start = rng.below(empties.len() as u32) as usize;
    (0..empties.len()).map(|k| empties[(start + k) % empties.len()]).find(|&p| ok(p))
}

impl Searchable for CaptureGame {
    /// Capture Go's playouts need no scratch of their own: they play on the search's copy.
    type Scratch = ();

    fn scratch(&self, _: &Arc<PlayoutTables>, _: &SearchConfig) {}

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

    fn playout(&mut self, _: &mut (), rng: &mut Rng, played: &mut Vec<(Player, NodeId)>) -> Rewards {
        // The game's own turn limit ends every playout; this only guards against a bug.
        let limit = 4 * self.map().len() + 50;
        for _ in 0..limit {
            let Some(player) = self.to_move() else { break };
            match choose(self, rng) {
                Some(p) if self.play(Action::Place(p)).is_ok() => played.push((player, p)),
                _ => {
                    let _ = self.play(Action::Pass);
                }
            }
        }
        match self.outcome() {
            Some(_) => self.final_rewards(),
            None => shared_tie_rewards(&self.scores(), self.resigned()),
        }
    }

    fn prior(&self, action: Action, _: &mut ()) -> Prior {
        let Some(player) = self.to_move() else {
            return Prior { visits: 0.0, value: 0.5 };
        };
        let board = self.board();
        match action {
            Action::Place(p) => {
                let neighbours = self.map().neighbors(p);
                let takes = neighbours.iter().any(|&q| {
                    board.stone_at(q).is_some_and(|o| o != player) && board.atari_liberty(q) == Some(p)
                });
                let saves = neighbours
                    .iter()
                    .any(|&q| board.stone_at(q) == Some(player) && board.atari_liberty(q) == Some(p));
                if takes {
                    Prior { visits: 30.0, value: 0.95 }
                } else if saves && extension_liberties(board, self, p, player) > 1 {
                    Prior { visits: 20.0, value: 0.8 }
                } else if extension_liberties(board, self, p, player) <= 1 {
                    // Self-atari: the next player captures.
                    Prior { visits: 30.0, value: 0.05 }
                } else if own_eye(self, p, player) {
                    Prior { visits: 20.0, value: 0.1 }
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

/// The search's move, and the baseline players' (random, greedy) through the Go board.
impl Computer for CaptureGame {
    fn is_pass(&self, action: Action) -> bool {
        action == Action::Pass
    }

    fn greedy_value(&self, player: Player) -> f64 {
        f64::from(self.captures(player))
    }

    fn go_board(&self) -> Option<&Board> {
        Some(self.board())
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use gobeyond_rules::{CaptureRules, RuleSystem, capture::Move};

    use super::*;
    use crate::search::level::Level;

    /// Bots of several levels play whole games against each other on five map families, 2 to 5
    /// players: every input they send is accepted.
    #[test]
    fn self_play_never_sends_an_illegal_input() {
        let families = [("square:7", 2), ("hex:3", 3), ("torus:6", 4), ("cube:2", 2), ("goldberg:1,1", 5)];
        for (k, (spec, players)) in families.into_iter().enumerate() {
            let map = Arc::new(gobeyond_maps::generate(spec).unwrap());
            let rules = CaptureRules { target: 3, ..CaptureRules::default() };
            let mut g = CaptureGame::new(map, players, rules, &[], Player(0)).unwrap();
            let mut inputs = 0;
            while let Some(seat) = g.to_move() {
                let level = Level::new(1 + ((inputs + k) % 3) as u8).unwrap();
                let m = g.computer_input(seat, level, inputs as u64, None).unwrap();
                RuleSystem::submit(&mut g, seat, &m).unwrap_or_else(|e| panic!("{spec}: {m:?} refused: {e}"));
                inputs += 1;
            }
            assert!(inputs > 2, "{spec}: {inputs} inputs");
        }
    }

    /// A playout from the empty board ends the game, on every map family and for several
    /// players, without an illegal placement on the way.
    #[test]
    fn playouts_finish_the_game() {
        for (spec, players) in
            [("square:9", 2), ("hex:4", 3), ("torus:8", 4), ("cube:3", 2), ("goldberg:2,0", 5)]
        {
            let map = Arc::new(gobeyond_maps::generate(spec).unwrap());
            let mut g = CaptureGame::new(map.clone(), players, CaptureRules::default(), &[], Player(0))
                .unwrap()
                .search_copy();
            let tables = Arc::new(PlayoutTables::new(&map));
            g.scratch(&tables, &SearchConfig::default());
            let mut played = Vec::new();
            let r = g.playout(&mut (), &mut Rng::new(7), &mut played);
            assert!(g.is_over(), "{spec}: the playout reached the end");
            assert!(!played.is_empty(), "{spec}: stones were played");
            let total: f32 = r[..players].iter().sum();
            assert!(total > 0.0, "{spec}: rewards {r:?}");
        }
    }

    /// Given a stone in atari, the search takes it (and so wins).
    #[test]
    fn the_search_takes_a_stone_in_atari() {
        let map = Arc::new(gobeyond_maps::generate("square:9").unwrap());
        let at = |l: &str| map.node_by_label(l).unwrap();
        let setup =
            [(at("D5"), Player(0)), (at("F5"), Player(0)), (at("E4"), Player(0)), (at("E5"), Player(1))];
        let g = CaptureGame::new(map.clone(), 2, CaptureRules::default(), &setup, Player(0)).unwrap();
        let m = g.computer_input(Player(0), Level::new(3).unwrap(), 1, None).unwrap();
        assert_eq!(m, Move::Place { node: Some(u64::from(at("E6"))), at: Some("E6".into()) });
    }
}
