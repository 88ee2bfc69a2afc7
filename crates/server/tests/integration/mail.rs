//! Mail (issue 42), on SQLite and PostgreSQL, through a real SMTP server (aiosmtpd): an address
//! confirmed by its mailed link, your-turn and game-over notices, unsubscribing by a mail's
//! link, the queue surviving a restart and an SMTP server that is down at first, and password
//! resets through a mailed link.

use std::time::Duration;

use crate::common::{
    Client, Socket, TestServer, postgres_url, seat_of,
    smtp::{SmtpSink, free_port, link_token},
    sqlite_url, test_limits, unique,
};
use gobeyond_server::{Config, mail::MailConfig, store::Store};
use serde_json::{Value, json};

on_both!(
    an_address_is_confirmed_by_its_link,
    turn_and_game_over_notices_until_unsubscribed,
    clock_and_digest_notices,
    a_queued_mail_survives_a_restart,
    an_smtp_server_down_at_first_is_retried,
    a_password_is_reset_through_the_mailed_link,
    without_smtp_the_server_says_mail_is_off,
);

/// Mail through the SMTP server on `port`; an "hour" of the players' settings is a second.
fn mail_config(port: u16) -> MailConfig {
    let mut m = MailConfig::new(
        format!("smtp://127.0.0.1:{port}"),
        "GoBeyond <games@example.org>".into(),
        "http://go.example".into(),
    );
    m.hour = Duration::from_secs(1);
    m.poll = Duration::from_millis(100);
    m.retry_base = Duration::from_millis(300);
    m
}

async fn mail_server(db: &str, port: u16) -> TestServer {
    TestServer::start_config(Config {
        listen: "127.0.0.1:0".parse().unwrap(),
        database: db.into(),
        limits: test_limits(),
        mail: Some(mail_config(port)),
        ..Config::default()
    })
    .await
}

/// A registered player (a guest who claimed a name), with the session's cookie for sockets.
async fn player(base: &str, name: &str) -> (Client, String) {
    let name = format!("{name}{}", unique() % 1_000_000);
    (Client::registered_at(base, &name).await, name)
}

/// Sets `c`'s address and confirms it through the mailed link.
async fn confirm(c: &Client, sink: &SmtpSink, address: &str) {
    let (s, v) = put(c, "/api/mail/address", json!({"address": address})).await;
    assert_eq!(s, 200, "{v}");
    let mail = sink.wait_for(address, 20, |m| m.contains("/#/mail/confirm/")).await;
    assert!(mail.contains("Subject: Confirm your email address"), "{mail}");
    let (s, v) = c.post("/api/mail/confirm", json!({"token": link_token(&mail, "confirm")})).await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["address"], address);
}

async fn put(c: &Client, path: &str, body: Value) -> (u16, Value) {
    let r = c.http.put(format!("{}{path}", c.base)).json(&body).send().await.unwrap();
    (r.status().as_u16(), r.json().await.unwrap_or(Value::Null))
}

