//! Plays that can be rejected (rules 41–42 of the spec, Reject and Reject and Replace): a Play
//! keeps a [`Snapshot`] of everything it may change, every other player is asked, and a Reject
//! undoes it completely, the positions it made leaving the superko history.
//!
//! Rule numbers and readings A1–A17 are those of `docs/rules/spec/tribal.md`; A18 and later are
//! the project's own readings (`docs/rules/tribal.md`, "Interpretations").

use gobeyond_maps::NodeId;

use super::{Action, Event, Illegal, Input, Phase, Reaction, TribalGame, cards::Card};
use crate::Player;

/// A snapshot's allocation kept for the next Play; copies of the game start without one.
#[derive(Debug, Default)]
pub(super) struct Spare(Option<Box<Snapshot>>);

impl Clone for Spare {
    fn clone(&self) -> Spare {
        Spare(None)
    }
}

/// What a rejected Play changed, as it was before.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Snapshot {
    owner: Vec<u8>,
    prisoners: Vec<Vec<u32>>,
    supply: Vec<Option<u32>>,
    banked: Vec<i64>,
    hash: u64,
    previous_hash: u64,
    /// Positions the Play added to the history.
    pub(super) added: Vec<u64>,
    /// The card played, if any (spent when rejected).
    card: Option<Card>,
}

impl TribalGame {
    /// Starts a Play that may be rejected: everything it changes is kept.
    pub(super) fn begin_play(&mut self, card: Option<Card>) {
        if !self.rules.cards {
            return;
        }
        let mut s = self.spare_snapshot.0.take().unwrap_or_else(|| {
            Box::new(Snapshot {
                owner: Vec::new(),
                prisoners: Vec::new(),
                supply: Vec::new(),
                banked: Vec::new(),
                hash: 0,
                previous_hash: 0,
                added: Vec::new(),
                card: None,
            })
        });
        s.owner.clone_from(&self.owner);
        s.prisoners.clone_from(&self.prisoners);
        s.supply.clone_from(&self.supply);
        s.banked.clone_from(&self.banked);
        s.hash = self.hash;
        s.previous_hash = self.previous_hash;
        s.added.clear();
        s.card = card;
        self.snapshot = Some(s);
    }

    /// The Play under way can no longer be rejected: its snapshot is kept for the next one.
    pub(super) fn drop_snapshot(&mut self) {
        if let Some(s) = self.snapshot.take() {
            self.spare_snapshot.0 = Some(s);
        }
    }

    /// A Play is complete: the other players may reject it (with cards), then the round ends.
    pub(super) fn after_play(&mut self, mover: Player, placed: Vec<NodeId>) {
        self.passes = 0;
        if !self.rules.cards {
            self.next_turn(mover);
            return;
        }
        // Everyone else is asked, holding a Reject or not, so that the answer reveals no hand;
        // the mover and players who left are answered for.
        let answers: Vec<Option<Reaction>> = (0..self.players)
            .map(|q| (q == mover.index() || self.gone[q]).then_some(Reaction::Decline))
            .collect();
        if answers.iter().all(Option::is_some) {
            self.end_round(mover);
        } else {
            self.phase = Phase::Reaction { mover, placed, answers };
        }
    }

    pub(super) fn react(&mut self, seat: Player, answer: Reaction) -> Result<(), Illegal> {
        let Phase::Reaction { answers, .. } = &self.phase else {
            return Err(Illegal::NotNow("answering", "no move waits for an answer"));
        };
        if answers[seat.index()].is_some() {
            return Err(Illegal::AlreadyChose);
        }
        let card = match answer {
            Reaction::Decline => None,
            Reaction::Reject => Some(Card::Reject),
            Reaction::RejectAndReplace => Some(Card::RejectAndReplace),
        };
        if let Some(c) = card
            && !self.hands[seat.index()].contains(&c)
        {
            return Err(Illegal::NotInHand(c));
        }
        // Recorded in place: the phase is copied out only once everyone has answered.
        if let Phase::Reaction { answers, .. } = &mut self.phase {
            answers[seat.index()] = Some(answer);
            if answers.iter().any(Option::is_none) {
                return Ok(());
            }
        }
        self.answered();
        Ok(())
    }

    /// Every seat still to answer the Play under way declines, as their Decline inputs in turn
    /// would (the playouts' answers: they play no cards). False when no Play waits for answers.
    pub fn decline_all_answers(&mut self) -> bool {
        let Phase::Reaction { mover, answers, .. } = &self.phase else { return false };
        if self.record_events {
            // The log keeps each seat's input: answered one by one.
            let waiting: Vec<Player> =
                self.seats_after(*mover).filter(|q| answers[q.index()].is_none()).collect();
            for q in waiting {
                if self.apply(q, &Input::Action(Action::React(Reaction::Decline))).is_err() {
                    break;
                }
            }
        } else {
            if let Phase::Reaction { answers, .. } = &mut self.phase {
                for a in answers.iter_mut().filter(|a| a.is_none()) {
                    *a = Some(Reaction::Decline);
                }
            }
            self.answered();
        }
        true
    }

    /// Everyone has answered the Play under way: it stands, or the first to reject undoes it.
    fn answered(&mut self) {
        let Phase::Reaction { mover, placed, answers } = std::mem::replace(&mut self.phase, Phase::Finished)
        else {
            return;
        };
        // Everyone has answered: the first to reject, in turn order after the mover, does.
        let rejecter =
            self.seats_after(mover).find(|q| answers[q.index()].is_some_and(|a| a != Reaction::Decline));
        let Some(by) = rejecter else {
            self.emit(Event::NotRejected { mover });
            self.end_round(mover);
            return;
        };
        let kind = answers[by.index()].unwrap_or(Reaction::Reject);
        let card = if kind == Reaction::RejectAndReplace { Card::RejectAndReplace } else { Card::Reject };
        let hand = &mut self.hands[by.index()];
        if let Some(i) = hand.iter().position(|&c| c == card) {
            hand.remove(i);
        }
        self.deck.discard(card);
        self.undo_play();
        self.emit(Event::Rejected { player: by, mover, card });
        let nodes: Vec<NodeId> = if card == Card::RejectAndReplace {
            placed.into_iter().filter(|&v| self.placeable(by, v, None)).collect()
        } else {
            Vec::new()
        };
        if nodes.is_empty() {
            self.end_round(mover);
        } else {
            self.phase = Phase::Replace { player: by, mover, nodes };
        }
    }

    /// Puts back everything the Play changed; its card is spent.
    fn undo_play(&mut self) {
        let Some(s) = self.snapshot.take() else { return };
        for h in &s.added {
            self.history.remove(h);
        }
        let s = *s;
        self.owner = s.owner;
        self.board.mark_stale();
        self.prisoners = s.prisoners;
        self.supply = s.supply;
        self.banked = s.banked;
        self.hash = s.hash;
        self.previous_hash = s.previous_hash;
        if let Some(c) = s.card
            && c.points().is_some()
        {
            self.deck.unbank(c);
            self.deck.discard(c);
        }
    }
}
