//! The server through its real HTTP and WebSocket interfaces, on SQLite and on PostgreSQL.

use std::time::Duration;

use crate::common::{Client, TestServer, postgres_url, seat_of, sqlite_url, unique, waiting};
use gobeyond_rules::{AnyGame, record::Record};
use serde_json::{Value, json};

on_both!(
    three_player_gobeyond_game_with_a_bot,
    classic_game_lost_on_time,
    byo_yomi_periods_and_restart,
    reconnection_gets_missed_actions,
    spectators_see_every_update_and_chat,
    authorization,
    bad_input_changes_nothing,
    accounts,
    restart_resumes_games,
    game_cap_holds_under_concurrency,
    password_hashing_is_bounded,
    lobby_lists,
    views_for_the_web_client,
    rematch,
    both_players_pressing_rematch_make_one_game,
);

/// Two guests and a level-3 bot play GoBeyond on hex:3 to the end: the humans pass when it is
/// their turn and surrender nothing in Clean-Up; the record replays to the same result.
async fn three_player_gobeyond_game_with_a_bot(db: &str) {
    let server = TestServer::start(db).await;
    let a = Client::guest(&server).await;
    let b = Client::guest(&server).await;
    let game = a
        .create(json!({"rules": "gobeyond", "map": "hex:3", "players": 3,
                       "seats": [{"kind": "me"}, {"kind": "open"}, {"kind": "bot", "level": 3}]}))
        .await;
    let (status, joined) = b.post(&format!("/api/games/{game}/join"), json!({})).await;
    assert_eq!(status, 200, "{joined}");
    assert_eq!(joined["game"]["status"], "live");
    let mut sockets = [a.socket().await, b.socket().await];
    let users = [a.id(), b.id()];
    let seats = [seat_of(&joined["game"], users[0]), seat_of(&joined["game"], users[1])];
    for s in &mut sockets {
        s.watch(game, None).await;
    }
    let mut acked = 0;
    for _ in 0..400 {
        let (_, info) = a.get(&format!("/api/games/{game}")).await;
        if info["status"] == "finished" {
            break;
        }
        let w = waiting(&info);
        let mut acted = false;
        for (i, s) in sockets.iter_mut().enumerate() {
            if w.contains(&seats[i]) {
                let cleanup = info["phase"] == "clean_up";
                let action = if cleanup { json!({"type": "surrender"}) } else { json!({"type": "pass"}) };
                let r = s.act(game, action).await;
                if r["type"] == "ack" {
                    acked += 1;
                    acted = true;
                }
            }
        }
        if !acted {
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }
    let (_, info) = a.get(&format!("/api/games/{game}")).await;
    assert_eq!(info["status"], "finished", "{info}");
    assert!(acked >= 2, "the humans acted");
    let ranking = info["outcome"]["ranking"].as_array().unwrap();
    assert_eq!(ranking.len(), 3);
    // The record replays to the same outcome.
    let r = a.http.get(server.url(&format!("/api/games/{game}/record"))).send().await.unwrap();
    let record = Record::from_json(&r.text().await.unwrap()).unwrap();
    let AnyGame::GoBeyond(replayed) = record.replay().unwrap() else { panic!("a GoBeyond record") };
    let outcome = serde_json::to_value(gobeyond_rules::Game::outcome(&replayed)).unwrap();
    assert_eq!(outcome, info["outcome"]);
    // Every client sees the end.
    for s in &mut sockets {
        let sync = s.watch(game, None).await;
        assert_eq!(sync["info"]["status"], "finished");
        assert_eq!(sync["state"]["phase"], "finished");
    }
    server.stop().await;
}

/// Absolute time of one second: the player who does not move loses on time.
async fn classic_game_lost_on_time(db: &str) {
    let server = TestServer::start(db).await;
    let a = Client::guest(&server).await;
    let b = Client::guest(&server).await;
    let game = a
        .create(json!({"rules": "chinese", "map": "square:9", "players": 2,
                       "time": {"kind": "absolute", "main_seconds": 1.0}}))
        .await;
    b.post(&format!("/api/games/{game}/join"), json!({})).await;
    let mut sa = a.socket().await;
    sa.watch(game, None).await;
    let r = sa.act(game, json!({"type": "place", "at": "E5"})).await;
    assert_eq!(r["type"], "ack", "{r}");
    // b never moves.
    let end = sa.until(|v| v["type"] == "update" && v["status"] == "finished").await;
    assert_eq!(end["action"]["type"], "timeout");
    assert_eq!(end["action"]["player"], 1);
    assert_eq!(end["state"]["outcome"]["reason"], "time");
    assert_eq!(end["state"]["outcome"]["ranking"][0], 0);
    let (_, info) = a.get(&format!("/api/games/{game}")).await;
    assert_eq!(info["status"], "finished");
    // SGF export of a finished classic game.
    let sgf =
        a.http.get(server.url(&format!("/api/games/{game}/sgf"))).send().await.unwrap().text().await.unwrap();
    assert!(sgf.starts_with("(;") && sgf.contains("[ee]"), "{sgf}");
    // Dated (SGF DT, the day it was created, UTC), and the record keeps when each action was played.
    let dt = sgf.split("DT[").nth(1).and_then(|t| t.split(']').next()).unwrap_or_default().to_string();
    assert!(dt.len() == 10 && dt.starts_with("20") && dt.as_bytes()[4] == b'-', "DT {dt:?} in {sgf}");
    let (_, record) = a.get(&format!("/api/games/{game}/record")).await;
    assert_eq!(record["date"], dt.as_str());
    let times: Vec<i64> =
        record["actions"].as_array().unwrap().iter().map(|a| a["at_ms"].as_i64().unwrap()).collect();
    assert_eq!(times.len(), 2, "the move and the time-out: {record}");
    assert!(times[0] > 1_700_000_000_000 && times[1] >= times[0] + 900, "{times:?}");
    // The chat says it too, as the table's own line.
    let (_, chat) = a.get(&format!("/api/games/{game}/chat")).await;
    let timed_out = format!("{} ran out of time", b.user["name"].as_str().unwrap());
    assert!(
        chat["chat"]
            .as_array()
            .unwrap()
            .iter()
            .any(|l| l["channel"] == "system" && l["text"] == timed_out.as_str()),
        "{chat}"
    );
    server.stop().await;
}

/// Byo-yomi: the deadline counts every period left, and a restart charges the time already
/// used in the current turn (it used to give the turn back whole).
async fn byo_yomi_periods_and_restart(db: &str) {
    let server = TestServer::start(db).await;
    let a = Client::guest(&server).await;
    let b = Client::guest(&server).await;
    let game = a
        .create(json!({"rules": "chinese", "map": "square:9", "players": 2,
                       "time": {"kind": "byo_yomi", "main_seconds": 1.0, "periods": 3, "period_seconds": 20.0}}))
        .await;
    b.post(&format!("/api/games/{game}/join"), json!({})).await;
    let (_, info) = a.get(&format!("/api/games/{game}")).await;
    let left = info["clock"]["left_ms"].as_i64().unwrap();
    // 1 s of main time and three periods of 20 s: about 61 s (one period only would be 21 s).
    assert!(left > 30_000, "every period counts: {left} ms left");
    let deadline = info["clock"]["deadline_ms"].as_i64().unwrap();
    let addr = server.addr;
    let db = server.database.clone();
    server.stop().await;
    let server = TestServer::start_on(&db, addr).await;
    let (_, info) = a.get(&format!("/api/games/{game}")).await;
    assert_eq!(info["status"], "live");
    assert_eq!(info["clock"]["deadline_ms"].as_i64().unwrap(), deadline, "the restart gave no time back");
    server.stop().await;
}

/// A flood of wrong logins is answered without hashing them all at once: at most one hash per
/// core runs and a short queue waits; the rest are refused at once (300 simultaneous wrong
/// logins once took 3.5 GiB). A missing name is answered like a wrong password.
async fn password_hashing_is_bounded(db: &str) {
    let server = TestServer::start(db).await;
    let guest = Client::guest(&server).await;
    let (s, _) = guest.post("/api/register", json!({"name": "floodee", "password": "correct horse"})).await;
    assert_eq!(s, 200);
    let http = reqwest::Client::new();
    let tries: Vec<_> = (0..90)
        .map(|i| {
            let (http, url) = (http.clone(), server.url("/api/login"));
            let name = if i % 2 == 0 { "floodee" } else { "nobody-here" };
            tokio::spawn(async move {
                let r =
                    http.post(url).json(&json!({"name": name, "password": "wrong"})).send().await.unwrap();
                r.status().as_u16()
            })
        })
        .collect();
    let mut statuses = Vec::new();
    for t in tries {
        statuses.push(t.await.unwrap());
    }
    assert!(statuses.iter().all(|&s| s == 403 || s == 429), "{statuses:?}");
    assert!(statuses.contains(&429), "the queue is bounded: {statuses:?}");
    assert!(statuses.contains(&403), "some were checked: {statuses:?}");
    let (status, health) = guest.get("/api/health").await;
    assert_eq!((status, &health["ok"]), (200, &json!(true)));
    server.stop().await;
}

/// The cap on a player's open games holds when the requests come all at once.
async fn game_cap_holds_under_concurrency(db: &str) {
    let server = TestServer::start(db).await;
    let a = std::sync::Arc::new(Client::guest(&server).await);
    let body = json!({"rules": "gobeyond", "map": "hex:3", "players": 2, "seats": [{"kind": "me"}, {"kind": "open"}]});
    let tries: Vec<_> = (0..40)
        .map(|_| {
            let (a, body) = (a.clone(), body.clone());
            tokio::spawn(async move { a.post("/api/games", body).await.0 })
        })
        .collect();
    let mut created = 0;
    for t in tries {
        match t.await.unwrap() {
            201 => created += 1,
            429 => {}
            other => panic!("unexpected status {other}"),
        }
    }
    assert_eq!(created, 20, "exactly the cap, however the requests interleave");
    let (status, _) = a.post("/api/games", body).await;
    assert_eq!(status, 429);
    server.stop().await;
}

/// A client that reconnects with its last sequence number gets exactly what it missed.
async fn reconnection_gets_missed_actions(db: &str) {
    let server = TestServer::start(db).await;
    let a = Client::guest(&server).await;
    let b = Client::guest(&server).await;
    let game = a.create(json!({"rules": "japanese", "map": "square:9", "players": 2})).await;
    b.post(&format!("/api/games/{game}/join"), json!({})).await;
    let mut sa = a.socket().await;
    let mut sb = b.socket().await;
    sb.watch(game, None).await;
    assert_eq!(sa.act(game, json!({"type": "place", "at": "C3"})).await["seq"], 1);
    sb.until(|v| v["type"] == "update" && v["seq"] == 1).await;
    sb.close().await;
    // While b is away: three more moves.
    assert_eq!(sa.act(game, json!({"type": "place", "at": "D4"})).await["type"], "error", "not a's turn");
    let mut sb2 = b.socket().await;
    assert_eq!(sb2.act(game, json!({"type": "place", "at": "G7"})).await["seq"], 2);
    sb2.close().await;
    assert_eq!(sa.act(game, json!({"type": "place", "at": "C7"})).await["seq"], 3);
    let mut sb3 = b.socket().await;
    let sync = sb3.watch(game, Some(1)).await;
    assert_eq!(sync["seq"], 3);
    let missed: Vec<u64> =
        sync["actions"].as_array().unwrap().iter().map(|x| x["seq"].as_u64().unwrap()).collect();
    assert_eq!(missed, vec![2, 3]);
    assert_eq!(sync["actions"][1]["action"]["at"], "C7");
    assert_eq!(sync["state"]["moves_played"], 3);
    // And live updates continue after a sync (watched on another socket: on the acting one the
    // update may come before the ack).
    assert_eq!(sa.watch(game, Some(3)).await["actions"], json!([]));
    assert_eq!(sb3.act(game, json!({"type": "pass"})).await["seq"], 4);
    let u = sa.until(|v| v["type"] == "update").await;
    assert_eq!(u["seq"], 4);
    server.stop().await;
}

async fn spectators_see_every_update_and_chat(db: &str) {
    let server = TestServer::start(db).await;
    let a = Client::guest(&server).await;
    let b = Client::guest(&server).await;
    let watcher = Client::guest(&server).await;
    let game = a.create(json!({"rules": "gobeyond", "map": "square:5", "players": 2})).await;
    let mut sw = watcher.socket().await;
    let sync = sw.watch(game, None).await;
    assert_eq!(sync["info"]["status"], "open");
    b.post(&format!("/api/games/{game}/join"), json!({})).await;
    sw.until(|v| v["type"] == "started").await;
    let mut sa = a.socket().await;
    let mut sb = b.socket().await;
    sa.watch(game, None).await;
    assert_eq!(sa.act(game, json!({"type": "place", "at": "C3"})).await["type"], "ack");
    assert_eq!(sb.act(game, json!({"type": "skip"})).await["type"], "ack");
    let u1 = sw.until(|v| v["type"] == "update").await;
    let u2 = sw.until(|v| v["type"] == "update").await;
    assert_eq!((u1["seq"].as_u64(), u2["seq"].as_u64()), (Some(1), Some(2)));
    // GoBeyond updates carry the events of the action.
    assert!(u1["events"].as_array().unwrap().iter().any(|e| e["event"] == "occupied"), "{u1}");
    // Spectators cannot play; a guest spectator only reads (a stranger's chat once reached
    // every game); the players' chat reaches everyone, with the table's own lines.
    let r = sw.act(game, json!({"type": "pass"})).await;
    assert!(r["error"].as_str().unwrap().contains("no seat"), "{r}");
    sw.send(json!({"type": "chat", "game": game, "text": "spectator here"})).await;
    let e = sw.until(|v| v["type"] == "error").await;
    assert!(e["error"].as_str().unwrap().contains("choose a name"), "{e}");
    sb.send(json!({"type": "chat", "game": game, "text": "nice move"})).await;
    let c = sw.until(|v| v["type"] == "chat" && v["channel"] == "players").await;
    assert_eq!(c["text"], "nice move");
    assert_eq!(c["from"], b.user["name"]);
    assert!(c["at_ms"].as_i64().unwrap() > 1_700_000_000_000, "lines carry their time");
    let (_, lines) = watcher.get(&format!("/api/games/{game}/chat")).await;
    let said: Vec<(Value, Value)> =
        lines["chat"].as_array().unwrap().iter().map(|l| (l["channel"].clone(), l["text"].clone())).collect();
    let joined = format!("{} joined", b.user["name"].as_str().unwrap());
    assert_eq!(said, [(json!("system"), json!(joined)), (json!("players"), json!("nice move"))], "{lines}");
    assert_eq!(lines["chat"][0]["from"], Value::Null, "the table's own line has no author");
    // The history says who may speak, so that a page offers no box to whoever may not.
    assert_eq!(lines["may_chat"], false, "{lines}");
    assert!(lines["why_not"].as_str().unwrap().contains("choose a name"), "{lines}");
    assert_eq!(b.get(&format!("/api/games/{game}/chat")).await.1["may_chat"], true);
    // A spectator with a name speaks in the spectators' channel: other spectators read it, the
    // players do not while they play.
    let fan = Client::registered(&server, &format!("fan{}", unique() % 1_000_000)).await;
    let (_, history) = fan.get(&format!("/api/games/{game}/chat")).await;
    assert_eq!((history["may_chat"].clone(), history["channel"].clone()), (json!(true), json!("spectators")));
    let mut sf = fan.socket().await;
    sf.watch(game, None).await;
    sf.send(json!({"type": "chat", "game": game, "text": "Black should cut"})).await;
    let c = sw.until(|v| v["type"] == "chat").await;
    assert_eq!((c["channel"].as_str(), c["text"].as_str()), (Some("spectators"), Some("Black should cut")));
    sb.send(json!({"type": "chat", "game": game, "text": "thinking"})).await;
    let mut heard = Vec::new();
    while heard.last() != Some(&json!("thinking")) {
        heard.push(sa.until(|v| v["type"] == "chat").await["text"].clone());
    }
    assert!(!heard.contains(&json!("Black should cut")), "a player heard the spectators: {heard:?}");
    let (_, for_b) = b.get(&format!("/api/games/{game}/chat")).await;
    assert!(!for_b["chat"].to_string().contains("should cut"), "{for_b}");
    assert!(
        watcher.get(&format!("/api/games/{game}/chat")).await.1["chat"].to_string().contains("should cut")
    );
    // Too long, and too many.
    sb.send(json!({"type": "chat", "game": game, "text": "x".repeat(501)})).await;
    let e = sb.until(|v| v["type"] == "error").await;
    assert!(e["error"].as_str().unwrap().contains("500"), "{e}");
    for i in 0..6 {
        sb.send(json!({"type": "chat", "game": game, "text": format!("spam {i}")})).await;
    }
    let e = sb.until(|v| v["type"] == "error").await;
    assert!(e["error"].as_str().unwrap().contains("too many"), "{e}");
    server.stop().await;
}

async fn authorization(db: &str) {
    let server = TestServer::start(db).await;
    let a = Client::guest(&server).await;
    let b = Client::guest(&server).await;
    let c = Client::guest(&server).await;
    let g1 = a.create(json!({"rules": "chinese", "map": "square:9", "players": 2})).await;
    let (s, _) = b.post(&format!("/api/games/{g1}/join"), json!({})).await;
    assert_eq!(s, 200);
    // Full: nobody else may join.
    let (s, e) = c.post(&format!("/api/games/{g1}/join"), json!({})).await;
    assert_eq!(s, 409, "{e}");
    let mut sb = b.socket().await;
    // b cannot act for a's seat...
    let r = sb.act(g1, json!({"type": "place", "at": "E5"})).await;
    assert!(r["error"].as_str().unwrap().contains("turn"), "{r}");
    sb.send(json!({"type": "act", "game": g1, "seat": 0, "action": {"type": "pass"}, "id": 7})).await;
    let r = sb.until(|v| v["id"] == 7).await;
    assert!(r["error"].as_str().unwrap().contains("not yours"), "{r}");
    // ...nor in a game it does not sit in.
    let g2 = c
        .create(json!({"rules": "chinese", "map": "square:9", "players": 2,
                            "seats": [{"kind": "me"}, {"kind": "bot", "level": 1}]}))
        .await;
    let r = sb.act(g2, json!({"type": "pass"})).await;
    assert!(r["error"].as_str().unwrap().contains("no seat"), "{r}");
    // Invite seats need the link.
    let (s, created) = a
        .post(
            "/api/games",
            json!({"rules": "chinese", "map": "square:9", "players": 2,
                                    "seats": [{"kind": "me"}, {"kind": "invite"}]}),
        )
        .await;
    assert_eq!(s, 201);
    let g3 = created["game"]["id"].as_i64().unwrap();
    let invite = created["invite"].as_str().unwrap();
    let (s, _) = c.post(&format!("/api/games/{g3}/join"), json!({})).await;
    assert_eq!(s, 409);
    let (s, _) = c.post(&format!("/api/games/{g3}/join"), json!({"invite": "wrong"})).await;
    assert_eq!(s, 409);
    let (s, v) = c.post(&format!("/api/games/{g3}/join"), json!({"invite": invite})).await;
    assert_eq!(s, 200, "{v}");
    // A game that is not public takes its open seats by invitation too.
    let (s, created) = a
        .post("/api/games", json!({"rules": "chinese", "map": "square:9", "players": 2, "public": false}))
        .await;
    assert_eq!(s, 201);
    let g4 = created["game"]["id"].as_i64().unwrap();
    let invite = created["invite"].as_str().unwrap();
    let (s, _) = c.post(&format!("/api/games/{g4}/join"), json!({})).await;
    // Answered as for a game that does not exist (issue 40): a 409 confirmed it was there.
    assert_eq!(s, 404, "a stranger with only the game's number");
    let (s, v) = c.post(&format!("/api/games/{g4}/join"), json!({"invite": invite})).await;
    assert_eq!(s, 200, "{v}");
    // A page of another site may not change anything here (it once swapped sessions with a
    // cross-site POST /api/guest); the server's own pages and programs without an Origin may.
    let anon = reqwest::Client::new();
    let r = anon.post(server.url("/api/guest")).header("origin", "http://evil.example").send().await.unwrap();
    assert_eq!(r.status(), 403);
    let own = format!("http://{}", server.addr);
    let r = anon.post(server.url("/api/guest")).header("origin", own).send().await.unwrap();
    assert_eq!(r.status(), 200);
    let r = anon.get(server.url("/api/rules")).header("origin", "http://evil.example").send().await.unwrap();
    assert_eq!(r.status(), 200, "reading is not changing");
    // The client's pages may not be framed by another site, and load only the server's own files.
    let page = anon.get(server.url("/")).send().await.unwrap();
    let csp = page.headers()["content-security-policy"].to_str().unwrap().to_string();
    assert!(csp.contains("frame-ancestors 'none'") && csp.contains("default-src 'self'"), "{csp}");
    assert_eq!(page.headers()["x-content-type-options"], "nosniff");
    // No session: no socket, no game creation.
    let anon = reqwest::Client::new();
    let r = anon.post(server.url("/api/games")).json(&json!({})).send().await.unwrap();
    assert_eq!(r.status(), 401);
    let url = format!("ws://{}/api/ws", server.addr);
    assert!(tokio_tungstenite::connect_async(url.as_str()).await.is_err());
    // A socket from a foreign page is refused even with a valid cookie.
    use tokio_tungstenite::tungstenite::client::IntoClientRequest;
    let mut req = url.as_str().into_client_request().unwrap();
    req.headers_mut().insert("cookie", a.cookie.parse().unwrap());
    req.headers_mut().insert("origin", "http://evil.example".parse().unwrap());
    assert!(tokio_tungstenite::connect_async(req).await.is_err());
    server.stop().await;
}

async fn bad_input_changes_nothing(db: &str) {
    let server = TestServer::start(db).await;
    let a = Client::guest(&server).await;
    let b = Client::guest(&server).await;
    let game = a.create(json!({"rules": "chinese", "map": "square:9", "players": 2})).await;
    b.post(&format!("/api/games/{game}/join"), json!({})).await;
    let mut sa = a.socket().await;
    sa.send_raw("{not json").await;
    let e = sa.until(|v| v["type"] == "error").await;
    assert!(e["error"].as_str().unwrap().starts_with("bad message"), "{e}");
    sa.send(json!({"type": "teleport", "game": game})).await;
    let e = sa.until(|v| v["type"] == "error").await;
    assert!(e["error"].as_str().unwrap().contains("unknown variant"), "{e}");
    for (action, expect) in [
        (json!({"type": "place", "at": "Z99"}), "Z99"),
        (json!({"type": "skip"}), "Classic Go has no \"skip\" action"),
        (json!({"type": "timeout"}), "clock"),
    ] {
        let r = sa.act(game, action).await;
        assert_eq!(r["type"], "error");
        assert!(r["error"].as_str().unwrap().contains(expect), "{r}");
    }
    assert_eq!(sa.act(game, json!({"type": "place", "at": "E5"})).await["seq"], 1);
    let r = sa.act(game, json!({"type": "place", "at": "D5"})).await;
    assert!(r["error"].as_str().unwrap().contains("turn"), "{r}");
    let mut sb = b.socket().await;
    let r = sb.act(game, json!({"type": "place", "at": "E5"})).await;
    assert_eq!(r["type"], "error", "occupied: {r}");
    assert_eq!(r["code"], "occupied", "the refusal's code reaches the client: {r}");
    let r = sb.act(game, json!({"type": "place", "at": "E5"})).await;
    assert_eq!(r["type"], "error");
    // Finished games refuse actions.
    assert_eq!(sb.act(game, json!({"type": "resign"})).await["type"], "ack");
    let r = sa.act(game, json!({"type": "pass"})).await;
    assert!(r["error"].as_str().unwrap().contains("over"), "{r}");
    let (_, info) = a.get(&format!("/api/games/{game}")).await;
    assert_eq!(info["seq"], 2, "only the two legal actions were logged");
    // Oversize frames close the socket; the server stays up.
    sa.send_raw(&format!("{{\"type\":\"chat\",\"game\":{game},\"text\":\"{}\"}}", "x".repeat(70_000))).await;
    let closed = tokio::time::timeout(Duration::from_secs(5), async {
        use futures_util::StreamExt;
        loop {
            match sa.ws.next().await {
                None | Some(Err(_)) => return true,
                Some(Ok(tokio_tungstenite::tungstenite::Message::Close(_))) => return true,
                _ => continue,
            }
        }
    })
    .await;
    assert_eq!(closed, Ok(true));
    // Bad game settings, each with its reason.
    for (body, expect) in [
        (json!({"rules": "gobeyond", "map": "hex:3", "players": 9}), "2 to 8"),
        (json!({"rules": "gobeyond", "map": "nowhere:3", "players": 2}), "nowhere"),
        (json!({"rules": "speedgo", "map": "square:9", "players": 2}), "speedgo"),
        (
            json!({"rules": "gobeyond", "map": "square:9", "players": 2, "seats": [{"kind": "bot", "level": 11}]}),
            "level 11",
        ),
        (
            json!({"rules": "chinese", "map": "square:9", "players": 2, "time": {"kind": "absolute", "main_seconds": -1}}),
            "time.main_seconds: at least 1 second",
        ),
        (json!({"rules": "gobeyond", "map": "grid:17x17x17", "players": 2}), "at most 4096"),
    ] {
        let (s, v) = a.post("/api/games", body.clone()).await;
        assert_eq!(s, 400, "{body} → {v}");
        assert!(v["error"].as_str().unwrap().contains(expect), "{body} → {v}");
    }
    let r = a
        .http
        .post(server.url("/api/games"))
        .body("{")
        .header("content-type", "application/json")
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 400);
    let (s, _) = a.get("/api/health").await;
    assert_eq!(s, 200);
    // Sign-ups from one address are rate limited (2 per second, bursts of 100).
    let http = reqwest::Client::new();
    let mut limited = false;
    for _ in 0..120 {
        if http.post(server.url("/api/guest")).send().await.unwrap().status() == 429 {
            limited = true;
            break;
        }
    }
    assert!(limited, "a flood of sign-ups is refused");
    server.stop().await;
}

