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
//! - A search stops at its playout budget, its deadline, or when a stop flag is raised (GTP
//!   pondering stops when the controller's next command arrives).

use std::{
    sync::{
        Arc, OnceLock,
        atomic::{AtomicBool, AtomicU32, AtomicUsize, Ordering::Relaxed},
    },
    time::{Duration, Instant},
};

use gobeyond_maps::NodeId;
use gobeyond_rules::{MAX_PLAYERS, Player, Rng, playout::PlayoutTables};

use crate::{
    policy::Policy,
    searchable::{Rewards, Searchable, Workspace},
};

/// How a search is run.
#[derive(Debug, Clone, PartialEq)]
pub struct SearchConfig {
    /// Playouts per move, over all threads.
    pub playouts: u32,
    /// Time per move; the search stops at whichever limit comes first.
    pub time: Option<Duration>,
    pub threads: usize,
    pub seed: u64,
    pub policy: Policy,
    /// UCT exploration constant (small: RAVE and priors do most of the exploring).
    pub exploration: f32,
    /// RAVE equivalence parameter: after about this many real visits AMAF counts for half.
    pub rave_equivalence: f32,
    /// Visits a node needs before it is expanded (at least; see `bytes_per_playout`).
    pub expand_after: u32,
    /// Tree memory per playout, on average, that expansion may use: a node with `c` children
    /// is expanded after `c × node size / bytes_per_playout` visits, if that is more than
    /// `expand_after`.
    pub bytes_per_playout: usize,
    /// Most bytes of tree per thread (the shared tree gets this times `threads`). At the budget
    /// the tree stops growing (the search goes on).
    pub memory: usize,
    /// Classic Go's tree priors from the learned move patterns (else the hand-written ones).
    pub patterns: bool,
    /// Share of a two-player classic playout's reward that is the score margin (0: wins
    /// only), see [`crate::searchable::with_margin`].
    pub score_bonus: f32,
}

impl Default for SearchConfig {
    fn default() -> Self {
        SearchConfig {
            playouts: 10_000,
            time: None,
            threads: 1,
            seed: 1,
            policy: Policy::Tactics,
            exploration: 0.1,
            rave_equivalence: 1000.0,
            expand_after: 1,
            bytes_per_playout: 3072,
            memory: 256 << 20,
            patterns: true,
            score_bonus: 0.0,
        }
    }
}

/// An `f32` shared between threads without locks: `add` is a load and a store, so two threads
/// adding in the same instant may lose one of the additions (never tear the value).
#[derive(Debug, Default)]
struct SharedF32(AtomicU32);

impl SharedF32 {
    fn new(v: f32) -> SharedF32 {
        SharedF32(AtomicU32::new(v.to_bits()))
    }

    #[inline]
    fn get(&self) -> f32 {
        f32::from_bits(self.0.load(Relaxed))
    }

    #[inline]
    fn set(&self, v: f32) {
        self.0.store(v.to_bits(), Relaxed);
    }

    #[inline]
    fn add(&self, d: f32) {
        self.set(self.get() + d);
    }
}

#[derive(Debug)]
struct Node<A> {
    action: Option<A>,
    /// The player who chose this node's action.
    mover: u8,
    /// Visits, counted when a simulation goes down through the node (before its result is
    /// known: a virtual loss for the other threads until `value` gets the reward).
    visits: AtomicU32,
    /// Sum of the rewards of `mover` over the visits backed up.
    value: SharedF32,
    amaf_visits: SharedF32,
    amaf_value: SharedF32,
    prior_visits: SharedF32,
    prior_value: SharedF32,
    /// Created at once by the thread that claimed `expanding`.
    children: OnceLock<Box<[Node<A>]>>,
    /// Claimed by the one thread that expands the node; left claimed when the memory budget
    /// refused the children (the node stays a leaf for this search).
    expanding: AtomicBool,
}

impl<A: Copy> Node<A> {
    fn new(action: Option<A>, mover: u8, prior: crate::searchable::Prior) -> Node<A> {
        Node {
            action,
            mover,
            visits: AtomicU32::new(0),
            value: SharedF32::default(),
            amaf_visits: SharedF32::default(),
            amaf_value: SharedF32::default(),
            prior_visits: SharedF32::new(prior.visits),
            prior_value: SharedF32::new(prior.value),
            children: OnceLock::new(),
            expanding: AtomicBool::new(false),
        }
    }

