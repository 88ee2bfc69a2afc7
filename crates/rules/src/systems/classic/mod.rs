//! Classic Go for 2 to 8 players on any map, with the ko, suicide, scoring and komi settings of
//! [`ClassicRules`] (as implemented: `docs/rules/classic.md`).
//!
//! - `game`: the engine; `count`: the count and the result's notation; `handicap`: games with
//!   handicap stones; `settings`: every option and the presets; [`sgf`]: SGF in and out;
//!   `wire`: the wire form, events and the registered [`crate::RuleSystem`]; `view`: the
//!   state as JSON.

mod count;
mod game;
mod handicap;
mod settings;
pub mod sgf;
mod sgf_tree;
mod view;
mod wire;

pub use count::{Count, ScoreCount, notation};
pub use game::{Action, ClassicGame, Extra, Illegal, ScoringPhase};
pub use settings::{ClassicRules, HANDICAP_KOMI, HandicapPlacement, MAX_HANDICAP, PRESETS};
pub use view::{ClassicView, PlayerState};
pub use wire::{Event, Move};
