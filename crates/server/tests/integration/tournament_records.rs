//! A tournament game names its tournament (issue 44, docs/tournaments.md "Records and
//! notices"): its info, JSON record and SGF carry the tournament, round and table, and a round's
//! start is mailed to the people seated in it who want tournament notices — not to bots, not to
//! a player who turned the notice off.

use std::time::Duration;

use crate::common::{
    Client, TestServer, postgres_url,
    smtp::{SmtpSink, link_token},
    sqlite_url, test_limits, unique,
};
use gobeyond_server::{Config, mail::MailConfig};
use serde_json::{Value, json};

on_both!(a_tournament_game_names_its_tournament_and_round, a_round_start_is_mailed_to_people_who_want_it);

/// A one-round Swiss of 5×5 Tromp-Taylor games without clocks, with bots at level 1.
fn swiss(name: &str, bots: usize) -> Value {
    json!({
        "name": name, "system": "tromp-taylor", "map": "square:5", "players_per_game": 2,
        "format": "swiss", "rounds": 1, "max_entrants": 8, "min_entrants": 2, "entry": "open",
        "bots": vec![1; bots],
    })
}

/// Creates `body` as `creator`, has each of `people` join, starts it; its id.
async fn start(creator: &Client, body: Value, people: &[&Client]) -> i64 {
    let (status, v) = creator.post("/api/tournaments", body).await;
    assert_eq!(status, 201, "{v}");
    let id = v["id"].as_i64().unwrap();
    for p in people {
        let (status, v) = p.post(&format!("/api/tournaments/{id}/join"), json!({})).await;
        assert_eq!(status, 200, "{v}");
    }
    let (status, v) = creator.post(&format!("/api/tournaments/{id}/start"), json!({})).await;
    assert_eq!(status, 200, "{v}");
    id
}

