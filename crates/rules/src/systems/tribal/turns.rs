//! Whose turn it is in Tribal Go and what they may do: the `Game` trait the search, the server
//! and the terminal drive every system through.

use std::sync::Arc;

use gobeyond_maps::{Map, NodeId};

use super::{Action, Card, CardPlay, Illegal, Input, Phase, RangeRule, Reaction, TribalGame};
use crate::{Game, Outcome, Player};

impl TribalGame {
    /// The other seats in turn order after `mover` (who answers a Play, and in what order).
    pub(super) fn seats_after(&self, mover: Player) -> impl Iterator<Item = Player> + use<> {
        let players = self.players;
        (1..players).map(move |k| Player(((mover.index() + k) % players) as u8))
    }

    /// Who must act now: one seat, or the seats still to name dead stones.
    pub fn acting(&self) -> Vec<Player> {
        match &self.phase {
            Phase::RollOff { pending } => pending.first().copied().into_iter().collect(),
            Phase::ChooseStart { next } => self.order.get(*next).copied().into_iter().collect(),
            Phase::Handicap { next } => self.handicap.get(*next).copied().into_iter().collect(),
            Phase::Turn { .. } => vec![self.to_move],
            Phase::Offer { to, .. } => vec![*to],
            Phase::Card(_) => vec![self.to_move],
            Phase::Reaction { mover, answers, .. } => {
                self.seats_after(*mover).filter(|q| answers[q.index()].is_none()).collect()
            }
            Phase::Replace { player, .. } | Phase::Discard { player } | Phase::Return { player } => {
                vec![*player]
            }
            Phase::CleanUp => {
                (0..self.players).filter(|&p| self.dead[p].is_none()).map(|p| Player(p as u8)).collect()
            }
            Phase::Finished => Vec::new(),
        }
    }

    /// Whether `seat` is among [`Self::acting`] (without listing them: playouts ask on every input).
    pub(super) fn is_acting(&self, seat: Player) -> bool {
        match &self.phase {
            Phase::Turn { .. } | Phase::Card(_) => seat == self.to_move,
            Phase::Offer { to, .. } => seat == *to,
            Phase::Replace { player, .. } | Phase::Discard { player } | Phase::Return { player } => {
                seat == *player
            }
            // The mover's answer is given for them.
            Phase::Reaction { answers, .. } => answers.get(seat.index()).is_some_and(Option::is_none),
            _ => self.acting().contains(&seat),
        }
    }

    /// The first of [`Self::acting`].
    pub(super) fn first_acting(&self) -> Option<Player> {
        match &self.phase {
            Phase::Turn { .. } | Phase::Card(_) => Some(self.to_move),
            Phase::Offer { to, .. } => Some(*to),
            Phase::Replace { player, .. } | Phase::Discard { player } | Phase::Return { player } => {
                Some(*player)
            }
            Phase::Reaction { mover, answers, .. } => {
                self.seats_after(*mover).find(|q| answers[q.index()].is_none())
            }
            _ => self.acting().first().copied(),
        }
    }

    /// A turn's actions (the handicap, a turn): the points in range when it places (not before
    /// the roll under the dice rule), the cards that may be played, and what ends or gives up the
    /// turn.
    fn turn_actions(&self, p: Player, out: &mut Vec<Action>) {
        let range = self.current_range();
        let placing = matches!(self.phase, Phase::Handicap { .. })
            || matches!(self.phase, Phase::Turn { rolled: Some(_) })
            || self.rules.range != RangeRule::Dice;
        if placing {
            let reach = self.reachable(p, range);
            let mut probe = self.without_events();
            for v in self.map.nodes() {
                if reach[v as usize] && self.owner[v as usize] == 0 && probe.check_place(p, v, range).is_ok()
                {
                    out.push(Action::Place(v));
                }
            }
        }
        if self.card_time() {
            out.extend(self.playable_cards(p).into_iter().map(Action::PlayCard));
        }
        match self.phase {
            Phase::Handicap { .. } => out.push(Action::Forgo),
            Phase::Turn { rolled: Some(_) } => out.push(Action::Forgo),
            _ => {
                out.push(Action::Pass);
                if self.rules.range == RangeRule::Dice {
                    out.push(Action::Roll);
                } else {
                    out.push(Action::Forgo);
                }
                if self.occupier(p).is_some() {
                    out.push(Action::Independence);
                }
                for q in 0..self.players as u8 {
                    if self.check_surrender(p, Player(q)).is_ok() {
                        out.push(Action::Surrender(Player(q)));
                    }
                }
            }
        }
    }

