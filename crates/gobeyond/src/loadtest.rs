//! `gobeyond loadtest`: many concurrent two-player games over real WebSockets against a running
//! server. Each game is driven by one task holding both players' sockets: the player to move
//! sends an action, and the time until its own socket receives the broadcast of that action is
//! the latency. Every update is read on both sockets, so clients never fall behind.
//!
//! Given several instances of one cluster, the two players of each game connect to different
//! instances (game `i`: instances `i` and `i + 1`), and every latency is also counted apart
//! by whether the mover's instance runs the game (local) or forwards it to its owner.

use std::{
    collections::HashMap,
    sync::{
        Arc,
        atomic::{AtomicU64, Ordering},
    },
    time::{Duration, Instant},
};

use anyhow::{Context, Result, bail};
use futures_util::{SinkExt, StreamExt, stream};
use serde::Serialize;
use serde_json::{Value, json};
use tokio_tungstenite::tungstenite::{Message, client::IntoClientRequest};

pub(crate) type Socket =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

#[derive(Debug, Clone)]
pub struct Options {
    /// The server, or several instances of one cluster.
    pub urls: Vec<String>,
    pub games: usize,
    pub seconds: f64,
    pub map: String,
    /// Offered load in moves per second over all games (each game paced evenly); `None` plays
    /// as fast as the server answers (every game always has a move in flight).
    pub rate: Option<f64>,
    /// Computer reviews requested before the load (of games played to the end for them), and
    /// their playouts per position.
    pub reviews: usize,
    pub review_playouts: u32,
}

#[derive(Debug, Serialize)]
pub struct Report {
    pub offered_moves_per_second: Option<f64>,
    pub instances: usize,
    pub games: usize,
    pub map: String,
    pub seconds: f64,
    pub moves: u64,
    pub moves_per_second: f64,
    /// Moves the server refused (a point taken meanwhile, suicide): answered, not lost.
    pub refused: u64,
    /// Game drivers that stopped on an error (a lost socket, a timeout).
    pub driver_failures: u64,
    pub games_finished: u64,
    pub latency_ms: Latency,
    /// With several instances: moves sent to the instance that runs the game, and moves that
    /// instance forwarded to the owner (and whose broadcast it relayed back).
    pub latency_local_ms: Option<Latency>,
    pub latency_forwarded_ms: Option<Latency>,
    /// Server memory (resident, all instances) before the games were created and once they
    /// all sat idle with both sockets open, per game.
    pub server_rss_mib_before: Option<f64>,
    pub server_rss_mib_idle: Option<f64>,
    pub server_kib_per_idle_game: Option<f64>,
    pub setup_seconds: f64,
    /// The reviews searching during the load (`--reviews`).
    pub reviews: Option<crate::loadtest_reviews::ReviewLoad>,
}

#[derive(Debug, Serialize)]
pub struct Latency {
    pub p50: f64,
    pub p90: f64,
    pub p95: f64,
    pub p99: f64,
    pub max: f64,
}

/// Two players, their sockets, and their game.
type Table = ([Player; 2], [Socket; 2], i64);

/// A latency in microseconds, and where the move went: 0 not known, 1 the owner, 2 forwarded.
type Sample = (u32, u8);

pub(crate) struct Player {
    pub(crate) cookie: String,
}

pub(crate) async fn guest(http: &reqwest::Client, base: &str) -> Result<Player> {
    let r = http.post(format!("{base}/api/guest")).send().await?;
    let cookie = r
        .headers()
        .get("set-cookie")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .context("no session cookie")?
        .to_string();
    Ok(Player { cookie })
}

pub(crate) async fn post(
    http: &reqwest::Client,
    base: &str,
    path: &str,
    cookie: &str,
    body: Value,
) -> Result<Value> {
    let r = http.post(format!("{base}{path}")).header("cookie", cookie).json(&body).send().await?;
    let status = r.status();
    let v: Value = r.json().await?;
    if !status.is_success() {
        bail!("{path}: {status} {v}");
    }
    Ok(v)
}

async fn new_game(http: &reqwest::Client, base: &str, map: &str, a: &Player, b: &Player) -> Result<i64> {
    let v = post(http, base, "/api/games", &a.cookie, json!({"rules": "chinese", "map": map, "players": 2}))
        .await?;
    let id = v["game"]["id"].as_i64().context("no game id")?;
    post(http, base, &format!("/api/games/{id}/join"), &b.cookie, json!({})).await?;
    Ok(id)
}

pub(crate) async fn socket(base: &str, cookie: &str) -> Result<Socket> {
    let mut req = (base.replacen("http", "ws", 1) + "/api/ws").into_client_request()?;
    req.headers_mut().insert("cookie", cookie.parse()?);
    let (ws, _) = tokio_tungstenite::connect_async(req).await?;
    Ok(ws)
}

