//! The director: a background task on every instance that runs due tournaments
//! (docs/tournaments.md "Running a tournament on the server", "Restarts and failover"). It
//! claims a tournament with an expiring claim, renewed each look; each claim raises the
//! tournament's epoch and every write of the director checks it, so that after a failover the
//! instance that lost the claim writes nothing. Each look is one step from what is stored: start
//! a tournament whose time came, make the games of the round in play not made yet, read the
//! places of finished games, pair the next round once every table is done, finish.

use std::{collections::HashMap, time::Duration};

use gobeyond_tournament as pairing;
use serde_json::Value;

use super::{Loaded, create::NewTournament, load};
use crate::{
    AppState,
    error::ApiError,
    store::{
        now_ms,
        tournaments::{EntrantRow, RoundRow},
    },
};

/// A claim lasts this long unless renewed: a dead instance's tournaments wait this long.
pub const CLAIM_MS: i64 = 10_000;
/// How often the director looks (and renews its claims).
const POLL: Duration = Duration::from_millis(500);
/// An entrant not seen for this long when a live round starts is absent (a forfeit).
pub(super) const ABSENT_AFTER_MS: i64 = 10 * 60_000;

/// Wakes the directors of this process at once (a tournament was started), rather than at
/// their next look.
static WAKE: tokio::sync::Notify = tokio::sync::Notify::const_new();

pub fn wake(_app: &AppState) {
    WAKE.notify_waiters();
}

/// Test hook (`Config::test_hooks`): the instances (by claim owner) whose director stopped as if
/// the process had died — no more looks or renewals, and its claims are not given up — so a
/// test sees another instance take the tournaments over once the claims expire.
static HALTED: std::sync::Mutex<Vec<String>> = std::sync::Mutex::new(Vec::new());

/// Stops this instance's director as a crash would (test hook); false without test hooks.
pub fn halt_for_tests(app: &AppState) -> bool {
    app.config.test_hooks && HALTED.lock().map(|mut h| h.push(app.reviews.owner.clone())).is_ok()
}

fn halted(owner: &str) -> bool {
    HALTED.lock().is_ok_and(|h| h.iter().any(|o| o == owner))
}

/// Runs until the task is aborted (the server stops; then [`release`]).
pub async fn run(app: AppState) {
    let owner = app.reviews.owner.clone();
    let mut held: HashMap<i64, i64> = HashMap::new();
    loop {
        if halted(&owner) {
            return std::future::pending().await;
        }
        loop {
            match app.store.claim_tournament(&owner, now_ms() + CLAIM_MS, app.store.now()).await {
                Ok(Some((id, epoch))) => {
                    held.insert(id, epoch);
                }
                Ok(None) => break,
                Err(e) => {
                    tracing::warn!(error = %e, "tournaments could not be claimed");
                    break;
                }
            }
        }
        let mut dropped = Vec::new();
        for (&id, &epoch) in &held {
            match look(&app, id, epoch).await {
                Ok(true) => {}
                Ok(false) => dropped.push(id),
                // The database failed: the claim expires unless the next look works.
                Err(e) => tracing::warn!(tournament = id, error = %e, "tournament director step failed"),
            }
        }
        for id in dropped {
            held.remove(&id);
        }
        tokio::select! {
            () = tokio::time::sleep(POLL) => {}
            () = WAKE.notified() => {}
        }
    }
}

/// Gives up this instance's claims (the server stops), so that another takes them at once.
pub async fn release(app: &AppState) {
    if halted(&app.reviews.owner) {
        return;
    }
    if let Err(e) = app.store.release_tournament_claims(&app.reviews.owner).await {
        tracing::warn!(error = %e, "tournament claims could not be given up");
    }
}

/// One step of a claimed tournament; false when it is no longer this instance's to run.
async fn look(app: &AppState, id: i64, epoch: i64) -> Result<bool, ApiError> {
    if !app.store.renew_tournament_claim(id, epoch, now_ms() + CLAIM_MS).await? {
        return Ok(false);
    }
    let Loaded { row, settings } = load(app, id).await?;
    match row.state.as_str() {
        "open" => {
            let next = if row.entrants >= settings.min_entrants { "running" } else { "cancelled" };
            app.store.set_tournament_state(id, epoch, next).await?;
            Ok(next == "running")
        }
        "running" if settings.format == "arena" => {
            super::arena::step(app, id, epoch, &settings, row.creator).await
        }
        "running" => step_running(app, id, epoch, &settings, row.creator).await,
        _ => Ok(false),
    }
}

