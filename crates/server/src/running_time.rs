//! Time a correspondence clock runs: all of it, or, with weekends off, none of Saturday and
//! Sunday (UTC: one rule for players of every time zone, which a player can read on any
//! clock); less the player's vacations. Times in milliseconds since the Unix epoch.

const DAY: i64 = 86_400_000;
const WEEK: i64 = 7 * DAY;

/// Whether the UTC day holding `t` is a Saturday or a Sunday (1970-01-01 was a Thursday).
fn weekend(t: i64) -> bool {
    let weekday = (t.div_euclid(DAY) + 3).rem_euclid(7); // Monday 0
    weekday >= 5
}

/// The clock's running time from `start` to `end`.
pub fn between(start: i64, end: i64, weekends_off: bool) -> i64 {
    if end <= start {
        return 0;
    }
    if !weekends_off {
        return end - start;
    }
    // Any seven days hold five weekdays: whole weeks first, then at most eight days one by one.
    let weeks = (end - start) / WEEK;
    let mut run = weeks * 5 * DAY;
    let mut t = start + weeks * WEEK;
    while t < end {
        let day_end = (t.div_euclid(DAY) + 1) * DAY;
        let until = day_end.min(end);
        if !weekend(t) {
            run += until - t;
        }
        t = until;
    }
    run
}

/// When a clock that starts at `start` has run for `budget`.
pub fn after(start: i64, budget: i64, weekends_off: bool) -> i64 {
    if budget <= 0 {
        return start;
    }
    if !weekends_off {
        return start.saturating_add(budget);
    }
    let weeks = budget / (5 * DAY);
    let mut left = budget - weeks * 5 * DAY;
    let mut t = start + weeks * WEEK;
    // At most two weekend days and the rest of a week to walk.
    loop {
        let day_end = (t.div_euclid(DAY) + 1) * DAY;
        if !weekend(t) {
            if left <= day_end - t {
                return t + left;
            }
            left -= day_end - t;
        }
        t = day_end;
    }
}

/// The running time from `start` to `end`, less the pauses (the player's vacations, which never
/// overlap each other) that fall in it.
pub fn between_pauses(start: i64, end: i64, weekends_off: bool, pauses: &[(i64, i64)]) -> i64 {
    let paused: i64 = pauses.iter().map(|&(a, b)| between(a.max(start), b.min(end), weekends_off)).sum();
    (between(start, end, weekends_off) - paused).max(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    // 2026-11-27 is a Friday.
    const FRIDAY: i64 = 1_795_737_600_000;

    #[test]
    fn weekends_do_not_count() {
        assert!(!weekend(FRIDAY) && weekend(FRIDAY + DAY) && weekend(FRIDAY + 2 * DAY));
        assert!(!weekend(FRIDAY + 3 * DAY));
        // Friday noon to Monday noon: half of Friday and half of Monday.
        let noon = FRIDAY + DAY / 2;
        assert_eq!(between(noon, noon + 3 * DAY, true), DAY);
        assert_eq!(between(noon, noon + 3 * DAY, false), 3 * DAY);
        assert_eq!(between(noon, noon + 14 * DAY, true), 10 * DAY);
        // A day's budget from Friday noon ends on Monday noon.
        assert_eq!(after(noon, DAY, true), noon + 3 * DAY);
        assert_eq!(after(noon, DAY, false), noon + DAY);
        // Started on a Saturday: the clock waits for Monday.
        assert_eq!(after(FRIDAY + DAY, 1000, true), FRIDAY + 3 * DAY + 1000);
    }

    #[test]
    fn after_and_between_agree() {
        for start in (0..30).map(|i| FRIDAY + i * 7_777_777) {
            for budget in [1, DAY / 3, DAY, 5 * DAY, 7 * DAY + 5, 23 * DAY] {
                let end = after(start, budget, true);
                assert_eq!(between(start, end, true), budget, "start {start}, budget {budget}");
            }
        }
    }

    #[test]
    fn pauses_are_taken_off() {
        let run = between_pauses(
            FRIDAY,
            FRIDAY + 10 * DAY,
            false,
            &[(FRIDAY - DAY, FRIDAY + DAY), (FRIDAY + 9 * DAY, i64::MAX)],
        );
        assert_eq!(run, 8 * DAY);
        assert_eq!(between_pauses(FRIDAY, FRIDAY + DAY, false, &[(0, i64::MAX)]), 0);
    }
}
