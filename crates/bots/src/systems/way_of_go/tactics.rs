//! BeSiege's one-turn tactics: threats, the biggest capture on a board, what a board left at
//! the end of a turn means for its mover, the heavier levels' tactical prior, and the capture
//! a seat takes at once.

use std::cell::RefCell;

use gobeyond_maps::NodeId;
use gobeyond_rules::{
    Game,
    way_of_go::{Action, Colour, Config, Phase, StackBoard, Variant, WayGame},
};

use crate::search::searchable::Prior;

/// Whether a stone of `colour` on `node` would touch an enemy stack (and so take a liberty).
pub(super) fn touches_enemy<V: Variant>(game: &WayGame<V>, node: NodeId, colour: Colour) -> bool {
    let board = game.board();
    game.map().neighbors(node).iter().any(|&w| board.colour(w) == Some(colour.other()))
}

/// Whether a BeSiege stone of `colour` dropped on `node`, touching no stone, would attack an
/// enemy stack: its range is then its empty neighbours, and it threatens whatever enemy stack
/// lies exactly that far along a line. Such a drop cannot be taken at once (its node was
/// neutral and it changes no enemy's range), so the opponent has to answer it. Drops next to
/// stones change ranges in ways this cheap test does not follow: they count as no threat. (In
/// The Way of Go a drop may land where it can be taken: no drop counts as a threat.)
pub(super) fn threatens<V: Variant>(game: &WayGame<V>, node: NodeId, colour: Colour) -> bool {
    if !game.config().neutral_drops {
        return false;
    }
    let board = game.board();
    let neighbours = game.map().neighbors(node);
    if neighbours.iter().any(|&w| !board.is_empty(w)) {
        return false;
    }
    let range = neighbours.len() as u32;
    (0..board.directions()).any(|dir| {
        board
            .walk(node, dir, range)
            .is_some_and(|(to, _)| to != node && board.colour(to) == Some(colour.other()))
    })
}

/// The biggest capture (enemy stones removed) `colour` could make on `board` with one move.
pub(super) fn best_capture(board: &StackBoard, colour: Colour, config: &Config) -> u32 {
    if board.may_capture(colour) == Some(false) {
        return 0;
    }
    let mut best = 0;
    board
        .capturing_moves(colour, config.stacks, config.push, |s, l| best = best.max(board.removed_by(&s, l)));
    best
}

/// What a board left at the end of a turn means for its mover: the opponent's biggest capture
/// next (a stack left hanging), and the mover's own if the opponent did nothing (a threat).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Outlook {
    theirs: u32,
    mine: u32,
}

fn outlook(board: &StackBoard, mover: Colour, config: &Config) -> Outlook {
    Outlook { theirs: best_capture(board, mover.other(), config), mine: best_capture(board, mover, config) }
}

thread_local! {
    /// A board to try one action on (BeSiege's priors), reused.
    static TRIAL: RefCell<Option<StackBoard>> = const { RefCell::new(None) };
    /// The last position's biggest capture for the player to move: (board hash, colour, size).
    static AT_START: RefCell<Option<(u64, Colour, u32)>> = const { RefCell::new(None) };
}

/// `f` on the reused trial board, set to `game`'s position first.
fn on_trial<V: Variant, R>(game: &WayGame<V>, f: impl FnOnce(&mut StackBoard) -> R) -> R {
    TRIAL.with_borrow_mut(|trial| {
        let board = trial.get_or_insert_with(|| game.board().clone());
        board.clone_from(game.board());
        f(board)
    })
}

/// The biggest capture the player to move has now, remembered for the position (every child
/// of a node asks the same question).
fn capture_now<V: Variant>(game: &WayGame<V>, colour: Colour) -> u32 {
    let hash = game.board().hash();
    if let Some((h, c, best)) = AT_START.with_borrow(|a| *a)
        && h == hash
        && c == colour
    {
        return best;
    }
    let best = best_capture(game.board(), colour, game.config());
    AT_START.with_borrow_mut(|a| *a = Some((hash, colour, best)));
    best
}

/// BeSiege's one-turn tactical prior for the heavier levels: the action is tried on a copy of
/// the board as if it ended the turn (a move that a drop must follow is judged before the
/// drop), and judged by what it captures, whether it leaves the opponent a capture, whether it
/// leaves a threat the opponent must answer, and (at the start of a turn) whether it passes by
/// a capture that was there to take. Every BeSiege capture is a trade (the capturing stones go
/// too), so games between bots are won by the captures one side is left to take for free:
/// exactly what this looks one turn ahead for.
pub(super) fn tactical_prior<V: Variant>(game: &WayGame<V>, action: Action, colour: Colour) -> Option<Prior> {
    let config = game.config();
    let (gain, after) = on_trial(game, |board| {
        let gain = match action {
            Action::Drop(n) => {
                board.drop_stone(n, colour);
                0
            }
            Action::Move { from, count, dir, to } => {
                let (step, landing) = game.find_move(from, count, to, Some(dir)).ok()?;
                board.apply(colour, &step, landing).0
            }
            Action::EndTurn => 0,
            _ => return None,
        };
        Some((gain, outlook(board, colour, config)))
    })?;
    let missed = game.phase() == Phase::Start && gain == 0 && capture_now(game, colour) > 0;
    let mut value = 0.5 + 0.15 * gain as f32;
    if after.theirs > 0 {
        value -= 0.15 + 0.04 * after.theirs as f32;
    } else if after.mine > 0 && !missed {
        value += 0.08;
    }
    if missed {
        // A capture left for later is not a threat gained: the opponent answers it first.
        value -= 0.15;
    }
    Some(Prior { visits: 30.0, value: value.clamp(0.05, 0.95) })
}

/// BeSiege, at the start of a turn with a capture on the board: the capture to take, at once.
/// Captures come one a turn, so threats cannot be saved up — each one the opponent sees, it
/// answers — yet playouts, in which nobody answers a threat, value a capture kept for later
/// as much as one taken now (and a drop besides as more): a search left to itself hoards
/// threats that a real opponent then defends. So a capture is always taken: the one that
/// removes most stones net of what it leaves the opponent to take, then the one that leaves
/// the biggest threat, then the first found.
pub(super) fn capture_to_take<V: Variant>(game: &WayGame<V>) -> Option<Action> {
    if !game.config().neutral_drops || game.phase() != Phase::Start {
        return None;
    }
    let colour = game.colour_of(game.to_move()?);
    if game.board().may_capture(colour) == Some(false) {
        return None;
    }
    let config = game.config();
    let mut best: Option<((i64, u32), Action)> = None;
    game.capturing_moves(|s, l| {
        let (gain, o) = on_trial(game, |board| {
            let gain = board.apply(colour, &s, l).0;
            (gain, outlook(board, colour, config))
        });
        let key = (gain as i64 - o.theirs as i64, o.mine);
        if best.is_none_or(|(k, _)| key > k) {
            best = Some((key, Action::Move { from: s.from, count: s.count, dir: s.dir, to: s.to }));
        }
    });
    best.map(|(_, a)| a)
}
