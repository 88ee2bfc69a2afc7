//! Any instance serves any game: a player and a spectator on instances that do not own it.

use super::*;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_on_another_instance_plays_a_whole_game_and_a_spectator_on_a_third_sees_it_all() {
    let db = common::postgres_url().await;
    let instances = vec![
        Instance::start(&db, "one").await,
        Instance::start(&db, "two").await,
        Instance::start(&db, "three").await,
    ];
    let creator = Client::guest_at(&instances[0].base).await;
    let game = creator
        .create(json!({"rules": "chinese", "map": "square:5", "players": 2,
                       "seats": [{"kind": "me"}, {"kind": "bot", "level": 1}]}))
        .await;
    let owner = owner_of(&instances, game).await;
    let (player_at, spectator_at) = ((owner + 1) % 3, (owner + 2) % 3);
    let player = at(&creator, &instances[player_at].base);
    let spectator = Client::guest_at(&instances[spectator_at].base).await;
    let mut watching = spectator.socket().await;
    let sync = watching.watch(game, None).await;
    let mut seen = sync["seq"].as_u64().unwrap();
    let mut socket = player.socket().await;
    // The lobby and the chat are the same on every instance.
    for instance in &instances {
        let (_, live) = at(&spectator, &instance.base).get("/api/games?status=live").await;
        assert!(live["games"].as_array().unwrap().iter().any(|g| g["id"] == game), "{live}");
    }
    socket.send(json!({"type": "chat", "game": game, "text": "good luck"})).await;
    let said = watching.until(|v| v["type"] == "chat").await;
    assert_eq!(said["text"], "good luck");
    let (_, chat) = at(&spectator, &instances[owner].base).get(&format!("/api/games/{game}/chat")).await;
    assert!(chat.to_string().contains("good luck"), "{chat}");
    let mut tried = 0;
    let mut acked = Vec::new();
    while acked.len() < 6 {
        acked.push(play_one(&mut socket, game, &mut tried).await.expect("the instance answers"));
    }
    assert_eq!(socket.act(game, json!({"type": "resign"})).await["type"], "ack");
    // The spectator saw every action, in order, up to the end.
    loop {
        let v = watching.until(|v| v["type"] == "update" && v["game"] == game).await;
        let seq = v["seq"].as_u64().unwrap();
        assert_eq!(seq, seen + 1, "the spectator's updates come in order, none missing: {v}");
        seen = seq;
        if v["status"] == "finished" {
            break;
        }
    }
    let log = record(&player, game).await;
    assert_eq!(log.len() as u64, seen);
    assert_logged_once(&log, 0, &acked, game);
    assert_eq!(game_info(&spectator, game).await["status"], "finished");
    assert!(instances[owner].owns(game).await, "the game stayed with its owner");
    assert!(!instances[player_at].owns(game).await && !instances[spectator_at].owns(game).await);
}
