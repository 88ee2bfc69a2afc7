//! What the search needs from a rule system beyond [`Game`]: fast playouts to the end, rewards,
//! priors and a position key. Each rule system implements it once; the search is shared.

use std::sync::Arc;

use gobeyond_maps::NodeId;
use gobeyond_rules::{
    Board, ClassicGame, Game, GoBeyondGame, MAX_PLAYERS, Player, Rng, SuicideRule,
    board::EMPTY,
    classic,
    gobeyond::{self, Phase},
    playout::{PlayoutTables, is_eye, playout_area},
    rank,
};

use crate::{
    ladder::LadderReader,
    policy::{self, Policy},
};

/// One reward per seat, in [0, 1].
pub type Rewards = [f32; MAX_PLAYERS];

/// Rewards from a ranking: first place 1, last place 0, evenly spaced between.
pub fn rank_rewards(ranking: &[Player]) -> Rewards {
    let mut r = [0.0; MAX_PLAYERS];
    let last = ranking.len().saturating_sub(1).max(1) as f32;
    for (place, p) in ranking.iter().enumerate() {
        r[p.index()] = (ranking.len() - 1 - place) as f32 / last;
    }
    r
}

/// Classic Go's rewards: from the ranking, except that players with equal scores share their
/// places' rewards. With an integer komi a tie is jigo, a draw wherever a game is refereed
/// (GNU Go, GTP match runners); the engine's ranking puts the later seat first, and a bot that
/// trusted it played White for jigo as if it were a win.
pub fn shared_tie_rewards(scores: &[f64], resigned: &[Player]) -> Rewards {
    let ranking = rank(scores, resigned);
    let mut r = rank_rewards(&ranking);
    let tied = |a: &Player, b: &Player| {
        !resigned.contains(a) && !resigned.contains(b) && scores[a.index()] == scores[b.index()]
    };
    for places in ranking.chunk_by(tied) {
        let mean = places.iter().map(|p| r[p.index()]).sum::<f32>() / places.len() as f32;
        for p in places {
            r[p.index()] = mean;
        }
    }
    r
}

/// Two players' rewards with a share `bonus` of them taken from Black's margin `margin` (as
/// Pachi's and Fuego's score bonus): the winner still always gets more than the loser, and
/// among wins the bigger one, so that a search sure of winning keeps its lead instead of
/// playing random moves that give points away, and a losing one still fights for points that
/// may turn the game if the opponent errs. The margin saturates at an eighth of the board.
pub fn with_margin(rewards: Rewards, margin: f64, nodes: usize, bonus: f32) -> Rewards {
    if bonus <= 0.0 {
        return rewards;
    }
    let scale = (nodes as f64 / 8.0).max(1.0);
    let black = 0.5 + 0.5 * (margin / scale).clamp(-1.0, 1.0) as f32;
    let mut r = rewards;
    r[0] = (1.0 - bonus) * rewards[0] + bonus * black;
    r[1] = (1.0 - bonus) * rewards[1] + bonus * (1.0 - black);
    r
}

/// Scratch space of one search thread, reused by every playout.
#[derive(Debug, Clone)]
pub struct Workspace {
    pub board: Board,
    pub tables: Arc<PlayoutTables>,
    /// Final owner per node after the last playout (colour code, 0 for nobody).
    pub owner: Vec<u8>,
    pub area: [u32; MAX_PLAYERS],
    /// Ladder reading for the priors of two-player games.
    pub ladder: LadderReader,
    /// Whether classic Go's priors come from the learned move patterns.
    pub patterns: bool,
    pub pattern_cache: crate::patterns::Cache,
    /// Whether the search plays above the light levels (its policy is not `Light`): systems
    /// may then spend more on each prior (BeSiege's one-turn tactical check).
    pub tactics: bool,
    /// Per node, its line: 1 on the map's edge (nodes of less than the largest degree), 2 next
    /// to it, and so on; 0 everywhere on a map without an edge (torus, sphere).
    pub line: Vec<u8>,
    /// Share of a two-player playout's reward that is the score margin rather than the win
    /// ([`SearchConfig::score_bonus`](crate::mcts::SearchConfig::score_bonus)).
    pub score_bonus: f32,
}

