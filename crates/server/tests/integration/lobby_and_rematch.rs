//! What lists and pages read, on SQLite and on PostgreSQL: the lobby's lists, the views the web
//! client is sent, and rematches.

use crate::common::{Client, TestServer, postgres_url, sqlite_url};
use serde_json::{Value, json};

on_both!(lobby_lists, views_for_the_web_client, rematch, both_players_pressing_rematch_make_one_game,);

async fn lobby_lists(db: &str) {
    let server = TestServer::start(db).await;
    let a = Client::guest(&server).await;
    let open = a.create(json!({"rules": "gobeyond", "map": "hex:4", "players": 4})).await;
    let private = a.create(json!({"rules": "gobeyond", "map": "hex:4", "players": 3, "public": false})).await;
    let live = a
        .create(json!({"rules": "chinese", "map": "square:9", "players": 2, "seats": [{"kind": "me"}, {"kind": "bot", "level": 1}]}))
        .await;
    let (_, l) = a.get("/api/games?status=open").await;
    let ids: Vec<i64> = l["games"].as_array().unwrap().iter().map(|g| g["id"].as_i64().unwrap()).collect();
    assert!(ids.contains(&open) && !ids.contains(&private) && !ids.contains(&live));
    let (_, l) = a.get("/api/games?status=live").await;
    assert!(l["games"].as_array().unwrap().iter().any(|g| g["id"] == live));
    let (_, mine) = a.get("/api/games?status=open&mine=true").await;
    let ids: Vec<i64> = mine["games"].as_array().unwrap().iter().map(|g| g["id"].as_i64().unwrap()).collect();
    assert!(ids.contains(&private) && ids.contains(&open));
    let (s, _) = a.get("/api/games?status=sideways").await;
    assert_eq!(s, 400);
    // "My games" without a status: every game of mine, whatever its status (the lobby's list
    // was always empty when the status defaulted to open).
    let (_, mine) = a.get("/api/games?mine=true").await;
    let ids: Vec<i64> = mine["games"].as_array().unwrap().iter().map(|g| g["id"].as_i64().unwrap()).collect();
    assert!(ids.contains(&open) && ids.contains(&private) && ids.contains(&live), "{mine}");
    // A public game whose free seats all need the invitation is not in the open list; its
    // creator (only) can fetch the invitation again.
    let invited = a
        .create(json!({"rules": "gobeyond", "map": "hex:3", "players": 2, "seats": [{"kind": "me"}, {"kind": "invite"}]}))
        .await;
    let (_, l) = a.get("/api/games?status=open").await;
    assert!(!l["games"].as_array().unwrap().iter().any(|g| g["id"] == invited), "{l}");
    let (s, code) = a.get(&format!("/api/games/{invited}/invite")).await;
    assert_eq!(s, 200);
    let code = code["invite"].as_str().unwrap().to_string();
    let stranger = Client::guest(&server).await;
    assert_eq!(stranger.get(&format!("/api/games/{invited}/invite")).await.0, 403);
    assert_eq!(stranger.post(&format!("/api/games/{invited}/join"), json!({})).await.0, 409);
    let (s, joined) = stranger.post(&format!("/api/games/{invited}/join"), json!({"invite": code})).await;
    assert_eq!(s, 200, "{joined}");
    // A custom map appears in lists by name and size, not node by node.
    let nodes: Vec<Value> = (0..3000).map(|i| json!({"x": (i % 60) as f64, "y": (i / 60) as f64})).collect();
    let edges: Vec<Value> = (0..2999).map(|i| json!([i, i + 1])).collect();
    let custom = json!({"name": "long line", "nodes": nodes, "edges": edges});
    let big = a.create(json!({"rules": "gobeyond", "map": custom, "players": 2})).await;
    let text = a
        .http
        .get(server.url("/api/games?status=open&mine=true"))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(text.len() < 10_000, "{} bytes for a lobby list", text.len());
    let l: Value = serde_json::from_str(&text).unwrap();
    let g = l["games"].as_array().unwrap().iter().find(|g| g["id"] == big).unwrap();
    assert_eq!(g["map"], json!({"custom": {"name": "long line", "nodes": 3000}}));
    // Leaving an open game frees the seat; joining it again takes it.
    let b = Client::guest(&server).await;
    b.post(&format!("/api/games/{open}/join"), json!({"seat": 2})).await;
    let (_, info) = a.get(&format!("/api/games/{open}")).await;
    assert_eq!(info["seats"][2]["user_id"], b.id());
    let (s, _) = b.post(&format!("/api/games/{open}/leave"), json!({})).await;
    assert_eq!(s, 200);
    let (_, info) = a.get(&format!("/api/games/{open}")).await;
    assert!(info["seats"][2]["user_id"].is_null());
    server.stop().await;
}

