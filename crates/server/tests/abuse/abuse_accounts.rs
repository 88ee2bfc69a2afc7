//! The abuse suite for accounts, logins, bot tokens and messages (issue 40): each test sends
//! what got through, on loopback only, and checks that it is refused and that the server still
//! answers its health check. SQLite only: none of this depends on the database.

use std::{net::IpAddr, time::Duration};

use crate::{
    common::{Client, TestServer, sqlite_url, test_limits},
    healthy, start,
};
use gobeyond_server::limit::Limits;
use serde_json::{Value, json};

/// An HTTP client whose connections come from 127.0.0.`last` (all of 127/8 is loopback).
fn from_address(last: u8) -> reqwest::Client {
    reqwest::Client::builder().local_address(IpAddr::from([127, 0, 0, last])).build().unwrap()
}

/// A login's status, body and session cookie.
async fn login(
    http: &reqwest::Client,
    server: &TestServer,
    name: &str,
    password: &str,
    cookie: Option<&str>,
) -> (u16, Value, Option<String>) {
    let mut request = http.post(server.url("/api/login")).json(&json!({"name": name, "password": password}));
    if let Some(cookie) = cookie {
        request = request.header("cookie", cookie);
    }
    let r = request.send().await.unwrap();
    let status = r.status().as_u16();
    let cookie = r
        .headers()
        .get("set-cookie")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .map(str::to_string);
    (status, r.json().await.unwrap_or(Value::Null), cookie)
}

/// Registers `name` from a new guest.
async fn register(server: &TestServer, name: &str) -> (u16, Value) {
    Client::guest(server)
        .await
        .post("/api/register", json!({"name": name, "password": "correct horse"}))
        .await
}

#[tokio::test]
async fn capital_look_alikes_of_taken_names_are_refused() {
    let server = start(test_limits()).await;
    for name in ["admin", "Bob", "PayPal"] {
        assert_eq!(register(&server, name).await.0, 200, "{name}");
    }
    // Greek capitals, a Cyrillic capital Ve, Cherokee, capital I for l, a digit for O.
    for lookalike in
        ["\u{391}D\u{39C}\u{399}\u{39D}", "\u{412}ob", "B\u{41E}B", "\u{13F4}ob", "PayPaI", "B0b", "ADMlN"]
    {
        let (status, body) = register(&server, lookalike).await;
        assert_eq!(status, 409, "{lookalike}: {body}");
    }
    // And signing in by a look-alike finds the account it looks like.
    let http = from_address(1);
    assert_eq!(login(&http, &server, "\u{412}OB", "correct horse", None).await.0, 200);
    healthy(&server).await;
    server.stop().await;
}

#[tokio::test]
async fn an_older_database_loads_with_the_new_name_keys_and_the_older_name_keeps_its_key() {
    use sqlx::{Connection, Row};
    let database = sqlite_url();
    let server = TestServer::start_with(&database, "127.0.0.1:0".parse().unwrap(), test_limits()).await;
    let (status, bob) = register(&server, "Bob").await;
    assert_eq!(status, 200);
    server.stop().await;
    // What the old key let in: a Cyrillic "Вob" beside "Bob", Greek "ΖΟΕ" before a "zoe", each
    // with the key the old rule gave it; then the migration that recomputes keys is undone.
    let mut db = sqlx::SqliteConnection::connect(&format!("{database}?mode=rwc")).await.unwrap();
    for (name, old_key) in
        [("\u{412}ob", "\u{299}ob"), ("\u{396}\u{39F}\u{395}", "\u{3b6}\u{3bf}\u{3b5}"), ("zoe", "zoe")]
    {
        sqlx::query(
            "INSERT INTO users (name, name_key, kind, password_hash, created_ms) VALUES ($1, $2, 'registered', NULL, 0)",
        )
        .bind(name)
        .bind(old_key)
        .execute(&mut db)
        .await
        .unwrap();
    }
    sqlx::query("DELETE FROM _sqlx_migrations WHERE version = 5").execute(&mut db).await.unwrap();
    db.close().await.unwrap();

    let server = TestServer::start_with(&database, "127.0.0.1:0".parse().unwrap(), test_limits()).await;
    let (status, body, _) = login(&from_address(1), &server, "Bob", "correct horse", None).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["user"]["id"], bob["user"]["id"], "the older Bob keeps the key");
    let (_, zoe) = Client::guest(&server).await.get("/api/players/zoe").await;
    assert_eq!(zoe["name"], "\u{396}\u{39F}\u{395}", "the older of ΖΟΕ and zoe keeps the key");
    assert_eq!(register(&server, "\u{412}OB").await.0, 409);
    assert_eq!(register(&server, "carol").await.0, 200, "new names still register");
    server.stop().await;

    let mut db = sqlx::SqliteConnection::connect(&database).await.unwrap();
    let keys: Vec<(String, String)> = sqlx::query("SELECT name, name_key FROM users ORDER BY id")
        .fetch_all(&mut db)
        .await
        .unwrap()
        .iter()
        .map(|r| (r.get("name"), r.get("name_key")))
        .collect();
    let key = |name: &str| keys.iter().find(|(n, _)| n == name).map(|(_, k)| k.clone()).unwrap();
    assert_eq!(key("Bob"), "bob");
    assert!(key("\u{412}ob").starts_with("bob#"), "{keys:?}");
    assert!(key("zoe").starts_with("zoe#"), "{keys:?}");
}