async fn an_address_is_confirmed_by_its_link(db: &str) {
    let sink = SmtpSink::start().await;
    let server = mail_server(db, sink.port).await;
    let base = format!("http://{}", server.addr);
    let guest = Client::guest(&server).await;
    let (s, v) = put(&guest, "/api/mail/address", json!({"address": "g@example.org"})).await;
    assert_eq!(s, 403, "guests register first: {v}");
    let (a, _) = player(&base, "ada").await;
    for (bad, why) in [("ada", "no '@'"), ("ada@localhost", "dot"), ("a da@example.org", "space")] {
        let (s, v) = put(&a, "/api/mail/address", json!({"address": bad})).await;
        assert_eq!(s, 400, "{bad}: {v}");
        assert!(v["error"].as_str().unwrap().contains(why), "{bad}: {v}");
    }
    let (s, v) = put(&a, "/api/mail/address", json!({"address": "x".repeat(300)})).await;
    assert!(s == 400 && v["error"].as_str().unwrap().contains("too long"), "{v}");

    let address = format!("ada{}@example.org", unique() % 1000);
    let (s, v) = put(&a, "/api/mail/address", json!({"address": address})).await;
    assert_eq!(s, 200, "{v}");
    assert_eq!((v["enabled"].clone(), v["confirmed"].clone()), (json!(true), json!(false)), "{v}");
    let mail = sink.wait_for(&address, 20, |m| m.contains("/#/mail/confirm/")).await;
    let token = link_token(&mail, "confirm");
    assert!(mail.contains("http://go.example/#/mail/confirm/"), "links start with the public URL: {mail}");
    // Opened in another browser: no session needed.
    let stranger = reqwest::Client::new();
    let r =
        stranger.post(server.url("/api/mail/confirm")).json(&json!({"token": token})).send().await.unwrap();
    assert_eq!(r.status(), 200);
    let (_, v) = a.get("/api/mail").await;
    assert_eq!(
        (v["address"].as_str(), v["confirmed"].as_bool()),
        (Some(address.as_str()), Some(true)),
        "{v}"
    );
    let (s, v) = a.post("/api/mail/confirm", json!({"token": token})).await;
    assert!(s == 409 && v["error"].as_str().unwrap().contains("used already"), "a link works once: {v}");
    let (s, v) = a.post("/api/mail/confirm", json!({"token": "nonsense"})).await;
    assert!(s == 404 && v["error"].as_str().unwrap().contains("not known"), "{v}");

    // Settings: hours in range, named when not; removing the address.
    let prefs = json!({"your_turn": true, "idle_hours": 0, "time_low": true, "time_low_hours": 3,
                       "challenge": true, "game_over": false, "digest": true});
    let (s, v) = put(&a, "/api/mail/prefs", prefs.clone()).await;
    assert!(s == 400 && v["error"].as_str().unwrap().contains("idle_hours"), "{v}");
    let mut ok = prefs;
    ok["idle_hours"] = json!(6);
    let (s, v) = put(&a, "/api/mail/prefs", ok.clone()).await;
    // A body from before tournament notices (no `tournament`) turns them on, the default.
    ok["tournament"] = json!(true);
    assert_eq!((s, &v["prefs"]), (200, &ok), "{v}");
    ok["tournament"] = json!(false);
    let (s, v) = put(&a, "/api/mail/prefs", ok.clone()).await;
    assert_eq!((s, &v["prefs"]), (200, &ok), "{v}");
    let r = a.http.delete(server.url("/api/mail/address")).send().await.unwrap();
    assert_eq!(r.status(), 200);
    let (_, v) = a.get("/api/mail").await;
    assert_eq!(v["address"], Value::Null, "{v}");
    server.stop().await;
}

/// Plays for whichever of `players` the game waits for, on the first free node from `node`.
async fn play_turn(
    viewer: &Client,
    game: i64,
    players: &mut [(&Client, &mut Socket)],
    node: &mut u64,
) -> i64 {
    let (_, info) = viewer.get(&format!("/api/games/{game}")).await;
    let turn = info["waiting_for"][0].as_u64().expect("someone to move");
    let (c, socket) = players.iter_mut().find(|(c, _)| seat_of(&info, c.id()) == turn).unwrap();
    loop {
        *node = (*node + 7) % 81;
        if socket.act(game, json!({"type": "place", "node": *node})).await["type"] == "ack" {
            return c.id();
        }
    }
}

