//! N-dimensional grids (3-D boxes, 4-D hypercubes, ...), with or without wrapping.
//!
//! Node index is mixed-radix with the first dimension fastest. Line directions: `2k` = +axis k,
//! `2k + 1` = −axis k. Labels are 1-based coordinates joined by dots (`1.2.3`). Wrapping glues the
//! two ends of every axis of length 3 or more (on a length-2 axis both ends are already adjacent).

use crate::{Lines, Map, MapBuilder, MapError, NodeId};

pub fn ndgrid(dims: &[u32], wrap: bool, spec: &str) -> Result<Map, MapError> {
    let total: usize = dims.iter().map(|&d| d as usize).product();
    let name = format!(
        "{}-D grid {}{}",
        dims.len(),
        dims.iter().map(u32::to_string).collect::<Vec<_>>().join("×"),
        if wrap { ", wrapped" } else { "" }
    );
    let mut b = MapBuilder::new(name, spec);
    b.dimension = if dims.len() >= 3 { 3 } else { 2 };
    let mut stride = vec![1usize; dims.len()];
    for k in 1..dims.len() {
        stride[k] = stride[k - 1] * dims[k - 1] as usize;
    }
    let mut coord = vec![0u32; dims.len()];
    let width = dims.first().copied().unwrap_or(1) as f64;
    for i in 0..total {
        let mut rest = i;
        for k in 0..dims.len() {
            coord[k] = (rest % dims[k] as usize) as u32;
            rest /= dims[k] as usize;
        }
        // Axes beyond the third are drawn as copies of the 3-D box side by side along x.
        let extra: usize =
            (3..dims.len()).map(|k| coord[k] as usize * stride[k] / stride[3.min(dims.len() - 1)]).sum();
        let at = |k: usize| coord.get(k).copied().unwrap_or(0) as f64;
        let p = [at(0) + extra as f64 * (width + 1.0), at(1), at(2)];
        let label = coord.iter().map(|c| (c + 1).to_string()).collect::<Vec<_>>().join(".");
        b.add_node(p, label);
    }
    let mut lines = Lines::new(total, (dims.len() * 2) as u8);
    for i in 0..total {
        for k in 0..dims.len() {
            let c = (i / stride[k]) % dims[k] as usize;
            let size = dims[k] as usize;
            let forward = if c + 1 < size {
                Some(i + stride[k])
            } else if wrap && size >= 3 {
                Some(i - c * stride[k])
            } else {
                None
            };
            if let Some(j) = forward {
                b.add_edge(i as NodeId, j as NodeId);
                lines.set(i as NodeId, (2 * k) as u8, j as NodeId, (2 * k) as u8);
                lines.set(j as NodeId, (2 * k + 1) as u8, i as NodeId, (2 * k + 1) as u8);
            }
        }
    }
    b.lines = Some(lines);
    b.build()
}
