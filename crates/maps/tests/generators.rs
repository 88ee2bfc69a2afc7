//! Structural checks of every generator: counts, degrees, Euler characteristic, symmetry of the
//! adjacency and of the line tables, and labels.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic on setup failures

use gobeyond_maps::{CustomMap, GENERATORS, Map, generate, start_points};

fn degree_histogram(map: &Map) -> std::collections::BTreeMap<usize, usize> {
    let mut h = std::collections::BTreeMap::new();
    for n in map.nodes() {
        *h.entry(map.degree(n)).or_insert(0) += 1;
    }
    h
}

fn hist(pairs: &[(usize, usize)]) -> std::collections::BTreeMap<usize, usize> {
    pairs.iter().copied().collect()
}

#[test]
fn every_listed_example_builds_and_is_consistent() {
    for g in GENERATORS {
        let map = generate(g.example).unwrap_or_else(|e| panic!("{}: {e}", g.example));
        assert!(map.len() >= 2, "{}", g.example);
        assert_eq!(map.components(), 1, "{} is connected", g.example);
        for a in map.nodes() {
            let nb = map.neighbors(a);
            assert!(nb.windows(2).all(|w| w[0] < w[1]), "{}: sorted, no duplicates", g.example);
            for &b in nb {
                assert_ne!(a, b);
                assert!(map.are_adjacent(b, a), "{}: {a}-{b} symmetric", g.example);
            }
            assert_eq!(map.node_by_label(map.label(a)), Some(a), "{}: label of {a}", g.example);
        }
        if let Some(lines) = map.lines() {
            for a in map.nodes() {
                for d in 0..lines.directions() {
                    if let Some((b, d2)) = lines.step(a, d) {
                        assert!(map.are_adjacent(a, b));
                        // Opposite directions are paired as (2k, 2k+1) on every generator.
                        assert_eq!(
                            lines.step(b, d2 ^ 1),
                            Some((a, d ^ 1)),
                            "{} line back from {b}",
                            g.example
                        );
                    }
                }
            }
        }
    }
}

#[test]
fn square_boards() {
    let m = generate("square:19").unwrap();
    assert_eq!(m.len(), 361);
    assert_eq!(m.edge_count(), 2 * 19 * 18);
    assert_eq!(degree_histogram(&m), hist(&[(2, 4), (3, 4 * 17), (4, 17 * 17)]));
    // GTP coordinates: A1 bottom left, T19 top right, no I column.
    let a1 = m.node_by_label("A1").unwrap();
    assert_eq!(m.grid_position(a1), Some((0, 18)));
    assert_eq!(m.label(m.grid_node(8, 0).unwrap()), "J19");
    assert!(m.node_by_label("I5").is_none());
    assert_eq!(m.node_by_label("t19"), m.grid_node(18, 0));
    let big = generate("square:52").unwrap();
    assert_eq!(big.len(), 52 * 52);
    assert_eq!(big.label(big.grid_node(51, 0).unwrap()), "BB52");
    assert!(generate("square:53").is_err());
    assert!(generate("square:1").is_err());
    let r = generate("rect:13x9").unwrap();
    assert_eq!((r.len(), r.grid().unwrap().width, r.grid().unwrap().height), (117, 13, 9));
}

#[test]
fn wrapped_grids_are_regular() {
    for (spec, v) in [("torus:19", 361), ("torus:7x5", 35), ("klein:12x9", 108), ("klein:5x5", 25)] {
        let m = generate(spec).unwrap();
        assert_eq!(m.len(), v, "{spec}");
        assert_eq!(degree_histogram(&m), hist(&[(4, v)]), "{spec}");
        // A torus or Klein bottle tiled by squares: V − E + F = 0 with F = V.
        assert_eq!(m.edge_count(), 2 * v, "{spec}");
    }
    let c = generate("cylinder:10x6").unwrap();
    assert_eq!(degree_histogram(&c), hist(&[(3, 20), (4, 40)]));
    assert!(generate("torus:2").is_err());
    // The Klein seam flips: the right end of the top row meets the left end of the bottom row.
    let k = generate("klein:5x4").unwrap();
    let (tr, bl) = (k.grid_node(4, 0).unwrap(), k.grid_node(0, 3).unwrap());
    assert!(k.are_adjacent(tr, bl));
    let t = generate("torus:5x4").unwrap();
    assert!(t.are_adjacent(t.grid_node(4, 0).unwrap(), t.grid_node(0, 0).unwrap()));
}

