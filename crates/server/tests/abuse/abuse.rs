//! The abuse suite (issue 15): each test sends what once hurt the server, on loopback only,
//! and checks that it is refused or bounded and that the server still answers its health check
//! with its memory under a stated ceiling. SQLite only: none of this depends on the database.

use std::{net::SocketAddr, time::Duration};

use crate::{
    MEMORY_CEILING,
    common::{Client, TestServer, largest_custom_map, sqlite_url, test_limits},
    healthy, start,
};
use futures_util::{SinkExt, StreamExt};
use gobeyond_server::limit::Limits;
use serde_json::{Value, json};
use tokio::{
    io::{AsyncReadExt, AsyncWriteExt},
    net::TcpStream,
};
use tokio_tungstenite::tungstenite::{Message, client::IntoClientRequest};

/// Whether the kernel still has the server's end of the TCP connection between `server` and
/// `client` open (Linux `/proc/net/tcp`, state 01).
fn established(server: SocketAddr, client: SocketAddr) -> bool {
    let hex = |a: SocketAddr| match a {
        SocketAddr::V4(v4) => format!("{:08X}:{:04X}", u32::from_le_bytes(v4.ip().octets()), v4.port()),
        SocketAddr::V6(_) => String::new(),
    };
    let (local, remote) = (hex(server), hex(client));
    std::fs::read_to_string("/proc/net/tcp").unwrap_or_default().lines().any(|line| {
        let f: Vec<&str> = line.split_whitespace().collect();
        f.len() > 3 && f[1] == local && f[2] == remote && f[3] == "01"
    })
}

/// Whether the server closed `stream` (reads end) within `within`.
async fn closed_by_server(stream: &mut TcpStream, within: Duration) -> bool {
    let mut buf = [0u8; 4096];
    let deadline = tokio::time::Instant::now() + within;
    loop {
        match tokio::time::timeout_at(deadline, stream.read(&mut buf)).await {
            Err(_) => return false,
            Ok(Ok(0)) | Ok(Err(_)) => return true,
            Ok(Ok(_)) => continue,
        }
    }
}

#[tokio::test]
async fn a_map_spec_that_would_never_finish_is_refused_at_once() {
    let server = start(test_limits()).await;
    let guest = Client::guest(&server).await;
    let spec = "goldberg:1224363039,236568013";
    let (status, body) = guest.get(&format!("/api/maps/preview?spec={spec}")).await;
    assert_eq!(status, 400, "{body}");
    assert!(body["error"].as_str().unwrap().contains("nodes"), "{body}");
    let (status, body) =
        guest.post("/api/games", json!({"rules": "classic", "map": spec, "players": 2})).await;
    assert_eq!(status, 400, "{body}");
    let (status, _) = guest.get(&format!("/api/maps/preview?spec={}", "x".repeat(300))).await;
    assert_eq!(status, 400);
    // A custom map's informational spec is bounded like a name: it travels with the settings.
    let mut custom = largest_custom_map("long spec");
    custom["spec"] = json!("s".repeat(900_000 / 4));
    let (status, body) =
        guest.post("/api/games", json!({"rules": "classic", "map": custom, "players": 2})).await;
    assert_eq!(status, 400, "{body}");
    assert!(body["error"].as_str().unwrap().contains("spec"), "{body}");
    healthy(&server).await;
    server.stop().await;
}

#[tokio::test]
async fn connections_that_never_finish_a_request_are_closed_and_counted_per_address() {
    let limits =
        Limits { header_timeout: Duration::from_millis(500), connections_per_address: 20, ..test_limits() };
    let server = start(limits).await;
    // 40 connections that send half a request line and then nothing.
    let mut idle = Vec::new();
    for _ in 0..40 {
        if let Ok(mut s) = TcpStream::connect(server.addr).await {
            let _ = s.write_all(b"GET /api/health HTT").await;
            idle.push(s);
        }
    }
    // Beyond 20 from this address, connections are closed at once.
    let mut refused = 0;
    for s in idle.iter_mut().skip(20) {
        if closed_by_server(s, Duration::from_millis(300)).await {
            refused += 1;
        }
    }
    assert_eq!(refused, 20, "connections over the per-address limit are dropped");
    // The others are closed once the header deadline passes.
    for s in idle.iter_mut().take(20) {
        assert!(closed_by_server(s, Duration::from_secs(5)).await, "an unfinished request is closed");
    }
    // An idle keep-alive connection is closed too.
    let mut keep = TcpStream::connect(server.addr).await.unwrap();
    keep.write_all(b"GET /api/health HTTP/1.1\r\nHost: x\r\n\r\n").await.unwrap();
    assert!(
        closed_by_server(&mut keep, Duration::from_secs(5)).await,
        "an idle keep-alive connection is closed"
    );
    healthy(&server).await;
    server.stop().await;
}

