//! `GET /metrics`: parsed as Prometheus text by a parser we did not write (prometheus-parse),
//! guarded by its token or served on an address of its own, and its counters move with a game.
//! On SQLite and PostgreSQL. docs/deploy.md, "Metrics".

use crate::common::{Client, TestServer, postgres_url, sqlite_url};
use gobeyond_server::Config;
use serde_json::json;

const TOKEN: &str = "metrics-token-for-the-test";

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

/// The metrics as parsed by prometheus-parse (which refuses malformed text).
fn parse(text: &str) -> prometheus_parse::Scrape {
    let lines = text.lines().map(|l| Ok(l.to_string()));
    prometheus_parse::Scrape::parse(lines).expect("the metrics parse as Prometheus text")
}

/// The value of the sample `name` whose labels include `labels` (0 when there is none yet).
fn value(scrape: &prometheus_parse::Scrape, name: &str, labels: &[(&str, &str)]) -> f64 {
    scrape
        .samples
        .iter()
        .filter(|s| s.metric == name && labels.iter().all(|(k, v)| s.labels.get(k) == Some(*v)))
        .map(|s| match s.value {
            prometheus_parse::Value::Counter(v)
            | prometheus_parse::Value::Gauge(v)
            | prometheus_parse::Value::Untyped(v) => v,
            _ => 0.0,
        })
        .sum()
}

async fn scrape(client: &reqwest::Client, url: &str, token: Option<&str>) -> (u16, String, String) {
    let mut request = client.get(url);
    if let Some(token) = token {
        request = request.bearer_auth(token);
    }
    let response = request.send().await.unwrap();
    let status = response.status().as_u16();
    let kind = response
        .headers()
        .get(reqwest::header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
        .to_string();
    (status, kind, response.text().await.unwrap())
}

async fn counters_move_with_a_game(db: &str) {
    let metrics_port = free_port();
    let server = TestServer::start_config(Config {
        database: db.to_string(),
        listen: "127.0.0.1:0".parse().unwrap(),
        limits: crate::common::test_limits(),
        metrics_token: Some(TOKEN.into()),
        metrics_listen: Some(format!("127.0.0.1:{metrics_port}").parse().unwrap()),
        ..Config::default()
    })
    .await;
    let http = reqwest::Client::new();
    let url = server.url("/metrics");

    // Only with the token.
    assert_eq!(scrape(&http, &url, None).await.0, 401);
    assert_eq!(scrape(&http, &url, Some("metrics-token-for-the-tesT")).await.0, 401);
    let (status, kind, text) = scrape(&http, &url, Some(TOKEN)).await;
    assert_eq!(status, 200, "{text}");
    assert!(kind.starts_with("application/openmetrics-text"), "{kind}");
    let before = parse(&text);
    let moves = |s: &prometheus_parse::Scrape| value(s, "gobeyond_moves_total", &[("system", "classic")]);
    let commits = |s: &prometheus_parse::Scrape| value(s, "gobeyond_commit_seconds_count", &[]);

    // A game of four moves, and a request for a game that does not exist.
    let a = Client::guest(&server).await;
    let b = Client::guest(&server).await;
    let game = a.create(json!({"rules": "chinese", "map": "square:9", "players": 2})).await;
    let (s, v) = b.post(&format!("/api/games/{game}/join"), json!({})).await;
    assert_eq!(s, 200, "{v}");
    let mut sa = a.socket().await;
    let mut sb = b.socket().await;
    sa.watch(game, None).await;
    sb.watch(game, None).await;
    for (i, at) in ["E5", "C3", "G7", "C7"].iter().enumerate() {
        let socket = if i % 2 == 0 { &mut sa } else { &mut sb };
        let r = socket.act(game, json!({"type": "place", "at": at})).await;
        assert_eq!(r["type"], "ack", "{r}");
    }
    let (s, _) = a.get("/api/games/999999999").await;
    assert_eq!(s, 404);

    let (_, _, text) = scrape(&http, &url, Some(TOKEN)).await;
    let after = parse(&text);
    assert!(moves(&after) >= moves(&before) + 4.0, "moves {} then {}", moves(&before), moves(&after));
    assert!(commits(&after) >= commits(&before) + 4.0);
    assert!(value(&after, "gobeyond_games_loaded", &[("system", "classic")]) >= 1.0, "{text}");
    assert!(value(&after, "gobeyond_games_live", &[]) >= 1.0, "{text}");
    assert!(value(&after, "gobeyond_websockets", &[]) >= 2.0, "{text}");
    let created = [("route", "/api/games"), ("status", "201")];
    assert!(value(&after, "gobeyond_http_requests_total", &created) >= 1.0, "{text}");
    // The route's pattern, never the path asked for.
    let missing = [("route", "/api/games/:id"), ("status", "404")];
    assert!(value(&after, "gobeyond_http_requests_total", &missing) >= 1.0, "{text}");
    // Label values only: a float (a histogram's sum) may well print a run of nines.
    let path_in_labels = after.samples.iter().any(|s| s.labels.values().any(|v| v.contains("999999999")));
    assert!(!path_in_labels, "a path reached the labels: {text}");
    assert!(
        value(&after, "gobeyond_errors_total", &[("kind", "not_found")])
            > value(&before, "gobeyond_errors_total", &[("kind", "not_found")])
    );

    // The dashboard and docs/deploy.md name only metrics the server has.
    for file in ["deploy/grafana-dashboard.json", "docs/deploy.md"] {
        let doc = std::fs::read_to_string(format!("{}/../../{file}", env!("CARGO_MANIFEST_DIR"))).unwrap();
        for (i, _) in doc.match_indices("gobeyond_") {
            let name: String = doc[i..].chars().take_while(|c| c.is_ascii_lowercase() || *c == '_').collect();
            assert!(
                text.contains(&format!("\n{name}")) || text.contains(&format!("# TYPE {name} ")),
                "{file} names {name}, which /metrics does not have"
            );
        }
    }

    // The separate address serves them without a token.
    let (status, _, text) = scrape(&http, &format!("http://127.0.0.1:{metrics_port}/metrics"), None).await;
    assert_eq!(status, 200);
    assert!(moves(&parse(&text)) >= moves(&after));
    sa.close().await;
    sb.close().await;
    server.stop().await;

    // Without a token, the main address has no metrics.
    let server = TestServer::start(db).await;
    assert_eq!(scrape(&http, &server.url("/metrics"), Some(TOKEN)).await.0, 404);
    server.stop().await;
}

#[tokio::test]
async fn metrics_sqlite() {
    counters_move_with_a_game(&sqlite_url()).await;
}

#[tokio::test]
async fn metrics_postgres() {
    counters_move_with_a_game(&postgres_url().await).await;
}
