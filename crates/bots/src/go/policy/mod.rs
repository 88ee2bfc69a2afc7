//! Playout policies on the bare board, for every map; each in a file of its own, sharing the
//! small board helpers below. The search never sees them: the Go-board systems' scratch
//! ([`crate::go::Scratch`]) carries the policy its configuration names.
//!
//! - [`light`]: a uniformly random legal move that does not fill the mover's own eye.
//! - [`tactics`]: first the tactics around the last move (captures, escapes), then a light move
//!   that is not a big self-atari; the frame the heavier policies add a stage to.
//! - [`reading`]: the tactics, then groups of two liberties next to the last move.
//! - [`heavy`]: the tactics, then MoGo-style shape around the last move.
//! - [`patterns`]: the tactics, then of two light moves the one the learned shapes prefer.

pub mod heavy;
pub mod light;
pub mod patterns;
pub mod reading;
pub mod tactics;

use gobeyond_maps::NodeId;
use gobeyond_rules::{
    Board, Player, Rng,
    board::EMPTY,
    playout::{PlayoutTables, choose_light},
};

pub use self::tactics::{Stage, choose_heavy, urgent};

/// Which playout policy a search uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Policy {
    Light,
    Tactics,
    /// The tactics, then groups of two liberties next to the last move: extend an own one to
    /// three liberties, put an opponent's in atari where it cannot extend to three.
    Reading,
    Heavy,
    /// The tactics, then of two light moves the one the learned shape weights prefer (drawn
    /// in proportion to them).
    Patterns,
}

impl std::str::FromStr for Policy {
    type Err = String;

    fn from_str(s: &str) -> Result<Policy, String> {
        match s {
            "light" => Ok(Policy::Light),
            "tactics" => Ok(Policy::Tactics),
            "reading" => Ok(Policy::Reading),
            "heavy" => Ok(Policy::Heavy),
            "patterns" => Ok(Policy::Patterns),
            other => Err(format!("policy is light, tactics, reading, heavy or patterns, not {other:?}")),
        }
    }
}

impl Policy {
    /// The move of a policy that needs the previous placement; `None` is a pass.
    #[inline]
    pub fn choose(
        self,
        board: &Board,
        tables: &PlayoutTables,
        player: Player,
        last: Option<NodeId>,
        rng: &mut Rng,
    ) -> Option<NodeId> {
        match self {
            Policy::Light => light::choose(board, tables, player, rng),
            Policy::Tactics => choose_heavy(board, tables, player, last, Stage::None, rng),
            Policy::Reading => choose_heavy(board, tables, player, last, Stage::TwoLiberties, rng),
            Policy::Heavy => choose_heavy(board, tables, player, last, Stage::Shape, rng),
            Policy::Patterns => patterns::choose(board, tables, player, last, rng),
        }
    }
}

/// Liberties the group at `node` would have after `player` plays `node` (distinct nodes, capped at
/// `cap`), ignoring captures. Allocation-free; cost grows with the groups joined.
fn liberties_after(board: &Board, node: NodeId, player: Player, cap: usize, seen: &mut [NodeId; 8]) -> usize {
    let map = board.map();
    let stone = player.stone();
    let mut count = 0;
    let mut add = |q: NodeId, count: &mut usize| {
        if q != node && !seen[..*count].contains(&q) && *count < cap {
            seen[*count] = q;
            *count += 1;
        }
    };
    for &q in map.neighbors(node) {
        if board.color(q) == EMPTY {
            add(q, &mut count);
        }
    }
    for &q in map.neighbors(node) {
        if board.color(q) == stone {
            for s in board.group_stones(q) {
                for &l in map.neighbors(s) {
                    if board.color(l) == EMPTY {
                        add(l, &mut count);
                    }
                }
                if count >= cap {
                    return count;
                }
            }
        }
    }
    count
}

/// True when `node` captures something for `player`.
fn captures(board: &Board, node: NodeId, player: Player) -> bool {
    board.map().neighbors(node).iter().any(|&q| {
        let c = board.color(q);
        c != EMPTY && c != player.stone() && board.atari_liberty(q) == Some(node)
    })
}

/// A self-atari of two or more stones (a lone stone in atari is often a good throw-in).
fn bad_self_atari(board: &Board, node: NodeId, player: Player) -> bool {
    let mut seen = [0; 8];
    if captures(board, node, player) || liberties_after(board, node, player, 2, &mut seen) >= 2 {
        return false;
    }
    board.map().neighbors(node).iter().any(|&q| board.color(q) == player.stone())
}

