//! The web client's files (`web/dist`, built by `make web`): embedded in release builds, read
//! from disk in debug builds so that a rebuilt front end shows without recompiling the server.

use axum::{
    http::{HeaderValue, StatusCode, Uri, header},
    response::{Html, IntoResponse, Response},
};
use rust_embed::RustEmbed;

#[derive(RustEmbed)]
#[folder = "../../web/dist"]
#[allow_missing = true]
struct Assets;

/// Shown when the front end has not been built (a server built without `make web`).
const NOT_BUILT: &str = include_str!("../assets/index.html");

pub async fn asset(uri: Uri) -> Response {
    let path = uri.path().trim_start_matches('/');
    if path.starts_with("api/") {
        return (
            StatusCode::NOT_FOUND,
            [(header::CONTENT_TYPE, "application/json")],
            r#"{"error":"no such API route"}"#,
        )
            .into_response();
    }
    if let Some(file) = Assets::get(path).filter(|_| !path.is_empty()) {
        let mime = file.metadata.mimetype().to_string();
        let mut r = file.data.into_response();
        let headers = r.headers_mut();
        if let Ok(v) = HeaderValue::from_str(&mime) {
            headers.insert(header::CONTENT_TYPE, v);
        }
        // Vite puts a content hash in every file name under assets/.
        let cache =
            if path.starts_with("assets/") { "public, max-age=31536000, immutable" } else { "no-cache" };
        headers.insert(header::CACHE_CONTROL, HeaderValue::from_static(cache));
        return r;
    }
    if path.starts_with("assets/") || path.contains('.') {
        return (StatusCode::NOT_FOUND, "not found").into_response();
    }
    // Every other path is a page of the client, which routes by itself.
    match Assets::get("index.html") {
        Some(index) => {
            let mut r = Html(index.data).into_response();
            r.headers_mut().insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
            r
        }
        None => Html(NOT_BUILT).into_response(),
    }
}
