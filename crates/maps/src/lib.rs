//! Board topologies for GoBeyond.
//!
//! A [`Map`] is an immutable graph of nodes with drawing coordinates, human labels and, where the
//! topology has them, straight [`Lines`]. Maps come from generators named by a short spec string
//! (`square:19`, `hex:5`, `goldberg:2,1`, ...; see [`generate`] and [`GENERATORS`]) or from a custom
//! JSON file ([`CustomMap`]). Every map is validated once, when it is built: an unchecked
//! [`MapBuilder`] becomes a [`Map`] only through [`MapBuilder::build`], which reports every problem
//! with the node or edge at fault.
//!
//! ```
//! let map = gobeyond_maps::generate("square:9").unwrap();
//! assert_eq!(map.len(), 81);
//! let d4 = map.node_by_label("D4").unwrap();
//! assert_eq!(map.neighbors(d4).len(), 4);
//! ```
#![forbid(unsafe_code)]

mod balls;
mod custom;
mod error;
pub mod generators;
mod lines;
mod map;
mod spec;
mod start;
mod svg;

pub use balls::Balls;
pub use custom::{CustomLines, CustomMap, CustomNode, Derived};
pub use error::{MapError, MapProblem, SpecError};
pub use lines::Lines;
pub use map::{
    Direction, Grid, MAX_COORDINATE, MAX_LABEL_CHARS, MAX_NAME_CHARS, MAX_NODES, Map, MapBuilder, NodeId,
};
pub use spec::{GENERATORS, GeneratorInfo, generate, generate_within};
pub use start::start_points;
pub use svg::to_svg;
