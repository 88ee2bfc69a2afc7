//! Light playouts: the board's incremental neighbour summaries against a neighbour walk, the eye
//! rule on small graphs, and how playouts end on the honeycomb.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic on setup failures

use std::sync::Arc;

use gobeyond_maps::{Map, MapBuilder, NodeId};
use gobeyond_rules::{
    Board, Player, Rng, SuicideRule,
    board::EMPTY,
    playout::{PlayoutTables, choose_light, is_eye, light_playout},
};

fn map(spec: &str) -> Arc<Map> {
    Arc::new(gobeyond_maps::generate(spec).unwrap())
}

/// The summaries the board keeps, against a walk over each node's neighbours.
fn summaries_match_a_walk(board: &Board) -> bool {
    let m = board.map();
    m.nodes().all(|n| {
        let nb = m.neighbors(n);
        let empties = nb.iter().filter(|&&q| board.color(q) == EMPTY).count() as u32;
        board.empty_neighbors(n) == empties
            && (1..=8u8).all(|c| board.surrounded_by(n, c) == nb.iter().all(|&q| board.color(q) == c))
    })
}

/// On every surrounded empty point, the playouts' shortcut (`Board::surrounded_legal`) answers
/// as the full check does, for every colour.
fn surrounded_legality_matches_check(board: &Board) -> bool {
    board.map().nodes().filter(|&n| board.color(n) == EMPTY && board.empty_neighbors(n) == 0).all(|n| {
        (0..8u8).all(|c| {
            let player = Player(c);
            board.surrounded_legal(n, player) == board.check(n, player, SuicideRule::Forbidden).is_ok()
        })
    })
}

/// Random light playouts on many maps and player counts, with captures, checked against a
/// from-scratch recount (`Board::is_consistent`) and a neighbour walk every few moves.
#[test]
fn neighbour_summaries_stay_exact_through_random_playouts() {
    let specs = ["square:9", "honeycomb:3", "hex:4", "torus:7", "goldberg:2,0", "random:60:seed=4", "cube:3"];
    for (i, spec) in specs.iter().enumerate() {
        let m = map(spec);
        let tables = PlayoutTables::new(&m);
        for players in 2..=4u8 {
            let mut rng = Rng::new(100 + i as u64 * 7 + players as u64);
            for _ in 0..6 {
                let mut board = Board::new(m.clone());
                let mut to_move = 0u8;
                for step in 0..3 * m.len() {
                    if let Some(p) = choose_light(&board, &tables, Player(to_move), &mut rng) {
                        board.play_unchecked(p, Player(to_move));
                    } else {
                        board.pass();
                    }
                    to_move = (to_move + 1) % players;
                    if step % 7 == 0 {
                        assert!(board.is_consistent(), "{spec}, {players} players, step {step}");
                        assert!(summaries_match_a_walk(&board), "{spec}, {players} players, step {step}");
                        assert!(
                            surrounded_legality_matches_check(&board),
                            "{spec}, {players} players, step {step}"
                        );
                    }
                }
                assert!(board.is_consistent() && summaries_match_a_walk(&board), "{spec} at the end");
            }
        }
    }
}

/// Copies keep the summaries.
#[test]
fn copies_carry_the_summaries() {
    let m = map("square:9");
    let tables = PlayoutTables::new(&m);
    let mut a = Board::new(m.clone());
    light_playout(&mut a, &tables, Player(0), 2, &mut Rng::new(9), 60);
    let mut b = Board::new(m);
    b.copy_from(&a);
    assert!(summaries_match_a_walk(&b) && b.is_consistent());
    let c = a.clone();
    assert!(summaries_match_a_walk(&c) && c.is_consistent());
}

fn honeycomb_pass_fraction(spec: &str, playouts: u32, seed: u64) -> f64 {
    let m = map(spec);
    let tables = PlayoutTables::new(&m);
    let empty = Board::new(m.clone());
    let mut board = empty.clone();
    let mut rng = Rng::new(seed);
    let cap = 3 * m.len() as u32 + 100;
    let mut by_passes = 0;
    for _ in 0..playouts {
        board.copy_from(&empty);
        if !light_playout(&mut board, &tables, Player(0), 2, &mut rng, cap).truncated {
            by_passes += 1;
        }
    }
    by_passes as f64 / playouts as f64
}

