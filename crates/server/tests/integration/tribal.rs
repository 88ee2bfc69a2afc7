//! Tribal Go through the real server (issue 18), on SQLite and PostgreSQL: dice rolled by the
//! server and logged, computer seats through every phase, a person's refusals with reasons, and
//! a record that replays.

use crate::common::{Client, Socket, TestServer, postgres_url, seat_of, sqlite_url};
use serde_json::json;

on_both!(
    bots_play_a_casual_game_to_the_end,
    a_person_plays_the_pro_game,
    the_handicap_comes_from_history,
    hands_and_draws_reach_only_their_holder,
    an_unanswered_reaction_window_declines_on_the_clock,
    a_window_against_a_bot_runs_its_full_length_untimed
);

async fn bots_play_a_casual_game_to_the_end(db: &str) {
    let server = TestServer::start(db).await;
    let a = Client::guest(&server).await;
    let bot = json!({"kind": "bot", "level": 1});
    let game =
        a.create(json!({"rules": "tribal", "map": "square:7", "players": 3, "seats": [bot, bot, bot]})).await;
    let mut s = a.socket().await;
    let sync = s.watch(game, None).await;
    if sync["info"]["status"] != "finished" {
        s.until(|v| v["type"] == "update" && v["status"] == "finished").await;
    }
    let (_, record) = a.get(&format!("/api/games/{game}/record")).await;
    let kinds: Vec<&str> =
        record["actions"].as_array().unwrap().iter().map(|a| a["type"].as_str().unwrap()).collect();
    assert!(
        kinds.iter().filter(|k| **k == "dice").count() >= 4,
        "the roll-off and the turns' dice are logged: {kinds:?}"
    );
    assert!(kinds.contains(&"place") && kinds.contains(&"choose_start"), "{kinds:?}");
    let record: gobeyond_rules::record::Record = serde_json::from_value(record).unwrap();
    let replayed = record.replay().unwrap();
    assert!(replayed.outcome().is_some(), "the record replays to the end");
    server.stop().await;
}

async fn a_person_plays_the_pro_game(db: &str) {
    let server = TestServer::start(db).await;
    let a = Client::guest(&server).await;
    let game = a
        .create(json!({"rules": "tribal-pro", "map": "square:9", "players": 2,
                       "seats": [{"kind": "me"}, {"kind": "bot", "level": 1}]}))
        .await;
    let mut s = a.socket().await;
    let sync = s.watch(game, None).await;
    let me = seat_of(&sync["info"], a.id());
    assert_eq!(sync["state"]["phase"], "choose_start");
    let choice = sync["state"]["start_choices"][0].as_u64().unwrap();
    assert_eq!(s.act(game, json!({"type": "choose_start", "node": choice})).await["type"], "ack");
    let state = s
        .until(|v| v["type"] == "update" && v["state"]["phase"] == "playing" && v["state"]["to_move"] == me)
        .await;
    // Out of range: refused with the reason; resigning: refused with the document's words.
    let reach = state["state"]["reachable"].as_array().unwrap();
    let far = reach.iter().position(|r| r == false).expect("a node out of range");
    let r = s.act(game, json!({"type": "place", "node": far})).await;
    assert_eq!(r["code"], "out_of_range", "{r}");
    let r = s.act(game, json!({"type": "resign"})).await;
    assert_eq!(r["code"], "no_resignation", "{r}");
    let near = reach.iter().position(|r| r == true).unwrap();
    assert_eq!(s.act(game, json!({"type": "place", "node": near})).await["type"], "ack");
    let (_, info) = a.get(&format!("/api/games/{game}")).await;
    assert_eq!(info["rules"]["range"], "fixed");
    // Fixed dice are a test hook a real server refuses.
    let (status, body) = a
        .post(
            "/api/games",
            json!({"rules": "tribal", "map": "square:9", "players": 2, "rigged": [{"type": "dice", "dice": [6, 6]}]}),
        )
        .await;
    assert_eq!(status, 400, "{body}");
    assert!(body["error"].as_str().unwrap().contains("test hook"), "{body}");
    server.stop().await;
}