#[test]
fn hex_family() {
    for n in 2..8u32 {
        let m = generate(&format!("hex:{n}")).unwrap();
        assert_eq!(m.len() as u32, 3 * n * (n - 1) + 1);
        assert_eq!(m.edge_count() as u32, 9 * n * n - 15 * n + 6);
        let h = degree_histogram(&m);
        assert_eq!(h[&3], 6, "six corners of hex:{n}");
        assert_eq!(h[&6] as u32, 3 * (n - 1) * (n - 2) + 1, "interior of hex:{n}");

        let t = generate(&format!("tri:{n}")).unwrap();
        assert_eq!(t.len() as u32, n * (n + 1) / 2);
        assert_eq!(t.edge_count() as u32, 3 * n * (n - 1) / 2);

        let c = generate(&format!("honeycomb:{n}")).unwrap();
        assert_eq!(c.len() as u32, 6 * n * n);
        let cells = 3 * n * (n - 1) + 1;
        // Planar: V − E + (cells + outer face) = 2.
        assert_eq!(c.len() as i64 - c.edge_count() as i64 + cells as i64, 1);
        let ch = degree_histogram(&c);
        assert_eq!(ch.keys().copied().collect::<Vec<_>>(), vec![2, 3]);
        assert_eq!(ch[&2] as u32, 6 * n, "boundary vertices of degree 2");
    }
}

#[test]
fn cube_surface() {
    for n in 1..7u32 {
        let m = generate(&format!("cube:{n}")).unwrap();
        let v = 6 * n * n;
        assert_eq!(m.len() as u32, v);
        assert_eq!(degree_histogram(&m), hist(&[(4, v as usize)]));
        // A sphere tiled by squares: V − E + F = 2 where the faces are the cells' corners
        // (the 8 cube corners are triangles): count via E = 2V.
        assert_eq!(m.edge_count() as u32, 2 * v);
    }
    // Lines go straight around the cube: 4n steps bring you back where you started.
    let m = generate("cube:5").unwrap();
    let lines = m.lines().unwrap();
    for start in m.nodes() {
        for d in 0..6 {
            let Some(mut at) = lines.step(start, d) else {
                continue;
            };
            for _ in 1..20 {
                at = lines.step(at.0, at.1).unwrap();
            }
            assert_eq!(at, (start, d));
        }
    }
}

#[test]
fn goldberg_polyhedra_have_twelve_pentagons() {
    for (m, n) in [(1, 0), (1, 1), (2, 0), (2, 1), (3, 0), (3, 1), (3, 2), (4, 0), (6, 0), (5, 3)] {
        let map = generate(&format!("goldberg:{m},{n}")).unwrap();
        let t = (m * m + m * n + n * n) as usize;
        assert_eq!(map.len(), 10 * t + 2, "GP({m},{n}) cells");
        assert_eq!(map.edge_count(), 30 * t, "GP({m},{n}) edges");
        let h = degree_histogram(&map);
        if t == 1 {
            assert_eq!(h, hist(&[(5, 12)]));
        } else {
            assert_eq!(h, hist(&[(5, 12), (6, 10 * t - 10)]), "GP({m},{n}) degrees");
        }
        // Euler: the geodesic dual has 20T triangles, so V − E + F = 2.
        assert_eq!(map.len() as i64 - map.edge_count() as i64 + 20 * t as i64, 2);
        assert_eq!(map.dimension(), 3);
    }
    assert_eq!(generate("goldberg:6").unwrap().len(), 362);
    assert_eq!(generate("goldberg:1,2").unwrap().len(), 72, "mirror image of 2,1");
}

#[test]
fn n_dimensional_grids() {
    let m = generate("grid:5x5x5").unwrap();
    assert_eq!(m.len(), 125);
    assert_eq!(m.edge_count(), 3 * 4 * 25);
    assert_eq!(degree_histogram(&m)[&6], 27);
    let w = generate("grid:4x4x4x4:wrap").unwrap();
    assert_eq!(degree_histogram(&w), hist(&[(8, 256)]));
    let w = generate("grid:3x3x3:wrap").unwrap();
    assert_eq!(degree_histogram(&w), hist(&[(6, 27)]));
    assert_eq!(m.label(m.node_by_label("2.3.4").unwrap()), "2.3.4");
    assert!(generate("grid:5x0").is_err());
}

#[test]
fn wavy_and_random() {
    let w = generate("wavy:13").unwrap();
    let s = generate("square:13").unwrap();
    assert_eq!(w.edges().collect::<Vec<_>>(), s.edges().collect::<Vec<_>>());
    assert!(w.nodes().any(|n| w.coord(n) != s.coord(n)));

    let a = generate("random:300:seed=9").unwrap();
    let b = generate("random:300:seed=9").unwrap();
    let c = generate("random:300:seed=10").unwrap();
    assert_eq!(a.edges().collect::<Vec<_>>(), b.edges().collect::<Vec<_>>());
    assert_ne!(a.edges().collect::<Vec<_>>(), c.edges().collect::<Vec<_>>());
    assert_eq!(a.len(), 300);
    let avg = 2.0 * a.edge_count() as f64 / a.len() as f64;
    assert!((3.0..5.0).contains(&avg), "Gabriel graph averages about 4 neighbours, got {avg}");
    // Planar: no two edges cross.
    let p = |n| {
        let c = a.coord(n);
        (c[0], c[1])
    };
    let edges: Vec<_> = a.edges().collect();
    let orient =
        |a: (f64, f64), b: (f64, f64), c: (f64, f64)| (b.0 - a.0) * (c.1 - a.1) - (b.1 - a.1) * (c.0 - a.0);
    for (i, &(u, v)) in edges.iter().enumerate() {
        for &(x, y) in &edges[i + 1..] {
            if u == x || u == y || v == x || v == y {
                continue;
            }
            let crosses = orient(p(u), p(v), p(x)) * orient(p(u), p(v), p(y)) < 0.0
                && orient(p(x), p(y), p(u)) * orient(p(x), p(y), p(v)) < 0.0;
            assert!(!crosses, "edges {u}-{v} and {x}-{y} cross");
        }
    }
}

