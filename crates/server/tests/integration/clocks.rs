//! Time controls and play across days (issue 42), on SQLite and PostgreSQL: correspondence
//! games played over simulated days (the test hook moves the server's time forward), a vacation
//! that stops the clock, time-outs the server applies with nobody connected and after a restart,
//! aborted rated games, and the bounds of every time control.

use std::time::Duration;

use crate::common::{Client, Socket, TestServer, postgres_url, seat_of, sqlite_url, test_limits, unique};
use gobeyond_server::Config;
use serde_json::{Value, json};

on_both!(
    a_correspondence_game_across_days_with_a_vacation,
    a_rated_game_timed_out_before_two_moves_is_aborted,
    correspondence_clocks_survive_a_restart,
    time_controls_are_bounded_and_old_forms_load,
);

const DAY: f64 = 86_400.0;
const DAY_MS: i64 = 86_400_000;

async fn server(db: &str) -> TestServer {
    TestServer::start_with_test_hooks(db).await
}

/// A registered player (rated games are between accounts).
async fn player(server: &TestServer, name: &str) -> Client {
    let mut c = Client::guest(server).await;
    let r = c
        .http
        .post(format!("{}/api/register", c.base))
        .json(&json!({"name": format!("{name}{}", unique() % 1_000_000), "password": "correct horse"}))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 200);
    if let Some(cookie) = r.headers().get("set-cookie").and_then(|v| v.to_str().ok()) {
        c.cookie = cookie.split(';').next().unwrap().to_string();
    }
    c
}

async fn advance(c: &Client, days: f64) {
    let (s, v) = c.post("/api/test/advance", json!({"seconds": days * DAY})).await;
    assert_eq!(s, 200, "{v}");
}

async fn info(c: &Client, game: i64) -> Value {
    let (s, v) = c.get(&format!("/api/games/{game}")).await;
    assert_eq!(s, 200, "{v}");
    v
}

