//! Lobby lists that filter and page (`GET /api/games`) and player search (`GET /api/players`).
//! Filters are checked here (an unknown value is refused, named) and run as one query on the
//! `games.list_*` columns (`store/lists.rs`), filled when a game is made.

use std::collections::HashMap;

use axum::{
    Json,
    extract::{Query, State},
    http::header,
    response::{IntoResponse, Response},
};
use gobeyond_rules::{SYSTEMS, record::MapSource};
use serde::Serialize;
use ts_rs::TS;

use crate::{
    AppState,
    auth::MaybeSession,
    error::ApiError,
    protocol::GameSummary,
    setup::GameSetup,
    store::{FilterKeys, ListFilter, ListKeys, Store},
};

/// The clock kinds a list filters on: `turn` is the rule system's own turn clock (GoBeyond's
/// `turn_seconds`), the others the game's time control. A new time control adds its kind here.
pub const CLOCK_KINDS: &[&str] =
    &["none", "turn", "absolute", "fischer", "byo_yomi", "canadian", "simple", "correspondence"];
/// A page holds at most this many games (50 unless asked).
pub const MAX_PAGE: i64 = 100;
/// Player search answers at most this many names.
pub const MAX_FOUND: i64 = 20;

/// `GET /api/games`: one page of a list.
#[derive(Debug, Serialize, TS)]
pub struct GamePage {
    pub games: Vec<GameSummary>,
    /// `before` for the next page (`null`: this was the last).
    pub next: Option<i64>,
}

/// `GET /api/players?prefix=`: players whose name starts so.
#[derive(Debug, Serialize, TS)]
pub struct PlayersFound {
    pub players: Vec<FoundPlayer>,
}

#[derive(Debug, Serialize, TS)]
pub struct FoundPlayer {
    pub name: String,
    /// `registered` or `bot` (guests are not searched).
    pub kind: String,
}

impl ListKeys {
    pub fn of(setup: &GameSetup) -> ListKeys {
        let (map_family, map_size) = match setup.map.as_ref() {
            MapSource::Spec(spec) => {
                let mut parts = spec.split(':');
                let family = parts.next().unwrap_or_default().to_lowercase();
                (family, parts.next().unwrap_or_default().to_lowercase())
            }
            MapSource::Custom(c) => ("custom".to_string(), c.nodes.len().to_string()),
        };
        let turn_clock =
            setup.rules.info().ok().and_then(|i| i.clock(&setup.rules.settings)).filter(|c| c.turn_ms > 0);
        let clock = if turn_clock.is_some() {
            "turn".to_string()
        } else {
            // The time control's own tag, so that a new kind lists under its name.
            serde_json::to_value(setup.time)
                .ok()
                .and_then(|v| v.get("kind").and_then(|k| k.as_str()).map(str::to_string))
                .unwrap_or_else(|| "none".into())
        };
        ListKeys {
            system: setup.rules.system.clone(),
            map_family,
            map_size,
            players: setup.players as i64,
            rated: setup.rated,
            clock,
        }
    }
}

/// What the query string asks, every value checked.
fn parse(q: &HashMap<String, String>, signed_in: Option<i64>) -> Result<ListFilter, ApiError> {
    let bad = |name: &str, value: &str, want: &str| {
        ApiError::BadRequest(format!("{name} {value:?} is not a filter value: {want}"))
    };
    for key in q.keys() {
        if !["status", "mine", "limit", "before", "rules", "map", "size", "players", "rated", "clock"]
            .contains(&key.as_str())
        {
            return Err(ApiError::BadRequest(format!(
                "{key:?} is not a list filter: use status, mine, limit, before, rules, map, size, players, rated or clock"
            )));
        }
    }
    let get = |k: &str| q.get(k).map(String::as_str).filter(|v| !v.is_empty());
    let flag = |k: &str| match get(k) {
        None => Ok(None),
        Some("true" | "1") => Ok(Some(true)),
        Some("false" | "0") => Ok(Some(false)),
        Some(v) => Err(bad(k, v, "use true or false")),
    };
    let number = |k: &str, lo: i64, hi: i64| match get(k) {
        None => Ok(None),
        Some(v) => match v.parse::<i64>() {
            Ok(n) if (lo..=hi).contains(&n) => Ok(Some(n)),
            _ => Err(bad(k, v, &format!("a whole number from {lo} to {hi}"))),
        },
    };
    let status = match get("status") {
        None | Some("open" | "live" | "finished") => get("status").map(str::to_string),
        Some(v) => return Err(bad("status", v, "use open, live or finished")),
    };
    let user = match (flag("mine")?.unwrap_or(false), signed_in) {
        (true, Some(u)) => Some(u),
        (true, None) => return Err(ApiError::Unauthorized),
        (false, _) => None,
    };
    let system = match get("rules") {
        Some(v) if !SYSTEMS.iter().any(|s| s.name == v) => {
            let names: Vec<&str> = SYSTEMS.iter().map(|s| s.name).collect();
            return Err(bad("rules", v, &format!("use one of {}", names.join(", "))));
        }
        v => v.map(str::to_string),
    };
    let map_family = match get("map") {
        Some(v) if v != "custom" && !gobeyond_maps::GENERATORS.iter().any(|g| g.kind == v) => {
            return Err(bad("map", v, "use a map kind (square, hex, torus, …) or custom"));
        }
        v => v.map(str::to_string),
    };
    let map_size = match get("size") {
        Some(v) if v.len() > 20 || !v.chars().all(|c| c.is_ascii_digit() || c == 'x' || c == ',') => {
            return Err(bad("size", v, "a size as maps write it: 19, 13x9, 2,1"));
        }
        v => v.map(str::to_lowercase),
    };
    let clock = match get("clock") {
        Some(v) if !CLOCK_KINDS.contains(&v) => {
            return Err(bad("clock", v, &format!("use one of {}", CLOCK_KINDS.join(", "))));
        }
        v => v.map(str::to_string),
    };
    Ok(ListFilter {
        // Public lists default to open games; "my games" without a status are all of them.
        status: status.or(if user.is_none() { Some("open".into()) } else { None }),
        user,
        keys: FilterKeys {
            system,
            map_family,
            map_size,
            players: number("players", 2, 8)?,
            rated: flag("rated")?,
            clock,
        },
        before: number("before", 1, i64::MAX)?,
        limit: number("limit", 1, i64::MAX)?.unwrap_or(50).min(MAX_PAGE),
    })
}