#[test]
fn honeycomb_playouts_end_by_passes() {
    // No 4-cycles on the honeycomb, so no diagonals: every point falls under the false-eye clause.
    let m = map("honeycomb:8");
    let tables = PlayoutTables::new(&m);
    assert!(m.nodes().all(|n| tables.diagonals(n).is_empty()));
    let f = honeycomb_pass_fraction("honeycomb:8", 400, 45);
    eprintln!("honeycomb:8 playouts ending by passes: {f}");
    assert!(f >= 0.95, "{f}");
}

/// A point of degree 3 (no diagonals, as on the honeycomb) with a path of two nodes behind each
/// neighbour: node 0 is the point, 1–3 its neighbours, 4–6 behind them, 7–9 behind those.
fn claw() -> Arc<Map> {
    let mut b = MapBuilder::new("claw", "custom");
    let nodes: Vec<NodeId> = (0..10).map(|i| b.add_node([i as f64, 0.0, 0.0], format!("n{i}"))).collect();
    for i in 1..4 {
        b.add_edge(nodes[0], nodes[i]);
        b.add_edge(nodes[i], nodes[i + 3]);
        b.add_edge(nodes[i + 3], nodes[i + 6]);
    }
    Arc::new(b.build().unwrap())
}

#[test]
fn a_point_without_diagonals_is_an_eye_when_surrounded_and_no_neighbour_hangs_on_it() {
    let m = claw();
    let tables = PlayoutTables::new(&m);
    assert!(tables.diagonals(0).is_empty());
    let black = Player(0).stone();
    let mut board = Board::new(m.clone());
    board.play_unchecked(1, Player(0));
    board.play_unchecked(2, Player(0));
    assert!(!is_eye(&board, &tables, 0, black), "a neighbour is still empty");
    board.play_unchecked(3, Player(0));
    assert!(is_eye(&board, &tables, 0, black), "three own stones, each with a second liberty");
    assert!(!is_eye(&board, &tables, 0, Player(1).stone()), "not White's eye");
    // White takes the leaf behind 1: the stone on 1 now hangs on the point alone, so Black must
    // be free to fill it (connecting 1 to 2 and 3) rather than let White capture there.
    board.play_unchecked(4, Player(1));
    assert!(board.only_liberty_is(1, 0));
    assert!(!is_eye(&board, &tables, 0, black), "a neighbour in atari through the point");
    let mut rng = Rng::new(1);
    let mut filled = false;
    for _ in 0..50 {
        filled |= choose_light(&board, &tables, Player(0), &mut rng) == Some(0);
    }
    assert!(filled, "the playout may fill the false eye");
}

#[test]
fn a_surrounded_point_whose_only_group_hangs_on_it_is_not_played() {
    // One black group around the point with no other liberty: filling would be suicide, so the
    // atari clause changes nothing there and Black passes.
    let mut b = MapBuilder::new("triangle-and-point", "custom");
    let n: Vec<NodeId> = (0..4).map(|i| b.add_node([i as f64, 0.0, 0.0], format!("n{i}"))).collect();
    for (x, y) in [(0, 1), (0, 2), (0, 3), (1, 2), (2, 3)] {
        b.add_edge(n[x], n[y]);
    }
    let m = Arc::new(b.build().unwrap());
    let tables = PlayoutTables::new(&m);
    let mut board = Board::new(m);
    for p in 1..4 {
        board.play_unchecked(p, Player(0));
    }
    assert!(!is_eye(&board, &tables, 0, Player(0).stone()));
    assert_eq!(choose_light(&board, &tables, Player(0), &mut Rng::new(2)), None);
}

#[test]
fn square_eyes_keep_the_diagonal_rule() {
    let m = map("square:5");
    let tables = PlayoutTables::new(&m);
    let at = |x: u32, y: u32| m.grid_node(x, y).unwrap();
    let black = Player(0).stone();
    let mut board = Board::new(m.clone());
    for (x, y) in [(2, 1), (1, 2), (3, 2), (2, 3)] {
        board.play_unchecked(at(x, y), Player(0));
    }
    assert!(is_eye(&board, &tables, at(2, 2), black));
    board.play_unchecked(at(1, 1), Player(1));
    assert!(is_eye(&board, &tables, at(2, 2), black), "one foreign diagonal of four is tolerated");
    board.play_unchecked(at(3, 3), Player(1));
    assert!(!is_eye(&board, &tables, at(2, 2), black), "two are not");
}
