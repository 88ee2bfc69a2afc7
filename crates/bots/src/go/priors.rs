//! Go knowledge for the priors of the Go-board systems: captures and escapes are urgent,
//! own-eye filling and big self-ataris bad, the edge a little worse on big maps; ladders read;
//! the learned move patterns; and on big maps the line of a move in an empty area.

use gobeyond_maps::{Map, NodeId};
use gobeyond_rules::{
    Board, ClassicGame, Game, Player, SuicideRule,
    board::EMPTY,
    playout::{PlayoutTables, is_eye},
};

use super::{patterns, scratch::Scratch};
use crate::search::searchable::Prior;

/// Any placement with nothing better or worse to say about it.
pub const EVEN: Prior = Prior { visits: 10.0, value: 0.5 };
/// Escaping from atari to two or more liberties.
pub const ESCAPE: Prior = Prior { visits: 20.0, value: 0.75 };
/// Running from atari into a ladder that works: it only adds stones to the capture.
pub const INTO_LADDER: Prior = Prior { visits: 20.0, value: 0.1 };
/// An atari that captures by ladder (playouts rarely finish a ladder).
pub const LADDER_CAPTURE: Prior = Prior { visits: 20.0, value: 0.8 };

/// Board knowledge shared by the rule systems' priors: captures and escapes are urgent, own-eye
/// filling and big self-ataris bad, the edge (nodes of low degree) a little worse on big maps.
pub fn placement_prior(board: &Board, tables: &PlayoutTables, node: NodeId, player: Player) -> Prior {
    let map = board.map();
    let stone = player.stone();
    if is_eye(board, tables, node, stone) {
        return Prior { visits: 30.0, value: 0.05 };
    }
    let mut capture = false;
    let mut escape = false;
    for &q in map.neighbors(node) {
        let c = board.color(q);
        if c == EMPTY || board.atari_liberty(q) != Some(node) {
            continue;
        }
        if c == stone {
            escape = true;
        } else {
            capture = true;
        }
    }
    if capture {
        return Prior { visits: 20.0, value: 0.85 };
    }
    let empty_nbrs = map.neighbors(node).iter().filter(|&&q| board.color(q) == EMPTY).count();
    if escape && empty_nbrs >= 2 {
        return ESCAPE;
    }
    let own_nbr = map.neighbors(node).iter().any(|&q| board.color(q) == stone);
    if empty_nbrs <= 1 && own_nbr && board.check(node, player, SuicideRule::Forbidden).is_ok() {
        // Likely a self-atari of a group.
        return Prior { visits: 20.0, value: 0.15 };
    }
    if map.len() >= 100 && map.degree(node) < map.max_degree() {
        return Prior { visits: 10.0, value: 0.4 };
    }
    EVEN
}

/// Each node's line (see [`Scratch::line`]): a breadth-first walk from the edge.
pub fn lines(map: &Map) -> Vec<u8> {
    let mut line = vec![0u8; map.len()];
    let top = map.max_degree();
    let mut frontier: Vec<NodeId> = map.nodes().filter(|&n| map.degree(n) < top).collect();
    for &n in &frontier {
        line[n as usize] = 1;
    }
    let mut depth = 1u8;
    while !frontier.is_empty() {
        depth = depth.saturating_add(1);
        let mut next = Vec::new();
        for &n in &frontier {
            for &q in map.neighbors(n) {
                // Marked when first reached, so each node joins one frontier once.
                if line[q as usize] == 0 {
                    line[q as usize] = depth;
                    next.push(q);
                }
            }
        }
        frontier = next;
    }
    line
}

/// Maps big enough to have an opening (13×13 and up): there a move in an empty area is judged
/// by its line, as Pachi and Fuego do.
const OPENING_MAP: usize = 169;
/// Virtual visits of the line prior.
const LINE_VISITS: f32 = 20.0;

/// The line prior of a move with no stone within two steps: the first line is poor, the second
/// weak, the third and fourth good; `None` elsewhere, on small maps and on maps without edge.
pub fn line_prior(board: &Board, line: &[u8], node: NodeId) -> Option<Prior> {
    let map = board.map();
    if map.len() < OPENING_MAP {
        return None;
    }
    let value = match line.get(node as usize)? {
        1 => 0.1,
        2 => 0.35,
        3 | 4 => 0.7,
        _ => return None,
    };
    (!near_stones(board, node)).then_some(Prior { visits: LINE_VISITS, value })
}

