//! The long fault run, by hand: steady play while instances are killed and frozen.

use super::*;

/// The long fault run (issue 47): three instances under steady play while one of them, every
/// few seconds, is killed (SIGKILL, restarted 2–5 s later under its id and port) or frozen
/// (SIGSTOP for 6 s, then SIGCONT). Every acknowledged action is then checked against the log.
/// Not part of `make test`: `FAULT_RUN_SECONDS=300 cargo test -p gobeyond --test cluster
/// long_fault_run -- --ignored --nocapture` (figures in `docs/benchmarks.md`).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "minutes long: run by hand"]
async fn long_fault_run() {
    use std::sync::{Arc, Mutex};
    let seconds: u64 = std::env::var("FAULT_RUN_SECONDS").ok().and_then(|s| s.parse().ok()).unwrap_or(120);
    let db = common::postgres_url().await;
    let ports: Vec<u16> = (0..3).map(|_| free_port()).collect();
    let names = ["one", "two", "three"];
    let mut started = Vec::new();
    for i in 0..3 {
        started.push(Instance::start_on(&db, names[i], ports[i]).await);
    }
    let instances = Arc::new(Mutex::new(started));
    let bases: Vec<String> = ports.iter().map(|p| format!("http://127.0.0.1:{p}")).collect();
    let until = Instant::now() + Duration::from_secs(seconds);
    // Eight pairs of players, each playing game after game, trying instances in turn.
    let mut pairs = Vec::new();
    for p in 0..8 {
        let bases = bases.clone();
        pairs.push(tokio::spawn(async move { keep_playing(bases, p, until).await }));
    }
    // The faults, one at a time, until the end.
    let mut faults = (0, 0);
    let mut rng =
        std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_nanos() as u64;
    let mut next = || {
        rng = rng.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        rng >> 33
    };
    while Instant::now() + Duration::from_secs(12) < until {
        tokio::time::sleep(Duration::from_secs(4)).await;
        let victim = (next() % 3) as usize;
        if next() % 4 == 0 {
            faults.1 += 1;
            instances.lock().unwrap()[victim].signal("-STOP");
            tokio::time::sleep(Duration::from_secs(6)).await;
            instances.lock().unwrap()[victim].signal("-CONT");
        } else {
            faults.0 += 1;
            instances.lock().unwrap()[victim].kill();
            tokio::time::sleep(Duration::from_millis(2000 + next() % 3000)).await;
            let again = Instance::start_on(&db, names[victim], ports[victim]).await;
            instances.lock().unwrap()[victim] = again;
        }
    }
    let mut outcomes = Vec::new();
    for p in pairs {
        outcomes.extend(p.await.unwrap());
    }
    // Every acknowledgement against the log, read from an instance that is up.
    let reader = Client::guest_at(&bases[0]).await;
    let (mut acked, mut unknown, mut longest) = (0, 0, Duration::ZERO);
    for played in &outcomes {
        let log = record(&reader, played.game).await;
        for (seq, seat, action) in &played.acked {
            let got = &log[*seq as usize - 1];
            assert_eq!(got["player"], *seat, "game {} action {seq}: {got}", played.game);
            assert_eq!(
                (&got["type"], &got["at"]),
                (&action["type"], &action["at"]),
                "game {}: {got}",
                played.game
            );
        }
        for seat in 0..2u64 {
            let mine = log.iter().filter(|a| a["player"] == seat && a["type"] != "timeout").count();
            let acks = played.acked.iter().filter(|(_, s, _)| *s == seat).count();
            // Answers that never came may or may not have been applied; nothing beyond them was.
            let most = acks + played.unknown[seat as usize];
            assert!(
                (acks..=most).contains(&mine),
                "game {} seat {seat}: {mine} in the log, {acks} acked",
                played.game
            );
        }
        acked += played.acked.len();
        unknown += played.unknown.iter().sum::<usize>();
        longest = longest.max(played.longest_wait);
    }
    println!(
        "fault run: {seconds} s, {} kills and {} freezes, {} games; {acked} actions acknowledged, 0 lost, \
         0 duplicated; {unknown} answers unknown; longest a player waited for an answer: {longest:?}",
        faults.0,
        faults.1,
        outcomes.len()
    );
}

/// One game of the fault run, as its players saw it.
struct RunGame {
    game: i64,
    /// Sequence number, seat and action of every acknowledged action.
    acked: Vec<(u64, u64, Value)>,
    /// Per seat, answers that never came.
    unknown: [usize; 2],
    longest_wait: Duration,
}