impl Workspace {
    /// Scratch space for searches on `map` (the Go board in it starts empty: playouts of the
    /// Go-board systems copy their position into it).
    pub fn new(map: &Arc<gobeyond_maps::Map>, tables: Arc<PlayoutTables>) -> Workspace {
        Workspace {
            board: Board::new(map.clone()),
            tables,
            owner: vec![0; map.len()],
            area: [0; MAX_PLAYERS],
            ladder: LadderReader::new(),
            patterns: true,
            pattern_cache: crate::patterns::Cache::default(),
            tactics: true,
            line: lines(map),
            score_bonus: 0.0,
        }
    }

    /// Stone owners, and empty nodes whose neighbours are all one player's.
    fn record_owners(&mut self) {
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

/// A prior: `visits` virtual playouts worth `value` to the mover.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Prior {
    pub visits: f32,
    pub value: f32,
}

/// Share of a GoBeyond reward that is winning, the rest being the place.
const WIN_WEIGHT: f32 = 0.6;

const EVEN: Prior = Prior { visits: 10.0, value: 0.5 };
const ESCAPE: Prior = Prior { visits: 20.0, value: 0.75 };
/// Replies near the last move (Pachi's and Fuego's proximity prior).
const NEAR: Prior = Prior { visits: 10.0, value: 0.6 };

/// Whether `node` is a neighbour or a graph diagonal of the last placement.
fn near_last_move(game: &ClassicGame, tables: &PlayoutTables, node: NodeId) -> bool {
    let Some(last) = game.moves().last().and_then(|m| m.1.node()) else {
        return false;
    };
    game.map().are_adjacent(last, node) || tables.diagonals(last).contains(&node)
}

/// Board knowledge shared by the rule systems' priors: captures and escapes are urgent, own-eye
/// filling and big self-ataris bad, the edge (nodes of low degree) a little worse on big maps.
fn placement_prior(board: &Board, tables: &PlayoutTables, node: NodeId, player: Player) -> Prior {
    let map = board.map();
    let stone = player.stone();
    if is_eye(board, tables, node, stone) {
        return Prior { visits: 30.0, value: 0.05 };
    }
    let mut capture = false;
    let mut escape = false;
    for &q in map.neighbors(node) {
        let c = board.color(q);
        if c == EMPTY || board.atari_liberty(q) != Some(node) {
            continue;
        }
        if c == stone {
            escape = true;
        } else {
            capture = true;
        }
    }
    if capture {
        return Prior { visits: 20.0, value: 0.85 };
    }
    let empty_nbrs = map.neighbors(node).iter().filter(|&&q| board.color(q) == EMPTY).count();
    if escape && empty_nbrs >= 2 {
        return ESCAPE;
    }
    let own_nbr = map.neighbors(node).iter().any(|&q| board.color(q) == stone);
    if empty_nbrs <= 1 && own_nbr && board.check(node, player, SuicideRule::Forbidden).is_ok() {
        // Likely a self-atari of a group.
        return Prior { visits: 20.0, value: 0.15 };
    }
    if map.len() >= 100 && map.degree(node) < map.max_degree() {
        return Prior { visits: 10.0, value: 0.4 };
    }
    EVEN
}

/// Each node's line (see [`Workspace::line`]): a breadth-first walk from the edge.
fn lines(map: &gobeyond_maps::Map) -> Vec<u8> {
    let mut line = vec![0u8; map.len()];
    let top = map.max_degree();
    let mut frontier: Vec<NodeId> = map.nodes().filter(|&n| map.degree(n) < top).collect();
    for &n in &frontier {
        line[n as usize] = 1;
    }
    let mut depth = 1u8;
    while !frontier.is_empty() {
        depth = depth.saturating_add(1);
        let mut next = Vec::new();
        for &n in &frontier {
            for &q in map.neighbors(n) {
                // Marked when first reached, so each node joins one frontier once.
                if line[q as usize] == 0 {
                    line[q as usize] = depth;
                    next.push(q);
                }
            }
        }
        frontier = next;
    }
    line
}

/// Maps big enough to have an opening (13×13 and up): there a move in an empty area is judged
/// by its line, as Pachi and Fuego do.
const OPENING_MAP: usize = 169;
/// Virtual visits of the line prior.
const LINE_VISITS: f32 = 20.0;

/// The line prior of a move with no stone within two steps: the first line is poor, the second
/// weak, the third and fourth good; `None` elsewhere, on small maps and on maps without edge.
fn line_prior(board: &Board, line: &[u8], node: NodeId) -> Option<Prior> {
    let map = board.map();
    if map.len() < OPENING_MAP {
        return None;
    }
    let value = match line.get(node as usize)? {
        1 => 0.1,
        2 => 0.35,
        3 | 4 => 0.7,
        _ => return None,
    };
    let crowded = map
        .neighbors(node)
        .iter()
        .any(|&q| board.color(q) != EMPTY || map.neighbors(q).iter().any(|&r| board.color(r) != EMPTY));
    (!crowded).then_some(Prior { visits: LINE_VISITS, value })
}

/// Two priors as one: their virtual visits added, their values weighted by them.
fn combine(a: Prior, b: Prior) -> Prior {
    let visits = a.visits + b.visits;
    Prior { visits, value: (a.value * a.visits + b.value * b.visits) / visits }
}

/// Virtual visits of a pattern prior.
const PATTERN_VISITS: f32 = 20.0;

/// The learned patterns' prior: a move as likely as the average candidate is even; ten times
/// more likely, about 0.75; ten times less, about 0.25. Ladders are read as before: running
/// into one is bad, starting one that works good.
fn pattern_prior(game: &ClassicGame, ws: &mut Workspace, node: NodeId, player: Player) -> Prior {
    let board = ClassicGame::board(game);
    let moves = game.moves();
    let last = moves.last().filter(|m| m.0 != player).and_then(|m| m.1.node());
    let own_last = moves.iter().rev().filter(|m| m.0 == player).find_map(|m| m.1.node());
    let model = crate::patterns::Model::builtin();
    let position =
        crate::patterns::Position { board, tables: &ws.tables, moves: moves.len(), player, last, own_last };
    let Some(r) = ws.pattern_cache.relative(model, &position, node) else {
        // An own eye (or nothing the model rates).
        return Prior { visits: 30.0, value: 0.05 };
    };
    if game.player_count() == 2 {
        let opponent = Player(1 - player.0);
        let runs_into_ladder = board.map().neighbors(node).iter().any(|&q| {
            board.atari_liberty(q) == Some(node)
                && board.color(q) == player.stone()
                && ws.ladder.escape_fails(board, q, opponent)
        });
        if runs_into_ladder {
            return Prior { visits: 20.0, value: 0.1 };
        }
        if r < 4.0 && ws.ladder.atari_captures(board, node, player, opponent) {
            return Prior { visits: 20.0, value: 0.8 };
        }
    }
    let prior = Prior { visits: PATTERN_VISITS, value: 0.5 + 0.35 * (r.ln() / 2.3).tanh() };
    match line_prior(board, &ws.line, node) {
        Some(line) => combine(prior, line),
        None => prior,
    }
}

/// Whether `node` takes a liberty from an opponent group with three or fewer while the mover's
/// own stone keeps two. In GoBeyond a captured group pays the capture award and hands its
/// claims over, and surrounding takes several moves in a row that random playouts never
/// string together: without this the search let a lone stone live on a map it claimed.
fn attacks(board: &Board, node: NodeId, player: Player) -> bool {
    let map = board.map();
    let stone = player.stone();
    let weak_neighbour = map.neighbors(node).iter().any(|&q| {
        let c = board.color(q);
        c != EMPTY && c != stone && board.liberties(q).len() <= 3
    });
    if !weak_neighbour {
        return false;
    }
    let mut libs: Vec<NodeId> =
        map.neighbors(node).iter().copied().filter(|&q| board.color(q) == EMPTY).collect();
    for &q in map.neighbors(node) {
        if board.color(q) == stone {
            libs.extend(board.liberties(q).into_iter().filter(|&l| l != node));
        }
    }
    libs.sort_unstable();
    libs.dedup();
    libs.len() >= 2
}

/// A rule system the search can play. Nothing here assumes the Go board: a system whose
/// position is something else (stones that move, stacks, regions) gives its own playout and
/// leaves the final owner of each node in `Workspace::owner`; the Go-board helpers
/// (`policy`, `ladder`, [`Workspace::board`]) are there for the systems that use them.
pub trait Searchable: Game {
    /// The node of a placement (for AMAF statistics), if the action is one.
    fn amaf_key(action: Self::Action) -> Option<NodeId>;
    /// A copy for search to play on (for example without event recording).
    fn search_copy(&self) -> Self {
        self.clone()
    }
    /// Whether some of the position is hidden from the player to move (then every simulation
    /// starts from a [`Searchable::determinize`]d copy).
    fn has_hidden_information(&self) -> bool {
        false
    }
    /// A copy in which what `viewer` cannot see (other hands, the deck order) is sampled
    /// with `rng` (determinization). Games without hidden information return themselves.
    fn determinize(&self, viewer: Player, rng: &mut Rng) -> Self {
        let _ = (viewer, rng);
        self.search_copy()
    }
    /// Resolves a pending chance event (dice, a card draw) at random, as the server would;
    /// false when none is pending. Search samples chance this way (open-loop: the tree's
    /// children after a chance event gather the results of every outcome).
    fn sample_chance(&mut self, rng: &mut Rng) -> bool {
        let _ = rng;
        false
    }
    /// Rewards of a finished game.
    fn final_rewards(&self) -> Rewards;
    /// Plays to the end with `policy` from here; returns the rewards and leaves the final owners
    /// in `ws.owner`. Every placement is appended to `played`. The search's own copy of the
    /// position is played on (and thrown away after): no copy per playout.
    fn playout(
        &mut self,
        ws: &mut Workspace,
        rng: &mut Rng,
        policy: Policy,
        played: &mut Vec<(Player, NodeId)>,
    ) -> Rewards;
    /// Prior knowledge about `action` for the player to move.
    fn prior(&self, action: Self::Action, ws: &mut Workspace) -> Prior;
    /// The Go board, for systems that play on one (eye checks of the baseline players).
    fn go_board(&self) -> Option<&Board> {
        None
    }
    /// True for the action that says "I am done" (Pass).
    fn is_pass(&self, action: Self::Action) -> bool;
    /// The search's choice for the player to move, reviewed with what the playouts cannot
    /// know (Tribal Go: that other players pass early, and the game ends when all have);
    /// by default kept.
    fn review_choice(&self, action: Self::Action) -> Self::Action {
        action
    }
    /// A decision that needs no search, answered at once (Tribal Go's reaction windows,
    /// surrender offers and discards: the same answers a server seat gives, so that a series
    /// and a served game play alike); by default every decision is searched.
    fn quick_answer(&self) -> Option<Self::Action> {
        None
    }
    /// The random baseline's action, for systems whose turns are more than placing or passing
    /// (Tribal Go's dice and start points); `None`: the generic random placement.
    fn baseline_random(&self, rng: &mut Rng) -> Option<Self::Action> {
        let _ = rng;
        None
    }
    /// A material count of how well `player` stands now, in the rule system's own terms (for
    /// the greedy baseline).
    fn greedy_value(&self, player: Player) -> f64;
    /// Actions so far, for tree reuse: the `i`-th action of the game.
    fn action_count(&self) -> usize;
    fn action_at(&self, i: usize) -> Option<Self::Action>;
}

impl Searchable for ClassicGame {
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
        ws: &mut Workspace,
        rng: &mut Rng,
        policy: Policy,
        played: &mut Vec<(Player, NodeId)>,
    ) -> Rewards {
        let n = self.player_count();
        ws.board.copy_from(ClassicGame::board(self));
        let first = self.to_move().unwrap_or(Player(0));
        let max = 3 * ws.board.len() as u32 + 50;
        policy::playout(&mut ws.board, &ws.tables, policy, first, n as u8, rng, max, played);
        playout_area(&ws.board, n, &mut ws.area);
        ws.record_owners();
        let scores: Vec<f64> = (0..n).map(|i| ws.area[i] as f64 + self.rules().komi_for(i, n)).collect();
        let rewards = shared_tie_rewards(&scores, self.resigned());
        if n == 2 && self.resigned().is_empty() {
            with_margin(rewards, scores[0] - scores[1], ws.board.len(), ws.score_bonus)
        } else {
            rewards
        }
    }

