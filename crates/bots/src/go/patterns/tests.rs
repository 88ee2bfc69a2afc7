//! Tests of the learned move patterns: features, shapes, the model and its cache.
#![allow(clippy::unwrap_used)]

use std::{collections::BTreeMap, sync::Arc};

use super::*;

/// A board from rows of `X` (Black), `O` (White) and `.`, the top row first.
fn board(rows: &[&str]) -> Board {
    let n = rows.len();
    let map = Arc::new(gobeyond_maps::generate(&format!("square:{n}")).unwrap());
    let mut codes = vec![None; map.len()];
    for (r, row) in rows.iter().enumerate() {
        for (c, ch) in row.chars().enumerate() {
            // Go's columns skip the letter I.
            let column = b"ABCDEFGHJKLMNOPQRST"[c] as char;
            let label = format!("{column}{}", n - r);
            codes[map.node_by_label(&label).unwrap() as usize] = match ch {
                'X' => Some(Player(0)),
                'O' => Some(Player(1)),
                _ => None,
            };
        }
    }
    Board::from_codes(map, |v| codes[v as usize])
}

fn at(b: &Board, label: &str) -> NodeId {
    b.map().node_by_label(label).unwrap()
}

#[test]
fn tactical_features_are_found() {
    let b = board(&[
        ".XO..", //
        "XO...", //
        ".X...", //
        ".....", //
        ".....",
    ]);
    let tables = PlayoutTables::new(b.map());
    let dist = Distances::new(&b, Some(at(&b, "C5")), Some(at(&b, "B3")));
    let rings = OuterRings::new(b.map(), &tables);
    let lines = crate::go::priors::lines(b.map());
    let around = Surroundings { board: &b, tables: &tables, rings: &rings, lines: &lines, dist: &dist };
    let black = Player(0);
    // B4 has one liberty, C4: taking it captures and saves B5 (in atari, A5 its last
    // liberty); next to the last move (C5), which it puts in atari.
    let f = features(&around, at(&b, "C4"), black, true);
    assert_eq!((f.fixed[0], f.fixed[3], f.fixed[5]), (3, 1, 0), "{f:?}");
    // E1 captures nothing, far from both last moves.
    let f = features(&around, at(&b, "E1"), black, true);
    assert_eq!((f.fixed[0], f.fixed[5], f.fixed[6]), (0, 3, 3), "{f:?}");
    // C5 has two liberties, C4 and D5: D5 is an atari.
    let f = features(&around, at(&b, "D5"), black, true);
    assert_eq!((f.fixed[0], f.fixed[3]), (0, 1), "{f:?}");
    // A3 joins A4 and B3: A2, A5, B2 and C3 make four liberties; two steps from B3.
    let f = features(&around, at(&b, "A3"), black, true);
    assert_eq!((f.fixed[4], f.fixed[6]), (3, 0), "{f:?}");
    // A3 is near stones: its line is not read.
    assert_eq!(f.fixed[7], 0, "{f:?}");
    // White at A5 captures B5, which saves B4; White at C4 joins B4 and C5 with C3, D4 and
    // D5 left: an escape to three liberties.
    let f = features(&around, at(&b, "A5"), Player(1), true);
    assert_eq!(f.fixed[0], 3, "{f:?}");
    let f = features(&around, at(&b, "C4"), Player(1), true);
    assert_eq!((f.fixed[1], f.fixed[4]), (1, 2), "{f:?}");
    // Shape: the corner A1 has two empty neighbours and the empty B2 between them; the other
    // five slots are off the board.
    let s = shape(&b, &tables, at(&b, "A1"), black, true);
    assert_eq!(s.text(), "o8:...#####");
    assert_eq!(ShapeKey::parse(&s.text()), Some(s));
    // Counted, the same corner misses two neighbours and three diagonals.
    let s = shape(&b, &tables, at(&b, "A1"), black, false);
    assert_eq!(s.text(), "0022/0013");
    assert_eq!(ShapeKey::parse(&s.text()), Some(s));
}

