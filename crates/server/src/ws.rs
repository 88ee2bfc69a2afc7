//! The WebSocket protocol (`GET /api/ws`): one socket per client, any number of watched games.
//! Every client message gets an answer (`ack`, `sync`, `pong` or `error`); updates of watched
//! games arrive as they happen. See `docs/api.md`.

use std::{
    collections::HashMap,
    sync::Arc,
    time::{Duration, Instant},
};

use axum::{
    extract::{
        State,
        ws::{Message, WebSocket, WebSocketUpgrade},
    },
    http::HeaderMap,
    response::{IntoResponse, Response},
};
use futures_util::{SinkExt, StreamExt};
use tokio::sync::{broadcast, mpsc};

use crate::{
    AppState,
    auth::{Session, origin_allowed},
    error::ApiError,
    protocol::{ClientMessage, ServerMessage},
    table::Command,
};

/// Largest client frame accepted.
pub const MAX_FRAME: usize = 64 * 1024;
/// Client messages per second, sustained (with a burst of twice that).
const MESSAGES_PER_SECOND: f64 = 20.0;
const MAX_WATCHED: usize = 50;

pub async fn upgrade(
    State(app): State<AppState>,
    headers: HeaderMap,
    session: Result<Session, ApiError>,
    ws: WebSocketUpgrade,
) -> Response {
    if !origin_allowed(&headers, &app.config.allowed_origins) {
        return ApiError::Forbidden("this page's origin may not open a game socket".into()).into_response();
    }
    let session = match session {
        Ok(s) => s,
        Err(e) => return e.into_response(),
    };
    ws.max_message_size(MAX_FRAME)
        .max_frame_size(MAX_FRAME)
        .on_upgrade(move |socket| client(app, session, socket))
}

/// A token bucket: a burst, then a steady rate.
struct Bucket {
    tokens: f64,
    at: Instant,
}

impl Bucket {
    fn take(&mut self) -> bool {
        let now = Instant::now();
        self.tokens = (self.tokens + now.duration_since(self.at).as_secs_f64() * MESSAGES_PER_SECOND)
            .min(2.0 * MESSAGES_PER_SECOND);
        self.at = now;
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            true
        } else {
            false
        }
    }
}

async fn client(app: AppState, session: Session, socket: WebSocket) {
    let (mut sink, mut stream) = socket.split();
    // Everything for the client goes through one queue, written by one task.
    let (out, mut out_rx) = mpsc::channel::<Arc<str>>(512);
    let writer = tokio::spawn(async move {
        while let Some(text) = out_rx.recv().await {
            if sink.send(Message::Text(text.as_ref().into())).await.is_err() {
                break;
            }
        }
        let _ = sink.close().await;
    });
    let hello = ServerMessage::Hello { user: session.user.clone() };
    let _ = out.send(hello.to_text().into()).await;
    let mut watched: HashMap<i64, tokio::task::JoinHandle<()>> = HashMap::new();
    let mut bucket = Bucket { tokens: 2.0 * MESSAGES_PER_SECOND, at: Instant::now() };
    while let Some(frame) = stream.next().await {
        let text = match frame {
            Ok(Message::Text(t)) => t,
            Ok(Message::Binary(_)) => {
                send_error(&out, None, "binary frames are not part of the protocol: send JSON text").await;
                continue;
            }
            Ok(Message::Close(_)) | Err(_) => break,
            Ok(_) => continue,
        };
        if !bucket.take() {
            send_error(&out, None, "too many messages: slow down (20 per second)").await;
            continue;
        }
        let message: ClientMessage = match serde_json::from_str(text.as_str()) {
            Ok(m) => m,
            Err(e) => {
                send_error(&out, None, &format!("bad message: {e}")).await;
                continue;
            }
        };
        handle(&app, &session, message, &out, &mut watched).await;
    }
    for (_, task) in watched {
        task.abort();
    }
    drop(out);
    let _ = tokio::time::timeout(Duration::from_secs(5), writer).await;
}

async fn send_error(out: &mpsc::Sender<Arc<str>>, id: Option<serde_json::Value>, message: &str) {
    let error = ServerMessage::Error { id, game: None, error: message.to_string(), code: None };
    let _ = out.send(error.to_text().into()).await;
}

async fn handle(
    app: &AppState,
    session: &Session,
    message: ClientMessage,
    out: &mpsc::Sender<Arc<str>>,
    watched: &mut HashMap<i64, tokio::task::JoinHandle<()>>,
) {
    match message {
        ClientMessage::Ping { id } => {
            let _ = out.send(ServerMessage::Pong { id }.to_text().into()).await;
        }
        ClientMessage::Watch { game, since } => {
            if !watched.contains_key(&game) && watched.len() >= MAX_WATCHED {
                send_error(out, None, &format!("watch at most {MAX_WATCHED} games at once")).await;
                return;
            }
            let table = match app.hub.table(game).await {
                Ok(t) => t,
                Err(e) => return send_error(out, None, &format!("game {game}: {e}")).await,
            };
            // Subscribe before asking for the state, so nothing falls between the two.
            let mut updates = table.updates.subscribe();
            let user = session.user.id;
            let (last, sync) = match table.ask(|reply| Command::Sync { since, user, reply }).await {
                Ok(s) => s,
                Err(e) => return send_error(out, None, &format!("game {game}: {e}")).await,
            };
            let _ = out.send(sync.into()).await;
            let out = out.clone();
            let forward = tokio::spawn(async move {
                let mut last = last;
                loop {
                    match updates.recv().await {
                        Ok((seq, msg)) => {
                            // Updates already covered by the sync are skipped.
                            if seq != 0 {
                                if seq <= last {
                                    continue;
                                }
                                last = seq;
                            }
                            if out.send(msg.for_user(user)).await.is_err() {
                                break;
                            }
                        }
                        Err(broadcast::error::RecvError::Lagged(_)) => {
                            // Fell behind: a full state replaces what was dropped.
                            match table.ask(|reply| Command::Sync { since: Some(last), user, reply }).await {
                                Ok((seq, sync)) => {
                                    last = seq;
                                    if out.send(sync.into()).await.is_err() {
                                        break;
                                    }
                                }
                                Err(_) => break,
                            }
                        }
                        Err(broadcast::error::RecvError::Closed) => break,
                    }
                }
            });
            if let Some(old) = watched.insert(game, forward) {
                old.abort();
            }
        }
        ClientMessage::Unwatch { game } => {
            if let Some(t) = watched.remove(&game) {
                t.abort();
            }
        }
        ClientMessage::Act { game, action, seat, id } => {
            let user = session.user.id;
            let result = match app.hub.table(game).await {
                Ok(t) => t.ask(|reply| Command::Act { user, seat, action, reply }).await.and_then(|r| r),
                Err(e) => Err(e),
            };
            let msg = match result {
                Ok(seq) => ServerMessage::Ack { id, game, seq },
                Err(e) => ServerMessage::Error {
                    id,
                    game: Some(game),
                    error: e.to_string(),
                    code: e.code().map(str::to_string),
                },
            };
            let _ = out.send(msg.to_text().into()).await;
        }
        ClientMessage::Chat { game, text } => {
            let user = session.user.clone();
            let result = match app.hub.table(game).await {
                Ok(t) => t.ask(|reply| Command::Chat { user, text, reply }).await.and_then(|r| r),
                Err(e) => Err(e),
            };
            if let Err(e) = result {
                let error =
                    ServerMessage::Error { id: None, game: Some(game), error: e.to_string(), code: None };
                let _ = out.send(error.to_text().into()).await;
            }
        }
    }
}
