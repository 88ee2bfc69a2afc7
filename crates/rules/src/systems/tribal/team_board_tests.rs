//! The incremental board against the from-scratch searches it replaced (issue 45): over seeded
//! random games — dice and cards, and Pro; 3 to 5 players; square, hex and torus maps — after
//! every action the board equals the one rebuilt from the stones, and every placement (legal
//! or not) has the result, events and position the from-scratch code gives.

#![allow(clippy::unwrap_used)]

use std::sync::Arc;

use gobeyond_maps::NodeId;

use super::{Action, Input, Phase, TribalGame, TribalKo, TribalRules};
use crate::{Game, Player, Rng};

/// What the games went through, so that a test which saw nothing fails.
#[derive(Default, Debug)]
struct Seen {
    fresh_checks: u32,
    placements: u32,
    captures: u32,
    surrenders: u32,
    /// Stones whose group has one liberty, summed over the positions.
    ataris: u32,
}

/// `p`'s placement on `node` on two copies, the incremental board's and the from-scratch one:
/// the same verdict, stones, hash, prisoners, supply, ko history and events.
fn same_placement(g: &TribalGame, p: Player, node: NodeId, range: Option<u32>, handicap: bool) -> bool {
    let (mut a, mut b) = (g.clone(), g.clone());
    let ra = a.place(p, node, range, handicap);
    let rb = b.place_from_scratch(p, node, range, handicap);
    assert_eq!(ra, rb, "placing {node} for {p:?}");
    assert_eq!(a.owner, b.owner);
    assert_eq!(a.hash, b.hash);
    assert_eq!(a.previous_hash, b.previous_hash);
    assert_eq!(a.history, b.history);
    assert_eq!(a.prisoners, b.prisoners);
    assert_eq!(a.supply, b.supply);
    assert_eq!(a.events(), b.events());
    a.board_matches_stones().unwrap();
    ra.is_ok()
}

/// Every node's legality and the reachable nodes for the player placing now, both ways.
fn same_legality(g: &TribalGame, p: Player, range: Option<u32>) {
    assert_eq!(g.reachable(p, range), g.reachable_from_scratch(p, range), "range {range:?}");
    for v in g.map.nodes() {
        assert_eq!(
            g.placeable(p, v, range),
            g.placeable_from_scratch(p, v, range),
            "node {v}, range {range:?}"
        );
    }
}

/// A chance input as the server makes it: a card for a draw, else two dice.
fn chance(g: &mut TribalGame, rng: &mut Rng) {
    let action = match g.random_draw(rng) {
        Some(card) => Action::Drawn(card),
        None => Action::Dice(1 + rng.below(6) as u8, 1 + rng.below(6) as u8),
    };
    g.play(action).unwrap();
}

/// A random legal action, a placement most of the time (to fill the board and capture).
fn random_action(g: &TribalGame, rng: &mut Rng) -> Option<Action> {
    let mut legal = Vec::new();
    g.legal_actions(&mut legal);
    let places: Vec<Action> = legal.iter().copied().filter(|a| matches!(a, Action::Place(_))).collect();
    let pool = if !places.is_empty() && rng.below(10) < 8 { &places } else { &legal };
    pool.get(rng.below(pool.len().max(1) as u32) as usize).copied()
}

fn play_game(spec: &str, players: usize, rules: TribalRules, seed: u64, seen: &mut Seen) {
    let map = Arc::new(gobeyond_maps::generate(spec).unwrap());
    let mut g = TribalGame::new(map, players, rules, None).unwrap();
    let mut rng = Rng::new(seed);
    for _ in 0..1500 {
        if g.outcome().is_some() {
            break;
        }
        if g.chance_seat().is_some() {
            chance(&mut g, &mut rng);
        } else if *g.phase() == Phase::CleanUp {
            for p in g.acting() {
                g.apply(p, &Input::Dead(Vec::new())).unwrap();
            }
        } else {
            let Some(p) = g.to_move() else { break };
            let placing = matches!(g.phase(), Phase::Handicap { .. } | Phase::Turn { .. });
            let range = g.current_range();
            let handicap = matches!(g.phase(), Phase::Handicap { .. });
            if placing {
                g.ensure_board();
                same_legality(&g, p, range);
                // A node at random too: refusals (suicide, ko, out of range) must match.
                let v = rng.below(g.map.len() as u32);
                same_placement(&g, p, v, range, handicap);
            }
            let Some(action) = random_action(&g, &mut rng) else { break };
            if let (true, Action::Place(v)) = (placing, action) {
                assert!(same_placement(&g, p, v, range, handicap), "{v} was listed as legal");
                seen.placements += 1;
            }
            let captures_before = g.events().len();
            g.play(action).unwrap();
            seen.captures += g.events()[captures_before..]
                .iter()
                .filter(|e| matches!(e, super::Event::Captured { .. }))
                .count() as u32;
            seen.surrenders += u32::from(matches!(action, Action::Accept));
        }
        if g.board.is_fresh() {
            seen.fresh_checks += 1;
        }
        g.board_matches_stones().unwrap();
        for v in g.map.nodes() {
            let sole = g.sole_liberty(v);
            assert_eq!(sole, g.sole_liberty_from_scratch(v), "the only liberty of {v}'s group");
            seen.ataris += u32::from(sole.is_some());
        }
    }
}

#[test]
fn the_incremental_board_matches_the_from_scratch_searches() {
    let dice = TribalRules::default();
    let pro = TribalRules::pro();
    let simple_ko = TribalRules { ko: TribalKo::Simple, ..TribalRules::pro() };
    let far = TribalRules { fixed_range: 9, ..TribalRules::pro() };
    let configs: [(&str, usize, &TribalRules); 7] = [
        ("square:7", 3, &dice),
        ("hex:4", 4, &dice),
        ("torus:6", 5, &dice),
        ("square:6", 3, &pro),
        ("hex:3", 3, &simple_ko),
        ("torus:5", 4, &pro),
        ("square:9", 4, &far),
    ];
    let mut seen = Seen::default();
    for (i, (spec, players, rules)) in configs.iter().enumerate() {
        for seed in 0..3 {
            play_game(spec, *players, (*rules).clone(), 100 * i as u64 + seed, &mut seen);
        }
    }
    assert!(seen.placements > 1000, "{seen:?}");
    assert!(seen.captures > 50, "{seen:?}");
    assert!(seen.ataris > 1000, "{seen:?}");
    assert!(seen.fresh_checks > seen.placements / 2, "{seen:?}");
}
