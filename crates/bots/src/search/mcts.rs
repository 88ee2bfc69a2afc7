//! Monte-Carlo tree search with UCT and RAVE over any [`Searchable`] rule system.
//!
//! - **One tree shared by every thread** (tree parallelism, as in Fuego and Pachi): a node's
//!   statistics are atomics updated without locks; a thread going down counts its visit at
//!   once, with no reward yet (a *virtual loss*), so the other threads spread over other
//!   branches until the playout's result is backed up. Reward sums are updated by plain
//!   load-and-store: two threads adding to the same sum in the same nanosecond may lose one
//!   playout's reward (Fuego's lock-free tree accepts the same), never a visit, never a tear.
//! - Children of a node are created together in one allocation, by the one thread that claims
//!   the node's expansion, and published once (`OnceLock`); a thread that finds a node being
//!   expanded plays out from it. The memory budget ([`SearchConfig::memory`]) is a byte count
//!   taken before each expansion: at the budget the tree stops growing and the search goes on
//!   with playouts from its leaves.
//! - Memory per playout is bounded too: a node is expanded only after enough visits to pay
//!   for its children at [`SearchConfig::bytes_per_playout`] (on 9×9 that is the first
//!   revisit, on 19×19 about the seventh).
//! - N players (max^n): every node keeps the rewards of the player who chose it, the only one
//!   who reads them: at a node, the player to move picks the child that is best for them.
//! - RAVE/AMAF: a child also collects the results of simulations in which its mover played the
//!   same node later on; the blend weight follows Gelly & Silver's equivalence parameter.
//! - With one thread and a playout budget the result depends on the seed only; with several,
//!   on how the threads interleave too.
//! - Tree reuse: the tree follows the moves played since its last search when it has them, and
//!   keeps only the subtree of the new position (the old root's other branches are freed), so
//!   a tree reused move after move, or grown while pondering, still has room to grow.
//! - A search stops at its playout budget, its deadline (looked at before every simulation:
//!   BeSiege's take milliseconds each in a debug build), or when a stop flag is raised (GTP
//!   pondering stops when the controller's next command arrives).

use std::{
    sync::{
        Arc,
        atomic::{AtomicBool, Ordering::Relaxed},
    },
    time::{Duration, Instant},
};

use gobeyond_maps::NodeId;
use gobeyond_rules::{MAX_PLAYERS, Player, playout::PlayoutTables};

use super::{
    searchable::Searchable,
    tree::{Node, Tree},
    worker::{RootTotals, Worker},
};
use crate::go::Policy;

/// How a search is run.
#[derive(Debug, Clone, PartialEq)]
pub struct SearchConfig {
    /// Playouts per move, over all threads.
    pub playouts: u32,
    /// Time per move; the search stops at whichever limit comes first.
    pub time: Option<Duration>,
    pub threads: usize,
    pub seed: u64,
    /// UCT exploration constant; `None`: the game's own ([`Searchable::tree_policy`]).
    pub exploration: Option<f32>,
    /// RAVE equivalence; `None`: the game's own ([`Searchable::tree_policy`]).
    pub rave_equivalence: Option<f32>,
    /// Visits a node needs before it is expanded (at least; see `bytes_per_playout`).
    pub expand_after: u32,
    /// Tree memory per playout, on average, that expansion may use: a node with `c` children
    /// is expanded after `c × node size / bytes_per_playout` visits, if that is more than
    /// `expand_after`.
    pub bytes_per_playout: usize,
    /// Most bytes of tree per thread (the shared tree gets this times `threads`). At the budget
    /// the tree stops growing (the search goes on).
    pub memory: usize,
    /// The Go-board systems' playout policy, read into their scratch ([`crate::go::Scratch`]);
    /// BeSiege reads whether it is above `light` (the light levels) for its tactical prior.
    pub policy: Policy,
    /// Classic Go's tree priors from the learned move patterns (else the hand-written ones).
    pub patterns: bool,
    /// Share of a two-player classic playout's reward that is the score margin (0: wins
    /// only), see [`crate::go::with_margin`].
    pub score_bonus: f32,
    /// Whether a game with hidden information is searched from sampled deals of what the mover
    /// cannot see ([`Searchable::determinize`]); off for a review after the game, which knows
    /// every hand (`docs/analysis.md`).
    pub determinize: bool,
}

impl Default for SearchConfig {
    fn default() -> Self {
        SearchConfig {
            playouts: 10_000,
            time: None,
            threads: 1,
            seed: 1,
            policy: Policy::Tactics,
            exploration: None,
            rave_equivalence: None,
            expand_after: 1,
            bytes_per_playout: 3072,
            memory: 256 << 20,
            patterns: true,
            score_bonus: 0.0,
            determinize: true,
        }
    }
}

