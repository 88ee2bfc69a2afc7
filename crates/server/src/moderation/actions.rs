//! What moderators do to an account, a chat line or a game's ratings, each in the audit log;
//! the log itself; roles granted by admins.

use axum::{
    Json,
    extract::{Query, State},
};
use serde::Deserialize;

use super::wire::{ActionBody, ActionDone, AuditEntry, AuditLog, RoleBody};
use crate::{
    AppState,
    auth::Session,
    error::ApiError,
    protocol::{OkBody, ServerMessage},
    store::{
        User,
        moderation::Sanction,
        moderation_reports::{LogRow, NewLog},
    },
    table::Command,
};

/// Lines of the audit log listed at once.
const LOG_MAX: i64 = 200;
/// The longest mute or suspension a moderator may give (a ban has no end).
const MAX_DAYS: f64 = 3650.0;

/// What one action did, for its audit line.
struct Done {
    user: Option<i64>,
    detail: Option<String>,
    until_ms: Option<i64>,
}

/// `POST /api/moderation/actions`.
pub async fn act(
    State(app): State<AppState>,
    session: Session,
    Json(body): Json<ActionBody>,
) -> Result<Json<ActionDone>, ApiError> {
    super::moderator(&session)?;
    let reason = body.reason.trim();
    if reason.is_empty() {
        return Err(ApiError::BadRequest("say why: every moderator action has a reason".into()));
    }
    if reason.chars().count() > super::reports::TEXT_MAX_CHARS {
        return Err(ApiError::BadRequest("a reason has at most 1000 characters".into()));
    }
    // A report named is checked before anything is done: a closed one refuses the request.
    if let Some(report) = body.report
        && !app.store.report_is_open(report).await?
    {
        return Err(ApiError::NotFound(format!("no open report {report}")));
    }
    let done = match body.action.as_str() {
        "warn" => Done { user: Some(target(&app, &session, &body).await?.id), detail: None, until_ms: None },
        "mute" | "suspend" => sanction_for_days(&app, &session, &body, reason).await?,
        "unmute" | "unsuspend" | "unban" => lift(&app, &session, &body).await?,
        "ban" => ban(&app, &session, &body, reason).await?,
        "rename" => rename(&app, &session, &body).await?,
        "delete_chat" => delete_chat(&app, &session, &body).await?,
        "void_rating" => void_rating(&app, &session, &body).await?,
        other => {
            return Err(ApiError::BadRequest(format!(
                "unknown action {other:?}: warn, mute, unmute, suspend, unsuspend, ban, unban, rename, delete_chat or void_rating"
            )));
        }
    };
    let line = NewLog {
        moderator: Some(session.user.id),
        user: done.user,
        action: &body.action,
        reason,
        detail: done.detail,
        until_ms: done.until_ms,
    };
    let id = app.store.log_moderation(&line).await?;
    tracing::info!(audit = id, action = %body.action, "a moderator acted");
    if let Some(report) = body.report {
        super::reports::close_report(&app, &session, report, &format!("{}: {reason}", body.action)).await?;
    }
    Ok(Json(ActionDone { ok: true, id }))
}

/// The account an action is on (see [`yours_to_moderate`]).
async fn target(app: &AppState, session: &Session, body: &ActionBody) -> Result<User, ApiError> {
    let name =
        body.user.as_deref().ok_or_else(|| ApiError::BadRequest(format!("{} needs a user", body.action)))?;
    let user = crate::social::user_named(app, name).await?;
    yours_to_moderate(app, session, &user).await?;
    Ok(user)
}

/// Nobody moderates themselves or an admin through the API (the command line takes an admin's
/// role away); moderators are moderated by admins only.
async fn yours_to_moderate(app: &AppState, session: &Session, user: &User) -> Result<(), ApiError> {
    let theirs = app.store.standing(user.id).await?.role;
    let ours = session.standing.role.as_str();
    let allowed = user.id != session.user.id
        && match theirs.as_str() {
            "admin" => false,
            "moderator" => ours == "admin",
            _ => true,
        };
    if allowed { Ok(()) } else { Err(ApiError::Forbidden(format!("{} is not yours to moderate", user.name))) }
}

