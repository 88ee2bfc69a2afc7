//! Arenas and the formats' own creation checks (docs/tournaments.md "Arena"). An arena has no
//! rounds: while its window is open, the director forms tables from the entrants waiting (in
//! the tournament, not withdrawn, not at one of its tables now, and present — a person seen in
//! the last two minutes; bots always wait) and makes their games at once. Each batch of tables
//! formed together is stored as one round, so standings, the crosstable and the exports read
//! an arena like any other format. When the window closes no table forms; the games in play
//! finish and count; then the tournament is finished.

use std::collections::HashSet;

use gobeyond_tournament as pairing;
use serde::Serialize;

use super::create::NewTournament;
use crate::{
    AppState,
    error::ApiError,
    store::{now_ms, tournaments::RoundRow},
};

/// The shortest and longest arena windows, in minutes.
pub const MIN_MINUTES: i64 = 5;
pub const MAX_MINUTES: i64 = 24 * 60;
/// A person seen this recently waits for a table: the tournament page and the lobby note the
/// reader at most once a minute (`store::social::SEEN_EVERY_MS`), so two minutes covers a
/// reader who has either open.
pub const PRESENT_MS: i64 = 2 * 60_000;
/// Arena games one tournament makes at most: a window of a day with bots that never tire must
/// not make games without end.
pub const MAX_GAMES: usize = 2000;

/// Refuses what a format cannot run here, with the reason.
pub fn check_format(new: &NewTournament) -> Result<(), ApiError> {
    let bad = |m: String| Err(ApiError::BadRequest(m));
    if new.format == "double_elimination" && new.players_per_game != 2 {
        return bad(format!(
            "players_per_game: a double knockout is played two at a table here, not {}",
            new.players_per_game
        ));
    }
    if new.format != "arena" {
        if new.arena_minutes.is_some() {
            return bad("arena_minutes: only an arena has a window of play".into());
        }
        return Ok(());
    }
    let Some(minutes) = new.arena_minutes else {
        return bad(format!(
            "arena_minutes: an arena needs its length, {MIN_MINUTES} to {MAX_MINUTES} minutes"
        ));
    };
    if !(MIN_MINUTES..=MAX_MINUTES).contains(&minutes) {
        return bad(format!("arena_minutes: {MIN_MINUTES} to {MAX_MINUTES}, not {minutes}"));
    }
    let live = super::time_control(&new.time_control)
        .is_some_and(|t| t != crate::setup::TimeControl::None && !t.correspondence());
    if !live {
        return bad("time_control: an arena is played with a live clock".into());
    }
    Ok(())
}

/// Whether a tournament in `state` takes entries now: open ones do, and running Swiss and
/// arenas take late entries (docs/tournaments.md "Late entries").
pub fn late_entry(state: &str, settings: &NewTournament) -> bool {
    state == "running" && matches!(settings.format.as_str(), "swiss" | "arena")
}

/// The arena's window as its page shows it.
#[derive(Debug, Clone, Serialize)]
pub struct Window {
    pub started_ms: i64,
    pub ends_ms: i64,
    /// Left when the page was read (the server's clock; 0 once closed).
    pub ends_in_ms: i64,
}

/// The window of a running or finished arena; None for other formats or before the start.
pub async fn window(app: &AppState, id: i64, settings: &NewTournament) -> Result<Option<Window>, ApiError> {
    let (Some(minutes), "arena") = (settings.arena_minutes, settings.format.as_str()) else {
        return Ok(None);
    };
    let Some(started_ms) = app.store.arena_start_of(id).await? else { return Ok(None) };
    let ends_ms = started_ms + minutes * 60_000;
    Ok(Some(Window { started_ms, ends_ms, ends_in_ms: (ends_ms - app.store.now()).max(0) }))
}

/// One director step of a running arena; false when it is no longer this instance's to run.
pub(super) async fn step(
    app: &AppState,
    id: i64,
    epoch: i64,
    settings: &NewTournament,
    creator: i64,
) -> Result<bool, ApiError> {
    let Some(started_ms) = app.store.arena_started(id, epoch, app.store.now()).await? else {
        return Ok(false);
    };
    let open = app.store.now() < started_ms + settings.arena_minutes.unwrap_or(MIN_MINUTES) * 60_000;
    let Some(creator) = app.store.user_by_id(creator).await? else {
        return Err(ApiError::Internal(format!("tournament {id}'s creator is gone")));
    };
    let entrants = app.store.entrants(id).await?;
    let (rows, mut rounds) = super::director::history(app, id).await?;
    let mut busy: HashSet<pairing::EntrantId> = HashSet::new();
    for (row, round) in rows.iter().zip(rounds.iter_mut()).filter(|(row, _)| row.finished_ms.is_none()) {
        let updated = super::rounds::update_round(app, id, epoch, settings, &creator, row, round, &entrants);
        if updated.await?.is_none() {
            return Ok(false);
        }
        for (table, result) in round.tables.iter().zip(&round.results) {
            if result.is_none() {
                busy.extend(&table.seats);
            }
        }
    }
    let games: usize = rounds.iter().map(|r| r.tables.len()).sum();
    if !open || games >= MAX_GAMES {
        if busy.is_empty() {
            app.store.set_tournament_state(id, epoch, "finished").await?;
            return Ok(false);
        }
        return Ok(true);
    }
    let spec = super::director::spec_of(settings)?;
    let lib = super::director::lib_entrants(settings, &entrants);
    let present = app.store.entrants_seen_since(id, now_ms() - PRESENT_MS).await?;
    let waiting: Vec<pairing::EntrantId> = entrants
        .iter()
        .filter(|e| e.withdrawn_after.is_none())
        .filter(|e| e.bot_level.is_some() || e.user_id.is_some_and(|u| present.contains(&u)))
        .map(|e| e.id as pairing::EntrantId)
        .filter(|e| !busy.contains(e))
        .collect();
    let waiting = longest_waiting(waiting, &rounds, spec.players());
    let tables = pairing::arena_tables(&spec, &waiting, &lib, &rounds);
    if tables.is_empty() {
        return Ok(true);
    }
    let number = rounds.len() as u32 + 1;
    let round = pairing::Round { number, results: vec![None; tables.len()], tables, ..Default::default() };
    let text = serde_json::to_string(&round).map_err(|e| ApiError::Internal(e.to_string()))?;
    let row = RoundRow { number: i64::from(number), round: text, started_ms: now_ms(), finished_ms: None };
    if !app.store.put_round(id, epoch, &row).await? {
        return Ok(false);
    }
    // Their games at once rather than at the next look.
    let mut round = round;
    let updated =
        super::rounds::update_round(app, id, epoch, settings, &creator, &row, &mut round, &entrants);
    Ok(updated.await?.is_some())
}

/// The waiting entrants who fill whole tables, those waiting longest first (never played, then
/// the earliest last game): the library leaves out the lowest placed of a remainder, and two
/// players coming free together would otherwise keep a newcomer with no points waiting forever.
fn longest_waiting(
    mut waiting: Vec<pairing::EntrantId>,
    rounds: &[pairing::Round],
    players: usize,
) -> Vec<pairing::EntrantId> {
    let last_played = |id: pairing::EntrantId| {
        rounds.iter().rev().find(|r| r.tables.iter().any(|t| t.seats.contains(&id))).map_or(0, |r| r.number)
    };
    waiting.sort_by_key(|&id| (last_played(id), id));
    waiting.truncate(waiting.len() - waiting.len() % players.max(1));
    waiting
}
