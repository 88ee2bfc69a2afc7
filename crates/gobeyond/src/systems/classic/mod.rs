//! Classic Go in the program: the terminal game, GTP (`gtp`), matches between GTP engines
//! (`engine_match`).

pub mod engine_match;
pub mod gtp;

use gobeyond_rules::{
    ClassicGame, Game, Player,
    classic::{Event, Move},
};

use crate::{
    terminal::{Terminal, Typed},
    textboard,
};

const HELP: &str =
    "Type a node label to play there (e.g. D4), or: pass, resign, undo, board, save [FILE], help, quit.";

impl Terminal for ClassicGame {
    fn help(&self) -> &'static str {
        HELP
    }

    fn intro(&self) -> String {
        format!("{} — {} players.", self.map().name(), self.player_count())
    }

    fn show(&self) -> String {
        let n = self.player_count();
        let last = self.moves().last().and_then(|m| m.1.node());
        let captures: Vec<String> = (0..n as u8)
            .map(|p| format!("{} {}", Player(p).color_name(n), self.prisoners(Player(p))))
            .collect();
        format!("{}Captures: {}\n", textboard::render(self.board(), n, last), captures.join(", "))
    }

    fn describe(&self, _: &Event) -> Option<String> {
        // The board and the captures line say it all.
        None
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
            "skip" => Typed::Say("Classic Go has no skip; type pass.".into()),
            _ => match self.map().node_by_label(word) {
                Some(n) => Typed::Input(Move::place(self.map(), n)),
                None => Typed::Say(format!("There is no node {word:?} on this map. {HELP}")),
            },
        }
    }

    fn undo(&mut self) -> bool {
        ClassicGame::undo(self)
    }

    fn final_line(&self, place: usize, p: Player) -> String {
        let scores = self.outcome().map_or_else(|| self.scores(), |o| o.scores.clone());
        format!("{place}. {} — {}", p.color_name(self.player_count()), scores[p.index()])
    }
}
