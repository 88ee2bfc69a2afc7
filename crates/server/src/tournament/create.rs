//! `POST /api/tournaments`: the creation body, checked with a reason for each refusal
//! (docs/api.md "Tournaments", bounds in docs/security.md), and the game each table plays.

use axum::{Json, extract::State, http::StatusCode, response::IntoResponse, response::Response};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::{
    AppState,
    auth::Session,
    error::ApiError,
    setup::{NewGame, SeatChoice},
    store::tournaments::NewEntrant,
};

/// More entrants than this are refused: each round makes a game per table.
pub const MAX_ENTRANTS: i64 = 256;
/// More rounds than this are refused.
pub const MAX_ROUNDS: i64 = 100;
/// Open or running tournaments one account may have created.
pub const MAX_CREATED: i64 = 3;
pub const MAX_NAME_CHARS: usize = 80;
/// Server bots one tournament may hold: their tables play on the bot-only search budget, and
/// a loop of guests must not turn tournaments into an unbounded number of bot games.
pub const MAX_BOTS: usize = 16;
/// Formats by their wire names (the pairing library's `Format`).
pub const FORMATS: &[&str] =
    &["round_robin", "swiss", "mcmahon", "single_elimination", "double_elimination", "arena"];

/// The body of `POST /api/tournaments`, stored as the tournament's settings once checked
/// (numbers read wide, so that a huge one is refused with a reason rather than a parse error).
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct NewTournament {
    pub name: String,
    pub system: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub settings: Option<serde_json::Map<String, Value>>,
    pub map: Value,
    pub players_per_game: i64,
    #[serde(default = "no_clock")]
    pub time_control: Value,
    #[serde(default)]
    pub rated: bool,
    pub format: String,
    #[serde(default)]
    pub rounds: i64,
    #[serde(default)]
    pub start_ms: Option<i64>,
    #[serde(default = "two")]
    pub min_entrants: i64,
    pub max_entrants: i64,
    #[serde(default = "open")]
    pub entry: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min_rating: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_rating: Option<f64>,
    #[serde(default)]
    pub points: Vec<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub advance: Option<i64>,
    /// Arena only: how long the window of play lasts, in minutes, from the start.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub arena_minutes: Option<i64>,
    /// McMahon: the rank ("3d", "5k") at and above which everyone starts at the same score
    /// (default 9d: no bar). See [`super::mcmahon`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mcmahon_bar: Option<String>,
    /// McMahon: the rank at and below which everyone starts at 0 (default 20k).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mcmahon_floor: Option<String>,
    /// Bots entered at creation (stored as entrants, not kept here).
    #[serde(default, skip_serializing)]
    pub bots: Vec<i64>,
    /// Set by the server (a creator's value is replaced): the token an invitation entry is
    /// joined with.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub invite: Option<String>,
    /// Set by the server (a creator's value is replaced): breaks ties in pairing, reproducibly.
    #[serde(default)]
    pub seed: u64,
}

fn no_clock() -> Value {
    json!("none")
}
fn two() -> i64 {
    2
}
fn open() -> String {
    "open".into()
}

impl NewTournament {
    /// The game of one table: `seats` in turn order (a bot seat or a seat kept for a person).
    pub fn game(&self, seats: Vec<SeatChoice>) -> Result<NewGame, ApiError> {
        let rules = match &self.settings {
            Some(settings) => {
                let mut spec = settings.clone();
                spec.insert("system".into(), json!(self.system));
                Value::Object(spec)
            }
            None => json!(self.system),
        };
        let time = match &self.time_control {
            Value::String(s) if s == "none" => json!({"kind": "none"}),
            other => other.clone(),
        };
        let body = json!({
            "rules": rules, "map": self.map, "players": self.players_per_game,
            "time": time, "rated": self.rated, "seats": seats, "public": true,
        });
        serde_json::from_value(body).map_err(|e| ApiError::BadRequest(format!("the game settings: {e}")))
    }

