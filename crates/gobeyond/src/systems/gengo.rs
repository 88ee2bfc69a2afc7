//! Gengo in the terminal: the fine grid with stones (`X`, `O`) and the spaces their overlap
//! covers (`-`), both scores, and captures (friendly fire included) said in words.

use gobeyond_rules::{
    Game, GengoGame, Player,
    gengo::{Event, Move, Regions},
};

use crate::{
    terminal::{Terminal, Typed},
    textboard,
};

const HELP: &str = "Type a space's label to play there (e.g. D4), or: pass, resign, undo, board, save [FILE], help, \
     quit. '-' marks spaces inside a stone's overlap, where no stone may go.";

impl Terminal for GengoGame {
    fn help(&self) -> &'static str {
        HELP
    }

    fn intro(&self) -> String {
        let regions = match &self.rules().regions {
            Regions::Default => {
                "each stone covers its block of spaces and connects to stones two spaces away"
            }
            Regions::Classic => {
                "classic regions: a stone covers its own space and connects to adjacent stones"
            }
            Regions::Graph { .. } | Regions::Offsets { .. } => "custom overlap and neighbour regions",
        };
        format!("Gengo on {} — {regions}; three passes in a row end the game.", self.map().name())
    }

    fn show(&self) -> String {
        let board = self.board();
        let last = self.events().iter().rev().find_map(|e| match e {
            Event::Placed { node, .. } => Some(*node),
            _ => None,
        });
        let cell = |n| match board.stone_at(n) {
            Some(p) => p.symbol(2),
            None if !board.is_empty_space(n) => '-',
            None => '.',
        };
        let legend = [
            (Player(0).symbol(2), "Black".to_string()),
            (Player(1).symbol(2), "White".to_string()),
            ('-', "overlapped".to_string()),
        ];
        let (stones, area) = (self.stone_scores(), self.area_scores());
        format!(
            "{}Stones: Black {}, White {} · Area: Black {}, White {} · Captures: Black {}, White {}\n",
            textboard::render_cells(self.map(), &cell, last, &legend),
            stones[0],
            stones[1],
            area[0],
            area[1],
            self.captures(Player(0)),
            self.captures(Player(1)),
        )
    }

    fn describe(&self, event: &Event) -> Option<String> {
        match event {
            Event::Captured { player, owner, nodes } => {
                let labels: Vec<&str> = nodes.iter().map(|&n| self.map().label(n)).collect();
                Some(if owner == player {
                    let played = self.events().iter().rev().find_map(|e| match e {
                        Event::Placed { node, .. } => Some(*node),
                        _ => None,
                    });
                    let why =
                        if played.is_some_and(|p| nodes.contains(&p)) { "suicide" } else { "friendly fire" };
                    format!(
                        "{} lost its own stones {} (no liberties left: {why}).",
                        player.color_name(2),
                        labels.join(" ")
                    )
                } else {
                    format!("{} captured {}.", player.color_name(2), labels.join(" "))
                })
            }
            _ => None,
        }
    }

    fn prompt(&self, seat: Player, clock: &str) -> String {
        format!("{} ({}) to move{clock}> ", seat.color_name(2), seat.symbol(2))
    }

    fn read(&self, _: Player, line: &str) -> Typed<Move> {
        let Some(word) = line.split_whitespace().next() else { return Typed::Nothing };
        match word.to_ascii_lowercase().as_str() {
            "pass" => Typed::Input(Move::Pass),
            "resign" => Typed::Input(Move::Resign),
            _ => match self.map().node_by_label(word) {
                Some(n) => Typed::Input(Move::place(self.map(), n)),
                None => Typed::Say(format!("There is no space {word:?} on this map. {HELP}")),
            },
        }
    }

    fn final_line(&self, place: usize, p: Player) -> String {
        let scores = self.outcome().map_or_else(|| self.scores(), |o| o.scores.clone());
        format!("{place}. {} — {}", p.color_name(2), scores[p.index()])
    }
}
