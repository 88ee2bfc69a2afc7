//! Lobby lists that filter and page, the columns they filter on, and player search.

use sqlx::Row;

use super::{GameRow, Store, game};
use crate::error::ApiError;

/// What a list filters on, one column each (`games.list_*`), written when a game is made.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ListKeys {
    pub system: String,
    /// The map generator's kind (`square`, `hex`, …) or `custom`.
    pub map_family: String,
    /// The generator's size argument as written (`19`, `13x9`), or a custom map's node count.
    pub map_size: String,
    pub players: i64,
    pub rated: bool,
    /// `none`, `turn` (the rule system's own turn clock) or the time control's kind.
    pub clock: String,
}

/// A filtered list's request; `None` fields do not filter.
#[derive(Debug, Clone, Default)]
pub struct ListFilter {
    /// `open`, `live` or `finished` (`None`: every status, for `user`'s own games only).
    pub status: Option<String>,
    /// Only games this user created or holds a seat in (then private ones too).
    pub user: Option<i64>,
    pub keys: FilterKeys,
    /// Games with a smaller id only: the page after the one that ended there.
    pub before: Option<i64>,
    pub limit: i64,
}

#[derive(Debug, Clone, Default)]
pub struct FilterKeys {
    pub system: Option<String>,
    pub map_family: Option<String>,
    pub map_size: Option<String>,
    pub players: Option<i64>,
    pub rated: Option<bool>,
    pub clock: Option<String>,
}

/// A player found by name.
#[derive(Debug, Clone)]
pub struct PlayerFound {
    pub name: String,
    pub kind: String,
}

// Static SQL (see games.rs): each filter is "unset or equal". Newest first by id, which never
// changes, so that pages neither repeat nor skip a game while games come and go.
const GAMES_FILTERED: &str = "SELECT id, creator, CASE WHEN brief IS NULL THEN setup ELSE '' END AS setup, brief, status, public, invite, clock, result, created_ms, \
     COALESCE((SELECT MAX(a.at_ms) FROM actions a WHERE a.game_id = games.id), created_ms) AS last_active FROM games \
     WHERE ($1 IS NULL OR status = $1) \
     AND (CASE WHEN $2 IS NULL THEN public = 1 ELSE (creator = $2 OR id IN (SELECT game_id FROM seats WHERE user_id = $2)) END) \
     AND ($3 IS NULL OR list_system = $3) AND ($4 IS NULL OR list_map_family = $4) \
     AND ($5 IS NULL OR list_map_size = $5) AND ($6 IS NULL OR list_players = $6) \
     AND ($7 IS NULL OR list_rated = $7) AND ($8 IS NULL OR list_clock = $8) AND ($9 IS NULL OR id < $9) \
     AND ($2 IS NOT NULL OR status <> 'open' OR EXISTS (SELECT 1 FROM seats s WHERE s.game_id = games.id \
       AND s.user_id IS NULL AND s.bot_level IS NULL AND s.invite_only = 0)) \
     ORDER BY id DESC LIMIT $10";

/// Games made before the list columns get theirs at start-up, this many at a time.
const FILL_BATCH: i64 = 200;

impl Store {
    /// One page of a filtered list, newest first (at most `filter.limit` games).
    pub async fn filtered_games(&self, filter: &ListFilter) -> Result<Vec<GameRow>, ApiError> {
        let k = &filter.keys;
        let rows = sqlx::query(GAMES_FILTERED)
            .bind(filter.status.as_deref())
            .bind(filter.user)
            .bind(k.system.as_deref())
            .bind(k.map_family.as_deref())
            .bind(k.map_size.as_deref())
            .bind(k.players)
            .bind(k.rated.map(i64::from))
            .bind(k.clock.as_deref())
            .bind(filter.before)
            .bind(filter.limit)
            .fetch_all(&self.pool)
            .await?;
        Ok(rows.iter().map(game).collect::<Result<_, _>>()?)
    }

    /// Stores what lists filter game `id` on.
    pub async fn set_list_keys(&self, id: i64, keys: &ListKeys) -> Result<(), ApiError> {
        sqlx::query(
            "UPDATE games SET list_system = $1, list_map_family = $2, list_map_size = $3, list_players = $4, \
             list_rated = $5, list_clock = $6 WHERE id = $7",
        )
        .bind(&keys.system)
        .bind(&keys.map_family)
        .bind(&keys.map_size)
        .bind(keys.players)
        .bind(i64::from(keys.rated))
        .bind(&keys.clock)
        .bind(id)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// Games with no list columns yet (made before them), with their settings: at most
    /// [`FILL_BATCH`], lowest id first, after `after`.
    pub async fn games_without_list_keys(&self, after: i64) -> Result<Vec<(i64, String)>, ApiError> {
        let rows = sqlx::query(
            "SELECT id, setup FROM games WHERE list_system IS NULL AND id > $1 ORDER BY id LIMIT $2",
        )
        .bind(after)
        .bind(FILL_BATCH)
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(|r| Ok((r.try_get("id")?, r.try_get("setup")?))).collect()
    }

    /// Players (guests left out) whose name, compared as names are (`auth::name_key`), starts
    /// with `key`: alphabetical by that key, at most `limit`.
    pub async fn players_by_prefix(&self, key: &str, limit: i64) -> Result<Vec<PlayerFound>, ApiError> {
        // No LIKE (no escaping to get wrong): the index gives the start, the prefix is compared
        // exactly, and the scan stops at the limit.
        let rows = sqlx::query(
            "SELECT name, kind FROM users WHERE name_key >= $1 AND substr(name_key, 1, CAST($2 AS INTEGER)) = $1 \
             AND kind <> 'guest' ORDER BY name_key LIMIT $3",
        )
        .bind(key)
        .bind(key.chars().count() as i64)
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(|r| Ok(PlayerFound { name: r.try_get("name")?, kind: r.try_get("kind")? })).collect()
    }
}