async fn turn_and_game_over_notices_until_unsubscribed(db: &str) {
    let sink = SmtpSink::start().await;
    let server = mail_server(db, sink.port).await;
    let base = format!("http://{}", server.addr);
    let (a, _) = player(&base, "ada").await;
    let (b, _) = player(&base, "bob").await;
    let n = unique() % 100_000;
    let (mail_a, mail_b) = (format!("ada{n}@example.org"), format!("bob{n}@example.org"));
    confirm(&a, &sink, &mail_a).await;
    confirm(&b, &sink, &mail_b).await;
    let prefs = json!({"your_turn": true, "idle_hours": 1, "time_low": true, "time_low_hours": 1,
                       "challenge": true, "game_over": true, "digest": false});
    for c in [&a, &b] {
        assert_eq!(put(c, "/api/mail/prefs", prefs.clone()).await.0, 200);
    }
    let game = a.create(json!({"rules": "chinese", "map": "square:9", "players": 2})).await;
    assert_eq!(b.post(&format!("/api/games/{game}/join"), json!({})).await.0, 200);
    let (_, info) = a.get(&format!("/api/games/{game}")).await;
    let first =
        if seat_of(&info, a.id()) == info["waiting_for"][0].as_u64().unwrap() { &mail_a } else { &mail_b };
    let subject = format!("Subject: Your move in game #{game}");
    // An "hour" is a second here: the first player is mailed after a second of waiting.
    let mail = sink.wait_for(first, 20, |m| m.contains(&subject)).await;
    assert!(mail.contains(&format!("http://go.example/#/game/{game}")), "{mail}");
    assert!(mail.contains("List-Unsubscribe-Post: List-Unsubscribe=One-Click"), "{mail}");
    assert!(mail.contains("List-Unsubscribe: <http://go.example/api/mail/unsubscribe?token="), "{mail}");

    let (mut sa, mut sb) = (a.socket().await, b.socket().await);
    sa.watch(game, None).await;
    sb.watch(game, None).await;
    let mut node = 0;
    let mut players = [(&a, &mut sa), (&b, &mut sb)];
    let moved = play_turn(&a, game, &mut players, &mut node).await;
    let (second, second_client) = if moved == a.id() { (&mail_b, &b) } else { (&mail_a, &a) };
    let mail = sink.wait_for(second, 20, |m| m.contains(&subject)).await;
    // The mail program's one-click button: a form POST to the header's URL, no session.
    let token = link_token(&mail, "unsubscribe");
    assert!(
        mail.contains(&format!("/api/mail/unsubscribe?token={token}>")),
        "one token for the page and the header: {mail}"
    );
    let r = reqwest::Client::new()
        .post(server.url(&format!("/api/mail/unsubscribe?token={token}")))
        .header("content-type", "application/x-www-form-urlencoded")
        .body("List-Unsubscribe=One-Click")
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 200);
    let (_, v) = second_client.get("/api/mail").await;
    assert_eq!(
        (v["prefs"]["your_turn"].as_bool(), v["prefs"]["game_over"].as_bool()),
        (Some(false), Some(true)),
        "{v}"
    );

    // The second player moves, then the first: the second waits again, but is not mailed.
    play_turn(&a, game, &mut players, &mut node).await;
    play_turn(&a, game, &mut players, &mut node).await;
    tokio::time::sleep(Duration::from_millis(2500)).await;
    let turn_mails = sink.messages_to(second).iter().filter(|m| m.contains(&subject)).count();
    assert_eq!(turn_mails, 1, "unsubscribed: no more your-turn mails");

    // The game ends: both hear of it, the winner that they won.
    let (_, info) = a.get(&format!("/api/games/{game}")).await;
    let turn = info["waiting_for"][0].as_u64().unwrap();
    let (loser, socket) = players.iter_mut().find(|(c, _)| seat_of(&info, c.id()) == turn).unwrap();
    assert_eq!(socket.act(game, json!({"type": "resign"})).await["type"], "ack");
    let (winner_mail, loser_mail) =
        if loser.id() == a.id() { (&mail_b, &mail_a) } else { (&mail_a, &mail_b) };
    let over = format!("Subject: Game #{game} is over");
    let mail = sink.wait_for(winner_mail, 20, |m| m.contains(&over)).await;
    assert!(mail.contains("You won."), "{mail}");
    sink.wait_for(loser_mail, 20, |m| m.contains(&over)).await;
    server.stop().await;
}

