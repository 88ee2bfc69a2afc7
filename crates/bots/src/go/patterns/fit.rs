//! Fitting the pattern weights: every position of a game record is a competition among the
//! legal moves, won by the move played; Hunter's MM algorithm finds the γ of each feature that
//! make the played moves most likely (Coulom 2007), with one virtual win and one virtual loss
//! against a γ of 1 for each feature so that rare features stay near 1.

use std::{collections::BTreeMap, sync::Arc};

use gobeyond_rules::{ClassicGame, Game, Player, classic::Action, playout::PlayoutTables};
use serde::Serialize;

use super::{Distances, GROUPS, ShapeKey, WEIGHTS_VERSION, Weights, features, is_candidate};

/// Fixed features take slots `group × 4 + index`; shapes follow.
const FIXED_SLOTS: usize = 7 * 4;

/// Positions as competitions: each candidate a team of feature slots.
#[derive(Debug, Default)]
pub struct Samples {
    /// Slots of every candidate, 8 per candidate.
    teams: Vec<[u32; 8]>,
    /// Candidates of position `j`: `starts[j]..starts[j + 1]`.
    starts: Vec<usize>,
    /// The played move's index among its position's candidates.
    winners: Vec<usize>,
    shapes: BTreeMap<ShapeKey, u32>,
    /// Whether shapes are oriented where the map allows (weights of version 2) or counted (1).
    oriented: bool,
}

impl Samples {
    /// No samples yet; shapes read oriented (`true`) or counted.
    pub fn new(oriented: bool) -> Samples {
        Samples { starts: vec![0], oriented, ..Samples::default() }
    }

    pub fn positions(&self) -> usize {
        self.winners.len()
    }

    pub fn candidates(&self) -> usize {
        self.teams.len()
    }

    fn slot(&mut self, key: ShapeKey) -> u32 {
        let next = (FIXED_SLOTS + self.shapes.len()) as u32;
        *self.shapes.entry(key).or_insert(next)
    }

    /// Every placement of a classic game whose mover had a choice: the position before it, the
    /// legal moves that are not own-eye fillings, and the one played.
    pub fn add_game(&mut self, game: &ClassicGame) -> Result<(), String> {
        let map = game.map().clone();
        let tables = Arc::new(PlayoutTables::new(&map));
        let rules = game.rules().clone();
        let mut g = ClassicGame::with_setup(
            map.clone(),
            game.player_count(),
            rules,
            game.setup(),
            game.first_player(),
        )
        .map_err(|e| e.to_string())?;
        let mut placed: Vec<(Player, u32)> = Vec::new();
        for &(p, a) in game.moves() {
            if let Action::Place(node) = a
                && g.next_player() == p
            {
                let board = g.board();
                let last = placed.last().filter(|(q, _)| *q != p).map(|&(_, n)| n);
                let own_last = placed.iter().rev().find(|(q, _)| *q == p).map(|&(_, n)| n);
                let dist = Distances::new(board, last, own_last);
                let start = self.teams.len();
                let mut winner = None;
                for &v in board.empties() {
                    if !is_candidate(board, &tables, v, p) {
                        continue;
                    }
                    let f = features(board, &tables, &dist, v, p, self.oriented);
                    let mut team = [0u32; 8];
                    for (i, &x) in f.fixed.iter().enumerate() {
                        team[i] = (i * 4) as u32 + u32::from(x);
                    }
                    team[7] = self.slot(f.shape);
                    if v == node {
                        winner = Some(self.teams.len() - start);
                    }
                    self.teams.push(team);
                }
                match winner {
                    // Moves the model cannot rate (an own-eye filling) are left out.
                    Some(w) if self.teams.len() - start >= 2 => {
                        self.winners.push(w);
                        self.starts.push(self.teams.len());
                    }
                    _ => self.teams.truncate(start),
                }
                placed.push((p, node));
            }
            g.play_as(p, a).map_err(|e| e.to_string())?;
        }
        Ok(())
    }

