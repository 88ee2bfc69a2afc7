//! The Way of Go and BeSiege through the real server (issue 20), on SQLite and PostgreSQL: a
//! person against a bot from the pie, with contracts set per seat and refusals that say why;
//! two BeSiege bots to the end with a record that replays; maps without lines refused by name.

use crate::common::{Client, TestServer, postgres_url, seat_of, sqlite_url};
use serde_json::json;

on_both!(
    a_person_plays_a_bot_from_the_pie,
    besiege_bots_play_to_the_end_and_the_record_replays,
    maps_need_lines
);

async fn a_person_plays_a_bot_from_the_pie(db: &str) {
    let server = TestServer::start(db).await;
    let a = Client::guest(&server).await;
    let rules = json!({"system": "way-of-go", "contracts": [3, 4]});
    let game = a
        .create(json!({"rules": rules, "map": "square:9", "players": 2,
                       "seats": [{"kind": "me"}, {"kind": "bot", "level": 1}]}))
        .await;
    let mut s = a.socket().await;
    let sync = s.watch(game, None).await;
    assert_eq!(seat_of(&sync["info"], a.id()), 0, "the creator places the pie");
    assert_eq!(sync["state"]["phase"], "pie");
    assert_eq!(sync["state"]["players"][0]["contract"], 3);
    assert_eq!(sync["state"]["players"][1]["contract"], 4);
    // A drop is not a pie stone: refused, saying what is expected.
    let r = s.act(game, json!({"type": "drop", "at": "C3"})).await;
    assert_eq!(r["code"], "wrong_step", "{r}");
    for (at, colour) in [("C3", "black"), ("G3", "black"), ("E7", "white")] {
        let r = s.act(game, json!({"type": "pie_stone", "at": at, "colour": colour})).await;
        assert_eq!(r["type"], "ack", "{at}: {r}");
    }
    // The bot chooses a side; then White moves. Wait for the start of one of our turns.
    let mine = s
        .until(|v| v["type"] == "update" && v["state"]["to_move"] == 0 && v["state"]["phase"] == "playing")
        .await;
    let st = &mine["state"];
    assert!(st["drops"].as_array().unwrap().len() > 70, "drops listed: {}", st["drops"]);
    assert!(!st["moves"].as_array().unwrap().is_empty(), "moves listed");
    // Dropping on a stone is refused with the node named.
    let r = s.act(game, json!({"type": "drop", "at": "C3"})).await;
    assert_eq!(r["code"], "occupied", "{r}");
    assert!(r["error"].as_str().unwrap().contains("C3"), "{r}");
    // A move from an empty node is refused too.
    let r = s.act(game, json!({"type": "move", "from_at": "A9", "to_at": "A5"})).await;
    assert_eq!(r["code"], "not_yours", "{r}");
    // One of the listed moves that does not capture, then the mandatory drop.
    let m = st["moves"].as_array().unwrap().iter().find(|m| m["landing"] == "empty").unwrap().clone();
    let r = s.act(game, json!({"type": "move", "from": m["from"], "to": m["to"]})).await;
    assert_eq!(r["type"], "ack", "{r}");
    let after = s.until(|v| v["type"] == "update" && v["state"]["phase"] == "drop_after_move").await;
    let d = after["state"]["drops"][0].clone();
    assert_eq!(s.act(game, json!({"type": "end_turn"})).await["code"], "wrong_step");
    assert_eq!(s.act(game, json!({"type": "drop", "node": d})).await["type"], "ack");
    assert_eq!(s.act(game, json!({"type": "resign"})).await["type"], "ack");
    let (_, info) = a.get(&format!("/api/games/{game}")).await;
    assert_eq!(info["status"], "finished", "{info}");
    server.stop().await;
}

async fn besiege_bots_play_to_the_end_and_the_record_replays(db: &str) {
    let server = TestServer::start(db).await;
    let a = Client::guest(&server).await;
    let bot = json!({"kind": "bot", "level": 1});
    let rules = json!({"system": "besiege", "max_turns": 60});
    let game = a.create(json!({"rules": rules, "map": "square:7", "players": 2, "seats": [bot, bot]})).await;
    let mut s = a.socket().await;
    let mut last = s.watch(game, None).await;
    if last["info"]["status"] != "finished" {
        last = s.until(|v| v["type"] == "update" && v["status"] == "finished").await;
    }
    let state = &last["state"];
    let (_, record) = a.get(&format!("/api/games/{game}/record")).await;
    assert_eq!(record["rules"]["system"], "besiege");
    let record: gobeyond_rules::record::Record = serde_json::from_value(record).unwrap();
    let replayed = record.replay().unwrap();
    let outcome = replayed.outcome().expect("the record replays to the end");
    assert_eq!(serde_json::to_value(outcome).unwrap(), state["outcome"], "{state}");
    server.stop().await;
}

async fn maps_need_lines(db: &str) {
    let server = TestServer::start(db).await;
    let a = Client::guest(&server).await;
    for rules in ["way-of-go", "besiege"] {
        let (status, v) =
            a.post("/api/games", json!({"rules": rules, "map": "honeycomb:3", "players": 2})).await;
        assert_eq!(status, 400, "{v}");
        let e = v["error"].as_str().unwrap();
        assert!(e.contains("straight lines") && e.contains("oneycomb"), "{v}");
        // Words for players: no record or settings jargon before the sentence.
        assert!(e.starts_with("The Way of Go needs") || e.starts_with("BeSiege needs"), "{v}");
        let (status, v) =
            a.post("/api/games", json!({"rules": rules, "map": "square:9", "players": 3})).await;
        assert_eq!(status, 400, "{v}");
        assert!(v["error"].as_str().unwrap().contains("two players"), "{v}");
    }
    let (status, v) = a
        .post(
            "/api/games",
            json!({"rules": {"system": "way-of-go", "contracts": [0, 5]}, "map": "square:9", "players": 2}),
        )
        .await;
    assert_eq!(status, 400, "{v}");
    assert!(v["error"].as_str().unwrap().contains("contracts"), "{v}");
    server.stop().await;
}
