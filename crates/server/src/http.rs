//! HTTP handlers: accounts, the lobby, records. Handlers check input and call the store or the
//! game's table; game logic lives in the engine and `table.rs`.

use std::net::SocketAddr;

use axum::{
    Json,
    extract::{ConnectInfo, Path, Query, State},
    http::{HeaderMap, HeaderValue, StatusCode, header},
    response::{IntoResponse, Response},
};
use gobeyond_rules::record::{Record, RecordedAction};
use serde::Deserialize;

use crate::{
    AppState,
    auth::{self, Https, MaybeSession, Session},
    error::ApiError,
    limit::ClientIp,
    protocol::{
        BotCreated, BotList, ChatHistory, ChatLine, GameCreated, GameInfo, GameSummary, Health, Joined,
        MeBody, OkBody, SummarySeat, UserBody,
    },
    setup::{GameBrief, GameSetup, NewGame, SeatChoice},
    store::{
        GameRow, NewSeat, Quota,
        chat::{Channel, ChatRight},
    },
    table::Command,
};

/// Open or live games one user may have created at a time.
pub const MAX_ACTIVE_GAMES: i64 = 20;
/// Of those, games of bots only (they search on every move, for as long as they are watched).
pub const MAX_BOT_ONLY_GAMES: i64 = 3;

pub async fn health(State(app): State<AppState>) -> Json<Health> {
    Json(Health {
        ok: true,
        database: format!("{:?}", app.store.backend).to_lowercase(),
        games_loaded: app.hub.loaded(),
        rss_bytes: rss_bytes(),
        bot_searches: app.hub.bot_searches(),
        instance: app.hub.cluster().map(|c| c.id.to_string()),
        games_owned: app.hub.owned(),
        games_relayed: app.hub.relayed(),
        sockets: app.sockets.open(None),
        connections: app.connections.open(None),
        games_bytes: app.hub.bytes(),
        games_bytes_budget: app.config.limits.games_bytes,
    })
}

/// Resident memory of this process (Linux), for the load test's memory-per-game figure.
fn rss_bytes() -> Option<u64> {
    let statm = std::fs::read_to_string("/proc/self/statm").ok()?;
    let pages: u64 = statm.split_whitespace().nth(1)?.parse().ok()?;
    Some(pages * 4096)
}

fn with_cookie(cookie: String, body: impl serde::Serialize) -> Response {
    let mut r = Json(body).into_response();
    if let Ok(v) = HeaderValue::from_str(&cookie) {
        r.headers_mut().insert(header::SET_COOKIE, v);
    }
    r
}

/// A new session; browser sessions (`cookie`) end after the configured lifetime.
async fn new_session(app: &AppState, user_id: i64, kind: &str) -> Result<String, ApiError> {
    let token = auth::new_token()?;
    let lifetime = app.config.limits.session_lifetime.as_millis() as i64;
    let expires = (kind == "cookie").then(|| crate::store::now_ms() + lifetime);
    app.store.insert_session(&auth::token_hash(&token), user_id, kind, expires).await?;
    Ok(token)
}

/// A browser session and its cookie.
async fn signed_in(
    app: &AppState,
    https: Https,
    user: crate::store::User,
    claimed: bool,
) -> Result<Response, ApiError> {
    let token = new_session(app, user.id, "cookie").await?;
    let cookie = auth::session_cookie(&token, https.0, app.config.limits.session_lifetime);
    Ok(with_cookie(cookie, UserBody { user, claimed_guest: claimed }))
}

