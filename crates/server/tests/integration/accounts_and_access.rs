//! Accounts and access through the real HTTP interface, on SQLite and on PostgreSQL: who may do
//! what, bad input that changes nothing, and the caps that hold under concurrency.

use std::time::Duration;

use crate::common::{Client, TestServer, postgres_url, sqlite_url};
use serde_json::{Value, json};

on_both!(
    authorization,
    bad_input_changes_nothing,
    accounts,
    password_hashing_is_bounded,
    game_cap_holds_under_concurrency,
);

async fn authorization(db: &str) {
    let server = TestServer::start(db).await;
    let a = Client::guest(&server).await;
    let b = Client::guest(&server).await;
    let c = Client::guest(&server).await;
    let g1 = a.create(json!({"rules": "chinese", "map": "square:9", "players": 2})).await;
    let (s, _) = b.post(&format!("/api/games/{g1}/join"), json!({})).await;
    assert_eq!(s, 200);
    // Full: nobody else may join.
    let (s, e) = c.post(&format!("/api/games/{g1}/join"), json!({})).await;
    assert_eq!(s, 409, "{e}");
    let mut sb = b.socket().await;
    // b cannot act for a's seat...
    let r = sb.act(g1, json!({"type": "place", "at": "E5"})).await;
    assert!(r["error"].as_str().unwrap().contains("turn"), "{r}");
    sb.send(json!({"type": "act", "game": g1, "seat": 0, "action": {"type": "pass"}, "id": 7})).await;
    let r = sb.until(|v| v["id"] == 7).await;
    assert!(r["error"].as_str().unwrap().contains("not yours"), "{r}");
    // ...nor in a game it does not sit in.
    let g2 = c
        .create(json!({"rules": "chinese", "map": "square:9", "players": 2,
                            "seats": [{"kind": "me"}, {"kind": "bot", "level": 1}]}))
        .await;
    let r = sb.act(g2, json!({"type": "pass"})).await;
    assert!(r["error"].as_str().unwrap().contains("no seat"), "{r}");
    // Invite seats need the link.
    let (s, created) = a
        .post(
            "/api/games",
            json!({"rules": "chinese", "map": "square:9", "players": 2,
                                    "seats": [{"kind": "me"}, {"kind": "invite"}]}),
        )
        .await;
    assert_eq!(s, 201);
    let g3 = created["game"]["id"].as_i64().unwrap();
    let invite = created["invite"].as_str().unwrap();
    let (s, _) = c.post(&format!("/api/games/{g3}/join"), json!({})).await;
    assert_eq!(s, 409);
    let (s, _) = c.post(&format!("/api/games/{g3}/join"), json!({"invite": "wrong"})).await;
    assert_eq!(s, 409);
    let (s, v) = c.post(&format!("/api/games/{g3}/join"), json!({"invite": invite})).await;
    assert_eq!(s, 200, "{v}");
    // A game that is not public takes its open seats by invitation too.
    let (s, created) = a
        .post("/api/games", json!({"rules": "chinese", "map": "square:9", "players": 2, "public": false}))
        .await;
    assert_eq!(s, 201);
    let g4 = created["game"]["id"].as_i64().unwrap();
    let invite = created["invite"].as_str().unwrap();
    let (s, _) = c.post(&format!("/api/games/{g4}/join"), json!({})).await;
    // Answered as for a game that does not exist (issue 40): a 409 confirmed it was there.
    assert_eq!(s, 404, "a stranger with only the game's number");
    let (s, v) = c.post(&format!("/api/games/{g4}/join"), json!({"invite": invite})).await;
    assert_eq!(s, 200, "{v}");
    // A page of another site may not change anything here (it once swapped sessions with a
    // cross-site POST /api/guest); the server's own pages and programs without an Origin may.
    let anon = reqwest::Client::new();
    let r = anon.post(server.url("/api/guest")).header("origin", "http://evil.example").send().await.unwrap();
    assert_eq!(r.status(), 403);
    let own = format!("http://{}", server.addr);
    let r = anon.post(server.url("/api/guest")).header("origin", own).send().await.unwrap();
    assert_eq!(r.status(), 200);
    let r = anon.get(server.url("/api/rules")).header("origin", "http://evil.example").send().await.unwrap();
    assert_eq!(r.status(), 200, "reading is not changing");
    // The client's pages may not be framed by another site, and load only the server's own files.
    let page = anon.get(server.url("/")).send().await.unwrap();
    let csp = page.headers()["content-security-policy"].to_str().unwrap().to_string();
    assert!(csp.contains("frame-ancestors 'none'") && csp.contains("default-src 'self'"), "{csp}");
    assert_eq!(page.headers()["x-content-type-options"], "nosniff");
    // No session: no socket, no game creation.
    let anon = reqwest::Client::new();
    let r = anon.post(server.url("/api/games")).json(&json!({})).send().await.unwrap();
    assert_eq!(r.status(), 401);
    let url = format!("ws://{}/api/ws", server.addr);
    assert!(tokio_tungstenite::connect_async(url.as_str()).await.is_err());
    // A socket from a foreign page is refused even with a valid cookie.
    use tokio_tungstenite::tungstenite::client::IntoClientRequest;
    let mut req = url.as_str().into_client_request().unwrap();
    req.headers_mut().insert("cookie", a.cookie.parse().unwrap());
    req.headers_mut().insert("origin", "http://evil.example".parse().unwrap());
    assert!(tokio_tungstenite::connect_async(req).await.is_err());
    server.stop().await;
}