/// Whether a stone stands within two steps of `node`: else it is in an open area, where its
/// line says most about it.
pub fn near_stones(board: &Board, node: NodeId) -> bool {
    let map = board.map();
    map.neighbors(node)
        .iter()
        .any(|&q| board.color(q) != EMPTY || map.neighbors(q).iter().any(|&r| board.color(r) != EMPTY))
}

/// Two priors as one: their virtual visits added, their values weighted by them.
pub fn combine(a: Prior, b: Prior) -> Prior {
    let visits = a.visits + b.visits;
    Prior { visits, value: (a.value * a.visits + b.value * b.visits) / visits }
}

/// Virtual visits of a pattern prior.
const PATTERN_VISITS: f32 = 20.0;

/// On big maps, the virtual *wins* a move gets for the probability `p` that it is the move
/// played: `PROBABILITY_WINS · √p`, as Pachi weighs its pattern prior. Among hundreds of
/// candidates the search cannot try everything, and RAVE's early values come from random
/// playouts: the likely moves must be tried first and kept longer. 300 beat the plain prior
/// 21–11 in 19×19 self-play at 3,000 and 10,000 playouts a move (docs/benchmarks.md, "19×19:
/// the patterns' probability as a prior").
const PROBABILITY_WINS: f32 = 300.0;

