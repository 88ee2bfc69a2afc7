//! What a table costs in memory, estimated from what it holds: the server keeps its tables
//! within a byte budget ([`crate::limit::Limits::games_bytes`]), not only a count (2,000 games
//! on the largest custom map once asked for 5.8 GiB). The map is shared between the games of
//! one map and counted once (`Hub::bytes_in`). The constants are calibrated by
//! `crates/server/tests/memory/estimates.rs`, which measures real tables' allocations against them.

/// A table's own bytes (its map aside): the engine's state (`state_bytes_per_node` a node, as
/// its rule system declares, and its events, measured by their JSON), the log as text, and the
/// broadcasts kept for watchers that fall behind.
pub fn own_bytes(
    nodes: usize,
    state_bytes_per_node: usize,
    log_bytes: usize,
    actions: usize,
    events_json: usize,
) -> u64 {
    const BASE: u64 = 64 * 1024;
    const PER_ACTION: u64 = 48 * 8;
    BASE + (state_bytes_per_node * nodes) as u64
        + 3 * log_bytes as u64
        + PER_ACTION * actions as u64
        + 2 * events_json as u64
}

/// What a table about to load is counted as until it has loaded: the largest game a server
/// allows, so that simultaneous loads cannot pass the budget together.
pub fn loading_bytes() -> u64 {
    let most = gobeyond_rules::registry::SYSTEMS.iter().map(|s| s.state_bytes_per_node).max().unwrap_or(0);
    own_bytes(crate::setup::MAX_NODES, most, 0, 0, 0)
}