async fn bad_input_changes_nothing(db: &str) {
    let server = TestServer::start(db).await;
    let a = Client::guest(&server).await;
    let b = Client::guest(&server).await;
    let game = a.create(json!({"rules": "chinese", "map": "square:9", "players": 2})).await;
    b.post(&format!("/api/games/{game}/join"), json!({})).await;
    let mut sa = a.socket().await;
    sa.send_raw("{not json").await;
    let e = sa.until(|v| v["type"] == "error").await;
    assert!(e["error"].as_str().unwrap().starts_with("bad message"), "{e}");
    sa.send(json!({"type": "teleport", "game": game})).await;
    let e = sa.until(|v| v["type"] == "error").await;
    assert!(e["error"].as_str().unwrap().contains("unknown variant"), "{e}");
    for (action, expect) in [
        (json!({"type": "place", "at": "Z99"}), "Z99"),
        (json!({"type": "skip"}), "Classic Go has no \"skip\" action"),
        (json!({"type": "timeout"}), "clock"),
    ] {
        let r = sa.act(game, action).await;
        assert_eq!(r["type"], "error");
        assert!(r["error"].as_str().unwrap().contains(expect), "{r}");
    }
    assert_eq!(sa.act(game, json!({"type": "place", "at": "E5"})).await["seq"], 1);
    let r = sa.act(game, json!({"type": "place", "at": "D5"})).await;
    assert!(r["error"].as_str().unwrap().contains("turn"), "{r}");
    let mut sb = b.socket().await;
    let r = sb.act(game, json!({"type": "place", "at": "E5"})).await;
    assert_eq!(r["type"], "error", "occupied: {r}");
    assert_eq!(r["code"], "occupied", "the refusal's code reaches the client: {r}");
    let r = sb.act(game, json!({"type": "place", "at": "E5"})).await;
    assert_eq!(r["type"], "error");
    // Finished games refuse actions.
    assert_eq!(sb.act(game, json!({"type": "resign"})).await["type"], "ack");
    let r = sa.act(game, json!({"type": "pass"})).await;
    assert!(r["error"].as_str().unwrap().contains("over"), "{r}");
    let (_, info) = a.get(&format!("/api/games/{game}")).await;
    assert_eq!(info["seq"], 2, "only the two legal actions were logged");
    // Oversize frames close the socket; the server stays up.
    sa.send_raw(&format!("{{\"type\":\"chat\",\"game\":{game},\"text\":\"{}\"}}", "x".repeat(70_000))).await;
    let closed = tokio::time::timeout(Duration::from_secs(5), async {
        use futures_util::StreamExt;
        loop {
            match sa.ws.next().await {
                None | Some(Err(_)) => return true,
                Some(Ok(tokio_tungstenite::tungstenite::Message::Close(_))) => return true,
                _ => continue,
            }
        }
    })
    .await;
    assert_eq!(closed, Ok(true));
    // Bad game settings, each with its reason.
    for (body, expect) in [
        (json!({"rules": "gobeyond", "map": "hex:3", "players": 9}), "2 to 8"),
        (json!({"rules": "gobeyond", "map": "nowhere:3", "players": 2}), "nowhere"),
        (json!({"rules": "speedgo", "map": "square:9", "players": 2}), "speedgo"),
        (
            json!({"rules": "gobeyond", "map": "square:9", "players": 2, "seats": [{"kind": "bot", "level": 11}]}),
            "level 11",
        ),
        (
            json!({"rules": "chinese", "map": "square:9", "players": 2, "time": {"kind": "absolute", "main_seconds": -1}}),
            "time.main_seconds: at least 1 second",
        ),
        (json!({"rules": "gobeyond", "map": "grid:17x17x17", "players": 2}), "at most 4096"),
    ] {
        let (s, v) = a.post("/api/games", body.clone()).await;
        assert_eq!(s, 400, "{body} → {v}");
        assert!(v["error"].as_str().unwrap().contains(expect), "{body} → {v}");
    }
    let r = a
        .http
        .post(server.url("/api/games"))
        .body("{")
        .header("content-type", "application/json")
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 400);
    let (s, _) = a.get("/api/health").await;
    assert_eq!(s, 200);
    // Sign-ups from one address are rate limited (2 per second, bursts of 100).
    let http = reqwest::Client::new();
    let mut limited = false;
    for _ in 0..120 {
        if http.post(server.url("/api/guest")).send().await.unwrap().status() == 429 {
            limited = true;
            break;
        }
    }
    assert!(limited, "a flood of sign-ups is refused");
    server.stop().await;
}

