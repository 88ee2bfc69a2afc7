//! Several `gobeyond serve` processes on one PostgreSQL database: games owned through leases,
//! clients served by any instance, failover when an instance is killed (SIGKILL) and fencing
//! when one is frozen (SIGSTOP) past its lease.
#![allow(clippy::unwrap_used, clippy::expect_used)]

#[path = "../../../server/tests/integration/common/mod.rs"]
mod common;

use std::{
    collections::HashMap,
    process::{Child, Command, Stdio},
    time::{Duration, Instant},
};

use common::{Client, Socket};
use serde_json::{Value, json};

mod failover;
mod frozen;
mod long_run;
mod serving;

/// Lease lifetime of the test instances: short, so that takeovers happen within the test.
const LEASE_SECONDS: f64 = 2.0;

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

struct Instance {
    base: String,
    child: Child,
}

impl Instance {
    async fn start(db: &str, name: &str) -> Instance {
        Instance::start_on(db, name, free_port()).await
    }

    /// An instance on this port (a restart comes back where its clients knew it).
    async fn start_on(db: &str, name: &str, port: u16) -> Instance {
        Instance::start_with(db, name, port, &[]).await
    }

    /// An instance with these environment variables (test hooks).
    async fn start_with(db: &str, name: &str, port: u16, env: &[(&str, &str)]) -> Instance {
        let child = Command::new(env!("CARGO_BIN_EXE_gobeyond"))
            .envs(env.iter().copied())
            .args(["serve", "--listen", &format!("127.0.0.1:{port}"), "--database", db])
            .args(["--instance", name, "--lease-seconds", &LEASE_SECONDS.to_string(), "--bot-threads", "1"])
            .args(["--auth-rate", "0"])
            .env("RUST_LOG", "warn")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("gobeyond serve starts");
        let mut instance = Instance { base: format!("http://127.0.0.1:{port}"), child };
        for _ in 0..200 {
            if reqwest::get(format!("{}/api/health", instance.base)).await.is_ok_and(|r| r.status() == 200) {
                return instance;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        instance.kill();
        panic!("instance {name} did not come up");
    }

    fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    fn signal(&self, signal: &str) {
        let status = Command::new("kill").args([signal, &self.child.id().to_string()]).status().unwrap();
        assert!(status.success(), "kill {signal}");
    }

    async fn health(&self) -> Value {
        let r = reqwest::Client::new()
            .get(format!("{}/api/health", self.base))
            .timeout(Duration::from_secs(2))
            .send()
            .await
            .unwrap();
        r.json().await.unwrap()
    }

    async fn owns(&self, game: i64) -> bool {
        self.health().await["games_owned"].as_array().unwrap().iter().any(|g| g == game)
    }
}

impl Drop for Instance {
    fn drop(&mut self) {
        let _ =
            Command::new("kill").args(["-CONT", &self.child.id().to_string()]).stderr(Stdio::null()).status();
        self.kill();
    }
}

/// The same account, talking to another instance (sessions live in the database).
fn at(client: &Client, base: &str) -> Client {
    Client {
        http: client.http.clone(),
        base: base.to_string(),
        cookie: client.cookie.clone(),
        user: client.user.clone(),
    }
}

/// Which of `instances` runs `game` (waits for one to claim it).
async fn owner_of(instances: &[Instance], game: i64) -> usize {
    for _ in 0..100 {
        for (i, instance) in instances.iter().enumerate() {
            if instance.owns(game).await {
                return i;
            }
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("nobody runs game {game}");
}

async fn record(client: &Client, game: i64) -> Vec<Value> {
    let (status, r) = client.get(&format!("/api/games/{game}/record")).await;
    assert_eq!(status, 200, "{r}");
    r["actions"].as_array().unwrap().clone()
}

/// The 5×5 points in a fixed order: the player tries them until one is accepted.
fn points() -> Vec<String> {
    (0..25).map(|i| format!("{}{}", "ABCDE".as_bytes()[(i * 7) % 5] as char, (i * 3) % 5 + 1)).collect()
}

/// Plays one move (the first free point, else a pass) through `socket`, retrying while the
/// game changes servers; the acknowledged action, or `None` when the socket died.
async fn play_one(socket: &mut Socket, game: i64, tried: &mut usize) -> Option<(u64, Value)> {
    let points = points();
    loop {
        let action = match points.get(*tried) {
            Some(at) => json!({"type": "place", "at": at}),
            None => json!({"type": "pass"}),
        };
        let answer =
            tokio::time::timeout(Duration::from_secs(15), socket.act(game, action.clone())).await.ok()?;
        if answer["type"] == "ack" {
            *tried += 1;
            return Some((answer["seq"].as_u64().unwrap(), action));
        }
        let error = answer["error"].as_str().unwrap_or("");
        if answer["code"].is_string() && answer["code"] != "unknown" {
            // Refused by the rules (taken point, not our turn yet): the next point, or wait.
            if answer["code"] == "not_your_turn" {
                tokio::time::sleep(Duration::from_millis(100)).await;
            } else {
                *tried += 1;
            }
        } else {
            // Changing servers, or its owner died (`unknown`): the client retries.
            assert!(!error.is_empty(), "{answer}");
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
    }
}

/// Every acknowledged action of `seat` is in the log, exactly once, in order.
fn assert_logged_once(log: &[Value], seat: u64, acked: &[(u64, Value)], game: i64) {
    for (seq, action) in acked {
        let got = &log[*seq as usize - 1];
        assert_eq!(got["player"], seat, "game {game} action {seq}: {got}");
        assert_eq!(got["type"], action["type"], "game {game} action {seq}: {got}");
        if action["type"] == "place" {
            assert_eq!(got["at"], action["at"], "game {game} action {seq}: {got}");
        }
    }
    let mine = log.iter().filter(|a| a["player"] == seat && a["type"] != "timeout").count();
    let resigned = log.iter().filter(|a| a["player"] == seat && a["type"] == "resign").count();
    assert_eq!(mine, acked.len() + resigned, "game {game}: seat {seat}'s actions in the log: {log:?}");
}

async fn game_info(client: &Client, game: i64) -> Value {
    let (status, info) = client.get(&format!("/api/games/{game}")).await;
    assert_eq!(status, 200, "{info}");
    info
}

/// CPU seconds a process has used (Linux `/proc/PID/stat`, user and system, 100 ticks a second).
fn cpu_seconds(pid: u32) -> f64 {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap();
    // Fields after the command name (which may hold spaces) start at the state, field 3.
    let fields: Vec<&str> = stat[stat.rfind(')').unwrap() + 2..].split_whitespace().collect();
    let ticks: f64 = fields[11].parse::<f64>().unwrap() + fields[12].parse::<f64>().unwrap();
    ticks / 100.0
}
