//! Building a [`Map`] from anything a generator, a file or a user made: every check, with every
//! problem found reported at once (`docs/formats.md`, "Custom map").

use std::{collections::HashMap, sync::OnceLock};

use super::{Grid, MAX_COORDINATE, MAX_LABEL_CHARS, MAX_NAME_CHARS, MAX_NODES, Map, NodeId};
use crate::{Lines, MapError, MapProblem};

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
        let (degree, good_edges) = checked_edges(&self.edges, n, &mut problems);
        let adjacency = Adjacency::new(&degree, &good_edges);
        if n > 0 && !self.allow_disconnected {
            let (count, first) = components(n, |v| adjacency.of(v));
            if count > 1 {
                problems.push(MapProblem::Disconnected { components: count, node: first.unwrap_or(0) });
            }
        }
        let (labels, by_label) = checked_labels(self.labels, n, &mut problems);
        let start_points = checked_start_points(&self.start_points, n, &mut problems);
        if let Some(lines) = &self.lines {
            check_lines(lines, &adjacency, &mut problems);
        }
        if !problems.is_empty() {
            return Err(MapError { problems });
        }
        let max_degree = degree.iter().copied().max().unwrap_or(0) as usize;
        Ok(Map {
            name: self.name,
            spec: self.spec,
            offsets: adjacency.offsets,
            adjacency: adjacency.neighbours,
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

/// The edges that are right (each once, smaller node first) and each node's degree by them;
/// every other edge is a problem.
fn checked_edges(
    edges: &[(u64, u64)],
    n: usize,
    problems: &mut Vec<MapProblem>,
) -> (Vec<u32>, Vec<(NodeId, NodeId)>) {
    let mut seen: HashMap<(NodeId, NodeId), usize> = HashMap::with_capacity(edges.len());
    let mut degree = vec![0u32; n];
    let mut good_edges = Vec::with_capacity(edges.len());
    for (i, &(a, b)) in edges.iter().enumerate() {
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
    (degree, good_edges)
}

/// Neighbour lists stored flat (CSR), each sorted: node `v`'s are
/// `neighbours[offsets[v]..offsets[v + 1]]`.
struct Adjacency {
    offsets: Vec<u32>,
    neighbours: Vec<NodeId>,
}

impl Adjacency {
    fn new(degree: &[u32], edges: &[(NodeId, NodeId)]) -> Self {
        let n = degree.len();
        let mut offsets = Vec::with_capacity(n + 1);
        offsets.push(0u32);
        for d in degree {
            let last = offsets.last().copied().unwrap_or(0);
            offsets.push(last + d);
        }
        let mut fill: Vec<u32> = offsets[..n].to_vec();
        let mut neighbours = vec![0 as NodeId; edges.len() * 2];
        for &(a, b) in edges {
            neighbours[fill[a as usize] as usize] = b;
            fill[a as usize] += 1;
            neighbours[fill[b as usize] as usize] = a;
            fill[b as usize] += 1;
        }
        for v in 0..n {
            neighbours[offsets[v] as usize..offsets[v + 1] as usize].sort_unstable();
        }
        Adjacency { offsets, neighbours }
    }

    fn len(&self) -> usize {
        self.offsets.len() - 1
    }

    fn of(&self, v: NodeId) -> &[NodeId] {
        &self.neighbours[self.offsets[v as usize] as usize..self.offsets[v as usize + 1] as usize]
    }
}

/// The connected components' count, and a node outside the first component if there is one.
pub(super) fn components<'a>(n: usize, nbrs: impl Fn(NodeId) -> &'a [NodeId]) -> (usize, Option<NodeId>) {
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

/// Every node's label (a missing one is the node's number) and the nodes by label; a label with
/// spaces, too long or taken is a problem.
fn checked_labels(
    mut labels: Vec<String>,
    n: usize,
    problems: &mut Vec<MapProblem>,
) -> (Vec<String>, HashMap<String, NodeId>) {
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
    (labels, by_label)
}

/// The start points that are nodes of the map, each once; any other is a problem.
fn checked_start_points(points: &[u64], n: usize, problems: &mut Vec<MapProblem>) -> Vec<NodeId> {
    let mut start_points = Vec::with_capacity(points.len());
    for (index, &s) in points.iter().enumerate() {
        if s >= n as u64 || start_points.contains(&(s as NodeId)) {
            problems.push(MapProblem::BadStartPoint { index, node: s });
        } else {
            start_points.push(s as NodeId);
        }
    }
    start_points
}

/// Lines must step only along the map's edges, to a direction they have.
fn check_lines(lines: &Lines, adjacency: &Adjacency, problems: &mut Vec<MapProblem>) {
    let n = adjacency.len();
    if lines.cells() != n * lines.directions() as usize {
        problems.push(MapProblem::BadLine { node: 0, direction: 0 });
        return;
    }
    for v in 0..n as NodeId {
        for d in 0..lines.directions() {
            if let Some((to, to_dir)) = lines.step(v, d) {
                let adjacent = (to as usize) < n && adjacency.of(v).binary_search(&to).is_ok();
                if !adjacent || to_dir >= lines.directions() {
                    problems.push(MapProblem::BadLine { node: v, direction: d });
                }
            }
        }
    }
}