async fn clock_and_digest_notices(db: &str) {
    let sink = SmtpSink::start().await;
    let server = mail_server(db, sink.port).await;
    let base = format!("http://{}", server.addr);
    let (a, a_name) = player(&base, "ada").await;
    let (b, b_name) = player(&base, "bob").await;
    let mail_a = format!("ada{}@example.org", unique() % 100_000);
    confirm(&a, &sink, &mail_a).await;
    // An "hour" is a second: 28 "hours" left of a 30-second clock comes two seconds in.
    let prefs = json!({"your_turn": false, "idle_hours": 1, "time_low": true, "time_low_hours": 28,
                       "challenge": true, "game_over": true, "digest": true});
    assert_eq!(put(&a, "/api/mail/prefs", prefs).await.0, 200);
    let game = a
        .create(json!({"rules": "chinese", "map": "square:9", "players": 2,
                       "time": {"kind": "absolute", "main_seconds": 30}}))
        .await;
    assert_eq!(b.post(&format!("/api/games/{game}/join"), json!({})).await.0, 200);
    let (_, info) = a.get(&format!("/api/games/{game}")).await;
    if seat_of(&info, a.id()) != info["waiting_for"][0].as_u64().unwrap() {
        let mut sb = b.socket().await;
        sb.watch(game, None).await;
        let mut node = 0;
        play_turn(&a, game, &mut [(&b, &mut sb)], &mut node).await;
    }
    let low = sink
        .wait_for(&mail_a, 20, |m| m.contains(&format!("Subject: Time is running out in game #{game}")))
        .await;
    assert!(low.contains("List-Unsubscribe:"), "{low}");
    let digest = sink.wait_for(&mail_a, 20, |m| m.contains("Subject: 1 game waiting for your move")).await;
    assert!(digest.contains(&format!("#{game}: http://go.example/#/game/{game}")), "{digest}");
    let turn = format!("Subject: Your move in game #{game}");
    assert!(sink.messages_to(&mail_a).iter().all(|m| !m.contains(&turn)), "your-turn mails are off");
    // A challenge mails its player, who chose to be told of challenges.
    let body = json!({"to": a_name, "their_seat": 1, "expires_seconds": 3600,
                      "game": {"rules": "chinese", "map": "square:9", "players": 2,
                               "seats": [{"kind": "me"}, {"kind": "open"}]}});
    let (status, sent) = b.post("/api/challenges", body).await;
    assert_eq!(status, 201, "{sent}");
    let challenge =
        sink.wait_for(&mail_a, 20, |m| m.contains(&format!("Subject: {b_name} challenges you"))).await;
    assert!(challenge.contains("List-Unsubscribe:"), "{challenge}");
    server.stop().await;
}

/// The first row of the queue, read from the database: (status, attempts).
async fn first_mail(db: &str) -> (String, i64) {
    let store = Store::connect(db).await.unwrap();
    let status = store.mail_status(1).await.unwrap().expect("a queued mail");
    store.close().await;
    status
}

async fn a_queued_mail_survives_a_restart(db: &str) {
    // Nothing answers on the SMTP port yet: the confirmation waits in the queue.
    let port = free_port();
    let server = mail_server(db, port).await;
    let base = format!("http://{}", server.addr);
    let (a, _) = player(&base, "ada").await;
    let address = format!("ada{}@example.org", unique() % 1000);
    assert_eq!(put(&a, "/api/mail/address", json!({"address": address})).await.0, 200);
    tokio::time::sleep(Duration::from_millis(400)).await;
    server.stop().await;
    assert_eq!(first_mail(db).await.0, "queued");
    let sink = SmtpSink::start_on(port).await;
    let server = mail_server(db, port).await;
    let mail = sink.wait_for(&address, 30, |m| m.contains("/#/mail/confirm/")).await;
    assert!(!link_token(&mail, "confirm").is_empty());
    assert_eq!(first_mail(db).await.0, "sent");
    server.stop().await;
}

async fn an_smtp_server_down_at_first_is_retried(db: &str) {
    let port = free_port();
    let server = mail_server(db, port).await;
    let base = format!("http://{}", server.addr);
    let (a, _) = player(&base, "ada").await;
    let address = format!("ada{}@example.org", unique() % 1000);
    assert_eq!(put(&a, "/api/mail/address", json!({"address": address})).await.0, 200);
    // Attempts at 0, 0.3, 0.9, 2.1 s…: a few, not one per poll (every 0.1 s).
    tokio::time::sleep(Duration::from_millis(1500)).await;
    let (status, attempts) = first_mail(db).await;
    assert_eq!(status, "queued");
    assert!((2..=4).contains(&attempts), "backoff between attempts: {attempts} attempts in 1.5 s");
    let sink = SmtpSink::start_on(port).await;
    sink.wait_for(&address, 30, |m| m.contains("/#/mail/confirm/")).await;
    let (status, attempts) = first_mail(db).await;
    assert_eq!(status, "sent");
    assert!(attempts >= 3, "{attempts}");
    server.stop().await;
}

