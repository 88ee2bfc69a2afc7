//! How much the whole process grows under requests that once made the server hold too much:
//! lab reports sent to clients that never read, lobby lists of games on the largest maps. (Issue
//! 40; the abuse suite checks that these are refused or bounded, this measures the bytes.)

use std::time::Duration;

use serde_json::{Value, json};
use tokio::{io::AsyncWriteExt, net::TcpStream};

use crate::{
    ONE_AT_A_TIME,
    common::{Client, TestServer, largest_custom_map, sqlite_url, test_limits},
};

/// The server's resident memory, from its health check.
async fn rss(server: &TestServer) -> u64 {
    server.health().await["rss_bytes"].as_u64().expect("the health check reports resident memory")
}

#[tokio::test]
async fn lab_reports_are_streamed_to_clients_that_never_read() {
    let _alone = ONE_AT_A_TIME.lock().await;
    let reports = std::env::temp_dir().join(format!("gobeyond-reports-{}", std::process::id()));
    std::fs::create_dir_all(&reports).unwrap();
    let big = 12 << 20;
    std::fs::write(reports.join("big.html"), "<p>lab</p>".repeat(big / 10)).unwrap();
    let server = TestServer::start_config(gobeyond_server::Config {
        listen: "127.0.0.1:0".parse().unwrap(),
        database: sqlite_url(),
        limits: test_limits(),
        reports: Some(reports.clone()),
        ..Default::default()
    })
    .await;
    let before = rss(&server).await;
    // 30 clients ask for the report and never read a byte of it.
    let mut idle = Vec::new();
    for _ in 0..30 {
        let mut s = TcpStream::connect(server.addr).await.unwrap();
        s.write_all(b"GET /api/lab/reports/big.html HTTP/1.1\r\nHost: x\r\n\r\n").await.unwrap();
        idle.push(s);
    }
    tokio::time::sleep(Duration::from_secs(2)).await;
    let after = rss(&server).await;
    let grown = after.saturating_sub(before) >> 20;
    println!("30 unread 12 MiB reports: {grown} MiB");
    assert!(grown < 100, "30 unread 12 MiB reports grew the server by {grown} MiB");
    // A client that reads gets the whole report.
    let whole = reqwest::get(server.url("/api/lab/reports/big.html")).await.unwrap().bytes().await.unwrap();
    assert_eq!(whole.len(), big / 10 * 10);
    drop(idle);
    server.stop().await;
    let _ = std::fs::remove_dir_all(&reports);
}

#[tokio::test]
async fn lobby_lists_never_read_whole_maps() {
    let _alone = ONE_AT_A_TIME.lock().await;
    let server = TestServer::start_with(&sqlite_url(), "127.0.0.1:0".parse().unwrap(), test_limits()).await;
    // Public games on big custom maps (the attack: 10 guests, 200 games on 1 MiB maps).
    for g in 0..2 {
        let guest = Client::guest(&server).await;
        for i in 0..15 {
            let map = largest_custom_map(&format!("lobby {g} {i}"));
            let (status, body) =
                guest.post("/api/games", json!({"rules": "classic", "map": map, "players": 2})).await;
            assert_eq!(status, 201, "{body}");
        }
    }
    let before = rss(&server).await;
    // 14 lists at once from one address.
    let lists = (0..14).map(|_| async {
        let r = reqwest::get(server.url("/api/games?status=open&limit=200")).await.unwrap();
        let list: Value = r.json().await.unwrap();
        list["games"].as_array().unwrap().len()
    });
    let listed = futures_util::future::join_all(lists).await;
    assert!(listed.iter().all(|&n| n == 30), "{listed:?}");
    let list: Value =
        reqwest::get(server.url("/api/games?status=open&limit=1")).await.unwrap().json().await.unwrap();
    assert_eq!(list["games"][0]["map"]["custom"]["nodes"], 4096, "{list}");
    let grown = rss(&server).await.saturating_sub(before) >> 20;
    println!("14 lists of 30 games on the largest maps: {grown} MiB");
    assert!(grown < 150, "14 lists grew the server by {grown} MiB");
    server.stop().await;
}
