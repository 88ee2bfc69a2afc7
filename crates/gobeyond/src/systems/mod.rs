//! What each rule system brings to the program: how it looks and reads in the terminal
//! (`gobeyond play`), and for classic Go the Go programs' protocol (GTP) and matches between
//! GTP engines.

mod capture;
pub mod classic;
mod gengo;
mod gobeyond;
mod tribal;
mod way_of_go;
