mod builder;

use std::{collections::HashMap, sync::OnceLock};

use serde::Serialize;

pub use builder::MapBuilder;
use builder::components;

use crate::{Balls, Lines};

/// A node's index: nodes of a map are numbered `0..map.len()`.
pub type NodeId = u32;

/// A direction index on a map with [`Lines`]; its meaning is the generator's (see each generator).
pub type Direction = u8;

/// The most nodes a map may have. Board arrays index nodes with `u32`, but 65,536 keeps every
/// per-node table of a position small enough to copy quickly during search.
pub const MAX_NODES: usize = 65_536;
/// The largest coordinate a map may use: drawings need finite, sane numbers (1e308 once went
/// through and came back as `null`).
pub const MAX_COORDINATE: f64 = 1e6;
/// The longest map name, in characters.
pub const MAX_NAME_CHARS: usize = 200;
/// The longest node label, in characters (labels are typed on command lines).
pub const MAX_LABEL_CHARS: usize = 32;

/// Where a map is a (possibly wrapped) rectangle of `width × height` cells: node `y * width + x`
/// is column `x` (from the left) and row `y` (from the top). GTP and SGF coordinates use this.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct Grid {
    pub width: u32,
    pub height: u32,
    /// True when the map is exactly the plain rectangle (no wrapping, no extra edges), so that
    /// classic board formats (SGF, GTP) describe it faithfully.
    pub plain: bool,
}

/// An immutable, validated map. Adjacency is stored flat (CSR: one offsets array, one neighbour
/// array) so that scans over a node's neighbours touch one contiguous slice.
#[derive(Debug, Clone)]
pub struct Map {
    name: String,
    spec: String,
    offsets: Vec<u32>,
    adjacency: Vec<NodeId>,
    coords: Vec<[f64; 3]>,
    dimension: u8,
    labels: Vec<String>,
    by_label: HashMap<String, NodeId>,
    lines: Option<Lines>,
    grid: Option<Grid>,
    start_points: Vec<NodeId>,
    max_degree: usize,
    /// Built on the first [`Map::balls`]: only Tribal Go's range asks for it.
    balls: OnceLock<Option<Balls>>,
}

impl Map {
    /// Number of nodes.
    #[inline]
    pub fn len(&self) -> usize {
        self.coords.len()
    }

    /// Never true for a validated map; present for API completeness.
    pub fn is_empty(&self) -> bool {
        self.coords.is_empty()
    }

    /// All node ids.
    pub fn nodes(&self) -> std::ops::Range<NodeId> {
        0..self.len() as NodeId
    }

    /// The nodes adjacent to `node`, sorted ascending. Panics if `node` is out of range: node ids
    /// that come from users are checked with [`Map::contains`] or [`Map::node_by_label`] first.
    #[inline]
    pub fn neighbors(&self, node: NodeId) -> &[NodeId] {
        let n = node as usize;
        &self.adjacency[self.offsets[n] as usize..self.offsets[n + 1] as usize]
    }

    /// The raw CSR arrays, for engines that want to index them directly.
    pub fn csr(&self) -> (&[u32], &[NodeId]) {
        (&self.offsets, &self.adjacency)
    }

    #[inline]
    pub fn degree(&self, node: NodeId) -> usize {
        let n = node as usize;
        (self.offsets[n + 1] - self.offsets[n]) as usize
    }

    pub fn max_degree(&self) -> usize {
        self.max_degree
    }

    /// Number of edges (each counted once).
    pub fn edge_count(&self) -> usize {
        self.adjacency.len() / 2
    }

    /// Every edge once, as `(a, b)` with `a < b`.
    pub fn edges(&self) -> impl Iterator<Item = (NodeId, NodeId)> + '_ {
        self.nodes()
            .flat_map(move |a| self.neighbors(a).iter().filter(move |&&b| a < b).map(move |&b| (a, b)))
    }

    pub fn contains(&self, node: u64) -> bool {
        node < self.len() as u64
    }

    pub fn are_adjacent(&self, a: NodeId, b: NodeId) -> bool {
        self.neighbors(a).binary_search(&b).is_ok()
    }

    /// Drawing coordinates; `z` is 0 on flat maps.
    pub fn coord(&self, node: NodeId) -> [f64; 3] {
        self.coords[node as usize]
    }

    pub fn coords(&self) -> &[[f64; 3]] {
        &self.coords
    }

    /// 2 for maps drawn flat, 3 for maps drawn in space.
    pub fn dimension(&self) -> u8 {
        self.dimension
    }

    pub fn label(&self, node: NodeId) -> &str {
        &self.labels[node as usize]
    }

    /// Finds a node by its label; labels are matched exactly, then without regard to case.
    pub fn node_by_label(&self, label: &str) -> Option<NodeId> {
        if let Some(&n) = self.by_label.get(label) {
            return Some(n);
        }
        let upper = label.to_ascii_uppercase();
        self.by_label.get(&upper).copied().or_else(|| {
            let lower = label.to_ascii_lowercase();
            self.by_label.get(&lower).copied()
        })
    }

    /// The nodes within [`Balls::RADIUS`] steps of each node, ring by ring; `None` on maps whose
    /// balls are too big to list (the first call builds it).
    pub fn balls(&self) -> Option<&Balls> {
        self.balls.get_or_init(|| Balls::build(self)).as_ref()
    }

    /// The table of [`Map::balls`] if something has built it (memory budgets count it then).
    pub fn built_balls(&self) -> Option<&Balls> {
        self.balls.get().and_then(Option::as_ref)
    }

    pub fn lines(&self) -> Option<&Lines> {
        self.lines.as_ref()
    }

    pub fn grid(&self) -> Option<Grid> {
        self.grid
    }

    /// The `(column, row)` of a node on a grid map (row 0 at the top).
    pub fn grid_position(&self, node: NodeId) -> Option<(u32, u32)> {
        self.grid.map(|g| (node % g.width, node / g.width))
    }

    /// The node at `(column, row)` of a grid map.
    pub fn grid_node(&self, x: u32, y: u32) -> Option<NodeId> {
        let g = self.grid?;
        (x < g.width && y < g.height).then_some(y * g.width + x)
    }

    pub fn name(&self) -> &str {
        &self.name
    }

    /// The generator spec that rebuilds this map, or `custom` for maps from a file.
    pub fn spec(&self) -> &str {
        &self.spec
    }

    /// Start points given by a custom map file (empty when none were given).
    pub fn declared_start_points(&self) -> &[NodeId] {
        &self.start_points
    }

    /// Breadth-first distances from `from` (`u32::MAX` where unreachable).
    pub fn distances_from(&self, from: NodeId) -> Vec<u32> {
        let mut dist = vec![u32::MAX; self.len()];
        let mut queue = std::collections::VecDeque::new();
        dist[from as usize] = 0;
        queue.push_back(from);
        while let Some(n) = queue.pop_front() {
            let d = dist[n as usize] + 1;
            for &m in self.neighbors(n) {
                if dist[m as usize] == u32::MAX {
                    dist[m as usize] = d;
                    queue.push_back(m);
                }
            }
        }
        dist
    }

    /// Number of connected components.
    pub fn components(&self) -> usize {
        components(self.len(), |n| self.neighbors(n)).0
    }
}
