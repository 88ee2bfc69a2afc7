//! A round in play: its games made (once per table), the places of finished games read into
//! its results, absences noted when it is paired; and the crosstable of the rounds so far.

use gobeyond_tournament as pairing;
use serde_json::{Value, json};

use super::create::NewTournament;
use crate::{
    AppState,
    error::ApiError,
    store::{
        User, now_ms,
        tournaments::{EntrantRow, RoundRow},
    },
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

/// Brings a round in play up to date: its missing games made, the places of finished ones
/// read, and the round stored when that changed it (finished once every table has places).
/// None when the claim was lost; else whether the round is done.
#[allow(clippy::too_many_arguments)]
pub(super) async fn update_round(
    app: &AppState,
    id: i64,
    epoch: i64,
    settings: &NewTournament,
    creator: &User,
    row: &RoundRow,
    round: &mut pairing::Round,
    entrants: &[EntrantRow],
) -> Result<Option<bool>, ApiError> {
    if !make_missing_games(app, id, epoch, settings, creator, round, entrants).await? {
        return Ok(None);
    }
    let changed = read_results(app, id, round).await?;
    let done = round.results.iter().all(Option::is_some);
    if changed || done {
        let text = serde_json::to_string(&round).map_err(|e| ApiError::Internal(e.to_string()))?;
        let stored = RoundRow { round: text, finished_ms: done.then(now_ms), ..row.clone() };
        if !app.store.put_round(id, epoch, &stored).await? {
            return Ok(None);
        }
    }
    Ok(Some(done))
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
/// (with correspondence clocks or none, nobody is absent). Withdrawn entrants, those joining
/// later and those who asked for a bye in round `number` are not absent.
pub(super) async fn absentees(
    app: &AppState,
    settings: &NewTournament,
    entrants: &[EntrantRow],
    number: u32,
) -> Result<Vec<pairing::EntrantId>, ApiError> {
    let live = super::time_control(&settings.time_control)
        .is_some_and(|t| t != crate::setup::TimeControl::None && !t.correspondence());
    if !live {
        return Ok(Vec::new());
    }
    let mut absent = Vec::new();
    let excused = |e: &EntrantRow| {
        let byes: Vec<u32> = serde_json::from_str(&e.bye_requested).unwrap_or_default();
        e.withdrawn_after.is_some() || e.joined_round > i64::from(number) || byes.contains(&number)
    };
    for e in entrants.iter().filter(|e| !excused(e)) {
        let Some(user) = e.user_id else { continue };
        let seen = app.store.last_seen(user).await?;
        if seen.is_none_or(|t| now_ms() - t > super::director::ABSENT_AFTER_MS) {
            absent.push(e.id as pairing::EntrantId);
        }
    }
    Ok(absent)
}

/// One row and one column per entrant in standings order: where two met, the row entrant's
/// results against the column's ("+" ahead, "−" behind, "=" level; one per game) as `text`, and
/// each game with its result (`games`: `{result, game_id}`, the id null before its game is made)
/// so that the page links each result to its game. `games` are (round, table, game id).
pub(super) fn crosstable(
    standings: &pairing::Standings,
    rounds: &[pairing::Round],
    games: &[(i64, i64, i64)],
) -> Vec<Vec<Value>> {
    let order: Vec<pairing::EntrantId> = standings.rows.iter().map(|r| r.entrant).collect();
    order.iter().map(|&a| order.iter().map(|&b| cell(a, b, rounds, games)).collect()).collect()
}

/// The crosstable's cell of `a` (row) against `b` (column).
fn cell(
    a: pairing::EntrantId,
    b: pairing::EntrantId,
    rounds: &[pairing::Round],
    games: &[(i64, i64, i64)],
) -> Value {
    if a == b {
        return Value::Null;
    }
    let mut text = String::new();
    let mut met = Vec::new();
    for round in rounds {
        for (n, (table, result)) in round.tables.iter().zip(&round.results).enumerate() {
            let (Some(i), Some(j), Some(r)) =
                (table.seats.iter().position(|&s| s == a), table.seats.iter().position(|&s| s == b), result)
            else {
                continue;
            };
            let mark = match r.places.get(i).cmp(&r.places.get(j)) {
                std::cmp::Ordering::Less => '+',
                std::cmp::Ordering::Greater => '−',
                std::cmp::Ordering::Equal => '=',
            };
            text.push(mark);
            let key = (i64::from(round.number), n as i64 + 1);
            let game = games.iter().find(|g| (g.0, g.1) == key).map(|g| g.2);
            met.push(json!({ "result": mark.to_string(), "game_id": game }));
        }
    }
    if text.is_empty() { Value::Null } else { json!({ "text": text, "games": met }) }
}
