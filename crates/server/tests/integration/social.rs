//! Finding and keeping opponents: challenges, follows and presence, blocks, automatch seeks,
//! cancelling open games; on SQLite and on PostgreSQL.

use std::time::Duration;

use crate::common::{Client, TestServer, postgres_url, sqlite_url};
use serde_json::{Value, json};

on_both!(
    challenge_accepted_and_expired,
    challenge_declined_and_withdrawn,
    blocks_stop_challenges_chat_and_invitations,
    follows_show_presence_and_live_games,
    automatch_of_two_and_of_four,
    bots_fill_a_seek,
    cancel_an_open_game,
    bad_input_is_refused_with_reasons,
);

/// A registered player (challenges are between accounts).
async fn member(server: &TestServer, prefix: &str) -> Client {
    Client::registered(server, &format!("{prefix}{}", crate::common::unique() % 1_000_000_000)).await
}

fn name(c: &Client) -> String {
    c.user["name"].as_str().unwrap().to_string()
}

async fn delete(c: &Client, path: &str) -> (u16, Value) {
    let r = c.http.delete(format!("{}{path}", c.base)).send().await.unwrap();
    let status = r.status().as_u16();
    (status, r.json().await.unwrap_or(Value::Null))
}

fn small_game() -> Value {
    json!({"rules": "gobeyond", "map": "hex:3", "players": 2})
}

async fn challenge_accepted_and_expired(db: &str) {
    let server = TestServer::start(db).await;
    let a = member(&server, "chal").await;
    let b = member(&server, "lenger").await;
    // The challenger plays second: the challenged player is kept seat 0.
    let game = json!({"rules": "gobeyond", "map": "hex:3", "players": 2, "seats": [{"kind": "open"}, {"kind": "me"}]});
    let (s, c) = a.post("/api/challenges", json!({"to": name(&b), "game": game})).await;
    assert_eq!(s, 201, "{c}");
    assert_eq!(
        (c["status"].as_str(), c["their_seat"].as_u64(), c["incoming"].as_bool()),
        (Some("pending"), Some(0), Some(false))
    );
    let id = c["id"].as_i64().unwrap();
    // The challenged player counts it among those waiting for their answer.
    let (_, incoming) = b.get("/api/challenges?incoming").await;
    assert_eq!(incoming["incoming_pending"], 1, "{incoming}");
    assert_eq!(incoming["challenges"][0]["from"], name(&a).as_str());
    assert_eq!(a.get("/api/challenges?incoming").await.1["challenges"], json!([]));
    assert_eq!(a.get("/api/challenges").await.1["challenges"][0]["id"], id);
    // Only the challenged player accepts; then the game starts with both seated.
    assert_eq!(a.post(&format!("/api/challenges/{id}/accept"), json!({})).await.0, 403);
    let (s, accepted) = b.post(&format!("/api/challenges/{id}/accept"), json!({})).await;
    assert_eq!(s, 200, "{accepted}");
    assert_eq!(accepted["status"], "accepted");
    let g = accepted["game"].as_i64().unwrap();
    let (_, info) = a.get(&format!("/api/games/{g}")).await;
    assert_eq!(info["status"], "live", "{info}");
    assert_eq!(info["seats"][0]["user_id"], b.id());
    assert_eq!(info["seats"][1]["user_id"], a.id());
    let (s, again) = b.post(&format!("/api/challenges/{id}/accept"), json!({})).await;
    assert_eq!(s, 409);
    assert!(again["error"].as_str().unwrap().contains("accepted already"), "{again}");
    // A challenge the challenger let last one second expires unanswered.
    let (s, c) =
        a.post("/api/challenges", json!({"to": name(&b), "game": small_game(), "expires_seconds": 1})).await;
    assert_eq!(s, 201, "{c}");
    let id = c["id"].as_i64().unwrap();
    tokio::time::sleep(Duration::from_millis(1500)).await;
    let (s, late) = b.post(&format!("/api/challenges/{id}/accept"), json!({})).await;
    assert_eq!(s, 409);
    assert!(late["error"].as_str().unwrap().contains("expired"), "{late}");
    let (_, list) = b.get("/api/challenges").await;
    let listed = list["challenges"].as_array().unwrap().iter().find(|c| c["id"] == id).cloned().unwrap();
    assert_eq!(listed["status"], "expired");
    assert_eq!(list["incoming_pending"], 0);
    server.stop().await;
}

