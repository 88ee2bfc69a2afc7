//! The wire words of the systems whose every turn is a placement on the Go board, a pass or
//! resigning (Gengo, Capture Go): one move type and one event type that such a system uses as
//! its `Move` and `Event` instead of declaring the same again. Systems with more to say
//! (classic Go's dead stones, GoBeyond's Skip and Clean-Up) keep their own.

use gobeyond_maps::{Map, NodeId};
use serde::{Deserialize, Serialize};

use crate::{Outcome, Player, system::node_ref};

/// What a seat sends (and what records keep). A placement names its node by number (`node`),
/// by label (`at`) or both; written records carry both.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum GoMove {
    Place {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        node: Option<u64>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        at: Option<String>,
    },
    Pass,
    Resign,
    /// The player's time ran out (sent by the clock).
    Timeout,
}

impl GoMove {
    /// A placement on `node`, with its label.
    pub fn place(map: &Map, node: NodeId) -> GoMove {
        let (node, at) = node_ref(map, node);
        GoMove::Place { node, at }
    }
}

/// Every effect of such a game.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(tag = "event", rename_all = "snake_case", deny_unknown_fields)]
pub enum GoEvent {
    Placed {
        player: Player,
        node: NodeId,
    },
    /// `player`'s placement removed `nodes` of `owner` (the mover's own too, where the system
    /// allows suicide or friendly fire).
    Captured {
        player: Player,
        owner: Player,
        nodes: Vec<NodeId>,
    },
    Passed {
        player: Player,
        consecutive: u32,
    },
    Resigned {
        player: Player,
    },
    TimedOut {
        player: Player,
    },
    GameOver {
        outcome: Outcome,
    },
}
