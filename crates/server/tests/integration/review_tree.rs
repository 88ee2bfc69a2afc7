//! The review tree of finished games (issue 43), on SQLite and PostgreSQL: finished games made
//! from records by the test hook `POST /api/test/games`, and what a played game offers of them
//! (its log, outcome, record export and positions).

use crate::common::{Client, TestServer, postgres_url, sqlite_url, unique};
use serde_json::{Value, json};

on_both!(
    a_finished_game_is_made_from_a_record,
    the_finished_game_hook_is_a_test_hook_only,
    variations_are_played_navigated_and_exported,
    the_sgf_carries_variations_and_comments,
    comments_are_written_read_and_bounded,
    who_may_add_to_a_tree,
    variations_per_author_are_bounded,
    the_free_board_plays_any_system,
);

/// A classic game on hex:7 between two bots, ended by passes and dead-stone marking.
const CLASSIC_HEX7: &str = include_str!("../../../../data/patterns/bot-hex7/game-005.json");

async fn server(db: &str) -> TestServer {
    TestServer::start_with_test_hooks(db).await
}

fn classic_record() -> Value {
    serde_json::from_str(CLASSIC_HEX7).unwrap()
}

/// A finished classic game with these accounts seated (`null`: a bot).
async fn finished_game(c: &Client, seats: Value, public: bool) -> i64 {
    let (s, v) = c
        .post("/api/test/games", json!({"record": classic_record(), "seats": seats, "public": public}))
        .await;
    assert_eq!(s, 200, "{v}");
    v["id"].as_i64().unwrap()
}

async fn named(server: &TestServer, prefix: &str) -> Client {
    Client::registered(server, &format!("{prefix}{}", unique() % 1_000_000)).await
}

fn place(parent: Value, node: u32) -> Value {
    json!({"parent": parent, "input": {"type": "place", "node": node}})
}

async fn variations_are_played_navigated_and_exported(db: &str) {
    let server = server(db).await;
    let alice = named(&server, "alice").await;
    let bob = named(&server, "bob").await;
    let id = finished_game(&alice, json!([alice.user["name"], bob.user["name"]]), true).await;

    let (s, tree) = alice.get(&format!("/api/games/{id}/tree")).await;
    assert_eq!(s, 200, "{tree}");
    let total = classic_record()["actions"].as_array().unwrap().len();
    assert_eq!(tree["total"], total);
    assert_eq!(tree["may_edit"], true, "{tree}");
    assert_eq!(tree["moves"][0]["move_number"], 1);
    assert_eq!(tree["moves"][1]["move_number"], 2);
    let last = &tree["moves"][total - 1];
    assert!(last["move_number"].is_null(), "accepting the count is no move: {last}");

    // From the start, then from that variation (the seat is the one the position waits for).
    let (s, v) = alice.post(&format!("/api/games/{id}/variations"), place(json!({"at": 0}), 0)).await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["node"]["id"], 1);
    assert_eq!(v["node"]["player"], 0);
    assert_eq!(v["node"]["move_number"], 1);
    assert_eq!(v["node"]["author"], alice.user["name"]);
    assert!(v["state"].is_object(), "{v}");
    let (s, v) = bob.post(&format!("/api/games/{id}/variations"), place(json!({"var": 1}), 1)).await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["node"]["id"], 2);
    assert_eq!(v["node"]["player"], 1);
    assert_eq!(v["node"]["move_number"], 2);
    // From a main-line node in the middle.
    let (s, v) = bob
        .post(&format!("/api/games/{id}/variations"), json!({"parent": {"at": 3}, "input": {"type": "pass"}}))
        .await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["node"]["id"], 3);
    assert_eq!(v["node"]["move_number"], 4);
    // The same move at the same node is the same node.
    let (s, v) = bob.post(&format!("/api/games/{id}/variations"), place(json!({"at": 0}), 0)).await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["node"]["id"], 1);
    assert_eq!(v["node"]["author"], alice.user["name"]);
    // An illegal move is refused with the rule system's reason.
    let (s, v) = bob.post(&format!("/api/games/{id}/variations"), place(json!({"var": 1}), 0)).await;
    assert_eq!(s, 400, "{v}");
    assert!(v["error"].as_str().unwrap().contains("occupied"), "{v}");
    // Nodes that do not exist, inputs too big.
    let (s, v) = bob.post(&format!("/api/games/{id}/variations"), place(json!({"var": 99}), 5)).await;
    assert_eq!(s, 404, "{v}");
    let (s, v) = bob.post(&format!("/api/games/{id}/variations"), place(json!({"at": total + 1}), 5)).await;
    assert_eq!(s, 404, "{v}");
    let big = json!({"parent": {"at": 0}, "input": {"type": "place", "node": 3, "note": "x".repeat(3000)}});
    let (s, v) = bob.post(&format!("/api/games/{id}/variations"), big).await;
    assert_eq!(s, 400, "{v}");
    assert!(v["error"].as_str().unwrap().contains("input"), "{v}");

    // Navigated: the position at a variation node.
    let (s, at) = bob.get(&format!("/api/games/{id}/state?var=2")).await;
    assert_eq!(s, 200, "{at}");
    assert_eq!(at["at"], 2);
    assert_eq!(at["action"]["node"], 1);
    let (s, _) = bob.get(&format!("/api/games/{id}/state?var=77")).await;
    assert_eq!(s, 404);
    let (s, tree) = bob.get(&format!("/api/games/{id}/tree")).await;
    assert_eq!(s, 200, "{tree}");
    assert_eq!(tree["variations"].as_array().unwrap().len(), 3, "{tree}");
    assert_eq!(tree["variations"][1]["parent"], json!({"var": 1}));
    assert_eq!(tree["variations"][1]["move_number"], 2);

    // Exported as record version 2, which reads back and replays with its variations.
    let r = bob.http.get(format!("{}/api/games/{id}/record", bob.base)).send().await.unwrap();
    assert_eq!(r.status(), 200);
    let text = r.text().await.unwrap();
    let record = gobeyond_rules::record::Record::from_json(&text).unwrap();
    assert_eq!(record.version, 2);
    assert_eq!(record.variations.len(), 3);
    assert_eq!(record.actions.len(), total);
    record.replay().unwrap();
    server.stop().await;
}

