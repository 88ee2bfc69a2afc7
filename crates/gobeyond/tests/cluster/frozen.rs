//! Instances frozen (SIGSTOP) past their leases: fenced while another owns their games, and
//! serving again once woken.

use super::*;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_frozen_owner_resumed_after_a_takeover_neither_appends_nor_broadcasts() {
    let db = common::postgres_url().await;
    let instances = vec![
        Instance::start(&db, "one").await,
        Instance::start(&db, "two").await,
        Instance::start(&db, "three").await,
    ];
    let a = Client::guest_at(&instances[0].base).await;
    let b = Client::guest_at(&instances[1].base).await;
    let game = a.create(json!({"rules": "chinese", "map": "square:5", "players": 2})).await;
    assert_eq!(b.post(&format!("/api/games/{game}/join"), json!({})).await.0, 200);
    let owner = owner_of(&instances, game).await;
    let other = (owner + 1) % 3;
    // Black plays through the owner itself, White through another instance.
    let mut black = at(&a, &instances[owner].base).socket().await;
    let mut white = at(&b, &instances[other].base).socket().await;
    assert_eq!(black.act(game, json!({"type": "place", "at": "C3"})).await["seq"], 1);
    assert_eq!(white.act(game, json!({"type": "place", "at": "B2"})).await["seq"], 2);
    // A spectator on the owner: what it is sent after the owner wakes must agree with the log.
    let mut watching = Client::guest_at(&instances[owner].base).await.socket().await;
    watching.watch(game, None).await;
    instances[owner].signal("-STOP");
    let frozen = Instant::now();
    // Past the lease, another instance takes the game over (it is live: somebody must run its
    // clock and bots).
    let mut taken = None;
    while taken.is_none() && frozen.elapsed() < Duration::from_secs(20) {
        tokio::time::sleep(Duration::from_millis(200)).await;
        for i in [(owner + 1) % 3, (owner + 2) % 3] {
            if instances[i].owns(game).await {
                taken = Some(i);
            }
        }
    }
    assert!(taken.is_some(), "another instance took the game over");
    instances[owner].signal("-CONT");
    // At once, Black plays again through the old owner's socket: the old owner must not log
    // it itself (its copy of the game is stale); it reaches the new owner, after a retry if
    // need be. The move names the position it follows, so a resend of one that was applied
    // after all (its answer `unknown`) is refused as stale, never played twice.
    let mut answer = black.act_after(game, json!({"type": "place", "at": "D4"}), 2).await;
    for _ in 0..30 {
        if answer["type"] == "ack" || answer["code"] == "stale" {
            break;
        }
        assert!(
            answer["code"].is_null() || answer["code"] == "unknown",
            "not refused by the rules: {answer}"
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
        answer = black.act_after(game, json!({"type": "place", "at": "D4"}), 2).await;
    }
    assert!(answer["seq"] == 3 || answer["code"] == "stale", "{answer}");
    // The new owner knows that move: White's next one follows it.
    assert_eq!(white.act(game, json!({"type": "place", "at": "B4"})).await["seq"], 4);
    let reader = at(&b, &instances[other].base);
    let log = record(&reader, game).await;
    let placed: Vec<&str> = log.iter().map(|a| a["at"].as_str().unwrap_or("")).collect();
    assert_eq!(placed, ["C3", "B2", "D4", "B4"], "{log:?}");
    assert!(!instances[owner].owns(game).await, "the old owner gave the game up");
    // Whatever the spectator on the old owner was sent after it woke agrees with the log.
    let until = Instant::now() + Duration::from_secs(2);
    let mut last = 0;
    while Instant::now() < until {
        let Ok(v) = tokio::time::timeout(Duration::from_millis(300), watching.next()).await else { continue };
        match v["type"].as_str() {
            Some("update") => {
                let seq = v["seq"].as_u64().unwrap();
                assert_eq!(
                    v["action"]["at"],
                    log[seq as usize - 1]["at"],
                    "update {seq} agrees with the log: {v}"
                );
                last = seq;
            }
            Some("sync") => {
                let seq = v["seq"].as_u64().unwrap();
                assert!(seq >= 2, "{v}");
                last = seq;
            }
            _ => {}
        }
    }
    assert_eq!(last, 4, "the spectator caught up with the new owner");
}

/// Issue 47: an instance frozen (SIGSTOP) past its leases and woken (SIGCONT) serves again:
/// every game answers through it within a lease time (and room for a loaded machine), and its
/// CPU falls back. (It once
/// busy-looped on a slot a cancelled load left behind and stopped serving most games for good.)
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_frozen_then_woken_instance_serves_every_game_again() {
    let db = common::postgres_url().await;
    let instances = [
        Instance::start(&db, "one").await,
        Instance::start(&db, "two").await,
        Instance::start(&db, "three").await,
    ];
    let victim = &instances[0];
    let mut games = Vec::new();
    let mut watchers = Vec::new();
    for i in 0..8 {
        let a = Client::guest_at(&instances[i % 3].base).await;
        let b = Client::guest_at(&instances[(i + 1) % 3].base).await;
        let game = a.create(json!({"rules": "chinese", "map": "square:5", "players": 2})).await;
        assert_eq!(b.post(&format!("/api/games/{game}/join"), json!({})).await.0, 200);
        // Every game watched through the instance to be frozen (relays for the others' games).
        let mut s = at(&a, &victim.base).socket().await;
        s.watch(game, None).await;
        watchers.push(s);
        games.push((game, a));
    }
    victim.signal("-STOP");
    tokio::time::sleep(Duration::from_secs_f64(3.0 * LEASE_SECONDS)).await;
    victim.signal("-CONT");
    // Their clients give up at once and come back, as people reloading a stuck page do: the
    // woken instance's work for the old sockets is cut short mid-way.
    drop(watchers);
    let woke = Instant::now();
    // A lease time, and room for a loaded machine (32–38 ms on a quiet one).
    let patience = Duration::from_secs_f64(LEASE_SECONDS) + Duration::from_secs(2);
    for (game, a) in &games {
        let through = at(a, &victim.base);
        let answered = loop {
            let tried = tokio::time::timeout(Duration::from_secs(3), async {
                let mut s = through.socket().await;
                s.watch(*game, None).await
            })
            .await;
            match tried {
                Ok(sync) if sync["type"] == "sync" => break true,
                _ if woke.elapsed() > patience => break false,
                _ => tokio::time::sleep(Duration::from_millis(200)).await,
            }
        };
        assert!(answered, "game {game} answers through the woken instance within {patience:?}");
    }
    eprintln!("every game answered through the woken instance {:?} after it woke", woke.elapsed());
    // And it is not spinning: well under a core over three seconds.
    let before = cpu_seconds(victim.child.id());
    tokio::time::sleep(Duration::from_secs(3)).await;
    let used = cpu_seconds(victim.child.id()) - before;
    assert!(used < 1.0, "the woken instance used {used:.2} s of CPU in 3 s");
}
