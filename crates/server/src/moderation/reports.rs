//! Players' reports (of a player, a chat line or a game) and the moderators' queue, each report
//! with its context: the chat around the line, or the game's last lines.

use axum::{
    Json,
    extract::{Path, Query, State},
    http::StatusCode,
};
use serde::Deserialize;

use super::wire::{CloseBody, ModChatLine, ReportBody, ReportCreated, ReportQueue, ReportView};
use crate::{
    AppState,
    auth::Session,
    error::ApiError,
    protocol::OkBody,
    store::{
        moderation::ChatRow,
        moderation_reports::{NewLog, NewReport, ReportRow},
    },
};

/// Why a player may report.
pub const REASONS: [&str; 5] = ["abuse", "cheating", "name", "spam", "other"];
/// A report's free text, in characters.
pub const TEXT_MAX_CHARS: usize = 1000;
/// Chat lines shown each side of a reported line.
const CONTEXT_LINES: i64 = 5;
/// Reports listed at once.
const QUEUE_MAX: i64 = 100;

fn line(c: &ChatRow) -> ModChatLine {
    ModChatLine { id: c.id, from: c.from.clone(), text: c.text.clone(), at_ms: c.at_ms, deleted: c.deleted }
}

/// `POST /api/reports`.
pub async fn report(
    State(app): State<AppState>,
    session: Session,
    Json(body): Json<ReportBody>,
) -> Result<(StatusCode, Json<ReportCreated>), ApiError> {
    // A guest costs nothing to make: reports come from accounts with a name and a password.
    if session.user.kind != "registered" {
        return Err(ApiError::Forbidden("choose a name and a password (Account) to report".into()));
    }
    if !REASONS.contains(&body.reason.as_str()) {
        return Err(ApiError::BadRequest(format!(
            "unknown reason {:?}: one of {}",
            body.reason,
            REASONS.join(", ")
        )));
    }
    let text = crate::table::chat::clean(&body.text);
    if text.chars().count() > TEXT_MAX_CHARS {
        return Err(ApiError::BadRequest(format!("a report's text has at most {TEXT_MAX_CHARS} characters")));
    }
    let mut user = match &body.user {
        Some(name) => Some(crate::social::user_named(&app, name).await?.id),
        None => None,
    };
    let mut game = body.game;
    if let Some(id) = body.chat {
        // One answer for a line that is not there, not readable by the reporter (a private
        // game's) or not in the game named: none tells a private game's line exists.
        let missing = || ApiError::NotFound(format!("no chat line {id} in a game you can see"));
        let chat = app.store.chat_line(id).await?.ok_or_else(missing)?;
        let readable = crate::http::visible(&app, chat.game_id, Some(&session), None).await.is_ok();
        if !readable || game.is_some_and(|g| g != chat.game_id) {
            return Err(missing());
        }
        game = Some(chat.game_id);
        user = user.or(chat.user_id);
    }
    if let Some(id) = game {
        // Only what the reporter may see: a private game's id reveals nothing.
        crate::http::visible(&app, id, Some(&session), None).await?;
    }
    if user.is_none() && game.is_none() {
        return Err(ApiError::BadRequest("a report names a player, a game or a chat line".into()));
    }
    if user == Some(session.user.id) {
        return Err(ApiError::BadRequest("you cannot report yourself".into()));
    }
    let per_day = app.config.limits.account_reports_per_day;
    let new = NewReport {
        reporter: session.user.id,
        user,
        game,
        chat: body.chat,
        reason: &body.reason,
        text: &text,
    };
    let day_ago = crate::store::now_ms() - 24 * 3600 * 1000;
    let id = app
        .store
        .add_report(&new, day_ago, i64::from(per_day))
        .await?
        .ok_or_else(|| ApiError::TooMany(format!("at most {per_day} reports a day from one account")))?;
    tracing::info!(report = id, "a player sent a report");
    Ok((StatusCode::CREATED, Json(ReportCreated { id })))
}

#[derive(Debug, Deserialize)]
pub struct QueueQuery {
    #[serde(default)]
    status: Option<String>,
}

/// `GET /api/moderation/reports?status=open|closed`.
pub async fn queue(
    State(app): State<AppState>,
    session: Session,
    Query(q): Query<QueueQuery>,
) -> Result<Json<ReportQueue>, ApiError> {
    super::moderator(&session)?;
    let status = q.status.as_deref().unwrap_or("open");
    if !matches!(status, "open" | "closed") {
        return Err(ApiError::BadRequest(format!("unknown status {status:?}: open or closed")));
    }
    let mut reports = Vec::new();
    for row in app.store.reports(status, QUEUE_MAX).await? {
        reports.push(with_context(&app, row).await?);
    }
    Ok(Json(ReportQueue { reports }))
}

async fn with_context(app: &AppState, r: ReportRow) -> Result<ReportView, ApiError> {
    let chat = match r.chat {
        Some(id) => app.store.chat_line(id).await?,
        None => None,
    };
    let context = match r.game {
        Some(game) => app.store.chat_context(game, r.chat, CONTEXT_LINES).await?,
        None => Vec::new(),
    };
    Ok(ReportView {
        id: r.id,
        reporter: r.reporter,
        user: r.user,
        game: r.game,
        chat: chat.as_ref().map(line),
        context: context.iter().map(line).collect(),
        reason: r.reason,
        text: r.text,
        created_ms: r.created_ms,
        status: r.status,
        closed_by: r.closed_by,
        note: r.note,
    })
}

/// `POST /api/moderation/reports/:id/close`: done with a report (an action may close it too).
pub async fn close(
    State(app): State<AppState>,
    session: Session,
    Path(id): Path<i64>,
    Json(body): Json<CloseBody>,
) -> Result<Json<OkBody>, ApiError> {
    super::moderator(&session)?;
    close_report(&app, &session, id, &body.note).await?;
    Ok(Json(OkBody { ok: true }))
}

/// Closes report `id` with `note`, in the audit log.
pub async fn close_report(app: &AppState, session: &Session, id: i64, note: &str) -> Result<(), ApiError> {
    if !app.store.close_report(id, session.user.id, note).await? {
        return Err(ApiError::NotFound(format!("no open report {id}")));
    }
    let line = NewLog {
        moderator: Some(session.user.id),
        user: None,
        action: "close_report",
        reason: note,
        detail: Some(format!("report {id}")),
        until_ms: None,
    };
    app.store.log_moderation(&line).await?;
    Ok(())
}
