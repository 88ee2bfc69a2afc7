//! Time controls: the game's clock for rule systems without one of their own (GoBeyond's is its
//! `turn_seconds` and `cleanup_seconds` settings), their presets and their bounds. How each
//! runs is [`crate::clock`]'s.

use serde::{Deserialize, Serialize};

use crate::error::ApiError;

const MINUTE: f64 = 60.0;
const HOUR: f64 = 3600.0;
const DAY: f64 = 86_400.0;

/// The longest main time, period or time per move: 30 days.
pub const MAX_SECONDS: f64 = 30.0 * DAY;
/// The largest bank a correspondence or capped Fischer clock may hold: 60 days.
pub const MAX_BANK_SECONDS: f64 = 60.0 * DAY;
/// Correspondence moves get at least an hour each.
pub const MIN_CORRESPONDENCE_SECONDS: f64 = HOUR;

/// Game clocks. Stored with each game's setup and in its clock: every form once written keeps
/// reading (fields added later have defaults).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, Default, ts_rs::TS)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum TimeControl {
    #[default]
    None,
    /// Each player has `main_seconds` for the whole game.
    Absolute { main_seconds: f64 },
    /// Main time, plus `increment_seconds` after each of the player's moves; the time left
    /// never grows past `max_seconds` when set (a player cannot bank a whole evening by moving
    /// fast).
    Fischer {
        main_seconds: f64,
        increment_seconds: f64,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        max_seconds: Option<f64>,
    },
    /// Main time, then `periods` periods of `period_seconds`; a period used up is lost.
    ByoYomi { main_seconds: f64, periods: u32, period_seconds: f64 },
    /// Main time, then `stones` moves to make in each period of `period_seconds`; the period
    /// starts again, whole, once they are made.
    Canadian { main_seconds: f64, stones: u32, period_seconds: f64 },
    /// `move_seconds` for every move, nothing carried over.
    Simple { move_seconds: f64 },
    /// Play across days: each player starts with `move_seconds`, and every move adds
    /// `move_seconds` to what is left, up to `max_seconds`. Players on vacation do not lose
    /// time; with `weekends_off` neither does anyone on Saturdays and Sundays (UTC).
    Correspondence {
        move_seconds: f64,
        max_seconds: f64,
        #[serde(default)]
        weekends_off: bool,
    },
}

/// A time control as a creator may write it: a preset's name (`"rapid"`, `"correspondence_3"`)
/// or the control itself.
#[derive(Debug, Clone)]
pub enum TimeChoice {
    Preset(String),
    Control(TimeControl),
}

/// Read by hand rather than `untagged`, so that a malformed control says what is wrong with it
/// instead of "did not match any variant".
impl<'de> Deserialize<'de> for TimeChoice {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<TimeChoice, D::Error> {
        match serde_json::Value::deserialize(d)? {
            serde_json::Value::String(name) => Ok(TimeChoice::Preset(name)),
            other => serde_json::from_value(other)
                .map(TimeChoice::Control)
                .map_err(|e| serde::de::Error::custom(format!("time: {e}"))),
        }
    }
}

impl Default for TimeChoice {
    fn default() -> TimeChoice {
        TimeChoice::Control(TimeControl::None)
    }
}

/// The presets by name, as the lobby's form offers them.
pub const PRESETS: &[(&str, TimeControl)] = &[
    (
        "blitz",
        TimeControl::Fischer {
            main_seconds: 3.0 * MINUTE,
            increment_seconds: 2.0,
            max_seconds: Some(5.0 * MINUTE),
        },
    ),
    (
        "rapid",
        TimeControl::Fischer {
            main_seconds: 10.0 * MINUTE,
            increment_seconds: 10.0,
            max_seconds: Some(20.0 * MINUTE),
        },
    ),
    ("live", TimeControl::ByoYomi { main_seconds: 20.0 * MINUTE, periods: 5, period_seconds: 30.0 }),
    (
        "correspondence_1",
        TimeControl::Correspondence { move_seconds: DAY, max_seconds: 3.0 * DAY, weekends_off: false },
    ),
    (
        "correspondence_3",
        TimeControl::Correspondence { move_seconds: 3.0 * DAY, max_seconds: 7.0 * DAY, weekends_off: false },
    ),
    (
        "correspondence_7",
        TimeControl::Correspondence { move_seconds: 7.0 * DAY, max_seconds: 14.0 * DAY, weekends_off: false },
    ),
];

