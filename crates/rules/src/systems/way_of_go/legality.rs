//! What the player to move may do: drops (on neutral points in BeSiege, rule 7), moves and
//! captures along the lines, whether any turn is left at all, and the check of one action
//! (`docs/rules/way-of-go.md`, `docs/rules/besiege.md`).

use std::cell::RefCell;

use gobeyond_maps::{Direction, NodeId};

use super::{Action, Colour, Illegal, Landing, Phase, StackBoard, Step, Variant, WayGame};
use crate::Player;

thread_local! {
    /// A board to try a move on (is a drop left after it?), reused.
    static AFTER_MOVE: RefCell<Option<StackBoard>> = const { RefCell::new(None) };
}

impl<V: Variant> WayGame<V> {
    /// Colours attacking `node`: bit 0 Black, bit 1 White (always 0 without neutral drops).
    /// The board keeps them up to date (`reach.rs`).
    pub fn attacked_by(&self, node: NodeId) -> u8 {
        self.board.attackers(node)
    }

    /// Who attacks each node of the board (bit 0 Black, bit 1 White), for views.
    pub fn attack_map(&self) -> std::borrow::Cow<'_, [u8]> {
        std::borrow::Cow::Owned(self.map.nodes().map(|n| self.board.attackers(n)).collect())
    }

    /// Whether a stone may be dropped on `node` now (empty, and neutral where that matters).
    pub fn may_drop(&self, node: NodeId) -> Result<(), Illegal> {
        if !self.board.is_empty(node) {
            return Err(Illegal::Occupied { node });
        }
        if self.config.neutral_drops && self.attacked_by(node) != 0 {
            return Err(Illegal::NotNeutral { node });
        }
        Ok(())
    }

    fn any_drop(&self) -> bool {
        self.map.nodes().any(|n| self.may_drop(n).is_ok())
    }

    /// The move `from`-`to` lifting `count` stones of the mover, with what it does. The first
    /// direction that reaches `to` is used when `dir` is `None`.
    pub fn find_move(
        &self,
        from: NodeId,
        count: u8,
        to: NodeId,
        dir: Option<Direction>,
    ) -> Result<(Step, Landing), Illegal> {
        let player = self.to_move.ok_or(Illegal::GameOver)?;
        let colour = self.colour_of(player);
        if self.board.colour(from) != Some(colour) {
            return Err(Illegal::NotYours { node: from });
        }
        let height = self.board.height(from);
        let max = if self.config.stacks { height } else { 1 };
        if count == 0 || count > max {
            return Err(Illegal::Count { node: from, count, height });
        }
        let range = self.board.range(from, count);
        if range == 0 {
            return Err(Illegal::NoRange { node: from });
        }
        let mut found = None;
        let mut own = false;
        let each = |s: Step| {
            if s.to != to || found.is_some() {
                return;
            }
            match self.board.landing(colour, &s, self.config.stacks, self.config.push) {
                Some(l) => found = Some((s, l)),
                None => own = true,
            }
        };
        match dir {
            // The search names the direction of every move it plays: one walk, not all.
            Some(d) => self.board.step_along(from, count, d, range).into_iter().for_each(each),
            None => self.board.steps(from, count, each),
        }
        match found {
            Some(f) => Ok(f),
            None if own => Err(Illegal::OwnPiece { to }),
            None => Err(Illegal::NotInRange { from, to, range }),
        }
    }

    /// Every move of the player to move with its landing (whatever the point of the turn).
    pub fn moves(&self, each: impl FnMut(Step, Landing)) {
        let Some(player) = self.to_move else { return };
        self.board.moves(self.colour_of(player), self.config.stacks, self.config.push, each);
    }

    /// Every capturing move of the player to move, in the order of [`WayGame::moves`].
    pub fn capturing_moves(&self, each: impl FnMut(Step, Landing)) {
        let Some(player) = self.to_move else { return };
        self.board.capturing_moves(self.colour_of(player), self.config.stacks, self.config.push, each);
    }

    /// Whether a drop would be possible after this non-capturing move (BeSiege: neutral
    /// points change with every move).
    pub(super) fn drop_after(&self, step: &Step, landing: Landing) -> bool {
        if !self.config.neutral_drops {
            // The moved piece leaves its node empty.
            return true;
        }
        let colour = self.colour_of(self.to_move.unwrap_or(Player(0)));
        AFTER_MOVE.with_borrow_mut(|trial| {
            let board = trial.get_or_insert_with(|| self.board.clone());
            board.clone_from(&self.board);
            board.apply(colour, step, landing);
            self.map.nodes().any(|n| board.is_empty(n) && board.attackers(n) == 0)
        })
    }

    /// Whether the player to move has any turn at all (drop, move then drop, capture).
    pub fn has_turn(&self) -> bool {
        if self.any_drop() {
            return true;
        }
        let mut any = false;
        self.moves(|s, l| {
            if !any && (l.captures() || self.drop_after(&s, l)) {
                any = true;
            }
        });
        any
    }

    /// Checks `action` for the player to move.
    pub fn check_action(&self, action: Action) -> Result<(), Illegal> {
        if self.to_move.is_none() {
            return Err(Illegal::GameOver);
        }
        match (self.phase, action) {
            (Phase::Over, _) => Err(Illegal::GameOver),
            (_, Action::Resign) => Ok(()),
            (Phase::Pie { black, white }, Action::PieStone { node, colour }) => {
                let full = match colour {
                    Colour::Black => black >= 2,
                    Colour::White => white >= 1,
                };
                if full {
                    return Err(Illegal::PieColour { colour });
                }
                self.check_node(node)?;
                self.may_drop(node)
            }
            (Phase::Pie { .. }, _) => {
                Err(Illegal::WrongStep { expected: "the pie: two Black stones and one White" })
            }
            (Phase::Choose, Action::ChooseSide(_)) => Ok(()),
            (Phase::Choose, _) => Err(Illegal::WrongStep { expected: "choose Black or White" }),
            (Phase::Start | Phase::AfterMove, Action::Drop(node)) => {
                self.check_node(node)?;
                self.may_drop(node)
            }
            (Phase::Start, Action::Move { from, count, dir, to }) => {
                self.check_node(from)?;
                self.check_node(to)?;
                let (step, landing) = self.find_move(from, count, to, Some(dir))?;
                if !landing.captures() && !self.drop_after(&step, landing) {
                    return Err(Illegal::NoDropAfter { from, to });
                }
                Ok(())
            }
            (Phase::AfterDrop { dropped }, Action::Move { from, count, dir, to }) => {
                self.check_node(from)?;
                self.check_node(to)?;
                if from == dropped {
                    return Err(Illegal::DroppedPiece { node: from });
                }
                let (_, landing) = self.find_move(from, count, to, Some(dir))?;
                if landing.captures() {
                    return Err(Illegal::CaptureNotNow { to });
                }
                Ok(())
            }
            (Phase::AfterDrop { .. }, Action::EndTurn) => Ok(()),
            (Phase::Start, Action::Pass) => {
                if self.has_turn() {
                    Err(Illegal::PassNotForced)
                } else {
                    Ok(())
                }
            }
            (Phase::Start, _) => Err(Illegal::WrongStep { expected: "drop, move, or capture" }),
            (Phase::AfterMove, _) => Err(Illegal::WrongStep { expected: "the drop that follows a move" }),
            (Phase::AfterDrop { .. }, _) => {
                Err(Illegal::WrongStep { expected: "a non-capturing move of another piece, or end the turn" })
            }
        }
    }

    fn check_node(&self, node: NodeId) -> Result<(), Illegal> {
        if self.map.contains(node as u64) { Ok(()) } else { Err(Illegal::UnknownNode { node: node as u64 }) }
    }

    /// Legal drops now, appended to `out`.
    pub fn drops(&self, out: &mut Vec<NodeId>) {
        out.extend(self.map.nodes().filter(|&n| self.may_drop(n).is_ok()));
    }
}
