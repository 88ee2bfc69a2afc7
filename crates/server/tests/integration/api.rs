//! Games played through the real HTTP and WebSocket interfaces, on SQLite and on PostgreSQL: to
//! the end, on time, with byo-yomi, reconnecting, watched, and across a restart.

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
    restart_resumes_games,
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
