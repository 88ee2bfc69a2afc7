//! Fitting the pattern weights: every position of a game record is a competition among the
//! legal moves, won by the move played; Hunter's MM algorithm finds the γ of each feature that
//! make the played moves most likely (Coulom 2007), with one virtual win and one virtual loss
//! against a γ of 1 for each feature so that rare features stay near 1.
//!
//! Large shapes are too many to fit them all: a dictionary of those played often enough
//! ([`played_large_shapes`]) is fitted, every other move has the large shape "none".

use std::{collections::BTreeMap, sync::Arc};

use gobeyond_maps::NodeId;
use gobeyond_rules::{Board, ClassicGame, Game, Player, classic::Action, playout::PlayoutTables};
use serde::Serialize;

use super::{
    Distances, GROUPS, LargeKey, NO_LARGE_SHAPE, OuterRings, ShapeKey, Surroundings, WEIGHTS_VERSION,
    Weights, features, is_candidate, large_shape,
};

/// Fixed features take slots `group × 4 + index`; the large shapes follow ("none" first, then
/// the dictionary's), then the shapes.
const FIXED_SLOTS: usize = 7 * 4;
/// Feature slots of a candidate: the fixed groups', its shape's and its large shape's.
const TEAM: usize = 9;
const SHAPE: usize = 7;
const LARGE: usize = 8;

/// Positions as competitions: each candidate a team of feature slots.
#[derive(Debug, Default)]
pub struct Samples {
    /// Slots of every candidate, [`TEAM`] per candidate.
    teams: Vec<[u32; TEAM]>,
    /// Candidates of position `j`: `starts[j]..starts[j + 1]`.
    starts: Vec<usize>,
    /// The played move's index among its position's candidates.
    winners: Vec<usize>,
    shapes: BTreeMap<ShapeKey, u32>,
    /// The large shapes fitted, by slot (their "none" at `FIXED_SLOTS`, these after it).
    large: BTreeMap<LargeKey, u32>,
    /// Whether shapes are oriented where the map allows (weights of version 2 and up) or counted (1).
    oriented: bool,
}

/// Every placement of a classic game whose mover had a choice, in order: the position before
/// it, the mover, its last placement and the opponent's, and the node played.
struct Placement<'a> {
    board: &'a Board,
    player: Player,
    last: Option<NodeId>,
    own_last: Option<NodeId>,
    node: NodeId,
}

/// Replays `game` from its setup, calling `each` before every placement (see [`Placement`]).
fn replay(game: &ClassicGame, mut each: impl FnMut(&Placement)) -> Result<(), String> {
    let mut g = ClassicGame::with_setup(
        game.map().clone(),
        game.player_count(),
        game.rules().clone(),
        game.setup(),
        game.first_player(),
    )
    .map_err(|e| e.to_string())?;
    let mut placed: Vec<(Player, NodeId)> = Vec::new();
    for &(p, a) in game.moves() {
        if let Action::Place(node) = a
            && g.next_player() == p
        {
            let last = placed.last().filter(|(q, _)| *q != p).map(|&(_, n)| n);
            let own_last = placed.iter().rev().find(|(q, _)| *q == p).map(|&(_, n)| n);
            each(&Placement { board: g.board(), player: p, last, own_last, node });
            placed.push((p, node));
        }
        g.play_as(p, a).map_err(|e| e.to_string())?;
    }
    Ok(())
}

/// The large shapes played at least `min_played` times in `games`, sorted: the dictionary of
/// a fit. The rest are too rare to fit a weight to.
pub fn played_large_shapes(games: &[ClassicGame], min_played: u32) -> Result<Vec<LargeKey>, String> {
    let mut played: BTreeMap<LargeKey, u32> = BTreeMap::new();
    for game in games {
        let tables = PlayoutTables::new(game.map());
        let rings = OuterRings::new(game.map(), &tables);
        replay(game, |at| {
            if let Some(key) = large_shape(at.board, &tables, &rings, at.node, at.player) {
                *played.entry(key).or_default() += 1;
            }
        })?;
    }
    Ok(played.into_iter().filter(|&(_, n)| n >= min_played).map(|(k, _)| k).collect())
}

impl Samples {
    /// No samples yet; shapes read oriented (`true`) or counted, and the large shapes to fit
    /// (none for counted shapes: the small-board model has none).
    pub fn new(oriented: bool, large: &[LargeKey]) -> Samples {
        let large = if oriented { large } else { &[] };
        let large = large.iter().zip(FIXED_SLOTS as u32 + 1..).map(|(&k, slot)| (k, slot)).collect();
        Samples { starts: vec![0], oriented, large, ..Samples::default() }
    }

    /// The first shape slot: after "none" and the dictionary's large shapes.
    fn shape_base(&self) -> usize {
        FIXED_SLOTS + 1 + self.large.len()
    }

    /// Every feature slot there is.
    fn slots(&self) -> usize {
        self.shape_base() + self.shapes.len()
    }

    pub fn positions(&self) -> usize {
        self.winners.len()
    }

    pub fn candidates(&self) -> usize {
        self.teams.len()
    }

    fn shape_slot(&mut self, key: ShapeKey) -> u32 {
        let next = self.slots() as u32;
        *self.shapes.entry(key).or_insert(next)
    }

