//! Capture Go, the newcomer's game: the first player to capture `target` stones wins, on any
//! map, for 2 to 8 players (as implemented: `docs/rules/capture.md`).

mod game;
mod settings;
mod view;
mod wire;

pub use game::{Action, CaptureGame, Illegal, Input};
pub use settings::CaptureRules;
pub use view::{CapturePlayer, CaptureState};
pub use wire::{Event, Move};
