//! Server clocks. The clock is plain data (stored with the game after every action, so a
//! restart resumes it); the table asks it for the current deadline and tells it when a turn
//! ends.

use serde::{Deserialize, Serialize};

use crate::setup::TimeControl;

/// The clock of one game. Times in milliseconds.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Clock {
    pub control: ClockKind,
    /// Main time left per player (classic clocks); a correspondence clock's bank; a Canadian
    /// clock's time left in its period once main time is used up.
    pub remaining_ms: Vec<i64>,
    /// Byo-yomi periods left per player; under a Canadian clock, the stones still to play in
    /// the period (0: main time still runs).
    pub periods_left: Vec<u32>,
    /// When the current turn (or Clean-Up) started, and when it runs out.
    pub turn_started_ms: i64,
    pub deadline_ms: Option<i64>,
}

/// What limits a turn.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, ts_rs::TS)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ClockKind {
    /// Untimed.
    None,
    /// The rule system's own clock: every turn has `turn_ms`, a decision of several seats at
    /// once (GoBeyond's Clean-Up) has `decision_ms` (0 = unlimited; stored clocks before this
    /// name said `cleanup_ms`).
    PerTurn {
        turn_ms: i64,
        #[serde(alias = "cleanup_ms")]
        decision_ms: i64,
    },
    /// The game's time control, `{"kind": "classic", "time": {...}}` (see [`Clock::from_stored`]
    /// for the first version's form).
    #[serde(rename = "classic")]
    Control { time: TimeControl },
}

fn ms(seconds: f64) -> i64 {
    (seconds * 1000.0).round() as i64
}

/// Time for a decision of several seats at once under a time control (the dead-stone phase).
pub const DECISION_MS: i64 = 120_000;

impl Clock {
    /// A clock as stored with its game. Also reads the first version's form, in which the time
    /// control's `kind` sat beside the clock's own (`{"kind": "classic", "kind": "byo_yomi", …}`):
    /// no reader took it, so every restart gave classic players their whole time back.
    pub fn from_stored(text: &str) -> Option<Clock> {
        if let Ok(c) = serde_json::from_str(text) {
            return Some(c);
        }
        // A JSON value keeps the last of two equal keys: the time control's kind.
        let mut v: serde_json::Value = serde_json::from_str(text).ok()?;
        let time: TimeControl = serde_json::from_value(v.get_mut("control")?.take()).ok()?;
        v["control"] = serde_json::json!({ "kind": "classic", "time": time });
        serde_json::from_value(v).ok()
    }

    pub fn new(kind: ClockKind, players: usize) -> Clock {
        let (main, periods) = match kind {
            ClockKind::Control { time: TimeControl::Absolute { main_seconds } }
            | ClockKind::Control { time: TimeControl::Fischer { main_seconds, .. } }
            | ClockKind::Control { time: TimeControl::Canadian { main_seconds, .. } } => {
                (ms(main_seconds), 0)
            }
            ClockKind::Control { time: TimeControl::ByoYomi { main_seconds, periods, .. } } => {
                (ms(main_seconds), periods)
            }
            ClockKind::Control { time: TimeControl::Correspondence { move_seconds, .. } } => {
                (ms(move_seconds), 0)
            }
            _ => (0, 0),
        };
        Clock {
            control: kind,
            remaining_ms: vec![main; players],
            periods_left: vec![periods; players],
            turn_started_ms: 0,
            deadline_ms: None,
        }
    }

    /// Starts a turn of `player` (`None`: Clean-Up, or nobody) at `now`, and sets the deadline.
    pub fn start_turn(&mut self, player: Option<usize>, simultaneous: bool, now: i64) {
        self.start_decision(player, simultaneous, None, now);
    }

    /// [`Clock::start_turn`], with the rule system's own time for a decision of several seats
    /// under a time control (Tribal Go's reaction windows are short).
    pub fn start_decision(
        &mut self,
        player: Option<usize>,
        simultaneous: bool,
        decision_ms: Option<i64>,
        now: i64,
    ) {
        self.turn_started_ms = now;
        self.deadline_ms = match (self.control, player) {
            (ClockKind::None, _) => None,
            (ClockKind::PerTurn { decision_ms: ms, .. }, _) if simultaneous => (ms > 0).then_some(now + ms),
            (ClockKind::PerTurn { turn_ms, .. }, Some(_)) => (turn_ms > 0).then_some(now + turn_ms),
            // A decision of several seats at once (classic Go's dead stones) under a time
            // control: a fixed time, after which the clock accepts for whoever has not.
            (ClockKind::Control { time: tc }, None) if simultaneous => {
                (tc != TimeControl::None).then_some(now + decision_ms.unwrap_or(DECISION_MS))
            }
            (ClockKind::Control { time: tc }, Some(p)) => self.control_deadline(tc, p, now),
            _ => None,
        };
    }

