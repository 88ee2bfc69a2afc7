//! Monte-Carlo tree search with UCT and RAVE over any [`Searchable`] rule system.
//!
//! - The tree is an arena of fixed-size blocks: children of a node are contiguous in one block,
//!   created all at once when the node is expanded; blocks are never moved or copied, so the
//!   memory budget ([`SearchConfig::memory`]) holds during a search: at the budget the tree
//!   stops growing and the search goes on with playouts from its leaves.
//! - Memory per playout is bounded too: a node is expanded only after enough visits to pay
//!   for its children at [`SearchConfig::bytes_per_playout`] (on 9×9 that is the first visit,
//!   on 19×19 about the seventh).
//! - N players (max^n): every node keeps the rewards of the player who chose it, the only one
//!   who reads them: at a node, the player to move picks the child that is best for them.
//! - RAVE/AMAF: a child also collects the results of simulations in which its mover played the
//!   same node later on; the blend weight follows Gelly & Silver's equivalence parameter.
//! - Root parallelism: each thread grows its own tree with its own seed; the root statistics are
//!   summed. With a playout budget the result depends on the seed only.
//! - Tree reuse: a tree follows the moves played since its last search when it has them, and
//!   keeps only the subtree of the new position (copied into a fresh arena: what the old root's
//!   other branches held is freed, so a tree reused move after move, or grown while pondering,
//!   still has room to grow).
//! - A search stops at its playout budget, its deadline, or when a stop flag is raised (GTP
//!   pondering stops when the controller's next command arrives).

use std::{
    sync::{
        Arc,
        atomic::{AtomicBool, Ordering},
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
    /// Most bytes of tree per thread. At the budget the tree stops growing (the search goes on).
    pub memory: usize,
    /// Classic Go's tree priors from the learned move patterns (else the hand-written ones).
    pub patterns: bool,
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
            bytes_per_playout: 2048,
            memory: 256 << 20,
            patterns: true,
        }
    }
}

#[derive(Debug, Clone)]
struct Node<A> {
    action: Option<A>,
    /// Sum of the rewards of `mover` over the visits.
    value: f32,
    amaf_visits: f32,
    amaf_value: f32,
    prior_visits: f32,
    prior_value: f32,
    visits: u32,
    first_child: u32,
    children: u32,
    /// The player who chose this node's action.
    mover: u8,
    expanded: bool,
}

impl<A> Node<A> {
    fn new(action: Option<A>, mover: u8, prior: crate::searchable::Prior) -> Node<A> {
        Node {
            action,
            value: 0.0,
            amaf_visits: 0.0,
            amaf_value: 0.0,
            prior_visits: prior.visits,
            prior_value: prior.value,
            visits: 0,
            first_child: 0,
            children: 0,
            mover,
            expanded: false,
        }
    }

    /// The mean reward of the node's mover, priors included.
    fn mean(&self) -> f32 {
        let n = self.visits as f32 + self.prior_visits;
        if n == 0.0 { 0.5 } else { (self.value + self.prior_value * self.prior_visits) / n }
    }
}

/// Nodes in blocks of `BLOCK` that never move: no copy on growth, so the tree's memory is
/// what it holds and no more. A node's children are contiguous inside one block.
#[derive(Debug)]
struct Arena<A> {
    blocks: Vec<Vec<Node<A>>>,
    len: u32,
}

const BLOCK_BITS: u32 = 14;
const BLOCK: usize = 1 << BLOCK_BITS;

impl<A> Arena<A> {
    fn new() -> Arena<A> {
        Arena { blocks: Vec::new(), len: 0 }
    }

    fn clear(&mut self) {
        // Keep the first block: the next search fills it again.
        self.blocks.truncate(1);
        if let Some(b) = self.blocks.first_mut() {
            b.clear();
        }
        self.len = 0;
    }

