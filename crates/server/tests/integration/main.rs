//! The server's integration tests: a real server on a loopback port, real HTTP and WebSocket
//! clients, on SQLite and PostgreSQL. One test binary for them all: as 29 binaries, each
//! linking the whole server stack at the test profile's opt-level, they took most of `make test`'s
//! compile time (docs/benchmarks.md, "The test suite's time"). `memory.rs` (a counting allocator),
//! `log_secrets.rs` (a process-wide trace subscriber) and `abuse/` (it measures the process's
//! resident memory) stay binaries of their own.
#![allow(clippy::unwrap_used, clippy::expect_used)]

#[macro_use]
mod common;

mod abandoned;
mod abuse_ratings;
mod accounts_and_access;
mod api;
mod backup;
mod classic;
mod clocks;
mod endings;
mod faults;
mod gengo;
mod lists;
mod lobby_and_rematch;
mod mail;
mod metrics;
mod moderation;
mod ratings;
mod review_caps;
mod review_tree;
mod reviews;
mod social;
mod tournament_formats;
mod tournament_records;
mod tournaments;
mod tournaments_formats;
mod tournaments_runs;
mod tribal;
mod undo;
mod way_of_go;
mod web_assets;
