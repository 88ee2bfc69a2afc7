//! The mail routes: an account's address and notices, the links mails carry (confirm,
//! unsubscribe, password reset) and forgot-password. Tokens come in request bodies (or the
//! one-click unsubscribe URL's query, which request logs leave out).

use axum::{
    Json,
    body::Bytes,
    extract::{Query, State},
};
use serde::{Deserialize, Serialize};

use super::{address::check_address, compose::LinkPayload};
use crate::{
    AppState, auth,
    auth::Session,
    error::ApiError,
    protocol::OkBody,
    store::{
        mail::{MailPrefs, NewMail, TokenProblem, TokenRow},
        now_ms,
    },
};

const HOUR_MS: i64 = 3600 * 1000;
/// Confirmation links work for a day, reset links for an hour.
const CONFIRM_MS: i64 = 24 * HOUR_MS;
const RESET_MS: i64 = HOUR_MS;
/// Confirmation mails one address may be sent per day, whichever accounts ask.
const CONFIRMS_PER_ADDRESS: i64 = 3;
/// The hours a notice setting may take.
const MAX_HOURS: i64 = 7 * 24;
/// Tokens are 43 characters; anything much longer is not one.
const MAX_TOKEN: usize = 128;

/// `GET /api/mail`: whether this server sends mail, and the account's address and notices.
#[derive(Debug, Serialize, ts_rs::TS)]
pub struct MailSettings {
    /// This server sends mail (without, the web app says so).
    pub enabled: bool,
    /// Only registered accounts may add an address.
    pub registered: bool,
    pub address: Option<String>,
    pub confirmed: bool,
    pub prefs: Option<MailPrefs>,
}

fn mail_off() -> ApiError {
    ApiError::Unavailable("this server sends no mail (its host has not set it up)".into())
}

