use std::{collections::HashMap, sync::OnceLock};

use serde::Serialize;

use crate::{Balls, Lines, MapError, MapProblem};

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

fn components<'a>(n: usize, nbrs: impl Fn(NodeId) -> &'a [NodeId]) -> (usize, Option<NodeId>) {
    let mut comp = vec![u32::MAX; n];
    let mut count = 0;
    let mut first_unreached = None;
    let mut stack = Vec::new();
    for start in 0..n {
        if comp[start] != u32::MAX {
            continue;
        }
        if count == 1 && first_unreached.is_none() {
            first_unreached = Some(start as NodeId);
        }
        comp[start] = count as u32;
        stack.push(start as NodeId);
        while let Some(v) = stack.pop() {
            for &w in nbrs(v) {
                if comp[w as usize] == u32::MAX {
                    comp[w as usize] = count as u32;
                    stack.push(w);
                }
            }
        }
        count += 1;
    }
    (count, first_unreached)
}

/// An unchecked map: anything may be wrong with it until [`MapBuilder::build`] says otherwise.
#[derive(Debug, Clone, Default)]
pub struct MapBuilder {
    pub name: String,
    pub spec: String,
    /// Drawing coordinates per node (`z = 0` for flat maps); this also fixes the node count.
    pub coords: Vec<[f64; 3]>,
    /// Labels per node; missing ones become the node number.
    pub labels: Vec<String>,
    /// Edges as given, possibly wrong.
    pub edges: Vec<(u64, u64)>,
    pub dimension: u8,
    pub lines: Option<Lines>,
    pub grid: Option<Grid>,
    pub start_points: Vec<u64>,
    pub allow_disconnected: bool,
    /// A lower node limit than [`MAX_NODES`], e.g. for uploads.
    pub node_limit: Option<usize>,
}

impl MapBuilder {
    pub fn new(name: impl Into<String>, spec: impl Into<String>) -> Self {
        MapBuilder { name: name.into(), spec: spec.into(), dimension: 2, ..Default::default() }
    }

    pub fn add_node(&mut self, coord: [f64; 3], label: impl Into<String>) -> NodeId {
        self.coords.push(coord);
        self.labels.push(label.into());
        (self.coords.len() - 1) as NodeId
    }

    pub fn add_edge(&mut self, a: NodeId, b: NodeId) {
        self.edges.push((a as u64, b as u64));
    }

    /// Validates everything and builds the map, or returns every problem found.
    pub fn build(self) -> Result<Map, MapError> {
        let n = self.coords.len();
        let limit = self.node_limit.unwrap_or(MAX_NODES).min(MAX_NODES);
        let mut problems = Vec::new();
        if n == 0 {
            problems.push(MapProblem::Empty);
        }
        if n > limit {
            // Nothing else is worth checking on a map we refuse to hold.
            return Err(MapError { problems: vec![MapProblem::TooManyNodes { nodes: n, limit }] });
        }
        for (i, c) in self.coords.iter().enumerate() {
            if !c.iter().all(|v| v.is_finite() && v.abs() <= MAX_COORDINATE) {
                problems.push(MapProblem::BadCoordinates { node: i as NodeId });
            }
        }
        let name_chars = self.name.chars().count();
        if name_chars > MAX_NAME_CHARS {
            problems.push(MapProblem::NameTooLong { chars: name_chars });
        }

        let mut seen: HashMap<(NodeId, NodeId), usize> = HashMap::with_capacity(self.edges.len());
        let mut degree = vec![0u32; n];
        let mut good_edges = Vec::with_capacity(self.edges.len());
        for (i, &(a, b)) in self.edges.iter().enumerate() {
            let mut ok = true;
            for v in [a, b] {
                if v >= n as u64 {
                    problems.push(MapProblem::EdgeOutOfRange { edge: i, node: v, nodes: n });
                    ok = false;
                }
            }
            if !ok {
                continue;
            }
            let (a, b) = (a as NodeId, b as NodeId);
            if a == b {
                problems.push(MapProblem::SelfLoop { edge: i, node: a });
                continue;
            }
            let key = (a.min(b), a.max(b));
            if let Some(&first) = seen.get(&key) {
                problems.push(MapProblem::DuplicateEdge { edge: i, first, a, b });
                continue;
            }
            seen.insert(key, i);
            degree[a as usize] += 1;
            degree[b as usize] += 1;
            good_edges.push(key);
        }

        let mut offsets = Vec::with_capacity(n + 1);
        offsets.push(0u32);
        for d in &degree {
            let last = offsets.last().copied().unwrap_or(0);
            offsets.push(last + d);
        }
        let mut fill: Vec<u32> = offsets[..n].to_vec();
        let mut adjacency = vec![0 as NodeId; good_edges.len() * 2];
        for &(a, b) in &good_edges {
            adjacency[fill[a as usize] as usize] = b;
            fill[a as usize] += 1;
            adjacency[fill[b as usize] as usize] = a;
            fill[b as usize] += 1;
        }
        for v in 0..n {
            adjacency[offsets[v] as usize..offsets[v + 1] as usize].sort_unstable();
        }

        if n > 0 && !self.allow_disconnected {
            let (count, first) =
                components(n, |v| &adjacency[offsets[v as usize] as usize..offsets[v as usize + 1] as usize]);
            if count > 1 {
                problems.push(MapProblem::Disconnected { components: count, node: first.unwrap_or(0) });
            }
        }

        let mut labels = self.labels;
        labels.resize_with(n, String::new);
        let mut by_label = HashMap::with_capacity(n);
        for (i, label) in labels.iter_mut().enumerate() {
            if label.is_empty() {
                *label = i.to_string();
            }
            if label.chars().any(char::is_whitespace) || label.chars().count() > MAX_LABEL_CHARS {
                problems.push(MapProblem::BadLabel { node: i as NodeId, label: label.clone() });
                continue;
            }
            if let Some(&first) = by_label.get(label.as_str()) {
                problems.push(MapProblem::DuplicateLabel { node: i as NodeId, first, label: label.clone() });
            } else {
                by_label.insert(label.clone(), i as NodeId);
            }
        }

        let mut start_points = Vec::with_capacity(self.start_points.len());
        for (index, &s) in self.start_points.iter().enumerate() {
            if s >= n as u64 || start_points.contains(&(s as NodeId)) {
                problems.push(MapProblem::BadStartPoint { index, node: s });
            } else {
                start_points.push(s as NodeId);
            }
        }

        if let Some(lines) = &self.lines {
            if lines.cells() != n * lines.directions() as usize {
                problems.push(MapProblem::BadLine { node: 0, direction: 0 });
            } else {
                for v in 0..n as NodeId {
                    for d in 0..lines.directions() {
                        if let Some((to, to_dir)) = lines.step(v, d) {
                            let adjacent = (to as usize) < n
                                && adjacency[offsets[v as usize] as usize..offsets[v as usize + 1] as usize]
                                    .binary_search(&to)
                                    .is_ok();
                            if !adjacent || to_dir >= lines.directions() {
                                problems.push(MapProblem::BadLine { node: v, direction: d });
                            }
                        }
                    }
                }
            }
        }

        if !problems.is_empty() {
            return Err(MapError { problems });
        }
        let max_degree = degree.iter().copied().max().unwrap_or(0) as usize;
        Ok(Map {
            name: self.name,
            spec: self.spec,
            offsets,
            adjacency,
            coords: self.coords,
            dimension: if self.dimension == 3 { 3 } else { 2 },
            labels,
            by_label,
            lines: self.lines,
            grid: self.grid,
            start_points,
            max_degree,
            balls: OnceLock::new(),
        })
    }
}
