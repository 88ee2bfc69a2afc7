//! Games of bots only and open games nobody joins: paused, bounded per player, expired.

use std::time::Duration;

use crate::{
    common::{Client, test_limits},
    healthy, start,
};
use gobeyond_server::limit::Limits;
use serde_json::{Value, json};

#[tokio::test]
async fn games_of_bots_only_pause_when_nobody_watches_and_are_bounded_per_player() {
    let limits = Limits { unload_after: Duration::from_millis(600), ..test_limits() };
    let server = start(limits).await;
    let owner = Client::guest(&server).await;
    // Strong enough that a game lasts well past the patience.
    let bots = json!({"rules": "classic", "map": "square:19", "players": 2,
        "seats": [{"kind": "bot", "level": 5}, {"kind": "bot", "level": 5}]});
    let game = owner.create(bots.clone()).await;
    for _ in 0..2 {
        owner.create(bots.clone()).await;
    }
    let (status, body) = owner.post("/api/games", bots.clone()).await;
    assert_eq!(status, 429, "a fourth game of bots only at once: {body}");
    // Unwatched, the bots stop searching and the games leave memory.
    let seq = |info: &Value| info["seq"].as_u64().unwrap();
    let mut paused = None;
    for _ in 0..100 {
        tokio::time::sleep(Duration::from_millis(200)).await;
        let health = healthy(&server).await;
        if health["games_loaded"] == 0 && health["bot_searches"] == json!([0, 0]) {
            let info = owner.get(&format!("/api/games/{game}")).await.1;
            assert_eq!(info["status"], "live", "{info}");
            paused = Some(seq(&info));
            break;
        }
    }
    let paused = paused.expect("unwatched games of bots only pause and leave memory");
    tokio::time::sleep(Duration::from_millis(1000)).await;
    assert_eq!(seq(&owner.get(&format!("/api/games/{game}")).await.1), paused, "no move while paused");
    // Watched again, they play on.
    let mut socket = owner.socket().await;
    socket.watch(game, None).await;
    socket.until(|m| m["type"] == "update" && m["seq"].as_u64() > Some(paused)).await;
    server.stop().await;
}

#[tokio::test]
async fn open_games_nobody_joins_expire() {
    let limits = Limits {
        open_game_expiry: Duration::from_millis(400),
        unload_after: Duration::from_millis(200),
        ..test_limits()
    };
    let server = start(limits).await;
    let guest = Client::guest(&server).await;
    let game = guest.create(json!({"rules": "classic", "map": "square:9", "players": 2})).await;
    let mut socket = guest.socket().await;
    socket.watch(game, None).await;
    let gone = socket.until(|v| v["type"] == "error").await;
    assert_eq!(gone["code"], "expired", "{gone}");
    let (status, _) = guest.get(&format!("/api/games/{game}")).await;
    assert_eq!(status, 404);
    server.stop().await;
}

#[tokio::test]
async fn bot_only_games_draw_on_their_own_budget() {
    let limits = Limits { bot_threads: 1, bot_only_threads: 1, ..test_limits() };
    let server = start(limits).await;
    let owner = Client::guest(&server).await;
    // Bot-only games at the strongest level keep their budget busy...
    for _ in 0..3 {
        owner
            .create(json!({"rules": "classic", "map": "square:9", "players": 2,
                "seats": [{"kind": "bot", "level": 10}, {"kind": "bot", "level": 10}]}))
            .await;
    }
    let mut busy = false;
    for _ in 0..200 {
        let searches = healthy(&server).await["bot_searches"].clone();
        if searches == json!([0, 1]) {
            busy = true;
            break;
        }
        assert_eq!(searches[0], 0, "bot-only games never take the people's budget: {searches}");
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    assert!(busy, "the bot-only budget is in use");
    // ...while a person's game against a bot still gets its moves (before, it queued behind
    // them all).
    let person = Client::guest(&server).await;
    let game = person
        .create(json!({"rules": "classic", "map": "square:9", "players": 2,
            "seats": [{"kind": "me"}, {"kind": "bot", "level": 1}]}))
        .await;
    let mut s = person.socket().await;
    s.watch(game, None).await;
    for (i, at) in ["C3", "G7", "C7"].iter().enumerate() {
        let ack = s.act(game, json!({"type": "place", "at": at})).await;
        assert_eq!(ack["type"], "ack", "{ack}");
        // The bot answers: the update after ours.
        let want = 2 * (i as u64 + 1);
        s.until(|v| v["type"] == "update" && v["seq"].as_u64() == Some(want)).await;
    }
    healthy(&server).await;
    server.stop().await;
}
