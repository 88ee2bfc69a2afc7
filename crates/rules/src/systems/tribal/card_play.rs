//! The cards in play (rules 17, 19, 21, 35–48 of the spec): draws, each card's effect and the
//! hand limit; the reaction window in which other players may reject a Play is `reaction.rs`.
//!
//! Rule numbers and readings A1–A17 are those of `docs/rules/spec/tribal.md`; A18 and later are
//! the project's own readings (`docs/rules/tribal.md`, "Interpretations").

use gobeyond_maps::NodeId;

use super::{
    Action, Event, Illegal, Phase, RangeRule, TribalGame,
    cards::{Card, Source},
};
use crate::{Player, Rng};

/// Hands hold at most this many cards at the end of a turn (rules 17, 21).
pub const HAND_LIMIT: usize = 3;
/// Stones placed in one turn stand at least this many steps apart (rule 47).
pub const APART: u32 = 5;

/// Why a card is drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DrawFor {
    Pass,
    Doubles,
}

/// A card being played: its placements so far.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CardPlay {
    pub card: Card,
    /// The range of the turn (None: no limit).
    pub range: Option<u32>,
    /// Nodes that received a stone this turn (rules 47–48).
    pub placed: Vec<NodeId>,
    /// Pair Place: the first node chosen, waiting for its partner.
    pub pair: Option<NodeId>,
}

impl CardPlay {
    /// Placements (or moves) the card allows in all.
    pub fn steps(&self) -> usize {
        match self.card {
            Card::ExtraMove => 2,
            c => c.moves().map_or(1, usize::from),
        }
    }
}

impl TribalGame {
    // --- Reading --------------------------------------------------------------------

    pub fn hand(&self, p: Player) -> &[Card] {
        &self.hands[p.index()]
    }

    pub fn deck(&self) -> &super::cards::Deck {
        &self.deck
    }

    pub fn banked(&self, p: Player) -> i64 {
        self.banked[p.index()]
    }

    /// Cards `p` could play now on their turn (each kind once).
    pub fn playable_cards(&self, p: Player) -> Vec<Card> {
        let mut kinds: Vec<Card> = self.hands[p.index()].clone();
        kinds.sort();
        kinds.dedup();
        kinds.retain(|&c| self.check_card(p, c).is_ok());
        kinds
    }

    /// Whether it is `p`'s turn to play a card: after the roll (or in a game without dice,
    /// before placing).
    pub(super) fn card_time(&self) -> bool {
        self.rules.cards
            && match self.phase {
                Phase::Turn { rolled: Some(_) } => true,
                Phase::Turn { rolled: None } => self.rules.range != RangeRule::Dice && !self.awaiting_dice,
                _ => false,
            }
    }

    /// Why `p` could not play `card` now.
    pub(super) fn check_card(&self, p: Player, card: Card) -> Result<(), Illegal> {
        if !self.card_time() {
            return Err(Illegal::NotNow("playing a card", "only after the roll of one's own turn"));
        }
        if !self.hands[p.index()].contains(&card) {
            return Err(Illegal::NotInHand(card));
        }
        if !card.on_turn() {
            return Err(Illegal::CardNotPlayable(
                card,
                if card.is_reject() { "it answers another player's move" } else { "it does nothing" },
            ));
        }
        if let Some((give, take)) = card.trade() {
            let mine: u32 = self.prisoners[p.index()].iter().sum();
            if mine < give {
                return Err(Illegal::CardNotPlayable(card, "you hold too few prisoners"));
            }
            if self.trade_partners(p, take).is_empty() {
                return Err(Illegal::CardNotPlayable(card, "no other player holds enough prisoners"));
            }
        }
        if card.moves().is_some() && !self.owner.contains(&(p.0 + 1)) {
            return Err(Illegal::CardNotPlayable(card, "you have no stone on the board"));
        }
        Ok(())
    }

    pub(super) fn trade_partners(&self, p: Player, take: u32) -> Vec<Player> {
        (0..self.players)
            .filter(|&q| q != p.index() && self.prisoners[q].iter().sum::<u32>() >= take)
            .map(|q| Player(q as u8))
            .collect()
    }

    // --- Draws ----------------------------------------------------------------------

    /// A draw for `p`: from the pile at random (the server's chance input), the card returned
    /// under it, or none when no card is left.
    pub(super) fn begin_draw(&mut self, p: Player, why: DrawFor) {
        match self.deck.source() {
            Source::Random => self.drawing = Some((p, why)),
            Source::Known(c) => {
                self.deck.take(c);
                self.got_card(p, why, c);
            }
            Source::Empty => self.after_draw(p, why),
        }
    }

