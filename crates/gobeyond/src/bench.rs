//! `gobeyond bench`: engine speed figures (light playouts per second, position copies).

use std::{sync::Arc, time::Instant};

use anyhow::{Result, bail};
use gobeyond_maps::generate;
use gobeyond_rules::{
    Board, Player, Rng,
    playout::{PlayoutTables, light_playout},
};
use serde::Serialize;

#[derive(Debug, Serialize)]
pub struct PlayoutFigure {
    pub map: String,
    pub nodes: usize,
    pub players: u8,
    pub playouts: u64,
    pub seconds: f64,
    pub playouts_per_second: f64,
    pub moves_per_playout: f64,
    pub ns_per_move: f64,
    /// Playouts stopped by the move cap (3 × nodes + 100) rather than by passes.
    pub truncated: u64,
}

/// Runs light playouts on `spec` for about `seconds` of CPU time, in one thread.
pub fn playouts(spec: &str, players: u8, seconds: f64, seed: u64) -> Result<PlayoutFigure> {
    if !(2..=8).contains(&players) {
        bail!("players must be 2 to 8");
    }
    let map = Arc::new(generate(spec)?);
    let tables = PlayoutTables::new(&map);
    let empty = Board::new(map.clone());
    let mut board = empty.clone();
    let mut rng = Rng::new(seed);
    let max_moves = 3 * map.len() as u32 + 100;
    // Warm up caches and the branch predictor before timing.
    for _ in 0..200 {
        board.copy_from(&empty);
        light_playout(&mut board, &tables, Player(0), players, &mut rng, max_moves);
    }
    let mut playouts = 0u64;
    let mut moves = 0u64;
    let mut truncated = 0u64;
    let start = Instant::now();
    let cpu_start = cpu_seconds();
    loop {
        for _ in 0..100 {
            board.copy_from(&empty);
            let stats = light_playout(&mut board, &tables, Player(0), players, &mut rng, max_moves);
            moves += stats.moves as u64;
            truncated += stats.truncated as u64;
            playouts += 1;
        }
        if start.elapsed().as_secs_f64() >= seconds {
            break;
        }
    }
    // CPU time of this process, not wall time: the machine is shared.
    let elapsed = (cpu_seconds() - cpu_start).max(1e-9);
    Ok(PlayoutFigure {
        map: spec.to_string(),
        nodes: map.len(),
        players,
        playouts,
        seconds: elapsed,
        playouts_per_second: playouts as f64 / elapsed,
        moves_per_playout: moves as f64 / playouts as f64,
        ns_per_move: elapsed * 1e9 / moves as f64,
        truncated,
    })
}

#[derive(Debug, Serialize)]
pub struct CopyFigure {
    pub map: String,
    pub copies: u64,
    pub ns_per_copy: f64,
}

/// Times `Board::copy_from` of a mid-game position.
pub fn copies(spec: &str) -> Result<CopyFigure> {
    let map = Arc::new(generate(spec)?);
    let tables = PlayoutTables::new(&map);
    let mut source = Board::new(map.clone());
    let mut rng = Rng::new(1);
    light_playout(&mut source, &tables, Player(0), 2, &mut rng, map.len() as u32 / 2);
    let mut target = source.clone();
    let n = 2_000_000u64;
    let cpu = cpu_seconds();
    for _ in 0..n {
        target.copy_from(std::hint::black_box(&source));
        std::hint::black_box(&target);
    }
    let secs = cpu_seconds() - cpu;
    Ok(CopyFigure { map: spec.into(), copies: n, ns_per_copy: secs * 1e9 / n as f64 })
}

/// User CPU seconds of this process, from /proc (falls back to wall time elsewhere).
fn cpu_seconds() -> f64 {
    if let Ok(stat) = std::fs::read_to_string("/proc/self/stat") {
        // Fields after the command name in parentheses; utime is field 14 overall.
        if let Some(rest) = stat.rsplit_once(')').map(|(_, r)| r) {
            let fields: Vec<&str> = rest.split_whitespace().collect();
            if let Some(ut) = fields.get(11).and_then(|v| v.parse::<f64>().ok()) {
                return ut / 100.0;
            }
        }
    }
    static START: std::sync::OnceLock<Instant> = std::sync::OnceLock::new();
    START.get_or_init(Instant::now).elapsed().as_secs_f64()
}

#[derive(Debug, Serialize)]
pub struct SearchFigure {
    pub map: String,
    pub rules: &'static str,
    pub players: usize,
    pub policy: gobeyond_bots::Policy,
    pub threads: usize,
    /// Tree priors from the learned patterns (classic Go).
    pub patterns: bool,
    pub playouts: u32,
    pub seconds: f64,
    pub playouts_per_second: f64,
}

/// Full searches (tree, priors, RAVE and playouts) from the empty position for `seconds` of
/// wall time: what `genmove` achieves per move.
pub fn search(
    spec: &str,
    rules: &str,
    players: usize,
    policy: gobeyond_bots::Policy,
    threads: usize,
    seconds: f64,
    patterns: bool,
) -> Result<SearchFigure> {
    use gobeyond_bots::{SearchConfig, Searcher};
    let map = Arc::new(generate(spec)?);
    let config = SearchConfig {
        playouts: u32::MAX,
        time: Some(std::time::Duration::from_secs_f64(seconds)),
        threads,
        policy,
        patterns,
        ..SearchConfig::default()
    };
    let spec_rules = gobeyond_rules::registry::rules_by_name(rules).map_err(anyhow::Error::msg)?;
    let info = spec_rules.info()?;
    let game = info.start(map, players, &spec_rules.settings, &Default::default())?;
    let name = info.name;
    let (playouts, elapsed) = gobeyond_rules::dispatch!(&game, g => {
        let a = Searcher::new(config).search(g);
        (a.playouts, a.elapsed)
    });
    let secs = elapsed.as_secs_f64();
    Ok(SearchFigure {
        map: spec.into(),
        rules: name,
        players,
        policy,
        threads,
        patterns,
        playouts,
        seconds: secs,
        playouts_per_second: playouts as f64 / secs,
    })
}
