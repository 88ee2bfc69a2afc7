//! The Way of Go and BeSiege for the search. The tree searches the small actions of a turn
//! (drop, move, capture, end); playouts play whole turns at random with a taste for captures
//! and for drops that take an enemy's liberty, and judge an unfinished game by captures
//! against contracts (BeSiege: captures).

use std::{cell::RefCell, time::Duration};

use gobeyond_maps::NodeId;
use gobeyond_rules::{
    Game, MAX_PLAYERS, Player, Rng, RuleSystem,
    way_of_go::{Action, Colour, Config, Input, Move, Phase, StackBoard, Variant, WayGame},
};

use crate::{
    Level, Searchable,
    computer::{Computer, search},
    policy::Policy,
    searchable::{Prior, Rewards, Workspace},
};

/// What a draw is worth to each seat: less than half a win. A level game reaching the turn
/// limit is the common way for two careful BeSiege bots to part; valuing it below an even
/// chance makes the search prefer lines that can still be won (a weaker opponent is more likely
/// to go wrong in them) over a safe share of the point.
const DRAW: f32 = 0.4;

/// Rewards from the outcome's places: a win 1, a draw [`DRAW`] each.
fn place_rewards<V: Variant>(game: &WayGame<V>) -> Rewards {
    let mut r = [0.0; MAX_PLAYERS];
    if let Some(o) = game.outcome() {
        let firsts = o.places.iter().filter(|&&p| p == 1).count();
        for (i, &p) in o.places.iter().enumerate().take(2) {
            r[i] = match (p, firsts) {
                (1, 1) => 1.0,
                (1, _) => DRAW,
                _ => 0.0,
            };
        }
    }
    r
}

/// How well each seat stands in an unfinished game: progress towards the contract (The Way of
/// Go) or captures (BeSiege), turned into a win for the better one.
fn estimate<V: Variant>(game: &WayGame<V>) -> Rewards {
    let value = |s: Player| match game.contract(s) {
        Some(c) => game.captures(s) as f32 / c.max(1) as f32,
        None => game.captures(s) as f32,
    };
    let (a, b) = (value(Player(0)), value(Player(1)));
    let mut r = [0.0; MAX_PLAYERS];
    // A soft edge: a lead of one contract's worth (or four captures) is nearly a sure win.
    let scale = if game.config().contracts.is_some() { 4.0 } else { 1.0 };
    let p = 1.0 / (1.0 + (-(a - b) * scale).exp());
    r[0] = p;
    r[1] = 1.0 - p;
    r
}

/// Whether a stone of `colour` on `node` would touch an enemy stack (and so take a liberty).
fn touches_enemy<V: Variant>(game: &WayGame<V>, node: NodeId, colour: Colour) -> bool {
    let board = game.board();
    game.map().neighbors(node).iter().any(|&w| board.colour(w) == Some(colour.other()))
}

/// Whether a BeSiege stone of `colour` dropped on `node`, touching no stone, would attack an
/// enemy stack: its range is then its empty neighbours, and it threatens whatever enemy stack
/// lies exactly that far along a line. Such a drop cannot be taken at once (its node was
/// neutral and it changes no enemy's range), so the opponent has to answer it. Drops next to
/// stones change ranges in ways this cheap test does not follow: they count as no threat. (In
/// The Way of Go a drop may land where it can be taken: no drop counts as a threat.)
fn threatens<V: Variant>(game: &WayGame<V>, node: NodeId, colour: Colour) -> bool {
    if !game.config().neutral_drops {
        return false;
    }
    let board = game.board();
    let neighbours = game.map().neighbors(node);
    if neighbours.iter().any(|&w| !board.is_empty(w)) {
        return false;
    }
    let range = neighbours.len() as u32;
    (0..board.directions()).any(|dir| {
        board
            .walk(node, dir, range)
            .is_some_and(|(to, _)| to != node && board.colour(to) == Some(colour.other()))
    })
}

/// The biggest capture (enemy stones removed) `colour` could make on `board` with one move.
fn best_capture(board: &StackBoard, colour: Colour, config: &Config) -> u32 {
    let mut best = 0;
    board.moves(colour, config.stacks, config.push, |s, l| best = best.max(board.removed_by(&s, l)));
    best
}

