//! Custom map validation: every problem is reported, with the node or edge at fault.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic on setup failures

use gobeyond_maps::{CustomMap, MapProblem};
use proptest::prelude::*;

fn map(nodes: usize, edges: &[[u64; 2]]) -> CustomMap {
    CustomMap {
        name: "t".into(),
        nodes: (0..nodes)
            .map(|i| gobeyond_maps::CustomNode { x: Some(i as f64), y: Some(0.0), ..Default::default() })
            .collect(),
        edges: edges.to_vec(),
        ..Default::default()
    }
}

#[test]
fn a_valid_custom_map() {
    let text = r#"{"name": "triangle", "nodes": [{"x":0,"y":0,"label":"a"},{"x":1,"y":0,"label":"b"},{"x":0,"y":1}],
                   "edges": [[0,1],[1,2],[2,0]], "start_points": [0, 1]}"#;
    let m = CustomMap::from_json(text).unwrap().build().unwrap();
    assert_eq!(m.len(), 3);
    assert_eq!(m.node_by_label("b"), Some(1));
    assert_eq!(m.label(2), "2", "missing labels become the node number");
    assert_eq!(m.declared_start_points(), &[0, 1]);
    assert_eq!(gobeyond_maps::start_points(&m, 2), vec![0, 1]);
}

#[test]
fn every_problem_is_reported() {
    let mut m = map(4, &[[0, 1], [1, 1], [1, 0], [2, 9]]);
    m.nodes[3].y = None;
    m.nodes[2].label = Some("dup".into());
    m.nodes[0].label = Some("dup".into());
    m.start_points = vec![7];
    let err = m.build().unwrap_err();
    let p = &err.problems;
    assert!(p.contains(&MapProblem::BadCoordinates { node: 3 }), "{p:?}");
    assert!(p.contains(&MapProblem::SelfLoop { edge: 1, node: 1 }), "{p:?}");
    assert!(p.contains(&MapProblem::DuplicateEdge { edge: 2, first: 0, a: 1, b: 0 }), "{p:?}");
    assert!(p.contains(&MapProblem::EdgeOutOfRange { edge: 3, node: 9, nodes: 4 }), "{p:?}");
    assert!(p.contains(&MapProblem::DuplicateLabel { node: 2, first: 0, label: "dup".into() }), "{p:?}");
    assert!(p.contains(&MapProblem::BadStartPoint { index: 0, node: 7 }), "{p:?}");
    assert!(p.iter().any(|x| matches!(x, MapProblem::Disconnected { .. })), "{p:?}");
    let text = err.to_string();
    assert!(text.contains("edge #1 joins node 1 to itself"), "{text}");
}

#[test]
fn disconnected_only_when_allowed() {
    let mut m = map(4, &[[0, 1], [2, 3]]);
    let err = m.clone().build().unwrap_err();
    assert_eq!(err.problems, vec![MapProblem::Disconnected { components: 2, node: 2 }]);
    m.allow_disconnected = true;
    assert_eq!(m.build().unwrap().components(), 2);
}

#[test]
fn size_limits_and_empty_maps() {
    assert_eq!(map(0, &[]).build().unwrap_err().problems, vec![MapProblem::Empty]);
    let err = map(50, &[]).build_with_limit(10).unwrap_err();
    assert_eq!(err.problems, vec![MapProblem::TooManyNodes { nodes: 50, limit: 10 }]);
}

#[test]
fn parse_errors_name_the_place() {
    let e = CustomMap::from_json("{\"nodes\": [], \"edges\": [[0, -1]]}").unwrap_err();
    assert_eq!(e.line(), 1);
    assert!(CustomMap::from_json("{\"nodes\": [{\"x\": 1, \"q\": 2}], \"edges\": []}").is_err());
}

proptest! {
    /// Whatever the edges, validation returns a map or a list of problems; it never panics, and a
    /// map it accepts has symmetric, duplicate-free adjacency.
    #[test]
    fn validation_never_panics(n in 0usize..12, edges in proptest::collection::vec((0u64..14, 0u64..14), 0..40), allow in any::<bool>()) {
        let mut m = map(n, &edges.iter().map(|&(a, b)| [a, b]).collect::<Vec<_>>());
        m.allow_disconnected = allow;
        match m.build() {
            Ok(map) => {
                for a in map.nodes() {
                    for &b in map.neighbors(a) {
                        prop_assert!(map.are_adjacent(b, a));
                        prop_assert!(a != b);
                    }
                }
            }
            Err(e) => prop_assert!(!e.problems.is_empty()),
        }
    }
}

/// Unbounded values are refused, naming the node or the field: huge coordinates (1e308 came back
/// as `null` in the map view), a million-character name, an endless label.
#[test]
fn sizes_and_numbers_are_bounded() {
    let map = |name: &str, x: f64, label: &str| {
        let json = serde_json::json!({
            "name": name,
            "nodes": [{"x": 0.0, "y": 0.0, "label": label}, {"x": x, "y": 1.0}],
            "edges": [[0, 1]],
        });
        CustomMap::from_json(&json.to_string()).unwrap().build()
    };
    assert!(map("ok", 2.0, "A").is_ok());
    let e = map("ok", 1e308, "A").unwrap_err().to_string();
    assert!(e.contains("node 1") && e.contains("coordinates"), "{e}");
    let e = map(&"n".repeat(1_000_000), 2.0, "A").unwrap_err().to_string();
    assert!(e.contains("1000000 characters"), "{e}");
    assert!(e.len() < 300, "the error does not echo the name");
    let e = map("ok", 2.0, &"L".repeat(10_000)).unwrap_err().to_string();
    assert!(e.contains("node 0") && e.contains("at most 32"), "{e}");
    assert!(e.len() < 300, "the error does not echo the label");
}

