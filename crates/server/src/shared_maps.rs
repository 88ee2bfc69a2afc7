//! Maps shared between the games that use them. A game on the largest custom map once cost
//! about 3 MiB, most of it the map twice over (as sent and as built); every table of one map
//! now holds the same two copies. Entries are weak: a map leaves memory with its last game.

use std::{
    collections::HashMap,
    sync::{Arc, LazyLock, Mutex, Weak},
};

use gobeyond_maps::Map;
use gobeyond_rules::record::MapSource;
use sha2::{Digest, Sha256};

use crate::error::ApiError;

type Key = [u8; 32];

#[derive(Default)]
struct Entries {
    /// Each map as sent and as built.
    maps: HashMap<Key, (Weak<MapSource>, Weak<Map>)>,
    /// Live entries after the last clean-up: the table is cleaned when it doubles.
    live_after_clean: usize,
}

static SHARED: LazyLock<Mutex<Entries>> = LazyLock::new(Mutex::default);

/// What identifies a map source: its spec, or a digest of the whole custom map.
fn key_of(source: &MapSource) -> Result<Key, ApiError> {
    let mut hash = Sha256::new();
    match source {
        MapSource::Spec(spec) => {
            hash.update(b"spec:");
            hash.update(spec.as_bytes());
        }
        MapSource::Custom(custom) => {
            hash.update(b"custom:");
            let text = serde_json::to_vec(custom).map_err(|e| ApiError::Internal(e.to_string()))?;
            hash.update(&text);
        }
    }
    Ok(hash.finalize().into())
}

fn lock() -> std::sync::MutexGuard<'static, Entries> {
    SHARED.lock().unwrap_or_else(|e| e.into_inner())
}

/// The shared copy of `source` (the same one every game of this map holds) and its built map,
/// building the map when no game holds it. Map generation is CPU work: call it off the async
/// workers.
pub fn share(source: Arc<MapSource>) -> Result<(Arc<MapSource>, Arc<Map>), ApiError> {
    let key = key_of(&source)?;
    if let Some((s, m)) = lock().maps.get(&key)
        && let (Some(s), Some(m)) = (s.upgrade(), m.upgrade())
    {
        return Ok((s, m));
    }
    let map = Arc::new(source.load().map_err(|e| ApiError::BadRequest(e.to_string()))?);
    let mut entries = lock();
    // Another load may have built it meanwhile: keep the first.
    if let Some((s, m)) = entries.maps.get(&key)
        && let (Some(s), Some(m)) = (s.upgrade(), m.upgrade())
    {
        return Ok((s, m));
    }
    entries.maps.insert(key, (Arc::downgrade(&source), Arc::downgrade(&map)));
    if entries.maps.len() > 2 * entries.live_after_clean.max(64) {
        entries.maps.retain(|_, (s, m)| s.strong_count() > 0 && m.strong_count() > 0);
        entries.live_after_clean = entries.maps.len();
    }
    Ok((source, map))
}

/// Estimated heap bytes of a map as sent and as built (calibrated by the memory test,
/// `crates/server/tests/memory/estimates.rs`).
pub fn map_bytes(source: &MapSource, map: &Map) -> u64 {
    let nodes = map.len() as u64;
    let edges = (0..map.len() as u32).map(|n| map.neighbors(n).len() as u64).sum::<u64>();
    let labels = (0..map.len() as u32).map(|n| map.label(n).len() as u64).sum::<u64>();
    // A map with lines builds its table of walks when a game first walks one (The Way of Go,
    // BeSiege).
    let walks = map.lines().map_or(0, |l| l.walk_table_bytes()) as u64;
    // A Tribal Go game builds the map's balls when it starts (its range counts).
    let balls = map.built_balls().map_or(0, |b| b.bytes()) as u64;
    let built = 160 * nodes + 8 * edges + 3 * labels + walks + balls;
    let sent = match source {
        MapSource::Spec(s) => s.len() as u64,
        MapSource::Custom(c) => 120 * c.nodes.len() as u64 + 24 * c.edges.len() as u64 + 2 * labels,
    };
    built + sent + 1024
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn games_of_one_map_share_it_and_it_leaves_with_the_last() {
        let source = Arc::new(MapSource::Spec("square:7".into()));
        let (a_source, a_map) = share(source.clone()).expect("builds");
        let (b_source, b_map) = share(Arc::new(MapSource::Spec("square:7".into()))).expect("builds");
        assert!(Arc::ptr_eq(&a_map, &b_map) && Arc::ptr_eq(&a_source, &b_source));
        let (_, other) = share(Arc::new(MapSource::Spec("square:8".into()))).expect("builds");
        assert!(!Arc::ptr_eq(&a_map, &other));
        let weak = Arc::downgrade(&a_map);
        drop((source, a_source, a_map, b_source, b_map));
        assert!(weak.upgrade().is_none(), "the cache does not keep a map alive");
    }
}
