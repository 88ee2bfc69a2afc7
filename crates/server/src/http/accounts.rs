//! Accounts over HTTP: guests, registration, sign-in and out, and the bots a user owns.

use std::net::SocketAddr;

use axum::{
    Json,
    extract::{ConnectInfo, Path, State},
    http::{HeaderMap, HeaderValue, StatusCode, header},
    response::{IntoResponse, Response},
};
use serde::Deserialize;

use crate::{
    AppState,
    auth::{self, Https, MaybeSession, Session},
    error::ApiError,
    limit::ClientIp,
    protocol::{BotCreated, BotList, MeBody, OkBody, UserBody},
};

fn with_cookie(cookie: String, body: impl serde::Serialize) -> Response {
    let mut r = Json(body).into_response();
    if let Ok(v) = HeaderValue::from_str(&cookie) {
        r.headers_mut().insert(header::SET_COOKIE, v);
    }
    r
}

/// A new session; browser sessions (`cookie`) end after the configured lifetime.
async fn new_session(app: &AppState, user_id: i64, kind: &str) -> Result<String, ApiError> {
    let token = auth::new_token()?;
    let lifetime = app.config.limits.session_lifetime.as_millis() as i64;
    let expires = (kind == "cookie").then(|| crate::store::now_ms() + lifetime);
    app.store.insert_session(&auth::token_hash(&token), user_id, kind, expires).await?;
    Ok(token)
}

/// A browser session and its cookie.
async fn signed_in(
    app: &AppState,
    https: Https,
    user: crate::store::User,
    claimed: bool,
) -> Result<Response, ApiError> {
    let token = new_session(app, user.id, "cookie").await?;
    let cookie = auth::session_cookie(&token, https.0, app.config.limits.session_lifetime);
    Ok(with_cookie(cookie, UserBody { user, claimed_guest: claimed }))
}