impl TimeChoice {
    /// The time control chosen, checked.
    pub fn resolve(self) -> Result<TimeControl, ApiError> {
        let time = match self {
            TimeChoice::Control(t) => t,
            TimeChoice::Preset(name) => {
                PRESETS.iter().find(|(n, _)| *n == name).map(|(_, t)| *t).ok_or_else(|| {
                    let names: Vec<&str> = PRESETS.iter().map(|(n, _)| *n).collect();
                    let shown: String = name.chars().take(40).collect();
                    ApiError::BadRequest(format!(
                        "time: no preset \"{shown}\"; the presets are {}",
                        names.join(", ")
                    ))
                })?
            }
        };
        check_time(&time)?;
        Ok(time)
    }
}

impl TimeControl {
    /// Whether this clock counts days: only correspondence clocks stop for vacations.
    pub fn correspondence(&self) -> bool {
        matches!(self, TimeControl::Correspondence { .. })
    }
}

/// Seconds as players read them: "30 days", "2 hours", "90 seconds".
fn words(seconds: f64) -> String {
    let plural = |n: f64, unit: &str| if n == 1.0 { format!("1 {unit}") } else { format!("{n} {unit}s") };
    if seconds >= DAY && seconds % DAY == 0.0 {
        plural(seconds / DAY, "day")
    } else if seconds >= HOUR && seconds % HOUR == 0.0 {
        plural(seconds / HOUR, "hour")
    } else {
        plural(seconds, "second")
    }
}

/// One field's range: `time.<field>` must be a number of seconds in `min..=max`.
fn within(field: &str, value: f64, min: f64, max: f64, what: &str) -> Result<(), ApiError> {
    let what = if what.is_empty() { String::new() } else { format!(" {what}") };
    if !value.is_finite() || value < min {
        return Err(ApiError::BadRequest(format!(
            "time.{field}: at least {}{what}, not {value}",
            words(min)
        )));
    }
    if value > max {
        return Err(ApiError::BadRequest(format!("time.{field}: at most {}{what}, not {value}", words(max))));
    }
    Ok(())
}

fn count(field: &str, value: u32, min: u32, max: u32) -> Result<(), ApiError> {
    if (min..=max).contains(&value) {
        Ok(())
    } else {
        Err(ApiError::BadRequest(format!("time.{field}: from {min} to {max}, not {value}")))
    }
}