    /// Nodes in use (ids are sparse across blocks; this counts allocated blocks' worth).
    fn bytes(&self) -> usize {
        self.blocks.iter().map(|b| b.capacity()).sum::<usize>() * std::mem::size_of::<Node<A>>()
    }

    /// Room for `count` contiguous nodes: the id of the first, or `None` past `budget` bytes.
    fn reserve(&mut self, count: usize, budget: usize) -> Option<u32> {
        if count > BLOCK {
            return None;
        }
        let fits = self.blocks.last().is_some_and(|b| b.len() + count <= BLOCK);
        if !fits {
            let block_bytes = BLOCK * std::mem::size_of::<Node<A>>();
            if !self.blocks.is_empty() && self.bytes() + block_bytes > budget {
                return None;
            }
            self.blocks.push(Vec::with_capacity(BLOCK));
        }
        let b = self.blocks.len() - 1;
        Some(((b as u32) << BLOCK_BITS) | self.blocks[b].len() as u32)
    }

    /// Appends to the last block (after [`Arena::reserve`]).
    fn push(&mut self, node: Node<A>) -> u32 {
        let b = self.blocks.len() - 1;
        let id = ((b as u32) << BLOCK_BITS) | self.blocks[b].len() as u32;
        self.blocks[b].push(node);
        self.len += 1;
        id
    }
}

impl<A> std::ops::Index<u32> for Arena<A> {
    type Output = Node<A>;
    #[inline]
    fn index(&self, id: u32) -> &Node<A> {
        &self.blocks[(id >> BLOCK_BITS) as usize][(id as usize) & (BLOCK - 1)]
    }
}

