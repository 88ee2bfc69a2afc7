//! One search thread: descends the shared tree, expands, plays out and backs up (see
//! [`super::mcts`] for the search as a whole).

use std::{
    sync::{
        Arc,
        atomic::{AtomicBool, Ordering::Relaxed},
    },
    time::Instant,
};

use gobeyond_maps::NodeId;
use gobeyond_rules::{MAX_PLAYERS, Player, Rng, playout::PlayoutTables};

use super::{
    mcts::{SearchConfig, TreePolicy},
    searchable::{Rewards, Searchable},
    tree::{Node, Tree},
};

/// One thread's share of a search: its own position to play on, random numbers, the rule
/// system's scratch and ownership counts; the tree is shared.
#[derive(Debug)]
pub(super) struct Worker<G: Searchable> {
    /// The position each simulation plays on, overwritten from the root's without allocating.
    position: Option<G>,
    tables: Arc<PlayoutTables>,
    scratch: G::Scratch,
    /// The configuration `scratch` was made for (a new one makes a new scratch).
    scratch_config: SearchConfig,
    /// The selection's constants for the game searched ([`TreePolicy::of`]).
    tree_policy: TreePolicy,
    rng: Rng,
    /// For each depth of the path, how many placements `played` held when it was reached.
    played_at_depth: Vec<usize>,
    played: Vec<(Player, NodeId)>,
    actions: Vec<G::Action>,
    /// AMAF lookup: per node id, `generation << 8 | (player + 1)` of its first play in a suffix.
    amaf: Vec<u64>,
    generation: u64,
    pub(super) ownership: Vec<u32>,
    pub(super) owner_samples: u32,
    /// Every seat's rewards and scores summed over this thread's simulations of the search.
    pub(super) root: RootTotals,
}

/// Sums of the simulations backed up at the root: each seat's reward, and its final score where
/// the system scored the end ([`Searchable::final_scores`]). Their means are the position's
/// value for every seat, not only the mover (a review shows them all, `docs/analysis.md`).
#[derive(Debug, Clone, Default)]
pub(super) struct RootTotals {
    rewards: [f64; MAX_PLAYERS],
    samples: u32,
    scores: [f64; MAX_PLAYERS],
    scored: u32,
}

impl RootTotals {
    fn add(&mut self, rewards: &Rewards, scores: Option<&[f32; MAX_PLAYERS]>) {
        self.samples += 1;
        for (sum, &r) in self.rewards.iter_mut().zip(rewards) {
            *sum += r as f64;
        }
        if let Some(scores) = scores {
            self.scored += 1;
            for (sum, &s) in self.scores.iter_mut().zip(scores) {
                *sum += s as f64;
            }
        }
    }

    pub(super) fn merge(&mut self, other: &RootTotals) {
        self.samples += other.samples;
        self.scored += other.scored;
        for i in 0..MAX_PLAYERS {
            self.rewards[i] += other.rewards[i];
            self.scores[i] += other.scores[i];
        }
    }

    /// Mean reward per seat (empty without a sample).
    pub(super) fn values(&self, seats: usize) -> Vec<f32> {
        if self.samples == 0 {
            return Vec::new();
        }
        self.rewards[..seats].iter().map(|&r| (r / self.samples as f64) as f32).collect()
    }

    /// Mean final score per seat (`None` when no simulation's end was scored).
    pub(super) fn scores(&self, seats: usize) -> Option<Vec<f32>> {
        (self.scored > 0)
            .then(|| self.scores[..seats].iter().map(|&s| (s / self.scored as f64) as f32).collect())
    }
}

