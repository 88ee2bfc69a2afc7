//! GoBeyond rules (`docs/rules/gobeyond.md`), one situation each: the worked examples first (its
//! section "Worked examples"), then the turn phases, end conditions, Clean-Up and ranking.
//! Positions come from diagrams (`X` seat 0, `O` seat 1, `A`..`H` seats 0..7 in many-player
//! diagrams, `.` empty; the top line is the top row, so with GTP labels the bottom line is row 1).
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic on setup failures

#[path = "../diagram/mod.rs"]
mod diagram;

mod ending;
mod three_players;
mod worked_examples;

use std::sync::Arc;

use gobeyond_maps::{NodeId, generate};
use gobeyond_rules::{
    EndReason, Game, Player,
    gobeyond::{Action, Event, GoBeyondGame, GoBeyondRules, GoBeyondState, Illegal, NodeState, Phase},
};

const X: Player = Player(0);
const O: Player = Player(1);
const A: Player = Player(0);
const B: Player = Player(1);
const C: Player = Player(2);

fn from_diagram(diagram: &str, players: usize, rules: GoBeyondRules) -> GoBeyondGame {
    let (map, setup) = diagram::parse(diagram);
    GoBeyondGame::with_setup(map, players, rules, &setup).unwrap()
}

fn at(game: &GoBeyondGame, label: &str) -> NodeId {
    game.map().node_by_label(label).unwrap()
}

fn occupy(game: &mut GoBeyondGame, label: &str) {
    let node = at(game, label);
    game.play(Action::Occupy(node)).unwrap_or_else(|e| panic!("{label}: {e}"));
}

/// The events since index `from`.
fn since(game: &GoBeyondGame, from: usize) -> &[Event] {
    &game.events()[from..]
}