impl<A> std::ops::IndexMut<u32> for Arena<A> {
    #[inline]
    fn index_mut(&mut self, id: u32) -> &mut Node<A> {
        &mut self.blocks[(id >> BLOCK_BITS) as usize][(id as usize) & (BLOCK - 1)]
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

/// One thread's tree.
#[derive(Debug)]
pub struct Tree<G: Searchable> {
    nodes: Arena<G::Action>,
    root: u32,
    game: G,
    /// The position each simulation plays on, overwritten from `game` without allocating.
    scratch: Option<G>,
    ws: Workspace,
    rng: Rng,
    path: Vec<u32>,
    /// For each depth of `path`, how many placements `played` held when it was reached.
    played_at_depth: Vec<usize>,
    played: Vec<(Player, NodeId)>,
    actions: Vec<G::Action>,
    /// AMAF lookup: per node id, `generation << 8 | (player + 1)` of its first play in a suffix.
    amaf: Vec<u64>,
    generation: u64,
    ownership: Vec<u32>,
    owner_samples: u32,
}

impl<G: Searchable> Tree<G> {
    pub fn new(game: &G, tables: Arc<PlayoutTables>, seed: u64) -> Tree<G> {
        let game = game.search_copy();
        let n = game.map().len();
        let ws = Workspace::new(game.map(), tables);
        let mut t = Tree {
            nodes: Arena::new(),
            root: 0,
            scratch: None,
            ws,
            rng: Rng::new(seed),
            path: Vec::new(),
            played_at_depth: Vec::new(),
            played: Vec::new(),
            actions: Vec::new(),
            amaf: vec![0; n],
            generation: 0,
            ownership: vec![0; n * MAX_PLAYERS],
            owner_samples: 0,
            game,
        };
        t.reset();
        t
    }

    fn reset(&mut self) {
        self.nodes.clear();
        let _ = self.nodes.reserve(1, usize::MAX);
        self.root = self.nodes.push(Node::new(None, 0, crate::searchable::Prior { visits: 0.0, value: 0.5 }));
    }

    /// Bytes the tree's nodes take.
    pub fn memory(&self) -> usize {
        self.nodes.bytes()
    }

    /// Nodes in the tree.
    pub fn node_count(&self) -> usize {
        self.nodes.len as usize
    }

    /// Moves the root to `game`, keeping the subtree of `game`'s position when `game` continues
    /// the tree's game; the rest of the tree is dropped.
    pub fn advance(&mut self, game: &G) {
        let (from, to) = (self.game.action_count(), game.action_count());
        let mut node = (to >= from).then_some(self.root);
        for i in from..to {
            let Some(at) = node else { break };
            let a = game.action_at(i);
            let n = &self.nodes[at];
            node = a.and_then(|a| {
                (n.first_child..n.first_child + n.children).find(|&c| self.nodes[c].action == Some(a))
            });
        }
        self.game = game.search_copy();
        self.ownership.fill(0);
        self.owner_samples = 0;
        match node {
            Some(n) if n == self.root => {}
            Some(n) => self.keep_only(n),
            None => self.reset(),
        }
    }

    /// Makes `keep` the root of a fresh arena holding its subtree and nothing else.
    fn keep_only(&mut self, keep: u32) {
        let mut fresh = Arena::new();
        let _ = fresh.reserve(1, usize::MAX);
        let root = fresh.push(self.nodes[keep].clone());
        // (id in `fresh`, id in the old arena) of nodes whose children are still to copy.
        let mut todo = vec![(root, keep)];
        while let Some((new, old)) = todo.pop() {
            let (first, count) = (self.nodes[old].first_child, self.nodes[old].children);
            if count == 0 {
                continue;
            }
            // The subtree fits: it was part of a tree under the same budget.
            let Some(start) = fresh.reserve(count as usize, usize::MAX) else { continue };
            for c in first..first + count {
                let id = fresh.push(self.nodes[c].clone());
                todo.push((id, c));
            }
            fresh[new].first_child = start;
        }
        self.nodes = fresh;
        self.root = root;
    }

    /// Creates the children of `at`, unless the memory budget is reached (then `at` stays a
    /// leaf and simulations through it play out from there).
    fn expand(&mut self, at: u32, game: &G, config: &SearchConfig) -> bool {
        game.legal_actions(&mut self.actions);
        let Some(first) = self.nodes.reserve(self.actions.len(), config.memory) else {
            return false;
        };
        let mover = game.to_move().map_or(0, |p| p.0);
        for i in 0..self.actions.len() {
            let a = self.actions[i];
            let prior = game.prior(a, &mut self.ws);
            self.nodes.push(Node::new(Some(a), mover, prior));
        }
        let n = &mut self.nodes[at];
        n.first_child = first;
        n.children = self.actions.len() as u32;
        n.expanded = true;
        true
    }

    /// Visits before a node is expanded: `expand_after`, or more on big maps so that a
    /// playout adds about `bytes_per_playout` of tree (rounded down: 9×9 still expands at the
    /// first revisit, 19×19 at the seventh).
    fn expand_threshold(&self, config: &SearchConfig) -> u32 {
        let children = self.game.map().len() * std::mem::size_of::<Node<G::Action>>();
        let paid = children / config.bytes_per_playout.max(1);
        config.expand_after.max(paid as u32)
    }

    fn select(&self, at: u32, config: &SearchConfig) -> u32 {
        let parent = &self.nodes[at];
        let log_n = (parent.visits as f32 + 1.0).ln();
        let mut best = parent.first_child;
        let mut best_value = f32::NEG_INFINITY;
        for c in parent.first_child..parent.first_child + parent.children {
            let child = &self.nodes[c];
            let n = child.visits as f32 + child.prior_visits;
            let q = child.mean();
            let an = child.amaf_visits;
            let blended = if an > 0.0 {
                let beta = an / (an + n + n * an / config.rave_equivalence);
                (1.0 - beta) * q + beta * (child.amaf_value / an)
            } else {
                q
            };
            let value = blended + config.exploration * (log_n / (n + 1.0)).sqrt();
            if value > best_value {
                best_value = value;
                best = c;
            }
        }
        best
    }

    /// One simulation: descend, expand, play out, back up.
    fn simulate(&mut self, config: &SearchConfig, threshold: u32) {
        let mut game = match self.scratch.take() {
            _ if self.game.has_hidden_information() => {
                let me = self.game.to_move().unwrap_or(Player(0));
                self.game.determinize(me, &mut self.rng)
            }
            Some(mut g) => {
                g.clone_from(&self.game);
                g
            }
            None => self.game.clone(),
        };
        self.path.clear();
        self.played_at_depth.clear();
        self.played.clear();
        self.path.push(self.root);
        self.played_at_depth.push(0);
        let mut at = self.root;
        loop {
            while game.sample_chance(&mut self.rng) {}
            if game.to_move().is_none() {
                break;
            }
            let node = &self.nodes[at];
            if !node.expanded {
                if at != self.root && node.visits < threshold {
                    break;
                }
                if !self.expand(at, &game, config) {
                    break;
                }
            }
            if self.nodes[at].children == 0 {
                break;
            }
            let child = self.select(at, config);
            let Some(action) = self.nodes[child].action else { break };
            let mover = Player(self.nodes[child].mover);
            if game.play(action).is_err() {
                if self.game.has_hidden_information() {
                    // Another deal of the hidden cards: an action found legal in one need not
                    // be in this one. Play out from here.
                    break;
                }
                // Cannot happen with legal_actions; never let it corrupt the statistics.
                self.nodes[child].prior_value = 0.0;
                self.nodes[child].prior_visits = 1e6;
                self.scratch = Some(game);
                return;
            }
            if let Some(k) = G::amaf_key(action) {
                self.played.push((mover, k));
            }
            self.path.push(child);
            self.played_at_depth.push(self.played.len());
            at = child;
            if self.nodes[child].visits == 0 {
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
        for &n in &self.path {
            let node = &mut self.nodes[n];
            node.visits += 1;
            node.value += rewards[node.mover as usize];
        }
        self.update_amaf(&rewards);
    }

    /// AMAF: for every node on the path, each child whose node its mover played later on.
    fn update_amaf(&mut self, rewards: &Rewards) {
        self.generation += 1;
        let stamp = self.generation << 8;
        let mut j = self.played.len();
        for d in (0..self.path.len()).rev() {
            // Walking back, the earliest play of each node in `played[start..]` wins.
            let start = self.played_at_depth[d];
            while j > start {
                j -= 1;
                let (p, key) = self.played[j];
                self.amaf[key as usize] = stamp | (p.0 as u64 + 1);
            }
            let parent = &self.nodes[self.path[d]];
            let (first, count) = (parent.first_child, parent.children);
            for c in first..first + count {
                let child = &mut self.nodes[c];
                let Some(key) = child.action.and_then(G::amaf_key) else { continue };
                if self.amaf[key as usize] == stamp | (child.mover as u64 + 1) {
                    child.amaf_visits += 1.0;
                    child.amaf_value += rewards[child.mover as usize];
                }
            }
        }
    }

    /// Runs simulations until `playouts`, `deadline`, or `stop` is raised.
    pub fn run(
        &mut self,
        config: &SearchConfig,
        playouts: u32,
        deadline: Option<Instant>,
        stop: Option<&AtomicBool>,
    ) -> u32 {
        self.ws.patterns = config.patterns;
        self.ws.tactics = config.policy != Policy::Light;
        let threshold = self.expand_threshold(config);
        let mut done = 0;
        while done < playouts {
            if done % 16 == 0
                && (deadline.is_some_and(|d| Instant::now() >= d)
                    || stop.is_some_and(|s| s.load(Ordering::Relaxed)))
            {
                break;
            }
            self.simulate(config, threshold);
            done += 1;
        }
        done
    }

    fn root_stats(&self) -> Vec<ActionStats<G::Action>> {
        let root = &self.nodes[self.root];
        (root.first_child..root.first_child + root.children)
            .filter_map(|c| {
                let n = &self.nodes[c];
                Some(ActionStats { action: n.action?, visits: n.visits, value: n.mean() })
            })
            .collect()
    }
}

/// A search over several threads (root parallelism), keeping its trees between moves.
#[derive(Debug)]
pub struct Searcher<G: Searchable> {
    pub config: SearchConfig,
    tables: Option<Arc<PlayoutTables>>,
    trees: Vec<Tree<G>>,
}

impl<G: Searchable> Searcher<G> {
    pub fn new(config: SearchConfig) -> Searcher<G> {
        Searcher { config, tables: None, trees: Vec::new() }
    }

    /// A new seed for the next game: the trees start again from it.
    pub fn reseed(&mut self, seed: u64) {
        self.config.seed = seed;
        self.trees.clear();
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
            && self.trees.first().is_some_and(|t| Arc::ptr_eq(t.game.map(), game.map()));
        if !same_map || self.trees.len() != threads {
            let tables = Arc::new(PlayoutTables::new(game.map()));
            self.trees = (0..threads)
                .map(|i| {
                    Tree::new(game, tables.clone(), self.config.seed.wrapping_add(i as u64 * 0x9e37_79b9))
                })
                .collect();
            self.tables = Some(tables);
        } else {
            for t in &mut self.trees {
                t.advance(game);
            }
        }
        let config = &self.config;
        let share = config.playouts.div_ceil(threads as u32);
        let done: u32 = if threads == 1 {
            self.trees[0].run(config, share, deadline, stop)
        } else {
            std::thread::scope(|s| {
                let handles: Vec<_> = self
                    .trees
                    .iter_mut()
                    .map(|t| s.spawn(move || t.run(config, share, deadline, stop)))
                    .collect();
                handles.into_iter().map(|h| h.join().unwrap_or(0)).sum()
            })
        };
        self.analysis(game, done, start.elapsed())
    }

    /// Bytes the trees take now (all threads).
    pub fn memory(&self) -> usize {
        self.trees.iter().map(Tree::memory).sum()
    }

    /// Nodes in the trees now (all threads).
    pub fn node_count(&self) -> usize {
        self.trees.iter().map(Tree::node_count).sum()
    }

    /// The size of one tree node of this system's search, in bytes.
    pub fn node_size() -> usize {
        std::mem::size_of::<Node<G::Action>>()
    }

    fn analysis(&self, game: &G, playouts: u32, elapsed: Duration) -> Analysis<G::Action> {
        let mut merged: Vec<ActionStats<G::Action>> = Vec::new();
        for t in &self.trees {
            for s in t.root_stats() {
                match merged.iter_mut().find(|m| m.action == s.action) {
                    Some(m) => {
                        let total = m.visits + s.visits;
                        if total > 0 {
                            m.value = (m.value * m.visits as f32 + s.value * s.visits as f32) / total as f32;
                        }
                        m.visits = total;
                    }
                    None => merged.push(s),
                }
            }
        }
        // Most visited first; ties by value, then by order (deterministic).
        merged.sort_by(|a, b| b.visits.cmp(&a.visits).then(b.value.total_cmp(&a.value)));
        let n = game.map().len();
        let samples: u32 = self.trees.iter().map(|t| t.owner_samples).sum();
        let ownership = (0..n)
            .map(|v| {
                let mut o = [0.0; MAX_PLAYERS];
                for (p, slot) in o.iter_mut().enumerate() {
                    let count: u32 = self.trees.iter().map(|t| t.ownership[v * MAX_PLAYERS + p]).sum();
                    *slot = if samples > 0 { count as f32 / samples as f32 } else { 0.0 };
                }
                o
            })
            .collect();
        let best = merged.first().map(|m| game.review_choice(m.action));
        Analysis { best, actions: merged, playouts, elapsed, ownership }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use gobeyond_rules::{ClassicGame, ClassicRules, Game};

    /// 9×9 keeps expanding at the first revisit (its strength figures stand); 19×19 waits until
    /// its visits pay for its 361 children at 2 KB per playout.
    #[test]
    fn expansion_waits_on_big_maps_only() {
        let threshold = |spec: &str| {
            let map = Arc::new(gobeyond_maps::generate(spec).unwrap());
            let game = ClassicGame::new(map.clone(), 2, ClassicRules::default()).unwrap();
            let tree = Tree::new(&game, Arc::new(PlayoutTables::new(&map)), 1);
            tree.expand_threshold(&SearchConfig::default())
        };
        assert_eq!(threshold("square:9"), 1);
        assert_eq!(threshold("square:19"), 7);
        assert_eq!(std::mem::size_of::<Node<gobeyond_rules::classic::Action>>(), 44);
    }

    /// Nodes in the subtree under `at`, `at` included.
    fn subtree<G: Searchable>(t: &Tree<G>, at: u32) -> usize {
        let n = &t.nodes[at];
        1 + (n.first_child..n.first_child + n.children).map(|c| subtree(t, c)).sum::<usize>()
    }

    /// Reuse keeps the subtree of the position reached, statistics and all, and frees the
    /// rest: the tree after two moves is exactly that subtree, and it goes on growing.
    #[test]
    fn a_reused_tree_keeps_the_subtree_and_nothing_else() {
        let map = Arc::new(gobeyond_maps::generate("square:9").unwrap());
        let mut game = ClassicGame::new(map.clone(), 2, ClassicRules::default()).unwrap();
        let mut tree = Tree::new(&game, Arc::new(PlayoutTables::new(&map)), 3);
        let config = SearchConfig::default();
        assert_eq!(tree.run(&config, 3000, None, None), 3000);
        // The most visited reply to the most visited move.
        let best = |t: &Tree<ClassicGame>, at: u32| {
            let n = &t.nodes[at];
            (n.first_child..n.first_child + n.children).max_by_key(|&c| t.nodes[c].visits).unwrap()
        };
        let (first, second) = (best(&tree, tree.root), best(&tree, best(&tree, tree.root)));
        let (visits, value, size) =
            (tree.nodes[second].visits, tree.nodes[second].value, subtree(&tree, second));
        assert!(size > 1 && size < tree.node_count(), "{size} of {}", tree.node_count());
        for n in [first, second] {
            game.play(tree.nodes[n].action.unwrap()).unwrap();
        }
        tree.advance(&game);
        assert_eq!((tree.node_count(), subtree(&tree, tree.root)), (size, size));
        let root = &tree.nodes[tree.root];
        assert_eq!((root.visits, root.value), (visits, value));
        assert_eq!(tree.run(&config, 500, None, None), 500);
        assert_eq!(tree.nodes[tree.root].visits, visits + 500);
        // A position off the tree's game starts a new tree.
        let other = ClassicGame::new(map.clone(), 2, ClassicRules::default()).unwrap();
        tree.advance(&other);
        assert_eq!(tree.node_count(), 1);
    }

    /// A raised stop flag ends a search that has neither a playout budget nor a deadline.
    #[test]
    fn a_stop_flag_ends_the_search() {
        let map = Arc::new(gobeyond_maps::generate("square:9").unwrap());
        let game = ClassicGame::new(map.clone(), 2, ClassicRules::default()).unwrap();
        let mut tree = Tree::new(&game, Arc::new(PlayoutTables::new(&map)), 3);
        let stop = AtomicBool::new(true);
        assert_eq!(tree.run(&SearchConfig::default(), u32::MAX, None, Some(&stop)), 0);
        let mut searcher =
            Searcher::new(SearchConfig { playouts: u32::MAX, threads: 2, ..SearchConfig::default() });
        let stop = AtomicBool::new(false);
        let analysis = std::thread::scope(|s| {
            s.spawn(|| {
                std::thread::sleep(Duration::from_millis(100));
                stop.store(true, Ordering::SeqCst);
            });
            searcher.search_until(&game, Some(&stop))
        });
        assert!(analysis.playouts > 0 && analysis.playouts < u32::MAX);
        assert!(analysis.best.is_some());
    }
}
