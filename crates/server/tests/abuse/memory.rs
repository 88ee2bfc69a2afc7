//! Games in memory: bounded in bytes, left when idle, and never filled by one address. (What lab
//! reports and lobby lists grow the process by is measured in `tests/memory/growth.rs`, alone.)

use std::time::Duration;

use crate::{
    common::{Client, largest_custom_map, test_limits},
    healthy, start,
};
use gobeyond_server::limit::Limits;
use serde_json::{Value, json};

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
