//! A game's review tree, as record version 2 keeps it (`docs/formats.md`): variations played
//! from any position of the main line or of another variation, and comments on any node. Also
//! the move numbers a move list shows: the game's count of moves, not of actions.

use std::{collections::HashMap, rc::Rc};

use serde::{Deserialize, Serialize};

use crate::{AnyGame, Player, Turn, wire::Object};

/// Records with more variation nodes than this are refused as too big.
pub const MAX_VARIATIONS: usize = 10_000;
/// Records with more comments than this are refused as too big.
pub const MAX_COMMENTS: usize = 2_000;

/// A position of the review tree: `{"at": k}` the main line after its first k actions (0: the
/// start), `{"var": id}` a variation node.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub enum NodeRef {
    At(u32),
    Var(u32),
}

/// One action played off the main line, after `parent`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct VariationNode {
    /// 1 or more, unique in the record.
    pub id: u32,
    pub parent: NodeRef,
    pub player: u8,
    /// The system's wire form of the input.
    pub input: Object,
    /// Who played it (an account's name), where known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub author: Option<String>,
}

/// A comment on a node.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Comment {
    pub id: u32,
    pub node: NodeRef,
    pub author: String,
    pub text: String,
    pub at_ms: i64,
}

/// Why a tree does not fit its record.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TreeError {
    #[error(
        "the record is too big: {variations} variation nodes and {comments} comments (at most {MAX_VARIATIONS} and {MAX_COMMENTS})"
    )]
    TooBig { variations: usize, comments: usize },
    #[error("variation {id}: {reason}")]
    Variation { id: u32, reason: String },
    #[error("comment {id}: {reason}")]
    Comment { id: u32, reason: String },
}

/// Checks the tree's shape against a main line of `actions` actions: sizes, ids (1 or more,
/// unique), parents written before their children, comments on nodes that exist.
pub fn check_shape(
    actions: usize,
    variations: &[VariationNode],
    comments: &[Comment],
) -> Result<(), TreeError> {
    if variations.len() > MAX_VARIATIONS || comments.len() > MAX_COMMENTS {
        return Err(TreeError::TooBig { variations: variations.len(), comments: comments.len() });
    }
    let mut seen = std::collections::HashSet::with_capacity(variations.len());
    let exists = |node: NodeRef, seen: &std::collections::HashSet<u32>| match node {
        NodeRef::At(k) => (k as usize) <= actions,
        NodeRef::Var(id) => seen.contains(&id),
    };
    for v in variations {
        let bad = |reason: &str| TreeError::Variation { id: v.id, reason: reason.into() };
        if v.id == 0 || seen.contains(&v.id) {
            return Err(bad("ids are 1 or more and unique"));
        }
        if !exists(v.parent, &seen) {
            return Err(bad("its parent is not in the record before it"));
        }
        seen.insert(v.id);
    }
    for c in comments {
        if !exists(c.node, &seen) {
            return Err(TreeError::Comment {
                id: c.id,
                reason: "it is on a node the record does not have".into(),
            });
        }
    }
    Ok(())
}

/// The variations hanging from each node, in record order.
pub fn children(variations: &[VariationNode]) -> HashMap<NodeRef, Vec<usize>> {
    let mut kids: HashMap<NodeRef, Vec<usize>> = HashMap::new();
    for (i, v) in variations.iter().enumerate() {
        kids.entry(v.parent).or_default().push(i);
    }
    kids
}

/// Plays every variation below `game` (the position of `node`) and reports the first refused
/// one with the engine's reason. Iterative: a chain of thousands of nodes needs no deep stack;
/// each pending child holds its parent's position shared, not a copy of its own.
pub fn check_below(
    game: &AnyGame,
    node: NodeRef,
    variations: &[VariationNode],
    kids: &HashMap<NodeRef, Vec<usize>>,
) -> Result<(), TreeError> {
    let Some(first) = kids.get(&node) else { return Ok(()) };
    let start = Rc::new(game.clone());
    let mut pending: Vec<(Rc<AnyGame>, usize)> = first.iter().rev().map(|&i| (start.clone(), i)).collect();
    while let Some((parent, i)) = pending.pop() {
        let Some(v) = variations.get(i) else { continue };
        let mut g = (*parent).clone();
        g.submit(Player(v.player), &v.input)
            .map_err(|r| TreeError::Variation { id: v.id, reason: r.message })?;
        if let Some(next) = kids.get(&NodeRef::Var(v.id)) {
            let g = Rc::new(g);
            pending.extend(next.iter().rev().map(|&c| (g.clone(), c)));
        }
    }
    Ok(())
}

/// Counts moves as a move list numbers them. A new move starts when the acting seat changes or
/// a chance draw came between; actions that are no move get none: chance outcomes (drawn by the
/// server), simultaneous decisions (classic's dead-stone marking, GoBeyond's Clean-Up, Tribal's
/// reactions and surrender answers) and actions of a seat the position does not wait for (a
/// resignation out of turn). Consecutive actions of one seat's turn share its number (BeSiege's
/// move and drop, Tribal's place and card).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct MoveCounter {
    number: u32,
    last_seat: Option<u8>,
    chance_since: bool,
}

impl MoveCounter {
    /// The number of an action of `player` played in a position that waits for `turn`.
    pub fn next(&mut self, turn: &Turn, player: u8) -> Option<u32> {
        if turn.chance.is_some() {
            self.chance_since = true;
            return None;
        }
        if turn.simultaneous || !turn.seats.contains(&Player(player)) {
            return None;
        }
        if self.last_seat != Some(player) || self.chance_since || self.number == 0 {
            self.number += 1;
        }
        self.last_seat = Some(player);
        self.chance_since = false;
        Some(self.number)
    }
}