#[tokio::test]
async fn one_address_guessing_a_password_does_not_lock_out_the_owner() {
    let limits = Limits { login_failures: 3, login_failures_per_account: 8, ..test_limits() };
    let server = start(limits).await;
    assert_eq!(register(&server, "target").await.0, 200);
    // The attacker's address waits after its 3 failures, even with the right password.
    let attacker = from_address(2);
    for _ in 0..3 {
        assert_eq!(login(&attacker, &server, "target", "wrong pass", None).await.0, 403);
    }
    let (status, body, _) = login(&attacker, &server, "target", "correct horse", None).await;
    assert_eq!(status, 429, "{body}");
    assert!(body["error"].as_str().unwrap().contains("from this address"), "{body}");
    // The owner, from another address it never used, is not concerned.
    let owner = from_address(3);
    let (status, body, cookie) = login(&owner, &server, "target", "correct horse", None).await;
    assert_eq!(status, 200, "{body}");
    let cookie = cookie.unwrap();

    // Many addresses reach the account's ceiling: then a new address waits too...
    let mut refused = Vec::new();
    for last in 4..=6 {
        for _ in 0..3 {
            refused.push(login(&from_address(last), &server, "target", "wrong pass", None).await.0);
        }
    }
    // 3 failures from .2, 3 from .4, 2 from .5 make 8: the ceiling.
    assert_eq!(refused, [403, 403, 403, 403, 403, 429, 429, 429, 429]);
    let (status, body, _) = login(&from_address(7), &server, "target", "correct horse", None).await;
    assert_eq!(status, 429, "{body}");
    assert!(body["error"].as_str().unwrap().contains("many addresses"), "{body}");
    // ... but not the owner: from an address it signed in from, or with its session.
    assert_eq!(login(&owner, &server, "target", "correct horse", None).await.0, 200);
    assert_eq!(login(&from_address(8), &server, "target", "correct horse", Some(&cookie)).await.0, 200);
    // Another account's session is no key to this one.
    let other = Client::guest(&server).await;
    assert_eq!(login(&from_address(9), &server, "target", "correct horse", Some(&other.cookie)).await.0, 429);
    healthy(&server).await;
    server.stop().await;
}

#[tokio::test]
async fn weak_passwords_are_refused_with_what_was_wrong() {
    let server = start(test_limits()).await;
    for (password, why) in [
        ("        ", "spaces only"),
        ("aaaaaaaa", "repeated"),
        ("\0\0\0\0\0\0\0\0", "control characters"),
        ("correct\0horse", "control characters"),
        ("Weakling", "name"),
    ] {
        let guest = Client::guest(&server).await;
        let (status, body) =
            guest.post("/api/register", json!({"name": "weakling", "password": password})).await;
        assert_eq!(status, 400, "{password:?}: {body}");
        assert!(body["error"].as_str().unwrap().contains(why), "{password:?}: {body}");
    }
    healthy(&server).await;
    server.stop().await;
}

#[tokio::test]
async fn chat_arrives_without_controls_or_direction_overrides() {
    let server = start(test_limits()).await;
    let guest = Client::guest(&server).await;
    let game = guest.create(json!({"rules": "classic", "map": "square:9", "players": 2})).await;
    let mut socket = guest.socket().await;
    socket.watch(game, None).await;
    let text = "gg\u{202E}pmal\u{0}\u{1B}[2J\u{2066}\u{200B}\u{FEFF}\nok";
    socket.send(json!({"type": "chat", "game": game, "text": text})).await;
    let line = socket.until(|v| v["type"] == "chat").await;
    assert_eq!(line["text"], "ggpmal[2J ok", "{line}");
    let (_, history) = guest.get(&format!("/api/games/{game}/chat")).await;
    assert_eq!(history["chat"][0]["text"], "ggpmal[2J ok");
    // Nothing visible is nothing.
    socket.send(json!({"type": "chat", "game": game, "text": "\u{202E}\u{200F}\u{0}"})).await;
    let e = socket.until(|v| v["type"] == "error").await;
    assert!(e["error"].as_str().unwrap().contains("empty"), "{e}");
    socket.close().await;
    healthy(&server).await;
    server.stop().await;
}

