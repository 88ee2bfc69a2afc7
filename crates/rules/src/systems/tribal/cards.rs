//! The cards of the casual game (`docs/rules/spec/tribal.md`, rules 34–46, whose numbers the
//! comments below cite): the 14 kinds with the document's counts and texts, and the deck — a
//! face-down pile drawn at random (the server draws; the outcome is logged as an input), the cards
//! returned under it, the discard pile and the banked points cards.
//!
//! The pile is a multiset rather than an order: a uniformly random draw from what is left is a
//! shuffled deck, and no deck order then exists that a client could learn.

use std::collections::VecDeque;

use serde::{Deserialize, Serialize};

/// A card kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(rename = "TribalCard"))]
#[serde(rename_all = "snake_case")]
pub enum Card {
    NoMove,
    ExtraMove,
    Reject,
    RejectAndReplace,
    MoveAnywhere,
    PairPlace,
    ReplaceAny,
    MoveTwo,
    MoveThree,
    Points3,
    Points5,
    Trade1For2,
    Trade2For5,
    Trade3For8,
}

pub const KINDS: usize = 14;

impl Card {
    pub const ALL: [Card; KINDS] = [
        Card::NoMove,
        Card::ExtraMove,
        Card::Reject,
        Card::RejectAndReplace,
        Card::MoveAnywhere,
        Card::PairPlace,
        Card::ReplaceAny,
        Card::MoveTwo,
        Card::MoveThree,
        Card::Points3,
        Card::Points5,
        Card::Trade1For2,
        Card::Trade2For5,
        Card::Trade3For8,
    ];

    pub fn index(self) -> usize {
        self as usize
    }

    /// Copies in the deck (rule 34); Replace Any only with the option.
    pub fn count(self, replace_any: bool) -> u8 {
        match self {
            Card::NoMove => 6,
            Card::ExtraMove => 16,
            Card::Reject => 4,
            Card::RejectAndReplace => 2,
            Card::MoveAnywhere => 4,
            Card::PairPlace => 4,
            Card::ReplaceAny => {
                if replace_any {
                    2
                } else {
                    0
                }
            }
            Card::MoveTwo => 2,
            Card::MoveThree => 1,
            Card::Points3 => 3,
            Card::Points5 => 1,
            Card::Trade1For2 => 4,
            Card::Trade2For5 => 2,
            Card::Trade3For8 => 1,
        }
    }

    pub fn title(self) -> &'static str {
        match self {
            Card::NoMove => "No Move",
            Card::ExtraMove => "Extra Move",
            Card::Reject => "Reject",
            Card::RejectAndReplace => "Reject and Replace",
            Card::MoveAnywhere => "Move Anywhere",
            Card::PairPlace => "Pair Place",
            Card::ReplaceAny => "Replace Any",
            Card::MoveTwo => "Move Two",
            Card::MoveThree => "Move Three",
            Card::Points3 => "3 Game Points",
            Card::Points5 => "5 Game Points",
            Card::Trade1For2 => "Trade Prisoners 1-2",
            Card::Trade2For5 => "Trade Prisoners 2-5",
            Card::Trade3For8 => "Trade Prisoners 3-8",
        }
    }

    /// The card's text, as the document words it.
    pub fn text(self) -> &'static str {
        match self {
            Card::NoMove => "Not useful for anything.",
            Card::ExtraMove => "Take an extra move (2 moves in a turn).",
            Card::Reject => "Reject another player's move in the same round.",
            Card::RejectAndReplace => {
                "Reject another player's move made in the same round and replace it with one of your own stones."
            }
            Card::MoveAnywhere => "Make a move anywhere on the board.",
            Card::PairPlace => "Instead of a single stone, play a pair of stones connected as a group.",
            Card::ReplaceAny => "Replace any stone on the board with one of your own.",
            Card::MoveTwo => "Instead of placing a new stone, move two of your stones already on the board.",
            Card::MoveThree => {
                "Instead of placing a new stone, move three of your stones already on the board."
            }
            Card::Points3 => "Add 3 points at the end of the game.",
            Card::Points5 => "Add 5 points at the end of the game.",
            Card::Trade1For2 => "Trade 1 prisoner for 2 from any other player.",
            Card::Trade2For5 => "Trade 2 prisoners for 5 from any other player.",
            Card::Trade3For8 => "Trade 3 prisoners for 8 from any other player.",
        }
    }

    /// Played on one's own turn, after the roll (No Move never; the Rejects in a reaction).
    pub fn on_turn(self) -> bool {
        !matches!(self, Card::NoMove | Card::Reject | Card::RejectAndReplace)
    }

    pub fn is_reject(self) -> bool {
        matches!(self, Card::Reject | Card::RejectAndReplace)
    }

    /// Banked points (rule 44).
    pub fn points(self) -> Option<i64> {
        match self {
            Card::Points3 => Some(3),
            Card::Points5 => Some(5),
            _ => None,
        }
    }

    /// Prisoners given and taken (rule 45).
    pub fn trade(self) -> Option<(u32, u32)> {
        match self {
            Card::Trade1For2 => Some((1, 2)),
            Card::Trade2For5 => Some((2, 5)),
            Card::Trade3For8 => Some((3, 8)),
            _ => None,
        }
    }

    /// Stones a Move card relocates.
    pub fn moves(self) -> Option<u8> {
        match self {
            Card::MoveTwo => Some(2),
            Card::MoveThree => Some(3),
            _ => None,
        }
    }
}