/// What a board left at the end of a turn means for its mover: the opponent's biggest capture
/// next (a stack left hanging), and the mover's own if the opponent did nothing (a threat).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Outlook {
    theirs: u32,
    mine: u32,
}

fn outlook(board: &StackBoard, mover: Colour, config: &Config) -> Outlook {
    Outlook { theirs: best_capture(board, mover.other(), config), mine: best_capture(board, mover, config) }
}

thread_local! {
    /// A board to try one action on (BeSiege's priors), reused.
    static TRIAL: RefCell<Option<StackBoard>> = const { RefCell::new(None) };
    /// The last position's biggest capture for the player to move: (board hash, colour, size).
    static AT_START: RefCell<Option<(u64, Colour, u32)>> = const { RefCell::new(None) };
}

/// `f` on the reused trial board, set to `game`'s position first.
fn on_trial<V: Variant, R>(game: &WayGame<V>, f: impl FnOnce(&mut StackBoard) -> R) -> R {
    TRIAL.with_borrow_mut(|trial| {
        let board = trial.get_or_insert_with(|| game.board().clone());
        board.clone_from(game.board());
        f(board)
    })
}

/// The biggest capture the player to move has now, remembered for the position (every child
/// of a node asks the same question).
fn capture_now<V: Variant>(game: &WayGame<V>, colour: Colour) -> u32 {
    let hash = game.board().hash();
    if let Some((h, c, best)) = AT_START.with_borrow(|a| *a)
        && h == hash
        && c == colour
    {
        return best;
    }
    let best = best_capture(game.board(), colour, game.config());
    AT_START.with_borrow_mut(|a| *a = Some((hash, colour, best)));
    best
}

/// BeSiege's one-turn tactical prior for the heavier levels: the action is tried on a copy of
/// the board as if it ended the turn (a move that a drop must follow is judged before the
/// drop), and judged by what it captures, whether it leaves the opponent a capture, whether it
/// leaves a threat the opponent must answer, and (at the start of a turn) whether it passes by
/// a capture that was there to take. Every BeSiege capture is a trade (the capturing stones go
/// too), so games between bots are won by the captures one side is left to take for free:
/// exactly what this looks one turn ahead for.
fn tactical_prior<V: Variant>(game: &WayGame<V>, action: Action, colour: Colour) -> Option<Prior> {
    let config = game.config();
    let (gain, after) = on_trial(game, |board| {
        let gain = match action {
            Action::Drop(n) => {
                board.drop_stone(n, colour);
                0
            }
            Action::Move { from, count, dir, to } => {
                let (step, landing) = game.find_move(from, count, to, Some(dir)).ok()?;
                board.apply(colour, &step, landing).0
            }
            Action::EndTurn => 0,
            _ => return None,
        };
        Some((gain, outlook(board, colour, config)))
    })?;
    let missed = game.phase() == Phase::Start && gain == 0 && capture_now(game, colour) > 0;
    let mut value = 0.5 + 0.15 * gain as f32;
    if after.theirs > 0 {
        value -= 0.15 + 0.04 * after.theirs as f32;
    } else if after.mine > 0 && !missed {
        value += 0.08;
    }
    if missed {
        // A capture left for later is not a threat gained: the opponent answers it first.
        value -= 0.15;
    }
    Some(Prior { visits: 30.0, value: value.clamp(0.05, 0.95) })
}

/// BeSiege, at the start of a turn with a capture on the board: the capture to take, at once.
/// Captures come one a turn, so threats cannot be saved up — each one the opponent sees, it
/// answers — yet playouts, in which nobody answers a threat, value a capture kept for later
/// as much as one taken now (and a drop besides as more): a search left to itself hoards
/// threats that a real opponent then defends. So a capture is always taken: the one that
/// removes most stones net of what it leaves the opponent to take, then the one that leaves
/// the biggest threat, then the first found.
fn capture_to_take<V: Variant>(game: &WayGame<V>) -> Option<Action> {
    if !game.config().neutral_drops || game.phase() != Phase::Start {
        return None;
    }
    let colour = game.colour_of(game.to_move()?);
    let config = game.config();
    let mut best: Option<((i64, u32), Action)> = None;
    game.moves(|s, l| {
        if !l.captures() {
            return;
        }
        let (gain, o) = on_trial(game, |board| {
            let gain = board.apply(colour, &s, l).0;
            (gain, outlook(board, colour, config))
        });
        let key = (gain as i64 - o.theirs as i64, o.mine);
        if best.is_none_or(|(k, _)| key > k) {
            best = Some((key, Action::Move { from: s.from, count: s.count, dir: s.dir, to: s.to }));
        }
    });
    best.map(|(_, a)| a)
}

