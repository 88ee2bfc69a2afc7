//! Computer reviews of finished games (issue 43, `docs/api.md` "Computer review"): queued,
//! searched in the background position by position, cached per budget, bounded per account,
//! resumed after a restart, and run by exactly one instance of a cluster.

use std::time::Duration;

use crate::common::{Client, TestServer, postgres_url, seat_of, sqlite_url, test_limits};
use gobeyond_server::{Config, review::ReviewConfig};
use serde_json::{Value, json};

on_both!(
    a_finished_game_is_reviewed_once_per_budget,
    reviews_are_bounded_per_account_and_budget,
    at_most_fifty_reviews_wait_in_all,
    a_restarted_server_resumes_from_the_stored_positions,
);

/// A server whose reviews run `at_once` at a time (0: none), known as `instance`.
async fn server(db: &str, at_once: usize, instance: &str) -> TestServer {
    TestServer::start_config(Config {
        listen: "127.0.0.1:0".parse().unwrap(),
        database: db.into(),
        limits: test_limits(),
        instance: Some(instance.into()),
        reviews: ReviewConfig { at_once, ..ReviewConfig::default() },
        ..Config::default()
    })
    .await
}

/// A Tromp-Taylor game on 9×9 between two guests: `moves` placed in turn, then both pass.
/// The creator, and the finished game's id.
async fn finished_game(server: &TestServer, moves: &[&str]) -> (Client, i64) {
    let a = Client::guest(server).await;
    let b = Client::guest(server).await;
    let game = a.create(json!({"rules": "tromp-taylor", "map": "square:9", "players": 2})).await;
    assert_eq!(b.post(&format!("/api/games/{game}/join"), json!({})).await.0, 200);
    let mut sa = a.socket().await;
    let sync = sa.watch(game, None).await;
    let mut sb = b.socket().await;
    sb.watch(game, None).await;
    let (black, white) =
        if seat_of(&sync["info"], a.id()) == 0 { (&mut sa, &mut sb) } else { (&mut sb, &mut sa) };
    for (i, at) in moves.iter().enumerate() {
        let mover = if i.is_multiple_of(2) { &mut *black } else { &mut *white };
        let r = mover.act(game, json!({"type": "place", "at": at})).await;
        assert_eq!(r["type"], "ack", "{at}: {r}");
    }
    let (first, second) = if moves.len().is_multiple_of(2) { (black, white) } else { (white, black) };
    assert_eq!(first.act(game, json!({"type": "pass"})).await["type"], "ack");
    assert_eq!(second.act(game, json!({"type": "pass"})).await["type"], "ack");
    second.until(|v| v["type"] == "update" && v["status"] == "finished").await;
    (a, game)
}

