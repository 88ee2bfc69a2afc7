//! Ratings and profiles (issue 17), on SQLite and PostgreSQL: rated games change every
//! player's rating once, whoever finishes them and however many finish at once; who may play
//! them; the profile page's data.

use crate::common::{Client, Socket, TestServer, postgres_url, seat_of, sqlite_url, unique};
use serde_json::{Value, json};

on_both!(
    a_rated_game_changes_both_ratings_once,
    a_multiplayer_rated_game_ranks_every_seat,
    simultaneous_endings_count_every_game,
    who_may_play_rated_games,
    ratings_are_kept_per_number_of_players,
);

/// A registered player (a guest who claimed a name).
async fn player(server: &TestServer, name: &str) -> (Client, String) {
    let name = format!("{name}{}", unique() % 1_000_000);
    (Client::registered(server, &name).await, name)
}

/// A rated game needs a clock: GoBeyond has its own, others get ten minutes.
async fn rated_game(creator: &Client, others: &[&Client], rules: Value, map: &str) -> i64 {
    let players = 1 + others.len();
    let mut body = json!({"rules": rules, "map": map, "players": players, "rated": true});
    if body["rules"] != "gobeyond" {
        body["time"] = json!({"kind": "absolute", "main_seconds": 600});
    }
    let game = creator.create(body).await;
    for o in others {
        let (s, v) = o.post(&format!("/api/games/{game}/join"), json!({})).await;
        assert_eq!(s, 200, "{v}");
    }
    game
}

/// Every seat makes two placements (a rated game that ends sooner is aborted): each turn the
/// seat the game waits for places on the first node it may. `sockets` watch the game.
async fn two_moves_each(viewer: &Client, game: i64, sockets: &mut [(&Client, &mut Socket)]) {
    let mut node = 0u64;
    for _ in 0..2 * sockets.len() {
        let (_, info) = viewer.get(&format!("/api/games/{game}")).await;
        let turn = info["waiting_for"][0].as_u64().expect("someone to move");
        let (_, socket) = sockets.iter_mut().find(|(c, _)| seat_of(&info, c.id()) == turn).unwrap();
        loop {
            node = (node + 7) % 81;
            if socket.act(game, json!({"type": "place", "node": node})).await["type"] == "ack" {
                break;
            }
        }
    }
}

fn rating_in(profile: &Value, system: &str) -> Option<(i64, i64)> {
    profile["ratings"]
        .as_array()?
        .iter()
        // Pools come by system, then number of players: the fewest players first.
        .find(|r| r["system"] == system)
        .map(|r| (r["rating"]["value"].as_i64().unwrap(), r["rating"]["games"].as_i64().unwrap()))
}

async fn a_rated_game_changes_both_ratings_once(db: &str) {
    let server = TestServer::start(db).await;
    let (a, an) = player(&server, "ada").await;
    let (b, bn) = player(&server, "bob").await;
    let game = rated_game(&a, &[&b], json!("chinese"), "square:9").await;
    let (_, info) = a.get(&format!("/api/games/{game}")).await;
    assert_eq!(info["rated"], true);
    assert_eq!(info["seats"][0]["rating"]["value"], 1500, "a new player shows 1500: {info}");
    assert_eq!(info["seats"][0]["rating"]["provisional"], true);
    let mut sa = a.socket().await;
    let mut sb = b.socket().await;
    sa.watch(game, None).await;
    sb.watch(game, None).await;
    two_moves_each(&a, game, &mut [(&a, &mut sa), (&b, &mut sb)]).await;
    assert_eq!(sb.act(game, json!({"type": "resign"})).await["type"], "ack");
    sb.until(|v| v["type"] == "update" && v["status"] == "finished").await;

    let (s, pa) = a.get(&format!("/api/players/{an}")).await;
    assert_eq!(s, 200, "{pa}");
    let (_, pb) = a.get(&format!("/api/players/{bn}")).await;
    let (ra, ga) = rating_in(&pa, "classic").expect("the winner is rated");
    let (rb, gb) = rating_in(&pb, "classic").expect("the loser is rated");
    assert!(ra > 1500 && rb < 1500, "{ra} {rb}");
    assert_eq!((ga, gb), (1, 1));
    assert_eq!(pa["history"][0]["game"], game);
    assert_eq!(pa["history"][0]["place"], 1);
    assert_eq!(pa["history"][0]["after"], ra);
    assert_eq!(pa["games"][0]["id"], game, "the profile lists the game");
    // The game shows what it changed.
    let (_, info) = a.get(&format!("/api/games/{game}")).await;
    let change = info["seats"][0]["rating"]["change"].as_i64().unwrap();
    assert_eq!(change, ra - 1500);
    assert!(info["seats"][1]["rating"]["change"].as_i64().unwrap() < 0);
    // Restarting (the table replays and finishes again) counts nothing twice.
    let database = server.database.clone();
    server.stop().await;
    let server = TestServer::start(&database).await;
    let c = Client::guest(&server).await;
    let (_, info) = c.get(&format!("/api/games/{game}")).await;
    assert_eq!(info["status"], "finished");
    let (_, pa) = c.get(&format!("/api/players/{an}")).await;
    assert_eq!(rating_in(&pa, "classic"), Some((ra, 1)));
    assert_eq!(c.get("/api/players/nobody-by-this-name").await.0, 404);
    server.stop().await;
}

