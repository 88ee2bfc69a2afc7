//! `gobeyond loadtest --reviews N`: computer reviews searching on the server while the games
//! are played (issue 43: analysis must never slow a live game; `docs/benchmarks.md`). Before
//! the load, N games are played to the end (two fresh guests each: placements, then a
//! resignation) and a review of each is requested; the report says how many positions the
//! reviews searched during the load, so that a quiet run is told apart from one where the
//! reviews really ran.

use anyhow::{Context, Result, bail};
use serde::Serialize;
use serde_json::{Value, json};

use crate::loadtest::{Player, guest, next_header, post, send, socket, watch};

/// The games reviewed: 19×19, long enough that their reviews search during the whole load.
const MAP: &str = "square:19";
const MOVES: usize = 40;

#[derive(Debug, Serialize)]
pub struct ReviewLoad {
    pub requested: usize,
    pub playouts: u32,
    /// Positions searched (all reviews) when the load began and when it ended.
    pub positions_at_start: u64,
    pub positions_at_end: u64,
    pub positions_in_all: u64,
    /// Reviews queued and running when the load ended.
    pub waiting_at_end: usize,
}

/// A reviewed game and who asked.
pub struct Reviewed {
    cookie: String,
    game: i64,
}

/// Plays `n` games to the end on `base` and asks for a review of each at `playouts`.
pub async fn request(http: &reqwest::Client, base: &str, n: usize, playouts: u32) -> Result<Vec<Reviewed>> {
    let map = gobeyond_maps::generate(MAP).context("the reviews' map")?;
    let points: Vec<String> = map.nodes().map(|v| map.label(v).to_string()).collect();
    let bar = indicatif::ProgressBar::new(n as u64)
        .with_style(indicatif::ProgressStyle::with_template("reviews {bar:30} {pos}/{len} games reviewed")?);
    let mut reviewed = Vec::with_capacity(n);
    for _ in 0..n {
        let (a, b) = (guest(http, base).await?, guest(http, base).await?);
        let game = played_game(http, base, &a, &b, &points).await?;
        post(http, base, &format!("/api/games/{game}/review"), &a.cookie, json!({"playouts": playouts}))
            .await?;
        reviewed.push(Reviewed { cookie: a.cookie, game });
        bar.inc(1);
    }
    bar.finish_and_clear();
    Ok(reviewed)
}

/// A game of [`MOVES`] placements ended by a resignation.
async fn played_game(
    http: &reqwest::Client,
    base: &str,
    a: &Player,
    b: &Player,
    points: &[String],
) -> Result<i64> {
    let v = post(http, base, "/api/games", &a.cookie, json!({"rules": "chinese", "map": MAP, "players": 2}))
        .await?;
    let game = v["game"]["id"].as_i64().context("no game id")?;
    post(http, base, &format!("/api/games/{game}/join"), &b.cookie, json!({})).await?;
    let mut sockets = [socket(base, &a.cookie).await?, socket(base, &b.cookie).await?];
    let mut seq = watch(&mut sockets, game).await?;
    // Spread over the board (7 and 361 are coprime: no point twice).
    for k in 0..MOVES {
        let at = &points[(k * 7) % points.len()];
        if act(&mut sockets, game, seq, json!({"type": "place", "at": at})).await? {
            seq += 1;
        }
    }
    if !act(&mut sockets, game, seq, json!({"type": "resign"})).await? {
        bail!("game {game}: the resignation was refused");
    }
    for ws in sockets.iter_mut() {
        let _ = futures_util::SinkExt::close(ws).await;
    }
    Ok(game)
}

/// Sends `action` for the seat to move after `seq` (black first, turns alternate); whether it
/// was accepted.
async fn act(sockets: &mut [crate::loadtest::Socket; 2], game: i64, seq: u64, action: Value) -> Result<bool> {
    let ws = &mut sockets[(seq % 2) as usize];
    send(ws, json!({"type": "act", "game": game, "action": action, "id": seq})).await?;
    loop {
        let h = next_header(ws).await?;
        match h.kind.as_str() {
            "ack" if h.id == Some(seq) => return Ok(true),
            "error" if h.id == Some(seq) => return Ok(false),
            _ => {}
        }
    }
}

/// Positions searched so far over all `reviewed`, the positions in all, and the reviews still
/// waiting.
pub async fn progress(
    http: &reqwest::Client,
    base: &str,
    reviewed: &[Reviewed],
    playouts: u32,
) -> (u64, u64, usize) {
    let (mut done, mut total, mut waiting) = (0, 0, 0);
    for r in reviewed {
        let url = format!("{base}/api/games/{}/review?playouts={playouts}", r.game);
        let Ok(answer) = http.get(url).header("cookie", &r.cookie).send().await else { continue };
        let Ok(status) = answer.json::<Value>().await else { continue };
        done += status["done"].as_u64().unwrap_or(0);
        total += status["total"].as_u64().unwrap_or(0);
        waiting += usize::from(matches!(status["state"].as_str(), Some("queued" | "running")));
    }
    (done, total, waiting)
}