/// [`yours_to_moderate`] for an account known by id (a chat line's author, a game's players).
async fn yours_by_id(app: &AppState, session: &Session, id: i64) -> Result<(), ApiError> {
    match app.store.user_by_id(id).await? {
        Some(user) => yours_to_moderate(app, session, &user).await,
        None => Ok(()),
    }
}

/// The sessions of `user` end at once (their sockets close): a banned player is out, and a
/// suspended or muted one reconnects to a session that knows it.
async fn end_sessions(app: &AppState, user: i64) -> Result<(), ApiError> {
    for hash in app.store.session_hashes(user).await? {
        app.sessions.end(&hash);
    }
    Ok(())
}

async fn sanction_for_days(
    app: &AppState,
    session: &Session,
    body: &ActionBody,
    reason: &str,
) -> Result<Done, ApiError> {
    let user = target(app, session, body).await?;
    let days = body.days.unwrap_or(1.0);
    if !(days > 0.0 && days <= MAX_DAYS) {
        return Err(ApiError::BadRequest(format!("days must be more than 0 and at most {MAX_DAYS}")));
    }
    let until = crate::store::now_ms() + (days * 86_400_000.0) as i64;
    let sanction = if body.action == "mute" {
        Sanction::MutedUntil(Some(until))
    } else {
        Sanction::SuspendedUntil(Some(until))
    };
    app.store.sanction(user.id, sanction, reason).await?;
    end_sessions(app, user.id).await?;
    Ok(Done { user: Some(user.id), detail: None, until_ms: Some(until) })
}

async fn lift(app: &AppState, session: &Session, body: &ActionBody) -> Result<Done, ApiError> {
    let user = target(app, session, body).await?;
    let sanction = match body.action.as_str() {
        "unmute" => Sanction::MutedUntil(None),
        "unsuspend" => Sanction::SuspendedUntil(None),
        _ => Sanction::Banned(None),
    };
    app.store.sanction(user.id, sanction, "").await?;
    end_sessions(app, user.id).await?;
    Ok(Done { user: Some(user.id), detail: None, until_ms: None })
}

async fn ban(app: &AppState, session: &Session, body: &ActionBody, reason: &str) -> Result<Done, ApiError> {
    let user = target(app, session, body).await?;
    // The hashes first (the ban deletes the sessions), the sockets closed after the ban is
    // written: a client that reconnects in between finds no session.
    let hashes = app.store.session_hashes(user.id).await?;
    app.store.sanction(user.id, Sanction::Banned(Some(crate::store::now_ms())), reason).await?;
    for hash in hashes {
        app.sessions.end(&hash);
    }
    Ok(Done { user: Some(user.id), detail: None, until_ms: None })
}

async fn rename(app: &AppState, session: &Session, body: &ActionBody) -> Result<Done, ApiError> {
    let user = target(app, session, body).await?;
    let name =
        body.name.as_deref().ok_or_else(|| ApiError::BadRequest("rename needs the new name".into()))?;
    crate::auth::check_name(name)?;
    app.store.rename(user.id, name).await?;
    super::tell_tables_renamed(app, user.id, name).await?;
    // Open sockets speak under the name they opened with: they reconnect under the new one.
    end_sessions(app, user.id).await?;
    Ok(Done { user: Some(user.id), detail: Some(format!("{} → {name}", user.name)), until_ms: None })
}

