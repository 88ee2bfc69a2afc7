//! A game's record, its SGF and its chat history.

use axum::{
    Json,
    extract::State,
    http::{HeaderMap, HeaderValue, header},
    response::{IntoResponse, Response},
};
use gobeyond_rules::record::{Record, RecordedAction};

use super::access::Readable;
use crate::{
    AppState,
    auth::MaybeSession,
    error::ApiError,
    protocol::{ChatHistory, ChatLine},
    setup::GameSetup,
    store::{
        GameRow,
        chat::{Channel, ChatRight},
    },
};

/// The game's setup, as stored when it was created.
pub(crate) fn setup_of(row: &GameRow) -> Result<GameSetup, ApiError> {
    serde_json::from_str(&row.setup).map_err(|e| ApiError::Internal(format!("game {}: {e}", row.id)))
}

/// The game as a record (the same JSON `gobeyond replay` reads), with every action so far.
pub(crate) async fn record_of(app: &AppState, row: &GameRow) -> Result<Record, ApiError> {
    let id = row.id;
    let setup = setup_of(row)?;
    let names: Vec<String> = app.store.seats(id).await?.iter().map(crate::table::seat_name).collect();
    // A record holds every hand and draw: of a game with hidden cards, only once it is over.
    if row.status != "finished" && setup.new_game().is_ok_and(|g| g.hidden_information()) {
        return Err(ApiError::Conflict(
            "this game hides cards: its record (and stepping through it) is available when it ends".into(),
        ));
    }
    let mut record = setup.record(&names);
    // SGF's DT: the day the game was created, in UTC.
    record.date = Some(crate::dates::utc_date(row.created_ms));
    record.event = app.store.game_event(id).await?.map(Into::into);
    let mut log = Vec::new();
    for (seq, text, at_ms) in app.store.timed_actions(id, 0).await? {
        let a: RecordedAction = serde_json::from_str(&text).map_err(|e| ApiError::Internal(e.to_string()))?;
        log.push((seq, RecordedAction { at_ms: Some(at_ms), ..a }));
    }
    // Moves taken back by agreement are not part of the game.
    record.actions = crate::table::effective(log).into_iter().map(|(_, a)| a).collect();
    Ok(record)
}

pub async fn record(State(app): State<AppState>, Readable(row): Readable) -> Result<Response, ApiError> {
    // With its review tree (record version 2).
    let record = crate::review_tree::with_tree(&app, &row, record_of(&app, &row).await?).await?;
    let mut headers = HeaderMap::new();
    headers.insert(header::CONTENT_TYPE, HeaderValue::from_static("application/json"));
    Ok((headers, record.to_json()).into_response())
}

pub async fn sgf_export(State(app): State<AppState>, Readable(row): Readable) -> Result<Response, ApiError> {
    // With the review tree as branches and C[] comments (docs/formats.md, "SGF").
    let record = crate::review_tree::with_tree(&app, &row, record_of(&app, &row).await?).await?;
    // A replay is CPU work: on the bounded view workers.
    let text = app
        .views
        .run(move || {
            let game = record.replay().map_err(|e| ApiError::Internal(e.to_string()))?;
            let plain = game.sgf(&record.players, record.date.as_deref()).map_err(ApiError::BadRequest)?;
            // The plain writer knows no event (EV, RO): a tournament game goes the record's way.
            if record.variations.is_empty() && record.comments.is_empty() && record.event.is_none() {
                return Ok(plain);
            }
            gobeyond_rules::sgf::export_record(&record).map_err(|e| ApiError::BadRequest(e.to_string()))
        })
        .await??;
    let mut headers = HeaderMap::new();
    headers.insert(header::CONTENT_TYPE, HeaderValue::from_static("application/x-go-sgf"));
    Ok((headers, text).into_response())
}

pub async fn chat(
    State(app): State<AppState>,
    MaybeSession(session): MaybeSession,
    Readable(row): Readable,
) -> Result<Json<ChatHistory>, ApiError> {
    // The same rule the socket applies to a chat line, so that a page offers no chat box to
    // whoever would be refused.
    let right = match &session {
        Some(s) => app.store.chat_right(row.id, s.user.id, s.user.kind == "guest").await?,
        None => ChatRight::Reads("sign in to chat"),
    };
    // The spectators' lines are hidden from the players (who speak in theirs) while they play.
    let seated = right == ChatRight::Speaks(Channel::Players);
    let with_spectators = !seated || row.status == "finished";
    let mut lines = app.store.chat(row.id, 200, with_spectators).await?;
    // Lines of players the reader blocked are left out (see `social::ChatFilter`).
    if let Some(s) = &session {
        let blocked = app.store.related(crate::store::Relation::Block, s.user.id).await?;
        lines.retain(|l| !blocked.iter().any(|b| l.from.as_deref() == Some(b.name.as_str())));
    }
    let (channel, why_not) = match right {
        ChatRight::Speaks(c) => (Some(c), None),
        ChatRight::Reads(why) => (None, Some(why.to_string())),
    };
    Ok(Json(ChatHistory {
        chat: lines
            .into_iter()
            .map(|l| ChatLine { id: l.id, from: l.from, channel: l.channel, text: l.text, at_ms: l.at_ms })
            .collect(),
        may_chat: channel.is_some(),
        channel,
        why_not,
    }))
}
