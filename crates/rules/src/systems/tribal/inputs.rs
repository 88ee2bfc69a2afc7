//! How a Tribal Go game moves on: the flow of turns (roll-off, start points, handicap, the
//! next player, the end by passes) and each input applied, checked, in its phase. Rule numbers
//! and readings are those of `docs/rules/spec/tribal.md` and `docs/rules/tribal.md`.

use std::collections::HashSet;

use gobeyond_maps::NodeId;

use super::{
    Action, Event, Illegal, Input, Phase, RangeRule, Reaction, Roll, TribalGame, card_play, handicap_order,
};
use crate::Player;

impl TribalGame {
    // --- The flow of turns -----------------------------------------------------------

    /// The next player's turn; players who ran out of time pass by themselves.
    pub(super) fn next_turn(&mut self, after: Player) {
        let mut p = after;
        loop {
            p = Player(((p.index() + 1) % self.players) as u8);
            self.to_move = p;
            self.phase = Phase::Turn { rolled: None };
            self.awaiting_dice = false;
            if !self.gone[p.index()] {
                return;
            }
            self.passes += 1;
            let consecutive = self.passes;
            self.emit(Event::Passed { player: p, automatic: true, consecutive });
            if self.end_if_passed() {
                return;
            }
        }
    }

    fn end_if_passed(&mut self) -> bool {
        if self.passes as usize >= self.players {
            self.begin_counting();
            true
        } else {
            false
        }
    }

    fn after_handicap_or_start(&mut self) {
        // Setup done: the first player's turn.
        self.to_move = self.first;
        self.phase = Phase::Turn { rolled: None };
        self.awaiting_dice = false;
        if self.gone[self.first.index()] {
            let before = Player(((self.first.index() + self.players - 1) % self.players) as u8);
            self.next_turn(before);
        }
    }

    fn begin_handicap(&mut self) {
        let values: Vec<i32> = (0..self.players).map(|p| self.rules.handicap_of(p)).collect();
        self.handicap =
            handicap_order(&values, self.first.index()).into_iter().map(|s| Player(s as u8)).collect();
        if self.handicap.is_empty() {
            self.after_handicap_or_start();
        } else {
            self.phase = Phase::Handicap { next: 0 };
        }
    }

    /// The roll-off is settled when every total sequence differs; ties roll again.
    fn settle_rolloff(&mut self) {
        let mut tied = Vec::new();
        for p in 0..self.players {
            if (0..self.players).any(|q| q != p && self.rolloff[q] == self.rolloff[p]) {
                tied.push(Player(p as u8));
            }
        }
        if !tied.is_empty() {
            self.phase = Phase::RollOff { pending: tied };
            return;
        }
        let mut order: Vec<Player> = (0..self.players as u8).map(Player).collect();
        order.sort_by(|a, b| self.rolloff[b.index()].cmp(&self.rolloff[a.index()]));
        self.first = order[0];
        self.order = order.clone();
        self.emit(Event::Order { order });
        self.phase = Phase::ChooseStart { next: 0 };
    }

    // --- Applying inputs -------------------------------------------------------------

    /// Plays one input of `seat`, checked: on a refusal nothing changes.
    pub fn apply(&mut self, seat: Player, input: &Input) -> Result<(), Illegal> {
        if seat.index() >= self.players {
            return Err(Illegal::NotYourTurn(seat));
        }
        match input {
            Input::Action(a) => self.act(seat, *a)?,
            Input::Dead(nodes) => self.choose_dead(seat, nodes)?,
            Input::CleanUpTimeout => self.choose_dead(seat, &[])?,
        }
        if self.record_events {
            self.log.push((seat, input.clone()));
        }
        Ok(())
    }