async fn accounts(db: &str) {
    let server = TestServer::start(db).await;
    let guest = Client::guest(&server).await;
    let game = guest.create(json!({"rules": "chinese", "map": "square:9", "players": 2})).await;
    let name = format!("player{}", crate::common::unique() % 1_000_000_000);
    // A guest claims an account and keeps its games.
    let (s, v) = guest.post("/api/register", json!({"name": name, "password": "correct horse"})).await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["claimed_guest"], true);
    let (_, me) = guest.get("/api/me").await;
    assert_eq!(me["user"]["name"], name.as_str());
    assert_eq!(me["user"]["kind"], "registered");
    let (_, mine) = guest.get("/api/games?status=open&mine=true").await;
    assert!(mine["games"].as_array().unwrap().iter().any(|g| g["id"] == game));
    // Log out: the session is revoked.
    let (s, _) = guest.post("/api/logout", json!({})).await;
    assert_eq!(s, 200);
    let r = reqwest::Client::new()
        .get(server.url("/api/me"))
        .header("cookie", guest.cookie.as_str())
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 401, "the old cookie no longer works");
    // A first visit carries no session at all: "nobody", not an error the browser logs.
    let r = reqwest::Client::new().get(server.url("/api/me")).send().await.unwrap();
    assert_eq!(r.status(), 200);
    assert_eq!(r.json::<Value>().await.unwrap(), json!({"user": null, "standing": null}));
    // Log in again; wrong passwords and taken names are refused.
    let http = reqwest::Client::builder().cookie_store(true).build().unwrap();
    let r = http
        .post(server.url("/api/login"))
        .json(&json!({"name": name, "password": "wrong pass"}))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 403);
    let r = http
        .post(server.url("/api/login"))
        .json(&json!({"name": name, "password": "correct horse"}))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 200);
    let r = http
        .post(server.url("/api/register"))
        .json(&json!({"name": name, "password": "another one"}))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 409);
    let r = http
        .post(server.url("/api/register"))
        .json(&json!({"name": "x", "password": "short"}))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 400);
    // A bot account plays through the same API with its token.
    let r = http
        .post(server.url("/api/bots"))
        .json(&json!({"name": format!("{name}-bot")}))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 201);
    let bot: Value = r.json().await.unwrap();
    let token = bot["token"].as_str().unwrap();
    let r = reqwest::Client::new()
        .post(server.url(&format!("/api/games/{game}/join")))
        .bearer_auth(token)
        .json(&json!({}))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 200);
    use tokio_tungstenite::tungstenite::client::IntoClientRequest;
    let mut req = format!("ws://{}/api/ws", server.addr).into_client_request().unwrap();
    req.headers_mut().insert("authorization", format!("Bearer {token}").parse().unwrap());
    let (ws, _) = tokio_tungstenite::connect_async(req).await.expect("the bot's socket");
    let mut s = crate::common::Socket::new(ws);
    let hello = s.next().await;
    assert_eq!(hello["user"]["kind"], "bot");
    server.stop().await;
}

