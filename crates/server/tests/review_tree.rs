//! The review tree of finished games (issue 43), on SQLite and PostgreSQL: finished games made
//! from records by the test hook `POST /api/test/games`, and what a played game offers of them
//! (its log, outcome, record export and positions).
#![allow(clippy::unwrap_used, clippy::expect_used)]

#[macro_use]
mod common;

use common::{Client, TestServer, postgres_url, sqlite_url, test_limits, unique};
use gobeyond_server::Config;
use serde_json::{Value, json};

on_both!(a_finished_game_is_made_from_a_record, the_finished_game_hook_is_a_test_hook_only);

/// A classic game on hex:7 between two bots, ended by passes and dead-stone marking.
const CLASSIC_HEX7: &str = include_str!("../../../data/patterns/bot-hex7/game-005.json");

async fn server(db: &str) -> TestServer {
    TestServer::start_config(Config {
        listen: "127.0.0.1:0".parse().unwrap(),
        database: db.into(),
        limits: test_limits(),
        test_hooks: true,
        ..Config::default()
    })
    .await
}

fn classic_record() -> Value {
    serde_json::from_str(CLASSIC_HEX7).unwrap()
}

async fn a_finished_game_is_made_from_a_record(db: &str) {
    let server = server(db).await;
    let alice = Client::registered(&server, &format!("alice{}", unique() % 1_000_000)).await;
    let name = alice.user["name"].clone();
    let record = classic_record();
    let total = record["actions"].as_array().unwrap().len();
    let (s, v) = alice.post("/api/test/games", json!({"record": record, "seats": [name, null]})).await;
    assert_eq!(s, 200, "{v}");
    let id = v["id"].as_i64().unwrap();

    let (s, info) = alice.get(&format!("/api/games/{id}")).await;
    assert_eq!(s, 200, "{info}");
    assert_eq!(info["status"], "finished", "{info}");
    assert_eq!(info["seats"][0]["user_id"], alice.id(), "{info}");
    assert_eq!(info["seats"][1]["bot_level"], 1, "{info}");
    assert_eq!(info["outcome"]["places"], json!([2, 1]), "{info}");

    let (s, exported) = alice.get(&format!("/api/games/{id}/record")).await;
    assert_eq!(s, 200, "{exported}");
    assert_eq!(exported["actions"].as_array().unwrap().len(), total);
    assert_eq!(exported["players"][0]["name"], name);
    for (a, b) in
        exported["actions"].as_array().unwrap().iter().zip(classic_record()["actions"].as_array().unwrap())
    {
        assert_eq!(a["type"], b["type"]);
        assert_eq!(a["player"], b["player"]);
    }
    let (s, at) = alice.get(&format!("/api/games/{id}/state?at={total}")).await;
    assert_eq!(s, 200, "{at}");
    assert_eq!(at["total"], total);

    // A record that is not over, seats that do not fit, and unknown accounts are refused.
    let mut unfinished = classic_record();
    unfinished["actions"].as_array_mut().unwrap().truncate(10);
    unfinished.as_object_mut().unwrap().remove("events");
    let (s, v) = alice.post("/api/test/games", json!({"record": unfinished, "seats": [name, null]})).await;
    assert_eq!(s, 400, "{v}");
    assert!(v["error"].as_str().unwrap().contains("not over"), "{v}");
    let (s, v) = alice.post("/api/test/games", json!({"record": classic_record(), "seats": [name]})).await;
    assert_eq!(s, 400, "{v}");
    let (s, v) = alice
        .post("/api/test/games", json!({"record": classic_record(), "seats": ["nobody-here", null]}))
        .await;
    assert_eq!(s, 400, "{v}");
    assert!(v["error"].as_str().unwrap().contains("nobody-here"), "{v}");
    server.stop().await;
}

async fn the_finished_game_hook_is_a_test_hook_only(db: &str) {
    let server = TestServer::start(db).await;
    let alice = Client::guest(&server).await;
    let name = alice.user["name"].clone();
    let (s, _) =
        alice.post("/api/test/games", json!({"record": classic_record(), "seats": [name, null]})).await;
    assert_eq!(s, 404);
    server.stop().await;
}
