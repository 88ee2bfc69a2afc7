//! Issue 41, item 10, on SQLite and PostgreSQL: untimed games never ended, filled the live
//! lists and, at 20, stopped their creator from making games. Games against bots without a
//! clock do not count against the cap; their only person may end one from My games; a live
//! game nobody plays in ends as abandoned.

use std::time::Duration;

use crate::common::{Client, TestServer, postgres_url, sqlite_url, test_limits};
use gobeyond_server::limit::Limits;
use serde_json::json;

on_both!(
    games_against_bots_without_a_clock_do_not_fill_the_cap,
    the_only_person_against_bots_may_abandon_the_game,
    a_game_nobody_plays_in_ends_as_abandoned,
);

fn first_game() -> serde_json::Value {
    json!({"rules": "chinese", "map": "square:9", "players": 2,
           "seats": [{"kind": "me"}, {"kind": "bot", "level": 1}]})
}

/// A newcomer who opens "a first game" 25 times is not refused; games with people (or a
/// clock) still count.
async fn games_against_bots_without_a_clock_do_not_fill_the_cap(db: &str) {
    let server = TestServer::start(db).await;
    let a = Client::guest(&server).await;
    for i in 0..25 {
        let (s, v) = a.post("/api/games", first_game()).await;
        assert_eq!(s, 201, "first game {i}: {v}");
    }
    for i in 0..20 {
        let (s, v) = a
            .post("/api/games", json!({"rules": "chinese", "map": "square:9", "players": 2, "seats": [{"kind": "me"}, {"kind": "open"}]}))
            .await;
        assert_eq!(s, 201, "open game {i}: {v}");
    }
    let (s, _) = a
        .post("/api/games", json!({"rules": "chinese", "map": "square:9", "players": 2, "seats": [{"kind": "me"}, {"kind": "open"}]}))
        .await;
    assert_eq!(s, 429, "the 21st game with a free seat is over the cap");
    let timed = json!({"rules": "chinese", "map": "square:9", "players": 2,
                       "seats": [{"kind": "me"}, {"kind": "bot", "level": 1}],
                       "time": {"kind": "absolute", "main_seconds": 600}});
    assert_eq!(a.post("/api/games", timed).await.0, 429, "a clocked game against a bot counts");
    // GoBeyond's own turn clock is a clock too.
    let gobeyond = json!({"rules": "gobeyond", "map": "hex:3", "players": 2,
                          "seats": [{"kind": "me"}, {"kind": "bot", "level": 1}]});
    assert_eq!(a.post("/api/games", gobeyond).await.0, 429);
    let untimed = json!({"rules": {"system": "gobeyond", "turn_seconds": 0}, "map": "hex:3", "players": 2,
                         "seats": [{"kind": "me"}, {"kind": "bot", "level": 1}]});
    let (s, v) = a.post("/api/games", untimed).await;
    assert_eq!(s, 201, "{v}");
    server.stop().await;
}

async fn the_only_person_against_bots_may_abandon_the_game(db: &str) {
    let server = TestServer::start(db).await;
    let a = Client::guest(&server).await;
    let b = Client::guest(&server).await;
    let game = a.create(first_game()).await;
    let path = format!("/api/games/{game}/abandon");
    assert_eq!(b.post(&path, json!({})).await.0, 403, "not b's game");
    let (s, v) = a.post(&path, json!({})).await;
    assert_eq!(s, 200, "{v}");
    let (_, info) = a.get(&format!("/api/games/{game}")).await;
    assert_eq!(info["status"], "finished");
    assert_eq!(info["abandoned"], true);
    assert!(info["outcome"].is_null(), "no result: {info}");
    assert!(info["result_text"].is_null(), "no B+R for an abandoned game: {info}");
    let (_, mine) = a.get("/api/games?mine=true").await;
    let listed = mine["games"].as_array().unwrap().iter().find(|g| g["id"] == game).cloned().unwrap();
    assert!(listed["result_text"].is_null() && listed["result"]["abandoned"] == true, "{listed}");
    assert_eq!(a.post(&path, json!({})).await.0, 409, "over already");
    // With another person in it, a player resigns instead.
    let game = a.create(json!({"rules": "chinese", "map": "square:9", "players": 2})).await;
    assert_eq!(b.post(&format!("/api/games/{game}/join"), json!({})).await.0, 200);
    let (s, v) = a.post(&format!("/api/games/{game}/abandon"), json!({})).await;
    assert_eq!(s, 409, "{v}");
    assert!(v["error"].as_str().unwrap().contains("resign"), "{v}");
    // A finished game read again (from the log, in a new server) is still abandoned.
    server.stop().await;
    let server = TestServer::start(db).await;
    let c = Client::guest(&server).await;
    let (_, info) = c.get(&format!("/api/games/{}", game - 1)).await;
    assert_eq!(info["abandoned"], true, "{info}");
    server.stop().await;
}

/// A game in which nobody plays for the abandonment period ends with no result and no rating
/// change; a game played in meanwhile does not.
async fn a_game_nobody_plays_in_ends_as_abandoned(db: &str) {
    let limits = Limits {
        abandon_after: Duration::from_millis(1500),
        unload_after: Duration::from_millis(400),
        ..test_limits()
    };
    let server = TestServer::start_with(db, "127.0.0.1:0".parse().unwrap(), limits).await;
    let a = Client::guest(&server).await;
    let b = Client::guest(&server).await;
    let left = a.create(json!({"rules": "chinese", "map": "square:9", "players": 2})).await;
    let played = a.create(json!({"rules": "chinese", "map": "square:9", "players": 2})).await;
    for game in [left, played] {
        assert_eq!(b.post(&format!("/api/games/{game}/join"), json!({})).await.0, 200);
    }
    let mut sa = a.socket().await;
    let mut sb = b.socket().await;
    sa.watch(left, None).await;
    let first = sa.act(left, json!({"type": "place", "node": 40})).await;
    let (mover, other) = if first["type"] == "ack" { (&mut sa, &mut sb) } else { (&mut sb, &mut sa) };
    if first["type"] != "ack" {
        mover.watch(left, None).await;
        assert_eq!(mover.act(left, json!({"type": "place", "node": 40})).await["type"], "ack");
    }
    let _ = other;
    // The other game is played in every half second.
    mover.watch(played, None).await;
    other.watch(played, None).await;
    let (black, white) = if mover.act(played, json!({"type": "place", "node": 0})).await["type"] == "ack" {
        (mover, other)
    } else {
        assert_eq!(other.act(played, json!({"type": "place", "node": 0})).await["type"], "ack");
        (other, mover)
    };
    let started = std::time::Instant::now();
    let mut node = 1;
    loop {
        tokio::time::sleep(Duration::from_millis(400)).await;
        let who = if node % 2 == 1 { &mut *white } else { &mut *black };
        assert_eq!(
            who.act(played, json!({"type": "place", "node": node})).await["type"],
            "ack",
            "move {node}"
        );
        node += 1;
        let (_, info) = a.get(&format!("/api/games/{left}")).await;
        if info["status"] == "finished" {
            assert_eq!(info["abandoned"], true, "{info}");
            assert!(info["outcome"].is_null());
            break;
        }
        assert!(started.elapsed() < Duration::from_secs(60), "the left game was never ended: {info}");
    }
    let (_, info) = a.get(&format!("/api/games/{played}")).await;
    assert_eq!(info["status"], "live", "a game played in is not abandoned");
    server.stop().await;
}