/// The pairing library's entrants.
pub(super) fn lib_entrants(settings: &NewTournament, entrants: &[EntrantRow]) -> Vec<pairing::Entrant> {
    entrants
        .iter()
        .map(|e| pairing::Entrant {
            id: e.id as pairing::EntrantId,
            rating: e.rating,
            mcmahon_start: super::mcmahon::start(settings, e.rating),
            joined_round: e.joined_round.max(1) as u32,
            withdrawn_after: e.withdrawn_after.map(|r| r.max(0) as u32),
            bye_requested: serde_json::from_str(&e.bye_requested).unwrap_or_default(),
        })
        .collect()
}

pub(super) fn spec_of(settings: &NewTournament) -> Result<pairing::Spec, ApiError> {
    serde_json::from_value(settings.spec())
        .map_err(|e| ApiError::Internal(format!("a tournament's spec does not read: {e}")))
}

/// The rounds stored, as the library's.
pub(super) async fn history(
    app: &AppState,
    id: i64,
) -> Result<(Vec<RoundRow>, Vec<pairing::Round>), ApiError> {
    let rows = app.store.tournament_rounds(id).await?;
    let rounds = rows
        .iter()
        .map(|r| serde_json::from_str(&r.round))
        .collect::<Result<Vec<pairing::Round>, _>>()
        .map_err(|e| ApiError::Internal(format!("a stored round does not read: {e}")))?;
    Ok((rows, rounds))
}

async fn step_running(
    app: &AppState,
    id: i64,
    epoch: i64,
    settings: &NewTournament,
    creator: i64,
) -> Result<bool, ApiError> {
    let entrants = app.store.entrants(id).await?;
    let spec = spec_of(settings)?;
    let lib = lib_entrants(settings, &entrants);
    let (rows, mut rounds) = history(app, id).await?;
    if let (Some(row), Some(round)) = (rows.last(), rounds.last_mut())
        && row.finished_ms.is_none()
    {
        let Some(creator) = app.store.user_by_id(creator).await? else {
            return Err(ApiError::Internal(format!("tournament {id}'s creator is gone")));
        };
        let updated = super::rounds::update_round(app, id, epoch, settings, &creator, row, round, &entrants);
        let Some(done) = updated.await? else { return Ok(false) };
        if !done {
            return Ok(true);
        }
    }
    if pairing::is_finished(&spec, &lib, &rounds) {
        app.store.set_tournament_state(id, epoch, "finished").await?;
        return Ok(false);
    }
    let absent = super::rounds::absentees(app, settings, &entrants, rounds.len() as u32 + 1).await?;
    let present: Vec<pairing::Entrant> = lib.iter().filter(|e| !absent.contains(&e.id)).cloned().collect();
    let mut next = match pairing::pair_round(&spec, &present, &rounds) {
        Ok(next) => next,
        Err(e) => {
            // No more rounds (or none can be paired): the standings so far are final.
            tracing::info!(tournament = id, reason = %e, "tournament finished");
            app.store.set_tournament_state(id, epoch, "finished").await?;
            return Ok(false);
        }
    };
    next.absent = absent;
    super::checks::check_paired(&spec, &lib, &next, &entrants)?;
    let text = serde_json::to_string(&next).map_err(|e| ApiError::Internal(e.to_string()))?;
    let row =
        RoundRow { number: i64::from(next.number), round: text, started_ms: now_ms(), finished_ms: None };
    app.store.put_round(id, epoch, &row).await
}

/// The standings, the crosstable and the rules in plain words.
pub(super) async fn standings_view(
    settings: &NewTournament,
    entrants: &[EntrantRow],
    app: &AppState,
    id: i64,
) -> Result<(Value, Vec<Vec<Value>>, Vec<String>), ApiError> {
    let rules = super::rules_text(settings);
    let spec = spec_of(settings)?;
    let (_, rounds) = history(app, id).await?;
    let lib = lib_entrants(settings, entrants);
    let name = |id: pairing::EntrantId| {
        entrants
            .iter()
            .find(|e| e.id == i64::from(id))
            .map_or_else(|| format!("entrant {id}"), |e| e.name.clone())
    };
    let standings = pairing::standings_named(&spec, &lib, &rounds, &name);
    let games = app.store.tournament_games(id).await?;
    let crosstable = super::rounds::crosstable(&standings, &rounds, &games);
    let mut value = serde_json::to_value(&standings).map_err(|e| ApiError::Internal(e.to_string()))?;
    // With names, so that a page or an export needs no second look-up.
    for row in value["rows"].as_array_mut().into_iter().flatten() {
        let name = entrants.iter().find(|e| Some(e.id) == row["entrant"].as_i64()).map(|e| e.name.clone());
        row["name"] = name.map(Value::String).unwrap_or(Value::Null);
    }
    Ok((value, crosstable, rules))
}
