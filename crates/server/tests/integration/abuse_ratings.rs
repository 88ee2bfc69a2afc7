//! Issue 40, second round of hardening, on SQLite and PostgreSQL: rematch seats that only the
//! old game's players may take, ratings that cannot be farmed (a clock, the abort rule,
//! independent accounts only), private games that answer as missing ones, undo without the
//! Fischer increment, and a lobby that invitation-only games cannot empty. Each test sends
//! what hurt from loopback and ends with `/api/health` answering.

use crate::common::{Client, Socket, TestServer, postgres_url, seat_of, sqlite_url, unique};
use serde_json::{Value, json};
use tokio_tungstenite::tungstenite::client::IntoClientRequest;

on_both!(
    rematch_seats_are_kept_for_the_players,
    a_rated_game_needs_a_clock,
    a_rated_game_ended_before_two_moves_each_is_aborted,
    farming_with_own_bots_changes_no_rating,
    a_pair_counts_a_few_rated_games_a_day,
    a_private_game_answers_as_a_missing_one,
    undo_takes_back_the_fischer_increment,
    invitation_only_games_do_not_empty_the_lobby,
);

const CLOCK: &str = r#"{"kind": "absolute", "main_seconds": 600}"#;

fn rated_classic() -> Value {
    let time: Value = serde_json::from_str(CLOCK).unwrap();
    json!({"rules": "chinese", "map": "square:9", "players": 2, "rated": true, "time": time})
}

/// A registered player (a guest who claimed a name).
async fn player(server: &TestServer, name: &str) -> (Client, String) {
    let name = format!("{name}{}", unique() % 1_000_000);
    (Client::registered(server, &name).await, name)
}

/// A bot account of `owner`, as its program uses it: a bearer token (its socket in `.1`).
async fn bot(owner: &Client, name: &str) -> (Client, String) {
    let name = format!("{name}{}", unique() % 1_000_000);
    let (s, v) = owner.post("/api/bots", json!({"name": name})).await;
    assert_eq!(s, 201, "{v}");
    let token = v["token"].as_str().unwrap().to_string();
    let mut headers = reqwest::header::HeaderMap::new();
    headers.insert("authorization", format!("Bearer {token}").parse().unwrap());
    let http = reqwest::Client::builder().default_headers(headers).build().unwrap();
    (Client { http, base: owner.base.clone(), cookie: String::new(), user: v["user"].clone() }, token)
}

async fn bot_socket(base: &str, token: &str) -> Socket {
    let mut req = (base.replace("http://", "ws://") + "/api/ws").into_client_request().unwrap();
    req.headers_mut().insert("authorization", format!("Bearer {token}").parse().unwrap());
    let (ws, _) = tokio_tungstenite::connect_async(req).await.expect("socket opens");
    let mut s = Socket::new(ws);
    assert_eq!(s.next().await["type"], "hello");
    s
}

fn rating_in(profile: &Value, system: &str) -> Option<(i64, i64)> {
    profile["ratings"]
        .as_array()?
        .iter()
        .find(|r| r["system"] == system)
        .map(|r| (r["rating"]["value"].as_i64().unwrap(), r["rating"]["games"].as_i64().unwrap()))
}

/// Plays placements until every seat has made `each` moves: each turn, the seat the game waits
/// for places on the first node it may (`sockets`: one per player, watching the game).
async fn play_moves(viewer: &Client, game: i64, sockets: &mut [(&Client, &mut Socket)], each: usize) {
    let mut next_node = 0u64;
    for _ in 0..each * sockets.len() {
        let (_, info) = viewer.get(&format!("/api/games/{game}")).await;
        let turn = info["waiting_for"][0].as_u64().expect("someone to move");
        let (_, socket) = sockets.iter_mut().find(|(c, _)| seat_of(&info, c.id()) == turn).unwrap();
        loop {
            next_node += 7;
            let node = next_node % 81;
            let r = socket.act(game, json!({"type": "place", "node": node})).await;
            if r["type"] == "ack" {
                break;
            }
        }
    }
}

