//! Each rule system's bot: its `Searchable` (scratch, playouts, priors, rewards) and its
//! `Computer` (what its seats send), with the knowledge they share in the system's file.

pub mod capture;
pub mod classic;
pub mod gengo;
pub mod gobeyond;
pub mod tribal;
pub mod way_of_go;
