//! McMahon on the server (docs/tournaments.md, "McMahon"): the creator's bar and floor (ranks
//! such as "3d", "20k"), checked with a reason, and each entrant's starting score from its
//! rating through the pairing library's rank bands.

use gobeyond_tournament::mcmahon::{HIGHEST, mcmahon_start, parse_rank, rank_text};

use super::create::NewTournament;
use crate::error::ApiError;

/// Below this rank everyone starts at 0 unless the creator says otherwise.
const DEFAULT_FLOOR: i32 = -20;

/// Refuses a bar or floor that is no rank, a bar below the floor, or either one outside McMahon.
pub(super) fn check(new: &NewTournament) -> Result<(), ApiError> {
    let bad = |m: String| Err(ApiError::BadRequest(m));
    for (field, value) in [("mcmahon_bar", &new.mcmahon_bar), ("mcmahon_floor", &new.mcmahon_floor)] {
        let Some(value) = value else { continue };
        if new.format != "mcmahon" {
            return bad(format!("{field}: only a McMahon tournament has one, not {}", new.format));
        }
        if value.len() > 16 || parse_rank(value).is_none() {
            return bad(format!("{field}: a rank from 30k to 9d (like \"20k\" or \"3d\"), not {value:?}"));
        }
    }
    let (bar, floor) = bar_and_floor(new);
    if bar < floor {
        return bad(format!(
            "mcmahon_bar ({}) is below mcmahon_floor ({})",
            rank_text(bar),
            rank_text(floor)
        ));
    }
    Ok(())
}

/// The bar and the floor as rank numbers (defaults: no bar, 20k).
fn bar_and_floor(new: &NewTournament) -> (i32, i32) {
    let rank = |v: &Option<String>, default| v.as_deref().and_then(parse_rank).unwrap_or(default);
    (rank(&new.mcmahon_bar, HIGHEST), rank(&new.mcmahon_floor, DEFAULT_FLOOR))
}

/// The spec's bar: the bar's score (bar − floor), for McMahon only.
pub(super) fn bar_score(new: &NewTournament) -> Option<i32> {
    let (bar, floor) = bar_and_floor(new);
    (new.format == "mcmahon").then(|| bar.max(floor) - floor)
}

/// An entrant's starting score (0 outside McMahon).
pub(super) fn start(new: &NewTournament, rating: f64) -> i32 {
    if new.format != "mcmahon" {
        return 0;
    }
    let (bar, floor) = bar_and_floor(new);
    mcmahon_start(rating, bar, floor)
}

/// The rules line for the tournament's page.
pub(super) fn rules_line(new: &NewTournament) -> String {
    let (bar, floor) = bar_and_floor(new);
    format!(
        "McMahon, {} rounds: a Swiss where each entrant starts with a point per rank above {} (from the rating: 100 points a rank), up to {} and above; each round pairs entrants with equal scores.",
        new.rounds,
        rank_text(floor),
        rank_text(bar)
    )
}
