//! Chat at a table: bounded in length and rate, stored, broadcast — the players' channel to
//! everyone, the spectators' channel to spectators only while the game is live, and the
//! table's own lines (docs/api.md, "Chat").

use super::*;
use crate::store::chat::Channel;

pub const CHAT_MAX_CHARS: usize = 500;
/// Chat lines per user and game in any 10 seconds.
const CHAT_BURST: usize = 5;

/// Characters chat drops: controls (line breaks become spaces before), the bidirectional
/// embeddings, overrides, isolates and marks (U+202E once turned a line's end around), and
/// invisible formatting and fillers that make lines look empty or names look like others.
/// Zero-width joiners stay: emoji sequences and some scripts need them.
fn invisible(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{00AD}'
                | '\u{061C}'
                | '\u{115F}'
                | '\u{1160}'
                | '\u{17B4}'
                | '\u{17B5}'
                | '\u{180E}'
                | '\u{200B}'
                | '\u{200E}'
                | '\u{200F}'
                | '\u{202A}'..='\u{202E}'
                | '\u{2060}'..='\u{206F}'
                | '\u{3164}'
                | '\u{FEFF}'
                | '\u{FFA0}'
                | '\u{FFF9}'..='\u{FFFB}'
                | '\u{1BCA0}'..='\u{1BCA3}'
                | '\u{1D173}'..='\u{1D17A}'
                | '\u{E0000}'..='\u{E007F}'
        )
}

/// A chat line as stored and shown: line breaks and tabs as spaces, [`invisible`] characters
/// dropped, trimmed.
pub fn clean(text: &str) -> String {
    let text: String = text
        .chars()
        .map(|c| if matches!(c, '\n' | '\r' | '\t') { ' ' } else { c })
        .filter(|c| !invisible(*c))
        .collect();
    text.trim().to_string()
}

impl Table {
    pub(super) async fn chat(&mut self, user: &User, channel: Channel, text: String) -> Result<(), ApiError> {
        let text = clean(&text);
        if text.is_empty() {
            return Err(ApiError::BadRequest("empty chat message (nothing visible)".into()));
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
        // A seat taken since the socket asked: the line goes where its author now belongs.
        let seated = self.seats.iter().any(|s| s.user_id == Some(user.id));
        let channel = if seated { Channel::Players } else { channel };
        let id = self.store.add_chat(self.id, Some(user.id), channel, &text, at).await?;
        let line = ServerMessage::Chat {
            game: self.id,
            id,
            from: Some(user.name.clone()),
            channel,
            text,
            at_ms: at,
        };
        let mut payload = Payload::public(line.to_text().into());
        if channel == Channel::Spectators && self.status != Status::Finished {
            // Nothing for the players while they play: an empty text is not sent.
            payload.seats = Some(self.seats.iter().map(|s| (s.user_id, Arc::<str>::from(""))).collect());
        }
        let _ = self.updates.send((0, payload));
        Ok(())
    }

    /// A line of the table's own (someone joined, asked to take back, offered a rematch, ran
    /// out of time), stored and shown in the chat. Best effort: the game goes on without it.
    pub(super) async fn say(&mut self, text: String) {
        let at = now_ms();
        let id = match self.store.add_chat(self.id, None, Channel::System, &text, at).await {
            Ok(id) => id,
            Err(e) => {
                tracing::warn!(game = self.id, error = %e, "a system chat line was not stored");
                return;
            }
        };
        self.broadcast(ServerMessage::Chat {
            game: self.id,
            id,
            from: None,
            channel: Channel::System,
            text,
            at_ms: at,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::clean;

    #[test]
    fn chat_drops_controls_and_direction_overrides() {
        assert_eq!(clean("gg\u{202E}pmal"), "ggpmal");
        assert_eq!(clean("\u{2066}a\u{2069}\u{200F}b\u{061C}\u{200E}"), "ab");
        assert_eq!(clean("bell\u{7}\u{0}\u{1B}[2Jend\u{85}\u{9F}"), "bell[2Jend");
        assert_eq!(clean("two\nlines\r\tand a tab"), "two lines  and a tab");
        assert_eq!(clean("\u{200B}\u{FEFF}\u{2060}\u{3164}\u{E0041}"), "");
        assert_eq!(clean("  good game 👍🏽 👨\u{200D}👩\u{200D}👧  "), "good game 👍🏽 👨\u{200D}👩\u{200D}👧");
        assert_eq!(clean("عربي مرحبا"), "عربي مرحبا", "right-to-left text itself stays");
    }
}
