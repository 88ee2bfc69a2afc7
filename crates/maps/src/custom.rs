//! Custom maps from JSON (format documented in `docs/formats.md`).

use serde::{Deserialize, Serialize};

use crate::{Map, MapBuilder, MapError, MapProblem, NodeId};

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
}

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
        match b.build() {
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
        }
    }
}