/// Distinct group ids, at most 8 (enough for the neighbours of a node on any map we draw).
struct Groups {
    ids: [NodeId; 8],
    len: usize,
}

impl Groups {
    fn new() -> Groups {
        Groups { ids: [0; 8], len: 0 }
    }

    /// Adds `id`; false when it was already there (or there is no room).
    fn add(&mut self, id: NodeId) -> bool {
        let new = self.len < self.ids.len() && !self.ids[..self.len].contains(&id);
        if new {
            self.ids[self.len] = id;
            self.len += 1;
        }
        new
    }
}

/// A light move, avoiding big self-ataris (a few tries, then anything light).
fn light_but_not_big_self_atari(
    board: &Board,
    tables: &PlayoutTables,
    player: Player,
    rng: &mut Rng,
) -> Option<NodeId> {
    for _ in 0..4 {
        let p = choose_light(board, tables, player, rng)?;
        if !bad_self_atari(board, p, player) {
            return Some(p);
        }
    }
    choose_light(board, tables, player, rng)
}

/// Plays a playout on `board` with `policy` until everyone passes in a row or `max_moves`;
/// each placement is reported to `played`. Returns the number of actions.
#[allow(clippy::too_many_arguments)]
pub fn playout(
    board: &mut Board,
    tables: &PlayoutTables,
    policy: Policy,
    first: Player,
    players: u8,
    rng: &mut Rng,
    max_moves: u32,
    played: &mut Vec<(Player, NodeId)>,
) -> u32 {
    let mut to_move = first.0;
    let mut passes = 0u8;
    let mut moves = 0;
    let mut last = None;
    while passes < players && moves < max_moves {
        let player = Player(to_move);
        let choice = policy.choose(board, tables, player, last, rng);
        match choice {
            Some(p) => {
                board.play_unchecked(p, player);
                played.push((player, p));
                passes = 0;
                last = Some(p);
            }
            None => {
                board.pass();
                passes += 1;
                last = None;
            }
        }
        moves += 1;
        to_move = (to_move + 1) % players;
    }
    moves
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use std::sync::Arc;

    use gobeyond_maps::generate;

    use super::{heavy::good_shape, reading::two_liberty_move, *};

    /// A board of `spec` with stones at labels: `(label, player)`.
    fn board(spec: &str, stones: &[(&str, u8)]) -> Board {
        let map = Arc::new(generate(spec).unwrap());
        let mut b = Board::new(map.clone());
        for &(label, p) in stones {
            b.put_stone(map.node_by_label(label).expect("a label of the map"), Player(p));
        }
        b
    }

    fn node(b: &Board, label: &str) -> NodeId {
        b.map().node_by_label(label).unwrap()
    }

    /// Every move `choose` picks from here over many draws, as sorted labels.
    fn all_picks(b: &Board, draws: usize, mut choose: impl FnMut(&mut Rng) -> Option<NodeId>) -> Vec<String> {
        let mut rng = Rng::new(7);
        let mut seen: Vec<String> =
            (0..draws).filter_map(|_| choose(&mut rng)).map(|n| b.map().label(n).to_string()).collect();
        seen.sort();
        seen.dedup();
        seen
    }

    /// Every move [`two_liberty_move`] picks from here.
    fn two_liberty_picks(b: &Board, player: u8, last: &str) -> Vec<String> {
        all_picks(b, 100, |rng| two_liberty_move(b, Player(player), node(b, last), rng))
    }

    #[test]
    fn a_group_left_with_two_liberties_extends_to_three() {
        // White's D3 leaves Black's C3 two liberties (C2, C4); either extension gives it four.
        let b = board("square:5", &[("C3", 0), ("B3", 1), ("D3", 1)]);
        assert_eq!(two_liberty_picks(&b, 0, "D3"), ["C2", "C4"]);
        // On the edge, Black's C1 after White's B1 (D2 White too): D1 would leave it two
        // liberties, C2 gives three. White's B1 has two liberties itself: B2 ataris it (and
        // A1 would be a self-atari).
        let b = board("square:5", &[("C1", 0), ("D2", 1), ("B1", 1)]);
        assert_eq!(two_liberty_picks(&b, 0, "B1"), ["B2", "C2"]);
        // In atari is the escape's business (`urgent`), not this one's.
        let b = board("square:5", &[("C1", 0), ("B1", 1), ("D1", 1)]);
        assert!(!two_liberty_picks(&b, 0, "D1").contains(&"C2".to_string()));
    }

    #[test]
    fn an_opponent_group_of_two_liberties_is_put_in_atari_only_where_it_cannot_run() {
        // White's A1 in the corner: either atari leaves its extension three liberties at most.
        let b = board("square:5", &[("A1", 1)]);
        assert_eq!(two_liberty_picks(&b, 0, "A1"), ["A2", "B1"]);
        // A white stone between two black ones in the open runs out of either atari: no move.
        let b = board("square:5", &[("C3", 1), ("B3", 0), ("D3", 0)]);
        assert!(two_liberty_picks(&b, 0, "C3").is_empty());
        // Three liberties or more: not this tactic's business.
        let b = board("square:5", &[("C3", 1)]);
        assert!(two_liberty_picks(&b, 0, "C3").is_empty());
    }

    /// Every move the heavy policy picks from here.
    fn picks(b: &Board, player: u8, last: &str) -> Vec<String> {
        let tables = PlayoutTables::new(b.map());
        all_picks(b, 200, |rng| {
            choose_heavy(b, &tables, Player(player), Some(node(b, last)), Stage::Shape, rng)
        })
    }

    #[test]
    fn cuts_between_two_opponent_stones() {
        // White's C3 and D4 touch D3 and C4 diagonally apart; Black to play cuts at one of them.
        let b = board("square:7", &[("C3", 1), ("D4", 1), ("E5", 0)]);
        let tables = PlayoutTables::new(b.map());
        assert!(good_shape(&b, &tables, node(&b, "D3"), Player(0)));
        assert!(good_shape(&b, &tables, node(&b, "C4"), Player(0)));
        // Not a shape move for White (it is White's own connection, with no Black stone near).
        assert!(!good_shape(&b, &tables, node(&b, "D3"), Player(1)));
        assert_eq!(picks(&b, 0, "D4"), vec!["C4", "D3"]);
    }

    #[test]
    fn connects_against_a_cut() {
        // Black C3 and D4 with White's last move at D3 threatening C4: Black connects at C4.
        let b = board("square:7", &[("C3", 0), ("D4", 0), ("D3", 1)]);
        let tables = PlayoutTables::new(b.map());
        assert!(good_shape(&b, &tables, node(&b, "C4"), Player(0)));
        assert!(picks(&b, 0, "D3").contains(&"C4".to_string()));
    }

    #[test]
    fn hanes_round_a_contact_stone() {
        // Black D3, White's contact stone D4 above it: E4 and C4 reach round it.
        let b = board("square:7", &[("D3", 0), ("D4", 1)]);
        let tables = PlayoutTables::new(b.map());
        assert!(good_shape(&b, &tables, node(&b, "E4"), Player(0)));
        assert!(good_shape(&b, &tables, node(&b, "C4"), Player(0)));
        assert!(!good_shape(&b, &tables, node(&b, "D5"), Player(0)), "not a shape point");
        assert_eq!(picks(&b, 0, "D4"), vec!["C4", "E4"]);
    }

    #[test]
    fn shape_needs_a_stone_nearby_and_tactics_come_first() {
        // Far from any stone: no shape move, the light move plays anywhere.
        let b = board("square:9", &[("E5", 1)]);
        assert!(picks(&b, 0, "E5").len() > 10);
        // A capture beats shape: White's A1 stone in atari next to the last move.
        let b = board("square:7", &[("A1", 1), ("A2", 0), ("C3", 1), ("D4", 1)]);
        assert_eq!(picks(&b, 0, "A1"), vec!["B1"]);
    }

    #[test]
    fn cuts_on_a_hex_grid_without_diagonals() {
        // On hexagonal cells every pair of common neighbours is adjacent: no diagonals, so no
        // hane; cutting two separate opponent stones still is shape.
        let b = board("hex:3", &[]);
        let map = b.map().clone();
        let tables = PlayoutTables::new(&map);
        let center = map.nodes().find(|&n| map.neighbors(n).len() == 6).unwrap();
        let ring = map.neighbors(center);
        // Two neighbours of `center` that are not adjacent to each other.
        let (a, c) = ring
            .iter()
            .flat_map(|&a| ring.iter().map(move |&c| (a, c)))
            .find(|&(a, c)| a != c && !map.are_adjacent(a, c))
            .unwrap();
        let mut b = Board::new(map.clone());
        b.put_stone(a, Player(1));
        b.put_stone(c, Player(1));
        assert!(tables.diagonals(center).is_empty());
        assert!(good_shape(&b, &tables, center, Player(0)));
        assert!(!good_shape(&b, &tables, center, Player(1)), "White's own connection");
    }
}
