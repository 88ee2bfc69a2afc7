//! The Way of Go and BeSiege (`docs/rules/spec/way-of-go.md` and `docs/rules/spec/besiege.md`,
//! whose rule and reading numbers the comments cite), one situation each: exact range, jumping, the
//! board's edge, a drop shrinking an enemy's range, the sacrifice, the four kinds of turn,
//! contracts reached in one round, the push, the pie, forced passes; BeSiege's neutral drops, the
//! document's stack example (4, 6 and 5), stacks built, split and captured with the difference
//! left, the end with no turn — then random games on four map families whose stones are conserved,
//! whose refusals change nothing and whose records replay.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod besiege;
mod moves_and_turns;
mod random_games;

use std::sync::Arc;

use gobeyond_maps::{Map, NodeId, generate};
use gobeyond_rules::{
    AnyGame, EndReason, Game, Player, Rng, RuleSystem,
    record::{MapSource, PlayerInfo, Record},
    way_of_go::{
        Action, BesiegeGame, BesiegeRules, Colour, Event, Illegal, Landing, Variant, WayGame, WayOfGoGame,
        WayOfGoRules,
    },
};

const BLACK: Colour = Colour::Black;
const WHITE: Colour = Colour::White;

fn map(spec: &str) -> Arc<Map> {
    Arc::new(generate(spec).unwrap())
}

fn node(map: &Map, label: &str) -> NodeId {
    map.node_by_label(label).unwrap_or_else(|| panic!("no {label} on {}", map.spec()))
}

/// A position on `spec`: stacks by label (`("E5", BLACK, 1)`), `to_move` to start a turn.
fn position<V: Variant>(
    spec: &str,
    rules: V::Settings,
    stacks: &[(&str, Colour, u8)],
    to_move: Colour,
) -> WayGame<V> {
    let m = map(spec);
    let stacks: Vec<_> = stacks.iter().map(|&(l, c, h)| (node(&m, l), c, h)).collect();
    WayGame::<V>::from_position(m, rules, &stacks, to_move).unwrap()
}

fn way(spec: &str, stacks: &[(&str, Colour, u8)], to_move: Colour) -> WayOfGoGame {
    position(spec, WayOfGoRules::default(), stacks, to_move)
}

fn besiege(spec: &str, stacks: &[(&str, Colour, u8)], to_move: Colour) -> BesiegeGame {
    position(spec, BesiegeRules::default(), stacks, to_move)
}

/// A position from a diagram (the top line is the top row, GTP labels): `X` a Black stone,
/// `O` a White one, `2`–`9` a Black stack of that height, `.` empty; `+` marks an empty node
/// the test expects something of (returned, sorted).
fn diagram<V: Variant>(rows: &[&str], rules: V::Settings, to_move: Colour) -> (WayGame<V>, Vec<String>) {
    let rows: Vec<Vec<char>> =
        rows.iter().map(|r| r.chars().filter(|c| !c.is_whitespace()).collect()).collect();
    let (w, h) = (rows[0].len(), rows.len());
    let m = map(&format!("rect:{w}x{h}"));
    let mut stacks = Vec::new();
    let mut marked = Vec::new();
    for (y, row) in rows.iter().enumerate() {
        for (x, &c) in row.iter().enumerate() {
            let n = m.grid_node(x as u32, y as u32).unwrap();
            match c {
                'X' => stacks.push((n, BLACK, 1)),
                'O' => stacks.push((n, WHITE, 1)),
                '2'..='9' => stacks.push((n, BLACK, c as u8 - b'0')),
                '+' => marked.push(m.label(n).to_string()),
                _ => {}
            }
        }
    }
    marked.sort();
    (WayGame::<V>::from_position(m, rules, &stacks, to_move).unwrap(), marked)
}

/// The destinations (labels, sorted) of the top `count` stones on `from`, any landing.
fn destinations<V: Variant>(g: &WayGame<V>, from: &str, count: u8) -> Vec<String> {
    let m = g.map();
    let mut out = Vec::new();
    g.board().steps(node(m, from), count, |s| out.push(m.label(s.to).to_string()));
    out.sort();
    out
}

fn mv<V: Variant>(g: &WayGame<V>, from: &str, count: u8, to: &str) -> Action {
    let m = g.map();
    let (step, _) = g
        .find_move(node(m, from), count, node(m, to), None)
        .unwrap_or_else(|e| panic!("{from}-{to}: {}", e.describe(m)));
    Action::Move { from: step.from, count, dir: step.dir, to: step.to }
}

fn drop_at<V: Variant>(g: &WayGame<V>, label: &str) -> Action {
    Action::Drop(node(g.map(), label))
}

fn stack<V: Variant>(g: &WayGame<V>, label: &str) -> (Option<Colour>, u8) {
    let n = node(g.map(), label);
    (g.board().colour(n), g.board().height(n))
}
