//! Request-rate limits per client address for the requests that create things (guests,
//! accounts, logins, bot tokens): a token bucket per IP. Game traffic is limited per socket in
//! `ws.rs`.

use std::{
    collections::HashMap,
    net::{IpAddr, SocketAddr},
    sync::Mutex,
    time::Instant,
};

use axum::{
    extract::{ConnectInfo, Request, State},
    middleware::Next,
    response::{IntoResponse, Response},
};

use crate::{AppState, error::ApiError};

#[derive(Debug)]
pub struct Limiter {
    per_second: f64,
    burst: f64,
    buckets: Mutex<HashMap<IpAddr, (f64, Instant)>>,
}

impl Limiter {
    /// `per_second` 0 turns the limit off (load tests from one address).
    pub fn new(per_second: f64, burst: f64) -> Limiter {
        Limiter { per_second, burst, buckets: Mutex::new(HashMap::new()) }
    }

    pub fn allow(&self, ip: IpAddr) -> bool {
        if self.per_second <= 0.0 {
            return true;
        }
        let now = Instant::now();
        let mut buckets = self.buckets.lock().unwrap_or_else(|e| e.into_inner());
        if buckets.len() > 100_000 {
            // Forget idle addresses rather than grow without bound.
            buckets.retain(|_, (tokens, at)| *tokens < self.burst && now.duration_since(*at).as_secs() < 600);
        }
        let (tokens, at) = buckets.entry(ip).or_insert((self.burst, now));
        *tokens = (*tokens + now.duration_since(*at).as_secs_f64() * self.per_second).min(self.burst);
        *at = now;
        if *tokens >= 1.0 {
            *tokens -= 1.0;
            true
        } else {
            false
        }
    }
}

pub async fn limit(State(app): State<AppState>, request: Request, next: Next) -> Response {
    let ip = request.extensions().get::<ConnectInfo<SocketAddr>>().map(|c| c.0.ip());
    if let Some(ip) = ip
        && !app.limiter.allow(ip)
    {
        return ApiError::TooMany("too many sign-ups or logins from this address: wait a little".into())
            .into_response();
    }
    next.run(request).await
}
