//! Capture Go, the newcomer's game: the first player to capture `target` stones wins, on any
//! map, for 2 to 8 players (as implemented: `docs/rules/capture.md`).

mod game;
mod settings;
mod view;
mod wire;

/// Capture Go's turns are a placement, a pass or resigning: the Go-board systems' shared words.
pub use crate::go_wire::{GoEvent as Event, GoMove as Move};
pub use game::{Action, CaptureGame, Illegal, Input};
pub use settings::CaptureRules;
pub use view::{CapturePlayer, CaptureState};
