//! The board's incremental tables (issue 45: liberties per level, so ranges, and BeSiege's
//! attacked points) against the from-scratch computations they replaced, after every action of
//! many seeded random games on several map families and sizes, under each settings variant, and
//! on copies that go their own way (`clone_from` reuses a board's tables).
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::sync::Arc;

use gobeyond_maps::{Map, generate};
use gobeyond_rules::{
    Game, Rng,
    way_of_go::{
        Action, Besiege, BesiegeRules, Colour, Landing, Phase, StackBoard, Variant, WayGame, WayOfGo,
        WayOfGoRules,
    },
};

fn map(spec: &str) -> Arc<Map> {
    Arc::new(generate(spec).unwrap())
}

/// Every table of `board` equals its from-scratch computation.
fn check_tables(board: &StackBoard, attacks: bool, context: &str) {
    for node in board.map().nodes() {
        for level in 1..=board.height(node).saturating_add(1) {
            assert_eq!(
                board.liberties_at(node, level),
                board.liberties_slowly(node, level),
                "{context}: liberties of node {node} at level {level}"
            );
        }
    }
    let (mut slow, mut levels) = (Vec::new(), Vec::new());
    board.attacked_slowly(&mut slow);
    board.attacked(&mut levels);
    assert_eq!(levels, slow, "{context}: the level-by-level table");
    let counted: Vec<u8> = board.map().nodes().map(|n| board.attackers(n)).collect();
    if attacks {
        assert_eq!(counted, slow, "{context}: the attacked points");
        for colour in [Colour::Black, Colour::White] {
            let mut capture = false;
            board.moves(colour, true, false, |_, l| capture |= l == Landing::Capture);
            assert_eq!(board.may_capture(colour), Some(capture), "{context}: {colour:?} may capture");
            let (mut slow, mut quick) = (Vec::new(), Vec::new());
            board.moves(colour, true, false, |s, l| {
                if l.captures() {
                    slow.push((s, l));
                }
            });
            board.capturing_moves(colour, true, false, |s, l| quick.push((s, l)));
            assert_eq!(quick, slow, "{context}: {colour:?}'s captures");
        }
    } else {
        assert!(counted.iter().all(|&a| a == 0), "{context}: no attacks counted without neutral drops");
    }
}

/// A random legal action, moves and captures preferred now and then so that stacks grow and
/// fall (drops outnumber them).
fn pick<V: Variant>(g: &WayGame<V>, rng: &mut Rng, legal: &mut Vec<Action>) -> Action {
    g.legal_actions(legal);
    let moves: Vec<Action> = legal.iter().copied().filter(|a| matches!(a, Action::Move { .. })).collect();
    if !moves.is_empty() && rng.below(3) == 0 {
        moves[rng.below(moves.len() as u32) as usize]
    } else {
        legal[rng.below(legal.len() as u32) as usize]
    }
}

/// The drops the game allows equal the empty nodes no stack reaches, found from scratch.
fn check_drops<V: Variant>(g: &WayGame<V>, context: &str) {
    if !matches!(g.phase(), Phase::Start | Phase::AfterMove | Phase::Pie { .. }) {
        return;
    }
    let mut slow = Vec::new();
    g.board().attacked_slowly(&mut slow);
    let neutral = g.config().neutral_drops;
    for n in g.map().nodes() {
        let expected = g.board().is_empty(n) && (!neutral || slow[n as usize] == 0);
        assert_eq!(g.may_drop(n).is_ok(), expected, "{context}: a drop on node {n}");
    }
}

