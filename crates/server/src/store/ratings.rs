//! Ratings in the database: the update when a rated game ends, seats with their players'
//! ratings, and a player's ratings and history. A rating belongs to a pool: one rule system
//! at one number of players (a two-player and a five-player game are different skills).

use sqlx::{Any, Row, Transaction};

use super::{SeatRow, Store, now_ms};
use crate::{
    error::ApiError,
    rating::{self, Rating, RatingView},
};

/// One rated game in a player's history.
#[derive(Debug, Clone)]
pub struct HistoryRow {
    pub game: i64,
    pub system: String,
    pub players: i64,
    pub place: u32,
    pub before: Rating,
    pub after: Rating,
    pub at_ms: i64,
}

/// A seat with its player's rating (accounts only).
#[derive(Debug, Clone)]
pub struct RatedSeat {
    pub seat: SeatRow,
    pub rating: Option<RatingView>,
}

/// Updates the ratings of a rated game's players (user, place) in `system` at their number of
/// players (every seat of a rated game is an account), with their history rows, inside the
/// transaction that marks it finished. Each rating row is compared and set on its game count:
/// `false` when another game changed one meanwhile (roll back and retry).
pub(super) async fn rate(
    tx: &mut Transaction<'static, Any>,
    id: i64,
    system: &str,
    players: &[(i64, u32)],
) -> Result<bool, ApiError> {
    let pool = players.len() as i64;
    let mut before = Vec::with_capacity(players.len());
    for &(user, place) in players {
        let rating = read_rating(tx, user, system, pool).await?;
        before.push((rating, place));
    }
    let after =
        rating::update(&before.iter().map(|(r, place)| (r.unwrap_or_default(), *place)).collect::<Vec<_>>());
    let now = now_ms();
    for ((&(user, place), (old, _)), new) in players.iter().zip(&before).zip(&after) {
        let written = write_rating(tx, (user, system, pool), *old, new).await;
        match written {
            Ok(true) => {}
            Ok(false) => return Ok(false),
            Err(sqlx::Error::Database(d)) if d.is_unique_violation() => return Ok(false),
            Err(e) => return Err(e.into()),
        }
        let old = old.unwrap_or_default();
        sqlx::query(
            "INSERT INTO rating_history (game_id, user_id, system, players, place, mu_before, sigma_before, mu_after, sigma_after, at_ms) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)",
        )
        .bind(id)
        .bind(user)
        .bind(system)
        .bind(pool)
        .bind(i64::from(place))
        .bind(old.mu)
        .bind(old.sigma)
        .bind(new.mu)
        .bind(new.sigma)
        .bind(now)
        .execute(&mut **tx)
        .await?;
    }
    Ok(true)
}

/// A player's rating in `system` at `pool` players, if they have one.
async fn read_rating(
    tx: &mut Transaction<'static, Any>,
    user: i64,
    system: &str,
    pool: i64,
) -> Result<Option<Rating>, ApiError> {
    let row = sqlx::query(
        "SELECT mu, sigma, games FROM ratings WHERE user_id = $1 AND system = $2 AND players = $3",
    )
    .bind(user)
    .bind(system)
    .bind(pool)
    .fetch_optional(&mut **tx)
    .await?;
    Ok(match row {
        Some(r) => {
            Some(Rating { mu: r.try_get("mu")?, sigma: r.try_get("sigma")?, games: r.try_get("games")? })
        }
        None => None,
    })
}

/// Sets a rating read as `old` to `new`, compared on its game count (a new row for a player
/// without one): `false` when another game changed it meanwhile.
async fn write_rating(
    tx: &mut Transaction<'static, Any>,
    (user, system, pool): (i64, &str, i64),
    old: Option<Rating>,
    new: &Rating,
) -> Result<bool, sqlx::Error> {
    match old {
        Some(old) => sqlx::query(
            "UPDATE ratings SET mu = $1, sigma = $2, games = $3 \
             WHERE user_id = $4 AND system = $5 AND players = $6 AND games = $7",
        )
        .bind(new.mu)
        .bind(new.sigma)
        .bind(new.games)
        .bind(user)
        .bind(system)
        .bind(pool)
        .bind(old.games)
        .execute(&mut **tx)
        .await
        .map(|r| r.rows_affected() == 1),
        None => sqlx::query(
            "INSERT INTO ratings (user_id, system, players, mu, sigma, games) VALUES ($1, $2, $3, $4, $5, $6)",
        )
        .bind(user)
        .bind(system)
        .bind(pool)
        .bind(new.mu)
        .bind(new.sigma)
        .bind(new.games)
        .execute(&mut **tx)
        .await
        .map(|_| true),
    }
}