    /// When the turn of `player` that starts at `now` runs out under time control `tc`.
    fn control_deadline(&self, tc: TimeControl, p: usize, now: i64) -> Option<i64> {
        let left = self.remaining_ms.get(p).copied().unwrap_or(0);
        let periods = self.periods_left.get(p).copied().unwrap_or(0);
        match tc {
            TimeControl::None => None,
            // Byo-yomi: every period left can be used up in turn before the player loses (one
            // period only once made 1 s + 3 × 2 s end at 3 s).
            TimeControl::ByoYomi { period_seconds, .. } => {
                Some(now + left + ms(period_seconds).saturating_mul(i64::from(periods)))
            }
            // Main time, then a whole period for this move; in overtime, what the period has left.
            TimeControl::Canadian { period_seconds, .. } if periods == 0 => {
                Some(now + left + ms(period_seconds))
            }
            TimeControl::Simple { move_seconds } => Some(now + ms(move_seconds)),
            TimeControl::Correspondence { weekends_off, .. } => {
                Some(crate::running_time::after(now, left, weekends_off))
            }
            _ => Some(now + left),
        }
    }

    /// A window of fixed length the rule system gives the decision now, under any clock or
    /// none (Tribal Go's reaction window): it ends `window_ms` after the decision began (0: at
    /// once). None leaves the deadline as the clock set it.
    pub fn apply_window(&mut self, window_ms: Option<i64>) {
        if let Some(ms) = window_ms {
            self.deadline_ms = Some(self.turn_started_ms + ms.max(0));
        }
    }

    /// Charges `player` for the turn that ends at `now` (main time, increments, periods).
    pub fn end_turn(&mut self, player: usize, now: i64) {
        self.end_turn_paused(player, now, &[]);
    }

    /// [`Clock::end_turn`], for a player whose correspondence clock stood still in `pauses`
    /// (their vacations); weekends are not charged under a clock that takes them off.
    pub fn end_turn_paused(&mut self, player: usize, now: i64, pauses: &[(i64, i64)]) {
        let ClockKind::Control { time: tc } = self.control else { return };
        let used = match tc {
            TimeControl::Correspondence { weekends_off, .. } => {
                crate::running_time::between_pauses(self.turn_started_ms, now, weekends_off, pauses)
            }
            _ => (now - self.turn_started_ms).max(0),
        };
        let Some(left) = self.remaining_ms.get_mut(player) else { return };
        match tc {
            TimeControl::None | TimeControl::Simple { .. } => {}
            TimeControl::Absolute { .. } => *left = (*left - used).max(0),
            TimeControl::Fischer { increment_seconds, max_seconds, .. } => {
                let more = (*left - used).max(0) + ms(increment_seconds);
                *left = max_seconds.map_or(more, |max| more.min(ms(max)));
            }
            TimeControl::Correspondence { move_seconds, max_seconds, .. } => {
                *left = ((*left - used).max(0) + ms(move_seconds)).min(ms(max_seconds));
            }
            TimeControl::Canadian { stones, period_seconds, .. } => {
                let Some(to_play) = self.periods_left.get_mut(player) else { return };
                if *to_play == 0 && used <= *left {
                    *left -= used;
                    return;
                }
                // Overtime: this move counts among the period's stones (a move that used main
                // time up starts the period with what it took past it).
                let over = if *to_play == 0 { used - *left } else { used };
                let (period_left, stones_left) =
                    if *to_play == 0 { (ms(period_seconds), stones) } else { (*left, *to_play) };
                *left = (period_left - over).max(0);
                *to_play = stones_left.saturating_sub(1);
                if *to_play == 0 {
                    // The period's stones are played: a new period, whole.
                    *left = ms(period_seconds);
                    *to_play = stones;
                }
            }
            TimeControl::ByoYomi { period_seconds, .. } => {
                if used <= *left {
                    *left -= used;
                } else {
                    // Each whole period overrun is lost; the period in use resets.
                    let over = used - *left;
                    *left = 0;
                    let lost = (over / ms(period_seconds).max(1)) as u32;
                    self.periods_left[player] = self.periods_left[player].saturating_sub(lost);
                }
            }
        }
    }

    /// Takes back the increment a move now taken back earned `player` (Fischer and
    /// correspondence: nothing else adds time). Without this, each move-and-undo gained it.
    pub fn take_back_increment(&mut self, player: usize) {
        let increment = match self.control {
            ClockKind::Control { time: TimeControl::Fischer { increment_seconds, .. } } => increment_seconds,
            ClockKind::Control { time: TimeControl::Correspondence { move_seconds, .. } } => move_seconds,
            _ => return,
        };
        if let Some(left) = self.remaining_ms.get_mut(player) {
            *left = (*left - ms(increment)).max(0);
        }
    }

