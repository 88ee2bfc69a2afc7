//! Requests that once got through: a map that never finishes, logins in a loop, private games
//! read by others, sessions and names, values out of range.

use std::{net::SocketAddr, time::Duration};

use crate::{
    common::{Client, TestServer, largest_custom_map, sqlite_url, test_limits},
    healthy, start,
};
use futures_util::StreamExt;
use gobeyond_server::limit::Limits;
use serde_json::json;
use tokio_tungstenite::tungstenite::Message;

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