/// The constants of the tree's selection: UCT's exploration term and RAVE's equivalence.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TreePolicy {
    /// UCT exploration constant (small: RAVE and priors do most of the exploring).
    pub exploration: f32,
    /// RAVE equivalence: after about this many real visits AMAF counts for half.
    pub rave_equivalence: f32,
}

impl TreePolicy {
    /// Tuned on 9×9: every system's unless it says otherwise.
    pub const DEFAULT: TreePolicy = TreePolicy { exploration: 0.1, rave_equivalence: 1000.0 };
    /// Classic Go on big boards: RAVE trusted four times longer and no exploration term, as
    /// Pachi plays big boards. It won 17 of 20 19×19 self-play games against the default at
    /// 3,000 playouts a move (docs/benchmarks.md, "19×19: RAVE and exploration").
    pub const BIG_BOARD: TreePolicy = TreePolicy { exploration: 0.0, rave_equivalence: 4000.0 };

    /// `game`'s policy with `config`'s overrides.
    pub fn of<G: Searchable>(config: &SearchConfig, game: &G) -> TreePolicy {
        let own = game.tree_policy();
        TreePolicy {
            exploration: config.exploration.unwrap_or(own.exploration),
            rave_equivalence: config.rave_equivalence.unwrap_or(own.rave_equivalence),
        }
    }
}

/// Statistics of one root action.
#[derive(Debug, Clone, PartialEq)]
pub struct ActionStats<A> {
    pub action: A,
    pub visits: u32,
    /// Mean reward of the player to move after this action.
    pub value: f32,
}

/// What a search found.
#[derive(Debug, Clone)]
pub struct Analysis<A> {
    pub best: Option<A>,
    /// Root actions, most visited first.
    pub actions: Vec<ActionStats<A>>,
    pub playouts: u32,
    pub elapsed: Duration,
    /// Per node, the share of playouts that ended with each player owning it (`[node][player]`).
    pub ownership: Vec<[f32; MAX_PLAYERS]>,
    /// Per seat, the mean reward over the simulations backed up at the root (every seat's value
    /// of the position, from the search itself; empty when none was).
    pub seat_values: Vec<f32>,
    /// Per seat, the mean final score over the simulations whose end the system scored
    /// ([`Searchable::final_scores`]); `None` when it scores none.
    pub seat_scores: Option<Vec<f32>>,
}

impl<A> Analysis<A> {
    /// The expected reward of the best action for the player to move.
    pub fn value(&self) -> f32 {
        self.actions.first().map_or(0.5, |a| a.value)
    }

    /// Stones that belong to someone else at the end of most playouts: dead (GTP
    /// `final_status_list dead`, match scoring, Clean-Up suggestions).
    pub fn dead_stones(&self, board: &gobeyond_rules::Board) -> Vec<NodeId> {
        board
            .map()
            .nodes()
            .filter(|&n| match (board.stone_at(n), self.owner(n)) {
                (Some(p), Some((o, share))) => o != p && share > 0.5,
                _ => false,
            })
            .collect()
    }

    /// The player most likely to own `node` at the end, with that probability.
    pub fn owner(&self, node: NodeId) -> Option<(Player, f32)> {
        let own = self.ownership.get(node as usize)?;
        let (i, &p) = own.iter().enumerate().max_by(|a, b| a.1.total_cmp(b.1))?;
        (p > 0.0).then_some((Player(i as u8), p))
    }
}

/// A search over several threads sharing one tree, keeping the tree between moves.
#[derive(Debug)]
pub struct Searcher<G: Searchable> {
    pub config: SearchConfig,
    tables: Option<Arc<PlayoutTables>>,
    tree: Option<Tree<G>>,
    workers: Vec<Worker<G>>,
}

impl<G: Searchable> Searcher<G> {
    pub fn new(config: SearchConfig) -> Searcher<G> {
        Searcher { config, tables: None, tree: None, workers: Vec::new() }
    }

    /// A new seed for the next game: the search starts again from it.
    pub fn reseed(&mut self, seed: u64) {
        self.config.seed = seed;
        self.tree = None;
        self.workers.clear();
    }

    /// Searches `game` (the player to move's best action) within the configured budget.
    pub fn search(&mut self, game: &G) -> Analysis<G::Action> {
        self.search_until(game, None)
    }

    /// [`Searcher::search`] that also ends when `stop` is raised (pondering: thinking on the
    /// opponent's time until their move arrives).
    pub fn search_until(&mut self, game: &G, stop: Option<&AtomicBool>) -> Analysis<G::Action> {
        let deadline = self.config.time.and_then(|t| Instant::now().checked_add(t));
        self.run(game, self.config.playouts, deadline, stop)
    }