    /// Charges `player` for the turn cut short at `now` (by an undo) without the increment a
    /// move would earn.
    pub fn interrupt_turn(&mut self, player: usize, now: i64) {
        self.end_turn(player, now);
        self.take_back_increment(player);
    }

    /// The clock as clients see it.
    pub fn view(&self, now: i64) -> crate::protocol::ClockView {
        crate::protocol::ClockView {
            control: self.control,
            remaining_ms: self.remaining_ms.clone(),
            periods_left: self.periods_left.clone(),
            deadline_ms: self.deadline_ms,
            left_ms: self.deadline_ms.map(|d| (d - now).max(0)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_window_has_its_length_without_a_clock() {
        let mut c = Clock::new(ClockKind::Control { time: TimeControl::None }, 3);
        c.start_decision(None, true, None, 1_000);
        assert_eq!(c.deadline_ms, None, "an untimed decision has no end");
        c.apply_window(Some(5_000));
        assert_eq!(c.deadline_ms, Some(6_000));
        c.apply_window(Some(0));
        assert_eq!(c.deadline_ms, Some(1_000), "a window ended at once is due now");
        c.apply_window(None);
        assert_eq!(c.deadline_ms, Some(1_000));
    }

    #[test]
    fn fischer_adds_the_increment_after_each_move() {
        let mut c = Clock::new(
            ClockKind::Control {
                time: TimeControl::Fischer { main_seconds: 10.0, increment_seconds: 2.0, max_seconds: None },
            },
            2,
        );
        c.start_turn(Some(0), false, 1_000);
        assert_eq!(c.deadline_ms, Some(11_000));
        c.end_turn(0, 4_000);
        assert_eq!(c.remaining_ms, vec![9_000, 10_000]);
    }

    #[test]
    fn a_move_taken_back_takes_its_increment_back() {
        let mut c = Clock::new(
            ClockKind::Control {
                time: TimeControl::Fischer { main_seconds: 10.0, increment_seconds: 2.0, max_seconds: None },
            },
            2,
        );
        c.start_turn(Some(0), false, 0);
        c.end_turn(0, 1_000);
        assert_eq!(c.remaining_ms[0], 11_000);
        c.take_back_increment(0);
        assert_eq!(c.remaining_ms[0], 9_000, "the second used stays charged");
        c.start_turn(Some(1), false, 0);
        c.interrupt_turn(1, 3_000);
        assert_eq!(c.remaining_ms[1], 7_000, "a turn cut short is charged, without an increment");
    }

    #[test]
    fn byo_yomi_loses_whole_periods_only() {
        let mut c = Clock::new(
            ClockKind::Control {
                time: TimeControl::ByoYomi { main_seconds: 1.0, periods: 3, period_seconds: 5.0 },
            },
            2,
        );
        c.start_turn(Some(1), false, 0);
        assert_eq!(c.deadline_ms, Some(16_000), "main time plus every period");
        c.end_turn(1, 4_000);
        assert_eq!((c.remaining_ms[1], c.periods_left[1]), (0, 3), "3 s into the first period: nothing lost");
        c.start_turn(Some(1), false, 10_000);
        c.end_turn(1, 21_000);
        assert_eq!(c.periods_left[1], 1, "11 s: two periods used up");
        c.start_turn(Some(1), false, 30_000);
        assert_eq!(c.deadline_ms, Some(35_000), "one period left");
    }

    #[test]
    fn byo_yomi_deadline_counts_every_period() {
        // Main 1 s and 3 periods of 2 s: the player may think 7 s before losing.
        let mut c = Clock::new(
            ClockKind::Control {
                time: TimeControl::ByoYomi { main_seconds: 1.0, periods: 3, period_seconds: 2.0 },
            },
            2,
        );
        c.start_turn(Some(0), false, 0);
        assert_eq!(c.deadline_ms, Some(7_000));
        // A move after 4 s: main time and one whole period gone, two periods left.
        c.end_turn(0, 4_000);
        assert_eq!((c.remaining_ms[0], c.periods_left[0]), (0, 2));
        c.start_turn(Some(0), false, 10_000);
        assert_eq!(c.deadline_ms, Some(14_000));
    }

    #[test]
    fn gobeyond_turns_and_cleanup_have_their_own_limits() {
        let mut c = Clock::new(ClockKind::PerTurn { turn_ms: 20_000, decision_ms: 60_000 }, 3);
        c.start_turn(Some(2), false, 5);
        assert_eq!(c.deadline_ms, Some(20_005));
        c.start_turn(None, true, 100);
        assert_eq!(c.deadline_ms, Some(60_100));
    }

    #[test]
    fn stored_clocks_of_both_versions_load() {
        let mut c = Clock::new(
            ClockKind::Control {
                time: TimeControl::ByoYomi { main_seconds: 1.0, periods: 3, period_seconds: 2.0 },
            },
            2,
        );
        c.start_turn(Some(0), false, 5);
        c.remaining_ms[1] = 400;
        let text = serde_json::to_string(&c).unwrap_or_default();
        assert_eq!(Clock::from_stored(&text), Some(c.clone()));
        // The first version's form, with two `kind` keys.
        let old = r#"{"control":{"kind":"classic","kind":"byo_yomi","main_seconds":1.0,"periods":3,"period_seconds":2.0},"remaining_ms":[1000,400],"periods_left":[3,3],"turn_started_ms":5,"deadline_ms":7005}"#;
        assert_eq!(Clock::from_stored(old), Some(c));
        let gob = r#"{"control":{"kind":"per_turn","turn_ms":20000,"cleanup_ms":60000},"remaining_ms":[0,0],"periods_left":[0,0],"turn_started_ms":9,"deadline_ms":20009}"#;
        assert_eq!(Clock::from_stored(gob).map(|c| c.deadline_ms), Some(Some(20_009)));
        assert_eq!(Clock::from_stored("{}"), None);
    }

    fn control(time: TimeControl) -> Clock {
        Clock::new(ClockKind::Control { time }, 2)
    }

    #[test]
    fn a_fischer_cap_stops_the_bank_growing() {
        let mut c = control(TimeControl::Fischer {
            main_seconds: 10.0,
            increment_seconds: 5.0,
            max_seconds: Some(12.0),
        });
        c.start_turn(Some(0), false, 0);
        c.end_turn(0, 1_000);
        assert_eq!(c.remaining_ms[0], 12_000, "9 s + 5 s, capped at 12 s");
    }

    #[test]
    fn canadian_asks_for_stones_in_each_period() {
        let mut c = control(TimeControl::Canadian { main_seconds: 10.0, stones: 2, period_seconds: 20.0 });
        c.start_turn(Some(0), false, 0);
        assert_eq!(c.deadline_ms, Some(30_000), "main time, then a period for this move");
        c.end_turn(0, 15_000);
        assert_eq!(
            (c.remaining_ms[0], c.periods_left[0]),
            (15_000, 1),
            "5 s into the period, one stone to go"
        );
        c.start_turn(Some(0), false, 20_000);
        assert_eq!(c.deadline_ms, Some(35_000));
        c.end_turn(0, 30_000);
        assert_eq!((c.remaining_ms[0], c.periods_left[0]), (20_000, 2), "stones played: a new period, whole");
    }

    #[test]
    fn simple_gives_every_move_the_same_time() {
        let mut c = control(TimeControl::Simple { move_seconds: 30.0 });
        c.start_turn(Some(1), false, 1_000);
        assert_eq!(c.deadline_ms, Some(31_000));
        c.end_turn(1, 29_000);
        c.start_turn(Some(1), false, 40_000);
        assert_eq!(c.deadline_ms, Some(70_000), "nothing carried over");
    }

    #[test]
    fn correspondence_banks_days_up_to_its_maximum() {
        const DAY: i64 = 86_400_000;
        let mut c = control(TimeControl::Correspondence {
            move_seconds: 3.0 * 86_400.0,
            max_seconds: 7.0 * 86_400.0,
            weekends_off: false,
        });
        c.start_turn(Some(0), false, 0);
        assert_eq!(c.deadline_ms, Some(3 * DAY));
        c.end_turn(0, DAY / 2);
        assert_eq!(c.remaining_ms[0], 5 * DAY + DAY / 2);
        c.start_turn(Some(0), false, DAY);
        c.end_turn(0, DAY);
        assert_eq!(c.remaining_ms[0], 7 * DAY, "at most 7 days in the bank");
        // A vacation of two days in a turn of three is not charged.
        c.start_turn(Some(1), false, 10 * DAY);
        c.end_turn_paused(1, 13 * DAY, &[(11 * DAY, 13 * DAY)]);
        assert_eq!(c.remaining_ms[1], 5 * DAY);
    }

    #[test]
    fn correspondence_with_weekends_off_skips_saturday_and_sunday() {
        const DAY: i64 = 86_400_000;
        let friday = 1_795_737_600_000; // 2026-11-27, 00:00 UTC
        let mut c = control(TimeControl::Correspondence {
            move_seconds: 86_400.0,
            max_seconds: 3.0 * 86_400.0,
            weekends_off: true,
        });
        c.start_turn(Some(0), false, friday + DAY / 2);
        assert_eq!(c.deadline_ms, Some(friday + 3 * DAY + DAY / 2), "Friday noon + 1 day = Monday noon");
        c.end_turn(0, friday + 3 * DAY);
        assert_eq!(c.remaining_ms[0], DAY + DAY / 2, "half a day used, a day added");
    }
}
