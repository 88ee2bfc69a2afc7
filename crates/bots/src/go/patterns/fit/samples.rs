//! The fit's data: every placement of a record whose mover had a choice, as a competition
//! among the legal moves (each a team of feature slots), and the dictionary of large shapes.

use std::{collections::BTreeMap, sync::Arc};

use gobeyond_maps::NodeId;
use gobeyond_rules::{Board, ClassicGame, Game, Player, classic::Action, playout::PlayoutTables};

use super::{FIXED_SLOTS, LARGE, SHAPE, TEAM};
use crate::go::{
    patterns::{
        Distances, LargeKey, OuterRings, ShapeKey, Surroundings, features, is_candidate, large_shape,
    },
    priors::lines,
};

/// Positions as competitions: each candidate a team of feature slots.
#[derive(Debug, Default)]
pub struct Samples {
    /// Slots of every candidate, [`TEAM`] per candidate.
    pub(super) teams: Vec<[u32; TEAM]>,
    /// Candidates of position `j`: `starts[j]..starts[j + 1]`.
    pub(super) starts: Vec<usize>,
    /// The played move's index among its position's candidates.
    pub(super) winners: Vec<usize>,
    pub(super) shapes: BTreeMap<ShapeKey, u32>,
    /// The large shapes fitted, by slot (their "none" at `FIXED_SLOTS`, these after it).
    pub(super) large: BTreeMap<LargeKey, u32>,
    /// Whether shapes are oriented where the map allows (weights of version 2 and up) or counted (1).
    pub(super) oriented: bool,
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
    pub(super) fn shape_base(&self) -> usize {
        FIXED_SLOTS + 1 + self.large.len()
    }

    /// Every feature slot there is.
    pub(super) fn slots(&self) -> usize {
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
        let lines = lines(game.map());
        replay(game, |at| {
            let Placement { board, player, last, own_last, node } = *at;
            let dist = Distances::new(board, last, own_last);
            let around = Surroundings { board, tables: &tables, rings: &rings, lines: &lines, dist: &dist };
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
