//! A real server on a loopback port, and real HTTP and WebSocket clients.
#![allow(dead_code)]

pub mod smtp;
pub mod tournament;

use std::{net::SocketAddr, time::Duration};

use futures_util::{SinkExt, StreamExt};
use gobeyond_server::{Config, limit::Limits};
use serde_json::{Value, json};
use tokio::{net::TcpListener, sync::oneshot};
use tokio_tungstenite::tungstenite::{self, Message, client::IntoClientRequest};

/// Each scenario runs once per database.
#[macro_export]
macro_rules! on_both {
    ($($name:ident),* $(,)?) => {
        mod sqlite {
            $(#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn $name() { super::$name(&super::sqlite_url()).await })*
        }
        mod postgres {
            $(#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn $name() { let url = super::postgres_url().await; super::$name(&url).await })*
        }
    };
}

/// The seat `user` holds in a game's info.
pub fn seat_of(info: &Value, user: i64) -> u64 {
    info["seats"].as_array().unwrap().iter().find(|s| s["user_id"] == user).unwrap()["seat"].as_u64().unwrap()
}

/// The seats a game's info says it waits for.
pub fn waiting(v: &Value) -> Vec<u64> {
    v["waiting_for"].as_array().map(|a| a.iter().filter_map(Value::as_u64).collect()).unwrap_or_default()
}

/// The defaults, with room for the many guests tests make from one address.
pub fn test_limits() -> Limits {
    Limits {
        bot_threads: 2,
        auth_rate: 2.0,
        auth_burst: 100.0,
        connections_per_address: 1000,
        sockets_per_address: 200,
        // Tests make many accounts and games from one address and account in a moment; the
        // moderation tests lower these to test them.
        accounts_per_address_day: 0,
        account_games_per_hour: 100_000,
        account_challenges_per_hour: 100_000,
        account_chat_per_minute: 100_000,
        ..Limits::default()
    }
}

pub struct TestServer {
    pub addr: SocketAddr,
    pub database: String,
    /// The server's state, for test hooks that act inside it.
    pub app: gobeyond_server::AppState,
    stop: Option<oneshot::Sender<()>>,
    task: Option<tokio::task::JoinHandle<()>>,
}

/// A fresh SQLite file per test.
pub fn sqlite_url() -> String {
    let dir = std::env::temp_dir().join(format!("gobeyond-test-{}-{}", std::process::id(), unique()));
    let _ = std::fs::create_dir_all(&dir);
    format!("sqlite://{}", dir.join("test.db").display())
}

/// A fresh database on the test PostgreSQL (started by `scripts/install-test-deps`, which
/// `make test` runs, and which also drops the databases of earlier runs). One per test: servers
/// of different tests must not see each other's games (a restarted server resumes every live
/// game in its database).
pub async fn postgres_url() -> String {
    use sqlx::{Connection, Executor};
    let base = std::env::var("GOBEYOND_TEST_POSTGRES").unwrap_or_else(|_| {
        let file = concat!(env!("CARGO_MANIFEST_DIR"), "/../../target/postgres-url");
        std::fs::read_to_string(file).map(|s| s.trim().to_string()).unwrap_or_else(|_| {
            panic!(
                "no test PostgreSQL: run scripts/install-test-deps (make test does) or set GOBEYOND_TEST_POSTGRES"
            )
        })
    });
    // The counter keeps two tests of one process apart even when the clock reads the same.
    static N: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let n = N.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let name = format!("gobeyond_t_{}_{n}_{}", std::process::id(), unique() & 0xffff_ffff_ffff);
    let mut admin = sqlx::PgConnection::connect(&base).await.expect("the test PostgreSQL answers");
    let create = sqlx::AssertSqlSafe(format!("CREATE DATABASE {name}"));
    admin.execute(create).await.expect("create a test database");
    let (prefix, _) = base.rsplit_once('/').expect("a database URL ends with /name");
    format!("{prefix}/{name}")
}

pub fn unique() -> u64 {
    use std::sync::atomic::{AtomicU64, Ordering};
    static N: AtomicU64 = AtomicU64::new(0);
    let t =
        std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos() as u64);
    t ^ (N.fetch_add(1, Ordering::Relaxed) << 48)
}

impl TestServer {
    pub async fn start(database: &str) -> TestServer {
        TestServer::start_on(database, "127.0.0.1:0".parse().unwrap()).await
    }

    pub async fn start_on(database: &str, addr: SocketAddr) -> TestServer {
        TestServer::start_with(database, addr, test_limits()).await
    }

    /// A server with these limits (the abuse tests lower them).
    pub async fn start_with(database: &str, addr: SocketAddr, limits: Limits) -> TestServer {
        TestServer::start_config(Config {
            listen: addr,
            database: database.into(),
            limits,
            ..Config::default()
        })
        .await
    }

    /// A server offering the test hooks (moving its clock, storing finished games from records).
    pub async fn start_with_test_hooks(database: &str) -> TestServer {
        TestServer::start_config(Config {
            listen: "127.0.0.1:0".parse().unwrap(),
            database: database.into(),
            limits: test_limits(),
            test_hooks: true,
            ..Config::default()
        })
        .await
    }

    /// A server with this configuration (its `listen` port may be 0).
    pub async fn start_config(config: Config) -> TestServer {
        // The server's warnings go to the test's captured output: shown when a test fails.
        let _ = tracing_subscriber::fmt()
            .with_env_filter(
                tracing_subscriber::EnvFilter::try_from_default_env().unwrap_or_else(|_| "warn".into()),
            )
            .with_test_writer()
            .try_init();
        let listener = TcpListener::bind(config.listen).await.expect("bind");
        let addr = listener.local_addr().unwrap();
        let database = config.database.clone();
        let config = Config { listen: addr, ..config };
        let (state, router) = gobeyond_server::app(config).await.expect("server starts");
        let app = state.clone();
        let (stop, stopped) = oneshot::channel::<()>();
        let task = tokio::spawn(async move {
            gobeyond_server::serve(listener, state, router, async {
                let _ = stopped.await;
            })
            .await
            .expect("serve");
        });
        TestServer { addr, database, app, stop: Some(stop), task: Some(task) }
    }

    pub fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.addr)
    }

    /// The health check's answer, on a fresh connection, within 10 s (a server under attack
    /// must still answer it).
    pub async fn health(&self) -> Value {
        let r = tokio::time::timeout(Duration::from_secs(10), reqwest::get(self.url("/api/health")))
            .await
            .expect("health answers within 10 s")
            .expect("health answers");
        assert_eq!(r.status(), 200);
        r.json().await.unwrap()
    }

    /// Graceful stop: returns once every game has finished its writes.
    pub async fn stop(mut self) {
        if let Some(s) = self.stop.take() {
            let _ = s.send(());
        }
        if let Some(t) = self.task.take() {
            let _ = tokio::time::timeout(Duration::from_secs(20), t).await;
        }
    }
}