async fn challenge_declined_and_withdrawn(db: &str) {
    let server = TestServer::start(db).await;
    let a = member(&server, "dec").await;
    let b = member(&server, "liner").await;
    let send = || a.post("/api/challenges", json!({"to": name(&b), "game": small_game()}));
    let first = send().await.1["id"].as_i64().unwrap();
    let second = send().await.1["id"].as_i64().unwrap();
    let third = send().await.1["id"].as_i64().unwrap();
    // At most three pending challenges from one player to another.
    let (s, v) = send().await;
    assert_eq!(s, 429, "{v}");
    assert!(v["error"].as_str().unwrap().contains("one player"), "{v}");
    assert_eq!(a.post(&format!("/api/challenges/{first}/decline"), json!({})).await.0, 403);
    let (s, v) = b.post(&format!("/api/challenges/{first}/decline"), json!({})).await;
    assert_eq!((s, v["status"].as_str()), (200, Some("declined")), "{v}");
    assert_eq!(b.post(&format!("/api/challenges/{second}/withdraw"), json!({})).await.0, 403);
    let (s, v) = a.post(&format!("/api/challenges/{second}/withdraw"), json!({})).await;
    assert_eq!((s, v["status"].as_str()), (200, Some("withdrawn")), "{v}");
    let (s, v) = b.post(&format!("/api/challenges/{second}/accept"), json!({})).await;
    assert_eq!(s, 409);
    assert!(v["error"].as_str().unwrap().contains("withdrawn"), "{v}");
    // Strangers are told there is no such challenge.
    let c = member(&server, "other").await;
    assert_eq!(c.post(&format!("/api/challenges/{third}/accept"), json!({})).await.0, 404);
    assert_eq!(b.get("/api/challenges?incoming").await.1["incoming_pending"], 1);
    server.stop().await;
}

async fn blocks_stop_challenges_chat_and_invitations(db: &str) {
    let server = TestServer::start(db).await;
    let a = member(&server, "pest").await;
    let b = member(&server, "blocker").await;
    // A game they play together, then B blocks A.
    let game = a.create(json!({"rules": "gobeyond", "map": "square:5", "players": 2})).await;
    assert_eq!(b.post(&format!("/api/games/{game}/join"), json!({})).await.0, 200);
    let pending = a.post("/api/challenges", json!({"to": name(&b), "game": small_game()})).await.1["id"]
        .as_i64()
        .unwrap();
    let (s, v) = b.post("/api/blocks", json!({"name": name(&a)})).await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(b.get("/api/blocks").await.1["people"][0]["name"], name(&a).as_str());
    // Their pending challenge went, and new ones are refused, saying why.
    assert_eq!(b.get("/api/challenges?incoming").await.1["incoming_pending"], 0);
    assert_eq!(b.post(&format!("/api/challenges/{pending}/accept"), json!({})).await.0, 403);
    let (s, v) = a.post("/api/challenges", json!({"to": name(&b), "game": small_game()})).await;
    assert_eq!(s, 403);
    assert!(v["error"].as_str().unwrap().contains("has blocked you"), "{v}");
    let (s, v) = b.post("/api/challenges", json!({"to": name(&a), "game": small_game()})).await;
    assert_eq!(s, 403);
    assert!(v["error"].as_str().unwrap().contains("unblock"), "{v}");
    // A's chat does not reach B (their socket, their history); B's own line does.
    let mut sb = b.socket().await;
    sb.watch(game, None).await;
    let mut sa = a.socket().await;
    sa.watch(game, None).await;
    sa.send(json!({"type": "chat", "game": game, "text": "hello from the pest"})).await;
    let seen = sa.until(|v| v["type"] == "chat" && !v["from"].is_null()).await;
    assert_eq!(seen["text"], "hello from the pest", "the others still read it");
    sb.send(json!({"type": "chat", "game": game, "text": "my own line"})).await;
    let first = sb.until(|v| v["type"] == "chat" && !v["from"].is_null()).await;
    assert_eq!(first["text"], "my own line", "{first}");
    // The table's own lines ("… joined") aside.
    let said =
        |history: &Value| history["chat"].as_array().unwrap().iter().filter(|l| !l["from"].is_null()).count();
    let (_, history) = b.get(&format!("/api/games/{game}/chat")).await;
    assert_eq!(said(&history), 1, "{history}");
    assert_eq!(said(&a.get(&format!("/api/games/{game}/chat")).await.1), 2);
    // A cannot take the invited seat of B's game, nor follow B.
    let (s, created) = b
        .post("/api/games", json!({"rules": "gobeyond", "map": "hex:3", "players": 2, "seats": [{"kind": "me"}, {"kind": "invite"}]}))
        .await;
    assert_eq!(s, 201, "{created}");
    let (g, invite) = (created["game"]["id"].as_i64().unwrap(), created["invite"].clone());
    let (s, v) = a.post(&format!("/api/games/{g}/join"), json!({"invite": invite})).await;
    assert_eq!(s, 403);
    assert!(v["error"].as_str().unwrap().contains("blocked you"), "{v}");
    assert_eq!(a.post("/api/follows", json!({"name": name(&b)})).await.0, 403);
    // Unblocked: challenges go through again.
    assert_eq!(delete(&b, &format!("/api/blocks/{}", name(&a))).await.0, 200);
    assert_eq!(b.get("/api/blocks").await.1["people"], json!([]));
    assert_eq!(a.post("/api/challenges", json!({"to": name(&b), "game": small_game()})).await.0, 201);
    server.stop().await;
}

