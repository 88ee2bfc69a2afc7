//! Every effect of a Tribal Go input, in order: what logs, clients and tests read.

use gobeyond_maps::NodeId;
use serde::{Deserialize, Serialize};

use super::cards::Card;
use crate::Player;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(rename = "TribalEvent"))]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum Event {
    /// A roll of the roll-off (re-rolls among the tied follow).
    RolledOff {
        player: Player,
        dice: [u8; 2],
        total: u8,
    },
    /// The roll-off's order: start points are chosen in it, and its first moves first.
    Order {
        order: Vec<Player>,
    },
    StartChosen {
        player: Player,
        node: NodeId,
    },
    /// A Play's roll: the range is the higher die; a pair would draw a card.
    Rolled {
        player: Player,
        dice: [u8; 2],
        range: u32,
        doubles: bool,
    },
    Placed {
        player: Player,
        node: NodeId,
        handicap: bool,
    },
    /// A group removed (by `player`'s stone, or at counting when `None`), with the stones'
    /// owners and the prisoners each recipient received.
    Captured {
        player: Option<Player>,
        nodes: Vec<NodeId>,
        owners: Vec<Player>,
        shares: Vec<(Player, u32)>,
    },
    Passed {
        player: Player,
        automatic: bool,
        consecutive: u32,
    },
    Forgone {
        player: Player,
        handicap: bool,
    },
    SurrenderOffered {
        player: Player,
        to: Player,
    },
    SurrenderAccepted {
        player: Player,
        to: Player,
        previous: Option<Player>,
    },
    SurrenderDeclined {
        player: Player,
        to: Player,
    },
    Independent {
        player: Player,
        from: Player,
    },
    /// A card drawn (which one only its holder sees): on a pass, or on a pair of dice.
    Drew {
        player: Player,
        doubles: bool,
    },
    /// A card put back under the draw pile (a pass over the hand limit): face down.
    Returned {
        player: Player,
    },
    /// A card discarded face up (over the hand limit at the end of a turn).
    Discarded {
        player: Player,
        card: Card,
    },
    CardPlayed {
        player: Player,
        card: Card,
    },
    /// A stone moved by a Move card.
    Moved {
        player: Player,
        from: NodeId,
        to: NodeId,
    },
    /// A stone taken off the board by Replace Any: back to its owner's supply.
    Lifted {
        player: Player,
        node: NodeId,
    },
    /// A Trade Prisoners card: per colour, the prisoners given to `with` and taken from them.
    Traded {
        player: Player,
        with: Player,
        gave: Vec<u32>,
        took: Vec<u32>,
    },
    /// `player` rejected `mover`'s Play with `card`: everything it did is undone.
    Rejected {
        player: Player,
        mover: Player,
        card: Card,
    },
    /// Every other player let `mover`'s Play stand.
    NotRejected {
        mover: Player,
    },
    /// The player ran out of time: they pass on every turn from now on.
    TimedOut {
        player: Player,
    },
    CleanUpStarted,
    DeadChosen {
        player: Player,
        nodes: Vec<NodeId>,
    },
    /// A dead stone removed: a prisoner of `to`'s team, or back to its owner when disputed.
    DeadRemoved {
        owner: Player,
        node: NodeId,
        to: Option<Player>,
    },
    /// A team's territory, the prisoners of its colours filled into it, what is left, and the
    /// overflow each holder received.
    FilledIn {
        team: Player,
        territory: u32,
        prisoners: u32,
        left: u32,
        overflow: Vec<(Player, u32)>,
    },
    GameOver {
        ranking: Vec<Player>,
        scores: Vec<f64>,
    },
}
