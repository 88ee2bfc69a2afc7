//! Server clocks. The clock is plain data (stored with the game after every action, so a
//! restart resumes it); the table asks it for the current deadline and tells it when a turn
//! ends.

use serde::{Deserialize, Serialize};

use crate::setup::TimeControl;

/// The clock of one game. Times in milliseconds.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Clock {
    pub control: ClockKind,
    /// Main time left per player (classic clocks).
    pub remaining_ms: Vec<i64>,
    /// Byo-yomi periods left per player.
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
    /// once (GoBeyond's Clean-Up) has `cleanup_ms` (0 = unlimited).
    PerTurn { turn_ms: i64, cleanup_ms: i64 },
    /// The game's time control (stored as `classic` since the first version).
    #[serde(rename = "classic")]
    Control(TimeControl),
}

fn ms(seconds: f64) -> i64 {
    (seconds * 1000.0).round() as i64
}

impl Clock {
    pub fn new(kind: ClockKind, players: usize) -> Clock {
        let (main, periods) = match kind {
            ClockKind::Control(TimeControl::Absolute { main_seconds })
            | ClockKind::Control(TimeControl::Fischer { main_seconds, .. }) => (ms(main_seconds), 0),
            ClockKind::Control(TimeControl::ByoYomi { main_seconds, periods, .. }) => {
                (ms(main_seconds), periods)
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
    pub fn start_turn(&mut self, player: Option<usize>, cleanup: bool, now: i64) {
        self.turn_started_ms = now;
        self.deadline_ms = match (self.control, player) {
            (ClockKind::None, _) => None,
            (ClockKind::PerTurn { cleanup_ms, .. }, _) if cleanup => {
                (cleanup_ms > 0).then_some(now + cleanup_ms)
            }
            (ClockKind::PerTurn { turn_ms, .. }, Some(_)) => (turn_ms > 0).then_some(now + turn_ms),
            (ClockKind::Control(tc), Some(p)) => {
                let period = match tc {
                    TimeControl::ByoYomi { period_seconds, .. } if self.periods_left[p] > 0 => {
                        ms(period_seconds)
                    }
                    _ => 0,
                };
                match tc {
                    TimeControl::None => None,
                    _ => Some(now + self.remaining_ms[p] + period),
                }
            }
            _ => None,
        };
    }

    /// Charges `player` for the turn that ends at `now` (main time, increments, periods).
    pub fn end_turn(&mut self, player: usize, now: i64) {
        let ClockKind::Control(tc) = self.control else { return };
        let used = (now - self.turn_started_ms).max(0);
        let Some(left) = self.remaining_ms.get_mut(player) else { return };
        match tc {
            TimeControl::None => {}
            TimeControl::Absolute { .. } => *left = (*left - used).max(0),
            TimeControl::Fischer { increment_seconds, .. } => {
                *left = (*left - used).max(0) + ms(increment_seconds)
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
    fn fischer_adds_the_increment_after_each_move() {
        let mut c = Clock::new(
            ClockKind::Control(TimeControl::Fischer { main_seconds: 10.0, increment_seconds: 2.0 }),
            2,
        );
        c.start_turn(Some(0), false, 1_000);
        assert_eq!(c.deadline_ms, Some(11_000));
        c.end_turn(0, 4_000);
        assert_eq!(c.remaining_ms, vec![9_000, 10_000]);
    }

    #[test]
    fn byo_yomi_loses_whole_periods_only() {
        let mut c = Clock::new(
            ClockKind::Control(TimeControl::ByoYomi { main_seconds: 1.0, periods: 3, period_seconds: 5.0 }),
            2,
        );
        c.start_turn(Some(1), false, 0);
        assert_eq!(c.deadline_ms, Some(6_000), "main time plus one period");
        c.end_turn(1, 4_000);
        assert_eq!((c.remaining_ms[1], c.periods_left[1]), (0, 3), "3 s into the first period: nothing lost");
        c.start_turn(Some(1), false, 10_000);
        c.end_turn(1, 21_000);
        assert_eq!(c.periods_left[1], 1, "11 s: two periods used up");
    }

    #[test]
    fn gobeyond_turns_and_cleanup_have_their_own_limits() {
        let mut c = Clock::new(ClockKind::PerTurn { turn_ms: 20_000, cleanup_ms: 60_000 }, 3);
        c.start_turn(Some(2), false, 5);
        assert_eq!(c.deadline_ms, Some(20_005));
        c.start_turn(None, true, 100);
        assert_eq!(c.deadline_ms, Some(60_100));
    }
}
