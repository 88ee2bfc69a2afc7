//! The Way of Go and BeSiege for the search and for computer seats. The tree searches the small
//! actions of a turn (drop, move, capture, end); playouts play whole turns ([`playout`]) and
//! judge an unfinished game by captures against contracts (BeSiege: captures); BeSiege's
//! heavier levels look one turn ahead in their priors, and every searching seat takes a
//! BeSiege capture at once ([`tactics`]).

mod playout;
mod tactics;

use std::sync::Arc;

use gobeyond_maps::NodeId;
use gobeyond_rules::{
    Game, MAX_PLAYERS, Player, Rng, RuleSystem,
    playout::PlayoutTables,
    way_of_go::{Action, Input, Move, Phase, Variant, WayGame},
};

use self::{
    playout::playout_action,
    tactics::{capture_to_take, tactical_prior, threatens, touches_enemy},
};
use crate::{
    computer::Computer,
    go::Policy,
    search::{
        level::Bot,
        mcts::SearchConfig,
        searchable::{Prior, Rewards, Searchable, TurnStep},
    },
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

/// The most actions a playout plays before it is judged. BeSiege has no ending but a player
/// without a turn, so its playouts stop after half the map's nodes plus 30 actions (about a
/// quarter of a board of turns) and are judged by captures: at equal time that plays at least
/// as well as playouts twice as long (`docs/bots.md`, "The Way of Go and BeSiege"). The Way of Go's
/// end by contract long before their limit.
fn playout_limit<V: Variant>(game: &WayGame<V>) -> usize {
    let nodes = game.map().len();
    if game.config().contracts.is_some() { nodes + 60 } else { nodes / 2 + 30 }
}

/// A search thread's scratch for The Way of Go and BeSiege.
#[derive(Debug, Clone)]
pub struct Scratch {
    /// The final owner of each node after a playout (the stack on it).
    owner: Vec<u8>,
    /// Whether the search plays above the light levels: BeSiege's priors then look one turn
    /// ahead ([`tactical_prior`]), which costs about a tenth of the playouts.
    tactics: bool,
    /// The actions a playout step chooses among.
    actions: Vec<Action>,
}

impl<V: Variant> Searchable for WayGame<V> {
    type Scratch = Scratch;

    /// The light levels' policy keeps the plain priors; the heavier ones look one turn ahead.
    fn scratch(&self, _: &Arc<PlayoutTables>, config: &SearchConfig) -> Scratch {
        Scratch {
            owner: vec![0; self.map().len()],
            tactics: config.policy != Policy::Light,
            actions: Vec::new(),
        }
    }

    fn owners(scratch: &Scratch) -> &[u8] {
        &scratch.owner
    }

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
        scratch: &mut Scratch,
        rng: &mut Rng,
        played: &mut Vec<(Player, NodeId)>,
    ) -> Rewards {
        for _ in 0..playout_limit(self) {
            let Some(seat) = self.to_move() else { break };
            let Some(a) = playout_action(self, rng, &mut scratch.actions) else { break };
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
            scratch.owner[n as usize] = match self.board().colour(n) {
                Some(c) => self.seat_of(c).0 + 1,
                None => 0,
            };
        }
        match self.outcome() {
            Some(_) => place_rewards(self),
            None => estimate(self),
        }
    }

    fn prior(&self, action: Action, scratch: &mut Scratch) -> Prior {
        let Some(seat) = self.to_move() else { return Prior { visits: 0.0, value: 0.5 } };
        let colour = self.colour_of(seat);
        if scratch.tactics
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

    /// A turn is at most two actions (a drop and a move, in either order; a capture is one).
    /// The pie's three stones are one seat's, and so is a choice of White with the turn that
    /// follows it: the actions a seat takes in a row count as one turn, as the server times
    /// them.
    fn turn_step(&self) -> TurnStep {
        let Some(seat) = self.to_move() else { return TurnStep::WHOLE };
        let inputs = self.inputs();
        // The seat's actions in a row before this one (never more than three).
        let done = inputs.iter().rev().take(4).take_while(|(s, _)| *s == seat).count();
        let chose = done > 0
            && matches!(inputs.get(inputs.len() - done), Some((_, Input::Act(Action::ChooseSide(_)))));
        let most = match self.phase() {
            Phase::Pie { .. } | Phase::Choose => 3,
            Phase::Start | Phase::AfterMove | Phase::AfterDrop { .. } => 2 + u32::from(chose),
            Phase::Over => 1,
        };
        TurnStep { done: (done as u32).min(most - 1), most }
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

/// The random baseline: any legal action, uniformly (a turn is more than a placement).
fn random_action<V: Variant>(game: &WayGame<V>, rng: &mut Rng) -> Option<Action> {
    let mut legal = Vec::new();
    game.legal_actions(&mut legal);
    (!legal.is_empty()).then(|| legal[rng.below(legal.len() as u32) as usize])
}

impl<V: Variant> Computer for WayGame<V> {
    /// A bot that searches takes a BeSiege capture at once ([`capture_to_take`]: playouts,
    /// where nobody answers a threat, would let it hoard them); otherwise the bot's action.
    fn decide(&self, seat: Player, bot: &mut Bot<Self>) -> Option<Move> {
        if self.to_move() != Some(seat) {
            return Some(self.fallback_move(seat));
        }
        let quick = bot.searches().then(|| capture_to_take(self)).flatten();
        let action = match quick {
            Some(capture) => capture,
            None => bot.choose_with(self, |g, _, rng| random_action(g, rng)).0?,
        };
        Some(self.to_wire(action))
    }

    fn is_pass(&self, action: Action) -> bool {
        matches!(action, Action::Pass | Action::EndTurn)
    }

    fn greedy_value(&self, player: Player) -> f64 {
        let other = Player(1 - player.0);
        self.captures(player) as f64 - self.captures(other) as f64
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use gobeyond_rules::way_of_go::{BesiegeGame, BesiegeRules, Colour, WayOfGoGame, WayOfGoRules};

    use super::{tactics::best_capture, *};

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
            let tables = Arc::new(PlayoutTables::new(&map));
            let mut g = WayOfGoGame::new(map.clone(), WayOfGoRules::default()).unwrap().search_copy();
            let mut scratch = g.scratch(&tables, &SearchConfig::default());
            let r = g.playout(&mut scratch, &mut Rng::new(3), &mut Vec::new());
            assert!(g.turns() > 10, "{spec}: turns were played");
            assert!(sums_right(r), "{spec}: {r:?}");
            assert!(scratch.owner.iter().any(|&o| o != 0), "{spec}");
            let mut b = BesiegeGame::new(map.clone(), BesiegeRules::default()).unwrap().search_copy();
            let r = b.playout(&mut scratch, &mut Rng::new(4), &mut Vec::new());
            assert!(b.turns() > 10, "{spec}: BeSiege turns were played");
            assert!(sums_right(r), "{spec}: {r:?}");
        }
    }

    /// A BeSiege playout plays half the map's nodes plus 30 actions (114 on 13×13, where no
    /// game ends that soon) and stops there, unfinished, to be judged by captures.
    #[test]
    fn besiege_playouts_stop_after_half_the_map_plus_30_actions() {
        let map = Arc::new(gobeyond_maps::generate("square:13").unwrap());
        let tables = Arc::new(PlayoutTables::new(&map));
        for seed in 0..4 {
            let mut b = BesiegeGame::new(map.clone(), BesiegeRules::default()).unwrap().search_copy();
            let mut scratch = b.scratch(&tables, &SearchConfig::default());
            b.playout(&mut scratch, &mut Rng::new(seed), &mut Vec::new());
            assert_eq!(b.inputs().len(), 169 / 2 + 30, "seed {seed}");
            assert!(b.outcome().is_none(), "seed {seed}");
        }
    }

    /// A BeSiege position on square:9 (stacks by label), Black to move, and a scratch for it.
    fn besiege_at(stacks: &[(&str, Colour, u8)], tactics: bool) -> (BesiegeGame, Scratch) {
        let map = Arc::new(gobeyond_maps::generate("square:9").unwrap());
        let stacks: Vec<_> = stacks.iter().map(|&(l, c, h)| (map.node_by_label(l).unwrap(), c, h)).collect();
        let g =
            BesiegeGame::from_position(map.clone(), BesiegeRules::default(), &stacks, Colour::Black).unwrap();
        let mut scratch = g.scratch(&Arc::new(PlayoutTables::new(&map)), &SearchConfig::default());
        scratch.tactics = tactics;
        (g, scratch)
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
        let (g, mut scratch) = besiege_at(&[("E5", White, 1), ("E2", Black, 1)], true);
        let hanging = g.prior(drop_at(&g, "D5"), &mut scratch);
        let quiet = g.prior(drop_at(&g, "A9"), &mut scratch);
        assert!(hanging.value < quiet.value - 0.1, "{hanging:?} {quiet:?}");
        // White E1 (range 3 on the edge) cannot reach E5; a Black stone there reaches E1.
        let (g, mut scratch) = besiege_at(&[("E1", White, 1), ("A9", Black, 1)], true);
        let threat = g.prior(drop_at(&g, "E5"), &mut scratch);
        let quiet = g.prior(drop_at(&g, "H9"), &mut scratch);
        assert!(threat.value > quiet.value + 0.05, "{threat:?} {quiet:?}");
        // With the capture on the board, taking it beats a quiet drop.
        let (g, mut scratch) = besiege_at(&[("E1", White, 1), ("E5", Black, 1)], true);
        let (e5, e1) = (g.map().node_by_label("E5").unwrap(), g.map().node_by_label("E1").unwrap());
        let (step, landing) = g.find_move(e5, 1, e1, None).unwrap();
        assert!(landing.captures());
        let capture = Action::Move { from: e5, count: 1, dir: step.dir, to: e1 };
        let take = g.prior(capture, &mut scratch);
        let pass_by = g.prior(drop_at(&g, "A9"), &mut scratch);
        assert!(take.value > pass_by.value, "{take:?} {pass_by:?}");
        // The light levels keep the plain priors, which like D5 for touching an enemy.
        let (g, mut scratch) = besiege_at(&[("E5", White, 1), ("E2", Black, 1)], false);
        let (hanging, quiet) =
            (g.prior(drop_at(&g, "D5"), &mut scratch), g.prior(drop_at(&g, "A9"), &mut scratch));
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
        let Some(Action::Move { from, to, count: 1, .. }) = capture_to_take(&g) else {
            panic!("{:?}", capture_to_take(&g))
        };
        assert_eq!((from, to), (n("D1"), n("A1")));
        let (quiet, _) = besiege_at(&[("A1", White, 1), ("E5", Black, 1)], true);
        assert_eq!(capture_to_take(&quiet), None);
        let m = g.map().clone();
        let stacks: Vec<_> = stacks.iter().map(|&(l, c, h)| (m.node_by_label(l).unwrap(), c, h)).collect();
        let way = WayOfGoGame::from_position(m, WayOfGoRules::default(), &stacks, Black).unwrap();
        assert_eq!(capture_to_take(&way), None);
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
