//! The pattern weights: the file (`data/patterns.json`, `data/patterns-big.json`) and the model
//! it loads into for lookups.

use std::{collections::BTreeMap, sync::OnceLock};

use serde::{Deserialize, Serialize};

use super::{FIXED_GROUPS, Features, GROUPS, Group, LargeKey, ShapeKey};

/// The weights file's format version this program writes for oriented and large shapes: 4 adds
/// the line group; 3 (large shapes), 2 (oriented shapes) and 1 (counted shapes, the small-board
/// model) are still read, every move on the same line there.
pub const WEIGHTS_VERSION: u32 = 4;

/// The first version whose files weigh the line ([`Group::Line`]).
const LINE_VERSION: u32 = 4;

/// The name of the large-shape feature of moves whose large shape the model does not know.
pub const NO_LARGE_SHAPE: &str = "none";

/// Fitted weights, as stored in `data/patterns.json`.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Weights {
    /// Format version of the file.
    pub version: u32,
    /// What the weights were fitted on, and how.
    pub trained_on: String,
    /// Per fixed group (by name), each feature's γ (by name).
    pub groups: BTreeMap<String, BTreeMap<String, f64>>,
    /// Shape keys (own, enemy, empty, missing among the neighbours / the diagonals) and their
    /// γ; unseen shapes weigh 1.
    pub shapes: BTreeMap<String, f64>,
    /// Large shapes ([`LargeKey::text`]) and their γ, [`NO_LARGE_SHAPE`] for every other move
    /// (version 3; none before, every move weighing 1).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub large_shapes: BTreeMap<String, f64>,
}

impl Weights {
    /// Whether the file's shapes are oriented (version 2 and up) or counted (version 1).
    pub fn oriented(&self) -> bool {
        self.version >= 2
    }

    /// The fixed groups' γ, by group and feature index (indices a group lacks weigh 1); every
    /// feature must be present, finite and positive (the line's from version 4 on).
    pub fn fixed(&self) -> Result<[[f64; 4]; FIXED_GROUPS], String> {
        let mut fixed = [[1.0f64; 4]; FIXED_GROUPS];
        for (gi, g) in GROUPS[..FIXED_GROUPS].iter().enumerate() {
            let Some(feats) = self.groups.get(g.name()) else {
                if *g == Group::Line && self.version < LINE_VERSION {
                    continue;
                }
                return Err(format!("pattern weights lack the group {:?}", g.name()));
            };
            for (fi, f) in g.features().iter().enumerate() {
                let Some(&gamma) = feats.get(*f) else {
                    return Err(format!("pattern weights lack {}:{f}", g.name()));
                };
                if !(gamma.is_finite() && gamma > 0.0) {
                    return Err(format!("pattern weight {}:{f} is {gamma}", g.name()));
                }
                fixed[gi][fi] = gamma;
            }
        }
        Ok(fixed)
    }
}

/// The weights ready for lookups.
#[derive(Debug, Clone)]
pub struct Model {
    fixed: [[f32; 4]; FIXED_GROUPS],
    /// Sorted by key: a binary search is cheaper than hashing in playouts.
    shapes: Vec<(ShapeKey, f32)>,
    /// Whether its shapes are oriented where the map allows (version 2) or counted (version 1).
    oriented: bool,
    /// Sorted by key; empty for a model without large shapes.
    large: Vec<(LargeKey, f32)>,
    /// The γ of a move whose large shape is none of `large`.
    no_large: f32,
}

/// Maps of this many nodes or more (13×13 and up) take the big-board model.
pub const BIG_MAP: usize = 169;

/// A weight read from a file: finite and positive, or an error naming it.
fn gamma_of(what: &str, gamma: f64) -> Result<f32, String> {
    if gamma.is_finite() && gamma > 0.0 { Ok(gamma as f32) } else { Err(format!("{what} weighs {gamma}")) }
}

impl Model {
    pub fn from_weights(w: &Weights) -> Result<Model, String> {
        if !(1..=WEIGHTS_VERSION).contains(&w.version) {
            return Err(format!(
                "pattern weights version {} (this program reads 1 to {WEIGHTS_VERSION})",
                w.version
            ));
        }
        let fixed = w.fixed()?.map(|group| group.map(|gamma| gamma as f32));
        let mut shapes = Vec::new();
        for (k, &gamma) in &w.shapes {
            let key = ShapeKey::parse(k).ok_or_else(|| format!("bad shape key {k:?}"))?;
            shapes.push((key, gamma_of(&format!("shape {k}"), gamma)?));
        }
        shapes.sort_by_key(|&(k, _)| k);
        let (mut large, mut no_large) = (Vec::new(), 1.0);
        for (k, &gamma) in &w.large_shapes {
            let gamma = gamma_of(&format!("large shape {k}"), gamma)?;
            if k == NO_LARGE_SHAPE {
                no_large = gamma;
                continue;
            }
            let key = LargeKey::parse(k).ok_or_else(|| format!("bad large shape key {k:?}"))?;
            large.push((key, gamma));
        }
        large.sort_by_key(|&(k, _)| k);
        Ok(Model { fixed, shapes, oriented: w.oriented(), large, no_large })
    }

    /// The checked-in model for a map of `nodes` nodes. Maps of [`BIG_MAP`] nodes and more take
    /// `data/patterns-big.json` (oriented and large shapes, 9-dan 19×19 games); smaller ones
    /// `data/patterns.json` (counted shapes, 13×13 games), which 9×9 was measured with: the
    /// oriented model won 21 of 32 19×19 self-play games but 42 % on 9×9 (docs/benchmarks.md).
    pub fn builtin(nodes: usize) -> &'static Model {
        static SMALL: OnceLock<Model> = OnceLock::new();
        static BIG: OnceLock<Model> = OnceLock::new();
        let load = |text: &str| {
            let weights: Result<Weights, String> = serde_json::from_str(text).map_err(|e| e.to_string());
            // The files are checked in and tested; a broken one weighs every move alike.
            weights.and_then(|w| Model::from_weights(&w)).unwrap_or(Model {
                fixed: [[1.0; 4]; FIXED_GROUPS],
                shapes: Vec::new(),
                oriented: false,
                large: Vec::new(),
                no_large: 1.0,
            })
        };
        if nodes >= BIG_MAP {
            BIG.get_or_init(|| load(include_str!("../../../data/patterns-big.json")))
        } else {
            SMALL.get_or_init(|| load(include_str!("../../../data/patterns.json")))
        }
    }

    /// Whether the model's shapes are oriented where the map allows ([`shape`]).
    pub fn oriented(&self) -> bool {
        self.oriented
    }

    /// Whether the model reads large shapes: positions need the map's [`OuterRings`] then.
    pub fn reads_large_shapes(&self) -> bool {
        !self.large.is_empty()
    }

    #[inline]
    pub fn shape_gamma(&self, key: ShapeKey) -> f32 {
        self.shapes.binary_search_by_key(&key, |&(k, _)| k).map_or(1.0, |i| self.shapes[i].1)
    }

    fn large_gamma(&self, key: Option<LargeKey>) -> f32 {
        let known = key.and_then(|key| self.large.binary_search_by_key(&key, |&(k, _)| k).ok());
        known.map_or(self.no_large, |i| self.large[i].1)
    }

    /// A move's strength: the product of its features' γ.
    pub fn strength(&self, f: &Features) -> f32 {
        let mut s = self.shape_gamma(f.shape) * self.large_gamma(f.large);
        for (g, &i) in f.fixed.iter().enumerate() {
            s *= self.fixed[g][i as usize];
        }
        s
    }
}