/// A user with a cookie-carrying HTTP client.
pub struct Client {
    pub http: reqwest::Client,
    pub base: String,
    pub cookie: String,
    pub user: Value,
}

impl Client {
    pub async fn guest(server: &TestServer) -> Client {
        Client::guest_at(&format!("http://{}", server.addr)).await
    }

    /// A guest of the server at `base` (`http://host:port`).
    pub async fn guest_at(base: &str) -> Client {
        let http = reqwest::Client::builder().cookie_store(true).build().unwrap();
        let r = http.post(format!("{base}/api/guest")).send().await.unwrap();
        assert_eq!(r.status(), 200);
        let cookie = r
            .headers()
            .get("set-cookie")
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.split(';').next())
            .expect("a session cookie")
            .to_string();
        let body: Value = r.json().await.unwrap();
        Client { http, base: base.to_string(), cookie, user: body["user"].clone() }
    }

    /// A guest who claimed `name` with a password: a registered account.
    pub async fn registered(server: &TestServer, name: &str) -> Client {
        Client::registered_at(&format!("http://{}", server.addr), name).await
    }

    /// [`Client::registered`] on the server at `base` (`http://host:port`).
    pub async fn registered_at(base: &str, name: &str) -> Client {
        let mut c = Client::guest_at(base).await;
        let r = c
            .http
            .post(format!("{}/api/register", c.base))
            .json(&serde_json::json!({"name": name, "password": "correct horse"}))
            .send()
            .await
            .unwrap();
        assert_eq!(r.status(), 200);
        // Registering starts a new session: sockets need its cookie.
        if let Some(cookie) = r.headers().get("set-cookie").and_then(|v| v.to_str().ok()) {
            c.cookie = cookie.split(';').next().unwrap().to_string();
        }
        let body: Value = r.json().await.unwrap();
        c.user = body["user"].clone();
        c
    }

    pub fn id(&self) -> i64 {
        self.user["id"].as_i64().unwrap()
    }

    pub async fn post(&self, path: &str, body: Value) -> (u16, Value) {
        let r = self.http.post(format!("{}{path}", self.base)).json(&body).send().await.unwrap();
        let status = r.status().as_u16();
        (status, r.json().await.unwrap_or(Value::Null))
    }

    pub async fn get(&self, path: &str) -> (u16, Value) {
        let r = self.http.get(format!("{}{path}", self.base)).send().await.unwrap();
        let status = r.status().as_u16();
        (status, r.json().await.unwrap_or(Value::Null))
    }

    pub async fn create(&self, body: Value) -> i64 {
        let (status, v) = self.post("/api/games", body).await;
        assert_eq!(status, 201, "{v}");
        v["game"]["id"].as_i64().unwrap()
    }

    pub async fn socket(&self) -> Socket {
        let url = self.base.replace("http://", "ws://") + "/api/ws";
        let mut req = url.into_client_request().unwrap();
        req.headers_mut().insert("cookie", self.cookie.parse().unwrap());
        let (ws, _) = tokio_tungstenite::connect_async(req).await.expect("socket opens");
        let mut s = Socket::new(ws);
        let hello = s.next().await;
        assert_eq!(hello["type"], "hello", "{hello}");
        s
    }
}

