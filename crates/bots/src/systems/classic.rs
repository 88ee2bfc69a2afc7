//! Classic Go for the search and for computer seats: playouts with the Go policies on the Go
//! scratch, priors from the learned move patterns (or the hand-written ones), and a seat that
//! proposes and accepts dead stones by the search's ownership.

use std::sync::Arc;

use gobeyond_maps::NodeId;
use gobeyond_rules::{
    Board, ClassicGame, Game, MAX_PLAYERS, Player, Rng, RuleSystem, Scoring, classic,
    playout::{PlayoutTables, playout_area},
    regions,
};

use crate::{
    computer::Computer,
    go::{
        self, Scratch, dead_stones,
        priors::{self, ESCAPE, EVEN, INTO_LADDER, LADDER_CAPTURE},
        with_margin,
    },
    search::{
        level::{Bot, Strategy},
        mcts::{Analysis, SearchConfig, TreePolicy},
        searchable::{Prior, Rewards, Searchable, outcome_scores, shared_tie_rewards},
    },
};

/// Replies near the last move (Pachi's and Fuego's proximity prior).
const NEAR: Prior = Prior { visits: 10.0, value: 0.6 };

/// Playouts of the search that estimates dead stones in the scoring phase.
const DEAD_STONE_PLAYOUTS: u32 = 3000;

/// Whether `node` is a neighbour or a graph diagonal of the last placement.
fn near_last_move(game: &ClassicGame, tables: &PlayoutTables, node: NodeId) -> bool {
    let Some(last) = game.moves().last().and_then(|m| m.1.node()) else {
        return false;
    };
    game.map().are_adjacent(last, node) || tables.diagonals(last).contains(&node)
}

/// The hand-written priors (`--patterns false`, the bot `plain:N`): the shared Go knowledge,
/// ladders read in two-player games, and the proximity prior.
fn hand_written_prior(game: &ClassicGame, scratch: &mut Scratch, node: NodeId, player: Player) -> Prior {
    let board = ClassicGame::board(game);
    let prior = priors::placement_prior(board, &scratch.tables, node, player);
    if game.player_count() != 2 {
        return prior;
    }
    let opponent = Player(1 - player.0);
    if prior == ESCAPE {
        let caught = board.map().neighbors(node).iter().any(|&q| {
            board.atari_liberty(q) == Some(node)
                && board.color(q) == player.stone()
                && scratch.ladder.escape_fails(board, q, opponent)
        });
        return if caught { INTO_LADDER } else { prior };
    }
    if prior.visits <= EVEN.visits && scratch.ladder.atari_captures(board, node, player, opponent) {
        return LADDER_CAPTURE;
    }
    if prior == EVEN && near_last_move(game, &scratch.tables, node) {
        return NEAR;
    }
    prior
}

impl Searchable for ClassicGame {
    type Scratch = Scratch;

    fn scratch(&self, tables: &Arc<PlayoutTables>, config: &SearchConfig) -> Scratch {
        Scratch::new(self.map(), tables.clone(), config)
    }

    fn owners(scratch: &Scratch) -> &[u8] {
        &scratch.owner
    }

    /// The playout's area count with komi, or the finished game's own count.
    fn final_scores(&self, scratch: &Scratch, out: &mut [f32; MAX_PLAYERS]) -> bool {
        if self.is_over() {
            return outcome_scores(self, out);
        }
        *out = scratch.scores;
        true
    }

    /// Big boards (13×13 and up, as the big-board patterns) take the big-board constants.
    fn tree_policy(&self) -> TreePolicy {
        if self.map().len() >= go::patterns::BIG_MAP { TreePolicy::BIG_BOARD } else { TreePolicy::DEFAULT }
    }

    fn amaf_key(action: classic::Action) -> Option<NodeId> {
        action.node()
    }

    fn search_copy(&self) -> Self {
        let mut g = self.clone();
        g.set_recording(false);
        g
    }

    fn final_rewards(&self) -> Rewards {
        self.outcome().map_or([0.0; MAX_PLAYERS], |o| shared_tie_rewards(&o.scores, self.resigned()))
    }

    fn playout(
        &mut self,
        scratch: &mut Scratch,
        rng: &mut Rng,
        played: &mut Vec<(Player, NodeId)>,
    ) -> Rewards {
        let n = self.player_count();
        scratch.board.copy_from(ClassicGame::board(self));
        let first = self.to_move().unwrap_or(Player(0));
        let max = 3 * scratch.board.len() as u32 + 50;
        let policy = scratch.policy;
        go::policy::playout(&mut scratch.board, &scratch.tables, policy, first, n as u8, rng, max, played);
        playout_area(&scratch.board, n, &mut scratch.area);
        scratch.record_owners();
        let scores: Vec<f64> = (0..n).map(|i| scratch.area[i] as f64 + self.rules().komi_for(i, n)).collect();
        for (slot, &s) in scratch.scores.iter_mut().zip(&scores) {
            *slot = s as f32;
        }
        let rewards = shared_tie_rewards(&scores, self.resigned());
        if n == 2 && self.resigned().is_empty() {
            with_margin(rewards, scores[0] - scores[1], scratch.board.len(), scratch.score_bonus)
        } else {
            rewards
        }
    }

    fn prior(&self, action: classic::Action, scratch: &mut Scratch) -> Prior {
        let player = self.next_player();
        match action {
            classic::Action::Place(node) if scratch.patterns => {
                priors::pattern_prior(self, scratch, node, player)
            }
            classic::Action::Place(node) => hand_written_prior(self, scratch, node, player),
            // Passing is rarely right before the end; the search finds out when it is.
            classic::Action::Pass => Prior { visits: 20.0, value: 0.2 },
            classic::Action::Resign => Prior { visits: 50.0, value: 0.0 },
        }
    }

