//! Vacations: each account may take [`crate::Config::vacation_days`] days a calendar year (UTC),
//! in as many pieces as it likes; while one runs its correspondence clocks stand still (live
//! clocks do not: a live game is played in one sitting). A vacation counts against the year it
//! started in, and ends by itself when the allowance is used up.

use axum::{Json, Router, extract::State, routing::get};
use serde::Deserialize;

use crate::{
    AppState, auth::Session, dates::year_start, error::ApiError, protocol::VacationView, store::Vacation,
};

const DAY_MS: i64 = 86_400_000;

pub fn routes() -> Router<AppState> {
    Router::new().route("/api/vacation", get(show).post(change))
}

/// The milliseconds of this year's allowance used by `vacations` at `now`.
fn used_ms(vacations: &[Vacation], now: i64) -> i64 {
    let year = year_start(now);
    vacations
        .iter()
        .filter(|v| v.started_ms >= year)
        .map(|v| (v.end_ms().min(now) - v.started_ms).max(0))
        .sum()
}

async fn view(app: &AppState, user: i64) -> Result<VacationView, ApiError> {
    let now = app.store.now();
    let vacations = app.store.vacations_since(user, year_start(now)).await?;
    let running = vacations.iter().find(|v| v.runs_at(now));
    let allowance = i64::from(app.config.vacation_days) * DAY_MS;
    let used = used_ms(&vacations, now);
    Ok(VacationView {
        on: running.is_some(),
        until_ms: running.map(Vacation::end_ms),
        allowance_days: app.config.vacation_days,
        used_ms: used,
        left_ms: (allowance - used).max(0),
        now_ms: now,
    })
}

/// `GET /api/vacation`: the caller's vacation and what is left of this year's allowance.
pub async fn show(State(app): State<AppState>, session: Session) -> Result<Json<VacationView>, ApiError> {
    Ok(Json(view(&app, session.user.id).await?))
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct VacationChange {
    /// True to start a vacation now, false to end it now.
    on: bool,
}

/// `POST /api/vacation {"on": true|false}`: starts or ends the caller's vacation.
pub async fn change(
    State(app): State<AppState>,
    session: Session,
    Json(body): Json<VacationChange>,
) -> Result<Json<VacationView>, ApiError> {
    let user = session.user.id;
    let now = app.store.now();
    if body.on {
        let before = view(&app, user).await?;
        if before.on {
            return Err(ApiError::Conflict("you are on vacation already".into()));
        }
        if before.left_ms <= 0 {
            return Err(ApiError::Conflict(format!(
                "you have used this year's {} vacation days",
                app.config.vacation_days
            )));
        }
        if !app.store.start_vacation(user, now, now + before.left_ms).await? {
            return Err(ApiError::Conflict("you are on vacation already".into()));
        }
    } else if !app.store.end_vacation(user, now).await? {
        return Err(ApiError::Conflict("you are not on vacation".into()));
    }
    Ok(Json(view(&app, user).await?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn years_start_on_the_first_of_january() {
        assert_eq!(year_start(0), 0);
        assert_eq!(year_start(DAY_MS * 365 - 1), 0);
        assert_eq!(year_start(DAY_MS * 365), DAY_MS * 365, "1971");
        // 2024-01-01 is day 19723, 2025-01-01 day 20089, 2026-01-01 day 20454, 2027-01-01
        // day 20819.
        assert_eq!(year_start(19_723 * DAY_MS + 5), 19_723 * DAY_MS);
        assert_eq!(year_start(20_418 * DAY_MS + 77), 20_089 * DAY_MS);
        assert_eq!(year_start(20_819 * DAY_MS - 1), 20_454 * DAY_MS);
        assert_eq!(year_start(20_819 * DAY_MS), 20_819 * DAY_MS);
    }

    #[test]
    fn the_allowance_counts_this_year_only() {
        let year = year_start(20_500 * DAY_MS);
        let old = Vacation { started_ms: year - 3 * DAY_MS, until_ms: year + DAY_MS, ended_ms: None };
        let now_on =
            Vacation { started_ms: year + 10 * DAY_MS, until_ms: year + 40 * DAY_MS, ended_ms: None };
        assert_eq!(used_ms(&[old, now_on], year + 12 * DAY_MS), 2 * DAY_MS);
    }
}
