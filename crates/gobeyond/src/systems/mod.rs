//! How each rule system looks and reads in the terminal (`gobeyond play`).

mod classic;
mod gobeyond;