async fn a_multiplayer_rated_game_ranks_every_seat(db: &str) {
    let server = TestServer::start(db).await;
    let (a, an) = player(&server, "ann").await;
    let (b, bn) = player(&server, "ben").await;
    let (c, cn) = player(&server, "cat").await;
    let game = rated_game(&a, &[&b, &c], json!("gobeyond"), "hex:3").await;
    let mut sa = a.socket().await;
    let mut sb = b.socket().await;
    let mut sc = c.socket().await;
    for s in [&mut sa, &mut sb, &mut sc] {
        s.watch(game, None).await;
    }
    two_moves_each(&a, game, &mut [(&a, &mut sa), (&b, &mut sb), (&c, &mut sc)]).await;
    // C resigns first (last place), then B (second): A wins.
    for s in [&mut sc, &mut sb] {
        assert_eq!(s.act(game, json!({"type": "resign"})).await["type"], "ack");
    }
    let sync = sa.watch(game, None).await;
    if sync["info"]["status"] != "finished" {
        sa.until(|v| v["type"] == "update" && v["status"] == "finished").await;
    }
    let mut values = Vec::new();
    for n in [&an, &bn, &cn] {
        let (_, p) = a.get(&format!("/api/players/{n}")).await;
        values.push(rating_in(&p, "gobeyond").expect("rated").0);
    }
    assert!(values[0] > values[1] && values[1] > values[2], "places 1, 2, 3: {values:?}");
    server.stop().await;
}