/// One click: a guest account and its session.
pub async fn guest(
    State(app): State<AppState>,
    https: Https,
    ClientIp(ip): ClientIp,
) -> Result<Response, ApiError> {
    crate::moderation::count_signup(&app, ip).await?;
    let tag = auth::new_token()?;
    let name =
        format!("guest-{}", tag.chars().filter(char::is_ascii_alphanumeric).take(8).collect::<String>());
    let user = app.store.create_user(&name, "guest", None, None).await?;
    signed_in(&app, https, user, false).await
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Credentials {
    name: String,
    password: String,
}

/// The client's address (behind a trusted proxy, the one it forwarded for).
fn client_ip(app: &AppState, headers: &HeaderMap, peer: SocketAddr) -> std::net::IpAddr {
    crate::limit::forwarded_ip(headers, peer.ip(), &app.config.trusted_proxies)
}

/// A new account; a signed-in guest who registers keeps its games (the guest is claimed).
pub async fn register(
    State(app): State<AppState>,
    https: Https,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    MaybeSession(session): MaybeSession,
    Json(c): Json<Credentials>,
) -> Result<Response, ApiError> {
    auth::check_credentials(&c.name, &c.password)?;
    let hash = auth::hash_password(&app.hashes, c.password).await?;
    let (user, claimed) = match session {
        Some(s) if s.user.kind == "guest" => {
            let user = app.store.register_guest(s.user.id, &c.name, &hash).await?;
            // A new account gets a new token: whoever learnt the guest's cannot follow it in.
            app.store.delete_session(&s.token_hash).await?;
            app.sessions.end(&s.token_hash);
            (user, true)
        }
        _ => {
            crate::moderation::count_signup(&app, Some(client_ip(&app, &headers, peer))).await?;
            (app.store.create_user(&c.name, "registered", Some(&hash), None).await?, false)
        }
    };
    // The address an account was made from is its owner's (see `LoginBackoff`).
    app.logins.succeeded(&auth::name_key(&user.name), client_ip(&app, &headers, peer));
    signed_in(&app, https, user, claimed).await
}

/// Signs in. Failed logins slow down per (account, address) and, far later, per account; a
/// login carrying a session of the account is its owner's and never waits ([`LoginBackoff`]).
///
/// [`LoginBackoff`]: crate::limit::LoginBackoff
pub async fn login(
    State(app): State<AppState>,
    https: Https,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    MaybeSession(session): MaybeSession,
    Json(c): Json<Credentials>,
) -> Result<Response, ApiError> {
    let wrong = || ApiError::Forbidden("wrong name or password".into());
    let account = auth::name_key(&c.name);
    let ip = client_ip(&app, &headers, peer);
    let owner = session.is_some_and(|s| auth::name_key(&s.user.name) == account);
    if let Err(wait) = app.logins.check(&account, ip, owner) {
        let whence = if wait.account_wide { "from many addresses" } else { "from this address" };
        return Err(ApiError::TooMany(format!(
            "too many failed logins for this account {whence}: try again in {} s",
            wait.seconds
        )));
    }
    let user = app.store.user_by_name(&c.name).await?;
    let hash = user.as_ref().and_then(|u| u.password_hash.clone());
    // A missing account costs the same hash as a wrong password.
    if !auth::verify_password(&app.hashes, c.password, hash).await? {
        app.logins.failed(&account, ip);
        return Err(wrong());
    }
    app.logins.succeeded(&account, ip);
    let user = user.ok_or_else(wrong)?;
    // Only the owner, who typed the password, learns the ban and its reason.
    let standing = app.store.standing(user.id).await?;
    if standing.banned {
        let reason = standing.ban_reason.as_deref().unwrap_or("no reason given");
        return Err(ApiError::Forbidden(format!("this account is banned: {reason}")));
    }
    signed_in(&app, https, user, false).await
}

/// Ends the session: its cookie, its row, and its open game sockets.
pub async fn logout(
    State(app): State<AppState>,
    https: Https,
    session: Session,
) -> Result<Response, ApiError> {
    app.store.delete_session(&session.token_hash).await?;
    app.sessions.end(&session.token_hash);
    Ok(with_cookie(auth::clear_cookie(https.0), OkBody { ok: true }))
}

/// `GET /api/me`: who is signed in. A first visit carries no credential at all and is told
/// "nobody" (`{"user": null}`, not an error: browsers log every 401); a credential that no
/// longer signs in is still a 401.
pub async fn me(headers: HeaderMap, MaybeSession(session): MaybeSession) -> Result<Json<MeBody>, ApiError> {
    match session {
        Some(s) => Ok(Json(MeBody { standing: Some((&s.standing).into()), user: Some(s.user) })),
        None if auth::request_token(&headers).is_some() => Err(ApiError::Unauthorized),
        None => Ok(Json(MeBody { user: None, standing: None })),
    }
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewBot {
    name: String,
    /// The token ends after this many days (default: never).
    #[serde(default)]
    expires_days: Option<u32>,
}

/// Bots one registered user may own.
pub const MAX_BOTS_PER_OWNER: i64 = 10;
/// The longest a bot token may be set to last, in days (leave the expiry out for never).
pub const MAX_TOKEN_DAYS: u32 = 3650;

/// A new program token for `bot` in place of all its others (whose sockets close at once).
async fn new_bot_token(
    app: &AppState,
    bot: &crate::store::User,
    days: Option<u32>,
) -> Result<String, ApiError> {
    if let Some(d) = days
        && !(1..=MAX_TOKEN_DAYS).contains(&d)
    {
        return Err(ApiError::BadRequest(format!(
            "expires_days {d}: 1 to {MAX_TOKEN_DAYS} days, or leave it out for a token that does not expire"
        )));
    }
    let expires = days.map(|d| crate::store::now_ms() + i64::from(d) * 24 * 3600 * 1000);
    let token = auth::new_token()?;
    for old in app.store.replace_tokens(bot.id, &auth::token_hash(&token), "api", expires).await? {
        app.sessions.end(&old);
    }
    Ok(token)
}

/// A bot account owned by a registered user; the API token is shown once.
pub async fn create_bot(
    State(app): State<AppState>,
    session: Session,
    Json(b): Json<NewBot>,
) -> Result<Response, ApiError> {
    if session.user.kind != "registered" {
        return Err(ApiError::Forbidden("register an account to own bots".into()));
    }
    crate::moderation::may_play(&session.standing)?;
    auth::check_name(&b.name)?;
    let user = app.store.create_bot(session.user.id, &b.name, MAX_BOTS_PER_OWNER).await?;
    let token = new_bot_token(&app, &user, b.expires_days).await?;
    Ok((StatusCode::CREATED, Json(BotCreated { user, token })).into_response())
}

#[derive(Debug, Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct TokenBody {
    #[serde(default)]
    expires_days: Option<u32>,
}

/// `POST /api/bots/{name}/token`: a new token for one of your bots; its old token stops
/// working at once and its sockets close (a leaked token is no longer for ever).
pub async fn rotate_bot_token(
    State(app): State<AppState>,
    session: Session,
    Path(name): Path<String>,
    body: Option<Json<TokenBody>>,
) -> Result<Json<BotCreated>, ApiError> {
    crate::moderation::may_play(&session.standing)?;
    let Some(bot) = app.store.bot_of(session.user.id, &name).await? else {
        return Err(ApiError::NotFound(format!("you have no bot called {name:?}")));
    };
    let TokenBody { expires_days } = body.map(|Json(b)| b).unwrap_or_default();
    let token = new_bot_token(&app, &bot, expires_days).await?;
    Ok(Json(BotCreated { user: bot, token }))
}

pub async fn my_bots(State(app): State<AppState>, session: Session) -> Result<Json<BotList>, ApiError> {
    Ok(Json(BotList { bots: app.store.bots_of(session.user.id).await? }))
}

pub async fn create_game(
    State(app): State<AppState>,
    session: Session,
    ClientIp(address): ClientIp,
    body: Result<Json<NewGame>, axum::extract::rejection::JsonRejection>,
) -> Result<Response, ApiError> {
    let Json(new) = body.map_err(|e| ApiError::BadRequest(e.body_text()))?;
    app.account_rates.check(session.user.id, crate::moderation::Doing::CreateGame)?;
    let created = create(&app, &session, address, new, Vec::new()).await?;
    Ok((StatusCode::CREATED, Json(created)).into_response())
}

/// Checks and stores a new game, and starts its table. `reserved`: per seat, the account it is
/// kept for (a rematch's), else empty.
pub(crate) async fn create(
    app: &AppState,
    session: &Session,
    address: Option<std::net::IpAddr>,
    new: NewGame,
    reserved: Vec<Option<i64>>,
) -> Result<GameCreated, ApiError> {
    crate::moderation::may_play(&session.standing)?;
    let address = address.map(|a| a.to_string());
    let bots_only =
        new.seats.len() >= new.players && new.seats.iter().all(|s| matches!(s, SeatChoice::Bot { .. }));
    // Counted again where it cannot race (the store); this early look spares the map's building
    // for whoever is surely over the cap (a game against bots without a clock is not counted).
    let maybe_casual = matches!(new.time, crate::setup::TimeChoice::Control(crate::setup::TimeControl::None))
        && new.seats.iter().all(|s| matches!(s, SeatChoice::Me | SeatChoice::Bot { .. }));
    if !maybe_casual && app.store.active_games_created(session.user.id).await? >= MAX_ACTIVE_GAMES {
        return Err(ApiError::TooMany(format!("at most {MAX_ACTIVE_GAMES} open or live games per player")));
    }
    let public = new.public;
    if !new.rigged.is_empty() && !app.config.test_hooks {
        return Err(ApiError::BadRequest(
            "rigged: fixed chance outcomes are a test hook this server does not offer".into(),
        ));
    }
    if new.rated
        && session.user.kind == "guest"
        && (new.seats.is_empty() || new.seats.contains(&SeatChoice::Me))
    {
        return Err(ApiError::Forbidden("rated games need an account: register to play one".into()));
    }
    // Building the game (map generation, rule checks) is CPU work: keep it off the async workers.
    let mut setup = tokio::task::spawn_blocking(move || new.validate())
        .await
        .map_err(|e| ApiError::Internal(e.to_string()))??;
    setup.reserved = reserved;
    let quota = Quota {
        user: session.user.id,
        per_user: MAX_ACTIVE_GAMES,
        address: address.as_deref(),
        per_address: app.config.limits.games_per_address,
        bots_only,
        per_user_bots_only: MAX_BOT_ONLY_GAMES,
        casual: setup.casual(),
    };
    let invite =
        if setup.seats.contains(&SeatChoice::Invite) || !public { Some(auth::new_token()?) } else { None };
    let seats = new_seats(&setup.seats, Some(session.user.id));
    let (_, info) = store_game(app, &quota, &setup, public, invite.as_deref(), &seats).await?;
    Ok(GameCreated { game: info, invite })
}

/// The seat rows of a new game: `me` in the seat marked `Me`, bots in theirs, invited seats kept.
pub(crate) fn new_seats(seats: &[SeatChoice], me: Option<i64>) -> Vec<NewSeat> {
    seats
        .iter()
        .map(|s| NewSeat {
            user_id: if *s == SeatChoice::Me { me } else { None },
            bot_level: match s {
                SeatChoice::Bot { level } => Some(*level),
                _ => None,
            },
            invite_only: *s == SeatChoice::Invite,
        })
        .collect()
}

/// Stores a checked game with its seats, brief and list keys, gives it to an instance when there
/// are several, and loads its table, which starts the game at once when no seat is open (its
/// creator and bots, or players the server seats next). Its id and what the lobby shows of it.
pub(crate) async fn store_game(
    app: &AppState,
    quota: &Quota<'_>,
    setup: &GameSetup,
    public: bool,
    invite: Option<&str>,
    seats: &[NewSeat],
) -> Result<(i64, GameInfo), ApiError> {
    let text = serde_json::to_string(setup).map_err(|e| ApiError::Internal(e.to_string()))?;
    let id = app.store.create_game(quota, &text, public, invite, seats).await?;
    let brief = serde_json::to_string(&setup.brief()).map_err(|e| ApiError::Internal(e.to_string()))?;
    app.store.set_brief(id, &brief).await?;
    app.store.set_list_keys(id, &crate::store::ListKeys::of(setup)).await?;
    // With several instances, the game goes to the one running the fewest (it claims the lease
    // when first asked; this instance relays).
    if let Some(cluster) = app.hub.cluster()
        && let Err(e) = app.store.assign_lease(id, cluster.ttl_ms()).await
    {
        tracing::warn!(game = id, error = %e, "could not give the new game to an instance");
    }
    let info = app.hub.ask(id, |reply| Command::Info { reply }).await?;
    Ok((id, info))
}

pub(crate) struct Summarized {
    pub(crate) summary: GameSummary,
    pub(crate) status: String,
    /// Has a free seat a stranger may take.
    pub(crate) joinable: bool,
}

/// A game as lobby lists and profiles show it.
pub(crate) async fn summarize(app: &AppState, row: GameRow) -> Result<Summarized, ApiError> {
    let brief = match row.brief.as_deref().map(serde_json::from_str::<GameBrief>) {
        Some(Ok(brief)) => Some(brief),
        // A game made before briefs: made once from its settings and kept.
        _ => {
            let brief = serde_json::from_str::<GameSetup>(&row.setup).ok().map(|s| s.brief());
            if let Some(text) = brief.as_ref().and_then(|b| serde_json::to_string(b).ok()) {
                app.store.set_brief(row.id, &text).await?;
            }
            brief
        }
    };
    let system = brief.as_ref().map_or("", |b| b.system.as_str());
    let seats = app.store.seats_rated(row.id, system).await?;
    let joinable = seats.iter().map(|r| &r.seat).any(|s| {
        s.user_id.is_none()
            && s.bot_level.is_none()
            && !brief.as_ref().is_some_and(|b| b.kept_seats.contains(&s.seat))
    });
    let summary = GameSummary {
        id: row.id,
        status: row.status.clone(),
        rules: brief.as_ref().map(|b| b.system.clone()),
        players: brief.as_ref().map_or(seats.len(), |b| b.players),
        seats: seats
            .iter()
            .map(|r| SummarySeat {
                seat: r.seat.seat,
                user: r.seat.user_name.clone(),
                bot_level: r.seat.bot_level,
                // Games whose settings cannot be read have no rule system to rate in.
                rating: r.rating.clone().filter(|_| brief.is_some()),
            })
            .collect(),
        created_ms: row.created_ms,
        result_text: result_notation(brief.as_ref(), row.result.as_deref()),
        last_active_ms: row.last_active_ms,
        watchers: app.hub.watchers(row.id),
        result: row.result.as_deref().and_then(|r| serde_json::from_str::<serde_json::Value>(r).ok()),
        rated: brief.as_ref().is_some_and(|b| b.rated),
        time: brief.as_ref().and_then(|b| b.time),
        map: brief.map(|b| b.map),
    };
    Ok(Summarized { summary, status: row.status, joinable })
}

/// A stored result in its system's notation (classic Go's `W+8.5`), if the system has one.
fn result_notation(brief: Option<&GameBrief>, result: Option<&str>) -> Option<String> {
    let brief = brief?;
    let outcome: gobeyond_rules::Outcome = serde_json::from_str(result?).ok()?;
    gobeyond_rules::SystemInfo::get(&brief.system)?.result_notation(&outcome, brief.players)
}

/// Game `id` if the request may see it: public games for everybody; a private game for its
/// creator, players and admitted spectators, or with its invite code (which admits a
/// signed-in user for good). Others are told it does not exist (ids are sequential: a
/// "forbidden" would confirm that a private game is there).
pub(crate) async fn visible(
    app: &AppState,
    id: i64,
    session: Option<&Session>,
    invite: Option<&str>,
) -> Result<GameRow, ApiError> {
    let missing = || {
        ApiError::NotFound(format!(
            "there is no game {id} (or it is private: ask its players for the invite link)"
        ))
    };
    let row = app.store.game(id).await?.ok_or_else(missing)?;
    if row.public {
        return Ok(row);
    }
    if let Some(s) = session
        && app.store.takes_part(id, s.user.id).await?
    {
        return Ok(row);
    }
    let invited = matches!((invite, row.invite.as_deref()), (Some(a), Some(b)) if auth::same_secret(a, b));
    if !invited {
        return Err(missing());
    }
    if let Some(s) = session {
        app.store.admit(id, s.user.id).await?;
    }
    Ok(row)
}

/// A game the request may read ([`visible`]): the id from the path, the session if there is
/// one, `invite` from the query string. Every read of a game goes through it.
#[derive(Debug)]
pub struct Readable(pub GameRow);

impl axum::extract::FromRequestParts<AppState> for Readable {
    type Rejection = ApiError;

    async fn from_request_parts(
        parts: &mut axum::http::request::Parts,
        app: &AppState,
    ) -> Result<Self, Self::Rejection> {
        #[derive(Deserialize)]
        struct Invite {
            invite: Option<String>,
        }
        let Path(id) = Path::<i64>::from_request_parts(parts, app)
            .await
            .map_err(|e| ApiError::BadRequest(e.body_text()))?;
        let MaybeSession(session) = MaybeSession::from_request_parts(parts, app).await?;
        let invite = Query::<Invite>::try_from_uri(&parts.uri).ok().and_then(|Query(q)| q.invite);
        Ok(Readable(visible(app, id, session.as_ref(), invite.as_deref()).await?))
    }
}

pub async fn game_info(
    State(app): State<AppState>,
    Readable(row): Readable,
) -> Result<Json<GameInfo>, ApiError> {
    let mut info = app.hub.info(row.id).await?;
    info.event = app.store.game_event(row.id).await?;
    Ok(Json(info))
}

/// `GET /api/games/{id}/invite`: the invite link's code, for the game's creator only (to share
/// it again after the page that created the game is gone).
pub async fn invite(
    State(app): State<AppState>,
    session: Session,
    Path(id): Path<i64>,
) -> Result<Json<crate::protocol::InviteBody>, ApiError> {
    let row = visible(&app, id, Some(&session), None).await?;
    if row.creator != session.user.id {
        return Err(ApiError::Forbidden("only the game's creator may share its invitation".into()));
    }
    Ok(Json(crate::protocol::InviteBody { invite: row.invite }))
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AdmitBody {
    invite: String,
}

/// `POST /api/games/{id}/admit`: a spectator with a private game's invite link may from now on
/// read it and chat in it.
pub async fn admit(
    State(app): State<AppState>,
    session: Session,
    Path(id): Path<i64>,
    Json(b): Json<AdmitBody>,
) -> Result<Json<OkBody>, ApiError> {
    visible(&app, id, Some(&session), Some(&b.invite)).await?;
    Ok(Json(OkBody { ok: true }))
}

#[derive(Debug, Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct JoinBody {
    #[serde(default)]
    seat: Option<usize>,
    #[serde(default)]
    invite: Option<String>,
}

pub async fn join(
    State(app): State<AppState>,
    session: Session,
    Path(id): Path<i64>,
    body: Option<Json<JoinBody>>,
) -> Result<Json<Joined>, ApiError> {
    let JoinBody { seat, invite } = body.map(|Json(b)| b).unwrap_or_default();
    crate::moderation::may_play(&session.standing)?;
    // A private game is not there for whoever may not read it (ids are sequential).
    visible(&app, id, Some(&session), invite.as_deref()).await?;
    if app.store.blocked_in_game(id, session.user.id).await? {
        return Err(ApiError::Forbidden("a player of this game has blocked you: you cannot join it".into()));
    }
    let user = session.user;
    let seat = app.hub.ask(id, |reply| Command::Join { user, seat, invite, reply }).await??;
    Ok(Json(Joined { seat, game: app.hub.ask(id, |reply| Command::Info { reply }).await? }))
}

pub async fn leave(
    State(app): State<AppState>,
    session: Session,
    Path(id): Path<i64>,
) -> Result<Json<OkBody>, ApiError> {
    visible(&app, id, Some(&session), None).await?;
    let user = session.user.id;
    app.hub.ask(id, |reply| Command::Leave { user, reply }).await??;
    Ok(Json(OkBody { ok: true }))
}

/// `POST /api/games/{id}/abandon`: the only person in a live game against bots ends it, with
/// no result (from My games: a forgotten game against the computer need not be played out).
pub async fn abandon(
    State(app): State<AppState>,
    session: Session,
    Path(id): Path<i64>,
) -> Result<Json<OkBody>, ApiError> {
    visible(&app, id, Some(&session), None).await?;
    let user = Some(session.user.id);
    if !app.hub.ask(id, |reply| Command::Abandon { seq: None, user, reply }).await?? {
        return Err(ApiError::Conflict("the game is not being played".into()));
    }
    Ok(Json(OkBody { ok: true }))
}

/// `POST /api/games/{id}/undo`: ask to take back your last move.
pub async fn undo(
    State(app): State<AppState>,
    session: Session,
    Path(id): Path<i64>,
) -> Result<Json<OkBody>, ApiError> {
    crate::moderation::may_play(&session.standing)?;
    visible(&app, id, Some(&session), None).await?;
    let user = session.user.id;
    app.hub.ask(id, |reply| Command::Undo { user, reply }).await??;
    Ok(Json(OkBody { ok: true }))
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UndoAnswerBody {
    accept: bool,
}

/// `POST /api/games/{id}/undo/answer` `{"accept": true}`: answer another player's request.
pub async fn undo_answer(
    State(app): State<AppState>,
    session: Session,
    Path(id): Path<i64>,
    body: Result<Json<UndoAnswerBody>, axum::extract::rejection::JsonRejection>,
) -> Result<Json<OkBody>, ApiError> {
    let Json(UndoAnswerBody { accept }) = body.map_err(|e| ApiError::BadRequest(e.body_text()))?;
    visible(&app, id, Some(&session), None).await?;
    let user = session.user.id;
    app.hub.ask(id, |reply| Command::UndoAnswer { user, accept, reply }).await??;
    Ok(Json(OkBody { ok: true }))
}

/// The game's setup, as stored when it was created.
pub(crate) fn setup_of(row: &GameRow) -> Result<GameSetup, ApiError> {
    serde_json::from_str(&row.setup).map_err(|e| ApiError::Internal(format!("game {}: {e}", row.id)))
}

/// The game as a record (the same JSON `gobeyond replay` reads), with every action so far.
pub(crate) async fn record_of(app: &AppState, row: &GameRow) -> Result<Record, ApiError> {
    let id = row.id;
    let setup = setup_of(row)?;
    let names: Vec<String> = app.store.seats(id).await?.iter().map(crate::table::seat_name).collect();
    // A record holds every hand and draw: of a game with hidden cards, only once it is over.
    if row.status != "finished" && setup.new_game().is_ok_and(|g| g.hidden_information()) {
        return Err(ApiError::Conflict(
            "this game hides cards: its record (and stepping through it) is available when it ends".into(),
        ));
    }
    let mut record = setup.record(&names);
    // SGF's DT: the day the game was created, in UTC.
    record.date = Some(crate::dates::utc_date(row.created_ms));
    record.event = app.store.game_event(id).await?.map(Into::into);
    let mut log = Vec::new();
    for (seq, text, at_ms) in app.store.timed_actions(id, 0).await? {
        let a: RecordedAction = serde_json::from_str(&text).map_err(|e| ApiError::Internal(e.to_string()))?;
        log.push((seq, RecordedAction { at_ms: Some(at_ms), ..a }));
    }
    // Moves taken back by agreement are not part of the game.
    record.actions = crate::table::effective(log).into_iter().map(|(_, a)| a).collect();
    Ok(record)
}

pub async fn record(State(app): State<AppState>, Readable(row): Readable) -> Result<Response, ApiError> {
    // With its review tree (record version 2).
    let record = crate::review_tree::with_tree(&app, &row, record_of(&app, &row).await?).await?;
    let mut headers = HeaderMap::new();
    headers.insert(header::CONTENT_TYPE, HeaderValue::from_static("application/json"));
    Ok((headers, record.to_json()).into_response())
}

pub async fn sgf_export(State(app): State<AppState>, Readable(row): Readable) -> Result<Response, ApiError> {
    // With the review tree as branches and C[] comments (docs/formats.md, "SGF").
    let record = crate::review_tree::with_tree(&app, &row, record_of(&app, &row).await?).await?;
    // A replay is CPU work: on the bounded view workers.
    let text = app
        .views
        .run(move || {
            let game = record.replay().map_err(|e| ApiError::Internal(e.to_string()))?;
            let plain = game.sgf(&record.players, record.date.as_deref()).map_err(ApiError::BadRequest)?;
            // The plain writer knows no event (EV, RO): a tournament game goes the record's way.
            if record.variations.is_empty() && record.comments.is_empty() && record.event.is_none() {
                return Ok(plain);
            }
            gobeyond_rules::sgf::export_record(&record).map_err(|e| ApiError::BadRequest(e.to_string()))
        })
        .await??;
    let mut headers = HeaderMap::new();
    headers.insert(header::CONTENT_TYPE, HeaderValue::from_static("application/x-go-sgf"));
    Ok((headers, text).into_response())
}

pub async fn chat(
    State(app): State<AppState>,
    MaybeSession(session): MaybeSession,
    Readable(row): Readable,
) -> Result<Json<ChatHistory>, ApiError> {
    // The same rule the socket applies to a chat line, so that a page offers no chat box to
    // whoever would be refused.
    let right = match &session {
        Some(s) => app.store.chat_right(row.id, s.user.id, s.user.kind == "guest").await?,
        None => ChatRight::Reads("sign in to chat"),
    };
    // The spectators' lines are hidden from the players (who speak in theirs) while they play.
    let seated = right == ChatRight::Speaks(Channel::Players);
    let with_spectators = !seated || row.status == "finished";
    let mut lines = app.store.chat(row.id, 200, with_spectators).await?;
    // Lines of players the reader blocked are left out (see `social::ChatFilter`).
    if let Some(s) = &session {
        let blocked = app.store.related(crate::store::Relation::Block, s.user.id).await?;
        lines.retain(|l| !blocked.iter().any(|b| l.from.as_deref() == Some(b.name.as_str())));
    }
    let (channel, why_not) = match right {
        ChatRight::Speaks(c) => (Some(c), None),
        ChatRight::Reads(why) => (None, Some(why.to_string())),
    };
    Ok(Json(ChatHistory {
        chat: lines
            .into_iter()
            .map(|l| ChatLine { id: l.id, from: l.from, channel: l.channel, text: l.text, at_ms: l.at_ms })
            .collect(),
        may_chat: channel.is_some(),
        channel,
        why_not,
    }))
}