#[test]
fn square_shapes_are_the_3x3_block_up_to_symmetry() {
    let black = Player(0);
    let key = |rows: &[&str]| {
        let b = board(rows);
        shape(&b, &PlayoutTables::new(b.map()), at(&b, "C3"), black, true)
    };
    // Around C3: an own stone above it and an enemy on the diagonal to the upper right...
    let original = key(&[
        ".....", //
        "..XO.", //
        ".....", //
        ".....", //
        ".....",
    ]);
    // ...turned a quarter clockwise (own to the right, enemy lower right) and mirrored (enemy
    // upper left): the same shape.
    let turned = key(&[
        ".....", //
        ".....", //
        "...X.", //
        "...O.", //
        ".....",
    ]);
    let mirrored = key(&[
        ".....", //
        ".OX..", //
        ".....", //
        ".....", //
        ".....",
    ]);
    assert_eq!(original, turned, "{} {}", original.text(), turned.text());
    assert_eq!(original, mirrored, "{} {}", original.text(), mirrored.text());
    // The same stones counted by kind (an own neighbour, an enemy diagonal) in another
    // arrangement: a different shape, which the count key could not tell apart.
    let apart = key(&[
        ".....", //
        "..X..", //
        ".....", //
        "...O.", //
        ".....",
    ]);
    assert_ne!(original, apart, "{}", original.text());
    let text = original.text();
    assert!(
        text.starts_with("o8:") && text.matches('O').count() == 1 && text.matches('X').count() == 1,
        "{text}"
    );
    assert_eq!(ShapeKey::parse(&text), Some(original));
    assert_eq!(ShapeKey::parse(&apart.text()), Some(apart));
    // Texts that are no key are refused.
    for bad in ["o8:....", "o7:.......", "o8:...?....", "o:", "0022/001"] {
        assert_eq!(ShapeKey::parse(bad), None, "{bad}");
    }
}

#[test]
fn hex_shapes_look_at_the_bridge_points() {
    let map = Arc::new(gobeyond_maps::generate("hex:4").unwrap());
    let tables = PlayoutTables::new(&map);
    let centre = map.nodes().find(|&v| map.neighbors(v).iter().all(|&q| map.degree(q) == 6)).unwrap();
    // Hex cells have no diagonals (every two common neighbours touch): the ring is the six
    // bridge points, each two steps away through two common neighbours.
    assert!(tables.diagonals(centre).is_empty());
    let ring = tables.ring(centre);
    assert_eq!(ring.len(), 6, "{ring:?}");
    for &d in ring {
        assert!(!map.are_adjacent(centre, d) && d != centre);
        let common = map.neighbors(centre).iter().filter(|&&q| map.are_adjacent(q, d)).count();
        assert_eq!(common, 2);
    }
    assert_eq!(tables.max_ring(), 6);
    // A stone on a bridge point changes the shape (counted by kind on hex grids, whose twelve
    // slots around a cell make more oriented shapes than the records could weigh); the empty
    // centre reads 6 empty, 6 empty.
    let empty = Board::new(map.clone());
    assert_eq!(shape(&empty, &tables, centre, Player(0), true).text(), "0060/0060");
    let mut b = Board::new(map.clone());
    b.play_unchecked(ring[0], Player(0));
    assert_eq!(shape(&b, &tables, centre, Player(0), true).text(), "0060/1050");
    // The honeycomb has no order around its points at all.
    let honeycomb = Arc::new(gobeyond_maps::generate("honeycomb:3").unwrap());
    let t = PlayoutTables::new(&honeycomb);
    let v = honeycomb.nodes().find(|&v| honeycomb.degree(v) == 3).unwrap();
    assert_eq!(shape(&Board::new(honeycomb.clone()), &t, v, Player(0), true).text(), "0030/0000");
    // On a square grid the ring is the diagonals.
    let square = gobeyond_maps::generate("square:5").unwrap();
    let t = PlayoutTables::new(&square);
    for v in square.nodes() {
        assert_eq!(t.ring(v), t.diagonals(v));
    }
}

