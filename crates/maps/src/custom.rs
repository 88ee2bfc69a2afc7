//! Custom maps from JSON (format documented in `docs/formats.md`).

use serde::{Deserialize, Serialize};

use crate::{Lines, Map, MapBuilder, MapError, MapProblem, NodeId};

/// One node of a custom map. Coordinates are required (`z` only for maps drawn in space); they are
/// optional here so that a missing one is reported with the node's number rather than as a parse
/// error.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CustomNode {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub x: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub y: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub z: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
}

/// A map as stored in a JSON file: the unchecked form of a [`Map`].
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CustomMap {
    #[serde(default)]
    pub name: String,
    /// The generator spec that produced the map, when exported from one (informational).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub spec: Option<String>,
    pub nodes: Vec<CustomNode>,
    pub edges: Vec<[u64; 2]>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub start_points: Vec<u64>,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub allow_disconnected: bool,
    /// Straight lines, for rules whose stones move along them (The Way of Go, BeSiege).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lines: Option<CustomLines>,
}

/// The straight lines of a custom map: declared, or derived from the coordinates.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum CustomLines {
    /// `"derived"`: the opposite-neighbour rule — a line entering a node of even degree 2m
    /// leaves it by the neighbour m places further round in angular order; at a node of odd
    /// degree it ends.
    Derived(Derived),
    /// Paths of node numbers along edges; a path that ends on its first node is closed (wraps).
    Declared(Vec<Vec<u64>>),
}

/// The word `"derived"`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Derived {
    Derived,
}

/// The most declared lines through one node (two directions each fill a `u8`).
const MAX_LINES_PER_NODE: usize = 64;

impl CustomMap {
    /// Parses JSON text; the error names the line and column.
    pub fn from_json(text: &str) -> Result<CustomMap, serde_json::Error> {
        serde_json::from_str(text)
    }

    /// Validates with the default node limit.
    pub fn build(self) -> Result<Map, MapError> {
        self.build_with_limit(crate::MAX_NODES)
    }

    /// Validates, refusing more than `limit` nodes (servers pass a smaller one for uploads).
    pub fn build_with_limit(self, limit: usize) -> Result<Map, MapError> {
        let mut b =
            MapBuilder::new(if self.name.is_empty() { "Custom map".into() } else { self.name }, "custom");
        b.node_limit = Some(limit);
        b.allow_disconnected = self.allow_disconnected;
        let mut missing = Vec::new();
        let spatial = self.nodes.iter().any(|n| n.z.is_some());
        if self.nodes.len() > limit {
            return Err(MapError {
                problems: vec![MapProblem::TooManyNodes { nodes: self.nodes.len(), limit }],
            });
        }
        for (i, n) in self.nodes.iter().enumerate() {
            let (x, y) = match (n.x, n.y) {
                (Some(x), Some(y)) => (x, y),
                _ => {
                    missing.push(MapProblem::BadCoordinates { node: i as NodeId });
                    (0.0, 0.0)
                }
            };
            b.add_node([x, y, n.z.unwrap_or(0.0)], n.label.clone().unwrap_or_default());
        }
        if spatial {
            b.dimension = 3;
        }
        b.edges = self.edges.iter().map(|e| (e[0], e[1])).collect();
        b.start_points = self.start_points;
        let with_lines = self.lines.as_ref().map(|_| b.clone());
        let built = b.build().and_then(|map| match (&self.lines, with_lines) {
            // The lines are made on the validated graph, then the map is built again with them
            // (the builder checks every step against the edges once more).
            (Some(lines), Some(mut b)) => {
                b.lines = Some(match lines {
                    CustomLines::Derived(_) => derive_lines(&map)?,
                    CustomLines::Declared(paths) => declared_lines(&map, paths)?,
                });
                b.build()
            }
            _ => Ok(map),
        });
        match built {
            Ok(map) if missing.is_empty() => Ok(map),
            Ok(_) => Err(MapError { problems: missing }),
            Err(mut e) => {
                missing.append(&mut e.problems);
                Err(MapError { problems: missing })
            }
        }
    }

    /// The JSON form of any map (generated ones included), which loads back to the same graph.
    pub fn from_map(map: &Map) -> CustomMap {
        let spatial = map.dimension() == 3;
        CustomMap {
            name: map.name().to_string(),
            spec: (map.spec() != "custom").then(|| map.spec().to_string()),
            nodes: map
                .nodes()
                .map(|n| {
                    let c = map.coord(n);
                    let round = |v: f64| (v * 1e6).round() / 1e6;
                    CustomNode {
                        x: Some(round(c[0])),
                        y: Some(round(c[1])),
                        z: spatial.then(|| round(c[2])),
                        label: Some(map.label(n).to_string()),
                    }
                })
                .collect(),
            edges: map.edges().map(|(a, b)| [a as u64, b as u64]).collect(),
            start_points: map.declared_start_points().iter().map(|&s| s as u64).collect(),
            allow_disconnected: map.components() > 1,
            // A generator's line table is not a list of paths; files that need lines declare
            // them or ask for "derived" (docs/formats.md).
            lines: None,
        }
    }
}

