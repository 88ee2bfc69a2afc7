//! What a player's page sums up from their finished games: wins, losses and draws per rule
//! system and number of players.

use sqlx::Row;

use super::Store;
use crate::{error::ApiError, setup::GameBrief};

/// How one finished game went for one of its players.
#[derive(Debug, Clone, PartialEq)]
pub struct Finish {
    pub system: String,
    pub players: usize,
    /// Their place from 1; `None` when the game ended without places (abandoned, aborted).
    pub place: Option<u32>,
    /// Every player shares that place (a draw, jigo).
    pub everyone_shares: bool,
}

impl Store {
    /// How `user`'s last `limit` finished games went for them, newest first.
    pub async fn finishes_of(&self, user: i64, limit: i64) -> Result<Vec<Finish>, ApiError> {
        let rows = sqlx::query(
            "SELECT g.brief, CASE WHEN g.brief IS NULL THEN g.setup ELSE '' END AS setup, g.result, s.seat \
             FROM games g JOIN seats s ON s.game_id = g.id \
             WHERE s.user_id = $1 AND g.status = 'finished' ORDER BY g.id DESC LIMIT $2",
        )
        .bind(user)
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        let mut out = Vec::with_capacity(rows.len());
        for r in &rows {
            let brief: Option<String> = r.try_get("brief")?;
            let brief = match brief {
                Some(text) => serde_json::from_str::<GameBrief>(&text).ok(),
                None => serde_json::from_str::<crate::setup::GameSetup>(&r.try_get::<String, _>("setup")?)
                    .ok()
                    .map(|s| s.brief()),
            };
            let Some(brief) = brief else { continue };
            let result: Option<String> = r.try_get("result")?;
            let seat = r.try_get::<i64, _>("seat")? as usize;
            out.push(finish_of(brief, result.as_deref(), seat));
        }
        Ok(out)
    }
}

/// One player's finish from a stored result: places exist unless the game was aborted or
/// abandoned (a rated game aborted keeps its outcome, but it is no result).
fn finish_of(brief: GameBrief, result: Option<&str>, seat: usize) -> Finish {
    let value: serde_json::Value = result.and_then(|r| serde_json::from_str(r).ok()).unwrap_or_default();
    let places: Vec<u32> = value["places"]
        .as_array()
        .map(|p| p.iter().filter_map(|v| v.as_u64().map(|n| n as u32)).collect())
        .unwrap_or_default();
    let counted = value["aborted"] != true && places.len() == brief.players;
    let place = places.get(seat).copied().filter(|_| counted);
    let everyone_shares = counted && places.iter().all(|&p| Some(p) == place);
    Finish { system: brief.system, players: brief.players, place, everyone_shares }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::MapBrief;

    fn brief(players: usize) -> GameBrief {
        GameBrief {
            system: "classic".into(),
            players,
            map: MapBrief::Spec("square:9".into()),
            rated: false,
            kept_seats: vec![],
            time: None,
        }
    }

    #[test]
    fn places_say_won_lost_or_drawn_and_aborted_games_count_for_nothing() {
        let won =
            finish_of(brief(2), Some(r#"{"places":[1,2],"scores":[],"ranking":[],"reason":"score"}"#), 0);
        assert_eq!((won.place, won.everyone_shares), (Some(1), false));
        let jigo = finish_of(brief(2), Some(r#"{"places":[1,1]}"#), 1);
        assert_eq!((jigo.place, jigo.everyone_shares), (Some(1), true));
        let shared_second = finish_of(brief(3), Some(r#"{"places":[1,2,2]}"#), 2);
        assert_eq!((shared_second.place, shared_second.everyone_shares), (Some(2), false));
        assert_eq!(finish_of(brief(2), Some(r#"{"places":[1,2],"aborted":true}"#), 0).place, None);
        assert_eq!(finish_of(brief(2), Some(r#"{"abandoned":true}"#), 0).place, None);
        assert_eq!(finish_of(brief(2), None, 0).place, None);
    }
}