pub struct Socket {
    pub ws: tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>,
    /// Messages read while waiting for something else (an action's answer): the next reads
    /// see them first, so that an update sent before its action's `ack` is not lost.
    held: std::collections::VecDeque<Value>,
}

impl Socket {
    pub fn new(
        ws: tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>,
    ) -> Socket {
        Socket { ws, held: std::collections::VecDeque::new() }
    }

    pub async fn send(&mut self, v: Value) {
        self.ws.send(Message::Text(v.to_string().into())).await.unwrap();
    }

    pub async fn send_raw(&mut self, text: &str) {
        self.ws.send(Message::Text(text.into())).await.unwrap();
    }

    /// The next JSON message (fails the test after 20 s of silence).
    pub async fn next(&mut self) -> Value {
        if let Some(v) = self.held.pop_front() {
            return v;
        }
        self.read().await
    }

    async fn read(&mut self) -> Value {
        loop {
            let m = tokio::time::timeout(Duration::from_secs(20), self.ws.next())
                .await
                .expect("a message within 20 s")
                .expect("socket open")
                .expect("frame");
            match m {
                Message::Text(t) => return serde_json::from_str(t.as_str()).unwrap(),
                Message::Close(_) => panic!("socket closed"),
                _ => continue,
            }
        }
    }

    /// Skips messages until one satisfies `pred`.
    pub async fn until(&mut self, mut pred: impl FnMut(&Value) -> bool) -> Value {
        loop {
            let v = self.next().await;
            if pred(&v) {
                return v;
            }
        }
    }

    pub async fn watch(&mut self, game: i64, since: Option<u64>) -> Value {
        self.send(json!({"type": "watch", "game": game, "since": since})).await;
        self.until(|v| v["type"] == "sync" && v["game"] == game).await
    }

    /// Sends an action and returns the answer (`ack` or `error`) for it; other messages that
    /// come first are kept for the next reads.
    pub async fn act(&mut self, game: i64, action: Value) -> Value {
        self.act_message(json!({"type": "act", "game": game, "action": action})).await
    }

    /// An action meant to follow action number `after`.
    pub async fn act_after(&mut self, game: i64, action: Value, after: u64) -> Value {
        self.act_message(json!({"type": "act", "game": game, "action": action, "after": after})).await
    }

    async fn act_message(&mut self, mut message: Value) -> Value {
        let id = unique();
        message["id"] = json!(id);
        self.send(message).await;
        let mut others = Vec::new();
        loop {
            let v = self.read().await;
            if (v["type"] == "ack" || v["type"] == "error") && v["id"] == id {
                self.held.extend(others);
                return v;
            }
            others.push(v);
        }
    }

    pub async fn close(mut self) {
        let _ = self.ws.close(None).await;
    }
}

pub fn is_ws_error(e: &tungstenite::Error) -> bool {
    matches!(e, tungstenite::Error::Http(_))
}

/// A custom map of 64 × 64 nodes (the largest a server game takes) with long labels, named
/// `name` so that maps of different names are different maps.
pub fn largest_custom_map(name: &str) -> Value {
    let side = 64;
    let nodes: Vec<_> = (0..side * side)
        .map(|i| json!({"x": (i % side) as f64, "y": (i / side) as f64, "label": format!("node-{i:0>26}")}))
        .collect();
    let mut edges = Vec::new();
    for i in 0..side * side {
        if i % side + 1 < side {
            edges.push(json!([i, i + 1]));
        }
        if i + side < side * side {
            edges.push(json!([i, i + side]));
        }
    }
    json!({"name": name, "nodes": nodes, "edges": edges})
}
