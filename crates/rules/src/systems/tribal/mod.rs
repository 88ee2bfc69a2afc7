//! Tribal multiplayer Go (numbered in `docs/rules/spec/tribal.md`; as implemented, with every
//! interpretation: `docs/rules/tribal.md`): 2 to 8 tribes, stones placed within a range of the
//! player's start point or stones (the higher of two dice, or a fixed range in the Pro variant),
//! captured groups shared among every player touching them, alliances by surrender, handicap
//! from history, and the end by passes, a Clean-Up and prisoners filled into territory.
//!
//! The board is kept as an owner per node; groups are formed by *team* (a faction and those it
//! occupies), so allied stones group together and never capture each other, and a group may sit
//! without liberties after an alliance changes (rule 57 of the spec): no invariant of the Go
//! board holds, so this system has its own small board.
//!
//! The cards (`cards.rs`, `card_play.rs`) hide information: each seat sees its own hand, and the
//! server's draws are inputs that only their drawer is shown.
//!
//! - `game`: the engine; `board`: the owner-per-node board; `team_board`: its groups, liberties
//!   and ranges kept up to date for the search; `alliance`: surrenders and teams;
//!   [`cards`]: the cards and the deck; `card_play`: draws, each card's effect and the reaction
//!   window; `scoring`: the end and the score; [`settings`]: every option and the handicap;
//!   `event`: every effect; `wire`: the wire form and the registered [`crate::RuleSystem`];
//!   [`view`]: each seat's view as JSON.

mod alliance;
mod board;
mod card_play;
pub mod cards;
mod event;
mod game;
mod inputs;
mod range_counts;
mod reaction;
mod scoring;
pub mod settings;
mod spoils;
mod team_board;
#[cfg(test)]
mod team_board_tests;
mod turns;
pub mod view;
mod wire;

pub use card_play::{CardPlay, HAND_LIMIT};
pub use cards::Card;
pub use event::Event;
pub use game::{Action, Illegal, Input, Phase, Reaction, Roll, TribalGame};
pub use settings::{RangeRule, TribalKo, TribalRules, handicap_order, handicap_value};
pub use view::TribalState;
pub use wire::{Answer, Move};