/// What the web client reads besides the game itself: map geometry, review steps, rule systems
/// and their documents; and updates carry only their own events.
async fn views_for_the_web_client(db: &str) {
    let server = TestServer::start(db).await;
    let a = Client::guest(&server).await;
    let (status, hex) = a.get("/api/maps/preview?spec=hex:2").await;
    assert_eq!(status, 200);
    assert_eq!(hex["nodes"], 7);
    assert_eq!(hex["dimension"], 2);
    assert_eq!(hex["edges"].as_array().unwrap().len(), 12);
    assert_eq!(hex["labels"][3], "B2");
    let (_, torus) = a.get("/api/maps/preview?spec=torus:5x4").await;
    assert_eq!(torus["dimension"], 3);
    assert_eq!(torus["grid"], json!({"width": 5, "height": 4, "wrap": true}));
    assert_eq!(torus["z"].as_array().unwrap().len(), 20);
    let (status, err) = a.get("/api/maps/preview?spec=square:99").await;
    assert_eq!(status, 400);
    assert!(err["error"].as_str().unwrap().contains("square"), "{err}");
    let (status, err) = a.get("/api/maps/preview?spec=grid:20x20x20").await;
    assert_eq!(status, 400, "8000 nodes is over the server's limit: {err}");

    let b = Client::guest(&server).await;
    let game = a.create(json!({"rules": "gobeyond", "map": "square:5", "players": 2})).await;
    b.post(&format!("/api/games/{game}/join"), json!({})).await;
    let (_, map) = a.get(&format!("/api/games/{game}/map")).await;
    assert_eq!(map["nodes"], 25);
    let mut sa = a.socket().await;
    let mut sb = b.socket().await;
    // Updates are read on the other socket: on the acting one the update may come before the ack.
    sb.watch(game, None).await;
    assert_eq!(sa.act(game, json!({"type": "place", "at": "C3"})).await["seq"], 1);
    let u = sb.until(|v| v["type"] == "update" && v["seq"] == 1).await;
    assert_eq!(u["state"]["events"], json!([]), "updates leave the history out");
    assert!(u["events"].as_array().unwrap().iter().any(|e| e["event"] == "occupied"));
    assert_eq!(sb.act(game, json!({"type": "place", "at": "D4"})).await["seq"], 2);
    let sync = sa.watch(game, None).await;
    assert!(sync["state"]["events"].as_array().unwrap().len() >= 4, "a sync carries the history");

    let (_, step) = a.get(&format!("/api/games/{game}/state?at=1")).await;
    assert_eq!(step["total"], 2);
    assert_eq!(step["action"]["at"], "C3");
    assert_eq!(step["state"]["board"][12], 0);
    assert_eq!(step["state"]["board"][8], Value::Null, "D4 is not played yet at step 1");
    let (_, start) = a.get(&format!("/api/games/{game}/state?at=0")).await;
    assert_eq!(start["action"], Value::Null);
    let (status, _) = a.get(&format!("/api/games/{game}/state?at=3")).await;
    assert_eq!(status, 400);

    let (_, rules) = a.get("/api/rules").await;
    assert_eq!(rules["systems"][0]["defaults"]["occupy_cost"], 10);
    assert!(rules["systems"][1]["presets"].as_array().unwrap().iter().any(|p| p["name"] == "chinese"));
    // Every system describes its settings for the lobby's form, and says whether it has a clock.
    for system in rules["systems"].as_array().unwrap() {
        let settings = system["settings"].as_array().unwrap();
        assert!(!settings.is_empty(), "{system}");
        for d in settings {
            match &system["defaults"][d["name"].as_str().unwrap()] {
                // Left out of the defaults: empty (GoBeyond's handicap list), or no classic
                // handicap (left out of records of games without one).
                Value::Null => assert!(
                    d["default"].is_null() || [json!([]), json!(0), json!("fixed")].contains(&d["default"]),
                    "{d}"
                ),
                default => assert_eq!(default, &d["default"], "{d}"),
            }
        }
    }
    assert_eq!(rules["systems"][0]["own_clock"], true, "GoBeyond times its own turns");
    assert_eq!(rules["systems"][1]["own_clock"], false);
    let doc = reqwest::get(server.url("/api/rules/gobeyond/doc")).await.unwrap().text().await.unwrap();
    assert!(doc.contains("<h1>GoBeyond, as implemented</h1>"), "{}", &doc[..200.min(doc.len())]);
    assert!(doc.contains("<table>"));
    let (status, _) = a.get("/api/rules/chess/doc").await;
    assert_eq!(status, 404);
    sa.close().await;
    sb.close().await;
    server.stop().await;
}