async fn a_password_is_reset_through_the_mailed_link(db: &str) {
    let sink = SmtpSink::start().await;
    let server = mail_server(db, sink.port).await;
    let base = format!("http://{}", server.addr);
    let (a, name) = player(&base, "ada").await;
    let address = format!("ada{}@example.org", unique() % 1000);
    confirm(&a, &sink, &address).await;
    let anon = reqwest::Client::builder().cookie_store(true).build().unwrap();
    let forgot =
        |who: String| anon.post(server.url("/api/password/forgot")).json(&json!({"who": who})).send();
    // Known or not, the answer is the same.
    for who in [name.clone(), "nobody-here".into(), "nobody@example.org".into()] {
        let r = forgot(who).await.unwrap();
        assert_eq!(r.status(), 200);
        assert_eq!(r.json::<Value>().await.unwrap(), json!({"ok": true}));
    }
    let mail = sink.wait_for(&address, 20, |m| m.contains("/#/mail/reset/")).await;
    assert!(mail.contains(&name), "the mail names the account: {mail}");
    let token = link_token(&mail, "reset");
    let reset = |password: &str| {
        anon.post(server.url("/api/password/reset"))
            .json(&json!({"token": token, "password": password}))
            .send()
    };
    let r = reset("short").await.unwrap();
    assert_eq!(r.status(), 400, "a refused password leaves the link working");
    let r = reset("a new horse staple").await.unwrap();
    assert_eq!(r.status(), 200);
    assert_eq!(r.json::<Value>().await.unwrap()["name"], name.as_str());
    let (s, _) = a.get("/api/mail").await;
    assert_eq!(s, 401, "the account's sessions ended");
    let r = reset("another horse staple").await.unwrap();
    assert_eq!(r.status(), 409);
    assert!(r.json::<Value>().await.unwrap()["error"].as_str().unwrap().contains("used already"));
    let login = |password: &str| {
        anon.post(server.url("/api/login")).json(&json!({"name": name, "password": password})).send()
    };
    assert_eq!(login("correct horse").await.unwrap().status(), 403);
    assert_eq!(login("a new horse staple").await.unwrap().status(), 200);

    // By address too, in any case; an expired link is named as such.
    let r = forgot(address.to_uppercase()).await.unwrap();
    assert_eq!(r.status(), 200);
    let store = Store::connect(db).await.unwrap();
    let stale = "expired-token-0123456789";
    let hash = gobeyond_server::auth::token_hash(stale);
    store
        .insert_mail_token(&hash, a.id(), "reset", None, None, gobeyond_server::store::now_ms() - 1)
        .await
        .unwrap();
    store.close().await;
    let r = anon
        .post(server.url("/api/password/reset"))
        .json(&json!({"token": stale, "password": "yet another horse"}))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 400);
    assert!(r.json::<Value>().await.unwrap()["error"].as_str().unwrap().contains("expired"));
    let mails = sink.wait_for(&address, 20, |m| m.contains("/#/mail/reset/") && !m.contains(&token)).await;
    assert!(!mails.is_empty());
    server.stop().await;
}

async fn without_smtp_the_server_says_mail_is_off(db: &str) {
    let server = TestServer::start(db).await;
    let base = format!("http://{}", server.addr);
    let (a, name) = player(&base, "ada").await;
    let (_, v) = a.get("/api/mail").await;
    assert_eq!((v["enabled"].as_bool(), v["registered"].as_bool()), (Some(false), Some(true)), "{v}");
    let (s, v) = put(&a, "/api/mail/address", json!({"address": "ada@example.org"})).await;
    assert!(s == 503 && v["error"].as_str().unwrap().contains("sends no mail"), "{v}");
    let (s, v) = a.post("/api/password/forgot", json!({"who": name})).await;
    assert!(s == 503 && v["error"].as_str().unwrap().contains("ask its host"), "{v}");
    server.stop().await;
}
