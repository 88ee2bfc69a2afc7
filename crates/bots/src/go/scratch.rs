//! The scratch space of a search thread for the Go-board systems (classic Go, GoBeyond): the
//! board playouts run on, the ladder reader and the pattern cache of the priors, and the knobs
//! the search configuration sets (the playout policy, the patterns, the score bonus).

use std::sync::Arc;

use gobeyond_maps::Map;
use gobeyond_rules::{Board, MAX_PLAYERS, board::EMPTY, playout::PlayoutTables};

use super::{ladder::LadderReader, patterns, policy::Policy, priors::lines};
use crate::search::mcts::SearchConfig;

/// Scratch space of one search thread, reused by every playout and prior.
#[derive(Debug, Clone)]
pub struct Scratch {
    pub board: Board,
    pub tables: Arc<PlayoutTables>,
    /// Final owner per node after the last playout (colour code, 0 for nobody).
    pub owner: Vec<u8>,
    pub area: [u32; MAX_PLAYERS],
    /// Each seat's score at the end of the last playout, where the system counts it there
    /// (classic Go: area and komi), for the review's expected scores.
    pub scores: [f32; MAX_PLAYERS],
    /// Ladder reading for the priors of two-player games.
    pub ladder: LadderReader,
    /// The playout policy ([`SearchConfig::policy`]).
    pub policy: Policy,
    /// Whether classic Go's priors come from the learned move patterns.
    pub patterns: bool,
    pub pattern_cache: patterns::Cache,
    /// The map's outer rings if the map's pattern model reads large shapes, else empty.
    pub rings: patterns::OuterRings,
    /// Per node, its line: 1 on the map's edge (nodes of less than the largest degree), 2 next
    /// to it, and so on; 0 everywhere on a map without an edge (torus, sphere).
    pub line: Vec<u8>,
    /// Share of a two-player playout's reward that is the score margin rather than the win
    /// ([`SearchConfig::score_bonus`]).
    pub score_bonus: f32,
}

impl Scratch {
    /// Scratch space for searches on `map` with `config`'s knobs (the board starts empty:
    /// playouts copy their position into it).
    pub fn new(map: &Arc<Map>, tables: Arc<PlayoutTables>, config: &SearchConfig) -> Scratch {
        let rings = if patterns::Model::builtin(map.len()).reads_large_shapes() {
            patterns::OuterRings::new(map, &tables)
        } else {
            patterns::OuterRings::default()
        };
        Scratch {
            board: Board::new(map.clone()),
            tables,
            owner: vec![0; map.len()],
            area: [0; MAX_PLAYERS],
            scores: [0.0; MAX_PLAYERS],
            ladder: LadderReader::new(),
            policy: config.policy,
            patterns: config.patterns,
            pattern_cache: patterns::Cache::default(),
            rings,
            line: lines(map),
            score_bonus: config.score_bonus,
        }
    }

    /// Stone owners, and empty nodes whose neighbours are all one player's.
    pub fn record_owners(&mut self) {
        let b = &self.board;
        let map = b.map();
        for n in map.nodes() {
            let c = b.color(n);
            self.owner[n as usize] = if c != EMPTY {
                c
            } else {
                let nb = map.neighbors(n);
                let c0 = nb.first().map_or(EMPTY, |&q| b.color(q));
                if c0 != EMPTY && nb.iter().all(|&q| b.color(q) == c0) { c0 } else { EMPTY }
            };
        }
    }
}