/// Why ratings may not move between these players, if they may not: ratings move only between
/// independent accounts — not between a bot account and its owner, not between two bots of
/// one owner, and not between two accounts that already had
/// [`rating::PAIR_GAMES_PER_WINDOW`] rated games count against each other in the last
/// [`rating::PAIR_WINDOW_MS`]. One such pair leaves the whole game unrated (its other seats
/// too: a farmer gains nothing by adding strangers).
pub(super) async fn not_independent(
    tx: &mut Transaction<'static, Any>,
    players: &[(i64, u32)],
) -> Result<Option<String>, ApiError> {
    let mut owners = Vec::with_capacity(players.len());
    for &(user, _) in players {
        let row =
            sqlx::query("SELECT owner FROM users WHERE id = $1").bind(user).fetch_optional(&mut **tx).await?;
        owners.push(match row {
            Some(r) => r.try_get::<Option<i64>, _>("owner")?,
            None => None,
        });
    }
    let since = now_ms() - rating::PAIR_WINDOW_MS;
    for (i, &(a, _)) in players.iter().enumerate() {
        for (j, &(b, _)) in players.iter().enumerate().skip(i + 1) {
            let (oa, ob) = (owners[i], owners[j]);
            if oa == Some(b) || ob == Some(a) {
                return Ok(Some("unrated: a bot account and its owner play each other".into()));
            }
            if oa.is_some() && oa == ob {
                return Ok(Some("unrated: two bot accounts of the same owner play each other".into()));
            }
            let row = sqlx::query(
                "SELECT COUNT(*) AS n FROM rating_history x JOIN rating_history y ON y.game_id = x.game_id \
                 WHERE x.user_id = $1 AND y.user_id = $2 AND x.at_ms > $3",
            )
            .bind(a)
            .bind(b)
            .bind(since)
            .fetch_one(&mut **tx)
            .await?;
            if row.try_get::<i64, _>("n")? >= rating::PAIR_GAMES_PER_WINDOW {
                return Ok(Some(format!(
                    "unrated: two of its players already had {} rated games against each other count \
                     in the last 24 hours",
                    rating::PAIR_GAMES_PER_WINDOW
                )));
            }
        }
    }
    Ok(None)
}

impl Store {
    /// A game's seats with, for each account that is not a guest, its rating in `system` (1500?
    /// without one) and, once a rated game has ended, what it changed: one query, for lobby
    /// lists and tables alike.
    pub async fn seats_rated(&self, game_id: i64, system: &str) -> Result<Vec<RatedSeat>, ApiError> {
        let rows = sqlx::query(
            "SELECT seats.seat, seats.user_id, seats.bot_level, u.name, u.kind, r.mu, r.sigma, r.games, \
             h.mu_before, h.mu_after FROM seats \
             LEFT JOIN users u ON u.id = seats.user_id \
             LEFT JOIN ratings r ON r.user_id = seats.user_id AND r.system = $2 \
             AND r.players = (SELECT COUNT(*) FROM seats n WHERE n.game_id = seats.game_id) \
             LEFT JOIN rating_history h ON h.game_id = seats.game_id AND h.user_id = seats.user_id \
             WHERE seats.game_id = $1 ORDER BY seats.seat",
        )
        .bind(game_id)
        .bind(system)
        .fetch_all(&self.pool)
        .await?;
        let players = rows.len() as i64;
        rows.iter()
            .map(|r| {
                let seat = SeatRow {
                    seat: r.try_get::<i64, _>("seat")? as usize,
                    user_id: r.try_get("user_id")?,
                    user_name: r.try_get("name")?,
                    bot_level: r.try_get::<Option<i64>, _>("bot_level")?.map(|l| l as u8),
                };
                let kind: Option<String> = r.try_get("kind")?;
                if kind.is_none_or(|k| k == "guest") {
                    return Ok(RatedSeat { seat, rating: None });
                }
                let rating = match r.try_get::<Option<f64>, _>("mu")? {
                    Some(mu) => Rating { mu, sigma: r.try_get("sigma")?, games: r.try_get("games")? },
                    None => Rating::default(),
                };
                let before: Option<f64> = r.try_get("mu_before")?;
                let after: Option<f64> = r.try_get("mu_after")?;
                let change = before
                    .zip(after)
                    .map(|(b, a)| Rating { mu: a, ..rating }.value() - Rating { mu: b, ..rating }.value());
                Ok(RatedSeat { seat, rating: Some(rating.view_in(system, players, change)) })
            })
            .collect::<Result<_, sqlx::Error>>()
            .map_err(Into::into)
    }

    /// A player's ratings, one per rule system and number of players they played rated games
    /// at: (system, players, rating).
    pub async fn ratings_of(&self, user: i64) -> Result<Vec<(String, i64, Rating)>, ApiError> {
        let rows = sqlx::query(
            "SELECT system, players, mu, sigma, games FROM ratings WHERE user_id = $1 ORDER BY system, players",
        )
        .bind(user)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| {
                Ok((
                    r.try_get("system")?,
                    r.try_get("players")?,
                    Rating { mu: r.try_get("mu")?, sigma: r.try_get("sigma")?, games: r.try_get("games")? },
                ))
            })
            .collect::<Result<_, sqlx::Error>>()
            .map_err(Into::into)
    }

    /// A player's rated games, newest first: (game, system, place, before, after, at_ms).
    pub async fn rating_history(&self, user: i64, limit: i64) -> Result<Vec<HistoryRow>, ApiError> {
        let rows = sqlx::query(
            "SELECT game_id, system, players, place, mu_before, sigma_before, mu_after, sigma_after, at_ms \
             FROM rating_history WHERE user_id = $1 ORDER BY at_ms DESC, game_id DESC LIMIT $2",
        )
        .bind(user)
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| {
                Ok(HistoryRow {
                    game: r.try_get("game_id")?,
                    system: r.try_get("system")?,
                    players: r.try_get("players")?,
                    place: r.try_get::<i64, _>("place")? as u32,
                    before: Rating {
                        mu: r.try_get("mu_before")?,
                        sigma: r.try_get("sigma_before")?,
                        games: 0,
                    },
                    after: Rating { mu: r.try_get("mu_after")?, sigma: r.try_get("sigma_after")?, games: 0 },
                    at_ms: r.try_get("at_ms")?,
                })
            })
            .collect::<Result<_, sqlx::Error>>()
            .map_err(Into::into)
    }
}
