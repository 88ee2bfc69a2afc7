//! The internal link between two instances: one WebSocket, opened by the instance serving the
//! clients to the owner of their games, carrying requests and their answers one way and the
//! owner's broadcasts the other ([`wire::Frame`]). A link that stays silent for a lease's
//! lifetime is dead: every request on it fails, every game relayed over it is dropped, and the
//! clients' watches find the game's owner again.

use std::{
    collections::HashMap,
    sync::{Arc, Mutex},
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
use tokio::sync::{broadcast, mpsc, oneshot};
use tokio_tungstenite::tungstenite;

use super::{
    Cluster,
    wire::{self, Frame, ReplySink},
};
use crate::{
    AppState,
    error::ApiError,
    table::{Broadcast, Command, Payload},
};

/// The header an instance names itself with on a link.
pub const INSTANCE_HEADER: &str = "x-gobeyond-instance";
/// Largest frame on a link (a full state of a large board, per seat).
const MAX_LINK_FRAME: usize = 64 << 20;

/// Requests waiting for an answer, and the games relayed.
#[derive(Default)]
struct State_ {
    next: u64,
    pending: HashMap<u64, (Instant, ReplySink)>,
    games: HashMap<i64, (broadcast::Sender<Broadcast>, oneshot::Sender<()>)>,
    closed: bool,
}

/// This instance's end of a link to the owner of some games.
pub struct Link {
    owner: String,
    out: mpsc::UnboundedSender<Frame>,
    state: Mutex<State_>,
    stop: tokio::sync::Notify,
}

impl std::fmt::Debug for Link {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Link").field("owner", &self.owner).finish_non_exhaustive()
    }
}

impl Link {
    /// Opens a link to instance `owner` at `address` (`http://host:port`).
    pub async fn connect(cluster: &Cluster, owner: &str, address: &str) -> Result<Arc<Link>, ApiError> {
        use tungstenite::client::IntoClientRequest;
        let url = format!("{}/api/internal/link", address.replacen("http", "ws", 1));
        let mut request = url.as_str().into_client_request().map_err(|e| {
            ApiError::Internal(format!("instance {owner} has a bad address {address:?}: {e}"))
        })?;
        let headers = request.headers_mut();
        for (name, value) in [
            ("authorization", format!("Bearer {}", cluster.secret)),
            (INSTANCE_HEADER, cluster.id.to_string()),
        ] {
            if let Ok(v) = value.parse() {
                headers.insert(name, v);
            }
        }
        let config = tungstenite::protocol::WebSocketConfig::default()
            .max_message_size(Some(MAX_LINK_FRAME))
            .max_frame_size(Some(MAX_LINK_FRAME));
        let connect = tokio_tungstenite::connect_async_with_config(request, Some(config), true);
        let (socket, _) = tokio::time::timeout(cluster.ttl, connect)
            .await
            .map_err(|_| {
                ApiError::Unavailable(format!("the server running this game ({owner}) does not answer"))
            })?
            .map_err(|e| {
                ApiError::Unavailable(format!("the server running this game ({owner}) is unreachable: {e}"))
            })?;
        let (out, out_rx) = mpsc::unbounded_channel();
        let link = Arc::new(Link {
            owner: owner.to_string(),
            out,
            state: Mutex::new(State_::default()),
            stop: tokio::sync::Notify::new(),
        });
        tokio::spawn(link.clone().run(socket, out_rx, cluster.ttl));
        Ok(link)
    }