    /// A search of at most `playouts` that ends at `deadline` (a bot's share of its turn, whose
    /// clock started before the search did). It always runs at least one simulation, so a
    /// search whose time is already up still answers with the priors' favourite.
    pub fn search_within(
        &mut self,
        game: &G,
        playouts: u32,
        deadline: Option<Instant>,
    ) -> Analysis<G::Action> {
        self.run(game, playouts, deadline, None)
    }

    fn run(
        &mut self,
        game: &G,
        playouts: u32,
        deadline: Option<Instant>,
        stop: Option<&AtomicBool>,
    ) -> Analysis<G::Action> {
        let start = Instant::now();
        let threads = self.config.threads.max(1);
        let same_map = self.tables.is_some()
            && self.tree.as_ref().is_some_and(|t| Arc::ptr_eq(t.game.map(), game.map()));
        let tree = match &mut self.tree {
            Some(tree) if same_map => {
                tree.advance(game);
                tree
            }
            slot => {
                self.tables = Some(Arc::new(PlayoutTables::new(game.map())));
                self.workers.clear();
                slot.insert(Tree::new(game))
            }
        };
        if self.workers.len() != threads
            && let Some(tables) = &self.tables
        {
            self.workers = (0..threads)
                .map(|i| {
                    let seed = self.config.seed.wrapping_add(i as u64 * 0x9e37_79b9);
                    Worker::new(game, tables.clone(), &self.config, seed)
                })
                .collect();
        }
        for w in &mut self.workers {
            w.ownership.fill(0);
            w.owner_samples = 0;
            w.root = Default::default();
        }
        tree.claimed.store(0, Relaxed);
        let (config, tree) = (&self.config, &*tree);
        let done: u32 = match self.workers.as_mut_slice() {
            [one] => one.run(tree, config, (playouts, deadline), stop),
            workers => std::thread::scope(|s| {
                let handles: Vec<_> = workers
                    .iter_mut()
                    .map(|w| s.spawn(move || w.run(tree, config, (playouts, deadline), stop)))
                    .collect();
                handles.into_iter().map(|h| h.join().unwrap_or(0)).sum()
            }),
        };
        self.analysis(game, done, start.elapsed())
    }

    /// Bytes the tree's nodes take now.
    pub fn memory(&self) -> usize {
        self.tree.as_ref().map_or(0, |t| t.bytes.load(Relaxed) + Self::node_size())
    }

    /// Nodes in the tree now.
    pub fn node_count(&self) -> usize {
        self.tree.as_ref().map_or(0, |t| t.nodes.load(Relaxed) + 1)
    }

    /// The size of one tree node of this system's search, in bytes.
    pub fn node_size() -> usize {
        std::mem::size_of::<Node<G::Action>>()
    }