    fn prior(&self, action: classic::Action, ws: &mut Workspace) -> Prior {
        let player = self.next_player();
        match action {
            classic::Action::Place(node) => {
                let board = ClassicGame::board(self);
                if ws.patterns {
                    return pattern_prior(self, ws, node, player);
                }
                let prior = placement_prior(board, &ws.tables, node, player);
                if self.player_count() != 2 {
                    return prior;
                }
                let opponent = Player(1 - player.0);
                if prior == ESCAPE {
                    // Running from atari into a ladder only adds stones to the capture.
                    let caught = board.map().neighbors(node).iter().any(|&q| {
                        board.atari_liberty(q) == Some(node)
                            && board.color(q) == player.stone()
                            && ws.ladder.escape_fails(board, q, opponent)
                    });
                    return if caught { Prior { visits: 20.0, value: 0.1 } } else { prior };
                }
                if prior.visits <= EVEN.visits && ws.ladder.atari_captures(board, node, player, opponent) {
                    return Prior { visits: 20.0, value: 0.8 };
                }
                if prior == EVEN && near_last_move(self, &ws.tables, node) {
                    return NEAR;
                }
                prior
            }
            // Passing is rarely right before the end; the search finds out when it is.
            classic::Action::Pass => Prior { visits: 20.0, value: 0.2 },
            classic::Action::Resign => Prior { visits: 50.0, value: 0.0 },
        }
    }