/// A random legal drop, tried on random nodes first and then on the full list.
fn random_drop<V: Variant>(game: &WayGame<V>, rng: &mut Rng) -> Option<NodeId> {
    let n = game.map().len() as u32;
    for _ in 0..16 {
        let v = rng.below(n);
        if game.may_drop(v).is_ok() {
            return Some(v);
        }
    }
    let mut all = Vec::new();
    game.drops(&mut all);
    (!all.is_empty()).then(|| all[rng.below(all.len() as u32) as usize])
}

/// One playout action for the player to move.
fn playout_action<V: Variant>(game: &WayGame<V>, rng: &mut Rng, scratch: &mut Vec<Action>) -> Option<Action> {
    let seat = game.to_move()?;
    let colour = game.colour_of(seat);
    Some(match game.phase() {
        Phase::Over => return None,
        Phase::Pie { black, white } => {
            let node = random_drop(game, rng)?;
            let colour =
                if black < 2 && (white >= 1 || rng.below(3) < 2) { Colour::Black } else { Colour::White };
            Action::PieStone { node, colour }
        }
        Phase::Choose => Action::ChooseSide(if rng.below(2) == 0 { Colour::Black } else { Colour::White }),
        Phase::Start => {
            // Captures, the biggest (stones removed) first. A BeSiege capture only ever scores
            // for the mover, so a playout that passes one by misjudges the position it came
            // from; in The Way of Go the mover is sacrificed, and a quarter of them are passed.
            scratch.clear();
            let mut best = 0;
            game.moves(|s, l| {
                if l.captures() {
                    let removed = game.board().removed_by(&s, l);
                    if removed > best {
                        best = removed;
                        scratch.clear();
                    }
                    if removed == best {
                        scratch.push(Action::Move { from: s.from, count: s.count, dir: s.dir, to: s.to });
                    }
                }
            });
            let pass_one_in = if game.config().neutral_drops { 8 } else { 4 };
            if !scratch.is_empty() && rng.below(pass_one_in) != 0 {
                return Some(scratch[rng.below(scratch.len() as u32) as usize]);
            }
            // A drop, preferring one that threatens a capture, then one that takes an enemy's
            // liberty.
            let (mut pick, mut best) = (None, 0);
            for _ in 0..4 {
                let Some(v) = random_drop(game, rng) else { break };
                let worth = if threatens(game, v, colour) {
                    3
                } else if touches_enemy(game, v, colour) {
                    2
                } else {
                    1
                };
                if worth > best {
                    (pick, best) = (Some(v), worth);
                }
                if worth == 3 {
                    break;
                }
            }
            match pick {
                Some(v) => Action::Drop(v),
                None if !scratch.is_empty() => scratch[rng.below(scratch.len() as u32) as usize],
                None => {
                    // Only a move that opens a neutral point, or a forced pass.
                    game.legal_actions(scratch);
                    scratch[rng.below(scratch.len() as u32) as usize]
                }
            }
        }
        Phase::AfterMove => Action::Drop(random_drop(game, rng)?),
        Phase::AfterDrop { dropped } => {
            if rng.below(4) != 0 {
                Action::EndTurn
            } else {
                scratch.clear();
                game.moves(|s, l| {
                    if s.from != dropped && !l.captures() {
                        scratch.push(Action::Move { from: s.from, count: s.count, dir: s.dir, to: s.to });
                    }
                });
                if scratch.is_empty() {
                    Action::EndTurn
                } else {
                    scratch[rng.below(scratch.len() as u32) as usize]
                }
            }
        }
    })
}

impl<V: Variant> Searchable for WayGame<V> {
    fn amaf_key(action: Action) -> Option<NodeId> {
        match action {
            Action::Drop(n) | Action::PieStone { node: n, .. } => Some(n),
            _ => None,
        }
    }

    fn search_copy(&self) -> Self {
        let mut g = self.clone();
        g.set_recording(false);
        g
    }

