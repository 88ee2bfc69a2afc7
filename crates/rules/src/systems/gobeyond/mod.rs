//! GoBeyond, the flagship rule system (as implemented: `docs/rules/gobeyond.md`).
//!
//! Players spend PlayPoints to occupy nodes and earn them by capturing stones and by claiming empty
//! regions: income at the start of each turn, a final bonus at the end. Each turn runs the four
//! phases of the document's "A turn": (1) the player's reservation ends, (2) income, (3) one
//! action: Occupy, Skip, Pass or Resign (a timeout is a Skip), (4) effects: captures of every
//! opponent group left without liberties, claims recomputed, and the Reserved-node rule, GoBeyond's
//! answer to ko. N + 1 passes in a row end play; then Clean-Up (each player surrenders doomed
//! stones), the final bonus and a full ranking. Every effect is an [`Event`].
//!
//! - `game`: the engine; `cleanup`: Clean-Up and the final bonus; `event`: every effect;
//!   `settings`: every option; `wire`: the wire form and the registered [`crate::RuleSystem`];
//!   `view`: the state as JSON.
//!
//! ```
//! use std::sync::Arc;
//! use gobeyond_rules::gobeyond::{Action, GoBeyondGame, GoBeyondRules};
//! use gobeyond_rules::{Game, Player};
//!
//! let map = Arc::new(gobeyond_maps::generate("hex:3").unwrap());
//! let mut game = GoBeyondGame::new(map.clone(), 3, GoBeyondRules::default()).unwrap();
//! game.play(Action::Occupy(0)).unwrap();
//! assert_eq!(game.points(Player(0)), 190); // 200 to start, 10 to occupy
//! assert!(game.play(Action::Occupy(0)).is_err()); // occupied: refused, nothing changes
//! ```

mod cleanup;
mod event;
mod game;
mod settings;
mod view;
mod wire;

pub use event::{ClaimChange, Event};
pub use game::{Action, GoBeyondGame, Illegal, Input, Phase};
pub use settings::{GoBeyondRules, SettingsError};
pub use view::{GoBeyondPlayer, GoBeyondState, NodeState};
pub use wire::Move;
