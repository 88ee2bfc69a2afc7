//! How games end, through the real WebSocket protocol on SQLite and PostgreSQL (issue 16):
//! absent players, resigning out of turn, a resigned player's Clean-Up, classic Go's
//! dead-stone phase.

use crate::common::{Client, TestServer, postgres_url, seat_of, sqlite_url, waiting};
use serde_json::json;

on_both!(
    an_absent_player_is_resigned_and_the_game_ends,
    resigning_out_of_turn,
    resigned_players_cleanup_is_decided_for_them,
    classic_dead_stone_phase,
);

/// Issue 16: a player who leaves for good (never acts again) is resigned after their turn runs
/// out `timeouts_to_resign` times in a row, and the game ends with a result; the record replays.
async fn an_absent_player_is_resigned_and_the_game_ends(db: &str) {
    let server = TestServer::start(db).await;
    let a = Client::guest(&server).await;
    let b = Client::guest(&server).await;
    let rules = json!({"system": "gobeyond", "turn_seconds": 1, "timeouts_to_resign": 2});
    let game = a.create(json!({"rules": rules, "map": "square:5", "players": 2})).await;
    assert_eq!(b.post(&format!("/api/games/{game}/join"), json!({})).await.0, 200);
    let mut sa = a.socket().await;
    sa.watch(game, None).await;
    // A plays; B has gone away and never answers.
    assert_eq!(sa.act(game, json!({"type": "place", "at": "C3"})).await["type"], "ack");
    sa.until(|v| v["type"] == "update" && v["action"]["type"] == "timeout").await;
    assert_eq!(sa.act(game, json!({"type": "place", "at": "B2"})).await["type"], "ack");
    let last = sa.until(|v| v["type"] == "update" && v["status"] == "finished").await;
    let outcome = &last["state"]["outcome"];
    assert_eq!(outcome["reason"], "resignation", "{last}");
    assert_eq!(outcome["ranking"], json!([0, 1]));
    let resigned = last["events"].as_array().unwrap().iter().find(|e| e["event"] == "resigned").cloned();
    assert_eq!(resigned.map(|e| e["absent"].clone()), Some(json!(true)), "{last}");
    // Shown as timed out, not as a resignation the player chose (issue 41).
    assert_eq!(last["state"]["players"][1]["status"], "timed_out", "{last}");
    assert_eq!(last["state"]["players"][0]["status"], "playing", "{last}");
    // The last player standing got the final bonus for what A claims.
    assert!(last["events"].as_array().unwrap().iter().any(|e| e["event"] == "final_bonus"), "{last}");
    let (_, record) = a.get(&format!("/api/games/{game}/record")).await;
    let record: gobeyond_rules::record::Record = serde_json::from_value(record).unwrap();
    assert_eq!(
        record.replay().unwrap().outcome().map(|o| o.reason),
        Some(gobeyond_rules::EndReason::Resignation)
    );
    server.stop().await;
}

/// Issue 16: in a 3-player game a player resigns while it is someone else's turn; play goes on
/// without them. Refusals name seats as the page does.
async fn resigning_out_of_turn(db: &str) {
    let server = TestServer::start(db).await;
    let a = Client::guest(&server).await;
    let b = Client::guest(&server).await;
    let c = Client::guest(&server).await;
    let game = a.create(json!({"rules": "gobeyond", "map": "hex:3", "players": 3})).await;
    for x in [&b, &c] {
        assert_eq!(x.post(&format!("/api/games/{game}/join"), json!({})).await.0, 200);
    }
    let mut sc = c.socket().await;
    let sync = sc.watch(game, None).await;
    let seat_c = seat_of(&sync["info"], c.id());
    assert!(!waiting(&sync["info"]).contains(&seat_c), "it is not C's turn");
    let wrong = sc.act(game, json!({"type": "skip"})).await;
    assert_eq!(wrong["code"], "not_your_turn", "{wrong}");
    let other = (seat_c + 1) % 3;
    sc.send(json!({"type": "act", "game": game, "action": {"type": "resign"}, "seat": other, "id": 5})).await;
    let e = sc.until(|v| v["type"] == "error" && v["id"] == 5).await;
    assert!(e["error"].as_str().unwrap().contains(&format!("Seat {}", other + 1)), "{e}");
    assert_eq!(sc.act(game, json!({"type": "resign"})).await["type"], "ack");
    let (_, info) = a.get(&format!("/api/games/{game}")).await;
    assert_eq!(info["status"], "live", "two players go on");
    server.stop().await;
}

