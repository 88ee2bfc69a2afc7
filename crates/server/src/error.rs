//! One error type for the whole API, mapped to HTTP status codes in one place.

use axum::{
    Json,
    http::StatusCode,
    response::{IntoResponse, Response},
};

#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    #[error("{0}")]
    BadRequest(String),
    /// The rule system refused an input: its code and sentence reach the client.
    #[error("{0}")]
    Refused(gobeyond_rules::Refusal),
    #[error("sign in first (a guest account is one click away)")]
    Unauthorized,
    #[error("{0}")]
    Forbidden(String),
    #[error("{0}")]
    NotFound(String),
    #[error("{0}")]
    Conflict(String),
    /// An action meant for another position than the game's (it moved on since the client's
    /// last update, or the action was applied already): code `stale`.
    #[error("{0}")]
    Stale(String),
    /// The game stopped answering before saying whether a request was applied (its server
    /// died or lost the game): code `unknown`. Watching the game again tells.
    #[error("{0}")]
    Unknown(String),
    #[error("too many requests: {0}")]
    TooMany(String),
    /// The server is at one of its limits (not the client's fault): try again later.
    #[error("{0}")]
    Unavailable(String),
    /// This server lost a game's lease to another (it was paused or cut off): the write was
    /// refused and the game moves to its new owner.
    #[error("{0}")]
    Fenced(String),
    #[error("configuration: {0}")]
    Config(String),
    #[error("database error: {0}")]
    Database(#[from] sqlx::Error),
    #[error("internal error: {0}")]
    Internal(String),
}

impl ApiError {
    pub fn status(&self) -> StatusCode {
        match self {
            ApiError::BadRequest(_) | ApiError::Refused(_) => StatusCode::BAD_REQUEST,
            ApiError::Unauthorized => StatusCode::UNAUTHORIZED,
            ApiError::Forbidden(_) => StatusCode::FORBIDDEN,
            ApiError::NotFound(_) => StatusCode::NOT_FOUND,
            ApiError::Conflict(_) | ApiError::Stale(_) => StatusCode::CONFLICT,
            ApiError::TooMany(_) => StatusCode::TOO_MANY_REQUESTS,
            ApiError::Unavailable(_) | ApiError::Fenced(_) | ApiError::Unknown(_) => {
                StatusCode::SERVICE_UNAVAILABLE
            }
            ApiError::Config(_) | ApiError::Database(_) | ApiError::Internal(_) => {
                StatusCode::INTERNAL_SERVER_ERROR
            }
        }
    }
}

impl ApiError {
    /// The error's kind, a metrics label.
    pub fn kind(&self) -> &'static str {
        match self {
            ApiError::BadRequest(_) => "bad_request",
            ApiError::Refused(_) => "refused",
            ApiError::Unauthorized => "unauthorized",
            ApiError::Forbidden(_) => "forbidden",
            ApiError::NotFound(_) => "not_found",
            ApiError::Conflict(_) => "conflict",
            ApiError::Stale(_) => "stale",
            ApiError::Unknown(_) => "unknown",
            ApiError::TooMany(_) => "too_many",
            ApiError::Unavailable(_) => "unavailable",
            ApiError::Fenced(_) => "fenced",
            ApiError::Config(_) => "config",
            ApiError::Database(_) => "database",
            ApiError::Internal(_) => "internal",
        }
    }

    /// The refusal's code, when the rule system refused; `stale` and `unknown` for the
    /// answers a client acts on by watching the game again.
    pub fn code(&self) -> Option<&str> {
        match self {
            ApiError::Refused(r) => Some(&r.code),
            ApiError::Stale(_) => Some("stale"),
            ApiError::Unknown(_) => Some("unknown"),
            _ => None,
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let status = self.status();
        crate::metrics::metrics()
            .errors
            .get_or_create(&crate::metrics::KindLabels { kind: self.kind().into() })
            .inc();
        if status.is_server_error() && status != StatusCode::SERVICE_UNAVAILABLE {
            tracing::error!(error = %self, "request failed");
        }
        let body =
            crate::protocol::ErrorBody { error: self.to_string(), code: self.code().map(str::to_string) };
        (status, Json(body)).into_response()
    }
}