    fn state(&self) -> std::sync::MutexGuard<'_, State_> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    pub fn is_closed(&self) -> bool {
        self.state().closed
    }

    pub fn close(&self) {
        self.stop.notify_one();
    }

    /// Relays game `game`'s broadcasts into `updates`; the receiver fires (is dropped) when
    /// the owner no longer runs it or the link dies.
    pub fn watch(
        &self,
        game: i64,
        updates: broadcast::Sender<Broadcast>,
    ) -> Result<oneshot::Receiver<()>, ApiError> {
        let (gone, on_gone) = oneshot::channel();
        {
            let mut state = self.state();
            if state.closed {
                return Err(ApiError::Unavailable(format!("the link to {} closed: try again", self.owner)));
            }
            state.games.insert(game, (updates, gone));
        }
        let _ = self.out.send(Frame::Watch { game });
        Ok(on_gone)
    }

    pub fn unwatch(&self, game: i64) {
        self.state().games.remove(&game);
        let _ = self.out.send(Frame::Unwatch { game });
    }

    /// Sends a command to the owner; its answer reaches the command's reply channel, or the
    /// channel is dropped (the handler hears the game stopped answering) when none comes
    /// within a lease's lifetime.
    pub fn forward(&self, game: i64, command: Command, timeout: Duration) {
        let Some((request, sink)) = wire::split(command) else { return };
        let id = {
            let mut state = self.state();
            if state.closed {
                return;
            }
            state.next += 1;
            let id = state.next;
            if let Some(sink) = sink {
                state.pending.insert(id, (Instant::now() + timeout, sink));
            }
            id
        };
        let _ = self.out.send(Frame::Request { id, game, request });
    }

    async fn run(
        self: Arc<Self>,
        socket: tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>,
        mut out_rx: mpsc::UnboundedReceiver<Frame>,
        ttl: Duration,
    ) {
        let (mut sink, mut stream) = socket.split();
        let mut tick = tokio::time::interval(ttl / 4);
        let mut heard = Instant::now();
        loop {
            tokio::select! {
                frame = out_rx.recv() => {
                    let Some(frame) = frame else { break };
                    let Ok(text) = serde_json::to_string(&frame) else { continue };
                    if sink.send(tungstenite::Message::Text(text.into())).await.is_err() {
                        break;
                    }
                }
                message = stream.next() => {
                    heard = Instant::now();
                    match message {
                        Some(Ok(tungstenite::Message::Text(text))) => self.receive(text.as_str()),
                        Some(Ok(tungstenite::Message::Close(_)) | Err(_)) | None => break,
                        Some(Ok(_)) => {}
                    }
                }
                _ = tick.tick() => {
                    if heard.elapsed() > ttl {
                        tracing::warn!(owner = %self.owner, "internal link silent for a lease's lifetime: closed");
                        break;
                    }
                    let now = Instant::now();
                    self.state().pending.retain(|_, (deadline, _)| *deadline > now);
                    if sink.send(tungstenite::Message::Ping(Vec::new().into())).await.is_err() {
                        break;
                    }
                }
                () = self.stop.notified() => break,
            }
        }
        let mut state = self.state();
        state.closed = true;
        // Dropping the reply sinks and the relays tells everybody waiting.
        state.pending.clear();
        state.games.clear();
    }

    fn receive(&self, text: &str) {
        let frame = match serde_json::from_str::<Frame>(text) {
            Ok(f) => f,
            Err(e) => {
                tracing::warn!(owner = %self.owner, error = %e, "unreadable frame on an internal link");
                return;
            }
        };
        match frame {
            Frame::Reply { id, value } => {
                let sink = self.state().pending.remove(&id);
                if let Some((_, sink)) = sink {
                    sink(value);
                }
            }
            Frame::Update { game, seq, public, seats } => {
                let payload = Payload::from_parts(
                    public.into(),
                    seats.map(|s| s.into_iter().map(|(user, text)| (user, text.into())).collect()),
                );
                if let Some((updates, _)) = self.state().games.get(&game) {
                    let _ = updates.send((seq, payload));
                }
            }
            Frame::Gone { game } => {
                self.state().games.remove(&game);
            }
            Frame::Watch { .. } | Frame::Unwatch { .. } | Frame::Request { .. } => {}
        }
    }
}