    /// Checks everything but the game settings (see [`check_game`]).
    fn check(&self, now_ms: i64) -> Result<(), ApiError> {
        let bad = |m: String| Err(ApiError::BadRequest(m));
        let chars = self.name.trim().chars().count();
        if chars == 0 || chars > MAX_NAME_CHARS {
            return bad(format!("name: 1 to {MAX_NAME_CHARS} characters, not {chars}"));
        }
        if !FORMATS.contains(&self.format.as_str()) {
            return bad(format!("format: one of {}, not {:?}", FORMATS.join(", "), self.format));
        }
        if !(2..=8).contains(&self.players_per_game) {
            return bad(format!("players_per_game: 2 to 8, not {}", self.players_per_game));
        }
        super::arena::check_format(self)?;
        if matches!(self.format.as_str(), "swiss" | "mcmahon") && self.rounds == 0 {
            return bad(format!("rounds: a {} tournament needs at least 1 round", self.format));
        }
        if !(0..=MAX_ROUNDS).contains(&self.rounds) {
            return bad(format!("rounds: at most {MAX_ROUNDS}, not {}", self.rounds));
        }
        if !(2..=MAX_ENTRANTS).contains(&self.max_entrants) {
            return bad(format!("max_entrants: 2 to {MAX_ENTRANTS}, not {}", self.max_entrants));
        }
        if self.min_entrants < 2 || self.min_entrants > self.max_entrants {
            return bad(format!(
                "min_entrants: from 2 to max_entrants ({}), not {}",
                self.max_entrants, self.min_entrants
            ));
        }
        if self.start_ms.is_some_and(|s| s < now_ms) {
            return bad("start_ms: the start is in the past".into());
        }
        if !matches!(self.entry.as_str(), "open" | "invitation") {
            return bad(format!("entry: \"open\" or \"invitation\", not {:?}", self.entry));
        }
        if let (Some(lo), Some(hi)) = (self.min_rating, self.max_rating)
            && lo > hi
        {
            return bad(format!("min_rating ({lo}) is above max_rating ({hi})"));
        }
        if self.points.len() > self.players_per_game as usize || self.points.iter().any(|p| !p.is_finite()) {
            return bad(format!("points: at most {} finite numbers, one per place", self.players_per_game));
        }
        if let Some(a) = self.advance.filter(|&a| a < 1 || a >= self.players_per_game) {
            return bad(format!(
                "advance: how many of each table go on, 1 to {} (fewer than the players per game), not {a}",
                self.players_per_game - 1
            ));
        }
        super::mcmahon::check(self)?;
        if self.bots.len() as i64 > self.max_entrants || self.bots.len() > MAX_BOTS {
            return bad(format!(
                "bots: at most {MAX_BOTS}, and no more than max_entrants ({})",
                self.max_entrants
            ));
        }
        if let Some(level) = self.bots.iter().find(|l| !(1..=10).contains(*l)) {
            return bad(format!("bots: levels are 1 to 10, not {level}"));
        }
        Ok(())
    }

    /// The pairing library's spec.
    pub fn spec(&self) -> Value {
        json!({
            "format": self.format, "players_per_game": self.players_per_game, "rounds": self.rounds,
            "points": self.points, "advance": self.advance.unwrap_or(1),
            "mcmahon_bar": super::mcmahon::bar_score(self),
            "seed": self.seed,
        })
    }
}

/// Checks the game settings through the rules registry, as game creation does: the system, its
/// settings, the map, the time control, and that the system plays with this many players.
async fn check_game(new: &NewTournament) -> Result<(), ApiError> {
    let game = new.game(vec![SeatChoice::Open; new.players_per_game.clamp(2, 8) as usize])?;
    let setup = tokio::task::spawn_blocking(move || game.validate())
        .await
        .map_err(|e| ApiError::Internal(e.to_string()))??;
    if new.format == "mcmahon" && !setup.rules.info().is_ok_and(|s| s.rated_in_kyu_dan) {
        return Err(ApiError::BadRequest(format!(
            "format: McMahon starts players from their kyu/dan rank, and {} has no ranks: choose classic Go or another format",
            setup.rules.system
        )));
    }
    if setup.time.correspondence() && new.format == "arena" {
        return Err(ApiError::BadRequest("an arena is played with live clocks, not correspondence".into()));
    }
    Ok(())
}

pub async fn create(
    State(app): State<AppState>,
    session: Session,
    body: Result<Json<NewTournament>, axum::extract::rejection::JsonRejection>,
) -> Result<Response, ApiError> {
    let Json(mut new) = body.map_err(|e| ApiError::BadRequest(e.body_text()))?;
    // A tournament's name is public text and its games are play: neither for a muted or
    // suspended account.
    crate::moderation::may_chat(&session.standing)?;
    new.check(app.store.now())?;
    check_game(&new).await?;
    if new.rated && session.user.kind == "guest" {
        return Err(ApiError::Forbidden("rated tournaments need an account: register to make one".into()));
    }
    new.name = new.name.trim().to_string();
    new.invite = if new.entry == "invitation" { Some(crate::auth::new_token()?) } else { None };
    let mut seed = [0u8; 8];
    getrandom::fill(&mut seed).map_err(|e| ApiError::Internal(format!("no randomness: {e}")))?;
    new.seed = u64::from_le_bytes(seed);
    let settings = serde_json::to_string(&new).map_err(|e| ApiError::Internal(e.to_string()))?;
    let id = app
        .store
        .create_tournament(session.user.id, &new.name, &settings, new.start_ms, new.max_entrants, MAX_CREATED)
        .await?;
    for level in &new.bots {
        add_bot(&app, id, *level).await?;
    }
    // Bots may fill it at once (docs/tournaments.md: without a start time it starts when full).
    super::entry::start_when_full(&app, id).await?;
    Ok((StatusCode::CREATED, Json(json!({ "id": id }))).into_response())
}

/// Adds a server bot at `level` to an open tournament.
pub async fn add_bot(app: &AppState, tournament: i64, level: i64) -> Result<i64, ApiError> {
    if !(1..=10).contains(&level) {
        return Err(ApiError::BadRequest(format!("level: 1 to 10, not {level}")));
    }
    let n = app.store.entrants(tournament).await?.iter().filter(|e| e.bot_level.is_some()).count();
    if n >= MAX_BOTS {
        return Err(ApiError::TooMany(format!("at most {MAX_BOTS} bots in one tournament")));
    }
    let name = format!("Bot {} (level {level})", n + 1);
    let entrant = NewEntrant {
        user_id: None,
        bot_level: Some(level),
        name: &name,
        rating: super::bot_rating(level),
        joined_round: 1,
    };
    app.store.add_entrant(tournament, &entrant).await
}