    /// The server's draw for the seat waiting for one.
    pub(super) fn drawn(&mut self, seat: Player, card: Card) -> Result<(), Illegal> {
        let Some((p, why)) = self.drawing else {
            return Err(Illegal::NotNow("a card draw", "no draw is pending"));
        };
        if p != seat {
            return Err(Illegal::NotYourTurn(seat));
        }
        if !self.deck.take(card) {
            return Err(Illegal::NotInDeck(card));
        }
        self.drawing = None;
        self.got_card(p, why, card);
        Ok(())
    }

    fn got_card(&mut self, p: Player, why: DrawFor, card: Card) {
        self.hands[p.index()].push(card);
        self.emit(Event::Drew { player: p, doubles: why == DrawFor::Doubles });
        self.after_draw(p, why);
    }

    fn after_draw(&mut self, p: Player, why: DrawFor) {
        if why == DrawFor::Pass {
            if self.hands[p.index()].len() > HAND_LIMIT {
                self.phase = Phase::Return { player: p };
            } else {
                self.next_turn(p);
            }
        }
        // A pair of dice: the turn goes on, and the card may be played in it (A1).
    }

    /// A random outcome of the pending draw, as the server draws it.
    pub fn random_draw(&self, rng: &mut Rng) -> Option<Card> {
        self.drawing?;
        let n = self.deck.pile_size();
        if n == 0 {
            return None;
        }
        self.deck.nth_in_pile(rng.below(n))
    }

    /// The end of `p`'s round: more than three cards in hand and one is discarded (rule 21).
    pub(super) fn end_round(&mut self, p: Player) {
        self.drop_snapshot();
        if self.rules.cards && self.hands[p.index()].len() > HAND_LIMIT {
            self.phase = Phase::Discard { player: p };
        } else {
            self.next_turn(p);
        }
    }

    /// A card out of `p`'s hand: to the discard pile, or under the draw pile.
    pub(super) fn give_up_card(&mut self, p: Player, card: Card, under: bool) -> Result<(), Illegal> {
        let hand = &mut self.hands[p.index()];
        let Some(i) = hand.iter().rposition(|&c| c == card) else {
            return Err(Illegal::NotInHand(card));
        };
        hand.remove(i);
        if under {
            self.deck.put_under(card);
            self.emit(Event::Returned { player: p });
        } else {
            self.deck.discard(card);
            self.emit(Event::Discarded { player: p, card });
        }
        self.next_turn(p);
        Ok(())
    }

    // --- Playing a card -------------------------------------------------------------

    pub(super) fn play_card(&mut self, p: Player, card: Card) -> Result<(), Illegal> {
        self.check_card(p, card)?;
        let range = self.current_range();
        let hand = &mut self.hands[p.index()];
        if let Some(i) = hand.iter().position(|&c| c == card) {
            hand.remove(i);
        }
        self.begin_play(Some(card));
        self.emit(Event::CardPlayed { player: p, card });
        if let Some(points) = card.points() {
            self.deck.bank(card);
            self.banked[p.index()] += points;
            self.after_play(p, Vec::new());
            return Ok(());
        }
        self.deck.discard(card);
        self.phase = Phase::Card(CardPlay { card, range, placed: Vec::new(), pair: None });
        Ok(())
    }

