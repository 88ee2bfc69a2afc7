//! The surface of a cube ("sugar cube"): six `n × n` faces of square cells stitched at their
//! edges. Every cell has 4 neighbours; at a cube corner the three corner cells touch each other.
//!
//! Cells are found by integer arithmetic on doubled coordinates: a cell of the face with outward
//! normal `±axis` has that coordinate `±n` and odd coordinates in `-(n-1)..=(n-1)` on the other two
//! axes. Line directions are the six axis directions 0 = +x, 1 = −x, 2 = +y, 3 = −y, 4 = +z,
//! 5 = −z; a line crossing a cube edge turns (e.g. from +y to −x).

use std::collections::HashMap;

use super::grid::column_name;
use crate::{Lines, Map, MapBuilder, MapError, NodeId};

const FACE_NAMES: [[&str; 2]; 3] = [["R", "L"], ["B", "F"], ["U", "D"]];

fn unit(axis: usize, sign: i32) -> [i32; 3] {
    let mut v = [0; 3];
    v[axis] = sign;
    v
}

fn add(a: [i32; 3], b: [i32; 3], k: i32) -> [i32; 3] {
    [a[0] + k * b[0], a[1] + k * b[1], a[2] + k * b[2]]
}

/// Cube surface with faces of `n × n` cells (6n² nodes).
pub fn cube(n: u32, spec: &str) -> Result<Map, MapError> {
    let n = n as i32;
    let mut b = MapBuilder::new(format!("Sugar cube, {n}×{n} faces"), spec);
    b.dimension = 3;
    let mut cells: Vec<([i32; 3], usize, i32)> = Vec::new();
    for axis in 0..3 {
        for (si, sign) in [1, -1].into_iter().enumerate() {
            let (u, v) = ((axis + 1) % 3, (axis + 2) % 3);
            for j in 0..n {
                for i in 0..n {
                    let mut p = [0; 3];
                    p[axis] = sign * n;
                    p[u] = 2 * i - (n - 1);
                    p[v] = 2 * j - (n - 1);
                    let label = format!("{}-{}{}", FACE_NAMES[axis][si], column_name(i as u32), j + 1);
                    b.add_node([p[0] as f64 / 2.0, p[1] as f64 / 2.0, p[2] as f64 / 2.0], label);
                    cells.push((p, axis, sign));
                }
            }
        }
    }
    let index: HashMap<[i32; 3], NodeId> =
        cells.iter().enumerate().map(|(i, c)| (c.0, i as NodeId)).collect();
    let mut lines = Lines::new(cells.len(), 6);
    for (i, &(p, axis, sign)) in cells.iter().enumerate() {
        for dir_axis in 0..3 {
            if dir_axis == axis {
                continue;
            }
            for dir_sign in [1, -1] {
                let dir = (dir_axis * 2 + usize::from(dir_sign < 0)) as u8;
                let within = add(p, unit(dir_axis, dir_sign), 2);
                let (to, to_dir) = if let Some(&j) = index.get(&within) {
                    (j, dir)
                } else {
                    // Over the edge: onto the face whose normal is the direction of travel,
                    // then onwards away from the face we left.
                    let over = add(add(p, unit(dir_axis, dir_sign), 1), unit(axis, -sign), 1);
                    let turned = (axis * 2 + usize::from(sign > 0)) as u8;
                    match index.get(&over) {
                        Some(&j) => (j, turned),
                        None => continue,
                    }
                };
                lines.set(i as NodeId, dir, to, to_dir);
                if (i as NodeId) < to {
                    b.add_edge(i as NodeId, to);
                }
            }
        }
    }
    b.lines = Some(lines);
    b.build()
}