/// The fields of a server message the driver looks at; the rest (the state) is skipped
/// without being built, so the load generator spends its time on the sockets.
#[derive(Debug, serde::Deserialize)]
pub(crate) struct Header {
    #[serde(rename = "type")]
    pub(crate) kind: String,
    #[serde(default)]
    seq: Option<u64>,
    #[serde(default)]
    pub(crate) id: Option<u64>,
    #[serde(default)]
    game: Option<i64>,
}

pub(crate) async fn next_header(ws: &mut Socket) -> Result<Header> {
    loop {
        match tokio::time::timeout(Duration::from_secs(30), ws.next()).await {
            Ok(Some(Ok(Message::Text(t)))) => return Ok(serde_json::from_str(t.as_str())?),
            Ok(Some(Ok(Message::Close(_)))) | Ok(None) => bail!("socket closed"),
            Ok(Some(Ok(_))) => continue,
            Ok(Some(Err(e))) => return Err(e.into()),
            Err(_) => bail!("no message for 30 s"),
        }
    }
}

pub(crate) async fn send(ws: &mut Socket, v: Value) -> Result<()> {
    ws.send(Message::Text(v.to_string().into())).await?;
    Ok(())
}

/// Watches `game` on both sockets; returns the current sequence number.
pub(crate) async fn watch(sockets: &mut [Socket; 2], game: i64) -> Result<u64> {
    let mut seq = 0;
    for ws in sockets.iter_mut() {
        send(ws, json!({"type": "watch", "game": game})).await?;
        loop {
            let h = next_header(ws).await?;
            if h.kind == "sync" && h.game == Some(game) {
                seq = h.seq.unwrap_or(0);
                break;
            }
        }
    }
    Ok(seq)
}

struct Shared {
    moves: AtomicU64,
    errors: AtomicU64,
    finished: AtomicU64,
}

/// Plays games between two players until `until`; returns latencies in microseconds.
#[allow(clippy::too_many_arguments)]
async fn drive(
    http: reqwest::Client,
    base: String,
    map: String,
    players: [Player; 2],
    mut sockets: [Socket; 2],
    mut game: i64,
    points: Vec<String>,
    until: Instant,
    interval: Option<Duration>,
    shared: Arc<Shared>,
    // Per player, whether its instance runs the game (for the first game only).
    mut local: [Option<bool>; 2],
) -> Result<Vec<Sample>> {
    let mut latencies = Vec::new();
    let mut seq = watch(&mut sockets, game).await?;
    let mut order: Vec<usize> = (0..points.len()).collect();
    let mut rng = gobeyond_rules::Rng::new(game as u64);
    let mut next = 0;
    let mut passes = 0;
    // Paced games start at random phases so the offered load is smooth.
    let mut tick =
        Instant::now() + interval.map_or(Duration::ZERO, |i| i.mul_f64(rng.below(1000) as f64 / 1000.0));
    while Instant::now() < until {
        if let Some(i) = interval {
            tokio::time::sleep_until(tick.into()).await;
            tick = (tick + i).max(Instant::now());
        }
        if next == 0 {
            for i in (1..order.len()).rev() {
                order.swap(i, rng.below(i as u32 + 1) as usize);
            }
        }
        // Classic: black (seat 0) moves first and turns alternate.
        let mover = (seq % 2) as usize;
        let action = if next < order.len() {
            next += 1;
            json!({"type": "place", "at": points[order[next - 1]]})
        } else {
            json!({"type": "pass"})
        };
        let sent = Instant::now();
        send(&mut sockets[mover], json!({"type": "act", "game": game, "action": action, "id": seq})).await?;
        let (latency, refused) = answer_of(&mut sockets[mover], seq, sent).await?;
        if let Some(micros) = latency {
            let class = match local[mover] {
                None => 0,
                Some(true) => 1,
                Some(false) => 2,
            };
            latencies.push((micros, class));
        }
        if refused {
            // Occupied or suicide: the next point, or a pass once the list is used up.
            shared.errors.fetch_add(1, Ordering::Relaxed);
            continue;
        }
        seq += 1;
        shared.moves.fetch_add(1, Ordering::Relaxed);
        passes = if action["type"] == "pass" { passes + 1 } else { 0 };
        // The other socket gets the same broadcast.
        loop {
            let h = next_header(&mut sockets[1 - mover]).await?;
            if h.kind == "update" && h.seq == Some(seq) {
                break;
            }
        }
        if passes >= 2 {
            shared.finished.fetch_add(1, Ordering::Relaxed);
            for ws in sockets.iter_mut() {
                send(ws, json!({"type": "unwatch", "game": game})).await?;
            }
            game = new_game(&http, &base, &map, &players[0], &players[1]).await?;
            seq = watch(&mut sockets, game).await?;
            local = [None, None];
            next = 0;
            passes = 0;
        }
    }
    for ws in sockets.iter_mut() {
        let _ = ws.close(None).await;
    }
    Ok(latencies)
}

