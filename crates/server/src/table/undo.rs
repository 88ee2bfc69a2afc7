//! Undo by request: a player asks to take back their last move; every other player in the game
//! accepts or one declines (server bots accept). The log stays append-only: an accepted undo is
//! logged as a marker, `{"player": P, "type": "take_back", "from": N}`, which takes back action N
//! and everything after it. Replays, records and reviews read the log through [`effective`];
//! the engine never sees a marker (and a client cannot send one: the engine refuses its type).

use gobeyond_rules::record::RecordedAction;

use super::*;
use crate::protocol::{UndoNote, UndoView};

/// The marker's action type.
pub const TAKE_BACK: &str = "take_back";

/// The first action a marker takes back, if `action` is a marker.
pub fn marker_from(action: &RecordedAction) -> Option<u64> {
    (action.input.get("type")?.as_str()? == TAKE_BACK).then(|| action.input.get("from")?.as_u64()).flatten()
}

pub fn marker(player: usize, from: u64) -> RecordedAction {
    let mut input = gobeyond_rules::registry::Object::new();
    input.insert("type".into(), TAKE_BACK.into());
    input.insert("from".into(), from.into());
    RecordedAction { player: player as u8, at_ms: None, input }
}

/// The actions still standing, with their sequence numbers: markers and what they took back
/// are left out.
pub fn effective(log: impl IntoIterator<Item = (u64, RecordedAction)>) -> Vec<(u64, RecordedAction)> {
    let mut standing: Vec<(u64, RecordedAction)> = Vec::new();
    for (seq, action) in log {
        match marker_from(&action) {
            Some(from) => standing.retain(|(s, _)| *s < from),
            None => standing.push((seq, action)),
        }
    }
    standing
}

/// A request waiting for answers.
#[derive(Debug, Clone)]
pub struct Request {
    /// The seat asking.
    pub by: usize,
    /// The first action to take back (the asker's last move).
    pub from: u64,
    /// The log's length when asked: any action after it withdraws the request.
    pub at: u64,
    /// Seats whose players must still accept.
    pub waiting: Vec<usize>,
}

impl Request {
    pub fn view(&self) -> UndoView {
        UndoView { by: self.by, from: self.from, waiting: self.waiting.clone() }
    }
}

impl Table {
    /// `user` asks to take back their last move.
    pub(super) async fn request_undo(&mut self, user: i64) -> Result<(), ApiError> {
        let mine: Vec<usize> =
            self.seats.iter().filter(|s| s.user_id == Some(user)).map(|s| s.seat).collect();
        if mine.is_empty() {
            return Err(ApiError::Forbidden("you hold no seat in this game".into()));
        }
        let (from, by) = self.undo_target(&mine)?;
        let waiting: Vec<usize> = self
            .seats
            .iter()
            .filter(|s| s.user_id.is_some() && s.user_id != Some(user))
            .map(|s| s.seat)
            .collect();
        self.undo = Some(Request { by, from, at: self.seq(), waiting });
        let name = self.seats.get(by).map(seat_name).unwrap_or_default();
        self.say(format!("{name} asked to take back a move")).await;
        self.settle_undo(None).await
    }

    /// `user` accepts or declines the waiting request.
    pub(super) async fn answer_undo(&mut self, user: i64, accept: bool) -> Result<(), ApiError> {
        let Some(request) = self.undo.as_ref() else {
            return Err(ApiError::Conflict("no undo request is waiting".into()));
        };
        let seats: Vec<usize> = self
            .seats
            .iter()
            .filter(|s| s.user_id == Some(user) && request.waiting.contains(&s.seat))
            .map(|s| s.seat)
            .collect();
        if seats.is_empty() {
            return Err(ApiError::Forbidden("the request is not waiting for you".into()));
        }
        let name = self.seats.get(seats[0]).map(seat_name).unwrap_or_default();
        let answer = if accept { "agreed to take back the move" } else { "declined to take back the move" };
        self.say(format!("{name} {answer}")).await;
        if !accept {
            let request = self.undo.take();
            if let Some(r) = request {
                self.undo_declined.insert(r.from);
            }
            return self.announce_undo(Some(UndoNote::Declined { seat: seats[0] }));
        }
        if let Some(request) = self.undo.as_mut() {
            request.waiting.retain(|s| !seats.contains(s));
        }
        self.settle_undo(None).await
    }

