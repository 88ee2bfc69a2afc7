//! Map generators, one topology family per module. Each returns a validated [`crate::Map`].

pub mod cube;
pub mod goldberg;
pub mod grid;
pub mod hex;
pub mod ndgrid;
pub mod random;
