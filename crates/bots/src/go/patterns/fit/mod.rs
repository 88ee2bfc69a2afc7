//! Fitting the pattern weights: every position of a game record is a competition among the
//! legal moves, won by the move played; Hunter's MM algorithm finds the γ of each feature that
//! make the played moves most likely (Coulom 2007), with one virtual win and one virtual loss
//! against a γ of 1 for each feature so that rare features stay near 1.
//!
//! Large shapes are too many to fit them all: a dictionary of those played often enough
//! ([`played_large_shapes`]) is fitted, every other move has the large shape "none".

mod samples;

use std::collections::BTreeMap;

use serde::Serialize;

pub use samples::{Samples, played_large_shapes};

use super::{FIXED_GROUPS, GROUPS, Group, LargeKey, NO_LARGE_SHAPE, ShapeKey, WEIGHTS_VERSION, Weights};

/// Fixed features take slots `group × 4 + index`; the large shapes follow ("none" first, then
/// the dictionary's), then the shapes.
const FIXED_SLOTS: usize = FIXED_GROUPS * 4;
/// Feature slots of a candidate: the fixed groups', its shape's and its large shape's.
const TEAM: usize = FIXED_GROUPS + 2;
const SHAPE: usize = FIXED_GROUPS;
const LARGE: usize = FIXED_GROUPS + 1;
/// The line's slots: fitted with the large shapes (the big-board model), else every line
/// weighs 1 and the file keeps the version older builds read.
const LINE_SLOTS: std::ops::Range<usize> = 7 * 4..8 * 4;

/// How well weights predict the moves of a set of positions.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct Quality {
    /// Share of positions whose played move the weights rank first.
    pub top1: f64,
    /// Mean log-likelihood of the played move.
    pub log_likelihood: f64,
}

/// γ by slot.
#[derive(Debug, Clone)]
pub struct Gammas(Vec<f64>);

impl Gammas {
    fn strength(&self, team: &[u32; TEAM]) -> f64 {
        team.iter().map(|&s| self.0[s as usize]).product()
    }

    pub fn quality(&self, s: &Samples) -> Quality {
        let (mut top, mut ll) = (0.0, 0.0);
        for j in 0..s.positions() {
            let teams = &s.teams[s.starts[j]..s.starts[j + 1]];
            let strengths: Vec<f64> = teams.iter().map(|t| self.strength(t)).collect();
            let total: f64 = strengths.iter().sum();
            let w = strengths[s.winners[j]];
            ll += (w / total).ln();
            // Ties share the first place: equal weights predict one move in the candidates.
            if strengths.iter().all(|&x| x <= w) {
                top += 1.0 / strengths.iter().filter(|&&x| x == w).count() as f64;
            }
        }
        let n = s.positions().max(1) as f64;
        Quality { top1: top / n, log_likelihood: ll / n }
    }

    /// The weights file.
    pub fn weights(&self, s: &Samples, trained_on: String) -> Weights {
        let round = |g: f64| (g * 1e4).round() / 1e4;
        let with_line = !s.large.is_empty();
        let groups = GROUPS[..FIXED_GROUPS]
            .iter()
            .enumerate()
            .filter(|(_, g)| with_line || **g != Group::Line)
            .map(|(gi, g)| {
                let feats = g
                    .features()
                    .iter()
                    .enumerate()
                    .map(|(fi, f)| (f.to_string(), round(self.0[gi * 4 + fi])));
                (g.name().to_string(), feats.collect())
            })
            .collect();
        let shapes = s.shapes.iter().map(|(k, &slot)| (k.text(), round(self.0[slot as usize]))).collect();
        let mut large_shapes: BTreeMap<String, f64> =
            s.large.iter().map(|(k, &slot)| (k.text(), round(self.0[slot as usize]))).collect();
        if !large_shapes.is_empty() {
            large_shapes.insert(NO_LARGE_SHAPE.into(), round(self.0[FIXED_SLOTS]));
        }
        // The oldest version that holds what was fitted: files stay readable by older builds.
        let version = match (s.oriented, large_shapes.is_empty()) {
            (false, _) => 1,
            (true, true) => 2,
            (true, false) => WEIGHTS_VERSION,
        };
        Weights { version, trained_on, groups, shapes, large_shapes }
    }
}

/// Every feature weighing 1 (every legal move alike): the baseline the fit must beat.
pub fn equal_weights(s: &Samples) -> Gammas {
    Gammas(vec![1.0; s.slots()])
}

/// Where a fit starts: every γ at 1 and free, or an earlier model's γ held fixed.
#[derive(Debug, Clone)]
pub struct Start {
    gamma: Gammas,
    frozen: Vec<bool>,
    /// The base's shapes the samples never met, kept as they are in the weights written.
    kept: BTreeMap<String, f64>,
    /// The base's large shapes the samples do not fit, kept likewise.
    kept_large: BTreeMap<String, f64>,
    /// Virtual wins, and as many virtual losses, against a γ of 1 for each large shape: the
    /// more, the nearer 1 the rarely seen stay (every other feature gets one of each).
    large_prior_games: f64,
    /// After the fit each large shape's γ is held within `1 / cap ..= cap` (infinite: free).
    large_cap: f64,
}

impl Start {
    /// Nothing known: every γ 1, all fitted (the large shapes' "none" too, if there are
    /// large shapes to fit: without, every move has it and its γ stays 1).
    pub fn fresh(s: &Samples) -> Start {
        let slots = s.slots();
        let mut frozen = vec![false; slots];
        frozen[FIXED_SLOTS] = s.large.is_empty();
        frozen[LINE_SLOTS].fill(s.large.is_empty());
        Start {
            gamma: Gammas(vec![1.0; slots]),
            frozen,
            kept: BTreeMap::new(),
            kept_large: BTreeMap::new(),
            large_prior_games: 1.0,
            large_cap: f64::INFINITY,
        }
    }