    fn action_count(&self) -> usize {
        self.moves().len()
    }

    fn action_at(&self, i: usize) -> Option<classic::Action> {
        self.moves().get(i).map(|m| m.1)
    }
}

impl Computer for ClassicGame {
    /// The dead-stone phase: the first marking proposes the stones the search's ownership says
    /// are dead; later, accept a marking that agrees with that estimate, or mark the estimate
    /// once — after its own marking a bot accepts, so that two bots (whose estimates may differ
    /// from one search to the next) never mark against each other for ever. Otherwise the
    /// search's move.
    fn decide(&self, seat: Player, bot: &mut Bot<Self>) -> Option<classic::Move> {
        // Free handicap: the standard points, as a player would choose (the search's playouts
        // alternate colours, which Black's stones in a row do not).
        if self.handicap_left() > 0 {
            return self.next_handicap_stone().map(|n| classic::Move::place(self.map(), n));
        }
        if let Some(phase) = self.scoring() {
            let config = SearchConfig {
                playouts: DEAD_STONE_PLAYOUTS,
                seed: bot.seed(),
                time: bot.time(),
                ..SearchConfig::default()
            };
            let estimate = dead_stones::dead_classic_stones(self, config);
            let marked_before = phase.marks.get(seat.index()).is_some_and(|&m| m > 0);
            return Some(if !phase.marked {
                classic::Move::dead(self.map(), &estimate, true)
            } else if phase.dead == estimate || marked_before {
                classic::Move::Accept
            } else {
                classic::Move::dead(self.map(), &estimate, false)
            });
        }
        if gentle(bot) && passing_back_wins(self, seat, bot) {
            return Some(classic::Move::Pass);
        }
        let (action, analysis) = bot.choose(self);
        let action = match analysis {
            Some(a) if self.rules().scoring == Scoring::Territory => skip_settled_territory(self, &a),
            _ => action?,
        };
        Some(self.to_wire(action))
    }

    fn is_pass(&self, action: classic::Action) -> bool {
        action == classic::Action::Pass
    }

    fn greedy_value(&self, player: Player) -> f64 {
        self.scores()[player.index()]
    }

    fn go_board(&self) -> Option<&Board> {
        Some(ClassicGame::board(self))
    }
}

/// Levels up to this one answer a pass with a pass when that ends the game in their favour.
const GENTLE: u8 = 3;

fn gentle(bot: &Bot<ClassicGame>) -> bool {
    match bot.strategy {
        Strategy::Search(level) | Strategy::Plain(level) => level.get() <= GENTLE,
        _ => false,
    }
}

/// Whether passing after the opponent's pass wins for `seat`: the game played on through the
/// dead-stone phase with the search's estimate of dead stones, as its end would go. A newcomer
/// who passes on a settled board (the first game's tip says two passes end the game) once
/// watched the level-1 bot fill the board with 61 stones before it passed.
fn passing_back_wins(game: &ClassicGame, seat: Player, bot: &Bot<ClassicGame>) -> bool {
    let opponent_passed = game.moves().last().is_some_and(|&(p, a)| p != seat && a == classic::Action::Pass);
    if !opponent_passed || game.scoring().is_some() {
        return false;
    }
    let mut ended = game.clone();
    if ended.submit(seat, &classic::Move::Pass).is_err() {
        return false;
    }
    if ended.scoring().is_some() {
        let config = SearchConfig {
            playouts: DEAD_STONE_PLAYOUTS,
            seed: bot.seed(),
            time: bot.time(),
            ..SearchConfig::default()
        };
        let estimate = dead_stones::dead_classic_stones(&ended, config);
        let _ = ended.submit(seat, &classic::Move::dead(ended.map(), &estimate, true));
        // Everyone accepts that marking (as many rounds as there are players).
        for _ in 0..MAX_PLAYERS {
            for p in ended.turn().seats {
                let _ = ended.submit(p, &classic::Move::Accept);
            }
        }
    }
    ended.outcome().is_some_and(|o| {
        let first = o.places.get(seat.index()) == Some(&1);
        first && o.places.iter().filter(|&&q| q == 1).count() == 1
    })
}

/// Under territory scoring a stone in secure territory — one's own, or the opponent's, where it
/// dies — costs a point and gains nothing, and the search cannot tell (its playouts count
/// area): the bot takes the most visited action that is not such a stone, and passes when none
/// is left. A level-3 bot once filled its own territory for 35 moves before passing.
/// The share of playouts that make a claimed empty node its claimant's: secure territory.
const SECURE: f32 = 0.6;

fn skip_settled_territory(game: &ClassicGame, analysis: &Analysis<classic::Action>) -> classic::Action {
    let regions = regions::ownership(game.board());
    // Nothing is settled while the mover has no stone and most of the map is empty (one stone
    // on an empty 5×5 board "claims" all of it, and a search can find it winning there).
    let empties = game.board().empties().len();
    let open = empties * 2 > game.map().len() && game.board().stone_count(game.next_player()) == 0;
    let secure = |node: NodeId| {
        let claimant = regions.get(node as usize).copied().flatten();
        !open
            && game.board().stone_at(node).is_none()
            && claimant
                .is_some_and(|q| analysis.owner(node).is_some_and(|(p, share)| p == q && share >= SECURE))
    };
    analysis
        .actions
        .iter()
        .map(|a| a.action)
        .find(|a| !matches!(a, classic::Action::Place(n) if secure(*n)))
        .unwrap_or(classic::Action::Pass)
}