async fn accounts(db: &str) {
    let server = TestServer::start(db).await;
    let guest = Client::guest(&server).await;
    let game = guest.create(json!({"rules": "chinese", "map": "square:9", "players": 2})).await;
    let name = format!("player{}", crate::common::unique() % 1_000_000_000);
    // A guest claims an account and keeps its games.
    let (s, v) = guest.post("/api/register", json!({"name": name, "password": "correct horse"})).await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["claimed_guest"], true);
    let (_, me) = guest.get("/api/me").await;
    assert_eq!(me["user"]["name"], name.as_str());
    assert_eq!(me["user"]["kind"], "registered");
    let (_, mine) = guest.get("/api/games?status=open&mine=true").await;
    assert!(mine["games"].as_array().unwrap().iter().any(|g| g["id"] == game));
    // Log out: the session is revoked.
    let (s, _) = guest.post("/api/logout", json!({})).await;
    assert_eq!(s, 200);
    let r = reqwest::Client::new()
        .get(server.url("/api/me"))
        .header("cookie", guest.cookie.as_str())
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 401, "the old cookie no longer works");
    // A first visit carries no session at all: "nobody", not an error the browser logs.
    let r = reqwest::Client::new().get(server.url("/api/me")).send().await.unwrap();
    assert_eq!(r.status(), 200);
    assert_eq!(r.json::<Value>().await.unwrap(), json!({"user": null, "standing": null}));
    // Log in again; wrong passwords and taken names are refused.
    let http = reqwest::Client::builder().cookie_store(true).build().unwrap();
    let r = http
        .post(server.url("/api/login"))
        .json(&json!({"name": name, "password": "wrong pass"}))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 403);
    let r = http
        .post(server.url("/api/login"))
        .json(&json!({"name": name, "password": "correct horse"}))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 200);
    let r = http
        .post(server.url("/api/register"))
        .json(&json!({"name": name, "password": "another one"}))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 409);
    let r = http
        .post(server.url("/api/register"))
        .json(&json!({"name": "x", "password": "short"}))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 400);
    // A bot account plays through the same API with its token.
    let r = http
        .post(server.url("/api/bots"))
        .json(&json!({"name": format!("{name}-bot")}))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 201);
    let bot: Value = r.json().await.unwrap();
    let token = bot["token"].as_str().unwrap();
    let r = reqwest::Client::new()
        .post(server.url(&format!("/api/games/{game}/join")))
        .bearer_auth(token)
        .json(&json!({}))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 200);
    use tokio_tungstenite::tungstenite::client::IntoClientRequest;
    let mut req = format!("ws://{}/api/ws", server.addr).into_client_request().unwrap();
    req.headers_mut().insert("authorization", format!("Bearer {token}").parse().unwrap());
    let (ws, _) = tokio_tungstenite::connect_async(req).await.expect("the bot's socket");
    let mut s = crate::common::Socket::new(ws);
    let hello = s.next().await;
    assert_eq!(hello["user"]["kind"], "bot");
    server.stop().await;
}