    fn go_board(&self) -> Option<&Board> {
        Some(ClassicGame::board(self))
    }

    fn is_pass(&self, action: classic::Action) -> bool {
        action == classic::Action::Pass
    }

    fn greedy_value(&self, player: Player) -> f64 {
        self.scores()[player.index()]
    }

    fn action_count(&self) -> usize {
        self.moves().len()
    }

    fn action_at(&self, i: usize) -> Option<classic::Action> {
        self.moves().get(i).map(|m| m.1)
    }
}

/// GoBeyond-specific knowledge for the priors.
trait GoBeyondKnowledge {
    fn opponent_runs_away(&self) -> bool;
    fn leads_if_ended(&self) -> bool;
}

impl GoBeyondKnowledge for GoBeyondGame {
    /// Some opponent claims an eighth of the map more than the player to move.
    fn opponent_runs_away(&self) -> bool {
        let me = self.current_player();
        let mine = self.claimed_count(me);
        let margin = (self.map().len() / 8) as u32;
        (0..self.player_count() as u8).map(Player).any(|p| p != me && self.claimed_count(p) > mine + margin)
    }

    /// The player to move would rank first if play ended now (PlayPoints plus the final bonus
    /// on today's claims, ties broken by seat as the rules do).
    fn leads_if_ended(&self) -> bool {
        let me = self.current_player();
        let standing = |p: Player| {
            self.points(p) as f64
                + (self.rules().final_bonus * self.claimed_count(p) as i64) as f64
                + self.rules().tie_break * (p.index() + 1) as f64
        };
        let mine = standing(me);
        (0..self.player_count() as u8)
            .map(Player)
            .filter(|&p| p != me && !self.is_resigned(p))
            .all(|p| standing(p) < mine)
    }
}