async fn finished(socket: &mut Socket, game: i64) {
    let sync = socket.watch(game, None).await;
    if sync["info"]["status"] != "finished" {
        socket.until(|v| v["type"] == "update" && v["game"] == game && v["status"] == "finished").await;
    }
}

async fn healthy(server: TestServer) {
    let c = reqwest::get(server.url("/api/health")).await.unwrap();
    assert_eq!(c.status(), 200);
    server.stop().await;
}

/// Item 6: a stranger watching a finished (rated) game took the opponent's seat in its rematch
/// with the invitation announced to every watcher.
async fn rematch_seats_are_kept_for_the_players(db: &str) {
    let server = TestServer::start(db).await;
    let (a, _) = player(&server, "ada").await;
    let (b, _) = player(&server, "bob").await;
    let (stranger, _) = player(&server, "eve").await;
    let game = a.create(rated_classic()).await;
    assert_eq!(b.post(&format!("/api/games/{game}/join"), json!({})).await.0, 200);
    let mut sb = b.socket().await;
    sb.watch(game, None).await;
    assert_eq!(sb.act(game, json!({"type": "resign"})).await["type"], "ack");
    let mut se = stranger.socket().await;
    finished(&mut se, game).await;
    let (s, created) = a.post(&format!("/api/games/{game}/rematch"), json!({})).await;
    assert_eq!(s, 201, "{created}");
    let new = created["game"]["id"].as_i64().unwrap();
    let seen = se.until(|v| v["type"] == "rematch").await;
    assert_eq!(seen["rematch"], new);
    assert!(seen["invite"].is_null(), "a spectator is told without the invitation: {seen}");
    let offer = sb.until(|v| v["type"] == "rematch").await;
    let invite = offer["invite"].as_str().expect("the player gets the invitation").to_string();
    // Not without the invitation, not with it (leaked), not by naming the seat.
    for body in [json!({}), json!({"invite": invite}), json!({"seat": 0, "invite": invite})] {
        let (s, v) = stranger.post(&format!("/api/games/{new}/join"), body).await;
        assert_eq!(s, 403, "{v}");
        assert!(v["error"].as_str().unwrap().contains("kept for"), "{v}");
    }
    let (s, joined) = b.post(&format!("/api/games/{new}/join"), json!({})).await;
    assert_eq!(s, 200, "the player takes the seat kept for them: {joined}");
    assert_eq!(joined["game"]["status"], "live");
    healthy(server).await;
}

/// Item 7 (a): without a clock a losing farm account never has to lose.
async fn a_rated_game_needs_a_clock(db: &str) {
    let server = TestServer::start(db).await;
    let (a, _) = player(&server, "hal").await;
    let (s, v) = a
        .post("/api/games", json!({"rules": "chinese", "map": "square:9", "players": 2, "rated": true}))
        .await;
    assert_eq!(s, 400, "{v}");
    assert!(v["error"].as_str().unwrap().contains("needs a clock"), "{v}");
    let untimed = json!({"rules": {"system": "gobeyond", "turn_seconds": 0}, "map": "hex:3", "players": 2, "rated": true});
    let (s, v) = a.post("/api/games", untimed).await;
    assert_eq!(s, 400, "{v}");
    assert!(v["error"].as_str().unwrap().contains("turn_seconds"), "{v}");
    a.create(rated_classic()).await;
    a.create(json!({"rules": "gobeyond", "map": "hex:3", "players": 2, "rated": true})).await;
    healthy(server).await;
}