async fn the_sgf_carries_variations_and_comments(db: &str) {
    let server = server(db).await;
    let alice = named(&server, "alice").await;
    let bob = named(&server, "bob").await;
    // On a square board (SGF's kind): Black C7, White G3, Black resigns.
    let mut record = gobeyond_rules::sgf::import("(;GM[1]SZ[9];B[cc];W[gg])").unwrap();
    let resign = json!({"type": "resign"}).as_object().unwrap().clone();
    record.actions.push(gobeyond_rules::record::RecordedAction { player: 0, at_ms: None, input: resign });
    let record = serde_json::to_value(&record).unwrap();
    let (s, v) = alice
        .post("/api/test/games", json!({"record": record, "seats": [alice.user["name"], bob.user["name"]]}))
        .await;
    assert_eq!(s, 200, "{v}");
    let id = v["id"].as_i64().unwrap();
    // White at the centre (E5) instead of G3, and a comment on it.
    let (s, v) = bob.post(&format!("/api/games/{id}/variations"), place(json!({"at": 1}), 40)).await;
    assert_eq!(s, 200, "{v}");
    let (s, v) = alice
        .post(
            &format!("/api/games/{id}/comments"),
            json!({"node": {"var": 1}, "text": "the centre ] matters"}),
        )
        .await;
    assert_eq!(s, 200, "{v}");

    let r = bob.http.get(format!("{}/api/games/{id}/sgf", bob.base)).send().await.unwrap();
    assert_eq!(r.status(), 200);
    let text = r.text().await.unwrap();
    assert!(text.contains("(\n;W[ee]"), "a branch with White's E5: {text}");
    let note = format!("C[{}: the centre \\] matters]", alice.user["name"].as_str().unwrap());
    assert!(text.contains(&note), "{note} in {text}");
    // Read back by the SGF reader: the main line, the branch and the comment.
    let back = gobeyond_rules::sgf::import(&text).unwrap();
    assert_eq!(back.actions.len(), 2, "{text}");
    assert_eq!(back.variations.len(), 1, "{text}");
    assert_eq!(back.variations[0].input["node"], 40);
    assert!(back.comments[0].text.ends_with("the centre ] matters"), "{:?}", back.comments);
    server.stop().await;
}