/// Waits (up to 20 s) for the server to end the game on its own.
async fn finished(c: &Client, game: i64) -> Value {
    for _ in 0..200 {
        let v = info(c, game).await;
        if v["status"] == "finished" {
            return v;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("game {game} did not end: {}", info(c, game).await);
}

/// A game of `time` between `a` (seat 0) and `b`.
async fn game(a: &Client, b: &Client, time: Value, rated: bool) -> i64 {
    let game = a
        .create(json!({"rules": "chinese", "map": "square:9", "players": 2, "time": time, "rated": rated}))
        .await;
    let (s, v) = b.post(&format!("/api/games/{game}/join"), json!({})).await;
    assert_eq!(s, 200, "{v}");
    game
}

/// Each player makes `moves` placements, on nodes far apart.
async fn play(a: &Client, game: i64, sockets: &mut [(&Client, &mut Socket)], moves: usize) {
    let mut node = 0u64;
    for _ in 0..moves * sockets.len() {
        let v = info(a, game).await;
        let turn = v["waiting_for"][0].as_u64().expect("someone to move");
        let (_, socket) = sockets.iter_mut().find(|(c, _)| seat_of(&v, c.id()) == turn).unwrap();
        loop {
            node = (node + 7) % 81;
            if socket.act(game, json!({"type": "place", "node": node})).await["type"] == "ack" {
                break;
            }
        }
    }
}

/// The player the game waits for, of `a` and `b`.
fn to_move<'a>(v: &Value, a: &'a Client, b: &'a Client) -> (&'a Client, &'a Client) {
    let turn = v["waiting_for"][0].as_u64().unwrap();
    if seat_of(v, a.id()) == turn { (a, b) } else { (b, a) }
}

async fn a_correspondence_game_across_days_with_a_vacation(db: &str) {
    let server = server(db).await;
    let a = player(&server, "ada").await;
    let b = player(&server, "bob").await;
    let game = game(&a, &b, json!("correspondence_3"), true).await;
    let (mut sa, mut sb) = (a.socket().await, b.socket().await);
    sa.watch(game, None).await;
    sb.watch(game, None).await;
    play(&a, game, &mut [(&a, &mut sa), (&b, &mut sb)], 2).await;
    sa.close().await;
    sb.close().await;
    let v = info(&a, game).await;
    let (mover, other) = to_move(&v, &a, &b);
    // 3 days to start with and 3 more per move, at most 7 in the bank.
    assert_eq!(v["clock"]["remaining_ms"], json!([7 * DAY_MS, 7 * DAY_MS]), "{v}");

    let (s, vac) = mover.post("/api/vacation", json!({"on": true})).await;
    assert_eq!((s, &vac["on"]), (200, &json!(true)), "{vac}");
    assert_eq!(mover.post("/api/vacation", json!({"on": true})).await.0, 409, "one vacation at a time");
    // Ten days away: nobody is connected, the clock stood still.
    advance(&a, 10.0).await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(info(&a, game).await["status"], "live");
    let (s, vac) = mover.post("/api/vacation", json!({"on": false})).await;
    assert_eq!((s, &vac["on"]), (200, &json!(false)), "{vac}");
    let used = vac["used_ms"].as_i64().unwrap();
    assert!((10 * DAY_MS..10 * DAY_MS + 60_000).contains(&used), "{vac}");
    assert_eq!(vac["allowance_days"], 30);
    assert_eq!(mover.post("/api/vacation", json!({"on": false})).await.0, 409);
    let (_, others) = other.get("/api/vacation").await;
    assert_eq!((others["on"].clone(), others["used_ms"].clone()), (json!(false), json!(0)));

    // Back: five days pass, two of the bank's seven are left.
    advance(&a, 5.0).await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(info(&a, game).await["status"], "live", "the vacation was not charged");
    // Three more: the server ends the game on time with nobody watching.
    advance(&a, 3.0).await;
    let v = finished(&a, game).await;
    assert_eq!(v["outcome"]["reason"], "time", "{v}");
    assert_eq!(v["aborted"], false, "every player made two moves: {v}");
    server.stop().await;
}

async fn a_rated_game_timed_out_before_two_moves_is_aborted(db: &str) {
    let server = server(db).await;
    let a = player(&server, "ada").await;
    let b = player(&server, "bob").await;
    let game =
        game(&a, &b, json!({"kind": "correspondence", "move_seconds": DAY, "max_seconds": 2.0 * DAY}), true)
            .await;
    assert_eq!(info(&a, game).await["status"], "live");
    advance(&a, 1.5).await;
    let v = finished(&a, game).await;
    assert_eq!(v["aborted"], true, "{v}");
    let (_, games) = a.get("/api/games?mine=true").await;
    let text = games.to_string();
    assert!(text.contains("aborted"), "lists say it was aborted: {text}");
    server.stop().await;
}

async fn correspondence_clocks_survive_a_restart(db: &str) {
    let first = server(db).await;
    let addr = first.addr;
    let a = Client::guest(&first).await;
    let b = Client::guest(&first).await;
    let time = json!({"kind": "correspondence", "move_seconds": 2.0 * DAY, "max_seconds": 3.0 * DAY});
    let game = game(&a, &b, time, false).await;
    let (mut sa, mut sb) = (a.socket().await, b.socket().await);
    sa.watch(game, None).await;
    sb.watch(game, None).await;
    play(&a, game, &mut [(&a, &mut sa), (&b, &mut sb)], 1).await;
    sa.close().await;
    sb.close().await;
    let before = info(&a, game).await["clock"].clone();
    first.stop().await;

    let second = TestServer::start_config(Config {
        listen: addr,
        database: db.into(),
        limits: test_limits(),
        test_hooks: true,
        ..Config::default()
    })
    .await;
    let v = info(&a, game).await;
    assert_eq!(v["clock"]["remaining_ms"], before["remaining_ms"], "{v}");
    assert_eq!(v["clock"]["deadline_ms"], before["deadline_ms"], "the turn goes on from when it began");
    // The bank is 3 days (2 + 2, at most 3): the server ends the game on its own after that.
    advance(&a, 2.0).await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(info(&a, game).await["status"], "live");
    advance(&a, 1.1).await;
    let v = finished(&a, game).await;
    assert_eq!(v["outcome"]["reason"], "time", "{v}");
    second.stop().await;
}

async fn time_controls_are_bounded_and_old_forms_load(db: &str) {
    let server = TestServer::start(db).await;
    let a = Client::guest(&server).await;
    let new = |time: Value| json!({"rules": "chinese", "map": "square:9", "players": 2, "time": time});
    let huge = json!({"kind": "correspondence", "move_seconds": 1e9 * DAY, "max_seconds": DAY});
    let (s, v) = a.post("/api/games", new(huge)).await;
    assert_eq!(s, 400);
    assert!(v["error"].as_str().unwrap().contains("time.move_seconds: at most 30 days per move"), "{v}");
    let (s, v) = a.post("/api/games", new(json!("glacial"))).await;
    assert_eq!(s, 400);
    assert!(v["error"].as_str().unwrap().contains("correspondence_3"), "{v}");
    let canadian = json!({"kind": "canadian", "main_seconds": 600, "stones": 500, "period_seconds": 300});
    let (s, v) = a.post("/api/games", new(canadian)).await;
    assert!(s == 400 && v["error"].as_str().unwrap().contains("time.stones"), "{v}");
    // The first version's Fischer form (no cap) and every new kind are accepted.
    for time in [
        json!({"kind": "fischer", "main_seconds": 600.0, "increment_seconds": 10.0}),
        json!({"kind": "simple", "move_seconds": 30}),
        json!({"kind": "canadian", "main_seconds": 600, "stones": 10, "period_seconds": 300}),
        json!({"kind": "correspondence", "move_seconds": DAY, "max_seconds": 3.0 * DAY, "weekends_off": true}),
        json!("blitz"),
    ] {
        let game = a.create(new(time.clone())).await;
        let v = info(&a, game).await;
        assert_eq!(v["time"]["kind"], time.get("kind").cloned().unwrap_or(json!("fischer")), "{v}");
    }
    // The time hook is not there unless the server was started with test hooks.
    assert_eq!(a.post("/api/test/advance", json!({"seconds": DAY})).await.0, 404);
    server.stop().await;
}