/// Lines from declared paths: each pass of a path through a node gives that node two
/// directions (forward and back along the path).
fn declared_lines(map: &Map, paths: &[Vec<u64>]) -> Result<Lines, MapError> {
    let n = map.len();
    let bad =
        |line, index, node| MapError { problems: vec![MapProblem::BadDeclaredLine { line, index, node }] };
    let mut uses = vec![0usize; n];
    // For each path, its nodes (a closed path without its repeated end) and each pass's slot.
    let mut walks: Vec<(Vec<NodeId>, bool, Vec<usize>)> = Vec::with_capacity(paths.len());
    for (line, path) in paths.iter().enumerate() {
        for (index, &node) in path.iter().enumerate() {
            let ok = map.contains(node)
                && (index == 0 || {
                    let prev = path[index - 1];
                    map.contains(prev) && map.are_adjacent(prev as NodeId, node as NodeId)
                });
            if !ok {
                return Err(bad(line, index, node));
            }
        }
        let closed = path.len() >= 3 && path.first() == path.last();
        let nodes: Vec<NodeId> =
            path[..path.len() - usize::from(closed)].iter().map(|&v| v as NodeId).collect();
        let slots = nodes
            .iter()
            .map(|&v| {
                uses[v as usize] += 1;
                uses[v as usize] - 1
            })
            .collect();
        walks.push((nodes, closed, slots));
    }
    if let Some((node, &lines)) = uses.iter().enumerate().find(|&(_, &u)| u > MAX_LINES_PER_NODE) {
        return Err(MapError { problems: vec![MapProblem::TooManyLines { node: node as NodeId, lines }] });
    }
    let directions = (2 * uses.iter().copied().max().unwrap_or(0)).max(1) as u8;
    let mut lines = Lines::new(n, directions);
    for (nodes, closed, slots) in &walks {
        let len = nodes.len();
        for i in 0..len {
            let (v, fwd, back) = (nodes[i], (2 * slots[i]) as u8, (2 * slots[i] + 1) as u8);
            let next = if i + 1 < len {
                Some(i + 1)
            } else if *closed {
                Some(0)
            } else {
                None
            };
            let prev = if i > 0 {
                Some(i - 1)
            } else if *closed {
                Some(len - 1)
            } else {
                None
            };
            if let Some(j) = next {
                lines.set(v, fwd, nodes[j], (2 * slots[j]) as u8);
            }
            if let Some(j) = prev {
                lines.set(v, back, nodes[j], (2 * slots[j] + 1) as u8);
            }
        }
    }
    Ok(lines)
}

/// Lines by the opposite-neighbour rule: direction `j` at a node heads for its `j`-th
/// neighbour in angular order; arriving at a node of even degree the line goes on to the
/// neighbour half-way round from where it came, at a node of odd degree it ends.
fn derive_lines(map: &Map) -> Result<Lines, MapError> {
    let n = map.len();
    let max = map.max_degree();
    if max >= u8::MAX as usize {
        let node = map.nodes().find(|&v| map.degree(v) == max).unwrap_or(0);
        return Err(MapError { problems: vec![MapProblem::TooManyLines { node, lines: max }] });
    }
    let order: Vec<Vec<NodeId>> = map.nodes().map(|v| angular_order(map, v)).collect();
    // The slot no step is set for: a line that reaches a node of odd degree stops there.
    let end = max as u8;
    let mut lines = Lines::new(n, end + 1);
    for v in map.nodes() {
        for (j, &w) in order[v as usize].iter().enumerate() {
            let around = &order[w as usize];
            let d = around.len();
            let to_dir = match around.iter().position(|&u| u == v) {
                Some(p) if d.is_multiple_of(2) => ((p + d / 2) % d) as u8,
                _ => end,
            };
            lines.set(v, j as u8, w, to_dir);
        }
    }
    Ok(lines)
}

/// The neighbours of `v` by angle round it: in the plane for flat maps, in the plane tangent to
/// the map's surface (the normal pointing away from the centre of all nodes) for maps in space.
fn angular_order(map: &Map, v: NodeId) -> Vec<NodeId> {
    let c = map.coord(v);
    let sub = |a: [f64; 3], b: [f64; 3]| [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
    let dot = |a: [f64; 3], b: [f64; 3]| a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
    let cross = |a: [f64; 3], b: [f64; 3]| {
        [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]
    };
    let unit = |a: [f64; 3]| {
        let l = dot(a, a).sqrt();
        if l > 1e-12 { [a[0] / l, a[1] / l, a[2] / l] } else { a }
    };
    let normal = if map.dimension() == 3 {
        let k = map.len() as f64;
        let centre =
            map.coords().iter().fold([0.0; 3], |s, p| [s[0] + p[0] / k, s[1] + p[1] / k, s[2] + p[2] / k]);
        let out = sub(c, centre);
        if dot(out, out) > 1e-18 { unit(out) } else { [0.0, 0.0, 1.0] }
    } else {
        [0.0, 0.0, 1.0]
    };
    let flat = |p: [f64; 3]| {
        let d = sub(p, c);
        let along = dot(d, normal);
        [d[0] - along * normal[0], d[1] - along * normal[1], d[2] - along * normal[2]]
    };
    let mut nbrs: Vec<NodeId> = map.neighbors(v).to_vec();
    let Some(&first) = nbrs.first() else { return nbrs };
    let e1 = unit(flat(map.coord(first)));
    let e2 = cross(normal, e1);
    let angle = |w: NodeId| {
        let p = flat(map.coord(w));
        dot(p, e2).atan2(dot(p, e1))
    };
    nbrs.sort_by(|&a, &b| angle(a).total_cmp(&angle(b)).then(a.cmp(&b)));
    nbrs
}