    pub(super) fn act(&mut self, seat: Player, action: Action) -> Result<(), Illegal> {
        if self.outcome.is_some() {
            return Err(Illegal::GameOver);
        }
        if let Action::Drawn(card) = action {
            return self.drawn(seat, card);
        }
        if self.drawing.is_some() {
            return Err(Illegal::NotNow(action_name(action), "a card is being drawn"));
        }
        if matches!(action, Action::Dice(..)) {
            if self.chance_seat() != Some(seat) {
                return Err(Illegal::NotNow("dice", "no roll is pending for this seat"));
            }
        } else if !self.is_acting(seat) {
            return Err(Illegal::NotYourTurn(seat));
        }
        // The inputs of every turn, without copying the phase.
        match (&self.phase, action) {
            (&Phase::Turn { rolled }, action) => return self.turn_action(seat, rolled, action),
            (Phase::Reaction { .. }, Action::React(answer)) => return self.react(seat, answer),
            (Phase::Reaction { .. }, Action::Timeout) => return self.react(seat, Reaction::Decline),
            _ => {}
        }
        match (self.phase.clone(), action) {
            (Phase::RollOff { pending }, Action::Dice(a, b)) => {
                if pending.first() != Some(&seat) {
                    return Err(Illegal::NotYourTurn(seat));
                }
                check_dice(a, b)?;
                self.rolloff[seat.index()].push(a + b);
                self.emit(Event::RolledOff { player: seat, dice: [a, b], total: a + b });
                let rest: Vec<Player> = pending[1..].to_vec();
                if rest.is_empty() {
                    self.settle_rolloff();
                } else {
                    self.phase = Phase::RollOff { pending: rest };
                }
            }
            (Phase::ChooseStart { next }, Action::ChooseStart(node) | Action::Place(node)) => {
                if !self.start_candidates.contains(&node) || self.start.contains(&Some(node)) {
                    return Err(Illegal::NotAStartPoint(node));
                }
                self.choose_start(next, seat, node);
            }
            (Phase::ChooseStart { next }, Action::Timeout) => {
                let free = self.start_candidates.iter().copied().find(|v| !self.start.contains(&Some(*v)));
                if let Some(node) = free {
                    self.choose_start(next, seat, node);
                }
            }
            (Phase::Handicap { next }, Action::Place(node)) => {
                self.place(seat, node, Some(self.rules.handicap_distance), true)?;
                self.advance_handicap(next);
            }
            (Phase::Handicap { next }, Action::Forgo | Action::Timeout) => {
                self.emit(Event::Forgone { player: seat, handicap: true });
                self.advance_handicap(next);
            }
            (Phase::Offer { from, to }, Action::Accept) => {
                let previous = self.occupier(from);
                self.occupier[from.index()] = Some(to);
                // Teams changed: so do the groups.
                self.board.mark_stale();
                self.emit(Event::SurrenderAccepted { player: from, to, previous });
                self.next_turn(from);
            }
            (Phase::Offer { from, to }, Action::Decline | Action::Timeout) => {
                self.emit(Event::SurrenderDeclined { player: from, to });
                self.next_turn(from);
            }
            (Phase::Card(play), action) => self.card_step(seat, play, action)?,
            (Phase::Replace { player, mover, nodes }, Action::Place(v)) => {
                if !nodes.contains(&v) {
                    return Err(Illegal::NotNow(
                        "replacing there",
                        "only where the rejected move placed a stone",
                    ));
                }
                self.place(player, v, None, false)?;
                self.end_round(mover);
            }
            (Phase::Replace { mover, .. }, Action::Forgo | Action::Timeout) => self.end_round(mover),
            (Phase::Discard { player }, Action::Discard(card)) => self.give_up_card(player, card, false)?,
            (Phase::Return { player }, Action::Return(card)) => self.give_up_card(player, card, true)?,
            (Phase::Discard { player } | Phase::Return { player }, Action::Timeout) => {
                // The card drawn last goes.
                let under = matches!(self.phase, Phase::Return { .. });
                if let Some(&card) = self.hands[player.index()].last() {
                    self.give_up_card(player, card, under)?;
                }
            }
            (_, Action::Dice(..)) => return Err(Illegal::NotNow("dice", "no roll is pending")),
            _ => return Err(Illegal::NotNow(action_name(action), self.phase_name())),
        }
        Ok(())
    }

    fn choose_start(&mut self, next: usize, seat: Player, node: NodeId) {
        self.start[seat.index()] = Some(node);
        self.board.mark_stale();
        self.emit(Event::StartChosen { player: seat, node });
        if next + 1 < self.order.len() {
            self.phase = Phase::ChooseStart { next: next + 1 };
        } else {
            self.begin_handicap();
        }
    }

    fn advance_handicap(&mut self, next: usize) {
        if next + 1 < self.handicap.len() {
            self.phase = Phase::Handicap { next: next + 1 };
        } else {
            self.after_handicap_or_start();
        }
    }

