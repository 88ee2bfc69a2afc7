//! A player's own side of moderation: what was done to their account, an export of their data,
//! and deleting their account (games kept under an anonymous name).

use axum::{
    Json,
    extract::State,
    http::header,
    response::{IntoResponse, Response},
};

use super::wire::{AuditLog, DeleteBody};
use crate::{AppState, auth::Session, error::ApiError, limit::ClientIp, protocol::OkBody};

/// Lines of a player's own moderation history listed.
const OWN_LOG_MAX: i64 = 100;

/// `GET /api/me/moderation`: the audit lines about my account, without moderators' names.
pub async fn own_log(State(app): State<AppState>, session: Session) -> Result<Json<AuditLog>, ApiError> {
    let rows = app.store.moderation_log(Some(session.user.id), OWN_LOG_MAX).await?;
    // Roles granted and closed reports are the moderators' business.
    let entries = rows
        .into_iter()
        .filter(|r| r.action != "close_report" && r.action != "grant")
        .map(|r| super::actions::entry(r, false))
        .collect();
    Ok(Json(AuditLog { entries }))
}

/// `GET /api/me/export`: my data as one JSON file.
pub async fn export(State(app): State<AppState>, session: Session) -> Result<Response, ApiError> {
    let mut data = app.store.export_account(session.user.id).await?;
    data.insert("exported_ms".into(), crate::store::now_ms().into());
    let file = format!("attachment; filename=\"gobeyond-{}.json\"", session.user.id);
    Ok(([(header::CONTENT_DISPOSITION, file)], Json(data)).into_response())
}

/// `DELETE /api/me`: a registered account confirms with its password; guests need none.
pub async fn delete(
    State(app): State<AppState>,
    session: Session,
    ClientIp(ip): ClientIp,
    body: Option<Json<DeleteBody>>,
) -> Result<Json<OkBody>, ApiError> {
    if session.user.kind == "bot" {
        return Err(ApiError::BadRequest(
            "a bot goes with its owner's account: its token cannot delete it".into(),
        ));
    }
    let password = body.and_then(|Json(b)| b.password);
    if session.user.password_hash.is_some() {
        // Each try costs a password hash: tries are limited as sign-ins are, per address (a
        // stolen session must not guess the password, nor spend the server's CPU on it).
        if ip.is_some_and(|ip| !app.limiter.allow(ip)) {
            return Err(ApiError::TooMany("too many tries from this address: wait a little".into()));
        }
        let password = password
            .ok_or_else(|| ApiError::BadRequest("type your password to delete your account".into()))?;
        if !crate::auth::verify_password(&app.hashes, password, session.user.password_hash.clone()).await? {
            return Err(ApiError::Forbidden("wrong password".into()));
        }
    }
    if session.standing.role == "admin" {
        return Err(ApiError::BadRequest(
            "an admin's account is deleted after another admin takes away the role".into(),
        ));
    }
    for hash in app.store.session_hashes(session.user.id).await? {
        app.sessions.end(&hash);
    }
    app.store.delete_account(session.user.id).await?;
    let anonymous = format!("deleted-{}", session.user.id);
    super::tell_tables_renamed(&app, session.user.id, &anonymous).await?;
    tracing::info!(user = session.user.id, "an account was deleted by its owner");
    Ok(Json(OkBody { ok: true }))
}
