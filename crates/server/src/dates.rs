//! Calendar days in UTC (proleptic Gregorian) for the few places that need them — a record's
//! date, a vacation's calendar year — after H. Hinnant's days/civil algorithms.

const DAY_MS: i64 = 86_400_000;

/// (year, month, day) of the day `days` after 1970-01-01.
fn civil_from_days(days: i64) -> (i64, i64, i64) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    (yoe + era * 400 + i64::from(month <= 2), month, day)
}

/// Days from 1970-01-01 to 1 January of `year`.
fn days_to_new_year(year: i64) -> i64 {
    let y = year - 1;
    365 * (year - 1970) + (y.div_euclid(4) - y.div_euclid(100) + y.div_euclid(400))
        - (1969 / 4 - 1969 / 100 + 1969 / 400)
}

/// `YYYY-MM-DD` of an epoch-milliseconds time.
pub fn utc_date(ms: i64) -> String {
    let (year, month, day) = civil_from_days(ms.div_euclid(DAY_MS));
    format!("{year:04}-{month:02}-{day:02}")
}

/// `YYYY-MM-DD HH:MM UTC` of an epoch-milliseconds time (when a sanction ends).
pub fn utc_minute(ms: i64) -> String {
    let minutes = ms.rem_euclid(DAY_MS) / 60_000;
    format!("{} {:02}:{:02} UTC", utc_date(ms), minutes / 60, minutes % 60)
}

/// The first millisecond of the calendar year holding `ms`.
pub fn year_start(ms: i64) -> i64 {
    let (year, _, _) = civil_from_days(ms.div_euclid(DAY_MS));
    days_to_new_year(year) * DAY_MS
}

#[cfg(test)]
mod tests {
    #[test]
    fn dates_read_in_utc() {
        assert_eq!(super::utc_date(0), "1970-01-01");
        assert_eq!(super::utc_date(951_782_400_000), "2000-02-29");
        assert_eq!(super::utc_date(1_795_651_199_999), "2026-11-25");
        assert_eq!(super::utc_date(1_795_651_200_000), "2026-11-26");
        assert_eq!(super::utc_date(-86_400_000), "1969-12-31");
    }
}