async fn follows_show_presence_and_live_games(db: &str) {
    let server = TestServer::start(db).await;
    let a = member(&server, "fan").await;
    let b = member(&server, "star").await;
    let (s, v) = a.post("/api/follows", json!({"name": name(&b)})).await;
    assert_eq!(s, 200, "{v}");
    let (_, list) = a.get("/api/follows").await;
    assert_eq!(list["people"][0]["name"], name(&b).as_str());
    assert_eq!(list["people"][0]["online"], false, "never seen yet: {list}");
    // B shows up (the lobby's polls, an open socket) and starts a game against a bot.
    b.get("/api/challenges").await;
    let game = b
        .create(json!({"rules": "gobeyond", "map": "hex:3", "players": 2, "seats": [{"kind": "me"}, {"kind": "bot", "level": 1}]}))
        .await;
    let (_, list) = a.get("/api/follows").await;
    assert_eq!(list["people"][0]["online"], true, "{list}");
    assert_eq!(list["people"][0]["live_games"], json!([game]), "{list}");
    let (_, social) = a.get(&format!("/api/players/{}/social", name(&b))).await;
    assert_eq!(
        (social["following"].as_bool(), social["online"].as_bool()),
        (Some(true), Some(true)),
        "{social}"
    );
    assert_eq!(social["challenge"], Value::Null, "{social}");
    // A socket alone is presence too.
    let c = member(&server, "quiet").await;
    let (_, social) = a.get(&format!("/api/players/{}/social", name(&c))).await;
    assert_eq!(social["online"], false);
    let _socket = c.socket().await;
    let (_, social) = a.get(&format!("/api/players/{}/social", name(&c))).await;
    assert_eq!(social["online"], true);
    assert_eq!(delete(&a, &format!("/api/follows/{}", name(&b))).await.0, 200);
    assert_eq!(a.get("/api/follows").await.1["people"], json!([]));
    server.stop().await;
}

fn seek(min: u32, max: u32, players: u32) -> Value {
    json!({"rules": "gobeyond", "shape": "hex", "min_size": min, "max_size": max, "players": players})
}

