//! Computer opponents for every rule system: one Monte-Carlo tree search ([`mcts`]) over the
//! [`Searchable`] extension of the rules' game trait, playout policies that work on any map
//! ([`policy`]), strength levels ([`level`]) and baseline players ([`baseline`]).
#![forbid(unsafe_code)]

pub mod baseline;
pub mod cleanup;
pub mod computer;
pub mod gengo;
pub mod ladder;
pub mod level;
pub mod mcts;
pub mod patterns;
pub mod policy;
pub mod searchable;
pub mod tribal;
pub mod way_of_go;

pub use computer::{Computer, computer_input};
pub use level::Level;
pub use mcts::{Analysis, SearchConfig, Searcher};
pub use policy::Policy;
pub use searchable::Searchable;
