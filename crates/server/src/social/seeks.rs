//! Automatch: "play someone now". A seek names the rules, a map shape with a size range, a
//! clock kind, the opponents' rating range and the number of players (2–8); it lives in the
//! database, so seekers on every instance meet. Each poll of a waiting seek tries to pair it:
//! the other seekers closest in rating, longest waiting first, whose wishes overlap with it and
//! with each other; the range of ratings accepted widens as a seeker waits. The seeks of one
//! table are claimed in one transaction (no seeker lands in two games), then the game is made
//! with every seeker seated. After a wait the seeker chooses, bots fill the seats nobody came
//! for (with the seekers found who also accept bots). A seek nobody polls for
//! [`STALE_MS`] is dropped: its seeker left.

use axum::{Json, extract::State, http::StatusCode};
use gobeyond_rules::registry;
use serde::{Deserialize, Serialize};

use super::{
    seat::game_for,
    touch,
    wire::{SeekStatus, SeekView},
};
use crate::{
    AppState,
    auth::Session,
    error::ApiError,
    protocol::OkBody,
    setup::{MapChoice, NewGame, RulesChoice, SeatChoice, TimeControl},
    store::{SeekRow, SeekSpec, now_ms},
};

/// A seek not polled for this long is dropped (clients poll every few seconds).
pub const STALE_MS: i64 = 30_000;
/// Map shapes whose size is one number (`square:9`, `hex:5`).
pub const SHAPES: [&str; 6] = ["square", "hex", "honeycomb", "tri", "wavy", "torus"];
pub const MAX_SIZE: u32 = 25;
/// The opponents' ratings accepted when the seek names none: the seeker's own, give or take.
const DEFAULT_RATING_SPREAD: i64 = 200;
/// How fast the accepted range widens while a seeker waits, and how far at most.
const WIDEN_PER_SECOND: i64 = 10;
const MAX_WIDEN: i64 = 1500;
/// Seekers looked at per pairing.
const CANDIDATES: i64 = 200;

fn two() -> usize {
    2
}

/// The body of `POST /api/seek`.
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct NewSeek {
    /// A rule system or preset name (`gobeyond`, `chinese`, ...).
    pub rules: String,
    pub shape: String,
    pub min_size: u32,
    pub max_size: u32,
    #[serde(default)]
    pub time: TimeControl,
    #[serde(default = "two")]
    pub players: usize,
    #[serde(default)]
    pub min_rating: Option<i64>,
    #[serde(default)]
    pub max_rating: Option<i64>,
    /// Bots take the seats still empty after this many seconds (5 to 600); none: wait for people.
    #[serde(default)]
    pub bots_after_seconds: Option<u32>,
    /// The bots' level, 1–10 (default 3).
    #[serde(default)]
    pub bot_level: Option<u8>,
}

impl NewSeek {
    /// The game this seek would play at `size`, with the seats given.
    fn game(&self, size: i64, seats: Vec<SeatChoice>) -> NewGame {
        NewGame {
            rules: RulesChoice::Name(self.rules.clone()),
            map: MapChoice::Spec(format!("{}:{size}", self.shape)),
            players: self.players,
            time: crate::setup::TimeChoice::Control(self.time),
            seats,
            public: true,
            rated: false,
            rigged: Vec::new(),
        }
    }

    /// Checks everything but the rules and map together (see [`check`]).
    fn check_fields(&self) -> Result<(), ApiError> {
        let bad = |m: String| Err(ApiError::BadRequest(m));
        if !(2..=8).contains(&self.players) {
            return bad(format!("players must be 2 to 8, not {}", self.players));
        }
        if !SHAPES.contains(&self.shape.as_str()) {
            return bad(format!("shape {:?}: use one of {}", self.shape, SHAPES.join(", ")));
        }
        if self.min_size > self.max_size {
            return bad(format!("board sizes {} to {}: the range is empty", self.min_size, self.max_size));
        }
        if !(2..=MAX_SIZE).contains(&self.min_size) || self.max_size > MAX_SIZE {
            return bad(format!("board sizes are 2 to {MAX_SIZE}"));
        }
        if let (Some(lo), Some(hi)) = (self.min_rating, self.max_rating)
            && lo > hi
        {
            return bad(format!("ratings {lo} to {hi}: the range is empty"));
        }
        if let Some(s) = self.bots_after_seconds
            && !(5..=600).contains(&s)
        {
            return bad(format!("bots_after_seconds {s}: 5 to 600, or leave it out to wait for people"));
        }
        if let Some(l) = self.bot_level
            && !(1..=10).contains(&l)
        {
            return bad(format!("bot level {l} is not 1 to 10"));
        }
        Ok(())
    }
}

