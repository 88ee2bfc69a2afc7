//! The tree all search threads share: nodes of lock-free statistics, children created together
//! in one allocation, and the position at the root (see [`super::mcts`] for how it is used).

use std::sync::{
    OnceLock,
    atomic::{AtomicBool, AtomicU32, AtomicUsize, Ordering::Relaxed},
};

use super::{
    mcts::{ActionStats, SearchConfig},
    searchable::{Prior, Searchable},
};

/// An `f32` shared between threads without locks: `add` is a load and a store, so two threads
/// adding in the same instant may lose one of the additions (never tear the value).
#[derive(Debug, Default)]
pub(super) struct SharedF32(AtomicU32);

impl SharedF32 {
    fn new(v: f32) -> SharedF32 {
        SharedF32(AtomicU32::new(v.to_bits()))
    }

    #[inline]
    pub(super) fn get(&self) -> f32 {
        f32::from_bits(self.0.load(Relaxed))
    }

    #[inline]
    pub(super) fn set(&self, v: f32) {
        self.0.store(v.to_bits(), Relaxed);
    }

    #[inline]
    pub(super) fn add(&self, d: f32) {
        self.set(self.get() + d);
    }
}

#[derive(Debug)]
pub(super) struct Node<A> {
    pub(super) action: Option<A>,
    /// The player who chose this node's action.
    pub(super) mover: u8,
    /// Visits, counted when a simulation goes down through the node (before its result is
    /// known: a virtual loss for the other threads until `value` gets the reward).
    pub(super) visits: AtomicU32,
    /// Sum of the rewards of `mover` over the visits backed up.
    pub(super) value: SharedF32,
    pub(super) amaf_visits: SharedF32,
    pub(super) amaf_value: SharedF32,
    pub(super) prior_visits: SharedF32,
    pub(super) prior_value: SharedF32,
    /// Created at once by the thread that claimed `expanding`.
    pub(super) children: OnceLock<Box<[Node<A>]>>,
    /// Claimed by the one thread that expands the node; left claimed when the memory budget
    /// refused the children (the node stays a leaf for this search).
    pub(super) expanding: AtomicBool,
}

impl<A: Copy> Node<A> {
    pub(super) fn new(action: Option<A>, mover: u8, prior: Prior) -> Node<A> {
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

    pub(super) fn root() -> Node<A> {
        Node::new(None, 0, Prior { visits: 0.0, value: 0.5 })
    }

    pub(super) fn visits(&self) -> u32 {
        self.visits.load(Relaxed)
    }

    pub(super) fn children(&self) -> &[Node<A>] {
        self.children.get().map_or(&[], |c| c)
    }

    /// The mean reward of the node's mover, priors included (a visit under way counts as a
    /// loss until it is backed up).
    pub(super) fn mean(&self) -> f32 {
        let prior_visits = self.prior_visits.get();
        let n = self.visits() as f32 + prior_visits;
        if n == 0.0 { 0.5 } else { (self.value.get() + self.prior_value.get() * prior_visits) / n }
    }

    /// Nodes of the subtree (this one included); leaves refused by the last search's memory
    /// budget may be expanded again.
    pub(super) fn recount(&mut self) -> usize {
        match self.children.get_mut() {
            Some(children) => 1 + children.iter_mut().map(Node::recount).sum::<usize>(),
            None => {
                *self.expanding.get_mut() = false;
                1
            }
        }
    }
}

/// The search tree all threads share, and the position at its root.
#[derive(Debug)]
pub(super) struct Tree<G: Searchable> {
    pub(super) root: Node<G::Action>,
    pub(super) game: G,
    /// Nodes below the root, and their bytes (checked against the budget before expanding).
    pub(super) nodes: AtomicUsize,
    pub(super) bytes: AtomicUsize,
    /// Playouts claimed in the current search (the budget is shared by the threads).
    pub(super) claimed: AtomicU32,
}

impl<G: Searchable> Tree<G> {
    pub(super) fn new(game: &G) -> Tree<G> {
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
    pub(super) fn advance(&mut self, game: &G) {
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
    pub(super) fn expand_threshold(&self, config: &SearchConfig) -> u32 {
        let children = self.game.map().len() * std::mem::size_of::<Node<G::Action>>();
        let paid = children / config.bytes_per_playout.max(1);
        config.expand_after.max(paid as u32)
    }

    pub(super) fn root_stats(&self) -> Vec<ActionStats<G::Action>> {
        self.root
            .children()
            .iter()
            .filter_map(|n| Some(ActionStats { action: n.action?, visits: n.visits(), value: n.mean() }))
            .collect()
    }
}