impl Searchable for GoBeyondGame {
    fn amaf_key(action: gobeyond::Action) -> Option<NodeId> {
        match action {
            gobeyond::Action::Occupy(n) => Some(n),
            _ => None,
        }
    }

    fn search_copy(&self) -> Self {
        let mut g = self.clone();
        g.set_recording(false);
        g
    }

    /// Winning is what counts: a win is worth more than the ranking alone says (with ranking
    /// rewards only, a safe second place looked as good as a risky try for first, and the bot
    /// settled for it against a passive opponent).
    fn final_rewards(&self) -> Rewards {
        let Some(o) = self.outcome() else { return [0.0; MAX_PLAYERS] };
        let mut r = rank_rewards(&o.ranking);
        let winner = o.ranking.first().map(|p| p.index());
        for (i, x) in r.iter_mut().enumerate() {
            let win = if Some(i) == winner { 1.0 } else { 0.0 };
            *x = WIN_WEIGHT * win + (1.0 - WIN_WEIGHT) * *x;
        }
        r
    }

    /// Random play under the full GoBeyond rules (economy, reservations): a player occupies a
    /// policy move it can pay for, else passes; Clean-Up surrenders nothing (random play leaves
    /// few doomed stones on the board, and those are counted by the claims anyway).
    fn playout(
        &mut self,
        ws: &mut Workspace,
        rng: &mut Rng,
        policy: Policy,
        played: &mut Vec<(Player, NodeId)>,
    ) -> Rewards {
        let g = self;
        g.set_recording(false);
        let max = 3 * g.board().len() + 50;
        let mut last = None;
        for _ in 0..max {
            let Some(p) = g.to_move() else { break };
            let choice = policy.choose(g.board(), &ws.tables, p, last, rng);
            let action = match choice {
                Some(n) if g.check(gobeyond::Action::Occupy(n)).is_ok() => gobeyond::Action::Occupy(n),
                _ => gobeyond::Action::Pass,
            };
            if g.play(action).is_err() {
                let _ = g.play(gobeyond::Action::Pass);
            }
            last = Self::amaf_key(action);
            if let Some(n) = last {
                played.push((p, n));
            }
        }
        // Out of moves: everyone passes.
        while g.to_move().is_some() {
            if g.play(gobeyond::Action::Pass).is_err() {
                break;
            }
        }
        if g.phase() == Phase::CleanUp {
            for p in g.awaiting_cleanup() {
                let _ = g.surrender(p, &[]);
            }
        }
        ws.board.copy_from(g.board());
        for v in g.map().nodes() {
            ws.owner[v as usize] = g.board().color(v).max(g.claimant(v).map_or(EMPTY, Player::stone));
        }
        g.final_rewards()
    }