    fn final_rewards(&self) -> Rewards {
        place_rewards(self)
    }

    fn playout(
        &mut self,
        ws: &mut Workspace,
        rng: &mut Rng,
        _policy: Policy,
        played: &mut Vec<(Player, NodeId)>,
    ) -> Rewards {
        // BeSiege has no ending but a player without a turn, so its playouts stop after about
        // half a board of turns and are judged by captures; The Way of Go's end by contract long
        // before the limit.
        let limit = self.map().len() + 60;
        let mut scratch = Vec::new();
        for _ in 0..limit {
            let Some(seat) = self.to_move() else { break };
            let Some(a) = playout_action(self, rng, &mut scratch) else { break };
            if self.play(a).is_err() {
                // Never expected (every action comes from the rules' own lists); the turn ends
                // the mildest way so the playout goes on.
                let _ = self.play(Action::EndTurn);
                continue;
            }
            if let Action::Drop(n) = a {
                played.push((seat, n));
            }
        }
        for n in self.map().nodes() {
            ws.owner[n as usize] = match self.board().colour(n) {
                Some(c) => self.seat_of(c).0 + 1,
                None => 0,
            };
        }
        match self.outcome() {
            Some(_) => place_rewards(self),
            None => estimate(self),
        }
    }

    fn prior(&self, action: Action, ws: &mut Workspace) -> Prior {
        let Some(seat) = self.to_move() else { return Prior { visits: 0.0, value: 0.5 } };
        let colour = self.colour_of(seat);
        if ws.tactics
            && self.config().neutral_drops
            && self.sides_chosen()
            && let Some(p) = tactical_prior(self, action, colour)
        {
            return p;
        }
        match action {
            Action::Move { from, count, dir, to } => match self.find_move(from, count, to, Some(dir)) {
                Ok((_, l)) if l.captures() => Prior { visits: 20.0, value: 0.8 },
                _ => Prior { visits: 10.0, value: 0.45 },
            },
            Action::Drop(n) if threatens(self, n, colour) => Prior { visits: 10.0, value: 0.65 },
            Action::Drop(n) if touches_enemy(self, n, colour) => Prior { visits: 10.0, value: 0.6 },
            Action::Drop(_) | Action::PieStone { .. } => Prior { visits: 10.0, value: 0.5 },
            Action::EndTurn | Action::ChooseSide(_) | Action::Pass => Prior { visits: 10.0, value: 0.5 },
            Action::Resign => Prior { visits: 50.0, value: 0.0 },
        }
    }

    fn is_pass(&self, action: Action) -> bool {
        matches!(action, Action::Pass | Action::EndTurn)
    }

    fn quick_answer(&self) -> Option<Action> {
        capture_to_take(self)
    }

    fn baseline_random(&self, rng: &mut Rng) -> Option<Action> {
        let mut scratch = Vec::new();
        self.legal_actions(&mut scratch);
        (!scratch.is_empty()).then(|| scratch[rng.below(scratch.len() as u32) as usize])
    }

    fn greedy_value(&self, player: Player) -> f64 {
        let other = Player(1 - player.0);
        self.captures(player) as f64 - self.captures(other) as f64
    }

    fn action_count(&self) -> usize {
        self.inputs().len()
    }

    fn action_at(&self, i: usize) -> Option<Action> {
        match self.inputs().get(i)? {
            (_, Input::Act(a)) => Some(*a),
            (_, Input::Timeout) => None,
        }
    }
}

