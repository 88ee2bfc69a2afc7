//! Time management under a controller's clock (GTP `time_settings`, `kgs-time_settings`,
//! `time_left`): how long the next move's search may run.
//!
//! The clock is Canadian byo-yomi in general: main time, then periods of `byo` seconds for
//! `stones` moves each (Japanese byo-yomi with one period is `stones = 1`; absolute time has no
//! periods). The engine keeps its own account of the time it used, so that a controller that
//! never sends `time_left` is still obeyed; a `time_left` overrides that account.

use std::time::Duration;

/// The time settings of a game.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TimeSettings {
    /// Main time, seconds.
    pub main: f64,
    /// Byo-yomi period, seconds (0: absolute time, nothing after the main time).
    pub byo: f64,
    /// Moves per byo-yomi period.
    pub stones: u32,
}

impl TimeSettings {
    /// GTP `time_settings main byo stones`; `None` when it means "no time limit" (GTP says so
    /// for a byo-yomi time without stones).
    pub fn from_gtp(main: f64, byo: f64, stones: u32) -> Option<TimeSettings> {
        let unlimited = byo > 0.0 && stones == 0;
        (!unlimited && (main > 0.0 || byo > 0.0)).then_some(TimeSettings { main, byo, stones })
    }

    fn has_periods(&self) -> bool {
        self.byo > 0.0 && self.stones > 0
    }
}

/// Where one player stands: seconds left and, in byo-yomi, moves left in the period (0 while
/// in main time, as GTP `time_left` says it).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Left {
    pub seconds: f64,
    pub stones: u32,
}

/// One game's clock for two players, as the engine sees it.
#[derive(Debug, Clone, Default)]
pub struct GameClock {
    settings: Option<TimeSettings>,
    left: [Option<Left>; 2],
}

/// Share of the allotted time the search may use; the rest is kept for the controller, the
/// process and the machine's noise.
const USE: f64 = 0.9;
/// Seconds kept back on every move on top of that.
const MARGIN: f64 = 0.04;
/// The least a move's search is given.
const FLOOR: f64 = 0.02;

impl GameClock {
    pub fn new(settings: Option<TimeSettings>) -> GameClock {
        GameClock { settings, left: [None; 2] }
    }

    /// Whether the controller gave a clock (settings or a `time_left`); the engine itself only
    /// asks for a budget, which is `None` without one.
    #[cfg(test)]
    pub fn is_running(&self) -> bool {
        self.settings.is_some() || self.left.iter().any(Option::is_some)
    }

    /// The controller's `time_left`.
    pub fn set_left(&mut self, player: usize, seconds: f64, stones: u32) {
        if let Some(slot) = self.left.get_mut(player) {
            *slot = Some(Left { seconds, stones });
        }
    }

    /// Where `player` stands: the last `time_left` with our own use since, or the start.
    pub fn left(&self, player: usize) -> Option<Left> {
        self.left.get(player).copied().flatten().or_else(|| {
            let s = self.settings?;
            Some(if s.main > 0.0 || !s.has_periods() {
                Left { seconds: s.main, stones: 0 }
            } else {
                Left { seconds: s.byo, stones: s.stones }
            })
        })
    }

    /// Books `elapsed` seconds of `player`'s move, as a controller would.
    pub fn spent(&mut self, player: usize, elapsed: f64) {
        let Some(mut left) = self.left(player) else { return };
        let periods = self.settings.filter(TimeSettings::has_periods);
        left.seconds -= elapsed;
        if left.stones == 0 {
            // Main time; running out of it starts the first period with the overrun spent in it.
            if left.seconds < 0.0
                && let Some(s) = periods
            {
                left = Left { seconds: s.byo + left.seconds, stones: s.stones };
            } else {
                left.seconds = left.seconds.max(0.0);
            }
        } else {
            left.stones -= 1;
            if left.stones == 0
                && let Some(s) = periods
            {
                left = Left { seconds: s.byo, stones: s.stones };
            }
        }
        if let Some(slot) = self.left.get_mut(player) {
            *slot = Some(left);
        }
    }

    /// The time the next move's search may take, `moves_to_go` being how many more moves this
    /// player expects to make; `None` without a clock.
    pub fn budget(&self, player: usize, moves_to_go: f64) -> Option<Duration> {
        let left = self.left(player)?;
        let period = self.settings.filter(TimeSettings::has_periods);
        let allotted = if left.stones > 0 {
            // In byo-yomi: the period shared evenly by its moves.
            left.seconds / f64::from(left.stones)
        } else {
            // Main time spread over the moves to go; with periods after it, each move may also
            // use its share of a period (overrunning the main time starts a fresh one).
            let share = left.seconds / moves_to_go.max(1.0);
            match period {
                Some(s) => share + s.byo / f64::from(s.stones),
                None => share,
            }
        };
        Some(Duration::from_secs_f64((allotted * USE - MARGIN).max(FLOOR)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn secs(d: Option<Duration>) -> f64 {
        d.map_or(f64::NAN, |d| d.as_secs_f64())
    }

    #[test]
    fn a_byo_yomi_period_is_mostly_used_and_never_exceeded() {
        let clock = GameClock::new(TimeSettings::from_gtp(0.0, 1.0, 1));
        let t = secs(clock.budget(0, 40.0));
        assert!(t > 0.7 && t < 0.9, "{t}");
        // Canadian: 10 moves in 30 seconds.
        let clock = GameClock::new(TimeSettings::from_gtp(0.0, 30.0, 10));
        let t = secs(clock.budget(1, 40.0));
        assert!(t > 2.0 && t < 3.0, "{t}");
    }

    #[test]
    fn main_time_is_spread_over_the_moves_to_go() {
        let mut clock = GameClock::new(TimeSettings::from_gtp(60.0, 0.0, 0));
        let first = secs(clock.budget(0, 30.0));
        assert!(first > 1.0 && first < 2.0, "{first}");
        clock.spent(0, 50.0);
        assert_eq!(clock.left(0), Some(Left { seconds: 10.0, stones: 0 }));
        let later = secs(clock.budget(0, 30.0));
        assert!(later < first / 3.0, "{later}");
        // Absolute time never goes below zero, and the floor keeps a move possible.
        clock.spent(0, 20.0);
        assert_eq!(secs(clock.budget(0, 30.0)), FLOOR);
    }

    #[test]
    fn the_engine_keeps_its_own_account_of_periods() {
        let mut clock = GameClock::new(TimeSettings::from_gtp(2.0, 5.0, 2));
        clock.spent(0, 3.0); // main time over, one second into the first period
        assert_eq!(clock.left(0), Some(Left { seconds: 4.0, stones: 2 }));
        clock.spent(0, 1.0);
        assert_eq!(clock.left(0), Some(Left { seconds: 3.0, stones: 1 }));
        clock.spent(0, 1.0); // the period's last move: a fresh period
        assert_eq!(clock.left(0), Some(Left { seconds: 5.0, stones: 2 }));
        // The other player's clock did not move; a time_left overrides our account.
        assert_eq!(clock.left(1), Some(Left { seconds: 2.0, stones: 0 }));
        clock.set_left(1, 0.5, 1);
        assert!(secs(clock.budget(1, 10.0)) < 0.5);
    }

    #[test]
    fn no_limit_means_no_clock() {
        assert_eq!(TimeSettings::from_gtp(0.0, 10.0, 0), None);
        assert_eq!(TimeSettings::from_gtp(0.0, 0.0, 0), None);
        let clock = GameClock::new(None);
        assert!(!clock.is_running() && clock.budget(0, 10.0).is_none());
    }
}