#[test]
fn the_builtin_model_loads_and_prefers_captures() {
    // Captures that save a group and escapes from atari: taking a lone stone is often pointless
    // (a dead stone in one's own area), and the shape around it says when it is not.
    let (small, big) = (Model::builtin(81), Model::builtin(361));
    assert!(!small.oriented() && big.oriented(), "9×9 keeps the counted model, 19×19 the oriented one");
    for m in [small, big] {
        let base = Features { fixed: [0, 0, 0, 0, 1, 3, 3, 3], shape: ShapeKey(0), large: None };
        let saving = Features { fixed: [3, 0, 0, 0, 1, 3, 3, 3], ..base.clone() };
        let escape = Features { fixed: [0, 1, 0, 0, 1, 3, 3, 3], ..base.clone() };
        let self_atari = Features { fixed: [0, 0, 2, 0, 0, 3, 3, 3], ..base.clone() };
        assert!(m.strength(&saving) > 5.0 * m.strength(&base));
        // 9-dan players (the big model's records) let hopeless stones go, which a feature
        // blind to ladders cannot tell from the rest: there an escape is 4 times a quiet move.
        assert!(m.strength(&escape) > 3.0 * m.strength(&base));
        assert!(m.strength(&self_atari) < m.strength(&base) / 10.0);
    }
}

#[test]
fn bad_weight_files_are_refused_with_a_reason() {
    let w = Weights {
        version: 5,
        trained_on: String::new(),
        groups: BTreeMap::new(),
        shapes: BTreeMap::new(),
        large_shapes: BTreeMap::new(),
    };
    assert!(Model::from_weights(&w).unwrap_err().contains("version 5"));
    let w = Weights { version: 1, ..w };
    assert!(Model::from_weights(&w).unwrap_err().contains("capture"));
    let mut w: Weights = serde_json::from_str(include_str!("../../../data/patterns-big.json")).unwrap();
    w.large_shapes.insert("O.......:X...............".into(), f64::NAN);
    assert!(Model::from_weights(&w).unwrap_err().contains("O.......:X..............."));
    w.large_shapes.clear();
    // Not the least reading of its symmetries.
    w.large_shapes.insert(".......O:X...............".into(), 2.0);
    assert!(Model::from_weights(&w).unwrap_err().contains("bad large shape key"));
}

/// A version 2 file (oriented shapes, no large ones) still loads: every move's large shape
/// weighs 1 and the 3×3 shapes weigh as before.
#[test]
fn version_2_weight_files_still_load() {
    let mut w: Weights = serde_json::from_str(include_str!("../../../data/patterns-big.json")).unwrap();
    w.version = 2;
    w.large_shapes.clear();
    let text = serde_json::to_string(&w).unwrap();
    assert!(!text.contains("large_shapes"), "a version 2 file has no large shapes");
    let m = Model::from_weights(&serde_json::from_str(&text).unwrap()).unwrap();
    assert!(m.oriented() && !m.reads_large_shapes());
    let f = Features { fixed: [0, 0, 0, 0, 3, 3, 3, 3], shape: ShapeKey(0), large: Some(LargeKey(0)) };
    assert_eq!(m.strength(&f), m.strength(&Features { large: None, ..f.clone() }));
}

/// The line group: near stones (within two steps) or, in an empty area, the first and second
/// lines, the third and fourth, or beyond.
#[test]
fn the_line_is_read_in_empty_areas() {
    let b = board(&[
        "........X", //
        ".........", //
        ".........", //
        ".........", //
        ".........", //
        ".........", //
        ".........", //
        ".........", //
        ".........",
    ]);
    let tables = PlayoutTables::new(b.map());
    let (dist, rings) = (Distances::new(&b, None, None), OuterRings::default());
    let lines = crate::go::priors::lines(b.map());
    let around = Surroundings { board: &b, tables: &tables, rings: &rings, lines: &lines, dist: &dist };
    let line = |label: &str| features(&around, at(&b, label), Player(0), true).fixed[7];
    assert_eq!(
        [line("H8"), line("G9"), line("A1"), line("B5"), line("C3"), line("D6"), line("E5")],
        [0, 0, 1, 1, 2, 2, 3]
    );
}

/// A version 3 file (large shapes, no line) still loads: every line weighs 1. From version 4
/// the line is required.
#[test]
fn version_3_weight_files_still_load() {
    let mut w: Weights = serde_json::from_str(include_str!("../../../data/patterns-big.json")).unwrap();
    assert!(w.groups.remove("line").is_some(), "the big model weighs the line");
    assert!(Model::from_weights(&w).unwrap_err().contains("line"));
    w.version = 3;
    let m = Model::from_weights(&w).unwrap();
    let edge = Features { fixed: [0, 0, 0, 0, 3, 3, 3, 0], shape: ShapeKey(0), large: None };
    assert_eq!(m.strength(&edge), m.strength(&Features { fixed: [0, 0, 0, 0, 3, 3, 3, 2], ..edge.clone() }));
}

