//! The shape cycle of `PlayoutTables`: each node's neighbours and shape ring in their order
//! around it, on the maps that have one, and none where the neighbourhood has no order.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic on setup failures

use gobeyond_maps::{Map, NodeId};
use gobeyond_rules::playout::{OFF_MAP, PlayoutTables};

fn map(spec: &str) -> Map {
    gobeyond_maps::generate(spec).unwrap()
}

/// Checks every ordered node of `m`: the slots alternate neighbours (even) and ring points
/// (odd), each ring point sits between the two neighbours it touches, and every neighbour and
/// ring point is there once. Returns how many nodes are ordered and how many of those touch
/// the edge.
fn check_cycles(m: &Map) -> (usize, usize) {
    let tables = PlayoutTables::new(m);
    let (mut ordered, mut cut) = (0, 0);
    for p in m.nodes() {
        let cycle = tables.cycle(p);
        if cycle.is_empty() {
            continue;
        }
        ordered += 1;
        let len = cycle.len();
        assert_eq!(len, 2 * m.max_degree(), "node {p}");
        let present: Vec<NodeId> = cycle.iter().copied().filter(|&q| q != OFF_MAP).collect();
        let mut expected: Vec<NodeId> = m.neighbors(p).iter().chain(tables.ring(p)).copied().collect();
        let mut sorted = present.clone();
        sorted.sort_unstable();
        expected.sort_unstable();
        assert_eq!(sorted, expected, "node {p}: every neighbour and ring point once");
        for (i, &q) in cycle.iter().enumerate() {
            if q == OFF_MAP {
                continue;
            }
            if i % 2 == 0 {
                assert!(m.are_adjacent(p, q), "node {p}: slot {i} is no neighbour");
            } else {
                assert!(tables.ring(p).contains(&q), "node {p}: slot {i} is not in the ring");
                for side in [cycle[i - 1], cycle[(i + 1) % len]] {
                    assert!(side == OFF_MAP || m.are_adjacent(q, side), "node {p}: slot {i} is out of order");
                }
            }
        }
        // Two neighbours with an empty slot between them touch (the edge took their ring point).
        for i in (1..len).step_by(2) {
            let (a, b) = (cycle[i - 1], cycle[(i + 1) % len]);
            if cycle[i] == OFF_MAP && a != OFF_MAP && b != OFF_MAP {
                assert!(m.are_adjacent(a, b), "node {p}: slot {i} joins neighbours that do not touch");
            }
        }
        if cycle.contains(&OFF_MAP) {
            cut += 1;
        }
    }
    (ordered, cut)
}

#[test]
fn square_boards_read_the_3x3_block_around_every_point() {
    let m = map("square:9");
    assert_eq!(check_cycles(&m), (81, 32));
    let tables = PlayoutTables::new(&m);
    // A corner point: two neighbours and the diagonal between them, five slots off the map.
    let corner = m.nodes().find(|&p| m.degree(p) == 2).unwrap();
    assert_eq!(tables.cycle(corner).iter().filter(|&&q| q == OFF_MAP).count(), 5);
    // A side point: three neighbours, two diagonals, three slots off the map.
    let side = m.nodes().find(|&p| m.degree(p) == 3).unwrap();
    assert_eq!(tables.cycle(side).iter().filter(|&&q| q == OFF_MAP).count(), 3);
}

#[test]
fn edgeless_and_hex_maps_are_ordered_everywhere() {
    assert_eq!(check_cycles(&map("torus:7")), (49, 0));
    let hex = map("hex:4");
    let (ordered, cut) = check_cycles(&hex);
    assert_eq!(ordered, hex.len());
    assert!(cut > 0 && cut < hex.len());
    let tri = map("tri:9");
    assert_eq!(check_cycles(&tri).0, tri.len());
    let cube = map("cube:5");
    assert_eq!(check_cycles(&cube).0, cube.len());
    // A Goldberg sphere's twelve pentagons have a cycle of ten, not the hexagons' twelve: they
    // keep the shapes counted by kind.
    let sphere = map("goldberg:2");
    assert_eq!(check_cycles(&sphere), (sphere.nodes().filter(|&p| sphere.degree(p) == 6).count(), 0));
}

#[test]
fn neighbourhoods_without_an_order_have_no_cycle() {
    // The honeycomb has no ring (no 4-cycles, no bridge points): nothing to order.
    let m = map("honeycomb:3");
    assert_eq!(check_cycles(&m), (0, 0));
}
