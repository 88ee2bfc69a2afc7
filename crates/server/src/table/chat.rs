//! Chat at a table: bounded in length and rate, stored, broadcast.

use super::*;

pub const CHAT_MAX_CHARS: usize = 500;
/// Chat lines per user and game in any 10 seconds.
const CHAT_BURST: usize = 5;

impl Table {
    pub(super) async fn chat(&mut self, user: &User, text: String) -> Result<(), ApiError> {
        let text = text.trim().to_string();
        if text.is_empty() {
            return Err(ApiError::BadRequest("empty chat message".into()));
        }
        if text.chars().count() > CHAT_MAX_CHARS {
            return Err(ApiError::BadRequest(format!(
                "chat messages have at most {CHAT_MAX_CHARS} characters"
            )));
        }
        let times = self.chat_times.entry(user.id).or_default();
        let now = Instant::now();
        while times.front().is_some_and(|t| now.duration_since(*t) > Duration::from_secs(10)) {
            times.pop_front();
        }
        if times.len() >= CHAT_BURST {
            return Err(ApiError::TooMany(format!("at most {CHAT_BURST} chat messages per 10 seconds")));
        }
        times.push_back(now);
        let at = now_ms();
        self.store.add_chat(self.id, user.id, &text, at).await?;
        self.broadcast(ServerMessage::Chat { game: self.id, from: user.name.clone(), text, at_ms: at });
        Ok(())
    }
}