#[test]
fn ten_thousand_nodes() {
    let m = generate("rect:100x100").unwrap();
    assert_eq!(m.len(), 10_000);
    let g = generate("goldberg:31,1").unwrap();
    assert_eq!(g.len(), 10 * (31 * 31 + 31 + 1) + 2);
    let r = generate("random:10000:seed=3").unwrap();
    assert_eq!(r.components(), 1);
    let pts = start_points(&r, 8);
    assert_eq!(pts.len(), 8);
}

#[test]
fn spec_errors_explain_themselves() {
    let e = generate("hexagon:5").unwrap_err().to_string();
    assert!(e.contains("unknown map kind") && e.contains("honeycomb"), "{e}");
    let e = generate("square:x").unwrap_err().to_string();
    assert!(e.contains("not a whole number") && e.contains("usage"), "{e}");
    let e = generate("rect:1000x1000").unwrap_err().to_string();
    assert!(e.contains("at most"), "{e}");
    assert!(generate("torus:5:bogus").unwrap_err().to_string().contains("unknown option"));
    assert!(generate("goldberg:0,0").is_err());
    assert!(generate("random:50:seed=").is_err());
    assert!(generate("").is_err());
    assert!(generate("grid:99999x99999x99999x99999").is_err());
}

#[test]
fn start_points_are_far_apart() {
    let m = generate("square:19").unwrap();
    let min_dist = |pts: &[u32]| {
        let mut best = u32::MAX;
        for (i, &a) in pts.iter().enumerate() {
            let d = m.distances_from(a);
            for &b in &pts[i + 1..] {
                best = best.min(d[b as usize]);
            }
        }
        best
    };
    let two = start_points(&m, 2);
    assert_eq!(min_dist(&two), 36, "opposite corners");
    let four = start_points(&m, 4);
    assert_eq!(min_dist(&four), 18, "the four corners");
    assert_eq!(start_points(&m, 4), four, "deterministic");
    let g = generate("goldberg:3,0").unwrap();
    let two = start_points(&g, 2);
    let d = g.distances_from(two[0]);
    assert_eq!(d[two[1] as usize], *d.iter().max().unwrap(), "antipodes of the sphere");
}

#[test]
fn json_round_trip_of_every_generator() {
    for g in GENERATORS {
        let map = generate(g.example).unwrap();
        let json = serde_json::to_string(&CustomMap::from_map(&map)).unwrap();
        let back = CustomMap::from_json(&json).unwrap().build().unwrap();
        assert_eq!(back.len(), map.len());
        assert_eq!(back.edges().collect::<Vec<_>>(), map.edges().collect::<Vec<_>>(), "{}", g.example);
        assert_eq!(back.dimension(), map.dimension());
        for n in map.nodes() {
            assert_eq!(back.label(n), map.label(n));
        }
    }
}

#[test]
fn svg_pictures() {
    for spec in ["square:9", "goldberg:2,0", "klein:5x5", "torus:6"] {
        let svg = gobeyond_maps::to_svg(&generate(spec).unwrap());
        assert!(svg.starts_with("<svg"));
        let m = generate(spec).unwrap();
        assert_eq!(svg.matches("<circle").count(), m.len(), "{spec}");
    }
}

/// Parameters whose node count overflows are refused before anything is generated (a wrapped
/// count once let `goldberg:1224363039,236568013` through as 356 nodes, and the server spun on it
/// for ever).
#[test]
fn huge_parameters_are_refused_before_generating() {
    let max = u32::MAX;
    for spec in [
        "goldberg:1224363039,236568013".to_string(),
        format!("goldberg:{max},{max}"),
        format!("goldberg:{max}"),
        format!("hex:{max}"),
        format!("honeycomb:{max}"),
        format!("tri:{max}"),
        format!("cube:{max}"),
        format!("rect:{max}x{max}"),
        format!("torus:{max}x{max}"),
        format!("wavy:{max}x3"),
        format!("grid:{max}x{max}x{max}"),
        format!("random:{max}"),
    ] {
        match gobeyond_maps::generate(&spec) {
            Ok(m) => panic!("{spec} built a map of {} nodes", m.len()),
            Err(e) => assert!(e.to_string().contains("at most"), "{spec}: {e}"),
        }
    }
}