/// The large shape is the 5×5 block around the move, read from the graph: the same up to
/// rotation and reflection, off-board points marked, none where the map is no grid.
#[test]
fn large_shapes_are_the_5x5_block_up_to_symmetry() {
    let black = Player(0);
    let key = |rows: &[&str], label: &str| {
        let b = board(rows);
        let tables = PlayoutTables::new(b.map());
        let rings = OuterRings::new(b.map(), &tables);
        large_shape(&b, &tables, &rings, at(&b, label), black).unwrap()
    };
    // Around E5 (the centre of 9×9): a White stone a knight's move away and a Black one two
    // lines above; then the same turned a quarter and mirrored.
    let rows = [
        ".........",
        ".........",
        "....X....",
        ".........",
        ".........",
        "......O..",
        ".........",
        ".........",
        ".........",
    ];
    let turned = [
        ".........",
        ".........",
        ".........",
        ".........",
        "..X......",
        ".........",
        ".....O...",
        ".........",
        ".........",
    ];
    let (a, b) = (key(&rows, "E5"), key(&turned, "E5"));
    assert_eq!(a, b, "{} against {}", a.text(), b.text());
    // The inner ring is empty; of the outer, one own straight point and one enemy knight's point.
    let text = a.text();
    let (inner, outer) = text.split_once(':').unwrap();
    assert_eq!(inner, "........");
    assert_eq!((outer.matches('O').count(), outer.matches('X').count(), outer.len()), (1, 1, 16), "{text}");
    assert_eq!(LargeKey::parse(&text), Some(a));
    // The enemy on the other knight's point beside the same diagonal is another shape.
    let mut moved = rows;
    moved[5] = ".........";
    moved[6] = ".....O...";
    assert_ne!(key(&moved, "E5"), a);
    // The stones beyond the 5×5 block do not count.
    let mut far = rows;
    far[0] = "O.......X";
    assert_eq!(key(&far, "E5"), a);
    // The corner A1: 3 of its 8 inner points and 5 of its 16 outer points are on the board.
    let corner = key(&rows, "A1").text();
    assert_eq!((corner.matches('#').count(), corner.matches('.').count()), (16, 8), "{corner}");
    // The same shape on a torus has nothing off the map.
    let torus = Arc::new(gobeyond_maps::generate("torus:9").unwrap());
    let tables = PlayoutTables::new(&torus);
    let rings = OuterRings::new(&torus, &tables);
    let empty = Board::new(torus.clone());
    assert!(torus.nodes().all(|v| large_shape(&empty, &tables, &rings, v, black).is_some_and(|k| k.0 == 0)));
    // Hex cells have no such block.
    let hex = Arc::new(gobeyond_maps::generate("hex:4").unwrap());
    let tables = PlayoutTables::new(&hex);
    let rings = OuterRings::new(&hex, &tables);
    assert!(hex.nodes().all(|v| large_shape(&Board::new(hex.clone()), &tables, &rings, v, black).is_none()));
    for bad in ["........", "........:...............", "........:...............?"] {
        assert_eq!(LargeKey::parse(bad), None, "{bad}");
    }
}

/// Weights files of version 1 (counted shapes only, before oriented keys) still load, and their
/// shapes still weigh the maps whose shapes are counted.
#[test]
fn version_1_weight_files_still_load() {
    let mut w: Weights = serde_json::from_str(include_str!("../../../data/patterns-big.json")).unwrap();
    w.version = 1;
    w.shapes = BTreeMap::from([("0030/0000".to_string(), 5.0)]);
    let m = Model::from_weights(&w).unwrap();
    assert!(!m.oriented());
    let honeycomb = Arc::new(gobeyond_maps::generate("honeycomb:3").unwrap());
    let t = PlayoutTables::new(&honeycomb);
    let v = honeycomb.nodes().find(|&v| honeycomb.degree(v) == 3).unwrap();
    assert_eq!(m.shape_gamma(shape(&Board::new(honeycomb.clone()), &t, v, Player(0), m.oriented())), 5.0);
}