/// Item 7 (b): resignation at move 0, a time-out before any move: aborted, no rating change.
async fn a_rated_game_ended_before_two_moves_each_is_aborted(db: &str) {
    let server = TestServer::start(db).await;
    let (a, an) = player(&server, "ann").await;
    let (b, bn) = player(&server, "ben").await;
    let game = a.create(rated_classic()).await;
    assert_eq!(b.post(&format!("/api/games/{game}/join"), json!({})).await.0, 200);
    let mut sa = a.socket().await;
    let mut sb = b.socket().await;
    sa.watch(game, None).await;
    sb.watch(game, None).await;
    // One move each, then a resignation: still too short.
    play_moves(&a, game, &mut [(&a, &mut sa), (&b, &mut sb)], 1).await;
    assert_eq!(sb.act(game, json!({"type": "resign"})).await["type"], "ack");
    finished(&mut sa, game).await;
    let (_, info) = a.get(&format!("/api/games/{game}")).await;
    assert_eq!(info["aborted"], true, "{info}");
    assert!(info["unrated"].as_str().unwrap().contains("aborted"), "{info}");
    assert!(info["seats"][0]["rating"]["change"].is_null(), "{info}");
    for name in [&an, &bn] {
        let (_, p) = a.get(&format!("/api/players/{name}")).await;
        assert_eq!(rating_in(&p, "classic"), None, "no rating moved: {p}");
        assert_eq!(p["games"][0]["result"]["aborted"], true, "the result says aborted: {p}");
    }
    // A time-out before any move: aborted too.
    let short = json!({"rules": "chinese", "map": "square:9", "players": 2, "rated": true,
                       "time": {"kind": "absolute", "main_seconds": 1}});
    let game = a.create(short).await;
    assert_eq!(b.post(&format!("/api/games/{game}/join"), json!({})).await.0, 200);
    finished(&mut sa, game).await;
    let (_, info) = a.get(&format!("/api/games/{game}")).await;
    assert_eq!(info["outcome"]["reason"], "time", "{info}");
    assert_eq!(info["aborted"], true, "{info}");
    // Two moves each, then a resignation: that one counts.
    let game = a.create(rated_classic()).await;
    assert_eq!(b.post(&format!("/api/games/{game}/join"), json!({})).await.0, 200);
    sa.watch(game, None).await;
    sb.watch(game, None).await;
    play_moves(&a, game, &mut [(&a, &mut sa), (&b, &mut sb)], 2).await;
    assert_eq!(sb.act(game, json!({"type": "resign"})).await["type"], "ack");
    finished(&mut sa, game).await;
    let (_, info) = a.get(&format!("/api/games/{game}")).await;
    assert_eq!(info["aborted"], false, "{info}");
    assert!(info["unrated"].is_null(), "{info}");
    let (_, p) = a.get(&format!("/api/players/{an}")).await;
    let (value, games) = rating_in(&p, "classic").expect("rated");
    assert!(value > 1500 && games == 1, "{p}");
    healthy(server).await;
}

/// Item 7 (c): an owner and their own bots, resigning after the moves the abort rule asks for.
async fn farming_with_own_bots_changes_no_rating(db: &str) {
    let server = TestServer::start(db).await;
    let (owner, owner_name) = player(&server, "farmer").await;
    let (x, x_token) = bot(&owner, "xbot").await;
    let (y, y_token) = bot(&owner, "ybot").await;
    let mut sockets = [
        owner.socket().await,
        bot_socket(&owner.base, &x_token).await,
        bot_socket(&owner.base, &y_token).await,
    ];
    let clients = [&owner, &x, &y];
    // The owner against each bot, then the two bots against each other, three times each.
    for _ in 0..3 {
        for (host, guest) in [(0, 1), (0, 2), (1, 2)] {
            let game = clients[host].create(rated_classic()).await;
            let (s, v) = clients[guest].post(&format!("/api/games/{game}/join"), json!({})).await;
            assert_eq!(s, 200, "{v}");
            let (low, high) = sockets.split_at_mut(guest);
            let (h, g) = (&mut low[host], &mut high[0]);
            h.watch(game, None).await;
            g.watch(game, None).await;
            play_moves(&owner, game, &mut [(clients[host], &mut *h), (clients[guest], &mut *g)], 2).await;
            assert_eq!(g.act(game, json!({"type": "resign"})).await["type"], "ack");
            finished(h, game).await;
            let (_, info) = owner.get(&format!("/api/games/{game}")).await;
            assert!(info["unrated"].as_str().unwrap().contains("bot"), "{info}");
        }
    }
    for name in [&owner_name, x.user["name"].as_str().unwrap(), y.user["name"].as_str().unwrap()] {
        let (_, p) = owner.get(&format!("/api/players/{name}")).await;
        assert_eq!(rating_in(&p, "classic"), None, "{name}'s rating did not move: {p}");
    }
    healthy(server).await;
}

