//! Gengo through the real server (issue 19), on SQLite and PostgreSQL: a person against a bot
//! with refusals that say why, two bots to the end with a record that replays, and custom
//! regions accepted or refused with the setting named.

use crate::common::{Client, TestServer, postgres_url, seat_of, sqlite_url};
use serde_json::json;

on_both!(a_person_plays_a_bot, bots_play_to_the_end_and_the_record_replays, regions_are_checked_at_creation);

async fn a_person_plays_a_bot(db: &str) {
    let server = TestServer::start(db).await;
    let a = Client::guest(&server).await;
    let game = a
        .create(json!({"rules": "gengo", "map": "square:9", "players": 2,
                       "seats": [{"kind": "me"}, {"kind": "bot", "level": 1}]}))
        .await;
    let mut s = a.socket().await;
    let sync = s.watch(game, None).await;
    assert_eq!(seat_of(&sync["info"], a.id()), 0, "the creator is Black");
    assert_eq!(sync["state"]["stone_radius"], 1.0);
    // E5 (node 40) covers its 3×3 block.
    assert_eq!(s.act(game, json!({"type": "place", "at": "E5"})).await["type"], "ack");
    let after = s.until(|v| v["type"] == "update" && v["state"]["to_move"] == 0).await;
    let st = &after["state"];
    assert_eq!(st["cover"][41], 0, "F5 is inside Black's overlap: {}", st["cover"]);
    assert_eq!(st["blocked"][41], "overlap");
    assert_eq!(st["players"][1]["stones"].as_array().unwrap().len(), 1, "the bot answered");
    let r = s.act(game, json!({"type": "place", "at": "F5"})).await;
    assert_eq!(r["code"], "overlap", "{r}");
    assert!(r["error"].as_str().unwrap().contains("F5 is inside the overlap region of a Black stone"), "{r}");
    let r = s.act(game, json!({"type": "place", "at": "Z99"})).await;
    assert!(r["error"].is_string(), "{r}");
    assert_eq!(s.act(game, json!({"type": "resign"})).await["type"], "ack");
    let (_, info) = a.get(&format!("/api/games/{game}")).await;
    assert_eq!(info["status"], "finished", "{info}");
    server.stop().await;
}

async fn bots_play_to_the_end_and_the_record_replays(db: &str) {
    let server = TestServer::start(db).await;
    let a = Client::guest(&server).await;
    let bot = json!({"kind": "bot", "level": 1});
    let game =
        a.create(json!({"rules": "gengo-area", "map": "square:7", "players": 2, "seats": [bot, bot]})).await;
    let mut s = a.socket().await;
    let mut last = s.watch(game, None).await;
    if last["info"]["status"] != "finished" {
        last = s.until(|v| v["type"] == "update" && v["status"] == "finished").await;
    }
    let state = &last["state"];
    let (_, record) = a.get(&format!("/api/games/{game}/record")).await;
    assert_eq!(record["rules"]["system"], "gengo");
    assert_eq!(record["rules"]["scoring"], "area");
    let record: gobeyond_rules::record::Record = serde_json::from_value(record).unwrap();
    let replayed = record.replay().unwrap();
    let outcome = replayed.outcome().expect("the record replays to the end");
    assert_eq!(serde_json::to_value(outcome).unwrap(), state["outcome"], "{state}");
    server.stop().await;
}

async fn regions_are_checked_at_creation(db: &str) {
    let server = TestServer::start(db).await;
    let a = Client::guest(&server).await;
    // The document's reference offsets, written out: accepted on a grid.
    let overlap: Vec<[i32; 2]> = (-1..=1).flat_map(|x| (-1..=1).map(move |y| [x, y])).collect();
    let neighbour = json!([
        [2, 0],
        [-2, 0],
        [0, 2],
        [0, -2],
        [2, 1],
        [2, -1],
        [-2, 1],
        [-2, -1],
        [1, 2],
        [-1, 2],
        [1, -2],
        [-1, -2]
    ]);
    let rules =
        json!({"system": "gengo", "regions": {"offsets": {"overlap": overlap, "neighbour": neighbour}}});
    let (status, v) = a.post("/api/games", json!({"rules": rules, "map": "square:9", "players": 2})).await;
    assert_eq!(status, 201, "{v}");
    // The same on a hex map: refused, with the map named.
    let (status, v) = a.post("/api/games", json!({"rules": rules, "map": "hex:4", "players": 2})).await;
    assert_eq!(status, 400, "{v}");
    assert!(v["error"].as_str().unwrap().contains("hex:4"), "{v}");
    // One-sided regions and three players: refused, the setting named.
    let lopsided =
        json!({"system": "gengo", "regions": {"offsets": {"overlap": [[0, 0]], "neighbour": [[1, 0]]}}});
    let (status, v) = a.post("/api/games", json!({"rules": lopsided, "map": "square:9", "players": 2})).await;
    assert_eq!(status, 400, "{v}");
    assert!(v["error"].as_str().unwrap().contains("regions"), "{v}");
    let (status, v) = a.post("/api/games", json!({"rules": "gengo", "map": "square:9", "players": 3})).await;
    assert_eq!(status, 400, "{v}");
    assert!(v["error"].as_str().unwrap().contains("two players"), "{v}");
    server.stop().await;
}
