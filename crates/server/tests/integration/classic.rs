//! Classic Go through the server (issue 41): handicap games created through the API (checked,
//! komi half a point unless given, a bot takes Black's free stones), and the result in Go's
//! notation on the game and in lobby lists.

use crate::common::{Client, TestServer, postgres_url, seat_of, sqlite_url};
use serde_json::{Value, json};

on_both!(handicap_games_are_created_and_checked, results_read_as_go_players_write_them,);

fn stones(sync: &Value, seat: usize) -> Vec<String> {
    let mut s: Vec<String> = sync["state"]["players"][seat]["stones"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap().to_string())
        .collect();
    s.sort();
    s
}

async fn handicap_games_are_created_and_checked(db: &str) {
    let server = TestServer::start(db).await;
    let a = Client::guest(&server).await;
    // Fixed: four stones on the star points, komi 0.5 when none is given, White to move.
    let rules = json!({"system": "classic", "handicap": 4});
    let game = a
        .create(json!({"rules": rules, "map": "square:9", "players": 2,
                       "seats": [{"kind": "bot", "level": 1}, {"kind": "me"}]}))
        .await;
    let (_, info) = a.get(&format!("/api/games/{game}")).await;
    assert_eq!(info["rules"]["handicap"], 4, "{info}");
    assert_eq!(info["rules"]["komi"], 0.5, "{info}");
    let mut s = a.socket().await;
    let sync = s.watch(game, None).await;
    assert_eq!(stones(&sync, 0), ["C3", "C7", "G3", "G7"]);
    assert_eq!(sync["info"]["waiting_for"], json!([1]), "White moves first");
    // A komi given stays.
    let given = json!({"system": "classic", "handicap": 2, "komi": 3.5});
    let game = a.create(json!({"rules": given, "map": "square:9", "players": 2})).await;
    assert_eq!(a.get(&format!("/api/games/{game}")).await.1["rules"]["komi"], 3.5);
    // Free placement with a bot as Black: it places its three stones, then it is White's move.
    let free = json!({"system": "classic", "handicap": 3, "handicap_placement": "free"});
    let game = a
        .create(json!({"rules": free, "map": "square:9", "players": 2,
                       "seats": [{"kind": "bot", "level": 1}, {"kind": "me"}]}))
        .await;
    let mut s = a.socket().await;
    let sync = s.watch(game, None).await;
    let mine = seat_of(&sync["info"], a.id());
    assert_eq!(mine, 1);
    let ready = if sync["info"]["waiting_for"] == json!([1]) {
        sync
    } else {
        s.until(|v| v["type"] == "update" && v["waiting_for"] == json!([1])).await
    };
    assert_eq!(stones(&ready, 0), ["C3", "C7", "G7"], "{ready}");
    // Refused with a reason a player can act on.
    for (rules, map, players, words) in [
        (json!({"system": "classic", "handicap": 1}), "square:9", 2, "must be 0, or 2 to 9"),
        (json!({"system": "classic", "handicap": 3}), "square:9", 3, "two-player"),
        (json!({"system": "classic", "handicap": 2}), "hex:4", 2, "square board"),
        (json!({"system": "classic", "handicap": 6}), "square:8", 2, "2 to 4 stones"),
    ] {
        let (code, body) =
            a.post("/api/games", json!({"rules": rules, "map": map, "players": players})).await;
        assert_eq!(code, 400, "{body}");
        assert!(body["error"].as_str().unwrap().contains(words), "{body}");
    }
    server.stop().await;
}

/// `W+R`-style results: on the game's info and in the lobby's lists, for a resignation, and for
/// the count after passes and the dead-stone phase.
async fn results_read_as_go_players_write_them(db: &str) {
    let server = TestServer::start(db).await;
    let a = Client::guest(&server).await;
    let b = Client::guest(&server).await;
    let two = |rules: Value| json!({"rules": rules, "map": "square:5", "players": 2});
    // A resignation.
    let game = a.create(two(json!("chinese"))).await;
    assert_eq!(b.post(&format!("/api/games/{game}/join"), json!({})).await.0, 200);
    let mut sa = a.socket().await;
    let sync = sa.watch(game, None).await;
    let a_seat = seat_of(&sync["info"], a.id());
    let mut sb = b.socket().await;
    sb.watch(game, None).await;
    assert_eq!(sa.act(game, json!({"type": "resign"})).await["type"], "ack");
    let winner = if a_seat == 0 { "W" } else { "B" };
    let (_, info) = a.get(&format!("/api/games/{game}")).await;
    assert_eq!(info["result_text"], format!("{winner}+R"), "{info}");
    // By passes (Tromp-Taylor: no dead-stone phase): Black's one stone owns the board (area
    // 25), White has komi 7.5.
    let game = a.create(two(json!("tromp-taylor"))).await;
    assert_eq!(b.post(&format!("/api/games/{game}/join"), json!({})).await.0, 200);
    let sync = sa.watch(game, None).await;
    let a_seat = seat_of(&sync["info"], a.id());
    sb.watch(game, None).await;
    let (black, white) = if a_seat == 0 { (&mut sa, &mut sb) } else { (&mut sb, &mut sa) };
    assert_eq!(black.act(game, json!({"type": "place", "at": "C3"})).await["type"], "ack");
    assert_eq!(white.act(game, json!({"type": "pass"})).await["type"], "ack");
    assert_eq!(black.act(game, json!({"type": "pass"})).await["type"], "ack");
    black.until(|v| v["type"] == "update" && v["status"] == "finished").await;
    let (_, info) = a.get(&format!("/api/games/{game}")).await;
    assert_eq!(info["result_text"], "B+17.5", "{info}");
    // The lists: the player's own games and the public finished ones.
    let (_, mine) = a.get("/api/games?mine=true&status=finished").await;
    let texts: Vec<&Value> = mine["games"].as_array().unwrap().iter().map(|g| &g["result_text"]).collect();
    assert!(texts.contains(&&json!("B+17.5")) && texts.contains(&&json!(format!("{winner}+R"))), "{mine}");
    let (_, public) = a.get("/api/games?status=finished").await;
    let listed = public["games"].as_array().unwrap().iter().find(|g| g["id"] == game).cloned();
    assert_eq!(listed.map(|g| g["result_text"].clone()), Some(json!("B+17.5")), "{public}");
    server.stop().await;
}
