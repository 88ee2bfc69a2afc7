//! Moderation for a public server (docs/moderation.md): roles, players' reports and the
//! moderators' queue, sanctions (mute, suspend, ban) and other actions, each in the audit log;
//! a player's deletion and export of their own account; limits per account besides those per
//! address.

pub mod account;
pub mod actions;
pub mod reports;
pub mod wire;

use std::net::IpAddr;

use crate::{auth::Session, error::ApiError, limit::Limiter, store::moderation::Standing};

/// The routes of moderation (`DELETE /api/me` is with `GET /api/me` in `crate::routes`).
pub fn routes() -> axum::Router<crate::AppState> {
    use axum::routing::{get, post};
    axum::Router::new()
        .route("/api/reports", post(reports::report))
        .route("/api/moderation/reports", get(reports::queue))
        .route("/api/moderation/reports/{id}/close", post(reports::close))
        .route("/api/moderation/actions", post(actions::act))
        .route("/api/moderation/log", get(actions::log))
        .route("/api/admin/roles", post(actions::grant))
        .route("/api/me/moderation", get(account::own_log))
        .route("/api/me/export", get(account::export))
}

/// Tells the tables of `user`'s games their new name: live ones wherever they run, the others
/// only where loaded (a table loaded later reads the name from the database). Best effort.
pub async fn tell_tables_renamed(app: &crate::AppState, user: i64, name: &str) -> Result<(), ApiError> {
    for (game, live) in app.store.seated_games(user).await? {
        let command = crate::table::Command::Renamed { user, name: name.to_string() };
        if live {
            let _ = app.hub.send(game, command).await;
        } else {
            app.hub.send_if_loaded(game, command).await;
        }
    }
    Ok(())
}

/// The roles, weakest first.
pub const ROLES: [&str; 3] = ["player", "moderator", "admin"];

/// Refuses a suspended (or banned) player what suspension takes away (starting, joining and
/// playing games).
pub fn may_play(standing: &Standing) -> Result<(), ApiError> {
    if standing.banned {
        let reason = standing.ban_reason.as_deref().unwrap_or("no reason given");
        return Err(ApiError::Forbidden(format!("this account is banned: {reason}")));
    }
    match standing.suspended_until_ms {
        Some(until) => Err(ApiError::Forbidden(format!(
            "your account is suspended until {}: {}",
            crate::dates::utc_minute(until),
            standing.suspension_reason.as_deref().unwrap_or("no reason given")
        ))),
        None => Ok(()),
    }
}

/// Refuses a muted (or suspended) player's chat.
pub fn may_chat(standing: &Standing) -> Result<(), ApiError> {
    may_play(standing)?;
    match standing.muted_until_ms {
        Some(until) => Err(ApiError::Forbidden(format!(
            "you are muted until {}: {}",
            crate::dates::utc_minute(until),
            standing.mute_reason.as_deref().unwrap_or("no reason given")
        ))),
        None => Ok(()),
    }
}

/// The session of a moderator or an admin.
pub fn moderator(session: &Session) -> Result<(), ApiError> {
    match session.standing.role.as_str() {
        "moderator" | "admin" => Ok(()),
        _ => Err(ApiError::Forbidden("moderators only".into())),
    }
}

pub fn admin(session: &Session) -> Result<(), ApiError> {
    match session.standing.role.as_str() {
        "admin" => Ok(()),
        _ => Err(ApiError::Forbidden("admins only".into())),
    }
}

/// What an account does that its own limit counts, whatever address it comes from.
#[derive(Debug, Clone, Copy)]
pub enum Doing {
    Chat,
    Challenge,
    CreateGame,
}

/// A token bucket per account and [`Doing`] (per instance: with several instances an account
/// gets each limit once per instance it reaches, at most a few times it).
#[derive(Debug)]
pub struct AccountRates {
    chat: Limiter<i64>,
    challenges: Limiter<i64>,
    games: Limiter<i64>,
}

impl AccountRates {
    pub fn new(limits: &crate::limit::Limits) -> AccountRates {
        let per = |n: u32, seconds: f64| {
            // A burst of a third of the allowance, refilled over the period.
            Limiter::new(f64::from(n) / seconds, (f64::from(n) / 3.0).max(1.0))
        };
        AccountRates {
            chat: per(limits.account_chat_per_minute, 60.0),
            challenges: per(limits.account_challenges_per_hour, 3600.0),
            games: per(limits.account_games_per_hour, 3600.0),
        }
    }

    pub fn check(&self, user: i64, doing: Doing) -> Result<(), ApiError> {
        let (bucket, what) = match doing {
            Doing::Chat => (&self.chat, "chat lines from this account: wait a little"),
            Doing::Challenge => (&self.challenges, "challenges from this account: try again later"),
            Doing::CreateGame => (&self.games, "games created by this account: try again later"),
        };
        if bucket.allow(user) { Ok(()) } else { Err(ApiError::TooMany(what.into())) }
    }
}

/// The key sign-ups are counted under: a SHA-256 of the address (the table keeps no address).
/// IPv6 clients are counted by their /64, which one subscriber usually holds whole.
pub fn address_key(ip: IpAddr) -> String {
    let prefix = match ip {
        IpAddr::V4(v4) => v4.to_string(),
        IpAddr::V6(v6) => {
            let s = v6.segments();
            format!("{:x}:{:x}:{:x}:{:x}::/64", s[0], s[1], s[2], s[3])
        }
    };
    crate::auth::token_hash(&prefix)
}

/// Refuses a new account past the day's limit for its address, else counts it.
pub async fn count_signup(app: &crate::AppState, ip: Option<IpAddr>) -> Result<(), ApiError> {
    let limit = app.config.limits.accounts_per_address_day;
    let Some(ip) = ip.filter(|_| limit > 0) else { return Ok(()) };
    let day_ago = crate::store::now_ms() - 24 * 3600 * 1000;
    if app.store.add_signup(&address_key(ip), day_ago, i64::from(limit)).await? {
        Ok(())
    } else {
        Err(ApiError::TooMany(format!(
            "at most {limit} new accounts a day from one address: sign in to an account made before"
        )))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ipv6_addresses_of_one_subscriber_share_a_key() {
        let a: IpAddr = "2001:db8:1:2::1".parse().unwrap_or(IpAddr::V4([0, 0, 0, 0].into()));
        let b: IpAddr = "2001:db8:1:2:ffff::9".parse().unwrap_or(IpAddr::V4([0, 0, 0, 0].into()));
        let c: IpAddr = "2001:db8:1:3::1".parse().unwrap_or(IpAddr::V4([0, 0, 0, 0].into()));
        assert_eq!(address_key(a), address_key(b));
        assert_ne!(address_key(a), address_key(c));
        assert_ne!(
            address_key("10.0.0.1".parse().unwrap_or(a)),
            address_key("10.0.0.2".parse().unwrap_or(a))
        );
    }

    #[test]
    fn a_suspension_refuses_play_and_chat_with_its_reason() {
        let s = Standing {
            role: "player".into(),
            suspended_until_ms: Some(86_400_000),
            suspension_reason: Some("sandbagging".into()),
            ..Default::default()
        };
        let e = may_play(&s).err().map(|e| e.to_string()).unwrap_or_default();
        assert!(e.contains("suspended until 1970-01-02") && e.contains("sandbagging"), "{e}");
        assert!(may_chat(&s).is_err());
        let muted = Standing { muted_until_ms: Some(1), ..Default::default() };
        assert!(may_play(&muted).is_ok() && may_chat(&muted).is_err());
    }
}
