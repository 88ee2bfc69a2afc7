//! What a game of any system answers, each method dispatched to the game's own system (the
//! registry's `dispatch!`): what the server, records, the terminal and the fuzzer ask of a
//! game without knowing its system.

use std::sync::Arc;

use gobeyond_maps::Map;
use serde::Serialize;
use serde_json::{Value, value::RawValue};

use super::{AnyGame, Object, RulesSpec, to_object};
use crate::{
    Outcome, Player, PlayerInfo,
    system::{Refusal, RuleSystem, Start, Turn, TurnClock, Viewer},
};

fn raw<T: Serialize + ?Sized>(value: &T) -> Box<RawValue> {
    serde_json::value::to_raw_value(value)
        .unwrap_or_else(|_| serde_json::value::to_raw_value(&Value::Null).unwrap_or_default())
}

impl AnyGame {
    /// The system's name.
    pub fn system(&self) -> &'static str {
        fn name<S: RuleSystem>(_: &S) -> &'static str {
            S::NAME
        }
        dispatch!(self, g => name(g))
    }

    pub fn map(&self) -> &Arc<Map> {
        dispatch!(self, g => crate::Game::map(g))
    }

    pub fn player_count(&self) -> usize {
        dispatch!(self, g => crate::Game::player_count(g))
    }

    /// The result in the system's notation (classic Go's `W+8.5`), once the game is over.
    pub fn result_notation(&self) -> Option<String> {
        let info = super::SystemInfo::get(self.system())?;
        info.result_notation(self.outcome()?, self.player_count())
    }

    pub fn outcome(&self) -> Option<&Outcome> {
        dispatch!(self, g => crate::Game::outcome(g))
    }

    pub fn turn(&self) -> Turn {
        dispatch!(self, g => RuleSystem::turn(g))
    }

    /// The seats that may act now (empty once the game is over).
    pub fn waiting_for(&self) -> Vec<Player> {
        self.turn().seats
    }

    pub fn rules(&self) -> RulesSpec {
        fn spec<S: RuleSystem>(g: &S) -> RulesSpec {
            RulesSpec { system: S::NAME.to_string(), settings: to_object(g.settings()) }
        }
        dispatch!(self, g => spec(g))
    }

    /// The system's own clock, if its settings define one.
    pub fn clock(&self) -> Option<TurnClock> {
        fn clock<S: RuleSystem>(g: &S) -> Option<TurnClock> {
            S::clock(g.settings())
        }
        dispatch!(self, g => clock(g))
    }

    pub fn start_position(&self) -> Start {
        dispatch!(self, g => g.start_position())
    }

    /// Plays one input in wire form, checked: a refusal leaves the game unchanged.
    pub fn submit(&mut self, seat: Player, input: &Object) -> Result<(), Refusal> {
        fn submit<S: RuleSystem>(g: &mut S, seat: Player, input: &Object) -> Result<(), Refusal> {
            if seat.index() >= crate::Game::player_count(g) {
                return Err(Refusal::new("unknown_player", format!("there is no player {}", seat.0)));
            }
            let m: S::Move = serde_json::from_value(Value::Object(input.clone())).map_err(|e| {
                let text = e.to_string();
                let kind = input.get("type").and_then(Value::as_str).unwrap_or_default();
                let message = match text.split_once("expected one of ") {
                    Some((_, known)) if text.starts_with("unknown variant") => {
                        format!("{} has no {kind:?} action (it has {known})", S::TITLE)
                    }
                    _ => format!("not a {} action: {text}", S::TITLE),
                };
                Refusal::new("bad_action", message)
            })?;
            g.submit(seat, &m)
        }
        dispatch!(self, g => submit(g, seat, input))
    }

    /// Seats whose decision a computer makes for them (their player is gone).
    pub fn decided_for(&self) -> Vec<Player> {
        dispatch!(self, g => RuleSystem::decided_for(g))
    }

    /// The system's time for the decision now, in ms (see [`RuleSystem::decision_seconds`]).
    pub fn decision_ms(&self) -> Option<i64> {
        dispatch!(self, g => RuleSystem::decision_seconds(g)).map(|s| (s * 1000.0) as i64)
    }

    /// The system's window now, in ms (see [`RuleSystem::window_seconds`]).
    pub fn window_ms(&self) -> Option<i64> {
        dispatch!(self, g => RuleSystem::window_seconds(g)).map(|s| (s * 1000.0) as i64)
    }

    /// Whether a computer seat keeps `input` to itself (see [`RuleSystem::left_to_the_window`]);
    /// an input the system cannot read is sent (and refused there).
    pub fn left_to_the_window(&self, input: &Object) -> bool {
        fn left<S: RuleSystem>(g: &S, input: &Object) -> bool {
            serde_json::from_value::<S::Move>(Value::Object(input.clone()))
                .is_ok_and(|m| g.left_to_the_window(&m))
        }
        dispatch!(self, g => left(g, input))
    }

    /// The seats waiting, as every viewer may be told (see [`RuleSystem::public_seats`]).
    pub fn public_waiting_for(&self) -> Vec<Player> {
        dispatch!(self, g => RuleSystem::public_seats(g))
    }

    /// The seats waiting, as `viewer` may be told: the public list, less the viewer's own seat
    /// once it has answered (its own answer is no secret to it).
    pub fn waiting_for_viewer(&self, viewer: Viewer) -> Vec<Player> {
        let mut seats = self.public_waiting_for();
        if let Viewer::Seat(me) = viewer
            && !self.turn().seats.contains(&me)
        {
            seats.retain(|&p| p != me);
        }
        seats
    }

    /// `seat`'s input as `viewer` may see it: hidden parts (a drawn card, a secret answer) left
    /// out. None: unchanged.
    pub fn redact(&self, seat: Player, input: &Object, viewer: Viewer) -> Option<Object> {
        fn redact<S: RuleSystem>(g: &S, seat: Player, input: &Object, viewer: Viewer) -> Option<Object> {
            let m: S::Move = serde_json::from_value(Value::Object(input.clone())).ok()?;
            g.redact(seat, &m, viewer).map(|m| to_object(&m))
        }
        if !self.hidden_information() {
            return None;
        }
        dispatch!(self, g => redact(g, seat, input, viewer))
    }

    /// Whether a seat may send this input itself (time-outs and chance are the server's).
    pub fn seat_may_send(&self, input: &Object) -> bool {
        fn may<S: RuleSystem>(_: &S, input: &Object) -> bool {
            serde_json::from_value::<S::Move>(Value::Object(input.clone()))
                .map_or(true, |m| S::seat_may_send(&m))
        }
        dispatch!(self, g => may(g, input))
    }

    /// What the clock plays for `seat`.
    pub fn timeout_input(&self, seat: Player) -> Object {
        dispatch!(self, g => to_object(&g.timeout_move(seat)))
    }

    /// The mildest input for a computer seat that could not decide.
    pub fn fallback_input(&self, seat: Player) -> Object {
        dispatch!(self, g => to_object(&g.fallback_move(seat)))
    }

    /// An input for `seat` to try, in wire form (fuzzing, tests): mostly one of the legal
    /// actions of the player to move, else what the clock or a failed computer would send.
    pub fn sample_input(&self, seat: Player, rng: &mut crate::Rng) -> Object {
        fn sample<S: RuleSystem>(g: &S, seat: Player, rng: &mut crate::Rng) -> Object {
            let mut actions = Vec::new();
            if crate::Game::to_move(g) == Some(seat) {
                crate::Game::legal_actions(g, &mut actions);
            }
            match rng.below(8) {
                0 => to_object(&g.timeout_move(seat)),
                _ if !actions.is_empty() => {
                    to_object(&g.to_wire(actions[rng.below(actions.len() as u32) as usize]))
                }
                _ => to_object(&g.fallback_move(seat)),
            }
        }
        dispatch!(self, g => sample(g, seat, rng))
    }

    /// The pending chance event drawn with `rng`, with the seat it belongs to.
    pub fn draw_chance(&self, rng: &mut crate::Rng) -> Option<(Player, Object)> {
        let seat = self.turn().chance?;
        dispatch!(self, g => g.draw_chance(rng).map(|m| (seat, to_object(&m))))
    }

    /// How many inputs have been played.
    pub fn input_count(&self) -> usize {
        dispatch!(self, g => g.input_count())
    }

    /// Input `i` (from 0) in wire form, nodes with both number and label.
    pub fn input(&self, i: usize) -> Option<(Player, Object)> {
        dispatch!(self, g => g.input(i).map(|(p, m)| (p, to_object(&m))))
    }

    pub fn event_count(&self) -> usize {
        dispatch!(self, g => g.events().len())
    }

    /// Events from `from` on, as one JSON array.
    pub fn events_json(&self, from: usize) -> Box<RawValue> {
        dispatch!(self, g => raw(g.events().get(from..).unwrap_or_default()))
    }

    /// Every event so far, as JSON values (records).
    pub fn events(&self) -> Vec<Value> {
        dispatch!(self, g => g.events().iter().map(|e| serde_json::to_value(e).unwrap_or_default()).collect())
    }

    /// Whether seats see different states (then each gets its own view).
    pub fn hidden_information(&self) -> bool {
        dispatch!(self, g => g.hidden_information())
    }

    /// The state as `viewer` sees it; `history` adds every event so far.
    pub fn view(&self, viewer: Viewer, names: &[PlayerInfo], history: bool) -> Box<RawValue> {
        dispatch!(self, g => raw(&g.view(viewer, names, history)))
    }

    /// The state as pretty JSON (`gobeyond replay`).
    pub fn state_json(&self, names: &[PlayerInfo]) -> String {
        dispatch!(self, g => serde_json::to_string_pretty(&g.view(Viewer::Spectator, names, true)).unwrap_or_default())
    }

    /// The game in SGF, for systems SGF describes.
    pub fn sgf(&self, players: &[PlayerInfo], date: Option<&str>) -> Result<String, String> {
        let name = self.system();
        dispatch!(self, g => g.sgf(players, date))
            .unwrap_or_else(|| Err(format!("SGF cannot describe {name} games: use the JSON record")))
    }
}
