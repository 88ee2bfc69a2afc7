//! The GoBeyond rules engine.
//!
//! - [`Board`]: stones, groups, liberties and Zobrist hashing on any [`gobeyond_maps::Map`], for
//!   2 to 8 players; the fast core every rule system and every playout uses.
//! - [`Game`]: the trait each rule system implements, for bots and servers.
//! - [`ClassicGame`]: classic Go with the settings of [`ClassicRules`] (presets `chinese`,
//!   `japanese`, `tromp-taylor`, ...).
//! - [`GoBeyondGame`]: the GoBeyond rules (PlayPoints, Reserved nodes, Clean-Up) with the
//!   settings of [`GoBeyondRules`]; every effect is a [`gobeyond::Event`].
//! - [`regions`]: empty regions, ownership, area and territory counts.
//! - [`record`] and [`sgf`]: game records in JSON, and SGF for two-player rectangular games.
//! - [`playout`]: light random playouts (benchmarks and bots).
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

pub mod board;
pub mod classic;
mod game;
pub mod gobeyond;
mod player;
pub mod playout;
pub mod record;
pub mod regions;
mod rng;
pub mod settings;
pub mod sgf;
pub mod zobrist;

pub use board::{Board, SuicideRule};
pub use classic::ClassicGame;
pub use game::{EndReason, Game, Outcome, rank};
pub use gobeyond::{GoBeyondGame, GoBeyondRules};
pub use player::{MAX_PLAYERS, Player};
pub use rng::Rng;
pub use settings::{ClassicRules, KoRule, Scoring};