    fn analysis(&self, game: &G, playouts: u32, elapsed: Duration) -> Analysis<G::Action> {
        let mut actions = self.tree.as_ref().map_or_else(Vec::new, Tree::root_stats);
        // Most visited first; ties by value, then by order (deterministic).
        actions.sort_by(|a, b| b.visits.cmp(&a.visits).then(b.value.total_cmp(&a.value)));
        let n = game.map().len();
        let samples: u32 = self.workers.iter().map(|w| w.owner_samples).sum();
        let ownership = (0..n)
            .map(|v| {
                let mut o = [0.0; MAX_PLAYERS];
                for (p, slot) in o.iter_mut().enumerate() {
                    let count: u32 = self.workers.iter().map(|w| w.ownership[v * MAX_PLAYERS + p]).sum();
                    *slot = if samples > 0 { count as f32 / samples as f32 } else { 0.0 };
                }
                o
            })
            .collect();
        let best = actions.first().map(|m| m.action);
        let mut root = RootTotals::default();
        for w in &self.workers {
            root.merge(&w.root);
        }
        let seats = game.player_count().min(MAX_PLAYERS);
        let (seat_values, seat_scores) = (root.values(seats), root.scores(seats));
        Analysis { best, actions, playouts, elapsed, ownership, seat_values, seat_scores }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use gobeyond_rules::{ClassicGame, ClassicRules, Game, classic};

    use super::*;

    fn empty(spec: &str) -> ClassicGame {
        let map = Arc::new(gobeyond_maps::generate(spec).unwrap());
        ClassicGame::new(map, 2, ClassicRules::default()).unwrap()
    }

    /// 9×9 keeps expanding at the first revisit (its strength figures stand); 19×19 waits until
    /// its visits pay for its 361 children at 3 KB per playout.
    #[test]
    fn expansion_waits_on_big_maps_only() {
        let threshold = |spec: &str| Tree::new(&empty(spec)).expand_threshold(&SearchConfig::default());
        assert_eq!(threshold("square:9"), 1);
        assert_eq!(threshold("square:19"), 7);
        assert_eq!(std::mem::size_of::<Node<gobeyond_rules::classic::Action>>(), 64);
    }

    fn most_visited<A: Copy>(n: &Node<A>) -> (usize, &Node<A>) {
        n.children().iter().enumerate().max_by_key(|(_, c)| c.visits()).unwrap()
    }

    /// Reuse keeps the subtree of the position reached, statistics and all, and frees the
    /// rest: the tree after two moves is exactly that subtree, and it goes on growing.
    #[test]
    fn a_reused_tree_keeps_the_subtree_and_nothing_else() {
        let mut game = empty("square:9");
        let mut s = Searcher::new(SearchConfig { playouts: 3000, seed: 3, ..SearchConfig::default() });
        assert_eq!(s.search(&game).playouts, 3000);
        let root = &s.tree.as_ref().unwrap().root;
        let first = most_visited(root).1;
        let second = most_visited(first).1;
        let (visits, value) = (second.visits(), second.value.get());
        let size = {
            fn count<A: Copy>(n: &Node<A>) -> usize {
                1 + n.children().iter().map(count).sum::<usize>()
            }
            count(second)
        };
        assert!(size > 1 && size < s.node_count(), "{size} of {}", s.node_count());
        for a in [first.action.unwrap(), second.action.unwrap()] {
            game.play(a).unwrap();
        }
        s.config.playouts = 500;
        s.search(&game);
        let root = &s.tree.as_ref().unwrap().root;
        assert_eq!(root.visits(), visits + 500);
        assert!(root.value.get() >= value);
        assert!(s.node_count() > size && s.memory() == s.node_count() * Searcher::<ClassicGame>::node_size());
        // A position off the tree's game starts a new tree.
        s.config.playouts = 1;
        s.search(&empty("square:9"));
        assert_eq!(s.tree.as_ref().unwrap().root.visits(), 1);
    }

    /// A game taken back and played otherwise to the same length is not the tree's game.
    #[test]
    fn a_different_game_of_the_same_length_starts_a_new_tree() {
        let (mut a, mut b) = (empty("square:9"), empty("square:9"));
        a.play(classic::Action::Place(10)).unwrap();
        b.play(classic::Action::Place(11)).unwrap();
        let mut s = Searcher::new(SearchConfig { playouts: 300, ..SearchConfig::default() });
        s.search(&a);
        s.search(&b);
        assert_eq!(s.tree.as_ref().unwrap().root.visits(), 300);
    }

    /// A raised stop flag ends a search that has neither a playout budget nor a deadline (after
    /// each thread's first 16 simulations).
    #[test]
    fn a_stop_flag_ends_the_search() {
        let game = empty("square:9");
        let config = SearchConfig { playouts: u32::MAX, ..SearchConfig::default() };
        let raised = AtomicBool::new(true);
        assert_eq!(Searcher::new(config.clone()).search_until(&game, Some(&raised)).playouts, 16);
        let mut searcher = Searcher::new(SearchConfig { threads: 2, ..config });
        let stop = AtomicBool::new(false);
        let analysis = std::thread::scope(|s| {
            s.spawn(|| {
                std::thread::sleep(Duration::from_millis(100));
                stop.store(true, Relaxed);
            });
            searcher.search_until(&game, Some(&stop))
        });
        assert!(analysis.playouts > 0 && analysis.playouts < u32::MAX);
        assert!(analysis.best.is_some());
    }

    /// Two threads share one tree: every playout lands in it, and it holds the nodes of both
    /// (one tree as big as the playouts, not two half trees).
    #[test]
    fn threads_share_one_tree() {
        let game = empty("square:9");
        let run = |threads| {
            let mut s = Searcher::new(SearchConfig { playouts: 4000, threads, ..SearchConfig::default() });
            let a = s.search(&game);
            (a.playouts, a.actions.iter().map(|a| a.visits).sum::<u32>(), s.node_count())
        };
        let (one, two) = (run(1), run(2));
        assert_eq!((one.0, one.1), (4000, 4000));
        // A thread that finds the root being expanded plays out from the root itself.
        assert!(
            two.0 == 4000 && two.1 >= 4000 - 16,
            "{two:?}: playouts of both threads in the root's children"
        );
        // Expansions are per playout whichever thread plays it (races lose at most a few).
        assert!(two.2 * 10 > one.2 * 9, "{two:?} against {one:?}");
    }
}
