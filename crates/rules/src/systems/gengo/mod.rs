//! Gengo (numbered in `docs/rules/spec/gengo.md`; as implemented: `docs/rules/gengo.md`): Go
//! on a finer grid, where each stone overlaps a region that no other stone may enter and
//! connects to the stones of its colour in its neighbour region. Two players, Black first;
//! captures in two steps (the opponent's groups, then the mover's own: suicide and friendly
//! fire); the singleton-recapture ko; three passes in a row end the game; stones (or area)
//! decide.
//!
//! - `game`: the engine; [`board`]: the incremental board; [`regions`]: the region tables on
//!   any map; [`settings`]: every option; [`scoring`]: stone and area counts; `wire`: the wire
//!   form, events and the registered [`crate::RuleSystem`]; `view`: the state as JSON.

pub mod board;
mod game;
pub mod regions;
pub mod scoring;
pub mod settings;
mod view;
mod wire;

pub use self::{
    board::{Effects, GengoBoard},
    game::{Action, GengoGame, Illegal, Input},
    regions::RegionTables,
    settings::{GengoKo, GengoRules, GengoScoring, Permission, Regions, SelfCaptureOrder},
    view::{GengoPlayer, GengoState, GroupView},
};
/// Gengo's turns are a placement, a pass or resigning: the Go-board systems' shared words.
pub use crate::go_wire::{GoEvent as Event, GoMove as Move};
