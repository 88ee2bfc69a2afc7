//! The small actions of a turn in The Way of Go and BeSiege, the inputs a record keeps, where a
//! turn stands, and why an action is illegal (each reason names what was wrong).

use gobeyond_maps::{Direction, Map, NodeId};

use super::Colour;

/// One small action of the player to move.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Action {
    /// One of the pie's three stones (two Black, one White), by seat 0.
    PieStone {
        node: NodeId,
        colour: Colour,
    },
    /// Seat 1 takes a colour; seat 0 gets the other.
    ChooseSide(Colour),
    /// A stone of the mover's colour on an empty node.
    Drop(NodeId),
    /// The top `count` stones of `from` along direction `dir` to `to`.
    Move {
        from: NodeId,
        count: u8,
        dir: Direction,
        to: NodeId,
    },
    /// Ends a turn after a drop, without the optional move.
    EndTurn,
    /// Only when no turn is possible (The Way of Go; an engine addition, A6).
    Pass,
    Resign,
}

/// One input: an action of a seat, or its clock running out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Input {
    Act(Action),
    Timeout,
}

/// Where a turn stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Phase {
    /// Seat 0 places the pie's stones (`black` and `white` placed so far).
    Pie {
        black: u8,
        white: u8,
    },
    /// Seat 1 chooses a colour.
    Choose,
    /// The start of a turn: drop, move, or capture.
    Start,
    /// After a non-capturing move: the drop must follow.
    AfterMove,
    /// After a drop: a non-capturing move of another piece, or the end of the turn.
    AfterDrop {
        dropped: NodeId,
    },
    Over,
}

/// Why an action was refused. The game is unchanged.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error, strum::IntoStaticStr)]
#[strum(serialize_all = "snake_case")]
pub enum Illegal {
    #[error("node {node} is not on the map")]
    UnknownNode { node: u64 },
    #[error("node {node} is not empty")]
    Occupied { node: NodeId },
    #[error("node {node} is attacked (drops go on neutral points)")]
    NotNeutral { node: NodeId },
    #[error("the pie has its stones of that colour")]
    PieColour { colour: Colour },
    #[error("node {node} holds no stone of the mover")]
    NotYours { node: NodeId },
    #[error("the stack on {node} has {height} stones, not {count}")]
    #[strum(serialize = "bad_count")]
    Count { node: NodeId, count: u8, height: u8 },
    #[error("the group at {node} has no liberties")]
    NoRange { node: NodeId },
    #[error("no move of range {range} from {from} ends on {to}")]
    NotInRange { from: NodeId, to: NodeId, range: u32 },
    #[error("{to} holds an own piece")]
    OwnPiece { to: NodeId },
    #[error("a capture is a whole turn")]
    CaptureNotNow { to: NodeId },
    #[error("the dropped piece may not move this turn")]
    DroppedPiece { node: NodeId },
    #[error("no drop would be possible after this move")]
    NoDropAfter { from: NodeId, to: NodeId },
    #[error("that action does not fit this point of the turn")]
    WrongStep { expected: &'static str },
    #[error("a pass is only allowed with no possible turn")]
    PassNotForced,
    #[error("it is not player {player}'s turn")]
    NotYourTurn { player: u8 },
    #[error("the game is over")]
    GameOver,
}

impl Illegal {
    /// A sentence for people, with node labels.
    pub fn describe(&self, map: &Map) -> String {
        let l = |n: NodeId| map.label(n).to_string();
        match *self {
            Illegal::UnknownNode { node } => format!("node {node} is not on this map ({} nodes)", map.len()),
            Illegal::Occupied { node } => format!("{} is not empty", l(node)),
            Illegal::NotNeutral { node } => {
                format!("{} is attacked (a stack could move there): drops go only on neutral points", l(node))
            }
            Illegal::PieColour { colour } => {
                format!(
                    "the pie already has its {} stone{}",
                    colour.name(),
                    if colour == Colour::Black { "s" } else { "" }
                )
            }
            Illegal::NotYours { node } => format!("{} holds none of your stones", l(node)),
            Illegal::Count { node, count, height } => {
                format!("the stack on {} has {height} stone(s): {count} cannot be lifted", l(node))
            }
            Illegal::NoRange { node } => {
                format!("the group of {} has no liberties, so it cannot move", l(node))
            }
            Illegal::NotInRange { from, to, range } => format!(
                "{} moves exactly {range} step(s) along a line, and none of those ends on {}",
                l(from),
                l(to)
            ),
            Illegal::OwnPiece { to } => format!("{} holds your own piece: one cannot capture it", l(to)),
            Illegal::CaptureNotNow { to } => format!(
                "landing on {} would capture, and a capture must be the whole turn (no drop before or after)",
                l(to)
            ),
            Illegal::DroppedPiece { node } => {
                format!("{} was just dropped: the move after a drop is of a different piece", l(node))
            }
            Illegal::NoDropAfter { from, to } => format!(
                "after {}–{} no neutral point would be left for the drop that must follow",
                l(from),
                l(to)
            ),
            Illegal::WrongStep { expected } => format!("now {expected}"),
            Illegal::PassNotForced => "a pass is only allowed when no turn is possible".into(),
            Illegal::NotYourTurn { player } => format!("it is not seat {player}'s turn"),
            Illegal::GameOver => "the game is over".into(),
        }
    }
}
