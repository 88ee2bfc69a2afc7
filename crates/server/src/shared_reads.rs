//! Reads everyone asks the same of (the lobby's public lists) computed once at a time: 14
//! simultaneous lists once made 14 copies of the same work. Requests that come while one is
//! being computed wait for it and share its answer; nothing older is served.

use std::{
    collections::HashMap,
    sync::{Arc, Mutex},
    time::Instant,
};

use crate::error::ApiError;

/// A key's last answer and when it was made; locked while one is being computed.
type Slot = tokio::sync::Mutex<Option<(Instant, Arc<[u8]>)>>;

/// Answers by key, the last of each kept to hand to those who waited for it; at most `keys`.
#[derive(Debug)]
pub struct SharedReads {
    keys: usize,
    slots: Mutex<HashMap<String, Arc<Slot>>>,
}

impl SharedReads {
    pub fn new(keys: usize) -> SharedReads {
        SharedReads { keys, slots: Mutex::default() }
    }

    /// The answer for `key`: the one being computed when this request came, or `compute`'s.
    pub async fn get<F>(&self, key: &str, compute: F) -> Result<Arc<[u8]>, ApiError>
    where
        F: std::future::Future<Output = Result<Vec<u8>, ApiError>>,
    {
        let arrived = Instant::now();
        let slot = {
            let mut slots = self.slots.lock().unwrap_or_else(|e| e.into_inner());
            if slots.len() >= self.keys && !slots.contains_key(key) {
                // Unused keys go first; those being computed stay.
                slots.retain(|_, s| Arc::strong_count(s) > 1);
            }
            slots.entry(key.to_string()).or_default().clone()
        };
        // One computation at a time per key: the others wait here and take its answer.
        let mut kept = slot.lock().await;
        if let Some((made, answer)) = kept.as_ref()
            && *made >= arrived
        {
            return Ok(answer.clone());
        }
        let answer: Arc<[u8]> = compute.await?.into();
        *kept = Some((Instant::now(), answer.clone()));
        Ok(answer)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn simultaneous_reads_share_one_computation() {
        let reads = Arc::new(SharedReads::new(8));
        let computed = Arc::new(std::sync::atomic::AtomicUsize::new(0));
        let asks = (0..10).map(|_| {
            let (reads, computed) = (reads.clone(), computed.clone());
            async move {
                reads
                    .get("open", async {
                        computed.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
                        Ok(b"list".to_vec())
                    })
                    .await
            }
        });
        let answers = futures_util::future::join_all(asks).await;
        assert!(answers.iter().all(|a| a.as_ref().is_ok_and(|a| &a[..] == b"list")));
        assert_eq!(computed.load(std::sync::atomic::Ordering::SeqCst), 1);
    }
}

#[cfg(test)]
mod later {
    use super::*;

    #[tokio::test]
    async fn a_read_after_the_answer_was_made_computes_again() {
        let reads = SharedReads::new(8);
        let first = reads.get("k", async { Ok(b"old".to_vec()) }).await.expect("answers");
        let second = reads.get("k", async { Ok(b"new".to_vec()) }).await.expect("answers");
        assert_eq!((&first[..], &second[..]), (&b"old"[..], &b"new"[..]));
    }
}
