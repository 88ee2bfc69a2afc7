//! Goldberg polyhedra GP(m, n): the cells of a "soccer ball" on a sphere, 12 pentagons and
//! 10(m² + mn + n²) − 10 hexagons. Each cell is a node; cells sharing a side are adjacent.
//!
//! The cells are the vertices of the dual geodesic polyhedron, built by the Goldberg–Coxeter
//! construction: a triangular lattice is laid over every face of an icosahedron so that the face
//! corners sit at lattice points `(0,0)`, `(m,n)` and that vector turned by 60°. Lattice points in
//! a face (corners and sides included) are vertices; a lattice step that leaves the face across a
//! side is followed into the neighbouring face unfolded into the same plane. Points shared by
//! several faces are merged by position.

use std::collections::{HashMap, HashSet};

use crate::{Map, MapBuilder, MapError, NodeId};

type V3 = [f64; 3];

fn sub(a: V3, b: V3) -> V3 {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}
fn dot(a: V3, b: V3) -> f64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}
fn cross(a: V3, b: V3) -> V3 {
    [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]
}
fn norm(a: V3) -> f64 {
    dot(a, a).sqrt()
}

/// The 12 vertices and 20 outward-oriented (counter-clockwise seen from outside) faces of an
/// icosahedron.
fn icosahedron() -> (Vec<V3>, Vec<[usize; 3]>) {
    let phi = (1.0 + 5f64.sqrt()) / 2.0;
    let mut v = Vec::new();
    for a in [-1.0, 1.0] {
        for b in [-phi, phi] {
            v.push([0.0, a, b]);
            v.push([a, b, 0.0]);
            v.push([b, 0.0, a]);
        }
    }
    let mut faces = Vec::new();
    for i in 0..12 {
        for j in i + 1..12 {
            for k in j + 1..12 {
                let close = |a: usize, b: usize| (norm(sub(v[a], v[b])) - 2.0).abs() < 1e-9;
                if close(i, j) && close(j, k) && close(i, k) {
                    let centre = [
                        v[i][0] + v[j][0] + v[k][0],
                        v[i][1] + v[j][1] + v[k][1],
                        v[i][2] + v[j][2] + v[k][2],
                    ];
                    let n = cross(sub(v[j], v[i]), sub(v[k], v[i]));
                    faces.push(if dot(n, centre) > 0.0 { [i, j, k] } else { [i, k, j] });
                }
            }
        }
    }
    (v, faces)
}

/// Barycentric coordinates of `p` in the 2-D triangle `(a, b, c)`.
fn barycentric(p: [f64; 2], a: [f64; 2], b: [f64; 2], c: [f64; 2]) -> [f64; 3] {
    let det = (b[1] - c[1]) * (a[0] - c[0]) + (c[0] - b[0]) * (a[1] - c[1]);
    let l1 = ((b[1] - c[1]) * (p[0] - c[0]) + (c[0] - b[0]) * (p[1] - c[1])) / det;
    let l2 = ((c[1] - a[1]) * (p[0] - c[0]) + (a[0] - c[0]) * (p[1] - c[1])) / det;
    [l1, l2, 1.0 - l1 - l2]
}

/// Lattice coordinates `(i, j)` (basis 1 and e^{iπ/3}) to the plane.
fn plane(i: i32, j: i32) -> [f64; 2] {
    [i as f64 + j as f64 / 2.0, j as f64 * 0.866_025_403_784_438_6]
}

const EPS: f64 = 1e-9;

/// GP(m, n) with `10(m² + mn + n²) + 2` cells.
pub fn goldberg(m: u32, n: u32, spec: &str) -> Result<Map, MapError> {
    let (points, edges) = subdivided_icosahedron(m, n);
    on_sphere(&points, edges, format!("Goldberg polyhedron GP({m},{n})"), spec)
}

