//! Connections and sockets that never finish, never speak or never read: closed, counted per
//! address, and cut off before the server's memory grows.

use std::{net::SocketAddr, time::Duration};

use crate::{
    MEMORY_CEILING,
    common::{Client, test_limits},
    healthy, start,
};
use futures_util::{SinkExt, StreamExt};
use gobeyond_server::limit::Limits;
use serde_json::json;
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
