//! Six-neighbour lattices and the honeycomb:
//! - `hex`: a hexagonal board of hexagonal cells (each cell touches 6 others),
//! - `tri`: a triangle of the triangular lattice (the same 6-neighbour lattice, cut as a triangle),
//! - `honeycomb`: the vertices of the hexagonal tiling (3 neighbours each).
//!
//! Axial line directions on `hex` and `tri`: 0 = +q, 1 = −q, 2 = +r, 3 = −r, 4 = (+q, −r),
//! 5 = (−q, +r); opposite directions are pairs (0, 1), (2, 3), (4, 5).

use std::collections::{HashMap, HashSet};

use super::grid::column_name;
use crate::{Lines, Map, MapBuilder, MapError, NodeId};

const AXIAL: [(i32, i32); 6] = [(1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1)];
const SQRT3_2: f64 = 0.866_025_403_784_438_6;

/// Cell centre of axial `(q, r)`, with neighbouring centres 1 apart (pointy-top layout).
fn axial_point(q: i32, r: i32) -> [f64; 2] {
    (q as f64 + r as f64 / 2.0, r as f64 * SQRT3_2).into()
}

/// Builds the lattice on the given cells (axial coordinates), labelled row by row from the top:
/// row letter, then the position in the row (`A1`, `A2`, ...).
fn lattice(name: &str, spec: &str, cells: Vec<(i32, i32)>) -> Result<Map, MapError> {
    let mut b = MapBuilder::new(name, spec);
    let index: HashMap<(i32, i32), NodeId> =
        cells.iter().enumerate().map(|(i, &c)| (c, i as NodeId)).collect();
    let mut row_start = 0;
    for (i, &(q, r)) in cells.iter().enumerate() {
        if i > 0 && cells[i - 1].1 != r {
            row_start = i;
        }
        let row = (r - cells[0].1) as u32;
        let p = axial_point(q, r);
        b.add_node([p[0], p[1], 0.0], format!("{}{}", column_name(row), i - row_start + 1));
    }
    let mut lines = Lines::new(cells.len(), 6);
    for (i, &(q, r)) in cells.iter().enumerate() {
        for (d, (dq, dr)) in AXIAL.iter().enumerate() {
            if let Some(&j) = index.get(&(q + dq, r + dr)) {
                lines.set(i as NodeId, d as u8, j, d as u8);
                // Each edge once: from the cell with the smaller index.
                if (i as NodeId) < j {
                    b.add_edge(i as NodeId, j);
                }
            }
        }
    }
    b.lines = Some(lines);
    b.build()
}

/// Hexagonal board of side `n` (3n(n−1)+1 cells).
pub fn hex(n: u32, spec: &str) -> Result<Map, MapError> {
    let k = n as i32 - 1;
    let mut cells = Vec::new();
    for r in -k..=k {
        for q in -k..=k {
            if (q + r).abs() <= k {
                cells.push((q, r));
            }
        }
    }
    lattice(&format!("Hex board, side {n}"), spec, cells)
}

/// Triangle of side `n` of the triangular lattice (n(n+1)/2 nodes), apex at the top.
pub fn tri(n: u32, spec: &str) -> Result<Map, MapError> {
    let n = n as i32;
    let mut cells = Vec::new();
    for r in 0..n {
        // Row r has r+1 points; shifting q keeps the triangle symmetric in the drawing.
        for q in 0..=r {
            cells.push((q - r, r));
        }
    }
    lattice(&format!("Triangular lattice, side {n}"), spec, cells)
}

/// Honeycomb: the corners of the cells of a hexagonal board of side `n` (6n² nodes).
pub fn honeycomb(n: u32, spec: &str) -> Result<Map, MapError> {
    let k = n as i32 - 1;
    let radius = 1.0 / 3f64.sqrt();
    let mut b = MapBuilder::new(format!("Honeycomb, side {n}"), spec);
    let mut index: HashMap<(i64, i64), NodeId> = HashMap::new();
    let mut edges = HashSet::new();
    // Quantised coordinates identify the corner shared by up to three cells.
    let key = |p: [f64; 2]| ((p[0] * 1e4).round() as i64, (p[1] * 1e4).round() as i64);
    let mut corner_points = Vec::new();
    for r in -k..=k {
        for q in -k..=k {
            if (q + r).abs() > k {
                continue;
            }
            let c = axial_point(q, r);
            let mut ids = [0 as NodeId; 6];
            for (i, id) in ids.iter_mut().enumerate() {
                let a = std::f64::consts::PI / 6.0 + i as f64 * std::f64::consts::PI / 3.0;
                let p = [c[0] + radius * a.cos(), c[1] + radius * a.sin()];
                *id = *index.entry(key(p)).or_insert_with(|| {
                    corner_points.push(p);
                    (corner_points.len() - 1) as NodeId
                });
            }
            for i in 0..6 {
                let (a, z) = (ids[i], ids[(i + 1) % 6]);
                edges.insert((a.min(z), a.max(z)));
            }
        }
    }
    // Number nodes top to bottom, left to right, so labels read like a page.
    let mut order: Vec<NodeId> = (0..corner_points.len() as NodeId).collect();
    order.sort_by(|&a, &z| {
        let (pa, pz) = (corner_points[a as usize], corner_points[z as usize]);
        key(pa).1.cmp(&key(pz).1).then(key(pa).0.cmp(&key(pz).0))
    });
    let mut renumber = vec![0 as NodeId; order.len()];
    for (new, &old) in order.iter().enumerate() {
        renumber[old as usize] = new as NodeId;
        let p = corner_points[old as usize];
        b.add_node([p[0], p[1], 0.0], (new + 1).to_string());
    }
    let mut edges: Vec<_> =
        edges.into_iter().map(|(a, z)| (renumber[a as usize], renumber[z as usize])).collect();
    edges.sort_unstable();
    for (a, z) in edges {
        b.add_edge(a, z);
    }
    b.build()
}