    /// The game moved on: a waiting request lapses.
    pub(super) fn withdraw_undo(&mut self) {
        if self.undo.as_ref().is_some_and(|r| r.at != self.seq()) {
            self.undo = None;
            let _ = self.announce_undo(Some(UndoNote::Lapsed));
        }
    }

    /// Takes the moves back once nobody is left to answer; else tells everyone who is asked.
    async fn settle_undo(&mut self, note: Option<UndoNote>) -> Result<(), ApiError> {
        let Some(request) = self.undo.clone() else { return Ok(()) };
        if !request.waiting.is_empty() {
            return self.announce_undo(note);
        }
        self.undo = None;
        let earned = self.increments_from(request.from)?;
        let text = serde_json::to_string(&marker(request.by, request.from))
            .map_err(|e| ApiError::Internal(e.to_string()))?;
        let seq = self.seq() + 1;
        let mut log = self.actions.clone();
        log.push(text.clone());
        let replayed = replay(&self.setup, &log).map_err(ApiError::Internal)?;
        let now = self.store.now();
        let mut clock = self.clock.clone();
        // The moves taken back give back the increments they earned, and the turn they cut
        // short is charged: an undo is no way to gain time.
        if let (Some(player), false) = self.turn() {
            clock.interrupt_turn(player, now);
        }
        for seat in earned {
            clock.take_back_increment(seat);
        }
        self.game = replayed.game;
        let (player, simultaneous) = self.turn();
        clock.start_decision(player, simultaneous, self.game.decision_ms(), now);
        clock.apply_window(self.game.window_ms());
        let stored = stored_clock(&clock)?;
        if let Err(e) =
            self.store.append_action(self.id, seq, &text, stored.as_deref(), self.fence.as_ref()).await
        {
            self.reload_game().await;
            return Err(e);
        }
        self.actions.push(text);
        self.standing = replayed.standing;
        self.last_take_back = replayed.last_take_back;
        self.clock = clock;
        self.events_sent = self.game.event_count();
        self.announce_undo(Some(UndoNote::TookBack { seat: request.by }))?;
        // Everyone redraws from a full state: the log lost lines.
        self.send_sync_to_all();
        Ok(())
    }

    fn announce_undo(&self, note: Option<UndoNote>) -> Result<(), ApiError> {
        self.broadcast(ServerMessage::Undo {
            game: self.id,
            request: self.undo.as_ref().map(Request::view),
            note,
            undo_refused: self.undo_refusals(),
        });
        Ok(())
    }

    /// The move `mine` may ask to take back now and whose it is, or why none: the last standing
    /// action of theirs, within one round, with no action of the server's since (a time-out,
    /// a die, a card: taking one back would let a player draw again), not declined before, and
    /// not while several seats decide at once (a reaction window, naming dead stones).
    fn undo_target(&self, mine: &[usize]) -> Result<(u64, usize), ApiError> {
        let refuse = |m: &str| Err(ApiError::Conflict(m.into()));
        if self.status != Status::Live {
            return refuse("only a game being played can take a move back");
        }
        if self.undo.is_some() {
            return refuse("an undo request is already waiting for answers");
        }
        if self.turn().1 {
            return refuse("not while the players decide together: ask once they have");
        }
        // Only the last round is read: this runs for every update of every game.
        for (k, &seq) in self.standing.iter().rev().enumerate() {
            if k >= self.setup.players {
                return refuse("you have no move of this round to take back");
            }
            let Some(a) = seq
                .checked_sub(1)
                .and_then(|i| self.actions.get(i as usize))
                .and_then(|t| serde_json::from_str::<RecordedAction>(t).ok())
            else {
                return refuse("your last move cannot be read back");
            };
            if !self.game.seat_may_send(&a.input) {
                return refuse(
                    "the server has acted since your move (a time-out, dice or a card): it cannot be taken back",
                );
            }
            if mine.contains(&usize::from(a.player)) {
                if self.undo_declined.contains(&seq) {
                    return refuse("this undo was declined: it cannot be asked again");
                }
                return Ok((seq, usize::from(a.player)));
            }
        }
        refuse("you have no move to take back")
    }

