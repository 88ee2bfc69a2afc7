//! Seats: joining and leaving an open game, and the start when every seat is taken.

use gobeyond_rules::system::SeatHistory;

use super::*;

impl Table {
    pub(super) async fn join(
        &mut self,
        user: &User,
        seat: Option<usize>,
        invite: Option<String>,
    ) -> Result<usize, ApiError> {
        if self.status != Status::Open {
            return Err(ApiError::Conflict("the game has already started".into()));
        }
        if self.seats.iter().any(|s| s.user_id == Some(user.id)) {
            return Err(ApiError::Conflict("you already hold a seat in this game".into()));
        }
        if self.setup.rated && user.kind == "guest" {
            return Err(ApiError::Forbidden("rated games need an account: register to join this one".into()));
        }
        let invited = invite.is_some() && invite == self.invite;
        // A game that is not public is by invitation for every seat (a stranger once joined one
        // by its sequential id). A seat kept for a player (a rematch's) is theirs alone, with
        // or without the invitation (a spectator of the old game once took one).
        let free = |s: &SeatRow| {
            s.user_id.is_none()
                && s.bot_level.is_none()
                && match (self.setup.reserved_for(s.seat), self.setup.seats.get(s.seat)) {
                    (Some(kept), _) => kept == user.id,
                    (None, Some(SeatChoice::Invite)) => invited,
                    _ => invited || self.public,
                }
        };
        let seat = match seat {
            Some(n) => {
                let s =
                    self.seats.get(n).ok_or_else(|| ApiError::BadRequest(format!("there is no seat {n}")))?;
                if !free(s) {
                    return Err(self.not_free(s));
                }
                n
            }
            None => self.seats.iter().find(|s| free(s)).map(|s| s.seat).ok_or_else(|| {
                let kept = self.seats.iter().any(|s| {
                    s.user_id.is_none() && self.setup.reserved_for(s.seat).is_some_and(|k| k != user.id)
                });
                if kept {
                    ApiError::Forbidden(
                        "the free seats of this rematch are kept for the players of the game it follows"
                            .into(),
                    )
                } else {
                    ApiError::Conflict("the game is full (or its free seats need the invite link)".into())
                }
            })?,
        };
        self.store.set_seat(self.id, seat, Some(user.id)).await?;
        self.seats[seat].user_id = Some(user.id);
        self.seats[seat].user_name = Some(user.name.clone());
        self.load_ratings().await?;
        self.say(format!("{} joined", user.name)).await;
        if self.seats.iter().all(|s| s.user_id.is_some() || s.bot_level.is_some()) {
            self.start().await?;
        } else {
            self.broadcast(ServerMessage::Lobby { game: self.id, info: self.info() });
        }
        Ok(seat)
    }

    /// Why seat `s` may not be taken.
    fn not_free(&self, s: &SeatRow) -> ApiError {
        if s.user_id.is_none() && s.bot_level.is_none() && self.setup.reserved_for(s.seat).is_some() {
            return ApiError::Forbidden(format!(
                "seat {} is kept for a player of the game this rematch follows",
                s.seat
            ));
        }
        ApiError::Conflict(format!("seat {} is not free", s.seat))
    }

    pub(super) async fn leave(&mut self, user: i64) -> Result<(), ApiError> {
        if self.status != Status::Open {
            return Err(ApiError::Conflict("the game has started: resign instead".into()));
        }
        let Some(seat) = self.seats.iter().position(|s| s.user_id == Some(user)) else {
            return Err(ApiError::Conflict("you hold no seat in this game".into()));
        };
        self.store.set_seat(self.id, seat, None).await?;
        self.seats[seat].user_id = None;
        self.seats[seat].user_name = None;
        self.ratings[seat] = None;
        self.broadcast(ServerMessage::Lobby { game: self.id, info: self.info() });
        Ok(())
    }

    pub(super) async fn start(&mut self) -> Result<(), ApiError> {
        self.settings_from_history().await?;
        self.game = self.setup.new_game()?;
        let (player, simultaneous) = self.turn();
        self.clock.start_decision(player, simultaneous, self.game.decision_ms(), self.store.now());
        self.clock.apply_window(self.game.window_ms());
        let clock = serde_json::to_string(&self.clock).map_err(|e| ApiError::Internal(e.to_string()))?;
        self.store.start_game(self.id, &clock, self.fence.as_ref()).await?;
        self.status = Status::Live;
        self.mail_after_action(0).await;
        self.broadcast(ServerMessage::Started { game: self.id, info: self.info() });
        self.send_sync_to_all();
        Ok(())
    }
}

impl Table {
    /// Settings a system takes from its players' history when the creator left them out
    /// (Tribal Go's handicap): asked of the system when the game starts, and stored with the
    /// game's settings so that it replays the same.
    async fn settings_from_history(&mut self) -> Result<(), ApiError> {
        let Ok(system) = self.setup.rules.info() else { return Ok(()) };
        if !system.needs_history(&self.setup.rules.settings) {
            return Ok(());
        }
        let mut history = Vec::with_capacity(self.seats.len());
        for seat in &self.seats {
            history.push(match seat.user_id {
                Some(user) => self.store.results(user, system.name).await?,
                None => SeatHistory::default(),
            });
        }
        let Some(settings) = system.settings_from_history(&self.setup.rules.settings, &history) else {
            return Ok(());
        };
        self.setup.rules.settings.extend(settings);
        let text = serde_json::to_string(&self.setup).map_err(|e| ApiError::Internal(e.to_string()))?;
        self.store.set_setup(self.id, &text).await
    }
}

/// The name shown for a seat: its player's, a bot's description, or nothing while open.
pub fn seat_name(s: &SeatRow) -> String {
    match (&s.user_name, s.bot_level) {
        (Some(n), _) => n.clone(),
        (None, Some(l)) => format!("bot (level {l})"),
        (None, None) => String::new(),
    }
}