/// The game of `who` in round 1 once the director made it, and its table. Bounded by attempts.
async fn game_of(who: &Client, id: i64) -> (i64, u64) {
    for _ in 0..600 {
        let (_, view) = who.get(&format!("/api/tournaments/{id}")).await;
        let me = view["entrants"].as_array().unwrap().iter().find(|e| e["user_id"] == who.id()).cloned();
        let tables = view["rounds"][0]["tables"].as_array().cloned().unwrap_or_default();
        for t in tables {
            if let (Some(me), Some(game)) = (&me, t["game_id"].as_i64())
                && t["seats"].as_array().unwrap().contains(&me["id"])
            {
                return (game, t["table"].as_u64().unwrap());
            }
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("no game made for {} in tournament {id}", who.id());
}

async fn a_tournament_game_names_its_tournament_and_round(db: &str) {
    let server = TestServer::start(db).await;
    let ann = Client::guest(&server).await;
    let id = start(&ann, swiss("Friday [Swiss]", 1), &[&ann]).await;
    let (game, table) = game_of(&ann, id).await;
    let event = json!({"tournament": id, "name": "Friday [Swiss]", "round": 1, "table": table});

    let (status, info) = ann.get(&format!("/api/games/{game}")).await;
    assert_eq!(status, 200, "{info}");
    assert_eq!(info["event"], event, "{info}");
    let (status, record) = ann.get(&format!("/api/games/{game}/record")).await;
    assert_eq!(status, 200, "{record}");
    assert_eq!(record["event"], event, "{record}");
    assert_eq!(record["version"], 2, "an optional field: no new version");
    let r = ann.http.get(server.url(&format!("/api/games/{game}/sgf"))).send().await.unwrap();
    assert_eq!(r.status(), 200);
    let sgf = r.text().await.unwrap();
    assert!(sgf.contains("EV[Friday [Swiss\\]]RO[1]"), "{sgf}");

    // A game of no tournament names none.
    let other = ann.create(json!({"rules": "chinese", "map": "square:9", "players": 2})).await;
    let (_, info) = ann.get(&format!("/api/games/{other}")).await;
    assert!(info.get("event").is_none(), "{info}");
    let (_, record) = ann.get(&format!("/api/games/{other}/record")).await;
    assert!(record.get("event").is_none(), "{record}");
    server.stop().await;
}

/// Mail through the SMTP server on `port`.
async fn mail_server(db: &str, port: u16) -> TestServer {
    let mut mail = MailConfig::new(
        format!("smtp://127.0.0.1:{port}"),
        "GoBeyond <games@example.org>".into(),
        "http://go.example".into(),
    );
    mail.poll = Duration::from_millis(100);
    TestServer::start_config(Config {
        listen: "127.0.0.1:0".parse().unwrap(),
        database: db.into(),
        limits: test_limits(),
        mail: Some(mail),
        ..Config::default()
    })
    .await
}

/// A registered player with a confirmed address; `tournament`: their round-start preference.
async fn player(server: &TestServer, sink: &SmtpSink, name: &str, tournament: bool) -> (Client, String) {
    let n = unique() % 1_000_000;
    let c = Client::registered_at(&format!("http://{}", server.addr), &format!("{name}{n}")).await;
    let address = format!("{name}{n}@example.org");
    let r =
        c.http.put(server.url("/api/mail/address")).json(&json!({"address": address})).send().await.unwrap();
    assert_eq!(r.status(), 200);
    let mail = sink.wait_for(&address, 20, |m| m.contains("/#/mail/confirm/")).await;
    let (status, v) = c.post("/api/mail/confirm", json!({"token": link_token(&mail, "confirm")})).await;
    assert_eq!(status, 200, "{v}");
    let (_, settings) = c.get("/api/mail").await;
    assert_eq!(settings["prefs"]["tournament"], true, "on unless turned off: {settings}");
    if !tournament {
        let mut prefs = settings["prefs"].clone();
        prefs["tournament"] = json!(false);
        let r = c.http.put(server.url("/api/mail/prefs")).json(&prefs).send().await.unwrap();
        assert_eq!(r.status(), 200);
    }
    (c, address)
}

async fn a_round_start_is_mailed_to_people_who_want_it(db: &str) {
    let sink = SmtpSink::start().await;
    let server = mail_server(db, sink.port).await;
    let (ann, ann_mail) = player(&server, &sink, "ann", true).await;
    let (bo, bo_mail) = player(&server, &sink, "bo", false).await;
    let id = start(&ann, swiss("Club Night", 2), &[&ann, &bo]).await;
    let (game, _) = game_of(&ann, id).await;

    let subject = "Subject: Round 1 of Club Night has started";
    let mail = sink.wait_for(&ann_mail, 20, |m| m.contains(subject)).await;
    assert!(mail.contains(&format!("http://go.example/#/game/{game}")), "{mail}");
    assert!(mail.contains(&format!("http://go.example/#/tournaments/{id}")), "{mail}");
    assert!(mail.contains("List-Unsubscribe:"), "{mail}");

    // Bo's game ends by his resignation: his game-over mail, queued after the round's start,
    // comes; no round-start mail came before it.
    let (bo_game, _) = game_of(&bo, id).await;
    let mut socket = bo.socket().await;
    socket.watch(bo_game, None).await;
    assert_eq!(socket.act(bo_game, json!({"type": "resign"})).await["type"], "ack");
    socket.close().await;
    sink.wait_for(&bo_mail, 20, |m| m.contains(&format!("Game #{bo_game} is over"))).await;
    let started = |to: &str| sink.messages_to(to).iter().filter(|m| m.contains("has started")).count();
    assert_eq!(started(&bo_mail), 0, "Bo turned tournament notices off");
    assert_eq!(started(&ann_mail), 1, "once per round");
    let all = sink.messages().iter().filter(|m| m.contains("has started")).count();
    assert_eq!(all, 1, "bots are mailed nothing");
    server.stop().await;
}