/// Issue 16: a resigned player's stones are decided for them at Clean-Up (the server's search
/// surrenders the doomed ones), so the game ends without them.
async fn resigned_players_cleanup_is_decided_for_them(db: &str) {
    let server = TestServer::start(db).await;
    let clients = [Client::guest(&server).await, Client::guest(&server).await, Client::guest(&server).await];
    let game = clients[0].create(json!({"rules": "gobeyond", "map": "square:5", "players": 3})).await;
    for x in &clients[1..] {
        assert_eq!(x.post(&format!("/api/games/{game}/join"), json!({})).await.0, 200);
    }
    let mut sockets = Vec::new();
    for c in &clients {
        let mut s = c.socket().await;
        let sync = s.watch(game, None).await;
        sockets.push((seat_of(&sync["info"], c.id()), s));
    }
    sockets.sort_by_key(|(seat, _)| *seat);
    // Seat 0 plays a stone, seat 1 plays a stone, seat 2 plays one then resigns.
    for (seat, at) in [(0usize, "A1"), (1, "C3"), (2, "E5")] {
        let ack = sockets[seat].1.act(game, json!({"type": "place", "at": at})).await;
        assert_eq!(ack["type"], "ack", "{ack}");
    }
    assert_eq!(sockets[2].1.act(game, json!({"type": "resign"})).await["type"], "ack");
    // Seats 0 and 1 pass until Clean-Up.
    let mut turn = 0;
    loop {
        let (_, info) = clients[0].get(&format!("/api/games/{game}")).await;
        if info["phase"] == "clean_up" {
            break;
        }
        let seat = waiting(&info)[0] as usize;
        assert_eq!(sockets[seat].1.act(game, json!({"type": "pass"})).await["type"], "ack");
        turn += 1;
        assert!(turn < 20, "play ends");
    }
    for seat in [0, 1] {
        assert_eq!(sockets[seat].1.act(game, json!({"type": "surrender", "nodes": []})).await["type"], "ack");
    }
    // The resigned seat's choice comes from the server.
    let decided = sockets[0]
        .1
        .until(|v| v["type"] == "update" && v["action"]["player"] == 2 && v["state"]["phase"] != "playing")
        .await;
    assert_eq!(decided["action"]["type"], "surrender", "{decided}");
    let (_, info) = clients[0].get(&format!("/api/games/{game}")).await;
    assert_eq!(info["status"], "finished", "{info}");
    server.stop().await;
}

/// Issue 16: a classic game scored through the dead-stone phase: the server proposes dead stones
/// from its search, a player marks differently, the other resumes play; after the next passes both
/// accept, and the score removes the agreed dead stones. The record replays.
async fn classic_dead_stone_phase(db: &str) {
    let server = TestServer::start(db).await;
    let a = Client::guest(&server).await;
    let b = Client::guest(&server).await;
    let game = a.create(json!({"rules": "japanese", "map": "square:5", "players": 2})).await;
    assert_eq!(b.post(&format!("/api/games/{game}/join"), json!({})).await.0, 200);
    let mut sa = a.socket().await;
    let mut sb = b.socket().await;
    let sync = sa.watch(game, None).await;
    sb.watch(game, None).await;
    let (black, white) =
        if seat_of(&sync["info"], a.id()) == 0 { (&mut sa, &mut sb) } else { (&mut sb, &mut sa) };
    for (bm, wm) in [("B1", "D1"), ("B2", "D2"), ("B3", "D3"), ("B4", "D4"), ("B5", "D5"), ("C3", "A3")] {
        assert_eq!(black.act(game, json!({"type": "place", "at": bm})).await["type"], "ack");
        assert_eq!(white.act(game, json!({"type": "place", "at": wm})).await["type"], "ack");
    }
    assert_eq!(black.act(game, json!({"type": "pass"})).await["type"], "ack");
    assert_eq!(white.act(game, json!({"type": "pass"})).await["type"], "ack");
    // The server's proposal arrives as an update.
    let proposal = black.until(|v| v["type"] == "update" && v["action"]["type"] == "dead").await;
    assert_eq!(proposal["action"]["proposed"], true, "{proposal}");
    assert_eq!(proposal["state"]["status"], "scoring");
    let refused = black.act(game, json!({"type": "place", "at": "E5"})).await;
    assert_eq!(refused["code"], "in_scoring", "{refused}");
    // White says A3 lives; Black disagrees and resumes.
    assert_eq!(white.act(game, json!({"type": "dead", "nodes": []})).await["type"], "ack");
    assert_eq!(black.act(game, json!({"type": "resume"})).await["type"], "ack");
    assert_eq!(white.act(game, json!({"type": "place", "at": "A4"})).await["type"], "ack");
    assert_eq!(black.act(game, json!({"type": "place", "at": "A5"})).await["type"], "ack");
    assert_eq!(white.act(game, json!({"type": "pass"})).await["type"], "ack");
    assert_eq!(black.act(game, json!({"type": "pass"})).await["type"], "ack");
    black.until(|v| v["type"] == "update" && v["action"]["type"] == "dead").await;
    // Both agree on A3-A4 dead.
    assert_eq!(white.act(game, json!({"type": "dead", "at": ["A3"]})).await["type"], "ack");
    assert_eq!(black.act(game, json!({"type": "accept"})).await["type"], "ack");
    assert_eq!(white.act(game, json!({"type": "accept"})).await["type"], "ack");
    let last = black.until(|v| v["type"] == "update" && v["status"] == "finished").await;
    assert_eq!(last["state"]["dead"].as_array().map(Vec::len), Some(2), "{last}");
    assert_eq!(last["state"]["outcome"]["scores"], json!([6.0, 11.5]), "{last}");
    let (_, record) = a.get(&format!("/api/games/{game}/record")).await;
    let record: gobeyond_rules::record::Record = serde_json::from_value(record).unwrap();
    let replayed = record.replay().unwrap();
    assert_eq!(replayed.outcome().map(|o| o.scores.clone()), Some(vec![6.0, 11.5]));
    server.stop().await;
}
