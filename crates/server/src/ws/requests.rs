//! The answer to each message a client sends on its socket: a pong, a watch (`watch.rs`), an
//! action for a game's table, a chat line.

use std::collections::HashMap;

use gobeyond_rules::registry::Object;
use serde_json::Value;
use tokio::task::JoinHandle;

use super::{Outbox, watch};
use crate::{
    AppState,
    auth::Session,
    error::ApiError,
    protocol::{ClientMessage, ServerMessage},
    social::ChatFilter,
    store::chat::ChatRight,
    table::Command,
};

/// Answers one client message (`docs/api.md`, "The game socket").
pub(super) async fn handle(
    app: &AppState,
    session: &Session,
    message: ClientMessage,
    out: &Outbox,
    watched: &mut HashMap<i64, JoinHandle<()>>,
    chat_filter: &ChatFilter,
) {
    match message {
        ClientMessage::Ping { id } => {
            out.send(ServerMessage::Pong { id }.to_text().into());
        }
        ClientMessage::Watch { game, since } => {
            watch::watch(app, session, game, since, out, watched, chat_filter).await
        }
        ClientMessage::Unwatch { game } => {
            if let Some(t) = watched.remove(&game) {
                t.abort();
            }
        }
        ClientMessage::Act { game, action, seat, after, id } => {
            out.send(act(app, session, game, action, seat, after, id).await.to_text().into());
        }
        ClientMessage::Chat { game, text } => {
            if let Err(e) = chat(app, session, game, text).await {
                let error =
                    ServerMessage::Error { id: None, game: Some(game), error: e.to_string(), code: None };
                out.send(error.to_text().into());
            }
        }
    }
}

/// A seat's action, as its table answers it: acknowledged with its sequence number, or refused
/// with the reason.
async fn act(
    app: &AppState,
    session: &Session,
    game: i64,
    action: Object,
    seat: Option<usize>,
    after: Option<u64>,
    id: Option<Value>,
) -> ServerMessage {
    let user = session.user.id;
    // A suspended player may still resign the games they are in, nothing else. The
    // standing is read afresh: a socket outlives a sanction given on another instance.
    let resigns = action.get("type").and_then(|t| t.as_str()) == Some("resign");
    let allowed = if resigns {
        Ok(())
    } else {
        app.store.standing(user).await.and_then(|s| crate::moderation::may_play(&s))
    };
    let mut result = match allowed {
        Ok(()) => {
            app.hub.ask(game, |reply| Command::Act { user, seat, action, after, reply }).await.and_then(|r| r)
        }
        Err(e) => Err(e),
    };
    // A refusal must not tell someone who may not read a private game that it is there
    // ("the game is over", "you hold no seat"): they get the missing game's answer.
    // Checked on refusals only: an action that went through came from a seat's holder.
    if result.is_err()
        && let Err(missing) = crate::http::visible(app, game, Some(session), None).await
    {
        result = Err(missing);
    }
    match result {
        Ok(seq) => ServerMessage::Ack { id, game, seq },
        Err(e) => ServerMessage::Error {
            id,
            game: Some(game),
            error: e.to_string(),
            code: e.code().map(str::to_string),
        },
    }
}

/// A chat line for a game's channel the sender may speak in.
async fn chat(app: &AppState, session: &Session, game: i64, text: String) -> Result<(), ApiError> {
    let user = session.user.clone();
    let guest = user.kind == "guest";
    let allowed = match app.store.standing(user.id).await {
        Ok(standing) => crate::moderation::may_chat(&standing)
            .and_then(|()| app.account_rates.check(user.id, crate::moderation::Doing::Chat)),
        Err(e) => Err(e),
    };
    // Players in their channel, spectators who may in theirs; others only read.
    let right = match allowed {
        Ok(()) => app.store.chat_right(game, user.id, guest).await,
        Err(e) => Err(e),
    };
    match right {
        Ok(ChatRight::Speaks(channel)) => {
            app.hub.ask(game, |reply| Command::Chat { user, channel, text, reply }).await.and_then(|r| r)
        }
        Ok(ChatRight::Reads(why)) => Err(ApiError::Forbidden(why.into())),
        Err(e) => Err(e),
    }
}
