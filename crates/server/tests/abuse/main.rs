//! The abuse suites (issue 40): what once hurt the server, sent again and refused. They measure
//! the process's resident memory ("grew the server by N MiB"), so they run in a binary of their
//! own: in the one integration binary, whatever test ran beside them (a bot's search tree) grew
//! the same process. Their servers share this process only with each other.
#![allow(clippy::unwrap_used, clippy::expect_used)]

#[path = "../integration/common/mod.rs"]
#[macro_use]
mod common;

mod abuse;
mod abuse_accounts;
