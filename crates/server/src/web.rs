//! The web client's files (`web/dist`, built by `make web`): embedded in release builds, read
//! from disk in debug builds so that a rebuilt front end shows without recompiling the server.

use crate::web_encoding::{self, Coding};
use axum::{
    http::{HeaderMap, HeaderValue, StatusCode, Uri, header},
    response::{Html, IntoResponse, Response},
};
use rust_embed::RustEmbed;

#[derive(RustEmbed)]
#[folder = "../../web/dist"]
#[allow_missing = true]
struct Assets;

/// Shown when the front end has not been built (a server built without `make web`).
const NOT_BUILT: &str = include_str!("../assets/index.html");

/// The client's pages load only what the server serves (scripts, styles, the game socket), and
/// no other site may frame them (clickjacking a move or a resignation).
pub const CONTENT_SECURITY_POLICY: &str = "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; \
     connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'; object-src 'none'";

fn secure(mut r: Response) -> Response {
    let h = r.headers_mut();
    h.insert(header::CONTENT_SECURITY_POLICY, HeaderValue::from_static(CONTENT_SECURITY_POLICY));
    h.insert(header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
    h.insert(header::REFERRER_POLICY, HeaderValue::from_static("same-origin"));
    r
}

pub async fn asset(uri: Uri, headers: HeaderMap) -> Response {
    let coding =
        headers.get(header::ACCEPT_ENCODING).and_then(|v| v.to_str().ok()).and_then(web_encoding::preferred);
    // Reading the file and compressing it the first time are blocking work.
    let served = tokio::task::spawn_blocking(move || serve_asset(uri, coding)).await;
    secure(served.unwrap_or_else(|_| StatusCode::INTERNAL_SERVER_ERROR.into_response()))
}

fn serve_asset(uri: Uri, coding: Option<Coding>) -> Response {
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
        let compressible = web_encoding::compressible(&mime);
        let encoded = coding
            .filter(|_| compressible)
            .and_then(|c| Some((c, web_encoding::encoded(file.metadata.sha256_hash(), &file.data, c)?)));
        let mut r = match &encoded {
            Some((_, bytes)) => bytes.clone().into_response(),
            None => file.data.into_response(),
        };
        let headers = r.headers_mut();
        if let Some((c, _)) = encoded {
            headers.insert(header::CONTENT_ENCODING, HeaderValue::from_static(c.header_value()));
        }
        if compressible {
            headers.insert(header::VARY, HeaderValue::from_static("accept-encoding"));
        }
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
