//! Every action's one path: a human's checked for seat and turn, a chance outcome drawn by
//! the server, a time-out sent by the clock; each applied, logged, acknowledged and broadcast.

use super::*;

impl Table {
    /// Chance events (dice, card draws) are drawn here, by the server, and logged as inputs:
    /// replays stay deterministic and no player ever holds a seed. Bounded, so that no rule
    /// system can keep a table busy.
    pub(super) async fn resolve_chance(&mut self) {
        for _ in 0..64 {
            if self.status != Status::Live {
                return;
            }
            let Some((seat, mut input)) = self.game.draw_chance(&mut self.chance) else { return };
            // A test game's fixed outcome of this kind, if one is left (see `GameSetup::rigged`).
            let kind = input.get("type").cloned();
            if let Some(i) = self.setup.rigged.iter().position(|r| r.get("type") == kind.as_ref()) {
                let rigged = self.setup.rigged.remove(i);
                let mut trial = self.game.clone();
                if trial.submit(seat, &rigged).is_ok() {
                    input = rigged;
                }
            }
            if let Err(e) = self.commit(seat.index(), input).await {
                tracing::error!(game = self.id, error = %e, "a chance outcome was refused");
                return;
            }
        }
    }

    /// A human's action sent after action `after` (when the client said): refused as stale if
    /// the game has moved on since, so that nobody's move lands in a position they did not see.
    pub(super) async fn act_after(
        &mut self,
        user: i64,
        seat: Option<usize>,
        action: Object,
        after: Option<u64>,
    ) -> Result<u64, ApiError> {
        match after {
            Some(after) if after != self.seq() => Err(ApiError::Stale(format!(
                "the game has moved on (action {} now, yours followed {after}): watch it again to see where it stands",
                self.seq()
            ))),
            _ => self.act(user, seat, action).await,
        }
    }

    /// A human's action, checked for seat and turn, then committed.
    async fn act(&mut self, user: i64, seat: Option<usize>, action: Object) -> Result<u64, ApiError> {
        match self.status {
            Status::Open => return Err(ApiError::Conflict("the game has not started".into())),
            Status::Finished => return Err(ApiError::Conflict("the game is over".into())),
            Status::Live => {}
        }
        let mine: Vec<usize> =
            self.seats.iter().filter(|s| s.user_id == Some(user)).map(|s| s.seat).collect();
        if mine.is_empty() {
            return Err(ApiError::Forbidden("you hold no seat in this game".into()));
        }
        let waiting: Vec<usize> = self.game.waiting_for().iter().map(|p| p.index()).collect();
        let seat = match seat {
            Some(s) if !mine.contains(&s) => {
                return Err(ApiError::Forbidden(format!("{} is not yours", self.seat_words(s))));
            }
            Some(s) => s,
            None => *mine.iter().find(|s| waiting.contains(s)).unwrap_or(&mine[0]),
        };
        if !self.game.seat_may_send(&action) {
            return Err(ApiError::BadRequest(
                "time-outs are the server clock's to send, and chance outcomes the server's".into(),
            ));
        }
        // Whose turn it is is the rule system's to judge: some actions (a resignation) may be
        // sent at any time, and its refusal names the players as the board shows them.
        self.commit(seat, action).await
    }

    /// A seat as the page shows it: "Seat 2 (ada)", counted from 1.
    pub(super) fn seat_words(&self, seat: usize) -> String {
        match self.seats.get(seat).map(seat_name).filter(|n| !n.is_empty()) {
            Some(name) => format!("Seat {} ({name})", seat + 1),
            None => format!("Seat {}", seat + 1),
        }
    }

