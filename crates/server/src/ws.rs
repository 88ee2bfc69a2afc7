//! The WebSocket protocol (`GET /api/ws`): one socket per client, any number of watched games.
//! Every client message gets an answer (`ack`, `sync`, `pong` or `error`); updates of watched
//! games arrive as they happen. See `docs/api.md`.

use std::{
    collections::HashMap,
    net::SocketAddr,
    sync::{
        Arc,
        atomic::{AtomicUsize, Ordering},
    },
    time::{Duration, Instant},
};

use axum::{
    extract::{
        ConnectInfo, State,
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
    conn::Admitted,
    error::ApiError,
    protocol::{ClientMessage, ServerMessage},
    store::chat::ChatRight,
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
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
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
    let ip = crate::limit::forwarded_ip(&headers, peer.ip(), &app.config.trusted_proxies);
    let Some(place) = app.sockets.admit(ip) else {
        return ApiError::TooMany(format!(
            "too many game sockets from this address (at most {}): close some tabs",
            app.config.limits.sockets_per_address
        ))
        .into_response();
    };
    ws.max_message_size(MAX_FRAME)
        .max_frame_size(MAX_FRAME)
        .on_upgrade(move |socket| client(app, session, socket, place))
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

/// Everything for one client, written by one task, within a byte budget: a client that stops
/// reading while asking for more (20 `watch` a second once grew the server by 500 MiB in 30 s)
/// is disconnected once the budget is spent, instead of its messages piling up.
#[derive(Debug, Clone)]
pub struct Outbox {
    tx: mpsc::UnboundedSender<Arc<str>>,
    queued: Arc<AtomicUsize>,
    budget: usize,
    overflow: Arc<tokio::sync::Notify>,
}

impl Outbox {
    /// Queues a message; false when the client is gone or over its budget (then it is cut off).
    pub fn send(&self, text: Arc<str>) -> bool {
        let len = text.len();
        if self.queued.fetch_add(len, Ordering::SeqCst) + len > self.budget {
            self.queued.fetch_sub(len, Ordering::SeqCst);
            self.overflow.notify_one();
            return false;
        }
        if self.tx.send(text).is_err() {
            self.queued.fetch_sub(len, Ordering::SeqCst);
            return false;
        }
        true
    }
}

async fn client(app: AppState, session: Session, socket: WebSocket, place: Admitted) {
    let _place = place;
    let (mut sink, mut stream) = socket.split();
    let (tx, mut out_rx) = mpsc::unbounded_channel::<Arc<str>>();
    let out = Outbox {
        tx,
        queued: Arc::new(AtomicUsize::new(0)),
        budget: app.config.limits.socket_buffer_bytes,
        overflow: Arc::new(tokio::sync::Notify::new()),
    };
    let (ping_tx, mut ping_rx) = mpsc::channel::<()>(1);
    let queued = out.queued.clone();
    // A message the client does not take within three pings: it reads too slowly to play.
    let write_deadline = 3 * app.config.limits.ping_every;
    let mut writer = tokio::spawn(async move {
        loop {
            let message = tokio::select! {
                text = out_rx.recv() => match text {
                    Some(text) => {
                        queued.fetch_sub(text.len(), Ordering::SeqCst);
                        Message::Text(text.as_ref().into())
                    }
                    None => break,
                },
                Some(()) = ping_rx.recv() => Message::Ping(Vec::new().into()),
            };
            match tokio::time::timeout(write_deadline, sink.send(message)).await {
                Ok(Ok(())) => {}
                Ok(Err(_)) | Err(_) => return,
            }
        }
        let _ = tokio::time::timeout(write_deadline, sink.close()).await;
    });
    // An open socket is presence: noted before the hello (so that a client that heard it is
    // online everywhere) and at every ping (written at most once a minute).
    crate::social::touch(&app, session.user.id).await;
    out.send(ServerMessage::Hello { user: session.user.clone() }.to_text().into());
    let chat_filter = crate::social::ChatFilter::default();
    let mut watched: HashMap<i64, tokio::task::JoinHandle<()>> = HashMap::new();
    let mut bucket = Bucket { tokens: 2.0 * MESSAGES_PER_SECOND, at: Instant::now() };
    let ping_every = app.config.limits.ping_every;
    let mut pings = tokio::time::interval_at(tokio::time::Instant::now() + ping_every, ping_every);
    let mut heard = Instant::now();
    let mut ended = app.sessions.watch(&session.token_hash);
    // A browser session's socket closes when the session ends, like its cookie.
    let expires = session.expires_ms.map(|ms| {
        let left = (ms - crate::store::now_ms()).max(0) as u64;
        tokio::time::Instant::now() + Duration::from_millis(left)
    });
    let expiry = async move {
        match expires {
            Some(at) => tokio::time::sleep_until(at).await,
            None => std::future::pending().await,
        }
    };
    tokio::pin!(expiry);
    let overflow = out.overflow.clone();
    let mut writer_done = false;
    loop {
        let frame = tokio::select! {
            frame = stream.next() => frame,
            _ = pings.tick() => {
                // Silent for three pings (not even a pong): the client is gone.
                if heard.elapsed() > 3 * ping_every {
                    break;
                }
                let _ = ping_tx.try_send(());
                let (app, user) = (app.clone(), session.user.id);
                tokio::spawn(async move { crate::social::touch(&app, user).await });
                continue;
            }
            () = overflow.notified() => {
                tracing::info!(user = session.user.id, "socket cut off: the client reads too slowly");
                // Closing means closing: a writer blocked on a full connection would keep the
                // connection and its queue (one address once held 336 such sockets, 3 GiB).
                writer.abort();
                break;
            }
            _ = &mut writer, if !writer_done => {
                writer_done = true;
                break;
            }
            _ = ended.wait_for(|e| *e) => break,
            () = &mut expiry => break,
        };
        heard = Instant::now();
        let text = match frame {
            Some(Ok(Message::Text(t))) => t,
            Some(Ok(Message::Binary(_))) => {
                send_error(&out, None, "binary frames are not part of the protocol: send JSON text");
                continue;
            }
            Some(Ok(Message::Close(_)) | Err(_)) | None => break,
            Some(Ok(_)) => continue,
        };
        if !bucket.take() {
            send_error(&out, None, "too many messages: slow down (20 per second)");
            continue;
        }
        let message: ClientMessage = match serde_json::from_str(text.as_str()) {
            Ok(m) => m,
            Err(e) => {
                send_error(&out, request_id(text.as_str()), &format!("bad message: {e}"));
                continue;
            }
        };
        handle(&app, &session, message, &out, &mut watched, &chat_filter).await;
    }
    for (_, task) in watched {
        task.abort();
    }
    drop(out);
    drop(ping_tx);
    // The goodbye gets a moment; a client that does not take it loses the connection anyway,
    // with its queue, before this socket's place is given back.
    if !writer_done && tokio::time::timeout(Duration::from_secs(5), &mut writer).await.is_err() {
        writer.abort();
        let _ = writer.await;
    }
}

/// A watched game's table again after its copy stopped, with a sync from `last` on: retried
/// for up to two lease lifetimes (a dead owner's games wait for its lease to expire).
async fn reattach(
    app: &AppState,
    game: i64,
    user: i64,
    last: u64,
) -> Option<(mpsc::Sender<Command>, broadcast::Receiver<crate::table::Broadcast>, u64, String)> {
    let patience = app.hub.cluster().map_or(Duration::from_secs(5), |c| 2 * c.ttl + Duration::from_secs(2));
    let until = Instant::now() + patience;
    let mut pause = Duration::from_millis(50);
    while Instant::now() < until {
        match app.hub.table(game).await {
            Ok(table) => {
                let updates = table.updates.subscribe();
                if let Ok((seq, sync)) =
                    table.ask(|reply| Command::Sync { since: Some(last), user, reply }).await
                {
                    return Some((table.commands, updates, seq, sync));
                }
            }
            // Gone for good (an expired open game), or this server is stopping.
            Err(ApiError::NotFound(_)) => return None,
            Err(ApiError::Unavailable(m)) if m.contains("shutting down") => return None,
            Err(_) => {}
        }
        tokio::time::sleep(pause).await;
        pause = (pause * 2).min(Duration::from_secs(1));
    }
    None
}

/// The `id` of a message that is JSON but not a valid message, so that its error can be matched
/// to the request like any other answer.
fn request_id(text: &str) -> Option<serde_json::Value> {
    #[derive(serde::Deserialize)]
    struct WithId {
        id: Option<serde_json::Value>,
    }
    serde_json::from_str::<WithId>(text).ok().and_then(|m| m.id)
}

fn send_error(out: &Outbox, id: Option<serde_json::Value>, message: &str) {
    let error = ServerMessage::Error { id, game: None, error: message.to_string(), code: None };
    out.send(error.to_text().into());
}

async fn handle(
    app: &AppState,
    session: &Session,
    message: ClientMessage,
    out: &Outbox,
    watched: &mut HashMap<i64, tokio::task::JoinHandle<()>>,
    chat_filter: &crate::social::ChatFilter,
) {
    match message {
        ClientMessage::Ping { id } => {
            out.send(ServerMessage::Pong { id }.to_text().into());
        }
        ClientMessage::Watch { game, since } => {
            if !watched.contains_key(&game) && watched.len() >= MAX_WATCHED {
                send_error(out, None, &format!("watch at most {MAX_WATCHED} games at once"));
                return;
            }
            if let Err(e) = crate::http::visible(app, game, Some(session), None).await {
                return send_error(out, None, &format!("game {game}: {e}"));
            }
            let table = match app.hub.table(game).await {
                Ok(t) => t,
                Err(e) => return send_error(out, None, &format!("game {game}: {e}")),
            };
            // Subscribe before asking for the state, so nothing falls between the two.
            let updates = table.updates.subscribe();
            let user = session.user.id;
            let (last, sync) = match table.ask(|reply| Command::Sync { since, user, reply }).await {
                Ok(s) => s,
                Err(e) => return send_error(out, None, &format!("game {game}: {e}")),
            };
            out.send(sync.into());
            let out = out.clone();
            let app = app.clone();
            // Only the command queue is kept: a watcher holding the broadcast's sender would
            // never hear that the table stopped.
            let commands = table.commands;
            let chat_filter = chat_filter.clone();
            let forward = tokio::spawn(async move {
                let (mut last, mut commands, mut updates) = (last, commands, updates);
                loop {
                    match updates.recv().await {
                        Ok((seq, msg)) => {
                            // Updates already covered by the sync are skipped.
                            if seq != 0 {
                                if seq <= last {
                                    continue;
                                }
                                last = seq;
                            } else if chat_filter.hides(&app, user, msg.parts().0).await {
                                // A line from a player the reader blocked.
                                continue;
                            }
                            // An empty text is a message this user does not get (the
                            // spectators' chat, for a player of a live game).
                            let text = msg.for_user(user);
                            if !text.is_empty() && !out.send(text) {
                                break;
                            }
                        }
                        Err(broadcast::error::RecvError::Lagged(_)) => {
                            // Fell behind: a full state replaces what was dropped.
                            let (reply, answer) = tokio::sync::oneshot::channel();
                            let asked = commands.send(Command::Sync { since: Some(last), user, reply }).await;
                            match asked.ok().map(|()| answer) {
                                Some(answer) => match answer.await {
                                    Ok((seq, sync)) => {
                                        last = seq;
                                        if !out.send(sync.into()) {
                                            break;
                                        }
                                    }
                                    Err(_) => break,
                                },
                                None => break,
                            }
                        }
                        Err(broadcast::error::RecvError::Closed) => {
                            // The table stopped (another instance took the game over, or its
                            // owner died): find it again and catch up from the last sequence
                            // number this client saw.
                            match reattach(&app, game, user, last).await {
                                Some((t, u, seq, sync)) => {
                                    (commands, updates, last) = (t, u, seq);
                                    if !out.send(sync.into()) {
                                        break;
                                    }
                                }
                                None => break,
                            }
                        }
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
        ClientMessage::Act { game, action, seat, after, id } => {
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
                Ok(()) => app
                    .hub
                    .ask(game, |reply| Command::Act { user, seat, action, after, reply })
                    .await
                    .and_then(|r| r),
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
            let msg = match result {
                Ok(seq) => ServerMessage::Ack { id, game, seq },
                Err(e) => ServerMessage::Error {
                    id,
                    game: Some(game),
                    error: e.to_string(),
                    code: e.code().map(str::to_string),
                },
            };
            out.send(msg.to_text().into());
        }
        ClientMessage::Chat { game, text } => {
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
            let result = match right {
                Ok(ChatRight::Speaks(channel)) => app
                    .hub
                    .ask(game, |reply| Command::Chat { user, channel, text, reply })
                    .await
                    .and_then(|r| r),
                Ok(ChatRight::Reads(why)) => Err(ApiError::Forbidden(why.into())),
                Err(e) => Err(e),
            };
            if let Err(e) = result {
                let error =
                    ServerMessage::Error { id: None, game: Some(game), error: e.to_string(), code: None };
                out.send(error.to_text().into());
            }
        }
    }
}
