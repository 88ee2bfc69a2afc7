//! No password, token or mail address in any log line (docs/deploy.md, "Logs"): a server logging
//! everything (`trace`, every crate) goes through the flows that handle secrets — sign-up, a
//! failed and a good sign-in, a password change by reset, a bot's token, a mail address and a
//! mail whose sending fails, a game with chat — and its logs are searched for each secret.
#![allow(clippy::unwrap_used, clippy::expect_used)]

#[path = "integration/common/mod.rs"]
mod common;

use std::{
    io::Write,
    sync::{Arc, Mutex},
};

use common::{Client, TestServer, postgres_url, sqlite_url};
use gobeyond_server::{Config, mail::MailConfig};
use serde_json::json;

/// Every log line written in this test process.
#[derive(Clone, Default)]
struct Captured(Arc<Mutex<Vec<u8>>>);

impl Write for Captured {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

fn capture() -> Captured {
    static LOGS: std::sync::OnceLock<Captured> = std::sync::OnceLock::new();
    LOGS.get_or_init(|| {
        let logs = Captured::default();
        let writer = logs.clone();
        tracing_subscriber::fmt()
            // Everything but the WebSocket frames (game data) and the test client's own cookie jar.
            .with_env_filter("trace,tungstenite=debug,tokio_tungstenite=debug,cookie_store=off,reqwest=off")
            .with_writer(move || writer.clone())
            .with_ansi(false)
            .init();
        logs
    })
    .clone()
}

async fn secrets_stay_out_of_the_logs(db: &str) {
    let logs = capture();
    let name = format!("keeper{}", common::unique() % 1_000_000);
    let password = format!("pw-{}-hunter2", common::unique());
    let address = format!("{name}.secret-address@example.org");
    let server = TestServer::start_config(Config {
        database: db.to_string(),
        listen: "127.0.0.1:0".parse().unwrap(),
        limits: common::test_limits(),
        // Nothing listens there: every send fails, and the failure is logged.
        mail: Some(MailConfig::new(
            "smtp://127.0.0.1:9".into(),
            "GoBeyond <games@example.org>".into(),
            "http://go.example.org".into(),
        )),
        ..Config::default()
    })
    .await;

    // Sign-up with a password, a failed and a good sign-in.
    let mut c = Client::guest(&server).await;
    let guest_cookie = c.cookie.clone();
    let r = c
        .http
        .post(server.url("/api/register"))
        .json(&json!({"name": name, "password": password}))
        .send()
        .await;
    let r = r.unwrap();
    assert_eq!(r.status(), 200);
    c.cookie = r.headers()["set-cookie"].to_str().unwrap().split(';').next().unwrap().to_string();
    let wrong =
        c.http.post(server.url("/api/login")).json(&json!({"name": name, "password": "wrong-password-1"}));
    assert!(wrong.send().await.unwrap().status().is_client_error());
    let good = c.http.post(server.url("/api/login")).json(&json!({"name": name, "password": password}));
    let good = good.send().await.unwrap();
    assert_eq!(good.status(), 200);
    let session_cookie =
        good.headers()["set-cookie"].to_str().unwrap().split(';').next().unwrap().to_string();

    // A mail address (its confirmation mail fails to send), and a forgotten password.
    c.cookie = session_cookie.clone();
    let r =
        c.http.put(server.url("/api/mail/address")).json(&json!({"address": address})).send().await.unwrap();
    assert_eq!(r.status(), 200, "{:?}", r.text().await);
    let (s, _) = c.post("/api/password/forgot", json!({"who": name})).await;
    assert!(s == 200 || s == 429, "{s}");

    // A bot's token.
    let (s, bot) = c.post("/api/bots", json!({"name": format!("{name}-bot")})).await;
    assert_eq!(s, 201, "{bot}");
    let token = bot["token"].as_str().expect("the bot's token").to_string();

    // A game with chat.
    let other = Client::guest(&server).await;
    let game = c.create(json!({"rules": "chinese", "map": "square:9", "players": 2})).await;
    other.post(&format!("/api/games/{game}/join"), json!({})).await;
    let mut socket = c.socket().await;
    socket.watch(game, None).await;
    socket.act(game, json!({"type": "place", "at": "E5"})).await;
    socket.send(json!({"type": "chat", "game": game, "text": "good luck"})).await;

    // Give the mail sender its attempts.
    tokio::time::sleep(std::time::Duration::from_millis(500)).await;
    socket.close().await;
    server.stop().await;

    let text = String::from_utf8_lossy(&logs.0.lock().unwrap()).to_string();
    assert!(text.lines().count() > 50, "too few log lines to mean anything:\n{text}");
    let cookie_value = |c: &str| c.split_once('=').map(|(_, v)| v.to_string()).unwrap_or_default();
    for (what, secret) in [
        ("the password", password.clone()),
        ("the mail address", address.clone()),
        ("the mail address's local part", format!("{name}.secret-address")),
        ("the bot's token", token.clone()),
        ("the session token", cookie_value(&session_cookie)),
        ("the guest's session token", cookie_value(&guest_cookie)),
    ] {
        assert!(secret.len() >= 8, "{what} is too short to search for: {secret:?}");
        if let Some(line) = text.lines().find(|l| l.contains(&secret)) {
            panic!("{what} is in a log line: {line}");
        }
    }
}

#[tokio::test]
async fn logs_sqlite() {
    secrets_stay_out_of_the_logs(&sqlite_url()).await;
}

#[tokio::test]
async fn logs_postgres() {
    secrets_stay_out_of_the_logs(&postgres_url().await).await;
}
