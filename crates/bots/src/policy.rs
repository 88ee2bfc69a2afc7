//! Playout policies on the bare board, for every map.
//!
//! - **Light**: a uniformly random legal move that does not fill the mover's own eye
//!   ([`gobeyond_rules::playout::choose_light`]).
//! - **Tactics**: first the tactics around the last move, as Pachi and libego do, but with graph
//!   neighbourhoods so that it works on any map: capture a group of any opponent left in atari
//!   next to the last move; else save an own group the last move put in atari by extending (only
//!   if that gives it at least two liberties) or by capturing a neighbour; else a light move that
//!   is not a self-atari of two or more stones.
//! - **Heavy**: the tactics, then MoGo-style shape patterns around the last move before the
//!   light move. MoGo matches 3×3 patterns on the 8 points around the last move; here the "3×3
//!   neighbourhood" of a node is its neighbours and its graph diagonals
//!   ([`PlayoutTables::diagonals`]: opposite corners of a chordless 4-cycle), which is the 3×3
//!   block on a square grid and means the same thing on any graph, and the patterns are
//!   predicates on groups rather than fixed pictures (see [`shape_move`]).

use gobeyond_maps::NodeId;
use gobeyond_rules::{
    Board, Player, Rng, SuicideRule,
    board::EMPTY,
    playout::{PlayoutTables, choose_light, is_eye},
};

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
            Policy::Light => choose_light(board, tables, player, rng),
            Policy::Tactics => choose_heavy(board, tables, player, last, Stage::None, rng),
            Policy::Reading => choose_heavy(board, tables, player, last, Stage::TwoLiberties, rng),
            Policy::Heavy => choose_heavy(board, tables, player, last, Stage::Shape, rng),
            Policy::Patterns => choose_patterns(board, tables, player, last, rng),
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

/// Whether playing `node` makes good shape for `player`, MoGo's patterns as predicates on any
/// graph (empty `node`; "opponent" is any other player):
/// - **cut**: `node` touches two groups of one opponent that it separates;
/// - **connect**: `node` joins two of the player's groups with an opponent stone next to it or on
///   one of its diagonals (the opponent's cutting point);
/// - **hane**: `node` touches an opponent stone that is in contact with a stone of the player
///   lying on a diagonal of `node` (reaching round the opponent's contact stone).
fn good_shape(board: &Board, tables: &PlayoutTables, node: NodeId, player: Player) -> bool {
    let map = board.map();
    let stone = player.stone();
    let mut own = Groups::new();
    let mut touches_opponent = false;
    for &q in map.neighbors(node) {
        let c = board.color(q);
        if c == EMPTY {
            continue;
        }
        if c == stone {
            own.add(board.group_id(q).unwrap_or(q));
            continue;
        }
        touches_opponent = true;
        // Cut: another group of this colour touches `node` too.
        let id = board.group_id(q).unwrap_or(q);
        if map.neighbors(node).iter().any(|&r| board.color(r) == c && board.group_id(r) != Some(id)) {
            return true;
        }
        // Hane: an own stone touches `q` and is a diagonal of `node`.
        let diagonals = tables.diagonals(node);
        if map.neighbors(q).iter().any(|&r| board.color(r) == stone && diagonals.contains(&r)) {
            return true;
        }
    }
    own.len >= 2
        && (touches_opponent
            || tables.diagonals(node).iter().any(|&d| board.color(d) != EMPTY && board.color(d) != stone))
}

/// A random good-shape move ([`good_shape`]) in the 3×3 neighbourhood of `last`: legal, not an
/// own eye and not a big self-atari.
fn shape_move(
    board: &Board,
    tables: &PlayoutTables,
    player: Player,
    last: NodeId,
    rng: &mut Rng,
) -> Option<NodeId> {
    let map = board.map();
    let mut found = [0 as NodeId; 16];
    let mut k = 0;
    for &n in map.neighbors(last).iter().chain(tables.diagonals(last)) {
        if k < found.len()
            && board.color(n) == EMPTY
            && good_shape(board, tables, n, player)
            && !is_eye(board, tables, n, player.stone())
            && board.check(n, player, SuicideRule::Forbidden).is_ok()
            && !bad_self_atari(board, n, player)
        {
            found[k] = n;
            k += 1;
        }
    }
    (k > 0).then(|| found[rng.below(k as u32) as usize])
}

/// What a tactical policy tries after the tactics and before a light move.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stage {
    /// Nothing: straight to the light move (`tactics`).
    None,
    /// MoGo-style shape around the last move (`heavy`).
    Shape,
    /// Three times in four, a group of two liberties next to the last move (`reading`).
    TwoLiberties,
}

/// A tactical policy's move for `player`, `last` being the previous placement: the tactics,
/// then `stage`, then a light move that is not a big self-atari.
pub fn choose_heavy(
    board: &Board,
    tables: &PlayoutTables,
    player: Player,
    last: Option<NodeId>,
    stage: Stage,
    rng: &mut Rng,
) -> Option<NodeId> {
    if let Some(n) = urgent(board, player, last, rng) {
        return Some(n);
    }
    if let Some(last) = last.filter(|&l| board.color(l) != EMPTY) {
        let found = match stage {
            Stage::None => None,
            Stage::Shape => shape_move(board, tables, player, last, rng),
            Stage::TwoLiberties if rng.below(4) != 0 => two_liberty_move(board, player, last, rng),
            Stage::TwoLiberties => None,
        };
        if found.is_some() {
            return found;
        }
    }
    light_but_not_big_self_atari(board, tables, player, rng)
}