fn random_games<V: Variant>(rules: V::Settings, specs: &[&str], seeds: u64, steps: u32) -> u8 {
    let mut tallest = 0;
    let mut copy: Option<WayGame<V>> = None;
    let mut trial: Option<StackBoard> = None;
    for spec in specs {
        let m = map(spec);
        for seed in 0..seeds {
            let mut g = WayGame::<V>::new(m.clone(), rules.clone()).unwrap();
            g.set_recording(false);
            let attacks = g.config().neutral_drops;
            let mut rng = Rng::new(seed * 7919 + m.len() as u64);
            let mut legal = Vec::new();
            for step in 0..steps {
                if g.outcome().is_some() {
                    break;
                }
                let a = pick(&g, &mut rng, &mut legal);
                g.play(a).unwrap_or_else(|e| panic!("{spec} seed {seed}: {a:?} was listed: {e}"));
                let context = format!("{spec} seed {seed} step {step} after {a:?}");
                check_tables(g.board(), attacks, &context);
                check_drops(&g, &context);
                tallest = tallest.max(m.nodes().map(|n| g.board().height(n)).max().unwrap_or(0));
                // A board reusing another's tables (as the bots' trials do), one move tried on it.
                if let Some(colour) = g.to_move().map(|p| g.colour_of(p)) {
                    let b = trial.get_or_insert_with(|| g.board().clone());
                    b.clone_from(g.board());
                    let mut steps = Vec::new();
                    b.moves(colour, g.config().stacks, g.config().push, |s, l| steps.push((s, l)));
                    if !steps.is_empty() {
                        let (s, l) = steps[rng.below(steps.len() as u32) as usize];
                        b.apply(colour, &s, l);
                        check_tables(b, attacks, &format!("{context}, a trial of {s:?}"));
                    }
                }
                // A copy of the game, played on a few actions of its own.
                if step % 17 == 5 {
                    let c = copy.get_or_insert_with(|| g.clone());
                    c.clone_from(&g);
                    for _ in 0..3 {
                        if c.outcome().is_some() {
                            break;
                        }
                        let a = pick(c, &mut rng, &mut legal);
                        c.play(a).unwrap();
                        check_tables(c.board(), attacks, &format!("{context}, a copy after {a:?}"));
                    }
                }
            }
        }
    }
    tallest
}

const SPECS: [&str; 6] = ["square:5", "square:9", "square:13", "torus:6", "hex:4", "cube:3"];

#[test]
fn besiege_tables_equal_the_from_scratch_ones() {
    let tallest = random_games::<Besiege>(BesiegeRules::default(), &SPECS, 4, 300);
    assert!(tallest >= 3, "stacks were built (the tallest had {tallest} stones)");
}

#[test]
fn besiege_tables_equal_the_from_scratch_ones_without_the_pie_and_short() {
    let rules = BesiegeRules { pie: false, max_turns: Some(40) };
    random_games::<Besiege>(rules, &["square:7", "hex:3", "torus:5"], 6, 200);
}

#[test]
fn way_of_go_ranges_equal_the_from_scratch_ones() {
    random_games::<WayOfGo>(WayOfGoRules::default(), &SPECS, 3, 200);
    let push = WayOfGoRules { push: true, contracts: [3, 4], ..WayOfGoRules::default() };
    random_games::<WayOfGo>(push, &["square:7", "hex:4"], 3, 200);
}

/// A position set up stack by stack (`from_position`, the lab) starts with the same tables.
#[test]
fn set_up_positions_start_with_the_from_scratch_tables() {
    use gobeyond_rules::way_of_go::Colour::{Black, White};
    let m = map("square:9");
    let mut rng = Rng::new(5);
    for _ in 0..50 {
        let mut stacks = Vec::new();
        for node in m.nodes() {
            if rng.below(3) == 0 {
                let colour = if rng.below(2) == 0 { Black } else { White };
                stacks.push((node, colour, 1 + rng.below(4) as u8));
            }
        }
        let to_move = if rng.below(2) == 0 { Black } else { White };
        let rules = BesiegeRules { pie: false, max_turns: None };
        let g = WayGame::<Besiege>::from_position(m.clone(), rules, &stacks, to_move).unwrap();
        check_tables(g.board(), true, "a set-up position");
    }
}