#[tokio::test]
async fn silent_connections_close_at_the_deadline_and_a_full_server_still_answers_its_health_check() {
    let limits = Limits { header_timeout: Duration::from_secs(2), connections: 30, ..test_limits() };
    let server = start(limits).await;
    // Connections that never send a byte fill the server (the attack: 20 addresses × 64).
    let mut silent = Vec::new();
    for _ in 0..30 {
        silent.push(TcpStream::connect(server.addr).await.unwrap());
    }
    tokio::time::sleep(Duration::from_millis(200)).await;
    // Full: the health check gets in all the same, in place of a silent connection.
    let health = healthy(&server).await;
    assert!(health["connections"].as_u64().unwrap() <= 30, "{health}");
    // The deadline counts from accept: every silent connection is closed without a byte sent.
    for s in silent.iter_mut() {
        assert!(closed_by_server(s, Duration::from_secs(5)).await, "a silent connection is closed");
    }
    server.stop().await;
}

#[tokio::test]
async fn game_sockets_are_limited_per_address_pinged_and_closed_when_silent() {
    let limits = Limits { sockets_per_address: 3, ping_every: Duration::from_millis(200), ..test_limits() };
    let server = start(limits).await;
    let guest = Client::guest(&server).await;
    let mut open = Vec::new();
    for _ in 0..3 {
        open.push(guest.socket().await);
    }
    let url = format!("ws://{}/api/ws", server.addr);
    let mut req = url.clone().into_client_request().unwrap();
    req.headers_mut().insert("cookie", guest.cookie.parse().unwrap());
    match tokio_tungstenite::connect_async(req).await {
        Err(tokio_tungstenite::tungstenite::Error::Http(r)) => assert_eq!(r.status(), 429),
        other => panic!("a fourth socket from one address is refused, got {:?}", other.map(|_| ())),
    }
    // A client that never reads answers no ping: it is closed after three pings' silence.
    let mut silent = open.pop().unwrap();
    tokio::time::sleep(Duration::from_millis(1500)).await;
    let mut closed = false;
    while let Ok(Some(m)) = tokio::time::timeout(Duration::from_secs(3), silent.ws.next()).await {
        match m {
            Ok(Message::Close(_)) | Err(_) => {
                closed = true;
                break;
            }
            _ => {}
        }
    }
    assert!(closed, "a silent socket is closed by the server");
    // Its place is free again.
    tokio::time::sleep(Duration::from_millis(200)).await;
    let mut again = guest.socket().await;
    again.send(json!({"type": "ping", "id": 1})).await;
    assert_eq!(again.next().await["type"], "pong");
    healthy(&server).await;
    server.stop().await;
}

