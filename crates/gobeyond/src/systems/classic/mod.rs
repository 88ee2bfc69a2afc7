//! Classic Go in the program: the terminal game, GTP (`gtp`), matches between GTP engines
//! (`engine_match`), the move patterns' data and fit (`train`).

pub mod engine_match;
pub mod gtp;
pub mod train;

use gobeyond_bots::{Computer, Level};
use gobeyond_rules::{
    ClassicGame, Game, Player, RuleSystem,
    classic::{Event, Move},
};

use crate::{
    terminal::{Terminal, Typed},
    textboard,
};

const HELP: &str =
    "Type a node label to play there (e.g. D4), or: pass, resign, undo, board, save [FILE], help, quit.";
const SCORING_HELP: &str = "Type a stone to mark its group dead (or alive again), \
     accept to agree, resume to play on.";

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
        if let Some(phase) = self.scoring() {
            let labels: Vec<&str> = phase.dead.iter().map(|&v| self.map().label(v)).collect();
            let dead = if labels.is_empty() { "none".to_string() } else { labels.join(" ") };
            return format!(
                "Dead stones: {dead}. {SCORING_HELP}\n{} ({}){clock}> ",
                seat.color_name(n),
                seat.symbol(n)
            );
        }
        format!("{} ({}) to move{clock}> ", seat.color_name(n), seat.symbol(n))
    }

    fn decide_for(&self, seat: Player) -> Move {
        // The proposal a computer seat makes (the search's ownership says what is dead), as in
        // a served game.
        self.computer_input(seat, Level::MAX, 1, None).unwrap_or_else(|| self.fallback_move(seat))
    }

    fn read(&self, _: Player, line: &str) -> Typed<Move> {
        let Some(word) = line.split_whitespace().next() else { return Typed::Nothing };
        if let Some(phase) = self.scoring() {
            return match word.to_ascii_lowercase().as_str() {
                "accept" => Typed::Input(Move::Accept),
                "resume" => Typed::Input(Move::Resume),
                _ => match self.map().node_by_label(word) {
                    Some(n) => match self.groups_at(&[n]) {
                        // A stone toggles its whole group.
                        Ok(group) => {
                            let dead: Vec<_> = if phase.dead.contains(&n) {
                                phase.dead.iter().copied().filter(|v| !group.contains(v)).collect()
                            } else {
                                phase.dead.iter().copied().chain(group).collect()
                            };
                            Typed::Input(Move::dead(self.map(), &dead, false))
                        }
                        Err(_) => Typed::Say(format!("{word} holds no stone. {SCORING_HELP}")),
                    },
                    None => Typed::Say(format!("There is no node {word:?} on this map. {SCORING_HELP}")),
                },
            };
        }
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