pub async fn settings(State(app): State<AppState>, session: Session) -> Result<Json<MailSettings>, ApiError> {
    let address = app.store.mail_address(session.user.id).await?;
    Ok(Json(MailSettings {
        enabled: app.mail.is_some(),
        registered: session.user.kind == "registered",
        confirmed: address.as_ref().is_some_and(|a| a.confirmed),
        prefs: address.as_ref().map(|a| a.prefs.clone()),
        address: address.map(|a| a.address),
    }))
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewAddress {
    address: String,
}

/// `PUT /api/mail/address`: a new address, unconfirmed until its mailed link is opened.
pub async fn set_address(
    State(app): State<AppState>,
    session: Session,
    Json(body): Json<NewAddress>,
) -> Result<Json<MailSettings>, ApiError> {
    let mailer = app.mail.clone().ok_or_else(mail_off)?;
    if session.user.kind != "registered" {
        return Err(ApiError::Forbidden(
            "register the account first: guests cannot add an email address".into(),
        ));
    }
    let address = body.address.trim();
    check_address(address)?;
    if app.store.mails_to_address_today(address).await? >= CONFIRMS_PER_ADDRESS {
        return Err(ApiError::TooMany(
            "this address was sent enough confirmation mails today: try tomorrow".into(),
        ));
    }
    let user = session.user.id;
    app.store.set_mail_address(user, address).await?;
    let token = auth::new_token()?;
    app.store
        .insert_mail_token(
            &auth::token_hash(&token),
            user,
            "confirm",
            Some(address),
            None,
            now_ms() + CONFIRM_MS,
        )
        .await?;
    let payload = serde_json::to_string(&LinkPayload { token, name: None })
        .map_err(|e| ApiError::Internal(e.to_string()))?;
    let mail = NewMail {
        user_id: user,
        kind: "confirm",
        game_id: None,
        to_address: Some(address),
        payload: &payload,
        due_ms: now_ms(),
    };
    if !app.store.enqueue_mail(&mail, mailer.config.bounds()).await? {
        return Err(ApiError::TooMany("this account was sent enough mails today: try tomorrow".into()));
    }
    mailer.wake.notify_one();
    settings(State(app), session).await
}

/// `DELETE /api/mail/address`: no more mail to this account.
pub async fn delete_address(
    State(app): State<AppState>,
    session: Session,
) -> Result<Json<MailSettings>, ApiError> {
    app.store.delete_mail_address(session.user.id).await?;
    settings(State(app), session).await
}

/// `PUT /api/mail/prefs`: which notices the account wants.
pub async fn set_prefs(
    State(app): State<AppState>,
    session: Session,
    Json(prefs): Json<MailPrefs>,
) -> Result<Json<MailSettings>, ApiError> {
    for (name, hours) in [("idle_hours", prefs.idle_hours), ("time_low_hours", prefs.time_low_hours)] {
        if !(1..=MAX_HOURS).contains(&hours) {
            return Err(ApiError::BadRequest(format!("{name} is {hours}: it takes 1 to {MAX_HOURS} hours")));
        }
    }
    if !app.store.set_mail_prefs(session.user.id, &prefs).await? {
        return Err(ApiError::NotFound("add an email address first".into()));
    }
    settings(State(app), session).await
}

/// A token from a link, checked for shape; the refusal names the link.
fn token_of(token: &str, link: &str) -> Result<String, ApiError> {
    let token = token.trim();
    if token.is_empty()
        || token.len() > MAX_TOKEN
        || !token.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
    {
        return Err(ApiError::BadRequest(format!(
            "this {link} link is not whole: copy all of it from the mail"
        )));
    }
    Ok(auth::token_hash(token))
}

/// Why a link's token was refused, in the player's words.
fn refused(problem: TokenProblem, link: &str, again: &str) -> ApiError {
    match problem {
        TokenProblem::Unknown => ApiError::NotFound(format!("this {link} link is not known: {again}")),
        TokenProblem::Used => {
            ApiError::Conflict(format!("this {link} link was used already: it works once ({again})"))
        }
        TokenProblem::Expired => ApiError::BadRequest(format!("this {link} link expired: {again}")),
    }
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TokenBody {
    token: String,
}

#[derive(Debug, Serialize, ts_rs::TS)]
pub struct Confirmed {
    pub address: String,
}

/// `POST /api/mail/confirm`: the confirmation link was opened (no session needed).
pub async fn confirm(
    State(app): State<AppState>,
    Json(body): Json<TokenBody>,
) -> Result<Json<Confirmed>, ApiError> {
    let hash = token_of(&body.token, "confirmation")?;
    let again = "add the address again in your mail settings for a new one";
    let row: TokenRow =
        app.store.mail_token(&hash, "confirm", true).await?.map_err(|p| refused(p, "confirmation", again))?;
    let address = row.address.unwrap_or_default();
    if !app.store.confirm_mail_address(row.user_id, &address).await? {
        return Err(ApiError::Conflict(
            "this confirmation link is for an address the account no longer has".into(),
        ));
    }
    Ok(Json(Confirmed { address }))
}

#[derive(Debug, Deserialize)]
pub struct UnsubscribeQuery {
    token: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UnsubscribeBody {
    token: String,
    /// Every kind of notice, not only the mail's.
    #[serde(default)]
    all: bool,
}

#[derive(Debug, Serialize, ts_rs::TS)]
pub struct Unsubscribed {
    /// The notice turned off (`your_turn`, `time_low`, `challenge`, `game_over`, `digest`,
    /// `tournament`), or `all`.
    pub notice: String,
}

/// `POST /api/mail/unsubscribe`: a mail's unsubscribe link, from the web page (JSON body) or a
/// mail program's one-click button (RFC 8058: the token in the URL, a form body we ignore).
/// Works without a session and as often as it is followed, until it expires.
pub async fn unsubscribe(
    State(app): State<AppState>,
    Query(query): Query<UnsubscribeQuery>,
    body: Bytes,
) -> Result<Json<Unsubscribed>, ApiError> {
    let (token, all) = match query.token {
        Some(t) => (t, false),
        None => {
            let b: UnsubscribeBody = serde_json::from_slice(&body).map_err(|_| {
                ApiError::BadRequest("send {\"token\": …} from the mail's unsubscribe link".into())
            })?;
            (b.token, b.all)
        }
    };
    let hash = token_of(&token, "unsubscribe")?;
    let again = "turn notices off in your mail settings instead";
    let row = app
        .store
        .mail_token(&hash, "unsubscribe", false)
        .await?
        .map_err(|p| refused(p, "unsubscribe", again))?;
    let notice = if all { "all".to_string() } else { row.notice.unwrap_or_else(|| "all".into()) };
    app.store.mail_unsubscribe(row.user_id, &notice).await?;
    Ok(Json(Unsubscribed { notice }))
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Forgot {
    /// The account's name or its confirmed address.
    who: String,
}

/// `POST /api/password/forgot`: mails a reset link to the account's confirmed address, if
/// there is one. The answer is the same either way: it tells nobody which names or addresses
/// exist.
pub async fn forgot_password(
    State(app): State<AppState>,
    Json(body): Json<Forgot>,
) -> Result<Json<OkBody>, ApiError> {
    let mailer = app.mail.clone().ok_or_else(|| {
        ApiError::Unavailable("this server sends no mail: ask its host to reset your password".into())
    })?;
    let who = body.who.trim();
    if who.is_empty() || who.chars().count() > super::address::MAX_ADDRESS {
        return Err(ApiError::BadRequest("write your account's name or email address".into()));
    }
    let user = if who.contains('@') {
        app.store.user_by_mail(who).await?
    } else {
        app.store.user_by_name(who).await?.filter(|u| u.kind == "registered").map(|u| u.id)
    };
    if let Some(user) = user
        && let Some(address) = app.store.mail_address(user).await?
        && address.confirmed
    {
        let token = auth::new_token()?;
        app.store
            .insert_mail_token(&auth::token_hash(&token), user, "reset", None, None, now_ms() + RESET_MS)
            .await?;
        let name = app.store.user_name(user).await?;
        let payload = serde_json::to_string(&LinkPayload { token, name })
            .map_err(|e| ApiError::Internal(e.to_string()))?;
        let mail = NewMail {
            user_id: user,
            kind: "reset",
            game_id: None,
            to_address: None,
            payload: &payload,
            due_ms: now_ms(),
        };
        // Past the account's daily mails nothing is sent, and nothing is said.
        if app.store.enqueue_mail(&mail, mailer.config.bounds()).await? {
            mailer.wake.notify_one();
        }
    }
    Ok(Json(OkBody { ok: true }))
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Reset {
    token: String,
    password: String,
}

#[derive(Debug, Serialize, ts_rs::TS)]
pub struct PasswordReset {
    /// The account whose password changed (sign in with it).
    pub name: String,
}

/// `POST /api/password/reset`: a new password through a mailed link. The link works once; every
/// session of the account ends.
pub async fn reset_password(
    State(app): State<AppState>,
    Json(body): Json<Reset>,
) -> Result<Json<PasswordReset>, ApiError> {
    let hash = token_of(&body.token, "password reset")?;
    let again = "ask for a new one with \"forgot password\"";
    // Checked before it is used: a refused password leaves the link working.
    let row = app
        .store
        .mail_token(&hash, "reset", false)
        .await?
        .map_err(|p| refused(p, "password reset", again))?;
    let name = app
        .store
        .user_name(row.user_id)
        .await?
        .ok_or_else(|| ApiError::NotFound("that account is gone".into()))?;
    auth::check_password(&name, &body.password)?;
    let password_hash = auth::hash_password(&app.hashes, body.password).await?;
    app.store.mail_token(&hash, "reset", true).await?.map_err(|p| refused(p, "password reset", again))?;
    for session in app.store.reset_password(row.user_id, &password_hash).await? {
        app.sessions.end(&session);
    }
    tracing::info!(user = row.user_id, "password reset through a mailed link");
    Ok(Json(PasswordReset { name }))
}