/// Issue 17: a rematch of a finished game: same setup, seats moved one place on, the other
/// player invited, and told at the old table.
async fn rematch(db: &str) {
    let server = TestServer::start(db).await;
    let a = Client::guest(&server).await;
    let b = Client::guest(&server).await;
    let game = a.create(json!({"rules": "chinese", "map": "square:5", "players": 2})).await;
    assert_eq!(b.post(&format!("/api/games/{game}/join"), json!({})).await.0, 200);
    assert_eq!(a.post(&format!("/api/games/{game}/rematch"), json!({})).await.0, 409, "not finished");
    let mut sb = b.socket().await;
    sb.watch(game, None).await;
    assert_eq!(sb.act(game, json!({"type": "resign"})).await["type"], "ack");
    let stranger = Client::guest(&server).await;
    assert_eq!(stranger.post(&format!("/api/games/{game}/rematch"), json!({})).await.0, 403);
    let (s, created) = a.post(&format!("/api/games/{game}/rematch"), json!({})).await;
    assert_eq!(s, 201, "{created}");
    let new = created["game"]["id"].as_i64().unwrap();
    // A was Black (seat 0): now White (seat 1); B's seat waits for B by invitation.
    assert_eq!(created["game"]["seats"][1]["user_id"], a.id());
    assert_eq!(created["game"]["seats"][0]["kind"]["kind"], "invite");
    let offer = sb.until(|v| v["type"] == "rematch").await;
    assert_eq!(offer["rematch"], new);
    let invite = offer["invite"].as_str().unwrap();
    let (s, joined) = b.post(&format!("/api/games/{new}/join"), json!({"invite": invite})).await;
    assert_eq!(s, 200, "{joined}");
    assert_eq!(joined["game"]["status"], "live");
    server.stop().await;
}

/// Issue 41, item 6: both players pressing Rematch at the same moment made two games with one
/// player each; now the second press leads to the first one's game, where its seat is kept.
async fn both_players_pressing_rematch_make_one_game(db: &str) {
    let server = TestServer::start(db).await;
    for round in 0..3 {
        let a = Client::guest(&server).await;
        let b = Client::guest(&server).await;
        let game = a.create(json!({"rules": "chinese", "map": "square:5", "players": 2})).await;
        assert_eq!(b.post(&format!("/api/games/{game}/join"), json!({})).await.0, 200);
        let mut sb = b.socket().await;
        sb.watch(game, None).await;
        assert_eq!(sb.act(game, json!({"type": "resign"})).await["type"], "ack");
        let path = format!("/api/games/{game}/rematch");
        let ((sa, ca), (sb2, cb)) = tokio::join!(a.post(&path, json!({})), b.post(&path, json!({})));
        let mut statuses = [sa, sb2];
        statuses.sort();
        assert_eq!(statuses, [200, 201], "round {round}: one makes it, the other is sent to it: {ca} {cb}");
        let new = ca["game"]["id"].as_i64().unwrap();
        assert_eq!(cb["game"]["id"].as_i64().unwrap(), new, "round {round}: one game");
        // Whoever was sent to it takes the seat kept for them with the link they were given.
        let (late, late_answer) = if sa == 200 { (&a, &ca) } else { (&b, &cb) };
        let invite = late_answer["invite"].as_str().expect("the kept seat's link");
        let (s, joined) = late.post(&format!("/api/games/{new}/join"), json!({"invite": invite})).await;
        assert_eq!(s, 200, "{joined}");
        assert_eq!(joined["game"]["status"], "live");
        // Asking again later still leads there.
        let (s, again) = a.post(&path, json!({})).await;
        assert_eq!((s, again["game"]["id"].as_i64()), (200, Some(new)));
        sb.close().await;
    }
    server.stop().await;
}
