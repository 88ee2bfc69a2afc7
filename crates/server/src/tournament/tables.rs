//! The game of each table.
