//! Seeded random planar meshes: points jittered around a square lattice, joined by the Gabriel
//! graph (two points are adjacent when no third point lies in the circle whose diameter they
//! span). The Gabriel graph is planar and connected and has about four neighbours per node, which
//! plays much like Go.

use crate::{Map, MapBuilder, MapError, NodeId};

/// SplitMix64: tiny, seedable and stable across library versions, so a seed always gives the
/// same map.
pub(crate) struct SplitMix(pub u64);

impl SplitMix {
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    /// Uniform in [0, 1).
    pub fn next_f64(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }
}

pub fn random(nodes: u32, seed: u64, spec: &str) -> Result<Map, MapError> {
    let n = nodes as usize;
    let side = (n as f64).sqrt().ceil().max(1.0) as usize;
    let mut rng = SplitMix(seed);
    let mut pts: Vec<[f64; 2]> = Vec::with_capacity(n);
    for i in 0..n {
        let (cx, cy) = ((i % side) as f64, (i / side) as f64);
        pts.push([cx + 0.8 * (rng.next_f64() - 0.5), cy + 0.8 * (rng.next_f64() - 0.5)]);
    }
    // Gabriel edges of a jittered lattice are short: look at cells within a few steps only.
    let rows = n.div_ceil(side);
    let cell_of = |i: usize| (i % side, i / side);
    let at = |x: isize, y: isize| -> Option<usize> {
        if x < 0 || y < 0 || x as usize >= side || y as usize >= rows {
            return None;
        }
        let i = y as usize * side + x as usize;
        (i < n).then_some(i)
    };
    const REACH: isize = 3;
    let mut b = MapBuilder::new(format!("Random mesh, {n} nodes, seed {seed}"), spec);
    for (i, p) in pts.iter().enumerate() {
        b.add_node([p[0], p[1], 0.0], (i + 1).to_string());
    }
    for i in 0..n {
        let (x, y) = cell_of(i);
        for dy in -REACH..=REACH {
            for dx in -REACH..=REACH {
                let Some(j) = at(x as isize + dx, y as isize + dy) else {
                    continue;
                };
                if j <= i {
                    continue;
                }
                let (p, q) = (pts[i], pts[j]);
                let blocked = (-REACH - 1..=REACH + 1).any(|ey| {
                    (-REACH - 1..=REACH + 1).any(|ex| {
                        let Some(k) = at(x as isize + ex, y as isize + ey) else {
                            return false;
                        };
                        if k == i || k == j {
                            return false;
                        }
                        let r = pts[k];
                        // Inside the circle on diameter pq exactly when the angle p-r-q is obtuse.
                        (p[0] - r[0]) * (q[0] - r[0]) + (p[1] - r[1]) * (q[1] - r[1]) < 0.0
                    })
                });
                if !blocked {
                    b.add_edge(i as NodeId, j as NodeId);
                }
            }
        }
    }
    b.build()
}