    /// Moves the samples into two sets: every `k`-th position to the second (held out).
    pub fn split(self, k: usize) -> (Samples, Samples) {
        let mut a = Samples { shapes: self.shapes.clone(), ..Samples::new(self.oriented) };
        let mut b = Samples { shapes: self.shapes, ..Samples::new(self.oriented) };
        for j in 0..self.winners.len() {
            let to = if k > 0 && j % k == k - 1 { &mut b } else { &mut a };
            to.teams.extend_from_slice(&self.teams[self.starts[j]..self.starts[j + 1]]);
            to.winners.push(self.winners[j]);
            to.starts.push(to.teams.len());
        }
        (a, b)
    }
}

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
    fn strength(&self, team: &[u32; 8]) -> f64 {
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
        let groups = GROUPS[..7]
            .iter()
            .enumerate()
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
        let version = if s.oriented { WEIGHTS_VERSION } else { 1 };
        Weights { version, trained_on, groups, shapes }
    }
}

/// Every feature weighing 1 (every legal move alike): the baseline the fit must beat.
pub fn equal_weights(s: &Samples) -> Gammas {
    Gammas(vec![1.0; FIXED_SLOTS + s.shapes.len()])
}

/// Where a fit starts: every γ at 1 and free, or an earlier model's γ held fixed.
#[derive(Debug, Clone)]
pub struct Start {
    gamma: Gammas,
    frozen: Vec<bool>,
    /// The base's shapes the samples never met, kept as they are in the weights written.
    kept: BTreeMap<String, f64>,
}

impl Start {
    /// Nothing known: every γ 1, all fitted.
    pub fn fresh(s: &Samples) -> Start {
        let slots = FIXED_SLOTS + s.shapes.len();
        Start { gamma: Gammas(vec![1.0; slots]), frozen: vec![false; slots], kept: BTreeMap::new() }
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
                Some(&slot) => {
                    start.gamma.0[slot as usize] = gamma;
                    start.frozen[slot as usize] = true;
                }
                None => {
                    start.kept.insert(text.clone(), gamma);
                }
            }
        }
        Ok(start)
    }

    /// The γ the fit starts from (the base's where it has them).
    pub fn gammas(&self) -> &Gammas {
        &self.gamma
    }
}

/// Hunter's MM, group by group, `iterations` rounds over all groups; frozen γ stay as they start.
pub fn fit(s: &Samples, start: Start, iterations: usize, mut progress: impl FnMut(usize, Quality)) -> Fitted {
    let slots = FIXED_SLOTS + s.shapes.len();
    let Start { mut gamma, frozen, kept } = start;
    // Wins per slot: fixed by the data.
    let mut wins = vec![0.0f64; slots];
    for j in 0..s.positions() {
        for &slot in &s.teams[s.starts[j] + s.winners[j]] {
            wins[slot as usize] += 1.0;
        }
    }
    let mut denom = vec![0.0f64; slots];
    for round in 0..iterations {
        for g in 0..8 {
            let group = if g < 7 { g * 4..g * 4 + 4 } else { FIXED_SLOTS..slots };
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
            for slot in group {
                if !frozen[slot] && denom[slot] > 0.0 {
                    let old = gamma.0[slot];
                    gamma.0[slot] = (wins[slot] + 1.0) / (denom[slot] + 2.0 / (old + 1.0));
                }
            }
        }
        progress(round + 1, gamma.quality(s));
    }
    Fitted { gamma, kept }
}

/// A fit's result: the γ of the samples' features, and the base's shapes they never met.
#[derive(Debug, Clone)]
pub struct Fitted {
    pub gamma: Gammas,
    kept: BTreeMap<String, f64>,
}

