//! GoBeyond in the terminal: PlayPoints, claimed, disputed and reserved nodes, the per-turn
//! clock (time out: Skip), and Clean-Up.

use gobeyond_maps::NodeId;
use gobeyond_rules::{
    Game, GoBeyondGame, Player,
    gobeyond::{Action, Event, Move, Phase},
};

use crate::{
    terminal::{Terminal, Typed},
    textboard,
};

const HELP: &str = "Type a node label to occupy it (costs PlayPoints), or: pass (wish to end), skip, \
resign, undo, board, save [FILE], help, quit.";

impl Terminal for GoBeyondGame {
    fn help(&self) -> &'static str {
        HELP
    }

    fn intro(&self) -> String {
        format!("GoBeyond on {} — {} players.", self.map().name(), self.player_count())
    }

    fn show(&self) -> String {
        let mut text = render(self);
        if self.phase() == Phase::Playing {
            text.push_str(&status(self));
            text.push('\n');
        }
        text
    }

    fn describe(&self, event: &Event) -> Option<String> {
        Some(event.describe(self.map(), self.player_count()))
    }

    fn prompt(&self, seat: Player, clock: &str) -> String {
        let n = self.player_count();
        if self.phase() == Phase::CleanUp {
            return format!(
                "Clean-Up, {}: list the stones you surrender (labels), 'suggest', or an empty line for none{clock}> ",
                seat.color_name(n)
            );
        }
        format!(
            "Turn {}: {} ({}), {} PP{clock}> ",
            self.turn(),
            seat.color_name(n),
            seat.symbol(n),
            self.points(seat)
        )
    }

    fn read(&self, seat: Player, line: &str) -> Typed<Move> {
        let map = self.map();
        let words: Vec<&str> = line.split_whitespace().collect();
        let first = words.first().map(|w| w.to_ascii_lowercase());
        if self.phase() == Phase::CleanUp {
            if first.as_deref() == Some("suggest") {
                let s: Vec<&str> = self.suggest_surrender(seat).iter().map(|&v| map.label(v)).collect();
                return Typed::Say(if s.is_empty() {
                    "No stone of yours looks doomed (none is in atari).".into()
                } else {
                    format!("In atari, so probably doomed: {}", s.join(" "))
                });
            }
            let nodes: Result<Vec<NodeId>, &str> =
                words.iter().map(|w| map.node_by_label(w).ok_or(*w)).collect();
            return match nodes {
                Ok(nodes) => Typed::Input(Move::surrender(map, &nodes)),
                Err(w) => Typed::Say(format!("There is no node {w:?} on this map.")),
            };
        }
        let Some(word) = first else { return Typed::Nothing };
        let action = match word.as_str() {
            "pass" => Action::Pass,
            "skip" => Action::Skip,
            "resign" => Action::Resign,
            _ => match map.node_by_label(words[0]) {
                Some(n) => Action::Occupy(n),
                None => return Typed::Say(format!("There is no node {:?} on this map. {HELP}", words[0])),
            },
        };
        Typed::Input(Move::action(map, action))
    }

    fn final_line(&self, place: usize, p: Player) -> String {
        let note = if self.is_resigned(p) { " (resigned)" } else { "" };
        format!("{place}. {} — {} PP{note}", p.color_name(self.player_count()), self.points(p))
    }
}

/// The board: stones in capitals, claimed nodes in the claimant's lowercase letter, `#` for a
/// reserved node, `.` for disputed ones, `>` before the last stone placed.
fn render(game: &GoBeyondGame) -> String {
    let n = game.player_count();
    let board = game.board();
    let cell = |v: NodeId| match (board.stone_at(v), game.reserved_by(v), game.claimant(v)) {
        (Some(p), _, _) => p.symbol(n),
        (None, Some(_), _) => '#',
        (None, None, Some(p)) => p.symbol(n).to_ascii_lowercase(),
        (None, None, None) => '.',
    };
    let last = game.events().iter().rev().find_map(|e| match e {
        gobeyond_rules::gobeyond::Event::Occupied { node, .. } => Some(*node),
        _ => None,
    });
    let mut legend: Vec<(char, String)> = Vec::new();
    for p in (0..n as u8).map(Player) {
        legend.push((p.symbol(n), format!("{} stones", p.color_name(n))));
        legend.push((p.symbol(n).to_ascii_lowercase(), format!("claimed by {}", p.color_name(n))));
    }
    legend.push(('#', "reserved".into()));
    let mut text =
        textboard::render_cells(game.map(), &cell, last.filter(|&v| board.stone_at(v).is_some()), &legend);
    let marks: Vec<String> = (0..n as u8)
        .map(Player)
        .map(|p| format!("{}/{} {}", p.symbol(n), p.symbol(n).to_ascii_lowercase(), p.color_name(n)))
        .collect();
    text.push_str(&format!("Stones/claims: {}; # reserved; . disputed\n", marks.join(", ")));
    text
}

fn status(game: &GoBeyondGame) -> String {
    let n = game.player_count();
    let players: Vec<String> = (0..n as u8)
        .map(Player)
        .map(|p| {
            let mut s = format!("{} {} PP", p.color_name(n), game.points(p));
            if game.is_resigned(p) {
                s.push_str(" (resigned)");
            } else {
                s.push_str(&format!(", claims {}", game.claimed_count(p)));
            }
            if let Some(r) = game.reservation(p) {
                s.push_str(&format!(", reserves {}", game.map().label(r)));
            }
            s
        })
        .collect();
    format!(
        "{}. Passes in a row: {} of {}.",
        players.join(" · "),
        game.consecutive_passes(),
        game.passes_to_end()
    )
}
