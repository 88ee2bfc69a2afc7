//! `GET /api/players/{name}`: a player's page — ratings per rule system and number of players
//! (with kyu/dan ranks where the system's players read them), rating history, wins and losses
//! per system, and public games.

use std::collections::BTreeMap;

use axum::{
    Json,
    extract::{Path, State},
};

use crate::{
    AppState,
    error::ApiError,
    http::summarize,
    protocol::{PlayerProfile, RatedGame, SystemRating, SystemRecord},
    store::profiles::Finish,
};

/// Finished games summed up on a page: enough for years of play, bounded per request.
const FINISHES_COUNTED: i64 = 2_000;

pub async fn player(
    State(app): State<AppState>,
    Path(name): Path<String>,
) -> Result<Json<PlayerProfile>, ApiError> {
    let user = app
        .store
        .user_by_name(&name)
        .await?
        .ok_or_else(|| ApiError::NotFound(format!("there is no player {name:?}")))?;
    let ratings = app
        .store
        .ratings_of(user.id)
        .await?
        .into_iter()
        .map(|(system, players, r)| SystemRating {
            rating: r.view_in(&system, players, None),
            system,
            players,
        })
        .collect();
    let history = app
        .store
        .rating_history(user.id, 200)
        .await?
        .into_iter()
        .map(|h| RatedGame {
            game: h.game,
            system: h.system,
            players: h.players,
            place: h.place,
            before: h.before.value(),
            after: h.after.value(),
            at_ms: h.at_ms,
        })
        .collect();
    let record = tally(&app.store.finishes_of(user.id, FINISHES_COUNTED).await?);
    let mut games = Vec::new();
    for row in app.store.public_games_of(user.id, 50).await? {
        games.push(summarize(&app, row).await?.summary);
    }
    Ok(Json(PlayerProfile { name: user.name, kind: user.kind, ratings, history, record, games }))
}

/// Wins (first place, alone or shared with some), draws (everyone shares a place) and losses
/// per system and number of players; games without places (aborted, abandoned) are not counted.
fn tally(finishes: &[Finish]) -> Vec<SystemRecord> {
    let mut by_pool: BTreeMap<(&str, usize), SystemRecord> = BTreeMap::new();
    for f in finishes {
        let Some(place) = f.place else { continue };
        let r = by_pool.entry((&f.system, f.players)).or_insert_with(|| SystemRecord {
            system: f.system.clone(),
            players: f.players,
            won: 0,
            drawn: 0,
            lost: 0,
        });
        match (place, f.everyone_shares) {
            (_, true) => r.drawn += 1,
            (1, false) => r.won += 1,
            _ => r.lost += 1,
        }
    }
    by_pool.into_values().collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn finish(system: &str, players: usize, place: Option<u32>, everyone_shares: bool) -> Finish {
        Finish { system: system.into(), players, place, everyone_shares }
    }

    #[test]
    fn a_record_per_system_and_number_of_players() {
        let record = tally(&[
            finish("classic", 2, Some(1), false),
            finish("classic", 2, Some(2), false),
            finish("classic", 2, Some(1), true),
            finish("classic", 4, Some(1), false),
            finish("classic", 4, None, false),
            finish("gobeyond", 3, Some(3), false),
        ]);
        let rows: Vec<(&str, usize, u32, u32, u32)> =
            record.iter().map(|r| (r.system.as_str(), r.players, r.won, r.drawn, r.lost)).collect();
        assert_eq!(rows, [("classic", 2, 1, 1, 1), ("classic", 4, 1, 0, 0), ("gobeyond", 3, 0, 0, 1)]);
    }
}