    fn prior(&self, action: gobeyond::Action, ws: &mut Workspace) -> Prior {
        match action {
            gobeyond::Action::Occupy(node) => {
                let board = GoBeyondGame::board(self);
                let player = self.current_player();
                match placement_prior(board, &ws.tables, node, player) {
                    p if p == EVEN && attacks(board, node, player) => Prior { visits: 20.0, value: 0.7 },
                    p => p,
                }
            }
            // Spending is optional in GoBeyond: a stone costs PlayPoints and only pays through
            // claims, so not playing starts as a good option (a low prior made the bot buy
            // stones it could not use) — unless an opponent is collecting income on a big claim:
            // random playouts break such a claim at once, a passive opponent never does, so the
            // search alone would let it run.
            gobeyond::Action::Skip | gobeyond::Action::Pass if self.opponent_runs_away() => {
                Prior { visits: 50.0, value: 0.1 }
            }
            // Passing while behind helps the leader end the game; a Skip keeps it going.
            // (Only for a while: a bot that cannot catch up must not hold a game open for ever.)
            gobeyond::Action::Pass if !self.leads_if_ended() && self.log().len() < 4 * self.map().len() => {
                Prior { visits: 50.0, value: 0.1 }
            }
            gobeyond::Action::Skip => Prior { visits: 20.0, value: 0.55 },
            gobeyond::Action::Pass => Prior { visits: 20.0, value: 0.6 },
            gobeyond::Action::Resign | gobeyond::Action::Timeout => Prior { visits: 50.0, value: 0.0 },
        }
    }

    fn go_board(&self) -> Option<&Board> {
        Some(GoBeyondGame::board(self))
    }

    fn is_pass(&self, action: gobeyond::Action) -> bool {
        action == gobeyond::Action::Pass
    }

    /// PlayPoints plus what the claims would bring at the end.
    fn greedy_value(&self, player: Player) -> f64 {
        (self.points(player) + self.rules().final_bonus * self.claimed_count(player) as i64) as f64
    }

    fn action_count(&self) -> usize {
        self.log().len()
    }

