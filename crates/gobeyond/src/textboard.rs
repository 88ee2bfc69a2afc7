//! Boards as text for terminals and GTP `showboard`: a grid with coordinates on rectangular maps,
//! staggered rows on hexagonal and triangular lattices, a list of nodes elsewhere. Each rule
//! system chooses the character of each node; `>` marks the last move.

use std::{collections::BTreeMap, fmt::Write};

use gobeyond_maps::{Map, NodeId, generators::grid::column_name};
use gobeyond_rules::Board;

/// A Go board of `players`: stone symbols, `>` before the last move.
pub fn render(board: &Board, players: usize, last: Option<NodeId>) -> String {
    let cell = |n: NodeId| board.stone_at(n).map_or('.', |p| p.symbol(players));
    let legend: Vec<(char, String)> = (0..players as u8)
        .map(gobeyond_rules::Player)
        .map(|p| (p.symbol(players), p.color_name(players).to_string()))
        .collect();
    render_cells(board.map(), &cell, last, &legend)
}

/// Any board: `cell` gives each node's character ('.' and ' ' are not listed on maps drawn as
/// lists), `mark` the node to flag, `legend` what the listed characters mean.
pub fn render_cells(
    map: &Map,
    cell: &dyn Fn(NodeId) -> char,
    mark: Option<NodeId>,
    legend: &[(char, String)],
) -> String {
    let mut out = String::new();
    let flag = |n: NodeId| if Some(n) == mark { '>' } else { ' ' };
    if let Some(g) = map.grid() {
        let header: String = (0..g.width).map(|x| format!("{:>3}", column_name(x))).collect();
        let _ = writeln!(out, "    {header}");
        for y in 0..g.height {
            let row: String = (0..g.width)
                .map(|x| {
                    let n = map.grid_node(x, y).unwrap_or(0);
                    format!(" {}{}", flag(n), cell(n))
                })
                .collect();
            let _ = writeln!(out, "{:>3} {row}  {}", g.height - y, g.height - y);
        }
        let _ = writeln!(out, "    {header}");
    } else if let Some(rows) = staggered_rows(map) {
        for (label, cells) in rows {
            let mut line = vec![' '; cells.iter().map(|c| c.0).max().unwrap_or(0) + 1];
            for &(col, n) in &cells {
                line[col] = cell(n);
                if col > 0 && Some(n) == mark {
                    line[col - 1] = '>';
                }
            }
            let _ = writeln!(out, "{label:>4}  {}", line.into_iter().collect::<String>().trim_end());
        }
        let _ = writeln!(
            out,
            "(rows are lettered from the top; nodes are numbered from the left: C4 is row C, 4th node)"
        );
    } else {
        let mut by_char: BTreeMap<char, Vec<&str>> = BTreeMap::new();
        for n in map.nodes() {
            by_char.entry(cell(n)).or_default().push(map.label(n));
        }
        for (c, meaning) in legend {
            if let Some(nodes) = by_char.get(c) {
                let _ = writeln!(out, "{c} ({meaning}): {}", nodes.join(" "));
            }
        }
        let empty = by_char.get(&'.').map_or(0, Vec::len);
        let _ = writeln!(out, "{empty} of {} nodes empty and unclaimed", map.len());
        if let Some(m) = mark {
            let _ = writeln!(out, "last move: {}", map.label(m));
        }
    }
    out
}

/// A row name and the `(column, node)` cells of that row.
type Row = (String, Vec<(usize, NodeId)>);

/// Rows for flat maps whose nodes sit on a half-unit lattice (hex, tri).
fn staggered_rows(map: &Map) -> Option<Vec<Row>> {
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