/// The move number of each of `actions` played from `game` (the start), with the counter as it
/// stands before each action and after the last (index `actions.len()`), from which
/// variations go on counting. Stops at the first refused action.
pub fn number_moves(mut game: AnyGame, actions: &[(u8, &Object)]) -> (Vec<Option<u32>>, Vec<MoveCounter>) {
    let mut counter = MoveCounter::default();
    let mut numbers = Vec::with_capacity(actions.len());
    let mut counters = Vec::with_capacity(actions.len() + 1);
    for &(player, input) in actions {
        counters.push(counter);
        numbers.push(counter.next(&game.turn(), player));
        if game.submit(Player(player), input).is_err() {
            return (numbers, counters);
        }
    }
    counters.push(counter);
    (numbers, counters)
}

/// The move numbers of a whole tree: the main line's and each variation's (in the order of
/// `variations`). A variation goes on counting from its parent's position; a variation the
/// engine refuses (and those below it) gets none.
pub fn number_tree(
    game: AnyGame,
    actions: &[(u8, &Object)],
    variations: &[VariationNode],
) -> (Vec<Option<u32>>, Vec<Option<u32>>) {
    let kids = children(variations);
    let mut numbers = vec![None; variations.len()];
    let mut main = Vec::with_capacity(actions.len());
    let mut counter = MoveCounter::default();
    let mut game = game;
    for k in 0..=actions.len() {
        if let Some(first) = kids.get(&NodeRef::At(k as u32)) {
            number_below(&game, counter, first, variations, &kids, &mut numbers);
        }
        let Some(&(player, input)) = actions.get(k) else { break };
        main.push(counter.next(&game.turn(), player));
        if game.submit(Player(player), input).is_err() {
            break;
        }
    }
    (main, numbers)
}

fn number_below(
    game: &AnyGame,
    counter: MoveCounter,
    first: &[usize],
    variations: &[VariationNode],
    kids: &HashMap<NodeRef, Vec<usize>>,
    numbers: &mut [Option<u32>],
) {
    let start = Rc::new(game.clone());
    let mut pending: Vec<(Rc<AnyGame>, MoveCounter, usize)> =
        first.iter().rev().map(|&i| (start.clone(), counter, i)).collect();
    while let Some((parent, mut counter, i)) = pending.pop() {
        let Some(v) = variations.get(i) else { continue };
        let number = counter.next(&parent.turn(), v.player);
        let mut g = (*parent).clone();
        if g.submit(Player(v.player), &v.input).is_err() {
            continue;
        }
        if let Some(slot) = numbers.get_mut(i) {
            *slot = number;
        }
        if let Some(next) = kids.get(&NodeRef::Var(v.id)) {
            let g = Rc::new(g);
            pending.extend(next.iter().rev().map(|&c| (g.clone(), counter, c)));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn turn(seat: u8, phase: &'static str) -> Turn {
        Turn::to_move(Some(Player(seat)), phase)
    }

    fn chance(seat: u8) -> Turn {
        Turn { seats: Vec::new(), phase: "playing", simultaneous: false, chance: Some(Player(seat)) }
    }

    fn decision(seats: &[u8], phase: &'static str) -> Turn {
        Turn { seats: seats.iter().map(|&s| Player(s)).collect(), phase, simultaneous: true, chance: None }
    }

    #[test]
    fn alternating_moves_count_one_each() {
        // Classic, Gengo, Capture Go, GoBeyond with three seats: one action a move.
        let mut c = MoveCounter::default();
        let numbers: Vec<_> = [0u8, 1, 2, 0, 1].iter().map(|&s| c.next(&turn(s, "playing"), s)).collect();
        assert_eq!(numbers, [Some(1), Some(2), Some(3), Some(4), Some(5)]);
    }

    #[test]
    fn a_move_and_a_drop_of_one_seat_share_a_number() {
        // BeSiege (The Way of Go): a move, then a drop of the same seat.
        let mut c = MoveCounter::default();
        assert_eq!(c.next(&turn(0, "playing"), 0), Some(1));
        assert_eq!(c.next(&turn(0, "drop_after_move"), 0), Some(1));
        assert_eq!(c.next(&turn(1, "playing"), 1), Some(2));
        assert_eq!(c.next(&turn(1, "move_after_drop"), 1), Some(2));
    }

    #[test]
    fn dice_get_no_number_and_start_the_next_turn() {
        // Tribal Go: the server rolls for a seat, which places (and plays cards) in its turn;
        // others' reactions are decisions, no moves.
        let mut c = MoveCounter::default();
        assert_eq!(c.next(&chance(0), 0), None);
        assert_eq!(c.next(&turn(0, "playing"), 0), Some(1));
        assert_eq!(c.next(&turn(0, "card"), 0), Some(1));
        assert_eq!(c.next(&decision(&[1, 2], "reaction"), 1), None);
        assert_eq!(c.next(&chance(0), 0), None);
        // The same seat again after a roll (the others skipped): a new move.
        assert_eq!(c.next(&turn(0, "playing"), 0), Some(2));
    }

    #[test]
    fn decisions_and_actions_out_of_turn_get_none() {
        // Classic's dead-stone marking, GoBeyond's Clean-Up; a resignation out of turn.
        let mut c = MoveCounter::default();
        assert_eq!(c.next(&turn(0, "playing"), 0), Some(1));
        assert_eq!(c.next(&turn(1, "playing"), 2), None);
        assert_eq!(c.next(&decision(&[0, 1], "scoring"), 0), None);
        assert_eq!(c.next(&decision(&[0, 1, 2], "clean_up"), 2), None);
        assert_eq!(c.next(&turn(1, "playing"), 1), Some(2));
    }
}
