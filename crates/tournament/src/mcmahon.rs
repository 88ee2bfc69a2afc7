//! McMahon starting scores from rank bands (docs/tournaments.md, "McMahon"): a rating reads as a
//! kyu/dan rank the way the server shows ranks (1 kyu from 2400, 100 rating points a rank, 30
//! kyu to 9 dan); each rank is a band one point apart; everyone at or below the floor starts at
//! 0 and everyone at or above the bar starts at the bar's score (bar − floor), so the strongest
//! group meets each other from round 1 and the weakest are not hopelessly behind.

/// Rating of 1 kyu and rating points per rank: the server's `rating::kyu_dan` uses the same.
const ONE_KYU: f64 = 2400.0;
const POINTS_PER_RANK: f64 = 100.0;
/// 30 kyu and 9 dan, as rank numbers.
pub const LOWEST: i32 = -30;
pub const HIGHEST: i32 = 8;

/// A rating as a rank number: 1 dan = 0, 2 dan = 1, 1 kyu = −1, 10 kyu = −10 (so one rank is one
/// point), from 30 kyu (−30) to 9 dan (8).
pub fn rank_of(rating: f64) -> i32 {
    let steps = ((rating - ONE_KYU) / POINTS_PER_RANK).floor();
    if steps.is_nan() {
        return LOWEST;
    }
    // `as` saturates; the clamp keeps the written ranks.
    (steps as i32).saturating_sub(1).clamp(LOWEST, HIGHEST)
}

/// A rank as players write it: −10 → "10k", 0 → "1d".
pub fn rank_text(rank: i32) -> String {
    if rank < 0 { format!("{}k", -rank) } else { format!("{}d", rank + 1) }
}

/// "10k", "1d", "3 dan", "5 kyu" → the rank number; None when it is no rank (30k..9d).
pub fn parse_rank(text: &str) -> Option<i32> {
    let t = text.trim().to_ascii_lowercase();
    let split = t.find(|c: char| !c.is_ascii_digit())?;
    let (digits, unit) = t.split_at(split);
    let n: i32 = digits.parse().ok()?;
    match unit.trim() {
        "k" | "kyu" if (1..=30).contains(&n) => Some(-n),
        "d" | "dan" if (1..=9).contains(&n) => Some(n - 1),
        _ => None,
    }
}

/// The starting score of an entrant rated `rating`: its rank between `floor` and `bar` (rank
/// numbers), counted from the floor. A bar below the floor is read as the floor.
pub fn mcmahon_start(rating: f64, bar: i32, floor: i32) -> i32 {
    let rank = rank_of(rating);
    rank.max(floor).min(bar.max(floor)) - floor
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ratings_read_as_the_server_shows_ranks() {
        let ranks: Vec<String> =
            [1500.0, 1599.0, 2399.0, 2400.0, 2499.0, 2500.0, 3300.0, 9000.0, -4000.0, f64::NAN]
                .map(|r| rank_text(rank_of(r)))
                .into();
        assert_eq!(ranks, ["10k", "10k", "2k", "1k", "1k", "1d", "9d", "9d", "30k", "30k"]);
    }

    #[test]
    fn ranks_parse_back() {
        for rank in LOWEST..=HIGHEST {
            assert_eq!(parse_rank(&rank_text(rank)), Some(rank));
        }
        assert_eq!(parse_rank("3 dan"), Some(2));
        assert_eq!(parse_rank("5 Kyu"), Some(-5));
        for bad in ["", "k", "0k", "31k", "10d", "1x", "-1k", "99999999999999k"] {
            assert_eq!(parse_rank(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn starts_are_bands_between_the_floor_and_the_bar() {
        let (bar, floor) = (parse_rank("2d").unwrap(), parse_rank("20k").unwrap());
        // 10k: 10 ranks above 20k.
        assert_eq!(mcmahon_start(1500.0, bar, floor), 10);
        // One rank (100 points) more, one point more.
        assert_eq!(mcmahon_start(1600.0, bar, floor), 11);
        // At and above the bar: the bar's score, 2d − 20k = 21.
        assert_eq!(mcmahon_start(2600.0, bar, floor), 21);
        assert_eq!(mcmahon_start(3300.0, bar, floor), 21);
        // At and below the floor: 0.
        assert_eq!(mcmahon_start(500.0, bar, floor), 0);
        assert_eq!(mcmahon_start(-1e300, bar, floor), 0);
        // A bar below the floor: everyone starts at 0.
        assert_eq!(mcmahon_start(2600.0, floor - 3, floor), 0);
    }
}