/// `GET /api/games?status=&mine=&rules=&map=&size=&players=&rated=&clock=&before=&limit=`.
pub async fn list_games(
    State(app): State<AppState>,
    MaybeSession(session): MaybeSession,
    Query(q): Query<HashMap<String, String>>,
) -> Result<Response, ApiError> {
    let filter = parse(&q, session.as_ref().map(|s| s.user.id))?;
    let body = match filter.user {
        // Public lists are the same for everyone: those asked at once share one computation.
        None => {
            let k = &filter.keys;
            let key = format!(
                "page {:?} {:?} {:?} {:?} {:?} {:?} {:?} {:?} {}",
                filter.status,
                k.system,
                k.map_family,
                k.map_size,
                k.players,
                k.rated,
                k.clock,
                filter.before,
                filter.limit
            );
            app.lobby.get(&key, page(&app, &filter)).await?
        }
        Some(_) => page(&app, &filter).await?.into(),
    };
    Ok(([(header::CONTENT_TYPE, "application/json")], body.to_vec()).into_response())
}

/// One page as JSON: one game more than the page is read, to know whether another follows.
async fn page(app: &AppState, filter: &ListFilter) -> Result<Vec<u8>, ApiError> {
    let mut asked = filter.clone();
    asked.limit = filter.limit + 1;
    let mut rows = app.store.filtered_games(&asked).await?;
    let more = rows.len() as i64 > filter.limit;
    rows.truncate(filter.limit as usize);
    let next = rows.last().map(|r| r.id).filter(|_| more);
    let mut games = Vec::with_capacity(rows.len());
    for row in rows {
        let summarized = crate::http::summarize(app, row).await?;
        // Open games made before the invitation column (the query reads 0 there) are caught here.
        if filter.user.is_none() && summarized.status == "open" && !summarized.joinable {
            continue;
        }
        games.push(summarized.summary);
    }
    serde_json::to_vec(&GamePage { games, next }).map_err(|e| ApiError::Internal(e.to_string()))
}

/// `GET /api/players?prefix=ad`: registered players and bots whose name starts with `prefix`,
/// compared as names are (case and look-alike letters aside), alphabetical, at most 20.
pub async fn search_players(
    State(app): State<AppState>,
    Query(q): Query<HashMap<String, String>>,
) -> Result<Json<PlayersFound>, ApiError> {
    let prefix = q.get("prefix").map(|p| p.trim()).unwrap_or_default();
    if prefix.is_empty() || prefix.chars().count() > 24 {
        return Err(ApiError::BadRequest("prefix: give the first 1 to 24 letters of a name".into()));
    }
    let key = crate::auth::name_key(prefix);
    let found = app.store.players_by_prefix(&key, MAX_FOUND).await?;
    Ok(Json(PlayersFound {
        players: found.into_iter().map(|p| FoundPlayer { name: p.name, kind: p.kind }).collect(),
    }))
}

/// Gives games made before the list columns theirs (at start-up; a few hundred at a time).
pub async fn fill_list_keys(store: &Store) -> Result<(), ApiError> {
    let mut after = 0;
    loop {
        let batch = store.games_without_list_keys(after).await?;
        let Some(&(last, _)) = batch.last() else { return Ok(()) };
        for (id, setup) in batch {
            // Unreadable settings get empty keys: listed unfiltered, never matched by a filter.
            let keys =
                serde_json::from_str::<GameSetup>(&setup).map(|s| ListKeys::of(&s)).unwrap_or_default();
            store.set_list_keys(id, &keys).await?;
        }
        after = last;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn query(pairs: &[(&str, &str)]) -> HashMap<String, String> {
        pairs.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect()
    }

    #[test]
    fn unknown_values_and_names_are_refused_by_name() {
        for (k, v, named) in [
            ("rules", "chess", "chess"),
            ("map", "moebius", "moebius"),
            ("clock", "hourglass", "hourglass"),
            ("players", "9", "9"),
            ("rated", "maybe", "maybe"),
            ("size", "19;drop", "19;drop"),
            ("colour", "red", "colour"),
        ] {
            let e = parse(&query(&[(k, v)]), None).expect_err(v).to_string();
            assert!(e.contains(named), "{e}");
        }
    }

    #[test]
    fn pages_are_bounded_and_public_lists_default_to_open_games() {
        let f = parse(&query(&[("limit", "100000"), ("rules", "classic"), ("map", "square")]), None)
            .expect("valid");
        assert_eq!(
            (f.limit, f.status.as_deref(), f.keys.system.as_deref()),
            (MAX_PAGE, Some("open"), Some("classic"))
        );
    }
}