impl Fitted {
    /// The weights file: the fitted γ and the kept ones.
    pub fn weights(&self, s: &Samples, trained_on: String) -> Weights {
        let mut w = self.gamma.weights(s, trained_on);
        w.shapes.extend(self.kept.iter().map(|(k, &g)| (k.clone(), g)));
        w
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    /// Games on 7×7 in which the mover captures whenever it can and plays at random otherwise.
    fn capturing_games() -> Samples {
        let map = Arc::new(gobeyond_maps::generate("square:7").unwrap());
        let tables = PlayoutTables::new(&map);
        let mut samples = Samples::new(true);
        let mut rng = gobeyond_rules::Rng::new(9);
        for _ in 0..12 {
            let mut g = ClassicGame::new(map.clone(), 2, gobeyond_rules::ClassicRules::default()).unwrap();
            for _ in 0..60 {
                let p = g.next_player();
                let board = g.board();
                let legal: Vec<u32> =
                    board.empties().iter().copied().filter(|&v| is_candidate(board, &tables, v, p)).collect();
                if legal.is_empty() {
                    break;
                }
                let capture = legal.iter().copied().find(|&v| {
                    map.neighbors(v).iter().any(|&q| {
                        board.color(q) != 0
                            && board.color(q) != p.stone()
                            && board.atari_liberty(q) == Some(v)
                    })
                });
                let v = capture.unwrap_or(legal[rng.below(legal.len() as u32) as usize]);
                if g.play(Action::Place(v)).is_err() {
                    break;
                }
            }
            samples.add_game(&g).unwrap();
        }
        samples
    }

    /// The fit must learn that captures are strong, and predict better than equal weights.
    #[test]
    fn the_fit_learns_what_the_players_did() {
        let samples = capturing_games();
        assert!(samples.positions() > 300, "{}", samples.positions());
        let (train, test) = samples.split(5);
        let before = equal_weights(&train).quality(&test);
        let fitted = fit(&train, Start::fresh(&train), 5, |_, _| {});
        let after = fitted.gamma.quality(&test);
        assert!(after.log_likelihood > before.log_likelihood, "{before:?} → {after:?}");
        let w = fitted.weights(&train, "test".into());
        let capture = &w.groups["capture"];
        assert!(capture["one"] > 5.0 * capture["none"], "{capture:?}");
        // The file reads back.
        assert!(super::super::Model::from_weights(&w).is_ok());
    }

    /// Extending a model fits only the shapes it has never seen: its fixed groups and known
    /// shapes come out as they went in, and shapes the new games never met are kept.
    #[test]
    fn extending_a_model_fits_only_its_unknown_shapes() {
        let samples = capturing_games();
        let first = fit(&samples, Start::fresh(&samples), 5, |_, _| {}).weights(&samples, "first".into());
        let mut base = first.clone();
        // A base that knows captures less well, misses the commonest shape, and holds a shape
        // of another map family.
        base.groups.get_mut("capture").unwrap().insert("one".into(), 3.0);
        let (common, _) = samples
            .shapes
            .iter()
            .max_by_key(|&(_, &slot)| {
                (0..samples.candidates()).filter(|&i| samples.teams[i][7] == slot).count()
            })
            .unwrap();
        let common = common.text();
        base.shapes.remove(&common);
        base.shapes.insert("0060/0060".into(), 2.5);
        let start = Start::extending(&samples, &base).unwrap();
        let w = fit(&samples, start, 5, |_, _| {}).weights(&samples, "extended".into());
        assert_eq!(w.groups, base.groups);
        assert_eq!(w.shapes.get("0060/0060"), Some(&2.5));
        for (k, g) in &base.shapes {
            assert_eq!(w.shapes.get(k), Some(g), "{k}");
        }
        // The missing shape was fitted again (and moved off 1, where it started).
        assert!(w.shapes.get(&common).is_some_and(|&g| g != 1.0), "{common}: {:?}", w.shapes.get(&common));
        assert_eq!(w.shapes.len(), base.shapes.len() + 1);
        // A base without a group is refused with its name.
        base.groups.remove("atari");
        assert!(Start::extending(&samples, &base).unwrap_err().contains("atari"));
    }
}
