//! The search room: Monte-Carlo tree search over any rule system ([`mcts`]), what a system
//! gives it ([`searchable`]), strength levels and the bot that plays at one ([`level`]), and
//! the baseline players ([`baseline`]). Nothing here knows a Go board.

pub mod baseline;
pub mod level;
pub mod mcts;
pub mod searchable;
mod tree;
mod worker;
