//! Undo by request (issue 17), on SQLite and PostgreSQL: every other player accepts or one
//! declines; bots accept; a request lapses when the game moves on; the log stays append-only and
//! records, reviews and restarts show the game without the moves taken back.

use crate::common::{Client, TestServer, postgres_url, seat_of, sqlite_url};
use serde_json::{Value, json};

on_both!(
    against_a_bot_the_undo_is_immediate,
    accepted_and_declined_between_people,
    a_request_lapses_when_the_game_moves_on,
    a_three_player_undo_needs_both_others,
);

fn stones(state: &Value) -> usize {
    state["board"].as_array().unwrap().iter().filter(|s| !s.is_null()).count()
}

async fn record_actions(c: &Client, game: i64) -> usize {
    let (s, r) = c.get(&format!("/api/games/{game}/record")).await;
    assert_eq!(s, 200, "{r}");
    let record: gobeyond_rules::record::Record = serde_json::from_value(r.clone()).unwrap();
    record.replay().expect("the record replays");
    record.actions.len()
}

async fn against_a_bot_the_undo_is_immediate(db: &str) {
    let server = TestServer::start(db).await;
    let a = Client::guest(&server).await;
    let game = a
        .create(json!({"rules": "chinese", "map": "square:9", "players": 2,
                       "seats": [{"kind": "me"}, {"kind": "bot", "level": 1}]}))
        .await;
    let mut s = a.socket().await;
    s.watch(game, None).await;
    assert_eq!(s.act(game, json!({"type": "place", "at": "E5"})).await["type"], "ack");
    s.until(|v| v["type"] == "update" && v["seq"] == 2).await;
    let (st, v) = a.post(&format!("/api/games/{game}/undo"), json!({})).await;
    assert_eq!(st, 200, "{v}");
    let note = s.until(|v| v["type"] == "undo").await;
    assert_eq!(note["note"]["kind"], "took_back", "{note}");
    let sync = s.until(|v| v["type"] == "sync").await;
    assert_eq!(sync["seq"], 3, "the marker is logged: {sync}");
    assert_eq!(sync["actions"].as_array().unwrap().len(), 0, "{sync}");
    assert_eq!(stones(&sync["state"]), 0);
    assert_eq!(sync["info"]["waiting_for"], json!([0]), "A's turn again");
    assert_eq!(record_actions(&a, game).await, 0);
    // Play goes on after it; a restart replays the log to the same position.
    assert_eq!(s.act(game, json!({"type": "place", "at": "D4"})).await["type"], "ack");
    s.until(|v| v["type"] == "update" && v["seq"] == 5).await;
    let database = server.database.clone();
    server.stop().await;
    let server = TestServer::start(&database).await;
    let a2 = Client { base: format!("http://{}", server.addr), ..a };
    let mut s = a2.socket().await;
    let sync = s.watch(game, None).await;
    assert_eq!(stones(&sync["state"]), 2, "{sync}");
    assert_eq!(record_actions(&a2, game).await, 2);
    server.stop().await;
}

async fn two_people(server: &TestServer) -> (Client, Client, i64) {
    let a = Client::guest(server).await;
    let b = Client::guest(server).await;
    let game = a.create(json!({"rules": "chinese", "map": "square:9", "players": 2})).await;
    let (s, v) = b.post(&format!("/api/games/{game}/join"), json!({})).await;
    assert_eq!(s, 200, "{v}");
    (a, b, game)
}

