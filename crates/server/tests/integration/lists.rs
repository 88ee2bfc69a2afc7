//! Issue 42, "being told" and lists that filter, on SQLite and PostgreSQL: the games waiting
//! for a player (their order, and how they change as people move), games that ended and the
//! rematch offered, each list filter, paging with no game repeated or missed, bad filter
//! values refused by name, and player search.

use std::time::Duration;

use crate::common::{Client, TestServer, postgres_url, sqlite_url, unique};
use serde_json::{Value, json};

on_both!(
    games_waiting_for_a_player_least_time_first,
    ended_games_and_the_rematch_offered,
    each_filter_narrows_the_lists,
    pages_neither_repeat_nor_miss_a_game,
    bad_filter_values_are_refused_by_name,
    players_are_found_by_the_start_of_their_name,
);

/// A classic 9×9 game between `a` (Black, seat 0) and `b`, with this time control.
async fn classic_game(a: &Client, b: &Client, time: Value) -> i64 {
    let game = a.create(json!({"rules": "chinese", "map": "square:9", "players": 2, "time": time})).await;
    let (s, v) = b.post(&format!("/api/games/{game}/join"), json!({})).await;
    assert_eq!(s, 200, "{v}");
    game
}

/// `c`'s waiting games (ids in order), once `done` holds (the game's owner writes them just
/// after it answers the move).
async fn waiting_until(c: &Client, done: impl Fn(&[i64]) -> bool) -> Value {
    for _ in 0..100 {
        let (s, v) = c.get("/api/tell").await;
        assert_eq!(s, 200, "{v}");
        let ids: Vec<i64> =
            v["waiting"].as_array().unwrap().iter().map(|w| w["game"].as_i64().unwrap()).collect();
        if done(&ids) {
            return v;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("the waiting games never came to what was expected");
}

fn ids(v: &Value) -> Vec<i64> {
    v["games"].as_array().unwrap().iter().map(|g| g["id"].as_i64().unwrap()).collect()
}

async fn games_waiting_for_a_player_least_time_first(db: &str) {
    let server = TestServer::start(db).await;
    let (a, b) = (Client::guest(&server).await, Client::guest(&server).await);
    let untimed = classic_game(&a, &b, json!({"kind": "none"})).await;
    let long = classic_game(&a, &b, json!({"kind": "absolute", "main_seconds": 3000})).await;
    let short =
        classic_game(&a, &b, json!({"kind": "fischer", "main_seconds": 600, "increment_seconds": 5})).await;
    // Black (a) to move everywhere: timed games by time left, the untimed one last.
    let told = waiting_until(&a, |w| w == [short, long, untimed]).await;
    let first = &told["waiting"][0];
    assert_eq!(first["kind"], "move");
    let left = first["left_ms"].as_i64().unwrap();
    assert!(left > 500_000 && left <= 600_000, "{told}");
    assert!(told["waiting"][2]["deadline_ms"].is_null() && told["waiting"][2]["left_ms"].is_null());
    waiting_until(&b, |w| w.is_empty()).await;
    // a moves in the short game: it leaves a's list and joins b's.
    let mut s = a.socket().await;
    s.watch(short, None).await;
    assert_eq!(s.act(short, json!({"type": "place", "at": "E5"})).await["type"], "ack");
    waiting_until(&a, |w| w == [long, untimed]).await;
    let told = waiting_until(&b, |w| w == [short]).await;
    assert!(told["waiting"][0]["seq"].as_i64().unwrap() == 1, "{told}");
    // Asked to take a move back, b (whose turn it is) is still told of the move; in the game
    // where a waits, nothing changes for b.
    let (status, _) = a.post(&format!("/api/games/{short}/undo"), json!({})).await;
    assert_eq!(status, 200);
    waiting_until(&b, |w| w == [short]).await;
    // Only a signed-in player is told anything.
    let stranger = reqwest::Client::new();
    let r = stranger.get(server.url("/api/tell")).send().await.unwrap();
    assert_eq!(r.status(), 401);
    s.close().await;
    server.stop().await;
}

async fn ended_games_and_the_rematch_offered(db: &str) {
    let server = TestServer::start(db).await;
    let (a, b) = (Client::guest(&server).await, Client::guest(&server).await);
    let game = classic_game(&a, &b, json!({"kind": "none"})).await;
    let mut s = b.socket().await;
    s.watch(game, None).await;
    assert_eq!(s.act(game, json!({"type": "resign"})).await["type"], "ack");
    let (_, told) = a.get("/api/tell").await;
    assert_eq!(told["ended"][0]["game"], game, "{told}");
    assert!(told["ended"][0]["rematch"].is_null());
    let (st, made) = b.post(&format!("/api/games/{game}/rematch"), json!({})).await;
    assert_eq!(st, 201, "{made}");
    let rematch = made["game"]["id"].as_i64().unwrap();
    let (_, told) = a.get("/api/tell").await;
    assert_eq!(told["ended"][0]["rematch"], rematch, "a is offered the rematch: {told}");
    let (_, told) = b.get("/api/tell").await;
    assert!(told["ended"][0]["rematch"].is_null(), "b made it and sits in it: {told}");
    waiting_until(&a, |w| w.is_empty()).await;
    s.close().await;
    server.stop().await;
}

async fn each_filter_narrows_the_lists(db: &str) {
    let server = TestServer::start(db).await;
    let a = Client::guest(&server).await;
    let small = a.create(json!({"rules": "chinese", "map": "square:9", "players": 2})).await;
    let timed = a
        .create(json!({"rules": "classic", "map": "square:13", "players": 2,
                       "time": {"kind": "byo_yomi", "main_seconds": 60, "periods": 3, "period_seconds": 10}}))
        .await;
    let hex = a.create(json!({"rules": "gobeyond", "map": "hex:4", "players": 3})).await;
    let capture = a.create(json!({"rules": "capture", "map": "hex:4", "players": 2})).await;
    let open = |q: &str| {
        let a = &a;
        let q = q.to_string();
        async move {
            let (s, v) = a.get(&format!("/api/games?status=open&{q}")).await;
            assert_eq!(s, 200, "{q}: {v}");
            ids(&v)
        }
    };
    assert_eq!(open("").await, [capture, hex, timed, small]);
    assert_eq!(open("rules=classic").await, [timed, small]);
    assert_eq!(open("map=hex").await, [capture, hex]);
    assert_eq!(open("map=square&size=13").await, [timed]);
    assert_eq!(open("size=4").await, [capture, hex]);
    assert_eq!(open("players=3").await, [hex]);
    assert_eq!(open("clock=byo_yomi").await, [timed]);
    assert_eq!(open("clock=none&rules=classic").await, [small]);
    assert_eq!(open("rated=true").await, Vec::<i64>::new());
    assert_eq!(open("rated=false&players=2").await.len(), 3);
    // Live and finished games and "my games" filter alike.
    let b = Client::guest(&server).await;
    assert_eq!(b.post(&format!("/api/games/{small}/join"), json!({})).await.0, 200);
    let (_, live) = b.get("/api/games?status=live&rules=classic").await;
    assert_eq!(ids(&live), [small]);
    let (_, none) = b.get("/api/games?status=live&rules=gobeyond").await;
    assert_eq!(ids(&none), Vec::<i64>::new());
    let mut s = b.socket().await;
    s.watch(small, None).await;
    assert_eq!(s.act(small, json!({"type": "resign"})).await["type"], "ack");
    let (_, finished) = b.get("/api/games?status=finished&map=square&size=9").await;
    assert_eq!(ids(&finished), [small]);
    let (_, mine) = a.get("/api/games?mine=true&map=hex").await;
    assert_eq!(ids(&mine), [capture, hex]);
    s.close().await;
    server.stop().await;
}

async fn pages_neither_repeat_nor_miss_a_game(db: &str) {
    let server = TestServer::start(db).await;
    let mut made = Vec::new();
    // Creators have a cap of open games each: several guests make them.
    for _ in 0..3 {
        let c = Client::guest(&server).await;
        for _ in 0..5 {
            made.push(c.create(json!({"rules": "chinese", "map": "square:9", "players": 2})).await);
        }
    }
    let reader = Client::guest(&server).await;
    let (mut seen, mut before, mut pages) = (Vec::new(), None::<i64>, 0);
    loop {
        let q = before.map_or(String::new(), |b| format!("&before={b}"));
        let (s, page) = reader.get(&format!("/api/games?status=open&rules=classic&limit=4{q}")).await;
        assert_eq!(s, 200, "{page}");
        assert!(ids(&page).len() <= 4);
        seen.extend(ids(&page));
        pages += 1;
        // A game made between two pages is newer than the cursor: it never shifts a page.
        if pages == 2 {
            Client::guest(&server)
                .await
                .create(json!({"rules": "chinese", "map": "square:9", "players": 2}))
                .await;
        }
        match page["next"].as_i64() {
            Some(n) => before = Some(n),
            None => break,
        }
    }
    made.reverse();
    assert_eq!(seen, made, "every game once, newest first");
    assert_eq!(pages, 4);
    let (_, big) = reader.get("/api/games?status=open&limit=100000").await;
    assert!(ids(&big).len() <= 100);
    server.stop().await;
}

async fn bad_filter_values_are_refused_by_name(db: &str) {
    let server = TestServer::start(db).await;
    let a = Client::guest(&server).await;
    for (q, named) in [
        ("rules=chess", "chess"),
        ("map=moebius", "moebius"),
        ("players=12", "12"),
        ("rated=perhaps", "perhaps"),
        ("clock=sundial", "sundial"),
        ("size=19%27--", "19'--"),
        ("before=-3", "-3"),
        ("limit=many", "many"),
        ("flavour=sweet", "flavour"),
        ("status=sideways", "sideways"),
    ] {
        let (s, v) = a.get(&format!("/api/games?{q}")).await;
        assert_eq!(s, 400, "{q}: {v}");
        assert!(v["error"].as_str().unwrap().contains(named), "{q}: {v}");
    }
    let stranger = reqwest::Client::new();
    let r = stranger.get(server.url("/api/games?mine=true")).send().await.unwrap();
    assert_eq!(r.status(), 401);
    server.stop().await;
}

/// A guest who registers `name`.
async fn registered(server: &TestServer, name: &str) -> Client {
    let c = Client::guest(server).await;
    let (s, v) = c.post("/api/register", json!({"name": name, "password": "correct horse"})).await;
    assert_eq!(s, 200, "{v}");
    c
}

async fn players_are_found_by_the_start_of_their_name(db: &str) {
    let server = TestServer::start(db).await;
    let tag = unique() % 100_000;
    let names = [format!("Ada{tag}x"), format!("adam{tag}"), format!("Bob{tag}")];
    for n in &names {
        registered(&server, n).await;
    }
    let guest = Client::guest(&server).await;
    let found = |v: &Value| -> Vec<String> {
        v["players"].as_array().unwrap().iter().map(|p| p["name"].as_str().unwrap().to_string()).collect()
    };
    let (s, v) = guest.get("/api/players?prefix=ADA").await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(found(&v), [names[0].clone(), names[1].clone()], "case aside, alphabetical");
    let (_, v) = guest.get(&format!("/api/players?prefix=bob{tag}")).await;
    assert_eq!(found(&v), [names[2].clone()]);
    // Guests are not searched, nor is anything past a name's length.
    let (_, v) = guest.get("/api/players?prefix=guest-").await;
    assert_eq!(found(&v), Vec::<String>::new());
    for bad in ["", "%20", &"x".repeat(25)] {
        let (s, v) = guest.get(&format!("/api/players?prefix={bad}")).await;
        assert_eq!(s, 400, "{bad:?}: {v}");
    }
    // Bounded: at most 20, however many match.
    for i in 0..22 {
        registered(&server, &format!("zed{tag}_{i:02}")).await;
    }
    let (_, v) = guest.get(&format!("/api/players?prefix=zed{tag}")).await;
    assert_eq!(found(&v).len(), 20);
    server.stop().await;
}
