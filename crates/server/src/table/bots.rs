//! Computer seats: one search at a time per game, on a bounded pool of blocking threads.

use super::*;

/// Longest a server bot thinks per turn: a turn of several actions (BeSiege's drop, move and
/// end) shares it, or a level-3 BeSiege turn took three times as long.
const BOT_MS: i64 = 2_000;
/// The least an action of a turn whose time is used up still gets.
const BOT_MIN_MS: i64 = 20;
/// The level whose search decides for players who are gone.
const GONE_LEVEL: u8 = 5;

impl Table {
    /// Starts a search for a bot seat that must act (one at a time per game, on the bot pool).
    pub(super) async fn schedule_bots(&mut self, me: &mpsc::Sender<Command>) {
        if self.status != Status::Live || self.bot_pending.is_some() {
            return;
        }
        let waiting = self.game.waiting_for();
        // Computer seats, and seats whose player is gone (a resigned player's Clean-Up choice:
        // the search's ownership judges which of their stones are doomed).
        let gone = self.game.decided_for();
        let seq = self.seq();
        let silent: &[usize] = if self.bots_silent.0 == seq { &self.bots_silent.1 } else { &[] };
        let Some((seat, level)) = waiting.iter().filter(|p| !silent.contains(&p.index())).find_map(|p| {
            let s = self.seats.get(p.index())?;
            s.bot_level
                .map(|l| (p.index(), l))
                .or_else(|| gone.contains(p).then_some((p.index(), GONE_LEVEL)))
        }) else {
            return;
        };
        self.bot_pending = Some(seq);
        let now = now_ms();
        // The seat's last action was the one just before: the same turn goes on.
        let started = match self.bot_turn {
            Some((s, q, t)) if s == seat && q == seq => t,
            _ => now,
        };
        self.bot_turn = Some((seat, seq, started));
        // A deadline, not a duration: waiting for the bot pool counts against the turn too.
        let deadline = Instant::now() + Duration::from_millis(turn_time_left(started, now) as u64);
        let game = self.game.clone();
        // Games with people first: bot-only games draw on their own, smaller budget.
        let (bots, pool) = if self.seats.iter().any(|s| s.user_id.is_some()) {
            (self.bots.people.clone(), "people")
        } else {
            (self.bots.bots_only.clone(), "bots_only")
        };
        let me = me.clone();
        let seed = (self.id as u64).wrapping_mul(1_000_003).wrapping_add(seq);
        tokio::spawn(async move {
            // The permit bounds how many searches run at once; the search itself runs on the
            // blocking pool so it never holds up the async workers.
            let waiting = crate::metrics::waiting_search(pool);
            let Ok(permit) = bots.acquire_owned().await else { return };
            drop(waiting);
            let result = tokio::task::spawn_blocking(move || {
                let _permit = permit;
                let min = Duration::from_millis(BOT_MIN_MS as u64);
                let time = deadline.saturating_duration_since(Instant::now()).max(min);
                bot_action(&game, seat, level, seed, time)
            })
            .await;
            let cmd = match result {
                Ok(Some(action)) => Command::BotMove { seq, seat, action },
                _ => Command::BotFailed { seq, seat },
            };
            let _ = me.send(cmd).await;
        });
    }

    /// A search's answer for `seat`, asked in the position of action `seq`: committed if the game
    /// is still there, else dropped; a refused answer falls back to the simplest legal action.
    pub(super) async fn bot_moved(&mut self, seq: u64, seat: usize, action: Object) {
        if self.bot_pending != Some(seq) {
            return;
        }
        self.bot_pending = None;
        if self.seq() != seq {
            return;
        }
        if self.game.left_to_the_window(&action) {
            self.bot_silent(seq, seat);
            return;
        }
        match self.commit(seat, action).await {
            Ok(after) => {
                if let Some(turn) = self.bot_turn.as_mut().filter(|t| t.0 == seat) {
                    turn.1 = after;
                }
            }
            Err(e) => {
                tracing::warn!(game = self.id, seat, error = %e, "bot action refused");
                self.fallback(seat).await;
            }
        }
    }

    /// A search that failed (it found no action, or its thread panicked): the fallback acts.
    pub(super) async fn bot_failed(&mut self, seq: u64, seat: usize) {
        if self.bot_pending == Some(seq) {
            self.bot_pending = None;
            if self.seq() == seq {
                self.fallback(seat).await;
            }
        }
    }

    /// A computer seat that keeps its answer to itself (a decline the window's end gives
    /// anyway): it is not asked again in this position, so the other seats get their turn.
    pub(super) fn bot_silent(&mut self, seq: u64, seat: usize) {
        if self.bots_silent.0 != seq {
            self.bots_silent = (seq, Vec::new());
        }
        self.bots_silent.1.push(seat);
        // Only computer seats were left to answer, and each has: the window ends now. Bots
        // decide at once whatever they hold, so this says nothing about their hands, and no
        // person's answer is cut short.
        let silent = &self.bots_silent.1;
        if self.game.waiting_for().iter().all(|p| silent.contains(&p.index())) {
            self.clock.deadline_ms = Some(self.store.now());
        }
    }

    /// When a bot cannot decide: the rule system's mildest input (a pass, a skip).
    pub(super) async fn fallback(&mut self, seat: usize) {
        let input = self.game.fallback_input(Player(seat as u8));
        if let Err(e) = self.commit(seat, input).await {
            tracing::error!(game = self.id, seat, error = %e, "bot fallback refused");
        }
    }
}

/// The search time left in a bot's turn begun at `started` (ms), at `now`.
fn turn_time_left(started: i64, now: i64) -> i64 {
    (BOT_MS - (now - started).max(0)).max(BOT_MIN_MS)
}

/// A server bot's input, in the rule system's wire form (the search runs here, on a blocking
/// thread, for at most `time`).
fn bot_action(game: &AnyGame, seat: usize, level: u8, seed: u64, time: Duration) -> Option<Object> {
    let level = Level::new(level).ok()?;
    gobeyond_bots::computer_input(game, Player(seat as u8), level, seed, Some(time))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue 41: the actions of one turn share the turn's time.
    #[test]
    fn a_turn_of_several_actions_shares_one_budget() {
        assert_eq!(turn_time_left(1_000, 1_000), BOT_MS);
        assert_eq!(turn_time_left(1_000, 2_500), 500, "the second action gets what the first left");
        assert_eq!(turn_time_left(1_000, 9_000), BOT_MIN_MS, "a used-up turn still answers");
    }
}
