//! The Way of Go and BeSiege (numbered in `docs/rules/spec/way-of-go.md` and
//! `docs/rules/spec/besiege.md`; as implemented: `docs/rules/way-of-go.md` and
//! `docs/rules/besiege.md`): stones that move along straight lines exactly as far as their
//! group has liberties, capture by landing on an enemy and sacrifice themselves doing it. One
//! engine plays both: BeSiege is The Way of Go with drops only on neutral points, stacks, and no
//! contract ([`Config`]).
//!
//! A turn is a sequence of small actions by one player (drop; move then drop; drop then move
//! or end; a capture alone), so that search and the interfaces share them. The pie opens the
//! game: seat 0 places two Black stones and one White, seat 1 chooses a colour, White moves.
//!
//! - `game`: the engine's state; `actions`: actions, inputs, phases, reasons an action is
//!   illegal; `legality`: what the player to move may do; `turns`: playing an action, the end
//!   of a turn and of the game; [`board`]: stacks, level-groups, ranges, lines; [`settings`]: both
//!   rule sets' settings; `wire`: the wire form, events and the registered systems; `view`:
//!   the state as JSON.

mod actions;
pub mod board;
mod from_scratch;
mod game;
mod legality;
mod reach;
pub mod settings;
mod turns;
mod view;
mod wire;

pub use self::{
    actions::{Action, Illegal, Input, Phase},
    board::{Colour, Landing, StackBoard, Step},
    game::{BesiegeGame, WayGame, WayOfGoGame},
    settings::{BesiegeRules, Config, WayOfGoRules},
    view::{WayMoveView, WayPlayer, WayState},
    wire::{Besiege, Event, Move, Variant, WayOfGo},
};
