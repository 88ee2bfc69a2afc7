//! Tribal Go in the terminal: the roll-off and dice (rolled by the loop, as the server does),
//! start points, handicap stones, the range shown on the board, alliances, and Clean-Up.

use gobeyond_maps::NodeId;
use gobeyond_rules::{
    Game, Player, TribalGame,
    tribal::{Action, Card, Event, Move, Phase, RangeRule, Reaction},
};

use crate::{
    terminal::{Terminal, Typed},
    textboard,
};

const HELP: &str = "Type a node label to place a stone (in the casual game after 'roll'), or: roll, pass, \
forgo, surrender N (seat number), accept, decline, independence; with cards: card NAME (extra_move, \
move_anywhere, pair_place, move_two, move_three, points3, points5, trade1_for2, ...), move FROM TO, \
trade N, reject, replace, discard NAME; undo, board, save [FILE], help, quit.";

/// A card by its wire name (`extra_move`), its title (`Extra Move`) or a prefix of either.
fn card_named(words: &[&str]) -> Option<Card> {
    let typed = words.join(" ").to_ascii_lowercase().replace(['-', ' '], "_");
    if typed.is_empty() {
        return None;
    }
    let wire = |c: Card| serde_json::to_value(c).ok().and_then(|v| v.as_str().map(str::to_string));
    Card::ALL.into_iter().find(|&c| {
        let title = c.title().to_ascii_lowercase().replace(['-', ' '], "_");
        wire(c).is_some_and(|w| w.starts_with(&typed)) || title.starts_with(&typed)
    })
}

