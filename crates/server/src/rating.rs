//! Ratings: one per player and rule system, updated by every rated game with the Weng-Lin
//! model (the Bayesian rating of OpenSkill, through the `skillratings` crate), which handles any
//! number of players and shared places: each player is a team of one, ranked by the game's
//! places. Shown as `mu × 60` (a new player is 1500) with a "?" while the uncertainty is high.

use serde::Serialize;
use skillratings::{
    MultiTeamOutcome,
    weng_lin::{WengLinConfig, WengLinRating, weng_lin_multi_team},
};

/// Moves of its own each seat must have made for a rated game to count (resignations, time-outs
/// and chance are not moves); one that ends sooner, however it ends, is aborted.
pub const MIN_MOVES: usize = 2;

/// What a rated game that ended too soon says in its result (`unrated`).
pub const ABORTED: &str = "aborted: the game ended before every player had made two moves";

/// Rated games between the same two accounts that change their ratings in any
/// [`PAIR_WINDOW_MS`]: later ones are played but count for nothing (farming a second account
/// takes many games between the same pair).
pub const PAIR_GAMES_PER_WINDOW: i64 = 5;
pub const PAIR_WINDOW_MS: i64 = 24 * 60 * 60 * 1000;

/// A player's standing in one rule system.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Rating {
    pub mu: f64,
    pub sigma: f64,
    /// Rated games played so far.
    pub games: i64,
}

impl Default for Rating {
    fn default() -> Rating {
        let r = WengLinRating::new();
        Rating { mu: r.rating, sigma: r.uncertainty, games: 0 }
    }
}

/// Display points per unit of mu: a new player shows 1500.
const SCALE: f64 = 60.0;
/// Provisional while sigma is above this (a new player starts at 25/3 ≈ 8.33; two-player
/// games bring it under 7 after six or so).
const PROVISIONAL_SIGMA: f64 = 7.0;

impl Rating {
    pub fn value(&self) -> i32 {
        (self.mu * SCALE).round() as i32
    }

    pub fn provisional(&self) -> bool {
        self.sigma > PROVISIONAL_SIGMA
    }

    pub fn view(&self, change: Option<i32>) -> RatingView {
        RatingView {
            value: self.value(),
            provisional: self.provisional(),
            games: self.games,
            change,
            rank: None,
        }
    }

    /// [`Rating::view`], with the kyu/dan rank where the rule system's players read one (its
    /// two-player games: a rank is a handicap between two players).
    pub fn view_in(&self, system: &str, players: i64, change: Option<i32>) -> RatingView {
        let ranked = players == 2
            && gobeyond_rules::registry::SystemInfo::get(system).is_some_and(|s| s.rated_in_kyu_dan);
        RatingView { rank: ranked.then(|| kyu_dan(self.value())), ..self.view(change) }
    }
}

/// Rating points per rank, and the rating of 1 kyu: a new player (1500) reads 10 kyu, 1 dan is
/// 2500, each 100 points is one stone as in the EGF's kyu range; ranks stop at 30 kyu and 9 dan.
const POINTS_PER_RANK: i32 = 100;
const ONE_KYU: i32 = 2400;

/// A rating as Go players write a rank: `10k`, `1k`, `1d`, `9d`.
pub fn kyu_dan(value: i32) -> String {
    let steps = (value - ONE_KYU).div_euclid(POINTS_PER_RANK);
    if steps <= 0 { format!("{}k", (1 - steps).min(30)) } else { format!("{}d", steps.min(9)) }
}

/// A rating as pages show it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, serde::Deserialize, ts_rs::TS)]
pub struct RatingView {
    pub value: i32,
    /// Too few games to be sure: shown with a "?".
    pub provisional: bool,
    #[ts(type = "number")]
    pub games: i64,
    /// What the game on show changed it by (rated games that ended).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub change: Option<i32>,
    /// The rating as a kyu/dan rank (`5k`, `2d`) where the system's players read one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub rank: Option<String>,
}