/// Stop the server in the middle of games, start it again: every acknowledged action is there,
/// clocks and bots resume.
async fn restart_resumes_games(db: &str) {
    let server = TestServer::start(db).await;
    let a = Client::guest(&server).await;
    let b = Client::guest(&server).await;
    let game = a.create(json!({"rules": "chinese", "map": "square:9", "players": 2})).await;
    b.post(&format!("/api/games/{game}/join"), json!({})).await;
    let with_bot = a
        .create(json!({"rules": "gobeyond", "map": "hex:3", "players": 2,
                       "seats": [{"kind": "me"}, {"kind": "bot", "level": 2}]}))
        .await;
    let mut sa = a.socket().await;
    let mut sb = b.socket().await;
    assert_eq!(sa.act(game, json!({"type": "place", "at": "C3"})).await["type"], "ack");
    assert_eq!(sb.act(game, json!({"type": "place", "at": "G7"})).await["type"], "ack");
    assert_eq!(sa.act(game, json!({"type": "place", "at": "C7"})).await["type"], "ack");
    assert_eq!(sa.act(with_bot, json!({"type": "place", "at": "C3"})).await["type"], "ack");
    let addr = server.addr;
    let db = server.database.clone();
    server.stop().await;
    let server = TestServer::start_on(&db, addr).await;
    let (_, info) = a.get(&format!("/api/games/{game}")).await;
    assert_eq!(info["status"], "live");
    assert_eq!(info["seq"], 3);
    let mut sb = b.socket().await;
    let sync = sb.watch(game, None).await;
    assert_eq!(sync["state"]["moves_played"], 3);
    assert_eq!(sb.act(game, json!({"type": "place", "at": "G3"})).await["seq"], 4);
    // The bot game went on: the bot answered after the restart (or before it).
    let mut sa = a.socket().await;
    let sync = sa.watch(with_bot, None).await;
    if sync["seq"] == 1 {
        sa.until(|v| v["type"] == "update" && v["seq"] == 2).await;
    }
    server.stop().await;
}

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

