//! Ladder reading for the tree's priors, on any graph, between two players.
//!
//! A ladder is a chase in which the attacker keeps a group in atari until it is captured: the
//! defender extends at its one liberty, gets two, and the attacker takes one of them. Random
//! playouts misjudge ladders both ways (the escaper is rarely caught in a playout, and an atari
//! that works as a ladder rarely finishes), so the search is told the result of reading it.
//!
//! The reader follows the chase on any map: at each step it tries both liberties for the
//! attacker, refuses an attacking stone that could itself be captured at once, and counts the
//! defender as escaped when it reaches three liberties, captures an attacking group in atari
//! (a ladder breaker), or the reading runs past its budget. Boards for every depth are kept and
//! reused, so reading allocates nothing once warmed up.

use gobeyond_maps::NodeId;
use gobeyond_rules::{Board, Player, SuicideRule, board::EMPTY};

/// Deepest chase read (in moves of both players).
const MAX_DEPTH: usize = 60;
/// Positions visited per reading; beyond it the defender is assumed to escape.
const BUDGET: u32 = 400;

/// Reusable ladder reader (boards for every depth of the chase).
#[derive(Debug, Clone, Default)]
pub struct LadderReader {
    stack: Vec<Board>,
    visited: u32,
}

/// Distinct liberties of the group at `node`, counted up to `cap` (at most 8; no allocation).
pub fn liberty_count(board: &Board, node: NodeId, cap: usize) -> usize {
    let mut seen = [0 as NodeId; 8];
    liberties(board, node, &mut seen[..cap.min(8)])
}

/// The first distinct liberties of the group at `node`, as many as `libs` holds; returns how
/// many were found (`libs.len()`: that many or more). Stops as soon as `libs` is full.
pub fn liberties(board: &Board, node: NodeId, libs: &mut [NodeId]) -> usize {
    let mut count = 0;
    for s in board.group_stones(node) {
        for &q in board.map().neighbors(s) {
            if count == libs.len() {
                return count;
            }
            if board.color(q) == EMPTY && !libs[..count].contains(&q) {
                libs[count] = q;
                count += 1;
            }
        }
    }
    count
}

impl LadderReader {
    pub fn new() -> LadderReader {
        LadderReader::default()
    }

    /// Whether the group at `stone`, which is in atari, is captured in a ladder even if its
    /// owner extends at its last liberty now (`attacker` being the only opponent).
    pub fn escape_fails(&mut self, board: &Board, stone: NodeId, attacker: Player) -> bool {
        let Some(defender) = board.stone_at(stone) else {
            return false;
        };
        self.visited = 0;
        self.load(0, board);
        self.defend(0, stone, defender, attacker)
    }

    /// Whether `attacker` playing `node` ataris a neighbouring group of `defender` that then
    /// cannot escape (the atari works as a ladder or the group has nowhere to go).
    pub fn atari_captures(
        &mut self,
        board: &Board,
        node: NodeId,
        attacker: Player,
        defender: Player,
    ) -> bool {
        if board.check(node, attacker, SuicideRule::Forbidden).is_err() {
            return false;
        }
        let map = board.map().clone();
        let targets = map
            .neighbors(node)
            .iter()
            .copied()
            .filter(|&q| board.color(q) == defender.stone() && liberty_count(board, q, 3) == 2);
        for q in targets {
            self.visited = 0;
            self.load(0, board);
            self.stack[0].play_unchecked(node, attacker);
            if liberty_count(&self.stack[0], node, 2) >= 2 && self.defend(0, q, defender, attacker) {
                return true;
            }
        }
        false
    }

    fn load(&mut self, depth: usize, from: &Board) {
        if self.stack.len() <= depth {
            self.stack.push(from.clone());
        } else {
            self.stack[depth].copy_from(from);
        }
    }

    /// Copies the board at `depth` to `depth + 1`.
    fn push(&mut self, depth: usize) {
        if self.stack.len() <= depth + 1 {
            let b = self.stack[depth].clone();
            self.stack.push(b);
        } else {
            let (low, high) = self.stack.split_at_mut(depth + 1);
            high[0].copy_from(&low[depth]);
        }
    }