    /// Applies, logs, acknowledges: the one path for every action (humans, bots, the clock).
    pub(super) async fn commit(&mut self, seat: usize, input: Object) -> Result<u64, ApiError> {
        let (before_player, before_simultaneous) = self.turn();
        let prior_clock = self.clock.clone();
        self.game.submit(Player(seat as u8), &input).map_err(ApiError::Refused)?;
        // Logged and broadcast in the system's own written form (placements with both the
        // node number and its label), however it was sent.
        let logged = self.game.input_count().checked_sub(1).and_then(|i| self.game.input(i));
        let action = match logged {
            Some((p, input)) => RecordedAction { player: p.0, at_ms: None, input },
            None => RecordedAction { player: seat as u8, at_ms: None, input },
        };
        let now = self.store.now();
        let (player, simultaneous) = self.turn();
        if before_player == Some(seat) && !before_simultaneous {
            let pauses = self.pauses_of(seat, self.clock.turn_started_ms).await;
            self.clock.end_turn_paused(seat, now, &pauses);
        }
        if (player, simultaneous) != (before_player, before_simultaneous) || !simultaneous {
            self.clock.start_decision(player, simultaneous, self.game.decision_ms(), now);
        }
        // A window keeps its start; an answer may end it (a Reject played).
        self.clock.apply_window(self.game.window_ms());
        let text = serde_json::to_string(&action).map_err(|e| ApiError::Internal(e.to_string()))?;
        let clock = stored_clock(&self.clock)?;
        let seq = self.seq() + 1;
        let started = Instant::now();
        let appended =
            self.store.append_action(self.id, seq, &text, clock.as_deref(), self.fence.as_ref()).await;
        if appended.is_ok() {
            crate::metrics::committed(self.game.system(), started.elapsed());
        }
        if let Err(e) = appended {
            // Not committed: the action never happened. Rebuild the state from the log.
            tracing::error!(game = self.id, error = %e, "could not log an action");
            if matches!(e, ApiError::Fenced(_)) {
                // Another instance runs the game now: this copy stops.
                self.gone = true;
            }
            self.clock = prior_clock;
            self.reload_game().await;
            return Err(e);
        }
        self.actions.push(text);
        self.standing.push(seq);
        if seq.is_multiple_of(32) {
            // A game grows with its log and events: measured again now and then, not at every
            // action (events are measured by their JSON).
            self.measure();
        }
        self.withdraw_undo();
        if self.game.outcome().is_some()
            && let Err(e) = self.finish().await
        {
            tracing::error!(game = self.id, error = %e, "could not mark the game finished");
        }
        self.mail_after_action(seq).await;
        let finished = self.status == Status::Finished;
        self.broadcast_update(seq, &action);
        if finished && self.setup.rated {
            // The seats' new ratings and what the game changed.
            self.broadcast(ServerMessage::Lobby { game: self.id, info: self.info() });
        }
        Ok(seq)
    }

    pub(super) async fn reload_game(&mut self) {
        match replay(&self.setup, &self.actions) {
            Ok(r) => {
                self.game = r.game;
                self.standing = r.standing;
                self.last_take_back = r.last_take_back;
            }
            Err(e) => tracing::error!(game = self.id, error = %e, "the log no longer replays"),
        }
    }

    /// The clock ran out: the seat to move (or every seat of a decision) gets the rule system's
    /// time-out input, unless a correspondence clock finds it still in time.
    pub(super) async fn time_out(&mut self) {
        if !self.owned() {
            self.gone = true;
            return;
        }
        let (player, simultaneous) = self.turn();
        let now = self.store.now();
        if self.clock.deadline_ms.is_none_or(|d| d > now) {
            return;
        }
        if let (Some(p), false) = (player, simultaneous)
            && self.still_in_time(p, now).await
        {
            return;
        }
        if simultaneous {
            for p in self.game.waiting_for() {
                if let Err(e) = self.commit(p.index(), self.game.timeout_input(p)).await {
                    tracing::error!(game = self.id, error = %e, "Clean-Up timeout failed");
                    return;
                }
            }
        } else if let Some(p) = player {
            match self.commit(p, self.game.timeout_input(Player(p as u8))).await {
                Ok(_) => {
                    let name = self.seats.get(p).map(seat_name).unwrap_or_default();
                    self.say(format!("{name} ran out of time")).await;
                }
                Err(e) => {
                    tracing::error!(game = self.id, error = %e, "timeout failed");
                    // Try again in a second rather than spinning.
                    self.clock.deadline_ms = Some(now + 1000);
                }
            }
        }
    }
}

/// The clock as stored with each action: only games under a clock, or in a window (which has
/// a length in untimed games too: a reload keeps its end), have one to keep.
pub(super) fn stored_clock(clock: &Clock) -> Result<Option<String>, ApiError> {
    let timed = clock.deadline_ms.is_some()
        || !matches!(
            clock.control,
            ClockKind::None | ClockKind::Control { time: crate::setup::TimeControl::None }
        );
    if !timed {
        return Ok(None);
    }
    serde_json::to_string(clock).map(Some).map_err(|e| ApiError::Internal(e.to_string()))
}