/// One click: a guest account and its session.
pub async fn guest(
    State(app): State<AppState>,
    https: Https,
    ClientIp(ip): ClientIp,
) -> Result<Response, ApiError> {
    crate::moderation::count_signup(&app, ip).await?;
    let tag = auth::new_token()?;
    let name =
        format!("guest-{}", tag.chars().filter(char::is_ascii_alphanumeric).take(8).collect::<String>());
    let user = app.store.create_user(&name, "guest", None, None).await?;
    signed_in(&app, https, user, false).await
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Credentials {
    name: String,
    password: String,
}

/// The client's address (behind a trusted proxy, the one it forwarded for).
fn client_ip(app: &AppState, headers: &HeaderMap, peer: SocketAddr) -> std::net::IpAddr {
    crate::limit::forwarded_ip(headers, peer.ip(), &app.config.trusted_proxies)
}

/// A new account; a signed-in guest who registers keeps its games (the guest is claimed).
pub async fn register(
    State(app): State<AppState>,
    https: Https,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    MaybeSession(session): MaybeSession,
    Json(c): Json<Credentials>,
) -> Result<Response, ApiError> {
    auth::check_credentials(&c.name, &c.password)?;
    let hash = auth::hash_password(&app.hashes, c.password).await?;
    let (user, claimed) = match session {
        Some(s) if s.user.kind == "guest" => {
            let user = app.store.register_guest(s.user.id, &c.name, &hash).await?;
            // A new account gets a new token: whoever learnt the guest's cannot follow it in.
            app.store.delete_session(&s.token_hash).await?;
            app.sessions.end(&s.token_hash);
            (user, true)
        }
        _ => {
            crate::moderation::count_signup(&app, Some(client_ip(&app, &headers, peer))).await?;
            (app.store.create_user(&c.name, "registered", Some(&hash), None).await?, false)
        }
    };
    // The address an account was made from is its owner's (see `LoginBackoff`).
    app.logins.succeeded(&auth::name_key(&user.name), client_ip(&app, &headers, peer));
    signed_in(&app, https, user, claimed).await
}

/// Signs in. Failed logins slow down per (account, address) and, far later, per account; a
/// login carrying a session of the account is its owner's and never waits ([`LoginBackoff`]).
///
/// [`LoginBackoff`]: crate::limit::LoginBackoff
pub async fn login(
    State(app): State<AppState>,
    https: Https,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    MaybeSession(session): MaybeSession,
    Json(c): Json<Credentials>,
) -> Result<Response, ApiError> {
    let wrong = || ApiError::Forbidden("wrong name or password".into());
    let account = auth::name_key(&c.name);
    let ip = client_ip(&app, &headers, peer);
    let owner = session.is_some_and(|s| auth::name_key(&s.user.name) == account);
    if let Err(wait) = app.logins.check(&account, ip, owner) {
        let whence = if wait.account_wide { "from many addresses" } else { "from this address" };
        return Err(ApiError::TooMany(format!(
            "too many failed logins for this account {whence}: try again in {} s",
            wait.seconds
        )));
    }
    let user = app.store.user_by_name(&c.name).await?;
    let hash = user.as_ref().and_then(|u| u.password_hash.clone());
    // A missing account costs the same hash as a wrong password.
    if !auth::verify_password(&app.hashes, c.password, hash).await? {
        app.logins.failed(&account, ip);
        return Err(wrong());
    }
    app.logins.succeeded(&account, ip);
    let user = user.ok_or_else(wrong)?;
    // Only the owner, who typed the password, learns the ban and its reason.
    let standing = app.store.standing(user.id).await?;
    if standing.banned {
        let reason = standing.ban_reason.as_deref().unwrap_or("no reason given");
        return Err(ApiError::Forbidden(format!("this account is banned: {reason}")));
    }
    signed_in(&app, https, user, false).await
}

/// Ends the session: its cookie, its row, and its open game sockets.
pub async fn logout(
    State(app): State<AppState>,
    https: Https,
    session: Session,
) -> Result<Response, ApiError> {
    app.store.delete_session(&session.token_hash).await?;
    app.sessions.end(&session.token_hash);
    Ok(with_cookie(auth::clear_cookie(https.0), OkBody { ok: true }))
}

/// `GET /api/me`: who is signed in. A first visit carries no credential at all and is told
/// "nobody" (`{"user": null}`, not an error: browsers log every 401); a credential that no
/// longer signs in is still a 401.
pub async fn me(headers: HeaderMap, MaybeSession(session): MaybeSession) -> Result<Json<MeBody>, ApiError> {
    match session {
        Some(s) => Ok(Json(MeBody { standing: Some((&s.standing).into()), user: Some(s.user) })),
        None if auth::request_token(&headers).is_some() => Err(ApiError::Unauthorized),
        None => Ok(Json(MeBody { user: None, standing: None })),
    }
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewBot {
    name: String,
    /// The token ends after this many days (default: never).
    #[serde(default)]
    expires_days: Option<u32>,
}

/// Bots one registered user may own.
pub const MAX_BOTS_PER_OWNER: i64 = 10;
/// The longest a bot token may be set to last, in days (leave the expiry out for never).
pub const MAX_TOKEN_DAYS: u32 = 3650;

/// A new program token for `bot` in place of all its others (whose sockets close at once).
async fn new_bot_token(
    app: &AppState,
    bot: &crate::store::User,
    days: Option<u32>,
) -> Result<String, ApiError> {
    if let Some(d) = days
        && !(1..=MAX_TOKEN_DAYS).contains(&d)
    {
        return Err(ApiError::BadRequest(format!(
            "expires_days {d}: 1 to {MAX_TOKEN_DAYS} days, or leave it out for a token that does not expire"
        )));
    }
    let expires = days.map(|d| crate::store::now_ms() + i64::from(d) * 24 * 3600 * 1000);
    let token = auth::new_token()?;
    for old in app.store.replace_tokens(bot.id, &auth::token_hash(&token), "api", expires).await? {
        app.sessions.end(&old);
    }
    Ok(token)
}

/// A bot account owned by a registered user; the API token is shown once.
pub async fn create_bot(
    State(app): State<AppState>,
    session: Session,
    Json(b): Json<NewBot>,
) -> Result<Response, ApiError> {
    if session.user.kind != "registered" {
        return Err(ApiError::Forbidden("register an account to own bots".into()));
    }
    crate::moderation::may_play(&session.standing)?;
    auth::check_name(&b.name)?;
    let user = app.store.create_bot(session.user.id, &b.name, MAX_BOTS_PER_OWNER).await?;
    let token = new_bot_token(&app, &user, b.expires_days).await?;
    Ok((StatusCode::CREATED, Json(BotCreated { user, token })).into_response())
}

#[derive(Debug, Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct TokenBody {
    #[serde(default)]
    expires_days: Option<u32>,
}

/// `POST /api/bots/{name}/token`: a new token for one of your bots; its old token stops
/// working at once and its sockets close (a leaked token is no longer for ever).
pub async fn rotate_bot_token(
    State(app): State<AppState>,
    session: Session,
    Path(name): Path<String>,
    body: Option<Json<TokenBody>>,
) -> Result<Json<BotCreated>, ApiError> {
    crate::moderation::may_play(&session.standing)?;
    let Some(bot) = app.store.bot_of(session.user.id, &name).await? else {
        return Err(ApiError::NotFound(format!("you have no bot called {name:?}")));
    };
    let TokenBody { expires_days } = body.map(|Json(b)| b).unwrap_or_default();
    let token = new_bot_token(&app, &bot, expires_days).await?;
    Ok(Json(BotCreated { user: bot, token }))
}

pub async fn my_bots(State(app): State<AppState>, session: Session) -> Result<Json<BotList>, ApiError> {
    Ok(Json(BotList { bots: app.store.bots_of(session.user.id).await? }))
}