/// New ratings after a game: `players` holds each player's rating before it and their place
/// (from 1; equal places are a draw between them).
pub fn update(players: &[(Rating, u32)]) -> Vec<Rating> {
    let teams: Vec<[WengLinRating; 1]> =
        players.iter().map(|(r, _)| [WengLinRating { rating: r.mu, uncertainty: r.sigma }]).collect();
    let ranked: Vec<(&[WengLinRating], MultiTeamOutcome)> = teams
        .iter()
        .zip(players)
        .map(|(t, (_, place))| (&t[..], MultiTeamOutcome::new(*place as usize)))
        .collect();
    let after = weng_lin_multi_team(&ranked, &WengLinConfig::new());
    players
        .iter()
        .zip(after)
        .map(|((before, _), team)| {
            let r = team
                .first()
                .copied()
                .unwrap_or(WengLinRating { rating: before.mu, uncertainty: before.sigma });
            Rating { mu: r.rating, sigma: r.uncertainty, games: before.games + 1 }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_win_raises_the_winner_and_lowers_the_loser_by_as_much() {
        let new = Rating::default();
        let after = update(&[(new, 2), (new, 1)]);
        assert!(after[1].mu > new.mu && after[0].mu < new.mu, "{after:?}");
        assert!((after[1].mu - new.mu + after[0].mu - new.mu).abs() < 1e-9, "zero-sum between equals");
        assert!(after.iter().all(|r| r.sigma < new.sigma && r.games == 1));
        assert_eq!(new.value(), 1500);
        assert!(new.provisional());
    }

    #[test]
    fn beating_a_stronger_player_gains_more() {
        let strong = Rating { mu: 35.0, sigma: 4.0, games: 40 };
        let weak = Rating { mu: 20.0, sigma: 4.0, games: 40 };
        let upset = update(&[(strong, 2), (weak, 1)]);
        let expected = update(&[(strong, 1), (weak, 2)]);
        assert!(upset[1].mu - weak.mu > expected[0].mu - strong.mu);
    }

    #[test]
    fn shared_places_are_a_draw_and_every_place_counts_in_a_multiplayer_game() {
        let new = Rating::default();
        let draw = update(&[(new, 1), (new, 1)]);
        assert!((draw[0].mu - new.mu).abs() < 1e-9 && (draw[1].mu - new.mu).abs() < 1e-9);
        let four = update(&[(new, 3), (new, 1), (new, 4), (new, 2)]);
        let mut by_place: Vec<(u32, f64)> = [3, 1, 4, 2].into_iter().zip(four.iter().map(|r| r.mu)).collect();
        by_place.sort_by_key(|p| p.0);
        assert!(by_place.windows(2).all(|w| w[0].1 > w[1].1), "better places gain more: {by_place:?}");
    }

    #[test]
    fn ratings_read_as_kyu_and_dan_ranks() {
        let read: Vec<String> = [1500, 1599, 2399, 2400, 2499, 2500, 3300, 9000, -4000].map(kyu_dan).into();
        assert_eq!(read, ["10k", "10k", "2k", "1k", "1k", "1d", "9d", "9d", "30k"]);
        assert_eq!(Rating::default().view_in("classic", 2, None).rank.as_deref(), Some("10k"));
        assert_eq!(Rating::default().view_in("classic", 4, None).rank, None, "a rank is between two players");
        assert_eq!(Rating::default().view_in("gobeyond", 2, None).rank, None);
    }

    #[test]
    fn the_question_mark_goes_after_a_few_games() {
        let mut me = Rating::default();
        let mut games = 0;
        while me.provisional() && games < 50 {
            me = update(&[(me, 1), (Rating::default(), 2)])[0];
            games += 1;
        }
        assert!((3..=12).contains(&games), "provisional for {games} games");
    }
}