    /// Per seat, why it may not ask for an undo now (None: it may); only people ask.
    pub(super) fn undo_refusals(&self) -> Vec<Option<String>> {
        self.seats
            .iter()
            .map(|s| match s.user_id {
                None => Some("only people ask to take back a move".into()),
                Some(_) => self.undo_target(&[s.seat]).err().map(|e| e.to_string()),
            })
            .collect()
    }

    /// One entry per action from `from` on that earned its mover an increment: those sent on
    /// the mover's own turn, as [`Table::commit`] charges them. Replayed only under a Fischer
    /// clock (nothing else adds time).
    fn increments_from(&self, from: u64) -> Result<Vec<usize>, ApiError> {
        if !matches!(
            self.clock.control,
            ClockKind::Control {
                time: crate::setup::TimeControl::Fischer { .. }
                    | crate::setup::TimeControl::Correspondence { .. }
            }
        ) {
            return Ok(Vec::new());
        }
        let mut game = self.setup.new_game()?;
        let mut earned = Vec::new();
        for (seq, a) in self.standing()? {
            let turn = game.turn();
            let own_turn =
                !turn.simultaneous && turn.seats.first().map(|p| p.index()) == Some(a.player.into());
            if seq >= from && own_turn {
                earned.push(usize::from(a.player));
            }
            game.submit(Player(a.player), &a.input)
                .map_err(|e| ApiError::Internal(format!("action {seq} does not replay: {e}")))?;
        }
        Ok(earned)
    }

    /// The standing actions, parsed.
    fn standing(&self) -> Result<Vec<(u64, RecordedAction)>, ApiError> {
        let parsed: Result<Vec<(u64, RecordedAction)>, ApiError> = self
            .actions
            .iter()
            .enumerate()
            .map(|(i, t)| {
                serde_json::from_str(t)
                    .map(|a| (i as u64 + 1, a))
                    .map_err(|e| ApiError::Internal(e.to_string()))
            })
            .collect();
        Ok(effective(parsed?))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn place(player: u8, at: &str) -> RecordedAction {
        serde_json::from_value(serde_json::json!({"player": player, "type": "place", "at": at}))
            .unwrap_or_else(|_| marker(0, 0))
    }

    #[test]
    fn markers_take_back_from_their_action_on() {
        let log = vec![
            (1, place(0, "A1")),
            (2, place(1, "B1")),
            (3, place(0, "C1")),
            (4, marker(0, 3)),
            (5, place(0, "D1")),
            (6, place(1, "E1")),
            (7, marker(0, 5)),
        ];
        let standing: Vec<u64> = effective(log).into_iter().map(|(s, _)| s).collect();
        assert_eq!(standing, vec![1, 2]);
    }

    #[test]
    fn a_marker_reads_back_and_ordinary_actions_are_not_markers() {
        assert_eq!(marker_from(&marker(2, 17)), Some(17));
        assert_eq!(marker_from(&place(0, "A1")), None);
        let text = serde_json::to_value(marker(1, 4)).unwrap_or_default();
        assert_eq!(text, serde_json::json!({"player": 1, "type": "take_back", "from": 4}));
    }
}