/// The learned patterns' prior: a move as likely as the average candidate is even; ten times
/// more likely, about 0.75; ten times less, about 0.25. Ladders are read as before: running
/// into one is bad, starting one that works good.
pub fn pattern_prior(game: &ClassicGame, scratch: &mut Scratch, node: NodeId, player: Player) -> Prior {
    let board = ClassicGame::board(game);
    let moves = game.moves();
    // On big maps the model is not told where the opponent just played: its γ for touching that
    // move (6.9) made a contact play the likeliest move of most positions, and the probability
    // wins turned that into a contact answer a third of the time where GNU Go plays one a tenth
    // (docs/benchmarks.md, "19×19: answering the last move").
    let big = board.map().len() >= OPENING_MAP;
    let last = moves.last().filter(|m| m.0 != player && !big).and_then(|m| m.1.node());
    let own_last = moves.iter().rev().filter(|m| m.0 == player).find_map(|m| m.1.node());
    let model = patterns::Model::builtin(board.len());
    let position = patterns::Position {
        board,
        tables: &scratch.tables,
        rings: &scratch.rings,
        lines: &scratch.line,
        moves: moves.len(),
        player,
        last,
        own_last,
    };
    let Some(r) = scratch.pattern_cache.relative(model, &position, node) else {
        // An own eye (or nothing the model rates).
        return Prior { visits: 30.0, value: 0.05 };
    };
    if game.player_count() == 2 {
        let opponent = Player(1 - player.0);
        let runs_into_ladder = board.map().neighbors(node).iter().any(|&q| {
            board.atari_liberty(q) == Some(node)
                && board.color(q) == player.stone()
                && scratch.ladder.escape_fails(board, q, opponent)
        });
        if runs_into_ladder {
            return INTO_LADDER;
        }
        if r < 4.0 && scratch.ladder.atari_captures(board, node, player, opponent) {
            return LADDER_CAPTURE;
        }
    }
    let mut prior = Prior { visits: PATTERN_VISITS, value: 0.5 + 0.35 * (r.ln() / 2.3).tanh() };
    if big {
        let p = r / scratch.pattern_cache.candidates().max(1) as f32;
        prior = combine(prior, Prior { visits: PROBABILITY_WINS * p.sqrt(), value: 1.0 });
    }
    match line_prior(board, &scratch.line, node) {
        Some(line) => combine(prior, line),
        None => prior,
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use std::sync::Arc;

    use gobeyond_maps::generate;
    use gobeyond_rules::{ClassicRules, classic::Action};

    use super::*;
    use crate::search::mcts::SearchConfig;

    /// The pattern priors of `labels` after `moves` (alternating, Black first) on `spec`.
    fn pattern_priors(spec: &str, moves: &[&str], labels: &[&str]) -> Vec<Prior> {
        let map = Arc::new(generate(spec).unwrap());
        let mut game = ClassicGame::new(map.clone(), 2, ClassicRules::default()).unwrap();
        for m in moves {
            game.play(Action::Place(map.node_by_label(m).unwrap())).unwrap();
        }
        let tables = Arc::new(PlayoutTables::new(&map));
        let mut scratch = Scratch::new(&map, tables, &SearchConfig::default());
        let player = game.to_move().unwrap();
        labels
            .iter()
            .map(|l| pattern_prior(&game, &mut scratch, map.node_by_label(l).unwrap(), player))
            .collect()
    }

    /// On a big board a likely move gets virtual wins by its probability, so the capture of a
    /// stone in atari starts far ahead of a quiet move, with many more virtual visits; on 9×9
    /// the prior is the pattern's alone.
    #[test]
    fn big_boards_weigh_the_patterns_probability_as_virtual_wins() {
        // White's K11 is in atari (Black on K10, J11, L11); Black to move, K12 captures.
        let moves = ["K10", "K11", "J11", "C17", "L11", "C3"];
        let big = pattern_priors("square:19", &moves, &["K12", "K15"]);
        let (capture, quiet) = (big[0], big[1]);
        assert!(capture.visits > PATTERN_VISITS + 40.0, "{capture:?}");
        assert!(capture.value > 0.9, "{capture:?}");
        assert!(capture.visits > quiet.visits + 30.0, "{capture:?} against {quiet:?}");
        assert!(capture.value > quiet.value + 0.1, "{capture:?} against {quiet:?}");
        let small = pattern_priors("square:9", &["E4", "E5", "D5", "C8", "F5", "C2"], &["E6"]);
        assert_eq!(small[0].visits, PATTERN_VISITS, "9×9 keeps the plain pattern prior: {:?}", small[0]);
    }

    /// The same stones, the opponent's last move at one of them or at another: on a big board
    /// touching it is worth no more than touching the other (the model is not told of it); on
    /// 9×9 the contact answer is still the likelier.
    #[test]
    fn only_small_boards_prefer_answering_the_last_move() {
        let touching = |spec: &str, moves: &[&str], label: &str| pattern_priors(spec, moves, &[label])[0];
        let (last, earlier) = (
            touching("square:19", &["Q4", "Q16", "D16", "D4"], "D5"),
            touching("square:19", &["Q4", "D4", "D16", "Q16"], "D5"),
        );
        assert_eq!(last, earlier, "19×19: {last:?} next to the last move, {earlier:?} next to an older one");
        let (last, earlier) = (
            touching("square:9", &["G3", "G7", "C7", "C3"], "C4"),
            touching("square:9", &["G3", "C3", "C7", "G7"], "C4"),
        );
        assert!(last.value > earlier.value + 0.05, "9×9: {last:?} next to the last move, {earlier:?}");
    }

    /// Lines count from the edge; a map without edge has none.
    #[test]
    fn lines_count_from_the_edge() {
        let map = generate("square:19").unwrap();
        let line = |label: &str| lines(&map)[map.node_by_label(label).unwrap() as usize];
        assert_eq!(
            [line("A1"), line("B2"), line("C17"), line("D4"), line("K10"), line("T5")],
            [1, 2, 3, 4, 10, 1]
        );
        assert!(lines(&generate("torus:19").unwrap()).iter().all(|&l| l == 0));
    }

    /// In an empty area of a big board the third and fourth lines are good, the second weak,
    /// the first poor; near a stone, on a small board or without edge the line says nothing.
    #[test]
    fn the_line_judges_moves_in_empty_areas_of_big_boards() {
        let at = |spec: &str, stones: &[&str], label: &str| {
            let map = Arc::new(generate(spec).unwrap());
            let mut board = Board::new(map.clone());
            for s in stones {
                board.put_stone(map.node_by_label(s).unwrap(), Player(1));
            }
            line_prior(&board, &lines(&map), map.node_by_label(label).unwrap()).map(|p| p.value)
        };
        let values: Vec<_> = ["A1", "B2", "C3", "D4", "E5"].iter().map(|l| at("square:19", &[], l)).collect();
        assert_eq!(values, [Some(0.1), Some(0.35), Some(0.7), Some(0.7), None]);
        assert_eq!(at("square:13", &[], "C3"), Some(0.7));
        assert_eq!(at("square:19", &["E4"], "C3"), Some(0.7), "two steps away is still empty");
        assert_eq!(at("square:19", &["E3"], "C3"), None, "a stone within two steps");
        assert_eq!(at("square:19", &["D3"], "C3"), None);
        assert_eq!(at("square:9", &[], "C3"), None, "9×9 has no opening to judge");
        assert_eq!(at("torus:19", &[], "C3"), None);
    }
}
