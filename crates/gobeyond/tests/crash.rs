//! Kill the real server with SIGKILL in the middle of play (several games, humans and bots),
//! start it again on the same database: every acknowledged action is there, and every game
//! goes on.
#![allow(clippy::unwrap_used, clippy::expect_used)]

#[path = "../../server/tests/integration/common/mod.rs"]
mod common;

use std::{
    collections::HashMap,
    process::{Child, Command, Stdio},
    sync::{Arc, Mutex},
    time::Duration,
};

use common::Client;
use serde_json::{Value, json};

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

async fn start(port: u16, db: &str) -> Child {
    let mut child = Command::new(env!("CARGO_BIN_EXE_gobeyond"))
        .args(["serve", "--listen", &format!("127.0.0.1:{port}"), "--database", db])
        .env("RUST_LOG", "warn")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("gobeyond serve starts");
    for _ in 0..200 {
        if reqwest::get(format!("http://127.0.0.1:{port}/api/health")).await.is_ok_and(|r| r.status() == 200)
        {
            return child;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let _ = child.kill();
    let _ = child.wait();
    panic!("the server did not come up");
}

type Acked = Arc<Mutex<HashMap<i64, Vec<(u64, Value)>>>>;

/// Two humans alternate on a classic game until the socket dies, noting every acknowledged action.
async fn play_classic(a: Client, b: Client, game: i64, acked: Acked) {
    let (Ok(sa), Ok(sb)) = (
        tokio::time::timeout(Duration::from_secs(5), a.socket()).await,
        tokio::time::timeout(Duration::from_secs(5), b.socket()).await,
    ) else {
        return;
    };
    let mut sockets = [sa, sb];
    let points: Vec<String> =
        (0..81).map(|i| format!("{}{}", "ABCDEFGHJ".as_bytes()[i % 9] as char, i / 9 + 1)).collect();
    for (turn, at) in points.iter().enumerate() {
        let s = &mut sockets[turn % 2];
        let mut action = json!({"type": "place", "at": at});
        for _ in 0..2 {
            let id = common::unique();
            let msg = json!({"type": "act", "game": game, "action": action, "id": id});
            if futures_util::SinkExt::send(
                &mut s.ws,
                tokio_tungstenite::tungstenite::Message::Text(msg.to_string().into()),
            )
            .await
            .is_err()
            {
                return;
            }
            let answer = loop {
                match tokio::time::timeout(Duration::from_secs(5), futures_util::StreamExt::next(&mut s.ws))
                    .await
                {
                    Ok(Some(Ok(tokio_tungstenite::tungstenite::Message::Text(t)))) => {
                        let v: Value = serde_json::from_str(t.as_str()).unwrap();
                        if v["id"] == id {
                            break v;
                        }
                    }
                    Ok(Some(Ok(_))) => continue,
                    _ => return, // the server is gone
                }
            };
            if answer["type"] == "ack" {
                let mut acked = acked.lock().unwrap();
                acked.entry(game).or_default().push((answer["seq"].as_u64().unwrap(), action.clone()));
                break;
            }
            action = json!({"type": "pass"});
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigkill_loses_no_acknowledged_action() {
    let port = free_port();
    let db = common::sqlite_url();
    let base = format!("http://127.0.0.1:{port}");
    let mut server = start(port, &db).await;
    let acked: Acked = Arc::default();
    let mut games = Vec::new();
    let mut tasks = Vec::new();
    for _ in 0..3 {
        let a = Client::guest_at(&base).await;
        let b = Client::guest_at(&base).await;
        let game = a.create(json!({"rules": "chinese", "map": "square:9", "players": 2})).await;
        let (s, _) = b.post(&format!("/api/games/{game}/join"), json!({})).await;
        assert_eq!(s, 200);
        games.push(game);
        tasks.push(tokio::spawn(play_classic(a, b, game, acked.clone())));
    }
    // Bots playing each other while the server dies.
    let c = Client::guest_at(&base).await;
    let bot_game = c
        .create(json!({"rules": "gobeyond", "map": "hex:3", "players": 3,
                       "seats": [{"kind": "bot", "level": 2}, {"kind": "bot", "level": 3}, {"kind": "bot", "level": 2}]}))
        .await;
    tokio::time::sleep(Duration::from_millis(1500)).await;
    server.kill().expect("SIGKILL");
    server.wait().unwrap();
    for t in tasks {
        let _ = t.await;
    }
    let acked = acked.lock().unwrap().clone();
    let total: usize = acked.values().map(Vec::len).sum();
    assert!(total >= 6, "play was under way when the server died ({total} actions acknowledged)");

    let mut server = start(port, &db).await;
    let client = Client::guest_at(&base).await;
    for game in &games {
        let r = client.http.get(format!("{base}/api/games/{game}/record")).send().await.unwrap();
        let record: Value = r.json().await.unwrap();
        let logged = record["actions"].as_array().unwrap();
        for (seq, action) in acked.get(game).into_iter().flatten() {
            let got = &logged[*seq as usize - 1];
            assert_eq!(got["type"], action["type"], "game {game} action {seq}");
            if action["type"] == "place" {
                assert_eq!(got["at"], action["at"], "game {game} action {seq}");
            }
        }
        let (_, info) = client.get(&format!("/api/games/{game}")).await;
        assert_eq!(info["status"], "live", "game {game} resumed");
    }
    // The games go on: the bots keep playing theirs.
    let (_, before) = client.get(&format!("/api/games/{bot_game}")).await;
    let mut s = client.socket().await;
    let sync = s.watch(bot_game, None).await;
    if sync["info"]["status"] == "live" {
        let seq = before["seq"].as_u64().unwrap();
        s.until(|v| v["type"] == "update" && v["seq"].as_u64().unwrap_or(0) > seq).await;
    }
    server.kill().unwrap();
    server.wait().unwrap();
}