/// Reads the mover's socket until action `seq + 1`, sent at `sent`, is answered (an ack or an
/// error, which say `id` = `seq`) and, unless refused, broadcast: the microseconds until the
/// broadcast (if it came), and whether it was refused.
async fn answer_of(socket: &mut Socket, seq: u64, sent: Instant) -> Result<(Option<u32>, bool)> {
    let mut latency = None;
    let mut refused = false;
    let mut got_answer = false;
    // The ack (or error) and the broadcast come in either order.
    while !(got_answer && (latency.is_some() || refused)) {
        let h = next_header(socket).await?;
        match h.kind.as_str() {
            "update" if h.seq == Some(seq + 1) => {
                latency = Some(sent.elapsed().as_micros().min(u32::MAX as u128) as u32);
            }
            "ack" if h.id == Some(seq) => got_answer = true,
            "error" if h.id == Some(seq) => {
                got_answer = true;
                refused = true;
            }
            _ => {}
        }
    }
    Ok((latency, refused))
}

async fn health(http: &reqwest::Client, base: &str) -> Option<Value> {
    http.get(format!("{base}/api/health")).send().await.ok()?.json().await.ok()
}

/// Resident memory of every instance, in MiB.
async fn server_rss(http: &reqwest::Client, urls: &[String]) -> Option<f64> {
    let mut total = 0.0;
    for base in urls {
        total += health(http, base).await?["rss_bytes"].as_f64()? / (1024.0 * 1024.0);
    }
    Some(total)
}

fn percentiles(latencies: &mut [u32]) -> Latency {
    latencies.sort_unstable();
    let pick = |q: f64| -> f64 {
        if latencies.is_empty() {
            return 0.0;
        }
        latencies[((latencies.len() - 1) as f64 * q).round() as usize] as f64 / 1000.0
    };
    Latency { p50: pick(0.5), p90: pick(0.9), p95: pick(0.95), p99: pick(0.99), max: pick(1.0) }
}

pub async fn run(opts: Options) -> Result<Report> {
    let urls: Vec<String> = opts.urls.iter().map(|u| u.trim_end_matches('/').to_string()).collect();
    if urls.is_empty() {
        bail!("give at least one --url");
    }
    let http = reqwest::Client::builder().pool_max_idle_per_host(64).build()?;
    let map = gobeyond_maps::generate(&opts.map).with_context(|| format!("map {:?}", opts.map))?;
    let points: Vec<String> = map.nodes().map(|n| map.label(n).to_string()).collect();
    let rss_before = server_rss(&http, &urls).await;
    let setup_start = Instant::now();
    let tables = set_up(&http, &urls, &opts).await?;
    let setup_seconds = setup_start.elapsed().as_secs_f64();
    tokio::time::sleep(Duration::from_millis(500)).await;
    let rss_idle = server_rss(&http, &urls).await;
    let owner = if urls.len() > 1 { owners(&http, &urls).await } else { HashMap::new() };

    let reviewed = match opts.reviews {
        0 => Vec::new(),
        n => crate::loadtest_reviews::request(&http, &urls[0], n, opts.review_playouts).await?,
    };
    let reviews_before =
        crate::loadtest_reviews::progress(&http, &urls[0], &reviewed, opts.review_playouts).await;
    let shared =
        Arc::new(Shared { moves: AtomicU64::new(0), errors: AtomicU64::new(0), finished: AtomicU64::new(0) });
    let played = play(&http, &urls, &opts, tables, &owner, &points, &shared).await?;
    let reviews_after =
        crate::loadtest_reviews::progress(&http, &urls[0], &reviewed, opts.review_playouts).await;
    let reviews = (opts.reviews > 0).then_some(crate::loadtest_reviews::ReviewLoad {
        requested: opts.reviews,
        playouts: opts.review_playouts,
        positions_at_start: reviews_before.0,
        positions_at_end: reviews_after.0,
        positions_in_all: reviews_after.1,
        waiting_at_end: reviews_after.2,
    });
    let class = |c: u8| -> Vec<u32> { played.latencies.iter().filter(|s| s.1 == c).map(|s| s.0).collect() };
    let (mut local, mut forwarded) = (class(1), class(2));
    let mut all: Vec<u32> = played.latencies.iter().map(|s| s.0).collect();
    let moves = shared.moves.load(Ordering::Relaxed);
    let elapsed = played.seconds;
    Ok(Report {
        offered_moves_per_second: opts.rate,
        games: opts.games,
        map: opts.map,
        seconds: elapsed,
        moves,
        moves_per_second: moves as f64 / elapsed,
        refused: shared.errors.load(Ordering::Relaxed),
        driver_failures: played.failures,
        games_finished: shared.finished.load(Ordering::Relaxed),
        latency_ms: percentiles(&mut all),
        latency_local_ms: (!local.is_empty()).then(|| percentiles(&mut local)),
        latency_forwarded_ms: (!forwarded.is_empty()).then(|| percentiles(&mut forwarded)),
        instances: urls.len(),
        server_rss_mib_before: rss_before,
        server_rss_mib_idle: rss_idle,
        server_kib_per_idle_game: match (rss_before, rss_idle) {
            (Some(a), Some(b)) if opts.games > 0 => Some((b - a) * 1024.0 / opts.games as f64),
            _ => None,
        },
        setup_seconds,
        reviews,
    })
}