    /// The start with `games` virtual wins and losses for each large shape (1 unless set).
    pub fn with_large_prior(self, games: f64) -> Start {
        Start { large_prior_games: games, ..self }
    }

    /// The start of a fit whose large shapes' γ end within `1 / cap ..= cap`.
    pub fn with_large_cap(self, cap: f64) -> Start {
        Start { large_cap: cap, ..self }
    }

    /// Extends `base`: its fixed groups and the shapes it knows keep their γ; only shapes it has
    /// never seen (a new map family's) are fitted. What the base predicts on its own maps is
    /// unchanged.
    pub fn extending(s: &Samples, base: &Weights) -> Result<Start, String> {
        if s.oriented != base.oriented() {
            return Err(format!(
                "the base (version {}) reads shapes {}: the records must be read the same way",
                base.version,
                if base.oriented() { "oriented" } else { "counted" }
            ));
        }
        let mut start = Start::fresh(s);
        // Every fixed slot is frozen, those a group does not use too (they never occur).
        for (slot, gamma) in base.fixed()?.into_iter().flatten().enumerate() {
            start.gamma.0[slot] = gamma;
            start.frozen[slot] = true;
        }
        for (text, &gamma) in &base.shapes {
            let key = ShapeKey::parse(text).ok_or_else(|| format!("bad shape key {text:?} in the base"))?;
            match s.shapes.get(&key) {
                Some(&slot) => start.freeze(slot, gamma),
                None => {
                    start.kept.insert(text.clone(), gamma);
                }
            }
        }
        for (text, &gamma) in &base.large_shapes {
            let slot = if text == NO_LARGE_SHAPE {
                Some(FIXED_SLOTS as u32)
            } else {
                let key = LargeKey::parse(text)
                    .ok_or_else(|| format!("bad large shape key {text:?} in the base"))?;
                s.large.get(&key).copied()
            };
            match slot {
                Some(slot) => start.freeze(slot, gamma),
                None => {
                    start.kept_large.insert(text.clone(), gamma);
                }
            }
        }
        Ok(start)
    }

    fn freeze(&mut self, slot: u32, gamma: f64) {
        self.gamma.0[slot as usize] = gamma;
        self.frozen[slot as usize] = true;
    }

    /// The γ the fit starts from (the base's where it has them).
    pub fn gammas(&self) -> &Gammas {
        &self.gamma
    }
}

/// Hunter's MM, group by group, `iterations` rounds over all groups; frozen γ stay as they start.
pub fn fit(s: &Samples, start: Start, iterations: usize, mut progress: impl FnMut(usize, Quality)) -> Fitted {
    let slots = s.slots();
    let Start { mut gamma, frozen, kept, kept_large, large_prior_games, large_cap } = start;
    // Wins per slot: fixed by the data.
    let mut wins = vec![0.0f64; slots];
    for j in 0..s.positions() {
        for &slot in &s.teams[s.starts[j] + s.winners[j]] {
            wins[slot as usize] += 1.0;
        }
    }
    let mut denom = vec![0.0f64; slots];
    for round in 0..iterations {
        for g in 0..TEAM {
            let group = match g {
                SHAPE => s.shape_base()..slots,
                LARGE => FIXED_SLOTS..s.shape_base(),
                _ => g * 4..g * 4 + 4,
            };
            if frozen[group.clone()].iter().all(|&f| f) {
                // Nothing of this group to fit (an extended base's): skip its pass over the data.
                continue;
            }
            denom.iter_mut().for_each(|d| *d = 0.0);
            for j in 0..s.positions() {
                let teams = &s.teams[s.starts[j]..s.starts[j + 1]];
                let total: f64 = teams.iter().map(|t| gamma.strength(t)).sum();
                for t in teams {
                    let slot = t[g] as usize;
                    // The team's strength without this group's feature, over the total.
                    denom[slot] += gamma.strength(t) / gamma.0[slot] / total;
                }
            }
            let prior = if g == LARGE { large_prior_games } else { 1.0 };
            for slot in group {
                if !frozen[slot] && denom[slot] > 0.0 {
                    let old = gamma.0[slot];
                    gamma.0[slot] = (wins[slot] + prior) / (denom[slot] + 2.0 * prior / (old + 1.0));
                }
            }
        }
        progress(round + 1, gamma.quality(s));
    }
    let large = FIXED_SLOTS..s.shape_base();
    for (g, _) in gamma.0[large.clone()].iter_mut().zip(&frozen[large]).filter(|(_, frozen)| !**frozen) {
        *g = g.clamp(1.0 / large_cap, large_cap);
    }
    Fitted { gamma, kept, kept_large }
}

/// A fit's result: the γ of the samples' features, and the base's shapes they never met.
#[derive(Debug, Clone)]
pub struct Fitted {
    pub gamma: Gammas,
    kept: BTreeMap<String, f64>,
    kept_large: BTreeMap<String, f64>,
}

impl Fitted {
    /// The weights file: the fitted γ and the kept ones.
    pub fn weights(&self, s: &Samples, trained_on: String) -> Weights {
        let mut w = self.gamma.weights(s, trained_on);
        w.shapes.extend(self.kept.iter().map(|(k, &g)| (k.clone(), g)));
        w.large_shapes.extend(self.kept_large.iter().map(|(k, &g)| (k.clone(), g)));
        w
    }
}

#[cfg(test)]
mod tests;
