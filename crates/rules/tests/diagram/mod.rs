//! Positions from text diagrams, shared by the rule tests: `X` seat 0, `O` seat 1, `A`..`H` seats
//! 0..7 in many-player diagrams, `.` empty; the top line is the top row (with GTP labels the
//! bottom line is row 1).

use std::sync::Arc;

use gobeyond_maps::{Map, NodeId, generate};
use gobeyond_rules::Player;

/// The rectangular map of the diagram and its stones.
pub fn parse(diagram: &str) -> (Arc<Map>, Vec<(NodeId, Player)>) {
    let rows: Vec<&str> = diagram.lines().map(str::trim).filter(|l| !l.is_empty()).collect();
    let (w, h) = (rows[0].len(), rows.len());
    let map = Arc::new(generate(&format!("rect:{w}x{h}")).expect("a diagram is a rectangle"));
    let mut setup = Vec::new();
    for (y, row) in rows.iter().enumerate() {
        for (x, c) in row.chars().enumerate() {
            let p = match c {
                'X' => 0,
                'O' => 1,
                'A'..='H' => c as u8 - b'A',
                _ => continue,
            };
            setup.push((map.grid_node(x as u32, y as u32).expect("inside the rectangle"), Player(p)));
        }
    }
    (map, setup)
}