/// Rule 10: a player with games behind them gives newcomers handicap stones; the server takes
/// the history from its own finished games.
async fn the_handicap_comes_from_history(db: &str) {
    let server = TestServer::start(db).await;
    let a = Client::guest(&server).await;
    let b = Client::guest(&server).await;
    // A plays one Pro game against a bot, passing to the end.
    let game = a
        .create(json!({"rules": "tribal-pro", "map": "square:5", "players": 2,
                       "seats": [{"kind": "me"}, {"kind": "bot", "level": 1}]}))
        .await;
    let mut s = a.socket().await;
    let mut state = s.watch(game, None).await;
    let me = seat_of(&state["info"], a.id());
    for _ in 0..200 {
        let st = &state["state"];
        if state["status"] == "finished" || st["outcome"].is_object() {
            break;
        }
        let mine =
            st["to_move"] == me || st["awaiting_cleanup"].as_array().is_some_and(|w| w.contains(&json!(me)));
        if mine {
            let action = match st["phase"].as_str() {
                Some("choose_start") => json!({"type": "choose_start", "node": st["start_choices"][0]}),
                Some("clean_up") => json!({"type": "dead"}),
                _ => json!({"type": "pass"}),
            };
            // A state read while the last action was on its way may be stale: a refusal then
            // only means the game had moved on.
            let r = s.act(game, action.clone()).await;
            assert!(
                r["type"] == "ack" || r["code"].is_string() || r["error"] == "the game is over",
                "{action} {r}"
            );
        }
        state = s.until(|v| v["type"] == "update" || v["type"] == "sync").await;
    }
    let (_, info) = a.get(&format!("/api/games/{game}")).await;
    assert_eq!(info["status"], "finished", "{info}");
    // Now A against B, a newcomer: B owes stones.
    let next = a.create(json!({"rules": "tribal-pro", "map": "square:9", "players": 2})).await;
    assert_eq!(b.post(&format!("/api/games/{next}/join"), json!({})).await.0, 200);
    let (_, info) = a.get(&format!("/api/games/{next}")).await;
    let handicap = info["rules"]["handicap"].as_array().cloned().unwrap_or_default();
    let b_seat = seat_of(&info, b.id()) as usize;
    assert_eq!(handicap.get(b_seat), Some(&json!(0)), "{info}");
    assert!(handicap[1 - b_seat].as_i64().unwrap() < 0, "A's history gives a handicap value: {info}");
    let mut sb = b.socket().await;
    let sync = sb.watch(next, None).await;
    let (_, rec) = a.get(&format!("/api/games/{next}/record")).await;
    assert!(rec["rules"]["handicap"].is_array(), "stored with the game: {rec}");
    let _ = sync;
    server.stop().await;
}