/// The cells of GP(m, n) on the icosahedron's faces (the triangular lattice of each face, its
/// edges across a face's sides found by unfolding the neighbouring face), and their adjacency.
fn subdivided_icosahedron(m: u32, n: u32) -> (Vec<V3>, HashSet<(NodeId, NodeId)>) {
    let (verts, faces) = icosahedron();
    // The face across each side: side (a, b) of one face is side (b, a) of its neighbour.
    let mut across: HashMap<(usize, usize), usize> = HashMap::new();
    for f in &faces {
        for s in 0..3 {
            across.insert((f[s], f[(s + 1) % 3]), f[(s + 2) % 3]);
        }
    }
    let (mi, ni) = (m as i32, n as i32);
    let corners = [plane(0, 0), plane(mi, ni), plane(-ni, mi + ni)];
    let steps = [(1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1)];
    let (lo_i, hi_i) = (-ni, mi);
    let (lo_j, hi_j) = (0, mi + ni);

    let mut index: HashMap<[i64; 3], NodeId> = HashMap::new();
    let mut points: Vec<V3> = Vec::new();
    let mut node_of = |p: V3, points: &mut Vec<V3>| -> NodeId {
        let key = [(p[0] * 1e6).round() as i64, (p[1] * 1e6).round() as i64, (p[2] * 1e6).round() as i64];
        *index.entry(key).or_insert_with(|| {
            points.push(p);
            (points.len() - 1) as NodeId
        })
    };
    let mix = |l: [f64; 3], a: V3, b: V3, c: V3| -> V3 {
        [
            l[0] * a[0] + l[1] * b[0] + l[2] * c[0],
            l[0] * a[1] + l[1] * b[1] + l[2] * c[1],
            l[0] * a[2] + l[1] * b[2] + l[2] * c[2],
        ]
    };
    let mut edges: HashSet<(NodeId, NodeId)> = HashSet::new();
    for f in &faces {
        let [a, b, c] = [verts[f[0]], verts[f[1]], verts[f[2]]];
        for i in lo_i..=hi_i {
            for j in lo_j..=hi_j {
                let lp = barycentric(plane(i, j), corners[0], corners[1], corners[2]);
                if lp.iter().any(|&x| x < -EPS) {
                    continue;
                }
                let here = node_of(mix(lp, a, b, c), &mut points);
                for (di, dj) in steps {
                    let q = plane(i + di, j + dj);
                    let lq = barycentric(q, corners[0], corners[1], corners[2]);
                    let there = if lq.iter().all(|&x| x >= -EPS) {
                        mix(lq, a, b, c)
                    } else {
                        // Outside exactly one side: unfold the neighbouring face over that side.
                        let outside: Vec<usize> = (0..3).filter(|&s| lq[s] < -EPS).collect();
                        if outside.len() != 1 {
                            continue; // behind a corner: that edge is found from another face
                        }
                        let s = outside[0];
                        let (s1, s2) = ((s + 1) % 3, (s + 2) % 3);
                        let Some(&far) = across.get(&(f[s2], f[s1])) else {
                            continue;
                        };
                        let unfolded = [
                            corners[s1][0] + corners[s2][0] - corners[s][0],
                            corners[s1][1] + corners[s2][1] - corners[s][1],
                        ];
                        let l = barycentric(q, corners[s1], corners[s2], unfolded);
                        if l.iter().any(|&x| x < -EPS) {
                            continue;
                        }
                        mix(l, verts[f[s1]], verts[f[s2]], verts[far])
                    };
                    let there = node_of(there, &mut points);
                    if there != here {
                        edges.insert((here.min(there), here.max(there)));
                    }
                }
            }
        }
    }
    (points, edges)
}

/// Projects the cells onto a sphere sized so that neighbouring cells are about one unit apart,
/// numbered from the north pole down, so that labels read in a predictable order.
fn on_sphere(
    points: &[V3],
    edges: HashSet<(NodeId, NodeId)>,
    name: String,
    spec: &str,
) -> Result<Map, MapError> {
    let count = points.len();
    let radius = (count as f64 * 0.866 / (4.0 * std::f64::consts::PI)).sqrt();
    let sphere: Vec<V3> = points
        .iter()
        .map(|p| {
            let l = norm(*p);
            [p[0] / l * radius, p[1] / l * radius, p[2] / l * radius]
        })
        .collect();
    let mut order: Vec<usize> = (0..count).collect();
    order.sort_by(|&x, &y| {
        let (p, q) = (sphere[x], sphere[y]);
        let (kp, kq) = ((-p[2] * 1e6).round() as i64, (-q[2] * 1e6).round() as i64);
        kp.cmp(&kq).then(p[1].atan2(p[0]).total_cmp(&q[1].atan2(q[0])))
    });
    let mut renumber = vec![0 as NodeId; count];
    let mut builder = MapBuilder::new(name, spec);
    builder.dimension = 3;
    for (new, &old) in order.iter().enumerate() {
        renumber[old] = new as NodeId;
        builder.add_node(sphere[old], (new + 1).to_string());
    }
    let mut edges: Vec<_> = edges
        .into_iter()
        .map(|(x, y)| {
            let (x, y) = (renumber[x as usize], renumber[y as usize]);
            (x.min(y), x.max(y))
        })
        .collect();
    edges.sort_unstable();
    for (x, y) in edges {
        builder.add_edge(x, y);
    }
    builder.build()
}