async fn delete_chat(app: &AppState, session: &Session, body: &ActionBody) -> Result<Done, ApiError> {
    let id = body.chat.ok_or_else(|| ApiError::BadRequest("delete_chat needs the chat line's id".into()))?;
    let line =
        app.store.chat_line(id).await?.ok_or_else(|| ApiError::NotFound(format!("no chat line {id}")))?;
    if let Some(author) = line.user_id {
        yours_by_id(app, session, author).await?;
    }
    if !app.store.delete_chat(id).await? {
        return Err(ApiError::Conflict(format!("chat line {id} is deleted already")));
    }
    // Those watching see it go; best effort (a reload shows the chat without it anyway).
    let text = ServerMessage::ChatDeleted { game: line.game_id, id }.to_text().into();
    let _ = app.hub.send(line.game_id, Command::Announce { text, players: None, line: None }).await;
    let detail = format!("game {}, line {id}: {}", line.game_id, line.text);
    Ok(Done { user: line.user_id, detail: Some(detail), until_ms: None })
}

async fn void_rating(app: &AppState, session: &Session, body: &ActionBody) -> Result<Done, ApiError> {
    let game = body.game.ok_or_else(|| ApiError::BadRequest("void_rating needs the game".into()))?;
    // Not a game of one's own, nor of those one may not moderate.
    for seat in app.store.seats(game).await? {
        if let Some(player) = seat.user_id {
            yours_by_id(app, session, player).await?;
        }
    }
    let voided = app.store.void_rating(game).await?;
    if voided.is_empty() {
        return Err(ApiError::NotFound(format!(
            "game {game} moved no rating (or its effect is voided already)"
        )));
    }
    let detail = voided.iter().map(|(name, mu)| format!("{name} {mu:+.1}")).collect::<Vec<_>>().join(", ");
    Ok(Done { user: None, detail: Some(format!("game {game}: returned {detail}")), until_ms: None })
}

pub fn entry(row: LogRow, with_moderator: bool) -> AuditEntry {
    AuditEntry {
        id: row.id,
        moderator: if with_moderator { row.moderator.or_else(|| Some("command line".into())) } else { None },
        user: row.user,
        action: row.action,
        reason: row.reason,
        detail: row.detail,
        until_ms: row.until_ms,
        at_ms: row.at_ms,
    }
}

#[derive(Debug, Deserialize)]
pub struct LogQuery {
    #[serde(default)]
    user: Option<String>,
}

/// `GET /api/moderation/log?user=NAME`.
pub async fn log(
    State(app): State<AppState>,
    session: Session,
    Query(q): Query<LogQuery>,
) -> Result<Json<AuditLog>, ApiError> {
    super::moderator(&session)?;
    let user = match q.user.as_deref().filter(|n| !n.is_empty()) {
        Some(name) => Some(crate::social::user_named(&app, name).await?.id),
        None => None,
    };
    let rows = app.store.moderation_log(user, LOG_MAX).await?;
    Ok(Json(AuditLog { entries: rows.into_iter().map(|r| entry(r, true)).collect() }))
}

/// `POST /api/admin/roles`.
pub async fn grant(
    State(app): State<AppState>,
    session: Session,
    Json(body): Json<RoleBody>,
) -> Result<Json<OkBody>, ApiError> {
    super::admin(&session)?;
    let user = crate::social::user_named(&app, &body.user).await?;
    if user.id == session.user.id {
        return Err(ApiError::BadRequest("another admin changes your own role".into()));
    }
    grant_role(&app.store, Some(session.user.id), &user, &body.role).await?;
    Ok(Json(OkBody { ok: true }))
}

/// Sets `user`'s role, in the audit log (`by` none: the command line).
pub async fn grant_role(
    store: &crate::store::Store,
    by: Option<i64>,
    user: &User,
    role: &str,
) -> Result<(), ApiError> {
    if !super::ROLES.contains(&role) {
        return Err(ApiError::BadRequest(format!("unknown role {role:?}: {}", super::ROLES.join(", "))));
    }
    if user.kind != "registered" && role != "player" {
        return Err(ApiError::BadRequest(format!(
            "{} is a {} account: only registered accounts moderate",
            user.name, user.kind
        )));
    }
    store.set_role(user.id, role).await?;
    let line = NewLog {
        moderator: by,
        user: Some(user.id),
        action: "grant",
        reason: role,
        detail: None,
        until_ms: None,
    };
    store.log_moderation(&line).await?;
    Ok(())
}