    fn turn_action(&mut self, seat: Player, rolled: Option<Roll>, action: Action) -> Result<(), Illegal> {
        let dice = self.rules.range == RangeRule::Dice;
        match (rolled, action) {
            (None, Action::Dice(a, b)) if self.awaiting_dice => {
                check_dice(a, b)?;
                let roll = Roll { dice: (a, b), range: u32::from(a.max(b)), doubles: a == b };
                self.awaiting_dice = false;
                self.phase = Phase::Turn { rolled: Some(roll) };
                self.emit(Event::Rolled {
                    player: seat,
                    dice: [a, b],
                    range: roll.range,
                    doubles: roll.doubles,
                });
                if roll.doubles && self.rules.cards {
                    self.begin_draw(seat, card_play::DrawFor::Doubles);
                }
                Ok(())
            }
            (None, _) if self.awaiting_dice => {
                Err(Illegal::NotNow(action_name(action), "the dice are being rolled"))
            }
            (None, Action::Roll) if dice => {
                self.awaiting_dice = true;
                Ok(())
            }
            (None, Action::Pass | Action::Timeout) => {
                if action == Action::Timeout {
                    self.gone[seat.index()] = true;
                    self.emit(Event::TimedOut { player: seat });
                }
                self.passes += 1;
                let consecutive = self.passes;
                self.emit(Event::Passed { player: seat, automatic: action == Action::Timeout, consecutive });
                if !self.end_if_passed() {
                    // A pass may draw a card (rule 17): always taken, since one over the limit
                    // goes straight back (A19, `docs/rules/tribal.md`). A player who left draws
                    // nothing.
                    if self.rules.cards && action == Action::Pass {
                        self.begin_draw(seat, card_play::DrawFor::Pass);
                    } else {
                        self.next_turn(seat);
                    }
                }
                Ok(())
            }
            (None, Action::Surrender(q)) => {
                self.check_surrender(seat, q)?;
                self.passes = 0;
                self.emit(Event::SurrenderOffered { player: seat, to: q });
                self.phase = Phase::Offer { from: seat, to: q };
                Ok(())
            }
            (None, Action::Independence) => {
                let Some(was) = self.occupier(seat) else {
                    return Err(Illegal::NotNow("independence", "you are independent"));
                };
                self.occupier[seat.index()] = None;
                self.board.mark_stale();
                self.passes = 0;
                self.emit(Event::Independent { player: seat, from: was });
                self.next_turn(seat);
                Ok(())
            }
            (Some(_), Action::Place(node)) | (None, Action::Place(node)) if rolled.is_some() || !dice => {
                self.place_as_play(seat, node, self.current_range())?;
                self.after_play(seat, vec![node]);
                Ok(())
            }
            (_, Action::PlayCard(card)) => self.play_card(seat, card),
            (Some(_), Action::Forgo | Action::Timeout) | (None, Action::Forgo)
                if rolled.is_some() || !dice =>
            {
                self.emit(Event::Forgone { player: seat, handicap: false });
                self.passes = 0;
                self.end_round(seat);
                Ok(())
            }
            _ => Err(Illegal::NotNow(
                action_name(action),
                if rolled.is_some() { "after the roll" } else { "before the roll" },
            )),
        }
    }

    fn phase_name(&self) -> &'static str {
        match self.phase {
            Phase::RollOff { .. } => "the roll-off",
            Phase::ChooseStart { .. } => "the choice of start points",
            Phase::Handicap { .. } => "the handicap stones",
            Phase::Turn { .. } => "this turn",
            Phase::Offer { .. } => "a surrender offer",
            Phase::Card(_) => "a card's play",
            Phase::Reaction { .. } => "the answers to a move",
            Phase::Replace { .. } => "a replacement",
            Phase::Discard { .. } => "a discard",
            Phase::Return { .. } => "a card's return",
            Phase::CleanUp => "Clean-Up",
            Phase::Finished => "the end",
        }
    }

    /// What the clock does for `seat` when time runs out.
    pub fn timeout_input(&self) -> Input {
        if self.phase == Phase::CleanUp { Input::CleanUpTimeout } else { Input::Action(Action::Timeout) }
    }

    fn choose_dead(&mut self, seat: Player, nodes: &[NodeId]) -> Result<(), Illegal> {
        if self.phase != Phase::CleanUp {
            return Err(Illegal::NotNow("naming dead stones", self.phase_name()));
        }
        if self.dead[seat.index()].is_some() {
            return Err(Illegal::AlreadyChose);
        }
        let mut seen = HashSet::new();
        for &v in nodes {
            if !self.map.contains(v as u64) {
                return Err(Illegal::UnknownNode(v));
            }
            if self.stone_at(v) != Some(seat) {
                return Err(Illegal::NotYourStone(v));
            }
            if !seen.insert(v) {
                return Err(Illegal::Duplicate(v));
            }
        }
        self.dead[seat.index()] = Some(nodes.to_vec());
        self.emit(Event::DeadChosen { player: seat, nodes: nodes.to_vec() });
        if self.dead.iter().all(Option::is_some) {
            self.finish_counting();
        }
        Ok(())
    }
}

fn check_dice(a: u8, b: u8) -> Result<(), Illegal> {
    if (1..=6).contains(&a) && (1..=6).contains(&b) { Ok(()) } else { Err(Illegal::BadDice) }
}

pub(super) fn action_name(a: Action) -> &'static str {
    match a {
        Action::Place(_) => "placing a stone",
        Action::Pass => "passing",
        Action::Roll => "rolling",
        Action::Forgo => "forgoing",
        Action::ChooseStart(_) => "choosing a start point",
        Action::Surrender(_) => "surrendering",
        Action::Accept | Action::Decline => "answering a surrender",
        Action::Independence => "declaring independence",
        Action::Timeout => "a time-out",
        Action::Dice(..) => "dice",
        Action::PlayCard(_) => "playing a card",
        Action::Move(..) => "moving a stone",
        Action::TradeWith(_) => "trading prisoners",
        Action::React(_) => "answering a move",
        Action::Discard(_) => "discarding",
        Action::Return(_) => "returning a card",
        Action::Drawn(_) => "a card draw",
    }
}
