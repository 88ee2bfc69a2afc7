//! The review tree's caps per game (issue 43), on SQLite and PostgreSQL: at most 300 comments
//! and 1,000 variation nodes in a game whoever writes them (`docs/api.md`, "Review").

use crate::common::{Client, TestServer, postgres_url, sqlite_url, unique};
use serde_json::json;

on_both!(comments_per_game_are_bounded, variations_per_game_are_bounded);

/// A classic game on hex:7 between two bots, ended by passes and dead-stone marking.
const CLASSIC_HEX7: &str = include_str!("../../../../data/patterns/bot-hex7/game-005.json");

async fn server(db: &str) -> TestServer {
    TestServer::start_with_test_hooks(db).await
}

/// A finished public game of `owner`'s.
async fn finished_game(owner: &Client) -> i64 {
    let record: serde_json::Value = serde_json::from_str(CLASSIC_HEX7).unwrap();
    let (s, v) = owner
        .post(
            "/api/test/games",
            json!({"record": record, "seats": [owner.user["name"], null], "public": true}),
        )
        .await;
    assert_eq!(s, 200, "{v}");
    v["id"].as_i64().unwrap()
}

async fn comments_per_game_are_bounded(db: &str) {
    let server = server(db).await;
    assert_eq!(gobeyond_server::review_tree::COMMENT_CAPS.per_game, 300, "the documented cap");
    let owner = Client::registered(&server, &format!("owner{}", unique() % 1_000_000)).await;
    let id = finished_game(&owner).await;
    // Five accounts write their 60 each: 300 in the game.
    for a in 0..5 {
        let author = Client::registered(&server, &format!("author{a}x{}", unique() % 1_000_000)).await;
        for i in 0..60 {
            let (s, v) = author
                .post(
                    &format!("/api/games/{id}/comments"),
                    json!({"node": {"at": 1}, "text": format!("c{a}.{i}")}),
                )
                .await;
            assert_eq!(s, 200, "{a}.{i}: {v}");
        }
    }
    // A sixth account, under its own cap, is refused: the game is full.
    let (s, v) = owner
        .post(&format!("/api/games/{id}/comments"), json!({"node": {"at": 2}, "text": "one more"}))
        .await;
    assert_eq!(s, 429, "{v}");
    assert!(v["error"].as_str().unwrap().contains("300"), "{v}");
    let (s, tree) = owner.get(&format!("/api/games/{id}/tree")).await;
    assert_eq!(s, 200);
    assert_eq!(tree["comments"].as_array().unwrap().len(), 300);
    server.stop().await;
}

async fn variations_per_game_are_bounded(db: &str) {
    let server = server(db).await;
    assert_eq!(gobeyond_server::review_tree::VARIATION_CAPS.per_game, 1_000, "the documented cap");
    let owner = Client::registered(&server, &format!("owner{}", unique() % 1_000_000)).await;
    let id = finished_game(&owner).await;
    // Five accounts play their 200 each, every move a new node: from the start, then from
    // variation 1, 2, ... in turn (ids count up from 1), each of hex:7's 127 nodes once.
    let (mut parent, mut node, mut added) = (0u32, 0u32, 0);
    for a in 0..5 {
        let author = Client::registered(&server, &format!("player{a}x{}", unique() % 1_000_000)).await;
        let mut mine = 0;
        while mine < 200 {
            let from = if parent == 0 { json!({"at": 0}) } else { json!({"var": parent}) };
            let body = json!({"parent": from, "input": {"type": "place", "node": node}});
            let (s, v) = author.post(&format!("/api/games/{id}/variations"), body).await;
            if s == 200 {
                assert_eq!(v["node"]["author"], author.user["name"], "a new node: {v}");
                mine += 1;
                added += 1;
            } else {
                assert_eq!(s, 400, "{v}");
            }
            node += 1;
            if node == 127 {
                (parent, node) = (parent + 1, 0);
            }
        }
    }
    assert_eq!(added, 1_000);
    // Another account, under its own cap, is refused: the game is full.
    let body = json!({"parent": {"at": 3}, "input": {"type": "pass"}});
    let (s, v) = owner.post(&format!("/api/games/{id}/variations"), body).await;
    assert_eq!(s, 429, "{v}");
    assert!(v["error"].as_str().unwrap().contains("1000"), "{v}");
    server.stop().await;
}