#[tokio::test]
async fn a_socket_that_stops_reading_is_cut_off_before_memory_grows() {
    let limits = Limits { socket_buffer_bytes: 512 * 1024, ..test_limits() };
    let server = start(limits).await;
    let guest = Client::guest(&server).await;
    // A big board in play makes big syncs (the attack used rect:64x64).
    let game = guest.create(json!({"rules": "classic", "map": "rect:64x64", "players": 2})).await;
    let other = Client::guest(&server).await;
    assert_eq!(other.post(&format!("/api/games/{game}/join"), json!({})).await.0, 200);
    let mut probe = guest.socket().await;
    let size = probe.watch(game, None).await.to_string().len();
    assert!(size > 20_000, "a sync of this game is big: {size} bytes");
    // A client that reads as little as it can: a tiny receive buffer.
    let tcp = tokio::net::TcpSocket::new_v4().unwrap();
    tcp.set_recv_buffer_size(4096).unwrap();
    let tcp = tcp.connect(server.addr).await.unwrap();
    let client_addr = tcp.local_addr().unwrap();
    let url = format!("ws://{}/api/ws", server.addr);
    let mut req = url.into_client_request().unwrap();
    req.headers_mut().insert("cookie", guest.cookie.parse().unwrap());
    let (ws, _) = tokio_tungstenite::client_async(req, tcp).await.unwrap();
    let (mut sink, mut stream) = ws.split();
    let watch = json!({"type": "watch", "game": game}).to_string();
    // Ask 20 times a second, never reading, until the server hangs up.
    let mut cut = false;
    for _ in 0..120 {
        if sink.send(Message::Text(watch.clone().into())).await.is_err() {
            cut = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
        if healthy(&server).await["rss_bytes"].as_u64().unwrap_or(0) > MEMORY_CEILING {
            break;
        }
    }
    // Closing means closing: the server's end of this very connection is closed (a cut-off
    // socket once kept its connection and queue while its place was given back), without the
    // client reading anything.
    let mut closed = false;
    for _ in 0..150 {
        if !established(server.addr, client_addr) {
            closed = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(closed, "the server closed its end of the slow reader's connection");
    if !cut {
        // The server closed its side while the client's send buffer still had room.
        let mut seen_close = false;
        while let Ok(Some(m)) = tokio::time::timeout(Duration::from_secs(5), stream.next()).await {
            if matches!(m, Ok(Message::Close(_)) | Err(_)) {
                seen_close = true;
                break;
            }
        }
        cut = seen_close;
    }
    assert!(cut, "the slow reader is disconnected");
    let health = healthy(&server).await;
    assert_eq!(health["sockets"], 1, "only the probe's socket is left: {health}");
    server.stop().await;
}

#[tokio::test]
async fn games_leave_memory_when_idle_and_never_exceed_the_cap() {
    let limits = Limits { loaded_games: 6, unload_after: Duration::from_millis(300), ..test_limits() };
    let server = start(limits).await;
    let mut ids = Vec::new();
    for _ in 0..4 {
        let guest = Client::guest(&server).await;
        for _ in 0..3 {
            // With a clock: once live, a game stays in memory for its clock.
            ids.push(
                guest
                    .create(json!({"rules": "classic", "map": "square:9", "players": 2,
                        "time": {"kind": "absolute", "main_seconds": 600}}))
                    .await,
            );
        }
    }
    assert!(healthy(&server).await["games_loaded"].as_u64().unwrap() <= 6);
    // Anonymous reads of every game, twice over: answered, never over the cap.
    let anonymous = reqwest::Client::new();
    for _ in 0..2 {
        for id in &ids {
            let r = anonymous.get(server.url(&format!("/api/games/{id}"))).send().await.unwrap();
            assert_eq!(r.status(), 200);
            let info: Value = r.json().await.unwrap();
            assert_eq!(info["id"], *id);
        }
        assert!(healthy(&server).await["games_loaded"].as_u64().unwrap() <= 6);
    }
    // Nobody watches: every open game leaves memory.
    tokio::time::sleep(Duration::from_millis(1500)).await;
    assert_eq!(healthy(&server).await["games_loaded"], 0);
    // And comes back whole: a player joins one.
    let joiner = Client::guest(&server).await;
    let (status, joined) = joiner.post(&format!("/api/games/{}/join", ids[0]), json!({})).await;
    assert_eq!(status, 200, "{joined}");
    assert_eq!(joined["game"]["status"], "live");
    // Clocked live games stay; with the cap full of them, a new load is refused, not piled up.
    for &id in &ids[1..] {
        let j = Client::guest(&server).await;
        let (s, _) = j.post(&format!("/api/games/{id}/join"), json!({})).await;
        assert!(s == 200 || s == 503, "{s}");
    }
    let loaded = healthy(&server).await["games_loaded"].as_u64().unwrap();
    assert_eq!(loaded, 6, "the cap holds with clocked live games");
    let late = Client::guest(&server).await;
    let (status, body) =
        late.post("/api/games", json!({"rules": "classic", "map": "square:9", "players": 2})).await;
    assert_eq!(status, 503, "{body}");
    server.stop().await;
}

#[tokio::test]
async fn live_games_nobody_touches_leave_memory_and_one_address_cannot_fill_the_server() {
    let limits = Limits {
        loaded_games: 12,
        games_per_address: 10,
        unload_after: Duration::from_millis(300),
        ..test_limits()
    };
    let server = start(limits).await;
    // The attack: guests of one address make live games against a level-1 bot, no clock.
    let game = json!({"rules": "classic", "map": "square:9", "players": 2,
        "seats": [{"kind": "me"}, {"kind": "bot", "level": 1}]});
    let mut made = Vec::new();
    let mut refused = None;
    let mut guests = Vec::new();
    for g in 0..3 {
        guests.push(Client::guest(&server).await);
        for _ in 0..4 {
            match guests[g].post("/api/games", game.clone()).await {
                (201, body) => made.push((body["game"]["id"].as_i64().unwrap(), g)),
                (status, body) => refused = Some((status, body)),
            }
        }
    }
    let (status, body) = refused.expect("the address's quota refuses the eleventh game");
    assert_eq!((status, made.len()), (429, 10), "{body}");
    assert!(body["error"].as_str().unwrap().contains("address"), "{body}");
    // Each waits on a person who is not connected: none holds a place in memory.
    let mut loaded = u64::MAX;
    for _ in 0..50 {
        loaded = healthy(&server).await["games_loaded"].as_u64().unwrap();
        if loaded == 0 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!(loaded, 0, "live games waiting on an absent person are unloaded");
    // And each plays on when its player comes back: the bot answers from the reloaded game.
    let (id, g) = made[0];
    let mut socket = guests[g].socket().await;
    socket.watch(id, None).await;
    assert_eq!(socket.act(id, json!({"type": "place", "at": "E5"})).await["seq"], 1);
    socket.until(|m| m["type"] == "update" && m["seq"] == 2).await;
    healthy(&server).await;
    server.stop().await;
}

#[tokio::test]
async fn games_in_memory_are_bounded_by_bytes_and_games_of_one_map_share_it() {
    let budget: u64 = 16 << 20;
    let limits = Limits { games_bytes: budget, unload_after: Duration::from_secs(600), ..test_limits() };
    let server = start(limits).await;
    // Games of one map share it: ten of them cost far less than ten maps.
    let guest = Client::guest(&server).await;
    let same = largest_custom_map("shared");
    let first = guest.post("/api/games", json!({"rules": "classic", "map": same, "players": 2})).await;
    assert_eq!(first.0, 201, "{}", first.1);
    let one = healthy(&server).await["games_bytes"].as_u64().unwrap();
    for _ in 0..4 {
        let (status, body) =
            guest.post("/api/games", json!({"rules": "classic", "map": same, "players": 2})).await;
        assert_eq!(status, 201, "{body}");
    }
    let five = healthy(&server).await["games_bytes"].as_u64().unwrap();
    assert!(five - one < 2 * one, "four more games of one map cost {} B, the first {one} B", five - one);
    // Games of different maps that must stay (live, their clock running) fill the budget; then
    // the server refuses rather than grows. (Idle ones would make room.)
    let mut refused = 0;
    for i in 0..12 {
        let other = Client::guest(&server).await;
        let map = largest_custom_map(&format!("map {i}"));
        let game = json!({"rules": "classic", "map": map, "players": 2,
            "seats": [{"kind": "me"}, {"kind": "bot", "level": 1}],
            "time": {"kind": "absolute", "main_seconds": 600}});
        match other.post("/api/games", game).await {
            (201, _) => {}
            (503, body) => {
                assert!(body["error"].as_str().unwrap().contains("as many games"), "{body}");
                refused += 1;
            }
            (status, body) => panic!("{status} {body}"),
        }
        let health = healthy(&server).await;
        println!("{i}: {} B in games, {} loaded", health["games_bytes"], health["games_loaded"]);
        assert!(health["games_bytes"].as_u64().unwrap() <= budget, "{health}");
    }
    assert!(refused > 0, "the byte budget refuses games past it");
    server.stop().await;
}

#[tokio::test]
async fn lab_reports_are_streamed_to_clients_that_never_read() {
    let reports = std::env::temp_dir().join(format!("gobeyond-reports-{}", std::process::id()));
    std::fs::create_dir_all(&reports).unwrap();
    let big = 12 << 20;
    std::fs::write(reports.join("big.html"), "<p>lab</p>".repeat(big / 10)).unwrap();
    let server = TestServer::start_config(gobeyond_server::Config {
        listen: "127.0.0.1:0".parse().unwrap(),
        database: sqlite_url(),
        limits: test_limits(),
        reports: Some(reports.clone()),
        ..Default::default()
    })
    .await;
    let before = healthy(&server).await["rss_bytes"].as_u64().unwrap();
    // 30 clients ask for the report and never read a byte of it.
    let mut idle = Vec::new();
    for _ in 0..30 {
        let mut s = TcpStream::connect(server.addr).await.unwrap();
        s.write_all(b"GET /api/lab/reports/big.html HTTP/1.1\r\nHost: x\r\n\r\n").await.unwrap();
        idle.push(s);
    }
    tokio::time::sleep(Duration::from_secs(2)).await;
    let after = healthy(&server).await["rss_bytes"].as_u64().unwrap();
    let grown = after.saturating_sub(before) >> 20;
    assert!(grown < 100, "30 unread 12 MiB reports grew the server by {grown} MiB");
    // A client that reads gets the whole report.
    let whole = reqwest::get(server.url("/api/lab/reports/big.html")).await.unwrap().bytes().await.unwrap();
    assert_eq!(whole.len(), big / 10 * 10);
    drop(idle);
    server.stop().await;
    let _ = std::fs::remove_dir_all(&reports);
}

#[tokio::test]
async fn lobby_lists_never_read_whole_maps() {
    let server = start(test_limits()).await;
    // Public games on big custom maps (the attack: 10 guests, 200 games on 1 MiB maps).
    for g in 0..2 {
        let guest = Client::guest(&server).await;
        for i in 0..15 {
            let map = largest_custom_map(&format!("lobby {g} {i}"));
            let (status, body) =
                guest.post("/api/games", json!({"rules": "classic", "map": map, "players": 2})).await;
            assert_eq!(status, 201, "{body}");
        }
    }
    let before = healthy(&server).await["rss_bytes"].as_u64().unwrap();
    // 14 lists at once from one address.
    let lists = (0..14).map(|_| async {
        let r = reqwest::get(server.url("/api/games?status=open&limit=200")).await.unwrap();
        let list: Value = r.json().await.unwrap();
        list["games"].as_array().unwrap().len()
    });
    let listed = futures_util::future::join_all(lists).await;
    assert!(listed.iter().all(|&n| n == 30), "{listed:?}");
    let list: Value =
        reqwest::get(server.url("/api/games?status=open&limit=1")).await.unwrap().json().await.unwrap();
    assert_eq!(list["games"][0]["map"]["custom"]["nodes"], 4096, "{list}");
    let grown = healthy(&server).await["rss_bytes"].as_u64().unwrap().saturating_sub(before) >> 20;
    assert!(grown < 150, "14 lists grew the server by {grown} MiB");
    server.stop().await;
}

#[tokio::test]
async fn games_of_bots_only_pause_when_nobody_watches_and_are_bounded_per_player() {
    let limits = Limits { unload_after: Duration::from_millis(600), ..test_limits() };
    let server = start(limits).await;
    let owner = Client::guest(&server).await;
    // Strong enough that a game lasts well past the patience.
    let bots = json!({"rules": "classic", "map": "square:19", "players": 2,
        "seats": [{"kind": "bot", "level": 5}, {"kind": "bot", "level": 5}]});
    let game = owner.create(bots.clone()).await;
    for _ in 0..2 {
        owner.create(bots.clone()).await;
    }
    let (status, body) = owner.post("/api/games", bots.clone()).await;
    assert_eq!(status, 429, "a fourth game of bots only at once: {body}");
    // Unwatched, the bots stop searching and the games leave memory.
    let seq = |info: &Value| info["seq"].as_u64().unwrap();
    let mut paused = None;
    for _ in 0..100 {
        tokio::time::sleep(Duration::from_millis(200)).await;
        let health = healthy(&server).await;
        if health["games_loaded"] == 0 && health["bot_searches"] == json!([0, 0]) {
            let info = owner.get(&format!("/api/games/{game}")).await.1;
            assert_eq!(info["status"], "live", "{info}");
            paused = Some(seq(&info));
            break;
        }
    }
    let paused = paused.expect("unwatched games of bots only pause and leave memory");
    tokio::time::sleep(Duration::from_millis(1000)).await;
    assert_eq!(seq(&owner.get(&format!("/api/games/{game}")).await.1), paused, "no move while paused");
    // Watched again, they play on.
    let mut socket = owner.socket().await;
    socket.watch(game, None).await;
    socket.until(|m| m["type"] == "update" && m["seq"].as_u64() > Some(paused)).await;
    server.stop().await;
}

#[tokio::test]
async fn open_games_nobody_joins_expire() {
    let limits = Limits {
        open_game_expiry: Duration::from_millis(400),
        unload_after: Duration::from_millis(200),
        ..test_limits()
    };
    let server = start(limits).await;
    let guest = Client::guest(&server).await;
    let game = guest.create(json!({"rules": "classic", "map": "square:9", "players": 2})).await;
    let mut socket = guest.socket().await;
    socket.watch(game, None).await;
    let gone = socket.until(|v| v["type"] == "error").await;
    assert_eq!(gone["code"], "expired", "{gone}");
    let (status, _) = guest.get(&format!("/api/games/{game}")).await;
    assert_eq!(status, 404);
    server.stop().await;
}

#[tokio::test]
async fn bot_only_games_draw_on_their_own_budget() {
    let limits = Limits { bot_threads: 1, bot_only_threads: 1, ..test_limits() };
    let server = start(limits).await;
    let owner = Client::guest(&server).await;
    // Bot-only games at the strongest level keep their budget busy...
    for _ in 0..3 {
        owner
            .create(json!({"rules": "classic", "map": "square:9", "players": 2,
                "seats": [{"kind": "bot", "level": 10}, {"kind": "bot", "level": 10}]}))
            .await;
    }
    let mut busy = false;
    for _ in 0..200 {
        let searches = healthy(&server).await["bot_searches"].clone();
        if searches == json!([0, 1]) {
            busy = true;
            break;
        }
        assert_eq!(searches[0], 0, "bot-only games never take the people's budget: {searches}");
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    assert!(busy, "the bot-only budget is in use");
    // ...while a person's game against a bot still gets its moves (before, it queued behind
    // them all).
    let person = Client::guest(&server).await;
    let game = person
        .create(json!({"rules": "classic", "map": "square:9", "players": 2,
            "seats": [{"kind": "me"}, {"kind": "bot", "level": 1}]}))
        .await;
    let mut s = person.socket().await;
    s.watch(game, None).await;
    for (i, at) in ["C3", "G7", "C7"].iter().enumerate() {
        let ack = s.act(game, json!({"type": "place", "at": at})).await;
        assert_eq!(ack["type"], "ack", "{ack}");
        // The bot answers: the update after ours.
        let want = 2 * (i as u64 + 1);
        s.until(|v| v["type"] == "update" && v["seq"].as_u64() == Some(want)).await;
    }
    healthy(&server).await;
    server.stop().await;
}

#[tokio::test]
async fn repeated_wrong_logins_to_one_account_wait() {
    let limits = Limits { login_failures: 3, ..test_limits() };
    let server = start(limits).await;
    let owner = Client::guest(&server).await;
    let (s, _) = owner.post("/api/register", json!({"name": "target", "password": "correct horse"})).await;
    assert_eq!(s, 200);
    let http = reqwest::Client::new();
    let login = |name: &'static str, password: &'static str| {
        let (http, url) = (http.clone(), server.url("/api/login"));
        async move {
            http.post(url).json(&json!({"name": name, "password": password})).send().await.unwrap().status()
        }
    };
    for _ in 0..3 {
        assert_eq!(login("target", "wrong one").await, 403);
    }
    // Now even the right password waits: guessing from many addresses is no faster.
    assert_eq!(login("target", "correct horse").await, 429);
    assert_eq!(login("TARGET", "correct horse").await, 429, "the same account by another spelling");
    tokio::time::sleep(Duration::from_millis(1100)).await;
    assert_eq!(login("target", "correct horse").await, 200);
    server.stop().await;
}

#[tokio::test]
async fn private_games_are_private() {
    let server = start(test_limits()).await;
    let creator = Client::guest(&server).await;
    let (status, created) = creator
        .post("/api/games", json!({"rules": "classic", "map": "square:9", "players": 2, "public": false}))
        .await;
    assert_eq!(status, 201);
    let game = created["game"]["id"].as_i64().unwrap();
    let invite = created["invite"].as_str().unwrap().to_string();
    creator.post(&format!("/api/games/{game}/chat"), json!({})).await;
    let stranger = Client::guest(&server).await;
    let anonymous = reqwest::Client::new();
    for path in ["", "/record", "/sgf", "/chat", "/map", "/state?at=0"] {
        let url = format!("/api/games/{game}{path}");
        assert_eq!(stranger.get(&url).await.0, 404, "{url} for a stranger");
        let r = anonymous.get(server.url(&url)).send().await.unwrap();
        assert_eq!(r.status(), 404, "{url} anonymously");
        assert_eq!(creator.get(&url).await.0, 200, "{url} for the creator");
        let sep = if path.contains('?') { '&' } else { '?' };
        let r = anonymous.get(server.url(&format!("{url}{sep}invite={invite}"))).send().await.unwrap();
        assert_eq!(r.status(), 200, "{url} with the invite");
    }
    // Not in the lobby, not joinable, not watchable, without the invite.
    let (_, open) = stranger.get("/api/games?status=open").await;
    assert!(!open["games"].as_array().unwrap().iter().any(|g| g["id"] == game));
    // 404 as for a missing game (issue 40: a 409 told that a private game was there).
    assert_eq!(stranger.post(&format!("/api/games/{game}/join"), json!({})).await.0, 404);
    let mut s = stranger.socket().await;
    s.send(json!({"type": "watch", "game": game})).await;
    let e = s.until(|v| v["type"] == "error").await;
    assert!(e["error"].as_str().unwrap().contains("no game"), "{e}");
    s.send(json!({"type": "chat", "game": game, "text": "hello"})).await;
    let e = s.until(|v| v["type"] == "error").await;
    assert!(e["error"].as_str().unwrap().contains("only the players"), "{e}");
    // A wrong invite admits nobody; the right one admits a spectator for good, who may chat.
    assert_eq!(stranger.post(&format!("/api/games/{game}/admit"), json!({"invite": "guess"})).await.0, 404);
    assert_eq!(stranger.post(&format!("/api/games/{game}/admit"), json!({"invite": invite})).await.0, 200);
    assert_eq!(stranger.get(&format!("/api/games/{game}")).await.0, 200);
    let sync = s.watch(game, None).await;
    assert_eq!(sync["game"], game);
    s.send(json!({"type": "chat", "game": game, "text": "hello"})).await;
    let c = s.until(|v| v["type"] == "chat").await;
    assert_eq!(c["text"], "hello");
    server.stop().await;
}

#[tokio::test]
async fn sessions_cookies_and_names() {
    // Behind a trusted proxy saying HTTPS, cookies are Secure; sessions last one second here.
    let proxy: SocketAddr = "127.0.0.1:0".parse().unwrap();
    let limits = Limits { session_lifetime: Duration::from_secs(2), ..test_limits() };
    let listener_addr = proxy;
    let database = sqlite_url();
    let server = {
        let listener = tokio::net::TcpListener::bind(listener_addr).await.unwrap();
        let addr = listener.local_addr().unwrap();
        drop(listener);
        let config = gobeyond_server::Config {
            listen: addr,
            database: database.clone(),
            trusted_proxies: vec!["127.0.0.1".parse().unwrap()],
            limits,
            ..gobeyond_server::Config::default()
        };
        TestServer::start_config(config).await
    };
    let http = reqwest::Client::new();
    let r = http.post(server.url("/api/guest")).header("x-forwarded-proto", "https").send().await.unwrap();
    let cookie = r.headers()["set-cookie"].to_str().unwrap().to_string();
    assert!(cookie.contains("; Secure"), "{cookie}");
    assert!(cookie.contains("Max-Age=2"), "{cookie}");
    let r = http.post(server.url("/api/guest")).send().await.unwrap();
    assert!(!r.headers()["set-cookie"].to_str().unwrap().contains("Secure"), "plain HTTP, no Secure");

    // Names: one account per name as people read it.
    let a = Client::guest(&server).await;
    let (s, _) = a.post("/api/register", json!({"name": "admin", "password": "correct horse"})).await;
    assert_eq!(s, 200);
    for lookalike in ["ADMIN", "Admin", "ａｄｍｉｎ", "\u{430}dmin"] {
        let b = Client::guest(&server).await;
        let (s, body) =
            b.post("/api/register", json!({"name": lookalike, "password": "correct horse"})).await;
        assert!(s == 409 || s == 400, "{lookalike}: {s} {body}");
    }
    // Registering a guest hands out a new token: the guest's old one no longer works.
    let g = Client::guest(&server).await;
    let old = g.cookie.clone();
    let r = g
        .http
        .post(server.url("/api/register"))
        .json(&json!({"name": "claimer", "password": "correct horse"}))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 200);
    let new = r.headers()["set-cookie"].to_str().unwrap().split(';').next().unwrap().to_string();
    assert_ne!(new, old);
    let r = reqwest::Client::new().get(server.url("/api/me")).header("cookie", &old).send().await.unwrap();
    assert_eq!(r.status(), 401, "the guest token is gone");
    let r = reqwest::Client::new().get(server.url("/api/me")).header("cookie", &new).send().await.unwrap();
    assert_eq!(r.status(), 200);

    // Logout closes the session's sockets.
    let c = Client::guest(&server).await;
    let mut socket = c.socket().await;
    assert_eq!(c.post("/api/logout", json!({})).await.0, 200);
    let mut closed = false;
    while let Ok(Some(m)) = tokio::time::timeout(Duration::from_secs(3), socket.ws.next()).await {
        if matches!(m, Ok(Message::Close(_)) | Err(_)) {
            closed = true;
            break;
        }
    }
    assert!(closed, "logout closes the socket");

    // Sessions end: after their lifetime the cookie no longer signs in, and sockets close.
    let d = Client::guest(&server).await;
    let mut socket = d.socket().await;
    tokio::time::sleep(Duration::from_millis(2300)).await;
    // The cookie is past its Max-Age, so the client's store dropped it: nobody is signed in
    // (as for a first visit); sent anyway, it signs in no more.
    assert_eq!(d.get("/api/me").await, (200, json!({"user": null, "standing": null})));
    let r =
        reqwest::Client::new().get(server.url("/api/me")).header("cookie", &d.cookie).send().await.unwrap();
    assert_eq!(r.status(), 401, "an ended session's cookie no longer signs in");
    let mut closed = false;
    while let Ok(Some(m)) = tokio::time::timeout(Duration::from_secs(3), socket.ws.next()).await {
        if matches!(m, Ok(Message::Close(_)) | Err(_)) {
            closed = true;
            break;
        }
    }
    assert!(closed, "an ended session's socket is closed");
    server.stop().await;
}

#[tokio::test]
async fn out_of_range_values_are_refused_with_their_name() {
    let server = start(test_limits()).await;
    let guest = Client::guest(&server).await;
    let cases = [
        (json!({"rules": {"system": "classic", "komi": 1e308}, "map": "square:9", "players": 2}), "komi"),
        (
            json!({"rules": {"system": "gobeyond", "occupy_cost": i64::MAX}, "map": "square:5", "players": 2}),
            "occupy_cost",
        ),
        (
            json!({"rules": "classic", "map": {"name": "x".repeat(500_000), "nodes": [{"x": 0, "y": 0}, {"x": 1, "y": 0}],
            "edges": [[0, 1]]}, "players": 2}),
            "name",
        ),
        (
            json!({"rules": "classic", "map": {"nodes": [{"x": 0, "y": 0}, {"x": 1e308, "y": 0}],
            "edges": [[0, 1]]}, "players": 2}),
            "coordinate",
        ),
        (
            json!({"rules": "classic", "map": "square:9", "players": 2,
            "time": {"kind": "byo_yomi", "main_seconds": 1e308, "periods": 3, "period_seconds": 5}}),
            "time",
        ),
    ];
    for (body, name) in cases {
        let (status, answer) = guest.post("/api/games", body).await;
        assert_eq!(status, 400, "{answer}");
        let error = answer["error"].as_str().unwrap();
        assert!(error.contains(name) && !error.contains("unknown field"), "{name}: {answer}");
    }
    healthy(&server).await;
    server.stop().await;
}