impl Terminal for TribalGame {
    fn help(&self) -> &'static str {
        HELP
    }

    fn intro(&self) -> String {
        let variant = match self.rules().range {
            RangeRule::Dice => "casual (dice)".to_string(),
            RangeRule::Fixed => format!("Pro (range {})", self.rules().fixed_range),
            RangeRule::Unlimited => "unlimited range".to_string(),
        };
        format!(
            "Tribal Go on {} — {} players, {variant}{}.",
            self.map().name(),
            self.player_count(),
            if self.rules().cards { ", with cards" } else { "" }
        )
    }

    fn show(&self) -> String {
        let n = self.player_count();
        let mover = self.acting().first().copied();
        let reach = match (self.phase(), mover) {
            (Phase::Handicap { .. } | Phase::Turn { rolled: Some(_) }, Some(p)) => {
                Some(self.reachable(p, self.current_range()))
            }
            (Phase::Turn { rolled: None }, Some(p)) if self.rules().range != RangeRule::Dice => {
                Some(self.reachable(p, self.current_range()))
            }
            _ => None,
        };
        let starts: Vec<NodeId> = (0..n as u8).filter_map(|p| self.start_point(Player(p))).collect();
        let cell = |v: NodeId| match self.stone_at(v) {
            Some(p) => p.symbol(n),
            None if starts.contains(&v) => '*',
            None if reach.as_ref().is_some_and(|r| r[v as usize]) => '+',
            None => '.',
        };
        let mut legend: Vec<(char, String)> =
            (0..n as u8).map(Player).map(|p| (p.symbol(n), p.color_name(n).to_string())).collect();
        legend.push(('*', "start point".into()));
        legend.push(('+', "within range".into()));
        let last = self.events().iter().rev().find_map(|e| match e {
            Event::Placed { node, .. } => Some(*node),
            _ => None,
        });
        let mut text =
            textboard::render_cells(self.map(), &cell, last.filter(|&v| self.stone_at(v).is_some()), &legend);
        let players: Vec<String> = (0..n as u8)
            .map(Player)
            .map(|p| {
                let held: u32 = self.prisoners(p).iter().sum();
                let mut s = format!("{} {} prisoners", p.color_name(n), held);
                if let Some(o) = self.occupier(p) {
                    s.push_str(&format!(", occupied by {}", o.color_name(n)));
                }
                if self.is_gone(p) {
                    s.push_str(" (gone: passes)");
                }
                s
            })
            .collect();
        text.push_str(&format!("{}. Passes in a row: {} of {}.\n", players.join(" · "), self.passes(), n));
        // The terminal is one screen shared by every seat: the hand of the seat to act.
        if self.rules().cards
            && let Some(p) = mover
        {
            let hand: Vec<&str> = self.hand(p).iter().map(|c| c.title()).collect();
            text.push_str(&format!(
                "{}'s cards: {}. {} cards to draw.\n",
                p.color_name(n),
                if hand.is_empty() { "none".to_string() } else { hand.join(", ") },
                self.deck().to_draw()
            ));
        }
        text
    }

    fn describe(&self, event: &Event) -> Option<String> {
        let n = self.player_count();
        let name = |p: &Player| p.color_name(n);
        let label = |v: &NodeId| self.map().label(*v).to_string();
        Some(match event {
            Event::RolledOff { player, dice, total } => {
                format!("{} rolls {}+{} = {total}", name(player), dice[0], dice[1])
            }
            Event::Order { order } => {
                format!("Order: {}", order.iter().map(name).collect::<Vec<_>>().join(", "))
            }
            Event::StartChosen { player, node } => format!("{} starts at {}", name(player), label(node)),
            Event::Rolled { player, dice, range, doubles } => {
                format!(
                    "{} rolls {} and {}: range {range}{}",
                    name(player),
                    dice[0],
                    dice[1],
                    if *doubles { " (a pair)" } else { "" }
                )
            }
            Event::Placed { .. } => return None,
            Event::Captured { player, nodes, shares, .. } => format!(
                "{} stones removed{}: {}",
                nodes.len(),
                player.map_or(String::new(), |p| format!(" by {}", name(&p))),
                shares.iter().map(|(p, k)| format!("{} +{k}", name(p))).collect::<Vec<_>>().join(", ")
            ),
            Event::Passed { player, automatic, consecutive } => {
                format!(
                    "{} passes{} ({consecutive} in a row)",
                    name(player),
                    if *automatic { " (gone)" } else { "" }
                )
            }
            Event::Forgone { player, .. } => format!("{} forgoes", name(player)),
            Event::SurrenderOffered { player, to } => {
                format!("{} offers to surrender to {}", name(player), name(to))
            }
            Event::SurrenderAccepted { player, to, .. } => {
                format!("{} is occupied by {}", name(player), name(to))
            }
            Event::SurrenderDeclined { player, to } => {
                format!("{} declines {}'s surrender", name(to), name(player))
            }
            Event::Independent { player, .. } => format!("{} declares independence", name(player)),
            Event::TimedOut { player } => format!("{} ran out of time: passes from now on", name(player)),
            Event::CleanUpStarted => "Everyone passed: name your dead stones".into(),
            Event::DeadChosen { .. } => return None,
            Event::DeadRemoved { owner, node, to } => format!(
                "{}'s dead stone at {} goes to {}",
                name(owner),
                label(node),
                to.map_or("its owner (disputed)".to_string(), |t| name(&t).to_string())
            ),
            Event::FilledIn { team, territory, prisoners, left, .. } => {
                format!("{}: territory {territory}, {prisoners} prisoners filled in, {left} left", name(team))
            }
            Event::GameOver { .. } => "Game over".into(),
            Event::Drew { player, doubles } => {
                format!("{} draws a card{}", name(player), if *doubles { " (a pair)" } else { "" })
            }
            Event::Returned { player } => format!("{} returns a card under the pile", name(player)),
            Event::Discarded { player, card } => format!("{} discards {}", name(player), card.title()),
            Event::CardPlayed { player, card } => format!("{} plays {}", name(player), card.title()),
            Event::Moved { player, from, to } => {
                format!("{} moves {} to {}", name(player), label(from), label(to))
            }
            Event::Lifted { player, node } => {
                format!("{}'s stone at {} is lifted", name(player), label(node))
            }
            Event::Traded { player, with, gave, took } => format!(
                "{} gives {} prisoners to {} and takes {}",
                name(player),
                gave.iter().sum::<u32>(),
                name(with),
                took.iter().sum::<u32>()
            ),
            Event::Rejected { player, mover, card } => {
                format!("{} rejects {}'s move with {}", name(player), name(mover), card.title())
            }
            Event::NotRejected { .. } => return None,
        })
    }

    fn prompt(&self, seat: Player, clock: &str) -> String {
        let n = self.player_count();
        let who = format!("{} ({})", seat.color_name(n), seat.symbol(n));
        match self.phase() {
            Phase::ChooseStart { .. } => {
                let free: Vec<&str> = self
                    .start_candidates()
                    .iter()
                    .filter(|v| (0..n as u8).all(|p| self.start_point(Player(p)) != Some(**v)))
                    .map(|&v| self.map().label(v))
                    .collect();
                format!("{who}: choose a start point ({}){clock}> ", free.join(" "))
            }
            Phase::Handicap { .. } => format!(
                "{who}: a handicap stone within {} (or forgo){clock}> ",
                self.rules().handicap_distance
            ),
            Phase::Offer { from, .. } => format!(
                "{who}: {} offers to surrender to you: accept or decline{clock}> ",
                from.color_name(n)
            ),
            Phase::CleanUp => {
                format!("Clean-Up, {who}: list your dead stones (labels), or an empty line for none{clock}> ")
            }
            Phase::Turn { rolled: Some(r) } => {
                let cards = if self.playable_cards(seat).is_empty() { "" } else { ", card NAME" };
                format!("{who}: range {} — a node{cards}, or forgo{clock}> ", r.range)
            }
            Phase::Card(play) => match play.card {
                Card::MoveTwo | Card::MoveThree => format!("{who}: move FROM TO, or forgo{clock}> "),
                c if c.trade().is_some() => format!("{who}: trade N (seat number){clock}> "),
                c => format!("{who}: {} — a node, or forgo{clock}> ", c.title()),
            },
            Phase::Reaction { mover, .. } => {
                format!("{who}: reject {}'s move? reject, replace or decline{clock}> ", mover.color_name(n))
            }
            Phase::Replace { .. } => format!("{who}: a node of the rejected move, or forgo{clock}> "),
            Phase::Discard { .. } | Phase::Return { .. } => {
                format!("{who}: more than three cards — discard NAME{clock}> ")
            }
            _ if self.rules().range == RangeRule::Dice => format!("{who}: roll or pass{clock}> "),
            _ => format!("{who}: a node, pass or forgo{clock}> "),
        }
    }

    fn read(&self, _seat: Player, line: &str) -> Typed<Move> {
        let map = self.map();
        let words: Vec<&str> = line.split_whitespace().collect();
        if *self.phase() == Phase::CleanUp {
            let nodes: Result<Vec<NodeId>, &str> =
                words.iter().map(|w| map.node_by_label(w).ok_or(*w)).collect();
            return match nodes {
                Ok(nodes) => Typed::Input(Move::dead(map, &nodes)),
                Err(w) => Typed::Say(format!("There is no node {w:?} on this map.")),
            };
        }
        let Some(word) = words.first().map(|w| w.to_ascii_lowercase()) else { return Typed::Nothing };
        let action = match word.as_str() {
            "roll" | "play" => Action::Roll,
            "pass" => Action::Pass,
            "forgo" => Action::Forgo,
            "accept" => Action::Accept,
            "decline" if matches!(self.phase(), Phase::Reaction { .. }) => Action::React(Reaction::Decline),
            "decline" => Action::Decline,
            "reject" => Action::React(Reaction::Reject),
            "replace" => Action::React(Reaction::RejectAndReplace),
            "card" | "discard" | "return" => match card_named(&words[1..]) {
                Some(c) if word == "card" => Action::PlayCard(c),
                Some(c) if matches!(self.phase(), Phase::Return { .. }) => Action::Return(c),
                Some(c) => Action::Discard(c),
                None => return Typed::Say(format!("{word} NAME: a card of your hand, e.g. extra_move")),
            },
            "move" => match (
                words.get(1).and_then(|w| map.node_by_label(w)),
                words.get(2).and_then(|w| map.node_by_label(w)),
            ) {
                (Some(a), Some(b)) => Action::Move(a, b),
                _ => return Typed::Say("move FROM TO: two node labels".into()),
            },
            "trade" => match words.get(1).and_then(|w| w.parse::<u8>().ok()).filter(|s| *s >= 1) {
                Some(s) => Action::TradeWith(Player(s - 1)),
                None => return Typed::Say("trade N: the seat number (from 1) to trade with".into()),
            },
            "independence" => Action::Independence,
            "surrender" => match words.get(1).and_then(|w| w.parse::<u8>().ok()).filter(|s| *s >= 1) {
                Some(s) => Action::Surrender(Player(s - 1)),
                None => {
                    return Typed::Say(
                        "surrender N: the seat number (from 1) of the player you surrender to".into(),
                    );
                }
            },
            _ => match map.node_by_label(words[0]) {
                Some(v) if matches!(self.phase(), Phase::ChooseStart { .. }) => Action::ChooseStart(v),
                Some(v) => Action::Place(v),
                None => return Typed::Say(format!("There is no node {:?} on this map. {HELP}", words[0])),
            },
        };
        Typed::Input(Move::action(map, action))
    }

    fn undo(&mut self) -> bool {
        TribalGame::undo(self)
    }

    fn final_line(&self, place: usize, p: Player) -> String {
        let n = self.player_count();
        let score = self.outcome().and_then(|o| o.scores.get(p.index()).copied()).unwrap_or(0.0);
        let note = self.occupier(p).map_or(String::new(), |o| format!(" (occupied by {})", o.color_name(n)));
        format!("{place}. {} — {score}{note}", p.color_name(n))
    }
}
