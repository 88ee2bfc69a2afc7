//! Backups (docs/deploy.md, "Backups"): a server in mid-game is backed up — an SQLite copy and a
//! JSON export — while moves keep coming; each backup is restored into a new database (the JSON
//! into SQLite and PostgreSQL), and every action acknowledged before the backup began is there,
//! in order, and a server on the restored database shows the game.

use std::sync::{
    Arc,
    atomic::{AtomicU64, Ordering},
};

use crate::common::{Client, TestServer, postgres_url, sqlite_url};
use gobeyond_server::store::Store;
use serde_json::json;

/// Points of one colour of a checkerboard: stones there never touch, so every move is legal.
fn spread_points() -> Vec<String> {
    let columns: Vec<char> = "ABCDEFGHJKLMNOPQRST".chars().collect();
    let mut points = Vec::new();
    for y in 1..=19 {
        for (x, c) in columns.iter().enumerate() {
            if (x + y) % 2 == 0 {
                points.push(format!("{c}{y}"));
            }
        }
    }
    points
}

/// Plays the two players' moves in turn until `moves` are acknowledged, counting each ack.
async fn play(a: Client, b: Client, game: i64, moves: usize, acked: Arc<AtomicU64>) {
    // Not watching: a socket that is sent every update and reads none is dropped as too slow.
    let mut sa = a.socket().await;
    let mut sb = b.socket().await;
    for (i, at) in spread_points().into_iter().take(moves).enumerate() {
        let socket = if i % 2 == 0 { &mut sa } else { &mut sb };
        let r = socket.act(game, json!({"type": "place", "at": at})).await;
        assert_eq!(r["type"], "ack", "{r}");
        acked.fetch_add(1, Ordering::SeqCst);
        // Under a socket's message rate (docs/security.md: 20 a second, a burst of 40), which
        // answers what goes beyond with an error that names no request.
        tokio::time::sleep(std::time::Duration::from_millis(30)).await;
    }
    sa.close().await;
    sb.close().await;
}

/// The restored database holds actions 1..=`acked` of `game` (at least), numbered without gaps.
async fn holds_the_game(url: &str, game: i64, acked: u64, users: i64) {
    let store = Store::connect(url).await.expect("the restored database opens");
    let actions = store.actions(game, 0).await.unwrap();
    assert!(actions.len() as u64 >= acked, "{url}: {} actions, {acked} were acknowledged", actions.len());
    for (i, (seq, text)) in actions.iter().enumerate() {
        assert_eq!(*seq, i as u64 + 1, "{url}: the log has a gap");
        assert!(text.contains("place"), "{text}");
    }
    assert_eq!(store.user_count().await.unwrap(), users, "{url}: accounts");
    store.close().await;
    // A server on it shows the game and its record.
    let server = TestServer::start(url).await;
    let viewer = Client::guest(&server).await;
    let (s, record) = viewer.get(&format!("/api/games/{game}/record")).await;
    assert_eq!(s, 200, "{record}");
    assert!(record["actions"].as_array().unwrap().len() as u64 >= acked, "{record}");
    server.stop().await;
}

async fn backup_in_mid_game(db: &str) {
    let server = TestServer::start(db).await;
    let a = Client::guest(&server).await;
    let b = Client::guest(&server).await;
    let game = a.create(json!({"rules": "chinese", "map": "square:19", "players": 2})).await;
    let (s, v) = b.post(&format!("/api/games/{game}/join"), json!({})).await;
    assert_eq!(s, 200, "{v}");
    let acked = Arc::new(AtomicU64::new(0));
    let player = tokio::spawn(play(a, b, game, 160, acked.clone()));
    while acked.load(Ordering::SeqCst) < 40 {
        tokio::time::sleep(std::time::Duration::from_millis(5)).await;
    }

    // Backed up while the moves go on.
    let dir = std::env::temp_dir().join(format!(
        "gobeyond-backup-{}-{}",
        std::process::id(),
        crate::common::unique()
    ));
    std::fs::create_dir_all(&dir).unwrap();
    let before_copy = acked.load(Ordering::SeqCst);
    let copy = dir.join("copy.db");
    let copied = server.app.store.backup_sqlite(&copy).await;
    let before_export = acked.load(Ordering::SeqCst);
    let mut export = Vec::new();
    let moved = server.app.store.export_json(&mut export).await.unwrap();
    assert!(moved.rows["actions"] >= before_export, "{moved:?}");
    assert!(!moved.rows.contains_key("sessions"), "sessions are not exported");
    player.await.unwrap();
    let users = server.app.store.user_count().await.unwrap();
    server.stop().await;

    if db.starts_with("sqlite") {
        copied.unwrap();
        holds_the_game(&format!("sqlite://{}", copy.display()), game, before_copy, users).await;
    } else {
        let refused = copied.unwrap_err().to_string();
        assert!(refused.contains("pg_dump"), "{refused}");
    }
    for target in [sqlite_url(), postgres_url().await] {
        let store = Store::connect(&target).await.unwrap();
        let moved = store.import_json(export.as_slice()).await.expect("the export imports");
        assert!(moved.rows["actions"] >= before_export);
        // A second import into the same database is refused: it holds accounts now.
        let again = store.import_json(export.as_slice()).await.unwrap_err().to_string();
        assert!(again.contains("holds accounts already"), "{again}");
        store.close().await;
        holds_the_game(&target, game, before_export, users).await;
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test]
async fn backup_sqlite() {
    backup_in_mid_game(&sqlite_url()).await;
}

#[tokio::test]
async fn backup_postgres() {
    backup_in_mid_game(&postgres_url().await).await;
}

#[tokio::test]
async fn a_bad_export_is_refused_with_what_was_wrong() {
    let store = Store::connect(&sqlite_url()).await.unwrap();
    let mut export = Vec::new();
    store.export_json(&mut export).await.unwrap();
    let header = String::from_utf8(export).unwrap().lines().next().unwrap().to_string();
    let cases = [
        (String::new(), "empty"),
        ("{\"format\": \"something else\"}\n".to_string(), "not a GoBeyond export"),
        (header.replace("\"version\":1", "\"version\":99"), "version 99"),
        (header.replace("\"migration\":", "\"migration\":1"), "schema"),
        (format!("{header}\n{{\"table\": \"nowhere\", \"row\": {{}}}}\n"), "no table \"nowhere\""),
        (
            format!("{header}\n{{\"table\": \"users\", \"row\": {{\"no_such\": 1}}}}\n"),
            "no column \"no_such\"",
        ),
        (format!("{header}\nnot json\n"), "line 2"),
    ];
    for (text, expected) in cases {
        let fresh = Store::connect(&sqlite_url()).await.unwrap();
        let refused = fresh.import_json(text.as_bytes()).await.unwrap_err().to_string();
        assert!(refused.contains(expected), "{text:?}: {refused}");
        assert_eq!(fresh.user_count().await.unwrap(), 0, "a refused import left rows behind");
        fresh.close().await;
    }
}