/// Checks every field of a time control, naming the one out of range.
pub fn check_time(t: &TimeControl) -> Result<(), ApiError> {
    match *t {
        TimeControl::None => Ok(()),
        TimeControl::Absolute { main_seconds } => within("main_seconds", main_seconds, 1.0, MAX_SECONDS, ""),
        TimeControl::Fischer { main_seconds, increment_seconds, max_seconds } => {
            within("main_seconds", main_seconds, 0.0, MAX_SECONDS, "")?;
            within("increment_seconds", increment_seconds, 0.0, DAY, "per move")?;
            if main_seconds + increment_seconds <= 0.0 {
                return Err(ApiError::BadRequest(
                    "time: a Fischer clock needs main time or an increment above 0".into(),
                ));
            }
            match max_seconds {
                Some(max) => {
                    within("max_seconds", max, main_seconds.max(increment_seconds), MAX_BANK_SECONDS, "")
                }
                None => Ok(()),
            }
        }
        TimeControl::ByoYomi { main_seconds, periods, period_seconds } => {
            within("main_seconds", main_seconds, 0.0, MAX_SECONDS, "")?;
            count("periods", periods, 0, 100)?;
            if periods == 0 && main_seconds <= 0.0 {
                return Err(ApiError::BadRequest("time: byo-yomi needs main time or periods".into()));
            }
            within("period_seconds", period_seconds, if periods > 0 { 1.0 } else { 0.0 }, MAX_SECONDS, "")
        }
        TimeControl::Canadian { main_seconds, stones, period_seconds } => {
            within("main_seconds", main_seconds, 0.0, MAX_SECONDS, "")?;
            count("stones", stones, 1, 100)?;
            within("period_seconds", period_seconds, 1.0, MAX_SECONDS, "")
        }
        TimeControl::Simple { move_seconds } => {
            within("move_seconds", move_seconds, 1.0, MAX_SECONDS, "per move")
        }
        TimeControl::Correspondence { move_seconds, max_seconds, .. } => {
            within("move_seconds", move_seconds, MIN_CORRESPONDENCE_SECONDS, MAX_SECONDS, "per move")?;
            within("max_seconds", max_seconds, move_seconds, MAX_BANK_SECONDS, "in the bank")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn refused(json: &str) -> String {
        let choice: TimeChoice = serde_json::from_str(json).expect("parses");
        match choice.resolve() {
            Err(ApiError::BadRequest(m)) => m,
            other => panic!("{json} was not refused: {other:?}"),
        }
    }

    #[test]
    fn a_malformed_control_says_what_is_wrong() {
        let e = serde_json::from_str::<TimeChoice>(r#"{"kind":"simple","move_seconds":"soon"}"#)
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default();
        assert!(e.starts_with("time: invalid type: string \"soon\""), "{e}");
        let e = serde_json::from_str::<TimeChoice>(r#"{"kind":"hourglass"}"#).err().map(|e| e.to_string());
        assert!(e.unwrap_or_default().contains("unknown variant `hourglass`"));
    }

    #[test]
    fn every_preset_is_in_range() {
        for (name, _) in PRESETS {
            let t = TimeChoice::Preset((*name).into()).resolve();
            assert!(t.is_ok(), "{name}: {t:?}");
        }
        assert!(refused(r#""slow""#).contains("the presets are blitz"));
    }

    #[test]
    fn out_of_range_fields_are_named() {
        let days = refused(r#"{"kind":"correspondence","move_seconds":86400000000000,"max_seconds":86400}"#);
        assert!(days.contains("time.move_seconds: at most 30 days per move"), "{days}");
        let bank = refused(r#"{"kind":"correspondence","move_seconds":259200,"max_seconds":86400}"#);
        assert!(bank.contains("time.max_seconds: at least 3 days"), "{bank}");
        let short = refused(r#"{"kind":"correspondence","move_seconds":60,"max_seconds":86400}"#);
        assert!(short.contains("time.move_seconds: at least 1 hour per move"), "{short}");
        assert!(
            refused(r#"{"kind":"canadian","main_seconds":60,"stones":0,"period_seconds":60}"#)
                .contains("time.stones")
        );
        assert!(refused(r#"{"kind":"simple","move_seconds":-1}"#).contains("time.move_seconds"));
        let cap = refused(r#"{"kind":"fischer","main_seconds":600,"increment_seconds":5,"max_seconds":60}"#);
        assert!(cap.contains("time.max_seconds: at least 600 seconds"), "{cap}");
        assert!(
            refused(r#"{"kind":"fischer","main_seconds":0,"increment_seconds":0}"#).contains("increment")
        );
    }

    #[test]
    fn stored_forms_of_the_first_version_still_read() {
        // Setups and clocks stored before caps and new kinds existed.
        let old: TimeControl =
            serde_json::from_str(r#"{"kind":"fischer","main_seconds":600.0,"increment_seconds":10.0}"#)
                .unwrap();
        assert_eq!(
            old,
            TimeControl::Fischer { main_seconds: 600.0, increment_seconds: 10.0, max_seconds: None }
        );
        assert_eq!(
            serde_json::to_string(&old).unwrap(),
            r#"{"kind":"fischer","main_seconds":600.0,"increment_seconds":10.0}"#,
            "written as before when uncapped"
        );
        let byo: TimeControl = serde_json::from_str(
            r#"{"kind":"byo_yomi","main_seconds":600.0,"periods":5,"period_seconds":30.0}"#,
        )
        .unwrap();
        assert!(matches!(byo, TimeControl::ByoYomi { periods: 5, .. }));
        let corr: TimeControl =
            serde_json::from_str(r#"{"kind":"correspondence","move_seconds":86400,"max_seconds":259200}"#)
                .unwrap();
        assert!(matches!(corr, TimeControl::Correspondence { weekends_off: false, .. }));
    }
}