    /// One step of the card being played.
    pub(super) fn card_step(&mut self, p: Player, mut play: CardPlay, action: Action) -> Result<(), Illegal> {
        match (play.card, action) {
            (_, Action::Forgo | Action::Timeout) => {
                self.emit(Event::Forgone { player: p, handicap: false });
                let placed = play.placed;
                self.after_play(p, placed);
                return Ok(());
            }
            (Card::ExtraMove, Action::Place(v)) => {
                self.apart(&play.placed, v)?;
                self.trial(|g| g.place(p, v, play.range, false), p, &play.placed, v)?;
                self.place(p, v, play.range, false)?;
                play.placed.push(v);
            }
            (Card::MoveAnywhere, Action::Place(v)) => {
                self.place(p, v, None, false)?;
                play.placed.push(v);
            }
            (Card::PairPlace, Action::Place(v)) => match play.pair {
                None => {
                    self.check_pair_start(p, v, play.range)?;
                    play.pair = Some(v);
                    self.phase = Phase::Card(play);
                    return Ok(());
                }
                Some(a) => {
                    if !self.map.neighbors(a).contains(&v) {
                        return Err(Illegal::NotAdjacent(a, v));
                    }
                    if let Some(r) = play.range
                        && !self.within(p, a, r)
                        && !self.within(p, v, r)
                    {
                        return Err(Illegal::OutOfRange { node: v, range: r });
                    }
                    self.place_group(p, &[a, v], false)?;
                    play.placed.extend([a, v]);
                }
            },
            (Card::ReplaceAny, Action::Place(v)) => {
                let Some(owner) = self.stone_at(v) else {
                    return Err(Illegal::CardNotPlayable(Card::ReplaceAny, "it replaces a stone: pick one"));
                };
                if self.team(owner) == self.team(p) {
                    return Err(Illegal::CardNotPlayable(Card::ReplaceAny, "that stone is on your side"));
                }
                let mut trial = self.without_events();
                trial.set(v, 0);
                trial.place(p, v, None, false)?;
                self.set(v, 0);
                self.back_to_supply(owner, 1);
                self.emit(Event::Lifted { player: owner, node: v });
                self.place(p, v, None, false)?;
                play.placed.push(v);
            }
            (Card::MoveTwo | Card::MoveThree, Action::Move(from, to)) => {
                if self.stone_at(from) != Some(p) {
                    return Err(Illegal::NotYourStone(from));
                }
                if from == to {
                    return Err(Illegal::Occupied(to));
                }
                self.apart(&play.placed, to)?;
                let lifted_move = |g: &mut TribalGame| {
                    g.set(from, 0);
                    if let Some(s) = g.supply[p.index()].as_mut() {
                        *s += 1;
                    }
                    g.place(p, to, play.range, false)
                };
                self.trial(lifted_move, p, &play.placed, to)?;
                lifted_move(self)?;
                self.emit(Event::Moved { player: p, from, to });
                play.placed.push(to);
            }
            (Card::Trade1For2 | Card::Trade2For5 | Card::Trade3For8, Action::TradeWith(q)) => {
                self.trade(p, play.card, q)?;
                self.after_play(p, Vec::new());
                return Ok(());
            }
            (card, a) => {
                return Err(Illegal::NotNow(super::inputs::action_name(a), card.title()));
            }
        }
        if play.placed.len() >= play.steps() || play.card == Card::PairPlace {
            let placed = play.placed;
            self.after_play(p, placed);
        } else {
            self.phase = Phase::Card(play);
        }
        Ok(())
    }

    /// Extra Move's second stone: the nodes of `reachable` where the engine takes it (at least
    /// five steps from the first, in another group, a legal placement), so that the board
    /// marks only those. Other phases: `reachable` unchanged.
    pub(super) fn card_targets(&self, p: Player, mut reachable: Vec<bool>) -> Vec<bool> {
        let Phase::Card(play) = &self.phase else { return reachable };
        if play.card != Card::ExtraMove || play.placed.is_empty() {
            return reachable;
        }
        for (v, open) in reachable.iter_mut().enumerate() {
            let v = v as NodeId;
            // The cheap distance first; the full check on a copy only for what is left.
            *open = *open
                && self.apart(&play.placed, v).is_ok()
                && self.without_events().apply(p, &super::Input::Action(Action::Place(v))).is_ok();
        }
        reachable
    }

    /// Rule 47: at least five steps from every stone placed this turn.
    fn apart(&self, placed: &[NodeId], v: NodeId) -> Result<(), Illegal> {
        if !self.map.contains(v as u64) {
            return Err(Illegal::UnknownNode(v));
        }
        match placed.iter().find(|&&a| self.distance_below(a, v, APART)) {
            Some(&a) => Err(Illegal::TooClose(a, v)),
            None => Ok(()),
        }
    }

    /// Whether `a` and `b` are fewer than `k` steps apart along the map.
    pub(super) fn distance_below(&self, a: NodeId, b: NodeId, k: u32) -> bool {
        let mut seen = std::collections::HashSet::from([a]);
        let mut frontier = vec![a];
        for _ in 0..k {
            if frontier.contains(&b) {
                return true;
            }
            let mut next = Vec::new();
            for &v in &frontier {
                for &w in self.map.neighbors(v) {
                    if seen.insert(w) {
                        next.push(w);
                    }
                }
            }
            frontier = next;
        }
        false
    }

    /// Runs a step on a throwaway copy and checks rule 48 there: the stones placed this turn
    /// that stand lie in different groups. Nothing here changes.
    fn trial(
        &self,
        step: impl FnOnce(&mut TribalGame) -> Result<(), Illegal>,
        p: Player,
        placed: &[NodeId],
        v: NodeId,
    ) -> Result<(), Illegal> {
        let mut g = self.without_events();
        g.snapshot = None;
        step(&mut g)?;
        let mut seen = vec![false; g.map.len()];
        for &a in placed.iter().chain([&v]) {
            if g.stone_at(a) != Some(p) {
                continue;
            }
            if seen[a as usize] {
                return Err(Illegal::SameGroup(v));
            }
            let _ = g.group(a, &mut seen);
        }
        Ok(())
    }