async fn comments_are_written_read_and_bounded(db: &str) {
    let server = server(db).await;
    let alice = named(&server, "alice").await;
    let bob = named(&server, "bob").await;
    let id = finished_game(&alice, json!([alice.user["name"], bob.user["name"]]), true).await;
    let comment = |node: Value, text: &str| json!({"node": node, "text": text});
    let (s, v) =
        alice.post(&format!("/api/games/{id}/comments"), comment(json!({"at": 4}), "  why here?  ")).await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["comment"]["text"], "why here?");
    assert_eq!(v["comment"]["author"], alice.user["name"]);
    let (s, tree) = bob.get(&format!("/api/games/{id}/tree")).await;
    assert_eq!(s, 200);
    assert_eq!(tree["comments"][0]["text"], "why here?");
    assert_eq!(tree["comments"][0]["node"], json!({"at": 4}));

    for (text, wanted) in [("   ", "empty"), (&"é".repeat(1001)[..], "1000")] {
        let (s, v) = bob.post(&format!("/api/games/{id}/comments"), comment(json!({"at": 0}), text)).await;
        assert_eq!(s, 400, "{v}");
        assert!(v["error"].as_str().unwrap().contains(wanted), "{v}");
    }
    let (s, _) = bob.post(&format!("/api/games/{id}/comments"), comment(json!({"var": 3}), "x")).await;
    assert_eq!(s, 404);
    // 60 per author and game.
    for i in 0..60 {
        let (s, v) =
            bob.post(&format!("/api/games/{id}/comments"), comment(json!({"at": 1}), &format!("c{i}"))).await;
        assert_eq!(s, 200, "{i}: {v}");
    }
    let (s, v) = bob.post(&format!("/api/games/{id}/comments"), comment(json!({"at": 1}), "more")).await;
    assert_eq!(s, 429, "{v}");
    let (s, v) = alice.post(&format!("/api/games/{id}/comments"), comment(json!({"at": 1}), "mine")).await;
    assert_eq!(s, 200, "{v}");
    let r = bob.http.get(format!("{}/api/games/{id}/record", bob.base)).send().await.unwrap();
    let record = gobeyond_rules::record::Record::from_json(&r.text().await.unwrap()).unwrap();
    assert_eq!(record.comments.iter().filter(|c| c.author == bob.user["name"]).count(), 60);
    server.stop().await;
}

async fn who_may_add_to_a_tree(db: &str) {
    let server = server(db).await;
    let alice = named(&server, "alice").await;
    let guest = Client::guest(&server).await;
    // A public game: any signed-in account, guests too.
    let public = finished_game(&alice, json!([alice.user["name"], null]), true).await;
    let (s, v) = guest
        .post(&format!("/api/games/{public}/comments"), json!({"node": {"at": 0}, "text": "nice"}))
        .await;
    assert_eq!(s, 200, "{v}");
    let anonymous = reqwest::Client::new();
    let r = anonymous
        .post(server.url(&format!("/api/games/{public}/comments")))
        .json(&json!({"node": {"at": 0}, "text": "hi"}))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 401);
    let r = anonymous.get(server.url(&format!("/api/games/{public}/tree"))).send().await.unwrap();
    let tree: Value = r.json().await.unwrap();
    assert_eq!(tree["may_edit"], false, "{tree}");
    assert!(tree["why_not"].as_str().unwrap().contains("sign in"), "{tree}");
    // An invite-only game: its players only.
    let private = finished_game(&alice, json!([alice.user["name"], null]), false).await;
    let (s, v) = guest.get(&format!("/api/games/{private}/tree")).await;
    assert!(s == 403 || s == 404, "{s} {v}");
    let (s, v) = guest.post(&format!("/api/games/{private}/variations"), place(json!({"at": 0}), 0)).await;
    assert!(s == 403 || s == 404, "{s} {v}");
    let (s, v) = alice.post(&format!("/api/games/{private}/variations"), place(json!({"at": 0}), 0)).await;
    assert_eq!(s, 200, "{v}");
    // A game that is not over has no tree yet.
    let open = alice.create(json!({"rules": "chinese", "map": "square:9", "players": 2})).await;
    let (s, v) = alice.get(&format!("/api/games/{open}/tree")).await;
    assert_eq!(s, 409, "{v}");
    let (s, v) = alice.post(&format!("/api/games/{open}/variations"), place(json!({"at": 0}), 0)).await;
    assert_eq!(s, 409, "{v}");
    server.stop().await;
}

