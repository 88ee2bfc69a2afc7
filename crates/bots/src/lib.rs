//! Computer opponents for every rule system, in three rooms:
//!
//! - [`search`]: one Monte-Carlo tree search ([`mcts`]) over the [`Searchable`] extension of the
//!   rules' game trait, strength levels and the bot that plays at one ([`level`]), baseline
//!   players ([`baseline`]). It knows no Go board.
//! - [`go`]: what the Go-board systems share: their search scratch, the playout policies that
//!   work on any map, ladders, learned patterns, priors, dead stones.
//! - [`systems`]: each rule system's `Searchable` and [`Computer`], the one way a computer seat
//!   decides ([`computer`]).
#![forbid(unsafe_code)]

pub mod computer;
pub mod go;
pub mod review;
pub mod search;
pub mod systems;

pub use computer::{Computer, computer_input};
pub use go::{Policy, patterns};
pub use search::{
    baseline, level,
    level::{Bot, Level, Strategy},
    mcts,
    mcts::{Analysis, SearchConfig, Searcher, TreePolicy},
    searchable,
    searchable::{Prior, Rewards, Searchable, TurnStep, rank_rewards, shared_tie_rewards},
};
