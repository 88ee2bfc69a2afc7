//! The Go-board room: what the systems that play on a Go board (classic Go, GoBeyond) share —
//! the search thread's [`Scratch`], the playout policies ([`policy`], one file each), ladder
//! reading, the learned move patterns, the priors, the score bonus and dead-stone estimates.
//! Everything works on any map.

pub mod dead_stones;
pub mod ladder;
pub mod patterns;
pub mod policy;
pub mod priors;
mod rewards;
mod scratch;

pub use policy::Policy;
pub use rewards::with_margin;
pub use scratch::Scratch;
