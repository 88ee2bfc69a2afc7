//! `genmove`'s search: the game as the search sees it, the time for a move, resigning hopeless
//! games, and the ownership estimate behind `final_score` and `final_status_list`.

use std::time::Duration;

use gobeyond_bots::{SearchConfig, Searcher};
use gobeyond_maps::NodeId;
use gobeyond_rules::{
    ClassicRules, Game, Player,
    classic::{Action, ClassicGame},
    playout::is_eye,
};

use super::GtpEngine;

/// The engine resigns when its best move's expected reward stays below this...
const RESIGN_BELOW: f32 = 0.06;
/// ...for this many of its moves in a row (as KataGo does): one pessimistic search, a seki or
/// a semeai the playouts misread for a move, does not throw a game away.
const RESIGN_AFTER: u32 = 3;

impl GtpEngine {
    /// The game as the search sees it: `player` to move (a pass put in if needed), and two
    /// passes ending the game so that the search knows when passing wins.
    pub(super) fn search_game(&self, player: Player) -> Option<ClassicGame> {
        let mut g = match self.replay(ClassicRules { passes_to_end: None, ..self.rules.clone() }) {
            Ok(g) if !g.is_over() => g,
            // Two passes in a row already (at the end, or earlier with play going on after
            // them, which the controller decides): the search's game does not end by passing.
            _ => self.replay(ClassicRules { passes_to_end: Some(u32::MAX), ..self.rules.clone() }).ok()?,
        };
        if g.next_player() != player {
            g.play_as(g.next_player(), Action::Pass).ok()?;
        }
        Some(g)
    }

    /// Time for this move: from the controller's clock (main time spread over about half the
    /// empty points, at least 20 moves), else the command line; the command line's is the most
    /// a move takes when both are given.
    pub(super) fn move_time(&self, player: Player) -> Option<Duration> {
        let moves_to_go = (self.game.board().empties().len() as f64 / 2.0).max(20.0);
        let clock = self.clock.budget(player.index(), moves_to_go);
        let given = self.seconds_per_move.map(Duration::from_secs_f64);
        match (clock, given) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    /// The search's move (or a random one without search). Resigns when the search sees no
    /// hope after a real search.
    pub(super) fn choose(&mut self, player: Player) -> Action {
        let start = std::time::Instant::now();
        let action = self.search_or_random(player);
        self.clock.spent(player.index(), start.elapsed().as_secs_f64());
        action
    }

    fn search_or_random(&mut self, player: Player) -> Action {
        let time = self.move_time(player);
        if self.searcher.is_some()
            && let Some(game) = self.search_game(player)
            && let Some(s) = &mut self.searcher
        {
            // Under a time limit the clock governs; a playout cap stays only when asked for.
            s.config.playouts = match time {
                Some(_) => self.timed_playouts.unwrap_or(u32::MAX),
                None => self.playouts,
            };
            s.config.time = time;
            let a = s.search(&game);
            // For the controller's log (GoGui shows it): how much of the tree came from earlier
            // searches and pondering.
            let in_tree: u32 = a.actions.iter().map(|s| s.visits).sum();
            eprintln!(
                "genmove: {} playouts in {:.2} s, {} in the tree (kept from earlier searches and pondering \
                 included), value {:.3}",
                a.playouts,
                a.elapsed.as_secs_f64(),
                in_tree,
                a.value()
            );
            let best = a.best;
            let hopeless = a.playouts >= 500 && a.value() < RESIGN_BELOW && self.moves.len() > 20;
            self.hopeless_moves = if hopeless { self.hopeless_moves + 1 } else { 0 };
            let hopeless = self.hopeless_moves >= RESIGN_AFTER;
            self.analysis = Some((self.moves.len(), a));
            return match best {
                _ if hopeless => Action::Resign,
                Some(action) => action,
                None => Action::Pass,
            };
        }
        let board = self.game.board();
        let mut candidates: Vec<NodeId> = board
            .empties()
            .iter()
            .copied()
            .filter(|&n| {
                !is_eye(board, &self.tables, n, player.stone()) && self.legal_for(player, Action::Place(n))
            })
            .collect();
        candidates.sort_unstable();
        if candidates.is_empty() {
            return Action::Pass;
        }
        Action::Place(candidates[self.rng.below(candidates.len() as u32) as usize])
    }

    /// Stones the playouts say are lost: owned by someone else in most playouts. Searches the
    /// current position when the last analysis is older.
    pub(super) fn dead_stones(&mut self) -> Vec<NodeId> {
        let fresh = matches!(&self.analysis, Some((at, _)) if *at == self.moves.len());
        if !fresh {
            let to_move = self.game.next_player();
            let mut searcher = Searcher::new(SearchConfig { playouts: 3000, ..SearchConfig::default() });
            let Some(game) = self.search_game(to_move) else { return Vec::new() };
            self.analysis = Some((self.moves.len(), searcher.search(&game)));
        }
        self.analysis.as_ref().map_or_else(Vec::new, |(_, a)| a.dead_stones(self.game.board()))
    }
}