    /// Pair Place's first node: empty, and some empty neighbour makes a legal pair with it.
    fn check_pair_start(&self, p: Player, a: NodeId, range: Option<u32>) -> Result<(), Illegal> {
        if !self.map.contains(a as u64) {
            return Err(Illegal::UnknownNode(a));
        }
        if self.owner[a as usize] != 0 {
            return Err(Illegal::Occupied(a));
        }
        let ok = self.map.neighbors(a).iter().any(|&b| {
            self.owner[b as usize] == 0
                && range.is_none_or(|r| self.within(p, a, r) || self.within(p, b, r))
                && self.without_events().place_group(p, &[a, b], false).is_ok()
        });
        if ok { Ok(()) } else { Err(Illegal::NoPair(a)) }
    }

    /// Rule 45: `give` of `p`'s prisoners to `q` and `take` of `q`'s to `p`. The colours are chosen
    /// for `p`, in `p`'s favour (A18, `docs/rules/tribal.md`): `q`'s own colour first when giving
    /// (it goes back to `q`'s supply, so `q` gains no prisoner), then the colours held most; when
    /// taking, never `p`'s own colour while another is there, the colours held most first.
    fn trade(&mut self, p: Player, card: Card, q: Player) -> Result<(), Illegal> {
        let Some((give, take)) = card.trade() else { return Ok(()) };
        if q == p || q.index() >= self.players {
            return Err(Illegal::Trade(format!("seat {} cannot be traded with", q.0 + 1)));
        }
        let mine: u32 = self.prisoners[p.index()].iter().sum();
        let theirs: u32 = self.prisoners[q.index()].iter().sum();
        if mine < give {
            return Err(Illegal::Trade(format!("you hold {mine} prisoners, the card gives {give}")));
        }
        if theirs < take {
            return Err(Illegal::Trade(format!(
                "seat {} holds {theirs} prisoners, the card takes {take}",
                q.0 + 1
            )));
        }
        let pick = |held: &[u32], avoid: Player, prefer: Option<Player>| -> Option<usize> {
            if let Some(c) = prefer
                && held[c.index()] > 0
            {
                return Some(c.index());
            }
            let best = |skip: bool| {
                (0..held.len())
                    .filter(|&c| held[c] > 0 && !(skip && c == avoid.index()))
                    .max_by_key(|&c| (held[c], std::cmp::Reverse(c)))
            };
            best(true).or_else(|| best(false))
        };
        let mut gave = vec![0u32; self.players];
        for _ in 0..give {
            let Some(c) = pick(&self.prisoners[p.index()], q, Some(q)) else { break };
            self.prisoners[p.index()][c] -= 1;
            gave[c] += 1;
        }
        let mut took = vec![0u32; self.players];
        for _ in 0..take {
            let Some(c) = pick(&self.prisoners[q.index()], p, None) else { break };
            self.prisoners[q.index()][c] -= 1;
            took[c] += 1;
        }
        for (c, &k) in gave.iter().enumerate() {
            for _ in 0..k {
                self.give_prisoner(q, Player(c as u8));
            }
        }
        for (c, &k) in took.iter().enumerate() {
            for _ in 0..k {
                self.give_prisoner(p, Player(c as u8));
            }
        }
        self.emit(Event::Traded { player: p, with: q, gave, took });
        Ok(())
    }

    // --- Search and views ----------------------------------------------------------

    /// A copy in which what `viewer` cannot see — the other hands and the pile — is dealt
    /// again at random from the cards `viewer` has not seen (determinization for search).
    pub fn determinize(&self, viewer: Player, rng: &mut Rng) -> TribalGame {
        let mut g = self.without_events();
        if !self.rules.cards {
            return g;
        }
        let mut unseen: Vec<super::cards::Card> = Vec::new();
        for c in Card::ALL {
            for _ in 0..self.deck.pile()[c.index()] {
                unseen.push(c);
            }
        }
        unseen.extend(self.deck.under().iter().copied());
        for q in 0..self.players {
            if q != viewer.index() {
                unseen.extend(self.hands[q].iter().copied());
            }
        }
        for i in (1..unseen.len()).rev() {
            let j = rng.below(i as u32 + 1) as usize;
            unseen.swap(i, j);
        }
        let mut it = unseen.into_iter();
        for q in 0..self.players {
            if q != viewer.index() {
                let k = self.hands[q].len();
                g.hands[q] = it.by_ref().take(k).collect();
            }
        }
        let rest: Vec<Card> = it.collect();
        g.deck.refill(&rest);
        g
    }
}
