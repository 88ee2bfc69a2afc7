//! Playing an action: the pie, drops, moves and captures, the end of a turn (The Way of Go's
//! contracts, forced passes, the turn limit, BeSiege's player without a turn) and the end of the
//! game with its outcome.

use super::{Action, Colour, Event, Illegal, Input, Phase, Variant, WayGame};
use crate::{EndReason, Outcome, Player, rank};

impl<V: Variant> WayGame<V> {
    /// Plays `action` for `seat`, checked; resignations are taken from any seat still playing.
    pub fn play_as(&mut self, seat: Player, action: Action) -> Result<(), Illegal> {
        if self.outcome.is_some() {
            return Err(Illegal::GameOver);
        }
        if action == Action::Resign {
            if seat.index() > 1 {
                return Err(Illegal::NotYourTurn { player: seat.0 });
            }
            self.inputs.push(seat, Input::Act(action));
            self.resigned.push(seat);
            self.emit(Event::Resigned { player: seat });
            self.finish(EndReason::Resignation, Some(Player(1 - seat.0)));
            return Ok(());
        }
        if self.to_move != Some(seat) {
            return Err(Illegal::NotYourTurn { player: seat.0 });
        }
        self.check_action(action)?;
        self.inputs.push(seat, Input::Act(action));
        self.apply(seat, action);
        Ok(())
    }

    /// `seat`'s clock ran out: it loses.
    pub fn time_out(&mut self, seat: Player) -> Result<(), Illegal> {
        if self.outcome.is_some() {
            return Err(Illegal::GameOver);
        }
        if seat.index() > 1 {
            return Err(Illegal::NotYourTurn { player: seat.0 });
        }
        self.inputs.push(seat, Input::Timeout);
        self.emit(Event::TimedOut { player: seat });
        self.finish(EndReason::Time, Some(Player(1 - seat.0)));
        Ok(())
    }

    fn apply(&mut self, seat: Player, action: Action) {
        let colour = self.colour_of(seat);
        match action {
            Action::PieStone { node, colour } => {
                self.board.drop_stone(node, colour);
                self.emit(Event::PieStone { player: seat, node, colour });
                if let Phase::Pie { black, white } = self.phase {
                    let (black, white) = match colour {
                        Colour::Black => (black + 1, white),
                        Colour::White => (black, white + 1),
                    };
                    self.phase = if black == 2 && white == 1 {
                        self.to_move = Some(Player(1));
                        Phase::Choose
                    } else {
                        Phase::Pie { black, white }
                    };
                }
            }
            Action::ChooseSide(c) => {
                self.colours = [c.other(), c];
                self.emit(Event::SideChosen { player: seat, colour: c });
                self.phase = Phase::Start;
                self.to_move = Some(self.seat_of(Colour::White));
                self.start_turn();
            }
            Action::Drop(node) => {
                self.board.drop_stone(node, colour);
                self.emit(Event::Dropped { player: seat, node });
                match self.phase {
                    Phase::AfterMove => self.end_turn(),
                    _ => self.phase = Phase::AfterDrop { dropped: node },
                }
            }
            Action::Move { from, count, dir, to } => {
                let Ok((step, landing)) = self.find_move(from, count, to, Some(dir)) else { return };
                let (removed, lost) = self.board.apply(colour, &step, landing);
                if landing.captures() {
                    self.captures[seat.index()] += removed;
                    self.emit(Event::Captured { player: seat, from, to, count, removed, lost });
                    self.end_turn();
                } else {
                    self.emit(Event::Moved { player: seat, from, to, count, landing });
                    match self.phase {
                        Phase::AfterDrop { .. } => self.end_turn(),
                        _ => self.phase = Phase::AfterMove,
                    }
                }
            }
            Action::EndTurn => self.end_turn(),
            Action::Pass => {
                self.emit(Event::Passed { player: seat });
                self.forced_passes += 1;
                self.end_turn_after_pass();
            }
            Action::Resign => {}
        }
    }

    fn end_turn(&mut self) {
        self.forced_passes = 0;
        self.end_turn_after_pass();
    }

    fn end_turn_after_pass(&mut self) {
        let Some(seat) = self.to_move else { return };
        self.turns += 1;
        // The Way of Go's contracts are judged at the end of each round (White, then Black).
        if self.config.contracts.is_some() && self.colour_of(seat) == Colour::Black {
            match (self.captures[0] >= self.contracts[0], self.captures[1] >= self.contracts[1]) {
                (true, true) => {
                    self.contracts[0] += 1;
                    self.contracts[1] += 1;
                    self.emit(Event::ContractsRaised { contracts: self.contracts });
                }
                (true, false) => return self.finish(EndReason::Contract, Some(Player(0))),
                (false, true) => return self.finish(EndReason::Contract, Some(Player(1))),
                (false, false) => {}
            }
        }
        if self.forced_passes >= 2 {
            return self.finish(EndReason::NoLegalMove, None);
        }
        if self.turns >= self.turn_limit() {
            return self.finish(EndReason::TurnLimit, None);
        }
        self.to_move = Some(Player(1 - seat.0));
        self.phase = Phase::Start;
        self.start_turn();
    }

    /// BeSiege ends as soon as the player to move has no turn (BeSiege rule 9).
    pub(super) fn start_turn(&mut self) {
        if self.config.contracts.is_none() && !self.has_turn() {
            self.finish(EndReason::NoLegalMove, None);
        }
    }

    /// Ends the game: `winner` when the rules name one, otherwise scored (the smaller
    /// shortfall under contracts, the more captures in BeSiege; equal is a draw).
    fn finish(&mut self, reason: EndReason, winner: Option<Player>) {
        let scores: Vec<f64> = self.captures.iter().map(|&c| c as f64).collect();
        let outcome = match winner {
            Some(w) => Outcome {
                scores,
                ranking: vec![w, Player(1 - w.0)],
                places: if w == Player(0) { vec![1, 2] } else { vec![2, 1] },
                reason,
                tie_broken: false,
            },
            None => {
                // Shortfall as a score (higher is better) decides under contracts.
                let key: Vec<f64> = match self.config.contracts {
                    Some(_) => {
                        (0..2).map(|s| -(self.contracts[s].saturating_sub(self.captures[s]) as f64)).collect()
                    }
                    None => scores.clone(),
                };
                let ranking = rank(&key, &self.resigned);
                let mut o = Outcome::new(key, ranking, &self.resigned, reason);
                o.scores = scores;
                o
            }
        };
        self.emit(Event::GameOver { outcome: outcome.clone() });
        self.outcome = Some(outcome);
        self.phase = Phase::Over;
        self.to_move = None;
    }

    /// Takes back the last input (terminal play): the game is replayed without it.
    pub fn undo(&mut self) -> bool {
        crate::kit::undo_last(self)
    }
}