/// Races and short fights, as Pachi's playouts read them: for each group next to `last` (or
/// `last`'s own) with exactly two liberties, an own group extends at a liberty that gives it
/// three or more; an opponent's group is put in atari from a liberty where the new stone has
/// two liberties itself and from which the group's extension at its other liberty would leave
/// it two at most (a ladder or a net, not a push that lets it out). A random one of these;
/// `None` when there is none.
pub fn two_liberty_move(board: &Board, player: Player, last: NodeId, rng: &mut Rng) -> Option<NodeId> {
    let map = board.map();
    let mut groups = Groups::new();
    let mut candidates = [0 as NodeId; 8];
    let mut k = 0;
    let mut seen = [0; 8];
    for q in std::iter::once(last).chain(map.neighbors(last).iter().copied()) {
        let Some(owner) = board.stone_at(q) else { continue };
        if !groups.add(board.group_id(q).unwrap_or(q)) {
            continue;
        }
        let mut libs = [0; 3];
        if crate::ladder::liberties(board, q, &mut libs) != 2 {
            continue;
        }
        for (l, other) in [(libs[0], libs[1]), (libs[1], libs[0])] {
            if k == candidates.len() || board.check(l, player, SuicideRule::Forbidden).is_err() {
                continue;
            }
            let good = if owner == player {
                liberties_after(board, l, player, 3, &mut seen) >= 3
            } else {
                // `l` is still empty on the board, so it counts among the extension's liberties.
                liberties_after(board, l, player, 2, &mut seen) >= 2
                    && liberties_after(board, other, owner, 4, &mut seen) <= 3
            };
            if good && !candidates[..k].contains(&l) {
                candidates[k] = l;
                k += 1;
            }
        }
    }
    (k > 0).then(|| candidates[rng.below(k as u32) as usize])
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

/// The tactics, then a light move chosen between two by the learned shape weights.
pub fn choose_patterns(
    board: &Board,
    tables: &PlayoutTables,
    player: Player,
    last: Option<NodeId>,
    rng: &mut Rng,
) -> Option<NodeId> {
    if let Some(n) = urgent(board, player, last, rng) {
        return Some(n);
    }
    let a = light_but_not_big_self_atari(board, tables, player, rng)?;
    let Some(b) = light_but_not_big_self_atari(board, tables, player, rng).filter(|&b| b != a) else {
        return Some(a);
    };
    let model = crate::patterns::Model::builtin();
    let ga = model.shape_gamma(crate::patterns::shape(board, tables, a, player));
    let gb = model.shape_gamma(crate::patterns::shape(board, tables, b, player));
    Some(if rng.unit() * f64::from(ga + gb) < f64::from(ga) { a } else { b })
}

/// The tactics around the last move: a capture of a group left in atari next to it, or a save
/// of an own group it put in atari (see the module notes); `None` when there is nothing urgent.
pub fn urgent(board: &Board, player: Player, last: Option<NodeId>, rng: &mut Rng) -> Option<NodeId> {
    let stone = player.stone();
    if let Some(last) = last.filter(|&l| board.color(l) != EMPTY) {
        let map = board.map();
        let mut candidates = [0 as NodeId; 16];
        let mut k = 0;
        let mut push = |n: NodeId, k: &mut usize| {
            if *k < candidates.len() && !candidates[..*k].contains(&n) {
                candidates[*k] = n;
                *k += 1;
            }
        };
        // Captures: groups of any opponent next to the last move (or the last stone's own group)
        // with one liberty.
        let around = std::iter::once(last).chain(map.neighbors(last).iter().copied());
        for q in around {
            let c = board.color(q);
            if c == EMPTY || c == stone {
                continue;
            }
            if let Some(lib) = board.atari_liberty(q)
                && board.check(lib, player, SuicideRule::Forbidden).is_ok()
            {
                push(lib, &mut k);
            }
        }
        // Escapes: own groups next to the last move in atari.
        let mut seen = [0; 8];
        for &q in map.neighbors(last) {
            if board.color(q) != stone {
                continue;
            }
            let Some(lib) = board.atari_liberty(q) else { continue };
            if board.check(lib, player, SuicideRule::Forbidden).is_ok()
                && liberties_after(board, lib, player, 2, &mut seen) >= 2
            {
                push(lib, &mut k);
            }
            // Or capture an attacker of that group.
            for s in board.group_stones(q) {
                for &a in map.neighbors(s) {
                    let c = board.color(a);
                    if c != EMPTY
                        && c != stone
                        && let Some(l) = board.atari_liberty(a)
                        && board.check(l, player, SuicideRule::Forbidden).is_ok()
                    {
                        push(l, &mut k);
                    }
                }
            }
        }
        if k > 0 {
            return Some(candidates[rng.below(k as u32) as usize]);
        }
    }
    None
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

    use super::*;

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