/// Item 7 (c): two accounts of one person, independent on paper: after
/// `PAIR_GAMES_PER_WINDOW` rated games in 24 hours their games count no more.
async fn a_pair_counts_a_few_rated_games_a_day(db: &str) {
    let server = TestServer::start(db).await;
    let (a, an) = player(&server, "main").await;
    let (b, _) = player(&server, "alt").await;
    let mut sa = a.socket().await;
    let mut sb = b.socket().await;
    let limit = gobeyond_server::rating::PAIR_GAMES_PER_WINDOW;
    for n in 0..=limit {
        let game = a.create(rated_classic()).await;
        assert_eq!(b.post(&format!("/api/games/{game}/join"), json!({})).await.0, 200);
        sa.watch(game, None).await;
        sb.watch(game, None).await;
        play_moves(&a, game, &mut [(&a, &mut sa), (&b, &mut sb)], 2).await;
        assert_eq!(sb.act(game, json!({"type": "resign"})).await["type"], "ack");
        finished(&mut sa, game).await;
        let (_, info) = a.get(&format!("/api/games/{game}")).await;
        if n < limit {
            assert!(info["unrated"].is_null(), "game {n} counts: {info}");
        } else {
            assert!(info["unrated"].as_str().unwrap().contains("24 hours"), "{info}");
        }
    }
    let (_, p) = a.get(&format!("/api/players/{an}")).await;
    assert_eq!(rating_in(&p, "classic").map(|r| r.1), Some(limit), "{p}");
    healthy(server).await;
}

/// The answer with the game's id written as `N`: a private game's and a missing one's must
/// then be the same.
fn same(v: &Value, id: i64) -> String {
    v.to_string().replace(&id.to_string(), "N")
}

/// Every answer a stranger gets about private game `private` and missing game `missing`.
async fn answers(stranger: &Client, socket: &mut Socket, id: i64) -> Vec<(String, u16, String)> {
    let mut out = Vec::new();
    let posts = [
        ("join", json!({})),
        ("join", json!({"invite": "not-the-code"})),
        ("leave", json!({})),
        ("undo", json!({})),
        ("undo/answer", json!({"accept": true})),
        ("rematch", json!({})),
    ];
    for (path, body) in posts {
        let (s, v) = stranger.post(&format!("/api/games/{id}/{path}"), body).await;
        out.push((path.to_string(), s, same(&v, id)));
    }
    let (s, v) = stranger.get(&format!("/api/games/{id}/invite")).await;
    out.push(("invite".into(), s, same(&v, id)));
    for action in [json!({"type": "pass"}), json!({"type": "resign"})] {
        let mut r = socket.act(id, action).await;
        r["id"] = Value::Null;
        out.push(("act".into(), 0, same(&r, id)));
    }
    out
}

