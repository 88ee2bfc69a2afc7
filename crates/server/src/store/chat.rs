//! A game's chat in the database: the players' channel, the spectators' channel and the
//! table's own lines (docs/api.md, "Chat").

use serde::{Deserialize, Serialize};
use sqlx::Row;

use super::Store;
use crate::error::ApiError;

/// Where a chat line was said.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ts_rs::TS)]
#[serde(rename_all = "snake_case")]
pub enum Channel {
    /// The seated players; everyone who may read the game reads it.
    Players,
    /// Everyone else who may read the game; hidden from the players while it is live (no
    /// advice from the audience).
    Spectators,
    /// The table's own lines: who joined, undo requests, rematches, time-outs.
    System,
}

impl Channel {
    fn as_str(self) -> &'static str {
        match self {
            Channel::Players => "players",
            Channel::Spectators => "spectators",
            Channel::System => "system",
        }
    }

    fn parse(text: &str) -> Channel {
        match text {
            "spectators" => Channel::Spectators,
            "system" => Channel::System,
            _ => Channel::Players,
        }
    }
}

/// A stored chat line: its author (none for the table's own lines), channel, text and time.
#[derive(Debug, Clone, PartialEq)]
pub struct StoredChat {
    pub id: i64,
    pub from: Option<String>,
    pub channel: Channel,
    pub text: String,
    pub at_ms: i64,
}

/// Who may write in a game's chat, and where.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ChatRight {
    Speaks(Channel),
    /// May read only: the reason to tell them.
    Reads(&'static str),
}

impl Store {
    pub async fn add_chat(
        &self,
        game_id: i64,
        user_id: Option<i64>,
        channel: Channel,
        text: &str,
        at_ms: i64,
    ) -> Result<i64, ApiError> {
        let row = sqlx::query(
            "INSERT INTO chat (game_id, user_id, channel, text, at_ms) VALUES ($1, $2, $3, $4, $5) RETURNING id",
        )
        .bind(game_id)
        .bind(user_id)
        .bind(channel.as_str())
        .bind(text)
        .bind(at_ms)
        .fetch_one(&self.pool)
        .await?;
        Ok(row.try_get("id")?)
    }

    /// The last `limit` chat lines of a game, oldest first; the spectators' channel only
    /// `with_spectators`.
    pub async fn chat(
        &self,
        game_id: i64,
        limit: i64,
        with_spectators: bool,
    ) -> Result<Vec<StoredChat>, ApiError> {
        let rows = sqlx::query(
            "SELECT chat.id, users.name, chat.channel, chat.text, chat.at_ms FROM chat \
             LEFT JOIN users ON users.id = chat.user_id \
             WHERE chat.game_id = $1 AND ($3 = 1 OR chat.channel <> 'spectators') AND chat.deleted_ms IS NULL \
             ORDER BY chat.id DESC LIMIT $2",
        )
        .bind(game_id)
        .bind(limit)
        .bind(i64::from(with_spectators))
        .fetch_all(&self.pool)
        .await?;
        let mut lines: Vec<StoredChat> = rows
            .iter()
            .map(|r| {
                Ok(StoredChat {
                    id: r.try_get("id")?,
                    from: r.try_get("name")?,
                    channel: Channel::parse(&r.try_get::<String, _>("channel")?),
                    text: r.try_get("text")?,
                    at_ms: r.try_get("at_ms")?,
                })
            })
            .collect::<Result<_, sqlx::Error>>()?;
        lines.reverse();
        Ok(lines)
    }

    /// Where `user` may chat in game `game_id`: its seated players in the players' channel;
    /// its creator, spectators admitted with the invite link and, in a public game, any
    /// account with a name in the spectators' channel (a guest's lines would cost nothing to
    /// repeat from new guests).
    pub async fn chat_right(&self, game_id: i64, user_id: i64, guest: bool) -> Result<ChatRight, ApiError> {
        let row = sqlx::query(
            "SELECT (SELECT COUNT(*) FROM seats WHERE game_id = $1 AND user_id = $2) AS seated, \
             (SELECT COUNT(*) FROM games WHERE id = $1 AND creator = $2) \
             + (SELECT COUNT(*) FROM admitted WHERE game_id = $1 AND user_id = $2) AS admitted, \
             (SELECT COUNT(*) FROM games WHERE id = $1 AND public = 1) AS public",
        )
        .bind(game_id)
        .bind(user_id)
        .fetch_one(&self.pool)
        .await?;
        let count = |name: &str| row.try_get::<i64, _>(name).map(|n| n > 0);
        Ok(if count("seated")? {
            ChatRight::Speaks(Channel::Players)
        } else if count("admitted")? || (count("public")? && !guest) {
            ChatRight::Speaks(Channel::Spectators)
        } else if count("public")? {
            ChatRight::Reads("guests read a game's chat; choose a name (Account) to chat as a spectator")
        } else {
            ChatRight::Reads("only the players and spectators invited to this game may chat in it")
        })
    }
}