#[tokio::test]
async fn a_message_that_does_not_parse_gets_its_error_with_its_id() {
    let server = start(test_limits()).await;
    let guest = Client::guest(&server).await;
    let mut socket = guest.socket().await;
    for (message, id) in [
        (json!({"type": "act", "id": 42, "game": "not a number", "action": {}}), json!(42)),
        (json!({"type": "no such type", "id": "abc"}), json!("abc")),
        (json!({"type": "ping", "id": {"n": 1}, "extra": true}), json!({"n": 1})),
    ] {
        socket.send(message.clone()).await;
        let e = socket.until(|v| v["type"] == "error").await;
        assert_eq!(e["id"], id, "{message} → {e}");
        assert!(e["error"].as_str().unwrap().starts_with("bad message"), "{e}");
    }
    socket.send_raw("{\"type\": \"ping\", \"id\": 7").await;
    let e = socket.until(|v| v["type"] == "error").await;
    assert_eq!(e["id"], Value::Null, "not JSON: no id to echo");
    socket.close().await;
    healthy(&server).await;
    server.stop().await;
}

/// A registered user with a cookie-carrying client.
async fn registered(server: &TestServer, name: &str) -> Client {
    let client = Client::guest(server).await;
    let r = client
        .http
        .post(server.url("/api/register"))
        .json(&json!({"name": name, "password": "correct horse"}))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 200);
    // The registered account's cookie (the client's store holds it; sockets need it by hand).
    let cookie = r.headers()["set-cookie"].to_str().unwrap().split(';').next().unwrap().to_string();
    Client { cookie, user: r.json::<Value>().await.unwrap()["user"].clone(), ..client }
}

async fn me_with(server: &TestServer, token: &str) -> u16 {
    let r = reqwest::Client::new().get(server.url("/api/me")).bearer_auth(token).send().await.unwrap();
    r.status().as_u16()
}

#[tokio::test]
async fn bots_per_owner_are_capped_even_when_asked_for_at_once() {
    let server = start(test_limits()).await;
    let owner = registered(&server, "botmaker").await;
    let asks = (0..15).map(|i| owner.post("/api/bots", json!({"name": format!("bot-{i}")})));
    let statuses: Vec<u16> = futures_util::future::join_all(asks).await.into_iter().map(|(s, _)| s).collect();
    assert_eq!(statuses.iter().filter(|s| **s == 201).count(), 10, "{statuses:?}");
    assert!(statuses.iter().all(|s| *s == 201 || *s == 429), "{statuses:?}");
    let (status, body) = owner.post("/api/bots", json!({"name": "one-more"})).await;
    assert_eq!(status, 429, "{body}");
    assert!(body["error"].as_str().unwrap().contains("at most 10 bots"), "{body}");
    assert_eq!(owner.get("/api/bots").await.1["bots"].as_array().unwrap().len(), 10);
    healthy(&server).await;
    server.stop().await;
}

#[tokio::test]
async fn a_bot_token_can_be_replaced_and_the_old_one_stops_at_once() {
    use futures_util::StreamExt;
    use tokio_tungstenite::tungstenite::{Message, client::IntoClientRequest};
    let server = start(test_limits()).await;
    let owner = registered(&server, "ada").await;
    let (status, created) = owner.post("/api/bots", json!({"name": "ada-bot"})).await;
    assert_eq!(status, 201, "{created}");
    let old = created["token"].as_str().unwrap().to_string();
    assert_eq!(me_with(&server, &old).await, 200);
    // A socket on the old token.
    let mut request = format!("ws://{}/api/ws", server.addr).into_client_request().unwrap();
    request.headers_mut().insert("authorization", format!("Bearer {old}").parse().unwrap());
    let (mut ws, _) = tokio_tungstenite::connect_async(request).await.unwrap();

    // Only the owner may replace it; bad expiries are refused with their name.
    let stranger = registered(&server, "mallory").await;
    assert_eq!(stranger.post("/api/bots/ada-bot/token", json!({})).await.0, 404);
    let (status, body) = owner.post("/api/bots/ada-bot/token", json!({"expires_days": 0})).await;
    assert_eq!(status, 400);
    assert!(body["error"].as_str().unwrap().contains("expires_days"), "{body}");
    assert_eq!(me_with(&server, &old).await, 200, "a refused request changes nothing");

    let (status, rotated) = owner.post("/api/bots/ADA-BOT/token", json!({"expires_days": 30})).await;
    assert_eq!(status, 200, "{rotated}");
    assert_eq!(rotated["user"]["name"], "ada-bot");
    let new = rotated["token"].as_str().unwrap();
    assert_ne!(new, old);
    assert_eq!(me_with(&server, &old).await, 401, "the old token stops at once");
    assert_eq!(me_with(&server, new).await, 200);
    let mut closed = false;
    while let Ok(Some(m)) = tokio::time::timeout(Duration::from_secs(3), ws.next()).await {
        if matches!(m, Ok(Message::Close(_)) | Err(_)) {
            closed = true;
            break;
        }
    }
    assert!(closed, "the old token's socket closes");
    // Without a body: a token that does not expire.
    let (status, again) = owner.post("/api/bots/ada-bot/token", json!({})).await;
    assert_eq!(status, 200, "{again}");
    assert_eq!(me_with(&server, new).await, 401);
    healthy(&server).await;
    server.stop().await;
}