impl<G: Searchable> Worker<G> {
    pub(super) fn new(game: &G, tables: Arc<PlayoutTables>, config: &SearchConfig, seed: u64) -> Worker<G> {
        let n = game.map().len();
        Worker {
            position: None,
            scratch: game.scratch(&tables, config),
            tables,
            scratch_config: config.clone(),
            tree_policy: TreePolicy::of(config, game),
            rng: Rng::new(seed),
            played_at_depth: Vec::new(),
            played: Vec::new(),
            actions: Vec::new(),
            amaf: vec![0; n],
            generation: 0,
            ownership: vec![0; n * MAX_PLAYERS],
            owner_samples: 0,
            root: RootTotals::default(),
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
        let children: Box<[Node<G::Action>]> = self
            .actions
            .iter()
            .map(|&a| Node::new(Some(a), mover, game.prior(a, &mut self.scratch)))
            .collect();
        let _ = at.children.set(children);
        true
    }

    fn select(at: &Node<G::Action>, policy: TreePolicy) -> Option<&Node<G::Action>> {
        let log_n = (at.visits() as f32 + 1.0).ln();
        let mut best = None;
        let mut best_value = f32::NEG_INFINITY;
        for child in at.children() {
            let n = child.visits() as f32 + child.prior_visits.get();
            let q = child.mean();
            let an = child.amaf_visits.get();
            let blended = if an > 0.0 {
                let beta = an / (an + n + n * an / policy.rave_equivalence);
                (1.0 - beta) * q + beta * (child.amaf_value.get() / an)
            } else {
                q
            };
            let value = blended + policy.exploration * (log_n / (n + 1.0)).sqrt();
            if value > best_value {
                best_value = value;
                best = Some(child);
            }
        }
        best
    }

    /// One simulation: descend, expand, play out, back up.
    fn simulate(&mut self, tree: &Tree<G>, config: &SearchConfig, threshold: u32, budget: usize) {
        let mut game = match self.position.take() {
            _ if config.determinize && tree.game.has_hidden_information() => {
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
        if !self.descend(tree, threshold, budget, &mut game, &mut path) {
            self.position = Some(game);
            return;
        }
        let rewards = if game.is_over() { game.final_rewards() } else { self.play_out(&mut game) };
        let mut scores = [0.0; MAX_PLAYERS];
        let scored = game.final_scores(&self.scratch, &mut scores);
        self.root.add(&rewards, scored.then_some(&scores));
        self.position = Some(game);
        for node in &path {
            node.value.add(rewards[node.mover as usize]);
        }
        self.update_amaf(&path, &rewards);
    }

    /// Goes down the tree from its root, expanding where due, to the first new node or a leaf;
    /// `path` gets the nodes visited. False when an action of the tree proved illegal (no
    /// result is backed up then).
    fn descend<'t>(
        &mut self,
        tree: &'t Tree<G>,
        threshold: u32,
        budget: usize,
        game: &mut G,
        path: &mut Vec<&'t Node<G::Action>>,
    ) -> bool {
        let mut at = &tree.root;
        // Whether chance was drawn on the way: open-loop, the tree's actions were found legal
        // after other draws and need not be legal after this one.
        let mut drawn = false;
        loop {
            while game.sample_chance(&mut self.rng) {
                drawn = true;
            }
            if game.to_move().is_none() {
                return true;
            }
            if at.children.get().is_none() {
                // `visits` counts this simulation already.
                let is_root = std::ptr::eq(at, &tree.root);
                if !is_root && at.visits() <= threshold {
                    return true;
                }
                if !self.expand(tree, at, game, budget) {
                    return true;
                }
            }
            let Some(child) = Self::select(at, self.tree_policy) else { return true };
            let Some(action) = child.action else { return true };
            let mover = Player(child.mover);
            if game.play(action).is_err() {
                if drawn || tree.game.has_hidden_information() {
                    // Another deal of the hidden cards, or other dice: an action found legal in
                    // one need not be in this one. Play out from here.
                    return true;
                }
                // Cannot happen with legal_actions; never let it corrupt the statistics.
                child.prior_value.set(0.0);
                child.prior_visits.set(1e6);
                return false;
            }
            if let Some(k) = G::amaf_key(action) {
                self.played.push((mover, k));
            }
            let first_visit = child.visits.fetch_add(1, Relaxed) == 0;
            path.push(child);
            self.played_at_depth.push(self.played.len());
            at = child;
            if first_visit {
                return true;
            }
        }
    }

    /// A playout from `game` to the end, its final owners counted.
    fn play_out(&mut self, game: &mut G) -> Rewards {
        let rewards = game.playout(&mut self.scratch, &mut self.rng, &mut self.played);
        for (v, &o) in G::owners(&self.scratch).iter().enumerate() {
            if o != 0 {
                self.ownership[v * MAX_PLAYERS + (o - 1) as usize] += 1;
            }
        }
        self.owner_samples += 1;
        rewards
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

    /// Runs simulations until the tree's shared playout budget (`limits.0`) is used, the
    /// deadline (`limits.1`) passes, or `stop` is raised; returns this thread's simulations.
    /// The first always runs: it expands the root, so the search has an answer.
    pub(super) fn run(
        &mut self,
        tree: &Tree<G>,
        config: &SearchConfig,
        (playouts, deadline): (u32, Option<Instant>),
        stop: Option<&AtomicBool>,
    ) -> u32 {
        if self.scratch_config != *config {
            // The knobs a system reads into its scratch (a Go policy, the score bonus) may have
            // changed since the last search.
            self.scratch = tree.game.scratch(&self.tables, config);
            self.scratch_config = config.clone();
        }
        self.tree_policy = TreePolicy::of(config, &tree.game);
        let threshold = tree.expand_threshold(config);
        let budget = config.memory.saturating_mul(config.threads.max(1));
        let mut done = 0;
        loop {
            // The clock is read before every simulation (a few tens of nanoseconds; one BeSiege
            // simulation in a debug build takes milliseconds). A stop is heard after this
            // thread's first 16 simulations, so that a search stopped at once (a command right
            // after `genmove`) still leaves a little tree behind.
            if done > 0
                && (deadline.is_some_and(|d| Instant::now() >= d)
                    || (done % 16 == 0 && stop.is_some_and(|s| s.load(Relaxed))))
            {
                break;
            }
            if tree.claimed.fetch_add(1, Relaxed) >= playouts {
                break;
            }
            self.simulate(tree, config, threshold, budget);
            done += 1;
        }
        done
    }
}