    fn root() -> Node<A> {
        Node::new(None, 0, crate::searchable::Prior { visits: 0.0, value: 0.5 })
    }

    fn visits(&self) -> u32 {
        self.visits.load(Relaxed)
    }

    fn children(&self) -> &[Node<A>] {
        self.children.get().map_or(&[], |c| c)
    }

    /// The mean reward of the node's mover, priors included (a visit under way counts as a
    /// loss until it is backed up).
    fn mean(&self) -> f32 {
        let prior_visits = self.prior_visits.get();
        let n = self.visits() as f32 + prior_visits;
        if n == 0.0 { 0.5 } else { (self.value.get() + self.prior_value.get() * prior_visits) / n }
    }

    /// Nodes of the subtree (this one included); leaves refused by the last search's memory
    /// budget may be expanded again.
    fn recount(&mut self) -> usize {
        match self.children.get_mut() {
            Some(children) => 1 + children.iter_mut().map(Node::recount).sum::<usize>(),
            None => {
                *self.expanding.get_mut() = false;
                1
            }
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

/// The search tree all threads share, and the position at its root.
#[derive(Debug)]
struct Tree<G: Searchable> {
    root: Node<G::Action>,
    game: G,
    /// Nodes below the root, and their bytes (checked against the budget before expanding).
    nodes: AtomicUsize,
    bytes: AtomicUsize,
    /// Playouts claimed in the current search (the budget is shared by the threads).
    claimed: AtomicU32,
}

impl<G: Searchable> Tree<G> {
    fn new(game: &G) -> Tree<G> {
        Tree {
            root: Node::root(),
            game: game.search_copy(),
            nodes: AtomicUsize::new(0),
            bytes: AtomicUsize::new(0),
            claimed: AtomicU32::new(0),
        }
    }

    /// Moves the root to `game`, keeping the subtree of `game`'s position when `game` continues
    /// the tree's game; the rest of the tree is freed.
    fn advance(&mut self, game: &G) {
        let (from, to) = (self.game.action_count(), game.action_count());
        // The same game so far (not one taken back and played otherwise to the same length).
        let continues = to >= from && (0..from).all(|i| game.action_at(i) == self.game.action_at(i));
        let mut path = Vec::new();
        let mut node = continues.then_some(&self.root);
        for i in from..to {
            let Some(at) = node else { break };
            let a = game.action_at(i);
            node = a.and_then(|a| {
                let k = at.children().iter().position(|c| c.action == Some(a))?;
                path.push(k);
                at.children().get(k)
            });
        }
        let found = node.is_some();
        self.game = game.search_copy();
        if !found {
            self.root = Node::root();
        }
        for k in path {
            let Some(child) = self.root.children.get_mut().and_then(|c| c.get_mut(k)) else { break };
            let child = std::mem::replace(child, Node::root());
            self.root = child;
        }
        let below = self.root.recount() - 1;
        self.nodes.store(below, Relaxed);
        self.bytes.store(below * std::mem::size_of::<Node<G::Action>>(), Relaxed);
    }

    /// Visits before a node is expanded: `expand_after`, or more on big maps so that a
    /// playout adds about `bytes_per_playout` of tree (rounded down: 9×9 still expands at the
    /// first revisit, 19×19 at the seventh).
    fn expand_threshold(&self, config: &SearchConfig) -> u32 {
        let children = self.game.map().len() * std::mem::size_of::<Node<G::Action>>();
        let paid = children / config.bytes_per_playout.max(1);
        config.expand_after.max(paid as u32)
    }

    fn root_stats(&self) -> Vec<ActionStats<G::Action>> {
        self.root
            .children()
            .iter()
            .filter_map(|n| Some(ActionStats { action: n.action?, visits: n.visits(), value: n.mean() }))
            .collect()
    }
}

/// One thread's share of a search: its own position to play on, random numbers, workspace and
/// ownership counts; the tree is shared.
#[derive(Debug)]
struct Worker<G: Searchable> {
    /// The position each simulation plays on, overwritten from the root's without allocating.
    scratch: Option<G>,
    ws: Workspace,
    rng: Rng,
    /// For each depth of the path, how many placements `played` held when it was reached.
    played_at_depth: Vec<usize>,
    played: Vec<(Player, NodeId)>,
    actions: Vec<G::Action>,
    /// AMAF lookup: per node id, `generation << 8 | (player + 1)` of its first play in a suffix.
    amaf: Vec<u64>,
    generation: u64,
    ownership: Vec<u32>,
    owner_samples: u32,
}

impl<G: Searchable> Worker<G> {
    fn new(game: &G, tables: Arc<PlayoutTables>, seed: u64) -> Worker<G> {
        let n = game.map().len();
        Worker {
            scratch: None,
            ws: Workspace::new(game.map(), tables),
            rng: Rng::new(seed),
            played_at_depth: Vec::new(),
            played: Vec::new(),
            actions: Vec::new(),
            amaf: vec![0; n],
            generation: 0,
            ownership: vec![0; n * MAX_PLAYERS],
            owner_samples: 0,
        }
    }

    /// Creates the children of `at` if this thread is the first to claim it and the memory
    /// budget allows; false leaves `at` a leaf for this simulation.
    fn expand(&mut self, tree: &Tree<G>, at: &Node<G::Action>, game: &G, budget: usize) -> bool {
        if at.expanding.swap(true, Relaxed) {
            return false;
        }
        game.legal_actions(&mut self.actions);
        let bytes = self.actions.len() * std::mem::size_of::<Node<G::Action>>();
        if tree.bytes.fetch_add(bytes, Relaxed) + bytes > budget {
            tree.bytes.fetch_sub(bytes, Relaxed);
            return false;
        }
        tree.nodes.fetch_add(self.actions.len(), Relaxed);
        let mover = game.to_move().map_or(0, |p| p.0);
        let children: Box<[Node<G::Action>]> =
            self.actions.iter().map(|&a| Node::new(Some(a), mover, game.prior(a, &mut self.ws))).collect();
        let _ = at.children.set(children);
        true
    }

    fn select<'t>(at: &'t Node<G::Action>, config: &SearchConfig) -> Option<&'t Node<G::Action>> {
        let log_n = (at.visits() as f32 + 1.0).ln();
        let mut best = None;
        let mut best_value = f32::NEG_INFINITY;
        for child in at.children() {
            let n = child.visits() as f32 + child.prior_visits.get();
            let q = child.mean();
            let an = child.amaf_visits.get();
            let blended = if an > 0.0 {
                let beta = an / (an + n + n * an / config.rave_equivalence);
                (1.0 - beta) * q + beta * (child.amaf_value.get() / an)
            } else {
                q
            };
            let value = blended + config.exploration * (log_n / (n + 1.0)).sqrt();
            if value > best_value {
                best_value = value;
                best = Some(child);
            }
        }
        best
    }

    /// One simulation: descend, expand, play out, back up.
    fn simulate(&mut self, tree: &Tree<G>, config: &SearchConfig, threshold: u32, budget: usize) {
        let mut game = match self.scratch.take() {
            _ if tree.game.has_hidden_information() => {
                let me = tree.game.to_move().unwrap_or(Player(0));
                tree.game.determinize(me, &mut self.rng)
            }
            Some(mut g) => {
                g.clone_from(&tree.game);
                g
            }
            None => tree.game.clone(),
        };
        let mut path: Vec<&Node<G::Action>> = Vec::with_capacity(32);
        self.played_at_depth.clear();
        self.played.clear();
        tree.root.visits.fetch_add(1, Relaxed);
        path.push(&tree.root);
        self.played_at_depth.push(0);
        let mut at = &tree.root;
        loop {
            while game.sample_chance(&mut self.rng) {}
            if game.to_move().is_none() {
                break;
            }
            if at.children.get().is_none() {
                // `visits` counts this simulation already.
                let is_root = std::ptr::eq(at, &tree.root);
                if !is_root && at.visits() <= threshold {
                    break;
                }
                if !self.expand(tree, at, &game, budget) {
                    break;
                }
            }
            let Some(child) = Self::select(at, config) else { break };
            let Some(action) = child.action else { break };
            let mover = Player(child.mover);
            if game.play(action).is_err() {
                if tree.game.has_hidden_information() {
                    // Another deal of the hidden cards: an action found legal in one need not
                    // be in this one. Play out from here.
                    break;
                }
                // Cannot happen with legal_actions; never let it corrupt the statistics.
                child.prior_value.set(0.0);
                child.prior_visits.set(1e6);
                self.scratch = Some(game);
                return;
            }
            if let Some(k) = G::amaf_key(action) {
                self.played.push((mover, k));
            }
            let first_visit = child.visits.fetch_add(1, Relaxed) == 0;
            path.push(child);
            self.played_at_depth.push(self.played.len());
            at = child;
            if first_visit {
                break;
            }
        }
        let rewards = if game.is_over() {
            game.final_rewards()
        } else {
            let r = game.playout(&mut self.ws, &mut self.rng, config.policy, &mut self.played);
            for (v, &o) in self.ws.owner.iter().enumerate() {
                if o != 0 {
                    self.ownership[v * MAX_PLAYERS + (o - 1) as usize] += 1;
                }
            }
            self.owner_samples += 1;
            r
        };
        self.scratch = Some(game);
        for node in &path {
            node.value.add(rewards[node.mover as usize]);
        }
        self.update_amaf(&path, &rewards);
    }

    /// AMAF: for every node on the path, each child whose node its mover played later on.
    fn update_amaf(&mut self, path: &[&Node<G::Action>], rewards: &Rewards) {
        self.generation += 1;
        let stamp = self.generation << 8;
        let mut j = self.played.len();
        for d in (0..path.len()).rev() {
            // Walking back, the earliest play of each node in `played[start..]` wins.
            let start = self.played_at_depth[d];
            while j > start {
                j -= 1;
                let (p, key) = self.played[j];
                self.amaf[key as usize] = stamp | (p.0 as u64 + 1);
            }
            for child in path[d].children() {
                let Some(key) = child.action.and_then(G::amaf_key) else { continue };
                if self.amaf[key as usize] == stamp | (child.mover as u64 + 1) {
                    child.amaf_visits.add(1.0);
                    child.amaf_value.add(rewards[child.mover as usize]);
                }
            }
        }
    }

    /// Runs simulations until the tree's shared playout budget is used, `deadline` passes, or
    /// `stop` is raised; returns this thread's simulations.
    fn run(
        &mut self,
        tree: &Tree<G>,
        config: &SearchConfig,
        deadline: Option<Instant>,
        stop: Option<&AtomicBool>,
    ) -> u32 {
        self.ws.patterns = config.patterns;
        self.ws.score_bonus = config.score_bonus;
        self.ws.tactics = config.policy != Policy::Light;
        let threshold = tree.expand_threshold(config);
        let budget = config.memory.saturating_mul(config.threads.max(1));
        let mut done = 0;
        loop {
            // A stop is heard after this thread's first 16 simulations, so that a search stopped
            // at once (a command right after `genmove`) still leaves a little tree behind.
            if done % 16 == 0
                && (deadline.is_some_and(|d| Instant::now() >= d)
                    || (done > 0 && stop.is_some_and(|s| s.load(Relaxed))))
            {
                break;
            }
            if tree.claimed.fetch_add(1, Relaxed) >= config.playouts {
                break;
            }
            self.simulate(tree, config, threshold, budget);
            done += 1;
        }
        done
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
        let start = Instant::now();
        if let Some(best) = game.quick_answer() {
            let ownership = vec![[0.0; MAX_PLAYERS]; game.map().len()];
            return Analysis {
                best: Some(best),
                actions: Vec::new(),
                playouts: 0,
                elapsed: start.elapsed(),
                ownership,
            };
        }
        let deadline = self.config.time.map(|t| start + t);
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
                    Worker::new(game, tables.clone(), self.config.seed.wrapping_add(i as u64 * 0x9e37_79b9))
                })
                .collect();
        }
        for w in &mut self.workers {
            w.ownership.fill(0);
            w.owner_samples = 0;
        }
        tree.claimed.store(0, Relaxed);
        let (config, tree) = (&self.config, &*tree);
        let done: u32 = match self.workers.as_mut_slice() {
            [one] => one.run(tree, config, deadline, stop),
            workers => std::thread::scope(|s| {
                let handles: Vec<_> = workers
                    .iter_mut()
                    .map(|w| s.spawn(move || w.run(tree, config, deadline, stop)))
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
        let best = actions.first().map(|m| game.review_choice(m.action));
        Analysis { best, actions, playouts, elapsed, ownership }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use gobeyond_rules::{ClassicGame, ClassicRules, Game, classic};

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