/// `GET /api/internal/link`: another instance of the cluster opens a link to this one.
pub async fn accept(State(app): State<AppState>, headers: HeaderMap, ws: WebSocketUpgrade) -> Response {
    let Some(cluster) = app.hub.cluster().cloned() else {
        return ApiError::NotFound("this server runs alone".into()).into_response();
    };
    let token = headers
        .get("authorization")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))
        .unwrap_or("");
    if !cluster.admits(token) {
        return ApiError::Forbidden("internal links are for the cluster's instances".into()).into_response();
    }
    let peer = headers.get(INSTANCE_HEADER).and_then(|v| v.to_str().ok()).unwrap_or("?").to_string();
    ws.max_message_size(MAX_LINK_FRAME)
        .max_frame_size(MAX_LINK_FRAME)
        .on_upgrade(move |socket| serve(app, peer, socket))
}

/// The owner's end of a link: runs the requests on its tables, relays their broadcasts.
async fn serve(app: AppState, peer: String, socket: WebSocket) {
    let (mut sink, mut stream) = socket.split();
    let (out, mut out_rx) = mpsc::unbounded_channel::<Frame>();
    let writer = tokio::spawn(async move {
        while let Some(frame) = out_rx.recv().await {
            let Ok(text) = serde_json::to_string(&frame) else { continue };
            if sink.send(Message::Text(text.into())).await.is_err() {
                break;
            }
        }
    });
    let mut relays: HashMap<i64, tokio::task::JoinHandle<()>> = HashMap::new();
    while let Some(Ok(message)) = stream.next().await {
        let Message::Text(text) = message else { continue };
        let frame = match serde_json::from_str::<Frame>(text.as_str()) {
            Ok(f) => f,
            Err(e) => {
                tracing::warn!(peer, error = %e, "unreadable frame on an internal link");
                continue;
            }
        };
        match frame {
            Frame::Watch { game } => {
                let relay = match app.hub.local_table(game).await {
                    Ok(table) => tokio::spawn(relay(game, table.updates.subscribe(), out.clone())),
                    Err(_) => {
                        let _ = out.send(Frame::Gone { game });
                        continue;
                    }
                };
                if let Some(old) = relays.insert(game, relay) {
                    old.abort();
                }
            }
            Frame::Unwatch { game } => {
                if let Some(r) = relays.remove(&game) {
                    r.abort();
                }
            }
            Frame::Request { id, game, request } => {
                let (command, answer) = wire::command(request);
                match app.hub.send_local(game, command).await {
                    Ok(()) => {
                        if let Some(answer) = answer {
                            let out = out.clone();
                            tokio::spawn(async move {
                                let value = answer.await.unwrap_or_else(|| {
                                    wire::error_value(ApiError::Unavailable(
                                        "the game stopped answering: try again".into(),
                                    ))
                                });
                                let _ = out.send(Frame::Reply { id, value });
                            });
                        }
                    }
                    Err(e) => {
                        let moved = matches!(e, ApiError::Fenced(_));
                        if answer.is_some() {
                            let _ = out.send(Frame::Reply { id, value: wire::error_value(e) });
                        }
                        if moved {
                            let _ = out.send(Frame::Gone { game });
                        }
                    }
                }
            }
            Frame::Reply { .. } | Frame::Update { .. } | Frame::Gone { .. } => {}
        }
    }
    for (_, r) in relays {
        r.abort();
    }
    drop(out);
    let _ = tokio::time::timeout(Duration::from_secs(5), writer).await;
}

/// Relays one game's broadcasts over a link until the table stops.
async fn relay(game: i64, mut updates: broadcast::Receiver<Broadcast>, out: mpsc::UnboundedSender<Frame>) {
    loop {
        match updates.recv().await {
            Ok((seq, payload)) => {
                let (public, seats) = payload.parts();
                let frame = Frame::Update {
                    game,
                    seq,
                    public: public.to_string(),
                    seats: seats.map(|s| s.iter().map(|(u, t)| (*u, t.to_string())).collect()),
                };
                if out.send(frame).is_err() {
                    return;
                }
            }
            // Behind, or stopped: the other end drops its copy and its watchers sync again.
            Err(_) => {
                let _ = out.send(Frame::Gone { game });
                return;
            }
        }
    }
}
