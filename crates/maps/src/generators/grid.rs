//! Rectangular grids and their wrapped relatives: square, rect, torus, cylinder, Klein bottle,
//! and "wavy" boards (plain grid topology with displaced drawing coordinates).
//!
//! Line directions: 0 = +x (right), 1 = −x (left), 2 = +y (down), 3 = −y (up).

use std::f64::consts::TAU;

use crate::{Grid, Lines, Map, MapBuilder, MapError, NodeId};

/// GTP column letters: `I` is skipped, as on real boards.
const GTP_LETTERS: &[u8] = b"ABCDEFGHJKLMNOPQRSTUVWXYZ";

/// The column name of column `x` (0-based): `A`..`Z` without `I`, then `AA`, `AB`, ... .
pub fn column_name(x: u32) -> String {
    let base = GTP_LETTERS.len() as u32;
    let mut x = x;
    let mut out = Vec::new();
    loop {
        out.push(GTP_LETTERS[(x % base) as usize]);
        if x < base {
            break;
        }
        x = x / base - 1;
    }
    out.reverse();
    String::from_utf8_lossy(&out).into_owned()
}

/// The column number of a column name, the inverse of [`column_name`].
pub fn parse_column(name: &str) -> Option<u32> {
    let mut value: u64 = 0;
    if name.is_empty() {
        return None;
    }
    for (i, c) in name.bytes().enumerate() {
        let d = GTP_LETTERS.iter().position(|&l| l == c.to_ascii_uppercase())? as u64;
        value = if i == 0 { d } else { (value + 1) * GTP_LETTERS.len() as u64 + d };
        if value > u32::MAX as u64 {
            return None;
        }
    }
    Some(value as u32)
}

/// GTP-style label: column letters, then the row counted from the bottom (`A1` is bottom left).
pub fn grid_label(x: u32, y: u32, height: u32) -> String {
    format!("{}{}", column_name(x), height - y)
}

/// How the edges of the rectangle are glued.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Wrap {
    None,
    /// Left and right edges glued (a cylinder).
    X,
    /// Both pairs glued (a torus).
    Both,
    /// Left/right glued with a flip, top/bottom glued plainly (a Klein bottle).
    Klein,
}

/// Drawing style for the grid's coordinates.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Drawing {
    Flat,
    /// Displace points by `amplitude` cells along sine waves.
    Wavy {
        amplitude: f64,
    },
    /// Wrap the drawing in space to show the gluing (torus, cylinder).
    Space,
}

/// Builds a `width × height` grid glued by `wrap`.
pub fn build(
    name: &str,
    spec: &str,
    width: u32,
    height: u32,
    wrap: Wrap,
    drawing: Drawing,
) -> Result<Map, MapError> {
    let n = (width * height) as usize;
    let mut b = MapBuilder::new(name, spec);
    b.grid = Some(Grid { width, height, plain: wrap == Wrap::None });
    let wraps_x = wrap != Wrap::None;
    let wraps_y = matches!(wrap, Wrap::Both | Wrap::Klein);
    for y in 0..height {
        for x in 0..width {
            b.add_node(coordinate(x, y, width, height, wrap, drawing), grid_label(x, y, height));
        }
    }
    if drawing == Drawing::Space {
        b.dimension = 3;
    }
    let id = |x: u32, y: u32| -> NodeId { y * width + x };
    let mut lines = Lines::new(n, 4);
    for y in 0..height {
        for x in 0..width {
            let here = id(x, y);
            // Right neighbour, and the mirrored step back to the left.
            if x + 1 < width {
                b.add_edge(here, id(x + 1, y));
                lines.set(here, 0, id(x + 1, y), 0);
                lines.set(id(x + 1, y), 1, here, 1);
            } else if wraps_x {
                // The Klein seam glues row y to row h-1-y; a horizontal line keeps going right.
                let ty = if wrap == Wrap::Klein { height - 1 - y } else { y };
                let there = id(0, ty);
                b.add_edge(here, there);
                lines.set(here, 0, there, 0);
                lines.set(there, 1, here, 1);
            }
            if y + 1 < height {
                b.add_edge(here, id(x, y + 1));
                lines.set(here, 2, id(x, y + 1), 2);
                lines.set(id(x, y + 1), 3, here, 3);
            } else if wraps_y {
                let there = id(x, 0);
                b.add_edge(here, there);
                lines.set(here, 2, there, 2);
                lines.set(there, 3, here, 3);
            }
        }
    }
    b.lines = Some(lines);
    b.build()
}

fn coordinate(x: u32, y: u32, w: u32, h: u32, wrap: Wrap, drawing: Drawing) -> [f64; 3] {
    let (fx, fy) = (x as f64, y as f64);
    match drawing {
        Drawing::Flat => [fx, fy, 0.0],
        Drawing::Wavy { amplitude } => {
            // Two perpendicular waves, a period of about 8 cells: the board looks hand-drawn but
            // every cell stays clearly apart from its neighbours when amplitude < 0.5.
            let period = 8.0;
            [fx + amplitude * (TAU * fy / period).sin(), fy + amplitude * (TAU * fx / period).sin(), 0.0]
        }
        Drawing::Space => {
            let u = TAU * fx / w as f64;
            let v = TAU * fy / h as f64;
            match wrap {
                Wrap::X => {
                    let r = w as f64 / TAU;
                    [r * u.cos(), fy, r * u.sin()]
                }
                _ => {
                    // Tube radius from the height, ring radius large enough that the tube never
                    // crosses itself and cells keep a similar size all round.
                    let r = h as f64 / TAU;
                    let big = (w as f64 / TAU).max(2.0 * r);
                    [(big + r * v.cos()) * u.cos(), (big + r * v.cos()) * u.sin(), r * v.sin()]
                }
            }
        }
    }
}
