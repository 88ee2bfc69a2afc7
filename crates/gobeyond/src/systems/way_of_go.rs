//! The Way of Go and BeSiege in the terminal: a drop is a node's label (`E5`), a move two
//! labels (`E5-A5`; `E5-A5/2` lifts the top two stones of a stack), `end` ends a turn after a
//! drop. The pie is typed as `black C3` / `white G7`, the choice as `black` or `white`.

use gobeyond_rules::{
    Game, Player, RuleSystem,
    way_of_go::{Action, Colour, Event, Landing, Move, Phase, Variant, WayGame},
};

use crate::{
    terminal::{Terminal, Typed},
    textboard,
};

const HELP: &str = "Type a node's label to drop a stone (e.g. E5), FROM-TO to move (E5-A5; E5-A5/2 lifts the top \
     two stones of a stack), end to end your turn after a drop, or: pass (only when nothing else is possible), \
     resign, undo, board, save [FILE], help, quit. The pie: black C3, white G7; then the choice: black or \
     white.";

fn colour_word(word: &str) -> Option<Colour> {
    match word {
        "black" | "b" | "x" => Some(Colour::Black),
        "white" | "w" | "o" => Some(Colour::White),
        _ => None,
    }
}

impl<V: Variant> Terminal for WayGame<V> {
    fn help(&self) -> &'static str {
        HELP
    }

    fn intro(&self) -> String {
        let goal = match (self.contract(Player(0)), self.contract(Player(1))) {
            (Some(a), Some(b)) => format!("contracts: seat 1 must capture {a}, seat 2 {b}"),
            _ => "drops only on neutral points; most captures when a player has no turn".into(),
        };
        format!(
            "{} on {} — stones move along lines exactly as far as their group has liberties; {goal}.",
            <Self as RuleSystem>::TITLE,
            self.map().name()
        )
    }

    fn show(&self) -> String {
        let board = self.board();
        let last = self.events().iter().rev().find_map(|e| match e {
            Event::Dropped { node, .. } | Event::PieStone { node, .. } => Some(*node),
            Event::Moved { to, .. } | Event::Captured { to, .. } => Some(*to),
            _ => None,
        });
        let neutral = self.config().neutral_drops;
        let attacked = self.attack_map();
        let cell = |n: gobeyond_maps::NodeId| match board.colour(n) {
            Some(c) => c.symbol(),
            None if neutral && attacked[n as usize] != 0 => ',',
            None => '.',
        };
        let mut legend = vec![('X', "Black".to_string()), ('O', "White".to_string())];
        if neutral {
            legend.push((',', "attacked (no drop)".to_string()));
        }
        let mut out = textboard::render_cells(self.map(), &cell, last, &legend);
        let stacks: Vec<String> = board
            .stacks()
            .filter(|&(_, _, h)| h > 1)
            .map(|(n, c, h)| format!("{} {}×{h}", self.map().label(n), c.symbol()))
            .collect();
        if !stacks.is_empty() {
            out.push_str(&format!("Stacks: {}\n", stacks.join(", ")));
        }
        let standing: Vec<String> = (0..2u8)
            .map(Player)
            .map(|s| {
                let c = self.colour_of(s);
                match self.contract(s) {
                    Some(k) => format!("{} {} of {k}", c.name(), self.captures(s)),
                    None => format!("{} {}", c.name(), self.captures(s)),
                }
            })
            .collect();
        out.push_str(&format!("Captures: {}\n", standing.join(" · ")));
        if let Some(seat) = self.to_move() {
            // The mover's ranges, so that a move can be typed without counting liberties.
            let colour = self.colour_of(seat);
            let ranges: Vec<String> = board
                .stacks()
                .filter(|&(_, c, _)| c == colour)
                .map(|(n, _, h)| {
                    let r: Vec<String> = (1..=h).map(|k| board.range(n, k).to_string()).collect();
                    format!("{} {}", self.map().label(n), r.join("/"))
                })
                .collect();
            if !ranges.is_empty() && self.sides_chosen() {
                out.push_str(&format!("{} ranges: {}\n", colour.name(), ranges.join(", ")));
            }
        }
        out
    }

    fn describe(&self, event: &Event) -> Option<String> {
        let l = |n| self.map().label(n).to_string();
        match event {
            Event::SideChosen { player, colour } => {
                Some(format!("Seat {} takes {}; White moves first.", player.0 + 1, colour.name()))
            }
            Event::Moved { player, from, to, landing, count } => {
                let what = if *count > 1 { format!("{count} stones") } else { "a stone".into() };
                let how = match landing {
                    Landing::Stack => " onto its own stack",
                    Landing::Push => ", pushing its own piece one step on",
                    _ => "",
                };
                Some(format!("{} moved {what} {}–{}{how}.", self.colour_of(*player).name(), l(*from), l(*to)))
            }
            Event::Captured { player, from, to, removed, lost, .. } => Some(format!(
                "{} captured on {} from {}: {removed} taken, {lost} of its own sacrificed.",
                self.colour_of(*player).name(),
                l(*to),
                l(*from)
            )),
            Event::ContractsRaised { contracts } => Some(format!(
                "Both reached their contracts in the same round: contracts raised to {} and {}.",
                contracts[0], contracts[1]
            )),
            Event::Passed { player } => {
                Some(format!("{} has no possible turn and passes.", self.colour_of(*player).name()))
            }
            _ => None,
        }
    }

    fn prompt(&self, seat: Player, clock: &str) -> String {
        let colour = self.colour_of(seat);
        let what = match self.phase() {
            Phase::Pie { black, white } => {
                format!("pie: {} Black and {} White to place", 2 - black, 1 - white)
            }
            Phase::Choose => "choose black or white".into(),
            Phase::Start => "drop, move or capture".into(),
            Phase::AfterMove => "now drop".into(),
            Phase::AfterDrop { .. } => "move another piece, or end".into(),
            Phase::Over => String::new(),
        };
        let who = if self.sides_chosen() {
            format!("{} ({})", colour.name(), colour.symbol())
        } else {
            format!("Seat {}", seat.0 + 1)
        };
        format!("{who}, {what}{clock}> ")
    }

    fn read(&self, _: Player, line: &str) -> Typed<Move> {
        let words: Vec<String> = line.split_whitespace().map(str::to_ascii_lowercase).collect();
        let Some(first) = words.first() else { return Typed::Nothing };
        let map = self.map();
        let label = |w: &str| map.node_by_label(w);
        match (self.phase(), first.as_str()) {
            (_, "pass") => return Typed::Input(Move::Pass),
            (_, "resign") => return Typed::Input(Move::Resign),
            (_, "end") => return Typed::Input(Move::EndTurn),
            (Phase::Choose, w) => {
                return match colour_word(w) {
                    Some(colour) => Typed::Input(Move::ChooseSide { colour }),
                    None => Typed::Say("Choose a side: black or white.".into()),
                };
            }
            (Phase::Pie { black, .. }, w) => {
                let (colour, at) = match (colour_word(w), words.get(1)) {
                    (Some(c), Some(at)) => (c, at.as_str()),
                    (Some(_), None) => return Typed::Say("Which node? e.g. black C3".into()),
                    (None, _) => (if black < 2 { Colour::Black } else { Colour::White }, w),
                };
                return match label(at) {
                    Some(n) => Typed::Input(Move::of(map, Action::PieStone { node: n, colour })),
                    None => Typed::Say(format!("There is no node {at:?} on this map. {HELP}")),
                };
            }
            _ => {}
        }
        if let Some((from, rest)) = first.split_once('-') {
            let (to, count) = match rest.split_once('/') {
                Some((to, k)) => match k.parse::<u8>() {
                    Ok(k) => (to, Some(k)),
                    Err(_) => return Typed::Say(format!("{k:?} is not a number of stones")),
                },
                None => (rest, None),
            };
            return match (label(from), label(to)) {
                (Some(f), Some(t)) => Typed::Input(Move::Move {
                    from: Some(f as u64),
                    from_at: None,
                    to: Some(t as u64),
                    to_at: None,
                    count,
                    dir: None,
                }),
                _ => Typed::Say(format!("{first:?}: type FROM-TO with two nodes of the map, e.g. E5-A5")),
            };
        }
        match label(first) {
            Some(n) => Typed::Input(Move::of(map, Action::Drop(n))),
            None => Typed::Say(format!("There is no node {first:?} on this map. {HELP}")),
        }
    }

    fn final_line(&self, place: usize, p: Player) -> String {
        let c = self.colour_of(p);
        match self.contract(p) {
            Some(k) => format!("{place}. {} — {} captures of {k}", c.name(), self.captures(p)),
            None => format!("{place}. {} — {} captures", c.name(), self.captures(p)),
        }
    }
}