/// Leases on PostgreSQL, the ground several instances stand on: of eight instances claiming one
/// expired lease at once exactly one wins, and a write with the former owner's fence is
/// refused (log, end of game), while the new owner's goes through.
#[tokio::test]
async fn leases_fence_the_former_owner() {
    use gobeyond_server::{
        error::ApiError,
        store::{Fence, NewSeat, Store},
    };
    let store = Store::connect(&postgres_url().await).await.unwrap();
    let user = store.create_user("ada", "guest", None, None).await.unwrap();
    let seat = NewSeat { user_id: Some(user.id), bot_level: None, invite_only: false };
    let quota = gobeyond_server::store::Quota {
        user: user.id,
        per_user: 10,
        address: None,
        per_address: 0,
        bots_only: false,
        per_user_bots_only: 0,
        casual: false,
    };
    let game = store.create_game(&quota, "{}", true, None, &[seat]).await.unwrap();
    let first = store.claim_lease(game, "a", 60_000).await.unwrap().expect("a free lease is taken");
    assert_eq!(store.claim_lease(game, "b", 60_000).await.unwrap(), None, "a holds it");
    let old = Fence { owner: "a".into(), epoch: first };
    store.append_action(game, 1, r#"{"player":0,"type":"pass"}"#, None, Some(&old)).await.unwrap();
    // a stops renewing: its lease lapses.
    assert_eq!(store.renew_leases("a", 1).await.unwrap(), vec![game]);
    tokio::time::sleep(Duration::from_millis(20)).await;
    let names: Vec<String> = (0..8).map(|i| format!("i{i}")).collect();
    let claims =
        futures_util::future::join_all(names.iter().map(|n| store.claim_lease(game, n, 60_000))).await;
    let won: Vec<(usize, i64)> =
        claims.into_iter().enumerate().filter_map(|(i, c)| c.unwrap().map(|e| (i, e))).collect();
    assert_eq!(won.len(), 1, "exactly one instance takes the lease over: {won:?}");
    let (winner, epoch) = won[0];
    assert!(epoch > first);
    let holder = store.lease_holder(game).await.unwrap().unwrap();
    assert_eq!((holder.owner.as_str(), holder.held), (names[winner].as_str(), true));
    let refused = store.append_action(game, 2, r#"{"player":1,"type":"pass"}"#, None, Some(&old)).await;
    assert!(matches!(refused, Err(ApiError::Fenced(_))), "{refused:?}");
    let refused = store.finish_game(game, "{}", None, Some(&old)).await;
    assert!(matches!(refused, Err(ApiError::Fenced(_))), "{refused:?}");
    let new = Fence { owner: names[winner].as_str().into(), epoch };
    store.append_action(game, 2, r#"{"player":1,"type":"pass"}"#, None, Some(&new)).await.unwrap();
    assert_eq!(store.actions(game, 0).await.unwrap().len(), 2, "the former owner's write left nothing");
    assert_eq!(store.game(game).await.unwrap().unwrap().status, "open");
}