/// Checks a seek the way creating its game would, at both ends of its size range.
async fn check(seek: &NewSeek) -> Result<String, ApiError> {
    seek.check_fields()?;
    let system = registry::rules_by_name(&seek.rules).map_err(ApiError::BadRequest)?.system;
    for size in [seek.min_size, seek.max_size] {
        let game = seek.game(i64::from(size), vec![SeatChoice::Me]);
        tokio::task::spawn_blocking(move || game.validate())
            .await
            .map_err(|e| ApiError::Internal(e.to_string()))??;
    }
    Ok(system)
}

/// `POST /api/seek`: seek a game (in place of the reader's earlier seek), paired at once if
/// someone fits.
pub async fn seek(
    State(app): State<AppState>,
    session: Session,
    body: Result<Json<NewSeek>, axum::extract::rejection::JsonRejection>,
) -> Result<(StatusCode, Json<SeekStatus>), ApiError> {
    let Json(new) = body.map_err(|e| ApiError::BadRequest(e.body_text()))?;
    crate::moderation::may_play(&session.standing)?;
    let system = check(&new).await?;
    let rating = app
        .store
        .ratings_of(session.user.id)
        .await?
        .into_iter()
        .find(|(s, players, _)| *s == system && *players == new.players as i64)
        .map_or(crate::rating::Rating::default().value(), |(_, _, r)| r.value());
    let rating = i64::from(rating);
    let spec = SeekSpec {
        spec: serde_json::to_string(&new).map_err(|e| ApiError::Internal(e.to_string()))?,
        system: new.rules.clone(),
        shape: new.shape.clone(),
        min_size: i64::from(new.min_size),
        max_size: i64::from(new.max_size),
        clock_kind: clock_kind(&new.time).into(),
        players: new.players as i64,
        rating,
        min_rating: new.min_rating.unwrap_or(rating - DEFAULT_RATING_SPREAD),
        max_rating: new.max_rating.unwrap_or(rating + DEFAULT_RATING_SPREAD),
    };
    app.store.put_seek(session.user.id, &spec).await?;
    Ok((StatusCode::CREATED, Json(status(&app, session.user.id).await?)))
}

/// `GET /api/seek`: the reader's seek (polling keeps it alive and tries to pair it).
pub async fn poll(State(app): State<AppState>, session: Session) -> Result<Json<SeekStatus>, ApiError> {
    touch(&app, session.user.id).await;
    Ok(Json(status(&app, session.user.id).await?))
}

/// `DELETE /api/seek`: stop seeking.
pub async fn withdraw(State(app): State<AppState>, session: Session) -> Result<Json<OkBody>, ApiError> {
    if !app.store.delete_seek(session.user.id).await? {
        return Err(ApiError::Conflict("your game is being made: it is too late to stop".into()));
    }
    Ok(Json(OkBody { ok: true }))
}

fn clock_kind(t: &TimeControl) -> &'static str {
    match t {
        TimeControl::None => "none",
        TimeControl::Absolute { .. } => "absolute",
        TimeControl::Fischer { .. } => "fischer",
        TimeControl::ByoYomi { .. } => "byo_yomi",
        TimeControl::Canadian { .. } => "canadian",
        TimeControl::Simple { .. } => "simple",
        TimeControl::Correspondence { .. } => "correspondence",
    }
}

async fn status(app: &AppState, user: i64) -> Result<SeekStatus, ApiError> {
    let now = now_ms();
    app.store.prune_seeks(now - STALE_MS, now - 3_600_000, now - 60_000).await?;
    let Some(mut row) = app.store.poll_seek(user).await? else { return Ok(SeekStatus { seek: None }) };
    let mut others = 0;
    if row.state == "waiting" {
        let candidates = app.store.seek_candidates(row.id, now - STALE_MS, CANDIDATES).await?;
        others = candidates.len();
        if pair(app, &row, candidates).await?
            && let Some(fresh) = app.store.poll_seek(user).await?
        {
            row = fresh;
        }
    }
    let (lo, hi) = accepts(&row, now);
    Ok(SeekStatus {
        seek: Some(SeekView {
            state: if row.state == "claimed" { "pairing".into() } else { row.state.clone() },
            game: row.game_id,
            waited_ms: now - row.created_ms,
            rules: row.kind.system.clone(),
            shape: row.kind.shape.clone(),
            min_size: row.kind.min_size,
            max_size: row.kind.max_size,
            players: row.kind.players,
            rating: row.kind.rating,
            accepts: [lo, hi],
            others,
        }),
    })
}

