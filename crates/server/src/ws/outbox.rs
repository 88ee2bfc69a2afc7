//! What a socket sends its client: a queue within a byte budget, written by one task, and the
//! rate at which the client may ask.

use std::{
    sync::{
        Arc,
        atomic::{AtomicUsize, Ordering},
    },
    time::{Duration, Instant},
};

use axum::extract::ws::{Message, WebSocket};
use futures_util::{SinkExt, stream::SplitSink};
use tokio::{sync::mpsc, task::JoinHandle};

use super::MESSAGES_PER_SECOND;

/// A token bucket: a burst, then a steady rate.
pub(super) struct Bucket {
    tokens: f64,
    at: Instant,
}

impl Bucket {
    /// Full: a client may start with a burst.
    pub(super) fn full() -> Self {
        Bucket { tokens: 2.0 * MESSAGES_PER_SECOND, at: Instant::now() }
    }

    pub(super) fn take(&mut self) -> bool {
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
pub(super) struct Outbox {
    tx: mpsc::UnboundedSender<Arc<str>>,
    queued: Arc<AtomicUsize>,
    budget: usize,
    /// Notified when a message would pass the budget: the client is cut off.
    pub(super) overflow: Arc<tokio::sync::Notify>,
}

impl Outbox {
    /// An outbox of `budget` bytes and the task that writes it to `sink`, with a ping whenever
    /// one is asked for on the returned sender. The task ends when every outbox clone and the
    /// ping sender are dropped (after closing the socket), or when the client takes no message
    /// within `write_deadline`.
    pub(super) fn with_writer(
        mut sink: SplitSink<WebSocket, Message>,
        budget: usize,
        write_deadline: Duration,
    ) -> (Outbox, mpsc::Sender<()>, JoinHandle<()>) {
        let (tx, mut out_rx) = mpsc::unbounded_channel::<Arc<str>>();
        let out = Outbox {
            tx,
            queued: Arc::new(AtomicUsize::new(0)),
            budget,
            overflow: Arc::new(tokio::sync::Notify::new()),
        };
        let (ping_tx, mut ping_rx) = mpsc::channel::<()>(1);
        let queued = out.queued.clone();
        let writer = tokio::spawn(async move {
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
        (out, ping_tx, writer)
    }

    /// Queues a message; false when the client is gone or over its budget (then it is cut off).
    pub(super) fn send(&self, text: Arc<str>) -> bool {
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