/// Rule 35 and the issue: over the WebSocket a player never receives another player's hand or
/// draws — not in updates, not in a reconnection's sync — and the record waits for the end.
async fn hands_and_draws_reach_only_their_holder(db: &str) {
    let server = TestServer::start(db).await;
    let a = Client::guest(&server).await;
    let b = Client::guest(&server).await;
    let c = Client::guest(&server).await;
    let game = a.create(json!({"rules": "tribal", "map": "square:7", "players": 2})).await;
    assert_eq!(b.post(&format!("/api/games/{game}/join"), json!({})).await.0, 200);
    let mut sa = a.socket().await;
    let mut sb = b.socket().await;
    let mut sc = c.socket().await;
    let info = sa.watch(game, None).await["info"].clone();
    sb.watch(game, None).await;
    let mut v = sc.watch(game, None).await;
    let seat_a = seat_of(&info, a.id());
    // The roll-off is the server's; then each chooses a start point in its order, and the first
    // player passes (drawing a card).
    let mut drawer = None;
    for _ in 0..20 {
        let st = v["state"].clone();
        let mover = st["to_move"].as_u64();
        let (Some(mover), Some(phase)) = (mover, st["phase"].as_str()) else {
            v = sc.until(|v| v["type"] == "update").await;
            continue;
        };
        let socket: &mut Socket = if mover == seat_a { &mut sa } else { &mut sb };
        let action = match phase {
            "choose_start" => json!({"type": "choose_start", "node": st["start_choices"][0]}),
            "playing" => json!({"type": "pass"}),
            _ => {
                v = sc.until(|v| v["type"] == "update").await;
                continue;
            }
        };
        let r = socket.act(game, action.clone()).await;
        assert_eq!(r["type"], "ack", "{action}: {r}");
        if phase == "playing" {
            drawer = Some(mover);
            break;
        }
        v = sc.until(|v| v["type"] == "update" && v["action"]["type"] == "choose_start").await;
    }
    let drawer = drawer.expect("a player passed");
    let (own, other) = if drawer == seat_a { (&mut sa, &mut sb) } else { (&mut sb, &mut sa) };
    let drawn = own.until(|v| v["type"] == "update" && v["action"]["type"] == "draw").await;
    let card = drawn["action"]["card"].as_str().expect("the drawer sees the card").to_string();
    assert_eq!(drawn["state"]["hand"], json!([card]), "and has it in hand");
    let seen = other.until(|v| v["type"] == "update" && v["action"]["type"] == "draw").await;
    assert_eq!(seen["action"]["card"], json!(null), "{seen}");
    assert_eq!(seen["state"]["hand"], json!([]));
    assert_eq!(seen["state"]["players"][drawer as usize]["cards"], 1);
    assert!(!seen.to_string().contains(&format!("\"{card}\"")), "the card leaks to the other seat: {seen}");
    let spectator = sc.until(|v| v["type"] == "update" && v["action"]["type"] == "draw").await;
    assert_eq!(spectator["state"]["hand"], json!(null));
    assert!(!spectator.to_string().contains(&format!("\"{card}\"")), "{spectator}");
    // A reconnecting seat's sync carries the draw without its card.
    let mut again = if drawer == seat_a { b.socket().await } else { a.socket().await };
    let sync = again.watch(game, None).await;
    let draw = sync["actions"].as_array().unwrap().iter().find(|a| a["action"]["type"] == "draw").cloned();
    assert_eq!(draw.map(|d| d["action"]["card"].clone()), Some(json!(null)), "{sync}");
    assert!(!sync.to_string().contains(&format!("\"{card}\"")), "{sync}");
    let (status, body) = c.get(&format!("/api/games/{game}/record")).await;
    assert_eq!(status, 409, "no record while cards are hidden: {body}");
    server.stop().await;
}

/// Rule 41 on the server: a reaction window lasts `reaction_seconds` in an untimed game too,
/// a player holding no Reject is not prompted, and when nobody answers the server closes the
/// window (the move stands) without a click.
async fn an_unanswered_reaction_window_declines_on_the_clock(db: &str) {
    let server = TestServer::start(db).await;
    let a = Client::guest(&server).await;
    let b = Client::guest(&server).await;
    let game = a
        .create(json!({"rules": {"system": "tribal", "range": "fixed", "cards": true, "reaction_seconds": 3},
                       "map": "square:7", "players": 2}))
        .await;
    assert_eq!(b.post(&format!("/api/games/{game}/join"), json!({})).await.0, 200);
    let mut sa = a.socket().await;
    let mut sb = b.socket().await;
    let mut v = sa.watch(game, None).await;
    sb.watch(game, None).await;
    let seat_a = seat_of(&v["info"], a.id());
    let mover = place_first_stone(game, seat_a, &mut v, &mut sa, &mut sb).await;
    // The other player holds no card (no pass has drawn one yet): nothing to answer, no prompt.
    let other = if mover == seat_a { &mut sb } else { &mut sa };
    let window = other.until(|v| v["type"] == "update" && v["state"]["phase"] == "reaction").await;
    assert_eq!(window["state"]["reaction"]["asked"], false, "{}", window["state"]["reaction"]);
    assert!(window["state"]["to_move"].is_null(), "{}", window["state"]["to_move"]);
    let deadline = window["clock"]["deadline_ms"].as_i64().expect("the window has an end without a clock");
    // `reaction_seconds` from when the server sent it: at most 3 s from when it arrived (a slow
    // machine only makes this smaller).
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_millis() as i64;
    assert!(deadline - now <= 3_000, "a short window: {} ms left", deadline - now);
    // Nobody answers: the clock declines for the other player, and the turn passes on.
    let closed = sa
        .until(|v| {
            v["type"] == "update"
                && v["events"].as_array().is_some_and(|es| es.iter().any(|e| e["event"] == "not_rejected"))
        })
        .await;
    assert_eq!(closed["action"]["type"], "timeout", "{closed}");
    assert_eq!(closed["action"]["player"].as_u64(), Some(1 - mover));
    assert_eq!(closed["state"]["phase"], "playing");
    server.stop().await;
}