/// Two players of pair `p` play game after game until `until`, through whichever instance
/// answers: each try (connect, watch, act after the position seen) in a task of its own, so
/// that a socket dying under it is one failed try. A game whose points run out is resigned.
async fn keep_playing(bases: Vec<String>, p: usize, until: Instant) -> Vec<RunGame> {
    let mut games = Vec::new();
    let mut k = p;
    while Instant::now() < until {
        k += 1;
        // Made through an instance that is up (a try in a task: a dead one fails it).
        let (base_a, base_b) = (bases[k % 3].clone(), bases[(k + 1) % 3].clone());
        let made = tokio::spawn(async move {
            let a = Client::guest_at(&base_a).await;
            let b = Client::guest_at(&base_b).await;
            let made =
                a.post("/api/games", json!({"rules": "chinese", "map": "square:19", "players": 2})).await;
            let game = made.1["game"]["id"].as_i64()?;
            (b.post(&format!("/api/games/{game}/join"), json!({})).await.0 == 200).then_some((a, b, game))
        });
        let Some((a, b, game)) = made.await.ok().flatten() else {
            tokio::time::sleep(Duration::from_millis(200)).await;
            continue;
        };
        let mut played = RunGame { game, acked: Vec::new(), unknown: [0, 0], longest_wait: Duration::ZERO };
        let (mut point, mut refused, mut since) = (p * 37, 0, Instant::now());
        while Instant::now() < until {
            k += 1;
            let base = bases[k % 3].clone();
            let (a, b) = (at(&a, &base), at(&b, &base));
            let resign = refused > 20;
            let label =
                format!("{}{}", "ABCDEFGHJKLMNOPQRST".as_bytes()[point % 19] as char, point / 19 % 19 + 1);
            // Set once an action is sent for a seat: a try that dies after it has an unknown fate.
            let sent = std::sync::Arc::new(std::sync::atomic::AtomicI64::new(-1));
            let sent_in = sent.clone();
            let attempt = tokio::spawn(async move {
                let mut s = tokio::time::timeout(Duration::from_secs(3), a.socket()).await.ok()?;
                let sync = tokio::time::timeout(Duration::from_secs(3), s.watch(game, None)).await.ok()?;
                if sync["info"]["status"] != "live" {
                    return Some(json!({"over": true}));
                }
                let seat = *common::waiting(&sync["info"]).first()?;
                let mut s = if seat == 0 {
                    s
                } else {
                    tokio::time::timeout(Duration::from_secs(3), b.socket()).await.ok()?
                };
                let action =
                    if resign { json!({"type": "resign"}) } else { json!({"type": "place", "at": label}) };
                let after = sync["seq"].as_u64()?;
                sent_in.store(seat as i64, std::sync::atomic::Ordering::SeqCst);
                let answer =
                    tokio::time::timeout(Duration::from_secs(5), s.act_after(game, action.clone(), after))
                        .await
                        .unwrap_or(json!({"type": "error", "code": "unknown"}));
                Some(json!({"answer": answer, "action": action, "seat": seat}))
            });
            let v = attempt.await.ok().flatten();
            let seat = v.as_ref().and_then(|v| v["seat"].as_u64()).unwrap_or(0);
            match v {
                Some(v) if v["over"] == true => break,
                Some(v) if v["answer"]["type"] == "ack" => {
                    played.longest_wait = played.longest_wait.max(since.elapsed());
                    played.acked.push((v["answer"]["seq"].as_u64().unwrap_or(0), seat, v["action"].clone()));
                    (since, refused, point) = (Instant::now(), 0, point + 7);
                    tokio::time::sleep(Duration::from_millis(50)).await;
                }
                Some(v) if v["answer"]["code"] == "unknown" => played.unknown[seat as usize] += 1,
                // Stale (look again), or refused by the rules (a taken point): the next point.
                Some(v) if v["answer"]["code"].is_string() => (refused, point) = (refused + 1, point + 1),
                // The instance is down, frozen or changing owners: another one next.
                // If the try had sent its action, whether it was applied is unknown.
                _ => {
                    if let Ok(seat) = usize::try_from(sent.load(std::sync::atomic::Ordering::SeqCst)) {
                        played.unknown[seat] += 1;
                    }
                    tokio::time::sleep(Duration::from_millis(100)).await;
                }
            }
        }
        games.push(played);
    }
    games
}
