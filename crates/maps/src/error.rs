use std::fmt;

use crate::NodeId;

/// One thing wrong with a map, naming the node or edge at fault.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[serde(tag = "problem", rename_all = "snake_case")]
pub enum MapProblem {
    /// The map has no nodes.
    Empty,
    /// More nodes than [`crate::MAX_NODES`] (or the caller's lower limit).
    TooManyNodes { nodes: usize, limit: usize },
    /// Edge number `edge` names a node that does not exist.
    EdgeOutOfRange { edge: usize, node: u64, nodes: usize },
    /// Edge number `edge` joins a node to itself.
    SelfLoop { edge: usize, node: NodeId },
    /// Edge number `edge` repeats edge number `first` (in either direction).
    DuplicateEdge { edge: usize, first: usize, a: NodeId, b: NodeId },
    /// The map falls apart into several pieces; `node` is the first node not reachable from node 0.
    Disconnected { components: usize, node: NodeId },
    /// A node has no coordinates, or coordinates that are not finite numbers of at most
    /// [`crate::MAX_COORDINATE`] in size.
    BadCoordinates { node: NodeId },
    /// The map's name is longer than [`crate::MAX_NAME_CHARS`] characters.
    NameTooLong { chars: usize },
    /// Two nodes carry the same label.
    DuplicateLabel { node: NodeId, first: NodeId, label: String },
    /// A label is empty or contains white space (labels are typed on command lines).
    BadLabel { node: NodeId, label: String },
    /// A start point names a node that does not exist, or repeats one.
    BadStartPoint { index: usize, node: u64 },
    /// The line table is inconsistent (a generator bug, reported rather than trusted).
    BadLine { node: NodeId, direction: u8 },
    /// Declared line number `line` is not a path along the map's edges: position `index`
    /// names a node that does not exist or is not joined to the one before it.
    BadDeclaredLine { line: usize, index: usize, node: u64 },
    /// More declared lines pass through `node` than a node may have (see [`crate::custom`]).
    TooManyLines { node: NodeId, lines: usize },
}

impl fmt::Display for MapProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MapProblem::Empty => write!(f, "the map has no nodes"),
            MapProblem::TooManyNodes { nodes, limit } => {
                write!(f, "the map has {nodes} nodes; at most {limit} are allowed")
            }
            MapProblem::EdgeOutOfRange { edge, node, nodes } => write!(
                f,
                "edge #{edge} names node {node}, but nodes are numbered 0 to {}",
                nodes.saturating_sub(1)
            ),
            MapProblem::SelfLoop { edge, node } => {
                write!(f, "edge #{edge} joins node {node} to itself")
            }
            MapProblem::DuplicateEdge { edge, first, a, b } => {
                write!(f, "edge #{edge} ({a}-{b}) repeats edge #{first}")
            }
            MapProblem::Disconnected { components, node } => write!(
                f,
                "the map is disconnected ({components} pieces): node {node} cannot be reached from node 0"
            ),
            MapProblem::BadCoordinates { node } => {
                write!(
                    f,
                    "node {node} has missing or unusable coordinates (finite numbers of at most {} in size)",
                    crate::MAX_COORDINATE
                )
            }
            MapProblem::NameTooLong { chars } => {
                write!(
                    f,
                    "the map's name has {chars} characters; at most {} are allowed",
                    crate::MAX_NAME_CHARS
                )
            }
            MapProblem::DuplicateLabel { node, first, label } => {
                write!(f, "node {node} has label {label:?}, already used by node {first}")
            }
            MapProblem::BadLabel { node, label } => {
                let shown: String = label.chars().take(40).collect();
                write!(
                    f,
                    "node {node} has label {shown:?}: labels must be non-empty, without spaces, and at most {} characters",
                    crate::MAX_LABEL_CHARS
                )
            }
            MapProblem::BadStartPoint { index, node } => {
                write!(f, "start point #{index} ({node}) is not a distinct node of the map")
            }
            MapProblem::BadLine { node, direction } => {
                write!(f, "the line table is inconsistent at node {node}, direction {direction}")
            }
            MapProblem::BadDeclaredLine { line, index, node } => write!(
                f,
                "line #{line}: node {node} (position {index}) does not exist or is not joined by an edge to \
                 the node before it"
            ),
            MapProblem::TooManyLines { node, lines } => {
                write!(f, "{lines} declared lines pass through node {node}; at most 64 may")
            }
        }
    }
}

/// A map failed validation: every problem found, in order.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub struct MapError {
    pub problems: Vec<MapProblem>,
}

impl fmt::Display for MapError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "invalid map: ")?;
        // Thousands of problems help nobody; the count says how many more there are.
        const SHOWN: usize = 10;
        for (i, p) in self.problems.iter().take(SHOWN).enumerate() {
            if i > 0 {
                write!(f, "; ")?;
            }
            write!(f, "{p}")?;
        }
        if self.problems.len() > SHOWN {
            write!(f, "; and {} more", self.problems.len() - SHOWN)?;
        }
        Ok(())
    }
}

/// A generator spec string could not be turned into a map.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SpecError {
    #[error("unknown map kind {kind:?}; known kinds: {known}")]
    UnknownKind { kind: String, known: String },
    #[error("map spec {spec:?}: {reason} (usage: {usage})")]
    BadParameters { spec: String, reason: String, usage: &'static str },
    #[error(transparent)]
    Invalid(#[from] MapError),
}
