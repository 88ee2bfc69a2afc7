//! Boards as text for terminals and GTP `showboard`: a grid with coordinates on rectangular maps,
//! staggered rows on hexagonal and triangular lattices, a list of stones elsewhere.

use std::{collections::BTreeMap, fmt::Write};

use gobeyond_maps::{NodeId, generators::grid::column_name};
use gobeyond_rules::{ClassicGame, Game, Player};

fn symbol(game: &ClassicGame, n: NodeId, last: Option<NodeId>) -> char {
    let players = game.player_count();
    match game.board().stone_at(n) {
        Some(p) if Some(n) == last => p.symbol(players).to_ascii_lowercase(),
        Some(p) => p.symbol(players),
        None => '.',
    }
}

pub fn render(game: &ClassicGame, last: Option<NodeId>) -> String {
    let map = game.map();
    let mut out = String::new();
    if let Some(g) = map.grid() {
        let header: String = (0..g.width).map(|x| format!("{:>3}", column_name(x))).collect();
        let _ = writeln!(out, "    {header}");
        for y in 0..g.height {
            let row: String = (0..g.width)
                .map(|x| format!("  {}", symbol(game, map.grid_node(x, y).unwrap_or(0), last)))
                .collect();
            let _ = writeln!(out, "{:>3} {row}  {}", g.height - y, g.height - y);
        }
        let _ = writeln!(out, "    {header}");
    } else if let Some(rows) = staggered_rows(game) {
        for (label, cells) in rows {
            let mut line = vec![' '; cells.iter().map(|c| c.0).max().unwrap_or(0) + 1];
            for &(col, n) in &cells {
                line[col] = symbol(game, n, last);
            }
            let _ = writeln!(out, "{label:>4}  {}", line.into_iter().collect::<String>().trim_end());
        }
        let _ = writeln!(
            out,
            "(rows are lettered from the top; nodes are numbered from the left: C4 is row C, 4th node)"
        );
    } else {
        let players = game.player_count();
        for p in 0..players as u8 {
            let stones: Vec<&str> = map
                .nodes()
                .filter(|&n| game.board().stone_at(n) == Some(Player(p)))
                .map(|n| map.label(n))
                .collect();
            let _ = writeln!(
                out,
                "{} ({}): {}",
                Player(p).symbol(players),
                Player(p).color_name(players),
                stones.join(" ")
            );
        }
        let _ = writeln!(out, "{} of {} nodes empty", game.board().empties().len(), map.len());
    }
    out
}

/// A row name and the `(column, node)` cells of that row.
type Row = (String, Vec<(usize, NodeId)>);

/// Rows for flat maps whose nodes sit on a half-unit lattice (hex, tri).
fn staggered_rows(game: &ClassicGame) -> Option<Vec<Row>> {
    let map = game.map();
    if map.dimension() != 2 || map.len() > 2000 || map.lines().is_none_or(|l| l.directions() != 6) {
        return None;
    }
    let min_x = map.coords().iter().map(|c| c[0]).fold(f64::MAX, f64::min);
    let mut rows: BTreeMap<i64, Vec<(usize, NodeId)>> = BTreeMap::new();
    for n in map.nodes() {
        let c = map.coord(n);
        let col = ((c[0] - min_x) * 2.0).round() as usize * 2;
        rows.entry((c[1] * 1000.0).round() as i64).or_default().push((col, n));
    }
    Some(
        rows.into_values()
            .map(|cells| {
                let label = map.label(cells[0].1);
                let row_name: String = label.chars().take_while(|c| c.is_ascii_alphabetic()).collect();
                (row_name, cells)
            })
            .collect(),
    )
}