/// Players, games and sockets, 32 games at a time: game `i`'s players on instances `i` and
/// `i + 1`.
async fn set_up(http: &reqwest::Client, urls: &[String], opts: &Options) -> Result<Vec<Table>> {
    let bar = indicatif::ProgressBar::new(opts.games as u64)
        .with_style(indicatif::ProgressStyle::with_template("setting up {bar:30} {pos}/{len} games")?);
    let tables: Vec<Result<Table>> = stream::iter(0..opts.games)
        .map(|i| {
            let http = http.clone();
            let (base, other) = (urls[i % urls.len()].clone(), urls[(i + 1) % urls.len()].clone());
            let map = opts.map.clone();
            let bar = bar.clone();
            async move {
                let a = guest(&http, &base).await?;
                let b = guest(&http, &other).await?;
                let game = new_game(&http, &base, &map, &a, &b).await?;
                let sa = socket(&base, &a.cookie).await?;
                let sb = socket(&other, &b.cookie).await?;
                bar.inc(1);
                Ok(([a, b], [sa, sb], game))
            }
        })
        .buffer_unordered(32)
        .collect()
        .await;
    bar.finish_and_clear();
    tables.into_iter().collect()
}

/// Which instance runs each game (by index in `urls`), as their health reports say.
async fn owners(http: &reqwest::Client, urls: &[String]) -> HashMap<i64, usize> {
    let mut owner = HashMap::new();
    for (i, base) in urls.iter().enumerate() {
        let owned = health(http, base).await.map(|h| h["games_owned"].clone()).unwrap_or_default();
        for id in owned.as_array().into_iter().flatten().filter_map(Value::as_i64) {
            owner.insert(id, i);
        }
    }
    owner
}

/// What the games' drivers measured.
struct Played {
    latencies: Vec<Sample>,
    failures: u64,
    seconds: f64,
}

/// Drives every game until the load's end, one task per game, with a progress bar.
async fn play(
    http: &reqwest::Client,
    urls: &[String],
    opts: &Options,
    tables: Vec<Table>,
    owner: &HashMap<i64, usize>,
    points: &[String],
    shared: &Arc<Shared>,
) -> Result<Played> {
    let start = Instant::now();
    let until = start + Duration::from_secs_f64(opts.seconds);
    let tasks: Vec<_> = tables
        .into_iter()
        .enumerate()
        .map(|(i, (players, sockets, game))| {
            let homes = [i % urls.len(), (i + 1) % urls.len()];
            let local = homes.map(|h| owner.get(&game).map(|&o| o == h));
            tokio::spawn(drive(
                http.clone(),
                urls[homes[0]].clone(),
                opts.map.clone(),
                players,
                sockets,
                game,
                points.to_vec(),
                until,
                opts.rate.map(|r| Duration::from_secs_f64(opts.games as f64 / r)),
                shared.clone(),
                local,
            ))
        })
        .collect();
    let bar = indicatif::ProgressBar::new(opts.seconds.ceil() as u64)
        .with_style(indicatif::ProgressStyle::with_template("playing {bar:30} {pos}/{len} s  {msg}")?);
    while Instant::now() < until {
        tokio::time::sleep(Duration::from_secs(1)).await;
        let moves = shared.moves.load(Ordering::Relaxed);
        bar.set_position(start.elapsed().as_secs());
        bar.set_message(format!("{moves} moves, {:.0}/s", moves as f64 / start.elapsed().as_secs_f64()));
    }
    let mut latencies = Vec::new();
    let mut failures = 0u64;
    for t in tasks {
        match t.await {
            Ok(Ok(l)) => latencies.extend(l),
            Ok(Err(e)) => {
                failures += 1;
                if failures <= 3 {
                    eprintln!("a game driver failed: {e:#}");
                }
            }
            Err(e) => eprintln!("a game driver panicked: {e}"),
        }
    }
    bar.finish_and_clear();
    Ok(Played { latencies, failures, seconds: start.elapsed().as_secs_f64() })
}
