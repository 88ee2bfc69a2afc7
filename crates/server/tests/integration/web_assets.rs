//! The web client's files as a browser gets them (issue 41, item 18): scripts and styles
//! compressed (brotli, else gzip) when the browser accepts it, identical once decoded, cached
//! for good under `assets/`. Needs the built client (`make web`, which `make test` runs first).

use std::io::Read;

use crate::common::{TestServer, sqlite_url};

/// The script the page loads, as named in index.html.
async fn main_script(server: &TestServer) -> String {
    let page = reqwest::get(server.url("/")).await.unwrap().text().await.unwrap();
    let start =
        page.find("/assets/").expect("index.html names its script under assets/: run `make web` first");
    let rest = &page[start..];
    let end = rest.find('"').unwrap();
    let path = &rest[..end];
    assert!(path.ends_with(".js"), "the first asset named is the script: {path}");
    path.to_string()
}

async fn fetch(server: &TestServer, path: &str, accept: &str) -> reqwest::Response {
    let client = reqwest::Client::new();
    let r = client.get(server.url(path)).header("accept-encoding", accept).send().await.unwrap();
    assert_eq!(r.status(), 200, "{path} with {accept}");
    r
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn scripts_go_compressed_to_browsers_that_accept_it() {
    let server = TestServer::start(&sqlite_url()).await;
    let script = main_script(&server).await;

    let plain = fetch(&server, &script, "identity").await;
    assert!(plain.headers().get("content-encoding").is_none());
    assert_eq!(plain.headers()["vary"], "accept-encoding");
    assert!(plain.headers()["cache-control"].to_str().unwrap().contains("immutable"));
    let plain = plain.bytes().await.unwrap();

    let br = fetch(&server, &script, "gzip, deflate, br, zstd").await;
    assert_eq!(br.headers()["content-encoding"], "br");
    assert!(br.headers()["content-type"].to_str().unwrap().contains("javascript"));
    let br = br.bytes().await.unwrap();
    assert!(br.len() * 2 < plain.len(), "brotli: {} of {} bytes", br.len(), plain.len());
    let mut decoded = Vec::new();
    brotli::BrotliDecompress(&mut &br[..], &mut decoded).unwrap();
    assert_eq!(decoded, plain, "brotli decodes to the script");

    let gz = fetch(&server, &script, "gzip, deflate").await;
    assert_eq!(gz.headers()["content-encoding"], "gzip");
    let gz = gz.bytes().await.unwrap();
    assert!(gz.len() * 2 < plain.len(), "gzip: {} of {} bytes", gz.len(), plain.len());
    let mut decoded = Vec::new();
    flate2::read::GzDecoder::new(&gz[..]).read_to_end(&mut decoded).unwrap();
    assert_eq!(decoded, plain, "gzip decodes to the script");

    let refused = fetch(&server, &script, "br;q=0, gzip;q=0").await;
    assert!(refused.headers().get("content-encoding").is_none(), "q=0 refuses a coding");
}
