//! Instances killed (SIGKILL) or restarted: their games are taken over or resumed, and no
//! acknowledged action is lost or played twice.

use super::*;

/// A game with its players' sockets, and what was acknowledged to each seat.
struct Played {
    game: i64,
    players: Vec<(Client, u64)>,
    acked: HashMap<u64, Vec<(u64, Value)>>,
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn killing_an_instance_in_mid_play_loses_nothing_and_every_game_finishes() {
    let db = common::postgres_url().await;
    let mut instances = vec![
        Instance::start(&db, "one").await,
        Instance::start(&db, "two").await,
        Instance::start(&db, "three").await,
    ];
    let clock = json!({"kind": "fischer", "main_seconds": 600.0, "increment_seconds": 5.0});
    let mut games: Vec<Played> = Vec::new();
    for i in 0..4 {
        let a = Client::guest_at(&instances[i % 3].base).await;
        let players = if i % 2 == 0 {
            let game =
                a.create(json!({"rules": "chinese", "map": "square:5", "players": 2, "time": clock})).await;
            let b = Client::guest_at(&instances[(i + 1) % 3].base).await;
            assert_eq!(b.post(&format!("/api/games/{game}/join"), json!({})).await.0, 200);
            games.push(Played { game, players: Vec::new(), acked: HashMap::new() });
            vec![(a, 0), (b, 1)]
        } else {
            let game = a
                .create(json!({"rules": "chinese", "map": "square:5", "players": 2, "time": clock,
                               "seats": [{"kind": "me"}, {"kind": "bot", "level": 1}]}))
                .await;
            games.push(Played { game, players: Vec::new(), acked: HashMap::new() });
            vec![(a, 0)]
        };
        games.last_mut().unwrap().players = players;
    }
    // Two moves in each game, then the instance running the most games dies.
    let mut tried: HashMap<(i64, u64), usize> = HashMap::new();
    for g in &mut games {
        for round in 0..2 {
            for (client, seat) in &g.players {
                let mut s = client.socket().await;
                let t = tried.entry((g.game, *seat)).or_default();
                let _ = round;
                if let Some(a) = play_one(&mut s, g.game, t).await {
                    g.acked.entry(*seat).or_default().push(a);
                }
            }
        }
    }
    let mut owners = HashMap::<usize, Vec<i64>>::new();
    for g in &games {
        owners.entry(owner_of(&instances, g.game).await).or_default().push(g.game);
    }
    let (&victim, victims_games) = owners.iter().max_by_key(|(_, g)| g.len()).unwrap();
    let victims_games = victims_games.clone();
    eprintln!("owners: {owners:?}; instance {victim} dies");
    let survivor = (victim + 1) % 3;
    let reader = Client::guest_at(&instances[survivor].base).await;
    // Its games' clocks as they stand: the turn running keeps its deadline across the takeover.
    let mut deadlines = HashMap::new();
    for &game in &victims_games {
        let info = game_info(&reader, game).await;
        deadlines.insert(game, info["clock"]["deadline_ms"].as_i64().expect("a running clock"));
    }
    instances[victim].kill();
    let killed = Instant::now();
    // Its games move to the others once its leases expire.
    for &game in &victims_games {
        let mut taken = None;
        for _ in 0..100 {
            for (i, instance) in instances.iter().enumerate() {
                if i != victim && instance.owns(game).await {
                    taken = Some(i);
                }
            }
            if taken.is_some() {
                break;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        assert!(taken.is_some(), "game {game} was taken over");
        eprintln!("game {game} taken over by {taken:?} after {:?}", killed.elapsed());
        let info = game_info(&reader, game).await;
        let deadline = info["clock"]["deadline_ms"].as_i64().unwrap();
        // A bot may have moved since (then a new turn began): only an unmoved turn compares.
        if info["seq"]
            == json!(
                games.iter().find(|g| g.game == game).map(|g| g.acked.values().map(Vec::len).sum::<usize>())
            )
        {
            assert!(
                (deadline - deadlines[&game]).abs() <= 1000,
                "game {game}: the deadline moved from {} to {deadline} over the takeover",
                deadlines[&game]
            );
        }
    }
    assert!(killed.elapsed() < Duration::from_secs(30), "takeovers took {:?}", killed.elapsed());
    // Everybody goes on, through the instances still up, until each game is over.
    for g in &mut games {
        for (client, seat) in &g.players {
            let client = at(client, &instances[survivor].base);
            let mut s = client.socket().await;
            let t = tried.entry((g.game, *seat)).or_default();
            while g.acked.get(seat).map_or(0, Vec::len) < 5 {
                let a = play_one(&mut s, g.game, t).await.expect("a surviving instance answers");
                g.acked.entry(*seat).or_default().push(a);
                if g.players.len() == 2 {
                    break;
                }
            }
        }
    }
    for g in &games {
        let (client, _) = &g.players[0];
        let client = at(client, &instances[survivor].base);
        let mut s = client.socket().await;
        let mut answer = s.act(g.game, json!({"type": "resign"})).await;
        for _ in 0..20 {
            if answer["type"] == "ack" {
                break;
            }
            tokio::time::sleep(Duration::from_millis(300)).await;
            answer = s.act(g.game, json!({"type": "resign"})).await;
        }
        assert_eq!(answer["type"], "ack", "{answer}");
        let info = game_info(&client, g.game).await;
        assert_eq!(info["status"], "finished", "game {} finished", g.game);
        let log = record(&client, g.game).await;
        for (seat, acked) in &g.acked {
            assert_logged_once(&log, *seat, acked, g.game);
        }
    }
}

/// An instance restarted under the same id (`--instance`) finds its predecessor's leases under
/// its name: it runs those games at once — their clocks and bots — instead of holding them
/// unrun until a client asks (issue 47).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_restarted_instance_runs_the_games_it_holds() {
    let db = common::postgres_url().await;
    let mut first = Instance::start(&db, "solo").await;
    let player = Client::guest_at(&first.base).await;
    // The player is to move, with 4 s on the clock, and never moves.
    let game = player
        .create(json!({"rules": "chinese", "map": "square:5", "players": 2,
                       "time": {"kind": "absolute", "main_seconds": 4.0},
                       "seats": [{"kind": "me"}, {"kind": "bot", "level": 1}]}))
        .await;
    assert!(first.owns(game).await);
    first.kill();
    let again = Instance::start(&db, "solo").await;
    let watcher = at(&player, &again.base);
    // Nobody asks for the game: its clock runs out all the same, on the restarted instance.
    let mut status = Value::Null;
    for _ in 0..80 {
        status = game_info(&watcher, game).await["status"].clone();
        if status == "finished" {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!(status, "finished", "the clock of a game the restarted instance holds ran out");
    let info = game_info(&watcher, game).await;
    assert_eq!(info["outcome"]["reason"], "time", "{info}");
}

/// Issue 47: the owner commits an action and dies before answering. The player hears that the
/// fate of the action is unknown (not "it was not applied"); the log has it once; a resend for
/// the same position is refused as stale, never played twice.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_kill_between_commit_and_reply_leaves_the_answer_and_the_log_agreeing() {
    let db = common::postgres_url().await;
    let hook = [("GOBEYOND_TEST_REPLY_DELAY_MS", "2000")];
    let mut instances = Vec::new();
    for name in ["one", "two", "three"] {
        instances.push(Instance::start_with(&db, name, free_port(), &hook).await);
    }
    let a = Client::guest_at(&instances[0].base).await;
    let b = Client::guest_at(&instances[1].base).await;
    let game = a.create(json!({"rules": "chinese", "map": "square:5", "players": 2})).await;
    assert_eq!(b.post(&format!("/api/games/{game}/join"), json!({})).await.0, 200);
    let owner = owner_of(&instances, game).await;
    let (relay, reader) = ((owner + 1) % 3, (owner + 2) % 3);
    let mut black = at(&a, &instances[relay].base).socket().await;
    let played = tokio::spawn(async move {
        let answer = black.act_after(game, json!({"type": "place", "at": "C3"}), 0).await;
        (answer, black)
    });
    // Committed, its answer held back by the hook: the owner dies now.
    tokio::time::sleep(Duration::from_millis(700)).await;
    instances[owner].kill();
    let (answer, mut black) = played.await.unwrap();
    assert_eq!(
        (answer["type"].as_str(), answer["code"].as_str()),
        (Some("error"), Some("unknown")),
        "{answer}"
    );
    // Once another instance runs the game, the log has the move, once.
    let reading = at(&a, &instances[reader].base);
    let mut log = Vec::new();
    for _ in 0..100 {
        let (status, r) = reading.get(&format!("/api/games/{game}/record")).await;
        if status == 200 {
            log = r["actions"].as_array().unwrap().clone();
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let placed: Vec<&str> = log.iter().filter_map(|a| a["at"].as_str()).collect();
    assert_eq!(placed, ["C3"], "{log:?}");
    // The resend for the same position is not played again.
    let mut resend = black.act_after(game, json!({"type": "place", "at": "C3"}), 0).await;
    for _ in 0..40 {
        if resend["code"] != "unknown" && !resend["code"].is_null() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
        resend = black.act_after(game, json!({"type": "place", "at": "C3"}), 0).await;
    }
    assert_eq!(resend["code"], "stale", "{resend}");
}
