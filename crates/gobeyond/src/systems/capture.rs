//! Capture Go in the terminal: the board, each player's captures against the target, and every
//! capture said in words.

use gobeyond_rules::{
    CaptureGame, EndReason, Game, Player,
    capture::{Event, Move},
};

use crate::{
    terminal::{Terminal, Typed},
    textboard,
};

const HELP: &str =
    "Type a point's label to play there (e.g. D4), or: pass, resign, undo, board, save [FILE], help, quit.";

impl Terminal for CaptureGame {
    fn help(&self) -> &'static str {
        HELP
    }

    fn intro(&self) -> String {
        let target = self.rules().target;
        let stones = if target == 1 { "a stone".to_string() } else { format!("{target} stones") };
        format!(
            "Capture Go on {} — the first to capture {stones} wins; a stone is captured when its group has no liberty left.",
            self.map().name()
        )
    }

    fn show(&self) -> String {
        let n = self.player_count();
        let board = self.board();
        let last = self.events().iter().rev().find_map(|e| match e {
            Event::Placed { node, .. } => Some(*node),
            _ => None,
        });
        let cell = |v| board.stone_at(v).map_or('.', |p| p.symbol(n));
        let legend: Vec<(char, String)> =
            (0..n as u8).map(Player).map(|p| (p.symbol(n), p.color_name(n).to_string())).collect();
        let captures: Vec<String> =
            (0..n as u8).map(Player).map(|p| format!("{} {}", p.color_name(n), self.captures(p))).collect();
        format!(
            "{}Captures (target {}): {}\n",
            textboard::render_cells(self.map(), &cell, last, &legend),
            self.rules().target,
            captures.join(", ")
        )
    }

    fn describe(&self, event: &Event) -> Option<String> {
        let n = self.player_count();
        match event {
            Event::Captured { player, owner, nodes } => {
                let labels: Vec<&str> = nodes.iter().map(|&v| self.map().label(v)).collect();
                Some(format!(
                    "{} captured {} of {}.",
                    player.color_name(n),
                    labels.join(" "),
                    owner.color_name(n)
                ))
            }
            _ => None,
        }
    }

    fn prompt(&self, seat: Player, clock: &str) -> String {
        let n = self.player_count();
        format!("{} ({}) to move{clock}> ", seat.color_name(n), seat.symbol(n))
    }

    fn read(&self, _: Player, line: &str) -> Typed<Move> {
        let Some(word) = line.split_whitespace().next() else { return Typed::Nothing };
        match word.to_ascii_lowercase().as_str() {
            "pass" => Typed::Input(Move::Pass),
            "resign" => Typed::Input(Move::Resign),
            _ => match self.map().node_by_label(word) {
                Some(v) => Typed::Input(Move::place(self.map(), v)),
                None => Typed::Say(format!("There is no point {word:?} on this map. {HELP}")),
            },
        }
    }

    fn end_words(&self, outcome: &gobeyond_rules::Outcome) -> String {
        match outcome.reason {
            EndReason::Contract => "the target was reached".into(),
            EndReason::Passes => "everyone passed: the most captures win".into(),
            EndReason::TurnLimit => "the turn limit came: the most captures win".into(),
            reason => format!("{reason:?}"),
        }
    }

    fn final_line(&self, place: usize, p: Player) -> String {
        let note = if self.is_resigned(p) { " (left the game)" } else { "" };
        format!("{place}. {} — {} captured{note}", p.color_name(self.player_count()), self.captures(p))
    }
}