/// Where the next card comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    /// The face-down pile: the server draws at random.
    Random,
    /// The pile is used up: the first card returned under it.
    Known(Card),
    /// No card anywhere.
    Empty,
}

/// The cards outside the hands.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Deck {
    /// The shuffled face-down pile, as counts per kind.
    pile: [u8; KINDS],
    /// Cards returned by passing players, under the pile, in order.
    under: VecDeque<Card>,
    /// The face-up discard pile (played, rejected and discarded cards), per kind.
    discard: [u8; KINDS],
    /// Points cards played: out of the game for good.
    banked: [u8; KINDS],
}

impl Deck {
    pub fn new(replace_any: bool) -> Deck {
        let mut pile = [0; KINDS];
        for c in Card::ALL {
            pile[c.index()] = c.count(replace_any);
        }
        Deck { pile, under: VecDeque::new(), discard: [0; KINDS], banked: [0; KINDS] }
    }

    pub fn total(replace_any: bool) -> u32 {
        Card::ALL.iter().map(|c| u32::from(c.count(replace_any))).sum()
    }

    /// Cards still to draw (the pile and those under it).
    pub fn to_draw(&self) -> u32 {
        self.pile.iter().map(|&c| u32::from(c)).sum::<u32>() + self.under.len() as u32
    }

    pub fn pile(&self) -> &[u8; KINDS] {
        &self.pile
    }

    pub fn under(&self) -> &VecDeque<Card> {
        &self.under
    }

    pub fn discards(&self) -> &[u8; KINDS] {
        &self.discard
    }

    pub fn banked(&self) -> &[u8; KINDS] {
        &self.banked
    }

    /// Where the next draw comes from; an empty pile with nothing under it is first made
    /// again from the discards (rule 35).
    pub fn source(&mut self) -> Source {
        if self.pile.iter().any(|&c| c > 0) {
            return Source::Random;
        }
        if let Some(&c) = self.under.front() {
            return Source::Known(c);
        }
        if self.discard.iter().any(|&c| c > 0) {
            self.pile = std::mem::take(&mut self.discard);
            return Source::Random;
        }
        Source::Empty
    }

    /// Takes `card` from where [`Deck::source`] said the next card comes from.
    pub fn take(&mut self, card: Card) -> bool {
        match self.source() {
            Source::Random if self.pile[card.index()] > 0 => {
                self.pile[card.index()] -= 1;
                true
            }
            Source::Known(c) if c == card => {
                self.under.pop_front();
                true
            }
            _ => false,
        }
    }

    /// A random card of the pile, weighted by count (`r` uniform below [`Deck::pile_size`]).
    pub fn nth_in_pile(&self, mut r: u32) -> Option<Card> {
        for c in Card::ALL {
            let k = u32::from(self.pile[c.index()]);
            if r < k {
                return Some(c);
            }
            r -= k;
        }
        None
    }

    pub fn pile_size(&self) -> u32 {
        self.pile.iter().map(|&c| u32::from(c)).sum()
    }

    pub fn put_under(&mut self, card: Card) {
        self.under.push_back(card);
    }

    pub fn discard(&mut self, card: Card) {
        self.discard[card.index()] += 1;
    }

    pub fn bank(&mut self, card: Card) {
        self.banked[card.index()] += 1;
    }

    /// A banked card taken back (its Play was rejected).
    pub fn unbank(&mut self, card: Card) {
        self.banked[card.index()] = self.banked[card.index()].saturating_sub(1);
    }

    /// The pile rebuilt for a determinization: these cards, face down, nothing under it.
    pub(super) fn refill(&mut self, cards: &[Card]) {
        self.pile = [0; KINDS];
        self.under.clear();
        for &c in cards {
            self.pile[c.index()] += 1;
        }
    }

    /// Every card outside the hands, for conservation checks.
    pub fn outside_hands(&self) -> u32 {
        let sum = |a: &[u8; KINDS]| a.iter().map(|&c| u32::from(c)).sum::<u32>();
        sum(&self.pile) + self.under.len() as u32 + sum(&self.discard) + sum(&self.banked)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_deck_has_the_documents_counts() {
        assert_eq!(Deck::total(false), 50);
        assert_eq!(Deck::total(true), 52);
        assert_eq!(Card::ALL.iter().filter(|c| c.on_turn()).count(), 11);
    }

    #[test]
    fn returned_cards_come_after_the_pile_and_discards_are_reshuffled() {
        let mut d = Deck::new(false);
        let mut drawn = Vec::new();
        while d.pile_size() > 0 {
            let c = d.nth_in_pile(0).unwrap();
            assert!(d.take(c));
            drawn.push(c);
        }
        assert_eq!(drawn.len(), 50);
        d.put_under(Card::Points5);
        assert_eq!(d.source(), Source::Known(Card::Points5));
        assert!(!d.take(Card::Reject), "only the returned card can come next");
        assert!(d.take(Card::Points5));
        assert_eq!(d.source(), Source::Empty);
        d.discard(Card::Reject);
        assert_eq!(d.source(), Source::Random);
        assert_eq!(d.pile_size(), 1);
        assert_eq!(d.discards().iter().sum::<u8>(), 0);
    }
}
