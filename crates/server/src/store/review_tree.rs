//! The review tree of finished games (migration 0015): variations and comments, each counted
//! per game and per author under the game's lock, so that simultaneous requests cannot pass the
//! bounds together (`crate::review_tree`).

use sqlx::Row;

use super::Store;
use crate::error::ApiError;

/// A variation node as stored: `parent` and `input` are JSON.
#[derive(Debug, Clone)]
pub struct StoredVariation {
    pub id: u32,
    pub parent: String,
    pub player: u8,
    pub input: String,
    pub author: Option<String>,
}

/// A comment as stored: `node` is JSON.
#[derive(Debug, Clone)]
pub struct StoredComment {
    pub id: u32,
    pub node: String,
    pub author: String,
    pub text: String,
    pub at_ms: i64,
}

/// How many nodes (or comments) a game and each author may have.
#[derive(Debug, Clone, Copy)]
pub struct TreeCaps {
    pub per_game: i64,
    pub per_author: i64,
}

/// A new variation node: whether it was added, and its id (an existing node for the same move).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Added {
    New(u32),
    Existing(u32),
}

impl Store {
    /// A game's variation nodes, in the order they were added (parents before children).
    pub async fn variations(&self, game: i64) -> Result<Vec<StoredVariation>, ApiError> {
        let rows = sqlx::query(
            "SELECT v.id, v.parent, v.player, v.input, u.name FROM review_variations v \
             LEFT JOIN users u ON u.id = v.author_id WHERE v.game_id = $1 ORDER BY v.id",
        )
        .bind(game)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| {
                Ok(StoredVariation {
                    id: r.try_get::<i64, _>("id")? as u32,
                    parent: r.try_get("parent")?,
                    player: r.try_get::<i64, _>("player")? as u8,
                    input: r.try_get("input")?,
                    author: r.try_get("name")?,
                })
            })
            .collect()
    }

    /// A game's comments, oldest first.
    pub async fn review_comments(&self, game: i64) -> Result<Vec<StoredComment>, ApiError> {
        let rows = sqlx::query(
            "SELECT c.id, c.node, c.text, c.at_ms, u.name FROM review_comments c \
             LEFT JOIN users u ON u.id = c.author_id WHERE c.game_id = $1 ORDER BY c.id",
        )
        .bind(game)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| {
                Ok(StoredComment {
                    id: r.try_get::<i64, _>("id")? as u32,
                    node: r.try_get("node")?,
                    author: r.try_get::<Option<String>, _>("name")?.unwrap_or_default(),
                    text: r.try_get("text")?,
                    at_ms: r.try_get("at_ms")?,
                })
            })
            .collect()
    }

    /// Adds a variation node unless the same move at the same node exists (then its id), or a
    /// cap is reached (429).
    pub async fn add_variation(
        &self,
        game: i64,
        author: i64,
        v: &StoredVariation,
        caps: TreeCaps,
    ) -> Result<Added, ApiError> {
        let mut tx = self.pool.begin().await?;
        // A write first: PostgreSQL locks the game's row, SQLite takes its write lock.
        sqlx::query("UPDATE games SET id = id WHERE id = $1").bind(game).execute(&mut *tx).await?;
        let existing: Option<i64> = sqlx::query(
            "SELECT id FROM review_variations WHERE game_id = $1 AND parent = $2 AND player = $3 AND input = $4",
        )
        .bind(game)
        .bind(&v.parent)
        .bind(i64::from(v.player))
        .bind(&v.input)
        .fetch_optional(&mut *tx)
        .await?
        .map(|r| r.try_get("id"))
        .transpose()?;
        if let Some(id) = existing {
            return Ok(Added::Existing(id as u32));
        }
        let row = sqlx::query(
            "SELECT COUNT(*) AS n, COALESCE(SUM(CASE WHEN author_id = $2 THEN 1 ELSE 0 END), 0) AS mine, \
             COALESCE(MAX(id), 0) AS last FROM review_variations WHERE game_id = $1",
        )
        .bind(game)
        .bind(author)
        .fetch_one(&mut *tx)
        .await?;
        let (n, mine, last): (i64, i64, i64) =
            (row.try_get("n")?, row.try_get("mine")?, row.try_get("last")?);
        check_caps(n, mine, caps, "variation moves")?;
        sqlx::query(
            "INSERT INTO review_variations (game_id, id, parent, player, input, author_id, created_ms) \
             VALUES ($1, $2, $3, $4, $5, $6, $7)",
        )
        .bind(game)
        .bind(last + 1)
        .bind(&v.parent)
        .bind(i64::from(v.player))
        .bind(&v.input)
        .bind(author)
        .bind(super::now_ms())
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(Added::New(last as u32 + 1))
    }

    /// Adds a comment unless a cap is reached (429); returns its id.
    pub async fn add_comment(
        &self,
        game: i64,
        author: i64,
        node: &str,
        text: &str,
        at_ms: i64,
        caps: TreeCaps,
    ) -> Result<u32, ApiError> {
        let mut tx = self.pool.begin().await?;
        sqlx::query("UPDATE games SET id = id WHERE id = $1").bind(game).execute(&mut *tx).await?;
        let row = sqlx::query(
            "SELECT COUNT(*) AS n, COALESCE(SUM(CASE WHEN author_id = $2 THEN 1 ELSE 0 END), 0) AS mine, \
             COALESCE(MAX(id), 0) AS last FROM review_comments WHERE game_id = $1",
        )
        .bind(game)
        .bind(author)
        .fetch_one(&mut *tx)
        .await?;
        let (n, mine, last): (i64, i64, i64) =
            (row.try_get("n")?, row.try_get("mine")?, row.try_get("last")?);
        check_caps(n, mine, caps, "comments")?;
        sqlx::query(
            "INSERT INTO review_comments (game_id, id, node, author_id, text, at_ms) VALUES ($1, $2, $3, $4, $5, $6)",
        )
        .bind(game)
        .bind(last + 1)
        .bind(node)
        .bind(author)
        .bind(text)
        .bind(at_ms)
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(last as u32 + 1)
    }
}

fn check_caps(n: i64, mine: i64, caps: TreeCaps, what: &str) -> Result<(), ApiError> {
    if n >= caps.per_game {
        return Err(ApiError::TooMany(format!(
            "this game has the most {what} it may have ({})",
            caps.per_game
        )));
    }
    if mine >= caps.per_author {
        return Err(ApiError::TooMany(format!(
            "you have added the most {what} one player may add to a game ({})",
            caps.per_author
        )));
    }
    Ok(())
}