    fn action_at(&self, i: usize) -> Option<gobeyond::Action> {
        match self.log().get(i) {
            Some((_, gobeyond::Input::Action(a))) => Some(*a),
            _ => None,
        }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use std::sync::Arc;

    use gobeyond_maps::generate;

    use super::*;

    /// Lines count from the edge; a map without edge has none.
    #[test]
    fn lines_count_from_the_edge() {
        let map = generate("square:19").unwrap();
        let line = |label: &str| lines(&map)[map.node_by_label(label).unwrap() as usize];
        assert_eq!(
            [line("A1"), line("B2"), line("C17"), line("D4"), line("K10"), line("T5")],
            [1, 2, 3, 4, 10, 1]
        );
        assert!(lines(&generate("torus:19").unwrap()).iter().all(|&l| l == 0));
    }

    /// In an empty area of a big board the third and fourth lines are good, the second weak,
    /// the first poor; near a stone, on a small board or without edge the line says nothing.
    #[test]
    fn the_line_judges_moves_in_empty_areas_of_big_boards() {
        let at = |spec: &str, stones: &[&str], label: &str| {
            let map = Arc::new(generate(spec).unwrap());
            let mut board = Board::new(map.clone());
            for s in stones {
                board.put_stone(map.node_by_label(s).unwrap(), Player(1));
            }
            line_prior(&board, &lines(&map), map.node_by_label(label).unwrap()).map(|p| p.value)
        };
        let values: Vec<_> = ["A1", "B2", "C3", "D4", "E5"].iter().map(|l| at("square:19", &[], l)).collect();
        assert_eq!(values, [Some(0.1), Some(0.35), Some(0.7), Some(0.7), None]);
        assert_eq!(at("square:13", &[], "C3"), Some(0.7));
        assert_eq!(at("square:19", &["E4"], "C3"), Some(0.7), "two steps away is still empty");
        assert_eq!(at("square:19", &["E3"], "C3"), None, "a stone within two steps");
        assert_eq!(at("square:19", &["D3"], "C3"), None);
        assert_eq!(at("square:9", &[], "C3"), None, "9×9 has no opening to judge");
        assert_eq!(at("torus:19", &[], "C3"), None);
    }

    #[test]
    fn equal_scores_share_their_reward() {
        // Jigo: half each, whoever the ranking puts first.
        let r = shared_tie_rewards(&[44.0, 44.0], &[]);
        assert_eq!((r[0], r[1]), (0.5, 0.5));
        let r = shared_tie_rewards(&[45.0, 44.0], &[]);
        assert_eq!((r[0], r[1]), (1.0, 0.0));
        // Three players, the last two tied: first 1, the others share 0.5 and 0.
        let r = shared_tie_rewards(&[10.0, 3.0, 3.0], &[]);
        assert_eq!((r[0], r[1], r[2]), (1.0, 0.25, 0.25));
        // A resigned player is last whatever its score, and shares with nobody.
        let r = shared_tie_rewards(&[5.0, 5.0, 5.0], &[Player(0)]);
        assert_eq!((r[0], r[1], r[2]), (0.0, 0.75, 0.75));
    }

    #[test]
    fn the_score_bonus_orders_wins_by_margin_and_never_a_loss_above_a_win() {
        let win = shared_tie_rewards(&[45.0, 44.0], &[]);
        assert_eq!(with_margin(win, 1.0, 81, 0.0), win, "no bonus: the win alone");
        let r = |margin: f64| with_margin(shared_tie_rewards(&[margin, 0.0], &[]), margin, 81, 0.1);
        let (small, big, huge, loss, jigo) = (r(1.0), r(8.0), r(40.0), r(-1.0), r(0.0));
        assert!(big[0] > small[0] && huge[0] > big[0], "{small:?} {big:?} {huge:?}");
        assert!(loss[0] < small[0] && loss[1] > loss[0], "the narrowest loss is below every win");
        assert_eq!(jigo[0], jigo[1]);
        assert_eq!(huge[0], 1.0, "saturated at an eighth of the board");
        for rw in [small, big, huge, loss, jigo] {
            assert!((rw[0] + rw[1] - 1.0).abs() < 1e-6, "the rewards still sum to one: {rw:?}");
        }
    }

    #[test]
    fn attacks_weak_opponent_groups_only_from_safety() {
        let map = Arc::new(generate("square:5").unwrap());
        let at = |l: &str| map.node_by_label(l).unwrap();
        let mut b = Board::new(map.clone());
        // A lone white stone in the middle (4 liberties), then with one black neighbour (3).
        b.put_stone(at("C3"), Player(1));
        assert!(!attacks(&b, at("C2"), Player(0)), "four liberties: not weak yet");
        b.put_stone(at("B3"), Player(0));
        assert!(attacks(&b, at("C2"), Player(0)));
        assert!(!attacks(&b, at("A1"), Player(0)), "not next to the group");
        assert!(!attacks(&b, at("C2"), Player(1)), "its own group");
        // A black stone that would be left with fewer than two liberties is no attack.
        let mut c = Board::new(map.clone());
        for l in ["B1", "D1", "C2"] {
            c.put_stone(at(l), Player(1));
        }
        // C1 touches C2 (three liberties: B2, D2, C3) but would have no liberty of its own.
        assert!(!attacks(&c, at("C1"), Player(0)));
        assert!(attacks(&c, at("B2"), Player(0)));
    }
}