/// The opponents' ratings `s` accepts at `now`: its range, widened with its wait.
fn accepts(s: &SeekRow, now: i64) -> (i64, i64) {
    let widen = ((now - s.created_ms).max(0) / 1000 * WIDEN_PER_SECOND).min(MAX_WIDEN);
    (s.kind.min_rating - widen, s.kind.max_rating + widen)
}

/// Whether `a` and `b` accept each other's ratings at `now`.
fn suit(a: &SeekRow, b: &SeekRow, now: i64) -> bool {
    let ((alo, ahi), (blo, bhi)) = (accepts(a, now), accepts(b, now));
    (alo..=ahi).contains(&b.kind.rating) && (blo..=bhi).contains(&a.kind.rating)
}

fn spec_of(s: &SeekRow) -> Result<NewSeek, ApiError> {
    serde_json::from_str(&s.kind.spec).map_err(|e| ApiError::Internal(format!("seek {}: {e}", s.id)))
}

/// Tries to make `me`'s table from `candidates`; true when a game was made.
async fn pair(app: &AppState, me: &SeekRow, mut candidates: Vec<SeekRow>) -> Result<bool, ApiError> {
    let now = now_ms();
    let mine = spec_of(me)?;
    let blocks = app.store.blocks_around(me.user_id).await?;
    let bots_due = mine.bots_after_seconds.is_some_and(|s| now - me.created_ms >= i64::from(s) * 1000);
    // Closest in rating first, less so the longer they have waited.
    candidates.sort_by_key(|c| {
        (c.kind.rating - me.kind.rating).abs() - (now - c.created_ms) / 1000 * WIDEN_PER_SECOND
    });
    let need = mine.players - 1;
    let mut table: Vec<SeekRow> = Vec::new();
    for c in candidates {
        if table.len() == need {
            break;
        }
        let wants_bots = spec_of(&c).is_ok_and(|s| s.bots_after_seconds.is_some());
        let fits = !blocks.contains(&c.user_id)
            && suit(me, &c, now)
            && table.iter().all(|t| suit(t, &c, now) && t.user_id != c.user_id)
            && sizes(me, &table).0.max(c.kind.min_size) <= sizes(me, &table).1.min(c.kind.max_size);
        // With bots coming, only seekers who accept bots join the table.
        if fits && (!bots_due || wants_bots) {
            table.push(c);
        }
    }
    if table.len() < need && !bots_due {
        return Ok(false);
    }
    let mut ids: Vec<i64> = table.iter().map(|t| t.id).collect();
    ids.push(me.id);
    if !app.store.claim_seeks(&ids).await? {
        return Ok(false);
    }
    match make(app, me, &mine, table).await {
        Ok(game) => {
            app.store.settle_seeks(&ids, Some(game)).await?;
            Ok(true)
        }
        Err(e) => {
            app.store.settle_seeks(&ids, None).await?;
            Err(e)
        }
    }
}

/// The sizes every seeker of `me` and `table` accepts.
fn sizes(me: &SeekRow, table: &[SeekRow]) -> (i64, i64) {
    table.iter().fold((me.kind.min_size, me.kind.max_size), |(lo, hi), t| {
        (lo.max(t.kind.min_size), hi.min(t.kind.max_size))
    })
}

/// The game of a claimed table: the longest-waiting seeker creates it with their clock, the
/// smallest size all accept; seats go round in order of arrival from a varying start (so
/// nobody always plays first); bots at `me`'s level fill the rest.
async fn make(app: &AppState, me: &SeekRow, mine: &NewSeek, table: Vec<SeekRow>) -> Result<i64, ApiError> {
    let (size, _) = sizes(me, &table);
    let mut people = table;
    people.push(me.clone());
    people.sort_by_key(|p| p.created_ms);
    let n = mine.players;
    let first = (now_ms() as usize) % n;
    let level = mine.bot_level.unwrap_or(3);
    let mut seats = vec![SeatChoice::Bot { level }; n];
    let mut others = Vec::new();
    let mut creator = None;
    for (i, p) in people.iter().enumerate() {
        let seat = (first + i) % n;
        let user = app
            .store
            .user_by_name(&p.user_name)
            .await?
            .ok_or_else(|| ApiError::Conflict(format!("{} is no longer a player here", p.user_name)))?;
        if i == 0 {
            seats[seat] = SeatChoice::Me;
            creator = Some(user);
        } else {
            seats[seat] = SeatChoice::Open;
            others.push((seat, user));
        }
    }
    let creator = creator.ok_or_else(|| ApiError::Internal("a table without seekers".into()))?;
    let oldest = spec_of(&people[0])?;
    let game = oldest.game(size, seats);
    Ok(game_for(app, &creator, game, &others).await?.game.id)
}