async fn automatch_of_two_and_of_four(db: &str) {
    let server = TestServer::start(db).await;
    let a = Client::guest(&server).await;
    let b = Client::guest(&server).await;
    let (s, v) = a.post("/api/seek", seek(3, 4, 2)).await;
    assert_eq!(s, 201, "{v}");
    assert_eq!(v["seek"]["state"], "waiting", "{v}");
    // A different number of players does not meet it; overlapping sizes do.
    let c = Client::guest(&server).await;
    assert_eq!(c.post("/api/seek", seek(3, 4, 3)).await.1["seek"]["state"], "waiting");
    let (_, v) = b.post("/api/seek", seek(4, 6, 2)).await;
    assert_eq!(v["seek"]["state"], "matched", "{v}");
    let game = v["seek"]["game"].as_i64().unwrap();
    let (_, mine) = a.get("/api/seek").await;
    assert_eq!(mine["seek"]["game"], game, "{mine}");
    let (_, info) = a.get(&format!("/api/games/{game}")).await;
    assert_eq!(info["status"], "live", "{info}");
    let seated: Vec<i64> =
        info["seats"].as_array().unwrap().iter().filter_map(|s| s["user_id"].as_i64()).collect();
    assert!(seated.contains(&a.id()) && seated.contains(&b.id()), "{info}");
    assert_eq!(info["map"]["spec"], "hex:4", "the size both accept: {info}");
    // Four seekers of a four-player game fill one table.
    let four = [
        Client::guest(&server).await,
        Client::guest(&server).await,
        Client::guest(&server).await,
        Client::guest(&server).await,
    ];
    for (i, p) in four.iter().take(3).enumerate() {
        let (_, v) = p.post("/api/seek", seek(3, 3, 4)).await;
        assert_eq!(v["seek"]["state"], "waiting", "{v}");
        assert_eq!(v["seek"]["others"], i, "{v}");
    }
    let (_, v) = four[3].post("/api/seek", seek(3, 3, 4)).await;
    assert_eq!(v["seek"]["state"], "matched", "{v}");
    let game = v["seek"]["game"].as_i64().unwrap();
    for p in &four {
        assert_eq!(p.get("/api/seek").await.1["seek"]["game"], game);
    }
    let (_, info) = a.get(&format!("/api/games/{game}")).await;
    assert_eq!(info["status"], "live", "{info}");
    let mut seated: Vec<i64> =
        info["seats"].as_array().unwrap().iter().filter_map(|s| s["user_id"].as_i64()).collect();
    seated.sort_unstable();
    let mut ids: Vec<i64> = four.iter().map(Client::id).collect();
    ids.sort_unstable();
    assert_eq!(seated, ids);
    // Withdrawn: gone.
    assert_eq!(delete(&c, "/api/seek").await.0, 200);
    assert_eq!(c.get("/api/seek").await.1["seek"], Value::Null);
    server.stop().await;
}

async fn bots_fill_a_seek(db: &str) {
    let server = TestServer::start(db).await;
    let a = Client::guest(&server).await;
    let mut body = seek(3, 3, 3);
    body["bots_after_seconds"] = json!(5);
    body["bot_level"] = json!(1);
    let (s, v) = a.post("/api/seek", body).await;
    assert_eq!(s, 201, "{v}");
    assert_eq!(v["seek"]["state"], "waiting");
    let mut game = None;
    for _ in 0..100 {
        tokio::time::sleep(Duration::from_millis(200)).await;
        let (_, v) = a.get("/api/seek").await;
        if let Some(g) = v["seek"]["game"].as_i64() {
            game = Some(g);
            break;
        }
    }
    let game = game.expect("bots filled the table within 20 s");
    let (_, info) = a.get(&format!("/api/games/{game}")).await;
    assert_eq!(info["status"], "live", "{info}");
    let seats = info["seats"].as_array().unwrap();
    assert_eq!(seats.len(), 3);
    assert_eq!(seats.iter().filter(|s| s["user_id"] == a.id()).count(), 1, "{info}");
    assert_eq!(seats.iter().filter(|s| s["bot_level"] == 1).count(), 2, "{info}");
    server.stop().await;
}

