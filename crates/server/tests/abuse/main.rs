//! The abuse suites (issues 15 and 40): what once hurt the server, sent again and refused. They measure
//! the process's resident memory ("grew the server by N MiB"), so they run in a binary of their
//! own: in the one integration binary, whatever test ran beside them (a bot's search tree) grew
//! the same process. Their servers share this process only with each other.
#![allow(clippy::unwrap_used, clippy::expect_used)]

#[path = "../integration/common/mod.rs"]
#[macro_use]
mod common;

// Each sends what once hurt the server, on loopback only, and checks that it is refused or
// bounded and that the server still answers its health check with its memory under the ceiling.
mod abuse_accounts;
mod bot_games;
mod connections;
mod memory;
mod requests;

use common::{TestServer, sqlite_url};
use gobeyond_server::limit::Limits;
use serde_json::Value;

/// Resident memory the debug-build test server may reach in any of these tests.
const MEMORY_CEILING: u64 = 600 * 1024 * 1024;

/// A server on SQLite (none of this depends on the database) with these limits.
async fn start(limits: Limits) -> TestServer {
    TestServer::start_with(&sqlite_url(), "127.0.0.1:0".parse().unwrap(), limits).await
}

/// The health check, on a fresh connection: answers, and memory is under the ceiling.
async fn healthy(server: &TestServer) -> Value {
    let health = server.health().await;
    let rss = health["rss_bytes"].as_u64().unwrap_or(0);
    assert!(rss < MEMORY_CEILING, "the server uses {} MiB", rss >> 20);
    health
}