    fn large_slot(&self, key: Option<LargeKey>) -> u32 {
        key.and_then(|k| self.large.get(&k).copied()).unwrap_or(FIXED_SLOTS as u32)
    }

    /// Every placement of a classic game whose mover had a choice: the position before it, the
    /// legal moves that are not own-eye fillings, and the one played.
    pub fn add_game(&mut self, game: &ClassicGame) -> Result<(), String> {
        let tables = Arc::new(PlayoutTables::new(game.map()));
        let rings =
            if self.large.is_empty() { OuterRings::default() } else { OuterRings::new(game.map(), &tables) };
        replay(game, |at| {
            let Placement { board, player, last, own_last, node } = *at;
            let dist = Distances::new(board, last, own_last);
            let around = Surroundings { board, tables: &tables, rings: &rings, dist: &dist };
            let start = self.teams.len();
            let mut winner = None;
            for &v in board.empties() {
                if !is_candidate(board, &tables, v, player) {
                    continue;
                }
                let f = features(&around, v, player, self.oriented);
                let mut team = [0u32; TEAM];
                for (i, &x) in f.fixed.iter().enumerate() {
                    team[i] = (i * 4) as u32 + u32::from(x);
                }
                team[SHAPE] = self.shape_slot(f.shape);
                team[LARGE] = self.large_slot(f.large);
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
        })
    }

    /// Moves the samples into two sets: every `k`-th position to the second (held out).
    pub fn split(self, k: usize) -> (Samples, Samples) {
        let empty = || Samples { starts: vec![0], oriented: self.oriented, ..Samples::default() };
        let mut a = Samples { shapes: self.shapes.clone(), large: self.large.clone(), ..empty() };
        let mut b = Samples { shapes: self.shapes.clone(), large: self.large.clone(), ..empty() };
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
}

impl Start {
    /// Nothing known: every γ 1, all fitted (the large shapes' "none" too, if there are
    /// large shapes to fit: without, every move has it and its γ stays 1).
    pub fn fresh(s: &Samples) -> Start {
        let slots = s.slots();
        let mut frozen = vec![false; slots];
        frozen[FIXED_SLOTS] = s.large.is_empty();
        Start {
            gamma: Gammas(vec![1.0; slots]),
            frozen,
            kept: BTreeMap::new(),
            kept_large: BTreeMap::new(),
            large_prior_games: 1.0,
        }
    }

    /// The start with `games` virtual wins and losses for each large shape (1 unless set).
    pub fn with_large_prior(self, games: f64) -> Start {
        Start { large_prior_games: games, ..self }
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
    let Start { mut gamma, frozen, kept, kept_large, large_prior_games } = start;
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
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    /// Games on 7×7 in which the mover captures whenever it can and plays at random otherwise.
    fn capturing_games() -> Samples {
        let mut samples = Samples::new(true, &[]);
        for g in capturing_game_records() {
            samples.add_game(&g).unwrap();
        }
        samples
    }

    fn capturing_game_records() -> Vec<ClassicGame> {
        let map = Arc::new(gobeyond_maps::generate("square:7").unwrap());
        let tables = PlayoutTables::new(&map);
        let mut games = Vec::new();
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
            games.push(g);
        }
        games
    }

    /// Large shapes played often enough are fitted beside the rest: the weights name each with
    /// its γ and "none" for the others, they fit the games better than without, and the model
    /// reads them back.
    #[test]
    fn the_fit_weighs_the_large_shapes_played_often() {
        let games = capturing_game_records();
        let large = played_large_shapes(&games, 2).unwrap();
        assert!(large.len() >= 5, "{} large shapes played twice", large.len());
        let mut samples = Samples::new(true, &large);
        for g in &games {
            samples.add_game(g).unwrap();
        }
        let with = fit(&samples, Start::fresh(&samples), 5, |_, _| {});
        let without = capturing_games();
        let plain = fit(&without, Start::fresh(&without), 5, |_, _| {});
        let (a, b) = (with.gamma.quality(&samples), plain.gamma.quality(&without));
        assert!(a.log_likelihood > b.log_likelihood, "with large shapes {a:?}, without {b:?}");
        let w = with.weights(&samples, "test".into());
        assert_eq!(w.large_shapes.len(), large.len() + 1);
        assert!(w.large_shapes.contains_key(NO_LARGE_SHAPE));
        assert!(w.large_shapes.values().any(|&g| g != 1.0), "{:?}", w.large_shapes);
        assert!(super::super::Model::from_weights(&w).unwrap().reads_large_shapes());
        // More virtual games keep the large shapes' γ nearer 1.
        let spread = |f: &Fitted| {
            let w = f.weights(&samples, "test".into());
            w.large_shapes.values().map(|g| g.ln().abs()).fold(0.0, f64::max)
        };
        let tamed = fit(&samples, Start::fresh(&samples).with_large_prior(20.0), 5, |_, _| {});
        assert!(spread(&tamed) < spread(&with), "{} against {}", spread(&tamed), spread(&with));
        // Without large shapes to fit, no weights for them are written.
        assert!(plain.weights(&without, "test".into()).large_shapes.is_empty());
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
                (0..samples.candidates()).filter(|&i| samples.teams[i][SHAPE] == slot).count()
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
