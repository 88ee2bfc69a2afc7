//! The GoBeyond rules engine.
//!
//! The core, shared by the rule systems:
//! - [`Board`]: stones, groups, liberties and Zobrist hashing on any [`gobeyond_maps::Map`], for
//!   2 to 8 players; the fast core the Go-board systems and their playouts use.
//! - [`Game`] (what search needs) and [`RuleSystem`] (what servers, records and interfaces
//!   need): the traits each rule system implements.
//! - [`registry`]: the one list of systems; [`AnyGame`] and [`dispatch!`] for "a game of any
//!   system".
//! - [`setup`]: checked setup stones and handicap points; [`regions`]: empty regions,
//!   ownership, area and territory; [`playout`]: light random playouts.
//! - [`record`]: the JSON record format (each system brings its own inputs and settings).
//!
//! The systems, one folder each under `systems/`:
//! - [`ClassicGame`]: classic Go with the settings of [`ClassicRules`] (presets `chinese`,
//!   `japanese`, `tromp-taylor`, ...), and SGF ([`sgf`]).
//! - [`GengoGame`]: Gengo, Go on a finer grid with overlap and neighbour regions ([`GengoRules`]).
//! - [`GoBeyondGame`]: the GoBeyond rules (PlayPoints, Reserved nodes, Clean-Up) with the
//!   settings of [`GoBeyondRules`]; every effect is a [`gobeyond::Event`].
//! - [`TribalGame`]: Tribal multiplayer Go, 2 to 8 tribes placing within a range of their stones
//!   (dice, or a fixed range in the Pro variant), shared spoils, alliances and the cards of the
//!   casual game, with hidden hands ([`TribalRules`]).
//! - [`WayOfGoGame`] and [`BesiegeGame`]: The Way of Go and BeSiege, stones that move along
//!   the map's lines as far as their group has liberties (one engine, [`way_of_go`]).
//! - [`CaptureGame`]: Capture Go, the newcomer's game: the first to capture wins
//!   ([`CaptureRules`]).
//!
//! ```
//! use std::sync::Arc;
//! use gobeyond_rules::{classic::Action, ClassicGame, ClassicRules, Game};
//!
//! let map = Arc::new(gobeyond_maps::generate("square:9").unwrap());
//! let mut game = ClassicGame::new(map.clone(), 2, ClassicRules::default()).unwrap();
//! let e5 = map.node_by_label("E5").unwrap();
//! game.play(Action::Place(e5)).unwrap();
//! // Playing on the same node again is refused with a reason, and nothing changes.
//! assert!(game.play(Action::Place(e5)).is_err());
//! assert_eq!(game.moves().len(), 1);
//! ```
#![forbid(unsafe_code)]

/// `Clone` for a game whose `clone_from` reuses every buffer: search copies a position once per
/// simulation, and that must not allocate. A field left out of the list does not compile.
macro_rules! clone_reusing {
    ($t:ident { $($f:ident),* $(,)? }) => {
        impl Clone for $t {
            fn clone(&self) -> Self {
                $t { $($f: self.$f.clone()),* }
            }

            fn clone_from(&mut self, other: &Self) {
                $(self.$f.clone_from(&other.$f);)*
            }
        }
    };
}

pub mod board;
mod game;
pub mod go_wire;
pub mod kit;
mod player;
pub mod playout;
// First: its `dispatch!`, generated from the list, is used by the modules after it.
#[macro_use]
pub mod registry;
pub mod record;
pub mod regions;
mod rng;
pub mod settings;
pub mod setup;
pub mod system;
pub mod systems;
pub mod tree;
#[cfg(feature = "ts")]
pub mod typescript;
mod wire;
pub mod zobrist;

pub use board::{Board, SuicideRule};
pub use game::{EndReason, Game, Outcome, rank};
pub use player::{MAX_PLAYERS, Player, PlayerInfo};
pub use registry::{AnyGame, RulesSpec, SYSTEMS, SystemInfo};
pub use rng::Rng;
pub use settings::{KoRule, Scoring};
pub use system::{Refusal, RuleSystem, Turn, Viewer};
pub use systems::{
    capture::{self, CaptureGame, CaptureRules},
    classic::{self, ClassicGame, ClassicRules, sgf},
    gengo::{self, GengoGame, GengoRules},
    gobeyond::{self, GoBeyondGame, GoBeyondRules},
    tribal::{self, TribalGame, TribalRules},
    way_of_go::{self, BesiegeGame, BesiegeRules, WayOfGoGame, WayOfGoRules},
};
