//! The WebSocket protocol (`GET /api/ws`): one socket per client, any number of watched games.
//! Every client message gets an answer (`ack`, `sync`, `pong` or `error`); updates of watched
//! games arrive as they happen. See `docs/api.md`.
//!
//! This file holds the socket's life (admission, its loop, pings, closing); `outbox.rs` what
//! it sends and how fast it may ask; `requests.rs` the answer to each client message;
//! `watch.rs` a watched game's updates, followed across the instances that host it.

mod outbox;
mod requests;
mod watch;

use std::{
    collections::HashMap,
    net::SocketAddr,
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
use futures_util::StreamExt;

use crate::{
    AppState,
    auth::{Session, origin_allowed},
    conn::Admitted,
    error::ApiError,
    protocol::{ClientMessage, ServerMessage},
};
use outbox::{Bucket, Outbox};

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

async fn client(app: AppState, session: Session, socket: WebSocket, place: Admitted) {
    let _place = place;
    let (sink, mut stream) = socket.split();
    // A message the client does not take within three pings: it reads too slowly to play.
    let write_deadline = 3 * app.config.limits.ping_every;
    let (out, ping_tx, mut writer) =
        Outbox::with_writer(sink, app.config.limits.socket_buffer_bytes, write_deadline);
    // An open socket is presence: noted before the hello (so that a client that heard it is
    // online everywhere) and at every ping (written at most once a minute).
    crate::social::touch(&app, session.user.id).await;
    out.send(ServerMessage::Hello { user: session.user.clone() }.to_text().into());
    let chat_filter = crate::social::ChatFilter::default();
    let mut watched: HashMap<i64, tokio::task::JoinHandle<()>> = HashMap::new();
    let mut bucket = Bucket::full();
    let ping_every = app.config.limits.ping_every;
    let mut pings = tokio::time::interval_at(tokio::time::Instant::now() + ping_every, ping_every);
    let mut heard = Instant::now();
    let mut ended = app.sessions.watch(&session.token_hash);
    // A browser session's socket closes when the session ends, like its cookie.
    let expiry = expiry(session.expires_ms);
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
        match read(frame, &out, &mut bucket) {
            Read::Message(message) => {
                requests::handle(&app, &session, message, &out, &mut watched, &chat_filter).await
            }
            Read::Nothing => {}
            Read::Closed => break,
        }
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

/// When a session that ends (a browser's) closes its socket; never for one that does not.
async fn expiry(expires_ms: Option<i64>) {
    match expires_ms {
        Some(ms) => {
            let left = (ms - crate::store::now_ms()).max(0) as u64;
            tokio::time::sleep(Duration::from_millis(left)).await;
        }
        None => std::future::pending().await,
    }
}

/// What a frame from the client comes to.
enum Read {
    Message(ClientMessage),
    /// A control frame, or a frame refused with an error sent to the client.
    Nothing,
    Closed,
}

/// Reads a client's frame as a message, within its rate; what cannot be read is answered with
/// an error that says why.
fn read(frame: Option<Result<Message, axum::Error>>, out: &Outbox, bucket: &mut Bucket) -> Read {
    let text = match frame {
        Some(Ok(Message::Text(t))) => t,
        Some(Ok(Message::Binary(_))) => {
            send_error(out, None, "binary frames are not part of the protocol: send JSON text");
            return Read::Nothing;
        }
        Some(Ok(Message::Close(_)) | Err(_)) | None => return Read::Closed,
        Some(Ok(_)) => return Read::Nothing,
    };
    if !bucket.take() {
        send_error(out, None, "too many messages: slow down (20 per second)");
        return Read::Nothing;
    }
    match serde_json::from_str(text.as_str()) {
        Ok(message) => Read::Message(message),
        Err(e) => {
            send_error(out, request_id(text.as_str()), &format!("bad message: {e}"));
            Read::Nothing
        }
    }
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