/// Two rated games of one player end at the same moment: both count (no lost update).
async fn simultaneous_endings_count_every_game(db: &str) {
    let server = TestServer::start(db).await;
    let (a, an) = player(&server, "eve").await;
    let (b, _) = player(&server, "fay").await;
    let (c, _) = player(&server, "gus").await;
    let g1 = rated_game(&a, &[&b], json!("chinese"), "square:9").await;
    let g2 = rated_game(&a, &[&c], json!("chinese"), "square:9").await;
    let mut sa = a.socket().await;
    let mut sb = b.socket().await;
    let mut sc = c.socket().await;
    sb.watch(g1, None).await;
    sc.watch(g2, None).await;
    sa.watch(g1, None).await;
    two_moves_each(&a, g1, &mut [(&a, &mut sa), (&b, &mut sb)]).await;
    sa.watch(g2, None).await;
    two_moves_each(&a, g2, &mut [(&a, &mut sa), (&c, &mut sc)]).await;
    let (r1, r2) = tokio::join!(sb.act(g1, json!({"type": "resign"})), sc.act(g2, json!({"type": "resign"})));
    assert_eq!((r1["type"].as_str(), r2["type"].as_str()), (Some("ack"), Some("ack")));
    let mut games = 0;
    for _ in 0..50 {
        let (_, p) = a.get(&format!("/api/players/{an}")).await;
        games = rating_in(&p, "classic").map_or(0, |r| r.1);
        if games == 2 {
            assert_eq!(p["history"].as_array().unwrap().len(), 2);
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    assert_eq!(games, 2);
    server.stop().await;
}

async fn who_may_play_rated_games(db: &str) {
    let server = TestServer::start(db).await;
    let guest = Client::guest(&server).await;
    let (a, _) = player(&server, "hal").await;
    let rated = |extra: Value| {
        let mut body = json!({"rules": "chinese", "map": "square:9", "players": 2, "rated": true,
                              "time": {"kind": "absolute", "main_seconds": 600}});
        for (k, v) in extra.as_object().unwrap() {
            body[k] = v.clone();
        }
        body
    };
    let (s, v) = guest.post("/api/games", rated(json!({}))).await;
    assert_eq!(s, 403, "a guest cannot play rated: {v}");
    assert!(v["error"].as_str().unwrap().contains("register"), "{v}");
    let (s, v) =
        a.post("/api/games", rated(json!({"seats": [{"kind": "me"}, {"kind": "bot", "level": 1}]}))).await;
    assert_eq!(s, 400, "{v}");
    assert!(v["error"].as_str().unwrap().contains("server bots"), "{v}");
    let (s, v) = a.post("/api/games", rated(json!({"public": false}))).await;
    assert_eq!(s, 400, "{v}");
    let game = a.create(rated(json!({}))).await;
    let (s, v) = guest.post(&format!("/api/games/{game}/join"), json!({})).await;
    assert_eq!(s, 403, "a guest cannot join a rated game: {v}");
    let (_, list) = guest.get("/api/games").await;
    let listed = list["games"].as_array().unwrap().iter().find(|g| g["id"] == game).cloned().unwrap();
    assert_eq!(listed["rated"], true);
    assert_eq!(listed["seats"][0]["rating"]["value"], 1500, "{listed}");
    // Unrated games show ratings too, guests have none.
    let casual = guest.create(json!({"rules": "chinese", "map": "square:9", "players": 2})).await;
    let (_, info) = guest.get(&format!("/api/games/{casual}")).await;
    assert_eq!(info["rated"], false);
    assert!(info["seats"][0]["rating"].is_null(), "{info}");
    server.stop().await;
}

/// A two-player and a three-player game of one system are different skills: each has its own
/// rating, and only the two-player one reads as a kyu/dan rank in classic Go.
async fn ratings_are_kept_per_number_of_players(db: &str) {
    let server = TestServer::start(db).await;
    let (a, an) = player(&server, "ida").await;
    let (b, _) = player(&server, "jon").await;
    let (c, _) = player(&server, "kim").await;
    let two = rated_game(&a, &[&b], json!("chinese"), "square:9").await;
    let three = rated_game(&a, &[&b, &c], json!("chinese"), "square:9").await;
    let mut sa = a.socket().await;
    let mut sb = b.socket().await;
    let mut sc = c.socket().await;
    for game in [two, three] {
        for s in [&mut sa, &mut sb, &mut sc] {
            s.watch(game, None).await;
        }
        if game == two {
            two_moves_each(&a, game, &mut [(&a, &mut sa), (&b, &mut sb)]).await;
            assert_eq!(sb.act(game, json!({"type": "resign"})).await["type"], "ack");
        } else {
            two_moves_each(&a, game, &mut [(&a, &mut sa), (&b, &mut sb), (&c, &mut sc)]).await;
            for s in [&mut sc, &mut sb] {
                assert_eq!(s.act(game, json!({"type": "resign"})).await["type"], "ack");
            }
        }
    }
    let mut profile = Value::Null;
    for _ in 0..50 {
        profile = a.get(&format!("/api/players/{an}")).await.1;
        if profile["history"].as_array().map_or(0, Vec::len) == 2 {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    let ratings = profile["ratings"].as_array().expect("ratings");
    let pools: Vec<(i64, i64, Option<&str>)> = ratings
        .iter()
        .map(|r| {
            (
                r["players"].as_i64().unwrap(),
                r["rating"]["games"].as_i64().unwrap(),
                r["rating"]["rank"].as_str(),
            )
        })
        .collect();
    assert_eq!(pools.len(), 2, "{profile}");
    assert_eq!(
        (pools[0].0, pools[0].1, pools[1].0, pools[1].1),
        (2, 1, 3, 1),
        "one game in each pool: {profile}"
    );
    assert!(pools[0].2.is_some_and(|r| r.ends_with('k')), "the two-player rating reads as a rank: {profile}");
    assert_eq!(pools[1].2, None, "no rank between three players");
    let history: Vec<i64> =
        profile["history"].as_array().unwrap().iter().map(|h| h["players"].as_i64().unwrap()).collect();
    assert_eq!(history, [3, 2], "newest first, each with its number of players");
    let record: Vec<(i64, i64, i64)> = profile["record"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| (r["players"].as_i64().unwrap(), r["won"].as_i64().unwrap(), r["lost"].as_i64().unwrap()))
        .collect();
    assert_eq!(record, [(2, 1, 0), (3, 1, 0)], "won both, one per number of players: {profile}");
    // The game page shows each seat its rating of that game's pool.
    let (_, info) = a.get(&format!("/api/games/{three}")).await;
    assert_eq!(info["seats"][0]["rating"]["games"], 1, "{info}");
    server.stop().await;
}

/// A database from before ratings were kept per number of players: each old rating becomes the
/// rating for the number of players of its owner's latest rated game in the system.
#[tokio::test]
async fn old_ratings_move_to_the_pool_of_their_latest_game() {
    use sqlx::{Connection, migrate::Migrator};
    let database = sqlite_url();
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("migrations/sqlite");
    let mut before = Migrator::new(dir).await.unwrap();
    before.migrations =
        before.migrations.iter().filter(|m| m.version < 13).cloned().collect::<Vec<_>>().into();
    let mut db = sqlx::SqliteConnection::connect(&format!("{database}?mode=rwc")).await.unwrap();
    before.run(&mut db).await.unwrap();
    for (sql, n) in [
        (
            "INSERT INTO users (id, name, name_key, kind, created_ms) VALUES ($1, 'u' || $1, NULL, 'registered', 0)",
            3,
        ),
        (
            "INSERT INTO games (id, creator, setup, status, public, created_ms) VALUES ($1, 1, '{}', 'finished', 1, 0)",
            2,
        ),
    ] {
        for i in 1..=n {
            sqlx::query(sql).bind(i).execute(&mut db).await.unwrap();
        }
    }
    // Game 1 had two seats, game 2 (later) three; user 3 played only game 1.
    for (game, seat, user) in [(1, 0, 1), (1, 1, 3), (2, 0, 1), (2, 1, 2), (2, 2, 3)] {
        sqlx::query("INSERT INTO seats (game_id, seat, user_id) VALUES ($1, $2, $3)")
            .bind(game)
            .bind(seat)
            .bind(user)
            .execute(&mut db)
            .await
            .unwrap();
    }
    for (game, user, at) in [(1, 1, 10), (1, 3, 10), (2, 1, 20), (2, 2, 20)] {
        sqlx::query(
            "INSERT INTO rating_history (game_id, user_id, system, place, mu_before, sigma_before, mu_after, sigma_after, at_ms) \
             VALUES ($1, $2, 'classic', 1, 25, 8, 26, 7, $3)",
        )
        .bind(game)
        .bind(user)
        .bind(at)
        .execute(&mut db)
        .await
        .unwrap();
    }
    for user in 1..=3 {
        sqlx::query(
            "INSERT INTO ratings (user_id, system, mu, sigma, games) VALUES ($1, 'classic', 26, 7, 1)",
        )
        .bind(user)
        .execute(&mut db)
        .await
        .unwrap();
    }
    db.close().await.unwrap();

    let server = TestServer::start(&database).await;
    let client = Client::guest(&server).await;
    let mut pools = Vec::new();
    for user in 1..=3 {
        let (status, p) = client.get(&format!("/api/players/u{user}")).await;
        assert_eq!(status, 200, "{p}");
        pools.push(p["ratings"][0]["players"].as_i64().unwrap());
        assert_eq!(p["ratings"][0]["rating"]["value"], 26 * 60);
    }
    assert_eq!(pools, [3, 3, 2], "each rating kept for its latest game's number of players");
    let (_, p) = client.get("/api/players/u1").await;
    let history: Vec<i64> =
        p["history"].as_array().unwrap().iter().map(|h| h["players"].as_i64().unwrap()).collect();
    assert_eq!(history, [3, 2]);
    server.stop().await;
}