async fn cancel_an_open_game(db: &str) {
    let server = TestServer::start(db).await;
    let a = Client::guest(&server).await;
    let b = Client::guest(&server).await;
    let game = a.create(small_game()).await;
    let mut watcher = b.socket().await;
    watcher.watch(game, None).await;
    assert_eq!(b.post(&format!("/api/games/{game}/cancel"), json!({})).await.0, 403);
    let (s, v) = a.post(&format!("/api/games/{game}/cancel"), json!({})).await;
    assert_eq!(s, 200, "{v}");
    let told = watcher.until(|v| v["type"] == "error").await;
    assert_eq!(told["code"], "cancelled", "{told}");
    assert_eq!(a.get(&format!("/api/games/{game}")).await.0, 404);
    let (_, open) = b.get("/api/games?status=open").await;
    assert!(!open["games"].as_array().unwrap().iter().any(|g| g["id"] == game));
    // A started game cannot be cancelled.
    let live = a.create(small_game()).await;
    b.post(&format!("/api/games/{live}/join"), json!({})).await;
    let (s, v) = a.post(&format!("/api/games/{live}/cancel"), json!({})).await;
    assert_eq!(s, 409);
    assert!(v["error"].as_str().unwrap().contains("started"), "{v}");
    server.stop().await;
}

async fn bad_input_is_refused_with_reasons(db: &str) {
    let server = TestServer::start(db).await;
    let a = member(&server, "bad").await;
    let b = member(&server, "input").await;
    let guest = Client::guest(&server).await;
    let refused = |status: u16, v: &Value, words: &str| {
        assert!(v["error"].as_str().unwrap_or("").contains(words), "{status} {v} should say {words:?}");
    };
    let cases = [
        (json!({"to": name(&a), "game": small_game()}), 403, "yourself"),
        (json!({"to": "nobody-here", "game": small_game()}), 404, "no player"),
        (json!({"to": guest.user["name"], "game": small_game()}), 403, "guest"),
        (
            json!({"to": name(&b), "game": {"rules": "gobeyond", "map": "nowhere:3", "players": 2}}),
            400,
            "map",
        ),
        (
            json!({"to": name(&b), "game": {"rules": "no-such-rules", "map": "hex:3", "players": 2}}),
            400,
            "no-such-rules",
        ),
        (json!({"to": name(&b), "game": small_game(), "their_seat": 5}), 400, "their_seat"),
        (json!({"to": name(&b), "game": small_game(), "expires_seconds": 0}), 400, "expires_seconds"),
        (json!({"to": name(&b), "game": small_game(), "colour": "black"}), 400, "colour"),
    ];
    for (body, status, words) in cases {
        let (s, v) = a.post("/api/challenges", body).await;
        assert_eq!(s, status, "{v}");
        refused(s, &v, words);
    }
    let (s, v) = guest.post("/api/challenges", json!({"to": name(&b), "game": small_game()})).await;
    assert_eq!(s, 403);
    refused(s, &v, "register");
    let seeks = [
        (seek(5, 3, 2), "empty"),
        (json!({"rules": "no-such-rules", "shape": "hex", "min_size": 3, "max_size": 4}), "no-such-rules"),
        (json!({"rules": "gobeyond", "shape": "moebius", "min_size": 3, "max_size": 4}), "shape"),
        (seek(3, 4, 9), "players"),
        (
            json!({"rules": "gobeyond", "shape": "hex", "min_size": 3, "max_size": 4, "min_rating": 1600, "max_rating": 1400}),
            "ratings",
        ),
        (
            json!({"rules": "gobeyond", "shape": "hex", "min_size": 3, "max_size": 4, "bots_after_seconds": 1}),
            "bots_after_seconds",
        ),
    ];
    for (body, words) in seeks {
        let (s, v) = a.post("/api/seek", body).await;
        assert_eq!(s, 400, "{v}");
        refused(s, &v, words);
    }
    assert_eq!(a.get("/api/seek").await.1["seek"], Value::Null, "nothing refused was kept");
    let (s, v) = a.post("/api/follows", json!({"name": name(&a)})).await;
    assert_eq!(s, 400);
    refused(s, &v, "yourself");
    let (s, v) = a.post("/api/blocks", json!({"name": "nobody-here"})).await;
    assert_eq!(s, 404);
    refused(s, &v, "no player");
    server.stop().await;
}