/// A generated map exported and read back with `"lines": "derived"`.
fn derived(spec: &str) -> gobeyond_maps::Map {
    let m = gobeyond_maps::generate(spec).unwrap();
    let mut c = CustomMap::from_map(&m);
    assert!(c.lines.is_none(), "exports carry no line table");
    c.lines = Some(gobeyond_maps::CustomLines::Derived(gobeyond_maps::Derived::Derived));
    c.build().unwrap()
}

/// Every node reached from `v` going `steps` steps in every direction (None where the line ends).
fn reach(m: &gobeyond_maps::Map, v: u32, steps: usize) -> Vec<Option<u32>> {
    let lines = m.lines().unwrap();
    let mut out: Vec<Option<u32>> = (0..lines.directions())
        .map(|d| {
            let (mut node, mut dir) = (v, d);
            for _ in 0..steps {
                (node, dir) = lines.step(node, dir)?;
            }
            Some(node)
        })
        .collect();
    out.sort();
    out
}

#[test]
fn derived_lines_agree_with_the_generators_away_from_the_edges() {
    // Interior nodes of a square grid and of a hex board have even degree everywhere around
    // them, so the derived lines are the generator's straight lines. (A torus drawn flat is
    // not: its wrapping edges cross the drawing, so angles mean nothing there.)
    for (spec, label, steps) in [("square:9", "E5", 3), ("hex:5", "E5", 2), ("cube:3", "R-B2", 4)] {
        let generated = gobeyond_maps::generate(spec).unwrap();
        let d = derived(spec);
        let v = generated.node_by_label(label).unwrap();
        let mut want: Vec<Option<u32>> =
            reach(&generated, v, steps).into_iter().filter(|x| x.is_some()).collect();
        let mut got: Vec<Option<u32>> = reach(&d, v, steps).into_iter().filter(|x| x.is_some()).collect();
        want.sort();
        got.sort();
        assert_eq!(got, want, "{spec} from {label}, {steps} steps");
    }
    // On a square grid's edge (degree 3) a derived line ends: from E1 only the line going up
    // continues for two steps (along the edge, D1 and F1 have three neighbours).
    let d = derived("square:9");
    let e1 = d.node_by_label("E1").unwrap();
    let two: Vec<u32> = reach(&d, e1, 2).into_iter().flatten().collect();
    assert_eq!(two, [d.node_by_label("E3").unwrap()]);
}

#[test]
fn declared_lines_follow_their_paths_and_closed_ones_wrap() {
    // A ring of six nodes and a spoke: the ring declared closed, the spoke open.
    let mut c = map(7, &[[0, 1], [1, 2], [2, 3], [3, 4], [4, 5], [5, 0], [0, 6]]);
    c.lines = Some(gobeyond_maps::CustomLines::Declared(vec![vec![0, 1, 2, 3, 4, 5, 0], vec![6, 0]]));
    let m = c.build().unwrap();
    let lines = m.lines().unwrap();
    assert_eq!(lines.directions(), 4, "node 0 is on two lines");
    // Round the ring forwards from 4: 5, then 0, then 1.
    let walk = |mut v: u32, mut d: u8, k: usize| {
        for _ in 0..k {
            (v, d) = lines.step(v, d).unwrap();
        }
        v
    };
    assert_eq!(walk(4, 0, 3), 1);
    assert_eq!(walk(1, 1, 2), 5, "backwards across the join");
    assert_eq!(walk(6, 0, 1), 0);
    assert!(lines.step(6, 1).is_none(), "the spoke ends at 6");

    // A path that jumps between nodes that are not joined is refused, naming the line.
    let mut c = map(7, &[[0, 1], [1, 2], [2, 3], [3, 4], [4, 5], [5, 0], [0, 6]]);
    c.lines = Some(gobeyond_maps::CustomLines::Declared(vec![vec![0, 1], vec![1, 3]]));
    let e = c.build().unwrap_err().to_string();
    assert!(e.contains("line #1") && e.contains("node 3"), "{e}");
    // Read from JSON: both forms.
    let text = r#"{"nodes": [{"x": 0, "y": 0}, {"x": 1, "y": 0}], "edges": [[0, 1]], "lines": [[0, 1]]}"#;
    assert!(CustomMap::from_json(text).unwrap().build().unwrap().lines().is_some());
    let text = r#"{"nodes": [{"x": 0, "y": 0}, {"x": 1, "y": 0}], "edges": [[0, 1]], "lines": "derived"}"#;
    assert!(CustomMap::from_json(text).unwrap().build().unwrap().lines().is_some());
    let text = r#"{"nodes": [{"x": 0, "y": 0}, {"x": 1, "y": 0}], "edges": [[0, 1]], "lines": "straight"}"#;
    assert!(CustomMap::from_json(text).is_err(), "an unknown word is refused");
}