    /// The position at `depth` has the defender's group at `stone` in atari, defender to move:
    /// true when it is captured however it extends.
    fn defend(&mut self, depth: usize, stone: NodeId, defender: Player, attacker: Player) -> bool {
        self.visited += 1;
        if depth + 2 >= MAX_DEPTH || self.visited > BUDGET {
            return false;
        }
        let b = &self.stack[depth];
        let Some(lib) = b.atari_liberty(stone) else {
            return false;
        };
        // A ladder breaker: the defender captures an attacking group next to it.
        let map = b.map();
        let breaks = b
            .group_stones(stone)
            .any(|s| map.neighbors(s).iter().any(|&q| b.color(q) == attacker.stone() && b.in_atari(q)));
        if breaks {
            return false;
        }
        if b.check(lib, defender, SuicideRule::Forbidden).is_err() {
            return true;
        }
        self.push(depth);
        let d1 = depth + 1;
        self.stack[d1].play_unchecked(lib, defender);
        let b = &self.stack[d1];
        if b.color(lib) != defender.stone() {
            return true;
        }
        match liberty_count(b, lib, 3) {
            0 | 1 => return true,
            2 => {}
            _ => return false,
        }
        let libs = {
            let mut l = [0 as NodeId; 2];
            let mut n = 0;
            for s in b.group_stones(lib) {
                for &q in b.map().neighbors(s) {
                    if b.color(q) == EMPTY && !l[..n].contains(&q) && n < 2 {
                        l[n] = q;
                        n += 1;
                    }
                }
            }
            l
        };
        for x in libs {
            if self.stack[d1].check(x, attacker, SuicideRule::Forbidden).is_err() {
                continue;
            }
            self.push(d1);
            let d2 = d1 + 1;
            self.stack[d2].play_unchecked(x, attacker);
            let b = &self.stack[d2];
            // An attacking stone in atari is captured by the defender, who then escapes.
            if b.color(x) != attacker.stone() || liberty_count(b, x, 2) < 2 {
                continue;
            }
            if self.defend(d2, lib, defender, attacker) {
                return true;
            }
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use gobeyond_maps::generate;

    use super::*;

    const B: Player = Player(0);
    const W: Player = Player(1);

    /// A 9×9 board from rows (top row first): `X` Black, `O` White.
    fn board(rows: &[&str]) -> Board {
        let map = Arc::new(generate("square:9").unwrap());
        let mut b = Board::new(map);
        for (y, row) in rows.iter().enumerate() {
            for (x, c) in row.chars().enumerate() {
                let n = at(&b, x as u32, y as u32);
                match c {
                    'X' => b.put_stone(n, B),
                    'O' => b.put_stone(n, W),
                    _ => {}
                }
            }
        }
        b
    }

    fn at(b: &Board, x: u32, y: u32) -> NodeId {
        let map = b.map();
        map.nodes().find(|&n| map.grid_position(n) == Some((x, y))).unwrap()
    }

    /// White's stone at column 6, row 6 has two liberties (right and above). Black's atari from
    /// the right drives it along the diagonal to the upper left corner.
    const LADDER: [&str; 9] = [
        ".........",
        ".........",
        ".........",
        ".........",
        ".........",
        ".......X.",
        ".....XO..",
        "......X..",
        ".........",
    ];

    #[test]
    fn a_ladder_works_unless_a_stone_breaks_it() {
        let mut reader = LadderReader::new();
        let b = board(&LADDER);
        let (white, atari) = (at(&b, 6, 6), at(&b, 7, 6));
        assert!(reader.atari_captures(&b, atari, B, W), "the ladder should work");
        let mut b2 = b.clone();
        b2.put_stone(atari, B);
        assert!(reader.escape_fails(&b2, white, B));
        // A white stone on the ladder's path breaks it.
        let mut broken = LADDER;
        broken[2] = "..O......";
        let b = board(&broken);
        assert!(!reader.atari_captures(&b, atari, B, W), "the breaker should save White");
        // A black stone there instead changes nothing.
        broken[2] = "..X......";
        let b = board(&broken);
        assert!(reader.atari_captures(&b, atari, B, W));
    }

    #[test]
    fn an_atari_into_the_open_lets_the_group_out() {
        let mut rows = LADDER;
        rows[5] = ".........";
        let b = board(&rows);
        // Without the diagonal stone, the atari from above lets White out to the right.
        assert!(!LadderReader::new().atari_captures(&b, at(&b, 6, 5), B, W));
    }

    #[test]
    fn an_attacking_stone_in_atari_breaks_the_ladder() {
        let mut rows = LADDER;
        // The black stone below White is itself in atari: White takes it instead of running.
        rows[7] = ".....OXO.";
        rows[8] = "......O..";
        let b = board(&rows);
        assert!(!LadderReader::new().atari_captures(&b, at(&b, 7, 6), B, W));
        // Without the breaker the same atari captures.
        assert!(LadderReader::new().atari_captures(&board(&LADDER), at(&b, 7, 6), B, W));
    }
}