async fn accepted_and_declined_between_people(db: &str) {
    let server = TestServer::start(db).await;
    let (a, b, game) = two_people(&server).await;
    let mut sa = a.socket().await;
    let mut sb = b.socket().await;
    sa.watch(game, None).await;
    sb.watch(game, None).await;
    assert_eq!(sa.act(game, json!({"type": "place", "at": "E5"})).await["type"], "ack");
    let undo = format!("/api/games/{game}/undo");
    let answer = format!("/api/games/{game}/undo/answer");
    assert_eq!(a.post(&undo, json!({})).await.0, 200);
    let asked = sb.until(|v| v["type"] == "undo").await;
    assert_eq!(asked["request"]["waiting"], json!([1]), "{asked}");
    assert_eq!(asked["request"]["by"], 0);
    // The asker cannot answer for the others; nobody asks twice at once.
    assert_eq!(a.post(&answer, json!({"accept": true})).await.0, 403);
    assert_eq!(a.post(&undo, json!({})).await.0, 409);
    let (_, info) = b.get(&format!("/api/games/{game}")).await;
    assert_eq!(info["undo"]["waiting"], json!([1]), "a reloaded page sees the request");
    // B declines: the move stands, and the same undo cannot be asked again.
    assert_eq!(b.post(&answer, json!({"accept": false})).await.0, 200);
    let declined = sa.until(|v| v["type"] == "undo" && v["request"].is_null()).await;
    assert!(declined["request"].is_null());
    assert_eq!(declined["note"], json!({"kind": "declined", "seat": 1}), "{declined}");
    assert_eq!(
        declined["undo_refused"][0],
        json!("this undo was declined: it cannot be asked again"),
        "the asker's button says why: {declined}"
    );
    let (st, v) = a.post(&undo, json!({})).await;
    assert_eq!(st, 409, "{v}");
    assert_eq!(record_actions(&a, game).await, 1);
    // B plays, A plays again and asks; B accepts: only A's last move goes.
    assert_eq!(sb.act(game, json!({"type": "place", "at": "C3"})).await["type"], "ack");
    assert_eq!(sa.act(game, json!({"type": "place", "at": "G7"})).await["type"], "ack");
    assert_eq!(a.post(&undo, json!({})).await.0, 200);
    sb.until(|v| v["type"] == "undo" && !v["request"].is_null()).await;
    assert_eq!(b.post(&answer, json!({"accept": true})).await.0, 200);
    let sync = sa.until(|v| v["type"] == "sync").await;
    assert_eq!(stones(&sync["state"]), 2, "{sync}");
    assert_eq!(sync["info"]["waiting_for"], json!([seat_of(&sync["info"], a.id())]));
    let seqs: Vec<u64> =
        sync["actions"].as_array().unwrap().iter().map(|a| a["seq"].as_u64().unwrap()).collect();
    assert_eq!(seqs, vec![1, 2], "the standing actions keep their numbers");
    assert_eq!(record_actions(&a, game).await, 2);
    // A watcher that had seen the taken-back move and reconnects is sent everything again.
    let c = Client::guest(&server).await;
    let mut sc = c.socket().await;
    let resync = sc.watch(game, Some(3)).await;
    assert_eq!(resync["since"], 0, "{resync}");
    // Nobody else may ask.
    assert_eq!(c.post(&undo, json!({})).await.0, 403);
    server.stop().await;
}

async fn a_request_lapses_when_the_game_moves_on(db: &str) {
    let server = TestServer::start(db).await;
    let (a, b, game) = two_people(&server).await;
    let mut sa = a.socket().await;
    let mut sb = b.socket().await;
    sa.watch(game, None).await;
    sb.watch(game, None).await;
    assert_eq!(sa.act(game, json!({"type": "place", "at": "E5"})).await["type"], "ack");
    assert_eq!(a.post(&format!("/api/games/{game}/undo"), json!({})).await.0, 200);
    assert_eq!(sb.act(game, json!({"type": "place", "at": "C3"})).await["type"], "ack");
    let lapsed = sa.until(|v| v["type"] == "undo" && v["request"].is_null()).await;
    assert_eq!(lapsed["note"], json!({"kind": "lapsed"}), "{lapsed}");
    let (st, _) = b.post(&format!("/api/games/{game}/undo/answer"), json!({"accept": true})).await;
    assert_eq!(st, 409, "nothing to answer");
    assert_eq!(record_actions(&a, game).await, 2);
    server.stop().await;
}

async fn a_three_player_undo_needs_both_others(db: &str) {
    let server = TestServer::start(db).await;
    let a = Client::guest(&server).await;
    let b = Client::guest(&server).await;
    let c = Client::guest(&server).await;
    let game = a
        .create(json!({"rules": {"system": "gobeyond", "turn_seconds": 0}, "map": "hex:3", "players": 3}))
        .await;
    for x in [&b, &c] {
        assert_eq!(x.post(&format!("/api/games/{game}/join"), json!({})).await.0, 200);
    }
    let mut sa = a.socket().await;
    let sync = sa.watch(game, None).await;
    let to_move = sync["info"]["waiting_for"][0].as_u64().unwrap();
    let players = [&a, &b, &c];
    let first = players.iter().find(|p| seat_of(&sync["info"], p.id()) == to_move).unwrap();
    let mut s1 = first.socket().await;
    s1.watch(game, None).await;
    let (_, map) = a.get(&format!("/api/games/{game}/map")).await;
    let r = s1.act(game, json!({"type": "place", "at": map["labels"][0]})).await;
    assert_eq!(r["type"], "ack", "{r}");
    assert_eq!(first.post(&format!("/api/games/{game}/undo"), json!({})).await.0, 200);
    let others: Vec<&&Client> = players.iter().filter(|p| p.id() != first.id()).collect();
    assert_eq!(
        others[0].post(&format!("/api/games/{game}/undo/answer"), json!({"accept": true})).await.0,
        200
    );
    let (_, info) = a.get(&format!("/api/games/{game}")).await;
    assert_eq!(info["undo"]["waiting"].as_array().unwrap().len(), 1, "one still to answer: {info}");
    assert_eq!(record_actions(&a, game).await, 1, "not yet taken back");
    assert_eq!(
        others[1].post(&format!("/api/games/{game}/undo/answer"), json!({"accept": true})).await.0,
        200
    );
    sa.until(|v| v["type"] == "sync").await;
    assert_eq!(record_actions(&a, game).await, 0);
    server.stop().await;
}
