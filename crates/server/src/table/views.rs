//! What watchers see: the game's summary, the full picture for a (re)connecting client, and
//! each action's update, serialised once per kind of viewer.

use super::*;

impl Table {
    pub(super) fn names(&self) -> Vec<PlayerInfo> {
        self.seats.iter().map(|s| PlayerInfo { name: seat_name(s) }).collect()
    }

    pub(super) fn info(&self) -> GameInfo {
        let now = self.store.now();
        GameInfo {
            id: self.id,
            status: self.status,
            creator: self.creator,
            rules: self.setup.rules.clone(),
            map: self.setup.map.clone(),
            players: self.setup.players,
            time: self.setup.time,
            seats: self
                .seats
                .iter()
                .map(|s| SeatView {
                    seat: s.seat,
                    kind: self.setup.seats.get(s.seat).copied(),
                    user: s.user_name.clone(),
                    user_id: s.user_id,
                    bot_level: s.bot_level,
                    rating: self.ratings.get(s.seat).cloned().flatten(),
                })
                .collect(),
            rated: self.setup.rated,
            private: !self.public,
            seq: self.seq(),
            phase: self.game.turn().phase.to_string(),
            // Not who still has to answer a secret decision (a Reject window).
            waiting_for: self.game.public_waiting_for().iter().map(|p| p.0).collect(),
            clock: (self.status == Status::Live).then(|| self.clock.view(now)),
            outcome: self.game.outcome().cloned(),
            result_text: self.game.result_notation(),
            undo: self.undo.as_ref().map(undo::Request::view),
            undo_refused: self.undo_refusals(),
            aborted: self.unrated.as_deref() == Some(crate::rating::ABORTED),
            unrated: self.unrated.clone(),
            abandoned: self.abandoned,
            event: None,
        }
    }

    /// How `user` sees the game: from their (first) seat, or as a spectator.
    pub(super) fn viewer(&self, user: i64) -> Viewer {
        self.seats
            .iter()
            .find(|s| s.user_id == Some(user))
            .map_or(Viewer::Spectator, |s| Viewer::Seat(Player(s.seat as u8)))
    }

    /// The full picture for a (re)connecting client: what it missed and the state now. A client
    /// that saw actions since taken back gets everything again (its log lost lines).
    pub(super) fn sync_message(&self, since: Option<u64>, viewer: Viewer) -> String {
        let from = since.unwrap_or(0).min(self.seq());
        let from = if self.last_take_back > from { 0 } else { from };
        let hidden = self.game.hidden_information();
        let actions = self
            .standing
            .iter()
            .filter(|&&seq| seq > from)
            .filter_map(|&seq| {
                let text = self.actions.get(seq as usize - 1)?;
                // Another seat's draw or secret answer, without its secret.
                let redacted = hidden
                    .then(|| serde_json::from_str::<RecordedAction>(text).ok())
                    .flatten()
                    .and_then(|a| {
                        let input = self.game.redact(Player(a.player), &a.input, viewer)?;
                        serde_json::to_string(&RecordedAction { player: a.player, at_ms: None, input }).ok()
                    });
                let action = RawValue::from_string(redacted.unwrap_or_else(|| text.clone())).ok()?;
                Some(SeqAction { seq, action })
            })
            .collect();
        let mut info = self.info();
        info.waiting_for = self.game.waiting_for_viewer(viewer).iter().map(|p| p.0).collect();
        ServerMessage::Sync {
            game: self.id,
            seq: self.seq(),
            since: from,
            actions,
            info,
            state: (self.status != Status::Open).then(|| self.game.view(viewer, &self.names(), true)),
            events: self.game.events_json(0),
        }
        .to_text()
    }

    /// A full sync to every watcher, each seat with its own view.
    pub(super) fn send_sync_to_all(&self) {
        let mut payload = Payload::public(self.sync_message(None, Viewer::Spectator).into());
        if self.game.hidden_information() {
            let seats: Vec<(Option<i64>, Arc<str>)> = self
                .seats
                .iter()
                .map(|s| (s.user_id, self.sync_message(None, Viewer::Seat(Player(s.seat as u8))).into()))
                .collect();
            payload.seats = Some(seats.into());
        }
        let _ = self.updates.send((self.seq(), payload));
    }

    pub(super) fn broadcast_update(&mut self, seq: u64, action: &RecordedAction) {
        // Serialised once per viewer kind, straight from the engine's JSON: this runs for every
        // action of every game.
        let timed = self.status == Status::Live && self.clock.deadline_ms.is_some();
        let names = self.names();
        let clock = timed.then(|| self.clock.view(self.store.now()));
        let events = self.game.events_json(self.events_sent);
        let undo_refused = self.undo_refusals();
        let text = |viewer: Viewer| -> Arc<str> {
            ServerMessage::Update {
                game: self.id,
                seq,
                action: self.game.redact(Player(action.player), &action.input, viewer).map_or_else(
                    || action.clone(),
                    |input| RecordedAction { player: action.player, at_ms: action.at_ms, input },
                ),
                events: events.clone(),
                state: self.game.view(viewer, &names, false),
                waiting_for: self.game.waiting_for_viewer(viewer).iter().map(|p| p.0).collect(),
                clock: clock.clone(),
                status: self.status,
                undo_refused: undo_refused.clone(),
            }
            .to_text()
            .into()
        };
        let mut payload = Payload::public(text(Viewer::Spectator));
        if self.game.hidden_information() {
            let seats: Vec<(Option<i64>, Arc<str>)> =
                self.seats.iter().map(|s| (s.user_id, text(Viewer::Seat(Player(s.seat as u8))))).collect();
            payload.seats = Some(seats.into());
        }
        self.events_sent = self.game.event_count();
        let _ = self.updates.send((seq, payload));
    }

    pub(super) fn broadcast(&self, message: ServerMessage) {
        // No receivers is fine: nobody is watching.
        let _ = self.updates.send((0, Payload::public(message.to_text().into())));
    }
}
