//! The web UI's files. Until the browser client lands, a small page that says what runs here.

use axum::{
    http::{StatusCode, Uri, header},
    response::{Html, IntoResponse, Response},
};

const INDEX: &str = include_str!("../assets/index.html");

pub async fn asset(uri: Uri) -> Response {
    match uri.path() {
        "/" | "/index.html" => Html(INDEX).into_response(),
        p if p.starts_with("/api/") => (
            StatusCode::NOT_FOUND,
            [(header::CONTENT_TYPE, "application/json")],
            r#"{"error":"no such API route"}"#,
        )
            .into_response(),
        _ => (StatusCode::NOT_FOUND, "not found").into_response(),
    }
}
