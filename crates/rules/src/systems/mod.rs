//! The rule systems, one folder each. Each implements [`crate::system::RuleSystem`] and is
//! listed once in [`crate::registry`].

pub mod capture;
pub mod classic;
pub mod gengo;
pub mod gobeyond;
pub mod tribal;
pub mod way_of_go;