/// Weak item: a private game's existence and state leaked through join, leave, undo, rematch,
/// invite and the socket's act.
async fn a_private_game_answers_as_a_missing_one(db: &str) {
    let server = TestServer::start(db).await;
    let a = Client::guest(&server).await;
    let b = Client::guest(&server).await;
    let stranger = Client::guest(&server).await;
    let mut ss = stranger.socket().await;
    let (s, created) = a
        .post("/api/games", json!({"rules": "chinese", "map": "square:9", "players": 2, "public": false}))
        .await;
    assert_eq!(s, 201);
    let game = created["game"]["id"].as_i64().unwrap();
    let invite = created["invite"].as_str().unwrap().to_string();
    let missing = game + 1_000_000;
    let compare = |private: Vec<(String, u16, String)>, gone: Vec<(String, u16, String)>, stage: &str| {
        for (p, g) in private.iter().zip(&gone) {
            assert_eq!(p, g, "{stage}: {} answers differently for a private game", p.0);
            assert!(p.1 == 404 || p.1 == 0, "{stage}: {p:?}");
        }
    };
    compare(answers(&stranger, &mut ss, game).await, answers(&stranger, &mut ss, missing).await, "open");
    assert_eq!(b.post(&format!("/api/games/{game}/join"), json!({"invite": invite})).await.0, 200);
    compare(answers(&stranger, &mut ss, game).await, answers(&stranger, &mut ss, missing).await, "live");
    let mut sb = b.socket().await;
    sb.watch(game, None).await;
    assert_eq!(sb.act(game, json!({"type": "resign"})).await["type"], "ack");
    compare(answers(&stranger, &mut ss, game).await, answers(&stranger, &mut ss, missing).await, "finished");
    // The players still get the real answers.
    assert_eq!(a.post(&format!("/api/games/{game}/rematch"), json!({})).await.0, 201);
    healthy(server).await;
}

/// Weak item: each move-and-undo gained the 30 s Fischer increment.
async fn undo_takes_back_the_fischer_increment(db: &str) {
    let server = TestServer::start(db).await;
    let a = Client::guest(&server).await;
    let b = Client::guest(&server).await;
    let game = a
        .create(json!({"rules": "chinese", "map": "square:9", "players": 2,
                       "time": {"kind": "fischer", "main_seconds": 600, "increment_seconds": 30}}))
        .await;
    assert_eq!(b.post(&format!("/api/games/{game}/join"), json!({})).await.0, 200);
    let (_, info) = a.get(&format!("/api/games/{game}")).await;
    let mover = if info["waiting_for"][0] == seat_of(&info, a.id()) { &a } else { &b };
    let other = if mover.id() == a.id() { &b } else { &a };
    let seat = seat_of(&info, mover.id()) as usize;
    let mut s = mover.socket().await;
    s.watch(game, None).await;
    for round in 0..3 {
        assert_eq!(s.act(game, json!({"type": "place", "at": "E5"})).await["type"], "ack");
        let (_, info) = a.get(&format!("/api/games/{game}")).await;
        assert!(info["clock"]["remaining_ms"][seat].as_i64().unwrap() > 600_000, "the move earned 30 s");
        let (st, v) = mover.post(&format!("/api/games/{game}/undo"), json!({})).await;
        assert_eq!(st, 200, "{v}");
        let (st, v) = other.post(&format!("/api/games/{game}/undo/answer"), json!({"accept": true})).await;
        assert_eq!(st, 200, "{v}");
        let (_, info) = a.get(&format!("/api/games/{game}")).await;
        assert_eq!(info["seq"], 2 * (round + 1), "{info}");
        let left = info["clock"]["remaining_ms"][seat].as_i64().unwrap();
        assert!(left <= 600_000, "round {round}: the undo kept the increment: {left} ms left");
    }
    healthy(server).await;
}

/// Weak item: 200 invitation-only public games emptied the lobby's open list (filtered after
/// its limit). Here 10 of them against a limit of 5.
async fn invitation_only_games_do_not_empty_the_lobby(db: &str) {
    let server = TestServer::start(db).await;
    let host = Client::guest(&server).await;
    let flooder = Client::guest(&server).await;
    let open = host.create(json!({"rules": "chinese", "map": "square:9", "players": 2})).await;
    let invited = json!({"rules": "chinese", "map": "square:9", "players": 2,
                         "seats": [{"kind": "me"}, {"kind": "invite"}]});
    for _ in 0..10 {
        flooder.create(invited.clone()).await;
    }
    for path in ["/api/games?status=open&limit=5", "/api/games?limit=5"] {
        let (s, list) = host.get(path).await;
        assert_eq!(s, 200);
        let ids: Vec<i64> =
            list["games"].as_array().unwrap().iter().map(|g| g["id"].as_i64().unwrap()).collect();
        assert_eq!(ids, vec![open], "{path}: the joinable game is listed, and only it: {list}");
    }
    healthy(server).await;
}