    /// The steps of a card being played: its moves, trades or placements, or giving it up.
    fn card_actions(&self, p: Player, play: &CardPlay, out: &mut Vec<Action>) {
        let try_action = |a: Action| self.without_events().act(p, a).is_ok();
        match play.card {
            Card::MoveTwo | Card::MoveThree => {
                let reach = self.reachable(p, play.range);
                let own: Vec<NodeId> = self.map.nodes().filter(|&v| self.stone_at(v) == Some(p)).collect();
                for &from in &own {
                    for to in self.map.nodes() {
                        if reach[to as usize]
                            && self.owner[to as usize] == 0
                            && try_action(Action::Move(from, to))
                        {
                            out.push(Action::Move(from, to));
                        }
                    }
                }
            }
            c if c.trade().is_some() => {
                out.extend(
                    (0..self.players as u8)
                        .map(Player)
                        .filter(|&q| try_action(Action::TradeWith(q)))
                        .map(Action::TradeWith),
                );
            }
            _ => {
                let reach = self.reachable(p, play.range.map(|r| r + 1));
                out.extend(
                    self.map
                        .nodes()
                        .filter(|&v| reach[v as usize] || play.card == Card::ReplaceAny)
                        .filter(|&v| try_action(Action::Place(v)))
                        .map(Action::Place),
                );
            }
        }
        out.push(Action::Forgo);
    }
}

impl Game for TribalGame {
    type Action = Action;
    type Illegal = Illegal;

    fn map(&self) -> &Arc<Map> {
        &self.map
    }

    fn player_count(&self) -> usize {
        self.players
    }

    fn to_move(&self) -> Option<Player> {
        if self.chance_seat().is_some() {
            return None;
        }
        match self.phase {
            Phase::CleanUp | Phase::Finished => None,
            _ => self.first_acting(),
        }
    }

    fn legal_actions(&self, out: &mut Vec<Action>) {
        out.clear();
        let Some(p) = self.to_move() else { return };
        let try_action = |a: Action| self.without_events().act(p, a).is_ok();
        match &self.phase {
            Phase::ChooseStart { .. } => {
                out.extend(
                    self.start_candidates()
                        .iter()
                        .filter(|v| !self.start.contains(&Some(**v)))
                        .map(|&v| Action::ChooseStart(v)),
                );
            }
            Phase::Handicap { .. } | Phase::Turn { .. } => self.turn_actions(p, out),
            Phase::Offer { .. } => out.extend([Action::Accept, Action::Decline]),
            Phase::Card(play) => self.card_actions(p, play, out),
            Phase::Reaction { .. } => {
                out.push(Action::React(Reaction::Decline));
                if self.hands[p.index()].contains(&Card::Reject) {
                    out.push(Action::React(Reaction::Reject));
                }
                if self.hands[p.index()].contains(&Card::RejectAndReplace) {
                    out.push(Action::React(Reaction::RejectAndReplace));
                }
            }
            Phase::Replace { nodes, .. } => {
                out.extend(
                    nodes.iter().copied().filter(|&v| try_action(Action::Place(v))).map(Action::Place),
                );
                out.push(Action::Forgo);
            }
            Phase::Discard { .. } | Phase::Return { .. } => {
                let mut kinds = self.hands[p.index()].clone();
                kinds.sort();
                kinds.dedup();
                let discard = matches!(self.phase, Phase::Discard { .. });
                out.extend(
                    kinds.into_iter().map(|c| if discard { Action::Discard(c) } else { Action::Return(c) }),
                );
            }
            _ => {}
        }
    }

    fn check(&self, action: Action) -> Result<(), Illegal> {
        let Some(p) = self.to_move() else { return Err(Illegal::GameOver) };
        let mut copy = self.without_events();
        copy.act(p, action)
    }

    fn play(&mut self, action: Action) -> Result<(), Illegal> {
        let Some(p) = self.to_move().or_else(|| self.chance_seat()) else { return Err(Illegal::GameOver) };
        self.apply(p, &Input::Action(action))
    }

    fn outcome(&self) -> Option<&Outcome> {
        self.outcome.as_ref()
    }
}