/// A flood of wrong logins is answered without hashing them all at once: at most one hash per
/// core runs and a short queue waits; the rest are refused at once (300 simultaneous wrong
/// logins once took 3.5 GiB). A missing name is answered like a wrong password.
async fn password_hashing_is_bounded(db: &str) {
    let server = TestServer::start(db).await;
    let guest = Client::guest(&server).await;
    let (s, _) = guest.post("/api/register", json!({"name": "floodee", "password": "correct horse"})).await;
    assert_eq!(s, 200);
    let http = reqwest::Client::new();
    let tries: Vec<_> = (0..90)
        .map(|i| {
            let (http, url) = (http.clone(), server.url("/api/login"));
            let name = if i % 2 == 0 { "floodee" } else { "nobody-here" };
            tokio::spawn(async move {
                let r =
                    http.post(url).json(&json!({"name": name, "password": "wrong"})).send().await.unwrap();
                r.status().as_u16()
            })
        })
        .collect();
    let mut statuses = Vec::new();
    for t in tries {
        statuses.push(t.await.unwrap());
    }
    assert!(statuses.iter().all(|&s| s == 403 || s == 429), "{statuses:?}");
    assert!(statuses.contains(&429), "the queue is bounded: {statuses:?}");
    assert!(statuses.contains(&403), "some were checked: {statuses:?}");
    let (status, health) = guest.get("/api/health").await;
    assert_eq!((status, &health["ok"]), (200, &json!(true)));
    server.stop().await;
}

/// The cap on a player's open games holds when the requests come all at once.
async fn game_cap_holds_under_concurrency(db: &str) {
    let server = TestServer::start(db).await;
    let a = std::sync::Arc::new(Client::guest(&server).await);
    let body = json!({"rules": "gobeyond", "map": "hex:3", "players": 2, "seats": [{"kind": "me"}, {"kind": "open"}]});
    let tries: Vec<_> = (0..40)
        .map(|_| {
            let (a, body) = (a.clone(), body.clone());
            tokio::spawn(async move { a.post("/api/games", body).await.0 })
        })
        .collect();
    let mut created = 0;
    for t in tries {
        match t.await.unwrap() {
            201 => created += 1,
            429 => {}
            other => panic!("unexpected status {other}"),
        }
    }
    assert_eq!(created, 20, "exactly the cap, however the requests interleave");
    let (status, _) = a.post("/api/games", body).await;
    assert_eq!(status, 429);
    server.stop().await;
}