/// Asks again until the review is done (or failed); no time is asserted, only an upper bound
/// on the attempts so that a broken runner fails the test instead of hanging it.
async fn until_done(c: &Client, game: i64, playouts: u32) -> Value {
    for _ in 0..12_000 {
        let (code, status) = c.get(&format!("/api/games/{game}/review?playouts={playouts}")).await;
        assert_eq!(code, 200, "{status}");
        if status["state"] == "done" || status["state"] == "failed" {
            return status;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("the review of game {game} never ended");
}

const SHORT: [&str; 6] = ["C3", "G7", "C7", "G3", "E5", "D4"];

/// Positions, values and judgements are there and agree with the game; the position endpoint
/// adds the ownership; a second request reuses the stored review.
async fn a_finished_game_is_reviewed_once_per_budget(db: &str) {
    let server = server(db, 1, "one").await;
    let (a, game) = finished_game(&server, &SHORT).await;
    let (code, first) = a.post(&format!("/api/games/{game}/review"), json!({"playouts": 50})).await;
    assert_eq!(code, 202, "{first}");
    assert_eq!(first["playouts"], 50);
    let total = SHORT.len() + 2 + 1;
    assert_eq!(first["total"], total, "positions = actions + 1: {first}");
    let done = until_done(&a, game, 50).await;
    assert_eq!(done["state"], "done", "{done}");
    assert_eq!(done["done"], total);
    let positions = done["positions"].as_array().unwrap();
    assert_eq!(positions.len(), total);
    for (i, p) in positions.iter().enumerate() {
        assert_eq!(p["at"], i);
        assert_eq!(p["values"].as_array().unwrap().len(), 2, "a value per seat: {p}");
        assert!(p.get("ownership").is_none(), "the status leaves ownership out: {p}");
        if p["to_move"].is_u64() {
            assert!(!p["best"].as_array().unwrap().is_empty(), "a mover has best moves: {p}");
        }
    }
    let moves = done["moves"].as_array().unwrap();
    assert!(!moves.is_empty(), "{done}");
    for m in moves {
        let at = m["at"].as_u64().unwrap() as usize;
        assert!(at < total - 1, "a judged action is in the game: {m}");
        assert_eq!(m["player"], positions[at]["to_move"], "the mover is the one judged: {m}");
    }
    // One position with the owner of each of the 81 nodes.
    let (code, p) = a.get(&format!("/api/games/{game}/review/positions/2?playouts=50")).await;
    assert_eq!(code, 200, "{p}");
    assert_eq!(p["at"], 2);
    assert_eq!(p["ownership"].as_array().map(Vec::len), Some(81), "{p}");
    let (code, missing) = a.get(&format!("/api/games/{game}/review/positions/{total}?playouts=50")).await;
    assert_eq!(code, 404, "{missing}");
    // Cached: done at once, for anyone who may read the game.
    let other = Client::guest(&server).await;
    let (code, again) = other.post(&format!("/api/games/{game}/review"), json!({"playouts": 50})).await;
    assert_eq!(code, 202);
    assert_eq!(again["state"], "done", "{again}");
    assert_eq!(again["positions"], done["positions"]);
    // Another budget is another review; none was asked for.
    let (_, none) = a.get(&format!("/api/games/{game}/review?playouts=60")).await;
    assert_eq!(none["state"], "none", "{none}");
    assert_eq!(none["total"], total);
    server.stop().await;
}

/// Live games, budgets out of range and a third waiting review of one account are refused,
/// each with a reason that names the limit.
async fn reviews_are_bounded_per_account_and_budget(db: &str) {
    // No runner here: requested reviews stay queued.
    let server = server(db, 0, "idle").await;
    let (a, game) = finished_game(&server, &SHORT[..2]).await;
    let live = a.create(json!({"rules": "tromp-taylor", "map": "square:9", "players": 2})).await;
    let (code, body) = a.post(&format!("/api/games/{live}/review"), json!({})).await;
    assert_eq!(code, 409, "{body}");
    assert!(body["error"].as_str().unwrap().contains("finished games only"), "{body}");
    for playouts in [0, 49, 10_001, 4_000_000_000u32] {
        let (code, body) = a.post(&format!("/api/games/{game}/review"), json!({"playouts": playouts})).await;
        assert_eq!(code, 400, "{playouts}: {body}");
        assert!(body["error"].as_str().unwrap().contains("50 to 10000"), "{body}");
    }
    let (code, body) = a.post(&format!("/api/games/{game}/review"), json!({"playouts": 50, "x": 1})).await;
    assert!(code >= 400, "unknown fields are refused: {body}");
    // Two may wait; the default budget is the server's.
    let (code, first) = a.post(&format!("/api/games/{game}/review"), json!({})).await;
    assert_eq!(code, 202, "{first}");
    assert_eq!((first["state"].clone(), first["playouts"].clone()), (json!("queued"), json!(1000)));
    assert_eq!(first["queue_position"], 1);
    let (code, second) = a.post(&format!("/api/games/{game}/review"), json!({"playouts": 50})).await;
    assert_eq!(code, 202, "{second}");
    assert_eq!(second["queue_position"], 2);
    // Asking again for a waiting one is no new request.
    assert_eq!(a.post(&format!("/api/games/{game}/review"), json!({"playouts": 50})).await.0, 202);
    let (code, third) = a.post(&format!("/api/games/{game}/review"), json!({"playouts": 70})).await;
    assert_eq!(code, 429, "{third}");
    assert!(third["error"].as_str().unwrap().contains("at most 2"), "{third}");
    // Another account has its own two.
    let b = Client::guest(&server).await;
    let (code, other) = b.post(&format!("/api/games/{game}/review"), json!({"playouts": 70})).await;
    assert_eq!(code, 202, "{other}");
    assert_eq!(other["queue_position"], 3);
    // Signed out: nothing is queued.
    let anonymous = reqwest::Client::new();
    let r = anonymous
        .post(server.url(&format!("/api/games/{game}/review")))
        .json(&json!({}))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 401);
    server.stop().await;
}

/// Many accounts with two waiting reviews each fill the server's queue at 50 (`WAITING_MAX`,
/// docs/security.md): the next account is refused with the reason, although its own count is 0.
async fn at_most_fifty_reviews_wait_in_all(db: &str) {
    let server = server(db, 0, "idle").await;
    let (_, game) = finished_game(&server, &SHORT[..2]).await;
    for account in 0..25u32 {
        let c = Client::guest(&server).await;
        for k in 0..2 {
            let playouts = 100 + 2 * account + k;
            let (code, body) =
                c.post(&format!("/api/games/{game}/review"), json!({"playouts": playouts})).await;
            assert_eq!(code, 202, "review {playouts}: {body}");
        }
    }
    let late = Client::guest(&server).await;
    let (code, body) = late.post(&format!("/api/games/{game}/review"), json!({"playouts": 999})).await;
    assert_eq!(code, 503, "{body}");
    assert!(body["error"].as_str().unwrap().contains("50"), "{body}");
    // A budget already waiting is no new request: it is told, not refused.
    let (code, told) = late.post(&format!("/api/games/{game}/review"), json!({"playouts": 100})).await;
    assert_eq!(code, 202, "{told}");
    assert_eq!(told["state"], "queued", "{told}");
    server.stop().await;
}

/// The positions a stopped server stored stay; the next server searches only the rest.
async fn a_restarted_server_resumes_from_the_stored_positions(db: &str) {
    const LONG: [&str; 24] = [
        "C3", "G7", "C7", "G3", "E5", "D4", "F4", "D6", "F6", "E3", "E7", "C5", "G5", "B4", "H4", "B6", "H6",
        "D2", "F8", "D8", "F2", "B2", "H8", "A5",
    ];
    let first = server(db, 1, "first").await;
    let (a, game) = finished_game(&first, &LONG).await;
    let total = LONG.len() + 3;
    let playouts = 2000;
    let (code, body) = a.post(&format!("/api/games/{game}/review"), json!({"playouts": playouts})).await;
    assert_eq!(code, 202, "{body}");
    let mut done = 0;
    for _ in 0..12_000 {
        done =
            a.get(&format!("/api/games/{game}/review?playouts={playouts}")).await.1["done"].as_u64().unwrap();
        if done >= 2 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    first.stop().await;
    assert!(done >= 2 && (done as usize) < total, "stopped in the middle: {done} of {total}");
    let before = computed_by(db).await;
    assert!(before.iter().all(|(_, by)| by == "first") && before.len() >= done as usize, "{before:?}");

    let second = server(db, 1, "second").await;
    let a = Client { base: format!("http://{}", second.addr), ..a };
    let status = until_done(&a, game, playouts).await;
    assert_eq!(status["state"], "done", "{status}");
    assert_eq!(status["positions"].as_array().unwrap().len(), total);
    let after = computed_by(db).await;
    assert_eq!(after.len(), total, "{after:?}");
    assert_eq!(&after[..before.len()], &before[..], "the positions stored before were kept");
    assert!(after[before.len()..].iter().all(|(_, by)| by == "second"), "{after:?}");
    second.stop().await;
}

/// Each stored position and the instance that searched it, in order.
async fn computed_by(db: &str) -> Vec<(i64, String)> {
    use sqlx::{Connection, Row};
    sqlx::any::install_default_drivers();
    let mut c = sqlx::AnyConnection::connect(db).await.unwrap();
    let rows = sqlx::query("SELECT at, computed_by FROM review_positions ORDER BY at")
        .fetch_all(&mut c)
        .await
        .unwrap();
    rows.iter().map(|r| (r.get("at"), r.get("computed_by"))).collect()
}

/// Two instances sharing a PostgreSQL database both take reviews from the queue, and never the
/// same one: each review was claimed once and searched by one instance.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_instances_never_run_the_same_review() {
    let db = postgres_url().await;
    let one = server(&db, 1, "one").await;
    let two = server(&db, 1, "two").await;
    let (a, game) = finished_game(&one, &SHORT).await;
    let b = Client::guest(&one).await;
    let budgets = [(&a, 50), (&a, 60), (&b, 70), (&b, 80)];
    for (c, playouts) in budgets {
        let (code, body) = c.post(&format!("/api/games/{game}/review"), json!({"playouts": playouts})).await;
        assert_eq!(code, 202, "{body}");
    }
    for (c, playouts) in budgets {
        assert_eq!(until_done(c, game, playouts).await["state"], "done");
    }
    use sqlx::{Connection, Row};
    sqlx::any::install_default_drivers();
    let mut c = sqlx::AnyConnection::connect(&db).await.unwrap();
    let rows = sqlx::query(
        "SELECT r.playouts, r.claims, COUNT(DISTINCT p.computed_by) AS searchers, COUNT(*) AS positions \
         FROM reviews r JOIN review_positions p ON p.review_id = r.id GROUP BY r.id, r.playouts, r.claims",
    )
    .fetch_all(&mut c)
    .await
    .unwrap();
    assert_eq!(rows.len(), budgets.len());
    for r in rows {
        let (playouts, claims, searchers, positions): (i64, i64, i64, i64) =
            (r.get("playouts"), r.get("claims"), r.get("searchers"), r.get("positions"));
        assert_eq!((claims, searchers), (1, 1), "review at {playouts}: claimed once, by one instance");
        assert_eq!(positions as usize, SHORT.len() + 3);
    }
    one.stop().await;
    two.stop().await;
}
