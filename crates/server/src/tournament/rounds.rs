//! A round in play: its games made (once per table), the places of finished games read into
//! its results, absences noted when it is paired; and the crosstable of the rounds so far.

use gobeyond_tournament as pairing;
use serde_json::{Value, json};

use super::create::NewTournament;
use crate::{
    AppState,
    error::ApiError,
    store::{User, now_ms, tournaments::EntrantRow},
};

/// Makes the game of each table of `round` that has none yet; false when the claim was lost
/// (the game made last, not noted, is taken down again).
pub(super) async fn make_missing_games(
    app: &AppState,
    id: i64,
    epoch: i64,
    settings: &NewTournament,
    creator: &User,
    round: &pairing::Round,
    entrants: &[EntrantRow],
) -> Result<bool, ApiError> {
    let number = i64::from(round.number);
    let made = app.store.tournament_games(id).await?;
    for (n, table) in round.tables.iter().enumerate() {
        let table_no = n as i64 + 1;
        if made.iter().any(|g| g.0 == number && g.1 == table_no) {
            continue;
        }
        let seats: Vec<&EntrantRow> =
            table.seats.iter().filter_map(|s| entrants.iter().find(|e| e.id == i64::from(*s))).collect();
        if seats.len() != table.seats.len() {
            return Err(ApiError::Internal(format!("tournament {id}: a table names an unknown entrant")));
        }
        let game = super::tables::make_game(app, creator, settings, &seats).await?;
        let mails =
            super::notices::round_start_mails(app, id, &settings.name, round.number, game, &seats).await?;
        if !app.store.put_table_game(id, epoch, number, table_no, game, &mails.rows()).await? {
            let before_ms = crate::table::CANCEL;
            let _ = app.hub.ask(game, |reply| crate::table::Command::Expire { before_ms, reply }).await;
            return Ok(false);
        }
        super::notices::wake_sender(app, &mails);
    }
    Ok(true)
}

/// Reads the places of the round's finished games into its results; true when one was added.
pub(super) async fn read_results(
    app: &AppState,
    id: i64,
    round: &mut pairing::Round,
) -> Result<bool, ApiError> {
    let number = i64::from(round.number);
    round.results.resize(round.tables.len(), None);
    let games = app.store.tournament_games(id).await?;
    let mut changed = false;
    for (n, table) in round.tables.iter().enumerate() {
        if round.results[n].is_some() {
            continue;
        }
        let Some(&(_, _, game)) = games.iter().find(|g| g.0 == number && g.1 == n as i64 + 1) else {
            continue;
        };
        let Some((status, result)) = app.store.game_outcome(game).await? else { continue };
        if status != "finished" {
            continue;
        }
        round.results[n] = Some(table_result(result.as_deref(), table.seats.len()));
        changed = true;
    }
    Ok(changed)
}

/// A finished game's places; a game that ended without places (aborted, abandoned) is a
/// forfeit for every seat, all sharing the last place.
fn table_result(result: Option<&str>, seats: usize) -> pairing::TableResult {
    let value: Value = result.and_then(|r| serde_json::from_str(r).ok()).unwrap_or_default();
    let places: Vec<u8> = value["places"]
        .as_array()
        .map(|p| p.iter().filter_map(|v| v.as_u64().map(|n| n.min(8) as u8)).collect())
        .unwrap_or_default();
    if value["aborted"] != true && places.len() == seats && places.iter().all(|&p| p >= 1) {
        pairing::TableResult { places, forfeit: vec![false; seats] }
    } else {
        pairing::TableResult { places: vec![seats as u8; seats], forfeit: vec![true; seats] }
    }
}

/// Entrants absent as a round is paired: with live clocks, people not seen for ten minutes
/// (with correspondence clocks or none, nobody is absent). Withdrawn entrants are not absent.
pub(super) async fn absentees(
    app: &AppState,
    settings: &NewTournament,
    entrants: &[EntrantRow],
) -> Result<Vec<pairing::EntrantId>, ApiError> {
    let live = super::time_control(&settings.time_control)
        .is_some_and(|t| t != crate::setup::TimeControl::None && !t.correspondence());
    if !live {
        return Ok(Vec::new());
    }
    let mut absent = Vec::new();
    for e in entrants.iter().filter(|e| e.withdrawn_after.is_none()) {
        let Some(user) = e.user_id else { continue };
        let seen = app.store.last_seen(user).await?;
        if seen.is_none_or(|t| now_ms() - t > super::director::ABSENT_AFTER_MS) {
            absent.push(e.id as pairing::EntrantId);
        }
    }
    Ok(absent)
}

/// One row and one column per entrant in standings order: where two met, the row entrant's
/// results against the column's ("+" ahead, "−" behind, "=" level; one per game) and the last
/// game's id.
pub(super) fn crosstable(standings: &pairing::Standings, rounds: &[pairing::Round]) -> Vec<Vec<Value>> {
    let order: Vec<pairing::EntrantId> = standings.rows.iter().map(|r| r.entrant).collect();
    order
        .iter()
        .map(|&a| {
            order
                .iter()
                .map(|&b| {
                    let mut text = String::new();
                    for round in rounds {
                        for (table, result) in round.tables.iter().zip(&round.results) {
                            let (Some(i), Some(j), Some(r)) = (
                                table.seats.iter().position(|&s| s == a),
                                table.seats.iter().position(|&s| s == b),
                                result,
                            ) else {
                                continue;
                            };
                            if a == b {
                                continue;
                            }
                            let (pa, pb) = (r.places.get(i), r.places.get(j));
                            text.push(match pa.cmp(&pb) {
                                std::cmp::Ordering::Less => '+',
                                std::cmp::Ordering::Greater => '−',
                                std::cmp::Ordering::Equal => '=',
                            });
                        }
                    }
                    if text.is_empty() { Value::Null } else { json!({ "text": text }) }
                })
                .collect()
        })
        .collect()
}