impl<V: Variant> Computer for WayGame<V> {
    fn computer_input(&self, seat: Player, level: Level, seed: u64, time: Option<Duration>) -> Option<Move> {
        if self.to_move() != Some(seat) {
            return Some(self.fallback_move(seat));
        }
        let action = search(self, level, seed, time)?;
        Some(Move::of(self.map(), action))
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use std::sync::Arc;

    use gobeyond_rules::way_of_go::{BesiegeGame, BesiegeRules, WayOfGoGame, WayOfGoRules};

    use super::*;

    /// A won or unfinished game's rewards add up to one; a drawn one's to two draws.
    fn sums_right(r: Rewards) -> bool {
        let total = r[0] + r[1];
        (total - 1.0).abs() < 1e-5 || (total - 2.0 * DRAW).abs() < 1e-5
    }

    /// Playouts from the empty board (the pie included) reach an end or the limit without an
    /// illegal action, and leave owners for the stones on the board.
    #[test]
    fn playouts_run_through_the_pie_and_leave_owners() {
        for spec in ["square:9", "hex:4", "torus:6", "cube:3"] {
            let map = Arc::new(gobeyond_maps::generate(spec).unwrap());
            let tables = Arc::new(gobeyond_rules::playout::PlayoutTables::new(&map));
            let mut ws = Workspace::new(&map, tables);
            let mut g = WayOfGoGame::new(map.clone(), WayOfGoRules::default()).unwrap().search_copy();
            let r = g.playout(&mut ws, &mut Rng::new(3), Policy::Light, &mut Vec::new());
            assert!(g.turns() > 10, "{spec}: turns were played");
            assert!(sums_right(r), "{spec}: {r:?}");
            assert!(ws.owner.iter().any(|&o| o != 0), "{spec}");
            let mut b = BesiegeGame::new(map.clone(), BesiegeRules::default()).unwrap().search_copy();
            let r = b.playout(&mut ws, &mut Rng::new(4), Policy::Light, &mut Vec::new());
            assert!(b.turns() > 10, "{spec}: BeSiege turns were played");
            assert!(sums_right(r), "{spec}: {r:?}");
        }
    }

    /// A BeSiege position on square:9 (stacks by label), Black to move, and a workspace for it.
    fn besiege_at(stacks: &[(&str, Colour, u8)], tactics: bool) -> (BesiegeGame, Workspace) {
        let map = Arc::new(gobeyond_maps::generate("square:9").unwrap());
        let stacks: Vec<_> = stacks.iter().map(|&(l, c, h)| (map.node_by_label(l).unwrap(), c, h)).collect();
        let g =
            BesiegeGame::from_position(map.clone(), BesiegeRules::default(), &stacks, Colour::Black).unwrap();
        let mut ws = Workspace::new(&map, Arc::new(gobeyond_rules::playout::PlayoutTables::new(&map)));
        ws.tactics = tactics;
        (g, ws)
    }

    fn drop_at(g: &BesiegeGame, label: &str) -> Action {
        let a = Action::Drop(g.map().node_by_label(label).unwrap());
        assert_eq!(g.check_action(a), Ok(()), "{label}");
        a
    }

    /// The biggest capture counts the enemy stones a move removes: a stack of three on an
    /// enemy pair removes two.
    #[test]
    fn the_biggest_capture_counts_stones_removed() {
        use gobeyond_rules::way_of_go::Colour::{Black, White};
        // E5 alone has range 4 and reaches E1 (three liberties on the edge: range 3, so no
        // capture back). A three-stack on A5 reaches J5? No: its ranges are 3, 3, 3 (the edge).
        let (g, _) = besiege_at(&[("E5", Black, 1), ("E1", White, 2)], true);
        assert_eq!(best_capture(g.board(), Black, g.config()), 1);
        assert_eq!(best_capture(g.board(), White, g.config()), 0);
        let (g, _) = besiege_at(&[("E5", Black, 3), ("E1", White, 2)], true);
        // Every top part of the three-stack is alone at its level: range 4 to E1, 2 removed.
        assert_eq!(best_capture(g.board(), Black, g.config()), 2);
    }

    /// The heavier levels' prior looks one turn ahead: a drop that lets the enemy capture is
    /// worth less than a quiet one, a drop that makes a threat the enemy cannot return more, a
    /// capture more than passing it by; the light levels see none of it.
    #[test]
    fn the_tactical_prior_sees_one_turn_ahead() {
        use gobeyond_rules::way_of_go::Colour::{Black, White};
        // White E5 has range 4: it does not reach Black E2 (3 away). A Black drop on D5 takes a
        // liberty (range 3): then it does.
        let (g, mut ws) = besiege_at(&[("E5", White, 1), ("E2", Black, 1)], true);
        let hanging = g.prior(drop_at(&g, "D5"), &mut ws);
        let quiet = g.prior(drop_at(&g, "A9"), &mut ws);
        assert!(hanging.value < quiet.value - 0.1, "{hanging:?} {quiet:?}");
        // White E1 (range 3 on the edge) cannot reach E5; a Black stone there reaches E1.
        let (g, mut ws) = besiege_at(&[("E1", White, 1), ("A9", Black, 1)], true);
        let threat = g.prior(drop_at(&g, "E5"), &mut ws);
        let quiet = g.prior(drop_at(&g, "H9"), &mut ws);
        assert!(threat.value > quiet.value + 0.05, "{threat:?} {quiet:?}");
        // With the capture on the board, taking it beats a quiet drop.
        let (g, mut ws) = besiege_at(&[("E1", White, 1), ("E5", Black, 1)], true);
        let (e5, e1) = (g.map().node_by_label("E5").unwrap(), g.map().node_by_label("E1").unwrap());
        let (step, landing) = g.find_move(e5, 1, e1, None).unwrap();
        assert!(landing.captures());
        let capture = Action::Move { from: e5, count: 1, dir: step.dir, to: e1 };
        let take = g.prior(capture, &mut ws);
        let pass_by = g.prior(drop_at(&g, "A9"), &mut ws);
        assert!(take.value > pass_by.value, "{take:?} {pass_by:?}");
        // The light levels keep the plain priors, which like D5 for touching an enemy.
        let (g, mut ws) = besiege_at(&[("E5", White, 1), ("E2", Black, 1)], false);
        let (hanging, quiet) = (g.prior(drop_at(&g, "D5"), &mut ws), g.prior(drop_at(&g, "A9"), &mut ws));
        assert!(hanging.value > quiet.value, "{hanging:?} {quiet:?}");
    }

    /// With a capture on the board, BeSiege takes one at once: the one that does not leave the
    /// opponent a capture. Without one, or in The Way of Go, the search decides.
    #[test]
    fn a_besiege_capture_is_taken_at_once_the_safest_first() {
        use gobeyond_rules::way_of_go::Colour::{Black, White};
        // White A1 (range 2) attacks Black A3. Black D1 (range 3) takes A1, which saves A3;
        // Black J6 (range 3) takes J9, after which A1 still takes A3.
        let stacks =
            [("A1", White, 1), ("A3", Black, 1), ("D1", Black, 1), ("J9", White, 1), ("J6", Black, 1)];
        let (g, _) = besiege_at(&stacks, true);
        let n = |l: &str| g.map().node_by_label(l).unwrap();
        let Some(Action::Move { from, to, count: 1, .. }) = g.quick_answer() else {
            panic!("{:?}", g.quick_answer())
        };
        assert_eq!((from, to), (n("D1"), n("A1")));
        let (quiet, _) = besiege_at(&[("A1", White, 1), ("E5", Black, 1)], true);
        assert_eq!(quiet.quick_answer(), None);
        let m = g.map().clone();
        let stacks: Vec<_> = stacks.iter().map(|&(l, c, h)| (m.node_by_label(l).unwrap(), c, h)).collect();
        let way = WayOfGoGame::from_position(m, WayOfGoRules::default(), &stacks, Black).unwrap();
        assert_eq!(way.quick_answer(), None);
    }

    /// A drawn game is worth [`DRAW`] to each seat, a decided one 1 and 0.
    #[test]
    fn a_draw_is_worth_less_than_half_a_win() {
        let map = Arc::new(gobeyond_maps::generate("square:5").unwrap());
        let (mut draws, mut decided) = (0, 0);
        for seed in 0..60 {
            let rules = BesiegeRules { max_turns: Some(12), ..BesiegeRules::default() };
            let mut g = BesiegeGame::new(map.clone(), rules).unwrap().search_copy();
            let (mut rng, mut scratch) = (Rng::new(seed), Vec::new());
            while let Some(a) = playout_action(&g, &mut rng, &mut scratch) {
                g.play(a).unwrap();
            }
            let (o, r) = (g.outcome().unwrap(), place_rewards(&g));
            if o.places[0] == o.places[1] {
                assert_eq!(r[..2], [DRAW, DRAW], "{o:?}");
                draws += 1;
            } else {
                assert_eq!(r[0] + r[1], 1.0, "{o:?}");
                assert_eq!(r[o.ranking[0].index()], 1.0, "{o:?}");
                decided += 1;
            }
        }
        assert!(draws > 0 && decided > 0, "{draws} draws, {decided} decided");
    }
}
