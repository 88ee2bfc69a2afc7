//! Capture Go for the search: playouts by the tactics of [`policy`], rewards by captures,
//! priors from the same tactics and from reading ladders (`docs/bots.md`, "Capture Go").

mod policy;

use std::sync::Arc;

use gobeyond_maps::NodeId;
use gobeyond_rules::{
    Board, CaptureGame, Game, MAX_PLAYERS, Player, Rng,
    capture::{Action, Input},
    playout::PlayoutTables,
};
use policy::{captures_at, choose, liberties_after_up_to, own_eye};

use crate::{
    computer::Computer,
    go::ladder::{self, LadderReader},
    search::{
        mcts::SearchConfig,
        searchable::{Prior, Rewards, Searchable, shared_tie_rewards},
    },
};

/// What a search thread keeps for Capture Go: for the priors, the ladder reader and a board to
/// try a placement on.
#[derive(Debug)]
pub struct CaptureScratch {
    ladder: LadderReader,
    after: Board,
}

impl CaptureScratch {
    fn new(board: &Board) -> CaptureScratch {
        CaptureScratch { ladder: LadderReader::new(), after: board.clone() }
    }

    /// Whether `player` placing on `p` (legal, capturing nothing) leaves its group two
    /// liberties and `opponent` an atari on one of them that captures it by ladder.
    fn gives_a_ladder(&mut self, board: &Board, p: NodeId, player: Player, opponent: Player) -> bool {
        self.after.copy_from(board);
        self.after.play_unchecked(p, player);
        let mut libs = [0 as NodeId; 3];
        if ladder::liberties(&self.after, p, &mut libs) != 2 {
            return false;
        }
        libs[..2].iter().any(|&l| self.ladder.atari_captures(&self.after, l, opponent, player))
    }
}

impl Searchable for CaptureGame {
    type Scratch = CaptureScratch;

    fn scratch(&self, _: &Arc<PlayoutTables>, _: &SearchConfig) -> CaptureScratch {
        CaptureScratch::new(self.board())
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

    fn playout(
        &mut self,
        _: &mut CaptureScratch,
        rng: &mut Rng,
        played: &mut Vec<(Player, NodeId)>,
    ) -> Rewards {
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

    fn prior(&self, action: Action, scratch: &mut CaptureScratch) -> Prior {
        let Some(player) = self.to_move() else {
            return Prior { visits: 0.0, value: 0.5 };
        };
        match action {
            Action::Place(p) => placement_prior(self, p, player, scratch),
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

/// What the tree first believes of `player` placing on `p`: taking a stone is the point of the
/// game, a self-atari gives one away, and with two players an atari that works as a ladder
/// wins a stone while escaping into one, or leaving a group two liberties the opponent can
/// ladder from, only feeds it (random playouts misjudge all three).
fn placement_prior(game: &CaptureGame, p: NodeId, player: Player, scratch: &mut CaptureScratch) -> Prior {
    let board = game.board();
    if captures_at(board, p, player) {
        return Prior { visits: 30.0, value: 0.95 };
    }
    let liberties = liberties_after_up_to::<3>(board, p, player);
    if liberties <= 1 {
        return Prior { visits: 30.0, value: 0.05 };
    }
    let opponent = (game.player_count() == 2).then(|| Player(1 - player.0));
    let in_atari_here = |q: &NodeId| board.stone_at(*q) == Some(player) && board.only_liberty_is(*q, p);
    if let Some(&saved) = game.map().neighbors(p).iter().find(|q| in_atari_here(q)) {
        let caught = opponent.is_some_and(|o| scratch.ladder.escape_fails(board, saved, o));
        return if caught { Prior { visits: 20.0, value: 0.1 } } else { Prior { visits: 20.0, value: 0.8 } };
    }
    if let Some(o) = opponent
        && scratch.ladder.atari_captures(board, p, player, o)
    {
        return Prior { visits: 30.0, value: 0.9 };
    }
    if let Some(o) = opponent
        && liberties == 2
        && scratch.gives_a_ladder(board, p, player, o)
    {
        return Prior { visits: 20.0, value: 0.15 };
    }
    if own_eye(game, p, player) {
        return Prior { visits: 20.0, value: 0.1 };
    }
    Prior { visits: 10.0, value: 0.5 }
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
            let mut played = Vec::new();
            let mut scratch = g.scratch(&tables, &SearchConfig::default());
            let r = g.playout(&mut scratch, &mut Rng::new(7), &mut played);
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

    pub(super) fn game_on(spec: &str, players: usize, target: u32, setup: &[(&str, Player)]) -> CaptureGame {
        let map = Arc::new(gobeyond_maps::generate(spec).unwrap());
        let setup: Vec<_> = setup.iter().map(|&(l, p)| (map.node_by_label(l).unwrap(), p)).collect();
        let rules = CaptureRules { target, ..CaptureRules::default() };
        CaptureGame::new(map, players, rules, &setup, Player(0)).unwrap()
    }

    pub(super) fn place(g: &mut CaptureGame, label: &str) {
        let node = g.map().node_by_label(label).unwrap();
        g.play(Action::Place(node)).unwrap();
    }

    /// With two players the priors read ladders: an atari that works as a ladder is believed,
    /// escaping into one is not, a stone that breaks the ladder turns both around, and a
    /// placement that leaves two liberties to be laddered from is not believed either.
    #[test]
    fn ladders_decide_the_priors() {
        let x = Player(0);
        let o = Player(1);
        let ladder = [("H4", x), ("F3", x), ("G2", x), ("G3", o)];
        let mut scratch = CaptureScratch::new(&game_on("square:9", 2, 1, &[]).board().clone());
        let value = |g: &CaptureGame, label: &str, scratch: &mut CaptureScratch| {
            let node = g.map().node_by_label(label).unwrap();
            placement_prior(g, node, g.to_move().unwrap(), scratch).value
        };
        let g = game_on("square:9", 2, 1, &ladder);
        assert_eq!(value(&g, "H3", &mut scratch), 0.9, "the atari that ladders");
        let mut g = g;
        place(&mut g, "H3");
        assert_eq!(value(&g, "G4", &mut scratch), 0.1, "running into the ladder");

        let mut broken = ladder.to_vec();
        broken.push(("C7", o));
        let g = game_on("square:9", 2, 1, &broken);
        assert_eq!(value(&g, "H3", &mut scratch), 0.5, "the breaker saves the stone");
        let open = game_on("square:9", 2, 1, &ladder[1..]);
        assert_eq!(value(&open, "G4", &mut scratch), 0.5, "the atari that lets the stone out");
        let mut g = g;
        place(&mut g, "H3");
        assert_eq!(value(&g, "G4", &mut scratch), 0.8, "running to the breaker");

        // In a corner (from a lost game): A9 leaves White's stones two liberties and Black's
        // atari at A8 then catches them; B9 leaves three.
        let mut corner = game_on("square:9", 2, 1, &[("B7", x), ("C8", x), ("A7", x), ("B8", o)]);
        place(&mut corner, "J1");
        assert_eq!(value(&corner, "A9", &mut scratch), 0.15, "two liberties and a ladder");
        assert_eq!(value(&corner, "B9", &mut scratch), 0.5, "three liberties");
    }
}