/// Up to the first Play of a two-player Pro game: start points, then a stone within range.
/// Returns the mover's seat.
async fn place_first_stone(
    game: i64,
    seat_a: u64,
    v: &mut serde_json::Value,
    sa: &mut Socket,
    sb: &mut Socket,
) -> u64 {
    for _ in 0..10 {
        let st = v["state"].clone();
        match (st["phase"].as_str(), st["to_move"].as_u64()) {
            (Some("choose_start"), Some(m)) => {
                let s = if m == seat_a { &mut *sa } else { &mut *sb };
                let r = s.act(game, json!({"type": "choose_start", "node": st["start_choices"][0]})).await;
                assert_eq!(r["type"], "ack", "{r}");
            }
            (Some("playing"), Some(m)) => {
                let s = if m == seat_a { &mut *sa } else { &mut *sb };
                let near = st["reachable"].as_array().unwrap().iter().position(|r| r == true).unwrap();
                assert_eq!(s.act(game, json!({"type": "place", "node": near})).await["type"], "ack");
                return m;
            }
            _ => {}
        }
        *v = sa.until(|v| v["type"] == "update").await;
    }
    panic!("no stone was placed: {v}");
}

/// Issue 41: against a computer seat in an untimed game nobody clicks through a window. After
/// the person's move only the bot is asked: it decides at once (silently, holding nothing) and
/// the window closes. After the bot's move the person is asked: the window runs its full length
/// with no click, then the server closes it.
async fn a_window_against_a_bot_runs_its_full_length_untimed(db: &str) {
    let server = TestServer::start(db).await;
    let a = Client::guest(&server).await;
    let game = a
        .create(json!({"rules": {"system": "tribal", "range": "fixed", "cards": true, "reaction_seconds": 2},
                       "map": "square:7", "players": 2, "seats": [{"kind": "me"}, {"kind": "bot", "level": 1}]}))
        .await;
    let mut s = a.socket().await;
    let sync = s.watch(game, None).await;
    let me = seat_of(&sync["info"], a.id());
    let mut v = sync;
    for _ in 0..20 {
        let st = &v["state"];
        if st["to_move"].as_u64() == Some(me) {
            match st["phase"].as_str() {
                Some("choose_start") => {
                    s.act(game, json!({"type": "choose_start", "node": st["start_choices"][0]})).await;
                }
                Some("playing") => break,
                _ => {}
            }
        }
        v = s.until(|v| v["type"] == "update" || v["type"] == "sync").await;
    }
    let st = &v["state"];
    assert_eq!((st["phase"].as_str(), st["to_move"].as_u64()), (Some("playing"), Some(me)), "{st}");
    let near = st["reachable"].as_array().unwrap().iter().position(|r| r == true).unwrap();
    assert_eq!(s.act(game, json!({"type": "place", "node": near})).await["type"], "ack");
    let not_rejected = |v: &serde_json::Value| {
        v["type"] == "update"
            && v["events"].as_array().is_some_and(|es| es.iter().any(|e| e["event"] == "not_rejected"))
    };
    let closed = s.until(not_rejected).await;
    assert_eq!(closed["action"]["type"], "timeout", "the server closed it for the bot: {closed}");
    assert_eq!(closed["action"]["player"].as_u64(), Some(1 - me));
    // The bot plays by itself; its window waits for nobody's click and runs its length.
    s.until(|v| v["type"] == "update" && v["action"]["type"] == "place" && v["action"]["player"] != me).await;
    let opened = std::time::Instant::now();
    let closed = s.until(not_rejected).await;
    assert!(
        opened.elapsed() >= std::time::Duration::from_millis(1_500),
        "closed after {:?}",
        opened.elapsed()
    );
    assert_eq!(closed["action"]["type"], "timeout", "{closed}");
    assert_eq!(closed["action"]["player"].as_u64(), Some(me), "closed for the person, who never clicked");
    assert_eq!(closed["state"]["to_move"].as_u64(), Some(me), "{}", closed["state"]);
    server.stop().await;
}