async fn variations_per_author_are_bounded(db: &str) {
    let server = server(db).await;
    let alice = named(&server, "alice").await;
    let bob = named(&server, "bob").await;
    let id = finished_game(&alice, json!([alice.user["name"], null]), true).await;
    // 127 first moves from the start, then replies to the first of them.
    let mut added = 0;
    'fill: for parent in [json!({"at": 0}), json!({"var": 1}), json!({"var": 2})] {
        for node in 0..127 {
            let (s, v) = bob.post(&format!("/api/games/{id}/variations"), place(parent.clone(), node)).await;
            if s == 200 {
                added += 1;
                if added == 200 {
                    break 'fill;
                }
            } else {
                assert_eq!(s, 400, "{v}");
            }
        }
    }
    assert_eq!(added, 200);
    let (s, v) = bob.post(&format!("/api/games/{id}/variations"), place(json!({"var": 3}), 100)).await;
    assert_eq!(s, 429, "{v}");
    // Another author still may; and the same move as an existing node is no new node.
    let (s, v) = alice.post(&format!("/api/games/{id}/variations"), place(json!({"var": 3}), 100)).await;
    assert_eq!(s, 200, "{v}");
    let (s, v) = bob.post(&format!("/api/games/{id}/variations"), place(json!({"at": 0}), 0)).await;
    assert_eq!(s, 200, "{v}");
    server.stop().await;
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

async fn the_free_board_plays_any_system(db: &str) {
    let server = server(db).await;
    let guest = Client::guest(&server).await;
    let mut record = classic_record();
    record.as_object_mut().unwrap().remove("events");
    record["actions"].as_array_mut().unwrap().truncate(10);
    let first = record["actions"][0]["node"].clone();
    let (s, v) = guest
        .post("/api/analyse", json!({"record": record, "input": {"type": "pass"}, "with_map": true}))
        .await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["total"], 11);
    assert_eq!(v["record"]["actions"][10]["type"], "pass");
    assert!(v["map"]["nodes"].as_u64().unwrap() > 0, "{v}");
    assert!(v["state"].is_object());
    // A refused move carries the rule system's reason.
    let (s, v) = guest
        .post("/api/analyse", json!({"record": record, "input": {"type": "place", "node": first}}))
        .await;
    assert_eq!(s, 400, "{v}");
    assert!(v["error"].as_str().unwrap().contains("occupied"), "{v}");
    // Too many actions.
    let mut long = record.clone();
    long["actions"] = json!(vec![json!({"player": 0, "type": "pass"}); 5001]);
    let (s, v) = guest.post("/api/analyse", json!({"record": long})).await;
    assert_eq!(s, 400, "{v}");
    assert!(v["error"].as_str().unwrap().contains("5000"), "{v}");
    // Another system, three players, a map that is not a grid; the seat to move plays.
    let gob = json!({"format": "gobeyond-record", "version": 2, "map": {"spec": "hex:3"},
                     "rules": {"system": "gobeyond"}, "players": [{}, {}, {}], "actions": []});
    let (s, v) = guest.post("/api/analyse", json!({"record": gob, "input": {"type": "pass"}})).await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["record"]["actions"][0]["player"], 0);
    assert!(v.get("map").is_none());
    let (s, v) = guest
        .post(
            "/api/analyse",
            json!({"record": {"format": "gobeyond-record", "version": 2, "map": {"spec": "square:5000"},
              "rules": {"system": "classic"}, "players": [{}, {}], "actions": []}}),
        )
        .await;
    assert_eq!(s, 400, "{v}");
    server.stop().await;
}
